/* MP1 routing machine, draft 4 (docs/mp1_draft4.md §3-§7): the input writes a 128-chunk buffer for
 * a front message F and a back message B; F's copies each start on their own and stream from the
 * buffer or, caught up, from the input in the same cycle. Address words of one or two flits
 * (docs/mp1.md §14). */
#include <madpost/mp1_rm.h>

#include <string.h>

#include "mp1_int.h"

/* What AWF fixes (docs/mp1.md §14.2): the address bits and the masks of an address and of a word
 * {code, addr}, the flit index that completes a word, and the offsets from a message's first chunk
 * of the copies that skip a1 (off1 = 3 AWF) and a1 and a2 (off2 = 6 AWF). */
typedef struct {
  uint32_t aw, amask, wmask, wlast, off1, off2;
} awf_t;

static const awf_t awf_tab[2] = {
    {5, 31, 255, 0, 3, 6},       /* AWF = 1 */
    {13, 8191, 65535, 1, 6, 12}, /* AWF = 2 */
};

/* §6: stop above 29 chunks; a write with more than 126 would lap the oldest chunk F needs. */
enum { STOP_OCC = 29, OCC_MAX = 126 };

enum { ST_BIT = 1u << MP1_RM_ST, OT_BIT = 1u << MP1_RM_OT, RC_BIT = 1u << MP1_RM_RC };
enum { RX_NONE, RX_F, RX_B };

/* One message slot (§3.1), its registers without the f_ / b_ prefix. */
typedef struct {
  uint32_t val, in, drop, cut, dec, vpend, rnew, adapt, base, a1, a2, route;
} slot_t;
#define SLOT_FIELDS(X)                                                                             \
  X(val) X(in) X(drop) X(cut) X(dec) X(vpend) X(rnew) X(adapt) X(base) X(a1) X(a2) X(route)

/* One evaluation: the state, the inputs, and the next values as they are worked out. */
typedef struct {
  const awf_t *A;
  const mp1_rm_state_t *st;
  const mp1_rm_regs_t *q;
  const mp1_rm_in_t *in;
  mp1_rm_regs_t *d;
  mp1_rm_next_t *nx;
  uint32_t c, byte;
  int start, endc, eom, done, trunc, abort;
  int rx;         /* the receiving slot (§4) */
  slot_t f, b;    /* the slots' next values */
  int fnew;       /* F is created in this cycle (§4.1) */
  int wf;         /* the chunk written in this cycle is F's: its copies may bypass it (§5.1) */
  int dec_now;    /* F's route is decided in this cycle (§5.3) */
  uint32_t fbase; /* F's first chunk, this cycle */
  uint32_t fend;  /* where F's chunks end: B's first chunk, else the writer */
  uint32_t cs[MP1_RM_NOUT], rp[MP1_RM_NOUT], req[MP1_RM_NOUT], dat[MP1_RM_NOUT];
  uint32_t swap;
  mp1_rm_ev_t cnt; /* the counters' growth this cycle (adapt, adapt_buf, drop, stray) */
} ctx_t;

static void inc(uint16_t *n) { *n = (uint16_t)(*n + 1u); }

static int two_dim(uint32_t code) {
  return code == MP1_CODE_P2P_STATIC || code == MP1_CODE_P2P_ADAPTIVE || code == MP1_CODE_BCAST_2D;
}

static int ahead_of(uint32_t a, uint32_t p, uint32_t neg) { return neg ? a < p : a > p; }

static slot_t slot_f(const mp1_rm_regs_t *r) {
  slot_t s;
#define GET(n) s.n = r->f_##n;
  SLOT_FIELDS(GET)
#undef GET
  return s;
}

static slot_t slot_b(const mp1_rm_regs_t *r) {
  slot_t s;
#define GET(n) s.n = r->b_##n;
  SLOT_FIELDS(GET)
#undef GET
  return s;
}

static void put_slots(mp1_rm_regs_t *r, const slot_t *f, const slot_t *b) {
#define PUT(n) r->f_##n = f->n, r->b_##n = b->n;
  SLOT_FIELDS(PUT)
#undef PUT
}

