/* cmocka tests of the MP1 routing machine C model (docs/mp1.md §2, §5, §8, and §14's address
 * words of two flits): chunk streams in, chunk streams out, with a one-requester arbiter per
 * output (owned the cycle after a request). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "mp1_rm.h"

enum { MAXC = 2048 };

typedef struct {
  uint8_t c[MAXC];
  int n;
} stream_t;

static void put_flit(stream_t *s, uint32_t b) {
  s->c[s->n++] = (uint8_t)(4u | ((b >> 6) & 3u));
  s->c[s->n++] = (uint8_t)((b >> 3) & 7u);
  s->c[s->n++] = (uint8_t)(b & 7u);
}

static uint32_t aflit(uint32_t code, uint32_t addr) { return code << 5 | addr; }

/* A message: header flits, data flits, EOM (single segment). */
static void put_msg(stream_t *s, const uint32_t *hdr, int nh, const uint8_t *data, int nd) {
  for (int i = 0; i < nh; i++)
    put_flit(s, hdr[i]);
  for (int i = 0; i < nd; i++)
    put_flit(s, data[i]);
  s->c[s->n++] = MP1_CH_EOM;
}

typedef struct {
  mp1_rm_cfg_t cfg;
  mp1_rm_state_t st;
  mp1_rm_in_t in;
  uint32_t own[4];
  uint32_t blocked[4]; /* held by another machine ... */
  int unblock_at[4];    /* ... until this cycle (0: for the whole run) */
  stream_t out[4];   /* what each output channel showed, cycle by cycle */
  int first_cycle[4]; /* cycle of the first non-idle chunk on each output */
} rig_t;

static void rig_init(rig_t *r, uint32_t pos, uint32_t opos) {
  memset(r, 0, sizeof *r);
  r->cfg.awf = 1;
  mp1_rm_reset(&r->st);
  r->in.pos = pos;
  r->in.opos = opos;
  for (int k = 0; k < 4; k++)
    r->first_cycle[k] = -1;
}

static void rig_cycle(rig_t *r, int t);

/* Runs the input stream, then idles; records every output. */
static void rig_run(rig_t *r, const stream_t *s, int cycles) {
  for (int t = 0; t < cycles; t++) {
    r->in.in_dat = t < s->n ? s->c[t] : 0;
    rig_cycle(r, t);
  }
}

/* Plays segments as a correct sender does: each starts only while the machine's stop is low and
   after an idle chunk (§2.2, §2.4). Records the highest buffer occupancy seen (chunks in wp). */
static int rig_run_segs(rig_t *r, const stream_t *segs, int nseg, int cycles) {
  int k = 0, pos = -1, prev = 0, max_fill = 0;
  for (int t = 0; t < cycles; t++) {
    uint32_t c = 0;
    if (pos < 0 && k < nseg && !r->st.r.stop && prev == 0)
      pos = 0;
    if (pos >= 0) {
      c = segs[k].c[pos++];
      if (pos == segs[k].n)
        pos = -1, k++;
    }
    prev = (int)c;
    r->in.in_dat = c;
    rig_cycle(r, t);
    const int fill = (int)((r->st.r.wp - r->st.r.rp_st) & 127u);
    if (r->st.r.route && fill > max_fill)
      max_fill = fill;
  }
  assert_int_equal(k, nseg); /* every segment went in */
  return max_fill;
}

static void rig_cycle(rig_t *r, int t) {
  for (int k = 0; k < 4; k++)
    if (r->unblock_at[k] && t == r->unblock_at[k])
      r->blocked[k] = 0;
  r->in.st_own = r->own[0], r->in.ot_own = r->own[1], r->in.rc_own = r->own[2],
  r->in.pb_own = r->own[3];
  r->in.st_free = !r->own[0] && !r->blocked[0], r->in.ot_free = !r->own[1] && !r->blocked[1],
  r->in.rc_free = !r->own[2] && !r->blocked[2], r->in.pb_free = !r->own[3] && !r->blocked[3];
  mp1_rm_out_t o;
  mp1_rm_next_t nx;
  mp1_rm_eval(&r->cfg, &r->st, &r->in, &o, &nx);
  const uint32_t dat[4] = {r->own[0] ? o.st_dat : 0, r->own[1] ? o.ot_dat : 0,
                           r->own[2] ? o.rc_dat : 0, r->own[3] ? o.pb_dat : 0};
  const uint32_t req[4] = {o.st_req, o.ot_req, o.rc_req, o.pb_req};
  for (int k = 0; k < 4; k++) {
    r->out[k].c[r->out[k].n++] = (uint8_t)dat[k];
    if (dat[k] && r->first_cycle[k] < 0)
      r->first_cycle[k] = t;
    r->own[k] = req[k] && !r->blocked[k];
  }
  mp1_rm_clock(&r->st, &nx);
}

