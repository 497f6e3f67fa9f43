// The wire fault injector of the benches with DS-Links (the DS-Link pair, the C104's bit-level
// ports): one direction's D and S lines flipped, stuck or cut for a while.
#ifndef MADPOST_TB_COMMON_WIRE_FAULT_H
#define MADPOST_TB_COMMON_WIRE_FAULT_H

#include <cstdint>

#include <madpost/madpost_rng.h>

namespace bench {

struct WireFault {
  enum Kind { kNoFault, kFlipD, kFlipS, kStuckD, kStuckS, kCut } kind = kNoFault;
  uint64_t until = 0;
  uint32_t level = 0, fd = 0, fs = 0;
  uint64_t count[6] = {};  // faults started, by kind

  void start(Kind k, uint64_t now, uint64_t len, uint32_t lvl, uint32_t d, uint32_t s) {
    kind = k, until = now + len, level = lvl, fd = d, fs = s;
    count[k]++;
  }
  // A fault drawn from g: a one-cycle flip (one in three), D or S stuck at 0 or 1 for 2-41 cycles,
  // or both lines frozen at their levels d, s of now (a cut) for 10-409 cycles.
  void start_random(madpost_rng_t *g, uint64_t now, uint32_t d, uint32_t s) {
    switch (madpost_rng_below(g, 6)) {
      case 0:
      case 1: start(madpost_rng_chance(g, 1, 2) ? kFlipD : kFlipS, now, 1, 0, 0, 0); break;
      case 2:
        start(kStuckD, now, 2 + madpost_rng_below(g, 40), madpost_rng_below(g, 2), 0, 0);
        break;
      case 3:
        start(kStuckS, now, 2 + madpost_rng_below(g, 40), madpost_rng_below(g, 2), 0, 0);
        break;
      default: start(kCut, now, 10 + madpost_rng_below(g, 400), 0, d, s); break;
    }
  }
  void apply(uint64_t now, uint32_t *d, uint32_t *s) {
    if (kind != kNoFault && now >= until) kind = kNoFault;
    switch (kind) {
      case kFlipD: *d ^= 1u; break;
      case kFlipS: *s ^= 1u; break;
      case kStuckD: *d = level; break;
      case kStuckS: *s = level; break;
      case kCut: *d = fd, *s = fs; break;
      default: break;
    }
  }
  bool active() const { return kind != kNoFault; }
  uint64_t total() const {
    uint64_t n = 0;
    for (int k = 1; k < 6; k++) n += count[k];
    return n;
  }
};

}  // namespace bench

#endif