/* The copies of a decided route (docs/mp1.md §8.5; a new message for code 3 at the match). */
static uint32_t route_of(uint32_t code, int match, uint32_t *rnew) {
  *rnew = 0;
  if (!match)
    return ST_BIT | (code == MP1_CODE_BCAST_2D   ? OT_BIT | RC_BIT
                     : code == MP1_CODE_BCAST_1D ? RC_BIT
                                                 : 0u);
  switch (code) {
  case MP1_CODE_P2P_STATIC:
  case MP1_CODE_P2P_ADAPTIVE:
    return OT_BIT;
  case MP1_CODE_DELIVER:
  case MP1_CODE_BCAST_1D:
    return RC_BIT;
  case MP1_CODE_PIGGY_INTRA:
    *rnew = 1;
    return ST_BIT;
  case MP1_CODE_BCAST_2D:
    return OT_BIT | RC_BIT;
  default: /* PIGGY_INTER; ILLEGAL is bad before its route counts */
    return 1u << MP1_RM_PB;
  }
}

/* Copy k's first chunk, from the message's first (docs/mp1.md §8.6 rule 2, §14.2 rule 3). */
static uint32_t first_chunk(const awf_t *A, const slot_t *s, uint32_t k) {
  if (k == MP1_RM_ST)
    return s->rnew ? A->off1 : 0;
  if (k == MP1_RM_RC && (s->a1 >> A->aw) == MP1_CODE_BCAST_2D)
    return A->off2;
  return A->off1;
}

void mp1_rm_reset(const mp1_rm_cfg_t *cfg, mp1_rm_state_t *st) {
  (void)cfg; /* AWF changes no reset value */
  memset(st, 0, sizeof *st);
}

/* ---- input (§4) -------------------------------------------------------------------------- */

/* Chunk framing, whatever the slots (docs/mp1.md §8.3, §8.8 rule 7). */
static void framing(ctx_t *x) {
  const mp1_rm_regs_t *q = x->q;
  mp1_rm_regs_t *d = x->d;
  const uint32_t c = x->c, ic = q->ic;
  const int gap = ic == 0 && (c == MP1_CH_IDLE || c == MP1_CH_ILLEGAL);
  x->start = ic == 0 && (c & 4u);
  x->endc = ic == 0 && q->iseg && (c == MP1_CH_EOS || c == MP1_CH_EOM);
  x->eom = x->endc && c == MP1_CH_EOM;
  x->done = ic == 2;
  x->trunc = q->iseg && gap;
  x->abort = ic == 0 && !q->iseg && c == MP1_CH_ILLEGAL;
  x->byte = ((q->isr & 31u) << 3) | c;
  d->ic = x->start ? 1u : ic == 1 ? 2u : 0u;
  if (x->start)
    d->isr = (q->isr & 7u) | ((c & 3u) << 3);
  else if (ic == 1)
    d->isr = (q->isr & 0x18u) | c;
  if (x->start) {
    d->iseg = 1;
    d->ifl = q->ifl < 33 ? q->ifl + 1u : 33u;
  } else if (x->endc || x->trunc) {
    d->iseg = 0;
    d->ifl = 0;
  }
}

static void buf_write(ctx_t *x, uint32_t wd) {
  x->nx->we = 1;
  x->nx->waddr = (uint8_t)x->q->wp;
  x->nx->wdata = (uint8_t)wd;
  x->d->wp = (x->q->wp + 1u) & 127u;
}

/* a1's word is complete: the route, or a verdict that waits for the next chunk (§4.3; bad as
 * docs/mp1.md §8.3 and §8.8 rule 2). */
static void decide(ctx_t *x, slot_t *s, uint32_t a1w) {
  const awf_t *A = x->A;
  const mp1_rm_in_t *in = x->in;
  const uint32_t code = a1w >> A->aw, addr = a1w & A->amask;
  const int match = addr == in->pos;
  uint32_t rnew;
  const uint32_t route = route_of(code, match, &rnew);
  const int bad = code == MP1_CODE_ILLEGAL ||
                  (!match && (!ahead_of(addr, in->pos, in->neg) || in->edge)) ||
                  ((route & ST_BIT) && in->edge) || ((route & OT_BIT) && in->oedge);
  if (bad) {
    s->vpend = 1;
    return;
  }
  s->route = route;
  s->rnew = rnew;
  s->dec = 1;
  x->dec_now = x->rx == RX_F;
}

/* Address words shift in a flit at a time into the receiving slot (docs/mp1.md §14.2 rules 1, 2);
 * the adaptive permission when a2's word completes (§4.3). */