/* The non-idle part of an output: from its first chunk to the last non-idle one. */
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

/* The segments, sent one after another, came out of output s in order: its non-idle chunks are
   theirs (the idle chunks between segments are the machine's to place). */
static void assert_segs_out(const stream_t *out, const stream_t *seg, int nseg) {
  stream_t got, nz = {.n = 0}, wz = {.n = 0};
  trimmed(out, &got);
  for (int i = 0; i < got.n; i++)
    if (got.c[i]) nz.c[nz.n++] = got.c[i];
  for (int k = 0; k < nseg; k++)
    for (int i = 0; i < seg[k].n; i++)
      if (seg[k].c[i]) wz.c[wz.n++] = seg[k].c[i];
  assert_stream_eq(&nz, &wz);
}

static const uint8_t DATA[] = {0xA1, 0x02, 0x77, 0xFF};

/* §5.1: no match, straight free: the stream leaves unchanged, one cycle behind. */
static void test_pass_straight(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 2, 0);
  stream_t in = {.n = 0};
  const uint32_t hdr[2] = {aflit(MP1_CODE_P2P_STATIC, 5), aflit(MP1_CODE_DELIVER, 3)};
  put_msg(&in, hdr, 2, DATA, 4);
  rig_run(&r, &in, 60);
  stream_t got;
  trimmed(&r.out[MP1_RM_ST], &got);
  assert_stream_eq(&got, &in);
  assert_int_equal(r.first_cycle[MP1_RM_ST], 1);
  for (int k = 1; k < 4; k++)
    assert_int_equal(r.first_cycle[k], -1);
  assert_int_equal(r.st.r.rm_st, MP1_RM_IDLE);
}

/* §5.2, §5.3: a1 matches: a1 goes out straight as a dead flit, the rest turns (a2 first). */
static void test_match_turns(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 5, 1);
  stream_t in = {.n = 0};
  const uint32_t hdr[2] = {aflit(MP1_CODE_P2P_STATIC, 5), aflit(MP1_CODE_DELIVER, 3)};
  put_msg(&in, hdr, 2, DATA, 4);
  rig_run(&r, &in, 80);
  stream_t dead = {.n = 0}, turn = {.n = 0}, got;
  put_flit(&dead, hdr[0]);
  trimmed(&r.out[MP1_RM_ST], &got);
  assert_stream_eq(&got, &dead);
  const uint32_t rest[1] = {hdr[1]};
  put_msg(&turn, rest, 1, DATA, 4);
  trimmed(&r.out[MP1_RM_OT], &got);
  assert_stream_eq(&got, &turn);
  assert_int_equal(r.st.r.rm_st, MP1_RM_IDLE);
}

/* §3.1 code 2: delivered to the reception output as data and EOM. */
static void test_deliver(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 7, 0);
  stream_t in = {.n = 0}, want = {.n = 0}, got;
  const uint32_t hdr[1] = {aflit(MP1_CODE_DELIVER, 7)};
  put_msg(&in, hdr, 1, DATA, 3);
  rig_run(&r, &in, 60);
  put_msg(&want, NULL, 0, DATA, 3);
  trimmed(&r.out[MP1_RM_RC], &got);
  assert_stream_eq(&got, &want);
}

