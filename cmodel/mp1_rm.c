/* MP1 routing machine (docs/mp1.md §8): mad-postman cut-through, turns and consumption through a
 * chunk buffer, adaptive turns, broadcast copies, dead and bad flits; address words of one or two
 * flits (§14). */
#include "mp1_rm.h"

#include <string.h>

static int two_dim(uint32_t code) {
  return code == MP1_CODE_P2P_STATIC || code == MP1_CODE_P2P_ADAPTIVE || code == MP1_CODE_BCAST_2D;
}

static int ahead_of(uint32_t a, uint32_t p, uint32_t neg) { return neg ? a < p : a > p; }

/* What AWF fixes (docs/mp1.md §14.2): the address bits and the masks of an address and of a
 * word {code, addr}, the flit index that completes a word, the buffer chunks where the copies that
 * skip a1 (off1) and a1 and a2 (off2) start, which is also how far a read pointer may lead the
 * writer (rule 3), and the stop threshold (rule 7). At AWF = 1 every figure is §8's. */
typedef struct {
  uint32_t aw, amask, wmask, wlast, off1, off2, stop_max;
} awf_t;

/* A table, not arithmetic: every non-quiet machine of a network looks it up each cycle. AW =
 * 5 + 8 (AWF - 1); masks 2^AW - 1 and 2^(AW + 3) - 1; AWF - 1; 3 AWF; 6 AWF; 30 or 17. */
static const awf_t awf_tab[2] = {
    {5, 31, 255, 0, 3, 6, 30},       /* AWF = 1: MP1 as §8 specifies it */
    {13, 8191, 65535, 1, 6, 12, 17}, /* AWF = 2 */
};

static const awf_t *awf_of(const mp1_rm_cfg_t *cfg) { return &awf_tab[cfg->awf == 2]; }

typedef struct {
  uint32_t mask, rnew;
  uint32_t first[MP1_RM_NOUT];
} route_t;

/* docs/mp1.md §8.5 and §8.6 rule 2; the first chunks past a1 (off1) and past a2 (off2), §14.2
 * rule 3. */
static route_t route_for(uint32_t code, int match, uint32_t off1, uint32_t off2) {
  route_t r = {0, 0, {0, 0, 0, 0}};
#define ADD(k, f) (r.mask |= 1u << (k), r.first[k] = (f))
  if (!match) {
    ADD(MP1_RM_ST, 0);
    if (code == MP1_CODE_BCAST_2D) {
      ADD(MP1_RM_OT, off1);
      ADD(MP1_RM_RC, off2);
    } else if (code == MP1_CODE_BCAST_1D) {
      ADD(MP1_RM_RC, off1);
    }
    return r;
  }
  switch (code) {
  case MP1_CODE_P2P_STATIC:
  case MP1_CODE_P2P_ADAPTIVE:
    ADD(MP1_RM_OT, off1);
    break;
  case MP1_CODE_DELIVER:
  case MP1_CODE_BCAST_1D:
    ADD(MP1_RM_RC, off1);
    break;
  case MP1_CODE_PIGGY_INTRA:
    ADD(MP1_RM_ST, off1);
    r.rnew = 1;
    break;
  case MP1_CODE_BCAST_2D:
    ADD(MP1_RM_OT, off1);
    ADD(MP1_RM_RC, off2);
    break;
  default: /* PIGGY_INTER; ILLEGAL never gets here (a bad a1) */
    ADD(MP1_RM_PB, off1);
    break;
  }
#undef ADD
  return r;
}

void mp1_rm_reset(mp1_rm_state_t *st) { memset(st, 0, sizeof *st); }

/* A truncation: after no more than the segment's first address word a dead word, after more a
 * cut (§8.6 rule 9, §14.2 rule 5). */
