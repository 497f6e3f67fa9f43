// C104 lockstep testbench (docs/c104.md §15): the switch in RTL (Verilated) and in the C model,
// identical inputs every cycle, every output and every architectural register compared every
// cycle (§8, and the dslink registers of the bit-level ports). Per-port packed vectors are
// unpacked element by element, so a mismatch names sl_st_q[7], tok_tx_data_o[12], l_tx_sr_q[2].
//
// Peers: a token port's is a token source/sink (what a link end with its buffers would offer and
// accept: random packets, gaps, back-pressure), or a loop (what leaves the port re-enters it); a
// bit-level port's is a C dslink end (docs/dslink.md) with a packet source and sink on its user
// side, fed with the C model's d_o/s_o (the RTL's are equal or the compare has already failed),
// or a loop (its own d_o/s_o back into d_i/s_i). Configuration goes through the cfg port of both
// sides (c104_setup_writes). A packet-level reference of §9-§12, fed with the tokens the switch
// pops at its port interfaces, checks what leaves every output (the scoreboard of §15), and the
// counters at the end.
//
// This file: the directed cases and the bench's entry. The context object is tb/c104/tb.h, its
// parts harness.h (one cycle in lockstep), stimulus.h (configuration, peers, sources),
// scoreboard.h, drain.h; setups.h and random.h the random setups and runs.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "c104/drain.h"
#include "c104/harness.h"
#include "c104/random.h"
#include "c104/scoreboard.h"
#include "c104/setups.h"
#include "c104/stimulus.h"
#include "c104/tb.h"
#include "common/bench.h"

