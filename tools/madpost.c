/* madpost: the main command line: DS-Link figures, the MP1 per-hop latency and simulator, C104
 * networks. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#include <errno.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <madpost/dslink.h>
#include <madpost/dslink_bw.h>
#include <madpost/mp1_hop.h>
#include <madpost/mp1_mesh.h>
#include <madpost/mp1_nic.h>
#include <madpost/net_num.h>
#include <madpost/net_out.h>
#include <madpost/t9k.h>
#include <madpost/version.h>

int madpost_cmd_sim(int argc, char **argv);
int madpost_cmd_sweep(int argc, char **argv);
int madpost_cmd_simbench(int argc, char **argv);
int madpost_cmd_c104net(int argc, char **argv);
int madpost_cmd_c104transit(int argc, char **argv);
int madpost_cmd_c104cost(int argc, char **argv);

/* The longest bit period linkbw runs: the disconnect time must exceed it (docs/dslink.md §2:
   DisconnectCycles 2..255), and linkbw gives it 8 cycles more. */
#define LINKBW_BP_MAX 247u

static int usage(FILE *f) {
  fprintf(f,
          "usage: madpost COMMAND [options]\n"
          "commands:\n"
          "  linkbw   DS-Link throughput measured on the C model against seed 000 eq. 4.1/4.2\n"
          "           --min M --max M (message bytes, default 0..64, each 0..4096)\n"
          "           --messages N (default 200, 10..100000) --bit-period B (cycles per bit,\n"
          "           default 1, 1..%u)\n"
          "           --format table|markdown|csv|json\n"
          "  linkbench  speed of the DS-Link C model: two ends, 12 virtual links each way\n"
          "           --cycles N (default 20000000, 1000000..2000000000, whole millions)\n"
          "  hop      exact per-hop latency of one MP1 message through a mesh (C model)\n"
          "           --mesh KXxKY (default 4x4, 1..32 each) --src X,Y --dst X,Y (0..31 each)\n"
          "           --len BYTES (data, default 4, 1..%u)\n"
          "           --type static|adaptive (default static)\n"
          "           --load PPM (background messages per node per million cycles, default 0,\n"
          "           0..1000000) --bg-len BYTES (default 4, 1..%u) --seed S (default 1,\n"
          "           0..4294967295) --vcd FILE (the path nodes) --format table|csv|json\n"
          "  meshbench  speed of the MP1 mesh C model under uniform random traffic\n"
          "           --mesh KXxKY (default 16x16, 1..32 each) --cycles N (default 20000,\n"
          "           1..100000000) --load PPM (messages per node per million cycles, default\n"
          "           5000, 0..1000000)\n"
          "  sim      the MP1 network simulator: one load point, seeds averaged (madpost sim --help)\n"
          "  sweep    a load sweep of the simulator: CSV, JSON and plots (madpost sweep --help)\n"
          "  simbench speed and memory of the simulator (options as sim)\n"
          "  c104net  a network of C104 switches and T9000-style endpoints (madpost c104net --help)\n"
          "  c104transit  seed 000 §4.1.5 on the C104 model: transit and throughput, direct and\n"
          "           through C104s --max-bytes M (default 6, 0..64) --format table|csv|json\n"
          "  c104cost seed 002 eq. (1)-(4) on the C104 model: packet and message cost, crossover,\n"
          "           channels --hbytes 1|2 (default 1) --smax S (default 14, 0..20)\n"
          "           --format table|csv|json\n"
          "  help     this text (also --help or -h after any command)\n"
          "  --version  the version of madpost\n",
          (unsigned)LINKBW_BP_MAX, MP1_MSG_MAX - 2, MP1_MSG_MAX - 2);
  return f == stderr ? 2 : 0;
}


/* 1 if --help or -h is among a command's arguments: usage(stdout) is the answer, exit 0, as for
   sim, sweep and c104net. */
