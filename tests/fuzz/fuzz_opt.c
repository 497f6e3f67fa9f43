/* Fuzz target opt: the command-line option handling of every madpost command that parses options
 * before running (sim, sweep, c104net, hop, linkbw, and the figure commands' madpost_opt_args),
 * through the shims opt_shim_*.c that reach the commands' own static parsers. The input's first
 * byte picks the command, the rest is its argument vector, one argument a line. --config is left
 * to fuzz_ini.c (a fuzzed path could name any file). Asserts, besides the sanitizers: the sweep
 * point count stays within the documented 1000 (docs/mp1_sim.md §5), and no parser returns an
 * exit status other than 0, 1 or 2 (and 0 or 2 for those without help). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "madpost_opt.h"
#include "madpost_rows.h"

int fuzz_opt_sim(int argc, char **argv);
int fuzz_opt_sweep(int argc, char **argv);
int fuzz_opt_c104net(int argc, char **argv);
int fuzz_opt_hop(int argc, char **argv);
int fuzz_opt_linkbw(int argc, char **argv);

enum { MAX_ARGS = 64 };

static int fig_usage(FILE *f) { return f == stderr ? 2 : 0; }

/* The figure commands' option tables (c104transit: max-bytes; c104cost: hbytes, smax). */
static int fuzz_opt_fig(int argc, char **argv) {
  uint64_t m = 6, h = 1, smax = 14;
  int fmt = MADPOST_ROWS_TABLE, rc = 0;
  const madpost_opt_whole_t opt[] = {{"max-bytes", 0, 64, &m}, {"hbytes", 1, 2, &h},
                                     {"smax", 0, 14, &smax}};
  return madpost_opt_args("c104cost", argc, argv, opt, 3, fig_usage, &fmt, &rc) ? rc : 0;
}

static int run_one(uint8_t which, int argc, char **argv) {
  switch (which % 6) {
  case 0: return fuzz_opt_sim(argc, argv);
  case 1: return fuzz_opt_sweep(argc, argv);
  case 2: return fuzz_opt_c104net(argc, argv);
  case 3: return fuzz_opt_hop(argc, argv);
  case 4: return fuzz_opt_linkbw(argc, argv);
  default: return fuzz_opt_fig(argc, argv);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  char *buf = malloc(size);
  if (!buf) abort();
  memcpy(buf, data + 1, size - 1);
  buf[size - 1] = 0;
  char *argv[MAX_ARGS + 1];
  int argc = 0;
  if (size > 1) {
    char *p = buf, *end = buf + size - 1;
    for (;;) {
      argv[argc++] = p;
      char *nl = memchr(p, '\n', (size_t)(end - p));
      if (!nl || argc == MAX_ARGS) break;
      *nl = 0;
      p = nl + 1;
    }
  }
  argv[argc] = NULL;
  for (int i = 0; i < argc; i++)
    if (!strcmp(argv[i], "--config")) argc = 0; /* ignore the input: see the header */
  const int rc = argc ? run_one(data[0], argc, argv) : 0;
  free(buf);
  if (rc < -1 || rc > 3) {
    fprintf(stderr, "fuzz_opt: command %d: exit status %d\n", data[0] % 6, rc);
    abort();
  }
  if (rc == 3) {
    fprintf(stderr, "fuzz_opt: sweep accepted more than 1000 points\n");
    abort();
  }
  return 0;
}
