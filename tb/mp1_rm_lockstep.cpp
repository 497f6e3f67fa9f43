// MP1 routing machine lockstep testbench: one routing machine in RTL (Verilated) and in the C
// model, fed identical inputs every cycle: random message streams (every control code, matches,
// adaptive turns, broadcasts, several segments, dead flits, bad messages, stray codes) and an
// arbiter per output shared with a random competitor, or directed cases and sweeps (docs/mp1.md
// §9), compared on every output and register.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "Vmp1_rm.h"
#include "verilated.h"

#include "backdoor.h"
#include "common/bench.h"
#include "common/ports.h"
#include "lockstep.h"
#include <madpost/mp1_rm.h>
#include "mp1_stim.h"
#include <madpost/madpost_rng.h>


using lockstep::Sig;
using mp1stim::Arb;
using mp1stim::Source;
using mp1stim::Seg;
using mp1stim::cf;
using mp1stim::rm_empty;
using mp1stim::eqs;
using mp1stim::kAwf;
using mp1stim::seg;
using mp1stim::seg_n;

namespace {


// ---- Directed cases: one scripted message stream per behaviour of docs/mp1.md §5 and §8, with
// the outputs' arbiters free unless a competitor holds one, then counters checked. ------------
// A message of a sweep case, fed once the machine is back in IDLE with the input quiet: a node
// may change between messages only there (pos and the directions are wiring, read by decode only).
constexpr uint32_t kFill = ~0u;
constexpr uint32_t kAtWp = 1u << 30;  // release = kAtWp | n: held until wp has reached n
struct RmMsg {
  std::vector<Seg> segs;
  uint32_t pos, opos, neg, oneg;
  uint32_t hold;                     // outputs (bit k) a competitor holds from the first chunk ...
  uint32_t release;                  // ... for this many cycles, or (kFill) until the buffer has
                                     // filled: stop high and the current segment all sent,
                                     // or (kAtWp | n) until wp has reached n
};
// The chunks on the input and on each output, cycle by cycle from the first, framed as a
// receiver frames them (docs/mp1.md §2.1): what a chunk is depends on the chunks before it.
struct Trace {
  typedef std::vector<uint32_t> Stream;  // the chunk on the wire in each cycle
  Stream in, out[4];
  Stream err, stop;                      // err_o and in_stop_o in each cycle
  enum Kind { kIdle, kFlit1, kFlit2, kFlit3, kEnd };
  static std::vector<Kind> frame(const Stream &v) {
    std::vector<Kind> k(v.size(), kIdle);
    uint32_t pos = 0;
    for (size_t c = 0; c < v.size(); c++) {
      if (pos) k[c] = pos == 1 ? kFlit2 : kFlit3, pos = (pos + 1) % 3;
      else if (v[c] & 4u) k[c] = kFlit1, pos = 1;
      else if (v[c]) k[c] = kEnd;
    }
    return k;
  }
  // Cycles at which a message's first chunk is on the stream: a flit start after an idle chunk
  // (or at the first cycle).
  static std::vector<uint64_t> starts(const Stream &v) {
    const std::vector<Kind> k = frame(v);
    std::vector<uint64_t> r;
    for (size_t c = 0; c < v.size(); c++)
      if (k[c] == kFlit1 && (c == 0 || k[c - 1] == kIdle)) r.push_back(c);
    return r;
  }
  // Cycle of the n-th end code e (1 EOS, 2 EOM; n from 0), ~0 if none.
  static uint64_t nth_end(const Stream &v, uint32_t e, int n) {
    const std::vector<Kind> k = frame(v);
    for (size_t c = 0; c < v.size(); c++)
      if (k[c] == kEnd && v[c] == e && n-- == 0) return c;
    return ~0ull;
  }
  // Chunks that belong to flits; the first cycle with a chunk that is not idle (~0 if none).
  static uint64_t flit_chunks(const Stream &v) {
    uint64_t n = 0;
    for (Kind x : frame(v)) n += x == kFlit1 || x == kFlit2 || x == kFlit3;
    return n;
  }
  static uint64_t first(const Stream &v) {
    for (size_t c = 0; c < v.size(); c++)
      if (v[c]) return c;
    return ~0ull;
  }
  // The messages on a stream, each from its first flit to the EOM that ends it (EOS chunks
  // inside it are segment ends): the cycle of its first chunk, its flits, its EOM's cycle (~0
  // if the stream ends first). An end code outside a message is no message.
  struct Msg {
    uint64_t at;
    uint32_t flits;
    uint64_t eom;
  };
  static std::vector<Msg> msgs(const Stream &v) {
    const std::vector<Kind> k = frame(v);
    std::vector<Msg> r;
    bool open = false;
    for (size_t c = 0; c < v.size(); c++) {
      if (k[c] == kFlit1 && !open) r.push_back(Msg{c, 0, ~0ull}), open = true;
      if (!open) continue;
      if (k[c] == kFlit1) r.back().flits++;
      if (k[c] == kEnd && v[c] == 2) r.back().eom = c, open = false;
    }
    return r;
  }
  // Cycles of the chunks outside flits of value e (1 EOS, 2 EOM, 3 the illegal chunk).
  static std::vector<uint64_t> ends(const Stream &v, uint32_t e) {
    const std::vector<Kind> k = frame(v);
    std::vector<uint64_t> r;
    for (size_t c = 0; c < v.size(); c++)
      if (k[c] == kEnd && v[c] == e) r.push_back(c);
    return r;
  }
  // Cycles in which a one-bit stream is high.
  static std::vector<uint64_t> high(const Stream &v) {
    std::vector<uint64_t> r;
    for (size_t c = 0; c < v.size(); c++)
      if (v[c]) r.push_back(c);
    return r;
  }
};

struct RmCase {
  const char *name, *what;
  std::vector<Seg> segs;             // the input's segments, in order
  uint32_t blocked;                  // outputs (bit k) a competitor holds ...
  uint64_t until;                    // ... until this cycle
  std::function<std::string(const mp1_rm_regs_t &)> check;
  std::vector<RmMsg> msgs{};         // then these messages, one at a time
  uint64_t cycles = 1500;            // the run (a sweep: at most, see Tb::run)
  bool walk = false;                 // the counters' carry walk on (mp1stim::kRmCounters)
  uint32_t stopped = 0;              // outputs (bit k) whose receiver holds stop high ...
  uint64_t stop_from = 0, stop_until = 0;  // ... in these cycles
  uint64_t ot_stop_until = 0;        // and, if set, ot's stop high until this cycle instead
  uint64_t stall_next = 0;           // straight's stop high this long once the front message's
                                     // straight copy waits between segments with a back message
  uint32_t occ_min = 0;              // the buffer's occupancy must reach this (draft 4 §6)
  uint32_t edge = 0;                 // edge_i: the machine has no straight neighbour
  bool ignore_stop = false;          // the sender ignores stop, so err may rise (and must)
  std::function<std::string(const Trace &)> tcheck{};  // checks of the chunk streams' timing
};

// fill_edge: a copy's first chunk counts as not yet written while its pointer is at most 6 AWF
// chunks ahead of wp (docs/mp1.md §8.8.1), i.e. 128 - 6 AWF unread chunks and more read as a lead
// (the open point of §8.9). For each output a message is held by the competitor until its buffer
// has filled to 15 .. 1 chunks below that edge (the full segment ends with EOS, so stop is high
// on occupancy alone), then the copy starts: short segments up to the stop bound, then one of
// 32 flits, then a last short one. 15 .. 11 below reach leads 21 .. 17, bit 4 set (a Yosys
// mutant of the ot lead compare, seed 1).
std::vector<RmMsg> fill_edge_msgs() {
  std::vector<RmMsg> v;
  const uint32_t edge = 128 - 6 * kAwf, occ_max = kAwf == 1 ? 30 : 17, full = 3 * 32 + 1;
  struct Route { uint32_t a1, a2, rp; };
  const Route routes[4] = {
      {cf(2, 9), 0, 0},                // st: not at its match, the copy reads from a1's word
      {cf(0, 4), cf(2, 7), 3 * kAwf},  // ot: a turn at the match, from a2's word
      {cf(2, 4), 0, 3 * kAwf},         // rc: delivered here, from a2's place
      {cf(6, 4), 0, 3 * kAwf}};        // pb: piggy-back, from a2's place
  for (const Route &r : routes) {
    const uint32_t hf = (r.a2 ? 2 : 1) * kAwf;
    for (uint32_t u = edge - 15; u < edge; u++) {
      // Chunks before the full segment: k segments of 3 f + 1 chunks.
      const uint32_t s = u + r.rp - full, k = s % 3 ? s % 3 : 3, f = (s - k) / 3;
      // stop would hold the full segment back, or the header does not fit (AWF = 2)
      if (s - r.rp > occ_max || f < hf + k - 1) continue;
      RmMsg m{{}, 4, 4, 0, 0, 0xfu, kFill};
      const uint32_t f1 = f - (k - 1);
      m.segs.push_back(r.a2 ? seg_n({r.a1, r.a2}, f1, 1) : seg_n({r.a1}, f1, 1));
      for (uint32_t i = 1; i < k; i++) m.segs.push_back(seg_n({}, 1, 1));
      m.segs.push_back(seg_n({}, 32, 1));
      m.segs.push_back(seg_n({}, 1, 2));
      v.push_back(m);
    }
  }
  return v;
}

// addr_sweep: a one-dimension message addressed 2, 1 below, at, 1, 2 above the node, at every node
// position 0-31, both directions (docs/mp1.md §8.3: ahead, match, behind).
std::vector<RmMsg> addr_sweep_msgs() {
  std::vector<RmMsg> v;
  for (uint32_t neg = 0; neg < 2; neg++)
    for (uint32_t p = 0; p < 32; p++)
      for (uint32_t a = p < 2 ? 0 : p - 2; a <= p + 2 && a < 32; a++)
        v.push_back(RmMsg{{seg({cf(2, a)}, 2, 1)}, p, 4, neg, 0, 0, 0});
  return v;
}

// adapt_sweep: an adaptive message (code 1, a1 ahead) with straight held for 24 cycles and a2's
// address 2, 1 below, at, 1, 2 above the other dimension's position 0-31, both directions: it
// turns iff a2 is ahead (§8.6.4). Without data the whole segment is buffered before the turn.
std::vector<RmMsg> adapt_sweep_msgs() {
  std::vector<RmMsg> v;
  for (uint32_t oneg = 0; oneg < 2; oneg++)
    for (uint32_t q = 0; q < 32; q++)
      for (uint32_t b = q < 2 ? 0 : q - 2; b <= q + 2 && b < 32; b++)
        v.push_back(RmMsg{{seg({cf(1, 20), cf(2, b)}, 2, 2 * (b & 1))}, 0, q, 0, oneg, 1u, 24});
  return v;
}

// counters: more events than a counter's low byte holds (docs/mp1.md §8.2): 130 stray codes, 260
// dead flits, 131 over-long messages (130 cut broadcasts and, after the 70th, one long segment
// while straight is held, in HOLD), 260 buffered adaptations (straight held, a header-only
// segment, so the turn comes after its EOM).
std::vector<RmMsg> counters_msgs() {
  std::vector<RmMsg> v;
  for (uint32_t i = 0; i < 130; i++)  // EOS, EOM, the illegal chunk in turn
    v.push_back(RmMsg{{Seg{(uint8_t)(1 + i % 3)}}, 4, 4, 0, 0, 0, 0});
  for (uint32_t i = 0; i < 260; i++)  // a1 cut through, then a gap
    v.push_back(RmMsg{{seg({cf(2, 9)}, 0)}, 4, 4, 0, 0, 0, 0});
  for (uint32_t i = 0; i < 130; i++) {
    if (i == 70) v.push_back(RmMsg{{seg({cf(2, 9)}, 2, 34)}, 4, 4, 0, 0, 1u, 300});
    v.push_back(RmMsg{{seg({cf(4, 9), cf(5, 7)}, 1), seg({}, 2, 1)}, 4, 4, 0, 0, 0, 0});
  }
  for (uint32_t i = 0; i < 260; i++)
    v.push_back(RmMsg{{seg({cf(1, 9), cf(2, 7)}, 2)}, 4, 4, 0, 0, 1u, 24});
  return v;
}

RmCase sweep(const char *name, const char *what, std::vector<RmMsg> msgs, uint64_t cycles,
             std::function<std::string(const mp1_rm_regs_t &)> check) {
  RmCase c{name, what, {}, 0, 0, std::move(check)};
  c.msgs = std::move(msgs);
  c.cycles = cycles;
  return c;
}

// A back message whose input ends while it waits behind F (docs/mp1_draft4.md §4.4): a cut
// broadcast is kept whatever ended its input, any other dropping B is cleared. Both need F still
// sending when B's input ends: a 12-flit F held on straight until cycle 50 leaves 29 chunks to
// send when stop falls, B arrives behind them.
RmCase back_bcast_cut_case() {
  using mp1stim::kAwf;
  Seg b = seg({cf(4, 9), cf(5, 7)}, 1, 2);
  b.push_back(3);  // the abort right after the EOS: it starts no segment, so stop cannot hold it
  RmCase c{"back_bcast_cut", "a back broadcast cut to its first segment, then aborted: kept, sent",
           {seg({cf(2, 9)}, 2, 12 - kAwf), b}, 1u, 50,
           [](const mp1_rm_regs_t &r) {
             return eqs("long", r.cnt_bad_long, 1) + eqs("cut", r.cnt_cut, 0) +
                    eqs("stray", r.cnt_stray, 0);
           }};
  c.tcheck = [](const Trace &t) {
    const auto in = Trace::starts(t.in), ab = Trace::ends(t.in, 3);
    const auto st = Trace::msgs(t.out[0]), ot = Trace::msgs(t.out[1]), rc = Trace::msgs(t.out[2]);
    if (in.size() != 2 || ab.size() != 1 || st.size() != 2 || ot.size() != 1 || rc.size() != 1)
      return std::string("expected 2 messages and an abort in, 2 on st, 1 on ot and rc; ");
    std::string e;
    if (!(in[1] < st[0].eom && ab[0] < st[0].eom)) e += "the broadcast was no back message; ";
    // §4.4: the EOS written as EOM ends each copy; §5.6: B two cycles after F's EOM
    e += eqs("st flits of F", st[0].flits, 12);
    e += eqs("st flits of B (its whole first segment)", st[1].flits, 2 * kAwf + 2);
    e += eqs("ot flits (a2's word and the data)", ot[0].flits, kAwf + 2);
    e += eqs("rc flits (the data)", rc[0].flits, 2);
    for (const Trace::Msg &m : {st[1], ot[0], rc[0]})
      e += eqs("a copy of B ended by an EOM", m.eom != ~0ull, 1);
    e += eqs("cycles from F's EOM to B on st", st[1].at - st[0].eom, 2);
    return e;
  };
  return c;
}

// ... and an over-long B (decided, dropping, cut) is cleared at its EOM: nothing of it is sent.
// F (two segments, straight held until cycle 60) still has its second segment to send when B
// starts; its copy then waits after the EOS (straight's stop held 200 cycles once B is valid)
// while B's 34 flits and EOM arrive.
RmCase back_long_case() {
  RmCase c{"back_long", "an over-long back message: cleared at its end, nothing of it sent",
           {seg_n({cf(2, 9)}, 9, 1), seg_n({}, 4, 2), seg_n({cf(2, 9)}, 34, 2)}, 1u, 60,
           [](const mp1_rm_regs_t &r) {
             return eqs("long", r.cnt_bad_long, 1) + eqs("cut", r.cnt_cut, 0);
           }};
  c.stall_next = 200;
  c.tcheck = [](const Trace &t) {
    const auto in = Trace::msgs(t.in), st = Trace::msgs(t.out[0]);
    if (in.size() != 2 || st.size() != 1) return std::string("expected 2 messages in, 1 on st; ");
    std::string e;
    if (!(in[1].eom < st[0].eom)) e += "the long message's input did not end behind F; ";
    e += eqs("st flits (F's two segments)", st[0].flits, 13);
    for (int k = 1; k < 4; k++) e += eqs("chunks on ot, rc, pb", Trace::first(t.out[k]), ~0ull);
    return e;
  };
  return c;
}

// docs/mp1.md §8.8 rule 2 at a machine with no straight neighbour: code 3 at its match (the data
// would leave straight) is bad, counted, dropped; a delivery still goes out, with no speculative
// straight copy (draft 4 §5.2).
RmCase edge_bad_case() {
  RmCase c{"edge_bad", "at an edge: code 3 at its match is bad; a delivery goes, nothing straight",
           {seg({cf(3, 4), cf(2, 9)}, 2, 2), seg({cf(2, 4)}, 2, 3)}, 0, 0,
           [](const mp1_rm_regs_t &r) {
             return eqs("bad addr", r.cnt_bad_addr, 1) + eqs("bad code", r.cnt_bad_code, 0);
           }};
  c.edge = 1;
  c.tcheck = [](const Trace &t) {
    const auto in = Trace::starts(t.in);
    const auto rc = Trace::msgs(t.out[2]);
    if (in.size() != 2 || rc.size() != 1) return std::string("expected 2 messages in, 1 on rc; ");
    std::string e = eqs("rc flits", rc[0].flits, 3);
    e += eqs("rc first chunk", rc[0].at, in[1] + 3 * mp1stim::kAwf + 1);
    for (int k : {0, 1, 3}) e += eqs("chunks on st, ot, pb", Trace::first(t.out[k]), ~0ull);
    return e;
  };
  return c;
}

// §6's invariant is real: a sender that ignores stop while straight is held writes a 128th
// chunk with 127 held, and err rises in that cycle on both sides (compared as an output; every
// other case fails on it). The 129th, the EOM, overwrites a1's first chunk: straight, freed,
// sends that EOM alone and the machine empties (nothing after the violation is specified).
RmCase err_case() {
  RmCase c{"err_stop_ignored", "a sender ignoring stop: err at the 128th chunk held",
           {seg_n({cf(2, 9)}, 32, 1), seg_n({}, 5, 1), seg_n({}, 5, 2)}, 1u, 300, nullptr};
  c.ignore_stop = true, c.occ_min = 127;
  c.tcheck = [](const Trace &t) {
    const uint64_t a = Trace::first(t.in);
    const auto err = Trace::high(t.err);
    std::string e = eqs("stop when the second segment started", t.stop.at(a + 97), 1);
    if (err.size() != 1) return e + eqs("cycles with err high", err.size(), 1);
    return e + eqs("err's cycle after the first chunk", err[0] - a, 127);
  };
  return c;
}

// The machine sits at pos 4 (opos 4), + direction, not at an edge (sweep cases: per message).
// One behaviour each (docs/mp1.md §8): routes, codes, bad input, strays.
void basic_cases(std::vector<RmCase> &v) {
  v.push_back({"pass", "no match: cut through straight, one cycle per chunk",
               {seg({cf(2, 9)}, 2, 4)}, 0, 0,
               [](const mp1_rm_regs_t &r) { return eqs("dead", r.cnt_dead, 0); }});
  v.push_back({"dead_flit", "cut through, then the address matches: a dead flit, then delivery",
               {seg({cf(2, 4)}, 2, 3), seg({cf(2, 9)}, 0)}, 0, 0,
               [](const mp1_rm_regs_t &r) { return eqs("dead", r.cnt_dead, 1); }});
  v.push_back({"turn", "code 0 at its match: the rest turns into the other dimension",
               {seg({cf(0, 4), cf(2, 7)}, 2, 3)}, 0, 0, nullptr});
  v.push_back({"adaptive", "straight busy: code 1 turns, the flits swap addresses, not codes",
               {seg({cf(1, 9), cf(2, 7)}, 2, 3)}, 1u, 200,
               [](const mp1_rm_regs_t &r) { return eqs("adaptations", r.cnt_adapt, 1); }});
  v.push_back({"static_wait", "straight busy: code 0 waits in the buffer, then goes straight",
               {seg({cf(0, 9), cf(2, 7)}, 2, 3)}, 1u, 200,
               [](const mp1_rm_regs_t &r) { return eqs("adaptations", r.cnt_adapt, 0); }});
  v.push_back({"blocked_long", "both outputs busy: a 3-segment message buffers, stop, resumes",
               {seg({cf(1, 9), cf(2, 7)}, 1, 32 - 2 * mp1stim::kAwf), seg({}, 1, 32), seg({}, 2, 20)},
               3u, 400,
               nullptr});
  v.push_back({"broadcast", "code 4: straight, other dimension and interface copies together",
               {seg({cf(4, 9), cf(5, 7)}, 2, 3)}, 0, 0, nullptr});
  v.push_back({"broadcast_cut", "a two-segment broadcast: cut to its first, the rest dropped",
               {seg({cf(4, 9), cf(5, 7)}, 1, 10), seg({}, 2, 5)}, 0, 0,
               [](const mp1_rm_regs_t &r) { return eqs("cut", r.cnt_bad_long, 1); }});
  v.push_back({"piggy_intra", "code 3 at its match: the data leave straight as a new message",
               {seg({cf(3, 4), cf(2, 9)}, 2, 2)}, 0, 0, nullptr});
  v.push_back({"piggy_inter", "code 6 at its match: the data leave on the piggy-back channel",
               {seg({cf(6, 4)}, 2, 3)}, 0, 0, nullptr});
  v.push_back({"bad_flits", "illegal code, address behind, over-long segment: counted, dropped",
               {seg({cf(7, 9)}, 2, 2), seg({cf(2, 1)}, 2, 2), seg({cf(2, 4)}, 2, 40)}, 0, 0,
               [](const mp1_rm_regs_t &r) {
                 return eqs("bad code", r.cnt_bad_code, 1) + eqs("bad addr", r.cnt_bad_addr, 1) +
                        eqs("long", r.cnt_bad_long, 1);
               }});
  v.push_back({"abort", "an abort between segments ends the message downstream too",
               {seg({cf(0, 4), cf(2, 7)}, 1, 5), Seg{3}}, 2u, 100,
               [](const mp1_rm_regs_t &r) { return eqs("cut", r.cnt_cut, 1); }});
  v.push_back({"header_short", "a two-dimension header ended after its first flit: cut",
               {seg({cf(4, 9)}, 2)}, 0, 0,
               [](const mp1_rm_regs_t &r) { return eqs("cut", r.cnt_cut, 1); }});
  v.push_back({"stray", "end codes and illegal chunks outside a message: counted, ignored",
               {Seg{1}, Seg{2}, Seg{3}}, 0, 0,
               [](const mp1_rm_regs_t &r) { return eqs("stray", r.cnt_stray, 3); }});
  // End codes between a message's segments (no segment open, the message not ended): neither a
  // stray for the counter (only IDLE counts one) nor a segment's end. Straight is held, so the
  // first two arrive in HOLD behind a short segment (stop low); the last two wait for stop to
  // fall while the long second segment streams, and arrive in EMIT.
  v.push_back({"stray_inside", "end codes between segments, in HOLD and in EMIT: ignored",
               {seg({cf(2, 9)}, 1, 4), Seg{1}, Seg{2}, seg({}, 1, 31), Seg{1}, Seg{2},
                seg({}, 2, 1)},
               1u, 250,
               [](const mp1_rm_regs_t &r) {
                 return eqs("stray", r.cnt_stray, 0) + eqs("cut", r.cnt_cut, 0) +
                        eqs("dead", r.cnt_dead, 0);
               }});
}

// Draft 4 (docs/mp1_draft4.md): timing on the wire, each checked against the document.
void timing_cases(std::vector<RmCase> &v) {
  auto starts = [](const Trace::Stream &v) { return Trace::starts(v); };
  // A: the back message enters once the front one resumes, not before; a third waits behind it;
  // each follows the previous message's EOM on the output with one idle chunk (§5.6).
  v.push_back({"back_msg", "a second message enters once the first resumes; a third waits",
               {seg({cf(2, 9)}, 2, 4), seg({cf(2, 9)}, 2, 4), seg({cf(2, 9)}, 2, 4)}, 1u, 60,
               nullptr});
  v.back().tcheck = [starts](const Trace &t) {
    const auto in = starts(t.in), st = starts(t.out[0]);
    if (in.size() != 3 || st.size() != 3) return std::string("expected 3 messages in and out; ");
    std::string e;
    if (!(in[1] > st[0])) e += "the second message entered before the first resumed; ";
    if (!(in[2] > st[1])) e += "the third message entered before the second resumed; ";
    for (int i = 0; i < 2; i++)
      e += eqs("cycles from an EOM to the next message on st", st[i + 1] - Trace::nth_end(t.out[0], 2, i), 2);
    return e;
  };
  // A, C: messages through a busy output are 3L + 2 cycles apart (004 §4.6, L = 6 flits).
  v.push_back({"period", "three 6-flit messages behind a held output: 3L + 2 = 20 cycles apart",
               {seg({cf(0, 9), cf(2, 7)}, 2, 4), seg({cf(0, 9), cf(2, 7)}, 2, 4),
                seg({cf(0, 9), cf(2, 7)}, 2, 4)}, 1u, 60, nullptr});
  v.back().tcheck = [starts](const Trace &t) {
    const auto st = starts(t.out[0]);
    if (st.size() != 3) return std::string("expected 3 messages on st; ");
    const uint64_t l = 2 * mp1stim::kAwf + 4;  // flits: two address words and 4 data
    return eqs("period 1-2", st[1] - st[0], 3 * l + 2) + eqs("period 2-3", st[2] - st[1], 3 * l + 2);
  };
  // C: speculative straight, a1 matches: a dead flit on st, and a2 on ot one cycle after it
  // arrives (§5.2, §5.3).
  v.push_back({"spec_turn", "cut through, a1 matches: dead flit straight, a2 turns with no delay",
               {seg({cf(0, 4), cf(2, 7)}, 2, 3)}, 0, 0, nullptr});
  v.back().tcheck = [](const Trace &t) {
    const uint64_t a = Trace::first(t.in), w = 3 * mp1stim::kAwf;
    std::string e = eqs("chunks on st (the dead word)", Trace::flit_chunks(t.out[0]), w);
    e += eqs("st first chunk", Trace::first(t.out[0]), a + 1);
    e += eqs("ot first chunk (a2's)", Trace::first(t.out[1]), a + w + 1);
    return e;
  };
  v.push_back({"deliver", "code 2 at its match: the data on reception one cycle after arriving",
               {seg({cf(2, 4)}, 2, 3)}, 0, 0, nullptr});
  v.back().tcheck = [](const Trace &t) {
    const uint64_t a = Trace::first(t.in), w = 3 * mp1stim::kAwf;
    return eqs("rc first chunk", Trace::first(t.out[2]), a + w + 1);
  };
  // E: a later segment right after its EOS, on the input and on the output.
  v.push_back({"seg_direct", "a segment right after the EOS: no idle chunk inside a message",
               {seg({cf(2, 9)}, 1, 3), seg({}, 1, 2), seg({}, 2, 2)}, 0, 0, nullptr});
  v.back().tcheck = [](const Trace &t) {
    std::string e;
    const std::vector<Trace::Kind> k = Trace::frame(t.out[0]);
    for (int i = 0; i < 2; i++) {
      const uint64_t eos = Trace::nth_end(t.out[0], 1, i);
      if (eos == ~0ull || eos + 1 >= k.size() || k[eos + 1] != Trace::kFlit1)
        e += "st: no flit right after EOS " + std::to_string(i) + "; ";
    }
    return e;
  };
}

// Draft 4: adaptation against stop (§7.1), the buffer near its bound (§6), broadcast copies (D).
void stop_cases(std::vector<RmCase> &v) {
  // F5a: straight owned but stopped is blocked: the adaptive message turns (§7.1).
  {
    RmCase c{"adapt_stop", "straight owned, its stop high: an adaptive message turns",
             {seg({cf(1, 9), cf(2, 7)}, 2, 3)}, 0, 0,
             [](const mp1_rm_regs_t &r) { return eqs("adaptations", r.cnt_adapt, 1); }};
    c.stopped = 1u, c.stop_from = 0, c.stop_until = 300;
    v.push_back(c);
  }
  // ... but not into an other dimension that is stopped too: straight frees first (§7.1).
  {
    RmCase c{"adapt_stop_ot", "straight and ot stopped, straight frees first: no turn",
             {seg({cf(1, 9), cf(2, 7)}, 2, 3)}, 0, 0,
             [](const mp1_rm_regs_t &r) { return eqs("adaptations", r.cnt_adapt, 0); }};
    c.stopped = 3u, c.stop_from = 0, c.stop_until = 150, c.ot_stop_until = 400;
    v.push_back(c);
  }
  // ... and never once something of the message went straight (its second segment waits).
  {
    RmCase c{"adapt_seg2", "first segment straight, then straight stopped: the rest waits",
             {seg({cf(1, 9), cf(2, 7)}, 1, 3), seg({}, 2, 3)}, 0, 0,
             [](const mp1_rm_regs_t &r) { return eqs("adaptations", r.cnt_adapt, 0); }};
    c.stopped = 1u, c.stop_from = 12 * mp1stim::kAwf, c.stop_until = 300;
    v.push_back(c);
  }
  // §6: the buffer filled near its bound: a back message streams in while the front one's
  // straight copy waits between its segments (stop high), behind the front's last segment.
  {
    RmCase c{"fill_occ", "a back message fills the buffer behind a stalled front one",
             {seg({cf(2, 9)}, 1, 32 - mp1stim::kAwf), seg({}, 2, 8), seg({cf(2, 9)}, 2, 32 - mp1stim::kAwf)},
             1u, 150, nullptr};
    c.stall_next = 150, c.occ_min = 115, c.cycles = 3000;
    v.push_back(c);
  }
  // D: a broadcast's copies start on their own: straight and reception at once, ot when freed.
  v.push_back({"bcast_indep", "a broadcast with ot held: st and rc go, ot follows when freed",
               {seg({cf(4, 9), cf(5, 7)}, 2, 3)}, 2u, 80, nullptr});
  v.back().tcheck = [](const Trace &t) {
    const uint64_t a = Trace::first(t.in), w = 3 * mp1stim::kAwf;
    std::string e = eqs("st first chunk", Trace::first(t.out[0]), a + 1);
    e += eqs("rc first chunk", Trace::first(t.out[2]), a + 2 * w + 1);
    if (Trace::first(t.out[1]) < 80) e += "ot started while held; ";
    return e;
  };
}

// The Yosys mutants' escapes and the sweeps (many messages, one at a time).
void sweep_cases(std::vector<RmCase> &v) {
  // Escapes of the Yosys mutants of draft 4 (docs/coverage.md): back messages ended while they
  // wait, routes into a missing output, the invariant's flag.
  v.push_back(back_bcast_cut_case());
  v.push_back(back_long_case());
  v.push_back(edge_bad_case());
  v.push_back(err_case());
  v.push_back(sweep("fill_edge", "each copy starts 15 .. 1 chunks below the lead window's edge",
                    fill_edge_msgs(), 40000, nullptr));
  v.push_back(sweep("addr_sweep", "a1 2 below .. 2 above the node, every position, both ways",
                    addr_sweep_msgs(), 40000, nullptr));
  v.push_back(sweep("adapt_sweep", "a2 2 below .. 2 above opos, every position, both ways",
                    adapt_sweep_msgs(), 40000, [](const mp1_rm_regs_t &r) {
                      return r.cnt_adapt_buf >= 16 && r.cnt_adapt > r.cnt_adapt_buf
                                 ? std::string()
                                 : "adaptations " + std::to_string(r.cnt_adapt) + " (" +
                                       std::to_string(r.cnt_adapt_buf) +
                                       " buffered), expected some, 16 buffered; ";
                    }));
  v.push_back(sweep("counters", "130 strays, 260 dead flits, 131 over-long, 260 buffered turns",
                    counters_msgs(), 60000, [](const mp1_rm_regs_t &r) {
                      return eqs("stray", r.cnt_stray, 130) + eqs("dead", r.cnt_dead, 260) +
                             eqs("long", r.cnt_bad_long, 131) + eqs("turns", r.cnt_adapt, 260) +
                             eqs("buffered turns", r.cnt_adapt_buf, 260);
                    }));
  // The same messages with the counters walked through their carries (their values are then the
  // walk's, so only the lockstep checks them): cnt_adapt_buf moves in no random run.
  v.push_back(sweep("counters_walk", "the counters case, its counters walked through every carry",
                    counters_msgs(), 60000, nullptr));
  v.back().walk = true;
  // And adapt_sweep's, whose turns made before the segment is buffered hold cnt_adapt_buf.
  v.push_back(sweep("adapt_walk", "the adapt_sweep case, its counters walked through every carry",
                    adapt_sweep_msgs(), 40000, nullptr));
  v.back().walk = true;
}

std::vector<RmCase> rm_cases() {
  std::vector<RmCase> v;
  basic_cases(v);
  timing_cases(v);
  stop_cases(v);
  sweep_cases(v);
  return v;
}

std::vector<Sig> make_sigs() {
  std::vector<Sig> s;
  PORTS_TABLE(&s, MP1_RM_INPUTS, MP1_RM_OUTPUTS, MP1_RM_REGS);
  return s;
}

#ifndef LOCKSTEP_TOP
#define LOCKSTEP_TOP "mp1_rm"
#endif

class Tb : public bench::Run {
 public:
  Tb(const bench::Options &o, VerilatedContext *ctx) : bench::Run("mp1_rm", o), ctx_(ctx) {
    sigs_ = make_sigs();
    rtl_ = std::make_unique<Vmp1_rm>(ctx, "rm");
    inst_.init("rm", &sigs_);
    h_.add(&inst_);
    mp1_rm_reset(&cfg_, &m_);
    madpost_rng_seed(&g_, o.seed, 0);
    madpost_rng_seed(&src_.rng, o.seed, 1);
    in_ = mp1_rm_in_t{};
    in_.pos = madpost_rng_below(&g_, mp1stim::kAddrs);
    in_.opos = madpost_rng_below(&g_, mp1stim::kAddrs);
    in_.neg = madpost_rng_below(&g_, 2);
    in_.oneg = madpost_rng_below(&g_, 2);
    in_.edge = madpost_rng_chance(&g_, 1, 6);
    in_.oedge = madpost_rng_chance(&g_, 1, 6);
    src_.pos = in_.pos, src_.opos = in_.opos, src_.neg = in_.neg, src_.oneg = in_.oneg;
    arb_[0].me_first = true;  // straight: this machine first
    for (int k = 1; k < 4; k++) arb_[k].me_first = false;
    busy_ = 5 + madpost_rng_below(&g_, 60);
    stop_pct_ = madpost_rng_below(&g_, 30);
    for (const mp1stim::RmCounter &k : mp1stim::kRmCounters) walk_.add(k.rtl, &(m_.r.*k.f));
  }