static void header_words(ctx_t *x, slot_t *s) {
  const mp1_rm_regs_t *q = x->q;
  const awf_t *A = x->A;
  if (!x->done || q->ihd >= 2)
    return;
  const int word_end = q->iwf == A->wlast;
  if (q->ihd == 0) {
    s->a1 = ((s->a1 << 8) | x->byte) & A->wmask;
    if (word_end)
      decide(x, s, s->a1);
  } else {
    const uint32_t code = s->a1 >> A->aw;
    const uint32_t a2w = ((s->a2 << 8) | x->byte) & A->wmask;
    if (two_dim(code))
      s->a2 = a2w;
    /* Only for a header whole in the first segment (its 2 AWF flits counted in ifl): the turn
     * reads a2's word at 3 AWF .. 6 AWF - 1, where a header cut by an end code and forwarded
     * straight (§4.4) has that end code. */
    if (word_end && code == MP1_CODE_P2P_ADAPTIVE && (s->a1 & A->amask) != x->in->pos &&
        ahead_of(a2w & A->amask, x->in->opos, x->in->oneg) && !x->in->oedge &&
        q->ifl == 2u * (A->wlast + 1u))
      s->adapt = 1;
  }
  x->d->iwf = word_end ? 0u : q->iwf + 1u;
  if (word_end)
    x->d->ihd = q->ihd + 1u;
}

/* A truncation: after at most the first address word a dead word, after more a cut (docs/mp1.md
 * §8.6 rule 9, §14.2 rule 5). */
static void count_trunc(ctx_t *x) {
  if (x->q->ifl <= x->A->wlast + 1u) {
    inc(&x->d->cnt_dead);
  } else {
    inc(&x->d->cnt_cut);
    x->cnt.drop++;
  }
}

/* An end code that cuts the header (§4.4: rule 11 and §14.2 rule 6). */
static int hdr_cut(const ctx_t *x, const slot_t *s) {
  const uint32_t ihd = x->q->ihd;
  return ihd == 0 || (ihd == 1 && two_dim(s->a1 >> x->A->aw) && s->route != ST_BIT);
}

/* The receiving slot's chunk (§4.2-§4.5). A dropping slot discards it, its input ending at an
 * EOM, a truncation or an abort without a count, as draft 3's DROP. `gone`: the input ended by a
 * truncation or a cut header. */
static void rx_chunk(ctx_t *x, slot_t *s) {
  const slot_t s0 = *s;
  int write = x->start || x->q->ic != 0 || x->endc;
  uint32_t wd = (x->endc ? 8u : 0u) | x->c;
  int ends = 0, gone = 0;
  if (s0.drop) {
    write = 0;
    ends = x->eom || x->trunc || x->abort;
  } else if (s0.vpend) {
    s->vpend = 0;
    if (x->trunc) { /* a dead flit */
      count_trunc(x);
      ends = gone = 1;
    } else { /* a bad message: its chunks from the next on are dropped */
      inc((s0.a1 >> x->A->aw) == MP1_CODE_ILLEGAL ? &x->d->cnt_bad_code : &x->d->cnt_bad_addr);
      x->cnt.drop++;
      s->drop = 1;
      ends = x->eom;
    }
  } else if (x->start && x->q->ifl == 32) { /* over-long (§4.5) */
    write = 0;
    inc(&x->d->cnt_bad_long);
    x->cnt.drop++;
    s->drop = s->cut = 1;
  } else if (x->trunc) {
    count_trunc(x);
    ends = gone = 1;
  } else if (x->endc && hdr_cut(x, &s0)) {
    write = 0;
    inc(&x->d->cnt_cut);
    x->cnt.drop++;
    ends = gone = 1;
  } else if (x->endc && x->c == MP1_CH_EOS && (s0.route & RC_BIT) &&
             (s0.route & (ST_BIT | OT_BIT))) {
    wd = 8u | MP1_CH_EOM; /* a broadcast is one segment (draft 3 §8.8 rule 10) */
    inc(&x->d->cnt_bad_long);
    x->cnt.drop++;
    s->drop = 1;
  } else if (x->abort) {
    inc(&x->d->cnt_cut);
    x->cnt.drop++;
    ends = s->cut = 1;
  } else {
    ends = x->eom;
  }
  if (ends)
    s->in = 0;
  if (gone)
    s->cut = 1;
  header_words(x, s);
  if (write)
    buf_write(x, wd);
  /* Nothing of a B has been sent (§4.4); a dropping B goes at its input's end too, but for a cut
   * broadcast, whose first segment, ended by EOM, is still to be sent (drop without cut). */
  if (x->rx == RX_B && (gone || (ends && s->drop && !(s->dec && !s->cut)))) {
    /* Its chunks go with it: the writer returns to its first, so F's end is again the writer's
     * place (a cut F's copy reads to there and ends, §5.5) and the occupancy exact (§6). */
    x->d->wp = s0.base;
    memset(s, 0, sizeof *s);
  }
}

