/* Golden cycle-accurate model of one MP1 routing machine (docs/mp1.md §8): the house block shape,
 * outputs from registers (and the combinational requests of §8.1), pure eval, clock edge. */
#ifndef MADPOST_MP1_RM_H
#define MADPOST_MP1_RM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mp1_rm_ports.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { MP1_RM_BUF = 128 };

typedef enum {
  MP1_RM_IDLE = 0,
  MP1_RM_PASS = 1,
  MP1_RM_HOLD = 2,
  MP1_RM_EMIT = 3,
  MP1_RM_WAIT = 4,
  MP1_RM_DROP = 5
} mp1_rm_state_e;

/* Output copies (bits of route and act). */
enum { MP1_RM_ST = 0, MP1_RM_OT = 1, MP1_RM_RC = 2, MP1_RM_PB = 3, MP1_RM_NOUT = 4 };

/* Chunks (docs/mp1.md §2.1). */
enum { MP1_CH_IDLE = 0, MP1_CH_EOS = 1, MP1_CH_EOM = 2, MP1_CH_ILLEGAL = 3 };

/* Control codes (docs/mp1.md §3.1). */
enum {
  MP1_CODE_P2P_STATIC = 0,
  MP1_CODE_P2P_ADAPTIVE = 1,
  MP1_CODE_DELIVER = 2,
  MP1_CODE_PIGGY_INTRA = 3,
  MP1_CODE_BCAST_2D = 4,
  MP1_CODE_BCAST_1D = 5,
  MP1_CODE_PIGGY_INTER = 6,
  MP1_CODE_ILLEGAL = 7
};

/* The smallest unsigned type that holds a field of the port list's width (a literal 1..32, or
 * MP1_AWB, MP1_AWR): a mesh node's registers stay small enough for large networks. Arithmetic on
 * a narrow field promotes to int, so the model masks its results and compares through uint32_t.
 * The X-macro callbacks below paste the width directly (MP1_UINT_##width), so the tokens MP1_AWB
 * and MP1_AWR arrive unexpanded (mp1_awf.h). */
#define MP1_UINT(width) MP1_UINT_##width
#define MP1_UINT_1 uint8_t
#define MP1_UINT_2 uint8_t
#define MP1_UINT_3 uint8_t
#define MP1_UINT_4 uint8_t
#define MP1_UINT_5 uint8_t
#define MP1_UINT_6 uint8_t
#define MP1_UINT_7 uint8_t
#define MP1_UINT_8 uint8_t
#define MP1_UINT_9 uint16_t
#define MP1_UINT_10 uint16_t
#define MP1_UINT_11 uint16_t
#define MP1_UINT_12 uint16_t
#define MP1_UINT_13 uint16_t
#define MP1_UINT_14 uint16_t
#define MP1_UINT_15 uint16_t
#define MP1_UINT_16 uint16_t
#define MP1_UINT_17 uint32_t
#define MP1_UINT_18 uint32_t
#define MP1_UINT_19 uint32_t
#define MP1_UINT_20 uint32_t
#define MP1_UINT_21 uint32_t
#define MP1_UINT_22 uint32_t
#define MP1_UINT_23 uint32_t
#define MP1_UINT_24 uint32_t
#define MP1_UINT_25 uint32_t
#define MP1_UINT_26 uint32_t
#define MP1_UINT_27 uint32_t
#define MP1_UINT_28 uint32_t
#define MP1_UINT_29 uint32_t
#define MP1_UINT_30 uint32_t
#define MP1_UINT_31 uint32_t
#define MP1_UINT_32 uint32_t
/* The widths that depend on AWF (docs/mp1.md §14.4): storage for the widest case, AWF = 2. */
#define MP1_UINT_MP1_AWB uint16_t
#define MP1_UINT_MP1_AWR uint16_t

#define MP1_RM_X_FIELD(name, width) uint32_t name;
#define MP1_RM_X_REG(name, width) MP1_UINT_##width name;
typedef struct {
  MP1_RM_INPUTS(MP1_RM_X_FIELD)
} mp1_rm_in_t;
typedef struct {
  MP1_RM_OUTPUTS(MP1_RM_X_FIELD)
} mp1_rm_out_t;
typedef struct {
  MP1_RM_REGS(MP1_RM_X_REG)
} mp1_rm_regs_t;
#undef MP1_RM_X_FIELD
#undef MP1_RM_X_REG

/* The routing machine's one parameter (docs/mp1.md §14.4): address flits per address word, 1 or
 * 2 (0 is taken as 1). Its node position arrives on input ports. */
typedef struct {
  uint32_t awf;
} mp1_rm_cfg_t;

