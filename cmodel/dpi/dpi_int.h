/* Private to cmodel/dpi/: the block descriptor the DPI engine (dpi_core.c) drives, built per block
 * from its port list (dpi_dslink.c, dpi_mp1.c), and the macros that make a block's exported
 * functions (include/madpost/dpi.h) from its descriptor. */
#ifndef MADPOST_CMODEL_DPI_INT_H
#define MADPOST_CMODEL_DPI_INT_H

#include <stddef.h>
#include <stdint.h>

#include <madpost/dpi.h>

/* One port-list entry X(name, count, width) placed in a C struct: element k of count is the
 * esize-byte unsigned integer at off + k * stride. sfx is the RTL suffix for messages ("_o",
 * "_q"), prefix the part of the name outside the C field (the chip's "p2_"). */
typedef struct {
  const char *prefix, *name, *sfx;
  uint32_t count, width;
  size_t off, stride, esize;
} mdpi_field_t;

typedef struct {
  const mdpi_field_t *f;
  size_t n;
} mdpi_list_t;

/* A block: sizes of its cfg, state, next, in, out structs and of its register view; the three
 * lists; the contract's functions behind void pointers; params by key. regs returns a pointer to
 * the registers the reg list reads (into the state itself, or filled into view). */
typedef struct {
  const char *name;
  size_t cfg_size, st_size, nx_size, in_size, out_size, view_size;
  mdpi_list_t in, out, reg;
  const char *keys; /* for messages: the params keys it knows */
  void (*cfg_default)(void *cfg);
  int (*cfg_set)(void *cfg, const char *key, uint32_t val); /* -1: unknown key */
  int (*cfg_check)(const void *cfg, char *err, size_t errlen);
  void (*reset)(const void *cfg, void *st);
  int (*eval)(const void *cfg, const void *st, const void *in, void *out, void *nx);
  void (*clock)(void *st, const void *nx);
  const void *(*regs)(const void *st, void *view);
} mdpi_block_t;

/* One mdpi_field_t: entry (nm, c, w) at member of struct type, elements strd bytes apart (0:
 * packed, an array); the element size is the member's size over its count. */
#define MDPI_FIELD_AT(type, pre, member, nm, sfx, c, w, strd)                                      \
  {pre, nm, sfx, c, w, offsetof(type, member), strd, sizeof(((type *)0)->member) / (c)},
#define MDPI_LIST(arr) {arr, sizeof(arr) / sizeof(arr[0])}

/* A key of params: the C field (or the part after its last '.': c104's link.bit_period is also
 * bit_period) or the RTL parameter's name. */
int madpost_dpi_core_key_is(const char *key, const char *field, const char *rtl);

/* The engine (its names carry madpost_dpi_core_: a static library exports them). */
void *madpost_dpi_core_create(const mdpi_block_t *b, const char *params);
void madpost_dpi_core_destroy(void *h);
void madpost_dpi_core_reset(void *h);
int madpost_dpi_core_eval(void *h, const svBitVecVal *in, svBitVecVal *out);
void madpost_dpi_core_clock(void *h);
void madpost_dpi_core_outputs(void *h, svBitVecVal *out);
void madpost_dpi_core_registers(void *h, svBitVecVal *regs);
int madpost_dpi_core_compare(void *h, long long cycle, const svBitVecVal *dut_out, const svBitVecVal *dut_regs,
                 int cmp_regs);
int madpost_dpi_core_error_count(void *h);
const char *madpost_dpi_core_error_get(void *h, int i);
void madpost_dpi_core_error_clear(void *h);

/* The merged wave of a shadow (dpi_wave.c, docs/waves.md): a ring of the last cycles of every
 * compare, or the whole run streamed after wave_open; written as <base>.merged.vcd and .gtkw. */
typedef struct madpost_dpi_core_wave madpost_dpi_core_wave_t;
madpost_dpi_core_wave_t *madpost_dpi_core_wave_new(const mdpi_block_t *b);
void madpost_dpi_core_wave_free(madpost_dpi_core_wave_t *w);
/* One compare: the inputs, the DUT's outputs and registers (NULL: not compared), the model's. */
void madpost_dpi_core_wave_record(madpost_dpi_core_wave_t *w, long long cycle, const uint32_t *in,
                                  const uint32_t *d_out, const uint32_t *d_reg, const uint32_t *m_out,
                                  const uint32_t *m_reg);
int madpost_dpi_core_wave_open(madpost_dpi_core_wave_t *w, const char *base);
int madpost_dpi_core_wave_close(madpost_dpi_core_wave_t *w);
/* Streaming: flushes and writes the .gtkw; else the ring into the file. Cycles in it, or -1. */
long long madpost_dpi_core_wave_write(madpost_dpi_core_wave_t *w, const char *base);
long long madpost_dpi_core_wave_first_bad(const madpost_dpi_core_wave_t *w);
/* The engine's face of it, per model handle (-1: a dead model, or the file cannot be written). */
int madpost_dpi_core_waves(void *h, const char *base);
long long madpost_dpi_core_wave_dump(void *h, const char *base);

/* The exported functions of block p, descriptor d. */
#define MDPI_EXPORT(p, d)                                                                          \
  void *madpost_dpi_##p##_create(const char *params) { return madpost_dpi_core_create(&(d), params); }         \
  void madpost_dpi_##p##_destroy(void *h) { madpost_dpi_core_destroy(h); }                                     \
  void madpost_dpi_##p##_reset(void *h) { madpost_dpi_core_reset(h); }                                         \
  int madpost_dpi_##p##_eval(void *h, const svBitVecVal *in, svBitVecVal *out) {                   \
    return madpost_dpi_core_eval(h, in, out);                                                                  \
  }                                                                                                \
  void madpost_dpi_##p##_clock(void *h) { madpost_dpi_core_clock(h); }                                         \
  void madpost_dpi_##p##_outputs(void *h, svBitVecVal *out) { madpost_dpi_core_outputs(h, out); }              \
  void madpost_dpi_##p##_registers(void *h, svBitVecVal *regs) { madpost_dpi_core_registers(h, regs); }        \
  int madpost_dpi_##p##_compare(void *h, long long cycle, const svBitVecVal *dut_out,              \
                                const svBitVecVal *dut_regs, int cmp_regs) {                       \
    return madpost_dpi_core_compare(h, cycle, dut_out, dut_regs, cmp_regs);                                    \
  }                                                                                                \
  int madpost_dpi_##p##_error_count(void *h) { return madpost_dpi_core_error_count(h); }                       \
  const char *madpost_dpi_##p##_error_get(void *h, int i) { return madpost_dpi_core_error_get(h, i); }         \
  void madpost_dpi_##p##_error_clear(void *h) { madpost_dpi_core_error_clear(h); }                            \
  int madpost_dpi_##p##_wave_open(void *h, const char *base) { return madpost_dpi_core_waves(h, base); }       \
  long long madpost_dpi_##p##_wave_write(void *h, const char *base) { return madpost_dpi_core_wave_dump(h, base); }

/* The contract's functions of block p behind void pointers (eval without events). */
#define MDPI_GLUE(p)                                                                               \
  static void p##_dpi_reset(const void *c, void *s) { p##_reset(c, s); }                           \
  static int p##_dpi_eval(const void *c, const void *s, const void *i, void *o, void *n) {         \
    return p##_eval(c, s, i, o, n, NULL);                                                          \
  }                                                                                                \
  static void p##_dpi_clock(void *s, const void *n) { p##_clock(s, n); }

#endif
