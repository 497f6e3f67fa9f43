// C104 network lockstep (docs/c104.md §15 "Network lockstep"): four switches in a 2 x 2 grid, in
// RTL (tb/c104_net_tb.sv around the switch module under test, the inter-switch links real D/S
// wires between the instances) and in the C model (four c104 states, the same links as C wires:
// one switch's d_o/s_o is its neighbour's d_i/s_i). Every cycle: the stimulus is computed once and
// applied to both sides, every switch is evaluated, then every switch is clocked (§13); every
// output and every architectural register of every switch, the bit-level link registers
// included, is compared; the first divergence names the switch (scope sw0..sw3), the cycle, the
// signal with its element index and both values.
//
// Switch s = x + 2y; per switch: ports 0-1 two links to the X neighbour (s ^ 1), 2-3 two links to
// the Y neighbour (s ^ 2), 4 a loopback (universal routing, §11.3), 5 a bit-level endpoint (a C
// dslink end with a packet source and sink), 8 and 9 token-level endpoints, every other port a
// token-level endpoint the random runs use (a source; a sink in the hunt group of 5, 9, 20 or 26)
// and the directed cases leave idle. Node header of endpoint port e of switch s: 16 s + e; random headers
// kR0 + s name switch s as the intermediate destination. Tables: X then Y on the A links (0, 2)
// for node headers, on the B links (1, 3) for random headers, the loopback for a switch's own
//
// This file: the directed cases, the random runs and the bench's entry; the context object is
// tb/c104_net/net.h (its scoreboard scoreboard.h, its drain drain.h), the grid and its tables
// tb/c104_net/topology.h, the endpoints endpoint.h.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "c104_net/drain.h"
#include "c104_net/net.h"
#include "c104_net/scoreboard.h"
#include "common/bench.h"

