/* cmocka tests for the traffic generator (include/madpost/net_traffic.h): permutations against tables and
 * independent formulas, random patterns and arrival processes against their laws, fixed seeds. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <madpost/net_traffic.h>
#include <madpost/madpost_rng.h>

/* cmocka's assert_* print only the expression; these checks say which case failed and why. */
#include "check.h"

enum { MAXN = 256 };

static net_traffic_cfg_t cfg(net_pattern_e p, uint32_t kx, uint32_t ky, uint32_t torus) {
  return (net_traffic_cfg_t){.pattern = p, .kx = kx, .ky = ky, .torus = torus};
}

static int rng_same(const madpost_rng_t *a, const madpost_rng_t *b) {
  return !memcmp(a, b, sizeof *a);
}

/* Independent of the module: distance by brute force over all wrap offsets. */
static uint32_t ref_axis(uint32_t k, uint32_t a, uint32_t b, int torus) {
  uint32_t d = a > b ? a - b : b - a;
  if (torus)
    for (uint32_t off = 0; off < k; off++) {
      if ((a + off) % k == b && off < d) d = off;
      if ((b + off) % k == a && off < d) d = off;
    }
  return d;
}
static uint32_t ref_dist(const net_traffic_cfg_t *c, uint32_t a, uint32_t b) {
  return ref_axis(c->kx, a % c->kx, b % c->kx, c->torus != 0) +
         ref_axis(c->ky, a / c->kx, b / c->kx, c->torus != 0);
}

/* Pearson's statistic; the bounds used below sit many standard deviations above df (seeds fixed,
 * so a pass is reproducible, but a biased generator lands far outside). */
static double chi2(const uint32_t *obs, const double *p, uint32_t n, uint64_t draws, uint32_t *df) {
  double x = 0.0;
  *df = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (p[i] <= 0.0) continue;
    const double e = p[i] * (double)draws;
    x += (obs[i] - e) * (obs[i] - e) / e;
    ++*df;
  }
  *df = *df ? *df - 1 : 0;
  return x;
}
static double chi2_bound(uint32_t df) { return df + 6.0 * sqrt(2.0 * df) + 10.0; }

/* ---- Names and checks ---------------------------------------------------------------------- */

static void test_names_roundtrip(void **state) {
  (void)state;
  const char *pn[] = {"uniform", "local", "shuffle", "bitrev", "transpose", "bitcomp", "hotspot"};
  for (int i = 0; i < 7; i++) {
    assert_string_equal(net_pattern_name((net_pattern_e)i), pn[i]);
    net_pattern_e p = NET_TR_HOTSPOT;
    assert_int_equal(net_pattern_parse(pn[i], &p), 0);
    assert_int_equal(p, i);
  }
  net_pattern_e p = NET_TR_LOCAL;
  assert_int_equal(net_pattern_parse("Uniform", &p), -1);
  assert_int_equal(net_pattern_parse("", &p), -1);
  assert_int_equal(net_pattern_parse(NULL, &p), -1);
  assert_int_equal(p, NET_TR_LOCAL);
  assert_string_equal(net_pattern_name((net_pattern_e)99), "?");

  const char *an[] = {"exponential", "uniform", "bursty"};
  for (int i = 0; i < 3; i++) {
    assert_string_equal(net_arrival_name((net_arrival_e)i), an[i]);
    net_arrival_e k = NET_ARR_BURSTY;
    assert_int_equal(net_arrival_parse(an[i], &k), 0);
    assert_int_equal(k, i);
  }
  net_arrival_e k = NET_ARR_UNIFORM;
  assert_int_equal(net_arrival_parse("exp", &k), 0);
  assert_int_equal(k, NET_ARR_EXP);
  k = NET_ARR_UNIFORM;
  assert_int_equal(net_arrival_parse("poisson", &k), -1);
  assert_int_equal(k, NET_ARR_UNIFORM);
  assert_string_equal(net_arrival_name((net_arrival_e)7), "?");
}

static void expect_bad(net_traffic_cfg_t c, const char *needle) {
  char err[160] = "untouched";
  assert_int_equal(net_traffic_check(&c, err, sizeof err), -1);
  CHECKF(strstr(err, needle), "pattern %s %ux%u: message \"%s\" lacks \"%s\"",
         net_pattern_name(c.pattern), c.kx, c.ky, err, needle);
  assert_int_equal(net_traffic_check(&c, NULL, 0), -1);
}

