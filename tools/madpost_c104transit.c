/* madpost c104transit: seed 000 §4.1.5 measured on the C104 network model (docs/c104.md §18.2):
 * the transit of one m-byte message directly, through one and through two C104s, and the
 * throughput of one VL, beside 000's published values. Deterministic; table, CSV or JSON. */
#include <stdio.h>
#include <stdlib.h>

#include "madpost_c104fig.h"
#include "madpost_opt.h"
#include "madpost_rows.h"

int madpost_cmd_c104transit(int argc, char **argv);

enum { TR_MMAX = 64, TR_THR_MSGS = 200, TR_THR_WARM = 8 };

/* 000 §4.1.5 (docs/c104.md §18.2), m = 0..6 */
static const double p000_direct_ns[7] = {212, 312, 412, 512, 612, 712, 812};
static const double p000_c104_ns[7] = {362, 462, 574, 674, 775, 863, 962};
static const double p000_direct_ms[7] = {2667, 2623, 2424, 1951, 1632, 1403, 1230};
static const double p000_c104_ms[7] = {1482, 1468, 1454, 1454, 1428, 1403, 1230};

static const char *const path[3] = {"direct", "c104", "two_c104"};

/* Everything measured and fitted, for m = 0..n-1 (n - 1 = --max-bytes). */
typedef struct {
  int n, np;                            /* np: the points of 000's fit, m = 0..min(M, 6) */
  long tf[3][TR_MMAX + 1], t4[3][TR_MMAX + 1]; /* transit: fresh, max of 4; per switches 0..2 */
  double per[2][TR_MMAX + 1];           /* back-to-back period, switches 0..1 */
  double fa[3], fb[3], pa[2], pb[2];    /* lines: ours (fresh) and 000's, intercept a slope b */
} transit_t;

static int tr_usage(FILE *f) {
  fprintf(f, "usage: madpost c104transit [--max-bytes M (6, 0..64)] [--format table|csv|json]\n"
             "  Seed 000 §4.1.5 on the C104 network model (docs/c104.md §18.2): transit of one\n"
             "  m-byte message, m = 0..M, directly, through one and through two C104s, and the\n"
             "  throughput of one VL (messages back to back), beside 000's published values.\n");
  return f == stderr ? 2 : 0;
}

/* Transit (header loaded onto the sender's wire .. EOM popped) of one m-byte message sent into a
   fresh idle network of s switches. */
static long transit_fresh(uint32_t s, uint32_t m, madpost_plog_t *log) {
  c104_net_t *w = madpost_fig_net(s, 1, 0, log);
  madpost_fig_send(w, 0, m);
  madpost_fig_run_until(w, log, 1, 1);
  const c104_net_pkt_t *d = madpost_fig_data(log, 0);
  const long t = (long)(d->t_deliver - d->t_out);
  c104_net_free(w);
  return t;
}

/* The largest transit of 4 consecutive m-byte messages in one network, each sent 37 cycles after
   the previous one's acknowledgement is in (one message in four meets an FCT of the sender's). */
static long transit_max4(uint32_t s, uint32_t m, madpost_plog_t *log) {
  c104_net_t *w = madpost_fig_net(s, 1, 0, log);
  long mx = 0;
  for (int k = 0; k < 4; k++) {
    madpost_fig_send(w, 0, m);
    madpost_fig_run_until(w, log, k + 1, k + 1);
    const c104_net_pkt_t *d = madpost_fig_data(log, k);
    const long t = (long)(d->t_deliver - d->t_out);
    mx = t > mx ? t : mx;
    madpost_fig_step_n(w, 37);
  }
  c104_net_free(w);
  return mx;
}

/* Mean period (cycles) between the first loads of consecutive messages, one VL, 208 m-byte messages
   queued at once (each starts when the previous one's acknowledgement is in), over the 200 after
   the first 8. */
static double thr_period(uint32_t s, uint32_t m, madpost_plog_t *log) {
  c104_net_t *w = madpost_fig_net(s, 1, 0, log);
  for (int k = 0; k < TR_THR_MSGS + TR_THR_WARM; k++)
    madpost_fig_send(w, 0, m);
  madpost_fig_run_until(w, log, TR_THR_MSGS + TR_THR_WARM, TR_THR_MSGS + TR_THR_WARM);
  const double p = (double)(madpost_fig_data(log, TR_THR_MSGS + TR_THR_WARM - 1)->t_out -
                            madpost_fig_data(log, TR_THR_WARM - 1)->t_out) /
                   TR_THR_MSGS;
  c104_net_free(w);
  return p;
}

