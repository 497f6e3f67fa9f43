/* madpost c104net: runs a C104 network (docs/c104.md §17) for one or more seeds and prints the
 * figures of §17.6 with the configuration, as a table, JSON or CSV; progress on stderr. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <madpost/c104_net.h>
#include <madpost/net_err.h>
#include <madpost/net_ini.h>
#include <madpost/net_num.h>
#include <madpost/net_stat.h>

#include "madpost_opt.h"

int madpost_cmd_c104net(int argc, char **argv);

/* Longest warm-up or window (cycles): a 4x4 grid of this many takes hours. */
#define C104NET_CYCLES_MAX UINT64_C(1000000000)

static int usage(FILE *f) {
  fprintf(f,
          "usage: madpost c104net [--config FILE] [--KEY VALUE ...] [--format table|csv|json]\n"
          "keys (also in the config file, sections [network] [traffic] [run]; sim's names\n"
          "--mesh, --traffic and --length are aliases of --grid, --pattern and --msg-len):\n"
          "  --topology grid|puma|line|pair (grid)  --grid WxH (4x4, 1..32 each)\n"
          "  --switches S (line: switches in the chain, 1, 0..64; 0 = pair)\n"
          "  --universal on|off (off; grid and puma)  --arb fifo|rr (fifo)\n"
          "  --grid-links 1|2 (grid: links to each neighbour; 1, or 2 with universal routing,\n"
          "               where each phase has its own; 2 without it: a hunt group of two)\n"
          "  --pattern uniform|local|shuffle|bitrev|transpose|bitcomp|hotspot (uniform)\n"
          "  --hot-node N (0, 0..%u)  --hot-frac F (0.1, 0..1)\n"
          "  --arrival exponential|uniform|bursty (exponential)  --burst MEAN (4, 1..%g)\n"
          "  --load PERCENT of one link's data bandwidth per node (20, 0..1000)\n"
          "  --iat CYCLES (overrides load; 0.001..1e12)\n"
          "  --msg-len BYTES (32, 0..1000000)  --vls K (0: from the pattern; 0..32767)\n"
          "  --qlimit N (64, 1..100000)\n"
          "  --warmup CYCLES (5000, 0..%llu)  --measure CYCLES (20000, 1..%llu)\n"
          "  --seed S (1, 0..%llu)  --seeds RUNS (3, 1..%u)\n",
          1u << 20, (double)NET_ARR_BURST_MAX, (unsigned long long)C104NET_CYCLES_MAX,
          (unsigned long long)C104NET_CYCLES_MAX, (unsigned long long)UINT64_MAX,
          (unsigned)C104_NET_MAX_SEEDS);
  return f == stderr ? 2 : 0;
}

/* Each set_* below: 0 the option set, -1 its value refused (said on stderr), 1 not its option. */

/* The network: its shape, routing and arbitration. */
static int set_network(c104_net_cfg_t *c, const char *k, const char *v) {
  uint64_t u;
  if (!strcmp(k, "topology")) {
    if (c104_net_topo_parse(v, &c->topo)) {
      fprintf(stderr, "madpost: c104net: --topology: '%s' is not one of grid, puma, line, pair\n",
              v);
      return -1;
    }
  } else if (!strcmp(k, "grid")) {
    uint32_t a, b;
    if (net_num_pair(v, 'x', 1, 32, &a, &b)) {
      fprintf(stderr, "madpost: c104net: --grid: '%s' is not of the form WxH (1..32 each)\n", v);
      return -1;
    }
    c->gw = a, c->gh = b;
  } else if (!strcmp(k, "switches")) {
    if (madpost_opt_whole("c104net", k, v, 0, 64, &u)) return -1;
    c->switches = (uint32_t)u;
  } else if (!strcmp(k, "universal")) {
    if (strcmp(v, "on") && strcmp(v, "off")) {
      fprintf(stderr, "madpost: c104net: --universal: '%s' is not on or off\n", v);
      return -1;
    }
    c->universal = !strcmp(v, "on");
  } else if (!strcmp(k, "grid-links")) {
    if (madpost_opt_whole("c104net", k, v, 1, 2, &u)) return -1;
    c->grid_links = (uint32_t)u;
  } else if (!strcmp(k, "arb")) {
    if (strcmp(v, "fifo") && strcmp(v, "rr")) {
      fprintf(stderr, "madpost: c104net: --arb: '%s' is not fifo or rr\n", v);
      return -1;
    }
    c->rr = !strcmp(v, "rr");
  } else {
    return 1;
  }
  return 0;
}

