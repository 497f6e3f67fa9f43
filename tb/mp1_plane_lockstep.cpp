// MP1 plane lockstep testbench: one plane (two routing machines, two output arbiters) in RTL and in
// the C model, identical inputs every cycle: random messages on both inputs, injection on both
// outputs, random receiver stops, and reception/piggy-back arbiters shared with competitors; and
// directed cases in which one input's sender ignores stop, so that the invariant's err rises.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "Vmp1_plane.h"
#include "verilated.h"

#include "backdoor.h"
#include "common/bench.h"
#include "common/ports.h"
#include "lockstep.h"
#include <madpost/mp1_plane.h>
#include "mp1_stim.h"
#include <madpost/madpost_rng.h>


using lockstep::Sig;
using mp1stim::Arb;
using mp1stim::Source;
using mp1stim::cf;
using mp1stim::eqs;
using mp1stim::seg_n;

namespace {


// An injection controller as a requester of one output (docs/mp1.md §10.4): it holds its request
// for a whole message, starts a segment only when it owns the output, the receiver's stop is low
// and the channel shows an idle chunk, and shows its chunk from a register.
struct Injector {
  Source src;
  std::deque<std::deque<uint8_t>> segs;
  size_t pos = 0;
  bool active = false, in_seg = false;
  uint32_t dat = 0, wait = 0;
  uint64_t msgs = 0;

  void step(uint32_t own, uint32_t stop) {
    uint32_t next = 0;
    if (active && own) {
      if (!in_seg && !segs.empty() && !stop && dat == 0) in_seg = true, pos = 0;
      if (in_seg) {
        next = segs.front()[pos++];
        if (pos == segs.front().size()) {
          segs.pop_front();
          in_seg = false;
          if (segs.empty()) active = false;  // the last chunk shows next cycle, then release
        }
      }
    } else if (!active) {
      if (wait) {
        wait--;
      } else if (madpost_rng_chance(&src.rng, 1, 30)) {
        src.new_message();
        segs.clear();
        segs.push_back(src.q);
        for (auto &s : src.segs) segs.push_back(s);
        src.q.clear();
        src.segs.clear();
        active = true;
        msgs++;
        wait = 1 + madpost_rng_below(&src.rng, 20);
      }
    }
    dat = next;
  }
};

// ---- Directed cases: §6's invariant at the plane (docs/mp1_draft4.md §6) ----------------------
// The plane's err is rmx's or rmy's. No sender that honours stop can raise it, so the random runs
// never see either half of the OR; a case per input shows each half on its own, compared every
// cycle as an output. As in the routing machine's err_stop_ignored: both machines at 4, +
// direction; a message passing straight (to 9), whose first segment of 32 flits fills the buffer
// behind the straight output, held by its receiver's stop; the sender, seeing stop always low,
// sends two more segments of 5 flits, and the machine writes its 128th chunk with 127 held.
struct PlaneCase {
  const char *name, *what;
  int dim;  // the input whose sender ignores stop: 0 X (rmx), 1 Y (rmy)
};

std::vector<PlaneCase> plane_cases() {
  return {{"err_x", "X's sender ignores stop: rmx's err at the 128th chunk held", 0},
          {"err_y", "Y's sender ignores stop: rmy's err at the 128th chunk held", 1}};
}

constexpr uint64_t kHeld = 300;    // both outputs' receivers hold stop high until this cycle
constexpr uint64_t kCaseCycles = 600;

// The deaf input's chunk, the plane's err and that machine's stop register, cycle by cycle.
struct ErrTrace {
  std::vector<uint32_t> in, err, stop;

