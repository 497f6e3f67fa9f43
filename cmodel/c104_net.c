/* C104 networks (docs/c104.md §17): wiring, generated interval tables, the cycle loop (every
 * block evaluated, then clocked), workload, packet tracking outside the hardware and figures. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c104_net.h"
#include "c104_net_int.h"
#include "mp1_err.h"

#define UNSET UINT64_MAX
#define NOID 0xFFFFFFFFu
/* The tracking lost a packet: a model bug, counted (c104_net_result_t.track_errs must be 0). */
#define TERR(w) ((w)->track_errs++)

/* Per transmitting link end: the packets whose first token was written to its transmit FIFO and
   not yet taken by the receiver (§17.6), oldest first; the first `cur` of them are on the wire. */
typedef struct {
  uint32_t id[C104_NET_TRACK];
  uint32_t first[C104_NET_TRACK]; /* index of the first token among the normal tokens written */
  uint32_t head, n, cur;
  uint32_t written, loaded;
  uint8_t in_pkt;
} track_t;

/* A packet in flight: ids are indices into a pool (a header is not unique in flight: a VL's next
   packet leaves once the previous one's header has arrived, before its tail). */
typedef struct {
  uint64_t t_create, t_out, t_int, msg_t0;
  uint32_t hdr, src_end, msg_len, next_free;
  uint8_t live, eom;
} ptab_t;

typedef struct {
  uint64_t n;
  double sum, sumsq, max;
} acc_t;

struct c104_net {
  c104_net_cfg_t cfg;
  uint64_t seed;
  uint32_t N, S, K, P, H, R0, top;
  int circ;
  double rate;
  dslink_cfg_t lc;
  /* switches */
  c104_cfg_t *swc;
  c104_setup_t *setup;
  c104_state_t *sw;
  c104_next_t *swn;
  c104_in_t *swin;
  c104_out_t swout;
  /* nodes and their link ends */
  t9k_node_cfg_t *nc;
  t9k_node_state_t *ns;
  t9k_node_next_t *nn;
  t9k_node_ev_t *nev;
  dslink_state_t *nl;
  dslink_next_t *nln;
  dslink_ev_t *nlev;
  /* link ends: e < 32 S switch s = e / 32 port e % 32; then node n link l at 32 S + n P + l */
  uint32_t nend;
  int32_t *peer;
  uint8_t *internal; /* a switch end wired to a switch end (loopback included) */
  uint32_t *used;    /* the ends in use, in order */
  uint32_t nused;
  track_t *trk;
  uint64_t *ubits;
  uint32_t *sl_id;   /* per switch slice: the packet it holds */
  uint32_t *rx_id;   /* per node link: the packet being received */
  uint8_t *rx_open;
  ptab_t *ptab;      /* the packet pool */
  uint32_t pcap, pfree, plive;
  uint32_t *tx_id;   /* per node link: the packet it is handing over */
  uint64_t *done, *dlv; /* per sender end n K + c: messages completed at the sender, delivered */
  /* workload */
  uint16_t *vl_to;
  uint32_t *vlpeer;
  uint32_t perm;     /* a permutation pattern: the sending ends 0, 2, .. K - 2 taken in turn */
  uint32_t *prr;     /* per node: the permutation's next sending end / 2 */
  rng_t *rng;
  mp1_arrival_t *arr;
  mp1_traffic_cfg_t tr;
  mp1_arrival_cfg_t ar;
  t9k_node_msg_t **man;
  uint32_t *man_n, *man_cap;
  t9k_node_msg_t *mbuf;
  uint32_t mcap;
  /* counters */
  uint64_t cyc, generated, delivered, corrupt, track_errs;
  uint64_t w_generated, w_dropped, w_delivered, w_bytes, w_packets, w_acks, w_unrouted;
  acc_t a_msg, a_create, a_out, a_routed;
  /* switch counters, accumulated across their 16-bit wraps */
  uint16_t *last_cnt; /* 5 per slice: pkt, bad, short, cut, stray */
  uint64_t tot_cnt[5], win_pkt0, win_pkt1;
  int win_pkt0_set, win_pkt1_set;
  c104_net_pkt_fn pkt_fn;
  void *pkt_ctx;
};

/* ---- Wiring and tables (§17.1-§17.3) ------------------------------------------------------- */

static uint32_t sw_end(const c104_net_t *w, uint32_t s, uint32_t p) {
  (void)w;
  return s * C104_PORTS + p;
}
static uint32_t node_end(const c104_net_t *w, uint32_t n, uint32_t l) {
  return w->S * C104_PORTS + n * w->P + l;
}
static void connect(c104_net_t *w, uint32_t a, uint32_t b) {
  w->peer[a] = (int32_t)b;
  w->peer[b] = (int32_t)a;
}

static uint32_t msb(uint32_t x) { return 31u - (uint32_t)__builtin_clz(x); }

