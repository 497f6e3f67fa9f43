/* cmocka tests of the block contract (include/madpost/block.h): the MP1 blocks' events against
 * the registers and outputs they stand for, and eval's purity (the same results whatever next
 * held before, with or without events) for the MP1 mesh and the T9000-style endpoint. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <madpost/mp1_mesh.h>
#include <madpost/mp1_nic.h>
#include <madpost/t9k_node.h>

#include "check.h"

/* ---- MP1: two meshes side by side, A with events, B without and its next filled with junk ---- */

enum { KX = 4, KY = 4, N = KX * KY, CYCLES = 6000 };

typedef struct {
  mp1_mesh_state_t st[2];
  mp1_mesh_next_t nx[2];
  mp1_mesh_in_t in[N];
  mp1_mesh_out_t out[2][N];
  mp1_chip_ev_t ev[N];
  mp1_chip_state_t prev[N]; /* A's chips before the clock edge */
  mp1_nic_t nic[2][2 * N];  /* per mesh: senders, then receivers */
  uint64_t rng;
  /* what the run exercised */
  uint64_t adapt, blocked, busy, eom, live, dead, drop;
} rig_t;

static uint32_t rnd(rig_t *r) {
  r->rng ^= r->rng << 13, r->rng ^= r->rng >> 7, r->rng ^= r->rng << 17;
  return (uint32_t)(r->rng >> 11);
}

/* Node i's new message, the same for both meshes: adaptive, and one in 40 with an illegal code
 * (a bad message the first machine drops, so drops are seen too). */
static void offer(rig_t *r, uint32_t i) {
  if (rnd(r) % 1000u >= 60u || r->nic[0][i].count >= MP1_NIC_QUEUE) return;
  uint32_t d = rnd(r) % (N - 1);
  if (d >= i) d++;
  mp1_msg_t m;
  memset(&m, 0, sizeof m);
  uint32_t h = mp1_msg_p2p(1, KX, i, d, 1, &m);
  if (rnd(r) % 40u == 0) m.bytes[0] |= (uint8_t)(MP1_CODE_ILLEGAL << 5);
  for (int b = 0; b < 4; b++) m.bytes[h++] = (uint8_t)rnd(r);
  m.len = h;
  for (int k = 0; k < 2; k++) mp1_nic_push(&r->nic[k][i], &m);
}

/* The blocked condition of docs/mp1_draft4.md §6 on a machine's registers. */
static uint32_t ref_blocked(const mp1_rm_state_t *m) {
  const mp1_rm_regs_t *q = &m->r;
  const mp1_rm_cfg_t cfg = {1};
  if (!q->stop) return 0;
  if (q->b_val) return 1;
  if (!q->f_val || q->f_drop) return 0;
  if (q->cs_st == MP1_RM_CS_RUN || q->cs_ot == MP1_RM_CS_RUN || q->cs_rc == MP1_RM_CS_RUN ||
      q->cs_pb == MP1_RM_CS_RUN)
    return 0;
  return mp1_rm_occupancy(&cfg, m) > 0;
}