static int wants_help(int argc, char **argv) {
  for (int i = 0; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return 1;
  return 0;
}

static int bad(const char *fmt, const char *a, const char *b) {
  fprintf(stderr, "madpost: ");
  fprintf(stderr, fmt, a, b);
  fprintf(stderr, "\n");
  return 2;
}

static int parse_u32(const char *opt, const char *s, uint32_t lo, uint32_t hi, uint32_t *out) {
  if (net_num_whole32(s, lo, hi, out)) {
    fprintf(stderr, "madpost: %s: '%s' is not a number in %u..%u\n", opt, s, lo, hi);
    return -1;
  }
  return 0;
}

typedef enum { LB_TABLE, LB_MARKDOWN, LB_CSV, LB_JSON } linkbw_fmt_e;

typedef struct {
  uint32_t lo, hi, messages, bp;
  linkbw_fmt_e fmt;
} linkbw_opt_t;

/* linkbw's options into o: 0, or the exit status (2) after a message. */
static int linkbw_parse(int argc, char **argv, linkbw_opt_t *o) {
  *o = (linkbw_opt_t){.lo = 0, .hi = 64, .messages = 200, .bp = 1, .fmt = LB_TABLE};
  if (wants_help(argc, argv)) return -1;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (i + 1 >= argc)
      return bad("%s%s: missing value or unknown option", a, "");
    const char *v = argv[++i];
    if (!strcmp(a, "--min")) {
      if (parse_u32(a, v, 0, 4096, &o->lo)) return 2;
    } else if (!strcmp(a, "--max")) {
      if (parse_u32(a, v, 0, 4096, &o->hi)) return 2;
    } else if (!strcmp(a, "--messages")) {
      if (parse_u32(a, v, 10, 100000, &o->messages)) return 2;
    } else if (!strcmp(a, "--bit-period")) {
      if (parse_u32(a, v, 1, LINKBW_BP_MAX, &o->bp)) return 2;
    } else if (!strcmp(a, "--format")) {
      static const char *const names[] = {"table", "markdown", "csv", "json"};
      int f = 0;
      while (f < 4 && strcmp(v, names[f]))
        f++;
      if (f == 4)
        return bad("--format: '%s' is not one of table, markdown, csv, json%s", v, "");
      o->fmt = (linkbw_fmt_e)f;
    } else {
      return bad("linkbw: unknown option '%s'%s", a, "");
    }
  }
  if (o->lo > o->hi) {
    fprintf(stderr, "madpost: linkbw: --min %u is above --max %u\n", o->lo, o->hi);
    return 2;
  }
  return 0;
}

