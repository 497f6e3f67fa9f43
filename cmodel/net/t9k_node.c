/* T9000-style network endpoint (docs/c104.md §16): receive, workload, transmit and packet choice
 * (E1-E6) over P links and K virtual-link ends; the timing of include/madpost/t9k.h on each link. */
#include <madpost/t9k_node.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <madpost/dslink.h>

/* Memory words. Per VL end c, at c * VW: */
enum {
  V_PEER = 0, /* pn * K + pc, or NOPEER */
  V_OLEN,     /* sender: message in progress, length */
  V_OOFF,     /* bytes handed to packets */
  V_OACT,     /* a message is in progress */
  V_OUNACK,   /* a packet is out and not acknowledged */
  V_IBYTES,   /* receiver: bytes of the current message */
  V_T0,       /* creation cycle of the message in progress */
  V_DT0,      /* creation cycle of the data packet waiting in dq (§17.6) */
  V_PHEAD,    /* pending messages: pool list head, tail, count */
  V_PTAIL,
  V_PN,
  VW
};
/* Pool entry i at pool + 3 i: next, length, creation cycle. */
enum { P_NEXT = 0, P_LEN, P_T0, PW };
#define NIL UINT32_MAX

/* Word offsets of the areas for a configuration. */
typedef struct {
  size_t pool, aq, dq, total;
} layout_t;

static layout_t layout(const t9k_node_cfg_t *c) {
  layout_t l;
  l.pool = (size_t)c->nvl * VW;
  l.aq = l.pool + (size_t)c->qlimit * PW;
  l.dq = l.aq + (size_t)c->nlinks * c->nvl;
  l.total = l.dq + (size_t)c->nlinks * c->nvl;
  return l;
}

int t9k_node_cfg_check(const t9k_node_cfg_t *c, char *err, size_t errlen) {
  const char *bad = NULL;
  if (c->nlinks < 1 || c->nlinks > T9K_NODE_LINKS_MAX)
    bad = "nlinks must be 1..4";
  else if (c->nvl < 1 || c->nvl > T9K_NODE_VL_MAX)
    bad = "nvl (K) must be 1..32767";
  else if (c->hbytes < 1 || c->hbytes > 2)
    bad = "hbytes (H) must be 1 or 2";
  else if (c->nnodes < 1 || c->node >= c->nnodes)
    bad = "node must be below nnodes";
  else if ((uint64_t)2 * c->nnodes * c->nvl > (c->hbytes == 2 ? 65536u : 256u))
    bad = "2 N K header values do not fit H bytes";
  else if (c->qlimit < 1 || c->qlimit > T9K_NODE_QLIMIT_MAX)
    bad = "qlimit must be 1..1048576";
  if (bad) {
    if (err && errlen)
      snprintf(err, errlen, "t9k_node: %s (node %u of %u, K %u, P %u, H %u, qlimit %u)", bad,
               c->node, c->nnodes, c->nvl, c->nlinks, c->hbytes, c->qlimit);
    return -1;
  }
  return 0;
}

int t9k_node_init(const t9k_node_cfg_t *cfg, t9k_node_state_t *st, t9k_node_next_t *nx, char *err,
                  size_t errlen) {
  memset(st, 0, sizeof *st);
  memset(nx, 0, sizeof *nx);
  if (t9k_node_cfg_check(cfg, err, errlen))
    return -1;
  const layout_t l = layout(cfg);
  st->mem = calloc(l.total, sizeof *st->mem);
  /* Words written per cycle: E1 and E5 a few per link; E2 at most 4 per accepted message, and no
     more messages are accepted than qlimit. */
  nx->cap = 64u + 16u * cfg->nlinks + 4u * cfg->qlimit;
  nx->dirty = malloc(nx->cap * sizeof *nx->dirty);
  nx->val = malloc(nx->cap * sizeof *nx->val);
  if (!st->mem || !nx->dirty || !nx->val) {
    t9k_node_free(st, nx);
    if (err && errlen)
      snprintf(err, errlen, "t9k_node: out of memory (node %u)", cfg->node);
    return -1;
  }
  for (uint32_t c = 0; c < cfg->nvl; c++)
    st->mem[(size_t)c * VW + V_PEER] = NIL;
  t9k_node_reset(cfg, st);
  return 0;
}

