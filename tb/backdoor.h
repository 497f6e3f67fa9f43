// State injection: writes into RTL registers by hierarchical name through Verilator's VPI, so a
// bench can put the RTL and the C model into the same state that no run reaches by counting (a
// 16-bit event counter's carry into bit 15 needs 32 768 events of one kind).
#ifndef MADPOST_BACKDOOR_H
#define MADPOST_BACKDOOR_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "lockstep.h"
#include "verilated.h"
#include "verilated_vpi.h"

namespace lockstep {

// The registers are named as in our RTL (`u_fsm.cnt_par_err_q`, below the top module). RTL whose
// registers have other names (a Yosys netlist, a user's design) gives a map file with one
// "our_name its_name" pair per line: +backdoor_map=FILE (or $MADPOST_BACKDOOR_MAP); a pair whose
// names end in "." maps a prefix (an instance whose insides keep our names). +no_backdoor
// turns injection off; the benches then say so and fail the cases that need it.
// Build: verilator --vpi, and the registers public (tb/backdoor.vlt: public_flat_rw).
class Backdoor {
 public:
  // Resolves every path below `scope` (the model's hierName() "." top module). Returns "" or the
  // error naming the first register not found.
  std::string open(VerilatedContext *ctx, const std::string &scope,
                   const std::vector<std::string> &paths) {
    if (ctx->commandArgsPlusMatch("no_backdoor")[0]) return "";
    std::string err = read_map(ctx);
    if (!err.empty()) return err;
    h_.clear();
    for (const std::string &p : paths) {
      const std::string full = scope + "." + mapped(p);
      vpiHandle h = vpi_handle_by_name(const_cast<PLI_BYTE8 *>(full.c_str()), nullptr);
      if (!h) h = vpi_handle_by_name(const_cast<PLI_BYTE8 *>(mangled(full).c_str()), nullptr);
      if (!h)
        return "backdoor: register " + full + " not found (an RTL with other names gives "
               "+backdoor_map=FILE; +no_backdoor runs without injection)";
      h_.push_back(h);
    }
    on_ = true;
    return "";
  }
  bool on() const { return on_; }

  // p's name in the RTL: its own map entry, else the longest prefix entry's, else p.
  std::string mapped(const std::string &p) const {
    auto m = map_.find(p);
    if (m != map_.end()) return m->second;
    size_t best = 0;
    std::string out = p;
    for (const auto &e : map_)
      if (e.first.size() > best && e.first.back() == '.' && p.compare(0, e.first.size(), e.first) == 0)
        best = e.first.size(), out = e.second + p.substr(best);
    return out;
  }
  // Writes register k (the caller then evaluates the model, so outputs follow the new value).
  void write(size_t k, uint32_t v) {
    s_vpi_value val{};
    val.format = vpiIntVal;
    val.value.integer = (PLI_INT32)v;
    vpi_put_value(h_[k], &val, nullptr, vpiNoDelay);
  }

 private:
  // Verilator 5.006 names a generate block's scope g_x__BRA__3__KET__ where the source says g_x[3].
  static std::string mangled(const std::string &name) {
    std::string out;
    for (char c : name) {
      if (c == '[') out += "__BRA__";
      else if (c == ']') out += "__KET__";
      else out += c;
    }
    return out;
  }
  std::string read_map(VerilatedContext *ctx) {
    const char *arg = ctx->commandArgsPlusMatch("backdoor_map=");
    std::string file = arg[0] ? std::string(arg + 14) : std::string();
    if (file.empty() && std::getenv("MADPOST_BACKDOOR_MAP")) file = std::getenv("MADPOST_BACKDOOR_MAP");
    if (file.empty()) return "";
    std::ifstream in(file);
    if (!in) return "backdoor: cannot read map file " + file;
    std::string line, a, b;
    for (int n = 1; std::getline(in, line); n++) {
      std::istringstream ls(line);
      if (!(ls >> a) || a[0] == '#') continue;
      if (!(ls >> b)) return "backdoor: " + file + ":" + std::to_string(n) + ": expected two names";
      map_[a] = b;
    }
    return "";
  }