/* No receiving slot: a message starts (§4.1), or a stray, or a segment with no room (§4.6). */
static void rx_none(ctx_t *x) {
  const mp1_rm_regs_t *q = x->q;
  mp1_rm_regs_t *d = x->d;
  if (q->idis)
    d->idis = d->iseg; /* discarded to the segment's end */
  if (x->start && !q->iseg) {
    if (q->f_val && q->b_val) {
      d->idis = 1;
      inc(&d->cnt_stray);
      x->cnt.stray++;
      return;
    }
    slot_t *s = q->f_val ? &x->b : &x->f;
    memset(s, 0, sizeof *s);
    s->val = s->in = 1;
    s->base = q->wp;
    x->fnew = !q->f_val;
    d->ihd = d->iwf = 0;
    buf_write(x, x->c);
  } else if (q->ic == 0 && !q->iseg && x->c >= MP1_CH_EOS && x->c <= MP1_CH_ILLEGAL) {
    inc(&d->cnt_stray);
    x->cnt.stray++;
  }
}

static void input_step(ctx_t *x) {
  const mp1_rm_regs_t *q = x->q;
  x->rx = q->f_val && q->f_in ? RX_F : q->b_val && q->b_in ? RX_B : RX_NONE;
  if (x->rx == RX_F)
    rx_chunk(x, &x->f);
  else if (x->rx == RX_B)
    rx_chunk(x, &x->b);
  else
    rx_none(x);
}

/* ---- copies (§5, §7) ---------------------------------------------------------------------- */

/* An adaptive turn sends a2's word, then a1's, each first flit keeping its place's code
 * (docs/mp1.md §8.8 rule 9, §14.2 rule 4). Chunk `at` (from F's first) of the swapped pair. */
static uint32_t swap_chunk(const ctx_t *x, uint32_t at, uint32_t ch) {
  const uint32_t a1 = x->q->f_a1, a2 = x->q->f_a2, aw = x->A->aw, off1 = x->A->off1;
  if (at == off1)
    return 4u | ((a1 >> (aw + 1)) & 3u);
  if (at == off1 + 1)
    return (((a1 >> aw) & 1u) << 2) | ((a2 >> (aw - 2)) & 3u);
  if (at == 0)
    return 4u | ((a2 >> (aw + 1)) & 3u);
  if (at == 1)
    return (((a2 >> aw) & 1u) << 2) | ((a1 >> (aw - 2)) & 3u);
  return ch;
}

/* The entry copy k may send (§5.1): the input's chunk when caught up with F's writer (bypass),
 * else a written entry of F. A WAIT copy's pointer may be set ahead of the writer; it is written
 * once it lies before F's end counted from F's first chunk. No copy reads past F's end into B. */
static int has_chunk(const ctx_t *x, uint32_t k, uint32_t *e) {
  const uint32_t rp = x->rp[k];
  if (rp == x->q->wp && x->wf) {
    *e = x->nx->wdata;
    return 1;
  }
  const int written = x->cs[k] == MP1_RM_CS_WAIT
                          ? ((rp - x->fbase) & 127u) < ((x->fend - x->fbase) & 127u)
                          : rp != x->fend;
  if (written)
    *e = mp1_rm_mem(x->st, rp);
  return written;
}

/* Copy k sends entry e: the chunk, the pointer on (the swapped order of an adaptive turn), and
 * RUN, or NEXT after an EOS, OFF after an EOM (§5.4, §5.5). */