namespace {

// ---- Directed cases (§15) ------------------------------------------------------------------
// The default build (TokPorts 0xFFFFFFF0): ports 0-2 bit-level with dslink peers, port 3 a
// bit-level loop where a case needs one, ports 4-31 token ports. Cycles in expectations count
// from t0 (the first cycle after the configuration); most come from tests/test_c104.c with its
// ports renumbered.
constexpr uint32_t kBit012 = 0x7u, kBit0123 = 0xFu;

void t_cfg(Tb &tb) {
  tb.peers_on_bit_ports();
  madpost_rng_t *g = &tb.rng_;
  for (int run = 0; run < 2; run++) {
    c104_setup_t s;
    Plan pl;
    random_setup(g, &s, &pl, true);
    for (uint32_t p = 0; p < kN; p++)
      s.port[p].del = madpost_rng_below(g, 4), s.port[p].rnd = madpost_rng_below(g, 2);
    s.nint = madpost_rng_below(g, 64);
    tb.load(s);
    const c104_regs_t &r = tb.R();
    for (uint32_t p = 0; p < kN; p++) {
      const std::string k = "[" + std::to_string(p) + "]";
      tb.expect_eq(r.cfg_port[p], s.port[p].hdr2 | s.port[p].del << 1 | s.port[p].rnd << 3, "cfg_port" + k);
      tb.expect_eq(r.cfg_rlo[p], s.port[p].rlo, "cfg_rlo" + k);
      tb.expect_eq(r.cfg_rhi[p], s.port[p].rhi, "cfg_rhi" + k);
      tb.expect_eq(r.lfsr[p], s.port[p].seed ? s.port[p].seed : 0xACE1u, "lfsr" + k);
      tb.expect_eq(r.cfg_ihi[p], s.ival[p].hi, "cfg_ihi" + k);
      tb.expect_eq(r.cfg_iport[p], s.ival[p].port, "cfg_iport" + k);
      tb.expect_eq(r.cfg_ival[p], s.ival[p].valid, "cfg_ival" + k);
    }
    tb.expect_eq(r.cfg_nint, s.nint, "cfg_nint (as written)");
    tb.expect_eq(r.cfg_rr, s.rr, "cfg_rr");
    tb.expect_eq(r.cfg_grp, s.grp, "cfg_grp (as written)");
    // unused addresses are ignored
    const c104_regs_t before = tb.R();
    for (uint32_t a = 0x82; a < 0x100; a++)
      tb.write(a, (uint32_t)madpost_rng_next(g), tb.cyc_ + (a - 0x82));
    tb.run(0x100 - 0x82 + 2);
    bool same = true;
#define X(n, c, w) \
  for (uint32_t k = 0; k < (c); k++) same &= C104_AT(before.n, c, k) == C104_AT(tb.R().n, c, k);
    C104_REGS(X)
#undef X
    tb.expect(same, "writes to 0x82-0xFF change nothing");
  }
  // bit 0 of cfg_grp is stored as written; a seed of 0 is written as 0xACE1; nint as written
  tb.write(C104_A_GRP, 0x12345678u, tb.cyc_);
  tb.write(C104_A_SEED + 9, 0xABCD0000u, tb.cyc_ + 1);
  tb.write(C104_A_CTRL, 0x1FFu, tb.cyc_ + 2);
  tb.run(4);
  tb.expect_eq(tb.R().cfg_grp, 0x12345678u, "cfg_grp");
  tb.expect_eq(tb.R().lfsr[9], 0xACE1u, "lfsr[9] after a seed of 0");
  tb.expect_eq(tb.R().cfg_nint, 63, "cfg_nint");
  tb.expect_eq(tb.R().cfg_rr, 1, "cfg_rr");
  // a write takes effect at its edge: nint written in cycle 3 is used from cycle 4
  c104_setup_t s = plain_setup();
  s.nint = 0;
  tb.load(s);
  tb.send(12, tb.T(3), {D(0x15), EOP});
  tb.send(13, tb.T(4), {D(0x15), EOP});
  tb.write(C104_A_CTRL, 3, tb.T(3));
  tb.run_to(tb.T(20));
  tb.expect_eq(tb.R().cnt_bad[12], 1, "cnt_bad[12]");
  tb.expect_eq(tb.R().cnt_pkt[13], 1, "cnt_pkt[13]");
  tb.expect_log(7, {D(0x15), EOP});
}

void t_route1(Tb &tb) {
  tb.need_ports(0xFFFFFFF0u, kBit012);
  tb.peers_on_bit_ports();
  c104_setup_t s = plain_setup();
  setup_ival(&s, 3, 0x3F, 0, 1);
  tb.load(s);
  tb.send(6, tb.T(10), {D(0x15), D(0xA1), D(0xA2), D(0xA3), EOP, D(0x16), D(0xB1), EOM});
  tb.run_to(tb.T(11));
  const c104_regs_t &r = tb.R();
  tb.expect_eq(r.sl_st[6], C104_WAIT, "sl_st[6]");
  tb.expect_eq(r.sl_hdr[6], 0x15, "sl_hdr[6]");
  tb.expect_eq(r.sl_grp[6], 7, "sl_grp[6]");
  tb.expect_eq(r.sl_ecnt[6], 1, "sl_ecnt[6]");
  tb.expect_eq(r.out_busy, 0, "out_busy");
  tb.run_to(tb.T(12));
  tb.expect_eq(r.sl_st[6], C104_FWD, "sl_st[6]");
  tb.expect_eq(r.sl_port[6], 7, "sl_port[6]");
  tb.expect_eq(r.out_busy, 1u << 7, "out_busy");
  tb.expect_eq(r.out_owner[7], 6, "out_owner[7]");
  tb.expect_eq(r.cnt_pkt[6], 1, "cnt_pkt[6]");
  tb.run_to(tb.T(40));
  tb.expect_log(7, {D(0x15), D(0xA1), D(0xA2), D(0xA3), EOP, D(0x16), D(0xB1), EOM},
                {11, 12, 13, 14, 15, 17, 18, 19});
  tb.expect_pops(6, {10, 12, 13, 14, 15, 16, 18, 19});
  // through the bit-level ports: token port to a link, links to a token port, link to link
  tb.send(8, tb.T(50), {D(0x31), D(1), D(2), D(3), EOP});
  tb.send(0, tb.T(50), {D(0x12), D(0x44), EOM});
  tb.send(1, tb.T(50), {D(0x03), D(0x55), D(0x66), EOP});
  tb.send(2, tb.T(120), {D(0x33), D(0x78), EOM});
  tb.run_to(tb.T(400));
  tb.expect_log(0, {D(0x31), D(1), D(2), D(3), EOP, D(0x33), D(0x78), EOM});
  tb.expect_log(7, {D(0x12), D(0x44), EOM}, {}, 8);
  tb.expect_log(9, {D(0x03), D(0x55), D(0x66), EOP});
  tb.drain();
  tb.end_checks();
}

void t_route2(Tb &tb) {
  tb.need_ports(0xFFFFFFF0u, kBit012);
  tb.peers_on_bit_ports();
  c104_setup_t s;
  c104_setup_default(&s);
  s.port[10].hdr2 = 1;
  setup_ival(&s, 0, 0x1233, 1, 1);
  setup_ival(&s, 1, 0x1234, 9, 1);
  setup_ival(&s, 2, 0xFFFF, 4, 1);
  tb.load(s);
  tb.ready_fn_ = [&tb](uint32_t p) {
    return p == 9 && (tb.cyc_ == tb.T(7) || tb.cyc_ == tb.T(8) || tb.cyc_ == tb.T(10)) ? 0 : -1;
  };
  // §9.1: the first header byte is the most significant: 0x12 0x34 is 0x1234 -> port 9
  tb.send(10, tb.T(5), {D(0x12), D(0x34), D(0xB0), EOP});
  tb.run_to(tb.T(6));
  const c104_regs_t &r = tb.R();
  tb.expect_eq(r.sl_st[10], C104_HDR, "sl_st[10]");
  tb.expect_eq(r.sl_hcnt[10], 1, "sl_hcnt[10]");
  tb.expect_eq(r.sl_hdr[10] >> 8, 0x12, "sl_hdr[10][15:8]");
  tb.run_to(tb.T(7));
  tb.expect_eq(r.sl_st[10], C104_WAIT, "sl_st[10]");
  tb.expect_eq(r.sl_hdr[10], 0x1234, "sl_hdr[10]");
  tb.expect_eq(r.sl_ecnt[10], 2, "sl_ecnt[10]");
  tb.expect_eq(r.sl_hcnt[10], 0, "sl_hcnt[10]");
  tb.run_to(tb.T(9));
  tb.expect_eq(r.sl_st[10], C104_EMIT, "sl_st[10] (output 9 not ready)");
  tb.expect_eq(r.sl_ecnt[10], 2, "sl_ecnt[10]");
  tb.run_to(tb.T(30));
  tb.expect_log(9, {D(0x12), D(0x34), D(0xB0), EOP}, {9, 11, 12, 13});
  tb.expect_pops(10, {5, 6, 12, 13});
  // 0x3412 falls in entry 2 -> port 4; {0x00, 0x05} -> entry 0 -> port 1 (a link)
  tb.send(10, tb.T(30), {D(0x34), D(0x12), EOP, D(0x00), D(0x05), D(0xC0), EOM});
  tb.run_to(tb.T(300));
  tb.expect_log(4, {D(0x34), D(0x12), EOP});
  tb.expect_log(1, {D(0x00), D(0x05), D(0xC0), EOM});
  tb.expect_silent_except((1u << 9) | (1u << 4) | (1u << 1));
  tb.expect_eq(r.cnt_pkt[10], 3, "cnt_pkt[10]");
  tb.drain();
  tb.end_checks();
}

// §9.1: first match wins in an unordered table; entries at or above cfg_nint are not live.
void t_overlap(Tb &tb) {
  tb.need_ports(0xFFFFFFF0u, 0);
  c104_setup_t s;
  c104_setup_default(&s);
  setup_ival(&s, 0, 100, 5, 1);
  setup_ival(&s, 1, 50, 6, 1);  // never reached
  setup_ival(&s, 2, 200, 7, 1);
  setup_ival(&s, 3, 255, 11, 1);
  s.nint = 3;                   // entry 3 not live
  tb.load(s);
  tb.send(8, tb.T(10), {D(40), D(0xA0), EOP, D(150), D(0xA1), EOP, D(201), D(0xA2), EOM, D(100),
                        EOP, D(101), EOM});
  tb.run_to(tb.T(60));
  tb.expect_log(5, {D(40), D(0xA0), EOP, D(100), EOP});
  tb.expect_log(7, {D(150), D(0xA1), EOP, D(101), EOM});
  tb.expect_silent_except((1u << 5) | (1u << 7));
  tb.expect_eq(tb.R().cnt_bad[8], 1, "cnt_bad[8]");
  // nint 2: entry 2 no longer live; 32 and 40 (above 32 acts as 32): entry 3 live again
  tb.write(C104_A_CTRL, 2, tb.T(60));
  tb.send(8, tb.T(62), {D(150), EOP});
  tb.write(C104_A_CTRL, 32, tb.T(70));
  tb.send(8, tb.T(72), {D(250), D(0xA3), EOP});
  tb.write(C104_A_CTRL, 40, tb.T(80));
  tb.send(8, tb.T(82), {D(251), D(0xA4), EOP});
  tb.run_to(tb.T(100));
  tb.expect_eq(tb.R().cnt_bad[8], 2, "cnt_bad[8] with nint 2");
  tb.expect_log(11, {D(250), D(0xA3), EOP, D(251), D(0xA4), EOP});
  tb.drain();
  tb.end_checks();
}

// §12: discard entries and headers above the table: the packet is dropped, DISC never waits.
void t_holes(Tb &tb) {
  tb.need_ports(0xFFFFFFF0u, 0);
  c104_setup_t s;
  c104_setup_default(&s);
  setup_ival(&s, 0, 0x0F, 4, 1);
  setup_ival(&s, 1, 0x1F, 0, 0);
  setup_ival(&s, 2, 0x2F, 5, 1);
  setup_ival(&s, 3, 0x3F, 9, 0);
  tb.load(s);
  bool hold = true;
  tb.ready_fn_ = [&hold](uint32_t) { return hold ? 0 : -1; };
  tb.send(7, tb.T(10), {D(0x15), D(1), D(2), D(3), EOP, D(0x40), D(4), EOM});
  tb.run_to(tb.T(11));
  tb.expect_eq(tb.R().sl_st[7], C104_DISC, "sl_st[7]");
  tb.expect_eq(tb.R().cnt_bad[7], 1, "cnt_bad[7]");
  tb.run_to(tb.T(30));
  tb.expect_pops(7, {10, 11, 12, 13, 14, 15, 16, 17});
  tb.expect_eq(tb.R().cnt_bad[7], 2, "cnt_bad[7]");
  tb.expect_eq(tb.R().sl_st[7], C104_IDLE, "sl_st[7]");
  hold = false;
  tb.send(7, tb.T(30), {D(0x05), D(9), EOP, D(0x35), D(8), EOP, D(0x25), D(7), EOM});
  tb.run_to(tb.T(50));
  tb.expect_log(4, {D(0x05), D(9), EOP}, {31, 32, 33});
  tb.expect_log(5, {D(0x25), D(7), EOM});
  tb.expect_silent_except((1u << 4) | (1u << 5));
  tb.expect_eq(tb.R().cnt_bad[7], 3, "cnt_bad[7]");
  tb.expect_eq(tb.R().cnt_pkt[7], 2, "cnt_pkt[7]");
  tb.drain();
  tb.end_checks();
}

// §10.2-§10.3: output 5 held by input 6 until its end token (offered at t0+30); inputs 9 and 11
// routed at t0+12, input 10 at t0+13.
void contention(Tb &tb, uint32_t rr) {
  tb.need_ports(0xFFFFFFF0u, 0);
  c104_setup_t s;
  c104_setup_default(&s);
  setup_ival(&s, 0, 0xFF, 5, 1);
  s.rr = rr;
  tb.load(s);
  tb.send(6, tb.T(10), {D(0x05), D(0x66)});
  tb.send(6, tb.T(30), {EOP});
  tb.send(9, tb.T(12), {D(0x05), D(0x11), EOP});
  tb.send(11, tb.T(12), {D(0x05), D(0x33), EOP});
  tb.send(10, tb.T(13), {D(0x05), D(0x22), EOP});
}
void t_fifo(Tb &tb) {
  contention(tb, 0);
  tb.run_to(tb.T(14));
  tb.expect_eq(tb.R().age[9], 0, "age[9]");
  tb.expect_eq(tb.R().age[11], 1u << 9, "age[11] (same edge as 9: behind the lower port)");
  tb.expect_eq(tb.R().age[10], (1u << 9) | (1u << 11), "age[10]");
  tb.run_to(tb.T(60));
  tb.expect_log(5, {D(5), D(0x66), EOP, D(5), D(0x11), EOP, D(5), D(0x33), EOP, D(5), D(0x22), EOP},
                {11, 12, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39});
  tb.expect_eq(tb.R().rr[5], 11, "rr[5]");
  tb.drain();
  tb.end_checks();
}
void t_rr(Tb &tb) {
  contention(tb, 1);
  tb.run_to(tb.T(12));
  tb.expect_eq(tb.R().rr[5], 7, "rr[5] (A4: granted 6)");
  tb.run_to(tb.T(60));
  tb.expect_log(5, {D(5), D(0x66), EOP, D(5), D(0x11), EOP, D(5), D(0x22), EOP, D(5), D(0x33), EOP},
                {11, 12, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39});
  tb.expect_eq(tb.R().rr[5], 12, "rr[5]");
  tb.drain();
  tb.end_checks();
}

// §10.1, §10.3: ports 8-11 one group led by 8: one grant a cycle, the older first, first free.
void t_hunt(Tb &tb) {
  tb.need_ports(0xFFFFFFF0u, 0);
  c104_setup_t s;
  c104_setup_default(&s);
  s.grp = ~(7u << 9);
  setup_ival(&s, 0, 0x2F, 10, 1);
  setup_ival(&s, 1, 0x3F, 11, 1);
  tb.load(s);
  tb.send(12, tb.T(10), {D(0x20), D(1), D(1), D(1), D(1), EOP});
  tb.send(13, tb.T(10), {D(0x30), D(2), D(2), D(2), D(2), EOP});
  tb.run_to(tb.T(11));
  const c104_regs_t &r = tb.R();
  tb.expect_eq(r.sl_grp[12], 8, "sl_grp[12]");
  tb.expect_eq(r.sl_grp[13], 8, "sl_grp[13]");
  tb.expect_eq(r.age[13], 1u << 12, "age[13]");
  tb.run_to(tb.T(13));
  tb.expect_eq(r.sl_port[12], 8, "sl_port[12]");
  tb.expect_eq(r.sl_port[13], 9, "sl_port[13]");
  tb.expect_eq(r.rr[8], 14, "rr[8]");
  tb.run_to(tb.T(30));
  tb.expect_log(8, {D(0x20), D(1), D(1), D(1), D(1), EOP}, {11, 12, 13, 14, 15, 16});
  tb.expect_log(9, {D(0x30), D(2), D(2), D(2), D(2), EOP}, {12, 13, 14, 15, 16, 17});
  // 8 and 9 held by long packets: the next get 10, then 11
  tb.send(14, tb.T(30), {D(0x21), D(3)});
  tb.send(14, tb.T(80), {EOP});
  tb.send(15, tb.T(31), {D(0x22), D(4)});
  tb.send(15, tb.T(80), {EOP});
  tb.send(16, tb.T(35), {D(0x23), D(5), EOP});
  tb.send(17, tb.T(36), {D(0x24), D(6), EOP});
  tb.run_to(tb.T(60));
  tb.expect_eq(r.sl_port[14], 8, "sl_port[14]");
  tb.expect_eq(r.sl_port[15], 9, "sl_port[15]");
  tb.expect_log(10, {D(0x23), D(5), EOP}, {36, 37, 38});
  tb.expect_log(11, {D(0x24), D(6), EOP}, {37, 38, 39});
  tb.send(18, tb.T(60), {D(0x25), D(7), EOP});
  tb.run_to(tb.T(100));
  tb.expect_log(10, {D(0x23), D(5), EOP, D(0x25), D(7), EOP}, {36, 37, 38, 61, 62, 63});
  tb.expect_eq(r.out_busy, 0, "out_busy");
  tb.drain();
  tb.end_checks();
}

// §11.1 del = 1: routed on the header, the header not emitted.
void t_del1(Tb &tb) {
  tb.need_ports(0xFFFFFFF0u, 0);
  c104_setup_t s = plain_setup();
  s.port[4].del = 1;
  s.port[5].del = 1;
  s.port[5].hdr2 = 1;
  tb.load(s);
  tb.send(4, tb.T(10), {D(0x15), D(0xC1), D(0xC2), EOP});
  tb.run_to(tb.T(11));
  tb.expect_eq(tb.R().sl_ecnt[4], 0, "sl_ecnt[4]");
  tb.run_to(tb.T(20));
  tb.expect_log(7, {D(0xC1), D(0xC2), EOP}, {11, 12, 13});
  tb.expect_pops(4, {10, 11, 12, 13});
  // nothing after the header: granted and released at the same edge (§10.4)
  tb.send(4, tb.T(20), {D(0x03), EOP});
  tb.run_to(tb.T(21));
  tb.expect_eq(tb.R().sl_st[4], C104_WAIT, "sl_st[4]");
  tb.run_to(tb.T(22));
  tb.expect_eq(tb.R().sl_st[4], C104_IDLE, "sl_st[4]");
  tb.expect_eq(tb.R().out_busy, 0, "out_busy");
  tb.expect_eq(tb.R().out_owner[9], 4, "out_owner[9]");
  tb.expect_eq(tb.R().cnt_pkt[4], 2, "cnt_pkt[4]");
  tb.expect_log(9, {EOP}, {21});
  tb.send(5, tb.T(30), {D(0x00), D(0x16), D(0xD1), EOM});
  tb.run_to(tb.T(40));
  tb.expect_log(7, {D(0xC1), D(0xC2), EOP, D(0xD1), EOM}, {11, 12, 13, 32, 33});
  tb.drain();
  tb.end_checks();
}

// §11.1 del = 2: the first header dropped, the next routed and emitted; del = 3 acts as 0.
void t_del2(Tb &tb) {
  tb.need_ports(0xFFFFFFF0u, 0);
  c104_setup_t s = plain_setup();
  s.port[5].del = 2;
  s.port[6].del = 2;
  s.port[6].hdr2 = 1;
  s.port[8].del = 3;
  tb.load(s);
  tb.send(5, tb.T(10), {D(0x99), D(0x15), D(0xD1), EOP});
  tb.run_to(tb.T(11));
  tb.expect_eq(tb.R().sl_st[5], C104_HDR, "sl_st[5]");
  tb.expect_eq(tb.R().sl_skip[5], 0, "sl_skip[5]");
  tb.run_to(tb.T(20));
  tb.expect_log(7, {D(0x15), D(0xD1), EOP}, {12, 13, 14});
  tb.expect_pops(5, {10, 11, 13, 14});
  tb.expect_eq(tb.R().cnt_bad[5], 0, "cnt_bad[5]");
  tb.send(6, tb.T(20), {D(0xEE), D(0xEE), D(0x00), D(0x03), D(0xE1), EOM});
  tb.run_to(tb.T(21));
  tb.expect_eq(tb.R().sl_st[6], C104_HDR, "sl_st[6]");
  tb.expect_eq(tb.R().sl_skip[6], 1, "sl_skip[6]");
  tb.expect_eq(tb.R().sl_hcnt[6], 1, "sl_hcnt[6]");
  tb.run_to(tb.T(40));
  tb.expect_log(9, {D(0x00), D(0x03), D(0xE1), EOM}, {24, 25, 26, 27});
  tb.send(8, tb.T(40), {D(0x15), D(0xF1), EOP});
  tb.run_to(tb.T(50));
  tb.expect_log(7, {D(0x15), D(0xD1), EOP, D(0x15), D(0xF1), EOP}, {12, 13, 14, 41, 42, 43});
  tb.drain();
  tb.end_checks();
}

// §11.2: the LFSR sequence and the range map against a reference; a discard draw; rhi < rlo; a
// seed write at the edge of a draw.
void t_rnd(Tb &tb) {
  tb.need_ports(0xFFFFFFF0u, 0);
  c104_setup_t s;
  c104_setup_default(&s);
  s.port[4].rnd = 1;
  s.port[4].del = 1;  // ignored with rnd
  s.port[4].rlo = 100;
  s.port[4].rhi = 119;
  setup_ival(&s, 0, 99, 13, 1);
  setup_ival(&s, 1, 119, 14, 1);
  setup_ival(&s, 2, 255, 15, 1);
  tb.load(s);
  for (uint32_t k = 0; k < 3; k++) tb.send(4, tb.T(10), {D(0x07), D(0xE0 + k), EOP});
  tb.run_to(tb.T(11));
  tb.expect_eq(tb.R().sl_st[4], C104_WAIT, "sl_st[4]");
  tb.expect_eq(tb.R().sl_hdr[4], 113, "sl_hdr[4] (draw from 0xACE1)");
  tb.expect_eq(tb.R().lfsr[4], 0xE270, "lfsr[4]");
  tb.expect(tb.pops_[4].empty(), "no pop at the draw");
  tb.run_to(tb.T(40));
  tb.expect_log(14, {D(113), D(7), D(0xE0), EOP, D(117), D(7), D(0xE1), EOP, D(108), D(7), D(0xE2), EOP},
                {11, 12, 13, 14, 16, 17, 18, 19, 21, 22, 23, 24});
  tb.expect_eq(tb.R().lfsr[4], 0x389C, "lfsr[4]");
  // two-byte random headers, many draws: most significant byte first, within the range
  c104_setup_default(&s);
  s.port[6].rnd = 1;
  s.port[6].hdr2 = 1;
  s.port[6].rlo = 0x1200;
  s.port[6].rhi = 0x12FE;
  s.port[6].seed = 0x5EED;
  setup_ival(&s, 0, 0x11FF, 16, 1);
  setup_ival(&s, 1, 0x12FF, 12, 1);
  tb.load(s);
  const uint32_t N = 200;
  for (uint32_t k = 0; k < N; k++) tb.send(6, tb.T(0), {D(k & 0xFF), EOM});
  tb.run_to(tb.T(6 * N + 50));
  const std::vector<Tok> got = tb.log_toks(12);
  tb.expect_eq(got.size(), 4 * N, "tokens at output 12");
  uint32_t x = 0x5EED;
  for (uint32_t k = 0; k < N; k++) {
    const uint32_t r = 0x1200 + (uint32_t)(((uint64_t)x * (0x12FE - 0x1200 + 1)) >> 16);
    x = ref_lfsr_next(x);
    const uint32_t h = tdata(got[4 * k]) << 8 | tdata(got[4 * k + 1]);
    tb.expect_eq(h, r, "random header " + std::to_string(k));
  }
  tb.expect_eq(tb.R().lfsr[6], x, "lfsr[6]");
  // a draw into a discard entry drops the whole packet; rhi < rlo always draws rlo
  c104_setup_default(&s);
  s.port[7].rnd = 1;
  s.port[7].rlo = 50;
  s.port[7].rhi = 40;
  setup_ival(&s, 0, 49, 13, 1);
  setup_ival(&s, 1, 59, 0, 0);
  setup_ival(&s, 2, 0xFFFF, 15, 1);
  // a 1-byte random header is the draw's low byte: 0x0134 is looked up as 0x34 (a discard)
  s.port[8].rnd = 1;
  s.port[8].rlo = s.port[8].rhi = 0x0134;
  tb.load(s);
  tb.send(7, tb.T(10), {D(0x01), D(0x02), EOP, D(0x03), EOM});
  tb.send(8, tb.T(10), {D(0x05), EOP});
  tb.run_to(tb.T(30));
  tb.expect_eq(tb.R().cnt_bad[7], 2, "cnt_bad[7]");
  tb.expect_eq(tb.R().cnt_bad[8], 1, "cnt_bad[8] (the draw 0x0134 cut to 0x34)");
  tb.expect_eq(tb.R().lfsr[7], 0x7138, "lfsr[7]");
  tb.expect_silent_except((1u << 14) | (1u << 12));
  // a seed write and a draw at the same edge: the write wins, the draw used the old value
  c104_setup_default(&s);
  s.port[4].rnd = 1;
  s.port[4].rlo = 100;
  s.port[4].rhi = 119;
  setup_ival(&s, 0, 0xFFFF, 13, 1);
  tb.load(s);
  tb.send(4, tb.T(5), {D(0x01), EOP});
  tb.write(C104_A_SEED + 4, 0x1234, tb.T(5));
  tb.write(C104_A_SEED + 4, 0xFFFF0000u, tb.T(6));
  tb.run_to(tb.T(6));
  tb.expect_eq(tb.R().lfsr[4], 0x1234, "lfsr[4] (the write wins)");
  tb.expect_eq(tb.R().sl_hdr[4], 113, "sl_hdr[4] (the draw used 0xACE1)");
  tb.run_to(tb.T(7));
  tb.expect_eq(tb.R().lfsr[4], 0xACE1, "lfsr[4] after a seed of 0");
  tb.run_to(tb.T(20));
  tb.expect_log(13, {D(113), D(0x01), EOP});
  tb.drain();
  tb.end_checks();
}

// §11.3: universal routing through a looped bit-level port (3) and a looped token port (20).
void t_loopback(Tb &tb) {
  tb.need_ports(0xFFFFFFF0u, kBit0123);
  tb.peers_on_bit_ports();
  tb.set_loop(3);
  tb.set_loop(20);
  c104_setup_t s;
  c104_setup_default(&s);
  s.port[4].rnd = 1;
  s.port[4].rlo = s.port[4].rhi = 0x80;  // the intermediate destination: this switch
  s.port[3].del = 2;
  s.port[21].rnd = 1;
  s.port[21].rlo = s.port[21].rhi = 0x81;
  s.port[20].del = 2;
  setup_ival(&s, 0, 0x0F, 5, 1);
  setup_ival(&s, 1, 0x7F, 0, 0);
  setup_ival(&s, 2, 0x80, 3, 1);
  setup_ival(&s, 3, 0x81, 20, 1);
  tb.load(s);
  tb.send(4, tb.T(5), {D(0x03), D(0xAA), D(0xBB), EOP, D(0x04), D(0xCC), EOM});
  tb.run(400);
  tb.expect_log(5, {D(0x03), D(0xAA), D(0xBB), EOP, D(0x04), D(0xCC), EOM});
  tb.send(21, tb.cyc_, {D(0x05), D(0x11), EOP, D(0x06), EOM});
  tb.run(100);
  tb.expect_log(5, {D(0x05), D(0x11), EOP, D(0x06), EOM}, {}, 7);
  tb.expect_silent_except((1u << 5) | (1u << 3) | (1u << 20));
  const c104_regs_t &r = tb.R();
  tb.expect_eq(r.cnt_pkt[4], 2, "cnt_pkt[4]");
  tb.expect_eq(r.cnt_pkt[3], 2, "cnt_pkt[3]");
  tb.expect_eq(r.cnt_pkt[21], 2, "cnt_pkt[21]");
  tb.expect_eq(r.cnt_pkt[20], 2, "cnt_pkt[20]");
  tb.expect_eq(tb.L(3).cnt_par_err + tb.L(3).cnt_disc_err, 0, "loop link errors");
  tb.drain();
  tb.end_checks();
}

// §12: stray end tokens, packets ending inside their headers.
void t_short(Tb &tb, bool stray) {
  tb.need_ports(0xFFFFFFF0u, kBit012);
  tb.peers_on_bit_ports();
  c104_setup_t s = plain_setup();
  s.port[10].hdr2 = 1;
  s.port[11].del = 2;
  s.port[4].rnd = 1;
  s.port[1].hdr2 = 1;
  tb.load(s);
  if (stray) {
    tb.send(8, tb.T(10), {EOP, ERR, EOM});
    tb.send(4, tb.T(10), {EOM});  // a rnd input too, and no draw
    tb.send(0, tb.T(10), {EOM, EOP});
  } else {
    tb.send(10, tb.T(10), {D(0x12), EOP, D(0x12), ERR});
    tb.send(11, tb.T(10), {D(0x99), EOM});  // inside the skipped header's successor
    tb.send(12, tb.T(10), {D(0x15), D(0x01)});
    tb.send(12, tb.T(14), {EOP});  // not short: a routed packet
    tb.send(1, tb.T(10), {D(0x01), EOM});
  }
  tb.run_to(tb.T(300));
  const c104_regs_t &r = tb.R();
  if (stray) {
    tb.expect_pops(8, {10, 11, 12});
    tb.expect_pops(4, {10});
    tb.expect_eq(r.cnt_stray[8], 3, "cnt_stray[8]");
    tb.expect_eq(r.cnt_stray[4], 1, "cnt_stray[4]");
    tb.expect_eq(r.cnt_stray[0], 2, "cnt_stray[0] (a bit-level input)");
    tb.expect_eq(r.lfsr[4], 0xACE1, "lfsr[4]");
    tb.expect_silent_except(0);
  } else {
    tb.expect_pops(10, {10, 11, 12, 13});
    tb.expect_pops(11, {10, 11});
    tb.expect_eq(r.cnt_short[10], 1, "cnt_short[10]");
    tb.expect_eq(r.cnt_cut[10], 1, "cnt_cut[10] (ERR inside the header: cut, not short)");
    tb.expect_eq(r.cnt_short[11], 1, "cnt_short[11]");
    tb.expect_eq(r.cnt_short[1], 1, "cnt_short[1] (a bit-level input)");
    tb.expect_log(7, {D(0x15), D(0x01), EOP});
    tb.expect_silent_except(1u << 7);
  }
  for (uint32_t i = 0; i < kN; i++) {
    tb.expect_eq(r.sl_st[i], C104_IDLE, "sl_st[" + std::to_string(i) + "]");
    tb.expect_eq(r.sl_hcnt[i], 0, "sl_hcnt");
    tb.expect_eq(r.sl_skip[i], 0, "sl_skip");
  }
  tb.drain();
  tb.end_checks();
}

// §12, S3, S4, S6: ERR inside a header, ERR while waiting (withdrawal), ERR while forwarding (to a
// token port and to a link), ERR from a link.
void t_cut(Tb &tb) {
  tb.need_ports(0xFFFFFFF0u, kBit012);
  tb.peers_on_bit_ports();
  c104_setup_t s;
  c104_setup_default(&s);
  setup_ival(&s, 0, 0x0F, 5, 1);
  setup_ival(&s, 1, 0x1F, 7, 1);
  setup_ival(&s, 2, 0x2F, 0, 1);
  s.port[12].hdr2 = 1;
  tb.load(s);
  // WAIT: 11 withdraws while 5 is busy; 9 withdraws exactly when 5 is free, 10 takes it
  tb.send(6, tb.T(10), {D(0x05), D(0x66)});
  tb.send(6, tb.T(30), {EOP});
  tb.send(9, tb.T(12), {D(0x05)});
  tb.send(9, tb.T(31), {ERR, D(0x05), D(0x12), EOP});
  tb.send(10, tb.T(12), {D(0x05), D(0x22), EOP});
  tb.send(11, tb.T(12), {D(0x05)});
  tb.send(11, tb.T(20), {ERR});
  tb.send(12, tb.T(12), {D(0x00), ERR});  // HDR
  tb.run_to(tb.T(21));
  const c104_regs_t &r = tb.R();
  tb.expect_eq(r.sl_st[11], C104_IDLE, "sl_st[11]");
  tb.expect_eq(r.cnt_cut[11], 1, "cnt_cut[11]");
  tb.expect_eq(r.age[10], 1u << 9, "age[10] (11 dropped out of the order)");
  tb.expect_eq(r.cnt_cut[12], 1, "cnt_cut[12]");
  tb.expect_eq(r.cnt_short[12], 0, "cnt_short[12]");
  tb.run_to(tb.T(60));
  tb.expect_log(5, {D(5), D(0x66), EOP, D(5), D(0x22), EOP, D(5), D(0x12), EOP},
                {11, 12, 30, 31, 32, 33, 34, 35, 36});
  tb.expect_pops(9, {12, 31, 32, 35, 36});
  tb.expect_eq(r.cnt_cut[9], 1, "cnt_cut[9]");
  tb.expect_eq(r.cnt_pkt[9], 1, "cnt_pkt[9]");
  tb.expect_eq(r.cnt_pkt[11], 0, "cnt_pkt[11]");
  // FWD: forwarded like an end token, the output released
  tb.send(13, tb.T(100), {D(0x15), D(0x11), ERR});
  tb.send(14, tb.T(101), {D(0x15), D(0x22), EOP});
  tb.run_to(tb.T(130));
  tb.expect_log(7, {D(0x15), D(0x11), ERR, D(0x15), D(0x22), EOP}, {101, 102, 103, 104, 105, 106});
  tb.expect_eq(r.cnt_cut[13], 1, "cnt_cut[13]");
  tb.expect_eq(r.cnt_pkt[13], 1, "cnt_pkt[13]");
  tb.expect_eq(r.out_busy, 0, "out_busy");
  // to a link: the output link aborts; the token before ERR is never confirmed (§21.7)
  tb.send(16, tb.T(150), {D(0x22), D(0x55), ERR});
  tb.run_to(tb.T(900));
  tb.expect_log(0, {D(0x22), ERR});
  tb.expect_eq(r.cnt_cut[16], 1, "cnt_cut[16]");
  tb.expect_eq(tb.L(0).cnt_tx_spill, 0, "link 0 cnt_tx_spill (an abort, not a spill)");
  tb.expect_eq(tb.L(0).fsm_state, DSLINK_ST_RUN, "link 0 up again");
  // from a link: the peer aborts; the switch's input sees the packet closed with ERR
  tb.send(1, tb.cyc_, {D(0x15), D(0x77), D(0x78), D(0x79), ERR});
  tb.run(800);
  tb.expect_eq(r.cnt_cut[1], 1, "cnt_cut[1]");
  tb.expect_eq(tb.L(1).cnt_rx_cut, 1, "link 1 cnt_rx_cut");
  tb.drain();
  tb.end_checks();
}

// §12: an output link that goes down spills the rest of the packet; the slice carries on to the
// end token; the next packet is routed once the link is up again.
// §10.1-§10.3 at their limits: every output owned at once (32 packets open, each to the next
// port's output), then every slice waiting at once. 31 slices wait for output 8, held by slice 0's
// open packet; cfg_grp then makes 8 a follower of 7, which strands them (§10.1); slice 0 ends its
// packet and sends another to port 8, now in 7's group: for the cycle it waits for its grant all
// 32 are candidates. The group restored, the 31 resume and every packet is delivered.
uint32_t waiting(Tb &tb) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < kN; i++) n += tb.R().sl_st[i] == C104_WAIT;
  return n;
}
// The default setup with header e routed to output e.
c104_setup_t direct_setup() {
  c104_setup_t s;
  c104_setup_default(&s);
  for (uint32_t e = 0; e < kN; e++) setup_ival(&s, e, e, e, 1);
  return s;
}
// Every port's links or token interfaces up, header e routed to output e.
void load_direct(Tb &tb) {
  tb.need_ports(0xFFFFFFF0u, kBit0123);
  tb.peers_on_bit_ports();
  tb.load(direct_setup());
}
// Waits until slice p is in state st (or, with fwd, forwarding: FWD or EMIT).
void await_slice(Tb &tb, uint32_t p, bool fwd, const std::string &what) {
  for (uint64_t k = 0;; k++) {
    const uint32_t st = tb.R().sl_st[p];
    if (fwd ? (st == C104_FWD || st == C104_EMIT) : st == C104_WAIT) return;
    tb.expect(k < 3000, what);
    tb.cycle();
  }
}

