/* madpost sim | sweep | simbench: the MP1 network simulator's command line (docs/mp1_sim.md §5):
 * options and configuration file, seeds averaged with confidence intervals, CSV / JSON / table
 * output, load sweeps with plots (gnuplot), a progress bar on stderr. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <madpost/mp1_sim.h>
#include <madpost/net_num.h>
#include <madpost/net_out.h>
#include <madpost/net_stat.h>

extern char **environ;

int madpost_cmd_sim(int argc, char **argv);
int madpost_cmd_sweep(int argc, char **argv);
int madpost_cmd_simbench(int argc, char **argv);

/* The figures of a run, as name, field, and what they mean (units in docs/mp1_sim.md §4). */
#define SIM_FIGS(X)                          \
  X(latency, lat_mean)                       \
  X(latency_max, lat_max)                    \
  X(latency_sd, lat_sd)                      \
  X(net_latency, net_lat_mean)               \
  X(inj_delay, inj_delay_mean)               \
  X(hops, hops_mean)                         \
  X(throughput_bytes, thr_bytes)             \
  X(throughput_pct, thr_frac)                \
  X(util_mean, util_mean)                    \
  X(util_max, util_max)                      \
  X(util_msg_max, util_msg_max)              \
  X(util_dead_mean, util_dead_mean)          \
  X(util_wait_mean, util_wait_mean)          \
  X(util_wait_max, util_wait_max)            \
  X(adapt_per_msg, adapt_per_msg)            \
  X(adapt_buf_per_msg, adapt_buf_per_msg)    \
  X(buffers_hold, buf_hold_mean)             \
  X(buffers_busy, buf_busy_mean)             \
  X(queue_mean, queue_mean)
#define SIM_COUNTS(X) \
  X(generated) X(overflow) X(delivered) X(corrupt) X(net_dropped) X(in_queue) X(in_network) \
  X(w_generated) X(w_overflow) X(w_delivered) X(completion)

enum {
#define X(name, field) FIG_##name,
  SIM_FIGS(X)
#undef X
      FIG_N
};
static const char *const fig_names[] = {
#define X(name, field) #name,
    SIM_FIGS(X)
#undef X
};

static double fig_of(const mp1_sim_result_t *r, int k) {
  switch (k) {
#define X(name, field) \
  case FIG_##name: return r->field;
    SIM_FIGS(X)
#undef X
  default: return 0;
  }
}

typedef struct {
  double load;
  uint32_t nrun;
  mp1_sim_result_t run[MP1_SIM_MAX_SEEDS];
  net_stat_t fig[FIG_N];
  uint32_t saturated; /* runs whose queue overflowed in the window */
  uint32_t complete;  /* runs that delivered everything (sync) */
  double completion;  /* mean over runs (sync) */
} point_t;

typedef struct {
  const char *label;
  uint64_t done, total; /* cycles over the whole job */
  uint64_t this_run;
  int tty;
  double last;
} progress_t;

static void progress(void *ctx, double frac) {
  progress_t *p = ctx;
  const double all = p->total ? ((double)p->done + frac * (double)p->this_run) / (double)p->total : 1;
  if (all - p->last < (p->tty ? 0.01 : 0.1) && frac < 1.0) return;
  p->last = all;
  const int w = 40, k = (int)(all * w + 0.5);
  fprintf(stderr, "\r%s [", p->label);
  for (int i = 0; i < w; i++) fputc(i < k ? '#' : '.', stderr);
  fprintf(stderr, "] %3.0f%%", 100 * all);
  if (!p->tty) fputc('\n', stderr);
}

static int usage_to(FILE *f, const char *cmd) {
  fprintf(f,
          "usage: madpost %s [--config FILE] [--KEY VALUE ...] [--format table|csv|json]%s\n"
          "keys (also in the config file, sections [network] [traffic] [run]; defaults and\n"
          "ranges in brackets):\n"
          "  --mesh KXxKY (16x16, 2..8192 each)  --routing oblivious|restrictive|adaptive\n"
          "  --address-flits auto|1|2 (auto: 1 when every address fits 5 bits, i.e. a mesh up to\n"
          "            32x32 or a torus up to 16x16, else 2: 13-bit addresses)\n"
          "  --queue N (10, 1..64)  --traffic uniform|local|shuffle|bitrev|transpose|bitcomp|\n"
          "            hotspot|broadcast|bcast-p2p (these two: mode sync)\n"
          "  --mode async|sync  --arrival exponential|uniform|bursty  --burst MEAN (4, 1..1000)\n"
          "  --load PERCENT of the bisection bound 8/(3n) (30, 0..1000)\n"
          "  --length BYTES incl. header (6, 2..1024)\n"
          "  --hot-node N (0, 0..%u)  --hot-frac F (0.1, 0..1)\n"
          "  --warmup CYCLES (8000, 0..%llu)  --measure CYCLES (8000, 1..%llu)\n"
          "  --drain CYCLES (0, 0..%llu; sync needs it)  --seed S (1, 0..%llu)\n"
          "  --seeds RUNS (3, 1..%u)\n"
          "  --zero-offset plus|random  --bcast-src NODE (0..%u)  --bcast-size SIDE (0..%u)\n"
          "  --topology mesh|torus (torus: four chips per node, up to 4096x4096)\n"
          "  --torus-inject paper|fixed|random\n"
          "  sim only: --trace FILE (CSV: one line per delivered message)\n"
          "            --channels FILE (CSV: each channel's crossings, busy, dead and waiting\n"
          "            cycles)\n",
          cmd,
          strcmp(cmd, "sweep") ? ""
                               : "\n       --loads FROM:TO:STEP (percent, 5:100:5; each "
                                 "0..1000, STEP above 0, at most 1000\n       points) --after K "
                                 "(1, 0..100: points past saturation) --out DIR (made if\n     "
                                 "  missing) --name NAME (sweep) --plots yes|no (yes: needs "
                                 "gnuplot)",
          1u << 26, (unsigned long long)MP1_SIM_CYCLES_MAX, (unsigned long long)MP1_SIM_CYCLES_MAX,
          (unsigned long long)MP1_SIM_CYCLES_MAX, (unsigned long long)UINT64_MAX,
          (unsigned)MP1_SIM_MAX_SEEDS, 1u << 26, (unsigned)MP1_MESH_MAX_WIDE);
  return f == stderr ? 2 : 0;
}

