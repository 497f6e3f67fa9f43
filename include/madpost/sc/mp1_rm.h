// SC_MODULE mp1_rm_sc: the MP1 routing machine's C model (include/madpost/mp1_rm.h) with the pins
// of `verilator --sc` of rtl/mp1_rm.sv, generated from its port list (docs/systemc.md). Its stop
// and request outputs follow its inputs within the cycle (the combinational process).
#ifndef MADPOST_SC_MP1_RM_H
#define MADPOST_SC_MP1_RM_H

#include <madpost/mp1_rm.h>
#include <madpost/sc/mp1.h>

namespace madpost_sc {
MADPOST_SC_BLOCK(mp1_rm);
}

SC_MODULE(mp1_rm_sc) {
  MADPOST_SC_COMMON(mp1_rm_sc, mp1_rm, MP1_RM_INPUTS, MP1_RM_OUTPUTS)
  MP1_RM_REGS(MADPOST_SC_X_DBG)
  MADPOST_SC_MP1_CTOR(mp1_rm_sc, mp1_rm)
  void write_dbg() {
    const mp1_rm_regs_t &mc_r_ = m_.st.r;
    MP1_RM_REGS(MADPOST_SC_X_WRITE_DBG)
  }
  MADPOST_SC_PINS_MATCH(mp1_rm_sc, MP1_RM_INPUTS, MP1_RM_OUTPUTS, MP1_RM_REGS)
};

MADPOST_SC_WIRES(mp1_rm_sc_wires, MP1_RM_INPUTS, MP1_RM_OUTPUTS, MP1_RM_REGS);

#endif
