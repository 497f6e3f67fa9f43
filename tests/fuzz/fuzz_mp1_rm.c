/* Fuzz target mp1_rm: one MP1 routing machine (cmodel/mp1_rm.c) fed an arbitrary chunk stream on
 * its input with arbitrary grants, free flags and stops on its four outputs. Asserts, besides the
 * sanitizers: mp1_rm_eval and mp1_rm_eval_full (without the quiet shortcut) give the same outputs
 * and the same next state every cycle; err (the buffer invariant, docs/mp1_draft4.md §6) never
 * rises while the sender honours stop (starts a segment only in a cycle whose stop it sees low,
 * §2 rule 2: tracked here on the sender's own framing of what it sent); and no hang: unless err
 * rose (the writer lapped the buffer: a sender that ignored stop), after the stream the input is
 * closed the way a sender closes it (idle chunks, which truncate an open segment, then an abort,
 * 011, between segments: §4.2, §4.4) and, with every output granted whenever it asks (an arbiter
 * with no other client, as tests/test_mp1_rm.c's rig) and never stopped, the machine is settled
 * (mp1_rm_settled: empty, every copy OFF) within a bounded number of cycles. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <madpost/mp1_rm.h>

#include "../../cmodel/mp1_int.h" /* mp1_rm_eval_full and mp1_rm_settled (not public) */

/* Cycles allowed after the abort: every copy sends one chunk a cycle, and the buffer holds
   MP1_RM_BUF chunks of at most two messages; 4x that is ample. */
enum { DRAIN_CYCLES = 4 * MP1_RM_BUF + 64 };

static void fail(const char *what, size_t cyc) {
  fprintf(stderr, "fuzz_mp1_rm: cycle %zu: %s\n", cyc, what);
  abort();
}

/* The sender's view of its own stream (docs/mp1.md §2.1): a chunk with its top bit set outside a
   flit starts one (two more chunks follow); any other chunk outside a flit ends the segment (an
   end code, or a gap or 011: a truncation). */
typedef struct {
  uint32_t flit_left, in_seg, ignored_stop, err_seen;
} sender_t;

static void sender_track(sender_t *s, uint32_t chunk, uint32_t stop_q) {
  if (s->flit_left) {
    s->flit_left--;
  } else if (chunk & 4u) {
    if (!s->in_seg && stop_q) s->ignored_stop = 1;
    s->in_seg = 1;
    s->flit_left = 2;
  } else {
    s->in_seg = 0;
  }
}

/* The block's calls, in one place. */
static void dut_reset(const mp1_rm_cfg_t *cfg, mp1_rm_state_t *st) { mp1_rm_reset(cfg, st); }

/* One cycle: eval both ways, compare, clock. */
static void dut_cycle(const mp1_rm_cfg_t *cfg, mp1_rm_state_t *st, const mp1_rm_in_t *in,
                      mp1_rm_out_t *out, size_t c) {
  mp1_rm_next_t nx, nf;
  mp1_rm_out_t of;
  memset(&nx, 0, sizeof nx);
  memset(&nf, 0, sizeof nf);
  mp1_rm_eval(cfg, st, in, out, &nx, NULL);
  mp1_rm_eval_full(cfg, st, in, &of, &nf, NULL);
  if (memcmp(out, &of, sizeof of)) fail("mp1_rm_eval and mp1_rm_eval_full: outputs differ", c);
  mp1_rm_state_t sf = *st;
  mp1_rm_clock(st, &nx);
  mp1_rm_clock(&sf, &nf);
  if (memcmp(&st->r, &sf.r, sizeof sf.r) || memcmp(st->mem, sf.mem, sizeof sf.mem))
    fail("mp1_rm_eval and mp1_rm_eval_full: next states differ", c);
}

