// The DS-Link bench's harness: two link ends (a, b) in RTL (Verilated) and in the C model, one
// cycle's stimulus applied to both, every output and register compared, both sides clocked; the
// back-to-back wiring through the fault injectors, the mid-run resets and the counter backdoor.
#ifndef MADPOST_TB_DSLINK_HARNESS_H
#define MADPOST_TB_DSLINK_HARNESS_H

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "Vdslink.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_vcd_c.h"
#endif

#include "backdoor.h"
#include "common/bench.h"
#include "common/ports.h"
#include "common/wire_fault.h"
#include <madpost/dslink.h>
#include "dslink/flow.h"
#include "dslink/script_peer.h"
#include "dslink_counters.h"
#include "lockstep.h"
#include <madpost/madpost_rng.h>

#ifndef DSLINK_GPARAMS
#define DSLINK_GPARAMS ""
#endif
#ifndef LOCKSTEP_TOP
#define LOCKSTEP_TOP "dslink"
#endif

using lockstep::Sig;

namespace {

[[noreturn]] void usage_error(const std::string &msg) { lockstep::usage_error("dslink_lockstep", msg); }

std::vector<Sig> make_sigs() {
  std::vector<Sig> s;
  PORTS_TABLE(&s, DSLINK_INPUTS, DSLINK_OUTPUTS, DSLINK_REGS);
  return s;
}

// The 16-bit event counters (tb/dslink_counters.h): the `counters` case sets them on both sides
// (tb/backdoor.h), since no run counts past a few hundred events of one kind.
using dslinktb::CounterReg;
using dslinktb::kCounters;

// Parameters the RTL was built with ("BitPeriod=3,RxDepth=64"), applied to the C model too.
void apply_gparams(dslink_cfg_t *cfg, const char *spec) {
  std::string s(spec);
  size_t p = 0;
  while (p < s.size()) {
    size_t e = s.find(',', p);
    if (e == std::string::npos) e = s.size();
    std::string kv = s.substr(p, e - p);
    p = e + 1;
    if (kv.empty()) continue;
    size_t eq = kv.find('=');
    if (eq == std::string::npos) usage_error("bad parameter '" + kv + "'");
    std::string k = kv.substr(0, eq);
    uint32_t v = (uint32_t)std::strtoul(kv.c_str() + eq + 1, nullptr, 0);
    bool known = false;
#define X(rtl, field, def) \
  if (k == #rtl) cfg->field = v, known = true;
    DSLINK_PARAMS(X)
#undef X
    if (!known) usage_error("unknown DS-Link parameter '" + k + "'");
  }
}

// One link end on both sides.
struct End {
  std::unique_ptr<Vdslink> rtl;
  dslink_state_t m{};
  dslink_in_t in{};
  dslink_out_t mo{};
  lockstep::Instance inst;
};

class Tb : public bench::Run {
 public:
  Tb(const bench::Options &o, VerilatedContext *ctx) : bench::Run("dslink", o), ctx_(ctx) {
    dslink_cfg_default(&cfg_);
    apply_gparams(&cfg_, DSLINK_GPARAMS);
    char err[200];
    if (dslink_cfg_check(&cfg_, err, sizeof err)) usage_error(err);
    sigs_ = make_sigs();
    const char *names[2] = {"a", "b"};
    for (int i = 0; i < 2; i++) {
      e_[i].rtl = std::make_unique<Vdslink>(ctx_, names[i]);
      e_[i].inst.scope = names[i];
      e_[i].inst.sigs = &sigs_;
      e_[i].inst.rtl.assign(sigs_.size(), 0);
      e_[i].inst.model.assign(sigs_.size(), 0);
      h_.add(&e_[i].inst);
      dslink_reset(&cfg_, &e_[i].m);
    }
    madpost_rng_seed(&rng_, o.seed, 0);
    flow_[0].name = "a->b";
    flow_[1].name = "b->a";
    madpost_rng_seed(&flow_[0].rng, o.seed, 1);
    madpost_rng_seed(&flow_[1].rng, o.seed, 2);
    peer_.bp = cfg_.bit_period;
  }

  int open_waves() {
    // Open the view where the ends start exchanging NULLs (ErrorReset + ErrorWait behind them).
    h_.set_view_start((cfg_.reset_cycles + cfg_.wait_cycles) * lockstep::kPeriod);
    if (o_.waves && h_.open_waves(o_.wave_dir)) return -1;
#if VM_TRACE
    if (o_.trace_full) {
      ctx_->traceEverOn(true);
      for (int i = 0; i < 2; i++) {
        tfp_[i] = std::make_unique<VerilatedVcdC>();
        e_[i].rtl->trace(tfp_[i].get(), 99);
        std::string p = o_.wave_dir + "/dslink_" + o_.test + "_s" + std::to_string(o_.seed) + "_" +
                        (i ? "b" : "a") + ".rtl-full.vcd";
        tfp_[i]->open(p.c_str());
      }
    }
#else
    if (o_.trace_full) usage_error("--trace-full needs a build with TRACE=1");
#endif
    return 0;
  }

  // Power-on reset through a real falling edge of rst_ni (lockstep::rtl_reset): a Verilated input
  // starts at 0, so only a 1 -> 0 edge runs the RTL's asynchronous reset branch.
  void reset() {
    for (End &e : e_) lockstep::rtl_reset(e.rtl.get());
  }

  // Resets end i in the middle of a run, RTL and C model on the same cycle: rst_ni falls between
  // two clock edges and is held low over `hold` more rising edges (0: released at once), during
  // which the C model is put back to its reset state after every clock. The next compare checks
  // every register against its reset value. The packet checkers forget what end i held: the
  // packet it was sending is abandoned, the one it was receiving is gone.
  void reset_end(int i, uint32_t hold) {
    End &e = e_[i];
    rst_[i].force(e.rtl.get(), hold);
    dslink_reset(&cfg_, &e.m);
    flow_[i].have = false;
    flow_[1 - i].rx = Packet{};
    n_resets_++;
  }

  // One clock cycle: stimulus, compare, advance both sides. stim fills e_[i].in.
  void cycle(const std::function<void()> &stim) {
    for (End &e : e_) dslink_outputs(&cfg_, &e.m, &e.mo);
    for (End &e : e_) e.in = dslink_in_t{};
    stim();
    for (End &e : e_) collect(e);
    if (h_.check(cyc_)) {
#if VM_TRACE
      for (auto &t : tfp_)
        if (t) t->flush();
#endif
      mismatch();
    }
    for (End &e : e_) {
      PORTS_COPY_IN(DSLINK_INPUTS, e.rtl.get(), e.in);
      e.rtl->clk_i = 0;
      e.rtl->eval();
    }
    dump_full(cyc_ * lockstep::kPeriod);
    for (int i = 0; i < 2; i++) {
      End &e = e_[i];
      dslink_next_t nx;
      if (dslink_eval(&cfg_, &e.m, &e.in, &e.mo, &nx, nullptr))
        fatal("C model invariant broken");
      dslink_clock(&e.m, &nx);
      e.rtl->clk_i = 1;
      e.rtl->eval();
      if (rst_[i].after_clock(e.rtl.get())) dslink_reset(&cfg_, &e.m);
    }
    dump_full(cyc_ * lockstep::kPeriod + lockstep::kPeriod / 2);
    cyc_++;
  }

  // Back-to-back wiring through the fault injectors, with traffic on both packet interfaces.
  void link_stim(bool traffic, uint32_t rx_ready_pct) {
    uint32_t ad = e_[0].mo.d, as = e_[0].mo.s, bd = e_[1].mo.d, bs = e_[1].mo.s;
    fault_[0].apply(cyc_, &ad, &as);
    fault_[1].apply(cyc_, &bd, &bs);
    e_[1].in.d = ad, e_[1].in.s = as;
    e_[0].in.d = bd, e_[0].in.s = bs;
    for (int i = 0; i < 2; i++) {
      e_[i].in.link_en = link_en_[i];
      const bool ready = madpost_rng_chance(&rng_, rx_ready_pct, 100);
      e_[i].in.rx_ready = ready && cyc_ >= stall_until_[i];
      // Nothing is written into an end held in reset: its registers drop what it takes.
      if (traffic && !rst_[i].held()) flow_[i].offer(&e_[i].in);
    }
  }
  // Bookkeeping after cycle(): what the packet interfaces transferred in the cycle just run.
  void link_observe() {
    for (int i = 0; i < 2; i++) {
      const dslink_in_t &in = e_[i].in;
      const dslink_out_t &out = e_[i].mo;
      if (in.tx_valid && out.tx_ready) flow_[i].accepted();
      if (out.rx_valid && in.rx_ready) flow_[1 - i].received(cyc_ - 1, out.rx_kind, out.rx_data);
    }
  }
  void run_link(uint64_t n, bool traffic, uint32_t rx_ready_pct = 100) {
    for (uint64_t k = 0; k < n; k++) {
      cycle([&] { link_stim(traffic, rx_ready_pct); });
      link_observe();
    }
  }
  // Runs until both ends are in Run (or fails after limit cycles).
  void wait_run(uint64_t limit, bool traffic = false) {
    for (uint64_t k = 0; k < limit; k++) {
      if (st(0) == DSLINK_ST_RUN && st(1) == DSLINK_ST_RUN) return;
      run_link(1, traffic);
    }
    fatal("link did not reach Run within " + std::to_string(limit) + " cycles");
  }

  // Sets every event counter of end i to v on both sides, between two cycles (the backdoor is
  // opened on first use, so only the cases that inject need an RTL with these register names).
  void inject_counters(int i, uint32_t v) {
    if (!bd_[i].on()) {
      std::vector<std::string> paths;
      for (const CounterReg &c : kCounters) paths.push_back(c.rtl);
      const std::string err =
          bd_[i].open(ctx_, std::string(e_[i].rtl->hierName()) + "." + LOCKSTEP_TOP, paths);
      if (!err.empty()) usage_error(err);
      if (!bd_[i].on()) fatal("this case injects counter values: it cannot run with +no_backdoor");
    }
    for (size_t k = 0; k < dslinktb::kNCounters; k++) {
      e_[i].m.r.*kCounters[k].f = v;
      bd_[i].write(k, v);
    }
    e_[i].rtl->eval();
  }

  uint32_t st(int i) const { return e_[i].m.r.fsm_state; }
  const dslink_regs_t &r(int i) const { return e_[i].m.r; }

  void finish() {
#if VM_TRACE
    for (auto &t : tfp_)
      if (t) t->close();
#endif
    matched();
  }

  dslink_cfg_t cfg_{};
  VerilatedContext *ctx_;
  std::vector<Sig> sigs_;
  End e_[2];
  Flow flow_[2];
  bench::WireFault fault_[2];
  ScriptPeer peer_;
  madpost_rng_t rng_{};
  uint32_t link_en_[2] = {1, 1};
  lockstep::MidReset rst_[2];  // end i's resets (reset_end), held over some rising edges
  uint64_t stall_until_[2] = {0, 0};  // end i's user reads nothing before this cycle
  lockstep::Backdoor bd_[2];
  uint64_t n_resets_ = 0;
#if VM_TRACE
  std::unique_ptr<VerilatedVcdC> tfp_[2];
#endif

 private:
  // End e's values of this cycle into its instance, in make_sigs() order: its inputs (the same on
  // both sides), then the RTL's outputs and dbg_ registers beside the C model's.
  void collect(End &e) {
    ports::Fill f{&e.inst};
    PORTS_COLLECT(f, DSLINK_INPUTS, DSLINK_OUTPUTS, DSLINK_REGS, *e.rtl, e.in, e.mo, e.m.r);
  }
  void dump_full(uint64_t t) {
#if VM_TRACE
    for (auto &tf : tfp_)
      if (tf) tf->dump(t);
#else
    (void)t;
#endif
  }
};

}  // namespace

#endif