typedef struct {
  mp1_rm_regs_t r;
  /* {endc, chunk[2:0]}, two entries a byte: entry a in the low nibble of mem[a / 2] if a is even */
  uint8_t mem[MP1_RM_BUF / 2];
} mp1_rm_state_t;

/* Entry a of the buffer. */
static inline uint32_t mp1_rm_mem(const mp1_rm_state_t *st, uint32_t a) {
  return (uint32_t)(st->mem[(a >> 1) & (MP1_RM_BUF / 2 - 1)] >> ((a & 1u) << 2)) & 15u;
}

/* keep = 1: every register keeps its value and the buffer is not written (r, we, waddr and wdata
 * are then not filled in: the clock leaves the state as it is). It takes the struct's padding. */
typedef struct {
  mp1_rm_regs_t r;
  uint8_t we, waddr, wdata;
  uint8_t keep;
} mp1_rm_next_t;

void mp1_rm_reset(mp1_rm_state_t *st);
void mp1_rm_eval(const mp1_rm_cfg_t *cfg, const mp1_rm_state_t *st, const mp1_rm_in_t *in,
                 mp1_rm_out_t *out, mp1_rm_next_t *nx);
/* Inline: a network clocks every machine of every node each cycle. */
static inline void mp1_rm_clock(mp1_rm_state_t *st, const mp1_rm_next_t *nx) {
  if (nx->keep)
    return;
  st->r = nx->r;
  if (nx->we) {
    uint8_t *b = &st->mem[(nx->waddr >> 1) & (MP1_RM_BUF / 2 - 1)];
    const uint32_t sh = (nx->waddr & 1u) << 2;
    *b = (uint8_t)((*b & ~(15u << sh)) | ((nx->wdata & 15u) << sh));
  }
}

/* The message registers back to 0; framing (ic, isr, iseg, ifl), counters, output chunks and
 * stop keep their values (§8.6 rule 13). */
static inline void mp1_rm_clear_message(mp1_rm_regs_t *d) {
  d->ihd = d->iwf = 0;
  d->a1 = d->a2 = d->vpend = d->route = d->rnew = d->adapt_ok = 0;
  d->wp = d->rp_st = d->rp_ot = d->rp_rc = d->rp_pb = 0;
  d->act = d->swap = d->segend = d->ended = d->bcut = 0;
}

/* IDLE with an idle chunk in: no ingress, no counter, the message registers cleared, whatever the
 * other inputs (and whatever AWF). Most machines of a network spend most cycles so;
 * mp1_rm_eval_quiet gives exactly what mp1_rm_eval gives then, without the other inputs (a caller
 * need not gather them), and inline (the caller reads the outputs from registers, not back from
 * memory). */
static inline int mp1_rm_quiet(const mp1_rm_state_t *st, uint32_t in_dat) {
  return st->r.rm_st == MP1_RM_IDLE && (in_dat & 7u) == MP1_CH_IDLE;
}

/* The message registers, the output chunks and stop: 23 one-byte fields and a1, a2 (two bytes
 * each). ihd and iwf lie in the registers' first 8 bytes (the head word, with rm_st), a1 .. pb_dat
 * in one span of whole fields after it; the padding that aligns a1 is left out (nothing promises
 * that a struct copy keeps it 0). The asserts below check that layout, so reading the head word
 * (masked) and the span reads every field and nothing else. */
#define MP1_RM_SETTLE_FIELDS(X)                                                                   \
  X(ihd) X(iwf) X(a1) X(a2) X(vpend) X(route) X(rnew) X(adapt_ok) X(wp) X(rp_st) X(rp_ot)         \
  X(rp_rc) X(rp_pb) X(act) X(swap) X(segend) X(ended) X(bcut) X(stop) X(st_dat) X(ot_dat)         \
  X(rc_dat) X(pb_dat)
