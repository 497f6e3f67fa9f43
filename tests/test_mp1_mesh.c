/* cmocka tests of the MP1 chip and mesh C models (docs/mp1.md §11-§13): injection and selection,
 * reception arbitration, point-to-point delivery, dead flits, adaptive and static routing under
 * blocking, broadcast (forked at the source, docs/mp1_draft4.md §10.3), intra- and inter-plane
 * piggy-back, bad flits, multi-segment messages, the per-hop latency command's figures against
 * seed 004's formula (draft 4 §11), a mesh wider than 32 with address words of two flits (§14),
 * and the buffer invariant's err carried up from the machines (draft 4 §6). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "check.h"
#include <madpost/mp1_hop.h>
#include <madpost/mp1_mesh.h>
#include <madpost/mp1_nic.h>
#include <madpost/madpost_rng.h>

/* ---- a mesh with an interface at every node ---------------------------------------------- */

enum { MAXN = 128, MAXGOT = 256 };

typedef struct {
  uint32_t node, len;
  uint8_t b[MP1_MSG_MAX];
  uint64_t t;
} got_t;

typedef struct {
  mp1_mesh_state_t st;
  mp1_mesh_next_t nx;
  mp1_mesh_in_t in[MAXN];
  mp1_mesh_out_t out[MAXN];
  mp1_nic_t tx[MAXN], rx[MAXN], pbo[MAXN];
  uint32_t split[MAXN]; /* extra EOS after this many flits in the next message (0: none) */
  got_t got[MAXGOT];
  int ngot, npbo;
  uint32_t n;
  uint64_t t;
} rig_t;

/* A kx x ky mesh (at most MAXN nodes) whose address words have awf flits (docs/mp1.md §14). */
static rig_t *rig_new_awf(uint32_t kx, uint32_t ky, uint32_t awf) {
  rig_t *r = calloc(1, sizeof *r);
  assert_non_null(r);
  assert_true(kx * ky <= MAXN);
  assert_int_equal(mp1_mesh_init(&r->st, &r->nx, (mp1_mesh_cfg_t){.kx = kx, .ky = ky, .awf = awf}),
                   0);
  r->n = kx * ky;
  for (uint32_t i = 0; i < r->n; i++) {
    mp1_nic_reset(&r->tx[i]);
    mp1_nic_reset(&r->rx[i]);
    mp1_nic_reset(&r->pbo[i]);
    r->in[i].pbloop = 1;
  }
  return r;
}

static rig_t *rig_new(uint32_t kx, uint32_t ky) { return rig_new_awf(kx, ky, 1); }

static void rig_free(rig_t *r) {
  mp1_mesh_free(&r->st, &r->nx);
  free(r);
}

static uint32_t node(const rig_t *r, uint32_t x, uint32_t y) { return y * r->st.cfg.kx + x; }

static void rig_step(rig_t *r) {
  for (uint32_t i = 0; i < r->n; i++) r->in[i].inj_dat = r->tx[i].dat;
  mp1_mesh_eval(&r->st.cfg, &r->st, r->in, r->out, &r->nx, NULL);
  for (uint32_t i = 0; i < r->n; i++) {
    mp1_rx_msg_t m;
    CHECKF(!r->out[i].err, "node %u: buffer invariant (err) at cycle %llu", i,
           (unsigned long long)r->t); /* senders that honour stop never raise it */
    if (mp1_nic_rx(&r->rx[i], r->out[i].rcv_dat, r->t, &m) == 1 && r->ngot < MAXGOT) {
      got_t *g = &r->got[r->ngot++];
      g->node = i, g->len = m.len, g->t = r->t;
      memcpy(g->b, m.bytes, m.len);
    }
    if (!r->in[i].pbloop && mp1_nic_rx(&r->pbo[i], r->out[i].pbo_dat, r->t, &m) == 1) r->npbo++;
    mp1_nic_t *k = &r->tx[i];
    if (k->count && !k->started && !k->txf.in_seg && r->split[i]) {
      /* an inner selection segment (inter-plane piggy-back): EOS after `split` flits */
      mp1_msg_chunks(&k->q[k->head], &k->cur);
      const uint32_t at = 4 + 3 * r->split[i];
      memmove(&k->cur.c[at + 1], &k->cur.c[at], k->cur.n - at);
      k->cur.c[at] = MP1_CH_EOS;
      k->cur.n++;
      k->pos = 0;
      k->started = 1;
      r->split[i] = 0;
    }
    mp1_nic_tx_step(k, r->out[i].inj_stop, r->t);
  }
  mp1_mesh_clock(&r->st, &r->nx);
  r->t++;
}

static int rig_busy(const rig_t *r) {
  for (uint32_t i = 0; i < r->n; i++) {
    if (r->tx[i].count || r->tx[i].dat || !mp1_chip_idle(&r->st.chip[i])) return 1;
  }
  return 0;
}

/* Runs until the mesh is idle; fails the test if it is not within max cycles (a hang). */
static void rig_drain(rig_t *r, uint64_t max) {
  uint64_t t0 = r->t;
  rig_step(r);
  while (rig_busy(r)) {
    assert_true(r->t - t0 < max);
    rig_step(r);
  }
  for (int i = 0; i < 8; i++) rig_step(r);
}

/* Exactly one message was delivered: at node n, its len data bytes those at data. */
static void expect_one(const rig_t *r, uint32_t n, const uint8_t *data, uint32_t len) {
  assert_int_equal(r->ngot, 1);
  assert_int_equal(r->got[0].node, n);
  assert_int_equal(r->got[0].len, len);
  assert_memory_equal(r->got[0].b, data, len);
}

/* Queues bytes at node s, selection (plane, dim). */
static void send(rig_t *r, uint32_t s, uint32_t plane, uint32_t dim, const uint8_t *b, uint32_t n) {
  mp1_msg_t m;
  memset(&m, 0, sizeof m);
  m.sel = mp1_sel_flit(0, plane, dim);
  m.len = n;
  memcpy(m.bytes, b, n);
  assert_int_equal(mp1_nic_push(&r->tx[s], &m), 0);
}

static uint32_t code(uint32_t c, uint32_t a) { return c << 5 | a; }

static const mp1_rm_regs_t *rm(const rig_t *r, uint32_t n, uint32_t plane, uint32_t dim) {
  const mp1_plane_state_t *p = &r->st.chip[n].pl[plane];
  return dim ? &p->rmy.r : &p->rmx.r;
}

/* The sum of one 16-bit counter (at offset off) over every machine. */
static uint32_t sum_cnt(const rig_t *r, size_t off) {
  uint32_t s = 0;
  for (uint32_t i = 0; i < r->n; i++)
    for (uint32_t p = 0; p < 4; p++)
      for (uint32_t d = 0; d < 2; d++)
        s += *(const MP1_UINT(16) *)((const char *)rm(r, i, p, d) + off);
  return s;
}

static const got_t *got_at(const rig_t *r, uint32_t n) {
  for (int i = 0; i < r->ngot; i++)
    if (r->got[i].node == n) return &r->got[i];
  return NULL;
}

/* ---- chip level: selection and injection ------------------------------------------------- */

static void test_inject_every_output(void **state) {
  (void)state;
  /* From the middle node of a 3x3 mesh every plane output exists: a one-flit DELIVER to each
     neighbour through each plane and first dimension arrives intact. */
  for (uint32_t p = 0; p < 4; p++) {
    for (uint32_t d = 0; d < 2; d++) {
      rig_t *r = rig_new(3, 3);
      const int sx = (p >> 1) ? -1 : 1, sy = (p & 1) ? -1 : 1;
      const uint32_t tx = d ? 1 : (uint32_t)(1 + sx), ty = d ? (uint32_t)(1 + sy) : 1;
      const uint8_t b[] = {(uint8_t)code(2, d ? ty : tx), 0xa5, 0x5a, (uint8_t)(p * 2 + d)};
      send(r, node(r, 1, 1), p, d, b, sizeof b);
      rig_drain(r, 2000);
      expect_one(r, node(r, tx, ty), b + 1, 3);
      assert_int_equal(r->st.chip[node(r, 1, 1)].r.cnt_inj_msgs, 1);
      rig_free(r);
    }
  }
}

