// One wave file, VCD or FST, behind one interface: scopes, wires of up to 64 bits, value changes.
// The merged wave (tb/common/merged_wave.h) writes either format through it. FST uses the fstapi
// that Verilator ships (include/gtkwave/fstapi.c, compiled by the Makefile into build/fst/, never
// committed); a build without it (MADPOST_FST 0) offers VCD only.
#ifndef MADPOST_TB_COMMON_WAVE_OUT_H
#define MADPOST_TB_COMMON_WAVE_OUT_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <madpost/madpost_vcd.h>

#ifndef MADPOST_FST
#define MADPOST_FST 0
#endif
#if MADPOST_FST
#include "gtkwave/fstapi.h"
#endif

namespace wave {

enum Format { kVcd, kFst };

inline const char *suffix(Format f) { return f == kFst ? ".fst" : ".vcd"; }
inline bool have_fst() { return MADPOST_FST != 0; }

class Out {
 public:
  Out() = default;
  Out(const Out &) = delete;
  Out &operator=(const Out &) = delete;
  ~Out() { close(); }

  // Opens path (time unit 1 ns); 0, or -1 if it cannot be written or FST is not built in.
  int open(const std::string &path, Format f) {
    fmt_ = f;
    if (f == kVcd) {
      if (madpost_vcd_open(&vcd_, path.c_str(), "1ns")) return -1;
      open_ = true;
      return 0;
    }
#if MADPOST_FST
    // fstapi opens its file lazily and says nothing on failure: try the path first.
    FILE *t = std::fopen(path.c_str(), "wb");
    if (!t) return -1;
    std::fclose(t);
    fst_ = fstWriterCreate(path.c_str(), 1);
    if (!fst_) return -1;
    fstWriterSetTimescaleFromString(fst_, "1ns");
    fstWriterSetPackType(fst_, FST_WR_PT_LZ4);
    open_ = true;
    return 0;
#else
    return -1;
#endif
  }

  void scope(const std::string &name) {
    if (fmt_ == kVcd) madpost_vcd_scope(&vcd_, name.c_str());
#if MADPOST_FST
    else fstWriterSetScope(fst_, FST_ST_VCD_MODULE, name.c_str(), nullptr);
#endif
  }
  void upscope() {
    if (fmt_ == kVcd) madpost_vcd_upscope(&vcd_);
#if MADPOST_FST
    else fstWriterSetUpscope(fst_);
#endif
  }
  // Declares a wire; returns its handle for val(). An FST vector is named "n [w-1:0]", as
  // Verilator's own FST writer and a VCD reader name it, so one .gtkw fits both formats.
  uint32_t wire(const std::string &name, uint32_t width) {
    const uint32_t h = (uint32_t)hs_.size();
    if (fmt_ == kVcd) {
      hs_.push_back(madpost_vcd_wire(&vcd_, name.c_str(), width));
    } else {
#if MADPOST_FST
      const std::string n = width > 1 ? name + " [" + std::to_string(width - 1) + ":0]" : name;
      hs_.push_back(fstWriterCreateVar(fst_, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, width, n.c_str(), 0));
#endif
    }
    width_.push_back(width);
    last_.push_back(0);
    dumped_.push_back(0);
    return h;
  }
  void enddefs() {
    if (fmt_ == kVcd) madpost_vcd_enddefs(&vcd_);
  }
  void time(uint64_t t) {
    if (fmt_ == kVcd) madpost_vcd_time(&vcd_, t);
#if MADPOST_FST
    else fstWriterEmitTimeChange(fst_, t);
#endif
  }
  // Writes the value if it changed since the last write (or was never written).
  void val(uint32_t h, uint64_t v) {
    if (fmt_ == kVcd) {
      madpost_vcd_val(&vcd_, hs_[h], v);
      return;
    }
#if MADPOST_FST
    if (dumped_[h] && last_[h] == v) return;
    fstWriterEmitValueChange64(fst_, hs_[h], width_[h], v);
    last_[h] = v;
    dumped_[h] = 1;
#endif
  }
  void flush() {
    if (!open_) return;
    if (fmt_ == kVcd) madpost_vcd_flush(&vcd_);
#if MADPOST_FST
    else fstWriterFlushContext(fst_);
#endif
  }
  // 0, or -1 if the file did not reach the disk whole (VCD; fstapi does not say).
  int close() {
    if (!open_) return 0;
    open_ = false;
    hs_.clear(), width_.clear(), last_.clear(), dumped_.clear();
    if (fmt_ == kVcd) return madpost_vcd_close(&vcd_);
#if MADPOST_FST
    fstWriterClose(fst_);
    fst_ = nullptr;
#endif
    return 0;
  }
  bool is_open() const { return open_; }

 private:
  Format fmt_ = kVcd;
  bool open_ = false;
  madpost_vcd_t vcd_{};
#if MADPOST_FST
  void *fst_ = nullptr;
#endif
  std::vector<uint32_t> hs_, width_;
  std::vector<uint64_t> last_;
  std::vector<uint8_t> dumped_;
};

}  // namespace wave

#endif