/* §2.3: a lone flit followed by a gap is a dead flit: dropped here when it cannot pass (edge). */
static void test_dead_flit_dropped(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 4, 0);
  r.in.edge = 1;
  stream_t in = {.n = 0};
  put_flit(&in, aflit(MP1_CODE_P2P_STATIC, 3)); /* behind this node: it matched upstream */
  rig_run(&r, &in, 20);
  assert_int_equal(r.st.r.cnt_dead, 1);
  for (int k = 0; k < 4; k++)
    assert_int_equal(r.first_cycle[k], -1);
  assert_int_equal(r.st.r.rm_st, MP1_RM_IDLE);
}

/* §5.4: straight held by another machine, code 1, other dimension ahead: a2, a1, data leave on
 * the other output. */
static void test_adaptive_turn(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 2, 4);
  r.blocked[MP1_RM_ST] = 1;
  stream_t in = {.n = 0}, want = {.n = 0}, got;
  const uint32_t hdr[2] = {aflit(MP1_CODE_P2P_ADAPTIVE, 9), aflit(MP1_CODE_DELIVER, 7)};
  put_msg(&in, hdr, 2, DATA, 4);
  rig_run(&r, &in, 80);
  /* the flits swap their addresses but each place keeps its code (§8.8 rule 9): the leading flit
     still says "adaptive, two dimensions", the second "deliver" */
  const uint32_t swapped[2] = {aflit(MP1_CODE_P2P_ADAPTIVE, 7), aflit(MP1_CODE_DELIVER, 9)};
  put_msg(&want, swapped, 2, DATA, 4);
  trimmed(&r.out[MP1_RM_OT], &got);
  assert_stream_eq(&got, &want);
  assert_int_equal(r.st.r.cnt_adapt, 1);
  assert_int_equal(r.first_cycle[MP1_RM_ST], -1);
}

/* §5.5: code 4 without a match: straight [a1 a2 d], other [a2 d], interface [d], together. */
static void test_broadcast_copies(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 2, 4);
  stream_t in = {.n = 0}, w_st = {.n = 0}, w_ot = {.n = 0}, w_rc = {.n = 0}, got;
  const uint32_t hdr[2] = {aflit(MP1_CODE_BCAST_2D, 9), aflit(MP1_CODE_BCAST_1D, 7)};
  put_msg(&in, hdr, 2, DATA, 3);
  rig_run(&r, &in, 80);
  put_msg(&w_st, hdr, 2, DATA, 3);
  put_msg(&w_ot, hdr + 1, 1, DATA, 3);
  put_msg(&w_rc, NULL, 0, DATA, 3);
  trimmed(&r.out[MP1_RM_ST], &got);
  assert_stream_eq(&got, &w_st);
  trimmed(&r.out[MP1_RM_OT], &got);
  assert_stream_eq(&got, &w_ot);
  trimmed(&r.out[MP1_RM_RC], &got);
  assert_stream_eq(&got, &w_rc);
  /* the copies are acquired one after the other (ordered acquisition), then start together */
  assert_int_equal(r.first_cycle[MP1_RM_ST], r.first_cycle[MP1_RM_OT]);
  assert_int_equal(r.first_cycle[MP1_RM_OT], r.first_cycle[MP1_RM_RC]);
}

/* §5.4: both outputs busy: a three-segment message fills the buffer with its first segment, stop
   holds the rest upstream, and when the straight output frees it all leaves in order. */
static void test_blocked_multi_segment(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 2, 4);
  r.blocked[MP1_RM_ST] = r.blocked[MP1_RM_OT] = 1;
  r.unblock_at[MP1_RM_ST] = 400;
  stream_t seg[3] = {{.n = 0}, {.n = 0}, {.n = 0}};
  put_flit(&seg[0], aflit(MP1_CODE_P2P_ADAPTIVE, 9));
  put_flit(&seg[0], aflit(MP1_CODE_DELIVER, 7));
  for (int i = 0; i < 30; i++) put_flit(&seg[0], (uint32_t)i);
  seg[0].c[seg[0].n++] = MP1_CH_EOS;
  for (int i = 0; i < 32; i++) put_flit(&seg[1], (uint32_t)(100 + i));
  seg[1].c[seg[1].n++] = MP1_CH_EOS;
  for (int i = 0; i < 5; i++) put_flit(&seg[2], (uint32_t)(200 + i));
  seg[2].c[seg[2].n++] = MP1_CH_EOM;
  const int fill = rig_run_segs(&r, seg, 3, 900);
  assert_true(fill <= MP1_RM_BUF);
  assert_true(fill >= 97); /* a whole segment waited in the buffer */
  /* the straight output carries the segments in order, each followed by the idle chunk */
  assert_segs_out(&r.out[MP1_RM_ST], seg, 3);
  assert_int_equal(r.first_cycle[MP1_RM_OT], -1);
  assert_true(r.first_cycle[MP1_RM_ST] > 400);
  assert_int_equal(r.st.r.rm_st, MP1_RM_IDLE);
}

