// Coverpoints of the MP1 output arbiter (docs/mp1.md §10.2), bound into every `mp1_arb` of the
// plane, chip and mesh builds; with tb/cov/mp1_rm_cov.sv for the machines. Coverage builds only.
// Names: arb_<owner>_x_<requests>, bp_req<r>_<owner>.
module mp1_plane_cov (
  input logic       clk_i,
  input logic [1:0] own_q,
  input logic [2:0] req_i,
  input logic [2:0] dat0_i,
  input logic [2:0] dat1_i,
  input logic       held
);
`define CP(name, e) name: cover property (@(posedge clk_i) (e));
// Every owner state (none, straight, turning, injection) x every request pattern.
`define ARB_EVENTS(st, code) \
  `CP(arb_``st``_x_none, own_q == code && req_i == 3'b000) \
  `CP(arb_``st``_x_r1, own_q == code && req_i == 3'b001) \
  `CP(arb_``st``_x_r2, own_q == code && req_i == 3'b010) \
  `CP(arb_``st``_x_r3, own_q == code && req_i == 3'b100) \
  `CP(arb_``st``_x_r12, own_q == code && req_i == 3'b011) \
  `CP(arb_``st``_x_r13, own_q == code && req_i == 3'b101) \
  `CP(arb_``st``_x_r23, own_q == code && req_i == 3'b110) \
  `CP(arb_``st``_x_r123, own_q == code && req_i == 3'b111) \
  `CP(arb_``st``_x_release, own_q == code && code != 2'd0 && !held)
  `ARB_EVENTS(free, 2'd0)
  `ARB_EVENTS(straight, 2'd1)
  `ARB_EVENTS(turning, 2'd2)
  `ARB_EVENTS(inject, 2'd3)
// Back-pressure: a requester that does not get the output, per owner.
`define BP(st, code) \
  `CP(bp_req1_``st, own_q == code && req_i[0] && code != 2'd1) \
  `CP(bp_req2_``st, own_q == code && req_i[1] && code != 2'd2) \
  `CP(bp_req3_``st, own_q == code && req_i[2] && code != 2'd3)
  `BP(free, 2'd0)
  `BP(straight, 2'd1)
  `BP(turning, 2'd2)
  `BP(inject, 2'd3)
`undef BP
// A machine drives its straight or turning data only while it owns the output (docs/mp1.md
// §10.2): the arbiter's data mux may then ignore the others (listed unreachable).
  `CP(dat_straight_not_owner, own_q != 2'd1 && dat0_i != 3'b000)
  `CP(dat_turning_not_owner, own_q != 2'd2 && dat1_i != 3'b000)
`undef ARB_EVENTS
`undef CP
endmodule

bind mp1_arb mp1_plane_cov u_mp1_plane_cov (.*);
