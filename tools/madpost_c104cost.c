/* madpost c104cost: seed 002 equations (1)-(4) measured on the C104 network model (docs/c104.md
 * §18.3): packet cost T_p against switches s, the crossover s, message cost T_m, and the channels
 * needed to saturate a link, beside 002's formulas with the model's and 002's parameters. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "madpost_c104fig.h"
#include "madpost_opt.h"
#include "madpost_rows.h"

int madpost_cmd_c104cost(int argc, char **argv);

enum { CO_SMAX = 20, CO_PKTS = 62, CO_CH_K0 = 16, CO_CH_M = 48 };
enum { NN = 8, NS4 = 5, NC = 4 }; /* message sizes of (3); switch counts and channels of (4) */

static const uint32_t sc[NS4] = {0, 4, 9, 12, 16}; /* the switch counts of (4) */

/* 002's parameters in cycles (1 cycle = 10 ns). */
typedef struct {
  double alpha, beta, gamma, delta, h;
} prm_t;

/* Everything measured and fitted. */
typedef struct {
  uint32_t h;
  int ns;                               /* s = 0..ns-1 for (1) */
  prm_t pm, pp;                         /* the model's parameters and 002's estimates */
  double S_model;                       /* §18.3's exact send bound */
  double tp32[CO_SMAX + 1], tp1[CO_SMAX + 1]; /* (1) T_p of 32- and 1-byte packets */
  int scross;                           /* (2) the first s where T_p exceeds the send bound */
  double r1a, r1b, r32a, r32b;          /* lines R = a + b s: 1-byte, 32-byte ack-bound points */
  int nk;                               /* the ack-bound points */
  uint32_t sm[3];                       /* (3) at s = 0, 1, crossover + 3 */
  double tma[3][NN], tmd[3][NN], tmg[3][NN], tps[3];
  double thr[NS4][NC], sat;             /* (4) bytes/us per switch count and channels */
  int cmin[NS4];
} cost_t;

static int co_usage(FILE *f) {
  fprintf(f, "usage: madpost c104cost [--hbytes 1|2 (1)] [--smax S (14, 0..%d)] "
             "[--format table|csv|json]\n"
             "  Seed 002 equations (1)-(4) on the C104 network model (docs/c104.md §18.3): packet\n"
             "  cost T_p against switches s, the crossover s, message cost T_m, and the channels\n"
             "  needed to saturate a link, beside 002's formulas with the model's and 002's values.\n",
          CO_SMAX);
  return f == stderr ? 2 : 0;
}

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

/* ---- Measurement -------------------------------------------------------------------------- */

/* Mean period (cycles) between the first loads of data packets 10 and 58 of a stream of len-byte
   packets on one VL (32: one message of 62 packets; else 62 messages of len bytes). */
static double co_period(uint32_t s, uint32_t len, uint32_t h, madpost_plog_t *log) {
  c104_net_t *w = madpost_fig_net(s, 1, h, log);
  if (len == 32) {
    madpost_fig_send(w, 0, 32 * CO_PKTS);
  } else {
    for (int k = 0; k < CO_PKTS; k++)
      madpost_fig_send(w, 0, len);
  }
  madpost_fig_run_until(w, log, 59, 0);
  const double p =
      (double)(madpost_fig_data(log, 58)->t_out - madpost_fig_data(log, 10)->t_out) / 48.0;
  c104_net_free(w);
  return p;
}

/* One message of n bytes (n/32 packets) in a fresh idle line: cycles from its creation to the
   last acknowledgement popped by the sender (*ack) and to the EOM popped by the receiver (*dlv);
   *gam: creation to the first header's load. */