void t9k_node_free(t9k_node_state_t *st, t9k_node_next_t *nx) {
  free(st->mem);
  free(nx->dirty);
  free(nx->val);
  st->mem = NULL;
  nx->dirty = NULL;
  nx->val = NULL;
  nx->ndirty = 0;
}

void t9k_node_reset(const t9k_node_cfg_t *cfg, t9k_node_state_t *st) {
  const layout_t l = layout(cfg);
  memset(&st->r, 0, sizeof st->r);
  for (uint32_t c = 0; c < cfg->nvl; c++) {
    uint64_t *v = st->mem + (size_t)c * VW;
    const uint64_t peer = v[V_PEER];
    memset(v, 0, VW * sizeof *v);
    v[V_PEER] = peer;
    v[V_PHEAD] = v[V_PTAIL] = NIL;
  }
  for (uint32_t i = 0; i < cfg->qlimit; i++) {
    uint64_t *p = st->mem + l.pool + (size_t)i * PW;
    p[P_NEXT] = i + 1 < cfg->qlimit ? i + 1 : NIL;
    p[P_LEN] = p[P_T0] = 0;
  }
  memset(st->mem + l.aq, 0, (l.total - l.aq) * sizeof *st->mem);
  st->r.pool_free = 0;
}

void t9k_node_set_peer(const t9k_node_cfg_t *cfg, t9k_node_state_t *st, uint32_t c, uint32_t pn,
                       uint32_t pc) {
  if (c >= cfg->nvl)
    return;
  const uint64_t v = pn == T9K_NODE_NOPEER ? NIL : (uint64_t)pn * cfg->nvl + pc;
  st->mem[(size_t)c * VW + V_PEER] = v;
}

uint32_t t9k_node_peer(const t9k_node_cfg_t *cfg, const t9k_node_state_t *st, uint32_t c) {
  return c < cfg->nvl ? (uint32_t)st->mem[(size_t)c * VW + V_PEER] : T9K_NODE_NOPEER;
}

void t9k_node_vl(const t9k_node_cfg_t *cfg, const t9k_node_state_t *st, uint32_t c,
                 t9k_node_vl_t *v) {
  const uint64_t *w = st->mem + (size_t)c * VW;
  (void)cfg;
  v->pending = (uint32_t)w[V_PN];
  v->active = (uint32_t)w[V_OACT];
  v->len = (uint32_t)w[V_OLEN];
  v->off = (uint32_t)w[V_OOFF];
  v->unacked = (uint32_t)w[V_OUNACK];
  v->t0 = w[V_T0];
}

void t9k_node_outputs(const t9k_node_cfg_t *cfg, const t9k_node_state_t *st, t9k_node_out_t *out) {
  const t9k_node_regs_t *q = &st->r;
  const uint32_t H = cfg->hbytes;
  for (uint32_t l = 0; l < T9K_NODE_LINKS_MAX; l++) {
    out->rx_ready[l] = l < cfg->nlinks; /* a T9000 input never blocks (000 §4.2.3) */
    out->tx_valid[l] = l < cfg->nlinks && q->t_kind[l] != T9K_NODE_NONE;
    out->tx_data[l] = 0;
    out->tx_kind[l] = DSLINK_KIND_DATA;
    if (!out->tx_valid[l])
      continue;
    const uint32_t pos = q->t_pos[l];
    if (pos < H) /* header, most significant byte first */
      out->tx_data[l] = (q->t_hdr[l] >> (8u * (H - 1u - pos))) & 0xFFu;
    else if (pos < H + q->t_len[l])
      out->tx_data[l] = (pos - H + 1u) & 0xFFu; /* the j-th data byte is j, as in t9k.h */
    else
      out->tx_kind[l] = q->t_end[l];
  }
}

/* The eval's working context: the state, and the next state being built. */
typedef struct {
  const t9k_node_cfg_t *cfg;
  layout_t l;
  const t9k_node_state_t *st;
  t9k_node_next_t *nx;
  int overflow;
} ctx_t;