static void test_traffic_check(void **state) {
  (void)state;
  char err[160] = "x";
  const net_traffic_cfg_t good[] = {
      cfg(NET_TR_UNIFORM, 3, 5, 0),  cfg(NET_TR_LOCAL, 1, 2, 1),   cfg(NET_TR_SHUFFLE, 8, 4, 0),
      cfg(NET_TR_BITREV, 16, 16, 0), cfg(NET_TR_BITCOMP, 2, 1, 0), cfg(NET_TR_TRANSPOSE, 3, 3, 0),
      cfg(NET_TR_LOCAL, 1024, 1024, 1), cfg(NET_TR_UNIFORM, 8192, 8192, 0)};
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    assert_int_equal(net_traffic_check(&good[i], err, sizeof err), 0);
    assert_string_equal(err, "");
  }
  net_traffic_cfg_t h = cfg(NET_TR_HOTSPOT, 4, 4, 0);
  h.hot_node = 15;
  h.hot_frac = 1.0;
  assert_int_equal(net_traffic_check(&h, err, sizeof err), 0);

  expect_bad(cfg(NET_TR_BITREV, 3, 4, 0), "bitrev needs kx*ky a power of two");
  expect_bad(cfg(NET_TR_SHUFFLE, 6, 6, 0), "power of two");
  expect_bad(cfg(NET_TR_BITCOMP, 1, 3, 0), "power of two");
  expect_bad(cfg(NET_TR_TRANSPOSE, 4, 8, 0), "transpose needs a square network");
  expect_bad(cfg(NET_TR_UNIFORM, 1, 1, 0), "at least 2 nodes");
  expect_bad(cfg(NET_TR_LOCAL, 0, 4, 0), "kx and ky");
  expect_bad(cfg(NET_TR_LOCAL, 4, 8193, 0), "kx and ky");
  expect_bad(cfg((net_pattern_e)42, 4, 4, 0), "unknown");
  h.hot_node = 16;
  expect_bad(h, "hot node 16 out of range");
  h.hot_node = 3;
  h.hot_frac = -0.01;
  expect_bad(h, "hot_frac");
  h.hot_frac = 1.5;
  expect_bad(h, "hot_frac");
  h.hot_frac = NAN;
  expect_bad(h, "hot_frac");
  /* hot_* only matter for hotspot */
  net_traffic_cfg_t u = h;
  u.pattern = NET_TR_UNIFORM;
  assert_int_equal(net_traffic_check(&u, NULL, 0), 0);

  /* a short buffer truncates rather than overflowing */
  char tiny[8];
  net_traffic_cfg_t t = cfg(NET_TR_TRANSPOSE, 4, 8, 0);
  assert_int_equal(net_traffic_check(&t, tiny, sizeof tiny), -1);
  assert_int_equal(strlen(tiny), sizeof tiny - 1);
}

/* ---- Permutations -------------------------------------------------------------------------- */

/* Runs pattern p on every node, checking that r is never touched and -1 means a fixed point. */
static void perm_table(net_pattern_e p, uint32_t kx, uint32_t ky, int64_t *out) {
  const net_traffic_cfg_t c = cfg(p, kx, ky, 0);
  assert_int_equal(net_traffic_check(&c, NULL, 0), 0);
  madpost_rng_t r, r0;
  madpost_rng_seed(&r, 1, 2);
  r0 = r;
  for (uint32_t s = 0; s < kx * ky; s++) {
    out[s] = net_traffic_dest(&c, s, &r);
    CHECKF(out[s] == -1 || (out[s] >= 0 && out[s] < kx * ky && out[s] != s),
           "%s %ux%u: s=%u -> %lld", net_pattern_name(p), kx, ky, s, (long long)out[s]);
  }
  CHECKF(rng_same(&r, &r0), "%s drew from the rng", net_pattern_name(p));
}

static void expect_table(net_pattern_e p, uint32_t kx, uint32_t ky, const int64_t *want) {
  int64_t got[MAXN];
  perm_table(p, kx, ky, got);
  for (uint32_t s = 0; s < kx * ky; s++)
    CHECKF(got[s] == want[s], "%s %ux%u: s=%u -> %lld, want %lld", net_pattern_name(p), kx, ky, s,
           (long long)got[s], (long long)want[s]);
}