/* A machine's events against its registers (before the edge) and its counters' growth. */
static void check_rm(rig_t *r, const mp1_rm_state_t *m, const mp1_rm_state_t *after,
                     const mp1_rm_ev_t *ev, uint32_t v, uint64_t t) {
  const mp1_rm_regs_t *q = &m->r, *d = &after->r;
  CHECKF(ev->busy == (q->f_val || q->b_val), "cycle %llu chip %u: busy", (unsigned long long)t, v);
  CHECKF(ev->live == (q->f_val ? (q->f_route & 15u) : 0u), "cycle %llu chip %u: live %u",
         (unsigned long long)t, v, ev->live);
  CHECKF(ev->blocked == ref_blocked(m), "cycle %llu chip %u: blocked", (unsigned long long)t, v);
  CHECKF(ev->adapt == (uint16_t)(d->cnt_adapt - q->cnt_adapt), "cycle %llu chip %u: adapt",
         (unsigned long long)t, v);
  CHECKF(ev->adapt_buf == (uint16_t)(d->cnt_adapt_buf - q->cnt_adapt_buf),
         "cycle %llu chip %u: adapt_buf", (unsigned long long)t, v);
  const uint32_t drop = (uint16_t)(d->cnt_bad_code - q->cnt_bad_code) +
                        (uint16_t)(d->cnt_bad_addr - q->cnt_bad_addr) +
                        (uint16_t)(d->cnt_bad_long - q->cnt_bad_long) +
                        (uint16_t)(d->cnt_cut - q->cnt_cut);
  CHECKF(ev->drop == drop, "cycle %llu chip %u: drop %u, counters %u", (unsigned long long)t, v,
         ev->drop, drop);
  CHECKF(ev->stray == (uint16_t)(d->cnt_stray - q->cnt_stray), "cycle %llu chip %u: stray",
         (unsigned long long)t, v);
  r->adapt += ev->adapt;
  r->blocked += ev->blocked;
  r->busy += ev->busy;
  r->drop += ev->drop;
}

/* A plane's channel events: the owners, the EOM on each output wire, live as the owner's F's
 * route names the output (the injection's always). */
static void check_plane(rig_t *r, uint32_t v, uint32_t p, uint64_t t) {
  const mp1_plane_state_t *pl = &r->prev[v].pl[p];
  const mp1_plane_ev_t *ev = &r->ev[v].pl[p];
  const uint32_t own[2] = {pl->arbx_own, pl->arby_own}, pos[2] = {pl->arbx_pos, pl->arby_pos};
  for (uint32_t d = 0; d < 2; d++) {
    const uint32_t w = r->out[0][v].chan_dat[2 * p + d];
    const mp1_rm_regs_t *straight = d ? &pl->rmy.r : &pl->rmx.r, *turn = d ? &pl->rmx.r : &pl->rmy.r;
    const uint32_t live = own[d] == 3 ||
                          (own[d] == 1 && straight->f_val && ((straight->f_route >> MP1_RM_ST) & 1u)) ||
                          (own[d] == 2 && turn->f_val && ((turn->f_route >> MP1_RM_OT) & 1u));
    CHECKF(ev->own[d] == own[d], "cycle %llu chip %u plane %u: own", (unsigned long long)t, v, p);
    CHECKF(((ev->eom >> d) & 1u) == mp1_arb_eom(pos[d], w), "cycle %llu chip %u plane %u: eom",
           (unsigned long long)t, v, p);
    CHECKF(((ev->live >> d) & 1u) == live, "cycle %llu chip %u plane %u: live",
           (unsigned long long)t, v, p);
    r->eom += (ev->eom >> d) & 1u;
    r->live += own[d] && live;
    r->dead += own[d] && !live;
  }
  check_rm(r, &pl->rmx, &r->st[0].chip[v].pl[p].rmx, &ev->rmx, v, t);
  check_rm(r, &pl->rmy, &r->st[0].chip[v].pl[p].rmy, &ev->rmy, v, t);
}

static void check_chip(rig_t *r, uint32_t v, uint64_t t) {
  const mp1_chip_regs_t *q = &r->prev[v].r, *d = &r->st[0].chip[v].r;
  const uint32_t drop =
      (uint16_t)(d->cnt_sel_bad - q->cnt_sel_bad) + (uint16_t)(d->cnt_inj_drop - q->cnt_inj_drop);
  CHECKF(r->ev[v].drop == drop, "cycle %llu chip %u: injection drops", (unsigned long long)t, v);
  CHECKF(r->ev[v].stray == (uint16_t)(d->cnt_inj_stray - q->cnt_inj_stray),
         "cycle %llu chip %u: injection strays", (unsigned long long)t, v);
  for (uint32_t p = 0; p < MP1_CHIP_PLANES; p++) check_plane(r, v, p, t);
}

