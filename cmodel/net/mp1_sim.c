/* The MP1 network simulator (docs/mp1_sim.md): per-node sources and interfaces around the mesh C
 * model, and the metrics of seed 004 §4.2 taken from the chips' events every cycle. */
#include <madpost/mp1_sim.h>
#include <madpost/net_err.h>
#include <madpost/mp1_nic.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NIL UINT32_MAX

/* A message from generation to reception. Its data carry the tag the receiver matches it by:
 * the queue-entry cycle's low 16 bits (as 004 §4.2 keeps it in the first two data bytes), then
 * the source node; later bytes are a pattern of both, checked on arrival. Its length counts one
 * byte per address word (the paper's L): the data do not depend on the address flits per word,
 * only the header's flits do (docs/mp1.md §14.4; msg_flits). */
typedef struct {
  uint64_t t_enq, t_start, t_inj;
  uint32_t src, dst, next;
  uint32_t qnext;     /* in a node's injection queue: the next one (the last names the first) */
  uint16_t len;       /* data bytes + h */
  uint16_t hdr[2];    /* address words {code, addr} (docs/mp1.md §14.1) */
  uint8_t h, sel, sent; /* h: address words */
  uint8_t carrier; /* a broadcast as injected: its copies are the destinations' own records */
} msg_t;

/* Per node: the source, the injection queue and the sender. The queue is a ring of its messages
 * through msg_t.qnext, named by its last: a node holds 4 bytes for it, not `queue` entries. */
typedef struct {
  madpost_rng_t rng;
  net_arrival_t arr;
  uint32_t cur;       /* message in the interface buffer, being injected */
  uint16_t tx_pos, tx_n; /* chunks of a message: at most 3 (1024 + 2 AWF) + 7 (length <= 1024) */
  uint32_t pend;      /* messages outstanding to this node (a list through msg_t.next) */
  uint32_t qtail;     /* the queue's last message (qn of them; NIL when empty) */
  mp1_txf_t txf;
  uint8_t qn, tx_dat;
} node_t;

/* Per chip (one per node in a mesh, four in a torus): the interface's receiver of its reception
 * channel, and the chip's channel bookkeeping. */
typedef struct {
  mp1_rxf_t rxf;
  uint8_t r_bad;
  uint8_t r_tag[4];
  uint32_t r_len;
  uint8_t ch_live;    /* per output channel: its current owner's message is live */
  uint8_t ch_own;     /* per output channel: owned last cycle */
  uint8_t ch_pos[8];  /* per output channel: the chunk of a flit its wire carries (0: between
                       * flits), as a flit's 2nd and 3rd chunks may be 000 like an idle wire */
  uint8_t ch_eom;     /* per output channel: an EOM on it since the current assignment began */
} chip_t;

typedef struct {
  const mp1_sim_cfg_t *c;
  net_traffic_cfg_t tr;
  net_arrival_cfg_t ar;
  uint32_t n;        /* nodes */
  uint32_t nc, per;  /* chips, chips per node */
  uint32_t vkx;      /* the chip mesh's width (2 kx in a torus) */
  uint32_t awf;      /* address flits per address word (mp1_sim_awf) */
  mp1_mesh_state_t st;
  mp1_mesh_next_t nx;
  mp1_mesh_in_t *in;
  mp1_mesh_out_t *out;
  mp1_mesh_ev_t ev;  /* the chips' events, one per chip: what the metrics are taken from */
  node_t *node;
  chip_t *chip;
  msg_t *m;
  uint32_t m_cap, m_free, m_live;
  uint64_t w0, w1; /* measured window [w0, w1) */
  uint64_t a_end;  /* adaptations are also counted before this cycle (sim_setup) */
  uint64_t gen_end, t_end; /* sources stop at gen_end, the run at t_end */
  int sync;
  uint32_t vof[4];   /* a node's chips: chip mesh offsets from its first (docs/mp1_sim.md §7) */
  uint32_t bc_next;  /* point-to-point broadcast: the next destination (NIL: all sent) */
  mp1_sim_result_t *r;
  mp1_sim_chan_t *chan;
  /* window accumulators */
  double lat_sum, lat_sq, lat_max, inj_sum, net_sum, hop_sum;
  uint64_t inj_n, busy, busy_dead, hold, nbusy, qsum;
  uint64_t adapt, adapt_buf;
  uint64_t drops, strays; /* over the whole run (chip_sample) */
  uint32_t *ch_busy, *ch_dead;
  uint32_t *ch_cross; /* only for the caller's per-channel figures (NULL without them) */
  uint32_t *ch_pend; /* cycles in the window of each channel's current ownership */
  uint32_t *ch_wait; /* owned but waiting cycles: every run needs them for util_wait_max */
  uint64_t *ch_wstop; /* of those, stop high: the caller's array, only for --channels */
} sim_t;

static uint32_t msg_alloc(sim_t *s) {
  if (s->m_free == NIL) {
    const uint32_t cap = s->m_cap ? 2 * s->m_cap : 1024;
    msg_t *m = realloc(s->m, (size_t)cap * sizeof *m);
    if (!m) return NIL;
    s->m = m;
    for (uint32_t i = s->m_cap; i < cap; i++) m[i].next = i + 1 < cap ? i + 1 : NIL;
    s->m_free = s->m_cap;
    s->m_cap = cap;
  }
  const uint32_t i = s->m_free;
  s->m_free = s->m[i].next;
  s->m_live++;
  return i;
}

static void msg_release(sim_t *s, uint32_t i) {
  s->m[i].next = s->m_free;
  s->m_free = i;
  s->m_live--;
}

/* One dimension of a torus route (docs/mp1_sim.md §7): the minimal direction (neg), whether it
 * wraps, and the levels (0 L, 1 H) the message starts and ends in. */