/* §8.8 rule 10: a broadcast of two segments leaves as its first, ended by EOM; the rest is dropped
   and counted, and the machine is free again. */
static void test_broadcast_cut(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 2, 4);
  stream_t seg[2] = {{.n = 0}, {.n = 0}}, want = {.n = 0}, got;
  put_flit(&seg[0], aflit(MP1_CODE_BCAST_2D, 9));
  put_flit(&seg[0], aflit(MP1_CODE_BCAST_1D, 7));
  put_flit(&seg[0], 0x55);
  seg[0].c[seg[0].n++] = MP1_CH_EOS;
  put_flit(&seg[1], 0x66);
  seg[1].c[seg[1].n++] = MP1_CH_EOM;
  rig_run_segs(&r, seg, 2, 200);
  memcpy(want.c, seg[0].c, (size_t)seg[0].n);
  want.n = seg[0].n;
  want.c[want.n - 1] = MP1_CH_EOM;
  trimmed(&r.out[MP1_RM_ST], &got);
  assert_stream_eq(&got, &want);
  assert_int_equal(r.st.r.cnt_bad_long, 1);
  assert_int_equal(r.st.r.rm_st, MP1_RM_IDLE);
}

/* §8.8 rule 12: an abort arrives while the first segment still waits in the buffer: the segment
   goes out, then the abort, and the machine ends the message. */
static void test_abort_behind_buffered_segment(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 4, 2);
  r.blocked[MP1_RM_OT] = 1;
  r.unblock_at[MP1_RM_OT] = 120;
  stream_t seg[2] = {{.n = 0}, {.n = 0}}, got;
  put_flit(&seg[0], aflit(MP1_CODE_P2P_STATIC, 4)); /* turns here */
  put_flit(&seg[0], aflit(MP1_CODE_DELIVER, 7));
  put_flit(&seg[0], 0x12);
  seg[0].c[seg[0].n++] = MP1_CH_EOS;
  seg[1].c[seg[1].n++] = MP1_CH_ILLEGAL;
  rig_run_segs(&r, seg, 2, 300);
  trimmed(&r.out[MP1_RM_OT], &got);
  assert_true(got.n >= 2);
  assert_int_equal(got.c[got.n - 1], MP1_CH_ILLEGAL);
  assert_int_equal(r.st.r.cnt_cut, 1);
  assert_int_equal(r.st.r.rm_st, MP1_RM_IDLE);
}

/* §8.8 rule 11: a two-dimension header that ends after its first flit is cut, not waited for. */
static void test_header_cut_short(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 2, 4);
  stream_t in = {.n = 0};
  const uint32_t hdr[1] = {aflit(MP1_CODE_BCAST_2D, 9)};
  put_msg(&in, hdr, 1, NULL, 0);
  rig_run(&r, &in, 60);
  assert_int_equal(r.st.r.cnt_cut, 1);
  assert_int_equal(r.st.r.rm_st, MP1_RM_IDLE);
  assert_int_equal(r.st.r.stop, 0);
  assert_int_equal(r.first_cycle[MP1_RM_RC], -1);
}