/* Where the messages go and when they are made. */
static int set_pattern(c104_net_cfg_t *c, const char *k, const char *v) {
  uint64_t u;
  if (!strcmp(k, "pattern")) {
    net_pattern_e p;
    if (net_pattern_parse(v, &p)) {
      fprintf(stderr, "madpost: c104net: --pattern: '%s' is not one of uniform, local, shuffle, "
                      "bitrev, transpose, bitcomp, hotspot\n", v);
      return -1;
    }
    c->pattern = p;
  } else if (!strcmp(k, "hot-node")) {
    if (madpost_opt_whole("c104net", k, v, 0, 1u << 20, &u)) return -1;
    c->hot_node = (uint32_t)u;
  } else if (!strcmp(k, "hot-frac")) {
    if (madpost_opt_num("c104net", k, v, 0, 1, &c->hot_frac)) return -1;
  } else if (!strcmp(k, "arrival")) {
    if (net_arrival_parse(v, &c->arrival.kind)) {
      fprintf(stderr, "madpost: c104net: --arrival: '%s' is not exponential, uniform or bursty\n",
              v);
      return -1;
    }
  } else if (!strcmp(k, "burst")) {
    if (madpost_opt_num("c104net", k, v, 1, NET_ARR_BURST_MAX, &c->arrival.burst)) return -1;
  } else {
    return 1;
  }
  return 0;
}

/* How much traffic, in which messages, and how long the runs are. */
static int set_amount(c104_net_cfg_t *c, const char *k, const char *v) {
  uint64_t u;
  double d;
  if (!strcmp(k, "load")) {
    if (madpost_opt_num("c104net", k, v, 0, 1000, &c->load)) return -1;
  } else if (!strcmp(k, "iat")) {
    if (madpost_opt_num("c104net", k, v, 0.001, 1e12, &d)) return -1;
    c->iat = d;
  } else if (!strcmp(k, "msg-len")) {
    if (madpost_opt_whole("c104net", k, v, 0, 1000000, &u)) return -1;
    c->msg_len = (uint32_t)u;
  } else if (!strcmp(k, "vls")) {
    if (madpost_opt_whole("c104net", k, v, 0, 32767, &u)) return -1;
    c->vls = (uint32_t)u;
  } else if (!strcmp(k, "qlimit")) {
    if (madpost_opt_whole("c104net", k, v, 1, 100000, &u)) return -1;
    c->qlimit = (uint32_t)u;
  } else if (!strcmp(k, "warmup")) {
    if (madpost_opt_whole("c104net", k, v, 0, C104NET_CYCLES_MAX, &c->warmup)) return -1;
  } else if (!strcmp(k, "measure")) {
    if (madpost_opt_whole("c104net", k, v, 1, C104NET_CYCLES_MAX, &c->measure)) return -1;
  } else if (!strcmp(k, "seed")) {
    if (madpost_opt_whole("c104net", k, v, 0, UINT64_MAX, &c->seed)) return -1;
  } else if (!strcmp(k, "seeds")) {
    if (madpost_opt_whole("c104net", k, v, 1, C104_NET_MAX_SEEDS, &u)) return -1;
    c->seeds = (uint32_t)u;
  } else {
    return 1;
  }
  return 0;
}

