/* cmocka tests of the MP1 routing machine C model, draft 4 (docs/mp1_draft4.md; docs/mp1.md §2,
 * §8.5 and §14's address words of two flits): chunk streams in, chunk streams out, with a rig that
 * plays each output's arbiter (owned the cycle after a request unless another requester holds it)
 * and the stop of the receiver behind it. The timing cases are worked by hand from the document. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "check.h"
#include <madpost/mp1_rm.h>
#include "../cmodel/mp1_int.h" /* the quiet shortcut and the full eval, compared */

enum { MAXC = 4096, NEVER = 1 << 30 };

typedef struct {
  uint8_t c[MAXC];
  int n;
} stream_t;

/* A stream keeps its first MAXC chunks (a long random run records no more). */
static void rec(stream_t *s, uint32_t c) {
  if (s->n < MAXC)
    s->c[s->n++] = (uint8_t)c;
}

static void put_flit(stream_t *s, uint32_t b) {
  s->c[s->n++] = (uint8_t)(4u | ((b >> 6) & 3u));
  s->c[s->n++] = (uint8_t)((b >> 3) & 7u);
  s->c[s->n++] = (uint8_t)(b & 7u);
}

static uint32_t aflit(uint32_t code, uint32_t addr) { return code << 5 | addr; }

/* An address word {code, addr} as its awf flits, most significant first (docs/mp1.md §14.1). */
static void put_word(stream_t *s, uint32_t awf, uint32_t code, uint32_t addr) {
  const uint32_t w = mp1_addr_word(awf, code, addr);
  for (uint32_t f = 0; f < awf; f++)
    put_flit(s, mp1_addr_flit(awf, w, f));
}

/* Header flits, data flits, then an end code (none if 0). */
static void put_seg(stream_t *s, const uint32_t *hdr, int nh, const uint8_t *data, int nd,
                    uint8_t end) {
  for (int i = 0; i < nh; i++)
    put_flit(s, hdr[i]);
  for (int i = 0; i < nd; i++)
    put_flit(s, data[i]);
  if (end)
    s->c[s->n++] = end;
}

static void put_msg(stream_t *s, const uint32_t *hdr, int nh, const uint8_t *data, int nd) {
  put_seg(s, hdr, nh, data, nd, MP1_CH_EOM);
}

/* ---- the rig ------------------------------------------------------------------------------- */

typedef struct {
  mp1_rm_cfg_t cfg;
  mp1_rm_state_t st;
  mp1_rm_in_t in;
  int t;             /* the next cycle */
  uint32_t own[4];   /* the arbiter's register: we own output k in this cycle */
  int held_until[4]; /* another requester holds output k before this cycle */
  int dstop_from[4]; /* the receiver behind output k raises stop in [from, until) */
  int dstop_until[4];
  int allow_err;           /* err may rise (a sender that ignores stop) */
  uint32_t xstop[4];       /* a stop from a machine behind output k, this cycle */
  mp1_rm_out_t o;          /* the last cycle's outputs */
  stream_t wire[4];        /* the chunk on each output channel while we own it, cycle by cycle */
  stream_t req[4], stop_o; /* our requests and in_stop, cycle by cycle */
  int first_cycle[4];      /* the first cycle output k carries a non-idle chunk of ours */
  uint32_t max_occ;
  uint32_t wpos[4], after_eom[4]; /* framing of each output wire */
} rig_t;

static void rig_init(rig_t *r, uint32_t awf, uint32_t pos, uint32_t opos) {
  memset(r, 0, sizeof *r);
  r->cfg.awf = awf;
  mp1_rm_reset(&r->cfg, &r->st);
  r->in.pos = pos;
  r->in.opos = opos;
  for (int k = 0; k < 4; k++)
    r->first_cycle[k] = -1;
}

static void rig_hold(rig_t *r, int k, int until) { r->held_until[k] = until; }
static void rig_dstop(rig_t *r, int k, int from, int until) {
  r->dstop_from[k] = from;
  r->dstop_until[k] = until;
}

/* The quiet path gave what the full evaluation gives (mp1_rm.h): outputs, next registers and
 * buffer write; with keep, the full evaluation's next state is the state. */
static void check_quiet(const rig_t *r, const mp1_rm_next_t *nq) {
  mp1_rm_out_t of;
  mp1_rm_next_t nf;
  mp1_rm_eval_full(&r->cfg, &r->st, &r->in, &of, &nf, NULL);
#define CMP_OUT(n, c, w) CHECKF(of.n == r->o.n, "quiet path: output " #n " %u, full %u", r->o.n, of.n);
  MP1_RM_OUTPUTS(CMP_OUT)
#undef CMP_OUT
  const mp1_rm_regs_t *want = nq->keep ? &r->st.r : &nq->r;
#define CMP_REG(n, c, w)                                                                              \
  CHECKF(nf.r.n == want->n, "quiet path: register " #n " %u, full %u", (unsigned)want->n,          \
         (unsigned)nf.r.n);
  MP1_RM_REGS(CMP_REG)
#undef CMP_REG
  CHECKF(!nf.we && (nq->keep || !nq->we), "quiet path: a buffer write");
}

/* One cycle with chunk c on the input. */
static void rig_cycle(rig_t *r, uint32_t c) {
  const int t = r->t;
  uint32_t held[4], dstop[4];
  for (int k = 0; k < 4; k++) {
    held[k] = t < r->held_until[k] && !r->own[k]; /* an owner keeps its output */
    dstop[k] = (t >= r->dstop_from[k] && t < r->dstop_until[k]) || r->xstop[k];
  }
  mp1_rm_in_t *in = &r->in;
  in->in_dat = c;
  in->st_own = r->own[0], in->ot_own = r->own[1], in->rc_own = r->own[2], in->pb_own = r->own[3];
  in->st_free = !r->own[0] && !held[0], in->ot_free = !r->own[1] && !held[1];
  in->rc_free = !r->own[2] && !held[2], in->pb_free = !r->own[3] && !held[3];
  in->st_stop = dstop[0], in->ot_stop = dstop[1], in->rc_stop = dstop[2], in->pb_stop = dstop[3];
  mp1_rm_next_t nx;
  mp1_rm_eval(&r->cfg, &r->st, in, &r->o, &nx, NULL);
  if (mp1_rm_quiet(&r->st, c))
    check_quiet(r, &nx);
  CHECKF(r->allow_err || !r->o.err, "err at cycle %d (occupancy %u)", t,
         mp1_rm_occupancy(&r->cfg, &r->st));
  const uint32_t dat[4] = {r->o.st_dat, r->o.ot_dat, r->o.rc_dat, r->o.pb_dat};
  const uint32_t req[4] = {r->o.st_req, r->o.ot_req, r->o.rc_req, r->o.pb_req};
  for (int k = 0; k < 4; k++) {
    const uint32_t w = r->own[k] ? dat[k] : 0;
    /* the wire's framing, as the arbiters' pos (docs/mp1_draft4.md §8) */
    CHECKF(!r->after_eom[k] || w == 0, "cycle %d output %d: no idle chunk after an EOM (§2 rule 3)",
           t, k);
    r->after_eom[k] = r->wpos[k] == 0 && w == MP1_CH_EOM;
    r->wpos[k] = r->wpos[k] == 0 && (w & 4u) ? 1u : r->wpos[k] == 1 ? 2u : 0u;
    rec(&r->wire[k], w);
    rec(&r->req[k], req[k]);
    if (w && r->first_cycle[k] < 0)
      r->first_cycle[k] = t;
    r->own[k] = req[k] && !held[k];
  }
  rec(&r->stop_o, r->o.in_stop);
  mp1_rm_clock(&r->st, &nx);
  const uint32_t occ = mp1_rm_occupancy(&r->cfg, &r->st);
  if (occ > r->max_occ)
    r->max_occ = occ;
  r->t++;
}

/* Plays a stream as it is (the sender ignores stop), chunk t in cycle t, to `cycles` in all. */
static void rig_run(rig_t *r, const stream_t *s, int cycles) {
  while (r->t < cycles)
    rig_cycle(r, r->t < s->n ? s->c[r->t] : 0);
}

/* A sender that honours the channel rules (§2): a segment starts only in a cycle whose stop it
 * sees low; a message's first segment also only after an idle chunk; a later segment of the same
 * message may follow its EOS directly. Returns the cycle each segment started. */
typedef struct {
  const stream_t *seg;
  const int *newmsg;
  int nseg, k, pos, prev;
  int started[64];
} sender_t;

static uint32_t sender_chunk(sender_t *s, uint32_t stop_q, int t) {
  uint32_t c = 0;
  if (s->pos < 0 && s->k < s->nseg && !stop_q && (!s->newmsg[s->k] || s->prev == 0)) {
    s->pos = 0;
    s->started[s->k] = t;
  }
  if (s->pos >= 0) {
    c = s->seg[s->k].c[s->pos++];
    if (s->pos == s->seg[s->k].n)
      s->pos = -1, s->k++;
  }
  s->prev = (int)c;
  return c;
}

static void sender_init(sender_t *s, const stream_t *seg, const int *newmsg, int nseg) {
  memset(s, 0, sizeof *s);
  s->seg = seg;
  s->newmsg = newmsg;
  s->nseg = nseg;
  s->pos = -1;
}

static void rig_run_sender(rig_t *r, sender_t *s, int cycles) {
  while (r->t < cycles)
    rig_cycle(r, sender_chunk(s, r->st.r.stop, r->t));
  CHECKF(s->k == s->nseg, "only %d of %d segments went in", s->k, s->nseg);
}

static int machine_empty(const rig_t *r) {
  const mp1_rm_regs_t *q = &r->st.r;
  return !q->f_val && !q->b_val && !q->cs_st && !q->cs_ot && !q->cs_rc && !q->cs_pb && !q->stop;
}

/* The non-idle part of a stream: from its first non-idle chunk to its last. */
static void trimmed(const stream_t *s, stream_t *t) {
  int a = 0, b = s->n;
  while (a < b && s->c[a] == 0)
    a++;
  while (b > a && s->c[b - 1] == 0)
    b--;
  t->n = b - a;
  memcpy(t->c, s->c + a, (size_t)t->n);
}

static void assert_stream_eq(const stream_t *got, const stream_t *want) {
  if (got->n != want->n || memcmp(got->c, want->c, (size_t)want->n) != 0) {
    char g[512] = "", w[512] = "";
    for (int i = 0; i < got->n && i < 150; i++)
      snprintf(g + strlen(g), sizeof g - strlen(g), "%u", got->c[i]);
    for (int i = 0; i < want->n && i < 150; i++)
      snprintf(w + strlen(w), sizeof w - strlen(w), "%u", want->c[i]);
    fail_msg("stream differs\n got:  %s\n want: %s", g, w);
  }
}

static void assert_out(const rig_t *r, int k, const stream_t *want) {
  stream_t got;
  trimmed(&r->wire[k], &got);
  assert_stream_eq(&got, want);
}

