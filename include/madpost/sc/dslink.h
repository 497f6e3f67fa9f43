// SC_MODULE dslink_sc: the DS-Link link end's C model (include/madpost/dslink.h) with the pins of
// `verilator --sc` of rtl/dslink.sv, generated from its port list (dslink_ports.h;
// docs/systemc.md). Outputs are functions of the registers alone.
#ifndef MADPOST_SC_DSLINK_H
#define MADPOST_SC_DSLINK_H

#include <madpost/dslink.h>
#include <madpost/sc/pins.h>

namespace madpost_sc {
MADPOST_SC_BLOCK(dslink);
inline dslink_cfg_t dslink_defaults() {
  dslink_cfg_t c;
  dslink_cfg_default(&c);
  return c;
}
}  // namespace madpost_sc

SC_MODULE(dslink_sc) {
  MADPOST_SC_COMMON(dslink_sc, dslink, DSLINK_INPUTS, DSLINK_OUTPUTS)
  DSLINK_REGS(MADPOST_SC_X_DBG)

  // cfg stands in for the RTL's parameters; an illegal one is an SC_REPORT_ERROR.
  explicit dslink_sc(sc_core::sc_module_name nm, const dslink_cfg_t &cfg = madpost_sc::dslink_defaults())
      : sc_core::sc_module(nm) {
    char err[160];
    if (dslink_cfg_check(&cfg, err, sizeof err))
      SC_REPORT_ERROR("madpost", (std::string(name()) + ": " + err).c_str());
    m_.cfg = cfg;
    m_.reset();
    register_processes();
  }
  void write_dbg() {
    const dslink_regs_t &mc_r_ = m_.st.r;
    DSLINK_REGS(MADPOST_SC_X_WRITE_DBG)
  }
  // Compile-time proof that V (a Verilated dslink) has these pins, same names and types.
  template <class V>
  static constexpr bool pins_match() {
    using Self = dslink_sc;
    MADPOST_SC_SAME_PIN(Self, V, clk_i);
    MADPOST_SC_SAME_PIN(Self, V, rst_ni);
    DSLINK_INPUTS(MADPOST_SC_X_SAME_IN)
    DSLINK_OUTPUTS(MADPOST_SC_X_SAME_OUT)
    DSLINK_REGS(MADPOST_SC_X_SAME_DBG)
    return true;
  }
};

// One signal per pin of a DS-Link end, for binding and tracing either kind of end.
MADPOST_SC_WIRES(dslink_sc_wires, DSLINK_INPUTS, DSLINK_OUTPUTS, DSLINK_REGS);

#endif
