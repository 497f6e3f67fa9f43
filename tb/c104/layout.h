// The C104 bench's build: which ports are token ports (TokPorts, the same value as the RTL's), the
// RTL top's name, the bench's usage error, and the universal-routing plan of a random setup.
#ifndef MADPOST_TB_C104_LAYOUT_H
#define MADPOST_TB_C104_LAYOUT_H

#include <cstdint>
#include <string>

#include "c104_common.h"
#include "lockstep.h"

// The RTL's TokPorts parameter (the build passes the same value to both).
#ifndef C104_TOK_PORTS
#define C104_TOK_PORTS 0xFFFFFFF0u
#endif
#ifndef LOCKSTEP_TOP
#define LOCKSTEP_TOP "c104"
#endif

namespace {

using namespace c104tb;

constexpr uint32_t kN = C104_PORTS;
constexpr uint32_t kTok = (uint32_t)(C104_TOK_PORTS);
inline bool tokp(uint32_t p) { return (kTok >> p) & 1u; }

[[noreturn]] void usage_error(const std::string &m) { lockstep::usage_error("c104_lockstep", m); }

// The universal-routing plan of a random setup (§11.3): a loopback port and its interval.
struct Plan {
  int loop = -1;
  uint32_t hl = 1;              // H at the loopback input (the random headers' length)
  uint32_t r0 = 0, r1 = 0;      // the headers that route to the loopback port
  uint32_t hmax = 0xFF;         // the table spans [0, hmax]
};

}  // namespace

#endif
