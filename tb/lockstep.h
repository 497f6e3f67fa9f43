// Block-independent lockstep machinery: the signal table's type (tb/common/ports.h fills it from a
// port list), per-cycle compare, mismatch report with input history, and paired VCDs (same writer,
// scopes, names and time base for RTL and model).
#ifndef MADPOST_LOCKSTEP_H
#define MADPOST_LOCKSTEP_H

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <string>
#include <vector>

#include <madpost/madpost_rng.h>
#include <madpost/madpost_vcd.h>

// A coverage build writes its data at the end of a run (cov_write below).
#if VM_COVERAGE
#include "verilated.h"
#include "verilated_cov.h"
#else
class VerilatedContext;
#endif

namespace lockstep {

enum Dir { kIn, kOut, kReg };

struct Sig {
  std::string name;  // RTL name: x_i, x_o or x_q
  uint32_t width;
  Dir dir;
};

// Usage errors of a testbench binary: a message and exit code 2.
[[noreturn]] inline void usage_error(const char *prog, const std::string &msg) {
  std::fprintf(stderr, "%s: %s\n(try --help)\n", prog, msg.c_str());
  std::exit(2);
}

// One cycle is 10 time units (ns): inputs change at 10n, the clock rises at 10n+5.
constexpr uint64_t kPeriod = 10;

// A signal's name in the VCDs and the GTKWave file: element k of a packed per-port vector is
// printed x_q[k] in mismatch lines and written x_q(k) in waves (as Verilator names array
// elements), since a VCD reader takes "[k]" for a bit select.
inline std::string vcd_name(const std::string &n) {
  std::string v = n;
  for (char &c : v) {
    if (c == '[') c = '(';
    if (c == ']') c = ')';
  }
  return v;
}

struct Instance {
  std::string scope;  // e.g. "a"
  const std::vector<Sig> *sigs;
  std::vector<uint64_t> rtl, model;  // values of this cycle, in sigs order
  std::deque<std::vector<uint64_t>> hist;  // inputs of recent cycles
  uint32_t vcd_rtl_base = 0, vcd_model_base = 0;

  void init(const std::string &sc, const std::vector<Sig> *sg) {
    scope = sc;
    sigs = sg;
    rtl.assign(sg->size(), 0);
    model.assign(sg->size(), 0);
  }
};

// The Verilated top's reset (asynchronous, active low) and one clock edge. rst_ni goes high first:
// a Verilated input starts at 0, and without a falling edge a register whose reset value is not 0
// would keep its initial 0.
template <class V>
void rtl_reset(V *rtl) {
  rtl->clk_i = 0;
  rtl->rst_ni = 1;
  rtl->eval();
  rtl->rst_ni = 0;
  rtl->eval();
  rtl->rst_ni = 1;
  rtl->eval();
}
// Resets of a block in the middle of a run, RTL and C model on the same cycle, drawn from a random
// stream of their own so the run's stimulus is the same draw for draw. rst_ni falls between two
// clock edges (the asynchronous branch runs at once) and stays low over 0-2 more rising edges,
// after each of which the C model is put back to its reset state; the next compare checks every
// register against its reset value. Usage per cycle: `if (r.start(rtl)) model_reset();` before
// the inputs, `if (r.after_clock(rtl)) model_reset();` after both sides clocked.
struct MidReset {
  madpost_rng_t g{};
  uint32_t odds = 0;  // one reset in `odds` cycles on average (0: never)
  uint32_t hold = 0;  // rising edges the current reset is still held over
  uint64_t count = 0;

  void init(uint64_t seed, uint32_t one_in) {
    madpost_rng_seed(&g, seed, 0x7e5e7u);
    odds = one_in;
  }
  bool held() const { return hold != 0; }
  template <class V>
  bool start(V *rtl) {
    if (!odds || hold || !madpost_rng_chance(&g, 1, odds)) return false;
    force(rtl, madpost_rng_below(&g, 3));
    return true;
  }
  template <class V>
  void force(V *rtl, uint32_t edges) {
    rtl->clk_i = 0;
    rtl->rst_ni = 0;
    rtl->eval();
    hold = edges;
    if (!hold) release(rtl);
    count++;
  }
  template <class V>
  bool after_clock(V *rtl) {
    if (!hold) return false;
    if (--hold == 0) release(rtl);
    return true;
  }

