// MP1 injection controller (docs/mp1.md §11.3): front ends for the interface (`if`) and the
// piggy-back input (`pb`) each latch a selection segment; the core forwards one message at a time.
module mp1_inj (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [2:0]  chip_i,
  // Piggy-back loop (§11.3): the pb source is the chip's own piggy-back output, sent by the
  // machine owning it (valid while the piggy-back arbiter has an owner) in plane pb_own_plane_i.
  input  logic        pbloop_i,
  input  logic        pb_own_vld_i,
  input  logic [1:0]  pb_own_plane_i,
  // Per plane output {p, d} (d: 0 X, 1 Y): it leads out of the mesh, the plane arbiter's
  // inj_<d>_own, and the stop of the receiver behind it.
  input  logic [7:0]  out_edge_i,
  input  logic [7:0]  out_own_i,
  input  logic [7:0]  out_stop_i,
  input  logic [2:0]  if_dat_i,
  input  logic [2:0]  pb_dat_i,
  output logic        if_stop_o,
  output logic        pb_stop_o,
  // Requester 3 of plane output {p, d}, and the chunk for whichever of them owns it.
  output logic [7:0]  req_o,
  output logic [2:0]  dat_o,
  output logic [1:0]  dbg_inj_cur_o,
  output logic [2:0]  dbg_inj_tgt_o,
  output logic [2:0]  dbg_inj_dat_o,
  output logic        dbg_inj_fseg_o,
  output logic        dbg_inj_last_o,
  output logic [2:0]  dbg_inj_if_st_o,
  output logic [1:0]  dbg_inj_if_ic_o,
  output logic        dbg_inj_if_iseg_o,
  output logic [7:0]  dbg_inj_if_sel_o,
  output logic        dbg_inj_if_sok_o,
  output logic [2:0]  dbg_inj_pb_st_o,
  output logic [1:0]  dbg_inj_pb_ic_o,
  output logic        dbg_inj_pb_iseg_o,
  output logic [7:0]  dbg_inj_pb_sel_o,
  output logic        dbg_inj_pb_sok_o,
  output logic [15:0] dbg_cnt_inj_msgs_o,
  output logic [15:0] dbg_cnt_sel_bad_o,
  output logic [15:0] dbg_cnt_inj_drop_o,
  output logic [15:0] dbg_cnt_inj_stray_o
);

  typedef enum logic [2:0] {
    FeFree = 3'd0,
    FeSel  = 3'd1,
    FePend = 3'd2,
    FeFwd  = 3'd3,
    FeSkip = 3'd4
  } inj_fe_st_e;

  // Chunks outside a flit (§2.1).
  localparam logic [2:0] ChIdle = 3'b000;
  localparam logic [2:0] ChEos  = 3'b001;
  localparam logic [2:0] ChEom  = 3'b010;
  localparam logic [2:0] ChIll  = 3'b011;

  // inj_cur: the front end being forwarded.
  localparam logic [1:0] CurNone = 2'd0;
  localparam logic [1:0] CurIf   = 2'd1;
  localparam logic [1:0] CurPb   = 2'd2;

  // Front end f: 0 `if`, 1 `pb` (bit f of the vectors below, chunks and states at [3f+2:3f]).
  localparam int unsigned FeIf = 0;
  localparam int unsigned FePb = 1;

  // ---- Core registers -------------------------------------------------------------------------
  logic [1:0]  cur_d, cur_q;
  logic [2:0]  tgt_d, tgt_q;
  logic [2:0]  dat_d, dat_q;
  logic        fseg_d, fseg_q;
  // The source served last: no longer steers the pick (pb goes first), kept for observation.
  logic        last_d, last_q;
  logic [15:0] cnt_msgs_d, cnt_msgs_q;
  logic [15:0] cnt_sel_bad_d, cnt_sel_bad_q;
  logic [15:0] cnt_drop_d, cnt_drop_q;
  logic [15:0] cnt_stray_d, cnt_stray_q;

  // ---- Front ends and their handshake with the core -------------------------------------------
  logic [5:0]  fe_dat, fe_fwd_dat, fe_st;
  logic [3:0]  fe_ic;
  logic [15:0] fe_sel;
  logic [1:0]  fe_iseg, fe_sok, fe_stop, fe_cand, fe_pick, fe_yield, fe_leave, fe_fseg_set;
  logic [1:0]  fe_inc_msgs, fe_inc_sel_bad, fe_inc_drop, fe_inc_stray;
  logic        tgt_own, tgt_stop;

  assign fe_dat = {pb_dat_i, if_dat_i};

  // Only the front end in FWD looks at these: it is the one inj_cur_q names, so inj_tgt_q is its
  // target.
  assign tgt_own  = out_own_i[tgt_q];
  assign tgt_stop = out_stop_i[tgt_q];

  for (genvar f = 0; f < 2; f++) begin : g_fe
    inj_fe_st_e st_d, st_q;
    logic [1:0] ic_d, ic_q;
    logic       iseg_d, iseg_q;
    logic [7:0] sel_d, sel_q;
    logic       sok_d, sok_q;

    logic [2:0] c;
    logic       start, endc, eom, eos, gap, trunc, abort, stray, in_mesh, plane_ok;
    // This front end's bit of the fe_* handshake vectors: pick and yield come from the core; leave
    // (FWD ends this cycle), fwd_dat (inj_dat_d while forwarding), fseg_set (a segment started
    // going out) and the counter events go to it.
    logic       stop, pick, yield, leave, fseg_set;
    logic [2:0] fwd_dat;
    logic       inc_msgs, inc_sel_bad, inc_drop, inc_stray;

    // Framing (as in the routing machines, §8.3), in every state.
    always_comb begin
      c     = fe_dat[3*f+:3];
      start = (ic_q == 2'd0) && c[2];
      endc  = (ic_q == 2'd0) && iseg_q && (c == ChEos || c == ChEom);
      eom   = endc && (c == ChEom);
      eos   = endc && (c == ChEos);
      gap   = (ic_q == 2'd0) && (c == ChIdle || c == ChIll);
      trunc = iseg_q && gap;
      abort = (ic_q == 2'd0) && !iseg_q && (c == ChIll);
      stray = (ic_q == 2'd0) && !iseg_q && (c == ChEos || c == ChEom);

      if (start) begin
        ic_d = 2'd1;
      end else if (ic_q == 2'd1) begin
        ic_d = 2'd2;
      end else begin
        ic_d = 2'd0;
      end
      iseg_d = iseg_q;
      if (start) begin
        iseg_d = 1'b1;
      end else if (endc || trunc) begin
        iseg_d = 1'b0;
      end
    end

    // stop depends on registers and the target's stop input only, never on the chunk: the source
    // sees the downstream stop in the same cycle a direct sender would.
    always_comb begin
      unique case (st_q)
        FePend:  stop = 1'b1;
        FeFwd:   stop = !(tgt_own && !tgt_stop);
        default: stop = 1'b0;
      endcase
    end

    // In the next cycle a segment may start: the source saw stop low and its channel idle.
    assign sok_d = !stop && (ic_q == 2'd0) && (c == ChIdle);

    // A candidate for the pick: in PEND and staying there this cycle.
    assign fe_cand[f] = (st_q == FePend) && !start && !abort;

    // sel[4:2] = {plane, dim}: the output the message starts on must lead into the mesh.
    assign in_mesh = !out_edge_i[sel_q[4:2]];

    // Plane order for the loop: a looped message may only go on in a plane above the one it
    // arrived in, so every chain of waits ends in plane 3 and none can come back around. With no
    // owner of the piggy-back channel there is nothing to order against.
    if (f == FePb) begin : g_plane_order
      assign plane_ok = !pbloop_i || !pb_own_vld_i || (sel_q[4:3] > pb_own_plane_i);
    end else begin : g_no_plane_order
      assign plane_ok = 1'b1;
    end

    always_comb begin
      st_d        = st_q;
      sel_d       = sel_q;
      fwd_dat     = ChIdle;
      fseg_set    = 1'b0;
      inc_msgs    = 1'b0;
      inc_sel_bad = 1'b0;
      inc_drop    = 1'b0;
      inc_stray   = 1'b0;

      unique case (st_q)
        FeFree: begin
          if (start) begin
            sel_d[7:6] = c[1:0];
            st_d       = FeSel;
          end else if (stray || abort) begin
            inc_stray = 1'b1;
          end
        end

        FeSel: begin
          if (ic_q == 2'd1) begin
            sel_d[5:3] = c;
          end else if (ic_q == 2'd2) begin
            sel_d[2:0] = c;
          end else if (eos) begin
            if (sel_q[7:5] != chip_i) begin
              // Another chip's message on the shared interface: not an error here.
              st_d = FeSkip;
            end else if (sel_q[1:0] == 2'b00 && in_mesh && plane_ok) begin
              st_d = FePend;
            end else begin
              inc_sel_bad = 1'b1;
              st_d        = FeSkip;
            end
          end else if (start) begin
            // A selection segment of more than one flit: skip the message it heads.
            inc_sel_bad = 1'b1;
            st_d        = FeSkip;
          end else if (eom || trunc) begin
            inc_sel_bad = 1'b1;
            st_d        = FeFree;
          end
        end

        FePend: begin
          if (start) begin
            // The source ignored stop.
            inc_drop = 1'b1;
            st_d     = FeSkip;
          end else if (abort) begin
            inc_drop = 1'b1;
            st_d     = FeFree;
          end else begin
            if (stray) begin
              inc_stray = 1'b1;
            end
            if (pick) begin
              st_d = FeFwd;
            end
          end
        end

        FeFwd: begin
          if (ic_q != 2'd0) begin
            fwd_dat = c;
          end else if (start) begin
            if (iseg_q || sok_q) begin
              fwd_dat  = c;
              fseg_set = 1'b1;
            end else begin
              // A segment started against stop: the message ends as on an abort, and what
              // follows of it is discarded.
              fwd_dat  = fseg_q ? ChIll : ChIdle;
              inc_drop = 1'b1;
              st_d     = FeSkip;
            end
          end else if (endc) begin
            fwd_dat = c;
            if (eom) begin
              inc_msgs = 1'b1;
              st_d     = FeFree;
            end
          end else if (trunc) begin
            // The idle chunk truncates the segment downstream as well.
            fwd_dat  = ChIdle;
            inc_drop = 1'b1;
            st_d     = FeFree;
          end else if (abort) begin
            // Between segments the illegal chunk tells the machine downstream (in WAIT) that the
            // message is over (§8.8 rule 5); before the first segment it has seen nothing.
            fwd_dat  = fseg_q ? ChIll : ChIdle;
            inc_drop = 1'b1;
            st_d     = FeFree;
          end else if (stray) begin
            inc_stray = 1'b1;
          end else if (yield) begin
            // Nothing of the message has gone out and the source is idle: back to waiting, so
            // the piggy-backed message (which holds its path upstream) goes first.
            st_d = FePend;
          end
        end

        FeSkip: begin
          if (eom || trunc || abort) begin
            st_d = FeFree;
          end
        end

        default: begin
          st_d = FeFree;
        end
      endcase

      leave = (st_q == FeFwd) && (st_d != FeFwd);
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        st_q   <= FeFree;
        ic_q   <= 2'd0;
        iseg_q <= 1'b0;
        sel_q  <= 8'd0;
        sok_q  <= 1'b0;
      end else begin
        st_q   <= st_d;
        ic_q   <= ic_d;
        iseg_q <= iseg_d;
        sel_q  <= sel_d;
        sok_q  <= sok_d;
      end
    end

    assign pick               = fe_pick[f];
    assign yield              = fe_yield[f];
    assign fe_stop[f]         = stop;
    assign fe_leave[f]        = leave;
    assign fe_fseg_set[f]     = fseg_set;
    assign fe_fwd_dat[3*f+:3] = fwd_dat;
    assign fe_inc_msgs[f]     = inc_msgs;
    assign fe_inc_sel_bad[f]  = inc_sel_bad;
    assign fe_inc_drop[f]     = inc_drop;
    assign fe_inc_stray[f]    = inc_stray;
    assign fe_st[3*f+:3]      = st_q;
    assign fe_ic[2*f+:2]      = ic_q;
    assign fe_iseg[f]         = iseg_q;
    assign fe_sel[8*f+:8]     = sel_q;
    assign fe_sok[f]          = sok_q;
  end

  // ---- Core ------------------------------------------------------------------------------------
  // Of two candidates, pb first: a piggy-backed message holds its path upstream, an interface
  // message holds nothing, so making pb wait could close a cycle of waits between planes.
  assign fe_pick[FeIf] = (cur_q == CurNone) && fe_cand[FeIf] && !fe_cand[FePb];
  assign fe_pick[FePb] = (cur_q == CurNone) && fe_cand[FePb];

  // Yield: an interface message that has not started (nothing sent, its source idle and held by
  // stop) gives the controller up to a waiting pb message, instead of holding it while its output
  // waits for buffer space. It goes back to PEND; leaving FWD drops inj_cur, and the next cycle
  // picks pb.
  assign fe_yield[FeIf] = (cur_q == CurIf) && !fseg_q && fe_stop[FeIf] &&
                          (fe_ic[2*FeIf+:2] == 2'd0) && !fe_iseg[FeIf] &&
                          (fe_dat[3*FeIf+:3] == ChIdle) && fe_cand[FePb];
  // pb always goes first, so it never yields.
  assign fe_yield[FePb] = 1'b0;

  always_comb begin
    cur_d  = cur_q;
    tgt_d  = tgt_q;
    fseg_d = fseg_q;
    last_d = last_q;
    dat_d  = ChIdle;
    unique case (cur_q)
      CurNone: begin
        if (fe_pick[FeIf]) begin
          cur_d  = CurIf;
          tgt_d  = fe_sel[8*FeIf+2+:3];
          fseg_d = 1'b0;
          last_d = 1'b0;
        end else if (fe_pick[FePb]) begin
          cur_d  = CurPb;
          tgt_d  = fe_sel[8*FePb+2+:3];
          fseg_d = 1'b0;
          last_d = 1'b1;
        end
      end
      CurIf: begin
        dat_d = fe_fwd_dat[3*FeIf+:3];
        if (fe_fseg_set[FeIf]) fseg_d = 1'b1;
        // The last chunk still shows next cycle while the request drops, as at a machine's EOM.
        if (fe_leave[FeIf]) cur_d = CurNone;
      end
      CurPb: begin
        dat_d = fe_fwd_dat[3*FePb+:3];
        if (fe_fseg_set[FePb]) fseg_d = 1'b1;
        if (fe_leave[FePb]) cur_d = CurNone;
      end
      default: begin
        cur_d = CurNone;
      end
    endcase

    // Both front ends may count in the same cycle: every event counts.
    cnt_msgs_d    = cnt_msgs_q + 16'(fe_inc_msgs[FeIf]) + 16'(fe_inc_msgs[FePb]);
    cnt_sel_bad_d = cnt_sel_bad_q + 16'(fe_inc_sel_bad[FeIf]) + 16'(fe_inc_sel_bad[FePb]);
    cnt_drop_d    = cnt_drop_q + 16'(fe_inc_drop[FeIf]) + 16'(fe_inc_drop[FePb]);
    cnt_stray_d   = cnt_stray_q + 16'(fe_inc_stray[FeIf]) + 16'(fe_inc_stray[FePb]);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cur_q         <= CurNone;
      tgt_q         <= 3'd0;
      dat_q         <= ChIdle;
      fseg_q        <= 1'b0;
      last_q        <= 1'b0;
      cnt_msgs_q    <= 16'd0;
      cnt_sel_bad_q <= 16'd0;
      cnt_drop_q    <= 16'd0;
      cnt_stray_q   <= 16'd0;
    end else begin
      cur_q         <= cur_d;
      tgt_q         <= tgt_d;
      dat_q         <= dat_d;
      fseg_q        <= fseg_d;
      last_q        <= last_d;
      cnt_msgs_q    <= cnt_msgs_d;
      cnt_sel_bad_q <= cnt_sel_bad_d;
      cnt_drop_q    <= cnt_drop_d;
      cnt_stray_q   <= cnt_stray_d;
    end
  end

  always_comb begin
    for (int unsigned i = 0; i < 8; i++) begin
      req_o[i] = (cur_q != CurNone) && (tgt_q == 3'(i));
    end
  end

  assign dat_o     = dat_q;
  assign if_stop_o = fe_stop[FeIf];
  assign pb_stop_o = fe_stop[FePb];

  assign dbg_inj_cur_o       = cur_q;
  assign dbg_inj_tgt_o       = tgt_q;
  assign dbg_inj_dat_o       = dat_q;
  assign dbg_inj_fseg_o      = fseg_q;
  assign dbg_inj_last_o      = last_q;
  assign dbg_inj_if_st_o     = fe_st[3*FeIf+:3];
  assign dbg_inj_if_ic_o     = fe_ic[2*FeIf+:2];
  assign dbg_inj_if_iseg_o   = fe_iseg[FeIf];
  assign dbg_inj_if_sel_o    = fe_sel[8*FeIf+:8];
  assign dbg_inj_if_sok_o    = fe_sok[FeIf];
  assign dbg_inj_pb_st_o     = fe_st[3*FePb+:3];
  assign dbg_inj_pb_ic_o     = fe_ic[2*FePb+:2];
  assign dbg_inj_pb_iseg_o   = fe_iseg[FePb];
  assign dbg_inj_pb_sel_o    = fe_sel[8*FePb+:8];
  assign dbg_inj_pb_sok_o    = fe_sok[FePb];
  assign dbg_cnt_inj_msgs_o  = cnt_msgs_q;
  assign dbg_cnt_sel_bad_o   = cnt_sel_bad_q;
  assign dbg_cnt_inj_drop_o  = cnt_drop_q;
  assign dbg_cnt_inj_stray_o = cnt_stray_q;

endmodule