static int usage_sim(const char *cmd) { return usage_to(stderr, cmd); }

/* Applies --config first, then the other options in order; the rest go to `extra`. */
typedef int (*extra_fn)(void *ctx, const char *key, const char *val);

static int parse_opts(int argc, char **argv, mp1_sim_cfg_t *c, const char **format,
                      extra_fn extra, void *ectx, const char *cmd) {
  char err[400];
  mp1_sim_cfg_default(c);
  for (int i = 0; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage_to(stdout, cmd);
      return -1; /* done: exit 0 */
    }
  for (int i = 0; i + 1 < argc; i += 2)
    if (!strcmp(argv[i], "--config") && mp1_sim_cfg_load(c, argv[i + 1], err, sizeof err)) {
      fprintf(stderr, "madpost: %s: %s\n", cmd, err);
      return 2;
    }
  for (int i = 0; i < argc; i += 2) {
    const char *a = argv[i];
    if (strncmp(a, "--", 2) || i + 1 >= argc) {
      fprintf(stderr, "madpost: %s: '%s': expected --KEY VALUE\n", cmd, a);
      return usage_sim(cmd);
    }
    const char *v = argv[i + 1];
    if (!strcmp(a, "--config")) continue;
    if (!strcmp(a, "--format")) {
      if (strcmp(v, "table") && strcmp(v, "csv") && strcmp(v, "json")) {
        fprintf(stderr, "madpost: %s: --format: '%s' is not table, csv or json\n", cmd, v);
        return 2;
      }
      *format = v;
      continue;
    }
    if (extra) {
      const int e = extra(ectx, a + 2, v);
      if (e == 0) continue;
      if (e == 2) return 2;
    }
    if (mp1_sim_cfg_set(c, a + 2, v, err, sizeof err)) {
      fprintf(stderr, "madpost: %s: %s\n", cmd, err);
      return 2;
    }
  }
  if (mp1_sim_cfg_check(c, err, sizeof err)) {
    fprintf(stderr, "madpost: %s: %s\n", cmd, err);
    return 2;
  }
  return 0;
}

/* Bytes of a run's state per chip channel with --channels: the model's crossings (uint32) and
   five uint64 figures, once for the run (mp1_sim_chan_t) and once summed over the runs. */
#define SIM_CHAN_BYTES (4 + 2 * 5 * 8)
#define SIM_CHAN_BYTES_S "84"

/* 0 if a run of c (with --channels: chans) fits this machine's memory, else -1 after saying how
   much it would take: the model's state is allocated up front, and a run past the physical
   memory would only be killed once it touches its pages. */
static int sim_fits(const mp1_sim_cfg_t *c, int chans, const char *cmd) {
  const double nodes = (double)c->kx * c->ky, chips = nodes * (c->torus ? 4 : 1);
  const double need = nodes * (double)mp1_sim_bytes_per_node(c) +
                      (chans ? chips * 8 * SIM_CHAN_BYTES : 0);
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0 || need <= (double)pages * (double)page) return 0;
  fprintf(stderr,
          "madpost: %s: not enough memory: a %ux%u %s needs about %.1f GiB (%zu bytes a node%s), "
          "this machine has %.1f GiB\n",
          cmd, c->kx, c->ky, c->torus ? "torus" : "mesh", need / 1073741824.0,
          mp1_sim_bytes_per_node(c), chans ? ", and " SIM_CHAN_BYTES_S " bytes a channel for --channels" : "",
          (double)pages * (double)page / 1073741824.0);
  return -1;
}

/* Per-channel figures summed over a point's runs (sim --channels). */
typedef struct {
  uint64_t *cross, *busy, *dead, *wait, *wait_stopped;
} chansum_t;

static int run_point_ch(const mp1_sim_cfg_t *c, point_t *pt, progress_t *pr, chansum_t *cs);

static int run_point(const mp1_sim_cfg_t *c, point_t *pt, progress_t *pr) {
  return run_point_ch(c, pt, pr, NULL);
}