  int open_waves() { return o_.waves ? h_.open_waves(o_.wave_dir) : 0; }
  void reset() { lockstep::rtl_reset(rtl_.get()); }
  void finish() {}

  // A directed case or sweep (dc), or random traffic (nullptr).
  void run(const RmCase *dc) {
    dc_ = dc;
    // Random runs reset the machine now and then, mid-message included (tb/lockstep.h MidReset).
    if (!dc_) rst_.init(o_.seed, kResetOdds);
    if (dc_) {
      in_ = mp1_rm_in_t{};
      in_.pos = in_.opos = 4;
      in_.edge = dc_->edge;
      src_.scripted = true;
      for (const Seg &sg : dc_->segs) src_.segs.push_back(sg);
    }
    if (!dc_ || dc_->walk) walk_.open(ctx_, rtl_.get(), LOCKSTEP_TOP);
    if (dc_) {
      // A sweep ends 100 cycles after its last message, once the machine is back in IDLE.
      uint64_t c = 0, quiet = 0;
      for (; c < dc_->cycles && quiet < 100; c++) {
        cycle(c);
        const bool done = !dc_->msgs.empty() && msg_i_ == dc_->msgs.size() &&
                          src_.q.empty() && src_.segs.empty() && rm_empty(m_.r);
        quiet = done ? quiet + 1 : 0;
      }
      h_.close();
      std::string err = dc_->check ? dc_->check(m_.r) : "";
      if (dc_->tcheck) err += dc_->tcheck(tr_);
      if (occ_max_ < dc_->occ_min)
        err += "buffer occupancy reached " + std::to_string(occ_max_) + ", expected at least " +
               std::to_string(dc_->occ_min) + "; ";
      err += eqs("machine empty at the end (no front or back message)", rm_empty(m_.r), 1);
      err += eqs("messages fed", msg_i_, dc_->msgs.size());
      if (!err.empty()) fatal(err);
      std::printf("mp1_rm: %-14s as expected, %" PRIu64 " cycles matched (%s)\n", dc_->name, c,
                  dc_->what);
      return;
    }
    for (uint64_t c = 0; c < o_.cycles; c++) cycle(c);
    h_.close();
    std::printf("mp1_rm: %" PRIu64 " messages, dead %u, bad code %u, bad addr %u, long %u, "
                "stray %u, cut %u, adaptations %u (%u buffered), resets %" PRIu64
                ", counter events from injected values %" PRIu64 "\n",
                src_.msgs, m_.r.cnt_dead, m_.r.cnt_bad_code, m_.r.cnt_bad_addr,
                m_.r.cnt_bad_long, m_.r.cnt_stray, m_.r.cnt_cut, m_.r.cnt_adapt,
                m_.r.cnt_adapt_buf, rst_.count, walk_.carries());
    cyc_ = o_.cycles;
    matched();
  }

