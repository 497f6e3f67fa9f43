/* cmocka tests of the MP1 network simulator: metrics on hand-worked runs, conservation, the
 * channel-crossing count against the oblivious paths, owned-but-waiting channels, determinism,
 * the buffer invariant under saturation, configuration errors. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>

#include <cmocka.h>

#include <madpost/mp1_hop.h>
#include <madpost/mp1_sim.h>
#include <madpost/net_stat.h>

static mp1_sim_cfg_t cfg(const char *const *kv) {
  mp1_sim_cfg_t c;
  char err[256];
  mp1_sim_cfg_default(&c);
  for (; *kv; kv += 2) {
    if (mp1_sim_cfg_set(&c, kv[0], kv[1], err, sizeof err)) fail_msg("%s", err);
  }
  return c;
}

static void run(const mp1_sim_cfg_t *c, uint64_t seed, mp1_sim_result_t *r, mp1_sim_chan_t *ch) {
  char err[256];
  if (mp1_sim_run(c, seed, r, ch, NULL, NULL, err, sizeof err)) fail_msg("%s", err);
}

/* Every message generated was dropped at a full source queue or delivered: none corrupt, dropped
   or stray in the network, none left queued or in flight. */
static void check_conserved(const mp1_sim_result_t *r) {
  assert_int_equal(r->generated, r->overflow + r->delivered);
  assert_int_equal(r->in_queue + r->in_network + r->corrupt + r->net_dropped + r->net_stray, 0);
}

/* The configuration is refused with a message containing what. */
static void check_refused(const mp1_sim_cfg_t *c, const char *what) {
  char err[256];
  assert_int_equal(mp1_sim_cfg_check(c, err, sizeof err), -1);
  assert_non_null(strstr(err, what));
}

/* 2x2, synchronous transpose: (0,1) -> (1,0) and (1,0) -> (0,1), one message each, in different
 * planes, so nothing contends. Hand-worked: 2 links, 6 flits, one turn (no extra cycle,
 * docs/mp1_draft4.md §11): network latency 2 + 18 - 1 = 19, end to end 19 + 3 = 22 (the
 * controller's forward, the delivery's copy, the EOM); the per-hop engine gives it. The sender
 * needs 6 cycles from queue entry to its first header chunk: the first chunk the next cycle,
 * selection flit 3, EOS 1 (the controller requests the output at the flit's third chunk, §10.1),
 * one idle chunk while the output is granted, then the header follows. */
static void lone_messages(void **state) {
  (void)state;
  const char *kv[] = {"mesh", "2x2", "mode", "sync", "traffic", "transpose", "drain", "1000",
                      "routing", "oblivious", "length", "6", NULL};
  mp1_sim_cfg_t c = cfg(kv);
  mp1_sim_result_t r;
  run(&c, 1, &r, NULL);
  mp1_hop_cfg_t h = {.kx = 2, .ky = 2, .sx = 0, .sy = 1, .dx = 1, .dy = 0, .len = 4,
                     .max_cycles = 10000};
  mp1_hop_result_t hr;
  char err[128];
  assert_int_equal(mp1_hop_run(&h, &hr, err, sizeof err), 0);
  assert_int_equal(hr.net, 19);
  assert_int_equal(hr.total, 22);
  assert_int_equal(r.generated, 2);
  assert_int_equal(r.delivered, 2);
  assert_int_equal(
      r.corrupt + r.overflow + r.in_queue + r.in_network + r.net_dropped + r.net_stray, 0);
  assert_true(r.complete);
  /* net latency: first header chunk injected to the EOM cycle = the engine's total - 1 */
  assert_true(r.net_lat_mean == (double)(hr.total - 1));
  assert_true(r.lat_mean == (double)(hr.total - 1 + 6));
  assert_true(r.lat_max == r.lat_mean);
  assert_true(r.lat_sd == 0.0);
  assert_true(r.inj_delay_mean == 0.0); /* the interface buffer was free */
  assert_true(r.hops_mean == 2.0);
  assert_int_equal(r.completion, hr.total - 1 + 6 + 1);
  /* 2 messages x 6 bytes over the run's cycles */
  assert_true(r.thr_bytes == 12.0 / (double)r.completion);
  /* no edge node cuts through, so no dead flit; each message holds each of its 2 links for
   * at least its 19 chunks (18 flit chunks and EOM) */
  assert_true(r.util_dead_mean == 0.0);
  const double busy_cycles = r.util_mean / 100.0 * (double)r.completion * 4 * 8;
  assert_true(busy_cycles >= 4 * 19 - 1e-9);
  assert_true(r.util_max / 100.0 * (double)r.completion >= 19 - 1e-9);
  assert_true(r.adapt_per_msg == 0.0);
}

