/* The one port list of the MP1 routing machine (docs/mp1.md §8): inputs, outputs and
 * architectural registers, as X(name, width); RTL names name_i, name_o, name_q, dbg_name_o. */
#ifndef MADPOST_MP1_RM_PORTS_H
#define MADPOST_MP1_RM_PORTS_H

#define MP1_RM_INPUTS(X) \
  X(pos, 5)              \
  X(opos, 5)             \
  X(neg, 1)              \
  X(oneg, 1)             \
  X(edge, 1)             \
  X(oedge, 1)            \
  X(in_dat, 3)           \
  X(st_own, 1)           \
  X(st_free, 1)          \
  X(st_stop, 1)          \
  X(ot_own, 1)           \
  X(ot_free, 1)          \
  X(ot_stop, 1)          \
  X(rc_own, 1)           \
  X(rc_free, 1)          \
  X(rc_stop, 1)          \
  X(pb_own, 1)           \
  X(pb_free, 1)          \
  X(pb_stop, 1)

#define MP1_RM_OUTPUTS(X) \
  X(in_stop, 1)           \
  X(st_dat, 3)            \
  X(st_req, 1)            \
  X(ot_dat, 3)            \
  X(ot_req, 1)            \
  X(rc_dat, 3)            \
  X(rc_req, 1)            \
  X(pb_dat, 3)            \
  X(pb_req, 1)

#define MP1_RM_REGS(X) \
  X(rm_st, 3)          \
  X(ic, 2)             \
  X(isr, 5)            \
  X(iseg, 1)           \
  X(ifl, 6)            \
  X(ihd, 2)            \
  X(a1, 8)             \
  X(a2, 8)             \
  X(vpend, 1)          \
  X(route, 4)          \
  X(rnew, 1)           \
  X(adapt_ok, 1)       \
  X(wp, 7)             \
  X(rp_st, 7)          \
  X(rp_ot, 7)          \
  X(rp_rc, 7)          \
  X(rp_pb, 7)          \
  X(act, 4)            \
  X(swap, 1)           \
  X(segend, 1)         \
  X(ended, 1)          \
  X(stop, 1)           \
  X(st_dat, 3)         \
  X(ot_dat, 3)         \
  X(rc_dat, 3)         \
  X(pb_dat, 3)         \
  X(cnt_dead, 16)      \
  X(cnt_bad_code, 16)  \
  X(cnt_bad_addr, 16)  \
  X(cnt_bad_long, 16)  \
  X(cnt_stray, 16)     \
  X(cnt_cut, 16)       \
  X(cnt_adapt, 16)     \
  X(cnt_adapt_buf, 16)

#endif
