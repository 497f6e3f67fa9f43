/* cmocka tests of the C104 networks (docs/c104.md §17, §18): the §18.2 transit times and §18.3
 * single-packet costs exactly, every table route walked from every switch, conservation and zero
 * error counters on grids and PUMA with universal routing on and off, every traffic pattern,
 * saturation, determinism, configuration errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <madpost/c104_net.h>

#include "check.h"

typedef struct {
  c104_net_pkt_t p[4096];
  int n;
} plog_t;

static void on_pkt(void *ctx, const c104_net_pkt_t *p) {
  plog_t *l = ctx;
  if (l->n < 4096)
    l->p[l->n++] = *p;
}

/* Conservation and zero error counters of a hand-driven run. */
static void check_run_counts(const c104_net_result_t *r, const char *what) {
  CHECKF(r->accepted == r->delivered + r->in_flight && r->generated == r->accepted,
         "%s: generated %llu accepted %llu delivered %llu in flight %llu", what,
         (unsigned long long)r->generated, (unsigned long long)r->accepted,
         (unsigned long long)r->delivered, (unsigned long long)r->in_flight);
  CHECKF(r->sw_bad + r->sw_short + r->sw_cut + r->sw_stray + r->node_misrouted + r->node_bad +
                 r->node_cut + r->link_errs + r->corrupt + r->track_errs + r->dropped_novl == 0,
         "%s: errors counted", what);
}

/* A pair (s = 0) or line of s switches, K VLs between the two endpoints, H forced to hbytes (0:
   automatic, 1 here), idle for C104_NET_LINE_IDLE (400) cycles. */
static c104_net_t *line_net_k(uint32_t s, uint32_t vls, uint32_t hbytes, plog_t *log) {
  const c104_net_line_t l = {.switches = s, .vls = vls, .hbytes = hbytes, .qlimit = 1000};
  c104_net_t *w;
  char err[256];
  CHECKF(c104_net_new_line(&l, on_pkt, log, &w, err, sizeof err) == 0, "%s", err);
  assert_int_equal(c104_net_hbytes(w), hbytes ? hbytes : 1);
  assert_int_equal(c104_net_vls(w), vls ? vls : 1);
  assert_int_equal(c104_net_cycle(w), C104_NET_LINE_IDLE);
  return w;
}

static c104_net_t *line_net(uint32_t s, plog_t *log) { return line_net_k(s, 1, 0, log); }

/* §18.2: transit (header loaded onto the sender's wire .. EOM popped) is 17 + 10m direct and
   33 + 10m through one C104 (H = 1, one VL), messages sent one at a time into an idle network.
   The doc's "one message in four is 4 cycles later" for m >= 3: here the 4th message (m = 3), whose
   header waits behind an FCT of the sender's. Also 49 + 10m through two switches (16 per switch). */
static void test_transit(void **state) {
  (void)state;
  for (uint32_t s = 0; s <= 2; s++) {
    plog_t *log = calloc(1, sizeof *log);
    c104_net_t *w = line_net(s, log);
    for (uint32_t m = 0; m <= 6; m++) {
      const int n0 = log->n;
      assert_int_equal(c104_net_send(w, 0, 0, m), 0);
      while (log->n < n0 + 2) /* the data packet and its acknowledgement */
        assert_int_equal(c104_net_step(w), 0);
      const c104_net_pkt_t *d = log->p[n0].ack ? &log->p[n0 + 1] : &log->p[n0];
      CHECKF(!d->ack && d->src == 0 && d->dst == 1, "packet order");
      const long transit = (long)(d->t_deliver - d->t_out);
      const long want = 17 + 16 * (long)s + 10 * (long)m + (m == 3 ? 4 : 0);
      CHECKF(transit == want, "s=%u m=%u: transit %ld cycles, §18.2 gives %ld", s, m, transit,
             want);
      CHECKF(d->t_int == (s >= 2 ? d->t_int : UINT64_MAX), "no internal link unless s >= 2");
      for (int k = 0; k < 37; k++)
        assert_int_equal(c104_net_step(w), 0);
    }
    c104_net_free(w);
    free(log);
  }
}

