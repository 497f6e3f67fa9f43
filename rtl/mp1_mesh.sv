// MP1 mesh (docs/mp1.md §12): a KX x KY mesh of `MP1_CHIP_MODULE chips, node n = y * KX + x,
// the four planes' channels wired between neighbours; each chip's interface side leaves per node.

// A user's chip with the same ports can replace mp1_chip (+define+MP1_CHIP_MODULE=...).
`ifndef MP1_CHIP_MODULE
`define MP1_CHIP_MODULE mp1_chip
`endif

module mp1_mesh #(
  parameter int unsigned KX = 4,
  parameter int unsigned KY = 4,
  // Address flits per address word, for every chip (§14.3): 2 for meshes over 32 nodes a side.
  parameter int AWF = 1,
  // Address bits of a word (§14): the width of the chips' coordinates and mesh size.
  localparam int AW = 5 + 8 * (AWF - 1),
  // Nodes; per-node fields are packed, node n in [n * W +: W] (§12.2).
  localparam int unsigned N = KX * KY,
  // Bits of the chip's own registers (MP1_CHIP_REGS) and of one plane's (MP1_PLANE_REGS, the
  // width of the chip's dbg_p<p>_o: its two machines' slots hold a1 and a2 of 3 + AW bits each,
  // docs/mp1_draft4.md §10.5).
  localparam int unsigned ChipRegBits = 128,
  localparam int unsigned PlaneRegBits = 2 * (253 + 4 * AW) + 8
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // Each chip's number (§12, static): 0 in a mesh; the unrolled torus of docs/mp1_sim.md §7
  // numbers its chips by level. An input, not a parameter, so that one build is mesh and torus.
  input  logic [3*N-1:0]     chip_i,
  input  logic [N-1:0]       pbloop_i,
  input  logic [3*N-1:0]     inj_dat_i,
  input  logic [3*N-1:0]     pbi_dat_i,
  input  logic [N-1:0]       rcv_stop_i,
  input  logic [N-1:0]       pbo_stop_i,
  output logic [N-1:0]       inj_stop_o,
  output logic [N-1:0]       pbi_stop_o,
  output logic [3*N-1:0]     rcv_dat_o,
  output logic [3*N-1:0]     pbo_dat_o,
  output logic [24*N-1:0]    chan_dat_o,
  output logic [8*N-1:0]     chan_stop_o,
  output logic [N-1:0]       err_o,
  output logic [ChipRegBits*N-1:0]    dbg_chip_o,
  output logic [4*PlaneRegBits*N-1:0] dbg_plane_o
);

  // Channel j = 2p + d (d: 0 X, 1 Y) of node n: 3 bits at [24n + 3j +: 3], 1 bit at [8n + j].
  // Flat vectors rather than packed 3-D arrays so that Yosys reads them too; out_dat and in_stop
  // are then exactly chan_dat_o and chan_stop_o.
  logic [24*N-1:0] out_dat;   // chip's p<p>_<d>out_dat_o
  logic [8*N-1:0]  in_stop;   // chip's p<p>_<d>in_stop_o
  logic [24*N-1:0] in_dat;    // chip's p<p>_<d>in_dat_i: the upstream neighbour's out_dat
  logic [8*N-1:0]  out_stop;  // chip's p<p>_<d>out_stop_i: the downstream neighbour's in_stop

  assign chan_dat_o  = out_dat;
  assign chan_stop_o = in_stop;

  // Signed copies of the size, so a neighbour at -1 compares as outside rather than as 2^32 - 1.
  localparam int SizeX = KX;
  localparam int SizeY = KY;

  // A coordinate is an AW-bit address (§14): at most 32 nodes a side at AWF = 1, 8192 at AWF = 2.
  if (SizeX > (1 << AW) || SizeY > (1 << AW)) begin : g_size_check
    $error("mp1_mesh: KX and KY must fit AW-bit addresses (AWF = 2 above 32)");
  end

  for (genvar y = 0; y < SizeY; y++) begin : g_y
    for (genvar x = 0; x < SizeX; x++) begin : g_x
      localparam int unsigned Node = y * KX + x;

      // Channel wiring (§12.1). Plane p runs in (sx, sy); its X input comes from the node behind
      // it, (x - sx, y), and its X output's stop from the node ahead, (x + sx, y); the same in Y.
      // A neighbour outside the mesh gives an idle channel (000) and a low stop: the chip never
      // uses an output that leads out of the mesh (§12.1), so its stop does not matter.
      for (genvar p = 0; p < 4; p++) begin : g_p
        localparam int Sx = ((p >> 1) != 0) ? -1 : 1;
        localparam int Sy = ((p & 1) != 0) ? -1 : 1;
        localparam int XBehind = x - Sx;
        localparam int XAhead = x + Sx;
        localparam int YBehind = y - Sy;
        localparam int YAhead = y + Sy;
        // This plane's X and Y channels (j = 2p + d).
        localparam int unsigned Jx = 2 * p;
        localparam int unsigned Jy = 2 * p + 1;

        if (XBehind >= 0 && XBehind < SizeX) begin : g_xin
          localparam int unsigned Src = y * KX + XBehind;
          assign in_dat[24*Node + 3*Jx +: 3] = out_dat[24*Src + 3*Jx +: 3];
        end else begin : g_xin_edge
          assign in_dat[24*Node + 3*Jx +: 3] = 3'b000;
        end
        if (XAhead >= 0 && XAhead < SizeX) begin : g_xout
          localparam int unsigned Dst = y * KX + XAhead;
          assign out_stop[8*Node + Jx] = in_stop[8*Dst + Jx];
        end else begin : g_xout_edge
          assign out_stop[8*Node + Jx] = 1'b0;
        end
        if (YBehind >= 0 && YBehind < SizeY) begin : g_yin
          localparam int unsigned Src = YBehind * KX + x;
          assign in_dat[24*Node + 3*Jy +: 3] = out_dat[24*Src + 3*Jy +: 3];
        end else begin : g_yin_edge
          assign in_dat[24*Node + 3*Jy +: 3] = 3'b000;
        end
        if (YAhead >= 0 && YAhead < SizeY) begin : g_yout
          localparam int unsigned Dst = YAhead * KX + x;
          assign out_stop[8*Node + Jy] = in_stop[8*Dst + Jy];
        end else begin : g_yout_edge
          assign out_stop[8*Node + Jy] = 1'b0;
        end
      end

      // The chip's own registers (MP1_CHIP_REGS order), concatenated below into dbg_chip_o.
      logic [3:0]  dbg_rca_own;
      logic [2:0]  dbg_rca_last;
      logic [1:0]  dbg_rca_pos;
      logic [3:0]  dbg_pba_own;
      logic [2:0]  dbg_pba_last;
      logic [1:0]  dbg_pba_pos;
      logic [1:0]  dbg_inj_cur;
      logic [2:0]  dbg_inj_tgt;
      logic [2:0]  dbg_inj_dat;
      logic        dbg_inj_fseg;
      logic        dbg_inj_last;
      logic        dbg_inj_fork;
      logic [2:0]  dbg_inj_hc;
      logic [2:0]  dbg_inj_if_st;
      logic [1:0]  dbg_inj_if_ic;
      logic        dbg_inj_if_iseg;
      logic [7:0]  dbg_inj_if_sel;
      logic        dbg_inj_if_sok;
      logic        dbg_inj_if_sx;
      logic [2:0]  dbg_inj_pb_st;
      logic [1:0]  dbg_inj_pb_ic;
      logic        dbg_inj_pb_iseg;
      logic [7:0]  dbg_inj_pb_sel;
      logic        dbg_inj_pb_sok;
      logic        dbg_inj_pb_sx;
      logic [15:0] dbg_cnt_inj_msgs;
      logic [15:0] dbg_cnt_sel_bad;
      logic [15:0] dbg_cnt_inj_drop;
      logic [15:0] dbg_cnt_inj_stray;

      `MP1_CHIP_MODULE #(
        .AWF (AWF)
      ) u_chip (
        .clk_i,
        .rst_ni,
        // Static (§12): the chip number (from chip_i), the node's coordinates, the mesh size - 1,
        // AW bits each (§14.3).
        .px_i                (AW'(x)),
        .py_i                (AW'(y)),
        .xmax_i              (AW'(KX - 1)),
        .ymax_i              (AW'(KY - 1)),
        .chip_i              (chip_i[3*Node +: 3]),
        .pbloop_i            (pbloop_i[Node]),
        .p0_xin_dat_i        (in_dat[24*Node +: 3]),
        .p0_yin_dat_i        (in_dat[24*Node + 3 +: 3]),
        .p0_xout_stop_i      (out_stop[8*Node]),
        .p0_yout_stop_i      (out_stop[8*Node + 1]),
        .p1_xin_dat_i        (in_dat[24*Node + 6 +: 3]),
        .p1_yin_dat_i        (in_dat[24*Node + 9 +: 3]),
        .p1_xout_stop_i      (out_stop[8*Node + 2]),
        .p1_yout_stop_i      (out_stop[8*Node + 3]),
        .p2_xin_dat_i        (in_dat[24*Node + 12 +: 3]),
        .p2_yin_dat_i        (in_dat[24*Node + 15 +: 3]),
        .p2_xout_stop_i      (out_stop[8*Node + 4]),
        .p2_yout_stop_i      (out_stop[8*Node + 5]),
        .p3_xin_dat_i        (in_dat[24*Node + 18 +: 3]),
        .p3_yin_dat_i        (in_dat[24*Node + 21 +: 3]),
        .p3_xout_stop_i      (out_stop[8*Node + 6]),
        .p3_yout_stop_i      (out_stop[8*Node + 7]),
        .inj_dat_i           (inj_dat_i[3*Node +: 3]),
        .pbi_dat_i           (pbi_dat_i[3*Node +: 3]),
        .rcv_stop_i          (rcv_stop_i[Node]),
        .pbo_stop_i          (pbo_stop_i[Node]),
        .p0_xin_stop_o       (in_stop[8*Node]),
        .p0_yin_stop_o       (in_stop[8*Node + 1]),
        .p0_xout_dat_o       (out_dat[24*Node +: 3]),
        .p0_yout_dat_o       (out_dat[24*Node + 3 +: 3]),
        .p1_xin_stop_o       (in_stop[8*Node + 2]),
        .p1_yin_stop_o       (in_stop[8*Node + 3]),
        .p1_xout_dat_o       (out_dat[24*Node + 6 +: 3]),
        .p1_yout_dat_o       (out_dat[24*Node + 9 +: 3]),
        .p2_xin_stop_o       (in_stop[8*Node + 4]),
        .p2_yin_stop_o       (in_stop[8*Node + 5]),
        .p2_xout_dat_o       (out_dat[24*Node + 12 +: 3]),
        .p2_yout_dat_o       (out_dat[24*Node + 15 +: 3]),
        .p3_xin_stop_o       (in_stop[8*Node + 6]),
        .p3_yin_stop_o       (in_stop[8*Node + 7]),
        .p3_xout_dat_o       (out_dat[24*Node + 18 +: 3]),
        .p3_yout_dat_o       (out_dat[24*Node + 21 +: 3]),
        .inj_stop_o          (inj_stop_o[Node]),
        .pbi_stop_o          (pbi_stop_o[Node]),
        .rcv_dat_o           (rcv_dat_o[3*Node +: 3]),
        .pbo_dat_o           (pbo_dat_o[3*Node +: 3]),
        .err_o               (err_o[Node]),
        .dbg_rca_own_o       (dbg_rca_own),
        .dbg_rca_last_o      (dbg_rca_last),
        .dbg_rca_pos_o       (dbg_rca_pos),
        .dbg_pba_own_o       (dbg_pba_own),
        .dbg_pba_last_o      (dbg_pba_last),
        .dbg_pba_pos_o       (dbg_pba_pos),
        .dbg_inj_cur_o       (dbg_inj_cur),
        .dbg_inj_tgt_o       (dbg_inj_tgt),
        .dbg_inj_dat_o       (dbg_inj_dat),
        .dbg_inj_fseg_o      (dbg_inj_fseg),
        .dbg_inj_last_o      (dbg_inj_last),
        .dbg_inj_fork_o      (dbg_inj_fork),
        .dbg_inj_hc_o        (dbg_inj_hc),
        .dbg_inj_if_st_o     (dbg_inj_if_st),
        .dbg_inj_if_ic_o     (dbg_inj_if_ic),
        .dbg_inj_if_iseg_o   (dbg_inj_if_iseg),
        .dbg_inj_if_sel_o    (dbg_inj_if_sel),
        .dbg_inj_if_sok_o    (dbg_inj_if_sok),
        .dbg_inj_if_sx_o     (dbg_inj_if_sx),
        .dbg_inj_pb_st_o     (dbg_inj_pb_st),
        .dbg_inj_pb_ic_o     (dbg_inj_pb_ic),
        .dbg_inj_pb_iseg_o   (dbg_inj_pb_iseg),
        .dbg_inj_pb_sel_o    (dbg_inj_pb_sel),
        .dbg_inj_pb_sok_o    (dbg_inj_pb_sok),
        .dbg_inj_pb_sx_o     (dbg_inj_pb_sx),
        .dbg_cnt_inj_msgs_o  (dbg_cnt_inj_msgs),
        .dbg_cnt_sel_bad_o   (dbg_cnt_sel_bad),
        .dbg_cnt_inj_drop_o  (dbg_cnt_inj_drop),
        .dbg_cnt_inj_stray_o (dbg_cnt_inj_stray),
        .dbg_p0_o            (dbg_plane_o[PlaneRegBits*4*Node +: PlaneRegBits]),
        .dbg_p1_o            (dbg_plane_o[PlaneRegBits*(4*Node + 1) +: PlaneRegBits]),
        .dbg_p2_o            (dbg_plane_o[PlaneRegBits*(4*Node + 2) +: PlaneRegBits]),
        .dbg_p3_o            (dbg_plane_o[PlaneRegBits*(4*Node + 3) +: PlaneRegBits])
      );

      // First register in the top bits, as the lockstep unpacks it by MP1_CHIP_REGS (§12.2).
      assign dbg_chip_o[ChipRegBits*Node +: ChipRegBits] = {
        dbg_rca_own, dbg_rca_last, dbg_rca_pos, dbg_pba_own, dbg_pba_last, dbg_pba_pos,
        dbg_inj_cur, dbg_inj_tgt, dbg_inj_dat, dbg_inj_fseg, dbg_inj_last, dbg_inj_fork,
        dbg_inj_hc,
        dbg_inj_if_st, dbg_inj_if_ic, dbg_inj_if_iseg, dbg_inj_if_sel, dbg_inj_if_sok,
        dbg_inj_if_sx,
        dbg_inj_pb_st, dbg_inj_pb_ic, dbg_inj_pb_iseg, dbg_inj_pb_sel, dbg_inj_pb_sok,
        dbg_inj_pb_sx,
        dbg_cnt_inj_msgs, dbg_cnt_sel_bad, dbg_cnt_inj_drop, dbg_cnt_inj_stray
      };
    end
  end

endmodule
