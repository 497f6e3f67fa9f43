// The DPI-C demonstration and check (docs/dpi.md): the DS-Link RTL as DUT; at the other end of its
// D/S wires the C model through DPI (madpost_dslink_ref, generated); bound into the DUT a C-model
// shadow (madpost_dslink_shadow, generated) fed the DUT's inputs and compared with its outputs and
// registers every cycle. Random traffic both ways, each direction checked token by token against
// what was sent. Fails ($fatal) on any mismatch (the shadow has printed the first ones), a token
// lost or changed, or too little traffic. Plusargs: +cycles=N (1000000), +seed=S (1), +mutant=K
// (tools/mutgen's RTL copies: 0, the default, is the unmutated design).
module dslink_dpi_tb;
  import madpost_dslink_pkg::*;

  localparam int unsigned BitPeriod = 1;
  localparam logic [1:0] KindData = 2'd0, KindEop = 2'd1, KindEom = 2'd2;

  logic clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;

  // Side a: the RTL; side b: the C model. Each side's packet interface.
  logic a_d, a_s, b_d, b_s;
  logic a_tx_valid = 1'b0, a_tx_ready, a_rx_valid, a_rx_ready = 1'b0;
  logic b_tx_valid = 1'b0, b_tx_ready, b_rx_valid, b_rx_ready = 1'b0;
  logic [7:0] a_tx_data = '0, a_rx_data, b_tx_data = '0, b_rx_data;
  logic [1:0] a_tx_kind = '0, a_rx_kind, b_tx_kind = '0, b_rx_kind;
  logic [2:0] a_state, b_state;

  // The DUT's dbg_ ports are left open here: the shadow bound into it reads them by name.
  /* verilator lint_off PINMISSING */
  dslink #(.BitPeriod(BitPeriod)) u_dut (
    .clk_i(clk), .rst_ni(rst_n), .d_i(b_d), .s_i(b_s), .link_en_i(1'b1),
    .tx_valid_i(a_tx_valid), .tx_data_i(a_tx_data), .tx_kind_i(a_tx_kind), .rx_ready_i(a_rx_ready),
    .d_o(a_d), .s_o(a_s), .tx_ready_o(a_tx_ready), .rx_valid_o(a_rx_valid), .rx_data_o(a_rx_data),
    .rx_kind_o(a_rx_kind), .link_state_o(a_state)
  );
  madpost_dslink_ref #(.BitPeriod(BitPeriod)) u_peer (
    .clk_i(clk), .rst_ni(rst_n), .d_i(a_d), .s_i(a_s), .link_en_i(1'b1),
    .tx_valid_i(b_tx_valid), .tx_data_i(b_tx_data), .tx_kind_i(b_tx_kind), .rx_ready_i(b_rx_ready),
    .d_o(b_d), .s_o(b_s), .tx_ready_o(b_tx_ready), .rx_valid_o(b_rx_valid), .rx_data_o(b_rx_data),
    .rx_kind_o(b_rx_kind), .link_state_o(b_state)
  );
  /* verilator lint_on PINMISSING */
  bind dslink madpost_dslink_shadow #(.BitPeriod(BitPeriod)) u_shadow (.*);

  // ---- Traffic: each sender offers a random token when free; each receiver is ready at random.
  typedef logic [9:0] tok_t;  // {kind, data}
  tok_t q_ab[$], q_ba[$];     // sent, not yet received: a to b, b to a
  longint n_ab = 0, n_ba = 0, bad = 0;
  int unsigned rate = 70;     // percent of cycles a free sender offers a token

  // A received token is the one sent first: the same kind, and the same data for a data token
  // (EOP and EOM carry none).
  function automatic logic same(tok_t sent, tok_t got);
    return sent[9:8] == got[9:8] && (sent[9:8] != KindData || sent[7:0] == got[7:0]);
  endfunction

  function automatic logic [1:0] any_kind();
    int unsigned r = $urandom_range(99);
    return r < 4 ? KindEop : r < 7 ? KindEom : KindData;
  endfunction

  always @(posedge clk) begin
    if (rst_n) begin
      if (a_tx_valid && a_tx_ready) q_ab.push_back({a_tx_kind, a_tx_data});
      if (b_tx_valid && b_tx_ready) q_ba.push_back({b_tx_kind, b_tx_data});
      if (b_rx_valid && b_rx_ready) begin
        if (q_ab.size() == 0 || !same(q_ab[0], {b_rx_kind, b_rx_data})) bad++;
        if (q_ab.size() != 0) void'(q_ab.pop_front());
        n_ab++;
      end
      if (a_rx_valid && a_rx_ready) begin
        if (q_ba.size() == 0 || !same(q_ba[0], {a_rx_kind, a_rx_data})) bad++;
        if (q_ba.size() != 0) void'(q_ba.pop_front());
        n_ba++;
      end
      if (!a_tx_valid || a_tx_ready) begin
        a_tx_valid <= $urandom_range(99) < rate;
        a_tx_data <= 8'($urandom);
        a_tx_kind <= any_kind();
      end
      if (!b_tx_valid || b_tx_ready) begin
        b_tx_valid <= $urandom_range(99) < rate;
        b_tx_data <= 8'($urandom);
        b_tx_kind <= any_kind();
      end
      a_rx_ready <= $urandom_range(99) < 80;
      b_rx_ready <= $urandom_range(99) < 80;
    end
  end

  // ---- The run and its verdict.
  int unsigned cycles;
  int seed;
  initial begin
    if (!$value$plusargs("cycles=%d", cycles)) cycles = 1000000;
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    void'($urandom(seed));
    repeat (4) @(posedge clk);
    /* verilator lint_off INITIALDLY */
    rst_n <= 1'b1;  // after the edge, as a flop would
    /* verilator lint_on INITIALDLY */
    repeat (cycles) @(posedge clk);
    $display("dslink_dpi: %0d cycles, seed %0d: %0d tokens RTL to C model, %0d C model to RTL, %0d lost or changed, %0d mismatches (link states %0d, %0d)",
             cycles, seed, n_ab, n_ba, bad, u_dut.u_shadow.mismatches_q, a_state, b_state);
    if (u_dut.u_shadow.mismatches_q != 0)
      $fatal(1, "dslink_dpi: FAILED: %0d mismatches between the RTL and its C-model shadow",
             u_dut.u_shadow.mismatches_q);
    if (bad != 0) $fatal(1, "dslink_dpi: FAILED: %0d tokens lost or changed", bad);
    if (n_ab < longint'(cycles) / 100 || n_ba < longint'(cycles) / 100)
      $fatal(1, "dslink_dpi: FAILED: too little traffic (fewer than one token in 100 cycles)");
    $display("dslink_dpi: PASSED");
    $finish;
  end
endmodule
