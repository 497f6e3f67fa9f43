// Block-independent lockstep machinery: the signal table's type (tb/common/sig.h; tb/common/ports.h
// fills it from a port list), per-cycle compare, mismatch report with input history, paired VCDs
// (same writer, scopes, names and time base for RTL and model), and the merged wave of both sides
// (tb/common/merged_wave.h), written with --waves or, from a ring of the last cycles, by a failure.
#ifndef MADPOST_LOCKSTEP_H
#define MADPOST_LOCKSTEP_H

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <unistd.h>
#include <string>
#include <vector>

#include <madpost/madpost_rng.h>
#include <madpost/madpost_vcd.h>

#include "common/merged_wave.h"
#include "common/sig.h"

// A coverage build writes its data at the end of a run (cov_write below).
#if VM_COVERAGE
#include "verilated.h"
#include "verilated_cov.h"
#else
class VerilatedContext;
#endif

namespace lockstep {

// Usage errors of a testbench binary: a message and exit code 2.
[[noreturn]] inline void usage_error(const char *prog, const std::string &msg) {
  std::fprintf(stderr, "%s: %s\n(try --help)\n", prog, msg.c_str());
  std::exit(2);
}

// One cycle is 10 time units (ns): inputs change at 10n, the clock rises at 10n+5.
constexpr uint64_t kPeriod = 10;

struct Instance {
  std::string scope;  // e.g. "a"
  const std::vector<Sig> *sigs;
  std::vector<uint64_t> rtl, model;  // values of this cycle, in sigs order
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
  Harness(std::string blk, uint64_t seed, std::string test)
      : blk_(blk), seed_(seed), test_(test), merged_(blk, kPeriod) {}

  void add(Instance *in) { inst_.push_back(in); }
  // Where the GTKWave view opens (ns); zoom -9 shows about 80 cycles.
  void set_view_start(uint64_t t) { view_start_ = t; }
  // The mismatch report's input history lists only the inputs that are not 0 in its first cycle,
  // then those that changed (for blocks with hundreds of input signals).
  void set_sparse_history(bool on) { sparse_hist_ = on; }
  // Where and in which format the merged wave goes (--wave-dir, --wave-format), with --waves or
  // after a failure.
  void set_wave_out(const std::string &dir, wave::Format f) { wave_dir_ = dir, wave_fmt_ = f; }

  // Opens waves/<blk>_<test>_s<seed>.rtl.vcd and .model.vcd with identical declarations (for
  // twinwave and the .gtkw that fits both), and the merged wave .merged.vcd (or .fst) with its
  // .merged.gtkw.
  int open_waves(const std::string &dir) {
    wave_dir_ = dir;
    std::string base = dir + "/" + blk_ + "_" + test_ + "_s" + std::to_string(seed_);
    layout();
    merged_path_ = base + ".merged" + wave::suffix(wave_fmt_);
    if (open_one(&vrtl_, base + ".rtl.vcd", true) || open_one(&vmodel_, base + ".model.vcd", false) ||
        merged_.open(merged_path_, wave_fmt_, parts_, row_)) {
      std::fprintf(stderr, "%s: cannot write waves under %s/\n", blk_.c_str(), dir.c_str());
      return -1;
    }
    waves_ = true;
    write_gtkw(base + ".gtkw");
    merged_.write_gtkw(base + ".merged.gtkw", abs_path(merged_path_), wave::kNoCycle, view_start_);
    std::fprintf(stderr, "%s: writing %s.{rtl,model}.vcd and %s.gtkw, merged: %s and %s.merged.gtkw\n",
                 blk_.c_str(), base.c_str(), base.c_str(), merged_path_.c_str(), base.c_str());
    return 0;
  }

