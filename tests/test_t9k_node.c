/* cmocka tests of the T9000-style endpoint (docs/c104.md §16, include/madpost/t9k_node.h): the timing of
 * include/madpost/t9k.h cycle for cycle, two nodes over C DS-Link ends, several links, packetisation,
 * acknowledgements ahead of data, one outstanding packet per VL, the error counters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <madpost/dslink.h>
#include <madpost/t9k.h>
#include <madpost/t9k_node.h>

#include "check.h"

enum { K_DATA = 0, K_EOP = 1, K_EOM = 2, K_ERR = 3, LOGMAX = 200000 };

/* ---- Two nodes, P links each, link l of node 0 wired to link l of node 1 ------------------- */

typedef struct {
  uint16_t tok; /* kind << 8 | byte */
  long cyc;
} tlog_t;

typedef struct {
  dslink_cfg_t lc;
  t9k_node_cfg_t cfg[2];
  t9k_node_state_t st[2];
  t9k_node_next_t nx[2];
  dslink_state_t ls[2][T9K_NODE_LINKS_MAX];
  long cyc;
  /* per node: tokens written to its links (per link) and popped */
  tlog_t *wlog[2][T9K_NODE_LINKS_MAX];
  size_t wn[2][T9K_NODE_LINKS_MAX];
  tlog_t *rlog[2][T9K_NODE_LINKS_MAX];
  size_t rn[2][T9K_NODE_LINKS_MAX];
  /* workload: per node, messages to offer (vl, len) in order, one per cycle while below qlimit */
  t9k_node_msg_t *todo[2];
  size_t todo_n[2], todo_i[2];
  long start;
  /* checks */
  uint64_t msgs_rcvd[2], acks_first, data_sel;
  uint32_t unacked_violations, ack_behind;
  int out_pkts[2][128]; /* data packets out and not acknowledged, per end */
} pair_t;

static pair_t *pair_new(uint32_t K, uint32_t P, uint32_t H, uint32_t qlimit) {
  pair_t *w = calloc(1, sizeof *w);
  dslink_cfg_default(&w->lc);
  w->lc.rx_depth = 40;
  w->lc.tx_credit_max = 40;
  w->lc.tx_depth = 35;
  char err[200];
  for (int i = 0; i < 2; i++) {
    w->cfg[i] = (t9k_node_cfg_t){.node = (uint32_t)i, .nnodes = 2, .nvl = K, .nlinks = P,
                                 .hbytes = H, .qlimit = qlimit};
    CHECKF(t9k_node_init(&w->cfg[i], &w->st[i], &w->nx[i], err, sizeof err) == 0, "%s", err);
    for (uint32_t l = 0; l < P; l++) {
      dslink_reset(&w->lc, &w->ls[i][l]);
      w->wlog[i][l] = calloc(LOGMAX, sizeof(tlog_t));
      w->rlog[i][l] = calloc(LOGMAX, sizeof(tlog_t));
    }
  }
  for (uint32_t c = 0; c < K; c++) { /* end c of node 0 <-> end K-1-c of node 1 */
    t9k_node_set_peer(&w->cfg[0], &w->st[0], c, 1, K - 1 - c);
    t9k_node_set_peer(&w->cfg[1], &w->st[1], K - 1 - c, 0, c);
  }
  return w;
}

static void pair_free(pair_t *w) {
  for (int i = 0; i < 2; i++) {
    t9k_node_free(&w->st[i], &w->nx[i]);
    for (uint32_t l = 0; l < T9K_NODE_LINKS_MAX; l++) {
      free(w->wlog[i][l]);
      free(w->rlog[i][l]);
    }
    free(w->todo[i]);
  }
  free(w);
}

