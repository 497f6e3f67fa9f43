// MP1 injection controller (docs/mp1.md §11.3 as docs/mp1_draft4.md §10 changes it): front ends for
// the interface (`if`) and the piggy-back input (`pb`) each latch a selection flit; the core forwards
// one message at a time, keeps its output for a next message to it (the window), and forks a
// broadcast into both outputs of its plane.
module mp1_inj #(
  // Address flits per address word (docs/mp1.md §14): a forked message's first word stays in X.
  parameter int AWF = 1
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [2:0]  chip_i,
  // Piggy-back loop (§11.3): the pb source is the chip's own piggy-back output, sent by the
  // machine owning it (valid while the piggy-back arbiter has an owner) in plane pb_own_plane_i.
  input  logic        pbloop_i,
  input  logic        pb_own_vld_i,
  input  logic [1:0]  pb_own_plane_i,
  // Per plane output {p, d} (d: 0 X, 1 Y): it leads out of the mesh, the plane arbiter's
  // inj_<d>_own and inj_<d>_keep, and the stop of the receiver behind it.
  input  logic [7:0]  out_edge_i,
  input  logic [7:0]  out_own_i,
  input  logic [7:0]  out_keep_i,
  input  logic [7:0]  out_stop_i,
  input  logic [2:0]  if_dat_i,
  input  logic [2:0]  pb_dat_i,
  output logic        if_stop_o,
  output logic        pb_stop_o,
  // Requester 3 of plane output {p, d}, and the chunk for whichever of them owns it: X outputs
  // (and any output of a message that is not forked) get dat_o, Y outputs dat_y_o.
  output logic [7:0]  req_o,
  output logic [2:0]  dat_o,
  output logic [2:0]  dat_y_o,
  output logic [1:0]  dbg_inj_cur_o,
  output logic [2:0]  dbg_inj_tgt_o,
  output logic [2:0]  dbg_inj_dat_o,
  output logic        dbg_inj_fseg_o,
  output logic        dbg_inj_last_o,
  output logic        dbg_inj_fork_o,
  output logic [2:0]  dbg_inj_hc_o,
  output logic [2:0]  dbg_inj_if_st_o,
  output logic [1:0]  dbg_inj_if_ic_o,
  output logic        dbg_inj_if_iseg_o,
  output logic [7:0]  dbg_inj_if_sel_o,
  output logic        dbg_inj_if_sok_o,
  output logic        dbg_inj_if_sx_o,
  output logic [2:0]  dbg_inj_pb_st_o,
  output logic [1:0]  dbg_inj_pb_ic_o,
  output logic        dbg_inj_pb_iseg_o,
  output logic [7:0]  dbg_inj_pb_sel_o,
  output logic        dbg_inj_pb_sok_o,
  output logic        dbg_inj_pb_sx_o,
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
    FeSkip = 3'd4,
    FeNext = 3'd5,
    FeWin  = 3'd6
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

  // A forked message's chunks from chunk 3 AWF on (a2's word and the data) go to Y too; inj_hc
  // counts the message's chunks forwarded up to one past that (draft 4 §10.3).
  localparam logic [2:0] HcFork = 3'(3 * AWF);
  localparam logic [2:0] HcSat  = 3'(3 * AWF + 1);

  if (AWF < 1 || AWF > 2) begin : g_awf_check
    $error("mp1_inj: AWF must be 1 or 2");
  end

  // ---- Core registers -------------------------------------------------------------------------
  logic [1:0]  cur_d, cur_q;
  logic [2:0]  tgt_d, tgt_q;
  logic [2:0]  dat_d, dat_q;
  logic        fseg_d, fseg_q;
  // The source served last: no longer steers the pick (pb goes first), kept for observation.
  logic        last_d, last_q;
  logic        fork_d, fork_q;
  logic [2:0]  hc_d, hc_q;
  logic [15:0] cnt_msgs_d, cnt_msgs_q;
  logic [15:0] cnt_sel_bad_d, cnt_sel_bad_q;
  logic [15:0] cnt_drop_d, cnt_drop_q;
  logic [15:0] cnt_stray_d, cnt_stray_q;

  // ---- Front ends and their handshake with the core -------------------------------------------
  logic [5:0]  fe_dat, fe_fwd_dat, fe_st;
  logic [3:0]  fe_ic;
  logic [15:0] fe_sel, fe_sel_d;
  logic [1:0]  fe_iseg, fe_sok, fe_sx, fe_stop, fe_cand, fe_pick, fe_yield, fe_stay;
  logic [1:0]  fe_fseg_set, fe_fwd_cnt, fe_restart;
  logic [1:0]  fe_inc_msgs, fe_inc_sel_bad, fe_inc_drop, fe_inc_stray;

  // The served front end's output(s): its target {plane, dim}, and for a fork (always dim 0, X
  // first) the plane's Y output as well.
  logic [2:0] tgt_y;
  logic       own_x, own_y, keep_x, dstop_x, dstop_y;

  assign fe_dat  = {pb_dat_i, if_dat_i};
  assign tgt_y   = {tgt_q[2:1], 1'b1};
  assign own_x   = out_own_i[tgt_q];
  assign own_y   = out_own_i[tgt_y];
  assign keep_x  = out_keep_i[tgt_q];
  assign dstop_x = out_stop_i[tgt_q];
  assign dstop_y = out_stop_i[tgt_y];

  for (genvar f = 0; f < 2; f++) begin : g_fe
    inj_fe_st_e st_d, st_q;
    logic [1:0] ic_d, ic_q;
    logic       iseg_d, iseg_q;
    logic [7:0] sel_d, sel_q;
    logic       sok_d, sok_q;
    logic       sx_d, sx_q;

    logic [2:0] c;
    logic [7:0] sel_full;
    logic       start, endc, eom, eos, gap, trunc, abort, stray, sel_mine, sel_good, plane_ok;
    // In NEXT or WIN: the front end is the serving one (it keeps the controller through NEXT and
    // WIN), else a skipping one that mirrors the window of the message it skipped (draft 4 §10.2).
    logic       serving;
    // This front end's bit of the fe_* handshake vectors: pick and yield come from the core; the
    // rest goes to it. stay: it keeps the controller (FWD, NEXT, WIN next); fwd_dat: inj_dat_d
    // while served; fwd_cnt: a chunk of the message is forwarded; restart: a window's message
    // starts; fseg_set: a segment starts going out.
    logic       stop, cand, pick, yield, stay, fseg_set, fwd_cnt, restart;
    logic [2:0] fwd_dat;
    logic       inc_msgs, inc_sel_bad, inc_drop, inc_stray;

    // Framing (as in the routing machines, docs/mp1.md §8.3), in every state.
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

      ic_d   = start ? 2'd1 : (ic_q == 2'd1) ? 2'd2 : 2'd0;
      iseg_d = start ? 1'b1 : (endc || trunc) ? 1'b0 : iseg_q;
    end

    // The selection flit as its third chunk completes it (draft 4 §10.1): this chip's, and good
    // with sel[1:0] = 00, or fork (sel[1]) with dim = 0; every output it names inside the mesh;
    // for a looped piggy-back message, a plane above the one it arrived in (§11.3).
    always_comb begin
      sel_full = {sel_q[7:3], c};
      sel_mine = (sel_full[7:5] == chip_i);
      if (f == FePb) begin
        plane_ok = !pbloop_i || !pb_own_vld_i || (sel_full[4:3] > pb_own_plane_i);
      end else begin
        plane_ok = 1'b1;
      end
      sel_good = !sel_full[0] && !(sel_full[1] && sel_full[2]) && !out_edge_i[sel_full[4:2]] &&
                 !(sel_full[1] && out_edge_i[{sel_full[4:3], 1'b1}]) && plane_ok;
    end

    assign serving = (cur_q == ((f == FePb) ? CurPb : CurIf));

    // stop depends on registers, the outputs' arbiters and stops, and the other front end's
    // state: the source sees the downstream stop in the same cycle a direct sender would.
    always_comb begin
      unique case (st_q)
        FePend:  stop = 1'b1;
        FeFwd:   stop = fork_q ? !(own_x && own_y && !dstop_x && !dstop_y) : !(own_x && !dstop_x);
        // The window (draft 4 §10.2, the interface only): low says the output stays ours, so the
        // next message to it may follow now without a selection; pb still goes first. After a
        // skipped message (whatever the reason), low: the window is mirrored, its message skipped.
        FeNext:  stop = serving && !(own_x && keep_x && !dstop_x && (f == FePb || !fe_cand[FePb]));
        FeWin:   stop = 1'b1;
        default: stop = 1'b0;
      endcase
    end

    // In the next cycle a segment may start: the source saw stop low (E: the chunk before may be
    // an EOS; the idle chunk between messages is the source's rule).
    assign sok_d = !stop;

    // A candidate for the pick: in PEND in the next cycle, before any pick (a selection judged
    // good at its third chunk included: the controller then asks for its output while the EOS
    // arrives, draft 4 §10.1).
    always_comb begin
      cand = 1'b0;
      if (st_q == FeSel) begin
        cand = (ic_q == 2'd2) && sel_mine && sel_good;
      end else if (st_q == FePend) begin
        cand = sx_q ? eos : (!start && !abort);
      end
    end
    assign fe_cand[f] = cand;

    always_comb begin
      st_d        = st_q;
      sel_d       = sel_q;
      sx_d        = sx_q;
      fwd_dat     = ChIdle;
      fseg_set    = 1'b0;
      fwd_cnt     = 1'b0;
      restart     = 1'b0;
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
            if (!sel_mine) begin
              // Another chip's message on the shared interface: not an error here.
              st_d = FeSkip;
            end else if (sel_good) begin
              // Its EOS is still expected (sx).
              st_d = FePend;
              sx_d = 1'b1;
            end else begin
              inc_sel_bad = 1'b1;
              st_d        = FeSkip;
            end
          end
        end

        FePend: begin
          if (sx_q) begin
            // The selection's EOS, not forwarded; anything else is a bad selection.
            sx_d = 1'b0;
            if (!eos) begin
              inc_sel_bad = 1'b1;
              st_d        = FeFree;
            end
          end else if (start) begin
            // The source ignored stop.
            inc_drop = 1'b1;
            st_d     = FeSkip;
          end else if (abort) begin
            inc_drop = 1'b1;
            st_d     = FeFree;
          end else if (stray) begin
            inc_stray = 1'b1;
          end
        end

        FeFwd: begin
          if (sx_q) begin
            // Picked before its selection's EOS: as in PEND, and a bad selection releases the
            // controller with nothing sent.
            sx_d = 1'b0;
            if (!eos) begin
              inc_sel_bad = 1'b1;
              st_d        = FeFree;
            end
          end else if (ic_q != 2'd0) begin
            fwd_dat = c;
            fwd_cnt = 1'b1;
          end else if (start) begin
            if (iseg_q || sok_q) begin
              fwd_dat  = c;
              fwd_cnt  = 1'b1;
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
            fwd_cnt = 1'b1;
            if (eom) begin
              inc_msgs = 1'b1;
              // The idle chunk between messages, and the window: for the interface only, and
              // none after a fork; the pb source starts every message with a selection (§10.2).
              st_d     = (fork_q || f == FePb) ? FeFree : FeNext;
            end
          end else if (trunc) begin
            // The idle chunk truncates the segment downstream as well.
            fwd_dat  = ChIdle;
            inc_drop = 1'b1;
            st_d     = FeFree;
          end else if (abort) begin
            // Between segments the illegal chunk tells the machine downstream (in NEXT) that the
            // message is over; before the first segment it has seen nothing.
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

        FeNext: begin
          if (start) begin
            // No idle chunk after the EOM: the source's fault, counted by the serving chip only.
            inc_drop = serving;
            st_d     = FeSkip;
          end else begin
            if (stray || abort) begin
              inc_stray = 1'b1;
            end
            st_d = stop ? FeFree : FeWin;
          end
        end

        FeWin: begin
          if (start && !serving) begin
            // The skipped message's window message: skipped as well, not counted (§10.2).
            st_d = FeSkip;
          end else if (start) begin
            // The next message to the same output: its first chunk, without a selection.
            fwd_dat  = c;
            fwd_cnt  = 1'b1;
            fseg_set = 1'b1;
            restart  = 1'b1;
            st_d     = FeFwd;
          end else begin
            if (stray || abort) begin
              inc_stray = 1'b1;
            end
            st_d = FeFree;
          end
        end

        FeSkip: begin
          if (eom && f == FeIf) begin
            // Several chips on one interface: after a skipped message, whatever the reason, its
            // window as well (NEXT, then WIN), so a start in it is a window message (§10.2).
            st_d = FeNext;
          end else if (eom || trunc || abort) begin
            st_d = FeFree;
          end
        end

        default: begin
          st_d = FeFree;
        end
      endcase

      // Picked by the core (a candidate only, so from SEL or PEND): forwarded from now on.
      if (pick) begin
        st_d = FeFwd;
      end
      stay = (st_d == FeFwd) || (st_d == FeNext) || (st_d == FeWin);
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        st_q   <= FeFree;
        ic_q   <= 2'd0;
        iseg_q <= 1'b0;
        sel_q  <= 8'd0;
        sok_q  <= 1'b0;
        sx_q   <= 1'b0;
      end else begin
        st_q   <= st_d;
        ic_q   <= ic_d;
        iseg_q <= iseg_d;
        sel_q  <= sel_d;
        sok_q  <= sok_d;
        sx_q   <= sx_d;
      end
    end

    assign pick               = fe_pick[f];
    assign yield              = fe_yield[f];
    assign fe_stop[f]         = stop;
    assign fe_stay[f]         = stay;
    assign fe_fseg_set[f]     = fseg_set;
    assign fe_fwd_cnt[f]      = fwd_cnt;
    assign fe_restart[f]      = restart;
    assign fe_fwd_dat[3*f+:3] = fwd_dat;
    assign fe_inc_msgs[f]     = inc_msgs;
    assign fe_inc_sel_bad[f]  = inc_sel_bad;
    assign fe_inc_drop[f]     = inc_drop;
    assign fe_inc_stray[f]    = inc_stray;
    assign fe_st[3*f+:3]      = st_q;
    assign fe_ic[2*f+:2]      = ic_q;
    assign fe_iseg[f]         = iseg_q;
    assign fe_sel[8*f+:8]     = sel_q;
    assign fe_sel_d[8*f+:8]   = sel_d;
    assign fe_sok[f]          = sok_q;
    assign fe_sx[f]           = sx_q;
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

  // The served front end (valid while cur_q names one).
  logic srv;
  assign srv = (cur_q == CurPb);

  always_comb begin
    cur_d  = cur_q;
    tgt_d  = tgt_q;
    fseg_d = fseg_q;
    last_d = last_q;
    fork_d = fork_q;
    hc_d   = hc_q;
    dat_d  = ChIdle;
    if (cur_q == CurNone) begin
      // The pick: the selection as this cycle leaves it (its third chunk may be arriving).
      if (fe_pick[FePb] || fe_pick[FeIf]) begin
        cur_d  = fe_pick[FePb] ? CurPb : CurIf;
        tgt_d  = fe_pick[FePb] ? fe_sel_d[8*FePb+2+:3] : fe_sel_d[8*FeIf+2+:3];
        fork_d = fe_pick[FePb] ? fe_sel_d[8*FePb+1] : fe_sel_d[8*FeIf+1];
        fseg_d = 1'b0;
        hc_d   = 3'd0;
        last_d = fe_pick[FePb];
      end
    end else begin
      dat_d = fe_fwd_dat[3*srv+:3];
      if (fe_restart[srv]) begin
        // A window's message: a new message to the same output, its first segment going out.
        hc_d = 3'd0;
      end
      if (fe_fwd_cnt[srv] && (fe_restart[srv] || hc_q != HcSat)) begin
        hc_d = fe_restart[srv] ? 3'd1 : hc_q + 3'd1;
      end
      if (fe_fseg_set[srv]) begin
        fseg_d = 1'b1;
      end
      // The last chunk still shows next cycle while the request drops, as at a machine's EOM.
      if (!fe_stay[srv]) begin
        cur_d = CurNone;
      end
    end

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
      fork_q        <= 1'b0;
      hc_q          <= 3'd0;
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
      fork_q        <= fork_d;
      hc_q          <= hc_d;
      cnt_msgs_q    <= cnt_msgs_d;
      cnt_sel_bad_q <= cnt_sel_bad_d;
      cnt_drop_q    <= cnt_drop_d;
      cnt_stray_q   <= cnt_stray_d;
    end
  end

  // Requests: the target; for a fork the plane's Y output too, once X is owned (X first, one
  // order per plane, §10.3).
  always_comb begin
    for (int unsigned i = 0; i < 8; i++) begin
      req_o[i] = (cur_q != CurNone) &&
                 ((tgt_q == 3'(i)) || (fork_q && (tgt_y == 3'(i)) && own_x));
    end
  end

  // A forked message's first address word stays in X: Y shows idle until chunk 3 AWF (§10.3).
  assign dat_o     = dat_q;
  assign dat_y_o   = (fork_q && hc_q <= HcFork) ? ChIdle : dat_q;
  assign if_stop_o = fe_stop[FeIf];
  assign pb_stop_o = fe_stop[FePb];

  assign dbg_inj_cur_o       = cur_q;
  assign dbg_inj_tgt_o       = tgt_q;
  assign dbg_inj_dat_o       = dat_q;
  assign dbg_inj_fseg_o      = fseg_q;
  assign dbg_inj_last_o      = last_q;
  assign dbg_inj_fork_o      = fork_q;
  assign dbg_inj_hc_o        = hc_q;
  assign dbg_inj_if_st_o     = fe_st[3*FeIf+:3];
  assign dbg_inj_if_ic_o     = fe_ic[2*FeIf+:2];
  assign dbg_inj_if_iseg_o   = fe_iseg[FeIf];
  assign dbg_inj_if_sel_o    = fe_sel[8*FeIf+:8];
  assign dbg_inj_if_sok_o    = fe_sok[FeIf];
  assign dbg_inj_if_sx_o     = fe_sx[FeIf];
  assign dbg_inj_pb_st_o     = fe_st[3*FePb+:3];
  assign dbg_inj_pb_ic_o     = fe_ic[2*FePb+:2];
  assign dbg_inj_pb_iseg_o   = fe_iseg[FePb];
  assign dbg_inj_pb_sel_o    = fe_sel[8*FePb+:8];
  assign dbg_inj_pb_sok_o    = fe_sok[FePb];
  assign dbg_inj_pb_sx_o     = fe_sx[FePb];
  assign dbg_cnt_inj_msgs_o  = cnt_msgs_q;
  assign dbg_cnt_sel_bad_o   = cnt_sel_bad_q;
  assign dbg_cnt_inj_drop_o  = cnt_drop_q;
  assign dbg_cnt_inj_stray_o = cnt_stray_q;

endmodule
