/* Golden cycle-accurate model of the C104 packet routing switch (docs/c104.md §1-§15): 32 ports,
 * each one DS-Link end (the dslink model, reused) or a token-level port (§14); a routing slice per
 * input (§9), FIFO or round-robin arbiters over hunt groups (§10), header deletion and universal
 * routing (§11). The house block shape: outputs, a pure eval to next registers, a clock edge. */
#ifndef MADPOST_C104_H
#define MADPOST_C104_H

#include <madpost/madpost_api.h>
#include <stddef.h>
#include <stdint.h>

#include <madpost/block.h>
#include <madpost/c104_ports.h>
#include <madpost/dslink.h>

MADPOST_BEGIN_DECLS

enum {
  C104_PORTS = 32,        /* ports, slices, outputs */
  C104_NINT = 32,         /* interval entries */
  C104_LFSR_SEED = 0xACE1, /* reset value of lfsr, and what a seed of 0 becomes (§7) */
  C104_LINK_RUN = 5,      /* link_state_o of a token port (dslink Run) */
  C104_SETUP_NWRITES = 130 /* writes c104_setup_writes() produces */
};

/* Configuration addresses (§7). */
enum {
  C104_A_PORT = 0x00,  /* + p: cfg_port[p] */
  C104_A_RANGE = 0x20, /* + p: cfg_rlo[p], cfg_rhi[p] */
  C104_A_SEED = 0x40,  /* + p: lfsr[p] */
  C104_A_INT = 0x60,   /* + e: cfg_ihi[e], cfg_iport[e], cfg_ival[e] */
  C104_A_CTRL = 0x80,  /* cfg_nint, cfg_rr */
  C104_A_GRP = 0x81    /* cfg_grp */
};

/* Slice states (sl_st, §8; 6 and 7 act as IDLE). */
typedef enum {
  C104_IDLE = 0,
  C104_HDR = 1,
  C104_WAIT = 2,
  C104_EMIT = 3,
  C104_FWD = 4,
  C104_DISC = 5
} c104_sl_state_e;

/* cfg_port fields (§7). */
enum { C104_PORT_HDR2 = 1u, C104_PORT_DEL_SHIFT = 1, C104_PORT_RND = 8u };

/* Port-list helpers. A register field of `width` bits is held in the smallest unsigned type that
 * fits (the state of a network of switches stays small); inputs and outputs are uint32_t. */
#define C104_UINT(width) C104_UINT_##width
#define C104_UINT_1 uint8_t
#define C104_UINT_2 uint8_t
#define C104_UINT_3 uint8_t
#define C104_UINT_4 uint8_t
#define C104_UINT_5 uint8_t
#define C104_UINT_6 uint8_t
#define C104_UINT_8 uint8_t
#define C104_UINT_16 uint16_t
#define C104_UINT_32 uint32_t
/* [32] for count 32, nothing for count 1. */
#define C104_DIM(count) C104_DIM_##count
#define C104_DIM_1
#define C104_DIM_32 [C104_PORTS]
/* Element k of a port-list field: lv[k] for count 32, lv itself (k ignored) for count 1. */
#define C104_AT(lv, count, k) C104_AT_##count(lv, k)
#define C104_AT_1(lv, k) (lv)
#define C104_AT_32(lv, k) ((lv)[k])

#define C104_X_IO(name, count, width) uint32_t name C104_DIM(count);
#define C104_X_REG(name, count, width) C104_UINT(width) name C104_DIM(count);
typedef struct {
  C104_INPUTS(C104_X_IO)
} c104_in_t;
typedef struct {
  C104_OUTPUTS(C104_X_IO)
} c104_out_t;
/* Every architectural register of §8, named as in the RTL without _q. */
typedef struct {
  C104_REGS(C104_X_REG)
} c104_regs_t;
#undef C104_X_IO
#undef C104_X_REG

/* Parameters (§4): TokPorts and the 32 links' common dslink parameters. */
typedef struct {
  uint32_t tok_ports; /* bit p: port p is a token-level port (§14), no dslink */
  dslink_cfg_t link;
} c104_cfg_t;

/* The switch's registers and its 32 link ends (a token port's stays at its reset value, 0). */
typedef struct {
  c104_regs_t r;
  dslink_state_t link[C104_PORTS];
} c104_state_t;

/* What one eval decides, applied by c104_clock(). keep_r = 1: the switch's registers keep their
 * values (a quiet cycle: every slice IDLE, no token at any input, no configuration write) and r is
 * not written. link[p] is filled in for the bit-level ports only (bit_ports). */