void t_crowd(Tb &tb) {
  load_direct(tb);
  // 1. Every output owned.
  for (uint32_t p = 0; p < kN; p++) tb.send(p, tb.cyc_, {D((p + 1) % kN), D(p)});
  for (uint64_t k = 0; tb.R().out_busy != 0xFFFFFFFFu; k++) {
    tb.expect(k < 3000, "all 32 outputs owned at once");
    tb.cycle();
  }
  // One packet ends first: 31 owned.
  tb.send(20, tb.cyc_, {EOP});
  for (uint64_t k = 0; tb.R().out_busy != (0xFFFFFFFFu & ~(1u << 21)); k++) {
    tb.expect(k < 500, "output 21 released, the other 31 still owned");
    tb.cycle();
  }
  for (uint32_t p = 0; p < kN; p++)
    if (p != 20) tb.send(p, tb.cyc_, {EOP});
  tb.drain();
  // 2. 31 wait for output 8, which slice 0 holds.
  tb.send(0, tb.cyc_, {D(8), D(0x40)});
  await_slice(tb, 0, true, "slice 0 owns output 8");
  for (uint32_t p = 1; p < kN; p++) tb.send(p, tb.cyc_, {D(8), D(p)});
  for (uint64_t k = 0; waiting(tb) < kN - 1; k++) {
    tb.expect(k < 3000, "31 slices wait for output 8");
    tb.cycle();
  }
  // 3. Stranded: 8 follows 7. Slice 0 ends its packet and sends one more to port 8.
  tb.write(C104_A_GRP, ~(1u << 8), tb.cyc_);
  tb.run(5);
  tb.send(0, tb.cyc_, {EOP, D(8), D(0x41), EOP});
  uint32_t most = 0;
  for (uint64_t k = 0; k < 400; k++) {
    tb.cycle();
    most = std::max(most, waiting(tb));
  }
  tb.expect_eq(most, kN, "slices waiting at once");
  tb.expect_eq(waiting(tb), kN - 1, "the 31 stranded still wait");
  // 4. The group restored: the 31 resume, one at a time, and end.
  tb.write(C104_A_GRP, 0xFFFFFFFFu, tb.cyc_);
  for (uint32_t p = 1; p < kN; p++) tb.send(p, tb.cyc_, {EOP});
  tb.drain();
  tb.end_checks();
}