typedef struct {
  uint32_t neg, wrap, lstart, lend;
} tdim_t;

static tdim_t torus_dim(uint32_t k, uint32_t s, uint32_t d, madpost_rng_t *r) {
  tdim_t t = {0, 0, 0, 0};
  const uint32_t f = (d + k - s) % k;
  if (f == 0) return t;
  t.neg = 2 * f > k || (2 * f == k && madpost_rng_below(r, 2));
  t.wrap = t.neg ? d > s : d < s;
  /* going +, the L copy is upstream of the H copy (the wrap link joins L's end to H's start);
   * going -, the reverse */
  t.lstart = t.wrap ? t.neg : !t.neg;
  t.lend = t.wrap ? !t.neg : t.lstart;
  return t;
}

/* The injection rule of 004 §5.5 for the dimensions that do not wrap (docs/mp1_sim.md §7): the
 * start levels, each in the message's own orientation (1: the downstream copy, where 004's
 * "own class level" is; 0: the upstream copy). */
static void torus_levels(const mp1_sim_cfg_t *c, uint32_t sx, uint32_t sy, tdim_t *X, tdim_t *Y,
                         madpost_rng_t *r) {
  uint32_t ux = 1, uy = 1; /* downstream (own) copies by default: the fixed strategy */
  if (c->torus_inject == MP1_TINJ_RANDOM) {
    ux = (uint32_t)madpost_rng_below(r, 2);
    uy = (uint32_t)madpost_rng_below(r, 2);
  } else if (c->torus_inject == MP1_TINJ_PAPER) {
    /* canonical orientation: coordinates mirrored in a dimension travelled - */
    const uint32_t cx = X->neg ? c->kx - 1 - sx : sx, cy = Y->neg ? c->ky - 1 - sy : sy;
    const uint32_t east = 2 * cx >= c->kx, south = 2 * cy >= c->ky;
    const uint32_t u = (uint32_t)madpost_rng_below(r, 3); /* thirds */
    if (X->wrap && !Y->wrap) uy = u != 0;        /* class HL: 1/3 to LL */
    else if (Y->wrap && !X->wrap) ux = u != 0;   /* class LH: 1/3 to LL */
    else if (!X->wrap && !Y->wrap) {
      if (!east && !south) ux = uy = 0;          /* NW: all to LL */
      else if (east && !south) ux = u == 0;      /* NE: 2/3 to HL, 1/3 stay */
      else if (!east && south) uy = u == 0;      /* SW: 2/3 to LH, 1/3 stay */
      else uy = u != 0;                          /* SE: 1/3 to LH, 2/3 stay */
    }
  }
  if (!X->wrap) X->lstart = X->lend = X->neg ? !ux : ux;
  if (!Y->wrap) Y->lstart = Y->lend = Y->neg ? !uy : uy;
}

/* Header and selection (docs/mp1_sim.md §2): the first address flit names the dimension the
 * message starts in; code 0 (static) or 1 (adaptive) when both dimensions differ. In a torus the
 * addresses are positions in the unrolled chip mesh and the selection names the chip. */
static void msg_header(sim_t *s, msg_t *m, madpost_rng_t *r) {
  const mp1_sim_cfg_t *c = s->c;
  const uint32_t kx = c->kx, sx = m->src % kx, sy = m->src / kx;
  uint32_t dx = m->dst % kx, dy = m->dst / kx;
  uint32_t px, py, chip = 0, ax = dx, ay = dy, ox = dx != sx, oy = dy != sy;
  if (c->torus) {
    tdim_t X = torus_dim(kx, sx, dx, r), Y = torus_dim(c->ky, sy, dy, r);
    torus_levels(c, sx, sy, &X, &Y, r);
    px = X.neg;
    py = Y.neg;
    chip = 2 * Y.lstart + X.lstart;
    ax = X.lend * kx + dx;
    ay = Y.lend * c->ky + dy;
  } else {
    px = dx < sx;
    py = dy < sy;
  }
  if (c->zero_random) {
    /* an offset of 0 fits either plane of that sign: spread them (docs/mp1_sim.md §2) */
    if (!ox) px = (uint32_t)madpost_rng_below(r, 2);
    if (!oy) py = (uint32_t)madpost_rng_below(r, 2);
  }
  dx = ax;
  dy = ay;
  const uint32_t plane = (px << 1) | py;
  uint32_t dim;
  if (ox && oy) {
    dim = s->c->route == MP1_ROUTE_OBLIVIOUS ? 0 : (uint32_t)madpost_rng_below(r, 2);
    const uint32_t code = s->c->route == MP1_ROUTE_ADAPTIVE ? 1u : 0u;
    const uint32_t first = dim ? dy : dx, second = dim ? dx : dy;
    m->hdr[0] = (uint16_t)mp1_addr_word(s->awf, code, first);
    m->hdr[1] = (uint16_t)mp1_addr_word(s->awf, MP1_CODE_DELIVER, second);
    m->h = 2;
  } else {
    dim = !ox;
    m->hdr[0] = (uint16_t)mp1_addr_word(s->awf, MP1_CODE_DELIVER, dim ? dy : dx);
    m->h = 1;
  }
  m->sel = (uint8_t)mp1_sel_flit(chip, plane, dim);
}

static uint8_t data_byte(uint32_t src, uint32_t t_lo, uint32_t j) {
  switch (j) {
  case 0: return (uint8_t)t_lo;
  case 1: return (uint8_t)(t_lo >> 8);
  case 2: return (uint8_t)src;
  case 3: return (uint8_t)(src >> 8);
  default: return (uint8_t)(j * 37u + src + t_lo);
  }
}