/* §18.3: single-packet cost T_p on a line of s switches, one VL, back to back: 32-byte packets
   335 for s = 0..8, then 343 (s = 9), 375 (s = 10); 1-byte packets R = 43 + 32 s. Mean period
   over 48 packets (a whole number of the 4-packet FCT cycle). */
static double period(uint32_t s, uint32_t len) {
  plog_t *log = calloc(1, sizeof *log);
  c104_net_t *w = line_net(s, log);
  if (len == 32)
    c104_net_send(w, 0, 0, 32 * 62);
  else
    for (int k = 0; k < 62; k++)
      c104_net_send(w, 0, 0, len);
  uint64_t t[64];
  int n = 0;
  while (log->n < 2 * 60) { /* 60 data packets and their acknowledgements */
    assert_int_equal(c104_net_step(w), 0);
    CHECKF(c104_net_cycle(w) < 200000, "s=%u: stalled", s);
  }
  for (int k = 0; k < log->n && n < 64; k++)
    if (!log->p[k].ack)
      t[n++] = log->p[k].t_out;
  c104_net_free(w);
  free(log);
  return (double)(t[58] - t[10]) / 48.0;
}

static void test_packet_cost(void **state) {
  (void)state;
  const struct {
    uint32_t s, len;
    double want;
  } cases[] = {{0, 32, 335}, {1, 32, 335}, {8, 32, 335}, {9, 32, 343}, {10, 32, 375},
               {0, 1, 43},   {1, 1, 75},   {2, 1, 107},  {3, 1, 139},  {4, 1, 171}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const double p = period(cases[i].s, cases[i].len);
    CHECKF(p == cases[i].want, "s=%u, %u-byte packets: T_p %.3f cycles, §18.3 gives %.0f",
           cases[i].s, cases[i].len, p, cases[i].want);
  }
}

/* cfg vls on a pair or line without a pattern: K parallel VLs, end c of node 0 joined to end c of
   node 1 (docs/c104.md §17). Each end's message arrives on the peer end, every packet is
   acknowledged; two VLs on a line of 12 switches keep the link send-bound (335 cycles per 32-byte
   packet, §18.3 (4)) where one VL is ack-bound (439). */