/* The segments came out of output k in order: its non-idle chunks are theirs. */
static void assert_segs_out(const rig_t *r, int k, const stream_t *seg, int nseg) {
  stream_t got = {.n = 0}, want = {.n = 0};
  for (int i = 0; i < r->wire[k].n; i++)
    if (r->wire[k].c[i])
      got.c[got.n++] = r->wire[k].c[i];
  for (int j = 0; j < nseg; j++)
    for (int i = 0; i < seg[j].n; i++)
      if (seg[j].c[i])
        want.c[want.n++] = seg[j].c[i];
  assert_stream_eq(&got, &want);
}

static const uint8_t DATA[] = {0xA1, 0x02, 0x77, 0xFF, 0x13, 0x5C, 0x80, 0x3E};

/* ---- C: one cycle per hop, straight or turning ----------------------------------------------- */

/* §5.2, §5.4: the speculative straight copy claims the free output in the cycle the first chunk
 * arrives and sends it by bypass: each chunk is on the wire one cycle after it arrives. */
static void test_straight_claim_bypass(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 2, 0);
  stream_t in = {.n = 0};
  const uint32_t hdr[2] = {aflit(MP1_CODE_P2P_STATIC, 5), aflit(MP1_CODE_DELIVER, 3)};
  put_msg(&in, hdr, 2, DATA, 4);
  rig_cycle(&r, in.c[0]);
  assert_int_equal(r.o.st_req, 1); /* the claim asks in the arrival cycle */
  assert_int_equal(r.st.r.cs_st, MP1_RM_CS_RUN);
  assert_int_equal(r.st.r.st_dat, in.c[0]);
  assert_int_equal(r.st.r.rp_st, 1);
  assert_int_equal(r.st.r.wp, 1);
  rig_run(&r, &in, 40);
  assert_out(&r, MP1_RM_ST, &in);
  assert_int_equal(r.first_cycle[MP1_RM_ST], 1);
  for (int k = 1; k < 4; k++)
    assert_int_equal(r.first_cycle[k], -1);
  for (int t = 0; t < r.stop_o.n; t++)
    assert_int_equal(r.stop_o.c[t], 0);
  assert_true(machine_empty(&r));
  assert_int_equal(r.st.r.wp, in.n); /* every chunk was written, though none was read back */
}

/* §5.3, §11: a1 matches: the ot copy asks in the cycle a1 completes (t = 2) and sends a2's first
 * chunk by bypass the next cycle, on the wire at t = 4; the straight copy has sent a1 and ends
 * at chunk 3 without sending (a dead flit, then idle). */
static void test_turn_bypass(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 5, 1);
  stream_t in = {.n = 0}, dead = {.n = 0}, turn = {.n = 0};
  const uint32_t hdr[2] = {aflit(MP1_CODE_P2P_STATIC, 5), aflit(MP1_CODE_DELIVER, 3)};
  put_msg(&in, hdr, 2, DATA, 4);
  for (int t = 0; t < 4; t++) {
    rig_cycle(&r, in.c[t]);
    assert_int_equal(r.o.ot_req, t >= 2);
    assert_int_equal(r.o.st_req, t <= 2);
  }
  assert_int_equal(r.st.r.cs_st, MP1_RM_CS_OFF);
  assert_int_equal(r.st.r.cs_ot, MP1_RM_CS_RUN);
  rig_run(&r, &in, 40);
  put_flit(&dead, hdr[0]);
  assert_out(&r, MP1_RM_ST, &dead);
  assert_int_equal(r.wire[MP1_RM_ST].c[4], 0);
  put_msg(&turn, hdr + 1, 1, DATA, 4);
  assert_out(&r, MP1_RM_OT, &turn);
  assert_int_equal(r.first_cycle[MP1_RM_ST], 1);
  assert_int_equal(r.first_cycle[MP1_RM_OT], 4);
  assert_true(machine_empty(&r));
}

/* Code 2 at the match: the data are delivered, the rc copy asking as a1 completes. */
static void test_deliver(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 7, 0);
  stream_t in = {.n = 0}, want = {.n = 0};
  const uint32_t hdr[1] = {aflit(MP1_CODE_DELIVER, 7)};
  put_msg(&in, hdr, 1, DATA, 3);
  rig_run(&r, &in, 40);
  put_msg(&want, NULL, 0, DATA, 3);
  assert_out(&r, MP1_RM_RC, &want);
  assert_int_equal(r.first_cycle[MP1_RM_RC], 4);
  assert_true(machine_empty(&r));
}

/* D: a broadcast is forwarded speculatively and each copy starts on its own: straight by the
 * claim (t = 1 on the wire), ot with a2's first chunk (t = 4), rc with the data's (chunk 6, t = 7).
 */
static void test_broadcast_independent_copies(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 2, 4);
  stream_t in = {.n = 0}, w_ot = {.n = 0}, w_rc = {.n = 0};
  const uint32_t hdr[2] = {aflit(MP1_CODE_BCAST_2D, 9), aflit(MP1_CODE_BCAST_1D, 7)};
  put_msg(&in, hdr, 2, DATA, 3);
  rig_run(&r, &in, 60);
  put_msg(&w_ot, hdr + 1, 1, DATA, 3);
  put_msg(&w_rc, NULL, 0, DATA, 3);
  assert_out(&r, MP1_RM_ST, &in);
  assert_out(&r, MP1_RM_OT, &w_ot);
  assert_out(&r, MP1_RM_RC, &w_rc);
  assert_int_equal(r.first_cycle[MP1_RM_ST], 1);
  assert_int_equal(r.first_cycle[MP1_RM_OT], 4);
  assert_int_equal(r.first_cycle[MP1_RM_RC], 7);
  assert_true(machine_empty(&r));
}

/* ... and a copy whose output is held starts later from the buffer, the others unaffected. */
static void test_broadcast_copy_waits_alone(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 2, 4);
  rig_hold(&r, MP1_RM_RC, 50);
  stream_t in = {.n = 0}, w_rc = {.n = 0};
  const uint32_t hdr[2] = {aflit(MP1_CODE_BCAST_2D, 9), aflit(MP1_CODE_BCAST_1D, 7)};
  put_msg(&in, hdr, 2, DATA, 3);
  rig_run(&r, &in, 100);
  put_msg(&w_rc, NULL, 0, DATA, 3);
  assert_out(&r, MP1_RM_ST, &in);
  assert_out(&r, MP1_RM_RC, &w_rc);
  assert_int_equal(r.first_cycle[MP1_RM_ST], 1);
  assert_int_equal(r.first_cycle[MP1_RM_OT], 4);
  assert_int_equal(r.first_cycle[MP1_RM_RC], 52); /* asked free at 50, owned and started at 51 */
  assert_true(machine_empty(&r));
}

/* ---- A: the back message, and promotion ---------------------------------------------------- */

/* Three 6-flit messages to the straight output, held by another requester until U. F is blocked
 * from its first chunk (its straight copy waits, §6): stop is high from t = 1, while F's segment
 * still arrives, to U; F resumes by the claim at U, stop falls, and B enters at U + 1. B is
 * blocked as soon as it exists: stop is high again from U + 2, while B's own segment arrives
 * (U + 1 .. U + 19), until B's copy runs at U + 20 (promoted at U + 18, asks at U + 19); C waits
 * until then. Through the busy output the messages leave 3L + 2 = 20 cycles apart: each one's
 * first chunk is on the wire two cycles after the previous one's EOM (§5.6). */
static void test_back_message_and_period(void **state) {
  (void)state;
  enum { U = 40 };
  rig_t r;
  rig_init(&r, 1, 2, 0);
  rig_hold(&r, MP1_RM_ST, U);
  rig_hold(&r, MP1_RM_OT, NEVER);
  stream_t m[3] = {{.n = 0}, {.n = 0}, {.n = 0}};
  const uint32_t hdr[2] = {aflit(MP1_CODE_P2P_STATIC, 9), aflit(MP1_CODE_DELIVER, 3)};
  for (int i = 0; i < 3; i++) {
    uint8_t d[4] = {(uint8_t)(0x10 * i + 1), (uint8_t)(0x10 * i + 2), (uint8_t)(0x10 * i + 3),
                    0x44};
    put_msg(&m[i], hdr, 2, d, 4);
  }
  const int newmsg[3] = {1, 1, 1};
  sender_t s;
  sender_init(&s, m, newmsg, 3);
  rig_run_sender(&r, &s, 160);
  assert_int_equal(s.started[0], 0);
  assert_int_equal(r.stop_o.c[0], 0);
  for (int t = 1; t <= U; t++)
    assert_int_equal(r.stop_o.c[t], 1); /* F blocked while its segment arrives, and after */
  assert_int_equal(r.stop_o.c[U + 1], 0);
  assert_int_equal(s.started[1], U + 1); /* B enters once F resumes */
  for (int t = U + 2; t <= U + 20; t++)
    assert_int_equal(r.stop_o.c[t], 1); /* B: blocked while its segment arrives, until it runs */
  assert_int_equal(r.stop_o.c[U + 21], 0);
  /* F on the wire U + 1 .. U + 19 (EOM); B two cycles after: U + 21; C 20 later */
  assert_int_equal(r.first_cycle[MP1_RM_ST], U + 1);
  assert_int_equal(r.wire[MP1_RM_ST].c[U + 19], MP1_CH_EOM);
  assert_int_equal(r.wire[MP1_RM_ST].c[U + 20], 0);
  assert_int_equal(r.wire[MP1_RM_ST].c[U + 21], m[1].c[0]);
  assert_int_equal(r.wire[MP1_RM_ST].c[U + 39], MP1_CH_EOM);
  assert_int_equal(r.wire[MP1_RM_ST].c[U + 41], m[2].c[0]);
  /* C waited while B was the back message: it enters as B resumes (its copy starts at U + 20) */
  assert_int_equal(s.started[2], U + 21);
  assert_segs_out(&r, MP1_RM_ST, m, 3);
  assert_true(machine_empty(&r));
}

/* The promotion step by step (§5.6): F's last copy reads its EOM at T - 1, B's copy asks at T
 * (not at T - 1), starts at T + 1 (owned, the wire showing 000) and is on the wire at T + 2. */
static void test_promotion_timing(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 2, 0);
  rig_hold(&r, MP1_RM_ST, 30);
  stream_t m[2] = {{.n = 0}, {.n = 0}};
  const uint32_t hdr[2] = {aflit(MP1_CODE_P2P_STATIC, 9), aflit(MP1_CODE_DELIVER, 3)};
  put_msg(&m[0], hdr, 2, DATA, 2);
  put_msg(&m[1], hdr, 2, DATA + 2, 2);
  const int newmsg[2] = {1, 1};
  sender_t s;
  sender_init(&s, m, newmsg, 2);
  int T = -1;
  while (r.t < 100) {
    const int t = r.t;
    const int had_b = r.st.r.b_val;
    rig_cycle(&r, sender_chunk(&s, r.st.r.stop, t));
    if (had_b && !r.st.r.b_val) { /* promoted in cycle t = T - 1 */
      T = t + 1;
      assert_int_equal(r.o.st_dat, m[0].c[m[0].n - 2]); /* the wire: F's last flit chunk */
      assert_int_equal(r.st.r.st_dat, MP1_CH_EOM);
      assert_int_equal(r.st.r.cs_st, MP1_RM_CS_WAIT);
      assert_int_equal(r.st.r.rp_st, r.st.r.f_base);
    }
    if (T >= 0 && t == T - 1)
      assert_int_equal(r.o.st_req, 1); /* F's copy sends its EOM: still asks */
    if (T >= 0 && t == T)
      assert_int_equal(r.o.st_req, 1);
  }
  assert_true(T > 0);
  assert_int_equal(r.wire[MP1_RM_ST].c[T], MP1_CH_EOM);
  assert_int_equal(r.wire[MP1_RM_ST].c[T + 1], 0);
  assert_int_equal(r.wire[MP1_RM_ST].c[T + 2], m[1].c[0]);
  assert_true(machine_empty(&r));
}

