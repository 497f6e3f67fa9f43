#define _POSIX_C_SOURCE 200809L /* mkdtemp */
/* cmocka tests of the DPI-C layer (include/madpost/dpi.h, docs/dpi.md) without a simulator: the
 * packed vectors against the C models driven directly (bit positions worked out here from the
 * port lists, the first field in the top bits), params and their errors as messages, compare's
 * messages and their count, get and clear; the shadow's merged wave (its ring and its stream). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <madpost/c104.h>
#include <madpost/dpi.h>
#include <madpost/dslink.h>
#include <madpost/mp1_chip.h>

#include "check.h"

enum { WORDS = 1024 }; /* more than any block's vector (the C104's registers: 24000 bits) */

/* Bits [lsb, lsb + w) of v, w <= 32. */
static uint32_t bits(const svBitVecVal *v, uint32_t lsb, uint32_t w) {
  uint64_t x = v[lsb / 32];
  if (lsb % 32 + w > 32)
    x |= (uint64_t)v[lsb / 32 + 1] << 32;
  return (uint32_t)(x >> (lsb % 32)) & (w >= 32 ? 0xFFFFFFFFu : (1u << w) - 1u);
}
static void set_bits(svBitVecVal *v, uint32_t lsb, uint32_t w, uint32_t x) {
  for (uint32_t i = 0; i < w; i++) {
    const uint32_t b = lsb + i;
    v[b / 32] = (v[b / 32] & ~(1u << (b % 32))) | (((x >> i) & 1u) << (b % 32));
  }
}

/* The width of a list: X(name, count, width) summed. */
#define SUMW(n, c, w) +(c) * (w)

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (uint32_t)(rng >> 11);
}

/* ---- DS-Link: two DPI models back to back beside two direct ones, the same random traffic ------ */
static void test_dslink_vectors(void **state) {
  (void)state;
  enum { IN_BITS = 0 DSLINK_INPUTS(SUMW), OUT_BITS = 0 DSLINK_OUTPUTS(SUMW),
         REG_BITS = 0 DSLINK_REGS(SUMW) };
  void *h[2] = {madpost_dpi_dslink_create("bit_period=2 rx_depth=16"),
                madpost_dpi_dslink_create("BitPeriod=2,RxDepth=16")};
  dslink_cfg_t cfg;
  dslink_cfg_default(&cfg);
  cfg.bit_period = 2, cfg.rx_depth = 16;
  dslink_state_t st[2];
  dslink_next_t nx[2];
  dslink_in_t in[2];
  dslink_out_t out[2] = {{0}};
  svBitVecVal vin[WORDS], vout[WORDS], vreg[WORDS];
  uint32_t runs = 0;
  for (int s = 0; s < 2; s++) {
    CHECKF(h[s] && madpost_dpi_dslink_error_count(h[s]) == 0, "create %d: %s", s,
           madpost_dpi_dslink_error_get(h[s], 0));
    dslink_reset(&cfg, &st[s]);
  }
  for (uint32_t cyc = 0; cyc < 20000; cyc++) {
    for (int s = 0; s < 2; s++) {
      memset(&in[s], 0, sizeof in[s]);
      in[s].d = out[!s].d, in[s].s = out[!s].s, in[s].link_en = 1;
      in[s].tx_valid = rnd() & 1, in[s].tx_data = rnd() & 0xff, in[s].tx_kind = rnd() % 3;
      in[s].rx_ready = rnd() & 1;
      /* the vector, field by field from the top */
      uint32_t top = IN_BITS;
      memset(vin, 0, sizeof vin);
#define PUT_IN(n, c, w) top -= (w), set_bits(vin, top, w, in[s].n);
      DSLINK_INPUTS(PUT_IN)
      CHECKF(madpost_dpi_dslink_eval(h[s], vin, vout) == 0, "eval");
      CHECKF(dslink_eval(&cfg, &st[s], &in[s], &out[s], &nx[s], NULL) == 0, "direct eval");
      top = OUT_BITS;
#define CHK_OUT(n, c, w)                                                                          \
  top -= (w);                                                                                      \
  CHECKF(bits(vout, top, w) == out[s].n, "cycle %u side %d: " #n "_o dpi 0x%x direct 0x%x", cyc, \
         s, bits(vout, top, w), out[s].n);
      DSLINK_OUTPUTS(CHK_OUT)
      madpost_dpi_dslink_registers(h[s], vreg);
      top = REG_BITS;
#define CHK_REG(n, c, w)                                                                          \
  top -= (w);                                                                                      \
  CHECKF(bits(vreg, top, w) == st[s].r.n, "cycle %u side %d: " #n "_q dpi 0x%x direct 0x%x", cyc, \
         s, bits(vreg, top, w), st[s].r.n);
      DSLINK_REGS(CHK_REG)
      CHECKF(madpost_dpi_dslink_compare(h[s], cyc, vout, vreg, 1) == 0, "self compare");
    }
    for (int s = 0; s < 2; s++) {
      madpost_dpi_dslink_clock(h[s]);
      dslink_clock(&st[s], &nx[s]);
    }
    runs += out[0].link_state == DSLINK_ST_RUN && out[1].link_state == DSLINK_ST_RUN;
  }
  CHECKF(runs > 10000, "the link ran in only %u cycles", runs);
  for (int s = 0; s < 2; s++) {
    CHECKF(madpost_dpi_dslink_error_count(h[s]) == 0, "messages: %s",
           madpost_dpi_dslink_error_get(h[s], 0));
    madpost_dpi_dslink_destroy(h[s]);
  }
}

