// Shared helpers of the C104 lockstep testbenches (tb/c104_lockstep.cpp, one switch, and
// tb/c104_net_lockstep.cpp, a network of switches): tokens, packed Verilated ports, a switch's
// signal table and its per-cycle collection, timed tokens, readiness draws, configuration writes,
// and the reference LFSR and range map of docs/c104.md §11.2 (written again from the text, not
// the model).
#ifndef MADPOST_C104_COMMON_H
#define MADPOST_C104_COMMON_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "verilated.h"

#include <madpost/c104.h>
#include <madpost/rng.h>
#include "lockstep.h"

#ifndef LOCKSTEP_CMP_REGS
#define LOCKSTEP_CMP_REGS 1
#endif

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

// ---- Packed-vector access ----------------------------------------------------------------
inline uint32_t wmask(uint32_t w) { return w >= 32 ? 0xFFFFFFFFu : ((1u << w) - 1u); }
// Bits [lsb, lsb + w) of a Verilated port (w <= 32): a scalar type or a VlWide.
inline uint32_t field(uint64_t v, uint32_t lsb, uint32_t w) { return (uint32_t)(v >> lsb) & wmask(w); }
template <std::size_t N>
inline uint32_t field(const VlWide<N> &v, uint32_t lsb, uint32_t w) {
  const uint32_t i = lsb / 32, o = lsb % 32;
  uint64_t x = v.at(i);
  if (o + w > 32 && i + 1 < N) x |= (uint64_t)v.at(i + 1) << 32;
  return (uint32_t)(x >> o) & wmask(w);
}
// Packs n elements of w bits into a Verilated input port.
template <class T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
void pack(T &dst, const uint32_t *a, uint32_t n, uint32_t w) {
  uint64_t v = 0;
  for (uint32_t k = 0; k < n; k++) v |= (uint64_t)(a[k] & wmask(w)) << (k * w);
  dst = (T)v;
}
template <std::size_t N>
void pack(VlWide<N> &dst, const uint32_t *a, uint32_t n, uint32_t w) {
  for (std::size_t i = 0; i < N; i++) dst.at(i) = 0;
  for (uint32_t k = 0; k < n; k++) {
    const uint32_t lsb = k * w, i = lsb / 32, o = lsb % 32, v = a[k] & wmask(w);
    dst.at(i) |= v << o;
    if (o + w > 32) dst.at(i + 1) |= v >> (32 - o);
  }
}


// ---- Signal table and collection -----------------------------------------------------------
// One signal per element of a count-32 entry (name[k]); the link registers of every port as
// l_<reg>_q[k] (0 on token ports, §14).
inline std::vector<lockstep::Sig> make_sigs() {
  std::vector<lockstep::Sig> s;
  auto add = [&](const std::string &n, uint32_t c, uint32_t w, lockstep::Dir d) {
    if (c == 1) {
      s.push_back({n, w, d});
      return;
    }
    for (uint32_t k = 0; k < c; k++) s.push_back({n + "[" + std::to_string(k) + "]", w, d});
  };
#define XI(n, c, w) add(#n "_i", c, w, lockstep::kIn);
#define XO(n, c, w) add(#n "_o", c, w, lockstep::kOut);
#define XR(n, c, w) add(#n "_q", c, w, lockstep::kReg);
#define XL(n, w) add("l_" #n "_q", C104_PORTS, w, lockstep::kReg);
  C104_INPUTS(XI)
  C104_OUTPUTS(XO)
  if (LOCKSTEP_CMP_REGS) {
    C104_REGS(XR)
    C104_LINK_REGS(XL)
  }
#undef XI
#undef XO
#undef XR
#undef XL
  return s;
}

// Switch s's values of this cycle into its instance, in make_sigs() order: its inputs (the same on
// both sides), the RTL's outputs and dbg_ registers (element s * count + k of the top's packed
// ports: a wrapper may hold several switches) beside the C model's.
template <class V>
void collect_switch(lockstep::Instance *inst, const V &rtl, uint32_t s, const c104_in_t &in,
                    const c104_out_t &mo, const c104_state_t &st) {
  std::vector<uint64_t> &R = inst->rtl, &M = inst->model;
  size_t i = 0;
#define XI(n, c, w) \
  for (uint32_t k = 0; k < (c); k++, i++) R[i] = M[i] = C104_AT(in.n, c, k);
#define XO(n, c, w)                                       \
  for (uint32_t k = 0; k < (c); k++, i++) {               \
    R[i] = field(rtl.n##_o, (s * (c) + k) * (w), (w));    \
    M[i] = C104_AT(mo.n, c, k);                           \
  }
#define XR(n, c, w)                                         \
  for (uint32_t k = 0; k < (c); k++, i++) {                 \
    R[i] = field(rtl.dbg_##n##_o, (s * (c) + k) * (w), (w)); \
    M[i] = C104_AT(st.r.n, c, k);                           \
  }
#define XL(n, w)                                                      \
  for (uint32_t k = 0; k < C104_PORTS; k++, i++) {                    \
    R[i] = field(rtl.dbg_l_##n##_o, (s * C104_PORTS + k) * (w), (w)); \
    M[i] = st.link[k].r.n;                                            \
  }
  C104_INPUTS(XI)
  C104_OUTPUTS(XO)
#if LOCKSTEP_CMP_REGS
  C104_REGS(XR)
  C104_LINK_REGS(XL)
#endif
#undef XI
#undef XO
#undef XR
#undef XL
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
  uint32_t draw(rng_t *g, uint64_t cyc) {
    if (stall_until > cyc) return 0;
    if (stall_pm && rng_chance(g, stall_pm, 100000)) {
      stall_until = cyc + 1 + rng_below(g, 300);
      return 0;
    }
    return pct >= 100 ? 1u : (uint32_t)rng_chance(g, pct, 100);
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