/* ---- E: segments ------------------------------------------------------------------------------
 */

/* A later segment right after its EOS (§2 rule 2, §5.4): straight and turning, the output carries
 * the segments back to back, as they came. */
static void test_segment_directly_after_eos(void **state) {
  (void)state;
  for (int turn = 0; turn < 2; turn++) {
    rig_t r;
    rig_init(&r, 1, turn ? 9 : 2, 1);
    stream_t seg[3] = {{.n = 0}, {.n = 0}, {.n = 0}}, in = {.n = 0}, want = {.n = 0};
    const uint32_t hdr[2] = {aflit(MP1_CODE_P2P_STATIC, 9), aflit(MP1_CODE_DELIVER, 3)};
    put_seg(&seg[0], hdr, 2, DATA, 2, MP1_CH_EOS);
    put_seg(&seg[1], NULL, 0, DATA + 2, 2, MP1_CH_EOS);
    put_seg(&seg[2], NULL, 0, DATA + 4, 1, MP1_CH_EOM);
    const int newmsg[3] = {1, 0, 0};
    sender_t s;
    sender_init(&s, seg, newmsg, 3);
    rig_run_sender(&r, &s, 60);
    assert_int_equal(s.started[1], seg[0].n);
    assert_int_equal(s.started[2], seg[0].n + seg[1].n);
    for (int j = 0; j < 3; j++) {
      memcpy(in.c + in.n, seg[j].c, (size_t)seg[j].n);
      in.n += seg[j].n;
    }
    memcpy(want.c, in.c + 3 * turn, (size_t)(in.n - 3 * turn));
    want.n = in.n - 3 * turn;
    const int k = turn ? MP1_RM_OT : MP1_RM_ST;
    assert_out(&r, k, &want); /* contiguous: no idle chunk after either EOS */
    assert_int_equal(r.first_cycle[k], turn ? 4 : 1);
    assert_true(machine_empty(&r));
  }
}

/* A NEXT copy whose output's receiver has stop high waits; the next segment, buffered meanwhile,
 * then follows without an idle chunk; the message keeps its output between segments. */
static void test_next_waits_for_stop(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 2, 1);
  stream_t seg[2] = {{.n = 0}, {.n = 0}};
  const uint32_t hdr[2] = {aflit(MP1_CODE_P2P_STATIC, 9), aflit(MP1_CODE_DELIVER, 3)};
  put_seg(&seg[0], hdr, 2, DATA, 1, MP1_CH_EOS);
  put_seg(&seg[1], NULL, 0, DATA + 1, 3, MP1_CH_EOM);
  rig_dstop(&r, MP1_RM_ST, seg[0].n, 30); /* from the cycle after the EOS went out */
  const int newmsg[2] = {1, 0};
  sender_t s;
  sender_init(&s, seg, newmsg, 2);
  rig_run_sender(&r, &s, 60);
  for (int t = seg[0].n; t < 30; t++) {
    assert_int_equal(r.req[MP1_RM_ST].c[t], 1); /* reserved between segments */
    assert_int_equal(r.wire[MP1_RM_ST].c[t + 1], 0);
  }
  assert_int_equal(r.wire[MP1_RM_ST].c[31], seg[1].c[0]); /* starts at 30, stop low again */
  assert_segs_out(&r, MP1_RM_ST, seg, 2);
  assert_true(machine_empty(&r));
}

/* ---- F5a: the adaptive switch ------------------------------------------------------------------
 */

static void adaptive_msg(stream_t *in, stream_t *swapped, uint32_t awf) {
  const uint32_t a1 = mp1_addr_word(awf, MP1_CODE_P2P_ADAPTIVE, 9);
  const uint32_t a2 = mp1_addr_word(awf, MP1_CODE_DELIVER, 7);
  /* the words swap their addresses, each place keeping its code (docs/mp1.md §8.8 rule 9) */
  const uint32_t s1 = mp1_addr_word(awf, MP1_CODE_P2P_ADAPTIVE, 7);
  const uint32_t s2 = mp1_addr_word(awf, MP1_CODE_DELIVER, 9);
  for (uint32_t f = 0; f < awf; f++)
    put_flit(in, mp1_addr_flit(awf, a1, f));
  for (uint32_t f = 0; f < awf; f++)
    put_flit(in, mp1_addr_flit(awf, a2, f));
  put_seg(in, NULL, 0, DATA, 4, MP1_CH_EOM);
  for (uint32_t f = 0; f < awf; f++)
    put_flit(swapped, mp1_addr_flit(awf, s1, f));
  for (uint32_t f = 0; f < awf; f++)
    put_flit(swapped, mp1_addr_flit(awf, s2, f));
  put_seg(swapped, NULL, 0, DATA, 4, MP1_CH_EOM);
}

/* Straight owned but its receiver's stop high: straight is blocked (§7.1). a2 completes at t = 5,
 * adapt from t = 6: ot is asked at 6, owned at 7, and the turn starts then with a2's first chunk
 * (on the wire at 8); the straight request drops at 7; nothing went straight. */
static void test_adapt_when_straight_stopped(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 2, 4);
  rig_dstop(&r, MP1_RM_ST, 0, NEVER);
  stream_t in = {.n = 0}, want = {.n = 0};
  adaptive_msg(&in, &want, 1);
  rig_run(&r, &in, 60);
  for (int t = 0; t < 10; t++) {
    assert_int_equal(r.req[MP1_RM_OT].c[t], t >= 6);
    assert_int_equal(r.req[MP1_RM_ST].c[t], t < 7);
  }
  assert_int_equal(r.first_cycle[MP1_RM_OT], 8);
  assert_out(&r, MP1_RM_OT, &want);
  assert_int_equal(r.first_cycle[MP1_RM_ST], -1);
  assert_int_equal(r.st.r.cnt_adapt, 1);
  assert_int_equal(r.st.r.cnt_adapt_buf, 0); /* the segment was still arriving */
  assert_true(machine_empty(&r));
}

/* The same with ot held until the whole segment is in: the turn comes from the buffer. */
static void test_adapt_from_buffer(void **state) {
  (void)state;
  for (uint32_t awf = 1; awf <= 2; awf++) {
    rig_t r;
    rig_init(&r, awf, 2, 4);
    rig_hold(&r, MP1_RM_ST, NEVER);
    rig_hold(&r, MP1_RM_OT, 40);
    stream_t in = {.n = 0}, want = {.n = 0};
    adaptive_msg(&in, &want, awf);
    rig_run(&r, &in, 42);
    /* the turn reads a2's word first: a1's, still to be sent, keeps the occupancy from F's
       first chunk (§6: the oldest chunk F still needs) */
    assert_int_equal(r.st.r.cs_ot, MP1_RM_CS_RUN);
    assert_int_equal(r.st.r.rp_ot, 3 * awf + 1);
    assert_int_equal(mp1_rm_occupancy(&r.cfg, &r.st), in.n);
    rig_run(&r, &in, 100);
    assert_out(&r, MP1_RM_OT, &want);
    assert_int_equal(r.first_cycle[MP1_RM_OT], 42); /* owned at 41 (asked at 40) */
    assert_int_equal(r.st.r.cnt_adapt, 1);
    assert_int_equal(r.st.r.cnt_adapt_buf, 1);
    assert_true(machine_empty(&r));
  }
}

/* ot owned but its receiver's stop high: ot is not free for us, no switch (§7.1); the ot request
 * stands while straight is blocked and drops when straight's stop falls (t = 30) and the message
 * goes straight. */
static void test_no_adapt_when_ot_stopped(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 2, 4);
  rig_dstop(&r, MP1_RM_ST, 0, 30);
  rig_dstop(&r, MP1_RM_OT, 0, NEVER);
  stream_t in = {.n = 0}, sw = {.n = 0};
  adaptive_msg(&in, &sw, 1);
  rig_run(&r, &in, 80);
  for (int t = 0; t < 40; t++)
    assert_int_equal(r.req[MP1_RM_OT].c[t], t >= 6 && t < 30);
  assert_int_equal(r.first_cycle[MP1_RM_OT], -1);
  assert_int_equal(r.first_cycle[MP1_RM_ST], 31);
  assert_out(&r, MP1_RM_ST, &in);
  assert_int_equal(r.st.r.cnt_adapt, 0);
  assert_true(machine_empty(&r));
}

/* Once something of the message went straight there is no switch (F5a): a two-segment adaptive
 * message whose first segment went straight; straight's stop rises after it, ot is free, and the
 * second segment waits for straight without asking for ot. */
static void test_no_adapt_after_straight(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 2, 4);
  stream_t seg[2] = {{.n = 0}, {.n = 0}};
  const uint32_t hdr[2] = {aflit(MP1_CODE_P2P_ADAPTIVE, 9), aflit(MP1_CODE_DELIVER, 7)};
  put_seg(&seg[0], hdr, 2, DATA, 1, MP1_CH_EOS);
  put_seg(&seg[1], NULL, 0, DATA + 1, 3, MP1_CH_EOM);
  rig_dstop(&r, MP1_RM_ST, seg[0].n, 50);
  const int newmsg[2] = {1, 0};
  sender_t s;
  sender_init(&s, seg, newmsg, 2);
  rig_run_sender(&r, &s, 90);
  assert_int_equal(r.st.r.f_adapt, 0); /* cleared with F */
  for (int t = 0; t < r.req[MP1_RM_OT].n; t++)
    assert_int_equal(r.req[MP1_RM_OT].c[t], 0);
  assert_int_equal(r.first_cycle[MP1_RM_OT], -1);
  assert_segs_out(&r, MP1_RM_ST, seg, 2);
  assert_int_equal(r.wire[MP1_RM_ST].c[51], seg[1].c[0]);
  assert_int_equal(r.st.r.cnt_adapt, 0);
  assert_true(machine_empty(&r));
}

/* A two-dimension header cut by an EOS after a1, its route straight alone, is forwarded (§4.4);
 * a2 then completes in the next segment, away from 3 AWF .. 6 AWF - 1 where a turn reads it, so
 * the message does not turn (adapt is set only for a header whole in the first segment). */