/* The next-hop port of header h at switch s, or -1 (no route: a discard entry). */
static int next_port(const c104_net_t *w, uint32_t s, uint32_t h) {
  const int uni = w->cfg.universal != 0;
  const int node_hdr = h < 2u * w->N * w->K;
  const int rnd_hdr = uni && h >= w->R0 && h < w->R0 + w->S;
  if (!node_hdr && !rnd_hdr)
    return -1;
  const uint32_t node = (h >> 1) / w->K;
  switch (w->cfg.topo) {
  case C104_NET_LINE:
    if (!node_hdr)
      return -1;
    if (node == 0)
      return s == 0 ? 0 : 3;
    return s == w->S - 1 ? 1 : 2;
  case C104_NET_GRID: {
    const uint32_t H = w->cfg.gh, x = s / H, y = s % H;
    const uint32_t t = node_hdr ? node : h - w->R0, tx = t / H, ty = t % H;
    if (!uni && w->cfg.grid_links == 2) { /* hunt groups 4-5 +X, 6-7 -X, 8-9 +Y, 10-11 -Y */
      if (tx != x) return tx > x ? 4 : 6;
      if (ty != y) return ty > y ? 8 : 10;
      return 0;
    }
    const int b = node_hdr ? 4 : 8; /* phase 2 (or plain) and phase 1 ports */
    if (tx > x) return b;
    if (tx < x) return b + 1;
    if (ty > y) return b + 2;
    if (ty < y) return b + 3;
    return node_hdr ? 0 : 12;
  }
  case C104_NET_PUMA: {
    const uint32_t t = node_hdr ? node / 4 : h - w->R0;
    if (t == s)
      return node_hdr ? (int)(4 * (node % 4)) : 28;
    const uint32_t d = msb(t ^ s);
    return (int)(16 + 2 * d + (node_hdr && uni ? 1 : 0));
  }
  default:
    return -1;
  }
}

/* Run-length encoding of next_port over every header up to the top of the header space (§17.2). */
static int build_table(c104_net_t *w, uint32_t s, c104_setup_t *su, char *err, size_t n) {
  uint32_t ne = 0;
  int prev = next_port(w, s, 0);
  for (uint32_t h = 1; h <= w->top + 1u; h++) {
    const int p = h <= w->top ? next_port(w, s, h) : -2; /* -2 closes the last run */
    if (p == prev)
      continue;
    if (ne >= C104_NINT)
      return mp1_fail(err, n, "switch %u: the interval table needs more than %u entries", s,
                      (unsigned)C104_NINT);
    su->ival[ne].hi = h - 1u;
    su->ival[ne].port = prev < 0 ? 0 : (uint32_t)prev;
    su->ival[ne].valid = prev >= 0; /* a gap between header ranges: a discard entry */
    ne++;
    prev = p;
  }
  su->nint = ne;
  return 0;
}

static int build(c104_net_t *w, char *err, size_t n) {
  const c104_net_cfg_t *c = &w->cfg;
  const int uni = c->universal != 0;
  for (uint32_t e = 0; e < w->nend; e++)
    w->peer[e] = -1;
  if (c->topo == C104_NET_PAIR || (c->topo == C104_NET_LINE && w->S == 0)) {
    connect(w, node_end(w, 0, 0), node_end(w, 1, 0));
  } else if (c->topo == C104_NET_LINE) {
    connect(w, node_end(w, 0, 0), sw_end(w, 0, 0));
    connect(w, node_end(w, 1, 0), sw_end(w, w->S - 1, 1));
    for (uint32_t i = 0; i + 1 < w->S; i++)
      connect(w, sw_end(w, i, 2), sw_end(w, i + 1, 3));
  } else if (c->topo == C104_NET_GRID) {
    const uint32_t W = c->gw, H = c->gh;
    for (uint32_t x = 0; x < W; x++)
      for (uint32_t y = 0; y < H; y++) {
        const uint32_t s = x * H + y;
        for (uint32_t l = 0; l < 4; l++)
          connect(w, node_end(w, s, l), sw_end(w, s, l));
        if (!uni && c->grid_links == 2) { /* two links to each neighbour, a hunt group (§17.1) */
          for (uint32_t k = 0; k < 2; k++) {
            if (x + 1 < W)
              connect(w, sw_end(w, s, 4 + k), sw_end(w, s + H, 6 + k));
            if (y + 1 < H)
              connect(w, sw_end(w, s, 8 + k), sw_end(w, s + 1, 10 + k));
          }
          continue;
        }
        for (uint32_t ph = 0; ph < 1u + (uint32_t)uni; ph++) {
          const uint32_t b = ph ? 8 : 4;
          if (x + 1 < W)
            connect(w, sw_end(w, s, b), sw_end(w, s + H, b + 1));
          if (y + 1 < H)
            connect(w, sw_end(w, s, b + 2), sw_end(w, s + 1, b + 3));
        }
        if (uni)
          w->peer[sw_end(w, s, 12)] = (int32_t)sw_end(w, s, 12);
      }
  } else {
    for (uint32_t s = 0; s < 64; s++) {
      for (uint32_t e = 0; e < 4; e++)
        for (uint32_t l = 0; l < 4; l++)
          connect(w, node_end(w, 4 * s + e, l), sw_end(w, s, 4 * e + l));
      for (uint32_t d = 0; d < 6; d++) {
        const uint32_t t = s ^ (1u << d);
        if (t > s) {
          connect(w, sw_end(w, s, 16 + 2 * d), sw_end(w, t, 16 + 2 * d));
          connect(w, sw_end(w, s, 17 + 2 * d), sw_end(w, t, 17 + 2 * d));
        }
      }
      if (uni)
        w->peer[sw_end(w, s, 28)] = (int32_t)sw_end(w, s, 28);
    }
  }
  /* switch setups */
  for (uint32_t s = 0; s < w->S; s++) {
    c104_setup_t *su = &w->setup[s];
    c104_setup_default(su);
    su->rr = c->rr != 0;
    uint32_t used = 0;
    for (uint32_t p = 0; p < C104_PORTS; p++)
      if (w->peer[sw_end(w, s, p)] >= 0)
        used |= 1u << p;
    if (c->topo == C104_NET_GRID) {
      su->grp = 0xFFFFFFF1u; /* ports 0-3 one hunt group */
      if (!uni && c->grid_links == 2)
        su->grp &= ~0xAA0u; /* and 4-5, 6-7, 8-9, 10-11 */
    } else if (c->topo == C104_NET_PUMA) {
      su->grp = 0xFFFFFFFFu & ~0xEEEEu; /* each node's four links one group */
      if (!uni)
        for (uint32_t d = 0; d < 6; d++)
          su->grp &= ~(1u << (17 + 2 * d)); /* the two links of a dimension: one fat link */
    }
    for (uint32_t p = 0; p < C104_PORTS; p++) {
      su->port[p].hdr2 = w->H == 2;
      rng_t r;
      rng_seed(&r, w->seed, 0x1040000u + 32u * s + p);
      uint32_t sd = (uint32_t)(rng_next(&r) & 0xFFFFu);
      su->port[p].seed = sd ? sd : 1;
      const int32_t pe = w->peer[sw_end(w, s, p)];
      const int from_node = pe >= (int32_t)(w->S * C104_PORTS);
      if (uni && from_node) {
        su->port[p].rnd = 1;
        su->port[p].rlo = w->R0;
        su->port[p].rhi = w->R0 + w->S - 1;
      }
      if (uni && pe == (int32_t)sw_end(w, s, p))
        su->port[p].del = 2; /* the loopback: strip the random header, route on (§11.3) */
    }
    if (build_table(w, s, su, err, n))
      return -1;
    w->swc[s].tok_ports = ~used;
    w->swc[s].link = w->lc;
    c104_reset(&w->swc[s], &w->sw[s]);
    c104_setup_load(su, &w->sw[s]);
    memset(&w->swin[s], 0, sizeof w->swin[s]);
    for (uint32_t p = 0; p < C104_PORTS; p++)
      w->swin[s].link_en[p] = (used >> p) & 1u;
  }
  w->nused = 0;
  for (uint32_t e = 0; e < w->nend; e++) {
    if (w->peer[e] < 0)
      continue;
    w->used[w->nused++] = e;
    w->internal[e] = e < w->S * C104_PORTS && (uint32_t)w->peer[e] < w->S * C104_PORTS;
  }
  return 0;
}

