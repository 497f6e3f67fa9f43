// MP1 chip (docs/mp1.md §11): four planes of one node, the round-robin reception and piggy-back
// arbiters over their 8 routing machines, and the injection controller feeding the planes' outputs.
module mp1_chip #(
  // Address flits per address word, for every routing machine (§14.3).
  parameter int AWF = 1,
  // Address bits of a word (§14): the width of the coordinates and of the mesh size.
  localparam int AW = 5 + 8 * (AWF - 1),
  // Bits of one plane's packed register observation (MP1_PLANE_REG_BITS): per machine 217 + 2 AW
  // (a1 and a2 are 3 + AW bits each, §14.2), and the two arbiters' 2 bits each; 458 at AWF = 1.
  localparam int unsigned PlaneRegBits = 2 * (217 + 2 * AW) + 4
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic [AW-1:0]           px_i,
  input  logic [AW-1:0]           py_i,
  input  logic [AW-1:0]           xmax_i,
  input  logic [AW-1:0]           ymax_i,
  input  logic [2:0]              chip_i,
  input  logic                    pbloop_i,
  input  logic [2:0]              p0_xin_dat_i,
  input  logic [2:0]              p0_yin_dat_i,
  input  logic                    p0_xout_stop_i,
  input  logic                    p0_yout_stop_i,
  input  logic [2:0]              p1_xin_dat_i,
  input  logic [2:0]              p1_yin_dat_i,
  input  logic                    p1_xout_stop_i,
  input  logic                    p1_yout_stop_i,
  input  logic [2:0]              p2_xin_dat_i,
  input  logic [2:0]              p2_yin_dat_i,
  input  logic                    p2_xout_stop_i,
  input  logic                    p2_yout_stop_i,
  input  logic [2:0]              p3_xin_dat_i,
  input  logic [2:0]              p3_yin_dat_i,
  input  logic                    p3_xout_stop_i,
  input  logic                    p3_yout_stop_i,
  input  logic [2:0]              inj_dat_i,
  input  logic [2:0]              pbi_dat_i,
  input  logic                    rcv_stop_i,
  input  logic                    pbo_stop_i,
  output logic                    p0_xin_stop_o,
  output logic                    p0_yin_stop_o,
  output logic [2:0]              p0_xout_dat_o,
  output logic [2:0]              p0_yout_dat_o,
  output logic                    p1_xin_stop_o,
  output logic                    p1_yin_stop_o,
  output logic [2:0]              p1_xout_dat_o,
  output logic [2:0]              p1_yout_dat_o,
  output logic                    p2_xin_stop_o,
  output logic                    p2_yin_stop_o,
  output logic [2:0]              p2_xout_dat_o,
  output logic [2:0]              p2_yout_dat_o,
  output logic                    p3_xin_stop_o,
  output logic                    p3_yin_stop_o,
  output logic [2:0]              p3_xout_dat_o,
  output logic [2:0]              p3_yout_dat_o,
  output logic                    inj_stop_o,
  output logic                    pbi_stop_o,
  output logic [2:0]              rcv_dat_o,
  output logic [2:0]              pbo_dat_o,
  output logic [3:0]              dbg_rca_own_o,
  output logic [2:0]              dbg_rca_last_o,
  output logic [3:0]              dbg_pba_own_o,
  output logic [2:0]              dbg_pba_last_o,
  output logic [1:0]              dbg_inj_cur_o,
  output logic [2:0]              dbg_inj_tgt_o,
  output logic [2:0]              dbg_inj_dat_o,
  output logic                    dbg_inj_fseg_o,
  output logic                    dbg_inj_last_o,
  output logic [2:0]              dbg_inj_if_st_o,
  output logic [1:0]              dbg_inj_if_ic_o,
  output logic                    dbg_inj_if_iseg_o,
  output logic [7:0]              dbg_inj_if_sel_o,
  output logic                    dbg_inj_if_sok_o,
  output logic [2:0]              dbg_inj_pb_st_o,
  output logic [1:0]              dbg_inj_pb_ic_o,
  output logic                    dbg_inj_pb_iseg_o,
  output logic [7:0]              dbg_inj_pb_sel_o,
  output logic                    dbg_inj_pb_sok_o,
  output logic [15:0]             dbg_cnt_inj_msgs_o,
  output logic [15:0]             dbg_cnt_sel_bad_o,
  output logic [15:0]             dbg_cnt_inj_drop_o,
  output logic [15:0]             dbg_cnt_inj_stray_o,
  output logic [PlaneRegBits-1:0] dbg_p0_o,
  output logic [PlaneRegBits-1:0] dbg_p1_o,
  output logic [PlaneRegBits-1:0] dbg_p2_o,
  output logic [PlaneRegBits-1:0] dbg_p3_o
);

  // Plane p is (+X,+Y), (+X,-Y), (-X,+Y), (-X,-Y): bit p holds nx = p >> 1, ny = p & 1.
  localparam logic [3:0] PlaneNx = 4'b1100;
  localparam logic [3:0] PlaneNy = 4'b1010;

  // Plane channels by plane p (chunks at [3p+2:3p]).
  logic [11:0] xin_dat, yin_dat, xout_dat, yout_dat;
  logic [3:0]  xin_stop, yin_stop, xout_stop, yout_stop;
  logic [3:0]  ex, ey;
  // Plane outputs by {p, d} (d: 0 X, 1 Y), the injection controller's target encoding.
  logic [7:0]  out_edge, out_stop, inj_req, inj_own, inj_free;
  logic [2:0]  inj_dat;
  // Machine m (2p: plane p's u_rmx, 2p + 1: its u_rmy); chunks at [3m+2:3m].
  logic [7:0]  rc_req, rc_own, pb_req, pb_own;
  logic [23:0] rc_dat, pb_dat;
  logic        rc_free, pb_free;
  // The piggy-back front end's source and stop, and the stop the machines' pb copies see.
  logic [2:0]  pb_src;
  logic        pb_fe_stop, pb_stop;
  logic [3:0]  pba_own_q;
  logic [1:0]  pba_own_plane;
  logic [4*PlaneRegBits-1:0] dbg_p;

  assign xin_dat   = {p3_xin_dat_i, p2_xin_dat_i, p1_xin_dat_i, p0_xin_dat_i};
  assign yin_dat   = {p3_yin_dat_i, p2_yin_dat_i, p1_yin_dat_i, p0_yin_dat_i};
  assign xout_stop = {p3_xout_stop_i, p2_xout_stop_i, p1_xout_stop_i, p0_xout_stop_i};
  assign yout_stop = {p3_yout_stop_i, p2_yout_stop_i, p1_yout_stop_i, p0_yout_stop_i};

  assign {p3_xin_stop_o, p2_xin_stop_o, p1_xin_stop_o, p0_xin_stop_o} = xin_stop;
  assign {p3_yin_stop_o, p2_yin_stop_o, p1_yin_stop_o, p0_yin_stop_o} = yin_stop;
  assign {p3_xout_dat_o, p2_xout_dat_o, p1_xout_dat_o, p0_xout_dat_o} = xout_dat;
  assign {p3_yout_dat_o, p2_yout_dat_o, p1_yout_dat_o, p0_yout_dat_o} = yout_dat;

  always_comb begin
    for (int unsigned p = 0; p < 4; p++) begin
      // An output that leads out of the mesh: its machines treat routes into it as bad (§8.8
      // rule 2) and the injection controller refuses it as a target.
      ex[p]           = PlaneNx[p] ? (px_i == '0) : (px_i == xmax_i);
      ey[p]           = PlaneNy[p] ? (py_i == '0) : (py_i == ymax_i);
      out_edge[2*p]   = ex[p];
      out_edge[2*p+1] = ey[p];
      out_stop[2*p]   = xout_stop[p];
      out_stop[2*p+1] = yout_stop[p];
    end
  end

  // Piggy-back loop (§11.3): looped, the chip's own piggy-back output feeds the pb front end and
  // the machines see that front end's stop; otherwise both are the external channels.
  assign pb_src     = pbloop_i ? pbo_dat_o : pbi_dat_i;
  assign pb_stop    = pbloop_i ? pb_fe_stop : pbo_stop_i;
  assign pbi_stop_o = pb_fe_stop;

  for (genvar p = 0; p < 4; p++) begin : g_plane
    logic [2:0]    dbg_rmx_rm_st;
    logic [1:0]    dbg_rmx_ic;
    logic [4:0]    dbg_rmx_isr;
    logic          dbg_rmx_iseg;
    logic [5:0]    dbg_rmx_ifl;
    logic [1:0]    dbg_rmx_ihd;
    logic          dbg_rmx_iwf;
    logic [AW+2:0] dbg_rmx_a1;
    logic [AW+2:0] dbg_rmx_a2;
    logic          dbg_rmx_vpend;
    logic [3:0]    dbg_rmx_route;
    logic          dbg_rmx_rnew;
    logic          dbg_rmx_adapt_ok;
    logic [6:0]    dbg_rmx_wp;
    logic [6:0]    dbg_rmx_rp_st;
    logic [6:0]    dbg_rmx_rp_ot;
    logic [6:0]    dbg_rmx_rp_rc;
    logic [6:0]    dbg_rmx_rp_pb;
    logic [3:0]    dbg_rmx_act;
    logic          dbg_rmx_swap;
    logic          dbg_rmx_segend;
    logic          dbg_rmx_ended;
    logic          dbg_rmx_bcut;
    logic          dbg_rmx_stop;
    logic [2:0]    dbg_rmx_st_dat;
    logic [2:0]    dbg_rmx_ot_dat;
    logic [2:0]    dbg_rmx_rc_dat;
    logic [2:0]    dbg_rmx_pb_dat;
    logic [15:0]   dbg_rmx_cnt_dead;
    logic [15:0]   dbg_rmx_cnt_bad_code;
    logic [15:0]   dbg_rmx_cnt_bad_addr;
    logic [15:0]   dbg_rmx_cnt_bad_long;
    logic [15:0]   dbg_rmx_cnt_stray;
    logic [15:0]   dbg_rmx_cnt_cut;
    logic [15:0]   dbg_rmx_cnt_adapt;
    logic [15:0]   dbg_rmx_cnt_adapt_buf;
    logic [2:0]    dbg_rmy_rm_st;
    logic [1:0]    dbg_rmy_ic;
    logic [4:0]    dbg_rmy_isr;
    logic          dbg_rmy_iseg;
    logic [5:0]    dbg_rmy_ifl;
    logic [1:0]    dbg_rmy_ihd;
    logic          dbg_rmy_iwf;
    logic [AW+2:0] dbg_rmy_a1;
    logic [AW+2:0] dbg_rmy_a2;
    logic          dbg_rmy_vpend;
    logic [3:0]    dbg_rmy_route;
    logic          dbg_rmy_rnew;
    logic          dbg_rmy_adapt_ok;
    logic [6:0]    dbg_rmy_wp;
    logic [6:0]    dbg_rmy_rp_st;
    logic [6:0]    dbg_rmy_rp_ot;
    logic [6:0]    dbg_rmy_rp_rc;
    logic [6:0]    dbg_rmy_rp_pb;
    logic [3:0]    dbg_rmy_act;
    logic          dbg_rmy_swap;
    logic          dbg_rmy_segend;
    logic          dbg_rmy_ended;
    logic          dbg_rmy_bcut;
    logic          dbg_rmy_stop;
    logic [2:0]    dbg_rmy_st_dat;
    logic [2:0]    dbg_rmy_ot_dat;
    logic [2:0]    dbg_rmy_rc_dat;
    logic [2:0]    dbg_rmy_pb_dat;
    logic [15:0]   dbg_rmy_cnt_dead;
    logic [15:0]   dbg_rmy_cnt_bad_code;
    logic [15:0]   dbg_rmy_cnt_bad_addr;
    logic [15:0]   dbg_rmy_cnt_bad_long;
    logic [15:0]   dbg_rmy_cnt_stray;
    logic [15:0]   dbg_rmy_cnt_cut;
    logic [15:0]   dbg_rmy_cnt_adapt;
    logic [15:0]   dbg_rmy_cnt_adapt_buf;
    logic [1:0]    dbg_arbx_own;
    logic [1:0]    dbg_arby_own;
    mp1_plane #(
      .AWF (AWF)
    ) u_plane (
      .clk_i                      (clk_i),
      .rst_ni                     (rst_ni),
      .px_i                       (px_i),
      .py_i                       (py_i),
      .nx_i                       (PlaneNx[p]),
      .ny_i                       (PlaneNy[p]),
      .ex_i                       (ex[p]),
      .ey_i                       (ey[p]),
      .xin_dat_i                  (xin_dat[3*p+:3]),
      .yin_dat_i                  (yin_dat[3*p+:3]),
      .xout_stop_i                (xout_stop[p]),
      .yout_stop_i                (yout_stop[p]),
      .inj_x_req_i                (inj_req[2*p]),
      .inj_x_dat_i                (inj_dat),
      .inj_y_req_i                (inj_req[2*p+1]),
      .inj_y_dat_i                (inj_dat),
      .rmx_rc_own_i               (rc_own[2*p]),
      .rmx_rc_free_i              (rc_free),
      .rmx_rc_stop_i              (rcv_stop_i),
      .rmx_pb_own_i               (pb_own[2*p]),
      .rmx_pb_free_i              (pb_free),
      .rmx_pb_stop_i              (pb_stop),
      .rmy_rc_own_i               (rc_own[2*p+1]),
      .rmy_rc_free_i              (rc_free),
      .rmy_rc_stop_i              (rcv_stop_i),
      .rmy_pb_own_i               (pb_own[2*p+1]),
      .rmy_pb_free_i              (pb_free),
      .rmy_pb_stop_i              (pb_stop),
      .xin_stop_o                 (xin_stop[p]),
      .yin_stop_o                 (yin_stop[p]),
      .xout_dat_o                 (xout_dat[3*p+:3]),
      .yout_dat_o                 (yout_dat[3*p+:3]),
      .inj_x_own_o                (inj_own[2*p]),
      .inj_x_free_o               (inj_free[2*p]),
      .inj_y_own_o                (inj_own[2*p+1]),
      .inj_y_free_o               (inj_free[2*p+1]),
      .rmx_rc_dat_o               (rc_dat[6*p+:3]),
      .rmx_rc_req_o               (rc_req[2*p]),
      .rmx_pb_dat_o               (pb_dat[6*p+:3]),
      .rmx_pb_req_o               (pb_req[2*p]),
      .rmy_rc_dat_o               (rc_dat[6*p+3+:3]),
      .rmy_rc_req_o               (rc_req[2*p+1]),
      .rmy_pb_dat_o               (pb_dat[6*p+3+:3]),
      .rmy_pb_req_o               (pb_req[2*p+1]),
      .dbg_rmx_rm_st_o            (dbg_rmx_rm_st),
      .dbg_rmx_ic_o               (dbg_rmx_ic),
      .dbg_rmx_isr_o              (dbg_rmx_isr),
      .dbg_rmx_iseg_o             (dbg_rmx_iseg),
      .dbg_rmx_ifl_o              (dbg_rmx_ifl),
      .dbg_rmx_ihd_o              (dbg_rmx_ihd),
      .dbg_rmx_iwf_o              (dbg_rmx_iwf),
      .dbg_rmx_a1_o               (dbg_rmx_a1),
      .dbg_rmx_a2_o               (dbg_rmx_a2),
      .dbg_rmx_vpend_o            (dbg_rmx_vpend),
      .dbg_rmx_route_o            (dbg_rmx_route),
      .dbg_rmx_rnew_o             (dbg_rmx_rnew),
      .dbg_rmx_adapt_ok_o         (dbg_rmx_adapt_ok),
      .dbg_rmx_wp_o               (dbg_rmx_wp),
      .dbg_rmx_rp_st_o            (dbg_rmx_rp_st),
      .dbg_rmx_rp_ot_o            (dbg_rmx_rp_ot),
      .dbg_rmx_rp_rc_o            (dbg_rmx_rp_rc),
      .dbg_rmx_rp_pb_o            (dbg_rmx_rp_pb),
      .dbg_rmx_act_o              (dbg_rmx_act),
      .dbg_rmx_swap_o             (dbg_rmx_swap),
      .dbg_rmx_segend_o           (dbg_rmx_segend),
      .dbg_rmx_ended_o            (dbg_rmx_ended),
      .dbg_rmx_bcut_o             (dbg_rmx_bcut),
      .dbg_rmx_stop_o             (dbg_rmx_stop),
      .dbg_rmx_st_dat_o           (dbg_rmx_st_dat),
      .dbg_rmx_ot_dat_o           (dbg_rmx_ot_dat),
      .dbg_rmx_rc_dat_o           (dbg_rmx_rc_dat),
      .dbg_rmx_pb_dat_o           (dbg_rmx_pb_dat),
      .dbg_rmx_cnt_dead_o         (dbg_rmx_cnt_dead),
      .dbg_rmx_cnt_bad_code_o     (dbg_rmx_cnt_bad_code),
      .dbg_rmx_cnt_bad_addr_o     (dbg_rmx_cnt_bad_addr),
      .dbg_rmx_cnt_bad_long_o     (dbg_rmx_cnt_bad_long),
      .dbg_rmx_cnt_stray_o        (dbg_rmx_cnt_stray),
      .dbg_rmx_cnt_cut_o          (dbg_rmx_cnt_cut),
      .dbg_rmx_cnt_adapt_o        (dbg_rmx_cnt_adapt),
      .dbg_rmx_cnt_adapt_buf_o    (dbg_rmx_cnt_adapt_buf),
      .dbg_rmy_rm_st_o            (dbg_rmy_rm_st),
      .dbg_rmy_ic_o               (dbg_rmy_ic),
      .dbg_rmy_isr_o              (dbg_rmy_isr),
      .dbg_rmy_iseg_o             (dbg_rmy_iseg),
      .dbg_rmy_ifl_o              (dbg_rmy_ifl),
      .dbg_rmy_ihd_o              (dbg_rmy_ihd),
      .dbg_rmy_iwf_o              (dbg_rmy_iwf),
      .dbg_rmy_a1_o               (dbg_rmy_a1),
      .dbg_rmy_a2_o               (dbg_rmy_a2),
      .dbg_rmy_vpend_o            (dbg_rmy_vpend),
      .dbg_rmy_route_o            (dbg_rmy_route),
      .dbg_rmy_rnew_o             (dbg_rmy_rnew),
      .dbg_rmy_adapt_ok_o         (dbg_rmy_adapt_ok),
      .dbg_rmy_wp_o               (dbg_rmy_wp),
      .dbg_rmy_rp_st_o            (dbg_rmy_rp_st),
      .dbg_rmy_rp_ot_o            (dbg_rmy_rp_ot),
      .dbg_rmy_rp_rc_o            (dbg_rmy_rp_rc),
      .dbg_rmy_rp_pb_o            (dbg_rmy_rp_pb),
      .dbg_rmy_act_o              (dbg_rmy_act),
      .dbg_rmy_swap_o             (dbg_rmy_swap),
      .dbg_rmy_segend_o           (dbg_rmy_segend),
      .dbg_rmy_ended_o            (dbg_rmy_ended),
      .dbg_rmy_bcut_o             (dbg_rmy_bcut),
      .dbg_rmy_stop_o             (dbg_rmy_stop),
      .dbg_rmy_st_dat_o           (dbg_rmy_st_dat),
      .dbg_rmy_ot_dat_o           (dbg_rmy_ot_dat),
      .dbg_rmy_rc_dat_o           (dbg_rmy_rc_dat),
      .dbg_rmy_pb_dat_o           (dbg_rmy_pb_dat),
      .dbg_rmy_cnt_dead_o         (dbg_rmy_cnt_dead),
      .dbg_rmy_cnt_bad_code_o     (dbg_rmy_cnt_bad_code),
      .dbg_rmy_cnt_bad_addr_o     (dbg_rmy_cnt_bad_addr),
      .dbg_rmy_cnt_bad_long_o     (dbg_rmy_cnt_bad_long),
      .dbg_rmy_cnt_stray_o        (dbg_rmy_cnt_stray),
      .dbg_rmy_cnt_cut_o          (dbg_rmy_cnt_cut),
      .dbg_rmy_cnt_adapt_o        (dbg_rmy_cnt_adapt),
      .dbg_rmy_cnt_adapt_buf_o    (dbg_rmy_cnt_adapt_buf),
      .dbg_arbx_own_o             (dbg_arbx_own),
      .dbg_arby_own_o             (dbg_arby_own)
    );

    // MP1_PLANE_REGS order, the first register in the top bits (§11.4); iwf after ihd (§14.2).
    assign dbg_p[PlaneRegBits*p+:PlaneRegBits] = {
      dbg_rmx_rm_st, dbg_rmx_ic, dbg_rmx_isr, dbg_rmx_iseg, dbg_rmx_ifl, dbg_rmx_ihd, dbg_rmx_iwf,
      dbg_rmx_a1, dbg_rmx_a2, dbg_rmx_vpend, dbg_rmx_route, dbg_rmx_rnew, dbg_rmx_adapt_ok,
      dbg_rmx_wp, dbg_rmx_rp_st, dbg_rmx_rp_ot, dbg_rmx_rp_rc, dbg_rmx_rp_pb, dbg_rmx_act,
      dbg_rmx_swap, dbg_rmx_segend, dbg_rmx_ended, dbg_rmx_bcut, dbg_rmx_stop, dbg_rmx_st_dat,
      dbg_rmx_ot_dat, dbg_rmx_rc_dat, dbg_rmx_pb_dat, dbg_rmx_cnt_dead, dbg_rmx_cnt_bad_code,
      dbg_rmx_cnt_bad_addr, dbg_rmx_cnt_bad_long, dbg_rmx_cnt_stray, dbg_rmx_cnt_cut,
      dbg_rmx_cnt_adapt, dbg_rmx_cnt_adapt_buf,
      dbg_rmy_rm_st, dbg_rmy_ic, dbg_rmy_isr, dbg_rmy_iseg, dbg_rmy_ifl, dbg_rmy_ihd, dbg_rmy_iwf,
      dbg_rmy_a1, dbg_rmy_a2, dbg_rmy_vpend, dbg_rmy_route, dbg_rmy_rnew, dbg_rmy_adapt_ok,
      dbg_rmy_wp, dbg_rmy_rp_st, dbg_rmy_rp_ot, dbg_rmy_rp_rc, dbg_rmy_rp_pb, dbg_rmy_act,
      dbg_rmy_swap, dbg_rmy_segend, dbg_rmy_ended, dbg_rmy_bcut, dbg_rmy_stop, dbg_rmy_st_dat,
      dbg_rmy_ot_dat, dbg_rmy_rc_dat, dbg_rmy_pb_dat, dbg_rmy_cnt_dead, dbg_rmy_cnt_bad_code,
      dbg_rmy_cnt_bad_addr, dbg_rmy_cnt_bad_long, dbg_rmy_cnt_stray, dbg_rmy_cnt_cut,
      dbg_rmy_cnt_adapt, dbg_rmy_cnt_adapt_buf,
      dbg_arbx_own, dbg_arby_own
    };
  end

  // Reception channel: round-robin among the 8 machines' rc copies.
  mp1_rr_arb u_rca (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .req_i    (rc_req),
    .dat_i    (rc_dat),
    .own_o    (rc_own),
    .free_o   (rc_free),
    .dat_o    (rcv_dat_o),
    .own_q_o  (dbg_rca_own_o),
    .last_q_o (dbg_rca_last_o)
  );

  // Piggy-back output channel: the same among the machines' pb copies.
  mp1_rr_arb u_pba (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .req_i    (pb_req),
    .dat_i    (pb_dat),
    .own_o    (pb_own),
    .free_o   (pb_free),
    .dat_o    (pbo_dat_o),
    .own_q_o  (pba_own_q),
    .last_q_o (dbg_pba_last_o)
  );

  assign dbg_pba_own_o = pba_own_q;
  // The plane of the machine owning the piggy-back channel (machine m = 2p or 2p + 1): with the
  // loop, the sender of what the pb front end sees, for the plane order (§11.3).
  assign pba_own_plane = 2'((pba_own_q - 4'd1) >> 1);

  mp1_inj u_inj (
    .clk_i               (clk_i),
    .rst_ni              (rst_ni),
    .chip_i              (chip_i),
    .pbloop_i            (pbloop_i),
    .pb_own_vld_i        (pba_own_q != 4'd0),
    .pb_own_plane_i      (pba_own_plane),
    .out_edge_i          (out_edge),
    .out_own_i           (inj_own),
    .out_stop_i          (out_stop),
    .if_dat_i            (inj_dat_i),
    .pb_dat_i            (pb_src),
    .if_stop_o           (inj_stop_o),
    .pb_stop_o           (pb_fe_stop),
    .req_o               (inj_req),
    .dat_o               (inj_dat),
    .dbg_inj_cur_o       (dbg_inj_cur_o),
    .dbg_inj_tgt_o       (dbg_inj_tgt_o),
    .dbg_inj_dat_o       (dbg_inj_dat_o),
    .dbg_inj_fseg_o      (dbg_inj_fseg_o),
    .dbg_inj_last_o      (dbg_inj_last_o),
    .dbg_inj_if_st_o     (dbg_inj_if_st_o),
    .dbg_inj_if_ic_o     (dbg_inj_if_ic_o),
    .dbg_inj_if_iseg_o   (dbg_inj_if_iseg_o),
    .dbg_inj_if_sel_o    (dbg_inj_if_sel_o),
    .dbg_inj_if_sok_o    (dbg_inj_if_sok_o),
    .dbg_inj_pb_st_o     (dbg_inj_pb_st_o),
    .dbg_inj_pb_ic_o     (dbg_inj_pb_ic_o),
    .dbg_inj_pb_iseg_o   (dbg_inj_pb_iseg_o),
    .dbg_inj_pb_sel_o    (dbg_inj_pb_sel_o),
    .dbg_inj_pb_sok_o    (dbg_inj_pb_sok_o),
    .dbg_cnt_inj_msgs_o  (dbg_cnt_inj_msgs_o),
    .dbg_cnt_sel_bad_o   (dbg_cnt_sel_bad_o),
    .dbg_cnt_inj_drop_o  (dbg_cnt_inj_drop_o),
    .dbg_cnt_inj_stray_o (dbg_cnt_inj_stray_o)
  );

  // The controller needs only its own grant (inj_<d>_own): it requests and waits, never claims a
  // free output in one cycle as a machine in IDLE does.
  logic unused_inj_free;
  assign unused_inj_free = ^inj_free;

  assign dbg_p0_o = dbg_p[0*PlaneRegBits+:PlaneRegBits];
  assign dbg_p1_o = dbg_p[1*PlaneRegBits+:PlaneRegBits];
  assign dbg_p2_o = dbg_p[2*PlaneRegBits+:PlaneRegBits];
  assign dbg_p3_o = dbg_p[3*PlaneRegBits+:PlaneRegBits];

endmodule
