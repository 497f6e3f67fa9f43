/* cmocka tests for bad input and lost output (docs/hardening.md): the one number parser
 * (net_num.h), the checked configuration reader (net_ini.h, through mp1_sim_cfg_load) and the
 * checked output helpers (net_out.h, madpost_vcd_close), and the simulator's refusal of options
 * that would do nothing (mp1_sim_cfg_check). Each case was a fault of issue 16. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <madpost/mp1_sim.h>
#include <madpost/net_ini.h>
#include <madpost/net_num.h>
#include <madpost/net_out.h>
#include <madpost/madpost_vcd.h>

#include "check.h"

static void test_whole(void **state) {
  (void)state;
  static const struct {
    const char *s;
    uint64_t want;
  } ok[] = {{"0", 0}, {"42", 42}, {"007", 7}, {"18446744073709551615", UINT64_MAX}};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    uint64_t x = 1;
    CHECKF(!net_num_whole(ok[i].s, 0, UINT64_MAX, &x) && x == ok[i].want, "'%s' -> %llu", ok[i].s,
           (unsigned long long)x);
  }
  /* the C library takes each of these (spaces, signs, hex, wrap-around): the parser must not */
  static const char *const bad[] = {"",   " 1",  "1 ",  "+1",  "-1",   " -1", "0x10", "1e3", "1.0",
                                    "4x", "1,2", "\t1", "18446744073709551616",
                                    "99999999999999999999999999"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    uint64_t x = 123;
    CHECKF(net_num_whole(bad[i], 0, UINT64_MAX, &x) == -1 && x == 123, "'%s' accepted", bad[i]);
  }
  uint64_t x = 0;
  CHECKF(net_num_whole("9", 10, 20, &x) == -1, "below the range");
  CHECKF(net_num_whole("21", 10, 20, &x) == -1, "above the range");
  CHECKF(!net_num_whole("20", 10, 20, &x) && x == 20, "the top of the range");
  uint32_t y = 0;
  CHECKF(net_num_whole32("4294967296", 0, UINT32_MAX, &y) == -1, "2^32 into 32 bits");
  CHECKF(!net_num_whole32("4294967295", 0, UINT32_MAX, &y) && y == UINT32_MAX, "2^32 - 1");
}

static void test_real(void **state) {
  (void)state;
  static const struct {
    const char *s;
    double want;
  } ok[] = {{"30", 30}, {"12.5", 12.5}, {".5", 0.5}, {"5.", 5}, {"1e2", 100}, {"2.5E-1", 0.25},
            {"-0", 0},  {"1000", 1000}};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    double x = -1;
    CHECKF(!net_num_real(ok[i].s, -1, 1000, &x) && x == ok[i].want, "'%s' -> %g", ok[i].s, x);
  }
  double z = 1;
  CHECKF(!net_num_real("-0", 0, 1, &z) && !signbit(z), "-0 -> %g", z);
  static const char *const bad[] = {"",     "nan",  "NAN",  "inf",   "-inf", "infinity", "0x10",
                                    " 5",   "5 ",   "+5",   "1e",    "e5",   ".",        "-",
                                    "5..",  "--5",  "1e999", "5%",   "1,5",  "0x1p3",    "1000.5"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    double x = 7;
    CHECKF(net_num_real(bad[i], -1, 1000, &x) == -1 && x == 7, "'%s' accepted", bad[i]);
  }
}

static void test_pair(void **state) {
  (void)state;
  uint32_t a = 0, b = 0;
  CHECKF(!net_num_pair("16x8", 'x', 1, 32, &a, &b) && a == 16 && b == 8, "16x8 -> %ux%u", a, b);
  CHECKF(!net_num_pair("3,0", ',', 0, 31, &a, &b) && a == 3 && b == 0, "3,0 -> %u,%u", a, b);
  static const char *const bad[] = {"4x 4", " 4x4", "+4x+4", "4294967298x4294967298", "4x", "x4",
                                    "4",    "4x4x4", "33x4", "0x4",  "4X4", "", "4x-4"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    a = b = 99;
    CHECKF(net_num_pair(bad[i], 'x', 1, 32, &a, &b) == -1 && a == 99 && b == 99, "'%s' accepted",
           bad[i]);
  }
}