static void measure(transit_t *t) {
  madpost_plog_t log = {0};
  for (uint32_t s = 0; s <= 2; s++)
    for (int m = 0; m < t->n; m++) {
      t->tf[s][m] = transit_fresh(s, (uint32_t)m, &log);
      t->t4[s][m] = transit_max4(s, (uint32_t)m, &log);
    }
  for (uint32_t s = 0; s <= 1; s++)
    for (int m = 0; m < t->n; m++)
      t->per[s][m] = thr_period(s, (uint32_t)m, &log);
  free(log.p);
}

/* Least-squares lines in ns over m = 0..M (ours, fresh) and 0..min(M, 6) (000). */
static void fit(transit_t *t) {
  const int n = t->n;
  double xs[TR_MMAX + 1], ys[TR_MMAX + 1];
  for (int m = 0; m < n; m++)
    xs[m] = m;
  for (int s = 0; s <= 2; s++) {
    for (int m = 0; m < n; m++)
      ys[m] = 10.0 * (double)t->tf[s][m];
    madpost_fig_lsq(xs, ys, n, &t->fa[s], &t->fb[s]);
  }
  t->np = n < 7 ? n : 7;
  if (t->np >= 2) {
    madpost_fig_lsq(xs, p000_direct_ns, t->np, &t->pa[0], &t->pb[0]);
    madpost_fig_lsq(xs, p000_c104_ns, t->np, &t->pa[1], &t->pb[1]);
  } else {
    t->pa[0] = p000_direct_ns[0], t->pa[1] = p000_c104_ns[0], t->pb[0] = t->pb[1] = 0;
  }
}

/* The transit, per-switch increment and fit rows. */
static void rows_transit(madpost_rows_t *o, const transit_t *t) {
  for (int s = 0; s <= 2; s++)
    for (int m = 0; m < t->n; m++) {
      const char *pap =
          m < 7 && s < 2 ? MADPOST_FG(o, s ? p000_c104_ns[m] : p000_direct_ns[m]) : "";
      const char *ss = MADPOST_FU(o, s), *ms = MADPOST_FU(o, m);
      madpost_row(o, "transit", path[s], ss, ms, "fresh", "transit", "cycles",
                  MADPOST_FU(o, t->tf[s][m]), "");
      madpost_row(o, "transit", path[s], ss, ms, "fresh", "transit", "ns",
                  MADPOST_FU(o, 10 * t->tf[s][m]), pap);
      madpost_row(o, "transit", path[s], ss, ms, "max4", "transit", "cycles",
                  MADPOST_FU(o, t->t4[s][m]), "");
    }
  for (int s = 1; s <= 2; s++)
    for (int m = 0; m < t->n; m++)
      madpost_row(o, "increment", path[s], MADPOST_FU(o, s), MADPOST_FU(o, m), "fresh",
                  "per_switch", "ns", MADPOST_FU(o, 10 * (t->tf[s][m] - t->tf[s - 1][m])),
                  s == 1 && m < 7 ? MADPOST_FG(o, p000_c104_ns[m] - p000_direct_ns[m]) : "");
  for (int s = 0; s <= 2; s++) {
    madpost_row(o, "fit", path[s], MADPOST_FU(o, s), "", "fresh", "slope", "ns/byte",
                MADPOST_FG(o, t->fb[s]), s < 2 && t->np >= 2 ? MADPOST_FG(o, t->pb[s]) : "");
    madpost_row(o, "fit", path[s], MADPOST_FU(o, s), "", "fresh", "intercept", "ns",
                MADPOST_FG(o, t->fa[s]), s < 2 ? MADPOST_FG(o, t->pa[s]) : "");
  }
}

static void rows_throughput(madpost_rows_t *o, const transit_t *t) {
  for (int s = 0; s <= 1; s++)
    for (int m = 0; m < t->n; m++) {
      madpost_row(o, "throughput", path[s], MADPOST_FU(o, s), MADPOST_FU(o, m), "back_to_back",
                  "period", "cycles", MADPOST_FG(o, t->per[s][m]), "");
      madpost_row(o, "throughput", path[s], MADPOST_FU(o, s), MADPOST_FU(o, m), "back_to_back",
                  "rate", "msgs/ms", madpost_rows_num(o, "%.1f", 1e5 / t->per[s][m]),
                  m < 7 ? MADPOST_FG(o, s ? p000_c104_ms[m] : p000_direct_ms[m]) : "");
    }
}

static void print_rows(const transit_t *t, int fmt) {
  static const char *const cols[] = {"figure", "path", "switches", "m", "method",
                                     "quantity", "unit", "value", "paper_000"};
  madpost_rows_t o = {.fmt = fmt, .cols = cols, .ncols = 9};
  char pj[64];
  snprintf(pj, sizeof pj, "\"max-bytes\":%u", (unsigned)(t->n - 1));
  const char *method =
      "transit = header loaded onto the sender's wire .. EOM popped at the receiver; method fresh: "
      "each m in a fresh idle network (one message); max4: the largest of 4 consecutive messages "
      "in one network (one in four waits behind an FCT of the sender's); throughput: one VL, "
      "208 messages queued, each sent when the previous acknowledgement is in, period over the "
      "last 200; 1 cycle = 10 ns";
  madpost_rows_begin(&o, "c104transit", pj, method);
  rows_transit(&o, t);
  rows_throughput(&o, t);
  madpost_rows_end(&o);
}