/* sim's names for c104net's options (one convention across the commands); the old names stay. */
static const char *const alias[][2] = {{"mesh", "grid"}, {"traffic", "pattern"},
                                       {"length", "msg-len"}};

/* Option k's own name: an alias of sim's read as c104net's. */
static const char *canonical(const char *k) {
  for (size_t i = 0; i < sizeof alias / sizeof alias[0]; i++)
    if (!strcmp(k, alias[i][0])) return alias[i][1];
  return k;
}

/* Option --k v into c: 0, or -1 after saying why not. */
static int set(c104_net_cfg_t *c, const char *k, const char *v) {
  k = canonical(k);
  int r = set_network(c, k, v);
  if (r > 0)
    r = set_pattern(c, k, v);
  if (r > 0)
    r = set_amount(c, k, v);
  if (r > 0) {
    fprintf(stderr, "madpost: c104net: unknown option '--%s'\n", k);
    return -1;
  }
  return r;
}

/* The figures reported, per run and as mean +- 95% CI over the runs. */
#define NET_FIGS(X)                                                                                \
  X(msg_lat_mean, r->msg_lat.mean) X(msg_lat_max, r->msg_lat.max)                                  \
  X(msg_lat_ci95, r->msg_lat.ci) X(life_create_mean, r->life_create.mean)                          \
  X(life_create_max, r->life_create.max) X(life_out_mean, r->life_out.mean)                        \
  X(life_out_max, r->life_out.max) X(life_routed_mean, r->life_routed.mean)                        \
  X(life_routed_max, r->life_routed.max) X(life_routed_ci95, r->life_routed.ci)                    \
  X(thr_msgs_per_node_us, r->thr_msgs) X(thr_bytes_per_node_us, r->thr_bytes)                      \
  X(pkts_per_c104_ms, r->pkts_per_c104_ms) X(util_mean, r->util_mean) X(util_max, r->util_max)     \
  X(util_int_mean, r->util_int_mean) X(util_int_max, r->util_int_max)
#define NET_COUNTS(X)                                                                              \
  X(generated) X(accepted) X(dropped_qlimit) X(dropped_novl) X(delivered) X(in_flight) X(corrupt)  \
  X(w_generated) X(w_dropped) X(w_delivered) X(w_bytes) X(w_packets) X(w_acks) X(w_unrouted)      \
  X(sw_bad) X(sw_short) X(sw_cut) X(sw_stray) X(link_errs) X(node_misrouted) X(node_bad)           \
  X(node_cut) X(track_errs)

static void cfg_text(const c104_net_cfg_t *c, const c104_net_result_t *r, FILE *f, const char *p) {
  fprintf(f, "%stopology=%s grid=%ux%u grid-links=%u switches=%u universal=%s arb=%s pattern=%s "
             "hot-node=%u hot-frac=%g\n",
          p, c104_net_topo_name(c->topo), c->gw, c->gh,
          c->grid_links ? c->grid_links : 1u + (c->universal != 0), c->switches,
          c->universal ? "on" : "off",
          c->rr ? "rr" : "fifo",
          c->pattern < NET_TR_COUNT ? net_pattern_name((net_pattern_e)c->pattern) : "none",
          c->hot_node, c->hot_frac);
  fprintf(f, "%sarrival=%s burst=%g load=%g iat=%g msg-len=%u vls=%u qlimit=%u warmup=%llu "
             "measure=%llu seed=%llu seeds=%u\n",
          p, net_arrival_name(c->arrival.kind), c->arrival.burst, c->load, c->iat, c->msg_len,
          c->vls, c->qlimit, (unsigned long long)c->warmup, (unsigned long long)c->measure,
          (unsigned long long)c->seed, c->seeds);
  fprintf(f, "%snodes=%u switches=%u K=%u links-per-node=%u header-bytes=%u rate=%.9g "
             "messages/node/cycle vl-wiring=%s\n",
          p, r->nodes, r->switches, r->vls, r->links, r->hbytes, r->rate,
          r->circulant ? "circulant (approximates uniform: destinations are the K ends' peers)"
                       : "pattern");
}