/* ---- compare's messages, their cap, clock without eval ------------------------------------------- */
static void test_messages(void **state) {
  (void)state;
  enum { RX_DATA_LSB = 0 + 2 + 3 }; /* rx_data is followed by rx_kind (2) and link_state (3) */
  void *h = madpost_dpi_dslink_create(NULL);
  svBitVecVal vin[WORDS] = {0}, vout[WORDS], vreg[WORDS];
  assert_non_null(h);
  assert_int_equal(madpost_dpi_dslink_eval(h, vin, vout), 0);
  madpost_dpi_dslink_registers(h, vreg);
  assert_int_equal(madpost_dpi_dslink_compare(h, 7, vout, vreg, 1), 0);
  set_bits(vout, RX_DATA_LSB, 8, bits(vout, RX_DATA_LSB, 8) ^ 0x21);
  vreg[0] ^= 1; /* the last register, rxf_cnt, bit 0 */
  assert_int_equal(madpost_dpi_dslink_compare(h, 7, vout, vreg, 0), 1);
  CHECKF(!strcmp(madpost_dpi_dslink_error_get(h, 0),
                 "DPI MISMATCH blk=dslink cycle=7 sig=rx_data_o dut=0x21 model=0x0"),
         "message: %s", madpost_dpi_dslink_error_get(h, 0));
  assert_int_equal(madpost_dpi_dslink_compare(h, 8, vout, vreg, 1), 2);
  CHECKF(strstr(madpost_dpi_dslink_error_get(h, 2), "cycle=8 sig=rxf_cnt_q dut=0x1 model=0x0"),
         "message: %s", madpost_dpi_dslink_error_get(h, 2));
  assert_int_equal(madpost_dpi_dslink_error_count(h), 3);
  assert_string_equal(madpost_dpi_dslink_error_get(h, 3), "");
  madpost_dpi_dslink_error_clear(h);
  assert_int_equal(madpost_dpi_dslink_error_count(h), 0);
  for (int i = 0; i < 1000; i++)
    madpost_dpi_dslink_compare(h, i, vout, vreg, 0);
  assert_int_equal(madpost_dpi_dslink_error_count(h), 1000);
  CHECKF(strstr(madpost_dpi_dslink_error_get(h, 254), "cycle=254 sig=rx_data_o"), "254: %s",
         madpost_dpi_dslink_error_get(h, 254));
  CHECKF(strstr(madpost_dpi_dslink_error_get(h, 999), "745 more messages not kept"), "999: %s",
         madpost_dpi_dslink_error_get(h, 999));
  madpost_dpi_dslink_error_clear(h);
  madpost_dpi_dslink_clock(h);
  madpost_dpi_dslink_clock(h); /* the second has no eval before it */
  assert_int_equal(madpost_dpi_dslink_error_count(h), 1);
  CHECKF(strstr(madpost_dpi_dslink_error_get(h, 0), "clock without an eval"), "%s",
         madpost_dpi_dslink_error_get(h, 0));
  madpost_dpi_dslink_destroy(h);
}