static void co_msg(uint32_t s, uint32_t nb, uint32_t h, madpost_plog_t *log, double *ack,
                   double *dlv, double *gam) {
  c104_net_t *w = madpost_fig_net(s, 1, h, log);
  madpost_fig_send(w, 0, nb);
  const int np = (int)(nb / 32);
  madpost_fig_run_until(w, log, np, np);
  const c104_net_pkt_t *f = madpost_fig_data(log, 0), *l = madpost_fig_data(log, np - 1),
                       *a = madpost_fig_ack(log, np - 1);
  *ack = (double)(a->t_deliver - f->t_create);
  *dlv = (double)(l->t_deliver - f->t_create);
  *gam = (double)(f->t_out - f->t_create);
  c104_net_free(w);
}

/* c VLs in parallel, each a long message of 32-byte packets: data bytes delivered per us over
   data packets CO_CH_K0 .. CO_CH_K0 + CO_CH_M (in delivery order). */
static double co_chan(uint32_t s, uint32_t c, uint32_t h, madpost_plog_t *log) {
  c104_net_t *w = madpost_fig_net(s, c, h, log);
  for (uint32_t v = 0; v < c; v++)
    madpost_fig_send(w, v, 32 * 96);
  madpost_fig_run_until(w, log, CO_CH_K0 + CO_CH_M + 1, 0);
  const double dt = (double)(madpost_fig_data(log, CO_CH_K0 + CO_CH_M)->t_deliver -
                             madpost_fig_data(log, CO_CH_K0)->t_deliver);
  c104_net_free(w);
  return 32.0 * CO_CH_M / dt * 100.0;
}

/* (1) T_p against s, (2) the crossover, and the lines through the ack-bound points. */
static void measure_tp(cost_t *t, madpost_plog_t *log) {
  const int ns = t->ns;
  for (int s = 0; s < ns; s++) {
    t->tp32[s] = co_period((uint32_t)s, 32, t->h, log);
    t->tp1[s] = co_period((uint32_t)s, 1, t->h, log);
  }
  /* the first s where T_p exceeds the send bound (T_p at s = 0, checked = S) */
  t->scross = -1;
  for (int s = 1; s < ns && t->scross < 0; s++)
    if (t->tp32[s] > t->tp32[0] + 1e-9)
      t->scross = s;
  double xs[CO_SMAX + 1], ys[CO_SMAX + 1];
  for (int s = 0; s < ns; s++)
    xs[s] = s, ys[s] = t->tp1[s];
  if (ns >= 2)
    madpost_fig_lsq(xs, ys, ns, &t->r1a, &t->r1b);
  t->nk = 0;
  if (t->scross > 0) {
    for (int s = t->scross; s < ns; s++)
      xs[t->nk] = s, ys[t->nk++] = t->tp32[s];
    if (t->nk >= 2)
      madpost_fig_lsq(xs, ys, t->nk, &t->r32a, &t->r32b);
  }
}

/* (3) T_m at s = 0, 1 and crossover + 3 (smax + 3 without a crossover). */
static void measure_tm(cost_t *t, uint32_t smax, madpost_plog_t *log) {
  t->sm[0] = 0, t->sm[1] = 1;
  t->sm[2] = t->scross >= 0 ? (uint32_t)t->scross + 3 : smax + 3;
  for (int i = 0; i < 3; i++) {
    t->tps[i] = t->sm[i] < (uint32_t)t->ns ? t->tp32[t->sm[i]] : co_period(t->sm[i], 32, t->h, log);
    for (int k = 0; k < NN; k++)
      co_msg(t->sm[i], 32u << k, t->h, log, &t->tma[i][k], &t->tmd[i][k], &t->tmg[i][k]);
  }
}

/* (4) throughput with 1..NC channels, the saturated rate and the fewest channels reaching it. */
static void measure_channels(cost_t *t, madpost_plog_t *log) {
  t->sat = 0;
  for (int i = 0; i < NS4; i++)
    for (uint32_t c = 1; c <= NC; c++) {
      t->thr[i][c - 1] = co_chan(sc[i], c, t->h, log);
      t->sat = t->thr[i][c - 1] > t->sat ? t->thr[i][c - 1] : t->sat;
    }
  for (int i = 0; i < NS4; i++) {
    t->cmin[i] = 0;
    for (int c = NC; c >= 1; c--)
      if (t->thr[i][c - 1] >= 0.98 * t->sat)
        t->cmin[i] = c;
  }
}

