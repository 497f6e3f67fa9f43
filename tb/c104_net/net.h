// The C104 network bench's context object: four switches in RTL (tb/c104_net_tb.sv) and in the C
// model, one cycle in lockstep (every switch evaluated, then every switch clocked, everything
// compared), the configuration, the endpoints' bookkeeping, the counter walk and the resets. The
// random runs' scoreboard is defined in tb/c104_net/scoreboard.h, the drain in drain.h.
#ifndef MADPOST_TB_C104_NET_NET_H
#define MADPOST_TB_C104_NET_NET_H

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "Vc104net.h"
#include "verilated.h"

#include "backdoor.h"
#include <madpost/c104.h>
#include "c104_common.h"
#include "c104_net/endpoint.h"
#include "c104_net/topology.h"
#include "common/bench.h"
#include <madpost/dslink.h>
#include "dslink_counters.h"
#include "lockstep.h"
#include <madpost/madpost_rng.h>

#ifndef LOCKSTEP_TOP
#define LOCKSTEP_TOP "c104_net_tb"
#endif

namespace {

using namespace c104tb;

class Net : public bench::Run {
 public:
  Net(const bench::Options &o, VerilatedContext *ctx) : bench::Run("c104net", o), ctx_(ctx) {
    if ((kTok & (kWired | 1u << 8 | 1u << 9)) != (1u << 8 | 1u << 9))
      usage_error("C104_NET_TOK_PORTS must make ports 0-4 bit-level and ports 8, 9 token ports");
    c104_cfg_default(&cfg_);
    cfg_.tok_ports = kTok;
    char err[200];
    if (c104_cfg_check(&cfg_, err, sizeof err)) usage_error(err);
    sigs_ = make_sigs();
    for (uint32_t s = 0; s < kSw; s++) {
      inst_[s].init("sw" + std::to_string(s), &sigs_);
      h_.add(&inst_[s]);
      c104_reset(&cfg_, &st_[s]);
    }
    h_.set_sparse_history(true);
    rtl_ = std::make_unique<Vc104net>(ctx_, "c104net");
    madpost_rng_seed(&rng_, o.seed, 0);
    madpost_rng_seed(&junk_, o.seed, 0x1a2bu);
    for (uint32_t e = 0; e < kEpN; e++) {
      Ep &x = ep_[e];
      x.s = ep_sw(e), x.p = ep_port(e), x.tok = tokp(x.p);
      madpost_rng_seed(&x.gen.rng, o.seed, 100 + e);
      if (!x.tok) dslink_reset(&cfg_.link, &x.st);
    }
  }

  int open_waves() { return o_.waves ? h_.open_waves(o_.wave_dir) : 0; }
  void reset() { lockstep::rtl_reset(rtl_.get()); }

  // ---- One cycle: every switch evaluated, then every switch clocked ----------------------
  void cycle() {
    bool wr[kSw];
    // Nothing is handed to switches held in reset (their registers would drop it).
    const bool held = rst_.held();
    for (uint32_t s = 0; s < kSw; s++) wr[s] = switch_inputs(s, held);
    junk_inputs();
    for (uint32_t s = 0; s < kSw; s++)
      if (c104_eval(&cfg_, &st_[s], &in_[s], &mo_[s], &nx_[s], nullptr))
        fatal("C model invariant broken in sw" + std::to_string(s) + " (see above)");
    PORTS_COPY_IN_N(C104_INPUTS, rtl_.get(), in_, kSw);  // every switch's into the packed ports
    for (uint32_t s = 0; s < kSw; s++) {  // the wrapper takes the wired ports' D/S from the links
      rtl_->d_i[s] ^= madpost_rng_next(&junk_) & 0x1Fu;
      rtl_->s_i[s] ^= madpost_rng_next(&junk_) & 0x1Fu;
    }
    rtl_->eval();
    collect();
    if (h_.check(cyc_)) mismatch();
    // the bit-level endpoints see the C model's d_o/s_o (equal to the RTL's: just compared)
    for (Ep &x : ep_) {
      if (x.tok) continue;
      x.li = dslink_in_t{};
      x.li.d = mo_[x.s].d[x.p], x.li.s = mo_[x.s].s[x.p], x.li.link_en = x.link_en;
      if (!x.q.empty() && x.q.front().at <= cyc_) {
        x.li.tx_valid = 1;
        x.li.tx_kind = tkind(x.q.front().t);
        x.li.tx_data = tdata(x.q.front().t);
      }
      x.li.rx_ready = ready(x);
      if (dslink_eval(&cfg_.link, &x.st, &x.li, &x.out, &x.nx, nullptr))
        fatal("endpoint dslink model invariant broken");
    }
    // the edge
    for (uint32_t s = 0; s < kSw; s++) c104_clock(&st_[s], &nx_[s]);
    lockstep::rtl_clock(rtl_.get());
    for (Ep &x : ep_)
      if (!x.tok) dslink_clock(&x.st, &x.nx);
    if (rst_.after_clock(rtl_.get())) reset_models();
    observe();
    for (uint32_t s = 0; s < kSw; s++)
      if (wr[s]) cfgq_[s].pop_front();
    walk_counters();
    cyc_++;
  }