/* Exactly the oblivious (X then Y) paths: every channel's live crossings equal the number of the
 * permutation's paths through it, no other channel carries a live message, and each crossing holds
 * its link at least as long as its chunks take. With address words of one flit and of two (a dead
 * word is two flits then: still not live, docs/mp1.md §14.2 rule 5). */
static void crossings_match_paths(void **state) {
  (void)state;
  for (uint32_t awf = 1; awf <= 2; awf++) {
    const char *kv[] = {"mesh", "4x4", "mode", "sync", "traffic", "bitrev", "drain", "20000",
                        "routing", "oblivious", "length", "6", "address-flits",
                        awf == 1 ? "1" : "2", NULL};
    mp1_sim_cfg_t c = cfg(kv);
    const uint32_t n = 16;
    uint64_t cross[16 * 8], busy[16 * 8], dead[16 * 8], want[16 * 8] = {0}, least[16 * 8] = {0};
    mp1_sim_chan_t ch = {cross, busy, dead, NULL, NULL};
    mp1_sim_result_t r;
    run(&c, 5, &r, &ch);
    assert_true(r.complete);
    net_traffic_cfg_t t = {.pattern = NET_TR_BITREV, .kx = 4, .ky = 4};
    uint32_t msgs = 0;
    for (uint32_t s = 0; s < n; s++) {
      const int64_t d = net_traffic_dest(&t, s, NULL);
      if (d < 0) continue;
      msgs++;
      int x = (int)(s % 4), y = (int)(s / 4);
      const int dx = (int)(d % 4), dy = (int)(d / 4);
      const uint32_t p = ((uint32_t)(dx < x) << 1) | (uint32_t)(dy < y);
      /* a link holds the message's flits still to go (6 bytes, each address word awf flits; once
       * the turn consumed the first word, that word fewer) as 3 chunks each, then the EOM */
      const uint32_t turned = x != dx && y != dy, flits = 6 + (1 + turned) * (awf - 1);
      while (x != dx) {
        want[(y * 4 + x) * 8 + 2 * p]++;
        least[(y * 4 + x) * 8 + 2 * p] += 3 * flits + 1;
        x += dx > x ? 1 : -1;
      }
      while (y != dy) {
        want[(y * 4 + x) * 8 + 2 * p + 1]++;
        least[(y * 4 + x) * 8 + 2 * p + 1] += 3 * (flits - turned * awf) + 1;
        y += dy > y ? 1 : -1;
      }
    }
    assert_int_equal(r.delivered, msgs);
    assert_true(r.util_dead_mean > 0); /* dead words ran on past destinations off the edge */
    for (uint32_t i = 0; i < n * 8; i++) {
      if (cross[i] != want[i])
        fail_msg("awf %u: node %u channel %u: %llu live crossings, the paths give %llu", awf, i / 8,
                 i % 8, (unsigned long long)cross[i], (unsigned long long)want[i]);
      assert_true(busy[i] >= dead[i]);
      if (busy[i] - dead[i] < least[i])
        fail_msg("awf %u: node %u channel %u: %llu live cycles for %llu messages", awf, i / 8,
                 i % 8, (unsigned long long)(busy[i] - dead[i]), (unsigned long long)want[i]);
    }
  }
}

/* The lone messages of lone_messages, channel by channel. Each link carries its message's chunks
 * back to back (3 per flit and the EOM), and is owned for a few cycles more with nothing on it:
 * an injection channel 4, two before its message (the arbiter grants the controller's request;
 * the interface sees stop fall and sends its first header chunk the next cycle; the controller's
 * inj_dat register passes it a cycle later, docs/mp1.md §11.3) and two after its EOM (NEXT keeps
 * the output for the window and WIN waits for a message that does not come, docs/mp1_draft4.md
 * §10.2), a turn 1 (the turning copy asks in the cycle a1 completes and owns the output the next
 * cycle, when its output register loads a2's first chunk, §5.3). Those are the waiting cycles,
 * nothing stops, and
 * the zero chunks inside the flits (the static code, address 0, the tag's bytes) are not waiting:
 * counting them, as a framing-blind count would, breaks these numbers. */
