// MP1 routing machine: one copy of the front message, its next state and what it sends this cycle
// (docs/mp1_draft4.md §5.4, §5.5, §7). Combinational; the copy's registers (cs, rp, dat) are in
// mp1_rm, which also applies what acts on a copy from outside (creation, the decision, the adaptive
// switch, the speculative straight copy's check) by giving this block the copy's effective state.
module mp1_rm_copy (
  // Effective state this cycle: 0 OFF, 1 WAIT, 2 RUN, 3 NEXT (mp1_rm's CsOff ... CsNext).
  input  logic [1:0] cs_i,
  // A WAIT copy that may not start in this cycle (it was only just moved there).
  input  logic       hold_i,
  // The copy has a chunk (§5.1), and that chunk as {endc, chunk}.
  input  logic       avail_i,
  input  logic [3:0] chunk_i,
  // Its output: owned, its receiver's stop, the chunk this machine shows on it now is idle (§2
  // rule 3), and (straight only) the one-cycle claim of a free output (§5.4).
  input  logic       own_i,
  input  logic       stop_i,
  input  logic       idle_i,
  input  logic       claim_i,
  // The message's input ended without its EOM (f_cut_q): copies end early (§5.5).
  input  logic       cut_i,
  // (Straight only) the message's a1 was bad (f_drop_q && !f_dec_q): the speculative copy ends
  // in WAIT without sending (§5.5).
  input  logic       bad_i,
  output logic [1:0] cs_o,
  // The copy sends chunk_i and its read pointer advances.
  output logic       adv_o,
  // The output register's next value (<k>_dat_d): the chunk sent, 011 for an abort, else idle.
  output logic [2:0] dat_o,
  output logic       req_o
);

  localparam logic [1:0] CsOff  = 2'd0;
  localparam logic [1:0] CsWait = 2'd1;
  localparam logic [1:0] CsRun  = 2'd2;
  localparam logic [1:0] CsNext = 2'd3;

  localparam logic [2:0] ChIdle = 3'b000;
  localparam logic [2:0] ChEos  = 3'b001;
  localparam logic [2:0] ChIll  = 3'b011;

  // The state after sending chunk_i: an EOS leaves the output reserved for the next segment
  // (NEXT), an EOM (also a cut broadcast's EOS written as EOM) ends the copy, anything else runs
  // on (§5.5). The same holds for the chunk a copy starts with: a copy whose first chunk is an end
  // code (a delivery of a header-only segment) does not run past it.
  logic [1:0] cs_sent;
  assign cs_sent = !chunk_i[3] ? CsRun : (chunk_i[2:0] == ChEos) ? CsNext : CsOff;

  always_comb begin
    cs_o  = cs_i;
    adv_o = 1'b0;
    dat_o = ChIdle;
    req_o = 1'b0;
    unique case (cs_i)
      CsWait: begin
        if (cut_i || bad_i) begin
          // Its first segment will never be whole, or nothing of a bad message is sent from WAIT:
          // it ends without sending, and without asking (§5.5, §7).
          cs_o = CsOff;
        end else begin
          req_o = 1'b1;
          // Granted, room downstream and the idle chunk between messages, or the straight claim
          // of a free output (§5.4).
          if (!hold_i && avail_i && ((own_i && !stop_i && idle_i) || claim_i)) begin
            adv_o = 1'b1;
            cs_o  = cs_sent;
          end
        end
      end
      CsRun: begin
        if (avail_i) begin
          req_o = 1'b1;
          adv_o = 1'b1;
          cs_o  = cs_sent;
        end else if (!cut_i) begin
          // The input stopped inside the segment (a truncation arriving): idle, still running.
          req_o = 1'b1;
        end else begin
          // Caught up after a truncation: the output shows idle after the last chunk, a truncation
          // downstream; the copy ends without sending (§5.5).
          cs_o = CsOff;
        end
      end
      CsNext: begin
        req_o = 1'b1;
        if (cut_i) begin
          // Between segments on an owned output: the abort tells the machine downstream that the
          // message is over (§5.5).
          dat_o = ChIll;
          cs_o  = CsOff;
        end else if (avail_i && own_i && !stop_i) begin
          // A later segment may follow its EOS directly (E): no idle chunk inside a message.
          adv_o = 1'b1;
          cs_o  = cs_sent;
        end
      end
      default: begin
        cs_o = CsOff;
      end
    endcase
    if (adv_o) begin
      dat_o = chunk_i[2:0];
    end
  end

endmodule