/* §8.8 rule 2: a turn into a missing other-dimension output is a bad message, not a wait. */
static void test_turn_into_missing_output(void **state) {
  (void)state;
  rig_t r;
  rig_init(&r, 5, 1);
  r.in.oedge = 1;
  stream_t in = {.n = 0};
  const uint32_t hdr[2] = {aflit(MP1_CODE_P2P_STATIC, 5), aflit(MP1_CODE_DELIVER, 3)};
  put_msg(&in, hdr, 2, DATA, 4);
  rig_run(&r, &in, 80);
  assert_int_equal(r.st.r.cnt_bad_addr, 1);
  assert_int_equal(r.first_cycle[MP1_RM_OT], -1);
  assert_int_equal(r.st.r.rm_st, MP1_RM_IDLE);
}

/* ---- address words of two flits (docs/mp1.md §14) ---------------------------------------- */

/* An address word {code, addr} as its awf flits, most significant first (§14.1). */
static void put_word(stream_t *s, uint32_t awf, uint32_t code, uint32_t addr) {
  const uint32_t w = mp1_addr_word(awf, code, addr);
  for (uint32_t f = 0; f < awf; f++)
    put_flit(s, mp1_addr_flit(awf, w, f));
}

static void rig_init_awf2(rig_t *r, uint32_t pos, uint32_t opos) {
  rig_init(r, pos, opos);
  r->cfg.awf = 2;
}

/* Data flits, then an end code. */
static void put_data(stream_t *s, const uint8_t *d, int n, uint8_t end) {
  for (int i = 0; i < n; i++)
    put_flit(s, d[i]);
  if (end)
    s->c[s->n++] = end;
}

/* Mad-postman pass of both flits: no match (the first flit alone would match, or the second
   alone): the whole message leaves straight, cut through from its first chunk, nothing dead. */
static void test_awf2_pass_both_flits(void **state) {
  (void)state;
  const uint32_t addrs[2] = {0x109, 0x205}; /* pos 0x105: same top flit; same low byte */
  for (int i = 0; i < 2; i++) {
    rig_t r;
    rig_init_awf2(&r, 0x105, 0);
    stream_t in = {.n = 0}, got;
    put_word(&in, 2, MP1_CODE_DELIVER, addrs[i]);
    put_data(&in, DATA, 4, MP1_CH_EOM);
    rig_run(&r, &in, 60);
    trimmed(&r.out[MP1_RM_ST], &got);
    assert_stream_eq(&got, &in);
    assert_int_equal(r.first_cycle[MP1_RM_ST], 1);
    assert_int_equal(r.first_cycle[MP1_RM_RC], -1);
    assert_int_equal(r.st.r.cnt_dead + r.st.r.cnt_cut, 0);
    assert_int_equal(r.st.r.rm_st, MP1_RM_IDLE);
  }
}

/* a1's word matches after both its flits went out straight: the turn sends a2's word and the data
   into the other dimension; the dead word (both flits, then idle) is counted once, by the next
   machine, as one dead word (§14.2 rule 5), and runs on through it. */
static void test_awf2_dead_word_at_turn(void **state) {
  (void)state;
  rig_t a, b;
  rig_init_awf2(&a, 0x105, 0x010);
  rig_init_awf2(&b, 0x106, 0x010);
  stream_t in = {.n = 0}, dead = {.n = 0}, turn = {.n = 0}, got;
  put_word(&in, 2, MP1_CODE_P2P_STATIC, 0x105);
  put_word(&in, 2, MP1_CODE_DELIVER, 0x203);
  put_data(&in, DATA, 4, MP1_CH_EOM);
  rig_run(&a, &in, 100);
  put_word(&dead, 2, MP1_CODE_P2P_STATIC, 0x105);
  trimmed(&a.out[MP1_RM_ST], &got);
  assert_stream_eq(&got, &dead);
  put_word(&turn, 2, MP1_CODE_DELIVER, 0x203);
  put_data(&turn, DATA, 4, MP1_CH_EOM);
  trimmed(&a.out[MP1_RM_OT], &got);
  assert_stream_eq(&got, &turn);
  assert_int_equal(a.st.r.cnt_dead, 0);
  assert_int_equal(a.st.r.rm_st, MP1_RM_IDLE);
  /* the next machine sees the dead word: two flits, then idle */
  rig_run(&b, &a.out[MP1_RM_ST], 100);
  assert_int_equal(b.st.r.cnt_dead, 1);
  assert_int_equal(b.st.r.cnt_cut + b.st.r.cnt_bad_addr + b.st.r.cnt_bad_code, 0);
  trimmed(&b.out[MP1_RM_ST], &got);
  assert_stream_eq(&got, &dead); /* forwarded before its address was complete: it runs on */
  assert_int_equal(b.st.r.rm_st, MP1_RM_IDLE);
}

