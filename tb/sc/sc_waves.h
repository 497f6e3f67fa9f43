// The SystemC demonstrations' VCDs as the lockstep writes them (tb/lockstep.h, docs/systemc.md):
// SystemC's VCD writer puts every traced signal inside a fixed top scope "SystemC"; dropping that
// one scope leaves the lockstep's <blk>_tb.<instance>.<signal> paths, so its .gtkw files fit.
#ifndef MADPOST_TB_SC_WAVES_H
#define MADPOST_TB_SC_WAVES_H

#include <fstream>
#include <sstream>
#include <string>

namespace sc_waves {

// Rewrites the closed VCD at path without the "SystemC" scope; -1 if it cannot.
inline int drop_systemc_scope(const std::string &path) {
  std::ifstream in(path);
  if (!in) return -1;
  std::ostringstream out;
  std::string line;
  bool in_defs = true;
  int depth = -1;  // scope depth below the SystemC scope once found; -1 before it
  while (std::getline(in, line)) {
    if (in_defs) {
      if (line.rfind("$scope module SystemC ", 0) == 0 && depth < 0) {
        depth = 0;
        continue;
      }
      if (depth >= 0 && line.rfind("$scope", 0) == 0) depth++;
      if (depth >= 0 && line.rfind("$upscope", 0) == 0 && depth-- == 0) continue;
      if (line.rfind("$enddefinitions", 0) == 0) in_defs = false;
    }
    out << line << '\n';
  }
  in.close();
  std::ofstream o(path, std::ios::trunc);
  o << out.str();
  return o ? 0 : -1;
}

}  // namespace sc_waves

#endif
