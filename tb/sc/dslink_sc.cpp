// SystemC demonstration 1 and 3 (docs/systemc.md): a Verilated DS-Link end (a, `verilator --sc`
// of rtl/dslink*.sv) and the C model's SC_MODULE (b, include/madpost/sc/dslink.h) joined by their
// D/S wires in one SystemC simulation, passing packets both ways; every pin of both ends checked
// each cycle against a pure-C pair driven by the same stimulus; waves through sc_trace under the
// scopes, names and time base of the lockstep VCDs, with the .gtkw the lockstep bench would write;
// the merged wave (tb/common/merged_wave.h: rtl, model, mismatch scopes) with --waves, and from
// the harness's ring by a failing run, its path printed (docs/waves.md).
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>

#include <sys/stat.h>

#include <systemc>

#include "Vdslink.h"
#include <madpost/madpost_rng.h>
#include <madpost/sc/dslink.h>

#include "common/ports.h"
#include "lockstep.h"
#include "sc/sc_opts.h"
#include "sc/sc_waves.h"

static_assert(dslink_sc::pins_match<Vdslink>(), "dslink_sc is pin-compatible with Vdslink");

namespace {

// Seconds of this process's CPU time: speeds measured on a shared machine.
double cpu_now() { return (double)std::clock() / CLOCKS_PER_SEC; }

// The options (tb/sc/sc_opts.h); this demo has none of its own.
using Opts = madpost_sc::DemoOpts;
constexpr const char *kUsage = "[--cycles N] [--seed S] [--waves DIR] [--wave-dir DIR] [--bench] [--corrupt CYCLE]";

Opts parse(int argc, char **argv) {
  Opts o;
  o.cycles = 40000;
  madpost_sc::demo_parse(argc, argv, "dslink_sc", kUsage, &o, [](const std::string &, const char *) { return false; });
  if (o.cycles < 1000)
    madpost_sc::demo_usage("dslink_sc", kUsage, "--cycles must be at least 1000 (the link starts in about 400)");
  return o;
}

// Rounds of reset before the run: rst_ni is low over the first kResetCycles rising edges.
constexpr uint64_t kResetCycles = 2;
constexpr uint32_t kPackets = 16;  // tokens per packet: 15 data and an EOP

// One end's traffic: its packets out and the check of what arrives from the other end.
struct Traffic {
  madpost_rng_t rng{};
  uint64_t sent = 0, rcvd = 0;
  std::deque<uint32_t> expect;  // tokens the other end sent, not yet received here
  uint32_t token(uint64_t k, int end) const { return (uint32_t)((k * 7 + (uint64_t)end * 101) & 0xFF); }
};

// The stimulus of cycle n from the ends' outputs: what both simulations apply.
void stimulus(Traffic t[2], const dslink_out_t out[2], dslink_in_t in[2], uint64_t n) {
  for (int e = 0; e < 2; e++) {
    in[e].d = out[1 - e].d;
    in[e].s = out[1 - e].s;
    in[e].link_en = n >= kResetCycles;
    // Tokens offered before the link runs would be flushed by its resets: offer none until then.
    in[e].tx_valid = out[e].link_state == DSLINK_ST_RUN;
    in[e].tx_data = t[e].token(t[e].sent, e);
    in[e].tx_kind = t[e].sent % kPackets == kPackets - 1 ? DSLINK_KIND_EOP : DSLINK_KIND_DATA;
    in[e].rx_ready = madpost_rng_chance(&t[e].rng, 3, 4);
  }
}

// The handshakes of the edge ahead: a token leaves end e, one arrives at it. -1 on wrong data.
int handshakes(Traffic t[2], const dslink_out_t out[2], const dslink_in_t in[2], uint64_t n) {
  for (int e = 0; e < 2; e++) {
    if (in[e].tx_valid && out[e].tx_ready) {
      // An end-of-packet token carries no data byte: it arrives with data 0.
      const uint32_t data = in[e].tx_kind == DSLINK_KIND_DATA ? in[e].tx_data : 0;
      t[1 - e].expect.push_back(data | in[e].tx_kind << 8);
      t[e].sent++;
    }
    if (out[e].rx_valid && in[e].rx_ready) {
      const uint32_t got = out[e].rx_data | out[e].rx_kind << 8;
      if (t[e].expect.empty() || t[e].expect.front() != got) {
        std::printf("dslink_sc: FAIL end %c cycle %llu received 0x%03x, expected 0x%03x\n", "ab"[e],
                    (unsigned long long)n, got, t[e].expect.empty() ? 0xFFFu : t[e].expect.front());
        return -1;
      }
      t[e].expect.pop_front();
      t[e].rcvd++;
    }
  }
  return 0;
}

// The signal table of one end, as the lockstep bench's (tb/dslink/harness.h).
std::vector<lockstep::Sig> make_sigs() {
  std::vector<lockstep::Sig> s;
  PORTS_TABLE(&s, DSLINK_INPUTS, DSLINK_OUTPUTS, DSLINK_REGS);
  return s;
}

SC_MODULE(testbench) {
  sc_core::sc_clock clk{"clk_i", 10, sc_core::SC_NS, 0.5, 5, sc_core::SC_NS, true};
  sc_core::sc_signal<bool> rst_n{"rst_ni", true};
  dslink_sc_wires w0{"wa"}, w1{"wb"};
  Vdslink a{"a"};
  dslink_sc b{"b"};
  Opts o;
  dslink_cfg_t cfg{};
  dslink_state_t ref[2]{};  // the pure-C pair
  Traffic t[2];
  std::vector<lockstep::Sig> sigs = make_sigs();
  lockstep::Instance inst[2];
  lockstep::Harness h;  // every cycle's compare, the ring and the merged wave
  int status = 0;

  SC_HAS_PROCESS(testbench);
  explicit testbench(sc_core::sc_module_name nm, const Opts &op) : sc_core::sc_module(nm), o(op), h("dslink", op.seed, "sc") {
    auto dsx = [](const char *n) { return !std::strcmp(n, "d_i") || !std::strcmp(n, "s_i"); };
    w0.bind(a, clk, rst_n, dsx);
    w1.bind(b, clk, rst_n, dsx);
    a.d_i(w1.d_o), a.s_i(w1.s_o), b.d_i(w0.d_o), b.s_i(w0.s_o);
    dslink_cfg_default(&cfg);
    for (int e = 0; e < 2; e++) {
      dslink_reset(&cfg, &ref[e]);
      madpost_rng_seed(&t[e].rng, o.seed, (uint64_t)e + 1);
      inst[e].init(e ? "b" : "a", &sigs);
      h.add(&inst[e]);
    }
    h.set_wave_out(o.wave_dir, wave::kVcd);
    // The view opens where the bench's does: the ends exchanging NULLs (tb/dslink/harness.h).
    h.set_view_start((uint64_t)(cfg.reset_cycles + cfg.wait_cycles) * lockstep::kPeriod);
    SC_THREAD(run);
    if (madpost_sc::pin_names(a) != madpost_sc::pin_names(b)) {
      std::printf("dslink_sc: FAIL, Vdslink and dslink_sc have different pins\n");
      status = 1;
    }
  }

  // Pins of end e into its instance's rtl side, the pure-C end's values into its model side.
  template <class W>
  void collect(int e, const W &w, const dslink_in_t &in, const dslink_out_t &out) {
    ports::Fill f{&inst[e]};
#define X_IN(n, c, wd) f.both(in.n);
#define X_OUT(n, c, wd) f.pair((uint64_t)w.n##_o.read(), out.n);
#define X_REG(n, c, wd) f.pair((uint64_t)w.dbg_##n##_o.read(), ref[e].r.n);
    DSLINK_INPUTS(X_IN)
    DSLINK_OUTPUTS(X_OUT)
    DSLINK_REGS(X_REG)
#undef X_IN
#undef X_OUT
#undef X_REG
  }

  template <class W>
  static void read_out(const W &w, dslink_out_t *out) {
#define X_OUT(n, c, wd) out->n = (uint32_t)w.n##_o.read();
    DSLINK_OUTPUTS(X_OUT)
#undef X_OUT
  }

  template <class W>
  static void apply(W &w, const dslink_in_t &in) {
    w.link_en_i.write(in.link_en);
    w.tx_valid_i.write(in.tx_valid);
    w.tx_data_i.write(in.tx_data);
    w.tx_kind_i.write(in.tx_kind);
    w.rx_ready_i.write(in.rx_ready);
  }

  // Cycle n starts at 10n ns: inputs change, the edge follows at 10n + 5 (the lockstep's time base).
  void run() {
    rst_n.write(false);
    for (uint64_t n = 0; n < o.cycles; n++) {
      if (n == kResetCycles) rst_n.write(true);
      dslink_out_t out[2];
      dslink_in_t in[2];
      dslink_next_t nx[2];
      // The stimulus reacts to the ends' outputs: the pure-C pair's, or (--bench, no pair) the pins'.
      if (o.bench) read_out(w0, &out[0]), read_out(w1, &out[1]);
      else for (int e = 0; e < 2; e++) dslink_outputs(&cfg, &ref[e], &out[e]);
      stimulus(t, out, in, n);
      if (o.bench) {
        handshakes(t, out, in, n);
      } else {
        collect(0, w0, in[0], out[0]);
        collect(1, w1, in[1], out[1]);
        // Cycle 0's pins are from before the first reset (the RTL's x-initial values).
        if (n > 0 && h.check(n)) return fail(n, "a pin differs from the pure-C pair");
        if (handshakes(t, out, in, n)) return fail(n, "a token arrived corrupted or unsent");
      }
      apply(w0, in[0]);
      apply(w1, in[1]);
      if (o.corrupt && n >= o.corrupt) w1.tx_data_i.write(in[1].tx_data ^ 1u);  // the refuted run
      for (int e = 0; e < 2 && !o.bench; e++) {
        if (dslink_eval(&cfg, &ref[e], &in[e], &out[e], &nx[e], nullptr)) return fail(n, "model eval");
        if (n >= kResetCycles) dslink_clock(&ref[e], &nx[e]);
        else dslink_reset(&cfg, &ref[e]);
      }
      wait(10, sc_core::SC_NS);
    }
    // The link starts in about 400 cycles, then carries a token in about 10 each way.
    const uint64_t least = o.cycles / 40;
    if (!o.bench && (t[0].rcvd < least || t[1].rcvd < least))
      return fail(o.cycles, "fewer than cycles/40 tokens arrived one way");
    sc_core::sc_stop();
  }

  void fail(uint64_t n, const char *why) {
    std::printf("dslink_sc: FAIL at cycle %llu: %s\n", (unsigned long long)n, why);
    ::mkdir(o.wave_dir.c_str(), 0777);  // the failure's wave directory (exists already: fine)
    h.fail_waves(n);
    status = 1;
    sc_core::sc_stop();
  }
};

// The same traffic with the pure-C pair alone: the plain C engine's speed, for docs/performance.md.
double c_pair_rate(const Opts &o) {
  dslink_cfg_t cfg;
  dslink_cfg_default(&cfg);
  dslink_state_t st[2];
  Traffic t[2];
  for (int e = 0; e < 2; e++) dslink_reset(&cfg, &st[e]), madpost_rng_seed(&t[e].rng, o.seed, e + 1);
  const auto t0 = cpu_now();
  for (uint64_t n = 0; n < o.cycles; n++) {
    dslink_out_t out[2];
    dslink_in_t in[2];
    dslink_next_t nx[2];
    for (int e = 0; e < 2; e++) dslink_outputs(&cfg, &st[e], &out[e]);
    stimulus(t, out, in, n);
    handshakes(t, out, in, n);
    for (int e = 0; e < 2; e++) dslink_eval(&cfg, &st[e], &in[e], &out[e], &nx[e], nullptr);
    for (int e = 0; e < 2; e++) dslink_clock(&st[e], &nx[e]);
  }
  return (double)o.cycles / (cpu_now() - t0);
}

}  // namespace