/* The decisions wait for the whole word (§14.2 rules 1, 2): after the first flit the word is half
   shifted in and no route is set; at the second flit the route follows the whole address. */
static void test_awf2_decision_after_word(void **state) {
  (void)state;
  for (int k = 0; k < 2; k++) {
    /* k = 0: the address is this node's (delivered); k = 1: only its first flit is */
    const uint32_t addr = k ? 0x109 : 0x105;
    rig_t r;
    rig_init_awf2(&r, 0x105, 0);
    r.blocked[MP1_RM_ST] = 1; /* no cut-through: the message waits in the buffer */
    r.unblock_at[MP1_RM_ST] = 60;
    stream_t in = {.n = 0}, want = {.n = 0}, got;
    put_word(&in, 2, MP1_CODE_DELIVER, addr);
    put_data(&in, DATA, 3, MP1_CH_EOM);
    for (int t = 0; t < 120; t++) {
      r.in.in_dat = t < in.n ? in.c[t] : 0;
      rig_cycle(&r, t);
      if (t == 2) { /* the first flit is in */
        assert_int_equal(r.st.r.rm_st, MP1_RM_HOLD);
        assert_int_equal(r.st.r.ihd, 0);
        assert_int_equal(r.st.r.iwf, 1);
        assert_int_equal(r.st.r.a1, mp1_addr_word(2, MP1_CODE_DELIVER, addr) >> 8);
        assert_int_equal(r.st.r.route, 0);
      }
      if (t == 5) { /* the whole word */
        assert_int_equal(r.st.r.ihd, 1);
        assert_int_equal(r.st.r.iwf, 0);
        assert_int_equal(r.st.r.a1, mp1_addr_word(2, MP1_CODE_DELIVER, addr));
        assert_int_equal(r.st.r.route, k ? 1u << MP1_RM_ST : 1u << MP1_RM_RC);
      }
    }
    if (k == 0) {
      put_data(&want, DATA, 3, MP1_CH_EOM);
      trimmed(&r.out[MP1_RM_RC], &got);
      assert_stream_eq(&got, &want);
      assert_int_equal(r.first_cycle[MP1_RM_ST], -1);
    } else {
      trimmed(&r.out[MP1_RM_ST], &got);
      assert_stream_eq(&got, &in);
      assert_int_equal(r.first_cycle[MP1_RM_RC], -1);
    }
    assert_int_equal(r.st.r.rm_st, MP1_RM_IDLE);
    assert_int_equal(r.st.r.iwf, 0);
  }
}

/* §5.4 with two-flit words: the other copy reads a2's word, then a1's, then the data (§14.2
   rule 4); only the words' first flits change, each place keeping its code. */
static void test_awf2_adaptive_turn(void **state) {
  (void)state;
  rig_t r;
  rig_init_awf2(&r, 0x102, 0x204);
  r.blocked[MP1_RM_ST] = 1;
  stream_t in = {.n = 0}, want = {.n = 0}, got;
  put_word(&in, 2, MP1_CODE_P2P_ADAPTIVE, 0x109);
  put_word(&in, 2, MP1_CODE_DELIVER, 0x307);
  put_data(&in, DATA, 4, MP1_CH_EOM);
  rig_run(&r, &in, 100);
  put_word(&want, 2, MP1_CODE_P2P_ADAPTIVE, 0x307);
  put_word(&want, 2, MP1_CODE_DELIVER, 0x109);
  put_data(&want, DATA, 4, MP1_CH_EOM);
  trimmed(&r.out[MP1_RM_OT], &got);
  assert_stream_eq(&got, &want);
  assert_int_equal(r.st.r.cnt_adapt, 1);
  assert_int_equal(r.first_cycle[MP1_RM_ST], -1);
  assert_int_equal(r.st.r.rm_st, MP1_RM_IDLE);
  /* a2 behind this node in the other dimension: no permission to turn, it waits */
  rig_init_awf2(&r, 0x102, 0x308);
  r.blocked[MP1_RM_ST] = 1;
  r.unblock_at[MP1_RM_ST] = 80;
  rig_run(&r, &in, 160);
  assert_int_equal(r.st.r.cnt_adapt, 0);
  trimmed(&r.out[MP1_RM_ST], &got);
  assert_stream_eq(&got, &in);
}