 private:
  template <class V>
  static void release(V *rtl) {
    rtl->rst_ni = 1;
    rtl->eval();
  }
};

template <class V>
void rtl_clock(V *rtl) {
  rtl->clk_i = 1;
  rtl->eval();
  rtl->clk_i = 0;
  rtl->eval();
}

class Harness {
 public:
  Harness(std::string blk, uint64_t seed, std::string test) : blk_(blk), seed_(seed), test_(test) {}

  void add(Instance *in) { inst_.push_back(in); }
  // Where the GTKWave view opens (ns); zoom -9 shows about 80 cycles.
  void set_view_start(uint64_t t) { view_start_ = t; }
  // The mismatch report's input history lists only the inputs that are not 0 in its first cycle,
  // then those that changed (for blocks with hundreds of input signals).
  void set_sparse_history(bool on) { sparse_hist_ = on; }

  // Opens waves/<blk>_<test>_s<seed>.rtl.vcd and .model.vcd with identical declarations.
  int open_waves(const std::string &dir) {
    std::string base = dir + "/" + blk_ + "_" + test_ + "_s" + std::to_string(seed_);
    if (open_one(&vrtl_, base + ".rtl.vcd", true) || open_one(&vmodel_, base + ".model.vcd", false)) {
      std::fprintf(stderr, "%s: cannot write waves under %s/\n", blk_.c_str(), dir.c_str());
      return -1;
    }
    waves_ = true;
    write_gtkw(base + ".gtkw");
    std::fprintf(stderr, "%s: writing %s.{rtl,model}.vcd and %s.gtkw\n", blk_.c_str(),
                 base.c_str(), base.c_str());
    return 0;
  }

  // A GTKWave save file that fits both dumps (same names): twinwave shows them one above the other.
  void write_gtkw(const std::string &path) {
    FILE *f = std::fopen(path.c_str(), "w");
    if (!f) return;
    std::fprintf(f, "[timestart] %" PRIu64 "\n*-9.000000 %" PRIu64
                    " -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n",
                 view_start_, view_start_);
    std::fprintf(f, "@28\n%s_tb.clk_i\n", blk_.c_str());
    for (Instance *in : inst_) {
      std::fprintf(f, "-%s\n", in->scope.c_str());
      for (const Sig &s : *in->sigs) {
        const std::string n = vcd_name(s.name);
        if (s.width == 1)
          std::fprintf(f, "@28\n%s_tb.%s.%s\n", blk_.c_str(), in->scope.c_str(), n.c_str());
        else
          std::fprintf(f, "@22\n%s_tb.%s.%s[%u:0]\n", blk_.c_str(), in->scope.c_str(),
                       n.c_str(), s.width - 1);
      }
    }
    std::fclose(f);
  }

  // Compares outputs and registers of every instance for this cycle; dumps waves. Returns the
  // number of differing signals (0 = match).
  int check(uint64_t cycle) {
    if (waves_) dump(cycle);
    int bad = 0;
    for (Instance *in : inst_) {
      const std::vector<Sig> &s = *in->sigs;
      for (size_t i = 0; i < s.size(); i++) {
        if (s[i].dir == kIn || in->rtl[i] == in->model[i]) continue;
        const int hex = (int)((s[i].width + 3) / 4);
        std::printf("LOCKSTEP MISMATCH blk=%s cycle=%" PRIu64 " sig=%s.%s rtl=0x%0*" PRIx64
                    " model=0x%0*" PRIx64 "\n",
                    blk_.c_str(), cycle, in->scope.c_str(), s[i].name.c_str(), hex, in->rtl[i], hex,
                    in->model[i]);
        bad++;
      }
    }
    for (Instance *in : inst_) {
      std::vector<uint64_t> v;
      const std::vector<Sig> &s = *in->sigs;
      for (size_t i = 0; i < s.size(); i++)
        if (s[i].dir == kIn) v.push_back(in->model[i]);
      in->hist.push_back(v);
      if (in->hist.size() > kHist) in->hist.pop_front();
    }
    if (bad) report_history(cycle);
    return bad;
  }