typedef struct {
  c104_regs_t r;
  uint32_t keep_r;
  uint32_t bit_ports;
  dslink_next_t link[C104_PORTS];
} c104_next_t;

/* Per-cycle events (derived, not state): the bit-level links' own events, for counters and packet
 * tracking outside the block (§17.6); link[p] is filled in for the bit-level ports only. */
typedef struct {
  dslink_ev_t link[C104_PORTS];
} c104_ev_t;

void c104_cfg_default(c104_cfg_t *cfg);
/* 0 if cfg is legal; otherwise -1 and a message in err. */
int c104_cfg_check(const c104_cfg_t *cfg, char *err, size_t errlen);

/* rst_ni low: every register to its reset value (§7, §8), every link end reset. */
void c104_reset(const c104_cfg_t *cfg, c104_state_t *st);
/* Pure: reads cfg, st, in; writes out, nx and (if not NULL) ev, in the order of §13. Returns 0,
 * or -1 if an internal invariant broke (two drivers of one output, a release or drive by a slice
 * that does not own the output, a FIFO order without a unique head, a link's receive FIFO
 * overflow): a model bug, never a user error; a message goes to stderr. */
int c104_eval(const c104_cfg_t *cfg, const c104_state_t *st, const c104_in_t *in, c104_out_t *out,
              c104_next_t *nx, c104_ev_t *ev);
void c104_clock(c104_state_t *st, const c104_next_t *nx);
MADPOST_BLOCK_CONTRACT(c104);

/* ---- Configuration (§7) ------------------------------------------------------------------- */

/* One write of the configuration port. */
typedef struct {
  uint32_t addr, data;
} c104_write_t;

/* The settings as plain fields; values are taken modulo their register widths. */
typedef struct {
  struct {
    uint32_t hdr2; /* 1: 2-byte headers on this input */
    uint32_t del;  /* 0 off, 1 route then strip, 2 strip then route (3 acts as 0) */
    uint32_t rnd;  /* 1: universal routing (a random header is prefixed) */
    uint32_t rlo, rhi; /* random header range, inclusive */
    uint32_t seed;     /* LFSR seed; 0 becomes C104_LFSR_SEED */
  } port[C104_PORTS];
  struct {
    uint32_t hi;    /* inclusive upper header limit */
    uint32_t port;  /* output port (any port of a hunt group names the group) */
    uint32_t valid; /* 1 route, 0 discard */
  } ival[C104_NINT];
  uint32_t nint; /* live entries (above 32 acts as 32) */
  uint32_t grp;  /* bit q: port q starts a hunt group */
  uint32_t rr;   /* 1: round-robin arbitration, 0: FIFO */
} c104_setup_t;

/* The reset configuration: no live entries, every port its own group, seeds C104_LFSR_SEED. */
void c104_setup_default(c104_setup_t *s);
/* The writes that load s, in address order (0x00..0x7F, 0x80, 0x81): C104_SETUP_NWRITES of them
 * into w; returns that number. */
size_t c104_setup_writes(const c104_setup_t *s, c104_write_t *w);
/* Sets st's registers as if c104_setup_writes(s) had been applied through the port. */
void c104_setup_load(const c104_setup_t *s, c104_state_t *st);
/* One configuration write (the edge's effect on the registers); unused addresses are ignored. */
void c104_cfg_write(c104_regs_t *r, uint32_t addr, uint32_t data);

/* ---- Pure functions of the registers, shared with tests and networks --------------------- */

/* lookup(x) of §9.1: 1 and *port, *leader on a hit; 0 on a miss (no live entry, or a discard). */
int c104_lookup(const c104_regs_t *r, uint32_t x, uint32_t *port, uint32_t *leader);
/* leader(q) of §9.1 for the group-start bits grp (bit 0 taken as 1). */
uint32_t c104_leader(uint32_t grp, uint32_t q);
/* The ports of the group led by g (a bit mask; g must be a leader). */
uint32_t c104_group_mask(uint32_t grp, uint32_t g);
/* §11.2: one LFSR step, and the random header drawn from an LFSR value. */
static inline uint32_t c104_lfsr_next(uint32_t x) {
  return ((x >> 1) ^ ((x & 1u) ? 0xB400u : 0u)) & 0xFFFFu;
}
static inline uint32_t c104_rand_header(uint32_t lfsr, uint32_t rlo, uint32_t rhi) {
  if (rhi < rlo)
    return rlo & 0xFFFFu;
  const uint64_t n = (uint64_t)rhi - rlo + 1u;
  return (uint32_t)(rlo + (((uint64_t)lfsr * n) >> 16)) & 0xFFFFu;
}

const char *c104_sl_state_name(uint32_t s);

MADPOST_END_DECLS
#endif