/* §5.5 with two-flit words: the copies that skip a1 start at chunk 6, those that skip a1 and a2
   at 12 (§14.2 rule 3). */
static void test_awf2_broadcast_copies(void **state) {
  (void)state;
  rig_t r;
  rig_init_awf2(&r, 0x102, 0x204);
  stream_t in = {.n = 0}, w_st = {.n = 0}, w_ot = {.n = 0}, w_rc = {.n = 0}, got;
  put_word(&in, 2, MP1_CODE_BCAST_2D, 0x109);
  put_word(&in, 2, MP1_CODE_BCAST_1D, 0x307);
  put_data(&in, DATA, 3, MP1_CH_EOM);
  rig_run(&r, &in, 100);
  memcpy(w_st.c, in.c, (size_t)in.n);
  w_st.n = in.n;
  put_word(&w_ot, 2, MP1_CODE_BCAST_1D, 0x307);
  put_data(&w_ot, DATA, 3, MP1_CH_EOM);
  put_data(&w_rc, DATA, 3, MP1_CH_EOM);
  trimmed(&r.out[MP1_RM_ST], &got);
  assert_stream_eq(&got, &w_st);
  trimmed(&r.out[MP1_RM_OT], &got);
  assert_stream_eq(&got, &w_ot);
  trimmed(&r.out[MP1_RM_RC], &got);
  assert_stream_eq(&got, &w_rc);
  assert_int_equal(r.first_cycle[MP1_RM_ST], r.first_cycle[MP1_RM_RC]);
}

/* A segment cut inside a1's word (§14.2 rule 6). Buffered (a broadcast is never cut through): the
   message ends here, counted, nothing sent. Cut through: the end code follows the flit out, the
   cut is counted and the machine is free again. */
static void test_awf2_header_cut_inside_a1(void **state) {
  (void)state;
  const uint8_t ends[2] = {MP1_CH_EOM, MP1_CH_EOS};
  for (int e = 0; e < 2; e++) {
    rig_t r;
    rig_init_awf2(&r, 0x102, 0x204);
    stream_t in = {.n = 0}, got;
    put_flit(&in, mp1_addr_word(2, MP1_CODE_BCAST_2D, 0x109) >> 8);
    in.c[in.n++] = ends[e];
    rig_run(&r, &in, 40);
    assert_int_equal(r.st.r.cnt_cut, 1);
    assert_int_equal(r.st.r.rm_st, MP1_RM_IDLE);
    assert_int_equal(r.st.r.stop, 0);
    for (int k = 0; k < 4; k++)
      assert_int_equal(r.first_cycle[k], -1);

    rig_init_awf2(&r, 0x102, 0x204);
    in.n = 0;
    put_flit(&in, mp1_addr_word(2, MP1_CODE_DELIVER, 0x109) >> 8);
    in.c[in.n++] = ends[e];
    rig_run(&r, &in, 40);
    trimmed(&r.out[MP1_RM_ST], &got);
    assert_stream_eq(&got, &in);
    assert_int_equal(r.st.r.cnt_cut, 1);
    assert_int_equal(r.st.r.cnt_dead, 0);
    assert_int_equal(r.st.r.rm_st, MP1_RM_IDLE);
    assert_int_equal(r.st.r.iwf, 0);
  }
}

