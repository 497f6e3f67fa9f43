// DS-Link receiver (docs/dslink.md §6): D/S bit recovery, disconnect detection, NULL sync,
// token framing with parity confirmation one token late, and the writes into the receive FIFO.
module dslink_rx #(
  parameter int unsigned DisconnectCycles = 8
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        d_i,
  input  logic        s_i,
  input  logic [2:0]  fsm_state_i,
  input  logic        link_rst_i,
  input  logic [7:0]  rx_credit_i,
  // events of this cycle, for the link state machine
  output logic        fct_ev_o,
  output logic        nchar_ev_o,
  output logic        par_err_o,
  output logic        esc_err_o,
  output logic        disc_err_o,
  output logic        nchar_acc_o,
  // receive FIFO write port ({kind, byte})
  output logic        rxf_wr_o,
  output logic [9:0]  rxf_wdata_o,
  // architectural registers
  output logic        rx_x_o,
  output logic [7:0]  rx_dc_o,
  output logic        rx_seen_o,
  output logic        rx_sync_o,
  output logic [7:0]  rx_sr_o,
  output logic [3:0]  rx_cnt_o,
  output logic        rx_pbit_o,
  output logic        rx_flag_o,
  output logic        rx_par_o,
  output logic        rx_pend_v_o,
  output logic        rx_pend_f_o,
  output logic [7:0]  rx_pend_val_o,
  output logic        rx_esc_o,
  output logic        rx_open_o,
  output logic [15:0] cnt_rx_cut_o
);

  // Link states used here (the state machine itself lives in dslink_fsm).
  localparam logic [2:0] StErrorReset = 3'd0;
  localparam logic [2:0] StRun        = 3'd5;

  localparam logic [1:0] KindData = 2'd0;
  localparam logic [1:0] KindErr  = 2'd3;

  localparam logic [1:0] CodeFct = 2'd0;
  localparam logic [1:0] CodeEsc = 2'd3;

  // First NULL after a link reset (P1 = 0), oldest bit in bit 0.
  localparam logic [7:0] NullPattern = 8'h2E;

  logic        rx_x_d, rx_x_q;
  logic [7:0]  rx_dc_d, rx_dc_q;
  logic        rx_seen_d, rx_seen_q;
  logic        rx_sync_d, rx_sync_q;
  logic [7:0]  rx_sr_d, rx_sr_q;
  logic [3:0]  rx_cnt_d, rx_cnt_q;
  logic        rx_pbit_d, rx_pbit_q;
  logic        rx_flag_d, rx_flag_q;
  logic        rx_par_d, rx_par_q;
  logic        rx_pend_v_d, rx_pend_v_q;
  logic        rx_pend_f_d, rx_pend_f_q;
  logic [7:0]  rx_pend_val_d, rx_pend_val_q;
  logic        rx_esc_d, rx_esc_q;
  logic        rx_open_d, rx_open_q;
  logic [15:0] cnt_rx_cut_d, cnt_rx_cut_q;

  logic       bit_ev, rx_bit, par_ok, check, confirm, tok_done;
  logic [7:0] sr_shift;
  logic       pend_fct, pend_esc;
  logic       ev_en, fct_ev, nchar_ev, par_err, esc_err, disc_err;
  logic [1:0] nchar_kind;
  logic [7:0] nchar_byte;
  logic       rx_rst, nchar_acc;

  // Bit recovery and events: registers and d_i/s_i only, never link_rst, because link_rst is
  // computed from these events.
  always_comb begin
    bit_ev   = (d_i ^ s_i) != rx_x_q;
    rx_bit   = d_i;
    sr_shift = {rx_bit, rx_sr_q[7:1]};
    // Odd parity over the previous payload, this P bit and this F bit.
    par_ok   = rx_pbit_q ^ rx_bit ^ rx_par_q;
    check    = bit_ev && rx_sync_q && rx_cnt_q == 4'd1;
    confirm  = check && par_ok && rx_pend_v_q;
    tok_done = (rx_flag_q && rx_cnt_q == 4'd3) || (!rx_flag_q && rx_cnt_q == 4'd9);

    pend_fct = rx_pend_f_q && rx_pend_val_q[1:0] == CodeFct;
    pend_esc = rx_pend_f_q && rx_pend_val_q[1:0] == CodeEsc;

    nchar_kind = rx_pend_f_q ? rx_pend_val_q[1:0] : KindData;
    nchar_byte = rx_pend_f_q ? 8'd0 : rx_pend_val_q;

    ev_en    = fsm_state_i != StErrorReset;
    par_err  = ev_en && check && !par_ok;
    // After an ESC only an FCT (completing a NULL) is legal; the escaped token is not acted on.
    esc_err  = ev_en && confirm && rx_esc_q && !pend_fct;
    fct_ev   = ev_en && confirm && !rx_esc_q && pend_fct;
    nchar_ev = ev_en && confirm && !rx_esc_q && !pend_fct && !pend_esc;
    disc_err = ev_en && rx_seen_q && !bit_ev &&
               ({24'b0, rx_dc_q} == DisconnectCycles - 1);
  end

  always_comb begin
    rx_x_d        = d_i ^ s_i;
    rx_dc_d       = rx_dc_q;
    rx_seen_d     = rx_seen_q;
    rx_sync_d     = rx_sync_q;
    rx_sr_d       = rx_sr_q;
    rx_cnt_d      = rx_cnt_q;
    rx_pbit_d     = rx_pbit_q;
    rx_flag_d     = rx_flag_q;
    rx_par_d      = rx_par_q;
    rx_pend_v_d   = rx_pend_v_q;
    rx_pend_f_d   = rx_pend_f_q;
    rx_pend_val_d = rx_pend_val_q;
    rx_esc_d      = rx_esc_q;
    rx_open_d     = rx_open_q;
    cnt_rx_cut_d  = cnt_rx_cut_q;
    rxf_wr_o      = 1'b0;
    rxf_wdata_o   = 10'd0;

    rx_rst    = (fsm_state_i == StErrorReset) || link_rst_i;
    nchar_acc = nchar_ev && fsm_state_i == StRun && rx_credit_i != 8'd0 && !link_rst_i;

    // Packet-level: acceptance needs !link_rst, so it never coincides with the ERR marker.
    if (nchar_acc) begin
      rxf_wr_o    = 1'b1;
      rxf_wdata_o = {nchar_kind, nchar_byte};
      rx_open_d   = (nchar_kind == KindData);
    end else if (link_rst_i && rx_open_q) begin
      rxf_wr_o     = 1'b1;
      rxf_wdata_o  = {KindErr, 8'd0};
      rx_open_d    = 1'b0;
      cnt_rx_cut_d = cnt_rx_cut_q + 16'd1;
    end

    if (rx_rst) begin
      rx_dc_d       = 8'd0;
      rx_seen_d     = 1'b0;
      rx_sync_d     = 1'b0;
      rx_sr_d       = 8'd0;
      rx_cnt_d      = 4'd0;
      rx_pbit_d     = 1'b0;
      rx_flag_d     = 1'b0;
      rx_par_d      = 1'b0;
      rx_pend_v_d   = 1'b0;
      rx_pend_f_d   = 1'b0;
      rx_pend_val_d = 8'd0;
      rx_esc_d      = 1'b0;
    end else begin
      rx_seen_d = rx_seen_q | bit_ev;
      if (bit_ev) begin
        rx_dc_d = 8'd0;
      end else if (rx_seen_q && rx_dc_q != 8'hFF) begin
        rx_dc_d = rx_dc_q + 8'd1;
      end

      if (bit_ev && !rx_sync_q) begin
        rx_sr_d = sr_shift;
        if (sr_shift == NullPattern) begin
          rx_sync_d = 1'b1;
        end
      end else if (bit_ev) begin
        unique case (rx_cnt_q)
          4'd0: begin
            rx_pbit_d = rx_bit;
            rx_cnt_d  = 4'd1;
          end
          4'd1: begin
            rx_flag_d = rx_bit;
            rx_cnt_d  = 4'd2;
            // Confirmed or, on a parity error, dropped: either way nothing is pending any more.
            rx_pend_v_d = 1'b0;
            if (confirm) begin
              if (rx_esc_q) begin
                rx_esc_d = 1'b0;
              end else if (pend_esc) begin
                rx_esc_d = 1'b1;
              end
            end
          end
          default: begin
            rx_sr_d = sr_shift;
            if (tok_done) begin
              rx_pend_v_d = 1'b1;
              rx_pend_f_d = rx_flag_q;
              rx_cnt_d    = 4'd0;
              if (rx_flag_q) begin
                rx_pend_val_d = {6'b0, sr_shift[6], sr_shift[7]};
                rx_par_d      = sr_shift[6] ^ sr_shift[7];
              end else begin
                rx_pend_val_d = sr_shift;
                rx_par_d      = ^sr_shift;
              end
            end else begin
              rx_cnt_d = rx_cnt_q + 4'd1;
            end
          end
        endcase
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rx_x_q        <= 1'b0;
      rx_dc_q       <= 8'd0;
      rx_seen_q     <= 1'b0;
      rx_sync_q     <= 1'b0;
      rx_sr_q       <= 8'd0;
      rx_cnt_q      <= 4'd0;
      rx_pbit_q     <= 1'b0;
      rx_flag_q     <= 1'b0;
      rx_par_q      <= 1'b0;
      rx_pend_v_q   <= 1'b0;
      rx_pend_f_q   <= 1'b0;
      rx_pend_val_q <= 8'd0;
      rx_esc_q      <= 1'b0;
      rx_open_q     <= 1'b0;
      cnt_rx_cut_q  <= 16'd0;
    end else begin
      rx_x_q        <= rx_x_d;
      rx_dc_q       <= rx_dc_d;
      rx_seen_q     <= rx_seen_d;
      rx_sync_q     <= rx_sync_d;
      rx_sr_q       <= rx_sr_d;
      rx_cnt_q      <= rx_cnt_d;
      rx_pbit_q     <= rx_pbit_d;
      rx_flag_q     <= rx_flag_d;
      rx_par_q      <= rx_par_d;
      rx_pend_v_q   <= rx_pend_v_d;
      rx_pend_f_q   <= rx_pend_f_d;
      rx_pend_val_q <= rx_pend_val_d;
      rx_esc_q      <= rx_esc_d;
      rx_open_q     <= rx_open_d;
      cnt_rx_cut_q  <= cnt_rx_cut_d;
    end
  end

  assign fct_ev_o      = fct_ev;
  assign nchar_ev_o    = nchar_ev;
  assign par_err_o     = par_err;
  assign esc_err_o     = esc_err;
  assign disc_err_o    = disc_err;
  assign nchar_acc_o   = nchar_acc;

  assign rx_x_o        = rx_x_q;
  assign rx_dc_o       = rx_dc_q;
  assign rx_seen_o     = rx_seen_q;
  assign rx_sync_o     = rx_sync_q;
  assign rx_sr_o       = rx_sr_q;
  assign rx_cnt_o      = rx_cnt_q;
  assign rx_pbit_o     = rx_pbit_q;
  assign rx_flag_o     = rx_flag_q;
  assign rx_par_o      = rx_par_q;
  assign rx_pend_v_o   = rx_pend_v_q;
  assign rx_pend_f_o   = rx_pend_f_q;
  assign rx_pend_val_o = rx_pend_val_q;
  assign rx_esc_o      = rx_esc_q;
  assign rx_open_o     = rx_open_q;
  assign cnt_rx_cut_o  = cnt_rx_cut_q;

endmodule
