// Compiled into the DPI bench (tb/dpi.mk) beside Verilator's own declarations of the package's
// imports: a prototype of include/madpost/dpi.h that differs from what Verilator generated from
// the SV package (argument or return types), or an svBitVecVal that is not the library's uint32_t
// words, fails the build. Nothing here runs.
#include "Vdslink_dpi__Dpi.h"  // svdpi.h, then the imports of madpost_dslink_pkg as Verilator sees them

#include <madpost/dpi.h>  // the same functions as the library declares them (extern "C": no overloads)

#include <cstdint>
#include <type_traits>

static_assert(std::is_same<svBitVecVal, uint32_t>::value,
              "svdpi.h's svBitVecVal is not the uint32_t include/madpost/dpi.h assumes");
