/* Numbers from text in one place (include/madpost/net_num.h): a strict grammar checked before any
 * conversion, so that the C library's leniency (spaces, signs, hex, "nan") never reaches a
 * value. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <madpost/net_num.h>

static int is_digit(char c) { return c >= '0' && c <= '9'; }

int net_num_whole(const char *s, uint64_t lo, uint64_t hi, uint64_t *out) {
  if (!s || !*s) return -1;
  uint64_t x = 0;
  for (const char *p = s; *p; p++) {
    if (!is_digit(*p)) return -1;
    const uint64_t d = (uint64_t)(*p - '0');
    if (x > (UINT64_MAX - d) / 10) return -1; /* would wrap */
    x = x * 10 + d;
  }
  if (x < lo || x > hi) return -1;
  *out = x;
  return 0;
}

int net_num_whole32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out) {
  uint64_t x;
  if (net_num_whole(s, lo, hi, &x)) return -1;
  *out = (uint32_t)x;
  return 0;
}

/* Digits from *p on: how many, *p moved past them. */
static size_t digits(const char **p) {
  size_t n = 0;
  while (is_digit(**p)) (*p)++, n++;
  return n;
}

/* Whether s is [-]digits[.digits][e[+-]digits] or [-].digits[e...]: what strtod may then read. */
static int real_form(const char *s) {
  const char *p = s;
  if (*p == '-') p++;
  size_t n = digits(&p);
  if (*p == '.') {
    p++;
    n += digits(&p);
  }
  if (!n) return 0;
  if (*p == 'e' || *p == 'E') {
    p++;
    if (*p == '+' || *p == '-') p++;
    if (!digits(&p)) return 0;
  }
  return *p == 0;
}

int net_num_real(const char *s, double lo, double hi, double *out) {
  if (!s || !real_form(s)) return -1;
  char *end;
  errno = 0;
  const double x = strtod(s, &end);
  if (*end || errno || !isfinite(x) || !(x >= lo && x <= hi)) return -1;
  *out = x + 0.0; /* -0 is 0: echoed as "0", not "-0" */
  return 0;
}

int net_num_pair(const char *s, char sep, uint32_t lo, uint32_t hi, uint32_t *a, uint32_t *b) {
  const char *m = s ? strchr(s, sep) : NULL;
  char first[24];
  if (!m || (size_t)(m - s) >= sizeof first) return -1;
  memcpy(first, s, (size_t)(m - s));
  first[m - s] = 0;
  uint32_t x, y;
  if (net_num_whole32(first, lo, hi, &x) || net_num_whole32(m + 1, lo, hi, &y)) return -1;
  *a = x;
  *b = y;
  return 0;
}
