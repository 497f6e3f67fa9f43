/* Option values of the madpost subcommands (tools/madpost_opt.h). */
#include "madpost_opt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int madpost_opt_num(const char *cmd, const char *key, const char *v, double lo, double hi,
                    double *out) {
  char *end;
  errno = 0;
  const double x = strtod(v, &end);
  if (!*v || *end || errno || !(x >= lo && x <= hi)) {
    fprintf(stderr, "madpost: %s: --%s: '%s' is not a number in %g..%g\n", cmd, key, v, lo, hi);
    return -1;
  }
  *out = x;
  return 0;
}

int madpost_opt_whole(const char *cmd, const char *key, const char *v, uint64_t lo, uint64_t hi,
                      uint64_t *out) {
  char *end;
  errno = 0;
  const unsigned long long x = strtoull(v, &end, 10);
  if (!*v || *end || errno || v[0] == '-' || x < lo || x > hi) {
    fprintf(stderr, "madpost: %s: --%s: '%s' is not a whole number in %llu..%llu\n", cmd, key, v,
            (unsigned long long)lo, (unsigned long long)hi);
    return -1;
  }
  *out = x;
  return 0;
}
