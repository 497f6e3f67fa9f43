/* The merged wave of a DPI shadow (docs/waves.md, docs/dpi.md): every compare's DUT and model
 * values kept in a ring of the last cycles (or streamed with wave_open), written through the
 * library's VCD writer as <blk>_tb.rtl.*, <blk>_tb.model.* and <blk>_tb.mismatch.* (a bit per
 * compared output and register element, and any), with a GTKWave save file: the lockstep benches'
 * layout, without their instance scope (one shadow is one DUT). */
#define _POSIX_C_SOURCE 200809L /* getcwd */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <madpost/madpost_vcd.h>

#include "dpi_int.h"

/* Ring depth: as the lockstep harness's, 128 cycles but within 4 MB, never fewer than 16. */
enum { MDPI_RING = 128, MDPI_RING_MIN = 16, MDPI_NAME = 96 };
#define MDPI_RING_BYTES ((size_t)4 << 20)
#define MDPI_PERIOD 10 /* ns a cycle: cycle c at 10c, the edge at 10c + 5, as the lockstep's */

/* One element of a port list: which vector (0 inputs, 1 outputs, 2 registers), where, its name. */
typedef struct {
  int list;
  uint32_t lsb, width;
  char name[MDPI_NAME];
} mdpi_el_t;

struct madpost_dpi_core_wave {
  const mdpi_block_t *b;
  mdpi_el_t *el;
  size_t nel, w_in, w_out, w_reg, row; /* words of each vector; a row: in, dut out, dut regs, model out, model regs */
  size_t depth, head, n;
  uint32_t *ring;
  long long *cyc;
  unsigned char *has_regs, *rose;
  madpost_vcd_t vcd;
  int streaming;
  uint32_t *h_rtl, *h_model, *h_bad, h_any;
  long long first_bad, last, count;
};

static size_t words(size_t bits) { return (bits + 31) / 32; }

static void add_list(madpost_dpi_core_wave_t *w, const mdpi_list_t *l, int list) {
  size_t top = 0;
  for (size_t i = 0; i < l->n; i++)
    top += (size_t)l->f[i].count * l->f[i].width;
  for (size_t i = 0; i < l->n; i++) {
    const mdpi_field_t *f = &l->f[i];
    top -= (size_t)f->count * f->width;
    for (uint32_t k = 0; k < f->count; k++) {
      mdpi_el_t *e = &w->el[w->nel++];
      e->list = list, e->lsb = (uint32_t)top + k * f->width, e->width = f->width;
      /* a packed port's element k is name(k): a VCD reader takes name[k] for a bit select */
      if (f->count > 1)
        snprintf(e->name, sizeof e->name, "%s%s%s(%u)", f->prefix, f->name, f->sfx, k);
      else
        snprintf(e->name, sizeof e->name, "%s%s%s", f->prefix, f->name, f->sfx);
    }
  }
}

static size_t count_el(const mdpi_list_t *l) {
  size_t n = 0;
  for (size_t i = 0; i < l->n; i++)
    n += l->f[i].count;
  return n;
}

static size_t list_bits(const mdpi_list_t *l) {
  size_t n = 0;
  for (size_t i = 0; i < l->n; i++)
    n += (size_t)l->f[i].count * l->f[i].width;
  return n;
}

madpost_dpi_core_wave_t *madpost_dpi_core_wave_new(const mdpi_block_t *b) {
  madpost_dpi_core_wave_t *w = calloc(1, sizeof *w);
  if (!w)
    return NULL;
  w->b = b;
  const size_t nel = count_el(&b->in) + count_el(&b->out) + count_el(&b->reg);
  w->w_in = words(list_bits(&b->in)), w->w_out = words(list_bits(&b->out));
  w->w_reg = words(list_bits(&b->reg));
  w->row = w->w_in + 2 * w->w_out + 2 * w->w_reg;
  w->depth = MDPI_RING_BYTES / (w->row * sizeof(uint32_t));
  w->depth = w->depth > MDPI_RING ? MDPI_RING : w->depth < MDPI_RING_MIN ? MDPI_RING_MIN : w->depth;
  w->el = calloc(nel, sizeof *w->el);
  w->ring = calloc(w->depth * w->row, sizeof *w->ring);
  w->cyc = calloc(w->depth, sizeof *w->cyc);
  w->has_regs = calloc(w->depth, 1);
  w->rose = calloc(nel, 1);
  w->h_rtl = calloc(nel, sizeof *w->h_rtl);
  w->h_model = calloc(nel, sizeof *w->h_model);
  w->h_bad = calloc(nel, sizeof *w->h_bad);
  if (!w->el || !w->ring || !w->cyc || !w->has_regs || !w->rose || !w->h_rtl || !w->h_model || !w->h_bad) {
    madpost_dpi_core_wave_free(w);
    return NULL;
  }
  add_list(w, &b->in, 0);
  add_list(w, &b->out, 1);
  add_list(w, &b->reg, 2);
  return w;
}