/* Flits of a message: its address words of awf flits each, then its data. */
static uint32_t msg_flits(const sim_t *s, const msg_t *m) {
  return m->len + m->h * (s->awf - 1u);
}

/* Chunk pos of a message as its interface sends it (docs/mp1.md §3, §11.3, §14.1). */
static uint32_t msg_chunk(const sim_t *s, const msg_t *m, uint32_t pos) {
  const uint32_t awf = s->awf, hf = m->h * awf;
  uint32_t i, k;
  const int c = mp1_msg_chunk_at(m->sel, msg_flits(s, m), pos, &i, &k);
  if (c >= 0) return (uint32_t)c;
  const uint32_t b = i >= hf     ? data_byte(m->src, (uint32_t)m->t_enq, i - hf)
                     : awf == 1 ? m->hdr[i] & 0xffu
                                : mp1_addr_flit(awf, m->hdr[i / awf], i % awf);
  return mp1_flit_chunk(b, k);
}

static int in_window(const sim_t *s, uint64_t t) { return t >= s->w0 && t < s->w1; }

/* Into the interface buffer if it is free, else the queue (the caller checked for room). */
static void enqueue(sim_t *s, node_t *nd, uint32_t k, uint64_t t) {
  if (nd->cur == NIL) {
    nd->cur = k;
    s->m[k].t_start = t;
    nd->tx_pos = 0;
    nd->tx_n = mp1_msg_nchunks(msg_flits(s, &s->m[k]));
  } else {
    s->m[k].qnext = nd->qn ? s->m[nd->qtail].qnext : k;
    if (nd->qn) s->m[nd->qtail].qnext = k;
    nd->qtail = k;
    nd->qn++;
  }
}

/* A new message from node i to d at cycle t: into the interface buffer if it is free, else the
 * queue, else dropped (the queue overflowed: 004's saturation). */
static int generate(sim_t *s, uint32_t i, uint32_t d, uint64_t t) {
  node_t *nd = &s->node[i];
  s->r->generated++;
  if (in_window(s, t)) s->r->w_generated++;
  if (nd->cur != NIL && nd->qn == s->c->queue) {
    s->r->overflow++;
    if (in_window(s, t)) s->r->w_overflow++;
    return 0;
  }
  const uint32_t k = msg_alloc(s);
  if (k == NIL) return -1;
  msg_t *m = &s->m[k];
  memset(m, 0, sizeof *m);
  m->src = i;
  m->dst = d;
  m->len = (uint16_t)s->c->len;
  m->t_enq = t;
  msg_header(s, m, &nd->rng);
  if (m->len < m->h) m->len = m->h;
  m->next = s->node[d].pend;
  s->node[d].pend = k;
  enqueue(s, nd, k, t);
  return 0;
}

/* MP1's broadcast from the source over the square domain in +X, +Y (docs/mp1_sim.md §2.3): one
 * message; started in X with codes 4 and 5 and the fork (docs/mp1_draft4.md §9, §10.3), the
 * injection controller gives the source's Y output a2's word and the data, so the source's column
 * needs no second message. A domain one column (row) wide takes code 5 in Y (X). Each
 * destination's copy is its own record. */
static int broadcast(sim_t *s, uint64_t t) {
  const mp1_sim_cfg_t *c = s->c;
  const uint32_t src = c->bcast_src, sx = src % c->kx, sy = src / c->kx;
  const uint32_t fx = c->bcast_size ? sx + c->bcast_size - 1 : c->kx - 1;
  const uint32_t fy = c->bcast_size ? sy + c->bcast_size - 1 : c->ky - 1;
  const uint32_t dlen = c->len - 2;
  for (uint32_t y = sy; y <= fy; y++)
    for (uint32_t x = sx; x <= fx; x++) {
      const uint32_t d = y * c->kx + x;
      if (d == src) continue;
      const uint32_t k = msg_alloc(s);
      if (k == NIL) return -1;
      msg_t *m = &s->m[k];
      memset(m, 0, sizeof *m);
      *m = (msg_t){.t_enq = t, .t_start = t, .t_inj = t, .src = src, .dst = d,
                   .len = (uint16_t)(2 + dlen), .h = 2, .sent = 1};
      m->next = s->node[d].pend;
      s->node[d].pend = k;
      s->r->generated++;
      s->r->w_generated++;
    }
  if (fx == sx && fy == sy) return 0;
  const uint32_t k = msg_alloc(s);
  if (k == NIL) return -1;
  msg_t *m = &s->m[k];
  memset(m, 0, sizeof *m);
  m->src = src;
  m->dst = src;
  m->t_enq = m->t_start = t;
  m->carrier = 1;
  const uint32_t dim = fx == sx;
  if (fx > sx && fy > sy) {
    m->hdr[0] = (uint16_t)mp1_addr_word(s->awf, MP1_CODE_BCAST_2D, fx);
    m->hdr[1] = (uint16_t)mp1_addr_word(s->awf, MP1_CODE_BCAST_1D, fy);
    m->h = 2;
  } else {
    m->hdr[0] = (uint16_t)mp1_addr_word(s->awf, MP1_CODE_BCAST_1D, dim ? fy : fx);
    m->h = 1;
  }
  m->len = (uint16_t)(m->h + dlen);
  /* the first flit's top bits are a1's code (docs/mp1.md §14.1) */
  m->sel = (uint8_t)mp1_sel_tx(mp1_sel_flit(0, 0, dim), mp1_addr_flit(s->awf, m->hdr[0], 0));
  enqueue(s, &s->node[src], k, t);
  return 0;
}

/* The sender, after the cycle-t eval: the next chunk from this cycle's inj_stop (as mp1_nic: a
 * message to the same output as the previous one may go in the window, without its selection,
 * docs/mp1_draft4.md §10.2). */
