/* madpost c104transit and c104cost: the figures of seeds 000 §4.1.5 and 002 eq. (1)-(4) measured
 * on the C104 network model (docs/c104.md §18.2, §18.3), beside the papers' values. Every figure
 * is measured by hand-driven messages (c104_net_send) in idle pairs and lines of switches, timed
 * by the per-packet records of c104_net_on_packet. Deterministic; table, CSV or JSON. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c104_net.h"
#include "madpost_opt.h"

int madpost_cmd_c104transit(int argc, char **argv);
int madpost_cmd_c104cost(int argc, char **argv);

enum { IDLE_START = 400, CYCLE_CAP = 4000000 };

/* ---- Measurement helpers ------------------------------------------------------------------- */

typedef struct {
  c104_net_pkt_t *p;
  int n, cap, ndata, nack;
  int oom;
} plog_t;

static void on_pkt(void *ctx, const c104_net_pkt_t *p) {
  plog_t *l = ctx;
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

static void plog_reset(plog_t *l) { l->n = l->ndata = l->nack = 0; }

static void die_model(const char *what) {
  fprintf(stderr, "madpost: c104 figures: %s\n", what);
  exit(1);
}

/* An idle pair (s = 0) or line of s switches with K VLs between its two endpoints, H forced to
   hbytes (0: automatic), started and left idle IDLE_START cycles (the links' FCT exchange). */
static c104_net_t *mk(uint32_t s, uint32_t vls, uint32_t hbytes, plog_t *log) {
  c104_net_cfg_t c;
  c104_net_cfg_default(&c);
  c.topo = s ? C104_NET_LINE : C104_NET_PAIR;
  c.switches = s;
  c.pattern = C104_NET_PATTERN_NONE;
  c.qlimit = 100000;
  c.vls = vls;
  c.hbytes = hbytes;
  c104_net_t *w;
  char err[400];
  if (c104_net_new(&c, 1, &w, err, sizeof err))
    die_model(err);
  plog_reset(log);
  c104_net_on_packet(w, on_pkt, log);
  while (c104_net_cycle(w) < IDLE_START)
    if (c104_net_step(w))
      die_model("model error while idle");
  return w;
}

/* Steps until the log holds at least ndata data packets and nack acknowledgements. */
static void run_until(c104_net_t *w, plog_t *log, int ndata, int nack) {
  const uint64_t cap = c104_net_cycle(w) + CYCLE_CAP;
  while (log->ndata < ndata || log->nack < nack) {
    if (c104_net_step(w) || log->oom)
      die_model("model error (or out of memory) while measuring");
    if (c104_net_cycle(w) > cap)
      die_model("the network stalled while measuring");
  }
}

static void step_n(c104_net_t *w, int n) {
  for (int k = 0; k < n; k++)
    if (c104_net_step(w))
      die_model("model error");
}

/* The k-th data packet (0-based) of the log, or NULL. */
static const c104_net_pkt_t *data_k(const plog_t *l, int k) {
  for (int i = 0; i < l->n; i++)
    if (!l->p[i].ack && k-- == 0)
      return &l->p[i];
  return NULL;
}

static const c104_net_pkt_t *ack_k(const plog_t *l, int k) {
  for (int i = 0; i < l->n; i++)
    if (l->p[i].ack && k-- == 0)
      return &l->p[i];
  return NULL;
}

/* Least-squares line y = a + b x. */
static void lsq(const double *x, const double *y, int n, double *a, double *b) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int i = 0; i < n; i++)
    sx += x[i], sy += y[i], sxx += x[i] * x[i], sxy += x[i] * y[i];
  const double d = n * sxx - sx * sx;
  *b = d != 0 ? (n * sxy - sx * sy) / d : 0;
  *a = (sy - *b * sx) / n;
}

/* ---- Output: rows of named columns (CSV, JSON) ----------------------------------------------- */

typedef struct {
  int fmt; /* 0 table, 1 csv, 2 json */
  const char *const *cols;
  int ncols, nrows;
} out_t;

/* One row: ncols values as strings (NULL or "": empty / JSON null). Numbers are printed as given,
   text (a value starting with a letter) is quoted in JSON. */
static void row(out_t *o, ...) {
  if (o->fmt == 0)
    return;
  va_list ap;
  va_start(ap, o);
  if (o->fmt == 2)
    printf("%s\n    {", o->nrows ? "," : "");
  for (int i = 0; i < o->ncols; i++) {
    const char *v = va_arg(ap, const char *);
    if (o->fmt == 1) {
      printf("%s%s", i ? "," : "", v ? v : "");
    } else {
      const int text = v && *v && ((*v >= 'a' && *v <= 'z') || (*v >= 'A' && *v <= 'Z'));
      printf("%s\"%s\":", i ? "," : "", o->cols[i]);
      if (!v || !*v)
        printf("null");
      else if (text)
        printf("\"%s\"", v);
      else
        printf("%s", v);
    }
  }
  if (o->fmt == 1)
    printf("\n");
  else
    printf("}");
  o->nrows++;
  va_end(ap);
}