static void test_bad_selection(void **state) {
  (void)state;
  rig_t *r = rig_new(3, 3);
  const uint32_t s = node(r, 0, 0);
  const uint8_t b[] = {(uint8_t)code(2, 2), 1, 2};
  mp1_msg_t m;
  memset(&m, 0, sizeof m);
  m.len = sizeof b;
  memcpy(m.bytes, b, sizeof b);
  m.sel = mp1_sel_flit(0, 0, 0) | 1u; /* reserved bits set */
  mp1_nic_push(&r->tx[s], &m);
  m.sel = mp1_sel_flit(0, 2, 0); /* plane (-X,+Y) at x = 0: its X output leads out of the mesh */
  mp1_nic_push(&r->tx[s], &m);
  m.sel = mp1_sel_flit(5, 0, 0); /* another chip's message: ignored, not counted */
  mp1_nic_push(&r->tx[s], &m);
  m.sel = mp1_sel_flit(0, 0, 0); /* and then a good one still goes */
  mp1_nic_push(&r->tx[s], &m);
  rig_drain(r, 3000);
  const mp1_chip_regs_t *c = &r->st.chip[s].r;
  assert_int_equal(c->cnt_sel_bad, 2);
  assert_int_equal(c->cnt_inj_msgs, 1);
  assert_int_equal(r->ngot, 1);
  assert_int_equal(r->got[0].node, node(r, 2, 0));
  rig_free(r);
}

static void test_start_against_stop_dropped(void **state) {
  (void)state;
  /* A source that starts its message right after the selection's EOS although the controller's
     stop was high in that cycle (the output is not owned yet): the message is dropped and counted,
     nothing reaches the mesh. Driven chunk by chunk. (A segment may follow an EOS directly only
     when stop was low, docs/mp1_draft4.md §10.1.) */
  mp1_chip_state_t st;
  mp1_chip_next_t nx;
  mp1_chip_reset(&(mp1_chip_cfg_t){.awf = 1}, &st);
  mp1_chip_in_t in = {.px = 1, .py = 1, .xmax = 2, .ymax = 2};
  uint8_t seq[64];
  int n = 0;
  const uint32_t sel = mp1_sel_flit(0, 0, 0);
  seq[n++] = (uint8_t)(4u | (sel >> 6)), seq[n++] = (uint8_t)((sel >> 3) & 7u),
  seq[n++] = (uint8_t)(sel & 7u), seq[n++] = MP1_CH_EOS;
  /* the message, sent at once without waiting for stop to fall */
  seq[n++] = 4u | 1u, seq[n++] = 0, seq[n++] = 2, seq[n++] = MP1_CH_EOM;
  int saw_stop = 0;
  for (int t = 0; t < 40; t++) {
    in.inj_dat = t < n ? seq[t] : 0;
    mp1_chip_out_t o;
    mp1_chip_eval(&(mp1_chip_cfg_t){.awf = 1}, &st, &in, &o, &nx, NULL);
    if (t == 3) saw_stop = (int)o.inj_stop;
    assert_int_equal(o.p0_xout_dat, 0);
    mp1_chip_clock(&st, &nx);
  }
  assert_true(saw_stop);
  assert_int_equal(st.r.cnt_inj_drop, 1);
  assert_int_equal(st.r.cnt_inj_msgs, 0);
  assert_int_equal(st.r.inj_if_st, MP1_FE_FREE);
}

/* ---- chip level: draft 4's arbiters and injection (docs/mp1_draft4.md §8, §10) ------------- */

static void test_arbiters_eom(void **state) {
  (void)state;
  /* The framing register follows flits (pos 1, 2 after a flit's first chunk); an EOM is an end
     code between flits. */
  assert_int_equal(mp1_arb_pos(0, 4), 1);
  assert_int_equal(mp1_arb_pos(1, 2), 2);
  assert_int_equal(mp1_arb_pos(2, 2), 0);
  assert_int_equal(mp1_arb_pos(0, 2), 0);
  assert_true(mp1_arb_eom(0, MP1_CH_EOM));
  assert_false(mp1_arb_eom(1, MP1_CH_EOM)); /* a flit's second chunk 010 */
  assert_false(mp1_arb_eom(0, MP1_CH_EOS));
  /* An owner that asks keeps the output, except at an EOM: every other requester goes first,
     straight before turning before injection; the owner only if nobody else asks (F5b). */
  assert_int_equal(mp1_arb_next(1, 0, 1, 1, 1), 1);
  assert_int_equal(mp1_arb_next(1, 1, 1, 1, 1), 2);
  assert_int_equal(mp1_arb_next(2, 1, 1, 1, 1), 1);
  assert_int_equal(mp1_arb_next(3, 1, 0, 0, 1), 3);
  assert_int_equal(mp1_arb_next(3, 1, 0, 1, 1), 2);
  assert_int_equal(mp1_arb_next(1, 1, 0, 0, 0), 0);
  assert_int_equal(mp1_arb_next(0, 0, 0, 1, 1), 2); /* a free output: straight first, then ... */
  assert_int_equal(mp1_arb_next(2, 0, 1, 0, 1), 1); /* an owner that stops asking releases */
  /* Round robin: at an EOM the owner (the last granted) is the last candidate. */
  const uint32_t all[MP1_CHIP_MACHINES] = {1, 1, 1, 1, 1, 1, 1, 1};
  const uint32_t only2[MP1_CHIP_MACHINES] = {0, 0, 1, 0, 0, 0, 0, 0};
  uint32_t own, last;
  mp1_rr_next(3, 2, 0, all, &own, &last);
  assert_int_equal(own, 3);
  mp1_rr_next(3, 2, 1, all, &own, &last);
  assert_int_equal(own, 4);
  assert_int_equal(last, 3);
  mp1_rr_next(3, 2, 1, only2, &own, &last);
  assert_int_equal(own, 3);
  assert_int_equal(last, 2);
}

/* Drives one chip at (1,1) of a 3x3 mesh with the interface chunks seq (then idle) for n cycles;
   records each cycle's X and Y chunk of plane 0 and the interface's stop. */
static void chip_drive(mp1_chip_state_t *st, const uint8_t *seq, int nseq, int n, uint8_t *xo,
                       uint8_t *yo, uint8_t *stop) {
  mp1_chip_reset(&(mp1_chip_cfg_t){.awf = 1}, st);
  mp1_chip_in_t in = {.px = 1, .py = 1, .xmax = 2, .ymax = 2};
  mp1_chip_next_t nx;
  for (int t = 0; t < n; t++) {
    in.inj_dat = t < nseq ? seq[t] : 0;
    mp1_chip_out_t o;
    mp1_chip_eval(&(mp1_chip_cfg_t){.awf = 1}, st, &in, &o, &nx, NULL);
    xo[t] = (uint8_t)o.p0_xout_dat, yo[t] = (uint8_t)o.p0_yout_dat, stop[t] = (uint8_t)o.inj_stop;
    mp1_chip_clock(st, &nx);
  }
}

static int put_flit(uint8_t *seq, int n, uint32_t b) {
  for (uint32_t k = 0; k < 3; k++) seq[n++] = (uint8_t)mp1_flit_chunk(b, k);
  return n;
}

static void test_selection_judged_at_third_chunk(void **state) {
  (void)state;
  /* The selection is picked at its third chunk and requests its output while its EOS arrives
     (docs/mp1_draft4.md §10.1): stop falls one cycle after the EOS, and the header may follow at
     once (here it waits one idle chunk: the source saw stop high in the EOS cycle). */
  mp1_chip_state_t st;
  uint8_t seq[32], xo[40], yo[40], stop[40];
  int n = put_flit(seq, 0, mp1_sel_flit(0, 0, 0));
  seq[n++] = MP1_CH_EOS;
  const int hdr = n + 1; /* after one idle chunk */
  seq[n++] = 0;
  n = put_flit(seq, n, code(MP1_CODE_DELIVER, 2));
  n = put_flit(seq, n, 0x5a);
  seq[n++] = MP1_CH_EOM;
  chip_drive(&st, seq, n, 40, xo, yo, stop);
  assert_int_equal(stop[2], 0); /* SEL */
  assert_int_equal(stop[3], 1); /* FWD with sx: the EOS; the output is requested now */
  assert_int_equal(stop[4], 0); /* owned: the header may start */
  for (int t = 0; t < 40; t++) /* forwarded one cycle late */
    assert_int_equal(xo[t], t > hdr && t <= hdr + 7 ? seq[t - 1] : 0);
  assert_int_equal(st.r.cnt_inj_msgs, 1);
  /* A selection flit followed by anything but its EOS is a bad selection: the picked front end
     releases the controller, nothing is sent, and a good message still goes. */
  n = put_flit(seq, 0, mp1_sel_flit(0, 0, 0));
  n = put_flit(seq, n, 0x11); /* a second flit in the selection segment */
  seq[n++] = MP1_CH_EOS;
  seq[n++] = 0;
  chip_drive(&st, seq, n, 20, xo, yo, stop);
  for (int t = 0; t < 20; t++) assert_int_equal(xo[t], 0);
  assert_int_equal(st.r.cnt_sel_bad, 1);
  assert_int_equal(st.r.inj_cur, 0);
  assert_int_equal(st.r.inj_if_st, MP1_FE_FREE);
  assert_int_equal(st.r.inj_if_sx, 0);
}

