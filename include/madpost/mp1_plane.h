/* Golden model of one MP1 plane at one node (docs/mp1.md §10, with docs/mp1_draft4.md §8): two
 * routing machines and the arbiters of the two output channels, in the house block shape. */
#ifndef MADPOST_MP1_PLANE_H
#define MADPOST_MP1_PLANE_H

#include <stdint.h>

#include <madpost/mp1_plane_ports.h>
#include <madpost/mp1_rm.h>

#ifdef __cplusplus
extern "C" {
#endif

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

void mp1_plane_reset(mp1_plane_state_t *st);
void mp1_plane_eval(const mp1_plane_cfg_t *cfg, const mp1_plane_state_t *st,
                    const mp1_plane_in_t *in, mp1_plane_out_t *out, mp1_plane_next_t *nx);
static inline void mp1_plane_clock(mp1_plane_state_t *st, const mp1_plane_next_t *nx) {
  mp1_rm_clock(&st->rmx, &nx->rmx);
  mp1_rm_clock(&st->rmy, &nx->rmy);
  st->arbx_own = nx->arbx_own;
  st->arbx_pos = nx->arbx_pos;
  st->arby_own = nx->arby_own;
  st->arby_pos = nx->arby_pos;
}

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

/* Both machines quiet (mp1_rm_quiet): mp1_plane_eval_quiet gives exactly what mp1_plane_eval
 * gives then, from the injection inputs alone (a caller need not gather the others), whatever
 * the configuration. */
static inline int mp1_plane_quiet(const mp1_plane_state_t *st, uint32_t xin_dat,
                                  uint32_t yin_dat) {
  return mp1_rm_quiet(&st->rmx, xin_dat) && mp1_rm_quiet(&st->rmy, yin_dat);
}
void mp1_plane_eval_quiet(const mp1_plane_state_t *st, uint32_t inj_x_req, uint32_t inj_x_dat,
                          uint32_t inj_y_req, uint32_t inj_y_dat, mp1_plane_out_t *out,
                          mp1_plane_next_t *nx);
/* Quiet, and both machines settled (mp1_rm_settled): nothing in the machines changes and they
 * give nothing (in_stop and every chunk and request 0); an arbiter with no machine requesting goes
 * to the injection (3) if it asks, else to none (mp1_arb_next), and its framing follows the
 * injection's chunk if the injection owns it, else an idle channel. mp1_plane_eval_settled writes
 * next; the outputs are then xin_stop = yin_stop = 0, the rc and pb chunks and requests 0,
 * xout_dat (yout_dat) the injection chunk if the X (Y) arbiter owns 3, else 0,
 * inj_x_keep = inj_x_req, inj_y_keep = inj_y_req, and err = 0 (nothing is written). */
static inline int mp1_plane_settled(const mp1_plane_state_t *st, uint32_t xin_dat,
                                    uint32_t yin_dat) {
  return mp1_plane_quiet(st, xin_dat, yin_dat) && mp1_rm_settled(&st->rmx) &&
         mp1_rm_settled(&st->rmy);
}
static inline void mp1_plane_eval_settled(const mp1_plane_state_t *st, uint32_t inj_x_req,
                                          uint32_t inj_x_dat, uint32_t inj_y_req,
                                          uint32_t inj_y_dat, mp1_plane_next_t *nx) {
  nx->rmx.keep = nx->rmy.keep = 1;
  nx->arbx_own = inj_x_req ? 3u : 0u;
  nx->arby_own = inj_y_req ? 3u : 0u;
  nx->arbx_pos = (uint8_t)mp1_arb_pos(st->arbx_pos, st->arbx_own == 3 ? inj_x_dat : 0u);
  nx->arby_pos = (uint8_t)mp1_arb_pos(st->arby_pos, st->arby_own == 3 ? inj_y_dat : 0u);
}
void mp1_plane_regs(const mp1_plane_state_t *st, mp1_plane_regs_t *r);

/* The chunk on output channel dim (0 X, 1 Y): the arbiter's owner's register (from state only),
 * inj_dat being the injection's chunk for that output. Inline: the mesh reads every channel of
 * every node each cycle. */
static inline uint32_t mp1_plane_out_dat(const mp1_plane_state_t *st, uint32_t dim,
                                         uint32_t inj_dat) {
  const uint32_t own = dim ? st->arby_own : st->arbx_own;
  const mp1_rm_regs_t *st_rm = dim ? &st->rmy.r : &st->rmx.r; /* straight: requester 1 */
  const mp1_rm_regs_t *ot_rm = dim ? &st->rmx.r : &st->rmy.r; /* turning: requester 2 */
  return own == 1 ? st_rm->st_dat : own == 2 ? ot_rm->ot_dat : own == 3 ? inj_dat & 7u : 0;
}

#ifdef __cplusplus
}
#endif
#endif