static void cfg_json(const c104_net_cfg_t *c, const c104_net_result_t *r, FILE *f) {
  fprintf(f, "\"grid-links\":%u,", c->grid_links ? c->grid_links : 1u + (c->universal != 0));
  fprintf(f, "\"topology\":\"%s\",\"grid\":\"%ux%u\",\"switches\":%u,\"universal\":\"%s\","
             "\"arb\":\"%s\",\"pattern\":\"%s\",\"hot-node\":%u,\"hot-frac\":%g,\"arrival\":\"%s\","
             "\"burst\":%g,\"load\":%g,\"iat\":%g,\"msg-len\":%u,\"vls\":%u,\"qlimit\":%u,"
             "\"warmup\":%llu,\"measure\":%llu,\"seed\":%llu,\"seeds\":%u,\"nodes\":%u,"
             "\"c104s\":%u,\"K\":%u,\"links-per-node\":%u,\"header-bytes\":%u,\"rate\":%.9g,"
             "\"circulant\":%d",
          c104_net_topo_name(c->topo), c->gw, c->gh, c->switches, c->universal ? "on" : "off",
          c->rr ? "rr" : "fifo",
          c->pattern < NET_TR_COUNT ? net_pattern_name((net_pattern_e)c->pattern) : "none",
          c->hot_node, c->hot_frac, net_arrival_name(c->arrival.kind), c->arrival.burst, c->load,
          c->iat, c->msg_len, c->vls, c->qlimit, (unsigned long long)c->warmup,
          (unsigned long long)c->measure, (unsigned long long)c->seed, c->seeds, r->nodes,
          r->switches, r->vls, r->links, r->hbytes, r->rate, r->circulant);
}

typedef struct {
  int tty;
  uint32_t run, runs;
  double last;
} prog_t;

static void progress(void *ctx, double frac) {
  prog_t *p = ctx;
  const double all = ((double)p->run + frac) / p->runs;
  if (all - p->last < (p->tty ? 0.01 : 0.1) && frac < 1.0) return;
  p->last = all;
  const int w = 40, k = (int)(all * w + 0.5);
  fprintf(stderr, "\rc104net [");
  for (int i = 0; i < w; i++) fputc(i < k ? '#' : '.', stderr);
  fprintf(stderr, "] %3.0f%%", 100 * all);
  if (!p->tty) fputc('\n', stderr);
}

static const char *const fname[] = {
#define X(name, e) #name,
    NET_FIGS(X)
#undef X
};
#define F_N ((int)(sizeof fname / sizeof fname[0]))

/* Each figure's unit in the table (docs/c104.md §17.6), in the order of NET_FIGS. */
static const char *const funit[F_N] = {
    "cycles", "cycles", "cycles", "cycles", "cycles", "cycles", "cycles", "cycles", "cycles",
    "cycles", "msgs/node/us", "bytes/node/us", "pkts/C104/ms", "%", "%", "%", "%"};

/* Run r's figures, in the order of fname. */
static void fig_values(const c104_net_result_t *r, double *v) {
  int f = 0;
#define X(name, e) v[f++] = (e);
  NET_FIGS(X)
#undef X
}

typedef struct {
  c104_net_cfg_t *c;
  const char **format;
} args_t;

/* Option a (with its dashes) = v: 0, or -1 after saying why not. */
static int one_arg(void *ctx, const char *a, const char *v) {
  args_t *x = ctx;
  if (!strcmp(a, "--config"))
    return 0; /* read first, by load_configs */
  if (strcmp(a, "--format"))
    return set(x->c, a + 2, v);
  if (strcmp(v, "table") && strcmp(v, "csv") && strcmp(v, "json")) {
    fprintf(stderr, "madpost: c104net: --format: '%s' is not table, csv or json\n", v);
    return -1;
  }
  *x->format = v;
  return 0;
}