static void pair_step(pair_t *w) {
  t9k_node_out_t no[2];
  t9k_node_ev_t ev[2];
  dslink_out_t lo[2][T9K_NODE_LINKS_MAX];
  dslink_next_t ln[2][T9K_NODE_LINKS_MAX];
  const uint32_t P = w->cfg[0].nlinks;
  for (int i = 0; i < 2; i++)
    for (uint32_t l = 0; l < P; l++)
      dslink_outputs(&w->lc, &w->ls[i][l], &lo[i][l]);
  for (int i = 0; i < 2; i++) {
    t9k_node_in_t in = {0};
    t9k_node_msg_t m;
    for (uint32_t l = 0; l < P; l++) {
      in.tx_ready[l] = lo[i][l].tx_ready;
      in.rx_valid[l] = lo[i][l].rx_valid;
      in.rx_data[l] = lo[i][l].rx_data;
      in.rx_kind[l] = lo[i][l].rx_kind;
    }
    if (w->cyc >= w->start && w->todo_i[i] < w->todo_n[i] &&
        w->st[i].r.outstanding < w->cfg[i].qlimit) {
      m = w->todo[i][w->todo_i[i]++];
      in.n_new = 1;
      in.new_msgs = &m;
    }
    /* one outstanding packet per VL: acknowledgements popped in this cycle (E1) count before
       the packets chosen in it (E5) */
    for (uint32_t l = 0; l < P; l++)
      if (in.rx_valid[l] && in.rx_kind[l] == K_EOP && w->st[i].r.r_st[l] == 2 &&
          w->st[i].r.r_vl[l] < 128)
        w->out_pkts[i][w->st[i].r.r_vl[l]]--;
    CHECKF(t9k_node_eval(&w->cfg[i], &w->st[i], &in, &no[i], &w->nx[i], &ev[i]) == 0, "eval");
    for (uint32_t l = 0; l < P; l++) {
      if (ev[i].sel[l] && ev[i].sel_kind[l] == T9K_NODE_DATA) {
        w->data_sel++;
        if (ev[i].sel_vl[l] < 128 && ++w->out_pkts[i][ev[i].sel_vl[l]] > 1)
          w->unacked_violations++;
        if (w->nx[i].r.aq_n[l])
          w->ack_behind++; /* data chosen while an acknowledgement waits: forbidden */
      }
      if (ev[i].sel[l] && ev[i].sel_kind[l] == T9K_NODE_ACK && w->nx[i].r.dq_n[l])
        w->acks_first++; /* an acknowledgement chosen while data waits on the same link */
      if (no[i].tx_valid[l] && in.tx_ready[l] && w->wn[i][l] < LOGMAX)
        w->wlog[i][l][w->wn[i][l]++] =
            (tlog_t){(uint16_t)(no[i].tx_kind[l] << 8 | no[i].tx_data[l]), w->cyc};
      if (in.rx_valid[l] && w->rn[i][l] < LOGMAX)
        w->rlog[i][l][w->rn[i][l]++] =
            (tlog_t){(uint16_t)(in.rx_kind[l] << 8 | in.rx_data[l]), w->cyc};
      if (ev[i].rx_msg[l])
        w->msgs_rcvd[i]++;
    }
  }
  for (int i = 0; i < 2; i++)
    for (uint32_t l = 0; l < P; l++) {
      const dslink_out_t *peer = &lo[1 - i][l];
      dslink_in_t li = {.d = peer->d, .s = peer->s, .link_en = 1, .tx_valid = no[i].tx_valid[l],
                        .tx_data = no[i].tx_data[l], .tx_kind = no[i].tx_kind[l],
                        .rx_ready = no[i].rx_ready[l]};
      dslink_out_t o;
      dslink_ev_t e;
      CHECKF(dslink_eval(&w->lc, &w->ls[i][l], &li, &o, &ln[i][l], &e) == 0, "dslink");
    }
  for (int i = 0; i < 2; i++) {
    t9k_node_clock(&w->st[i], &w->nx[i]);
    for (uint32_t l = 0; l < P; l++)
      dslink_clock(&w->ls[i][l], &ln[i][l]);
  }
  w->cyc++;
}

static void add_msgs(pair_t *w, int i, const t9k_node_msg_t *m, size_t n) {
  w->todo[i] = realloc(w->todo[i], (w->todo_n[i] + n) * sizeof *m);
  memcpy(w->todo[i] + w->todo_n[i], m, n * sizeof *m);
  w->todo_n[i] += n;
}

/* Splits the token log into packets and checks each: header of H bytes naming the expected node,
   at most 32 data bytes, an end token; returns the number of data packets. Data bytes j = 1.. */
