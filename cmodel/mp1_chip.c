/* One MP1 chip (docs/mp1.md §11): the injection front ends' stops and the arbiters' registers give
 * the planes' inputs; the planes are evaluated, then the round-robin arbiters (they take the
 * machines' combinational requests), then the injection controller. */
#include "mp1_chip.h"

#include <string.h>

void mp1_rr_next(uint32_t own, uint32_t last, const uint32_t req[MP1_CHIP_MACHINES],
                 uint32_t *own_d, uint32_t *last_d) {
  *own_d = 0;
  *last_d = last;
  if (own != 0 && req[own - 1]) {
    *own_d = own;
    return;
  }
  for (uint32_t j = 1; j <= MP1_CHIP_MACHINES; j++) {
    const uint32_t m = (last + j) % MP1_CHIP_MACHINES;
    if (req[m]) {
      *own_d = m + 1;
      *last_d = m;
      return;
    }
  }
}

int mp1_chip_idle(const mp1_chip_state_t *st) {
  const mp1_chip_regs_t *r = &st->r;
  if (r->inj_cur || r->rca_own || r->pba_own || r->inj_if_st || r->inj_pb_st) return 0;
  for (int p = 0; p < MP1_CHIP_PLANES; p++) {
    const mp1_plane_state_t *pl = &st->pl[p];
    if (pl->rmx.r.rm_st || pl->rmy.r.rm_st || pl->arbx_own || pl->arby_own) return 0;
  }
  return 1;
}

void mp1_chip_reset(mp1_chip_state_t *st) {
  memset(st, 0, sizeof *st);
  for (int p = 0; p < MP1_CHIP_PLANES; p++) mp1_plane_reset(&st->pl[p]);
}

/* One injection front end's registers (§11.3), gathered so both sources share the code. */
typedef struct {
  uint32_t st, ic, iseg, sel, sok;
} fe_t;

typedef struct {
  uint32_t leave;  /* leaves FWD this cycle */
  uint32_t fwd_start;  /* forwarded the first chunk of a segment */
  uint32_t dat;    /* chunk for inj_dat_d while in FWD */
  uint32_t msgs, sel_bad, drop, stray;  /* counter increments */
} fe_ev_t;

static uint32_t out_edge(const mp1_chip_in_t *in, uint32_t plane, uint32_t dim) {
  const uint32_t nx = (plane >> 1) & 1u, ny = plane & 1u;
  if (dim == 0) return nx ? in->px == 0 : in->px == in->xmax;
  return ny ? in->py == 0 : in->py == in->ymax;
}

static void fe_eval(const fe_t *q, uint32_t c, uint32_t stop, uint32_t fseg, uint32_t min_plane,
                    const mp1_chip_in_t *in, fe_t *d, fe_ev_t *ev) {
  memset(ev, 0, sizeof *ev);
  *d = *q;
  const uint32_t at0 = q->ic == 0;
  const uint32_t start = at0 && (c & 4u);
  const uint32_t endc = at0 && q->iseg && (c == MP1_CH_EOS || c == MP1_CH_EOM);
  const uint32_t eom = endc && c == MP1_CH_EOM;
  const uint32_t gap = at0 && (c == MP1_CH_IDLE || c == MP1_CH_ILLEGAL);
  const uint32_t trunc = q->iseg && gap;
  const uint32_t abort = at0 && !q->iseg && c == MP1_CH_ILLEGAL;
  const uint32_t stray = at0 && !q->iseg && (c == MP1_CH_EOS || c == MP1_CH_EOM);

  d->ic = start ? 1u : q->ic == 1 ? 2u : 0u;
  d->iseg = start ? 1u : (endc || trunc) ? 0u : q->iseg;
  d->sok = !stop && at0 && c == MP1_CH_IDLE;

  switch (q->st) {
    case MP1_FE_FREE:
      if (start) {
        d->sel = (q->sel & 0x3fu) | ((c & 3u) << 6);
        d->st = MP1_FE_SEL;
      } else if (stray || abort) {
        ev->stray = 1;
      }
      break;
    case MP1_FE_SEL:
      if (q->ic == 1) {
        d->sel = (q->sel & 0xc7u) | (c << 3);
      } else if (q->ic == 2) {
        d->sel = (q->sel & 0xf8u) | c;
      } else if (endc && !eom) {
        const uint32_t sel = q->sel;
        if ((sel >> 5) != (in->chip & 7u)) {
          d->st = MP1_FE_SKIP;
        } else if ((sel & 3u) == 0 && ((sel >> 3) & 3u) >= min_plane &&
                   !out_edge(in, (sel >> 3) & 3u, (sel >> 2) & 1u)) {
          d->st = MP1_FE_PEND;
        } else {
          ev->sel_bad = 1;
          d->st = MP1_FE_SKIP;
        }
      } else if (start) {
        ev->sel_bad = 1;
        d->st = MP1_FE_SKIP;
      } else if (eom || trunc) {
        ev->sel_bad = 1;
        d->st = MP1_FE_FREE;
      }
      break;
    case MP1_FE_PEND:
      if (start) {
        ev->drop = 1;
        d->st = MP1_FE_SKIP;
      } else if (abort) {
        ev->drop = 1;
        d->st = MP1_FE_FREE;
      } else if (stray) {
        ev->stray = 1;
      }
      break;
    case MP1_FE_FWD:
      if (!at0 || (q->iseg && (start || endc))) {
        ev->dat = c;
        if (eom) {
          ev->msgs = 1;
          ev->leave = 1;
          d->st = MP1_FE_FREE;
        }
      } else if (trunc) {
        ev->dat = MP1_CH_IDLE;
        ev->drop = 1;
        ev->leave = 1;
        d->st = MP1_FE_FREE;
      } else if (start && q->sok) {
        ev->dat = c;
        ev->fwd_start = 1;
      } else if (start || abort) {
        ev->dat = fseg ? MP1_CH_ILLEGAL : MP1_CH_IDLE;
        ev->drop = 1;
        ev->leave = 1;
        d->st = start ? MP1_FE_SKIP : MP1_FE_FREE;
      } else if (stray) {
        ev->stray = 1;
      }
      break;
    case MP1_FE_SKIP:
      if (eom || trunc || abort) d->st = MP1_FE_FREE;
      break;
    default:
      break;
  }
}