static void test_fork_y_from_a2(void **state) {
  (void)state;
  /* A code-4 broadcast with the fork (docs/mp1_draft4.md §10.3): X gets every chunk, Y every chunk
     from chunk 3 AWF on (a2's word and the data), both EOMs in the same cycle; no window after it
     (the front end goes to FREE). */
  mp1_chip_state_t st;
  uint8_t seq[40], xo[60], yo[60], stop[60];
  int n = put_flit(seq, 0, mp1_sel_flit(0, 0, 0) | MP1_SEL_FORK);
  seq[n++] = MP1_CH_EOS;
  seq[n++] = 0;
  seq[n++] = 0;
  const int a1 = n;
  n = put_flit(seq, n, code(MP1_CODE_BCAST_2D, 2));
  n = put_flit(seq, n, code(MP1_CODE_BCAST_1D, 2));
  n = put_flit(seq, n, 0xc3);
  seq[n++] = MP1_CH_EOM;
  chip_drive(&st, seq, n, 60, xo, yo, stop);
  int xs = -1, ys = -1;
  for (int t = 0; t < 60; t++) {
    if (xo[t] && xs < 0) xs = t;
    if (yo[t] && ys < 0) ys = t;
  }
  assert_int_equal(xs, a1 + 1);
  assert_int_equal(ys, a1 + 4);
  for (int t = 0; t < 10; t++) {
    assert_int_equal(xo[xs + t], seq[a1 + t]);
    if (t < 7) assert_int_equal(yo[ys + t], seq[a1 + 3 + t]);
  }
  assert_int_equal(xo[xs + 9], MP1_CH_EOM);
  assert_int_equal(yo[xs + 9], MP1_CH_EOM);
  assert_int_equal(st.r.inj_if_st, MP1_FE_FREE);
  assert_int_equal(st.r.cnt_inj_msgs, 1);
  /* fork only with dim 0: a fork into Y first is a bad selection */
  n = put_flit(seq, 0, mp1_sel_flit(0, 0, 1) | MP1_SEL_FORK);
  seq[n++] = MP1_CH_EOS;
  chip_drive(&st, seq, n, 10, xo, yo, stop);
  assert_int_equal(st.r.cnt_sel_bad, 1);
}

/* Cycles at which node s's interface put each message's first header chunk on its channel. */
static int header_times(rig_t *r, uint32_t s, uint64_t *at, int max, uint64_t cycles) {
  int k = 0;
  for (uint64_t i = 0; i < cycles; i++) {
    const uint64_t before = r->tx[s].t_first;
    rig_step(r);
    if (r->tx[s].t_first != before && k < max) at[k++] = r->tx[s].t_first;
  }
  return k;
}

static void test_window_back_to_back(void **state) {
  (void)state;
  /* Three 6-flit messages from (0,0): two to (2,0), one to (0,2). With the interface's window
     (docs/mp1_draft4.md §10.2) the second follows the first without a selection, 3L + 2 = 20
     cycles later; the third, to another output, needs its selection: 19 chunks, the NEXT and WIN
     cycles, the cycle that sees FREE's stop, 4 selection chunks and one idle chunk while its
     output is granted: 27. With the window off (it is on by default, §10.4) the second is as
     the third. */
  for (int win = 0; win <= 1; win++) {
    rig_t *r = rig_new(3, 3);
    r->tx[0].txf.win = (uint8_t)win;
    const uint8_t a[] = {(uint8_t)code(2, 2), 1, 2, 3, 4, 5};
    const uint8_t b[] = {(uint8_t)code(2, 2), 6, 7, 8, 9, 10};
    const uint8_t c[] = {(uint8_t)code(2, 2), 11, 12, 13, 14, 15};
    send(r, 0, 0, 0, a, sizeof a);
    send(r, 0, 0, 0, b, sizeof b);
    send(r, 0, 0, 1, c, sizeof c);
    uint64_t at[3];
    assert_int_equal(header_times(r, 0, at, 3, 200), 3);
    assert_int_equal(at[1] - at[0], win ? 20 : 27);
    assert_int_equal(at[2] - at[1], 27);
    rig_drain(r, 1000);
    assert_int_equal(r->ngot, 3);
    assert_memory_equal(r->got[0].b, a + 1, 5);
    assert_memory_equal(r->got[1].b, b + 1, 5);
    assert_int_equal(r->got[2].node, node(r, 0, 2));
    assert_int_equal(r->st.chip[0].r.cnt_inj_msgs, 3);
    rig_free(r);
  }
}

/* ---- the window's front ends (docs/mp1_draft4.md §10.2) ------------------------------------ */

/* One cycle of a chip as the window tests see it: outputs and the registers of that cycle. */
typedef struct {
  uint8_t xo, stop, pbstop, ifst, pbst, cur, fseg, hc;
} chip_tr_t;

/* Drives chip `chip` at (1,1) of a 3x3 mesh (nothing behind its outputs) for n cycles with the
   interface chunks ifs and, with the piggy-back loop open, the piggy-back input chunks pbs (then
   idle); records plane 0's X output, the stops and the controller's registers cycle by cycle. */
static void chip_trace(mp1_chip_state_t *st, uint32_t chip, const uint8_t *ifs, int nif,
                       const uint8_t *pbs, int npb, int n, chip_tr_t *tr) {
  mp1_chip_reset(&(mp1_chip_cfg_t){.awf = 1}, st);
  mp1_chip_in_t in = {.px = 1, .py = 1, .xmax = 2, .ymax = 2, .chip = chip, .pbloop = npb == 0};
  mp1_chip_next_t nx;
  for (int t = 0; t < n; t++) {
    in.inj_dat = t < nif ? ifs[t] : 0;
    in.pbi_dat = t < npb ? pbs[t] : 0;
    mp1_chip_out_t o;
    mp1_chip_eval(&(mp1_chip_cfg_t){.awf = 1}, st, &in, &o, &nx, NULL);
    const mp1_chip_regs_t *r = &st->r;
    tr[t] = (chip_tr_t){(uint8_t)o.p0_xout_dat, (uint8_t)o.inj_stop, (uint8_t)o.pbi_stop,
                        (uint8_t)r->inj_if_st, (uint8_t)r->inj_pb_st, (uint8_t)r->inj_cur,
                        (uint8_t)r->inj_fseg, (uint8_t)r->inj_hc};
    mp1_chip_clock(st, &nx);
  }
}

/* A selection (t = 0..3), an idle chunk, a 2-flit message (5..11, its EOM at 11), then from `at`
   a second 2-flit message starting with byte b (at .. at + 6, EOM at at + 6). Returns the
   length. */
static int two_msgs(uint8_t *seq, uint32_t sel, int at, uint32_t b) {
  int n = put_flit(seq, 0, sel);
  seq[n++] = MP1_CH_EOS;
  seq[n++] = 0;
  n = put_flit(seq, n, code(MP1_CODE_DELIVER, 2));
  n = put_flit(seq, n, 0x5a);
  seq[n++] = MP1_CH_EOM;
  while (n < at) seq[n++] = 0;
  n = put_flit(seq, n, b);
  n = put_flit(seq, n, 0xa5);
  seq[n++] = MP1_CH_EOM;
  return n;
}

static void test_window_serving(void **state) {
  (void)state;
  /* The interface's window (§10.2): after the EOM (seen at 11) NEXT at 12 with stop low (the X
     output stays the injection's: keep, no other requester, no stop behind); the next message's
     first chunk in WIN (13) is forwarded, without a selection, on the same output: FWD at 14 with
     inj_fseg set and inj_hc counting from 1. After the second EOM (19): NEXT 20, WIN 21 with no
     start, FREE 22 and the controller released. */
  mp1_chip_state_t st;
  uint8_t seq[64];
  chip_tr_t tr[40];
  const int n = two_msgs(seq, mp1_sel_flit(0, 0, 0), 13, code(MP1_CODE_DELIVER, 2));
  chip_trace(&st, 0, seq, n, NULL, 0, 40, tr);
  assert_int_equal(tr[12].ifst, MP1_FE_NEXT);
  assert_int_equal(tr[12].stop, 0);
  assert_int_equal(tr[13].ifst, MP1_FE_WIN);
  assert_int_equal(tr[13].stop, 1);
  assert_int_equal(tr[14].ifst, MP1_FE_FWD);
  assert_int_equal(tr[14].fseg, 1);
  assert_int_equal(tr[14].hc, 1);
  for (int t = 0; t < 40; t++) /* both messages, one cycle late; nothing else */
    assert_int_equal(tr[t].xo, (t >= 6 && t <= 12) || (t >= 14 && t <= 20) ? seq[t - 1] : 0);
  assert_int_equal(tr[20].ifst, MP1_FE_NEXT);
  assert_int_equal(tr[21].ifst, MP1_FE_WIN);
  assert_int_equal(tr[21].cur, 1);
  assert_int_equal(tr[22].ifst, MP1_FE_FREE);
  assert_int_equal(tr[22].cur, 0);
  assert_int_equal(st.r.cnt_inj_msgs, 2);
  assert_int_equal(st.r.cnt_sel_bad + st.r.cnt_inj_drop + st.r.cnt_inj_stray, 0);
}

