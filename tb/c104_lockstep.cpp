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
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "Vc104.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_vcd_c.h"
#endif

#include "backdoor.h"
#include <madpost/c104.h>
#include "c104_common.h"
#include <madpost/dslink.h>
#include "dslink_counters.h"
#include "lockstep.h"
#include <madpost/rng.h>

// The RTL's TokPorts parameter (the build passes the same value to both).
#ifndef C104_TOK_PORTS
#define C104_TOK_PORTS 0xFFFFFFF0u
#endif
#ifndef LOCKSTEP_CMP_REGS
#define LOCKSTEP_CMP_REGS 1
#endif

using lockstep::Sig;

namespace {

constexpr uint32_t kN = C104_PORTS;
constexpr uint32_t kTok = (uint32_t)(C104_TOK_PORTS);
inline bool tokp(uint32_t p) { return (kTok >> p) & 1u; }

[[noreturn]] void usage_error(const std::string &m) { lockstep::usage_error("c104_lockstep", m); }

using namespace c104tb;

// ---- Signal table and packed-vector access ---------------------------------------------------
// One signal per element of a count-32 entry (name[k]); the link registers of every port as
// l_<reg>_q[k] (0 on token ports, §14).
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

// ---- Wire faults (as the DS-Link testbench's) ------------------------------------------------
struct Fault {
  enum Kind { kNoFault, kFlipD, kFlipS, kStuckD, kStuckS, kCut } kind = kNoFault;
  uint64_t until = 0;
  uint32_t level = 0, fd = 0, fs = 0;
  uint64_t count = 0;
  void start(Kind k, uint64_t now, uint64_t len, uint32_t lvl, uint32_t d, uint32_t s) {
    kind = k, until = now + len, level = lvl, fd = d, fs = s;
    count++;
  }
  void apply(uint64_t now, uint32_t *d, uint32_t *s) {
    if (kind != kNoFault && now >= until) kind = kNoFault;
    switch (kind) {
      case kFlipD: *d ^= 1u; break;
      case kFlipS: *s ^= 1u; break;
      case kStuckD: *d = level; break;
      case kStuckS: *s = level; break;
      case kCut: *d = fd, *s = fs; break;
      default: break;
    }
  }
  bool active() const { return kind != kNoFault; }
};

// ---- Peers -----------------------------------------------------------------------------------
struct TimedTok {
  Tok t;
  uint64_t at;  // first cycle it may be offered
};

// A token port's link end: tokens offered to the switch in order (the head stays until popped,
// as a receive FIFO's does), a gap after each pop, and what the port sends is taken with a
// random tx_ready. A looped port offers again what it sent, loop_delay cycles later, and holds
// at most RxDepth + TxDepth tokens.
struct TokPort {
  std::deque<TimedTok> rxq;
  uint32_t gap = 0;
  bool loop = false;
  uint32_t loop_delay = 2;
};

// A bit-level port's peer: a C dslink end with a user-side queue, or a loop (no peer).
struct BitPort {
  bool peer = false, loop = false;
  dslink_state_t st{};
  dslink_out_t out{};
  dslink_next_t nx{};
  dslink_in_t li{};
  std::deque<TimedTok> txq;
  uint32_t link_en = 1;
  uint32_t valid_pct = 100;
  Fault to_sw, to_peer;
};

// Random packet source of one port (random tests).
struct Gen {
  bool on = false;
  rng_t rng{};
  uint32_t rate = 10;          // a new packet with chance 1/rate per cycle when the queue is short
  uint32_t maxlen = 40;        // data bytes 0..maxlen
  uint32_t long_pm = 10;       // per mille: 100..300 data bytes
  uint32_t err_pm = 20;        // per mille: ended by ERR
  uint32_t short_pm = 20;      // per mille: ends inside its header
  uint32_t stray_pm = 15;      // per mille: a lone end token
  uint32_t gap_pct = 30, gap_max = 4, pause_pm = 5;
  uint64_t made = 0;
};

// tok_tx_ready of a token port, rx_ready of a bit-level peer: a percentage and stalls.
struct Ready {
  uint32_t pct = 100;
  uint32_t stall_pm = 0;  // per 100000 cycles: a stall of 1..300 cycles starts
  uint64_t stall_until = 0;
};

// ---- Reference of §9-§12 (the scoreboard) ----------------------------------------------------
// Decoded from the configuration writes independently of the C model; the lookup, leaders, the
// LFSR and the range map are written again from the text.
struct RefCfg {
  uint32_t hdr2[kN] = {}, del[kN] = {}, rnd[kN] = {}, rlo[kN] = {}, rhi[kN] = {};
  uint32_t ihi[kN] = {}, iport[kN] = {}, ival[kN] = {};
  uint32_t nint = 0, rr = 0, grp = 0xFFFFFFFFu;

  uint32_t H(uint32_t p) const { return hdr2[p] ? 2u : 1u; }
  uint32_t dele(uint32_t p) const { return rnd[p] ? 0u : (del[p] == 3 ? 0u : del[p]); }
  uint32_t leader(uint32_t q) const {
    for (uint32_t l = q; l > 0; l--)
      if ((grp >> l) & 1u) return l;
    return 0;
  }
  bool in_group(uint32_t g, uint32_t o) const { return leader(o) == g; }
  bool lookup(uint32_t x, uint32_t *port, uint32_t *ldr) const {
    const uint32_t n = nint < 32 ? nint : 32;
    for (uint32_t e = 0; e < n; e++) {
      if (x > ihi[e]) continue;
      if (!ival[e]) return false;
      *port = iport[e];
      *ldr = leader(iport[e]);
      return true;
    }
    return false;
  }
};

struct RPkt {
  uint32_t in = 0, leader = 0;
  std::vector<Tok> toks;  // what must leave: emitted header bytes, then the forwarded tokens
  bool done = false;
  int port = -1;          // the output granted
  uint64_t born = 0;
};
using RP = std::shared_ptr<RPkt>;

struct RefIn {
  enum St { kIdle, kHdr, kFwd, kDisc } st = kIdle;
  uint32_t hcnt = 0, skip = 0, hi = 0, lfsr = C104_LFSR_SEED;
  RP cur;
  uint32_t fwd = 0;           // tokens of cur forwarded after its header
  std::deque<RP> unpaired;    // routed, not yet granted (at most one)
  uint64_t pkt = 0, bad = 0, shrt = 0, cut = 0, stray = 0;
  uint32_t inj[5] = {};  // what the counter walk added to pkt, bad, shrt, cut, stray (mod 2^16)
};

#ifndef LOCKSTEP_TOP
#define LOCKSTEP_TOP "c104"
#endif
// The slices' 16-bit event counters, by RTL name and C model array: the random runs walk each
// through every carry by setting it on both sides (tb/backdoor.h CounterWalk); the scoreboard adds
// what was set (RefIn::inj), so its end check still holds.
struct CounterReg {
  const char *rtl;
  uint16_t (c104_regs_t::*f)[C104_PORTS];
};
const CounterReg kCounters[5] = {
    {"cnt_pkt_q", &c104_regs_t::cnt_pkt},     {"cnt_bad_q", &c104_regs_t::cnt_bad},
    {"cnt_short_q", &c104_regs_t::cnt_short}, {"cnt_cut_q", &c104_regs_t::cnt_cut},
    {"cnt_stray_q", &c104_regs_t::cnt_stray},
};

struct Options {
  std::string test = "random";
  uint64_t seed = 1, cycles = 60000;
  bool waves = false, trace_full = false;
  std::string wave_dir = "waves";
};

// The universal-routing plan of a random setup (§11.3): a loopback port and its interval.
struct Plan {
  int loop = -1;
  uint32_t hl = 1;              // H at the loopback input (the random headers' length)
  uint32_t r0 = 0, r1 = 0;      // the headers that route to the loopback port
  uint32_t hmax = 0xFF;         // the table spans [0, hmax]
};

class Tb {
 public:
  Tb(const Options &o, VerilatedContext *ctx) : o_(o), h_("c104", o.seed, o.test), ctx_(ctx) {
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
    rng_seed(&rng_, o.seed, 0);
    for (uint32_t p = 0; p < kN; p++) {
      rng_seed(&gen_[p].rng, o.seed, 100 + p);
      if (!tokp(p)) dslink_reset(&cfg_.link, &bp_[p].st);
    }
    c104_setup_default(&su_);
  }