/* fe_eval, with its commonest case inline: FREE between segments with an idle chunk in, where only
 * sok follows the inputs and nothing is counted. */
static inline void fe_step(const fe_t *q, uint32_t c, uint32_t stop, uint32_t fseg,
                           uint32_t min_plane, const mp1_chip_in_t *in, fe_t *d, fe_ev_t *ev) {
  if (q->st == MP1_FE_FREE && q->ic == 0 && !q->iseg && c == MP1_CH_IDLE) {
    memset(ev, 0, sizeof *ev);
    *d = *q;
    d->sok = !stop;
    return;
  }
  fe_eval(q, c, stop, fseg, min_plane, in, d, ev);
}

static uint32_t arb_own(const mp1_plane_state_t *pl, uint32_t dim) {
  return dim ? pl->arby_own : pl->arbx_own;
}

/* The chunk register of machine m's reception or piggy-back copy. */
static uint32_t machine_dat(const mp1_chip_state_t *st, uint32_t own, int pb) {
  if (own == 0) return 0;
  const mp1_rm_state_t *rm = ((own - 1) & 1u) ? &st->pl[(own - 1) >> 1].rmy : &st->pl[(own - 1) >> 1].rmx;
  return pb ? rm->r.pb_dat : rm->r.rc_dat;
}

static uint32_t out_stop_in(const mp1_chip_in_t *in, uint32_t tgt) {
  const uint32_t s[8] = {in->p0_xout_stop, in->p0_yout_stop, in->p1_xout_stop, in->p1_yout_stop,
                         in->p2_xout_stop, in->p2_yout_stop, in->p3_xout_stop, in->p3_yout_stop};
  return s[tgt & 7u];
}

