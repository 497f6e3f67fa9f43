/* The one port list of the DS-Link link end: inputs, outputs and architectural registers.
 * It generates the C structs, the lockstep copy/compare, VCD declarations and mismatch lines, and
 * `make check-ports` holds rtl/dslink.sv to it. X(name, width): RTL names are name_i, name_o,
 * name_q and dbg_name_o. Order matters only for printing. */
#ifndef MADPOST_DSLINK_PORTS_H
#define MADPOST_DSLINK_PORTS_H

#define DSLINK_INPUTS(X) \
  X(d, 1)                \
  X(s, 1)                \
  X(link_en, 1)          \
  X(tx_valid, 1)         \
  X(tx_data, 8)          \
  X(tx_kind, 2)          \
  X(rx_ready, 1)

#define DSLINK_OUTPUTS(X) \
  X(d, 1)                 \
  X(s, 1)                 \
  X(tx_ready, 1)          \
  X(rx_valid, 1)          \
  X(rx_data, 8)           \
  X(rx_kind, 2)           \
  X(link_state, 3)

#define DSLINK_REGS(X)  \
  X(fsm_state, 3)       \
  X(fsm_tmr, 16)        \
  X(tx_credit, 8)       \
  X(rx_credit, 8)       \
  X(cnt_par_err, 16)    \
  X(cnt_esc_err, 16)    \
  X(cnt_disc_err, 16)   \
  X(cnt_cred_err, 16)   \
  X(cnt_proto_err, 16)  \
  X(cnt_tmo_err, 16)    \
  X(tx_tmr, 8)          \
  X(tx_d, 1)            \
  X(tx_s, 1)            \
  X(tx_sr, 9)           \
  X(tx_len, 4)          \
  X(tx_par, 1)          \
  X(tx_open, 1)         \
  X(tx_spill, 1)        \
  X(cnt_tx_spill, 16)   \
  X(rx_x, 1)            \
  X(rx_dc, 8)           \
  X(rx_seen, 1)         \
  X(rx_sync, 1)         \
  X(rx_sr, 8)           \
  X(rx_cnt, 4)          \
  X(rx_pbit, 1)         \
  X(rx_flag, 1)         \
  X(rx_par, 1)          \
  X(rx_pend_v, 1)       \
  X(rx_pend_f, 1)       \
  X(rx_pend_val, 8)     \
  X(rx_esc, 1)          \
  X(rx_open, 1)         \
  X(cnt_rx_cut, 16)     \
  X(txf_wptr, 8)        \
  X(txf_rptr, 8)        \
  X(txf_cnt, 8)         \
  X(rxf_wptr, 8)        \
  X(rxf_rptr, 8)        \
  X(rxf_cnt, 8)

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