static void test_parallel_vls(void **state) {
  (void)state;
  plog_t *log = calloc(1, sizeof *log);
  c104_net_t *w = line_net_k(2, 3, 0, log);
  assert_int_equal(c104_net_vl_to(w, 0, 1), 0);
  assert_int_equal(c104_net_vl_to(w, 1, 0), 0);
  for (uint32_t v = 0; v < 3; v++)
    assert_int_equal(c104_net_send(w, 0, v, 10 + v), 0);
  assert_int_equal(c104_net_send(w, 1, 2, 5), 0);
  assert_int_equal(c104_net_send(w, 0, 3, 5), -1); /* no end 3 */
  for (int k = 0; k < 3000; k++)
    assert_int_equal(c104_net_step(w), 0);
  c104_net_result_t r;
  c104_net_result(w, &r);
  check_run_counts(&r, "3 VLs on a line of 2");
  CHECKF(r.delivered == 4 && r.in_flight == 0 && r.vls == 3, "delivered %llu",
         (unsigned long long)r.delivered);
  int data = 0, acks = 0;
  uint32_t got = 0; /* bit 3 dst + end */
  for (int i = 0; i < log->n; i++) {
    const c104_net_pkt_t *p = &log->p[i];
    /* the header names the receiving end: hdr(m, c', a) = 2 (m K + c') + a */
    const uint32_t end = p->hdr / 2 - p->dst * 3;
    CHECKF(p->src != p->dst && p->hdr % 2 == p->ack && end < 3, "packet to node %u end %u",
           p->dst, end);
    if (p->ack) {
      acks++;
      continue;
    }
    data++;
    got |= 1u << (3 * p->dst + end);
  }
  CHECKF(data == 4 && acks == 4, "%d data packets, %d acks", data, acks);
  CHECKF(got == (7u << 3 | 1u << 2), "data arrived on ends %#x (node 1 ends 0-2, node 0 end 2)",
         got);
  c104_net_free(w);
  /* throughput: 64 packets' first loads, 1 VL against 2 on a line of 12 switches */
  for (uint32_t k = 1; k <= 2; k++) {
    memset(log, 0, sizeof *log);
    w = line_net_k(12, k, 0, log);
    for (uint32_t v = 0; v < k; v++)
      assert_int_equal(c104_net_send(w, 0, v, 32 * 64), 0);
    uint64_t t[64];
    int n = 0;
    while (n < 60) {
      assert_int_equal(c104_net_step(w), 0);
      n = 0;
      for (int i = 0; i < log->n && n < 64; i++)
        if (!log->p[i].ack)
          t[n++] = log->p[i].t_out;
    }
    const double per = (double)(t[58] - t[10]) / 48.0;
    CHECKF(per == (k == 1 ? 439.0 : 335.0), "%u VLs, s = 12: %.3f cycles per packet", k, per);
    c104_net_free(w);
  }
  free(log);
}

/* cfg hbytes = 2 forces 2-byte headers where 1 would do (§17): the endpoints and switches agree,
   every packet arrives; the send bound is 345.5 cycles (§18.3). A 0-byte message takes 27 cycles
   directly (17 + 10 for the second header byte) and 59 through one C104: 32 per switch, i.e.
   delta = 10h + 5 + w with w = 7 at H = 2 (w = 1 at H = 1; measured, docs/c104.md §18.3). */
static void test_hbytes(void **state) {
  (void)state;
  for (uint32_t s = 0; s <= 1; s++) {
    plog_t *log = calloc(1, sizeof *log);
    c104_net_t *w = line_net_k(s, 1, 2, log);
    assert_int_equal(c104_net_send(w, 0, 0, 0), 0);
    while (log->n < 2)
      assert_int_equal(c104_net_step(w), 0);
    const c104_net_pkt_t *d = log->p[0].ack ? &log->p[1] : &log->p[0];
    const long transit = (long)(d->t_deliver - d->t_out);
    CHECKF(transit == (s ? 59 : 27), "H = 2, s = %u: transit %ld", s, transit);
    assert_int_equal(c104_net_send(w, 0, 0, 32 * 62), 0);
    const int n0 = log->n;
    while (log->n < n0 + 2 * 60)
      assert_int_equal(c104_net_step(w), 0);
    uint64_t t[64];
    int n = 0;
    for (int k = n0; k < log->n && n < 64; k++)
      if (!log->p[k].ack)
        t[n++] = log->p[k].t_out;
    const double per = (double)(t[58] - t[10]) / 48.0;
    CHECKF(per == 345.5, "H = 2, s = %u: T_p %.3f", s, per);
    c104_net_result_t r;
    c104_net_result(w, &r);
    check_run_counts(&r, "H = 2");
    assert_int_equal(r.hbytes, 2);
    c104_net_free(w);
    free(log);
  }
}

/* Every header from every switch: the tables (c104_lookup on the loaded registers) and the
   wiring take a node header to its node and a random header to its switch's loopback. */
