// The merged wave of a lockstep run: one VCD or FST file with both sides, <blk>_tb.rtl.<inst>.*
// and <blk>_tb.model.<inst>.*, and <blk>_tb.mismatch.<inst>.* (a bit per compared output or
// register, high on the cycles the two sides differ, and mismatch.any, their OR), with a GTKWave
// save file that puts each model signal under its RTL twin, the mismatch bits on top and the
// marker at the first divergence. Fed one cycle at a time from the harness's flat rows.
#ifndef MADPOST_TB_COMMON_MERGED_WAVE_H
#define MADPOST_TB_COMMON_MERGED_WAVE_H

#include <cinttypes>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "sig.h"
#include "wave_out.h"

namespace wave {

// One instance of the harness: its scope, its table, where its values start in a flat row.
struct Part {
  std::string scope;
  const std::vector<lockstep::Sig> *sigs;
  size_t off;
};

constexpr uint64_t kNoCycle = UINT64_MAX;

class Merged {
 public:
  // period: time units a cycle (values change at c * period, the clock rises half a period on).
  Merged(std::string blk, uint64_t period) : blk_(std::move(blk)), period_(period) {}

  // Opens path and declares every signal of parts (n values a row per side).
  int open(const std::string &path, Format f, const std::vector<Part> &parts, size_t n) {
    if (out_.open(path, f)) return -1;
    parts_ = parts;
    first_bad_ = last_ = kNoCycle;
    rose_.assign(n, 0);
    declare(n);
    return 0;
  }
  bool is_open() const { return out_.is_open(); }

  // The values of cycle c, in row order: rtl[i] and model[i] for the part entries.
  void emit(uint64_t c, const uint64_t *rtl, const uint64_t *model) {
    out_.time(c * period_);
    out_.val(0, 0);
    bool any = false;
    for (const Part &p : parts_) {
      for (size_t i = 0; i < p.sigs->size(); i++) {
        const size_t k = p.off + i;
        out_.val(h_rtl_[k], rtl[k]);
        out_.val(h_model_[k], model[k]);
        if ((*p.sigs)[i].dir == lockstep::kIn) continue;
        const bool bad = rtl[k] != model[k];
        out_.val(h_bad_[k], bad);
        if (bad) any = true, rose_[k] = 1;
      }
    }
    out_.val(h_any_, any);
    if (any && first_bad_ == kNoCycle) first_bad_ = c;
    out_.time(c * period_ + period_ / 2);
    out_.val(0, 1);
    last_ = c;
  }
  void flush() { out_.flush(); }
  // Ends the last cycle (the clock falls at its end) and closes the file: 0, or -1 on a write error.
  int close() {
    if (!out_.is_open()) return 0;
    if (last_ != kNoCycle) {
      out_.time((last_ + 1) * period_);
      out_.val(0, 0);
    }
    return out_.close();
  }
  uint64_t first_bad() const { return first_bad_; }

  // The save file for dump (its path as written into [dumpfile]): the mismatch bits on top (any,
  // then those that rose, then the rest), then per instance its inputs and each output and
  // register of the RTL with the model's beneath. The marker at cycle `mark` (kNoCycle: none);
  // the view opens 20 cycles before it, or at view_start (time units) without one.
  int write_gtkw(const std::string &path, const std::string &dump, uint64_t mark,
                 uint64_t view_start) const {
    FILE *f = std::fopen(path.c_str(), "w");
    if (!f) return -1;
    const long long m = mark == kNoCycle ? -1 : (long long)(mark * period_);
    if (m >= 0) view_start = mark > 20 ? (mark - 20) * period_ : 0;
    std::fprintf(f, "[dumpfile] \"%s\"\n[timestart] %" PRIu64 "\n*-9.000000 %lld %lld", dump.c_str(),
                 view_start, m, m);
    for (int k = 1; k < 26; k++) std::fprintf(f, " -1");
    std::fprintf(f, "\n");
    const std::string top = blk_ + "_tb.";
    comment(f, "mismatch (rtl != model)");
    std::fprintf(f, "[color] 1\n@28\n%smismatch.any\n", top.c_str());
    for (int pass = 0; pass < 2; pass++)
      for (const Part &p : parts_)
        for (size_t i = 0; i < p.sigs->size(); i++)
          if ((*p.sigs)[i].dir != lockstep::kIn && rose_[p.off + i] == (pass == 0))
            std::fprintf(f, "[color] 1\n@28\n%smismatch.%s.%s\n", top.c_str(), p.scope.c_str(),
                         lockstep::vcd_name((*p.sigs)[i].name).c_str());
    std::fprintf(f, "[color] 0\n@28\n%sclk_i\n", top.c_str());
    for (const Part &p : parts_) {
      comment(f, p.scope + ": inputs (the same on both sides)");
      for (const lockstep::Sig &s : *p.sigs)
        if (s.dir == lockstep::kIn) trace(f, top + "rtl." + p.scope, s, 0);
      comment(f, p.scope + ": outputs and registers, rtl then model");
      for (const lockstep::Sig &s : *p.sigs) {
        if (s.dir == lockstep::kIn) continue;
        trace(f, top + "rtl." + p.scope, s, 0);
        trace(f, top + "model." + p.scope, s, 2);
      }
    }
    return std::fclose(f) ? -1 : 0;
  }

 private:
  void declare(size_t n) {
    h_rtl_.assign(n, 0), h_model_.assign(n, 0), h_bad_.assign(n, 0);
    out_.scope(blk_ + "_tb");
    out_.wire("clk_i", 1);  // handle 0
    for (int side = 0; side < 2; side++) {
      out_.scope(side ? "model" : "rtl");
      for (const Part &p : parts_) {
        out_.scope(p.scope);
        for (size_t i = 0; i < p.sigs->size(); i++) {
          const lockstep::Sig &s = (*p.sigs)[i];
          (side ? h_model_ : h_rtl_)[p.off + i] = out_.wire(lockstep::vcd_name(s.name), s.width);
        }
        out_.upscope();
      }
      out_.upscope();
    }
    out_.scope("mismatch");
    h_any_ = out_.wire("any", 1);
    for (const Part &p : parts_) {
      out_.scope(p.scope);
      for (size_t i = 0; i < p.sigs->size(); i++)
        if ((*p.sigs)[i].dir != lockstep::kIn)
          h_bad_[p.off + i] = out_.wire(lockstep::vcd_name((*p.sigs)[i].name), 1);
      out_.upscope();
    }
    out_.upscope();
    out_.upscope();
    out_.enddefs();
  }
  static void comment(FILE *f, const std::string &text) { std::fprintf(f, "@200\n-%s\n", text.c_str()); }
  // One trace line: binary for a bit, hex for a vector; GTKWave color 0 (default), 1 red, 2 orange.
  static void trace(FILE *f, const std::string &scope, const lockstep::Sig &s, int color) {
    const std::string n = lockstep::vcd_name(s.name);
    std::fprintf(f, "[color] %d\n", color);
    if (s.width == 1)
      std::fprintf(f, "@28\n%s.%s\n", scope.c_str(), n.c_str());
    else
      std::fprintf(f, "@22\n%s.%s[%u:0]\n", scope.c_str(), n.c_str(), s.width - 1);
  }

  std::string blk_;
  uint64_t period_;
  Out out_;
  std::vector<Part> parts_;
  std::vector<uint32_t> h_rtl_, h_model_, h_bad_;
  uint32_t h_any_ = 0;
  std::vector<uint8_t> rose_;
  uint64_t first_bad_ = kNoCycle, last_ = kNoCycle;
};

}  // namespace wave

#endif