static size_t check_packets(const tlog_t *t, size_t n, uint32_t H, uint32_t K, uint32_t to_node,
                            uint32_t *n_acks, uint32_t *n_eom) {
  size_t i = 0, npk = 0;
  *n_acks = *n_eom = 0;
  while (i < n) {
    uint32_t h = 0;
    for (uint32_t k = 0; k < H; k++, i++) {
      CHECKF(i < n && (t[i].tok >> 8) == K_DATA, "header byte missing at token %zu", i);
      h = h << 8 | (t[i].tok & 0xFFu);
    }
    CHECKF(h / 2 / K == to_node, "header %u names node %u, not %u", h, h / 2 / K, to_node);
    uint32_t len = 0;
    while (i < n && (t[i].tok >> 8) == K_DATA) {
      len++;
      CHECKF((t[i].tok & 0xFFu) == (len & 0xFFu), "data byte %u is %u", len, t[i].tok & 0xFFu);
      i++;
    }
    if (i == n)
      break; /* a packet still on its way */
    const uint32_t end = t[i].tok >> 8;
    i++;
    CHECKF(len <= 32, "packet of %u bytes", len);
    if (h & 1u) {
      CHECKF(len == 0 && end == K_EOP, "ack with %u bytes, end %u", len, end);
      (*n_acks)++;
    } else {
      CHECKF(end == K_EOP || end == K_EOM, "end token %u", end);
      CHECKF(end == K_EOM || len == 32, "EOP packet of %u bytes (only full packets end EOP)", len);
      *n_eom += end == K_EOM;
      npk++;
    }
  }
  return npk;
}

/* ---- §16: one link, one VL: the token stream of t9k.h, cycle for cycle ---------------------- */

static void t9k_equivalence(uint32_t msg_len, int both) {
  dslink_cfg_t lc;
  dslink_cfg_default(&lc);
  lc.rx_depth = 40;
  lc.tx_credit_max = 40;
  lc.tx_depth = 35;
  const long start = 300, cycles = 12000;
  /* reference: t9k ends */
  dslink_state_t rl[2];
  t9k_state_t rs[2];
  t9k_cfg_t rc[2];
  for (int i = 0; i < 2; i++) {
    dslink_reset(&lc, &rl[i]);
    t9k_reset(&rc[i], &rs[i]);
    rc[i] = (t9k_cfg_t){.nvl = 1, .send = (i == 0 || both), .msg_len = msg_len,
                        .send_start = (uint64_t)start};
  }
  pair_t *w = pair_new(1, 1, 1, 4);
  w->start = start;
  for (int i = 0; i < 2; i++) {
    if (i == 1 && !both)
      continue;
    t9k_node_msg_t *m = malloc(4000 * sizeof *m);
    for (int k = 0; k < 4000; k++)
      m[k] = (t9k_node_msg_t){0, msg_len};
    add_msgs(w, i, m, 4000);
    free(m);
  }
  uint64_t tokens = 0;
  for (long cyc = 0; cyc < cycles; cyc++) {
    dslink_out_t lo[2];
    t9k_out_t eo[2];
    t9k_next_t en[2];
    t9k_ev_t ev;
    dslink_next_t ln[2];
    for (int i = 0; i < 2; i++)
      dslink_outputs(&lc, &rl[i], &lo[i]);
    for (int i = 0; i < 2; i++) {
      t9k_in_t ei = {lo[i].tx_ready, lo[i].rx_valid, lo[i].rx_data, lo[i].rx_kind};
      t9k_eval(&rc[i], &rs[i], &ei, &eo[i], &en[i], &ev);
    }
    /* the node pair's outputs this cycle, before its step */
    t9k_node_out_t no[2];
    for (int i = 0; i < 2; i++)
      t9k_node_outputs(&w->cfg[i], &w->st[i], &no[i]);
    for (int i = 0; i < 2; i++) {
      CHECKF(no[i].tx_valid[0] == eo[i].tx_valid, "m=%u end %d cycle %ld: tx_valid %u vs t9k %u",
             msg_len, i, cyc, no[i].tx_valid[0], eo[i].tx_valid);
      if (!eo[i].tx_valid)
        continue;
      CHECKF(no[i].tx_kind[0] == eo[i].tx_kind, "m=%u end %d cycle %ld: kind %u vs %u", msg_len,
             i, cyc, no[i].tx_kind[0], eo[i].tx_kind);
      const int header = rs[i].tx_pos == 0;
      CHECKF(header == (w->st[i].r.t_pos[0] == 0), "cycle %ld: header position differs", cyc);
      if (!header)
        CHECKF(no[i].tx_data[0] == eo[i].tx_data, "m=%u end %d cycle %ld: data %u vs %u", msg_len,
               i, cyc, no[i].tx_data[0], eo[i].tx_data);
      tokens += lo[i].tx_ready;
    }
    for (int i = 0; i < 2; i++) {
      dslink_in_t li = {.d = lo[1 - i].d, .s = lo[1 - i].s, .link_en = 1,
                        .tx_valid = eo[i].tx_valid, .tx_data = eo[i].tx_data,
                        .tx_kind = eo[i].tx_kind, .rx_ready = eo[i].rx_ready};
      dslink_out_t o;
      dslink_ev_t e;
      dslink_eval(&lc, &rl[i], &li, &o, &ln[i], &e);
    }
    for (int i = 0; i < 2; i++) {
      dslink_clock(&rl[i], &ln[i]);
      t9k_clock(&rs[i], &en[i]);
    }
    pair_step(w);
  }
  CHECKF(tokens > 1000, "m=%u: only %llu tokens compared", msg_len, (unsigned long long)tokens);
  CHECKF(w->msgs_rcvd[1] == rs[1].msgs_rcvd, "m=%u: messages %llu vs t9k %llu", msg_len,
         (unsigned long long)w->msgs_rcvd[1], (unsigned long long)rs[1].msgs_rcvd);
  CHECKF(w->msgs_rcvd[1] >= 5, "m=%u: %llu messages", msg_len, (unsigned long long)w->msgs_rcvd[1]);
  pair_free(w);
}

