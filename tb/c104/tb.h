// The C104 bench's context object: the switch in RTL (Verilated) and in the C model, its peers,
// the scoreboard's reference and the run's counters. Its members are defined by job in
// tb/c104/harness.h (one cycle in lockstep), stimulus.h (the peers and the configuration),
// scoreboard.h (what left the switch against the reference), drain.h (the end of a run).
#ifndef MADPOST_TB_C104_TB_H
#define MADPOST_TB_C104_TB_H

#include <cstdint>
#include <cstdlib>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "Vc104.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_vcd_c.h"
#endif

#include "backdoor.h"
#include <madpost/c104.h>
#include <madpost/dslink.h>
#include <madpost/madpost_rng.h>
#include "c104/layout.h"
#include "c104/peers.h"
#include "c104/reference.h"
#include "c104_common.h"
#include "common/bench.h"
#include "dslink_counters.h"
#include "lockstep.h"

namespace {

using namespace c104tb;

class Tb : public bench::Run {
 public:
  Tb(const bench::Options &o, VerilatedContext *ctx);

  // ---- Running (harness.h) --------------------------------------------------------------------
  int open_waves();
  void reset() { lockstep::rtl_reset(rtl_.get()); }
  void cycle();
  void run(uint64_t n) {
    for (uint64_t k = 0; k < n; k++) cycle();
  }
  void run_to(uint64_t t) {
    while (cyc_ < t) cycle();
  }
  uint64_t T(uint64_t k) const { return t0_ + k; }
  void start_walk();
  void walk_counters();
  uint32_t link_events(uint32_t p, uint32_t dslink_regs_t::*f) const;
  void reset_switch(uint32_t hold);
  uint64_t resets() const { return rst_.count; }
  void finish();

  // ---- Configuration and peers (stimulus.h) --------------------------------------------------
  void write(uint32_t addr, uint32_t data, uint64_t at) { cfgq_.push_back({addr, data, at}); }
  void load(const c104_setup_t &s);
  bool links_up() const;
  void wait_links(uint64_t limit);
  void peers_on_bit_ports();
  void set_loop(uint32_t p);
  void send(uint32_t p, uint64_t at, const std::vector<Tok> &toks);
  uint32_t setup_lookup(uint32_t x, uint32_t *port) const;
  uint32_t gen_header(madpost_rng_t *g, uint32_t H);
  std::vector<Tok> gen_packet(uint32_t p);
  void generate(uint32_t p);

  // ---- Checks on what left the switch (scoreboard.h) ------------------------------------------
  std::vector<Tok> log_toks(uint32_t o, size_t from = 0) const;
  void expect_log(uint32_t o, const std::vector<Tok> &t, const std::vector<uint64_t> &cyc = {},
                  size_t from = 0);
  void expect_pops(uint32_t p, const std::vector<uint64_t> &cyc);
  void expect_silent_except(uint32_t mask);
  void need_ports(uint32_t tok_mask, uint32_t bit_mask);
  const c104_regs_t &R() const { return st_.r; }
  const dslink_regs_t &L(uint32_t p) const { return st_.link[p].r; }

  // ---- Drain and end checks (drain.h, scoreboard.h) ------------------------------------------
  bool quiet() const;
  void drain(uint64_t limit = 60000);
  std::string pending_str() const;
  void end_checks();
  std::string totals() const;
  uint64_t total_drops() const;

  // ---- State (public for the test functions) ----------------------------------------------
  VerilatedContext *ctx_;
  std::vector<lockstep::Sig> sigs_;
  lockstep::Instance inst_;
  std::unique_ptr<Vc104> rtl_;
  c104_cfg_t cfg_{};
  c104_state_t st_{};
  c104_next_t nx_{};
  c104_in_t in_{};
  c104_out_t mo_{};
  c104_setup_t su_{};
  madpost_rng_t rng_{};
  uint64_t t0_ = 0;
  bool links_started_ = false, junk_ = false, wild_ = false;
  bool wild_tok_[kN] = {};
  bool debug_ = std::getenv("C104_DEBUG") != nullptr;  // every draw, grant, pop and output token
  TokPort tp_[kN];
  BitPort bp_[kN];
  Gen gen_[kN];
  Ready rdy_[kN];
  uint32_t link_en_[kN] = {};
  std::deque<CfgW> cfgq_;
  std::function<int(uint32_t p)> ready_fn_;  // directed override: -1 = default
  std::vector<std::pair<Tok, uint64_t>> log_[kN];
  std::vector<uint64_t> pops_[kN];
  // scoreboard
  RefCfg rc_;
  RefIn ref_[kN];
  std::deque<RP> Q_[kN];  // per output: the packets granted to it, in grant order (an output is
                          // owned by one slice at a time, so they leave in this order)
  std::vector<Tok> asm_[kN];  // the packet leaving output o so far
  uint64_t asm_t_[kN] = {};   // the cycle of its first token
  uint64_t drops_[kN] = {};
  uint64_t delivered_ = 0, cut_rx_ = 0, lost_ = 0, damaged_ = 0, moved_ = 0, reconfigs_ = 0;
  uint64_t tolerate_until_ = 0;  // unmatched packets on bit-level outputs tolerated (faults)
  lockstep::MidReset rst_;       // resets mid-run (reset_switch)
  lockstep::CounterWalk walk_{"c104"};  // the random runs' counter walk (start_walk)
  std::vector<std::pair<uint32_t, size_t>> link_walk_;
  uint32_t link_added_[kN][dslinktb::kNCounters] = {};  // what the walk wrote into each link counter
  bool reloading_ = false;       // reset, the setup not yet written again
  Tok head_[kN] = {};
  uint8_t rptr_[kN] = {};
#if VM_TRACE
  std::unique_ptr<VerilatedVcdC> tfp_;
#endif
  // random sources
  Plan plan_;
  bool avoid_loop_ = false;  // the sources' headers keep out of the loopback port's interval

 private:
  // harness.h
  void token_inputs(uint32_t p, bool held);
  void bit_inputs(uint32_t p);
  void peers_eval();
  void edge();
  void dump_full(uint64_t t);
  // stimulus.h
  uint32_t ready(uint32_t p);
  uint32_t next_gap(uint32_t p);
  // scoreboard.h
  void observe(bool wr, const uint16_t *cnt_pkt, const uint8_t *was_run);
  void observe_links(const uint8_t *was_run);
  void observe_pops();
  void ref_cfg_write(uint32_t addr, uint32_t data);
  void hdr_bytes(std::vector<Tok> &v, uint32_t x, uint32_t H);
  void ref_route(uint32_t i, uint32_t x, bool emit);
  void ref_draw(uint32_t i);
  void ref_grant(uint32_t i, uint32_t port);
  void ref_pop(uint32_t i, Tok t);
  void out_token(uint32_t o, Tok t);
  static bool cut_of(const std::vector<Tok> &R, const std::vector<Tok> &E);
  void match(uint32_t o, const std::vector<Tok> &R);
};

}  // namespace

#endif
