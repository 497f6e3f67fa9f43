/* Measurement on idle C104 networks for madpost c104transit and c104cost (madpost_c104fig.h):
 * the networks, their packet logs and least-squares lines. */
#include "madpost_c104fig.h"

#include <stdio.h>
#include <stdlib.h>

enum { CYCLE_CAP = 4000000 };

static void on_pkt(void *ctx, const c104_net_pkt_t *p) {
  madpost_plog_t *l = ctx;
  if (l->n == l->cap) {
    const int cap = l->cap ? 2 * l->cap : 256;
    c104_net_pkt_t *q = realloc(l->p, (size_t)cap * sizeof *q);
    if (!q) {
      l->oom = 1;
      return;
    }
    l->p = q, l->cap = cap;
  }
  l->p[l->n++] = *p;
  if (p->ack)
    l->nack++;
  else
    l->ndata++;
}

static void die_model(const char *what) {
  fprintf(stderr, "madpost: c104 figures: %s\n", what);
  exit(1);
}

c104_net_t *madpost_fig_net(uint32_t s, uint32_t vls, uint32_t hbytes, madpost_plog_t *log) {
  const c104_net_line_t l = {.switches = s, .vls = vls, .hbytes = hbytes, .qlimit = 100000};
  c104_net_t *w;
  char err[400];
  log->n = log->ndata = log->nack = 0;
  if (c104_net_new_line(&l, on_pkt, log, &w, err, sizeof err))
    die_model(err);
  return w;
}

void madpost_fig_send(c104_net_t *w, uint32_t vl, uint32_t len) {
  if (c104_net_send(w, 0, vl, len))
    die_model("send failed");
}

void madpost_fig_run_until(c104_net_t *w, madpost_plog_t *log, int ndata, int nack) {
  const uint64_t cap = c104_net_cycle(w) + CYCLE_CAP;
  while (log->ndata < ndata || log->nack < nack) {
    if (c104_net_step(w) || log->oom)
      die_model("model error (or out of memory) while measuring");
    if (c104_net_cycle(w) > cap)
      die_model("the network stalled while measuring");
  }
}

void madpost_fig_step_n(c104_net_t *w, int n) {
  for (int k = 0; k < n; k++)
    if (c104_net_step(w))
      die_model("model error");
}

/* The k-th packet of the log that is (ack 1) or is not (ack 0) an acknowledgement. */
static const c104_net_pkt_t *kth(const madpost_plog_t *l, int k, uint32_t ack) {
  for (int i = 0; i < l->n; i++)
    if (l->p[i].ack == ack && k-- == 0)
      return &l->p[i];
  return NULL;
}
const c104_net_pkt_t *madpost_fig_data(const madpost_plog_t *l, int k) { return kth(l, k, 0); }
const c104_net_pkt_t *madpost_fig_ack(const madpost_plog_t *l, int k) { return kth(l, k, 1); }

void madpost_fig_lsq(const double *x, const double *y, int n, double *a, double *b) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int i = 0; i < n; i++)
    sx += x[i], sy += y[i], sxx += x[i] * x[i], sxy += x[i] * y[i];
  const double d = n * sxx - sx * sx;
  *b = d != 0 ? (n * sxy - sx * sy) / d : 0;
  *a = (sy - *b * sx) / n;
}
