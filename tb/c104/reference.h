// The C104 bench's packet-level reference of §9-§12, as data: the configuration decoded from the
// writes (independently of the C model: the lookup, leaders and range map written again from the
// text), the packets routed, and each input's header state. Tb's scoreboard (tb/c104/scoreboard.h)
// drives it.
#ifndef MADPOST_TB_C104_REFERENCE_H
#define MADPOST_TB_C104_REFERENCE_H

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include <madpost/c104.h>
#include "c104/layout.h"
#include "c104_common.h"

namespace {

using namespace c104tb;

struct RefCfg {
  uint32_t hdr2[kN] = {}, del[kN] = {}, rnd[kN] = {}, rlo[kN] = {}, rhi[kN] = {};
  uint32_t ihi[kN] = {}, iport[kN] = {}, ival[kN] = {};
  uint32_t nint = 0, rr = 0, grp = 0xFFFFFFFFu;

  uint32_t H(uint32_t p) const { return hdr2[p] ? 2u : 1u; }
  uint32_t dele(uint32_t p) const { return rnd[p] ? 0u : (del[p] == 3 ? 0u : del[p]); }
  uint32_t leader(uint32_t q) const {
    for (uint32_t l = q; l > 0; l--)
      if ((grp >> l) & 1u) return l;
    return 0;
  }
  bool in_group(uint32_t g, uint32_t o) const { return leader(o) == g; }
  bool lookup(uint32_t x, uint32_t *port, uint32_t *ldr) const {
    const uint32_t n = nint < 32 ? nint : 32;
    for (uint32_t e = 0; e < n; e++) {
      if (x > ihi[e]) continue;
      if (!ival[e]) return false;
      *port = iport[e];
      *ldr = leader(iport[e]);
      return true;
    }
    return false;
  }
};

struct RPkt {
  uint32_t in = 0, leader = 0;
  std::vector<Tok> toks;  // what must leave: emitted header bytes, then the forwarded tokens
  bool done = false;
  int port = -1;          // the output granted
  uint64_t born = 0;
};
using RP = std::shared_ptr<RPkt>;

struct RefIn {
  enum St { kIdle, kHdr, kFwd, kDisc } st = kIdle;
  uint32_t hcnt = 0, skip = 0, hi = 0, lfsr = C104_LFSR_SEED;
  RP cur;
  uint32_t fwd = 0;           // tokens of cur forwarded after its header
  std::deque<RP> unpaired;    // routed, not yet granted (at most one)
  uint64_t pkt = 0, bad = 0, shrt = 0, cut = 0, stray = 0;
  uint32_t inj[5] = {};  // what the counter walk added to pkt, bad, shrt, cut, stray (mod 2^16)
};

}  // namespace

#endif
