/* Node interface for MP1 meshes (docs/mp1.md §13, docs/mp1_draft4.md §10.4): the sender and
 * receiver of the chunk protocol of §2 on the injection and reception channels. */
#include <madpost/mp1_nic.h>

#include <string.h>

void mp1_nic_reset(mp1_nic_t *nic) {
  memset(nic, 0, sizeof *nic);
  mp1_txf_init(&nic->txf); /* the window by default (docs/mp1_draft4.md §10.4) */
}

int mp1_nic_push(mp1_nic_t *nic, const mp1_msg_t *m) {
  if (nic->count == MP1_NIC_QUEUE || m->len == 0 || m->len > MP1_MSG_MAX) return -1;
  nic->q[(nic->head + nic->count) % MP1_NIC_QUEUE] = *m;
  nic->count++;
  return 0;
}

uint32_t mp1_msg_p2p(uint32_t awf, uint32_t kx, uint32_t s, uint32_t d, uint32_t adaptive,
                     mp1_msg_t *m) {
  const uint32_t sx = s % kx, sy = s / kx, dx = d % kx, dy = d / kx;
  const uint32_t plane = ((dx < sx) << 1) | (dy < sy);
  uint32_t h = 0, dim = 0;
  if (dx != sx && dy != sy) {
    h += mp1_addr_put(awf, adaptive ? MP1_CODE_P2P_ADAPTIVE : MP1_CODE_P2P_STATIC, dx, m->bytes);
    h += mp1_addr_put(awf, MP1_CODE_DELIVER, dy, m->bytes + h);
  } else if (dx != sx) {
    h += mp1_addr_put(awf, MP1_CODE_DELIVER, dx, m->bytes);
  } else {
    h += mp1_addr_put(awf, MP1_CODE_DELIVER, dy, m->bytes);
    dim = 1;
  }
  m->len = h;
  m->sel = mp1_sel_flit(0, plane, dim);
  return h;
}

void mp1_msg_chunks(const mp1_msg_t *m, mp1_chunks_t *o) {
  o->n = mp1_msg_nchunks(m->len);
  const uint32_t sel = mp1_sel_tx(m->sel, m->bytes[0]);
  for (uint32_t pos = 0; pos < o->n; pos++) {
    uint32_t i, k;
    const int c = mp1_msg_chunk_at(sel, m->len, pos, &i, &k);
    o->c[pos] = (uint8_t)(c >= 0 ? (uint32_t)c : mp1_flit_chunk(m->bytes[i], k));
  }
}

int mp1_nic_tx_step(mp1_nic_t *nic, uint32_t inj_stop, uint64_t t) {
  uint32_t next = 0;
  int done = 0;
  if (nic->count && !nic->started && !nic->txf.in_seg) {
    mp1_msg_chunks(&nic->q[nic->head], &nic->cur);
    nic->pos = 0;
    nic->started = 1;
  }
  if (nic->started) {
    const mp1_msg_t *m = &nic->q[nic->head];
    int skip_sel;
    if (mp1_txf_go(&nic->txf, inj_stop, nic->pos == 0, mp1_sel_tx(m->sel, m->bytes[0]),
                   &skip_sel)) {
      if (skip_sel) nic->pos = 4; /* the window: no selection (draft-4 §10.2) */
      next = nic->cur.c[nic->pos++];
      if (nic->pos == 5) nic->t_first = t + 1; /* the message's first header chunk */
      if (nic->pos == nic->cur.n) {
        nic->started = 0;
        nic->head = (nic->head + 1) % MP1_NIC_QUEUE;
        nic->count--;
        done = 1;
      }
    }
  }
  mp1_txf_sent(&nic->txf, next);
  nic->dat = next;
  return done;
}

int mp1_nic_rx(mp1_nic_t *nic, uint32_t c, uint64_t t, mp1_rx_msg_t *m) {
  uint8_t b;
  switch (mp1_rxf_step(&nic->rxf, c, &b)) {
  case MP1_RXF_OPEN:
    if (nic->r_len == 0) nic->r_first = t;
    return 0;
  case MP1_RXF_BYTE:
    if (nic->r_len < MP1_MSG_MAX) nic->r_bytes[nic->r_len++] = b;
    nic->r_last_data = t;
    return 0;
  case MP1_RXF_EOM:
    m->len = nic->r_len;
    m->bytes = nic->r_bytes;
    m->t_first = nic->r_first;
    m->t_last_data = nic->r_last_data;
    m->t_eom = t;
    nic->r_len = 0;
    return 1;
  case MP1_RXF_BAD:
    nic->r_len = 0;
    return -1;
  default:
    return 0;
  }
}