static void test_window_none_for_pb(void **state) {
  (void)state;
  /* The piggy-back front end has no window (§10.2): the same chunks on the open loop's input are
     forwarded as far as the first EOM (seen at 11), which frees the front end and the controller
     at once (FREE at 12, stop low, no NEXT); the start at 13 is then a selection (SEL at 14):
     0x42, chip 2's, skipped to its EOM and not counted; after it, FREE again (no NEXT either). */
  mp1_chip_state_t st;
  uint8_t seq[64];
  chip_tr_t tr[40];
  const int n = two_msgs(seq, mp1_sel_flit(0, 0, 0), 13, code(MP1_CODE_DELIVER, 2));
  chip_trace(&st, 0, NULL, 0, seq, n, 40, tr);
  assert_int_equal(tr[11].pbst, MP1_FE_FWD);
  assert_int_equal(tr[12].pbst, MP1_FE_FREE);
  assert_int_equal(tr[12].cur, 0);
  assert_int_equal(tr[12].pbstop, 0);
  assert_int_equal(tr[14].pbst, MP1_FE_SEL);
  assert_int_equal(tr[16].pbst, MP1_FE_SKIP);
  assert_int_equal(tr[19].pbst, MP1_FE_SKIP);
  assert_int_equal(tr[20].pbst, MP1_FE_FREE);
  for (int t = 0; t < 40; t++) {
    assert_int_equal(tr[t].xo, t >= 6 && t <= 12 ? seq[t - 1] : 0);
    assert_int_equal(tr[t].ifst, MP1_FE_FREE);
  }
  assert_int_equal(st.r.cnt_inj_msgs, 1);
  assert_int_equal(st.r.cnt_sel_bad + st.r.cnt_inj_drop + st.r.cnt_inj_stray, 0);
}

static void test_window_skipping_chip(void **state) {
  (void)state;
  /* A chip that skipped another chip's message (chip 1's) mirrors the window (§10.2): NEXT at 12
     with stop low (the serving chip's stop decides), WIN at 13 with stop high; the start in its
     WIN is chip 1's window message, skipped too (SKIP at 14), though its first byte 0x01 would
     read as a selection of chip 0 (a bad one); after that message's EOM (19) NEXT 20, WIN 21 and
     FREE 22, where the interface's own selection (22..25) is taken and its message (27..) goes
     out: granted at 26 (stop low), forwarded a cycle late. Nothing is counted but that message. */
  mp1_chip_state_t st;
  uint8_t seq[64];
  chip_tr_t tr[50];
  int n = two_msgs(seq, mp1_sel_flit(1, 0, 0), 13, 0x01);
  seq[n++] = 0, seq[n++] = 0;
  n = put_flit(seq, n, mp1_sel_flit(0, 0, 0));
  seq[n++] = MP1_CH_EOS;
  seq[n++] = 0;
  n = put_flit(seq, n, code(MP1_CODE_DELIVER, 2));
  n = put_flit(seq, n, 0x3c);
  seq[n++] = MP1_CH_EOM;
  assert_int_equal(n, 34);
  chip_trace(&st, 0, seq, n, NULL, 0, 50, tr);
  for (int t = 3; t <= 11; t++) assert_int_equal(tr[t].ifst, MP1_FE_SKIP);
  const struct {
    int t;
    uint8_t st, stop;
  } want[] = {{12, MP1_FE_NEXT, 0}, {13, MP1_FE_WIN, 1}, {14, MP1_FE_SKIP, 0},
              {19, MP1_FE_SKIP, 0}, {20, MP1_FE_NEXT, 0}, {21, MP1_FE_WIN, 1},
              {22, MP1_FE_FREE, 0}, {23, MP1_FE_SEL, 0}, {25, MP1_FE_FWD, 1},
              {26, MP1_FE_FWD, 0}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    assert_int_equal(tr[want[i].t].ifst, want[i].st);
    assert_int_equal(tr[want[i].t].stop, want[i].stop);
  }
  for (int t = 0; t < 50; t++) assert_int_equal(tr[t].xo, t >= 28 && t <= 34 ? seq[t - 1] : 0);
  assert_int_equal(st.r.cnt_inj_msgs, 1);
  assert_int_equal(st.r.cnt_sel_bad + st.r.cnt_inj_drop + st.r.cnt_inj_stray, 0);
}

static void test_window_start_in_next(void **state) {
  (void)state;
  /* A start in NEXT (no idle chunk after the EOM) is a source fault (§10.2). The serving front
     end counts it (cnt_inj_drop), releases the controller and skips the message: nothing of it
     goes out. A front end that skipped the message before skips it too, uncounted (the serving
     chip counts the fault once for the interface). Either then mirrors a window after it. */
  for (uint32_t other = 0; other <= 1; other++) {
    mp1_chip_state_t st;
    uint8_t seq[64];
    chip_tr_t tr[40];
    const int n = two_msgs(seq, mp1_sel_flit(other, 0, 0), 12, code(MP1_CODE_DELIVER, 2));
    chip_trace(&st, 0, seq, n, NULL, 0, 40, tr);
    assert_int_equal(tr[12].ifst, MP1_FE_NEXT);
    assert_int_equal(tr[13].ifst, MP1_FE_SKIP);
    assert_int_equal(tr[13].cur, 0);
    assert_int_equal(tr[19].ifst, MP1_FE_NEXT);
    assert_int_equal(tr[19].stop, 0);
    assert_int_equal(tr[20].ifst, MP1_FE_WIN);
    assert_int_equal(tr[21].ifst, MP1_FE_FREE);
    for (int t = 0; t < 40; t++)
      assert_int_equal(tr[t].xo, !other && t >= 6 && t <= 12 ? seq[t - 1] : 0);
    assert_int_equal(st.r.cnt_inj_msgs, !other);
    assert_int_equal(st.r.cnt_inj_drop, !other);
    assert_int_equal(st.r.cnt_sel_bad + st.r.cnt_inj_stray, 0);
  }
}

static void test_window_two_chips(void **state) {
  (void)state;
  /* Two chips on one interface (chips 0 and 1 at (1,1), the interface seeing the OR of their
     stops, as the torus's four, docs/mp1_sim.md §7), the interface with its default window
     (§10.4): two 6-flit messages to chip 1's X output, then one to chip 0's. Chip 0 skips chip 1's
     messages and mirrors its window with stop low in NEXT, so the second goes in the window 3L + 2
     = 20 cycles after the first, as with one chip, and chip 0 skips it although its first byte
     (0x01) would read as a selection of chip 0; the third, to the other chip, needs its selection:
     27 cycles (test_window_back_to_back). Each chip forwards exactly its messages, every chunk,
     and counts nothing else. */
  mp1_chip_state_t st[2];
  mp1_chip_next_t nx[2];
  mp1_chip_in_t in[2];
  for (uint32_t k = 0; k < 2; k++) {
    mp1_chip_reset(&(mp1_chip_cfg_t){.awf = 1}, &st[k]);
    in[k] = (mp1_chip_in_t){.px = 1, .py = 1, .xmax = 2, .ymax = 2, .chip = k, .pbloop = 1};
  }
  mp1_nic_t nic;
  mp1_nic_reset(&nic);
  assert_int_equal(nic.txf.win, 1);
  const uint8_t body[3][6] = {{(uint8_t)code(2, 2), 1, 2, 3, 4, 5},
                              {0x01, 6, 7, 8, 9, 10},
                              {(uint8_t)code(2, 2), 11, 12, 13, 14, 15}};
  for (uint32_t i = 0; i < 3; i++) {
    mp1_msg_t m;
    memset(&m, 0, sizeof m);
    m.sel = mp1_sel_flit(i < 2 ? 1 : 0, 0, 0);
    m.len = 6;
    memcpy(m.bytes, body[i], 6);
    assert_int_equal(mp1_nic_push(&nic, &m), 0);
  }
  uint64_t at[3];
  int k = 0, chunks[2] = {0, 0};
  for (uint64_t t = 0; t < 200; t++) {
    uint32_t stop = 0;
    for (uint32_t c = 0; c < 2; c++) {
      in[c].inj_dat = nic.dat;
      mp1_chip_out_t o;
      mp1_chip_eval(&(mp1_chip_cfg_t){.awf = 1}, &st[c], &in[c], &o, &nx[c], NULL);
      stop |= o.inj_stop;
      chunks[c] += o.p0_xout_dat != 0;
    }
    const uint64_t before = nic.t_first;
    mp1_nic_tx_step(&nic, stop, t);
    if (nic.t_first != before && k < 3) at[k++] = nic.t_first;
    for (uint32_t c = 0; c < 2; c++) mp1_chip_clock(&st[c], &nx[c]);
  }
  assert_int_equal(k, 3);
  assert_int_equal(at[1] - at[0], 20);
  assert_int_equal(at[2] - at[1], 27);
  int want[2] = {1, 2}; /* the EOMs; a flit's chunks may be 000 (1 = 100 000 001) */
  for (uint32_t i = 0; i < 3; i++)
    for (uint32_t j = 0; j < 18; j++) want[i < 2] += mp1_flit_chunk(body[i][j / 3], j % 3) != 0;
  assert_int_equal(chunks[1], want[1]);
  assert_int_equal(chunks[0], want[0]);
  for (uint32_t c = 0; c < 2; c++) {
    const mp1_chip_regs_t *r = &st[c].r;
    assert_int_equal(r->cnt_inj_msgs, c ? 2 : 1);
    assert_int_equal(r->cnt_sel_bad + r->cnt_inj_drop + r->cnt_inj_stray, 0);
    assert_true(mp1_chip_idle(&st[c]));
  }
}

