// MP1 round-robin arbiter (docs/mp1.md §11.2, docs/mp1_draft4.md §8): the chip's 8 routing
// machines share the reception (or piggy-back) channel; the owner keeps it while it requests until
// an EOM passes on the channel, and the last one granted goes last.
module mp1_rr_arb (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [7:0]  req_i,
  // Machine m's chunk register at [3m+2:3m].
  input  logic [23:0] dat_i,
  output logic [7:0]  own_o,
  output logic        free_o,
  output logic [2:0]  dat_o,
  output logic [3:0]  own_q_o,
  output logic [2:0]  last_q_o,
  output logic [1:0]  pos_q_o
);

  localparam logic [2:0] ChEom = 3'b010;

  // own: 0 none, m + 1 machine m owns the channel.
  logic [3:0] own_d, own_q;
  logic [2:0] last_d, last_q;
  // The channel's framing: 0 between flits, 1 and 2 after a flit's first and second chunk.
  logic [1:0] pos_d, pos_q;
  logic [2:0] own_m, cand;
  logic       held, found, eom;

  // The owner's number (meaningful while own_q != 0), outside the request logic's always_comb:
  // the chunk it selects can feed the injection controller, whose stop goes back to the machines,
  // and sharing a block with the requests would make that a (false) combinational loop.
  assign own_m = 3'(own_q - 4'd1);

  // The chunk on the channel and its framing, as at a receiver; an EOM there ends the owner's
  // message, and the round-robin order below then puts the owner (the last one granted) last.
  always_comb begin
    pos_d = (pos_q == 2'd0 && dat_o[2]) ? 2'd1 : (pos_q == 2'd1) ? 2'd2 : 2'd0;
    eom   = (pos_q == 2'd0) && (dat_o == ChEom);
  end

  always_comb begin
    held = (own_q != 4'd0) && req_i[own_m] && !eom;

    own_d  = own_q;
    last_d = last_q;
    found  = 1'b0;
    cand   = 3'd0;
    if (!held) begin
      own_d = 4'd0;
      // last + 1, ..., last + 8 (mod 8): the machine granted last is the last candidate, so no
      // requester waits behind more than seven grants.
      for (int unsigned i = 1; i <= 8; i++) begin
        cand = last_q + 3'(i);
        if (!found && req_i[cand]) begin
          found  = 1'b1;
          own_d  = {1'b0, cand} + 4'd1;
          last_d = cand;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      own_q  <= 4'd0;
      last_q <= 3'd0;
      pos_q  <= 2'd0;
    end else begin
      own_q  <= own_d;
      last_q <= last_d;
      pos_q  <= pos_d;
    end
  end

  always_comb begin
    for (int unsigned m = 0; m < 8; m++) begin
      own_o[m] = (own_q == 4'(m + 1));
    end
  end

  assign free_o   = (own_q == 4'd0);
  assign dat_o    = (own_q == 4'd0) ? 3'b000 : dat_i[3*own_m+:3];
  assign own_q_o  = own_q;
  assign last_q_o = last_q;
  assign pos_q_o  = pos_q;

endmodule
