/* madpost: the main command line. Subcommands grow with the models; for now the DS-Link figures. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#include <errno.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dslink.h"
#include "dslink_bw.h"
#include "t9k.h"

static int usage(FILE *f) {
  fprintf(f,
          "usage: madpost COMMAND [options]\n"
          "commands:\n"
          "  linkbw   DS-Link throughput measured on the C model against seed 000 eq. 4.1/4.2\n"
          "           --min M --max M (message bytes, default 0..64) --messages N (default 200)\n"
          "           --bit-period B (default 1) --format table|markdown|csv|json\n"
          "  linkbench  speed of the DS-Link C model: two ends, 12 virtual links each way\n"
          "           --cycles N (default 20000000)\n"
          "  help     this text\n");
  return f == stderr ? 2 : 0;
}

static int bad(const char *fmt, const char *a, const char *b) {
  fprintf(stderr, "madpost: ");
  fprintf(stderr, fmt, a, b);
  fprintf(stderr, "\n");
  return 2;
}

static int parse_u32(const char *opt, const char *s, uint32_t lo, uint32_t hi, uint32_t *out) {
  char *end;
  errno = 0;
  unsigned long v = strtoul(s, &end, 10);
  if (!*s || *end || errno || s[0] == '-' || v < lo || v > hi) {
    fprintf(stderr, "madpost: %s: '%s' is not a number in %u..%u\n", opt, s, lo, hi);
    return -1;
  }
  *out = (uint32_t)v;
  return 0;
}

static int cmd_linkbw(int argc, char **argv) {
  uint32_t lo = 0, hi = 64, messages = 200, bp = 1;
  const char *format = "table";
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (i + 1 >= argc)
      return bad("%s%s: missing value or unknown option", a, "");
    const char *v = argv[++i];
    if (!strcmp(a, "--min")) {
      if (parse_u32(a, v, 0, 4096, &lo)) return 2;
    } else if (!strcmp(a, "--max")) {
      if (parse_u32(a, v, 0, 4096, &hi)) return 2;
    } else if (!strcmp(a, "--messages")) {
      if (parse_u32(a, v, 10, 100000, &messages)) return 2;
    } else if (!strcmp(a, "--bit-period")) {
      if (parse_u32(a, v, 1, 255, &bp)) return 2;
    } else if (!strcmp(a, "--format")) {
      if (strcmp(v, "table") && strcmp(v, "markdown") && strcmp(v, "csv") && strcmp(v, "json"))
        return bad("--format: '%s' is not one of table, markdown, csv, json%s", v, "");
      format = v;
    } else {
      return bad("linkbw: unknown option '%s'%s", a, "");
    }
  }
  if (lo > hi) {
    fprintf(stderr, "madpost: linkbw: --min %u is above --max %u\n", lo, hi);
    return 2;
  }
  dslink_cfg_t cfg;
  dslink_cfg_default(&cfg);
  cfg.bit_period = bp;
  if (cfg.disconnect_cycles <= bp)
    cfg.disconnect_cycles = bp + 8 > 255 ? 255 : bp + 8;
  char err[256];
  if (dslink_cfg_check(&cfg, err, sizeof err)) {
    fprintf(stderr, "madpost: %s\n", err);
    return 2;
  }
  const int md = !strcmp(format, "markdown"), csv = !strcmp(format, "csv"),
            json = !strcmp(format, "json");
  if (md) {
    puts("| bytes | one way, 1 VL | one way, 12 VLs | eq. 4.1 | diff | both ways, 1 VL | "
         "1 VL lock-step | both ways, 12 VLs | eq. 4.2 | diff | idle NULLs, 12 VLs |");
    puts("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  } else if (csv) {
    puts("bytes,one_way_1vl,one_way_cap,eq41,diff41_pct,two_way_1vl,lockstep_1vl,two_way_cap,eq42,"
         "diff42_pct,cap_nulls");
  } else if (json) {
    printf("{\"link_mbps\": %.0f, \"bit_period\": %u, \"messages\": %u, \"rows\": [\n",
           DSLINK_BW_LINK_MBPS, bp, messages);
  } else {
    printf("DS-Link data throughput a->b in Mbit/s, measured on the C model (seed 000 eq. 4.1/4.2)\n");
    printf("%5s | %7s %7s %7s %7s | %7s %7s %7s %7s %7s | %5s\n", "bytes", "1w 1VL", "1w 12VL", "eq4.1",
           "diff", "2w 1VL", "lockstp", "2w 12VL", "eq4.2", "diff", "NULLs");
  }
  for (uint32_t m = lo; m <= hi; m++) {
    dslink_bw_row_t r;
    if (dslink_bw_row(&cfg, m, messages, &r, err, sizeof err)) {
      fprintf(stderr, "madpost: linkbw: %s\n", err);
      return 1;
    }
    if (md)
      printf("| %u | %.2f | %.2f | %.2f | %+.2f%% | %.2f | %.2f | %.2f | %.2f | %+.2f%% | %llu |\n",
             m, r.one_way_1vl, r.one_way_cap, r.eq41, r.diff41, r.two_way_1vl, r.lockstep_1vl,
             r.two_way_cap, r.eq42, r.diff42, (unsigned long long)r.cap_nulls);
    else if (csv)
      printf("%u,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%llu\n", m, r.one_way_1vl,
             r.one_way_cap, r.eq41, r.diff41, r.two_way_1vl, r.lockstep_1vl, r.two_way_cap, r.eq42,
             r.diff42, (unsigned long long)r.cap_nulls);
    else if (json)
      printf("  {\"bytes\": %u, \"one_way_1vl\": %.4f, \"one_way_cap\": %.4f, \"eq41\": %.4f, "
             "\"two_way_1vl\": %.4f, \"lockstep_1vl\": %.4f, \"two_way_cap\": %.4f, "
             "\"eq42\": %.4f, \"cap_nulls\": %llu}%s\n",
             m, r.one_way_1vl, r.one_way_cap, r.eq41, r.two_way_1vl, r.lockstep_1vl, r.two_way_cap,
             r.eq42, (unsigned long long)r.cap_nulls, m == hi ? "" : ",");
    else
      printf("%5u | %7.2f %7.2f %7.2f %+6.2f%% | %7.2f %7.2f %7.2f %7.2f %+6.2f%% | %5llu\n", m,
             r.one_way_1vl, r.one_way_cap, r.eq41, r.diff41, r.two_way_1vl, r.lockstep_1vl,
             r.two_way_cap, r.eq42, r.diff42, (unsigned long long)r.cap_nulls);
    fflush(stdout);
  }
  if (json)
    puts("]}");
  return 0;
}

/* Benchmark, not a test: link-end cycles per second of the C model under full two-way load. */
static int cmd_linkbench(int argc, char **argv) {
  uint32_t mcycles = 20;
  for (int i = 0; i < argc; i += 2) {
    if (strcmp(argv[i], "--cycles") || i + 1 >= argc)
      return bad("linkbench: unknown option '%s'%s", argv[i], "");
    uint32_t c;
    if (parse_u32("--cycles", argv[i + 1], 1000000, 2000000000, &c))
      return 2;
    mcycles = c / 1000000;
  }
  dslink_cfg_t cfg;
  dslink_cfg_default(&cfg);
  dslink_state_t ls[2];
  t9k_state_t es[2];
  t9k_cfg_t ec = {.nvl = DSLINK_BW_CAP_VL, .send = 1, .msg_len = 64, .send_start = 0};
  for (int i = 0; i < 2; i++) {
    dslink_reset(&cfg, &ls[i]);
    t9k_reset(&es[i]);
  }
  const uint64_t n = (uint64_t)mcycles * 1000000u;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (uint64_t cyc = 0; cyc < n; cyc++) {
    dslink_out_t lo[2];
    t9k_out_t eo[2];
    t9k_state_t en[2];
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

int main(int argc, char **argv) {
  if (argc < 2)
    return usage(stderr);
  if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
    return usage(stdout);
  if (!strcmp(argv[1], "linkbw"))
    return cmd_linkbw(argc - 2, argv + 2);
  if (!strcmp(argv[1], "linkbench"))
    return cmd_linkbench(argc - 2, argv + 2);
  fprintf(stderr, "madpost: unknown command '%s'\n", argv[1]);
  return usage(stderr);
}