void madpost_dpi_core_wave_free(madpost_dpi_core_wave_t *w) {
  if (!w)
    return;
  if (w->streaming)
    madpost_dpi_core_wave_close(w);
  free(w->el), free(w->ring), free(w->cyc), free(w->has_regs), free(w->rose);
  free(w->h_rtl), free(w->h_model), free(w->h_bad);
  free(w);
}

/* ---- The file ---------------------------------------------------------------------------------- */
static void declare(madpost_dpi_core_wave_t *w) {
  madpost_vcd_t *v = &w->vcd;
  char top[64];
  snprintf(top, sizeof top, "%s_tb", w->b->name);
  madpost_vcd_scope(v, top);
  madpost_vcd_wire(v, "clk_i", 1); /* handle 0 */
  for (int side = 0; side < 2; side++) {
    madpost_vcd_scope(v, side ? "model" : "rtl");
    for (size_t i = 0; i < w->nel; i++)
      (side ? w->h_model : w->h_rtl)[i] = madpost_vcd_wire(v, w->el[i].name, w->el[i].width);
    madpost_vcd_upscope(v);
  }
  madpost_vcd_scope(v, "mismatch");
  w->h_any = madpost_vcd_wire(v, "any", 1);
  for (size_t i = 0; i < w->nel; i++)
    if (w->el[i].list)
      w->h_bad[i] = madpost_vcd_wire(v, w->el[i].name, 1);
  madpost_vcd_upscope(v);
  madpost_vcd_upscope(v);
  madpost_vcd_enddefs(v);
}

static int open_file(madpost_dpi_core_wave_t *w, const char *path) {
  if (madpost_vcd_open(&w->vcd, path, "1ns"))
    return -1;
  memset(w->rose, 0, w->nel);
  w->first_bad = w->last = -1;
  w->count = 0;
  declare(w);
  return 0;
}

static uint32_t bits(const uint32_t *v, uint32_t lsb, uint32_t width) {
  const uint32_t i = lsb / 32, o = lsb % 32;
  uint64_t x = v[i];
  if (o + width > 32)
    x |= (uint64_t)v[i + 1] << 32;
  return (uint32_t)(x >> o) & (width >= 32 ? 0xFFFFFFFFu : (1u << width) - 1u);
}

/* One cycle of a row into the open file. Without the DUT's registers (cmp_regs 0) the rtl side
 * shows the model's and nothing is compared. */
static void emit(madpost_dpi_core_wave_t *w, long long c, const uint32_t *row, int regs) {
  const uint32_t *in = row, *d_out = in + w->w_in, *d_reg = d_out + w->w_out;
  const uint32_t *m_out = d_reg + w->w_reg, *m_reg = m_out + w->w_out;
  madpost_vcd_t *v = &w->vcd;
  madpost_vcd_time(v, (uint64_t)c * MDPI_PERIOD);
  madpost_vcd_val(v, 0, 0);
  int any = 0;
  for (size_t i = 0; i < w->nel; i++) {
    const mdpi_el_t *e = &w->el[i];
    const uint32_t *dv = e->list == 0 ? in : e->list == 1 ? d_out : regs ? d_reg : m_reg;
    const uint32_t *mv = e->list == 0 ? in : e->list == 1 ? m_out : m_reg;
    const uint32_t d = bits(dv, e->lsb, e->width), m = bits(mv, e->lsb, e->width);
    madpost_vcd_val(v, w->h_rtl[i], d);
    madpost_vcd_val(v, w->h_model[i], m);
    if (!e->list)
      continue;
    madpost_vcd_val(v, w->h_bad[i], d != m);
    if (d != m)
      any = 1, w->rose[i] = 1;
  }
  madpost_vcd_val(v, w->h_any, (uint64_t)any);
  if (any && w->first_bad < 0)
    w->first_bad = c;
  madpost_vcd_time(v, (uint64_t)c * MDPI_PERIOD + MDPI_PERIOD / 2);
  madpost_vcd_val(v, 0, 1);
  w->last = c;
  w->count++;
}

static int close_file(madpost_dpi_core_wave_t *w) {
  if (w->last >= 0) {
    madpost_vcd_time(&w->vcd, (uint64_t)(w->last + 1) * MDPI_PERIOD);
    madpost_vcd_val(&w->vcd, 0, 0);
  }
  return madpost_vcd_close(&w->vcd);
}

static void trace(FILE *f, const char *top, const char *side, const mdpi_el_t *e, int color) {
  fprintf(f, "[color] %d\n", color);
  if (e->width == 1)
    fprintf(f, "@28\n%s.%s.%s\n", top, side, e->name);
  else
    fprintf(f, "@22\n%s.%s.%s[%u:0]\n", top, side, e->name, e->width - 1);
}

/* The save file: the mismatch bits on top (any, those that rose, the rest), clk_i, the inputs,
 * then each output and register of the DUT with the model's (orange) beneath; the marker at the
 * first divergence, the view 20 cycles before it. */