static int run_point_ch(const mp1_sim_cfg_t *c, point_t *pt, progress_t *pr, chansum_t *cs) {
  char err[256];
  pt->load = c->load;
  pt->nrun = c->seeds;
  pt->saturated = pt->complete = 0;
  pt->completion = 0;
  const uint64_t per = c->mode == MP1_MODE_SYNC ? c->drain : c->warmup + c->measure + c->drain;
  const size_t nch = (size_t)c->kx * c->ky * 8 * (c->torus ? 4 : 1);
  mp1_sim_chan_t ch = {NULL, NULL, NULL, NULL, NULL};
#define FREE_CH() free(ch.cross), free(ch.busy), free(ch.dead), free(ch.wait), free(ch.wait_stopped)
  if (cs) {
    ch.cross = calloc(nch, sizeof *ch.cross);
    ch.busy = calloc(nch, sizeof *ch.busy);
    ch.dead = calloc(nch, sizeof *ch.dead);
    ch.wait = calloc(nch, sizeof *ch.wait);
    ch.wait_stopped = calloc(nch, sizeof *ch.wait_stopped);
    if (!ch.cross || !ch.busy || !ch.dead || !ch.wait || !ch.wait_stopped) {
      fprintf(stderr, "\nmadpost: out of memory\n");
      FREE_CH();
      return 1;
    }
  }
  for (uint32_t k = 0; k < c->seeds; k++) {
    pr->this_run = per;
    if (mp1_sim_run(c, c->seed + k, &pt->run[k], cs ? &ch : NULL, progress, pr, err, sizeof err)) {
      fprintf(stderr, "\nmadpost: %s\n", err);
      FREE_CH();
      return 1;
    }
    for (size_t i = 0; cs && i < nch; i++) {
      cs->cross[i] += ch.cross[i];
      cs->busy[i] += ch.busy[i];
      cs->dead[i] += ch.dead[i];
      cs->wait[i] += ch.wait[i];
      cs->wait_stopped[i] += ch.wait_stopped[i];
    }
    pr->done += per;
    pt->saturated += pt->run[k].saturated > 0;
    pt->complete += pt->run[k].complete > 0;
    pt->completion += (double)pt->run[k].completion / c->seeds;
  }
  FREE_CH();
#undef FREE_CH
  for (int f = 0; f < FIG_N; f++) {
    double v[MP1_SIM_MAX_SEEDS];
    for (uint32_t k = 0; k < c->seeds; k++) v[k] = fig_of(&pt->run[k], f);
    pt->fig[f] = net_stat(v, c->seeds);
  }
  return 0;
}

static void json_point(FILE *f, const point_t *pt) {
  fprintf(f, "{\"load\":%g,\"saturated_runs\":%u,\"complete_runs\":%u,\"completion\":%.6g,", pt->load,
          pt->saturated, pt->complete, pt->completion);
  for (int k = 0; k < FIG_N; k++)
    fprintf(f, "\"%s\":{\"mean\":%.6g,\"ci95\":%.6g},", fig_names[k], pt->fig[k].mean,
            pt->fig[k].ci);
  fprintf(f, "\"runs\":[");
  for (uint32_t i = 0; i < pt->nrun; i++) {
    const mp1_sim_result_t *r = &pt->run[i];
    fprintf(f, "%s{\"seed\":%llu", i ? "," : "", (unsigned long long)r->seed);
#define X(name) fprintf(f, ",\"" #name "\":%llu", (unsigned long long)r->name);
    SIM_COUNTS(X)
#undef X
    for (int k = 0; k < FIG_N; k++) fprintf(f, ",\"%s\":%.6g", fig_names[k], fig_of(r, k));
    fprintf(f, ",\"saturated\":%d,\"complete\":%d}", r->saturated, r->complete);
  }
  fprintf(f, "]}");
}

static void csv_head(FILE *f) {
  fprintf(f, "load,saturated_runs,complete_runs,completion");
  for (int k = 0; k < FIG_N; k++) fprintf(f, ",%s,%s_ci95", fig_names[k], fig_names[k]);
#define X(name) fprintf(f, ",%s", #name);
  SIM_COUNTS(X)
#undef X
  fprintf(f, "\n");
}

static void csv_point(FILE *f, const point_t *pt) {
  fprintf(f, "%g,%u,%u,%.6g", pt->load, pt->saturated, pt->complete, pt->completion);
  for (int k = 0; k < FIG_N; k++) fprintf(f, ",%.6g,%.6g", pt->fig[k].mean, pt->fig[k].ci);
  /* counters summed over the runs */
#define X(name)                                                               \
  {                                                                           \
    unsigned long long s_ = 0;                                                \
    for (uint32_t i = 0; i < pt->nrun; i++) s_ += pt->run[i].name;            \
    fprintf(f, ",%llu", s_);                                                  \
  }
  SIM_COUNTS(X)
#undef X
  fprintf(f, "\n");
}

/* Each figure's unit in the table (docs/mp1_sim.md §4), in the order of SIM_FIGS. */
static const char *const fig_units[FIG_N] = {
    "cycles", "cycles", "cycles", "cycles", "cycles", "links", "bytes/cycle", "%", "%", "%", "%",
    "%", "%", "%", "per msg", "per msg", "machines", "machines", "msgs/node"};

