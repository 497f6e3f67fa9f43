// DS-Link lockstep testbench: two link ends (a, b) in RTL (Verilated) and in the C model, fed
// identical inputs every cycle and compared on every output and architectural register.
// Directed cases, seeded random traffic with wire faults, and a packet scoreboard.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "Vdslink.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_vcd_c.h"
#endif

#include "backdoor.h"
#include <madpost/dslink.h>
#include "dslink_counters.h"
#include "lockstep.h"
#include <madpost/rng.h>

#ifndef DSLINK_GPARAMS
#define DSLINK_GPARAMS ""
#endif
#ifndef LOCKSTEP_CMP_REGS
#define LOCKSTEP_CMP_REGS 1
#endif
#ifndef LOCKSTEP_TOP
#define LOCKSTEP_TOP "dslink"
#endif

using lockstep::Sig;

namespace {

[[noreturn]] void usage_error(const std::string &msg) { lockstep::usage_error("dslink_lockstep", msg); }

std::vector<Sig> make_sigs() {
  return LOCKSTEP_SIGS(DSLINK_INPUTS, DSLINK_OUTPUTS, DSLINK_REGS, LOCKSTEP_CMP_REGS);
}

// The 16-bit event counters (tb/dslink_counters.h): the `counters` case sets them on both sides
// (tb/backdoor.h), since no run counts past a few hundred events of one kind.
using dslinktb::CounterReg;
using dslinktb::kCounters;
// How far a 16-bit counter moved (modulo 2^16, as the RTL counts).
uint32_t d16(uint32_t now, uint32_t before) { return (now - before) & 0xffffu; }

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

uint32_t parity8(uint32_t v) {
  uint32_t p = 0;
  for (int i = 0; i < 8; i++) p ^= (v >> i) & 1u;
  return p;
}

// A scripted bit-level peer for the error cases a correct link end never produces.
struct ScriptPeer {
  uint32_t bp = 1, tmr = 0, d = 0, s = 0, par = 0;
  bool on = false, frozen = false, nulls = true;
  std::deque<uint32_t> bits;
  void push_bits(uint32_t v, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) bits.push_back((v >> i) & 1u);
  }
  void data(uint32_t v, bool bad = false) {
    uint32_t p = (par ^ 1u) ^ (bad ? 1u : 0u);
    push_bits(p | (v & 0xffu) << 2, 10);
    par = parity8(v);
  }
  void ctl(uint32_t c, bool bad = false) {
    uint32_t p = par ^ (bad ? 1u : 0u);
    push_bits(p | 2u | ((c >> 1) & 1u) << 2 | (c & 1u) << 3, 4);
    par = ((c >> 1) ^ c) & 1u;
  }
  void null() {
    ctl(DSLINK_CTL_ESC);
    ctl(DSLINK_CTL_FCT);
  }
  void step() {
    if (!on || frozen) return;
    if (tmr) {
      tmr--;
      return;
    }
    tmr = bp - 1;
    if (bits.empty() && nulls) null();
    if (bits.empty()) return;
    uint32_t b = bits.front();
    bits.pop_front();
    if (b == d) s ^= 1u;
    d = b;
  }
};

// Wire fault injector for one direction.
struct Fault {
  enum Kind { kNone, kFlipD, kFlipS, kStuckD, kStuckS, kCut } kind = kNone;
  uint64_t until = 0;
  uint32_t level = 0, fd = 0, fs = 0;
  uint64_t count[6] = {};
  void start(Kind k, uint64_t now, uint64_t len, uint32_t lvl, uint32_t d, uint32_t s) {
    kind = k, until = now + len, level = lvl, fd = d, fs = s;
    count[k]++;
  }
  void apply(uint64_t now, uint32_t *d, uint32_t *s) {
    if (kind != kNone && now >= until) kind = kNone;
    switch (kind) {
      case kFlipD: *d ^= 1u; break;
      case kFlipS: *s ^= 1u; break;
      case kStuckD: *d = level; break;
      case kStuckS: *s = level; break;
      case kCut: *d = fd, *s = fs; break;
      default: break;
    }
  }
  bool active() const { return kind != kNone; }
};

// Packet source and checker for one direction: payloads carry their sequence number, so a
// received packet can be matched to the packet sent, and merging or damage shows.
struct Packet {
  uint32_t seq;
  std::vector<uint8_t> bytes;
  uint32_t end;  // EOP, EOM or ERR
};

// How many packets in a row a receiver may find missing (sequence numbers are 8 bits).
constexpr size_t kLostWindow = 64;

uint8_t payload(uint32_t seq, size_t i) {
  return i == 0 ? (uint8_t)seq : (uint8_t)(seq * 37u + (uint32_t)i * 11u + 5u);
}

struct Flow {
  std::string name;
  rng_t rng{};
  uint32_t seq = 0;
  Packet cur{};
  size_t pos = 0;
  bool have = false;
  uint32_t valid_pct = 100, abort_pm = 0, maxlen = 64, longlen = 0;
  std::deque<Packet> sent;
  Packet rx{};
  uint64_t n_sent = 0, n_ok = 0, n_cut = 0, n_lost = 0, n_bad = 0, bytes_ok = 0;
  bool strict = true;
  std::string first_error;