#define MP1_RM_FIELD_SIZE(f) sizeof(((mp1_rm_regs_t *)0)->f)
#define MP1_RM_SETTLE_END(f) (offsetof(mp1_rm_regs_t, f) + MP1_RM_FIELD_SIZE(f))
enum {
  MP1_RM_SETTLE_B = offsetof(mp1_rm_regs_t, a1),
  MP1_RM_SETTLE_B_LEN = MP1_RM_SETTLE_END(pb_dat) - offsetof(mp1_rm_regs_t, a1)
};
#ifdef __cplusplus
#define MP1_RM_STATIC_ASSERT static_assert
#else
#define MP1_RM_STATIC_ASSERT _Static_assert
#endif
#define MP1_RM_X_SETTLE(f)                                                                        \
  MP1_RM_STATIC_ASSERT((MP1_RM_FIELD_SIZE(f) == 1 && MP1_RM_SETTLE_END(f) <= 8 &&                 \
                        MP1_RM_SETTLE_END(f) <= MP1_RM_SETTLE_B) ||                               \
                           (offsetof(mp1_rm_regs_t, f) >= MP1_RM_SETTLE_B &&                      \
                            MP1_RM_SETTLE_END(f) <= MP1_RM_SETTLE_B + MP1_RM_SETTLE_B_LEN),       \
                       "mp1_rm_settled: " #f " out of the head word and the span");
MP1_RM_SETTLE_FIELDS(MP1_RM_X_SETTLE)
#undef MP1_RM_X_SETTLE
/* Fields never overlap, so if the span's fields fill exactly its bytes they tile it. */
#define MP1_RM_X_SETTLE_SIZE(f) +(offsetof(mp1_rm_regs_t, f) >= MP1_RM_SETTLE_B ? MP1_RM_FIELD_SIZE(f) : 0)
MP1_RM_STATIC_ASSERT((0 MP1_RM_SETTLE_FIELDS(MP1_RM_X_SETTLE_SIZE)) == MP1_RM_SETTLE_B_LEN &&
                         MP1_RM_SETTLE_B_LEN >= 16 && MP1_RM_SETTLE_B_LEN <= 24 &&
                         offsetof(mp1_rm_regs_t, rm_st) == 0 && MP1_RM_FIELD_SIZE(rm_st) == 1,
                     "mp1_rm_settled: the fields do not tile the span read below");
#undef MP1_RM_X_SETTLE_SIZE
/* The bytes of the head word that count: rm_st and the settle fields there (little-endian). */
#define MP1_RM_X_HEAD(f)                                                                          \
  | (MP1_RM_SETTLE_END(f) <= 8 ? (uint64_t)0xff << (8 * offsetof(mp1_rm_regs_t, f)) : 0)
#define MP1_RM_HEAD_MASK ((uint64_t)0xff MP1_RM_SETTLE_FIELDS(MP1_RM_X_HEAD))

/* IDLE with the message registers, the output chunks and stop at 0: with a quiet input (then
 * mp1_rm_eval_quiet's next equals the state) the machine stays exactly as it is. Read as four
 * words: the head word masked, and the span (16 to 24 bytes) in three that may overlap; where the
 * byte order is not known to be little-endian, the head's fields one by one. */
static inline int mp1_rm_settled(const mp1_rm_state_t *st) {
  const unsigned char *r = (const unsigned char *)&st->r;
  uint64_t w0, w1, w2;
  memcpy(&w0, r + MP1_RM_SETTLE_B, 8);
  memcpy(&w1, r + MP1_RM_SETTLE_B + 8, 8);
  memcpy(&w2, r + MP1_RM_SETTLE_B + MP1_RM_SETTLE_B_LEN - 8, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t h;
  memcpy(&h, r, 8);
  return ((h & MP1_RM_HEAD_MASK) | w0 | w1 | w2) == 0;
#else
#define MP1_RM_X_HEAD_FIELD(f) | (MP1_RM_SETTLE_END(f) <= 8 ? (uint64_t)st->r.f : 0)
  return ((uint64_t)st->r.rm_st MP1_RM_SETTLE_FIELDS(MP1_RM_X_HEAD_FIELD) | w0 | w1 | w2) == 0;
#undef MP1_RM_X_HEAD_FIELD
#endif
}

static inline void mp1_rm_eval_quiet(const mp1_rm_state_t *st, mp1_rm_out_t *out,
                                     mp1_rm_next_t *nx) {
  const mp1_rm_regs_t *q = &st->r;
  if (mp1_rm_settled(st)) {
    /* nothing changes: every output from a register at 0 */
    nx->keep = 1;
    out->in_stop = 0;
    out->st_dat = out->ot_dat = out->rc_dat = out->pb_dat = 0;
    out->st_req = out->ot_req = out->rc_req = out->pb_req = 0;
    return;
  }
  mp1_rm_regs_t *d = &nx->r;
  *d = *q;
  nx->we = nx->waddr = nx->wdata = 0;
  nx->keep = 0;
  mp1_rm_clear_message(d);
  d->st_dat = d->ot_dat = d->rc_dat = d->pb_dat = 0;
  d->stop = 0;
  out->in_stop = q->stop;
  out->st_dat = q->st_dat;
  out->ot_dat = q->ot_dat;
  out->rc_dat = q->rc_dat;
  out->pb_dat = q->pb_dat;
  out->st_req = out->ot_req = out->rc_req = out->pb_req = 0;
}

const char *mp1_rm_state_name(uint32_t s);

#ifdef __cplusplus
}
#endif
#endif