static void tx_step(sim_t *s, node_t *nd, uint32_t inj_stop, uint64_t t) {
  uint32_t next = 0;
  if (nd->cur != NIL) {
    msg_t *m = &s->m[nd->cur];
    int skip_sel;
    if (mp1_txf_go(&nd->txf, inj_stop, nd->tx_pos == 0, m->sel, &skip_sel)) {
      if (skip_sel) nd->tx_pos = 4, s->r->win_sent++;
      next = msg_chunk(s, m, nd->tx_pos++);
      if (nd->tx_pos == 5) m->t_inj = t + 1; /* the first header chunk */
      if (nd->tx_pos == nd->tx_n) {
        m->sent = 1;
        if (in_window(s, m->t_inj) && !m->carrier) {
          s->inj_sum += (double)(m->t_start - m->t_enq);
          s->inj_n++;
        }
        if (m->carrier) msg_release(s, nd->cur);
        nd->cur = NIL;
        if (nd->qn) {
          nd->cur = s->m[nd->qtail].qnext; /* the first */
          if (--nd->qn) s->m[nd->qtail].qnext = s->m[nd->cur].qnext;
          s->m[nd->cur].t_start = t + 1;
          nd->tx_pos = 0;
          nd->tx_n = mp1_msg_nchunks(msg_flits(s, &s->m[nd->cur]));
        }
      }
    }
  }
  mp1_txf_sent(&nd->txf, next);
  nd->tx_dat = (uint8_t)next;
}

/* The node of chip v (its position in the chip mesh folded back onto the network). */
static uint32_t node_of(const sim_t *s, uint32_t v) {
  if (s->per == 1) return v;
  const uint32_t x = v % s->vkx, y = v / s->vkx;
  return (y % s->c->ky) * s->c->kx + x % s->c->kx;
}

/* A message's EOM arrived on chip v's reception channel: find it among those outstanding to the
 * node (docs/mp1_sim.md §2.3). */
static void deliver(sim_t *s, uint32_t v, uint64_t t) {
  chip_t *cp = &s->chip[v];
  node_t *nd = &s->node[node_of(s, v)];
  const uint32_t ntag = cp->r_len < 4 ? cp->r_len : 4;
  uint32_t best = NIL, best_prev = NIL, prev = NIL;
  if (!cp->r_bad) {
    for (uint32_t k = nd->pend; k != NIL; prev = k, k = s->m[k].next) {
      const msg_t *m = &s->m[k];
      if (!m->sent || (uint32_t)(m->len - m->h) != cp->r_len) continue;
      uint32_t ok = 1;
      for (uint32_t j = 0; j < ntag && ok; j++)
        ok = cp->r_tag[j] == data_byte(m->src, (uint32_t)m->t_enq, j);
      if (ok && (best == NIL || m->t_enq < s->m[best].t_enq ||
                 (m->t_enq == s->m[best].t_enq && m->t_inj < s->m[best].t_inj)))
        best = k, best_prev = prev;
    }
  }
  if (best == NIL) {
    s->r->corrupt++;
    return;
  }
  msg_t *m = &s->m[best];
  if (best_prev == NIL) nd->pend = m->next;
  else s->m[best_prev].next = m->next;
  s->r->delivered++;
  if (in_window(s, t)) {
    const double lat = (double)(t - m->t_enq);
    s->r->w_delivered++;
    s->r->w_bytes += m->len;
    s->lat_sum += lat;
    s->lat_sq += lat * lat;
    if (lat > s->lat_max) s->lat_max = lat;
    s->net_sum += (double)(t - m->t_inj);
    s->hop_sum += net_traffic_dist(&s->tr, m->src, m->dst); /* minimal hops */
  }
  if (s->r->completion < t + 1) s->r->completion = t + 1;
  if (s->c->trace)
    fprintf(s->c->trace, "%llu,%u,%u,%u,%u,%u,%llu,%llu,%llu,%llu\n",
            (unsigned long long)s->r->seed, m->src % s->c->kx, m->src / s->c->kx,
            m->dst % s->c->kx, m->dst / s->c->kx, m->len, (unsigned long long)m->t_enq,
            (unsigned long long)m->t_start, (unsigned long long)m->t_inj, (unsigned long long)t);
  msg_release(s, best);
}

/* The receiver of chip v's reception channel: data flits, EOS between segments, EOM
 * (docs/mp1.md §13.1). */
static void rx_chunk(sim_t *s, uint32_t v, uint32_t c, uint64_t t) {
  chip_t *cp = &s->chip[v];
  uint8_t b;
  switch (mp1_rxf_step(&cp->rxf, c, &b)) {
  case MP1_RXF_BYTE: {
    const uint32_t j = cp->r_len++;
    if (j < 4) cp->r_tag[j] = b;
    else {
      const uint32_t src = cp->r_tag[2] | (uint32_t)cp->r_tag[3] << 8;
      const uint32_t t_lo = cp->r_tag[0] | (uint32_t)cp->r_tag[1] << 8;
      if (b != data_byte(src, t_lo, j)) cp->r_bad = 1;
    }
    return;
  }
  case MP1_RXF_EOM:
    deliver(s, v, t);
    break;
  case MP1_RXF_BAD:
    s->r->corrupt++;
    break;
  default:
    return;
  }
  cp->r_len = 0;
  cp->r_bad = 0;
}

/* A channel's framing (docs/mp1.md §2.1), from its position in a flit (0: between flits) and this
 * cycle's chunk: the next position (bits 0-1), and bit 2 when the wire carries nothing, neither a
 * flit's chunk nor an end code. A flit is its first chunk (top bit 1) and the two after it,
 * whatever they are: those may be 000 too. */
