/* Traffic generation for MP1 network simulations: destination patterns and per-node arrival
 * processes (include/madpost/net_traffic.h has the definitions and which choices are ours). */
#include <madpost/net_traffic.h>
#include <madpost/net_err.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

static int is_pow2(uint32_t n) { return n && !(n & (n - 1)); }

static uint32_t log2u(uint32_t n) {
  uint32_t b = 0;
  while ((UINT32_C(1) << b) < n) b++;
  return b;
}

/* ---- Patterns ------------------------------------------------------------------------------ */

static const char *const pattern_names[NET_TR_COUNT] = {
    "uniform", "local", "shuffle", "bitrev", "transpose", "bitcomp", "hotspot"};

const char *net_pattern_name(net_pattern_e p) {
  return (unsigned)p < NET_TR_COUNT ? pattern_names[p] : "?";
}

int net_pattern_parse(const char *s, net_pattern_e *p) {
  if (!s) return -1;
  for (unsigned i = 0; i < NET_TR_COUNT; i++)
    if (!strcmp(s, pattern_names[i])) {
      *p = (net_pattern_e)i;
      return 0;
    }
  return -1;
}

int net_traffic_check(const net_traffic_cfg_t *c, char *err, size_t errlen) {
  if ((unsigned)c->pattern >= NET_TR_COUNT)
    return net_fail(err, errlen, "unknown traffic pattern %d", (int)c->pattern);
  const char *name = pattern_names[c->pattern];
  if (c->kx < 1 || c->ky < 1 || c->kx > NET_TRAFFIC_KMAX || c->ky > NET_TRAFFIC_KMAX)
    return net_fail(err, errlen, "network %ux%u: kx and ky must be in 1..%u", c->kx, c->ky,
                (unsigned)NET_TRAFFIC_KMAX);
  const uint32_t n = c->kx * c->ky;
  if (n < 2) return net_fail(err, errlen, "%s traffic needs at least 2 nodes (network is 1x1)", name);
  switch (c->pattern) {
  case NET_TR_SHUFFLE:
  case NET_TR_BITREV:
  case NET_TR_BITCOMP:
    if (!is_pow2(n))
      return net_fail(err, errlen, "%s needs kx*ky a power of two (network %ux%u has %u nodes)", name,
                  c->kx, c->ky, n);
    break;
  case NET_TR_TRANSPOSE:
    if (c->kx != c->ky)
      return net_fail(err, errlen, "transpose needs a square network (network is %ux%u)", c->kx, c->ky);
    break;
  case NET_TR_HOTSPOT:
    if (c->hot_node >= n)
      return net_fail(err, errlen, "hotspot: hot node %u out of range (network has nodes 0..%u)",
                  c->hot_node, n - 1);
    /* written so that NaN fails too */
    if (!(c->hot_frac >= 0.0 && c->hot_frac <= 1.0))
      return net_fail(err, errlen, "hotspot: hot_frac %g outside [0,1]", c->hot_frac);
    break;
  default:
    break;
  }
  if (err && errlen) err[0] = '\0';
  return 0;
}

/* Distance along one dimension of size k. */
static uint32_t axis_dist(uint32_t k, uint32_t a, uint32_t b, int torus) {
  const uint32_t d = a > b ? a - b : b - a;
  return torus && k - d < d ? k - d : d;
}

uint32_t net_traffic_dist(const net_traffic_cfg_t *c, uint32_t a, uint32_t b) {
  const int t = c->torus != 0;
  return axis_dist(c->kx, a % c->kx, b % c->kx, t) + axis_dist(c->ky, a / c->kx, b / c->kx, t);
}

/* The coordinates at distance a from x along a dimension of size k: 0, 1 or 2 of them. In a torus
 * the two directions meet when 2a == k, and must then be counted once. */
typedef struct {
  uint32_t n, v[2];
} axis_set_t;

static axis_set_t axis_at(uint32_t k, uint32_t x, uint32_t a, int torus) {
  axis_set_t o = {0, {0, 0}};
  if (a == 0) {
    o.v[o.n++] = x;
  } else if (torus) {
    if (a <= k / 2) {
      o.v[o.n++] = (x + k - a) % k;
      if (2 * a != k) o.v[o.n++] = (x + a) % k;
    }
  } else {
    if (a <= x) o.v[o.n++] = x - a;
    if (a < k - x) o.v[o.n++] = x + a;
  }
  return o;
}

