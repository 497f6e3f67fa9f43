// Coverpoints of the MP1 output arbiter, draft 4 (docs/mp1_draft4.md §8), bound into every
// `mp1_arb` of the plane, chip and mesh builds; with tb/cov/mp1_rm_cov.sv for the machines.
// Coverage builds only.
// Names: arb_<owner>_x_<requests>, eom_<owner>_<outcome>, claim_<...>, keep_<...>, pos_<...>,
// bp_req<r>_<owner>.
module mp1_plane_cov (
  input logic       clk_i,
  input logic [1:0] own_q,
  input logic [1:0] own_d,
  input logic [1:0] pos_q,
  input logic       eom,
  input logic       held,
  input logic       keep_o,
  input logic [2:0] req_i,
  input logic [2:0] dat_o,
  input logic [2:0] dat0_i,
  input logic [2:0] dat1_i
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
  `CP(arb_``st``_x_release, own_q == code && code != 2'd0 && !held && !eom)
  `ARB_EVENTS(free, 2'd0)
  `ARB_EVENTS(straight, 2'd1)
  `ARB_EVENTS(turning, 2'd2)
  `ARB_EVENTS(inject, 2'd3)
// The EOM on the channel (F5b): the output handed to each other requester while the owner still
// asks (the owner goes last) or after it stopped asking, kept by an owner that asks alone, or freed.
`define HAND(st, code, to, tcode) \
  `CP(eom_``st``_handover_to_``to, eom && own_q == code && own_d == tcode)
`define EOM(st, code) \
  `CP(eom_``st``_handover_owner_asking, eom && own_q == code && held && own_d != code) \
  `CP(eom_``st``_kept, eom && own_q == code && own_d == code) \
  `CP(eom_``st``_freed, eom && own_q == code && own_d == 2'd0)
  `HAND(straight, 2'd1, turning, 2'd2)
  `HAND(straight, 2'd1, inject, 2'd3)
  `HAND(turning, 2'd2, straight, 2'd1)
  `HAND(turning, 2'd2, inject, 2'd3)
  `HAND(inject, 2'd3, straight, 2'd1)
  `HAND(inject, 2'd3, turning, 2'd2)
  `EOM(straight, 2'd1)
  `EOM(turning, 2'd2)
  `EOM(inject, 2'd3)
  // listed unreachable: own_q = 0 puts 000 on the channel
  `CP(eom_free, eom && own_q == 2'd0)
// A free output claimed by each requester; straight first when several ask (§5.4 relies on it).
  `CP(claim_free_straight, own_q == 2'd0 && own_d == 2'd1)
  `CP(claim_free_turning, own_q == 2'd0 && own_d == 2'd2)
  `CP(claim_free_inject, own_q == 2'd0 && own_d == 2'd3)
  `CP(claim_free_straight_first, own_q == 2'd0 && req_i[0] && req_i[2:1] != 2'b00)
  `CP(claim_free_turning_over_inject, own_q == 2'd0 && req_i == 3'b110)
// keep (own_d = 3) for the injection's window (§10.2): held, kept over its EOM, newly granted.
  `CP(keep_inject_held, keep_o && own_q == 2'd3 && !eom)
  `CP(keep_inject_over_eom, keep_o && own_q == 2'd3 && eom)
  `CP(keep_inject_granted, keep_o && own_q != 2'd3)
  `CP(keep_lost_at_eom, !keep_o && own_q == 2'd3 && eom)
// The channel's framing: an 010 chunk inside a flit is data, not an EOM.
  `CP(pos_flit_2nd, pos_q == 2'd1)
  `CP(pos_flit_3rd, pos_q == 2'd2)
  `CP(pos_eom_lookalike, pos_q != 2'd0 && dat_o == 3'b010)
  // listed unreachable: pos counts 0, 1, 2 and back
  `CP(pos_3, pos_q == 2'd3)
// Back-pressure: a requester that does not get the output, per owner.
`define BP(st, code) \
  `CP(bp_req1_``st, own_q == code && req_i[0] && code != 2'd1) \
  `CP(bp_req2_``st, own_q == code && req_i[1] && code != 2'd2) \
  `CP(bp_req3_``st, own_q == code && req_i[2] && code != 2'd3)
  `BP(free, 2'd0)
  `BP(straight, 2'd1)
  `BP(turning, 2'd2)
  `BP(inject, 2'd3)
// A machine drives its straight or turning data only while it owns the output (docs/mp1.md
// §10.2): the arbiter's data mux may then ignore the others (listed unreachable).
  `CP(dat_straight_not_owner, own_q != 2'd1 && dat0_i != 3'b000)
  `CP(dat_turning_not_owner, own_q != 2'd2 && dat1_i != 3'b000)
`undef ARB_EVENTS
`undef BP
`undef EOM
`undef HAND
`undef CP
endmodule

bind mp1_arb mp1_plane_cov u_mp1_plane_cov (.*);
