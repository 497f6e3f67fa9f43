// A mesh node's signal table, shared by the mesh lockstep (tb/mp1_mesh_lockstep.cpp) and the
// SystemC mesh demonstration's merged wave (tb/sc/mp1_mesh_sc.cpp, docs/waves.md).
#ifndef MADPOST_TB_COMMON_MESH_SIGS_H
#define MADPOST_TB_COMMON_MESH_SIGS_H

#include <string>
#include <vector>

#include <madpost/mp1_chip.h>
#include <madpost/mp1_plane.h>

#include "common/ports.h"

namespace mesh_sigs {

// A node's signals: its interface and channel ports, then (with regs) its registers. The ports
// are listed here by hand, not generated from a port list: the mesh (rtl/mp1_mesh.sv) shows each
// chip only through the chip ports it does not wire to a neighbour, packed node by node into one
// port each, and the C model's per-node structs (mp1_mesh_in_t, mp1_mesh_out_t: chan_dat[8],
// chan_stop[8]) are cmodel's own, with no list of their own; the registers are the chip's and the
// planes' lists (tb/common/ports.h).
inline std::vector<lockstep::Sig> node(bool regs) {
  std::vector<lockstep::Sig> s;
  for (const char *n : {"pbloop", "inj_dat", "pbi_dat", "rcv_stop", "pbo_stop"})
    s.push_back({std::string(n) + "_i", std::string(n).find("dat") != std::string::npos ? 3u : 1u, lockstep::kIn});
  s.push_back({"inj_stop_o", 1, lockstep::kOut});
  s.push_back({"pbi_stop_o", 1, lockstep::kOut});
  s.push_back({"rcv_dat_o", 3, lockstep::kOut});
  s.push_back({"pbo_dat_o", 3, lockstep::kOut});
  for (uint32_t j = 0; j < 8; j++) {
    const std::string pj = "p" + std::to_string(j >> 1) + ((j & 1u) ? "_y" : "_x");
    s.push_back({pj + "out_dat_o", 3, lockstep::kOut});
    s.push_back({pj + "in_stop_o", 1, lockstep::kOut});
  }
  s.push_back({"err_o", 1, lockstep::kOut});
  if (!regs) return s;
  PORTS_SIG_REGS(&s, "", MP1_CHIP_REGS);
#define X(p, k, ...) PORTS_SIG_REGS(&s, #p "_", MP1_PLANE_REGS);
  MP1_CHIP_PLANE_LIST(X, _)
#undef X
  return s;
}

}  // namespace mesh_sigs

#endif
