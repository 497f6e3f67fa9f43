/* Link figures: throughput measured on the DS-Link C model against seed 000 eq. 4.1/4.2, and the
 * table in docs/dslink.md checked against a fresh measurement, so the doc cannot go stale. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <madpost/dslink.h>
#include <madpost/dslink_bw.h>

enum { MAX_M = 64, MESSAGES = 200 };

static dslink_bw_row_t rows[MAX_M + 1];

static int measure_all(void **state) {
  (void)state;
  dslink_cfg_t cfg;
  dslink_cfg_default(&cfg);
  char err[200];
  for (uint32_t m = 0; m <= MAX_M; m++)
    if (dslink_bw_row(&cfg, m, MESSAGES, &rows[m], err, sizeof err)) {
      fprintf(stderr, "measure m=%u: %s\n", m, err);
      return -1;
    }
  return 0;
}

/* The equations count the bits of a link that never idles; the capacity runs must show no NULL in
 * the window, and then agree within 1.5% from 4 bytes up (the bound). */
static void test_capacity_matches_equations(void **state) {
  (void)state;
  for (uint32_t m = 4; m <= MAX_M; m++) {
    assert_int_equal(rows[m].cap_nulls, 0);
    if (fabs(rows[m].diff41) > 1.5 || fabs(rows[m].diff42) > 1.5)
      fail_msg("m=%u: one way %+.2f%%, both ways %+.2f%%", m, rows[m].diff41, rows[m].diff42);
  }
}

/* Hand-checked points of the equations (NOTES §1: 76.4 and 69.9 Mbit/s at 32 bytes). */
static void test_equation_values(void **state) {
  (void)state;
  assert_true(fabs(dslink_bw_formula(32, DSLINK_BW_ONE_WAY) - 25600.0 / 335.0) < 1e-9);
  assert_true(fabs(dslink_bw_formula(32, DSLINK_BW_TWO_WAY) - 25600.0 / 366.0) < 1e-9);
  assert_true(fabs(rows[32].one_way_cap - 76.42) < 0.01);
  assert_true(fabs(rows[32].two_way_cap - 69.95) < 0.01);
  assert_true(dslink_bw_formula(0, DSLINK_BW_ONE_WAY) == 0.0);
}

/* One virtual link each way (the published setting): one way matches whenever every packet is long
 * enough to cover the acknowledgement round trip; both ways it is never above the equation, and
 * in lock-step it loses one NULL (8 bit periods) per packet exchange. */
static void test_single_virtual_link(void **state) {
  (void)state;
  for (uint32_t m = 4; m <= MAX_M; m++) {
    const uint32_t last = m % 32 ? m % 32 : 32;
    if (last >= 3 && fabs(100.0 * (rows[m].one_way_1vl - rows[m].eq41) / rows[m].eq41) > 1.5)
      fail_msg("one way, 1 VL, m=%u: %.2f against %.2f", m, rows[m].one_way_1vl, rows[m].eq41);
    assert_true(rows[m].two_way_1vl <= rows[m].eq42 * 1.0001);
    assert_true(rows[m].lockstep_1vl <= rows[m].eq42 * 1.0001);
  }
  /* m = 32 in lock-step: 366 bit periods per exchange plus one NULL. */
  assert_true(fabs(rows[32].lockstep_1vl - 25600.0 / 374.0) < 0.01);
}

static const char *doc_path(char *buf, size_t n) {
  const char *root = getenv("MADPOST_ROOT");
  snprintf(buf, n, "%s/docs/dslink.md", root ? root : ".");
  return buf;
}

/* docs/dslink.md holds the table between figures markers; every number must be the measured one. */
static void test_doc_table_is_current(void **state) {
  (void)state;
  char path[512];
  FILE *f = fopen(doc_path(path, sizeof path), "r");
  if (!f)
    fail_msg("cannot open %s (set MADPOST_ROOT)", path);
  char line[1024];
  int in = 0, seen = 0;
  while (fgets(line, sizeof line, f)) {
    if (strstr(line, "<!-- figures:begin -->")) {
      in = 1;
      continue;
    }
    if (strstr(line, "<!-- figures:end -->"))
      break;
    unsigned m;
    if (!in || sscanf(line, "| %u |", &m) != 1)
      continue;
    if (m > MAX_M)
      fail_msg("doc row for %u bytes is beyond the measured range", m);
    const dslink_bw_row_t *r = &rows[m];
    char want[1024];
    snprintf(want, sizeof want,
             "| %u | %.2f | %.2f | %.2f | %+.2f%% | %.2f | %.2f | %.2f | %.2f | %+.2f%% | %llu |",
             m, r->one_way_1vl, r->one_way_cap, r->eq41, r->diff41, r->two_way_1vl,
             r->lockstep_1vl, r->two_way_cap, r->eq42, r->diff42,
             (unsigned long long)r->cap_nulls);
    line[strcspn(line, "\n")] = 0;
    if (strcmp(line, want) != 0)
      fail_msg("docs/dslink.md is stale (run make figures-doc):\n doc:  %s\n want: %s", line,
               want);
    seen++;
  }
  fclose(f);
  assert_int_equal(seen, MAX_M + 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_equation_values),
      cmocka_unit_test(test_capacity_matches_equations),
      cmocka_unit_test(test_single_virtual_link),
      cmocka_unit_test(test_doc_table_is_current),
  };
  return cmocka_run_group_tests_name("dslink_figures", tests, measure_all, NULL);
}
