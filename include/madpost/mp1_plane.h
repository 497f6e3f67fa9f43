/* Golden model of one MP1 plane at one node (docs/mp1.md §10, with docs/mp1_draft4.md §8): two
 * routing machines and the arbiters of the two output channels, in the house block shape. */
#ifndef MADPOST_MP1_PLANE_H
#define MADPOST_MP1_PLANE_H

#include <madpost/madpost_api.h>
#include <stdint.h>

#include <madpost/block.h>
#include <madpost/mp1_plane_ports.h>
#include <madpost/mp1_rm.h>

MADPOST_BEGIN_DECLS

#define MP1_PLANE_X_FIELD(name, count, width) uint32_t name;
typedef struct {
  MP1_PLANE_INPUTS(MP1_PLANE_X_FIELD)
} mp1_plane_in_t;
typedef struct {
  MP1_PLANE_OUTPUTS(MP1_PLANE_X_FIELD)
} mp1_plane_out_t;
/* Every register of the plane, flat and named as the RTL's debug ports. */
#define MP1_PLANE_X_REG(name, count, width) MP1_UINT_##width name; /* pasted directly: mp1_awf.h */
typedef struct {
  MP1_PLANE_REGS(MP1_PLANE_X_REG)
} mp1_plane_regs_t;
#undef MP1_PLANE_X_FIELD
#undef MP1_PLANE_X_REG

/* The plane's parameter, passed to its machines (docs/mp1.md §14.3): address flits per word. */
typedef struct {
  uint32_t awf;
} mp1_plane_cfg_t;

/* An output arbiter's registers (draft-4 §8): the owner (0 none, 1 straight machine, 2 turning
 * machine, 3 injection) and the framing of its channel (0 between flits, 1 and 2 inside one). */
typedef struct {
  mp1_rm_state_t rmx, rmy;
  uint8_t arbx_own, arbx_pos, arby_own, arby_pos;
} mp1_plane_state_t;

typedef struct {
  mp1_rm_next_t rmx, rmy;
  uint8_t arbx_own, arbx_pos, arby_own, arby_pos;
} mp1_plane_next_t;

/* Per-cycle events (derived from state and inputs, not state): the machines' and the output
 * channels', what the network simulator measures (docs/mp1_sim.md §4). */
typedef struct {
  mp1_rm_ev_t rmx, rmy;
  uint8_t own[2]; /* the arbiters' owners this cycle, X then Y (0 none, 1 straight machine, 2
                   * turning machine, 3 injection) */
  uint8_t live;   /* bit d: output d's owner sends its own message there (its F's route names
                   * the output; the injection's always) */
  uint8_t eom;    /* bit d: the chunk on output d is an EOM (an end code outside a flit, §8) */
} mp1_plane_ev_t;

/* The block contract (include/madpost/block.h); eval returns 0 (nothing a model bug could
 * overflow; err is a port). */
void mp1_plane_reset(const mp1_plane_cfg_t *cfg, mp1_plane_state_t *st);
int mp1_plane_eval(const mp1_plane_cfg_t *cfg, const mp1_plane_state_t *st,
                   const mp1_plane_in_t *in, mp1_plane_out_t *out, mp1_plane_next_t *nx,
                   mp1_plane_ev_t *ev);
static inline void mp1_plane_clock(mp1_plane_state_t *st, const mp1_plane_next_t *nx) {
  mp1_rm_clock(&st->rmx, &nx->rmx);
  mp1_rm_clock(&st->rmy, &nx->rmy);
  st->arbx_own = nx->arbx_own;
  st->arbx_pos = nx->arbx_pos;
  st->arby_own = nx->arby_own;
  st->arby_pos = nx->arby_pos;
}
MADPOST_BLOCK_CONTRACT(mp1_plane);

/* The output arbiter's framing of its channel (draft-4 §8), from the chunk w on the channel this
 * cycle: the next pos, and whether w is an EOM (an end code outside a flit). */
static inline uint32_t mp1_arb_pos(uint32_t pos, uint32_t w) {
  return pos == 0 ? (w >> 2) & 1u : pos == 1 ? 2u : 0u;
}
static inline uint32_t mp1_arb_eom(uint32_t pos, uint32_t w) {
  return pos == 0 && (w & 7u) == MP1_CH_EOM;
}

/* The output arbiter (draft-4 §8): next owner from the owner, the EOM on its channel and the
 * three requests. An owner that asks keeps the output except at an EOM, where every other
 * requester goes first (straight, turning, injection) and the owner only if none asks. */
uint32_t mp1_arb_next(uint32_t own, uint32_t eom, uint32_t req1, uint32_t req2, uint32_t req3);

void mp1_plane_regs(const mp1_plane_state_t *st, mp1_plane_regs_t *r);

MADPOST_END_DECLS
#endif