static void test_reception_round_robin(void **state) {
  (void)state;
  /* Two messages reach node (1,1) in the same cycle on two machines; each arrives whole, the one
     of the machine after the last granted (machine 0 at reset, so machine 2 first) first. */
  rig_t *r = rig_new(3, 3);
  const uint8_t a[] = {(uint8_t)code(2, 1), 0x11, 0x12, 0x13};
  const uint8_t b[] = {(uint8_t)code(2, 1), 0x21, 0x22, 0x23};
  send(r, node(r, 0, 1), 0, 0, a, sizeof a); /* plane 0: machine 0 (rmx) at (1,1) */
  send(r, node(r, 0, 1), 1, 0, b, sizeof b); /* no: same source serialises; use two sources */
  rig_free(r);
  r = rig_new(3, 3);
  send(r, node(r, 0, 1), 0, 0, a, sizeof a); /* plane 0 X into (1,1): machine 0 */
  send(r, node(r, 1, 0), 0, 1, b, sizeof b); /* plane 0 Y into (1,1): machine 1 */
  rig_drain(r, 2000);
  assert_int_equal(r->ngot, 2);
  assert_int_equal(r->got[0].node, node(r, 1, 1));
  assert_int_equal(r->got[1].node, node(r, 1, 1));
  assert_memory_equal(r->got[0].b, b + 1, 3); /* machine 1 comes before machine 0 after reset */
  assert_memory_equal(r->got[1].b, a + 1, 3);
  rig_free(r);
}

/* ---- the buffer invariant carried up (docs/mp1_draft4.md §6) ----------------------------- */

/* One machine's input stream from a sender that ignores stop: a static message (to a in the
 * machine's dimension, then a DELIVER at b in the other) of a 97-chunk segment and a 61-chunk
 * one, as tests/test_mp1_rm.c's test_err_when_stop_ignored drives a lone machine. Returns its
 * length. */
static int overrun_stream(uint8_t *seq, uint32_t a, uint32_t b) {
  int n = put_flit(seq, 0, code(MP1_CODE_P2P_STATIC, a));
  n = put_flit(seq, n, code(MP1_CODE_DELIVER, b));
  for (uint32_t i = 0; i < 30; i++) n = put_flit(seq, n, i);
  seq[n++] = MP1_CH_EOS;
  for (uint32_t i = 0; i < 20; i++) n = put_flit(seq, n, i + 50);
  seq[n++] = MP1_CH_EOM;
  return n;
}

/* The cycle of the first err (-1: none). Both outputs of plane p at (8,8) have their receivers'
 * stop high, so nothing leaves the machine of input dim (0 X, 1 Y) that the stream fills: as the
 * lone machine, its writer reaches the oldest chunk F needs with chunk 127 (occupancy 127). The
 * chip's err must rise in the same cycle as the plane's. */
static int overrun_plane(uint32_t p, uint32_t dim, mp1_chip_state_t *at127) {
  const uint32_t neg_x = (p >> 1) & 1u, neg_y = p & 1u;
  const uint32_t neg_a = dim ? neg_y : neg_x, neg_b = dim ? neg_x : neg_y;
  uint8_t seq[256];
  const int n = overrun_stream(seq, neg_a ? 3 : 13, neg_b ? 3 : 13);
  mp1_plane_state_t pst;
  mp1_plane_next_t pnx;
  mp1_plane_reset(&(mp1_plane_cfg_t){.awf = 1}, &pst);
  mp1_plane_in_t pin = {.px = 8, .py = 8, .nx = neg_x, .ny = neg_y, .xout_stop = 1, .yout_stop = 1};
  mp1_chip_state_t cst;
  mp1_chip_next_t cnx;
  mp1_chip_reset(&(mp1_chip_cfg_t){.awf = 1}, &cst);
  mp1_chip_in_t cin = {.px = 8, .py = 8, .xmax = 15, .ymax = 15};
  uint32_t *xin[4] = {MP1_CHIP_PER_PLANE(&cin., xin_dat)};
  uint32_t *yin[4] = {MP1_CHIP_PER_PLANE(&cin., yin_dat)};
  uint32_t *xs[4] = {MP1_CHIP_PER_PLANE(&cin., xout_stop)};
  uint32_t *ys[4] = {MP1_CHIP_PER_PLANE(&cin., yout_stop)};
  *xs[p] = *ys[p] = 1;
  int first = -1;
  for (int t = 0; t < n + 4; t++) {
    const uint32_t c = t < n ? seq[t] : 0;
    if (t == 127 && at127) *at127 = cst;
    *(dim ? &pin.yin_dat : &pin.xin_dat) = *(dim ? yin : xin)[p] = c;
    mp1_plane_out_t po;
    mp1_chip_out_t co;
    mp1_plane_eval(&(mp1_plane_cfg_t){.awf = 1}, &pst, &pin, &po, &pnx, NULL);
    mp1_chip_eval(&(mp1_chip_cfg_t){.awf = 1}, &cst, &cin, &co, &cnx, NULL);
    assert_int_equal(co.err, po.err);
    if (po.err && first < 0) first = t;
    mp1_plane_clock(&pst, &pnx);
    mp1_chip_clock(&cst, &cnx);
  }
  return first;
}

static void test_err_plane_and_chip(void **state) {
  (void)state;
  for (uint32_t p = 0; p < MP1_CHIP_PLANES; p++)
    for (uint32_t dim = 0; dim < 2; dim++)
      CHECKF(overrun_plane(p, dim, NULL) == 127, "plane %u, machine rm%c", p, dim ? 'y' : 'x');
}

/* The mesh gives node n's chip's err as out[n].err: node 1 of a 2x1 mesh is given the chip state
 * of the overrun above just before its chunk 127, and node 0's plane-0 X output (its straight
 * machine's register) carries that chunk into it. */
static void test_err_mesh(void **state) {
  (void)state;
  mp1_chip_state_t at127;
  assert_int_equal(overrun_plane(0, 0, &at127), 127);
  uint8_t seq[256];
  overrun_stream(seq, 13, 13);
  mp1_mesh_state_t st;
  mp1_mesh_next_t nx;
  assert_int_equal(mp1_mesh_init(&st, &nx, (mp1_mesh_cfg_t){.kx = 2, .ky = 1}), 0);
  st.chip[1] = at127;
  st.chip[0].pl[0].arbx_own = 1;
  st.chip[0].pl[0].rmx.r.st_dat = seq[127];
  mp1_mesh_in_t in[2] = {{0}};
  mp1_mesh_out_t out[2];
  mp1_mesh_eval(&st.cfg, &st, in, out, &nx, NULL);
  assert_int_equal(out[0].err, 0);
  assert_int_equal(out[1].err, 1);
  mp1_mesh_free(&st, &nx);
}

/* ---- mesh level ------------------------------------------------------------------------ */

static void test_dead_flit_runs_on(void **state) {
  (void)state;
  /* A DELIVER to (1,0) is cut through before its address completes: the address flit goes on as a
     dead flit and is dropped at (2,0) and again at the edge node (3,0). */
  rig_t *r = rig_new(4, 4);
  const uint8_t b[] = {(uint8_t)code(2, 1), 7, 8, 9};
  send(r, node(r, 0, 0), 0, 0, b, sizeof b);
  rig_drain(r, 2000);
  assert_int_equal(r->ngot, 1);
  assert_int_equal(r->got[0].node, node(r, 1, 0));
  assert_memory_equal(r->got[0].b, b + 1, 3);
  assert_int_equal(rm(r, node(r, 2, 0), 0, 0)->cnt_dead, 1);
  assert_int_equal(rm(r, node(r, 3, 0), 0, 0)->cnt_dead, 1);
  assert_int_equal(sum_cnt(r, offsetof(mp1_rm_regs_t, cnt_dead)), 2);
  rig_free(r);
}

