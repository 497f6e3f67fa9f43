// Coverpoints of the MP1 routing machine, draft 4 (docs/mp1_draft4.md §3-§7), bound into every
// `mp1_rm` instance (so also inside the plane, chip and mesh); only for the coverage builds
// (docs/coverage.md). Points the design makes unreachable: tb/cov/unreachable.txt.
// Names: cs_<copy>_<state> and cs_<copy>_<from>_to_<to> (F's copies st, ot, rc, pb; a promotion's
// new copies apart as cs_<copy>_<from>_promoted), <copy>_<event> (how a copy starts, sends, waits
// or ends), slot_<...> and promo_<...> (the front and back slots), in_<f|b>_<event> and
// set_<f|b>_<flag> (the input acting on its slot), spec_<outcome>, adapt_<...>, stop_<...>,
// occ_<level>, a1_<code>_<match|pass>, cnt_<counter>_inc and cnt_<counter>_<value>, bp_<...>.
module mp1_rm_cov #(
  // As the RTL's (bound with it); no point depends on it yet (every coverage build is AWF = 1).
  /* verilator lint_off UNUSEDPARAM */
  parameter int AWF = 1
  /* verilator lint_on UNUSEDPARAM */
) (
  input logic        clk_i,
  input logic        edge_i,
  input logic [2:0]  in_dat_i,
  input logic        in_stop_o,
  // input framing
  input logic        iseg_q,
  input logic [5:0]  ifl_q,
  input logic        idis_q,
  input logic [6:0]  wp_q,
  input logic        start,
  input logic        gap,
  input logic        loose,
  input logic        brk,
  // the slots
  input logic        f_val_q,
  input logic        f_in_q,
  input logic        f_drop_q,
  input logic        f_cut_q,
  input logic        f_dec_q,
  input logic        f_vpend_q,
  input logic        f_rnew_q,
  input logic        f_adapt_q,
  input logic [3:0]  f_route_q,
  input logic        b_val_q,
  input logic        b_in_q,
  input logic        b_drop_q,
  input logic        b_cut_q,
  input logic        b_dec_q,
  input logic        b_vpend_q,
  // the input acting on its slot (§4)
  input logic        rx_f,
  input logic        rx_b,
  input logic        new_f,
  input logic        new_b,
  input logic        no_room,
  input logic        on_f,
  input logic        on_b,
  input logic        a1_done,
  input logic        a2_done,
  input logic [2:0]  d_code,
  input logic        d_match,
  input logic        d_bad,
  input logic        d_rnew,
  input logic        adapt_set,
  input logic        verdict,
  input logic        v_bad,
  input logic        bad_long,
  input logic        cut_hdr,
  input logic        bc_cut,
  input logic        wr,
  input logic        ev_trunc,
  input logic        ev_abort,
  input logic        ev_eom,
  input logic        b_clear,
  // F's copies (§5) and the adaptive switch (§7.1)
  input logic [1:0]  cs_st_q,
  input logic [1:0]  cs_ot_q,
  input logic [1:0]  cs_rc_q,
  input logic [1:0]  cs_pb_q,
  input logic [1:0]  cs_st_d,
  input logic [1:0]  cs_ot_d,
  input logic [1:0]  cs_rc_d,
  input logic [1:0]  cs_pb_d,
  input logic [7:0]  cs_e,
  input logic [27:0] rp_e,
  input logic [3:0]  avail,
  input logic [3:0]  adv,
  input logic [3:0]  req,
  input logic [3:0]  own,
  input logic [3:0]  stp,
  input logic [3:0]  idle,
  input logic [3:0]  claim,
  input logic        f_byp,
  input logic        spec_at,
  input logic        spec_on,
  input logic        spec_rnew,
  input logic        st_blocked,
  input logic        adapt_req,
  input logic        do_switch,
  input logic        ot_own_i,
  input logic        ot_stop_i,
  input logic [2:0]  ot_dat_q,
  input logic        swap_q,
  input logic        f_done,
  // stop and the invariant (§6)
  input logic [6:0]  occ_q,
  input logic [6:0]  occ_d,
  input logic        blocked_d,
  input logic        stop_d,
  input logic        stop_q,
  input logic        err,
  // counters
  input logic        inc_dead,
  input logic        inc_bad_code,
  input logic        inc_bad_addr,
  input logic        inc_bad_long,
  input logic        inc_stray,
  input logic        inc_cut,
  input logic [15:0] cnt_dead_q,
  input logic [15:0] cnt_bad_code_q,
  input logic [15:0] cnt_bad_addr_q,
  input logic [15:0] cnt_bad_long_q,
  input logic [15:0] cnt_stray_q,
  input logic [15:0] cnt_cut_q,
  input logic [15:0] cnt_adapt_q,
  input logic [15:0] cnt_adapt_buf_q
);
  localparam logic [1:0] CsOff  = 2'd0;
  localparam logic [1:0] CsWait = 2'd1;
  localparam logic [1:0] CsRun  = 2'd2;
  localparam logic [1:0] CsNext = 2'd3;
  localparam logic [3:0] RtSt   = 4'b0001;

  // The receiving slot's flags as they stood before this cycle's chunk (a new slot: all 0), and
  // what this cycle's decision sets (§4.3): the flag set events below are 0 -> 1 of these.
  logic s_drop, s_cut, s_dec, s_vpend;
  assign s_drop  = rx_f ? f_drop_q : rx_b ? b_drop_q : 1'b0;
  assign s_cut   = rx_f ? f_cut_q : rx_b ? b_cut_q : 1'b0;
  assign s_dec   = rx_f ? f_dec_q : rx_b ? b_dec_q : 1'b0;
  assign s_vpend = rx_f ? f_vpend_q : rx_b ? b_vpend_q : 1'b0;
  logic dec_now, vpend_now, rnew_now, cut_now, drop_now;
  assign dec_now   = a1_done && !d_bad;
  assign vpend_now = a1_done && d_bad;
  assign rnew_now  = dec_now && d_rnew;
  assign drop_now  = !s_drop && (v_bad || bad_long || bc_cut);
  assign cut_now   = !s_cut && (bad_long || ((ev_trunc || ev_abort || cut_hdr) && !s_drop));
  // B after this cycle's input, before a promotion (the RTL's b_1): its val and dec.
  logic b1_val, b1_dec;
  assign b1_val = on_b ? !b_clear : b_val_q;
  assign b1_dec = on_b ? (s_dec || dec_now) : b_dec_q;
  // A promotion creates copy k (§5.6): F complete and k's next state WAIT (every copy of the
  // completed F is OFF then).
  logic [3:0] promo;
  assign promo = {4{f_done}} & {cs_pb_d == CsWait, cs_rc_d == CsWait, cs_ot_d == CsWait,
                                cs_st_d == CsWait};

