// The five generated SystemC modules (include/madpost/sc/) against their C models, no Verilator:
// random inputs each cycle; 2 ns after the inputs change every output pin must equal the C eval
// of this cycle's state and inputs (the combinational process: MP1's stops, the C104's token
// ports follow their inputs within the cycle), every debug pin the C model's registers; reset
// asserted in mid-run resets both. A wrong width, packing, process or timing fails a compare.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <systemc>

#include <madpost/madpost_rng.h>
#include <madpost/sc/c104.h>
#include <madpost/sc/dslink.h>
#include <madpost/sc/mp1_chip.h>
#include <madpost/sc/mp1_plane.h>
#include <madpost/sc/mp1_rm.h>

namespace {

int g_fail = 0;

void mismatch(const char *blk, uint64_t n, const std::string &pin, uint32_t got, uint32_t want) {
  if (g_fail++ < 10)
    std::printf("test_sc_modules: FAIL %s cycle %llu %s=0x%x, C model 0x%x\n", blk,
                (unsigned long long)n, pin.c_str(), got, want);
}

// Random values on every input, every bit of it (the C104's configuration port too: its writes
// reconfigure the switch at random, which both sides take alike).
#define T_X_RAND(n, c, w)                                                               \
  for (unsigned k = 0; k < (c); k++)                                                    \
    madpost_sc::set_elem(in.n, k, (uint32_t)madpost_rng_next(&g) & ((w) >= 32 ? ~0u : (1u << (w)) - 1u));
#define T_X_APPLY(n, c, w) wi.n##_i.write(madpost_sc::to_pin<(c) * (w)>(in.n, c, w));
// Pin `pin` (c elements of w bits) against C field f.
#define T_CMP(pin, f, c, w)                                                             \
  {                                                                                     \
    madpost_sc::bits<(c) * (w)> b_;                                                     \
    b_.load(pin.read());                                                                \
    for (unsigned k = 0; k < (c); k++)                                                  \
      if (b_.get(k * (w), w) != madpost_sc::elem(f, k))                                 \
        mismatch(blk, n, std::string(#pin "[") + std::to_string(k) + "]", b_.get(k * (w), w), \
                 madpost_sc::elem(f, k));                                               \
  }
#define T_X_OUT(n, c, w) T_CMP(wi.n##_o, out.n, c, w)
#define T_X_REG(n, c, w) T_CMP(wi.dbg_##n##_o, r.n, c, w)

// Block-specific parts, from the port lists: random inputs, applying them to the wires, the
// compares of outputs and debug pins.
#define T_SPEC(Name, P, INPUTS, OUTPUTS)                                                      \
  static constexpr const char *kName = #P;                                                    \
  using B = madpost_sc::P##_block;                                                            \
  static void rand(madpost_rng_t &g, P##_in_t &in) { INPUTS(T_X_RAND) }                       \
  template <class W>                                                                            \
  static void apply(W &wi, const P##_in_t &in) { INPUTS(T_X_APPLY) }                          \
  template <class W>                                                                            \
  static void cmp_out(W &wi, const P##_out_t &out, uint64_t n) {                              \
    const char *blk = kName;                                                                    \
    OUTPUTS(T_X_OUT)                                                                            \
  }

struct DslinkSpec {
  T_SPEC(DslinkSpec, dslink, DSLINK_INPUTS, DSLINK_OUTPUTS)
  static dslink_cfg_t cfg() { return madpost_sc::dslink_defaults(); }
  template <class W>
  static void cmp_regs(W &wi, const dslink_state_t &st, uint64_t n) {
    const char *blk = kName;
    const dslink_regs_t &r = st.r;
    DSLINK_REGS(T_X_REG)
  }
};
struct RmSpec {
  T_SPEC(RmSpec, mp1_rm, MP1_RM_INPUTS, MP1_RM_OUTPUTS)
  static mp1_rm_cfg_t cfg() { return {MP1_AWF}; }
  template <class W>
  static void cmp_regs(W &wi, const mp1_rm_state_t &st, uint64_t n) {
    const char *blk = kName;
    const mp1_rm_regs_t &r = st.r;
    MP1_RM_REGS(T_X_REG)
  }
};
struct PlaneSpec {
  T_SPEC(PlaneSpec, mp1_plane, MP1_PLANE_INPUTS, MP1_PLANE_OUTPUTS)
  static mp1_plane_cfg_t cfg() { return {MP1_AWF}; }
  template <class W>
  static void cmp_regs(W &wi, const mp1_plane_state_t &st, uint64_t n) {
    const char *blk = kName;
    mp1_plane_regs_t r;
    mp1_plane_regs(&st, &r);
    MP1_PLANE_REGS(T_X_REG)
  }
};
// A plane's registers on the chip's debug bus: the first in the top bits (tb/common/ports.h).
#define T_X_UNPACK(nm, c, w)                                                              \
  for (unsigned k = 0; k < (c); k++) {                                                   \
    top -= (w);                                                                          \
    if (b.get(top, w) != madpost_sc::elem(r.nm, k))                                       \
      mismatch(blk, n, "dbg_p" + std::to_string(p) + "_o:" #nm, b.get(top, w), madpost_sc::elem(r.nm, k)); \
  }
struct ChipSpec {
  T_SPEC(ChipSpec, mp1_chip, MP1_CHIP_INPUTS, MP1_CHIP_OUTPUTS)
  static mp1_chip_cfg_t cfg() { return {MP1_AWF}; }
  template <class W>
  static void cmp_regs(W &wi, const mp1_chip_state_t &st, uint64_t n) {
    const char *blk = kName;
    {
      const mp1_chip_regs_t &r = st.r;
      MP1_CHIP_REGS(T_X_REG)
    }
    const sc_core::sc_signal<madpost_sc::pin_t<MP1_PLANE_REG_BITS>> *bus[] = {
        &wi.dbg_p0_o, &wi.dbg_p1_o, &wi.dbg_p2_o, &wi.dbg_p3_o};
    for (int p = 0; p < MP1_CHIP_PLANES; p++) {
      mp1_plane_regs_t r;
      mp1_plane_regs(&st.pl[p], &r);
      madpost_sc::bits<MP1_PLANE_REG_BITS> b;
      b.load(bus[p]->read());
      unsigned top = MP1_PLANE_REG_BITS;
      MP1_PLANE_REGS(T_X_UNPACK)
    }
  }
};
#define T_X_LINK(nm, c, w)                                                                 \
  {                                                                                       \
    madpost_sc::bits<C104_PORTS *(w)> b;                                                  \
    b.load(wi.dbg_l_##nm##_o.read());                                                      \
    for (unsigned p = 0; p < C104_PORTS; p++)                                             \
      if (b.get(p * (w), w) != st.link[p].r.nm)                                            \
        mismatch(blk, n, "dbg_l_" #nm "_o[" + std::to_string(p) + "]", b.get(p * (w), w), st.link[p].r.nm); \
  }
struct C104Spec {
  T_SPEC(C104Spec, c104, C104_INPUTS, C104_OUTPUTS)
  static c104_cfg_t cfg() {
    c104_cfg_t c = madpost_sc::c104_defaults();
    c.tok_ports = 0xFFFF0000u;  // half the ports token-level: their outputs are combinational
    return c;
  }
  template <class W>
  static void cmp_regs(W &wi, const c104_state_t &st, uint64_t n) {
    const char *blk = kName;
    {
      const c104_regs_t &r = st.r;
      C104_REGS(T_X_REG)
    }
    DSLINK_REGS(T_X_LINK)
  }
};

// One block's run: module M on its wires W, beside the pure C block, from the same inputs.
template <class S, class M, class W>
struct Tester : sc_core::sc_module {
  sc_core::sc_signal<bool> rst{"rst_ni", true};
  M mod;
  W wi;
  typename S::B::cfg_t cfg = S::cfg();
  uint64_t cycles;
  SC_HAS_PROCESS(Tester);
  Tester(sc_core::sc_module_name nm, sc_core::sc_clock &clk, uint64_t n)
      : sc_core::sc_module(nm), mod("dut", S::cfg()), wi("w"), cycles(n) {
    wi.bind(mod, clk, rst);
    SC_THREAD(run);
  }
  // Cycle n: inputs at 10n, compares at 10n + 2, the edge at 10n + 5.
  void run() {
    using B = typename S::B;
    typename B::state_t st;
    B::reset(&cfg, &st);
    madpost_rng_t g;
    madpost_rng_seed(&g, 17, 0);
    for (uint64_t n = 0; n < cycles; n++) {
      const bool in_reset = n % 997 == 500;  // rst_ni low over this cycle's edge
      typename B::in_t in;
      S::rand(g, in);
      S::apply(wi, in);
      rst.write(!in_reset);
      wait(2, sc_core::SC_NS);
      if (in_reset) B::reset(&cfg, &st);  // asynchronous: at once, and held over the edge
      typename B::out_t out;
      typename B::next_t nx;
      if (B::eval(&cfg, &st, &in, &out, &nx, nullptr)) mismatch(S::kName, n, "eval", 1, 0);
      S::cmp_out(wi, out, n);
      S::cmp_regs(wi, st, n);
      if (!in_reset) B::clock(&st, &nx);
      wait(8, sc_core::SC_NS);
    }
    std::printf("test_sc_modules: %s: %llu cycles compared\n", S::kName, (unsigned long long)cycles);
  }
};

}  // namespace

int sc_main(int argc, char **argv) {
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  char *end = nullptr;
  const uint64_t cycles = argc > 1 ? std::strtoull(argv[1], &end, 10) : 3000;
  if (argc > 2 || (argc > 1 && (*end || !cycles))) {
    std::fprintf(stderr, "usage: test_sc_modules [CYCLES]\n");
    return 2;
  }
  sc_core::sc_clock clk("clk_i", 10, sc_core::SC_NS, 0.5, 5, sc_core::SC_NS, true);
  Tester<DslinkSpec, dslink_sc, dslink_sc_wires> t1("dslink", clk, cycles);
  Tester<RmSpec, mp1_rm_sc, mp1_rm_sc_wires> t2("mp1_rm", clk, cycles);
  Tester<PlaneSpec, mp1_plane_sc, mp1_plane_sc_wires> t3("mp1_plane", clk, cycles);
  Tester<ChipSpec, mp1_chip_sc, mp1_chip_sc_wires> t4("mp1_chip", clk, cycles);
  Tester<C104Spec, c104_sc, c104_sc_wires> t5("c104", clk, cycles);
  sc_core::sc_start((double)cycles * 10 + 10, sc_core::SC_NS);
  if (g_fail) {
    std::printf("test_sc_modules: FAIL, %d differences\n", g_fail);
    return 1;
  }
  std::printf("test_sc_modules: PASS, five modules equal to their C models every cycle\n");
  return 0;
}