static void walk_links(c104_net_topo_e topo, uint32_t gw, uint32_t gh, uint32_t uni,
                       uint32_t links) {
  c104_net_cfg_t c;
  c104_net_cfg_default(&c);
  c.topo = topo, c.gw = gw, c.gh = gh, c.universal = uni, c.grid_links = links;
  c104_net_t *w;
  char err[256];
  CHECKF(c104_net_new(&c, 3, &w, err, sizeof err) == 0, "%s", err);
  const uint32_t S = c104_net_switches(w), N = c104_net_nodes(w), K = c104_net_vls(w);
  const uint32_t R0 = c104_net_rbase(w);
  uint64_t walked = 0;
  for (uint32_t s0 = 0; s0 < S; s0++) {
    assert_true(c104_net_setup(w, s0)->nint <= 32);
    for (uint32_t h = 0; h < R0 + (uni ? S : 0); h++) {
      uint32_t s = s0, hops = 0;
      for (;;) {
        uint32_t port, leader;
        CHECKF(c104_lookup(&c104_net_sw_state(w, s)->r, h, &port, &leader), "switch %u: header %u "
               "has no route", s, h);
        const c104_net_end_t e = c104_net_sw_peer(w, s, port);
        CHECKF(e.kind != C104_END_NONE, "switch %u: header %u routed to unused port %u", s, h,
               port);
        /* every member of the hunt group leads where the leader does */
        const uint32_t gm = c104_group_mask(c104_net_setup(w, s)->grp, leader);
        for (uint32_t q = 0; q < 32; q++)
          if ((gm >> q) & 1u) {
            const c104_net_end_t eq = c104_net_sw_peer(w, s, q);
            CHECKF(eq.kind == e.kind && eq.idx == e.idx, "switch %u: group of port %u: port %u "
                   "leads elsewhere", s, leader, q);
          }
        if (e.kind == C104_END_NODE) {
          CHECKF(h < R0 && e.idx == (h >> 1) / K, "header %u from switch %u reached node %u", h,
                 s0, e.idx);
          break;
        }
        if (e.idx == s && e.port == port) { /* the loopback: only random headers, at their switch */
          CHECKF(h >= R0 && h - R0 == s, "header %u looped back at switch %u", h, s);
          break;
        }
        s = e.idx;
        CHECKF(++hops <= 64, "header %u from switch %u loops", h, s0);
      }
      walked++;
    }
  }
  CHECKF(walked == (uint64_t)S * (2 * N * K + (uni ? S : 0)), "walked %llu",
         (unsigned long long)walked);
  c104_net_free(w);
}

static void walk_all(c104_net_topo_e topo, uint32_t gw, uint32_t gh, uint32_t uni) {
  walk_links(topo, gw, gh, uni, 0);
}

static void test_routes(void **state) {
  (void)state;
  for (uint32_t uni = 0; uni <= 1; uni++) {
    walk_all(C104_NET_GRID, 4, 4, uni);
    walk_all(C104_NET_GRID, 5, 3, uni);
    walk_all(C104_NET_GRID, 8, 8, uni);
    walk_all(C104_NET_PUMA, 0, 0, uni);
  }
  walk_all(C104_NET_LINE, 0, 0, 0);
  walk_links(C104_NET_GRID, 5, 3, 0, 2); /* two links to each neighbour, hunt groups of two */
  walk_links(C104_NET_GRID, 8, 8, 1, 2);
}

static void check_run(const c104_net_result_t *r, const char *what) {
  CHECKF(r->generated == r->accepted + r->dropped_qlimit + r->dropped_novl,
         "%s: generated %llu != accepted %llu + dropped %llu + %llu", what,
         (unsigned long long)r->generated, (unsigned long long)r->accepted,
         (unsigned long long)r->dropped_qlimit, (unsigned long long)r->dropped_novl);
  CHECKF(r->accepted == r->delivered + r->in_flight,
         "%s: accepted %llu != delivered %llu + in flight %llu", what,
         (unsigned long long)r->accepted, (unsigned long long)r->delivered,
         (unsigned long long)r->in_flight);
  CHECKF(r->sw_bad + r->sw_short + r->sw_cut + r->sw_stray == 0, "%s: switch errors %llu %llu "
         "%llu %llu", what, (unsigned long long)r->sw_bad, (unsigned long long)r->sw_short,
         (unsigned long long)r->sw_cut, (unsigned long long)r->sw_stray);
  CHECKF(r->node_misrouted + r->node_bad + r->node_cut + r->link_errs + r->corrupt +
                 r->track_errs + r->dropped_novl == 0,
         "%s: errors misrouted %llu bad %llu cut %llu link %llu corrupt %llu tracking %llu", what,
         (unsigned long long)r->node_misrouted, (unsigned long long)r->node_bad,
         (unsigned long long)r->node_cut, (unsigned long long)r->link_errs,
         (unsigned long long)r->corrupt, (unsigned long long)r->track_errs);
  CHECKF(r->w_delivered > 0 && r->delivered > 0, "%s: nothing delivered", what);
}