static void test_no_adapt_split_header(void **state) {
  (void)state;
  for (uint32_t awf = 1; awf <= 2; awf++) {
    rig_t r;
    rig_init(&r, awf, 2, 4);
    rig_hold(&r, MP1_RM_ST, 150);
    stream_t seg[2] = {{.n = 0}, {.n = 0}};
    put_word(&seg[0], awf, MP1_CODE_P2P_ADAPTIVE, 9);
    seg[0].c[seg[0].n++] = MP1_CH_EOS;
    put_word(&seg[1], awf, MP1_CODE_DELIVER, 7);
    put_seg(&seg[1], NULL, 0, DATA, 2, MP1_CH_EOM);
    rig_run(&r, &seg[0], seg[0].n);
    for (int i = 0; i < seg[1].n; i++)
      rig_cycle(&r, seg[1].c[i]); /* directly after the EOS, ignoring stop */
    rig_run(&r, &seg[1], 250);
    assert_int_equal(r.st.r.cnt_adapt, 0);
    assert_int_equal(r.first_cycle[MP1_RM_OT], -1);
    assert_segs_out(&r, MP1_RM_ST, seg, 2);
    assert_true(machine_empty(&r));
  }
}

/* Intra-plane piggy-back of three segments (more than 128 chunks after a1): the new message runs
 * on without a hole when its pointer comes round to a1's end again (rnew has cleared as the new
 * message started). */
static void test_piggy_intra_long(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 5, 0);
  stream_t seg[3] = {{.n = 0}, {.n = 0}, {.n = 0}}, want = {.n = 0};
  put_flit(&seg[0], aflit(MP1_CODE_PIGGY_INTRA, 5));
  for (int i = 0; i < 31; i++)
    put_flit(&seg[0], (uint32_t)(i * 5 + 1));
  seg[0].c[seg[0].n++] = MP1_CH_EOS;
  for (int i = 0; i < 32; i++)
    put_flit(&seg[1], (uint32_t)(i * 3 + 2));
  seg[1].c[seg[1].n++] = MP1_CH_EOS;
  for (int i = 0; i < 10; i++)
    put_flit(&seg[2], (uint32_t)(i + 7));
  seg[2].c[seg[2].n++] = MP1_CH_EOM;
  const int newmsg[3] = {1, 0, 0};
  sender_t s;
  sender_init(&s, seg, newmsg, 3);
  rig_run_sender(&r, &s, 300);
  memcpy(want.c, seg[0].c, 3); /* the dead a1, an idle chunk, then the rest as it came */
  want.n = 3;
  want.c[want.n++] = 0;
  for (int j = 0; j < 3; j++) {
    const int from = j ? 0 : 3;
    memcpy(want.c + want.n, seg[j].c + from, (size_t)(seg[j].n - from));
    want.n += seg[j].n - from;
  }
  assert_out(&r, MP1_RM_ST, &want);
  assert_int_equal(r.st.r.f_rnew, 0);
  assert_true(machine_empty(&r));
}

/* Intra-plane piggy-back cut while its straight copy lags (§5.2: at chunk 3 AWF with rnew it
 * becomes WAIT, "or OFF with its request low if f_cut_q"). The copy must be RUN at the decision
 * (cycle 3 AWF - 1; a WAIT copy is moved to chunk 3 AWF then, §5.3) and lag enough to find f_cut_q
 * when it comes to chunk 3 AWF, which must be written: a lag L <= 3 AWF - 2 and a cut registered
 * by cycle L + 3 AWF after chunk 3 AWF was written. At AWF 1 that cannot be (L <= 1, the cut at
 * 5 at the earliest); at AWF 2 (chunk 6):
 *  - truncation (the lockstep's seed 214): straight held to t = 4, the copy claims it then and
 *    sends chunk i at 4 + i (RUN from t = 4, the decision at 5); a1's word and one flit, the gap
 *    at t = 9: cnt_cut (3 flits), f_cut_q from 10, when the copy is at chunk 6 (written at 6);
 *  - abort: held to t = 2; a1's word, EOS at 6 (a one-dimension code: no cut header, written), 011
 *    at 7: cnt_cut, f_cut_q from 8, when the copy is at chunk 6 (the EOS).
 * In that cycle (L + 6) the copy becomes OFF without sending, st_req low, and F is complete at
 * once (its input ended, no copy left): the machine is empty after the edge. Straight carries
 * a1's word, then idle (a dead word downstream), and is not asked for again. */
static void test_piggy_intra_cut_at_word_end(void **state) {
  (void)state;
  const uint32_t pos = 0x105;
  for (int abort = 0; abort < 2; abort++) {
    const int lag = abort ? 2 : 4, at = lag + 6;
    rig_t r;
    rig_init(&r, 2, pos, 0);
    rig_hold(&r, MP1_RM_ST, lag);
    stream_t in = {.n = 0}, want = {.n = 0};
    put_word(&in, 2, MP1_CODE_PIGGY_INTRA, pos);
    if (abort) {
      in.c[in.n++] = MP1_CH_EOS;
      in.c[in.n++] = MP1_CH_ILLEGAL;
    } else {
      put_flit(&in, mp1_addr_flit(2, mp1_addr_word(2, MP1_CODE_DELIVER, 9), 0));
    }
    const uint32_t wp_end = abort ? 7u : 9u; /* the abort is not written */
    for (int t = 0; t < 40; t++) {
      rig_cycle(&r, t < in.n ? in.c[t] : 0);
      const mp1_rm_regs_t *q = &r.st.r;
      if (t == 5) { /* decided, the copy already running */
        assert_int_equal(q->f_dec, 1);
        assert_int_equal(q->f_rnew, 1);
        assert_int_equal(q->cs_st, MP1_RM_CS_RUN);
      }
      if (t == at - 1) { /* the truncation or the abort: cut from the next cycle */
        assert_int_equal(q->f_cut, 1);
        assert_int_equal(q->f_in, 0);
        assert_int_equal(q->f_rnew, 1);
        assert_int_equal(q->cs_st, MP1_RM_CS_RUN);
        assert_int_equal(q->rp_st, 6); /* a1's word sent; chunk 6 is written */
        assert_int_equal(q->wp, wp_end);
      }
      if (t == at) {
        assert_int_equal(r.o.st_req, 0);
        assert_int_equal(q->cs_st, MP1_RM_CS_OFF);
        assert_int_equal(q->f_val, 0); /* F complete in this cycle */
        assert_int_equal(q->st_dat, 0);
      }
    }
    for (int t = 0; t < 40; t++) /* asked for from the creation to the cycle before */
      assert_int_equal(r.req[MP1_RM_ST].c[t], t < at);
    assert_int_equal(r.st.r.cnt_cut, 1);
    assert_int_equal(r.st.r.cnt_dead, 0);
    put_word(&want, 2, MP1_CODE_PIGGY_INTRA, pos);
    assert_out(&r, MP1_RM_ST, &want);
    assert_int_equal(r.first_cycle[MP1_RM_ST], lag + 1);
    assert_true(machine_empty(&r));
  }
}

/* ---- §6: stop and the buffer invariant ---------------------------------------------------------
 */

/* Both outputs held: the message is blocked from its first chunk, so stop is high from t = 1
 * while its first segment still arrives (§6: no wait for the segment's end); the blocked message
 * keeps it high, the occupancy keeps it high once straight frees until 29 chunks are left, and the
 * segments leave in order, err low throughout (the rig checks it every cycle). */
static void test_stop_occupancy(void **state) {
  (void)state;
  for (uint32_t awf = 1; awf <= 2; awf++) {
    rig_t r;
    rig_init(&r, awf, 2, 4);
    rig_hold(&r, MP1_RM_ST, 400);
    rig_hold(&r, MP1_RM_OT, NEVER);
    stream_t seg[3] = {{.n = 0}, {.n = 0}, {.n = 0}};
    for (uint32_t f = 0; f < awf; f++)
      put_flit(&seg[0], mp1_addr_flit(awf, mp1_addr_word(awf, MP1_CODE_P2P_ADAPTIVE, 9), f));
    for (uint32_t f = 0; f < awf; f++)
      put_flit(&seg[0], mp1_addr_flit(awf, mp1_addr_word(awf, MP1_CODE_DELIVER, 7), f));
    for (int i = 0; i < 32 - 2 * (int)awf; i++)
      put_flit(&seg[0], (uint32_t)i);
    seg[0].c[seg[0].n++] = MP1_CH_EOS;
    for (int i = 0; i < 32; i++)
      put_flit(&seg[1], (uint32_t)(100 + i));
    seg[1].c[seg[1].n++] = MP1_CH_EOS;
    for (int i = 0; i < 5; i++)
      put_flit(&seg[2], (uint32_t)(200 + i));
    seg[2].c[seg[2].n++] = MP1_CH_EOM;
    const int newmsg[3] = {1, 0, 0};
    sender_t s;
    sender_init(&s, seg, newmsg, 3);
    int t_stop = -1;
    while (r.t < 900) {
      rig_cycle(&r, sender_chunk(&s, r.st.r.stop, r.t));
      const uint32_t occ = mp1_rm_occupancy(&r.cfg, &r.st);
      if (r.t <= 400)
        assert_int_equal(occ, r.st.r.wp); /* the first chunk is at 0 and nothing is read */
      if (r.st.r.stop && t_stop < 0) {
        t_stop = r.t;
        assert_int_equal(r.st.r.wp, 1);
        assert_int_equal(r.st.r.iseg, 1);
      }
      const mp1_rm_regs_t *q = &r.st.r;
      const int run = q->cs_st == MP1_RM_CS_RUN || q->cs_ot == MP1_RM_CS_RUN;
      const int blocked = q->b_val || (q->f_val && !q->f_drop && occ > 0 && !run);
      CHECKF(q->stop == (occ > 29 || blocked), "t %d occ %u", r.t, occ);
    }
    assert_int_equal(t_stop, 1);
    assert_int_equal(s.started[1], 400 + 97 - 29); /* stop falls at occupancy 29 */
    assert_int_equal(r.max_occ, 97);
    assert_segs_out(&r, MP1_RM_ST, seg, 3);
    assert_true(machine_empty(&r));
  }
}

/* The occupancy threshold alone (§6): a 2D broadcast of 12 flits whose straight copy cuts through
 * (F runs, so it is not blocked) while ot and rc are held: both wait at F's first chunk, so the
 * occupancy is the writer's count. stop rises exactly when the occupancy passes 29: the write of
 * chunk 29 (t = 29) makes it 30, stop high from t = 30, for both AWF (no lead window); it falls
 * when ot and rc have started and the writer is at most 29 ahead of both. */
static void test_stop_threshold(void **state) {
  (void)state;
  for (uint32_t awf = 1; awf <= 2; awf++) {
    rig_t r;
    rig_init(&r, awf, 2, 4);
    rig_hold(&r, MP1_RM_OT, 60);
    rig_hold(&r, MP1_RM_RC, 60);
    stream_t in = {.n = 0};
    put_word(&in, awf, MP1_CODE_BCAST_2D, 9);
    put_word(&in, awf, MP1_CODE_BCAST_1D, 7);
    put_seg(&in, NULL, 0, DATA, 8, 0);
    put_seg(&in, NULL, 0, DATA, 4 - 2 * (int)awf, MP1_CH_EOM);
    assert_int_equal(in.n, 37); /* 12 flits and the EOM */
    for (int t = 0; t < 40; t++) {
      rig_cycle(&r, t < in.n ? in.c[t] : 0);
      assert_int_equal(r.st.r.cs_st, t < in.n - 1 ? MP1_RM_CS_RUN : MP1_RM_CS_OFF);
      /* after cycle t the writer holds t + 1 chunks (37 at most), all still needed */
      assert_int_equal(mp1_rm_occupancy(&r.cfg, &r.st), t < in.n ? (uint32_t)t + 1 : 37u);
      assert_int_equal(r.st.r.stop, t + 1 >= 30);
    }
    rig_run(&r, &in, 200);
    assert_out(&r, MP1_RM_ST, &in);
    assert_true(machine_empty(&r));
  }
}

