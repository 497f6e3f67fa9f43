// Coverpoints of the C104 input slice (docs/c104.md §9, §11), bound into every `c104_slice`
// instance of the switch; only for the coverage builds (docs/coverage.md). The slice's link end
// is a `dslink`, covered by tb/cov/dslink_cov.sv in the same builds.
// Names: sl_<state>_x_<event>, arb_<mode>_<event>, cnt_<counter>_<value>, bp_<handshake>_<state>.
// Two bind modules in one file (the slice and the arbiter).
/* verilator lint_off DECLFILENAME */
module c104_cov (
  input logic             clk_i,
  input logic [2:0]       sl_st_q,
  input logic             rx_valid_i,
  input logic [1:0]       rx_kind_i,
  input logic             rx_ready_o,
  input logic             tx_valid_o,
  input logic             drv_o,
  input logic             out_ready,
  input logic             draw,
  input logic             hstep,
  input logic             hfirst,
  input logic             skip,
  input logic             hit,
  input logic             withdraw,
  input logic             cand_o,
  input logic             gnt_i,
  input logic             seed_we_i,
  input logic [3:0]       cfg_port_i,
  input logic [15:0]      cfg_rlo_i,
  input logic [15:0]      cfg_rhi_i,
  input logic [31:0]      ival_i,
  input logic [31:0]      live_i,
  input logic [32*16-1:0] ihi_i,
  input logic [1:0]       sl_ecnt_q,
  input logic [15:0]      cnt_pkt_q,
  input logic [15:0]      cnt_bad_q,
  input logic [15:0]      cnt_short_q,
  input logic [15:0]      cnt_cut_q,
  input logic [15:0]      cnt_stray_q
);
  // A configuration write shows at the slice as a change of the settings it reads (c104_cfg
  // registers them): the port's own settings, its random range, the interval table.
  logic [3:0]       port_q;
  logic [31:0]      rng_q;
  logic [31:0]      ival_q, live_q;
  logic [32*16-1:0] ihi_q;
  logic             seen_q;
  always_ff @(posedge clk_i) begin
    port_q <= cfg_port_i;
    rng_q  <= {cfg_rlo_i, cfg_rhi_i};
    ival_q <= ival_i;
    live_q <= live_i;
    ihi_q  <= ihi_i;
    seen_q <= 1'b1;
  end
  logic wr_port, wr_range, wr_table;
  assign wr_port  = seen_q && port_q != cfg_port_i;
  assign wr_range = seen_q && rng_q != {cfg_rlo_i, cfg_rhi_i};
  assign wr_table = seen_q && (ival_q != ival_i || live_q != live_i || ihi_q != ihi_i);

  logic tok_data, tok_end, tok_err;
  assign tok_data = rx_valid_i && rx_kind_i == 2'd0;
  assign tok_end  = rx_valid_i && (rx_kind_i == 2'd1 || rx_kind_i == 2'd2);
  assign tok_err  = rx_valid_i && rx_kind_i == 2'd3;

