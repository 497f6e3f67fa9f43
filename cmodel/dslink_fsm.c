/* DS-Link link state machine and error counters, after the SpaceWire exchange level
 * (docs/dslink.md §4). */
#include "dslink_int.h"

int dslink_fsm_eval(const dslink_cfg_t *cfg, const dslink_regs_t *q, const dslink_in_t *in,
                    const dslink_rxev_t *rx, int abort, dslink_regs_t *d, dslink_fsmev_t *fe) {
  const uint32_t st = q->fsm_state;
  const int rx_err = rx->par_err || rx->esc_err || rx->disc_err;
  const int conn_or_run = st == DSLINK_ST_CONNECTING || st == DSLINK_ST_RUN;
  const int early = st == DSLINK_ST_ERROR_WAIT || st == DSLINK_ST_READY || st == DSLINK_ST_STARTED;
  fe->cred_err_fct = (uint8_t)(rx->fct_ev && conn_or_run && q->tx_credit + 8 > cfg->tx_credit_max);
  fe->cred_err_nchar = (uint8_t)(rx->nchar_ev && st == DSLINK_ST_RUN && q->rx_credit == 0);
  const int proto_err = (rx->fct_ev && early) ||
                        (rx->nchar_ev && (early || st == DSLINK_ST_CONNECTING));
  const int en = in->link_en & 1u;

  uint32_t next = st;
  int timeout = 0;
  switch (st) {
  case DSLINK_ST_ERROR_RESET:
    if (q->fsm_tmr == cfg->reset_cycles - 1)
      next = DSLINK_ST_ERROR_WAIT;
    break;
  case DSLINK_ST_ERROR_WAIT:
    if (rx_err || proto_err)
      next = DSLINK_ST_ERROR_RESET;
    else if (q->fsm_tmr == cfg->wait_cycles - 1)
      next = DSLINK_ST_READY;
    break;
  case DSLINK_ST_READY:
    if (rx_err || proto_err)
      next = DSLINK_ST_ERROR_RESET;
    else if (en)
      next = DSLINK_ST_STARTED;
    break;
  case DSLINK_ST_STARTED:
    if (rx_err || proto_err || !en)
      next = DSLINK_ST_ERROR_RESET;
    else if (q->rx_sync)
      next = DSLINK_ST_CONNECTING;
    else if (q->fsm_tmr == cfg->timeout_cycles - 1)
      next = DSLINK_ST_ERROR_RESET, timeout = 1;
    break;
  case DSLINK_ST_CONNECTING:
    if (rx_err || proto_err || fe->cred_err_fct || !en)
      next = DSLINK_ST_ERROR_RESET;
    else if (rx->fct_ev)
      next = DSLINK_ST_RUN;
    else if (q->fsm_tmr == cfg->timeout_cycles - 1)
      next = DSLINK_ST_ERROR_RESET, timeout = 1;
    break;
  case DSLINK_ST_RUN:
    if (rx_err || fe->cred_err_fct || fe->cred_err_nchar || !en || abort)
      next = DSLINK_ST_ERROR_RESET;
    break;
  default:
    next = DSLINK_ST_ERROR_RESET;
    break;
  }
  d->fsm_state = next;
  const int counting = st == DSLINK_ST_ERROR_RESET || st == DSLINK_ST_ERROR_WAIT ||
                       st == DSLINK_ST_STARTED || st == DSLINK_ST_CONNECTING;
  d->fsm_tmr = (next != st || !counting) ? 0 : (q->fsm_tmr + 1) & 0xffffu;

  d->cnt_par_err = (q->cnt_par_err + rx->par_err) & 0xffffu;
  d->cnt_esc_err = (q->cnt_esc_err + rx->esc_err) & 0xffffu;
  d->cnt_disc_err = (q->cnt_disc_err + rx->disc_err) & 0xffffu;
  d->cnt_cred_err =
      (q->cnt_cred_err + (uint32_t)(fe->cred_err_fct || fe->cred_err_nchar)) & 0xffffu;
  d->cnt_proto_err = (q->cnt_proto_err + (uint32_t)proto_err) & 0xffffu;
  d->cnt_tmo_err = (q->cnt_tmo_err + (uint32_t)timeout) & 0xffffu;
  return next == DSLINK_ST_ERROR_RESET;
}