/* A file in a fresh directory with the given bytes: its path in path (256). */
static void write_file(char *path, const char *dir, const char *name, const char *text, size_t n) {
  snprintf(path, 256, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(text, 1, n, f), n);
  assert_int_equal(fclose(f), 0);
}

/* mp1_sim_cfg_load of text: its return, the message in err (300), the load in *load. */
static int load_text(const char *dir, const char *text, size_t n, char *err, double *load) {
  char path[256];
  write_file(path, dir, "c.ini", text, n);
  mp1_sim_cfg_t c;
  mp1_sim_cfg_default(&c);
  const int r = mp1_sim_cfg_load(&c, path, err, 300);
  *load = c.load;
  return r;
}

static void test_config_lines(void **state) {
  (void)state;
  char dir[] = "/tmp/test_net_input.XXXXXX", err[300], text[600];
  assert_non_null(mkdtemp(dir));
  double load;
  /* a comment longer than inih's line buffer: its tail must not become a key */
  int k = snprintf(text, sizeof text, "[traffic]\n; ");
  memset(text + k, 'x', 200);
  k += 200;
  k += snprintf(text + k, sizeof text - (size_t)k, " load = 90\n");
  CHECKF(load_text(dir, text, (size_t)k, err, &load) == -1 && load == 30 &&
             strstr(err, "c.ini: line 2: longer than 197 characters"),
         "overlong line: load %g, '%s'", load, err);
  /* the longest line that fits is read whole, also with a DOS end of line */
  k = snprintf(text, sizeof text, "[traffic]\r\nload = 40 ;");
  memset(text + k, 'y', 197 - 11);
  k += 197 - 11;
  k += snprintf(text + k, sizeof text - (size_t)k, "\r\n");
  CHECKF(load_text(dir, text, (size_t)k, err, &load) == 0 && load == 40, "197 characters: '%s'",
         err);
  static const char bom[] = "\xEF\xBB\xBF[traffic]\nload = 45\n";
  CHECKF(load_text(dir, bom, sizeof bom - 1, err, &load) == 0 && load == 45, "UTF-8 BOM: '%s'",
         err);
  static const struct {
    const char *text, *want;
  } bad[] = {
      {"[network]\nmesh = 4x4\nspeed = 1\nfoo = 2\n", "c.ini: line 3: unknown parameter 'speed'"},
      {"[traffic]\nload = 5\n  6\n", "c.ini: line 3: an indented line"},
      {"[traffic]\nload 5\n", "c.ini: line 2: not of the form key = value"},
      {"[traffic\nload = 5\n", "c.ini: line 1: not of the form [section]"},
      {"[traffic] load = 5\n", "c.ini: line 1: text after ]"},
      {"[traffic]\nload = 5\nload = 6\n", "c.ini: line 3: 'load' is given twice"},
      {"[run]\nload = 5\n", "c.ini: line 2: 'load' belongs in section [traffic], not [run]"},
      {"[bogus]\nload = 5\n", "c.ini: line 2: unknown section [bogus]"},
      {"[traffic]\nload = 0x10\n", "c.ini: line 2: load: '0x10' is not a number in 0..1000"},
      {"\n\n[run]\nseed = -1\n", "c.ini: line 4: seed: '-1' is not a whole number"},
      {"[run]\nwarmup = 1099511627776\n", "c.ini: line 2: warmup: '1099511627776' is not a whole "
                                          "number in 0..1000000000"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    err[0] = 0;
    CHECKF(load_text(dir, bad[i].text, strlen(bad[i].text), err, &load) == -1 &&
               strstr(err, bad[i].want),
           "case %zu: '%s', want '%s'", i, err, bad[i].want);
  }
  static const char nul[] = "[run]\nseeds = 1\0\nwarmup = 5\n";
  CHECKF(load_text(dir, nul, sizeof nul - 1, err, &load) == -1 &&
             strstr(err, "c.ini: line 2: a NUL byte"),
         "NUL byte: '%s'", err);
  char path[256];
  snprintf(path, sizeof path, "%s/c.ini", dir);
  unlink(path);
  rmdir(dir);
}

static void test_config_files(void **state) {
  (void)state;
  char dir[] = "/tmp/test_net_input.XXXXXX", err[300], fifo[256];
  assert_non_null(mkdtemp(dir));
  mp1_sim_cfg_t c;
  mp1_sim_cfg_default(&c);
  CHECKF(mp1_sim_cfg_load(&c, dir, err, sizeof err) == -1 &&
             strstr(err, ": not a regular file (a directory)"),
         "a directory: '%s'", err);
  /* a FIFO nobody writes would block the open and the reads for ever */
  snprintf(fifo, sizeof fifo, "%s/fifo", dir);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  CHECKF(mp1_sim_cfg_load(&c, fifo, err, sizeof err) == -1 &&
             strstr(err, "fifo: not a regular file (a FIFO)"),
         "a FIFO: '%s'", err);
  CHECKF(mp1_sim_cfg_load(&c, "/dev/zero", err, sizeof err) == -1 &&
             strstr(err, "/dev/zero: not a regular file (a device)"),
         "/dev/zero: '%s'", err);
  CHECKF(mp1_sim_cfg_load(&c, "/nonexistent/c.ini", err, sizeof err) == -1 &&
             strstr(err, "/nonexistent/c.ini: cannot open the configuration file: No such file"),
         "missing: '%s'", err);
  /* a big file is not a configuration file: refused before it is read */
  char big[256];
  snprintf(big, sizeof big, "%s/big.ini", dir);
  FILE *f = fopen(big, "w");
  assert_non_null(f);
  assert_int_equal(fseek(f, (long)NET_INI_MAX_BYTES, SEEK_SET), 0);
  assert_int_equal(fputc('\n', f), '\n');
  assert_int_equal(fclose(f), 0);
  CHECKF(mp1_sim_cfg_load(&c, big, err, sizeof err) == -1 &&
             strstr(err, "big.ini: 1048577 bytes: larger than a configuration file"),
         "a big file: '%s'", err);
  unlink(big);
  unlink(fifo);
  rmdir(dir);
}

static void test_output_checked(void **state) {
  (void)state;
  char err[200] = "";
  FILE *f = fopen("/dev/full", "w");
  assert_non_null(f);
  fprintf(f, "lost\n");
  CHECKF(net_out_close(f, "/dev/full", err, sizeof err) == -1 &&
             strstr(err, "cannot write /dev/full: No space left on device"),
         "/dev/full: '%s'", err);
  f = fopen("/dev/null", "w");
  assert_non_null(f);
  fprintf(f, "kept\n");
  CHECKF(net_out_flush(f, "/dev/null", err, sizeof err) == 0, "/dev/null flush: '%s'", err);
  CHECKF(net_out_close(f, "/dev/null", err, sizeof err) == 0, "/dev/null close: '%s'", err);
  madpost_vcd_t v;
  assert_int_equal(madpost_vcd_open(&v, "/dev/full", "1ns"), 0);
  madpost_vcd_scope(&v, "top");
  CHECKF(madpost_vcd_close(&v) == -1, "a VCD to /dev/full closed without an error");
}

static void test_output_same(void **state) {
  (void)state;
  char dir[] = "/tmp/test_net_input.XXXXXX", a[256], b[256], other[256];
  assert_non_null(mkdtemp(dir));
  snprintf(a, sizeof a, "%s/t.csv", dir);
  snprintf(b, sizeof b, "%s/./t.csv", dir);
  snprintf(other, sizeof other, "%s/u.csv", dir);
  CHECKF(net_out_same(a, b), "two spellings of a new file");
  CHECKF(!net_out_same(a, other), "two new files");
  write_file(a, dir, "t.csv", "x\n", 2);
  CHECKF(net_out_same(a, b), "two spellings of an existing file");
  CHECKF(!net_out_same(a, other), "an existing and a new file");
  CHECKF(!net_out_same("/dev/null", "/dev/null"), "a device may take two outputs");
  unlink(a);
  rmdir(dir);
}

/* An option another setting makes idle is refused, naming what it needs, on the command line and
   in a file alike (issue 16 item 7); the same option where it acts is taken. */
static void test_idle_options(void **state) {
  (void)state;
  static const struct {
    const char *key, *val, *with_key, *with_val, *why;
  } idle[] = {
      {"hot-node", "5", "traffic", "hotspot", "hot-node and hot-frac: only with traffic hotspot"},
      {"hot-frac", "0.5", "traffic", "hotspot", "only with traffic hotspot (traffic is uniform)"},
      {"bcast-size", "4", NULL, NULL, "bcast-src and bcast-size: only with traffic broadcast"},
      {"torus-inject", "fixed", "topology", "torus", "torus-inject: only with topology torus"},
      {"burst", "8", "arrival", "bursty", "burst: only with arrival bursty (arrival is exponential)"},
  };
  char err[300];
  for (size_t i = 0; i < sizeof idle / sizeof idle[0]; i++) {
    mp1_sim_cfg_t c;
    mp1_sim_cfg_default(&c);
    c.kx = c.ky = 4;
    assert_int_equal(mp1_sim_cfg_set(&c, idle[i].key, idle[i].val, err, sizeof err), 0);
    CHECKF(mp1_sim_cfg_check(&c, err, sizeof err) == -1 && strstr(err, idle[i].why),
           "%s %s: '%s'", idle[i].key, idle[i].val, err);
    if (!idle[i].with_key) continue;
    assert_int_equal(mp1_sim_cfg_set(&c, idle[i].with_key, idle[i].with_val, err, sizeof err), 0);
    CHECKF(mp1_sim_cfg_check(&c, err, sizeof err) == 0, "%s %s with %s %s: '%s'", idle[i].key,
           idle[i].val, idle[i].with_key, idle[i].with_val, err);
  }
  /* mode sync sends once at cycle 0: load, warm-up, window and arrivals do nothing */
  static const char *const sync_idle[][2] = {
      {"load", "50"}, {"warmup", "100"}, {"measure", "100"}, {"arrival", "uniform"}};
  for (size_t i = 0; i < sizeof sync_idle / sizeof sync_idle[0]; i++) {
    mp1_sim_cfg_t c;
    mp1_sim_cfg_default(&c);
    c.kx = c.ky = 4;
    assert_int_equal(mp1_sim_cfg_set(&c, "mode", "sync", err, sizeof err), 0);
    assert_int_equal(mp1_sim_cfg_set(&c, "traffic", "transpose", err, sizeof err), 0);
    assert_int_equal(mp1_sim_cfg_set(&c, "drain", "1000", err, sizeof err), 0);
    CHECKF(mp1_sim_cfg_check(&c, err, sizeof err) == 0, "sync transpose: '%s'", err);
    assert_int_equal(mp1_sim_cfg_set(&c, sync_idle[i][0], sync_idle[i][1], err, sizeof err), 0);
    CHECKF(mp1_sim_cfg_check(&c, err, sizeof err) == -1 &&
               strstr(err, "mode sync: load, warmup, measure, arrival and burst do nothing"),
           "sync with %s: '%s'", sync_idle[i][0], err);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_whole),          cmocka_unit_test(test_real),
      cmocka_unit_test(test_pair),           cmocka_unit_test(test_config_lines),
      cmocka_unit_test(test_config_files),   cmocka_unit_test(test_output_checked),
      cmocka_unit_test(test_output_same),    cmocka_unit_test(test_idle_options),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
