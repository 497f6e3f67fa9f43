// DS-Link transmitter (docs/dslink.md §5): picks FCT / head token / NULL at each token boundary,
// shifts it out with odd parity as D/S, and drops or aborts packets cut by a link reset.
module dslink_tx #(
  parameter int unsigned BitPeriod = 1,
  parameter int unsigned RxDepth   = 32
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [2:0]  fsm_state_i,
  input  logic        link_rst_i,
  input  logic [7:0]  tx_credit_i,
  input  logic [7:0]  rx_credit_i,
  input  logic [7:0]  rxf_cnt_i,
  input  logic [7:0]  txf_cnt_i,
  input  logic [9:0]  txf_head_i,
  // events of this cycle
  output logic        abort_o,
  output logic        fct_load_o,
  output logic        ntok_load_o,
  output logic        txf_pop_o,
  // architectural registers
  output logic [7:0]  tx_tmr_o,
  output logic        tx_d_o,
  output logic        tx_s_o,
  output logic [8:0]  tx_sr_o,
  output logic [3:0]  tx_len_o,
  output logic        tx_par_o,
  output logic        tx_open_o,
  output logic        tx_spill_o,
  output logic [15:0] cnt_tx_spill_o
);

  // Link states used here (the state machine itself lives in dslink_fsm).
  localparam logic [2:0] StStarted    = 3'd3;
  localparam logic [2:0] StConnecting = 3'd4;
  localparam logic [2:0] StRun        = 3'd5;

  localparam logic [1:0] KindData = 2'd0;
  localparam logic [1:0] KindErr  = 2'd3;

  localparam int unsigned BitLast = BitPeriod - 1;

  // Unit chosen at a token boundary.
  localparam logic [1:0] UnitNull  = 2'd0;
  localparam logic [1:0] UnitFct   = 2'd1;
  localparam logic [1:0] UnitHead  = 2'd2;
  localparam logic [1:0] UnitAbort = 2'd3;

  logic [7:0]  tx_tmr_d, tx_tmr_q;
  logic        tx_d_d, tx_d_q;
  logic        tx_s_d, tx_s_q;
  logic [8:0]  tx_sr_d, tx_sr_q;
  logic [3:0]  tx_len_d, tx_len_q;
  logic        tx_par_d, tx_par_q;
  logic        tx_open_d, tx_open_q;
  logic        tx_spill_d, tx_spill_q;
  logic [15:0] cnt_tx_spill_d, cnt_tx_spill_q;

  logic       tick, load, tx_on, fct_owed, head_ok, abort;
  logic [1:0] unit;
  logic [1:0] head_kind;
  logic [7:0] head_data;
  logic       go, fct_load, ntok_load, spill_pop;
  logic       tx_bit;

  assign head_kind = txf_head_i[9:8];
  assign head_data = txf_head_i[7:0];

  // Token choice and abort from registers only: the state machine needs abort to compute link_rst.
  always_comb begin
    tick     = (tx_tmr_q == 8'd0);
    load     = tick && (tx_len_q == 4'd0);
    tx_on    = (fsm_state_i == StStarted) || (fsm_state_i == StConnecting) ||
               (fsm_state_i == StRun);
    fct_owed = ({24'b0, rxf_cnt_i} + {24'b0, rx_credit_i} + 32'd8 <= RxDepth);
    head_ok  = !tx_spill_q && (txf_cnt_i != 8'd0);

    unit = UnitNull;
    if (fsm_state_i == StConnecting) begin
      if (fct_owed) begin
        unit = UnitFct;
      end
    end else if (fsm_state_i == StRun) begin
      if (fct_owed) begin
        unit = UnitFct;
      end else if (head_ok && head_kind == KindErr) begin
        unit = UnitAbort;
      end else if (head_ok && tx_credit_i != 8'd0) begin
        unit = UnitHead;
      end
    end

    // Only chosen in Run, where tx_on holds.
    abort = load && (unit == UnitAbort);
  end

  always_comb begin
    tx_tmr_d       = tx_tmr_q;
    tx_d_d         = tx_d_q;
    tx_s_d         = tx_s_q;
    tx_sr_d        = tx_sr_q;
    tx_len_d       = tx_len_q;
    tx_par_d       = tx_par_q;
    tx_open_d      = tx_open_q;
    tx_spill_d     = tx_spill_q;
    cnt_tx_spill_d = cnt_tx_spill_q;
    tx_bit         = 1'b0;

    go        = tx_on && !link_rst_i;
    fct_load  = go && load && (unit == UnitFct);
    ntok_load = go && load && (unit == UnitHead);
    spill_pop = tx_spill_q && (txf_cnt_i != 8'd0);

    if (!go) begin
      // Lines to 0 so the next start begins with a clean NULL (P1 = 0).
      tx_tmr_d = 8'd0;
      tx_d_d   = 1'b0;
      tx_s_d   = 1'b0;
      tx_sr_d  = 9'd0;
      tx_len_d = 4'd0;
      tx_par_d = 1'b0;
    end else if (!tick) begin
      tx_tmr_d = tx_tmr_q - 8'd1;
    end else begin
      tx_tmr_d = BitLast[7:0];
      if (tx_len_q != 4'd0) begin
        tx_bit   = tx_sr_q[0];
        tx_sr_d  = {1'b0, tx_sr_q[8:1]};
        tx_len_d = tx_len_q - 4'd1;
      end else begin
        // An ABORT is never loaded here: it always takes the link to ErrorReset (go == 0).
        unique case (unit)
          UnitFct: begin
            // P 1 0 0
            tx_bit   = tx_par_q;
            tx_sr_d  = 9'b0_0000_0001;
            tx_len_d = 4'd3;
            tx_par_d = 1'b0;
          end
          UnitHead: begin
            if (head_kind == KindData) begin
              // P 0 v0..v7
              tx_bit   = !tx_par_q;
              tx_sr_d  = {head_data, 1'b0};
              tx_len_d = 4'd9;
              tx_par_d = ^head_data;
            end else begin
              // P 1 c1 c0
              tx_bit   = tx_par_q;
              tx_sr_d  = {6'b0, head_kind[0], head_kind[1], 1'b1};
              tx_len_d = 4'd3;
              tx_par_d = head_kind[0] ^ head_kind[1];
            end
          end
          default: begin
            // NULL = ESC then FCT: P1 1 1 1 P2 1 0 0 with P2 = 0
            tx_bit   = tx_par_q;
            tx_sr_d  = 9'b0_0001_0111;
            tx_len_d = 4'd7;
            tx_par_d = 1'b0;
          end
        endcase
      end
      // Exactly one of D and S changes per bit.
      tx_d_d = tx_bit;
      tx_s_d = (tx_bit == tx_d_q) ? !tx_s_q : tx_s_q;
    end

    if (ntok_load) begin
      tx_open_d = (head_kind == KindData);
    end

    // Drop the rest of a cut packet up to and including its end token.
    if (spill_pop && head_kind != KindData) begin
      tx_spill_d = 1'b0;
    end

    if (abort) begin
      tx_open_d = 1'b0;
    end else if (link_rst_i && tx_open_q) begin
      tx_open_d      = 1'b0;
      tx_spill_d     = 1'b1;
      cnt_tx_spill_d = cnt_tx_spill_q + 16'd1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tx_tmr_q       <= 8'd0;
      tx_d_q         <= 1'b0;
      tx_s_q         <= 1'b0;
      tx_sr_q        <= 9'd0;
      tx_len_q       <= 4'd0;
      tx_par_q       <= 1'b0;
      tx_open_q      <= 1'b0;
      tx_spill_q     <= 1'b0;
      cnt_tx_spill_q <= 16'd0;
    end else begin
      tx_tmr_q       <= tx_tmr_d;
      tx_d_q         <= tx_d_d;
      tx_s_q         <= tx_s_d;
      tx_sr_q        <= tx_sr_d;
      tx_len_q       <= tx_len_d;
      tx_par_q       <= tx_par_d;
      tx_open_q      <= tx_open_d;
      tx_spill_q     <= tx_spill_d;
      cnt_tx_spill_q <= cnt_tx_spill_d;
    end
  end

  assign abort_o     = abort;
  assign fct_load_o  = fct_load;
  assign ntok_load_o = ntok_load;
  assign txf_pop_o   = ntok_load || abort || spill_pop;

  assign tx_tmr_o       = tx_tmr_q;
  assign tx_d_o         = tx_d_q;
  assign tx_s_o         = tx_s_q;
  assign tx_sr_o        = tx_sr_q;
  assign tx_len_o       = tx_len_q;
  assign tx_par_o       = tx_par_q;
  assign tx_open_o      = tx_open_q;
  assign tx_spill_o     = tx_spill_q;
  assign cnt_tx_spill_o = cnt_tx_spill_q;

endmodule
