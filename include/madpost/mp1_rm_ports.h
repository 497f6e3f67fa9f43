/* The one port list of the MP1 routing machine (docs/mp1_draft4.md §3; docs/mp1.md §8 for draft 3): inputs, outputs and
 * architectural registers, as X(name, count, width) (count 1: scalars); RTL names name_i, name_o,
 * name_q, dbg_name_o.
 * Widths that depend on the address flits per word are the tokens MP1_AWB, MP1_AWR (§14). */
#ifndef MADPOST_MP1_RM_PORTS_H
#define MADPOST_MP1_RM_PORTS_H

#include <madpost/mp1_awf.h>

#define MP1_RM_INPUTS(X) \
  X(pos, 1, MP1_AWB)        \
  X(opos, 1, MP1_AWB)       \
  X(neg, 1, 1)              \
  X(oneg, 1, 1)             \
  X(edge, 1, 1)             \
  X(oedge, 1, 1)            \
  X(in_dat, 1, 3)           \
  X(st_own, 1, 1)           \
  X(st_free, 1, 1)          \
  X(st_stop, 1, 1)          \
  X(ot_own, 1, 1)           \
  X(ot_free, 1, 1)          \
  X(ot_stop, 1, 1)          \
  X(rc_own, 1, 1)           \
  X(rc_free, 1, 1)          \
  X(rc_stop, 1, 1)          \
  X(pb_own, 1, 1)           \
  X(pb_free, 1, 1)          \
  X(pb_stop, 1, 1)

#define MP1_RM_OUTPUTS(X) \
  X(in_stop, 1, 1)           \
  X(st_dat, 1, 3)            \
  X(st_req, 1, 1)            \
  X(ot_dat, 1, 3)            \
  X(ot_req, 1, 1)            \
  X(rc_dat, 1, 3)            \
  X(rc_req, 1, 1)            \
  X(pb_dat, 1, 3)            \
  X(pb_req, 1, 1)            \
  X(err, 1, 1)

/* Registers (docs/mp1_draft4.md §3.1), with a name prefix for the planes that hold two machines
 * (P may be empty). */
#define MP1_RM_REGS_P(X, P) \
  X(P##ic, 1, 2) \
  X(P##isr, 1, 5) \
  X(P##iseg, 1, 1) \
  X(P##ifl, 1, 6) \
  X(P##ihd, 1, 2) \
  X(P##iwf, 1, 1) \
  X(P##idis, 1, 1) \
  X(P##wp, 1, 7) \
  X(P##f_val, 1, 1) \
  X(P##f_in, 1, 1) \
  X(P##f_drop, 1, 1) \
  X(P##f_cut, 1, 1) \
  X(P##f_dec, 1, 1) \
  X(P##f_vpend, 1, 1) \
  X(P##f_rnew, 1, 1) \
  X(P##f_adapt, 1, 1) \
  X(P##f_base, 1, 7) \
  X(P##f_a1, 1, MP1_AWR) \
  X(P##f_a2, 1, MP1_AWR) \
  X(P##f_route, 1, 4) \
  X(P##b_val, 1, 1) \
  X(P##b_in, 1, 1) \
  X(P##b_drop, 1, 1) \
  X(P##b_cut, 1, 1) \
  X(P##b_dec, 1, 1) \
  X(P##b_vpend, 1, 1) \
  X(P##b_rnew, 1, 1) \
  X(P##b_adapt, 1, 1) \
  X(P##b_base, 1, 7) \
  X(P##b_a1, 1, MP1_AWR) \
  X(P##b_a2, 1, MP1_AWR) \
  X(P##b_route, 1, 4) \
  X(P##cs_st, 1, 2) \
  X(P##cs_ot, 1, 2) \
  X(P##cs_rc, 1, 2) \
  X(P##cs_pb, 1, 2) \
  X(P##rp_st, 1, 7) \
  X(P##rp_ot, 1, 7) \
  X(P##rp_rc, 1, 7) \
  X(P##rp_pb, 1, 7) \
  X(P##swap, 1, 1) \
  X(P##stop, 1, 1) \
  X(P##st_dat, 1, 3) \
  X(P##ot_dat, 1, 3) \
  X(P##rc_dat, 1, 3) \
  X(P##pb_dat, 1, 3) \
  X(P##cnt_dead, 1, 16) \
  X(P##cnt_bad_code, 1, 16) \
  X(P##cnt_bad_addr, 1, 16) \
  X(P##cnt_bad_long, 1, 16) \
  X(P##cnt_stray, 1, 16) \
  X(P##cnt_cut, 1, 16) \
  X(P##cnt_adapt, 1, 16) \
  X(P##cnt_adapt_buf, 1, 16)

#define MP1_RM_REGS(X) MP1_RM_REGS_P(X, )

#endif