static void test_t9k_timing(void **state) {
  (void)state;
  const uint32_t lens[] = {0, 1, 5, 31, 32, 33, 64, 100};
  for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
    t9k_equivalence(lens[i], 0);
    t9k_equivalence(lens[i], 1);
  }
}

/* ---- Two nodes back to back: delivery, packetisation, acks first, one packet per VL ---------- */

static void run_pair(uint32_t K, uint32_t P, uint32_t H, const uint32_t *lens, size_t nlen) {
  pair_t *w = pair_new(K, P, H, 16);
  w->start = 200;
  uint64_t bytes[2] = {0, 0};
  size_t nmsg[2] = {0, 0};
  for (int i = 0; i < 2; i++) {
    t9k_node_msg_t m[100];
    for (int k = 0; k < 100; k++) {
      m[k] = (t9k_node_msg_t){(uint32_t)(k * 7 + i) % K, lens[(size_t)(k + i) % nlen]};
      bytes[i] += m[k].len;
    }
    add_msgs(w, i, m, 100);
    nmsg[i] = 100;
  }
  /* 10 cycles a byte on the wire, plus headers, end tokens and round trips */
  const long cycles = (long)((bytes[0] > bytes[1] ? bytes[0] : bytes[1]) * 14 / P) + 20000;
  for (long c = 0; c < cycles; c++)
    pair_step(w);
  for (int i = 0; i < 2; i++) {
    const t9k_node_regs_t *r = &w->st[i].r;
    CHECKF(r->msgs_rcvd == nmsg[1 - i], "node %d received %llu of %zu messages (run longer?)", i,
           (unsigned long long)r->msgs_rcvd, nmsg[1 - i]);
    CHECKF(r->bytes_rcvd == bytes[1 - i], "node %d bytes %llu of %llu", i,
           (unsigned long long)r->bytes_rcvd, (unsigned long long)bytes[1 - i]);
    CHECKF(r->msgs_sent == nmsg[i] && r->outstanding == 0, "node %d sent %llu, outstanding %u", i,
           (unsigned long long)r->msgs_sent, r->outstanding);
    assert_int_equal(r->misrouted + r->bad + r->cut + r->msgs_dropped + r->msgs_nopeer, 0);
    /* every data packet acknowledged once, on the link it came in on */
    uint64_t data = 0, acks = 0;
    for (uint32_t l = 0; l < P; l++) {
      uint32_t na, ne;
      data += check_packets(w->wlog[i][l], w->wn[i][l], H, K, 1u - (uint32_t)i, &na, &ne);
      acks += na;
      uint32_t ra, re;
      const size_t rd = check_packets(w->rlog[1 - i][l], w->rn[1 - i][l], H, K, 1u - (uint32_t)i,
                                      &ra, &re);
      uint32_t back_a, back_e;
      const size_t back = check_packets(w->wlog[1 - i][l], w->wn[1 - i][l], H, K, (uint32_t)i,
                                        &back_a, &back_e);
      (void)back;
      CHECKF(back_a == rd, "link %u: %u acks back for %zu data packets in", l, back_a, rd);
      (void)ra, (void)re;
    }
    CHECKF(data == r->pkts_sent, "node %d: %llu data packets on the wire, %llu counted", i,
           (unsigned long long)data, (unsigned long long)r->pkts_sent);
    CHECKF(acks == w->st[1 - i].r.pkts_sent, "node %d sent %llu acks", i, (unsigned long long)acks);
  }
  if (P > 1) /* VL end c on link c mod P: every link carried data */
    for (uint32_t l = 0; l < P; l++)
      CHECKF(w->wn[0][l] > 100, "link %u carried %zu tokens", l, w->wn[0][l]);
  CHECKF(w->unacked_violations == 0, "%u data packets chosen for an unacknowledged VL",
         w->unacked_violations);
  CHECKF(w->ack_behind == 0, "%u data packets chosen while an ack waited", w->ack_behind);
  CHECKF(w->acks_first > 0, "no case of an acknowledgement chosen ahead of waiting data");
  pair_free(w);
}

