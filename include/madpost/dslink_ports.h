/* The one port list of the DS-Link link end: inputs, outputs and architectural registers.
 * It generates the C structs, the lockstep copy-in, collect, compare, VCD declarations and
 * mismatch lines (tb/common/ports.h), and `make check-ports` holds rtl/dslink.sv to it.
 * X(name, count, width), the schema of every port list (docs/architecture.md §1): count 1 here
 * (a scalar). RTL names are name_i, name_o, name_q and dbg_name_o. Order matters only for
 * printing (and for check-ports). */
#ifndef MADPOST_DSLINK_PORTS_H
#define MADPOST_DSLINK_PORTS_H

#define DSLINK_INPUTS(X) \
  X(d, 1, 1)                \
  X(s, 1, 1)                \
  X(link_en, 1, 1)          \
  X(tx_valid, 1, 1)         \
  X(tx_data, 1, 8)          \
  X(tx_kind, 1, 2)          \
  X(rx_ready, 1, 1)

#define DSLINK_OUTPUTS(X) \
  X(d, 1, 1)                 \
  X(s, 1, 1)                 \
  X(tx_ready, 1, 1)          \
  X(rx_valid, 1, 1)          \
  X(rx_data, 1, 8)           \
  X(rx_kind, 1, 2)           \
  X(link_state, 1, 3)

#define DSLINK_REGS(X)  \
  X(fsm_state, 1, 3)       \
  X(fsm_tmr, 1, 16)        \
  X(tx_credit, 1, 8)       \
  X(rx_credit, 1, 8)       \
  X(cnt_par_err, 1, 16)    \
  X(cnt_esc_err, 1, 16)    \
  X(cnt_disc_err, 1, 16)   \
  X(cnt_cred_err, 1, 16)   \
  X(cnt_proto_err, 1, 16)  \
  X(cnt_tmo_err, 1, 16)    \
  X(tx_tmr, 1, 8)          \
  X(tx_d, 1, 1)            \
  X(tx_s, 1, 1)            \
  X(tx_sr, 1, 9)           \
  X(tx_len, 1, 4)          \
  X(tx_par, 1, 1)          \
  X(tx_open, 1, 1)         \
  X(tx_spill, 1, 1)        \
  X(cnt_tx_spill, 1, 16)   \
  X(rx_x, 1, 1)            \
  X(rx_dc, 1, 8)           \
  X(rx_seen, 1, 1)         \
  X(rx_sync, 1, 1)         \
  X(rx_sr, 1, 8)           \
  X(rx_cnt, 1, 4)          \
  X(rx_pbit, 1, 1)         \
  X(rx_flag, 1, 1)         \
  X(rx_par, 1, 1)          \
  X(rx_pend_v, 1, 1)       \
  X(rx_pend_f, 1, 1)       \
  X(rx_pend_val, 1, 8)     \
  X(rx_esc, 1, 1)          \
  X(rx_open, 1, 1)         \
  X(cnt_rx_cut, 1, 16)     \
  X(txf_wptr, 1, 8)        \
  X(txf_rptr, 1, 8)        \
  X(txf_cnt, 1, 8)         \
  X(rxf_wptr, 1, 8)        \
  X(rxf_rptr, 1, 8)        \
  X(rxf_cnt, 1, 8)

/* Parameters: X(RtlName, c_field, default). */
#define DSLINK_PARAMS(X)                      \
  X(BitPeriod, bit_period, 1)                 \
  X(RxDepth, rx_depth, 32)                    \
  X(TxDepth, tx_depth, 8)                     \
  X(TxCreditMax, tx_credit_max, 32)           \
  X(DisconnectCycles, disconnect_cycles, 8)   \
  X(ResetCycles, reset_cycles, 64)            \
  X(WaitCycles, wait_cycles, 128)             \
  X(TimeoutCycles, timeout_cycles, 128)

#endif