static void waiting_lone(void **state) {
  (void)state;
  const char *kv[] = {"mesh", "2x2", "mode", "sync", "traffic", "transpose", "drain", "1000",
                      "routing", "oblivious", "length", "6", NULL};
  mp1_sim_cfg_t c = cfg(kv);
  uint64_t cross[4 * 8], busy[4 * 8], dead[4 * 8], wait[4 * 8], stopped[4 * 8];
  memset(wait, 0xff, sizeof wait);
  memset(stopped, 0xff, sizeof stopped); /* the run must clear what it does not count */
  mp1_sim_chan_t ch = {cross, busy, dead, wait, stopped};
  mp1_sim_result_t r;
  run(&c, 1, &r, &ch);
  assert_true(r.complete);
  /* (0,1) -> (1,0): plane 1 (+X,-Y), X out of node 2, Y out of node 3 after the turn;
   * (1,0) -> (0,1): plane 2 (-X,+Y), X out of node 1, Y out of node 0 */
  struct {
    uint32_t ix, chunks, wait;
  } const want[4] = {{2 * 8 + 2, 3 * 6 + 1, 4}, {3 * 8 + 3, 3 * 5 + 1, 1},
                     {1 * 8 + 4, 3 * 6 + 1, 4}, {0 * 8 + 5, 3 * 5 + 1, 1}};
  uint64_t wsum = 0;
  for (uint32_t i = 0; i < 4 * 8; i++) {
    uint32_t k = 0;
    while (k < 4 && want[k].ix != i) k++;
    if (k == 4) {
      assert_int_equal(busy[i], 0);
      assert_int_equal(wait[i], 0);
    } else {
      if (wait[i] != want[k].wait || busy[i] != want[k].chunks + want[k].wait)
        fail_msg("node %u channel %u: busy %llu, waiting %llu; want %u and %u", i / 8, i % 8,
                 (unsigned long long)busy[i], (unsigned long long)wait[i],
                 want[k].chunks + want[k].wait, want[k].wait);
    }
    assert_int_equal(stopped[i], 0);
    wsum += wait[i];
  }
  assert_int_equal(wsum, 10);
  /* the summary: over 8 channels of 4 nodes for the run's cycles; the busiest channels are the
   * two injection channels (23 cycles), each waiting 4 */
  const double W = (double)r.completion;
  assert_true(fabs(r.util_wait_mean / 100.0 * W * 4 * 8 - 10.0) < 1e-9);
  assert_true(fabs(r.util_max / 100.0 * W - 23.0) < 1e-9);
  assert_true(fabs(r.util_wait_max / 100.0 * W - 4.0) < 1e-9);
}

/* Waiting is part of use and stopped waiting part of waiting, channel by channel; the summary is
 * the channels' figures (the mean over all, the busiest's share). At 1% load a channel waits only
 * for the grants (waiting_lone), a small part of its use; every node sending a 2-segment message
 * to one node keeps the links into it assigned between segments with the receiver's stop high,
 * so most of their use is then waiting, and stopped. Channel `edge` (SIZE_MAX: none) must be
 * stopped most of its waiting time. */
