/* cmocka unit tests for one DS-Link link end (docs/dslink.md, include/madpost/dslink.h).
 *
 * Written from the design page only: every expectation below cites the section of docs/dslink.md
 * it comes from. The model is driven through its public API (dslink_reset / dslink_eval /
 * dslink_clock / dslink_outputs); registers are read through dslink_state_t.r, which the header
 * documents as the architectural registers of §3.
 *
 * Harness pieces:
 *   end_t   one link end plus a user-side transmit queue, a receive log and per-cycle invariants
 *   pair    two ends wired back to back (a.d_o -> b.d_i ...), "all evals then all clocks" (§0)
 *   wire_t  a wire between them that can pass, freeze (cut) or flip one payload bit
 *   dec_t   an independent bit/token decoder for a transmitter's d_o/s_o (§5.1, §2)
 *   gen_t   a hand-made D/S bit-stream generator (tokens -> bits with parity -> D/S levels)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <madpost/dslink.h>
#include <madpost/madpost_rng.h>

/* ---------------------------------------------------------------------------------------------- */
/* Small assertion helper with a formatted message (cmocka's assert_* print only the expression). */

#include "check.h"

enum { ST_ER = DSLINK_ST_ERROR_RESET, ST_EW = DSLINK_ST_ERROR_WAIT, ST_RDY = DSLINK_ST_READY,
       ST_STA = DSLINK_ST_STARTED, ST_CON = DSLINK_ST_CONNECTING, ST_RUN = DSLINK_ST_RUN };

#define TOK(kind, data) ((uint16_t)(((unsigned)(kind) << 8) | ((unsigned)(data)&0xFFu)))
#define TOK_KIND(t) ((unsigned)(t) >> 8)
#define TOK_DATA(t) ((unsigned)(t)&0xFFu)

/* ---------------------------------------------------------------------------------------------- */
/* Independent decoder of a D/S line pair (§2: a bit is where d^s changes; its value is d) and of  */
/* the token framing (§5.1). Framing starts at the first bit (a transmitter starts with a NULL).   */

#define DEC_MAXTOK 20000
#define DEC_MAXBITS 200000

typedef struct {
  uint8_t ctl;       /* 1 control token, 0 DATA */
  uint8_t val;       /* DATA byte (LSB first on the wire) or control code (c[1] first) */
  uint8_t p, f;      /* parity and flag bits */
  uint8_t nbits;     /* total bits including P and F */
  uint16_t raw;      /* bits in wire order, first bit in bit 0 */
  uint8_t par_ok;    /* P ^ F ^ previous payload xor == 1 */
  long cyc;          /* cycle of its P bit */
} tok_t;

typedef struct {
  uint32_t x;        /* d^s of the previous cycle */
  uint8_t bits[DEC_MAXBITS];
  long bit_cyc0;     /* cycle of the first bit */
  size_t nbits;
  /* framing */
  int pos;           /* 0: expecting P, 1: expecting F, >=2: payload */
  uint8_t p, f;
  unsigned payload, plen, pxor;
  uint16_t raw;
  long tcyc;
  unsigned par_prev;
  tok_t tok[DEC_MAXTOK];
  size_t ntok;
  size_t ndata;      /* DATA tokens completed */
  size_t par_bad;
} dec_t;

static void dec_init(dec_t *d) {
  d->x = 0;
  d->nbits = 0;
  d->bit_cyc0 = -1;
  d->pos = 0;
  d->par_prev = 0;
  d->ntok = 0;
  d->ndata = 0;
  d->par_bad = 0;
}

static void dec_bit(dec_t *d, unsigned bit, long cyc) {
  if (d->nbits < DEC_MAXBITS)
    d->bits[d->nbits] = (uint8_t)bit;
  if (d->nbits == 0)
    d->bit_cyc0 = cyc;
  d->nbits++;
  if (d->pos == 0) {
    d->p = (uint8_t)bit;
    d->raw = (uint16_t)bit;
    d->tcyc = cyc;
    d->pos = 1;
    return;
  }
  if (d->pos == 1) {
    d->f = (uint8_t)bit;
    d->raw |= (uint16_t)(bit << 1);
    d->plen = d->f ? 2 : 8;
    d->payload = 0;
    d->pxor = 0;
    d->pos = 2;
    return;
  }
  unsigned idx = (unsigned)d->pos - 2;
  d->raw |= (uint16_t)(bit << d->pos);
  d->pxor ^= bit;
  if (d->f)
    d->payload = (d->payload << 1) | bit; /* control code: c[1] then c[0] */
  else
    d->payload |= bit << idx;             /* DATA: least significant bit first */
  d->pos++;
  if (idx + 1 == d->plen) {
    if (d->ntok < DEC_MAXTOK) {
      tok_t *t = &d->tok[d->ntok++];
      t->ctl = d->f;
      t->val = (uint8_t)d->payload;
      t->p = d->p;
      t->f = d->f;
      t->nbits = (uint8_t)(2 + d->plen);
      t->raw = d->raw;
      t->par_ok = (uint8_t)((d->p ^ d->f ^ d->par_prev) == 1);
      t->cyc = d->tcyc;
      if (!t->par_ok)
        d->par_bad++;
    }
    if (!d->f)
      d->ndata++;
    d->par_prev = d->pxor;
    d->pos = 0;
  }
}

/* Feed one cycle of line levels; returns 1 if a bit was seen. */
static int dec_lines(dec_t *d, uint32_t dl, uint32_t sl, long cyc) {
  uint32_t x = (dl ^ sl) & 1u;
  if (x == d->x)
    return 0;
  d->x = x;
  dec_bit(d, dl & 1u, cyc);
  return 1;
}

/* Token stream -> units: NULL (ESC immediately followed by FCT), FCT, or a normal token. */
enum { U_NULL = 100, U_FCT = 101 };
typedef struct {
  int kind;          /* U_NULL, U_FCT, or DSLINK_KIND_DATA/EOP/EOM */
  uint8_t data;
  size_t tok;        /* index of its first token */
} unit_t;

static size_t dec_units(const dec_t *d, unit_t *u, size_t umax) {
  size_t n = 0;
  for (size_t i = 0; i < d->ntok && n < umax; i++) {
    const tok_t *t = &d->tok[i];
    unit_t x = {0, 0, i};
    if (t->ctl && t->val == DSLINK_CTL_ESC) {
      if (i + 1 >= d->ntok)
        break; /* incomplete at the end of the capture */
      const tok_t *t2 = &d->tok[i + 1];
      CHECKF(t2->ctl && t2->val == DSLINK_CTL_FCT,
             "ESC at token %zu (cycle %ld) not followed by FCT (§5.1: ESC only as part of NULL)", i,
             t->cyc);
      CHECKF(t2->p == 0, "NULL at cycle %ld: P2 = %u, spec §5.1 says P2 = 0", t->cyc, t2->p);
      x.kind = U_NULL;
      i++;
    } else if (t->ctl && t->val == DSLINK_CTL_FCT) {
      x.kind = U_FCT;
    } else if (t->ctl) {
      x.kind = t->val == DSLINK_CTL_EOP ? DSLINK_KIND_EOP : DSLINK_KIND_EOM;
    } else {
      x.kind = DSLINK_KIND_DATA;
      x.data = t->val;
    }
    u[n++] = x;
  }
  return n;
}

/* ---------------------------------------------------------------------------------------------- */
/* One link end with a user-side transmit queue, receive log and per-cycle invariant checks.      */

#define TXQ_MAX 20000
#define RXLOG_MAX 20000

typedef struct {
  const char *name;
  dslink_cfg_t cfg;
  dslink_state_t st;
  dslink_in_t in;
  dslink_out_t out;
  dslink_next_t nx;
  dslink_ev_t ev;
  long cyc;                 /* cycle about to be evaluated */
  uint16_t txq[TXQ_MAX];
  size_t txq_head, txq_tail;
  int took;
  uint16_t rxlog[RXLOG_MAX];
  size_t rx_n;
  long rx_first_cyc;        /* cycle of the first token taken, -1 if none */
  unsigned long n_fct_sent, n_normal_sent, n_null_sent, n_nchar_rcvd, n_fct_rcvd, n_link_rst;
  dslink_out_t prev_out;
  int have_prev;
  dec_t *txdec;             /* optional decoder of this end's own d_o/s_o */
  uint32_t last_state;
  uint32_t state_before_er; /* state in the cycle before the most recent entry to ErrorReset */
  long er_entry_cyc;        /* first cycle of the most recent ErrorReset episode */
} end_t;

static end_t g_a, g_b, g_e;
static dec_t g_deca, g_decb;

static void cfg_defaults(dslink_cfg_t *c) { dslink_cfg_default(c); }

static void end_init(end_t *e, const char *name, const dslink_cfg_t *cfg) {
  memset(e, 0, sizeof *e);
  e->name = name;
  e->cfg = *cfg;
  char err[200] = "";
  CHECKF(dslink_cfg_check(cfg, err, sizeof err) == 0, "cfg of %s rejected: %s", name, err);
  memset(&e->st, 0xA5, sizeof e->st); /* reset must set every register (§3: all reset to 0) */
  dslink_reset(&e->cfg, &e->st);
  e->in.link_en = 1;
  e->in.rx_ready = 1;
  e->rx_first_cyc = -1;
  e->last_state = e->st.r.fsm_state;
  e->state_before_er = 99;
  e->er_entry_cyc = 0;
}

static void end_push(end_t *e, unsigned kind, unsigned data) {
  CHECKF(e->txq_tail < TXQ_MAX, "txq full");
  e->txq[e->txq_tail++] = TOK(kind, data);
}

static size_t end_txq_left(const end_t *e) { return e->txq_tail - e->txq_head; }

