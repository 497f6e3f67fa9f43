// Coverpoints of one DS-Link link end (docs/dslink.md), bound into every `dslink` instance; only
// for the coverage builds (`make coverage`, docs/coverage.md). The RTL is not changed.
// Names: fsm_<state>_x_<event>, cnt_<counter>_<value>, <fifo>_<level>, bp_<handshake>_<state>.
// Points that the design makes unreachable are listed in tb/cov/unreachable.txt.
module dslink_cov #(
  parameter int unsigned RxDepth       = 32,
  parameter int unsigned TxDepth       = 8,
  parameter int unsigned TxCreditMax   = 32,
  parameter int unsigned ResetCycles   = 64,
  parameter int unsigned WaitCycles    = 128,
  parameter int unsigned TimeoutCycles = 128,
  parameter int unsigned DisconnectCycles = 8
) (
  input logic        clk_i,
  input logic        link_en_i,
  input logic [2:0]  fsm_state_q,
  input logic [15:0] fsm_tmr_q,
  input logic [7:0]  tx_credit_q,
  input logic [7:0]  rx_credit_q,
  input logic [15:0] cnt_par_err_q,
  input logic [15:0] cnt_esc_err_q,
  input logic [15:0] cnt_disc_err_q,
  input logic [15:0] cnt_cred_err_q,
  input logic [15:0] cnt_proto_err_q,
  input logic [15:0] cnt_tmo_err_q,
  input logic [15:0] cnt_tx_spill_q,
  input logic [15:0] cnt_rx_cut_q,
  input logic [7:0]  rx_dc_q,
  input logic        rx_sync_q,
  input logic        fct_ev,
  input logic        nchar_ev,
  input logic        par_err,
  input logic        esc_err,
  input logic        disc_err,
  input logic        abort,
  input logic        link_rst,
  input logic        tx_valid_i,
  input logic        tx_ready_o,
  input logic        rx_valid_o,
  input logic        rx_ready_i,
  input logic        txf_wr,
  input logic        txf_pop,
  input logic [7:0]  txf_cnt_q,
  input logic        rxf_wr,
  input logic        rxf_pop,
  input logic [7:0]  rxf_cnt_q
);
  // The last count of each timer in the state that runs it.
  logic reset_end, wait_end, timeout_end;
  assign reset_end   = 32'(fsm_tmr_q) == ResetCycles - 1;
  assign wait_end    = 32'(fsm_tmr_q) == WaitCycles - 1;
  assign timeout_end = 32'(fsm_tmr_q) == TimeoutCycles - 1;

