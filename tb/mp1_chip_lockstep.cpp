// MP1 chip lockstep testbench: one chip (four planes, reception and piggy-back arbiters, injection
// controller) in RTL and in the C model, identical inputs every cycle: random messages on all eight
// input channels, selection segments and messages from the interface (and the external piggy-back
// channel), random stops; every output, the chip's registers and all four planes' registers
// compared every cycle (docs/mp1.md §11).
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "Vmp1_chip.h"
#include "verilated.h"

#include "lockstep.h"
#include "mp1_chip.h"
#include "mp1_stim.h"
#include "rng.h"

#ifndef LOCKSTEP_CMP_REGS
#define LOCKSTEP_CMP_REGS 1
#endif

using lockstep::Sig;
using mp1stim::Source;

namespace {

// A source of the injection controller (docs/mp1.md §11.3): selection segment, then the message;
// a segment starts only after seeing stop low and an idle chunk, except for rare deliberate
// violations. Chunks come from a register: the next one is chosen after this cycle's eval.
struct Sender {
  Source src;
  std::deque<std::deque<uint8_t>> segs;
  size_t pos = 0;
  bool in_seg = false;
  uint32_t dat = 0, wait = 0, rate = 40;
  uint64_t msgs = 0, violations = 0;

  void new_message(const mp1_chip_in_t &in) {
    rng_t *g = &src.rng;
    uint32_t plane = rng_below(g, 4), dim = rng_below(g, 2);
    for (int tries = 0; tries < 8; tries++) {  // mostly a target inside the mesh
      const uint32_t nx = plane >> 1, ny = plane & 1u;
      const bool edge = dim ? (ny ? in.py == 0 : in.py == in.ymax) : (nx ? in.px == 0 : in.px == in.xmax);
      if (!edge) break;
      plane = rng_below(g, 4), dim = rng_below(g, 2);
    }
    uint32_t sel = mp1_sel_flit(in.chip, plane, dim);
    const uint32_t r = rng_below(g, 100);
    if (r < 4) sel = mp1_sel_flit(in.chip ^ (1 + rng_below(g, 7)), plane, dim);  // another chip's
    else if (r < 7) sel |= 1 + rng_below(g, 3);                                  // reserved bits
    std::deque<uint8_t> s;
    src.flit(s, sel);
    s.push_back(r >= 7 && r < 9 ? 2 : 1);  // now and then EOM instead of EOS (a bad selection)
    segs.clear();
    segs.push_back(s);
    if (s.back() == 1) {
      src.new_message();
      segs.push_back(src.q);
      for (auto &x : src.segs) segs.push_back(x);
      src.q.clear();
      src.segs.clear();
    }
    msgs++;
  }