// §10.2 FIFO order against port order: 31 slices wait for output 8 (held by slice 0), entering
// WAIT from port 31 down to port 1, so that every waiter has older ones above it (in crowd they
// enter upward, and the port order alone would give the same grants). Output 8 must send the
// packets in the order the slices entered WAIT (lower port first within one edge): a check
// worked out from the text, not from the C model.
void t_fifo_order(Tb &tb) {
  load_direct(tb);
  tb.send(0, tb.cyc_, {D(8), D(0x40)});
  await_slice(tb, 0, true, "slice 0 owns output 8");
  for (uint32_t p = kN - 1; p >= 1; p--) tb.send(p, tb.cyc_ + 30 * (kN - 1 - p), {D(8), D(p)});
  std::vector<uint32_t> order;
  uint32_t seen = 0;
  for (uint64_t k = 0; order.size() < kN - 1; k++) {
    tb.expect(k < 6000, "31 slices wait for output 8");
    tb.cycle();
    for (uint32_t p = 1; p < kN; p++)
      if (!(seen >> p & 1u) && tb.R().sl_st[p] == C104_WAIT) seen |= 1u << p, order.push_back(p);
  }
  tb.expect(order.front() == kN - 1, "port 31 waits first");
  tb.send(0, tb.cyc_, {EOP});
  for (uint32_t p = 1; p < kN; p++) tb.send(p, tb.cyc_, {EOP});
  tb.drain();
  std::vector<Tok> want = {D(8), D(0x40), EOP};
  for (uint32_t p : order) want.insert(want.end(), {D(8), D(p), EOP});
  tb.expect_log(8, want);
  tb.end_checks();
}

