// SystemC demonstration 2 (docs/systemc.md): a 4x4 MP1 mesh whose nodes are chosen per node, a
// checkerboard of Verilated chips (`verilator --sc` of rtl/mp1_chip.sv) and the C model's
// SC_MODULE (include/madpost/sc/mp1_chip.h), wired channel by channel as the all-C mesh
// (cmodel/mp1_mesh.c) wires its chips. Both meshes get the same point-to-point traffic from
// interfaces of their own (include/madpost/mp1_nic.h); every node's interface and channel
// outputs are compared each cycle, and the messages each delivers (node, cycles, bytes) must be
// the same list. A failing run writes the merged wave of its last cycles (tb/lockstep.h's
// harness, nodes n0..n15: the SystemC mesh's outputs under rtl, the all-C mesh's under model;
// docs/waves.md), as does --waves DIR for the whole run.
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <sys/stat.h>

#include <systemc>

#include "Vmp1_chip.h"
#include "common/mesh_sigs.h"
#include "lockstep.h"
#include "sc/sc_opts.h"
#include "sc/sc_waves.h"
#include <madpost/madpost_rng.h>
#include <madpost/mp1_mesh.h>
#include <madpost/mp1_nic.h>
#include <madpost/sc/mp1_chip.h>

static_assert(mp1_chip_sc::pins_match<Vmp1_chip>(), "mp1_chip_sc is pin-compatible with Vmp1_chip");

namespace {

// Seconds of this process's CPU time: speeds measured on a shared machine.
double cpu_now() { return (double)std::clock() / CLOCKS_PER_SEC; }

constexpr uint32_t kKx = 4, kKy = 4, kN = kKx * kKy, kChans = MP1_MESH_CHANS;
constexpr uint64_t kResetCycles = 2;  // rst_ni low over the first rising edges

// The options: the demos' (tb/sc/sc_opts.h) and this one's --rate and --nodes.
struct Opts : madpost_sc::DemoOpts {
  uint32_t rate = 10000;          // new messages per node per million cycles
  std::string nodes = "checker";  // which chips are Verilated: checker, all (rtl) or none (c)
};
constexpr const char *kUsage =
    "[--cycles N] [--seed S] [--rate PER_MILLION] [--nodes checker|rtl|c] [--waves DIR] [--wave-dir DIR] "
    "[--bench] [--corrupt CYCLE]";

[[noreturn]] void usage(const std::string &msg) { madpost_sc::demo_usage("mp1_mesh_sc", kUsage, msg); }

Opts parse(int argc, char **argv) {
  Opts o;
  o.cycles = 6000;
  madpost_sc::demo_parse(argc, argv, "mp1_mesh_sc", kUsage, &o, [&o](const std::string &a, const char *v) {
    if (a == "--nodes") {
      o.nodes = v;
      if (o.nodes != "checker" && o.nodes != "rtl" && o.nodes != "c") usage("--nodes checker|rtl|c");
      return true;
    }
    if (a != "--rate") return false;
    o.rate = (uint32_t)std::min<uint64_t>(madpost_sc::demo_number("mp1_mesh_sc", kUsage, v), 1000001);
    return true;
  });
  if (o.cycles < 100 || o.rate > 1000000) usage("--cycles at least 100, --rate at most 1000000");
  return o;
}

// A delivered message: where, when, what.
struct Delivery {
  uint32_t node;
  uint64_t t_first, t_eom;
  std::vector<uint8_t> bytes;
  bool operator==(const Delivery &d) const {
    return node == d.node && t_first == d.t_first && t_eom == d.t_eom && bytes == d.bytes;
  }
};

// One mesh's interfaces: senders, receivers and the stimulus stream. Both meshes have one, seeded
// alike: while the meshes agree, so do their streams.
struct Side {
  madpost_rng_t g{};
  mp1_nic_t tx[kN]{}, rx[kN]{};
  mp1_mesh_in_t in[kN]{};
  uint64_t queued = 0;
  std::vector<Delivery> log;