static void test_bad_address_and_code(void **state) {
  (void)state;
  rig_t *r = rig_new(4, 4);
  const uint8_t far[] = {(uint8_t)code(2, 9), 1, 2};   /* x = 9 in a 4-wide mesh */
  const uint8_t ill[] = {(uint8_t)code(7, 2), 1, 2};   /* control code 7 */
  send(r, node(r, 0, 0), 0, 0, far, sizeof far);
  send(r, node(r, 0, 0), 0, 0, ill, sizeof ill);
  rig_drain(r, 3000); /* no hang */
  assert_int_equal(r->ngot, 0);
  assert_int_equal(rm(r, node(r, 3, 0), 0, 0)->cnt_bad_addr, 1); /* found at the edge */
  assert_int_equal(rm(r, node(r, 1, 0), 0, 0)->cnt_bad_code, 1); /* found at once */
  rig_free(r);
}

static void test_multi_segment(void **state) {
  (void)state;
  rig_t *r = rig_new(4, 4);
  uint8_t b[2 + 96];
  b[0] = (uint8_t)code(0, 3), b[1] = (uint8_t)code(2, 2);
  for (int i = 0; i < 96; i++) b[2 + i] = (uint8_t)(i * 13 + 1);
  send(r, node(r, 0, 0), 0, 0, b, sizeof b);
  rig_drain(r, 5000);
  expect_one(r, node(r, 3, 2), b + 2, 96);
  rig_free(r);
}

/* A long message from (1,0) east keeps (1,0)'s X output busy; a second message from (0,0) to (3,3)
   arrives at (1,0) while it is busy. */
static rig_t *blocked_rig(uint32_t second_code) {
  rig_t *r = rig_new(4, 4);
  uint8_t blk[1 + 90];
  blk[0] = (uint8_t)code(2, 3);
  for (int i = 0; i < 90; i++) blk[1 + i] = (uint8_t)i;
  send(r, node(r, 1, 0), 0, 0, blk, sizeof blk);
  for (int i = 0; i < 30; i++) rig_step(r);
  const uint8_t m[] = {(uint8_t)code(second_code, 3), (uint8_t)code(2, 3), 0xc0, 0xde};
  send(r, node(r, 0, 0), 0, 0, m, sizeof m);
  rig_drain(r, 5000);
  return r;
}

static void test_adaptive_turns_when_blocked(void **state) {
  (void)state;
  rig_t *r = blocked_rig(MP1_CODE_P2P_ADAPTIVE);
  assert_int_equal(rm(r, node(r, 1, 0), 0, 0)->cnt_adapt, 1);
  const got_t *g = got_at(r, node(r, 3, 3));
  assert_non_null(g);
  assert_int_equal(g->len, 2);
  assert_int_equal(g->b[0], 0xc0);
  /* the turn went into Y at x = 1: the message then turned again at its Y address? No: after an
     adaptive turn the flits are swapped, so (1,3) turns it into X towards x = 3. */
  assert_int_equal(rm(r, node(r, 1, 1), 0, 1)->cnt_adapt + rm(r, node(r, 1, 3), 0, 1)->cnt_adapt, 0);
  rig_free(r);
}

static void test_static_never_adapts(void **state) {
  (void)state;
  rig_t *r = blocked_rig(MP1_CODE_P2P_STATIC);
  assert_int_equal(sum_cnt(r, offsetof(mp1_rm_regs_t, cnt_adapt)), 0);
  const got_t *g = got_at(r, node(r, 3, 3));
  assert_non_null(g);
  assert_int_equal(g->b[1], 0xde);
  /* it waited behind the long message: it arrives after it */
  const got_t *blk = got_at(r, node(r, 3, 0));
  assert_non_null(blk);
  assert_true(g->t > blk->t);
  rig_free(r);
}

static void test_broadcast_rectangle(void **state) {
  (void)state;
  /* BCAST_2D from (0,0) to (2,2): every node of the rectangle but the source gets the data exactly
     once, its own column through the injection's fork (docs/mp1_draft4.md §10.3, the interface
     sets it, §10.4); nothing else does. */
  rig_t *r = rig_new(4, 4);
  const uint8_t b[] = {(uint8_t)code(4, 2), (uint8_t)code(5, 2), 0xb0, 0xb1, 0xb2};
  send(r, node(r, 0, 0), 0, 0, b, sizeof b);
  rig_drain(r, 3000);
  int count[16] = {0};
  for (int i = 0; i < r->ngot; i++) {
    count[r->got[i].node]++;
    assert_int_equal(r->got[i].len, 3);
    assert_memory_equal(r->got[i].b, b + 2, 3);
  }
  for (uint32_t y = 0; y < 4; y++)
    for (uint32_t x = 0; x < 4; x++)
      assert_int_equal(count[node(r, x, y)], (x <= 2 && y <= 2 && (x || y)) ? 1 : 0);
  assert_int_equal(r->st.chip[node(r, 0, 0)].r.cnt_inj_msgs, 1); /* one message: no code-5 one */
  rig_free(r);
}

static void test_broadcast_cut_to_one_segment(void **state) {
  (void)state;
  /* A broadcast of 60 data bytes: the first machine of each branch of the fork ((1,0) in X, (0,1)
     in Y) takes its first segment's EOS as its EOM and drops the rest (docs/mp1.md §8.8 rule 10,
     docs/mp1_draft4.md §4.4); every node of the rectangle but the source gets the first 30 data
     bytes, the cut is counted once per branch, and the mesh drains. */
  rig_t *r = rig_new(4, 4);
  uint8_t b[2 + 60];
  b[0] = (uint8_t)code(4, 2), b[1] = (uint8_t)code(5, 2);
  for (int i = 0; i < 60; i++) b[2 + i] = (uint8_t)(0x40 + i);
  send(r, node(r, 0, 0), 0, 0, b, sizeof b);
  rig_drain(r, 5000);
  assert_int_equal(r->ngot, 8);
  for (int i = 0; i < r->ngot; i++) {
    assert_int_equal(r->got[i].len, 30);
    assert_memory_equal(r->got[i].b, b + 2, 30);
  }
  assert_int_equal(rm(r, node(r, 1, 0), 0, 0)->cnt_bad_long, 1);
  assert_int_equal(rm(r, node(r, 0, 1), 0, 1)->cnt_bad_long, 1);
  assert_int_equal(sum_cnt(r, offsetof(mp1_rm_regs_t, cnt_bad_long)), 2);
  /* and the mesh still works afterwards */
  const uint8_t p[] = {(uint8_t)code(2, 3), 0x77};
  send(r, node(r, 0, 0), 0, 0, p, sizeof p);
  rig_drain(r, 2000);
  assert_int_equal(r->ngot, 9);
  assert_int_equal(r->got[8].node, node(r, 3, 0));
  rig_free(r);
}

static void test_intra_plane_piggyback(void **state) {
  (void)state;
  /* Consumed at (1,0), whose straight output sends the data on as a new message: its first flit is
     the next header, a DELIVER to x = 3. */
  rig_t *r = rig_new(4, 4);
  const uint8_t b[] = {(uint8_t)code(3, 1), (uint8_t)code(2, 3), 0x31, 0x32};
  send(r, node(r, 0, 0), 0, 0, b, sizeof b);
  rig_drain(r, 3000);
  expect_one(r, node(r, 3, 0), b + 2, 2);
  rig_free(r);
}

