// SC_MODULE c104_sc: the C104 switch's C model (include/madpost/c104.h) with the pins of
// `verilator --sc` of rtl/c104.sv, generated from its port list (docs/systemc.md): the per-port
// vectors packed (element p in bits [p*w +: w]) into sc_bv pins by 32-bit words. The token ports'
// outputs follow their inputs within the cycle (the combinational process).
#ifndef MADPOST_SC_C104_H
#define MADPOST_SC_C104_H

#include <madpost/c104.h>
#include <madpost/sc/pins.h>

namespace madpost_sc {
MADPOST_SC_BLOCK(c104);
inline c104_cfg_t c104_defaults() {
  c104_cfg_t c;
  c104_cfg_default(&c);
  return c;
}
}  // namespace madpost_sc

// The switch's debug pins as one list: its registers, then dbg_l_<reg>_o, every link end's copy
// of each DS-Link register (DSLINK_REGS taken 32 times). The list's X is pasted into the name of
// the adapter that renames the link registers (one per X used on this list).
#define C104_SC_DBG(X) C104_REGS(X) DSLINK_REGS(C104_SC_L_##X)
#define C104_SC_L_MADPOST_SC_X_DBG(n, c, w) MADPOST_SC_X_DBG(l_##n, C104_PORTS, w)
#define C104_SC_L_MADPOST_SC_X_SIG_DBG(n, c, w) MADPOST_SC_X_SIG_DBG(l_##n, C104_PORTS, w)
#define C104_SC_L_MADPOST_SC_X_BIND_DBG(n, c, w) MADPOST_SC_X_BIND_DBG(l_##n, C104_PORTS, w)
#define C104_SC_L_MADPOST_SC_X_SAME_DBG(n, c, w) MADPOST_SC_X_SAME_DBG(l_##n, C104_PORTS, w)
#define C104_SC_L_MADPOST_SC_X_TRACE_DBG(n, c, w) MADPOST_SC_X_TRACE_DBG(l_##n, C104_PORTS, w)
#define C104_SC_X_WRITE_LINK(n, c, w)                                                  \
  {                                                                                    \
    madpost_sc::bits<C104_PORTS *(w)> b;                                               \
    for (unsigned p = 0; p < C104_PORTS; p++) b.put(p * (w), w, m_.st.link[p].r.n);    \
    dbg_l_##n##_o.write(b.pin());                                                      \
  }

SC_MODULE(c104_sc) {
  MADPOST_SC_COMMON(c104_sc, c104, C104_INPUTS, C104_OUTPUTS)
  C104_SC_DBG(MADPOST_SC_X_DBG)

  // cfg stands in for the RTL's parameters (TokPorts and the links'); an illegal one is an
  // SC_REPORT_ERROR.
  explicit c104_sc(sc_core::sc_module_name nm, const c104_cfg_t &cfg = madpost_sc::c104_defaults())
      : sc_core::sc_module(nm) {
    char err[160];
    if (c104_cfg_check(&cfg, err, sizeof err))
      SC_REPORT_ERROR("madpost", (std::string(name()) + ": " + err).c_str());
    m_.cfg = cfg;
    m_.reset();
    register_processes();
  }
  void write_dbg() {
    const c104_regs_t &mc_r_ = m_.st.r;
    C104_REGS(MADPOST_SC_X_WRITE_DBG)
    DSLINK_REGS(C104_SC_X_WRITE_LINK)
  }
  template <class V>
  static constexpr bool pins_match() {
    using Self = c104_sc;
    MADPOST_SC_SAME_PIN(Self, V, clk_i);
    MADPOST_SC_SAME_PIN(Self, V, rst_ni);
    C104_INPUTS(MADPOST_SC_X_SAME_IN)
    C104_OUTPUTS(MADPOST_SC_X_SAME_OUT)
    C104_SC_DBG(MADPOST_SC_X_SAME_DBG)
    return true;
  }
};

MADPOST_SC_WIRES(c104_sc_wires, C104_INPUTS, C104_OUTPUTS, C104_SC_DBG);

#endif