static void cycle(rig_t *r, uint64_t t) {
  for (uint32_t i = 0; i < N; i++) {
    offer(r, i);
    r->in[i].inj_dat = r->nic[0][i].dat;
    r->in[i].pbloop = 1;
    CHECKF(r->nic[1][i].dat == r->nic[0][i].dat, "cycle %llu: the senders differ",
           (unsigned long long)t);
  }
  memset(r->ev, 0xa5, sizeof r->ev);
  memset(r->nx[1].chip, 0xa5, N * sizeof *r->nx[1].chip); /* eval must not care what next held */
  assert_int_equal(mp1_mesh_eval(&r->st[0].cfg, &r->st[0], r->in, r->out[0], &r->nx[0],
                                 &(mp1_mesh_ev_t){r->ev}), 0);
  assert_int_equal(mp1_mesh_eval(&r->st[1].cfg, &r->st[1], r->in, r->out[1], &r->nx[1], NULL), 0);
  CHECKF(!memcmp(r->out[0], r->out[1], sizeof r->out[0]), "cycle %llu: outputs differ with and "
         "without events", (unsigned long long)t);
  for (uint32_t i = 0; i < N; i++) {
    CHECKF(!r->out[0][i].err, "cycle %llu: buffer invariant at node %u", (unsigned long long)t, i);
    for (int k = 0; k < 2; k++) {
      mp1_rx_msg_t m;
      mp1_nic_rx(&r->nic[k][N + i], r->out[k][i].rcv_dat, t, &m);
      mp1_nic_tx_step(&r->nic[k][i], r->out[k][i].inj_stop, t);
    }
  }
  memcpy(r->prev, r->st[0].chip, sizeof r->prev);
  mp1_mesh_clock(&r->st[0], &r->nx[0]);
  mp1_mesh_clock(&r->st[1], &r->nx[1]);
  for (uint32_t v = 0; v < N; v++) check_chip(r, v, t);
}

static void test_mp1_events_and_purity(void **state) {
  (void)state;
  rig_t *r = calloc(1, sizeof *r);
  assert_non_null(r);
  r->rng = 0x9e3779b97f4a7c15ull;
  for (int k = 0; k < 2; k++)
    for (uint32_t i = 0; i < 2 * N; i++) mp1_nic_reset(&r->nic[k][i]);
  for (int k = 0; k < 2; k++)
    assert_int_equal(mp1_mesh_init(&r->st[k], &r->nx[k], (mp1_mesh_cfg_t){.kx = KX, .ky = KY}), 0);
  for (uint64_t t = 0; t < CYCLES; t++) cycle(r, t);
  /* the run saw every kind of event */
  CHECKF(r->adapt > 0 && r->blocked > 0 && r->busy > 0 && r->eom > 0 && r->live > 0 &&
             r->dead > 0 && r->drop > 0,
         "adapt %llu blocked %llu busy %llu eom %llu live %llu dead %llu drop %llu",
         (unsigned long long)r->adapt, (unsigned long long)r->blocked,
         (unsigned long long)r->busy, (unsigned long long)r->eom, (unsigned long long)r->live,
         (unsigned long long)r->dead, (unsigned long long)r->drop);
  for (int k = 0; k < 2; k++) mp1_mesh_free(&r->st[k], &r->nx[k]);
  free(r);
}

/* ---- t9k_node: the same eval into a clean next and into one an unclocked eval left dirty ---- */

static uint32_t rnd32(uint64_t *s) {
  *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
  return (uint32_t)(*s >> 11);
}