static void count_trunc(const awf_t *A, const mp1_rm_regs_t *q, mp1_rm_regs_t *d) {
  if (q->ifl <= A->wlast + 1u)
    d->cnt_dead = (q->cnt_dead + 1) & 0xffffu;
  else
    d->cnt_cut = (q->cnt_cut + 1) & 0xffffu;
}

/* The verdict on a bad a1 whose next chunk is not a gap: a bad message (§8.6 rule 3). */
static void count_bad(const awf_t *A, const mp1_rm_regs_t *q, mp1_rm_regs_t *d) {
  if ((uint32_t)(q->a1 >> A->aw) == MP1_CODE_ILLEGAL)
    d->cnt_bad_code = (q->cnt_bad_code + 1) & 0xffffu;
  else
    d->cnt_bad_addr = (q->cnt_bad_addr + 1) & 0xffffu;
}

/* An adaptive turn sends a2 first and a1 second, each carrying the other's control code: the
 * code belongs to the position (the leading flit names two dimensions), the address to the
 * dimension (§8.8 rule 9). Only the words' first flits change (§14.2 rule 4). Chunk `at` of the
 * swapped pair; other chunks pass unchanged. */
static uint32_t swap_chunk(const awf_t *A, const mp1_rm_regs_t *q, uint32_t at, uint32_t c) {
  const uint32_t a1 = q->a1, a2 = q->a2, aw = A->aw;
  if (at == A->off1) /* 1, a1's code[2:1] */
    return 4u | ((a1 >> (aw + 1)) & 3u);
  if (at == A->off1 + 1) /* a1's code[0], a2's addr[AW-1:AW-2] */
    return (((a1 >> aw) & 1u) << 2) | ((a2 >> (aw - 2)) & 3u);
  if (at == 0)
    return 4u | ((a2 >> (aw + 1)) & 3u);
  if (at == 1)
    return (((a2 >> aw) & 1u) << 2) | ((a1 >> (aw - 2)) & 3u);
  return c;
}