static void check_waiting(const mp1_sim_cfg_t *c, uint64_t seed, double lo, double hi,
                          size_t edge) {
  const size_t nch = (size_t)c->kx * c->ky * 8;
  uint64_t *cross = calloc(nch, 8), *busy = calloc(nch, 8), *dead = calloc(nch, 8);
  uint64_t *wait = calloc(nch, 8), *stopped = calloc(nch, 8);
  assert_true(cross && busy && dead && wait && stopped);
  mp1_sim_chan_t ch = {cross, busy, dead, wait, stopped};
  mp1_sim_result_t r;
  run(c, seed, &r, &ch);
  uint64_t bsum = 0, wsum = 0, ssum = 0, bmax = 0, wmax = 0;
  for (size_t i = 0; i < nch; i++) {
    if (wait[i] > busy[i] || stopped[i] > wait[i])
      fail_msg("node %zu channel %zu: busy %llu, waiting %llu, stopped %llu", i / 8, i % 8,
               (unsigned long long)busy[i], (unsigned long long)wait[i],
               (unsigned long long)stopped[i]);
    bsum += busy[i], wsum += wait[i], ssum += stopped[i];
    if (busy[i] > bmax) bmax = busy[i], wmax = wait[i];
  }
  const double W = c->mode == MP1_MODE_SYNC ? (double)r.completion : (double)c->measure;
  assert_true(fabs(r.util_mean - 100.0 * (double)bsum / (W * (double)nch)) < 1e-9);
  assert_true(fabs(r.util_wait_mean - 100.0 * (double)wsum / (W * (double)nch)) < 1e-9);
  assert_true(fabs(r.util_wait_max - 100.0 * (double)wmax / W) < 1e-9);
  assert_true(r.util_wait_mean <= r.util_mean && r.util_wait_max <= r.util_max);
  const double share = (double)wsum / (double)bsum;
  printf("%ux%u: util %.3f%%, waiting %.3f%% (%.1f%% of use, %.1f%% of it stopped)\n", c->kx,
         c->ky, r.util_mean, r.util_wait_mean, 100 * share, 100.0 * (double)ssum / (double)wsum);
  if (share <= lo || share >= hi)
    fail_msg("waiting share of use %.4f, want (%g, %g)", share, lo, hi);
  if (lo > 0.5) assert_true(ssum > wsum / 2);
  if (edge != SIZE_MAX && !(wait[edge] > 0 && stopped[edge] > wait[edge] / 2))
    fail_msg("node %zu channel %zu: waiting %llu, stopped %llu", edge / 8, edge % 8,
             (unsigned long long)wait[edge], (unsigned long long)stopped[edge]);
  free(cross), free(busy), free(dead), free(wait), free(stopped);
}

static void waiting_bounds(void **state) {
  (void)state;
  const char *low[] = {"mesh", "4x4", "load", "1", "warmup", "500", "measure", "20000", NULL};
  mp1_sim_cfg_t c = cfg(low);
  check_waiting(&c, 3, 0.0, 0.1, SIZE_MAX);
  const char *hot[] = {"mesh", "4x4", "mode", "sync", "traffic", "hotspot", "hot-node", "5",
                       "hot-frac", "1", "drain", "100000", "length", "48", "routing",
                       "oblivious", NULL};
  c = cfg(hot);
  /* (3,1) sends west to (1,1) in plane 2 from the mesh's east edge, where nothing enters it: the
   * stop that holds its injection channel between segments can only be (2,1)'s */
  check_waiting(&c, 3, 0.5, 1.0, (1 * 4 + 3) * 8 + 4);
}

/* Every generated message is delivered, still queued, in the network, or counted as dropped; after
 * a drain nothing is left and nothing was lost, even past saturation, with the interfaces' window
 * (on by default, docs/mp1_draft4.md §10.4) carrying some of the messages: no segment found a
 * machine with both slots full (a stray, §4.6), which a window message would if the machine
 * raised stop only at a segment's end (§6). */
static void conservation(void **state) {
  (void)state;
  const char *const loads[] = {"10", "60", "120"};
  const char *const routes[] = {"oblivious", "restrictive", "adaptive"};
  for (int k = 0; k < 3; k++) {
    const char *kv[] = {"mesh", "4x4", "load", loads[k], "routing", routes[k], "warmup", "500",
                        "measure", "3000", "length", k == 2 ? "48" : "6", NULL};
    mp1_sim_cfg_t c = cfg(kv);
    mp1_sim_result_t r;
    run(&c, 3, &r, NULL);
    assert_int_equal(r.generated,
                     r.overflow + r.delivered + r.corrupt + r.in_queue + r.in_network);
    assert_int_equal(r.corrupt, 0);
    assert_int_equal(r.net_dropped + r.net_stray, 0);
    assert_true(r.w_delivered > 0);
    c.drain = 200000;
    run(&c, 3, &r, NULL);
    check_conserved(&r);
    assert_true(r.win_sent > 0 && r.win_sent < r.delivered);
    if (k == 2) assert_true(r.overflow > 0 && r.saturated); /* 120% of the bound */
    if (k == 0) assert_true(r.overflow == 0 && !r.saturated);
  }
}

