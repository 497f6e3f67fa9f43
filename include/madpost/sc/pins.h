// The shared half of the generated SystemC modules (include/madpost/sc/<blk>.h, docs/systemc.md):
// Verilator's pin types, word-wise packing between C port-list fields and pins, and the engine
// that runs a C block (eval, clock, reset) behind a module's two processes. C++17 (Debian's
// SystemC is built -std=gnu++17; other standards fail to link on sc_api_version).
#ifndef MADPOST_SC_PINS_H
#define MADPOST_SC_PINS_H

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <systemc>

namespace madpost_sc {

// The type `verilator --sc` gives a port of W bits (without --pins-* options): bool, uint32_t up
// to 32 bits, uint64_t up to 64, sc_bv<W> beyond.
template <unsigned W>
using pin_t = std::conditional_t<
    W == 1, bool,
    std::conditional_t<W <= 32, uint32_t, std::conditional_t<W <= 64, uint64_t, sc_dt::sc_bv<W>>>>;

// W bits as 32-bit words, the unit every pin is filled and read by (filling an sc_bv bit by bit
// is about 8x slower).
template <unsigned W>
struct bits {
  static constexpr unsigned kWords = (W + 31) / 32;
  uint32_t w[kWords] = {};

  // Bits [lsb, lsb + n) to v (n <= 32; v's bits above n are ignored).
  void put(unsigned lsb, unsigned n, uint32_t v) {
    const uint32_t m = n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1u;
    const unsigned i = lsb / 32, o = lsb % 32;
    v &= m;
    w[i] = (w[i] & ~(m << o)) | (v << o);
    if (o + n > 32) w[i + 1] = (w[i + 1] & ~(m >> (32 - o))) | (v >> (32 - o));
  }
  uint32_t get(unsigned lsb, unsigned n) const {
    const uint32_t m = n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1u;
    const unsigned i = lsb / 32, o = lsb % 32;
    uint64_t x = w[i];
    if (o + n > 32) x |= (uint64_t)w[i + 1] << 32;
    return (uint32_t)(x >> o) & m;
  }
  pin_t<W> pin() const {
    if constexpr (W == 1) {
      return (w[0] & 1u) != 0;
    } else if constexpr (W <= 32) {
      return w[0];
    } else if constexpr (W <= 64) {
      return (uint64_t)w[0] | (uint64_t)w[1] << 32;
    } else {
      sc_dt::sc_bv<W> v;
      for (unsigned i = 0; i < kWords; i++) v.set_word((int)i, w[i]);
      return v;
    }
  }
  void load(const pin_t<W> &p) {
    if constexpr (W <= 32) {
      w[0] = (uint32_t)p;
    } else if constexpr (W <= 64) {
      w[0] = (uint32_t)p, w[1] = (uint32_t)(p >> 32);
    } else {
      for (unsigned i = 0; i < kWords; i++) w[i] = (uint32_t)p.get_word((int)i);
    }
  }
};

// Element k of a port-list field: the field itself for count 1, name[k] for count N.
template <class T, std::enable_if_t<std::is_integral<T>::value, int> = 0>
uint32_t elem(const T &v, unsigned) { return (uint32_t)v; }
template <class T, std::size_t N>
uint32_t elem(const T (&v)[N], unsigned k) { return (uint32_t)v[k]; }
template <class T, std::enable_if_t<std::is_integral<T>::value, int> = 0>
void set_elem(T &f, unsigned, uint32_t v) { f = (T)v; }
template <class T, std::size_t N>
void set_elem(T (&f)[N], unsigned k, uint32_t v) { f[k] = (T)v; }

// A field of `c` elements of `w` bits from its pin of c * w bits (element k in bits [k*w +: w],
// as the RTL packs a per-port vector), and back.
template <unsigned W, class F>
void from_pin(const pin_t<W> &p, F &f, unsigned c, unsigned w) {
  if constexpr (W <= 32 && std::is_integral<F>::value) {
    (void)c, (void)w;
    f = (F)p;
  } else {
    bits<W> b;
    b.load(p);
    for (unsigned k = 0; k < c; k++) set_elem(f, k, b.get(k * w, w));
  }
}
template <unsigned W, class F>
pin_t<W> to_pin(const F &f, unsigned c, unsigned w) {
  if constexpr (W <= 32 && std::is_integral<F>::value) {
    (void)c, (void)w;
    return (pin_t<W>)(W == 32 ? (uint32_t)f : (uint32_t)f & ((1u << (W % 32)) - 1u));
  } else {
    bits<W> b;
    for (unsigned k = 0; k < c; k++) b.put(k * w, w, elem(f, k));
    return b.pin();
  }
}

// A C block (include/madpost/block.h) behind a module's processes. B names the block's types and
// functions (MADPOST_SC_BLOCK). eval runs again only when the inputs or the state changed since
// the last one, so the clocked process reuses what the combinational one computed.
template <class B>
struct engine {
  typename B::cfg_t cfg{};
  typename B::state_t st{};
  typename B::in_t in{};
  typename B::out_t out{};
  typename B::next_t nx{};
  typename B::in_t in_eval{};
  bool fresh = false;       // out and nx are eval(st, in_eval)
  bool state_moved = true;  // the registers changed since the debug pins were last written

