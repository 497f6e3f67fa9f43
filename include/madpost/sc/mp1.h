// What the three MP1 modules (include/madpost/sc/mp1_rm.h, mp1_plane.h, mp1_chip.h) share: their
// one parameter, address flits per word, is fixed when the port list is compiled (MP1_AWF, the
// pin widths follow from it), so a cfg asking for another is refused.
#ifndef MADPOST_SC_MP1_H
#define MADPOST_SC_MP1_H

#include <string>

#include <madpost/mp1_awf.h>
#include <madpost/sc/pins.h>

namespace madpost_sc {
inline void mp1_check_awf(const char *who, uint32_t awf) {
  if ((awf ? awf : 1) != MP1_AWF)
    SC_REPORT_ERROR("madpost", (std::string(who) + ": cfg.awf " + std::to_string(awf) +
                                " but the pins were compiled for MP1_AWF " + std::to_string(MP1_AWF))
                                   .c_str());
}
}  // namespace madpost_sc

// The constructor every MP1 module has: cfg (its awf) stands in for the RTL's AWF parameter.
#define MADPOST_SC_MP1_CTOR(Mod, blk)                                                    \
  explicit Mod(sc_core::sc_module_name nm, const blk##_cfg_t &cfg = blk##_cfg_t{MP1_AWF}) \
      : sc_core::sc_module(nm) {                                                         \
    madpost_sc::mp1_check_awf(name(), cfg.awf);                                          \
    m_.cfg = cfg;                                                                        \
    m_.reset();                                                                          \
    register_processes();                                                                \
  }

// The compile-time pin proof of a module with lists INPUTS, OUTPUTS and debug list DBG.
#define MADPOST_SC_PINS_MATCH(Mod, INPUTS, OUTPUTS, DBG) \
  template <class V>                                    \
  static constexpr bool pins_match() {                  \
    using Self = Mod;                                   \
    MADPOST_SC_SAME_PIN(Self, V, clk_i);                \
    MADPOST_SC_SAME_PIN(Self, V, rst_ni);               \
    INPUTS(MADPOST_SC_X_SAME_IN)                        \
    OUTPUTS(MADPOST_SC_X_SAME_OUT)                      \
    DBG(MADPOST_SC_X_SAME_DBG)                          \
    return true;                                        \
  }

#endif
