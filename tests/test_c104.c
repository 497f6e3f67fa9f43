/* cmocka unit tests for the C104 switch model (docs/c104.md §1-§15, include/madpost/c104.h).
 *
 * Written from the design document: every expectation cites the section it comes from, and the
 * cycle numbers are worked out by hand from the rules of §9-§10 (and, for the bit-level path, from
 * docs/dslink.md §8 and docs/c104.md §18). The model is driven through its public API only.
 *
 * Harness:
 *   sw_t     one switch with a token-level peer per token port (§14: a FIFO of tokens offered
 *            from a given cycle, a per-port tx_ready, a log of what left), optional DS-Link peers
 *            (the dslink C model) on bit-level ports, and looped-back bit-level ports (§11.3).
 *            After every clock the state invariants of §10 are checked (age matrix a strict order
 *            of the waiting slices, ownership consistent with the slices in EMIT/FWD).
 *   ref_*    an independent packet-level reference of §9-§12 for the random scoreboard test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <madpost/c104.h>
#include <madpost/dslink.h>
#include <madpost/madpost_rng.h>

#include "check.h"

enum { K_DATA = 0, K_EOP = 1, K_EOM = 2, K_ERR = 3 };
#define TK(kind, data) ((uint16_t)(((unsigned)(kind) << 8) | ((unsigned)(data)&0xFFu)))
#define TKIND(t) ((unsigned)(t) >> 8)
#define TDATA(t) ((unsigned)(t)&0xFFu)
#define D(x) TK(K_DATA, (x))
#define EOP TK(K_EOP, 0)
#define EOM TK(K_EOM, 0)
#define ERR TK(K_ERR, 0)

#define ALL_TOK 0xFFFFFFFFu

/* ---------------------------------------------------------------------------------------------- */
/* Harness                                                                                        */

enum { QMAX = 4096, LMAX = 8192, PQMAX = 4096 };

typedef struct {
  uint16_t tok;
  long at; /* first cycle it may be offered */
} qent_t;

typedef struct {
  uint16_t tok;
  long cyc;
} lent_t;

/* A DS-Link peer on a bit-level port: the dslink C model with a user-side queue and log. */
typedef struct {
  dslink_state_t st;
  dslink_next_t nx;
  dslink_out_t out;
  dslink_ev_t ev;
  uint16_t txq[PQMAX];
  size_t txh, txn;
  lent_t rx[PQMAX];
  size_t rxn;
  long loads[PQMAX]; /* cycles in which a normal token was loaded onto the wire */
  size_t nloads;
} peer_t;

typedef struct sw sw_t;
struct sw {
  c104_cfg_t cfg;
  c104_state_t st;
  c104_next_t nx;
  c104_in_t in;
  c104_out_t out;
  long cyc;
  /* token-port peers */
  qent_t q[C104_PORTS][QMAX];
  size_t qh[C104_PORTS], qn[C104_PORTS];
  long popped[C104_PORTS][QMAX];
  lent_t log[C104_PORTS][LMAX];
  size_t ln[C104_PORTS];
  uint8_t ready[C104_PORTS];
  uint32_t (*ready_fn)(sw_t *w, uint32_t p); /* overrides ready[] when set */
  madpost_rng_t rng;
  /* bit-level ports */
  peer_t *peer[C104_PORTS];
  uint8_t loop[C104_PORTS];
  int no_invariants;
};

static sw_t *sw_new(uint32_t tok_ports) {
  sw_t *w = calloc(1, sizeof *w);
  assert_non_null(w);
  c104_cfg_default(&w->cfg);
  w->cfg.tok_ports = tok_ports;
  char err[200] = "";
  CHECKF(c104_cfg_check(&w->cfg, err, sizeof err) == 0, "cfg rejected: %s", err);
  memset(&w->st, 0xA5, sizeof w->st); /* reset must set every register */
  c104_reset(&w->cfg, &w->st);
  for (uint32_t p = 0; p < C104_PORTS; p++) {
    w->ready[p] = 1;
    w->in.link_en[p] = 1;
  }
  return w;
}

static void sw_free(sw_t *w) {
  for (uint32_t p = 0; p < C104_PORTS; p++)
    free(w->peer[p]);
  free(w);
}

static peer_t *sw_peer(sw_t *w, uint32_t p) {
  peer_t *e = calloc(1, sizeof *e);
  assert_non_null(e);
  dslink_reset(&w->cfg.link, &e->st);
  w->peer[p] = e;
  return e;
}

static void sw_send(sw_t *w, uint32_t p, long at, const uint16_t *t, size_t n) {
  for (size_t k = 0; k < n; k++) {
    CHECKF(w->qn[p] < QMAX, "queue of port %u full", p);
    w->q[p][w->qn[p]++] = (qent_t){t[k], at};
  }
}
#define TOKS(...)                                                                                  \
  (const uint16_t[]){__VA_ARGS__}, sizeof((const uint16_t[]){__VA_ARGS__}) / sizeof(uint16_t)
#define SEND(w, p, at, ...) sw_send((w), (p), (at), TOKS(__VA_ARGS__))

static void peer_send(peer_t *e, const uint16_t *t, size_t n) {
  for (size_t k = 0; k < n; k++) {
    CHECKF(e->txn < PQMAX, "peer queue full");
    e->txq[e->txn++] = t[k];
  }
}

/* State invariants of §10 after every edge. */
static void sw_invariants(const sw_t *w) {
  const c104_regs_t *r = &w->st.r;
  uint32_t W = 0;
  for (uint32_t i = 0; i < C104_PORTS; i++) {
    CHECKF(r->sl_st[i] <= C104_DISC, "cycle %ld: sl_st[%u] = %u", w->cyc, i, r->sl_st[i]);
    if (r->sl_st[i] == C104_WAIT)
      W |= 1u << i;
  }
  for (uint32_t i = 0; i < C104_PORTS; i++) {
    if (!((W >> i) & 1u)) {
      CHECKF(r->age[i] == 0, "cycle %ld: age[%u] = 0x%08x but slice %u not waiting", w->cyc, i,
             r->age[i], i);
      continue;
    }
    CHECKF((r->age[i] & ~W) == 0 && !((r->age[i] >> i) & 1u),
           "cycle %ld: age[%u] = 0x%08x, W = 0x%08x", w->cyc, i, r->age[i], W);
    for (uint32_t j = i + 1; j < C104_PORTS; j++)
      if ((W >> j) & 1u)
        CHECKF(((r->age[i] >> j) & 1u) != ((r->age[j] >> i) & 1u),
               "cycle %ld: age[%u] and age[%u] do not order %u and %u", w->cyc, i, j, i, j);
  }
  uint32_t owned = 0;
  for (uint32_t i = 0; i < C104_PORTS; i++) {
    if (r->sl_st[i] != C104_EMIT && r->sl_st[i] != C104_FWD)
      continue;
    const uint32_t o = r->sl_port[i];
    CHECKF(((r->out_busy >> o) & 1u) && r->out_owner[o] == i,
           "cycle %ld: slice %u in %s on output %u, busy %u owner %u", w->cyc, i,
           c104_sl_state_name(r->sl_st[i]), o, (r->out_busy >> o) & 1u, r->out_owner[o]);
    CHECKF(!((owned >> o) & 1u), "cycle %ld: output %u owned twice", w->cyc, o);
    owned |= 1u << o;
  }
  CHECKF(owned == r->out_busy, "cycle %ld: out_busy 0x%08x but owned by slices 0x%08x", w->cyc,
         r->out_busy, owned);
}

static void sw_step(sw_t *w) {
  const uint32_t tok = w->cfg.tok_ports;
  /* inputs: token peers from their queues (registered: no dependence on this cycle's outputs) */
  for (uint32_t p = 0; p < C104_PORTS; p++) {
    if ((tok >> p) & 1u) {
      const int v = w->qh[p] < w->qn[p] && w->q[p][w->qh[p]].at <= w->cyc;
      const uint16_t t = v ? w->q[p][w->qh[p]].tok : 0;
      w->in.tok_rx_valid[p] = (uint32_t)v;
      w->in.tok_rx_kind[p] = TKIND(t);
      w->in.tok_rx_data[p] = TDATA(t);
      w->in.tok_tx_ready[p] = w->ready_fn ? w->ready_fn(w, p) : w->ready[p];
      w->in.d[p] = w->in.s[p] = 0;
    } else if (w->peer[p]) {
      peer_t *e = w->peer[p];
      dslink_out_t po;
      dslink_outputs(&w->cfg.link, &e->st, &po);
      w->in.d[p] = po.d;
      w->in.s[p] = po.s;
    } else if (w->loop[p]) {
      w->in.d[p] = w->st.link[p].r.tx_d;
      w->in.s[p] = w->st.link[p].r.tx_s;
    }
  }
  const int rc = c104_eval(&w->cfg, &w->st, &w->in, &w->out, &w->nx, NULL);
  CHECKF(rc == 0, "cycle %ld: c104_eval returned %d", w->cyc, rc);
  for (uint32_t p = 0; p < C104_PORTS; p++) {
    if ((tok >> p) & 1u) {
      CHECKF(w->out.link_state[p] == C104_LINK_RUN && w->out.d[p] == 0 && w->out.s[p] == 0,
             "cycle %ld: token port %u: link_state %u d %u s %u (§14)", w->cyc, p,
             w->out.link_state[p], w->out.d[p], w->out.s[p]);
      if (!w->out.tok_tx_valid[p])
        CHECKF(w->out.tok_tx_data[p] == 0 && w->out.tok_tx_kind[p] == 0,
               "cycle %ld: port %u tok_tx_data/kind not 0 while !valid (§6)", w->cyc, p);
      if (w->in.tok_rx_valid[p] && w->out.tok_rx_ready[p])
        w->popped[p][w->qh[p]++] = w->cyc;
      if (w->out.tok_tx_valid[p] && w->in.tok_tx_ready[p]) {
        CHECKF(w->ln[p] < LMAX, "log of port %u full", p);
        w->log[p][w->ln[p]++] =
            (lent_t){TK(w->out.tok_tx_kind[p], w->out.tok_tx_data[p]), w->cyc};
      }
    } else {
      CHECKF(w->out.tok_rx_ready[p] == 0 && w->out.tok_tx_valid[p] == 0 &&
                 w->out.tok_tx_data[p] == 0 && w->out.tok_tx_kind[p] == 0,
             "cycle %ld: bit-level port %u drives tok_*_o (§14)", w->cyc, p);
      CHECKF(w->out.link_state[p] == w->st.link[p].r.fsm_state, "link_state_o of port %u", p);
      peer_t *e = w->peer[p];
      if (!e)
        continue;
      dslink_in_t li = {.d = w->out.d[p], .s = w->out.s[p], .link_en = 1, .rx_ready = 1};
      if (e->txh < e->txn) {
        li.tx_valid = 1;
        li.tx_kind = TKIND(e->txq[e->txh]);
        li.tx_data = TDATA(e->txq[e->txh]);
      }
      CHECKF(dslink_eval(&w->cfg.link, &e->st, &li, &e->out, &e->nx, &e->ev) == 0, "peer eval");
      if (li.tx_valid && e->out.tx_ready)
        e->txh++;
      if (e->out.rx_valid) {
        CHECKF(e->rxn < PQMAX, "peer log full");
        e->rx[e->rxn++] = (lent_t){TK(e->out.rx_kind, e->out.rx_data), w->cyc};
      }
      if (e->ev.normal_sent && e->nloads < PQMAX)
        e->loads[e->nloads++] = w->cyc;
    }
  }
  c104_clock(&w->st, &w->nx);
  for (uint32_t p = 0; p < C104_PORTS; p++)
    if (w->peer[p])
      dslink_clock(&w->peer[p]->st, &w->peer[p]->nx);
  w->cyc++;
  if (!w->no_invariants)
    sw_invariants(w);
}