/* Options that would do nothing in c, given other than their defaults: -1 with the reason, so
   that no output echoes a setting as if it were in effect (issue 16 item 7); else 0. The
   library takes them (tests and the figure commands set whole configurations). */
static int cfg_unused(const c104_net_cfg_t *c, char *err, size_t n) {
  c104_net_cfg_t d;
  c104_net_cfg_default(&d);
  const char *topo = c104_net_topo_name(c->topo);
  if (c->topo != C104_NET_GRID && (c->gw != d.gw || c->gh != d.gh))
    return net_fail(err, n, "grid: only with topology grid (topology is %s)", topo);
  if (c->topo != C104_NET_GRID && c->grid_links)
    return net_fail(err, n, "grid-links: only with topology grid (topology is %s)", topo);
  if (c->topo != C104_NET_LINE && c->switches != d.switches)
    return net_fail(err, n, "switches: only with topology line (topology is %s)", topo);
  if (c->pattern != NET_TR_HOTSPOT && (c->hot_node != d.hot_node || c->hot_frac != d.hot_frac))
    return net_fail(err, n, "hot-node and hot-frac: only with pattern hotspot");
  if (c->arrival.kind != NET_ARR_BURSTY && c->arrival.burst != d.arrival.burst)
    return net_fail(err, n, "burst: only with arrival bursty (arrival is %s)",
                    net_arrival_name(c->arrival.kind));
  if (c->iat > 0 && c->load != d.load)
    return net_fail(err, n, "load and iat: iat %g overrides load; give one of them", c->iat);
  return 0;
}

/* The section of a configuration file each option belongs in, by its own name; NULL: none. */
static const char *key_section(const char *k) {
  static const char *const keys[][2] = {
      {"topology", "network"}, {"grid", "network"},     {"switches", "network"},
      {"universal", "network"}, {"arb", "network"},     {"grid-links", "network"},
      {"pattern", "traffic"},  {"hot-node", "traffic"}, {"hot-frac", "traffic"},
      {"arrival", "traffic"},  {"burst", "traffic"},    {"load", "traffic"},
      {"iat", "traffic"},      {"msg-len", "traffic"},  {"vls", "traffic"},
      {"qlimit", "traffic"},   {"warmup", "run"},       {"measure", "run"},
      {"seed", "run"},         {"seeds", "run"}};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    if (!strcmp(k, keys[i][0])) return keys[i][1];
  return NULL;
}

typedef struct {
  c104_net_cfg_t *c;
  char seen[32][16]; /* the options given so far, by their own names (each under 16 chars) */
  int nseen;
} ini_ctx_t;

/* One key = value of a --config file, as sim's are read (docs/c104.md §17): sections [network]
   [traffic] [run], each key once (an alias and its option are one key). */
static int on_key(void *user, const char *section, const char *key, const char *value, char *err,
                  size_t n) {
  ini_ctx_t *L = user;
  if (*section && strcmp(section, "network") && strcmp(section, "traffic") &&
      strcmp(section, "run"))
    return net_fail(err, n, "unknown section [%s] (sections: network, traffic, run)", section);
  const char *k = canonical(key), *sec = key_section(k);
  if (!sec)
    return net_fail(err, n, "unknown parameter '%s'", key);
  if (*section && strcmp(section, sec))
    return net_fail(err, n, "'%s' belongs in section [%s], not [%s]", key, sec, section);
  for (int i = 0; i < L->nseen; i++)
    if (!strcmp(L->seen[i], k)) return net_fail(err, n, "'%s' is given twice", key);
  if (set(L->c, k, value)) /* set said why on stderr */
    return net_fail(err, n, "'%s = %s' refused (above)", key, value);
  if (L->nseen < 32) snprintf(L->seen[L->nseen++], sizeof L->seen[0], "%s", k);
  return 0;
}

/* Each --config FILE of the command line into c, before the other options (which override it):
   0, or -1 after saying why not. */
