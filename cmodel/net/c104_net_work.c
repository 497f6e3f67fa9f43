/* C104 network workload (docs/c104.md §17.4, §17.5): the messages handed to each endpoint every
 * cycle, those queued by hand with c104_net_send and those the traffic pattern's arrivals make. */
#include <stdlib.h>

#include <madpost/c104_net.h>
#include "c104_net_int.h"

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
  if (c104_net_in_window(w))
    w->w_generated++;
  return 0;
}

/* The VL end of node i a new message leaves by, or -1: the pattern sends nothing. */
static int64_t arrival_vl(c104_net_t *w, uint32_t i) {
  const uint32_t K = w->K;
  if (w->circ)
    return madpost_rng_below(&w->rng[i], K); /* §17.4: a uniformly drawn end of the circulant */
  const int64_t d = net_traffic_dest(&w->tr, i, &w->rng[i]);
  if (d < 0)
    return -1; /* a permutation's fixed point sends nothing */
  uint32_t vl = w->vl_to[(size_t)i * w->N + (uint32_t)d];
  if (w->perm && K >= 4) {
    vl = 2u * w->prr[i];
    w->prr[i] = (w->prr[i] + 1u) % (K / 2u);
  }
  return vl;
}

int c104_net_workload(c104_net_t *w, uint32_t i, int win, uint32_t *nm_out) {
  uint32_t k = w->rate > 0 ? net_arrival_count(&w->ar, &w->arr[i], w->cyc, &w->rng[i]) : 0;
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
    const int64_t vl = arrival_vl(w, i);
    if (vl < 0)
      continue;
    w->mbuf[nm++] = (t9k_node_msg_t){(uint32_t)vl, w->cfg.msg_len};
    w->generated++;
    w->w_generated += win;
  }
  *nm_out = nm;
  return 0;
}