/* ---- Construction -------------------------------------------------------------------------- */

#define ALLOC(p, n)                                                                                \
  do {                                                                                             \
    (p) = calloc((size_t)(n) + 1u, sizeof *(p));                                            \
    if (!(p))                                                                                      \
      goto oom;                                                                                    \
  } while (0)

int c104_net_new(const c104_net_cfg_t *c, uint64_t seed, c104_net_t **out, char *err, size_t n) {
  *out = NULL;
  if (c104_net_cfg_check(c, err, n))
    return -1;
  c104_net_t *w = calloc(1, sizeof *w);
  if (!w)
    return mp1_fail(err, n, "out of memory");
  w->cfg = *c;
  w->seed = seed;
  c104_net_shape(c, &w->N, &w->S, &w->P);
  if (c104_net_wiring(c, &w->K, &w->circ, &w->H, err, n)) {
    free(w);
    return -1;
  }
  w->R0 = 2u * w->N * w->K;
  w->top = w->R0 - 1u + (c->universal ? w->S : 0u);
  w->rate = c->pattern == C104_NET_PATTERN_NONE ? 0.0 : c104_net_rate(c, w->H);
  dslink_cfg_default(&w->lc);
  w->lc.rx_depth = 40; /* §4, §17: every link end alike */
  w->lc.tx_depth = 35;
  w->lc.tx_credit_max = 40;
  const uint32_t N = w->N, S = w->S, P = w->P, K = w->K;
  w->nend = S * C104_PORTS + N * P;
  ALLOC(w->swc, S);
  ALLOC(w->setup, S);
  ALLOC(w->sw, S);
  ALLOC(w->swn, S);
  ALLOC(w->swin, S);
  ALLOC(w->nc, N);
  ALLOC(w->ns, N);
  ALLOC(w->nn, N);
  ALLOC(w->nev, N);
  ALLOC(w->nl, N * P);
  ALLOC(w->nln, N * P);
  ALLOC(w->nlev, N * P);
  ALLOC(w->peer, w->nend);
  ALLOC(w->internal, w->nend);
  ALLOC(w->used, w->nend);
  ALLOC(w->trk, w->nend);
  ALLOC(w->ubits, w->nend);
  ALLOC(w->sl_id, S * C104_PORTS);
  ALLOC(w->rx_id, N * P);
  ALLOC(w->rx_open, N * P);
  w->pcap = 1024;
  ALLOC(w->ptab, w->pcap);
  ALLOC(w->tx_id, N * P);
  ALLOC(w->done, (size_t)N * K);
  ALLOC(w->dlv, (size_t)N * K);
  ALLOC(w->vl_to, (size_t)N * N);
  ALLOC(w->vlpeer, (size_t)N * K);
  ALLOC(w->prr, N);
  ALLOC(w->rng, N);
  ALLOC(w->arr, N);
  ALLOC(w->man, N);
  ALLOC(w->man_n, N);
  ALLOC(w->man_cap, N);
  ALLOC(w->last_cnt, S * C104_PORTS * 5);
  w->mcap = 64;
  ALLOC(w->mbuf, w->mcap);
  if (build(w, err, n))
    goto fail;
  if (c104_net_vl_wiring(c, seed, N, K, w->circ, w->vl_to, w->vlpeer, err, n))
    goto fail;
  for (uint32_t i = 0; i < N; i++) {
    w->nc[i] = (t9k_node_cfg_t){.node = i, .nnodes = N, .nvl = K, .nlinks = P, .hbytes = w->H,
                                .qlimit = c->qlimit};
    if (t9k_node_init(&w->nc[i], &w->ns[i], &w->nn[i], err, n))
      goto fail;
    for (uint32_t ci = 0; ci < K; ci++) {
      const uint32_t pe = w->vlpeer[(size_t)i * K + ci];
      if (pe != T9K_NODE_NOPEER)
        t9k_node_set_peer(&w->nc[i], &w->ns[i], &w->nn[i], ci, pe / K, pe % K);
    }
    for (uint32_t l = 0; l < P; l++)
      dslink_reset(&w->lc, &w->nl[i * P + l]);
    rng_seed(&w->rng[i], seed, i);
  }
  for (uint32_t i = 0; i < S * C104_PORTS; i++)
    w->sl_id[i] = NOID;
  for (uint32_t i = 0; i < w->pcap; i++)
    w->ptab[i].next_free = i + 1 < w->pcap ? i + 1 : NOID;
  w->pfree = 0;
  c104_net_traffic_cfg(c, &w->tr);
  w->perm = w->tr.pattern == MP1_TR_SHUFFLE || w->tr.pattern == MP1_TR_BITREV ||
            w->tr.pattern == MP1_TR_TRANSPOSE || w->tr.pattern == MP1_TR_BITCOMP;
  w->ar = c->arrival;
  w->ar.rate = w->rate;
  for (uint32_t i = 0; i < N; i++)
    mp1_arrival_start(&w->ar, &w->arr[i], 0.0, &w->rng[i]);
  *out = w;
  return 0;
oom:
  mp1_fail(err, n, "out of memory for the %s network", c104_net_topo_name(c->topo));
fail:
  c104_net_free(w);
  return -1;
}