static void linkbw_head(const linkbw_opt_t *o) {
  if (o->fmt == LB_MARKDOWN) {
    puts("| bytes | one way, 1 VL | one way, 12 VLs | eq. 4.1 | diff | both ways, 1 VL | "
         "1 VL lock-step | both ways, 12 VLs | eq. 4.2 | diff | idle NULLs, 12 VLs |");
    puts("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  } else if (o->fmt == LB_CSV) {
    puts("bytes,one_way_1vl,one_way_cap,eq41,diff41_pct,two_way_1vl,lockstep_1vl,two_way_cap,eq42,"
         "diff42_pct,cap_nulls");
  } else if (o->fmt == LB_JSON) {
    printf("{\"link_mbps\": %.0f, \"bit_period\": %u, \"messages\": %u, \"rows\": [\n",
           DSLINK_BW_LINK_MBPS, o->bp, o->messages);
  } else {
    printf("DS-Link data throughput a->b in Mbit/s, measured on the C model (seed 000 eq. 4.1/4.2)\n");
    printf("%5s | %7s %7s %7s %7s | %7s %7s %7s %7s %7s | %5s\n", "bytes", "1w 1VL", "1w 12VL", "eq4.1",
           "diff", "2w 1VL", "lockstp", "2w 12VL", "eq4.2", "diff", "NULLs");
  }
}

static void linkbw_row(const linkbw_opt_t *o, uint32_t m, const dslink_bw_row_t *r) {
  if (o->fmt == LB_MARKDOWN)
    printf("| %u | %.2f | %.2f | %.2f | %+.2f%% | %.2f | %.2f | %.2f | %.2f | %+.2f%% | %llu |\n",
           m, r->one_way_1vl, r->one_way_cap, r->eq41, r->diff41, r->two_way_1vl, r->lockstep_1vl,
           r->two_way_cap, r->eq42, r->diff42, (unsigned long long)r->cap_nulls);
  else if (o->fmt == LB_CSV)
    printf("%u,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%llu\n", m, r->one_way_1vl,
           r->one_way_cap, r->eq41, r->diff41, r->two_way_1vl, r->lockstep_1vl, r->two_way_cap,
           r->eq42, r->diff42, (unsigned long long)r->cap_nulls);
  else if (o->fmt == LB_JSON)
    printf("  {\"bytes\": %u, \"one_way_1vl\": %.4f, \"one_way_cap\": %.4f, \"eq41\": %.4f, "
           "\"two_way_1vl\": %.4f, \"lockstep_1vl\": %.4f, \"two_way_cap\": %.4f, "
           "\"eq42\": %.4f, \"cap_nulls\": %llu}%s\n",
           m, r->one_way_1vl, r->one_way_cap, r->eq41, r->two_way_1vl, r->lockstep_1vl,
           r->two_way_cap, r->eq42, (unsigned long long)r->cap_nulls, m == o->hi ? "" : ",");
  else
    printf("%5u | %7.2f %7.2f %7.2f %+6.2f%% | %7.2f %7.2f %7.2f %7.2f %+6.2f%% | %5llu\n", m,
           r->one_way_1vl, r->one_way_cap, r->eq41, r->diff41, r->two_way_1vl, r->lockstep_1vl,
           r->two_way_cap, r->eq42, r->diff42, (unsigned long long)r->cap_nulls);
}

static int cmd_linkbw(int argc, char **argv) {
  linkbw_opt_t o;
  const int rc = linkbw_parse(argc, argv, &o);
  if (rc)
    return rc < 0 ? usage(stdout) : rc;
  dslink_cfg_t cfg;
  dslink_cfg_default(&cfg);
  cfg.bit_period = o.bp;
  if (cfg.disconnect_cycles <= o.bp)
    cfg.disconnect_cycles = o.bp + 8; /* at most 255: o.bp <= LINKBW_BP_MAX */
  /* the start-up timers count cycles: past 17 cycles a bit, the defaults (64, 128, 128) are
     shorter than the tokens the link must exchange to start, and it never runs; 8 bit periods
     each, as the defaults are at bit period 16 */
  if (o.bp > 17) {
    cfg.reset_cycles = 4 * o.bp;
    cfg.wait_cycles = 8 * o.bp;
    cfg.timeout_cycles = 8 * o.bp;
  }
  char err[256];
  if (dslink_cfg_check(&cfg, err, sizeof err)) {
    fprintf(stderr, "madpost: %s\n", err);
    return 2;
  }
  linkbw_head(&o);
  for (uint32_t m = o.lo; m <= o.hi; m++) {
    dslink_bw_row_t r;
    if (dslink_bw_row(&cfg, m, o.messages, &r, err, sizeof err)) {
      fprintf(stderr, "madpost: linkbw: %s\n", err);
      return 1;
    }
    linkbw_row(&o, m, &r);
    if (fflush(stdout))
      return 1; /* main says that standard output cannot be written */
  }
  if (o.fmt == LB_JSON)
    puts("]}");
  return 0;
}

/* Benchmark, not a test: link-end cycles per second of the C model under full two-way load. */
static int cmd_linkbench(int argc, char **argv) {
  uint32_t mcycles = 20;
  if (wants_help(argc, argv)) return usage(stdout);
  for (int i = 0; i < argc; i += 2) {
    if (strcmp(argv[i], "--cycles") || i + 1 >= argc)
      return bad("linkbench: unknown option '%s'%s", argv[i], "");
    uint32_t c;
    if (parse_u32("--cycles", argv[i + 1], 1000000, 2000000000, &c))
      return 2;
    if (c % 1000000) { /* the loop counts millions: 1999999 ran 1000000 */
      fprintf(stderr, "madpost: linkbench: --cycles: %u is not a whole number of millions\n", c);
      return 2;
    }
    mcycles = c / 1000000;
  }
  dslink_cfg_t cfg;
  dslink_cfg_default(&cfg);
  dslink_state_t ls[2];
  t9k_state_t es[2];
  t9k_cfg_t ec = {.nvl = DSLINK_BW_CAP_VL, .send = 1, .msg_len = 64, .send_start = 0};
  for (int i = 0; i < 2; i++) {
    dslink_reset(&cfg, &ls[i]);
    t9k_reset(&ec, &es[i]);
  }
  const uint64_t n = (uint64_t)mcycles * 1000000u;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (uint64_t cyc = 0; cyc < n; cyc++) {
    dslink_out_t lo[2];
    t9k_out_t eo[2];
    t9k_next_t en[2];
    t9k_ev_t ev;
    dslink_next_t nx[2];
    for (int i = 0; i < 2; i++)
      dslink_outputs(&cfg, &ls[i], &lo[i]);
    for (int i = 0; i < 2; i++) {
      t9k_in_t ei = {lo[i].tx_ready, lo[i].rx_valid, lo[i].rx_data, lo[i].rx_kind};
      t9k_eval(&ec, &es[i], &ei, &eo[i], &en[i], &ev);
      dslink_in_t in = {.d = lo[1 - i].d, .s = lo[1 - i].s, .link_en = 1,
                        .tx_valid = eo[i].tx_valid, .tx_data = eo[i].tx_data,
                        .tx_kind = eo[i].tx_kind, .rx_ready = eo[i].rx_ready};
      dslink_out_t out;
      if (dslink_eval(&cfg, &ls[i], &in, &out, &nx[i], NULL))
        return 1;
    }
    for (int i = 0; i < 2; i++) {
      dslink_clock(&ls[i], &nx[i]);
      t9k_clock(&es[i], &en[i]);
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  const double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  printf("linkbench: %llu cycles x 2 link ends in %.2f s: %.1f M link-end cycles/s "
         "(%llu messages delivered)\n",
         (unsigned long long)n, s, 2.0 * (double)n / s / 1e6,
         (unsigned long long)(es[0].msgs_rcvd + es[1].msgs_rcvd));
  return 0;
}

static int parse_pair(const char *opt, const char *v, char sep, uint32_t lo, uint32_t hi,
                      uint32_t *a, uint32_t *b) {
  char buf[32];
  const char *m = strchr(v, sep);
  if (!m || (size_t)(m - v) >= sizeof buf) {
    fprintf(stderr, "madpost: %s: '%s' is not of the form A%cB\n", opt, v, sep);
    return -1;
  }
  memcpy(buf, v, (size_t)(m - v));
  buf[m - v] = 0;
  if (parse_u32(opt, buf, lo, hi, a) || parse_u32(opt, m + 1, lo, hi, b)) return -1;
  return 0;
}

static const char *hop_kind(uint32_t k) {
  return k == MP1_HOP_SOURCE ? "source" : k == MP1_HOP_STRAIGHT ? "straight"
       : k == MP1_HOP_TURN ? "turn" : "deliver";
}

/* hop's options into c and the output format; 0, or 2 after a usage error's message. */
static int hop_options(int argc, char **argv, mp1_hop_cfg_t *c, const char **format) {
  int have_src = 0, have_dst = 0, have_bg = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (i + 1 >= argc) return bad("hop: %s: missing value or unknown option%s", a, "");
    const char *v = argv[++i];
    if (!strcmp(a, "--mesh")) {
      if (parse_pair(a, v, 'x', 1, 32, &c->kx, &c->ky)) return 2;
    } else if (!strcmp(a, "--src")) {
      if (parse_pair(a, v, ',', 0, 31, &c->sx, &c->sy)) return 2;
      have_src = 1;
    } else if (!strcmp(a, "--dst")) {
      if (parse_pair(a, v, ',', 0, 31, &c->dx, &c->dy)) return 2;
      have_dst = 1;
    } else if (!strcmp(a, "--len")) {
      if (parse_u32(a, v, 1, MP1_MSG_MAX - 2, &c->len)) return 2;
    } else if (!strcmp(a, "--bg-len")) {
      if (parse_u32(a, v, 1, MP1_MSG_MAX - 2, &c->bg_len)) return 2;
      have_bg = 1;
    } else if (!strcmp(a, "--load")) {
      if (parse_u32(a, v, 0, 1000000, &c->load_ppm)) return 2;
    } else if (!strcmp(a, "--seed")) {
      uint32_t s;
      if (parse_u32(a, v, 0, 0xffffffffu, &s)) return 2;
      c->seed = s;
      have_bg = 1;
    } else if (!strcmp(a, "--type")) {
      if (!strcmp(v, "static")) c->adaptive = 0;
      else if (!strcmp(v, "adaptive")) c->adaptive = 1;
      else return bad("--type: '%s' is not static or adaptive%s", v, "");
    } else if (!strcmp(a, "--vcd")) {
      c->vcd_path = v;
    } else if (!strcmp(a, "--format")) {
      if (strcmp(v, "table") && strcmp(v, "csv") && strcmp(v, "json"))
        return bad("--format: '%s' is not one of table, csv, json%s", v, "");
      *format = v;
    } else {
      return bad("hop: unknown option '%s'%s", a, "");
    }
  }
  if (!have_src || !have_dst) return bad("hop: --src and --dst are required%s%s", "", "");
  if (have_bg && !c->load_ppm) /* they shape only the background traffic */
    return bad("hop: --bg-len and --seed: only with background traffic (--load above 0)%s%s", "",
               "");
  return 0;
}

static void hop_json(const mp1_hop_cfg_t *c, const mp1_hop_result_t *r) {
  printf("{\"mesh\":[%u,%u],\"src\":[%u,%u],\"dst\":[%u,%u],\"len\":%u,\"type\":\"%s\","
         "\"load_ppm\":%u,\"seed\":%llu,\"hops\":[",
         c->kx, c->ky, c->sx, c->sy, c->dx, c->dy, c->len, c->adaptive ? "adaptive" : "static",
         c->load_ppm, (unsigned long long)c->seed);
  for (uint32_t i = 0; i < r->nhops; i++) {
    const mp1_hop_t *h = &r->hop[i];
    printf("%s{\"node\":[%u,%u],\"plane\":%u,\"dim\":\"%c\",\"kind\":\"%s\",\"arrive\":%llu,"
           "\"decide\":%llu,\"depart\":%llu,\"delay\":%u,\"dead\":%u,\"adapt\":%u}",
           i ? "," : "", h->x, h->y, h->plane, h->dim ? 'Y' : 'X', hop_kind(h->kind),
           (unsigned long long)h->arrive, (unsigned long long)h->decide,
           (unsigned long long)h->depart, h->delay, h->dead, h->adapt);
  }
  printf("],\"links\":%u,\"flits\":%u,\"turns\":%u,\"network\":%llu,\"formula_k1\":%.4f,"
         "\"formula\":%lld,"
         "\"segments\":%u,\"predicted\":%lld,\"total\":%llu,\"data_ok\":%u}\n",
         r->links, r->flits, r->turns, (unsigned long long)r->net, r->formula_k1, (long long)r->formula,
         r->segments, (long long)r->predicted, (unsigned long long)r->total, r->data_ok);
}

/* One row per hop, as a table or CSV. */
static void hop_rows(const mp1_hop_result_t *r, int csv) {
  if (csv)
    printf("x,y,plane,dim,kind,arrive,decide,depart,delay,dead,adapt\n");
  else
    printf("%-7s %-5s %-9s %8s %8s %8s %6s %5s %6s\n", "node", "in", "kind", "arrive", "decide",
           "depart", "delay", "dead", "adapt");
  for (uint32_t i = 0; i < r->nhops; i++) {
    const mp1_hop_t *h = &r->hop[i];
    if (csv) {
      printf("%u,%u,%u,%c,%s,%llu,%llu,%llu,%u,%u,%u\n", h->x, h->y, h->plane, h->dim ? 'Y' : 'X',
             hop_kind(h->kind), (unsigned long long)h->arrive, (unsigned long long)h->decide,
             (unsigned long long)h->depart, h->delay, h->dead, h->adapt);
    } else {
      char node[16], in[16];
      snprintf(node, sizeof node, "(%u,%u)", h->x, h->y);
      snprintf(in, sizeof in, "p%u%c%s", h->plane, h->dim ? 'Y' : 'X', i ? "" : ">");
      printf("%-7s %-5s %-9s %8llu %8llu %8llu %6u %5u %6u\n", node, in, hop_kind(h->kind),
             (unsigned long long)h->arrive, (unsigned long long)h->decide,
             (unsigned long long)h->depart, h->delay, h->dead, h->adapt);
    }
  }
}

/* The table's closing lines: the latency beside seed 004's formula, or the background traffic. */
static void hop_summary(const mp1_hop_cfg_t *c, const mp1_hop_result_t *r) {
  printf("network latency: %llu cycles (first chunk on the first link to the last data chunk into "
         "the destination)\n", (unsigned long long)r->net);
  if (!c->load_ppm) {
    printf("seed 004 formula t = (k d + l - k) tau / w, tau = 1 cycle, w = 3 bits, l = 9F bits,\n"
           "  d = %u links, F = %u flits (header included):\n"
           "  k = 1 bit (the paper's synchronous constant): t = (d + 9F - 1)/3 = %.2f cycles\n"
           "  k = 3 bits (MP1 propagates one 3-bit chunk per cycle): t = d + 3F - 1 = %lld cycles",
           r->links, r->flits, r->formula_k1, (long long)r->formula);
    if (r->segments > 1)
      printf("\n  + %u segment boundar%s x %d (the EOS; the next segment follows it directly)"
             " = %lld cycles (docs/mp1_draft4.md §11: a turn costs nothing)",
             r->segments - 1, r->segments == 2 ? "y" : "ies", MP1_HOP_SEG_EXTRA,
             (long long)r->predicted);
    printf("\n  measured %llu: %s\n", (unsigned long long)r->net,
           (int64_t)r->net == r->predicted ? "matches" : "DIFFERS");
  } else {
    printf("background: %llu messages sent, %llu delivered while this one travelled\n",
           (unsigned long long)r->bg_sent, (unsigned long long)r->bg_delivered);
  }
  printf("end to end: %llu cycles (first header chunk on the injection channel to EOM on the "
         "reception channel); data %s\n", (unsigned long long)r->total,
         r->data_ok ? "intact" : "CORRUPTED");
}

static int cmd_hop(int argc, char **argv) {
  mp1_hop_cfg_t c = {.kx = 4, .ky = 4, .sx = 0, .sy = 0, .dx = 3, .dy = 0, .len = 4,
                     .bg_len = 4, .seed = 1, .warmup = 0, .max_cycles = 1000000};
  const char *format = "table";
  if (wants_help(argc, argv)) return usage(stdout);
  if (hop_options(argc, argv, &c, &format)) return 2;
  if (c.load_ppm) c.warmup = 2000;
  mp1_hop_result_t r;
  char err[160];
  const int rc = mp1_hop_run(&c, &r, err, sizeof err);
  if (rc) {
    fprintf(stderr, "madpost: hop: %s\n", err);
    return rc == -2 ? 2 : 1;
  }
  if (!strcmp(format, "json")) {
    hop_json(&c, &r);
    return 0;
  }
  const int csv = !strcmp(format, "csv");
  hop_rows(&r, csv);
  if (!csv) hop_summary(&c, &r);
  return 0;
}

static int cmd_meshbench(int argc, char **argv) {
  uint32_t kx = 16, ky = 16, cycles = 20000, load = 5000;
  if (wants_help(argc, argv)) return usage(stdout);
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (i + 1 >= argc) return bad("meshbench: %s: missing value or unknown option%s", a, "");
    const char *v = argv[++i];
    if (!strcmp(a, "--mesh")) {
      if (parse_pair(a, v, 'x', 1, 32, &kx, &ky)) return 2;
    } else if (!strcmp(a, "--cycles")) {
      if (parse_u32(a, v, 1, 100000000, &cycles)) return 2;
    } else if (!strcmp(a, "--load")) {
      if (parse_u32(a, v, 0, 1000000, &load)) return 2;
    } else {
      return bad("meshbench: unknown option '%s'%s", a, "");
    }
  }
  const uint32_t n = kx * ky;
  mp1_mesh_state_t st;
  mp1_mesh_next_t nx;
  mp1_mesh_in_t *in = calloc(n, sizeof *in);
  mp1_mesh_out_t *out = calloc(n, sizeof *out);
  mp1_nic_t *nic = calloc(2 * (size_t)n, sizeof *nic);
  if (!in || !out || !nic || mp1_mesh_init(&st, &nx, (mp1_mesh_cfg_t){.kx = kx, .ky = ky, .awf = 1})) {
    fprintf(stderr, "madpost: meshbench: out of memory\n");
    return 1;
  }
  uint64_t rng = 0x9e3779b97f4a7c15ull, sent = 0, got = 0;
  int rc = 0;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (uint32_t t = 0; t < cycles; t++) {
    if (t % 5000 == 0 && t) fprintf(stderr, "meshbench: cycle %u\r", t);
    for (uint32_t i = 0; i < n; i++) {
      rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17; /* xorshift: speed only */
      if (n > 1 && (uint32_t)(rng % 1000000u) < load && nic[i].count < MP1_NIC_QUEUE) {
        uint32_t d = (uint32_t)((rng >> 24) % (n - 1));
        if (d >= i) d++;
        mp1_msg_t m;
        memset(&m, 0, sizeof m);
        uint32_t h = mp1_msg_p2p(1, kx, i, d, 0, &m);
        for (int b = 0; b < 4; b++) m.bytes[h++] = (uint8_t)b;
        m.len = h;
        if (!mp1_nic_push(&nic[i], &m)) sent++;
      }
      in[i].inj_dat = nic[i].dat;
      in[i].pbloop = 1;
    }
    mp1_mesh_eval(&st.cfg, &st, in, out, &nx, NULL);
    for (uint32_t i = 0; i < n; i++) {
      mp1_rx_msg_t r;
      if (out[i].err) { /* the buffer invariant (docs/mp1_draft4.md §6): a fault of the model */
        fprintf(stderr, "\nmadpost: meshbench: MP1 buffer invariant broken at node (%u,%u), "
                "cycle %u\n", i % kx, i / kx, t);
        rc = 1;
        break;
      }
      if (mp1_nic_rx(&nic[n + i], out[i].rcv_dat, t, &r) == 1) got++;
      mp1_nic_tx_step(&nic[i], out[i].inj_stop, t);
    }
    if (rc) break;
    mp1_mesh_clock(&st, &nx);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  const double sec = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  if (!rc)
    printf("meshbench: %ux%u mesh, %u cycles in %.2f s: %.2f M chip-cycles/s, %.0f mesh cycles/s; "
           "%llu messages sent, %llu delivered\n",
           kx, ky, cycles, sec, (double)n * cycles / sec / 1e6, cycles / sec,
           (unsigned long long)sent, (unsigned long long)got);
  mp1_mesh_free(&st, &nx);
  free(in);
  free(out);
  free(nic);
  return rc;
}

/* The command named by argv[1] run: its exit status. */
static int dispatch(int argc, char **argv) {
  if (argc < 2)
    return usage(stderr);
  if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
    return usage(stdout);
  if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
    printf("madpost %s\n", MADPOST_VERSION_STRING); /* include/madpost/version.h */
    return 0;
  }
  if (!strcmp(argv[1], "linkbw"))
    return cmd_linkbw(argc - 2, argv + 2);
  if (!strcmp(argv[1], "meshbench"))
    return cmd_meshbench(argc - 2, argv + 2);
  if (!strcmp(argv[1], "hop"))
    return cmd_hop(argc - 2, argv + 2);
  if (!strcmp(argv[1], "sim"))
    return madpost_cmd_sim(argc - 2, argv + 2);
  if (!strcmp(argv[1], "sweep"))
    return madpost_cmd_sweep(argc - 2, argv + 2);
  if (!strcmp(argv[1], "simbench"))
    return madpost_cmd_simbench(argc - 2, argv + 2);
  if (!strcmp(argv[1], "c104net"))
    return madpost_cmd_c104net(argc - 2, argv + 2);
  if (!strcmp(argv[1], "c104transit"))
    return madpost_cmd_c104transit(argc - 2, argv + 2);
  if (!strcmp(argv[1], "c104cost"))
    return madpost_cmd_c104cost(argc - 2, argv + 2);
  if (!strcmp(argv[1], "linkbench"))
    return cmd_linkbench(argc - 2, argv + 2);
  fprintf(stderr, "madpost: unknown command '%s'\n", argv[1]);
  return usage(stderr);
}

int main(int argc, char **argv) {
  const int rc = dispatch(argc, argv);
  /* every command's results go to stdout: lost ones (a full disk, /dev/full) fail the run */
  char err[160];
  if (net_out_flush(stdout, "standard output", err, sizeof err)) {
    fprintf(stderr, "madpost: %s\n", err);
    return rc ? rc : 1;
  }
  return rc;
}