/* The §6 bound reached with a sender that honours stop: a broadcast F of 28 chunks whose rc copy
 * runs behind the input (so F is not blocked and stop stays low) while its ot copy waits at F's
 * first chunk;
 * B, a full 97-chunk segment, enters behind it. The occupancy reaches 28 + 97 = 125 (the most
 * whole flits allow below §6's 29 + 1 + 97), at AWF 1 and 2 alike, without err; then all leaves
 * in order. */
static void test_fill_to_bound(void **state) {
  (void)state;
  for (uint32_t awf = 1; awf <= 2; awf++) {
    rig_t r;
    rig_init(&r, awf, 2, 4);
    rig_hold(&r, MP1_RM_OT, 200);
    rig_hold(&r, MP1_RM_RC, 4 + 6 * (int)awf); /* rc runs behind the input: F is never blocked */
    stream_t m[2] = {{.n = 0}, {.n = 0}}, w_ot = {.n = 0};
    const uint32_t a1 = mp1_addr_word(awf, MP1_CODE_BCAST_2D, 9);
    const uint32_t a2 = mp1_addr_word(awf, MP1_CODE_BCAST_1D, 7);
    for (uint32_t f = 0; f < awf; f++)
      put_flit(&m[0], mp1_addr_flit(awf, a1, f));
    for (uint32_t f = 0; f < awf; f++)
      put_flit(&w_ot, mp1_addr_flit(awf, a2, f));
    put_seg(&w_ot, NULL, 0, DATA, 9 - 2 * (int)awf, MP1_CH_EOM);
    memcpy(m[0].c + m[0].n, w_ot.c, (size_t)w_ot.n);
    m[0].n += w_ot.n;
    assert_int_equal(m[0].n, 28);
    const uint32_t b1 = mp1_addr_word(awf, MP1_CODE_P2P_STATIC, 9);
    const uint32_t b2 = mp1_addr_word(awf, MP1_CODE_DELIVER, 7);
    for (uint32_t f = 0; f < awf; f++)
      put_flit(&m[1], mp1_addr_flit(awf, b1, f));
    for (uint32_t f = 0; f < awf; f++)
      put_flit(&m[1], mp1_addr_flit(awf, b2, f));
    for (int i = 0; i < 32 - 2 * (int)awf; i++)
      put_flit(&m[1], (uint32_t)(i * 7));
    m[1].c[m[1].n++] = MP1_CH_EOM;
    assert_int_equal(m[1].n, 97);
    const int newmsg[2] = {1, 1};
    sender_t s;
    sender_init(&s, m, newmsg, 2);
    rig_run_sender(&r, &s, 400);
    assert_int_equal(s.started[1], 29); /* right after the idle chunk that follows F */
    assert_int_equal(r.max_occ, 125);
    assert_segs_out(&r, MP1_RM_ST, m, 2);
    assert_out(&r, MP1_RM_OT, &w_ot);
    assert_true(machine_empty(&r));
  }
}

/* err is real: a sender that ignores stop while a whole segment waits makes the writer reach the
 * oldest chunk F needs; err rises in the first cycle a chunk is written with 127 already held. */
static void test_err_when_stop_ignored(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 2, 4);
  r.allow_err = 1;
  rig_hold(&r, MP1_RM_ST, NEVER);
  rig_hold(&r, MP1_RM_OT, NEVER);
  stream_t in = {.n = 0};
  put_flit(&in, aflit(MP1_CODE_P2P_STATIC, 9));
  put_flit(&in, aflit(MP1_CODE_DELIVER, 7));
  for (int i = 0; i < 30; i++)
    put_flit(&in, (uint32_t)i);
  in.c[in.n++] = MP1_CH_EOS; /* 97 chunks */
  for (int i = 0; i < 20; i++)
    put_flit(&in, (uint32_t)(i + 50));
  in.c[in.n++] = MP1_CH_EOM;
  int first_err = -1;
  for (int i = 0; i < in.n; i++) {
    const uint32_t occ = mp1_rm_occupancy(&r.cfg, &r.st);
    rig_cycle(&r, in.c[i]);
    if (r.o.err && first_err < 0) {
      first_err = i;
      assert_int_equal(occ, 127);
    }
    if (first_err < 0)
      assert_true(occ <= 126);
  }
  assert_int_equal(first_err, 127);
}

/* ---- bad, dead, cut ---------------------------------------------------------------------------
 */

/* A lone flit followed by a gap is a dead flit: dropped here when it cannot pass (edge: no
 * speculative copy). */
static void test_dead_flit_dropped(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 4, 0);
  r.in.edge = 1;
  stream_t in = {.n = 0};
  put_flit(&in, aflit(MP1_CODE_P2P_STATIC, 3)); /* behind this node: it matched upstream */
  rig_run(&r, &in, 20);
  assert_int_equal(r.st.r.cnt_dead, 1);
  for (int k = 0; k < 4; k++)
    assert_int_equal(r.first_cycle[k], -1);
  assert_true(machine_empty(&r));
}

/* A dead flit arriving behind a blocked message becomes B and is cleared at its truncation:
 * counted, nothing of it sent, F unaffected. */
static void test_dead_flit_as_back_message(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 2, 4);
  rig_hold(&r, MP1_RM_ST, 25);
  stream_t in = {.n = 0}, f = {.n = 0};
  const uint32_t hdr[2] = {aflit(MP1_CODE_P2P_STATIC, 9), aflit(MP1_CODE_DELIVER, 3)};
  put_msg(&f, hdr, 2, DATA, 1);
  memcpy(in.c, f.c, (size_t)f.n);
  in.n = f.n;
  in.c[in.n++] = 0;
  put_flit(&in, aflit(MP1_CODE_P2P_STATIC, 1)); /* behind: a dead flit */
  rig_run(&r, &in, 18);
  assert_int_equal(r.st.r.b_val, 0);
  assert_int_equal(r.st.r.cnt_dead, 1);
  assert_int_equal(r.st.r.wp, f.n); /* its chunks went with it */
  rig_run(&r, &in, 60);
  assert_out(&r, MP1_RM_ST, &f);
  assert_true(machine_empty(&r));
}

/* A bad message (a1 behind this node) whose speculative straight copy is still waiting: nothing
 * of it is sent when straight frees later; the message is dropped as it arrives. */
static void test_bad_message_sends_nothing_from_wait(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 4, 0);
  rig_hold(&r, MP1_RM_ST, 30);
  stream_t in = {.n = 0};
  const uint32_t hdr[2] = {aflit(MP1_CODE_P2P_STATIC, 1), aflit(MP1_CODE_DELIVER, 3)};
  put_msg(&in, hdr, 2, DATA, 4);
  rig_run(&r, &in, 25);
  assert_int_equal(r.st.r.cnt_bad_addr, 1);
  assert_true(machine_empty(&r)); /* before straight frees */
  rig_run(&r, &in, 60);
  for (int k = 0; k < 4; k++)
    assert_int_equal(r.first_cycle[k], -1);
}

/* With no neighbour straight ahead (edge) a message promoted before its a1 is complete gets no
 * speculative straight copy (§5.6): straight is never asked for. */
static void test_edge_promotion_no_straight(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 2, 0);
  r.in.edge = 1;
  /* the first delivery runs 2 behind: the second is promoted in the cycle it starts (29), a1
     incomplete */
  rig_hold(&r, MP1_RM_RC, 4);
  stream_t m[2] = {{.n = 0}, {.n = 0}}, w = {.n = 0};
  const uint32_t hdr[1] = {aflit(MP1_CODE_DELIVER, 2)};
  put_msg(&m[0], hdr, 1, DATA, 8);
  put_msg(&m[1], hdr, 1, DATA + 2, 3);
  const int newmsg[2] = {1, 1};
  sender_t s;
  sender_init(&s, m, newmsg, 2);
  rig_run_sender(&r, &s, 80);
  assert_int_equal(s.started[1], 29);
  for (int t = 0; t < r.req[MP1_RM_ST].n; t++)
    assert_int_equal(r.req[MP1_RM_ST].c[t], 0);
  put_msg(&w, NULL, 0, DATA, 8);
  put_msg(&w, NULL, 0, DATA + 2, 3);
  assert_segs_out(&r, MP1_RM_RC, &w, 1);
  assert_true(machine_empty(&r));
}

/* A turn into a missing output is a bad message: a1 goes straight speculatively (a dead flit
 * downstream), the rest is dropped and counted. */
static void test_turn_into_missing_output(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 5, 1);
  r.in.oedge = 1;
  stream_t in = {.n = 0}, dead = {.n = 0};
  const uint32_t hdr[2] = {aflit(MP1_CODE_P2P_STATIC, 5), aflit(MP1_CODE_DELIVER, 3)};
  put_msg(&in, hdr, 2, DATA, 4);
  rig_run(&r, &in, 60);
  assert_int_equal(r.st.r.cnt_bad_addr, 1);
  assert_int_equal(r.first_cycle[MP1_RM_OT], -1);
  put_flit(&dead, hdr[0]);
  assert_out(&r, MP1_RM_ST, &dead);
  assert_true(machine_empty(&r));
}

/* A broadcast is one segment (draft 3 §8.8 rule 10, kept): its EOS leaves as EOM on every copy,
 * the rest is dropped and counted. */
static void test_broadcast_cut(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 2, 4);
  stream_t seg[2] = {{.n = 0}, {.n = 0}}, want = {.n = 0};
  const uint32_t hdr[2] = {aflit(MP1_CODE_BCAST_2D, 9), aflit(MP1_CODE_BCAST_1D, 7)};
  put_seg(&seg[0], hdr, 2, DATA, 1, MP1_CH_EOS);
  put_seg(&seg[1], NULL, 0, DATA + 1, 1, MP1_CH_EOM);
  const int newmsg[2] = {1, 0};
  sender_t s;
  sender_init(&s, seg, newmsg, 2);
  rig_run_sender(&r, &s, 60);
  memcpy(want.c, seg[0].c, (size_t)seg[0].n);
  want.n = seg[0].n;
  want.c[want.n - 1] = MP1_CH_EOM;
  assert_out(&r, MP1_RM_ST, &want);
  stream_t w_rc = {.n = 0};
  put_msg(&w_rc, NULL, 0, DATA, 1);
  assert_out(&r, MP1_RM_RC, &w_rc);
  assert_int_equal(r.st.r.cnt_bad_long, 1);
  assert_true(machine_empty(&r));
}