/* The buffer invariant (docs/mp1_sim.md §4): every cycle the simulator reads each chip's err and
 * would stop the run with an error naming the node. Far past saturation, with long messages that
 * keep the machines' buffers full behind blocked ones, mesh and torus, it never fires: the run
 * returns 0 with nothing in err. */
static void invariant_holds(void **state) {
  (void)state;
  const char *const topo[] = {"mesh", "torus"};
  for (int k = 0; k < 2; k++) {
    const char *kv[] = {"mesh", "4x4", "topology", topo[k], "load", "200", "routing", "adaptive",
                        "length", "96", "warmup", "500", "measure", "3000", NULL};
    mp1_sim_cfg_t c = cfg(kv);
    mp1_sim_result_t r;
    char err[256] = "";
    assert_int_equal(mp1_sim_run(&c, 5, &r, NULL, NULL, NULL, err, sizeof err), 0);
    assert_string_equal(err, "");
    assert_true(r.saturated && r.buf_hold_mean > 0);
  }
}

/* A small end-to-end run against known figures (at 10%: a 4x4 mesh's bisection bound is more
 * than its injection channels can feed, docs/mp1_sim.md §3): below saturation the accepted load equals the
 * offered load, and the mean path is the mesh's mean distance (4x4: 2 (k^2 - 1) / (3k) N / (N-1)
 * = 8/3). */
static void end_to_end(void **state) {
  (void)state;
  const char *kv[] = {"mesh", "4x4", "load", "10", "seeds", "3", "measure", "20000", NULL};
  mp1_sim_cfg_t c = cfg(kv);
  double hops[3], thr[3];
  for (uint32_t s = 0; s < 3; s++) {
    mp1_sim_result_t r;
    run(&c, 11 + s, &r, NULL);
    assert_false(r.saturated);
    hops[s] = r.hops_mean;
    thr[s] = r.thr_frac;
    assert_true(r.lat_mean > r.net_lat_mean && r.net_lat_mean >= 19.0);
    assert_true(r.util_max > r.util_mean && r.util_mean > 0);
    assert_true(r.adapt_buf_per_msg <= r.adapt_per_msg);
  }
  const net_stat_t h = net_stat(hops, 3), t = net_stat(thr, 3);
  printf("4x4 at 10%%: hops %.4f +- %.4f, accepted %.3f%% +- %.3f\n", h.mean, h.ci, t.mean, t.ci);
  assert_true(h.mean > 8.0 / 3 * 0.97 && h.mean < 8.0 / 3 * 1.03);
  assert_true(t.mean > 9.5 && t.mean < 10.5);
}

/* One seed gives one cycle-by-cycle result; another seed gives another. */
static void determinism(void **state) {
  (void)state;
  const char *kv[] = {"mesh", "6x5", "load", "40", "warmup", "1000", "measure", "4000",
                      "arrival", "bursty", NULL};
  mp1_sim_cfg_t c = cfg(kv);
  mp1_sim_result_t a, b, d;
  run(&c, 9, &a, NULL);
  run(&c, 9, &b, NULL);
  run(&c, 10, &d, NULL);
  assert_memory_equal(&a, &b, sizeof a);
  assert_true(a.generated != d.generated || a.lat_mean != d.lat_mean);
}

/* Broadcast over a 3x3 domain of a 5x5 mesh from (1,1): every node of the domain but the source
 * gets the data once, and nothing else does; the hardware broadcast beats one message per node. */
