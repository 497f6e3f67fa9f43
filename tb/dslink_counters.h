// The DS-Link's 16-bit event counters, by RTL register (below the dslink module) and C model field:
// the DS-Link bench injects values into them, the C104 bench walks its links' through their carries.
#ifndef MADPOST_TB_DSLINK_COUNTERS_H
#define MADPOST_TB_DSLINK_COUNTERS_H

#include <madpost/dslink.h>

namespace dslinktb {

struct CounterReg {
  const char *rtl;
  uint32_t dslink_regs_t::*f;
};
const CounterReg kCounters[] = {
    {"u_fsm.cnt_par_err_q", &dslink_regs_t::cnt_par_err},
    {"u_fsm.cnt_esc_err_q", &dslink_regs_t::cnt_esc_err},
    {"u_fsm.cnt_disc_err_q", &dslink_regs_t::cnt_disc_err},
    {"u_fsm.cnt_cred_err_q", &dslink_regs_t::cnt_cred_err},
    {"u_fsm.cnt_proto_err_q", &dslink_regs_t::cnt_proto_err},
    {"u_fsm.cnt_tmo_err_q", &dslink_regs_t::cnt_tmo_err},
    {"u_rx.cnt_rx_cut_q", &dslink_regs_t::cnt_rx_cut},
    {"u_tx.cnt_tx_spill_q", &dslink_regs_t::cnt_tx_spill},
};
constexpr size_t kNCounters = sizeof kCounters / sizeof kCounters[0];

}  // namespace dslinktb

#endif