  // ---- Running ------------------------------------------------------------------------------
  int open_waves() {
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

  void reset() { lockstep::rtl_reset(rtl_.get()); }

  void cycle() {
    // 1. Inputs, from the testbench's registers only (the contracts of §6).
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
      if (tokp(p)) {
        TokPort &t = tp_[p];
        bool v = t.gap == 0 && !t.rxq.empty() && t.rxq.front().at <= cyc_;
        Tok h = v ? t.rxq.front().t : 0;
        wild_tok_[p] = false;
        if (wild_ && !t.loop && rng_chance(&rng_, 1, 40)) {
          // outside the FIFO contract of §6: the head vanishes for a cycle, or another token shows
          if (v && rng_chance(&rng_, 1, 2)) {
            v = false, h = 0;
          } else {
            const uint32_t k = rng_below(&rng_, 4);
            v = true, h = TK(k, k == kData ? rng_below(&rng_, 256) : 0), wild_tok_[p] = true;
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
          in_.link_en[p] = rng_below(&rng_, 2);
          in_.d[p] = rng_below(&rng_, 2);
          in_.s[p] = rng_below(&rng_, 2);
        }
      } else {
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
          in_.tok_rx_valid[p] = rng_below(&rng_, 2);
          in_.tok_rx_kind[p] = rng_below(&rng_, 4);
          in_.tok_rx_data[p] = rng_below(&rng_, 256);
          in_.tok_tx_ready[p] = rng_below(&rng_, 2);
        }
      }
    }
    // 2. Both sides evaluate; everything is compared.
    if (c104_eval(&cfg_, &st_, &in_, &mo_, &nx_)) fatal("C model invariant broken (see above)");
#define XI(n, c, w) pack(rtl_->n##_i, &C104_AT(in_.n, c, 0), c, w);
    C104_INPUTS(XI)
#undef XI
    rtl_->eval();
    collect();
    if (h_.check(cyc_)) mismatch();
    // 3. The peers see the C model's d_o/s_o (equal to the RTL's: just compared).
    for (uint32_t p = 0; p < kN; p++) {
      if (tokp(p) || !bp_[p].peer) continue;
      BitPort &b = bp_[p];
      b.li = dslink_in_t{};
      uint32_t d = mo_.d[p], s = mo_.s[p];
      b.to_peer.apply(cyc_, &d, &s);
      b.li.d = d, b.li.s = s;
      b.li.link_en = b.link_en;
      if (!b.txq.empty() && b.txq.front().at <= cyc_ && rng_chance(&rng_, b.valid_pct, 100)) {
        b.li.tx_valid = 1;
        b.li.tx_kind = tkind(b.txq.front().t);
        b.li.tx_data = tdata(b.txq.front().t);
      }
      b.li.rx_ready = ready(p);
      if (dslink_eval(&cfg_.link, &b.st, &b.li, &b.out, &b.nx, nullptr))
        fatal("peer dslink model invariant broken on port " + std::to_string(p));
    }
    uint16_t cnt_pkt[kN];
    uint8_t was_run[kN];
    for (uint32_t i = 0; i < kN; i++) {
      cnt_pkt[i] = st_.r.cnt_pkt[i];
      was_run[i] = st_.link[i].r.fsm_state == DSLINK_ST_RUN;
    }
    // 4. The edge.
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
    // 5. What moved in the cycle just run.
    observe(wr, cnt_pkt, was_run);
    if (wr) cfgq_.pop_front();
    walk_counters();
    cyc_++;
  }