  // Switch s's inputs: the wired ports from their neighbours' (or its own) links, the endpoints'
  // tokens or D/S, a configuration write when one is due (returned: written this cycle).
  bool switch_inputs(uint32_t s, bool held) {
    c104_in_t &in = in_[s];
    in = c104_in_t{};
    const bool wr = !held && !cfgq_[s].empty() && cfgq_[s].front().at <= cyc_;
    if (wr) in.cfg_we = 1, in.cfg_addr = cfgq_[s].front().addr, in.cfg_wdata = cfgq_[s].front().data;
    for (uint32_t p = 0; p < kN; p++) {
      head_[s][p] = kNone;
      if (p < 5) {  // wired: a neighbour's (or its own, the loopback) d_o/s_o, from registers
        dslink_out_t lo;
        dslink_outputs(&cfg_.link, p == kLoop ? &st_[s].link[p] : &st_[nbr(s, p)].link[p], &lo);
        in.d[p] = lo.d, in.s[p] = lo.s, in.link_en[p] = link_en_[s][p];
        continue;
      }
      const uint32_t e = ep_of(s, p);
      if (e == ~0u) continue;  // an idle token port
      Ep &x = ep_[e];
      if (x.tok) {
        const bool v = !held && x.gap == 0 && !x.q.empty() && x.q.front().at <= cyc_;
        in.tok_rx_valid[p] = v;
        in.tok_rx_kind[p] = v ? tkind(x.q.front().t) : 0;
        in.tok_rx_data[p] = v ? tdata(x.q.front().t) : 0;
        in.tok_tx_ready[p] = !held && ready(x);
        if (v) head_[s][p] = x.q.front().t;
      } else {
        dslink_outputs(&cfg_.link, &x.st, &x.out);
        in.d[p] = x.out.d, in.s[p] = x.out.s, in.link_en[p] = link_en_[s][p];
        dslink_out_t lo;
        dslink_outputs(&cfg_.link, &st_[s].link[p], &lo);
        if (lo.rx_valid) head_[s][p] = TK(lo.rx_kind, lo.rx_data);
        rptr_[s][p] = st_[s].link[p].r.rxf_rptr;
      }
    }
    return wr;
  }

  void run(uint64_t n) {
    for (uint64_t k = 0; k < n; k++) cycle();
  }
  void run_to(uint64_t t) {
    while (cyc_ < t) cycle();
  }
  uint64_t T(uint64_t k) const { return t0_ + k; }

  // The whole network reset mid-run, switches and endpoints (rst_ni held over `hold` rising
  // edges), RTL and C models on the same cycle: every packet in it is gone, so the endpoints'
  // queues and the scoreboard start again; the caller writes the configuration again.
  void reset_all(uint32_t hold) {
    rst_.force(rtl_.get(), hold);
    reset_models();
    for (uint32_t s = 0; s < kSw; s++) cfgq_[s].clear(), grants_[s] = loops_[s] = 0;
    for (Ep &x : ep_) x.q.clear(), x.gap = 0, x.asm_.clear();
    exp_.clear();
    bad_ = stray_ = 0;
    std::fill(added_.begin(), added_.end(), 0u);
  }
  uint64_t resets() const { return rst_.count; }

