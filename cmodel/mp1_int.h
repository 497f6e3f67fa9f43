/* The MP1 blocks' private fast paths (not part of their API): the quiet and settled shortcuts a
 * network of thousands of nodes takes through idle machines and planes, and the channel chunks
 * read from state by the plane, chip and mesh. Each gives exactly what the full eval gives. */
#ifndef MADPOST_MP1_INT_H
#define MADPOST_MP1_INT_H

#include <string.h>

#include <madpost/mp1_chip.h>

/* ---- routing machine ----------------------------------------------------------------------- */

/* Entry a of the buffer. */
static inline uint32_t mp1_rm_mem(const mp1_rm_state_t *st, uint32_t a) {
  return (uint32_t)(st->mem[(a >> 1) & (MP1_RM_BUF / 2 - 1)] >> ((a & 1u) << 2)) & 15u;
}

/* mp1_rm_eval without its quiet shortcut (mp1_rm_quiet): the tests check that the two agree. */
void mp1_rm_eval_full(const mp1_rm_cfg_t *cfg, const mp1_rm_state_t *st, const mp1_rm_in_t *in,
                      mp1_rm_out_t *out, mp1_rm_next_t *nx, mp1_rm_ev_t *ev);

/* Empty (no message in either slot, no segment being discarded or received) with an idle chunk
 * in and every copy OFF: nothing starts, nothing is written or counted, no copy sends or asks,
 * so whatever the other inputs (and AWF) only stop and the output chunks change, to 0.
 * mp1_rm_eval_quiet gives exactly what mp1_rm_eval gives then, without the other inputs (a caller
 * need not gather them); its events are all 0 (no message held, nothing counted). */
static inline int mp1_rm_quiet(const mp1_rm_state_t *st, uint32_t in_dat) {
  const mp1_rm_regs_t *q = &st->r;
  return ((in_dat & 7u) | q->f_val | q->b_val | q->idis | q->ic | q->iseg | q->cs_st | q->cs_ot |
          q->cs_rc | q->cs_pb) == 0;
}

/* Quiet-able, and stop and the output chunks already 0: with a quiet input the next state equals
 * the state (mp1_rm_eval_quiet then sets keep). */
static inline int mp1_rm_settled(const mp1_rm_state_t *st) {
  const mp1_rm_regs_t *q = &st->r;
  return (q->f_val | q->b_val | q->idis | q->ic | q->iseg | q->cs_st | q->cs_ot | q->cs_rc |
          q->cs_pb | q->stop | q->st_dat | q->ot_dat | q->rc_dat | q->pb_dat) == 0;
}

/* The outputs that are registers (stop and the four output wires), for both evals. */
static inline void mp1_rm_reg_outputs(const mp1_rm_regs_t *q, mp1_rm_out_t *out) {
  out->in_stop = q->stop;
  out->st_dat = q->st_dat;
  out->ot_dat = q->ot_dat;
  out->rc_dat = q->rc_dat;
  out->pb_dat = q->pb_dat;
}

static inline void mp1_rm_eval_quiet(const mp1_rm_state_t *st, mp1_rm_out_t *out,
                                     mp1_rm_next_t *nx, mp1_rm_ev_t *ev) {
  const mp1_rm_regs_t *q = &st->r;
  mp1_rm_reg_outputs(q, out);
  out->st_req = out->ot_req = out->rc_req = out->pb_req = 0;
  out->err = 0;
  if (ev)
    memset(ev, 0, sizeof *ev);
  if (mp1_rm_settled(st)) {
    nx->keep = 1;
    return;
  }
  nx->r = *q;
  nx->r.stop = 0;
  nx->r.st_dat = nx->r.ot_dat = nx->r.rc_dat = nx->r.pb_dat = 0;
  nx->we = nx->waddr = nx->wdata = 0;
  nx->keep = 0;
}

/* ---- plane --------------------------------------------------------------------------------- */

/* Both machines quiet (mp1_rm_quiet): mp1_plane_eval_quiet gives exactly what mp1_plane_eval
 * gives then, from the injection inputs alone (a caller need not gather the others), whatever
 * the configuration. */
static inline int mp1_plane_quiet(const mp1_plane_state_t *st, uint32_t xin_dat,
                                  uint32_t yin_dat) {
  return mp1_rm_quiet(&st->rmx, xin_dat) && mp1_rm_quiet(&st->rmy, yin_dat);
}
void mp1_plane_eval_quiet(const mp1_plane_state_t *st, uint32_t inj_x_req, uint32_t inj_x_dat,
                          uint32_t inj_y_req, uint32_t inj_y_dat, mp1_plane_out_t *out,
                          mp1_plane_next_t *nx, mp1_plane_ev_t *ev);

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