  // The failures of a run whose sender ignored stop ("" if none).
  std::string check() const {
    uint64_t a = 0;
    while (a < in.size() && !in[a]) a++;
    std::vector<uint64_t> high;
    for (uint64_t c = 0; c < err.size(); c++)
      if (err[c]) high.push_back(c);
    if (a + 97 >= in.size()) return "the message never came; ";
    // 97 chunks after the first: the second segment starts against stop (the sender is deaf)
    std::string e = eqs("stop when the second segment started", stop[a + 97], 1);
    if (high.size() != 1) return e + eqs("cycles with err high", high.size(), 1);
    return e + eqs("err's cycle after the first chunk", high[0] - a, 127);
  }
};

#ifndef LOCKSTEP_TOP
#define LOCKSTEP_TOP "mp1_plane"
#endif

class Tb : public bench::Run {
 public:
  Tb(const bench::Options &o, VerilatedContext *ctx) : bench::Run("mp1_plane", o), ctx_(ctx) {
    PORTS_TABLE(&sigs_, MP1_PLANE_INPUTS, MP1_PLANE_OUTPUTS, MP1_PLANE_REGS);
    rtl_ = std::make_unique<Vmp1_plane>(ctx, "plane");
    inst_.init("plane", &sigs_);
    h_.add(&inst_);
    mp1_plane_reset(&cfg_, &m_);
    madpost_rng_seed(&g_, o.seed, 0);
    in_ = mp1_plane_in_t{};
    in_.px = madpost_rng_below(&g_, mp1stim::kAddrs);
    in_.py = madpost_rng_below(&g_, mp1stim::kAddrs);
    in_.nx = madpost_rng_below(&g_, 2);
    in_.ny = madpost_rng_below(&g_, 2);
    in_.ex = madpost_rng_chance(&g_, 1, 8);
    in_.ey = madpost_rng_chance(&g_, 1, 8);
    Source *src[4] = {&xs_, &ys_, &ix_.src, &iy_.src};
    for (int i = 0; i < 4; i++) madpost_rng_seed(&src[i]->rng, o.seed, 1 + (uint64_t)i);
    xs_.pos = in_.px, xs_.opos = in_.py, xs_.neg = in_.nx, xs_.oneg = in_.ny;
    ys_.pos = in_.py, ys_.opos = in_.px, ys_.neg = in_.ny, ys_.oneg = in_.nx;
    ix_.src.pos = madpost_rng_below(&g_, mp1stim::kAddrs),
    iy_.src.pos = madpost_rng_below(&g_, mp1stim::kAddrs);
    for (auto &a : arb_) a.me_first = false;
    busy_ = 5 + madpost_rng_below(&g_, 60);
    stop_pct_ = madpost_rng_below(&g_, 30);
    for (int m = 0; m < 2; m++)
      for (const mp1stim::RmCounter &k : mp1stim::kRmCounters)  // walk index 8 m + k
        walk_.add(std::string(m ? "u_rmy." : "u_rmx.") + k.rtl, &((m ? m_.rmy : m_.rmx).r.*k.f));
  }

  int open_waves() { return o_.waves ? h_.open_waves(o_.wave_dir) : 0; }
  void reset() { lockstep::rtl_reset(rtl_.get()); }
  void finish() {}