  // Only the merged wave of the whole run (no paired VCDs): for a demonstration that writes its
  // own VCD of the pins (the SystemC DS-Link's sc_trace, docs/systemc.md).
  int open_merged(const std::string &dir) {
    wave_dir_ = dir;
    const std::string base = dir + "/" + blk_ + "_" + test_ + "_s" + std::to_string(seed_);
    layout();
    merged_path_ = base + ".merged" + wave::suffix(wave_fmt_);
    if (merged_.open(merged_path_, wave_fmt_, parts_, row_)) {
      std::fprintf(stderr, "%s: cannot write %s\n", blk_.c_str(), merged_path_.c_str());
      return -1;
    }
    waves_ = true, paired_ = false;
    merged_.write_gtkw(base + ".merged.gtkw", abs_path(merged_path_), wave::kNoCycle, view_start_);
    std::fprintf(stderr, "%s: writing the merged wave %s and %s.merged.gtkw\n", blk_.c_str(),
                 merged_path_.c_str(), base.c_str());
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

  // Compares outputs and registers of every instance for this cycle; keeps the cycle in the ring
  // (the last depth_ cycles of both sides); dumps waves. Returns the number of differing signals
  // (0 = match).
  int check(uint64_t cycle) {
    uint64_t *row = keep(cycle);
    if (waves_) dump(cycle, row);
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
    if (bad) report_history();
    return bad;
  }

  void flush() {
    if (!waves_) return;
    if (paired_) madpost_vcd_flush(&vrtl_), madpost_vcd_flush(&vmodel_);
    merged_.flush();
  }
  void close() {
    if (!waves_) return;
    if (paired_) madpost_vcd_close(&vrtl_), madpost_vcd_close(&vmodel_);
    if (merged_.close()) std::fprintf(stderr, "%s: writing %s failed\n", blk_.c_str(), merged_path_.c_str());
    waves_ = false;
  }

  // A failed run's merged wave, marker at the first divergence (or at `cycle`, a failure with no
  // mismatch): with --waves the file being written, else the ring's last cycles into
  // <wave-dir>/<blk>_<test>_s<seed>.merged.vcd (or .fst). Prints where it is.
  void fail_waves(uint64_t cycle) {
    const std::string base = wave_dir_ + "/" + blk_ + "_" + test_ + "_s" + std::to_string(seed_);
    const bool streamed = !merged_path_.empty();
    if (streamed) {
      flush();
      merged_.close();
    } else if (!ring_n_ || write_ring(base + ".merged" + wave::suffix(wave_fmt_))) {
      return;
    }
    const std::string path = streamed ? merged_path_ : base + ".merged" + wave::suffix(wave_fmt_);
    const std::string kept = "the last " + std::to_string(ring_n_) + (ring_n_ == 1 ? " cycle" : " cycles");
    const uint64_t mark = merged_.first_bad() != wave::kNoCycle ? merged_.first_bad() : cycle;
    const std::string gtkw = base + ".merged.gtkw", tmp = gtkw + ".tmp" + std::to_string((unsigned long)getpid());
    if (merged_.write_gtkw(tmp, abs_path(path), mark, view_start_) || std::rename(tmp.c_str(), gtkw.c_str())) {
      std::remove(tmp.c_str());
      return;
    }
    std::printf("%s: merged wave (rtl, model, mismatch; %s, first divergence %s%" PRIu64
                "): %s, view: gtkwave %s.merged.gtkw\n",
                blk_.c_str(), streamed ? "the whole run" : kept.c_str(),
                merged_.first_bad() != wave::kNoCycle ? "at cycle " : "none, marker at the failure, cycle ",
                mark, path.c_str(), base.c_str());
  }

 private:
  static constexpr size_t kHist = 16;   // input history of a mismatch report, in cycles
  // Cycles a failure's merged wave holds without --waves: kRing, fewer for a big table, so that
  // the ring stays within kRingBytes (in cache: copying each cycle into a ring that is not would
  // cost the 4x4 mesh more than the compare), but never fewer than the input history's kHist.
  static constexpr size_t kRing = 128, kRingBytes = (size_t)4 << 20;

  // The flat row: every instance's values one after another; a ring slot holds the RTL's row,
  // then the model's.
  void layout() {
    if (!parts_.empty()) return;
    row_ = 0;
    for (Instance *in : inst_) {
      parts_.push_back({in->scope, in->sigs, row_});
      row_ += in->sigs->size();
    }
    depth_ = std::max(kHist, std::min(kRing, kRingBytes / (2 * sizeof(uint64_t) * (row_ ? row_ : 1))));
    ring_.assign(depth_ * 2 * row_, 0);
    ring_cyc_.assign(depth_, 0);
  }
  uint64_t *keep(uint64_t cycle) {
    layout();
    const size_t slot = (ring_head_ + ring_n_) % depth_;
    if (ring_n_ < depth_) ring_n_++;
    else ring_head_ = (ring_head_ + 1) % depth_;
    uint64_t *row = &ring_[slot * 2 * row_];
    for (size_t j = 0; j < inst_.size(); j++) {
      const Instance *in = inst_[j];
      std::copy(in->rtl.begin(), in->rtl.end(), row + parts_[j].off);
      std::copy(in->model.begin(), in->model.end(), row + row_ + parts_[j].off);
    }
    ring_cyc_[slot] = cycle;
    return row;
  }
  // The ring's k-th kept cycle, oldest first.
  size_t ring_slot(size_t k) const { return (ring_head_ + k) % depth_; }

  // The ring into a merged wave at path (written beside it, then renamed, as is its .gtkw: two
  // runs of the same name at once, as in make test's mutant runs, never leave a half-written file).
  int write_ring(const std::string &path) {
    const std::string tmp = path + ".tmp" + std::to_string((unsigned long)getpid());
    if (merged_.open(tmp, wave_fmt_, parts_, row_)) {
      std::printf("%s: cannot write the merged wave %s\n", blk_.c_str(), path.c_str());
      return -1;
    }
    for (size_t k = 0; k < ring_n_; k++) {
      const uint64_t *row = &ring_[ring_slot(k) * 2 * row_];
      merged_.emit(ring_cyc_[ring_slot(k)], row, row + row_);
    }
    if (merged_.close() || std::rename(tmp.c_str(), path.c_str())) {
      std::printf("%s: writing the merged wave %s failed\n", blk_.c_str(), path.c_str());
      std::remove(tmp.c_str());
      return -1;
    }
    return 0;
  }
  static std::string abs_path(const std::string &p) {
    if (!p.empty() && p[0] == '/') return p;
    char buf[4096];
    return getcwd(buf, sizeof buf) ? std::string(buf) + "/" + p : p;
  }

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

  void dump(uint64_t cycle, const uint64_t *row) {
    for (int side = 0; side < 2 && paired_; side++) {
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
    merged_.emit(cycle, row, row + row_);
  }

  // The inputs of the last kHist cycles, from the ring (an input is the same on both sides).
  void report_history() {
    const size_t n = ring_n_ < kHist ? ring_n_ : kHist, first = ring_n_ - n;
    std::printf("LOCKSTEP INPUTS blk=%s the last %zu cycles up to cycle %" PRIu64 " (oldest first):\n",
                blk_.c_str(), kHist, ring_cyc_[ring_slot(ring_n_ - 1)]);
    for (size_t j = 0; j < inst_.size(); j++) {
      const std::vector<Sig> &s = *inst_[j]->sigs;
      for (size_t k = 0; k < n; k++) {
        const size_t slot = ring_slot(first + k);
        const uint64_t *row = &ring_[slot * 2 * row_ + row_ + parts_[j].off];
        const uint64_t *prev = k ? &ring_[ring_slot(first + k - 1) * 2 * row_ + row_ + parts_[j].off] : row;
        std::printf("  %s cycle=%" PRIu64, inst_[j]->scope.c_str(), ring_cyc_[slot]);
        for (size_t i = 0; i < s.size(); i++) {
          if (s[i].dir != kIn) continue;
          const bool show = !sparse_hist_ || (k == 0 ? row[i] != 0 : row[i] != prev[i]);
          if (show) std::printf(" %s=%" PRIx64, s[i].name.c_str(), row[i]);
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
  bool waves_ = false, paired_ = true, sparse_hist_ = false;
  uint64_t view_start_ = 0;
  // the ring of the last depth_ cycles: rows of row_ values per side
  std::vector<wave::Part> parts_;
  size_t row_ = 0, depth_ = kRing, ring_head_ = 0, ring_n_ = 0;
  std::vector<uint64_t> ring_, ring_cyc_;
  // the merged wave: written with --waves (merged_path_ set), or from the ring after a failure
  std::string wave_dir_ = "waves", merged_path_;
  wave::Format wave_fmt_ = wave::kVcd;
  wave::Merged merged_;
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
