// The C104 bench's random runs: random setups and traffic, with wire faults, configuration writes
// under traffic, token inputs outside their contract, or resets of the switch mid-run; each ends
// with a drain and the scoreboard's end checks.
#ifndef MADPOST_TB_C104_RANDOM_H
#define MADPOST_TB_C104_RANDOM_H

#include <cinttypes>
#include <cstdio>
#include <string>

#include "c104/setups.h"
#include "c104/tb.h"

namespace {

using namespace c104tb;

// One cycle's wire faults of a faults run (each direction of each peered link now and then), then
// the links disabled and enabled now and then at either end; returns the faults started.
uint64_t random_faults(Tb &tb, madpost_rng_t *g) {
  uint64_t n = 0;
  for (uint32_t p = 0; p < kN; p++) {
    if (tokp(p) || !tb.bp_[p].peer) continue;
    for (int dir = 0; dir < 2; dir++) {
      bench::WireFault &f = dir ? tb.bp_[p].to_peer : tb.bp_[p].to_sw;
      if (f.active() || !madpost_rng_chance(g, 1, 6000)) continue;
      const uint32_t d = dir ? tb.mo_.d[p] : tb.bp_[p].out.d, sv = dir ? tb.mo_.s[p] : tb.bp_[p].out.s;
      f.start_random(g, tb.cyc_, d, sv);
      n++;
      tb.tolerate_until_ = tb.cyc_ + 3000;
    }
  }
  for (uint32_t p = 0; p < kN; p++) {  // links disabled now and then, at either end
    if (tokp(p) || !tb.bp_[p].peer) continue;
    if (tb.link_en_[p] == 0 && madpost_rng_chance(g, 1, 300)) tb.link_en_[p] = 1;
    if (tb.bp_[p].link_en == 0 && madpost_rng_chance(g, 1, 300)) tb.bp_[p].link_en = 1;
    if (madpost_rng_chance(g, 1, 200000)) tb.link_en_[p] = 0, tb.tolerate_until_ = tb.cyc_ + 3000;
    if (madpost_rng_chance(g, 1, 200000))
      tb.bp_[p].link_en = 0, tb.tolerate_until_ = tb.cyc_ + 3000;
  }
  return n;
}

// One burst of a reconfig run: 1-4 writes from another random setup, half of them to a busy port.
void random_reconfig(Tb &tb, madpost_rng_t *g) {
  c104_setup_t r;
  Plan pl;
  random_setup(g, &r, &pl, false);
  c104_write_t w[C104_SETUP_NWRITES];
  c104_setup_writes(&r, w);
  const uint32_t n = 1 + madpost_rng_below(g, 4);
  for (uint32_t k = 0; k < n; k++) {
    c104_write_t x = w[madpost_rng_below(g, C104_SETUP_NWRITES)];
    // half the time a register of a port whose slice is busy, one with a header half read
    // first: its mode (header length, deletion, random), its random range or its LFSR seed
    // (w is in address order: w[p], w[32 + p], w[64 + p] are 0x00 + p, 0x20 + p, 0x40 + p)
    const int busy = madpost_rng_chance(g, 1, 2) ? busy_port(tb, g) : -1;
    if (busy >= 0) x = w[(uint32_t)busy + 32 * madpost_rng_below(g, 3)];
    if (madpost_rng_chance(g, 1, 20))
      x.addr = 0x82 + madpost_rng_below(g, 0x7E), x.data = (uint32_t)madpost_rng_next(g);
    tb.write(x.addr, x.data, tb.cyc_ + madpost_rng_below(g, 3));
  }
  tb.reconfigs_++;
}

// The end of a faults run: what was injected and detected, and that traffic resumed after.
void fault_report(Tb &tb, uint64_t faults_n, uint64_t delivered_tail) {
  uint64_t errs = 0;
  for (uint32_t p = 0; p < kN; p++) {
    if (tokp(p)) continue;
    for (auto f : {&dslink_regs_t::cnt_par_err, &dslink_regs_t::cnt_esc_err, &dslink_regs_t::cnt_disc_err,
                   &dslink_regs_t::cnt_cred_err, &dslink_regs_t::cnt_proto_err, &dslink_regs_t::cnt_tmo_err})
      errs += tb.link_events(p, f);
  }
  std::printf("c104: %" PRIu64 " wire faults, %" PRIu64 " link errors at the switch, %" PRIu64
              " damaged packets tolerated while faults were on\n",
              faults_n, errs, tb.damaged_);
  if (kTok != 0xFFFFFFFFu) tb.expect(faults_n > 0 && errs > 0, "faults were injected and detected");
  tb.expect(tb.delivered_ > delivered_tail, "traffic resumes after the faults (" + tb.totals() + ")");
}

// ---- Random traffic ------------------------------------------------------------------------
// reconfig: configuration writes of every kind while traffic runs (groups that strand waiting
// slices, tables, header modes, seeds, the arbitration mode), then the setup written again.
// wild: token ports now and then break the FIFO contract of §6 (a head that vanishes for a cycle,
// another token shown in its place): both sides must still agree, the scoreboard still holds.
void t_random(Tb &tb, bool faults, bool reconfig = false, bool wild = false) {
  c104_setup_t s;
  random_start(tb, &s, faults || reconfig || wild, faults);
  madpost_rng_t *g = &tb.rng_;
  tb.wild_ = wild;
  const uint64_t total = tb.o_.cycles, tail = total / 5, t_end = tb.cyc_ + total;
  const uint64_t fault_end = faults ? t_end - tail : tb.cyc_;
  uint64_t last_move = tb.cyc_, moved = tb.moved_, faults_n = 0;
  uint64_t delivered_tail = 0;
  while (tb.cyc_ < t_end) {
    if (faults && tb.cyc_ < fault_end) faults_n += random_faults(tb, g);
    if (faults && tb.cyc_ == fault_end)
      for (uint32_t p = 0; p < kN; p++)
        if (!tokp(p) && tb.bp_[p].peer) tb.link_en_[p] = tb.bp_[p].link_en = 1;
    if (reconfig && tb.cyc_ < t_end - tail && tb.cfgq_.empty() && madpost_rng_chance(g, 1, 400))
      random_reconfig(tb, g);
    if (reconfig && tb.cyc_ == t_end - tail) {
      // the setup again, every port a leader: stranded slices (§10.1) resume
      s.grp = 0xFFFFFFFFu;
      c104_write_t w[C104_SETUP_NWRITES];
      const size_t n = c104_setup_writes(&s, w);
      for (size_t k = 0; k < n; k++) tb.write(w[k].addr, w[k].data, tb.cyc_ + k);
    }
    if (tb.cyc_ == fault_end && faults) delivered_tail = tb.delivered_;
    tb.cycle();
    if (tb.moved_ != moved) moved = tb.moved_, last_move = tb.cyc_;
    if (tb.cyc_ - last_move > 20000 && !(reconfig && tb.cyc_ < t_end - tail)) tb.fatal("traffic stopped: nothing moved for 20000 cycles" + tb.pending_str());
  }
  if (wild)  // garbage leaves packets open: an end token on every token input closes them
    for (uint32_t p = 0; p < kN; p++)
      if (tokp(p)) tb.send(p, tb.cyc_, {EOP});
  tb.drain();
  tb.end_checks();
  if (faults) fault_report(tb, faults_n, delivered_tail);
  std::printf("c104: setup: nint %u grp %08x %s, loop %d; %s\n", s.nint, s.grp, s.rr ? "rr" : "fifo",
              tb.plan_.loop, tb.totals().c_str());
  tb.expect(tb.delivered_ > 0, "traffic was delivered");
}

// Reset mid-run: the switch reset 16 times under random traffic at times spread so that slices
// are caught in every state (a header half read, waiting, emitting, forwarding, discarding), as
// pulses and held over 1 or 2 rising edges; after each the setup is written again. The reference
// forgets what the switch held (Tb::reset_switch) and accounts for every packet after; the run
// ends with a drain and the counters' check.
void t_reset(Tb &tb) {
  c104_setup_t s;
  random_start(tb, &s, true, false);
  madpost_rng_t *g = &tb.rng_;
  uint32_t seen = 0;  // the slice states some reset landed in
  for (uint32_t k = 0; k < 16; k++) {
    tb.run(200 + madpost_rng_below(g, 1500));
    for (uint32_t p = 0; p < kN; p++) seen |= 1u << tb.R().sl_st[p];
    tb.reset_switch(k % 3);
    tb.load(s);
  }
  const uint64_t d0 = tb.delivered_;
  tb.run(6000);
  tb.drain();
  tb.end_checks();
  std::string states;
  for (uint32_t st = C104_IDLE; st <= C104_DISC; st++)
    if ((seen >> st) & 1u) states += std::string(" ") + c104_sl_state_name(st);
  std::printf("c104: %" PRIu64 " resets mid-run, slices caught in:%s; %s\n", tb.resets(),
              states.c_str(), tb.totals().c_str());
  tb.expect(tb.delivered_ > d0, "traffic delivered after the last reset");
}

}  // namespace

#endif
