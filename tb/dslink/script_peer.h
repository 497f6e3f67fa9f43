// The DS-Link bench's scripted bit-level peer: exact bit streams (NULLs, tokens with good or bad
// parity, silence) for the error cases a correct link end never produces.
#ifndef MADPOST_TB_DSLINK_SCRIPT_PEER_H
#define MADPOST_TB_DSLINK_SCRIPT_PEER_H

#include <cstdint>
#include <deque>

#include <madpost/dslink.h>

namespace {

uint32_t parity8(uint32_t v) {
  uint32_t p = 0;
  for (int i = 0; i < 8; i++) p ^= (v >> i) & 1u;
  return p;
}

// A scripted bit-level peer for the error cases a correct link end never produces.
struct ScriptPeer {
  uint32_t bp = 1, tmr = 0, d = 0, s = 0, par = 0;
  bool on = false, frozen = false, nulls = true;
  std::deque<uint32_t> bits;
  void push_bits(uint32_t v, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) bits.push_back((v >> i) & 1u);
  }
  void data(uint32_t v, bool bad = false) {
    uint32_t p = (par ^ 1u) ^ (bad ? 1u : 0u);
    push_bits(p | (v & 0xffu) << 2, 10);
    par = parity8(v);
  }
  void ctl(uint32_t c, bool bad = false) {
    uint32_t p = par ^ (bad ? 1u : 0u);
    push_bits(p | 2u | ((c >> 1) & 1u) << 2 | (c & 1u) << 3, 4);
    par = ((c >> 1) ^ c) & 1u;
  }
  void null() {
    ctl(DSLINK_CTL_ESC);
    ctl(DSLINK_CTL_FCT);
  }
  void step() {
    if (!on || frozen) return;
    if (tmr) {
      tmr--;
      return;
    }
    tmr = bp - 1;
    if (bits.empty() && nulls) null();
    if (bits.empty()) return;
    uint32_t b = bits.front();
    bits.pop_front();
    if (b == d) s ^= 1u;
    d = b;
  }
};

}  // namespace

#endif