`define CP(name, e) name: cover property (@(posedge clk_i) (e));
// Every state x every event of the link state machine (docs/dslink.md §4).
`define FSM_EVENTS(st, code) \
  `CP(fsm_``st``_x_par_err, fsm_state_q == code && par_err) \
  `CP(fsm_``st``_x_esc_err, fsm_state_q == code && esc_err) \
  `CP(fsm_``st``_x_disc_err, fsm_state_q == code && disc_err) \
  `CP(fsm_``st``_x_fct, fsm_state_q == code && fct_ev) \
  `CP(fsm_``st``_x_nchar, fsm_state_q == code && nchar_ev) \
  `CP(fsm_``st``_x_rx_sync, fsm_state_q == code && rx_sync_q) \
  `CP(fsm_``st``_x_link_en, fsm_state_q == code && link_en_i) \
  `CP(fsm_``st``_x_link_dis, fsm_state_q == code && !link_en_i) \
  `CP(fsm_``st``_x_abort, fsm_state_q == code && abort) \
  `CP(fsm_``st``_x_link_rst, fsm_state_q == code && link_rst)
  `FSM_EVENTS(ErrorReset, 3'd0)
  `FSM_EVENTS(ErrorWait, 3'd1)
  `FSM_EVENTS(Ready, 3'd2)
  `FSM_EVENTS(Started, 3'd3)
  `FSM_EVENTS(Connecting, 3'd4)
  `FSM_EVENTS(Run, 3'd5)
  `CP(fsm_ErrorReset_x_reset_end, fsm_state_q == 3'd0 && reset_end)
  `CP(fsm_ErrorWait_x_wait_end, fsm_state_q == 3'd1 && wait_end)
  `CP(fsm_Started_x_timeout_end, fsm_state_q == 3'd3 && timeout_end)
  `CP(fsm_Connecting_x_timeout_end, fsm_state_q == 3'd4 && timeout_end)
  // A credit error on an FCT (Connecting, Run) and on a data token (Run).
  `CP(fsm_Connecting_x_cred_err_fct, fsm_state_q == 3'd4 && fct_ev && 32'(tx_credit_q) + 8 > TxCreditMax)
  `CP(fsm_Run_x_cred_err_fct, fsm_state_q == 3'd5 && fct_ev && 32'(tx_credit_q) + 8 > TxCreditMax)
  `CP(fsm_Run_x_cred_err_nchar, fsm_state_q == 3'd5 && nchar_ev && rx_credit_q == 8'd0)

// Counters at 0, 1, max-1 and max.
`define CNT4(name, sig, mx) \
  `CP(cnt_``name``_0, 32'(sig) == 0) \
  `CP(cnt_``name``_1, 32'(sig) == 1) \
  `CP(cnt_``name``_max_m1, 32'(sig) == (mx) - 1) \
  `CP(cnt_``name``_max, 32'(sig) == (mx))
  `CNT4(tx_credit, tx_credit_q, TxCreditMax)
  `CNT4(rx_credit, rx_credit_q, RxDepth)
  `CNT4(fsm_tmr, fsm_tmr_q, WaitCycles - 1)
  `CNT4(rx_dc, rx_dc_q, 255)
  `CNT4(par_err, cnt_par_err_q, 65535)
  `CNT4(esc_err, cnt_esc_err_q, 65535)
  `CNT4(disc_err, cnt_disc_err_q, 65535)
  `CNT4(cred_err, cnt_cred_err_q, 65535)
  `CNT4(proto_err, cnt_proto_err_q, 65535)
  `CNT4(tmo_err, cnt_tmo_err_q, 65535)
  `CNT4(tx_spill, cnt_tx_spill_q, 65535)
  `CNT4(rx_cut, cnt_rx_cut_q, 65535)
  `CP(cnt_rx_dc_disconnect, 32'(rx_dc_q) == DisconnectCycles - 1)

// FIFOs: empty, one from full, full, each with and without a push and a pop in the same cycle.
`define FIFO(name, cnt, wr, rd, depth) \
  `CP(name``_empty, cnt == 8'd0) \
  `CP(name``_empty_push, cnt == 8'd0 && wr) \
  `CP(name``_empty_push_pop, cnt == 8'd0 && wr && rd) \
  `CP(name``_one_from_full, 32'(cnt) == (depth) - 1) \
  `CP(name``_one_from_full_push, 32'(cnt) == (depth) - 1 && wr && !rd) \
  `CP(name``_one_from_full_push_pop, 32'(cnt) == (depth) - 1 && wr && rd) \
  `CP(name``_full, 32'(cnt) == (depth)) \
  `CP(name``_full_pop, 32'(cnt) == (depth) && rd && !wr) \
  `CP(name``_full_push_pop, 32'(cnt) == (depth) && wr && rd) \
  `CP(name``_mid_push_pop, cnt != 8'd0 && 32'(cnt) < (depth) - 1 && wr && rd)
  `FIFO(txf, txf_cnt_q, txf_wr, txf_pop, TxDepth)
  `FIFO(rxf, rxf_cnt_q, rxf_wr, rxf_pop, RxDepth + 1)

// Back-pressure (valid high, ready low) on both user handshakes, in every link state.
`define BP(st, code) \
  `CP(bp_tx_``st, fsm_state_q == code && tx_valid_i && !tx_ready_o) \
  `CP(bp_rx_``st, fsm_state_q == code && rx_valid_o && !rx_ready_i)
  `BP(ErrorReset, 3'd0)
  `BP(ErrorWait, 3'd1)
  `BP(Ready, 3'd2)
  `BP(Started, 3'd3)
  `BP(Connecting, 3'd4)
  `BP(Run, 3'd5)
`undef BP
`undef CNT4
`undef CP
`undef FIFO
`undef FSM_EVENTS
endmodule

bind dslink dslink_cov #(
  .RxDepth(RxDepth), .TxDepth(TxDepth), .TxCreditMax(TxCreditMax), .ResetCycles(ResetCycles),
  .WaitCycles(WaitCycles), .TimeoutCycles(TimeoutCycles), .DisconnectCycles(DisconnectCycles)
) u_dslink_cov (.*);