/* ---- Rows (CSV, JSON) ---------------------------------------------------------------------- */

static void rows_params(madpost_rows_t *o, const cost_t *t, const char *hs) {
  madpost_row(o, "param", hs, "", "", "", "", "alpha", "cycles", MADPOST_FG(o, t->pm.alpha));
  madpost_row(o, "param", hs, "", "", "", "", "beta", "cycles", MADPOST_FG(o, t->pm.beta));
  madpost_row(o, "param", hs, "", "", "", "", "gamma", "cycles", MADPOST_FG(o, t->pm.gamma));
  madpost_row(o, "param", hs, "", "", "", "", "delta", "cycles", MADPOST_FG(o, t->pm.delta));
  madpost_row(o, "param", hs, "32", "", "", "", "S_model", "cycles", MADPOST_FG(o, t->S_model));
}

/* The rows of T_p at s for b-byte packets (bs, the same as text). */
static void rows_tp_at(madpost_rows_t *o, const cost_t *t, const char *hs, const char *bs,
                       double b, double tp, int s) {
  const char *ss = MADPOST_FU(o, s);
  madpost_row(o, "tp", hs, bs, ss, "", "", "measured", "cycles", MADPOST_FG(o, tp));
  madpost_row(o, "tp", hs, bs, ss, "", "", "eq1_model", "cycles", MADPOST_FG(o, eq1(&t->pm, b, s)));
  madpost_row(o, "tp", hs, bs, ss, "", "", "eq1_002", "cycles", MADPOST_FG(o, eq1(&t->pp, b, s)));
}

static void rows_tp(madpost_rows_t *o, const cost_t *t, const char *hs) {
  for (int s = 0; s < t->ns; s++) {
    rows_tp_at(o, t, hs, "32", 32, t->tp32[s], s);
    rows_tp_at(o, t, hs, "1", 1, t->tp1[s], s);
  }
  const char *sx = t->scross >= 0 ? MADPOST_FU(o, t->scross) : "";
  madpost_row(o, "crossover", hs, "32", sx, "", "", "measured", "switches", sx);
  madpost_row(o, "crossover", hs, "32", "", "", "", "eq2_model", "switches",
              MADPOST_FG(o, eq2(&t->pm, 32)));
  madpost_row(o, "crossover", hs, "32", "", "", "", "eq2_002", "switches",
              MADPOST_FG(o, eq2(&t->pp, 32)));
  madpost_row(o, "fit", hs, "1", "", "", "", "R_intercept", "cycles", MADPOST_FG(o, t->r1a));
  madpost_row(o, "fit", hs, "1", "", "", "", "R_slope", "cycles/switch", MADPOST_FG(o, t->r1b));
  if (t->nk >= 2) {
    madpost_row(o, "fit", hs, "32", "", "", "", "R_intercept", "cycles", MADPOST_FG(o, t->r32a));
    madpost_row(o, "fit", hs, "32", "", "", "", "R_slope", "cycles/switch",
                MADPOST_FG(o, t->r32b));
    madpost_row(o, "fit", hs, "32", "", "", "", "delta_measured", "cycles",
                MADPOST_FG(o, t->r32b / 2));
  }
}