static void send(ctx_t *x, uint32_t k, uint32_t e) {
  const awf_t *A = x->A;
  const uint32_t at = (x->rp[k] - x->fbase) & 127u;
  const int sw = k == MP1_RM_OT && x->swap;
  x->dat[k] = sw ? swap_chunk(x, at, e & 7u) : e & 7u;
  x->req[k] = 1;
  if (sw && at == A->off2 - 1)
    x->rp[k] = x->fbase;
  else if (sw && at == A->off1 - 1)
    x->rp[k] = (x->fbase + A->off2) & 127u, x->swap = 0;
  else
    x->rp[k] = (x->rp[k] + 1u) & 127u;
  x->cs[k] = !(e & 8u) ? MP1_RM_CS_RUN : (e & 7u) == MP1_CH_EOS ? MP1_RM_CS_NEXT : MP1_RM_CS_OFF;
}

/* Output k's grant, its receiver's stop and the chunk it shows (our register). */
static void own_stop(const ctx_t *x, uint32_t k, uint32_t *own, uint32_t *stop, uint32_t *dq) {
  const mp1_rm_in_t *in = x->in;
  const mp1_rm_regs_t *q = x->q;
  switch (k) {
  case MP1_RM_ST:
    *own = in->st_own, *stop = in->st_stop, *dq = q->st_dat;
    break;
  case MP1_RM_OT:
    *own = in->ot_own, *stop = in->ot_stop, *dq = q->ot_dat;
    break;
  case MP1_RM_RC:
    *own = in->rc_own, *stop = in->rc_stop, *dq = q->rc_dat;
    break;
  default:
    *own = in->pb_own, *stop = in->pb_stop, *dq = q->pb_dat;
    break;
  }
  *own &= 1u, *stop &= 1u, *dq &= 7u;
}

/* A WAIT copy (§5.2-§5.4). It ends without sending when F is cut (§5.5), when F turned out bad
 * before its route was decided (nothing of a bad message is sent from WAIT), or, for the straight
 * copy, when the route decided in this cycle has no st; with a new message (rnew) it waits at
 * a1's end instead (§5.3). Otherwise it starts granted, with room and the idle chunk between
 * messages, or (straight only) by claiming a free output. */
static void copy_wait(ctx_t *x, uint32_t k) {
  const mp1_rm_regs_t *q = x->q;
  const int st = k == MP1_RM_ST;
  uint32_t own, stop, dq, e;
  if ((!x->fnew && q->f_cut) || (st && q->f_drop && !q->f_dec) ||
      (st && x->dec_now && !(x->f.route & ST_BIT))) {
    x->cs[k] = MP1_RM_CS_OFF;
    return;
  }
  x->req[k] = 1;
  if (st && x->dec_now && x->f.rnew) {
    x->rp[k] = (x->fbase + x->A->off1) & 127u;
    return;
  }
  own_stop(x, k, &own, &stop, &dq);
  const int go = (own && !stop && dq == MP1_CH_IDLE) || (st && x->in->st_free && !x->in->st_stop);
  if (!go || !has_chunk(x, k, &e))
    return;
  send(x, k, e);
  /* A straight copy that starts with rnew starts the new message: rnew has done its work. Kept,
   * it would make the copy wait again (§5.2) when its pointer comes round to a1's end after 128
   * chunks of a long message. */
  if (st && q->f_rnew)
    x->f.rnew = 0;
}

/* A RUN copy (§5.5). The straight copy is speculative up to a1's word: at chunk 3 AWF it goes on
 * only with a decided st route, waits there as a new message with rnew (or, F cut, ends there at
 * once, its request low: the new message would wait only to end), and otherwise ends (§5.2). With
 * no chunk it sends the idle chunk, and ends if F is cut. */
static void copy_run(ctx_t *x, uint32_t k) {
  const mp1_rm_regs_t *q = x->q;
  uint32_t e;
  x->req[k] = 1;
  if (!has_chunk(x, k, &e)) {
    if (q->f_cut) {
      x->cs[k] = MP1_RM_CS_OFF;
      x->req[k] = 0;
    }
    return;
  }
  if (k == MP1_RM_ST && x->rp[k] == ((x->fbase + x->A->off1) & 127u) &&
      !(q->f_dec && (q->f_route & ST_BIT) && !q->f_rnew)) {
    if (q->f_rnew && !q->f_cut) {
      x->cs[k] = MP1_RM_CS_WAIT;
    } else {
      x->cs[k] = MP1_RM_CS_OFF;
      x->req[k] = 0;
    }
    return;
  }
  send(x, k, e);
}