/* The journal's entry for word off, or -1. A cycle writes a handful of words (more only when
 * many messages arrive at once), so a scan is cheaper than any index kept between cycles. */
static inline int64_t jfind(const t9k_node_next_t *nx, size_t off) {
  for (uint32_t i = nx->ndirty; i-- > 0;)
    if (nx->dirty[i] == off)
      return i;
  return -1;
}

/* Word off as this cycle has left it so far: the journal's value, else the state's. */
static inline uint64_t rd(const ctx_t *x, size_t off) {
  const int64_t i = jfind(x->nx, off);
  return i >= 0 ? x->nx->val[i] : x->st->mem[off];
}

static inline void wr(ctx_t *x, size_t off, uint64_t v) {
  t9k_node_next_t *nx = x->nx;
  const int64_t i = jfind(nx, off);
  if (i >= 0) {
    nx->val[i] = v;
    return;
  }
  if (x->st->mem[off] == v)
    return;
  if (nx->ndirty >= nx->cap) {
    x->overflow = 1;
    return;
  }
  nx->dirty[nx->ndirty] = (uint32_t)off;
  nx->val[nx->ndirty++] = v;
}

static inline size_t vw(uint32_t c, uint32_t f) { return (size_t)c * VW + f; }

/* Ring of K entries of link l at base: push v; -1 if full. */
static int ring_push(ctx_t *x, size_t base, uint32_t l, uint32_t head, uint32_t *n, uint64_t v) {
  const uint32_t K = x->cfg->nvl;
  if (*n >= K)
    return -1;
  wr(x, base + (size_t)l * K + (head + *n) % K, v);
  (*n)++;
  return 0;
}

static uint64_t ring_pop(ctx_t *x, size_t base, uint32_t l, uint32_t *head, uint32_t *n) {
  const uint32_t K = x->cfg->nvl;
  const uint64_t v = rd(x, base + (size_t)l * K + *head);
  *head = (*head + 1u) % K;
  (*n)--;
  return v;
}

/* Starts a message on end c: in progress, its first packet ready (dq of link c mod P). */
static void start_msg(ctx_t *x, uint32_t c, uint32_t len, uint64_t t0) {
  t9k_node_regs_t *d = &x->nx->r;
  const uint32_t l = c % x->cfg->nlinks;
  wr(x, vw(c, V_OACT), 1);
  wr(x, vw(c, V_OLEN), len);
  wr(x, vw(c, V_OOFF), 0);
  wr(x, vw(c, V_T0), t0);
  wr(x, vw(c, V_DT0), t0);
  if (ring_push(x, x->l.dq, l, d->dq_head[l], &d->dq_n[l], c))
    x->overflow = 1; /* at most one entry per end: cannot happen */
}

/* E1, a token where a header is expected: its bytes, then the packet's VL end and kind. */
static void rx_header(ctx_t *x, uint32_t l, uint32_t k, uint32_t b, t9k_node_ev_t *ev) {
  const t9k_node_cfg_t *cfg = x->cfg;
  t9k_node_regs_t *d = &x->nx->r;
  const uint32_t K = cfg->nvl, H = cfg->hbytes;
  if (k != DSLINK_KIND_DATA) {
    d->bad++; /* an end token where a header should start (or inside one) */
    d->r_hcnt[l] = 0;
    ev->rx_end[l] = 1;
    return;
  }
  if (d->r_hcnt[l] == 0)
    ev->rx_first[l] = 1;
  if (d->r_hcnt[l] + 1u < H) {
    d->r_hdr[l] = b;
    d->r_hcnt[l] = 1;
    return;
  }
  const uint32_t h = H == 2 ? (d->r_hdr[l] << 8) | b : b;
  d->r_hcnt[l] = 0;
  const uint32_t idx = h >> 1, c = idx % K;
  if (h >= 2u * cfg->nnodes * K || idx / K != cfg->node || rd(x, vw(c, V_PEER)) == NIL) {
    d->misrouted++;
    d->r_st[l] = 3;
    return;
  }
  d->r_vl[l] = c;
  if (h & 1u) {
    d->r_st[l] = 2;
    return;
  }
  d->r_st[l] = 1;
  /* acknowledge on header arrival, on the arrival link (§16.3 E1) */
  const uint64_t ack = 2u * rd(x, vw(c, V_PEER)) + 1u;
  if (ring_push(x, x->l.aq, l, d->aq_head[l], &d->aq_n[l], ack | (d->cyc << 16)))
    d->bad++; /* more unacknowledged packets than VL ends: a sender broke the protocol */
}

