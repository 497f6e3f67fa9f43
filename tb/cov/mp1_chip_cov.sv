// Coverpoints of the MP1 chip's round-robin arbiters and injection controller, draft 4
// (docs/mp1_draft4.md §8, §10; docs/mp1.md §11.2-§11.3), bound into every `mp1_rr_arb` and
// `mp1_inj` of the chip and mesh builds; with tb/cov/mp1_rm_cov.sv and tb/cov/mp1_plane_cov.sv.
// Coverage builds only. Two bind modules in one file (one per RTL module of the chip level).
/* verilator lint_off DECLFILENAME */
// Names: rr_<...>, fe_<if|pb>_<state> and fe_<if|pb>_<from>_to_<to> (the front ends' states and
// transitions), fe_<if|pb>_<state>_x_<event>, sx_<...>, win_<...>, fork_<...>, hc_<...>, inj_<...>,
// cnt_<counter>_<value>, bp_<...>.
module mp1_rr_cov (
  input logic        clk_i,
  input logic [3:0]  own_q,
  input logic [3:0]  own_d,
  input logic [2:0]  last_q,
  input logic [1:0]  pos_q,
  input logic        eom,
  input logic [7:0]  req_i,
  input logic [23:0] dat_i,
  input logic [2:0]  dat_o,
  input logic        held
);
  // Machines whose chunk is not idle although they do not own the channel; the owner's request.
  logic [7:0] dat_not_owner;
  logic       own_req;
  always_comb begin
    for (int m = 0; m < 8; m++) dat_not_owner[m] = dat_i[3*m+:3] != 3'b000 && own_q != 4'(m + 1);
    own_req = own_q != 4'd0 && req_i[3'(own_q - 4'd1)];
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
  // The EOM on the channel (draft 4 §8): handed over while the owner still asks (it goes last),
  // after it stopped asking, granted again to an owner that asks alone, or freed.
  `CP(rr_eom_handover_owner_asking, eom && own_req && own_d != own_q && own_d != 4'd0)
  `CP(rr_eom_handover, eom && !own_req && own_d != own_q && own_d != 4'd0)
  `CP(rr_eom_regrant, eom && own_d == own_q && own_q != 4'd0)
  `CP(rr_eom_freed, eom && own_d == 4'd0)
  `CP(rr_release_no_eom, own_q != 4'd0 && !own_req && !eom)
  // An 010 chunk inside a flit is data, not an EOM.
  `CP(rr_eom_lookalike, pos_q != 2'd0 && dat_o == 3'b010)
  // listed unreachable: a machine's rc and pb copies send only on outputs they own
  `CP(rr_dat_not_owner, dat_not_owner != 8'h00)
`undef RR
`undef CP
endmodule

bind mp1_rr_arb mp1_rr_cov u_mp1_rr_cov (.*);

module mp1_chip_cov #(
  parameter int AWF = 1
) (
  input logic        clk_i,
  input logic        rst_ni,
  input logic [5:0]  fe_dat,
  input logic [5:0]  fe_st,
  input logic [3:0]  fe_ic,
  input logic [1:0]  fe_iseg,
  input logic [1:0]  fe_sx,
  input logic [1:0]  fe_stop,
  input logic [1:0]  fe_cand,
  input logic [1:0]  fe_pick,
  input logic [1:0]  fe_yield,
  input logic [1:0]  fe_stay,
  input logic [1:0]  fe_restart,
  input logic [1:0]  fe_fwd_cnt,
  input logic [1:0]  fe_inc_msgs,
  input logic [1:0]  fe_inc_sel_bad,
  input logic [1:0]  fe_inc_drop,
  input logic [1:0]  fe_inc_stray,
  input logic [1:0]  cur_q,
  input logic        fork_q,
  input logic        fork_d,
  input logic [2:0]  hc_q,
  input logic [2:0]  dat_q,
  input logic        own_x,
  input logic        own_y,
  input logic        keep_x,
  input logic        dstop_x,
  input logic        dstop_y,
  input logic [7:0]  req_o,
  input logic [7:0]  out_own_i,
  input logic [7:0]  out_stop_i,
  input logic [15:0] cnt_msgs_q,
  input logic [15:0] cnt_sel_bad_q,
  input logic [15:0] cnt_drop_q,
  input logic [15:0] cnt_stray_q
);
  localparam logic [2:0] Free = 3'd0;
  localparam logic [2:0] Sel  = 3'd1;
  localparam logic [2:0] Pend = 3'd2;
  localparam logic [2:0] Fwd  = 3'd3;
  localparam logic [2:0] Skip = 3'd4;
  localparam logic [2:0] Next = 3'd5;
  localparam logic [2:0] Win  = 3'd6;
  localparam logic [2:0] HcFork = 3'(3 * AWF);
  localparam logic [2:0] HcSat  = 3'(3 * AWF + 1);

  // The framing events of each front end, as the RTL decodes them (§8.3), and whether it is the
  // one the core serves (in NEXT and WIN: the serving front end, else a skipping one, §10.2).
  logic [1:0] start, eos, eom, trunc, abort, stray, idle, serving, leave;
  always_comb begin
    for (int f = 0; f < 2; f++) begin
      start[f] = fe_ic[2*f+:2] == 2'd0 && fe_dat[3*f+2];
      eos[f]   = fe_ic[2*f+:2] == 2'd0 && fe_iseg[f] && fe_dat[3*f+:3] == 3'b001;
      eom[f]   = fe_ic[2*f+:2] == 2'd0 && fe_iseg[f] && fe_dat[3*f+:3] == 3'b010;
      trunc[f] = fe_ic[2*f+:2] == 2'd0 && fe_iseg[f] &&
                 (fe_dat[3*f+:3] == 3'b000 || fe_dat[3*f+:3] == 3'b011);
      abort[f] = fe_ic[2*f+:2] == 2'd0 && !fe_iseg[f] && fe_dat[3*f+:3] == 3'b011;
      stray[f] = fe_ic[2*f+:2] == 2'd0 && !fe_iseg[f] &&
                 (fe_dat[3*f+:3] == 3'b001 || fe_dat[3*f+:3] == 3'b010);
      idle[f]  = fe_dat[3*f+:3] == 3'b000;
      serving[f] = cur_q == 2'(f + 1);
      leave[f]   = serving[f] && !fe_stay[f];
    end
  end

  // Each front end's state in the previous cycle, for its transitions (reset as the RTL's).
  // And whether the previous chunk was its selection's EOS (sx cleared by it).
  logic [5:0] fe_st_p;
  logic [1:0] sx_eos_p;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fe_st_p  <= {Free, Free};
      sx_eos_p <= 2'b00;
    end else begin
      fe_st_p  <= fe_st;
      sx_eos_p <= fe_sx & eos;
    end
  end

`define CP(name, e) name: cover property (@(posedge clk_i) (e));
// ---- Front-end states and their transitions (FREE SEL PEND FWD SKIP NEXT WIN, §10), each arc of
// the RTL; any other change of state is listed unreachable (fe_<fe>_other_arc). ---------------
`define ST(fe, f, st, code) `CP(fe_``fe``_``st, fe_st[3*f+:3] == code)
`define ARC(fe, f, a, ac, b, bc) `CP(fe_``fe``_``a``_to_``b, fe_st_p[3*f+:3] == ac && fe_st[3*f+:3] == bc)
`define FE_ARCS(fe, f) \
  `ST(fe, f, Free, Free) \
  `ST(fe, f, Sel, Sel) \
  `ST(fe, f, Pend, Pend) \
  `ST(fe, f, Fwd, Fwd) \
  `ST(fe, f, Skip, Skip) \
  `ST(fe, f, Next, Next) \
  `ST(fe, f, Win, Win) \
  `ARC(fe, f, Free, Free, Sel, Sel) \
  `ARC(fe, f, Sel, Sel, Pend, Pend) \
  `ARC(fe, f, Sel, Sel, Fwd, Fwd) \
  `ARC(fe, f, Sel, Sel, Skip, Skip) \
  `ARC(fe, f, Pend, Pend, Fwd, Fwd) \
  `ARC(fe, f, Pend, Pend, Free, Free) \
  `ARC(fe, f, Pend, Pend, Skip, Skip) \
  `ARC(fe, f, Fwd, Fwd, Free, Free) \
  `ARC(fe, f, Fwd, Fwd, Next, Next) \
  `ARC(fe, f, Fwd, Fwd, Skip, Skip) \
  `ARC(fe, f, Fwd, Fwd, Pend, Pend) \
  `ARC(fe, f, Next, Next, Win, Win) \
  `ARC(fe, f, Next, Next, Free, Free) \
  `ARC(fe, f, Next, Next, Skip, Skip) \
  `ARC(fe, f, Win, Win, Fwd, Fwd) \
  `ARC(fe, f, Win, Win, Skip, Skip) \
  `ARC(fe, f, Win, Win, Free, Free) \
  `ARC(fe, f, Skip, Skip, Next, Next) \
  `ARC(fe, f, Skip, Skip, Free, Free) \
  `CP(fe_``fe``_other_arc, fe_st_p[3*f+:3] != fe_st[3*f+:3] && \
      !((fe_st_p[3*f+:3] == Free && fe_st[3*f+:3] == Sel) || \
        (fe_st_p[3*f+:3] == Sel && (fe_st[3*f+:3] == Pend || fe_st[3*f+:3] == Fwd || \
                                    fe_st[3*f+:3] == Skip)) || \
        (fe_st_p[3*f+:3] == Pend && (fe_st[3*f+:3] == Fwd || fe_st[3*f+:3] == Free || \
                                     fe_st[3*f+:3] == Skip)) || \
        (fe_st_p[3*f+:3] == Fwd && (fe_st[3*f+:3] == Free || fe_st[3*f+:3] == Next || \
                                    fe_st[3*f+:3] == Skip || fe_st[3*f+:3] == Pend)) || \
        (fe_st_p[3*f+:3] == Next && (fe_st[3*f+:3] == Win || fe_st[3*f+:3] == Free || \
                                     fe_st[3*f+:3] == Skip)) || \
        (fe_st_p[3*f+:3] == Win && (fe_st[3*f+:3] == Fwd || fe_st[3*f+:3] == Skip || \
                                    fe_st[3*f+:3] == Free)) || \
        (fe_st_p[3*f+:3] == Skip && (fe_st[3*f+:3] == Next || fe_st[3*f+:3] == Free))))
  `FE_ARCS(if, 0)
  `FE_ARCS(pb, 1)

// ---- Every front-end state x every framing event, pick, yield, leave and stop. The pb front end
// has no window (§10.2): its NEXT and WIN are only the state points above. --------------------
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
  `CP(fe_``fe``_``st``_x_leave, fe_st[3*f+:3] == code && leave[f]) \
  `CP(bp_fe_``fe``_``st, fe_st[3*f+:3] == code && !idle[f] && fe_stop[f])
`define FE5(fe, f) \
  `FE_EVENTS(fe, f, Free, Free) \
  `FE_EVENTS(fe, f, Sel, Sel) \
  `FE_EVENTS(fe, f, Pend, Pend) \
  `FE_EVENTS(fe, f, Fwd, Fwd) \
  `FE_EVENTS(fe, f, Skip, Skip)
  `FE5(if, 0)
  `FE_EVENTS(if, 0, Next, Next)
  `FE_EVENTS(if, 0, Win, Win)
  `FE5(pb, 1)

// ---- The selection judged at its third chunk (§10.1): sx set, cleared by its EOS, or a bad
// selection (anything else), in PEND and after an early pick in FWD. ---------------------------
`define SX(fe, f) \
  `CP(sx_``fe``_set, fe_st[3*f+:3] == Sel && fe_ic[2*f+:2] == 2'd2 && fe_cand[f]) \
  `CP(sx_``fe``_picked_at_third_chunk, fe_st[3*f+:3] == Sel && fe_pick[f]) \
  `CP(sx_``fe``_eos_in_pend, fe_st[3*f+:3] == Pend && fe_sx[f] && eos[f]) \
  `CP(sx_``fe``_bad_in_pend, fe_st[3*f+:3] == Pend && fe_sx[f] && !eos[f]) \
  `CP(sx_``fe``_eos_in_fwd, fe_st[3*f+:3] == Fwd && fe_sx[f] && eos[f]) \
  `CP(sx_``fe``_bad_in_fwd, fe_st[3*f+:3] == Fwd && fe_sx[f] && !eos[f]) \
  `CP(sx_``fe``_msg_right_after_eos, sx_eos_p[f] && fe_st[3*f+:3] == Fwd && start[f] && \
      fe_fwd_cnt[f])
  `SX(if, 0)
  `SX(pb, 1)

// ---- The window (§10.2, interface only): opened, closed (why), its message forwarded or none;
// a skipping chip's window, its message skipped; a start in NEXT (the source's fault). --------
  `CP(win_opened, fe_st[2:0] == Next && serving[0] && !fe_stop[0] && !start[0])
  `CP(win_closed, fe_st[2:0] == Next && serving[0] && fe_stop[0] && !start[0])
  `CP(win_closed_not_kept, fe_st[2:0] == Next && serving[0] && (!own_x || !keep_x))
  `CP(win_closed_dstop, fe_st[2:0] == Next && serving[0] && own_x && keep_x && dstop_x)
  `CP(win_closed_pb_first, fe_st[2:0] == Next && serving[0] && own_x && keep_x && !dstop_x &&
                           fe_cand[1])
  `CP(win_msg_forwarded, fe_st[2:0] == Win && serving[0] && fe_restart[0])
  `CP(win_no_msg, fe_st[2:0] == Win && serving[0] && !start[0])
  `CP(win_start_in_next, fe_st[2:0] == Next && serving[0] && start[0])
  `CP(win_skipping_next, fe_st[2:0] == Next && !serving[0])
  `CP(win_skipping_msg_skipped, fe_st[2:0] == Win && !serving[0] && start[0])
  `CP(win_skipping_no_msg, fe_st[2:0] == Win && !serving[0] && !start[0])
  `CP(win_skipping_start_in_next, fe_st[2:0] == Next && !serving[0] && start[0])

// ---- The broadcast fork (§10.3): picked, X then Y owned, Y's chunks from 3 AWF on; hc. --------
  `CP(fork_picked, fe_pick != 2'b00 && fork_d)
  `CP(fork_x_owned_y_not, cur_q != 2'd0 && fork_q && own_x && !own_y)
  `CP(fork_both_owned, cur_q != 2'd0 && fork_q && own_x && own_y)
  // listed unreachable: Y is requested only once X is owned, and X is kept while requested
  `CP(fork_y_owned_x_not, cur_q != 2'd0 && fork_q && own_y && !own_x)
  `CP(fork_stop_by_y, cur_q != 2'd0 && fork_q && own_x && !dstop_x && (!own_y || dstop_y))
  `CP(fork_y_gets_data, fork_q && hc_q > HcFork && dat_q != 3'b000)
  `CP(fork_y_idle_first_word, fork_q && hc_q <= HcFork && dat_q != 3'b000)
  `CP(fork_after_eom_free, fe_st_p[2:0] == Fwd && fe_st[2:0] == Free && fork_q)
  `CP(hc_0, cur_q != 2'd0 && hc_q == 3'd0)
  `CP(hc_fork_edge, cur_q != 2'd0 && hc_q == HcFork)
  `CP(hc_saturated, cur_q != 2'd0 && hc_q == HcSat)
  `CP(hc_saturated_held, hc_q == HcSat && (fe_fwd_cnt & {cur_q == 2'd2, cur_q == 2'd1}) != 2'b00 &&
                          (fe_restart & {cur_q == 2'd2, cur_q == 2'd1}) == 2'b00)
  `CP(hc_restart, (fe_restart & {cur_q == 2'd2, cur_q == 2'd1}) != 2'b00)
  // listed unreachable: hc saturates at 3 AWF + 1
  `CP(hc_above_sat, hc_q > HcSat)

// ---- The core: picks, yield, whom it serves. ---------------------------------------------------
  `CP(inj_pick_if, fe_pick[0])
  `CP(inj_pick_pb, fe_pick[1])
  `CP(inj_pick_pb_over_if, fe_pick[1] && fe_cand[0])
  `CP(inj_yield, fe_yield[0])
  `CP(inj_both_pending, fe_st[2:0] == Pend && fe_st[5:3] == Pend)
  `CP(inj_cur_if, cur_q == 2'd1)
  `CP(inj_cur_pb, cur_q == 2'd2)
  // listed unreachable: the core follows a front end exactly while it forwards (FWD; the
  // interface's NEXT and WIN too) and no inj_cur value names no front end
  `CP(inj_cur_if_not_served, cur_q == 2'd1 && fe_st[2:0] != Fwd && fe_st[2:0] != Next &&
                             fe_st[2:0] != Win)
  `CP(inj_cur_pb_not_fwd, cur_q == 2'd2 && fe_st[5:3] != Fwd)
  `CP(inj_cur_3, cur_q == 2'd3)
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
// ---- Counters: each one's increment (by either front end, both at once), 0, 1, max - 1, max. --
`define CNT4(name, sig, mx) \
  `CP(cnt_``name``_0, 32'(sig) == 0) \
  `CP(cnt_``name``_1, 32'(sig) == 1) \
  `CP(cnt_``name``_max_m1, 32'(sig) == (mx) - 1) \
  `CP(cnt_``name``_max, 32'(sig) == (mx))
`define INC(name, sig) \
  `CP(cnt_``name``_inc_if, sig[0]) \
  `CP(cnt_``name``_inc_pb, sig[1]) \
  `CP(cnt_``name``_inc_both, sig == 2'b11)
  `CNT4(inj_msgs, cnt_msgs_q, 65535)
  `CNT4(sel_bad, cnt_sel_bad_q, 65535)
  `CNT4(inj_drop, cnt_drop_q, 65535)
  `CNT4(inj_stray, cnt_stray_q, 65535)
  `INC(inj_msgs, fe_inc_msgs)
  `INC(sel_bad, fe_inc_sel_bad)
  `INC(inj_drop, fe_inc_drop)
  `INC(inj_stray, fe_inc_stray)
`undef ARC
`undef CNT4
`undef FE5
`undef FE_ARCS
`undef FE_EVENTS
`undef INC
`undef OUT
`undef ST
`undef SX
`undef CP
endmodule

bind mp1_inj mp1_chip_cov #(.AWF(AWF)) u_mp1_chip_cov (.*);