`define CP(name, e) name: cover property (@(posedge clk_i) (e));
// Every slice state x every token kind, header step, lookup result, grant, configuration write;
// the ERR token is what a link reset of the port delivers (§5), so it stands for the reset here.
`define SL_EVENTS(st, code) \
  `CP(sl_``st``_x_data, sl_st_q == code && tok_data) \
  `CP(sl_``st``_x_end, sl_st_q == code && tok_end) \
  `CP(sl_``st``_x_err_link_reset, sl_st_q == code && tok_err) \
  `CP(sl_``st``_x_draw, sl_st_q == code && draw) \
  `CP(sl_``st``_x_hdr_first, sl_st_q == code && hstep && hfirst) \
  `CP(sl_``st``_x_hdr_skip, sl_st_q == code && hstep && !hfirst && skip) \
  `CP(sl_``st``_x_hit, sl_st_q == code && (draw || (hstep && !hfirst && !skip)) && hit) \
  `CP(sl_``st``_x_miss, sl_st_q == code && (draw || (hstep && !hfirst && !skip)) && !hit) \
  `CP(sl_``st``_x_withdraw, sl_st_q == code && withdraw) \
  `CP(sl_``st``_x_gnt, sl_st_q == code && gnt_i) \
  `CP(sl_``st``_x_cfg_port_wr, sl_st_q == code && wr_port) \
  `CP(sl_``st``_x_cfg_range_wr, sl_st_q == code && wr_range) \
  `CP(sl_``st``_x_cfg_table_wr, sl_st_q == code && wr_table) \
  `CP(sl_``st``_x_seed_wr, sl_st_q == code && seed_we_i)
  `SL_EVENTS(Idle, 3'd0)
  `SL_EVENTS(Hdr, 3'd1)
  `SL_EVENTS(Wait, 3'd2)
  `SL_EVENTS(Emit, 3'd3)
  `SL_EVENTS(Fwd, 3'd4)
  `SL_EVENTS(Disc, 3'd5)
  // Settings that change the header path: two-byte headers, deletion 1 and 2, random headers.
  `CP(sl_cfg_hdr2_lookup, cfg_port_i[0] && hstep && !hfirst)
  `CP(sl_cfg_del1_hit, !cfg_port_i[3] && cfg_port_i[2:1] == 2'd1 && hstep && hit)
  `CP(sl_cfg_del2_skip, !cfg_port_i[3] && cfg_port_i[2:1] == 2'd2 && hstep && skip)
  `CP(sl_cfg_del3_as_0, !cfg_port_i[3] && cfg_port_i[2:1] == 2'd3 && hstep && hit)
  `CP(sl_cfg_rnd_draw_hdr2, cfg_port_i[3] && cfg_port_i[0] && draw)

// Counters at 0, 1, max-1 and max (the header byte count ecnt runs 2, 1, 0).
`define CNT4(name, sig, mx) \
  `CP(cnt_``name``_0, 32'(sig) == 0) \
  `CP(cnt_``name``_1, 32'(sig) == 1) \
  `CP(cnt_``name``_max_m1, 32'(sig) == (mx) - 1) \
  `CP(cnt_``name``_max, 32'(sig) == (mx))
  `CNT4(ecnt, sl_ecnt_q, 2)
  `CNT4(pkt, cnt_pkt_q, 65535)
  `CNT4(bad, cnt_bad_q, 65535)
  `CNT4(short, cnt_short_q, 65535)
  `CNT4(cut, cnt_cut_q, 65535)
  `CNT4(stray, cnt_stray_q, 65535)

// Back-pressure, in every state: the head of the input buffer not taken, a driven output token
// not taken, and a candidate that waits without a grant.
`define BP(st, code) \
  `CP(bp_rx_``st, sl_st_q == code && rx_valid_i && !rx_ready_o) \
  `CP(bp_tx_``st, sl_st_q == code && drv_o && tx_valid_o && !out_ready) \
  `CP(bp_arb_``st, sl_st_q == code && cand_o && !gnt_i)
  `BP(Idle, 3'd0)
  `BP(Hdr, 3'd1)
  `BP(Wait, 3'd2)
  `BP(Emit, 3'd3)
  `BP(Fwd, 3'd4)
  `BP(Disc, 3'd5)
`undef BP
`undef CNT4
`undef CP
`undef SL_EVENTS
endmodule

bind c104_slice c104_cov u_c104_cov (.*);

// Coverpoints of the C104 arbiter (docs/c104.md §10): how many outputs are owned and how many
// slices wait, per arbitration mode, with grants and releases in the same cycle.
module c104_arb_cov (
  input logic        clk_i,
  input logic        cfg_rr_i,
  input logic [31:0] cand_i,
  input logic [31:0] enter_i,
  input logic [31:0] gnt_o,
  input logic [31:0] rel_i,
  input logic [31:0] out_busy_q
);
  logic [5:0] n_busy, n_cand, n_gnt;
  assign n_busy = 6'($countones(out_busy_q));
  assign n_cand = 6'($countones(cand_i));
  assign n_gnt  = 6'($countones(gnt_o));
`define CP(name, e) name: cover property (@(posedge clk_i) (e));
`define MODE(md, rr) \
  `CP(arb_``md``_gnt, cfg_rr_i == rr && gnt_o != 32'd0) \
  `CP(arb_``md``_two_gnt, cfg_rr_i == rr && n_gnt >= 6'd2) \
  `CP(arb_``md``_gnt_x_rel, cfg_rr_i == rr && gnt_o != 32'd0 && rel_i != 32'd0) \
  `CP(arb_``md``_enter_x_gnt, cfg_rr_i == rr && (enter_i & gnt_o) != 32'd0) \
  `CP(bp_arb_``md``_cand_not_gnt, cfg_rr_i == rr && (cand_i & ~gnt_o) != 32'd0) \
  `CP(bp_arb_``md``_two_wait, cfg_rr_i == rr && n_cand >= 6'd2 && n_gnt == 6'd0)
  `MODE(fifo, 1'b0)
  `MODE(rr, 1'b1)
  // The owned outputs (a counter of 0 .. 32) and the waiting slices.
  `CP(cnt_out_busy_0, n_busy == 6'd0)
  `CP(cnt_out_busy_1, n_busy == 6'd1)
  `CP(cnt_out_busy_max_m1, n_busy == 6'd31)
  `CP(cnt_out_busy_max, n_busy == 6'd32)
  `CP(cnt_cand_0, n_cand == 6'd0)
  `CP(cnt_cand_1, n_cand == 6'd1)
  `CP(cnt_cand_max_m1, n_cand == 6'd31)
  `CP(cnt_cand_max, n_cand == 6'd32)
`undef MODE
`undef CP
endmodule

bind c104_arb c104_arb_cov u_c104_arb_cov (.*);