static const uint8_t frame_next[4][8] = {
    {4, 0, 0, 0, 1, 1, 1, 1}, {2, 2, 2, 2, 2, 2, 2, 2}, {0, 0, 0, 0, 0, 0, 0, 0}, {0}};

/* Chip v's channel and buffer use this cycle, from its events (mp1_chip_ev_t: derived from this
 * cycle's state and inputs), one plane at a time. A channel is in use when its multiplexer is
 * assigned to an input (004 §4.2). An assignment ends when the owner changes, or when a flit
 * follows an EOM on the channel: the arbiter re-arbitrates at an EOM and may give the output to
 * its owner again, for its next message, or keep it for the injection's window
 * (docs/mp1_draft4.md §8, §10.2); the cycles up to the next message stay with the last. It is
 * live if its owner's route names this output while it lasts (the injection's always); a dead
 * flit's never does. Its cycles are booked when it ends. A machine is busy while it holds a
 * message, its buffer occupied while it is blocked. An assigned channel whose wire carries
 * neither a flit's chunk nor an end code is waiting: the share of util that blocking costs. The
 * wire and the receiver's stop come from the eval's outputs. */
static void chip_sample(sim_t *s, uint32_t v, int win, int win_adapt) {
  const mp1_chip_ev_t *ev = &s->ev.chip[v];
  chip_t *cp = &s->chip[v];
  uint32_t nbusy = 0, hold = 0, adapt = 0, adapt_buf = 0, drops = ev->drop, strays = ev->stray;
  for (uint32_t p = 0; p < MP1_CHIP_PLANES; p++) {
    const mp1_plane_ev_t *pe = &ev->pl[p];
    const mp1_rm_ev_t *a = &pe->rmx, *b = &pe->rmy;
    drops += a->drop + b->drop;
    strays += a->stray + b->stray;
    if (win) {
      nbusy += a->busy + b->busy;
      hold += a->blocked + b->blocked;
    }
    if (win_adapt) {
      adapt += a->adapt + b->adapt;
      adapt_buf += a->adapt_buf + b->adapt_buf;
    }
    /* an unowned wire is 000, so only a flit still in its framing needs looking at */
    if (!(pe->own[0] | pe->own[1]) && !((cp->ch_own >> (2 * p)) & 3u) &&
        !(cp->ch_pos[2 * p] | cp->ch_pos[2 * p + 1]))
      continue;
    for (uint32_t d = 0; d < 2; d++) {
      const uint32_t j = 2 * p + d, own = pe->own[d];
      const uint32_t bit = 1u << j, ix = v * 8 + j;
      const uint32_t pos = cp->ch_pos[j];
      /* the chunk on the channel (000 with no owner; the fork's Y gating included) */
      const uint32_t w = s->out[v].chan_dat[j];
      if (own | pos) {
        const uint32_t f = frame_next[pos][w];
        cp->ch_pos[j] = (uint8_t)(f & 3u);
        if ((f & 4u) && win) { /* idle between flits, so pos is 0 and own is not */
          s->ch_wait[ix]++;
          if (s->ch_wstop) {
            const int dn = mp1_mesh_next_node(&s->st.cfg, v, j);
            if (dn >= 0 && s->out[dn].chan_stop[j]) s->ch_wstop[ix]++;
          }
        }
      }
      if (!own && !(cp->ch_own & bit)) continue;
      if ((cp->ch_own & bit) && (!own || own != ((s->ch_pend[ix] >> 30) & 3u) ||
                                 ((cp->ch_eom & bit) && (w & 4u)))) {
        /* the previous ownership ended */
        const uint32_t cyc = s->ch_pend[ix] & 0x3fffffffu;
        s->ch_busy[ix] += cyc;
        if (!(cp->ch_live & bit)) s->ch_dead[ix] += cyc;
        cp->ch_own &= (uint8_t)~bit;
        cp->ch_live &= (uint8_t)~bit;
        cp->ch_eom &= (uint8_t)~bit;
        s->ch_pend[ix] = 0;
      }
      if (!own) continue;
      if ((pe->eom >> d) & 1u) cp->ch_eom |= (uint8_t)bit;
      if (!(cp->ch_own & bit)) {
        cp->ch_own |= (uint8_t)bit;
        s->ch_pend[ix] = own << 30;
      }
      if (win) s->ch_pend[ix]++;
      if (!(cp->ch_live & bit) && ((pe->live >> d) & 1u)) {
        cp->ch_live |= (uint8_t)bit;
        if (win && s->ch_cross) s->ch_cross[ix]++;
      }
    }
  }
  s->drops += drops;
  s->strays += strays;
  if (win) {
    s->nbusy += nbusy;
    s->hold += hold;
  }
  if (win_adapt) {
    s->adapt += adapt;
    s->adapt_buf += adapt_buf;
  }
}

static void chan_flush(sim_t *s) {
  for (uint32_t v = 0; v < s->nc; v++)
    for (uint32_t j = 0; j < 8; j++) {
      const uint32_t ix = v * 8 + j, bit = 1u << j, cyc = s->ch_pend[ix] & 0x3fffffffu;
      if (!(s->chip[v].ch_own & bit)) continue;
      s->ch_busy[ix] += cyc;
      if (!(s->chip[v].ch_live & bit)) s->ch_dead[ix] += cyc;
      s->ch_pend[ix] &= ~0x3fffffffu;
    }
}

static void sim_free(sim_t *s) {
  mp1_mesh_free(&s->st, &s->nx);
  free(s->in);
  free(s->out);
  free(s->ev.chip);
  free(s->node);
  free(s->chip);
  free(s->m);
  free(s->ch_busy);
  free(s->ch_dead);
  free(s->ch_cross);
  free(s->ch_pend);
  free(s->ch_wait);
}