 private:
  void cycle(uint64_t c) {
    cyc_ = c;
    if (rst_.start(rtl_.get())) mp1_rm_reset(&cfg_, &m_);
    if (dc_) feed(c);
    // (a case that ignores stop shows its sender a stop that is always low)
    in_.in_dat = src_.next(dc_ && dc_->ignore_stop ? 0 : m_.r.stop);
    uint32_t *own[4] = {&in_.st_own, &in_.ot_own, &in_.rc_own, &in_.pb_own};
    uint32_t *fre[4] = {&in_.st_free, &in_.ot_free, &in_.rc_free, &in_.pb_free};
    uint32_t *stp[4] = {&in_.st_stop, &in_.ot_stop, &in_.rc_stop, &in_.pb_stop};
    for (int k = 0; k < 4; k++) arb_[k].drive(&g_, stop_pct_, own[k], fre[k], stp[k]);
    const uint32_t mheld = msg_held(c);
    if (dc_) {  // a plain arbiter per output; a competitor holds the blocked ones for a while
      for (int k = 0; k < 4; k++) {
        const bool held = ((dc_->blocked >> k & 1u) && c < dc_->until) || (mheld >> k & 1u);
        *own[k] = downer_[k] && !held;
        *fre[k] = !downer_[k] && !held;
        const uint64_t until = k == 1 && dc_->ot_stop_until ? dc_->ot_stop_until : dc_->stop_until;
        *stp[k] = (dc_->stopped >> k & 1u) && c >= dc_->stop_from && c < until;
        if (k == 0 && dc_->stall_next && !stall_c_ && m_.r.cs_st == 3 && m_.r.b_val)
          stall_c_ = c + dc_->stall_next;
        if (k == 0 && c < stall_c_) *stp[k] = 1;
      }
    }
    PORTS_COPY_IN(MP1_RM_INPUTS, rtl_.get(), in_);
    rtl_->eval();
    mp1_rm_out_t mo;
    mp1_rm_next_t nx;
    mp1_rm_eval(&cfg_, &m_, &in_, &mo, &nx, nullptr);
    collect(mo);
    if (dc_) occ_max_ = std::max(occ_max_, mp1_rm_occupancy(&cfg_, &m_));  // draft 4 §6
    if (dc_) {  // the wire: the input chunk, and the output registers of this cycle
      const uint32_t w[4] = {m_.r.st_dat, m_.r.ot_dat, m_.r.rc_dat, m_.r.pb_dat};
      tr_.in.push_back(in_.in_dat);
      for (int k = 0; k < 4; k++) tr_.out[k].push_back(w[k]);
      tr_.err.push_back(mo.err);
      tr_.stop.push_back(m_.r.stop);
    }
    // The buffer invariant (docs/mp1_draft4.md §6), as the C model computes it (the compare
    // checks the RTL's): a failure unless the case's sender ignores stop, where err must rise.
    if (mo.err && !(dc_ && dc_->ignore_stop)) fatal("buffer invariant (err)");
    if (h_.check(c)) {
      // The registers at the mismatch (they matched at this cycle's start): what the machine held.
      std::printf("  registers:");
#define X(n, cnt, w) std::printf(" %s=%x", #n, (unsigned)m_.r.n);
      MP1_RM_REGS(X)
#undef X
      std::printf("\n");
      mismatch();
    }
    const uint32_t req[4] = {mo.st_req, mo.ot_req, mo.rc_req, mo.pb_req};
    for (int k = 0; k < 4; k++) arb_[k].step(&g_, req[k], busy_);
    if (dc_)
      for (int k = 0; k < 4; k++)
        downer_[k] = req[k] && !((dc_->blocked >> k & 1u) && c + 1 < dc_->until) &&
                     !(mheld >> k & 1u);
    mp1_rm_clock(&m_, &nx);
    lockstep::rtl_clock(rtl_.get());
    if (rst_.after_clock(rtl_.get())) mp1_rm_reset(&cfg_, &m_);
    walk_.step(rtl_.get());
  }