  void init(uint64_t seed) {
    madpost_rng_seed(&g, seed, 0x5c);
    for (uint32_t n = 0; n < kN; n++) mp1_nic_reset(&tx[n]), mp1_nic_reset(&rx[n]), in[n].pbloop = 1;
  }
  // New messages (point to point, static or adaptive, 1..40 data bytes), then this cycle's inputs.
  void inputs(uint32_t rate) {
    for (uint32_t n = 0; n < kN; n++) {
      if (tx[n].count < MP1_NIC_QUEUE && madpost_rng_below(&g, 1000000) < rate) {
        uint32_t d = madpost_rng_below(&g, kN - 1);
        if (d >= n) d++;
        mp1_msg_t m{};
        m.id = ++queued;
        const uint32_t h = mp1_msg_p2p(MP1_AWF, kKx, n, d, madpost_rng_below(&g, 2), &m);
        const uint32_t len = 1 + madpost_rng_below(&g, 40);
        for (uint32_t k = 0; k < len; k++) m.bytes[h + k] = (uint8_t)madpost_rng_next(&g);
        m.len = h + len;
        mp1_nic_push(&tx[n], &m);
      }
      if (madpost_rng_chance(&g, 1, 20)) in[n].rcv_stop = madpost_rng_chance(&g, 1, 4);
      in[n].inj_dat = tx[n].dat;
    }
  }
  // This cycle's outputs: receptions, then the senders' next chunks from inj_stop.
  int react(const mp1_mesh_out_t *out, uint64_t c) {
    for (uint32_t n = 0; n < kN; n++) {
      mp1_rx_msg_t r;
      const int got = mp1_nic_rx(&rx[n], out[n].rcv_dat, c, &r);
      if (got < 0) return -1;
      if (got) log.push_back({n, r.t_first, r.t_eom, std::vector<uint8_t>(r.bytes, r.bytes + r.len)});
      mp1_nic_tx_step(&tx[n], out[n].inj_stop, c);
    }
    return 0;
  }
};

// The chip of a node: Verilated on the checkerboard's black squares, the C model's module on the
// white ones (--nodes rtl, c: every node one kind, for the speeds of docs/performance.md).
bool verilated(const Opts &o, uint32_t n) {
  return o.nodes == "rtl" || (o.nodes == "checker" && (n % kKx + n / kKx) % 2 == 0);
}

// For the waves: one plane's registers out of a chip's dbg_p<k>_o bus (the first in the top bits),
// a signal each, traced as the mesh lockstep names them, p<k>_<reg>_q (its .gtkw then fits).
#define TAP_X_SIG(n, c, w) sc_core::sc_signal<madpost_sc::pin_t<(c) * (w)>> n{#n};
#define TAP_X_GET(n, c, w) top -= (w), n.write(madpost_sc::to_pin<(c) * (w)>(b.get(top, w), 1, w));
#define TAP_X_TRACE(n, c, w) madpost_sc::trace(tf, n, scope + #n "_q", (c) * (w));
SC_MODULE(plane_tap) {
  sc_core::sc_in<madpost_sc::pin_t<MP1_PLANE_REG_BITS>> bus{"bus"};
  MP1_PLANE_REGS(TAP_X_SIG)
  SC_CTOR(plane_tap) {
    SC_METHOD(unpack);
    sensitive << bus;
  }
  void unpack() {
    madpost_sc::bits<MP1_PLANE_REG_BITS> b;
    b.load(bus.read());
    unsigned top = MP1_PLANE_REG_BITS;
    MP1_PLANE_REGS(TAP_X_GET)
  }
  void trace(sc_core::sc_trace_file *tf, const std::string &scope) const { MP1_PLANE_REGS(TAP_X_TRACE) }
};

SC_MODULE(mesh_tb) {
  sc_core::sc_clock clk{"clk_i", 10, sc_core::SC_NS, 0.5, 5, sc_core::SC_NS, true};
  sc_core::sc_signal<bool> rst_n{"rst_ni", true};
  sc_core::sc_signal<uint32_t> no_dat{"no_dat", 0};  // a channel from outside the mesh
  sc_core::sc_signal<bool> no_stop{"no_stop", false};
  std::unique_ptr<mp1_chip_sc_wires> w[kN];
  std::unique_ptr<Vmp1_chip> vchip[kN];
  std::unique_ptr<mp1_chip_sc> cchip[kN];
  std::vector<std::unique_ptr<plane_tap>> taps;  // with --waves: node n's plane p at 4n + p
  Opts o;
  mp1_mesh_cfg_t cfg{};
  mp1_mesh_state_t ref{};
  mp1_mesh_next_t ref_nx{};
  Side sc_side, c_side;
  // Every node's interface and channel pins against the all-C mesh's, through the lockstep
  // harness: its compare and its ring for the merged wave (outputs only: no registers compared).
  std::vector<lockstep::Sig> sigs = mesh_sigs::node(false);
  lockstep::Instance inst[kN];
  lockstep::Harness h;
  int status = 0;

  // Channel j's output chunk and input stop of node n's wires (j = 2p + d).
  sc_core::sc_signal<uint32_t> *out_dat(uint32_t n, uint32_t j) {
    sc_core::sc_signal<uint32_t> *a[kChans] = {MP1_CHIP_PER_CHANNEL(&w[n]->, xout_dat_o, yout_dat_o)};
    return a[j];
  }
  sc_core::sc_signal<bool> *in_stop(uint32_t n, uint32_t j) {
    sc_core::sc_signal<bool> *a[kChans] = {MP1_CHIP_PER_CHANNEL(&w[n]->, xin_stop_o, yin_stop_o)};
    return a[j];
  }
  // The node whose channel j feeds node n (-1: the mesh's edge), as cmodel/mp1_mesh.c wires it.
  int upstream(uint32_t n, uint32_t j) {
    for (uint32_t m = 0; m < kN; m++)
      if (mp1_mesh_next_node(&cfg, m, j) == (int)n) return (int)m;
    return -1;
  }
  // Node n's channel inputs to its neighbours' outputs: chunks from upstream, stops from downstream.
  template <class M>
  void link(M &m, uint32_t n) {
    sc_core::sc_signal<uint32_t> *dat[kChans];
    sc_core::sc_signal<bool> *stop[kChans];
    for (uint32_t j = 0; j < kChans; j++) {
      const int up = upstream(n, j), dn = mp1_mesh_next_node(&cfg, n, j);
      dat[j] = up < 0 ? &no_dat : out_dat((uint32_t)up, j);
      stop[j] = dn < 0 ? &no_stop : in_stop((uint32_t)dn, j);
    }
#define LINK(p, k, ...)                                                            \
  m.p##_xin_dat_i(*dat[2 * (k)]), m.p##_yin_dat_i(*dat[2 * (k) + 1]);              \
  m.p##_xout_stop_i(*stop[2 * (k)]), m.p##_yout_stop_i(*stop[2 * (k) + 1]);
    MP1_CHIP_PLANE_LIST(LINK, _)
#undef LINK
  }

  SC_HAS_PROCESS(mesh_tb);
  mesh_tb(sc_core::sc_module_name nm, const Opts &op) : sc_core::sc_module(nm), o(op), h("mp1_mesh", op.seed, "sc") {
    for (uint32_t n = 0; n < kN; n++) inst[n].init("n" + std::to_string(n), &sigs), h.add(&inst[n]);
    h.set_wave_out(o.wave_dir, wave::kVcd);
    cfg.kx = kKx, cfg.ky = kKy, cfg.awf = MP1_AWF, cfg.lean = 1;
    if (mp1_mesh_init(&ref, &ref_nx, cfg)) usage("cannot make the C mesh");
    auto chan_in = [](const char *p) { return p[0] == 'p' && p[1] >= '0' && p[1] <= '3'; };
    for (uint32_t n = 0; n < kN; n++) w[n] = std::make_unique<mp1_chip_sc_wires>(("w" + std::to_string(n)).c_str());
    for (uint32_t n = 0; n < kN; n++) {
      const std::string name = "chip" + std::to_string(n);
      if (verilated(o, n)) {
        vchip[n] = std::make_unique<Vmp1_chip>(name.c_str());
        w[n]->bind(*vchip[n], clk, rst_n, chan_in);
        link(*vchip[n], n);
      } else {
        cchip[n] = std::make_unique<mp1_chip_sc>(name.c_str());
        w[n]->bind(*cchip[n], clk, rst_n, chan_in);
        link(*cchip[n], n);
      }
    }
    for (uint32_t n = 0; n < kN && !o.waves.empty(); n++) {
      sc_core::sc_signal<madpost_sc::pin_t<MP1_PLANE_REG_BITS>> *bus[] = {
          &w[n]->dbg_p0_o, &w[n]->dbg_p1_o, &w[n]->dbg_p2_o, &w[n]->dbg_p3_o};
      for (uint32_t p = 0; p < MP1_CHIP_PLANES; p++) {
        taps.push_back(std::make_unique<plane_tap>(("tap" + std::to_string(4 * n + p)).c_str()));
        taps.back()->bus(*bus[p]);
      }
    }
    sc_side.init(o.seed);
    c_side.init(o.seed);
    SC_THREAD(run);
  }
  ~mesh_tb() { mp1_mesh_free(&ref, &ref_nx); }

  void read_out(mp1_mesh_out_t *out) {
    for (uint32_t n = 0; n < kN; n++) {
      const mp1_chip_sc_wires &x = *w[n];
      out[n].inj_stop = x.inj_stop_o.read(), out[n].pbi_stop = x.pbi_stop_o.read();
      out[n].rcv_dat = (uint8_t)x.rcv_dat_o.read(), out[n].pbo_dat = (uint8_t)x.pbo_dat_o.read();
      out[n].err = x.err_o.read();
      for (uint32_t j = 0; j < kChans; j++)
        out[n].chan_dat[j] = (uint8_t)out_dat(n, j)->read(), out[n].chan_stop[j] = in_stop(n, j)->read();
    }
  }
  // Node n's values of this cycle into its instance, in mesh_sigs::node() order: the SystemC
  // mesh's inputs and outputs as rtl, the all-C mesh's as model.
  void collect(uint32_t n, const mp1_mesh_out_t &s, const mp1_mesh_out_t &c) {
    ports::Fill f{&inst[n]};
    const mp1_mesh_in_t &is = sc_side.in[n], &ic = c_side.in[n];
    f.pair(is.pbloop, ic.pbloop), f.pair(is.inj_dat, ic.inj_dat), f.pair(is.pbi_dat, ic.pbi_dat);
    f.pair(is.rcv_stop, ic.rcv_stop), f.pair(is.pbo_stop, ic.pbo_stop);
    f.pair(s.inj_stop, c.inj_stop), f.pair(s.pbi_stop, c.pbi_stop);
    f.pair(s.rcv_dat, c.rcv_dat), f.pair(s.pbo_dat, c.pbo_dat);
    for (uint32_t j = 0; j < kChans; j++) f.pair(s.chan_dat[j], c.chan_dat[j]), f.pair(s.chan_stop[j], c.chan_stop[j]);
    f.pair(s.err, c.err);
  }

  // The first field where node outputs differ, or NULL.
  static const char *differs(const mp1_mesh_out_t &a, const mp1_mesh_out_t &b) {
    if (a.inj_stop != b.inj_stop) return "inj_stop_o";
    if (a.pbi_stop != b.pbi_stop) return "pbi_stop_o";
    if (a.rcv_dat != b.rcv_dat) return "rcv_dat_o";
    if (a.pbo_dat != b.pbo_dat) return "pbo_dat_o";
    if (a.err != b.err) return "err_o";
    if (std::memcmp(a.chan_dat, b.chan_dat, kChans)) return "a channel's *out_dat_o";
    if (std::memcmp(a.chan_stop, b.chan_stop, kChans)) return "a channel's *in_stop_o";
    return nullptr;
  }

  // Cycle c: inputs at 10c ns, outputs read at 10c + 2 (after the combinational stops settled),
  // the rising edge at 10c + 5.
  void run() {
    for (uint32_t n = 0; n < kN; n++) {
      w[n]->px_i.write(n % kKx), w[n]->py_i.write(n / kKx);
      w[n]->xmax_i.write(kKx - 1), w[n]->ymax_i.write(kKy - 1);
      w[n]->chip_i.write(0);
    }
    rst_n.write(false);
    for (uint64_t c = 0; c < o.cycles; c++) {
      if (c == kResetCycles) rst_n.write(true);
      sc_side.inputs(o.rate);
      if (o.corrupt && c >= o.corrupt) sc_side.in[5].rcv_stop = 1;  // the refuted run
      for (uint32_t n = 0; n < kN; n++) {
        const mp1_mesh_in_t &i = sc_side.in[n];
        w[n]->pbloop_i.write(i.pbloop), w[n]->inj_dat_i.write(i.inj_dat), w[n]->pbi_dat_i.write(i.pbi_dat);
        w[n]->rcv_stop_i.write(i.rcv_stop), w[n]->pbo_stop_i.write(i.pbo_stop);
      }
      wait(2, sc_core::SC_NS);
      mp1_mesh_out_t out_s[kN], out_c[kN];
      read_out(out_s);
      if (!o.bench) {
        c_side.inputs(o.rate);
        mp1_mesh_eval(&cfg, &ref, c_side.in, out_c, &ref_nx, nullptr);
        for (uint32_t n = 0; n < kN; n++) collect(n, out_s[n], out_c[n]);
        // Cycle 0's pins are from before the first reset (the RTL's x-initial values).
        if (c > 0 && h.check(c))
          for (uint32_t n = 0; n < kN; n++)
            if (const char *f = differs(out_s[n], out_c[n])) return fail(c, n, f);
        if (c_side.react(out_c, c)) return fail(c, kN, "a malformed message in the C mesh");
        if (c >= kResetCycles) mp1_mesh_clock(&ref, &ref_nx);
      }
      if (sc_side.react(out_s, c)) return fail(c, kN, "a malformed message in the SystemC mesh");
      wait(8, sc_core::SC_NS);
    }
    sc_core::sc_stop();
  }

  void fail(uint64_t c, uint32_t n, const char *what) {
    std::printf("mp1_mesh_sc: FAIL cycle %llu node %u (%s): %s differs from the all-C mesh\n",
                (unsigned long long)c, n, n < kN ? (verilated(o, n) ? "Verilated" : "C model") : "-", what);
    ::mkdir(o.wave_dir.c_str(), 0777);  // the failure's wave directory (exists already: fine)
    h.fail_waves(c);
    status = 1;
    sc_core::sc_stop();
  }
};

// The same traffic on the all-C mesh alone: the plain C engine's speed, for docs/performance.md.
double c_mesh_rate(const Opts &o) {
  mp1_mesh_cfg_t cfg{};
  cfg.kx = kKx, cfg.ky = kKy, cfg.awf = MP1_AWF, cfg.lean = 1;
  mp1_mesh_state_t st{};
  mp1_mesh_next_t nx{};
  if (mp1_mesh_init(&st, &nx, cfg)) return 0;
  auto side = std::make_unique<Side>();
  side->init(o.seed);
  const auto t0 = cpu_now();
  for (uint64_t c = 0; c < o.cycles; c++) {
    mp1_mesh_out_t out[kN];
    side->inputs(o.rate);
    mp1_mesh_eval(&cfg, &st, side->in, out, &nx, nullptr);
    side->react(out, c);
    mp1_mesh_clock(&st, &nx);
  }
  const double s = (cpu_now() - t0);
  mp1_mesh_free(&st, &nx);
  return (double)o.cycles / s;
}

}  // namespace