/* ---- the merged wave: the ring's last 128 compares, the mismatch bit's rise, the stream --------- */
/* The text of a file (NULL if unreadable); the caller frees it. */
static char *slurp(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f)
    return NULL;
  char *t = calloc(1, 1 << 22);
  const size_t n = t ? fread(t, 1, (1 << 22) - 1, f) : 0;
  fclose(f);
  if (t)
    t[n] = 0;
  return t;
}

/* 200 cycles of a model compared with itself, but rx_data_o's bit 0 flipped from cycle 150 on. */
static void wave_run(void *h) {
  enum { RX_DATA_LSB = 0 + 2 + 3 };
  svBitVecVal vin[WORDS] = {0}, vout[WORDS], vreg[WORDS];
  for (int c = 0; c < 200; c++) {
    assert_int_equal(madpost_dpi_dslink_eval(h, vin, vout), 0);
    madpost_dpi_dslink_registers(h, vreg);
    if (c >= 150)
      set_bits(vout, RX_DATA_LSB, 1, !bits(vout, RX_DATA_LSB, 1));
    assert_int_equal(madpost_dpi_dslink_compare(h, c, vout, vreg, 1), c >= 150);
    madpost_dpi_dslink_clock(h);
  }
}

static void test_wave(void **state) {
  (void)state;
  char dir[] = "/tmp/test_dpi_wave.XXXXXX", base[64], path[80];
  assert_non_null(mkdtemp(dir));
  snprintf(base, sizeof base, "%s/w", dir);
  void *h = madpost_dpi_dslink_create(NULL);
  wave_run(h);
  /* the ring: cycles 72..199, the rise of rx_data_o's mismatch bit at 1500 ns, its marker */
  assert_int_equal(madpost_dpi_dslink_wave_write(h, base), 128);
  snprintf(path, sizeof path, "%s.merged.vcd", base);
  char *vcd = slurp(path);
  assert_non_null(vcd);
  CHECKF(strstr(vcd, "$scope module dslink_tb $end\n$var wire 1 ! clk_i $end\n$scope module rtl $end") &&
             strstr(vcd, "$scope module model $end") && strstr(vcd, "$scope module mismatch $end"),
         "scopes:\n%.600s", vcd);
  CHECKF(strstr(vcd, "\n#720\n") && !strstr(vcd, "\n#710\n") && strstr(vcd, "\n#2000\n0!"),
         "not cycles 72..199");
  /* mismatch.rx_data_o: the ids are in declaration order, so find it by name */
  const char *decl = strstr(vcd, "$scope module mismatch $end");
  const char *rx = decl ? strstr(decl, " rx_data_o $end") : NULL;
  assert_non_null(rx);
  char id[8] = "";
  const char *sp = rx - 1;
  while (sp > decl && sp[-1] != ' ')
    sp--;
  snprintf(id, sizeof id, "%.*s", (int)(rx - sp), sp);
  char rise[32], before[32];
  snprintf(rise, sizeof rise, "#1500\n"), snprintf(before, sizeof before, "\n1%s\n", id);
  const char *at = strstr(vcd, rise), *first = strstr(vcd, before);
  CHECKF(at && first && first > at && first < strstr(at, "#1505"), "mismatch.rx_data_o (%s) does not rise at 1500", id);
  free(vcd);
  snprintf(path, sizeof path, "%s.merged.gtkw", base);
  char *gtkw = slurp(path);
  assert_non_null(gtkw);
  CHECKF(strstr(gtkw, "*-9.000000 1500 1500") && strstr(gtkw, "@28\ndslink_tb.mismatch.any\n[color] 1\n@28\ndslink_tb.mismatch.rx_data_o\n") &&
             strstr(gtkw, "dslink_tb.rtl.rx_data_o[7:0]\n[color] 2\n@22\ndslink_tb.model.rx_data_o[7:0]\n"),
         "gtkw:\n%.800s", gtkw);
  free(gtkw);
  madpost_dpi_dslink_destroy(h);
  /* the stream: every cycle from 0, closed by destroy with the clock's fall at 2000 */
  h = madpost_dpi_dslink_create(NULL);
  assert_int_equal(madpost_dpi_dslink_wave_open(h, base), 0);
  wave_run(h);
  assert_int_equal(madpost_dpi_dslink_wave_write(h, base), 200);
  madpost_dpi_dslink_destroy(h);
  snprintf(path, sizeof path, "%s.merged.vcd", base);
  vcd = slurp(path);
  assert_non_null(vcd);
  CHECKF(strstr(vcd, "\n#0\n") && strstr(vcd, "\n#1500\n") && strstr(vcd, "\n#2000\n0!"), "stream");
  free(vcd);
  /* a directory that is not there: -1, and a dead model -1 */
  h = madpost_dpi_dslink_create(NULL);
  assert_int_equal(madpost_dpi_dslink_wave_open(h, "/nonexistent/dir/w"), -1);
  madpost_dpi_dslink_destroy(h);
  h = madpost_dpi_dslink_create("bit_period=0");
  assert_int_equal(madpost_dpi_dslink_wave_write(h, base), -1);
  madpost_dpi_dslink_destroy(h);
  snprintf(path, sizeof path, "%s.merged.vcd", base), remove(path);
  snprintf(path, sizeof path, "%s.merged.gtkw", base), remove(path);
  rmdir(dir);
}