// §10.1-§10.3 for every leader in both modes: port g leads the hunt group {g, g + 1} (port 31
// alone) and four slices send to header g at once: two get the group's ports, first free first,
// two wait, and the round-robin pointer moves past each winner. The arbiter is 32 copies of its
// logic, one per leader (and per slice and pair of slices), and random setups reach a few.
void t_leaders(Tb &tb) {
  load_direct(tb);
  for (uint32_t rr = 0; rr < 2; rr++)
    for (uint32_t g = 0; g < kN; g++) {
      c104_setup_t s = direct_setup();
      s.rr = rr;
      if (g + 1 < kN) s.grp &= ~(1u << (g + 1));
      tb.load(s);
      const size_t up = tb.log_toks((g + 1) % kN).size();
      for (uint32_t k = 1; k <= 4; k++) tb.send((g + 7 * k) % kN, tb.cyc_, {D(g), D(k), EOP});
      uint32_t most = 0;
      for (uint64_t k = 0; k < 300; k++) {
        tb.cycle();
        most = std::max(most, waiting(tb));
      }
      tb.drain();
      const std::string at = " (leader " + std::to_string(g) + (rr ? ", round-robin)" : ", FIFO)");
      tb.expect(most >= 1, "a slice waited for the group" + at);
      if (g + 1 < kN) tb.expect(tb.log_toks(g + 1).size() > up, "the group's second port was used" + at);
    }
  tb.end_checks();
}