static void rows_tm(madpost_rows_t *o, const cost_t *t, const char *hs) {
  const prm_t *pm = &t->pm, *pp = &t->pp;
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < NN; k++) {
      const char *ss = MADPOST_FU(o, t->sm[i]), *nn = MADPOST_FU(o, 32u << k);
      const double nb = (double)(32u << k) / 32.0;
      madpost_row(o, "tm", hs, "32", ss, nn, "", "T_m_ack", "cycles", MADPOST_FG(o, t->tma[i][k]));
      madpost_row(o, "tm", hs, "32", ss, nn, "", "T_m_deliver", "cycles",
                  MADPOST_FG(o, t->tmd[i][k]));
      madpost_row(o, "tm", hs, "32", ss, nn, "", "gamma_measured", "cycles",
                  MADPOST_FG(o, t->tmg[i][k]));
      madpost_row(o, "tm", hs, "32", ss, nn, "", "eq3_tp_measured", "cycles",
                  MADPOST_FG(o, pm->gamma + nb * t->tps[i]));
      madpost_row(o, "tm", hs, "32", ss, nn, "", "eq3_model", "cycles",
                  MADPOST_FG(o, pm->gamma + nb * eq1(pm, 32, t->sm[i])));
      madpost_row(o, "tm", hs, "32", ss, nn, "", "eq3_002", "cycles",
                  MADPOST_FG(o, pp->gamma + nb * eq1(pp, 32, t->sm[i])));
    }
}

static void rows_channels(madpost_rows_t *o, const cost_t *t, const char *hs) {
  madpost_row(o, "channels", hs, "32", "", "", "", "saturated", "bytes/us", MADPOST_FG(o, t->sat));
  for (int i = 0; i < NS4; i++) {
    const char *ss = MADPOST_FU(o, sc[i]);
    for (int c = 1; c <= NC; c++)
      madpost_row(o, "channels", hs, "32", ss, "", MADPOST_FU(o, c), "throughput", "bytes/us",
                  MADPOST_FG(o, t->thr[i][c - 1]));
    const double tp1c = 32.0 * 100.0 / t->thr[i][0];
    madpost_row(o, "channels", hs, "32", ss, "", "", "c_min_measured", "channels",
                t->cmin[i] ? MADPOST_FU(o, t->cmin[i]) : "");
    madpost_row(o, "channels", hs, "32", ss, "", "", "ceil_tp_over_S", "channels",
                MADPOST_FG(o, ceil(tp1c / t->S_model - 1e-9)));
    madpost_row(o, "channels", hs, "32", ss, "", "", "eq4_model", "channels",
                MADPOST_FG(o, eq4(&t->pm, 32, sc[i])));
    madpost_row(o, "channels", hs, "32", ss, "", "", "eq4_002", "channels",
                MADPOST_FG(o, eq4(&t->pp, 32, sc[i])));
  }
}

static void print_rows(const cost_t *t, uint32_t smax, int fmt) {
  static const char *const cols[] = {"figure", "h", "bytes", "s", "n", "c",
                                     "quantity", "unit", "value"};
  madpost_rows_t o = {.fmt = fmt, .cols = cols, .ncols = 9};
  char pj[96];
  snprintf(pj, sizeof pj, "\"hbytes\":%u,\"smax\":%u", t->h, (unsigned)smax);
  const char *method =
      "T_p: mean period between data packets' first loads (packets 10..58) on one VL; T_m: one "
      "message in a fresh idle line, from its creation to the last acknowledgement popped by the "
      "sender (T_m_ack) and to the EOM popped by the receiver (T_m_deliver); channels: c VLs in "
      "parallel, data bytes per us over 48 delivered packets after 16; eq1_model, eq2_model, "
      "eq4_model: 002's formulas with the model's alpha, beta, delta; eq1_002 etc.: with 002's "
      "estimates (alpha 100 ns, beta 200 ns, gamma 500 ns, delta 1 us, h 3); 1 cycle = 10 ns";
  madpost_rows_begin(&o, "c104cost", pj, method);
  char hs[4];
  snprintf(hs, sizeof hs, "%u", t->h);
  rows_params(&o, t, hs);
  rows_tp(&o, t, hs);
  rows_tm(&o, t, hs);
  rows_channels(&o, t, hs);
  madpost_rows_end(&o);
}

/* ---- Table ----------------------------------------------------------------------------------- */