/* The run stops at a broken buffer invariant (docs/mp1_sim.md §4): a fault of the model, reported
 * with chip v's node (its network node in a torus) and the cycle. */
static int invariant_fail(const sim_t *s, uint32_t v, uint64_t t, char *err, size_t errlen) {
  const uint32_t i = node_of(s, v);
  return net_fail(err, errlen, "MP1 buffer invariant broken at node (%u,%u), cycle %llu",
                  i % s->c->kx, i / s->c->kx, (unsigned long long)t);
}

static int network_idle(const sim_t *s) {
  for (uint32_t i = 0; i < s->n; i++)
    if (s->node[i].cur != NIL || s->node[i].tx_dat) return 0;
  for (uint32_t v = 0; v < s->nc; v++)
    if (!mp1_chip_idle(&s->st.chip[v]) || s->chip[v].rxf.iseg) return 0;
  return 1;
}

/* The domain's nodes after `cur` in row order, the source left out (NIL: the first; NIL at the
 * end). */
static uint32_t bcast_next(const mp1_sim_cfg_t *c, uint32_t cur) {
  const uint32_t src = c->bcast_src, sx = src % c->kx, sy = src / c->kx;
  const uint32_t fx = c->bcast_size ? sx + c->bcast_size - 1 : c->kx - 1;
  const uint32_t fy = c->bcast_size ? sy + c->bcast_size - 1 : c->ky - 1;
  uint32_t x = cur == NIL ? sx : cur % c->kx, y = cur == NIL ? sy : cur / c->kx;
  for (int first = cur == NIL;; first = 0) {
    if (!first) {
      if (++x > fx) x = sx, y++;
      if (y > fy) return NIL;
    }
    if (y * c->kx + x != src) return y * c->kx + x;
  }
}

/* The run's state: the chip mesh, the nodes and the window's arrays; 0, or -1 with err set. */
static int sim_setup(sim_t *s, const mp1_sim_cfg_t *c, uint64_t seed, mp1_sim_result_t *r,
                     mp1_sim_chan_t *chan, char *err, size_t errlen) {
  memset(s, 0, sizeof *s);
  memset(r, 0, sizeof *r);
  r->seed = seed;
  s->c = c;
  s->r = r;
  s->n = c->kx * c->ky;
  s->per = c->torus ? 4 : 1;
  s->nc = s->n * s->per;
  s->vkx = c->torus ? 2 * c->kx : c->kx;
  s->awf = mp1_sim_awf(c);
  s->m_free = NIL;
  s->tr = c->traffic;
  s->tr.kx = c->kx;
  s->tr.ky = c->ky;
  s->tr.torus = c->torus;
  s->ar = c->arrival;
  s->ar.rate = mp1_sim_rate(c);
  const uint32_t n = s->n, nc = s->nc;
  /* a torus is the unrolled 2k x 2k chip mesh of docs/mp1_sim.md §7 */
  const mp1_mesh_cfg_t mc = {.kx = s->vkx, .ky = c->torus ? 2 * c->ky : c->ky,
                             .lvkx = c->torus ? c->kx : 0, .lvky = c->torus ? c->ky : 0,
                             .lean = 1, .awf = s->awf};
  /* mc is checked (mp1_sim_cfg_check): only memory can fail; say how much the run needs */
  const double gib = (double)n * (double)mp1_sim_bytes_per_node(c) / 1073741824.0;
  if (mp1_mesh_init(&s->st, &s->nx, mc))
    return net_fail(err, errlen, "out of memory: cannot allocate a %ux%u chip mesh (the run "
                    "needs about %.1f GiB)", mc.kx, mc.ky, gib);
  s->in = calloc(nc, sizeof *s->in);
  s->out = calloc(nc, sizeof *s->out);
  s->ev.chip = calloc(nc, sizeof *s->ev.chip);
  s->node = calloc(n, sizeof *s->node);
  s->chip = calloc(nc, sizeof *s->chip);
  s->ch_busy = calloc((size_t)nc * 8, sizeof *s->ch_busy);
  s->ch_dead = calloc((size_t)nc * 8, sizeof *s->ch_dead);
  if (chan) s->ch_cross = calloc((size_t)nc * 8, sizeof *s->ch_cross);
  s->ch_pend = calloc((size_t)nc * 8, sizeof *s->ch_pend);
  s->ch_wait = calloc((size_t)nc * 8, sizeof *s->ch_wait);
  if (!s->in || !s->out || !s->ev.chip || !s->node || !s->chip || !s->ch_busy || !s->ch_dead ||
      (chan && !s->ch_cross) || !s->ch_pend || !s->ch_wait) {
    sim_free(s);
    return net_fail(err, errlen, "out of memory (the run needs about %.1f GiB)", gib);
  }
  if (chan && chan->wait_stopped) {
    s->ch_wstop = chan->wait_stopped;
    memset(s->ch_wstop, 0, (size_t)nc * 8 * sizeof *s->ch_wstop);
  }
  /* the chips of node i: chip mesh positions (lx kx + x, ly ky + y) */
  if (c->torus) {
    s->vof[1] = c->kx;
    s->vof[2] = c->ky * s->vkx;
    s->vof[3] = c->ky * s->vkx + c->kx;
  }
  s->sync = c->mode == MP1_MODE_SYNC;
  s->w0 = s->sync ? 0 : c->warmup;
  s->w1 = s->sync ? UINT64_MAX : c->warmup + c->measure;
  /* The adaptations were taken from the machines' 16-bit counters in snapshots every 4096 cycles
   * from w0, whose period test also fired below w0 (unsigned t - w0), so they counted the
   * warm-up's cycles before w0 - 4096 as well. Kept so that every figure stays as main's
   * (adapt_per_msg, adapt_buf_per_msg); a_end = 0 counts the window alone. */
  s->a_end = s->w0 > 4096 ? s->w0 - 4096 : 0;
  s->gen_end = s->sync ? 1 : c->warmup + c->measure;
  s->t_end = s->sync ? c->drain : s->gen_end + c->drain;
  for (uint32_t i = 0; i < n; i++) {
    node_t *nd = &s->node[i];
    madpost_rng_seed(&nd->rng, seed, i);
    nd->cur = NIL;
    nd->pend = NIL;
    mp1_txf_init(&nd->txf); /* the window by default (docs/mp1_draft4.md §10.4) */
    if (!s->sync) net_arrival_start(&s->ar, &nd->arr, 0.0, &nd->rng);
  }
  s->bc_next = c->bcast == MP1_BCAST_P2P ? bcast_next(c, NIL) : NIL;
  return 0;
}