void c104_net_free(c104_net_t *w) {
  if (!w)
    return;
  for (uint32_t i = 0; w->nn && w->ns && i < w->N; i++)
    t9k_node_free(&w->ns[i], &w->nn[i]);
  for (uint32_t i = 0; w->man && i < w->N; i++)
    free(w->man[i]);
  void *p[] = {w->swc,  w->setup, w->sw,    w->swn,   w->swin,    w->nc,     w->ns,      w->nn,
               w->nev,  w->nl,    w->nln,   w->nlev,  w->peer,    w->internal, w->used,  w->trk,
               w->ubits, w->sl_id, w->rx_id, w->rx_open, w->ptab, w->tx_id, w->done, w->dlv,    w->vl_to,  w->vlpeer, w->prr,
               w->rng,  w->arr,   w->man,   w->man_n, w->man_cap, w->last_cnt, w->mbuf};
  for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
    free(p[i]);
  free(w);
}

int c104_net_send(c104_net_t *w, uint32_t n, uint32_t vl, uint32_t len) {
  if (n >= w->N || vl >= w->K)
    return -1;
  if (w->man_n[n] == w->man_cap[n]) {
    const uint32_t cap = w->man_cap[n] ? 2 * w->man_cap[n] : 8;
    t9k_node_msg_t *m = realloc(w->man[n], cap * sizeof *m);
    if (!m)
      return -1;
    w->man[n] = m, w->man_cap[n] = cap;
  }
  w->man[n][w->man_n[n]++] = (t9k_node_msg_t){vl, len};
  w->generated++;
  if (w->cyc >= w->cfg.warmup && w->cyc < w->cfg.warmup + w->cfg.measure)
    w->w_generated++;
  return 0;
}

void c104_net_on_packet(c104_net_t *w, c104_net_pkt_fn fn, void *ctx) {
  w->pkt_fn = fn;
  w->pkt_ctx = ctx;
}

/* ---- The cycle ----------------------------------------------------------------------------- */

static dslink_state_t *end_st(c104_net_t *w, uint32_t e) {
  const uint32_t ns = w->S * C104_PORTS;
  return e < ns ? &w->sw[e / C104_PORTS].link[e % C104_PORTS] : &w->nl[e - ns];
}

static int in_window(const c104_net_t *w) {
  return w->cyc >= w->cfg.warmup && w->cyc < w->cfg.warmup + w->cfg.measure;
}

static void acc(acc_t *a, double v) {
  a->n++;
  a->sum += v;
  a->sumsq += v * v;
  if (v > a->max)
    a->max = v;
}