/* A truncation after at most one address word is a dead word, after more a cut (§14.2 rule 5). */
static void test_awf2_dead_word_rule(void **state) {
  (void)state;
  for (int n = 1; n <= 3; n++) { /* flits before the gap */
    rig_t r;
    rig_init_awf2(&r, 0x105, 0);
    stream_t in = {.n = 0}, w = {.n = 0};
    put_word(&w, 2, MP1_CODE_DELIVER, 0x109);
    put_flit(&w, 0x5a);
    memcpy(in.c, w.c, (size_t)(3 * n));
    in.n = 3 * n;
    rig_run(&r, &in, 40);
    assert_int_equal(r.st.r.cnt_dead, n <= 2 ? 1 : 0);
    assert_int_equal(r.st.r.cnt_cut, n <= 2 ? 0 : 1);
    assert_int_equal(r.st.r.rm_st, MP1_RM_IDLE);
  }
}

/* stop rises when the unread chunks pass 30, or 17 at AWF = 2, whose 12-chunk lead window would
   otherwise be reached (§8.8 rule 1, §14.2 rule 7); the held segments then leave in order. */
static void test_stop_threshold(void **state) {
  (void)state;
  for (uint32_t awf = 1; awf <= 2; awf++) {
    rig_t r;
    rig_init(&r, 2, 4);
    r.cfg.awf = awf;
    r.blocked[MP1_RM_ST] = r.blocked[MP1_RM_OT] = 1;
    r.unblock_at[MP1_RM_ST] = 400;
    stream_t seg[3] = {{.n = 0}, {.n = 0}, {.n = 0}};
    put_word(&seg[0], awf, MP1_CODE_P2P_ADAPTIVE, 9);
    put_word(&seg[0], awf, MP1_CODE_DELIVER, 7);
    for (int i = 0; i < 32 - 2 * (int)awf; i++) put_flit(&seg[0], (uint32_t)i);
    seg[0].c[seg[0].n++] = MP1_CH_EOS;
    for (int i = 0; i < 32; i++) put_flit(&seg[1], (uint32_t)(100 + i));
    seg[1].c[seg[1].n++] = MP1_CH_EOS;
    for (int i = 0; i < 5; i++) put_flit(&seg[2], (uint32_t)(200 + i));
    seg[2].c[seg[2].n++] = MP1_CH_EOM;
    /* the first cycle with stop high: the writer is one chunk past the threshold */
    rig_t probe = r;
    stream_t one = seg[0];
    int t_stop = -1;
    for (int t = 0; t < 200 && t_stop < 0; t++) {
      probe.in.in_dat = t < one.n ? one.c[t] : 0;
      rig_cycle(&probe, t);
      if (probe.st.r.stop)
        t_stop = t, assert_int_equal(probe.st.r.wp, awf == 2 ? 18 : 31);
    }
    assert_true(t_stop > 0);
    const int fill = rig_run_segs(&r, seg, 3, 900);
    assert_true(fill >= 97 && fill <= MP1_RM_BUF);
    assert_segs_out(&r.out[MP1_RM_ST], seg, 3);
    assert_int_equal(r.st.r.rm_st, MP1_RM_IDLE);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pass_straight),
      cmocka_unit_test(test_match_turns),
      cmocka_unit_test(test_deliver),
      cmocka_unit_test(test_dead_flit_dropped),
      cmocka_unit_test(test_adaptive_turn),
      cmocka_unit_test(test_broadcast_copies),
      cmocka_unit_test(test_turn_into_missing_output),
      cmocka_unit_test(test_header_cut_short),
      cmocka_unit_test(test_blocked_multi_segment),
      cmocka_unit_test(test_broadcast_cut),
      cmocka_unit_test(test_abort_behind_buffered_segment),
      cmocka_unit_test(test_awf2_pass_both_flits),
      cmocka_unit_test(test_awf2_dead_word_at_turn),
      cmocka_unit_test(test_awf2_decision_after_word),
      cmocka_unit_test(test_awf2_adaptive_turn),
      cmocka_unit_test(test_awf2_broadcast_copies),
      cmocka_unit_test(test_awf2_header_cut_inside_a1),
      cmocka_unit_test(test_awf2_dead_word_rule),
      cmocka_unit_test(test_stop_threshold),
  };
  return cmocka_run_group_tests_name("mp1_rm", tests, NULL, NULL);
}
