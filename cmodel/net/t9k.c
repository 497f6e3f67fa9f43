/* T9000-style endpoint: packetisation, one outstanding packet per virtual link, acknowledgements
 * on header arrival and ahead of data (include/madpost/t9k.h). */
#include <madpost/t9k.h>

#include <string.h>

void t9k_reset(const t9k_cfg_t *cfg, t9k_state_t *st) {
  (void)cfg;
  memset(st, 0, sizeof *st);
}

void t9k_outputs(const t9k_cfg_t *cfg, const t9k_state_t *st, t9k_out_t *out) {
  (void)cfg;
  out->rx_ready = 1; /* a T9000 input link never blocks (seed 000 §4.2.3) */
  out->tx_valid = st->tx_pkt != T9K_PKT_NONE;
  if (!out->tx_valid) {
    out->tx_data = 0;
    out->tx_kind = DSLINK_KIND_DATA;
  } else if (st->tx_pos == 0) {
    out->tx_data = st->tx_hdr;
    out->tx_kind = DSLINK_KIND_DATA;
  } else if (st->tx_pos <= st->tx_len) {
    out->tx_data = st->tx_pos & 0xffu; /* payload content is immaterial here */
    out->tx_kind = DSLINK_KIND_DATA;
  } else {
    out->tx_data = 0;
    out->tx_kind = st->tx_end;
  }
}

static void rx_token(const t9k_state_t *st, uint32_t k, uint32_t b, t9k_state_t *nx, t9k_ev_t *ev) {
  if (st->rx_state == 0) {
    if (k != DSLINK_KIND_DATA) {
      nx->errs_rcvd = st->errs_rcvd + 1; /* an end token with no header */
    } else if (b & T9K_ACK_FLAG) {
      nx->rx_state = 2;
      nx->rx_hdr = b & 0x7fu;
    } else {
      nx->rx_state = 1;
      nx->rx_hdr = b;
      /* Acknowledge on header arrival: buffer space is always there. */
      if (st->ackq_n < T9K_ACKQ) {
        nx->ackq[st->ackq_n] = b | T9K_ACK_FLAG;
        nx->ackq_n = st->ackq_n + 1;
      } else {
        nx->errs_rcvd = st->errs_rcvd + 1;
      }
    }
    return;
  }
  if (k == DSLINK_KIND_DATA) {
    if (st->rx_state == 1)
      nx->rx_msg_bytes = st->rx_msg_bytes + 1;
    return;
  }
  if (k == DSLINK_KIND_ERR) {
    nx->errs_rcvd = st->errs_rcvd + 1;
    nx->rx_msg_bytes = 0;
  } else if (st->rx_state == 2) {
    nx->acks_rcvd = st->acks_rcvd + 1;
    if (st->rx_hdr < T9K_MAX_VL)
      nx->unacked[st->rx_hdr] = 0;
  } else if (k == DSLINK_KIND_EOM) {
    nx->msgs_rcvd = st->msgs_rcvd + 1;
    nx->bytes_rcvd = st->bytes_rcvd + st->rx_msg_bytes;
    nx->rx_msg_bytes = 0;
    ev->msg_done = 1;
  }
  nx->rx_state = 0;
}

/* One cycle, the next state written whole into nx. */
static void step(const t9k_cfg_t *cfg, const t9k_state_t *st, const t9k_in_t *in, t9k_out_t *out,
                 t9k_state_t *nx, t9k_ev_t *ev) {
  t9k_outputs(cfg, st, out);
  *nx = *st;
  ev->msg_done = 0;
  nx->cyc = st->cyc + 1;

  if (in->rx_valid && out->rx_ready)
    rx_token(st, in->rx_kind, in->rx_data, nx, ev);

  /* Packet being handed over. */
  if (out->tx_valid && in->tx_ready) {
    if (st->tx_pos == st->tx_len + 1)
      nx->tx_pkt = T9K_PKT_NONE;
    else
      nx->tx_pos = st->tx_pos + 1;
  }
  if (st->tx_pkt != T9K_PKT_NONE)
    return;
  /* Next packet, chosen only between packets: acknowledgements first. */
  if (nx->ackq_n) {
    nx->tx_pkt = T9K_PKT_ACK;
    nx->tx_pos = 0;
    nx->tx_len = 0;
    nx->tx_end = DSLINK_KIND_EOP;
    nx->tx_hdr = nx->ackq[0];
    memmove(nx->ackq, nx->ackq + 1, (nx->ackq_n - 1) * sizeof nx->ackq[0]);
    nx->ackq_n--;
    return;
  }
  if (!cfg->send || st->cyc < cfg->send_start)
    return;
  const uint32_t nvl = cfg->nvl < 1 ? 1 : (cfg->nvl > T9K_MAX_VL ? T9K_MAX_VL : cfg->nvl);
  for (uint32_t k = 1; k <= nvl; k++) {
    const uint32_t v = (st->last_vl + k) % nvl;
    if (nx->unacked[v])
      continue;
    const uint32_t left = cfg->msg_len - st->msg_off[v];
    const uint32_t len = left < T9K_PACKET_BYTES ? left : T9K_PACKET_BYTES;
    nx->tx_pkt = T9K_PKT_DATA;
    nx->tx_pos = 0;
    nx->tx_len = len;
    nx->tx_hdr = v;
    nx->unacked[v] = 1;
    nx->last_vl = v;
    nx->pkts_sent = st->pkts_sent + 1;
    if (st->msg_off[v] + len == cfg->msg_len) {
      nx->tx_end = DSLINK_KIND_EOM;
      nx->msg_off[v] = 0;
      nx->msgs_sent = st->msgs_sent + 1;
    } else {
      nx->tx_end = DSLINK_KIND_EOP;
      nx->msg_off[v] = st->msg_off[v] + len;
    }
    return;
  }
}

int t9k_eval(const t9k_cfg_t *cfg, const t9k_state_t *st, const t9k_in_t *in, t9k_out_t *out,
             t9k_next_t *nx, t9k_ev_t *ev) {
  t9k_ev_t e;
  step(cfg, st, in, out, &nx->s, &e);
  if (ev)
    *ev = e;
  return 0;
}