static void sw_run_to(sw_t *w, long cyc) {
  while (w->cyc < cyc)
    sw_step(w);
}

static void sw_run(sw_t *w, long n) { sw_run_to(w, w->cyc + n); }

/* Expect output o's log to be exactly these tokens (and, if cyc != NULL, at these cycles). */
static void expect_log(const sw_t *w, uint32_t o, const uint16_t *t, size_t n, const long *cyc) {
  CHECKF(w->ln[o] == n, "output %u sent %zu tokens, expected %zu", o, w->ln[o], n);
  for (size_t k = 0; k < n; k++) {
    CHECKF(w->log[o][k].tok == t[k], "output %u token %zu: kind %u data 0x%02x, expected kind %u "
           "data 0x%02x", o, k, TKIND(w->log[o][k].tok), TDATA(w->log[o][k].tok), TKIND(t[k]),
           TDATA(t[k]));
    if (cyc)
      CHECKF(w->log[o][k].cyc == cyc[k], "output %u token %zu left in cycle %ld, expected %ld", o,
             k, w->log[o][k].cyc, cyc[k]);
  }
}
#define EXPECT_LOG(w, o, ...) expect_log((w), (o), TOKS(__VA_ARGS__), NULL)
#define CYCS(...) ((const long[]){__VA_ARGS__})
#define EXPECT_LOG_AT(w, o, cycs, ...) expect_log((w), (o), TOKS(__VA_ARGS__), (cycs))

static void expect_popped(const sw_t *w, uint32_t p, const long *cyc, size_t n) {
  CHECKF(w->qh[p] == n, "input %u: %zu tokens popped, expected %zu", p, w->qh[p], n);
  for (size_t k = 0; k < n; k++)
    CHECKF(w->popped[p][k] == cyc[k], "input %u token %zu popped in cycle %ld, expected %ld", p, k,
           w->popped[p][k], cyc[k]);
}
#define EXPECT_POPPED(w, p, ...)                                                                   \
  expect_popped((w), (p), CYCS(__VA_ARGS__), sizeof(CYCS(__VA_ARGS__)) / sizeof(long))

static void expect_silent_except(const sw_t *w, uint32_t mask) {
  for (uint32_t o = 0; o < C104_PORTS; o++)
    if (!((mask >> o) & 1u))
      CHECKF(w->ln[o] == 0, "output %u sent %zu tokens, expected none", o, w->ln[o]);
}

/* Sum of a 32-element counter register over all ports. */
static uint32_t cnt_sum(const uint16_t *a) {
  uint32_t s = 0;
  for (uint32_t p = 0; p < C104_PORTS; p++)
    s += a[p];
  return s;
}
#define CNT_SUM(w, reg) cnt_sum((w)->st.r.reg)

static void setup_ival(c104_setup_t *s, uint32_t e, uint32_t hi, uint32_t port, uint32_t valid) {
  s->ival[e].hi = hi;
  s->ival[e].port = port;
  s->ival[e].valid = valid;
  if (s->nint < e + 1)
    s->nint = e + 1;
}

/* A packet through one switch: a plain table used by several tests.
 * e0: [0, 0x0F] -> port 9; e1: [0x10, 0x1F] -> port 7; e2: [0x20, 0x2F] discard. */
static void plain_setup(c104_setup_t *s) {
  c104_setup_default(s);
  setup_ival(s, 0, 0x0F, 9, 1);
  setup_ival(s, 1, 0x1F, 7, 1);
  setup_ival(s, 2, 0x2F, 0, 0);
}

/* ---------------------------------------------------------------------------------------------- */
/* §7, §8: reset values; reset = safe.                                                            */