/* 4x4 by hand (b = 4; -1 marks the fixed points). */
static void test_perm_4x4_tables(void **state) {
  (void)state;
  const int64_t shuffle[16] = {-1, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, -1};
  const int64_t bitrev[16] = {-1, 8, 4, 12, 2, 10, -1, 14, 1, -1, 5, 13, 3, 11, 7, -1};
  const int64_t bitcomp[16] = {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
  /* (x, y) -> (y, x): node 1 = (1,0) -> (0,1) = 4, ... */
  const int64_t transpose[16] = {-1, 4, 8, 12, 1, -1, 9, 13, 2, 6, -1, 14, 3, 7, 11, -1};
  expect_table(NET_TR_SHUFFLE, 4, 4, shuffle);
  expect_table(NET_TR_BITREV, 4, 4, bitrev);
  expect_table(NET_TR_BITCOMP, 4, 4, bitcomp);
  expect_table(NET_TR_TRANSPOSE, 4, 4, transpose);
  /* 3x3 transpose (no power of two needed) and the smallest networks */
  const int64_t tr3[9] = {-1, 3, 6, 1, -1, 7, 2, 5, -1};
  expect_table(NET_TR_TRANSPOSE, 3, 3, tr3);
  const int64_t none2[2] = {-1, -1}, swap2[2] = {1, 0};
  expect_table(NET_TR_SHUFFLE, 2, 1, none2);
  expect_table(NET_TR_BITREV, 1, 2, none2);
  expect_table(NET_TR_BITCOMP, 2, 1, swap2);
  /* 8x4 (b = 5, non-square): shuffle is 2s mod 31, bitcomp 31 - s */
  int64_t got[MAXN];
  perm_table(NET_TR_SHUFFLE, 8, 4, got);
  for (uint32_t s = 1; s < 31; s++) assert_int_equal(got[s], (2 * s) % 31);
  assert_int_equal(got[0], -1);
  assert_int_equal(got[31], -1);
  perm_table(NET_TR_BITCOMP, 8, 4, got);
  for (uint32_t s = 0; s < 32; s++) assert_int_equal(got[s], 31 - s);
  perm_table(NET_TR_BITREV, 8, 4, got);
  assert_int_equal(got[1], 16);  /* 00001 -> 10000 */
  assert_int_equal(got[6], 12);  /* 00110 -> 01100 */
  assert_int_equal(got[21], -1); /* 10101 */
}

/* The non-fixed points must map onto themselves one to one; returns the number of fixed points. */
static uint32_t check_bijection(const int64_t *d, uint32_t n, const char *what) {
  uint8_t hit[MAXN] = {0};
  uint32_t fixed = 0;
  for (uint32_t s = 0; s < n; s++) {
    if (d[s] < 0) {
      fixed++;
      continue;
    }
    CHECKF(!hit[d[s]], "%s: node %lld hit twice", what, (long long)d[s]);
    hit[d[s]] = 1;
  }
  for (uint32_t s = 0; s < n; s++)
    CHECKF(hit[s] == (d[s] >= 0), "%s: node %u is %s a source but %s a destination", what, s,
           d[s] >= 0 ? "" : "not", hit[s] ? "" : "not");
  return fixed;
}

static void test_perm_16x16_formulas(void **state) {
  (void)state;
  enum { K = 16, N = K * K };
  static const uint8_t rev4[16] = {0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15};
  int64_t d[MAXN];

  perm_table(NET_TR_SHUFFLE, K, K, d);
  for (uint32_t s = 0; s < N; s++) {
    /* rotate-left on 8 bits is doubling mod 255, except 255 itself */
    const int64_t want = s == 0 || s == N - 1 ? -1 : (int64_t)((2 * s) % (N - 1));
    CHECKF(d[s] == want, "shuffle 16x16: %u -> %lld, want %lld", s, (long long)d[s],
           (long long)want);
  }
  assert_int_equal(d[0x80], 0x01);
  assert_int_equal(d[0x41], 0x82);
  assert_int_equal(check_bijection(d, N, "shuffle"), 2);

  perm_table(NET_TR_BITREV, K, K, d);
  for (uint32_t s = 0; s < N; s++) {
    const uint32_t r = (uint32_t)rev4[s & 15] << 4 | rev4[s >> 4];
    CHECKF(d[s] == (r == s ? -1 : (int64_t)r), "bitrev 16x16: %u -> %lld, want %u", s,
           (long long)d[s], r);
  }
  assert_int_equal(d[1], 128);
  assert_int_equal(d[0x12], 0x48);
  assert_int_equal(check_bijection(d, N, "bitrev"), 16); /* the 8-bit palindromes */

  perm_table(NET_TR_BITCOMP, K, K, d);
  for (uint32_t s = 0; s < N; s++) assert_int_equal(d[s], N - 1 - s);
  assert_int_equal(check_bijection(d, N, "bitcomp"), 0);

  perm_table(NET_TR_TRANSPOSE, K, K, d);
  for (uint32_t y = 0; y < K; y++)
    for (uint32_t x = 0; x < K; x++)
      CHECKF(d[y * K + x] == (x == y ? -1 : (int64_t)(x * K + y)), "transpose (%u,%u) -> %lld", x,
             y, (long long)d[y * K + x]);
  assert_int_equal(d[5 * K + 3], 3 * K + 5); /* (3,5) -> (5,3) */
  assert_int_equal(check_bijection(d, N, "transpose"), K);

  /* out-of-range sources and unusable configs give -1, not a bogus node */
  const net_traffic_cfg_t c = cfg(NET_TR_BITREV, 16, 16, 0), bad = cfg(NET_TR_BITREV, 3, 4, 0);
  assert_int_equal(net_traffic_dest(&c, N, NULL), -1);
  assert_int_equal(net_traffic_dest(&bad, 1, NULL), -1);
}

/* ---- Uniform and hotspot ------------------------------------------------------------------- */

static void test_uniform(void **state) {
  (void)state;
  const net_traffic_cfg_t c = cfg(NET_TR_UNIFORM, 5, 7, 0); /* 35 nodes: no power of two */
  const uint32_t n = 35, srcs[] = {0, 17, 34};
  madpost_rng_t r;
  for (size_t k = 0; k < 3; k++) {
    const uint32_t s = srcs[k], draws = 350000;
    uint32_t cnt[MAXN] = {0};
    double p[MAXN];
    madpost_rng_seed(&r, 2024, s);
    for (uint32_t i = 0; i < draws; i++) {
      const int64_t d = net_traffic_dest(&c, s, &r);
      CHECKF(d >= 0 && d < n && d != s, "uniform from %u gave %lld", s, (long long)d);
      cnt[d]++;
    }
    for (uint32_t v = 0; v < n; v++) {
      p[v] = v == s ? 0.0 : 1.0 / (n - 1);
      if (v != s) /* expected 10294, sd ~100 */
        CHECKF(fabs(cnt[v] - p[v] * draws) < 0.05 * p[v] * draws, "uniform %u->%u: %u draws", s,
               v, cnt[v]);
    }
    uint32_t df;
    const double x = chi2(cnt, p, n, draws, &df);
    assert_int_equal(df, n - 2);
    CHECKF(x < chi2_bound(df), "uniform from %u: chi2 %.1f (df %u)", s, x, df);
  }
}

static void test_hotspot(void **state) {
  (void)state;
  net_traffic_cfg_t c = cfg(NET_TR_HOTSPOT, 8, 8, 0);
  c.hot_node = 27;
  c.hot_frac = 0.2;
  const uint32_t n = 64, draws = 200000;
  madpost_rng_t r;
  madpost_rng_seed(&r, 7, 0);
  uint32_t cnt[MAXN] = {0};
  for (uint32_t i = 0; i < draws; i++) {
    const int64_t d = net_traffic_dest(&c, 0, &r);
    assert_true(d > 0 && d < n);
    cnt[d]++;
  }
  const double want = 0.2 + 0.8 / 63; /* the uniform part can pick the hot node too */
  CHECKF(fabs((double)cnt[27] / draws - want) < 0.005, "hot fraction %.4f, want %.4f",
         (double)cnt[27] / draws, want);
  for (uint32_t v = 1; v < n; v++)
    if (v != 27)
      CHECKF(fabs(cnt[v] - 0.8 / 63 * draws) < 0.15 * 0.8 / 63 * draws, "cold node %u: %u", v,
             cnt[v]);

  /* the hot node itself sends uniform traffic */
  memset(cnt, 0, sizeof cnt);
  for (uint32_t i = 0; i < draws; i++) {
    const int64_t d = net_traffic_dest(&c, 27, &r);
    assert_true(d >= 0 && d < n && d != 27);
    cnt[d]++;
  }
  for (uint32_t v = 0; v < n; v++)
    if (v != 27) CHECKF(fabs(cnt[v] - draws / 63.0) < 0.15 * draws / 63.0, "from hot: %u", cnt[v]);

  /* the extremes */
  c.hot_frac = 1.0;
  for (uint32_t s = 0; s < n; s++) {
    const int64_t d = net_traffic_dest(&c, s, &r);
    if (s != 27) assert_int_equal(d, 27);
    else assert_true(d >= 0 && d != 27);
  }
  c.hot_frac = 0.0;
  uint32_t hot = 0;
  for (uint32_t i = 0; i < draws; i++) hot += net_traffic_dest(&c, 5, &r) == 27;
  CHECKF(fabs((double)hot / draws - 1.0 / 63) < 0.002, "hot_frac 0: %u of %u", hot, draws);
}

/* ---- Local --------------------------------------------------------------------------------- */

static void test_local_pdf_and_dist(void **state) {
  (void)state;
  double sum = 0.0, mean = 0.0;
  for (uint32_t d = 1; d <= 5; d++) {
    sum += net_local_pdf(d);
    mean += d * net_local_pdf(d);
  }
  assert_float_equal(sum, 1.0, 1e-12);
  assert_float_equal(mean, 2.5, 1e-12);
  assert_float_equal(net_local_pdf(1), 0.30, 1e-12);
  assert_float_equal(net_local_pdf(5), 0.10, 1e-12);
  assert_float_equal(net_local_pdf(0), 0.0, 0.0);
  assert_float_equal(net_local_pdf(6), 0.0, 0.0);

  net_traffic_cfg_t m = cfg(NET_TR_LOCAL, 16, 16, 0), t = cfg(NET_TR_LOCAL, 16, 16, 1);
  assert_int_equal(net_traffic_dist(&m, 0, 255), 30);
  assert_int_equal(net_traffic_dist(&t, 0, 255), 2);
  assert_int_equal(net_traffic_dist(&t, 0, 8 * 16 + 8), 16);
  assert_int_equal(net_traffic_dist(&m, 3 + 16 * 5, 5 + 16 * 3), 4);

  /* distance and ring sizes against brute force, meshes and tori of odd and even sides */
  const uint32_t dims[][2] = {{16, 16}, {7, 4}, {6, 5}, {1, 9}, {2, 2}, {3, 3}, {10, 1}};
  for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++)
    for (uint32_t tor = 0; tor < 2; tor++) {
      const net_traffic_cfg_t c = cfg(NET_TR_LOCAL, dims[i][0], dims[i][1], tor);
      const uint32_t n = c.kx * c.ky;
      for (uint32_t s = 0; s < n; s++) {
        uint32_t ring[64] = {0};
        for (uint32_t v = 0; v < n; v++) {
          const uint32_t d = ref_dist(&c, s, v);
          CHECKF(net_traffic_dist(&c, s, v) == d, "%ux%u%s dist(%u,%u)", c.kx, c.ky,
                 tor ? " torus" : "", s, v);
          ring[d]++;
        }
        for (uint32_t d = 0; d < 40; d++)
          CHECKF(net_traffic_ring(&c, s, d) == ring[d], "%ux%u%s ring(%u,%u) = %u, want %u", c.kx,
                 c.ky, tor ? " torus" : "", s, d, net_traffic_ring(&c, s, d), ring[d]);
      }
    }
}