  // ---- Configuration: c104_setup_writes through every switch's port, in parallel ----------
  void load(const c104_setup_t *su) {
    for (uint32_t s = 0; s < kSw; s++) {
      su_[s] = su[s];
      c104_write_t w[C104_SETUP_NWRITES];
      const size_t n = c104_setup_writes(&su[s], w);
      for (size_t k = 0; k < n; k++) cfgq_[s].push_back({w[k].addr, w[k].data, cyc_ + k});
    }
    bool busy = true;
    while (busy) {
      cycle();
      busy = false;
      for (uint32_t s = 0; s < kSw; s++) busy |= !cfgq_[s].empty();
    }
    for (uint32_t e = 0; e < kEpN; e++) {  // reference draws from the written seeds
      const c104_setup_t &x = su_[ep_[e].s];
      const uint32_t seed = x.port[ep_[e].p].seed & 0xFFFFu;
      ep_[e].lfsr = seed ? seed : (uint32_t)C104_LFSR_SEED;
      ep_[e].rlo = x.port[ep_[e].p].rlo & 0xFFFFu, ep_[e].rhi = x.port[ep_[e].p].rhi & 0xFFFFu;
    }
    if (!links_started_) {  // every link enabled in one cycle, after the configuration (§7)
      links_started_ = true;
      for (uint32_t s = 0; s < kSw; s++)
        for (uint32_t p = 0; p < kN; p++) link_en_[s][p] = !tokp(p) && (p < 5 || ep_of(s, p) != ~0u);
      for (uint64_t k = 0; !links_up(); k++) {
        if (k == 3000) fatal("links not in Run after 3000 cycles");
        cycle();
      }
    }
    t0_ = cyc_;
  }
  bool links_up() const {
    for (uint32_t s = 0; s < kSw; s++)
      for (uint32_t p = 0; p < kN; p++)
        if (link_en_[s][p] && st_[s].link[p].r.fsm_state != DSLINK_ST_RUN) return false;
    for (const Ep &x : ep_)
      if (!x.tok && x.st.r.fsm_state != DSLINK_ST_RUN) return false;
    return true;
  }
  void send(uint32_t ep, uint64_t at, const std::vector<Tok> &toks) {
    for (Tok t : toks) ep_[ep].q.push_back({t, at});
  }

  // ---- Checks ------------------------------------------------------------------------------
  static std::string epname(uint32_t e) {
    return "sw" + std::to_string(ep_sw(e)) + ":" + std::to_string(ep_port(e));
  }
  // Endpoint e received exactly these packets (from packet `from` on), in this order.
  void expect_got(uint32_t e, const std::vector<std::vector<Tok>> &want, size_t from = 0) {
    std::string g, w;
    for (size_t k = from; k < ep_[e].got.size(); k++) g += " " + tstr(ep_[e].got[k].first);
    for (const auto &v : want) w += " " + tstr(v);
    if (g != w) fatal("check failed: endpoint " + epname(e) + " received" + (g.empty() ? " nothing" : g) +
                      ", expected" + (w.empty() ? " nothing" : w));
  }
  void expect_nothing_else(const std::vector<uint32_t> &eps) {
    for (uint32_t e = 0; e < kEpN; e++)
      if (std::find(eps.begin(), eps.end(), e) == eps.end() && !ep_[e].got.empty())
        fatal("check failed: endpoint " + epname(e) + " received " + tstr(ep_[e].got[0].first) +
              ", expected nothing");
  }
  const c104_regs_t &R(uint32_t s) const { return st_[s].r; }

  // ---- Drain: sources off, every sink ready, until nothing is left anywhere --------------
  bool quiet() const;
  std::string pending() const;
  void drain(uint64_t limit = 40000);
  void finish() { matched(); }

