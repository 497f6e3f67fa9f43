// C104 network wrapper for the network lockstep (docs/c104.md §15 "Network lockstep"): NSW = 4
// switches of the module `C104_MODULE (default c104; a user's RTL with the same ports can replace it:
// +define+C104_MODULE=...) in a 2 x 2 grid, switch s = x + 2y. Test infrastructure, written in the
// synthesizable style of the RTL.
//
// Every switch's ports 0-4 are bit-level and wired here, D/S bit for bit (d_o/s_o are registers,
// so no combinational loop):
//   ports 0, 1  two parallel links to the X neighbour (s ^ 1), port p to its port p;
//   ports 2, 3  two parallel links to the Y neighbour (s ^ 2), port p to its port p;
//   port  4     a loopback (its d_o/s_o into its own d_i/s_i: universal routing, §11.3).
// Every other port is driven by the testbench (d_i/s_i of a bit-level endpoint, the tok_* pins of
// a token port); the d_i/s_i bits of the wired ports are ignored. Per-switch signals are the
// switch's own ports concatenated, switch s at [s*W +: W] (W the switch port's width); every
// output and dbg_* register observation port of every switch leaves the wrapper so.
`ifndef C104_MODULE
`define C104_MODULE c104
`endif

module c104_net_tb #(
  parameter int unsigned NSW      = 4,
  // TokPorts of every switch (one value: one elaborated switch, a smaller build). Ports 0-4 must
  // be bit-level (wired); the default adds port 5 as a bit-level endpoint.
  parameter logic [31:0] TokPorts = 32'hFFFF_FFC0
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic [NSW-1:0] cfg_we_i,
  input  logic [NSW*8-1:0] cfg_addr_i,
  input  logic [NSW*32-1:0] cfg_wdata_i,
  input  logic [NSW*32-1:0] link_en_i,
  input  logic [NSW*32-1:0] d_i,
  input  logic [NSW*32-1:0] s_i,
  input  logic [NSW*32-1:0] tok_rx_valid_i,
  input  logic [NSW*32*8-1:0] tok_rx_data_i,
  input  logic [NSW*32*2-1:0] tok_rx_kind_i,
  input  logic [NSW*32-1:0] tok_tx_ready_i,
  output logic [NSW*32-1:0] d_o,
  output logic [NSW*32-1:0] s_o,
  output logic [NSW*32-1:0] tok_rx_ready_o,
  output logic [NSW*32-1:0] tok_tx_valid_o,
  output logic [NSW*32*8-1:0] tok_tx_data_o,
  output logic [NSW*32*2-1:0] tok_tx_kind_o,
  output logic [NSW*32*3-1:0] link_state_o,
  output logic [NSW*32*4-1:0] dbg_cfg_port_o,
  output logic [NSW*32*16-1:0] dbg_cfg_rlo_o,
  output logic [NSW*32*16-1:0] dbg_cfg_rhi_o,
  output logic [NSW*32*16-1:0] dbg_lfsr_o,
  output logic [NSW*32*16-1:0] dbg_cfg_ihi_o,
  output logic [NSW*32*5-1:0] dbg_cfg_iport_o,
  output logic [NSW*32-1:0] dbg_cfg_ival_o,
  output logic [NSW*6-1:0] dbg_cfg_nint_o,
  output logic [NSW-1:0] dbg_cfg_rr_o,
  output logic [NSW*32-1:0] dbg_cfg_grp_o,
  output logic [NSW*32*3-1:0] dbg_sl_st_o,
  output logic [NSW*32-1:0] dbg_sl_hcnt_o,
  output logic [NSW*32-1:0] dbg_sl_skip_o,
  output logic [NSW*32*16-1:0] dbg_sl_hdr_o,
  output logic [NSW*32*2-1:0] dbg_sl_ecnt_o,
  output logic [NSW*32*5-1:0] dbg_sl_grp_o,
  output logic [NSW*32*5-1:0] dbg_sl_port_o,
  output logic [NSW*32-1:0] dbg_out_busy_o,
  output logic [NSW*32*5-1:0] dbg_out_owner_o,
  output logic [NSW*32*32-1:0] dbg_age_o,
  output logic [NSW*32*5-1:0] dbg_rr_o,
  output logic [NSW*32*16-1:0] dbg_cnt_pkt_o,
  output logic [NSW*32*16-1:0] dbg_cnt_bad_o,
  output logic [NSW*32*16-1:0] dbg_cnt_short_o,
  output logic [NSW*32*16-1:0] dbg_cnt_cut_o,
  output logic [NSW*32*16-1:0] dbg_cnt_stray_o,
  output logic [NSW*32*3-1:0] dbg_l_fsm_state_o,
  output logic [NSW*32*16-1:0] dbg_l_fsm_tmr_o,
  output logic [NSW*32*8-1:0] dbg_l_tx_credit_o,
  output logic [NSW*32*8-1:0] dbg_l_rx_credit_o,
  output logic [NSW*32*16-1:0] dbg_l_cnt_par_err_o,
  output logic [NSW*32*16-1:0] dbg_l_cnt_esc_err_o,
  output logic [NSW*32*16-1:0] dbg_l_cnt_disc_err_o,
  output logic [NSW*32*16-1:0] dbg_l_cnt_cred_err_o,
  output logic [NSW*32*16-1:0] dbg_l_cnt_proto_err_o,
  output logic [NSW*32*16-1:0] dbg_l_cnt_tmo_err_o,
  output logic [NSW*32*8-1:0] dbg_l_tx_tmr_o,
  output logic [NSW*32-1:0] dbg_l_tx_d_o,
  output logic [NSW*32-1:0] dbg_l_tx_s_o,
  output logic [NSW*32*9-1:0] dbg_l_tx_sr_o,
  output logic [NSW*32*4-1:0] dbg_l_tx_len_o,
  output logic [NSW*32-1:0] dbg_l_tx_par_o,
  output logic [NSW*32-1:0] dbg_l_tx_open_o,
  output logic [NSW*32-1:0] dbg_l_tx_spill_o,
  output logic [NSW*32*16-1:0] dbg_l_cnt_tx_spill_o,
  output logic [NSW*32-1:0] dbg_l_rx_x_o,
  output logic [NSW*32*8-1:0] dbg_l_rx_dc_o,
  output logic [NSW*32-1:0] dbg_l_rx_seen_o,
  output logic [NSW*32-1:0] dbg_l_rx_sync_o,
  output logic [NSW*32*8-1:0] dbg_l_rx_sr_o,
  output logic [NSW*32*4-1:0] dbg_l_rx_cnt_o,
  output logic [NSW*32-1:0] dbg_l_rx_pbit_o,
  output logic [NSW*32-1:0] dbg_l_rx_flag_o,
  output logic [NSW*32-1:0] dbg_l_rx_par_o,
  output logic [NSW*32-1:0] dbg_l_rx_pend_v_o,
  output logic [NSW*32-1:0] dbg_l_rx_pend_f_o,
  output logic [NSW*32*8-1:0] dbg_l_rx_pend_val_o,
  output logic [NSW*32-1:0] dbg_l_rx_esc_o,
  output logic [NSW*32-1:0] dbg_l_rx_open_o,
  output logic [NSW*32*16-1:0] dbg_l_cnt_rx_cut_o,
  output logic [NSW*32*8-1:0] dbg_l_txf_wptr_o,
  output logic [NSW*32*8-1:0] dbg_l_txf_rptr_o,
  output logic [NSW*32*8-1:0] dbg_l_txf_cnt_o,
  output logic [NSW*32*8-1:0] dbg_l_rxf_wptr_o,
  output logic [NSW*32*8-1:0] dbg_l_rxf_rptr_o,
  output logic [NSW*32*8-1:0] dbg_l_rxf_cnt_o
);

  // Ports wired inside the wrapper: 0-3 the links, 4 the loopback.
  localparam logic [31:0] Wired = 32'h0000_001F;

  logic [NSW*32-1:0] sw_d_i, sw_s_i;

  for (genvar s = 0; s < NSW; s++) begin : g_sw
    // The 2 x 2 grid: X neighbour s ^ 1, Y neighbour s ^ 2.
    localparam int unsigned Xn = s ^ 1;
    localparam int unsigned Yn = s ^ 2;
    logic [31:0] wd, ws;
    assign wd = {27'd0, d_o[s*32 + 4], d_o[Yn*32 + 3], d_o[Yn*32 + 2], d_o[Xn*32 + 1], d_o[Xn*32]};
    assign ws = {27'd0, s_o[s*32 + 4], s_o[Yn*32 + 3], s_o[Yn*32 + 2], s_o[Xn*32 + 1], s_o[Xn*32]};
    assign sw_d_i[s*32 +: 32] = (d_i[s*32 +: 32] & ~Wired) | (wd & Wired);
    assign sw_s_i[s*32 +: 32] = (s_i[s*32 +: 32] & ~Wired) | (ws & Wired);

    `C104_MODULE #(
      .TokPorts(TokPorts)
    ) u_sw (
      .clk_i,
      .rst_ni,
      .cfg_we_i              (cfg_we_i[s]),
      .cfg_addr_i            (cfg_addr_i[s*8 +: 8]),
      .cfg_wdata_i           (cfg_wdata_i[s*32 +: 32]),
      .link_en_i             (link_en_i[s*32 +: 32]),
      .d_i                   (sw_d_i[s*32 +: 32]),
      .s_i                   (sw_s_i[s*32 +: 32]),
      .tok_rx_valid_i        (tok_rx_valid_i[s*32 +: 32]),
      .tok_rx_data_i         (tok_rx_data_i[s*32*8 +: 32*8]),
      .tok_rx_kind_i         (tok_rx_kind_i[s*32*2 +: 32*2]),
      .tok_tx_ready_i        (tok_tx_ready_i[s*32 +: 32]),
      .d_o                   (d_o[s*32 +: 32]),
      .s_o                   (s_o[s*32 +: 32]),
      .tok_rx_ready_o        (tok_rx_ready_o[s*32 +: 32]),
      .tok_tx_valid_o        (tok_tx_valid_o[s*32 +: 32]),
      .tok_tx_data_o         (tok_tx_data_o[s*32*8 +: 32*8]),
      .tok_tx_kind_o         (tok_tx_kind_o[s*32*2 +: 32*2]),
      .link_state_o          (link_state_o[s*32*3 +: 32*3]),
      .dbg_cfg_port_o        (dbg_cfg_port_o[s*32*4 +: 32*4]),
      .dbg_cfg_rlo_o         (dbg_cfg_rlo_o[s*32*16 +: 32*16]),
      .dbg_cfg_rhi_o         (dbg_cfg_rhi_o[s*32*16 +: 32*16]),
      .dbg_lfsr_o            (dbg_lfsr_o[s*32*16 +: 32*16]),
      .dbg_cfg_ihi_o         (dbg_cfg_ihi_o[s*32*16 +: 32*16]),
      .dbg_cfg_iport_o       (dbg_cfg_iport_o[s*32*5 +: 32*5]),
      .dbg_cfg_ival_o        (dbg_cfg_ival_o[s*32 +: 32]),
      .dbg_cfg_nint_o        (dbg_cfg_nint_o[s*6 +: 6]),
      .dbg_cfg_rr_o          (dbg_cfg_rr_o[s]),
      .dbg_cfg_grp_o         (dbg_cfg_grp_o[s*32 +: 32]),
      .dbg_sl_st_o           (dbg_sl_st_o[s*32*3 +: 32*3]),
      .dbg_sl_hcnt_o         (dbg_sl_hcnt_o[s*32 +: 32]),
      .dbg_sl_skip_o         (dbg_sl_skip_o[s*32 +: 32]),
      .dbg_sl_hdr_o          (dbg_sl_hdr_o[s*32*16 +: 32*16]),
      .dbg_sl_ecnt_o         (dbg_sl_ecnt_o[s*32*2 +: 32*2]),
      .dbg_sl_grp_o          (dbg_sl_grp_o[s*32*5 +: 32*5]),
      .dbg_sl_port_o         (dbg_sl_port_o[s*32*5 +: 32*5]),
      .dbg_out_busy_o        (dbg_out_busy_o[s*32 +: 32]),
      .dbg_out_owner_o       (dbg_out_owner_o[s*32*5 +: 32*5]),
      .dbg_age_o             (dbg_age_o[s*32*32 +: 32*32]),
      .dbg_rr_o              (dbg_rr_o[s*32*5 +: 32*5]),
      .dbg_cnt_pkt_o         (dbg_cnt_pkt_o[s*32*16 +: 32*16]),
      .dbg_cnt_bad_o         (dbg_cnt_bad_o[s*32*16 +: 32*16]),
      .dbg_cnt_short_o       (dbg_cnt_short_o[s*32*16 +: 32*16]),
      .dbg_cnt_cut_o         (dbg_cnt_cut_o[s*32*16 +: 32*16]),
      .dbg_cnt_stray_o       (dbg_cnt_stray_o[s*32*16 +: 32*16]),
      .dbg_l_fsm_state_o     (dbg_l_fsm_state_o[s*32*3 +: 32*3]),
      .dbg_l_fsm_tmr_o       (dbg_l_fsm_tmr_o[s*32*16 +: 32*16]),
      .dbg_l_tx_credit_o     (dbg_l_tx_credit_o[s*32*8 +: 32*8]),
      .dbg_l_rx_credit_o     (dbg_l_rx_credit_o[s*32*8 +: 32*8]),
      .dbg_l_cnt_par_err_o   (dbg_l_cnt_par_err_o[s*32*16 +: 32*16]),
      .dbg_l_cnt_esc_err_o   (dbg_l_cnt_esc_err_o[s*32*16 +: 32*16]),
      .dbg_l_cnt_disc_err_o  (dbg_l_cnt_disc_err_o[s*32*16 +: 32*16]),
      .dbg_l_cnt_cred_err_o  (dbg_l_cnt_cred_err_o[s*32*16 +: 32*16]),
      .dbg_l_cnt_proto_err_o (dbg_l_cnt_proto_err_o[s*32*16 +: 32*16]),
      .dbg_l_cnt_tmo_err_o   (dbg_l_cnt_tmo_err_o[s*32*16 +: 32*16]),
      .dbg_l_tx_tmr_o        (dbg_l_tx_tmr_o[s*32*8 +: 32*8]),
      .dbg_l_tx_d_o          (dbg_l_tx_d_o[s*32 +: 32]),
      .dbg_l_tx_s_o          (dbg_l_tx_s_o[s*32 +: 32]),
      .dbg_l_tx_sr_o         (dbg_l_tx_sr_o[s*32*9 +: 32*9]),
      .dbg_l_tx_len_o        (dbg_l_tx_len_o[s*32*4 +: 32*4]),
      .dbg_l_tx_par_o        (dbg_l_tx_par_o[s*32 +: 32]),
      .dbg_l_tx_open_o       (dbg_l_tx_open_o[s*32 +: 32]),
      .dbg_l_tx_spill_o      (dbg_l_tx_spill_o[s*32 +: 32]),
      .dbg_l_cnt_tx_spill_o  (dbg_l_cnt_tx_spill_o[s*32*16 +: 32*16]),
      .dbg_l_rx_x_o          (dbg_l_rx_x_o[s*32 +: 32]),
      .dbg_l_rx_dc_o         (dbg_l_rx_dc_o[s*32*8 +: 32*8]),
      .dbg_l_rx_seen_o       (dbg_l_rx_seen_o[s*32 +: 32]),
      .dbg_l_rx_sync_o       (dbg_l_rx_sync_o[s*32 +: 32]),
      .dbg_l_rx_sr_o         (dbg_l_rx_sr_o[s*32*8 +: 32*8]),
      .dbg_l_rx_cnt_o        (dbg_l_rx_cnt_o[s*32*4 +: 32*4]),
      .dbg_l_rx_pbit_o       (dbg_l_rx_pbit_o[s*32 +: 32]),
      .dbg_l_rx_flag_o       (dbg_l_rx_flag_o[s*32 +: 32]),
      .dbg_l_rx_par_o        (dbg_l_rx_par_o[s*32 +: 32]),
      .dbg_l_rx_pend_v_o     (dbg_l_rx_pend_v_o[s*32 +: 32]),
      .dbg_l_rx_pend_f_o     (dbg_l_rx_pend_f_o[s*32 +: 32]),
      .dbg_l_rx_pend_val_o   (dbg_l_rx_pend_val_o[s*32*8 +: 32*8]),
      .dbg_l_rx_esc_o        (dbg_l_rx_esc_o[s*32 +: 32]),
      .dbg_l_rx_open_o       (dbg_l_rx_open_o[s*32 +: 32]),
      .dbg_l_cnt_rx_cut_o    (dbg_l_cnt_rx_cut_o[s*32*16 +: 32*16]),
      .dbg_l_txf_wptr_o      (dbg_l_txf_wptr_o[s*32*8 +: 32*8]),
      .dbg_l_txf_rptr_o      (dbg_l_txf_rptr_o[s*32*8 +: 32*8]),
      .dbg_l_txf_cnt_o       (dbg_l_txf_cnt_o[s*32*8 +: 32*8]),
      .dbg_l_rxf_wptr_o      (dbg_l_rxf_wptr_o[s*32*8 +: 32*8]),
      .dbg_l_rxf_rptr_o      (dbg_l_rxf_rptr_o[s*32*8 +: 32*8]),
      .dbg_l_rxf_cnt_o       (dbg_l_rxf_cnt_o[s*32*8 +: 32*8])
    );
  end

endmodule