static void table_point(FILE *f, const mp1_sim_cfg_t *c, const point_t *pt) {
  if (pt->nrun > 1)
    fprintf(f, "load %g%% of 8/(3n), %u runs (mean +- 95%% CI):\n", pt->load, pt->nrun);
  else /* a CI needs two runs at least: none is shown rather than +- 0 */
    fprintf(f, "load %g%% of 8/(3n), 1 run (no confidence interval: give --seeds 2 or more):\n",
            pt->load);
  for (int k = 0; k < FIG_N; k++) {
    if (pt->nrun > 1)
      fprintf(f, "  %-18s %12.4f %-11s +- %.4f\n", fig_names[k], pt->fig[k].mean, fig_units[k],
              pt->fig[k].ci);
    else
      fprintf(f, "  %-18s %12.4f %s\n", fig_names[k], pt->fig[k].mean, fig_units[k]);
  }
  for (uint32_t i = 0; i < pt->nrun; i++) {
    const mp1_sim_result_t *r = &pt->run[i];
    fprintf(f,
            "  seed %llu: generated %llu, overflowed %llu, delivered %llu, corrupt %llu, dropped "
            "by chips %llu, left in queues %llu, in the network %llu%s\n",
            (unsigned long long)r->seed, (unsigned long long)r->generated,
            (unsigned long long)r->overflow, (unsigned long long)r->delivered,
            (unsigned long long)r->corrupt, (unsigned long long)r->net_dropped,
            (unsigned long long)r->in_queue, (unsigned long long)r->in_network,
            r->saturated ? "  SATURATED (queue overflow)" : "");
    if (c->mode == MP1_MODE_SYNC)
      fprintf(f, "    completion %llu cycles%s\n", (unsigned long long)r->completion,
              r->complete ? "" : " (NOT complete within drain)");
  }
}

static int sim_extra(void *ctx, const char *key, const char *v) {
  const char **files = ctx;
  if (!strcmp(key, "trace")) files[0] = v;
  else if (!strcmp(key, "channels")) files[1] = v;
  else return 1;
  return 0;
}

/* 2 after a message if the output out (of option what, NULL: none) is one of the --config files,
   which it would overwrite; else 0. */
static int config_clash(int argc, char **argv, const char *cmd, const char *what,
                        const char *out) {
  for (int i = 0; out && i + 1 < argc; i += 2)
    if (!strcmp(argv[i], "--config") && net_out_same(out, argv[i + 1])) {
      fprintf(stderr, "madpost: %s: %s and --config name the same file (%s)\n", cmd, what, out);
      return 2;
    }
  return 0;
}

/* 2 after a message if two of sim's files (--trace, --channels, each --config) are one file,
   which would be overwritten or read while written; else 0. */
static int sim_files_clash(int argc, char **argv, const char *trace, const char *chans) {
  if (trace && chans && net_out_same(trace, chans)) {
    fprintf(stderr, "madpost: sim: --trace and --channels name the same file (%s)\n", trace);
    return 2;
  }
  return config_clash(argc, argv, "sim", "--trace", trace) ||
                 config_clash(argc, argv, "sim", "--channels", chans)
             ? 2
             : 0;
}

/* The --channels file: live crossings, and cycles assigned (of them dead; of them waiting, and of
 * those stopped), summed over the runs' windows; new columns go last, as scripts read the others
 * by place. */
static void sim_write_channels(FILE *cf, const mp1_sim_cfg_t *c, const point_t *pt,
                               const chansum_t *cs, size_t nch) {
  const uint32_t vkx = c->torus ? 2 * c->kx : c->kx;
  uint64_t msgs = 0;
  for (uint32_t k = 0; k < pt->nrun; k++) msgs += pt->run[k].w_generated - pt->run[k].w_overflow;
  fprintf(cf, "# %llu messages queued in the windows of %u runs of %llu cycles\n",
          (unsigned long long)msgs, pt->nrun, (unsigned long long)c->measure);
  fprintf(cf, "x,y,plane,dim,crossings,busy,dead,wait,wait_stopped\n");
  for (size_t i = 0; i < nch; i++)
    fprintf(cf, "%zu,%zu,%zu,%zu,%llu,%llu,%llu,%llu,%llu\n", (i / 8) % vkx, (i / 8) / vkx,
            (i % 8) / 2, i % 2, (unsigned long long)cs->cross[i], (unsigned long long)cs->busy[i],
            (unsigned long long)cs->dead[i], (unsigned long long)cs->wait[i],
            (unsigned long long)cs->wait_stopped[i]);
}

/* f (the file of --opt, at path) closed: 0, or -1 after saying that it could not be written. */
static int sim_close(FILE *f, const char *opt, const char *path) {
  char err[300];
  if (!net_out_close(f, path, err, sizeof err)) return 0;
  fprintf(stderr, "madpost: sim: --%s: %s\n", opt, err);
  return -1;
}

/* The point in the chosen format on stdout. */
static void sim_print(const mp1_sim_cfg_t *c, const point_t *pt, const char *format) {
  if (!strcmp(format, "json")) {
    printf("{\"params\":{");
    mp1_sim_cfg_json(c, stdout);
    printf("},\"result\":");
    json_point(stdout, pt);
    printf("}\n");
  } else if (!strcmp(format, "csv")) {
    mp1_sim_cfg_text(c, stdout, "# ");
    csv_head(stdout);
    csv_point(stdout, pt);
  } else {
    mp1_sim_cfg_text(c, stdout, "");
    table_point(stdout, c, pt);
  }
}

