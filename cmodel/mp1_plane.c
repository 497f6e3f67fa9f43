/* One MP1 plane (docs/mp1.md §10, docs/mp1_draft4.md §8): machines first (their requests are
 * combinational), then the output arbiters; the channel outputs come from registers, the
 * injection's keep outputs from the arbiters' next owners. */
#include <madpost/mp1_plane.h>

#include <string.h>

#include "mp1_int.h"

uint32_t mp1_arb_next(uint32_t own, uint32_t eom, uint32_t req1, uint32_t req2, uint32_t req3) {
  const uint32_t req[4] = {0, req1 & 1u, req2 & 1u, req3 & 1u};
  const uint32_t asks = own != 0 && req[own & 3u];
  if (asks && !eom)
    return own;
  /* F5b: at an EOM every other requester goes before the owner, which asks again only for its
   * next message (draft-4 §8); a free output goes straight first (the claim of §5.4 needs it) */
  for (uint32_t k = 1; k <= 3; k++)
    if (req[k] && k != own)
      return k;
  return asks ? own : 0;
}

/* One arbiter's next registers from the chunk on its channel (its owner's register) and the
 * requests; returns keep (the injection owns the output next cycle, draft-4 §8) and whether the
 * chunk is an EOM (*eom, for the events). */
static uint32_t arb_step(uint32_t own, uint32_t pos, uint32_t w, uint32_t req1, uint32_t req2,
                         uint32_t req3, uint8_t *own_d, uint8_t *pos_d, uint32_t *eom) {
  *eom = mp1_arb_eom(pos, w);
  *own_d = (uint8_t)mp1_arb_next(own, *eom, req1, req2, req3);
  *pos_d = (uint8_t)mp1_arb_pos(pos, w);
  return *own_d == 3;
}

void mp1_plane_reset(const mp1_plane_cfg_t *cfg, mp1_plane_state_t *st) {
  const mp1_rm_cfg_t rcfg = {cfg->awf};
  memset(st, 0, sizeof *st);
  mp1_rm_reset(&rcfg, &st->rmx);
  mp1_rm_reset(&rcfg, &st->rmy);
}

/* The outputs every path sets alike: the channels from registers and the injection's view of the
 * arbiters. */
static void plane_out_common(const mp1_plane_state_t *st, uint32_t inj_x_dat, uint32_t inj_y_dat,
                             mp1_plane_out_t *out) {
  const uint32_t ax = st->arbx_own, ay = st->arby_own;
  out->xout_dat = mp1_plane_out_dat(st, 0, inj_x_dat);
  out->yout_dat = mp1_plane_out_dat(st, 1, inj_y_dat);
  out->inj_x_own = ax == 3;
  out->inj_x_free = ax == 0;
  out->inj_y_own = ay == 3;
  out->inj_y_free = ay == 0;
}

void mp1_plane_eval_quiet(const mp1_plane_state_t *st, uint32_t inj_x_req, uint32_t inj_x_dat,
                          uint32_t inj_y_req, uint32_t inj_y_dat, mp1_plane_out_t *out,
                          mp1_plane_next_t *nx, mp1_plane_ev_t *ev) {
  mp1_rm_out_t ox, oy;
  mp1_rm_eval_quiet(&st->rmx, &ox, &nx->rmx, ev ? &ev->rmx : NULL);
  mp1_rm_eval_quiet(&st->rmy, &oy, &nx->rmy, ev ? &ev->rmy : NULL);
  plane_out_common(st, inj_x_dat, inj_y_dat, out);
  /* quiet machines request nothing */
  uint32_t ex, ey;
  out->inj_x_keep = arb_step(st->arbx_own, st->arbx_pos, out->xout_dat, 0, 0, inj_x_req,
                             &nx->arbx_own, &nx->arbx_pos, &ex);
  out->inj_y_keep = arb_step(st->arby_own, st->arby_pos, out->yout_dat, 0, 0, inj_y_req,
                             &nx->arby_own, &nx->arby_pos, &ey);
  out->xin_stop = ox.in_stop;
  out->yin_stop = oy.in_stop;
  out->rmx_rc_dat = ox.rc_dat;
  out->rmx_rc_req = 0;
  out->rmx_pb_dat = ox.pb_dat;
  out->rmx_pb_req = 0;
  out->rmy_rc_dat = oy.rc_dat;
  out->rmy_rc_req = 0;
  out->rmy_pb_dat = oy.pb_dat;
  out->rmy_pb_req = 0;
  out->err = (ox.err | oy.err) != 0; /* as mp1_plane_eval's: 0, quiet machines write nothing */
  if (ev)
    mp1_plane_ev_outputs(st, ex | ey << 1, ev);
}