/* Exact law of the local pattern from s, by brute force over all nodes. */
static double local_law(const net_traffic_cfg_t *c, uint32_t s, double *p) {
  const uint32_t n = c->kx * c->ky;
  uint32_t ring[6] = {0};
  for (uint32_t v = 0; v < n; v++) {
    const uint32_t d = ref_dist(c, s, v);
    if (d >= 1 && d <= 5) ring[d]++;
  }
  double w = 0.0, mean = 0.0;
  for (uint32_t d = 1; d <= 5; d++)
    if (ring[d]) w += net_local_pdf(d);
  for (uint32_t v = 0; v < n; v++) {
    const uint32_t d = ref_dist(c, s, v);
    p[v] = d >= 1 && d <= 5 ? net_local_pdf(d) / w / ring[d] : 0.0;
    mean += p[v] * d;
  }
  return mean;
}

/* Small networks lack some distances: the law must be restricted and renormalised. */
static void test_local_small_networks(void **state) {
  (void)state;
  /* 2x2 by hand: distances 1 (2 nodes) and 2 (1 node), weights 0.30 and 0.25 */
  const net_traffic_cfg_t c22 = cfg(NET_TR_LOCAL, 2, 2, 0);
  double p[MAXN];
  local_law(&c22, 0, p);
  assert_float_equal(p[1], 3.0 / 11, 1e-12);
  assert_float_equal(p[2], 3.0 / 11, 1e-12);
  assert_float_equal(p[3], 5.0 / 11, 1e-12);
  assert_float_equal(net_local_mean(&c22, 0), 16.0 / 11, 1e-12);

  const uint32_t dims[][3] = {{2, 2, 0}, {2, 2, 1}, {1, 2, 0}, {3, 3, 1}, {5, 1, 0}, {3, 4, 0},
                              {4, 3, 1}, {5, 5, 0}, {7, 1, 1}, {6, 6, 0}, {9, 2, 1}};
  madpost_rng_t r;
  for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
    const net_traffic_cfg_t c = cfg(NET_TR_LOCAL, dims[i][0], dims[i][1], dims[i][2]);
    const uint32_t n = c.kx * c.ky, draws = 12000;
    assert_int_equal(net_traffic_check(&c, NULL, 0), 0);
    for (uint32_t s = 0; s < n; s++) {
      const double mean = local_law(&c, s, p);
      CHECKF(fabs(net_local_mean(&c, s) - mean) < 1e-12, "%ux%u t%u mean from %u: %.6f vs %.6f",
             c.kx, c.ky, c.torus, s, net_local_mean(&c, s), mean);
      uint32_t cnt[MAXN] = {0};
      madpost_rng_seed(&r, 99 + i, s);
      for (uint32_t k = 0; k < draws; k++) {
        const int64_t d = net_traffic_dest(&c, s, &r);
        CHECKF(d >= 0 && d < n && p[d] > 0.0, "%ux%u t%u: %u -> %lld outside the law", c.kx, c.ky,
               c.torus, s, (long long)d);
        cnt[d]++;
      }
      uint32_t df;
      const double x = chi2(cnt, p, n, draws, &df);
      CHECKF(x < chi2_bound(df), "%ux%u t%u from %u: chi2 %.1f (df %u)", c.kx, c.ky, c.torus, s, x,
             df);
    }
  }
}

