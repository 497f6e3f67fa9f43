/* The one port list of an MP1 plane (docs/mp1.md §10): two routing machines and two output
 * arbiters; X(name, count, width) with count 1, RTL names name_i, name_o, name_q and dbg_name_o.
 * The last output, err, is either machine's err (the buffer invariant, docs/mp1_draft4.md §6). */
#ifndef MADPOST_MP1_PLANE_PORTS_H
#define MADPOST_MP1_PLANE_PORTS_H

#include <madpost/mp1_rm_ports.h>

#define MP1_PLANE_INPUTS(X) \
  X(px, 1, MP1_AWB)            \
  X(py, 1, MP1_AWB)            \
  X(nx, 1, 1)                  \
  X(ny, 1, 1)                  \
  X(ex, 1, 1)                  \
  X(ey, 1, 1)                  \
  X(xin_dat, 1, 3)             \
  X(yin_dat, 1, 3)             \
  X(xout_stop, 1, 1)           \
  X(yout_stop, 1, 1)           \
  X(inj_x_req, 1, 1)           \
  X(inj_x_dat, 1, 3)           \
  X(inj_y_req, 1, 1)           \
  X(inj_y_dat, 1, 3)           \
  X(rmx_rc_own, 1, 1)          \
  X(rmx_rc_free, 1, 1)         \
  X(rmx_rc_stop, 1, 1)         \
  X(rmx_pb_own, 1, 1)          \
  X(rmx_pb_free, 1, 1)         \
  X(rmx_pb_stop, 1, 1)         \
  X(rmy_rc_own, 1, 1)          \
  X(rmy_rc_free, 1, 1)         \
  X(rmy_rc_stop, 1, 1)         \
  X(rmy_pb_own, 1, 1)          \
  X(rmy_pb_free, 1, 1)         \
  X(rmy_pb_stop, 1, 1)

#define MP1_PLANE_OUTPUTS(X) \
  X(xin_stop, 1, 1)             \
  X(yin_stop, 1, 1)             \
  X(xout_dat, 1, 3)             \
  X(yout_dat, 1, 3)             \
  X(inj_x_own, 1, 1)            \
  X(inj_x_free, 1, 1)           \
  X(inj_y_own, 1, 1)            \
  X(inj_y_free, 1, 1)           \
  X(inj_x_keep, 1, 1)           \
  X(inj_y_keep, 1, 1)           \
  X(rmx_rc_dat, 1, 3)           \
  X(rmx_rc_req, 1, 1)           \
  X(rmx_pb_dat, 1, 3)           \
  X(rmx_pb_req, 1, 1)           \
  X(rmy_rc_dat, 1, 3)           \
  X(rmy_rc_req, 1, 1)           \
  X(rmy_pb_dat, 1, 3)           \
  X(rmy_pb_req, 1, 1)           \
  X(err, 1, 1)

#define MP1_PLANE_REGS(X)  \
  MP1_RM_REGS_P(X, rmx_)   \
  MP1_RM_REGS_P(X, rmy_)   \
  X(arbx_own, 1, 2)           \
  X(arbx_pos, 1, 2)           \
  X(arby_own, 1, 2)           \
  X(arby_pos, 1, 2)

#endif