static void broadcast_domain(void **state) {
  (void)state;
  const char *kv[] = {"mesh", "5x5", "mode", "sync", "traffic", "broadcast", "bcast-src", "6",
                      "bcast-size", "3", "drain", "20000", NULL};
  mp1_sim_cfg_t c = cfg(kv);
  mp1_sim_result_t hw, p2p;
  run(&c, 1, &hw, NULL);
  assert_int_equal(hw.generated, 8);
  assert_int_equal(hw.delivered, 8);
  assert_int_equal(hw.corrupt + hw.in_network + hw.in_queue + hw.net_dropped + hw.net_stray, 0);
  assert_true(hw.complete);
  char err[256];
  assert_int_equal(mp1_sim_cfg_set(&c, "traffic", "bcast-p2p", err, sizeof err), 0);
  run(&c, 1, &p2p, NULL);
  assert_int_equal(p2p.delivered, 8);
  assert_true(p2p.complete);
  assert_true(hw.completion < p2p.completion);
  /* the farthest node, (3,3), is 4 hops away: nothing can be faster than a message to it */
  mp1_hop_cfg_t h = {.kx = 5, .ky = 5, .sx = 1, .sy = 1, .dx = 3, .dy = 3, .len = 4,
                     .max_cycles = 10000};
  mp1_hop_result_t hr;
  assert_int_equal(mp1_hop_run(&h, &hr, err, sizeof err), 0);
  assert_true(hw.completion > hr.total);
  /* the domain must fit, and broadcasts are timed to completion */
  assert_int_equal(mp1_sim_cfg_set(&c, "bcast-size", "5", err, sizeof err), 0);
  check_refused(&c, "leaves the network");
  assert_int_equal(mp1_sim_cfg_set(&c, "bcast-size", "3", err, sizeof err), 0);
  assert_int_equal(mp1_sim_cfg_set(&c, "traffic", "broadcast", err, sizeof err), 0);
  assert_int_equal(mp1_sim_cfg_set(&c, "length", "33", err, sizeof err), 0);
  check_refused(&c, "one segment");
}

/* The torus of four chips per node: every injection rule delivers everything, by minimal paths
 * (4x4 torus: mean distance 2 N / (N - 1) = 32/15), and the wrap links carry traffic. Window
 * messages go to one of four chips on one interface: the three that skipped the message before
 * skip it too (docs/mp1_draft4.md §10.2), none takes it for a selection, and nothing is dropped or
 * stray, also past saturation (120 %). */
static void torus(void **state) {
  (void)state;
  const char *const rules[] = {"paper", "fixed", "random"};
  for (int k = 0; k < 3; k++) {
    const char *kv[] = {"mesh", "4x4", "topology", "torus", "torus-inject", rules[k], "load", "8",
                        "warmup", "500", "measure", "20000", "drain", "100000",
                        "routing", k == 1 ? "oblivious" : "adaptive", NULL};
    mp1_sim_cfg_t c = cfg(kv);
    uint64_t cross[64 * 8], busy[64 * 8], dead[64 * 8];
    mp1_sim_chan_t ch = {cross, busy, dead, NULL, NULL};
    mp1_sim_result_t r;
    run(&c, 21, &r, &ch);
    check_conserved(&r);
    assert_true(r.win_sent > 0);
    assert_true(r.hops_mean > 32.0 / 15 * 0.97 && r.hops_mean < 32.0 / 15 * 1.03);
    /* the chip mesh is 8x8; its links from x = 3 to x = 4 (and y = 3 to 4) are the wrap links */
    uint64_t wrap = 0;
    for (uint32_t y = 0; y < 8; y++) {
      wrap += cross[(y * 8 + 3) * 8 + 0] + cross[(y * 8 + 3) * 8 + 2]; /* +X planes out of x = 3 */
      wrap += cross[(y * 8 + 4) * 8 + 4] + cross[(y * 8 + 4) * 8 + 6]; /* -X planes out of x = 4 */
    }
    assert_true(wrap > r.delivered / 20);
    char err[256];
    assert_int_equal(mp1_sim_cfg_set(&c, "load", "120", err, sizeof err), 0);
    assert_int_equal(mp1_sim_cfg_set(&c, "measure", "3000", err, sizeof err), 0);
    run(&c, 22, &r, NULL);
    assert_true(r.overflow > 0 && r.win_sent > 0);
    check_conserved(&r);
  }
  /* a torus unrolls into a mesh twice as wide: with one-flit (5-bit) addresses at most 16x16,
     with two-flit (13-bit) ones 4096x4096; auto takes two flits beyond 16x16 */
  mp1_sim_cfg_t c;
  char err[256];
  mp1_sim_cfg_default(&c);
  assert_int_equal(mp1_sim_cfg_set(&c, "topology", "torus", err, sizeof err), 0);
  assert_int_equal(mp1_sim_cfg_set(&c, "mesh", "16x16", err, sizeof err), 0);
  assert_int_equal(mp1_sim_awf(&c), 1);
  assert_int_equal(mp1_sim_cfg_set(&c, "mesh", "17x16", err, sizeof err), 0);
  assert_int_equal(mp1_sim_cfg_check(&c, err, sizeof err), 0);
  assert_int_equal(mp1_sim_awf(&c), 2);
  assert_int_equal(mp1_sim_cfg_set(&c, "address-flits", "1", err, sizeof err), 0);
  check_refused(&c, "address-flits 1: the 17x16 torus needs addresses up to 33");
  assert_int_equal(mp1_sim_cfg_set(&c, "address-flits", "auto", err, sizeof err), 0);
  assert_int_equal(mp1_sim_cfg_set(&c, "mesh", "4097x16", err, sizeof err), 0);
  check_refused(&c, "at most 4096x4096");
}

