/* C104 networks (docs/c104.md §17): a network's construction for one seed (its sizes, every
 * block's state allocated, wired and reset, the workload seeded), the hand-driven pair or line of
 * the tests and figures, and its teardown. The other jobs are in c104_net_wire.c, _step.c,
 * _work.c, _track.c, _result.c, _query.c and _cfg.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <madpost/c104_net.h>
#include "c104_net_int.h"
#include <madpost/net_err.h>

#define ALLOC(p, n)                                                                                \
  do {                                                                                             \
    (p) = calloc((size_t)(n) + 1u, sizeof *(p));                                                   \
    if (!(p))                                                                                      \
      return -1;                                                                                   \
  } while (0)

/* Every array of the network, zeroed; -1 out of memory (c104_net_free frees what was). */
static int alloc_arrays(c104_net_t *w) {
  const uint32_t N = w->N, S = w->S, P = w->P, K = w->K;
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
  return 0;
}

/* Sizes, header space, rate and the link configuration of every link end. */
static int set_shape(c104_net_t *w, const c104_net_cfg_t *c, char *err, size_t n) {
  c104_net_shape(c, &w->N, &w->S, &w->P);
  if (c104_net_wiring(c, &w->K, &w->circ, &w->H, err, n))
    return -1;
  w->R0 = 2u * w->N * w->K;
  w->top = w->R0 - 1u + (c->universal ? w->S : 0u);
  w->rate = c->pattern == C104_NET_PATTERN_NONE ? 0.0 : c104_net_rate(c, w->H);
  dslink_cfg_default(&w->lc);
  w->lc.rx_depth = 40; /* §4, §17: every link end alike */
  w->lc.tx_depth = 35;
  w->lc.tx_credit_max = 40;
  w->nend = w->S * C104_PORTS + w->N * w->P;
  return 0;
}

/* Every endpoint configured with its VL peers, its link ends reset, its random stream seeded. */
static int start_nodes(c104_net_t *w, char *err, size_t n) {
  const uint32_t N = w->N, P = w->P, K = w->K;
  for (uint32_t i = 0; i < N; i++) {
    w->nc[i] = (t9k_node_cfg_t){.node = i, .nnodes = N, .nvl = K, .nlinks = P, .hbytes = w->H,
                                .qlimit = w->cfg.qlimit};
    if (t9k_node_init(&w->nc[i], &w->ns[i], &w->nn[i], err, n))
      return -1;
    for (uint32_t ci = 0; ci < K; ci++) {
      const uint32_t pe = w->vlpeer[(size_t)i * K + ci];
      if (pe != T9K_NODE_NOPEER)
        t9k_node_set_peer(&w->nc[i], &w->ns[i], &w->nn[i], ci, pe / K, pe % K);
    }
    for (uint32_t l = 0; l < P; l++)
      dslink_reset(&w->lc, &w->nl[i * P + l]);
    rng_seed(&w->rng[i], w->seed, i);
  }
  return 0;
}

/* No packet anywhere, the pool all free, every node's arrival process started. */
static void start_traffic(c104_net_t *w) {
  for (uint32_t i = 0; i < w->S * C104_PORTS; i++)
    w->sl_id[i] = C104_NET_NOID;
  for (uint32_t i = 0; i < w->pcap; i++)
    w->ptab[i].next_free = i + 1 < w->pcap ? i + 1 : C104_NET_NOID;
  w->pfree = 0;
  c104_net_traffic_cfg(&w->cfg, &w->tr);
  w->perm = w->tr.pattern == NET_TR_SHUFFLE || w->tr.pattern == NET_TR_BITREV ||
            w->tr.pattern == NET_TR_TRANSPOSE || w->tr.pattern == NET_TR_BITCOMP;
  w->ar = w->cfg.arrival;
  w->ar.rate = w->rate;
  for (uint32_t i = 0; i < w->N; i++)
    net_arrival_start(&w->ar, &w->arr[i], 0.0, &w->rng[i]);
}

int c104_net_new(const c104_net_cfg_t *c, uint64_t seed, c104_net_t **out, char *err, size_t n) {
  *out = NULL;
  if (c104_net_cfg_check(c, err, n))
    return -1;
  c104_net_t *w = calloc(1, sizeof *w);
  if (!w)
    return net_fail(err, n, "out of memory");
  w->cfg = *c;
  w->seed = seed;
  if (set_shape(w, c, err, n)) {
    free(w);
    return -1;
  }
  if (alloc_arrays(w)) {
    net_fail(err, n, "out of memory for the %s network", c104_net_topo_name(c->topo));
    c104_net_free(w);
    return -1;
  }
  if (c104_net_build(w, err, n) ||
      c104_net_vl_wiring(c, seed, w->N, w->K, w->circ, w->vl_to, w->vlpeer, err, n) ||
      start_nodes(w, err, n)) {
    c104_net_free(w);
    return -1;
  }
  start_traffic(w);
  *out = w;
  return 0;
}

int c104_net_new_line(const c104_net_line_t *l, c104_net_pkt_fn fn, void *ctx, c104_net_t **out,
                      char *err, size_t n) {
  c104_net_cfg_t c;
  c104_net_cfg_default(&c);
  c.topo = l->switches ? C104_NET_LINE : C104_NET_PAIR;
  c.switches = l->switches;
  c.pattern = C104_NET_PATTERN_NONE;
  c.qlimit = l->qlimit;
  c.vls = l->vls;
  c.hbytes = l->hbytes;
  if (c104_net_new(&c, 1, out, err, n))
    return -1;
  c104_net_on_packet(*out, fn, ctx);
  while (c104_net_cycle(*out) < C104_NET_LINE_IDLE)
    if (c104_net_step(*out)) {
      c104_net_free(*out);
      *out = NULL;
      return net_fail(err, n, "model error while idle");
    }
  return 0;
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
