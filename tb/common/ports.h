// The glue a block's port list generates for its lockstep bench. Every list in
// include/madpost/*_ports.h is X(name, count, width) (count 1: a scalar, C field `name`; count N:
// C field `name[N]`, one packed RTL port of N * width bits, element k in bits [k*width +: width]).
// From it: the signal table (the harness, tb/lockstep.h, compares, prints mismatch lines and the
// input history, and writes both VCDs from it), the copy-in (the C inputs into the Verilated
// model's ports) and the collect (inputs, the RTL's outputs and dbg_ registers beside the C
// model's, in table order). A bench writes none of these by hand.
#ifndef MADPOST_TB_COMMON_PORTS_H
#define MADPOST_TB_COMMON_PORTS_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "verilated.h"

#include "lockstep.h"

// 0: compare outputs only, for an RTL without the dbg_<reg>_o observation ports.
#ifndef LOCKSTEP_CMP_REGS
#define LOCKSTEP_CMP_REGS 1
#endif

namespace ports {

// ---- Packed Verilated ports ----------------------------------------------------------------------
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

// ---- Port-list fields ----------------------------------------------------------------------------
// Element k of a C field: the field itself for count 1, name[k] otherwise.
template <class T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
uint64_t at(const T &v, uint32_t) {
  return (uint64_t)v;
}
template <class T, std::size_t N>
uint64_t at(const T (&v)[N], uint32_t k) {
  return (uint64_t)v[k];
}

// Element e of a Verilated port that holds `n` elements of w bits: a port of one element is read
// whole (as the RTL drives it), a packed one bit-sliced.
template <class P, typename std::enable_if<std::is_integral<P>::value, int>::type = 0>
uint64_t get(const P &port, uint32_t e, uint32_t w, uint32_t n) {
  return n == 1 ? (uint64_t)port : field((uint64_t)port, e * w, w);
}
template <std::size_t N>
uint64_t get(const VlWide<N> &port, uint32_t e, uint32_t w, uint32_t) {
  return field(port, e * w, w);
}

// A C input field into its Verilated port: a scalar as it is, an array packed.
template <class P, class T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
void put(P &port, const T &v, uint32_t) {
  port = (P)v;
}
template <class P, std::size_t N>
void put(P &port, const uint32_t (&v)[N], uint32_t w) {
  pack(port, v, (uint32_t)N, w);
}

// ---- Signal table --------------------------------------------------------------------------------
// Appends entry (name, count, width): one signal, or one per element named name[k].
inline void add_sig(std::vector<lockstep::Sig> *s, const std::string &n, uint32_t c, uint32_t w,
                    lockstep::Dir d) {
  if (c == 1) {
    s->push_back({n, w, d});
    return;
  }
  for (uint32_t k = 0; k < c; k++) s->push_back({n + "[" + std::to_string(k) + "]", w, d});
}

// Fills an instance's values of this cycle, in table order. Its Verilated ports may hold `of`
// instances' elements (a network wrapper's packed ports), this one's being number `at`.
struct Fill {
  lockstep::Instance *inst;
  uint32_t at = 0, of = 1;  // this instance's number, and how many a port holds
  size_t i = 0;
  void both(uint64_t v) { inst->rtl[i] = inst->model[i] = v, i++; }
  void pair(uint64_t r, uint64_t m) { inst->rtl[i] = r, inst->model[i] = m, i++; }
};

}  // namespace ports

// The signal table of a block: PORTS_SIGS(&sigs, INPUTS, OUTPUTS) for its inputs and outputs,
// PORTS_SIG_REGS(&sigs, PREFIX, REGS) for registers named PREFIX<name>_q (PREFIX "" or, for the
// registers of a part, e.g. "p2_"), nothing when LOCKSTEP_CMP_REGS is 0.
#define PORTS_SIGS(S, INPUTS, OUTPUTS)    \
  do {                                     \
    std::vector<lockstep::Sig> *pt_s_ = (S); \
    INPUTS(PORTS_X_SIG_IN)                 \
    OUTPUTS(PORTS_X_SIG_OUT)               \
  } while (0)
#define PORTS_X_SIG_IN(n, c, w) ports::add_sig(pt_s_, #n "_i", c, w, lockstep::kIn);
#define PORTS_X_SIG_OUT(n, c, w) ports::add_sig(pt_s_, #n "_o", c, w, lockstep::kOut);
#define PORTS_X_SIG_REG(n, c, w) ports::add_sig(pt_s_, pt_p_ + #n "_q", c, w, lockstep::kReg);

// Copy-in: every input of list INPUTS from the C struct IN into the Verilated model RTL (a
// pointer).
#define PORTS_COPY_IN(INPUTS, RTL, IN) \
  do {                                 \
    auto *pt_rtl_ = (RTL);             \
    const auto &pt_in_ = (IN);         \
    INPUTS(PORTS_X_PUT)                \
  } while (0)
#define PORTS_X_PUT(n, c, w) ports::put(pt_rtl_->n##_i, pt_in_.n, w);
// The same for a wrapper whose every input port packs N instances' elements (INS[0..N-1]).
#define PORTS_COPY_IN_N(INPUTS, RTL, INS, N) \
  do {                                       \
    auto *pt_rtl_ = (RTL);                   \
    const auto *pt_ins_ = (INS);             \
    const uint32_t pt_n_ = (N);              \
    std::vector<uint32_t> pt_a_;             \
    INPUTS(PORTS_X_PUT_N)                    \
  } while (0)