/* Beyond 32 nodes a side the addresses take two flits (docs/mp1.md §14, address-flits auto): a
 * 40x4 mesh and an unrolled 17x3 torus (a 34x6 chip mesh) conserve their messages and deliver
 * them all once drained; the sources do not depend on the address flits, so an 8x8 mesh run with
 * address-flits 2 generates and, drained, delivers the same messages as with 1, only later. */
static void wide_addresses(void **state) {
  (void)state;
  const char *kv[] = {"mesh", "40x4", "load", "40", "warmup", "300", "measure", "2000",
                      "length", "40", NULL};
  mp1_sim_cfg_t c = cfg(kv);
  assert_int_equal(mp1_sim_awf(&c), 2);
  mp1_sim_result_t r;
  run(&c, 5, &r, NULL);
  assert_int_equal(r.generated,
                   r.overflow + r.delivered + r.corrupt + r.in_queue + r.in_network);
  assert_int_equal(r.corrupt + r.net_dropped, 0);
  assert_true(r.w_delivered > 100);
  c.drain = 200000;
  run(&c, 5, &r, NULL);
  check_conserved(&r);
  assert_true(r.hops_mean > 10.0); /* mean distance of 40x4: (40^2-1)/120 + (16-1)/12 = 14.6 */

  const char *kt[] = {"mesh", "17x3", "topology", "torus", "load", "20", "warmup", "300",
                      "measure", "1500", "drain", "100000", NULL};
  mp1_sim_cfg_t t = cfg(kt);
  assert_int_equal(mp1_sim_awf(&t), 2);
  run(&t, 6, &r, NULL);
  check_conserved(&r);
  assert_true(r.delivered > 100);

  const char *k8[] = {"mesh", "8x8", "load", "20", "warmup", "300", "measure", "3000",
                      "drain", "100000", "length", "12", NULL};
  mp1_sim_cfg_t a = cfg(k8), b = cfg(k8);
  char err[256];
  assert_int_equal(mp1_sim_cfg_set(&b, "address-flits", "2", err, sizeof err), 0);
  mp1_sim_result_t ra, rb;
  run(&a, 8, &ra, NULL);
  run(&b, 8, &rb, NULL);
  assert_int_equal(rb.generated, rb.overflow + rb.delivered);
  assert_int_equal(rb.corrupt + rb.net_dropped + rb.net_stray, 0);
  /* the same sources, so the same messages and the same data bytes; the headers are longer */
  assert_int_equal(ra.generated, rb.generated);
  assert_int_equal(ra.delivered, rb.delivered);
  assert_true(rb.net_lat_mean > ra.net_lat_mean);
}

static void stat_ci(void **state) {
  (void)state;
  const double v[3] = {1.0, 2.0, 3.0};
  const net_stat_t s = net_stat(v, 3);
  assert_true(s.mean == 2.0);
  /* sd 1, t(0.975, 2) = 4.303: 4.303 / sqrt(3) */
  assert_true(s.ci > 2.4843 && s.ci < 2.4844);
  assert_true(net_stat(v, 1).ci == 0.0);
}

static int write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fputs(text, f);
  return fclose(f);
}

static void expect_load_error(const char *text, const char *want) {
  char path[] = "/tmp/mp1_sim_cfg_XXXXXX";
  const int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  assert_int_equal(write_file(path, text), 0);
  mp1_sim_cfg_t c;
  mp1_sim_cfg_default(&c);
  char err[400] = "";
  const int rc = mp1_sim_cfg_load(&c, path, err, sizeof err);
  unlink(path);
  if (rc != -1 || !strstr(err, want)) fail_msg("config '%s': got '%s', want '%s'", text, err, want);
}