static c104_net_result_t run(c104_net_cfg_t *c, uint64_t seed, const char *what) {
  c104_net_result_t r;
  char err[256];
  CHECKF(c104_net_run(c, seed, &r, NULL, NULL, err, sizeof err) == 0, "%s: %s", what, err);
  check_run(&r, what);
  return r;
}

static void test_conservation(void **state) {
  (void)state;
  c104_net_cfg_t c;
  c104_net_cfg_default(&c);
  c.warmup = 2000, c.measure = 6000, c.load = 40;
  for (uint32_t uni = 0; uni <= 1; uni++) {
    c.universal = uni;
    c.topo = C104_NET_GRID, c.gw = 4, c.gh = 4;
    c104_net_result_t r = run(&c, 5, uni ? "grid 4x4 universal" : "grid 4x4");
    CHECKF(r.vls == 15 && !r.circulant && r.hbytes == 2, "grid: K %u", r.vls);
    CHECKF(r.life_routed.n > 0 && r.w_unrouted == 0, "every grid packet crosses a switch link "
           "(%llu did not)", (unsigned long long)r.w_unrouted);
    c.topo = C104_NET_PUMA, c.warmup = 1000, c.measure = 2500, c.load = 30;
    r = run(&c, 5, uni ? "puma universal" : "puma");
    CHECKF(r.vls == 16 && r.circulant && r.nodes == 256, "puma: K %u", r.vls);
    c.warmup = 2000, c.measure = 6000, c.load = 40;
  }
}

static void test_patterns(void **state) {
  (void)state;
  c104_net_cfg_t c;
  c104_net_cfg_default(&c);
  c.warmup = 1000, c.measure = 4000, c.load = 40;
  c.topo = C104_NET_GRID, c.gw = 4, c.gh = 4;
  for (uint32_t p = 0; p < NET_TR_COUNT; p++) {
    c.pattern = p;
    char what[64];
    snprintf(what, sizeof what, "pattern %s", net_pattern_name((net_pattern_e)p));
    c104_net_result_t r = run(&c, 2, what);
    if (p == NET_TR_LOCAL)
      CHECKF(r.vls >= 14, "local: K %u", r.vls);
    if (p >= NET_TR_SHUFFLE && p <= NET_TR_BITCOMP)
      CHECKF(r.vls == 2, "permutation: K %u", r.vls);
  }
  /* other arrival processes, a longer message (several packets), round-robin */
  c.pattern = NET_TR_UNIFORM;
  c.arrival.kind = NET_ARR_BURSTY;
  c.msg_len = 100;
  c.rr = 1;
  run(&c, 3, "bursty, 100-byte messages, round-robin");
  c.arrival.kind = NET_ARR_UNIFORM;
  c.msg_len = 32;
  c.iat = 500;
  run(&c, 3, "uniform arrivals, iat 500");
}

/* The transpose on a w x w grid, universal routing on or off, at load percent, run for warmup +
   measure cycles: the bottleneck the VL and grid-link tests widen. */