/* An abort between segments (§4.2): after the buffered segment has gone out, the copy sends 011
 * between segments; before it has started, nothing is sent. */
static void test_abort_between_segments(void **state) {
  (void)state;
  for (int early = 0; early < 2; early++) {
    rig_t r;
    rig_init(&r, 1, 4, 2);
    rig_hold(&r, MP1_RM_OT, 40);
    stream_t in = {.n = 0}, want = {.n = 0};
    const uint32_t hdr[2] = {aflit(MP1_CODE_P2P_STATIC, 4), aflit(MP1_CODE_DELIVER, 7)};
    put_seg(&in, hdr, 2, DATA, 1, MP1_CH_EOS);
    const int n0 = in.n;
    for (int t = 0; t < 80; t++) {
      const int at = early ? n0 + 2 : 60; /* the abort, while held or after the segment left */
      rig_cycle(&r, t < n0 ? in.c[t] : t == at ? MP1_CH_ILLEGAL : 0);
    }
    assert_int_equal(r.st.r.cnt_cut, 1);
    put_seg(&want, hdr + 1, 1, DATA, 1, MP1_CH_EOS);
    if (!early) {
      want.c[want.n++] = MP1_CH_ILLEGAL;
      assert_segs_out(&r, MP1_RM_OT, &want, 1);
      /* in at 60, the NEXT copy of the cut message sends it at 61: on the wire at 62 */
      assert_int_equal(r.wire[MP1_RM_OT].c[62], MP1_CH_ILLEGAL);
    } else {
      assert_int_equal(r.first_cycle[MP1_RM_OT], -1);
    }
    assert_true(machine_empty(&r));
  }
}

/* F truncated after its header (a cut) while its copy runs behind the input; B starts right
 * after the gap. F's copy stops at F's end (B's first chunk), not at the writer: its output
 * shows idle after F's last chunk (a truncation downstream), and B follows as its own message.
 * Variant: a dead flit comes first as B and is cleared; its chunks go with it (the writer returns
 * to F's end), so F's copy does not send them either. */
static void test_cut_front_stops_at_back(void **state) {
  (void)state;
  for (int dead = 0; dead < 2; dead++) {
    rig_t r;
    rig_init(&r, 1, 2, 4);
    rig_hold(&r, MP1_RM_ST, 15);
    stream_t f = {.n = 0}, b = {.n = 0}, in = {.n = 0}, got = {.n = 0};
    const uint32_t hdr[2] = {aflit(MP1_CODE_P2P_STATIC, 9), aflit(MP1_CODE_DELIVER, 3)};
    put_seg(&f, hdr, 2, DATA, 8, 0); /* 30 chunks, then the gap */
    put_msg(&b, hdr, 2, DATA + 4, 2);
    memcpy(in.c, f.c, (size_t)f.n);
    in.n = f.n;
    in.c[in.n++] = 0;
    if (dead) {
      put_flit(&in, aflit(MP1_CODE_P2P_STATIC, 1)); /* behind: dead here */
      in.c[in.n++] = 0;
    }
    memcpy(in.c + in.n, b.c, (size_t)b.n);
    in.n += b.n;
    for (int t = 0; t < 100; t++) {
      if (t == f.n + 1)
        assert_int_equal(r.st.r.stop, 0); /* F runs: B may start */
      rig_cycle(&r, t < in.n ? in.c[t] : 0);
      if (dead && t == f.n + 4) {
        assert_int_equal(r.st.r.b_val, 0);
        assert_int_equal(r.st.r.wp, f.n);
      }
    }
    assert_int_equal(r.st.r.cnt_cut, 1);
    assert_int_equal(r.st.r.cnt_dead, dead);
    trimmed(&r.wire[MP1_RM_ST], &got);
    assert_true(got.n > f.n + b.n);
    assert_memory_equal(got.c, f.c, (size_t)f.n);
    assert_int_equal(got.c[f.n], 0);
    assert_memory_equal(got.c + got.n - b.n, b.c, (size_t)b.n);
    for (int i = f.n; i < got.n - b.n; i++)
      assert_int_equal(got.c[i], 0);
    assert_true(machine_empty(&r));
  }
}

/* An abort between B's segments (taken whatever stop says, §2 rule 4): B keeps its slot, cut,
 * until F is complete; promoted, its copies end without sending. */
static void test_abort_of_back_message(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 2, 4);
  rig_hold(&r, MP1_RM_ST, 25); /* F runs 25 behind: B is still the back message at the abort */
  stream_t f = {.n = 0}, in = {.n = 0};
  const uint32_t hdr[2] = {aflit(MP1_CODE_P2P_STATIC, 9), aflit(MP1_CODE_DELIVER, 3)};
  put_msg(&f, hdr, 2, DATA, 8);
  memcpy(in.c, f.c, (size_t)f.n);
  in.n = f.n;
  in.c[in.n++] = 0;
  put_seg(&in, hdr, 2, DATA, 1, MP1_CH_EOS); /* B's first segment */
  const int abort_at = in.n;
  in.c[in.n++] = MP1_CH_ILLEGAL;
  for (int t = 0; t < 100; t++) {
    rig_cycle(&r, t < in.n ? in.c[t] : 0);
    if (t == abort_at) {
      assert_int_equal(r.st.r.b_val, 1);
      assert_int_equal(r.st.r.b_in, 0);
      assert_int_equal(r.st.r.b_cut, 1);
    }
  }
  assert_int_equal(r.st.r.cnt_cut, 1);
  assert_out(&r, MP1_RM_ST, &f);
  assert_true(machine_empty(&r));
}

/* A dropping back message's input end (§4.4): a slot that drops its input (bad a1, over-long
 * segment, cut broadcast) ends it at an EOM, a truncation or an abort without counting it and
 * without setting cut; the bad and the over-long B are then cleared (the writer back at B's first
 * chunk), the cut broadcast B is kept whatever ended its input, its first segment (ended by the
 * EOM written for its EOS) sent once F has gone. F (straight to 9) is held until t = 150. */
static void test_dropping_back_message_ends(void **state) {
  (void)state;
  enum { BAD, LONG, BCAST };
  enum { END_EOM, END_TRUNC, END_ABORT };
  for (int kind = BAD; kind <= BCAST; kind++)
    for (int end = END_EOM; end <= END_ABORT; end++) {
      rig_t r;
      rig_init(&r, 1, 2, 4);
      rig_hold(&r, MP1_RM_ST, 150);
      stream_t f = {.n = 0}, in = {.n = 0}, w_st = {.n = 0}, w_rc = {.n = 0};
      const uint32_t hdr[2] = {aflit(MP1_CODE_P2P_STATIC, 9), aflit(MP1_CODE_DELIVER, 3)};
      put_msg(&f, hdr, 2, DATA, 1);
      memcpy(in.c, f.c, (size_t)f.n);
      in.n = f.n;
      in.c[in.n++] = 0;
      const int bbase = in.n;
      int bkept = 0; /* B's chunks kept: its first segment, the EOS written as EOM */
      if (kind == BAD) {
        const uint32_t bh[2] = {aflit(MP1_CODE_P2P_STATIC, 1), aflit(MP1_CODE_DELIVER, 3)};
        put_seg(&in, bh, 2, DATA, 1, 0); /* a1 behind: bad at a2's first chunk */
      } else if (kind == LONG) {
        put_seg(&in, hdr, 2, NULL, 0, 0);
        for (int i = 0; i < 31; i++) /* the 33rd flit is over-long */
          put_flit(&in, (uint32_t)i);
      } else {
        const uint32_t bh[1] = {aflit(MP1_CODE_BCAST_1D, 9)};
        put_seg(&in, bh, 1, DATA, 1, MP1_CH_EOS); /* cut: kept as one segment ended by EOM */
        bkept = in.n - bbase;
        put_seg(&w_st, bh, 1, DATA, 1, MP1_CH_EOM);
        put_seg(&w_rc, NULL, 0, DATA, 1, MP1_CH_EOM);
        if (end != END_ABORT)
          put_flit(&in, DATA[2]); /* the next segment */
      }
      if (kind != BCAST && end == END_ABORT)
        in.c[in.n++] = MP1_CH_EOS;
      in.c[in.n++] = end == END_EOM ? MP1_CH_EOM : end == END_TRUNC ? 0 : MP1_CH_ILLEGAL;
      rig_run(&r, &in, in.n + 2);
      const mp1_rm_regs_t *q = &r.st.r;
      CHECKF(q->b_val == (kind == BCAST), "kind %d end %d: b_val %u", kind, end, q->b_val);
      CHECKF(q->wp == (uint32_t)(f.n + bkept), "kind %d end %d: wp %u", kind, end, q->wp);
      if (kind == BCAST) {
        assert_int_equal(q->b_in, 0);
        assert_int_equal(q->b_cut, 0);
        assert_int_equal(q->b_drop, 1);
        assert_int_equal(q->b_dec, 1);
      }
      assert_int_equal(q->cnt_cut + q->cnt_dead + q->cnt_stray, 0);
      assert_int_equal(q->cnt_bad_addr, kind == BAD);
      assert_int_equal(q->cnt_bad_long, kind != BAD);
      rig_run(&r, &in, 300);
      memcpy(w_st.c + f.n, w_st.c, (size_t)w_st.n); /* F, then B's first segment if kept */
      memcpy(w_st.c, f.c, (size_t)f.n);
      w_st.n += f.n;
      assert_segs_out(&r, MP1_RM_ST, &w_st, 1);
      assert_segs_out(&r, MP1_RM_RC, &w_rc, 1);
      assert_true(machine_empty(&r));
    }
}

/* A two-dimension header that ends after a1 is cut (§4.4): not written, counted, no copy waits
 * for the rest; the straight copy's a1 ends as a dead flit. */
static void test_header_cut_short(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 2, 4);
  stream_t in = {.n = 0}, dead = {.n = 0};
  const uint32_t hdr[1] = {aflit(MP1_CODE_BCAST_2D, 9)};
  put_msg(&in, hdr, 1, NULL, 0);
  rig_run(&r, &in, 40);
  assert_int_equal(r.st.r.cnt_cut, 1);
  assert_int_equal(r.st.r.wp, 3);
  put_flit(&dead, hdr[0]);
  assert_out(&r, MP1_RM_ST, &dead);
  assert_int_equal(r.first_cycle[MP1_RM_OT], -1);
  assert_int_equal(r.first_cycle[MP1_RM_RC], -1);
  assert_true(machine_empty(&r));
}

/* An over-long segment (§4.5): the 33rd flit is not written; the copy that cut through it ends
 * with an idle chunk (a truncation downstream); the rest of the message is discarded. */
static void test_over_long_segment(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 2, 4);
  stream_t in = {.n = 0}, want = {.n = 0};
  put_flit(&in, aflit(MP1_CODE_P2P_STATIC, 9));
  put_flit(&in, aflit(MP1_CODE_DELIVER, 7));
  for (int i = 0; i < 31; i++)
    put_flit(&in, (uint32_t)i);
  memcpy(want.c, in.c, (size_t)(in.n - 3));
  want.n = in.n - 3; /* 32 flits */
  in.c[in.n++] = MP1_CH_EOM;
  rig_run(&r, &in, 140);
  assert_out(&r, MP1_RM_ST, &want);
  assert_int_equal(r.st.r.cnt_bad_long, 1);
  assert_int_equal(r.st.r.wp, 96);
  assert_true(machine_empty(&r));
}