static void test_inter_plane_piggyback(void **state) {
  (void)state;
  /* Consumed at (2,0) into its chip's piggy-back channel, looped to the injection controller: a
     selection segment, then a new message on plane 2's Y output to (2,3) (a plane above the one
     it came in, §11.3). */
  rig_t *r = rig_new(4, 4);
  const uint8_t b[] = {(uint8_t)code(6, 2), (uint8_t)mp1_sel_flit(0, 2, 1), (uint8_t)code(2, 3),
                       0x61, 0x62, 0x63};
  r->split[node(r, 0, 0)] = 2; /* EOS after the selection flit */
  send(r, node(r, 0, 0), 0, 0, b, sizeof b);
  rig_drain(r, 3000);
  assert_int_equal(r->ngot, 1);
  assert_int_equal(r->got[0].node, node(r, 2, 3));
  assert_memory_equal(r->got[0].b, b + 3, 3);
  assert_int_equal(r->st.chip[node(r, 2, 0)].r.cnt_inj_msgs, 1);
  /* the same with the loop open: the message leaves on the chip's piggy-back output instead */
  rig_free(r);
  r = rig_new(4, 4);
  r->in[node(r, 2, 0)].pbloop = 0;
  r->split[node(r, 0, 0)] = 2;
  send(r, node(r, 0, 0), 0, 0, b, sizeof b);
  rig_drain(r, 3000);
  assert_int_equal(r->ngot, 0);
  assert_int_equal(r->npbo, 1);
  rig_free(r);
  /* re-injection into a plane not above the one it came in breaks the plane order: a bad
     selection, dropped and counted, and the chip goes on working */
  r = rig_new(4, 4);
  uint8_t down[sizeof b];
  memcpy(down, b, sizeof b);
  down[1] = (uint8_t)mp1_sel_flit(0, 0, 1);
  r->split[node(r, 0, 0)] = 2;
  send(r, node(r, 0, 0), 0, 0, down, sizeof down);
  rig_drain(r, 3000);
  assert_int_equal(r->ngot, 0);
  assert_int_equal(r->st.chip[node(r, 2, 0)].r.cnt_sel_bad, 1);
  r->split[node(r, 0, 0)] = 2;
  send(r, node(r, 0, 0), 0, 0, b, sizeof b);
  rig_drain(r, 3000);
  assert_int_equal(r->ngot, 1);
  rig_free(r);
}

/* ---- per-hop latency (the `madpost hop` engine) ----------------------------------------- */

static void test_hop_zero_load_formula(void **state) {
  (void)state;
  /* Every hop, straight or turning, costs the tail nothing beyond mad-postman pipelining, and the
     network latency of an F-flit message of S segments over d links is
     t = d + 3F - 1 + (S - 1): seed 004's formula plus one EOS chunk per segment boundary, no turn
     term (docs/mp1_draft4.md §11), for a spread of sources, destinations, lengths and both routing
     types. A straight hop takes 1 cycle; a turn or a delivery 3 AWF + 1 (a1's word, then the
     other output's first chunk, bypassed the cycle it arrives). */
  const uint32_t lens[] = {1, 4, 29, 30, 31, 62, 96};
  int runs = 0;
  for (uint32_t s = 0; s < 16; s += 3) {
    for (uint32_t d = 0; d < 16; d++) {
      if (d == s || (d + s) % 3) continue;
      for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        mp1_hop_cfg_t c = {.kx = 4, .ky = 4, .sx = s % 4, .sy = s / 4, .dx = d % 4, .dy = d / 4,
                           .len = lens[li], .adaptive = (d + li) & 1u, .seed = 1,
                           .max_cycles = 20000};
        mp1_hop_result_t res;
        char err[160];
        assert_int_equal(mp1_hop_run(&c, &res, err, sizeof err), 0);
        assert_true(res.data_ok);
        for (uint32_t h = 1; h < res.nhops; h++)
          assert_int_equal(res.hop[h].delay, res.hop[h].kind == MP1_HOP_STRAIGHT ? 1 : 4);
        const uint32_t dx = c.sx > c.dx ? c.sx - c.dx : c.dx - c.sx;
        const uint32_t dy = c.sy > c.dy ? c.sy - c.dy : c.dy - c.sy;
        assert_int_equal(res.links, dx + dy);
        assert_int_equal(res.turns, dx && dy ? 1 : 0);
        const int64_t f = res.flits, segs = (f + MP1_SEG_FLITS - 1) / MP1_SEG_FLITS;
        assert_int_equal(f, (dx && dy ? 2 : 1) + lens[li]);
        assert_int_equal((int64_t)res.net, (int64_t)(dx + dy) + 3 * f - 1 + (segs - 1));
        assert_int_equal((int64_t)res.net, res.predicted);
        assert_int_equal(res.formula, (int64_t)(dx + dy) + 3 * f - 1);
        runs++;
      }
    }
  }
  printf("zero-load latency t = d + 3F - 1 + (S - 1): %d combinations\n", runs);
  assert_int_equal(runs, 210);
}

static void test_hop_bad_config(void **state) {
  (void)state;
  mp1_hop_cfg_t c = {.kx = 4, .ky = 4, .sx = 1, .sy = 1, .dx = 1, .dy = 1, .len = 4,
                     .max_cycles = 1000};
  mp1_hop_result_t res;
  char err[160];
  assert_int_equal(mp1_hop_run(&c, &res, err, sizeof err), -2);
  assert_non_null(strstr(err, "same node"));
  c.dx = 4;
  assert_int_equal(mp1_hop_run(&c, &res, err, sizeof err), -2);
  assert_non_null(strstr(err, "outside"));
  c.dx = 2, c.kx = 33;
  assert_int_equal(mp1_hop_run(&c, &res, err, sizeof err), -2);
}

static void test_hop_background_load(void **state) {
  (void)state;
  /* Under background traffic the message still arrives intact; no hop is faster than one cycle;
     the same seed gives the same figures. */
  mp1_hop_cfg_t c = {.kx = 4, .ky = 4, .sx = 0, .sy = 0, .dx = 3, .dy = 3, .len = 20,
                     .load_ppm = 20000, .bg_len = 4, .seed = 7, .warmup = 500,
                     .max_cycles = 100000};
  mp1_hop_result_t a, b;
  char err[160];
  assert_int_equal(mp1_hop_run(&c, &a, err, sizeof err), 0);
  assert_int_equal(mp1_hop_run(&c, &b, err, sizeof err), 0);
  assert_true(a.data_ok);
  assert_true(a.bg_sent > 0);
  for (uint32_t h = 1; h < a.nhops; h++) assert_true(a.hop[h].delay >= 1);
  assert_int_equal(a.net, b.net);
  assert_int_equal(a.total, b.total);
  assert_true((int64_t)a.net >= a.predicted);
}

/* ---- address words of two flits: a mesh wider than 32 (docs/mp1.md §14) ------------------ */

/* Bytes of a header from a to b whose addresses are words of two flits, and its selection. */
static uint32_t hdr2(rig_t *r, uint32_t a, uint32_t b, uint32_t code2, uint32_t code1,
                     uint8_t *o, uint32_t *sel) {
  const uint32_t kx = r->st.cfg.kx, ax = a % kx, ay = a / kx, bx = b % kx, by = b / kx;
  uint32_t h = 0, dim = 0;
  if (ax != bx && ay != by) {
    h += mp1_addr_put(2, code2, bx, o);
    h += mp1_addr_put(2, code1, by, o + h);
  } else if (ax != bx) {
    h += mp1_addr_put(2, code1, bx, o);
  } else {
    h += mp1_addr_put(2, code1, by, o);
    dim = 1;
  }
  *sel = mp1_sel_flit(0, ((bx < ax) << 1) | (by < ay), dim);
  return h;
}

/* 40 x 3 at AWF = 2: point-to-point messages, static and adaptive, across the whole width and of
   one to three segments, each reach their node once with their data; nothing is dropped. */
static void test_awf2_mesh_end_to_end(void **state) {
  (void)state;
  rig_t *r = rig_new_awf(40, 3, 2);
  madpost_rng_t g;
  madpost_rng_seed(&g, 77, 0);
  enum { NMSG = 120 };
  static uint32_t dst[NMSG], len[NMSG];
  static uint8_t data[NMSG][80];
  uint32_t sent = 0;
  for (uint64_t t = 0; t < 200000 && (sent < NMSG || rig_busy(r)); t++) {
    if (sent < NMSG && t % 7 == 0) {
      const uint32_t s = madpost_rng_below(&g, r->n);
      if (r->tx[s].count < MP1_NIC_QUEUE) {
        uint32_t d = madpost_rng_below(&g, r->n - 1);
        d += d >= s;
        mp1_msg_t m;
        memset(&m, 0, sizeof m);
        uint32_t h = mp1_msg_p2p(2, 40, s, d, madpost_rng_below(&g, 2), &m);
        const uint32_t n =
            1 + (sent % 4 == 0 ? madpost_rng_below(&g, 80) : madpost_rng_below(&g, 8));
        data[sent][0] = (uint8_t)sent; /* the tag: each message's data differ */
        for (uint32_t i = 1; i < n; i++) data[sent][i] = (uint8_t)madpost_rng_below(&g, 256);
        memcpy(m.bytes + h, data[sent], n);
        m.len = h + n;
        dst[sent] = d, len[sent] = n;
        assert_int_equal(mp1_nic_push(&r->tx[s], &m), 0);
        sent++;
      }
    }
    rig_step(r);
  }
  assert_int_equal(sent, NMSG);
  assert_false(rig_busy(r));
  assert_int_equal(r->ngot, NMSG);
  static int seen[NMSG];
  for (int i = 0; i < r->ngot; i++) {
    const got_t *gm = &r->got[i];
    assert_true(gm->len >= 1);
    const uint32_t k = gm->b[0];
    assert_true(k < NMSG);
    seen[k]++;
    assert_int_equal(gm->node, dst[k]);
    assert_int_equal(gm->len, len[k]);
    assert_memory_equal(gm->b, data[k], len[k]);
  }
  for (uint32_t k = 0; k < NMSG; k++) assert_int_equal(seen[k], 1);
  assert_int_equal(sum_cnt(r, offsetof(mp1_rm_regs_t, cnt_bad_addr)) +
                       sum_cnt(r, offsetof(mp1_rm_regs_t, cnt_bad_code)) +
                       sum_cnt(r, offsetof(mp1_rm_regs_t, cnt_bad_long)) +
                       sum_cnt(r, offsetof(mp1_rm_regs_t, cnt_cut)),
                   0);
  rig_free(r);
}