uint32_t net_traffic_ring(const net_traffic_cfg_t *c, uint32_t s, uint32_t d) {
  const int t = c->torus != 0;
  const uint32_t x = s % c->kx, y = s / c->kx;
  uint32_t n = 0;
  /* a dimension of k nodes spans at most k - 1 hops, so larger a cannot contribute */
  for (uint32_t a = 0; a <= d && a <= c->kx; a++) {
    if (d - a > c->ky) continue;
    n += axis_at(c->kx, x, a, t).n * axis_at(c->ky, y, d - a, t).n;
  }
  return n;
}

double net_local_pdf(uint32_t d) { return d >= 1 && d <= NET_LOCAL_DMAX ? (7.0 - d) / 20.0 : 0.0; }

/* Integer weights of the local law (p(d) = w(d) / 20), so the restricted draw is exact. */
static uint32_t local_w(uint32_t d) { return 7 - d; }

double net_local_mean(const net_traffic_cfg_t *c, uint32_t s) {
  uint32_t wsum = 0, dsum = 0;
  for (uint32_t d = 1; d <= NET_LOCAL_DMAX; d++)
    if (net_traffic_ring(c, s, d)) {
      wsum += local_w(d);
      dsum += d * local_w(d);
    }
  return wsum ? (double)dsum / wsum : 0.0;
}

static int64_t local_dest(const net_traffic_cfg_t *c, uint32_t s, madpost_rng_t *r) {
  uint32_t ring[NET_LOCAL_DMAX + 1], wsum = 0;
  for (uint32_t d = 1; d <= NET_LOCAL_DMAX; d++) {
    ring[d] = net_traffic_ring(c, s, d);
    if (ring[d]) wsum += local_w(d);
  }
  if (!wsum) return -1;
  uint32_t u = madpost_rng_below(r, wsum), d = 1;
  for (;; d++)
    if (ring[d]) {
      if (u < local_w(d)) break;
      u -= local_w(d);
    }
  /* Index the ring's nodes by (a = x distance, then x choice, then y choice) and pick one. */
  const int t = c->torus != 0;
  const uint32_t x = s % c->kx, y = s / c->kx;
  uint32_t i = madpost_rng_below(r, ring[d]);
  for (uint32_t a = 0; a <= d; a++) {
    const axis_set_t xs = axis_at(c->kx, x, a, t), ys = axis_at(c->ky, y, d - a, t);
    const uint32_t cell = xs.n * ys.n;
    if (i < cell) return (int64_t)ys.v[i % ys.n] * c->kx + xs.v[i / ys.n];
    i -= cell;
  }
  return -1; /* unreachable: i < ring[d] */
}

static int64_t uniform_dest(uint32_t n, uint32_t s, madpost_rng_t *r) {
  const uint32_t v = madpost_rng_below(r, n - 1);
  return v >= s ? v + 1 : v;
}

static uint32_t bit_reverse(uint32_t v, uint32_t b) {
  uint32_t o = 0;
  for (uint32_t i = 0; i < b; i++) o |= ((v >> i) & 1u) << (b - 1 - i);
  return o;
}

int64_t net_traffic_dest(const net_traffic_cfg_t *c, uint32_t s, madpost_rng_t *r) {
  if (c->kx < 1 || c->ky < 1 || c->kx > NET_TRAFFIC_KMAX || c->ky > NET_TRAFFIC_KMAX) return -1;
  const uint32_t n = c->kx * c->ky;
  if (n < 2 || s >= n) return -1;
  const uint32_t b = log2u(n), mask = n - 1;
  int64_t d;
  switch (c->pattern) {
  case NET_TR_UNIFORM:
    return uniform_dest(n, s, r);
  case NET_TR_LOCAL:
    return local_dest(c, s, r);
  case NET_TR_HOTSPOT:
    if (c->hot_node >= n) return -1;
    if (madpost_rng_unit(r) < c->hot_frac && s != c->hot_node) return c->hot_node;
    return uniform_dest(n, s, r);
  case NET_TR_SHUFFLE:
    if (!is_pow2(n)) return -1;
    d = ((s << 1) | (s >> (b - 1))) & mask;
    break;
  case NET_TR_BITREV:
    if (!is_pow2(n)) return -1;
    d = bit_reverse(s, b);
    break;
  case NET_TR_BITCOMP:
    if (!is_pow2(n)) return -1;
    d = ~s & mask;
    break;
  case NET_TR_TRANSPOSE:
    if (c->kx != c->ky) return -1;
    d = (int64_t)(s % c->kx) * c->kx + s / c->kx;
    break;
  default:
    return -1;
  }
  return d == s ? -1 : d;
}