/* A NEXT copy: the next segment follows without an idle chunk (§5.4, E); a cut F sends the abort
 * between segments and ends (§5.5). */
static void copy_next(ctx_t *x, uint32_t k) {
  uint32_t own, stop, dq, e;
  x->req[k] = 1;
  if (x->q->f_cut) {
    x->dat[k] = MP1_CH_ILLEGAL;
    x->cs[k] = MP1_RM_CS_OFF;
    return;
  }
  own_stop(x, k, &own, &stop, &dq);
  if (own && !stop && has_chunk(x, k, &e))
    send(x, k, e);
}

/* The adaptive switch (§7.1): while straight is blocked and nothing of F has gone straight, ask
 * for ot as well, and turn when ot is free for us. Returns the copies it has dealt with. A cut F
 * does not turn: its straight copy ends (§5.5). */
static uint32_t adapt_switch(ctx_t *x) {
  const mp1_rm_regs_t *q = x->q;
  const mp1_rm_in_t *in = x->in;
  if (x->fnew || !q->f_adapt || q->f_route != ST_BIT || q->f_cut ||
      x->cs[MP1_RM_ST] != MP1_RM_CS_WAIT)
    return 0;
  const int st_blocked = (!in->st_own || in->st_stop) && !(in->st_free && !in->st_stop);
  if (!st_blocked)
    return 0;
  x->req[MP1_RM_OT] = 1;
  if (!(in->ot_own && !in->ot_stop && q->ot_dat == MP1_CH_IDLE))
    return 0;
  x->f.route = OT_BIT;
  x->swap = 1;
  x->cs[MP1_RM_ST] = MP1_RM_CS_OFF;
  x->rp[MP1_RM_OT] = (x->fbase + x->A->off1) & 127u;
  x->cs[MP1_RM_OT] = MP1_RM_CS_WAIT;
  uint32_t e;
  if (has_chunk(x, MP1_RM_OT, &e)) /* a2's word is complete */
    send(x, MP1_RM_OT, e);
  inc(&x->d->cnt_adapt);
  x->cnt.adapt++;
  if (!(q->f_in && q->iseg)) {
    inc(&x->d->cnt_adapt_buf);
    x->cnt.adapt_buf++;
  }
  return ST_BIT | OT_BIT;
}

static void copies_step(ctx_t *x) {
  const mp1_rm_regs_t *q = x->q;
  x->fbase = x->fnew ? q->wp : q->f_base;
  x->fend = q->b_val ? q->b_base : q->wp;
  x->wf = x->nx->we && (x->rx == RX_F || x->fnew);
  if (x->fnew && !x->in->edge) { /* the speculative straight copy, from the first chunk (§5.2) */
    x->cs[MP1_RM_ST] = MP1_RM_CS_WAIT;
    x->rp[MP1_RM_ST] = q->wp;
  }
  const uint32_t dealt = adapt_switch(x);
  for (uint32_t k = 0; k < MP1_RM_NOUT; k++) {
    if (dealt >> k & 1u)
      continue;
    switch (x->cs[k]) {
    case MP1_RM_CS_WAIT:
      copy_wait(x, k);
      break;
    case MP1_RM_CS_RUN:
      copy_run(x, k);
      break;
    case MP1_RM_CS_NEXT:
      copy_next(x, k);
      break;
    default:
      break;
    }
  }
  /* Copies created by the decision ask at once and start from the next cycle (§5.3, §7). */
  if (x->dec_now)
    for (uint32_t k = MP1_RM_OT; k < MP1_RM_NOUT; k++)
      if (x->f.route >> k & 1u) {
        x->cs[k] = MP1_RM_CS_WAIT;
        x->rp[k] = (x->fbase + first_chunk(x->A, &x->f, k)) & 127u;
        x->req[k] = 1;
      }
}

/* F complete: B moves to the front with its copies, which ask from the next cycle (§5.6). */
static void promote(ctx_t *x) {
  if (!x->q->f_val || x->f.in)
    return;
  for (uint32_t k = 0; k < MP1_RM_NOUT; k++)
    if (x->cs[k] != MP1_RM_CS_OFF)
      return;
  x->f = x->b;
  memset(&x->b, 0, sizeof x->b);
  x->swap = 0;
  if (!x->f.val)
    return;
  for (uint32_t k = 0; k < MP1_RM_NOUT; k++) {
    const int make = x->f.dec ? (int)(x->f.route >> k & 1u)
                              : k == MP1_RM_ST && !x->f.vpend && !x->f.drop && !x->in->edge;
    if (make) {
      x->cs[k] = MP1_RM_CS_WAIT;
      x->rp[k] = (x->f.base + first_chunk(x->A, &x->f, k)) & 127u;
    }
  }
}

