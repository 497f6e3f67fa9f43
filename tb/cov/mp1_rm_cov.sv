// Coverpoints of the MP1 routing machine (docs/mp1.md §8), bound into every `mp1_rm` instance
// (so also inside the plane, chip and mesh); only for the coverage builds (docs/coverage.md).
// Names: rm_<state>_x_<event>, a1_<code>_<match|pass>, cnt_<counter>_<value>, buf_<level>,
// bp_<handshake>_<state>. Points the design makes unreachable: tb/cov/unreachable.txt.
module mp1_rm_cov #(
  parameter int AWF = 1
) (
  input logic          clk_i,
  input logic [2:0]    rm_st_q,
  input logic [2:0]    rm_st_d,
  input logic [2:0]    in_dat_i,
  input logic          in_stop_o,
  input logic          start,
  input logic          endc,
  input logic          eom,
  input logic          ill,
  input logic          trunc,
  input logic          brk,
  input logic          bad_long,
  input logic          a1_done,
  input logic          a2_done,
  input logic          f_bad,
  input logic          f_match,
  input logic [2:0]    f_code,
  input logic          hdr_cut,
  input logic          abort_msg,
  input logic          cut_eos,
  input logic          turn,
  input logic          emit_ok,
  input logic          vpend_q,
  input logic [1:0]    ic_q,
  input logic          iseg_q,
  input logic          ended_q,
  input logic [5:0]    ifl_q,
  input logic [6:0]    wp_q,
  input logic [6:0]    rp_st_q,
  input logic [6:0]    rp_ot_q,
  input logic [6:0]    rp_rc_q,
  input logic [6:0]    rp_pb_q,
  input logic [3:0]    route_q,
  input logic          mem_we,
  input logic [3:0]    live,
  input logic          st_req_o,
  input logic          ot_req_o,
  input logic          rc_req_o,
  input logic          pb_req_o,
  input logic          st_own_i,
  input logic          ot_own_i,
  input logic          rc_own_i,
  input logic          pb_own_i,
  input logic          st_stop_i,
  input logic          ot_stop_i,
  input logic          rc_stop_i,
  input logic          pb_stop_i,
  input logic [15:0]   cnt_dead_q,
  input logic [15:0]   cnt_bad_code_q,
  input logic [15:0]   cnt_bad_addr_q,
  input logic [15:0]   cnt_bad_long_q,
  input logic [15:0]   cnt_stray_q,
  input logic [15:0]   cnt_cut_q,
  input logic [15:0]   cnt_adapt_q,
  input logic [15:0]   cnt_adapt_buf_q
);
  // As in the RTL: the stop threshold and how far ahead of wp a copy's first chunk may start.
  localparam logic [6:0] OccMax  = (AWF == 1) ? 7'd30 : 7'd17;
  localparam logic [6:0] MaxLead = 7'(6 * AWF);

  // Unread chunks of the segment buffer: the most any copy of the route is behind wp.
  logic [6:0] u_st, u_ot, u_rc, u_pb, occ;
  always_comb begin
    u_st = (!route_q[0] || (rp_st_q - wp_q) <= MaxLead) ? 7'd0 : wp_q - rp_st_q;
    u_ot = (!route_q[1] || (rp_ot_q - wp_q) <= MaxLead) ? 7'd0 : wp_q - rp_ot_q;
    u_rc = (!route_q[2] || (rp_rc_q - wp_q) <= MaxLead) ? 7'd0 : wp_q - rp_rc_q;
    u_pb = (!route_q[3] || (rp_pb_q - wp_q) <= MaxLead) ? 7'd0 : wp_q - rp_pb_q;
    occ  = u_st;
    if (u_ot > occ) occ = u_ot;
    if (u_rc > occ) occ = u_rc;
    if (u_pb > occ) occ = u_pb;
  end
  logic rd;
  assign rd = live != 4'b0000;