/* ---- Arrivals ------------------------------------------------------------------------------ */

static const char *const arrival_names[NET_ARR_COUNT] = {"exponential", "uniform", "bursty"};

const char *net_arrival_name(net_arrival_e k) {
  return (unsigned)k < NET_ARR_COUNT ? arrival_names[k] : "?";
}

int net_arrival_parse(const char *s, net_arrival_e *k) {
  if (!s) return -1;
  for (unsigned i = 0; i < NET_ARR_COUNT; i++)
    if (!strcmp(s, arrival_names[i])) {
      *k = (net_arrival_e)i;
      return 0;
    }
  if (!strcmp(s, "exp")) { /* the short name the definitions use */
    *k = NET_ARR_EXP;
    return 0;
  }
  return -1;
}

int net_arrival_check(const net_arrival_cfg_t *c, char *err, size_t errlen) {
  if ((unsigned)c->kind >= NET_ARR_COUNT)
    return net_fail(err, errlen, "unknown arrival process %d", (int)c->kind);
  /* the negated forms reject NaN as well */
  if (!(c->rate >= 0.0 && c->rate <= NET_ARR_RATE_MAX))
    return net_fail(err, errlen, "arrival rate %g outside [0,%g] messages per node per cycle", c->rate,
                NET_ARR_RATE_MAX);
  if (c->kind == NET_ARR_BURSTY && !(c->burst >= 1.0 && c->burst <= NET_ARR_BURST_MAX))
    return net_fail(err, errlen, "bursty: mean burst %g outside [1,%g] messages", c->burst,
                NET_ARR_BURST_MAX);
  if (err && errlen) err[0] = '\0';
  return 0;
}

/* Time to the next arrival (exp, uniform) or burst (bursty); +inf when nothing ever comes. */
static double gap(const net_arrival_cfg_t *c, madpost_rng_t *r) {
  if (!(c->rate > 0.0)) return INFINITY;
  const double u = madpost_rng_unit(r); /* [0, 1), so log1p(-u) is finite */
  switch (c->kind) {
  case NET_ARR_UNIFORM:
    return u * 2.0 / c->rate;
  case NET_ARR_BURSTY:
    return -log1p(-u) * c->burst / c->rate;
  default:
    return -log1p(-u) / c->rate;
  }
}

/* Messages in one burst: geometric on 1, 2, ... with mean burst (inversion). */
static uint32_t burst_size(const net_arrival_cfg_t *c, madpost_rng_t *r) {
  if (!(c->burst > 1.0)) return 1;
  const double u = madpost_rng_unit(r);
  const double k = floor(log1p(-u) / log1p(-1.0 / c->burst));
  return k >= (double)(UINT32_MAX - 1) ? UINT32_MAX : 1u + (uint32_t)k;
}

void net_arrival_start(const net_arrival_cfg_t *c, net_arrival_t *a, double t0, madpost_rng_t *r) {
  a->t_next = t0 + gap(c, r);
}

uint32_t net_arrival_count(const net_arrival_cfg_t *c, net_arrival_t *a, uint64_t t,
                           madpost_rng_t *r) {
  const double end = (double)t + 1.0;
  uint32_t n = 0;
  while (a->t_next < end) {
    const uint32_t k = c->kind == NET_ARR_BURSTY ? burst_size(c, r) : 1u;
    n = k > UINT32_MAX - n ? UINT32_MAX : n + k;
    a->t_next += gap(c, r);
  }
  return n;
}
