// C104 arbitration and output ownership (docs/c104.md §10): the FIFO age matrix, one arbiter per
// group leader (FIFO or round-robin, first free port of the group), and the owned-output registers.
module c104_arb (
  input  logic             clk_i,
  input  logic             rst_ni,
  // Slice i at bit i / [i*5 +: 5]: waiting and not withdrawing (A1), entering WAIT at this edge
  // (§10.2), and the leader it requests (sl_grp_q).
  input  logic [31:0]      cand_i,
  input  logic [31:0]      enter_i,
  input  logic [32*5-1:0]  sl_grp_i,
  // leader(o) of every port o (§10.1) and the arbitration mode.
  input  logic [32*5-1:0]  ldr_i,
  input  logic             cfg_rr_i,
  // Output o released at this edge: its owner moved an end token to it (§10.4).
  input  logic [31:0]      rel_i,
  // Per slice: granted in this cycle, and the output it is granted (A3).
  output logic [31:0]      gnt_o,
  output logic [32*5-1:0]  gnt_port_o,
  // Per output: granted in this cycle, and the slice it is granted to.
  output logic [31:0]      ogn_o,
  output logic [32*5-1:0]  owin_o,
  // Architectural registers (§8).
  output logic [31:0]      out_busy_o,
  output logic [32*5-1:0]  out_owner_o,
  output logic [32*32-1:0] age_o,
  output logic [32*5-1:0]  rr_o
);

  logic [31:0]      out_busy_d, out_busy_q;
  logic [32*5-1:0]  out_owner_d, out_owner_q;
  logic [32*32-1:0] age_d, age_q;
  logic [32*5-1:0]  rr_d, rr_q;

  // ---- Candidates and FIFO order (A1, A3, §10.2) ---------------------------------------------
  // Each slice waits for one leader, so group g's FIFO winner, the i in C_g with
  // (age_q[i] & C_g) == 0, is the candidate with no candidate of its own group ahead of it.
  logic [31:0] oldest;
  logic [31:0] same;

  always_comb begin
    for (int unsigned i = 0; i < 32; i++) begin
      for (int unsigned j = 0; j < 32; j++) begin
        same[j] = (sl_grp_i[j*5 +: 5] == sl_grp_i[i*5 +: 5]);
      end
      oldest[i] = cand_i[i] && ((age_q[i*32 +: 32] & cand_i & same) == 32'd0);
    end
  end

  // ---- One arbiter per leader g (A2-A5) -------------------------------------------------------
  // g is a leader exactly when some port has leader(o) == g (port g itself), so a former leader
  // that still has waiting slices finds no free port and grants nothing (§10.1).
  logic [31:0]     cg;          // C_g
  logic [31:0]     fr;          // free ports of g's group
  logic [31:0]     sel;         // the candidates the mode may pick from
  logic [31:0]     upper;       // round-robin: candidates at rr_q[g] or above
  logic [31:0]     grp_gnt;     // leader g grants in this cycle
  logic [32*5-1:0] grp_ff;      // its first free port
  logic [32*5-1:0] grp_win;     // its winner
  logic            ff_found, w_found;

  always_comb begin
    grp_gnt = 32'd0;
    grp_ff  = '0;
    grp_win = '0;
    for (int unsigned g = 0; g < 32; g++) begin
      for (int unsigned i = 0; i < 32; i++) begin
        cg[i] = cand_i[i] && (sl_grp_i[i*5 +: 5] == 5'(g));
        fr[i] = (ldr_i[i*5 +: 5] == 5'(g)) && !out_busy_q[i];
      end
      // A2: "first free" is the lowest-numbered free port of the group.
      ff_found = 1'b0;
      for (int unsigned o = 0; o < 32; o++) begin
        if (!ff_found && fr[o]) begin
          ff_found          = 1'b1;
          grp_ff[g*5 +: 5]  = 5'(o);
        end
      end
      // A3: FIFO, the oldest candidate (unique); round-robin, the first candidate in the order
      // rr_q[g], rr_q[g] + 1, ..., 31, 0, ...: the lowest at or above rr_q[g], else the lowest.
      upper = cg & ~((32'd1 << rr_q[g*5 +: 5]) - 32'd1);
      if (!cfg_rr_i) begin
        sel = cg & oldest;
      end else if (upper != 32'd0) begin
        sel = upper;
      end else begin
        sel = cg;
      end
      w_found = 1'b0;
      for (int unsigned i = 0; i < 32; i++) begin
        if (!w_found && sel[i]) begin
          w_found           = 1'b1;
          grp_win[g*5 +: 5] = 5'(i);
        end
      end
      grp_gnt[g] = ff_found && w_found;
    end
  end

  // The grant as each slice and each output sees it: slice i asks leader sl_grp_i[i], output o
  // belongs to leader ldr_i[o] (A5: the groups are disjoint, so at most one grant each).
  logic [4:0] gi, go;

  always_comb begin
    for (int unsigned i = 0; i < 32; i++) begin
      gi                   = sl_grp_i[i*5 +: 5];
      gnt_o[i]             = grp_gnt[gi] && (grp_win[gi*5 +: 5] == 5'(i));
      gnt_port_o[i*5 +: 5] = grp_ff[gi*5 +: 5];
    end
    for (int unsigned o = 0; o < 32; o++) begin
      go                = ldr_i[o*5 +: 5];
      ogn_o[o]          = grp_gnt[go] && (grp_ff[go*5 +: 5] == 5'(o));
      owin_o[o*5 +: 5]  = grp_win[go*5 +: 5];
    end
  end

  // ---- Next registers --------------------------------------------------------------------------
  logic [31:0] stay;
  logic [31:0] below;

  always_comb begin
    // §10.2: stay = waiting now and after the edge (neither granted nor withdrawn).
    stay = cand_i & ~gnt_o;
    for (int unsigned i = 0; i < 32; i++) begin
      below = (32'd1 << i) - 32'd1;
      if (enter_i[i]) begin
        // Behind everyone already waiting, and behind lower ports entering at the same edge.
        age_d[i*32 +: 32] = stay | (enter_i & below);
      end else if (stay[i]) begin
        age_d[i*32 +: 32] = age_q[i*32 +: 32] & stay;
      end else begin
        age_d[i*32 +: 32] = 32'd0;
      end
    end
    // A4: every grant, in either mode, moves the leader's pointer past the winner.
    rr_d = rr_q;
    for (int unsigned g = 0; g < 32; g++) begin
      if (grp_gnt[g]) begin
        rr_d[g*5 +: 5] = grp_win[g*5 +: 5] + 5'd1;
      end
    end
  end

  // §10.4: a port granted and released at the same edge (an empty packet after a stripped header)
  // stays free.
  always_comb begin
    for (int unsigned o = 0; o < 32; o++) begin
      out_busy_d[o]         = (out_busy_q[o] || ogn_o[o]) && !rel_i[o];
      out_owner_d[o*5 +: 5] = ogn_o[o] ? owin_o[o*5 +: 5] : out_owner_q[o*5 +: 5];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_busy_q  <= 32'd0;
      out_owner_q <= '0;
      age_q       <= '0;
      rr_q        <= '0;
    end else begin
      out_busy_q  <= out_busy_d;
      out_owner_q <= out_owner_d;
      age_q       <= age_d;
      rr_q        <= rr_d;
    end
  end

  assign out_busy_o  = out_busy_q;
  assign out_owner_o = out_owner_q;
  assign age_o       = age_q;
  assign rr_o        = rr_q;

endmodule