  void new_packet() {
    cur.seq = seq++ & 0xffu;
    size_t len = 1 + rng_below(&rng, maxlen);
    if (longlen && rng_chance(&rng, 1, 50)) len = longlen;
    cur.bytes.resize(len);
    for (size_t i = 0; i < len; i++) cur.bytes[i] = payload(cur.seq, i);
    cur.end = rng_chance(&rng, 1, 4) ? DSLINK_KIND_EOM : DSLINK_KIND_EOP;
    if (abort_pm && rng_chance(&rng, abort_pm, 1000)) cur.end = DSLINK_KIND_ERR;
    pos = 0;
    have = true;
  }
  // Offer this cycle's token (if any) on in.
  void offer(dslink_in_t *in) {
    if (!have) new_packet();
    in->tx_valid = rng_chance(&rng, valid_pct, 100);
    if (pos < cur.bytes.size()) {
      in->tx_kind = DSLINK_KIND_DATA;
      in->tx_data = cur.bytes[pos];
    } else {
      in->tx_kind = cur.end;
      in->tx_data = 0;
    }
  }
  // A packet counts as sent from its first token: it can be cut while still being written.
  void accepted() {
    if (pos == 0) {
      sent.push_back(cur);
      n_sent++;
    }
    if (pos++ == cur.bytes.size()) have = false;
  }
  // Packets whose end token was accepted.
  uint64_t complete() const { return n_sent - (have && pos > 0 ? 1 : 0); }
  void fail(uint64_t cycle, const std::string &what) {
    n_bad++;
    if (first_error.empty())
      first_error = name + " cycle " + std::to_string(cycle) + ": " + what;
  }
  void received(uint64_t cycle, uint32_t kind, uint32_t data) {
    if (kind == DSLINK_KIND_DATA) {
      rx.bytes.push_back((uint8_t)data);
      return;
    }
    rx.end = kind;
    if (rx.bytes.empty()) {
      fail(cycle, std::string("empty packet ended by ") + dslink_kind_name(kind));
    } else {
      uint32_t seq = rx.bytes[0];
      size_t k = 0;
      // A reset end loses what its FIFOs held: up to RxDepth short packets.
      while (k < sent.size() && k < kLostWindow && sent[k].seq != seq) k++;
      if (k == sent.size() || k == kLostWindow) {
        std::string q;
        for (size_t j = 0; j < sent.size() && j < 10; j++) q += " " + std::to_string(sent[j].seq);
        fail(cycle, "packet with unknown sequence " + std::to_string(seq) + " (" +
                        std::to_string(rx.bytes.size()) + " bytes, " + dslink_kind_name(kind) +
                        "; expected one of" + q + ")");
      } else {
        n_lost += k;
        sent.erase(sent.begin(), sent.begin() + (long)k);
        const Packet &p = sent.front();
        bool prefix = rx.bytes.size() <= p.bytes.size() &&
                      std::equal(rx.bytes.begin(), rx.bytes.end(), p.bytes.begin());
        if (kind == DSLINK_KIND_ERR) {
          if (prefix)
            n_cut++;
          else
            fail(cycle, "cut packet is not a prefix of packet " + std::to_string(p.seq));
        } else if (prefix && rx.bytes.size() == p.bytes.size() && p.end == kind) {
          n_ok++;
          bytes_ok += rx.bytes.size();
        } else {
          fail(cycle, "packet " + std::to_string(p.seq) + " damaged or merged (" +
                          std::to_string(rx.bytes.size()) + " bytes, " + dslink_kind_name(kind) +
                          ", sent " + std::to_string(p.bytes.size()) + " bytes, " +
                          dslink_kind_name(p.end) + ")");
        }
        sent.pop_front();
      }
    }
    rx = Packet{};
  }
};

struct Options {
  std::string test = "random";
  uint64_t seed = 1;
  uint64_t cycles = 200000;
  bool waves = false, trace_full = false, list = false;
  std::string wave_dir = "waves";
};