`define CP(name, e) name: cover property (@(posedge clk_i) (e));

// ---- F's copies (§5): every state, every transition of the copy's own rules (the ones a
// promotion makes apart), and each way it starts, sends, waits and ends. -----------------------
`define TR(k, i, a, ac, b, bc) \
  `CP(cs_``k``_``a``_to_``b, !promo[i] && cs_``k``_q == ac && cs_``k``_d == bc)
`define TRS(k, i, a, ac) \
  `CP(cs_``k``_``a, cs_``k``_q == ac) \
  `TR(k, i, a, ac, Off, CsOff) \
  `TR(k, i, a, ac, Wait, CsWait) \
  `TR(k, i, a, ac, Run, CsRun) \
  `TR(k, i, a, ac, Next, CsNext) \
  `CP(cs_``k``_``a``_promoted, promo[i] && cs_``k``_q == ac)
`define COPY(k, i) \
  `TRS(k, i, Off, CsOff) \
  `TRS(k, i, Wait, CsWait) \
  `TRS(k, i, Run, CsRun) \
  `TRS(k, i, Next, CsNext) \
  `CP(k``_start_granted, cs_e[2*i+:2] == CsWait && adv[i] && own[i] && !stp[i] && idle[i]) \
  `CP(k``_start_next_seg, cs_e[2*i+:2] == CsNext && adv[i]) \
  `CP(k``_bypass, adv[i] && rp_e[7*i+:7] == wp_q) \
  `CP(k``_from_buffer, adv[i] && rp_e[7*i+:7] != wp_q) \
  `CP(k``_wait_no_chunk, cs_e[2*i+:2] == CsWait && !f_cut_q && !avail[i]) \
  `CP(k``_wait_unowned, cs_e[2*i+:2] == CsWait && !f_cut_q && avail[i] && !own[i] && !claim[i]) \
  `CP(k``_wait_stopped, cs_e[2*i+:2] == CsWait && !f_cut_q && avail[i] && own[i] && stp[i] && !claim[i]) \
  `CP(k``_wait_not_idle, cs_e[2*i+:2] == CsWait && !f_cut_q && avail[i] && own[i] && !stp[i] && !idle[i]) \
  `CP(k``_wait_cut, cs_e[2*i+:2] == CsWait && f_cut_q) \
  `CP(k``_run_stopped, cs_e[2*i+:2] == CsRun && adv[i] && stp[i]) \
  `CP(k``_run_no_chunk, cs_e[2*i+:2] == CsRun && !avail[i] && !f_cut_q) \
  `CP(k``_run_cut_end, cs_e[2*i+:2] == CsRun && !avail[i] && f_cut_q) \
  `CP(k``_next_waits, cs_e[2*i+:2] == CsNext && !f_cut_q && !adv[i]) \
  `CP(k``_next_stopped, cs_e[2*i+:2] == CsNext && !f_cut_q && avail[i] && own[i] && stp[i]) \
  `CP(k``_next_abort, cs_e[2*i+:2] == CsNext && f_cut_q) \
  `CP(bp_``k``_unowned_Wait, cs_e[2*i+:2] == CsWait && req[i] && !own[i]) \
  `CP(bp_``k``_unowned_Run, cs_e[2*i+:2] == CsRun && req[i] && !own[i]) \
  `CP(bp_``k``_unowned_Next, cs_e[2*i+:2] == CsNext && req[i] && !own[i]) \
  `CP(bp_``k``_stop_Wait, cs_e[2*i+:2] == CsWait && req[i] && own[i] && stp[i]) \
  `CP(bp_``k``_stop_Run, cs_e[2*i+:2] == CsRun && req[i] && own[i] && stp[i]) \
  `CP(bp_``k``_stop_Next, cs_e[2*i+:2] == CsNext && req[i] && own[i] && stp[i])
  `COPY(st, 0)
  `COPY(ot, 1)
  `COPY(rc, 2)
  `COPY(pb, 3)
  // The straight copy's claim of a free output (§5.4), also in the cycle F is created (draft 3's
  // one-cycle claim); the bypass in any copy (§5.1).
  `CP(st_claim, cs_e[1:0] == CsWait && adv[0] && !(own[0] && !stp[0] && idle[0]))
  `CP(st_claim_at_creation, new_f && adv[0] && !(own[0] && !stp[0] && idle[0]))
  `CP(st_no_copy_at_edge, new_f && edge_i)
  `CP(bypass_taken, f_byp && (adv & {rp_e[27:21] == wp_q, rp_e[20:14] == wp_q, rp_e[13:7] == wp_q,
                                     rp_e[6:0] == wp_q}) != 4'b0000)
  `CP(bypass_two_copies, f_byp && $countones(adv & {rp_e[27:21] == wp_q, rp_e[20:14] == wp_q,
                                                    rp_e[13:7] == wp_q, rp_e[6:0] == wp_q}) >= 2)
  // rnew clears as the straight copy starts as the new message (§5.2).
  `CP(st_rnew_start, cs_e[1:0] == CsWait && adv[0] && f_rnew_q)
  // The straight copy ends in WAIT on a bad a1 (§5.5: nothing of a bad message is sent from WAIT).
  `CP(st_wait_bad_a1, cs_e[1:0] == CsWait && f_drop_q && !f_dec_q && !f_cut_q)

// ---- The speculative straight copy's check at base + 3 AWF (§5.2). -----------------------------
  `CP(spec_go_on, spec_at && spec_on)
  `CP(spec_rnew_wait, spec_at && !spec_on && spec_rnew && !f_cut_q)
  `CP(spec_rnew_cut_off, spec_at && !spec_on && spec_rnew && f_cut_q)
  `CP(spec_end_decided, spec_at && !spec_on && !spec_rnew && f_dec_q)
  `CP(spec_end_undecided, spec_at && !spec_on && !f_dec_q)

// ---- The adaptive switch (§7.1). ---------------------------------------------------------------
  `CP(adapt_request, adapt_req)
  `CP(adapt_switch, do_switch)
  `CP(adapt_switch_buffered, do_switch && !(f_in_q && iseg_q))
  `CP(adapt_switch_streaming, do_switch && f_in_q && iseg_q)
  `CP(adapt_no_switch_ot_unowned, adapt_req && !ot_own_i)
  `CP(adapt_no_switch_ot_stopped, adapt_req && ot_own_i && ot_stop_i)
  `CP(adapt_no_switch_ot_not_idle, adapt_req && ot_own_i && !ot_stop_i && ot_dat_q != 3'b000)
  `CP(adapt_straight_claimable, f_val_q && f_adapt_q && !f_cut_q && f_route_q == RtSt &&
                                cs_st_q == CsWait && !st_blocked)
  `CP(adapt_too_late, f_val_q && f_adapt_q && cs_st_q != CsWait && f_route_q == RtSt)
  `CP(adapt_swapped_copy, swap_q)

// ---- The slots (§3, §4.1, §5.6). ---------------------------------------------------------------
  `CP(slot_empty, !f_val_q && !b_val_q)
  `CP(slot_f_only, f_val_q && !b_val_q)
  `CP(slot_f_and_b, f_val_q && b_val_q)
  // listed unreachable: B exists only behind F
  `CP(slot_b_without_f, !f_val_q && b_val_q)
  `CP(slot_f_in_b_in, f_val_q && f_in_q && b_val_q && b_in_q)
  `CP(slot_b_complete_input, b_val_q && !b_in_q)
  `CP(slot_f_created, new_f)
  `CP(slot_b_created, new_b)
  `CP(slot_b_cleared, b_clear)
  `CP(slot_b_cleared_trunc, b_clear && ev_trunc)
  `CP(slot_b_cleared_cut_hdr, b_clear && cut_hdr)
  `CP(slot_b_cleared_drop, b_clear && !ev_trunc && !cut_hdr)
  `CP(slot_b_aborted_kept, on_b && ev_abort && !b_clear)
  `CP(slot_no_room, no_room)
  `CP(slot_discarding, idis_q && in_dat_i != 3'b000)
  // F complete (§5.6), without and with a B to promote, B created and promoted in one cycle, the
  // promoted message decided (its copies created) or not (the speculative straight copy, or none).
  `CP(promo_f_done_empty, f_done && !b1_val)
  `CP(promo_f_done_b, f_done && b1_val)
  `CP(promo_b_created_same_cycle, f_done && new_b && b1_val)
  `CP(promo_decided, f_done && b1_val && b1_dec)
  `CP(promo_undecided_spec, f_done && b1_val && !b1_dec && cs_st_d == CsWait)
  `CP(promo_undecided_no_copy, f_done && b1_val && !b1_dec && cs_st_d != CsWait)

// ---- The input on its slot (§4.2-§4.6), and the flags it sets. ---------------------------------
`define IN(sl, on) \
  `CP(in_``sl``_eom, on && ev_eom) \
  `CP(in_``sl``_trunc, on && ev_trunc) \
  `CP(in_``sl``_abort, on && ev_abort) \
  `CP(in_``sl``_cut_hdr, on && cut_hdr) \
  `CP(in_``sl``_bcast_cut, on && bc_cut) \
  `CP(in_``sl``_bad_long, on && bad_long) \
  `CP(in_``sl``_a1_good, on && dec_now) \
  `CP(in_``sl``_a1_bad, on && vpend_now) \
  `CP(in_``sl``_a2_done, on && a2_done) \
  `CP(in_``sl``_verdict_dead, on && verdict && gap) \
  `CP(in_``sl``_verdict_bad, on && v_bad) \
  `CP(in_``sl``_write, on && wr) \
  `CP(in_``sl``_discard, on && in_dat_i != 3'b000 && !wr && s_drop) \
  `CP(set_``sl``_drop, on && drop_now) \
  `CP(set_``sl``_cut, on && cut_now) \
  `CP(set_``sl``_dec, on && dec_now) \
  `CP(set_``sl``_vpend, on && vpend_now && !s_vpend) \
  `CP(set_``sl``_rnew, on && rnew_now) \
  `CP(set_``sl``_adapt, on && adapt_set)
  `IN(f, on_f)
  `IN(b, on_b)
  `CP(in_stray, (loose || brk) && !rx_f && !rx_b)
  // A segment started in the cycle stop rises (the sender saw it low one cycle late, §2 rule 2):
  // a back message, or a later segment of F.
  `CP(in_b_start_stop_rising, new_b && stop_q)
  `CP(in_seg_start_stop_rising, rx_f && start && !iseg_q && stop_q)

// Every control code of a completed good a1 word, at its match position and passing through.
`define A1(name, code) \
  `CP(a1_``name``_match, a1_done && !d_bad && d_code == code && d_match) \
  `CP(a1_``name``_pass, a1_done && !d_bad && d_code == code && !d_match)
  `A1(p2p_static, 3'd0)
  `A1(p2p_adapt, 3'd1)
  `A1(deliver, 3'd2)
  `A1(piggy_intra, 3'd3)
  `A1(bcast_2d, 3'd4)
  `A1(bcast_1d, 3'd5)
  `A1(piggy_inter, 3'd6)
  `CP(a1_illegal_bad, a1_done && d_code == 3'd7)

// ---- stop and the buffer (§6): stop raised by occupancy, by a blocked message (B, or F not
// sending), by both; occupancy high-water bins; the invariant (err, listed unreachable). --------
  `CP(stop_rise_occ, stop_d && !stop_q && occ_d > 7'd29 && !blocked_d)
  `CP(stop_rise_blocked_b, stop_d && !stop_q && occ_d <= 7'd29 && b1_val && !f_done)
  `CP(stop_rise_blocked_f, stop_d && !stop_q && occ_d <= 7'd29 && blocked_d && !(b1_val && !f_done))
  `CP(stop_rise_occ_and_blocked, stop_d && !stop_q && occ_d > 7'd29 && blocked_d)
  `CP(stop_fall, !stop_d && stop_q)
  `CP(stop_held_occ_only, stop_q && !blocked_d && occ_d > 7'd29)
  `CP(occ_0_with_f, f_val_q && occ_q == 7'd0)
  `CP(occ_gt29, occ_q > 7'd29)
  `CP(occ_gt64, occ_q > 7'd64)
  `CP(occ_gt96, occ_q > 7'd96)
  `CP(occ_ge115, occ_q >= 7'd115)
  `CP(occ_ge120, occ_q >= 7'd120)
  `CP(occ_ge125, occ_q >= 7'd125)
  `CP(occ_ge126, occ_q >= 7'd126)
  `CP(occ_127, occ_q == 7'd127)
  `CP(occ_gt29_write, occ_q > 7'd29 && wr)
  `CP(err_invariant, err)
  `CP(bp_in_f_only, in_dat_i != 3'b000 && in_stop_o && !b_val_q)
  `CP(bp_in_f_and_b, in_dat_i != 3'b000 && in_stop_o && b_val_q)
  // listed unreachable: stop is registered from F's (or B's) next validity
  `CP(bp_in_empty, in_stop_o && !f_val_q)

// ---- Counters: each one's increment, and 0, 1, max - 1, max (ifl saturates at 33; wp wraps). ---
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
  `CP(cnt_dead_inc, inc_dead)
  `CP(cnt_bad_code_inc, inc_bad_code)
  `CP(cnt_bad_addr_inc, inc_bad_addr)
  `CP(cnt_bad_long_inc, inc_bad_long)
  `CP(cnt_bad_long_inc_bcast, bc_cut)
  `CP(cnt_stray_inc, inc_stray)
  `CP(cnt_cut_inc, inc_cut)
  `CP(cnt_adapt_inc, do_switch)
  `CP(cnt_adapt_buf_inc, do_switch && !(f_in_q && iseg_q))
  // B cleared by the chunk that also drops it (a bad verdict on its EOM): written, then given back.
  `CP(slot_b_cleared_written, b_clear && wr)
`undef A1
`undef CNT4
`undef COPY
`undef CP
`undef IN
`undef TR
`undef TRS
endmodule

bind mp1_rm mp1_rm_cov #(.AWF(AWF)) u_mp1_rm_cov (.*);