/* ---- params: every bad one a message, the model then dead but callable ------------------------- */
static void bad_params(const char *params, const char *want) {
  void *h = madpost_dpi_dslink_create(params);
  svBitVecVal vin[WORDS] = {0}, vout[WORDS];
  assert_non_null(h);
  CHECKF(madpost_dpi_dslink_error_count(h) >= 1 && strstr(madpost_dpi_dslink_error_get(h, 0), want),
         "params '%s': %d messages, first '%s', want '%s'", params, madpost_dpi_dslink_error_count(h),
         madpost_dpi_dslink_error_get(h, 0), want);
  vout[0] = 0xFFFFFFFFu;
  assert_int_equal(madpost_dpi_dslink_eval(h, vin, vout), -1);
  assert_int_equal(vout[0], 0);
  assert_int_equal(madpost_dpi_dslink_compare(h, 0, vout, vout, 1), -1);
  madpost_dpi_dslink_clock(h);
  madpost_dpi_dslink_reset(h);
  madpost_dpi_dslink_destroy(h);
}

static void test_params(void **state) {
  (void)state;
  bad_params("bit_period=3,colour=2", "unknown key 'colour'");
  bad_params("bit_period=x3", "bit_period='x3' is not a number");
  bad_params("bit_period=-1", "is not a number");
  bad_params("bit_period=4294967296", "is not a number");
  bad_params("bit_period", "'bit_period' is not key=value");
  bad_params("bit_period=0", "bit_period");  /* dslink_cfg_check's range */
  void *h = madpost_dpi_mp1_chip_create("awf=2");
  CHECKF(madpost_dpi_mp1_chip_error_count(h) == 1 &&
             strstr(madpost_dpi_mp1_chip_error_get(h, 0), "awf must be 1"),
         "%s", madpost_dpi_mp1_chip_error_get(h, 0));
  madpost_dpi_mp1_chip_destroy(h);
  h = madpost_dpi_c104_create(" tok_ports=0xffff0000 , BitPeriod=2 ");
  CHECKF(madpost_dpi_c104_error_count(h) == 0, "%s", madpost_dpi_c104_error_get(h, 0));
  madpost_dpi_c104_destroy(h);
  madpost_dpi_dslink_destroy(NULL);
  assert_int_equal(madpost_dpi_dslink_error_count(NULL), 0);
}