static void test_local_centre_16x16(void **state) {
  (void)state;
  const net_traffic_cfg_t c = cfg(NET_TR_LOCAL, 16, 16, 0);
  const uint32_t s = 8 * 16 + 8, n = 256, draws = 200000;
  madpost_rng_t r;
  madpost_rng_seed(&r, 4, s);
  uint32_t cnt[MAXN] = {0}, by_d[6] = {0};
  double dsum = 0.0;
  for (uint32_t i = 0; i < draws; i++) {
    const int64_t d = net_traffic_dest(&c, s, &r);
    assert_true(d >= 0 && d < n);
    const uint32_t h = net_traffic_dist(&c, s, (uint32_t)d);
    CHECKF(h >= 1 && h <= 5, "centre -> %lld at distance %u", (long long)d, h);
    cnt[d]++;
    by_d[h]++;
    dsum += h;
  }
  const double mean = dsum / draws;
  CHECKF(fabs(mean - 2.5) < 0.025, "mean distance from the centre %.4f", mean);
  for (uint32_t h = 1; h <= 5; h++)
    CHECKF(fabs((double)by_d[h] / draws - net_local_pdf(h)) < 0.005, "p(%u) = %.4f, want %.2f", h,
           (double)by_d[h] / draws, net_local_pdf(h));
  /* equidistant nodes equally likely: rings of 4, 8, 12, 16, 20 nodes, 60 in all */
  double p[MAXN];
  local_law(&c, s, p);
  uint32_t support = 0;
  for (uint32_t v = 0; v < n; v++) {
    if (p[v] == 0.0) {
      assert_int_equal(cnt[v], 0);
      continue;
    }
    support++;
    CHECKF(fabs(cnt[v] - p[v] * draws) < 0.15 * p[v] * draws, "node %u (d %u): %u, expected %.0f",
           v, net_traffic_dist(&c, s, v), cnt[v], p[v] * draws);
  }
  assert_int_equal(support, 60);
  uint32_t df;
  const double x = chi2(cnt, p, n, draws, &df);
  CHECKF(x < chi2_bound(df), "centre: chi2 %.1f (df %u)", x, df);
}