static void test_pair_one_link(void **state) {
  (void)state;
  const uint32_t lens[] = {0, 1, 32, 33, 64, 70, 5, 200};
  run_pair(3, 1, 1, lens, 8);
}

static void test_pair_multi_link(void **state) {
  (void)state;
  const uint32_t lens[] = {32, 7, 96, 0, 40};
  run_pair(8, 4, 1, lens, 5);
  run_pair(5, 2, 2, lens, 5); /* 2-byte headers */
  run_pair(100, 3, 2, lens, 5);
}

/* Packetisation: 70 bytes = 32 EOP, 32 EOP, 6 EOM; 64 = 32 EOP, 32 EOM; 0 = an empty EOM. */
static void test_packetisation(void **state) {
  (void)state;
  pair_t *w = pair_new(1, 1, 1, 4);
  const t9k_node_msg_t m[] = {{0, 70}, {0, 64}, {0, 0}};
  add_msgs(w, 0, m, 3);
  for (long c = 0; c < 6000; c++)
    pair_step(w);
  static const uint32_t want_len[] = {32, 32, 6, 32, 32, 0};
  static const uint32_t want_end[] = {K_EOP, K_EOP, K_EOM, K_EOP, K_EOM, K_EOM};
  const tlog_t *t = w->rlog[1][0];
  size_t i = 0;
  for (int p = 0; p < 6; p++) {
    CHECKF(i < w->rn[1][0] && t[i].tok == 2u, "packet %d: header %u (want hdr(1,0,0) = 2)", p,
           i < w->rn[1][0] ? t[i].tok : 0);
    i++;
    uint32_t len = 0;
    while (i < w->rn[1][0] && (t[i].tok >> 8) == K_DATA)
      len++, i++;
    CHECKF(len == want_len[p] && i < w->rn[1][0] && (t[i].tok >> 8) == want_end[p],
           "packet %d: %u bytes, end %u", p, len, i < w->rn[1][0] ? t[i].tok >> 8 : 9);
    i++;
  }
  assert_int_equal(i, w->rn[1][0]);
  /* the acknowledgements: hdr(0,0,1) = 1, EOP */
  assert_int_equal(w->rn[0][0], 12);
  for (size_t k = 0; k < 12; k += 2)
    CHECKF(w->rlog[0][0][k].tok == 1 && w->rlog[0][0][k + 1].tok == (K_EOP << 8), "ack %zu", k);
  assert_int_equal(w->st[1].r.msgs_rcvd, 3);
  assert_int_equal(w->st[1].r.bytes_rcvd, 134);
  pair_free(w);
}

/* The queue limit: messages beyond qlimit outstanding are dropped and counted. */
static void test_qlimit(void **state) {
  (void)state;
  t9k_node_cfg_t c = {.node = 0, .nnodes = 2, .nvl = 2, .nlinks = 1, .hbytes = 1, .qlimit = 3};
  t9k_node_state_t st;
  t9k_node_next_t nx;
  char err[200];
  assert_int_equal(t9k_node_init(&c, &st, &nx, err, sizeof err), 0);
  t9k_node_set_peer(&c, &st, 0, 1, 0);
  t9k_node_msg_t m[5] = {{0, 10}, {0, 10}, {1, 10}, {0, 10}, {0, 10}};
  t9k_node_in_t in = {.n_new = 5, .new_msgs = m};
  t9k_node_out_t out;
  t9k_node_ev_t ev;
  assert_int_equal(t9k_node_eval(&c, &st, &in, &out, &nx, &ev), 0);
  t9k_node_clock(&st, &nx);
  assert_int_equal(ev.accepted, 3);
  assert_int_equal(ev.dropped, 2);
  assert_int_equal(st.r.msgs_dropped, 1); /* the 4th: queue full */
  assert_int_equal(st.r.msgs_nopeer, 1);  /* end 1 is not connected */
  t9k_node_vl_t v;
  t9k_node_vl(&c, &st, 0, &v);
  assert_int_equal(v.active, 1);
  assert_int_equal(v.pending, 2);
  assert_int_equal(v.unacked, 1); /* the first packet was chosen at once */
  assert_int_equal(st.r.t_kind[0], T9K_NODE_DATA);
  /* configuration errors */
  t9k_node_cfg_t b = c;
  b.nlinks = 5;
  assert_int_equal(t9k_node_cfg_check(&b, err, sizeof err), -1);
  assert_non_null(strstr(err, "nlinks"));
  b = c;
  b.nvl = 100; /* 2 * 2 * 100 > 256 with H = 1 */
  assert_int_equal(t9k_node_cfg_check(&b, err, sizeof err), -1);
  assert_non_null(strstr(err, "H bytes"));
  t9k_node_free(&st, &nx);
}

