// The end of a C104 network run: sources off and every sink ready until no switch, link or
// endpoint holds anything (quiet for 50 cycles), or a report of what is still held.
#ifndef MADPOST_TB_C104_NET_DRAIN_H
#define MADPOST_TB_C104_NET_DRAIN_H

#include <cstdint>
#include <string>
#include <vector>

#include "c104_net/net.h"

namespace {

using namespace c104tb;

void Net::drain(uint64_t limit) {
  for (Ep &x : ep_) x.gen.on = false, x.rdy = Ready{};
  ready_fn_ = nullptr;
  settle(limit, "the network", [this] { cycle(); }, [this] { return quiet(); }, [this] { return pending(); });
}

bool Net::quiet() const {
  for (uint32_t s = 0; s < kSw; s++) {
    if (st_[s].r.out_busy || !cfgq_[s].empty()) return false;
    for (uint32_t p = 0; p < kN; p++) {
      if (st_[s].r.sl_st[p] != C104_IDLE) return false;
      const dslink_regs_t &l = st_[s].link[p].r;
      if (!tokp(p) && (l.txf_cnt || l.rxf_cnt || l.tx_open)) return false;
    }
  }
  for (const Ep &x : ep_) {
    if (!x.q.empty() || !x.asm_.empty()) return false;
    if (!x.tok && (x.st.r.txf_cnt || x.st.r.rxf_cnt || x.st.r.tx_open)) return false;
  }
  return true;
}

std::string Net::pending() const {
  std::string r;
  for (uint32_t s = 0; s < kSw; s++) {
    for (uint32_t p = 0; p < kN; p++) {
      const uint32_t st = st_[s].r.sl_st[p];
      if (st != C104_IDLE)
        r += "; sw" + std::to_string(s) + " slice " + std::to_string(p) + " " + c104_sl_state_name(st) +
             (st == C104_WAIT ? " for " + std::to_string(st_[s].r.sl_grp[p])
                              : " on " + std::to_string(st_[s].r.sl_port[p]));
      const dslink_regs_t &l = st_[s].link[p].r;
      if (!tokp(p) && (l.txf_cnt || l.rxf_cnt))
        r += "; sw" + std::to_string(s) + " link " + std::to_string(p) + " txf " +
             std::to_string(l.txf_cnt) + " rxf " + std::to_string(l.rxf_cnt);
    }
  }
  for (uint32_t e = 0; e < kEpN; e++)
    if (!ep_[e].q.empty()) r += "; endpoint " + epname(e) + " holds " + std::to_string(ep_[e].q.size()) + " tokens";
  return r;
}

}  // namespace

#endif
