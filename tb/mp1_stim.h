// Stimulus shared by the MP1 lockstep testbenches: random message chunk streams on a channel, and
// an output arbiter shared with a random competitor (docs/mp1.md §2-§4, §10.2). Addresses are
// words of MP1_AWF flits (§14; -DMP1_AWF=2 with an RTL built with -GAWF=2); at MP1_AWF = 1 no
// stream makes the draws only a wide word needs. Also the MP1 benches' command line.
#ifndef MADPOST_MP1_STIM_H
#define MADPOST_MP1_STIM_H

#include <cstdint>
#include <deque>
#include <initializer_list>
#include <string>
#include <vector>

#include <madpost/mp1_awf.h>
#include <madpost/mp1_chip.h>
#include <madpost/mp1_rm.h>
#include <madpost/madpost_rng.h>

#include "common/bench.h"

namespace mp1stim {

constexpr uint32_t kAwf = MP1_AWF;                     // address flits per word
constexpr uint32_t kAddrs = 1u << MP1_AWB;             // positions an address names

// Chunk streams of random messages (docs/mp1.md §2, §3).
struct Source {
  madpost_rng_t rng{};
  std::deque<uint8_t> q;      // chunks of the current segment
  std::deque<std::deque<uint8_t>> segs;  // later segments of the current message
  uint32_t gap = 0;           // idle cycles before the next segment may start
  uint32_t pos = 0, opos = 0, neg = 0, oneg = 0;
  uint64_t msgs = 0;
  // Chip level (docs/mp1.md §11.3): a code-6 message may carry a selection segment and a nested
  // message in its data, for the injection controller behind the piggy-back channel.
  bool nest = false;
  uint32_t nest_sel = 0;
  bool scripted = false;  // directed cases: send only the segments given, make up nothing
  uint32_t seen_stop = 1;  // the receiver's stop as this sender saw it in the previous cycle

