// Circular FIFO used for both DS-Link token buffers (docs/dslink.md §7). Pointers and count are
// architectural registers compared every cycle, so they keep the spec's 8-bit width.
module dslink_fifo #(
  parameter int unsigned Depth = 8,
  parameter int unsigned Width = 10
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             wr_i,
  input  logic [Width-1:0] wdata_i,
  input  logic             rd_i,
  output logic [Width-1:0] rdata_o,
  output logic [7:0]       wptr_o,
  output logic [7:0]       rptr_o,
  output logic [7:0]       cnt_o
);

  // Only the low index bits address the storage; the full 8-bit pointer is what the spec compares.
  localparam int unsigned IdxW = (Depth > 1) ? $clog2(Depth) : 1;
  localparam int unsigned Last = Depth - 1;

  logic [Width-1:0] storage [Depth];

  logic [7:0] wptr_d, wptr_q;
  logic [7:0] rptr_d, rptr_q;
  logic [7:0] cnt_d, cnt_q;

  always_comb begin
    wptr_d = wptr_q;
    rptr_d = rptr_q;
    if (wr_i) begin
      wptr_d = (wptr_q == Last[7:0]) ? 8'd0 : wptr_q + 8'd1;
    end
    if (rd_i) begin
      rptr_d = (rptr_q == Last[7:0]) ? 8'd0 : rptr_q + 8'd1;
    end
    cnt_d = cnt_q + {7'b0, wr_i} - {7'b0, rd_i};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q <= 8'd0;
      rptr_q <= 8'd0;
      cnt_q  <= 8'd0;
    end else begin
      wptr_q <= wptr_d;
      rptr_q <= rptr_d;
      cnt_q  <= cnt_d;
    end
  end

  // Storage is not reset: an entry is only observed after it has been written.
  always_ff @(posedge clk_i) begin
    if (wr_i) begin
      storage[wptr_q[IdxW-1:0]] <= wdata_i;
    end
  end

  assign rdata_o = storage[rptr_q[IdxW-1:0]];
  assign wptr_o  = wptr_q;
  assign rptr_o  = rptr_q;
  assign cnt_o   = cnt_q;

endmodule
