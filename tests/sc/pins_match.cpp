// Compile-time proof (never run) that each generated SystemC module has the pins of
// `verilator --sc` of its block's RTL: same names, same types (include/madpost/sc/pins.h,
// MADPOST_SC_SAME_PIN). Built against the Verilated headers alone (make sc-modules).
#include "Vc104.h"
#include "Vdslink.h"
#include "Vmp1_chip.h"
#include "Vmp1_plane.h"
#include "Vmp1_rm.h"
#include <madpost/sc/c104.h>
#include <madpost/sc/dslink.h>
#include <madpost/sc/mp1_chip.h>
#include <madpost/sc/mp1_plane.h>
#include <madpost/sc/mp1_rm.h>

static_assert(dslink_sc::pins_match<Vdslink>(), "dslink");
static_assert(mp1_rm_sc::pins_match<Vmp1_rm>(), "mp1_rm");
static_assert(mp1_plane_sc::pins_match<Vmp1_plane>(), "mp1_plane");
static_assert(mp1_chip_sc::pins_match<Vmp1_chip>(), "mp1_chip");
static_assert(c104_sc::pins_match<Vc104>(), "c104");
