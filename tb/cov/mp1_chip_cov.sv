// Coverpoints of the MP1 chip's round-robin arbiters (docs/mp1.md §11.2) and injection controller
// (§11.3), bound into every `mp1_rr_arb` and `mp1_inj` of the chip and mesh builds; with
// tb/cov/mp1_rm_cov.sv and tb/cov/mp1_plane_cov.sv. Coverage builds only.
// Two bind modules in one file (one per RTL module of the chip level).
/* verilator lint_off DECLFILENAME */
// Names: rr_<...>, fe_<if|pb>_<state>_x_<event>, inj_<...>, cnt_<counter>_<value>, bp_<...>.
module mp1_rr_cov (
  input logic       clk_i,
  input logic [3:0] own_q,
  input logic [3:0] own_d,
  input logic [2:0] last_q,
  input logic [7:0]  req_i,
  input logic [23:0] dat_i,
  input logic        held
);
  // Machines whose chunk is not idle although they do not own the channel.
  logic [7:0] dat_not_owner;
  always_comb begin
    for (int m = 0; m < 8; m++) dat_not_owner[m] = dat_i[3*m+:3] != 3'b000 && own_q != 4'(m + 1);
  end
`define CP(name, e) name: cover property (@(posedge clk_i) (e));
`define RR(m) \
  `CP(rr_grant_m``m, own_q != 4'(m + 1) && own_d == 4'(m + 1)) \
  `CP(rr_owner_m``m``_release, own_q == 4'(m + 1) && !held) \
  `CP(bp_rr_m``m, req_i[m] && own_q != 4'(m + 1) && own_q != 4'd0)
  `RR(0)
  `RR(1)
  `RR(2)
  `RR(3)
  `RR(4)
  `RR(5)
  `RR(6)
  `RR(7)
  `CP(rr_all_request, req_i == 8'hFF)
  `CP(rr_free_x_none, own_q == 4'd0 && req_i == 8'h00)
  `CP(rr_last_wraps, last_q == 3'd7 && !held && req_i[0] && own_q != 4'd1)
  // listed unreachable: a machine's rc and pb copies send only on outputs they own
  `CP(rr_dat_not_owner, dat_not_owner != 8'h00)
`undef RR
`undef CP
endmodule

bind mp1_rr_arb mp1_rr_cov u_mp1_rr_cov (.*);

module mp1_chip_cov (
  input logic        clk_i,
  input logic [5:0]  fe_dat,
  input logic [5:0]  fe_st,
  input logic [3:0]  fe_ic,
  input logic [1:0]  fe_iseg,
  input logic [1:0]  fe_stop,
  input logic [1:0]  fe_pick,
  input logic [1:0]  fe_yield,
  input logic [1:0]  fe_leave,
  input logic [1:0]  cur_q,
  input logic [7:0]  req_o,
  input logic [7:0]  out_own_i,
  input logic [7:0]  out_stop_i,
  input logic [15:0] cnt_msgs_q,
  input logic [15:0] cnt_sel_bad_q,
  input logic [15:0] cnt_drop_q,
  input logic [15:0] cnt_stray_q
);
  // The framing events of each front end, as the RTL decodes them (§8.3).
  logic [1:0] start, eos, eom, trunc, abort, stray, idle;
  always_comb begin
    for (int f = 0; f < 2; f++) begin
      start[f] = fe_ic[2*f+:2] == 2'd0 && fe_dat[3*f+2];
      eos[f]   = fe_ic[2*f+:2] == 2'd0 && fe_iseg[f] && fe_dat[3*f+:3] == 3'b001;
      eom[f]   = fe_ic[2*f+:2] == 2'd0 && fe_iseg[f] && fe_dat[3*f+:3] == 3'b010;
      trunc[f] = fe_ic[2*f+:2] == 2'd0 && fe_iseg[f] && !fe_dat[3*f+2] && fe_dat[3*f+:2] != 2'b01 &&
                 fe_dat[3*f+:2] != 2'b10;
      abort[f] = fe_ic[2*f+:2] == 2'd0 && !fe_iseg[f] && fe_dat[3*f+:3] == 3'b011;
      stray[f] = fe_ic[2*f+:2] == 2'd0 && !fe_iseg[f] &&
                 (fe_dat[3*f+:3] == 3'b001 || fe_dat[3*f+:3] == 3'b010);
      idle[f]  = fe_dat[3*f+:3] == 3'b000;
    end
  end
`define CP(name, e) name: cover property (@(posedge clk_i) (e));
// Every front-end state x every framing event, pick, yield and stop (FREE SEL PEND FWD SKIP).
`define FE_EVENTS(fe, f, st, code) \
  `CP(fe_``fe``_``st``_x_start, fe_st[3*f+:3] == code && start[f]) \
  `CP(fe_``fe``_``st``_x_eos, fe_st[3*f+:3] == code && eos[f]) \
  `CP(fe_``fe``_``st``_x_eom, fe_st[3*f+:3] == code && eom[f]) \
  `CP(fe_``fe``_``st``_x_trunc, fe_st[3*f+:3] == code && trunc[f]) \
  `CP(fe_``fe``_``st``_x_abort, fe_st[3*f+:3] == code && abort[f]) \
  `CP(fe_``fe``_``st``_x_stray, fe_st[3*f+:3] == code && stray[f]) \
  `CP(fe_``fe``_``st``_x_idle, fe_st[3*f+:3] == code && idle[f]) \
  `CP(fe_``fe``_``st``_x_pick, fe_st[3*f+:3] == code && fe_pick[f]) \
  `CP(fe_``fe``_``st``_x_yield, fe_st[3*f+:3] == code && fe_yield[f]) \
  `CP(fe_``fe``_``st``_x_leave, fe_st[3*f+:3] == code && fe_leave[f]) \
  `CP(bp_fe_``fe``_``st, fe_st[3*f+:3] == code && !idle[f] && fe_stop[f])
`define FE(fe, f) \
  `FE_EVENTS(fe, f, Free, 3'd0) \
  `FE_EVENTS(fe, f, Sel, 3'd1) \
  `FE_EVENTS(fe, f, Pend, 3'd2) \
  `FE_EVENTS(fe, f, Fwd, 3'd3) \
  `FE_EVENTS(fe, f, Skip, 3'd4)
  `FE(if, 0)
  `FE(pb, 1)
  `CP(inj_both_pending, fe_st[2:0] == 3'd2 && fe_st[5:3] == 3'd2)
  `CP(inj_cur_if, cur_q == 2'd1)
  `CP(inj_cur_pb, cur_q == 2'd2)
  // listed unreachable: the core follows a front end exactly while it forwards (FWD)
  `CP(inj_cur_if_not_fwd, cur_q == 2'd1 && fe_st[2:0] != 3'd3)
  `CP(inj_cur_pb_not_fwd, cur_q == 2'd2 && fe_st[5:3] != 3'd3)
  // Back-pressure on the injection requester of each plane output: requesting, not owner or stopped.
`define OUT(o) \
  `CP(bp_inj_out``o``_unowned, req_o[o] && !out_own_i[o]) \
  `CP(bp_inj_out``o``_stop, req_o[o] && out_own_i[o] && out_stop_i[o])
  `OUT(0)
  `OUT(1)
  `OUT(2)
  `OUT(3)
  `OUT(4)
  `OUT(5)
  `OUT(6)
  `OUT(7)
`define CNT4(name, sig, mx) \
  `CP(cnt_``name``_0, 32'(sig) == 0) \
  `CP(cnt_``name``_1, 32'(sig) == 1) \
  `CP(cnt_``name``_max_m1, 32'(sig) == (mx) - 1) \
  `CP(cnt_``name``_max, 32'(sig) == (mx))
  `CNT4(inj_msgs, cnt_msgs_q, 65535)
  `CNT4(sel_bad, cnt_sel_bad_q, 65535)
  `CNT4(inj_drop, cnt_drop_q, 65535)
  `CNT4(inj_stray, cnt_stray_q, 65535)
`undef CNT4
`undef OUT
`undef FE
`undef FE_EVENTS
`undef CP
endmodule

bind mp1_inj mp1_chip_cov u_mp1_chip_cov (.*);