// §10.2 for every ordered pair of slices: the FIFO winner is the candidate with no older one of
// its group, and the arbiter holds that test once per slice and other slice (32 x 31 copies).
// A chain on one output: the owner forwards, one slice waits, the next enters WAIT behind it, the
// owner ends its packet and the waiter must win over the newcomer. Each step tests one pair
// (older, younger) with no third candidate; the walk below covers all 992, and a newcomer is
// never the current owner.
std::vector<uint32_t> pair_walk() {
  std::vector<uint32_t> w = {0, 1};
  std::vector<std::vector<bool>> used(kN, std::vector<bool>(kN, false));
  size_t left = kN * (kN - 1);
  while (left > 0) {
    const uint32_t a = w.back(), prev = w[w.size() - 2];
    int pick = -1;
    for (uint32_t b = 0; b < kN && pick < 0; b++)
      if (b != a && b != prev && !used[a][b]) pick = (int)b;
    if (pick < 0) {  // a's pairs are done: move on to a slice with pairs left.
      size_t best = 0;
      for (uint32_t b = 0; b < kN; b++) {
        if (b == a || b == prev) continue;
        const size_t n = (size_t)std::count(used[b].begin(), used[b].end(), false) - 1;
        if (pick < 0 || n > best) pick = (int)b, best = n;
      }
    }
    if (!used[a][(uint32_t)pick]) used[a][(uint32_t)pick] = true, left--;
    w.push_back((uint32_t)pick);
  }
  return w;
}
// One chain on output o (see pair_walk); returns the number of two-waiter grants.
size_t pairs_on(Tb &tb, uint32_t o, const std::vector<uint32_t> &w) {
  std::vector<Tok> want;
  const size_t before = tb.log_toks(o).size();  // entries, one per token
  tb.send(w[0], tb.cyc_, {D(o), D(w[0])});
  await_slice(tb, w[0], true, "slice " + std::to_string(w[0]) + " owns output " + std::to_string(o));
  want.insert(want.end(), {D(o), D(w[0])});
  tb.send(w[1], tb.cyc_, {D(o), D(w[1])});
  await_slice(tb, w[1], false, "slice " + std::to_string(w[1]) + " waits");
  for (size_t k = 2; k < w.size(); k++) {
    const std::string at = " (output " + std::to_string(o) + ", step " + std::to_string(k) + ")";
    tb.send(w[k], tb.cyc_, {D(o), D(w[k])});
    await_slice(tb, w[k], false, "slice " + std::to_string(w[k]) + " waits" + at);
    tb.send(w[k - 2], tb.cyc_, {EOP});
    await_slice(tb, w[k - 1], true, "the older waiter " + std::to_string(w[k - 1]) + " wins" + at);
    tb.expect(tb.R().sl_st[w[k]] == C104_WAIT, "the newer waiter " + std::to_string(w[k]) + " still waits" + at);
    want.insert(want.end(), {EOP, D(o), D(w[k - 1])});
  }
  tb.send(w[w.size() - 2], tb.cyc_, {EOP});
  tb.send(w.back(), tb.cyc_, {EOP});
  tb.drain();
  want.insert(want.end(), {EOP, D(o), D(w.back()), EOP});
  tb.expect_log(o, want, {}, before);
  return w.size() - 2;
}
// On outputs 8 and 23: the slices' requested leaders then differ in every bit between the two
// chains (01000, 10111), so a compare of two slices' leaders is exercised with each bit at 0 and 1.
void t_pairs(Tb &tb) {
  load_direct(tb);
  const std::vector<uint32_t> w = pair_walk();
  size_t n = 0;
  for (uint32_t o : {8u, 23u}) n += pairs_on(tb, o, w);
  std::printf("c104: pairs: %zu grants between two waiters, every ordered pair of slices on outputs 8 and 23\n", n);
  tb.end_checks();
}