static void random_in(uint64_t *s, const t9k_node_cfg_t *c, t9k_node_in_t *in, t9k_node_msg_t *m) {
  memset(in, 0, sizeof *in);
  for (uint32_t l = 0; l < c->nlinks; l++) {
    in->tx_ready[l] = rnd32(s) & 1u;
    in->rx_valid[l] = (rnd32(s) % 4u) == 0;
    in->rx_kind[l] = (rnd32(s) % 8u) == 0 ? 1u + rnd32(s) % 2u : 0u; /* mostly data, some ends */
    in->rx_data[l] = rnd32(s) % (2u * c->nnodes * c->nvl);
  }
  in->n_new = rnd32(s) % 3u;
  for (uint32_t i = 0; i < in->n_new; i++) m[i] = (t9k_node_msg_t){rnd32(s) % c->nvl, 1 + rnd32(s) % 80};
  in->new_msgs = m;
}

static void test_t9k_node_eval_pure(void **state) {
  (void)state;
  const t9k_node_cfg_t c = {.node = 0, .nnodes = 2, .nvl = 4, .nlinks = 2, .hbytes = 1, .qlimit = 8};
  char err[128];
  t9k_node_state_t st, spare;
  t9k_node_next_t a, b;
  assert_int_equal(t9k_node_init(&c, &st, &a, err, sizeof err), 0);
  assert_int_equal(t9k_node_init(&c, &spare, &b, err, sizeof err), 0);
  for (uint32_t e = 0; e < c.nvl; e++) t9k_node_set_peer(&c, &st, e, 1, e);
  uint64_t s = 12345;
  uint64_t writes = 0;
  for (int t = 0; t < 3000; t++) {
    t9k_node_in_t in, junk;
    t9k_node_msg_t m[4], mj[4];
    random_in(&s, &c, &in, m);
    random_in(&s, &c, &junk, mj);
    t9k_node_out_t oa, ob, oj;
    t9k_node_ev_t ea, eb, ej;
    assert_int_equal(t9k_node_eval(&c, &st, &junk, &oj, &b, &ej), 0); /* b: a stale journal */
    const int ra = t9k_node_eval(&c, &st, &in, &oa, &a, &ea);
    const int rb = t9k_node_eval(&c, &st, &in, &ob, &b, &eb);
    CHECKF(ra == 0 && rb == 0, "cycle %d: eval returned %d, %d", t, ra, rb);
    CHECKF(!memcmp(&oa, &ob, sizeof oa), "cycle %d: outputs differ", t);
    CHECKF(!memcmp(&ea, &eb, sizeof ea), "cycle %d: events differ", t);
    CHECKF(a.ndirty == b.ndirty, "cycle %d: journals of %u and %u words", t, a.ndirty, b.ndirty);
    for (uint32_t i = 0; i < a.ndirty && i < b.ndirty; i++)
      CHECKF(a.dirty[i] == b.dirty[i] && a.val[i] == b.val[i], "cycle %d: journal entry %u", t, i);
    CHECKF(a.r.cyc == b.r.cyc && a.r.outstanding == b.r.outstanding &&
               a.r.msgs_accepted == b.r.msgs_accepted && a.r.pkts_sent == b.r.pkts_sent &&
               a.r.bad == b.r.bad && !memcmp(a.r.t_kind, b.r.t_kind, sizeof a.r.t_kind) &&
               !memcmp(a.r.r_st, b.r.r_st, sizeof a.r.r_st),
           "cycle %d: next registers differ", t);
    /* no events asked for: the same outputs */
    assert_int_equal(t9k_node_eval(&c, &st, &in, &ob, &b, NULL), 0);
    CHECKF(!memcmp(&oa, &ob, sizeof oa), "cycle %d: outputs differ without events", t);
    writes += a.ndirty;
    t9k_node_clock(&st, &a);
  }
  CHECKF(writes > 100, "only %llu memory words written", (unsigned long long)writes);
  CHECKF(st.r.msgs_accepted > 0 && st.r.pkts_sent > 0, "accepted %llu, packets %llu",
         (unsigned long long)st.r.msgs_accepted, (unsigned long long)st.r.pkts_sent);
  t9k_node_free(&st, &a);
  t9k_node_free(&spare, &b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mp1_events_and_purity),
      cmocka_unit_test(test_t9k_node_eval_pure),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