/* Inputs from two bytes: the chunk, then own/free/stop of st, ot, rc, pb. */
static void fuzz_in(mp1_rm_in_t *in, uint8_t b0, uint8_t b1) {
  in->in_dat = b0 & 7u;
  in->st_own = (b0 >> 3) & 1u, in->st_free = (b0 >> 4) & 1u, in->st_stop = (b0 >> 5) & 1u;
  in->ot_own = (b0 >> 6) & 1u, in->ot_free = (b0 >> 7) & 1u, in->ot_stop = b1 & 1u;
  in->rc_own = (b1 >> 1) & 1u, in->rc_free = (b1 >> 2) & 1u, in->rc_stop = (b1 >> 3) & 1u;
  in->pb_own = (b1 >> 4) & 1u, in->pb_free = (b1 >> 5) & 1u, in->pb_stop = (b1 >> 6) & 1u;
}

/* After the stream: each output owned in the cycle after it asked (free while not owned), never
   stopped; the given chunk in. */
static void open_outputs(mp1_rm_in_t *in, const mp1_rm_out_t *prev, uint32_t chunk) {
  in->in_dat = chunk;
  in->st_own = prev->st_req, in->ot_own = prev->ot_req;
  in->rc_own = prev->rc_req, in->pb_own = prev->pb_req;
  in->st_free = !in->st_own, in->ot_free = !in->ot_own;
  in->rc_free = !in->rc_own, in->pb_free = !in->pb_own;
  in->st_stop = in->ot_stop = in->rc_stop = in->pb_stop = 0;
}

/* One cycle as the sender sees it. */
static void cycle(const mp1_rm_cfg_t *cfg, mp1_rm_state_t *st, const mp1_rm_in_t *in,
                  mp1_rm_out_t *out, sender_t *snd, size_t c) {
  sender_track(snd, in->in_dat, st->r.stop);
  dut_cycle(cfg, st, in, out, c);
  if (out->err) {
    if (!snd->ignored_stop) fail("err with a sender that honours stop", c);
    snd->err_seen = 1;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 4) return 0;
  /* Header: AWF, this node's position and direction flags (static inputs). */
  const mp1_rm_cfg_t cfg = {.awf = 1u + (data[0] & 1u)};
  const uint32_t awmask = cfg.awf == 2 ? 0x1FFFu : 0x1Fu;
  mp1_rm_in_t in;
  memset(&in, 0, sizeof in);
  in.pos = data[1] & awmask, in.opos = ((uint32_t)data[2] | (uint32_t)data[1] << 8) & awmask;
  in.neg = (data[0] >> 1) & 1u, in.oneg = (data[0] >> 2) & 1u;
  in.edge = (data[0] >> 3) & 1u, in.oedge = (data[0] >> 4) & 1u;
  static mp1_rm_state_t st;
  dut_reset(&cfg, &st);
  mp1_rm_out_t out;
  memset(&out, 0, sizeof out);
  sender_t snd = {0, 0, 0, 0};
  size_t c = 0;
  for (size_t i = 3; i + 1 < size; i += 2, c++) {
    fuzz_in(&in, data[i], data[i + 1]);
    cycle(&cfg, &st, &in, &out, &snd, c);
  }
  /* Close the input: idle chunks (a gap ends an open segment), then an abort between segments. */
  static const uint32_t tail[] = {0, 0, 0, 0, MP1_CH_ILLEGAL};
  for (size_t k = 0; k < sizeof tail / sizeof tail[0]; k++, c++) {
    open_outputs(&in, &out, tail[k]);
    cycle(&cfg, &st, &in, &out, &snd, c);
  }
  if (snd.err_seen) return 0; /* the buffer was lapped: what it holds is not a message */
  for (int k = 0; k < DRAIN_CYCLES && !mp1_rm_settled(&st); k++, c++) {
    open_outputs(&in, &out, MP1_CH_IDLE);
    cycle(&cfg, &st, &in, &out, &snd, c);
  }
  if (!mp1_rm_settled(&st)) fail("hang: not settled after the stream, an abort and drain", c);
  return 0;
}