static int write_gtkw(const madpost_dpi_core_wave_t *w, const char *path, const char *dump) {
  FILE *f = fopen(path, "w");
  if (!f)
    return -1;
  char top[64], cwd[4096];
  snprintf(top, sizeof top, "%s_tb", w->b->name);
  const long long m = w->first_bad < 0 ? -1 : w->first_bad * MDPI_PERIOD;
  const long long start = w->first_bad > 20 ? (w->first_bad - 20) * MDPI_PERIOD : 0;
  fprintf(f, "[dumpfile] \"%s%s%s\"\n[timestart] %lld\n*-9.000000 %lld %lld",
          dump[0] == '/' || !getcwd(cwd, sizeof cwd) ? "" : cwd, dump[0] == '/' ? "" : "/", dump,
          start, m, m);
  for (int k = 1; k < 26; k++)
    fprintf(f, " -1");
  fprintf(f, "\n@200\n-mismatch (rtl != model)\n[color] 1\n@28\n%s.mismatch.any\n", top);
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < w->nel; i++)
      if (w->el[i].list && w->rose[i] == (pass == 0))
        fprintf(f, "[color] 1\n@28\n%s.mismatch.%s\n", top, w->el[i].name);
  fprintf(f, "[color] 0\n@28\n%s.clk_i\n@200\n-inputs (the same on both sides)\n", top);
  for (size_t i = 0; i < w->nel; i++)
    if (!w->el[i].list)
      trace(f, top, "rtl", &w->el[i], 0);
  fprintf(f, "@200\n-outputs and registers, rtl then model\n");
  for (size_t i = 0; i < w->nel; i++)
    if (w->el[i].list) {
      trace(f, top, "rtl", &w->el[i], 0);
      trace(f, top, "model", &w->el[i], 2);
    }
  return fclose(f) ? -1 : 0;
}

/* ---- The engine's calls ---------------------------------------------------------------------- */
void madpost_dpi_core_wave_record(madpost_dpi_core_wave_t *w, long long cycle, const uint32_t *in,
                             const uint32_t *d_out, const uint32_t *d_reg, const uint32_t *m_out,
                             const uint32_t *m_reg) {
  const size_t slot = (w->head + w->n) % w->depth;
  if (w->n < w->depth)
    w->n++;
  else
    w->head = (w->head + 1) % w->depth;
  uint32_t *row = &w->ring[slot * w->row], *p = row;
  memcpy(p, in, w->w_in * 4), p += w->w_in;
  memcpy(p, d_out, w->w_out * 4), p += w->w_out;
  if (d_reg)
    memcpy(p, d_reg, w->w_reg * 4);
  p += w->w_reg;
  memcpy(p, m_out, w->w_out * 4), p += w->w_out;
  memcpy(p, m_reg, w->w_reg * 4);
  w->cyc[slot] = cycle;
  w->has_regs[slot] = d_reg != NULL;
  if (!w->streaming)
    return;
  emit(w, cycle, row, d_reg != NULL);
  /* After a divergence the run is failing and may end in an abort ($fatal) that flushes nothing:
   * every cycle from there on reaches the file whole. */
  if (w->first_bad >= 0)
    madpost_vcd_flush(&w->vcd);
}

static char *path_of(const char *base, const char *ext) {
  const size_t n = strlen(base) + strlen(ext) + 1;
  char *p = malloc(n);
  if (p)
    snprintf(p, n, "%s%s", base, ext);
  return p;
}

int madpost_dpi_core_wave_open(madpost_dpi_core_wave_t *w, const char *base) {
  if (w->streaming)
    madpost_dpi_core_wave_close(w);
  char *vcd = path_of(base, ".merged.vcd"), *gtkw = path_of(base, ".merged.gtkw");
  int rc = -1;
  if (vcd && gtkw && !open_file(w, vcd)) {
    w->streaming = 1;
    rc = write_gtkw(w, gtkw, vcd);
  }
  free(vcd), free(gtkw);
  return rc;
}

int madpost_dpi_core_wave_close(madpost_dpi_core_wave_t *w) {
  if (!w->streaming)
    return 0;
  w->streaming = 0;
  return close_file(w);
}

long long madpost_dpi_core_wave_write(madpost_dpi_core_wave_t *w, const char *base) {
  char *vcd = path_of(base, ".merged.vcd"), *gtkw = path_of(base, ".merged.gtkw");
  long long rc = -1;
  if (!vcd || !gtkw)
    goto out;
  if (w->streaming) {
    madpost_vcd_flush(&w->vcd);
  } else {
    if (open_file(w, vcd))
      goto out;
    for (size_t k = 0; k < w->n; k++) {
      const size_t slot = (w->head + k) % w->depth;
      emit(w, w->cyc[slot], &w->ring[slot * w->row], w->has_regs[slot]);
    }
    if (close_file(w))
      goto out;
  }
  rc = write_gtkw(w, gtkw, vcd) ? -1 : w->count;
out:
  free(vcd), free(gtkw);
  return rc;
}

long long madpost_dpi_core_wave_first_bad(const madpost_dpi_core_wave_t *w) { return w->first_bad; }