static void out_eq(const end_t *e, const dslink_out_t *a, const dslink_out_t *b) {
#define CMP_OUT(fld, c, w)                                                                            \
  CHECKF(a->fld == b->fld, "%s cycle %ld: eval out.%s=%u but dslink_outputs()=%u (§2 Moore)",     \
         e->name, e->cyc, #fld, (unsigned)a->fld, (unsigned)b->fld);
  DSLINK_OUTPUTS(CMP_OUT)
#undef CMP_OUT
}

/* Invariants that hold in every cycle (register state st, outputs out). */
static void end_check(end_t *e) {
  const dslink_regs_t *r = &e->st.r;
  const dslink_cfg_t *c = &e->cfg;
  const dslink_out_t *o = &e->out;
  dslink_out_t o2;
  memset(&o2, 0, sizeof o2);
  dslink_outputs(c, &e->st, &o2);
  out_eq(e, o, &o2);
  CHECKF(r->fsm_state <= ST_RUN, "%s cycle %ld: fsm_state %u", e->name, e->cyc, r->fsm_state);
  CHECKF(o->link_state == r->fsm_state, "%s cycle %ld: link_state_o %u != fsm_state %u", e->name,
         e->cyc, o->link_state, r->fsm_state);
  /* §6.3: credit is never granted beyond the free space; the one extra entry (RxDepth + 1) is only
   * ever used by the ERR marker, written at a link reset, when rx_credit is 0. */
  CHECKF(r->rxf_cnt <= c->rx_depth + 1, "%s cycle %ld: rxf_cnt %u > RxDepth + 1", e->name, e->cyc,
         r->rxf_cnt);
  CHECKF(r->rx_credit == 0 || r->rxf_cnt + r->rx_credit <= c->rx_depth,
         "%s cycle %ld: rxf_cnt %u + rx_credit %u > RxDepth %u (§6.3)", e->name, e->cyc, r->rxf_cnt,
         r->rx_credit, c->rx_depth);
  if (r->rxf_cnt == c->rx_depth + 1)
    CHECKF(e->st.rxf_mem[(r->rxf_wptr + c->rx_depth) % (c->rx_depth + 1)] >> 8 == DSLINK_KIND_ERR,
           "%s cycle %ld: the (RxDepth+1)-th entry is not the ERR marker", e->name, e->cyc);
  CHECKF(r->tx_credit <= c->tx_credit_max, "%s cycle %ld: tx_credit %u > TxCreditMax %u", e->name,
         e->cyc, r->tx_credit, c->tx_credit_max);
  CHECKF(r->txf_cnt <= c->tx_depth, "%s cycle %ld: txf_cnt %u", e->name, e->cyc, r->txf_cnt);
  CHECKF(o->tx_ready == (r->txf_cnt != c->tx_depth), "%s cycle %ld: tx_ready %u txf_cnt %u",
         e->name, e->cyc, o->tx_ready, r->txf_cnt);
  CHECKF(o->rx_valid == (r->rxf_cnt != 0), "%s cycle %ld: rx_valid %u rxf_cnt %u", e->name, e->cyc,
         o->rx_valid, r->rxf_cnt);
  if (!o->rx_valid)
    CHECKF(o->rx_data == 0 && o->rx_kind == 0, "%s cycle %ld: rx_data/kind %u/%u while !rx_valid",
           e->name, e->cyc, o->rx_data, o->rx_kind);
  else if (o->rx_kind != DSLINK_KIND_DATA)
    CHECKF(o->rx_data == 0, "%s cycle %ld: rx_data %u with kind %u (§2: 0 for other kinds)",
           e->name, e->cyc, o->rx_data, o->rx_kind);
  CHECKF(o->d == r->tx_d && o->s == r->tx_s, "%s cycle %ld: d_o/s_o are not tx_d/tx_s", e->name,
         e->cyc);
  if (r->fsm_state <= ST_RDY)
    CHECKF(o->d == 0 && o->s == 0,
           "%s cycle %ld: lines %u/%u in state %u, transmitter off (§2: both 0)", e->name, e->cyc,
           o->d, o->s, r->fsm_state);
  /* One line changes per bit while the transmitter is on; turning it off (link reset) may drop both
   * lines to 0 at once (§5.2), so the rule is checked while the state is a started one. */
  if (e->have_prev && r->fsm_state >= ST_STA)
    CHECKF(!(o->d != e->prev_out.d && o->s != e->prev_out.s),
           "%s cycle %ld: d and s changed together (%u/%u -> %u/%u)", e->name, e->cyc,
           e->prev_out.d, e->prev_out.s, o->d, o->s);
}

/* Evaluate one cycle: drive the user inputs from the queue, eval, check. Inputs d/s set by caller. */
static void end_eval(end_t *e) {
  if (e->txq_head < e->txq_tail) {
    uint16_t t = e->txq[e->txq_head];
    e->in.tx_valid = 1;
    e->in.tx_kind = TOK_KIND(t);
    e->in.tx_data = TOK_DATA(t);
  } else {
    e->in.tx_valid = 0;
    e->in.tx_kind = 0;
    e->in.tx_data = 0;
  }
  memset(&e->ev, 0, sizeof e->ev);
  int rc = dslink_eval(&e->cfg, &e->st, &e->in, &e->out, &e->nx, &e->ev);
  CHECKF(rc == 0, "%s cycle %ld: dslink_eval returned %d (internal invariant)", e->name, e->cyc,
         rc);
  end_check(e);
  if (e->txdec)
    dec_lines(e->txdec, e->out.d, e->out.s, e->cyc);
  e->took = e->in.tx_valid && e->out.tx_ready;
  if (e->out.rx_valid && e->in.rx_ready) {
    CHECKF(e->rx_n < RXLOG_MAX, "rx log full");
    if (e->rx_first_cyc < 0)
      e->rx_first_cyc = e->cyc;
    e->rxlog[e->rx_n++] = TOK(e->out.rx_kind, e->out.rx_data);
  }
}

static void end_clock(end_t *e) {
  uint32_t before = e->st.r.fsm_state;
  dslink_clock(&e->st, &e->nx);
  if (e->took)
    e->txq_head++;
  e->n_fct_sent += e->ev.fct_sent;
  e->n_normal_sent += e->ev.normal_sent;
  e->n_null_sent += e->ev.null_sent;
  e->n_nchar_rcvd += e->ev.nchar_rcvd;
  e->n_fct_rcvd += e->ev.fct_rcvd;
  e->n_link_rst += e->ev.link_rst;
  CHECKF((e->st.r.fsm_state == ST_ER) == (e->ev.link_rst != 0),
         "%s cycle %ld: ev.link_rst %u but next state %u", e->name, e->cyc, e->ev.link_rst,
         e->st.r.fsm_state);
  if (e->st.r.fsm_state == ST_ER && before != ST_ER) {
    e->state_before_er = before;
    e->er_entry_cyc = e->cyc + 1;
  }
  e->prev_out = e->out;
  e->have_prev = 1;
  CHECKF(e->cyc < 3000000, "%s: runaway test (cycle budget exhausted)", e->name);
  e->last_state = before;
  e->cyc++;
}

/* ---------------------------------------------------------------------------------------------- */
/* Wire between two ends.                                                                          */

enum { W_PASS = 0, W_FREEZE, W_FLIP };

typedef struct {
  int mode;
  uint32_t od, os;         /* last output levels */
  /* W_FLIP: re-encode the bit stream, flipping payload bit flip_bit of DATA token flip_ndata */
  dec_t *dec;              /* decoder of the wire input (framing from the transmitter's first bit) */
  size_t flip_ndata;
  unsigned flip_bit;
  int flipped;
  long flip_cyc;
} wire_t;

static void wire_init(wire_t *w) { memset(w, 0, sizeof *w); }

static void wire_apply(wire_t *w, uint32_t d, uint32_t s, uint32_t *od, uint32_t *os, long cyc) {
  if (!w) {
    *od = d;
    *os = s;
    return;
  }
  if (w->mode == W_FREEZE) {
    *od = w->od;
    *os = w->os;
    return;
  }
  if (w->mode == W_FLIP && w->dec) {
    dec_t *dd = w->dec;
    uint32_t x = (d ^ s) & 1u;
    if (x != dd->x) {
      unsigned bit = d & 1u;
      unsigned wbit = bit;
      if (!w->flipped && dd->pos >= 2 && !dd->f && dd->ndata == w->flip_ndata &&
          (unsigned)dd->pos - 2 == w->flip_bit) {
        wbit ^= 1u;
        w->flipped = 1;
        w->flip_cyc = cyc;
      }
      dec_lines(dd, d, s, cyc);
      if (wbit == w->od)
        w->os ^= 1u;
      else
        w->od = wbit;
    }
    *od = w->od;
    *os = w->os;
    return;
  }
  w->od = d;
  w->os = s;
  *od = d;
  *os = s;
}

static wire_t *g_wab, *g_wba; /* NULL = plain wires */

static void pair_cycle(end_t *a, end_t *b) {
  dslink_out_t oa, ob;
  memset(&oa, 0, sizeof oa);
  memset(&ob, 0, sizeof ob);
  dslink_outputs(&a->cfg, &a->st, &oa);
  dslink_outputs(&b->cfg, &b->st, &ob);
  wire_apply(g_wab, oa.d, oa.s, &b->in.d, &b->in.s, a->cyc);
  wire_apply(g_wba, ob.d, ob.s, &a->in.d, &a->in.s, b->cyc);
  end_eval(a);
  end_eval(b);
  end_clock(a);
  end_clock(b);
}

static void pair_run(end_t *a, end_t *b, long n) {
  for (long i = 0; i < n; i++)
    pair_cycle(a, b);
}

/* Run until both ends are in Run; returns the number of cycles taken. */
static long pair_until_run(end_t *a, end_t *b, long max) {
  long n = 0;
  while (!(a->st.r.fsm_state == ST_RUN && b->st.r.fsm_state == ST_RUN)) {
    CHECKF(n < max, "link not in Run after %ld cycles (states %u/%u)", max, a->st.r.fsm_state,
           b->st.r.fsm_state);
    pair_cycle(a, b);
    n++;
  }
  return n;
}

static void pair_init(const dslink_cfg_t *ca, const dslink_cfg_t *cb) {
  end_init(&g_a, "A", ca);
  end_init(&g_b, "B", cb);
  g_wab = NULL;
  g_wba = NULL;
}

static void check_no_errors(const end_t *e) {
  const dslink_regs_t *r = &e->st.r;
  CHECKF(r->cnt_par_err == 0 && r->cnt_esc_err == 0 && r->cnt_disc_err == 0 &&
             r->cnt_cred_err == 0 && r->cnt_proto_err == 0 && r->cnt_tmo_err == 0 &&
             r->cnt_rx_cut == 0 && r->cnt_tx_spill == 0,
         "%s: error counters par %u esc %u disc %u cred %u proto %u tmo %u cut %u spill %u", e->name,
         r->cnt_par_err, r->cnt_esc_err, r->cnt_disc_err, r->cnt_cred_err, r->cnt_proto_err,
         r->cnt_tmo_err, r->cnt_rx_cut, r->cnt_tx_spill);
}

static void check_log(const end_t *e, const uint16_t *exp, size_t n) {
  CHECKF(e->rx_n == n, "%s received %zu tokens, expected %zu", e->name, e->rx_n, n);
  for (size_t i = 0; i < n; i++)
    CHECKF(e->rxlog[i] == exp[i], "%s rx token %zu: kind %u data 0x%02x, expected kind %u data 0x%02x",
           e->name, i, TOK_KIND(e->rxlog[i]), TOK_DATA(e->rxlog[i]), TOK_KIND(exp[i]),
           TOK_DATA(exp[i]));
}

/* ---------------------------------------------------------------------------------------------- */
/* Hand-made D/S bit-stream generator (tokens -> bits with odd parity -> D/S levels).             */

#define GEN_Q 65536

typedef struct {
  uint8_t q[GEN_Q];
  size_t head, tail;
  unsigned par;          /* payload xor of the last enqueued token (§5.1 par_prev) */
  uint32_t d, s;
  unsigned period, tmr;
  int idle_null;         /* send NULLs whenever the queue runs dry */
  int hold;              /* stop toggling (disconnect) */
  unsigned long enq;     /* bits ever enqueued */
  unsigned long out;     /* bits ever presented */
  long cyc;
  long last_bit_cyc;
} gen_t;

static gen_t g_gen;

static void gen_init(gen_t *g, unsigned period) {
  memset(g, 0, sizeof *g);
  g->period = period;
  g->idle_null = 1;
  g->last_bit_cyc = -1000;
}

static void gen_bit(gen_t *g, unsigned b) {
  if (g->head == g->tail)
    g->head = g->tail = 0;
  CHECKF(g->tail < GEN_Q, "generator queue full");
  g->q[g->tail++] = (uint8_t)(b & 1u);
  g->enq++;
}

/* A token with P = !(F ^ par_prev), optionally with the parity bit inverted. */
static void gen_token(gen_t *g, int ctl, unsigned val, int bad_par) {
  unsigned f = ctl ? 1u : 0u;
  unsigned p = (!(f ^ g->par)) ? 1u : 0u;
  if (bad_par)
    p ^= 1u;
  gen_bit(g, p);
  gen_bit(g, f);
  unsigned x = 0;
  if (ctl) {
    unsigned c1 = (val >> 1) & 1u, c0 = val & 1u;
    gen_bit(g, c1);
    gen_bit(g, c0);
    x = c1 ^ c0;
  } else {
    for (unsigned i = 0; i < 8; i++) {
      unsigned b = (val >> i) & 1u;
      gen_bit(g, b);
      x ^= b;
    }
  }
  g->par = x;
}

static void gen_data(gen_t *g, unsigned v) { gen_token(g, 0, v, 0); }
static void gen_ctl(gen_t *g, unsigned code) { gen_token(g, 1, code, 0); }
static void gen_null(gen_t *g) {
  gen_ctl(g, DSLINK_CTL_ESC);
  gen_ctl(g, DSLINK_CTL_FCT);
}

/* Levels for this cycle; returns 1 if a new bit is presented. */
static int gen_tick(gen_t *g, uint32_t *d, uint32_t *s) {
  int bit_now = 0;
  if (g->tmr > 0) {
    g->tmr--;
  } else if (!g->hold) {
    if (g->head == g->tail && g->idle_null)
      gen_null(g);
    if (g->head != g->tail) {
      unsigned b = g->q[g->head++];
      if (b == g->d)
        g->s ^= 1u;
      else
        g->d = b;
      g->tmr = g->period - 1;
      g->out++;
      g->last_bit_cyc = g->cyc;
      bit_now = 1;
    }
  }
  *d = g->d;
  *s = g->s;
  g->cyc++;
  return bit_now;
}

static int single_cycle(end_t *e, gen_t *g) {
  int b = gen_tick(g, &e->in.d, &e->in.s);
  end_eval(e);
  end_clock(e);
  return b;
}

static long single_until_state(end_t *e, gen_t *g, uint32_t state, long max) {
  long n = 0;
  while (e->st.r.fsm_state != state) {
    CHECKF(n < max, "%s not in state %u after %ld cycles (state %u)", e->name, state, max,
           e->st.r.fsm_state);
    single_cycle(e, g);
    n++;
  }
  return n;
}

static void single_run(end_t *e, gen_t *g, long n) {
  for (long i = 0; i < n; i++)
    single_cycle(e, g);
}

/* Bring a single end (driven by the generator acting as a peer with RxDepth 32) to Run with full
 * credit both ways: the generator grants 4 FCTs once the end is Connecting. */
static void single_bring_up(end_t *e, gen_t *g) {
  e->in.link_en = 1;
  single_until_state(e, g, ST_CON, 1000);
  for (unsigned i = 0; i < e->cfg.tx_credit_max / 8; i++)
    gen_ctl(g, DSLINK_CTL_FCT);
  single_until_state(e, g, ST_RUN, 1000);
  long n = 0;
  while (!(e->st.r.tx_credit == e->cfg.tx_credit_max && e->st.r.rx_credit == e->cfg.rx_depth)) {
    CHECKF(n < 1000, "credit not settled: tx %u rx %u", e->st.r.tx_credit, e->st.r.rx_credit);
    CHECKF(e->st.r.fsm_state == ST_RUN, "left Run during bring-up (state %u)", e->st.r.fsm_state);
    single_cycle(e, g);
    n++;
  }
}

/* Single end E with the default configuration c, fed by the generator at a bit a cycle. */
static void single_default(dslink_cfg_t *c) {
  cfg_defaults(c);
  end_init(&g_e, "E", c);
  gen_init(&g_gen, 1);
}

/* Ends A and B back to back, both with the default configuration c. */
static void pair_default(dslink_cfg_t *c) {
  cfg_defaults(c);
  pair_init(c, c);
}

/* A configuration that differs from the defaults in the fields set (0: the default's). */
typedef struct {
  uint32_t bit_period, rx_depth, tx_credit_max, tx_depth, reset_cycles, wait_cycles;
} cfg_over_t;

static void cfg_with(dslink_cfg_t *c, const cfg_over_t *o) {
  cfg_defaults(c);
  const uint32_t v[] = {o->bit_period, o->rx_depth, o->tx_credit_max,
                        o->tx_depth,   o->reset_cycles, o->wait_cycles};
  uint32_t *f[] = {&c->bit_period, &c->rx_depth,     &c->tx_credit_max,
                   &c->tx_depth,   &c->reset_cycles, &c->wait_cycles};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
    if (v[i])
      *f[i] = v[i];
}

/* A case of a test run on several configurations, with its argument (a seed, an expected time). */
typedef struct {
  cfg_over_t o;
  long arg;
} cfg_case_t;

static void run_cfg_cases(const cfg_case_t *k, size_t n, void (*run)(const dslink_cfg_t *, long)) {
  for (size_t i = 0; i < n; i++) {
    dslink_cfg_t c;
    cfg_with(&c, &k[i].o);
    run(&c, k[i].arg);
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Counters by name.                                                                               */

enum { C_PAR, C_ESC, C_DISC, C_CRED, C_PROTO, C_TMO, C_CUT, C_SPILL, C_N };
static const char *const cnt_names[C_N] = {"cnt_par_err",  "cnt_esc_err",   "cnt_disc_err",
                                           "cnt_cred_err", "cnt_proto_err", "cnt_tmo_err",
                                           "cnt_rx_cut",   "cnt_tx_spill"};

static void cnt_snap(const dslink_regs_t *r, uint32_t c[C_N]) {
  c[C_PAR] = r->cnt_par_err;
  c[C_ESC] = r->cnt_esc_err;
  c[C_DISC] = r->cnt_disc_err;
  c[C_CRED] = r->cnt_cred_err;
  c[C_PROTO] = r->cnt_proto_err;
  c[C_TMO] = r->cnt_tmo_err;
  c[C_CUT] = r->cnt_rx_cut;
  c[C_SPILL] = r->cnt_tx_spill;
}

/* Every counter equals before[] except `which` (if >= 0), which must be before + 1; `cut` is the
 * expected cnt_rx_cut delta. */
static void cnt_expect(const end_t *e, const uint32_t before[C_N], int which, uint32_t cut_delta) {
  uint32_t now[C_N];
  cnt_snap(&e->st.r, now);
  for (int i = 0; i < C_N; i++) {
    uint32_t exp = before[i] + (i == which ? 1u : 0u) + (i == C_CUT ? cut_delta : 0u);
    CHECKF(now[i] == exp, "%s cycle %ld: %s = %u, expected %u", e->name, e->cyc, cnt_names[i],
           now[i], exp);
  }
}

/* Every L register (§3) is 0 (checked in the first ErrorReset cycle after a link reset). */
static void check_L_zero(const end_t *e) {
  const dslink_regs_t *r = &e->st.r;
  CHECKF(r->tx_credit == 0 && r->rx_credit == 0, "%s: credits %u/%u after link reset", e->name,
         r->tx_credit, r->rx_credit);
  CHECKF(r->tx_tmr == 0 && r->tx_d == 0 && r->tx_s == 0 && r->tx_sr == 0 && r->tx_len == 0 &&
             r->tx_par == 0,
         "%s: tx L registers not 0 after link reset (tmr %u d %u s %u sr %u len %u par %u)",
         e->name, r->tx_tmr, r->tx_d, r->tx_s, r->tx_sr, r->tx_len, r->tx_par);
  CHECKF(r->rx_dc == 0 && r->rx_seen == 0 && r->rx_sync == 0 && r->rx_sr == 0 && r->rx_cnt == 0 &&
             r->rx_pbit == 0 && r->rx_flag == 0 && r->rx_par == 0 && r->rx_pend_v == 0 &&
             r->rx_pend_f == 0 && r->rx_pend_val == 0 && r->rx_esc == 0,
         "%s: rx L registers not 0 after link reset", e->name);
}

/* ============================================================================================== */
/* Tests                                                                                           */
/* ============================================================================================== */

/* §1: defaults; §3: reset puts every register to 0. */
static void test_reset_and_defaults(void **state) {
  (void)state;
  dslink_cfg_t c;
  memset(&c, 0xFF, sizeof c);
  dslink_cfg_default(&c);
  assert_int_equal(c.bit_period, 1);
  assert_int_equal(c.rx_depth, 32);
  assert_int_equal(c.tx_depth, 8);
  assert_int_equal(c.tx_credit_max, 32);
  assert_int_equal(c.disconnect_cycles, 8);
  assert_int_equal(c.reset_cycles, 64);
  assert_int_equal(c.wait_cycles, 128);
  assert_int_equal(c.timeout_cycles, 128);
  end_init(&g_e, "E", &c);
#define ZERO_REG(name, c, w)                                                                          \
  CHECKF(g_e.st.r.name == 0, "register %s = %u after reset (§3: all reset to 0)", #name,          \
         (unsigned)g_e.st.r.name);
  DSLINK_REGS(ZERO_REG)
#undef ZERO_REG
  dslink_out_t o;
  memset(&o, 0xFF, sizeof o);
  dslink_outputs(&c, &g_e.st, &o);
  assert_int_equal(o.d, 0);
  assert_int_equal(o.s, 0);
  assert_int_equal(o.tx_ready, 1);
  assert_int_equal(o.rx_valid, 0);
  assert_int_equal(o.rx_data, 0);
  assert_int_equal(o.rx_kind, 0);
  assert_int_equal(o.link_state, ST_ER);
  assert_non_null(dslink_state_name(ST_RUN));
  assert_non_null(dslink_kind_name(DSLINK_KIND_ERR));
}

/* Header: eval is pure (same inputs -> same result, st untouched); §2: outputs do not depend on
 * inputs. */
static void test_eval_pure_moore(void **state) {
  (void)state;
  dslink_cfg_t c;
  pair_default(&c);
  for (int i = 0; i < 40; i++)
    end_push(&g_a, DSLINK_KIND_DATA, (unsigned)i * 7u);
  end_push(&g_a, DSLINK_KIND_EOP, 0);
  madpost_rng_t rng;
  madpost_rng_seed(&rng, 11, 0);
  for (int cyc = 0; cyc < 600; cyc++) {
    if (cyc % 7 == 3) {
      dslink_state_t copy = g_a.st;
      dslink_in_t in;
      memset(&in, 0, sizeof in);
      in.d = madpost_rng_below(&rng, 2);
      in.s = madpost_rng_below(&rng, 2);
      in.link_en = madpost_rng_below(&rng, 2);
      in.tx_valid = madpost_rng_below(&rng, 2);
      in.tx_data = madpost_rng_below(&rng, 256);
      in.tx_kind = madpost_rng_below(&rng, 4);
      in.rx_ready = madpost_rng_below(&rng, 2);
      dslink_out_t o1, o2, o3;
      dslink_next_t n1, n2;
      dslink_ev_t e1;
      memset(&o1, 0, sizeof o1);
      memset(&o2, 0, sizeof o2);
      memset(&o3, 0, sizeof o3);
      assert_int_equal(dslink_eval(&c, &g_a.st, &in, &o1, &n1, &e1), 0);
      assert_int_equal(dslink_eval(&c, &g_a.st, &in, &o2, &n2, NULL), 0);
      dslink_outputs(&c, &g_a.st, &o3);
      assert_memory_equal(&copy.r, &g_a.st.r, sizeof copy.r);
#define CMP_R(name, c, w) CHECKF(n1.r.name == n2.r.name, "eval not deterministic: next %s", #name);
      DSLINK_REGS(CMP_R)
#undef CMP_R
#define CMP_O(name, c, w)                                                                             \
  CHECKF(o1.name == o2.name && o1.name == o3.name, "output %s depends on inputs", #name);
      DSLINK_OUTPUTS(CMP_O)
#undef CMP_O
    }
    pair_cycle(&g_a, &g_b);
  }
}

/* §1: dslink_cfg_check rejects every illegal value with a message naming the field. */
typedef struct {
  const char *c_name, *rtl_name;
  size_t off;
} cfg_field_t;

static const cfg_field_t cfg_fields[] = {
    {"bit_period", "BitPeriod", offsetof(dslink_cfg_t, bit_period)},
    {"rx_depth", "RxDepth", offsetof(dslink_cfg_t, rx_depth)},
    {"tx_depth", "TxDepth", offsetof(dslink_cfg_t, tx_depth)},
    {"tx_credit_max", "TxCreditMax", offsetof(dslink_cfg_t, tx_credit_max)},
    {"disconnect_cycles", "DisconnectCycles", offsetof(dslink_cfg_t, disconnect_cycles)},
    {"reset_cycles", "ResetCycles", offsetof(dslink_cfg_t, reset_cycles)},
    {"wait_cycles", "WaitCycles", offsetof(dslink_cfg_t, wait_cycles)},
    {"timeout_cycles", "TimeoutCycles", offsetof(dslink_cfg_t, timeout_cycles)},
};

static const cfg_field_t *cfg_field(const char *name) {
  for (size_t i = 0; i < sizeof cfg_fields / sizeof cfg_fields[0]; i++)
    if (!strcmp(cfg_fields[i].c_name, name))
      return &cfg_fields[i];
  fail_msg("no field %s", name);
  return NULL;
}

static void set_field(dslink_cfg_t *c, const cfg_field_t *f, uint32_t v) {
  memcpy((char *)c + f->off, &v, sizeof v);
}

static void expect_reject(const char *field, uint32_t v) {
  dslink_cfg_t c;
  dslink_cfg_default(&c);
  const cfg_field_t *f = cfg_field(field);
  set_field(&c, f, v);
  char err[256];
  memset(err, 0, sizeof err);
  int rc = dslink_cfg_check(&c, err, sizeof err);
  CHECKF(rc == -1, "%s = %u accepted (rc %d), §1 legal range excludes it", field, v, rc);
  CHECKF(strstr(err, f->c_name) || strstr(err, f->rtl_name),
         "%s = %u rejected but the message does not name the field: \"%s\"", field, v, err);
}

static void expect_accept(dslink_cfg_t *c, const char *what) {
  char err[256] = "";
  int rc = dslink_cfg_check(c, err, sizeof err);
  CHECKF(rc == 0, "%s rejected: %s", what, err);
}

static void test_cfg_check(void **state) {
  (void)state;
  dslink_cfg_t c;
  dslink_cfg_default(&c);
  expect_accept(&c, "defaults");

  expect_reject("bit_period", 0);
  expect_reject("bit_period", 256);
  expect_reject("rx_depth", 0);
  expect_reject("rx_depth", 4);
  expect_reject("rx_depth", 7);
  expect_reject("rx_depth", 12);
  expect_reject("rx_depth", 33);
  expect_reject("rx_depth", 136);
  expect_reject("rx_depth", 256);
  expect_reject("tx_depth", 0);
  expect_reject("tx_depth", 1);
  expect_reject("tx_depth", 129);
  expect_reject("tx_depth", 256);
  expect_reject("tx_credit_max", 0);
  expect_reject("tx_credit_max", 7);
  expect_reject("tx_credit_max", 12);
  expect_reject("tx_credit_max", 136);
  expect_reject("tx_credit_max", 256);
  expect_reject("disconnect_cycles", 0);
  expect_reject("disconnect_cycles", 1);
  expect_reject("disconnect_cycles", 256);
  expect_reject("reset_cycles", 0);
  expect_reject("reset_cycles", 65536);
  expect_reject("wait_cycles", 0);
  expect_reject("wait_cycles", 65536);
  expect_reject("timeout_cycles", 0);
  expect_reject("timeout_cycles", 65536);

  /* Boundaries of the legal ranges are accepted. */
  static const struct { const char *f; uint32_t v; } ok[] = {
      {"rx_depth", 8},          {"rx_depth", 128},        {"rx_depth", 64},
      {"tx_depth", 2},          {"tx_depth", 128},        {"tx_depth", 77},
      {"tx_credit_max", 8},     {"tx_credit_max", 128},   {"disconnect_cycles", 2},
      {"disconnect_cycles", 255}, {"reset_cycles", 1},    {"reset_cycles", 65535},
      {"wait_cycles", 1},       {"wait_cycles", 65535},   {"timeout_cycles", 1},
      {"timeout_cycles", 65535}, {"bit_period", 1},
  };
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    dslink_cfg_default(&c);
    set_field(&c, cfg_field(ok[i].f), ok[i].v);
    char what[64];
    snprintf(what, sizeof what, "%s = %u", ok[i].f, ok[i].v);
    expect_accept(&c, what);
  }
  dslink_cfg_default(&c);
  c.bit_period = 254;
  c.disconnect_cycles = 255;
  expect_accept(&c, "bit_period 254, disconnect_cycles 255");
  c.bit_period = 3;
  c.disconnect_cycles = 8;
  expect_accept(&c, "bit_period 3");

  /* The message respects errlen (always NUL-terminated inside the buffer). */
  struct {
    char err[6];
    char canary[26];
  } b;
  memset(&b, 'Z', sizeof b);
  dslink_cfg_default(&c);
  c.rx_depth = 12;
  assert_int_equal(dslink_cfg_check(&c, b.err, sizeof b.err), -1);
  for (size_t i = 0; i < sizeof b.canary; i++)
    CHECKF(b.canary[i] == 'Z', "dslink_cfg_check wrote past errlen");
  CHECKF(memchr(b.err, 0, sizeof b.err) != NULL, "message not NUL-terminated within errlen");
}

/* §1: DisconnectCycles must be > the peer's BitPeriod. The C cfg describes both ends of a link
 * (the lockstep builds both with the same values), so the only BitPeriod it can compare against is
 * its own. */
static void test_cfg_disconnect_vs_bit_period(void **state) {
  (void)state;
  dslink_cfg_t c;
  dslink_cfg_default(&c);
  c.bit_period = 8;
  c.disconnect_cycles = 8;
  char err[256] = "";
  int rc = dslink_cfg_check(&c, err, sizeof err);
  CHECKF(rc == -1, "bit_period 8 with disconnect_cycles 8 accepted (§1: DisconnectCycles > BitPeriod)");
  CHECKF(strstr(err, "disconnect_cycles") || strstr(err, "DisconnectCycles") ||
             strstr(err, "bit_period") || strstr(err, "BitPeriod"),
         "message does not name the field: \"%s\"", err);
  c.bit_period = 20;
  c.disconnect_cycles = 8;
  CHECKF(dslink_cfg_check(&c, err, sizeof err) == -1, "bit_period 20 with disconnect 8 accepted");
}

/* ---------------------------------------------------------------------------------------------- */
/* Start-up (§4, §8).                                                                              */

static void startup_case(const dslink_cfg_t *c, long exp_run_cycle) {
  pair_init(c, c);
  uint32_t seen[8];
  long first[8];
  for (int i = 0; i < 8; i++) {
    seen[i] = 0;
    first[i] = -1;
  }
  uint32_t prev = ST_ER;
  long n = 0;
  /* State trace of A, checked against the table of §4 (B is symmetric and checked identical). */
  while (g_a.st.r.fsm_state != ST_RUN || g_b.st.r.fsm_state != ST_RUN) {
    CHECKF(n < 5000, "no Run after %ld cycles", n);
    uint32_t s = g_a.st.r.fsm_state;
    CHECKF(s == g_b.st.r.fsm_state, "cycle %ld: symmetric ends in different states %u/%u", n, s,
           g_b.st.r.fsm_state);
    if (first[s] < 0)
      first[s] = n;
    seen[s]++;
    CHECKF(s >= prev, "cycle %ld: state went back from %u to %u during a clean start-up", n, prev,
           s);
    /* fsm_tmr counts cycles in ErrorReset / ErrorWait / Started / Connecting; 0 in Ready. */
    uint32_t tmr = g_a.st.r.fsm_tmr;
    if (s == ST_RDY)
      CHECKF(tmr == 0, "cycle %ld: fsm_tmr %u in Ready", n, tmr);
    else
      CHECKF(tmr == (uint32_t)(n - first[s]), "cycle %ld: fsm_tmr %u in state %u, expected %ld", n,
             tmr, s, n - first[s]);
    prev = s;
    pair_cycle(&g_a, &g_b);
    n++;
  }
  CHECKF(first[ST_ER] == 0 && seen[ST_ER] == c->reset_cycles,
         "ErrorReset lasted %u cycles, ResetCycles = %u", seen[ST_ER], c->reset_cycles);
  CHECKF(first[ST_EW] == (long)c->reset_cycles && seen[ST_EW] == c->wait_cycles,
         "ErrorWait lasted %u cycles from %ld, WaitCycles = %u", seen[ST_EW], first[ST_EW],
         c->wait_cycles);
  CHECKF(seen[ST_RDY] == 1, "Ready lasted %u cycles with link_en=1 (expected 1)", seen[ST_RDY]);
  CHECKF(seen[ST_STA] >= 1 && seen[ST_CON] >= 1, "Started %u / Connecting %u cycles",
         seen[ST_STA], seen[ST_CON]);
  CHECKF(first[ST_STA] == (long)(c->reset_cycles + c->wait_cycles + 1), "Started at cycle %ld",
         first[ST_STA]);
  if (exp_run_cycle >= 0) {
    CHECKF(first[ST_CON] == exp_run_cycle - 13, "Connecting at cycle %ld, expected %ld",
           first[ST_CON], exp_run_cycle - 13);
    CHECKF(n == exp_run_cycle, "Run at cycle %ld, expected %ld", n, exp_run_cycle);
  }
  /* Run is stable and the credit settles at the peer's RxDepth (§4 credit, §5.1 fct_owed). */
  pair_run(&g_a, &g_b, 400);
  assert_int_equal(g_a.st.r.fsm_state, ST_RUN);
  assert_int_equal(g_b.st.r.fsm_state, ST_RUN);
  assert_int_equal(g_a.st.r.tx_credit, c->rx_depth);
  assert_int_equal(g_a.st.r.rx_credit, c->rx_depth);
  assert_int_equal(g_a.n_fct_sent, c->rx_depth / 8);
  assert_int_equal(g_b.n_fct_rcvd, c->rx_depth / 8);
  check_no_errors(&g_a);
  check_no_errors(&g_b);
}

static void test_startup_default(void **state) {
  (void)state;
  dslink_cfg_t c;
  cfg_defaults(&c);
  /* Derived from §4/§5 with BitPeriod 1: Started at 193, first NULL on the wire 194..201, the
   * peer's rx_sync at the edge of 201, Connecting from 203; the second NULL (loaded at 201, still
   * Started) is followed by the first FCT, loaded at 209, on the wire 210..213, confirmed by the
   * next token's P and F at 214/215 -> Run from cycle 216 ("about 215 cycles", §8). */
  startup_case(&c, 216);
}

static void test_startup_short_timers(void **state) {
  (void)state;
  static const cfg_case_t cases[] = {
      {{.reset_cycles = 10, .wait_cycles = 20}, 10 + 20 + 1 + 23}, /* arg: Run's cycle, -1: any */
      {{.reset_cycles = 1, .wait_cycles = 1, .rx_depth = 8, .tx_credit_max = 8}, -1},
      {{.rx_depth = 128, .tx_credit_max = 128, .tx_depth = 2}, -1},
      {{.bit_period = 3}, -1},
  };
  run_cfg_cases(cases, sizeof cases / sizeof cases[0], startup_case);
}

/* link_en = 0: the link stays in Ready with its lines at 0 (§2, §4). */
static void test_link_en_off_stays_ready(void **state) {
  (void)state;
  dslink_cfg_t c;
  pair_default(&c);
  g_a.in.link_en = 0;
  g_b.in.link_en = 0;
  pair_run(&g_a, &g_b, c.reset_cycles + c.wait_cycles);
  for (int i = 0; i < 3000; i++) {
    assert_int_equal(g_a.st.r.fsm_state, ST_RDY);
    assert_int_equal(g_b.st.r.fsm_state, ST_RDY);
    assert_int_equal(g_a.out.d | g_a.out.s | g_b.out.d | g_b.out.s, 0);
    pair_cycle(&g_a, &g_b);
  }
  /* Enabling one end: Ready -> Started at the next edge. */
  g_a.in.link_en = 1;
  pair_cycle(&g_a, &g_b);
  assert_int_equal(g_a.st.r.fsm_state, ST_STA);
  assert_int_equal(g_b.st.r.fsm_state, ST_RDY);
  g_b.in.link_en = 1;
  pair_until_run(&g_a, &g_b, 2000);
  check_no_errors(&g_a);
  check_no_errors(&g_b);
}

/* ---------------------------------------------------------------------------------------------- */
/* Encoding, parity, D/S rule (§5.1, §5.2, §2).                                                    */

/* The tokens A sends: fixed bytes with both bit orders' witnesses, EOP, EOM, then 400 random
   tokens and a closing EOP. Returns their count. */
static size_t encoding_stream(uint16_t *sent) {
  size_t ns = 0;
  static const uint8_t fixed[] = {0x01, 0x80, 0x35, 0xCA, 0x00, 0xFF};
  for (size_t i = 0; i < sizeof fixed; i++)
    sent[ns++] = TOK(DSLINK_KIND_DATA, fixed[i]);
  sent[ns++] = TOK(DSLINK_KIND_EOP, 0);
  sent[ns++] = TOK(DSLINK_KIND_EOM, 0);
  madpost_rng_t rng;
  madpost_rng_seed(&rng, 1, 1);
  for (int i = 0; i < 400; i++) {
    uint32_t r = madpost_rng_below(&rng, 10);
    if (r == 0)
      sent[ns++] = TOK(DSLINK_KIND_EOP, 0);
    else if (r == 1)
      sent[ns++] = TOK(DSLINK_KIND_EOM, 0);
    else
      sent[ns++] = TOK(DSLINK_KIND_DATA, madpost_rng_below(&rng, 256));
  }
  sent[ns++] = TOK(DSLINK_KIND_EOP, 0);
  return ns;
}

/* Raw bits: the first unit after reset is a NULL with P1 = 0: 0 1 1 1 0 1 0 0 (§5.1); odd parity
   over the whole stream: P ^ F ^ prev_payload_xor == 1 for every token. */
static void check_first_null_and_parity(const dec_t *dec, size_t ns) {
  static const uint8_t null0[8] = {0, 1, 1, 1, 0, 1, 0, 0};
  CHECKF(dec->nbits > 1000, "only %zu bits captured", dec->nbits);
  for (int i = 0; i < 8; i++)
    CHECKF(dec->bits[i] == null0[i], "bit %d of the first NULL is %u, expected %u", i,
           dec->bits[i], null0[i]);
  CHECKF(dec->par_bad == 0, "%zu tokens with bad parity", dec->par_bad);
  for (size_t i = 0; i < dec->ntok; i++)
    CHECKF(dec->tok[i].par_ok, "token %zu (cycle %ld) violates odd parity", i, dec->tok[i].cyc);
  CHECKF(dec->ntok > ns, "only %zu tokens", dec->ntok);
}

/* A control token's wire bits (c[1] then c[0]); sets the seen flag of its kind. */
static void check_control_bits(const tok_t *t, unsigned pay, int *seen_eop, int *seen_eom,
                               int *seen_fct, int *seen_null) {
  CHECKF(t->nbits == 4, "control token with %u bits", t->nbits);
  unsigned exp = ((unsigned)(t->val >> 1) & 1u) | (((unsigned)t->val & 1u) << 1);
  CHECKF(pay == exp, "control token %u: payload wire bits %u%u", t->val, pay & 1u,
         (pay >> 1) & 1u);
  if (t->val == DSLINK_CTL_EOP) {
    CHECKF(pay == 2u, "EOP must be sent as 0 then 1 (wire order bits %u)", pay);
    *seen_eop = 1;
  }
  if (t->val == DSLINK_CTL_EOM) {
    CHECKF(pay == 1u, "EOM must be sent as 1 then 0");
    *seen_eom = 1;
  }
  if (t->val == DSLINK_CTL_FCT) {
    CHECKF(pay == 0u, "FCT must be sent as 0 0");
    *seen_fct = 1;
  }
  if (t->val == DSLINK_CTL_ESC) {
    CHECKF(pay == 3u, "ESC must be 1 1");
    *seen_null = 1;
  }
}

/* Token bit patterns: control codes c[1] then c[0]; DATA LSB first (raw holds wire order). */
static void check_token_bits(const dec_t *dec) {
  int seen_eop = 0, seen_eom = 0, seen_fct = 0, seen_null = 0, seen01 = 0, seen80 = 0;
  for (size_t i = 0; i < dec->ntok; i++) {
    const tok_t *t = &dec->tok[i];
    unsigned pay = (unsigned)t->raw >> 2;
    if (t->ctl) {
      check_control_bits(t, pay, &seen_eop, &seen_eom, &seen_fct, &seen_null);
    } else {
      CHECKF(t->nbits == 10, "DATA token with %u bits", t->nbits);
      if (t->val == 0x01) {
        CHECKF(pay == 0x001, "0x01 must be sent 1 0 0 0 0 0 0 0 (wire bits %03x)", pay);
        seen01 = 1;
      }
      if (t->val == 0x80) {
        CHECKF(pay == 0x080, "0x80 must be sent 0 0 0 0 0 0 0 1");
        seen80 = 1;
      }
    }
  }
  CHECKF(seen_eop && seen_eom && seen_fct && seen_null && seen01 && seen80, "missing token types");
}

/* Unit sequence of A: NULL (Started), NULL (still Started when the second load happens), then
 * FCTs while fct_owed (RxDepth/8 = 4), then the normal tokens in order, NULLs only in gaps. */
static void check_unit_sequence(const unit_t *u, size_t nu, const uint16_t *sent, size_t ns,
                                uint32_t rx_depth) {
  CHECKF(nu > 10, "only %zu units", nu);
  CHECKF(u[0].kind == U_NULL && u[1].kind == U_NULL, "first units %d %d, expected NULL NULL",
         u[0].kind, u[1].kind);
  for (int i = 2; i < 6; i++)
    CHECKF(u[i].kind == U_FCT, "unit %d is %d, expected FCT", i, u[i].kind);
  size_t k = 0, nfct = 0;
  for (size_t i = 0; i < nu; i++) {
    if (u[i].kind == U_FCT) {
      nfct++;
      continue;
    }
    if (u[i].kind == U_NULL)
      continue;
    CHECKF(k < ns, "more normal tokens on the wire than sent");
    CHECKF((unsigned)u[i].kind == TOK_KIND(sent[k]) &&
               (u[i].kind != DSLINK_KIND_DATA || u[i].data == TOK_DATA(sent[k])),
           "wire normal token %zu: kind %d data 0x%02x, sent kind %u data 0x%02x", k, u[i].kind,
           u[i].data, TOK_KIND(sent[k]), TOK_DATA(sent[k]));
    k++;
  }
  CHECKF(k == ns, "%zu normal tokens on the wire, %zu sent", k, ns);
  CHECKF(nfct == rx_depth / 8, "A sent %zu FCTs (B sends nothing: only the initial %u)", nfct,
         rx_depth / 8);
}

static void test_encoding_and_parity(void **state) {
  (void)state;
  dslink_cfg_t c;
  pair_default(&c);
  dec_init(&g_deca);
  g_a.txdec = &g_deca;

  static uint16_t sent[4000];
  const size_t ns = encoding_stream(sent);
  for (size_t i = 0; i < ns; i++)
    end_push(&g_a, TOK_KIND(sent[i]), TOK_DATA(sent[i]));

  pair_until_run(&g_a, &g_b, 1000);
  long guard = 0;
  while (g_b.rx_n < ns) {
    CHECKF(guard++ < 20000, "B got only %zu of %zu tokens", g_b.rx_n, ns);
    pair_cycle(&g_a, &g_b);
  }
  pair_run(&g_a, &g_b, 100);
  check_log(&g_b, sent, ns);
  check_no_errors(&g_a);
  check_no_errors(&g_b);

  check_first_null_and_parity(&g_deca, ns);
  static unit_t u[DEC_MAXTOK];
  size_t nu = dec_units(&g_deca, u, DEC_MAXTOK);
  check_token_bits(&g_deca);
  check_unit_sequence(u, nu, sent, ns, c.rx_depth);
}

/* Exactly one of d, s changes at each bit boundary, every BitPeriod cycles while on (§2, §5.2). */
static void ds_rule_case(unsigned bp) {
  dslink_cfg_t c;
  cfg_defaults(&c);
  c.bit_period = bp;
  pair_init(&c, &c);
  for (int i = 0; i < 300; i++)
    end_push(&g_a, i % 17 == 16 ? DSLINK_KIND_EOP : DSLINK_KIND_DATA, (unsigned)(i * 37 + 5));
  for (int i = 0; i < 100; i++)
    end_push(&g_b, i % 9 == 8 ? DSLINK_KIND_EOM : DSLINK_KIND_DATA, (unsigned)(i * 11));
  uint32_t pd = 0, ps = 0;
  long started = -1;
  long changes = 0;
  for (long cyc = 0; cyc < 6000; cyc++) {
    uint32_t st = g_a.st.r.fsm_state;
    dslink_out_t o;
    dslink_outputs(&c, &g_a.st, &o);
    if (st == ST_STA && started < 0)
      started = cyc;
    if (started < 0 || cyc == started) {
      CHECKF(o.d == 0 && o.s == 0, "cycle %ld state %u: lines %u/%u before the transmitter runs",
             cyc, st, o.d, o.s);
    } else {
      CHECKF(st >= ST_STA, "A left the started states at cycle %ld (state %u)", cyc, st);
      int dch = o.d != pd, sch = o.s != ps;
      int boundary = ((cyc - (started + 1)) % (long)bp) == 0;
      CHECKF(!(dch && sch), "cycle %ld: both d and s changed", cyc);
      CHECKF((dch || sch) == boundary,
             "cycle %ld (BitPeriod %u, transmitter started at %ld): change %d, bit boundary %d",
             cyc, bp, started, dch || sch, boundary);
      changes += dch || sch;
    }
    pd = o.d;
    ps = o.s;
    pair_cycle(&g_a, &g_b);
  }
  CHECKF(g_a.st.r.fsm_state == ST_RUN, "not in Run");
  CHECKF(changes > 6000 / (long)bp - 300, "only %ld bit boundaries", changes);
  check_no_errors(&g_a);
  check_no_errors(&g_b);
}

static void test_ds_rule_bp1(void **state) {
  (void)state;
  ds_rule_case(1);
}

static void test_ds_rule_bp3(void **state) {
  (void)state;
  ds_rule_case(3);
}

/* ---------------------------------------------------------------------------------------------- */
/* Credit (§4 credit registers, §5.1 fct_owed, §6.3).                                              */

/* Initial credit after connecting equals the peer's RxDepth, with different depths at both ends. */
static void test_credit_initial_asym(void **state) {
  (void)state;
  dslink_cfg_t ca, cb;
  cfg_defaults(&ca);
  cfg_defaults(&cb);
  ca.rx_depth = 16;
  ca.tx_credit_max = 64;
  cb.rx_depth = 64;
  cb.tx_credit_max = 16;
  pair_init(&ca, &cb);
  pair_until_run(&g_a, &g_b, 1000);
  pair_run(&g_a, &g_b, 500);
  assert_int_equal(g_a.st.r.tx_credit, 64);
  assert_int_equal(g_b.st.r.tx_credit, 16);
  assert_int_equal(g_a.st.r.rx_credit, 16);
  assert_int_equal(g_b.st.r.rx_credit, 64);
  assert_int_equal(g_a.n_fct_sent, 2);
  assert_int_equal(g_b.n_fct_sent, 8);
  check_no_errors(&g_a);
  check_no_errors(&g_b);
}

/* rx_ready = 0: the sender stops after exactly RxDepth normal tokens; one FCT per 8 drained. */
static void credit_stall_case(unsigned rx_depth) {
  dslink_cfg_t c;
  cfg_defaults(&c);
  c.rx_depth = rx_depth;
  c.tx_credit_max = rx_depth;
  pair_init(&c, &c);
  const size_t total = 3 * rx_depth + 5;
  static uint16_t sent[1000];
  for (size_t i = 0; i < total; i++) {
    sent[i] = TOK(DSLINK_KIND_DATA, (unsigned)(i * 13 + 1));
    if (i % 10 == 9)
      sent[i] = TOK(DSLINK_KIND_EOP, 0);
    end_push(&g_a, TOK_KIND(sent[i]), TOK_DATA(sent[i]));
  }
  g_b.in.rx_ready = 0;
  pair_until_run(&g_a, &g_b, 1000);
  pair_run(&g_a, &g_b, 30L * rx_depth + 2000);
  assert_int_equal(g_a.n_normal_sent, rx_depth);
  assert_int_equal(g_b.st.r.rxf_cnt, rx_depth);
  assert_int_equal(g_b.st.r.rx_credit, 0);
  assert_int_equal(g_a.st.r.tx_credit, 0);
  unsigned long fct_b = g_b.n_fct_sent;
  /* Drain 7: still no room for 8 more -> no FCT (fct_owed needs rxf+rx_credit+8 <= RxDepth). */
  for (int i = 0; i < 7; i++) {
    g_b.in.rx_ready = 1;
    pair_cycle(&g_a, &g_b);
    g_b.in.rx_ready = 0;
    pair_run(&g_a, &g_b, 60);
  }
  assert_int_equal(g_b.rx_n, 7);
  assert_int_equal(g_b.n_fct_sent, fct_b);
  assert_int_equal(g_a.n_normal_sent, rx_depth);
  /* The 8th: exactly one FCT, exactly 8 more tokens. */
  g_b.in.rx_ready = 1;
  pair_cycle(&g_a, &g_b);
  g_b.in.rx_ready = 0;
  pair_run(&g_a, &g_b, 400);
  assert_int_equal(g_b.n_fct_sent, fct_b + 1);
  assert_int_equal(g_a.n_normal_sent, rx_depth + 8);
  assert_int_equal(g_b.st.r.rxf_cnt, rx_depth);
  /* Resume: everything arrives. */
  g_b.in.rx_ready = 1;
  long guard = 0;
  while (g_b.rx_n < total) {
    CHECKF(guard++ < 50000, "only %zu of %zu delivered", g_b.rx_n, total);
    pair_cycle(&g_a, &g_b);
  }
  check_log(&g_b, sent, total);
  check_no_errors(&g_a);
  check_no_errors(&g_b);
}

static void test_credit_stall_rx_ready0(void **state) {
  (void)state;
  credit_stall_case(32);
  credit_stall_case(8);
}

/* ---------------------------------------------------------------------------------------------- */
/* Traffic: back-to-back packets, long packets, random back-pressure, several configurations.     */

static void traffic_case(const dslink_cfg_t *c, long seed) {
  pair_init(c, c);
  madpost_rng_t rng;
  madpost_rng_seed(&rng, (uint64_t)seed, 7);
  static uint16_t sa[TXQ_MAX], sb[TXQ_MAX];
  size_t na = 0, nb = 0;
  /* Back-to-back short packets (including empty ones) ended by EOP and EOM alternately. */
  for (int p = 0; p < 60; p++) {
    int len = p % 6;
    for (int i = 0; i < len; i++)
      sa[na++] = TOK(DSLINK_KIND_DATA, madpost_rng_below(&rng, 256));
    sa[na++] = TOK(p & 1 ? DSLINK_KIND_EOM : DSLINK_KIND_EOP, 0);
  }
  /* A 1000-byte packet. */
  for (int i = 0; i < 1000; i++)
    sa[na++] = TOK(DSLINK_KIND_DATA, (unsigned)(i * 7 + (i >> 8)));
  sa[na++] = TOK(DSLINK_KIND_EOP, 0);
  for (int i = 0; i < 3; i++)
    sa[na++] = TOK(DSLINK_KIND_EOM, 0);
  for (int i = 0; i < 700; i++)
    sb[nb++] = i % 50 == 49 ? TOK(DSLINK_KIND_EOM, 0)
                            : TOK(DSLINK_KIND_DATA, madpost_rng_below(&rng, 256));
  sb[nb++] = TOK(DSLINK_KIND_EOP, 0);
  for (size_t i = 0; i < na; i++)
    end_push(&g_a, TOK_KIND(sa[i]), TOK_DATA(sa[i]));
  for (size_t i = 0; i < nb; i++)
    end_push(&g_b, TOK_KIND(sb[i]), TOK_DATA(sb[i]));
  pair_until_run(&g_a, &g_b, 2000);
  long guard = 0;
  while (g_b.rx_n < na || g_a.rx_n < nb) {
    CHECKF(guard++ < 400000, "stuck: B got %zu/%zu, A got %zu/%zu", g_b.rx_n, na, g_a.rx_n, nb);
    /* random back-pressure at both receivers */
    g_a.in.rx_ready = madpost_rng_chance(&rng, 2, 3);
    g_b.in.rx_ready = madpost_rng_chance(&rng, 1, 2);
    pair_cycle(&g_a, &g_b);
    CHECKF(g_a.st.r.fsm_state == ST_RUN && g_b.st.r.fsm_state == ST_RUN,
             "link dropped during clean traffic (cycle %ld)", g_a.cyc);
  }
  check_log(&g_b, sa, na);
  check_log(&g_a, sb, nb);
  check_no_errors(&g_a);
  check_no_errors(&g_b);
}

static void test_traffic_default(void **state) {
  (void)state;
  dslink_cfg_t c;
  cfg_defaults(&c);
  traffic_case(&c, 1);
}

static void test_traffic_configs(void **state) {
  (void)state;
  static const cfg_case_t cases[] = {
      {{.bit_period = 3}, 2}, /* arg: the seed */
      {{.rx_depth = 8, .tx_credit_max = 8, .tx_depth = 2}, 3},
      {{.rx_depth = 128, .tx_credit_max = 128, .tx_depth = 128}, 4},
  };
  run_cfg_cases(cases, sizeof cases / sizeof cases[0], traffic_case);
}

/* §8 latency: on an idle link a byte reaches the peer's rx_valid_o within
 * 1 (write) + 8 (NULL on the wire) + 10 (bits) + 2 (confirmation) + 1 cycles. */
static void test_latency_idle(void **state) {
  (void)state;
  dslink_cfg_t c;
  pair_default(&c);
  pair_until_run(&g_a, &g_b, 1000);
  pair_run(&g_a, &g_b, 200);
  for (int k = 0; k < 8; k++) {
    long t0 = g_a.cyc;
    end_push(&g_a, DSLINK_KIND_DATA, 0x42u + (unsigned)k);
    size_t n0 = g_b.rx_n;
    while (g_b.rx_n == n0) {
      CHECKF(g_a.cyc - t0 < 100, "byte not delivered");
      pair_cycle(&g_a, &g_b);
    }
    long lat = (g_b.cyc - 1) - t0; /* cycle in which B's rx_valid_o showed it */
    /* written at the edge of t0; loaded at a token boundary 1..8 cycles later (a NULL is 8 bits);
     * last bit at the peer 10 cycles after the load; confirmed 2 cycles later; on rx_valid_o the
     * cycle after that: 14..21 */
    CHECKF(lat >= 14 && lat <= 21, "latency %ld cycles outside the §8 budget 14..21", lat);
    CHECKF(g_b.rxlog[g_b.rx_n - 1] == TOK(0, 0x42u + (unsigned)k), "wrong byte");
    pair_run(&g_a, &g_b, 13 + k);
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Timeouts and link_en (§4).                                                                      */

static void test_timeout_started(void **state) {
  (void)state;
  dslink_cfg_t c;
  single_default(&c);
  g_gen.idle_null = 0; /* a peer that never transmits */
  single_until_state(&g_e, &g_gen, ST_STA, 1000);
  assert_int_equal(g_e.cyc, c.reset_cycles + c.wait_cycles + 1);
  long n = 0;
  while (g_e.st.r.fsm_state == ST_STA) {
    CHECKF(g_e.st.r.fsm_tmr == (uint32_t)n, "fsm_tmr %u after %ld Started cycles",
           g_e.st.r.fsm_tmr, n);
    single_cycle(&g_e, &g_gen);
    n++;
    CHECKF(n <= 10000, "never left Started");
  }
  assert_int_equal(n, c.timeout_cycles);
  assert_int_equal(g_e.st.r.fsm_state, ST_ER);
  assert_int_equal(g_e.st.r.cnt_tmo_err, 1);
  uint32_t z[C_N] = {0};
  cnt_expect(&g_e, z, C_TMO, 0);
  check_L_zero(&g_e);
  /* It restarts by itself and times out again. */
  single_until_state(&g_e, &g_gen, ST_STA, 1000);
  single_until_state(&g_e, &g_gen, ST_ER, 1000);
  assert_int_equal(g_e.st.r.cnt_tmo_err, 2);

  /* A shorter TimeoutCycles is honoured; peer with link_en=0 (a real end, never transmitting). */
  cfg_defaults(&c);
  c.timeout_cycles = 37;
  dslink_cfg_t cb;
  cfg_defaults(&cb);
  pair_init(&c, &cb);
  g_b.in.link_en = 0;
  for (n = 0; g_a.st.r.fsm_state != ST_STA; n++) {
    CHECKF(n < 1000, "A never started");
    pair_cycle(&g_a, &g_b);
  }
  n = 0;
  while (g_a.st.r.fsm_state == ST_STA) {
    pair_cycle(&g_a, &g_b);
    n++;
    CHECKF(n < 1000, "never left Started");
  }
  assert_int_equal(n, 37);
  assert_int_equal(g_a.st.r.fsm_state, ST_ER);
  assert_int_equal(g_a.st.r.cnt_tmo_err, 1);
  /* B (Ready, link_en = 0) synchronised on A's NULLs and must not have taken an error from them. */
  assert_int_equal(g_b.st.r.cnt_proto_err, 0);
  assert_int_equal(g_b.st.r.cnt_par_err, 0);
}

static void test_timeout_connecting(void **state) {
  (void)state;
  dslink_cfg_t c;
  cfg_defaults(&c);
  end_init(&g_e, "E", &c);
  gen_init(&g_gen, 1); /* a peer that sends NULLs and never an FCT */
  single_until_state(&g_e, &g_gen, ST_CON, 1000);
  /* synchronised during ErrorWait, so Started lasts one cycle (§4: rx_sync_q -> Connecting) */
  assert_int_equal(g_e.cyc, c.reset_cycles + c.wait_cycles + 2);
  long n = 0;
  while (g_e.st.r.fsm_state == ST_CON) {
    CHECKF(g_e.st.r.fsm_tmr == (uint32_t)n, "fsm_tmr %u after %ld Connecting cycles",
           g_e.st.r.fsm_tmr, n);
    single_cycle(&g_e, &g_gen);
    n++;
    CHECKF(n <= 10000, "never left Connecting");
  }
  assert_int_equal(n, c.timeout_cycles);
  assert_int_equal(g_e.st.r.fsm_state, ST_ER);
  uint32_t z[C_N] = {0};
  cnt_expect(&g_e, z, C_TMO, 0);
  /* While Connecting it sent FCTs while fct_owed: RxDepth/8 of them. */
  assert_int_equal(g_e.n_fct_sent, c.rx_depth / 8);
  check_L_zero(&g_e);
}

/* link_en fell before the last edge: e is in ErrorReset, has counted no error and holds its L
   outputs at 0. */
static void check_link_en_dropped(const end_t *e) {
  assert_int_equal(e->st.r.fsm_state, ST_ER);
  uint32_t z[C_N] = {0};
  cnt_expect(e, z, -1, 0);
  check_L_zero(e);
}

static void test_link_en_drop_started(void **state) {
  (void)state;
  dslink_cfg_t c;
  single_default(&c);
  g_gen.idle_null = 0;
  single_until_state(&g_e, &g_gen, ST_STA, 1000);
  single_run(&g_e, &g_gen, 10);
  assert_int_equal(g_e.st.r.fsm_state, ST_STA);
  g_e.in.link_en = 0;
  single_cycle(&g_e, &g_gen);
  check_link_en_dropped(&g_e);
  const uint32_t z[C_N] = {0};
  single_run(&g_e, &g_gen, c.reset_cycles + c.wait_cycles + 1000);
  assert_int_equal(g_e.st.r.fsm_state, ST_RDY);
  cnt_expect(&g_e, z, -1, 0);
}

static void test_link_en_drop_connecting(void **state) {
  (void)state;
  dslink_cfg_t c;
  single_default(&c);
  single_until_state(&g_e, &g_gen, ST_CON, 1000);
  single_run(&g_e, &g_gen, 20);
  assert_int_equal(g_e.st.r.fsm_state, ST_CON);
  g_e.in.link_en = 0;
  single_cycle(&g_e, &g_gen);
  check_link_en_dropped(&g_e);
  const uint32_t z[C_N] = {0};
  /* NULLs keep arriving: it waits in Ready (synchronised, no errors). */
  single_run(&g_e, &g_gen, c.reset_cycles + c.wait_cycles + 500);
  assert_int_equal(g_e.st.r.fsm_state, ST_RDY);
  assert_int_equal(g_e.st.r.rx_sync, 1);
  cnt_expect(&g_e, z, -1, 0);
  g_e.in.link_en = 1;
  single_cycle(&g_e, &g_gen);
  assert_int_equal(g_e.st.r.fsm_state, ST_STA);
  single_cycle(&g_e, &g_gen);
  assert_int_equal(g_e.st.r.fsm_state, ST_CON);
}

static void test_link_en_drop_run(void **state) {
  (void)state;
  dslink_cfg_t c;
  pair_default(&c);
  pair_until_run(&g_a, &g_b, 1000);
  /* A complete packet first: a later link reset must not close it again (§6.3 rx_open). */
  end_push(&g_a, DSLINK_KIND_DATA, 0x21);
  end_push(&g_a, DSLINK_KIND_DATA, 0x22);
  end_push(&g_a, DSLINK_KIND_EOM, 0);
  pair_run(&g_a, &g_b, 100);
  assert_int_equal(g_b.rx_n, 3);
  assert_int_equal(g_a.st.r.tx_open, 0);
  assert_int_equal(g_b.st.r.rx_open, 0);
  g_a.in.link_en = 0;
  pair_cycle(&g_a, &g_b);
  check_link_en_dropped(&g_a);
  /* While link_en = 0, A never starts: its lines stay 0 and it never passes Ready. */
  for (int i = 0; i < 3000; i++) {
    CHECKF(g_a.st.r.fsm_state <= ST_RDY, "A in state %u with link_en = 0", g_a.st.r.fsm_state);
    pair_cycle(&g_a, &g_b);
  }
  /* B lost its peer: it went down and keeps timing out in Started. */
  CHECKF(g_b.st.r.cnt_tmo_err >= 1, "B never timed out");
  g_a.in.link_en = 1;
  pair_until_run(&g_a, &g_b, 3000);
  end_push(&g_a, DSLINK_KIND_DATA, 0x11);
  end_push(&g_a, DSLINK_KIND_EOP, 0);
  pair_run(&g_a, &g_b, 200);
  uint16_t exp[] = {TOK(0, 0x21), TOK(0, 0x22), TOK(DSLINK_KIND_EOM, 0), TOK(DSLINK_KIND_DATA, 0x11),
                    TOK(DSLINK_KIND_EOP, 0)};
  check_log(&g_b, exp, 5);
  assert_int_equal(g_b.st.r.cnt_rx_cut, 0);
  assert_int_equal(g_a.st.r.cnt_tx_spill, 0);
}

/* ---------------------------------------------------------------------------------------------- */
/* Error paths on a single end driven by the bit-stream generator (§4, §6).                        */

enum { INJ_PAR, INJ_ESC, INJ_DISC, INJ_PROTO_FCT, INJ_PROTO_DATA, INJ_CRED_NCHAR, INJ_CRED_FCT };
static const char *const inj_names[] = {"parity", "escape", "disconnect", "FCT (protocol)",
                                        "data (protocol)", "credit (nchar)", "credit (FCT)"};

/* 1. Brings the end to the target state, synchronised on the generator's NULLs. */
static void err_reach(end_t *e, gen_t *g, uint32_t target) {
  switch (target) {
  case ST_EW:
    for (long n = 0; !(e->st.r.fsm_state == ST_EW && e->st.r.rx_sync && e->st.r.fsm_tmr >= 20);
         n++) {
      CHECKF(n < 1000, "not synchronised in ErrorWait");
      single_cycle(e, g);
    }
    break;
  case ST_RDY:
  case ST_STA:
    e->in.link_en = 0;
    single_until_state(e, g, ST_RDY, 1000);
    single_run(e, g, 30);
    break;
  case ST_CON:
    single_until_state(e, g, ST_CON, 1000);
    single_run(e, g, 10);
    break;
  case ST_RUN:
    single_bring_up(e, g);
    single_run(e, g, 50);
    break;
  }
}

/* 2. Injects the error into the generator's stream. Returns `mark`, the bit presented one cycle
 *    before the error is detected (for Started, link_en rises in that cycle so that the detection
 *    falls in the first Started cycle); sets the counter expected to count and whether a packet
 *    is cut. */
static unsigned long err_inject(end_t *e, gen_t *g, const dslink_cfg_t *c, int inj,
                                int *expect_cnt, uint32_t *cut) {
  unsigned long mark = 0;
  switch (inj) {
  case INJ_PAR: /* a NULL whose ESC has the wrong parity bit: detected at its F bit */
    *expect_cnt = C_PAR;
    mark = g->enq;
    gen_token(g, 1, DSLINK_CTL_ESC, 1);
    gen_ctl(g, DSLINK_CTL_FCT);
    break;
  case INJ_ESC: /* ESC followed by EOP: detected when the EOP is confirmed */
    *expect_cnt = C_ESC;
    gen_ctl(g, DSLINK_CTL_ESC);
    gen_ctl(g, DSLINK_CTL_EOP);
    mark = g->enq;
    gen_null(g);
    break;
  case INJ_DISC:
    *expect_cnt = C_DISC;
    g->hold = 1;
    break;
  case INJ_PROTO_FCT:
    *expect_cnt = C_PROTO;
    gen_ctl(g, DSLINK_CTL_FCT);
    mark = g->enq;
    gen_null(g);
    break;
  case INJ_PROTO_DATA:
    *expect_cnt = C_PROTO;
    gen_data(g, 0x5A);
    mark = g->enq;
    gen_null(g);
    break;
  case INJ_CRED_NCHAR: /* one more normal token than the RxDepth granted, receiver not draining */
    *expect_cnt = C_CRED;
    e->in.rx_ready = 0;
    for (unsigned i = 0; i <= c->rx_depth; i++)
      gen_data(g, i + 1);
    *cut = 1; /* the cut packet (32 DATA, no end) is closed with ERR */
    break;
  case INJ_CRED_FCT: /* TxCreditMax already granted: one more FCT */
    *expect_cnt = C_CRED;
    gen_ctl(g, DSLINK_CTL_FCT);
    gen_null(g);
    break;
  }

  return mark;
}

/* 3. Runs until ErrorReset, the state held until then. */
static void err_run_to_reset(end_t *e, gen_t *g, const dslink_cfg_t *c, uint32_t target, int inj,
                             unsigned long mark) {
  long n = 0;
  while (e->st.r.fsm_state != ST_ER) {
    CHECKF(n < 3000, "%s error in state %u: no ErrorReset after %ld cycles (state %u)",
           inj_names[inj], target, n, e->st.r.fsm_state);
    uint32_t exp_state = target;
    if (target == ST_STA)
      exp_state = e->in.link_en ? ST_STA : ST_RDY;
    CHECKF(e->st.r.fsm_state == exp_state,
           "%s error in state %u: state moved to %u before the error (cycle %ld)", inj_names[inj],
           target, e->st.r.fsm_state, e->cyc);
    uint32_t d, s;
    int b = gen_tick(g, &d, &s);
    e->in.d = d;
    e->in.s = s;
    if (target == ST_STA) {
      if (inj == INJ_DISC) {
        if (g->cyc - 1 - g->last_bit_cyc == (long)c->disconnect_cycles - 1)
          e->in.link_en = 1;
      } else if (b && g->out - 1 == mark) {
        e->in.link_en = 1;
      }
    }
    end_eval(e);
    end_clock(e);
    n++;
  }
}

/* 5. What was delivered: ev.nchar_rcvd counts accepted tokens only (include/madpost/dslink.h). */
static void err_check_delivered(end_t *e, gen_t *g, const dslink_cfg_t *c, int inj) {
  CHECKF(e->n_nchar_rcvd == (inj == INJ_CRED_NCHAR ? c->rx_depth : 0),
         "ev.nchar_rcvd counted %lu tokens", e->n_nchar_rcvd);
  if (inj == INJ_CRED_NCHAR) {
    /* What was received before the error is still delivered, then the ERR marker (§6.3, §7). */
    assert_int_equal(e->st.r.rxf_cnt, c->rx_depth + 1);
    e->in.rx_ready = 1;
    single_run(e, g, 100);
    CHECKF(e->rx_n == c->rx_depth + 1, "delivered %zu tokens", e->rx_n);
    for (unsigned i = 0; i < c->rx_depth; i++)
      CHECKF(e->rxlog[i] == TOK(DSLINK_KIND_DATA, i + 1), "token %u wrong", i);
    CHECKF(e->rxlog[c->rx_depth] == TOK(DSLINK_KIND_ERR, 0), "last token not ERR");
  } else {
    CHECKF(e->rx_n == 0 && e->st.r.rxf_cnt == 0, "%s: %zu tokens delivered", inj_names[inj],
           e->rx_n);
  }
}

static void err_scenario(uint32_t target, int inj) {
  dslink_cfg_t c;
  cfg_defaults(&c);
  end_t *e = &g_e;
  gen_t *g = &g_gen;
  end_init(e, "E", &c);
  gen_init(g, 1);

  err_reach(e, g, target);
  assert_int_equal(e->st.r.fsm_state, target == ST_STA ? ST_RDY : target);
  assert_int_equal(e->st.r.rx_sync, 1);
  uint32_t before[C_N];
  cnt_snap(&e->st.r, before);
  int expect_cnt = -1;
  uint32_t cut = 0;
  const unsigned long mark = err_inject(e, g, &c, inj, &expect_cnt, &cut);
  err_run_to_reset(e, g, &c, target, inj, mark);

  /* 4. Entered from the target state, the right counter counted, held while in ErrorReset. */
  CHECKF(e->state_before_er == target, "%s error: ErrorReset entered from state %u, expected %u",
         inj_names[inj], e->state_before_er, target);
  if (inj == INJ_DISC) {
    /* §6.1: the DisconnectCycles-th cycle in a row without a bit; ErrorReset the cycle after. */
    CHECKF(e->cyc - g->last_bit_cyc == (long)c.disconnect_cycles + 1,
           "disconnect: last bit at cycle %ld, ErrorReset at %ld (DisconnectCycles %u)",
           g->last_bit_cyc, e->cyc, c.disconnect_cycles);
  }
  cnt_expect(e, before, expect_cnt, cut);
  check_L_zero(e);
  single_run(e, g, 20);
  assert_int_equal(e->st.r.fsm_state, ST_ER);
  cnt_expect(e, before, expect_cnt, cut);
  err_check_delivered(e, g, &c, inj);
}

#define ERR_TEST(stn, st, inj)                                                                     \
  static void test_err_##stn##_##inj(void **state) {                                               \
    (void)state;                                                                                   \
    err_scenario(st, INJ_##inj);                                                                   \
  }
ERR_TEST(errorwait, ST_EW, PAR)
ERR_TEST(errorwait, ST_EW, ESC)
ERR_TEST(errorwait, ST_EW, DISC)
ERR_TEST(errorwait, ST_EW, PROTO_FCT)
ERR_TEST(errorwait, ST_EW, PROTO_DATA)
ERR_TEST(ready, ST_RDY, PAR)
ERR_TEST(ready, ST_RDY, ESC)
ERR_TEST(ready, ST_RDY, DISC)
ERR_TEST(ready, ST_RDY, PROTO_FCT)
ERR_TEST(ready, ST_RDY, PROTO_DATA)
ERR_TEST(started, ST_STA, PAR)
ERR_TEST(started, ST_STA, ESC)
ERR_TEST(started, ST_STA, DISC)
ERR_TEST(started, ST_STA, PROTO_FCT)
ERR_TEST(started, ST_STA, PROTO_DATA)
ERR_TEST(connecting, ST_CON, PAR)
ERR_TEST(connecting, ST_CON, ESC)
ERR_TEST(connecting, ST_CON, DISC)
ERR_TEST(connecting, ST_CON, PROTO_DATA)
ERR_TEST(run, ST_RUN, PAR)
ERR_TEST(run, ST_RUN, ESC)
ERR_TEST(run, ST_RUN, DISC)
ERR_TEST(run, ST_RUN, CRED_NCHAR)
ERR_TEST(run, ST_RUN, CRED_FCT)

/* Started with rx_sync: the first matching row is Connecting (no error), and Connecting with an
 * FCT goes to Run (§4). Also: the generator, as a peer, gets exactly RxDepth/8 FCTs. */
static void test_fsm_connecting_to_run(void **state) {
  (void)state;
  dslink_cfg_t c;
  cfg_defaults(&c);
  end_init(&g_e, "E", &c);
  dec_init(&g_deca);
  g_e.txdec = &g_deca;
  gen_init(&g_gen, 1);
  single_until_state(&g_e, &g_gen, ST_STA, 1000);
  single_cycle(&g_e, &g_gen);
  assert_int_equal(g_e.st.r.fsm_state, ST_CON);
  gen_ctl(&g_gen, DSLINK_CTL_FCT);
  long n = single_until_state(&g_e, &g_gen, ST_RUN, 100);
  (void)n;
  assert_int_equal(g_e.st.r.tx_credit, 8);
  single_run(&g_e, &g_gen, 200);
  assert_int_equal(g_e.st.r.fsm_state, ST_RUN);
  assert_int_equal(g_e.st.r.rx_credit, c.rx_depth);
  assert_int_equal(g_e.n_fct_sent, c.rx_depth / 8);
  /* The end can send 8 tokens on that one FCT, and no more. */
  for (int i = 0; i < 20; i++)
    end_push(&g_e, DSLINK_KIND_DATA, (unsigned)i);
  single_run(&g_e, &g_gen, 400);
  assert_int_equal(g_e.n_normal_sent, 8);
  assert_int_equal(g_e.st.r.tx_credit, 0);
  gen_ctl(&g_gen, DSLINK_CTL_FCT);
  single_run(&g_e, &g_gen, 400);
  assert_int_equal(g_e.n_normal_sent, 16);
  uint32_t z[C_N] = {0};
  cnt_expect(&g_e, z, -1, 0);
}

/* §6.1: synchronisation needs the exact NULL bit pattern 0 1 1 1 0 1 0 0 (0x2E); before it, bits
 * produce no token events (so no protocol or parity error), and Started times out without it. */
static void test_sync_needs_exact_null(void **state) {
  (void)state;
  dslink_cfg_t c;
  single_default(&c);
  g_gen.idle_null = 0;
  /* 0 1 1 1 0 1 1 0 repeated: no 8-bit window equals 0 1 1 1 0 1 0 0, though 6 bits do match. */
  static const uint8_t pat[8] = {0, 1, 1, 1, 0, 1, 1, 0};
  for (int i = 0; i < 8 * 300; i++)
    gen_bit(&g_gen, pat[i % 8]);
  single_until_state(&g_e, &g_gen, ST_STA, 1000);
  CHECKF(g_e.st.r.rx_sync == 0, "synchronised on a stream without a NULL");
  long n = 0;
  while (g_e.st.r.fsm_state == ST_STA) {
    CHECKF(g_e.st.r.rx_sync == 0, "synchronised on a stream without a NULL");
    single_cycle(&g_e, &g_gen);
    CHECKF(++n <= 1000, "never left Started");
  }
  assert_int_equal(n, c.timeout_cycles);
  uint32_t z[C_N] = {0};
  cnt_expect(&g_e, z, C_TMO, 0);
  /* Now a real NULL after the garbage: found anywhere in the stream, not only at byte borders. */
  end_init(&g_e, "E", &c);
  gen_init(&g_gen, 1);
  g_gen.idle_null = 0;
  g_e.in.link_en = 0;
  for (int i = 0; i < 8 * 30 + 3; i++)
    gen_bit(&g_gen, pat[i % 8]);
  gen_null(&g_gen);
  g_gen.idle_null = 1;
  single_until_state(&g_e, &g_gen, ST_EW, 1000);
  long t = 0;
  while (!g_e.st.r.rx_sync) {
    CHECKF(++t < 1000, "never synchronised");
    single_cycle(&g_e, &g_gen);
  }
  /* synchronised exactly when the 8th bit of the NULL arrived: gen presented it last cycle */
  CHECKF(g_gen.out == 8 * 30 + 3 + 8, "synchronised after %lu bits, expected %d", g_gen.out,
         8 * 30 + 3 + 8);
  single_run(&g_e, &g_gen, 300);
  assert_int_equal(g_e.st.r.fsm_state, ST_RDY);
  cnt_expect(&g_e, z, -1, 0);
}

/* Disconnect boundary (§6.1): a gap of exactly DisconnectCycles cycles between bits is fine, one
 * more cycle is a disconnect. */
static void test_disconnect_boundary(void **state) {
  (void)state;
  dslink_cfg_t c;
  single_default(&c);
  single_bring_up(&g_e, &g_gen);
  g_gen.period = c.disconnect_cycles; /* bits every 8 cycles: 7 cycles without a bit between */
  single_run(&g_e, &g_gen, 3000);
  assert_int_equal(g_e.st.r.fsm_state, ST_RUN);
  uint32_t z[C_N] = {0};
  cnt_expect(&g_e, z, -1, 0);
  g_gen.period = c.disconnect_cycles + 1;
  long n = 0;
  while (g_e.st.r.fsm_state == ST_RUN) {
    single_cycle(&g_e, &g_gen);
    CHECKF(++n < 100, "no disconnect with a gap of DisconnectCycles cycles");
  }
  assert_int_equal(g_e.st.r.fsm_state, ST_ER);
  cnt_expect(&g_e, z, C_DISC, 0);
}

/* Bad parity on a DATA token in the middle of a packet (§6.1, §6.3): the bytes before it are
 * delivered, the damaged one is not, the packet is closed with ERR. */
static void test_parity_error_data_closes_packet(void **state) {
  (void)state;
  dslink_cfg_t c;
  single_default(&c);
  single_bring_up(&g_e, &g_gen);
  uint32_t before[C_N];
  cnt_snap(&g_e.st.r, before);
  for (unsigned i = 0; i < 5; i++)
    gen_data(&g_gen, 0x10 + i);
  gen_token(&g_gen, 0, 0x77, 1);
  gen_data(&g_gen, 0x20);
  single_until_state(&g_e, &g_gen, ST_ER, 500);
  assert_int_equal(g_e.state_before_er, ST_RUN);
  cnt_expect(&g_e, before, C_PAR, 1);
  single_run(&g_e, &g_gen, 20);
  /* The bad P belongs to the token after 0x14 and covers 0x14's payload: 0x14 is dropped too. */
  uint16_t exp[5];
  for (unsigned i = 0; i < 4; i++)
    exp[i] = TOK(DSLINK_KIND_DATA, 0x10 + i);
  exp[4] = TOK(DSLINK_KIND_ERR, 0);
  check_log(&g_e, exp, 5);
}

/* §6.1 case 1: on a parity error the pending token is dropped, so it raises no event of its own:
 * only cnt_par_err counts. */
static void par_pending_case(uint32_t target, int what) {
  dslink_cfg_t c;
  single_default(&c);
  if (target == ST_RUN) {
    single_bring_up(&g_e, &g_gen); /* tx_credit == TxCreditMax */
  } else {
    single_until_state(&g_e, &g_gen, ST_CON, 1000);
  }
  single_run(&g_e, &g_gen, 10);
  uint32_t before[C_N];
  cnt_snap(&g_e.st.r, before);
  switch (what) {
  case 0: /* an FCT beyond TxCreditMax (Run) or a DATA (Connecting) */
    if (target == ST_RUN)
      gen_ctl(&g_gen, DSLINK_CTL_FCT);
    else
      gen_data(&g_gen, 0x99);
    break;
  case 1: /* ESC followed by EOP: the EOP would be an escape error */
    gen_ctl(&g_gen, DSLINK_CTL_ESC);
    gen_ctl(&g_gen, DSLINK_CTL_EOP);
    break;
  }
  gen_token(&g_gen, 1, DSLINK_CTL_ESC, 1); /* its confirming P bit is wrong */
  gen_ctl(&g_gen, DSLINK_CTL_FCT);
  single_until_state(&g_e, &g_gen, ST_ER, 200);
  assert_int_equal(g_e.state_before_er, target);
  cnt_expect(&g_e, before, C_PAR, 0);
  assert_int_equal(g_e.rx_n + g_e.st.r.rxf_cnt, 0);
}

static void test_par_err_drops_pending(void **state) {
  (void)state;
  par_pending_case(ST_RUN, 0);
  par_pending_case(ST_CON, 0);
  par_pending_case(ST_RUN, 1);
  par_pending_case(ST_CON, 1);
}

/* A token is acted on only once the next token's P and F confirm it (§6.1 Choice): a DATA whose
 * following token has not arrived yet is not delivered and costs no credit. */
static void test_confirmation_delay(void **state) {
  (void)state;
  dslink_cfg_t c;
  single_default(&c);
  single_bring_up(&g_e, &g_gen);
  /* Let the current NULL finish, then one DATA and stop. */
  for (int i = 0; g_gen.head != g_gen.tail; i++) {
    CHECKF(i < 20, "generator queue does not drain");
    single_cycle(&g_e, &g_gen);
  }
  g_gen.idle_null = 0;
  gen_data(&g_gen, 0xA7);
  single_run(&g_e, &g_gen, 11); /* all 10 bits presented, one idle cycle */
  CHECKF(g_gen.head == g_gen.tail, "DATA not fully sent");
  assert_int_equal(g_e.st.r.rxf_cnt, 0);
  assert_int_equal(g_e.st.r.rx_credit, c.rx_depth);
  assert_int_equal(g_e.st.r.rx_pend_v, 1);
  assert_int_equal(g_e.st.r.rx_pend_val, 0xA7);
  /* P of the next token: still nothing; F: confirmed; visible the cycle after. */
  gen_null(&g_gen);
  g_gen.idle_null = 1;
  single_cycle(&g_e, &g_gen); /* P */
  assert_int_equal(g_e.st.r.rxf_cnt, 0);
  single_cycle(&g_e, &g_gen); /* F: confirmed at this edge */
  assert_int_equal(g_e.st.r.rxf_cnt, 1);
  assert_int_equal(g_e.st.r.rx_credit, c.rx_depth - 1);
  single_cycle(&g_e, &g_gen);
  CHECKF(g_e.rx_n == 1 && g_e.rxlog[0] == TOK(DSLINK_KIND_DATA, 0xA7), "byte not delivered");
}

/* ---------------------------------------------------------------------------------------------- */
/* Packet cut, abort, parity hold (pair).                                                          */

static void test_packet_cut(void **state) {
  (void)state;
  dslink_cfg_t c;
  pair_default(&c);
  static wire_t wab;
  wire_init(&wab);
  g_wab = &wab;
  static uint16_t p1[400];
  const size_t n1 = 300;
  for (size_t i = 0; i < n1; i++) {
    p1[i] = TOK(DSLINK_KIND_DATA, (unsigned)(i * 5 + 3));
    end_push(&g_a, DSLINK_KIND_DATA, TOK_DATA(p1[i]));
  }
  end_push(&g_a, DSLINK_KIND_EOM, 0); /* the spill ends at an EOM as well as at an EOP (§5.3) */
  static const uint8_t p2[] = {0xDE, 0xAD, 0xBE, 0xEF, 0x01, 0x02, 0x03};
  for (size_t i = 0; i < sizeof p2; i++)
    end_push(&g_a, DSLINK_KIND_DATA, p2[i]);
  end_push(&g_a, DSLINK_KIND_EOP, 0);

  pair_until_run(&g_a, &g_b, 1000);
  for (int i = 0; g_b.rx_n < 100; i++) {
    CHECKF(i < 3000, "B received only %zu bytes", g_b.rx_n);
    pair_cycle(&g_a, &g_b);
  }
  /* Cut A -> B: B's inputs freeze. */
  wab.mode = W_FREEZE;
  long guard = 0;
  while (!(g_a.st.r.fsm_state == ST_ER && g_b.st.r.fsm_state == ST_ER)) {
    CHECKF(guard++ < 200, "ends did not both go down after the cut (%u/%u)", g_a.st.r.fsm_state,
           g_b.st.r.fsm_state);
    pair_cycle(&g_a, &g_b);
  }
  assert_int_equal(g_b.state_before_er, ST_RUN);
  assert_int_equal(g_a.state_before_er, ST_RUN);
  assert_int_equal(g_b.st.r.cnt_disc_err, 1);
  /* §5.3: the spill pops the head every cycle in any state, so A's FIFO keeps draining while the
   * link is down (one pop per cycle during ErrorReset). */
  CHECKF(g_a.st.r.tx_spill == 1, "A not spilling after the cut");
  size_t h0 = g_a.txq_head;
  pair_run(&g_a, &g_b, 40);
  CHECKF(g_a.st.r.fsm_state == ST_ER, "A left ErrorReset early");
  CHECKF(g_a.txq_head - h0 >= 38, "only %zu tokens taken by A in 40 cycles of spill",
         g_a.txq_head - h0);
  wab.mode = W_PASS; /* repaired while both are in ErrorReset (A's lines are 0/0) */
  pair_until_run(&g_a, &g_b, 2000);
  guard = 0;
  while (end_txq_left(&g_a) || g_a.st.r.txf_cnt || g_b.st.r.rxf_cnt ||
         g_b.rx_n == 0 || TOK_KIND(g_b.rxlog[g_b.rx_n - 1]) != DSLINK_KIND_EOP) {
    CHECKF(guard++ < 5000, "second packet not delivered");
    pair_cycle(&g_a, &g_b);
  }
  pair_run(&g_a, &g_b, 200);
  assert_int_equal(g_b.st.r.cnt_rx_cut, 1);
  assert_int_equal(g_a.st.r.cnt_tx_spill, 1);
  assert_int_equal(g_a.st.r.cnt_rx_cut, 0);
  assert_int_equal(g_b.st.r.cnt_tx_spill, 0);
  assert_int_equal(g_a.st.r.tx_spill, 0);
  /* B's log: a prefix of packet 1, ERR, packet 2 intact. */
  size_t k = 0;
  while (k < g_b.rx_n && TOK_KIND(g_b.rxlog[k]) == DSLINK_KIND_DATA)
    k++;
  CHECKF(k >= 100 && k < n1, "prefix of %zu bytes", k);
  for (size_t i = 0; i < k; i++)
    CHECKF(g_b.rxlog[i] == p1[i], "byte %zu of the cut packet wrong", i);
  CHECKF(g_b.rx_n == k + 1 + sizeof p2 + 1, "B received %zu tokens, expected %zu", g_b.rx_n,
         k + 1 + sizeof p2 + 1);
  CHECKF(g_b.rxlog[k] == TOK(DSLINK_KIND_ERR, 0), "token after the prefix is not ERR");
  for (size_t i = 0; i < sizeof p2; i++)
    CHECKF(g_b.rxlog[k + 1 + i] == TOK(DSLINK_KIND_DATA, p2[i]),
           "packet 2 byte %zu: got kind %u 0x%02x", i, TOK_KIND(g_b.rxlog[k + 1 + i]),
           TOK_DATA(g_b.rxlog[k + 1 + i]));
  CHECKF(g_b.rxlog[k + 1 + sizeof p2] == TOK(DSLINK_KIND_EOP, 0), "packet 2 not ended by EOP");
  g_wab = NULL;
}

/* §5.4: ERR written on tx takes the link down; the peer closes its open packet with ERR. */
static void test_abort(void **state) {
  (void)state;
  dslink_cfg_t c;
  pair_default(&c);
  pair_until_run(&g_a, &g_b, 1000);
  pair_run(&g_a, &g_b, 100);
  for (unsigned i = 0; i < 5; i++)
    end_push(&g_a, DSLINK_KIND_DATA, 0x30 + i);
  end_push(&g_a, DSLINK_KIND_ERR, 0);
  end_push(&g_a, DSLINK_KIND_DATA, 0x61);
  end_push(&g_a, DSLINK_KIND_DATA, 0x62);
  end_push(&g_a, DSLINK_KIND_DATA, 0x63);
  end_push(&g_a, DSLINK_KIND_EOP, 0);
  long guard = 0;
  while (g_a.st.r.fsm_state == ST_RUN) {
    CHECKF(guard++ < 500, "ERR at the head did not take the link down");
    pair_cycle(&g_a, &g_b);
  }
  assert_int_equal(g_a.st.r.fsm_state, ST_ER);
  assert_int_equal(g_a.n_normal_sent, 5);
  assert_int_equal(g_a.st.r.tx_open, 0);
  assert_int_equal(g_a.st.r.tx_spill, 0);
  /* The ERR was popped; the next packet waits in the FIFO. */
  assert_int_equal(g_a.st.r.txf_cnt + end_txq_left(&g_a), 4);
  pair_until_run(&g_a, &g_b, 3000);
  pair_run(&g_a, &g_b, 300);
  assert_int_equal(g_a.st.r.cnt_tx_spill, 0);
  assert_int_equal(g_b.st.r.cnt_rx_cut, 1);
  uint32_t z[C_N] = {0};
  cnt_expect(&g_a, z, -1, 0); /* an abort is not an error of A's */
  /* The 5th byte is never confirmed (A's lines stop right after its last bit, and A owes no FCT),
   * so B has bytes 1..4, ERR, then the next packet. */
  uint16_t exp[] = {TOK(0, 0x30), TOK(0, 0x31), TOK(0, 0x32), TOK(0, 0x33), TOK(DSLINK_KIND_ERR, 0),
                    TOK(0, 0x61), TOK(0, 0x62), TOK(0, 0x63), TOK(DSLINK_KIND_EOP, 0)};
  check_log(&g_b, exp, sizeof exp / sizeof exp[0]);
}

/* §6.1 Choice: a token with a flipped payload bit is never delivered. */
static void test_parity_hold_flipped_bit(void **state) {
  (void)state;
  dslink_cfg_t c;
  pair_default(&c);
  static wire_t wab;
  wire_init(&wab);
  dec_init(&g_decb);
  wab.mode = W_FLIP;
  wab.dec = &g_decb;
  wab.flip_ndata = 20; /* the 21st DATA token on the wire */
  wab.flip_bit = 3;
  g_wab = &wab;
  static uint16_t p1[64];
  for (unsigned i = 0; i < 60; i++) {
    /* bit 3 is always 0 in these bytes, so the damaged value (bit 3 set) is in no good byte */
    p1[i] = TOK(0, (i & 7u) | ((i & 0x38u) << 1));
    end_push(&g_a, DSLINK_KIND_DATA, TOK_DATA(p1[i]));
  }
  end_push(&g_a, DSLINK_KIND_ERR, 0); /* the spill also ends at an ERR (§5.3), without an abort */
  for (unsigned i = 0; i < 4; i++)
    end_push(&g_a, DSLINK_KIND_DATA, 0xC0 + i);
  end_push(&g_a, DSLINK_KIND_EOP, 0);
  pair_until_run(&g_a, &g_b, 1000);
  long guard = 0;
  while (!wab.flipped) {
    CHECKF(guard++ < 3000, "flip point never reached");
    pair_cycle(&g_a, &g_b);
  }
  guard = 0;
  while (g_b.st.r.fsm_state != ST_ER) {
    CHECKF(guard++ < 50, "receiver did not detect the flipped bit");
    pair_cycle(&g_a, &g_b);
  }
  assert_int_equal(g_b.state_before_er, ST_RUN);
  assert_int_equal(g_b.st.r.cnt_par_err, 1);
  wab.mode = W_PASS; /* B is in ErrorReset: the switch back to the raw lines is not observed */
  pair_until_run(&g_a, &g_b, 3000);
  guard = 0;
  while (end_txq_left(&g_a) || g_a.st.r.txf_cnt || g_b.st.r.rxf_cnt || g_b.rx_n == 0 ||
         TOK_KIND(g_b.rxlog[g_b.rx_n - 1]) != DSLINK_KIND_EOP) {
    CHECKF(guard++ < 5000, "second packet not delivered");
    pair_cycle(&g_a, &g_b);
  }
  pair_run(&g_a, &g_b, 100);
  /* B: the 20 bytes before the damaged one, ERR, then the next packet; never the damaged byte. */
  uint16_t exp[20 + 1 + 5];
  size_t n = 0;
  for (unsigned i = 0; i < 20; i++)
    exp[n++] = p1[i];
  exp[n++] = TOK(DSLINK_KIND_ERR, 0);
  for (unsigned i = 0; i < 4; i++)
    exp[n++] = TOK(0, 0xC0 + i);
  exp[n++] = TOK(DSLINK_KIND_EOP, 0);
  for (size_t i = 0; i < g_b.rx_n; i++)
    CHECKF(!(TOK_KIND(g_b.rxlog[i]) == 0 && (TOK_DATA(g_b.rxlog[i]) & 0x08u)),
           "damaged byte 0x%02x delivered at %zu", TOK_DATA(g_b.rxlog[i]), i);
  check_log(&g_b, exp, n);
  assert_int_equal(g_b.st.r.cnt_rx_cut, 1);
  assert_int_equal(g_a.st.r.cnt_tx_spill, 1);
  assert_int_equal(g_a.st.r.tx_spill, 0);
  /* One link-down episode at each end: the ERR ending packet 1 was spilled, not aborted. */
  CHECKF(g_a.n_link_rst > 0 && g_a.st.r.fsm_state == ST_RUN, "A not back in Run");
  g_wab = NULL;
}

/* ---------------------------------------------------------------------------------------------- */

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reset_and_defaults),
      cmocka_unit_test(test_eval_pure_moore),
      cmocka_unit_test(test_cfg_check),
      cmocka_unit_test(test_cfg_disconnect_vs_bit_period),
      cmocka_unit_test(test_startup_default),
      cmocka_unit_test(test_startup_short_timers),
      cmocka_unit_test(test_link_en_off_stays_ready),
      cmocka_unit_test(test_encoding_and_parity),
      cmocka_unit_test(test_ds_rule_bp1),
      cmocka_unit_test(test_ds_rule_bp3),
      cmocka_unit_test(test_credit_initial_asym),
      cmocka_unit_test(test_credit_stall_rx_ready0),
      cmocka_unit_test(test_traffic_default),
      cmocka_unit_test(test_traffic_configs),
      cmocka_unit_test(test_latency_idle),
      cmocka_unit_test(test_timeout_started),
      cmocka_unit_test(test_timeout_connecting),
      cmocka_unit_test(test_link_en_drop_started),
      cmocka_unit_test(test_link_en_drop_connecting),
      cmocka_unit_test(test_link_en_drop_run),
      cmocka_unit_test(test_fsm_connecting_to_run),
      cmocka_unit_test(test_err_errorwait_PAR),
      cmocka_unit_test(test_err_errorwait_ESC),
      cmocka_unit_test(test_err_errorwait_DISC),
      cmocka_unit_test(test_err_errorwait_PROTO_FCT),
      cmocka_unit_test(test_err_errorwait_PROTO_DATA),
      cmocka_unit_test(test_err_ready_PAR),
      cmocka_unit_test(test_err_ready_ESC),
      cmocka_unit_test(test_err_ready_DISC),
      cmocka_unit_test(test_err_ready_PROTO_FCT),
      cmocka_unit_test(test_err_ready_PROTO_DATA),
      cmocka_unit_test(test_err_started_PAR),
      cmocka_unit_test(test_err_started_ESC),
      cmocka_unit_test(test_err_started_DISC),
      cmocka_unit_test(test_err_started_PROTO_FCT),
      cmocka_unit_test(test_err_started_PROTO_DATA),
      cmocka_unit_test(test_err_connecting_PAR),
      cmocka_unit_test(test_err_connecting_ESC),
      cmocka_unit_test(test_err_connecting_DISC),
      cmocka_unit_test(test_err_connecting_PROTO_DATA),
      cmocka_unit_test(test_err_run_PAR),
      cmocka_unit_test(test_err_run_ESC),
      cmocka_unit_test(test_err_run_DISC),
      cmocka_unit_test(test_err_run_CRED_NCHAR),
      cmocka_unit_test(test_err_run_CRED_FCT),
      cmocka_unit_test(test_disconnect_boundary),
      cmocka_unit_test(test_sync_needs_exact_null),
      cmocka_unit_test(test_parity_error_data_closes_packet),
      cmocka_unit_test(test_confirmation_delay),
      cmocka_unit_test(test_par_err_drops_pending),
      cmocka_unit_test(test_packet_cut),
      cmocka_unit_test(test_abort),
      cmocka_unit_test(test_parity_hold_flipped_bit),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