/* ---- stop and the buffer invariant (§6) --------------------------------------------------- */

/* Chunks from the oldest F still needs to the writer: F's RUN and NEXT copies' pointers (an
 * adaptive turn still to read a1's word needs F's first chunk), F's first chunk while a copy
 * waits or the route is undecided. */
static uint32_t occupancy(const awf_t *A, const mp1_rm_regs_t *r) {
  if (!r->f_val)
    return 0;
  const uint32_t cs[MP1_RM_NOUT] = {r->cs_st, r->cs_ot, r->cs_rc, r->cs_pb};
  const uint32_t rp[MP1_RM_NOUT] = {r->rp_st, r->rp_ot, r->rp_rc, r->rp_pb};
  const uint32_t wp = r->wp, base = r->f_base;
  uint32_t occ = 0;
  int from_base = !r->f_dec;
  for (uint32_t k = 0; k < MP1_RM_NOUT; k++) {
    if (cs[k] == MP1_RM_CS_WAIT ||
        (k == MP1_RM_OT && r->swap && ((rp[k] - base) & 127u) >= A->off1))
      from_base = 1;
    else if (cs[k] != MP1_RM_CS_OFF && ((wp - rp[k]) & 127u) > occ)
      occ = (wp - rp[k]) & 127u;
  }
  if (from_base && ((wp - base) & 127u) > occ)
    occ = (wp - base) & 127u;
  return occ;
}

/* The rule of §6, on next-state values. A blocked machine raises stop at once, while the blocked
 * message's segment still arrives (that segment completes whatever stop says, §2 rule 4): the
 * interface's window decides on the cycle of its EOM (§10.2) and must already see it, or its
 * message would come to a machine holding two. */
static void stop_next(const awf_t *A, mp1_rm_regs_t *d) {
  const uint32_t occ = occupancy(A, d);
  const int run = d->cs_st == MP1_RM_CS_RUN || d->cs_ot == MP1_RM_CS_RUN ||
                  d->cs_rc == MP1_RM_CS_RUN || d->cs_pb == MP1_RM_CS_RUN;
  const int blocked = d->b_val || (d->f_val && !d->f_drop && occ > 0 && !run);
  d->stop = occ > STOP_OCC || blocked;
}

/* ---- one cycle ---------------------------------------------------------------------------- */

static void ctx_init(ctx_t *x, const mp1_rm_cfg_t *cfg, const mp1_rm_state_t *st,
                     const mp1_rm_in_t *in, mp1_rm_next_t *nx) {
  const mp1_rm_regs_t *q = &st->r;
  /* Only what is read before it is written is cleared (the framing, input and copy steps set the
   * rest): clearing the whole context cost a fifth of the machine's evaluation. */
  x->fnew = 0;
  x->dec_now = 0;
  x->cnt.adapt = x->cnt.adapt_buf = x->cnt.drop = x->cnt.stray = 0;
  memset(x->req, 0, sizeof x->req);
  memset(x->dat, 0, sizeof x->dat);
  x->A = &awf_tab[cfg->awf == 2];
  x->st = st;
  x->q = q;
  x->in = in;
  x->nx = nx;
  x->d = &nx->r;
  nx->r = *q;
  nx->we = nx->waddr = nx->wdata = 0;
  nx->keep = 0;
  x->c = in->in_dat & 7u;
  x->f = slot_f(q);
  x->b = slot_b(q);
  const uint32_t cs[MP1_RM_NOUT] = {q->cs_st, q->cs_ot, q->cs_rc, q->cs_pb};
  const uint32_t rp[MP1_RM_NOUT] = {q->rp_st, q->rp_ot, q->rp_rc, q->rp_pb};
  memcpy(x->cs, cs, sizeof cs);
  memcpy(x->rp, rp, sizeof rp);
  x->swap = q->swap;
}

