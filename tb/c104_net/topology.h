// The C104 network bench's topology: four switches in a 2 x 2 grid (ports 0-3 the links to the X
// and Y neighbours, 4 a loopback), its endpoints and their numbers, and the interval tables that
// route node headers X then Y and random headers through an intermediate switch.
#ifndef MADPOST_TB_C104_NET_TOPOLOGY_H
#define MADPOST_TB_C104_NET_TOPOLOGY_H

#include <cstdint>
#include <string>

#include <madpost/c104.h>
#include "c104_common.h"
#include "lockstep.h"

// The wrapper's TokPorts parameter (every switch; the build passes the same value to both).
#ifndef C104_NET_TOK_PORTS
#define C104_NET_TOK_PORTS 0xFFFFFFC0u
#endif

namespace {

using namespace c104tb;


constexpr uint32_t kN = C104_PORTS;
constexpr uint32_t kSw = 4;
constexpr uint32_t kTok = (uint32_t)(C104_NET_TOK_PORTS);
constexpr uint32_t kWired = 0x1Fu;  // ports 0-4: links and the loopback (tb/c104_net_tb.sv)
constexpr uint32_t kLoop = 4;
// Endpoints 0 .. kEpA - 1: ports 5, 8, 9 of each switch (3 s + j), the ones headers name; then
// kEpX per switch on every other token port (kEpA + kEpX s + k), which the random runs use as
// sources and, as members of hunt groups led by 5, 9, 20 and 26, or 5, 9, 11, 20 and 28, as sinks.
constexpr uint32_t kEpPort[3] = {5, 8, 9};
constexpr uint32_t kEpA = kSw * 3;
constexpr uint32_t kEpX = 24;  // ports 6, 7, 10 .. 31
constexpr uint32_t kEpN = kEpA + kSw * kEpX;
constexpr uint32_t kR0 = 0x80;  // random headers kR0 .. kR0 + 3
inline bool tokp(uint32_t p) { return (kTok >> p) & 1u; }
inline uint32_t xport(uint32_t k) { return k < 2 ? 6 + k : 8 + k; }
inline uint32_t ep_sw(uint32_t e) { return e < kEpA ? e / 3 : (e - kEpA) / kEpX; }
inline uint32_t ep_port(uint32_t e) { return e < kEpA ? kEpPort[e % 3] : xport((e - kEpA) % kEpX); }
inline uint32_t hdr_of(uint32_t ep) { return 16 * (ep / 3) + kEpPort[ep % 3]; }  // ep < kEpA
inline uint32_t ep_of(uint32_t s, uint32_t p) {
  for (uint32_t j = 0; j < 3; j++)
    if (kEpPort[j] == p) return s * 3 + j;
  if (p == 6 || p == 7 || p >= 10) return kEpA + s * kEpX + (p < 8 ? p - 6 : p - 8);
  return ~0u;
}
// The leader of port p's hunt group for the group-start bits grp (§9.1: bit 0 taken as 1).
inline uint32_t leader_of(uint32_t grp, uint32_t p) {
  while (p && !((grp >> p) & 1u)) p--;
  return p;
}
// The wired peer of switch s, port p < 4: (neighbour, same port).
inline uint32_t nbr(uint32_t s, uint32_t p) { return p < 2 ? s ^ 1u : s ^ 2u; }

[[noreturn]] void usage_error(const std::string &m) { lockstep::usage_error("c104_net_lockstep", m); }

// The next hop of header h at switch s (-1: discard): the tables of every test, every header
// shifted up by the base b (0 in the directed cases; drawn per random run, so the tables' entries
// take other values); `wide` (random runs): headers for ports 20, 11, 26, 28 (local 12-15) and the
// 2-byte range too.
int hop(uint32_t s, uint32_t h, uint32_t b, bool wide) {
  if (h >= 256) return wide ? 9 : -1;  // a 2-byte header above 255: port 9's group, here
  if (h < b) return -1;
  h -= b;
  if (h < 16 * kSw) {
    const uint32_t d = h >> 4, loc = h & 15u;
    static const int kWide[4] = {20, 11, 26, 28};  // more groups, whichever layout (random_start)
    if (d == s && wide && loc >= 12) return kWide[loc - 12];
    if (d == s) return (loc == 5 || loc == 8 || loc == 9) ? (int)loc : -1;
    return ((s ^ d) & 1u) ? 0 : 2;  // X first, then Y
  }
  if (h >= kR0 && h < kR0 + kSw) {
    const uint32_t i = h - kR0;
    if (i == s) return (int)kLoop;
    return ((s ^ i) & 1u) ? 1 : 3;
  }
  return -1;
}
// hop() as an interval table (§9.1): one entry per run over [0, 255]; a last discard run left out,
// unless `wide` (random runs) adds the entry of the 2-byte headers above 255 after it.
void build_table(uint32_t s, c104_setup_t *su, uint32_t b, bool wide) {
  su->nint = 0;
  int cur = hop(s, 0, b, wide);
  uint32_t e = 0;
  for (uint32_t h = 1; h <= 256; h++) {
    const int v = h < 256 ? hop(s, h, b, wide) : -2;
    if (v == cur) continue;
    if (!(h == 256 && cur < 0)) {
      if (e >= 32) usage_error("table of switch " + std::to_string(s) + " needs more than 32 entries");
      su->ival[e].hi = h - 1;
      su->ival[e].port = cur < 0 ? 0 : (uint32_t)cur;
      su->ival[e].valid = cur >= 0;
      e++;
    }
    cur = v;
  }
  if (wide) {
    if (hop(s, 255, b, wide) < 0) su->ival[e++] = {255, 0, 0};
    su->ival[e++] = {0xFFFF, 9, 1};
  }
  su->nint = e;
}
c104_setup_t net_setup(uint32_t s, uint32_t b = 0, bool wide = false) {
  c104_setup_t su;
  c104_setup_default(&su);
  build_table(s, &su, b, wide);
  su.port[kLoop].del = 2;  // the loopback input strips the random header (§11.3)
  return su;
}

}  // namespace

#endif