static void chansum_free(chansum_t *cs) {
  free(cs->cross), free(cs->busy), free(cs->dead), free(cs->wait), free(cs->wait_stopped);
  *cs = (chansum_t){NULL, NULL, NULL, NULL, NULL};
}

/* --channels' sums of nch channels, zeroed: 0, or -1 with none held. */
static int chansum_alloc(chansum_t *cs, size_t nch) {
  *cs = (chansum_t){calloc(nch, 8), calloc(nch, 8), calloc(nch, 8), calloc(nch, 8),
                    calloc(nch, 8)};
  if (cs->cross && cs->busy && cs->dead && cs->wait && cs->wait_stopped) return 0;
  chansum_free(cs);
  return -1;
}

/* sim's output files opened (the trace with its header line into c->trace, the channels into
   *cf): 0, or 1 after saying which one cannot be written, with neither left open. */
static int sim_open(mp1_sim_cfg_t *c, const char *trace, const char *chans, FILE **cf) {
  *cf = NULL;
  if (chans && !(*cf = fopen(chans, "w"))) {
    fprintf(stderr, "madpost: sim: --channels: cannot write %s: %s\n", chans, strerror(errno));
    return 1;
  }
  if (trace) {
    c->trace = fopen(trace, "w");
    if (!c->trace) {
      fprintf(stderr, "madpost: sim: --trace: cannot write %s: %s\n", trace, strerror(errno));
      if (*cf) fclose(*cf);
      return 1;
    }
    fprintf(c->trace, "seed,src_x,src_y,dst_x,dst_y,length,t_enq,t_start,t_inj,t_rx\n");
  }
  return 0;
}

int madpost_cmd_sim(int argc, char **argv) {
  mp1_sim_cfg_t c;
  const char *format = "table", *files[2] = {NULL, NULL};
  const int e = parse_opts(argc, argv, &c, &format, sim_extra, files, "sim");
  if (e) return e < 0 ? 0 : e;
  const char *trace = files[0], *chans = files[1];
  if (sim_files_clash(argc, argv, trace, chans)) return 2;
  if (sim_fits(&c, chans != NULL, "sim")) return 1;
  /* memory before files: a run that cannot start leaves no files and holds nothing */
  const size_t nch = (size_t)c.kx * c.ky * 8 * (c.torus ? 4 : 1);
  point_t *pt = calloc(1, sizeof *pt);
  chansum_t cs = {NULL, NULL, NULL, NULL, NULL}; /* the sums only for --channels */
  if (!pt || (chans && chansum_alloc(&cs, nch))) {
    fprintf(stderr, "madpost: sim: out of memory%s\n",
            pt ? ": --channels' sums (40 bytes a channel)" : "");
    free(pt);
    return 1;
  }
  FILE *cf;
  int failed = sim_open(&c, trace, chans, &cf);
  if (!failed) {
    progress_t pr = {.label = "sim", .tty = isatty(2),
                     .total = (uint64_t)c.seeds * (c.mode == MP1_MODE_SYNC
                                                       ? c.drain
                                                       : c.warmup + c.measure + c.drain)};
    failed = run_point_ch(&c, pt, &pr, cf ? &cs : NULL);
    if (sim_close(c.trace, "trace", trace)) failed = 1;
    if (cf) {
      sim_write_channels(cf, &c, pt, &cs, nch);
      if (sim_close(cf, "channels", chans)) failed = 1;
    }
  }
  chansum_free(&cs);
  if (!failed) {
    fprintf(stderr, "\n");
    sim_print(&c, pt, format);
  }
  free(pt);
  return failed;
}

typedef struct {
  double from, to, step;
  uint32_t after;
  const char *out, *name;
  int plots;
} sweep_opts_t;

/* "FROM:TO:STEP" into o: 0, or -1 unless each is a number in 0..1000 (percent, sim's range), TO
   at least FROM, STEP above 0, and at most 1000 points. */
static int sweep_loads(sweep_opts_t *o, const char *v) {
  char part[3][40];
  const char *p = v;
  for (int k = 0; k < 3; k++) {
    const size_t len = strcspn(p, ":");
    if (len >= sizeof part[k] || (k < 2) != (p[len] == ':')) return -1;
    memcpy(part[k], p, len);
    part[k][len] = 0;
    p += len + (k < 2);
  }
  double from, to, step;
  if (net_num_real(part[0], 0, 1000, &from) || net_num_real(part[1], from, 1000, &to) ||
      net_num_real(part[2], 0, 1000, &step) || step <= 0 ||
      floor((to - from) / step + 1e-9) + 1 > 1000) /* the points madpost_cmd_sweep runs */
    return -1;
  o->from = from, o->to = to, o->step = step;
  return 0;
}