static void config_errors(void **state) {
  (void)state;
  mp1_sim_cfg_t c;
  char err[400];
  mp1_sim_cfg_default(&c);
  assert_int_equal(mp1_sim_cfg_set(&c, "bogus", "1", err, sizeof err), -1);
  assert_non_null(strstr(err, "unknown parameter 'bogus'"));
  assert_int_equal(mp1_sim_cfg_set(&c, "mesh", "8193x4", err, sizeof err), -1);
  assert_non_null(strstr(err, "mesh (KX)"));
  assert_int_equal(mp1_sim_cfg_set(&c, "mesh", "16", err, sizeof err), -1);
  assert_non_null(strstr(err, "KXxKY"));
  assert_int_equal(mp1_sim_cfg_set(&c, "routing", "fast", err, sizeof err), -1);
  assert_non_null(strstr(err, "oblivious|restrictive|adaptive"));
  assert_int_equal(mp1_sim_cfg_set(&c, "load", "-3", err, sizeof err), -1);
  assert_int_equal(mp1_sim_cfg_set(&c, "load", "3x", err, sizeof err), -1);
  assert_int_equal(mp1_sim_cfg_set(&c, "seeds", "0", err, sizeof err), -1);
  assert_int_equal(mp1_sim_cfg_set(&c, "traffic", "random", err, sizeof err), -1);
  assert_non_null(strstr(err, "traffic: 'random'"));
  assert_int_equal(mp1_sim_cfg_set(&c, "hot-frac", "1.5", err, sizeof err), -1);
  /* cross-checks */
  mp1_sim_cfg_default(&c);
  assert_int_equal(mp1_sim_cfg_set(&c, "mesh", "8x4", err, sizeof err), 0);
  assert_int_equal(mp1_sim_cfg_set(&c, "traffic", "transpose", err, sizeof err), 0);
  assert_int_equal(mp1_sim_cfg_check(&c, err, sizeof err), -1);
  mp1_sim_cfg_default(&c);
  assert_int_equal(mp1_sim_cfg_set(&c, "mode", "sync", err, sizeof err), 0);
  check_refused(&c, "drain");
  mp1_sim_cfg_default(&c);
  c.len = 1;
  check_refused(&c, "length");
  /* files */
  expect_load_error("[network]\nmesh = 8x8\nspeed = 3\n", "unknown parameter 'speed'");
  expect_load_error("[traffic]\nmesh = 8x8\n", "belongs in section [network]");
  expect_load_error("[bogus]\nmesh = 8x8\n", "unknown section [bogus]");
  expect_load_error("load = 10\nload = 20\n", "given twice");
  expect_load_error("[run]\nseeds = many\n", "seeds: 'many' is not a whole number");
  expect_load_error("this line has no equals sign\n", "line 1");
  mp1_sim_cfg_default(&c);
  assert_int_equal(mp1_sim_cfg_load(&c, "/nonexistent/mp1.ini", err, sizeof err), -1);
  assert_non_null(strstr(err, "cannot open"));
  /* a good file sets what it says and nothing else */
  char path[] = "/tmp/mp1_sim_cfg_XXXXXX";
  const int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  assert_int_equal(write_file(path, "; seed 004 Fig. 9\n[network]\nmesh = 8x4\nrouting = "
                                    "restrictive\n[traffic]\nload = 42.5\nlength = 32 ; bytes\n"),
                   0);
  mp1_sim_cfg_default(&c);
  assert_int_equal(mp1_sim_cfg_load(&c, path, err, sizeof err), 0);
  unlink(path);
  assert_int_equal(c.kx, 8);
  assert_int_equal(c.ky, 4);
  assert_int_equal(c.route, MP1_ROUTE_RESTRICTIVE);
  assert_true(c.load == 42.5);
  assert_int_equal(c.len, 32);
  assert_int_equal(c.warmup, 8000);
  assert_int_equal(c.seeds, 3);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(lone_messages), cmocka_unit_test(crossings_match_paths),
      cmocka_unit_test(conservation),  cmocka_unit_test(end_to_end),
      cmocka_unit_test(determinism),   cmocka_unit_test(broadcast_domain),
      cmocka_unit_test(torus),         cmocka_unit_test(wide_addresses),
      cmocka_unit_test(waiting_lone),  cmocka_unit_test(waiting_bounds),
      cmocka_unit_test(stat_ci),       cmocka_unit_test(invariant_holds),
      cmocka_unit_test(config_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
