/* Internal interfaces between the C104 model's parts (top, slice, arbiter); not public API. */
#ifndef MADPOST_C104_INT_H
#define MADPOST_C104_INT_H

#include <madpost/c104.h>

/* The combinational signals of one cycle (§5, §13). */
typedef struct {
  /* Port interfaces u_*[p] (§5): what the slices see and drive. */
  uint8_t rxv[C104_PORTS], rxk[C104_PORTS], rxb[C104_PORTS]; /* u_rx_valid, _kind, _data */
  uint8_t txr[C104_PORTS];                                   /* u_tx_ready */
  uint8_t txv[C104_PORTS], txk[C104_PORTS], txb[C104_PORTS]; /* u_tx_valid, _kind, _data */
  uint8_t rxr[C104_PORTS];                                   /* u_rx_ready */
  uint32_t driven;    /* outputs driven by a slice this cycle (S9) */
  uint32_t rel;       /* rel[o] (§10.4) */
  uint32_t waiting;   /* W: slices in WAIT (sl_st_q) */
  uint32_t cand;      /* waiting slices that do not withdraw (A1, before the split by leader) */
  uint32_t enter;     /* slices entering WAIT at this edge (§10.2) */
  uint32_t granted;   /* slices granted in this cycle */
  uint32_t gnt;       /* gnt[o] */
  uint8_t winner[C104_PORTS]; /* per granted output: the winning slice */
  uint8_t port_of[C104_PORTS]; /* per granted slice: its output f */
  int err;            /* an internal invariant broke (message printed) */
} c104_comb_t;

static inline uint32_t c104_ctz(uint32_t x) { return (uint32_t)__builtin_ctz(x); }
static inline uint32_t c104_msb(uint32_t x) { return 31u - (uint32_t)__builtin_clz(x); }

/* Slice i before arbitration (§9.2): the rules of IDLE, HDR, DISC, EMIT and FWD in full; in WAIT
 * the withdrawal test (a candidate otherwise). Sets c->rxr, the crossbar for EMIT/FWD, c->enter,
 * c->waiting, c->cand, c->rel, and d's slice registers and counters. */
void c104_slice_pre(const c104_regs_t *q, c104_regs_t *d, uint32_t i, c104_comb_t *c);
/* Slice i granted output f in this cycle (S4): cnt_pkt, sl_port, and EMIT or FWD at once. */
void c104_slice_grant(const c104_regs_t *q, c104_regs_t *d, uint32_t i, uint32_t f,
                      c104_comb_t *c);

/* Arbiters (A1-A5): grants from c->cand into c->granted, c->gnt, c->winner, c->port_of; rr_d. */
void c104_arb_grant(const c104_regs_t *q, c104_regs_t *d, c104_comb_t *c);
/* At the edge: age_d (§10.2), out_busy_d and out_owner_d (§10.4). */
void c104_arb_update(const c104_regs_t *q, c104_regs_t *d, const c104_comb_t *c);

#endif
