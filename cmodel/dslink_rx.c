/* DS-Link receiver: D/S decoding, disconnect detection, NULL synchronisation, token assembly,
 * parity, and the one-token confirmation hold (docs/dslink.md §6). */
#include "dslink_int.h"

enum { NULL_PATTERN = 0x2E }; /* bits 0 1 1 1 0 1 0 0, oldest in bit 0 */

void dslink_rx_clear(dslink_regs_t *d) {
  d->rx_dc = 0;
  d->rx_seen = 0;
  d->rx_sync = 0;
  d->rx_sr = 0;
  d->rx_cnt = 0;
  d->rx_pbit = 0;
  d->rx_flag = 0;
  d->rx_par = 0;
  d->rx_pend_v = 0;
  d->rx_pend_f = 0;
  d->rx_pend_val = 0;
  d->rx_esc = 0;
}

/* The pending token has passed its parity check: act on it (§6.2). */
static void confirm(const dslink_regs_t *q, dslink_regs_t *d, dslink_rxev_t *ev) {
  const uint32_t f = q->rx_pend_f, v = q->rx_pend_val;
  if (q->rx_esc) {
    if (f && v == DSLINK_CTL_FCT)
      d->rx_esc = 0; /* ESC FCT: a NULL */
    else
      ev->esc_err = 1;
  } else if (f && v == DSLINK_CTL_ESC) {
    d->rx_esc = 1;
  } else if (f && v == DSLINK_CTL_FCT) {
    ev->fct_ev = 1;
  } else {
    ev->nchar_ev = 1;
    /* Control codes EOP and EOM share their numbers with the packet-interface kinds. */
    ev->nchar_kind = (uint8_t)(f ? v : DSLINK_KIND_DATA);
    ev->nchar_byte = (uint8_t)(f ? 0 : v);
  }
}

void dslink_rx_eval(const dslink_cfg_t *cfg, const dslink_regs_t *q, const dslink_in_t *in,
                    dslink_regs_t *d, dslink_rxev_t *ev) {
  const uint32_t x = (in->d ^ in->s) & 1u;
  *ev = (dslink_rxev_t){0};
  d->rx_x = x;
  if (q->fsm_state == DSLINK_ST_ERROR_RESET)
    return; /* receiver held in reset; the caller clears its registers */

  const int bit_ev = x != q->rx_x;
  const uint32_t bit = in->d & 1u;

  d->rx_seen = q->rx_seen | (uint32_t)bit_ev;
  if (bit_ev)
    d->rx_dc = 0;
  else if (q->rx_seen)
    d->rx_dc = q->rx_dc < 255 ? q->rx_dc + 1 : 255;
  ev->disc_err = (uint8_t)(q->rx_seen && !bit_ev && q->rx_dc == cfg->disconnect_cycles - 1);
  if (!bit_ev)
    return;

  if (!q->rx_sync) {
    d->rx_sr = (bit << 7) | (q->rx_sr >> 1);
    if (d->rx_sr == NULL_PATTERN)
      d->rx_sync = 1;
    return;
  }

  switch (q->rx_cnt) {
  case 0:
    d->rx_pbit = bit;
    d->rx_cnt = 1;
    break;
  case 1:
    d->rx_flag = bit;
    d->rx_cnt = 2;
    if ((q->rx_pbit ^ bit ^ q->rx_par) != 1u) {
      ev->par_err = 1; /* the pending token is dropped with the link */
    } else if (q->rx_pend_v) {
      d->rx_pend_v = 0;
      confirm(q, d, ev);
    }
    break;
  default: {
    const uint32_t sr = (bit << 7) | (q->rx_sr >> 1);
    d->rx_sr = sr;
    if ((q->rx_flag && q->rx_cnt == 3) || (!q->rx_flag && q->rx_cnt == 9)) {
      d->rx_pend_v = 1;
      d->rx_pend_f = q->rx_flag;
      if (q->rx_flag) {
        /* c[1] arrived first and sits in bit 6, c[0] in bit 7. */
        d->rx_pend_val = (((sr >> 6) & 1u) << 1) | ((sr >> 7) & 1u);
        d->rx_par = ((sr >> 6) ^ (sr >> 7)) & 1u;
      } else {
        d->rx_pend_val = sr;
        d->rx_par = dslink_parity8(sr);
      }
      d->rx_cnt = 0;
    } else {
      d->rx_cnt = q->rx_cnt + 1;
    }
    break;
  }
  }
}
