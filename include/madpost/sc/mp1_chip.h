// SC_MODULE mp1_chip_sc: an MP1 chip's C model (include/madpost/mp1_chip.h) with the pins of
// `verilator --sc` of rtl/mp1_chip.sv, generated from its port list (docs/systemc.md). inj_stop
// and pbi_stop follow the inputs within the cycle (the combinational process); each plane's
// registers leave packed on dbg_p<k>_o, the first register in the top bits, as the RTL packs them.
#ifndef MADPOST_SC_MP1_CHIP_H
#define MADPOST_SC_MP1_CHIP_H

#include <madpost/mp1_chip.h>
#include <madpost/sc/mp1.h>

namespace madpost_sc {
MADPOST_SC_BLOCK(mp1_chip);
}

// The chip's debug pins as one list: its own registers, then a bus per plane.
#define MP1_CHIP_SC_BUS_(p, k, X) X(p, 1, MP1_PLANE_REG_BITS)
#define MP1_CHIP_SC_DBG(X) MP1_CHIP_REGS(X) MP1_CHIP_PLANE_LIST(MP1_CHIP_SC_BUS_, X)
#define MP1_CHIP_SC_X_PACK(n, c, w) \
  for (unsigned k = 0; k < (c); k++) top -= (w), b.put(top, w, madpost_sc::elem(pr.n, k));

SC_MODULE(mp1_chip_sc) {
  MADPOST_SC_COMMON(mp1_chip_sc, mp1_chip, MP1_CHIP_INPUTS, MP1_CHIP_OUTPUTS)
  MP1_CHIP_SC_DBG(MADPOST_SC_X_DBG)
  MADPOST_SC_MP1_CTOR(mp1_chip_sc, mp1_chip)
  void write_dbg() {
    const mp1_chip_regs_t &mc_r_ = m_.st.r;
    MP1_CHIP_REGS(MADPOST_SC_X_WRITE_DBG)
    sc_core::sc_out<madpost_sc::pin_t<MP1_PLANE_REG_BITS>> *bus[] = {&dbg_p0_o, &dbg_p1_o, &dbg_p2_o,
                                                                     &dbg_p3_o};
    for (int p = 0; p < MP1_CHIP_PLANES; p++) {
      mp1_plane_regs_t pr;
      mp1_plane_regs(&m_.st.pl[p], &pr);
      madpost_sc::bits<MP1_PLANE_REG_BITS> b;
      unsigned top = MP1_PLANE_REG_BITS;
      MP1_PLANE_REGS(MP1_CHIP_SC_X_PACK)
      bus[p]->write(b.pin());
    }
  }
  MADPOST_SC_PINS_MATCH(mp1_chip_sc, MP1_CHIP_INPUTS, MP1_CHIP_OUTPUTS, MP1_CHIP_SC_DBG)
};

MADPOST_SC_WIRES(mp1_chip_sc_wires, MP1_CHIP_INPUTS, MP1_CHIP_OUTPUTS, MP1_CHIP_SC_DBG);

#endif