/* Node i's first chip in the chip mesh (its only one in a mesh). */
static uint32_t node_chip(const sim_t *s, uint32_t i) {
  return s->per == 1 ? i : (i / s->c->kx) * s->vkx + i % s->c->kx;
}

/* Broadcasts and the end of the run, before cycle t: 1 when the run is over (drained), -1 out of
 * memory, else 0. */
static int sim_control(sim_t *s, uint64_t t) {
  const mp1_sim_cfg_t *c = s->c;
  if (s->sync && c->bcast == MP1_BCAST_HW) {
    if (t == 0 && broadcast(s, t)) return -1;
  } else if (s->sync && c->bcast == MP1_BCAST_P2P) {
    /* the source sends to each node of the domain in turn, as its queue takes them */
    node_t *nd = &s->node[c->bcast_src];
    while (s->bc_next != NIL && (nd->cur == NIL || nd->qn < c->queue)) {
      if (generate(s, c->bcast_src, s->bc_next, t)) return -1;
      s->bc_next = bcast_next(c, s->bc_next);
    }
    if (s->bc_next == NIL && t > 0 && network_idle(s)) return 1;
  } else if (t >= s->gen_end && network_idle(s)) {
    return 1; /* drained */
  }
  return 0;
}

/* The sources' arrivals of cycle t, then every interface drives its chips' injection channels;
 * -1 out of memory, else 0. */
static int sim_sources(sim_t *s, uint64_t t) {
  const mp1_sim_cfg_t *c = s->c;
  const int gen = t < s->gen_end && !c->bcast;
  for (uint32_t i = 0; i < s->n; i++) {
    node_t *nd = &s->node[i];
    if (gen) {
      const uint32_t k = s->sync ? 1 : net_arrival_count(&s->ar, &nd->arr, t, &nd->rng);
      for (uint32_t a = 0; a < k; a++) {
        const int64_t d = net_traffic_dest(&s->tr, i, &nd->rng);
        if (d >= 0 && generate(s, i, (uint32_t)d, t)) return -1;
      }
    }
    const uint32_t v = node_chip(s, i);
    for (uint32_t k = 0; k < s->per; k++) s->in[v + s->vof[k]].inj_dat = nd->tx_dat;
  }
  return 0;
}

/* After the mesh's evaluation: the interfaces take their reception chunks and their senders
 * their stop. Returns the first chip whose err is set (docs/mp1_draft4.md §6), else NIL. */
static uint32_t sim_interfaces(sim_t *s, uint64_t t) {
  const int win = in_window(s, t);
  uint32_t any_err = 0;
  for (uint32_t v = 0; v < s->nc; v++) {
    /* an idle chunk between segments leaves the receiver as it is (mp1_rxf_step) */
    const mp1_rxf_t *rf = &s->chip[v].rxf;
    if ((s->out[v].rcv_dat & 7u) | rf->ic | rf->iseg) rx_chunk(s, v, s->out[v].rcv_dat, t);
    any_err |= s->out[v].err;
  }
  if (any_err) return mp1_mesh_first_err(s->out, s->nc);
  for (uint32_t i = 0; i < s->n; i++) {
    node_t *nd = &s->node[i];
    if (win) s->qsum += nd->qn;
    /* one injection channel to a torus node's four chips: the addressed one's controller holds
     * stop, the others skip the message with stop low (docs/mp1.md §11.3) */
    const uint32_t v = node_chip(s, i);
    uint32_t stop = 0;
    for (uint32_t k = 0; k < s->per; k++) stop |= s->out[v + s->vof[k]].inj_stop;
    tx_step(s, nd, stop, t);
  }
  return NIL;
}

/* Every chip's measurements from this cycle's events, then the clock edge. The measurements
 * share nothing with the interfaces, so their order does not matter. */
static void sim_clock(sim_t *s, uint64_t t) {
  const int win = in_window(s, t), win_adapt = win || t < s->a_end;
  for (uint32_t v = 0; v < s->nc; v++) chip_sample(s, v, win, win_adapt);
  mp1_mesh_clock(&s->st, &s->nx);
}

/* The channels' window sums as utilisations (004 §4.2: a channel is in use while assigned). */
static void sim_util(const sim_t *s, double W) {
  mp1_sim_result_t *r = s->r;
  const double nch = (double)s->nc * 8;
  uint64_t busy = 0, dead = 0, wait = 0, maxb = 0, maxl = 0, wmax = 0;
  for (uint32_t ix = 0; ix < s->nc * 8; ix++) {
    busy += s->ch_busy[ix];
    dead += s->ch_dead[ix];
    wait += s->ch_wait[ix];
    /* util_wait_max is the busiest channel's: how much of util_max is blocking */
    if (s->ch_busy[ix] > maxb) maxb = s->ch_busy[ix], wmax = s->ch_wait[ix];
    if (s->ch_busy[ix] - s->ch_dead[ix] > maxl) maxl = s->ch_busy[ix] - s->ch_dead[ix];
  }
  r->util_mean = 100.0 * (double)busy / (W * nch);
  r->util_max = 100.0 * (double)maxb / W;
  r->util_msg_max = 100.0 * (double)maxl / W;
  r->util_dead_mean = 100.0 * (double)dead / (W * nch);
  r->util_wait_mean = 100.0 * (double)wait / (W * nch);
  r->util_wait_max = 100.0 * (double)wmax / W;
}