int sc_main(int argc, char **argv) {
  const Opts o = parse(argc, argv);
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);  // stop, timescale
  testbench tb("dslink_tb", o);
  sc_core::sc_trace_file *tf = nullptr;
  if (!o.waves.empty()) {
    const std::string base = o.waves + "/dslink_sc_s" + std::to_string(o.seed);
    tf = sc_core::sc_create_vcd_trace_file(base.c_str());
    tf->set_time_unit(1, sc_core::SC_NS);
    sc_core::sc_trace(tf, tb.clk, "dslink_tb.clk_i");
    tb.w0.trace(tf, "dslink_tb.a.");
    tb.w1.trace(tf, "dslink_tb.b.");
    tb.h.write_gtkw(base + ".gtkw");
    std::fprintf(stderr, "dslink_sc: writing %s.vcd and %s.gtkw\n", base.c_str(), base.c_str());
    if (!o.bench && tb.h.open_merged(o.waves)) return 1;
  }
  if (tb.status) return 1;
  const auto t0 = cpu_now();
  sc_core::sc_start();
  const double s = (cpu_now() - t0);
  tb.h.close();
  if (tf) {
    sc_core::sc_close_vcd_trace_file(tf);
    if (sc_waves::drop_systemc_scope(o.waves + "/dslink_sc_s" + std::to_string(o.seed) + ".vcd")) {
      std::fprintf(stderr, "dslink_sc: cannot rewrite the VCD under %s\n", o.waves.c_str());
      return 1;
    }
  }
  if (tb.status) return 1;
  if (o.bench) {  // the last line, for scripts/sc_bench.sh: BENCH name cycles sc_rate c_rate
    const double c = c_pair_rate(o);
    std::printf("dslink_sc bench: %llu cycles, SystemC (Verilated end + C end) %.0f cycles/s, "
                "pure-C pair %.0f cycles/s (%.1fx)\n",
                (unsigned long long)o.cycles, o.cycles / s, c, c / (o.cycles / s));
    std::printf("BENCH dslink %llu %.0f %.0f\n", (unsigned long long)o.cycles, o.cycles / s, c);
    return 0;
  }
  std::printf("dslink_sc: PASS %llu cycles, %llu tokens a->b, %llu b->a, every pin of both ends equal "
              "to the pure-C pair each cycle (%.2f s CPU)\n",
              (unsigned long long)o.cycles, (unsigned long long)tb.t[1].rcvd,
              (unsigned long long)tb.t[0].rcvd, s);
  return 0;
}