static int load_configs(int argc, char **argv, c104_net_cfg_t *c) {
  for (int i = 0; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--config")) continue;
    ini_ctx_t L = {.c = c};
    char err[400];
    if (net_ini_load(argv[i + 1], on_key, &L, err, sizeof err)) {
      fprintf(stderr, "madpost: c104net: %s\n", err);
      return -1;
    }
  }
  return 0;
}

/* The command line into c and *format: 0, or 1 with the exit status in *rc (help or an error). */
static int parse_args(int argc, char **argv, c104_net_cfg_t *c, const char **format, int *rc) {
  args_t x = {c, format};
  for (int i = 0; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      *rc = usage(stdout);
      return 1;
    }
  if (load_configs(argc, argv, c)) {
    *rc = 2;
    return 1;
  }
  if (madpost_opt_pairs("c104net", argc, argv, usage, one_arg, &x, rc))
    return 1;
  char err[400];
  if (cfg_unused(c, err, sizeof err) || c104_net_cfg_check(c, err, sizeof err)) {
    fprintf(stderr, "madpost: c104net: %s\n", err);
    *rc = 2;
    return 1;
  }
  return 0;
}

/* Conservation broken or an error counted in any run. */
static int any_bad(const c104_net_result_t *run, uint32_t n) {
  int bad = 0;
  for (uint32_t k = 0; k < n; k++) {
    const c104_net_result_t *r = &run[k];
    if (r->accepted != r->delivered + r->in_flight ||
        r->generated != r->accepted + r->dropped_qlimit + r->dropped_novl ||
        r->sw_bad + r->sw_short + r->sw_cut + r->sw_stray + r->link_errs + r->node_misrouted +
                r->node_bad + r->node_cut + r->track_errs + r->corrupt != 0)
      bad = 1;
  }
  return bad;
}

static void print_json(const c104_net_cfg_t *c, const c104_net_result_t *run,
                       const net_stat_t *st, int bad) {
  printf("{\"params\":{");
  cfg_json(c, &run[0], stdout);
  printf("},\"result\":{");
  for (int f = 0; f < F_N; f++)
    printf("%s\"%s\":{\"mean\":%.6g,\"ci95\":%.6g}", f ? "," : "", fname[f], st[f].mean,
           st[f].ci);
  printf(",\"conserved\":%s,\"runs\":[", bad ? "false" : "true");
  for (uint32_t k = 0; k < c->seeds; k++) {
    const c104_net_result_t *r = &run[k];
    printf("%s{\"seed\":%llu", k ? "," : "", (unsigned long long)r->seed);
#define X(name) printf(",\"" #name "\":%llu", (unsigned long long)r->name);
    NET_COUNTS(X)
#undef X
#define X(name, e) printf(",\"" #name "\":%.6g", (double)(e));
    NET_FIGS(X)
#undef X
    printf("}");
  }
  printf("]}}\n");
}

static void print_csv(const c104_net_cfg_t *c, const c104_net_result_t *run) {
  cfg_text(c, &run[0], stdout, "# ");
  printf("seed");
#define X(name) printf("," #name);
  NET_COUNTS(X)
#undef X
#define X(name, e) printf("," #name);
  NET_FIGS(X)
#undef X
  printf("\n");
  for (uint32_t k = 0; k < c->seeds; k++) {
    const c104_net_result_t *r = &run[k];
    printf("%llu", (unsigned long long)r->seed);
#define X(name) printf(",%llu", (unsigned long long)r->name);
    NET_COUNTS(X)
#undef X
#define X(name, e) printf(",%.6g", (double)(e));
    NET_FIGS(X)
#undef X
    printf("\n");
  }
}

