/* One MP1 chip (docs/mp1.md §11, docs/mp1_draft4.md §8 and §10): the injection front ends' stops
 * and the arbiters' registers give the planes' inputs; the planes are evaluated, then the
 * round-robin arbiters (they take the machines' combinational requests), then the injection
 * controller (the interface's window needs the planes' keep outputs). */
#include <madpost/mp1_chip.h>

#include <string.h>

#include "mp1_int.h"

void mp1_rr_next(uint32_t own, uint32_t last, uint32_t eom, const uint32_t req[MP1_CHIP_MACHINES],
                 uint32_t *own_d, uint32_t *last_d) {
  *own_d = 0;
  *last_d = last;
  /* F5b: at an EOM the owner (the last granted) is the round's last candidate (draft-4 §8) */
  if (own != 0 && req[own - 1] && !eom) {
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

/* A machine holds a message (slot F or B) or discards a segment that found no slot (draft-4 §3,
 * §4.6). */
static int rm_busy(const mp1_rm_regs_t *r) { return r->f_val || r->b_val || r->idis; }

int mp1_chip_idle(const mp1_chip_state_t *st) {
  const mp1_chip_regs_t *r = &st->r;
  if (r->inj_cur || r->rca_own || r->pba_own || r->inj_if_st || r->inj_pb_st) return 0;
  for (int p = 0; p < MP1_CHIP_PLANES; p++) {
    const mp1_plane_state_t *pl = &st->pl[p];
    if (rm_busy(&pl->rmx.r) || rm_busy(&pl->rmy.r) || pl->arbx_own || pl->arby_own) return 0;
  }
  return 1;
}

void mp1_chip_reset(const mp1_chip_cfg_t *cfg, mp1_chip_state_t *st) {
  const mp1_plane_cfg_t pcfg = {cfg->awf};
  memset(st, 0, sizeof *st);
  for (int p = 0; p < MP1_CHIP_PLANES; p++) mp1_plane_reset(&pcfg, &st->pl[p]);
}

/* ---- the injection front ends (§11.3, draft-4 §10) ----------------------------------------- */

/* One front end's registers, gathered so both sources share the code. */
typedef struct {
  uint32_t st, ic, iseg, sel, sok, sx;
} fe_t;

typedef struct {
  uint32_t leave;      /* releases the controller (inj_cur_d = 0) */
  uint32_t fwd;        /* inj_dat_d = dat is a chunk of the message (counted in inj_hc) */
  uint32_t fwd_start;  /* ... and the first chunk of a segment */
  uint32_t win_start;  /* ... and the first chunk of a message sent in the window (§10.2) */
  uint32_t dat;        /* chunk for inj_dat_d while served */
  uint32_t msgs, sel_bad, drop, stray;  /* counter increments */
} fe_ev_t;

/* The source's chunk framed as in the routing machines (§11.3). */
typedef struct {
  uint32_t start, endc, eom, trunc, abort, stray;
} fr_t;

static fr_t frame(const fe_t *q, uint32_t c) {
  const uint32_t at0 = q->ic == 0;
  fr_t f;
  f.start = at0 && (c & 4u);
  f.endc = at0 && q->iseg && (c == MP1_CH_EOS || c == MP1_CH_EOM);
  f.eom = f.endc && c == MP1_CH_EOM;
  f.trunc = q->iseg && at0 && (c == MP1_CH_IDLE || c == MP1_CH_ILLEGAL);
  f.abort = at0 && !q->iseg && c == MP1_CH_ILLEGAL;
  f.stray = at0 && !q->iseg && (c == MP1_CH_EOS || c == MP1_CH_EOM);
  return f;
}

static uint32_t out_edge(const mp1_chip_in_t *in, uint32_t plane, uint32_t dim) {
  const uint32_t nx = (plane >> 1) & 1u, ny = plane & 1u;
  if (dim == 0) return nx ? in->px == 0 : in->px == in->xmax;
  return ny ? in->py == 0 : in->py == in->ymax;
}

/* A selection this chip takes (§11.3): bit 0 clear, fork only with dim 0 (draft-4 §10.3), the
 * plane order of the loop, and every output it names inside the mesh (a fork names both). */
static int sel_good(uint32_t sel, uint32_t min_plane, const mp1_chip_in_t *in) {
  const uint32_t plane = (sel >> 3) & 3u, dim = (sel >> 2) & 1u, fork = (sel >> 1) & 1u;
  if ((sel & 1u) || (fork && dim) || plane < min_plane || out_edge(in, plane, dim)) return 0;
  return !fork || !out_edge(in, plane, 1);
}

/* SEL: the flit is judged at its third chunk (draft-4 §10.1); a good one is pending at once, its
 * EOS still expected (sx). */
static void fe_sel(const fe_t *q, uint32_t c, uint32_t min_plane, const mp1_chip_in_t *in,
                   fe_t *d, fe_ev_t *ev) {
  if (q->ic == 1) {
    d->sel = (q->sel & 0xc7u) | (c << 3);
    return;
  }
  if (q->ic != 2) return; /* SEL is entered at a flit start: ic is 1, then 2 */
  const uint32_t sel = (q->sel & 0xf8u) | c;
  d->sel = sel;
  if ((sel >> 5) != (in->chip & 7u)) {
    d->st = MP1_FE_SKIP; /* another chip's message, not counted */
  } else if (sel_good(sel, min_plane, in)) {
    d->st = MP1_FE_PEND;
    d->sx = 1;
  } else {
    ev->sel_bad = 1;
    d->st = MP1_FE_SKIP;
  }
}

/* With sx (in PEND, or picked, in FWD) the chunk must be the selection's EOS, which is not
 * forwarded; anything else is a bad selection, and nothing has been sent (draft-4 §10.1). sx
 * holds for that one chunk. */
static void fe_sel_eos(const fr_t *fr, fe_t *d, fe_ev_t *ev) {
  d->sx = 0;
  if (fr->endc && !fr->eom) return;
  ev->sel_bad = 1;
  ev->leave = 1;
  d->st = MP1_FE_FREE;
}

/* FWD: forwards the message one cycle late (§11.3); after its EOM the window's NEXT cycle for the
 * interface front end (win), but not after a forked message; the piggy-back front end has no
 * window and is done at the EOM, as in draft 3 (draft-4 §10.2). */
static void fe_fwd(const fe_t *q, uint32_t c, const fr_t *fr, uint32_t fork, uint32_t fseg,
                   uint32_t win, fe_t *d, fe_ev_t *ev) {
  if (q->ic != 0 || (q->iseg && (fr->start || fr->endc))) {
    ev->dat = c;
    ev->fwd = 1;
    if (fr->eom) {
      ev->msgs = 1;
      ev->leave = fork || !win;
      d->st = ev->leave ? MP1_FE_FREE : MP1_FE_NEXT;
    }
  } else if (fr->trunc) {
    ev->dat = MP1_CH_IDLE;
    ev->drop = 1;
    ev->leave = 1;
    d->st = MP1_FE_FREE;
  } else if (fr->start && q->sok) {
    /* E: the source saw stop low; the chunk before may be an EOS (draft-4 §10) */
    ev->dat = c;
    ev->fwd = 1;
    ev->fwd_start = 1;
  } else if (fr->start || fr->abort) {
    ev->dat = fseg ? MP1_CH_ILLEGAL : MP1_CH_IDLE;
    ev->drop = 1;
    ev->leave = 1;
    d->st = fr->start ? MP1_FE_SKIP : MP1_FE_FREE;
  } else if (fr->stray) {
    ev->stray = 1;
  }
}

/* NEXT (one cycle, the idle chunk after the EOM): the window opens if stop_o is low. WIN: a start
 * is the next message's first chunk, to the same output (draft-4 §10.2). served: this front end
 * forwarded the message (it still names inj_cur); else it skipped it (another chip's), its NEXT
 * and WIN mirror the serving chip's, and a start in its WIN is that chip's window message, to be
 * skipped too. A start in NEXT (no idle chunk) is a source fault: the serving front end counts it
 * (cnt_inj_drop); a skipping one discards it uncounted (the fault is the serving chip's to count,
 * once per interface; the sim sums the chips' drops). Stray chunks here are between messages:
 * counted as in FREE. */
static void fe_next_win(const fe_t *q, uint32_t c, const fr_t *fr, uint32_t stop, uint32_t served,
                        fe_t *d, fe_ev_t *ev) {
  if (q->st == MP1_FE_WIN && fr->start && served) {
    ev->dat = c;
    ev->fwd = ev->fwd_start = ev->win_start = 1;
    d->st = MP1_FE_FWD;
    return;
  }
  if (fr->start) {
    ev->drop = served;
    ev->leave = served;
    d->st = MP1_FE_SKIP;
    return;
  }
  ev->stray = fr->stray || fr->abort;
  const uint32_t win = q->st == MP1_FE_NEXT && !stop;
  ev->leave = served && !win;
  d->st = win ? MP1_FE_WIN : MP1_FE_FREE;
}

/* What a front end is: its plane order (§11.3), whether it has the window (the interface's,
 * draft-4 §10.2) and whether the controller serves it (inj_cur names it). */
typedef struct {
  uint32_t min_plane, win, served;
} fe_ctl_t;

/* One front end's next registers and events. stop is its stop_o this cycle; fork and fseg the
 * controller's registers (they concern the message this front end forwards, if it is served). */
static void fe_eval(const fe_t *q, uint32_t c, uint32_t stop, uint32_t fork, uint32_t fseg,
                    const fe_ctl_t *k, const mp1_chip_in_t *in, fe_t *d, fe_ev_t *ev) {
  memset(ev, 0, sizeof *ev);
  *d = *q;
  const fr_t fr = frame(q, c);
  d->ic = fr.start ? 1u : q->ic == 1 ? 2u : 0u;
  d->iseg = fr.start ? 1u : (fr.endc || fr.trunc) ? 0u : q->iseg;
  d->sok = !stop; /* E: a segment may start after an EOS (draft-4 §10) */

  switch (q->st) {
  case MP1_FE_FREE:
    if (fr.start) {
      d->sel = (q->sel & 0x3fu) | ((c & 3u) << 6);
      d->st = MP1_FE_SEL;
    } else if (fr.stray || fr.abort) {
      ev->stray = 1;
    }
    break;
  case MP1_FE_SEL:
    fe_sel(q, c, k->min_plane, in, d, ev);
    break;
  case MP1_FE_PEND:
    if (q->sx) {
      fe_sel_eos(&fr, d, ev);
      ev->leave = 0; /* not picked: nothing to release */
    } else if (fr.start) {
      ev->drop = 1;
      d->st = MP1_FE_SKIP;
    } else if (fr.abort) {
      ev->drop = 1;
      d->st = MP1_FE_FREE;
    } else if (fr.stray) {
      ev->stray = 1;
    }
    break;
  case MP1_FE_FWD:
    if (q->sx)
      fe_sel_eos(&fr, d, ev);
    else
      fe_fwd(q, c, &fr, fork, fseg, k->win, d, ev);
    break;
  case MP1_FE_SKIP:
    /* The interface front end mirrors the serving chip's window after a skipped message's EOM
     * (draft-4 §10.2), so the window's message is not taken for a selection. */
    if (fr.eom) d->st = k->win ? MP1_FE_NEXT : MP1_FE_FREE;
    else if (fr.trunc || fr.abort) d->st = MP1_FE_FREE;
    break;
  case MP1_FE_NEXT:
  case MP1_FE_WIN:
    fe_next_win(q, c, &fr, stop, k->served, d, ev);
    break;
  default:
    break;
  }
}

/* fe_eval, with its commonest case inline: FREE between segments with an idle chunk in, where only
 * sok follows the inputs and nothing is counted. */
static inline void fe_step(const fe_t *q, uint32_t c, uint32_t stop, uint32_t fork, uint32_t fseg,
                           const fe_ctl_t *k, const mp1_chip_in_t *in, fe_t *d, fe_ev_t *ev) {
  if (q->st == MP1_FE_FREE && q->ic == 0 && !q->iseg && c == MP1_CH_IDLE) {
    memset(ev, 0, sizeof *ev);
    *d = *q;
    d->sok = !stop;
    return;
  }
  fe_eval(q, c, stop, fork, fseg, k, in, d, ev);
}

static uint32_t arb_own(const mp1_plane_state_t *pl, uint32_t dim) {
  return dim ? pl->arby_own : pl->arbx_own;
}

/* The chunk register of machine m's reception or piggy-back copy. */
static uint32_t machine_dat(const mp1_chip_state_t *st, uint32_t own, int pb) {
  if (own == 0) return 0;
  const mp1_plane_state_t *pl = &st->pl[(own - 1) >> 1];
  const mp1_rm_state_t *rm = ((own - 1) & 1u) ? &pl->rmy : &pl->rmx;
  return pb ? rm->r.pb_dat : rm->r.rc_dat;
}

static uint32_t out_stop_in(const mp1_chip_in_t *in, uint32_t tgt) {
  const uint32_t s[8] = {MP1_CHIP_PER_CHANNEL(in->, xout_stop, yout_stop)};
  return s[tgt & 7u];
}

/* The front end's stop_o in FWD (§11.3): its output owned and room downstream; a forked message
 * needs both outputs of its plane (draft-4 §10.3). From registers and the outputs' stops. */
static uint32_t fwd_stop(const mp1_chip_state_t *st, const mp1_chip_in_t *in) {
  const mp1_chip_regs_t *r = &st->r;
  const mp1_plane_state_t *pl = &st->pl[(r->inj_tgt >> 1) & 3u];
  if (r->inj_fork) {
    const uint32_t x = r->inj_tgt & 6u;
    return !(pl->arbx_own == 3 && pl->arby_own == 3 && !out_stop_in(in, x) &&
             !out_stop_in(in, x + 1));
  }
  return !(arb_own(pl, r->inj_tgt & 1u) == 3 && !out_stop_in(in, r->inj_tgt));
}

/* stop_o of a front end in any state but the interface's NEXT (below, after the planes). The
 * piggy-back front end has no window (draft-4 §10.2; it never enters NEXT or WIN): its source is a
 * routing machine's piggy-back copy (or, with the loop open, another chip's), which starts every
 * message with its selection segment, so in WIN that selection would be forwarded as the next
 * message's header. WIN is high whether the front end serves or skipped: the document lowers
 * only a skipping front end's NEXT. */
static uint32_t fe_stop(const fe_t *q, uint32_t fwd_s) {
  switch (q->st) {
  case MP1_FE_PEND:
  case MP1_FE_WIN:
  case MP1_FE_NEXT:
    return 1;
  case MP1_FE_FWD:
    return fwd_s;
  default:
    return 0;
  }
}

/* ---- the planes and the round-robin arbiters ----------------------------------------------- */

/* What the planes give the chip. */
typedef struct {
  uint32_t xin_stop[4], yin_stop[4], xout_dat[4], yout_dat[4];
  uint32_t keep[8];  /* inj_<d>_keep of output j = 2p + d */
  uint32_t rc_req[MP1_CHIP_MACHINES], pb_req[MP1_CHIP_MACHINES];
  uint32_t rc_any, pb_any;
  uint32_t err; /* any plane's err (draft-4 §6); a settled plane writes nothing, so gives 0 */
} planes_out_t;

static void planes_eval(const mp1_chip_cfg_t *cfg, const mp1_chip_state_t *st,
                        const mp1_chip_in_t *in, uint32_t pb_stop, mp1_chip_next_t *nx,
                        planes_out_t *o, mp1_chip_ev_t *ev) {
  const mp1_chip_regs_t *r = &st->r;
  const mp1_plane_cfg_t pcfg = {cfg->awf};
  const uint32_t xin[4] = {MP1_CHIP_PER_PLANE(in->, xin_dat)};
  const uint32_t yin[4] = {MP1_CHIP_PER_PLANE(in->, yin_dat)};
  const uint32_t xos[4] = {MP1_CHIP_PER_PLANE(in->, xout_stop)};
  const uint32_t yos[4] = {MP1_CHIP_PER_PLANE(in->, yout_stop)};
  const uint32_t x_dat = mp1_chip_inj_chunk(r, 0, cfg->awf);
  const uint32_t y_dat = mp1_chip_inj_chunk(r, 1, cfg->awf);
  /* Any request, gathered as the planes give them (a settled or quiet plane gives none): read back
   * from the arrays at once, wide, they would wait on the narrow stores (store forwarding). */
  o->rc_any = o->pb_any = o->err = 0;
  for (uint32_t p = 0; p < MP1_CHIP_PLANES; p++) {
    const mp1_plane_state_t *pl = &st->pl[p];
    mp1_plane_ev_t *pev = ev ? &ev->pl[p] : NULL;
    /* a forked message asks for Y once it owns X (draft-4 §10.3) */
    const uint32_t inj_x_req = r->inj_cur != 0 && r->inj_tgt == 2 * p;
    const uint32_t fork_y = inj_x_req && r->inj_fork && pl->arbx_own == 3;
    const uint32_t inj_y_req = r->inj_cur != 0 && (r->inj_tgt == 2 * p + 1 || fork_y);
    o->rc_req[2 * p] = o->rc_req[2 * p + 1] = o->pb_req[2 * p] = o->pb_req[2 * p + 1] = 0;
    if (mp1_plane_settled(pl, xin[p], yin[p])) {
      mp1_plane_eval_settled(pl, inj_x_req, x_dat, inj_y_req, y_dat, &nx->pl[p], pev);
      o->xin_stop[p] = o->yin_stop[p] = 0;
      o->xout_dat[p] = pl->arbx_own == 3 ? x_dat : 0u;
      o->yout_dat[p] = pl->arby_own == 3 ? y_dat : 0u;
      o->keep[2 * p] = inj_x_req, o->keep[2 * p + 1] = inj_y_req;
      continue;
    }
    mp1_plane_out_t po;
    if (mp1_plane_quiet(pl, xin[p], yin[p])) {
      /* the plane's other inputs are not gathered; quiet machines request nothing */
      mp1_plane_eval_quiet(pl, inj_x_req, x_dat, inj_y_req, y_dat, &po, &nx->pl[p], pev);
    } else {
      mp1_plane_in_t pi;
      pi.px = in->px, pi.py = in->py;
      pi.nx = p >> 1, pi.ny = p & 1u;
      pi.ex = out_edge(in, p, 0), pi.ey = out_edge(in, p, 1);
      pi.xin_dat = xin[p], pi.yin_dat = yin[p];
      pi.xout_stop = xos[p], pi.yout_stop = yos[p];
      pi.inj_x_req = inj_x_req, pi.inj_y_req = inj_y_req;
      pi.inj_x_dat = x_dat, pi.inj_y_dat = y_dat;
      const uint32_t mx = 2 * p + 1, my = 2 * p + 2; /* owner codes of the two machines */
      pi.rmx_rc_own = r->rca_own == mx, pi.rmy_rc_own = r->rca_own == my;
      pi.rmx_rc_free = pi.rmy_rc_free = r->rca_own == 0;
      pi.rmx_rc_stop = pi.rmy_rc_stop = in->rcv_stop;
      pi.rmx_pb_own = r->pba_own == mx, pi.rmy_pb_own = r->pba_own == my;
      pi.rmx_pb_free = pi.rmy_pb_free = r->pba_own == 0;
      pi.rmx_pb_stop = pi.rmy_pb_stop = pb_stop;
      mp1_plane_eval(&pcfg, pl, &pi, &po, &nx->pl[p], pev);
      o->rc_req[2 * p] = po.rmx_rc_req, o->rc_req[2 * p + 1] = po.rmy_rc_req;
      o->pb_req[2 * p] = po.rmx_pb_req, o->pb_req[2 * p + 1] = po.rmy_pb_req;
      o->rc_any |= po.rmx_rc_req | po.rmy_rc_req;
      o->pb_any |= po.rmx_pb_req | po.rmy_pb_req;
    }
    o->xin_stop[p] = po.xin_stop, o->yin_stop[p] = po.yin_stop;
    o->xout_dat[p] = po.xout_dat, o->yout_dat[p] = po.yout_dat;
    o->keep[2 * p] = po.inj_x_keep, o->keep[2 * p + 1] = po.inj_y_keep;
    o->err |= po.err;
  }
}

/* A round-robin arbiter's next registers from its channel's chunk w (its owner's register). With
 * no owner, no request and no flit on the channel it keeps them (nx holds them already). */
static void rr_step(uint32_t own, uint32_t last, uint32_t pos, uint32_t w, uint32_t any,
                    const uint32_t req[MP1_CHIP_MACHINES], uint8_t *own_d, uint8_t *last_d,
                    uint8_t *pos_d) {
  if (!own && !any && !pos) return;
  uint32_t o, l;
  mp1_rr_next(own, last, mp1_arb_eom(pos, w), req, &o, &l);
  *own_d = (uint8_t)o, *last_d = (uint8_t)l, *pos_d = (uint8_t)mp1_arb_pos(pos, w);
}

/* ---- the controller ------------------------------------------------------------------------- */

/* The shared core (§11.3, draft-4 §10): forwarding, yield and pick; inj_hc counts the message's
 * chunks forwarded, saturating at 3 AWF + 1 (§10.3). fd may be changed (yield, pick). */
static void inj_core(const mp1_chip_regs_t *r, const fe_t fq[2], fe_t fd[2], const fe_ev_t ev[2],
                     const int cand[2], uint32_t stop0, uint32_t chunk0, uint32_t awf,
                     mp1_chip_regs_t *d) {
  const uint32_t hc_max = 3u * (awf == 2 ? 2u : 1u) + 1u;
  d->inj_dat = 0;
  if (r->inj_cur != 0) {
    const int f = (int)r->inj_cur - 1;
    d->inj_dat = ev[f].dat;
    if (ev[f].fwd_start) d->inj_fseg = 1;
    if (ev[f].win_start)
      d->inj_hc = 1; /* a new message: its first chunk */
    else if (ev[f].fwd && r->inj_hc < hc_max)
      d->inj_hc = r->inj_hc + 1;
    if (ev[f].leave) d->inj_cur = 0;
    /* An interface message that has sent nothing and cannot start yet gives way to a waiting
       piggy-back message (§11.3 yield). */
    if (f == 0 && !r->inj_fseg && stop0 && fd[0].st == MP1_FE_FWD && fq[0].ic == 0 &&
        !fq[0].iseg && chunk0 == MP1_CH_IDLE && cand[1]) {
      fd[0].st = MP1_FE_PEND;
      d->inj_cur = 0;
    }
    return;
  }
  /* the piggy-back source first: its message holds a path upstream (§11.3) */
  const int pick = cand[1] ? 1 : cand[0] ? 0 : -1;
  if (pick < 0) return;
  fd[pick].st = MP1_FE_FWD; /* with sx if picked at the selection's third chunk (§10.1) */
  d->inj_cur = (uint32_t)pick + 1;
  d->inj_tgt = (fd[pick].sel >> 2) & 7u;
  d->inj_fseg = 0;
  d->inj_last = (uint32_t)pick;
  d->inj_fork = (fd[pick].sel >> 1) & 1u;
  d->inj_hc = 0;
}

/* A pick candidate: a pending front end that stays so, or a good selection at its third chunk
 * (draft-4 §10.1: it requests its output while its EOS arrives). */
static int fe_cand(const fe_t *q, const fe_t *d) {
  return d->st == MP1_FE_PEND && (q->st == MP1_FE_PEND || q->st == MP1_FE_SEL);
}

static void inj_eval(const mp1_chip_cfg_t *cfg, const mp1_chip_state_t *st,
                     const mp1_chip_in_t *in, const fe_t fq[2], const uint32_t chunk[2],
                     uint32_t stop[2], const planes_out_t *po, mp1_chip_next_t *nx,
                     mp1_chip_ev_t *cev) {
  const mp1_chip_regs_t *r = &st->r;
  fe_t fd[2];
  fe_ev_t ev[2];
  /* A looped piggy-back message may only go on in a plane above the one it arrived in (§11.3). */
  const uint32_t pb_min = in->pbloop && r->pba_own ? ((r->pba_own - 1) >> 1) + 1 : 0;
  const fe_ctl_t k_if = {0, 1, r->inj_cur == 1}, k_pb = {pb_min, 0, r->inj_cur == 2};
  fe_step(&fq[1], chunk[1], stop[1], r->inj_fork, r->inj_fseg, &k_pb, in, &fd[1], &ev[1]);
  const int cand1 = fe_cand(&fq[1], &fd[1]);
  if (fq[0].st == MP1_FE_NEXT && !k_if.served) {
    stop[0] = 0; /* skipped another chip's message: the serving chip's stop decides (§10.2) */
  } else if (fq[0].st == MP1_FE_NEXT && !cand1) {
    /* The window (draft-4 §10.2): the output stays the interface's (the arbiter keeps it for the
     * injection) and has room; not when a piggy-back message waits (pb first). */
    const uint32_t own = arb_own(&st->pl[(r->inj_tgt >> 1) & 3u], r->inj_tgt & 1u) == 3;
    stop[0] = !(own && po->keep[r->inj_tgt & 7u] && !out_stop_in(in, r->inj_tgt));
  }
  fe_step(&fq[0], chunk[0], stop[0], r->inj_fork, r->inj_fseg, &k_if, in, &fd[0], &ev[0]);
  const int cand[2] = {fe_cand(&fq[0], &fd[0]), cand1};
  inj_core(r, fq, fd, ev, cand, stop[0], chunk[0], cfg->awf, &nx->r);
  nx->r.inj_if_st = fd[0].st, nx->r.inj_if_ic = fd[0].ic, nx->r.inj_if_iseg = fd[0].iseg;
  nx->r.inj_if_sel = fd[0].sel, nx->r.inj_if_sok = fd[0].sok, nx->r.inj_if_sx = fd[0].sx;
  nx->r.inj_pb_st = fd[1].st, nx->r.inj_pb_ic = fd[1].ic, nx->r.inj_pb_iseg = fd[1].iseg;
  nx->r.inj_pb_sel = fd[1].sel, nx->r.inj_pb_sok = fd[1].sok, nx->r.inj_pb_sx = fd[1].sx;
  nx->r.cnt_inj_msgs = (r->cnt_inj_msgs + ev[0].msgs + ev[1].msgs) & 0xffffu;
  nx->r.cnt_sel_bad = (r->cnt_sel_bad + ev[0].sel_bad + ev[1].sel_bad) & 0xffffu;
  nx->r.cnt_inj_drop = (r->cnt_inj_drop + ev[0].drop + ev[1].drop) & 0xffffu;
  nx->r.cnt_inj_stray = (r->cnt_inj_stray + ev[0].stray + ev[1].stray) & 0xffffu;
  if (cev) {
    cev->drop = (uint8_t)(ev[0].sel_bad + ev[1].sel_bad + ev[0].drop + ev[1].drop);
    cev->stray = (uint8_t)(ev[0].stray + ev[1].stray);
  }
}

int mp1_chip_eval(const mp1_chip_cfg_t *cfg, const mp1_chip_state_t *st, const mp1_chip_in_t *in,
                  mp1_chip_out_t *out, mp1_chip_next_t *nx, mp1_chip_ev_t *ev) {
  const mp1_chip_regs_t *r = &st->r;
  nx->r = *r;

  /* Front-end stops (§11.3): combinational from registers and the target's downstream stop; the
   * interface's in NEXT is settled after the planes (it needs their keep outputs). */
  const fe_t fq[2] = {
      {r->inj_if_st, r->inj_if_ic, r->inj_if_iseg, r->inj_if_sel, r->inj_if_sok, r->inj_if_sx},
      {r->inj_pb_st, r->inj_pb_ic, r->inj_pb_iseg, r->inj_pb_sel, r->inj_pb_sok, r->inj_pb_sx}};
  const uint32_t fwd_s = (fq[0].st == MP1_FE_FWD || fq[1].st == MP1_FE_FWD) ? fwd_stop(st, in) : 1;
  uint32_t stop[2] = {fe_stop(&fq[0], fwd_s), fe_stop(&fq[1], fwd_s)};

  const uint32_t pbo = machine_dat(st, r->pba_own, 1);
  const uint32_t rcv = machine_dat(st, r->rca_own, 0);
  const uint32_t pb_stop = in->pbloop ? stop[1] : in->pbo_stop;

  planes_out_t po;
  planes_eval(cfg, st, in, pb_stop, nx, &po, ev);
  rr_step(r->rca_own, r->rca_last, r->rca_pos, rcv, po.rc_any, po.rc_req, &nx->r.rca_own,
          &nx->r.rca_last, &nx->r.rca_pos);
  rr_step(r->pba_own, r->pba_last, r->pba_pos, pbo, po.pb_any, po.pb_req, &nx->r.pba_own,
          &nx->r.pba_last, &nx->r.pba_pos);

  const uint32_t chunk[2] = {in->inj_dat & 7u, in->pbloop ? pbo : (in->pbi_dat & 7u)};
  inj_eval(cfg, st, in, fq, chunk, stop, &po, nx, ev);

  MP1_CHIP_SET_PER_PLANE(out->, xin_stop, po.xin_stop)
  MP1_CHIP_SET_PER_PLANE(out->, yin_stop, po.yin_stop)
  MP1_CHIP_SET_PER_PLANE(out->, xout_dat, po.xout_dat)
  MP1_CHIP_SET_PER_PLANE(out->, yout_dat, po.yout_dat)
  out->inj_stop = stop[0];
  out->pbi_stop = stop[1];
  out->rcv_dat = rcv;
  out->pbo_dat = pbo;
  out->err = po.err;
  return 0;
}

void mp1_chip_clock(mp1_chip_state_t *st, const mp1_chip_next_t *nx) {
  st->r = nx->r;
  for (int p = 0; p < MP1_CHIP_PLANES; p++) mp1_plane_clock(&st->pl[p], &nx->pl[p]);
}