static uint32_t trk_pop(c104_net_t *w, uint32_t e_rx) {
  const int32_t tx = w->peer[e_rx];
  track_t *t = tx >= 0 ? &w->trk[tx] : NULL;
  if (!t || !t->n || !t->cur) {
    TERR(w);
    return NOID;
  }
  const uint32_t id = t->id[t->head];
  t->head = (t->head + 1u) % C104_NET_TRACK;
  t->n--, t->cur--;
  return id;
}

static uint32_t pk_alloc(c104_net_t *w) {
  if (w->pfree == NOID) {
    const uint32_t cap = 2 * w->pcap;
    ptab_t *p = realloc(w->ptab, cap * sizeof *p);
    if (!p)
      return NOID;
    for (uint32_t i = w->pcap; i < cap; i++)
      p[i] = (ptab_t){.next_free = i + 1 < cap ? i + 1 : NOID};
    w->ptab = p, w->pfree = w->pcap, w->pcap = cap;
  }
  const uint32_t id = w->pfree;
  w->pfree = w->ptab[id].next_free;
  w->plive++;
  return id;
}

/* Packet id delivered to node n on link l (its end token popped); bytes: the message's as the
   receiver counted them, when this end token is an EOM. */
static void deliver(c104_net_t *w, uint32_t n, uint32_t id, int msg, uint32_t bytes) {
  if (id == NOID || id >= w->pcap || !w->ptab[id].live) {
    TERR(w);
    return;
  }
  ptab_t *p = &w->ptab[id];
  const uint32_t dst = (p->hdr >> 1) / w->K;
  if (dst != n)
    TERR(w); /* the node counts it misrouted too */
  const int win = in_window(w);
  c104_net_pkt_t rec = {.hdr = p->hdr, .ack = p->hdr & 1u, .src = p->src_end / w->K, .dst = dst,
                        .t_create = p->t_create, .t_out = p->t_out, .t_int = p->t_int,
                        .t_deliver = w->cyc};
  if (win) {
    w->w_packets++;
    w->w_acks += p->hdr & 1u;
    acc(&w->a_create, (double)(w->cyc - p->t_create));
    if (p->t_out != UNSET)
      acc(&w->a_out, (double)(w->cyc - p->t_out));
    if (p->t_int != UNSET)
      acc(&w->a_routed, (double)(w->cyc - p->t_int));
    else
      w->w_unrouted++;
  }
  if (!(p->hdr & 1u) && p->eom) {
    /* the message's last packet: the message is delivered */
    w->delivered++;
    w->dlv[p->src_end]++;
    if (!msg || bytes != p->msg_len)
      w->corrupt++;
    if (win) {
      w->w_delivered++;
      w->w_bytes += bytes;
      acc(&w->a_msg, (double)(w->cyc - p->msg_t0));
    }
  } else if (msg) {
    w->corrupt++; /* an EOM where the sender put none */
  }
  p->live = 0;
  p->next_free = w->pfree;
  w->pfree = id;
  w->plive--;
  if (w->pkt_fn)
    w->pkt_fn(w->pkt_ctx, &rec);
}

/* The 16-bit switch counters into 64-bit totals (called often enough that none wraps twice). */
static void sample_counters(c104_net_t *w) {
  for (uint32_t s = 0; s < w->S; s++) {
    const c104_regs_t *r = &w->sw[s].r;
    for (uint32_t p = 0; p < C104_PORTS; p++) {
      const uint16_t v[5] = {r->cnt_pkt[p], r->cnt_bad[p], r->cnt_short[p], r->cnt_cut[p],
                             r->cnt_stray[p]};
      uint16_t *last = &w->last_cnt[(s * C104_PORTS + p) * 5];
      for (int k = 0; k < 5; k++) {
        w->tot_cnt[k] += (uint16_t)(v[k] - last[k]);
        last[k] = v[k];
      }
    }
  }
}