  std::map<std::string, std::string> map_;
  std::vector<vpiHandle> h_;
  bool on_ = false;
};

// Walks each of n 16-bit event counters through every carry, in runs whose events come at random:
// the counter is set to 2^k - 1; once an event has moved it (and the value it moved to has been
// compared for `settle` cycles), it is set to 2^(k+1) - 1, and so on round k = 1..16, then 0xfffe.
// A counter put back to 0 by a reset starts its next value the same way.
class CarryWalk {
 public:
  // patience (0: none): cycles a value may wait for its event before the walk moves on anyway,
  // so a counter of rare events still shows every bit (a carry then comes at a later value).
  explicit CarryWalk(size_t n, uint32_t settle = 3, uint32_t patience = 0)
      : k_(n, 1), want_(n, kNone), wait_(n, 0), idle_(n, 0), settle_(settle), patience_(patience) {}
  // Once per cycle, after the clock edge: get(i) reads counter i's value, set(i, v) writes it on
  // both sides.
  template <class Get, class Set>
  void step(Get get, Set set) {
    for (size_t i = 0; i < k_.size(); i++) {
      const bool moved = want_[i] != kNone && get(i) != want_[i];
      if (want_[i] != kNone && !moved && (patience_ == 0 || ++idle_[i] < patience_)) continue;
      if (moved && ++wait_[i] < settle_) continue;
      const uint32_t v = value(k_[i]);
      set(i, v);
      if (moved) carries_++;
      want_[i] = v, wait_[i] = 0, idle_[i] = 0;
      k_[i] = k_[i] % kRound + 1;
    }
  }
  uint64_t carries() const { return carries_; }  // events seen from an injected value
  // Value k of a round: 2^k - 1 for k = 1..16, then 0xfffe (max - 1, one event from the wrap).
  static uint32_t value(uint32_t k) { return k <= 16 ? (uint32_t)((1ull << k) - 1) : 0xfffeu; }
  static constexpr uint32_t kRound = 17;

 private:
  static constexpr uint32_t kNone = 0xffffffffu;
  std::vector<uint32_t> k_, want_, wait_, idle_;
  uint32_t settle_, patience_;
  uint64_t carries_ = 0;
};

// A bench's counter walk: each counter's RTL register (its path below the top module) and the C
// model's copy, walked together through their carries (CarryWalk) by writes on both sides.
class CounterWalk {
 public:
  explicit CounterWalk(const char *bench, uint32_t patience = 0) : bench_(bench), patience_(patience) {}
  // The C models keep a 16-bit counter in a uint16_t (the blocks' state structs) or a uint32_t
  // (the DS-Link's generated register struct).
  void add(const std::string &rtl, uint16_t *model) {
    rtl_.push_back(rtl);
    model_.push_back({model, nullptr});
  }
  void add(const std::string &rtl, uint32_t *model) {
    rtl_.push_back(rtl);
    model_.push_back({nullptr, model});
  }
  // After the RTL's first reset: resolves the registers below `top` of `rtl` (a register not
  // found is a usage error); with +no_backdoor the run says the counters stay unwalked.
  template <class Model>
  void open(VerilatedContext *ctx, Model *rtl, const char *top) {
    walk_ = CarryWalk(rtl_.size(), 3, patience_);
    const std::string err = bd_.open(ctx, std::string(rtl->hierName()) + "." + top, rtl_);
    if (!err.empty()) usage_error((std::string(bench_) + "_lockstep").c_str(), err);
    if (!bd_.on()) std::printf("%s: +no_backdoor: the counters are not walked through their carries\n", bench_);
  }
  // After each clock edge. on_set(i, added) learns what a write added to counter i (mod 2^16);
  // the RTL is evaluated again after a write, so its outputs follow the new values.
  template <class Model, class OnSet>
  void step(Model *rtl, OnSet on_set) {
    if (!bd_.on()) return;
    bool wrote = false;
    walk_.step([&](size_t i) { return model_[i].get(); },
               [&](size_t i, uint32_t v) {
                 on_set(i, (v - model_[i].get()) & 0xFFFFu);
                 model_[i].set(v);
                 bd_.write(i, v);
                 wrote = true;
               });
    if (wrote) rtl->eval();
  }
  template <class Model>
  void step(Model *rtl) {
    step(rtl, [](size_t, uint32_t) {});
  }
  uint64_t carries() const { return walk_.carries(); }
  size_t size() const { return rtl_.size(); }

 private:
  const char *bench_;
  uint32_t patience_;
  std::vector<std::string> rtl_;
  struct Field {
    uint16_t *p16;
    uint32_t *p32;
    uint32_t get() const { return p16 ? *p16 : *p32; }
    void set(uint32_t v) { p16 ? (void)(*p16 = (uint16_t)v) : (void)(*p32 = v); }
  };
  std::vector<Field> model_;
  Backdoor bd_;
  CarryWalk walk_{0};
};

}  // namespace lockstep

#endif