/* The run's figures, after its last cycle t. */
static void sim_figures(sim_t *s, uint64_t t) {
  const mp1_sim_cfg_t *c = s->c;
  mp1_sim_result_t *r = s->r;
  const uint32_t n = s->n;
  const uint64_t wlen = s->sync ? t : (t < s->w1 ? (t > s->w0 ? t - s->w0 : 0) : c->measure);
  const double W = wlen ? (double)wlen : 1.0;
  for (uint32_t i = 0; i < n; i++) r->in_queue += s->node[i].qn + (s->node[i].cur != NIL);
  /* drops: messages no one could take (bad codes, addresses and lengths, cut segments, bad
   * selections, injection drops); strays (docs/mp1_draft4.md §4.6): end codes or segments no
   * message could take, a segment discarded for want of a slot among them, which a sender
   * honouring stop never causes; a stray is no message of its own */
  r->net_dropped += s->drops;
  r->net_stray += s->strays;
  r->in_network = s->m_live - r->in_queue;
  const double dn = r->w_delivered ? (double)r->w_delivered : 1.0;
  r->lat_mean = s->lat_sum / dn;
  r->lat_max = s->lat_max;
  r->lat_sd = r->w_delivered > 1 ? sqrt(fmax(0.0, s->lat_sq / dn - r->lat_mean * r->lat_mean)) : 0;
  r->inj_delay_mean = s->inj_n ? s->inj_sum / (double)s->inj_n : 0;
  r->net_lat_mean = s->net_sum / dn;
  r->hops_mean = s->hop_sum / dn;
  r->thr_bytes = (double)r->w_bytes / W;
  const uint32_t kn = c->kx > c->ky ? c->kx : c->ky;
  r->thr_frac = 100.0 * ((double)r->w_bytes / W / n) / (8.0 / (3.0 * kn));
  sim_util(s, W);
  r->adapt_per_msg = (double)s->adapt / dn;
  r->adapt_buf_per_msg = (double)s->adapt_buf / dn;
  r->buf_hold_mean = (double)s->hold / W;
  r->buf_busy_mean = (double)s->nbusy / W;
  r->queue_mean = (double)s->qsum / (W * n);
  r->saturated = r->w_overflow > 0;
  r->complete = s->m_live == 0;
  if (!s->sync) r->completion = 0;
}

/* The caller's per-channel figures (--channels). */
static void sim_chan_out(const sim_t *s, mp1_sim_chan_t *chan) {
  for (size_t ix = 0; ix < (size_t)s->nc * 8; ix++) {
    chan->cross[ix] = s->ch_cross[ix];
    chan->busy[ix] = s->ch_busy[ix];
    chan->dead[ix] = s->ch_dead[ix];
    if (chan->wait) chan->wait[ix] = s->ch_wait[ix];
  }
}

int mp1_sim_run(const mp1_sim_cfg_t *c, uint64_t seed, mp1_sim_result_t *r, mp1_sim_chan_t *chan,
                mp1_sim_progress_fn cb, void *cb_ctx, char *err, size_t errlen) {
  if (mp1_sim_cfg_check(c, err, errlen)) return -1;
  sim_t S, *s = &S;
  if (sim_setup(s, c, seed, r, chan, err, errlen)) return -1;
  int oom = 0;
  uint32_t broken = NIL; /* the chip whose err stopped the run */
  uint64_t t;
  const uint64_t tick = s->t_end / 100 + 1;
  for (t = 0; t < s->t_end; t++) {
    if (cb && t % tick == 0) cb(cb_ctx, (double)t / (double)s->t_end);
    const int ctl = sim_control(s, t);
    if (ctl > 0) break;
    if (ctl < 0 || sim_sources(s, t)) {
      oom = 1;
      t++; /* the loop's increment, as the cycle ended */
      break;
    }
    mp1_mesh_eval(&s->st.cfg, &s->st, s->in, s->out, &s->nx, &s->ev);
    broken = sim_interfaces(s, t);
    if (broken != NIL) break;
    sim_clock(s, t);
  }
  if (broken != NIL) {
    const int rc = invariant_fail(s, broken, t, err, errlen);
    sim_free(s);
    return rc;
  }
  chan_flush(s);
  if (cb) cb(cb_ctx, 1.0);
  if (oom) {
    sim_free(s);
    return net_fail(err, errlen, "out of memory (message records)");
  }
  sim_figures(s, t);
  if (chan) sim_chan_out(s, chan);
  sim_free(s);
  return 0;
}

/* Four uint32 counters per channel (busy, dead, pending, waiting); a run asked for per-channel
 * figures (mp1_sim_chan_t) keeps a fifth, the crossings, and --channels' own uint64s. The
 * injection queues are rings through the message records (node_t), which are not counted here. */
size_t mp1_sim_bytes_per_node(const mp1_sim_cfg_t *c) {
  const size_t per = c->torus ? 4 : 1;
  return per * (sizeof(mp1_chip_state_t) + sizeof(mp1_chip_next_t) + sizeof(mp1_mesh_in_t) +
                sizeof(mp1_mesh_out_t) + sizeof(mp1_chip_ev_t) + sizeof(chip_t) +
                8 * 4 * sizeof(uint32_t)) +
         sizeof(node_t);
}