void mp1_rm_eval(const mp1_rm_cfg_t *cfg, const mp1_rm_state_t *st, const mp1_rm_in_t *in,
                 mp1_rm_out_t *out, mp1_rm_next_t *nx) {
  const mp1_rm_regs_t *q = &st->r;
  if (mp1_rm_quiet(st, in->in_dat)) {
    mp1_rm_eval_quiet(st, out, nx);
    return;
  }
  const awf_t *A = awf_of(cfg);
  const uint32_t off2 = A->off2; /* read once: the loops below compare with it */
  mp1_rm_regs_t *d = &nx->r;
  *d = *q;
  nx->we = nx->waddr = nx->wdata = 0;
  nx->keep = 0;

  const uint32_t own[MP1_RM_NOUT] = {in->st_own & 1u, in->ot_own & 1u, in->rc_own & 1u,
                                     in->pb_own & 1u};
  const uint32_t stop[MP1_RM_NOUT] = {in->st_stop & 1u, in->ot_stop & 1u, in->rc_stop & 1u,
                                      in->pb_stop & 1u};
  const uint32_t q_rp[MP1_RM_NOUT] = {q->rp_st, q->rp_ot, q->rp_rc, q->rp_pb};
  const uint32_t q_dat[MP1_RM_NOUT] = {q->st_dat, q->ot_dat, q->rc_dat, q->pb_dat};
  uint32_t rp[MP1_RM_NOUT] = {q->rp_st, q->rp_ot, q->rp_rc, q->rp_pb};
  uint32_t req[MP1_RM_NOUT] = {0, 0, 0, 0};
  uint32_t dat[MP1_RM_NOUT] = {0, 0, 0, 0};

  /* Ingress (§8.3). */
  /* While a received message drains (ended), the input is ignored: stop is high (§8.6 rule 10). */
  const uint32_t c = in->in_dat & 7u, ic = q->ic;
  const int en = !q->ended;
  const int start = en && ic == 0 && (c & 4u);
  /* an end code ends a segment only while one is open (§8.8 rule 7) */
  const int endc = en && ic == 0 && q->iseg && (c == MP1_CH_EOS || c == MP1_CH_EOM);
  const int eom = en && ic == 0 && q->iseg && c == MP1_CH_EOM;
  const int gap = en && ic == 0 && (c == MP1_CH_IDLE || c == MP1_CH_ILLEGAL);
  const int done = en && ic == 2;
  const uint32_t byte = ((q->isr & 31u) << 3) | c;
  const int trunc = q->iseg && gap;
  const int seg_chunk = start || ic != 0 || endc;
  const uint32_t s0 = q->rm_st;
  /* A broadcast is one segment: its first segment's EOS is taken as its EOM and the rest of the
   * message is dropped (§8.8 rule 10). */
  const uint32_t bc = q->route;
  /* an abort between segments while a segment is buffered: an end code for the copies
     (§8.8 rule 12) */
  const int abort_in = en && ic == 0 && !q->iseg && c == MP1_CH_ILLEGAL &&
                       (s0 == MP1_RM_HOLD || s0 == MP1_RM_EMIT);
  /* a two-dimension header cut short is a truncation instead (§8.8 rule 11), and so is a header cut
   * inside a1's word (§14.2 rule 6; PASS handles that one below) */
  const int hdr_cut = endc && s0 == MP1_RM_HOLD &&
                      (q->ihd == 0 || (q->ihd == 1 && two_dim((uint32_t)q->a1 >> A->aw)));
  const int bcut = endc && c == MP1_CH_EOS && (s0 == MP1_RM_HOLD || s0 == MP1_RM_EMIT) &&
                   !hdr_cut && (bc >> MP1_RM_RC & 1u) &&
                   (bc & ((1u << MP1_RM_ST) | (1u << MP1_RM_OT)));
  const int overlong = start && q->ifl == 32;
  const uint32_t s = q->rm_st;

  /* The address words shift in a flit at a time (§14.2 rule 1); a1's decisions are taken when its
   * word completes (rule 2), on the completed word. */
  const int word_end = done && q->iwf == A->wlast;
  const int a1_done = word_end && q->ihd == 0;
  /* Bad: illegal code, unreachable address, or a route into a missing output (§8.8 rule 2).
   * Only a just-completed a1 is judged, so the route is worked out only then. */
  route_t a1_route = {0, 0, {0, 0, 0, 0}};
  int bad = 0, match = 0;
  if (a1_done) {
    const uint32_t a1w = (((uint32_t)q->a1 << 8) | byte) & A->wmask;
    const uint32_t code = a1w >> A->aw, addr = a1w & A->amask;
    match = addr == in->pos;
    a1_route = route_for(code, match, A->off1, A->off2);
    bad = code == MP1_CODE_ILLEGAL ||
          (!match && (!ahead_of(addr, in->pos, in->neg) || in->edge)) ||
          ((a1_route.mask >> MP1_RM_ST & 1u) && in->edge) ||
          ((a1_route.mask >> MP1_RM_OT & 1u) && in->oedge);
  }

  const int ing = en && (s != MP1_RM_IDLE || start);
  if (ing) {
    d->ic = start ? 1u : (ic == 1 ? 2u : 0u);
    if (start)
      d->isr = (q->isr & 7u) | ((c & 3u) << 3);
    else if (ic == 1)
      d->isr = (q->isr & 0x18u) | c;
    if (start)
      d->iseg = 1;
    else if (endc || trunc)
      d->iseg = 0;
    if (start)
      d->ifl = q->ifl < 33 ? q->ifl + 1 : 33;
    else if (endc || trunc)
      d->ifl = 0;
    if (done && q->ihd < 2) {
      if (q->ihd == 0)
        d->a1 = (uint16_t)((((uint32_t)q->a1 << 8) | byte) & A->wmask);
      else if (two_dim((uint32_t)q->a1 >> A->aw))
        d->a2 = (uint16_t)((((uint32_t)q->a2 << 8) | byte) & A->wmask);
      d->iwf = word_end ? 0u : q->iwf + 1u;
      if (word_end)
        d->ihd = q->ihd + 1u;
    }
    if ((seg_chunk || abort_in) && s != MP1_RM_DROP) {
      nx->we = 1;
      nx->waddr = (uint8_t)q->wp;
      nx->wdata = (uint8_t)(bcut ? (8u | MP1_CH_EOM) : ((endc || abort_in ? 8u : 0u) | c));
      d->wp = (q->wp + 1) & 127u;
    }
  }

  uint32_t next = s;
  uint32_t route = q->route, act = q->act, swap = q->swap;
  /* The message ends once its copies have sent what is buffered (§8.2 ended). */
  if ((eom || bcut) && (s == MP1_RM_HOLD || s == MP1_RM_EMIT))
    d->ended = 1;
  if (abort_in) {
    d->ended = 1;
    d->cnt_cut = (q->cnt_cut + 1) & 0xffffu;
  }
  if (bcut) {
    d->bcut = 1;
    d->cnt_bad_long = (q->cnt_bad_long + 1) & 0xffffu;
  }

  /* Abort between segments (§8.8 rule 5): the illegal chunk on every owned route output. */
#define ABORT_OUTPUTS()                                                              \
  do {                                                                               \
    for (int k_ = 0; k_ < MP1_RM_NOUT; k_++)                                         \
      if ((q->route >> k_ & 1u) && own[k_]) {                                        \
        dat[k_] = MP1_CH_ILLEGAL;                                                    \
        req[k_] = 1;                                                                 \
      }                                                                              \
  } while (0)

  /* One chunk of copy k from the buffer (§8.4 EMIT, §8.6 rule 6). */
#define EMIT_STEP(k)                                                                 \
  do {                                                                               \
    const uint32_t e_ = mp1_rm_mem(st, rp[k]);                                       \
    dat[k] = e_ & 7u;                                                                \
    if ((k) == MP1_RM_OT && swap)                                                    \
      dat[k] = swap_chunk(A, q, rp[k], dat[k]);                                      \
    req[k] = 1;                                                                      \
    if ((k) == MP1_RM_OT && swap && rp[k] == A->off2 - 1)                            \
      rp[k] = 0;                                                                     \
    else if ((k) == MP1_RM_OT && swap && rp[k] == A->off1 - 1)                       \
      rp[k] = A->off2, swap = 0;                                                     \
    else                                                                             \
      rp[k] = (rp[k] + 1) & 127u;                                                    \
    if (e_ & 8u)                                                                     \
      act &= ~(1u << (k));                                                           \
  } while (0)

  switch (s) {
  case MP1_RM_IDLE:
    if (start) {
      if ((c & 3u) != 2u && in->st_free && !stop[MP1_RM_ST] && !in->edge) {
        req[MP1_RM_ST] = 1;
        dat[MP1_RM_ST] = c;
        next = MP1_RM_PASS;
      } else {
        next = MP1_RM_HOLD;
      }
    } else if (c == MP1_CH_EOS || c == MP1_CH_EOM || c == MP1_CH_ILLEGAL) {
      d->cnt_stray = (q->cnt_stray + 1) & 0xffffu;
    }
    break;

  case MP1_RM_PASS:
    req[MP1_RM_ST] = 1;
    dat[MP1_RM_ST] = c;
    if (q->vpend) {
      d->vpend = 0;
      dat[MP1_RM_ST] = 0;
      if (trunc) {
        /* the idle chunk goes out with the request still up; released from IDLE */
        d->cnt_dead = (q->cnt_dead + 1) & 0xffffu;
        next = MP1_RM_IDLE;
      } else {
        req[MP1_RM_ST] = 0;
        count_bad(A, q, d);
        next = eom ? MP1_RM_IDLE : MP1_RM_DROP;
      }
    } else if (overlong) {
      req[MP1_RM_ST] = 0;
      dat[MP1_RM_ST] = 0;
      d->cnt_bad_long = (q->cnt_bad_long + 1) & 0xffffu;
      next = MP1_RM_DROP;
    } else if (a1_done) {
      if (bad) {
        d->vpend = 1;
      } else if (match) {
        /* The flit just completed is dead here: it goes out, then the straight output is let go. */
        const route_t r = a1_route;
        route = r.mask;
        d->rnew = r.rnew;
        for (int k = 0; k < MP1_RM_NOUT; k++)
          rp[k] = r.first[k];
        next = MP1_RM_HOLD;
      }
    } else if (endc && q->ihd == 0) {
      /* a header cut inside a1's word: the end code goes on, and so does the cut, to the next
         machine, which does the same (§14.2 rule 6) */
      d->cnt_cut = (q->cnt_cut + 1) & 0xffffu;
      next = MP1_RM_IDLE;
    } else if (endc) {
      if (eom) {
        next = MP1_RM_IDLE;
      } else {
        /* a later segment through the buffer must not resend this cut-through one */
        route = 1u << MP1_RM_ST;
        rp[MP1_RM_ST] = d->wp;
        next = MP1_RM_WAIT;
      }
    } else if (trunc) {
      dat[MP1_RM_ST] = 0;
      count_trunc(A, q, d);
      next = MP1_RM_IDLE;
    }
    break;

  case MP1_RM_HOLD:
    if (q->vpend) {
      d->vpend = 0;
      if (trunc) {
        d->cnt_dead = (q->cnt_dead + 1) & 0xffffu;
        next = MP1_RM_IDLE;
      } else {
        count_bad(A, q, d);
        next = eom ? MP1_RM_IDLE : MP1_RM_DROP;
      }
      break;
    }
    if (trunc) {
      count_trunc(A, q, d);
      ABORT_OUTPUTS();
      next = MP1_RM_IDLE;
      break;
    }
    if (overlong) {
      d->cnt_bad_long = (q->cnt_bad_long + 1) & 0xffffu;
      ABORT_OUTPUTS();
      next = MP1_RM_DROP;
      break;
    }
    if (hdr_cut) {
      /* the header ends before its second address word (§8.8 rule 11), or inside its first
         (§14.2 rule 6) */
      d->cnt_cut = (q->cnt_cut + 1) & 0xffffu;
      ABORT_OUTPUTS();
      next = MP1_RM_IDLE;
      break;
    }
    if (endc)
      d->segend = 1; /* an emission start in this same cycle clears it again */
    /* Requests, the adaptive switch and the emission start all follow the registered route: a
     * route decided in this cycle (below) takes effect in the next (§8.6 rule 4). */
    if (q->route != 0) {
      if (q->adapt_ok && q->route == (1u << MP1_RM_ST) && !own[MP1_RM_ST] && own[MP1_RM_OT]) {
        route = 1u << MP1_RM_OT;
        swap = 1;
        rp[MP1_RM_OT] = A->off1;
        d->cnt_adapt = (q->cnt_adapt + 1) & 0xffffu;
        if (q->segend)
          d->cnt_adapt_buf = (q->cnt_adapt_buf + 1) & 0xffffu;
        req[MP1_RM_OT] = 1;
      } else {
        /* Ordered acquisition (§8.6 rule 4); the old straight ownership of an intra-plane
         * piggy-back is let go first (rule 7). */
        /* the plane's global order (§8.8 rule 6): X out before Y out before reception */
        static const int order_st[MP1_RM_NOUT] = {MP1_RM_ST, MP1_RM_OT, MP1_RM_RC, MP1_RM_PB};
        static const int order_ot[MP1_RM_NOUT] = {MP1_RM_OT, MP1_RM_ST, MP1_RM_RC, MP1_RM_PB};
        const int *order = in->ot_first ? order_ot : order_st;
        /* The chip-shared outputs (reception, piggy-back) are asked for only once every network
         * copy could start: a machine never holds them while it waits for a buffer (§8.8
         * rule 8). */
        int net_ready = 1;
        for (int k = MP1_RM_ST; k <= MP1_RM_OT; k++)
          if (q->route & (1u << k))
            net_ready = net_ready && own[k] && !stop[k] && q_dat[k] == MP1_CH_IDLE;
        int lower_owned = 1, ready = !q->rnew;
        for (int i = 0; i < MP1_RM_NOUT; i++) {
          const int k = order[i];
          if (!(q->route & (1u << k)))
            continue;
          int r_k = own[k] || (lower_owned && (k < MP1_RM_RC || net_ready));
          if (k == MP1_RM_ST && q->rnew) {
            if (own[MP1_RM_ST])
              r_k = 0;
            else
              d->rnew = 0;
          }
          req[k] = (uint32_t)r_k;
          lower_owned = lower_owned && own[k];
          /* written: the writer is past the copy's first chunk (a pointer may lead by up to
             6 AWF, §14.2 rule 3) */
          ready = ready && own[k] && !stop[k] && ((q_rp[k] - q->wp) & 127u) > off2 &&
                  q_dat[k] == MP1_CH_IDLE; /* an idle chunk after an EOS (§8.8 rule 3) */
        }
        if (q->adapt_ok && q->route == (1u << MP1_RM_ST) && !own[MP1_RM_ST])
          req[MP1_RM_OT] = 1;
        if (ready) {
          act = q->route;
          d->segend = 0;
          for (int k = 0; k < MP1_RM_NOUT; k++)
            if (act & (1u << k))
              EMIT_STEP(k);
          next = MP1_RM_EMIT;
        }
      }
    } else if (a1_done) {
      if (bad) {
        d->vpend = 1;
      } else {
        const route_t r = a1_route;
        route = r.mask;
        d->rnew = r.rnew;
        for (int k = 0; k < MP1_RM_NOUT; k++)
          rp[k] = r.first[k];
      }
    }
    /* the adaptive permission, when a2's word completes (§8.6 rule 4, §14.2 rule 2) */
    if (word_end && q->ihd == 1 && ((uint32_t)q->a1 >> A->aw) == MP1_CODE_P2P_ADAPTIVE &&
        (q->a1 & A->amask) != in->pos && ahead_of(((uint32_t)q->a2 << 8 | byte) & A->amask, in->opos,
                                                  in->oneg) &&
        !in->oedge)
      d->adapt_ok = 1;
    break;

  case MP1_RM_EMIT:
    if (overlong) {
      d->cnt_bad_long = (q->cnt_bad_long + 1) & 0xffffu;
      next = MP1_RM_DROP;
      break;
    }
    if (trunc) {
      d->ended = 1;
      count_trunc(A, q, d);
    }
    for (int k = 0; k < MP1_RM_NOUT; k++) {
      if (!(act & (1u << k)))
        continue;
      if (q->ended && q_rp[k] == q->wp)
        act &= ~(1u << k); /* caught up after a truncation: stops without sending */
      else
        EMIT_STEP(k);
    }
    /* A copy keeps its output until it has sent the message's last chunk: one stopped at an EOS
     * keeps it for the next segment (§8.6 rule 8). */
    for (int k = 0; k < MP1_RM_NOUT; k++)
      req[k] = (q->route >> k & 1u) && !(q->ended && q_rp[k] == q->wp);
    break;

  case MP1_RM_WAIT:
    for (int k = 0; k < MP1_RM_NOUT; k++)
      if (route & (1u << k))
        req[k] = 1;
    if (en && ic == 0 && !q->iseg && c == MP1_CH_ILLEGAL) {
      /* an abort from upstream: pass it on and end the message (§8.8 rule 5) */
      d->cnt_cut = (q->cnt_cut + 1) & 0xffffu;
      for (int k = 0; k < MP1_RM_NOUT; k++)
        req[k] = 0;
      ABORT_OUTPUTS();
      next = MP1_RM_IDLE;
    } else if (start) {
      /* cut through only after an idle chunk on the output (§8.8 rule 4) */
      if (route == (1u << MP1_RM_ST) && !stop[MP1_RM_ST] && q->st_dat == MP1_CH_IDLE) {
        dat[MP1_RM_ST] = c;
        next = MP1_RM_PASS;
      } else {
        next = MP1_RM_HOLD;
      }
    }
    break;

  default: /* DROP, and the illegal encodings 6 and 7 */
    /* an abort between segments ends a dropped message too (§8.8 rule 10) */
    if (s != MP1_RM_DROP || eom || trunc || (en && ic == 0 && !q->iseg && c == MP1_CH_ILLEGAL))
      next = MP1_RM_IDLE;
    break;
  }
#undef EMIT_STEP
#undef ABORT_OUTPUTS

  /* Leaving EMIT (§8.6 rule 8) in the cycle the last copy stops: a later segment already in the
   * buffer goes first, even when ended (the EOM may be that segment's). */
  if (s == MP1_RM_EMIT && next == MP1_RM_EMIT && act == 0) {
    int buffered = d->iseg;
    for (int k = 0; k < MP1_RM_NOUT; k++)
      if ((q->route & (1u << k)) && rp[k] != d->wp)
        buffered = 1;
    if (buffered)
      next = MP1_RM_HOLD;
    else if (q->ended && q->bcut)
      next = MP1_RM_DROP; /* the rest of a cut broadcast (§8.8 rule 10) */
    else if (q->ended)
      next = MP1_RM_IDLE;
    else
      next = MP1_RM_WAIT;
  }

  d->route = route;
  d->act = act;
  d->swap = swap;
  d->rp_st = rp[MP1_RM_ST];
  d->rp_ot = rp[MP1_RM_OT];
  d->rp_rc = rp[MP1_RM_RC];
  d->rp_pb = rp[MP1_RM_PB];
  d->st_dat = dat[MP1_RM_ST];
  d->ot_dat = dat[MP1_RM_OT];
  d->rc_dat = dat[MP1_RM_RC];
  d->pb_dat = dat[MP1_RM_PB];
  d->rm_st = next;
  if (next == MP1_RM_IDLE)
    mp1_rm_clear_message(d);
  if (s == MP1_RM_EMIT && next == MP1_RM_DROP)
    d->ended = d->bcut = 0; /* the later segments may come: stop falls */
  /* stop on occupancy (§8.8 rule 1): with at most 30 unread chunks (17 at AWF = 2, whose lead
   * window is 12 chunks: §14.2 rule 7) a new segment still fits. */
  uint32_t occ = 0;
  for (int k = 0; k < MP1_RM_NOUT; k++) {
    if (!(d->route & (1u << k)))
      continue;
    const uint32_t lead = (rp[k] - d->wp) & 127u;
    const uint32_t u = lead <= off2 ? 0 : (d->wp - rp[k]) & 127u;
    if (u > occ)
      occ = u;
  }
  d->stop = d->ended || ((next == MP1_RM_HOLD || next == MP1_RM_EMIT) && occ > A->stop_max);

  out->in_stop = q->stop;
  out->st_dat = q->st_dat;
  out->ot_dat = q->ot_dat;
  out->rc_dat = q->rc_dat;
  out->pb_dat = q->pb_dat;
  out->st_req = req[MP1_RM_ST];
  out->ot_req = req[MP1_RM_OT];
  out->rc_req = req[MP1_RM_RC];
  out->pb_req = req[MP1_RM_PB];
}

const char *mp1_rm_state_name(uint32_t s) {
  static const char *const names[] = {"IDLE", "PASS", "HOLD", "EMIT", "WAIT", "DROP"};
  return s < 6 ? names[s] : "ILLEGAL";
}