/* The plane's own events from its machines' (ev->rmx, ev->rmy already filled in) and the EOMs on
 * its two output channels this cycle (bit 0 X, bit 1 Y: mp1_arb_eom of their chunks). */
static inline void mp1_plane_ev_outputs(const mp1_plane_state_t *st, uint32_t eom,
                                        mp1_plane_ev_t *ev) {
  const uint32_t ax = st->arbx_own, ay = st->arby_own;
  /* owner 1: the machine of this dimension going straight; 2: the other one turning */
  const uint32_t lx = ax == 3 || (ax == 1 && (ev->rmx.live >> MP1_RM_ST) & 1u) ||
                      (ax == 2 && (ev->rmy.live >> MP1_RM_OT) & 1u);
  const uint32_t ly = ay == 3 || (ay == 1 && (ev->rmy.live >> MP1_RM_ST) & 1u) ||
                      (ay == 2 && (ev->rmx.live >> MP1_RM_OT) & 1u);
  ev->own[0] = (uint8_t)ax;
  ev->own[1] = (uint8_t)ay;
  ev->live = (uint8_t)(lx | ly << 1);
  ev->eom = (uint8_t)eom;
}

/* Quiet, and both machines settled (mp1_rm_settled): nothing in the machines changes and they
 * give nothing (in_stop and every chunk and request 0); an arbiter with no machine requesting goes
 * to the injection (3) if it asks, else to none (mp1_arb_next), and its framing follows the
 * injection's chunk if the injection owns it, else an idle channel. mp1_plane_eval_settled writes
 * next and the events; the outputs are then xin_stop = yin_stop = 0, the rc and pb chunks and
 * requests 0, xout_dat (yout_dat) the injection chunk if the X (Y) arbiter owns 3, else 0,
 * inj_x_keep = inj_x_req, inj_y_keep = inj_y_req, and err = 0 (nothing is written). */
static inline int mp1_plane_settled(const mp1_plane_state_t *st, uint32_t xin_dat,
                                    uint32_t yin_dat) {
  return mp1_plane_quiet(st, xin_dat, yin_dat) && mp1_rm_settled(&st->rmx) &&
         mp1_rm_settled(&st->rmy);
}
static inline void mp1_plane_eval_settled(const mp1_plane_state_t *st, uint32_t inj_x_req,
                                          uint32_t inj_x_dat, uint32_t inj_y_req,
                                          uint32_t inj_y_dat, mp1_plane_next_t *nx,
                                          mp1_plane_ev_t *ev) {
  const uint32_t xw = st->arbx_own == 3 ? inj_x_dat : 0u, yw = st->arby_own == 3 ? inj_y_dat : 0u;
  nx->rmx.keep = nx->rmy.keep = 1;
  nx->arbx_own = inj_x_req ? 3u : 0u;
  nx->arby_own = inj_y_req ? 3u : 0u;
  nx->arbx_pos = (uint8_t)mp1_arb_pos(st->arbx_pos, xw);
  nx->arby_pos = (uint8_t)mp1_arb_pos(st->arby_pos, yw);
  if (ev) {
    memset(&ev->rmx, 0, sizeof ev->rmx);
    memset(&ev->rmy, 0, sizeof ev->rmy);
    mp1_plane_ev_outputs(st, mp1_arb_eom(st->arbx_pos, xw) | mp1_arb_eom(st->arby_pos, yw) << 1,
                         ev);
  }
}

/* ---- chip ---------------------------------------------------------------------------------- */

/* The injection controller's chunk for output dim (0 X, 1 Y) of its target plane: inj_dat, but
 * the Y output of a forked message gets nothing before chunk 3 AWF (a2's word, draft-4 §10.3). */
static inline uint32_t mp1_chip_inj_chunk(const mp1_chip_regs_t *r, uint32_t dim, uint32_t awf) {
  const uint32_t lead = 3u * (awf == 2 ? 2u : 1u);
  return dim && r->inj_fork && r->inj_hc <= lead ? 0u : r->inj_dat & 7u;
}

/* The chunk on output channel j = 2p + d (from state only). */
static inline uint32_t mp1_chip_out_dat(const mp1_chip_state_t *st, uint32_t j, uint32_t awf) {
  return mp1_plane_out_dat(&st->pl[(j >> 1) & 3u], j & 1u, mp1_chip_inj_chunk(&st->r, j & 1u, awf));
}

#endif