int sc_main(int argc, char **argv) {
  const Opts o = parse(argc, argv);
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  auto tb = std::make_unique<mesh_tb>("mp1_mesh_tb", o);
  sc_core::sc_trace_file *tf = nullptr;
  const std::string base = o.waves + "/mp1_mesh_sc_s" + std::to_string(o.seed);
  if (!o.waves.empty()) {  // the mesh lockstep's scopes and names: mp1_mesh_tb.n<node>.<signal>
    tf = sc_core::sc_create_vcd_trace_file(base.c_str());
    tf->set_time_unit(1, sc_core::SC_NS);
    sc_core::sc_trace(tf, tb->clk, "mp1_mesh_tb.clk_i");
    for (uint32_t n = 0; n < kN; n++) {
      const std::string scope = "mp1_mesh_tb.n" + std::to_string(n) + ".";
      tb->w[n]->trace(tf, scope);
      for (uint32_t p = 0; p < MP1_CHIP_PLANES; p++)
        tb->taps[4 * n + p]->trace(tf, scope + "p" + std::to_string(p) + "_");
    }
    std::fprintf(stderr, "mp1_mesh_sc: writing %s.vcd\n", base.c_str());
    if (!o.bench && tb->h.open_merged(o.waves)) return 1;
  }
  const auto t0 = cpu_now();
  sc_core::sc_start();
  const double s = (cpu_now() - t0);
  tb->h.close();
  if (tf) {
    sc_core::sc_close_vcd_trace_file(tf);
    if (sc_waves::drop_systemc_scope(base + ".vcd")) {
      std::fprintf(stderr, "mp1_mesh_sc: cannot rewrite %s.vcd\n", base.c_str());
      return 1;
    }
  }
  if (tb->status) return 1;
  if (o.bench) {  // the last line, for scripts/sc_bench.sh: BENCH name cycles sc_rate c_rate
    const double c = c_mesh_rate(o);
    std::printf("mp1_mesh_sc bench: %llu cycles, SystemC 4x4 (--nodes %s) %.0f cycles/s, all-C mesh "
                "%.0f cycles/s (%.1fx)\n",
                (unsigned long long)o.cycles, o.nodes.c_str(), o.cycles / s, c, c / (o.cycles / s));
    std::printf("BENCH mp1_mesh_%s %llu %.0f %.0f\n", o.nodes.c_str(), (unsigned long long)o.cycles,
                o.cycles / s, c);
    return 0;
  }
  if (!(tb->sc_side.log == tb->c_side.log)) {
    std::printf("mp1_mesh_sc: FAIL, the meshes delivered different messages (%zu and %zu)\n",
                tb->sc_side.log.size(), tb->c_side.log.size());
    return 1;
  }
  if (tb->sc_side.log.size() < o.cycles / 100) {
    std::printf("mp1_mesh_sc: FAIL, only %zu messages delivered\n", tb->sc_side.log.size());
    return 1;
  }
  const int nv = o.nodes == "rtl" ? 16 : o.nodes == "c" ? 0 : 8;
  std::printf("mp1_mesh_sc: PASS %llu cycles, %d Verilated and %d C-model chips: %zu messages "
              "delivered, each on the same node and cycles with the same bytes as the all-C mesh; "
              "every node's outputs equal each cycle (%.2f s CPU)\n",
              (unsigned long long)o.cycles, nv, 16 - nv, tb->sc_side.log.size(), s);
  return 0;
}