/* A run's conservation count and error counters, two lines. */
static void print_run_counts(const c104_net_result_t *r) {
  printf("  seed %llu: generated %llu = accepted %llu + saturation failures %llu + no VL %llu; "
         "accepted = delivered %llu + in flight %llu; corrupt %llu\n",
         (unsigned long long)r->seed, (unsigned long long)r->generated,
         (unsigned long long)r->accepted, (unsigned long long)r->dropped_qlimit,
         (unsigned long long)r->dropped_novl, (unsigned long long)r->delivered,
         (unsigned long long)r->in_flight, (unsigned long long)r->corrupt);
  printf("    window: %llu messages delivered, %llu packets (%llu acks, %llu crossed no "
         "switch link); errors: switch bad %llu short %llu cut %llu stray %llu, links %llu, "
         "endpoints misrouted %llu bad %llu cut %llu, tracking %llu\n",
         (unsigned long long)r->w_delivered, (unsigned long long)r->w_packets,
         (unsigned long long)r->w_acks, (unsigned long long)r->w_unrouted,
         (unsigned long long)r->sw_bad, (unsigned long long)r->sw_short,
         (unsigned long long)r->sw_cut, (unsigned long long)r->sw_stray,
         (unsigned long long)r->link_errs, (unsigned long long)r->node_misrouted,
         (unsigned long long)r->node_bad, (unsigned long long)r->node_cut,
         (unsigned long long)r->track_errs);
}

static void print_table(const c104_net_cfg_t *c, const c104_net_result_t *run,
                        const net_stat_t *st, int bad) {
  cfg_text(c, &run[0], stdout, "");
  if (c->seeds > 1)
    printf("%u runs (mean +- 95%% CI over runs; 1 cycle = 10 ns):\n", c->seeds);
  else /* a CI needs two runs at least: none is shown rather than +- 0 */
    printf("1 run (no confidence interval: give --seeds 2 or more; 1 cycle = 10 ns):\n");
  for (int f = 0; f < F_N; f++) {
    if (c->seeds > 1)
      printf("  %-22s %12.4f %-13s +- %.4f\n", fname[f], st[f].mean, funit[f], st[f].ci);
    else
      printf("  %-22s %12.4f %s\n", fname[f], st[f].mean, funit[f]);
  }
  for (uint32_t k = 0; k < c->seeds; k++)
    print_run_counts(&run[k]);
  printf("%s\n", bad ? "TRAFFIC NOT CONSERVED OR ERRORS COUNTED" : "traffic conserved, no errors");
}

int madpost_cmd_c104net(int argc, char **argv) {
  c104_net_cfg_t c;
  c104_net_cfg_default(&c);
  const char *format = "table";
  int rc;
  if (parse_args(argc, argv, &c, &format, &rc))
    return rc;
  c104_net_result_t *run = calloc(c.seeds, sizeof *run);
  if (!run) return 1;
  prog_t pr = {.tty = isatty(2), .runs = c.seeds, .last = -1};
  char err[400];
  for (uint32_t k = 0; k < c.seeds; k++) {
    pr.run = k;
    if (c104_net_run(&c, c.seed + k, &run[k], progress, &pr, err, sizeof err)) {
      fprintf(stderr, "\nmadpost: c104net: %s\n", err);
      free(run);
      return 1;
    }
  }
  fprintf(stderr, "\n");
  double fig[C104_NET_MAX_SEEDS][F_N];
  for (uint32_t k = 0; k < c.seeds; k++)
    fig_values(&run[k], fig[k]);
  net_stat_t st[F_N];
  for (int f = 0; f < F_N; f++) {
    double v[C104_NET_MAX_SEEDS];
    for (uint32_t k = 0; k < c.seeds; k++)
      v[k] = fig[k][f];
    st[f] = net_stat(v, c.seeds);
  }
  const int bad = any_bad(run, c.seeds);
  if (!strcmp(format, "json"))
    print_json(&c, run, st, bad);
  else if (!strcmp(format, "csv"))
    print_csv(&c, run);
  else
    print_table(&c, run, st, bad);
  free(run);
  return bad ? 1 : 0;
}