void mp1_chip_eval(const mp1_chip_cfg_t *cfg, const mp1_chip_state_t *st, const mp1_chip_in_t *in,
                   mp1_chip_out_t *out, mp1_chip_next_t *nx) {
  const mp1_chip_regs_t *r = &st->r;
  const mp1_plane_cfg_t pcfg = {cfg->awf};
  nx->r = *r;

  /* Front-end stops (§11.3): combinational from registers and the target's downstream stop. */
  const fe_t fq[2] = {{r->inj_if_st, r->inj_if_ic, r->inj_if_iseg, r->inj_if_sel, r->inj_if_sok},
                      {r->inj_pb_st, r->inj_pb_ic, r->inj_pb_iseg, r->inj_pb_sel, r->inj_pb_sok}};
  const uint32_t own_tgt = arb_own(&st->pl[(r->inj_tgt >> 1) & 3u], r->inj_tgt & 1u) == 3;
  const uint32_t ready = own_tgt && !out_stop_in(in, r->inj_tgt);
  uint32_t stop[2];
  for (int f = 0; f < 2; f++)
    stop[f] = fq[f].st == MP1_FE_PEND || (fq[f].st == MP1_FE_FWD && !ready);

  const uint32_t pbo = machine_dat(st, r->pba_own, 1);
  const uint32_t pb_stop = in->pbloop ? stop[1] : in->pbo_stop;

  /* Planes. */
  const uint32_t xin[4] = {in->p0_xin_dat, in->p1_xin_dat, in->p2_xin_dat, in->p3_xin_dat};
  const uint32_t yin[4] = {in->p0_yin_dat, in->p1_yin_dat, in->p2_yin_dat, in->p3_yin_dat};
  const uint32_t xos[4] = {in->p0_xout_stop, in->p1_xout_stop, in->p2_xout_stop, in->p3_xout_stop};
  const uint32_t yos[4] = {in->p0_yout_stop, in->p1_yout_stop, in->p2_yout_stop, in->p3_yout_stop};
  uint32_t xin_stop[4], yin_stop[4], xout_dat[4], yout_dat[4];
  uint32_t rc_req[MP1_CHIP_MACHINES], pb_req[MP1_CHIP_MACHINES];
  /* Any request, gathered as the planes give them (a settled or quiet plane gives none): read back
   * from the arrays at once, wide, they would wait on the narrow stores (store forwarding). */
  uint32_t rc_any = 0, pb_any = 0;
  for (uint32_t p = 0; p < MP1_CHIP_PLANES; p++) {
    const mp1_plane_state_t *pl = &st->pl[p];
    const uint32_t inj_x_req = r->inj_cur != 0 && r->inj_tgt == 2 * p;
    const uint32_t inj_y_req = r->inj_cur != 0 && r->inj_tgt == 2 * p + 1;
    rc_req[2 * p] = rc_req[2 * p + 1] = pb_req[2 * p] = pb_req[2 * p + 1] = 0;
    if (mp1_plane_settled(pl, xin[p], yin[p])) {
      mp1_plane_eval_settled(inj_x_req, inj_y_req, &nx->pl[p]);
      xin_stop[p] = yin_stop[p] = 0;
      xout_dat[p] = pl->arbx_own == 3 ? r->inj_dat & 7u : 0u;
      yout_dat[p] = pl->arby_own == 3 ? r->inj_dat & 7u : 0u;
      continue;
    }
    mp1_plane_out_t po;
    if (mp1_plane_quiet(pl, xin[p], yin[p])) {
      /* the plane's other inputs are not gathered; quiet machines request nothing */
      mp1_plane_eval_quiet(pl, inj_x_req, r->inj_dat, inj_y_req, r->inj_dat, &po, &nx->pl[p]);
    } else {
      mp1_plane_in_t pi;
      pi.px = in->px;
      pi.py = in->py;
      pi.nx = p >> 1;
      pi.ny = p & 1u;
      pi.ex = out_edge(in, p, 0);
      pi.ey = out_edge(in, p, 1);
      pi.xin_dat = xin[p];
      pi.yin_dat = yin[p];
      pi.xout_stop = xos[p];
      pi.yout_stop = yos[p];
      pi.inj_x_req = inj_x_req;
      pi.inj_y_req = inj_y_req;
      pi.inj_x_dat = pi.inj_y_dat = r->inj_dat;
      const uint32_t mx = 2 * p + 1, my = 2 * p + 2; /* owner codes of the two machines */
      pi.rmx_rc_own = r->rca_own == mx, pi.rmy_rc_own = r->rca_own == my;
      pi.rmx_rc_free = pi.rmy_rc_free = r->rca_own == 0;
      pi.rmx_rc_stop = pi.rmy_rc_stop = in->rcv_stop;
      pi.rmx_pb_own = r->pba_own == mx, pi.rmy_pb_own = r->pba_own == my;
      pi.rmx_pb_free = pi.rmy_pb_free = r->pba_own == 0;
      pi.rmx_pb_stop = pi.rmy_pb_stop = pb_stop;
      mp1_plane_eval(&pcfg, pl, &pi, &po, &nx->pl[p]);
      rc_req[2 * p] = po.rmx_rc_req, rc_req[2 * p + 1] = po.rmy_rc_req;
      pb_req[2 * p] = po.rmx_pb_req, pb_req[2 * p + 1] = po.rmy_pb_req;
      rc_any |= po.rmx_rc_req | po.rmy_rc_req;
      pb_any |= po.rmx_pb_req | po.rmy_pb_req;
    }
    xin_stop[p] = po.xin_stop, yin_stop[p] = po.yin_stop;
    xout_dat[p] = po.xout_dat, yout_dat[p] = po.yout_dat;
  }
  /* No owner and no request: the arbiter keeps its registers (nx->r holds them already). */
  uint32_t own_d, last_d;
  if (r->rca_own || rc_any) {
    mp1_rr_next(r->rca_own, r->rca_last, rc_req, &own_d, &last_d);
    nx->r.rca_own = (uint8_t)own_d, nx->r.rca_last = (uint8_t)last_d;
  }
  if (r->pba_own || pb_any) {
    mp1_rr_next(r->pba_own, r->pba_last, pb_req, &own_d, &last_d);
    nx->r.pba_own = (uint8_t)own_d, nx->r.pba_last = (uint8_t)last_d;
  }

  /* Injection controller (§11.3). */
  const uint32_t chunk[2] = {in->inj_dat & 7u, in->pbloop ? pbo : (in->pbi_dat & 7u)};
  fe_t fd[2];
  fe_ev_t ev[2];
  /* A looped piggy-back message may only go on in a plane above the one it arrived in (§11.3). */
  const uint32_t pb_min = in->pbloop && r->pba_own ? ((r->pba_own - 1) >> 1) + 1 : 0;
  fe_step(&fq[0], chunk[0], stop[0], r->inj_fseg, 0, in, &fd[0], &ev[0]);
  fe_step(&fq[1], chunk[1], stop[1], r->inj_fseg, pb_min, in, &fd[1], &ev[1]);
  const int cand[2] = {fq[0].st == MP1_FE_PEND && fd[0].st == MP1_FE_PEND,
                       fq[1].st == MP1_FE_PEND && fd[1].st == MP1_FE_PEND};
  nx->r.inj_dat = 0;
  if (r->inj_cur != 0) {
    const int f = (int)r->inj_cur - 1;
    nx->r.inj_dat = ev[f].dat;
    if (ev[f].fwd_start) nx->r.inj_fseg = 1;
    if (ev[f].leave) nx->r.inj_cur = 0;
    /* An interface message that has sent nothing and cannot start yet gives way to a waiting
       piggy-back message (§11.3 yield). */
    if (f == 0 && !r->inj_fseg && stop[0] && fd[0].st == MP1_FE_FWD && fq[0].ic == 0 &&
        !fq[0].iseg && chunk[0] == MP1_CH_IDLE && cand[1]) {
      fd[0].st = MP1_FE_PEND;
      nx->r.inj_cur = 0;
    }
  } else {
    /* the piggy-back source first: its message holds a path upstream (§11.3) */
    const int pick = cand[1] ? 1 : cand[0] ? 0 : -1;
    if (pick >= 0) {
      fd[pick].st = MP1_FE_FWD;
      nx->r.inj_cur = (uint32_t)pick + 1;
      nx->r.inj_tgt = (fq[pick].sel >> 2) & 7u;
      nx->r.inj_fseg = 0;
      nx->r.inj_last = (uint32_t)pick;
    }
  }
  nx->r.inj_if_st = fd[0].st, nx->r.inj_if_ic = fd[0].ic, nx->r.inj_if_iseg = fd[0].iseg;
  nx->r.inj_if_sel = fd[0].sel, nx->r.inj_if_sok = fd[0].sok;
  nx->r.inj_pb_st = fd[1].st, nx->r.inj_pb_ic = fd[1].ic, nx->r.inj_pb_iseg = fd[1].iseg;
  nx->r.inj_pb_sel = fd[1].sel, nx->r.inj_pb_sok = fd[1].sok;
  nx->r.cnt_inj_msgs = (r->cnt_inj_msgs + ev[0].msgs + ev[1].msgs) & 0xffffu;
  nx->r.cnt_sel_bad = (r->cnt_sel_bad + ev[0].sel_bad + ev[1].sel_bad) & 0xffffu;
  nx->r.cnt_inj_drop = (r->cnt_inj_drop + ev[0].drop + ev[1].drop) & 0xffffu;
  nx->r.cnt_inj_stray = (r->cnt_inj_stray + ev[0].stray + ev[1].stray) & 0xffffu;

  /* Outputs. */
  out->p0_xin_stop = xin_stop[0], out->p0_yin_stop = yin_stop[0];
  out->p1_xin_stop = xin_stop[1], out->p1_yin_stop = yin_stop[1];
  out->p2_xin_stop = xin_stop[2], out->p2_yin_stop = yin_stop[2];
  out->p3_xin_stop = xin_stop[3], out->p3_yin_stop = yin_stop[3];
  out->p0_xout_dat = xout_dat[0], out->p0_yout_dat = yout_dat[0];
  out->p1_xout_dat = xout_dat[1], out->p1_yout_dat = yout_dat[1];
  out->p2_xout_dat = xout_dat[2], out->p2_yout_dat = yout_dat[2];
  out->p3_xout_dat = xout_dat[3], out->p3_yout_dat = yout_dat[3];
  out->inj_stop = stop[0];
  out->pbi_stop = stop[1];
  out->rcv_dat = machine_dat(st, r->rca_own, 0);
  out->pbo_dat = pbo;
}

void mp1_chip_clock(mp1_chip_state_t *st, const mp1_chip_next_t *nx) {
  st->r = nx->r;
  for (int p = 0; p < MP1_CHIP_PLANES; p++) mp1_plane_clock(&st->pl[p], &nx->pl[p]);
}