/* E1, a token of a data packet's body. */
static void rx_data(ctx_t *x, uint32_t l, uint32_t k, t9k_node_ev_t *ev) {
  t9k_node_regs_t *d = &x->nx->r;
  const uint32_t c = d->r_vl[l];
  /* bytes are counted per link and added to the end's message at the packet's end: with hunt
     groups and universal routing a VL's next packet may arrive on another link before the
     tail of this one */
  if (k == DSLINK_KIND_DATA) {
    d->r_bytes[l]++;
    return;
  }
  ev->rx_end[l] = 1;
  const uint32_t pkt = d->r_bytes[l];
  d->r_bytes[l] = 0;
  if (k == DSLINK_KIND_EOP) {
    wr(x, vw(c, V_IBYTES), rd(x, vw(c, V_IBYTES)) + pkt);
  } else if (k == DSLINK_KIND_EOM) {
    const uint32_t bytes = (uint32_t)rd(x, vw(c, V_IBYTES)) + pkt;
    ev->rx_msg[l] = 1;
    ev->rx_vl[l] = c;
    ev->rx_bytes[l] = bytes;
    d->msgs_rcvd++;
    d->bytes_rcvd += bytes;
    wr(x, vw(c, V_IBYTES), 0);
  } else if (k == DSLINK_KIND_ERR) {
    d->cut++;
    wr(x, vw(c, V_IBYTES), 0);
  }
  d->r_st[l] = 0;
}

/* End c's message is complete at the sender: the next pending one, if any, starts. */
static void msg_done(ctx_t *x, uint32_t l, uint32_t c, t9k_node_ev_t *ev) {
  t9k_node_regs_t *d = &x->nx->r;
  d->msgs_sent++;
  d->outstanding--;
  ev->msgs_done++;
  ev->msg_done[l] = 1;
  ev->done_vl[l] = c;
  const uint32_t pn = (uint32_t)rd(x, vw(c, V_PN));
  if (!pn) {
    wr(x, vw(c, V_OACT), 0);
    return;
  }
  const uint32_t i = (uint32_t)rd(x, vw(c, V_PHEAD));
  const size_t pe = x->l.pool + (size_t)i * PW;
  const uint32_t next = (uint32_t)rd(x, pe + P_NEXT);
  wr(x, vw(c, V_PHEAD), next);
  if (next == NIL)
    wr(x, vw(c, V_PTAIL), NIL);
  wr(x, vw(c, V_PN), pn - 1u);
  start_msg(x, c, (uint32_t)rd(x, pe + P_LEN), rd(x, pe + P_T0));
  wr(x, pe + P_NEXT, d->pool_free);
  d->pool_free = i;
}

/* E1, a token of an acknowledgement: at its end the acknowledged end sends on. */
static void rx_ack(ctx_t *x, uint32_t l, uint32_t k, t9k_node_ev_t *ev) {
  t9k_node_regs_t *d = &x->nx->r;
  const uint32_t c = d->r_vl[l];
  if (k == DSLINK_KIND_DATA) {
    d->bad++; /* an acknowledgement carries no data */
    d->r_st[l] = 3;
    return;
  }
  ev->rx_end[l] = 1;
  d->r_st[l] = 0;
  if (k == DSLINK_KIND_ERR) {
    d->cut++;
    return;
  }
  if (k == DSLINK_KIND_EOM || !rd(x, vw(c, V_OUNACK))) {
    d->bad++;
    return;
  }
  wr(x, vw(c, V_OUNACK), 0);
  const uint32_t pl = c % x->cfg->nlinks;
  if (rd(x, vw(c, V_OOFF)) < rd(x, vw(c, V_OLEN))) {
    wr(x, vw(c, V_DT0), d->cyc); /* the next packet of the message is created now */
    if (ring_push(x, x->l.dq, pl, d->dq_head[pl], &d->dq_n[pl], c))
      x->overflow = 1;
    return;
  }
  msg_done(x, l, c, ev);
}

