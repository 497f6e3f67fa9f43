/* Golden cycle-accurate model of one MP1 routing machine, draft 4 (docs/mp1_draft4.md §3-§7;
 * docs/mp1.md §8 and §14 where draft 4 is silent): outputs from registers (and the combinational
 * requests and err of §3.2, §7), pure eval, clock edge. */
#ifndef MADPOST_MP1_RM_H
#define MADPOST_MP1_RM_H

#include <madpost/madpost_api.h>
#include <stdint.h>

#include <madpost/block.h>
#include <madpost/mp1_rm_ports.h>

MADPOST_BEGIN_DECLS

enum { MP1_RM_BUF = 128 };

/* A copy's state cs_k (docs/mp1_draft4.md §3). */
typedef enum {
  MP1_RM_CS_OFF = 0,  /* not a copy of F, or finished */
  MP1_RM_CS_WAIT = 1, /* must start the message on its output (its first segment) */
  MP1_RM_CS_RUN = 2,  /* sending a segment, one chunk per cycle */
  MP1_RM_CS_NEXT = 3  /* has sent an EOS; its output stays reserved for the next segment */
} mp1_rm_cs_e;

/* Output copies (bits of route). */
enum { MP1_RM_ST = 0, MP1_RM_OT = 1, MP1_RM_RC = 2, MP1_RM_PB = 3, MP1_RM_NOUT = 4 };

/* Chunks (docs/mp1.md §2.1). */
enum { MP1_CH_IDLE = 0, MP1_CH_EOS = 1, MP1_CH_EOM = 2, MP1_CH_ILLEGAL = 3 };

/* Control codes (docs/mp1.md §3.1). */
enum {
  MP1_CODE_P2P_STATIC = 0,
  MP1_CODE_P2P_ADAPTIVE = 1,
  MP1_CODE_DELIVER = 2,
  MP1_CODE_PIGGY_INTRA = 3,
  MP1_CODE_BCAST_2D = 4,
  MP1_CODE_BCAST_1D = 5,
  MP1_CODE_PIGGY_INTER = 6,
  MP1_CODE_ILLEGAL = 7
};

/* The smallest unsigned type that holds a field of the port list's width (a literal 1..32, or
 * MP1_AWB, MP1_AWR): a mesh node's registers stay small enough for large networks. Arithmetic on
 * a narrow field promotes to int, so the model masks its results and compares through uint32_t.
 * The X-macro callbacks below paste the width directly (MP1_UINT_##width), so the tokens MP1_AWB
 * and MP1_AWR arrive unexpanded (mp1_awf.h). */
#define MP1_UINT(width) MP1_UINT_##width
#define MP1_UINT_1 uint8_t
#define MP1_UINT_2 uint8_t
#define MP1_UINT_3 uint8_t
#define MP1_UINT_4 uint8_t
#define MP1_UINT_5 uint8_t
#define MP1_UINT_6 uint8_t
#define MP1_UINT_7 uint8_t
#define MP1_UINT_8 uint8_t
#define MP1_UINT_9 uint16_t
#define MP1_UINT_10 uint16_t
#define MP1_UINT_11 uint16_t
#define MP1_UINT_12 uint16_t
#define MP1_UINT_13 uint16_t
#define MP1_UINT_14 uint16_t
#define MP1_UINT_15 uint16_t
#define MP1_UINT_16 uint16_t
#define MP1_UINT_17 uint32_t
#define MP1_UINT_18 uint32_t
#define MP1_UINT_19 uint32_t
#define MP1_UINT_20 uint32_t
#define MP1_UINT_21 uint32_t
#define MP1_UINT_22 uint32_t
#define MP1_UINT_23 uint32_t
#define MP1_UINT_24 uint32_t
#define MP1_UINT_25 uint32_t
#define MP1_UINT_26 uint32_t
#define MP1_UINT_27 uint32_t
#define MP1_UINT_28 uint32_t
#define MP1_UINT_29 uint32_t
#define MP1_UINT_30 uint32_t
#define MP1_UINT_31 uint32_t
#define MP1_UINT_32 uint32_t
/* The widths that depend on AWF (docs/mp1.md §14.4): storage for the widest case, AWF = 2. */
#define MP1_UINT_MP1_AWB uint16_t
#define MP1_UINT_MP1_AWR uint16_t