int mp1_plane_eval(const mp1_plane_cfg_t *cfg, const mp1_plane_state_t *st,
                   const mp1_plane_in_t *in, mp1_plane_out_t *out, mp1_plane_next_t *nx,
                   mp1_plane_ev_t *ev) {
  if (mp1_plane_quiet(st, in->xin_dat, in->yin_dat)) {
    mp1_plane_eval_quiet(st, in->inj_x_req, in->inj_x_dat, in->inj_y_req, in->inj_y_dat, out, nx,
                         ev);
    return 0;
  }
  const uint32_t ax = st->arbx_own, ay = st->arby_own;
  const mp1_rm_cfg_t rcfg = {cfg->awf};
  mp1_rm_out_t ox, oy;
  /* A quiet machine's inputs are not gathered (mp1_rm_quiet). No acquisition order is passed:
   * every copy takes its own output on its own (draft-4 §9). */
  if (mp1_rm_quiet(&st->rmx, in->xin_dat)) {
    mp1_rm_eval_quiet(&st->rmx, &ox, &nx->rmx, ev ? &ev->rmx : NULL);
  } else {
    /* u_rmx: X input, straight = X out (requester 1), other = Y out (requester 2). */
    const mp1_rm_in_t ix = {
        .pos = in->px, .opos = in->py, .neg = in->nx, .oneg = in->ny, .edge = in->ex,
        .oedge = in->ey, .in_dat = in->xin_dat,
        .st_own = ax == 1, .st_free = ax == 0, .st_stop = in->xout_stop,
        .ot_own = ay == 2, .ot_free = ay == 0, .ot_stop = in->yout_stop,
        .rc_own = in->rmx_rc_own, .rc_free = in->rmx_rc_free, .rc_stop = in->rmx_rc_stop,
        .pb_own = in->rmx_pb_own, .pb_free = in->rmx_pb_free, .pb_stop = in->rmx_pb_stop};
    mp1_rm_eval_full(&rcfg, &st->rmx, &ix, &ox, &nx->rmx, ev ? &ev->rmx : NULL);
  }
  if (mp1_rm_quiet(&st->rmy, in->yin_dat)) {
    mp1_rm_eval_quiet(&st->rmy, &oy, &nx->rmy, ev ? &ev->rmy : NULL);
  } else {
    /* u_rmy: Y input, straight = Y out (requester 1), other = X out (requester 2). */
    const mp1_rm_in_t iy = {
        .pos = in->py, .opos = in->px, .neg = in->ny, .oneg = in->nx, .edge = in->ey,
        .oedge = in->ex, .in_dat = in->yin_dat,
        .st_own = ay == 1, .st_free = ay == 0, .st_stop = in->yout_stop,
        .ot_own = ax == 2, .ot_free = ax == 0, .ot_stop = in->xout_stop,
        .rc_own = in->rmy_rc_own, .rc_free = in->rmy_rc_free, .rc_stop = in->rmy_rc_stop,
        .pb_own = in->rmy_pb_own, .pb_free = in->rmy_pb_free, .pb_stop = in->rmy_pb_stop};
    mp1_rm_eval_full(&rcfg, &st->rmy, &iy, &oy, &nx->rmy, ev ? &ev->rmy : NULL);
  }
  plane_out_common(st, in->inj_x_dat, in->inj_y_dat, out);
  uint32_t ex, ey;
  out->inj_x_keep = arb_step(ax, st->arbx_pos, out->xout_dat, ox.st_req, oy.ot_req, in->inj_x_req,
                             &nx->arbx_own, &nx->arbx_pos, &ex);
  out->inj_y_keep = arb_step(ay, st->arby_pos, out->yout_dat, oy.st_req, ox.ot_req, in->inj_y_req,
                             &nx->arby_own, &nx->arby_pos, &ey);
  out->xin_stop = ox.in_stop;
  out->yin_stop = oy.in_stop;
  /* The masks change no value; they keep the compiler from copying two fields with one wide load
   * that waits on the callee's two narrow stores (a store-forwarding stall). */
  out->rmx_rc_dat = ox.rc_dat & 7u;
  out->rmx_rc_req = ox.rc_req != 0;
  out->rmx_pb_dat = ox.pb_dat & 7u;
  out->rmx_pb_req = ox.pb_req != 0;
  out->rmy_rc_dat = oy.rc_dat & 7u;
  out->rmy_rc_req = oy.rc_req != 0;
  out->rmy_pb_dat = oy.pb_dat & 7u;
  out->rmy_pb_req = oy.pb_req != 0;
  out->err = (ox.err | oy.err) != 0; /* the buffer invariant, either machine (draft-4 §6) */
  if (ev)
    mp1_plane_ev_outputs(st, ex | ey << 1, ev);
  return 0;
}

void mp1_plane_regs(const mp1_plane_state_t *st, mp1_plane_regs_t *r) {
#define RX(n, c, w) r->rmx_##n = st->rmx.r.n;
#define RY(n, c, w) r->rmy_##n = st->rmy.r.n;
  MP1_RM_REGS(RX)
  MP1_RM_REGS(RY)
#undef RX
#undef RY
  r->arbx_own = st->arbx_own;
  r->arbx_pos = st->arbx_pos;
  r->arby_own = st->arby_own;
  r->arby_pos = st->arby_pos;
}