  // ---- Random traffic and its scoreboard ---------------------------------------------------
  int route_ref(uint32_t s, std::vector<uint32_t> hdrs, uint64_t *grants, uint64_t *loops);
  void gen_packet(uint32_t e);
  void check_delivery(uint32_t e, const std::vector<Tok> &R);

  // ---- State -------------------------------------------------------------------------------
  VerilatedContext *ctx_;
  std::vector<lockstep::Sig> sigs_;
  lockstep::Instance inst_[kSw];
  std::unique_ptr<Vc104net> rtl_;
  c104_cfg_t cfg_{};
  c104_state_t st_[kSw]{};
  c104_next_t nx_[kSw]{};
  c104_in_t in_[kSw]{};
  c104_out_t mo_[kSw]{};
  c104_setup_t su_[kSw]{};
  madpost_rng_t rng_{};
  uint64_t t0_ = 0, moved_ = 0;
  bool links_started_ = false, random_ = false;
  uint32_t link_en_[kSw][kN] = {};
  std::deque<CfgW> cfgq_[kSw];
  Ep ep_[kEpN];
  Tok head_[kSw][kN] = {};
  uint8_t rptr_[kSw][kN] = {};
  std::function<int(const Ep &)> ready_fn_;  // directed override: -1 = default
  // scoreboard of the random runs
  std::map<uint32_t, Expect> exp_;
  uint64_t grants_[kSw] = {}, loops_[kSw] = {};
  uint64_t bad_ = 0, stray_ = 0, made_ = 0, delivered_ = 0, delivered_x_ = 0;
  uint32_t hb_ = 0;  // the header base of hop() (random runs: drawn in random_start)

 private:
  uint32_t ready(Ep &x) {
    if (ready_fn_) {
      const int r = ready_fn_(x);
      if (r >= 0) return (uint32_t)r;
    }
    return x.rdy.draw(&rng_, cyc_);
  }

  void collect() {
    for (uint32_t s = 0; s < kSw; s++) collect_switch(&inst_[s], *rtl_, s, kSw, in_[s], mo_[s], st_[s]);
  }

  void out_token(Ep &x, uint32_t e, Tok t) {
    moved_++;
    if (x.asm_.empty()) x.asm_t = cyc_;
    x.asm_.push_back(t);
    if (!tend(t)) return;
    x.got.push_back({x.asm_, x.asm_t});
    check_delivery(e, x.asm_);
    x.asm_.clear();
  }

  void observe() {
    for (uint32_t e = 0; e < kEpN; e++) {
      Ep &x = ep_[e];
      const c104_in_t &in = in_[x.s];
      const c104_out_t &mo = mo_[x.s];
      if (x.tok) {
        if (in.tok_rx_valid[x.p] && mo.tok_rx_ready[x.p]) {
          x.q.pop_front();
          x.pops.push_back(cyc_);
          moved_++;
          x.gap = x.gen.on && madpost_rng_chance(&x.gen.rng, x.gen.gap_pct, 100)
                      ? 1 + madpost_rng_below(&x.gen.rng, 4)
                      : 0;
        } else if (x.gap) {
          x.gap--;
        }
        if (mo.tok_tx_valid[x.p] && in.tok_tx_ready[x.p]) out_token(x, e, TK(mo.tok_tx_kind[x.p], mo.tok_tx_data[x.p]));
      } else {
        if (x.li.tx_valid && x.out.tx_ready) x.q.pop_front(), moved_++;
        if (x.out.rx_valid && x.li.rx_ready) out_token(x, e, TK(x.out.rx_kind, x.out.rx_data));
        if (st_[x.s].link[x.p].r.rxf_rptr != rptr_[x.s][x.p]) x.pops.push_back(cyc_), moved_++;
      }
      if (x.gen.on && x.q.size() < 3 && madpost_rng_chance(&x.gen.rng, 1, x.gen.rate))
        gen_packet(e);
    }
    for (uint32_t s = 0; s < kSw; s++)  // tokens moving on the links count as progress
      for (uint32_t p = 0; p < 5; p++)
        if (st_[s].link[p].r.rxf_rptr != prev_rptr_[s][p]) prev_rptr_[s][p] = st_[s].link[p].r.rxf_rptr, moved_++;
  }
  uint8_t prev_rptr_[kSw][5] = {};