/* E1 for one popped token on link l: by the link's receive state (0 header, 1 data packet,
   2 acknowledgement, 3 discarding up to an end token). */
static void rx_token(ctx_t *x, uint32_t l, uint32_t k, uint32_t b, t9k_node_ev_t *ev) {
  t9k_node_regs_t *d = &x->nx->r;
  switch (d->r_st[l]) {
  case 0:
    rx_header(x, l, k, b, ev);
    return;
  case 1:
    rx_data(x, l, k, ev);
    return;
  case 2:
    rx_ack(x, l, k, ev);
    return;
  default:
    if (k != DSLINK_KIND_DATA) {
      ev->rx_end[l] = 1;
      d->r_st[l] = 0;
    }
    return;
  }
}

/* E2: one message from the workload. */
static void new_msg(ctx_t *x, const t9k_node_msg_t *m, t9k_node_ev_t *ev) {
  const t9k_node_cfg_t *cfg = x->cfg;
  t9k_node_regs_t *d = &x->nx->r;
  if (m->vl >= cfg->nvl || rd(x, vw(m->vl, V_PEER)) == NIL) {
    d->msgs_nopeer++;
    ev->dropped++;
    return;
  }
  if (d->outstanding >= cfg->qlimit) {
    d->msgs_dropped++; /* a saturation failure (000 §5.3.2) */
    ev->dropped++;
    return;
  }
  d->outstanding++;
  d->msgs_accepted++;
  ev->accepted++;
  const uint32_t c = m->vl;
  if (!rd(x, vw(c, V_OACT))) {
    start_msg(x, c, m->len, d->cyc);
    return;
  }
  const uint32_t i = d->pool_free; /* outstanding < qlimit: the pool has a free entry */
  const size_t pe = x->l.pool + (size_t)i * PW;
  d->pool_free = (uint32_t)rd(x, pe + P_NEXT);
  wr(x, pe + P_NEXT, NIL);
  wr(x, pe + P_LEN, m->len);
  wr(x, pe + P_T0, d->cyc);
  const uint32_t tail = (uint32_t)rd(x, vw(c, V_PTAIL));
  if (tail == NIL)
    wr(x, vw(c, V_PHEAD), i);
  else
    wr(x, x->l.pool + (size_t)tail * PW + P_NEXT, i);
  wr(x, vw(c, V_PTAIL), i);
  wr(x, vw(c, V_PN), rd(x, vw(c, V_PN)) + 1u);
}

/* E5: link l's next packet is the oldest acknowledgement it owes. */
static void select_ack(ctx_t *x, uint32_t l, t9k_node_ev_t *ev) {
  t9k_node_regs_t *d = &x->nx->r;
  const uint64_t a = ring_pop(x, x->l.aq, l, &d->aq_head[l], &d->aq_n[l]);
  d->t_kind[l] = T9K_NODE_ACK;
  d->t_hdr[l] = (uint32_t)(a & 0xFFFFu);
  d->t_vl[l] = ((uint32_t)(a & 0xFFFFu) >> 1) % x->cfg->nvl;
  d->t_len[l] = 0;
  d->t_end[l] = DSLINK_KIND_EOP;
  d->t_pos[l] = 0;
  d->acks_sent++;
  ev->sel[l] = 1;
  ev->sel_kind[l] = T9K_NODE_ACK;
  ev->sel_hdr[l] = d->t_hdr[l];
  ev->sel_vl[l] = d->t_vl[l];
  ev->sel_len[l] = 0;
  ev->sel_t0[l] = a >> 16;
  ev->sel_end[l] = DSLINK_KIND_EOP;
}

