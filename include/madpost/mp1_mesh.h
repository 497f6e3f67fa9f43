/* Golden model of a KX x KY mesh of MP1 chips (docs/mp1.md §12): the chips of §11 wired plane by
 * plane to their neighbours; the interface side of every chip is the mesh's per-node ports. */
#ifndef MADPOST_MP1_MESH_H
#define MADPOST_MP1_MESH_H

#include <madpost/madpost_api.h>
#include <stdint.h>

#include <madpost/block.h>
#include <madpost/mp1_chip.h>

MADPOST_BEGIN_DECLS

/* MP1_MESH_MAX: the largest side with one-flit addresses (docs/mp1.md §3); MP1_MESH_MAX_WIDE
 * with address words of two flits (§14). */
enum { MP1_MESH_MAX = 32, MP1_MESH_MAX_WIDE = 8192, MP1_MESH_CHANS = 8 };

/* The largest side of a mesh whose addresses are words of awf flits (0 taken as 1). */
static inline uint32_t mp1_mesh_max(uint32_t awf) { return mp1_addr_span(awf); }

typedef struct {
  uint32_t kx, ky;     /* 1..mp1_mesh_max(awf) each */
  /* 0 for a mesh. For the torus of docs/mp1_sim.md §7 (a torus unrolled into a 2k x 2k mesh of
   * four chips per node): the level size k in each dimension, which numbers the four chips of a
   * node, chip = 2 (y >= lvky) + (x >= lvkx). */
  uint32_t lvkx, lvky;
  uint32_t lean;       /* 1: keep no copy of the chips' inputs (nx->in is NULL): less memory */
  uint32_t awf;        /* address flits per address word, 1 or 2 (0 is taken as 1; §14) */
} mp1_mesh_cfg_t;

/* Per node: the chip's interface-side inputs and outputs (§12.2). Channel j = 2p + d. */
/* Bytes: every port is a chunk (3 bits) or a bit, and a network keeps one of each per node. */
typedef struct {
  uint8_t pbloop, inj_dat, pbi_dat, rcv_stop, pbo_stop;
} mp1_mesh_in_t;
typedef struct {
  uint8_t inj_stop, pbi_stop, rcv_dat, pbo_dat;
  uint8_t chan_dat[MP1_MESH_CHANS];  /* output channel j's chunk */
  uint8_t chan_stop[MP1_MESH_CHANS]; /* input channel j's stop */
  uint8_t err; /* the chip's err: a machine broke the buffer invariant (draft-4 §6) */
} mp1_mesh_out_t;

typedef struct {
  mp1_mesh_cfg_t cfg;
  mp1_chip_state_t *chip; /* node n = y * kx + x */
} mp1_mesh_state_t;

typedef struct {
  mp1_chip_next_t *chip;
  mp1_chip_in_t *in; /* the chips' inputs of this cycle (kept for tracing; NULL if lean) */
} mp1_mesh_next_t;

/* Per-cycle events: every chip's (node n's at chip[n]), in an array of kx ky the caller owns;
 * chip NULL: none are written. */
typedef struct {
  mp1_chip_ev_t *chip;
} mp1_mesh_ev_t;

/* Allocates state and next for cfg and resets; returns -1 on a bad size or awf, or no memory. The
 * state keeps cfg (st->cfg, awf 0 made 1): pass &st->cfg to reset and eval. */
int mp1_mesh_init(mp1_mesh_state_t *st, mp1_mesh_next_t *nx, mp1_mesh_cfg_t cfg);
void mp1_mesh_free(mp1_mesh_state_t *st, mp1_mesh_next_t *nx);
/* The block contract (include/madpost/block.h), over arrays: in and out have one entry per node
 * (n = y kx + x). eval returns 0 (a chip's err is its port, out[n].err). */
void mp1_mesh_reset(const mp1_mesh_cfg_t *cfg, mp1_mesh_state_t *st);
int mp1_mesh_eval(const mp1_mesh_cfg_t *cfg, const mp1_mesh_state_t *st, const mp1_mesh_in_t *in,
                  mp1_mesh_out_t *out, mp1_mesh_next_t *nx, mp1_mesh_ev_t *ev);
void mp1_mesh_clock(mp1_mesh_state_t *st, const mp1_mesh_next_t *nx);
MADPOST_BLOCK_CONTRACT(mp1_mesh);
/* The first of the n chips whose err is set this cycle (docs/mp1_draft4.md §6), n if none: the
 * simulators stop there and name it. */
static inline uint32_t mp1_mesh_first_err(const mp1_mesh_out_t *out, uint32_t n) {
  uint32_t v = 0;
  while (v < n && !out[v].err) v++;
  return v;
}

/* Neighbour of node n across channel j (p, d) in the direction of travel; -1 outside the mesh. */
int mp1_mesh_next_node(const mp1_mesh_cfg_t *cfg, uint32_t n, uint32_t j);

MADPOST_END_DECLS
#endif
