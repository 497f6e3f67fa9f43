// C104 input slice (docs/c104.md §9, §11): for one input port, header collection, interval lookup,
// request, header emission, wormhole forwarding and discard, and the port's random header LFSR.
module c104_slice (
  input  logic             clk_i,
  input  logic             rst_ni,
  // Head of the port's input buffer and its pop (the §5 port interface u_rx_*).
  input  logic             rx_valid_i,
  input  logic [7:0]       rx_data_i,
  input  logic [1:0]       rx_kind_i,
  output logic             rx_ready_o,
  // Settings of this input (§7).
  input  logic [3:0]       cfg_port_i,
  input  logic [15:0]      cfg_rlo_i,
  input  logic [15:0]      cfg_rhi_i,
  input  logic             seed_we_i,
  input  logic [15:0]      seed_i,
  // Interval table (§9.1), entry e at [e*w +: w]; live and leader per entry come from c104_cfg.
  input  logic [32*16-1:0] ihi_i,
  input  logic [31:0]      ival_i,
  input  logic [31:0]      live_i,
  input  logic [32*5-1:0]  eldr_i,
  // Arbitration (§10.2, §10.3). cand_o and enter_o do not depend on gnt_i.
  output logic             cand_o,
  output logic             enter_o,
  input  logic             gnt_i,
  input  logic [4:0]       gnt_port_i,
  // Output side (S5, S6, S9): the token this slice drives on output drv_port_o while drv_o.
  input  logic [31:0]      tx_ready_i,
  output logic             drv_o,
  output logic [4:0]       drv_port_o,
  output logic             tx_valid_o,
  output logic [7:0]       tx_data_o,
  output logic [1:0]       tx_kind_o,
  // Architectural registers (§8).
  output logic [2:0]       sl_st_o,
  output logic             sl_hcnt_o,
  output logic             sl_skip_o,
  output logic [15:0]      sl_hdr_o,
  output logic [1:0]       sl_ecnt_o,
  output logic [4:0]       sl_grp_o,
  output logic [4:0]       sl_port_o,
  output logic [15:0]      lfsr_o,
  output logic [15:0]      cnt_pkt_o,
  output logic [15:0]      cnt_bad_o,
  output logic [15:0]      cnt_short_o,
  output logic [15:0]      cnt_cut_o,
  output logic [15:0]      cnt_stray_o
);

  // §8 sl_st; 6 and 7 act as IDLE and become 0 at the next edge (the default branches).
  typedef enum logic [2:0] {
    Idle = 3'd0,
    Hdr  = 3'd1,
    Wait = 3'd2,
    Emit = 3'd3,
    Fwd  = 3'd4,
    Disc = 3'd5
  } sl_st_e;

  localparam logic [1:0] KindData = 2'd0;
  localparam logic [1:0] KindErr  = 2'd3;
  // §11.2: x^16 + x^14 + x^13 + x^11 + 1, Galois form.
  localparam logic [15:0] LfsrTaps = 16'hB400;

  sl_st_e      sl_st_d, sl_st_q;
  logic        sl_hcnt_d, sl_hcnt_q;
  logic        sl_skip_d, sl_skip_q;
  logic [15:0] sl_hdr_d, sl_hdr_q;
  logic [1:0]  sl_ecnt_d, sl_ecnt_q;
  logic [4:0]  sl_grp_d, sl_grp_q;
  logic [4:0]  sl_port_d, sl_port_q;
  logic [15:0] lfsr_d, lfsr_q;
  logic [15:0] cnt_pkt_d, cnt_pkt_q;
  logic [15:0] cnt_bad_d, cnt_bad_q;
  logic [15:0] cnt_short_d, cnt_short_q;
  logic [15:0] cnt_cut_d, cnt_cut_q;
  logic [15:0] cnt_stray_d, cnt_stray_q;

  // ---- Settings (§9 notation) ------------------------------------------------------------------
  logic       hdr2, rnd;
  logic [1:0] del;
  logic [1:0] hlen;

  always_comb begin
    hdr2 = cfg_port_i[0];
    rnd  = cfg_port_i[3];
    // §9: with rnd set del is ignored; del = 3 acts as 0.
    del  = (rnd || cfg_port_i[2:1] == 2'd3) ? 2'd0 : cfg_port_i[2:1];
    hlen = hdr2 ? 2'd2 : 2'd1;
  end

  // ---- Random header (§11.2) -------------------------------------------------------------------
  // n = rhi - rlo + 1 (17 bits); r = rlo + ((lfsr * n) >> 16), which lies in [rlo, rhi] because
  // lfsr < 65536, so bit 32 of the product and the top bit of the shifted value are always 0.
  logic [16:0] rng_n;
  logic [32:0] rng_prod;
  logic [15:0] rnd_hdr;

  always_comb begin
    rng_n    = {1'b0, cfg_rhi_i} - {1'b0, cfg_rlo_i} + 17'd1;
    rng_prod = {17'd0, lfsr_q} * {16'd0, rng_n};
    rnd_hdr  = (cfg_rhi_i < cfg_rlo_i) ? cfg_rlo_i : cfg_rlo_i + rng_prod[31:16];
  end

  logic unused_prod;
  assign unused_prod = ^{rng_prod[32], rng_prod[15:0]};

  // ---- Request side: header step, lookup, withdrawal (S1-S4 conditions, §9.1) ----------------
  // Kept apart from the actions below: the arbiter reads cand_o and enter_o and answers with
  // gnt_i in the same cycle.
  logic        st_idle, tok_data, draw, hstep, hcnt, skip, hfirst, hlook;
  logic [15:0] x;
  logic        found, hit, withdraw;
  logic [4:0]  e_hit;
  logic [4:0]  hit_grp;

  always_comb begin
    st_idle  = !(sl_st_q == Hdr || sl_st_q == Wait || sl_st_q == Emit || sl_st_q == Fwd ||
                 sl_st_q == Disc);
    tok_data = rx_valid_i && (rx_kind_i == KindData);
    // S2: a rnd input draws when a packet's first token is at the head (no pop).
    draw     = st_idle && rnd && tok_data;
    // S3: the header step, from IDLE (hcnt = 0, skip = del == 2) or HDR (the registers).
    hstep    = ((st_idle && !rnd) || sl_st_q == Hdr) && tok_data;
    hcnt     = st_idle ? 1'b0 : sl_hcnt_q;
    skip     = st_idle ? (del == 2'd2) : sl_skip_q;
    // hcnt + 1 < H: the first byte of a 2-byte header.
    hfirst   = hdr2 && !hcnt;
    // A complete header that is routed (not skipped) is looked up in its pop cycle (§9.2).
    hlook    = hstep && !hfirst && !skip;
    // §9.1 byte order: x = {first, second}; a 1-byte header is {8'h00, byte}.
    if (draw) begin
      x = hdr2 ? rnd_hdr : {8'h00, rnd_hdr[7:0]};
    end else begin
      x = hdr2 ? {sl_hdr_q[15:8], rx_data_i} : {8'h00, rx_data_i};
    end

    // §9.1: the lowest-numbered live entry with x <= cfg_ihi[e]; a discard entry misses.
    found = 1'b0;
    e_hit = 5'd0;
    for (int unsigned e = 0; e < 32; e++) begin
      if (!found && live_i[e] && (x <= ihi_i[e*16 +: 16])) begin
        found = 1'b1;
        e_hit = 5'(e);
      end
    end
    hit     = found && ival_i[e_hit];
    hit_grp = eldr_i[e_hit*5 +: 5];

    // §10.2 enter: the lookup hits in this cycle, so the slice is in WAIT after the edge.
    enter_o  = (draw || hlook) && hit;
    // S4 withdrawal: ERR right after a routed header; such a slice is no candidate (A1).
    withdraw = (sl_st_q == Wait) && rx_valid_i && (rx_kind_i == KindErr);
    cand_o   = (sl_st_q == Wait) && !withdraw;
  end

  // ---- Actions and next state (S1-S9) --------------------------------------------------------
  logic       out_ready;
  logic [4:0] out_port;
  logic       do_emit, do_fwd;
  logic       inc_pkt, inc_bad, inc_short, inc_cut, inc_stray;

  always_comb begin
    sl_st_d   = sl_st_q;
    sl_hcnt_d = sl_hcnt_q;
    sl_skip_d = sl_skip_q;
    sl_hdr_d  = sl_hdr_q;
    sl_ecnt_d = sl_ecnt_q;
    sl_grp_d  = sl_grp_q;
    sl_port_d = sl_port_q;
    inc_pkt   = 1'b0;
    inc_bad   = 1'b0;
    inc_short = 1'b0;
    inc_cut   = 1'b0;
    inc_stray = 1'b0;

    rx_ready_o = 1'b0;
    drv_o      = 1'b0;
    tx_valid_o = 1'b0;
    tx_data_o  = 8'd0;
    tx_kind_o  = KindData;

    // The output this slice writes: the one granted in this cycle (S4), else the one it owns.
    out_port  = gnt_i ? gnt_port_i : sl_port_q;
    out_ready = tx_ready_i[out_port];
    do_emit   = 1'b0;
    do_fwd    = 1'b0;

    unique case (sl_st_q)
      Hdr: begin
        if (rx_valid_i && rx_kind_i != KindData) begin
          // S3: the packet ended inside its header (a skipped one included, §12).
          rx_ready_o = 1'b1;
          inc_cut    = (rx_kind_i == KindErr);
          inc_short  = (rx_kind_i != KindErr);
          sl_st_d    = Idle;
        end
      end
      Wait: begin
        if (withdraw) begin
          rx_ready_o = 1'b1;
          inc_cut    = 1'b1;
          sl_st_d    = Idle;
        end else if (gnt_i) begin
          // S4: the grant cycle acts as EMIT or FWD on the granted output f.
          inc_pkt   = 1'b1;
          sl_port_d = gnt_port_i;
          do_emit   = (sl_ecnt_q != 2'd0);
          do_fwd    = (sl_ecnt_q == 2'd0);
        end
      end
      Emit: do_emit = 1'b1;
      Fwd:  do_fwd = 1'b1;
      Disc: begin
        // S7: pop every cycle; the packet's end token ends the discard.
        rx_ready_o = 1'b1;
        if (rx_valid_i && rx_kind_i != KindData) begin
          sl_st_d = Idle;
        end
      end
      default: begin
        // S1, S2 (IDLE, and 6 and 7 acting as IDLE): an end token with no packet open.
        sl_st_d = Idle;
        if (rx_valid_i && rx_kind_i != KindData) begin
          rx_ready_o = 1'b1;
          inc_stray  = 1'b1;
        end else if (draw) begin
          // S2: no pop; the random header is routed on, emitted (H bytes) after the grant.
          if (hit) begin
            sl_hdr_d  = x;
            sl_grp_d  = hit_grp;
            sl_ecnt_d = hlen;
            sl_st_d   = Wait;
          end else begin
            inc_bad = 1'b1;
            sl_st_d = Disc;
          end
        end
      end
    endcase

    // S3 header step (IDLE of a plain input, or HDR), with a DATA token at the head: pop it.
    if (hstep) begin
      rx_ready_o = 1'b1;
      if (hfirst) begin
        sl_hdr_d[15:8] = rx_data_i;
        sl_hcnt_d      = 1'b1;
        sl_skip_d      = skip;
        sl_st_d        = Hdr;
      end else begin
        sl_hcnt_d = 1'b0;
        if (skip) begin
          // del = 2: the first header is dropped and the next one collected (§11.1).
          sl_skip_d = 1'b0;
          sl_st_d   = Hdr;
        end else if (hit) begin
          sl_hdr_d  = x;
          sl_grp_d  = hit_grp;
          // del = 1: routed on and not emitted (§11.1).
          sl_ecnt_d = (del == 2'd1) ? 2'd0 : hlen;
          sl_skip_d = 1'b0;
          sl_st_d   = Wait;
        end else begin
          inc_bad = 1'b1;
          sl_st_d = Disc;
        end
      end
    end

    // S5 EMIT: the header bytes, most significant first.
    if (do_emit) begin
      drv_o      = 1'b1;
      tx_valid_o = 1'b1;
      tx_kind_o  = KindData;
      tx_data_o  = (sl_ecnt_q == 2'd2) ? sl_hdr_q[15:8] : sl_hdr_q[7:0];
      sl_st_d    = Emit;
      if (out_ready) begin
        sl_ecnt_d = sl_ecnt_q - 2'd1;
        if (sl_ecnt_d == 2'd0) begin
          sl_st_d = Fwd;
        end
      end
    end

    // S6 FWD: the input buffer's head goes straight through; an end token releases the output.
    if (do_fwd) begin
      drv_o      = 1'b1;
      tx_valid_o = rx_valid_i;
      tx_data_o  = rx_data_i;
      tx_kind_o  = rx_kind_i;
      rx_ready_o = out_ready;
      sl_st_d    = Fwd;
      if (rx_valid_i && out_ready && rx_kind_i != KindData) begin
        inc_cut = (rx_kind_i == KindErr);
        sl_st_d = Idle;
      end
    end

    // S8: entering IDLE clears the header bookkeeping.
    if (sl_st_d == Idle) begin
      sl_hcnt_d = 1'b0;
      sl_skip_d = 1'b0;
      sl_ecnt_d = 2'd0;
    end

    cnt_pkt_d   = cnt_pkt_q + {15'd0, inc_pkt};
    cnt_bad_d   = cnt_bad_q + {15'd0, inc_bad};
    cnt_short_d = cnt_short_q + {15'd0, inc_short};
    cnt_cut_d   = cnt_cut_q + {15'd0, inc_cut};
    cnt_stray_d = cnt_stray_q + {15'd0, inc_stray};
  end

  assign drv_port_o = out_port;

  // §7: a seed write and a draw at the same edge: the write wins.
  always_comb begin
    lfsr_d = lfsr_q;
    if (seed_we_i) begin
      lfsr_d = seed_i;
    end else if (draw) begin
      lfsr_d = {1'b0, lfsr_q[15:1]} ^ (lfsr_q[0] ? LfsrTaps : 16'h0000);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sl_st_q     <= Idle;
      sl_hcnt_q   <= 1'b0;
      sl_skip_q   <= 1'b0;
      sl_hdr_q    <= 16'd0;
      sl_ecnt_q   <= 2'd0;
      sl_grp_q    <= 5'd0;
      sl_port_q   <= 5'd0;
      lfsr_q      <= 16'hACE1;
      cnt_pkt_q   <= 16'd0;
      cnt_bad_q   <= 16'd0;
      cnt_short_q <= 16'd0;
      cnt_cut_q   <= 16'd0;
      cnt_stray_q <= 16'd0;
    end else begin
      sl_st_q     <= sl_st_d;
      sl_hcnt_q   <= sl_hcnt_d;
      sl_skip_q   <= sl_skip_d;
      sl_hdr_q    <= sl_hdr_d;
      sl_ecnt_q   <= sl_ecnt_d;
      sl_grp_q    <= sl_grp_d;
      sl_port_q   <= sl_port_d;
      lfsr_q      <= lfsr_d;
      cnt_pkt_q   <= cnt_pkt_d;
      cnt_bad_q   <= cnt_bad_d;
      cnt_short_q <= cnt_short_d;
      cnt_cut_q   <= cnt_cut_d;
      cnt_stray_q <= cnt_stray_d;
    end
  end

  assign sl_st_o     = sl_st_q;
  assign sl_hcnt_o   = sl_hcnt_q;
  assign sl_skip_o   = sl_skip_q;
  assign sl_hdr_o    = sl_hdr_q;
  assign sl_ecnt_o   = sl_ecnt_q;
  assign sl_grp_o    = sl_grp_q;
  assign sl_port_o   = sl_port_q;
  assign lfsr_o      = lfsr_q;
  assign cnt_pkt_o   = cnt_pkt_q;
  assign cnt_bad_o   = cnt_bad_q;
  assign cnt_short_o = cnt_short_q;
  assign cnt_cut_o   = cnt_cut_q;
  assign cnt_stray_o = cnt_stray_q;

endmodule
