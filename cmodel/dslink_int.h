/* Internal interfaces between the DS-Link model's parts (rx, tx, fsm, fifo); not public API. */
#ifndef MADPOST_DSLINK_INT_H
#define MADPOST_DSLINK_INT_H

#include <madpost/dslink.h>

/* What the receiver saw this cycle (docs/dslink.md §6). */
typedef struct {
  uint8_t fct_ev, nchar_ev, par_err, esc_err, disc_err;
  uint8_t nchar_kind, nchar_byte;
} dslink_rxev_t;

/* The unit the transmitter loads at this cycle's token boundary (§5.1). */
typedef enum {
  DSLINK_SEL_NONE = 0, /* no token boundary, or transmitter off */
  DSLINK_SEL_NULL,
  DSLINK_SEL_FCT,
  DSLINK_SEL_NORMAL,
  DSLINK_SEL_ABORT
} dslink_sel_e;

/* Receiver: events from registers and wires; tentative next rx registers into d (no reset). */
void dslink_rx_eval(const dslink_cfg_t *cfg, const dslink_regs_t *q, const dslink_in_t *in,
                    dslink_regs_t *d, dslink_rxev_t *ev);
/* Put the receiver's link-resettable registers to 0. */
void dslink_rx_clear(dslink_regs_t *d);

/* Transmitter: the unit chosen from registers only. */
dslink_sel_e dslink_tx_select(const dslink_cfg_t *cfg, const dslink_state_t *st);
/* Serialiser and D/S encoder (§5.2) for the chosen unit. */
void dslink_tx_eval(const dslink_cfg_t *cfg, const dslink_state_t *st, dslink_sel_e sel,
                    int link_rst, dslink_regs_t *d);

/* Link state machine and error counters (§4); returns link_rst. */
typedef struct {
  uint8_t cred_err_fct, cred_err_nchar;
} dslink_fsmev_t;
int dslink_fsm_eval(const dslink_cfg_t *cfg, const dslink_regs_t *q, const dslink_in_t *in,
                    const dslink_rxev_t *rx, int abort, dslink_regs_t *d, dslink_fsmev_t *fe);

/* FIFO pointer update (§7). */
void dslink_fifo_step(uint32_t depth, uint32_t wptr, uint32_t rptr, uint32_t cnt, int we, int re,
                      uint32_t *wptr_d, uint32_t *rptr_d, uint32_t *cnt_d);

static inline uint32_t dslink_parity8(uint32_t v) {
  v &= 0xffu;
  v ^= v >> 4;
  v ^= v >> 2;
  v ^= v >> 1;
  return v & 1u;
}

#endif