  void flit(std::deque<uint8_t> &d, uint32_t b) {
    d.push_back((uint8_t)(4u | ((b >> 6) & 3u)));
    d.push_back((uint8_t)((b >> 3) & 7u));
    d.push_back((uint8_t)(b & 7u));
  }
  // The first n flits (all by default) of an address word w = {code, addr} (docs/mp1.md §14.1).
  void word(std::deque<uint8_t> &d, uint32_t w, uint32_t n = kAwf) {
    for (uint32_t f = 0; f < n; f++) flit(d, mp1_addr_flit(kAwf, w, f));
  }
  uint32_t addr(uint32_t p, uint32_t n) {
    // Mostly ahead or at the node; sometimes behind (bad) or anywhere.
    uint32_t r = madpost_rng_below(&rng, 10);
    if (r < 3) return p;
    if (r < 8) {
      uint32_t k = 1 + madpost_rng_below(&rng, 6);
      return n ? (p >= k ? p - k : 0) : (p + k > kAddrs - 1 ? kAddrs - 1 : p + k);
    }
    return madpost_rng_below(&rng, kAddrs);
  }
  void new_message() {
    msgs++;
    std::deque<uint8_t> seg;
    uint32_t kind = madpost_rng_below(&rng, 100);
    if (kind < 5) {  // a dead flit: one address word, then nothing (or an illegal chunk, §2.3)
      const uint32_t w = (madpost_rng_below(&rng, 7) << MP1_AWB) | madpost_rng_below(&rng, kAddrs);
      // with several flits a word, now and then only its first ones (a dead word all the same)
      word(seg, w,
           kAwf > 1 && madpost_rng_chance(&rng, 1, 3) ? 1 + madpost_rng_below(&rng, kAwf - 1)
                                                      : kAwf);
      if (madpost_rng_chance(&rng, 1, 3)) seg.push_back(3);
      q = seg;
      return;
    }
    if (kind < 7) {  // a stray end code or illegal chunk
      seg.push_back((uint8_t)(1 + madpost_rng_below(&rng, 3)));
      q = seg;
      return;
    }
    if (kind >= 98) {  // a two-dimension header cut short: a1, then an end code (§8.8 rule 11);
                       // with several flits a word, now and then inside a1 (§14.2 rule 6)
      const uint32_t c2[3] = {0, 1, 4};
      const uint32_t w = c2[madpost_rng_below(&rng, 3)] << MP1_AWB | addr(pos, neg);
      // several flits a word: cut inside a1, after a1, or inside a2 (still §8.8 rule 11)
      const uint32_t at = kAwf > 1 ? madpost_rng_below(&rng, 3) : 1;
      word(seg, w, at == 0 ? 1 + madpost_rng_below(&rng, kAwf - 1) : kAwf);
      if (at == 2)
        word(seg, 2u << MP1_AWB | addr(opos, oneg), 1 + madpost_rng_below(&rng, kAwf - 1));
      seg.push_back((uint8_t)(1 + madpost_rng_below(&rng, 2)));
      if (seg.back() == 1) {  // after an EOS the message still has to end
        q = seg;
        segs.push_back(std::deque<uint8_t>{2});
        return;
      }
      q = seg;
      return;
    }
    uint32_t code = madpost_rng_below(&rng, 100) < 3 ? 7 : madpost_rng_below(&rng, 7);
    bool two = code == 0 || code == 1 || code == 4;
    word(seg, code << MP1_AWB | addr(pos, neg));
    if (two) word(seg, ((code == 4 ? 5u : 2u) << MP1_AWB) | addr(opos, oneg));
    if (nest && code == 6 && madpost_rng_below(&rng, 4) != 0) {
      flit(seg, nest_sel);
      seg.push_back(1);  // EOS: the selection segment ends the first segment
      nest = false;
      new_message();  // the nested message: its segments follow
      nest = true;
      msgs--;
      segs.push_front(q);
      q = seg;
      return;
    }
    // Data length: mostly short, sometimes several segments; now and then an over-long segment
    // (a bad message: more than 32 flits before its end code).
    const bool overlong = madpost_rng_below(&rng, 100) < 2;
    uint32_t len = madpost_rng_below(&rng, 100) < 10 ? 33 + madpost_rng_below(&rng, 70)
                                                     : madpost_rng_below(&rng, 12);
    if (overlong) len = 40 + madpost_rng_below(&rng, 20);
    std::vector<std::deque<uint8_t>> all;
    uint32_t nflits = (two ? 2 : 1) * kAwf;
    for (uint32_t i = 0; i < len; i++) {
      if (!overlong && nflits == 32) {
        seg.push_back(1);  // EOS
        all.push_back(seg);
        seg.clear();
        nflits = 0;
      }
      flit(seg, madpost_rng_below(&rng, 256));
      nflits++;
    }
    // Now and then the last segment runs over 32 flits (a bad message found late).
    if (all.size() >= 1 && madpost_rng_chance(&rng, 1, 15))
      for (int i = 0; i < 35; i++) flit(seg, madpost_rng_below(&rng, 256));
    seg.push_back(2);  // EOM
    all.push_back(seg);
    // Now and then a segment is truncated (§2.3): after any one of its flits, header or data,
    // an idle or illegal chunk instead of the next flit or end code; the message ends there.
    if (madpost_rng_chance(&rng, 1, 12)) {
      const uint32_t si = madpost_rng_below(&rng, (uint32_t)all.size());
      const uint32_t flits = (uint32_t)(all[si].size() - 1) / 3;
      if (flits) {
        all[si].resize(3 * (1 + madpost_rng_below(&rng, flits)));
        if (madpost_rng_chance(&rng, 1, 2)) all[si].push_back(3);
        all.resize(si + 1);
      }
    }
    // Now and then a message with several segments is aborted between two of them (§8.8 rule 5).
    if (all.size() > 1 && madpost_rng_chance(&rng, 1, 8)) {
      all.resize(1 + madpost_rng_below(&rng, (uint32_t)all.size() - 1));
      all.push_back(std::deque<uint8_t>{3});
    }
    q = all[0];
    for (size_t i = 1; i < all.size(); i++) segs.push_back(all[i]);
  }
  // The chunk for this cycle, given the receiver's `stop` register in this cycle. A segment starts
  // only if `stop` was low in the previous cycle, as a sender's output register is loaded one
  // cycle before its chunk is on the wire (docs/mp1_draft4.md §2 rule 2, §6).
  uint8_t next(uint32_t stop_now) {
    const uint32_t stop = seen_stop;
    seen_stop = stop_now;
    if (!q.empty()) return pop();
    if (gap) {
      gap--;
      return 0;
    }
    if (stop) return 0;
    if (!segs.empty()) {
      q = segs.front();
      segs.pop_front();
    } else if (scripted) {
      return 0;
    } else {
      new_message();
    }
    return pop();
  }
  uint8_t pop() {
    uint8_t c = q.front();
    q.pop_front();
    // At least one idle chunk between messages; a later segment of the same message may follow
    // its EOS directly (draft 4 §2 rules 2 and 3).
    // A directed case's segment after an EOS follows it directly; anything else after one idle.
    if (q.empty() && scripted)
      gap = c == 1 && !segs.empty() ? 0 : 1;
    else if (q.empty())
      gap = (!segs.empty() && madpost_rng_chance(&rng, 1, 3) ? 0 : 1) +
            (madpost_rng_below(&rng, 4) ? madpost_rng_below(&rng, 8) : madpost_rng_below(&rng, 80));
    return c;
  }
};

// A routing machine holds no message, front or back (docs/mp1_draft4.md §3): draft 3's IDLE.
inline bool rm_empty(const mp1_rm_regs_t &r) { return !r.f_val && !r.b_val; }

// An output's arbiter, shared with one random competitor (docs/mp1.md §4, §8 plan).
struct Arb {
  int own = 0;  // 0 none, 1 this machine, 2 the competitor
  bool me_first = true;
  uint32_t other_hold = 0;
  uint32_t stop = 0;
  // This cycle's inputs of the machine for this output; the receiver's stop changes now and then.
  void drive(madpost_rng_t *g, uint32_t stop_pct, uint32_t *own_i, uint32_t *free_i,
             uint32_t *stop_i) {
    *own_i = own == 1;
    *free_i = own == 0;
    if (madpost_rng_chance(g, 1, 20)) stop = madpost_rng_chance(g, stop_pct, 100);
    *stop_i = stop;
  }
  void step(madpost_rng_t *g, uint32_t req_me, uint32_t busy_pct) {
    if (own == 1 && req_me) return;
    if (own == 2 && other_hold > 1) {
      other_hold--;
      return;
    }
    own = 0;
    other_hold = 0;
    const bool other_req = madpost_rng_chance(g, busy_pct, 1000);
    if (req_me && (me_first || !other_req)) {
      own = 1;
    } else if (other_req) {
      own = 2;
      other_hold = 1 + madpost_rng_below(g, 60);
    }
  }
};

// Directed cases: segments of whole flits, address words, and a counter check's message. An
// address word (cf) is marked, so that put_flit and seg send it as its kAwf flits; any other value
// is one flit.
typedef std::deque<uint8_t> Seg;
constexpr uint32_t kWord = 1u << 31;
inline void put_one(Seg &s, uint32_t b) {
  s.push_back((uint8_t)(4u | ((b >> 6) & 3u)));
  s.push_back((uint8_t)((b >> 3) & 7u));
  s.push_back((uint8_t)(b & 7u));
}
inline void put_flit(Seg &s, uint32_t b) {
  if (!(b & kWord)) return put_one(s, b);
  for (uint32_t f = 0; f < kAwf; f++) put_one(s, mp1_addr_flit(kAwf, b & ~kWord, f));
}
// Flits, then `extra` data flits 0x40, 0x41, ..., then the end code (1 EOS, 2 EOM; 0 none).
inline Seg seg(std::initializer_list<uint32_t> flits, uint8_t end, uint32_t extra = 0) {
  Seg s;
  for (uint32_t b : flits) put_flit(s, b);
  for (uint32_t i = 0; i < extra; i++) put_flit(s, 0x40 + i);
  if (end) s.push_back(end);
  return s;
}
// A segment of n flits: the address words `head`, then data flits 0x40, ..., then the end code.
inline Seg seg_n(std::initializer_list<uint32_t> head, uint32_t n, uint8_t end) {
  const uint32_t hf = (uint32_t)seg(head, 0).size() / 3;
  return seg(head, end, n > hf ? n - hf : 0);
}
inline uint32_t cf(uint32_t code, uint32_t addr) { return kWord | code << MP1_AWB | addr; }
inline std::string eqs(const char *what, uint64_t got, uint64_t want) {
  return got == want ? "" : std::string(what) + " " + std::to_string(got) + ", expected " +
                                std::to_string(want) + "; ";
}

// The routing machine's 16-bit event counters, by RTL register and C model field: the benches
// walk them through their carries (tb/backdoor.h CounterWalk), as no run counts high enough.
struct RmCounter {
  const char *rtl;
  uint16_t mp1_rm_regs_t::*f;
};
constexpr RmCounter kRmCounters[8] = {
    {"cnt_dead_q", &mp1_rm_regs_t::cnt_dead},       {"cnt_bad_code_q", &mp1_rm_regs_t::cnt_bad_code},
    {"cnt_bad_addr_q", &mp1_rm_regs_t::cnt_bad_addr}, {"cnt_bad_long_q", &mp1_rm_regs_t::cnt_bad_long},
    {"cnt_stray_q", &mp1_rm_regs_t::cnt_stray},     {"cnt_cut_q", &mp1_rm_regs_t::cnt_cut},
    {"cnt_adapt_q", &mp1_rm_regs_t::cnt_adapt},     {"cnt_adapt_buf_q", &mp1_rm_regs_t::cnt_adapt_buf},
};

// The injector's 16-bit event counters (the chip's own; its machines' are kRmCounters).
struct InjCounter {
  const char *rtl;
  uint16_t mp1_chip_regs_t::*f;
};
constexpr InjCounter kInjCounters[4] = {
    {"u_inj.cnt_msgs_q", &mp1_chip_regs_t::cnt_inj_msgs},
    {"u_inj.cnt_sel_bad_q", &mp1_chip_regs_t::cnt_sel_bad},
    {"u_inj.cnt_drop_q", &mp1_chip_regs_t::cnt_inj_drop},
    {"u_inj.cnt_stray_q", &mp1_chip_regs_t::cnt_inj_stray},
};
// Adds one chip's counters (its injector's 4, then its eight machines' 8 each) to a counter walk
// (tb/backdoor.h CounterWalk), the RTL paths below `prefix` (the chip instance, "" at its top).
template <class Walk>
void add_chip_counters(Walk &w, const std::string &prefix, mp1_chip_state_t *c) {
  for (const InjCounter &k : kInjCounters) w.add(prefix + k.rtl, &(c->r.*k.f));
  for (int p = 0; p < 4; p++)
    for (int m = 0; m < 2; m++)
      for (const RmCounter &k : kRmCounters)
        w.add(prefix + "g_plane[" + std::to_string(p) + "].u_plane." + (m ? "u_rmy." : "u_rmx.") + k.rtl,
              &((m ? c->pl[p].rmy : c->pl[p].rmx).r.*k.f));
}
constexpr size_t kChipCounters = 4 + 8 * 8;

// The MP1 benches' command line (tb/common/bench.h): random traffic by default (200,000 cycles,
// any count), --list prints "random" then the directed cases, and --help the short usage they
// have always printed.
inline bench::Spec spec(const char *prog) {
  return bench::Spec{prog, 200000, false, 14, nullptr, 0, 0,
                     "usage: %s [--seed S] [--cycles N] [--waves] [+mutant=K]\n"};
}

}  // namespace mp1stim

#endif
