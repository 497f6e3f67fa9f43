/* Statistics over independent runs: the mean and its 95% confidence half-width. */
#include <math.h>

#include <madpost/net_stat.h>

net_stat_t net_stat(const double *v, uint32_t n) {
  /* Student t, 97.5% quantile, for n - 1 = 1..30 degrees of freedom; 1.96 beyond. */
  static const double t975[] = {0,      12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                                2.306,  2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
                                2.120,  2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
                                2.064,  2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  net_stat_t s = {0, 0};
  if (!n) return s;
  for (uint32_t i = 0; i < n; i++) s.mean += v[i];
  s.mean /= n;
  if (n < 2) return s;
  double ss = 0;
  for (uint32_t i = 0; i < n; i++) ss += (v[i] - s.mean) * (v[i] - s.mean);
  const double sd = sqrt(ss / (n - 1));
  s.ci = (n - 1 <= 30 ? t975[n - 1] : 1.96) * sd / sqrt((double)n);
  return s;
}