/* Averaged over all sources: every node of a 16x16 network has all distances 1..5, so the exact
 * mean is 2.5 everywhere; the measured one must agree. */
static void test_local_all_sources_16x16(void **state) {
  (void)state;
  for (uint32_t tor = 0; tor < 2; tor++) {
    const net_traffic_cfg_t c = cfg(NET_TR_LOCAL, 16, 16, tor);
    const uint32_t n = 256, per = 2000;
    double dsum = 0.0, exact = 0.0;
    madpost_rng_t r;
    for (uint32_t s = 0; s < n; s++) {
      exact += net_local_mean(&c, s);
      madpost_rng_seed(&r, 11 + tor, s);
      for (uint32_t i = 0; i < per; i++) {
        const int64_t d = net_traffic_dest(&c, s, &r);
        assert_true(d >= 0 && d != s);
        dsum += net_traffic_dist(&c, s, (uint32_t)d);
      }
    }
    const double mean = dsum / ((double)n * per);
    exact /= n;
    printf("local 16x16 %s: mean hop distance over all sources %.4f (exact %.4f, %u draws)\n",
           tor ? "torus" : "mesh ", mean, exact, n * per);
    CHECKF(mean >= 2.3 && mean <= 2.6, "16x16 %s mean %.4f", tor ? "torus" : "mesh", mean);
    CHECKF(fabs(mean - 2.5) < 0.01, "16x16 %s mean %.4f", tor ? "torus" : "mesh", mean);
    assert_float_equal(exact, 2.5, 1e-12);
  }
  /* a 5x5 mesh lacks distance 5 from the centre (mean (6+10+12+12)/18) and 1x2 has only 1 */
  const net_traffic_cfg_t m5 = cfg(NET_TR_LOCAL, 5, 5, 0), m12 = cfg(NET_TR_LOCAL, 1, 2, 0);
  assert_float_equal(net_local_mean(&m5, 12), 40.0 / 18, 1e-12);
  assert_float_equal(net_local_mean(&m5, 0), 2.5, 1e-12);
  assert_float_equal(net_local_mean(&m12, 1), 1.0, 1e-12);
}

/* ---- Determinism --------------------------------------------------------------------------- */

static void test_determinism(void **state) {
  (void)state;
  net_traffic_cfg_t cs[3] = {cfg(NET_TR_UNIFORM, 9, 7, 0), cfg(NET_TR_LOCAL, 9, 7, 1),
                             cfg(NET_TR_HOTSPOT, 9, 7, 0)};
  cs[2].hot_node = 40;
  cs[2].hot_frac = 0.3;
  for (int k = 0; k < 3; k++) {
    madpost_rng_t a, b, other;
    madpost_rng_seed(&a, 123, 5);
    madpost_rng_seed(&b, 123, 5);
    madpost_rng_seed(&other, 123, 6);
    uint32_t differ = 0;
    for (uint32_t i = 0; i < 1000; i++) {
      const uint32_t s = i % 63;
      const int64_t da = net_traffic_dest(&cs[k], s, &a), db = net_traffic_dest(&cs[k], s, &b);
      CHECKF(da == db, "%s draw %u: %lld vs %lld", net_pattern_name(cs[k].pattern), i,
             (long long)da, (long long)db);
      differ += da != net_traffic_dest(&cs[k], s, &other);
    }
    CHECKF(differ > 500, "%s: another stream agreed %u of 1000 times",
           net_pattern_name(cs[k].pattern), 1000 - differ);
  }
  const net_arrival_cfg_t ac[3] = {
      {NET_ARR_EXP, 0.4, 1.0}, {NET_ARR_UNIFORM, 0.4, 1.0}, {NET_ARR_BURSTY, 0.4, 3.0}};
  for (int k = 0; k < 3; k++) {
    madpost_rng_t a, b;
    madpost_rng_seed(&a, 77, 3);
    madpost_rng_seed(&b, 77, 3);
    net_arrival_t sa, sb;
    net_arrival_start(&ac[k], &sa, 0.0, &a);
    net_arrival_start(&ac[k], &sb, 0.0, &b);
    for (uint64_t t = 0; t < 10000; t++)
      assert_int_equal(net_arrival_count(&ac[k], &sa, t, &a),
                       net_arrival_count(&ac[k], &sb, t, &b));
    assert_true(sa.t_next == sb.t_next);
  }
}

/* ---- Arrivals ------------------------------------------------------------------------------ */

