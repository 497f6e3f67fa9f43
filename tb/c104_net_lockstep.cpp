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
// random header; everything else is a discard.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
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
#include <madpost/dslink.h>
#include "dslink_counters.h"
#include "lockstep.h"
#include <madpost/rng.h>

// The wrapper's TokPorts parameter (every switch; the build passes the same value to both).
#ifndef C104_NET_TOK_PORTS
#define C104_NET_TOK_PORTS 0xFFFFFFC0u
#endif
#ifndef LOCKSTEP_CMP_REGS
#define LOCKSTEP_CMP_REGS 1
#endif
#ifndef LOCKSTEP_TOP
#define LOCKSTEP_TOP "c104_net_tb"
#endif

using lockstep::Sig;
using namespace c104tb;

namespace {

constexpr uint32_t kN = C104_PORTS;
constexpr uint32_t kSw = 4;
constexpr uint32_t kTok = (uint32_t)(C104_NET_TOK_PORTS);
constexpr uint32_t kWired = 0x1Fu;  // ports 0-4: links and the loopback (tb/c104_net_tb.sv)
constexpr uint32_t kLoop = 4;
// Endpoints 0 .. kEpA - 1: ports 5, 8, 9 of each switch (3 s + j), the ones headers name; then
// kEpX per switch on every other token port (kEpA + kEpX s + k), which the random runs use as
// sources and, as members of hunt groups led by 5, 9, 20 and 26, or 5, 9, 11, 20 and 28, as sinks.
constexpr uint32_t kEpPort[3] = {5, 8, 9};
constexpr uint32_t kEpA = kSw * 3;
constexpr uint32_t kEpX = 24;  // ports 6, 7, 10 .. 31
constexpr uint32_t kEpN = kEpA + kSw * kEpX;
constexpr uint32_t kR0 = 0x80;  // random headers kR0 .. kR0 + 3
inline bool tokp(uint32_t p) { return (kTok >> p) & 1u; }
inline uint32_t xport(uint32_t k) { return k < 2 ? 6 + k : 8 + k; }
inline uint32_t ep_sw(uint32_t e) { return e < kEpA ? e / 3 : (e - kEpA) / kEpX; }
inline uint32_t ep_port(uint32_t e) { return e < kEpA ? kEpPort[e % 3] : xport((e - kEpA) % kEpX); }
inline uint32_t hdr_of(uint32_t ep) { return 16 * (ep / 3) + kEpPort[ep % 3]; }  // ep < kEpA
inline uint32_t ep_of(uint32_t s, uint32_t p) {
  for (uint32_t j = 0; j < 3; j++)
    if (kEpPort[j] == p) return s * 3 + j;
  if (p == 6 || p == 7 || p >= 10) return kEpA + s * kEpX + (p < 8 ? p - 6 : p - 8);
  return ~0u;
}
// The leader of port p's hunt group for the group-start bits grp (§9.1: bit 0 taken as 1).
inline uint32_t leader_of(uint32_t grp, uint32_t p) {
  while (p && !((grp >> p) & 1u)) p--;
  return p;
}
// The wired peer of switch s, port p < 4: (neighbour, same port).
inline uint32_t nbr(uint32_t s, uint32_t p) { return p < 2 ? s ^ 1u : s ^ 2u; }

[[noreturn]] void usage_error(const std::string &m) { lockstep::usage_error("c104_net_lockstep", m); }

// The next hop of header h at switch s (-1: discard): the tables of every test, every header
// shifted up by the base b (0 in the directed cases; drawn per random run, so the tables' entries
// take other values); `wide` (random runs): headers for ports 20, 11, 26, 28 (local 12-15) and the
// 2-byte range too.
int hop(uint32_t s, uint32_t h, uint32_t b, bool wide) {
  if (h >= 256) return wide ? 9 : -1;  // a 2-byte header above 255: port 9's group, here
  if (h < b) return -1;
  h -= b;
  if (h < 16 * kSw) {
    const uint32_t d = h >> 4, loc = h & 15u;
    static const int kWide[4] = {20, 11, 26, 28};  // more groups, whichever layout (random_start)
    if (d == s && wide && loc >= 12) return kWide[loc - 12];
    if (d == s) return (loc == 5 || loc == 8 || loc == 9) ? (int)loc : -1;
    return ((s ^ d) & 1u) ? 0 : 2;  // X first, then Y
  }
  if (h >= kR0 && h < kR0 + kSw) {
    const uint32_t i = h - kR0;
    if (i == s) return (int)kLoop;
    return ((s ^ i) & 1u) ? 1 : 3;
  }
  return -1;
}
// hop() as an interval table (§9.1): one entry per run over [0, 255]; a last discard run left out,
// unless `wide` (random runs) adds the entry of the 2-byte headers above 255 after it.
void build_table(uint32_t s, c104_setup_t *su, uint32_t b, bool wide) {
  su->nint = 0;
  int cur = hop(s, 0, b, wide);
  uint32_t e = 0;
  for (uint32_t h = 1; h <= 256; h++) {
    const int v = h < 256 ? hop(s, h, b, wide) : -2;
    if (v == cur) continue;
    if (!(h == 256 && cur < 0)) {
      if (e >= 32) usage_error("table of switch " + std::to_string(s) + " needs more than 32 entries");
      su->ival[e].hi = h - 1;
      su->ival[e].port = cur < 0 ? 0 : (uint32_t)cur;
      su->ival[e].valid = cur >= 0;
      e++;
    }
    cur = v;
  }
  if (wide) {
    if (hop(s, 255, b, wide) < 0) su->ival[e++] = {255, 0, 0};
    su->ival[e++] = {0xFFFF, 9, 1};
  }
  su->nint = e;
}
c104_setup_t net_setup(uint32_t s, uint32_t b = 0, bool wide = false) {
  c104_setup_t su;
  c104_setup_default(&su);
  build_table(s, &su, b, wide);
  su.port[kLoop].del = 2;  // the loopback input strips the random header (§11.3)
  return su;
}

// ---- Signal table (as the single-switch lockstep's, one instance per switch) ---------------
std::vector<Sig> make_sigs() {
  std::vector<Sig> s;
  auto add = [&](const std::string &n, uint32_t c, uint32_t w, lockstep::Dir d) {
    if (c == 1) {
      s.push_back({n, w, d});
      return;
    }
    for (uint32_t k = 0; k < c; k++) s.push_back({n + "[" + std::to_string(k) + "]", w, d});
  };
#define XI(n, c, w) add(#n "_i", c, w, lockstep::kIn);
#define XO(n, c, w) add(#n "_o", c, w, lockstep::kOut);
#define XR(n, c, w) add(#n "_q", c, w, lockstep::kReg);
#define XL(n, w) add("l_" #n "_q", kN, w, lockstep::kReg);
  C104_INPUTS(XI)
  C104_OUTPUTS(XO)
  if (LOCKSTEP_CMP_REGS) {
    C104_REGS(XR)
    C104_LINK_REGS(XL)
  }
#undef XI
#undef XO
#undef XR
#undef XL
  return s;
}

struct TimedTok {
  Tok t;
  uint64_t at;
};

// tok_tx_ready of a token endpoint, rx_ready of a bit-level one: a percentage and stalls.
struct Ready {
  uint32_t pct = 100;
  uint32_t stall_pm = 0;  // per 100000 cycles
  uint64_t stall_until = 0;
};

// Random traffic of one endpoint.
struct Gen {
  bool on = false;
  rng_t rng{};
  uint32_t rate = 20, maxlen = 40, long_pm = 10, bad_pm = 30, stray_pm = 10, gap_pct = 20;
  uint32_t seq = 0;
};

// An endpoint: a packet source into its port and a sink of what the port sends. A token port's
// tokens are offered as a receive FIFO would (the head stays until popped, a gap after a pop); a
// bit-level port's go through a C dslink end.
struct Ep {
  uint32_t s = 0, p = 0;
  bool tok = true;
  std::deque<TimedTok> q;
  uint32_t gap = 0;
  dslink_state_t st{};
  dslink_out_t out{};
  dslink_next_t nx{};
  dslink_in_t li{};
  uint32_t link_en = 1;
  Ready rdy;
  Gen gen;
  std::vector<Tok> asm_;
  uint64_t asm_t = 0;
  std::vector<std::pair<std::vector<Tok>, uint64_t>> got;  // packets received, cycle of the first token
  std::vector<uint64_t> pops;                              // cycles a token entered the switch
  uint32_t lfsr = C104_LFSR_SEED, rlo = 0, rhi = 0;        // reference draws of an rnd input
};

struct Options {
  std::string test = "random";
  uint64_t seed = 1, cycles = 30000;
  bool waves = false;
  std::string wave_dir = "waves";
};

// What a random packet should do (the scoreboard).
struct Expect {
  int dst = -1;  // endpoint
  std::vector<Tok> toks;
};

class Net {
 public:
  Net(const Options &o, VerilatedContext *ctx) : o_(o), h_("c104net", o.seed, o.test), ctx_(ctx) {
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
    rng_seed(&rng_, o.seed, 0);
    rng_seed(&junk_, o.seed, 0x1a2bu);
    for (uint32_t e = 0; e < kEpN; e++) {
      Ep &x = ep_[e];
      x.s = ep_sw(e), x.p = ep_port(e), x.tok = tokp(x.p);
      rng_seed(&x.gen.rng, o.seed, 100 + e);
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
    for (uint32_t s = 0; s < kSw; s++) {
      c104_in_t &in = in_[s];
      in = c104_in_t{};
      wr[s] = !held && !cfgq_[s].empty() && cfgq_[s].front().at <= cyc_;
      if (wr[s]) in.cfg_we = 1, in.cfg_addr = cfgq_[s].front().addr, in.cfg_wdata = cfgq_[s].front().data;
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
    }
    junk_inputs();
    for (uint32_t s = 0; s < kSw; s++)
      if (c104_eval(&cfg_, &st_[s], &in_[s], &mo_[s], &nx_[s]))
        fatal("C model invariant broken in sw" + std::to_string(s) + " (see above)");
    {
      std::vector<uint32_t> a(kSw * kN * 1);
#define XI(n, c, w)                                                                  \
  for (uint32_t s = 0; s < kSw; s++)                                                 \
    for (uint32_t k = 0; k < (c); k++) a[s * (c) + k] = C104_AT(in_[s].n, c, k);     \
  pack(rtl_->n##_i, a.data(), kSw * (c), w);
      C104_INPUTS(XI)
#undef XI
    }
    for (uint32_t s = 0; s < kSw; s++) {  // the wrapper takes the wired ports' D/S from the links
      rtl_->d_i[s] ^= rng_next(&junk_) & 0x1Fu;
      rtl_->s_i[s] ^= rng_next(&junk_) & 0x1Fu;
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
  [[noreturn]] void fatal(const std::string &what) {
    h_.flush();
    std::printf("c104net: FAILED test %s seed %" PRIu64 " at cycle %" PRIu64 ": %s\n", o_.test.c_str(),
                o_.seed, cyc_, what.c_str());
    std::exit(1);
  }
  void expect(bool ok, const std::string &what) {
    if (!ok) fatal("check failed: " + what);
  }
  template <class A, class B>
  void expect_eq(const A &got, const B &want, const std::string &what) {
    if ((uint64_t)got != (uint64_t)want)
      fatal("check failed: " + what + " = " + std::to_string((uint64_t)got) + ", expected " +
            std::to_string((uint64_t)want));
  }
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
  bool quiet() const {
    for (uint32_t s = 0; s < kSw; s++) {
      if (st_[s].r.out_busy || !cfgq_[s].empty()) return false;
      for (uint32_t p = 0; p < kN; p++) {
        if (st_[s].r.sl_st[p] != C104_IDLE) return false;
        const dslink_regs_t &l = st_[s].link[p].r;
        if (!tokp(p) && (l.txf_cnt || l.rxf_cnt || l.tx_open)) return false;
      }
    }
    for (const Ep &x : ep_) {
      if (!x.q.empty() || !x.asm_.empty()) return false;
      if (!x.tok && (x.st.r.txf_cnt || x.st.r.rxf_cnt || x.st.r.tx_open)) return false;
    }
    return true;
  }
  std::string pending() const {
    std::string r;
    for (uint32_t s = 0; s < kSw; s++) {
      for (uint32_t p = 0; p < kN; p++) {
        const uint32_t st = st_[s].r.sl_st[p];
        if (st != C104_IDLE)
          r += "; sw" + std::to_string(s) + " slice " + std::to_string(p) + " " + c104_sl_state_name(st) +
               (st == C104_WAIT ? " for " + std::to_string(st_[s].r.sl_grp[p])
                                : " on " + std::to_string(st_[s].r.sl_port[p]));
        const dslink_regs_t &l = st_[s].link[p].r;
        if (!tokp(p) && (l.txf_cnt || l.rxf_cnt))
          r += "; sw" + std::to_string(s) + " link " + std::to_string(p) + " txf " +
               std::to_string(l.txf_cnt) + " rxf " + std::to_string(l.rxf_cnt);
      }
    }
    for (uint32_t e = 0; e < kEpN; e++)
      if (!ep_[e].q.empty()) r += "; endpoint " + epname(e) + " holds " + std::to_string(ep_[e].q.size()) + " tokens";
    return r;
  }
  void drain(uint64_t limit = 40000) {
    for (Ep &x : ep_) x.gen.on = false, x.rdy = Ready{};
    ready_fn_ = nullptr;
    uint64_t calm = 0;
    for (uint64_t k = 0; calm < 50; k++) {
      if (k == limit) fatal("traffic stopped: the network did not drain in " + std::to_string(limit) +
                            " cycles" + pending());
      cycle();
      calm = quiet() ? calm + 1 : 0;
    }
  }
  void finish() {
    h_.close();
    std::printf("c104net: matched %" PRIu64 " cycles (seed %" PRIu64 ")\n", cyc_, o_.seed);
  }

  // ---- Random traffic and its scoreboard ---------------------------------------------------
  // Follows a packet through the tables (hop()): the grants per switch, the loopback passes,
  // where it is delivered (-1: a bad header, discarded where it misses).
  int route_ref(uint32_t s, std::vector<uint32_t> hdrs, uint64_t *grants, uint64_t *loops) {
    bool looped = false;
    for (int guard = 0; guard < 16; guard++) {
      const int port = hop(s, hdrs.front(), hb_, random_);
      if (port < 0) return -1;
      grants[s]++;
      if (looped) loops[s]++;  // granted at the loopback input (cnt_pkt[4])
      looped = port == (int)kLoop;
      if (looped) {
        hdrs.erase(hdrs.begin());  // stripped by the loopback input (del 2)
        if (hdrs.empty()) return -1;
        continue;
      }
      if (port >= 5) return (int)ep_of(s, (uint32_t)port);
      s = nbr(s, (uint32_t)port);
    }
    fatal("route_ref: a routing loop");
  }
  void gen_packet(uint32_t e) {
    Ep &x = ep_[e];
    Gen &G = x.gen;
    rng_t *g = &G.rng;
    if (rng_chance(g, G.stray_pm, 1000)) {
      send(e, cyc_ + 1, {rng_chance(g, 1, 2) ? EOP : EOM});
      stray_++;
      return;
    }
    uint32_t h;
    if (rng_chance(g, G.bad_pm, 1000)) {
      const uint32_t r = rng_below(g, hb_ ? 4 : 3);
      // (from a 2-byte-header input only in its own switch: the next would read its first byte)
      const uint32_t sw = su_[x.s].port[x.p].hdr2 ? x.s : rng_below(g, kSw);
      h = r == 0   ? hb_ + 16 * sw + rng_below(g, 5)  // an unused local port
          : r == 1 ? hb_ + 64 + rng_below(g, 64)                     // a discard entry
          : r == 2 ? hb_ + 0x84 + rng_below(g, 0x7C - hb_)           // above the last entry
                   : rng_below(g, hb_);                              // below the first
    } else if (su_[x.s].port[x.p].hdr2 && rng_chance(g, 1, 2)) {
      h = 0x100 + rng_below(g, 0xFF00);
    } else if (e >= kEpA && (su_[x.s].port[x.p].hdr2 || rng_chance(g, 3, 4))) {
      // most of the other token ports' packets stay in their switch, to the group of port 9, 5, 8,
      // 20, 11, 26 or 28 (some the same group), so that many outputs of a group are busy at once
      static const uint32_t kLoc[12] = {9, 9, 9, 5, 8, 12, 12, 14, 13, 13, 15, 15};
      h = hb_ + 16 * x.s + kLoc[rng_below(g, 12)];
    } else {
      h = hb_ + hdr_of(rng_below(g, kEpA));
    }
    std::vector<Tok> v = {D(h), D(e), D(G.seq & 0xFF), D(G.seq >> 8)};
    if (su_[x.s].port[x.p].hdr2) v[0] = D(h & 0xFF), v.insert(v.begin(), D(h >> 8));  // high byte first (§9.1)
    G.seq++;
    uint32_t len = rng_below(g, G.maxlen + 1);
    if (rng_chance(g, G.long_pm, 1000)) len = 100 + rng_below(g, 101);
    for (uint32_t k = 0; k < len; k++) v.push_back(D(rng_below(g, 256)));
    v.push_back(rng_chance(g, 1, 2) ? EOP : EOM);
    std::vector<uint32_t> hdrs = {h};
    if (su_[x.s].port[x.p].rnd) {  // the draw this packet will get (§11.2), in order per input
      const uint32_t r = ref_rand(x.lfsr, x.rlo, x.rhi) & 0xFFu;
      x.lfsr = ref_lfsr_next(x.lfsr);
      hdrs.insert(hdrs.begin(), r);
    }
    const int dst = route_ref(x.s, hdrs, grants_, loops_);
    if (dst < 0) bad_++;
    else exp_[(uint32_t)e << 16 | (G.seq - 1)] = Expect{dst, v};
    send(e, cyc_ + 1, v);
    made_++;
  }
  void check_delivery(uint32_t e, const std::vector<Tok> &R) {
    if (!random_) return;
    if (R.size() < 5 || tend(R[1]) || tend(R[2]) || tend(R[3]))
      fatal("scoreboard: endpoint " + epname(e) + " received " + tstr(R) + ", not a packet of the sources");
    // source and sequence number after the header: 1 byte, or 2 from an input with hdr2 (the
    // packet that matches at either place, byte for byte)
    auto key_at = [&](size_t o) { return tdata(R[o]) << 16 | tdata(R[o + 2]) << 8 | tdata(R[o + 1]); };
    auto it = exp_.find(key_at(1));
    if ((it == exp_.end() || it->second.toks != R) && R.size() >= 6 && !tend(R[4])) {
      auto it2 = exp_.find(key_at(2));
      if (it2 != exp_.end() && it2->second.toks == R) it = it2;
    }
    if (it == exp_.end())
      fatal("scoreboard: endpoint " + epname(e) + " received " + tstr(R) + ": not expected (again, or a bad header)");
    const uint32_t d = (uint32_t)it->second.dst, grp = su_[ep_sw(d)].grp;
    const bool in_group = ep_sw(d) == ep_[e].s && leader_of(grp, ep_port(d)) == leader_of(grp, ep_[e].p);
    if (!in_group || it->second.toks != R)
      fatal("scoreboard: endpoint " + epname(e) + " received " + tstr(R) + ", expected " +
            tstr(it->second.toks) + " at " + epname((uint32_t)it->second.dst));
    exp_.erase(it);
    delivered_++;
    if (e >= kEpA) delivered_x_++;
  }

  // ---- State -------------------------------------------------------------------------------
  const Options &o_;
  lockstep::Harness h_;
  VerilatedContext *ctx_;
  std::vector<Sig> sigs_;
  lockstep::Instance inst_[kSw];
  std::unique_ptr<Vc104net> rtl_;
  c104_cfg_t cfg_{};
  c104_state_t st_[kSw]{};
  c104_next_t nx_[kSw]{};
  c104_in_t in_[kSw]{};
  c104_out_t mo_[kSw]{};
  c104_setup_t su_[kSw]{};
  rng_t rng_{};
  uint64_t cyc_ = 0, t0_ = 0, moved_ = 0;
  bool links_started_ = false, random_ = false;
  uint32_t link_en_[kSw][kN] = {};
  struct CfgW {
    uint32_t addr, data;
    uint64_t at;
  };
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
    Ready &r = x.rdy;
    if (r.stall_until > cyc_) return 0;
    if (r.stall_pm && rng_chance(&rng_, r.stall_pm, 100000)) {
      r.stall_until = cyc_ + 1 + rng_below(&rng_, 300);
      return 0;
    }
    return r.pct >= 100 ? 1u : (uint32_t)rng_chance(&rng_, r.pct, 100);
  }

  void collect() {
    for (uint32_t s = 0; s < kSw; s++) {
      std::vector<uint64_t> &R = inst_[s].rtl, &M = inst_[s].model;
      size_t i = 0;
#define XI(n, c, w) \
  for (uint32_t k = 0; k < (c); k++, i++) R[i] = M[i] = C104_AT(in_[s].n, c, k);
#define XO(n, c, w)                                          \
  for (uint32_t k = 0; k < (c); k++, i++) {                  \
    R[i] = field(rtl_->n##_o, (s * (c) + k) * (w), (w));     \
    M[i] = C104_AT(mo_[s].n, c, k);                          \
  }
#define XR(n, c, w)                                          \
  for (uint32_t k = 0; k < (c); k++, i++) {                  \
    R[i] = field(rtl_->dbg_##n##_o, (s * (c) + k) * (w), (w)); \
    M[i] = C104_AT(st_[s].r.n, c, k);                        \
  }
#define XL(n, w)                                             \
  for (uint32_t k = 0; k < kN; k++, i++) {                   \
    R[i] = field(rtl_->dbg_l_##n##_o, (s * kN + k) * (w), (w)); \
    M[i] = st_[s].link[k].r.n;                               \
  }
      C104_INPUTS(XI)
      C104_OUTPUTS(XO)
#if LOCKSTEP_CMP_REGS
      C104_REGS(XR)
      C104_LINK_REGS(XL)
#endif
#undef XI
#undef XO
#undef XR
#undef XL
    }
  }

  [[noreturn]] void mismatch() {
    h_.flush();
    std::printf("c104net: FAILED test %s seed %" PRIu64 " at cycle %" PRIu64 "\n", o_.test.c_str(),
                o_.seed, cyc_);
    if (!o_.waves)
      std::printf("c104net: the run is deterministic; rerun with --waves for both VCDs: --test %s "
                  "--seed %" PRIu64 " --cycles %" PRIu64 " --waves\n",
                  o_.test.c_str(), o_.seed, o_.cycles);
    std::exit(1);
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
          x.gap = x.gen.on && rng_chance(&x.gen.rng, x.gen.gap_pct, 100) ? 1 + rng_below(&x.gen.rng, 4) : 0;
        } else if (x.gap) {
          x.gap--;
        }
        if (mo.tok_tx_valid[x.p] && in.tok_tx_ready[x.p]) out_token(x, e, TK(mo.tok_tx_kind[x.p], mo.tok_tx_data[x.p]));
      } else {
        if (x.li.tx_valid && x.out.tx_ready) x.q.pop_front(), moved_++;
        if (x.out.rx_valid && x.li.rx_ready) out_token(x, e, TK(x.out.rx_kind, x.out.rx_data));
        if (st_[x.s].link[x.p].r.rxf_rptr != rptr_[x.s][x.p]) x.pops.push_back(cyc_), moved_++;
      }
      if (x.gen.on && x.q.size() < 3 && rng_chance(&x.gen.rng, 1, x.gen.rate)) gen_packet(e);
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
  static constexpr uint32_t kSlCnt = 5;
  uint16_t(c104_regs_t::*const kSlF[kSlCnt])[C104_PORTS] = {&c104_regs_t::cnt_pkt, &c104_regs_t::cnt_bad,
                                                            &c104_regs_t::cnt_short, &c104_regs_t::cnt_cut,
                                                            &c104_regs_t::cnt_stray};
  void start_walk() {
    static const char *const rtl[kSlCnt] = {"cnt_pkt_q", "cnt_bad_q", "cnt_short_q", "cnt_cut_q", "cnt_stray_q"};
    for (uint32_t s = 0; s < kSw; s++) {
      const std::string sw = "g_sw[" + std::to_string(s) + "].u_sw.";
      for (uint32_t i = 0; i < kN; i++)
        for (uint32_t k = 0; k < kSlCnt; k++)
          walk_.add(sw + "g_slice[" + std::to_string(i) + "].u_slice." + rtl[k], &(st_[s].r.*kSlF[k])[i]);
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
    const uint32_t v = (st_[s].r.*kSlF[k])[i];
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
  rng_t junk_{};
  void junk_inputs() {
    for (uint32_t s = 0; s < kSw; s++) {
      c104_in_t &in = in_[s];
      const uint32_t a = rng_next(&junk_), b = rng_next(&junk_);
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
  auto r = [&n] { return (uint32_t)rng_next(&n.rng_); };
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
  rng_t *g = &n.rng_;
  scramble_cfg(n);
  n.hb_ = rng_below(g, 0x7C);
  for (uint32_t s = 0; s < kSw; s++) {
    su[s] = net_setup(s, n.hb_, true);
    su[s].rr = rng_below(g, 2);
    if (mode == 0) su[s].grp = ~((1u << 1) | (1u << 3));
    // Three switches in four: ports 6, 7 in the hunt group of 5, and either 10-19 in that of 9,
    // 21-25 in that of 20, 27-31 in that of 26, or 10 in that of 9, 12-19 in that of 11, 21-27 in
    // that of 20, 29-31 in that of 28 (local headers 16 s + 12..15 name 20, 11, 26, 28 in random
    // runs), so every token port is a sink as well as a source, and groups start at even and odd
    // ports, in a group's middle or at its head.
    if (rng_chance(g, 3, 4))
      su[s].grp = (su[s].grp & ~(0xFFFFFC00u | 3u << 6)) | 1u << 20 |
                  (rng_chance(g, 1, 2) ? 1u << 26 : 1u << 11 | 1u << 28);
    // One other token port in four takes 2-byte headers (and no universal routing): its packets
    // stay in the switch, some with a header above 255 (the table's last entry: port 9's group).
    for (uint32_t p = 10; p < kN; p++) su[s].port[p].hdr2 = rng_chance(g, 1, 4);
    for (uint32_t p = 5; p < kN; p++) {
      if (su[s].port[p].hdr2) continue;
      if (mode == 0 || (mode == 2 && rng_chance(g, 1, 2))) continue;
      su[s].port[p].rnd = 1;
      const uint32_t a = rng_below(g, kSw), b = rng_below(g, kSw);
      su[s].port[p].rlo = n.hb_ + kR0 + (rng_chance(g, 3, 4) ? 0 : std::min(a, b));
      su[s].port[p].rhi = n.hb_ + kR0 + (rng_chance(g, 3, 4) ? kSw - 1 : std::max(a, b));
      su[s].port[p].seed = rng_below(g, 0x10000);
    }
    // Any values where the switch does not look (§9.1, §11.2): the entries past cfg_nint, the
    // range and seed of an input without universal routing; the registers hold them all the same.
    for (uint32_t k = su[s].nint; k < 32; k++)
      su[s].ival[k] = {rng_below(g, 0x10000), rng_below(g, 32), rng_below(g, 2)};
    for (uint32_t p = 0; p < kN; p++)
      if (!su[s].port[p].rnd)
        su[s].port[p].rlo = rng_below(g, 0x10000), su[s].port[p].rhi = rng_below(g, 0x10000),
        su[s].port[p].seed = rng_below(g, 0x10000);
  }
  n.load(su);
  n.random_ = true;
  if (!n.walking()) n.start_walk();
  for (uint32_t e = 0; e < kEpN; e++) {
    Ep &x = n.ep_[e];
    x.gen.on = true;
    x.gen.rate = e >= kEpA ? 20 + rng_below(g, 300) : 1 + rng_below(g, rng_chance(g, 1, 4) ? 150 : 40);
    x.gen.maxlen = rng_chance(g, 1, 4) ? rng_below(g, 4) : 40;
    x.gen.long_pm = rng_below(g, 30);
    x.gen.bad_pm = rng_below(g, 60);
    x.gen.stray_pm = rng_below(g, 20);
    x.gen.gap_pct = rng_below(g, 50);
    const uint32_t pcts[4] = {100, 90, 60, 30};
    x.rdy.pct = pcts[rng_below(g, 4)];
    x.rdy.stall_pm = rng_below(g, 40);
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
  rng_t *g = &n.rng_;
  for (uint32_t k = 0; k < 3; k++) {
    n.run(1500 + rng_below(g, 2500));
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

struct TestDef {
  const char *name;
  std::function<void(Net &)> fn;
  const char *what;
};
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

Options parse(int argc, char **argv, bool *list) {
  Options o;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto val = [&](const char *what) -> std::string {
      if (i + 1 >= argc) usage_error(a + " needs " + what);
      return argv[++i];
    };
    auto num = [&](const char *what) -> uint64_t {
      std::string v = val(what);
      char *end = nullptr;
      unsigned long long x = std::strtoull(v.c_str(), &end, 0);
      if (v.empty() || *end || v[0] == '-') usage_error(a + ": '" + v + "' is not a number");
      return x;
    };
    if (a == "--test") o.test = val("a test name");
    else if (a == "--seed") o.seed = num("a seed");
    else if (a == "--cycles") o.cycles = num("a cycle count");
    else if (a == "--waves") o.waves = true;
    else if (a == "--wave-dir") o.wave_dir = val("a directory");
    else if (a == "--list") *list = true;
    else if (a == "--help" || a == "-h") {
      std::printf("usage: c104_net_lockstep [--test NAME] [--seed S] [--cycles N] [--waves] [--wave-dir D]\n"
                  "                         [--list] [+mutant=K]\n"
                  "Runs four C104 switches (RTL, TokPorts 0x%08x) in a 2 x 2 grid against the C model\n"
                  "in lockstep; --cycles applies to random.\n", kTok);
      std::exit(0);
    } else if (a[0] == '+') continue;
    else usage_error("unknown option '" + a + "'");
  }
  if (o.cycles < 1000) usage_error("--cycles must be at least 1000");
  return o;
}

}  // namespace

int main(int argc, char **argv) {
  bool list = false;
  Options o = parse(argc, argv, &list);
  if (list) {
    for (const TestDef &t : tests()) std::printf("%-10s %s\n", t.name, t.what);
    return 0;
  }
  const TestDef *def = nullptr;
  for (const TestDef &t : tests())
    if (o.test == t.name) def = &t;
  if (!def) usage_error("unknown test '" + o.test + "' (--list shows them)");
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  auto n = std::make_unique<Net>(o, ctx.get());
  if (n->open_waves()) return 2;
  n->reset();
  def->fn(*n);
  n->finish();
  lockstep::cov_write(ctx.get());
  return 0;
}
