// Shared helpers of the C104 lockstep testbenches (tb/c104_lockstep.cpp, one switch, and
// tb/c104_net_lockstep.cpp, a network of switches): tokens, a switch's signal table and its
// per-cycle collection (generated from the port list, tb/common/ports.h), timed tokens,
// readiness draws, configuration writes, and the reference LFSR and range map of docs/c104.md
// §11.2 (written again from the text, not the model).
#ifndef MADPOST_C104_COMMON_H
#define MADPOST_C104_COMMON_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "verilated.h"

#include <madpost/c104.h>
#include <madpost/madpost_rng.h>
#include "common/ports.h"
#include "lockstep.h"

namespace c104tb {

// ---- Tokens: kind << 8 | byte ----------------------------------------------------------------
using Tok = uint16_t;
enum : uint32_t { kData = 0, kEop = 1, kEom = 2, kErr = 3 };
constexpr Tok TK(uint32_t k, uint32_t d) { return (Tok)((k << 8) | (d & 0xFFu)); }
constexpr Tok D(uint32_t d) { return TK(kData, d); }
constexpr Tok EOP = TK(kEop, 0), EOM = TK(kEom, 0), ERR = TK(kErr, 0);
constexpr Tok kNone = 0xFFFF;
inline uint32_t tkind(Tok t) { return (uint32_t)t >> 8; }
inline uint32_t tdata(Tok t) { return t & 0xFFu; }
inline bool tend(Tok t) { return tkind(t) != kData; }
inline std::string tstr(Tok t) {
  static const char *const ends[] = {"", "EOP", "EOM", "ERR"};
  if (tend(t)) return ends[tkind(t) & 3u];
  char b[4];
  std::snprintf(b, sizeof b, "%02x", tdata(t));
  return b;
}
inline std::string tstr(const std::vector<Tok> &v) {
  std::string s = "[";
  for (size_t k = 0; k < v.size(); k++) {
    if (k == 24 && v.size() > 30) {
      s += " ... (" + std::to_string(v.size()) + " tokens)";
      break;
    }
    s += (k ? " " : "") + tstr(v[k]);
  }
  return s + "]";
}

// ---- Signal table and collection -----------------------------------------------------------
// From the port list (tb/common/ports.h): one signal per element of a count-32 entry (name[k]);
// then the link registers of every port as l_<reg>_q[k] (0 on token ports, §14), from dslink's
// list taken 32 times.
inline std::vector<lockstep::Sig> make_sigs() {
  std::vector<lockstep::Sig> s;
  PORTS_TABLE(&s, C104_INPUTS, C104_OUTPUTS, C104_REGS);
#if LOCKSTEP_CMP_REGS
#define XL(n, c, w) ports::add_sig(&s, "l_" #n "_q", C104_PORTS, w, lockstep::kReg);
  C104_LINK_REGS(XL)
#undef XL
#endif
  return s;
}

// Switch s of `of`'s values of this cycle into its instance, in make_sigs() order: its inputs (the
// same on both sides), the RTL's outputs and dbg_ registers (element s * count + k of the top's
// packed ports: a wrapper may hold several switches) beside the C model's.
template <class V>
void collect_switch(lockstep::Instance *inst, const V &rtl, uint32_t s, uint32_t of,
                    const c104_in_t &in, const c104_out_t &mo, const c104_state_t &st) {
  (void)st;  // (its registers are not compared when LOCKSTEP_CMP_REGS is 0)
  ports::Fill f{inst, s, of};
  PORTS_COLLECT(f, C104_INPUTS, C104_OUTPUTS, C104_REGS, rtl, in, mo, st.r);
#if LOCKSTEP_CMP_REGS
#define XL(n, c, w)                                                                          \
  for (uint32_t k = 0; k < C104_PORTS; k++)                                                  \
    f.pair(ports::get(rtl.dbg_l_##n##_o, s * C104_PORTS + k, w, of * C104_PORTS), st.link[k].r.n);
  C104_LINK_REGS(XL)
#undef XL
#endif
}

// ---- Peers' timing -------------------------------------------------------------------------
struct TimedTok {
  Tok t;
  uint64_t at;  // first cycle it may be offered
};

// A configuration write queued for the cfg port.
struct CfgW {
  uint32_t addr, data;
  uint64_t at;
};

// tok_tx_ready of a token port, rx_ready of a bit-level peer: a percentage and stalls.
struct Ready {
  uint32_t pct = 100;
  uint32_t stall_pm = 0;  // per 100000 cycles: a stall of 1..300 cycles starts
  uint64_t stall_until = 0;

  // This cycle's ready, drawn from g.
  uint32_t draw(madpost_rng_t *g, uint64_t cyc) {
    if (stall_until > cyc) return 0;
    if (stall_pm && madpost_rng_chance(g, stall_pm, 100000)) {
      stall_until = cyc + 1 + madpost_rng_below(g, 300);
      return 0;
    }
    return pct >= 100 ? 1u : (uint32_t)madpost_rng_chance(g, pct, 100);
  }
};

// ---- The slices' event counters -------------------------------------------------------------
// By RTL register name and C model array: the random runs walk each through every carry by setting
// it on both sides (tb/backdoor.h CounterWalk), and the scoreboards count what was set.
struct SliceCounter {
  const char *rtl;
  uint16_t (c104_regs_t::*f)[C104_PORTS];
};
constexpr uint32_t kNSliceCounters = 5;
const SliceCounter kSliceCounters[kNSliceCounters] = {
    {"cnt_pkt_q", &c104_regs_t::cnt_pkt},     {"cnt_bad_q", &c104_regs_t::cnt_bad},
    {"cnt_short_q", &c104_regs_t::cnt_short}, {"cnt_cut_q", &c104_regs_t::cnt_cut},
    {"cnt_stray_q", &c104_regs_t::cnt_stray},
};

// ---- Reference of §11.2 --------------------------------------------------------------------
// x^16 + x^14 + x^13 + x^11 + 1 in Galois form, from the exponents.
inline uint32_t ref_lfsr_next(uint32_t x) {
  const uint32_t taps = (1u << 15) | (1u << 13) | (1u << 12) | (1u << 10);
  return (x & 1u) ? ((x >> 1) ^ taps) : (x >> 1);
}
inline uint32_t ref_rand(uint32_t lfsr, uint32_t lo, uint32_t hi) {
  if (hi < lo) return lo;
  return (uint32_t)(lo + (((uint64_t)lfsr * (uint64_t)(hi - lo + 1)) >> 16)) & 0xFFFFu;
}


}  // namespace c104tb

#endif