static void out_begin(out_t *o, const char *cmd, const char *params_json, const char *method) {
  if (o->fmt == 1) {
    printf("# madpost %s: %s\n", cmd, method);
    for (int i = 0; i < o->ncols; i++)
      printf("%s%s", i ? "," : "", o->cols[i]);
    printf("\n");
  } else if (o->fmt == 2) {
    printf("{\"command\":\"%s\",\"params\":{%s},\"method\":\"%s\",\"rows\":[", cmd, params_json,
           method);
  }
}

static void out_end(out_t *o) {
  if (o->fmt == 2)
    printf("\n]}\n");
}

/* Formatted numbers for rows: a ring of buffers, enough for one row. */
static const char *f_(const char *fmt, ...) {
  static char buf[32][48];
  static int k;
  char *b = buf[k++ % 32];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b, sizeof buf[0], fmt, ap);
  va_end(ap);
  return b;
}
#define FU(x) f_("%llu", (unsigned long long)(x))
#define FG(x) f_("%.6g", (double)(x))

/* ---- Option parsing (madpost c104net style) ------------------------------------------------- */

static int parse_format(const char *cmd, const char *v, int *fmt) {
  if (!strcmp(v, "table"))
    *fmt = 0;
  else if (!strcmp(v, "csv"))
    *fmt = 1;
  else if (!strcmp(v, "json"))
    *fmt = 2;
  else {
    fprintf(stderr, "madpost: %s: --format: '%s' is not table, csv or json\n", cmd, v);
    return -1;
  }
  return 0;
}

/* ======================================================================================== */
/* madpost c104transit: seed 000 §4.1.5                                                      */
/* ======================================================================================== */

enum { TR_MMAX = 64, TR_THR_MSGS = 200, TR_THR_WARM = 8 };

/* 000 §4.1.5 (docs/c104.md §18.2), m = 0..6 */
static const double p000_direct_ns[7] = {212, 312, 412, 512, 612, 712, 812};
static const double p000_c104_ns[7] = {362, 462, 574, 674, 775, 863, 962};
static const double p000_direct_ms[7] = {2667, 2623, 2424, 1951, 1632, 1403, 1230};
static const double p000_c104_ms[7] = {1482, 1468, 1454, 1454, 1428, 1403, 1230};

static int tr_usage(FILE *f) {
  fprintf(f, "usage: madpost c104transit [--max-bytes M (6, 0..64)] [--format table|csv|json]\n"
             "  Seed 000 §4.1.5 on the C104 network model (docs/c104.md §18.2): transit of one\n"
             "  m-byte message, m = 0..M, directly, through one and through two C104s, and the\n"
             "  throughput of one VL (messages back to back), beside 000's published values.\n");
  return f == stderr ? 2 : 0;
}

/* Transit (header loaded onto the sender's wire .. EOM popped) of one m-byte message sent into a
   fresh idle network of s switches. */
static long transit_fresh(uint32_t s, uint32_t m, plog_t *log) {
  c104_net_t *w = mk(s, 1, 0, log);
  if (c104_net_send(w, 0, 0, m))
    die_model("send failed");
  run_until(w, log, 1, 1);
  const c104_net_pkt_t *d = data_k(log, 0);
  const long t = (long)(d->t_deliver - d->t_out);
  c104_net_free(w);
  return t;
}

/* The largest transit of 4 consecutive m-byte messages in one network, each sent 37 cycles after
   the previous one's acknowledgement is in (one message in four meets an FCT of the sender's). */
static long transit_max4(uint32_t s, uint32_t m, plog_t *log) {
  c104_net_t *w = mk(s, 1, 0, log);
  long mx = 0;
  for (int k = 0; k < 4; k++) {
    if (c104_net_send(w, 0, 0, m))
      die_model("send failed");
    run_until(w, log, k + 1, k + 1);
    const c104_net_pkt_t *d = data_k(log, k);
    const long t = (long)(d->t_deliver - d->t_out);
    mx = t > mx ? t : mx;
    step_n(w, 37);
  }
  c104_net_free(w);
  return mx;
}

/* Mean period (cycles) between the first loads of consecutive messages, one VL, 208 m-byte messages
   queued at once (each starts when the previous one's acknowledgement is in), over the 200 after
   the first 8. */
static double thr_period(uint32_t s, uint32_t m, plog_t *log) {
  c104_net_t *w = mk(s, 1, 0, log);
  for (int k = 0; k < TR_THR_MSGS + TR_THR_WARM; k++)
    if (c104_net_send(w, 0, 0, m))
      die_model("send failed");
  run_until(w, log, TR_THR_MSGS + TR_THR_WARM, TR_THR_MSGS + TR_THR_WARM);
  const double p =
      (double)(data_k(log, TR_THR_MSGS + TR_THR_WARM - 1)->t_out - data_k(log, TR_THR_WARM - 1)->t_out) /
      TR_THR_MSGS;
  c104_net_free(w);
  return p;
}