#define MP1_RM_X_FIELD(name, count, width) uint32_t name;
#define MP1_RM_X_REG(name, count, width) MP1_UINT_##width name;
typedef struct {
  MP1_RM_INPUTS(MP1_RM_X_FIELD)
} mp1_rm_in_t;
typedef struct {
  MP1_RM_OUTPUTS(MP1_RM_X_FIELD)
} mp1_rm_out_t;
typedef struct {
  MP1_RM_REGS(MP1_RM_X_REG)
} mp1_rm_regs_t;
#undef MP1_RM_X_FIELD
#undef MP1_RM_X_REG

/* The routing machine's one parameter (docs/mp1.md §14.4): address flits per address word, 1 or
 * 2 (0 is taken as 1). Its node position arrives on input ports. */
typedef struct {
  uint32_t awf;
} mp1_rm_cfg_t;

typedef struct {
  mp1_rm_regs_t r;
  /* {endc, chunk[2:0]}, two entries a byte: entry a in the low nibble of mem[a / 2] if a is even */
  uint8_t mem[MP1_RM_BUF / 2];
} mp1_rm_state_t;

/* keep = 1: every register keeps its value and the buffer is not written (r, we, waddr and wdata
 * are then not filled in: the clock leaves the state as it is). It takes the struct's padding. */
typedef struct {
  mp1_rm_regs_t r;
  uint8_t we, waddr, wdata;
  uint8_t keep;
} mp1_rm_next_t;

/* Per-cycle events (derived from state and inputs, not state): what the network simulator
 * measures (docs/mp1_sim.md §4), so that it need not read the machine's registers. */
typedef struct {
  uint8_t busy;      /* holds a message: F or B valid (draft-4 §3) */
  uint8_t blocked;   /* holds a message it is not sending (draft-4 §6): B valid, or F valid, not
                      * dropping, with chunks in the buffer and no copy running */
  uint8_t live;      /* bit k (MP1_RM_ST..MP1_RM_PB): F valid and its route names output k */
  uint8_t adapt;     /* adaptive turns counted at this edge (cnt_adapt's growth) */
  uint8_t adapt_buf; /* ... of them taken with chunks in the buffer (cnt_adapt_buf's growth) */
  uint8_t drop;      /* messages dropped at this edge (cnt_bad_code, _bad_addr, _bad_long, _cut) */
  uint8_t stray;     /* strays counted at this edge (cnt_stray, draft-4 §4.6) */
} mp1_rm_ev_t;

/* The block contract (include/madpost/block.h). eval returns 0: the machine has no internal bound
 * a model bug could break; the buffer invariant of draft-4 §6 is a port (err) of the design. */
void mp1_rm_reset(const mp1_rm_cfg_t *cfg, mp1_rm_state_t *st);
int mp1_rm_eval(const mp1_rm_cfg_t *cfg, const mp1_rm_state_t *st, const mp1_rm_in_t *in,
                mp1_rm_out_t *out, mp1_rm_next_t *nx, mp1_rm_ev_t *ev);
/* Inline: a network clocks every machine of every node each cycle. */
static inline void mp1_rm_clock(mp1_rm_state_t *st, const mp1_rm_next_t *nx) {
  if (nx->keep)
    return;
  st->r = nx->r;
  if (nx->we) {
    uint8_t *b = &st->mem[(nx->waddr >> 1) & (MP1_RM_BUF / 2 - 1)];
    const uint32_t sh = (nx->waddr & 1u) << 2;
    *b = (uint8_t)((*b & ~(15u << sh)) | ((nx->wdata & 15u) << sh));
  }
}
MADPOST_BLOCK_CONTRACT(mp1_rm);

/* The occupancy of docs/mp1_draft4.md §6 on the state's registers: chunks from the oldest one F
 * still needs to the writer (0 with no F). */
uint32_t mp1_rm_occupancy(const mp1_rm_cfg_t *cfg, const mp1_rm_state_t *st);

/* The name of a copy state (cs_k). */
const char *mp1_rm_state_name(uint32_t s);

MADPOST_END_DECLS
#endif