static int sweep_extra(void *ctx, const char *key, const char *v) {
  sweep_opts_t *o = ctx;
  if (!strcmp(key, "loads")) {
    if (sweep_loads(o, v)) {
      fprintf(stderr, "madpost: sweep: --loads: '%s' is not FROM:TO:STEP (percent, 0..1000, TO "
                      "at least FROM, STEP above 0, at most 1000 points)\n", v);
      return 2;
    }
    return 0;
  }
  if (!strcmp(key, "after")) {
    if (net_num_whole32(v, 0, 100, &o->after)) {
      fprintf(stderr, "madpost: sweep: --after: '%s' is not a number in 0..100\n", v);
      return 2;
    }
    return 0;
  }
  if (!strcmp(key, "out")) return o->out = v, 0;
  if (!strcmp(key, "name")) return o->name = v, 0;
  if (!strcmp(key, "plots")) {
    if (strcmp(v, "yes") && strcmp(v, "no")) {
      fprintf(stderr, "madpost: sweep: --plots: '%s' is not yes or no\n", v);
      return 2;
    }
    o->plots = !strcmp(v, "yes");
    return 0;
  }
  return 1;
}

/* The plots of a sweep, as one tag each (NAME_TAG.png and .svg). */
static const struct {
  const char *tag, *ylabel, *cols;
} sweep_figs[] = {
    {"latency", "latency (cycles)", "X:(column(\"latency\")) t 'latency'"},
    {"util", "channel utilisation (%)",
     "X:(column(\"util_max\")) t 'most loaded', '' u X:(column(\"util_mean\")) t 'average'"},
    {"adapt", "adaptations per message",
     "X:(column(\"adapt_per_msg\")) t 'all', '' u X:(column(\"adapt_buf_per_msg\")) t 'from a "
     "buffered message'"},
    {"buffers", "routing-machine buffers",
     "X:(column(\"buffers_hold\")) t 'holding a waiting segment', '' u "
     "X:(column(\"buffers_busy\")) t 'not idle'"},
    {"queue", "injection queue (messages per node)", "X:(column(\"queue_mean\")) t 'queue'"},
    {"injdelay", "injection delay (cycles)", "X:(column(\"inj_delay\")) t 'injection delay'"},
};
#define SWEEP_NFIGS (sizeof sweep_figs / sizeof sweep_figs[0])

/* The gnuplot script of the plots into g. The directory and name come as gnuplot's ARG1 and
 * ARG2 (gnuplot -c SCRIPT DIR NAME), string values that gnuplot never parses: no path or name
 * is pasted into the script, so no quote in one can make it run anything. */
static void plot_script(FILE *g) {
  fprintf(g, "# madpost sweep's plots: gnuplot -c THIS_FILE DIR NAME (reads DIR/NAME.csv)\n"
             "csv = ARG1.'/'.ARG2.'.csv'\n"
             "set datafile separator ','\nset key autotitle columnhead\nset grid\n"
             "set style data linespoints\n"
             "set xlabel 'accepted load (%% of the bisection bound 8/(3n))'\n");
  for (size_t i = 0; i < SWEEP_NFIGS; i++)
    for (int svg = 0; svg < 2; svg++) {
      fprintf(g, "set terminal %s size 800,500\nset output ARG1.'/'.ARG2.'_%s.%s'\n",
              svg ? "svg" : "pngcairo", sweep_figs[i].tag, svg ? "svg" : "png");
      char cols[400], *x;
      snprintf(cols, sizeof cols, "%s", sweep_figs[i].cols);
      while ((x = strchr(cols, 'X'))) {
        /* the x column: accepted load */
        char rest[400];
        snprintf(rest, sizeof rest, "%s", x + 1);
        snprintf(x, sizeof cols - (size_t)(x - cols), "(column(\"throughput_pct\"))%s", rest);
      }
      fprintf(g, "set ylabel '%s'\nset title ARG2 noenhanced\nplot csv u %s\n",
              sweep_figs[i].ylabel, cols);
    }
}

/* gnuplot -c script dir name run, its status waited for: 0, or -1 after saying why it failed.
 * gnuplot's own warnings (e.g. an empty y range when no message adapts) go to stderr as they are
 * and do not fail the plots; a missing gnuplot or a failing one does. */
static int run_gnuplot(const char *script, const char *dir, const char *name) {
  char *const argv[] = {"gnuplot", "-c", (char *)script, (char *)dir, (char *)name, NULL};
  pid_t pid;
  const int e = posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ);
  if (e) {
    fprintf(stderr, "madpost: sweep: cannot run gnuplot: %s; the CSV and JSON are written. For the "
                    "plots install it (`scripts/deps.sh gnuplot-nox`, as `make reproduce` does) "
                    "or pass --plots no\n", strerror(e));
    return -1;
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) {
      fprintf(stderr, "madpost: sweep: waiting for gnuplot: %s\n", strerror(errno));
      return -1;
    }
  if (WIFEXITED(st) && WEXITSTATUS(st) == 0) return 0;
  if (WIFEXITED(st))
    fprintf(stderr, "madpost: sweep: gnuplot failed (exit %d) on %s\n", WEXITSTATUS(st), script);
  else
    fprintf(stderr, "madpost: sweep: gnuplot killed by signal %d on %s\n", WTERMSIG(st), script);
  return -1;
}

/* Plots of one sweep (PNG and SVG) through gnuplot: latency, utilisation, adaptations, buffers,
 * injection queue and delay against the accepted load, like 004's Figs. 9-11. 0, or -1 after a
 * message (each plot file must be there and not empty). */