  void step(uint32_t stop, const mp1_chip_in_t &in) {
    uint32_t next = 0;
    if (in_seg) {
      next = segs.front()[pos++];
      if (pos == segs.front().size()) segs.pop_front(), in_seg = false;
    } else if (!segs.empty()) {
      const bool may = !stop && dat == 0;
      const bool violate = !may && rng_chance(&src.rng, 1, 400);
      if (may || violate) {
        violations += violate;
        in_seg = true, pos = 0;
        next = segs.front()[pos++];
        if (pos == segs.front().size()) segs.pop_front(), in_seg = false;
      }
    } else if (wait) {
      wait--;
    } else if (rng_chance(&src.rng, 1, rate)) {
      new_message(in);
      wait = rng_below(&src.rng, 30);
    }
    dat = next;
  }
};

// Signals: the chip's inputs, outputs and own registers, then each plane's registers, unpacked
// from its debug port by the same port list.
std::vector<Sig> make_sigs() {
  std::vector<Sig> s = LOCKSTEP_SIGS(MP1_CHIP_INPUTS, MP1_CHIP_OUTPUTS, MP1_CHIP_REGS, LOCKSTEP_CMP_REGS);
  if (LOCKSTEP_CMP_REGS) {
    for (int p = 0; p < 4; p++) {
#define X(n, w) s.push_back({"p" + std::to_string(p) + "_" #n "_q", w, lockstep::kReg});
      MP1_PLANE_REGS(X)
#undef X
    }
  }
  return s;
}

// Bits [lsb, lsb + w) of a Verilator wide port.
template <class W>
uint64_t wide_bits(const W &v, uint32_t lsb, uint32_t w) {
  uint64_t r = 0;
  for (uint32_t i = 0; i < w; i++) {
    const uint32_t b = lsb + i;
    r |= (uint64_t)((v[b / 32] >> (b % 32)) & 1u) << i;
  }
  return r;
}

using Options = lockstep::RandomOptions;

class Tb {
 public:
  Tb(const Options &o, VerilatedContext *ctx) : o_(o), h_("mp1_chip", o.seed, "random") {
    sigs_ = make_sigs();
    rtl_ = std::make_unique<Vmp1_chip>(ctx, "chip");
    inst_.scope = "chip";
    inst_.sigs = &sigs_;
    inst_.rtl.assign(sigs_.size(), 0);
    inst_.model.assign(sigs_.size(), 0);
    h_.add(&inst_);
    mp1_chip_reset(&m_);
    rng_seed(&g_, o.seed, 0);
    in_ = mp1_chip_in_t{};
    in_.xmax = 1 + rng_below(&g_, 31);
    in_.ymax = 1 + rng_below(&g_, 31);
    in_.px = rng_below(&g_, in_.xmax + 1);
    in_.py = rng_below(&g_, in_.ymax + 1);
    if (rng_chance(&g_, 1, 4)) in_.px = rng_chance(&g_, 1, 2) ? 0 : in_.xmax;
    in_.chip = rng_below(&g_, 8);
    in_.pbloop = rng_below(&g_, 2);
    for (uint32_t k = 0; k < 8; k++) {
      Source &s = src_[k];
      const uint32_t p = k >> 1, y = k & 1u, nx = p >> 1, ny = p & 1u;
      rng_seed(&s.rng, o.seed, 1 + k);
      s.pos = y ? in_.py : in_.px;
      s.opos = y ? in_.px : in_.py;
      s.neg = y ? ny : nx;
      s.oneg = y ? nx : ny;
      s.nest = true;
      s.nest_sel = mp1_sel_flit(in_.chip, rng_below(&g_, 4), rng_below(&g_, 2));
    }
    rng_seed(&ifs_.src.rng, o.seed, 20);
    rng_seed(&pbs_.src.rng, o.seed, 21);
    ifs_.src.pos = rng_below(&g_, 32), pbs_.src.pos = rng_below(&g_, 32);
    pbs_.rate = 80;
    stop_pct_ = rng_below(&g_, 30);
  }

  void run() {
    if (o_.waves && h_.open_waves("waves")) std::exit(2);
    rtl_->clk_i = 0;
    rtl_->rst_ni = 0;
    rtl_->eval();
    rtl_->rst_ni = 1;
    rtl_->eval();
    uint64_t at_three_quarters = 0;
    for (uint64_t c = 0; c < o_.cycles; c++) {
      if (c == o_.cycles * 3 / 4) at_three_quarters = entered();
      cycle(c);
    }
    h_.close();
    if (entered() == at_three_quarters) {
      std::printf("mp1_chip: FAILED seed %" PRIu64 ": no message entered in the last quarter "
                  "(deadlock?)\n", o_.seed);
      std::exit(1);
    }
    const mp1_chip_regs_t &r = m_.r;
    uint64_t ch = 0;
    for (auto &s : src_) ch += s.msgs;
    std::printf("mp1_chip: %" PRIu64 " messages on the channels, %" PRIu64 " offered by the "
                "interface (%" PRIu64 " on pbi), pbloop %u; injected %u, bad selections %u, "
                "dropped %u, stray %u\n",
                ch, ifs_.msgs, pbs_.msgs, in_.pbloop, r.cnt_inj_msgs, r.cnt_sel_bad,
                r.cnt_inj_drop, r.cnt_inj_stray);
    std::printf("mp1_chip: matched %" PRIu64 " cycles (seed %" PRIu64 ")\n", o_.cycles, o_.seed);
  }

 private:
  uint64_t entered() const {
    uint64_t n = ifs_.msgs + pbs_.msgs;
    for (auto &s : src_) n += s.msgs;
    return n;
  }

