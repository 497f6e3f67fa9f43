// The end of a C104 run: sources off and every output ready until the switch, its links and
// the peers are empty (quiet for 50 cycles), or a report of what is still held.
#ifndef MADPOST_TB_C104_DRAIN_H
#define MADPOST_TB_C104_DRAIN_H

#include <string>

#include "c104/tb.h"

namespace {

using namespace c104tb;

bool Tb::quiet() const {
  for (uint32_t p = 0; p < kN; p++) {
    if (st_.r.sl_st[p] != C104_IDLE) return false;
    // a fault can leave a packet open at a peer's receiver (garbage, and nothing after it)
    if (!asm_[p].empty() && !(asm_t_[p] < tolerate_until_ && !tokp(p))) return false;
    if (tokp(p)) {
      if (!tp_[p].rxq.empty()) return false;
    } else {
      const dslink_regs_t &l = st_.link[p].r;
      if (link_en_[p] && (l.txf_cnt || l.rxf_cnt || l.tx_open || l.fsm_state != DSLINK_ST_RUN))
        return false;
      if (bp_[p].peer && (!bp_[p].txq.empty() || bp_[p].st.r.txf_cnt || bp_[p].st.r.rxf_cnt))
        return false;
    }
  }
  return st_.r.out_busy == 0 && cfgq_.empty();
}

// Sources off, every output ready: runs until the switch and every link are empty.
void Tb::drain(uint64_t limit) {
  for (uint32_t p = 0; p < kN; p++) gen_[p].on = false, rdy_[p] = Ready{}, bp_[p].valid_pct = 100;
  wild_ = false;
  ready_fn_ = nullptr;
  settle(limit, "the switch", [this] { cycle(); }, [this] { return quiet(); }, [this] { return pending_str(); });
}

std::string Tb::pending_str() const {
  std::string s;
  for (uint32_t p = 0; p < kN; p++) {
    if (st_.r.sl_st[p] != C104_IDLE)
      s += "; slice " + std::to_string(p) + " in " + c104_sl_state_name(st_.r.sl_st[p]) +
           (st_.r.sl_st[p] == C104_WAIT ? " for leader " + std::to_string(st_.r.sl_grp[p])
            : st_.r.sl_st[p] == C104_EMIT || st_.r.sl_st[p] == C104_FWD
                ? " on output " + std::to_string(st_.r.sl_port[p]) : std::string());
    if (tokp(p) && !tp_[p].rxq.empty())
      s += "; input " + std::to_string(p) + " holds " + std::to_string(tp_[p].rxq.size()) + " tokens";
    if (!asm_[p].empty()) s += "; output " + std::to_string(p) + " has sent part of a packet";
    if (!tokp(p) && link_en_[p]) {
      const dslink_regs_t &l = st_.link[p].r;
      if (l.fsm_state != DSLINK_ST_RUN || l.txf_cnt || l.rxf_cnt || l.tx_open)
        s += "; link " + std::to_string(p) + " " + dslink_state_name(l.fsm_state) + " txf " +
             std::to_string(l.txf_cnt) + " rxf " + std::to_string(l.rxf_cnt) + " tx_open " +
             std::to_string(l.tx_open);
      if (bp_[p].peer && (!bp_[p].txq.empty() || bp_[p].st.r.txf_cnt || bp_[p].st.r.rxf_cnt))
        s += "; peer " + std::to_string(p) + " " + dslink_state_name(bp_[p].st.r.fsm_state) +
             " queue " + std::to_string(bp_[p].txq.size()) + " txf " +
             std::to_string(bp_[p].st.r.txf_cnt) + " rxf " + std::to_string(bp_[p].st.r.rxf_cnt);
    }
  }
  if (st_.r.out_busy) s += "; out_busy " + std::to_string(st_.r.out_busy);
  return s;
}

}  // namespace

#endif