int c104_net_step(c104_net_t *w) {
  const uint32_t N = w->N, S = w->S, P = w->P, K = w->K;
  const int win = in_window(w);
  int bug = 0;
  if (w->cyc == w->cfg.warmup) {
    sample_counters(w);
    w->win_pkt0 = w->tot_cnt[0], w->win_pkt0_set = 1;
  }
  /* 1. endpoints: packet interfaces, workload (E2), evals; their link ends */
  for (uint32_t i = 0; i < N; i++) {
    t9k_node_in_t in;
    dslink_out_t lo[T9K_NODE_LINKS_MAX];
    for (uint32_t l = 0; l < P; l++) {
      dslink_outputs(&w->lc, &w->nl[i * P + l], &lo[l]);
      in.tx_ready[l] = lo[l].tx_ready;
      in.rx_valid[l] = lo[l].rx_valid;
      in.rx_data[l] = lo[l].rx_data;
      in.rx_kind[l] = lo[l].rx_kind;
    }
    uint32_t k = w->rate > 0 ? mp1_arrival_count(&w->ar, &w->arr[i], w->cyc, &w->rng[i]) : 0;
    const uint32_t need = k + w->man_n[i];
    if (need > w->mcap) {
      t9k_node_msg_t *m = realloc(w->mbuf, need * sizeof *m);
      if (!m)
        return -1;
      w->mbuf = m, w->mcap = need;
    }
    uint32_t nm = 0;
    for (uint32_t j = 0; j < w->man_n[i]; j++)
      w->mbuf[nm++] = w->man[i][j];
    w->man_n[i] = 0;
    for (uint32_t a = 0; a < k; a++) {
      uint32_t vl;
      if (w->circ) {
        vl = rng_below(&w->rng[i], K); /* §17.4: a uniformly drawn end of the circulant */
      } else {
        const int64_t d = mp1_traffic_dest(&w->tr, i, &w->rng[i]);
        if (d < 0)
          continue; /* a permutation's fixed point sends nothing */
        vl = w->vl_to[(size_t)i * N + (uint32_t)d];
        if (w->perm && K >= 4) {
          vl = 2u * w->prr[i];
          w->prr[i] = (w->prr[i] + 1u) % (K / 2u);
        }
      }
      w->mbuf[nm++] = (t9k_node_msg_t){vl, w->cfg.msg_len};
      w->generated++;
      w->w_generated += win;
    }
    in.n_new = nm;
    in.new_msgs = w->mbuf;
    t9k_node_out_t no;
    if (t9k_node_eval(&w->nc[i], &w->ns[i], &in, &no, &w->nn[i], &w->nev[i]))
      bug = 1;
    if (win)
      w->w_dropped += w->nev[i].dropped;
    for (uint32_t l = 0; l < P; l++) {
      const uint32_t e = node_end(w, i, l);
      const dslink_state_t *ps = end_st(w, (uint32_t)w->peer[e]);
      const dslink_in_t li = {.d = ps->r.tx_d, .s = ps->r.tx_s, .link_en = 1,
                              .tx_valid = no.tx_valid[l], .tx_data = no.tx_data[l],
                              .tx_kind = no.tx_kind[l], .rx_ready = no.rx_ready[l]};
      dslink_out_t o;
      if (dslink_eval(&w->lc, &w->nl[i * P + l], &li, &o, &w->nln[i * P + l], &w->nlev[i * P + l]))
        bug = 1;
    }
  }
  /* 2. switches */
  for (uint32_t s = 0; s < S; s++) {
    c104_in_t *in = &w->swin[s];
    for (uint32_t m = ~w->swc[s].tok_ports; m; m &= m - 1u) {
      const uint32_t p = (uint32_t)__builtin_ctz(m);
      const dslink_state_t *ps = end_st(w, (uint32_t)w->peer[sw_end(w, s, p)]);
      in->d[p] = ps->r.tx_d;
      in->s[p] = ps->r.tx_s;
    }
    if (c104_eval(&w->swc[s], &w->sw[s], in, &w->swout, &w->swn[s]))
      bug = 1;
  }
  /* 3. tracking (§17.6): loads onto the wire, first tokens written, packets taken */
  const uint32_t nsw = S * C104_PORTS;
  for (uint32_t u = 0; u < w->nused; u++) {
    const uint32_t e = w->used[u];
    const dslink_state_t *st = end_st(w, e);
    const dslink_next_t *nx;
    const dslink_ev_t *ev;
    uint32_t id = NOID;
    if (e < nsw) {
      const uint32_t s = e / C104_PORTS, p = e % C104_PORTS;
      nx = &w->swn[s].link[p];
      ev = &w->swn[s].link_ev[p];
      if (nx->txf_we) {
        const c104_regs_t *r = w->swn[s].keep_r ? &w->sw[s].r : &w->swn[s].r;
        id = w->sl_id[s * C104_PORTS + r->out_owner[p]];
      }
    } else {
      const uint32_t i = (e - nsw) / P, l = (e - nsw) % P;
      nx = &w->nln[e - nsw];
      ev = &w->nlev[e - nsw];
      (void)i, (void)l;
      id = w->tx_id[e - nsw];
    }
    track_t *t = &w->trk[e];
    if (ev->normal_sent) {
      const uint32_t kind = (st->txf_mem[st->r.txf_rptr] >> 8) & 3u;
      if (win)
        w->ubits[e] += kind == DSLINK_KIND_DATA ? 10u : 4u;
      t->loaded++;
      if (t->cur < t->n && t->first[(t->head + t->cur) % C104_NET_TRACK] == t->loaded - 1u) {
        const uint32_t pid = t->id[(t->head + t->cur) % C104_NET_TRACK];
        t->cur++;
        if (pid < w->pcap && w->ptab[pid].live) {
          ptab_t *pt = &w->ptab[pid];
          if (e >= nsw && pt->t_out == UNSET)
            pt->t_out = w->cyc;
          if (w->internal[e] && pt->t_int == UNSET)
            pt->t_int = w->cyc;
        }
      }
    }
    if (nx->txf_we) {
      const uint32_t kind = (nx->txf_wdata >> 8) & 3u;
      if (kind != DSLINK_KIND_ERR) {
        if (!t->in_pkt) {
          if (t->n >= C104_NET_TRACK) {
            TERR(w);
          } else {
            const uint32_t k = (t->head + t->n) % C104_NET_TRACK;
            t->id[k] = id;
            t->first[k] = t->written;
            t->n++;
          }
        }
        t->written++;
        t->in_pkt = kind == DSLINK_KIND_DATA;
      }
    }
  }
  /* slices taking a packet: leaving IDLE (§17.6) */
  for (uint32_t s = 0; s < S; s++) {
    if (w->swn[s].keep_r)
      continue;
    const c104_regs_t *q = &w->sw[s].r, *d = &w->swn[s].r;
    for (uint32_t m = ~w->swc[s].tok_ports; m; m &= m - 1u) {
      const uint32_t i = (uint32_t)__builtin_ctz(m);
      const int was_idle = q->sl_st[i] == C104_IDLE || q->sl_st[i] >= 6;
      const int is_idle = d->sl_st[i] == C104_IDLE || d->sl_st[i] >= 6;
      if (was_idle && !is_idle)
        w->sl_id[s * C104_PORTS + i] = trk_pop(w, sw_end(w, s, i));
    }
  }
  /* endpoints: packets taken and delivered, messages delivered and completed */
  for (uint32_t i = 0; i < N; i++) {
    const t9k_node_ev_t *ev = &w->nev[i];
    for (uint32_t l = 0; l < P; l++) {
      const uint32_t x = i * P + l;
      if (ev->rx_first[l]) {
        w->rx_id[x] = trk_pop(w, node_end(w, i, l));
        w->rx_open[x] = 1;
      }
      if (ev->rx_end[l] && w->rx_open[x]) {
        deliver(w, i, w->rx_id[x], ev->rx_msg[l], ev->rx_bytes[l]);
        w->rx_open[x] = 0;
      } else if (ev->rx_msg[l]) {
        TERR(w);
      }
      if (ev->msg_done[l])
        w->done[(size_t)i * K + ev->done_vl[l]]++;
    }
    for (uint32_t l = 0; l < P; l++) {
      if (!ev->sel[l])
        continue;
      const uint32_t id = pk_alloc(w);
      if (id == NOID)
        return -1;
      const uint32_t h = ev->sel_hdr[l];
      const int ack = h & 1u;
      w->ptab[id] = (ptab_t){.t_create = ev->sel_t0[l], .t_out = UNSET, .t_int = UNSET,
                             .msg_t0 = ev->sel_msg_t0[l], .hdr = h,
                             .src_end = i * K + ev->sel_vl[l], .msg_len = ev->sel_msg_len[l],
                             .next_free = NOID, .live = 1,
                             .eom = !ack && ev->sel_end[l] == DSLINK_KIND_EOM};
      w->tx_id[i * P + l] = id;
    }
  }
  /* 4. the clock edge */
  for (uint32_t i = 0; i < N; i++) {
    t9k_node_clock(&w->ns[i], &w->nn[i]);
    for (uint32_t l = 0; l < P; l++)
      dslink_clock(&w->nl[i * P + l], &w->nln[i * P + l]);
  }
  for (uint32_t s = 0; s < S; s++)
    c104_clock(&w->sw[s], &w->swn[s]);
  w->cyc++;
  if ((w->cyc & 1023u) == 0)
    sample_counters(w);
  if (w->cyc == w->cfg.warmup + w->cfg.measure) {
    sample_counters(w);
    w->win_pkt1 = w->tot_cnt[0], w->win_pkt1_set = 1;
  }
  return bug ? -1 : 0;
}