class Tb {
 public:
  Tb(const Options &o, VerilatedContext *ctx) : o_(o), h_("dslink", o.seed, o.test), ctx_(ctx) {
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
    rng_seed(&rng_, o.seed, 0);
    flow_[0].name = "a->b";
    flow_[1].name = "b->a";
    rng_seed(&flow_[0].rng, o.seed, 1);
    rng_seed(&flow_[1].rng, o.seed, 2);
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
    for (End &e : e_) {
      collect_rtl(e);
      collect_model(e);
    }
    if (h_.check(cyc_)) {
      h_.flush();
#if VM_TRACE
      for (auto &t : tfp_)
        if (t) t->flush();
#endif
      std::printf("dslink: FAILED test %s seed %" PRIu64 " at cycle %" PRIu64 "\n", o_.test.c_str(),
                  o_.seed, cyc_);
      if (!o_.waves)
        std::printf("dslink: the run is deterministic; rerun with --waves for both VCDs: "
                    "--test %s --seed %" PRIu64 " --cycles %" PRIu64 " --waves\n",
                    o_.test.c_str(), o_.seed, o_.cycles);
      std::exit(1);
    }
    for (End &e : e_) {
#define X(n, w) e.rtl->n##_i = e.in.n;
      DSLINK_INPUTS(X)
#undef X
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
      const bool ready = rng_chance(&rng_, rx_ready_pct, 100);
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

  void expect(bool ok, const std::string &what) {
    if (!ok) fatal("check failed: " + what);
  }
  [[noreturn]] void fatal(const std::string &what) {
    h_.flush();
    std::printf("dslink: FAILED test %s seed %" PRIu64 " at cycle %" PRIu64 ": %s\n", o_.test.c_str(),
                o_.seed, cyc_, what.c_str());
    std::exit(1);
  }

  void finish() {
    h_.close();
#if VM_TRACE
    for (auto &t : tfp_)
      if (t) t->close();
#endif
    std::printf("dslink: matched %" PRIu64 " cycles (seed %" PRIu64 ")\n", cyc_, o_.seed);
  }

  const Options &o_;
  dslink_cfg_t cfg_{};
  lockstep::Harness h_;
  VerilatedContext *ctx_;
  std::vector<Sig> sigs_;
  End e_[2];
  Flow flow_[2];
  Fault fault_[2];
  ScriptPeer peer_;
  rng_t rng_{};
  uint32_t link_en_[2] = {1, 1};
  lockstep::MidReset rst_[2];  // end i's resets (reset_end), held over some rising edges
  uint64_t stall_until_[2] = {0, 0};  // end i's user reads nothing before this cycle
  lockstep::Backdoor bd_[2];
  uint64_t cyc_ = 0, n_resets_ = 0;
#if VM_TRACE
  std::unique_ptr<VerilatedVcdC> tfp_[2];
#endif

 private:
  void collect_rtl(End &e) {
    std::vector<uint64_t> &v = e.inst.rtl;
    size_t i = 0;
#define X(n, w) v[i++] = e.in.n;
    DSLINK_INPUTS(X)
#undef X
#define X(n, w) v[i++] = e.rtl->n##_o;
    DSLINK_OUTPUTS(X)
#undef X
#if LOCKSTEP_CMP_REGS
#define X(n, w) v[i++] = e.rtl->dbg_##n##_o;
    DSLINK_REGS(X)
#undef X
#endif
  }
  void collect_model(End &e) {
    std::vector<uint64_t> &v = e.inst.model;
    size_t i = 0;
#define X(n, w) v[i++] = e.in.n;
    DSLINK_INPUTS(X)
#undef X
#define X(n, w) v[i++] = e.mo.n;
    DSLINK_OUTPUTS(X)
#undef X
#if LOCKSTEP_CMP_REGS
#define X(n, w) v[i++] = e.m.r.n;
    DSLINK_REGS(X)
#undef X
#endif
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

// ---- Directed cases --------------------------------------------------------------------------

// a listens to the scripted peer, b listens to a; only a's behaviour is checked by the script.
void script_stim(Tb &tb, uint32_t a_link_en = 1, uint32_t a_rx_ready = 1) {
  tb.peer_.step();
  tb.e_[0].in.d = tb.peer_.d, tb.e_[0].in.s = tb.peer_.s;
  tb.e_[1].in.d = tb.e_[0].mo.d, tb.e_[1].in.s = tb.e_[0].mo.s;
  tb.e_[0].in.link_en = a_link_en;
  tb.e_[1].in.link_en = 0;
  tb.e_[0].in.rx_ready = a_rx_ready;
  tb.e_[1].in.rx_ready = 1;
}
void run_script(Tb &tb, uint64_t n, uint32_t a_link_en = 1, uint32_t a_rx_ready = 1) {
  for (uint64_t k = 0; k < n; k++) tb.cycle([&] { script_stim(tb, a_link_en, a_rx_ready); });
}
void run_script_until(Tb &tb, uint32_t state, uint64_t limit, uint32_t a_link_en = 1) {
  for (uint64_t k = 0; k < limit && tb.st(0) != state; k++) run_script(tb, 1, a_link_en);
  tb.expect(tb.st(0) == state, std::string("end a reaches ") + dslink_state_name(state));
}
// Scripted peer brings end a to Run: NULLs, then one FCT once a is Connecting.
void script_to_run(Tb &tb) {
  tb.peer_.on = true;
  run_script_until(tb, DSLINK_ST_CONNECTING, 600);
  tb.peer_.ctl(DSLINK_CTL_FCT);
  run_script_until(tb, DSLINK_ST_RUN, 100);
}
void drain_script(Tb &tb) {
  for (uint32_t k = 0; k < 400 * tb.cfg_.bit_period && !tb.peer_.bits.empty(); k++) run_script(tb, 1);
  run_script(tb, 4 * tb.cfg_.bit_period);
}

void t_startup(Tb &tb) {
  uint64_t t0 = tb.cyc_;
  tb.expect(tb.st(0) == DSLINK_ST_ERROR_RESET, "starts in ErrorReset");
  tb.wait_run(1000);
  std::printf("dslink: startup: both ends in Run after %" PRIu64 " cycles\n", tb.cyc_ - t0);
  tb.run_link(500, false);
  for (int i = 0; i < 2; i++)
    tb.expect(tb.st(i) == DSLINK_ST_RUN && tb.r(i).cnt_par_err + tb.r(i).cnt_disc_err +
                                                   tb.r(i).cnt_esc_err + tb.r(i).cnt_cred_err +
                                                   tb.r(i).cnt_proto_err + tb.r(i).cnt_tmo_err ==
                                               0,
              "idle link stays up without errors");
  tb.expect(tb.r(0).tx_credit == tb.cfg_.rx_depth, "full credit on an idle link");
}

void t_packets(Tb &tb) {
  tb.wait_run(1000);
  for (int i = 0; i < 2; i++) {
    tb.flow_[i].maxlen = 40;
    tb.flow_[i].longlen = 2000;
  }
  tb.run_link(60000 * tb.cfg_.bit_period, true);
  tb.run_link(3000 * tb.cfg_.bit_period, false);
  for (int i = 0; i < 2; i++) {
    const Flow &f = tb.flow_[i];
    tb.expect(f.n_bad == 0, f.first_error);
    tb.expect(f.n_ok == f.complete() && f.n_lost == 0 && f.n_cut == 0 && f.n_ok > 50,
              f.name + " delivers every packet intact (sent " + std::to_string(f.n_sent) + " complete " + std::to_string(f.complete()) + " ok " + std::to_string(f.n_ok) + " lost " + std::to_string(f.n_lost) + " cut " + std::to_string(f.n_cut) + ")");
  }
}

void t_credit(Tb &tb) {
  tb.wait_run(1000);
  tb.flow_[0].maxlen = 200;
  // b never reads: a must stop after exactly RxDepth normal tokens.
  tb.run_link(3000, true, 0);
  tb.expect(tb.r(1).rxf_cnt == tb.cfg_.rx_depth, "receiver holds RxDepth tokens");
  tb.expect(tb.r(0).tx_credit == 0 && tb.r(1).rx_credit == 0, "credit exhausted on both sides");
  tb.expect(tb.st(0) == DSLINK_ST_RUN && tb.r(0).txf_cnt == tb.cfg_.tx_depth,
            "sender blocked with a full transmit FIFO, link still up");
  tb.run_link(20000, true, 30);
  tb.run_link(3000, false, 100);
  tb.expect(tb.flow_[0].n_bad == 0 && tb.flow_[0].n_ok == tb.flow_[0].complete(),
            "everything delivered after the stall");
}

// The scripted error cases check how far their counters moved (modulo 2^16), so that `counters`
// can run them again from injected values.
void t_parity(Tb &tb) {
  const dslink_regs_t r0 = tb.r(0);
  script_to_run(tb);
  for (int k = 0; k < 5; k++) tb.peer_.data(0x40u + (uint32_t)k);
  tb.peer_.data(0x55, true);
  drain_script(tb);
  tb.expect(d16(tb.r(0).cnt_par_err, r0.cnt_par_err) == 1, "one parity error");
  tb.expect(d16(tb.r(0).cnt_rx_cut, r0.cnt_rx_cut) == 1, "the open packet is closed with ERR");
}

void t_escape(Tb &tb) {
  const uint32_t e0 = tb.r(0).cnt_esc_err;
  script_to_run(tb);
  tb.peer_.data(0x12);
  tb.peer_.ctl(DSLINK_CTL_ESC);
  tb.peer_.ctl(DSLINK_CTL_EOP);
  drain_script(tb);
  tb.expect(d16(tb.r(0).cnt_esc_err, e0) == 1, "ESC EOP is an escape error");
  // The link restarts; then ESC ESC, which must not pass for a NULL either.
  script_to_run(tb);
  tb.peer_.ctl(DSLINK_CTL_ESC);
  tb.peer_.ctl(DSLINK_CTL_ESC);
  drain_script(tb);
  tb.expect(d16(tb.r(0).cnt_esc_err, e0) == 2, "ESC ESC is an escape error");
}

void t_disconnect(Tb &tb) {
  const uint32_t d0 = tb.r(0).cnt_disc_err;
  script_to_run(tb);
  tb.peer_.frozen = true;
  run_script(tb, tb.cfg_.disconnect_cycles + 4);
  tb.expect(d16(tb.r(0).cnt_disc_err, d0) == 1, "one disconnect error");
  tb.expect(tb.st(0) == DSLINK_ST_ERROR_RESET, "link reset");
}

void t_credit_rx(Tb &tb) {
  const uint32_t c0 = tb.r(0).cnt_cred_err;
  script_to_run(tb);
  run_script(tb, 200);  // let a grant all its credit
  tb.expect(tb.r(0).rx_credit == tb.cfg_.rx_depth, "a granted RxDepth credit");
  for (uint32_t k = 0; k <= tb.cfg_.rx_depth; k++) tb.peer_.data(k);
  // a does not read, so its credit runs out after exactly RxDepth tokens.
  for (uint32_t k = 0; k < 600 * tb.cfg_.bit_period && !tb.peer_.bits.empty(); k++)
    run_script(tb, 1, 1, 0);
  run_script(tb, 4 * tb.cfg_.bit_period, 1, 0);
  tb.expect(d16(tb.r(0).cnt_cred_err, c0) == 1, "one credit error for the token beyond credit");
  tb.expect(tb.r(0).rxf_cnt == tb.cfg_.rx_depth + 1, "RxDepth tokens and the ERR marker kept");
}

void t_credit_tx(Tb &tb) {
  const uint32_t c0 = tb.r(0).cnt_cred_err;
  script_to_run(tb);
  for (uint32_t k = 0; k < tb.cfg_.tx_credit_max / 8; k++) tb.peer_.ctl(DSLINK_CTL_FCT);
  drain_script(tb);
  tb.expect(d16(tb.r(0).cnt_cred_err, c0) == 1, "an FCT beyond TxCreditMax is a credit error");
}

void t_proto(Tb &tb) {
  const uint32_t p0 = tb.r(0).cnt_proto_err;
  // FCT while a waits in Ready (link_en = 0) after it has seen NULLs.
  tb.peer_.on = true;
  run_script_until(tb, DSLINK_ST_READY, 600, 0);
  run_script(tb, 50, 0);
  tb.peer_.ctl(DSLINK_CTL_FCT);
  for (int k = 0; k < 40; k++) run_script(tb, 1, 0);
  tb.expect(d16(tb.r(0).cnt_proto_err, p0) == 1, "FCT in Ready is a protocol error");
  // Data while Connecting.
  run_script_until(tb, DSLINK_ST_CONNECTING, 1000);
  tb.peer_.data(0x77);
  drain_script(tb);
  tb.expect(d16(tb.r(0).cnt_proto_err, p0) == 2, "data in Connecting is a protocol error");
}

void t_timeout(Tb &tb) {
  const uint32_t t0 = tb.r(0).cnt_tmo_err;
  // Peer silent: a reaches Started and times out; then, with NULLs but no FCT, Connecting times out.
  run_script_until(tb, DSLINK_ST_STARTED, 600);
  run_script(tb, tb.cfg_.timeout_cycles + 2);
  tb.expect(d16(tb.r(0).cnt_tmo_err, t0) == 1, "Started times out");
  tb.peer_.on = true;
  run_script_until(tb, DSLINK_ST_CONNECTING, 1000);
  run_script(tb, tb.cfg_.timeout_cycles + 2);
  tb.expect(d16(tb.r(0).cnt_tmo_err, t0) == 2, "Connecting times out");
}

void t_cut(Tb &tb) {
  tb.wait_run(1000);
  tb.flow_[0].maxlen = 1;
  tb.flow_[0].longlen = 400;
  // Send one long packet, cut a->b in its middle.
  tb.flow_[0].cur = Packet{};
  tb.flow_[0].new_packet();
  tb.flow_[0].cur.bytes.resize(400);
  for (size_t i = 0; i < 400; i++) tb.flow_[0].cur.bytes[i] = payload(tb.flow_[0].cur.seq, i);
  tb.flow_[0].cur.end = DSLINK_KIND_EOP;
  tb.run_link(1500, true);
  // 100 cycles: healed while both ends are still in ErrorReset, so one clean restart follows.
  tb.fault_[0].start(Fault::kCut, tb.cyc_, 100, 0, tb.e_[0].mo.d, tb.e_[0].mo.s);
  tb.run_link(400, true);
  tb.wait_run(2000, true);
  tb.run_link(20000, true);
  tb.run_link(3000, false);
  const Flow &f = tb.flow_[0];
  tb.expect(tb.r(1).cnt_rx_cut == 1 && f.n_cut == 1, "receiver closed the cut packet with ERR");
  tb.expect(tb.r(0).cnt_tx_spill == 1, "sender spilled the rest of the cut packet (spills " + std::to_string(tb.r(0).cnt_tx_spill) + ", a->b cut " + std::to_string(f.n_cut) + " lost " + std::to_string(f.n_lost) + ")");
  tb.expect(f.n_bad == 0 && f.n_ok + 1 == f.complete(), "every other packet intact, none merged");
}

void t_abort(Tb &tb) {
  tb.wait_run(1000);
  tb.flow_[0].maxlen = 30;
  tb.flow_[0].abort_pm = 100;
  tb.flow_[1].maxlen = 30;
  uint64_t t_end = tb.cyc_ + 40000;
  while (tb.cyc_ < t_end) tb.run_link(1, true);
  tb.flow_[0].abort_pm = 0;
  tb.run_link(3000, true);
  tb.run_link(3000, false);
  const Flow &f = tb.flow_[0];
  tb.expect(f.n_bad == 0 && tb.flow_[1].n_bad == 0, f.first_error + tb.flow_[1].first_error);
  tb.expect(f.n_cut > 0 && tb.r(1).cnt_rx_cut == f.n_cut, "aborted packets arrive cut");
}

void t_link_en(Tb &tb) {
  tb.wait_run(1000);
  tb.run_link(2000, true);
  tb.link_en_[0] = 0;
  tb.run_link(50, true);
  tb.expect(tb.st(0) != DSLINK_ST_RUN && tb.st(1) != DSLINK_ST_RUN, "link_en=0 takes the link down");
  // The disabled end never starts; it may still be reset by the disconnects of its restarting peer.
  for (int k = 0; k < 1000; k++) {
    tb.run_link(1, true);
    tb.expect(tb.st(0) <= DSLINK_ST_READY && tb.st(1) != DSLINK_ST_RUN,
              "disabled end stays out of Started/Connecting/Run");
  }
  tb.link_en_[0] = 1;
  tb.wait_run(2000, true);
  tb.run_link(5000, true);
  tb.run_link(3000, false);
  for (int i = 0; i < 2; i++) tb.expect(tb.flow_[i].n_bad == 0, tb.flow_[i].first_error);
}

// Reset in the middle of a run (docs/dslink.md §2): in every link state of end a on the way up,
// then in Run with packets in flight both ways, at offsets swept across a packet, of end a, of
// end b and of both on the same cycle, as pulses and held over 1-3 clock edges. After each, the
// reset end's registers are compared at once (cycle()), it must be back in ErrorReset with
// nothing held, and the link must come up again; a clean stretch then delivers every packet.
void t_reset(Tb &tb) {
  for (int i = 0; i < 2; i++) tb.flow_[i].maxlen = 24;
  for (uint32_t s = DSLINK_ST_ERROR_RESET; s <= DSLINK_ST_RUN; s++) {
    for (int k = 0; k < 5000 && tb.st(0) != s; k++) tb.run_link(1, true);
    tb.expect(tb.st(0) == s, std::string("end a reaches ") + dslink_state_name(s));
    tb.run_link(s, true);  // a few cycles into the state
    tb.reset_end(0, s % 3);
    tb.expect(tb.st(0) == DSLINK_ST_ERROR_RESET && tb.r(0).txf_cnt == 0 && tb.r(0).rxf_cnt == 0 &&
                  tb.r(0).tx_credit == 0 && tb.r(0).rx_credit == 0 && tb.r(0).cnt_par_err == 0,
              std::string("reset in ") + dslink_state_name(s) + " empties end a");
  }
  for (uint32_t k = 0; k < 24; k++) {
    tb.wait_run(5000, true);
    tb.run_link(300 + 7 * k * tb.cfg_.bit_period, true, 70);
    const int who = (int)(k % 3);  // a, b, both
    if (who != 1) tb.reset_end(0, k % 4);
    if (who != 0) tb.reset_end(1, (k + 1) % 4);
  }
  tb.wait_run(5000, true);
  const uint64_t ok0 = tb.flow_[0].n_ok + tb.flow_[1].n_ok;
  tb.run_link(20000, true);
  tb.run_link(3000, false);
  for (int i = 0; i < 2; i++) {
    const Flow &f = tb.flow_[i];
    tb.expect(f.n_bad == 0, f.first_error);
    tb.expect(f.sent.size() == f.n_sent - f.complete(), f.name + " nothing left undelivered");
  }
  tb.expect(tb.flow_[0].n_ok + tb.flow_[1].n_ok > ok0 + 100, "traffic flows after the resets");
  std::printf("dslink: reset: %" PRIu64 " resets mid-run\n", tb.n_resets_);
}

// Races at the timers' last counts (docs/dslink.md §4): for each timer, the event it waits for
// (or an error) is made to arrive on every cycle across the timer's end, from the scripted peer,
// end a reset before each try. The sweep must land on both sides of each boundary: some tries see
// the event win, some the timer.
void race_restart(Tb &tb) {
  tb.reset_end(0, 0);
  tb.peer_ = ScriptPeer{};
  tb.peer_.bp = tb.cfg_.bit_period;
}
// Runs the script up to n cycles; the state end a was in when error counter `cnt` went up (Run,
// which no error here can hit, if it did not).
uint32_t state_hit(Tb &tb, uint32_t n, uint32_t dslink_regs_t::*cnt, uint32_t a_link_en = 1) {
  for (uint32_t k = 0; k < n; k++) {
    const uint32_t st = tb.st(0), before = tb.r(0).*cnt;
    run_script(tb, 1, a_link_en);
    if (tb.r(0).*cnt != before) return st;
  }
  return DSLINK_ST_RUN;
}
void t_race(Tb &tb) {
  const uint32_t bp = tb.cfg_.bit_period, T = tb.cfg_.timeout_cycles, W = tb.cfg_.wait_cycles;
  const uint32_t span = 12 * bp;  // a NULL (8 bits) and some: the first token's arrival time
  uint32_t won[4] = {}, lost[4] = {};  // tries the event came first, the timer first
  // 1. Started: the peer's first NULLs against the Started timeout.
  for (uint32_t off = T > span ? T - span : 0; off <= T + 2; off++) {
    race_restart(tb);
    run_script_until(tb, DSLINK_ST_STARTED, 600);
    const uint32_t tmo = tb.r(0).cnt_tmo_err;
    run_script(tb, off);
    tb.peer_.on = true;
    run_script(tb, span + 4);
    (tb.r(0).cnt_tmo_err == tmo ? won : lost)[0]++;
  }
  // 2. Connecting: the peer's FCT against the Connecting timeout.
  for (uint32_t off = T > span ? T - span : 0; off <= T + 2; off++) {
    race_restart(tb);
    tb.peer_.on = true;
    run_script_until(tb, DSLINK_ST_CONNECTING, 600);
    const uint32_t tmo = tb.r(0).cnt_tmo_err;
    run_script(tb, off);
    tb.peer_.ctl(DSLINK_CTL_FCT);
    run_script(tb, span + 4);
    (tb.r(0).cnt_tmo_err == tmo ? won : lost)[1]++;
  }
  // 3. ErrorWait: the line stops (a disconnect) against ErrorWait's end and Ready's one cycle.
  const uint32_t dc = tb.cfg_.disconnect_cycles;
  for (uint32_t off = W > dc + 4 ? W - dc - 4 : 0; off <= W + 4; off++) {
    race_restart(tb);
    tb.peer_.on = true;
    run_script_until(tb, DSLINK_ST_ERROR_WAIT, 600);
    run_script(tb, off);
    tb.peer_.frozen = true;
    // which state the disconnect hits: ErrorWait, or Ready/Started after it
    const uint32_t hit = state_hit(tb, dc + 4, &dslink_regs_t::cnt_disc_err);
    (hit == DSLINK_ST_ERROR_WAIT ? won : lost)[2]++;
  }
  // 4. ErrorWait: a token with bad parity against ErrorWait's end.
  for (uint32_t off = W > span ? W - span : 0; off <= W + 4; off++) {
    race_restart(tb);
    tb.peer_.on = true;
    run_script_until(tb, DSLINK_ST_ERROR_WAIT, 600);
    run_script(tb, off);
    tb.peer_.bits.clear();
    tb.peer_.ctl(DSLINK_CTL_FCT, true);
    const uint32_t hit = state_hit(tb, span + 4, &dslink_regs_t::cnt_par_err);
    (hit == DSLINK_ST_ERROR_WAIT ? won : lost)[3]++;
  }
  const char *what[4] = {"Started timeout / NULL", "Connecting timeout / FCT",
                         "ErrorWait end / disconnect", "ErrorWait end / parity error"};
  for (int k = 0; k < 4; k++) {
    std::printf("dslink: race %s: %u tries the event first, %u the timer first\n", what[k],
                won[k], lost[k]);
    tb.expect(won[k] && lost[k], std::string("the sweep straddles ") + what[k]);
  }
}

// Every receiver event in every state it can arrive in (docs/dslink.md §4 and §6.2), from the
// scripted peer, end a reset before each try: an FCT, a data byte, an EOP, ESC ESC (escape error)
// and a token with bad parity, each in ErrorWait, Ready and Connecting, queued once a's receiver
// has synchronised; and in Started, which lasts one cycle once the receiver is synchronised, by
// raising link_en in Ready at every offset across the token's arrival. Each must land in its
// state and count as the table says (an FCT in Connecting moves to Run); link_en falling in
// Started and Connecting resets the link.
enum MatrixTok { kMxFct, kMxData, kMxEop, kMxEscEsc, kMxBadPar, kMxToks };
void matrix_send(ScriptPeer &p, int tok) {
  switch (tok) {
    case kMxFct: p.ctl(DSLINK_CTL_FCT); break;
    case kMxData: p.data(0x5a); break;
    case kMxEop: p.ctl(DSLINK_CTL_EOP); break;
    case kMxEscEsc: p.ctl(DSLINK_CTL_ESC), p.ctl(DSLINK_CTL_ESC); break;
    default: p.ctl(DSLINK_CTL_FCT, true); break;
  }
}
uint32_t dslink_regs_t::*matrix_cnt(int tok) {
  return tok == kMxEscEsc ? &dslink_regs_t::cnt_esc_err
         : tok == kMxBadPar ? &dslink_regs_t::cnt_par_err
                            : &dslink_regs_t::cnt_proto_err;
}
// End a reset, the peer's NULLs from the start, a taken to state s (with link_en en) and its
// receiver synchronised.
void matrix_to(Tb &tb, uint32_t s, uint32_t en) {
  race_restart(tb);
  tb.peer_.on = true;
  run_script_until(tb, s, 1000, en);
  for (int k = 0; k < 200 && !tb.r(0).rx_sync; k++) run_script(tb, 1, en);
  tb.expect(tb.st(0) == s && tb.r(0).rx_sync, std::string("end a synchronised in ") + dslink_state_name(s));
}
void t_matrix(Tb &tb) {
  const uint32_t bp = tb.cfg_.bit_period, span = 40 * bp;
  const char *tok_name[kMxToks] = {"FCT", "data", "EOP", "ESC ESC", "bad parity"};
  const uint32_t states[3] = {DSLINK_ST_ERROR_WAIT, DSLINK_ST_READY, DSLINK_ST_CONNECTING};
  for (uint32_t s : states) {
    const uint32_t en = s == DSLINK_ST_READY ? 0 : 1;
    for (int tok = 0; tok < kMxToks; tok++) {
      matrix_to(tb, s, en);
      matrix_send(tb.peer_, tok);
      const std::string what = std::string(tok_name[tok]) + " in " + dslink_state_name(s);
      if (s == DSLINK_ST_CONNECTING && tok == kMxFct) {
        run_script_until(tb, DSLINK_ST_RUN, span);
        continue;
      }
      const uint32_t hit = state_hit(tb, span, matrix_cnt(tok), en);
      tb.expect(hit == s, what + " counts in that state");
    }
  }
  // Started: link_en rises in Ready at every offset across the token's arrival.
  for (int tok = 0; tok < kMxToks; tok++) {
    uint32_t in_started = 0;
    for (uint32_t off = 0; off < 20 * bp; off++) {
      matrix_to(tb, DSLINK_ST_READY, 0);
      matrix_send(tb.peer_, tok);
      run_script(tb, off, 0);
      in_started += state_hit(tb, span, matrix_cnt(tok), 1) == DSLINK_ST_STARTED;
    }
    std::printf("dslink: matrix: %s in Started's one cycle: %u tries\n", tok_name[tok], in_started);
    tb.expect(in_started > 0, std::string(tok_name[tok]) + " lands in Started");
  }
  // link_en falls in Started (peer silent: a waits there) and in Connecting.
  race_restart(tb);
  run_script_until(tb, DSLINK_ST_STARTED, 1000);
  run_script(tb, 1, 0);
  tb.expect(tb.st(0) == DSLINK_ST_ERROR_RESET, "link_en low in Started resets the link");
  matrix_to(tb, DSLINK_ST_READY, 0);
  run_script_until(tb, DSLINK_ST_CONNECTING, 100);
  run_script(tb, 1, 0);
  tb.expect(tb.st(0) == DSLINK_ST_ERROR_RESET, "link_en low in Connecting resets the link");
}

// The receive FIFO one from full (RxDepth tokens, a's user not reading) when the credit error of
// credit_rx pushes the ERR marker that closes the open packet, and the user reads one token in
// that very cycle: the count must stay at RxDepth. Found by a first run, then replayed (the
// scripted peer is deterministic and a is reset before each) with the read on that cycle.
void t_full_pop(Tb &tb) {
  auto run = [&](int64_t read_at) -> int64_t {
    race_restart(tb);
    script_to_run(tb);
    run_script(tb, 200);
    for (uint32_t k = 0; k <= tb.cfg_.rx_depth; k++) tb.peer_.data(k);
    const uint64_t t0 = tb.cyc_;
    const uint32_t c0 = tb.r(0).cnt_cred_err;
    int64_t at = -1;
    for (uint32_t k = 0; k < 600 * tb.cfg_.bit_period && at < 0; k++) {
      const int64_t off = (int64_t)(tb.cyc_ - t0);
      const uint32_t cnt = tb.r(0).rxf_cnt;
      run_script(tb, 1, 1, off == read_at ? 1 : 0);
      if (tb.r(0).cnt_cred_err != c0) {
        at = off;
        if (read_at >= 0)
          tb.expect(cnt == tb.cfg_.rx_depth && tb.r(0).rxf_cnt == tb.cfg_.rx_depth,
                    "ERR pushed and a token read in one cycle: the FIFO stays at RxDepth");
      }
    }
    tb.expect(at >= 0, "the token beyond credit is a credit error");
    return at;
  };
  const int64_t at = run(-1);
  tb.expect(run(at) == at, "the replay meets the credit error on the same cycle");
}

// The peer goes quiet while end a sends an unterminated packet (docs/dslink.md §5.3): the
// disconnect cuts it, a's transmitter spills the rest of it, and the end token written after ends
// the spill.
// End a's user writes n tokens of one kind (bytes 0x30, 0x31, ...) while the script runs.
void offer_a(Tb &tb, uint32_t n, uint32_t kind) {
  uint32_t sent = 0;
  for (int k = 0; k < 400 && sent < n; k++) {
    bool taken = false;
    tb.cycle([&] {
      script_stim(tb);
      tb.e_[0].in.tx_valid = 1;
      tb.e_[0].in.tx_data = 0x30u + sent;
      tb.e_[0].in.tx_kind = kind;
      taken = tb.e_[0].mo.tx_ready;
    });
    sent += taken;
  }
  tb.expect(sent == n, "end a takes the tokens");
}

void t_spill(Tb &tb) {
  const uint32_t s0 = tb.r(0).cnt_tx_spill, dc0 = tb.r(0).cnt_disc_err;
  script_to_run(tb);
  offer_a(tb, 3, DSLINK_KIND_DATA);
  for (int k = 0; k < 200 && !tb.r(0).tx_open; k++) run_script(tb, 1);
  tb.expect(tb.r(0).tx_open, "end a is sending the packet");
  tb.peer_.frozen = true;
  run_script(tb, tb.cfg_.disconnect_cycles + 4);
  tb.expect(d16(tb.r(0).cnt_disc_err, dc0) == 1, "the quiet peer is a disconnect");
  tb.expect(d16(tb.r(0).cnt_tx_spill, s0) == 1 && tb.r(0).tx_spill, "the cut packet is spilled");
  offer_a(tb, 1, DSLINK_KIND_EOP);
  run_script(tb, 20);
  tb.expect(!tb.r(0).tx_spill && tb.r(0).txf_cnt == 0, "the end token ends the spill");
}

// An ERR left in the transmit FIFO's storage after its ABORT (docs/dslink.md §5.4): ERR and then
// TxDepth - 1 tokens are written, so once the FIFO has drained its read pointer is back on the
// ERR's slot. An empty FIFO has no head (head_ok): the link must stay in Run, no second ABORT.
void t_stale_err(Tb &tb) {
  script_to_run(tb);
  offer_a(tb, 1, DSLINK_KIND_DATA);
  offer_a(tb, 1, DSLINK_KIND_ERR);
  run_script_until(tb, DSLINK_ST_ERROR_RESET, 200);
  tb.peer_ = ScriptPeer{};
  tb.peer_.bp = tb.cfg_.bit_period;
  script_to_run(tb);
  offer_a(tb, tb.cfg_.tx_depth - 2, DSLINK_KIND_DATA);
  offer_a(tb, 1, DSLINK_KIND_EOP);
  for (int k = 0; k < 400 && tb.r(0).txf_cnt; k++) run_script(tb, 1);
  tb.expect(tb.r(0).txf_cnt == 0 && tb.r(0).txf_rptr == tb.r(0).txf_wptr, "the FIFO drained");
  run_script(tb, 300);
  tb.expect(tb.st(0) == DSLINK_ST_RUN, "an empty FIFO's stale ERR is no ABORT: the link stays up");
}

// Event counters across every carry: the 16-bit counters never get past a few hundred in a run,
// so their upper bits would never change. For k = 1..16 every counter of both ends is set to
// 2^k - 1 on both sides (tb/backdoor.h), then to 0xfffe, and the scripted error cases run again
// and check their increments modulo 2^16: each bit is carried into, cleared by a carry, and held
// at 1 and at 0, and 0xffff wraps to 0.
void t_counters(Tb &tb) {
  const std::function<void(Tb &)> cases[] = {t_parity, t_escape,  t_disconnect, t_credit_rx,
                                             t_credit_tx, t_proto, t_timeout, t_spill};
  for (uint32_t k = 1; k <= lockstep::CarryWalk::kRound; k++) {
    const uint32_t v = lockstep::CarryWalk::value(k);
    for (int i = 0; i < 2; i++) tb.inject_counters(i, v);
    for (const auto &c : cases) {
      tb.peer_ = ScriptPeer{};
      tb.peer_.bp = tb.cfg_.bit_period;
      c(tb);
    }
  }
  std::printf("dslink: counters: the error cases ran from 17 injected values, 1 to 0xffff and 0xfffe\n");
}

// ---- Random traffic with wire faults -------------------------------------------------------

void t_random(Tb &tb, bool faults) {
  rng_t &g = tb.rng_;
  for (int i = 0; i < 2; i++) {
    tb.flow_[i].maxlen = 1 + rng_below(&g, 80);
    tb.flow_[i].longlen = 300;
    tb.flow_[i].valid_pct = 30 + rng_below(&g, 71);
    tb.flow_[i].abort_pm = faults ? 2 : 0;
  }
  const uint32_t ready_pct = 40 + rng_below(&g, 61);
  const uint64_t total = tb.o_.cycles, tail = total / 5, fault_end = tb.cyc_ + total - tail;
  uint64_t resets = 0;
  // Long runs report progress on stderr, every tenth of the run.
  const uint64_t t0 = tb.cyc_, tenth = total / 10;
  uint64_t next_report = total >= 5000000 ? t0 + tenth : UINT64_MAX;
  auto progress = [&] {
    if (tb.cyc_ < next_report) return;
    std::fprintf(stderr, "dslink: %s seed %" PRIu64 ": %" PRIu64 "%% (%" PRIu64 " cycles)\n",
                 tb.o_.test.c_str(), tb.o_.seed, (tb.cyc_ - t0) * 100 / total, tb.cyc_ - t0);
    next_report += tenth;
  };
  while (tb.cyc_ < fault_end) {
    progress();
    if (faults) {
      for (int w = 0; w < 2; w++) {
        Fault &f = tb.fault_[w];
        if (f.active() || !rng_chance(&g, 1, 3000)) continue;
        const dslink_out_t &o = tb.e_[w].mo;
        switch (rng_below(&g, 6)) {
          case 0:
          case 1: f.start(rng_chance(&g, 1, 2) ? Fault::kFlipD : Fault::kFlipS, tb.cyc_, 1, 0, 0, 0); break;
          case 2: f.start(Fault::kStuckD, tb.cyc_, 2 + rng_below(&g, 40), rng_below(&g, 2), 0, 0); break;
          case 3: f.start(Fault::kStuckS, tb.cyc_, 2 + rng_below(&g, 40), rng_below(&g, 2), 0, 0); break;
          default: f.start(Fault::kCut, tb.cyc_, 10 + rng_below(&g, 400), 0, o.d, o.s); break;
        }
      }
    }
    if (faults) {
      if (rng_chance(&g, 1, 200000)) tb.link_en_[rng_below(&g, 2)] ^= 1u;
      if (rng_chance(&g, 1, 150000)) tb.reset_end((int)rng_below(&g, 2), rng_below(&g, 3));
      // A user that stops reading for a while: the receive FIFO fills (to RxDepth, then the ERR
      // of a link reset on top) and stays full across the link's restart.
      if (rng_chance(&g, 1, 30000)) tb.stall_until_[rng_below(&g, 2)] = tb.cyc_ + 200 + rng_below(&g, 3000);
      for (int i = 0; i < 2; i++)
        if (tb.link_en_[i] == 0 && rng_chance(&g, 1, 2000)) tb.link_en_[i] = 1;
    }
    bool was_run = tb.st(1) == DSLINK_ST_RUN;
    tb.run_link(1, true, ready_pct);
    if (was_run && tb.st(1) != DSLINK_ST_RUN) resets++;
  }
  // Clean tail: the link must come back by itself and carry traffic intact.
  tb.link_en_[0] = tb.link_en_[1] = 1;
  tb.stall_until_[0] = tb.stall_until_[1] = 0;
  for (int i = 0; i < 2; i++) tb.flow_[i].abort_pm = 0;
  uint64_t ok_before[2] = {tb.flow_[0].n_ok, tb.flow_[1].n_ok};
  uint64_t bad_before[2] = {tb.flow_[0].n_bad, tb.flow_[1].n_bad};
  tb.wait_run(5000, true);
  uint64_t t_up = tb.cyc_;
  while (tb.cyc_ < fault_end + tail) {
    progress();
    tb.run_link(1, true, ready_pct);
  }
  tb.run_link(4000, false, 100);
  for (int i = 0; i < 2; i++) {
    const Flow &f = tb.flow_[i];
    std::printf("dslink: %s sent %" PRIu64 " ok %" PRIu64 " cut %" PRIu64 " lost %" PRIu64
                " damaged %" PRIu64 "\n",
                f.name.c_str(), f.n_sent, f.n_ok, f.n_cut, f.n_lost, f.n_bad);
    tb.expect(f.sent.size() == f.n_sent - f.complete(),
              f.name + " nothing left undelivered after the drain");
    tb.expect(f.n_ok > ok_before[i], f.name + " carries traffic after the faults");
    if (!faults) {
      tb.expect(f.n_bad == 0 && f.n_lost == 0 && f.n_cut == 0 && f.n_ok == f.complete(),
                f.name + " clean link delivers every packet intact: " + f.first_error);
    } else {
      tb.expect(f.n_bad == bad_before[i], f.name + " no damage after the faults end: " + f.first_error);
    }
  }
  if (faults) {
    uint64_t nf = 0;
    for (auto &f : tb.fault_)
      for (int k = 1; k < 6; k++) nf += f.count[k];
    uint64_t errs = 0;
    for (int i = 0; i < 2; i++)
      errs += tb.r(i).cnt_par_err + tb.r(i).cnt_esc_err + tb.r(i).cnt_disc_err +
              tb.r(i).cnt_cred_err + tb.r(i).cnt_proto_err + tb.r(i).cnt_tmo_err;
    std::printf("dslink: %" PRIu64 " wire faults, %" PRIu64 " link errors, %" PRIu64
                " link drops, up again %" PRIu64 " cycles into the clean tail\n",
                nf, errs, resets, t_up - fault_end);
    tb.expect(nf > 0 && errs > 0, "faults were injected and detected");
  }
}

struct TestDef {
  const char *name;
  std::function<void(Tb &)> fn;
  const char *what;
};

const std::vector<TestDef> &tests() {
  static const std::vector<TestDef> t = {
      {"startup", t_startup, "both ends from reset to Run, idle link stays up"},
      {"packets", t_packets, "random packets 1..40 bytes and 2000-byte packets, EOP/EOM, both ways"},
      {"credit", t_credit, "receiver stalls: sender stops after RxDepth tokens, resumes"},
      {"parity", t_parity, "scripted peer sends a token with bad parity"},
      {"escape", t_escape, "scripted peer sends ESC EOP"},
      {"disconnect", t_disconnect, "scripted peer stops toggling"},
      {"credit_rx", t_credit_rx, "scripted peer sends more tokens than credit"},
      {"credit_tx", t_credit_tx, "scripted peer grants credit beyond TxCreditMax"},
      {"proto", t_proto, "FCT in Ready, data in Connecting"},
      {"timeout", t_timeout, "Started and Connecting timeouts"},
      {"cut", t_cut, "wire cut in a long packet: ERR at the receiver, spill at the sender"},
      {"abort", t_abort, "ERR written on tx takes the link down and cuts the packet"},
      {"link_en", t_link_en, "link_en low takes the link down, high brings it back"},
      {"reset", t_reset, "reset mid-run: in every state, with packets in flight, a, b, both, held"},
      {"full_pop", t_full_pop, "ERR pushed into a FIFO one from full while the user reads"},
      {"matrix", t_matrix, "FCT, data, EOP, ESC ESC, bad parity in ErrorWait, Ready, Started, Connecting"},
      {"stale_err", t_stale_err, "an ERR left in an empty FIFO's storage is not sent again"},
      {"spill", t_spill, "peer goes quiet while a sends: the cut packet is spilled to its end"},
      {"counters", t_counters, "error cases again from counters injected at 2^k - 1, k = 1..16"},
      {"race", t_race, "events on every cycle across the Started, Connecting, ErrorWait timers' ends"},
      {"random", [](Tb &tb) { t_random(tb, false); }, "random traffic and back-pressure, clean wires"},
      {"faults", [](Tb &tb) { t_random(tb, true); }, "random traffic with bit flips, stuck and cut wires"},
  };
  return t;
}

void help() {
  std::printf(
      "usage: dslink_lockstep [--test NAME] [--seed S] [--cycles N] [--waves] [--wave-dir D]\n"
      "                       [--trace-full] [--list] [+mutant=K]\n"
      "Runs the DS-Link RTL and C model in lockstep. --cycles applies to random and faults.\n");
}

Options parse(int argc, char **argv) {
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
    else if (a == "--list") o.list = true;
    else if (a == "--help" || a == "-h") help(), std::exit(0);
    else if (a[0] == '+') continue;  // Verilator plusargs (+mutant=K, +verilator+...)
    else usage_error("unknown option '" + a + "'");
  }
  if (o.cycles < 1000) usage_error("--cycles must be at least 1000");
  return o;
}

}  // namespace

int main(int argc, char **argv) {
  Options o = parse(argc, argv);
  if (o.list) {
    for (const TestDef &t : tests()) std::printf("%-12s %s\n", t.name, t.what);
    return 0;
  }
  const TestDef *def = nullptr;
  for (const TestDef &t : tests())
    if (o.test == t.name) def = &t;
  if (!def) usage_error("unknown test '" + o.test + "' (--list shows them)");
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  Tb tb(o, ctx.get());
  if (tb.open_waves()) return 2;
  tb.reset();
  def->fn(tb);
  tb.finish();
  lockstep::cov_write(ctx.get());
  return 0;
}
