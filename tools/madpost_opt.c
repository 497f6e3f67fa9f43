/* Option values of the madpost subcommands and the figure commands' command line
 * (tools/madpost_opt.h). */
#include "madpost_opt.h"

#include <stdio.h>
#include <string.h>

#include <madpost/net_num.h>

#include "madpost_rows.h"

int madpost_opt_num(const char *cmd, const char *key, const char *v, double lo, double hi,
                    double *out) {
  if (net_num_real(v, lo, hi, out)) {
    fprintf(stderr, "madpost: %s: --%s: '%s' is not a number in %g..%g\n", cmd, key, v, lo, hi);
    return -1;
  }
  return 0;
}

int madpost_opt_whole(const char *cmd, const char *key, const char *v, uint64_t lo, uint64_t hi,
                      uint64_t *out) {
  if (net_num_whole(v, lo, hi, out)) {
    fprintf(stderr, "madpost: %s: --%s: '%s' is not a whole number in %llu..%llu\n", cmd, key, v,
            (unsigned long long)lo, (unsigned long long)hi);
    return -1;
  }
  return 0;
}

int madpost_opt_pairs(const char *cmd, int argc, char **argv, int (*usage)(FILE *),
                      int (*one)(void *ctx, const char *a, const char *v), void *ctx, int *rc) {
  for (int i = 0; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      *rc = usage(stdout);
      return 1;
    }
  for (int i = 0; i < argc; i += 2) {
    const char *a = argv[i];
    if (strncmp(a, "--", 2) || i + 1 >= argc) {
      fprintf(stderr, "madpost: %s: '%s': expected --KEY VALUE\n", cmd, a);
      *rc = usage(stderr);
      return 1;
    }
    if (one(ctx, a, argv[i + 1])) {
      *rc = 2;
      return 1;
    }
  }
  return 0;
}

typedef struct {
  const char *cmd;
  const madpost_opt_whole_t *opt;
  int nopt;
  int *fmt;
} whole_args_t;

/* Option a (with its dashes) = v, one of --format or the whole-number options: 0, or -1 after
   saying why not. */
static int one_whole(void *ctx, const char *a, const char *v) {
  const whole_args_t *x = ctx;
  if (!strcmp(a, "--format"))
    return madpost_rows_format(x->cmd, v, x->fmt);
  for (int k = 0; k < x->nopt; k++)
    if (!strcmp(a + 2, x->opt[k].key))
      return madpost_opt_whole(x->cmd, x->opt[k].key, v, x->opt[k].lo, x->opt[k].hi,
                               x->opt[k].val);
  fprintf(stderr, "madpost: %s: unknown option '%s'\n", x->cmd, a);
  return -1;
}

int madpost_opt_args(const char *cmd, int argc, char **argv, const madpost_opt_whole_t *opt,
                     int nopt, int (*usage)(FILE *), int *fmt, int *rc) {
  whole_args_t x = {cmd, opt, nopt, fmt};
  return madpost_opt_pairs(cmd, argc, argv, usage, one_whole, &x, rc);
}