/* ---- Figures ------------------------------------------------------------------------------- */

static c104_net_stat_t stat_of(const acc_t *a) {
  c104_net_stat_t s = {a->n, 0, 0, 0};
  if (!a->n)
    return s;
  s.mean = a->sum / (double)a->n;
  s.max = a->max;
  if (a->n > 1) {
    const double var = (a->sumsq - a->sum * s.mean) / (double)(a->n - 1);
    s.ci = 1.96 * sqrt(var > 0 ? var : 0) / sqrt((double)a->n);
  }
  return s;
}

void c104_net_result(const c104_net_t *cw, c104_net_result_t *r) {
  c104_net_t *w = (c104_net_t *)cw; /* sampling the wrapping counters updates totals only */
  sample_counters(w);
  memset(r, 0, sizeof *r);
  const uint32_t N = w->N, K = w->K, P = w->P;
  r->seed = w->seed;
  r->cycles = w->cyc;
  r->nodes = N, r->switches = w->S, r->vls = K, r->links = P, r->hbytes = w->H;
  r->rate = w->rate;
  r->circulant = w->circ;
  r->generated = w->generated;
  r->delivered = w->delivered;
  r->corrupt = w->corrupt;
  for (uint32_t i = 0; i < N; i++) {
    const t9k_node_regs_t *q = &w->ns[i].r;
    r->accepted += q->msgs_accepted;
    r->dropped_qlimit += q->msgs_dropped;
    r->dropped_novl += q->msgs_nopeer;
    r->node_misrouted += q->misrouted;
    r->node_bad += q->bad;
    r->node_cut += q->cut;
    for (uint32_t c = 0; c < K; c++) {
      t9k_node_vl_t v;
      t9k_node_vl(&w->nc[i], &w->ns[i], c, &v);
      const size_t g = (size_t)i * K + c;
      r->in_flight += v.pending + v.active + w->done[g] - w->dlv[g];
    }
  }
  r->w_generated = w->w_generated;
  r->w_dropped = w->w_dropped;
  r->w_delivered = w->w_delivered;
  r->w_bytes = w->w_bytes;
  r->w_packets = w->w_packets;
  r->w_acks = w->w_acks;
  r->w_unrouted = w->w_unrouted;
  r->msg_lat = stat_of(&w->a_msg);
  r->life_create = stat_of(&w->a_create);
  r->life_out = stat_of(&w->a_out);
  r->life_routed = stat_of(&w->a_routed);
  const uint64_t wend = w->cfg.warmup + w->cfg.measure;
  const uint64_t wcyc = w->cyc <= w->cfg.warmup ? 0 : (w->cyc < wend ? w->cyc : wend) - w->cfg.warmup;
  if (wcyc) {
    const double us = (double)wcyc / 100.0;
    r->thr_msgs = (double)w->w_delivered / N / us;
    r->thr_bytes = (double)w->w_bytes / N / us;
    if (w->S && w->win_pkt0_set) {
      const uint64_t p1 = w->win_pkt1_set ? w->win_pkt1 : w->tot_cnt[0];
      r->pkts_per_c104_ms = (double)(p1 - w->win_pkt0) / w->S / (us / 1000.0);
    }
    double sum = 0, isum = 0;
    uint32_t cnt = 0, icnt = 0;
    for (uint32_t u = 0; u < w->nused; u++) {
      const uint32_t e = w->used[u];
      const double x = 100.0 * (double)w->ubits[e] / (double)wcyc;
      sum += x, cnt++;
      if (x > r->util_max)
        r->util_max = x;
      if (w->internal[e]) {
        isum += x, icnt++;
        if (x > r->util_int_max)
          r->util_int_max = x;
      }
    }
    r->util_mean = cnt ? sum / cnt : 0;
    r->util_int_mean = icnt ? isum / icnt : 0;
  }
  r->sw_bad = w->tot_cnt[1];
  r->sw_short = w->tot_cnt[2];
  r->sw_cut = w->tot_cnt[3];
  r->sw_stray = w->tot_cnt[4];
  for (uint32_t u = 0; u < w->nused; u++) {
    const dslink_regs_t *l = &end_st(w, w->used[u])->r;
    r->link_errs += l->cnt_par_err + l->cnt_esc_err + l->cnt_disc_err + l->cnt_cred_err +
                    l->cnt_proto_err + l->cnt_tmo_err + l->cnt_tx_spill + l->cnt_rx_cut;
  }
  r->track_errs = w->track_errs;
}