static void table_params(const cost_t *t) {
  printf("madpost c104cost: seed 002 equations (1)-(4) on the C104 network model "
         "(docs/c104.md §18.3)\n"
         "Two endpoints on a line of s C104s (s = 0: wired directly), one link each, H = %u, "
         "b = 32.\n1 cycle = 10 ns.\n\n", t->h);
  printf("Parameters (cycles):        alpha   beta  gamma  delta     h\n");
  printf("  model (§18.3)            %6.0f %6.0f %6.0f %6.0f %5u   (delta = 10h + 5 + w, w = 1)\n",
         t->pm.alpha, t->pm.beta, t->pm.gamma, t->pm.delta, t->h);
  printf("  002's estimates          %6.0f %6.0f %6.0f %6.0f %5.0f   (100 ns, 200 ns, 500 ns, 1 us)\n",
         t->pp.alpha, t->pp.beta, t->pp.gamma, t->pp.delta, t->pp.h);
  printf("  model's exact send bound S = 10h + 10b + 4 + (h+1)/2 = %.1f cycles (§18.3)\n\n",
         t->S_model);
}

/* (1) and (2). */
static void table_tp(const cost_t *t) {
  const prm_t *pm = &t->pm, *pp = &t->pp;
  const int ns = t->ns;
  printf("(1) Single-packet cost T_p (cycles): mean period between data packets' first loads,\n"
         "    one VL, packets 10..58 (12 whole FCT cycles), idle line of s switches.\n"
         "    eq1 = max(beta + (h+b+1) alpha, 2 beta + (2h+1) alpha + 2 s delta).\n\n");
  printf("%3s | %-28s | %s\n", "", "32-byte packets", "1-byte packets");
  printf("%3s | %8s %9s %9s | %8s %9s %9s\n", "s", "measured", "eq1 model", "eq1 002",
         "measured", "eq1 model", "eq1 002");
  for (int s = 0; s < ns; s++)
    printf("%3d | %8.2f %9.1f %9.1f | %8.2f %9.1f %9.1f\n", s, t->tp32[s], eq1(pm, 32, s),
           eq1(pp, 32, s), t->tp1[s], eq1(pm, 1, s), eq1(pp, 1, s));
  printf("\n    Measured at s = 0: %.2f (model's S = %.1f).", t->tp32[0], t->S_model);
  if (ns >= 2)
    printf(" 1-byte packets: R = %.2f + %.2f s (least squares, s = 0..%d).", t->r1a, t->r1b,
           ns - 1);
  if (t->nk >= 2)
    printf("\n    32-byte packets, ack-bound points s = %d..%d: R = %.2f + %.2f s, so the measured"
           "\n    delta (half the slope) is %.2f cycles (the stated %.0f assumes w = 1).",
           t->scross, ns - 1, t->r32a, t->r32b, t->r32b / 2, pm->delta);
  printf("\n\n(2) Crossover (first s where T_p exceeds the send bound):\n");
  if (t->scross >= 0)
    printf("    measured s = %d (T_p %.2f > %.2f)\n", t->scross, t->tp32[t->scross], t->tp32[0]);
  else
    printf("    measured: none up to s = %d\n", ns - 1);
  printf("    eq. (2) ((b-h) alpha - beta) / (2 delta): model's parameters %.3f (first s = %.0f), "
         "002's estimates %.3f (first s = %.0f)\n\n",
         eq2(pm, 32), ceil(eq2(pm, 32)), eq2(pp, 32), ceil(eq2(pp, 32)));
}