  void reset() {
    B::reset(&cfg, &st);
    fresh = false, state_moved = true;
  }
  void eval(const char *who) {
    if (fresh && !std::memcmp(&in, &in_eval, sizeof in)) return;
    in_eval = in;
    if (B::eval(&cfg, &st, &in, &out, &nx, nullptr))
      SC_REPORT_ERROR("madpost", (std::string(who) + ": the C model's eval failed (a model bug)").c_str());
    fresh = true;
  }
  void clock(const char *who) {
    eval(who);
    B::clock(&st, &nx);
    fresh = false, state_moved = true;
  }
};

// The traits of block p for engine<>: its contract types and functions.
#define MADPOST_SC_BLOCK(p)                                                         \
  struct p##_block {                                                                \
    using cfg_t = p##_cfg_t;                                                        \
    using state_t = p##_state_t;                                                    \
    using in_t = p##_in_t;                                                          \
    using out_t = p##_out_t;                                                        \
    using next_t = p##_next_t;                                                      \
    using ev_t = p##_ev_t;                                                          \
    static void reset(const cfg_t *c, state_t *s) { p##_reset(c, s); }              \
    static int eval(const cfg_t *c, const state_t *s, const in_t *i, out_t *o, next_t *n, \
                    ev_t *e) {                                                      \
      return p##_eval(c, s, i, o, n, e);                                            \
    }                                                                               \
    static void clock(state_t *s, const next_t *n) { p##_clock(s, n); }             \
  }

}  // namespace madpost_sc

// ---- Port-list expansions (X(name, count, width)) used inside a generated module ----------------
#define MADPOST_SC_X_IN(n, c, w) sc_core::sc_in<madpost_sc::pin_t<(c) * (w)>> n##_i{#n "_i"};
#define MADPOST_SC_X_OUT(n, c, w) sc_core::sc_out<madpost_sc::pin_t<(c) * (w)>> n##_o{#n "_o"};
#define MADPOST_SC_X_DBG(n, c, w) \
  sc_core::sc_out<madpost_sc::pin_t<(c) * (w)>> dbg_##n##_o{"dbg_" #n "_o"};
#define MADPOST_SC_X_SENS(n, c, w) sensitive << n##_i;
#define MADPOST_SC_X_READ(n, c, w) madpost_sc::from_pin<(c) * (w)>(n##_i.read(), m_.in.n, c, w);
#define MADPOST_SC_X_WRITE(n, c, w) n##_o.write(madpost_sc::to_pin<(c) * (w)>(m_.out.n, c, w));
// Debug pins from the registers struct named mc_r_ in the expanding function.
#define MADPOST_SC_X_WRITE_DBG(n, c, w) \
  dbg_##n##_o.write(madpost_sc::to_pin<(c) * (w)>(mc_r_.n, c, w));

// A wires module: one sc_signal per pin of a block (named as the pin), binding any module with
// those pins (the Verilated one or ours) and tracing them under the lockstep VCDs' names (tb/lockstep.h:
// inputs x_i, outputs x_o, registers x_q).
#define MADPOST_SC_X_SIG_IN(n, c, w) sc_core::sc_signal<madpost_sc::pin_t<(c) * (w)>> n##_i{#n "_i"};
#define MADPOST_SC_X_SIG_OUT(n, c, w) sc_core::sc_signal<madpost_sc::pin_t<(c) * (w)>> n##_o{#n "_o"};
#define MADPOST_SC_X_SIG_DBG(n, c, w) \
  sc_core::sc_signal<madpost_sc::pin_t<(c) * (w)>> dbg_##n##_o{"dbg_" #n "_o"};
#define MADPOST_SC_X_BIND_IN(n, c, w) \
  if (!skip(#n "_i")) m.n##_i(n##_i);
#define MADPOST_SC_X_BIND_OUT(n, c, w) m.n##_o(n##_o);
#define MADPOST_SC_X_BIND_DBG(n, c, w) m.dbg_##n##_o(dbg_##n##_o);
#define MADPOST_SC_X_TRACE_IN(n, c, w) madpost_sc::trace(tf, n##_i, scope + #n "_i", (c) * (w));
#define MADPOST_SC_X_TRACE_OUT(n, c, w) madpost_sc::trace(tf, n##_o, scope + #n "_o", (c) * (w));
#define MADPOST_SC_X_TRACE_DBG(n, c, w) madpost_sc::trace(tf, dbg_##n##_o, scope + #n "_q", (c) * (w));

namespace madpost_sc {
// sc_trace of a pin's signal at the port list's width (a uint32_t pin would otherwise be 32 bits
// wide in the VCD, and a .gtkw names a signal with its width).
template <class T>
void trace(sc_core::sc_trace_file *tf, const sc_core::sc_signal<T> &s, const std::string &n, int w) {
  if constexpr (std::is_same<T, bool>::value || !std::is_integral<T>::value) {
    (void)w;
    sc_core::sc_trace(tf, s.read(), n);
  } else {
    sc_core::sc_trace(tf, s.read(), n, w);
  }
}
// The names of a module's pins, sorted: two pin-compatible modules have the same list (the run
// time complement of pins_match(), which proves only that every pin of ours is one of theirs).
inline std::vector<std::string> pin_names(const sc_core::sc_object &m) {
  std::vector<std::string> v;
  for (const sc_core::sc_object *o : m.get_child_objects())
    if (dynamic_cast<const sc_core::sc_port_base *>(o)) v.push_back(o->basename());
  std::sort(v.begin(), v.end());
  return v;
}
// A pin name predicate for bind(): none skipped.
inline bool no_skip(const char *) { return false; }
}  // namespace madpost_sc

// The wires module of a block: MADPOST_SC_WIRES(Name, INPUTS, OUTPUTS, REGS); bind(m) binds every
// pin of m (clock and reset from the arguments); bind(m, skip) leaves out the inputs skip(name)
// names, for the caller to bind to another module's outputs.
#define MADPOST_SC_WIRES(Name, INPUTS, OUTPUTS, REGS)                                       \
  struct Name : sc_core::sc_module {                                                        \
    INPUTS(MADPOST_SC_X_SIG_IN)                                                             \
    OUTPUTS(MADPOST_SC_X_SIG_OUT)                                                           \
    REGS(MADPOST_SC_X_SIG_DBG)                                                              \
    explicit Name(sc_core::sc_module_name nm) : sc_core::sc_module(nm) {}                   \
    template <class M, class Skip = bool (*)(const char *)>                                 \
    void bind(M &m, sc_core::sc_signal_in_if<bool> &clk, sc_core::sc_signal_in_if<bool> &rst, \
              Skip skip = madpost_sc::no_skip) {                                            \
      m.clk_i(clk);                                                                         \
      m.rst_ni(rst);                                                                        \
      INPUTS(MADPOST_SC_X_BIND_IN)                                                          \
      OUTPUTS(MADPOST_SC_X_BIND_OUT)                                                        \
      REGS(MADPOST_SC_X_BIND_DBG)                                                           \
    }                                                                                       \
    /* every pin under scope (e.g. "dslink_tb.a."), registers as x_q */                     \
    void trace(sc_core::sc_trace_file *tf, const std::string &scope) const {                \
      INPUTS(MADPOST_SC_X_TRACE_IN)                                                         \
      OUTPUTS(MADPOST_SC_X_TRACE_OUT)                                                       \
      REGS(MADPOST_SC_X_TRACE_DBG)                                                          \
    }                                                                                       \
  }

// The pin-compatibility proof: pin `p` of module A has exactly the type of B's (Verilator declares
// its pins as references, hence remove_reference).
#define MADPOST_SC_SAME_PIN(A, B, p)                                                          \
  static_assert(std::is_same<std::remove_reference_t<decltype(std::declval<A &>().p)>,        \
                             std::remove_reference_t<decltype(std::declval<B &>().p)>>::value, \
                "pin " #p " differs between " #A " and the Verilated module")
#define MADPOST_SC_X_SAME_IN(n, c, w) MADPOST_SC_SAME_PIN(Self, V, n##_i);
#define MADPOST_SC_X_SAME_OUT(n, c, w) MADPOST_SC_SAME_PIN(Self, V, n##_o);
#define MADPOST_SC_X_SAME_DBG(n, c, w) MADPOST_SC_SAME_PIN(Self, V, dbg_##n##_o);

// The common part of every generated module: the clock and reset pins, the engine, the two
// processes and the constructor's registration. The block header adds its pins (X-macros above),
// write_dbg() and pins_match<V>(). The clocked process is the only writer of the state, the
// combinational one the only writer of every output pin.
#define MADPOST_SC_COMMON(Mod, blk, INPUTS, OUTPUTS)                                  \
  sc_core::sc_in<bool> clk_i{"clk_i"};                                                \
  sc_core::sc_in<bool> rst_ni{"rst_ni"};                                              \
  INPUTS(MADPOST_SC_X_IN)                                                             \
  OUTPUTS(MADPOST_SC_X_OUT)                                                           \
  madpost_sc::engine<madpost_sc::blk##_block> m_;                                     \
  sc_core::sc_event state_ev_;                                                        \
  SC_HAS_PROCESS(Mod);                                                                \
  /* the C model's state (read-only: the clocked process owns it) */                  \
  const blk##_state_t &state() const { return m_.st; }                               \
  const blk##_cfg_t &cfg() const { return m_.cfg; }                                   \
  void register_processes() {                                                         \
    SC_METHOD(seq);                                                                   \
    sensitive << clk_i.pos() << rst_ni.neg();                                         \
    dont_initialize();                                                                \
    SC_METHOD(comb);                                                                  \
    sensitive << state_ev_;                                                           \
    INPUTS(MADPOST_SC_X_SENS)                                                         \
  }                                                                                   \
  /* rising clock edge, or rst_ni falling (asynchronous, active low, as the RTL) */   \
  void seq() {                                                                        \
    if (!rst_ni.read()) {                                                             \
      m_.reset();                                                                     \
    } else {                                                                          \
      INPUTS(MADPOST_SC_X_READ)                                                       \
      m_.clock(name());                                                               \
    }                                                                                 \
    state_ev_.notify(sc_core::SC_ZERO_TIME);                                          \
  }                                                                                   \
  /* any input changed, or the state did: outputs (and debug pins) anew */            \
  void comb() {                                                                       \
    INPUTS(MADPOST_SC_X_READ)                                                         \
    m_.eval(name());                                                                  \
    OUTPUTS(MADPOST_SC_X_WRITE)                                                       \
    if (m_.state_moved) write_dbg(), m_.state_moved = false;                          \
  }

#endif