int c104_net_run(const c104_net_cfg_t *c, uint64_t seed, c104_net_result_t *r,
                 c104_net_progress_fn cb, void *cb_ctx, char *err, size_t errlen) {
  c104_net_t *w;
  if (c104_net_new(c, seed, &w, err, errlen))
    return -1;
  const uint64_t total = c->warmup + c->measure;
  for (uint64_t t = 0; t < total; t++) {
    if (c104_net_step(w)) {
      c104_net_free(w);
      return mp1_fail(err, errlen, "model invariant broken at cycle %llu (seed %llu)",
                      (unsigned long long)t, (unsigned long long)seed);
    }
    if (cb && (t & 4095u) == 4095u)
      cb(cb_ctx, (double)(t + 1) / (double)total);
  }
  if (cb)
    cb(cb_ctx, 1.0);
  c104_net_result(w, r);
  c104_net_free(w);
  return 0;
}

/* ---- Structure ----------------------------------------------------------------------------- */

uint64_t c104_net_cycle(const c104_net_t *w) { return w->cyc; }
uint32_t c104_net_nodes(const c104_net_t *w) { return w->N; }
uint32_t c104_net_switches(const c104_net_t *w) { return w->S; }
uint32_t c104_net_vls(const c104_net_t *w) { return w->K; }
uint32_t c104_net_hbytes(const c104_net_t *w) { return w->H; }
uint32_t c104_net_rbase(const c104_net_t *w) { return w->R0; }

static c104_net_end_t end_of(const c104_net_t *w, int32_t e) {
  c104_net_end_t x = {C104_END_NONE, 0, 0};
  if (e < 0)
    return x;
  const uint32_t u = (uint32_t)e, nsw = w->S * C104_PORTS;
  if (u < nsw)
    return (c104_net_end_t){C104_END_SW, u / C104_PORTS, u % C104_PORTS};
  return (c104_net_end_t){C104_END_NODE, (u - nsw) / w->P, (u - nsw) % w->P};
}

c104_net_end_t c104_net_sw_peer(const c104_net_t *w, uint32_t s, uint32_t p) {
  return s < w->S && p < C104_PORTS ? end_of(w, w->peer[sw_end(w, s, p)]) : end_of(w, -1);
}
c104_net_end_t c104_net_node_peer(const c104_net_t *w, uint32_t n, uint32_t l) {
  return n < w->N && l < w->P ? end_of(w, w->peer[node_end(w, n, l)]) : end_of(w, -1);
}
const c104_state_t *c104_net_sw_state(const c104_net_t *w, uint32_t s) { return &w->sw[s]; }
const t9k_node_state_t *c104_net_node_state(const c104_net_t *w, uint32_t n) { return &w->ns[n]; }
const t9k_node_cfg_t *c104_net_node_cfg(const c104_net_t *w, uint32_t n) { return &w->nc[n]; }
uint32_t c104_net_vl_to(const c104_net_t *w, uint32_t n, uint32_t d) {
  const uint16_t v = w->vl_to[(size_t)n * w->N + d];
  return v == 0xFFFF ? UINT32_MAX : v;
}
const c104_setup_t *c104_net_setup(const c104_net_t *w, uint32_t s) { return &w->setup[s]; }