int madpost_cmd_c104transit(int argc, char **argv) {
  uint64_t M = 6;
  int fmt = 0;
  for (int i = 0; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
      return tr_usage(stdout);
  for (int i = 0; i < argc; i += 2) {
    const char *a = argv[i];
    if (strncmp(a, "--", 2) || i + 1 >= argc) {
      fprintf(stderr, "madpost: c104transit: '%s': expected --KEY VALUE\n", a);
      return tr_usage(stderr);
    }
    const char *v = argv[i + 1];
    if (!strcmp(a, "--format")) {
      if (parse_format("c104transit", v, &fmt))
        return 2;
    } else if (!strcmp(a, "--max-bytes")) {
      if (madpost_opt_whole("c104transit", "max-bytes", v, 0, TR_MMAX, &M))
        return 2;
    } else {
      fprintf(stderr, "madpost: c104transit: unknown option '%s'\n", a);
      return 2;
    }
  }
  plog_t log = {0};
  const int n = (int)M + 1;
  long tf[3][TR_MMAX + 1], t4[3][TR_MMAX + 1];
  double per[2][TR_MMAX + 1];
  for (uint32_t s = 0; s <= 2; s++)
    for (int m = 0; m < n; m++) {
      tf[s][m] = transit_fresh(s, (uint32_t)m, &log);
      t4[s][m] = transit_max4(s, (uint32_t)m, &log);
    }
  for (uint32_t s = 0; s <= 1; s++)
    for (int m = 0; m < n; m++)
      per[s][m] = thr_period(s, (uint32_t)m, &log);
  free(log.p);
  /* least-squares lines in ns over m = 0..M (ours, fresh) and 0..min(M, 6) (000) */
  double xs[TR_MMAX + 1], ys[TR_MMAX + 1], fa[3], fb[3], pa[2], pb[2];
  for (int m = 0; m < n; m++)
    xs[m] = m;
  for (int s = 0; s <= 2; s++) {
    for (int m = 0; m < n; m++)
      ys[m] = 10.0 * (double)tf[s][m];
    lsq(xs, ys, n, &fa[s], &fb[s]);
  }
  const int np = n < 7 ? n : 7;
  if (np >= 2) {
    lsq(xs, p000_direct_ns, np, &pa[0], &pb[0]);
    lsq(xs, p000_c104_ns, np, &pa[1], &pb[1]);
  } else {
    pa[0] = p000_direct_ns[0], pa[1] = p000_c104_ns[0], pb[0] = pb[1] = 0;
  }
  static const char *const path[3] = {"direct", "c104", "two_c104"};
  static const char *const cols[] = {"figure", "path", "switches", "m", "method",
                                     "quantity", "unit", "value", "paper_000"};
  out_t o = {fmt, cols, 9, 0};
  char pj[64];
  snprintf(pj, sizeof pj, "\"max-bytes\":%u", (unsigned)M);
  const char *method =
      "transit = header loaded onto the sender's wire .. EOM popped at the receiver; method fresh: "
      "each m in a fresh idle network (one message); max4: the largest of 4 consecutive messages "
      "in one network (one in four waits behind an FCT of the sender's); throughput: one VL, "
      "208 messages queued, each sent when the previous acknowledgement is in, period over the "
      "last 200; 1 cycle = 10 ns";
  out_begin(&o, "c104transit", pj, method);
  if (fmt) {
    for (int s = 0; s <= 2; s++)
      for (int m = 0; m < n; m++) {
        const char *pap = m < 7 && s < 2 ? FG(s ? p000_c104_ns[m] : p000_direct_ns[m]) : "";
        row(&o, "transit", path[s], FU(s), FU(m), "fresh", "transit", "cycles", FU(tf[s][m]), "");
        row(&o, "transit", path[s], FU(s), FU(m), "fresh", "transit", "ns", FU(10 * tf[s][m]),
            pap);
        row(&o, "transit", path[s], FU(s), FU(m), "max4", "transit", "cycles", FU(t4[s][m]), "");
      }
    for (int s = 1; s <= 2; s++)
      for (int m = 0; m < n; m++)
        row(&o, "increment", path[s], FU(s), FU(m), "fresh", "per_switch", "ns",
            FU(10 * (tf[s][m] - tf[s - 1][m])),
            s == 1 && m < 7 ? FG(p000_c104_ns[m] - p000_direct_ns[m]) : "");
    for (int s = 0; s <= 2; s++) {
      row(&o, "fit", path[s], FU(s), "", "fresh", "slope", "ns/byte", FG(fb[s]),
          s < 2 && np >= 2 ? FG(pb[s]) : "");
      row(&o, "fit", path[s], FU(s), "", "fresh", "intercept", "ns", FG(fa[s]),
          s < 2 ? FG(pa[s]) : "");
    }
    for (int s = 0; s <= 1; s++)
      for (int m = 0; m < n; m++) {
        row(&o, "throughput", path[s], FU(s), FU(m), "back_to_back", "period", "cycles",
            FG(per[s][m]), "");
        row(&o, "throughput", path[s], FU(s), FU(m), "back_to_back", "rate", "msgs/ms",
            f_("%.1f", 1e5 / per[s][m]), m < 7 ? FG(s ? p000_c104_ms[m] : p000_direct_ms[m]) : "");
      }
    out_end(&o);
    return 0;
  }
  printf("madpost c104transit: seed 000 §4.1.5 on the C104 network model (docs/c104.md §18.2)\n"
         "Two T9000-style endpoints, one link each, one VL, H = 1: directly (pair), through one\n"
         "C104 and through two (line of s = 1, 2 switches). 1 cycle = 10 ns.\n\n");
  printf("(a) Transit of one m-byte message: header loaded onto the sender's wire .. EOM popped at\n"
         "    the receiver. Method: each m measured alone in a fresh idle network (no FCT falls\n"
         "    in the way); max4 = the largest of 4 consecutive m-byte messages in one network, each\n"
         "    sent 37 cycles after the previous acknowledgement (one in four waits behind an FCT).\n\n");
  printf("%3s | %-26s | %-26s | %-15s | %s\n", "", "direct", "via one C104",
         "per C104 (ns)", "via two C104s");
  printf("%3s | %6s %6s %6s %5s | %6s %6s %6s %5s | %7s %7s | %6s %7s\n", "m", "cycles", "ns",
         "000 ns", "max4", "cycles", "ns", "000 ns", "max4", "ours", "000", "cycles", "+ns");
  for (int m = 0; m < n; m++) {
    char a[16] = "-", b[16] = "-", c[16] = "-";
    if (m < 7) {
      snprintf(a, sizeof a, "%.0f", p000_direct_ns[m]);
      snprintf(b, sizeof b, "%.0f", p000_c104_ns[m]);
      snprintf(c, sizeof c, "%.0f", p000_c104_ns[m] - p000_direct_ns[m]);
    }
    printf("%3d | %6ld %6ld %6s %5ld | %6ld %6ld %6s %5ld | %7ld %7s | %6ld %7ld\n", m, tf[0][m],
           10 * tf[0][m], a, t4[0][m], tf[1][m], 10 * tf[1][m], b, t4[1][m],
           10 * (tf[1][m] - tf[0][m]), c, tf[2][m], 10 * (tf[2][m] - tf[1][m]));
  }
  printf("\n    Least squares over m = 0..%d (ours) and 0..%d (000), transit = intercept + slope m:\n",
         n - 1, np - 1);
  printf("      direct:        ours %6.1f ns/byte, %6.1f ns   000 %6.1f ns/byte, %6.1f ns\n",
         fb[0], fa[0], pb[0], pa[0]);
  printf("      via one C104:  ours %6.1f ns/byte, %6.1f ns   000 %6.1f ns/byte, %6.1f ns\n",
         fb[1], fa[1], pb[1], pa[1]);
  printf("      via two C104s: ours %6.1f ns/byte, %6.1f ns\n", fb[2], fa[2]);
  printf("      per C104 (intercepts): ours %.1f ns, 000 %.1f ns (000's increments 150-163 ns)\n",
         fa[1] - fa[0], pa[1] - pa[0]);
  printf("\n(b) Throughput, one VL, m-byte messages back to back (the next message when the previous\n"
         "    acknowledgement is in): mean period between messages' first loads over %d messages\n"
         "    after %d.\n\n",
         TR_THR_MSGS, TR_THR_WARM);
  printf("%3s | %-30s | %s\n", "", "direct", "via one C104");
  printf("%3s | %7s %8s %7s %5s | %7s %8s %7s %5s\n", "m", "cycles", "msgs/ms", "000", "ratio",
         "cycles", "msgs/ms", "000", "ratio");
  for (int m = 0; m < n; m++) {
    const double r0 = 1e5 / per[0][m], r1 = 1e5 / per[1][m];
    if (m < 7)
      printf("%3d | %7.2f %8.1f %7.0f %5.2f | %7.2f %8.1f %7.0f %5.2f\n", m, per[0][m], r0,
             p000_direct_ms[m], r0 / p000_direct_ms[m], per[1][m], r1, p000_c104_ms[m],
             r1 / p000_c104_ms[m]);
    else
      printf("%3d | %7.2f %8.1f %7s %5s | %7.2f %8.1f %7s %5s\n", m, per[0][m], r0, "-", "-",
             per[1][m], r1, "-", "-");
  }
  return 0;
}

/* ======================================================================================== */
/* madpost c104cost: seed 002 equations (1)-(4)                                              */
/* ======================================================================================== */

enum { CO_SMAX = 20, CO_PKTS = 62, CO_CH_K0 = 16, CO_CH_M = 48 };

static int co_usage(FILE *f) {
  fprintf(f, "usage: madpost c104cost [--hbytes 1|2 (1)] [--smax S (14, 0..%d)] "
             "[--format table|csv|json]\n"
             "  Seed 002 equations (1)-(4) on the C104 network model (docs/c104.md §18.3): packet\n"
             "  cost T_p against switches s, the crossover s, message cost T_m, and the channels\n"
             "  needed to saturate a link, beside 002's formulas with the model's and 002's values.\n",
          CO_SMAX);
  return f == stderr ? 2 : 0;
}

/* 002's parameters in cycles (1 cycle = 10 ns). */
typedef struct {
  double alpha, beta, gamma, delta, h;
} prm_t;

static double eq1(const prm_t *p, double b, double s) {
  const double S = p->beta + (p->h + b + 1) * p->alpha;
  const double R = 2 * p->beta + (2 * p->h + 1) * p->alpha + 2 * s * p->delta;
  return S > R ? S : R;
}
static double eq2(const prm_t *p, double b) {
  return ((b - p->h) * p->alpha - p->beta) / (2 * p->delta);
}
static double eq4(const prm_t *p, double b, double s) {
  return (2 * p->beta + 2 * s * p->delta + (2 * p->h + 1) * p->alpha) /
         (p->beta + (p->h + b + 1) * p->alpha);
}

/* Mean period (cycles) between the first loads of data packets 10 and 58 of a stream of len-byte
   packets on one VL (32: one message of 62 packets; else 62 messages of len bytes). */
static double co_period(uint32_t s, uint32_t len, uint32_t h, plog_t *log) {
  c104_net_t *w = mk(s, 1, h, log);
  if (len == 32) {
    if (c104_net_send(w, 0, 0, 32 * CO_PKTS))
      die_model("send failed");
  } else {
    for (int k = 0; k < CO_PKTS; k++)
      if (c104_net_send(w, 0, 0, len))
        die_model("send failed");
  }
  run_until(w, log, 59, 0);
  const double p = (double)(data_k(log, 58)->t_out - data_k(log, 10)->t_out) / 48.0;
  c104_net_free(w);
  return p;
}

/* One message of n bytes (n/32 packets) in a fresh idle line: cycles from its creation to the
   last acknowledgement popped by the sender (*ack) and to the EOM popped by the receiver (*dlv);
   *gam: creation to the first header's load. */
static void co_msg(uint32_t s, uint32_t nb, uint32_t h, plog_t *log, double *ack, double *dlv,
                   double *gam) {
  c104_net_t *w = mk(s, 1, h, log);
  if (c104_net_send(w, 0, 0, nb))
    die_model("send failed");
  const int np = (int)(nb / 32);
  run_until(w, log, np, np);
  const c104_net_pkt_t *f = data_k(log, 0), *l = data_k(log, np - 1), *a = ack_k(log, np - 1);
  *ack = (double)(a->t_deliver - f->t_create);
  *dlv = (double)(l->t_deliver - f->t_create);
  *gam = (double)(f->t_out - f->t_create);
  c104_net_free(w);
}

/* c VLs in parallel, each a long message of 32-byte packets: data bytes delivered per us over
   data packets CO_CH_K0 .. CO_CH_K0 + CO_CH_M (in delivery order). */
static double co_chan(uint32_t s, uint32_t c, uint32_t h, plog_t *log) {
  c104_net_t *w = mk(s, c, h, log);
  for (uint32_t v = 0; v < c; v++)
    if (c104_net_send(w, 0, v, 32 * 96))
      die_model("send failed");
  run_until(w, log, CO_CH_K0 + CO_CH_M + 1, 0);
  const double dt =
      (double)(data_k(log, CO_CH_K0 + CO_CH_M)->t_deliver - data_k(log, CO_CH_K0)->t_deliver);
  c104_net_free(w);
  return 32.0 * CO_CH_M / dt * 100.0;
}

int madpost_cmd_c104cost(int argc, char **argv) {
  uint64_t H = 1, smax = 14;
  int fmt = 0;
  for (int i = 0; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
      return co_usage(stdout);
  for (int i = 0; i < argc; i += 2) {
    const char *a = argv[i];
    if (strncmp(a, "--", 2) || i + 1 >= argc) {
      fprintf(stderr, "madpost: c104cost: '%s': expected --KEY VALUE\n", a);
      return co_usage(stderr);
    }
    const char *v = argv[i + 1];
    if (!strcmp(a, "--format")) {
      if (parse_format("c104cost", v, &fmt))
        return 2;
    } else if (!strcmp(a, "--hbytes")) {
      if (madpost_opt_whole("c104cost", "hbytes", v, 1, 2, &H))
        return 2;
    } else if (!strcmp(a, "--smax")) {
      if (madpost_opt_whole("c104cost", "smax", v, 0, CO_SMAX, &smax))
        return 2;
    } else {
      fprintf(stderr, "madpost: c104cost: unknown option '%s'\n", a);
      return 2;
    }
  }
  const uint32_t h = (uint32_t)H;
  const double b = 32;
  /* the model's parameters (§18.1, §18.3) and 002's estimates (§2), in cycles */
  const prm_t pm = {10, 2, 0, 10.0 * h + 5 + 1, h};
  const prm_t pp = {10, 20, 50, 100, 3};
  const double S_model = 10.0 * h + 10 * b + 4 + (h + 1) / 2.0; /* §18.3's exact send bound */
  plog_t log = {0};

  /* (1) T_p against s */
  const int ns = (int)smax + 1;
  double tp32[CO_SMAX + 1], tp1[CO_SMAX + 1];
  for (int s = 0; s < ns; s++) {
    tp32[s] = co_period((uint32_t)s, 32, h, &log);
    tp1[s] = co_period((uint32_t)s, 1, h, &log);
  }
  /* (2) crossover: the first s where T_p exceeds the send bound (T_p at s = 0, checked = S) */
  int scross = -1;
  for (int s = 1; s < ns && scross < 0; s++)
    if (tp32[s] > tp32[0] + 1e-9)
      scross = s;
  /* fits over the ack-bound points: R = a + slope s */
  double xs[CO_SMAX + 1], ys[CO_SMAX + 1], r1a = 0, r1b = 0, r32a = 0, r32b = 0;
  for (int s = 0; s < ns; s++)
    xs[s] = s, ys[s] = tp1[s];
  if (ns >= 2)
    lsq(xs, ys, ns, &r1a, &r1b);
  int nk = 0;
  if (scross > 0) {
    for (int s = scross; s < ns; s++)
      xs[nk] = s, ys[nk++] = tp32[s];
    if (nk >= 2)
      lsq(xs, ys, nk, &r32a, &r32b);
  }
  /* (3) T_m at s = 0, 1, s_cross + 3 */
  uint32_t sm[3] = {0, 1, scross >= 0 ? (uint32_t)scross + 3 : (uint32_t)smax + 3};
  enum { NN = 8 };
  double tma[3][NN], tmd[3][NN], tmg[3][NN], tps[3];
  for (int i = 0; i < 3; i++) {
    tps[i] = sm[i] < (uint32_t)ns ? tp32[sm[i]] : co_period(sm[i], 32, h, &log);
    for (int k = 0; k < NN; k++)
      co_msg(sm[i], 32u << k, h, &log, &tma[i][k], &tmd[i][k], &tmg[i][k]);
  }
  /* (4) channels */
  static const uint32_t sc[] = {0, 4, 9, 12, 16};
  enum { NS4 = 5, NC = 4 };
  double thr[NS4][NC], sat = 0;
  for (int i = 0; i < NS4; i++)
    for (uint32_t c = 1; c <= NC; c++) {
      thr[i][c - 1] = co_chan(sc[i], c, h, &log);
      sat = thr[i][c - 1] > sat ? thr[i][c - 1] : sat;
    }
  free(log.p);
  int cmin[NS4];
  for (int i = 0; i < NS4; i++) {
    cmin[i] = 0;
    for (int c = NC; c >= 1; c--)
      if (thr[i][c - 1] >= 0.98 * sat)
        cmin[i] = c;
  }

  static const char *const cols[] = {"figure", "h", "bytes", "s", "n", "c",
                                     "quantity", "unit", "value"};
  out_t o = {fmt, cols, 9, 0};
  char pj[96];
  snprintf(pj, sizeof pj, "\"hbytes\":%u,\"smax\":%u", h, (unsigned)smax);
  const char *method =
      "T_p: mean period between data packets' first loads (packets 10..58) on one VL; T_m: one "
      "message in a fresh idle line, from its creation to the last acknowledgement popped by the "
      "sender (T_m_ack) and to the EOM popped by the receiver (T_m_deliver); channels: c VLs in "
      "parallel, data bytes per us over 48 delivered packets after 16; eq1_model, eq2_model, "
      "eq4_model: 002's formulas with the model's alpha, beta, delta; eq1_002 etc.: with 002's "
      "estimates (alpha 100 ns, beta 200 ns, gamma 500 ns, delta 1 us, h 3); 1 cycle = 10 ns";
  out_begin(&o, "c104cost", pj, method);
  char hs[4];
  snprintf(hs, sizeof hs, "%u", h);
  if (fmt) {
    row(&o, "param", hs, "", "", "", "", "alpha", "cycles", FG(pm.alpha));
    row(&o, "param", hs, "", "", "", "", "beta", "cycles", FG(pm.beta));
    row(&o, "param", hs, "", "", "", "", "gamma", "cycles", FG(pm.gamma));
    row(&o, "param", hs, "", "", "", "", "delta", "cycles", FG(pm.delta));
    row(&o, "param", hs, "32", "", "", "", "S_model", "cycles", FG(S_model));
    for (int s = 0; s < ns; s++) {
      const char *ss = FU(s);
      row(&o, "tp", hs, "32", ss, "", "", "measured", "cycles", FG(tp32[s]));
      row(&o, "tp", hs, "32", ss, "", "", "eq1_model", "cycles", FG(eq1(&pm, 32, s)));
      row(&o, "tp", hs, "32", ss, "", "", "eq1_002", "cycles", FG(eq1(&pp, 32, s)));
      row(&o, "tp", hs, "1", ss, "", "", "measured", "cycles", FG(tp1[s]));
      row(&o, "tp", hs, "1", ss, "", "", "eq1_model", "cycles", FG(eq1(&pm, 1, s)));
      row(&o, "tp", hs, "1", ss, "", "", "eq1_002", "cycles", FG(eq1(&pp, 1, s)));
    }
    row(&o, "crossover", hs, "32", scross >= 0 ? FU(scross) : "", "", "", "measured", "switches",
        scross >= 0 ? FU(scross) : "");
    row(&o, "crossover", hs, "32", "", "", "", "eq2_model", "switches", FG(eq2(&pm, 32)));
    row(&o, "crossover", hs, "32", "", "", "", "eq2_002", "switches", FG(eq2(&pp, 32)));
    row(&o, "fit", hs, "1", "", "", "", "R_intercept", "cycles", FG(r1a));
    row(&o, "fit", hs, "1", "", "", "", "R_slope", "cycles/switch", FG(r1b));
    if (nk >= 2) {
      row(&o, "fit", hs, "32", "", "", "", "R_intercept", "cycles", FG(r32a));
      row(&o, "fit", hs, "32", "", "", "", "R_slope", "cycles/switch", FG(r32b));
      row(&o, "fit", hs, "32", "", "", "", "delta_measured", "cycles", FG(r32b / 2));
    }
    for (int i = 0; i < 3; i++)
      for (int k = 0; k < NN; k++) {
        const char *ss = FU(sm[i]), *nn = FU(32u << k);
        const double nb = (double)(32u << k) / 32.0;
        row(&o, "tm", hs, "32", ss, nn, "", "T_m_ack", "cycles", FG(tma[i][k]));
        row(&o, "tm", hs, "32", ss, nn, "", "T_m_deliver", "cycles", FG(tmd[i][k]));
        row(&o, "tm", hs, "32", ss, nn, "", "gamma_measured", "cycles", FG(tmg[i][k]));
        row(&o, "tm", hs, "32", ss, nn, "", "eq3_tp_measured", "cycles", FG(pm.gamma + nb * tps[i]));
        row(&o, "tm", hs, "32", ss, nn, "", "eq3_model", "cycles",
            FG(pm.gamma + nb * eq1(&pm, 32, sm[i])));
        row(&o, "tm", hs, "32", ss, nn, "", "eq3_002", "cycles",
            FG(pp.gamma + nb * eq1(&pp, 32, sm[i])));
      }
    row(&o, "channels", hs, "32", "", "", "", "saturated", "bytes/us", FG(sat));
    for (int i = 0; i < NS4; i++) {
      const char *ss = FU(sc[i]);
      for (int c = 1; c <= NC; c++)
        row(&o, "channels", hs, "32", ss, "", FU(c), "throughput", "bytes/us", FG(thr[i][c - 1]));
      const double tp1c = 32.0 * 100.0 / thr[i][0];
      row(&o, "channels", hs, "32", ss, "", "", "c_min_measured", "channels",
          cmin[i] ? FU(cmin[i]) : "");
      row(&o, "channels", hs, "32", ss, "", "", "ceil_tp_over_S", "channels",
          FG(ceil(tp1c / S_model - 1e-9)));
      row(&o, "channels", hs, "32", ss, "", "", "eq4_model", "channels", FG(eq4(&pm, 32, sc[i])));
      row(&o, "channels", hs, "32", ss, "", "", "eq4_002", "channels", FG(eq4(&pp, 32, sc[i])));
    }
    out_end(&o);
    return 0;
  }

  printf("madpost c104cost: seed 002 equations (1)-(4) on the C104 network model "
         "(docs/c104.md §18.3)\n"
         "Two endpoints on a line of s C104s (s = 0: wired directly), one link each, H = %u, "
         "b = 32.\n1 cycle = 10 ns.\n\n", h);
  printf("Parameters (cycles):        alpha   beta  gamma  delta     h\n");
  printf("  model (§18.3)            %6.0f %6.0f %6.0f %6.0f %5u   (delta = 10h + 5 + w, w = 1)\n",
         pm.alpha, pm.beta, pm.gamma, pm.delta, h);
  printf("  002's estimates          %6.0f %6.0f %6.0f %6.0f %5.0f   (100 ns, 200 ns, 500 ns, 1 us)\n",
         pp.alpha, pp.beta, pp.gamma, pp.delta, pp.h);
  printf("  model's exact send bound S = 10h + 10b + 4 + (h+1)/2 = %.1f cycles (§18.3)\n\n",
         S_model);
  printf("(1) Single-packet cost T_p (cycles): mean period between data packets' first loads,\n"
         "    one VL, packets 10..58 (12 whole FCT cycles), idle line of s switches.\n"
         "    eq1 = max(beta + (h+b+1) alpha, 2 beta + (2h+1) alpha + 2 s delta).\n\n");
  printf("%3s | %-28s | %s\n", "", "32-byte packets", "1-byte packets");
  printf("%3s | %8s %9s %9s | %8s %9s %9s\n", "s", "measured", "eq1 model", "eq1 002",
         "measured", "eq1 model", "eq1 002");
  for (int s = 0; s < ns; s++)
    printf("%3d | %8.2f %9.1f %9.1f | %8.2f %9.1f %9.1f\n", s, tp32[s], eq1(&pm, 32, s),
           eq1(&pp, 32, s), tp1[s], eq1(&pm, 1, s), eq1(&pp, 1, s));
  printf("\n    Measured at s = 0: %.2f (model's S = %.1f).", tp32[0], S_model);
  if (ns >= 2)
    printf(" 1-byte packets: R = %.2f + %.2f s (least squares, s = 0..%d).", r1a, r1b, ns - 1);
  if (nk >= 2)
    printf("\n    32-byte packets, ack-bound points s = %d..%d: R = %.2f + %.2f s, so the measured"
           "\n    delta (half the slope) is %.2f cycles (the stated %.0f assumes w = 1).", scross,
           ns - 1, r32a, r32b, r32b / 2, pm.delta);
  printf("\n\n(2) Crossover (first s where T_p exceeds the send bound):\n");
  if (scross >= 0)
    printf("    measured s = %d (T_p %.2f > %.2f)\n", scross, tp32[scross], tp32[0]);
  else
    printf("    measured: none up to s = %d\n", ns - 1);
  printf("    eq. (2) ((b-h) alpha - beta) / (2 delta): model's parameters %.3f (first s = %.0f), "
         "002's estimates %.3f (first s = %.0f)\n\n",
         eq2(&pm, 32), ceil(eq2(&pm, 32)), eq2(&pp, 32), ceil(eq2(&pp, 32)));
  printf("(3) Message cost T_m (cycles) of n bytes, one VL, fresh idle line: measured from the\n"
         "    message's creation to the last acknowledgement popped by the sender (ack) and to the\n"
         "    EOM popped by the receiver (deliver); eq3 = gamma + (n/b) T_p with T_p measured\n"
         "    (gamma = 0), with eq1 (model) and with 002's estimates. Creation to first load:");
  for (int i = 0; i < 3; i++)
    printf(" %.0f", tmg[i][0]);
  printf(" cycles.\n");
  for (int i = 0; i < 3; i++) {
    printf("\n    s = %u (T_p measured %.2f)%s\n", sm[i], tps[i],
           i == 2 ? " = crossover + 3" : "");
    printf("    %5s | %8s %8s | %10s %9s %9s | %7s\n", "n", "ack", "deliver", "eq3 T_p", "eq3 model",
           "eq3 002", "ack-eq3");
    for (int k = 0; k < NN; k++) {
      const double nb = (double)(32u << k) / 32.0;
      printf("    %5u | %8.0f %8.0f | %10.1f %9.1f %9.1f | %7.1f\n", 32u << k, tma[i][k], tmd[i][k],
             nb * tps[i], pm.gamma + nb * eq1(&pm, 32, sm[i]), pp.gamma + nb * eq1(&pp, 32, sm[i]),
             tma[i][k] - nb * tps[i]);
    }
  }
  printf("\n(4) Channels: c VLs in parallel on one link between the endpoints, each a long message;\n"
         "    data bytes delivered per us over 48 packets after 16. Saturated link rate = the\n"
         "    highest measured, %.3f bytes/us (32/S = %.3f); c_min = smallest c within 2%% of it.\n\n",
         sat, 3200.0 / S_model);
  printf("%3s | %7s %7s %7s %7s | %5s %11s %10s %10s\n", "s", "c=1", "c=2", "c=3", "c=4", "c_min",
         "ceil(Tp/S)", "eq4 model", "eq4 002");
  for (int i = 0; i < NS4; i++) {
    const double tp1c = 32.0 * 100.0 / thr[i][0];
    char cm[8];
    if (cmin[i])
      snprintf(cm, sizeof cm, "%d", cmin[i]);
    else
      snprintf(cm, sizeof cm, ">%d", NC);
    const double e4m = eq4(&pm, 32, sc[i]), e4p = eq4(&pp, 32, sc[i]);
    printf("%3u | %7.3f %7.3f %7.3f %7.3f | %5s %11.0f %5.2f (%.0f) %5.2f (%.0f)\n", sc[i], thr[i][0],
           thr[i][1], thr[i][2], thr[i][3], cm, ceil(tp1c / S_model - 1e-9), e4m, ceil(e4m), e4p,
           ceil(e4p));
  }
  printf("\n    ceil(Tp/S): T_p from the c = 1 throughput. eq. (4): c >= R/S (its ceiling in\n"
         "    brackets); 002 at s = 6 with its estimates: \"about 3\".\n");
  return 0;
}
