// MP1 output arbiter (docs/mp1_draft4.md §8): three requesters (1 straight, 2 turning, 3 injection)
// share one output channel. The owner keeps it while it asks, until an EOM passes on the channel;
// then every other requester goes first, and a free output goes to straight first.
module mp1_arb (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic [2:0] req_i,
  input  logic [2:0] dat0_i,
  input  logic [2:0] dat1_i,
  input  logic [2:0] dat2_i,
  output logic [2:0] own_o,
  output logic       free_o,
  output logic [2:0] dat_o,
  // The injection controller keeps the output in the next cycle (own_d == 3), for its window.
  output logic       keep_o,
  output logic [1:0] own_q_o,
  output logic [1:0] pos_q_o
);

  localparam logic [2:0] ChIdle = 3'b000;
  localparam logic [2:0] ChEom  = 3'b010;

  // own: 0 none, 1 straight, 2 turning, 3 injection. pos: the framing of the channel, 0 between
  // flits, 1 and 2 after a flit's first and second chunk.
  logic [1:0] own_d, own_q;
  logic [1:0] pos_d, pos_q;
  logic       held, eom;
  logic [2:0] other;

  // The chunk on the channel in this cycle: the owner's register (000 with no owner).
  always_comb begin
    unique case (own_q)
      2'd1:    dat_o = dat0_i;
      2'd2:    dat_o = dat1_i;
      2'd3:    dat_o = dat2_i;
      default: dat_o = ChIdle;
    endcase
  end

  always_comb begin
    // Framing as at a receiver: a chunk with its top bit set between flits starts one (§8).
    pos_d = (pos_q == 2'd0 && dat_o[2]) ? 2'd1 : (pos_q == 2'd1) ? 2'd2 : 2'd0;
    // The message on the channel ends (F5b: re-arbitration at every EOM).
    eom   = (pos_q == 2'd0) && (dat_o == ChEom);

    held = 1'b0;
    unique case (own_q)
      2'd1:    held = req_i[0];
      2'd2:    held = req_i[1];
      2'd3:    held = req_i[2];
      default: held = 1'b0;
    endcase

    // At an EOM the owner goes last: the first requester other than it, in the order straight,
    // turning, injection; the owner only if nobody else asks.
    other = req_i;
    if (eom && own_q != 2'd0) begin
      other[own_q - 2'd1] = 1'b0;
    end

    if (held && !eom) begin
      own_d = own_q;
    end else if (other[0]) begin
      own_d = 2'd1;
    end else if (other[1]) begin
      own_d = 2'd2;
    end else if (other[2]) begin
      own_d = 2'd3;
    end else if (held) begin
      own_d = own_q;
    end else begin
      own_d = 2'd0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      own_q <= 2'd0;
      pos_q <= 2'd0;
    end else begin
      own_q <= own_d;
      pos_q <= pos_d;
    end
  end

  assign own_o   = {own_q == 2'd3, own_q == 2'd2, own_q == 2'd1};
  assign free_o  = (own_q == 2'd0);
  assign keep_o  = (own_d == 2'd3);
  assign own_q_o = own_q;
  assign pos_q_o = pos_q;

endmodule
