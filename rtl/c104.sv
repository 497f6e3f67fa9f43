// C104 32-port packet routing switch (docs/c104.md §1-§15): 32 DS-Link ports (or token-level
// ports, §14), one routing slice per input, the arbiters and the combinational crossbar.
module c104 #(
  // Bit p = 1: port p is a token-level port, with no dslink (§14).
  parameter logic [31:0] TokPorts         = 32'h0,
  parameter int unsigned BitPeriod        = 1,
  parameter int unsigned RxDepth          = 40,
  parameter int unsigned TxDepth          = 35,
  parameter int unsigned TxCreditMax      = 40,
  parameter int unsigned DisconnectCycles = 8,
  parameter int unsigned ResetCycles      = 64,
  parameter int unsigned WaitCycles       = 128,
  parameter int unsigned TimeoutCycles    = 128
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                cfg_we_i,
  input  logic [7:0]          cfg_addr_i,
  input  logic [31:0]         cfg_wdata_i,
  // Per port p at [p*w +: w] (§6).
  input  logic [31:0]         link_en_i,
  input  logic [31:0]         d_i,
  input  logic [31:0]         s_i,
  input  logic [31:0]         tok_rx_valid_i,
  input  logic [32*8-1:0]     tok_rx_data_i,
  input  logic [32*2-1:0]     tok_rx_kind_i,
  input  logic [31:0]         tok_tx_ready_i,
  output logic [31:0]         d_o,
  output logic [31:0]         s_o,
  output logic [31:0]         tok_rx_ready_o,
  output logic [31:0]         tok_tx_valid_o,
  output logic [32*8-1:0]     tok_tx_data_o,
  output logic [32*2-1:0]     tok_tx_kind_o,
  output logic [32*3-1:0]     link_state_o,
  // Architectural registers (§8), element i at [i*w +: w].
  output logic [32*4-1:0]     dbg_cfg_port_o,
  output logic [32*16-1:0]    dbg_cfg_rlo_o,
  output logic [32*16-1:0]    dbg_cfg_rhi_o,
  output logic [32*16-1:0]    dbg_lfsr_o,
  output logic [32*16-1:0]    dbg_cfg_ihi_o,
  output logic [32*5-1:0]     dbg_cfg_iport_o,
  output logic [31:0]         dbg_cfg_ival_o,
  output logic [5:0]          dbg_cfg_nint_o,
  output logic                dbg_cfg_rr_o,
  output logic [31:0]         dbg_cfg_grp_o,
  output logic [32*3-1:0]     dbg_sl_st_o,
  output logic [31:0]         dbg_sl_hcnt_o,
  output logic [31:0]         dbg_sl_skip_o,
  output logic [32*16-1:0]    dbg_sl_hdr_o,
  output logic [32*2-1:0]     dbg_sl_ecnt_o,
  output logic [32*5-1:0]     dbg_sl_grp_o,
  output logic [32*5-1:0]     dbg_sl_port_o,
  output logic [31:0]         dbg_out_busy_o,
  output logic [32*5-1:0]     dbg_out_owner_o,
  output logic [32*32-1:0]    dbg_age_o,
  output logic [32*5-1:0]     dbg_rr_o,
  output logic [32*16-1:0]    dbg_cnt_pkt_o,
  output logic [32*16-1:0]    dbg_cnt_bad_o,
  output logic [32*16-1:0]    dbg_cnt_short_o,
  output logic [32*16-1:0]    dbg_cnt_cut_o,
  output logic [32*16-1:0]    dbg_cnt_stray_o,
  // Every dslink register of port p (DSLINK_REGS); 0 for token ports.
  output logic [32*3-1:0]     dbg_l_fsm_state_o,
  output logic [32*16-1:0]    dbg_l_fsm_tmr_o,
  output logic [32*8-1:0]     dbg_l_tx_credit_o,
  output logic [32*8-1:0]     dbg_l_rx_credit_o,
  output logic [32*16-1:0]    dbg_l_cnt_par_err_o,
  output logic [32*16-1:0]    dbg_l_cnt_esc_err_o,
  output logic [32*16-1:0]    dbg_l_cnt_disc_err_o,
  output logic [32*16-1:0]    dbg_l_cnt_cred_err_o,
  output logic [32*16-1:0]    dbg_l_cnt_proto_err_o,
  output logic [32*16-1:0]    dbg_l_cnt_tmo_err_o,
  output logic [32*8-1:0]     dbg_l_tx_tmr_o,
  output logic [31:0]         dbg_l_tx_d_o,
  output logic [31:0]         dbg_l_tx_s_o,
  output logic [32*9-1:0]     dbg_l_tx_sr_o,
  output logic [32*4-1:0]     dbg_l_tx_len_o,
  output logic [31:0]         dbg_l_tx_par_o,
  output logic [31:0]         dbg_l_tx_open_o,
  output logic [31:0]         dbg_l_tx_spill_o,
  output logic [32*16-1:0]    dbg_l_cnt_tx_spill_o,
  output logic [31:0]         dbg_l_rx_x_o,
  output logic [32*8-1:0]     dbg_l_rx_dc_o,
  output logic [31:0]         dbg_l_rx_seen_o,
  output logic [31:0]         dbg_l_rx_sync_o,
  output logic [32*8-1:0]     dbg_l_rx_sr_o,
  output logic [32*4-1:0]     dbg_l_rx_cnt_o,
  output logic [31:0]         dbg_l_rx_pbit_o,
  output logic [31:0]         dbg_l_rx_flag_o,
  output logic [31:0]         dbg_l_rx_par_o,
  output logic [31:0]         dbg_l_rx_pend_v_o,
  output logic [31:0]         dbg_l_rx_pend_f_o,
  output logic [32*8-1:0]     dbg_l_rx_pend_val_o,
  output logic [31:0]         dbg_l_rx_esc_o,
  output logic [31:0]         dbg_l_rx_open_o,
  output logic [32*16-1:0]    dbg_l_cnt_rx_cut_o,
  output logic [32*8-1:0]     dbg_l_txf_wptr_o,
  output logic [32*8-1:0]     dbg_l_txf_rptr_o,
  output logic [32*8-1:0]     dbg_l_txf_cnt_o,
  output logic [32*8-1:0]     dbg_l_rxf_wptr_o,
  output logic [32*8-1:0]     dbg_l_rxf_rptr_o,
  output logic [32*8-1:0]     dbg_l_rxf_cnt_o
);

  localparam logic [1:0] KindData = 2'd0;
  localparam logic [2:0] StateRun = 3'd5;

  // ---- Port interfaces u_*[p] (§5) -------------------------------------------------------------
  logic [31:0]     u_rx_valid;
  logic [32*8-1:0] u_rx_data;
  logic [32*2-1:0] u_rx_kind;
  logic [31:0]     u_rx_ready;
  logic [31:0]     u_tx_ready;
  logic [31:0]     u_tx_valid;
  logic [32*8-1:0] u_tx_data;
  logic [32*2-1:0] u_tx_kind;

  for (genvar p = 0; p < 32; p++) begin : g_port
    if (TokPorts[p]) begin : g_tok
      // §14: the testbench plays the link end with its buffers.
      assign u_rx_valid[p]            = tok_rx_valid_i[p];
      assign u_rx_data[p*8 +: 8]      = tok_rx_data_i[p*8 +: 8];
      assign u_rx_kind[p*2 +: 2]      = tok_rx_kind_i[p*2 +: 2];
      assign tok_rx_ready_o[p]        = u_rx_ready[p];
      assign u_tx_ready[p]            = tok_tx_ready_i[p];
      assign tok_tx_valid_o[p]        = u_tx_valid[p];
      assign tok_tx_data_o[p*8 +: 8]  = u_tx_data[p*8 +: 8];
      assign tok_tx_kind_o[p*2 +: 2]  = u_tx_kind[p*2 +: 2];
      assign d_o[p]                   = 1'b0;
      assign s_o[p]                   = 1'b0;
      assign link_state_o[p*3 +: 3]   = StateRun;
      assign dbg_l_fsm_state_o[p*3 +: 3] = '0;
      assign dbg_l_fsm_tmr_o[p*16 +: 16] = '0;
      assign dbg_l_tx_credit_o[p*8 +: 8] = '0;
      assign dbg_l_rx_credit_o[p*8 +: 8] = '0;
      assign dbg_l_cnt_par_err_o[p*16 +: 16] = '0;
      assign dbg_l_cnt_esc_err_o[p*16 +: 16] = '0;
      assign dbg_l_cnt_disc_err_o[p*16 +: 16] = '0;
      assign dbg_l_cnt_cred_err_o[p*16 +: 16] = '0;
      assign dbg_l_cnt_proto_err_o[p*16 +: 16] = '0;
      assign dbg_l_cnt_tmo_err_o[p*16 +: 16] = '0;
      assign dbg_l_tx_tmr_o[p*8 +: 8] = '0;
      assign dbg_l_tx_d_o[p] = 1'b0;
      assign dbg_l_tx_s_o[p] = 1'b0;
      assign dbg_l_tx_sr_o[p*9 +: 9] = '0;
      assign dbg_l_tx_len_o[p*4 +: 4] = '0;
      assign dbg_l_tx_par_o[p] = 1'b0;
      assign dbg_l_tx_open_o[p] = 1'b0;
      assign dbg_l_tx_spill_o[p] = 1'b0;
      assign dbg_l_cnt_tx_spill_o[p*16 +: 16] = '0;
      assign dbg_l_rx_x_o[p] = 1'b0;
      assign dbg_l_rx_dc_o[p*8 +: 8] = '0;
      assign dbg_l_rx_seen_o[p] = 1'b0;
      assign dbg_l_rx_sync_o[p] = 1'b0;
      assign dbg_l_rx_sr_o[p*8 +: 8] = '0;
      assign dbg_l_rx_cnt_o[p*4 +: 4] = '0;
      assign dbg_l_rx_pbit_o[p] = 1'b0;
      assign dbg_l_rx_flag_o[p] = 1'b0;
      assign dbg_l_rx_par_o[p] = 1'b0;
      assign dbg_l_rx_pend_v_o[p] = 1'b0;
      assign dbg_l_rx_pend_f_o[p] = 1'b0;
      assign dbg_l_rx_pend_val_o[p*8 +: 8] = '0;
      assign dbg_l_rx_esc_o[p] = 1'b0;
      assign dbg_l_rx_open_o[p] = 1'b0;
      assign dbg_l_cnt_rx_cut_o[p*16 +: 16] = '0;
      assign dbg_l_txf_wptr_o[p*8 +: 8] = '0;
      assign dbg_l_txf_rptr_o[p*8 +: 8] = '0;
      assign dbg_l_txf_cnt_o[p*8 +: 8] = '0;
      assign dbg_l_rxf_wptr_o[p*8 +: 8] = '0;
      assign dbg_l_rxf_rptr_o[p*8 +: 8] = '0;
      assign dbg_l_rxf_cnt_o[p*8 +: 8] = '0;
      // A token port ignores its link pins (§14).
      logic unused_link;
      assign unused_link = ^{link_en_i[p], d_i[p], s_i[p]};
    end else begin : g_link
      dslink #(
        .BitPeriod       (BitPeriod),
        .RxDepth         (RxDepth),
        .TxDepth         (TxDepth),
        .TxCreditMax     (TxCreditMax),
        .DisconnectCycles(DisconnectCycles),
        .ResetCycles     (ResetCycles),
        .WaitCycles      (WaitCycles),
        .TimeoutCycles   (TimeoutCycles)
      ) u_link (
        .clk_i,
        .rst_ni,
        .d_i                (d_i[p]),
        .s_i                (s_i[p]),
        .link_en_i          (link_en_i[p]),
        .tx_valid_i         (u_tx_valid[p]),
        .tx_data_i          (u_tx_data[p*8 +: 8]),
        .tx_kind_i          (u_tx_kind[p*2 +: 2]),
        .rx_ready_i         (u_rx_ready[p]),
        .d_o                (d_o[p]),
        .s_o                (s_o[p]),
        .tx_ready_o         (u_tx_ready[p]),
        .rx_valid_o         (u_rx_valid[p]),
        .rx_data_o          (u_rx_data[p*8 +: 8]),
        .rx_kind_o          (u_rx_kind[p*2 +: 2]),
        .link_state_o       (link_state_o[p*3 +: 3]),
        .dbg_fsm_state_o     (dbg_l_fsm_state_o[p*3 +: 3]),
        .dbg_fsm_tmr_o       (dbg_l_fsm_tmr_o[p*16 +: 16]),
        .dbg_tx_credit_o     (dbg_l_tx_credit_o[p*8 +: 8]),
        .dbg_rx_credit_o     (dbg_l_rx_credit_o[p*8 +: 8]),
        .dbg_cnt_par_err_o   (dbg_l_cnt_par_err_o[p*16 +: 16]),
        .dbg_cnt_esc_err_o   (dbg_l_cnt_esc_err_o[p*16 +: 16]),
        .dbg_cnt_disc_err_o  (dbg_l_cnt_disc_err_o[p*16 +: 16]),
        .dbg_cnt_cred_err_o  (dbg_l_cnt_cred_err_o[p*16 +: 16]),
        .dbg_cnt_proto_err_o (dbg_l_cnt_proto_err_o[p*16 +: 16]),
        .dbg_cnt_tmo_err_o   (dbg_l_cnt_tmo_err_o[p*16 +: 16]),
        .dbg_tx_tmr_o        (dbg_l_tx_tmr_o[p*8 +: 8]),
        .dbg_tx_d_o          (dbg_l_tx_d_o[p]),
        .dbg_tx_s_o          (dbg_l_tx_s_o[p]),
        .dbg_tx_sr_o         (dbg_l_tx_sr_o[p*9 +: 9]),
        .dbg_tx_len_o        (dbg_l_tx_len_o[p*4 +: 4]),
        .dbg_tx_par_o        (dbg_l_tx_par_o[p]),
        .dbg_tx_open_o       (dbg_l_tx_open_o[p]),
        .dbg_tx_spill_o      (dbg_l_tx_spill_o[p]),
        .dbg_cnt_tx_spill_o  (dbg_l_cnt_tx_spill_o[p*16 +: 16]),
        .dbg_rx_x_o          (dbg_l_rx_x_o[p]),
        .dbg_rx_dc_o         (dbg_l_rx_dc_o[p*8 +: 8]),
        .dbg_rx_seen_o       (dbg_l_rx_seen_o[p]),
        .dbg_rx_sync_o       (dbg_l_rx_sync_o[p]),
        .dbg_rx_sr_o         (dbg_l_rx_sr_o[p*8 +: 8]),
        .dbg_rx_cnt_o        (dbg_l_rx_cnt_o[p*4 +: 4]),
        .dbg_rx_pbit_o       (dbg_l_rx_pbit_o[p]),
        .dbg_rx_flag_o       (dbg_l_rx_flag_o[p]),
        .dbg_rx_par_o        (dbg_l_rx_par_o[p]),
        .dbg_rx_pend_v_o     (dbg_l_rx_pend_v_o[p]),
        .dbg_rx_pend_f_o     (dbg_l_rx_pend_f_o[p]),
        .dbg_rx_pend_val_o   (dbg_l_rx_pend_val_o[p*8 +: 8]),
        .dbg_rx_esc_o        (dbg_l_rx_esc_o[p]),
        .dbg_rx_open_o       (dbg_l_rx_open_o[p]),
        .dbg_cnt_rx_cut_o    (dbg_l_cnt_rx_cut_o[p*16 +: 16]),
        .dbg_txf_wptr_o      (dbg_l_txf_wptr_o[p*8 +: 8]),
        .dbg_txf_rptr_o      (dbg_l_txf_rptr_o[p*8 +: 8]),
        .dbg_txf_cnt_o       (dbg_l_txf_cnt_o[p*8 +: 8]),
        .dbg_rxf_wptr_o      (dbg_l_rxf_wptr_o[p*8 +: 8]),
        .dbg_rxf_rptr_o      (dbg_l_rxf_rptr_o[p*8 +: 8]),
        .dbg_rxf_cnt_o       (dbg_l_rxf_cnt_o[p*8 +: 8])
      );
      // A bit-level port ignores the token pins and drives the token outputs to 0 (§14).
      assign tok_rx_ready_o[p]       = 1'b0;
      assign tok_tx_valid_o[p]       = 1'b0;
      assign tok_tx_data_o[p*8 +: 8] = 8'd0;
      assign tok_tx_kind_o[p*2 +: 2] = 2'd0;
      logic unused_tok;
      assign unused_tok = ^{tok_rx_valid_i[p], tok_rx_data_i[p*8 +: 8], tok_rx_kind_i[p*2 +: 2],
                            tok_tx_ready_i[p]};
    end
  end

  // ---- Configuration (§7) ----------------------------------------------------------------------
  logic [31:0]     seed_we;
  logic [15:0]     seed;
  logic [31:0]     live;
  logic [32*5-1:0] eldr;
  logic [32*5-1:0] ldr;

  c104_cfg u_cfg (
    .clk_i,
    .rst_ni,
    .cfg_we_i,
    .cfg_addr_i,
    .cfg_wdata_i,
    .cfg_port_o (dbg_cfg_port_o),
    .cfg_rlo_o  (dbg_cfg_rlo_o),
    .cfg_rhi_o  (dbg_cfg_rhi_o),
    .seed_we_o  (seed_we),
    .seed_o     (seed),
    .cfg_ihi_o  (dbg_cfg_ihi_o),
    .cfg_iport_o(dbg_cfg_iport_o),
    .cfg_ival_o (dbg_cfg_ival_o),
    .cfg_nint_o (dbg_cfg_nint_o),
    .cfg_rr_o   (dbg_cfg_rr_o),
    .cfg_grp_o  (dbg_cfg_grp_o),
    .live_o     (live),
    .eldr_o     (eldr),
    .ldr_o      (ldr)
  );

  // ---- Slices (§9) -----------------------------------------------------------------------------
  logic [31:0]     s_cand, s_enter, s_gnt;
  logic [32*5-1:0] s_gnt_port;
  logic [31:0]     s_drv, s_tx_valid;
  logic [32*5-1:0] s_drv_port;
  logic [32*8-1:0] s_tx_data;
  logic [32*2-1:0] s_tx_kind;

  for (genvar i = 0; i < 32; i++) begin : g_slice
    c104_slice u_slice (
      .clk_i,
      .rst_ni,
      .rx_valid_i (u_rx_valid[i]),
      .rx_data_i  (u_rx_data[i*8 +: 8]),
      .rx_kind_i  (u_rx_kind[i*2 +: 2]),
      .rx_ready_o (u_rx_ready[i]),
      .cfg_port_i (dbg_cfg_port_o[i*4 +: 4]),
      .cfg_rlo_i  (dbg_cfg_rlo_o[i*16 +: 16]),
      .cfg_rhi_i  (dbg_cfg_rhi_o[i*16 +: 16]),
      .seed_we_i  (seed_we[i]),
      .seed_i     (seed),
      .ihi_i      (dbg_cfg_ihi_o),
      .ival_i     (dbg_cfg_ival_o),
      .live_i     (live),
      .eldr_i     (eldr),
      .cand_o     (s_cand[i]),
      .enter_o    (s_enter[i]),
      .gnt_i      (s_gnt[i]),
      .gnt_port_i (s_gnt_port[i*5 +: 5]),
      .tx_ready_i (u_tx_ready),
      .drv_o      (s_drv[i]),
      .drv_port_o (s_drv_port[i*5 +: 5]),
      .tx_valid_o (s_tx_valid[i]),
      .tx_data_o  (s_tx_data[i*8 +: 8]),
      .tx_kind_o  (s_tx_kind[i*2 +: 2]),
      .sl_st_o    (dbg_sl_st_o[i*3 +: 3]),
      .sl_hcnt_o  (dbg_sl_hcnt_o[i]),
      .sl_skip_o  (dbg_sl_skip_o[i]),
      .sl_hdr_o   (dbg_sl_hdr_o[i*16 +: 16]),
      .sl_ecnt_o  (dbg_sl_ecnt_o[i*2 +: 2]),
      .sl_grp_o   (dbg_sl_grp_o[i*5 +: 5]),
      .sl_port_o  (dbg_sl_port_o[i*5 +: 5]),
      .lfsr_o     (dbg_lfsr_o[i*16 +: 16]),
      .cnt_pkt_o  (dbg_cnt_pkt_o[i*16 +: 16]),
      .cnt_bad_o  (dbg_cnt_bad_o[i*16 +: 16]),
      .cnt_short_o(dbg_cnt_short_o[i*16 +: 16]),
      .cnt_cut_o  (dbg_cnt_cut_o[i*16 +: 16]),
      .cnt_stray_o(dbg_cnt_stray_o[i*16 +: 16])
    );
  end

  // ---- Arbitration and ownership (§10) ---------------------------------------------------------
  logic [31:0]     o_gnt, rel;
  logic [32*5-1:0] o_win;

  c104_arb u_arb (
    .clk_i,
    .rst_ni,
    .cand_i     (s_cand),
    .enter_i    (s_enter),
    .sl_grp_i   (dbg_sl_grp_o),
    .ldr_i      (ldr),
    .cfg_rr_i   (dbg_cfg_rr_o),
    .rel_i      (rel),
    .gnt_o      (s_gnt),
    .gnt_port_o (s_gnt_port),
    .ogn_o      (o_gnt),
    .owin_o     (o_win),
    .out_busy_o (dbg_out_busy_o),
    .out_owner_o(dbg_out_owner_o),
    .age_o      (dbg_age_o),
    .rr_o       (dbg_rr_o)
  );

  // ---- Crossbar (§5, S9, §10.4) ----------------------------------------------------------------
  // Output o carries the token of the slice that owns it, or is granted it in this cycle; that
  // slice must be driving o (S9), else the output is idle. Byte and kind are 0 while not valid
  // (§6). rel[o]: an end token moves to o, which only a slice in FWD sends (S6).
  logic [4:0] src;
  logic       src_on;

  always_comb begin
    for (int unsigned o = 0; o < 32; o++) begin
      src    = o_gnt[o] ? o_win[o*5 +: 5] : dbg_out_owner_o[o*5 +: 5];
      src_on = (dbg_out_busy_o[o] || o_gnt[o]) && s_drv[src] &&
               (s_drv_port[src*5 +: 5] == 5'(o));
      u_tx_valid[o]       = src_on && s_tx_valid[src];
      u_tx_data[o*8 +: 8] = u_tx_valid[o] ? s_tx_data[src*8 +: 8] : 8'd0;
      u_tx_kind[o*2 +: 2] = u_tx_valid[o] ? s_tx_kind[src*2 +: 2] : KindData;
    end
  end

  always_comb begin
    for (int unsigned o = 0; o < 32; o++) begin
      rel[o] = u_tx_valid[o] && u_tx_ready[o] && (u_tx_kind[o*2 +: 2] != KindData);
    end
  end

endmodule
