// A lockstep signal table's entry (a port list's input, output or register, or one element of
// it) and its name in wave files; shared by the harness (tb/lockstep.h) and the merged wave.
#ifndef MADPOST_TB_COMMON_SIG_H
#define MADPOST_TB_COMMON_SIG_H

#include <cstdint>
#include <string>

namespace lockstep {

enum Dir { kIn, kOut, kReg };

struct Sig {
  std::string name;  // RTL name: x_i, x_o or x_q
  uint32_t width;
  Dir dir;
};

// A signal's name in the VCDs and the GTKWave file: element k of a packed per-port vector is
// printed x_q[k] in mismatch lines and written x_q(k) in waves (as Verilator names array
// elements), since a VCD reader takes "[k]" for a bit select.
inline std::string vcd_name(const std::string &n) {
  std::string v = n;
  for (char &c : v) {
    if (c == '[') c = '(';
    if (c == ']') c = ')';
  }
  return v;
}

}  // namespace lockstep

#endif
