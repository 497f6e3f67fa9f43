/* DS-Link transmitter: token choice and priority, serialiser and D/S encoder
 * (docs/dslink.md §5). */
#include "dslink_int.h"

static int tx_on(uint32_t state) {
  return state == DSLINK_ST_STARTED || state == DSLINK_ST_CONNECTING || state == DSLINK_ST_RUN;
}

dslink_sel_e dslink_tx_select(const dslink_cfg_t *cfg, const dslink_state_t *st) {
  const dslink_regs_t *q = &st->r;
  if (!tx_on(q->fsm_state) || q->tx_tmr != 0 || q->tx_len != 0)
    return DSLINK_SEL_NONE;
  const int fct_owed = q->rxf_cnt + q->rx_credit + 8 <= cfg->rx_depth;
  if (q->fsm_state == DSLINK_ST_STARTED)
    return DSLINK_SEL_NULL;
  if (fct_owed)
    return DSLINK_SEL_FCT;
  if (q->fsm_state == DSLINK_ST_RUN && !q->tx_spill && q->txf_cnt != 0) {
    const uint32_t kind = (uint32_t)(st->txf_mem[q->txf_rptr] >> 8) & 3u;
    if (kind == DSLINK_KIND_ERR)
      return DSLINK_SEL_ABORT;
    if (q->tx_credit != 0)
      return DSLINK_SEL_NORMAL;
  }
  return DSLINK_SEL_NULL;
}

void dslink_tx_eval(const dslink_cfg_t *cfg, const dslink_state_t *st, dslink_sel_e sel,
                    int link_rst, dslink_regs_t *d) {
  const dslink_regs_t *q = &st->r;
  if (!tx_on(q->fsm_state) || link_rst) {
    d->tx_tmr = 0;
    d->tx_d = 0;
    d->tx_s = 0;
    d->tx_sr = 0;
    d->tx_len = 0;
    d->tx_par = 0;
    return;
  }
  if (q->tx_tmr != 0) {
    d->tx_tmr = q->tx_tmr - 1;
    return;
  }
  d->tx_tmr = cfg->bit_period - 1;

  uint32_t bits, len; /* bit i of bits is the i-th bit on the wire */
  if (q->tx_len != 0) {
    bits = q->tx_sr;
    len = q->tx_len;
  } else {
    /* P = !(F ^ par_prev): for F = 1 that is par_prev, for F = 0 its inverse. */
    const uint32_t p_ctl = q->tx_par, p_data = q->tx_par ^ 1u;
    switch (sel) {
    case DSLINK_SEL_FCT:
      bits = p_ctl | 1u << 1; /* P 1 0 0 */
      len = 4;
      d->tx_par = 0;
      break;
    case DSLINK_SEL_NORMAL: {
      const uint32_t ent = st->txf_mem[q->txf_rptr];
      const uint32_t kind = (ent >> 8) & 3u, byte = ent & 0xffu;
      if (kind == DSLINK_KIND_DATA) {
        bits = p_data | byte << 2; /* P 0 v0..v7 */
        len = 10;
        d->tx_par = dslink_parity8(byte);
      } else {
        const uint32_t c1 = (kind >> 1) & 1u, c0 = kind & 1u;
        bits = p_ctl | 1u << 1 | c1 << 2 | c0 << 3;
        len = 4;
        d->tx_par = c1 ^ c0;
      }
      break;
    }
    default: /* NULL: P1 1 1 1 0 1 0 0 */
      bits = p_ctl | 1u << 1 | 1u << 2 | 1u << 3 | 1u << 5;
      len = 8;
      d->tx_par = 0;
      break;
    }
  }
  const uint32_t bit = bits & 1u;
  d->tx_sr = bits >> 1;
  d->tx_len = len - 1;
  d->tx_d = bit;
  d->tx_s = bit == q->tx_d ? q->tx_s ^ 1u : q->tx_s;
}
