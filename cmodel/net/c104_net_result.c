/* C104 network figures (docs/c104.md §17.6): the switch counters accumulated across their
 * 16-bit wraps, and c104_net_result's conservation counts, window figures and error counts. */
#include <math.h>
#include <string.h>

#include <madpost/c104_net.h>
#include "c104_net_int.h"

void c104_net_sample_counters(c104_net_t *w) {
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

static c104_net_stat_t stat_of(const c104_net_acc_t *a) {
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

/* Messages over the whole run, from the endpoints' registers and the delivery counts. */
static void result_messages(const c104_net_t *w, c104_net_result_t *r) {
  const uint32_t K = w->K;
  r->generated = w->generated;
  r->delivered = w->delivered;
  r->corrupt = w->corrupt;
  for (uint32_t i = 0; i < w->N; i++) {
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
}

/* Link utilisation over wcyc window cycles: every direction in use, and switch-to-switch ones. */
static void result_util(const c104_net_t *w, uint64_t wcyc, c104_net_result_t *r) {
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

/* The figures of the measured window, as far as it has run. */
static void result_window(const c104_net_t *w, c104_net_result_t *r) {
  const uint32_t N = w->N;
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
  if (!wcyc)
    return;
  const double us = (double)wcyc / 100.0;
  r->thr_msgs = (double)w->w_delivered / N / us;
  r->thr_bytes = (double)w->w_bytes / N / us;
  if (w->S && w->win_pkt0_set) {
    const uint64_t p1 = w->win_pkt1_set ? w->win_pkt1 : w->tot_cnt[0];
    r->pkts_per_c104_ms = (double)(p1 - w->win_pkt0) / w->S / (us / 1000.0);
  }
  result_util(w, wcyc, r);
}

void c104_net_result(const c104_net_t *cw, c104_net_result_t *r) {
  c104_net_t *w = (c104_net_t *)cw; /* sampling the wrapping counters updates totals only */
  c104_net_sample_counters(w);
  memset(r, 0, sizeof *r);
  r->seed = w->seed;
  r->cycles = w->cyc;
  r->nodes = w->N, r->switches = w->S, r->vls = w->K, r->links = w->P, r->hbytes = w->H;
  r->rate = w->rate;
  r->circulant = w->circ;
  result_messages(w, r);
  result_window(w, r);
  r->sw_bad = w->tot_cnt[1];
  r->sw_short = w->tot_cnt[2];
  r->sw_cut = w->tot_cnt[3];
  r->sw_stray = w->tot_cnt[4];
  for (uint32_t u = 0; u < w->nused; u++) {
    const dslink_regs_t *l = &c104_net_end_st(w, w->used[u])->r;
    r->link_errs += l->cnt_par_err + l->cnt_esc_err + l->cnt_disc_err + l->cnt_cred_err +
                    l->cnt_proto_err + l->cnt_tmo_err + l->cnt_tx_spill + l->cnt_rx_cut;
  }
  r->track_errs = w->track_errs;
}