namespace {

using namespace c104tb;

// ---- Directed cases ---------------------------------------------------------------------
// Endpoint numbers: 3 s + j, j = 0 port 5 (bit-level), 1 port 8, 2 port 9 (token ports).
constexpr uint32_t EP(uint32_t s, uint32_t p) { return 3 * s + (p == 5 ? 0 : p == 8 ? 1 : 2); }

void load_default(Net &n, std::function<void(uint32_t, c104_setup_t &)> edit = nullptr) {
  c104_setup_t su[kSw];
  for (uint32_t s = 0; s < kSw; s++) {
    su[s] = net_setup(s);
    if (edit) edit(s, su[s]);
  }
  n.load(su);
}
std::vector<Tok> pkt(uint32_t h, std::vector<uint32_t> data, Tok end = EOP) {
  std::vector<Tok> v = {D(h)};
  for (uint32_t b : data) v.push_back(D(b));
  v.push_back(end);
  return v;
}

// Across three switches (sw0 -> sw1 -> sw3) and back, with the latency of §18.1.
void t_route(Net &n) {
  load_default(n);
  const std::vector<Tok> p1 = pkt(hdr_of(EP(3, 8)), {0xA1, 0xA2, 0xA3});
  n.send(EP(0, 8), n.T(10), p1);
  n.run_to(n.T(200));
  n.expect_got(EP(3, 8), {p1});
  n.expect_eq(n.ep_[EP(0, 8)].pops.front(), n.T(10), "header popped at sw0:8");
  // §18.1: token in popped at t, written into sw0's link 0 at t + 1; per bit-level hop the header
  // (h = 1) is written at the next switch's output 15 + w cycles later (10h + 5 + w, w = 0..7 the
  // wait for the transmitter's unit boundary); idle links started together: w = 1 (§18.1).
  const uint64_t lat = n.ep_[EP(3, 8)].got[0].second - n.T(10);
  std::printf("c104net: route sw0:8 -> sw1 -> sw3:8: header out %" PRIu64 " cycles after its pop "
              "(1 + 2 x (10h + 5 + w), h = 1, w = %.1f on average)\n", lat, (double)(lat - 31) / 2);
  n.expect_eq(lat, 1 + 2 * (10 + 5 + 1), "latency sw0:8 -> sw3:8 (two links, w = 1)");
  n.expect_eq(n.R(0).cnt_pkt[8], 1, "sw0 cnt_pkt[8]");
  n.expect_eq(n.R(1).cnt_pkt[0], 1, "sw1 cnt_pkt[0] (X link from sw0)");
  n.expect_eq(n.R(3).cnt_pkt[2], 1, "sw3 cnt_pkt[2] (Y link from sw1)");
  // back from the bit-level endpoint of sw3 via sw2 (X first); and sw1:9 -> sw0:5 (one link)
  const std::vector<Tok> p2 = pkt(hdr_of(EP(0, 8)), {0xB1}, EOM);
  const std::vector<Tok> p3 = pkt(hdr_of(EP(0, 5)), {0xC1, 0xC2});
  n.send(EP(3, 5), n.T(200), p2);
  n.send(EP(1, 9), n.T(200), p3);
  n.run_to(n.T(500));
  n.expect_got(EP(0, 8), {p2});
  n.expect_got(EP(0, 5), {p3});
  n.expect_eq(n.R(2).cnt_pkt[0], 1, "sw2 cnt_pkt[0] (X link from sw3)");
  n.expect_eq(n.R(0).cnt_pkt[2], 1, "sw0 cnt_pkt[2] (Y link from sw2)");
  n.expect_nothing_else({EP(3, 8), EP(0, 8), EP(0, 5)});
  n.drain();
}

// A hunt group between two switches: sw0's ports 0-1 (the two X links to sw1) one group.
void t_hunt(Net &n) {
  load_default(n, [](uint32_t, c104_setup_t &su) { su.grp = ~((1u << 1) | (1u << 3)); });
  std::vector<uint32_t> d1(20, 0x11), d2(20, 0x22);
  const std::vector<Tok> p1 = pkt(hdr_of(EP(1, 8)), d1), p2 = pkt(hdr_of(EP(1, 9)), d2);
  const std::vector<Tok> p3 = pkt(hdr_of(EP(1, 5)), {0x33});
  n.send(EP(0, 8), n.T(10), p1);
  n.send(EP(0, 9), n.T(10), p2);
  n.run_to(n.T(11));
  n.expect_eq(n.R(0).sl_grp[8], 0, "sw0 sl_grp[8] (leader of 0-1)");
  n.expect_eq(n.R(0).sl_grp[9], 0, "sw0 sl_grp[9]");
  n.run_to(n.T(12));
  n.expect_eq(n.R(0).sl_port[8], 0, "sw0 sl_port[8] (first free)");
  n.expect_eq(n.R(0).out_busy & 3u, 1, "sw0 out_busy[1:0] (one grant per cycle)");
  n.run_to(n.T(13));
  n.expect_eq(n.R(0).sl_port[9], 1, "sw0 sl_port[9] (the other link of the group)");
  n.send(EP(0, 5), n.T(13), p3);  // both links busy: waits, then takes the first freed
  n.run_to(n.T(600));
  n.expect_got(EP(1, 8), {p1});
  n.expect_got(EP(1, 9), {p2});
  n.expect_got(EP(1, 5), {p3});
  n.expect_eq(n.R(1).cnt_pkt[0], 2, "sw1 cnt_pkt[0] (link A: p1, then p3)");
  n.expect_eq(n.R(1).cnt_pkt[1], 1, "sw1 cnt_pkt[1] (link B: p2, in parallel)");
  n.expect(n.ep_[EP(1, 9)].got[0].second < n.ep_[EP(1, 8)].got[0].second + 30,
           "p1 and p2 crossed in parallel");
  n.expect_nothing_else({EP(1, 8), EP(1, 9), EP(1, 5)});
  n.drain();
}

// Contention at sw3's output 8: held by its own input 9; then input 5 (sw3's bit-level endpoint),
// input 2 (from sw1) and input 0 (from sw2) arrive in that order. FIFO: arrival order; round-robin
// from the pointer after 9 (10): 0, 2, 5.
void contention(Net &n, uint32_t rr) {
  load_default(n, [rr](uint32_t, c104_setup_t &su) { su.rr = rr; });
  const uint32_t h = hdr_of(EP(3, 8));
  n.send(EP(3, 9), n.T(10), {D(h), D(0x99)});
  n.send(EP(3, 9), n.T(300), {EOP});
  n.send(EP(3, 5), n.T(20), pkt(h, {0x55}));
  n.send(EP(1, 8), n.T(60), pkt(h, {0x11}));
  n.send(EP(2, 9), n.T(120), pkt(h, {0x22}));
  n.run_to(n.T(290));
  const c104_regs_t &r = n.R(3);
  for (uint32_t i : {0u, 2u, 5u}) n.expect_eq(r.sl_st[i], C104_WAIT, "sw3 sl_st[" + std::to_string(i) + "]");
  n.expect_eq(r.age[5], 0, "sw3 age[5]");
  n.expect_eq(r.age[2], 1u << 5, "sw3 age[2]");
  n.expect_eq(r.age[0], (1u << 5) | (1u << 2), "sw3 age[0]");
  n.expect_eq(r.rr[8], 10, "sw3 rr[8] (A4: granted 9)");
  n.run_to(n.T(500));
  const std::vector<Tok> a = pkt(h, {0x99}), b5 = pkt(h, {0x55}), b2 = pkt(h, {0x11}), b0 = pkt(h, {0x22});
  if (rr) n.expect_got(EP(3, 8), {a, b0, b2, b5});
  else n.expect_got(EP(3, 8), {a, b5, b2, b0});
  n.expect_nothing_else({EP(3, 8)});
  n.drain();
}

// Header deletion across two switches: del 1 at sw0:8 (route on the first header, strip it; sw2
// routes on the second); del 2 at sw1's input 0 (sw0 routes on the first header, sw1 strips it and
// routes on the second).
void t_del(Net &n) {
  load_default(n, [](uint32_t s, c104_setup_t &su) {
    if (s == 0) su.port[8].del = 1;
    if (s == 1) su.port[0].del = 2;
  });
  const uint32_t to39 = hdr_of(EP(3, 9));
  n.send(EP(0, 8), n.T(10), {D(hdr_of(EP(2, 8))), D(to39), D(0xE1), D(0xE2), EOP});
  n.run_to(n.T(11));
  n.expect_eq(n.R(0).sl_ecnt[8], 0, "sw0 sl_ecnt[8] (del 1: nothing to emit)");
  n.run_to(n.T(200));
  n.expect_got(EP(3, 9), {pkt(to39, {0xE1, 0xE2})});
  n.expect_eq(n.R(2).cnt_pkt[2], 1, "sw2 cnt_pkt[2] (routed on the second header)");
  n.send(EP(0, 9), n.T(200), {D(hdr_of(EP(1, 8))), D(to39), D(0xF1), EOM});
  n.run_to(n.T(400));
  n.expect_got(EP(3, 9), {pkt(to39, {0xF1}, EOM)}, 1);
  n.expect_eq(n.R(1).cnt_pkt[0], 1, "sw1 cnt_pkt[0] (del 2)");
  n.expect_eq(n.R(3).cnt_pkt[2], 1, "sw3 cnt_pkt[2]");
  n.expect_eq(n.R(1).cnt_bad[0], 0, "sw1 cnt_bad[0]");
  n.expect_nothing_else({EP(3, 9)});
  n.drain();
}

// Universal routing (§11.3): a random header picks the intermediate switch, whose loopback input
// strips it; the packet then goes on to its destination.
void t_universal(Net &n) {
  load_default(n, [](uint32_t s, c104_setup_t &su) {
    if (s == 0) su.port[8].rnd = 1, su.port[8].rlo = su.port[8].rhi = kR0 + 3;  // always via sw3
    if (s == 2) su.port[9].rnd = 1, su.port[9].rlo = kR0, su.port[9].rhi = kR0 + 3, su.port[9].seed = 0x1234;
  });
  const std::vector<Tok> p1 = pkt(hdr_of(EP(1, 8)), {0xD1, 0xD2});
  n.send(EP(0, 8), n.T(10), p1);
  n.run_to(n.T(11));
  n.expect_eq(n.R(0).sl_hdr[8], kR0 + 3, "sw0 sl_hdr[8] (the drawn header)");
  n.run_to(n.T(400));
  n.expect_got(EP(1, 8), {p1});
  n.expect_eq(n.R(1).cnt_pkt[1], 1, "sw1 cnt_pkt[1] (phase 1 on the X link B)");
  n.expect_eq(n.R(3).cnt_pkt[3], 1, "sw3 cnt_pkt[3] (phase 1 on the Y link B)");
  n.expect_eq(n.R(3).cnt_pkt[4], 1, "sw3 cnt_pkt[4] (the loopback: random header stripped)");
  n.expect_eq(n.R(1).cnt_pkt[2], 1, "sw1 cnt_pkt[2] (phase 2 on the Y link A)");
  // 12 packets from sw2:9 over the whole range: the intermediates predicted from the seed
  uint32_t lfsr = 0x1234, loops[kSw] = {};
  std::vector<std::vector<Tok>> want[kEpA];
  for (uint32_t k = 0; k < 12; k++) {
    const uint32_t r = ref_rand(lfsr, kR0, kR0 + 3);
    lfsr = ref_lfsr_next(lfsr);
    loops[r - kR0]++;
    const uint32_t d = (k * 5 + 1) % kEpA;
    want[d].push_back(pkt(hdr_of(d), {k, 0x40 + k}));
    n.send(EP(2, 9), n.T(400), want[d].back());
  }
  uint32_t used = 0;
  for (uint32_t s = 0; s < kSw; s++) used += loops[s] != 0;
  n.expect(used >= 3, "the draws pick at least three intermediate switches");
  n.run_to(n.T(1500));
  for (uint32_t d = 0; d < kEpA; d++) n.expect_got(d, want[d], d == EP(1, 8) ? 1 : 0);
  for (uint32_t s = 0; s < kSw; s++)
    n.expect_eq(n.R(s).cnt_pkt[kLoop], loops[s] + (s == 3), "sw" + std::to_string(s) + " cnt_pkt[4] (loopback passes)");
  n.expect_eq(n.R(2).lfsr[9], lfsr, "sw2 lfsr[9]");
  n.drain();
}

// Bad headers in a network: a miss in a downstream table, a discard at the first switch, a packet
// ending inside its (second) header, a lone end token left by deletion, a second-level header that
// misses; then good packets along the same paths.
void t_bad(Net &n) {
  load_default(n, [](uint32_t s, c104_setup_t &su) {
    if (s == 0) su.port[9].del = 1;
    if (s == 3) su.port[0].del = 2;
    if (s == 1) su.port[8].hdr2 = 1;
  });
  n.send(EP(0, 8), n.T(10), pkt(16 * 1 + 7, {0xE1}));       // sw1 has no port-7 endpoint
  n.send(EP(2, 8), n.T(10), pkt(0x70, {0xE2}));             // a discard entry at sw2
  n.send(EP(2, 9), n.T(10), {D(hdr_of(EP(3, 8))), EOP});    // ends inside the header sw3 routes on
  n.send(EP(0, 9), n.T(10), {D(hdr_of(EP(2, 8))), EOP});    // del 1: a lone EOP reaches sw2
  n.send(EP(0, 9), n.T(100), {D(hdr_of(EP(2, 8))), D(16 * 2 + 7), D(0xE3), EOP});  // misses at sw2
  n.send(EP(1, 8), n.T(10), {D(0x00), EOP});                // a 2-byte header cut short
  n.run_to(n.T(400));
  n.expect_eq(n.R(1).cnt_bad[0], 1, "sw1 cnt_bad[0] (miss downstream)");
  n.expect_eq(n.R(0).cnt_pkt[8], 1, "sw0 cnt_pkt[8] (routed by sw0 first)");
  n.expect_eq(n.R(2).cnt_bad[8], 1, "sw2 cnt_bad[8] (discard entry)");
  n.expect_eq(n.R(3).cnt_short[0], 1, "sw3 cnt_short[0] (ends inside its second header)");
  n.expect_eq(n.R(2).cnt_stray[2], 1, "sw2 cnt_stray[2] (lone EOP after deletion)");
  n.expect_eq(n.R(2).cnt_bad[2], 1, "sw2 cnt_bad[2] (second-level header misses)");
  n.expect_eq(n.R(1).cnt_short[8], 1, "sw1 cnt_short[8] (2-byte header cut short)");
  for (uint32_t s = 0; s < kSw; s++)
    for (uint32_t p = 0; p < kN; p++) n.expect_eq(n.R(s).cnt_cut[p], 0, "cnt_cut");
  n.expect_nothing_else({});
  // the paths still work
  const std::vector<Tok> g1 = pkt(hdr_of(EP(1, 9)), {0xF1});
  n.send(EP(0, 8), n.T(400), g1);
  n.send(EP(2, 9), n.T(400), {D(hdr_of(EP(3, 8))), D(hdr_of(EP(3, 8))), D(0xF2), EOP});
  n.send(EP(0, 9), n.T(400), {D(hdr_of(EP(2, 8))), D(hdr_of(EP(2, 9))), D(0xF3), EOP});
  n.send(EP(1, 8), n.T(400), {D(0x00), D(hdr_of(EP(1, 5))), D(0xF4), EOM});
  n.run_to(n.T(800));
  n.expect_got(EP(1, 9), {g1});
  n.expect_got(EP(3, 8), {pkt(hdr_of(EP(3, 8)), {0xF2})});
  n.expect_got(EP(2, 9), {pkt(hdr_of(EP(2, 9)), {0xF3})});
  n.expect_got(EP(1, 5), {{D(0x00), D(hdr_of(EP(1, 5))), D(0xF4), EOM}});
  n.drain();
}

// Every configuration register of every switch through both values of each bit, before any packet:
// a random setup, then its complement (each field modulo its width), compared register by register.
// A fault that couples two configuration bits (one flips the other) shows here whatever the real
// tables hold, where a random run's table alone leaves most high bits of its entries at 0.
void scramble_cfg(Net &n) {
  auto r = [&n] { return (uint32_t)madpost_rng_next(&n.rng_); };
  c104_setup_t x[kSw];
  for (c104_setup_t &c : x) {
    for (auto &p : c.port) p = {r(), r(), r(), r(), r(), r()};
    for (auto &v : c.ival) v = {r(), r(), r()};
    c.nint = r(), c.grp = r(), c.rr = r();
  }
  n.load(x);
  for (c104_setup_t &c : x) {
    for (auto &p : c.port) p = {~p.hdr2, ~p.del, ~p.rnd, ~p.rlo, ~p.rhi, ~p.seed};
    for (auto &v : c.ival) v = {~v.hi, ~v.port, ~v.valid};
    c.nint = ~c.nint, c.grp = ~c.grp, c.rr = ~c.rr;
  }
  n.load(x);
}

// The random runs' setup by mode (t_random), loaded, and every endpoint's source and readiness.
void random_start(Net &n, uint32_t mode, c104_setup_t *su) {
  madpost_rng_t *g = &n.rng_;
  scramble_cfg(n);
  n.hb_ = madpost_rng_below(g, 0x7C);
  for (uint32_t s = 0; s < kSw; s++) {
    su[s] = net_setup(s, n.hb_, true);
    su[s].rr = madpost_rng_below(g, 2);
    if (mode == 0) su[s].grp = ~((1u << 1) | (1u << 3));
    // Three switches in four: ports 6, 7 in the hunt group of 5, and either 10-19 in that of 9,
    // 21-25 in that of 20, 27-31 in that of 26, or 10 in that of 9, 12-19 in that of 11, 21-27 in
    // that of 20, 29-31 in that of 28 (local headers 16 s + 12..15 name 20, 11, 26, 28 in random
    // runs), so every token port is a sink as well as a source, and groups start at even and odd
    // ports, in a group's middle or at its head.
    if (madpost_rng_chance(g, 3, 4))
      su[s].grp = (su[s].grp & ~(0xFFFFFC00u | 3u << 6)) | 1u << 20 |
                  (madpost_rng_chance(g, 1, 2) ? 1u << 26 : 1u << 11 | 1u << 28);
    // One other token port in four takes 2-byte headers (and no universal routing): its packets
    // stay in the switch, some with a header above 255 (the table's last entry: port 9's group).
    for (uint32_t p = 10; p < kN; p++) su[s].port[p].hdr2 = madpost_rng_chance(g, 1, 4);
    for (uint32_t p = 5; p < kN; p++) {
      if (su[s].port[p].hdr2) continue;
      if (mode == 0 || (mode == 2 && madpost_rng_chance(g, 1, 2))) continue;
      su[s].port[p].rnd = 1;
      const uint32_t a = madpost_rng_below(g, kSw), b = madpost_rng_below(g, kSw);
      su[s].port[p].rlo = n.hb_ + kR0 + (madpost_rng_chance(g, 3, 4) ? 0 : std::min(a, b));
      su[s].port[p].rhi = n.hb_ + kR0 + (madpost_rng_chance(g, 3, 4) ? kSw - 1 : std::max(a, b));
      su[s].port[p].seed = madpost_rng_below(g, 0x10000);
    }
    // Any values where the switch does not look (§9.1, §11.2): the entries past cfg_nint, the
    // range and seed of an input without universal routing; the registers hold them all the same.
    for (uint32_t k = su[s].nint; k < 32; k++)
      su[s].ival[k] = {madpost_rng_below(g, 0x10000), madpost_rng_below(g, 32),
                       madpost_rng_below(g, 2)};
    for (uint32_t p = 0; p < kN; p++)
      if (!su[s].port[p].rnd)
        su[s].port[p].rlo = madpost_rng_below(g, 0x10000),
        su[s].port[p].rhi = madpost_rng_below(g, 0x10000),
        su[s].port[p].seed = madpost_rng_below(g, 0x10000);
  }
  n.load(su);
  n.random_ = true;
  if (!n.walking()) n.start_walk();
  for (uint32_t e = 0; e < kEpN; e++) {
    Ep &x = n.ep_[e];
    x.gen.on = true;
    x.gen.rate = e >= kEpA ? 20 + madpost_rng_below(g, 300)
                           : 1 + madpost_rng_below(g, madpost_rng_chance(g, 1, 4) ? 150 : 40);
    x.gen.maxlen = madpost_rng_chance(g, 1, 4) ? madpost_rng_below(g, 4) : 40;
    x.gen.long_pm = madpost_rng_below(g, 30);
    x.gen.bad_pm = madpost_rng_below(g, 60);
    x.gen.stray_pm = madpost_rng_below(g, 20);
    x.gen.gap_pct = madpost_rng_below(g, 50);
    const uint32_t pcts[4] = {100, 90, 60, 30};
    x.rdy.pct = pcts[madpost_rng_below(g, 4)];
    x.rdy.stall_pm = madpost_rng_below(g, 40);
  }
}

// After a random run: drained, every packet delivered, the counters the scoreboard's.
void random_end_checks(Net &n) {
  n.drain();
  if (!n.exp_.empty()) {
    const auto &f = *n.exp_.begin();
    n.fatal("scoreboard: " + std::to_string(n.exp_.size()) + " packets never delivered, the first from " +
            Net::epname(f.first >> 16) + " to " + Net::epname((uint32_t)f.second.dst) + ": " + tstr(f.second.toks));
  }
  uint64_t bad = 0, stray = 0;
  for (uint32_t s = 0; s < kSw; s++) {
    uint64_t pk = 0;
    for (uint32_t p = 0; p < kN; p++) {
      pk += n.events(s, 0, p), bad += n.events(s, 1, p), stray += n.events(s, 4, p);
      n.expect_eq(n.events(s, 2, p) + n.events(s, 3, p), 0, "sw" + std::to_string(s) + " cnt_short + cnt_cut");
    }
    n.expect_eq(pk, n.grants_[s] & 0xFFFF, "sw" + std::to_string(s) + " grants (sum of cnt_pkt)");
    n.expect_eq(n.events(s, 0, kLoop), n.loops_[s] & 0xFFFF, "sw" + std::to_string(s) + " loopback passes");
  }
  n.expect_eq(bad, n.bad_, "bad headers (sum of cnt_bad)");
  n.expect_eq(stray, n.stray_, "stray end tokens (sum of cnt_stray)");
  n.expect(n.delivered_ > 100, "traffic was delivered");
}

// Random traffic from every endpoint to every endpoint (and bad headers, stray end tokens),
// universal routing on or off, FIFO or round-robin per switch; drained at the end, nothing left.
// Mode by seed % 3: 0 no universal routing, the link pairs hunt groups; 1 universal routing on
// every endpoint; 2 universal routing on some endpoints, no hunt groups.
void t_random(Net &n) {
  const uint32_t mode = (uint32_t)(n.o_.seed % 3);
  c104_setup_t su[kSw];
  random_start(n, mode, su);
  const uint64_t t_end = n.cyc_ + n.o_.cycles;
  uint64_t moved = n.moved_, last = n.cyc_;
  while (n.cyc_ < t_end) {
    n.cycle();
    if (n.moved_ != moved) moved = n.moved_, last = n.cyc_;
    if (n.cyc_ - last > 10000) n.fatal("traffic stopped: nothing moved for 10000 cycles" + n.pending());
  }
  random_end_checks(n);
  // the token ports' groups per switch: '-' each its own, 'a' led by 9, 20, 26, 'b' by 9, 11, 20, 28
  char lay[kSw + 1] = {};
  for (uint32_t s = 0; s < kSw; s++) lay[s] = (su[s].grp >> 10) & 1u ? '-' : (su[s].grp >> 11) & 1u ? 'b' : 'a';
  std::printf("c104net: mode %u (%s), rr %u%u%u%u, groups %s: %" PRIu64 " packets, %" PRIu64 " delivered (%" PRIu64
              " at hunt-group members), %" PRIu64 " bad, %" PRIu64 " stray; loopback passes %" PRIu64 " %" PRIu64
              " %" PRIu64 " %" PRIu64 "; %" PRIu64 " counter carries walked\n",
              mode, mode == 0 ? "hunt groups" : mode == 1 ? "universal" : "universal on some inputs",
              su[0].rr, su[1].rr, su[2].rr, su[3].rr, lay, n.made_, n.delivered_, n.delivered_x_, n.bad_, n.stray_,
              n.loops_[0], n.loops_[1], n.loops_[2], n.loops_[3], n.carries());
}

// The whole network reset three times under random traffic (mode 1, universal routing), with
// packets in flight on every link, as a pulse and held over one and two rising edges; every
// register is compared right after. Each time the configuration is written again, the links come
// up, and the run goes on; the last stretch is checked as a random run is: every packet delivered,
// the counters the scoreboard's.
void t_reset(Net &n) {
  c104_setup_t su[kSw];
  random_start(n, 1, su);
  madpost_rng_t *g = &n.rng_;
  for (uint32_t k = 0; k < 3; k++) {
    n.run(1500 + madpost_rng_below(g, 2500));
    for (Ep &x : n.ep_) x.gen.on = false;  // sources resume once the network is configured again
    n.reset_all(k);
    n.load(su);
    for (uint64_t w = 0; !n.links_up(); w++) {
      if (w == 3000) n.fatal("links not in Run 3000 cycles after reset " + std::to_string(k + 1));
      n.cycle();
    }
    for (Ep &x : n.ep_) x.gen.on = true;
  }
  const uint64_t d0 = n.delivered_;
  n.run(8000);
  random_end_checks(n);
  n.expect(n.delivered_ > d0 + 50, "traffic delivered after the last reset");
  std::printf("c104net: %" PRIu64 " resets mid-run; after the last %" PRIu64 " delivered\n",
              n.resets(), n.delivered_ - d0);
}

using TestDef = bench::TestDef<Net>;
const std::vector<TestDef> &tests() {
  static const std::vector<TestDef> t = {
      {"route", t_route, "sw0 -> sw1 -> sw3 with the latency of §18.1, and back over other paths"},
      {"hunt", t_hunt, "two parallel links sw0 -> sw1 as one hunt group"},
      {"fifo", [](Net &n) { contention(n, 0); }, "one output, inputs from two switches and a local one: FIFO"},
      {"rr", [](Net &n) { contention(n, 1); }, "the same with round-robin"},
      {"del", t_del, "header deletion across two switches, del 1 and del 2"},
      {"universal", t_universal, "universal routing through an intermediate switch's loopback"},
      {"bad", t_bad, "misses downstream, discards, packets ending inside a header"},
      {"random", t_random, "random traffic from every endpoint (--cycles), drained"},
      {"reset", t_reset, "the network reset mid-run three times (pulse, held), then random traffic"},
  };
  return t;
}

}  // namespace

int main(int argc, char **argv) {
  const char *about = "Runs four C104 switches (RTL, TokPorts 0x%08x) in a 2 x 2 grid against the C model\n"
                      "in lockstep; --cycles applies to random.\n";
  return bench::main(argc, argv, {"c104_net_lockstep", 30000, false, 10, about, kTok}, tests());
}