  // Sweep cases: the next message once the machine is in IDLE and the input quiet, at its node.
  void feed(uint64_t c) {
    if (msg_i_ >= dc_->msgs.size() || !src_.q.empty() || !src_.segs.empty() || src_.gap ||
        !rm_empty(m_.r))
      return;
    const RmMsg &m = dc_->msgs[msg_i_++];
    in_.pos = m.pos, in_.opos = m.opos, in_.neg = m.neg, in_.oneg = m.oneg;
    for (const Seg &sg : m.segs) src_.segs.push_back(sg);
    msg_c_ = c;
    filled_ = false;
  }
  // The outputs the competitor holds for the current message this cycle.
  uint32_t msg_held(uint64_t c) {
    if (!dc_ || msg_i_ == 0) return 0;
    const RmMsg &m = dc_->msgs[msg_i_ - 1];
    if (m.release != kFill && (m.release & kAtWp)) {
      if (m_.r.wp >= (m.release & ~kAtWp)) filled_ = true;
      return filled_ ? 0 : m.hold;
    }
    if (m.release != kFill) return c - msg_c_ < m.release ? m.hold : 0;
    if (m_.r.stop && src_.q.empty() && c > msg_c_) filled_ = true;
    return filled_ ? 0 : m.hold;
  }

  void collect(const mp1_rm_out_t &mo) {
    ports::Fill f{&inst_};
    PORTS_COLLECT(f, MP1_RM_INPUTS, MP1_RM_OUTPUTS, MP1_RM_REGS, *rtl_, in_, mo, m_.r);
  }