`define CP(name, e) name: cover property (@(posedge clk_i) (e));
// Every state x every flit kind / event of the ingress (§8.3, §8.8).
`define RM_EVENTS(st, code) \
  `CP(rm_``st``_x_idle_chunk, rm_st_q == code && in_dat_i == 3'b000) \
  `CP(rm_``st``_x_start, rm_st_q == code && start) \
  `CP(rm_``st``_x_eos, rm_st_q == code && endc && !eom) \
  `CP(rm_``st``_x_eom, rm_st_q == code && eom) \
  `CP(rm_``st``_x_stray_end, rm_st_q == code && !ended_q && ic_q == 2'd0 && !iseg_q && (in_dat_i == 3'b001 || in_dat_i == 3'b010)) \
  `CP(rm_``st``_x_ill, rm_st_q == code && ill) \
  `CP(rm_``st``_x_trunc, rm_st_q == code && trunc) \
  `CP(rm_``st``_x_brk, rm_st_q == code && brk) \
  `CP(rm_``st``_x_bad_long, rm_st_q == code && bad_long) \
  `CP(rm_``st``_x_a1_good, rm_st_q == code && a1_done && !f_bad) \
  `CP(rm_``st``_x_a1_bad, rm_st_q == code && a1_done && f_bad) \
  `CP(rm_``st``_x_a2_done, rm_st_q == code && a2_done) \
  `CP(rm_``st``_x_hdr_cut, rm_st_q == code && hdr_cut) \
  `CP(rm_``st``_x_abort, rm_st_q == code && abort_msg) \
  `CP(rm_``st``_x_cut_eos, rm_st_q == code && cut_eos) \
  `CP(rm_``st``_x_turn, rm_st_q == code && turn) \
  `CP(rm_``st``_x_emit_start, rm_st_q == code && emit_ok) \
  `CP(rm_``st``_x_vpend, rm_st_q == code && vpend_q) \
  `CP(rm_``st``_x_ended, rm_st_q == code && ended_q)
  `RM_EVENTS(Idle, 3'd0)
  `RM_EVENTS(Pass, 3'd1)
  `RM_EVENTS(Hold, 3'd2)
  `RM_EVENTS(Emit, 3'd3)
  `RM_EVENTS(Wait, 3'd4)
  `RM_EVENTS(Drop, 3'd5)

// Every way out of EMIT (the copies drained, or a long segment).
  `CP(rm_Emit_to_Hold, rm_st_q == 3'd3 && rm_st_d == 3'd2)
  `CP(rm_Emit_to_Wait, rm_st_q == 3'd3 && rm_st_d == 3'd4)
  `CP(rm_Emit_to_Idle, rm_st_q == 3'd3 && rm_st_d == 3'd0)
  `CP(rm_Emit_to_Drop, rm_st_q == 3'd3 && rm_st_d == 3'd5)

// Every control code of a completed good a1 word, at its match position and passing through.
`define A1(name, code) \
  `CP(a1_``name``_match, a1_done && !f_bad && f_code == code && f_match) \
  `CP(a1_``name``_pass, a1_done && !f_bad && f_code == code && !f_match)
  `A1(p2p_static, 3'd0)
  `A1(p2p_adapt, 3'd1)
  `A1(deliver, 3'd2)
  `A1(piggy_intra, 3'd3)
  `A1(bcast_2d, 3'd4)
  `A1(bcast_1d, 3'd5)
  `A1(piggy_inter, 3'd6)
  `CP(a1_illegal_bad, a1_done && f_code == 3'd7)

// Counters at 0, 1, max-1 and max (ifl saturates at 33; the buffer pointer wraps at 127).
`define CNT4(name, sig, mx) \
  `CP(cnt_``name``_0, 32'(sig) == 0) \
  `CP(cnt_``name``_1, 32'(sig) == 1) \
  `CP(cnt_``name``_max_m1, 32'(sig) == (mx) - 1) \
  `CP(cnt_``name``_max, 32'(sig) == (mx))
  `CNT4(ifl, ifl_q, 33)
  `CNT4(wp, wp_q, 127)
  `CNT4(dead, cnt_dead_q, 65535)
  `CNT4(bad_code, cnt_bad_code_q, 65535)
  `CNT4(bad_addr, cnt_bad_addr_q, 65535)
  `CNT4(bad_long, cnt_bad_long_q, 65535)
  `CNT4(stray, cnt_stray_q, 65535)
  `CNT4(cut, cnt_cut_q, 65535)
  `CNT4(adapt, cnt_adapt_q, 65535)
  `CNT4(adapt_buf, cnt_adapt_buf_q, 65535)

// The segment buffer as a FIFO: "full" is the stop threshold (§8.8.1: stop rises above OccMax).
  `CP(buf_empty, occ == 7'd0 && route_q != 4'b0000)
  `CP(buf_empty_push_pop, occ == 7'd0 && route_q != 4'b0000 && mem_we && rd)
  `CP(buf_one_from_full, occ == OccMax)
  `CP(buf_one_from_full_push_pop, occ == OccMax && mem_we && rd)
  `CP(buf_full, occ == OccMax + 7'd1)
  `CP(buf_full_push_pop, occ == OccMax + 7'd1 && mem_we && rd)
  `CP(buf_above_full, occ > OccMax + 7'd1)
  `CP(buf_stop, in_stop_o)

// Back-pressure: a request held against a stop (downstream not ready) or without ownership, on
// each output, in each state; and a chunk arriving while this machine stops its input.
`define BP(st, code) \
  `CP(bp_st_stop_``st, rm_st_q == code && st_req_o && st_stop_i) \
  `CP(bp_ot_stop_``st, rm_st_q == code && ot_req_o && ot_stop_i) \
  `CP(bp_rc_stop_``st, rm_st_q == code && rc_req_o && rc_stop_i) \
  `CP(bp_pb_stop_``st, rm_st_q == code && pb_req_o && pb_stop_i) \
  `CP(bp_st_unowned_``st, rm_st_q == code && st_req_o && !st_own_i) \
  `CP(bp_ot_unowned_``st, rm_st_q == code && ot_req_o && !ot_own_i) \
  `CP(bp_rc_unowned_``st, rm_st_q == code && rc_req_o && !rc_own_i) \
  `CP(bp_pb_unowned_``st, rm_st_q == code && pb_req_o && !pb_own_i) \
  `CP(bp_in_``st, rm_st_q == code && in_dat_i != 3'b000 && in_stop_o)
  `BP(Idle, 3'd0)
  `BP(Pass, 3'd1)
  `BP(Hold, 3'd2)
  `BP(Emit, 3'd3)
  `BP(Wait, 3'd4)
  `BP(Drop, 3'd5)
`undef A1
`undef BP
`undef CNT4
`undef CP
`undef RM_EVENTS
endmodule

bind mp1_rm mp1_rm_cov #(.AWF(AWF)) u_mp1_rm_cov (.*);
