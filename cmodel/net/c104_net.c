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

/* Every array of the network and its length in elements, one list for alloc_arrays and
 * c104_net_free so that the two cannot disagree (ptab and mbuf grow later: their lengths are the
 * starting capacities pcap and mcap). */
#define C104_NET_ARRAYS(X)                                                                         \
  X(swc, S) X(setup, S) X(sw, S) X(swn, S) X(swev, S) X(swin, S)                                        \
  X(nc, N) X(ns, N) X(nn, N) X(nev, N) X(nl, N * P) X(nln, N * P) X(nlev, N * P)                   \
  X(peer, w->nend) X(internal, w->nend) X(used, w->nend) X(trk, w->nend) X(ubits, w->nend)         \
  X(sl_id, S * C104_PORTS) X(rx_id, N * P) X(rx_open, N * P) X(ptab, w->pcap) X(tx_id, N * P)      \
  X(done, (size_t)N * K) X(dlv, (size_t)N * K) X(vl_to, (size_t)N * N) X(vlpeer, (size_t)N * K)   \
  X(prr, N) X(rng, N) X(arr, N) X(man, N) X(man_n, N) X(man_cap, N)                                \
  X(last_cnt, S * C104_PORTS * 5) X(mbuf, w->mcap)

/* Every array of the network, zeroed; -1 out of memory (c104_net_free frees what was). */
static int alloc_arrays(c104_net_t *w) {
  const uint32_t N = w->N, S = w->S, P = w->P, K = w->K;
  w->pcap = 1024;
  w->mcap = 64;
#define X(name, n)                                                                                 \
  w->name = calloc((size_t)(n) + 1u, sizeof *w->name);                                             \
  if (!w->name)                                                                                    \
    return -1;
  C104_NET_ARRAYS(X)
#undef X
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
        t9k_node_set_peer(&w->nc[i], &w->ns[i], ci, pe / K, pe % K);
    }
    for (uint32_t l = 0; l < P; l++)
      dslink_reset(&w->lc, &w->nl[i * P + l]);
    madpost_rng_seed(&w->rng[i], w->seed, i);
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
#define X(name, n) free(w->name);
  C104_NET_ARRAYS(X)
#undef X
  free(w);
}
