/* The one port list of an MP1 chip (docs/mp1.md §11): four planes, the reception and piggy-back
 * arbiters and the injection controller; X(name, count, width) with count 1, RTL names name_i,
 * name_o, name_q, dbg_name_o. The planes' registers leave as one packed debug port per plane
 * (§11.4); the last output, err, is any plane's err (the buffer invariant, docs/mp1_draft4.md
 * §6). */
#ifndef MADPOST_MP1_CHIP_PORTS_H
#define MADPOST_MP1_CHIP_PORTS_H

#include <madpost/mp1_plane_ports.h>

#define MP1_CHIP_PLANE_IN(X, P) \
  X(P##_xin_dat, 1, 3)             \
  X(P##_yin_dat, 1, 3)             \
  X(P##_xout_stop, 1, 1)           \
  X(P##_yout_stop, 1, 1)

#define MP1_CHIP_PLANE_OUT(X, P) \
  X(P##_xin_stop, 1, 1)             \
  X(P##_yin_stop, 1, 1)             \
  X(P##_xout_dat, 1, 3)             \
  X(P##_yout_dat, 1, 3)

#define MP1_CHIP_INPUTS(X)  \
  X(px, 1, MP1_AWB)            \
  X(py, 1, MP1_AWB)            \
  X(xmax, 1, MP1_AWB)          \
  X(ymax, 1, MP1_AWB)          \
  X(chip, 1, 3)                \
  X(pbloop, 1, 1)              \
  MP1_CHIP_PLANE_IN(X, p0)  \
  MP1_CHIP_PLANE_IN(X, p1)  \
  MP1_CHIP_PLANE_IN(X, p2)  \
  MP1_CHIP_PLANE_IN(X, p3)  \
  X(inj_dat, 1, 3)             \
  X(pbi_dat, 1, 3)             \
  X(rcv_stop, 1, 1)            \
  X(pbo_stop, 1, 1)

#define MP1_CHIP_OUTPUTS(X) \
  MP1_CHIP_PLANE_OUT(X, p0) \
  MP1_CHIP_PLANE_OUT(X, p1) \
  MP1_CHIP_PLANE_OUT(X, p2) \
  MP1_CHIP_PLANE_OUT(X, p3) \
  X(inj_stop, 1, 1)            \
  X(pbi_stop, 1, 1)            \
  X(rcv_dat, 1, 3)             \
  X(pbo_dat, 1, 3)             \
  X(err, 1, 1)

/* The chip's own registers (§11.2, §11.3). */
#define MP1_CHIP_REGS(X) \
  X(rca_own, 1, 4)          \
  X(rca_last, 1, 3)         \
  X(rca_pos, 1, 2)          \
  X(pba_own, 1, 4)          \
  X(pba_last, 1, 3)         \
  X(pba_pos, 1, 2)          \
  X(inj_cur, 1, 2)          \
  X(inj_tgt, 1, 3)          \
  X(inj_dat, 1, 3)          \
  X(inj_fseg, 1, 1)         \
  X(inj_last, 1, 1)         \
  X(inj_fork, 1, 1)         \
  X(inj_hc, 1, 3)           \
  X(inj_if_st, 1, 3)        \
  X(inj_if_ic, 1, 2)        \
  X(inj_if_iseg, 1, 1)      \
  X(inj_if_sel, 1, 8)       \
  X(inj_if_sok, 1, 1)       \
  X(inj_if_sx, 1, 1)        \
  X(inj_pb_st, 1, 3)        \
  X(inj_pb_ic, 1, 2)        \
  X(inj_pb_iseg, 1, 1)      \
  X(inj_pb_sel, 1, 8)       \
  X(inj_pb_sok, 1, 1)       \
  X(inj_pb_sx, 1, 1)        \
  X(cnt_inj_msgs, 1, 16)    \
  X(cnt_sel_bad, 1, 16)     \
  X(cnt_inj_drop, 1, 16)    \
  X(cnt_inj_stray, 1, 16)

/* The four planes, in order: X(prefix, index, ...) (the arguments after X passed on). Plane k's
 * ports above are prefix_<port> (MP1_CHIP_PLANE_IN, _OUT); its registers leave packed in the debug
 * port dbg_<prefix>_o, MP1_PLANE_REG_BITS wide. C code that takes the planes in turn uses the
 * copies this list generates (include/madpost/mp1_chip.h, MP1_CHIP_PER_PLANE). */
#define MP1_CHIP_PLANE_LIST(X, ...) \
  X(p0, 0, __VA_ARGS__) X(p1, 1, __VA_ARGS__) X(p2, 2, __VA_ARGS__) X(p3, 3, __VA_ARGS__)

#define MP1_PLANE_X_BITS(n, c, w) +(c) * (w)
#define MP1_PLANE_REG_BITS (0 MP1_PLANE_REGS(MP1_PLANE_X_BITS))

#endif