static int plot_sweep(const char *dir, const char *name) {
  char path[4096], err[4200];
  snprintf(path, sizeof path, "%s/%s.gp", dir, name);
  FILE *g = fopen(path, "w");
  if (!g) {
    fprintf(stderr, "madpost: sweep: cannot write %s: %s\n", path, strerror(errno));
    return -1;
  }
  plot_script(g);
  if (net_out_close(g, path, err, sizeof err)) {
    fprintf(stderr, "madpost: sweep: %s\n", err);
    return -1;
  }
  if (run_gnuplot(path, dir, name)) return -1;
  for (size_t i = 0; i < SWEEP_NFIGS; i++)
    for (int svg = 0; svg < 2; svg++) {
      struct stat st;
      snprintf(path, sizeof path, "%s/%s_%s.%s", dir, name, sweep_figs[i].tag, svg ? "svg" : "png");
      if (stat(path, &st) || st.st_size == 0) {
        fprintf(stderr, "madpost: sweep: gnuplot wrote no %s\n", path);
        return -1;
      }
    }
  return 0;
}

/* OUT/NAME.EXT into path (n bytes). */
static void sweep_path(const sweep_opts_t *o, const char *ext, char *path, size_t n) {
  snprintf(path, n, "%s/%s.%s", o->out, o->name, ext);
}

/* OUT/NAME.EXT opened for writing, or NULL after a message. */
static FILE *sweep_open(const sweep_opts_t *o, const char *ext) {
  char path[4096];
  sweep_path(o, ext, path, sizeof path);
  FILE *f = fopen(path, "w");
  if (!f)
    fprintf(stderr, "madpost: sweep: cannot write %s\n", path);
  return f;
}

/* f, written to OUT/NAME.EXT, closed: 0, or -1 after saying it could not be written. */
static int sweep_close(const sweep_opts_t *o, FILE *f, const char *ext) {
  char path[4096], err[4200];
  sweep_path(o, ext, path, sizeof path);
  if (!net_out_close(f, path, err, sizeof err)) return 0;
  fprintf(stderr, "madpost: sweep: %s\n", err);
  return -1;
}

/* The sweep's points into OUT/NAME.csv, the configuration as comments first. -1 after a
   message if the file cannot be written. */
static int sweep_write_csv(const sweep_opts_t *o, const mp1_sim_cfg_t *c, const point_t *pts,
                           uint32_t got) {
  FILE *f = sweep_open(o, "csv");
  if (!f)
    return -1;
  mp1_sim_cfg_text(c, f, "# ");
  csv_head(f);
  for (uint32_t i = 0; i < got; i++) csv_point(f, &pts[i]);
  return sweep_close(o, f, "csv");
}

/* The same into OUT/NAME.json, with the configuration and the saturation load (null when even
   the first point overflowed). */
static int sweep_write_json(const sweep_opts_t *o, const mp1_sim_cfg_t *c, const point_t *pts,
                            uint32_t got, double sat_load) {
  FILE *f = sweep_open(o, "json");
  if (!f)
    return -1;
  fprintf(f, "{\"params\":{");
  mp1_sim_cfg_json(c, f);
  if (sat_load < 0)
    fprintf(f, "},\"saturation_load\":null,\"points\":[");
  else
    fprintf(f, "},\"saturation_load\":%g,\"points\":[", sat_load);
  for (uint32_t i = 0; i < got; i++) {
    if (i) fprintf(f, ",\n");
    json_point(f, &pts[i]);
  }
  fprintf(f, "]}\n");
  return sweep_close(o, f, "json");
}

/* dir and its missing parents made: 0, or -1 after a message. */
static int make_dirs(const char *dir) {
  char p[4096];
  if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p) {
    fprintf(stderr, "madpost: sweep: --out: the path is too long\n");
    return -1;
  }
  for (char *q = p + 1;; q++) {
    const int end = !*q;
    if (!end && *q != '/') continue;
    *q = 0;
    if (mkdir(p, 0777) && errno != EEXIST) {
      fprintf(stderr, "madpost: sweep: cannot create %s: %s\n", p, strerror(errno));
      return -1;
    }
    if (end) break;
    *q = '/';
  }
  struct stat st;
  if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
    fprintf(stderr, "madpost: sweep: --out: %s is not a directory\n", dir);
    return -1;
  }
  return 0;
}

/* The points of the sweep run into pts (npts at most) until o->after points past the first
   that overflowed: how many ran, or -1 after a message; *sat_load the highest load before it
   (-1 if the first overflowed). */
static int sweep_run(const sweep_opts_t *o, mp1_sim_cfg_t *c, point_t *pts, uint32_t npts,
                     progress_t *pr, double *sat_load) {
  uint32_t got = 0, past = 0;
  *sat_load = -1;
  for (uint32_t i = 0; i < npts; i++) {
    c->load = o->from + o->step * i;
    if (run_point(c, &pts[i], pr)) return -1;
    got = i + 1;
    if (pts[i].saturated) {
      if (past++ >= o->after) break;
    } else if (!past) {
      *sat_load = c->load;
    }
  }
  return (int)got;
}

