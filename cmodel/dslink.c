/* DS-Link link end: configuration, reset, and the pure eval that joins receiver, state machine,
 * transmitter, credit and FIFOs (docs/dslink.md). */
#include <stdio.h>
#include <string.h>

#include "dslink_int.h"

void dslink_cfg_default(dslink_cfg_t *cfg) {
#define X(rtl, field, def) cfg->field = (def);
  DSLINK_PARAMS(X)
#undef X
}

int dslink_cfg_check(const dslink_cfg_t *c, char *err, size_t errlen) {
  struct {
    const char *name;
    uint32_t v, lo, hi, mult;
  } r[] = {
      {"bit_period", c->bit_period, 1, 255, 1},
      {"rx_depth", c->rx_depth, 8, DSLINK_RX_DEPTH_MAX, 8},
      {"tx_depth", c->tx_depth, 2, DSLINK_TX_DEPTH_MAX, 1},
      {"tx_credit_max", c->tx_credit_max, 8, 128, 8},
      {"disconnect_cycles", c->disconnect_cycles, 2, 255, 1},
      {"reset_cycles", c->reset_cycles, 1, 65535, 1},
      {"wait_cycles", c->wait_cycles, 1, 65535, 1},
      {"timeout_cycles", c->timeout_cycles, 1, 65535, 1},
  };
  for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
    if (r[i].v < r[i].lo || r[i].v > r[i].hi || r[i].v % r[i].mult != 0) {
      if (r[i].mult > 1)
        snprintf(err, errlen, "dslink: %s = %u is out of range (%u..%u, a multiple of %u)",
                 r[i].name, r[i].v, r[i].lo, r[i].hi, r[i].mult);
      else
        snprintf(err, errlen, "dslink: %s = %u is out of range (%u..%u)", r[i].name, r[i].v,
                 r[i].lo, r[i].hi);
      return -1;
    }
  }
  if (c->disconnect_cycles <= c->bit_period) {
    snprintf(err, errlen,
             "dslink: disconnect_cycles = %u must exceed bit_period = %u, or a working link "
             "would be taken for disconnected",
             c->disconnect_cycles, c->bit_period);
    return -1;
  }
  return 0;
}

void dslink_reset(const dslink_cfg_t *cfg, dslink_state_t *st) {
  (void)cfg;
  memset(st, 0, sizeof *st);
}

void dslink_outputs(const dslink_cfg_t *cfg, const dslink_state_t *st, dslink_out_t *out) {
  const dslink_regs_t *q = &st->r;
  out->d = q->tx_d;
  out->s = q->tx_s;
  out->tx_ready = q->txf_cnt != cfg->tx_depth;
  out->rx_valid = q->rxf_cnt != 0;
  const uint32_t head = out->rx_valid ? st->rxf_mem[q->rxf_rptr] : 0;
  out->rx_data = head & 0xffu;
  out->rx_kind = (head >> 8) & 3u;
  out->link_state = q->fsm_state;
}

/* Credit (§4): FCTs received while connecting or running grant 8 tokens, normal characters sent
   spend one; FCTs sent grant the peer 8, accepted characters use one up. A link reset clears both. */
static void eval_credit(const dslink_regs_t *q, dslink_regs_t *d, const dslink_rxev_t *rx,
                        int conn_or_run, int link_rst, int fct_sent, int normal_sent,
                        int nchar_acc) {
  if (link_rst) {
    d->tx_credit = 0;
    d->rx_credit = 0;
  } else {
    d->tx_credit = q->tx_credit + (rx->fct_ev && conn_or_run ? 8u : 0u) - (normal_sent ? 1u : 0u);
    d->rx_credit = q->rx_credit + (fct_sent ? 8u : 0u) - (nchar_acc ? 1u : 0u);
  }
}

/* Transmit side of the packet interface: open packet, spill (§5.3, §5.4), the FIFO's push and
   pop. */
static void eval_tx_side(const dslink_cfg_t *cfg, const dslink_state_t *st, const dslink_in_t *in,
                         const dslink_out_t *out, dslink_next_t *nx, int abort, int link_rst,
                         int normal_sent) {
  const dslink_regs_t *q = &st->r;
  dslink_regs_t *d = &nx->r;
  const uint32_t txf_head = st->txf_mem[q->txf_rptr];
  const uint32_t txf_head_kind = (txf_head >> 8) & 3u;
  const int spill_pop = q->tx_spill && q->txf_cnt != 0;
  if (normal_sent)
    d->tx_open = txf_head_kind == DSLINK_KIND_DATA;
  if (abort)
    d->tx_open = 0;
  if (spill_pop && txf_head_kind != DSLINK_KIND_DATA)
    d->tx_spill = 0;
  if (link_rst && q->tx_open && !abort) {
    d->tx_open = 0;
    d->tx_spill = 1;
    d->cnt_tx_spill = (q->cnt_tx_spill + 1) & 0xffffu;
  }
  const int txf_push = in->tx_valid && out->tx_ready;
  const int txf_pop = normal_sent || abort || spill_pop;
  if (txf_push) {
    nx->txf_we = 1;
    nx->txf_waddr = (uint8_t)q->txf_wptr;
    nx->txf_wdata = (uint16_t)(((in->tx_kind & 3u) << 8) | (in->tx_data & 0xffu));
  }
  dslink_fifo_step(cfg->tx_depth, q->txf_wptr, q->txf_rptr, q->txf_cnt, txf_push, txf_pop,
                   &d->txf_wptr, &d->txf_rptr, &d->txf_cnt);
}

