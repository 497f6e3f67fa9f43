// Shared helpers of the C104 lockstep testbenches (tb/c104_lockstep.cpp, one switch, and
// tb/c104_net_lockstep.cpp, a network of switches): tokens, packed Verilated ports, and the
// reference LFSR and range map of docs/c104.md §11.2 (written again from the text, not the model).
#ifndef MADPOST_C104_COMMON_H
#define MADPOST_C104_COMMON_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "verilated.h"

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