  VerilatedContext *ctx_;
  std::vector<Sig> sigs_;
  lockstep::Instance inst_;
  std::unique_ptr<Vmp1_rm> rtl_;
  const mp1_rm_cfg_t cfg_{MP1_AWF};  // as the RTL's AWF parameter (docs/mp1.md §14)
  mp1_rm_state_t m_{};
  mp1_rm_in_t in_{};
  madpost_rng_t g_{};
  Source src_;
  Arb arb_[4];
  uint32_t busy_ = 0, stop_pct_ = 0;
  const RmCase *dc_ = nullptr;
  static constexpr uint32_t kResetOdds = 25000;
  lockstep::MidReset rst_;
  bool downer_[4] = {false, false, false, false};
  Trace tr_;             // directed cases: the chunk streams
  uint64_t stall_c_ = 0;  // straight's stop is held high until this cycle (stall_next)
  uint32_t occ_max_ = 0;  // the highest occupancy seen
  lockstep::CounterWalk walk_{"mp1_rm"};
  size_t msg_i_ = 0;     // sweep cases: messages fed so far
  uint64_t msg_c_ = 0;   // the cycle the current one was fed
  bool filled_ = false;  // its kFill hold has been released
};

}  // namespace

int main(int argc, char **argv) {
  const std::vector<RmCase> cases = rm_cases();
  return bench::main(argc, argv, mp1stim::spec("mp1_rm_lockstep"), bench::case_tests<Tb>(cases));
}