static void transpose_cfg(c104_net_cfg_t *c, uint32_t w, uint32_t universal, double load,
                          uint64_t warmup, uint64_t measure) {
  c104_net_cfg_default(c);
  c->topo = C104_NET_GRID, c->gw = w, c->gh = w;
  c->pattern = NET_TR_TRANSPOSE, c->universal = universal, c->load = load;
  c->warmup = warmup, c->measure = measure;
}

/* A permutation with K = 2j: node n's sending ends 0, 2, .., K - 2 all lead to pi(n) and are
   taken in turn, so j packets of a node are in flight at once; at a load one VL cannot carry
   (its acknowledgement round trip bounds it), K = 8 delivers clearly more than K = 2. */
static void test_perm_vls(void **state) {
  (void)state;
  c104_net_cfg_t c;
  transpose_cfg(&c, 4, 1, 100, 2000, 6000);
  c.vls = 2;
  const c104_net_result_t r2 = run(&c, 1, "transpose K = 2");
  c.vls = 8;
  const c104_net_result_t r8 = run(&c, 1, "transpose K = 8");
  CHECKF(r8.vls == 8 && r8.w_delivered * 4 >= r2.w_delivered * 5,
         "K = 8 delivered %llu, K = 2 %llu", (unsigned long long)r8.w_delivered,
         (unsigned long long)r2.w_delivered);
}

/* Grid links (§17.1): without universal routing, a second link to each neighbour as a hunt group
   of two carries the transpose's bottleneck twice as fast (8x8, K = 8, a load past what one link
   carries); grid links 1 with universal routing is refused. */
static void test_grid_links(void **state) {
  (void)state;
  c104_net_cfg_t c;
  transpose_cfg(&c, 8, 0, 50, 3000, 8000);
  c.vls = 8;
  c.grid_links = 1;
  const c104_net_result_t r1 = run(&c, 1, "transpose, one link per neighbour");
  c.grid_links = 2;
  const c104_net_result_t r2 = run(&c, 1, "transpose, hunt groups of two");
  CHECKF(r2.w_delivered * 2 >= r1.w_delivered * 3, "two links delivered %llu, one %llu",
         (unsigned long long)r2.w_delivered, (unsigned long long)r1.w_delivered);
  c.universal = 1, c.grid_links = 1;
  char err[256];
  CHECKF(c104_net_cfg_check(&c, err, sizeof err) == -1 && strstr(err, "grid links 1"), "%s", err);
  c.grid_links = 3, c.universal = 0;
  CHECKF(c104_net_cfg_check(&c, err, sizeof err) == -1 && strstr(err, "grid links 3"), "%s", err);
}

/* Saturation: a small queue limit and a load above what a node can send: failures counted, and
   conservation still exact. */
static void test_saturation(void **state) {
  (void)state;
  c104_net_cfg_t c;
  c104_net_cfg_default(&c);
  c.topo = C104_NET_GRID, c.gw = 3, c.gh = 3;
  c.warmup = 1000, c.measure = 4000, c.load = 400, c.qlimit = 4;
  c104_net_result_t r = run(&c, 1, "saturated 3x3");
  CHECKF(r.dropped_qlimit > 0 && r.w_dropped > 0, "no saturation failures at load 400");
}

static void test_determinism(void **state) {
  (void)state;
  c104_net_cfg_t c;
  c104_net_cfg_default(&c);
  c.topo = C104_NET_GRID, c.gw = 3, c.gh = 4, c.universal = 1;
  c.warmup = 500, c.measure = 3000, c.load = 50;
  c104_net_result_t a = run(&c, 9, "seed 9"), b = run(&c, 9, "seed 9 again");
  c.seeds = 7; /* a tool's option: no effect on one run */
  c104_net_result_t d = run(&c, 9, "seed 9, seeds 7");
  assert_memory_equal(&a, &b, sizeof a);
  assert_memory_equal(&a, &d, sizeof a);
  c104_net_result_t e = run(&c, 10, "seed 10");
  CHECKF(memcmp(&a, &e, sizeof a) != 0 && a.generated != e.generated, "seeds 9 and 10 agree");
}

