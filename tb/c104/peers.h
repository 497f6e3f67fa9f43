// The C104 bench's peers, as data: a token port's source/sink or loop, a bit-level port's C dslink
// end (with its wire faults) or loop, a port's random packet source. What they do each cycle is
// tb/c104/stimulus.h.
#ifndef MADPOST_TB_C104_PEERS_H
#define MADPOST_TB_C104_PEERS_H

#include <cstdint>
#include <deque>

#include <madpost/dslink.h>
#include <madpost/madpost_rng.h>
#include "c104_common.h"
#include "common/wire_fault.h"

namespace {

using namespace c104tb;

// A token port's link end: tokens offered to the switch in order (the head stays until popped,
// as a receive FIFO's does), a gap after each pop, and what the port sends is taken with a
// random tx_ready. A looped port offers again what it sent, loop_delay cycles later, and holds
// at most RxDepth + TxDepth tokens.
struct TokPort {
  std::deque<TimedTok> rxq;
  uint32_t gap = 0;
  bool loop = false;
  uint32_t loop_delay = 2;
};

// A bit-level port's peer: a C dslink end with a user-side queue, or a loop (no peer).
struct BitPort {
  bool peer = false, loop = false;
  dslink_state_t st{};
  dslink_out_t out{};
  dslink_next_t nx{};
  dslink_in_t li{};
  std::deque<TimedTok> txq;
  uint32_t link_en = 1;
  uint32_t valid_pct = 100;
  bench::WireFault to_sw, to_peer;
};

// Random packet source of one port (random tests).
struct Gen {
  bool on = false;
  madpost_rng_t rng{};
  uint32_t rate = 10;          // a new packet with chance 1/rate per cycle when the queue is short
  uint32_t maxlen = 40;        // data bytes 0..maxlen
  uint32_t long_pm = 10;       // per mille: 100..300 data bytes
  uint32_t err_pm = 20;        // per mille: ended by ERR
  uint32_t short_pm = 20;      // per mille: ends inside its header
  uint32_t stray_pm = 15;      // per mille: a lone end token
  uint32_t gap_pct = 30, gap_max = 4, pause_pm = 5;
  uint64_t made = 0;
};

}  // namespace

#endif