// §10.1 A2 for every leader g and port o >= g: g leads the hunt group of ports g to 31 (ports
// below g are leader 0's), and slices send to header g one after the other, each packet held
// open: each takes the group's first free port, so port g, then g + 1, ..., 31, and one more
// sender waits. The first-free search is 32 x 32 copies, one per leader and port.
void t_fill(Tb &tb) {
  load_direct(tb);
  for (uint32_t g = 0; g < kN; g++) {
    c104_setup_t s = direct_setup();
    s.grp = 1u | (1u << g);
    s.rr = g & 1u;
    tb.load(s);
    const std::string at = " (leader " + std::to_string(g) + ")";
    for (uint32_t k = 0; k < kN - g; k++) {
      const uint32_t p = (g + k) % kN;  // the sender: any slice, one per port of the group
      tb.send(p, tb.cyc_, {D(g), D(k)});
      await_slice(tb, p, true, "slice " + std::to_string(p) + " granted" + at);
      tb.expect_eq(tb.R().sl_port[p], g + k, "the first free port of the group" + at);
    }
    if (g > 0) {
      tb.send(g - 1, tb.cyc_, {D(g), D(0xEE), EOP});
      await_slice(tb, g - 1, false, "a slice waits for the full group" + at);
    }
    for (uint32_t k = 0; k < kN - g; k++) tb.send((g + k) % kN, tb.cyc_, {EOP});
    tb.drain();
  }
  tb.end_checks();
}

// §10.3 A3-A4 for every leader in round-robin mode at every pointer value: slice h holds output g,
// the 31 other slices wait for it, then each packet ends as soon as it is granted: the pointer
// moves past each winner, so it takes every value while candidates wait on both sides of it. The
// round-robin window (candidates at or above the pointer) is one copy per leader.
void t_rr_sweep(Tb &tb) {
  load_direct(tb);
  c104_setup_t s = direct_setup();
  s.rr = 1;
  tb.load(s);
  for (uint32_t g = 0; g < kN; g++) {
    const uint32_t h = (g + 5) % kN;
    const std::string at = " (leader " + std::to_string(g) + ")";
    tb.send(h, tb.cyc_, {D(g), D(0xAA)});
    await_slice(tb, h, true, "slice " + std::to_string(h) + " owns output " + std::to_string(g));
    for (uint32_t p = 0; p < kN; p++)
      if (p != h) tb.send(p, tb.cyc_, {D(g), D(p), EOP});
    for (uint64_t k = 0; waiting(tb) < kN - 1; k++) {
      tb.expect(k < 3000, "31 slices wait" + at);
      tb.cycle();
    }
    const uint32_t first = tb.R().rr[g];
    tb.send(h, tb.cyc_, {EOP});
    tb.drain();
    // §10.3: granted in the order rr, rr + 1, ..., 31, 0, ... from the pointer h's grant left.
    std::vector<Tok> want = {D(g), D(0xAA), EOP};
    for (uint32_t k = 0; k < kN; k++) {
      const uint32_t p = (first + k) % kN;
      if (p != h) want.insert(want.end(), {D(g), D(p), EOP});
    }
    tb.expect_log(g, want, {}, tb.log_toks(g).size() - want.size());
  }
  tb.end_checks();
}

