// MP1 routing machine (docs/mp1.md §8): one input channel of a plane. It cuts a message straight
// through when it can, else buffers each segment and streams it to up to four outputs at once.
// AWF address flits per address word (§14): 1 is MP1 as §8 specifies it, 2 gives 13-bit addresses.
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
  input  logic          ot_first_i,
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
  // architectural registers
  output logic [2:0]    dbg_rm_st_o,
  output logic [1:0]    dbg_ic_o,
  output logic [4:0]    dbg_isr_o,
  output logic          dbg_iseg_o,
  output logic [5:0]    dbg_ifl_o,
  output logic [1:0]    dbg_ihd_o,
  output logic          dbg_iwf_o,
  output logic [AW+2:0] dbg_a1_o,
  output logic [AW+2:0] dbg_a2_o,
  output logic          dbg_vpend_o,
  output logic [3:0]    dbg_route_o,
  output logic          dbg_rnew_o,
  output logic          dbg_adapt_ok_o,
  output logic [6:0]    dbg_wp_o,
  output logic [6:0]    dbg_rp_st_o,
  output logic [6:0]    dbg_rp_ot_o,
  output logic [6:0]    dbg_rp_rc_o,
  output logic [6:0]    dbg_rp_pb_o,
  output logic [3:0]    dbg_act_o,
  output logic          dbg_swap_o,
  output logic          dbg_segend_o,
  output logic          dbg_ended_o,
  output logic          dbg_bcut_o,
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

  typedef enum logic [2:0] {
    Idle = 3'd0,
    Pass = 3'd1,
    Hold = 3'd2,
    Emit = 3'd3,
    Wait = 3'd4,
    Drop = 3'd5
  } rm_st_e;

  // Chunks outside a flit (§2.1).
  localparam logic [2:0] ChIdle = 3'b000;
  localparam logic [2:0] ChEos  = 3'b001;
  localparam logic [2:0] ChEom  = 3'b010;
  localparam logic [2:0] ChIll  = 3'b011;

  // Control codes (§3.1).
  localparam logic [2:0] CodeP2pStatic  = 3'd0;
  localparam logic [2:0] CodeP2pAdapt   = 3'd1;
  localparam logic [2:0] CodeDeliver    = 3'd2;
  localparam logic [2:0] CodePiggyIntra = 3'd3;
  localparam logic [2:0] CodeBcast2d    = 3'd4;
  localparam logic [2:0] CodeBcast1d    = 3'd5;
  localparam logic [2:0] CodePiggyInter = 3'd6;
  localparam logic [2:0] CodeIllegal    = 3'd7;

  // Copy bits of route / act; bit order is also the order of ordered acquisition (§8.6.4).
  localparam logic [3:0] RtSt = 4'b0001;
  localparam logic [3:0] RtOt = 4'b0010;
  localparam logic [3:0] RtRc = 4'b0100;
  localparam logic [3:0] RtPb = 4'b1000;

  // Buffer positions of a message's first segment (§8.6.1): a1's word at 0 .. 3 AWF - 1, a2's at
  // 3 AWF .. 6 AWF - 1, the data from 6 AWF (§14.2 rule 3; 0-2, 3-5, 6 at AWF = 1).
  localparam logic [6:0] PosA1   = 7'd0;
  localparam logic [6:0] PosA2   = 7'(3 * AWF);
  localparam logic [6:0] PosA1Hi = 7'(3 * AWF - 1);
  localparam logic [6:0] PosA2Hi = 7'(6 * AWF - 1);
  // Second chunks of the words' first flits (b5 b4 b3): the code's low bit and the address's top
  // two (§14.2 rule 4).
  localparam logic [6:0] PosA1Md = 7'd1;
  localparam logic [6:0] PosA2Md = 7'(3 * AWF + 1);
  localparam logic [6:0] PosData = 7'(6 * AWF);
  // A copy's first chunk is never more than this far ahead of wp (rc at 6 AWF, wp from 0; §14.2
  // rule 3).
  localparam logic [6:0] MaxLead = 7'(6 * AWF);
  // stop rises above this many unread chunks (§8.8.1): a new segment (97 chunks) and the one
  // chunk that may arrive while stop rises still fit in the 128 entries. At AWF = 2 the bound
  // keeps them below 128 - 6 AWF, outside the lead window (§14.2 rule 7).
  localparam logic [6:0] OccMax  = (AWF == 1) ? 7'd30 : 7'd17;

  localparam logic [5:0] IflLong = 6'd32;
  localparam logic [5:0] IflSat  = 6'd33;
  // A truncated segment of at most this many flits is a dead address word (§14.2 rule 5).
  localparam logic [5:0] IflDead = 6'(AWF);
  // The header can be cut inside a1's word only when a word has more than one flit (§14.2 rule 6).
  localparam bit         WideAddr = (AWF > 1);

  // iwf is one bit and the offsets above must fit the 128-chunk buffer: a word has one or two
  // flits (§14).
  if (AWF < 1 || AWF > 2) begin : g_awf_check
    $error("mp1_rm: AWF must be 1 or 2");
  end

  // ---- Registers ----------------------------------------------------------------------------
  rm_st_e        rm_st_d, rm_st_q;
  logic [1:0]    ic_d, ic_q;
  logic [4:0]    isr_d, isr_q;
  logic          iseg_d, iseg_q;
  logic [5:0]    ifl_d, ifl_q;
  logic [1:0]    ihd_d, ihd_q;
  logic          iwf_d, iwf_q;
  logic [AW+2:0] a1_d, a1_q;
  logic [AW+2:0] a2_d, a2_q;
  logic          vpend_d, vpend_q;
  logic [3:0]    route_d, route_q;
  logic          rnew_d, rnew_q;
  logic          adapt_ok_d, adapt_ok_q;
  logic [6:0]    wp_d, wp_q;
  logic [6:0]    rp_st_d, rp_st_q;
  logic [6:0]    rp_ot_d, rp_ot_q;
  logic [6:0]    rp_rc_d, rp_rc_q;
  logic [6:0]    rp_pb_d, rp_pb_q;
  logic [3:0]    act_d, act_q;
  logic          swap_d, swap_q;
  logic          segend_d, segend_q;
  logic          ended_d, ended_q;
  logic          bcut_d, bcut_q;
  logic          stop_d, stop_q;
  logic [2:0]    st_dat_d, st_dat_q;
  logic [2:0]    ot_dat_d, ot_dat_q;
  logic [2:0]    rc_dat_d, rc_dat_q;
  logic [2:0]    pb_dat_d, pb_dat_q;
  logic [15:0]   cnt_dead_d, cnt_dead_q;
  logic [15:0]   cnt_bad_code_d, cnt_bad_code_q;
  logic [15:0]   cnt_bad_addr_d, cnt_bad_addr_q;
  logic [15:0]   cnt_bad_long_d, cnt_bad_long_q;
  logic [15:0]   cnt_stray_d, cnt_stray_q;
  logic [15:0]   cnt_cut_d, cnt_cut_q;
  logic [15:0]   cnt_adapt_d, cnt_adapt_q;
  logic [15:0]   cnt_adapt_buf_d, cnt_adapt_buf_q;
  // Not in §8.2: the position in its flit of the chunk the streaming copies send next. The copies
  // of a segment start together on flit boundaries and move in lock-step, so one phase serves all;
  // it is what tells an end code (phase 0, top bit 0) from a flit's second or third chunk.
  logic [1:0]    rph_d, rph_q;

  // The segment buffer: 128 chunks, not reset (a chunk is only read after it has been written).
  logic [2:0]    mem [128];
  logic          mem_we;
  logic [2:0]    mem_wd;

  // ---- Ingress decode (§8.3) -----------------------------------------------------------------
  logic [2:0]     c;
  logic           ing_on, start, endc, eom, gap, ill, done, trunc, seg_chunk, bad_long, brk;
  logic           a1_flit, a2_flit, w_last, a1_done, a2_done;
  logic [7:0]     flit;
  logic [AWR-1:0] a1_w, a2_w;
  logic [2:0]     f_code, a1_code, a2_code;
  logic [AW-1:0]  f_addr;
  logic           f_match, f_ahead, f_bad, f_two_dim, hdr_cut;
  logic           q_match, ahead2;

  always_comb begin
    c = in_dat_i;
    // Once the message's end is in the buffer nothing more belongs to it; stop_q keeps upstream
    // from starting a new message before the copies have drained (see the stop term below).
    ing_on    = !ended_q;
    start     = ing_on && (ic_q == 2'd0) && c[2];
    endc      = ing_on && (ic_q == 2'd0) && iseg_q && (c == ChEos || c == ChEom);  // §8.8.7
    eom       = ing_on && (ic_q == 2'd0) && iseg_q && (c == ChEom);
    gap       = ing_on && (ic_q == 2'd0) && (c == ChIdle || c == ChIll);
    ill       = ing_on && (ic_q == 2'd0) && (c == ChIll);
    done      = ing_on && (ic_q == 2'd2);
    trunc     = iseg_q && gap;
    // The illegal chunk between segments: upstream abandoned the message (§8.8.5, §8.8.12).
    brk       = ill && !iseg_q;
    seg_chunk = start || (ing_on && ic_q != 2'd0) || endc;
    bad_long  = start && (ifl_q == IflLong);
    flit      = {isr_q, c};
    // A flit of a1's / a2's address word completes (§14.2 rule 1); iwf_q is its index in the
    // word, so the word completes with its last flit (§14.2 rule 2). At AWF = 1 every header flit
    // is a whole word.
    a1_flit   = done && (ihd_q == 2'd0);
    a2_flit   = done && (ihd_q == 2'd1);
    w_last    = (iwf_q == 1'(AWF - 1));
    a1_done   = a1_flit && w_last;
    a2_done   = a2_flit && w_last;
    // The words with this flit shifted in, most significant flit first (§14.2 rule 1): at AWF = 1
    // the flit itself.
    a1_w      = AWR'({a1_q, flit});
    a2_w      = AWR'({a2_q, flit});
    // Control codes of the words held (§14.1: code = a[AW+2:AW]).
    a1_code   = a1_q[AW+2:AW];
    a2_code   = a2_q[AW+2:AW];

    // Verdict on a1 as its word completes (the completed word, a1_q is written at the same edge;
    // §14.2 rule 2).
    f_code    = a1_w[AW+2:AW];
    f_addr    = a1_w[AW-1:0];
    f_match   = (f_addr == pos_i);
    f_ahead   = neg_i ? (f_addr < pos_i) : (f_addr > pos_i);
    f_two_dim = (a1_code == CodeP2pStatic) || (a1_code == CodeP2pAdapt) ||
                (a1_code == CodeBcast2d);
    // A header cut short, for HOLD: a segment of a two-dimension header that ends before a2's
    // word is complete (§8.8.11, also part of a2's word: §14.2 rule 6), or one that ends inside
    // a1's word (§14.2 rule 6; only with AWF > 1: at AWF = 1 an end code follows a whole flit,
    // and with it a1).
    hdr_cut   = endc && ((ihd_q == 2'd1 && f_two_dim) || (WideAddr && ihd_q == 2'd0));

    // Adaptive turn allowed once a2's word completes (§8.6.4, §14.2 rule 2), on its address.
    q_match   = (a1_q[AW-1:0] == pos_i);
    ahead2    = oneg_i ? (a2_w[AW-1:0] < opos_i) : (a2_w[AW-1:0] > opos_i);
  end

  // ---- Route table (§8.5) and first chunks (§8.6.2) of a good a1 ----------------------------
  logic [3:0] rt_route;
  logic       rt_rnew;
  logic [6:0] rt_rp_st, rt_rp_rc;

  always_comb begin
    rt_route = 4'b0000;
    rt_rnew  = 1'b0;
    rt_rp_st = PosA1;
    rt_rp_rc = PosA2;
    if (f_match) begin
      unique case (f_code)
        CodeP2pStatic, CodeP2pAdapt: rt_route = RtOt;
        CodeDeliver:                 rt_route = RtRc;
        CodePiggyIntra: begin
          rt_route = RtSt;
          rt_rnew  = 1'b1;
          rt_rp_st = PosA2;
        end
        CodeBcast2d: begin
          // The interface gets the data only: a2's word comes first (§8.6.1, §14.2 rule 3).
          rt_route = RtOt | RtRc;
          rt_rp_rc = PosData;
        end
        CodeBcast1d:    rt_route = RtRc;
        CodePiggyInter: rt_route = RtPb;
        default:        rt_route = 4'b0000;
      endcase
    end else begin
      unique case (f_code)
        CodeBcast2d: begin
          rt_route = RtSt | RtOt | RtRc;
          rt_rp_rc = PosData;
        end
        CodeBcast1d: rt_route = RtSt | RtRc;
        CodeIllegal: rt_route = 4'b0000;
        default:     rt_route = RtSt;
      endcase
    end
    // bad (§8.3), and also a route into a missing output (§8.8.2): it would wait for ever. The
    // adaptive alternative is not part of the route, so it never makes a1 bad.
    f_bad = (f_code == CodeIllegal) || (!f_match && (!f_ahead || edge_i)) ||
            (rt_route[0] && edge_i) || (rt_route[1] && oedge_i);
  end

  // ---- Next state ------------------------------------------------------------------------------
  logic [3:0] own, stp, lead, odle, low_ok, req, sending, live, eoc, full;
  logic       alt, turn, emit_ok, next_seg, abort_msg, net_rdy, bcast, cut_eos;
  logic [1:0] ph;
  logic [2:0] rd_st, rd_ot, rd_rc, rd_pb, ot_sw;
  logic [6:0] lead_st, lead_ot, lead_rc, lead_pb;
  logic [6:0] u_st, u_ot, u_rc, u_pb;

  always_comb begin
    rm_st_d         = rm_st_q;
    ic_d            = ic_q;
    isr_d           = isr_q;
    iseg_d          = iseg_q;
    ifl_d           = ifl_q;
    ihd_d           = ihd_q;
    iwf_d           = iwf_q;
    a1_d            = a1_q;
    a2_d            = a2_q;
    vpend_d         = vpend_q;
    route_d         = route_q;
    rnew_d          = rnew_q;
    adapt_ok_d      = adapt_ok_q;
    wp_d            = wp_q;
    rp_st_d         = rp_st_q;
    rp_ot_d         = rp_ot_q;
    rp_rc_d         = rp_rc_q;
    rp_pb_d         = rp_pb_q;
    act_d           = act_q;
    swap_d          = swap_q;
    segend_d        = segend_q;
    ended_d         = ended_q;
    bcut_d          = bcut_q;
    rph_d           = 2'd0;
    // An output shows idle unless this machine sends on it (and requests it) this cycle.
    st_dat_d        = ChIdle;
    ot_dat_d        = ChIdle;
    rc_dat_d        = ChIdle;
    pb_dat_d        = ChIdle;
    cnt_dead_d      = cnt_dead_q;
    cnt_bad_code_d  = cnt_bad_code_q;
    cnt_bad_addr_d  = cnt_bad_addr_q;
    cnt_bad_long_d  = cnt_bad_long_q;
    cnt_stray_d     = cnt_stray_q;
    cnt_cut_d       = cnt_cut_q;
    cnt_adapt_d     = cnt_adapt_q;
    cnt_adapt_buf_d = cnt_adapt_buf_q;
    mem_we          = 1'b0;
    mem_wd          = c;
    req             = 4'b0000;
    sending         = 4'b0000;
    ph              = rph_q;
    alt             = 1'b0;
    turn            = 1'b0;
    emit_ok         = 1'b0;
    low_ok          = 4'b0000;
    live            = 4'b0000;
    eoc             = 4'b0000;
    next_seg        = 1'b0;
    abort_msg       = 1'b0;
    net_rdy         = 1'b0;
    cut_eos         = 1'b0;
    stop_d          = 1'b0;

    own     = {pb_own_i, rc_own_i, ot_own_i, st_own_i};
    stp     = {pb_stop_i, rc_stop_i, ot_stop_i, st_stop_i};
    // A broadcast that is not only being delivered here: an rc copy and a network copy (§8.8.10).
    bcast   = route_q[2] && (route_q[0] || route_q[1]);
    // A copy's first chunk is written once wp is beyond it; rp at or just ahead of wp is not
    // (the first segment's copies start up to 6 AWF chunks ahead of wp, §14.2 rule 3).
    lead_st = rp_st_q - wp_q;
    lead_ot = rp_ot_q - wp_q;
    lead_rc = rp_rc_q - wp_q;
    lead_pb = rp_pb_q - wp_q;
    lead    = {lead_pb <= MaxLead, lead_rc <= MaxLead, lead_ot <= MaxLead, lead_st <= MaxLead};
    // The chunk each output shows this cycle is idle (§8.8.3).
    odle    = {pb_dat_q == ChIdle, rc_dat_q == ChIdle, ot_dat_q == ChIdle, st_dat_q == ChIdle};
    rd_st   = mem[rp_st_q];
    rd_ot   = mem[rp_ot_q];
    rd_rc   = mem[rp_rc_q];
    rd_pb   = mem[rp_pb_q];
    // Adaptive turn (§8.8.9): the code says how many dimensions remain and what to do at the
    // match, so it stays with the flit's place in the header while the addresses swap: the ot
    // copy sends a2's address under a1's code, then a1's address under a2's code. While swap_q
    // its pointer reads only the header (a2's word 3 AWF .. 6 AWF - 1, then a1's 0 .. 3 AWF - 1;
    // every message starts at 0, §8.6.1), so the pointer is the chunk index. The code sits in the
    // first flit of each word (§14.2 rule 4): b7 b6 of its first chunk and the top bit of its
    // second; the rest of a word is pure address and goes as buffered. a1_q and a2_q hold both
    // words by then (the turn needs a2's word complete).
    ot_sw   = rd_ot;
    if (swap_q) begin
      unique case (rp_ot_q)
        PosA2:   ot_sw = {1'b1, a1_code[2:1]};
        PosA2Md: ot_sw = {a1_code[0], a2_q[AW-1:AW-2]};
        PosA1:   ot_sw = {1'b1, a2_code[2:1]};
        PosA1Md: ot_sw = {a2_code[0], a1_q[AW-1:AW-2]};
        default: ot_sw = rd_ot;
      endcase
    end

    // -- Ingress framing and header capture (every state; all of it is off once ended_q).
    if (start) begin
      ic_d       = 2'd1;
      isr_d[4:3] = c[1:0];
      iseg_d     = 1'b1;
      ifl_d      = (ifl_q == IflSat) ? IflSat : ifl_q + 6'd1;
    end else if (ing_on && ic_q == 2'd1) begin
      ic_d       = 2'd2;
      isr_d[2:0] = c;
    end else begin
      ic_d = 2'd0;
    end
    if (endc || trunc) begin
      iseg_d = 1'b0;
      ifl_d  = 6'd0;
    end
    // Header capture (§14.2 rule 1): each flit of a word is shifted in (a2's only for a
    // two-dimension a1); the word's last flit moves ihd on and iwf back to 0.
    if (a1_flit) begin
      a1_d = a1_w;
      if (w_last) begin
        ihd_d = 2'd1;
        iwf_d = 1'b0;
      end else begin
        iwf_d = iwf_q + 1'b1;
      end
    end else if (a2_flit) begin
      if (f_two_dim) begin
        a2_d = a2_w;
      end
      if (w_last) begin
        ihd_d = 2'd2;
        iwf_d = 1'b0;
      end else begin
        iwf_d = iwf_q + 1'b1;
      end
    end

    // -- Buffer write (§8.6.1): every chunk of a segment, except in DROP. In IDLE and WAIT only a
    // start belongs to a segment (an end code there is stray). In HOLD and EMIT the illegal
    // chunk between segments is written too, as the message's end (§8.8.12).
    unique case (rm_st_q)
      Pass:             mem_we = seg_chunk;
      Hold, Emit:       mem_we = seg_chunk || brk;
      Idle, Wait:       mem_we = start;
      default:          mem_we = 1'b0;
    endcase
    if (mem_we) begin
      wp_d = wp_q + 7'd1;
    end

    unique case (rm_st_q)
      Idle: begin
        if (start) begin
          // One-cycle claim: straight has priority at its arbiter, so it owns it next cycle.
          // Broadcasts (code[2:1] = 10, in the first chunk) are never forwarded speculatively.
          if (c[1:0] != 2'b10 && st_free_i && !st_stop_i && !edge_i) begin
            req[0]   = 1'b1;
            st_dat_d = c;
            rm_st_d  = Pass;
          end else begin
            rm_st_d = Hold;
          end
        end else if (c != ChIdle) begin
          // ic_q is 0 in IDLE, so this is an end code or the illegal chunk.
          cnt_stray_d = cnt_stray_q + 16'd1;
        end
      end

      Pass: begin
        req[0]   = 1'b1;
        st_dat_d = c;
        if (bad_long) begin
          req[0]         = 1'b0;
          st_dat_d       = ChIdle;
          cnt_bad_long_d = cnt_bad_long_q + 16'd1;
          rm_st_d        = Drop;
        end else if (vpend_q) begin
          vpend_d = 1'b0;
          if (trunc) begin
            // a1 then a gap: a dead address word went by; the gap goes on as an idle chunk
            // (§8.6.9), even when it arrived as the illegal chunk.
            st_dat_d   = ChIdle;
            cnt_dead_d = cnt_dead_q + 16'd1;
            rm_st_d    = Idle;
          end else begin
            // Stop forwarding: downstream sees a1 then idle, a dead flit.
            req[0]   = 1'b0;
            st_dat_d = ChIdle;
            if (a1_code == CodeIllegal) begin
              cnt_bad_code_d = cnt_bad_code_q + 16'd1;
            end else begin
              cnt_bad_addr_d = cnt_bad_addr_q + 16'd1;
            end
            // A bad one-flit message ends here; DROP would swallow the next message.
            rm_st_d = eom ? Idle : Drop;
          end
        end else if (a1_done) begin
          if (f_bad) begin
            vpend_d = 1'b1;
          end else if (f_match) begin
            // The word just forwarded is dead here: its last chunk goes out, then idle.
            route_d = rt_route;
            rnew_d  = rt_rnew;
            if (rt_route[0]) rp_st_d = rt_rp_st;
            if (rt_route[1]) rp_ot_d = PosA2;
            if (rt_route[2]) rp_rc_d = rt_rp_rc;
            if (rt_route[3]) rp_pb_d = PosA2;
            rm_st_d = Hold;
          end
        end else if (endc) begin
          if (WideAddr && ihd_q == 2'd0) begin
            // A header cut inside a1's word (§14.2 rule 6): the end code goes on as in any PASS
            // cycle and the message ends here, EOS or EOM alike; the next machine does the same.
            cnt_cut_d = cnt_cut_q + 16'd1;
            rm_st_d   = Idle;
          end else if (eom) begin
            rm_st_d = Idle;
          end else begin
            // The straight copy has sent everything up to the EOS: a later segment that goes
            // through the buffer continues after it.
            route_d = RtSt;
            rp_st_d = wp_d;
            rm_st_d = Wait;
          end
        end else if (trunc) begin
          st_dat_d = ChIdle;
          // At most one address word's flits: a dead word (§14.2 rule 5).
          if (ifl_q <= IflDead) begin
            cnt_dead_d = cnt_dead_q + 16'd1;
          end else begin
            cnt_cut_d = cnt_cut_q + 16'd1;
          end
          rm_st_d = Idle;
        end
      end

      Hold: begin
        // Every way out of HOLD to DROP or IDLE abandons the message: the owned outputs of the
        // route get the illegal chunk (§8.8.5), which ends the message downstream.
        if (bad_long) begin
          cnt_bad_long_d = cnt_bad_long_q + 16'd1;
          abort_msg      = 1'b1;
          rm_st_d        = Drop;
        end else if (trunc) begin
          // The gap wins over an emission start in the same cycle (§8.6.3). At most one address
          // word's flits: a dead word (§14.2 rule 5).
          if (vpend_q || ifl_q <= IflDead) begin
            cnt_dead_d = cnt_dead_q + 16'd1;
          end else begin
            cnt_cut_d = cnt_cut_q + 16'd1;
          end
          abort_msg = 1'b1;
          rm_st_d   = Idle;
        end else if (vpend_q) begin
          // route_q is still 0 here (a bad a1 sets no route), so nothing is sent.
          vpend_d   = 1'b0;
          abort_msg = 1'b1;
          if (a1_code == CodeIllegal) begin
            cnt_bad_code_d = cnt_bad_code_q + 16'd1;
          end else begin
            cnt_bad_addr_d = cnt_bad_addr_q + 16'd1;
          end
          rm_st_d = eom ? Idle : Drop;
        end else if (hdr_cut) begin
          // A header cut short (§8.8.11, §14.2 rule 6) is a truncation. It wins over everything
          // else in this cycle (the broadcast cut of §8.8.10, segend, an emission start): the
          // owned outputs of the route get the illegal chunk and the message ends here.
          cnt_cut_d = cnt_cut_q + 16'd1;
          abort_msg = 1'b1;
          rm_st_d   = Idle;
        end else begin
          if (a1_done) begin
            if (f_bad) begin
              vpend_d = 1'b1;
            end else begin
              route_d = rt_route;
              rnew_d  = rt_rnew;
              if (rt_route[0]) rp_st_d = rt_rp_st;
              if (rt_route[1]) rp_ot_d = PosA2;
              if (rt_route[2]) rp_rc_d = rt_rp_rc;
              if (rt_route[3]) rp_pb_d = PosA2;
            end
          end
          if (a2_done && a1_code == CodeP2pAdapt && !q_match && ahead2 && !oedge_i) begin
            adapt_ok_d = 1'b1;
          end
          if (eom) begin
            ended_d = 1'b1;
          end
          // An abort while a segment waits in the buffer (§8.8.12): the illegal chunk is buffered
          // after it and ends the message there; the copies send it on as its last chunk.
          if (brk) begin
            ended_d   = 1'b1;
            cnt_cut_d = cnt_cut_q + 16'd1;
          end
          if (endc) begin
            segend_d = 1'b1;
          end
          // A broadcast is one segment (§8.8.10): its EOS goes into the buffer as EOM and acts as
          // one; the rest of the message is dropped once the copies have drained.
          if (endc && !eom && bcast) begin
            cut_eos        = 1'b1;
            ended_d        = 1'b1;
            bcut_d         = 1'b1;
            cnt_bad_long_d = cnt_bad_long_q + 16'd1;
          end

          // Ordered acquisition: a copy is requested once every copy before it in the order of
          // the route is owned, and kept once owned. Order st, ot, rc, pb, or ot, st, rc, pb
          // when ot_first_i (§8.8.6: one order per plane).
          low_ok[0] = !ot_first_i || !route_q[1] || own[1];
          low_ok[1] = ot_first_i || !route_q[0] || own[0];
          low_ok[2] = (!route_q[0] || own[0]) && (!route_q[1] || own[1]);
          low_ok[3] = low_ok[2] && (!route_q[2] || own[2]);
          // Chip-shared outputs last (§8.8.8): rc and pb are shared by the chip's 8 machines
          // across the four planes, so holding one while a network copy waits for buffer space
          // downstream can close a cycle across planes. They are asked for only once every
          // network copy of the route (st, ot) is ready to start: owned, its receiver not
          // stopping, its output showing idle (true with no network copy). Once owned they are
          // kept, like any copy.
          net_rdy   = (!route_q[0] || (own[0] && !stp[0] && odle[0])) &&
                      (!route_q[1] || (own[1] && !stp[1] && odle[1]));
          req       = route_q & (own | (low_ok & {net_rdy, net_rdy, 2'b11}));
          // A new message on straight (§8.6.7): let the arbiter release st first, so the dead
          // a1 is followed by a gap. Once released, rnew has done its job: keeping it would drop
          // st again at every new grant.
          if (rnew_q && st_own_i) begin
            req[0] = 1'b0;
          end else if (rnew_q) begin
            rnew_d = 1'b0;
          end
          // Adaptive alternative (§8.6.4): whichever output is owned first is taken.
          alt  = adapt_ok_q && (route_q == RtSt) && !st_own_i;
          turn = alt && ot_own_i;
          if (alt) begin
            req[1] = 1'b1;
          end
          if (turn) begin
            req[0]        = 1'b0;
            route_d       = RtOt;
            swap_d        = 1'b1;
            rp_ot_d       = PosA2;
            cnt_adapt_d   = cnt_adapt_q + 16'd1;
            if (segend_q) begin
              cnt_adapt_buf_d = cnt_adapt_buf_q + 16'd1;
            end
          end

          // Emission start (§8.6.5): every copy owned, its receiver not stopping, its first
          // chunk written, its output showing idle now (§8.8.3: an idle chunk after every EOS).
          // The copies send their first chunk in this same cycle.
          emit_ok = (route_q != 4'b0000) && !turn &&
                    ((route_q & ~(own & ~stp & ~lead & odle)) == 4'b0000);
          if (emit_ok) begin
            sending  = route_q;
            ph       = 2'd0;
            act_d    = route_q;
            segend_d = 1'b0;
            rm_st_d  = Emit;
          end
        end
      end

      Emit: begin
        if (bad_long) begin
          cnt_bad_long_d = cnt_bad_long_q + 16'd1;
          rm_st_d        = Drop;
        end else begin
          if (trunc) begin
            // The copies run to wp and the message ends (§8.6.9); a dead word as in PASS
            // (§14.2 rule 5).
            if (ifl_q <= IflDead) begin
              cnt_dead_d = cnt_dead_q + 16'd1;
            end else begin
              cnt_cut_d = cnt_cut_q + 16'd1;
            end
            ended_d = 1'b1;
          end
          if (eom) begin
            ended_d = 1'b1;
          end
          // An abort while a segment is still in the buffer (§8.8.12), as in HOLD.
          if (brk) begin
            ended_d   = 1'b1;
            cnt_cut_d = cnt_cut_q + 16'd1;
          end
          // A broadcast is one segment (§8.8.10), as in HOLD.
          if (endc && !eom && bcast) begin
            cut_eos        = 1'b1;
            ended_d        = 1'b1;
            bcut_d         = 1'b1;
            cnt_bad_long_d = cnt_bad_long_q + 16'd1;
          end
          // A copy keeps its output until it has sent the message's last buffered chunk: a
          // copy stopped at an EOS keeps it for the next segment.
          req[0]  = route_q[0] && !(ended_q && rp_st_q == wp_q);
          req[1]  = route_q[1] && !(ended_q && rp_ot_q == wp_q);
          req[2]  = route_q[2] && !(ended_q && rp_rc_q == wp_q);
          req[3]  = route_q[3] && !(ended_q && rp_pb_q == wp_q);
          sending = act_q;
        end
      end

      Wait: begin
        // The path stays reserved between segments.
        req = route_q;
        if (start) begin
          // Cut through only if straight shows idle now (§8.8.4): an idle chunk after every EOS.
          if (route_q == RtSt && !st_stop_i && st_dat_q == ChIdle) begin
            st_dat_d = c;
            rm_st_d  = Pass;
          end else begin
            rm_st_d = Hold;
          end
        end else if (brk) begin
          // The illegal chunk between segments: upstream abandoned the message (§8.8.5). Pass
          // it on and end the message here too.
          cnt_cut_d = cnt_cut_q + 16'd1;
          abort_msg = 1'b1;
          rm_st_d   = Idle;
        end
      end

      Drop: begin
        // Also the illegal chunk between segments (§8.8.10): an aborting upstream sends no EOM.
        // The message was counted when it entered DROP; nothing is owned to pass the abort on.
        if (eom || trunc || brk) begin
          rm_st_d = Idle;
        end
      end

      default: begin
        rm_st_d = Idle;
      end
    endcase

    // The cut EOS is written as EOM (the buffer keeps raw chunks).
    if (cut_eos) begin
      mem_wd = ChEom;
    end

    // -- Abort between segments (§8.8.5): every output of route_q this machine owns shows the
    // illegal chunk next cycle, so the machine behind it ends the message as well. Outputs it
    // does not own are not requested. No copy sends in such a cycle.
    if (abort_msg) begin
      req      = route_q & own;
      st_dat_d = req[0] ? ChIll : ChIdle;
      ot_dat_d = req[1] ? ChIll : ChIdle;
      rc_dat_d = req[2] ? ChIll : ChIdle;
      pb_dat_d = req[3] ? ChIll : ChIdle;
    end

    // -- Streaming copies (HOLD's emission cycle and EMIT): each sends mem[rp_k] and advances.
    // After a truncation a copy stops on reaching wp without sending.
    live[0] = sending[0] && !(ended_q && rp_st_q == wp_q);
    live[1] = sending[1] && !(ended_q && rp_ot_q == wp_q);
    live[2] = sending[2] && !(ended_q && rp_rc_q == wp_q);
    live[3] = sending[3] && !(ended_q && rp_pb_q == wp_q);
    // A copy stops after sending an end code: a chunk with its top bit 0 read at a flit boundary.
    // Besides EOS and EOM that is the illegal chunk of an abort buffered between segments
    // (§8.8.12). Like an EOM it is the last chunk of an ended message (nothing is written after
    // it), so the copy then sits at wp and drops its request (EMIT requests, §8.7).
    eoc     = (ph == 2'd0) ? ~{rd_pb[2], rd_rc[2], rd_ot[2], rd_st[2]} : 4'b0000;
    if (live[0]) begin
      st_dat_d = rd_st;
      rp_st_d  = rp_st_q + 7'd1;
    end
    if (live[1]) begin
      ot_dat_d = ot_sw;
      rp_ot_d  = rp_ot_q + 7'd1;
      // Adaptive turn (§8.6.6, §14.2 rule 4): a2's word, then a1's, then the data from 6 AWF.
      if (swap_q && rp_ot_q == PosA2Hi) begin
        rp_ot_d = PosA1;
      end else if (swap_q && rp_ot_q == PosA1Hi) begin
        rp_ot_d = PosData;
        swap_d  = 1'b0;
      end
    end
    if (live[2]) begin
      rc_dat_d = rd_rc;
      rp_rc_d  = rp_rc_q + 7'd1;
    end
    if (live[3]) begin
      pb_dat_d = rd_pb;
      rp_pb_d  = rp_pb_q + 7'd1;
    end
    if (sending != 4'b0000) begin
      act_d = live & ~eoc;
      rph_d = (ph == 2'd2) ? 2'd0 : ph + 2'd1;
    end

    // -- Leaving EMIT (§8.6.8), in the cycle the last copy stops. A later segment already in the
    // buffer goes first even if ended_q: the EOM that set it may be that segment's.
    next_seg = iseg_d || ((route_q[0] && rp_st_d != wp_d) || (route_q[1] && rp_ot_d != wp_d) ||
                          (route_q[2] && rp_rc_d != wp_d) || (route_q[3] && rp_pb_d != wp_d));
    if (rm_st_q == Emit && rm_st_d == Emit && act_d == 4'b0000) begin
      if (next_seg) begin
        rm_st_d = Hold;
      end else if (ended_q && bcut_q) begin
        // A cut broadcast (§8.8.10) has drained: stop falls and DROP discards the rest of it.
        rm_st_d = Drop;
        ended_d = 1'b0;
        bcut_d  = 1'b0;
      end else if (ended_q) begin
        rm_st_d = Idle;
      end else begin
        rm_st_d = Wait;
      end
    end

    // -- IDLE: pointers, route, copies, header and flags at 0 from the first IDLE cycle on.
    if (rm_st_d == Idle) begin
      wp_d       = 7'd0;
      rp_st_d    = 7'd0;
      rp_ot_d    = 7'd0;
      rp_rc_d    = 7'd0;
      rp_pb_d    = 7'd0;
      route_d    = 4'b0000;
      act_d      = 4'b0000;
      ihd_d      = 2'd0;
      iwf_d      = 1'b0;
      a1_d       = '0;
      a2_d       = '0;
      vpend_d    = 1'b0;
      rnew_d     = 1'b0;
      adapt_ok_d = 1'b0;
      swap_d     = 1'b0;
      segend_d   = 1'b0;
      ended_d    = 1'b0;
      bcut_d     = 1'b0;
      rph_d      = 2'd0;
    end

    // stop on occupancy (§8.8.1): u_k, the chunks copy k has still to read (0 while its pointer
    // is at most 6 AWF chunks ahead of wp, §14.2 rule 3), over the copies of route_d; occ >
    // OccMax iff some u_k > OccMax (30, or 17 at AWF = 2: §14.2 rule 7).
    // Also while an ended message drains: a new message must not arrive before wp and the read
    // pointers restart at 0.
    u_st   = ((rp_st_d - wp_d) <= MaxLead) ? 7'd0 : wp_d - rp_st_d;
    u_ot   = ((rp_ot_d - wp_d) <= MaxLead) ? 7'd0 : wp_d - rp_ot_d;
    u_rc   = ((rp_rc_d - wp_d) <= MaxLead) ? 7'd0 : wp_d - rp_rc_d;
    u_pb   = ((rp_pb_d - wp_d) <= MaxLead) ? 7'd0 : wp_d - rp_pb_d;
    full   = route_d & {u_pb > OccMax, u_rc > OccMax, u_ot > OccMax, u_st > OccMax};
    stop_d = ended_d || ((rm_st_d == Hold || rm_st_d == Emit) && (full != 4'b0000));
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rm_st_q         <= Idle;
      ic_q            <= 2'd0;
      isr_q           <= 5'd0;
      iseg_q          <= 1'b0;
      ifl_q           <= 6'd0;
      ihd_q           <= 2'd0;
      iwf_q           <= 1'b0;
      a1_q            <= '0;
      a2_q            <= '0;
      vpend_q         <= 1'b0;
      route_q         <= 4'b0000;
      rnew_q          <= 1'b0;
      adapt_ok_q      <= 1'b0;
      wp_q            <= 7'd0;
      rp_st_q         <= 7'd0;
      rp_ot_q         <= 7'd0;
      rp_rc_q         <= 7'd0;
      rp_pb_q         <= 7'd0;
      act_q           <= 4'b0000;
      swap_q          <= 1'b0;
      segend_q        <= 1'b0;
      ended_q         <= 1'b0;
      bcut_q          <= 1'b0;
      stop_q          <= 1'b0;
      st_dat_q        <= 3'd0;
      ot_dat_q        <= 3'd0;
      rc_dat_q        <= 3'd0;
      pb_dat_q        <= 3'd0;
      cnt_dead_q      <= 16'd0;
      cnt_bad_code_q  <= 16'd0;
      cnt_bad_addr_q  <= 16'd0;
      cnt_bad_long_q  <= 16'd0;
      cnt_stray_q     <= 16'd0;
      cnt_cut_q       <= 16'd0;
      cnt_adapt_q     <= 16'd0;
      cnt_adapt_buf_q <= 16'd0;
      rph_q           <= 2'd0;  // reset-equivalent: read only while a copy sends (HOLD, EMIT), never in IDLE, the state after reset, and rph_d is 0 in IDLE
    end else begin
      rm_st_q         <= rm_st_d;
      ic_q            <= ic_d;
      isr_q           <= isr_d;
      iseg_q          <= iseg_d;
      ifl_q           <= ifl_d;
      ihd_q           <= ihd_d;
      iwf_q           <= iwf_d;
      a1_q            <= a1_d;
      a2_q            <= a2_d;
      vpend_q         <= vpend_d;
      route_q         <= route_d;
      rnew_q          <= rnew_d;
      adapt_ok_q      <= adapt_ok_d;
      wp_q            <= wp_d;
      rp_st_q         <= rp_st_d;
      rp_ot_q         <= rp_ot_d;
      rp_rc_q         <= rp_rc_d;
      rp_pb_q         <= rp_pb_d;
      act_q           <= act_d;
      swap_q          <= swap_d;
      segend_q        <= segend_d;
      ended_q         <= ended_d;
      bcut_q          <= bcut_d;
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
      rph_q           <= rph_d;
    end
  end

  // Buffer storage, written at wp (the pointer before this cycle's advance).
  always_ff @(posedge clk_i) begin
    if (mem_we) begin
      mem[wp_q] <= mem_wd;
    end
  end

  // Only the one-cycle claim in IDLE needs to know an output is free; the others request and wait.
  logic unused_free;
  assign unused_free = ^{ot_free_i, rc_free_i, pb_free_i};

  assign in_stop_o = stop_q;
  assign st_dat_o  = st_dat_q;
  assign ot_dat_o  = ot_dat_q;
  assign rc_dat_o  = rc_dat_q;
  assign pb_dat_o  = pb_dat_q;
  assign st_req_o  = req[0];
  assign ot_req_o  = req[1];
  assign rc_req_o  = req[2];
  assign pb_req_o  = req[3];

  assign dbg_rm_st_o         = rm_st_q;
  assign dbg_ic_o            = ic_q;
  assign dbg_isr_o           = isr_q;
  assign dbg_iseg_o          = iseg_q;
  assign dbg_ifl_o           = ifl_q;
  assign dbg_ihd_o           = ihd_q;
  assign dbg_iwf_o           = iwf_q;
  assign dbg_a1_o            = a1_q;
  assign dbg_a2_o            = a2_q;
  assign dbg_vpend_o         = vpend_q;
  assign dbg_route_o         = route_q;
  assign dbg_rnew_o          = rnew_q;
  assign dbg_adapt_ok_o      = adapt_ok_q;
  assign dbg_wp_o            = wp_q;
  assign dbg_rp_st_o         = rp_st_q;
  assign dbg_rp_ot_o         = rp_ot_q;
  assign dbg_rp_rc_o         = rp_rc_q;
  assign dbg_rp_pb_o         = rp_pb_q;
  assign dbg_act_o           = act_q;
  assign dbg_swap_o          = swap_q;
  assign dbg_segend_o        = segend_q;
  assign dbg_ended_o         = ended_q;
  assign dbg_bcut_o          = bcut_q;
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