  // The random runs walk the slices' counters through their carries (see kCounters), and the
  // bit-level ports' link counters (tb/dslink_counters.h). Counter k of slice i is walk index
  // 5 i + k; the links' follow, their (port, counter) in link_walk_.
  void start_walk() {
    for (uint32_t i = 0; i < kN; i++)
      for (const CounterReg &c : kCounters)
        walk_.add("g_slice[" + std::to_string(i) + "].u_slice." + c.rtl, &(st_.r.*c.f)[i]);
    for (uint32_t p = 0; p < kN; p++)
      for (size_t k = 0; k < dslinktb::kNCounters && !tokp(p); k++) {
        const dslinktb::CounterReg &c = dslinktb::kCounters[k];
        walk_.add("g_port[" + std::to_string(p) + "].g_link.u_link." + c.rtl, &(st_.link[p].r.*c.f));
        link_walk_.push_back({p, k});
      }
    walk_.open(ctx_, rtl_.get(), LOCKSTEP_TOP);
  }
  void walk_counters() {
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
  uint32_t link_events(uint32_t p, uint32_t dslink_regs_t::*f) const {
    for (size_t k = 0; k < dslinktb::kNCounters; k++)
      if (dslinktb::kCounters[k].f == f) return (st_.link[p].r.*f - link_added_[p][k]) & 0xFFFFu;
    return st_.link[p].r.*f;
  }

  void run(uint64_t n) {
    for (uint64_t k = 0; k < n; k++) cycle();
  }
  void run_to(uint64_t t) {
    while (cyc_ < t) cycle();
  }
  uint64_t T(uint64_t k) const { return t0_ + k; }

  // Resets the switch in the middle of a run (rst_ni held over `hold` rising edges), RTL and C
  // model on the same cycle. The reference forgets everything the switch held: the configuration
  // is the reset one, the packets granted and not yet out are lost, partial packets on the
  // outputs are dropped; a bit-level output's peer may still close one with ERR once its link
  // sees the drop (tolerated for a while). The inputs' sources carry on: what they send next,
  // the rest of a packet included, is read by the reference from the pops as by the switch.
  void reset_switch(uint32_t hold) {
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
  uint64_t resets() const { return rst_.count; }

  // ---- Configuration and peers --------------------------------------------------------------
  void write(uint32_t addr, uint32_t data, uint64_t at) { cfgq_.push_back({addr, data, at}); }

  // Loads s through the configuration port, one write a cycle (§7). The first load does so with
  // every link_en_i low, then enables the bit-level ports that have a peer or a loop and waits
  // until those links (and their peers) run. t0_ is the first cycle after.
  void load(const c104_setup_t &s) {
    su_ = s;
    c104_write_t w[C104_SETUP_NWRITES];
    const size_t n = c104_setup_writes(&s, w);
    for (size_t k = 0; k < n; k++) write(w[k].addr, w[k].data, cyc_ + k);
    while (!cfgq_.empty()) cycle();
    reloading_ = false;
    if (!links_started_) {
      links_started_ = true;
      for (uint32_t p = 0; p < kN; p++)
        if (!tokp(p) && (bp_[p].peer || bp_[p].loop)) link_en_[p] = 1;
      wait_links(3000);
    }
    t0_ = cyc_;
  }
  bool links_up() const {
    for (uint32_t p = 0; p < kN; p++) {
      if (tokp(p) || !link_en_[p]) continue;
      if (st_.link[p].r.fsm_state != DSLINK_ST_RUN) return false;
      if (bp_[p].peer && bp_[p].link_en && bp_[p].st.r.fsm_state != DSLINK_ST_RUN) return false;
    }
    return true;
  }
  void wait_links(uint64_t limit) {
    for (uint64_t k = 0; !links_up(); k++) {
      if (k == limit) fatal("bit-level links not in Run after " + std::to_string(limit) + " cycles");
      cycle();
    }
  }
  // Every bit-level port gets a dslink peer (directed cases and random setups may then turn one
  // into a loop).
  void peers_on_bit_ports() {
    for (uint32_t p = 0; p < kN; p++)
      if (!tokp(p)) bp_[p].peer = true, bp_[p].loop = false;
  }
  void set_loop(uint32_t p) {
    if (tokp(p)) {
      tp_[p].loop = true;
    } else {
      bp_[p].loop = true;
      bp_[p].peer = false;
    }
  }

  void send(uint32_t p, uint64_t at, const std::vector<Tok> &toks) {
    for (Tok t : toks) {
      if (tokp(p))
        tp_[p].rxq.push_back({t, at});
      else if (bp_[p].peer)
        bp_[p].txq.push_back({t, at});
      else
        fatal("send on port " + std::to_string(p) + ", which has no peer");
    }
  }

  // ---- Checks ---------------------------------------------------------------------------------
  void expect(bool ok, const std::string &what) {
    if (!ok) fatal("check failed: " + what);
  }
  template <class A, class B>
  void expect_eq(const A &got, const B &want, const std::string &what) {
    if ((uint64_t)got != (uint64_t)want)
      fatal("check failed: " + what + " = " + std::to_string((uint64_t)got) + ", expected " +
            std::to_string((uint64_t)want));
  }
  std::vector<Tok> log_toks(uint32_t o, size_t from = 0) const {
    std::vector<Tok> v;
    for (size_t k = from; k < log_[o].size(); k++) v.push_back(log_[o][k].first);
    return v;
  }
  // Output o's log from entry `from` on: exactly these tokens, and (if given) in these cycles
  // counted from t0_.
  void expect_log(uint32_t o, const std::vector<Tok> &t, const std::vector<uint64_t> &cyc = {},
                  size_t from = 0) {
    const std::vector<Tok> got = log_toks(o, from);
    if (got != t)
      fatal("check failed: output " + std::to_string(o) + " sent " + tstr(got) + ", expected " +
            tstr(t));
    for (size_t k = 0; k < cyc.size(); k++)
      if (log_[o][from + k].second != T(cyc[k]))
        fatal("check failed: output " + std::to_string(o) + " token " + std::to_string(k) +
              " left in cycle t0+" + std::to_string(log_[o][from + k].second - t0_) +
              ", expected t0+" + std::to_string(cyc[k]));
  }
  void expect_pops(uint32_t p, const std::vector<uint64_t> &cyc) {
    std::string got;
    for (uint64_t c : pops_[p]) got += " " + std::to_string(c - t0_);
    std::string want;
    for (uint64_t c : cyc) want += " " + std::to_string(c);
    if (got != want) fatal("check failed: input " + std::to_string(p) + " popped at t0+{" + got +
                           " }, expected {" + want + " }");
  }
  void expect_silent_except(uint32_t mask) {
    for (uint32_t o = 0; o < kN; o++)
      if (!((mask >> o) & 1u) && !log_[o].empty())
        fatal("check failed: output " + std::to_string(o) + " sent " + tstr(log_toks(o)) +
              ", expected nothing");
  }
  void need_ports(uint32_t tok_mask, uint32_t bit_mask) {
    if ((kTok & tok_mask) != tok_mask || (kTok & bit_mask) != 0) {
      std::printf("c104: test %s needs token ports 0x%08x and bit-level ports 0x%08x; this build "
                  "has TokPorts 0x%08x\n", o_.test.c_str(), tok_mask, bit_mask, kTok);
      std::exit(2);
    }
  }

  [[noreturn]] void fatal(const std::string &what) {
    h_.flush();
    std::printf("c104: FAILED test %s seed %" PRIu64 " at cycle %" PRIu64 ": %s\n", o_.test.c_str(),
                o_.seed, cyc_, what.c_str());
    std::exit(1);
  }

  const c104_regs_t &R() const { return st_.r; }
  const dslink_regs_t &L(uint32_t p) const { return st_.link[p].r; }

  // ---- Drain and end checks -----------------------------------------------------------------
  bool quiet() const {
    for (uint32_t p = 0; p < kN; p++) {
      if (st_.r.sl_st[p] != C104_IDLE) return false;
      // a fault can leave a packet open at a peer's receiver (garbage, and nothing after it)
      if (!asm_[p].empty() && !(asm_t_[p] < tolerate_until_ && !tokp(p))) return false;
      if (tokp(p)) {
        if (!tp_[p].rxq.empty()) return false;
      } else {
        const dslink_regs_t &l = st_.link[p].r;
        if (link_en_[p] && (l.txf_cnt || l.rxf_cnt || l.tx_open || l.fsm_state != DSLINK_ST_RUN))
          return false;
        if (bp_[p].peer && (!bp_[p].txq.empty() || bp_[p].st.r.txf_cnt || bp_[p].st.r.rxf_cnt))
          return false;
      }
    }
    return st_.r.out_busy == 0 && cfgq_.empty();
  }
  // Sources off, every output ready: runs until the switch and every link are empty.
  void drain(uint64_t limit = 60000) {
    for (uint32_t p = 0; p < kN; p++) gen_[p].on = false, rdy_[p] = Ready{}, bp_[p].valid_pct = 100;
    wild_ = false;
    ready_fn_ = nullptr;
    uint64_t calm = 0;
    for (uint64_t k = 0; calm < 50; k++) {
      if (k == limit) fatal("traffic stopped: the switch did not drain in " + std::to_string(limit) +
                            " cycles" + pending_str());
      cycle();
      calm = quiet() ? calm + 1 : 0;
    }
  }
  std::string pending_str() const {
    std::string s;
    for (uint32_t p = 0; p < kN; p++) {
      if (st_.r.sl_st[p] != C104_IDLE)
        s += "; slice " + std::to_string(p) + " in " + c104_sl_state_name(st_.r.sl_st[p]) +
             (st_.r.sl_st[p] == C104_WAIT ? " for leader " + std::to_string(st_.r.sl_grp[p])
              : st_.r.sl_st[p] == C104_EMIT || st_.r.sl_st[p] == C104_FWD
                  ? " on output " + std::to_string(st_.r.sl_port[p]) : std::string());
      if (tokp(p) && !tp_[p].rxq.empty())
        s += "; input " + std::to_string(p) + " holds " + std::to_string(tp_[p].rxq.size()) + " tokens";
      if (!asm_[p].empty()) s += "; output " + std::to_string(p) + " has sent part of a packet";
      if (!tokp(p) && link_en_[p]) {
        const dslink_regs_t &l = st_.link[p].r;
        if (l.fsm_state != DSLINK_ST_RUN || l.txf_cnt || l.rxf_cnt || l.tx_open)
          s += "; link " + std::to_string(p) + " " + dslink_state_name(l.fsm_state) + " txf " +
               std::to_string(l.txf_cnt) + " rxf " + std::to_string(l.rxf_cnt) + " tx_open " +
               std::to_string(l.tx_open);
        if (bp_[p].peer && (!bp_[p].txq.empty() || bp_[p].st.r.txf_cnt || bp_[p].st.r.rxf_cnt))
          s += "; peer " + std::to_string(p) + " " + dslink_state_name(bp_[p].st.r.fsm_state) +
               " queue " + std::to_string(bp_[p].txq.size()) + " txf " +
               std::to_string(bp_[p].st.r.txf_cnt) + " rxf " + std::to_string(bp_[p].st.r.rxf_cnt);
      }
    }
    if (st_.r.out_busy) s += "; out_busy " + std::to_string(st_.r.out_busy);
    return s;
  }
  // After a drain: every expected packet has left (exactly, on token outputs; on a bit-level
  // output those a link drop lost are counted), and the counters are the reference's.
  void end_checks() {
    for (uint32_t i = 0; i < kN; i++) {
      const RefIn &r = ref_[i];
      if (r.st != RefIn::kIdle) fatal("scoreboard: input " + std::to_string(i) + " not idle at the end");
      if (!r.unpaired.empty())
        fatal("scoreboard: input " + std::to_string(i) + " has a routed packet never granted: " +
              tstr(r.unpaired.front()->toks));
    }
    for (uint32_t o = 0; o < kN; o++) {
      auto &q = Q_[o];
      if (q.empty()) continue;
      if (tokp(o) || !drops_[o])
        fatal("scoreboard: output " + std::to_string(o) + " never sent " + tstr(q.front()->toks) +
              " from input " + std::to_string(q.front()->in) + " (" + std::to_string(q.size()) +
              " missing)");
      lost_ += q.size();
      q.clear();
    }
    for (uint32_t i = 0; i < kN; i++) {
      const RefIn &r = ref_[i];
      const std::string in = " of input " + std::to_string(i);
      expect_eq(st_.r.cnt_pkt[i], (r.pkt + r.inj[0]) & 0xFFFF, "cnt_pkt" + in);
      expect_eq(st_.r.cnt_bad[i], (r.bad + r.inj[1]) & 0xFFFF, "cnt_bad" + in);
      expect_eq(st_.r.cnt_short[i], (r.shrt + r.inj[2]) & 0xFFFF, "cnt_short" + in);
      expect_eq(st_.r.cnt_cut[i], (r.cut + r.inj[3]) & 0xFFFF, "cnt_cut" + in);
      expect_eq(st_.r.cnt_stray[i], (r.stray + r.inj[4]) & 0xFFFF, "cnt_stray" + in);
    }
  }
  std::string totals() const {
    uint64_t pkt = 0, bad = 0, shrt = 0, cut = 0, stray = 0;
    for (const RefIn &r : ref_) pkt += r.pkt, bad += r.bad, shrt += r.shrt, cut += r.cut, stray += r.stray;
    char b[400];
    std::snprintf(b, sizeof b,
                  "%" PRIu64 " packets routed, %" PRIu64 " delivered (%" PRIu64 " cut, %" PRIu64
                  " lost on dropped links), bad %" PRIu64 " short %" PRIu64 " cut %" PRIu64
                  " stray %" PRIu64 ", %" PRIu64 " link drops, %" PRIu64
                  " counter moves from injected values",
                  pkt, delivered_, cut_rx_, lost_, bad, shrt, cut, stray, total_drops(),
                  walk_.carries());
    return b;
  }
  uint64_t total_drops() const {
    uint64_t n = 0;
    for (uint32_t p = 0; p < kN; p++) n += drops_[p];
    return n;
  }

  void finish() {
    h_.close();
#if VM_TRACE
    if (tfp_) tfp_->close();
#endif
    std::printf("c104: matched %" PRIu64 " cycles (seed %" PRIu64 ")\n", cyc_, o_.seed);
  }

  // ---- State (public for the test functions) ----------------------------------------------
  const Options &o_;
  lockstep::Harness h_;
  VerilatedContext *ctx_;
  std::vector<Sig> sigs_;
  lockstep::Instance inst_;
  std::unique_ptr<Vc104> rtl_;
  c104_cfg_t cfg_{};
  c104_state_t st_{};
  c104_next_t nx_{};
  c104_in_t in_{};
  c104_out_t mo_{};
  c104_setup_t su_{};
  rng_t rng_{};
  uint64_t cyc_ = 0, t0_ = 0;
  bool links_started_ = false, junk_ = false, wild_ = false;
  bool wild_tok_[kN] = {};
  bool debug_ = std::getenv("C104_DEBUG") != nullptr;  // every draw, grant, pop and output token
  TokPort tp_[kN];
  BitPort bp_[kN];
  Gen gen_[kN];
  Ready rdy_[kN];
  uint32_t link_en_[kN] = {};
  struct CfgW {
    uint32_t addr, data;
    uint64_t at;
  };
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

 private:
  uint32_t ready(uint32_t p) {
    if (ready_fn_) {
      const int r = ready_fn_(p);
      if (r >= 0) return (uint32_t)r;
    }
    Ready &r = rdy_[p];
    if (r.stall_until > cyc_) return 0;
    if (r.stall_pm && rng_chance(&rng_, r.stall_pm, 100000)) {
      r.stall_until = cyc_ + 1 + rng_below(&rng_, 300);
      return 0;
    }
    return r.pct >= 100 ? 1u : (uint32_t)rng_chance(&rng_, r.pct, 100);
  }

  void collect() {
    std::vector<uint64_t> &R = inst_.rtl, &M = inst_.model;
    size_t i = 0;
#define XI(n, c, w) \
  for (uint32_t k = 0; k < (c); k++, i++) R[i] = M[i] = C104_AT(in_.n, c, k);
#define XO(n, c, w)                               \
  for (uint32_t k = 0; k < (c); k++, i++) {       \
    R[i] = field(rtl_->n##_o, k * (w), (w));      \
    M[i] = C104_AT(mo_.n, c, k);                  \
  }
#define XR(n, c, w)                               \
  for (uint32_t k = 0; k < (c); k++, i++) {       \
    R[i] = field(rtl_->dbg_##n##_o, k * (w), (w)); \
    M[i] = C104_AT(st_.r.n, c, k);                \
  }
#define XL(n, w)                                    \
  for (uint32_t k = 0; k < kN; k++, i++) {          \
    R[i] = field(rtl_->dbg_l_##n##_o, k * (w), (w)); \
    M[i] = st_.link[k].r.n;                         \
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

  [[noreturn]] void mismatch() {
    h_.flush();
#if VM_TRACE
    if (tfp_) tfp_->flush();
#endif
    std::printf("c104: FAILED test %s seed %" PRIu64 " at cycle %" PRIu64 "\n", o_.test.c_str(),
                o_.seed, cyc_);
    if (!o_.waves)
      std::printf("c104: the run is deterministic; rerun with --waves for both VCDs: --test %s "
                  "--seed %" PRIu64 " --cycles %" PRIu64 " --waves\n",
                  o_.test.c_str(), o_.seed, o_.cycles);
    std::exit(1);
  }

  void dump_full(uint64_t t) {
#if VM_TRACE
    if (tfp_) tfp_->dump(t);
#else
    (void)t;
#endif
  }

  // ---- Bookkeeping after the edge ------------------------------------------------------------
  void observe(bool wr, const uint16_t *cnt_pkt, const uint8_t *was_run) {
    // peers' user sides
    for (uint32_t p = 0; p < kN; p++) {
      if (tokp(p)) continue;
      BitPort &b = bp_[p];
      if (was_run[p] && st_.link[p].r.fsm_state != DSLINK_ST_RUN) {
        drops_[p]++;
        if (debug_)
          std::printf("%" PRIu64 " drop %u (txf %u spill %u peer %s; errors sw %u %u %u %u %u %u peer %u %u %u %u %u %u)\n",
                      cyc_, p, st_.link[p].r.txf_cnt, st_.link[p].r.cnt_tx_spill,
                      dslink_state_name(bp_[p].st.r.fsm_state), L(p).cnt_par_err, L(p).cnt_esc_err,
                      L(p).cnt_disc_err, L(p).cnt_cred_err, L(p).cnt_proto_err, L(p).cnt_tmo_err,
                      bp_[p].st.r.cnt_par_err, bp_[p].st.r.cnt_esc_err, bp_[p].st.r.cnt_disc_err,
                      bp_[p].st.r.cnt_cred_err, bp_[p].st.r.cnt_proto_err, bp_[p].st.r.cnt_tmo_err);
      }
      if (debug_ && !was_run[p] && st_.link[p].r.fsm_state == DSLINK_ST_RUN)
        std::printf("%" PRIu64 " up %u\n", cyc_, p);
      if (!b.peer) continue;
      if (b.li.tx_valid && b.out.tx_ready) b.txq.pop_front(), moved_++;
      if (b.out.rx_valid && b.li.rx_ready) out_token(p, TK(b.out.rx_kind, b.out.rx_data));
    }
    // the reference: draws (S2), grants, pops
    for (uint32_t i = 0; i < kN; i++)
      if (ref_[i].st == RefIn::kIdle && rc_.rnd[i] && head_[i] != kNone && !tend(head_[i])) ref_draw(i);
    for (uint32_t i = 0; i < kN; i++)
      if (st_.r.cnt_pkt[i] != cnt_pkt[i]) ref_grant(i, st_.r.sl_port[i]);
    for (uint32_t p = 0; p < kN; p++) {
      bool pop;
      if (tokp(p)) {
        pop = in_.tok_rx_valid[p] && mo_.tok_rx_ready[p];
      } else {
        pop = st_.link[p].r.rxf_rptr != rptr_[p];
        if (pop && head_[p] == kNone) fatal("port " + std::to_string(p) + ": a pop from an empty receive FIFO");
      }
      if (!pop) {
        if (tokp(p) && tp_[p].gap) tp_[p].gap--;
        continue;
      }
      const Tok t = head_[p];
      pops_[p].push_back(cyc_);
      moved_++;
      if (tokp(p)) {
        if (!wild_tok_[p]) tp_[p].rxq.pop_front();  // a wild token is taken instead of the head
        tp_[p].gap = next_gap(p);
      } else if (bp_[p].loop) {
        out_token(p, t);  // what the looped output sent, as it comes back
      }
      ref_pop(p, t);
    }
    // token outputs
    for (uint32_t p = 0; p < kN; p++) {
      if (!tokp(p) || !(mo_.tok_tx_valid[p] && in_.tok_tx_ready[p])) continue;
      const Tok t = TK(mo_.tok_tx_kind[p], mo_.tok_tx_data[p]);
      out_token(p, t);
      if (tp_[p].loop) tp_[p].rxq.push_back({t, cyc_ + 1 + tp_[p].loop_delay});
    }
    if (wr) ref_cfg_write(in_.cfg_addr, in_.cfg_wdata);
    // sources
    for (uint32_t p = 0; p < kN; p++)
      if (gen_[p].on) generate(p);
  }

  uint32_t next_gap(uint32_t p) {
    if (tp_[p].loop || !gen_[p].on) return 0;
    Gen &g = gen_[p];
    if (g.pause_pm && rng_chance(&g.rng, g.pause_pm, 1000)) return 1 + rng_below(&g.rng, 100);
    return rng_chance(&g.rng, g.gap_pct, 100) ? 1 + rng_below(&g.rng, g.gap_max) : 0;
  }

  // ---- The reference (§9-§12) ----------------------------------------------------------------
  void ref_cfg_write(uint32_t addr, uint32_t data) {
    addr &= 0xFFu;
    const uint32_t p = addr & 31u;
    switch (addr >> 5) {
      case 0:
        rc_.hdr2[p] = data & 1u, rc_.del[p] = (data >> 1) & 3u, rc_.rnd[p] = (data >> 3) & 1u;
        break;
      case 1: rc_.rlo[p] = data & 0xFFFFu, rc_.rhi[p] = data >> 16; break;
      case 2: ref_[p].lfsr = (data & 0xFFFFu) ? (data & 0xFFFFu) : (uint32_t)C104_LFSR_SEED; break;
      case 3:
        rc_.ihi[p] = data & 0xFFFFu, rc_.iport[p] = (data >> 16) & 31u, rc_.ival[p] = (data >> 24) & 1u;
        break;
      default:
        if (addr == C104_A_CTRL) rc_.nint = data & 63u, rc_.rr = (data >> 8) & 1u;
        if (addr == C104_A_GRP) rc_.grp = data;
        break;
    }
  }
  void hdr_bytes(std::vector<Tok> &v, uint32_t x, uint32_t H) {
    if (H == 2) v.push_back(D(x >> 8));
    v.push_back(D(x & 0xFFu));
  }
  void ref_route(uint32_t i, uint32_t x, bool emit) {
    RefIn &r = ref_[i];
    uint32_t port, ldr;
    if (!rc_.lookup(x, &port, &ldr)) {
      r.bad++;
      r.st = RefIn::kDisc;
      return;
    }
    RP pk = std::make_shared<RPkt>();
    pk->in = i, pk->leader = ldr, pk->born = cyc_;
    if (emit) hdr_bytes(pk->toks, x, rc_.H(i));
    r.cur = pk, r.fwd = 0, r.st = RefIn::kFwd;
    r.unpaired.push_back(pk);
  }
  void ref_draw(uint32_t i) {
    RefIn &r = ref_[i];
    if (debug_) std::printf("%" PRIu64 " draw %u lfsr %04x\n", cyc_, i, r.lfsr);
    const uint32_t v = ref_rand(r.lfsr, rc_.rlo[i], rc_.rhi[i]);
    r.lfsr = ref_lfsr_next(r.lfsr);
    ref_route(i, rc_.H(i) == 1 ? (v & 0xFFu) : v, true);
  }
  void ref_grant(uint32_t i, uint32_t port) {
    RefIn &r = ref_[i];
    if (debug_) std::printf("%" PRIu64 " grant %u -> %u\n", cyc_, i, port);
    r.pkt++;
    if (r.unpaired.empty())
      fatal("scoreboard: input " + std::to_string(i) + " granted output " + std::to_string(port) +
            " with no routed packet");
    RP pk = r.unpaired.front();
    r.unpaired.pop_front();
    if (!rc_.in_group(pk->leader, port))
      fatal("scoreboard: input " + std::to_string(i) + " granted output " + std::to_string(port) +
            ", not in the group of leader " + std::to_string(pk->leader));
    pk->port = (int)port;
    Q_[port].push_back(pk);
  }
  void ref_pop(uint32_t i, Tok t) {
    RefIn &r = ref_[i];
    if (debug_) std::printf("%" PRIu64 " pop %u %s (ref state %d)\n", cyc_, i, tstr(t).c_str(), (int)r.st);
    const uint32_t H = rc_.H(i), del = rc_.dele(i);
    const std::string at = "scoreboard: input " + std::to_string(i) + " ";
    switch (r.st) {
      case RefIn::kIdle:
        if (tend(t)) {
          r.stray++;
          return;
        }
        if (rc_.rnd[i]) fatal(at + "popped a packet's first token without a draw");
        r.hcnt = 0, r.skip = del == 2;
        break;
      case RefIn::kHdr:
        if (tend(t)) {
          (tkind(t) == kErr ? r.cut : r.shrt)++;
          r.st = RefIn::kIdle;
          return;
        }
        break;
      case RefIn::kFwd: {
        RP pk = r.cur;
        if (pk->port < 0) {
          if (r.fwd == 0 && tkind(t) == kErr) {  // withdrawn in WAIT (S4)
            r.unpaired.pop_back();
            r.cut++;
            r.cur.reset();
            r.st = RefIn::kIdle;
            return;
          }
          fatal(at + "popped " + tstr(t) + " of a packet not yet granted");
        }
        pk->toks.push_back(t);
        r.fwd++;
        if (tend(t)) {
          pk->done = true;
          if (tkind(t) == kErr) r.cut++;
          r.cur.reset();
          r.st = RefIn::kIdle;
        }
        return;
      }
      case RefIn::kDisc:
        if (tend(t)) r.st = RefIn::kIdle;
        return;
    }
    // S3, the header step with a DATA token
    if (r.hcnt + 1 < H) {
      r.hi = tdata(t), r.hcnt = 1, r.st = RefIn::kHdr;
      return;
    }
    const uint32_t x = H == 2 ? (r.hi << 8 | tdata(t)) : tdata(t);
    r.hcnt = 0;
    if (r.skip) {
      r.skip = 0, r.st = RefIn::kHdr;
      return;
    }
    ref_route(i, x, del != 1);
  }

  // A token left output o (a token port's tok_tx, a peer's receiver, or a loop coming back).
  void out_token(uint32_t o, Tok t) {
    if (debug_) std::printf("%" PRIu64 " out %u %s\n", cyc_, o, tstr(t).c_str());
    log_[o].push_back({t, cyc_});
    moved_++;
    if (asm_[o].empty()) asm_t_[o] = cyc_;
    asm_[o].push_back(t);
    if (!tend(t)) return;
    match(o, asm_[o]);
    asm_[o].clear();
  }
  static bool cut_of(const std::vector<Tok> &R, const std::vector<Tok> &E) {
    // R = a prefix of E's tokens before its end, closed with ERR (a link dropped under it; or
    // the last token before a forwarded ERR, never confirmed: docs/c104.md §21.7)
    // (E may still be open: the slice carries on into the spilled link, §12)
    if (R.empty() || tkind(R.back()) != kErr || R.size() - 1 > E.size()) return false;
    return std::equal(R.begin(), R.end() - 1, E.begin());
  }
  void match(uint32_t o, const std::vector<Tok> &R) {
    auto &q = Q_[o];
    if (!q.empty() && q.front()->done && q.front()->toks == R) {
      q.pop_front();
      delivered_++;
      return;
    }
    if (!tokp(o)) {
      // a bit-level output: a link drop cuts packets or loses them whole; an ERR-ended packet
      // loses the token before its ERR (docs/c104.md §21.7)
      for (size_t d = 0; d < q.size(); d++) {
        const bool exact = q[d]->done && q[d]->toks == R;
        if (!exact && !cut_of(R, q[d]->toks)) continue;
        if (d && !drops_[o]) break;
        lost_ += d;
        q.erase(q.begin(), q.begin() + (long)d + 1);
        delivered_++;
        if (!exact) cut_rx_++;
        return;
      }
      if (asm_t_[o] < tolerate_until_) {  // begun while faults were on
        damaged_++;
        return;
      }
    }
    std::string next;
    for (size_t d = 0; d < q.size() && d < 3; d++)
      next += std::string(d ? "; then" : "") + " from input " + std::to_string(q[d]->in) + " " +
              tstr(q[d]->toks) + (q[d]->done ? "" : " (open)");
    fatal("scoreboard: output " + std::to_string(o) + " sent " + tstr(R) +
          ", not the packet granted to it next (expected" + (next.empty() ? " none" : next) + ")");
  }

 public:
  // ---- Random sources ----------------------------------------------------------------------
  Plan plan_;
  bool avoid_loop_ = false;  // the sources' headers keep out of the loopback port's interval

  uint32_t setup_lookup(uint32_t x, uint32_t *port) const {
    const uint32_t n = su_.nint < 32 ? su_.nint : 32;
    for (uint32_t e = 0; e < n; e++) {
      if (x > (su_.ival[e].hi & 0xFFFFu)) continue;
      if (!su_.ival[e].valid) return 0;
      *port = su_.ival[e].port & 31u;
      return 1;
    }
    return 0;
  }
  // A routing header of H bytes: mostly inside a live entry, sometimes anywhere, sometimes above
  // the table.
  uint32_t gen_header(rng_t *g, uint32_t H) {
    const uint32_t hmax = H == 1 ? 0xFFu : 0xFFFFu;
    const uint32_t n = su_.nint < 32 ? su_.nint : 32;
    for (int tries = 0; tries < 20; tries++) {
      uint32_t x;
      const uint32_t r = rng_below(g, 100);
      if (r < 70 && n) {
        const uint32_t e = rng_below(g, n);
        uint32_t lo = 0;
        for (uint32_t k = 0; k < e; k++) lo = std::max(lo, (su_.ival[k].hi & 0xFFFFu) + 1);
        const uint32_t hi = std::min(su_.ival[e].hi & 0xFFFFu, hmax);
        x = lo <= hi ? lo + rng_below(g, hi - lo + 1) : rng_below(g, hmax + 1);
      } else if (r < 85 || !n) {
        x = rng_below(g, hmax + 1);
      } else {
        uint32_t top = 0;
        for (uint32_t k = 0; k < n; k++) top = std::max(top, su_.ival[k].hi & 0xFFFFu);
        x = top < hmax ? top + 1 + rng_below(g, hmax - top) : rng_below(g, hmax + 1);
      }
      uint32_t port;
      if (avoid_loop_ && setup_lookup(x, &port) && (int)port == plan_.loop) continue;
      return x;
    }
    // every draw named the loop: a header above the table, or one that is cut short
    uint32_t top = 0;
    for (uint32_t k = 0; k < n; k++) top = std::max(top, su_.ival[k].hi & 0xFFFFu);
    return top < hmax ? hmax : 0x10000u;
  }
  std::vector<Tok> gen_packet(uint32_t p) {
    Gen &G = gen_[p];
    rng_t *g = &G.rng;
    std::vector<Tok> v;
    const uint32_t ends[3] = {kEop, kEom, kErr};
    if (rng_chance(g, G.stray_pm, 1000)) {
      v.push_back(TK(ends[rng_below(g, 3)], 0));
      return v;
    }
    const uint32_t cp = (su_.port[p].hdr2 & 1u) | (su_.port[p].del & 3u) << 1 | (su_.port[p].rnd & 1u) << 3;
    const uint32_t H = (cp & 1u) ? 2 : 1, rnd = cp >> 3, del0 = (cp >> 1) & 3u;
    const uint32_t del = rnd ? 0 : (del0 == 3 ? 0 : del0);
    uint32_t hdr_len = 0;
    if (rnd) {
      // the original header, routed by the loopback input (or never looked at)
      const uint32_t h = plan_.loop >= 0 ? plan_.hl : 1 + rng_below(g, 2);
      const uint32_t x = gen_header(g, h);
      if (x > 0xFFFFu) return {EOP};  // a stray end token instead
      hdr_bytes(v, x, h);
      hdr_len = 0;
    } else {
      if (del == 2)
        for (uint32_t k = 0; k < H; k++) v.push_back(D(rng_below(g, 256)));
      const uint32_t x = gen_header(g, H);
      if (x > 0xFFFFu) {  // ends inside its header instead (or a stray end token)
        if (H == 2) v.push_back(D(0));
        v.push_back(EOP);
        return v;
      }
      hdr_bytes(v, x, H);
      hdr_len = (uint32_t)v.size();
    }
    if (hdr_len && rng_chance(g, G.short_pm, 1000)) {
      v.resize(rng_below(g, hdr_len));
      v.push_back(TK(ends[rng_below(g, 3)], 0));
      return v;
    }
    uint32_t len = rng_below(g, G.maxlen + 1);
    if (rng_chance(g, G.long_pm, 1000)) len = 100 + rng_below(g, 201);
    for (uint32_t k = 0; k < len; k++) v.push_back(D(rng_below(g, 256)));
    v.push_back(TK(rng_chance(g, G.err_pm, 1000) ? kErr : (rng_chance(g, 1, 2) ? kEop : kEom), 0));
    G.made++;
    return v;
  }
  void generate(uint32_t p) {
    Gen &G = gen_[p];
    const size_t q = tokp(p) ? tp_[p].rxq.size() : bp_[p].txq.size();
    if (q > 2 || !rng_chance(&G.rng, 1, G.rate)) return;
    const std::vector<Tok> pk = gen_packet(p);
    if (debug_) std::printf("%" PRIu64 " gen %u %s\n", cyc_, p, tstr(pk).c_str());
    for (Tok t : pk) send(p, cyc_ + 1, {t});
  }
};

// ---- Setups --------------------------------------------------------------------------------
void setup_ival(c104_setup_t *s, uint32_t e, uint32_t hi, uint32_t port, uint32_t valid) {
  s->ival[e].hi = hi;
  s->ival[e].port = port;
  s->ival[e].valid = valid;
  if (s->nint < e + 1) s->nint = e + 1;
}
// e0: [0, 0x0F] -> 9; e1: [0x10, 0x1F] -> 7; e2: [0x20, 0x2F] discard.
c104_setup_t plain_setup() {
  c104_setup_t s;
  c104_setup_default(&s);
  setup_ival(&s, 0, 0x0F, 9, 1);
  setup_ival(&s, 1, 0x1F, 7, 1);
  setup_ival(&s, 2, 0x2F, 0, 0);
  return s;
}

// A random setup (§15 "Random"): interval tables (ascending, sometimes not), discard entries,
// live counts above 32, hunt groups, header sizes, deletion modes, universal routing with ranges
// (and a loopback port), FIFO or round-robin. Fills the plan.
void random_setup(rng_t *g, c104_setup_t *s, Plan *pl, bool allow_bit_loop) {
  c104_setup_default(s);
  *pl = Plan{};
  pl->hmax = rng_chance(g, 1, 2) ? 0xFFu : 0xFFFFu;
  const uint32_t live = 1 + rng_below(g, 32);
  s->nint = live == 32 && rng_chance(g, 1, 2) ? 33 + rng_below(g, 31) : live;
  if (rng_chance(g, 1, 10)) s->nint = 32 + rng_below(g, 32);  // 32..63: all 32 live
  const uint32_t n = s->nint < 32 ? s->nint : 32;
  const uint32_t top = rng_chance(g, 4, 5) ? pl->hmax - rng_below(g, pl->hmax / 8 + 1) : pl->hmax;
  std::vector<uint32_t> lim;
  while (lim.size() < n) {
    const uint32_t v = rng_below(g, top + 1);
    if (std::find(lim.begin(), lim.end(), v) == lim.end()) lim.push_back(v);
  }
  std::sort(lim.begin(), lim.end());
  for (uint32_t e = 0; e < kN; e++) {
    if (e < n) {
      s->ival[e].hi = lim[e];
      s->ival[e].port = rng_below(g, 32);
      s->ival[e].valid = rng_chance(g, 85, 100);
    } else {  // not live: must never match
      s->ival[e].hi = rng_below(g, 0x10000);
      s->ival[e].port = rng_below(g, 32);
      s->ival[e].valid = rng_below(g, 2);
    }
  }
  s->ival[rng_below(g, n)].valid = 1;  // something routes
  if (n >= 2 && rng_chance(g, 1, 6)) {  // an unordered table: the lower entry wins (§9.1)
    const uint32_t a = rng_below(g, n), b = rng_below(g, n);
    std::swap(s->ival[a].hi, s->ival[b].hi);
  }
  switch (rng_below(g, 4)) {
    case 0: s->grp = 0xFFFFFFFFu; break;
    case 1: s->grp = 0x11111111u | (rng_chance(g, 1, 2) ? 0 : 0x00010000u); break;
    case 2: s->grp = (uint32_t)rng_next(g); break;
    default: s->grp = (uint32_t)rng_next(g) & (uint32_t)rng_next(g); break;
  }
  s->rr = rng_below(g, 2);
  for (uint32_t p = 0; p < kN; p++) {
    s->port[p].hdr2 = rng_chance(g, pl->hmax == 0xFF ? 2 : 6, 10);
    const uint32_t d = rng_below(g, 100);
    s->port[p].del = d < 55 ? 0 : d < 70 ? 1 : d < 90 ? 2 : 3;
    s->port[p].rnd = 0;
    s->port[p].rlo = rng_below(g, 0x10000);  // ignored while rnd is 0
    s->port[p].rhi = rng_below(g, 0x10000);
    s->port[p].seed = rng_chance(g, 1, 10) ? 0 : rng_below(g, 0x10000);
  }
  // The interval of entry e under first-match: (max of the earlier limits, hi_e].
  auto interval = [&](uint32_t e, uint32_t *lo, uint32_t *hi) {
    *lo = 0;
    for (uint32_t k = 0; k < e; k++) *lo = std::max(*lo, s->ival[k].hi + 1);
    *hi = s->ival[e].hi;
    return *lo <= *hi;
  };
  // universal routing through a loopback port (§11.3)
  if (rng_chance(g, 1, 2)) {
    std::vector<uint32_t> cand;
    for (uint32_t p = 0; p < kN; p++)
      if (tokp(p) || allow_bit_loop) cand.push_back(p);
    const uint32_t hl = rng_chance(g, pl->hmax == 0xFF ? 1 : 2, 3) ? 2 : 1;
    std::vector<uint32_t> ents;
    for (uint32_t e = 0; e < n; e++) {
      uint32_t lo, hi;
      if (s->ival[e].valid && interval(e, &lo, &hi) && (hl == 2 || lo <= 0xFF)) ents.push_back(e);
    }
    if (!cand.empty() && !ents.empty()) {
      const uint32_t L = cand[rng_below(g, (uint32_t)cand.size())];
      // a narrow interval (1-8 headers): the testbench's other headers keep out of it
      const uint32_t e = ents[rng_below(g, (uint32_t)ents.size())];
      uint32_t lo, hi;
      interval(e, &lo, &hi);
      s->ival[e].hi = lo + rng_below(g, std::min(hi - lo, 7u) + 1);
      pl->loop = (int)L;
      pl->hl = hl;
      s->port[L].del = 2;
      s->port[L].hdr2 = hl == 2;
      s->grp |= 1u << L;
      if (L < 31) s->grp |= 1u << (L + 1);
      s->ival[e].port = L;
      interval(e, &pl->r0, &pl->r1);
      if (hl == 1) pl->r1 = std::min(pl->r1, 0xFFu);
      // Only random headers reach the loop (the testbench's other headers avoid entry e), so a
      // packet comes back at most once: a bit-level loop has bounded buffers (a packet routed
      // from the loop into itself would deadlock there), a token loop would pass a long packet
      // round and round, one byte shorter each time.
      for (uint32_t k = 0; k < kN; k++)
        if (k != e && s->ival[k].port == L) s->ival[k].port = (L + 1) % 32;
    }
  }
  const uint32_t nrnd = rng_below(g, 5);
  for (uint32_t k = 0; k < nrnd; k++) {
    const uint32_t p = rng_below(g, 32);
    if ((int)p == pl->loop) continue;
    s->port[p].rnd = 1;
    const uint32_t c = rng_below(g, 10);
    if (pl->loop >= 0 && c < 6) {
      s->port[p].hdr2 = pl->hl == 2;
      const uint32_t a = pl->r0 + rng_below(g, pl->r1 - pl->r0 + 1);
      const uint32_t b = pl->r0 + rng_below(g, pl->r1 - pl->r0 + 1);
      s->port[p].rlo = std::min(a, b), s->port[p].rhi = std::max(a, b);
      continue;
    }
    if (c == 9) {
      s->port[p].rlo = 1 + rng_below(g, pl->hmax);  // rhi < rlo: always rlo
      s->port[p].rhi = rng_below(g, s->port[p].rlo);
    } else if (c == 8) {
      s->port[p].rlo = 0, s->port[p].rhi = pl->hmax;
    } else {
      const uint32_t a = rng_below(g, pl->hmax + 1), b = rng_below(g, pl->hmax + 1);
      s->port[p].rlo = std::min(a, b), s->port[p].rhi = std::max(a, b);
    }
  }
  // the random headers that reach the loop have the length it strips
  if (pl->loop >= 0)
    for (uint32_t p = 0; p < kN; p++)
      if (s->port[p].rnd) s->port[p].hdr2 = pl->hl == 2;
}

// A random setup loaded (no loopback port when `no_loop`: a corrupted, reconfigured, wild or
// reset header could send a long packet round it), then every port's source and readiness drawn.
void random_start(Tb &tb, c104_setup_t *s, bool no_loop, bool faults) {
  rng_t *g = &tb.rng_;
  tb.peers_on_bit_ports();
  random_setup(g, s, &tb.plan_, true);
  if (no_loop && tb.plan_.loop >= 0) {
    for (uint32_t e = 0; e < kN; e++)
      if ((int)s->ival[e].port == tb.plan_.loop) s->ival[e].port = (s->ival[e].port + 1) % 32;
    tb.plan_.loop = -1;
  }
  if (tb.plan_.loop >= 0) tb.set_loop((uint32_t)tb.plan_.loop);
  tb.avoid_loop_ = tb.plan_.loop >= 0;
  tb.load(*s);
  tb.start_walk();
  if (tb.debug_) {
    for (uint32_t e = 0; e < kN; e++)
      std::printf("entry %u: hi %04x port %u valid %u\n", e, s->ival[e].hi, s->ival[e].port, s->ival[e].valid);
    for (uint32_t p = 0; p < kN; p++)
      std::printf("port %u: hdr2 %u del %u rnd %u range %04x-%04x\n", p, s->port[p].hdr2, s->port[p].del,
                  s->port[p].rnd, s->port[p].rlo, s->port[p].rhi);
    std::printf("plan: loop %d hl %u r0 %04x r1 %04x\n", tb.plan_.loop, tb.plan_.hl, tb.plan_.r0, tb.plan_.r1);
  }
  tb.junk_ = true;
  for (uint32_t p = 0; p < kN; p++) {
    Gen &G = tb.gen_[p];
    const bool loop = (int)p == tb.plan_.loop;
    G.on = !loop;
    G.rate = 1 + rng_below(g, rng_chance(g, 1, 4) ? 200 : 30);
    G.maxlen = rng_chance(g, 1, 5) ? rng_below(g, 6) : 40;
    G.err_pm = tokp(p) ? rng_below(g, 60) : (faults ? 10 : rng_below(g, 6));
    G.short_pm = rng_below(g, 40);
    G.stray_pm = rng_below(g, 30);
    G.long_pm = rng_below(g, 20);
    G.gap_pct = rng_below(g, 60);
    G.pause_pm = rng_below(g, 10);
    Ready &r = tb.rdy_[p];
    const uint32_t pcts[4] = {100, 90, 60, 25};
    r.pct = pcts[rng_below(g, 4)];
    r.stall_pm = rng_below(g, 60);
    if (!tokp(p)) tb.bp_[p].valid_pct = 40 + rng_below(g, 61);
  }
}

// A port whose slice is in the middle of a packet, one in a short-lived state if any (HDR: a header
// half read; EMIT: a header being sent on), either with even odds; -1 if every slice is idle.
int busy_port(Tb &tb, rng_t *g) {
  std::vector<uint32_t> hdr, emit, other;
  for (uint32_t p = 0; p < kN; p++) {
    const uint32_t st = tb.R().sl_st[p];
    if (st == C104_HDR) hdr.push_back(p);
    else if (st == C104_EMIT) emit.push_back(p);
    else if (st != C104_IDLE) other.push_back(p);
  }
  const bool pick_emit = !emit.empty() && (hdr.empty() || rng_chance(g, 1, 2));
  const std::vector<uint32_t> &v = pick_emit ? emit : !hdr.empty() ? hdr : other;
  return v.empty() ? -1 : (int)v[rng_below(g, (uint32_t)v.size())];
}

// ---- Random traffic ------------------------------------------------------------------------
// reconfig: configuration writes of every kind while traffic runs (groups that strand waiting
// slices, tables, header modes, seeds, the arbitration mode), then the setup written again.
// wild: token ports now and then break the FIFO contract of §6 (a head that vanishes for a cycle,
// another token shown in its place): both sides must still agree, the scoreboard still holds.
void t_random(Tb &tb, bool faults, bool reconfig = false, bool wild = false) {
  c104_setup_t s;
  random_start(tb, &s, faults || reconfig || wild, faults);
  rng_t *g = &tb.rng_;
  tb.wild_ = wild;
  const uint64_t total = tb.o_.cycles, tail = total / 5, t_end = tb.cyc_ + total;
  const uint64_t fault_end = faults ? t_end - tail : tb.cyc_;
  uint64_t last_move = tb.cyc_, moved = tb.moved_, faults_n = 0;
  uint64_t delivered_tail = 0;
  while (tb.cyc_ < t_end) {
    if (faults && tb.cyc_ < fault_end) {
      for (uint32_t p = 0; p < kN; p++) {
        if (tokp(p) || !tb.bp_[p].peer) continue;
        for (int dir = 0; dir < 2; dir++) {
          Fault &f = dir ? tb.bp_[p].to_peer : tb.bp_[p].to_sw;
          if (f.active() || !rng_chance(g, 1, 6000)) continue;
          const uint32_t d = dir ? tb.mo_.d[p] : tb.bp_[p].out.d, sv = dir ? tb.mo_.s[p] : tb.bp_[p].out.s;
          switch (rng_below(g, 6)) {
            case 0:
            case 1: f.start(rng_chance(g, 1, 2) ? Fault::kFlipD : Fault::kFlipS, tb.cyc_, 1, 0, 0, 0); break;
            case 2: f.start(Fault::kStuckD, tb.cyc_, 2 + rng_below(g, 40), rng_below(g, 2), 0, 0); break;
            case 3: f.start(Fault::kStuckS, tb.cyc_, 2 + rng_below(g, 40), rng_below(g, 2), 0, 0); break;
            default: f.start(Fault::kCut, tb.cyc_, 10 + rng_below(g, 400), 0, d, sv); break;
          }
          faults_n++;
          tb.tolerate_until_ = tb.cyc_ + 3000;
        }
      }
    }
    if (faults && tb.cyc_ < fault_end) {  // links disabled now and then, at either end
      for (uint32_t p = 0; p < kN; p++) {
        if (tokp(p) || !tb.bp_[p].peer) continue;
        if (tb.link_en_[p] == 0 && rng_chance(g, 1, 300)) tb.link_en_[p] = 1;
        if (tb.bp_[p].link_en == 0 && rng_chance(g, 1, 300)) tb.bp_[p].link_en = 1;
        if (rng_chance(g, 1, 200000)) tb.link_en_[p] = 0, tb.tolerate_until_ = tb.cyc_ + 3000;
        if (rng_chance(g, 1, 200000)) tb.bp_[p].link_en = 0, tb.tolerate_until_ = tb.cyc_ + 3000;
      }
    }
    if (faults && tb.cyc_ == fault_end)
      for (uint32_t p = 0; p < kN; p++)
        if (!tokp(p) && tb.bp_[p].peer) tb.link_en_[p] = tb.bp_[p].link_en = 1;
    if (reconfig && tb.cyc_ < t_end - tail && tb.cfgq_.empty() && rng_chance(g, 1, 400)) {
      c104_setup_t r;
      Plan pl;
      random_setup(g, &r, &pl, false);
      c104_write_t w[C104_SETUP_NWRITES];
      c104_setup_writes(&r, w);
      const uint32_t n = 1 + rng_below(g, 4);
      for (uint32_t k = 0; k < n; k++) {
        c104_write_t x = w[rng_below(g, C104_SETUP_NWRITES)];
        // half the time a register of a port whose slice is busy, one with a header half read
        // first: its mode (header length, deletion, random), its random range or its LFSR seed
        // (w is in address order: w[p], w[32 + p], w[64 + p] are 0x00 + p, 0x20 + p, 0x40 + p)
        const int busy = rng_chance(g, 1, 2) ? busy_port(tb, g) : -1;
        if (busy >= 0) x = w[(uint32_t)busy + 32 * rng_below(g, 3)];
        if (rng_chance(g, 1, 20)) x.addr = 0x82 + rng_below(g, 0x7E), x.data = (uint32_t)rng_next(g);
        tb.write(x.addr, x.data, tb.cyc_ + rng_below(g, 3));
      }
      tb.reconfigs_++;
    }
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
  if (faults) {
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
  rng_t *g = &tb.rng_;
  uint32_t seen = 0;  // the slice states some reset landed in
  for (uint32_t k = 0; k < 16; k++) {
    tb.run(200 + rng_below(g, 1500));
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

// ---- Directed cases (§15) ------------------------------------------------------------------
// The default build (TokPorts 0xFFFFFFF0): ports 0-2 bit-level with dslink peers, port 3 a
// bit-level loop where a case needs one, ports 4-31 token ports. Cycles in expectations count
// from t0 (the first cycle after the configuration); most come from tests/test_c104.c with its
// ports renumbered.
constexpr uint32_t kBit012 = 0x7u, kBit0123 = 0xFu;

void t_cfg(Tb &tb) {
  tb.peers_on_bit_ports();
  rng_t *g = &tb.rng_;
  for (int run = 0; run < 2; run++) {
    c104_setup_t s;
    Plan pl;
    random_setup(g, &s, &pl, true);
    for (uint32_t p = 0; p < kN; p++) s.port[p].del = rng_below(g, 4), s.port[p].rnd = rng_below(g, 2);
    s.nint = rng_below(g, 64);
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
    for (uint32_t a = 0x82; a < 0x100; a++) tb.write(a, (uint32_t)rng_next(g), tb.cyc_ + (a - 0x82));
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
  rng_t *g = &tb.rng_;
  uint32_t most = 0;
  for (uint32_t round = 0; round < 64; round++) {
    c104_setup_t s = direct_setup();
    s.rr = round & 1u;
    // Half the rounds about 16 groups, half about 4 (deeper queues).
    s.grp = (uint32_t)(rng_next(g) >> 32) | 1u;
    if (round & 2u) s.grp &= (uint32_t)(rng_next(g) >> 32) & (uint32_t)(rng_next(g) >> 32) | 1u;
    tb.load(s);
    for (uint32_t p = 0; p < kN; p++) {
      uint64_t at = tb.cyc_ + rng_below(g, 3);
      for (uint32_t m = 0; m < 3; m++) {
        std::vector<Tok> pk = {D(rng_below(g, kN)), D(p)};
        for (uint32_t n = rng_below(g, 4); n > 0; n--) pk.push_back(D(rng_below(g, 256)));
        pk.push_back(EOP);
        tb.send(p, at, pk);
        at += 1 + rng_below(g, 8);
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

struct TestDef {
  const char *name;
  std::function<void(Tb &)> fn;
  const char *what;
};

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
      unsigned long long n = std::strtoull(v.c_str(), &end, 0);
      if (v.empty() || *end || v[0] == '-') usage_error(a + ": '" + v + "' is not a number");
      return n;
    };
    if (a == "--test") o.test = val("a test name");
    else if (a == "--seed") o.seed = num("a seed");
    else if (a == "--cycles") o.cycles = num("a cycle count");
    else if (a == "--waves") o.waves = true;
    else if (a == "--wave-dir") o.wave_dir = val("a directory");
    else if (a == "--trace-full") o.trace_full = true;
    else if (a == "--list") *list = true;
    else if (a == "--help" || a == "-h") {
      std::printf("usage: c104_lockstep [--test NAME] [--seed S] [--cycles N] [--waves] [--wave-dir D]\n"
                  "                     [--trace-full] [--list] [+mutant=K]\n"
                  "Runs the C104 RTL (TokPorts 0x%08x) and C model in lockstep; --cycles applies to\n"
                  "random and faults.\n", kTok);
      std::exit(0);
    } else if (a[0] == '+') continue;  // Verilator plusargs (+mutant=K)
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
  auto tb = std::make_unique<Tb>(o, ctx.get());
  if (tb->open_waves()) return 2;
  tb->reset();
  def->fn(*tb);
  tb->finish();
  lockstep::cov_write(ctx.get());
  return 0;
}