/* (3). */
static void table_tm(const cost_t *t) {
  const prm_t *pm = &t->pm, *pp = &t->pp;
  printf("(3) Message cost T_m (cycles) of n bytes, one VL, fresh idle line: measured from the\n"
         "    message's creation to the last acknowledgement popped by the sender (ack) and to the\n"
         "    EOM popped by the receiver (deliver); eq3 = gamma + (n/b) T_p with T_p measured\n"
         "    (gamma = 0), with eq1 (model) and with 002's estimates. Creation to first load:");
  for (int i = 0; i < 3; i++)
    printf(" %.0f", t->tmg[i][0]);
  printf(" cycles.\n");
  for (int i = 0; i < 3; i++) {
    printf("\n    s = %u (T_p measured %.2f)%s\n", t->sm[i], t->tps[i],
           i == 2 ? " = crossover + 3" : "");
    printf("    %5s | %8s %8s | %10s %9s %9s | %7s\n", "n", "ack", "deliver", "eq3 T_p", "eq3 model",
           "eq3 002", "ack-eq3");
    for (int k = 0; k < NN; k++) {
      const double nb = (double)(32u << k) / 32.0;
      printf("    %5u | %8.0f %8.0f | %10.1f %9.1f %9.1f | %7.1f\n", 32u << k, t->tma[i][k],
             t->tmd[i][k], nb * t->tps[i], pm->gamma + nb * eq1(pm, 32, t->sm[i]),
             pp->gamma + nb * eq1(pp, 32, t->sm[i]), t->tma[i][k] - nb * t->tps[i]);
    }
  }
}

/* (4). */
static void table_channels(const cost_t *t) {
  printf("\n(4) Channels: c VLs in parallel on one link between the endpoints, each a long message;\n"
         "    data bytes delivered per us over 48 packets after 16. Saturated link rate = the\n"
         "    highest measured, %.3f bytes/us (32/S = %.3f); c_min = smallest c within 2%% of it.\n\n",
         t->sat, 3200.0 / t->S_model);
  printf("%3s | %7s %7s %7s %7s | %5s %11s %10s %10s\n", "s", "c=1", "c=2", "c=3", "c=4", "c_min",
         "ceil(Tp/S)", "eq4 model", "eq4 002");
  for (int i = 0; i < NS4; i++) {
    const double tp1c = 32.0 * 100.0 / t->thr[i][0];
    char cm[8];
    if (t->cmin[i])
      snprintf(cm, sizeof cm, "%d", t->cmin[i]);
    else
      snprintf(cm, sizeof cm, ">%d", NC);
    const double e4m = eq4(&t->pm, 32, sc[i]), e4p = eq4(&t->pp, 32, sc[i]);
    printf("%3u | %7.3f %7.3f %7.3f %7.3f | %5s %11.0f %5.2f (%.0f) %5.2f (%.0f)\n", sc[i],
           t->thr[i][0], t->thr[i][1], t->thr[i][2], t->thr[i][3], cm,
           ceil(tp1c / t->S_model - 1e-9), e4m, ceil(e4m), e4p, ceil(e4p));
  }
  printf("\n    ceil(Tp/S): T_p from the c = 1 throughput. eq. (4): c >= R/S (its ceiling in\n"
         "    brackets); 002 at s = 6 with its estimates: \"about 3\".\n");
}

int madpost_cmd_c104cost(int argc, char **argv) {
  uint64_t H = 1, smax = 14;
  int fmt = MADPOST_ROWS_TABLE, rc;
  const madpost_opt_whole_t opt[] = {{"hbytes", 1, 2, &H}, {"smax", 0, CO_SMAX, &smax}};
  if (madpost_opt_args("c104cost", argc, argv, opt, 2, co_usage, &fmt, &rc))
    return rc;
  const uint32_t h = (uint32_t)H;
  const double b = 32;
  /* the model's parameters (§18.1, §18.3) and 002's estimates (§2), in cycles */
  cost_t t = {.h = h, .ns = (int)smax + 1, .pm = {10, 2, 0, 10.0 * h + 5 + 1, h},
              .pp = {10, 20, 50, 100, 3},
              .S_model = 10.0 * h + 10 * b + 4 + (h + 1) / 2.0}; /* §18.3's exact send bound */
  madpost_plog_t log = {0};
  measure_tp(&t, &log);
  measure_tm(&t, (uint32_t)smax, &log);
  measure_channels(&t, &log);
  free(log.p);
  if (fmt != MADPOST_ROWS_TABLE) {
    print_rows(&t, (uint32_t)smax, fmt);
    return 0;
  }
  table_params(&t);
  table_tp(&t);
  table_tm(&t);
  table_channels(&t);
  return 0;
}