 public:
  // The random runs walk every switch's slice counters (cnt_pkt, cnt_bad, cnt_short, cnt_cut,
  // cnt_stray) and its bit-level links' counters (tb/dslink_counters.h) through their carries,
  // writing both sides (tb/backdoor.h); a counter without events moves on after 300 cycles. The
  // end checks count events: the value less what the walk wrote (added_, modulo 2^16).
  static constexpr uint32_t kSlCnt = kNSliceCounters;
  void start_walk() {
    for (uint32_t s = 0; s < kSw; s++) {
      const std::string sw = "g_sw[" + std::to_string(s) + "].u_sw.";
      for (uint32_t i = 0; i < kN; i++)
        for (uint32_t k = 0; k < kSlCnt; k++)
          walk_.add(sw + "g_slice[" + std::to_string(i) + "].u_slice." + kSliceCounters[k].rtl,
                    &(st_[s].r.*kSliceCounters[k].f)[i]);
      for (uint32_t p = 0; p < kN; p++)
        for (size_t k = 0; k < dslinktb::kNCounters && !tokp(p); k++)
          walk_.add(sw + "g_port[" + std::to_string(p) + "].g_link.u_link." + dslinktb::kCounters[k].rtl,
                    &(st_[s].link[p].r.*dslinktb::kCounters[k].f));
    }
    added_.assign(walk_.size(), 0);
    walk_.open(ctx_, rtl_.get(), LOCKSTEP_TOP);
    walking_ = true;
  }
  bool walking() const { return walking_; }
  uint64_t carries() const { return walk_.carries(); }
  // Switch s's count of events of slice counter k at port i (walk index order of start_walk).
  uint32_t events(uint32_t s, uint32_t k, uint32_t i) const {
    const uint32_t v = (st_[s].r.*kSliceCounters[k].f)[i];
    if (!walking_) return v;
    return (v - added_[(size_t)s * (kSlCnt * kN + dslinktb::kNCounters * kBitPorts) + i * kSlCnt + k]) & 0xFFFFu;
  }

 private:
  static constexpr uint32_t kBitPorts = (uint32_t)__builtin_popcount(~kTok);
  lockstep::CounterWalk walk_{"c104net", 300};
  std::vector<uint32_t> added_;
  bool walking_ = false;
  void walk_counters() {
    if (!walking_ || rst_.held()) return;
    walk_.step(rtl_.get(), [&](size_t i, uint32_t a) { added_[i] += a; });
  }
  // Random values on the pins a port ignores (docs/c104.md §14: a token port's D/S and link enable,
  // a bit-level port's token pins, an idle token port's receive data), from a stream of their
  // own so the traffic is the same draw for draw: an RTL or C model that reads them differs.
  madpost_rng_t junk_{};
  void junk_inputs() {
    for (uint32_t s = 0; s < kSw; s++) {
      c104_in_t &in = in_[s];
      const uint32_t a = madpost_rng_next(&junk_), b = madpost_rng_next(&junk_);
      for (uint32_t p = 0; p < kN; p++) {
        const uint32_t r = a >> (p & 15), q = b >> (p & 15);
        if (p >= 6) {
          in.d[p] = r & 1u, in.s[p] = r >> 1 & 1u, in.link_en[p] = r >> 2 & 1u;
          if (!in.tok_rx_valid[p]) in.tok_rx_kind[p] = q & 3u, in.tok_rx_data[p] = q >> 2 & 0xFFu;
        } else {
          in.tok_rx_valid[p] = r & 1u, in.tok_rx_kind[p] = r >> 1 & 3u, in.tok_rx_data[p] = q & 0xFFu;
          in.tok_tx_ready[p] = r >> 3 & 1u;
        }
      }
    }
  }
  lockstep::MidReset rst_;

  void reset_models() {
    for (uint32_t s = 0; s < kSw; s++) c104_reset(&cfg_, &st_[s]);
    for (Ep &x : ep_)
      if (!x.tok) dslink_reset(&cfg_.link, &x.st);
  }
};

}  // namespace

#endif