/* The error counters: misrouted headers, end tokens without a header, cut packets. Tokens are fed
   straight to the packet interface of node 1 (N = 4, K = 2, H = 1). */
static void feed(const t9k_node_cfg_t *c, t9k_node_state_t *st, t9k_node_next_t *nx,
                 const uint16_t *t, size_t n) {
  for (size_t i = 0; i < n; i++) {
    t9k_node_in_t in = {0};
    in.rx_valid[0] = 1;
    in.rx_kind[0] = t[i] >> 8;
    in.rx_data[0] = t[i] & 0xFFu;
    t9k_node_out_t o;
    t9k_node_ev_t ev;
    assert_int_equal(t9k_node_eval(c, st, &in, &o, nx, &ev), 0);
    t9k_node_clock(st, nx);
  }
}

static void test_error_counters(void **state) {
  (void)state;
  t9k_node_cfg_t c = {.node = 1, .nnodes = 4, .nvl = 2, .nlinks = 1, .hbytes = 1, .qlimit = 4};
  t9k_node_state_t st;
  t9k_node_next_t nx;
  char err[200];
  assert_int_equal(t9k_node_init(&c, &st, &nx, err, sizeof err), 0);
  t9k_node_set_peer(&c, &st, 0, 0, 0);
  t9k_node_set_peer(&c, &st, 1, 2, 1);
  /* node 1 owns headers 4..7: 4 = data to end 0; 9 = node 2's; 6 = data to end 1 */
  const uint16_t ok[] = {4, 1, 2, K_EOM << 8};
  feed(&c, &st, &nx, ok, 4);
  assert_int_equal(st.r.msgs_rcvd, 1);
  assert_int_equal(st.r.bytes_rcvd, 2);
  assert_int_equal(st.r.misrouted + st.r.bad + st.r.cut, 0);
  const uint16_t mis[] = {9, 1, K_EOP << 8, 200, K_EOM << 8};
  feed(&c, &st, &nx, mis, 5);
  assert_int_equal(st.r.misrouted, 2); /* 9 (node 2) and 200 (above 2NK) */
  assert_int_equal(st.r.msgs_rcvd, 1);
  const uint16_t bad[] = {K_EOP << 8, 5, 7, K_EOP << 8, 5, K_EOM << 8};
  feed(&c, &st, &nx, bad, 6);
  /* an EOP with no header; an ack (5) carrying data; an ack ended by EOM */
  assert_int_equal(st.r.bad, 3);
  const uint16_t cut[] = {6, 1, K_ERR << 8, 5, K_ERR << 8};
  feed(&c, &st, &nx, cut, 5);
  assert_int_equal(st.r.cut, 2);
  assert_int_equal(st.r.msgs_rcvd, 1);
  /* headers 4 and 6 were data packets: acks hdr(0,0,1) = 1 (chosen at once, E5, and held: the
     link never takes it here) and hdr(2,1,1) = 11 (queued behind it) */
  assert_int_equal(st.r.t_kind[0], T9K_NODE_ACK);
  assert_int_equal(st.r.t_hdr[0], 1);
  assert_int_equal(st.r.aq_n[0], 1);
  t9k_node_free(&st, &nx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_t9k_timing),      cmocka_unit_test(test_packetisation),
      cmocka_unit_test(test_pair_one_link),   cmocka_unit_test(test_pair_multi_link),
      cmocka_unit_test(test_qlimit),          cmocka_unit_test(test_error_counters),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