static void test_arrival_check(void **state) {
  (void)state;
  char err[160];
  const net_arrival_cfg_t ok[] = {{NET_ARR_EXP, 0.0, 0.0},
                                  {NET_ARR_UNIFORM, 1.5, -3.0}, /* burst ignored */
                                  {NET_ARR_BURSTY, 0.2, 1.0},
                                  {NET_ARR_BURSTY, NET_ARR_RATE_MAX, NET_ARR_BURST_MAX}};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
    assert_int_equal(net_arrival_check(&ok[i], err, sizeof err), 0);
  const struct {
    net_arrival_cfg_t c;
    const char *needle;
  } bad[] = {{{NET_ARR_EXP, -0.1, 1.0}, "rate"},      {{NET_ARR_EXP, NAN, 1.0}, "rate"},
             {{NET_ARR_UNIFORM, INFINITY, 1.0}, "rate"}, {{NET_ARR_BURSTY, 0.2, 0.5}, "burst"},
             {{NET_ARR_BURSTY, 0.2, NAN}, "burst"},   {{(net_arrival_e)9, 0.2, 1.0}, "unknown"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_int_equal(net_arrival_check(&bad[i].c, err, sizeof err), -1);
    CHECKF(strstr(err, bad[i].needle), "case %zu: \"%s\" lacks \"%s\"", i, err, bad[i].needle);
    assert_int_equal(net_arrival_check(&bad[i].c, NULL, 0), -1);
  }
}

typedef struct {
  uint64_t total, busy, max_run, burst_one;
  double p0;
} arr_stats_t;

static arr_stats_t run_arrivals(const net_arrival_cfg_t *c, uint64_t cycles, uint64_t seed) {
  assert_int_equal(net_arrival_check(c, NULL, 0), 0);
  madpost_rng_t r;
  madpost_rng_seed(&r, seed, 0);
  net_arrival_t a;
  net_arrival_start(c, &a, 0.0, &r);
  arr_stats_t st = {0};
  uint64_t run = 0;
  for (uint64_t t = 0; t < cycles; t++) {
    const uint32_t k = net_arrival_count(c, &a, t, &r);
    CHECKF(a.t_next >= (double)t + 1.0, "cycle %llu left t_next %.3f behind",
           (unsigned long long)t, a.t_next);
    st.total += k;
    st.busy += k > 0;
    st.burst_one += k == 1;
    run = k ? 0 : run + 1;
    if (run > st.max_run) st.max_run = run;
  }
  st.p0 = 1.0 - (double)st.busy / cycles;
  return st;
}

static void test_arrival_rates(void **state) {
  (void)state;
  const uint64_t cycles = 1000000;
  const double rates[] = {0.1, 0.3, 0.9};
  for (int i = 0; i < 3; i++) {
    const double rate = rates[i];
    const net_arrival_cfg_t cs[3] = {
        {NET_ARR_EXP, rate, 1.0}, {NET_ARR_UNIFORM, rate, 1.0}, {NET_ARR_BURSTY, rate, 2.0}};
    for (int k = 0; k < 3; k++) {
      const arr_stats_t st = run_arrivals(&cs[k], cycles, 1000 + 10 * i + k);
      const double got = (double)st.total / cycles;
      CHECKF(fabs(got - rate) < 0.02 * rate, "%s rate %.2f: measured %.5f",
             net_arrival_name(cs[k].kind), rate, got);
      if (cs[k].kind == NET_ARR_EXP) /* Poisson counts: P(empty cycle) = e^-rate */
        CHECKF(fabs(st.p0 - exp(-rate)) < 0.003, "exp rate %.2f: P(0) %.4f, want %.4f", rate,
               st.p0, exp(-rate));
      if (cs[k].kind == NET_ARR_UNIFORM) {
        /* gaps below 2/rate leave at most ceil(2/rate) - 1 empty cycles between arrivals */
        const uint64_t lim = (uint64_t)ceil(2.0 / rate) - 1;
        CHECKF(st.max_run <= lim, "uniform rate %.2f: %llu empty cycles in a row (max %llu)",
               rate, (unsigned long long)st.max_run, (unsigned long long)lim);
      }
    }
  }
  /* the exponential process does have long silences; the uniform one cannot */
  const net_arrival_cfg_t e = {NET_ARR_EXP, 0.5, 1.0}, u = {NET_ARR_UNIFORM, 0.5, 1.0};
  const arr_stats_t se = run_arrivals(&e, cycles, 5), su = run_arrivals(&u, cycles, 5);
  CHECKF(su.max_run <= 3, "uniform 0.5: %llu empty cycles in a row",
         (unsigned long long)su.max_run);
  CHECKF(se.max_run > 10, "exp 0.5: longest silence only %llu", (unsigned long long)se.max_run);
}

static void test_arrival_bursts(void **state) {
  (void)state;
  const uint64_t cycles = 1000000;
  /* sparse bursts, so a busy cycle is almost always exactly one burst */
  const double bursts[] = {4.0, 2.5, 10.0};
  for (int i = 0; i < 3; i++) {
    const double b = bursts[i];
    const net_arrival_cfg_t c = {NET_ARR_BURSTY, 0.005 * b, b};
    const arr_stats_t st = run_arrivals(&c, cycles, 300 + i);
    const double per_busy = (double)st.total / st.busy, one = (double)st.burst_one / st.busy;
    CHECKF(st.busy > 4500 && st.busy < 5500, "burst %.1f: %llu bursts, ~5000 expected", b,
           (unsigned long long)st.busy);
    CHECKF(fabs(per_busy - b) < 0.05 * b, "burst %.1f: mean batch %.3f", b, per_busy);
    CHECKF(fabs(one - 1.0 / b) < 0.03, "burst %.1f: P(batch of 1) %.3f, want %.3f", b, one,
           1.0 / b);
  }
  /* burst 1: every burst is a single message, so bursty is the exponential process */
  const net_arrival_cfg_t b1 = {NET_ARR_BURSTY, 0.01, 1.0};
  const arr_stats_t s1 = run_arrivals(&b1, cycles, 9);
  CHECKF(fabs((double)s1.total / cycles - 0.01) < 0.0002 * 5, "burst 1 rate %.5f",
         (double)s1.total / cycles);
  CHECKF(s1.burst_one > 0.99 * s1.busy, "burst 1: %llu of %llu busy cycles had one message",
         (unsigned long long)s1.burst_one, (unsigned long long)s1.busy);
}

static void test_arrival_zero_and_catch_up(void **state) {
  (void)state;
  const net_arrival_cfg_t kinds[3] = {
      {NET_ARR_EXP, 0.0, 1.0}, {NET_ARR_UNIFORM, 0.0, 1.0}, {NET_ARR_BURSTY, 0.0, 5.0}};
  for (int k = 0; k < 3; k++) {
    madpost_rng_t r, r0;
    madpost_rng_seed(&r, 3, 3);
    r0 = r;
    net_arrival_t a;
    net_arrival_start(&kinds[k], &a, 0.0, &r);
    assert_true(isinf(a.t_next) && a.t_next > 0);
    uint64_t total = 0;
    for (uint64_t t = 0; t < 100000; t++) total += net_arrival_count(&kinds[k], &a, t, &r);
    assert_int_equal(total, 0);
    CHECKF(rng_same(&r, &r0), "%s at rate 0 drew from the rng", net_arrival_name(kinds[k].kind));
  }

  /* one late call collects exactly what per-cycle calls would have, from the same draws */
  const net_arrival_cfg_t c = {NET_ARR_BURSTY, 0.7, 3.0};
  madpost_rng_t ra, rb;
  madpost_rng_seed(&ra, 8, 1);
  madpost_rng_seed(&rb, 8, 1);
  net_arrival_t a, b;
  net_arrival_start(&c, &a, 0.0, &ra);
  net_arrival_start(&c, &b, 0.0, &rb);
  uint64_t sum = 0;
  for (uint64_t t = 0; t < 500; t++) sum += net_arrival_count(&c, &a, t, &ra);
  assert_int_equal(net_arrival_count(&c, &b, 499, &rb), sum);
  assert_true(a.t_next == b.t_next && rng_same(&ra, &rb));

  /* Cycle t is [t, t + 1): an arrival at exactly 5.0 is cycle 5's. xoshiro256** outputs 0 when
   * s[1] == 0, so this state makes the first gap exactly 0 (and the next one long). */
  for (int k = 0; k < 2; k++) {
    const net_arrival_cfg_t z = {k ? NET_ARR_UNIFORM : NET_ARR_EXP, 0.01, 1.0};
    madpost_rng_t zr = {{UINT64_C(0x0123456789ABCDEF), 0, UINT64_C(0xFEDCBA9876543210),
                 UINT64_C(0x0F1E2D3C4B5A6978)}};
    net_arrival_start(&z, &a, 5.0, &zr);
    assert_true(a.t_next == 5.0);
    assert_int_equal(net_arrival_count(&z, &a, 4, &zr), 0);
    assert_int_equal(net_arrival_count(&z, &a, 5, &zr), 1);
  }

  /* a process started at t0 has nothing before cycle t0 */
  const net_arrival_cfg_t e = {NET_ARR_EXP, 5.0, 1.0};
  for (uint64_t seed = 0; seed < 100; seed++) {
    madpost_rng_seed(&ra, seed, 0);
    net_arrival_start(&e, &a, 1000.0, &ra);
    assert_true(a.t_next >= 1000.0);
    assert_int_equal(net_arrival_count(&e, &a, 998, &ra), 0);
    assert_int_equal(net_arrival_count(&e, &a, 999, &ra), 0);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_names_roundtrip),
      cmocka_unit_test(test_traffic_check),
      cmocka_unit_test(test_perm_4x4_tables),
      cmocka_unit_test(test_perm_16x16_formulas),
      cmocka_unit_test(test_uniform),
      cmocka_unit_test(test_hotspot),
      cmocka_unit_test(test_local_pdf_and_dist),
      cmocka_unit_test(test_local_small_networks),
      cmocka_unit_test(test_local_centre_16x16),
      cmocka_unit_test(test_local_all_sources_16x16),
      cmocka_unit_test(test_determinism),
      cmocka_unit_test(test_arrival_check),
      cmocka_unit_test(test_arrival_rates),
      cmocka_unit_test(test_arrival_bursts),
      cmocka_unit_test(test_arrival_zero_and_catch_up),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