/* Receive side: accepted tokens, or the ERR marker that closes a cut packet (§6.3), into the
   FIFO. -1 if the FIFO would overflow (a model bug: credit should prevent it). */
static int eval_rx_side(const dslink_cfg_t *cfg, const dslink_state_t *st, const dslink_in_t *in,
                        const dslink_out_t *out, dslink_next_t *nx, const dslink_rxev_t *rx,
                        int link_rst, int nchar_acc) {
  const dslink_regs_t *q = &st->r;
  dslink_regs_t *d = &nx->r;
  int rc = 0;
  int rxf_push = 0;
  uint32_t rxf_data = 0;
  if (nchar_acc) {
    rxf_push = 1;
    rxf_data = ((uint32_t)rx->nchar_kind << 8) | rx->nchar_byte;
    d->rx_open = rx->nchar_kind == DSLINK_KIND_DATA;
  } else if (link_rst && q->rx_open) {
    rxf_push = 1;
    rxf_data = (uint32_t)DSLINK_KIND_ERR << 8;
    d->rx_open = 0;
    d->cnt_rx_cut = (q->cnt_rx_cut + 1) & 0xffffu;
  }
  const int rxf_pop = out->rx_valid && in->rx_ready;
  if (rxf_push) {
    if (q->rxf_cnt == cfg->rx_depth + 1 && !rxf_pop) {
      fprintf(stderr, "dslink: internal error: receive FIFO overflow (rxf_cnt=%u rx_credit=%u)\n",
              q->rxf_cnt, q->rx_credit);
      rc = -1;
    } else {
      nx->rxf_we = 1;
      nx->rxf_waddr = (uint8_t)q->rxf_wptr;
      nx->rxf_wdata = (uint16_t)rxf_data;
    }
  }
  dslink_fifo_step(cfg->rx_depth + 1, q->rxf_wptr, q->rxf_rptr, q->rxf_cnt, nx->rxf_we, rxf_pop,
                   &d->rxf_wptr, &d->rxf_rptr, &d->rxf_cnt);
  return rc;
}

int dslink_eval(const dslink_cfg_t *cfg, const dslink_state_t *st, const dslink_in_t *in,
                dslink_out_t *out, dslink_next_t *nx, dslink_ev_t *ev) {
  const dslink_regs_t *q = &st->r;
  dslink_regs_t *d = &nx->r;

  dslink_outputs(cfg, st, out);
  *d = *q;
  nx->txf_we = nx->rxf_we = 0;
  nx->txf_waddr = nx->rxf_waddr = 0;
  nx->txf_wdata = nx->rxf_wdata = 0;

  dslink_rxev_t rx;
  dslink_rx_eval(cfg, q, in, d, &rx);

  const dslink_sel_e sel = dslink_tx_select(cfg, st);
  const int abort = sel == DSLINK_SEL_ABORT;
  dslink_fsmev_t fe;
  const int link_rst = dslink_fsm_eval(cfg, q, in, &rx, abort, d, &fe);
  if (q->fsm_state == DSLINK_ST_ERROR_RESET || link_rst)
    dslink_rx_clear(d);

  dslink_tx_eval(cfg, st, sel, link_rst, d);
  const int fct_sent = sel == DSLINK_SEL_FCT && !link_rst;
  const int normal_sent = sel == DSLINK_SEL_NORMAL && !link_rst;
  const int conn_or_run = q->fsm_state == DSLINK_ST_CONNECTING || q->fsm_state == DSLINK_ST_RUN;
  const int nchar_acc = rx.nchar_ev && q->fsm_state == DSLINK_ST_RUN && q->rx_credit != 0 &&
                        !link_rst;
  eval_credit(q, d, &rx, conn_or_run, link_rst, fct_sent, normal_sent, nchar_acc);
  eval_tx_side(cfg, st, in, out, nx, abort, link_rst, normal_sent);
  const int rc = eval_rx_side(cfg, st, in, out, nx, &rx, link_rst, nchar_acc);

  if (ev) {
    ev->fct_sent = (uint8_t)fct_sent;
    ev->fct_rcvd = (uint8_t)(rx.fct_ev && conn_or_run && !link_rst);
    ev->normal_sent = (uint8_t)normal_sent;
    ev->nchar_rcvd = (uint8_t)nchar_acc;
    ev->null_sent = (uint8_t)(sel == DSLINK_SEL_NULL && !link_rst);
    ev->link_rst = (uint8_t)link_rst;
  }
  return rc;
}

void dslink_clock(dslink_state_t *st, const dslink_next_t *nx) {
  st->r = nx->r;
  if (nx->txf_we)
    st->txf_mem[nx->txf_waddr] = nx->txf_wdata;
  if (nx->rxf_we)
    st->rxf_mem[nx->rxf_waddr] = nx->rxf_wdata;
}

const char *dslink_state_name(uint32_t state) {
  static const char *const names[] = {"ErrorReset", "ErrorWait", "Ready",
                                      "Started",    "Connecting", "Run"};
  return state < sizeof names / sizeof names[0] ? names[state] : "Illegal";
}

const char *dslink_kind_name(uint32_t kind) {
  static const char *const names[] = {"DATA", "EOP", "EOM", "ERR"};
  return names[kind & 3u];
}