  void flush() {
    if (!waves_) return;
    madpost_vcd_flush(&vrtl_);
    madpost_vcd_flush(&vmodel_);
  }
  void close() {
    if (!waves_) return;
    madpost_vcd_close(&vrtl_);
    madpost_vcd_close(&vmodel_);
    waves_ = false;
  }

 private:
  static constexpr size_t kHist = 16;

  int open_one(madpost_vcd_t *v, const std::string &path, bool rtl) {
    if (madpost_vcd_open(v, path.c_str(), "1ns")) return -1;
    madpost_vcd_scope(v, (blk_ + "_tb").c_str());
    madpost_vcd_wire(v, "clk_i", 1);  // handle 0
    for (Instance *in : inst_) {
      madpost_vcd_scope(v, in->scope.c_str());
      uint32_t base = 0;
      for (size_t i = 0; i < in->sigs->size(); i++) {
        uint32_t h =
            madpost_vcd_wire(v, vcd_name((*in->sigs)[i].name).c_str(), (*in->sigs)[i].width);
        if (i == 0) base = h;
      }
      (rtl ? in->vcd_rtl_base : in->vcd_model_base) = base;
      madpost_vcd_upscope(v);
    }
    madpost_vcd_upscope(v);
    madpost_vcd_enddefs(v);
    return 0;
  }

  void dump(uint64_t cycle) {
    for (int side = 0; side < 2; side++) {
      madpost_vcd_t *v = side ? &vmodel_ : &vrtl_;
      madpost_vcd_time(v, cycle * kPeriod);
      madpost_vcd_val(v, 0, 0);
      for (Instance *in : inst_) {
        const std::vector<uint64_t> &val = side ? in->model : in->rtl;
        uint32_t base = side ? in->vcd_model_base : in->vcd_rtl_base;
        for (size_t i = 0; i < val.size(); i++) madpost_vcd_val(v, base + (uint32_t)i, val[i]);
      }
      madpost_vcd_time(v, cycle * kPeriod + kPeriod / 2);
      madpost_vcd_val(v, 0, 1);
    }
  }

  void report_history(uint64_t cycle) {
    std::printf("LOCKSTEP INPUTS blk=%s the last %zu cycles up to cycle %" PRIu64 " (oldest first):\n",
                blk_.c_str(), kHist, cycle);
    for (Instance *in : inst_) {
      const std::vector<Sig> &s = *in->sigs;
      size_t n = in->hist.size();
      for (size_t k = 0; k < n; k++) {
        std::printf("  %s cycle=%" PRIu64, in->scope.c_str(), cycle + 1 - n + k);
        size_t j = 0;
        for (size_t i = 0; i < s.size(); i++) {
          if (s[i].dir != kIn) continue;
          const uint64_t v = in->hist[k][j];
          const bool show = !sparse_hist_ || (k == 0 ? v != 0 : v != in->hist[k - 1][j]);
          j++;
          if (show) std::printf(" %s=%" PRIx64, s[i].name.c_str(), v);
        }
        std::printf(!sparse_hist_ ? "\n" : k == 0 ? " (others 0)\n" : " (others as before)\n");
      }
    }
    flush();
  }

  std::string blk_;
  uint64_t seed_;
  std::string test_;
  std::vector<Instance *> inst_;
  madpost_vcd_t vrtl_{}, vmodel_{};
  bool waves_ = false, sparse_hist_ = false;
  uint64_t view_start_ = 0;
};

// Coverage builds (verilator --coverage, `make coverage`) write the run's coverage at the end of a
// successful run, into the file named by +cov_dat=FILE or $COV_DAT, so that every run of a block
// keeps its own .dat for the merge. A failed run exits earlier and writes nothing: its coverage
// is not counted.
inline void cov_write(VerilatedContext *ctx) {
#if VM_COVERAGE
  const char *f = ctx->commandArgsPlusMatch("cov_dat=");
  std::string name = (f && *f) ? std::string(f + 9) : std::string();
  if (name.empty() && std::getenv("COV_DAT")) name = std::getenv("COV_DAT");
  if (name.empty()) {
    std::fprintf(stderr, "coverage build: no +cov_dat=FILE or COV_DAT, coverage not written\n");
    return;
  }
  ctx->coveragep()->write(name.c_str());
#else
  (void)ctx;
#endif
}

}  // namespace lockstep

#endif