int madpost_cmd_sweep(int argc, char **argv) {
  mp1_sim_cfg_t c;
  const char *format = "csv";
  sweep_opts_t o = {.from = 5, .to = 100, .step = 5, .after = 1, .out = NULL, .name = "sweep",
                    .plots = 1};
  const int e = parse_opts(argc, argv, &c, &format, sweep_extra, &o, "sweep");
  if (e) return e < 0 ? 0 : e;
  if (c.mode == MP1_MODE_SYNC) { /* each point's load would be refused, or would do nothing */
    fprintf(stderr, "madpost: sweep: mode sync: a load sweep needs mode async (a sync run sends "
                    "one permutation, whatever the load)\n");
    return 2;
  }
  if (!o.out) {
    fprintf(stderr, "madpost: sweep: --out DIR is required (CSV, JSON and plots go there)\n");
    return 2;
  }
  for (int k = 0; k < 3; k++) {
    static const char *const ext[] = {"csv", "json", "gp"};
    char path[4096];
    sweep_path(&o, ext[k], path, sizeof path);
    if (config_clash(argc, argv, "sweep", "--out", path)) return 2;
  }
  if (sim_fits(&c, 0, "sweep")) return 1;
  if (make_dirs(o.out)) return 1;
  const uint32_t npts = (uint32_t)floor((o.to - o.from) / o.step + 1e-9) + 1;
  point_t *pts = calloc(npts, sizeof *pts);
  if (!pts) return 1;
  const uint64_t per = c.mode == MP1_MODE_SYNC ? c.drain : c.warmup + c.measure + c.drain;
  progress_t pr = {.label = o.name, .tty = isatty(2), .total = (uint64_t)npts * c.seeds * per};
  double sat_load;
  const int got = sweep_run(&o, &c, pts, npts, &pr, &sat_load);
  if (got < 0) {
    free(pts);
    return 1;
  }
  pr.done = pr.total;
  progress(&pr, 1.0);
  fprintf(stderr, "\n");
  const int failed = sweep_write_csv(&o, &c, pts, (uint32_t)got) ||
                     sweep_write_json(&o, &c, pts, (uint32_t)got, sat_load);
  free(pts);
  if (failed) return 1;
  if (sat_load < 0)
    printf("sweep %s: %d points, highest load without queue overflow: none (the lowest, %g%%, "
           "overflowed), results in %s/%s.csv and .json\n", o.name, got, o.from, o.out, o.name);
  else
    printf("sweep %s: %d points, highest load without queue overflow %g%%, results in %s/%s.csv "
           "and .json\n", o.name, got, sat_load, o.out, o.name);
  if (o.plots) {
    if (plot_sweep(o.out, o.name)) return 1;
    printf("plots: %s/%s_{latency,util,adapt,buffers,queue,injdelay}.{png,svg}\n", o.out, o.name);
  }
  return 0;
}

/* Speed and memory of the simulator (a benchmark, not a test). */
int madpost_cmd_simbench(int argc, char **argv) {
  mp1_sim_cfg_t c;
  const char *format = "table";
  const int e = parse_opts(argc, argv, &c, &format, NULL, NULL, "simbench");
  if (e) return e < 0 ? 0 : e;
  for (int i = 0; i + 1 < argc; i += 2) /* it times one run and prints a line or JSON */
    if ((!strcmp(argv[i], "--seeds") && strcmp(argv[i + 1], "1")) ||
        (!strcmp(argv[i], "--format") && !strcmp(argv[i + 1], "csv"))) {
      fprintf(stderr, "madpost: simbench: %s %s: simbench times one run (seed --seed) and prints "
                      "table or json\n", argv[i], argv[i + 1]);
      return 2;
    }
  if (sim_fits(&c, 0, "simbench")) return 1;
  mp1_sim_result_t r;
  char err[256];
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (mp1_sim_run(&c, c.seed, &r, NULL, NULL, NULL, err, sizeof err)) {
    fprintf(stderr, "madpost: simbench: %s\n", err);
    return 1;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  const double sec = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  const uint64_t cycles = c.warmup + c.measure;
  const double nodes = (double)c.kx * c.ky;
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  const double ncps = nodes * (double)cycles / sec;
  if (!strcmp(format, "json"))
    printf("{\"mesh\":\"%ux%u\",\"load\":%g,\"routing\":%d,\"cycles\":%llu,\"seconds\":%.3f,"
           "\"node_cycles_per_s\":%.0f,\"peak_rss_kb\":%ld,\"bytes_per_node_rss\":%.0f,"
           "\"bytes_per_node_model\":%zu,\"delivered\":%llu}\n",
           c.kx, c.ky, c.load, (int)c.route, (unsigned long long)cycles, sec, ncps, ru.ru_maxrss,
           ru.ru_maxrss * 1024.0 / nodes, mp1_sim_bytes_per_node(&c),
           (unsigned long long)r.delivered);
  else
    printf("simbench: %ux%u load %g%%: %llu cycles in %.2f s = %.2f M node-cycles/s; peak RSS "
           "%ld KB = %.0f B/node (model and interface state %zu B/node); %llu delivered\n",
           c.kx, c.ky, c.load, (unsigned long long)cycles, sec, ncps / 1e6, ru.ru_maxrss,
           ru.ru_maxrss * 1024.0 / nodes, mp1_sim_bytes_per_node(&c),
           (unsigned long long)r.delivered);
  return 0;
}
