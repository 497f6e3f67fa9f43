// MP1 chip (docs/mp1.md §11, docs/mp1_draft4.md §8, §10): four planes of one node, the round-robin
// reception and piggy-back arbiters over their 8 routing machines, and the injection controller
// feeding the planes' outputs.
module mp1_chip #(
  // Address flits per address word, for every routing machine (§14.3).
  parameter int AWF = 1,
  // Address bits of a word (§14): the width of the coordinates and of the mesh size.
  localparam int AW = 5 + 8 * (AWF - 1),
  // Bits of one plane's packed register observation (MP1_PLANE_REG_BITS): per machine 253 + 4 AW
  // (its two slots' a1 and a2 are 3 + AW bits each, draft 4 §10.5), and the two arbiters' own and
  // pos, 2 bits each; 554 at AWF = 1, 618 at AWF = 2.
  localparam int unsigned PlaneRegBits = 2 * (253 + 4 * AW) + 8
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
  output logic                    err_o,
  output logic [3:0]              dbg_rca_own_o,
  output logic [2:0]              dbg_rca_last_o,
  output logic [1:0]              dbg_rca_pos_o,
  output logic [3:0]              dbg_pba_own_o,
  output logic [2:0]              dbg_pba_last_o,
  output logic [1:0]              dbg_pba_pos_o,
  output logic [1:0]              dbg_inj_cur_o,
  output logic [2:0]              dbg_inj_tgt_o,
  output logic [2:0]              dbg_inj_dat_o,
  output logic                    dbg_inj_fseg_o,
  output logic                    dbg_inj_last_o,
  output logic                    dbg_inj_fork_o,
  output logic [2:0]              dbg_inj_hc_o,
  output logic [2:0]              dbg_inj_if_st_o,
  output logic [1:0]              dbg_inj_if_ic_o,
  output logic                    dbg_inj_if_iseg_o,
  output logic [7:0]              dbg_inj_if_sel_o,
  output logic                    dbg_inj_if_sok_o,
  output logic                    dbg_inj_if_sx_o,
  output logic [2:0]              dbg_inj_pb_st_o,
  output logic [1:0]              dbg_inj_pb_ic_o,
  output logic                    dbg_inj_pb_iseg_o,
  output logic [7:0]              dbg_inj_pb_sel_o,
  output logic                    dbg_inj_pb_sok_o,
  output logic                    dbg_inj_pb_sx_o,
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
  logic [7:0]  out_edge, out_stop, inj_req, inj_own, inj_free, inj_keep;
  // The controller's chunk register: as it is for X outputs, idle in Y while a forked message's
  // first address word goes out in X (draft 4 §10.3).
  logic [2:0]  inj_dat, inj_dat_y;
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
  // Plane p's err_o: one of its machines broke the buffer invariant (draft 4 §6).
  logic [3:0]  plane_err;

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
    logic [1:0]     dbg_rmx_ic;
    logic [4:0]     dbg_rmx_isr;
    logic          dbg_rmx_iseg;
    logic [5:0]     dbg_rmx_ifl;
    logic [1:0]     dbg_rmx_ihd;
    logic          dbg_rmx_iwf;
    logic          dbg_rmx_idis;
    logic [6:0]     dbg_rmx_wp;
    logic          dbg_rmx_f_val;
    logic          dbg_rmx_f_in;
    logic          dbg_rmx_f_drop;
    logic          dbg_rmx_f_cut;
    logic          dbg_rmx_f_dec;
    logic          dbg_rmx_f_vpend;
    logic          dbg_rmx_f_rnew;
    logic          dbg_rmx_f_adapt;
    logic [6:0]     dbg_rmx_f_base;
    logic [AW+2:0]  dbg_rmx_f_a1;
    logic [AW+2:0]  dbg_rmx_f_a2;
    logic [3:0]     dbg_rmx_f_route;
    logic          dbg_rmx_b_val;
    logic          dbg_rmx_b_in;
    logic          dbg_rmx_b_drop;
    logic          dbg_rmx_b_cut;
    logic          dbg_rmx_b_dec;
    logic          dbg_rmx_b_vpend;
    logic          dbg_rmx_b_rnew;
    logic          dbg_rmx_b_adapt;
    logic [6:0]     dbg_rmx_b_base;
    logic [AW+2:0]  dbg_rmx_b_a1;
    logic [AW+2:0]  dbg_rmx_b_a2;
    logic [3:0]     dbg_rmx_b_route;
    logic [1:0]     dbg_rmx_cs_st;
    logic [1:0]     dbg_rmx_cs_ot;
    logic [1:0]     dbg_rmx_cs_rc;
    logic [1:0]     dbg_rmx_cs_pb;
    logic [6:0]     dbg_rmx_rp_st;
    logic [6:0]     dbg_rmx_rp_ot;
    logic [6:0]     dbg_rmx_rp_rc;
    logic [6:0]     dbg_rmx_rp_pb;
    logic          dbg_rmx_swap;
    logic          dbg_rmx_stop;
    logic [2:0]     dbg_rmx_st_dat;
    logic [2:0]     dbg_rmx_ot_dat;
    logic [2:0]     dbg_rmx_rc_dat;
    logic [2:0]     dbg_rmx_pb_dat;
    logic [15:0]    dbg_rmx_cnt_dead;
    logic [15:0]    dbg_rmx_cnt_bad_code;
    logic [15:0]    dbg_rmx_cnt_bad_addr;
    logic [15:0]    dbg_rmx_cnt_bad_long;
    logic [15:0]    dbg_rmx_cnt_stray;
    logic [15:0]    dbg_rmx_cnt_cut;
    logic [15:0]    dbg_rmx_cnt_adapt;
    logic [15:0]    dbg_rmx_cnt_adapt_buf;
    logic [1:0]     dbg_rmy_ic;
    logic [4:0]     dbg_rmy_isr;
    logic          dbg_rmy_iseg;
    logic [5:0]     dbg_rmy_ifl;
    logic [1:0]     dbg_rmy_ihd;
    logic          dbg_rmy_iwf;
    logic          dbg_rmy_idis;
    logic [6:0]     dbg_rmy_wp;
    logic          dbg_rmy_f_val;
    logic          dbg_rmy_f_in;
    logic          dbg_rmy_f_drop;
    logic          dbg_rmy_f_cut;
    logic          dbg_rmy_f_dec;
    logic          dbg_rmy_f_vpend;
    logic          dbg_rmy_f_rnew;
    logic          dbg_rmy_f_adapt;
    logic [6:0]     dbg_rmy_f_base;
    logic [AW+2:0]  dbg_rmy_f_a1;
    logic [AW+2:0]  dbg_rmy_f_a2;
    logic [3:0]     dbg_rmy_f_route;
    logic          dbg_rmy_b_val;
    logic          dbg_rmy_b_in;
    logic          dbg_rmy_b_drop;
    logic          dbg_rmy_b_cut;
    logic          dbg_rmy_b_dec;
    logic          dbg_rmy_b_vpend;
    logic          dbg_rmy_b_rnew;
    logic          dbg_rmy_b_adapt;
    logic [6:0]     dbg_rmy_b_base;
    logic [AW+2:0]  dbg_rmy_b_a1;
    logic [AW+2:0]  dbg_rmy_b_a2;
    logic [3:0]     dbg_rmy_b_route;
    logic [1:0]     dbg_rmy_cs_st;
    logic [1:0]     dbg_rmy_cs_ot;
    logic [1:0]     dbg_rmy_cs_rc;
    logic [1:0]     dbg_rmy_cs_pb;
    logic [6:0]     dbg_rmy_rp_st;
    logic [6:0]     dbg_rmy_rp_ot;
    logic [6:0]     dbg_rmy_rp_rc;
    logic [6:0]     dbg_rmy_rp_pb;
    logic          dbg_rmy_swap;
    logic          dbg_rmy_stop;
    logic [2:0]     dbg_rmy_st_dat;
    logic [2:0]     dbg_rmy_ot_dat;
    logic [2:0]     dbg_rmy_rc_dat;
    logic [2:0]     dbg_rmy_pb_dat;
    logic [15:0]    dbg_rmy_cnt_dead;
    logic [15:0]    dbg_rmy_cnt_bad_code;
    logic [15:0]    dbg_rmy_cnt_bad_addr;
    logic [15:0]    dbg_rmy_cnt_bad_long;
    logic [15:0]    dbg_rmy_cnt_stray;
    logic [15:0]    dbg_rmy_cnt_cut;
    logic [15:0]    dbg_rmy_cnt_adapt;
    logic [15:0]    dbg_rmy_cnt_adapt_buf;
    logic [1:0]    dbg_arbx_own;
    logic [1:0]    dbg_arbx_pos;
    logic [1:0]    dbg_arby_own;
    logic [1:0]    dbg_arby_pos;
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
      .inj_y_dat_i                (inj_dat_y),
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
      .inj_x_keep_o               (inj_keep[2*p]),
      .inj_y_keep_o               (inj_keep[2*p+1]),
      .rmx_rc_dat_o               (rc_dat[6*p+:3]),
      .rmx_rc_req_o               (rc_req[2*p]),
      .rmx_pb_dat_o               (pb_dat[6*p+:3]),
      .rmx_pb_req_o               (pb_req[2*p]),
      .rmy_rc_dat_o               (rc_dat[6*p+3+:3]),
      .rmy_rc_req_o               (rc_req[2*p+1]),
      .rmy_pb_dat_o               (pb_dat[6*p+3+:3]),
      .rmy_pb_req_o               (pb_req[2*p+1]),
      .err_o                      (plane_err[p]),
      .dbg_rmx_ic_o               (dbg_rmx_ic),
      .dbg_rmx_isr_o              (dbg_rmx_isr),
      .dbg_rmx_iseg_o             (dbg_rmx_iseg),
      .dbg_rmx_ifl_o              (dbg_rmx_ifl),
      .dbg_rmx_ihd_o              (dbg_rmx_ihd),
      .dbg_rmx_iwf_o              (dbg_rmx_iwf),
      .dbg_rmx_idis_o             (dbg_rmx_idis),
      .dbg_rmx_wp_o               (dbg_rmx_wp),
      .dbg_rmx_f_val_o            (dbg_rmx_f_val),
      .dbg_rmx_f_in_o             (dbg_rmx_f_in),
      .dbg_rmx_f_drop_o           (dbg_rmx_f_drop),
      .dbg_rmx_f_cut_o            (dbg_rmx_f_cut),
      .dbg_rmx_f_dec_o            (dbg_rmx_f_dec),
      .dbg_rmx_f_vpend_o          (dbg_rmx_f_vpend),
      .dbg_rmx_f_rnew_o           (dbg_rmx_f_rnew),
      .dbg_rmx_f_adapt_o          (dbg_rmx_f_adapt),
      .dbg_rmx_f_base_o           (dbg_rmx_f_base),
      .dbg_rmx_f_a1_o             (dbg_rmx_f_a1),
      .dbg_rmx_f_a2_o             (dbg_rmx_f_a2),
      .dbg_rmx_f_route_o          (dbg_rmx_f_route),
      .dbg_rmx_b_val_o            (dbg_rmx_b_val),
      .dbg_rmx_b_in_o             (dbg_rmx_b_in),
      .dbg_rmx_b_drop_o           (dbg_rmx_b_drop),
      .dbg_rmx_b_cut_o            (dbg_rmx_b_cut),
      .dbg_rmx_b_dec_o            (dbg_rmx_b_dec),
      .dbg_rmx_b_vpend_o          (dbg_rmx_b_vpend),
      .dbg_rmx_b_rnew_o           (dbg_rmx_b_rnew),
      .dbg_rmx_b_adapt_o          (dbg_rmx_b_adapt),
      .dbg_rmx_b_base_o           (dbg_rmx_b_base),
      .dbg_rmx_b_a1_o             (dbg_rmx_b_a1),
      .dbg_rmx_b_a2_o             (dbg_rmx_b_a2),
      .dbg_rmx_b_route_o          (dbg_rmx_b_route),
      .dbg_rmx_cs_st_o            (dbg_rmx_cs_st),
      .dbg_rmx_cs_ot_o            (dbg_rmx_cs_ot),
      .dbg_rmx_cs_rc_o            (dbg_rmx_cs_rc),
      .dbg_rmx_cs_pb_o            (dbg_rmx_cs_pb),
      .dbg_rmx_rp_st_o            (dbg_rmx_rp_st),
      .dbg_rmx_rp_ot_o            (dbg_rmx_rp_ot),
      .dbg_rmx_rp_rc_o            (dbg_rmx_rp_rc),
      .dbg_rmx_rp_pb_o            (dbg_rmx_rp_pb),
      .dbg_rmx_swap_o             (dbg_rmx_swap),
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
      .dbg_rmy_ic_o               (dbg_rmy_ic),
      .dbg_rmy_isr_o              (dbg_rmy_isr),
      .dbg_rmy_iseg_o             (dbg_rmy_iseg),
      .dbg_rmy_ifl_o              (dbg_rmy_ifl),
      .dbg_rmy_ihd_o              (dbg_rmy_ihd),
      .dbg_rmy_iwf_o              (dbg_rmy_iwf),
      .dbg_rmy_idis_o             (dbg_rmy_idis),
      .dbg_rmy_wp_o               (dbg_rmy_wp),
      .dbg_rmy_f_val_o            (dbg_rmy_f_val),
      .dbg_rmy_f_in_o             (dbg_rmy_f_in),
      .dbg_rmy_f_drop_o           (dbg_rmy_f_drop),
      .dbg_rmy_f_cut_o            (dbg_rmy_f_cut),
      .dbg_rmy_f_dec_o            (dbg_rmy_f_dec),
      .dbg_rmy_f_vpend_o          (dbg_rmy_f_vpend),
      .dbg_rmy_f_rnew_o           (dbg_rmy_f_rnew),
      .dbg_rmy_f_adapt_o          (dbg_rmy_f_adapt),
      .dbg_rmy_f_base_o           (dbg_rmy_f_base),
      .dbg_rmy_f_a1_o             (dbg_rmy_f_a1),
      .dbg_rmy_f_a2_o             (dbg_rmy_f_a2),
      .dbg_rmy_f_route_o          (dbg_rmy_f_route),
      .dbg_rmy_b_val_o            (dbg_rmy_b_val),
      .dbg_rmy_b_in_o             (dbg_rmy_b_in),
      .dbg_rmy_b_drop_o           (dbg_rmy_b_drop),
      .dbg_rmy_b_cut_o            (dbg_rmy_b_cut),
      .dbg_rmy_b_dec_o            (dbg_rmy_b_dec),
      .dbg_rmy_b_vpend_o          (dbg_rmy_b_vpend),
      .dbg_rmy_b_rnew_o           (dbg_rmy_b_rnew),
      .dbg_rmy_b_adapt_o          (dbg_rmy_b_adapt),
      .dbg_rmy_b_base_o           (dbg_rmy_b_base),
      .dbg_rmy_b_a1_o             (dbg_rmy_b_a1),
      .dbg_rmy_b_a2_o             (dbg_rmy_b_a2),
      .dbg_rmy_b_route_o          (dbg_rmy_b_route),
      .dbg_rmy_cs_st_o            (dbg_rmy_cs_st),
      .dbg_rmy_cs_ot_o            (dbg_rmy_cs_ot),
      .dbg_rmy_cs_rc_o            (dbg_rmy_cs_rc),
      .dbg_rmy_cs_pb_o            (dbg_rmy_cs_pb),
      .dbg_rmy_rp_st_o            (dbg_rmy_rp_st),
      .dbg_rmy_rp_ot_o            (dbg_rmy_rp_ot),
      .dbg_rmy_rp_rc_o            (dbg_rmy_rp_rc),
      .dbg_rmy_rp_pb_o            (dbg_rmy_rp_pb),
      .dbg_rmy_swap_o             (dbg_rmy_swap),
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
      .dbg_arbx_pos_o             (dbg_arbx_pos),
      .dbg_arby_own_o             (dbg_arby_own),
      .dbg_arby_pos_o             (dbg_arby_pos)
    );

    // MP1_PLANE_REGS order, the first register in the top bits (§11.4).
    assign dbg_p[PlaneRegBits*p+:PlaneRegBits] = {
      dbg_rmx_ic, dbg_rmx_isr, dbg_rmx_iseg, dbg_rmx_ifl, dbg_rmx_ihd, dbg_rmx_iwf, dbg_rmx_idis,
      dbg_rmx_wp, dbg_rmx_f_val, dbg_rmx_f_in, dbg_rmx_f_drop, dbg_rmx_f_cut, dbg_rmx_f_dec,
      dbg_rmx_f_vpend, dbg_rmx_f_rnew, dbg_rmx_f_adapt, dbg_rmx_f_base, dbg_rmx_f_a1, dbg_rmx_f_a2,
      dbg_rmx_f_route, dbg_rmx_b_val, dbg_rmx_b_in, dbg_rmx_b_drop, dbg_rmx_b_cut, dbg_rmx_b_dec,
      dbg_rmx_b_vpend, dbg_rmx_b_rnew, dbg_rmx_b_adapt, dbg_rmx_b_base, dbg_rmx_b_a1, dbg_rmx_b_a2,
      dbg_rmx_b_route, dbg_rmx_cs_st, dbg_rmx_cs_ot, dbg_rmx_cs_rc, dbg_rmx_cs_pb, dbg_rmx_rp_st,
      dbg_rmx_rp_ot, dbg_rmx_rp_rc, dbg_rmx_rp_pb, dbg_rmx_swap, dbg_rmx_stop, dbg_rmx_st_dat,
      dbg_rmx_ot_dat, dbg_rmx_rc_dat, dbg_rmx_pb_dat, dbg_rmx_cnt_dead, dbg_rmx_cnt_bad_code,
      dbg_rmx_cnt_bad_addr, dbg_rmx_cnt_bad_long, dbg_rmx_cnt_stray, dbg_rmx_cnt_cut,
      dbg_rmx_cnt_adapt, dbg_rmx_cnt_adapt_buf, dbg_rmy_ic, dbg_rmy_isr, dbg_rmy_iseg, dbg_rmy_ifl,
      dbg_rmy_ihd, dbg_rmy_iwf, dbg_rmy_idis, dbg_rmy_wp, dbg_rmy_f_val, dbg_rmy_f_in,
      dbg_rmy_f_drop, dbg_rmy_f_cut, dbg_rmy_f_dec, dbg_rmy_f_vpend, dbg_rmy_f_rnew,
      dbg_rmy_f_adapt, dbg_rmy_f_base, dbg_rmy_f_a1, dbg_rmy_f_a2, dbg_rmy_f_route, dbg_rmy_b_val,
      dbg_rmy_b_in, dbg_rmy_b_drop, dbg_rmy_b_cut, dbg_rmy_b_dec, dbg_rmy_b_vpend, dbg_rmy_b_rnew,
      dbg_rmy_b_adapt, dbg_rmy_b_base, dbg_rmy_b_a1, dbg_rmy_b_a2, dbg_rmy_b_route, dbg_rmy_cs_st,
      dbg_rmy_cs_ot, dbg_rmy_cs_rc, dbg_rmy_cs_pb, dbg_rmy_rp_st, dbg_rmy_rp_ot, dbg_rmy_rp_rc,
      dbg_rmy_rp_pb, dbg_rmy_swap, dbg_rmy_stop, dbg_rmy_st_dat, dbg_rmy_ot_dat, dbg_rmy_rc_dat,
      dbg_rmy_pb_dat, dbg_rmy_cnt_dead, dbg_rmy_cnt_bad_code, dbg_rmy_cnt_bad_addr,
      dbg_rmy_cnt_bad_long, dbg_rmy_cnt_stray, dbg_rmy_cnt_cut, dbg_rmy_cnt_adapt,
      dbg_rmy_cnt_adapt_buf, dbg_arbx_own, dbg_arbx_pos, dbg_arby_own, dbg_arby_pos
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
    .last_q_o (dbg_rca_last_o),
    .pos_q_o  (dbg_rca_pos_o)
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
    .last_q_o (dbg_pba_last_o),
    .pos_q_o  (dbg_pba_pos_o)
  );

  assign dbg_pba_own_o = pba_own_q;
  // The plane of the machine owning the piggy-back channel (machine m = 2p or 2p + 1): with the
  // loop, the sender of what the pb front end sees, for the plane order (§11.3).
  assign pba_own_plane = 2'((pba_own_q - 4'd1) >> 1);

  mp1_inj #(
    .AWF (AWF)
  ) u_inj (
    .clk_i               (clk_i),
    .rst_ni              (rst_ni),
    .chip_i              (chip_i),
    .pbloop_i            (pbloop_i),
    .pb_own_vld_i        (pba_own_q != 4'd0),
    .pb_own_plane_i      (pba_own_plane),
    .out_edge_i          (out_edge),
    .out_own_i           (inj_own),
    .out_keep_i          (inj_keep),
    .out_stop_i          (out_stop),
    .if_dat_i            (inj_dat_i),
    .pb_dat_i            (pb_src),
    .if_stop_o           (inj_stop_o),
    .pb_stop_o           (pb_fe_stop),
    .req_o               (inj_req),
    .dat_o               (inj_dat),
    .dat_y_o             (inj_dat_y),
    .dbg_inj_cur_o       (dbg_inj_cur_o),
    .dbg_inj_tgt_o       (dbg_inj_tgt_o),
    .dbg_inj_dat_o       (dbg_inj_dat_o),
    .dbg_inj_fseg_o      (dbg_inj_fseg_o),
    .dbg_inj_last_o      (dbg_inj_last_o),
    .dbg_inj_fork_o      (dbg_inj_fork_o),
    .dbg_inj_hc_o        (dbg_inj_hc_o),
    .dbg_inj_if_st_o     (dbg_inj_if_st_o),
    .dbg_inj_if_ic_o     (dbg_inj_if_ic_o),
    .dbg_inj_if_iseg_o   (dbg_inj_if_iseg_o),
    .dbg_inj_if_sel_o    (dbg_inj_if_sel_o),
    .dbg_inj_if_sok_o    (dbg_inj_if_sok_o),
    .dbg_inj_if_sx_o     (dbg_inj_if_sx_o),
    .dbg_inj_pb_st_o     (dbg_inj_pb_st_o),
    .dbg_inj_pb_ic_o     (dbg_inj_pb_ic_o),
    .dbg_inj_pb_iseg_o   (dbg_inj_pb_iseg_o),
    .dbg_inj_pb_sel_o    (dbg_inj_pb_sel_o),
    .dbg_inj_pb_sok_o    (dbg_inj_pb_sok_o),
    .dbg_inj_pb_sx_o     (dbg_inj_pb_sx_o),
    .dbg_cnt_inj_msgs_o  (dbg_cnt_inj_msgs_o),
    .dbg_cnt_sel_bad_o   (dbg_cnt_sel_bad_o),
    .dbg_cnt_inj_drop_o  (dbg_cnt_inj_drop_o),
    .dbg_cnt_inj_stray_o (dbg_cnt_inj_stray_o)
  );

  // The controller needs only its own grant (inj_<d>_own): it requests and waits, never claims a
  // free output in one cycle as a straight copy does (draft 4 §5.4).
  logic unused_inj_free;
  assign unused_inj_free = ^inj_free;

  // The buffer invariant (draft 4 §6), any plane's: combinational, 0 in every correct run.
  assign err_o = |plane_err;

  assign dbg_p0_o = dbg_p[0*PlaneRegBits+:PlaneRegBits];
  assign dbg_p1_o = dbg_p[1*PlaneRegBits+:PlaneRegBits];
  assign dbg_p2_o = dbg_p[2*PlaneRegBits+:PlaneRegBits];
  assign dbg_p3_o = dbg_p[3*PlaneRegBits+:PlaneRegBits];

endmodule