/* A DELIVER to (33,0) from (0,0): cut through before its two-flit word is complete, the word runs
   on as a dead word, dropped once at every node from (34,0) to the edge (§14.2 rule 5). */
static void test_awf2_dead_word_runs_on(void **state) {
  (void)state;
  rig_t *r = rig_new_awf(40, 3, 2);
  uint8_t b[8];
  uint32_t sel;
  const uint32_t h = hdr2(r, node(r, 0, 0), node(r, 33, 0), 0, MP1_CODE_DELIVER, b, &sel);
  b[h] = 7, b[h + 1] = 8, b[h + 2] = 9;
  send(r, node(r, 0, 0), sel >> 3 & 3u, sel >> 2 & 1u, b, h + 3);
  rig_drain(r, 3000);
  expect_one(r, node(r, 33, 0), b + h, 3);
  for (uint32_t x = 34; x < 40; x++) assert_int_equal(rm(r, node(r, x, 0), 0, 0)->cnt_dead, 1);
  assert_int_equal(sum_cnt(r, offsetof(mp1_rm_regs_t, cnt_dead)), 6);
  assert_int_equal(sum_cnt(r, offsetof(mp1_rm_regs_t, cnt_cut)), 0);
  rig_free(r);
}

/* As test_adaptive_turns_when_blocked, beyond x = 32: a long message keeps (34,0)'s X output busy
   when an adaptive message from (33,0) to (38,2) arrives there; it turns into Y at x = 34 with
   its two-flit words swapped, turns back into X at y = 2 and is delivered at (38,2). */
static void test_awf2_adaptive_turn_delivers(void **state) {
  (void)state;
  rig_t *r = rig_new_awf(40, 3, 2);
  uint8_t blk[2 + 90], m[8];
  uint32_t sel, sel2;
  const uint32_t hb = hdr2(r, node(r, 34, 0), node(r, 39, 0), 0, MP1_CODE_DELIVER, blk, &sel);
  for (int i = 0; i < 90; i++) blk[hb + (uint32_t)i] = (uint8_t)i;
  send(r, node(r, 34, 0), sel >> 3 & 3u, sel >> 2 & 1u, blk, hb + 90);
  for (int i = 0; i < 30; i++) rig_step(r);
  const uint32_t h = hdr2(r, node(r, 33, 0), node(r, 38, 2), MP1_CODE_P2P_ADAPTIVE,
                          MP1_CODE_DELIVER, m, &sel2);
  m[h] = 0xc0, m[h + 1] = 0xde;
  send(r, node(r, 33, 0), sel2 >> 3 & 3u, sel2 >> 2 & 1u, m, h + 2);
  rig_drain(r, 5000);
  assert_int_equal(rm(r, node(r, 34, 0), 0, 0)->cnt_adapt, 1);
  assert_int_equal(sum_cnt(r, offsetof(mp1_rm_regs_t, cnt_adapt)), 1);
  const got_t *g = got_at(r, node(r, 38, 2));
  assert_non_null(g);
  assert_int_equal(g->len, 2);
  assert_memory_equal(g->b, m + h, 2);
  assert_int_equal(r->ngot, 2);
  assert_int_equal(sum_cnt(r, offsetof(mp1_rm_regs_t, cnt_bad_addr)), 0);
  rig_free(r);
}

/* BCAST_2D from (30,0) to (35,2) with two-flit words: every node of the rectangle but the source
   gets the data once (its column through the fork, whose Y output starts at chunk 3 AWF = 6),
   nothing else does. */
static void test_awf2_broadcast_rectangle(void **state) {
  (void)state;
  rig_t *r = rig_new_awf(40, 3, 2);
  uint8_t b[8];
  uint32_t sel;
  const uint32_t h = hdr2(r, node(r, 30, 0), node(r, 35, 2), MP1_CODE_BCAST_2D,
                          MP1_CODE_BCAST_1D, b, &sel);
  b[h] = 0xb0, b[h + 1] = 0xb1;
  send(r, node(r, 30, 0), sel >> 3 & 3u, sel >> 2 & 1u, b, h + 2);
  rig_drain(r, 3000);
  static int count[MAXN];
  memset(count, 0, sizeof count);
  for (int i = 0; i < r->ngot; i++) {
    count[r->got[i].node]++;
    assert_int_equal(r->got[i].len, 2);
    assert_memory_equal(r->got[i].b, b + h, 2);
  }
  for (uint32_t y = 0; y < 3; y++)
    for (uint32_t x = 0; x < 40; x++)
      assert_int_equal(count[node(r, x, y)], (x >= 30 && x <= 35 && (x > 30 || y)) ? 1 : 0);
  rig_free(r);
}

/* The mesh's size limit follows the address words: 32 per side with one flit, 8192 with two. */
static void test_awf_mesh_limits(void **state) {
  (void)state;
  mp1_mesh_state_t st;
  mp1_mesh_next_t nx;
  assert_int_equal(mp1_mesh_init(&st, &nx, (mp1_mesh_cfg_t){.kx = 33, .ky = 1}), -1);
  assert_int_equal(mp1_mesh_init(&st, &nx, (mp1_mesh_cfg_t){.kx = 33, .ky = 1, .awf = 1}), -1);
  assert_int_equal(mp1_mesh_init(&st, &nx, (mp1_mesh_cfg_t){.kx = 2, .ky = 2, .awf = 3}), -1);
  assert_int_equal(mp1_mesh_init(&st, &nx, (mp1_mesh_cfg_t){.kx = 8193, .ky = 1, .awf = 2}), -1);
  assert_int_equal(mp1_mesh_init(&st, &nx, (mp1_mesh_cfg_t){.kx = 8192, .ky = 1, .awf = 2, .lean = 1}),
                   0);
  assert_int_equal(st.cfg.awf, 2);
  mp1_mesh_free(&st, &nx);
  assert_int_equal(mp1_mesh_init(&st, &nx, (mp1_mesh_cfg_t){.kx = 32, .ky = 2}), 0);
  assert_int_equal(st.cfg.awf, 1); /* 0 is taken as 1 */
  mp1_mesh_free(&st, &nx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_inject_every_output),
      cmocka_unit_test(test_bad_selection),
      cmocka_unit_test(test_start_against_stop_dropped),
      cmocka_unit_test(test_arbiters_eom),
      cmocka_unit_test(test_selection_judged_at_third_chunk),
      cmocka_unit_test(test_fork_y_from_a2),
      cmocka_unit_test(test_window_back_to_back),
      cmocka_unit_test(test_window_serving),
      cmocka_unit_test(test_window_none_for_pb),
      cmocka_unit_test(test_window_skipping_chip),
      cmocka_unit_test(test_window_start_in_next),
      cmocka_unit_test(test_window_two_chips),
      cmocka_unit_test(test_reception_round_robin),
      cmocka_unit_test(test_err_plane_and_chip),
      cmocka_unit_test(test_err_mesh),
      cmocka_unit_test(test_dead_flit_runs_on),
      cmocka_unit_test(test_bad_address_and_code),
      cmocka_unit_test(test_multi_segment),
      cmocka_unit_test(test_adaptive_turns_when_blocked),
      cmocka_unit_test(test_static_never_adapts),
      cmocka_unit_test(test_broadcast_rectangle),
      cmocka_unit_test(test_broadcast_cut_to_one_segment),
      cmocka_unit_test(test_intra_plane_piggyback),
      cmocka_unit_test(test_inter_plane_piggyback),
      cmocka_unit_test(test_hop_zero_load_formula),
      cmocka_unit_test(test_hop_bad_config),
      cmocka_unit_test(test_hop_background_load),
      cmocka_unit_test(test_awf2_mesh_end_to_end),
      cmocka_unit_test(test_awf2_dead_word_runs_on),
      cmocka_unit_test(test_awf2_adaptive_turn_delivers),
      cmocka_unit_test(test_awf2_broadcast_rectangle),
      cmocka_unit_test(test_awf_mesh_limits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