#define PORTS_X_PUT_N(n, c, w)                                      \
  pt_a_.assign(pt_n_ * (c), 0);                                     \
  for (uint32_t pt_s_ = 0; pt_s_ < pt_n_; pt_s_++)                  \
    for (uint32_t pt_k_ = 0; pt_k_ < (c); pt_k_++)                  \
      pt_a_[pt_s_ * (c) + pt_k_] = (uint32_t)ports::at(pt_ins_[pt_s_].n, pt_k_); \
  ports::pack(pt_rtl_->n##_i, pt_a_.data(), pt_n_ * (c), w);

// Collect, with a ports::Fill F: the inputs (the same on both sides, from the C struct IN), the
// outputs (the RTL's n_o beside OUT's), the registers (the RTL's dbg_n_o beside REGV's; nothing
// when LOCKSTEP_CMP_REGS is 0). RTL is a reference to the Verilated model.
#define PORTS_COLLECT_IN(F, INPUTS, IN) \
  do {                                  \
    ports::Fill &pt_f_ = (F);           \
    const auto &pt_v_ = (IN);           \
    INPUTS(PORTS_X_CIN)                 \
  } while (0)
#define PORTS_COLLECT_OUT(F, OUTPUTS, RTL, OUT) \
  do {                                          \
    ports::Fill &pt_f_ = (F);                   \
    const auto &pt_rtl_ = (RTL);                \
    const auto &pt_v_ = (OUT);                  \
    OUTPUTS(PORTS_X_COUT)                       \
  } while (0)
#define PORTS_X_CIN(n, c, w) \
  for (uint32_t pt_k_ = 0; pt_k_ < (c); pt_k_++) pt_f_.both(ports::at(pt_v_.n, pt_k_));
// (element at * count + k of a port that holds of * count)
#define PORTS_X_COUT(n, c, w)                                                  \
  for (uint32_t pt_k_ = 0; pt_k_ < (c); pt_k_++)                               \
    pt_f_.pair(ports::get(pt_rtl_.n##_o, pt_f_.at * (c) + pt_k_, w, pt_f_.of * (c)), \
               ports::at(pt_v_.n, pt_k_));
#define PORTS_X_CREG(n, c, w)                                                        \
  for (uint32_t pt_k_ = 0; pt_k_ < (c); pt_k_++)                                     \
    pt_f_.pair(ports::get(pt_rtl_.dbg_##n##_o, pt_f_.at * (c) + pt_k_, w, pt_f_.of * (c)), \
               ports::at(pt_v_.n, pt_k_));
// Registers packed into one debug bus BUS (the chip's dbg_p<p>_o, the mesh's dbg_chip_o), the
// first entry in the top bits below bit TOP, each next one below it.
#define PORTS_X_CPACKED(n, c, w)                   \
  for (uint32_t pt_k_ = 0; pt_k_ < (c); pt_k_++)   \
    pt_top_ -= (w), pt_f_.pair(ports::field(pt_bus_, pt_top_, w), ports::at(pt_v_.n, pt_k_));

#if LOCKSTEP_CMP_REGS
#define PORTS_SIG_REGS(S, PREFIX, REGS)     \
  do {                                      \
    std::vector<lockstep::Sig> *pt_s_ = (S); \
    const std::string pt_p_ = (PREFIX);     \
    REGS(PORTS_X_SIG_REG)                   \
  } while (0)
#define PORTS_COLLECT_REGS(F, REGS, RTL, REGV) \
  do {                                         \
    ports::Fill &pt_f_ = (F);                  \
    const auto &pt_rtl_ = (RTL);               \
    const auto &pt_v_ = (REGV);                \
    REGS(PORTS_X_CREG)                         \
  } while (0)
#define PORTS_COLLECT_PACKED(F, REGS, BUS, TOP, REGV) \
  do {                                                \
    ports::Fill &pt_f_ = (F);                         \
    const auto &pt_bus_ = (BUS);                      \
    uint32_t pt_top_ = (TOP);                         \
    const auto &pt_v_ = (REGV);                       \
    REGS(PORTS_X_CPACKED)                             \
  } while (0)
#else
#define PORTS_SIG_REGS(S, PREFIX, REGS) \
  do {                                  \
  } while (0)
#define PORTS_COLLECT_REGS(F, REGS, RTL, REGV) \
  do {                                         \
  } while (0)
#define PORTS_COLLECT_PACKED(F, REGS, BUS, TOP, REGV) \
  do {                                                \
  } while (0)
#endif

// A block's whole table and collect, for a bench whose Verilated top is one instance of it.
#define PORTS_TABLE(S, INPUTS, OUTPUTS, REGS) \
  do {                                        \
    PORTS_SIGS(S, INPUTS, OUTPUTS);           \
    PORTS_SIG_REGS(S, "", REGS);              \
  } while (0)
#define PORTS_COLLECT(F, INPUTS, OUTPUTS, REGS, RTL, IN, OUT, REGV) \
  do {                                                              \
    PORTS_COLLECT_IN(F, INPUTS, IN);                                \
    PORTS_COLLECT_OUT(F, OUTPUTS, RTL, OUT);                        \
    PORTS_COLLECT_REGS(F, REGS, RTL, REGV);                         \
  } while (0)

#endif