/* Table (a): transit against m, then the fitted lines. */
static void table_transit(const transit_t *t) {
  const int n = t->n;
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
    printf("%3d | %6ld %6ld %6s %5ld | %6ld %6ld %6s %5ld | %7ld %7s | %6ld %7ld\n", m,
           t->tf[0][m], 10 * t->tf[0][m], a, t->t4[0][m], t->tf[1][m], 10 * t->tf[1][m], b,
           t->t4[1][m], 10 * (t->tf[1][m] - t->tf[0][m]), c, t->tf[2][m],
           10 * (t->tf[2][m] - t->tf[1][m]));
  }
  printf("\n    Least squares over m = 0..%d (ours) and 0..%d (000), transit = intercept + slope m:\n",
         n - 1, t->np - 1);
  printf("      direct:        ours %6.1f ns/byte, %6.1f ns   000 %6.1f ns/byte, %6.1f ns\n",
         t->fb[0], t->fa[0], t->pb[0], t->pa[0]);
  printf("      via one C104:  ours %6.1f ns/byte, %6.1f ns   000 %6.1f ns/byte, %6.1f ns\n",
         t->fb[1], t->fa[1], t->pb[1], t->pa[1]);
  printf("      via two C104s: ours %6.1f ns/byte, %6.1f ns\n", t->fb[2], t->fa[2]);
  printf("      per C104 (intercepts): ours %.1f ns, 000 %.1f ns (000's increments 150-163 ns)\n",
         t->fa[1] - t->fa[0], t->pa[1] - t->pa[0]);
}

/* Table (b): the back-to-back throughput against m. */
static void table_throughput(const transit_t *t) {
  printf("\n(b) Throughput, one VL, m-byte messages back to back (the next message when the previous\n"
         "    acknowledgement is in): mean period between messages' first loads over %d messages\n"
         "    after %d.\n\n",
         TR_THR_MSGS, TR_THR_WARM);
  printf("%3s | %-30s | %s\n", "", "direct", "via one C104");
  printf("%3s | %7s %8s %7s %5s | %7s %8s %7s %5s\n", "m", "cycles", "msgs/ms", "000", "ratio",
         "cycles", "msgs/ms", "000", "ratio");
  for (int m = 0; m < t->n; m++) {
    const double r0 = 1e5 / t->per[0][m], r1 = 1e5 / t->per[1][m];
    if (m < 7)
      printf("%3d | %7.2f %8.1f %7.0f %5.2f | %7.2f %8.1f %7.0f %5.2f\n", m, t->per[0][m], r0,
             p000_direct_ms[m], r0 / p000_direct_ms[m], t->per[1][m], r1, p000_c104_ms[m],
             r1 / p000_c104_ms[m]);
    else
      printf("%3d | %7.2f %8.1f %7s %5s | %7.2f %8.1f %7s %5s\n", m, t->per[0][m], r0, "-", "-",
             t->per[1][m], r1, "-", "-");
  }
}

static void print_table(const transit_t *t) {
  printf("madpost c104transit: seed 000 §4.1.5 on the C104 network model (docs/c104.md §18.2)\n"
         "Two T9000-style endpoints, one link each, one VL, H = 1: directly (pair), through one\n"
         "C104 and through two (line of s = 1, 2 switches). 1 cycle = 10 ns.\n\n");
  printf("(a) Transit of one m-byte message: header loaded onto the sender's wire .. EOM popped at\n"
         "    the receiver. Method: each m measured alone in a fresh idle network (no FCT falls\n"
         "    in the way); max4 = the largest of 4 consecutive m-byte messages in one network, each\n"
         "    sent 37 cycles after the previous acknowledgement (one in four waits behind an FCT).\n\n");
  table_transit(t);
  table_throughput(t);
}

int madpost_cmd_c104transit(int argc, char **argv) {
  uint64_t M = 6;
  int fmt = MADPOST_ROWS_TABLE, rc;
  const madpost_opt_whole_t opt[] = {{"max-bytes", 0, TR_MMAX, &M}};
  if (madpost_opt_args("c104transit", argc, argv, opt, 1, tr_usage, &fmt, &rc))
    return rc;
  transit_t t = {.n = (int)M + 1};
  measure(&t);
  fit(&t);
  if (fmt != MADPOST_ROWS_TABLE)
    print_rows(&t, fmt);
  else
    print_table(&t);
  return 0;
}