static void test_reset_values(void **state) {
  (void)state;
  sw_t *w = sw_new(ALL_TOK);
  const c104_regs_t *r = &w->st.r;
#define X(name, count, width)                                                                      \
  for (uint32_t k = 0; k < (count); k++) {                                                         \
    uint32_t want = 0;                                                                             \
    if (!strcmp(#name, "lfsr"))                                                                    \
      want = 0xACE1u;                                                                              \
    if (!strcmp(#name, "cfg_grp"))                                                                 \
      want = 0xFFFFFFFFu;                                                                          \
    CHECKF((uint32_t)C104_AT(r->name, count, k) == want, "%s[%u] = 0x%x after reset, want 0x%x",   \
           #name, k, (uint32_t)C104_AT(r->name, count, k), want);                                  \
  }
  C104_REGS(X)
#undef X
  for (uint32_t p = 0; p < C104_PORTS; p++) {
#define X(name, count, width) CHECKF(w->st.link[p].r.name == 0, "link %u %s not 0", p, #name);
    C104_LINK_REGS(X)
#undef X
  }
  /* §7 Choice (reset = safe): with cfg_nint = 0 every header is discarded and counted. */
  SEND(w, 3, 5, D(0x00), D(0x11), D(0x22), EOP);
  sw_run(w, 20);
  expect_silent_except(w, 0);
  assert_int_equal(w->st.r.cnt_bad[3], 1);
  EXPECT_POPPED(w, 3, 5, 6, 7, 8);
  assert_int_equal(w->st.r.sl_st[3], C104_IDLE);
  sw_free(w);
}

/* §4: the parameter defaults. */
static void test_cfg_defaults(void **state) {
  (void)state;
  c104_cfg_t c;
  c104_cfg_default(&c);
  assert_int_equal(c.tok_ports, 0);
  assert_int_equal(c.link.bit_period, 1);
  assert_int_equal(c.link.rx_depth, 40);
  assert_int_equal(c.link.tx_depth, 35);
  assert_int_equal(c.link.tx_credit_max, 40);
  assert_int_equal(c.link.disconnect_cycles, 8);
  assert_int_equal(c.link.reset_cycles, 64);
  assert_int_equal(c.link.wait_cycles, 128);
  assert_int_equal(c.link.timeout_cycles, 128);
  char err[200];
  assert_int_equal(c104_cfg_check(&c, err, sizeof err), 0);
  c.link.rx_depth = 36; /* not a multiple of 8 */
  assert_int_equal(c104_cfg_check(&c, err, sizeof err), -1);
}

/* ---------------------------------------------------------------------------------------------- */
/* §9.1: interval lookup, §10.1 groups.                                                          */

static void test_lookup(void **state) {
  (void)state;
  c104_state_t *st = calloc(1, sizeof *st);
  c104_cfg_t cfg;
  c104_cfg_default(&cfg);
  c104_reset(&cfg, st);
  c104_setup_t s;
  c104_setup_default(&s);
  /* ascending: [0,9] -> 3, [10,19] discard, [20,29] -> 5, then entry 3 overlaps entry 0 */
  setup_ival(&s, 0, 9, 3, 1);
  setup_ival(&s, 1, 19, 12, 0);
  setup_ival(&s, 2, 29, 5, 1);
  setup_ival(&s, 3, 5, 7, 1);
  c104_setup_load(&s, st);
  uint32_t port = 99, lead = 99;
  const struct {
    uint32_t x;
    int hit;
    uint32_t port;
  } cases[] = {
      {0, 1, 3},   {9, 1, 3},   /* entry 0 owns [0, 9] */
      {5, 1, 3},                /* entry 3 (hi 5) overlaps: the lowest-numbered entry wins */
      {10, 0, 0},  {19, 0, 0},  /* the discard entry */
      {20, 1, 5},  {29, 1, 5},  /* entry 2 owns (19, 29] */
      {30, 0, 0},  {65535, 0, 0}, /* above the last live limit */
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    port = lead = 99;
    const int hit = c104_lookup(&st->r, cases[k].x, &port, &lead);
    CHECKF(hit == cases[k].hit, "lookup(%u) = %d, expected %d", cases[k].x, hit, cases[k].hit);
    if (hit)
      CHECKF(port == cases[k].port && lead == port, "lookup(%u): port %u leader %u, expected %u",
             cases[k].x, port, lead, cases[k].port);
  }
  /* entries at or beyond cfg_nint are not live */
  st->r.cfg_nint = 2;
  assert_int_equal(c104_lookup(&st->r, 25, &port, &lead), 0);
  st->r.cfg_nint = 0;
  assert_int_equal(c104_lookup(&st->r, 0, &port, &lead), 0);
  /* unordered table: entry 0 hi 100 -> 1, entry 1 hi 50 -> 2: entry 1 is never reached */
  st->r.cfg_ihi[0] = 100, st->r.cfg_iport[0] = 1, st->r.cfg_ival[0] = 1;
  st->r.cfg_ihi[1] = 50, st->r.cfg_iport[1] = 2, st->r.cfg_ival[1] = 1;
  st->r.cfg_nint = 2;
  assert_int_equal(c104_lookup(&st->r, 40, &port, &lead), 1);
  assert_int_equal(port, 1);
  /* cfg_nint above 32 acts as 32: entry 31 is live with 63, no entry 32 exists */
  for (uint32_t e = 0; e < 31; e++)
    st->r.cfg_ihi[e] = 0, st->r.cfg_ival[e] = 1, st->r.cfg_iport[e] = 0;
  st->r.cfg_ihi[31] = 0xFFFF, st->r.cfg_iport[31] = 30, st->r.cfg_ival[31] = 1;
  st->r.cfg_nint = 63;
  assert_int_equal(c104_lookup(&st->r, 1234, &port, &lead), 1);
  assert_int_equal(port, 30);
  st->r.cfg_nint = 31;
  assert_int_equal(c104_lookup(&st->r, 1234, &port, &lead), 0);

  /* §9.1 leader(q), §10.1 groups: starts at 0 (always), 4, 8, 12 */
  const uint32_t grp = (1u << 4) | (1u << 8) | (1u << 12);
  assert_int_equal(c104_leader(grp, 0), 0);
  assert_int_equal(c104_leader(grp, 3), 0);
  assert_int_equal(c104_leader(grp, 4), 4);
  assert_int_equal(c104_leader(grp, 11), 8);
  assert_int_equal(c104_leader(grp, 31), 12);
  assert_int_equal(c104_group_mask(grp, 0), 0xFu);
  assert_int_equal(c104_group_mask(grp, 8), 0xF00u);
  assert_int_equal(c104_group_mask(grp, 12), 0xFFFFF000u);
  assert_int_equal(c104_group_mask(0xFFFFFFFFu, 31), 0x80000000u);
  assert_int_equal(c104_leader(0xFFFFFFFEu, 0), 0); /* bit 0 is always taken as 1 */
  assert_int_equal(c104_leader(0, 31), 0);
  assert_int_equal(c104_group_mask(0, 0), 0xFFFFFFFFu);
  /* a lookup's leader: entry names port 10 of the group 8..11 */
  st->r.cfg_grp = grp;
  st->r.cfg_ihi[0] = 0xFFFF, st->r.cfg_iport[0] = 10, st->r.cfg_ival[0] = 1;
  assert_int_equal(c104_lookup(&st->r, 7, &port, &lead), 1);
  assert_int_equal(port, 10);
  assert_int_equal(lead, 8);
  free(st);
}

/* ---------------------------------------------------------------------------------------------- */
/* §9.2, §18.1: one packet from a token port to another, with the exact cycles.                   */

static void test_route_1byte_latency(void **state) {
  (void)state;
  sw_t *w = sw_new(ALL_TOK);
  c104_setup_t s;
  plain_setup(&s);
  c104_setup_load(&s, &w->st);
  /* two packets queued at cycle 10 on input 2, header 0x15 -> entry 1 -> port 7 */
  SEND(w, 2, 10, D(0x15), D(0xA1), D(0xA2), D(0xA3), EOP);
  SEND(w, 2, 10, D(0x16), D(0xB1), EOM);
  sw_run_to(w, 11);
  /* the header was popped and routed in cycle 10 (S1, S3): WAIT, request for leader 7 */
  assert_int_equal(w->st.r.sl_st[2], C104_WAIT);
  assert_int_equal(w->st.r.sl_hdr[2], 0x15);
  assert_int_equal(w->st.r.sl_grp[2], 7);
  assert_int_equal(w->st.r.sl_ecnt[2], 1);
  assert_int_equal(w->st.r.out_busy, 0);
  sw_run_to(w, 12);
  /* granted in cycle 11 and the header written in the same cycle (S4, S5) */
  assert_int_equal(w->st.r.sl_st[2], C104_FWD);
  assert_int_equal(w->st.r.sl_port[2], 7);
  assert_int_equal(w->st.r.out_busy, 1u << 7);
  assert_int_equal(w->st.r.out_owner[7], 2);
  assert_int_equal(w->st.r.cnt_pkt[2], 1);
  sw_run_to(w, 40);
  /* header in 10 -> out 11; the data follow one a cycle (FWD is combinational); the end token
     releases the output at its edge; the next header is popped in the next cycle (16), out 17 */
  EXPECT_LOG_AT(w, 7, CYCS(11, 12, 13, 14, 15, 17, 18, 19), D(0x15), D(0xA1), D(0xA2), D(0xA3),
                EOP, D(0x16), D(0xB1), EOM);
  EXPECT_POPPED(w, 2, 10, 12, 13, 14, 15, 16, 18, 19);
  expect_silent_except(w, 1u << 7);
  assert_int_equal(w->st.r.cnt_pkt[2], 2);
  assert_int_equal(w->st.r.out_busy, 0);
  assert_int_equal(w->st.r.sl_st[2], C104_IDLE);
  assert_int_equal(CNT_SUM(w, cnt_bad) + CNT_SUM(w, cnt_short) + CNT_SUM(w, cnt_cut) +
                       CNT_SUM(w, cnt_stray), 0);
  sw_free(w);
}

/* FWD back-pressure: u_rx_ready = u_tx_ready[o] (S6); EMIT holds without tx_ready (S5). */
static uint32_t ready_script(sw_t *w, uint32_t p) {
  if (p == 9)
    return !(w->cyc == 7 || w->cyc == 8 || w->cyc == 10);
  return 1;
}

static void test_route_2byte(void **state) {
  (void)state;
  sw_t *w = sw_new(ALL_TOK);
  c104_setup_t s;
  c104_setup_default(&s);
  s.port[3].hdr2 = 1;
  setup_ival(&s, 0, 0x1233, 1, 1);
  setup_ival(&s, 1, 0x1234, 9, 1);
  setup_ival(&s, 2, 0xFFFF, 4, 1);
  c104_setup_load(&s, &w->st);
  /* §9.1 Choice: the first header byte is the most significant: 0x12 0x34 is 0x1234 -> port 9 */
  SEND(w, 3, 5, D(0x12), D(0x34), D(0xB0), EOP);
  sw_run_to(w, 6);
  assert_int_equal(w->st.r.sl_st[3], C104_HDR);
  assert_int_equal(w->st.r.sl_hcnt[3], 1);
  assert_int_equal(w->st.r.sl_hdr[3] >> 8, 0x12);
  sw_run_to(w, 7);
  assert_int_equal(w->st.r.sl_st[3], C104_WAIT);
  assert_int_equal(w->st.r.sl_hdr[3], 0x1234);
  assert_int_equal(w->st.r.sl_ecnt[3], 2);
  assert_int_equal(w->st.r.sl_hcnt[3], 0);
  sw_free(w);

  /* output 9 not ready in cycles 7, 8 and 10 */
  w = sw_new(ALL_TOK);
  c104_setup_load(&s, &w->st);
  w->ready_fn = ready_script;
  SEND(w, 3, 5, D(0x12), D(0x34), D(0xB0), EOP);
  sw_run_to(w, 9);
  assert_int_equal(w->st.r.sl_st[3], C104_EMIT);
  assert_int_equal(w->st.r.sl_ecnt[3], 2);
  sw_run_to(w, 30);
  EXPECT_LOG_AT(w, 9, CYCS(9, 11, 12, 13), D(0x12), D(0x34), D(0xB0), EOP);
  EXPECT_POPPED(w, 3, 5, 6, 12, 13);
  /* the reversed order 0x3412 falls in entry 2 -> port 4; {0x00, 0x05} is 5 -> entry 0 -> port 1 */
  SEND(w, 3, 30, D(0x34), D(0x12), EOP);
  SEND(w, 3, 30, D(0x00), D(0x05), D(0xC0), EOM);
  sw_run_to(w, 60);
  EXPECT_LOG(w, 4, D(0x34), D(0x12), EOP);
  EXPECT_LOG(w, 1, D(0x00), D(0x05), D(0xC0), EOM);
  expect_silent_except(w, (1u << 9) | (1u << 4) | (1u << 1));
  assert_int_equal(w->st.r.cnt_pkt[3], 3);
  sw_free(w);
}

/* ---------------------------------------------------------------------------------------------- */
/* §11.1 header deletion.                                                                         */

static void test_delete_route_then_strip(void **state) {
  (void)state;
  sw_t *w = sw_new(ALL_TOK);
  c104_setup_t s;
  plain_setup(&s);
  s.port[4].del = 1;
  s.port[5].del = 1;
  s.port[5].hdr2 = 1;
  c104_setup_load(&s, &w->st);
  /* del = 1: routed on 0x15 (port 7), not emitted (sl_ecnt = 0): the grant cycle acts as FWD */
  SEND(w, 4, 10, D(0x15), D(0xC1), D(0xC2), EOP);
  sw_run_to(w, 11);
  assert_int_equal(w->st.r.sl_ecnt[4], 0);
  sw_run_to(w, 20);
  EXPECT_LOG_AT(w, 7, CYCS(11, 12, 13), D(0xC1), D(0xC2), EOP);
  EXPECT_POPPED(w, 4, 10, 11, 12, 13);
  /* a packet with nothing after its header: granted and released at the same edge (§10.4) */
  SEND(w, 4, 20, D(0x03), EOP);
  sw_run_to(w, 21);
  assert_int_equal(w->st.r.sl_st[4], C104_WAIT);
  sw_run_to(w, 22);
  assert_int_equal(w->st.r.sl_st[4], C104_IDLE);
  assert_int_equal(w->st.r.out_busy, 0);
  assert_int_equal(w->st.r.out_owner[9], 4);
  assert_int_equal(w->st.r.cnt_pkt[4], 2);
  EXPECT_LOG_AT(w, 9, CYCS(21), EOP);
  /* 2-byte headers: both bytes are dropped */
  SEND(w, 5, 30, D(0x00), D(0x16), D(0xD1), EOM);
  sw_run_to(w, 40);
  EXPECT_LOG_AT(w, 7, CYCS(11, 12, 13, 32, 33), D(0xC1), D(0xC2), EOP, D(0xD1), EOM);
  sw_free(w);
}

static void test_delete_strip_then_route(void **state) {
  (void)state;
  sw_t *w = sw_new(ALL_TOK);
  c104_setup_t s;
  plain_setup(&s);
  s.port[5].del = 2;
  s.port[6].del = 2;
  s.port[6].hdr2 = 1;
  s.port[8].del = 3; /* acts as 0 */
  c104_setup_load(&s, &w->st);
  /* del = 2: 0x99 (which would miss: above the table) is popped and dropped, 0x15 is collected,
     routed (port 7) and emitted */
  SEND(w, 5, 10, D(0x99), D(0x15), D(0xD1), EOP);
  sw_run_to(w, 11);
  assert_int_equal(w->st.r.sl_st[5], C104_HDR);
  assert_int_equal(w->st.r.sl_skip[5], 0);
  sw_run_to(w, 20);
  EXPECT_LOG_AT(w, 7, CYCS(12, 13, 14), D(0x15), D(0xD1), EOP);
  EXPECT_POPPED(w, 5, 10, 11, 13, 14);
  assert_int_equal(w->st.r.cnt_bad[5], 0);
  /* 2-byte headers: 0xEE 0xEE skipped (sl_skip held while the first byte waits), 0x0003 routed */
  SEND(w, 6, 20, D(0xEE), D(0xEE), D(0x00), D(0x03), D(0xE1), EOM);
  sw_run_to(w, 21);
  assert_int_equal(w->st.r.sl_st[6], C104_HDR);
  assert_int_equal(w->st.r.sl_skip[6], 1);
  assert_int_equal(w->st.r.sl_hcnt[6], 1);
  sw_run_to(w, 40);
  EXPECT_LOG_AT(w, 9, CYCS(24, 25, 26, 27), D(0x00), D(0x03), D(0xE1), EOM);
  /* del = 3 acts as 0 */
  SEND(w, 8, 40, D(0x15), D(0xF1), EOP);
  sw_run_to(w, 50);
  EXPECT_LOG_AT(w, 7, CYCS(12, 13, 14, 41, 42, 43), D(0x15), D(0xD1), EOP, D(0x15), D(0xF1), EOP);
  sw_free(w);
}

/* ---------------------------------------------------------------------------------------------- */
/* §11.2, §11.3: the random header generator and universal routing.                              */

/* An independent reference: a Galois LFSR from the polynomial's exponents (16, 14, 13, 11). */
static uint32_t ref_lfsr_next(uint32_t x) {
  const int taps[] = {16, 14, 13, 11};
  uint32_t mask = 0;
  for (size_t k = 0; k < 4; k++)
    mask |= 1u << (taps[k] - 1);
  return (x & 1u) ? (x >> 1) ^ mask : x >> 1;
}

static void test_lfsr(void **state) {
  (void)state;
  /* hand-worked: 0xACE1 is odd: 0x5670 ^ 0xB400 = 0xE270; 0xE270 is even: 0x7138 */
  assert_int_equal(c104_lfsr_next(0xACE1), 0xE270);
  assert_int_equal(c104_lfsr_next(0xE270), 0x7138);
  /* maximal period over the non-zero states, never 0 */
  uint8_t *seen = calloc(65536, 1);
  uint32_t x = 0xACE1;
  for (uint32_t k = 0; k < 65535; k++) {
    CHECKF(x != 0, "LFSR reached 0 after %u steps", k);
    CHECKF(!seen[x], "LFSR repeats 0x%04x after %u steps", x, k);
    seen[x] = 1;
    assert_int_equal(c104_lfsr_next(x), ref_lfsr_next(x));
    x = c104_lfsr_next(x);
  }
  assert_int_equal(x, 0xACE1);
  free(seen);
  /* range mapping r = rlo + ((lfsr * n) >> 16), n = rhi - rlo + 1 (hand-worked, n = 20):
     44257 * 20 = 885140 >> 16 = 13; 57968 * 20 = 1159360 >> 16 = 17 */
  assert_int_equal(c104_rand_header(0xACE1, 100, 119), 113);
  assert_int_equal(c104_rand_header(0xE270, 100, 119), 117);
  assert_int_equal(c104_rand_header(0x7138, 100, 119), 108);
  assert_int_equal(c104_rand_header(0xFFFF, 100, 119), 119);
  assert_int_equal(c104_rand_header(0x0001, 100, 119), 100);
  assert_int_equal(c104_rand_header(0xFFFF, 0, 0xFFFF), 0xFFFF); /* n = 65536 */
  assert_int_equal(c104_rand_header(0x1234, 50, 40), 50);          /* rhi < rlo: rlo */
}

/* The first draws of a universal port (lfsr 0xACE1): each packet gets a random header before its
   own, the LFSR stepping once per packet. */
static void universal_first_draws(void) {
  sw_t *w = sw_new(ALL_TOK);
  c104_setup_t s;
  c104_setup_default(&s);
  s.port[0].rnd = 1;
  s.port[0].del = 1; /* ignored with rnd (§9: del = rnd ? 0 : ...) */
  s.port[0].rlo = 100;
  s.port[0].rhi = 119;
  setup_ival(&s, 0, 99, 3, 1);
  setup_ival(&s, 1, 119, 4, 1); /* the whole random range */
  setup_ival(&s, 2, 255, 5, 1);
  c104_setup_load(&s, &w->st);
  for (uint32_t k = 0; k < 3; k++)
    SEND(w, 0, 10, D(0x07), D(0xE0 + k), EOP);
  sw_run_to(w, 11);
  /* S2: no pop, the draw (lfsr 0xACE1 -> 113) is routed; the LFSR steps */
  assert_int_equal(w->st.r.sl_st[0], C104_WAIT);
  assert_int_equal(w->st.r.sl_hdr[0], 113);
  assert_int_equal(w->st.r.sl_ecnt[0], 1);
  assert_int_equal(w->st.r.lfsr[0], 0xE270);
  assert_int_equal(w->qh[0], 0);
  sw_run_to(w, 40);
  /* the random header, then the original packet unchanged; draws 113, 117, 108 */
  EXPECT_LOG_AT(w, 4, CYCS(11, 12, 13, 14, 16, 17, 18, 19, 21, 22, 23, 24), D(113), D(0x07),
                D(0xE0), EOP, D(117), D(0x07), D(0xE1), EOP, D(108), D(0x07), D(0xE2), EOP);
  expect_silent_except(w, 1u << 4);
  assert_int_equal(w->st.r.lfsr[0], 0x7138 >> 1); /* 0x7138 even: 0x389C */
  sw_free(w);
}

/* Many draws against the reference generator; every header within [rlo, rhi]; H = 2 emits the
   random header most significant byte first; deterministic from the seed. */
static void universal_many_draws(void) {
  for (int run = 0; run < 2; run++) {
    sw_t *w = sw_new(ALL_TOK);
    c104_setup_t s;
    c104_setup_default(&s);
    s.port[6].rnd = 1;
    s.port[6].hdr2 = 1;
    s.port[6].rlo = 0x1200;
    s.port[6].rhi = 0x12FE;
    s.port[6].seed = 0x5EED;
    setup_ival(&s, 0, 0x11FF, 1, 1);
    setup_ival(&s, 1, 0x12FF, 2, 1);
    c104_setup_load(&s, &w->st);
    enum { N = 300 };
    for (uint32_t k = 0; k < N; k++)
      SEND(w, 6, 0, D(k & 0xFF), EOM);
    sw_run_to(w, 6 * N + 50);
    CHECKF(w->ln[2] == 4 * N, "port 2 got %zu tokens", w->ln[2]);
    uint32_t x = 0x5EED;
    for (uint32_t k = 0; k < N; k++) {
      const uint32_t n = 0x12FE - 0x1200 + 1;
      const uint32_t r = 0x1200 + (uint32_t)(((uint64_t)x * n) >> 16);
      x = ref_lfsr_next(x);
      const uint32_t got = (TDATA(w->log[2][4 * k].tok) << 8) | TDATA(w->log[2][4 * k + 1].tok);
      CHECKF(got == r, "draw %u: header 0x%04x, reference 0x%04x", k, got, r);
      CHECKF(got >= 0x1200 && got <= 0x12FE, "draw %u out of range", k);
      assert_int_equal(w->log[2][4 * k + 2].tok, D(k & 0xFF));
      assert_int_equal(w->log[2][4 * k + 3].tok, EOM);
    }
    assert_int_equal(w->st.r.lfsr[6], x);
    sw_free(w);
  }
}

/* A draw that hits a discard entry: the whole packet, its first byte included, is dropped (S2);
   rhi < rlo draws rlo every time and the LFSR still steps. */
static void universal_discard(void) {
  sw_t *w = sw_new(ALL_TOK);
  c104_setup_t s;
  c104_setup_default(&s);
  s.port[1].rnd = 1;
  s.port[1].rlo = 50;
  s.port[1].rhi = 40;
  setup_ival(&s, 0, 49, 3, 1);
  setup_ival(&s, 1, 59, 0, 0);
  c104_setup_load(&s, &w->st);
  SEND(w, 1, 10, D(0x01), D(0x02), EOP);
  SEND(w, 1, 10, D(0x03), EOM);
  sw_run_to(w, 30);
  expect_silent_except(w, 0);
  assert_int_equal(w->st.r.cnt_bad[1], 2);
  EXPECT_POPPED(w, 1, 11, 12, 13, 15, 16);
  assert_int_equal(w->st.r.lfsr[1], 0x7138);
  sw_free(w);
}

static void test_universal(void **state) {
  (void)state;
  universal_first_draws();
  universal_many_draws();
  universal_discard();
}

/* §11.3: universal routing through a loopback port (bit-level port 31 wired to itself, del = 2):
   the random header sends the packet to the loopback, the re-entering packet is stripped of it
   and routed on its original header. */
static void test_universal_loopback(void **state) {
  (void)state;
  sw_t *w = sw_new(~(1u << 31));
  w->loop[31] = 1;
  c104_setup_t s;
  c104_setup_default(&s);
  s.port[0].rnd = 1;
  s.port[0].rlo = 0x80;
  s.port[0].rhi = 0x80; /* the intermediate destination: this switch */
  s.port[31].del = 2;
  setup_ival(&s, 0, 0x0F, 5, 1);
  setup_ival(&s, 1, 0x7F, 0, 0);
  setup_ival(&s, 2, 0x80, 31, 1);
  c104_setup_load(&s, &w->st);
  /* the loopback link comes up with itself */
  while (w->st.link[31].r.fsm_state != DSLINK_ST_RUN) {
    CHECKF(w->cyc < 2000, "loopback link not up");
    sw_step(w);
  }
  const long t0 = w->cyc + 5;
  SEND(w, 0, t0, D(0x03), D(0xAA), D(0xBB), EOP);
  SEND(w, 0, t0, D(0x04), D(0xCC), EOM);
  sw_run(w, 400);
  EXPECT_LOG(w, 5, D(0x03), D(0xAA), D(0xBB), EOP, D(0x04), D(0xCC), EOM);
  expect_silent_except(w, 1u << 5);
  assert_int_equal(w->st.r.cnt_pkt[0], 2);
  assert_int_equal(w->st.r.cnt_pkt[31], 2);
  assert_int_equal(CNT_SUM(w, cnt_bad) + CNT_SUM(w, cnt_short) + CNT_SUM(w, cnt_cut) +
                       CNT_SUM(w, cnt_stray), 0);
  assert_int_equal(w->st.link[31].r.cnt_par_err + w->st.link[31].r.cnt_disc_err, 0);
  sw_free(w);
}

/* ---------------------------------------------------------------------------------------------- */
/* §10: hunt groups, FIFO order, round robin.                                                     */

static void test_hunt_group(void **state) {
  (void)state;
  sw_t *w = sw_new(ALL_TOK);
  c104_setup_t s;
  c104_setup_default(&s);
  s.grp = ~(7u << 9); /* ports 8..11 one group, led by 8 */
  setup_ival(&s, 0, 0x2F, 10, 1);
  setup_ival(&s, 1, 0x3F, 11, 1);
  c104_setup_load(&s, &w->st);
  /* two packets routed in the same cycle (10), one naming port 10, one port 11: the group's
     leader 8 grants one per cycle, the older first (same edge: lower port), the first free port */
  SEND(w, 0, 10, D(0x20), D(0x01), D(0x01), D(0x01), D(0x01), EOP);
  SEND(w, 1, 10, D(0x30), D(0x02), D(0x02), D(0x02), D(0x02), EOP);
  sw_run_to(w, 11);
  assert_int_equal(w->st.r.sl_grp[0], 8);
  assert_int_equal(w->st.r.sl_grp[1], 8);
  assert_int_equal(w->st.r.age[1], 1u << 0);
  sw_run_to(w, 13);
  assert_int_equal(w->st.r.sl_port[0], 8);
  assert_int_equal(w->st.r.sl_port[1], 9);
  assert_int_equal(w->st.r.rr[8], 2);
  sw_run_to(w, 30);
  EXPECT_LOG_AT(w, 8, CYCS(11, 12, 13, 14, 15, 16), D(0x20), D(1), D(1), D(1), D(1), EOP);
  EXPECT_LOG_AT(w, 9, CYCS(12, 13, 14, 15, 16, 17), D(0x30), D(2), D(2), D(2), D(2), EOP);
  /* ports 8 and 9 held by long packets (end token late): the next one gets 10, then 11 */
  SEND(w, 2, 30, D(0x21), D(0x03));
  SEND(w, 2, 80, EOP);
  SEND(w, 3, 31, D(0x22), D(0x04));
  SEND(w, 3, 80, EOP);
  SEND(w, 4, 35, D(0x23), D(0x05), EOP);
  SEND(w, 5, 36, D(0x24), D(0x06), EOP);
  sw_run_to(w, 60);
  assert_int_equal(w->st.r.sl_port[2], 8);
  assert_int_equal(w->st.r.sl_port[3], 9);
  EXPECT_LOG_AT(w, 10, CYCS(36, 37, 38), D(0x23), D(5), EOP);
  EXPECT_LOG_AT(w, 11, CYCS(37, 38, 39), D(0x24), D(6), EOP);
  /* with 8, 9 still owned, 10 free again: the first free is 10 */
  SEND(w, 6, 60, D(0x25), D(0x07), EOP);
  sw_run_to(w, 100);
  EXPECT_LOG_AT(w, 10, CYCS(36, 37, 38, 61, 62, 63), D(0x23), D(5), EOP, D(0x25), D(7), EOP);
  assert_int_equal(w->st.r.out_busy, 0);
  sw_free(w);
}

/* Three inputs wait for output 5, held by input 6 until its end token (offered in cycle 30).
   Inputs 1 and 3 are routed in cycle 12, input 2 in cycle 13. */
static void contention(sw_t *w, int rr) {
  c104_setup_t s;
  c104_setup_default(&s);
  setup_ival(&s, 0, 0xFF, 5, 1);
  s.rr = (uint32_t)rr;
  c104_setup_load(&s, &w->st);
  SEND(w, 6, 10, D(0x05), D(0x66));
  SEND(w, 6, 30, EOP);
  SEND(w, 1, 12, D(0x05), D(0x11), EOP);
  SEND(w, 3, 12, D(0x05), D(0x33), EOP);
  SEND(w, 2, 13, D(0x05), D(0x22), EOP);
}

static void test_fifo_order(void **state) {
  (void)state;
  sw_t *w = sw_new(ALL_TOK);
  contention(w, 0);
  sw_run_to(w, 14);
  /* §10.2: 1 and 3 entered at the same edge (1 ahead: lower port), 2 one edge later */
  assert_int_equal(w->st.r.age[1], 0);
  assert_int_equal(w->st.r.age[3], 1u << 1);
  assert_int_equal(w->st.r.age[2], (1u << 1) | (1u << 3));
  sw_run_to(w, 60);
  /* released at edge 30; then one packet per 3 cycles: served 1, 3, 2 (arrival, ties by port) */
  EXPECT_LOG_AT(w, 5, CYCS(11, 12, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39), D(0x05), D(0x66), EOP,
                D(0x05), D(0x11), EOP, D(0x05), D(0x33), EOP, D(0x05), D(0x22), EOP);
  assert_int_equal(w->st.r.rr[5], 3);
  sw_free(w);
}

static void test_round_robin(void **state) {
  (void)state;
  sw_t *w = sw_new(ALL_TOK);
  contention(w, 1);
  sw_run_to(w, 12);
  assert_int_equal(w->st.r.rr[5], 7); /* A4: granted 6 */
  sw_run_to(w, 60);
  /* round robin from rr = 7: 7..31, 0, 1 -> 1 (rr 2), then 2 (rr 3), then 3 (rr 4) */
  EXPECT_LOG_AT(w, 5, CYCS(11, 12, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39), D(0x05), D(0x66), EOP,
                D(0x05), D(0x11), EOP, D(0x05), D(0x22), EOP, D(0x05), D(0x33), EOP);
  assert_int_equal(w->st.r.rr[5], 4);
  sw_free(w);
}

/* ---------------------------------------------------------------------------------------------- */
/* §12: bad headers, short packets, stray tokens, ERR.                                            */

static void test_bad_header(void **state) {
  (void)state;
  sw_t *w = sw_new(ALL_TOK);
  c104_setup_t s;
  c104_setup_default(&s);
  setup_ival(&s, 0, 0x0F, 4, 1);
  setup_ival(&s, 1, 0x1F, 0, 0);
  c104_setup_load(&s, &w->st);
  for (uint32_t o = 0; o < C104_PORTS; o++)
    w->ready[o] = 0; /* DISC never waits on an output */
  SEND(w, 7, 10, D(0x15), D(1), D(2), D(3), EOP); /* discard entry */
  SEND(w, 7, 10, D(0x30), D(4), EOM);             /* above the last limit */
  sw_run_to(w, 11);
  assert_int_equal(w->st.r.sl_st[7], C104_DISC);
  assert_int_equal(w->st.r.cnt_bad[7], 1);
  sw_run_to(w, 30);
  EXPECT_POPPED(w, 7, 10, 11, 12, 13, 14, 15, 16, 17);
  assert_int_equal(w->st.r.cnt_bad[7], 2);
  assert_int_equal(w->st.r.sl_st[7], C104_IDLE);
  /* and the next packet is routed as usual */
  w->ready[4] = 1;
  SEND(w, 7, 30, D(0x05), D(9), EOP);
  sw_run_to(w, 40);
  EXPECT_LOG_AT(w, 4, CYCS(31, 32, 33), D(0x05), D(9), EOP);
  expect_silent_except(w, 1u << 4);
  assert_int_equal(w->st.r.cnt_bad[7], 2);
  assert_int_equal(w->st.r.cnt_pkt[7], 1);
  sw_free(w);
}

static void test_short_stray(void **state) {
  (void)state;
  sw_t *w = sw_new(ALL_TOK);
  c104_setup_t s;
  plain_setup(&s);
  s.port[2].hdr2 = 1;
  s.port[3].del = 2;
  s.port[4].rnd = 1;
  c104_setup_load(&s, &w->st);
  /* stray end tokens in IDLE: popped and counted, one a cycle (S1, S2) */
  SEND(w, 8, 10, EOP, ERR, EOM);
  SEND(w, 4, 10, EOM); /* a rnd input too, and no draw */
  /* a packet ending inside its 2-byte header: cnt_short; ended by ERR: cnt_cut only (S3) */
  SEND(w, 2, 10, D(0x12), EOP, D(0x12), ERR);
  /* ending inside the skipped header (del = 2, H = 1): after the skip, in HDR */
  SEND(w, 3, 10, D(0x99), EOM);
  sw_run_to(w, 30);
  EXPECT_POPPED(w, 8, 10, 11, 12);
  EXPECT_POPPED(w, 4, 10);
  EXPECT_POPPED(w, 2, 10, 11, 12, 13);
  EXPECT_POPPED(w, 3, 10, 11);
  assert_int_equal(w->st.r.cnt_stray[8], 3);
  assert_int_equal(w->st.r.cnt_stray[4], 1);
  assert_int_equal(w->st.r.lfsr[4], 0xACE1);
  assert_int_equal(w->st.r.cnt_short[2], 1);
  assert_int_equal(w->st.r.cnt_cut[2], 1);
  assert_int_equal(w->st.r.cnt_short[3], 1);
  assert_int_equal(CNT_SUM(w, cnt_bad) + CNT_SUM(w, cnt_pkt), 0);
  for (uint32_t i = 0; i < C104_PORTS; i++) {
    assert_int_equal(w->st.r.sl_st[i], C104_IDLE);
    assert_int_equal(w->st.r.sl_hcnt[i], 0);
    assert_int_equal(w->st.r.sl_skip[i], 0);
  }
  expect_silent_except(w, 0);
  sw_free(w);
}

/* ERR after a routed header, before the grant: withdrawn, nothing sent, and no candidate in the
   cycle it withdraws: the next waiting slice takes the output in that very cycle (S4, A1). */
static void test_err_wait_withdraw(void **state) {
  (void)state;
  sw_t *w = sw_new(ALL_TOK);
  c104_setup_t s;
  c104_setup_default(&s);
  setup_ival(&s, 0, 0xFF, 5, 1);
  c104_setup_load(&s, &w->st);
  SEND(w, 6, 10, D(0x05), D(0x66));
  SEND(w, 6, 30, EOP);               /* releases output 5 at edge 30 */
  SEND(w, 1, 12, D(0x05));
  SEND(w, 1, 31, ERR, D(0x05), D(0x12), EOP);  /* ERR at the head exactly when 5 is free */
  SEND(w, 2, 12, D(0x05), D(0x22), EOP);
  SEND(w, 3, 12, D(0x05));
  SEND(w, 3, 20, ERR);               /* withdraws while the output is still busy */
  sw_run_to(w, 21);
  assert_int_equal(w->st.r.sl_st[3], C104_IDLE);
  assert_int_equal(w->st.r.cnt_cut[3], 1);
  assert_int_equal(w->st.r.age[2], 1u << 1); /* 3 dropped out of the order */
  sw_run_to(w, 60);
  /* cycle 31: 1 withdraws (pops ERR), 2 is granted; 1's next packet waits behind 2 */
  EXPECT_LOG_AT(w, 5, CYCS(11, 12, 30, 31, 32, 33, 34, 35, 36), D(0x05), D(0x66), EOP, D(0x05),
                D(0x22), EOP, D(0x05), D(0x12), EOP);
  EXPECT_POPPED(w, 1, 12, 31, 32, 35, 36);
  assert_int_equal(w->st.r.cnt_cut[1], 1);
  assert_int_equal(w->st.r.cnt_pkt[1], 1);
  assert_int_equal(w->st.r.cnt_pkt[3], 0);
  sw_free(w);
}

/* ERR while forwarding: forwarded like an end token, the output released, cnt_cut (S6, §12). */
static void test_err_forward(void **state) {
  (void)state;
  sw_t *w = sw_new(ALL_TOK);
  c104_setup_t s;
  plain_setup(&s);
  c104_setup_load(&s, &w->st);
  SEND(w, 1, 10, D(0x15), D(0x11), ERR);
  SEND(w, 2, 11, D(0x15), D(0x22), EOP);
  sw_run_to(w, 30);
  EXPECT_LOG_AT(w, 7, CYCS(11, 12, 13, 14, 15, 16), D(0x15), D(0x11), ERR, D(0x15), D(0x22), EOP);
  assert_int_equal(w->st.r.cnt_cut[1], 1);
  assert_int_equal(w->st.r.cnt_pkt[1], 1);
  assert_int_equal(w->st.r.out_busy, 0);
  sw_free(w);
}

/* ---------------------------------------------------------------------------------------------- */
/* §7: configuration through the port equals c104_setup_load.                                    */

static void random_setup(c104_setup_t *s, madpost_rng_t *r) {
  c104_setup_default(s);
  for (uint32_t p = 0; p < C104_PORTS; p++) {
    s->port[p].hdr2 = madpost_rng_below(r, 2);
    s->port[p].del = madpost_rng_below(r, 4);
    s->port[p].rnd = madpost_rng_chance(r, 1, 5);
    s->port[p].rlo = madpost_rng_below(r, 65536);
    s->port[p].rhi = madpost_rng_below(r, 65536);
    s->port[p].seed = madpost_rng_chance(r, 1, 8) ? 0 : madpost_rng_below(r, 65536);
  }
  for (uint32_t e = 0; e < C104_NINT; e++) {
    s->ival[e].hi = madpost_rng_below(r, 65536);
    s->ival[e].port = madpost_rng_below(r, 32);
    s->ival[e].valid = madpost_rng_below(r, 2);
  }
  s->nint = madpost_rng_below(r, 64);
  s->grp = (uint32_t)madpost_rng_next(r);
  s->rr = madpost_rng_below(r, 2);
}

static void regs_equal(const c104_regs_t *a, const c104_regs_t *b, const char *what) {
#define X(name, count, width)                                                                      \
  for (uint32_t k = 0; k < (count); k++)                                                           \
    CHECKF(C104_AT(a->name, count, k) == C104_AT(b->name, count, k), "%s: %s[%u] 0x%x vs 0x%x",    \
           what, #name, k, (uint32_t)C104_AT(a->name, count, k),                                   \
           (uint32_t)C104_AT(b->name, count, k));
  C104_REGS(X)
#undef X
}

/* One write through the configuration port, taking effect at this cycle's edge. */
static void cfg_write(sw_t *w, uint32_t addr, uint32_t data) {
  w->in.cfg_we = 1;
  w->in.cfg_addr = addr;
  w->in.cfg_wdata = data;
  sw_step(w);
  w->in.cfg_we = 0;
}

/* The registers of a setup loaded by c104_setup_load hold the values as §7 defines them. */
static void check_setup_regs(const c104_regs_t *q, const c104_setup_t *s) {
  for (uint32_t p = 0; p < C104_PORTS; p++) {
    assert_int_equal(q->cfg_port[p], s->port[p].hdr2 | s->port[p].del << 1 | s->port[p].rnd << 3);
    assert_int_equal(q->cfg_rlo[p], s->port[p].rlo);
    assert_int_equal(q->cfg_rhi[p], s->port[p].rhi);
    assert_int_equal(q->lfsr[p], s->port[p].seed ? s->port[p].seed : 0xACE1);
    assert_int_equal(q->cfg_ihi[p], s->ival[p].hi);
    assert_int_equal(q->cfg_iport[p], s->ival[p].port);
    assert_int_equal(q->cfg_ival[p], s->ival[p].valid);
  }
  assert_int_equal(q->cfg_nint, s->nint);
  assert_int_equal(q->cfg_rr, s->rr);
  assert_int_equal(q->cfg_grp, s->grp); /* stored as written; bit 0 only read as 1 */
}

/* A random setup written through the port (writes in address order) equals c104_setup_load's;
   writes to unused addresses are ignored. */
static void cfg_port_random_run(madpost_rng_t *r) {
  c104_setup_t s;
  random_setup(&s, r);
  c104_write_t wr[C104_SETUP_NWRITES];
  assert_int_equal(c104_setup_writes(&s, wr), C104_SETUP_NWRITES);
  for (size_t k = 1; k < C104_SETUP_NWRITES; k++)
    CHECKF(wr[k].addr > wr[k - 1].addr, "writes not in address order at %zu", k);
  sw_t *a = sw_new(0xFFFF0000u); /* bit-level and token ports alike */
  sw_t *b = sw_new(0xFFFF0000u);
  for (uint32_t p = 0; p < C104_PORTS; p++)
    a->in.link_en[p] = b->in.link_en[p] = 0;
  for (size_t k = 0; k < C104_SETUP_NWRITES; k++)
    cfg_write(a, wr[k].addr, wr[k].data);
  c104_setup_load(&s, &b->st);
  regs_equal(&a->st.r, &b->st.r, "port writes vs setup_load");
  check_setup_regs(&b->st.r, &s);
  for (uint32_t addr = 0x82; addr < 0x100; addr++)
    cfg_write(a, addr, (uint32_t)madpost_rng_next(r));
  regs_equal(&a->st.r, &b->st.r, "after writes to unused addresses");
  sw_free(a);
  sw_free(b);
}

/* A write takes effect at its edge: nint written in cycle 3 is used from cycle 4. */
static void cfg_port_write_edge(void) {
  sw_t *w = sw_new(ALL_TOK);
  c104_setup_t s;
  plain_setup(&s);
  s.nint = 0;
  c104_setup_load(&s, &w->st);
  SEND(w, 0, 3, D(0x15), EOP);
  SEND(w, 1, 4, D(0x15), EOP);
  sw_run_to(w, 3);
  cfg_write(w, C104_A_CTRL, 3);
  assert_int_equal(w->st.r.cfg_nint, 3);
  sw_run_to(w, 20);
  assert_int_equal(w->st.r.cnt_bad[0], 1);
  assert_int_equal(w->st.r.cnt_pkt[1], 1);
  EXPECT_LOG(w, 7, D(0x15), EOP);
  sw_free(w);
}

/* A seed write and a draw at the same edge: the write wins; the draw used the old value. A seed of
   0 is written as 0xACE1. */
static void cfg_port_seed_write(void) {
  sw_t *w = sw_new(ALL_TOK);
  c104_setup_t s;
  c104_setup_default(&s);
  s.port[0].rnd = 1;
  s.port[0].rlo = 100;
  s.port[0].rhi = 119;
  setup_ival(&s, 0, 0xFFFF, 3, 1);
  c104_setup_load(&s, &w->st);
  SEND(w, 0, 5, D(0x01), EOP);
  sw_run_to(w, 5);
  cfg_write(w, C104_A_SEED + 0, 0x1234);
  assert_int_equal(w->st.r.lfsr[0], 0x1234);
  assert_int_equal(w->st.r.sl_hdr[0], 113);
  cfg_write(w, C104_A_SEED + 0, 0xFFFF0000u);
  assert_int_equal(w->st.r.lfsr[0], 0xACE1);
  sw_free(w);
}

static void test_cfg_port(void **state) {
  (void)state;
  madpost_rng_t r;
  madpost_rng_seed(&r, 104, 7);
  for (int run = 0; run < 4; run++)
    cfg_port_random_run(&r);
  cfg_port_write_edge();
  cfg_port_seed_write();
}

/* ---------------------------------------------------------------------------------------------- */
/* Bit-level ports: packets through DS-Link peers (the dslink C model), the full D/S path.       */

static void direct_transit(long *transit, uint32_t m) {
  /* reference: two link ends back to back, same parameters (docs/c104.md §18.2 "direct") */
  c104_cfg_t cfg;
  c104_cfg_default(&cfg);
  static dslink_state_t a, b;
  dslink_next_t na, nb;
  dslink_out_t oa, ob;
  dslink_ev_t ea, eb;
  dslink_reset(&cfg.link, &a);
  dslink_reset(&cfg.link, &b);
  long load = -1, pop = -1;
  size_t sent = 0;
  const size_t total = m + 2;
  for (long cyc = 0; cyc < 3000 && pop < 0; cyc++) {
    dslink_outputs(&cfg.link, &a, &oa);
    dslink_outputs(&cfg.link, &b, &ob);
    dslink_in_t ia = {.d = ob.d, .s = ob.s, .link_en = 1, .rx_ready = 1};
    dslink_in_t ib = {.d = oa.d, .s = oa.s, .link_en = 1, .rx_ready = 1};
    if (cyc >= 400 && sent < total) {
      ia.tx_valid = 1;
      ia.tx_kind = sent == 0 ? K_DATA : sent == total - 1 ? K_EOM : K_DATA;
      ia.tx_data = sent == 0 ? 0x01 : sent == total - 1 ? 0 : sent;
    }
    dslink_eval(&cfg.link, &a, &ia, &oa, &na, &ea);
    dslink_eval(&cfg.link, &b, &ib, &ob, &nb, &eb);
    if (ia.tx_valid && oa.tx_ready)
      sent++;
    if (ea.normal_sent && load < 0)
      load = cyc;
    if (ob.rx_valid && ob.rx_kind == K_EOM)
      pop = cyc;
    dslink_clock(&a, &na);
    dslink_clock(&b, &nb);
  }
  *transit = pop - load;
}

static void bit_level_case(uint32_t tok_ports) {
  sw_t *w = sw_new(tok_ports);
  for (uint32_t p = 2; p < C104_PORTS; p++)
    w->in.link_en[p] = 0; /* unconnected bit-level ports stay down */
  peer_t *A = sw_peer(w, 0), *B = sw_peer(w, 1);
  c104_setup_t s;
  c104_setup_default(&s);
  setup_ival(&s, 0, 0x0F, 1, 1); /* to B */
  setup_ival(&s, 1, 0x1F, 0, 1); /* to A */
  c104_setup_load(&s, &w->st);
  while (!(w->st.link[0].r.fsm_state == DSLINK_ST_RUN &&
           w->st.link[1].r.fsm_state == DSLINK_ST_RUN && A->st.r.fsm_state == DSLINK_ST_RUN &&
           B->st.r.fsm_state == DSLINK_ST_RUN)) {
    CHECKF(w->cyc < 1000, "links not up");
    sw_step(w);
  }
  sw_run_to(w, 400);
  /* §18.2: transit (header loaded onto the sender's wire .. EOM popped by the receiver) is
     17 + 10m direct and 33 + 10m through one C104: 15 + w per switch, w = 1 with the NULL phases
     of links started together */
  for (uint32_t m = 0; m <= 6; m++) {
    long direct;
    direct_transit(&direct, m);
    CHECKF(direct == 17 + 10 * (long)m, "direct transit m=%u: %ld cycles, §18.2 says %ld", m,
           direct, 17 + 10 * (long)m);
    const size_t l0 = A->nloads, r0 = B->rxn;
    uint16_t pk[40];
    size_t n = 0;
    pk[n++] = D(0x01);
    for (uint32_t k = 0; k < m; k++)
      pk[n++] = D(0x40 + k);
    pk[n++] = EOM;
    peer_send(A, pk, n);
    long pop = -1;
    for (long k = 0; k < 400 && pop < 0; k++) {
      sw_step(w);
      if (B->rxn > r0 && TKIND(B->rx[B->rxn - 1].tok) == K_EOM)
        pop = B->rx[B->rxn - 1].cyc;
    }
    CHECKF(pop >= 0, "packet m=%u not delivered", m);
    CHECKF(B->rxn - r0 == n, "B received %zu tokens, sent %zu", B->rxn - r0, n);
    for (size_t k = 0; k < n; k++)
      CHECKF(B->rx[r0 + k].tok == pk[k], "token %zu differs", k);
    const long transit = pop - A->loads[l0];
    CHECKF(transit == 33 + 10 * (long)m, "through the switch, m=%u: %ld cycles, §18.2 says %ld",
           m, transit, 33 + 10 * (long)m);
    sw_run(w, 37); /* the next message starts at another NULL phase of A */
  }
  /* the other way, 2 bytes of data */
  peer_send(B, TOKS(D(0x12), D(0x77), D(0x78), EOP));
  sw_run(w, 200);
  CHECKF(A->rxn == 4 && A->rx[0].tok == D(0x12) && A->rx[1].tok == D(0x77) &&
             A->rx[3].tok == EOP, "B -> A: %zu tokens", A->rxn);
  assert_int_equal(w->st.r.cnt_pkt[0], 7);
  assert_int_equal(w->st.r.cnt_pkt[1], 1);
  for (uint32_t p = 0; p < 2; p++) {
    const dslink_regs_t *l = &w->st.link[p].r;
    assert_int_equal(l->cnt_par_err + l->cnt_esc_err + l->cnt_disc_err + l->cnt_cred_err +
                         l->cnt_proto_err + l->cnt_tmo_err, 0);
  }
  /* §12: ERR while forwarding to a bit-level output: the output link aborts (docs/dslink.md
     §5.4) and the receiver closes its open packet with ERR. A packet from a token port (2). */
  if ((tok_ports >> 2) & 1u) {
    SEND(w, 2, w->cyc, D(0x02), D(0x55), ERR);
    const size_t r0 = B->rxn;
    sw_run(w, 600);
    /* a prefix closed with ERR: 0x55, the last token before the abort, is never confirmed (its
       confirmation needs the next token's P and F bits, docs/dslink.md §6.2), so it is lost with
       the link */
    CHECKF(B->rxn - r0 == 2 && B->rx[r0].tok == D(0x02) && B->rx[r0 + 1].tok == ERR,
           "cut packet at B: %zu tokens", B->rxn - r0);
    assert_int_equal(w->st.link[1].r.cnt_tx_spill, 0); /* an abort, not a spill */
    assert_int_equal(w->st.r.cnt_cut[2], 1);
    assert_int_equal(w->st.link[1].r.fsm_state, DSLINK_ST_RUN); /* and the link came back */
  }
  sw_free(w);
}

/* §12: an output link that goes down spills the rest of the packet itself (docs/dslink.md §5.3);
   the slice carries on to the end token, the output is released, and the next packet is routed
   once the link is up again. */
static void test_output_link_down(void **state) {
  (void)state;
  sw_t *w = sw_new(~3u);
  peer_t *B = sw_peer(w, 1);
  w->in.link_en[0] = 0;
  c104_setup_t s;
  c104_setup_default(&s);
  setup_ival(&s, 0, 0x0F, 1, 1);
  c104_setup_load(&s, &w->st);
  while (!(w->st.link[1].r.fsm_state == DSLINK_ST_RUN && B->st.r.fsm_state == DSLINK_ST_RUN)) {
    CHECKF(w->cyc < 1000, "link not up");
    sw_step(w);
  }
  uint16_t pk[64];
  size_t n = 0;
  pk[n++] = D(0x01);
  for (uint32_t k = 0; k < 50; k++)
    pk[n++] = D(k);
  pk[n++] = EOM;
  sw_send(w, 2, w->cyc, pk, n);
  while (B->rxn < 5)
    sw_step(w);
  w->in.link_en[1] = 0;
  sw_run(w, 20);
  w->in.link_en[1] = 1;
  while (w->st.r.sl_st[2] != C104_IDLE || w->qh[2] < w->qn[2]) {
    CHECKF(w->cyc < 5000, "the slice did not carry on to the end token");
    sw_step(w);
  }
  assert_int_equal(w->st.r.out_busy, 0);
  assert_int_equal(w->st.r.cnt_pkt[2], 1);
  assert_int_equal(w->st.link[1].r.cnt_tx_spill, 1);
  while (!(w->st.link[1].r.fsm_state == DSLINK_ST_RUN && B->st.r.fsm_state == DSLINK_ST_RUN)) {
    CHECKF(w->cyc < 5000, "link not up again");
    sw_step(w);
  }
  /* B got a prefix of the packet closed with ERR */
  CHECKF(B->rxn >= 6 && B->rxn < n && TKIND(B->rx[B->rxn - 1].tok) == K_ERR,
         "B: %zu tokens, last kind %u", B->rxn, TKIND(B->rx[B->rxn - 1].tok));
  for (size_t k = 0; k + 1 < B->rxn; k++)
    assert_int_equal(B->rx[k].tok, pk[k]);
  const size_t r0 = B->rxn;
  SEND(w, 2, w->cyc, D(0x01), D(0x99), EOP);
  sw_run(w, 100);
  CHECKF(B->rxn - r0 == 3 && B->rx[r0].tok == D(0x01) && B->rx[r0 + 1].tok == D(0x99) &&
             B->rx[r0 + 2].tok == EOP, "second packet: %zu tokens", B->rxn - r0);
  assert_int_equal(w->st.r.cnt_cut[2] + w->st.r.cnt_bad[2], 0);
  sw_free(w);
}

static void test_dslink_ports(void **state) {
  (void)state;
  bit_level_case(~3u); /* ports 0, 1 bit-level, the rest token ports */
  bit_level_case(0);   /* every port bit-level (c104_bit) */
}

/* ---------------------------------------------------------------------------------------------- */
/* Random configurations and traffic against a packet-level reference of §9-§12.                */

typedef struct {
  uint16_t tok[80];
  uint32_t n;
  uint32_t group; /* output ports allowed */
} rpkt_t;

enum { RQ = 400 };
typedef struct {
  rpkt_t q[RQ];
  uint32_t h, n;
} rexp_t;

typedef struct {
  uint32_t pkt, bad, shrt, cut, stray;
} rcnt_t;

static int rpkt_eq(const rpkt_t *p, const uint16_t *t, uint32_t n) {
  return p->n == n && !memcmp(p->tok, t, n * sizeof t[0]);
}

/* The fate of one generated token sequence on input i (§9.2 S1-S7 at packet level). The sequence
 * starts in IDLE and is one "item": a stray end token, or a packet. */
static void ref_item(const c104_regs_t *r, uint32_t i, uint32_t *lfsr, const uint16_t *t,
                     uint32_t n, rexp_t *exp, rcnt_t *cnt) {
  const uint32_t cp = r->cfg_port[i], H = (cp & 1u) ? 2u : 1u, rnd = (cp >> 3) & 1u;
  const uint32_t del = rnd ? 0 : (((cp >> 1) & 3u) == 3 ? 0 : (cp >> 1) & 3u);
  if (TKIND(t[0]) != K_DATA) {
    cnt->stray++;
    return;
  }
  uint32_t x, pos, emit;
  if (rnd) {
    const uint32_t v = c104_rand_header(*lfsr, r->cfg_rlo[i], r->cfg_rhi[i]);
    *lfsr = ref_lfsr_next(*lfsr);
    x = H == 1 ? v & 0xFFu : v;
    pos = 0;
    emit = H;
  } else {
    pos = del == 2 ? H : 0;
    for (uint32_t k = 0; k < pos + H; k++) {
      if (TKIND(t[k]) != K_DATA) {
        if (TKIND(t[k]) == K_ERR)
          cnt->cut++;
        else
          cnt->shrt++;
        return;
      }
    }
    x = H == 2 ? (TDATA(t[pos]) << 8) | TDATA(t[pos + 1]) : TDATA(t[pos]);
    pos += H;
    emit = del == 1 ? 0 : H;
  }
  /* the reference lookup: lowest live entry with x <= hi */
  const uint32_t live = r->cfg_nint > 32 ? 32 : r->cfg_nint;
  int e = -1;
  for (uint32_t k = 0; k < live && e < 0; k++)
    if (x <= r->cfg_ihi[k])
      e = (int)k;
  if (e < 0 || !r->cfg_ival[e]) {
    cnt->bad++;
    return;
  }
  const uint32_t port = r->cfg_iport[e];
  const uint32_t starts = r->cfg_grp | 1u;
  uint32_t lead = port;
  while (lead > 0 && !((starts >> lead) & 1u))
    lead--;
  uint32_t group = 0;
  for (uint32_t o = lead; o < 32 && (o == lead || !((starts >> o) & 1u)); o++)
    group |= 1u << o;
  rpkt_t *p = &exp->q[exp->n++];
  assert_true(exp->n <= RQ);
  p->n = 0;
  p->group = group;
  if (emit == 2)
    p->tok[p->n++] = D(x >> 8);
  if (emit >= 1)
    p->tok[p->n++] = D(x & 0xFFu);
  for (uint32_t k = pos; k < n; k++)
    p->tok[p->n++] = t[k];
  cnt->pkt++;
  if (TKIND(t[n - 1]) == K_ERR)
    cnt->cut++;
}

static uint32_t ready_random(sw_t *w, uint32_t p) {
  (void)p;
  return madpost_rng_chance(&w->rng, 3, 4);
}

static rcnt_t g_rtot; /* totals over the random runs: every kind of event must occur */
static uint64_t g_rwait; /* slice-cycles in WAIT with an older waiting slice (age row not 0) */

/* The scoreboard's random configuration: ascending limits over [0, ~700], holes, groups. Returns
   the last limit. */
static uint32_t scoreboard_setup(madpost_rng_t *r, c104_setup_t *s) {
  c104_setup_default(s);
  uint32_t lim = 0;
  s->nint = 1 + madpost_rng_below(r, 32);
  for (uint32_t e = 0; e < s->nint; e++) {
    lim += madpost_rng_below(r, 40);
    s->ival[e].hi = lim;
    s->ival[e].port = madpost_rng_below(r, 32);
    s->ival[e].valid = madpost_rng_chance(r, 4, 5);
    if (madpost_rng_chance(r, 1, 10) && e > 0)
      s->ival[e].hi = s->ival[e - 1].hi - (s->ival[e - 1].hi > 0); /* never reached */
  }
  s->grp = 1;
  for (uint32_t q = 1; q < 32; q++)
    if (madpost_rng_chance(r, 1, 3))
      s->grp |= 1u << q;
  s->rr = madpost_rng_below(r, 2);
  for (uint32_t p = 0; p < C104_PORTS; p++) {
    s->port[p].hdr2 = madpost_rng_below(r, 2);
    s->port[p].del = madpost_rng_below(r, 4);
    s->port[p].rnd = madpost_rng_chance(r, 1, 6);
    s->port[p].rlo = madpost_rng_below(r, lim + 30);
    s->port[p].rhi =
        s->port[p].rlo + madpost_rng_below(r, 60) - (madpost_rng_chance(r, 1, 10) ? 70 : 0);
    s->port[p].rhi &= 0xFFFF;
    s->port[p].seed = madpost_rng_below(r, 65536);
  }
  return lim;
}

/* Item k of input i into t: a stray token, a packet short or cut inside its hbytes-byte header,
   or a packet (header mostly within the table's span, source and sequence, random length, EOP,
   EOM or ERR). Returns its length in tokens. */
static uint32_t random_item(madpost_rng_t *r, uint32_t i, uint32_t k, uint32_t H, uint32_t hbytes,
                            uint32_t lim, uint16_t *t) {
  uint32_t n = 0;
  const uint32_t kind = madpost_rng_below(r, 20);
  if (kind == 0) {
    t[n++] = TK(1 + madpost_rng_below(r, 3), 0); /* stray */
  } else if (kind == 1 && hbytes > 1) {
    const uint32_t cut = 1 + madpost_rng_below(r, hbytes - 1); /* short or cut inside the header */
    for (uint32_t b = 0; b < cut; b++)
      t[n++] = D(madpost_rng_below(r, 256));
    t[n++] = TK(1 + madpost_rng_below(r, 3), 0);
  } else {
    for (uint32_t b = 0; b < hbytes; b++) {
      /* header bytes: mostly within the table's span */
      const uint32_t x = madpost_rng_below(r, lim + 40);
      t[n++] = D(H == 2 && (b % 2) == 0 ? x >> 8 : x & 0xFF);
    }
    t[n++] = D(i);       /* source and sequence: delivered packets are unique */
    t[n++] = D(k);
    const uint32_t len =
        madpost_rng_chance(r, 1, 8) ? 30 + madpost_rng_below(r, 40) : madpost_rng_below(r, 6);
    for (uint32_t b = 0; b < len; b++)
      t[n++] = D(madpost_rng_below(r, 256));
    t[n++] = TK(1 + madpost_rng_below(r, 3), 0); /* EOP, EOM, or ERR after >= 2 data bytes */
  }
  return n;
}

/* Traffic: per input 25 items, offered with random gaps, each run through the reference
   (expected packets, counters, LFSR). */
static void random_traffic(sw_t *w, madpost_rng_t *r, uint32_t lim, rexp_t *exp, rcnt_t *want,
                           uint32_t *lfsr) {
  for (uint32_t i = 0; i < C104_PORTS; i++) {
    long at = madpost_rng_below(r, 50);
    const uint32_t cp = w->st.r.cfg_port[i], H = (cp & 1u) ? 2u : 1u;
    const uint32_t del = ((cp >> 1) & 3u) == 2 ? 2 : 0;
    const uint32_t hbytes = (cp & 8u) ? 0 : (del == 2 ? 2 * H : H);
    for (uint32_t k = 0; k < 25; k++) {
      uint16_t t[80];
      const uint32_t n = random_item(r, i, k, H, hbytes, lim, t);
      ref_item(&w->st.r, i, &lfsr[i], t, n, &exp[i], &want[i]);
      for (uint32_t b = 0; b < n; b++) {
        w->q[i][w->qn[i]++] = (qent_t){t[b], at};
        if (madpost_rng_chance(r, 1, 4))
          at += madpost_rng_below(r, 5);
      }
      at += madpost_rng_below(r, 30);
    }
  }
}

/* Every packet completed at an output since pstart is the next expected packet of some input
   whose group holds that output. */
static void random_match_outputs(sw_t *w, uint64_t seed, rexp_t *exp, size_t *pstart) {
  for (uint32_t o = 0; o < C104_PORTS; o++) {
    if (w->ln[o] == 0 || TKIND(w->log[o][w->ln[o] - 1].tok) == K_DATA || pstart[o] == w->ln[o])
      continue;
    uint16_t t[80];
    const uint32_t n = (uint32_t)(w->ln[o] - pstart[o]);
    CHECKF(n <= 80, "seed %llu: output %u packet of %u tokens", (unsigned long long)seed, o, n);
    for (uint32_t k = 0; k < n; k++)
      t[k] = w->log[o][pstart[o] + k].tok;
    pstart[o] = w->ln[o];
    int found = 0;
    for (uint32_t i = 0; i < C104_PORTS && !found; i++) {
      rexp_t *e = &exp[i];
      if (e->h < e->n && rpkt_eq(&e->q[e->h], t, n)) {
        CHECKF((e->q[e->h].group >> o) & 1u,
               "seed %llu: packet of input %u left by port %u, not in its group 0x%08x",
               (unsigned long long)seed, i, o, e->q[e->h].group);
        e->h++;
        found = 1;
      }
    }
    CHECKF(found, "seed %llu cycle %ld: output %u sent an unexpected packet of %u tokens "
           "(first 0x%03x)", (unsigned long long)seed, w->cyc, o, n, t[0]);
  }
}

/* Every expected packet delivered, the counters and LFSRs as the reference's; adds to g_rtot. */
static void random_check_inputs(const sw_t *w, uint64_t seed, const rexp_t *exp,
                                const rcnt_t *want, const uint32_t *lfsr) {
  for (uint32_t i = 0; i < C104_PORTS; i++) {
    CHECKF(exp[i].h == exp[i].n, "seed %llu: input %u: %u of %u packets delivered",
           (unsigned long long)seed, i, exp[i].h, exp[i].n);
    CHECKF(w->st.r.cnt_pkt[i] == want[i].pkt && w->st.r.cnt_bad[i] == want[i].bad &&
               w->st.r.cnt_short[i] == want[i].shrt && w->st.r.cnt_cut[i] == want[i].cut &&
               w->st.r.cnt_stray[i] == want[i].stray,
           "seed %llu input %u: counters pkt %u bad %u short %u cut %u stray %u, reference %u %u "
           "%u %u %u", (unsigned long long)seed, i, w->st.r.cnt_pkt[i], w->st.r.cnt_bad[i],
           w->st.r.cnt_short[i], w->st.r.cnt_cut[i], w->st.r.cnt_stray[i], want[i].pkt,
           want[i].bad, want[i].shrt, want[i].cut, want[i].stray);
    assert_int_equal(w->st.r.lfsr[i], lfsr[i]);
    g_rtot.pkt += want[i].pkt;
    g_rtot.bad += want[i].bad;
    g_rtot.shrt += want[i].shrt;
    g_rtot.cut += want[i].cut;
    g_rtot.stray += want[i].stray;
  }
}

static void random_case(uint64_t seed) {
  sw_t *w = sw_new(ALL_TOK);
  madpost_rng_t *r = &w->rng;
  madpost_rng_seed(r, seed, 0);
  w->ready_fn = ready_random;
  c104_setup_t s;
  const uint32_t lim = scoreboard_setup(r, &s);
  c104_setup_load(&s, &w->st);
  static rexp_t exp[C104_PORTS];
  memset(exp, 0, sizeof exp);
  rcnt_t want[C104_PORTS];
  memset(want, 0, sizeof want);
  uint32_t lfsr[C104_PORTS];
  for (uint32_t p = 0; p < C104_PORTS; p++)
    lfsr[p] = w->st.r.lfsr[p];
  random_traffic(w, r, lim, exp, want, lfsr);
  /* run until every input is drained and every output idle */
  size_t pstart[C104_PORTS] = {0};
  long quiet = 0;
  while (quiet < 50) {
    CHECKF(w->cyc < 200000, "seed %llu: traffic stopped (deadlock?)", (unsigned long long)seed);
    sw_step(w);
    for (uint32_t i = 0; i < C104_PORTS; i++)
      g_rwait += w->st.r.age[i] != 0;
    int busy = w->st.r.out_busy != 0;
    for (uint32_t i = 0; i < C104_PORTS; i++)
      busy |= w->qh[i] < w->qn[i] || w->st.r.sl_st[i] != C104_IDLE;
    quiet = busy ? 0 : quiet + 1;
    random_match_outputs(w, seed, exp, pstart);
  }
  random_check_inputs(w, seed, exp, want, lfsr);
  sw_free(w);
}

static void test_random_scoreboard(void **state) {
  (void)state;
  memset(&g_rtot, 0, sizeof g_rtot);
  g_rwait = 0;
  for (uint64_t seed = 1; seed <= 24; seed++)
    random_case(seed);
  CHECKF(g_rtot.pkt > 8000 && g_rtot.bad > 3000 && g_rtot.shrt > 150 && g_rtot.cut > 2000 &&
             g_rtot.stray > 500,
         "random runs too tame: pkt %u bad %u short %u cut %u stray %u", g_rtot.pkt, g_rtot.bad,
         g_rtot.shrt, g_rtot.cut, g_rtot.stray);
  CHECKF(g_rwait > 50000, "random runs: %llu slice-cycles queued behind others",
         (unsigned long long)g_rwait);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reset_values),
      cmocka_unit_test(test_cfg_defaults),
      cmocka_unit_test(test_lookup),
      cmocka_unit_test(test_route_1byte_latency),
      cmocka_unit_test(test_route_2byte),
      cmocka_unit_test(test_delete_route_then_strip),
      cmocka_unit_test(test_delete_strip_then_route),
      cmocka_unit_test(test_lfsr),
      cmocka_unit_test(test_universal),
      cmocka_unit_test(test_universal_loopback),
      cmocka_unit_test(test_hunt_group),
      cmocka_unit_test(test_fifo_order),
      cmocka_unit_test(test_round_robin),
      cmocka_unit_test(test_bad_header),
      cmocka_unit_test(test_short_stray),
      cmocka_unit_test(test_err_wait_withdraw),
      cmocka_unit_test(test_err_forward),
      cmocka_unit_test(test_cfg_port),
      cmocka_unit_test(test_dslink_ports),
      cmocka_unit_test(test_output_link_down),
      cmocka_unit_test(test_random_scoreboard),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
