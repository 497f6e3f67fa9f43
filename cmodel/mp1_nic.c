/* Node interface for MP1 meshes (docs/mp1.md §13): the sender and receiver of the chunk protocol
 * of §2 on the injection and reception channels. */
#include "mp1_nic.h"

#include <string.h>

void mp1_nic_reset(mp1_nic_t *nic) { memset(nic, 0, sizeof *nic); }

int mp1_nic_push(mp1_nic_t *nic, const mp1_msg_t *m) {
  if (nic->count == MP1_NIC_QUEUE || m->len == 0 || m->len > MP1_MSG_MAX) return -1;
  nic->q[(nic->head + nic->count) % MP1_NIC_QUEUE] = *m;
  nic->count++;
  return 0;
}

uint32_t mp1_msg_p2p(uint32_t kx, uint32_t s, uint32_t d, uint32_t adaptive, mp1_msg_t *m) {
  const uint32_t sx = s % kx, sy = s / kx, dx = d % kx, dy = d / kx;
  const uint32_t plane = ((dx < sx) << 1) | (dy < sy);
  uint32_t h = 0, dim = 0;
  if (dx != sx && dy != sy) {
    m->bytes[h++] = (uint8_t)(((adaptive ? 1u : 0u) << 5) | dx);
    m->bytes[h++] = (uint8_t)((2u << 5) | dy);
  } else if (dx != sx) {
    m->bytes[h++] = (uint8_t)((2u << 5) | dx);
  } else {
    m->bytes[h++] = (uint8_t)((2u << 5) | dy);
    dim = 1;
  }
  m->len = h;
  m->sel = mp1_sel_flit(0, plane, dim);
  return h;
}

static void put_flit(mp1_chunks_t *o, uint32_t b) {
  o->c[o->n++] = (uint8_t)(4u | ((b >> 6) & 3u));
  o->c[o->n++] = (uint8_t)((b >> 3) & 7u);
  o->c[o->n++] = (uint8_t)(b & 7u);
}

void mp1_msg_chunks(const mp1_msg_t *m, mp1_chunks_t *o) {
  o->n = 0;
  put_flit(o, m->sel);
  o->c[o->n++] = 1; /* EOS */
  uint32_t in_seg = 0;
  for (uint32_t i = 0; i < m->len; i++) {
    if (in_seg == MP1_SEG_FLITS) {
      o->c[o->n++] = 1;
      in_seg = 0;
    }
    put_flit(o, m->bytes[i]);
    in_seg++;
  }
  o->c[o->n++] = 2; /* EOM */
}

int mp1_nic_tx_step(mp1_nic_t *nic, uint32_t inj_stop, uint64_t t) {
  uint32_t next = 0;
  int done = 0;
  if (nic->count && !nic->started && !nic->in_seg) {
    mp1_msg_chunks(&nic->q[nic->head], &nic->cur);
    nic->pos = 0;
    nic->started = 1;
  }
  if (nic->started) {
    if (!nic->in_seg && !inj_stop && nic->dat == 0) nic->in_seg = 1;
    if (nic->in_seg) {
      next = nic->cur.c[nic->pos++];
      if (nic->pos == 5) nic->t_first = t + 1; /* the message's first header chunk */
      if (nic->phase == 0 && (next == 1 || next == 2)) nic->in_seg = 0; /* an end code */
      nic->phase = nic->phase ? (nic->phase + 1) % 3 : ((next & 4u) ? 1 : 0);
      if (nic->pos == nic->cur.n) {
        nic->started = 0;
        nic->head = (nic->head + 1) % MP1_NIC_QUEUE;
        nic->count--;
        done = 1;
      }
    }
  }
  nic->dat = next;
  return done;
}

int mp1_nic_rx(mp1_nic_t *nic, uint32_t c, uint64_t t, mp1_rx_msg_t *m) {
  c &= 7u;
  if (nic->r_ic == 1) {
    nic->r_isr = (nic->r_isr << 3) | c;
    nic->r_ic = 2;
    return 0;
  }
  if (nic->r_ic == 2) {
    if (nic->r_len < MP1_MSG_MAX) nic->r_bytes[nic->r_len++] = (uint8_t)((nic->r_isr << 3) | c);
    nic->r_last_data = t;
    nic->r_ic = 0;
    return 0;
  }
  if (c & 4u) {
    if (!nic->r_iseg && nic->r_len == 0) nic->r_first = t;
    nic->r_iseg = 1;
    nic->r_isr = c & 3u;
    nic->r_ic = 1;
    return 0;
  }
  if (!nic->r_iseg) return 0; /* idle between segments */
  if (c == 1) {
    nic->r_iseg = 0;
    return 0;
  }
  if (c == 2) {
    m->len = nic->r_len;
    m->bytes = nic->r_bytes;
    m->t_first = nic->r_first;
    m->t_last_data = nic->r_last_data;
    m->t_eom = t;
    nic->r_iseg = 0;
    nic->r_len = 0;
    return 1;
  }
  nic->r_iseg = 0; /* a gap or illegal chunk inside a segment */
  nic->r_len = 0;
  return -1;
}
