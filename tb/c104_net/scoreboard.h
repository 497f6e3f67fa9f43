// The C104 network bench's scoreboard of the random runs: each packet a source makes is followed
// through the tables (hop()) to the endpoint that must receive it, with the grants and loopback
// passes it costs each switch; what an endpoint receives is matched against it.
#ifndef MADPOST_TB_C104_NET_SCOREBOARD_H
#define MADPOST_TB_C104_NET_SCOREBOARD_H

#include <cstdint>
#include <string>
#include <vector>

#include "c104_net/net.h"

namespace {

using namespace c104tb;

// Follows a packet through the tables (hop()): the grants per switch, the loopback passes,
// where it is delivered (-1: a bad header, discarded where it misses).
int Net::route_ref(uint32_t s, std::vector<uint32_t> hdrs, uint64_t *grants, uint64_t *loops) {
  bool looped = false;
  for (int guard = 0; guard < 16; guard++) {
    const int port = hop(s, hdrs.front(), hb_, random_);
    if (port < 0) return -1;
    grants[s]++;
    if (looped) loops[s]++;  // granted at the loopback input (cnt_pkt[4])
    looped = port == (int)kLoop;
    if (looped) {
      hdrs.erase(hdrs.begin());  // stripped by the loopback input (del 2)
      if (hdrs.empty()) return -1;
      continue;
    }
    if (port >= 5) return (int)ep_of(s, (uint32_t)port);
    s = nbr(s, (uint32_t)port);
  }
  fatal("route_ref: a routing loop");
}

void Net::gen_packet(uint32_t e) {
  Ep &x = ep_[e];
  Gen &G = x.gen;
  madpost_rng_t *g = &G.rng;
  if (madpost_rng_chance(g, G.stray_pm, 1000)) {
    send(e, cyc_ + 1, {madpost_rng_chance(g, 1, 2) ? EOP : EOM});
    stray_++;
    return;
  }
  uint32_t h;
  if (madpost_rng_chance(g, G.bad_pm, 1000)) {
    const uint32_t r = madpost_rng_below(g, hb_ ? 4 : 3);
    // (from a 2-byte-header input only in its own switch: the next would read its first byte)
    const uint32_t sw = su_[x.s].port[x.p].hdr2 ? x.s : madpost_rng_below(g, kSw);
    h = r == 0   ? hb_ + 16 * sw + madpost_rng_below(g, 5)  // an unused local port
        : r == 1 ? hb_ + 64 + madpost_rng_below(g, 64)                     // a discard entry
        : r == 2 ? hb_ + 0x84 + madpost_rng_below(g, 0x7C - hb_)           // above the last entry
                 : madpost_rng_below(g, hb_);                              // below the first
  } else if (su_[x.s].port[x.p].hdr2 && madpost_rng_chance(g, 1, 2)) {
    h = 0x100 + madpost_rng_below(g, 0xFF00);
  } else if (e >= kEpA && (su_[x.s].port[x.p].hdr2 || madpost_rng_chance(g, 3, 4))) {
    // most of the other token ports' packets stay in their switch, to the group of port 9, 5, 8,
    // 20, 11, 26 or 28 (some the same group), so that many outputs of a group are busy at once
    static const uint32_t kLoc[12] = {9, 9, 9, 5, 8, 12, 12, 14, 13, 13, 15, 15};
    h = hb_ + 16 * x.s + kLoc[madpost_rng_below(g, 12)];
  } else {
    h = hb_ + hdr_of(madpost_rng_below(g, kEpA));
  }
  std::vector<Tok> v = {D(h), D(e), D(G.seq & 0xFF), D(G.seq >> 8)};
  if (su_[x.s].port[x.p].hdr2) v[0] = D(h & 0xFF), v.insert(v.begin(), D(h >> 8));  // high byte first (§9.1)
  G.seq++;
  uint32_t len = madpost_rng_below(g, G.maxlen + 1);
  if (madpost_rng_chance(g, G.long_pm, 1000)) len = 100 + madpost_rng_below(g, 101);
  for (uint32_t k = 0; k < len; k++) v.push_back(D(madpost_rng_below(g, 256)));
  v.push_back(madpost_rng_chance(g, 1, 2) ? EOP : EOM);
  std::vector<uint32_t> hdrs = {h};
  if (su_[x.s].port[x.p].rnd) {  // the draw this packet will get (§11.2), in order per input
    const uint32_t r = ref_rand(x.lfsr, x.rlo, x.rhi) & 0xFFu;
    x.lfsr = ref_lfsr_next(x.lfsr);
    hdrs.insert(hdrs.begin(), r);
  }
  const int dst = route_ref(x.s, hdrs, grants_, loops_);
  if (dst < 0) bad_++;
  else exp_[(uint32_t)e << 16 | (G.seq - 1)] = Expect{dst, v};
  send(e, cyc_ + 1, v);
  made_++;
}

void Net::check_delivery(uint32_t e, const std::vector<Tok> &R) {
  if (!random_) return;
  if (R.size() < 5 || tend(R[1]) || tend(R[2]) || tend(R[3]))
    fatal("scoreboard: endpoint " + epname(e) + " received " + tstr(R) + ", not a packet of the sources");
  // source and sequence number after the header: 1 byte, or 2 from an input with hdr2 (the
  // packet that matches at either place, byte for byte)
  auto key_at = [&](size_t o) { return tdata(R[o]) << 16 | tdata(R[o + 2]) << 8 | tdata(R[o + 1]); };
  auto it = exp_.find(key_at(1));
  if ((it == exp_.end() || it->second.toks != R) && R.size() >= 6 && !tend(R[4])) {
    auto it2 = exp_.find(key_at(2));
    if (it2 != exp_.end() && it2->second.toks == R) it = it2;
  }
  if (it == exp_.end())
    fatal("scoreboard: endpoint " + epname(e) + " received " + tstr(R) + ": not expected (again, or a bad header)");
  const uint32_t d = (uint32_t)it->second.dst, grp = su_[ep_sw(d)].grp;
  const bool in_group = ep_sw(d) == ep_[e].s && leader_of(grp, ep_port(d)) == leader_of(grp, ep_[e].p);
  if (!in_group || it->second.toks != R)
    fatal("scoreboard: endpoint " + epname(e) + " received " + tstr(R) + ", expected " +
          tstr(it->second.toks) + " at " + epname((uint32_t)it->second.dst));
  exp_.erase(it);
  delivered_++;
  if (e >= kEpA) delivered_x_++;
}

}  // namespace

#endif