/* Intra-plane piggy-back (code 3 at the match): a1 leaves as a dead flit, then after one idle
 * chunk the data as a new message on the same output (§5.2 rnew). */
static void test_piggy_intra(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 1, 5, 0);
  stream_t in = {.n = 0}, want = {.n = 0};
  const uint32_t hdr[2] = {aflit(MP1_CODE_PIGGY_INTRA, 5), aflit(MP1_CODE_DELIVER, 9)};
  put_msg(&in, hdr, 2, DATA, 2);
  rig_run(&r, &in, 40);
  put_flit(&want, hdr[0]);
  want.c[want.n++] = 0;
  put_msg(&want, hdr + 1, 1, DATA, 2);
  assert_out(&r, MP1_RM_ST, &want);
  assert_int_equal(r.first_cycle[MP1_RM_ST], 1);
  assert_true(machine_empty(&r));
}

/* ---- address words of two flits (docs/mp1.md §14) ------------------------------------------ */

/* Both flits pass: the first alone or the second alone would match; cut through from the first
 * chunk, nothing dead. */
static void test_awf2_pass_both_flits(void **state) {
  (void)state;
  const uint32_t addrs[2] = {0x109, 0x205}; /* pos 0x105: same top flit; same low byte */
  for (int i = 0; i < 2; i++) {
    rig_t r;
    rig_init(&r, 2, 0x105, 0);
    stream_t in = {.n = 0};
    put_word(&in, 2, MP1_CODE_DELIVER, addrs[i]);
    put_seg(&in, NULL, 0, DATA, 4, MP1_CH_EOM);
    rig_run(&r, &in, 60);
    assert_out(&r, MP1_RM_ST, &in);
    assert_int_equal(r.first_cycle[MP1_RM_ST], 1);
    assert_int_equal(r.first_cycle[MP1_RM_RC], -1);
    assert_int_equal(r.st.r.cnt_dead + r.st.r.cnt_cut, 0);
    assert_true(machine_empty(&r));
  }
}

/* a1's word matches after both its flits went out: the turn sends a2's word and the data, its
 * first chunk on the wire two cycles after a1 completes (t = 5); the next machine counts the dead
 * word once and forwards it. */
static void test_awf2_dead_word_at_turn(void **state) {
  (void)state;
  rig_t a, b;
  rig_init(&a, 2, 0x105, 0x010);
  rig_init(&b, 2, 0x106, 0x010);
  stream_t in = {.n = 0}, dead = {.n = 0}, turn = {.n = 0};
  put_word(&in, 2, MP1_CODE_P2P_STATIC, 0x105);
  put_word(&in, 2, MP1_CODE_DELIVER, 0x203);
  put_seg(&in, NULL, 0, DATA, 4, MP1_CH_EOM);
  rig_run(&a, &in, 100);
  put_word(&dead, 2, MP1_CODE_P2P_STATIC, 0x105);
  assert_out(&a, MP1_RM_ST, &dead);
  put_word(&turn, 2, MP1_CODE_DELIVER, 0x203);
  put_seg(&turn, NULL, 0, DATA, 4, MP1_CH_EOM);
  assert_out(&a, MP1_RM_OT, &turn);
  assert_int_equal(a.first_cycle[MP1_RM_OT], 7);
  assert_int_equal(a.st.r.cnt_dead, 0);
  assert_true(machine_empty(&a));
  rig_run(&b, &a.wire[MP1_RM_ST], 100);
  assert_int_equal(b.st.r.cnt_dead, 1);
  assert_int_equal(b.st.r.cnt_cut + b.st.r.cnt_bad_addr + b.st.r.cnt_bad_code, 0);
  assert_out(&b, MP1_RM_ST, &dead);
  assert_true(machine_empty(&b));
}

/* The decision waits for the whole word (§14.2 rules 1, 2). */
static void test_awf2_decision_after_word(void **state) {
  (void)state;
  for (int k = 0; k < 2; k++) {
    const uint32_t addr = k ? 0x109 : 0x105; /* k = 0: this node's; k = 1: only its first flit */
    rig_t r;
    rig_init(&r, 2, 0x105, 0);
    rig_hold(&r, MP1_RM_ST, 60);
    stream_t in = {.n = 0}, want = {.n = 0};
    put_word(&in, 2, MP1_CODE_DELIVER, addr);
    put_seg(&in, NULL, 0, DATA, 3, MP1_CH_EOM);
    for (int t = 0; t < 120; t++) {
      rig_cycle(&r, t < in.n ? in.c[t] : 0);
      if (t == 2) {
        assert_int_equal(r.st.r.ihd, 0);
        assert_int_equal(r.st.r.iwf, 1);
        assert_int_equal(r.st.r.f_a1, mp1_addr_word(2, MP1_CODE_DELIVER, addr) >> 8);
        assert_int_equal(r.st.r.f_dec, 0);
      }
      if (t == 5) {
        assert_int_equal(r.st.r.ihd, 1);
        assert_int_equal(r.st.r.iwf, 0);
        assert_int_equal(r.st.r.f_a1, mp1_addr_word(2, MP1_CODE_DELIVER, addr));
        assert_int_equal(r.st.r.f_dec, 1);
        assert_int_equal(r.st.r.f_route, k ? 1u << MP1_RM_ST : 1u << MP1_RM_RC);
      }
    }
    if (k == 0) {
      put_seg(&want, NULL, 0, DATA, 3, MP1_CH_EOM);
      assert_out(&r, MP1_RM_RC, &want);
      assert_int_equal(r.first_cycle[MP1_RM_ST], -1);
    } else {
      assert_out(&r, MP1_RM_ST, &in);
      assert_int_equal(r.first_cycle[MP1_RM_RC], -1);
    }
    assert_true(machine_empty(&r));
  }
}

/* Adaptive with two-flit words: a2's word, a1's, the data; a2 behind: no turn, it waits. */
static void test_awf2_adaptive_turn(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 2, 0x102, 0x204);
  rig_hold(&r, MP1_RM_ST, NEVER);
  stream_t in = {.n = 0}, want = {.n = 0};
  put_word(&in, 2, MP1_CODE_P2P_ADAPTIVE, 0x109);
  put_word(&in, 2, MP1_CODE_DELIVER, 0x307);
  put_seg(&in, NULL, 0, DATA, 4, MP1_CH_EOM);
  rig_run(&r, &in, 100);
  put_word(&want, 2, MP1_CODE_P2P_ADAPTIVE, 0x307);
  put_word(&want, 2, MP1_CODE_DELIVER, 0x109);
  put_seg(&want, NULL, 0, DATA, 4, MP1_CH_EOM);
  assert_out(&r, MP1_RM_OT, &want);
  assert_int_equal(r.first_cycle[MP1_RM_OT], 14); /* a2 complete at 11, adapt 12, owned 13 */
  assert_int_equal(r.st.r.cnt_adapt, 1);
  assert_int_equal(r.first_cycle[MP1_RM_ST], -1);
  assert_true(machine_empty(&r));
  rig_init(&r, 2, 0x102, 0x308);
  rig_hold(&r, MP1_RM_ST, 80);
  rig_run(&r, &in, 160);
  assert_int_equal(r.st.r.cnt_adapt, 0);
  assert_out(&r, MP1_RM_ST, &in);
}

/* Two-flit broadcast: ot from chunk 6, rc from chunk 12, each on its own (§14.2 rule 3, D). */
static void test_awf2_broadcast_copies(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 2, 0x102, 0x204);
  stream_t in = {.n = 0}, w_ot = {.n = 0}, w_rc = {.n = 0};
  put_word(&in, 2, MP1_CODE_BCAST_2D, 0x109);
  put_word(&in, 2, MP1_CODE_BCAST_1D, 0x307);
  put_seg(&in, NULL, 0, DATA, 3, MP1_CH_EOM);
  rig_run(&r, &in, 100);
  put_word(&w_ot, 2, MP1_CODE_BCAST_1D, 0x307);
  put_seg(&w_ot, NULL, 0, DATA, 3, MP1_CH_EOM);
  put_seg(&w_rc, NULL, 0, DATA, 3, MP1_CH_EOM);
  assert_out(&r, MP1_RM_ST, &in);
  assert_out(&r, MP1_RM_OT, &w_ot);
  assert_out(&r, MP1_RM_RC, &w_rc);
  assert_int_equal(r.first_cycle[MP1_RM_ST], 1);
  assert_int_equal(r.first_cycle[MP1_RM_OT], 7);
  assert_int_equal(r.first_cycle[MP1_RM_RC], 13);
  assert_true(machine_empty(&r));
}

/* A segment cut inside a1's word (§4.4, §14.2 rule 6): the end code is not written and the cut
 * counted; the flit that went straight is followed by idle (a dead word at the next machine). */
static void test_awf2_header_cut_inside_a1(void **state) {
  (void)state;
  const uint8_t ends[2] = {MP1_CH_EOM, MP1_CH_EOS};
  const uint32_t codes[2] = {MP1_CODE_BCAST_2D, MP1_CODE_DELIVER};
  for (int e = 0; e < 2; e++)
    for (int k = 0; k < 2; k++) {
      rig_t r;
      rig_init(&r, 2, 0x102, 0x204);
      stream_t in = {.n = 0}, flit = {.n = 0};
      put_flit(&in, mp1_addr_word(2, codes[k], 0x109) >> 8);
      memcpy(flit.c, in.c, 3);
      flit.n = 3;
      in.c[in.n++] = ends[e];
      rig_run(&r, &in, 40);
      assert_int_equal(r.st.r.cnt_cut, 1);
      assert_int_equal(r.st.r.cnt_dead, 0);
      assert_int_equal(r.st.r.wp, 3);
      assert_out(&r, MP1_RM_ST, &flit);
      for (int j = 1; j < 4; j++)
        assert_int_equal(r.first_cycle[j], -1);
      assert_true(machine_empty(&r));
      rig_t n;
      rig_init(&n, 2, 0x103, 0x204);
      rig_run(&n, &r.wire[MP1_RM_ST], 40);
      assert_int_equal(n.st.r.cnt_dead, 1);
    }
}

/* A truncation after at most one address word is a dead word, after more a cut (§14.2 rule 5). */
static void test_awf2_dead_word_rule(void **state) {
  (void)state;
  for (int n = 1; n <= 3; n++) {
    rig_t r;
    rig_init(&r, 2, 0x105, 0);
    stream_t in = {.n = 0}, w = {.n = 0};
    put_word(&w, 2, MP1_CODE_DELIVER, 0x109);
    put_flit(&w, 0x5a);
    memcpy(in.c, w.c, (size_t)(3 * n));
    in.n = 3 * n;
    rig_run(&r, &in, 40);
    assert_int_equal(r.st.r.cnt_dead, n <= 2 ? 1 : 0);
    assert_int_equal(r.st.r.cnt_cut, n <= 2 ? 0 : 1);
    assert_true(machine_empty(&r));
  }
}

