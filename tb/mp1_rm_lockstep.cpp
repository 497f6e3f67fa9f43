// MP1 routing machine lockstep testbench: one routing machine in RTL (Verilated) and in the C
// model, fed identical inputs every cycle: random message streams (every control code, matches,
// adaptive turns, broadcasts, several segments, dead flits, bad messages, stray codes) and an
// arbiter per output shared with a random competitor, compared on every output and register.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "Vmp1_rm.h"
#include "verilated.h"

#include "lockstep.h"
#include "mp1_rm.h"
#include "mp1_stim.h"
#include "rng.h"

#ifndef LOCKSTEP_CMP_REGS
#define LOCKSTEP_CMP_REGS 1
#endif

using lockstep::Sig;
using mp1stim::Arb;
using mp1stim::Source;

namespace {


std::vector<Sig> make_sigs() {
  return LOCKSTEP_SIGS(MP1_RM_INPUTS, MP1_RM_OUTPUTS, MP1_RM_REGS, LOCKSTEP_CMP_REGS);
}

using Options = lockstep::RandomOptions;

class Tb {
 public:
  Tb(const Options &o, VerilatedContext *ctx) : o_(o), h_("mp1_rm", o.seed, "random") {
    sigs_ = make_sigs();
    rtl_ = std::make_unique<Vmp1_rm>(ctx, "rm");
    inst_.scope = "rm";
    inst_.sigs = &sigs_;
    inst_.rtl.assign(sigs_.size(), 0);
    inst_.model.assign(sigs_.size(), 0);
    h_.add(&inst_);
    mp1_rm_reset(&m_);
    rng_seed(&g_, o.seed, 0);
    rng_seed(&src_.rng, o.seed, 1);
    in_ = mp1_rm_in_t{};
    in_.pos = rng_below(&g_, 32);
    in_.opos = rng_below(&g_, 32);
    in_.neg = rng_below(&g_, 2);
    in_.oneg = rng_below(&g_, 2);
    in_.edge = rng_chance(&g_, 1, 6);
    in_.oedge = rng_chance(&g_, 1, 6);
    in_.ot_first = rng_below(&g_, 2);
    src_.pos = in_.pos, src_.opos = in_.opos, src_.neg = in_.neg, src_.oneg = in_.oneg;
    arb_[0].me_first = true;  // straight: this machine first
    for (int k = 1; k < 4; k++) arb_[k].me_first = false;
    busy_ = 5 + rng_below(&g_, 60);
    stop_pct_ = rng_below(&g_, 30);
  }

  void run() {
    if (o_.waves && h_.open_waves(o_.wave_dir)) std::exit(2);
    rtl_->clk_i = 0;
    rtl_->rst_ni = 0;
    rtl_->eval();
    rtl_->rst_ni = 1;
    rtl_->eval();
    for (uint64_t c = 0; c < o_.cycles; c++) cycle(c);
    h_.close();
    std::printf("mp1_rm: %" PRIu64 " messages, dead %u, bad code %u, bad addr %u, long %u, "
                "stray %u, cut %u, adaptations %u (%u buffered)\n",
                src_.msgs, m_.r.cnt_dead, m_.r.cnt_bad_code, m_.r.cnt_bad_addr,
                m_.r.cnt_bad_long, m_.r.cnt_stray, m_.r.cnt_cut, m_.r.cnt_adapt,
                m_.r.cnt_adapt_buf);
    std::printf("mp1_rm: matched %" PRIu64 " cycles (seed %" PRIu64 ")\n", o_.cycles, o_.seed);
  }

 private:
  void cycle(uint64_t c) {
    in_.in_dat = src_.next(m_.r.stop);
    uint32_t *own[4] = {&in_.st_own, &in_.ot_own, &in_.rc_own, &in_.pb_own};
    uint32_t *fre[4] = {&in_.st_free, &in_.ot_free, &in_.rc_free, &in_.pb_free};
    uint32_t *stp[4] = {&in_.st_stop, &in_.ot_stop, &in_.rc_stop, &in_.pb_stop};
    for (int k = 0; k < 4; k++) arb_[k].drive(&g_, stop_pct_, own[k], fre[k], stp[k]);
#define X(n, w) rtl_->n##_i = in_.n;
    MP1_RM_INPUTS(X)
#undef X
    rtl_->eval();
    mp1_rm_out_t mo;
    mp1_rm_next_t nx;
    mp1_rm_eval(&m_, &in_, &mo, &nx);
    collect(mo);
    if (h_.check(c)) {
      h_.flush();
      std::printf("mp1_rm: FAILED seed %" PRIu64 " at cycle %" PRIu64 "\n", o_.seed, c);
      std::exit(1);
    }
    const uint32_t req[4] = {mo.st_req, mo.ot_req, mo.rc_req, mo.pb_req};
    for (int k = 0; k < 4; k++) arb_[k].step(&g_, req[k], busy_);
    mp1_rm_clock(&m_, &nx);
    rtl_->clk_i = 1;
    rtl_->eval();
    rtl_->clk_i = 0;
    rtl_->eval();
  }

  void collect(const mp1_rm_out_t &mo) {
    size_t i = 0;
    std::vector<uint64_t> &r = inst_.rtl, &m = inst_.model;
#define X(n, w) r[i] = m[i] = in_.n, i++;
    MP1_RM_INPUTS(X)
#undef X
#define X(n, w) r[i] = rtl_->n##_o, m[i] = mo.n, i++;
    MP1_RM_OUTPUTS(X)
#undef X
#if LOCKSTEP_CMP_REGS
#define X(n, w) r[i] = rtl_->dbg_##n##_o, m[i] = m_.r.n, i++;
    MP1_RM_REGS(X)
#undef X
#endif
  }

  const Options &o_;
  lockstep::Harness h_;
  std::vector<Sig> sigs_;
  lockstep::Instance inst_;
  std::unique_ptr<Vmp1_rm> rtl_;
  mp1_rm_state_t m_{};
  mp1_rm_in_t in_{};
  rng_t g_{};
  Source src_;
  Arb arb_[4];
  uint32_t busy_ = 0, stop_pct_ = 0;
};

}  // namespace

int main(int argc, char **argv) {
  Options o = lockstep::parse_random_options(argc, argv, "mp1_rm_lockstep");
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  Tb tb(o, ctx.get());
  tb.run();
  return 0;
}