/* ---- packed arrays and nested planes: the C104's and the chip's register vectors ---------------- */
static void test_c104_chip_regs(void **state) {
  (void)state;
  static svBitVecVal v[WORDS], want[WORDS], vin[WORDS];
  enum { C104_REG_BITS = 0 C104_REGS(SUMW) + 32 * (0 DSLINK_REGS(SUMW)) };
  void *h = madpost_dpi_c104_create("");
  c104_cfg_t cfg;
  static c104_state_t st;
  static c104_next_t nx;
  static c104_in_t in;
  static c104_out_t out;
  c104_cfg_default(&cfg);
  c104_reset(&cfg, &st);
  /* configuration writes at random addresses, the same into the DPI model and the direct one, so
   * that the ports' registers differ from each other */
  enum { C104_IN_BITS = 0 C104_INPUTS(SUMW) };
  for (int cyc = 0; cyc < 400; cyc++) {
    memset(&in, 0, sizeof in);
    in.cfg_we = 1, in.cfg_addr = rnd() & 0xff, in.cfg_wdata = rnd();
    for (uint32_t p = 0; p < C104_PORTS; p++)
      in.tok_tx_ready[p] = 1;
    memset(vin, 0, sizeof vin);
    uint32_t t = C104_IN_BITS;
#define C104_PI(n, c, w)                                                                           \
  t -= (c) * (w);                                                                                  \
  for (uint32_t k = 0; k < (c); k++)                                                               \
    set_bits(vin, t + k * (w), w, C104_AT(in.n, c, k));
    C104_INPUTS(C104_PI)
    assert_int_equal(madpost_dpi_c104_eval(h, vin, v), 0);
    assert_int_equal(c104_eval(&cfg, &st, &in, &out, &nx, NULL), 0);
    madpost_dpi_c104_clock(h);
    c104_clock(&st, &nx);
  }
  /* the registers packed here: count-32 fields element k at [k * width +: width], the links'
   * registers 32 times after the switch's */
  uint32_t top = C104_REG_BITS, ones = 0;
#define C104_PK(n, c, w)                                                                           \
  top -= (c) * (w);                                                                                \
  for (uint32_t k = 0; k < (c); k++)                                                               \
    set_bits(want, top + k * (w), w, C104_AT(st.r.n, c, k));
#define C104_LPK(n, c, w)                                                                          \
  top -= 32 * (w);                                                                                 \
  for (uint32_t k = 0; k < 32; k++)                                                                \
    set_bits(want, top + k * (w), w, st.link[k].r.n);
  C104_REGS(C104_PK)
  C104_LINK_REGS(C104_LPK)
  assert_int_equal(top, 0);
  madpost_dpi_c104_registers(h, v);
  for (uint32_t b = 0; b < C104_REG_BITS; b++) {
    CHECKF(bits(v, b, 1) == bits(want, b, 1), "c104 register bit %u: dpi %u want %u", b,
           bits(v, b, 1), bits(want, b, 1));
    ones += bits(want, b, 1);
  }
  CHECKF(ones > 500, "the registers have only %u bits set: a weak check", ones);
  madpost_dpi_c104_destroy(h);
  /* the chip: 4 planes after its own registers, MP1_PLANE_REG_BITS each */
  enum { CHIP_REG_BITS = 0 MP1_CHIP_REGS(SUMW) + 4 * MP1_PLANE_REG_BITS };
  h = madpost_dpi_mp1_chip_create("awf=1");
  memset(vin, 0, sizeof vin);
  memset(v, 0xA5, sizeof v);
  madpost_dpi_mp1_chip_registers(h, v);
  for (uint32_t b = 0; b < CHIP_REG_BITS; b++)
    CHECKF(bits(v, b, 1) == 0, "chip register bit %u is 1 after reset", b);
  CHECKF(bits(v, CHIP_REG_BITS, 32 - CHIP_REG_BITS % 32) == 0, "bits above the vector not zeroed");
  assert_int_equal(madpost_dpi_mp1_chip_eval(h, vin, v), 0);
  assert_int_equal(madpost_dpi_mp1_chip_compare(h, 0, v, v, 0), 0);
  madpost_dpi_mp1_chip_destroy(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dslink_vectors),
      cmocka_unit_test(test_messages),
      cmocka_unit_test(test_params),
      cmocka_unit_test(test_c104_chip_regs),
      cmocka_unit_test(test_wave),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