  // A directed case (dc), or random traffic (nullptr).
  void run(const PlaneCase *dc) {
    dc_ = dc;
    if (dc_) {
      setup_case();
      run_directed();
      return;
    }
    rst_.init(o_.seed, 25000);  // mid-run resets, messages in flight (lockstep.h MidReset)
    walk_.open(ctx_, rtl_.get(), LOCKSTEP_TOP);
    // Progress: new messages must keep entering in the last quarter of the run (a plane that
    // deadlocks still "matches", so this is checked separately).
    uint64_t at_three_quarters = 0;
    for (uint64_t c = 0; c < o_.cycles; c++) {
      if (c == o_.cycles * 3 / 4) at_three_quarters = xs_.msgs + ys_.msgs + ix_.msgs + iy_.msgs;
      cycle(c);
    }
    h_.close();
    if (xs_.msgs + ys_.msgs + ix_.msgs + iy_.msgs == at_three_quarters)
      fatal("no message entered in the last quarter (deadlock?)");
    // Runs this long see both outcomes of an EOM, or the arbiters' draft-4 rule went untested.
    if (o_.cycles >= 100000 && (!handovers_ || !kept_))
      fatal(std::to_string(handovers_) + " hand-overs and " + std::to_string(kept_) +
            " outputs kept at an EOM; both expected");
    std::printf("mp1_plane: at an EOM %" PRIu64 " outputs handed over, %" PRIu64 " kept\n",
                handovers_, kept_);
    mp1_plane_regs_t r;
    mp1_plane_regs(&m_, &r);
    std::printf("mp1_plane: %" PRIu64 " + %" PRIu64 " messages in, %" PRIu64 " injected; dead %u, "
                "bad %u, adaptations %u, aborts %u, resets %" PRIu64
                ", counter moves from injected values %" PRIu64 "\n",
                xs_.msgs, ys_.msgs, ix_.msgs + iy_.msgs, r.rmx_cnt_dead + r.rmy_cnt_dead,
                r.rmx_cnt_bad_addr + r.rmy_cnt_bad_addr + r.rmx_cnt_bad_code + r.rmy_cnt_bad_code,
                r.rmx_cnt_adapt + r.rmy_cnt_adapt, r.rmx_cnt_cut + r.rmy_cnt_cut, rst_.count,
                walk_.carries());
    cyc_ = o_.cycles;
    matched();
  }

 private:
  // The case's place and message; the other input, the injectors and the competitors stay idle.
  void setup_case() {
    in_.px = in_.py = 4, in_.nx = in_.ny = 0, in_.ex = in_.ey = 0;
    stop_pct_ = 0, busy_ = 0;
    xs_.scripted = ys_.scripted = true;
    Source &s = dc_->dim ? ys_ : xs_;
    s.segs.push_back(seg_n({cf(2, 9)}, 32, 1));
    s.segs.push_back(seg_n({}, 5, 1));
    s.segs.push_back(seg_n({}, 5, 2));
  }

  void run_directed() {
    for (uint64_t c = 0; c < kCaseCycles; c++) cycle(c);
    h_.close();
    const std::string e = tr_.check();
    if (!e.empty()) fatal(e);
    std::printf("mp1_plane: %-14s as expected, %" PRIu64 " cycles matched (%s)\n", dc_->name,
                kCaseCycles, dc_->what);
  }

  // The receivers' stops: random, or in a case high on both outputs until kHeld.
  void drive_out_stops(uint64_t c) {
    if (dc_) {
      in_.xout_stop = in_.yout_stop = c < kHeld;
      return;
    }
    if (madpost_rng_chance(&g_, 1, 20)) in_.xout_stop = madpost_rng_chance(&g_, stop_pct_, 100);
    if (madpost_rng_chance(&g_, 1, 20)) in_.yout_stop = madpost_rng_chance(&g_, stop_pct_, 100);
  }

  // err (§6) is compared as an output above; here it fails a random run, and in a case, whose
  // sender ignores stop, it is recorded to be required.
  void check_err(const mp1_plane_out_t &mo) {
    if (dc_) {
      const mp1_rm_state_t &rm = dc_->dim ? m_.rmy : m_.rmx;
      tr_.in.push_back(dc_->dim ? in_.yin_dat : in_.xin_dat);
      tr_.err.push_back(mo.err);
      tr_.stop.push_back(rm.r.stop);
      return;
    }
    if (mo.err) fatal("buffer invariant (err)");
  }