  void cycle(uint64_t c) {
    const uint32_t stop_in[8] = {m_.pl[0].rmx.r.stop, m_.pl[0].rmy.r.stop, m_.pl[1].rmx.r.stop,
                                 m_.pl[1].rmy.r.stop, m_.pl[2].rmx.r.stop, m_.pl[2].rmy.r.stop,
                                 m_.pl[3].rmx.r.stop, m_.pl[3].rmy.r.stop};
    uint32_t *din[8] = {&in_.p0_xin_dat, &in_.p0_yin_dat, &in_.p1_xin_dat, &in_.p1_yin_dat,
                        &in_.p2_xin_dat, &in_.p2_yin_dat, &in_.p3_xin_dat, &in_.p3_yin_dat};
    uint32_t *sout[8] = {&in_.p0_xout_stop, &in_.p0_yout_stop, &in_.p1_xout_stop, &in_.p1_yout_stop,
                         &in_.p2_xout_stop, &in_.p2_yout_stop, &in_.p3_xout_stop, &in_.p3_yout_stop};
    for (int k = 0; k < 8; k++) {
      *din[k] = src_[k].next(stop_in[k]);
      if (rng_chance(&g_, 1, 20)) *sout[k] = rng_chance(&g_, stop_pct_, 100);
    }
    if (rng_chance(&g_, 1, 20)) in_.rcv_stop = rng_chance(&g_, stop_pct_, 100);
    if (rng_chance(&g_, 1, 20)) in_.pbo_stop = rng_chance(&g_, stop_pct_, 100);
    in_.inj_dat = ifs_.dat;
    in_.pbi_dat = pbs_.dat;
#define X(n, w) rtl_->n##_i = in_.n;
    MP1_CHIP_INPUTS(X)
#undef X
    rtl_->eval();
    mp1_chip_out_t mo;
    mp1_chip_eval(&m_, &in_, &mo, &nx_);
    collect(mo);
    if (h_.check(c)) {
      h_.flush();
      std::printf("mp1_chip: FAILED seed %" PRIu64 " at cycle %" PRIu64 "\n", o_.seed, c);
      std::exit(1);
    }
    ifs_.step(mo.inj_stop, in_);
    if (!in_.pbloop) pbs_.step(mo.pbi_stop, in_);
    mp1_chip_clock(&m_, &nx_);
    rtl_->clk_i = 1;
    rtl_->eval();
    rtl_->clk_i = 0;
    rtl_->eval();
  }

  void collect(const mp1_chip_out_t &mo) {
    size_t i = 0;
    std::vector<uint64_t> &r = inst_.rtl, &m = inst_.model;
#define X(n, w) r[i] = m[i] = in_.n, i++;
    MP1_CHIP_INPUTS(X)
#undef X
#define X(n, w) r[i] = rtl_->n##_o, m[i] = mo.n, i++;
    MP1_CHIP_OUTPUTS(X)
#undef X
#if LOCKSTEP_CMP_REGS
#define X(n, w) r[i] = rtl_->dbg_##n##_o, m[i] = m_.r.n, i++;
    MP1_CHIP_REGS(X)
#undef X
    for (int p = 0; p < 4; p++) {
      mp1_plane_regs_t pr;
      mp1_plane_regs(&m_.pl[p], &pr);
      const auto &bus = p == 0 ? rtl_->dbg_p0_o : p == 1 ? rtl_->dbg_p1_o : p == 2 ? rtl_->dbg_p2_o : rtl_->dbg_p3_o;
      uint32_t top = MP1_PLANE_REG_BITS;  // the first register sits in the top bits
#define X(n, w) top -= (w), r[i] = wide_bits(bus, top, (w)), m[i] = pr.n, i++;
      MP1_PLANE_REGS(X)
#undef X
    }
#endif
  }

  const Options &o_;
  lockstep::Harness h_;
  std::vector<Sig> sigs_;
  lockstep::Instance inst_;
  std::unique_ptr<Vmp1_chip> rtl_;
  mp1_chip_state_t m_{};
  mp1_chip_next_t nx_{};
  mp1_chip_in_t in_{};
  rng_t g_{};
  Source src_[8];
  Sender ifs_, pbs_;
  uint32_t stop_pct_ = 0;
};

}  // namespace

int main(int argc, char **argv) {
  Options o = lockstep::parse_random_options(argc, argv, "mp1_chip_lockstep");
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  Tb tb(o, ctx.get());
  tb.run();
  return 0;
}
