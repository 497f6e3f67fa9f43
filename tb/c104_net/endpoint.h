// The C104 network bench's endpoints, as data: a token port's source/sink or a bit-level port's C
// dslink end, the random traffic each sends, and what a random packet should do (the scoreboard's
// entry).
#ifndef MADPOST_TB_C104_NET_ENDPOINT_H
#define MADPOST_TB_C104_NET_ENDPOINT_H

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include <madpost/c104.h>
#include <madpost/dslink.h>
#include <madpost/madpost_rng.h>
#include "c104_common.h"

namespace {

using namespace c104tb;

// Random traffic of one endpoint.
struct Gen {
  bool on = false;
  madpost_rng_t rng{};
  uint32_t rate = 20, maxlen = 40, long_pm = 10, bad_pm = 30, stray_pm = 10, gap_pct = 20;
  uint32_t seq = 0;
};

// An endpoint: a packet source into its port and a sink of what the port sends. A token port's
// tokens are offered as a receive FIFO would (the head stays until popped, a gap after a pop); a
// bit-level port's go through a C dslink end.
struct Ep {
  uint32_t s = 0, p = 0;
  bool tok = true;
  std::deque<TimedTok> q;
  uint32_t gap = 0;
  dslink_state_t st{};
  dslink_out_t out{};
  dslink_next_t nx{};
  dslink_in_t li{};
  uint32_t link_en = 1;
  Ready rdy;
  Gen gen;
  std::vector<Tok> asm_;
  uint64_t asm_t = 0;
  std::vector<std::pair<std::vector<Tok>, uint64_t>> got;  // packets received, cycle of the first token
  std::vector<uint64_t> pops;                              // cycles a token entered the switch
  uint32_t lfsr = C104_LFSR_SEED, rlo = 0, rhi = 0;        // reference draws of an rnd input
};

// What a random packet should do (the scoreboard).
struct Expect {
  int dst = -1;  // endpoint
  std::vector<Tok> toks;
};

}  // namespace

#endif