  void cycle(uint64_t c) {
    cyc_ = c;
    if (rst_.start(rtl_.get())) mp1_plane_reset(&cfg_, &m_);
    // (a case's deaf sender sees a stop that is always low)
    const bool deaf_x = dc_ && dc_->dim == 0, deaf_y = dc_ && dc_->dim == 1;
    in_.xin_dat = xs_.next(deaf_x ? 0 : m_.rmx.r.stop);
    in_.yin_dat = ys_.next(deaf_y ? 0 : m_.rmy.r.stop);
    drive_out_stops(c);
    in_.inj_x_req = ix_.active, in_.inj_x_dat = ix_.dat;
    in_.inj_y_req = iy_.active, in_.inj_y_dat = iy_.dat;
    uint32_t *own[4] = {&in_.rmx_rc_own, &in_.rmx_pb_own, &in_.rmy_rc_own, &in_.rmy_pb_own};
    uint32_t *fre[4] = {&in_.rmx_rc_free, &in_.rmx_pb_free, &in_.rmy_rc_free, &in_.rmy_pb_free};
    uint32_t *stp[4] = {&in_.rmx_rc_stop, &in_.rmx_pb_stop, &in_.rmy_rc_stop, &in_.rmy_pb_stop};
    for (int k = 0; k < 4; k++) arb_[k].drive(&g_, stop_pct_, own[k], fre[k], stp[k]);
    PORTS_COPY_IN(MP1_PLANE_INPUTS, rtl_.get(), in_);
    rtl_->eval();
    mp1_plane_out_t mo;
    mp1_plane_next_t nx;
    mp1_plane_eval(&cfg_, &m_, &in_, &mo, &nx, nullptr);
    collect(mo);
    if (h_.check(c)) mismatch();
    check_err(mo);
    const uint32_t req[4] = {mo.rmx_rc_req, mo.rmx_pb_req, mo.rmy_rc_req, mo.rmy_pb_req};
    for (int k = 0; k < 4; k++) arb_[k].step(&g_, req[k], busy_);
    if (!dc_) {  // a case injects nothing
      ix_.step(mo.inj_x_own, in_.xout_stop);
      iy_.step(mo.inj_y_own, in_.yout_stop);
    }
    // An EOM on an output (docs/mp1_draft4.md §8): the arbiter hands the output to another
    // requester, or the owner keeps it for its next message when nobody else asks.
    const uint32_t own_b[2] = {m_.arbx_own, m_.arby_own};
    const bool eom[2] = {m_.arbx_pos == 0 && mo.xout_dat == 2, m_.arby_pos == 0 && mo.yout_dat == 2};
    mp1_plane_clock(&m_, &nx);
    const uint32_t own_a[2] = {m_.arbx_own, m_.arby_own};
    for (int d = 0; d < 2; d++)
      if (eom[d] && own_b[d]) {
        handovers_ += own_a[d] && own_a[d] != own_b[d];
        kept_ += own_a[d] == own_b[d];
      }
    lockstep::rtl_clock(rtl_.get());
    if (rst_.after_clock(rtl_.get())) mp1_plane_reset(&cfg_, &m_);
    walk_.step(rtl_.get());
  }

  void collect(const mp1_plane_out_t &mo) {
    mp1_plane_regs_t mr;
    mp1_plane_regs(&m_, &mr);
    ports::Fill f{&inst_};
    PORTS_COLLECT(f, MP1_PLANE_INPUTS, MP1_PLANE_OUTPUTS, MP1_PLANE_REGS, *rtl_, in_, mo, mr);
  }

  VerilatedContext *ctx_;
  std::vector<Sig> sigs_;
  lockstep::Instance inst_;
  std::unique_ptr<Vmp1_plane> rtl_;
  const mp1_plane_cfg_t cfg_{MP1_AWF};  // as the RTL's AWF parameter (docs/mp1.md §14)
  mp1_plane_state_t m_{};
  mp1_plane_in_t in_{};
  madpost_rng_t g_{};
  Source xs_, ys_;
  Injector ix_, iy_;
  Arb arb_[4];
  uint32_t busy_ = 0, stop_pct_ = 0;
  uint64_t handovers_ = 0, kept_ = 0;  // EOMs after which the output changed owner, or stayed
  lockstep::MidReset rst_;
  lockstep::CounterWalk walk_{"mp1_plane"};
  const PlaneCase *dc_ = nullptr;
  ErrTrace tr_;
};

}  // namespace

int main(int argc, char **argv) {
  const std::vector<PlaneCase> cases = plane_cases();
  return bench::main(argc, argv, mp1stim::spec("mp1_plane_lockstep"), bench::case_tests<Tb>(cases));
}
