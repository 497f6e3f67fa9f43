// MP1 routing machine (docs/mp1_draft4.md, draft 4): one input channel of a plane. The input writes
// every segment into a 128-chunk circular buffer; up to two messages (front F, back B) are held,
// and F's copies (straight, other dimension, reception, piggy-back) each stream it to their own
// output, straight from the wire when caught up (bypass). AWF address flits per address word
// (docs/mp1.md §14): 1 is MP1, 2 gives 13-bit addresses.
module mp1_rm #(
  parameter int AWF = 1,
  // Address bits of a word (§14): 5, or 13 with two flits.
  localparam int AW = 5 + 8 * (AWF - 1),
  // Bits of a1 and a2: {code, addr} (§14.1).
  localparam int AWR = AW + 3
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic [AW-1:0] pos_i,
  input  logic [AW-1:0] opos_i,
  input  logic          neg_i,
  input  logic          oneg_i,
  input  logic          edge_i,
  input  logic          oedge_i,
  input  logic [2:0]    in_dat_i,
  input  logic          st_own_i,
  input  logic          st_free_i,
  input  logic          st_stop_i,
  input  logic          ot_own_i,
  input  logic          ot_free_i,
  input  logic          ot_stop_i,
  input  logic          rc_own_i,
  input  logic          rc_free_i,
  input  logic          rc_stop_i,
  input  logic          pb_own_i,
  input  logic          pb_free_i,
  input  logic          pb_stop_i,
  output logic          in_stop_o,
  output logic [2:0]    st_dat_o,
  output logic          st_req_o,
  output logic [2:0]    ot_dat_o,
  output logic          ot_req_o,
  output logic [2:0]    rc_dat_o,
  output logic          rc_req_o,
  output logic [2:0]    pb_dat_o,
  output logic          pb_req_o,
  output logic          err_o,
  // architectural registers (§3.1)
  output logic [1:0]    dbg_ic_o,
  output logic [4:0]    dbg_isr_o,
  output logic          dbg_iseg_o,
  output logic [5:0]    dbg_ifl_o,
  output logic [1:0]    dbg_ihd_o,
  output logic          dbg_iwf_o,
  output logic          dbg_idis_o,
  output logic [6:0]    dbg_wp_o,
  output logic          dbg_f_val_o,
  output logic          dbg_f_in_o,
  output logic          dbg_f_drop_o,
  output logic          dbg_f_cut_o,
  output logic          dbg_f_dec_o,
  output logic          dbg_f_vpend_o,
  output logic          dbg_f_rnew_o,
  output logic          dbg_f_adapt_o,
  output logic [6:0]    dbg_f_base_o,
  output logic [AW+2:0] dbg_f_a1_o,
  output logic [AW+2:0] dbg_f_a2_o,
  output logic [3:0]    dbg_f_route_o,
  output logic          dbg_b_val_o,
  output logic          dbg_b_in_o,
  output logic          dbg_b_drop_o,
  output logic          dbg_b_cut_o,
  output logic          dbg_b_dec_o,
  output logic          dbg_b_vpend_o,
  output logic          dbg_b_rnew_o,
  output logic          dbg_b_adapt_o,
  output logic [6:0]    dbg_b_base_o,
  output logic [AW+2:0] dbg_b_a1_o,
  output logic [AW+2:0] dbg_b_a2_o,
  output logic [3:0]    dbg_b_route_o,
  output logic [1:0]    dbg_cs_st_o,
  output logic [1:0]    dbg_cs_ot_o,
  output logic [1:0]    dbg_cs_rc_o,
  output logic [1:0]    dbg_cs_pb_o,
  output logic [6:0]    dbg_rp_st_o,
  output logic [6:0]    dbg_rp_ot_o,
  output logic [6:0]    dbg_rp_rc_o,
  output logic [6:0]    dbg_rp_pb_o,
  output logic          dbg_swap_o,
  output logic          dbg_stop_o,
  output logic [2:0]    dbg_st_dat_o,
  output logic [2:0]    dbg_ot_dat_o,
  output logic [2:0]    dbg_rc_dat_o,
  output logic [2:0]    dbg_pb_dat_o,
  output logic [15:0]   dbg_cnt_dead_o,
  output logic [15:0]   dbg_cnt_bad_code_o,
  output logic [15:0]   dbg_cnt_bad_addr_o,
  output logic [15:0]   dbg_cnt_bad_long_o,
  output logic [15:0]   dbg_cnt_stray_o,
  output logic [15:0]   dbg_cnt_cut_o,
  output logic [15:0]   dbg_cnt_adapt_o,
  output logic [15:0]   dbg_cnt_adapt_buf_o
);

  // Copy states (§3): OFF, WAIT (must start the message on its output), RUN (sending a segment),
  // NEXT (sent a segment's EOS, output still reserved). The same encoding in mp1_rm_copy.
  localparam logic [1:0] CsOff  = 2'd0;
  localparam logic [1:0] CsWait = 2'd1;
  localparam logic [1:0] CsRun  = 2'd2;
  localparam logic [1:0] CsNext = 2'd3;

  // Chunks outside a flit (docs/mp1.md §2.1).
  localparam logic [2:0] ChIdle = 3'b000;
  localparam logic [2:0] ChEos  = 3'b001;
  localparam logic [2:0] ChEom  = 3'b010;
  localparam logic [2:0] ChIll  = 3'b011;

  // Control codes (docs/mp1.md §3.1).
  localparam logic [2:0] CodeP2pStatic  = 3'd0;
  localparam logic [2:0] CodeP2pAdapt   = 3'd1;
  localparam logic [2:0] CodeDeliver    = 3'd2;
  localparam logic [2:0] CodePiggyIntra = 3'd3;
  localparam logic [2:0] CodeBcast2d    = 3'd4;
  localparam logic [2:0] CodeBcast1d    = 3'd5;
  localparam logic [2:0] CodePiggyInter = 3'd6;
  localparam logic [2:0] CodeIllegal    = 3'd7;

  // Copies: bit k of a route, index k of the per-copy vectors below (docs/mp1.md §8.5).
  localparam int unsigned KSt = 0;
  localparam int unsigned KOt = 1;
  localparam int unsigned KRc = 2;
  localparam int unsigned KPb = 3;
  localparam logic [3:0] RtSt = 4'b0001;
  localparam logic [3:0] RtOt = 4'b0010;
  localparam logic [3:0] RtRc = 4'b0100;
  localparam logic [3:0] RtPb = 4'b1000;

  // Offsets from a message's base (docs/mp1.md §8.6 rule 2, §14.2 rule 3): a1's word at
  // 0 .. 3 AWF - 1, a2's at 3 AWF .. 6 AWF - 1, the data from 6 AWF. The second chunk of a word's
  // first flit carries the code's low bit (§14.2 rule 4).
  localparam logic [6:0] OffA2   = 7'(3 * AWF);
  localparam logic [6:0] OffA2Md = 7'(3 * AWF + 1);
  localparam logic [6:0] OffA1Hi = 7'(3 * AWF - 1);
  localparam logic [6:0] OffA2Hi = 7'(6 * AWF - 1);
  localparam logic [6:0] OffData = 7'(6 * AWF);

  // stop rises above 29 chunks (§6): 29, one chunk in flight and a whole segment (97) make 127.
  localparam logic [6:0] OccStop = 7'd29;
  // The invariant (§6): no chunk is written while occ is above 126.
  localparam logic [6:0] OccErr  = 7'd126;

  localparam logic [5:0] IflLong = 6'd32;
  localparam logic [5:0] IflSat  = 6'd33;
  // A truncated segment of at most this many flits is a dead address word (§14.2 rule 5).
  localparam logic [5:0] IflDead = 6'(AWF);
  // a2's word completes with the segment's 2 AWF-th flit when the header is whole in it (§4.3).
  localparam logic [5:0] IflHdr  = 6'(2 * AWF);

  // iwf is one bit and the offsets must fit the buffer: a word has one or two flits (§14).
  if (AWF < 1 || AWF > 2) begin : g_awf_check
    $error("mp1_rm: AWF must be 1 or 2");
  end

  // A message slot (§3.1), in port-list order. The registers are the <s>_<field>_q below; the
  // logic works on these packed views.
  typedef struct packed {
    logic           val;
    logic           in;
    logic           drop;
    logic           cut;
    logic           dec;
    logic           vpend;
    logic           rnew;
    logic           adapt;
    logic [6:0]     base;
    logic [AWR-1:0] a1;
    logic [AWR-1:0] a2;
    logic [3:0]     route;
  } slot_t;

  // A two-dimension code: a second address word follows a1 (codes 0, 1, 4).
  function automatic logic two_dim(input logic [2:0] code);
    two_dim = (code == CodeP2pStatic) || (code == CodeP2pAdapt) || (code == CodeBcast2d);
  endfunction

  // The copies of a good a1 (docs/mp1.md §8.5).
  function automatic logic [3:0] route_of(input logic [2:0] code, input logic match);
    route_of = 4'b0000;
    if (match) begin
      unique case (code)
        CodeP2pStatic, CodeP2pAdapt: route_of = RtOt;
        CodeDeliver, CodeBcast1d:    route_of = RtRc;
        CodePiggyIntra:              route_of = RtSt;
        CodeBcast2d:                 route_of = RtOt | RtRc;
        CodePiggyInter:              route_of = RtPb;
        default:                     route_of = 4'b0000;
      endcase
    end else begin
      unique case (code)
        CodeBcast2d: route_of = RtSt | RtOt | RtRc;
        CodeBcast1d: route_of = RtSt | RtRc;
        CodeIllegal: route_of = 4'b0000;
        default:     route_of = RtSt;
      endcase
    end
  endfunction

  // First chunk of copy k of a decided message (docs/mp1.md §8.6 rule 2, §14.2 rule 3): st at the
  // base, or past a1's word when it leaves as a new message; the other copies skip a1's word, and
  // a code-4 reception copy a2's as well.
  function automatic logic [6:0] first_of(input int unsigned k, input logic [6:0] base,
                                          input logic [2:0] code, input logic rnew);
    first_of = base + OffA2;
    if (k == KSt && !rnew) begin
      first_of = base;
    end else if (k == KRc && code == CodeBcast2d) begin
      first_of = base + OffData;
    end
  endfunction

  // Occupancy (§6): the distance from the oldest chunk F still needs to wp. That is the largest
  // backlog of F's copies in RUN and NEXT, and F's base while a copy waits, the route is
  // undecided, or the turned copy still reads a2's word (a1's word is still to be read); 0
  // without F (or with nothing F needs).
  function automatic logic [6:0] occ_of(input logic val, input logic dec, input logic [6:0] base,
                                        input logic [7:0] cs, input logic [27:0] rp,
                                        input logic swap, input logic [6:0] wp);
    logic [6:0] occ, bl;
    logic       from_base;
    occ       = 7'd0;
    from_base = !dec || (swap && ((rp[7*KOt+:7] - base) >= OffA2));
    for (int unsigned k = 0; k < 4; k++) begin
      if (cs[2*k+:2] == CsWait) begin
        from_base = 1'b1;
      end
      if (cs[2*k+:2] == CsRun || cs[2*k+:2] == CsNext) begin
        bl = wp - rp[7*k+:7];
        if (bl > occ) begin
          occ = bl;
        end
      end
    end
    bl = wp - base;
    if (from_base && bl > occ) begin
      occ = bl;
    end
    occ_of = val ? occ : 7'd0;
  endfunction

  // ---- Registers -----------------------------------------------------------------------------
  logic [1:0]     ic_d, ic_q;
  logic [4:0]     isr_d, isr_q;
  logic           iseg_d, iseg_q;
  logic [5:0]     ifl_d, ifl_q;
  logic [1:0]     ihd_d, ihd_q;
  logic           iwf_d, iwf_q;
  logic           idis_d, idis_q;
  logic [6:0]     wp_d, wp_q;
  logic           f_val_q, f_in_q, f_drop_q, f_cut_q, f_dec_q, f_vpend_q, f_rnew_q, f_adapt_q;
  logic [6:0]     f_base_q;
  logic [AWR-1:0] f_a1_q, f_a2_q;
  logic [3:0]     f_route_q;
  logic           b_val_q, b_in_q, b_drop_q, b_cut_q, b_dec_q, b_vpend_q, b_rnew_q, b_adapt_q;
  logic [6:0]     b_base_q;
  logic [AWR-1:0] b_a1_q, b_a2_q;
  logic [3:0]     b_route_q;
  logic [1:0]     cs_st_d, cs_st_q, cs_ot_d, cs_ot_q, cs_rc_d, cs_rc_q, cs_pb_d, cs_pb_q;
  logic [6:0]     rp_st_d, rp_st_q, rp_ot_d, rp_ot_q, rp_rc_d, rp_rc_q, rp_pb_d, rp_pb_q;
  logic           swap_d, swap_q;
  logic           stop_d, stop_q;
  logic [2:0]     st_dat_d, st_dat_q, ot_dat_d, ot_dat_q, rc_dat_d, rc_dat_q, pb_dat_d, pb_dat_q;
  logic [15:0]    cnt_dead_d, cnt_dead_q;
  logic [15:0]    cnt_bad_code_d, cnt_bad_code_q;
  logic [15:0]    cnt_bad_addr_d, cnt_bad_addr_q;
  logic [15:0]    cnt_bad_long_d, cnt_bad_long_q;
  logic [15:0]    cnt_stray_d, cnt_stray_q;
  logic [15:0]    cnt_cut_d, cnt_cut_q;
  logic [15:0]    cnt_adapt_d, cnt_adapt_q;
  logic [15:0]    cnt_adapt_buf_d, cnt_adapt_buf_q;

  slot_t f_q, b_q, f_d, b_d;
  assign f_q = {f_val_q, f_in_q, f_drop_q, f_cut_q, f_dec_q, f_vpend_q, f_rnew_q, f_adapt_q,
                f_base_q, f_a1_q, f_a2_q, f_route_q};
  assign b_q = {b_val_q, b_in_q, b_drop_q, b_cut_q, b_dec_q, b_vpend_q, b_rnew_q, b_adapt_q,
                b_base_q, b_a1_q, b_a2_q, b_route_q};

  // The buffer: 128 entries {endc, chunk} (§3), not reset (an entry is read only once written).
  logic [3:0] mem [128];

  // ---- Input framing (docs/mp1.md §8.3, §8.8 rule 7) -----------------------------------------
  logic [2:0] c;
  logic       start, endc, eom, gap, trunc, brk, loose, done, seg_chunk;
  logic [7:0] flit;

  always_comb begin
    c         = in_dat_i;
    start     = (ic_q == 2'd0) && c[2];
    // An end code ends a segment only inside one; outside it is a stray or ignored (§4.6).
    endc      = (ic_q == 2'd0) && iseg_q && (c == ChEos || c == ChEom);
    eom       = endc && (c == ChEom);
    gap       = (ic_q == 2'd0) && (c == ChIdle || c == ChIll);
    trunc     = iseg_q && gap;
    // Between segments: the illegal chunk (an abort, or a stray with no message open) and end
    // codes (strays, or ignored inside a message).
    brk       = (ic_q == 2'd0) && !iseg_q && (c == ChIll);
    loose     = (ic_q == 2'd0) && !iseg_q && (c == ChEos || c == ChEom);
    done      = (ic_q == 2'd2);
    seg_chunk = start || (ic_q != 2'd0) || endc;
    flit      = {isr_q, c};

    ic_d  = start ? 2'd1 : (ic_q == 2'd1) ? 2'd2 : 2'd0;
    isr_d = isr_q;
    if (start) begin
      isr_d[4:3] = c[1:0];
    end else if (ic_q == 2'd1) begin
      isr_d[2:0] = c;
    end
    iseg_d = start ? 1'b1 : (endc || trunc) ? 1'b0 : iseg_q;
    ifl_d  = start ? ((ifl_q == IflSat) ? IflSat : ifl_q + 6'd1) : (endc || trunc) ? 6'd0 : ifl_q;
  end

  // ---- The slot the input acts on (§4.1) -------------------------------------------------------
  // The receiving slot is the newest message not yet received to its end; a segment start with
  // none starts a message in F, else in B (F's input has ended), else nowhere (§4.6).
  logic rx_f, rx_b, rx, msg_start, new_f, new_b, no_room, on_f, on_b;
  slot_t s;

  always_comb begin
    rx_f      = f_val_q && f_in_q;
    rx_b      = !rx_f && b_val_q && b_in_q;
    rx        = rx_f || rx_b;
    msg_start = start && !iseg_q && !rx;
    new_f     = msg_start && !f_val_q;
    new_b     = msg_start && f_val_q && !b_val_q;
    no_room   = msg_start && f_val_q && b_val_q;
    on_f      = rx_f || new_f;
    on_b      = rx_b || new_b;
    // A new slot: val, in, base = wp, everything else 0.
    s = '0;
    if (new_f || new_b) begin
      s.val  = 1'b1;
      s.in   = 1'b1;
      s.base = wp_q;
    end else if (rx_f) begin
      s = f_q;
    end else if (rx_b) begin
      s = b_q;
    end
  end

  // ---- Header words and the decision (§4.3, docs/mp1.md §14.2 rules 1-2) -----------------------
  logic           a1_flit, a2_flit, w_last, a1_done, a2_done;
  logic [AWR-1:0] a1_w, a2_w;
  logic [2:0]     d_code;
  logic [AW-1:0]  d_addr;
  logic           d_match, d_ahead, d_bad, d_rnew, ahead2, adapt_set;
  logic [3:0]     d_route;

  always_comb begin
    // Header flits go to the receiving slot; a word completes with its last flit.
    a1_flit = rx && done && (ihd_q == 2'd0);
    a2_flit = rx && done && (ihd_q == 2'd1);
    w_last  = (iwf_q == 1'(AWF - 1));
    a1_done = a1_flit && w_last;
    a2_done = a2_flit && w_last;
    a1_w    = AWR'({s.a1, flit});
    a2_w    = AWR'({s.a2, flit});

    // The verdict on the completed a1 word (docs/mp1.md §8.3): bad also for a route into a
    // missing output (§8.8 rule 2).
    d_code  = a1_w[AW+2:AW];
    d_addr  = a1_w[AW-1:0];
    d_match = (d_addr == pos_i);
    d_ahead = neg_i ? (d_addr < pos_i) : (d_addr > pos_i);
    d_route = route_of(d_code, d_match);
    d_rnew  = d_match && (d_code == CodePiggyIntra);
    d_bad   = (d_code == CodeIllegal) || (!d_match && (!d_ahead || edge_i)) ||
              (d_route[KSt] && edge_i) || (d_route[KOt] && oedge_i);

    // Adaptive permission as a2's word completes: code 1, no match on a1, distance left in the
    // other dimension, which has a neighbour, and the header whole in the message's first segment
    // (a2's word ends the segment's 2 AWF-th flit): a turn of a header cut after a1 would send a
    // later segment's EOS inside the swapped header (§4.3).
    ahead2    = oneg_i ? (a2_w[AW-1:0] < opos_i) : (a2_w[AW-1:0] > opos_i);
    adapt_set = a2_done && (s.a1[AW+2:AW] == CodeP2pAdapt) && (s.a1[AW-1:0] != pos_i) &&
                ahead2 && !oedge_i && (ifl_q == IflHdr);

    // ihd and iwf belong to the message at the input: cleared when one starts (§4.1).
    ihd_d = ihd_q;
    iwf_d = iwf_q;
    if (new_f || new_b) begin
      ihd_d = 2'd0;
      iwf_d = 1'b0;
    end else if (a1_flit || a2_flit) begin
      ihd_d = w_last ? ihd_q + 2'd1 : ihd_q;
      iwf_d = w_last ? 1'b0 : iwf_q + 1'b1;
    end
  end

  // ---- What the input does to its slot (§4.2-§4.6) ---------------------------------------------
  logic       verdict, v_bad, bad_long, cut_hdr, bc_cut, wr, ev_trunc, ev_abort, ev_eom, in_end;
  logic       b_clear;
  logic [3:0] wr_chunk;
  logic       inc_dead, inc_bad_code, inc_bad_addr, inc_bad_long, inc_stray, inc_cut;
  slot_t      s_n;

  always_comb begin
    // vpend: the chunk after a bad a1 decides; a gap made it a dead word (counted as the
    // truncation it is), anything else a bad message (§4.3).
    verdict  = rx && s.vpend;
    v_bad    = verdict && !gap;
    // A 33rd flit (§4.5); not for a slot already discarding its input.
    bad_long = rx && start && (ifl_q == IflLong) && !s.drop;
    // A header cut short (§4.4): an end code inside a1's word, or after a1 of a two-dimension
    // code unless the route is straight alone (then it is forwarded, and the next machine cuts
    // it). A pending verdict goes first (docs/mp1.md §8.8 rule 11: after the vpend case).
    cut_hdr  = rx && endc && !s.vpend && !s.drop &&
               ((ihd_q == 2'd0) ||
                ((ihd_q == 2'd1) && two_dim(s.a1[AW+2:AW]) && (s.route != RtSt)));
    // A broadcast that is not only delivered here is one segment: its EOS is written as EOM and
    // the rest of the message is discarded (§4.4, docs/mp1.md §8.8 rule 10).
    bc_cut   = rx && endc && (c == ChEos) && !s.vpend && !s.drop && !cut_hdr &&
               s.route[KRc] && (s.route[KSt] || s.route[KOt]);
    // Every chunk of a segment of the slot is written, unless it drops its input (drop as it
    // stood before this chunk), or the chunk is an over-long flit's start or a cut header's end
    // code (§4.2).
    wr       = (rx || new_f || new_b) && seg_chunk && !s.drop && !bad_long && !cut_hdr;
    wr_chunk = {endc, bc_cut ? ChEom : c};
    // The input of the slot ends (§4.4): EOM, truncation, abort between segments (§4.2), or a
    // cut header.
    ev_trunc = rx && trunc;
    ev_abort = rx && brk;
    ev_eom   = rx && eom && !cut_hdr;
    in_end   = ev_eom || ev_trunc || ev_abort || cut_hdr;

    s_n = s;
    if (a1_flit) begin
      s_n.a1 = a1_w;
    end
    if (a2_flit && two_dim(s.a1[AW+2:AW])) begin
      s_n.a2 = a2_w;
    end
    if (a1_done) begin
      if (d_bad) begin
        s_n.vpend = 1'b1;
      end else begin
        s_n.route = d_route;
        s_n.rnew  = d_rnew;
        s_n.dec   = 1'b1;
      end
    end
    if (adapt_set) begin
      s_n.adapt = 1'b1;
    end
    if (verdict) begin
      s_n.vpend = 1'b0;
    end
    if (v_bad || bad_long || bc_cut) begin
      s_n.drop = 1'b1;
    end
    if (in_end) begin
      s_n.in = 1'b0;
    end
    // Copies end early after an input ended without its EOM; a discarded message's end is
    // discarded with it (§4.5).
    if (bad_long || ((ev_trunc || ev_abort || cut_hdr) && !s.drop)) begin
      s_n.cut = 1'b1;
    end

    // A back message ended by a truncation or a cut header has sent nothing: cleared at once; so
    // is one that drops its input, when the input ends, except a cut broadcast (drop with dec and
    // not cut), whose first segment stays to be sent (§4.4). An aborted B keeps its slot.
    b_clear = on_b && in_end && (ev_trunc || cut_hdr || s_n.drop) &&
              !(s_n.drop && s_n.dec && !s_n.cut);

    // Counters (§4): a discarded message's end is not counted; strays only with no message open
    // at the input (§4.6).
    inc_dead     = ev_trunc && !s.drop && (ifl_q <= IflDead);
    inc_cut      = !s.drop && ((ev_trunc && (ifl_q > IflDead)) || ev_abort || cut_hdr);
    inc_bad_code = v_bad && (s.a1[AW+2:AW] == CodeIllegal);
    inc_bad_addr = v_bad && (s.a1[AW+2:AW] != CodeIllegal);
    inc_bad_long = bad_long || bc_cut;
    inc_stray    = ((loose || brk) && !rx) || no_room;

    // A start with no room is discarded to its segment's end (§4.6).
    idis_d = no_room ? 1'b1 : (endc || trunc) ? 1'b0 : idis_q;
    // A cleared B gives its entries back: the writer returns to B's base, so F's end (§5.1) does
    // not take them for F's (§4.4).
    wp_d   = b_clear ? s.base : wp_q + 7'(wr);
  end

  // ---- F's copies: what acts on them from outside, and their chunks (§5.1) ---------------------
  // Per-copy vectors hold copy k at [2k +: 2] (states), [7k +: 7] (pointers), [4k +: 4] (chunks)
  // and [3k +: 3] (output chunks).

  // The decision on F this cycle acts on its copies at once (§5.3).
  logic dec_f;
  assign dec_f = on_f && a1_done && !d_bad;

  // Straight is blocked, and F may turn instead (§7.1): nothing of it has gone straight, and the
  // other output is free for us. A message cut at its input starts no copy (§5.5), so it does not
  // switch either.
  logic st_blocked, adapt_req, do_switch;
  assign st_blocked = (!st_own_i || st_stop_i) && !(st_free_i && !st_stop_i);
  assign adapt_req  = f_val_q && f_adapt_q && !f_cut_q && (f_route_q == RtSt) &&
                      (cs_st_q == CsWait) && st_blocked;
  assign do_switch  = adapt_req && ot_own_i && !ot_stop_i && (ot_dat_q == ChIdle);

  // F's chunks (§5.1) end at B's base while B is valid, else at wp: a chunk of B is never a
  // chunk of F. The bypass takes the chunk the input writes in this cycle, only when it is one of
  // F's (B is not valid then: F's input ends before B starts).
  logic [6:0] f_end;
  logic       f_byp;
  assign f_end = b_val_q ? b_base_q : wp_q;
  assign f_byp = !b_val_q && on_f && wr;

  // A RUN straight copy that would send chunk base + 3 AWF (it has that chunk) checks the route
  // (§5.2): it goes on with st in the route and not rnew, waits to leave as a new message (rnew),
  // else ends. rnew clears as the new message starts (below), so a long message's copy that
  // comes back to the same index 128 chunks later goes on.
  logic spec_at, spec_on, spec_rnew;
  assign spec_at   = (cs_st_q == CsRun) && (rp_st_q == f_base_q + OffA2) &&
                     ((rp_st_q != f_end) || ((rp_st_q == wp_q) && f_byp));
  assign spec_on   = f_dec_q && f_route_q[KSt] && !f_rnew_q;
  assign spec_rnew = f_dec_q && f_rnew_q;

  // Effective state of each copy this cycle: its creation with a new F (§4.1, §5.2), the decision
  // (§5.3), the adaptive switch (§7.1) and the speculative check (§5.2) applied.
  logic [7:0]  cs_e;
  logic [27:0] rp_e;
  logic [3:0]  hold_e;
  logic        swap_e;

  always_comb begin
    cs_e   = {cs_pb_q, cs_rc_q, cs_ot_q, cs_st_q};
    rp_e   = {rp_pb_q, rp_rc_q, rp_ot_q, rp_st_q};
    hold_e = 4'b0000;
    swap_e = swap_q;

    if (new_f) begin
      // The speculative straight copy of a new F, reading the arriving chunk (§5.2); none at the
      // edge, where the straight pointer keeps its value.
      if (!edge_i) begin
        cs_e[2*KSt+:2] = CsWait;
        rp_e[7*KSt+:7] = wp_q;
      end
    end else if (dec_f && cs_st_q == CsWait) begin
      // A waiting straight copy stays, moves past a1's word (rnew), or ends (§5.3).
      if (!d_route[KSt]) begin
        cs_e[2*KSt+:2] = CsOff;
      end else if (d_rnew) begin
        rp_e[7*KSt+:7] = f_base_q + OffA2;
        hold_e[KSt]    = 1'b1;
      end
    end else if (do_switch) begin
      cs_e[2*KSt+:2] = CsOff;
    end else if (spec_at && !spec_on) begin
      if (spec_rnew) begin
        // The data leave as a new message, after the idle chunk that ends the dead a1 word.
        cs_e[2*KSt+:2] = CsWait;
        hold_e[KSt]    = 1'b1;
      end else begin
        cs_e[2*KSt+:2] = CsOff;
      end
    end

    // The decision creates the other copies of the route, at their first chunks (§5.3).
    for (int unsigned k = 1; k < 4; k++) begin
      if (dec_f && d_route[k]) begin
        cs_e[2*k+:2] = CsWait;
        rp_e[7*k+:7] = first_of(k, f_base_q, d_code, d_rnew);
      end
    end
    if (do_switch) begin
      // The turn starts at once with a2's word, complete in the buffer (§7.1).
      cs_e[2*KOt+:2] = CsWait;
      rp_e[7*KOt+:7] = f_base_q + OffA2;
      swap_e         = 1'b1;
    end
  end

  // A copy has a chunk when its pointer is before F's end (the entry is written), or when it is at
  // wp and the input writes a chunk of F now (the bypass, §5.1). A pointer can be ahead of wp
  // only while F's header arrives (a copy created at the decision skips words not yet written); F
  // then has fewer than 6 AWF chunks in the buffer, so offsets from its base compare exactly. At
  // any other time a pointer at F's end has caught up: a copy of a cut F that reaches B's base
  // has no chunk, even while B's chunks are written behind it.
  logic        hdr;
  logic [3:0]  avail;
  logic [15:0] chunk;
  logic [6:0]  off_ot;

  always_comb begin
    hdr = rx_f && (ihd_q != 2'd2);
    for (int unsigned k = 0; k < 4; k++) begin
      avail[k]       = !(hdr && ((rp_e[7*k+:7] - f_base_q) > (wp_q - f_base_q))) &&
                       ((rp_e[7*k+:7] != f_end) || ((rp_e[7*k+:7] == wp_q) && f_byp));
      chunk[4*k+:4]  = (rp_e[7*k+:7] == wp_q) ? wr_chunk : mem[rp_e[7*k+:7]];
    end
    // The adaptive turn sends a2's address under a1's code, then a1's address under a2's code
    // (docs/mp1.md §8.8 rule 9, §14.2 rule 4): only the words' first flits change.
    off_ot = rp_e[7*KOt+:7] - f_base_q;
    if (swap_e) begin
      unique case (off_ot)
        OffA2:   chunk[4*KOt+:4] = {2'b01, f_a1_q[AW+2:AW+1]};
        OffA2Md: chunk[4*KOt+:4] = {1'b0, f_a1_q[AW], f_a2_q[AW-1:AW-2]};
        7'd0:    chunk[4*KOt+:4] = {2'b01, f_a2_q[AW+2:AW+1]};
        7'd1:    chunk[4*KOt+:4] = {1'b0, f_a2_q[AW], f_a1_q[AW-1:AW-2]};
        default: ;
      endcase
    end
  end

  // ---- F's copies: next state (§5.4, §5.5) -----------------------------------------------------
  logic [3:0]  own, stp, idle, claim, adv, req;
  logic [7:0]  cs_c;
  logic [11:0] dat_c;

  assign own   = {pb_own_i, rc_own_i, ot_own_i, st_own_i};
  assign stp   = {pb_stop_i, rc_stop_i, ot_stop_i, st_stop_i};
  assign idle  = {pb_dat_q == ChIdle, rc_dat_q == ChIdle, ot_dat_q == ChIdle,
                  st_dat_q == ChIdle};
  // Only straight claims a free output: it is the arbiter's first requester there (§5.4, §8).
  assign claim = {3'b000, st_free_i && !st_stop_i};
  // A bad a1 (dropped, undecided) ends the speculative straight copy in WAIT (§5.5); on the
  // registered flags, like the cut.
  logic [3:0] bad;
  assign bad = {3'b000, f_drop_q && !f_dec_q};

  for (genvar k = 0; k < 4; k++) begin : g_copy
    mp1_rm_copy u_copy (
      .cs_i    (cs_e[2*k+:2]),
      .hold_i  (hold_e[k]),
      .avail_i (avail[k]),
      .chunk_i (chunk[4*k+:4]),
      .own_i   (own[k]),
      .stop_i  (stp[k]),
      .idle_i  (idle[k]),
      .claim_i (claim[k]),
      .cut_i   (f_cut_q),
      .bad_i   (bad[k]),
      .cs_o    (cs_c[2*k+:2]),
      .adv_o   (adv[k]),
      .dat_o   (dat_c[3*k+:3]),
      .req_o   (req[k])
    );
  end

  // Read pointers after this cycle's chunk; the turned copy follows a2's word, a1's word, then the
  // data (docs/mp1.md §8.6 rule 6, §14.2 rule 4).
  logic [27:0] rp_c;
  logic        swap_c;

  always_comb begin
    for (int unsigned k = 0; k < 4; k++) begin
      rp_c[7*k+:7] = rp_e[7*k+:7] + 7'(adv[k]);
    end
    swap_c = swap_e;
    if (adv[KOt] && swap_e) begin
      if (off_ot == OffA2Hi) begin
        rp_c[7*KOt+:7] = f_base_q;
      end else if (off_ot == OffA1Hi) begin
        rp_c[7*KOt+:7] = f_base_q + OffData;
        swap_c         = 1'b0;
      end
    end
  end

  // ---- Slots after this cycle; F complete, B promoted (§5.6) ----------------------------------
  slot_t       f_1, b_1;
  logic [7:0]  cs_n;
  logic [27:0] rp_n;
  logic        f_done;

  always_comb begin
    f_1 = on_f ? s_n : f_q;
    b_1 = on_b ? (b_clear ? '0 : s_n) : b_q;
    if (do_switch) begin
      f_1.route = RtOt;
    end

    f_done = f_val_q && !f_1.in && (cs_c == {4{CsOff}});

    // rnew clears in the cycle the straight copy starts from WAIT as the new message (§5.2):
    // from then on the route is plain st.
    if ((cs_e[2*KSt+:2] == CsWait) && adv[KSt]) begin
      f_1.rnew = 1'b0;
    end

    cs_n   = cs_c;
    rp_n   = rp_c;
    swap_d = new_f ? 1'b0 : swap_c;

    f_d = f_1;
    b_d = b_1;
    if (f_done) begin
      // F takes B's next values (a B created or decided in this cycle included), B is cleared,
      // and the promoted message's copies are created; they ask from the next cycle on.
      f_d    = b_1;
      b_d    = '0;
      swap_d = 1'b0;
      if (b_1.val && b_1.dec) begin
        for (int unsigned k = 0; k < 4; k++) begin
          if (b_1.route[k]) begin
            cs_n[2*k+:2] = CsWait;
            rp_n[7*k+:7] = first_of(k, b_1.base, b_1.a1[AW+2:AW], b_1.rnew);
          end
        end
      end else if (b_1.val && !b_1.vpend && !b_1.drop && !edge_i) begin
        // Undecided: the speculative straight copy (§5.2).
        cs_n[2*KSt+:2] = CsWait;
        rp_n[7*KSt+:7] = b_1.base;
      end
    end

    {cs_pb_d, cs_rc_d, cs_ot_d, cs_st_d}     = cs_n;
    {rp_pb_d, rp_rc_d, rp_ot_d, rp_st_d}     = rp_n;
    {pb_dat_d, rc_dat_d, ot_dat_d, st_dat_d} = dat_c;
  end

  // ---- stop and the buffer invariant (§6) ------------------------------------------------------
  logic [6:0] occ_d, occ_q;
  logic       run_d, blocked_d, err;

  always_comb begin
    occ_d = occ_of(f_d.val, f_d.dec, f_d.base, {cs_pb_d, cs_rc_d, cs_ot_d, cs_st_d},
                   {rp_pb_d, rp_rc_d, rp_ot_d, rp_st_d}, swap_d, wp_d);
    occ_q = occ_of(f_val_q, f_dec_q, f_base_q, {cs_pb_q, cs_rc_q, cs_ot_q, cs_st_q},
                   {rp_pb_q, rp_rc_q, rp_ot_q, rp_st_q}, swap_q, wp_q);
    run_d = (cs_st_d == CsRun) || (cs_ot_d == CsRun) || (cs_rc_d == CsRun) || (cs_pb_d == CsRun);
    // Blocked: holding a message it is not sending. B always is: it waits for F to complete.
    blocked_d = b_d.val || (f_d.val && !f_d.drop && (occ_d != 7'd0) && !run_d);
    // A buffer holding a blocked message accepts no further segment until it resumes (004 §3.1):
    // stop rises while the blocked message's segment still arrives, so a sender deciding on the
    // cycle of its EOM sees it; the occupancy bound keeps a segment started with stop low within
    // the buffer.
    stop_d = (occ_d > OccStop) || blocked_d;
    // The writer would lap the oldest chunk F needs.
    err = wr && (occ_q > OccErr);
  end

`ifndef SYNTHESIS
  // Both models flag the invariant (err_o); here it also stops the simulation (§3.2).
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!err) else $error("mp1_rm: chunk written with occupancy over 126 (draft 4 §6)");
    end
  end
`endif

  // ---- Counters ------------------------------------------------------------------------------
  always_comb begin
    cnt_dead_d      = cnt_dead_q + 16'(inc_dead);
    cnt_bad_code_d  = cnt_bad_code_q + 16'(inc_bad_code);
    cnt_bad_addr_d  = cnt_bad_addr_q + 16'(inc_bad_addr);
    cnt_bad_long_d  = cnt_bad_long_q + 16'(inc_bad_long);
    cnt_stray_d     = cnt_stray_q + 16'(inc_stray);
    cnt_cut_d       = cnt_cut_q + 16'(inc_cut);
    cnt_adapt_d     = cnt_adapt_q + 16'(do_switch);
    // The turn came from a segment buffered whole: F's input has no segment open (§7.1).
    cnt_adapt_buf_d = cnt_adapt_buf_q + 16'(do_switch && !(f_in_q && iseg_q));
  end

  // ---- Register updates ------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ic_q            <= 2'd0;
      isr_q           <= 5'd0;
      iseg_q          <= 1'b0;
      ifl_q           <= 6'd0;
      ihd_q           <= 2'd0;
      iwf_q           <= 1'b0;
      idis_q          <= 1'b0;
      wp_q            <= 7'd0;
      f_val_q         <= 1'b0;
      f_in_q          <= 1'b0;
      f_drop_q        <= 1'b0;
      f_cut_q         <= 1'b0;
      f_dec_q         <= 1'b0;
      f_vpend_q       <= 1'b0;
      f_rnew_q        <= 1'b0;
      f_adapt_q       <= 1'b0;
      f_base_q        <= 7'd0;
      f_a1_q          <= '0;
      f_a2_q          <= '0;
      f_route_q       <= 4'b0000;
      b_val_q         <= 1'b0;
      b_in_q          <= 1'b0;
      b_drop_q        <= 1'b0;
      b_cut_q         <= 1'b0;
      b_dec_q         <= 1'b0;
      b_vpend_q       <= 1'b0;
      b_rnew_q        <= 1'b0;
      b_adapt_q       <= 1'b0;
      b_base_q        <= 7'd0;
      b_a1_q          <= '0;
      b_a2_q          <= '0;
      b_route_q       <= 4'b0000;
      cs_st_q         <= CsOff;
      cs_ot_q         <= CsOff;
      cs_rc_q         <= CsOff;
      cs_pb_q         <= CsOff;
      rp_st_q         <= 7'd0;
      rp_ot_q         <= 7'd0;
      rp_rc_q         <= 7'd0;
      rp_pb_q         <= 7'd0;
      swap_q          <= 1'b0;
      stop_q          <= 1'b0;
      st_dat_q        <= ChIdle;
      ot_dat_q        <= ChIdle;
      rc_dat_q        <= ChIdle;
      pb_dat_q        <= ChIdle;
      cnt_dead_q      <= 16'd0;
      cnt_bad_code_q  <= 16'd0;
      cnt_bad_addr_q  <= 16'd0;
      cnt_bad_long_q  <= 16'd0;
      cnt_stray_q     <= 16'd0;
      cnt_cut_q       <= 16'd0;
      cnt_adapt_q     <= 16'd0;
      cnt_adapt_buf_q <= 16'd0;
    end else begin
      ic_q            <= ic_d;
      isr_q           <= isr_d;
      iseg_q          <= iseg_d;
      ifl_q           <= ifl_d;
      ihd_q           <= ihd_d;
      iwf_q           <= iwf_d;
      idis_q          <= idis_d;
      wp_q            <= wp_d;
      f_val_q         <= f_d.val;
      f_in_q          <= f_d.in;
      f_drop_q        <= f_d.drop;
      f_cut_q         <= f_d.cut;
      f_dec_q         <= f_d.dec;
      f_vpend_q       <= f_d.vpend;
      f_rnew_q        <= f_d.rnew;
      f_adapt_q       <= f_d.adapt;
      f_base_q        <= f_d.base;
      f_a1_q          <= f_d.a1;
      f_a2_q          <= f_d.a2;
      f_route_q       <= f_d.route;
      b_val_q         <= b_d.val;
      b_in_q          <= b_d.in;
      b_drop_q        <= b_d.drop;
      b_cut_q         <= b_d.cut;
      b_dec_q         <= b_d.dec;
      b_vpend_q       <= b_d.vpend;
      b_rnew_q        <= b_d.rnew;
      b_adapt_q       <= b_d.adapt;
      b_base_q        <= b_d.base;
      b_a1_q          <= b_d.a1;
      b_a2_q          <= b_d.a2;
      b_route_q       <= b_d.route;
      cs_st_q         <= cs_st_d;
      cs_ot_q         <= cs_ot_d;
      cs_rc_q         <= cs_rc_d;
      cs_pb_q         <= cs_pb_d;
      rp_st_q         <= rp_st_d;
      rp_ot_q         <= rp_ot_d;
      rp_rc_q         <= rp_rc_d;
      rp_pb_q         <= rp_pb_d;
      swap_q          <= swap_d;
      stop_q          <= stop_d;
      st_dat_q        <= st_dat_d;
      ot_dat_q        <= ot_dat_d;
      rc_dat_q        <= rc_dat_d;
      pb_dat_q        <= pb_dat_d;
      cnt_dead_q      <= cnt_dead_d;
      cnt_bad_code_q  <= cnt_bad_code_d;
      cnt_bad_addr_q  <= cnt_bad_addr_d;
      cnt_bad_long_q  <= cnt_bad_long_d;
      cnt_stray_q     <= cnt_stray_d;
      cnt_cut_q       <= cnt_cut_d;
      cnt_adapt_q     <= cnt_adapt_d;
      cnt_adapt_buf_q <= cnt_adapt_buf_d;
    end
  end

  // Buffer storage, written at wp (before this cycle's advance).
  always_ff @(posedge clk_i) begin
    if (wr) begin
      mem[wp_q] <= wr_chunk;
    end
  end

  // ---- Outputs ---------------------------------------------------------------------------------
  // Only the straight claim needs to know an output is free; the other copies ask and wait.
  logic unused_free;
  assign unused_free = ^{ot_free_i, rc_free_i, pb_free_i};

  assign in_stop_o = stop_q;
  assign st_dat_o  = st_dat_q;
  assign ot_dat_o  = ot_dat_q;
  assign rc_dat_o  = rc_dat_q;
  assign pb_dat_o  = pb_dat_q;
  // A copy asks for its output while it is in WAIT, RUN or NEXT (created this cycle at a new F
  // or at the decision included), unless it ends this cycle without sending; F may also ask for
  // the other output to turn (§7).
  assign st_req_o  = req[KSt];
  assign ot_req_o  = req[KOt] || adapt_req;
  assign rc_req_o  = req[KRc];
  assign pb_req_o  = req[KPb];
  assign err_o     = err;

  assign dbg_ic_o            = ic_q;
  assign dbg_isr_o           = isr_q;
  assign dbg_iseg_o          = iseg_q;
  assign dbg_ifl_o           = ifl_q;
  assign dbg_ihd_o           = ihd_q;
  assign dbg_iwf_o           = iwf_q;
  assign dbg_idis_o          = idis_q;
  assign dbg_wp_o            = wp_q;
  assign dbg_f_val_o         = f_val_q;
  assign dbg_f_in_o          = f_in_q;
  assign dbg_f_drop_o        = f_drop_q;
  assign dbg_f_cut_o         = f_cut_q;
  assign dbg_f_dec_o         = f_dec_q;
  assign dbg_f_vpend_o       = f_vpend_q;
  assign dbg_f_rnew_o        = f_rnew_q;
  assign dbg_f_adapt_o       = f_adapt_q;
  assign dbg_f_base_o        = f_base_q;
  assign dbg_f_a1_o          = f_a1_q;
  assign dbg_f_a2_o          = f_a2_q;
  assign dbg_f_route_o       = f_route_q;
  assign dbg_b_val_o         = b_val_q;
  assign dbg_b_in_o          = b_in_q;
  assign dbg_b_drop_o        = b_drop_q;
  assign dbg_b_cut_o         = b_cut_q;
  assign dbg_b_dec_o         = b_dec_q;
  assign dbg_b_vpend_o       = b_vpend_q;
  assign dbg_b_rnew_o        = b_rnew_q;
  assign dbg_b_adapt_o       = b_adapt_q;
  assign dbg_b_base_o        = b_base_q;
  assign dbg_b_a1_o          = b_a1_q;
  assign dbg_b_a2_o          = b_a2_q;
  assign dbg_b_route_o       = b_route_q;
  assign dbg_cs_st_o         = cs_st_q;
  assign dbg_cs_ot_o         = cs_ot_q;
  assign dbg_cs_rc_o         = cs_rc_q;
  assign dbg_cs_pb_o         = cs_pb_q;
  assign dbg_rp_st_o         = rp_st_q;
  assign dbg_rp_ot_o         = rp_ot_q;
  assign dbg_rp_rc_o         = rp_rc_q;
  assign dbg_rp_pb_o         = rp_pb_q;
  assign dbg_swap_o          = swap_q;
  assign dbg_stop_o          = stop_q;
  assign dbg_st_dat_o        = st_dat_q;
  assign dbg_ot_dat_o        = ot_dat_q;
  assign dbg_rc_dat_o        = rc_dat_q;
  assign dbg_pb_dat_o        = pb_dat_q;
  assign dbg_cnt_dead_o      = cnt_dead_q;
  assign dbg_cnt_bad_code_o  = cnt_bad_code_q;
  assign dbg_cnt_bad_addr_o  = cnt_bad_addr_q;
  assign dbg_cnt_bad_long_o  = cnt_bad_long_q;
  assign dbg_cnt_stray_o     = cnt_stray_q;
  assign dbg_cnt_cut_o       = cnt_cut_q;
  assign dbg_cnt_adapt_o     = cnt_adapt_q;
  assign dbg_cnt_adapt_buf_o = cnt_adapt_buf_q;

endmodule
