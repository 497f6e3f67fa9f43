// DS-Link link state machine, flow-control credit counters and error counters (docs/dslink.md §4).
// link_rst_o is derived from the next state so every link-reset register clears on entry.
module dslink_fsm #(
  parameter int unsigned TxCreditMax   = 32,
  parameter int unsigned ResetCycles   = 64,
  parameter int unsigned WaitCycles    = 128,
  parameter int unsigned TimeoutCycles = 128
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        link_en_i,
  // receiver events of this cycle (already 0 in ErrorReset)
  input  logic        fct_ev_i,
  input  logic        nchar_ev_i,
  input  logic        par_err_i,
  input  logic        esc_err_i,
  input  logic        disc_err_i,
  input  logic        nchar_acc_i,
  input  logic        rx_sync_i,
  // transmitter events of this cycle
  input  logic        abort_i,
  input  logic        fct_load_i,
  input  logic        ntok_load_i,
  output logic        link_rst_o,
  output logic [2:0]  fsm_state_o,
  output logic [15:0] fsm_tmr_o,
  output logic [7:0]  tx_credit_o,
  output logic [7:0]  rx_credit_o,
  output logic [15:0] cnt_par_err_o,
  output logic [15:0] cnt_esc_err_o,
  output logic [15:0] cnt_disc_err_o,
  output logic [15:0] cnt_cred_err_o,
  output logic [15:0] cnt_proto_err_o,
  output logic [15:0] cnt_tmo_err_o
);

  typedef enum logic [2:0] {
    ErrorReset = 3'd0,
    ErrorWait  = 3'd1,
    Ready      = 3'd2,
    Started    = 3'd3,
    Connecting = 3'd4,
    Run        = 3'd5
  } fsm_state_e;

  fsm_state_e  fsm_state_d, fsm_state_q;
  logic [15:0] fsm_tmr_d, fsm_tmr_q;
  logic [7:0]  tx_credit_d, tx_credit_q;
  logic [7:0]  rx_credit_d, rx_credit_q;
  logic [15:0] cnt_par_err_d, cnt_par_err_q;
  logic [15:0] cnt_esc_err_d, cnt_esc_err_q;
  logic [15:0] cnt_disc_err_d, cnt_disc_err_q;
  logic [15:0] cnt_cred_err_d, cnt_cred_err_q;
  logic [15:0] cnt_proto_err_d, cnt_proto_err_q;
  logic [15:0] cnt_tmo_err_d, cnt_tmo_err_q;

  logic rx_err, fct_credited, cred_err_fct, cred_err_nchar, proto_err, tmo;
  logic reset_end, wait_end, timeout_end;
  logic link_rst;

  // Compared at 32 bits so the parameters need no truncation.
  assign reset_end   = ({16'b0, fsm_tmr_q} == ResetCycles - 1);
  assign wait_end    = ({16'b0, fsm_tmr_q} == WaitCycles - 1);
  assign timeout_end = ({16'b0, fsm_tmr_q} == TimeoutCycles - 1);

  // State, timer and error counters: independent of the transmitter's load decision, which itself
  // depends on link_rst, so this block must not read fct_load_i / ntok_load_i.
  always_comb begin
    rx_err         = par_err_i | esc_err_i | disc_err_i;
    fct_credited   = fct_ev_i && (fsm_state_q == Connecting || fsm_state_q == Run);
    cred_err_fct   = fct_credited && ({24'b0, tx_credit_q} + 32'd8 > TxCreditMax);
    cred_err_nchar = nchar_ev_i && fsm_state_q == Run && rx_credit_q == 8'd0;
    proto_err      = (fct_ev_i && (fsm_state_q == ErrorWait || fsm_state_q == Ready ||
                                   fsm_state_q == Started)) ||
                     (nchar_ev_i && (fsm_state_q == ErrorWait || fsm_state_q == Ready ||
                                     fsm_state_q == Started || fsm_state_q == Connecting));
    tmo            = 1'b0;
    fsm_state_d    = fsm_state_q;
    fsm_tmr_d      = 16'd0;

    unique case (fsm_state_q)
      ErrorReset: begin
        if (reset_end) begin
          fsm_state_d = ErrorWait;
        end
      end
      ErrorWait: begin
        if (rx_err || proto_err) begin
          fsm_state_d = ErrorReset;
        end else if (wait_end) begin
          fsm_state_d = Ready;
        end
      end
      Ready: begin
        if (rx_err || proto_err) begin
          fsm_state_d = ErrorReset;
        end else if (link_en_i) begin
          fsm_state_d = Started;
        end
      end
      Started: begin
        if (rx_err || proto_err || !link_en_i) begin
          fsm_state_d = ErrorReset;
        end else if (rx_sync_i) begin
          fsm_state_d = Connecting;
        end else if (timeout_end) begin
          fsm_state_d = ErrorReset;
          tmo         = 1'b1;
        end
      end
      Connecting: begin
        if (rx_err || proto_err || cred_err_fct || !link_en_i) begin
          fsm_state_d = ErrorReset;
        end else if (fct_ev_i) begin
          fsm_state_d = Run;
        end else if (timeout_end) begin
          fsm_state_d = ErrorReset;
          tmo         = 1'b1;
        end
      end
      Run: begin
        if (rx_err || cred_err_fct || cred_err_nchar || !link_en_i || abort_i) begin
          fsm_state_d = ErrorReset;
        end
      end
      default: begin
        fsm_state_d = ErrorReset;
      end
    endcase

    // The timer counts only in the states with a time limit, and restarts on every change.
    if (fsm_state_d == fsm_state_q && (fsm_state_q == ErrorReset || fsm_state_q == ErrorWait ||
                                       fsm_state_q == Started || fsm_state_q == Connecting)) begin
      fsm_tmr_d = fsm_tmr_q + 16'd1;
    end

    link_rst = (fsm_state_d == ErrorReset);

    cnt_par_err_d   = cnt_par_err_q + {15'b0, par_err_i};
    cnt_esc_err_d   = cnt_esc_err_q + {15'b0, esc_err_i};
    cnt_disc_err_d  = cnt_disc_err_q + {15'b0, disc_err_i};
    cnt_cred_err_d  = cnt_cred_err_q + {15'b0, cred_err_fct | cred_err_nchar};
    cnt_proto_err_d = cnt_proto_err_q + {15'b0, proto_err};
    cnt_tmo_err_d   = cnt_tmo_err_q + {15'b0, tmo};
  end

  // Credits: in the cycle of a credit error link_rst is set, so the sums never wrap.
  always_comb begin
    tx_credit_d = tx_credit_q;
    rx_credit_d = rx_credit_q;
    if (link_rst) begin
      tx_credit_d = 8'd0;
      rx_credit_d = 8'd0;
    end else begin
      tx_credit_d = tx_credit_q + (fct_credited ? 8'd8 : 8'd0) - {7'b0, ntok_load_i};
      rx_credit_d = rx_credit_q + (fct_load_i ? 8'd8 : 8'd0) - {7'b0, nchar_acc_i};
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fsm_state_q     <= ErrorReset;
      fsm_tmr_q       <= 16'd0;
      tx_credit_q     <= 8'd0;
      rx_credit_q     <= 8'd0;
      cnt_par_err_q   <= 16'd0;
      cnt_esc_err_q   <= 16'd0;
      cnt_disc_err_q  <= 16'd0;
      cnt_cred_err_q  <= 16'd0;
      cnt_proto_err_q <= 16'd0;
      cnt_tmo_err_q   <= 16'd0;
    end else begin
      fsm_state_q     <= fsm_state_d;
      fsm_tmr_q       <= fsm_tmr_d;
      tx_credit_q     <= tx_credit_d;
      rx_credit_q     <= rx_credit_d;
      cnt_par_err_q   <= cnt_par_err_d;
      cnt_esc_err_q   <= cnt_esc_err_d;
      cnt_disc_err_q  <= cnt_disc_err_d;
      cnt_cred_err_q  <= cnt_cred_err_d;
      cnt_proto_err_q <= cnt_proto_err_d;
      cnt_tmo_err_q   <= cnt_tmo_err_d;
    end
  end

  assign link_rst_o      = link_rst;
  assign fsm_state_o     = fsm_state_q;
  assign fsm_tmr_o       = fsm_tmr_q;
  assign tx_credit_o     = tx_credit_q;
  assign rx_credit_o     = rx_credit_q;
  assign cnt_par_err_o   = cnt_par_err_q;
  assign cnt_esc_err_o   = cnt_esc_err_q;
  assign cnt_disc_err_o  = cnt_disc_err_q;
  assign cnt_cred_err_o  = cnt_cred_err_q;
  assign cnt_proto_err_o = cnt_proto_err_q;
  assign cnt_tmo_err_o   = cnt_tmo_err_q;

endmodule
