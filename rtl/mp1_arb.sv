// MP1 output arbiter (docs/mp1.md §10.2): three requesters (1 straight, 2 turning, 3 injection)
// share one output channel; the owner keeps it while it requests, else the lowest-numbered wins.
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
  output logic [1:0] own_q_o
);

  logic [1:0] own_d, own_q;
  logic       held;

  always_comb begin
    held = 1'b0;
    unique case (own_q)
      2'd1:    held = req_i[0];
      2'd2:    held = req_i[1];
      2'd3:    held = req_i[2];
      default: held = 1'b0;
    endcase

    own_d = own_q;
    if (!held) begin
      if (req_i[0]) begin
        own_d = 2'd1;
      end else if (req_i[1]) begin
        own_d = 2'd2;
      end else if (req_i[2]) begin
        own_d = 2'd3;
      end else begin
        own_d = 2'd0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      own_q <= 2'd0;
    end else begin
      own_q <= own_d;
    end
  end

  always_comb begin
    dat_o = 3'b000;
    unique case (own_q)
      2'd1:    dat_o = dat0_i;
      2'd2:    dat_o = dat1_i;
      2'd3:    dat_o = dat2_i;
      default: dat_o = 3'b000;
    endcase
  end

  assign own_o   = {own_q == 2'd3, own_q == 2'd2, own_q == 2'd1};
  assign free_o  = (own_q == 2'd0);
  assign own_q_o = own_q;

endmodule