/* ---- random streams: invariants, and the quiet path ------------------------------------------ */

static uint32_t rnd(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*s >> 33);
}

static int two_dim_code(uint32_t code) {
  return code == MP1_CODE_P2P_STATIC || code == MP1_CODE_P2P_ADAPTIVE || code == MP1_CODE_BCAST_2D;
}

/* A random message of 1..3 segments, addresses below span, any code (broadcasts one segment, but
 * now and then more), its segments at most 32 flits; now and then cut: truncated, a lone dead word,
 * aborted between segments, or over-long. Returns its segments. */
static int random_msg(uint64_t *rs, uint32_t awf, uint32_t span, stream_t *seg, int *newmsg) {
  enum { TRUNC, DEAD, ABORT, LONG, MULTI_BCAST, SPLIT };
  const uint32_t code = rnd(rs) % 8u == 0 ? rnd(rs) % 8u : rnd(rs) % 7u;
  const uint32_t kind = rnd(rs) % 24u;
  int nseg = (code == 4 || code == 5) && kind != MULTI_BCAST ? 1 : 1 + (int)(rnd(rs) % 3u);
  if (kind == LONG || kind == TRUNC)
    nseg = 1;
  if (kind == ABORT)
    nseg = 2;
  for (int j = 0; j < nseg; j++) {
    seg[j].n = 0;
    newmsg[j] = j == 0;
    if (kind == ABORT && j == 1) {
      seg[j].c[seg[j].n++] = MP1_CH_ILLEGAL;
      break;
    }
    int room = kind == LONG ? 33 + (int)(rnd(rs) % 3u) : 32;
    if (j == 0) {
      put_word(&seg[j], awf, code, rnd(rs) % span);
      room -= (int)awf;
      if (kind == DEAD)
        return 1; /* a gap follows: the sender idles before the next message */
      if (two_dim_code(code)) {
        put_word(&seg[j], awf, rnd(rs) % 7u, rnd(rs) % span);
        room -= (int)awf;
        if (kind == SPLIT && nseg > 1) { /* an end code inside the header, the rest later */
          const int cut = 3 * (int)awf + 3 * (int)(rnd(rs) % awf);
          stream_t rest = {.n = seg[j].n - cut};
          memcpy(rest.c, seg[j].c + cut, (size_t)rest.n);
          seg[j].n = cut;
          seg[j].c[seg[j].n++] = MP1_CH_EOS;
          seg[j + 1].n = 0;
          memcpy(seg[j + 1].c, rest.c, (size_t)rest.n);
          seg[j + 1].n = rest.n;
          seg[j + 1].c[seg[j + 1].n++] = j + 1 == nseg - 1 ? MP1_CH_EOM : MP1_CH_EOS;
          newmsg[j + 1] = 0;
          j++;
          continue;
        }
      }
    }
    /* a later segment has a flit, and so has an intra-plane piggy-back's data: they are the new
       message (one with none would leave a lone end code, a stray downstream) */
    const int least = j > 0 || code == MP1_CODE_PIGGY_INTRA;
    const int nd = kind == LONG ? room : least + (int)(rnd(rs) % (uint32_t)(room + 1 - least));
    for (int i = 0; i < nd; i++)
      put_flit(&seg[j], rnd(rs) & 0xffu);
    if (kind != TRUNC)
      seg[j].c[seg[j].n++] = j == nseg - 1 && kind != ABORT ? MP1_CH_EOM : MP1_CH_EOS;
  }
  return nseg;
}
/* Random message streams from a sender that honours stop, into a machine whose outputs are held
 * by other requesters and stopped by their receivers at random: err never rises (the rig checks
 * it every cycle), the occupancy stays within §6's bound, and once the outputs are let go the
 * machine drains and ends empty. */
static void test_random_invariants(void **state) {
  (void)state;
  uint32_t max_occ = 0;
  for (uint32_t seed = 1; seed <= 500; seed++) {
    uint64_t rs = seed * 7919u;
    const uint32_t awf = 1 + seed % 2u, span = mp1_addr_span(awf);
    static rig_t r;
    rig_init(&r, awf, rnd(&rs) % span, rnd(&rs) % span);
    r.in.neg = rnd(&rs) & 1u, r.in.oneg = rnd(&rs) & 1u;
    r.in.edge = rnd(&rs) % 8u == 0, r.in.oedge = rnd(&rs) % 8u == 0;
    static stream_t seg[64];
    int newmsg[64], nseg = 0;
    while (nseg < 60)
      nseg += random_msg(&rs, awf, span, seg + nseg, newmsg + nseg);
    sender_t s;
    sender_init(&s, seg, newmsg, nseg);
    while (s.k < nseg && r.t < 20000) {
      for (int k = 0; k < 4; k++) {
        if (rnd(&rs) % 64u == 0)
          rig_hold(&r, k, r.t + (int)(rnd(&rs) % 120u));
        if (rnd(&rs) % 64u == 0)
          rig_dstop(&r, k, r.t, r.t + (int)(rnd(&rs) % 60u));
      }
      rig_cycle(&r, sender_chunk(&s, r.st.r.stop, r.t));
    }
    CHECKF(s.k == nseg, "seed %u: only %d of %d segments went in", seed, s.k, nseg);
    const int end = r.t + 400;
    for (int k = 0; k < 4; k++)
      rig_hold(&r, k, 0), rig_dstop(&r, k, 0, 0);
    while (r.t < end)
      rig_cycle(&r, 0);
    CHECKF(machine_empty(&r), "seed %u: not empty at the end", seed);
    CHECKF(r.max_occ <= 127, "seed %u: occupancy %u", seed, r.max_occ);
    if (r.max_occ > max_occ)
      max_occ = r.max_occ;
  }
  print_message("highest occupancy over the random runs: %u\n", max_occ);
}

/* Two machines in a row, the first one's straight output into the second (its stop back): the
 * first machine's copies keep the channel rules, so the second never discards a segment for want
 * of room (idis) and never raises err; both drain. (Strays may come: a header the second machine
 * cuts short is still a message upstream, whose abort then arrives with no message open.) */
static void test_random_chain(void **state) {
  (void)state;
  for (uint32_t seed = 1; seed <= 200; seed++) {
    uint64_t rs = seed * 104729u;
    const uint32_t awf = 1 + seed % 2u;
    static rig_t a, b;
    rig_init(&a, awf, 0, 2);
    rig_init(&b, awf, 1, 2);
    static stream_t seg[64];
    int newmsg[64], nseg = 0;
    while (nseg < 60) /* addresses 0..3: matched at a (0) or at b (1), or through both */
      nseg += random_msg(&rs, awf, 4, seg + nseg, newmsg + nseg);
    sender_t s;
    sender_init(&s, seg, newmsg, nseg);
    while ((s.k < nseg || a.t < 200) && a.t < 30000) {
      for (int k = 0; k < 4; k++) {
        if (k && rnd(&rs) % 64u == 0)
          rig_hold(&a, k, a.t + (int)(rnd(&rs) % 120u));
        if (rnd(&rs) % 64u == 0)
          rig_hold(&b, k, b.t + (int)(rnd(&rs) % 120u));
        if (rnd(&rs) % 64u == 0)
          rig_dstop(&b, k, b.t, b.t + (int)(rnd(&rs) % 60u));
      }
      const uint32_t link = a.own[MP1_RM_ST] ? a.st.r.st_dat : 0;
      a.xstop[MP1_RM_ST] = b.st.r.stop;
      rig_cycle(&a, sender_chunk(&s, a.st.r.stop, a.t));
      rig_cycle(&b, link);
      CHECKF(!b.st.r.idis, "seed %u cycle %d: a segment with no room at the second machine", seed,
             b.t);
    }
    CHECKF(s.k == nseg, "seed %u: only %d of %d segments went in", seed, s.k, nseg);
    for (int k = 0; k < 4; k++)
      rig_hold(&a, k, 0), rig_hold(&b, k, 0), rig_dstop(&b, k, 0, 0);
    const int end = a.t + 600;
    while (a.t < end) {
      const uint32_t link = a.own[MP1_RM_ST] ? a.st.r.st_dat : 0;
      a.xstop[MP1_RM_ST] = b.st.r.stop;
      rig_cycle(&a, 0);
      rig_cycle(&b, link);
    }
    CHECKF(machine_empty(&a) && machine_empty(&b), "seed %u: not empty at the end", seed);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_straight_claim_bypass),
      cmocka_unit_test(test_turn_bypass),
      cmocka_unit_test(test_deliver),
      cmocka_unit_test(test_broadcast_independent_copies),
      cmocka_unit_test(test_broadcast_copy_waits_alone),
      cmocka_unit_test(test_back_message_and_period),
      cmocka_unit_test(test_promotion_timing),
      cmocka_unit_test(test_segment_directly_after_eos),
      cmocka_unit_test(test_next_waits_for_stop),
      cmocka_unit_test(test_adapt_when_straight_stopped),
      cmocka_unit_test(test_adapt_from_buffer),
      cmocka_unit_test(test_no_adapt_when_ot_stopped),
      cmocka_unit_test(test_no_adapt_after_straight),
      cmocka_unit_test(test_no_adapt_split_header),
      cmocka_unit_test(test_piggy_intra_long),
      cmocka_unit_test(test_piggy_intra_cut_at_word_end),
      cmocka_unit_test(test_stop_occupancy),
      cmocka_unit_test(test_stop_threshold),
      cmocka_unit_test(test_fill_to_bound),
      cmocka_unit_test(test_err_when_stop_ignored),
      cmocka_unit_test(test_dead_flit_dropped),
      cmocka_unit_test(test_dead_flit_as_back_message),
      cmocka_unit_test(test_bad_message_sends_nothing_from_wait),
      cmocka_unit_test(test_edge_promotion_no_straight),
      cmocka_unit_test(test_turn_into_missing_output),
      cmocka_unit_test(test_broadcast_cut),
      cmocka_unit_test(test_abort_between_segments),
      cmocka_unit_test(test_cut_front_stops_at_back),
      cmocka_unit_test(test_abort_of_back_message),
      cmocka_unit_test(test_dropping_back_message_ends),
      cmocka_unit_test(test_header_cut_short),
      cmocka_unit_test(test_over_long_segment),
      cmocka_unit_test(test_piggy_intra),
      cmocka_unit_test(test_awf2_pass_both_flits),
      cmocka_unit_test(test_awf2_dead_word_at_turn),
      cmocka_unit_test(test_awf2_decision_after_word),
      cmocka_unit_test(test_awf2_adaptive_turn),
      cmocka_unit_test(test_awf2_broadcast_copies),
      cmocka_unit_test(test_awf2_header_cut_inside_a1),
      cmocka_unit_test(test_awf2_dead_word_rule),
      cmocka_unit_test(test_random_invariants),
      cmocka_unit_test(test_random_chain),
  };
  return cmocka_run_group_tests_name("mp1_rm", tests, NULL, NULL);
}