static void commit(const ctx_t *x) {
  mp1_rm_regs_t *d = x->d;
  put_slots(d, &x->f, &x->b);
  d->cs_st = x->cs[MP1_RM_ST], d->cs_ot = x->cs[MP1_RM_OT];
  d->cs_rc = x->cs[MP1_RM_RC], d->cs_pb = x->cs[MP1_RM_PB];
  d->rp_st = x->rp[MP1_RM_ST], d->rp_ot = x->rp[MP1_RM_OT];
  d->rp_rc = x->rp[MP1_RM_RC], d->rp_pb = x->rp[MP1_RM_PB];
  d->st_dat = x->dat[MP1_RM_ST], d->ot_dat = x->dat[MP1_RM_OT];
  d->rc_dat = x->dat[MP1_RM_RC], d->pb_dat = x->dat[MP1_RM_PB];
  d->swap = x->swap;
}

int mp1_rm_eval(const mp1_rm_cfg_t *cfg, const mp1_rm_state_t *st, const mp1_rm_in_t *in,
                mp1_rm_out_t *out, mp1_rm_next_t *nx, mp1_rm_ev_t *ev) {
  if (mp1_rm_quiet(st, in->in_dat))
    mp1_rm_eval_quiet(st, out, nx, ev);
  else
    mp1_rm_eval_full(cfg, st, in, out, nx, ev);
  return 0;
}

uint32_t mp1_rm_occupancy(const mp1_rm_cfg_t *cfg, const mp1_rm_state_t *st) {
  return occupancy(&awf_tab[cfg->awf == 2], &st->r);
}

/* The events of one full evaluation: from the state's registers, and the counters' growth the
 * evaluation counted (x->cnt). */
static void rm_events(const ctx_t *x, mp1_rm_ev_t *ev) {
  const mp1_rm_regs_t *q = x->q;
  ev->busy = q->f_val || q->b_val;
  /* Every eval sets stop to this very condition (or more chunks than 29) on the registers it
   * writes (stop_next): so without stop nothing is blocked, and the occupancy need not be worked
   * out again. */
  ev->blocked = q->stop && (q->b_val || (q->f_val && !q->f_drop && q->cs_st != MP1_RM_CS_RUN &&
                                         q->cs_ot != MP1_RM_CS_RUN && q->cs_rc != MP1_RM_CS_RUN &&
                                         q->cs_pb != MP1_RM_CS_RUN && occupancy(x->A, q) > 0));
  ev->live = q->f_val ? (uint8_t)(q->f_route & 15u) : 0u;
  ev->adapt = x->cnt.adapt;
  ev->adapt_buf = x->cnt.adapt_buf;
  ev->drop = x->cnt.drop;
  ev->stray = x->cnt.stray;
}

void mp1_rm_eval_full(const mp1_rm_cfg_t *cfg, const mp1_rm_state_t *st, const mp1_rm_in_t *in,
                      mp1_rm_out_t *out, mp1_rm_next_t *nx, mp1_rm_ev_t *ev) {
  ctx_t x;
  ctx_init(&x, cfg, st, in, nx);
  framing(&x);
  input_step(&x);
  copies_step(&x);
  promote(&x);
  commit(&x);
  stop_next(x.A, x.d);
  const mp1_rm_regs_t *q = &st->r;
  mp1_rm_reg_outputs(q, out);
  out->st_req = x.req[MP1_RM_ST];
  out->ot_req = x.req[MP1_RM_OT];
  out->rc_req = x.req[MP1_RM_RC];
  out->pb_req = x.req[MP1_RM_PB];
  /* §6: a write must never find more than 126 chunks F still needs. The occupancy is a distance
   * back from the writer to F's first chunk or a copy's pointer, at most 127: 127 only if one of
   * them is just ahead of the writer, so without one it need not be worked out. */
  const uint32_t w1 = (q->wp + 1u) & 127u;
  out->err = nx->we && (q->f_base == w1 || q->rp_st == w1 || q->rp_ot == w1 || q->rp_rc == w1 ||
                        q->rp_pb == w1) &&
             occupancy(x.A, q) > OCC_MAX;
  if (ev)
    rm_events(&x, ev);
}

const char *mp1_rm_state_name(uint32_t s) {
  static const char *const names[] = {"OFF", "WAIT", "RUN", "NEXT"};
  return s < 4 ? names[s] : "ILLEGAL";
}