static void bad_cfg(c104_net_cfg_t *c, const char *want) {
  char err[300] = "";
  CHECKF(c104_net_cfg_check(c, err, sizeof err) == -1, "accepted, want '%s'", want);
  CHECKF(strstr(err, want) != NULL, "message '%s' lacks '%s'", err, want);
  c104_net_t *w = NULL;
  CHECKF(c104_net_new(c, 1, &w, err, sizeof err) == -1 && w == NULL, "built anyway");
}

static void test_config_errors(void **state) {
  (void)state;
  c104_net_cfg_t c;
  c104_net_cfg_default(&c);
  c.topo = C104_NET_PUMA, c.pattern = NET_TR_HOTSPOT;
  bad_cfg(&c, "hotspot needs all-to-all");
  c.pattern = NET_TR_LOCAL;
  bad_cfg(&c, "local needs the grid");
  c.pattern = NET_TR_UNIFORM, c.vls = 15;
  bad_cfg(&c, "K even");
  c.vls = 200;
  bad_cfg(&c, "exceed the 65536");
  c104_net_cfg_default(&c);
  c.topo = C104_NET_PAIR, c.universal = 1;
  bad_cfg(&c, "universal routing needs the grid or puma");
  c104_net_cfg_default(&c);
  c.gw = 4, c.gh = 2, c.pattern = NET_TR_TRANSPOSE;
  bad_cfg(&c, "square");
  c104_net_cfg_default(&c);
  c.gw = 33;
  bad_cfg(&c, "grid 33x4");
  c104_net_cfg_default(&c);
  c.qlimit = 0;
  bad_cfg(&c, "qlimit");
  c104_net_cfg_default(&c);
  c.gw = 16, c.gh = 16, c.vls = 0; /* 256 nodes: uniform falls back to the circulant */
  char err[300];
  assert_int_equal(c104_net_cfg_check(&c, err, sizeof err), 0);
  c.pattern = NET_TR_HOTSPOT;
  bad_cfg(&c, "at most 181 nodes");
  /* the load's unit: a 32-byte message with 2-byte headers is 10 (2 + 32) + 4 cycles */
  c104_net_cfg_default(&c);
  c.hbytes = 3;
  bad_cfg(&c, "hbytes 3: must be 0");
  c.topo = C104_NET_PUMA, c.hbytes = 1;
  bad_cfg(&c, "hbytes 1: 1-byte headers reach 255");
  c.hbytes = 2;
  assert_int_equal(c104_net_cfg_check(&c, err, sizeof err), 0);
  c104_net_cfg_default(&c);
  c.topo = C104_NET_LINE, c.pattern = C104_NET_PATTERN_NONE, c.vls = 64, c.hbytes = 1;
  assert_int_equal(c104_net_cfg_check(&c, err, sizeof err), 0); /* 4 K = 256 headers: H = 1 */
  c.vls = 65;
  bad_cfg(&c, "hbytes 1: 1-byte headers reach 255");
  assert_true(c104_net_msg_cycles(32, 2) == 344.0);
  assert_true(c104_net_msg_cycles(0, 1) == 14.0);
  assert_true(c104_net_msg_cycles(70, 1) == 10.0 * 73 + 12);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_transit),      cmocka_unit_test(test_packet_cost),
      cmocka_unit_test(test_routes),       cmocka_unit_test(test_config_errors),
      cmocka_unit_test(test_conservation), cmocka_unit_test(test_patterns),
      cmocka_unit_test(test_saturation),   cmocka_unit_test(test_perm_vls),   cmocka_unit_test(test_grid_links),
      cmocka_unit_test(test_determinism),  cmocka_unit_test(test_parallel_vls),
      cmocka_unit_test(test_hbytes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
