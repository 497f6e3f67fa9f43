// SC_MODULE mp1_plane_sc: an MP1 plane's C model (include/madpost/mp1_plane.h) with the pins of
// `verilator --sc` of rtl/mp1_plane.sv, generated from its port list (docs/systemc.md).
#ifndef MADPOST_SC_MP1_PLANE_H
#define MADPOST_SC_MP1_PLANE_H

#include <madpost/mp1_plane.h>
#include <madpost/sc/mp1.h>

namespace madpost_sc {
MADPOST_SC_BLOCK(mp1_plane);
}

SC_MODULE(mp1_plane_sc) {
  MADPOST_SC_COMMON(mp1_plane_sc, mp1_plane, MP1_PLANE_INPUTS, MP1_PLANE_OUTPUTS)
  MP1_PLANE_REGS(MADPOST_SC_X_DBG)
  MADPOST_SC_MP1_CTOR(mp1_plane_sc, mp1_plane)
  void write_dbg() {
    mp1_plane_regs_t mc_r_;
    mp1_plane_regs(&m_.st, &mc_r_);
    MP1_PLANE_REGS(MADPOST_SC_X_WRITE_DBG)
  }
  MADPOST_SC_PINS_MATCH(mp1_plane_sc, MP1_PLANE_INPUTS, MP1_PLANE_OUTPUTS, MP1_PLANE_REGS)
};

MADPOST_SC_WIRES(mp1_plane_sc_wires, MP1_PLANE_INPUTS, MP1_PLANE_OUTPUTS, MP1_PLANE_REGS);

#endif
