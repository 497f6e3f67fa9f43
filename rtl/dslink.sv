// One DS-Link link end (docs/dslink.md): transmitter, receiver, link state machine and the two
// token FIFOs. Every output is a register or a function of registers only (Moore).
module dslink #(
  parameter int unsigned BitPeriod        = 1,
  parameter int unsigned RxDepth          = 32,
  parameter int unsigned TxDepth          = 8,
  parameter int unsigned TxCreditMax      = 32,
  parameter int unsigned DisconnectCycles = 8,
  parameter int unsigned ResetCycles      = 64,
  parameter int unsigned WaitCycles       = 128,
  parameter int unsigned TimeoutCycles    = 128
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        d_i,
  input  logic        s_i,
  input  logic        link_en_i,
  input  logic        tx_valid_i,
  input  logic [7:0]  tx_data_i,
  input  logic [1:0]  tx_kind_i,
  input  logic        rx_ready_i,
  output logic        d_o,
  output logic        s_o,
  output logic        tx_ready_o,
  output logic        rx_valid_o,
  output logic [7:0]  rx_data_o,
  output logic [1:0]  rx_kind_o,
  output logic [2:0]  link_state_o,
  output logic [2:0]  dbg_fsm_state_o,
  output logic [15:0] dbg_fsm_tmr_o,
  output logic [7:0]  dbg_tx_credit_o,
  output logic [7:0]  dbg_rx_credit_o,
  output logic [15:0] dbg_cnt_par_err_o,
  output logic [15:0] dbg_cnt_esc_err_o,
  output logic [15:0] dbg_cnt_disc_err_o,
  output logic [15:0] dbg_cnt_cred_err_o,
  output logic [15:0] dbg_cnt_proto_err_o,
  output logic [15:0] dbg_cnt_tmo_err_o,
  output logic [7:0]  dbg_tx_tmr_o,
  output logic        dbg_tx_d_o,
  output logic        dbg_tx_s_o,
  output logic [8:0]  dbg_tx_sr_o,
  output logic [3:0]  dbg_tx_len_o,
  output logic        dbg_tx_par_o,
  output logic        dbg_tx_open_o,
  output logic        dbg_tx_spill_o,
  output logic [15:0] dbg_cnt_tx_spill_o,
  output logic        dbg_rx_x_o,
  output logic [7:0]  dbg_rx_dc_o,
  output logic        dbg_rx_seen_o,
  output logic        dbg_rx_sync_o,
  output logic [7:0]  dbg_rx_sr_o,
  output logic [3:0]  dbg_rx_cnt_o,
  output logic        dbg_rx_pbit_o,
  output logic        dbg_rx_flag_o,
  output logic        dbg_rx_par_o,
  output logic        dbg_rx_pend_v_o,
  output logic        dbg_rx_pend_f_o,
  output logic [7:0]  dbg_rx_pend_val_o,
  output logic        dbg_rx_esc_o,
  output logic        dbg_rx_open_o,
  output logic [15:0] dbg_cnt_rx_cut_o,
  output logic [7:0]  dbg_txf_wptr_o,
  output logic [7:0]  dbg_txf_rptr_o,
  output logic [7:0]  dbg_txf_cnt_o,
  output logic [7:0]  dbg_rxf_wptr_o,
  output logic [7:0]  dbg_rxf_rptr_o,
  output logic [7:0]  dbg_rxf_cnt_o
);

  localparam logic [1:0] KindData = 2'd0;

  // Architectural registers, gathered here under their spec names for the dbg_*_o ports.
  logic [2:0]  fsm_state_q;
  logic [15:0] fsm_tmr_q;
  logic [7:0]  tx_credit_q;
  logic [7:0]  rx_credit_q;
  logic [15:0] cnt_par_err_q;
  logic [15:0] cnt_esc_err_q;
  logic [15:0] cnt_disc_err_q;
  logic [15:0] cnt_cred_err_q;
  logic [15:0] cnt_proto_err_q;
  logic [15:0] cnt_tmo_err_q;
  logic [7:0]  tx_tmr_q;
  logic        tx_d_q;
  logic        tx_s_q;
  logic [8:0]  tx_sr_q;
  logic [3:0]  tx_len_q;
  logic        tx_par_q;
  logic        tx_open_q;
  logic        tx_spill_q;
  logic [15:0] cnt_tx_spill_q;
  logic        rx_x_q;
  logic [7:0]  rx_dc_q;
  logic        rx_seen_q;
  logic        rx_sync_q;
  logic [7:0]  rx_sr_q;
  logic [3:0]  rx_cnt_q;
  logic        rx_pbit_q;
  logic        rx_flag_q;
  logic        rx_par_q;
  logic        rx_pend_v_q;
  logic        rx_pend_f_q;
  logic [7:0]  rx_pend_val_q;
  logic        rx_esc_q;
  logic        rx_open_q;
  logic [15:0] cnt_rx_cut_q;
  logic [7:0]  txf_wptr_q;
  logic [7:0]  txf_rptr_q;
  logic [7:0]  txf_cnt_q;
  logic [7:0]  rxf_wptr_q;
  logic [7:0]  rxf_rptr_q;
  logic [7:0]  rxf_cnt_q;

  // Events and FIFO handshakes of the current cycle, passed between the blocks (not registered).
  logic       link_rst;
  logic       fct_ev, nchar_ev, par_err, esc_err, disc_err, nchar_acc;
  logic       abort, fct_load, ntok_load;
  logic       txf_wr, txf_pop;
  logic [9:0] txf_head;
  logic       rxf_wr, rxf_pop;
  logic [9:0] rxf_wdata, rxf_head;

  dslink_fsm #(
    .TxCreditMax  (TxCreditMax),
    .ResetCycles  (ResetCycles),
    .WaitCycles   (WaitCycles),
    .TimeoutCycles(TimeoutCycles)
  ) u_fsm (
    .clk_i,
    .rst_ni,
    .link_en_i,
    .fct_ev_i       (fct_ev),
    .nchar_ev_i     (nchar_ev),
    .par_err_i      (par_err),
    .esc_err_i      (esc_err),
    .disc_err_i     (disc_err),
    .nchar_acc_i    (nchar_acc),
    .rx_sync_i      (rx_sync_q),
    .abort_i        (abort),
    .fct_load_i     (fct_load),
    .ntok_load_i    (ntok_load),
    .link_rst_o     (link_rst),
    .fsm_state_o    (fsm_state_q),
    .fsm_tmr_o      (fsm_tmr_q),
    .tx_credit_o    (tx_credit_q),
    .rx_credit_o    (rx_credit_q),
    .cnt_par_err_o  (cnt_par_err_q),
    .cnt_esc_err_o  (cnt_esc_err_q),
    .cnt_disc_err_o (cnt_disc_err_q),
    .cnt_cred_err_o (cnt_cred_err_q),
    .cnt_proto_err_o(cnt_proto_err_q),
    .cnt_tmo_err_o  (cnt_tmo_err_q)
  );

  dslink_tx #(
    .BitPeriod(BitPeriod),
    .RxDepth  (RxDepth)
  ) u_tx (
    .clk_i,
    .rst_ni,
    .fsm_state_i   (fsm_state_q),
    .link_rst_i    (link_rst),
    .tx_credit_i   (tx_credit_q),
    .rx_credit_i   (rx_credit_q),
    .rxf_cnt_i     (rxf_cnt_q),
    .txf_cnt_i     (txf_cnt_q),
    .txf_head_i    (txf_head),
    .abort_o       (abort),
    .fct_load_o    (fct_load),
    .ntok_load_o   (ntok_load),
    .txf_pop_o     (txf_pop),
    .tx_tmr_o      (tx_tmr_q),
    .tx_d_o        (tx_d_q),
    .tx_s_o        (tx_s_q),
    .tx_sr_o       (tx_sr_q),
    .tx_len_o      (tx_len_q),
    .tx_par_o      (tx_par_q),
    .tx_open_o     (tx_open_q),
    .tx_spill_o    (tx_spill_q),
    .cnt_tx_spill_o(cnt_tx_spill_q)
  );

  dslink_rx #(
    .DisconnectCycles(DisconnectCycles)
  ) u_rx (
    .clk_i,
    .rst_ni,
    .d_i,
    .s_i,
    .fsm_state_i  (fsm_state_q),
    .link_rst_i   (link_rst),
    .rx_credit_i  (rx_credit_q),
    .fct_ev_o     (fct_ev),
    .nchar_ev_o   (nchar_ev),
    .par_err_o    (par_err),
    .esc_err_o    (esc_err),
    .disc_err_o   (disc_err),
    .nchar_acc_o  (nchar_acc),
    .rxf_wr_o     (rxf_wr),
    .rxf_wdata_o  (rxf_wdata),
    .rx_x_o       (rx_x_q),
    .rx_dc_o      (rx_dc_q),
    .rx_seen_o    (rx_seen_q),
    .rx_sync_o    (rx_sync_q),
    .rx_sr_o      (rx_sr_q),
    .rx_cnt_o     (rx_cnt_q),
    .rx_pbit_o    (rx_pbit_q),
    .rx_flag_o    (rx_flag_q),
    .rx_par_o     (rx_par_q),
    .rx_pend_v_o  (rx_pend_v_q),
    .rx_pend_f_o  (rx_pend_f_q),
    .rx_pend_val_o(rx_pend_val_q),
    .rx_esc_o     (rx_esc_q),
    .rx_open_o    (rx_open_q),
    .cnt_rx_cut_o (cnt_rx_cut_q)
  );

  // Transmit FIFO: written by the user whenever there is room, in any link state.
  assign tx_ready_o = ({24'b0, txf_cnt_q} != TxDepth);
  assign txf_wr     = tx_valid_i && tx_ready_o;

  dslink_fifo #(
    .Depth(TxDepth),
    .Width(10)
  ) u_txf (
    .clk_i,
    .rst_ni,
    .wr_i   (txf_wr),
    .wdata_i({tx_kind_i, tx_data_i}),
    .rd_i   (txf_pop),
    .rdata_o(txf_head),
    .wptr_o (txf_wptr_q),
    .rptr_o (txf_rptr_q),
    .cnt_o  (txf_cnt_q)
  );

  // Receive FIFO: one entry more than the credit it grants, so a cut packet's ERR always fits.
  assign rx_valid_o = (rxf_cnt_q != 8'd0);
  assign rxf_pop    = rx_valid_o && rx_ready_i;

  dslink_fifo #(
    .Depth(RxDepth + 1),
    .Width(10)
  ) u_rxf (
    .clk_i,
    .rst_ni,
    .wr_i   (rxf_wr),
    .wdata_i(rxf_wdata),
    .rd_i   (rxf_pop),
    .rdata_o(rxf_head),
    .wptr_o (rxf_wptr_q),
    .rptr_o (rxf_rptr_q),
    .cnt_o  (rxf_cnt_q)
  );

  // The storage is not reset, so the head is masked while the FIFO is empty.
  assign rx_kind_o    = rx_valid_o ? rxf_head[9:8] : 2'd0;
  assign rx_data_o    = (rx_valid_o && rxf_head[9:8] == KindData) ? rxf_head[7:0] : 8'd0;

  assign d_o          = tx_d_q;
  assign s_o          = tx_s_q;
  assign link_state_o = fsm_state_q;

  assign dbg_fsm_state_o       = fsm_state_q;
  assign dbg_fsm_tmr_o         = fsm_tmr_q;
  assign dbg_tx_credit_o       = tx_credit_q;
  assign dbg_rx_credit_o       = rx_credit_q;
  assign dbg_cnt_par_err_o     = cnt_par_err_q;
  assign dbg_cnt_esc_err_o     = cnt_esc_err_q;
  assign dbg_cnt_disc_err_o    = cnt_disc_err_q;
  assign dbg_cnt_cred_err_o    = cnt_cred_err_q;
  assign dbg_cnt_proto_err_o   = cnt_proto_err_q;
  assign dbg_cnt_tmo_err_o     = cnt_tmo_err_q;
  assign dbg_tx_tmr_o          = tx_tmr_q;
  assign dbg_tx_d_o            = tx_d_q;
  assign dbg_tx_s_o            = tx_s_q;
  assign dbg_tx_sr_o           = tx_sr_q;
  assign dbg_tx_len_o          = tx_len_q;
  assign dbg_tx_par_o          = tx_par_q;
  assign dbg_tx_open_o         = tx_open_q;
  assign dbg_tx_spill_o        = tx_spill_q;
  assign dbg_cnt_tx_spill_o    = cnt_tx_spill_q;
  assign dbg_rx_x_o            = rx_x_q;
  assign dbg_rx_dc_o           = rx_dc_q;
  assign dbg_rx_seen_o         = rx_seen_q;
  assign dbg_rx_sync_o         = rx_sync_q;
  assign dbg_rx_sr_o           = rx_sr_q;
  assign dbg_rx_cnt_o          = rx_cnt_q;
  assign dbg_rx_pbit_o         = rx_pbit_q;
  assign dbg_rx_flag_o         = rx_flag_q;
  assign dbg_rx_par_o          = rx_par_q;
  assign dbg_rx_pend_v_o       = rx_pend_v_q;
  assign dbg_rx_pend_f_o       = rx_pend_f_q;
  assign dbg_rx_pend_val_o     = rx_pend_val_q;
  assign dbg_rx_esc_o          = rx_esc_q;
  assign dbg_rx_open_o         = rx_open_q;
  assign dbg_cnt_rx_cut_o      = cnt_rx_cut_q;
  assign dbg_txf_wptr_o        = txf_wptr_q;
  assign dbg_txf_rptr_o        = txf_rptr_q;
  assign dbg_txf_cnt_o         = txf_cnt_q;
  assign dbg_rxf_wptr_o        = rxf_wptr_q;
  assign dbg_rxf_rptr_o        = rxf_rptr_q;
  assign dbg_rxf_cnt_o         = rxf_cnt_q;

endmodule
