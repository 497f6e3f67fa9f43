/* The C104 network's cycle loop (docs/c104.md §17): every endpoint, link end and switch evaluated
 * on the state of the last clock edge, the packets tracked, then every block clocked; and
 * c104_net_run, which drives one seed through warm-up and measurement. */
#include <madpost/c104_net.h>
#include "c104_net_int.h"
#include <madpost/net_err.h>

/* Node i's packet-interface inputs: what its link ends present this cycle. */
static void node_inputs(c104_net_t *w, uint32_t i, t9k_node_in_t *in) {
  const uint32_t P = w->P;
  dslink_out_t lo[T9K_NODE_LINKS_MAX];
  for (uint32_t l = 0; l < P; l++) {
    dslink_outputs(&w->lc, &w->nl[i * P + l], &lo[l]);
    in->tx_ready[l] = lo[l].tx_ready;
    in->rx_valid[l] = lo[l].rx_valid;
    in->rx_data[l] = lo[l].rx_data;
    in->rx_kind[l] = lo[l].rx_kind;
  }
}

/* Node i's link ends, driven by the node's outputs and their peers' D/S wires. */
static int eval_node_links(c104_net_t *w, uint32_t i, const t9k_node_out_t *no) {
  const uint32_t P = w->P;
  int bug = 0;
  for (uint32_t l = 0; l < P; l++) {
    const uint32_t e = c104_net_node_end(w, i, l);
    const dslink_state_t *ps = c104_net_end_st(w, (uint32_t)w->peer[e]);
    const dslink_in_t li = {.d = ps->r.tx_d, .s = ps->r.tx_s, .link_en = 1,
                            .tx_valid = no->tx_valid[l], .tx_data = no->tx_data[l],
                            .tx_kind = no->tx_kind[l], .rx_ready = no->rx_ready[l]};
    dslink_out_t o;
    if (dslink_eval(&w->lc, &w->nl[i * P + l], &li, &o, &w->nln[i * P + l], &w->nlev[i * P + l]))
      bug = 1;
  }
  return bug;
}

/* Every endpoint (packet interfaces, workload E2, eval) and its link ends: 1 on a model bug, -1
   out of memory. */
static int eval_nodes(c104_net_t *w, int win) {
  int bug = 0;
  for (uint32_t i = 0; i < w->N; i++) {
    t9k_node_in_t in;
    node_inputs(w, i, &in);
    uint32_t nm;
    if (c104_net_workload(w, i, win, &nm))
      return -1;
    in.n_new = nm;
    in.new_msgs = w->mbuf;
    t9k_node_out_t no;
    if (t9k_node_eval(&w->nc[i], &w->ns[i], &in, &no, &w->nn[i], &w->nev[i]))
      bug = 1;
    if (win)
      w->w_dropped += w->nev[i].dropped;
    if (eval_node_links(w, i, &no))
      bug = 1;
  }
  return bug;
}

/* Every switch, its wired ports driven by their peers' D/S wires: 1 on a model bug. */
static int eval_switches(c104_net_t *w) {
  int bug = 0;
  for (uint32_t s = 0; s < w->S; s++) {
    c104_in_t *in = &w->swin[s];
    for (uint32_t m = ~w->swc[s].tok_ports; m; m &= m - 1u) {
      const uint32_t p = (uint32_t)__builtin_ctz(m);
      const dslink_state_t *ps = c104_net_end_st(w, (uint32_t)w->peer[c104_net_sw_end(w, s, p)]);
      in->d[p] = ps->r.tx_d;
      in->s[p] = ps->r.tx_s;
    }
    if (c104_eval(&w->swc[s], &w->sw[s], in, &w->swout, &w->swn[s], &w->swev[s]))
      bug = 1;
  }
  return bug;
}

/* The clock edge, then the switch counters sampled at the window's edges and often enough. */
static void clock_all(c104_net_t *w) {
  const uint32_t P = w->P;
  for (uint32_t i = 0; i < w->N; i++) {
    t9k_node_clock(&w->ns[i], &w->nn[i]);
    for (uint32_t l = 0; l < P; l++)
      dslink_clock(&w->nl[i * P + l], &w->nln[i * P + l]);
  }
  for (uint32_t s = 0; s < w->S; s++)
    c104_clock(&w->sw[s], &w->swn[s]);
  w->cyc++;
  if ((w->cyc & 1023u) == 0)
    c104_net_sample_counters(w);
  if (w->cyc == w->cfg.warmup + w->cfg.measure) {
    c104_net_sample_counters(w);
    w->win_pkt1 = w->tot_cnt[0], w->win_pkt1_set = 1;
  }
}

int c104_net_step(c104_net_t *w) {
  const int win = c104_net_in_window(w);
  if (w->cyc == w->cfg.warmup) {
    c104_net_sample_counters(w);
    w->win_pkt0 = w->tot_cnt[0], w->win_pkt0_set = 1;
  }
  const int nodes = eval_nodes(w, win);
  if (nodes < 0)
    return -1;
  const int bug = eval_switches(w) | nodes;
  c104_net_track_links(w, win);
  c104_net_track_slices(w);
  if (c104_net_track_nodes(w))
    return -1;
  clock_all(w);
  return bug ? -1 : 0;
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
      return net_fail(err, errlen, "model invariant broken at cycle %llu (seed %llu)",
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