// Contention in many groups at once (§10.1-§10.3): random hunt groups (each port a leader with
// probability 1/2, or 1/8 in every other pair of rounds), FIFO or round-robin, and every slice
// sending bursts to random outputs at once, so that slices of several groups wait together, enter WAIT on the same edge and are
// granted in the same cycle: the per-leader, per-slice and per-pair copies of the arbiter that
// the directed cases do not reach one by one.
void t_jam(Tb &tb) {
  load_direct(tb);
  madpost_rng_t *g = &tb.rng_;
  uint32_t most = 0;
  for (uint32_t round = 0; round < 64; round++) {
    c104_setup_t s = direct_setup();
    s.rr = round & 1u;
    // Half the rounds about 16 groups, half about 4 (deeper queues).
    s.grp = (uint32_t)(madpost_rng_next(g) >> 32) | 1u;
    if (round & 2u)
      s.grp &= (uint32_t)(madpost_rng_next(g) >> 32) & (uint32_t)(madpost_rng_next(g) >> 32) | 1u;
    tb.load(s);
    for (uint32_t p = 0; p < kN; p++) {
      uint64_t at = tb.cyc_ + madpost_rng_below(g, 3);
      for (uint32_t m = 0; m < 3; m++) {
        std::vector<Tok> pk = {D(madpost_rng_below(g, kN)), D(p)};
        for (uint32_t n = madpost_rng_below(g, 4); n > 0; n--)
          pk.push_back(D(madpost_rng_below(g, 256)));
        pk.push_back(EOP);
        tb.send(p, at, pk);
        at += 1 + madpost_rng_below(g, 8);
      }
    }
    for (uint64_t k = 0; k < 400; k++) {
      tb.cycle();
      most = std::max(most, waiting(tb));
    }
    tb.drain();
  }
  tb.expect(most >= 8, "at least 8 slices waited at once");
  tb.end_checks();
}

void t_linkdown(Tb &tb) {
  tb.need_ports(0xFFFFFFF0u, kBit012);
  tb.peers_on_bit_ports();
  c104_setup_t s;
  c104_setup_default(&s);
  setup_ival(&s, 0, 0x0F, 1, 1);
  tb.load(s);
  std::vector<Tok> pk = {D(0x01)};
  for (uint32_t k = 0; k < 50; k++) pk.push_back(D(k));
  pk.push_back(EOM);
  tb.send(6, tb.cyc_, pk);
  for (uint64_t k = 0; tb.log_[1].size() < 5; k++) {
    tb.expect(k < 2000, "the packet reaches peer 1");
    tb.cycle();
  }
  tb.link_en_[1] = 0;
  tb.run(20);
  tb.link_en_[1] = 1;
  for (uint64_t k = 0; tb.R().sl_st[6] != C104_IDLE || !tb.tp_[6].rxq.empty(); k++) {
    tb.expect(k < 5000, "the slice carries on to the end token");
    tb.cycle();
  }
  tb.expect_eq(tb.R().out_busy, 0, "out_busy");
  tb.expect_eq(tb.R().cnt_pkt[6], 1, "cnt_pkt[6]");
  tb.expect_eq(tb.L(1).cnt_tx_spill, 1, "link 1 cnt_tx_spill");
  tb.wait_links(5000);
  const std::vector<Tok> got = tb.log_toks(1);
  tb.expect(got.size() >= 6 && got.size() < pk.size() && got.back() == ERR &&
                std::equal(got.begin(), got.end() - 1, pk.begin()),
            "peer 1 got a prefix closed with ERR: " + tstr(got));
  const size_t n0 = got.size();
  tb.send(6, tb.cyc_, {D(0x01), D(0x99), EOP});
  tb.run(200);
  tb.expect_log(1, {D(0x01), D(0x99), EOP}, {}, n0);
  tb.expect_eq(tb.R().cnt_cut[6] + tb.R().cnt_bad[6], 0, "cnt_cut[6] + cnt_bad[6]");
  tb.drain();
  tb.end_checks();
}


using TestDef = bench::TestDef<Tb>;

const std::vector<TestDef> &tests() {
  static const std::vector<TestDef> t = {
      {"cfg", t_cfg, "every register through the port, unused addresses, write timing"},
      {"route1", t_route1, "1-byte headers, exact latency; token and bit-level ports both ways"},
      {"route2", t_route2, "2-byte headers: byte order, EMIT back-pressure"},
      {"overlap", t_overlap, "unordered table: first match wins; live entries and cfg_nint"},
      {"holes", t_holes, "discard entries and headers above the table: DISC, never waiting"},
      {"fifo", t_fifo, "three inputs on a busy output: port order, then arrival order"},
      {"rr", t_rr, "the same with round-robin arbitration"},
      {"hunt", t_hunt, "hunt group: first free port, one grant per cycle"},
      {"del1", t_del1, "route then strip, an empty packet after the header"},
      {"del2", t_del2, "strip then route, 1- and 2-byte; del 3 acts as 0"},
      {"rnd", t_rnd, "LFSR draws and range map against a reference, seed write at a draw"},
      {"loopback", t_loopback, "universal routing through a looped bit-level and token port"},
      {"short", [](Tb &tb) { t_short(tb, false); }, "packets ending inside their headers"},
      {"stray", [](Tb &tb) { t_short(tb, true); }, "end tokens with no packet open"},
      {"cut", t_cut, "ERR in HDR, WAIT (withdrawal) and FWD, to and from links"},
      {"crowd", t_crowd, "every output owned at once; every slice waiting at once (31 stranded, §10.1)"},
      {"fifo_order", t_fifo_order, "31 slices enter WAIT downward; grants in order of entry (§10.2)"},
      {"leaders", t_leaders, "every port a hunt-group leader with four senders, FIFO and round-robin"},
      {"pairs", t_pairs, "FIFO between every ordered pair of slices, one pair at a time (§10.2)"},
      {"fill", t_fill, "each port leads the group up to port 31, filled one port at a time (A2)"},
      {"rr_sweep", t_rr_sweep, "round-robin: 31 slices wait for each output in turn, the pointer takes every value"},
      {"jam", t_jam, "random hunt groups, every slice sending bursts: many groups contend at once"},
      {"linkdown", t_linkdown, "an output link goes down mid-packet: spill, carry on, resume"},
      {"random", [](Tb &tb) { t_random(tb, false); }, "random setup and traffic (--cycles)"},
      {"faults", [](Tb &tb) { t_random(tb, true); }, "random traffic with wire faults on the links"},
      {"reconfig", [](Tb &tb) { t_random(tb, false, true); }, "random traffic under configuration writes"},
      {"wild", [](Tb &tb) { t_random(tb, false, false, true); }, "random traffic, token inputs outside their contract"},
      {"reset", t_reset, "random traffic, the switch reset mid-run 16 times (pulses and held)"},
  };
  return t;
}

}  // namespace

int main(int argc, char **argv) {
  const char *about = "Runs the C104 RTL (TokPorts 0x%08x) and C model in lockstep; --cycles applies to\n"
                      "random and faults.\n";
  return bench::main(argc, argv, {"c104_lockstep", 60000, true, 10, about, kTok}, tests());
}
