// The C104 bench's harness: one cycle in lockstep (the inputs of every port, both sides evaluated,
// every output and register compared, the peers, the edge), the waves, the counter walk and the
// mid-run reset.
#ifndef MADPOST_TB_C104_HARNESS_H
#define MADPOST_TB_C104_HARNESS_H

#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>

#include "c104/tb.h"

namespace {

using namespace c104tb;

Tb::Tb(const bench::Options &o, VerilatedContext *ctx) : bench::Run("c104", o), ctx_(ctx) {
  c104_cfg_default(&cfg_);
  cfg_.tok_ports = kTok;
  char err[200];
  if (c104_cfg_check(&cfg_, err, sizeof err)) usage_error(err);
  sigs_ = make_sigs();
  inst_.init("sw", &sigs_);
  h_.add(&inst_);
  h_.set_sparse_history(true);
  rtl_ = std::make_unique<Vc104>(ctx_, "c104");
  c104_reset(&cfg_, &st_);
  madpost_rng_seed(&rng_, o.seed, 0);
  for (uint32_t p = 0; p < kN; p++) {
    madpost_rng_seed(&gen_[p].rng, o.seed, 100 + p);
    if (!tokp(p)) dslink_reset(&cfg_.link, &bp_[p].st);
  }
  c104_setup_default(&su_);
}

int Tb::open_waves() {
  if (o_.waves && h_.open_waves(o_.wave_dir)) return -1;
#if VM_TRACE
  if (o_.trace_full) {
    ctx_->traceEverOn(true);
    tfp_ = std::make_unique<VerilatedVcdC>();
    rtl_->trace(tfp_.get(), 99);
    const std::string p = o_.wave_dir + "/c104_" + o_.test + "_s" + std::to_string(o_.seed) +
                          ".rtl-full.vcd";
    tfp_->open(p.c_str());
  }
#else
  if (o_.trace_full) usage_error("--trace-full needs a build with C104_TRACE=1");
#endif
  return 0;
}

// One cycle: 1. the inputs, from the testbench's registers only (the contracts of §6); 2. both
// sides evaluate and everything is compared; 3. the peers see the C model's d_o/s_o; 4. the edge;
// 5. what moved in the cycle just run.
void Tb::cycle() {
  in_ = c104_in_t{};
  // Nothing is handed to a switch held in reset (its registers would drop it): no writes, no
  // tokens in or out; the bit-level peers keep running.
  const bool held = rst_.held();
  const bool wr = !held && !cfgq_.empty() && cfgq_.front().at <= cyc_;
  if (wr) {
    in_.cfg_we = 1;
    in_.cfg_addr = cfgq_.front().addr;
    in_.cfg_wdata = cfgq_.front().data;
  }
  for (uint32_t p = 0; p < kN; p++) {
    if (tokp(p))
      token_inputs(p, held);
    else
      bit_inputs(p);
  }
  if (c104_eval(&cfg_, &st_, &in_, &mo_, &nx_, nullptr)) fatal("C model invariant broken (see above)");
  PORTS_COPY_IN(C104_INPUTS, rtl_.get(), in_);
  rtl_->eval();
  collect_switch(&inst_, *rtl_, 0, 1, in_, mo_, st_);
  if (h_.check(cyc_)) {
#if VM_TRACE
    if (tfp_) tfp_->flush();
#endif
    mismatch();
  }
  peers_eval();
  uint16_t cnt_pkt[kN];
  uint8_t was_run[kN];
  for (uint32_t i = 0; i < kN; i++) {
    cnt_pkt[i] = st_.r.cnt_pkt[i];
    was_run[i] = st_.link[i].r.fsm_state == DSLINK_ST_RUN;
  }
  edge();
  observe(wr, cnt_pkt, was_run);
  if (wr) cfgq_.pop_front();
  walk_counters();
  cyc_++;
}

// A token port's inputs: its source's head (or, in wild runs, a head that vanishes or another
// token), its sink's ready; random values on the pins it ignores.
void Tb::token_inputs(uint32_t p, bool held) {
  TokPort &t = tp_[p];
  bool v = t.gap == 0 && !t.rxq.empty() && t.rxq.front().at <= cyc_;
  Tok h = v ? t.rxq.front().t : 0;
  wild_tok_[p] = false;
  if (wild_ && !t.loop && madpost_rng_chance(&rng_, 1, 40)) {
    // outside the FIFO contract of §6: the head vanishes for a cycle, or another token shows
    if (v && madpost_rng_chance(&rng_, 1, 2)) {
      v = false, h = 0;
    } else {
      const uint32_t k = madpost_rng_below(&rng_, 4);
      v = true, h = TK(k, k == kData ? madpost_rng_below(&rng_, 256) : 0), wild_tok_[p] = true;
    }
  }
  // after a mid-run reset no token enters until the setup is written again: a packet routed
  // on a half-written setup can strand its slice for good (§10.1)
  if (held || reloading_) v = false, h = 0, wild_tok_[p] = false;
  in_.tok_rx_valid[p] = v;
  in_.tok_rx_kind[p] = v ? tkind(h) : 0;
  in_.tok_rx_data[p] = v ? tdata(h) : 0;
  // a loop holds what a link's two buffers would (RxDepth + TxDepth tokens)
  in_.tok_tx_ready[p] = !held && ready(p) &&
                        (!t.loop || t.rxq.size() < cfg_.link.rx_depth + cfg_.link.tx_depth);
  head_[p] = v ? h : kNone;
  if (junk_) {  // ignored pins (§14)
    in_.link_en[p] = madpost_rng_below(&rng_, 2);
    in_.d[p] = madpost_rng_below(&rng_, 2);
    in_.s[p] = madpost_rng_below(&rng_, 2);
  }
}

// A bit-level port's inputs: its peer's (or its own, looped) d/s; random values on the token pins
// it ignores. Notes the head of its receive FIFO, to see the switch pop it.
void Tb::bit_inputs(uint32_t p) {
  BitPort &b = bp_[p];
  in_.link_en[p] = link_en_[p];
  uint32_t d = 0, s = 0;
  if (b.peer) {
    dslink_outputs(&cfg_.link, &b.st, &b.out);
    d = b.out.d, s = b.out.s;
    b.to_sw.apply(cyc_, &d, &s);
  } else if (b.loop) {
    dslink_out_t lo;
    dslink_outputs(&cfg_.link, &st_.link[p], &lo);
    d = lo.d, s = lo.s;
  }
  in_.d[p] = d, in_.s[p] = s;
  dslink_out_t lo;
  dslink_outputs(&cfg_.link, &st_.link[p], &lo);
  head_[p] = lo.rx_valid ? TK(lo.rx_kind, lo.rx_data) : kNone;
  rptr_[p] = st_.link[p].r.rxf_rptr;
  if (junk_) {
    in_.tok_rx_valid[p] = madpost_rng_below(&rng_, 2);
    in_.tok_rx_kind[p] = madpost_rng_below(&rng_, 4);
    in_.tok_rx_data[p] = madpost_rng_below(&rng_, 256);
    in_.tok_tx_ready[p] = madpost_rng_below(&rng_, 2);
  }
}

// The peers see the C model's d_o/s_o (equal to the RTL's: just compared) and evaluate.
void Tb::peers_eval() {
  for (uint32_t p = 0; p < kN; p++) {
    if (tokp(p) || !bp_[p].peer) continue;
    BitPort &b = bp_[p];
    b.li = dslink_in_t{};
    uint32_t d = mo_.d[p], s = mo_.s[p];
    b.to_peer.apply(cyc_, &d, &s);
    b.li.d = d, b.li.s = s;
    b.li.link_en = b.link_en;
    if (!b.txq.empty() && b.txq.front().at <= cyc_ && madpost_rng_chance(&rng_, b.valid_pct, 100)) {
      b.li.tx_valid = 1;
      b.li.tx_kind = tkind(b.txq.front().t);
      b.li.tx_data = tdata(b.txq.front().t);
    }
    b.li.rx_ready = ready(p);
    if (dslink_eval(&cfg_.link, &b.st, &b.li, &b.out, &b.nx, nullptr))
      fatal("peer dslink model invariant broken on port " + std::to_string(p));
  }
}

// Both sides clocked (the RTL's clock low then high), a reset held over the edge, the peers.
void Tb::edge() {
  c104_clock(&st_, &nx_);
  dump_full(cyc_ * lockstep::kPeriod);
  rtl_->clk_i = 1;
  rtl_->eval();
  dump_full(cyc_ * lockstep::kPeriod + lockstep::kPeriod / 2);
  rtl_->clk_i = 0;
  rtl_->eval();
  if (rst_.after_clock(rtl_.get())) c104_reset(&cfg_, &st_);
  for (uint32_t p = 0; p < kN; p++)
    if (!tokp(p) && bp_[p].peer) dslink_clock(&bp_[p].st, &bp_[p].nx);
}

// The random runs walk the slices' counters through their carries (c104tb::kSliceCounters), and the
// bit-level ports' link counters (tb/dslink_counters.h). Counter k of slice i is walk index
// 5 i + k; the links' follow, their (port, counter) in link_walk_.
void Tb::start_walk() {
  for (uint32_t i = 0; i < kN; i++)
    for (const SliceCounter &c : kSliceCounters)
      walk_.add("g_slice[" + std::to_string(i) + "].u_slice." + c.rtl, &(st_.r.*c.f)[i]);
  for (uint32_t p = 0; p < kN; p++)
    for (size_t k = 0; k < dslinktb::kNCounters && !tokp(p); k++) {
      const dslinktb::CounterReg &c = dslinktb::kCounters[k];
      walk_.add("g_port[" + std::to_string(p) + "].g_link.u_link." + c.rtl, &(st_.link[p].r.*c.f));
      link_walk_.push_back({p, k});
    }
  walk_.open(ctx_, rtl_.get(), LOCKSTEP_TOP);
}
void Tb::walk_counters() {
  if (rst_.held()) return;
  walk_.step(rtl_.get(), [&](size_t i, uint32_t added) {
    if (i < 5 * kN) {
      ref_[i / 5].inj[i % 5] += added;
    } else {
      const auto &[p, k] = link_walk_[i - 5 * kN];
      link_added_[p][k] += added;
    }
  });
}
// Link p's count of events f, less what the walk wrote into it (modulo 2^16, as the RTL counts).
uint32_t Tb::link_events(uint32_t p, uint32_t dslink_regs_t::*f) const {
  for (size_t k = 0; k < dslinktb::kNCounters; k++)
    if (dslinktb::kCounters[k].f == f) return (st_.link[p].r.*f - link_added_[p][k]) & 0xFFFFu;
  return st_.link[p].r.*f;
}

// Resets the switch in the middle of a run (rst_ni held over `hold` rising edges), RTL and C
// model on the same cycle. The reference forgets everything the switch held: the configuration
// is the reset one, the packets granted and not yet out are lost, partial packets on the
// outputs are dropped; a bit-level output's peer may still close one with ERR once its link
// sees the drop (tolerated for a while). The inputs' sources carry on: what they send next,
// the rest of a packet included, is read by the reference from the pops as by the switch.
void Tb::reset_switch(uint32_t hold) {
  rst_.force(rtl_.get(), hold);
  c104_reset(&cfg_, &st_);
  rc_ = RefCfg{};
  std::fill(&link_added_[0][0], &link_added_[0][0] + sizeof link_added_ / sizeof link_added_[0][0], 0u);
  for (uint32_t p = 0; p < kN; p++) {
    ref_[p] = RefIn{};
    lost_ += Q_[p].size();
    Q_[p].clear();
    asm_[p].clear();
  }
  cfgq_.clear();
  tolerate_until_ = cyc_ + 3000;
  reloading_ = true;
}

void Tb::finish() {
#if VM_TRACE
  if (tfp_) tfp_->close();
#endif
  matched();
}

void Tb::dump_full(uint64_t t) {
#if VM_TRACE
  if (tfp_) tfp_->dump(t);
#else
  (void)t;
#endif
}

}  // namespace

#endif