/* E5: link l's next packet is the next data packet of the first end in its queue. */
static void select_data(ctx_t *x, uint32_t l, t9k_node_ev_t *ev) {
  t9k_node_regs_t *d = &x->nx->r;
  const uint32_t c = (uint32_t)ring_pop(x, x->l.dq, l, &d->dq_head[l], &d->dq_n[l]);
  const uint32_t off = (uint32_t)rd(x, vw(c, V_OOFF)), mlen = (uint32_t)rd(x, vw(c, V_OLEN));
  const uint32_t len = mlen - off < T9K_NODE_PACKET ? mlen - off : T9K_NODE_PACKET;
  d->t_kind[l] = T9K_NODE_DATA;
  d->t_hdr[l] = 2u * (uint32_t)rd(x, vw(c, V_PEER));
  d->t_vl[l] = c;
  d->t_len[l] = len;
  d->t_end[l] = off + len == mlen ? DSLINK_KIND_EOM : DSLINK_KIND_EOP;
  d->t_pos[l] = 0;
  wr(x, vw(c, V_OOFF), off + len);
  wr(x, vw(c, V_OUNACK), 1);
  d->pkts_sent++;
  ev->sel[l] = 1;
  ev->sel_kind[l] = T9K_NODE_DATA;
  ev->sel_hdr[l] = d->t_hdr[l];
  ev->sel_vl[l] = c;
  ev->sel_len[l] = len;
  ev->sel_t0[l] = rd(x, vw(c, V_DT0));
  ev->sel_end[l] = d->t_end[l];
  ev->sel_msg_t0[l] = rd(x, vw(c, V_T0));
  ev->sel_msg_len[l] = mlen;
}

int t9k_node_eval(const t9k_node_cfg_t *cfg, const t9k_node_state_t *st, const t9k_node_in_t *in,
                  t9k_node_out_t *out, t9k_node_next_t *nx, t9k_node_ev_t *ev) {
  /* pure: the journal starts empty, the memory is read from st (rd) */
  nx->ndirty = 0;
  nx->r = st->r;
  t9k_node_ev_t evs;
  if (!ev)
    ev = &evs;
  memset(ev, 0, sizeof *ev);
  ctx_t x = {.cfg = cfg, .l = layout(cfg), .st = st, .nx = nx, .overflow = 0};
  const t9k_node_regs_t *q = &st->r;
  t9k_node_regs_t *d = &nx->r;
  const uint32_t P = cfg->nlinks;

  t9k_node_outputs(cfg, st, out); /* E3 */
  for (uint32_t l = 0; l < P; l++) /* E1 */
    if (in->rx_valid[l])
      rx_token(&x, l, in->rx_kind[l] & 3u, in->rx_data[l] & 0xFFu, ev);
  for (uint32_t i = 0; i < in->n_new; i++) /* E2 */
    new_msg(&x, &in->new_msgs[i], ev);
  for (uint32_t l = 0; l < P; l++) {
    if (q->t_kind[l] != T9K_NODE_NONE) { /* E4 */
      if (out->tx_valid[l] && in->tx_ready[l]) {
        if (q->t_pos[l] == cfg->hbytes + q->t_len[l])
          d->t_kind[l] = T9K_NODE_NONE;
        else
          d->t_pos[l] = q->t_pos[l] + 1u;
      }
      continue;
    }
    /* E5: only between packets; acknowledgements first */
    if (d->aq_n[l])
      select_ack(&x, l, ev);
    else if (d->dq_n[l])
      select_data(&x, l, ev);
  }
  d->cyc = q->cyc + 1u;
  if (x.overflow) {
    fprintf(stderr, "t9k_node %u: a queue or the write journal overflowed (cycle %llu)\n",
            cfg->node, (unsigned long long)q->cyc);
    return -1;
  }
  return 0;
}

void t9k_node_clock(t9k_node_state_t *st, const t9k_node_next_t *nx) {
  st->r = nx->r;
  for (uint32_t i = 0; i < nx->ndirty; i++)
    st->mem[nx->dirty[i]] = nx->val[i];
}
