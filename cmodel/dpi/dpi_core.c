/* The DPI engine (docs/dpi.md): one model behind a chandle, its ports moved between C structs and
 * SystemVerilog packed vectors by the block's port list, and every problem (bad params, a model
 * invariant, a mismatch against a DUT) kept as a message for the bench to fetch, never an abort:
 * a simulator's bench decides what a mismatch means. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dpi_int.h"

/* Messages kept per model; beyond, they are counted and the last one says how many were lost. */
enum { MDPI_KEEP = 256, MDPI_MSG = 320 };

typedef struct {
  const mdpi_block_t *b;
  void *cfg, *st, *nx, *in, *out, *view;
  int dead;    /* bad params: the model does nothing */
  int have_nx; /* an eval since the last clock or reset */
  char (*msg)[MDPI_MSG];
  long n_msg; /* every message, kept or not */
  svBitVecVal *in_v, *m_out_v, *m_reg_v; /* the last eval's inputs; the model's side of a compare */
  madpost_dpi_core_wave_t *wave;         /* made by the first compare: a reference module has none */
} mdpi_t;

static void note(mdpi_t *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(mdpi_t *m, const char *fmt, ...) {
  long i = m->n_msg < MDPI_KEEP ? m->n_msg : MDPI_KEEP - 1;
  va_list ap;
  va_start(ap, fmt);
  if (m->n_msg >= MDPI_KEEP - 1 && m->n_msg > 0)
    snprintf(m->msg[i], MDPI_MSG, "madpost_dpi %s: %ld more messages not kept", m->b->name,
             m->n_msg - (MDPI_KEEP - 1) + 1);
  else
    vsnprintf(m->msg[i], MDPI_MSG, fmt, ap);
  va_end(ap);
  m->n_msg++;
}

int madpost_dpi_core_key_is(const char *key, const char *field, const char *rtl) {
  const char *dot = strrchr(field, '.');
  return !strcmp(key, field) || !strcmp(key, dot ? dot + 1 : field) || !strcmp(key, rtl);
}

/* ---- Bits ---------------------------------------------------------------------------------- */
static uint32_t wmask(uint32_t w) { return w >= 32 ? 0xFFFFFFFFu : (1u << w) - 1u; }

static uint32_t get_bits(const svBitVecVal *v, uint32_t lsb, uint32_t w) {
  const uint32_t i = lsb / 32, o = lsb % 32;
  uint64_t x = v[i];
  if (o + w > 32)
    x |= (uint64_t)v[i + 1] << 32;
  return (uint32_t)(x >> o) & wmask(w);
}

static void put_bits(svBitVecVal *v, uint32_t lsb, uint32_t w, uint32_t val) {
  const uint32_t i = lsb / 32, o = lsb % 32;
  const uint64_t m = (uint64_t)wmask(w) << o, x = (uint64_t)(val & wmask(w)) << o;
  v[i] = (v[i] & ~(uint32_t)m) | (uint32_t)x;
  if (o + w > 32)
    v[i + 1] = (v[i + 1] & ~(uint32_t)(m >> 32)) | (uint32_t)(x >> 32);
}

static size_t list_bits(const mdpi_list_t *l) {
  size_t n = 0;
  for (size_t i = 0; i < l->n; i++)
    n += (size_t)l->f[i].count * l->f[i].width;
  return n;
}

static void *elem(const void *base, const mdpi_field_t *f, uint32_t k) {
  return (char *)base + f->off + (size_t)k * (f->stride ? f->stride : f->esize);
}

static uint32_t get_c(const void *base, const mdpi_field_t *f, uint32_t k) {
  const void *p = elem(base, f, k);
  uint8_t b8;
  uint16_t b16;
  uint32_t b32;
  switch (f->esize) {
  case 1: memcpy(&b8, p, 1); return b8;
  case 2: memcpy(&b16, p, 2); return b16;
  default: memcpy(&b32, p, 4); return b32;
  }
}

static void put_c(void *base, const mdpi_field_t *f, uint32_t k, uint32_t v) {
  void *p = elem(base, f, k);
  uint8_t b8 = (uint8_t)v;
  uint16_t b16 = (uint16_t)v;
  switch (f->esize) {
  case 1: memcpy(p, &b8, 1); break;
  case 2: memcpy(p, &b16, 2); break;
  default: memcpy(p, &v, 4); break;
  }
}

/* The packed struct of SystemVerilog: the list's first field in the top bits; element k of a
 * field of count c in the field's bits [k * width +: width] (as the RTL's packed ports). fn is
 * called with each element's position. */
typedef void (*visit_fn)(void *ctx, const mdpi_field_t *f, uint32_t k, uint32_t lsb);
static void visit(const mdpi_list_t *l, visit_fn fn, void *ctx) {
  uint32_t top = (uint32_t)list_bits(l);
  for (size_t i = 0; i < l->n; i++) {
    const mdpi_field_t *f = &l->f[i];
    top -= f->count * f->width;
    for (uint32_t k = 0; k < f->count; k++)
      fn(ctx, f, k, top + k * f->width);
  }
}

typedef struct {
  void *c;
  const svBitVecVal *sv_in;
  svBitVecVal *sv_out;
} xfer_t;
static void to_c(void *ctx, const mdpi_field_t *f, uint32_t k, uint32_t lsb) {
  xfer_t *x = ctx;
  put_c(x->c, f, k, get_bits(x->sv_in, lsb, f->width));
}
static void to_sv(void *ctx, const mdpi_field_t *f, uint32_t k, uint32_t lsb) {
  xfer_t *x = ctx;
  put_bits(x->sv_out, lsb, f->width, get_c(x->c, f, k));
}

static void pack(const mdpi_list_t *l, const void *c, svBitVecVal *v) {
  memset(v, 0, (list_bits(l) + 31) / 32 * sizeof *v);
  xfer_t x = {(void *)c, NULL, v};
  visit(l, to_sv, &x);
}

/* ---- Lifetime and params --------------------------------------------------------------------- */
/* The next token of s from *pos, separated by commas or white space, cut out in place; NULL at
 * the end. */
static char *next_token(char *s, size_t *pos) {
  while (s[*pos] && strchr(", \t\n", s[*pos]))
    (*pos)++;
  if (!s[*pos])
    return NULL;
  char *t = s + *pos;
  while (s[*pos] && !strchr(", \t\n", s[*pos]))
    (*pos)++;
  if (s[*pos])
    s[(*pos)++] = 0;
  return t;
}

static void parse_params(mdpi_t *m, const char *params) {
  const size_t len = strlen(params ? params : "");
  char *s = malloc(len + 1);
  size_t pos = 0;
  if (!s) {
    note(m, "madpost_dpi %s: out of memory", m->b->name);
    m->dead = 1;
    return;
  }
  memcpy(s, params ? params : "", len + 1);
  for (char *t; (t = next_token(s, &pos));) {
    char *eq = strchr(t, '='), *end = NULL;
    if (!eq) {
      note(m, "madpost_dpi %s: params: '%s' is not key=value", m->b->name, t);
      m->dead = 1;
      continue;
    }
    *eq = 0;
    errno = 0;
    unsigned long v = strtoul(eq + 1, &end, 0);
    if (!eq[1] || *end || errno || v > 0xFFFFFFFFul || eq[1] == '-') {
      note(m, "madpost_dpi %s: params: %s='%s' is not a number of 32 bits", m->b->name, t, eq + 1);
      m->dead = 1;
    } else if (m->b->cfg_set(m->cfg, t, (uint32_t)v) < 0) {
      note(m, "madpost_dpi %s: params: unknown key '%s' (known: %s)", m->b->name, t, m->b->keys);
      m->dead = 1;
    }
  }
  free(s);
  char err[160] = "";
  if (!m->dead && m->b->cfg_check && m->b->cfg_check(m->cfg, err, sizeof err) < 0) {
    note(m, "madpost_dpi %s: params '%s': %s", m->b->name, params ? params : "", err);
    m->dead = 1;
  }
}

void *madpost_dpi_core_create(const mdpi_block_t *b, const char *params) {
  mdpi_t *m = calloc(1, sizeof *m);
  if (!m)
    return NULL;
  m->b = b;
  m->cfg = calloc(1, b->cfg_size);
  m->st = calloc(1, b->st_size);
  m->nx = calloc(1, b->nx_size);
  m->in = calloc(1, b->in_size);
  m->out = calloc(1, b->out_size);
  m->view = calloc(1, b->view_size ? b->view_size : 1);
  m->msg = calloc(MDPI_KEEP, sizeof *m->msg);
  m->in_v = calloc((list_bits(&b->in) + 31) / 32 + 1, sizeof *m->in_v);
  m->m_out_v = calloc((list_bits(&b->out) + 31) / 32 + 1, sizeof *m->m_out_v);
  m->m_reg_v = calloc((list_bits(&b->reg) + 31) / 32 + 1, sizeof *m->m_reg_v);
  if (!m->cfg || !m->st || !m->nx || !m->in || !m->out || !m->view || !m->msg || !m->in_v ||
      !m->m_out_v || !m->m_reg_v) {
    madpost_dpi_core_destroy(m);
    return NULL;
  }
  b->cfg_default(m->cfg);
  parse_params(m, params);
  if (!m->dead)
    b->reset(m->cfg, m->st);
  return m;
}

void madpost_dpi_core_destroy(void *h) {
  mdpi_t *m = h;
  if (!m)
    return;
  free(m->cfg), free(m->st), free(m->nx), free(m->in), free(m->out), free(m->view), free(m->msg);
  free(m->in_v), free(m->m_out_v), free(m->m_reg_v);
  madpost_dpi_core_wave_free(m->wave);
  free(m);
}

/* ---- The cycle -------------------------------------------------------------------------------- */
void madpost_dpi_core_reset(void *h) {
  mdpi_t *m = h;
  if (!m || m->dead)
    return;
  m->b->reset(m->cfg, m->st);
  m->have_nx = 0;
}

int madpost_dpi_core_eval(void *h, const svBitVecVal *in, svBitVecVal *out) {
  mdpi_t *m = h;
  if (!m || m->dead) {
    if (m && out)
      memset(out, 0, (list_bits(&m->b->out) + 31) / 32 * sizeof *out);
    return -1;
  }
  memset(m->in, 0, m->b->in_size);
  memcpy(m->in_v, in, (list_bits(&m->b->in) + 31) / 32 * sizeof *in);
  xfer_t x = {m->in, in, NULL};
  visit(&m->b->in, to_c, &x);
  int rc = m->b->eval(m->cfg, m->st, m->in, m->out, m->nx);
  if (rc < 0)
    note(m, "madpost_dpi %s: eval: a model invariant broke (a model bug; stderr says which)",
         m->b->name);
  m->have_nx = 1;
  if (out)
    pack(&m->b->out, m->out, out);
  return rc;
}

void madpost_dpi_core_clock(void *h) {
  mdpi_t *m = h;
  if (!m || m->dead)
    return;
  if (!m->have_nx) {
    note(m, "madpost_dpi %s: clock without an eval since the last edge: registers kept",
         m->b->name);
    return;
  }
  m->b->clock(m->st, m->nx);
  m->have_nx = 0;
}

void madpost_dpi_core_outputs(void *h, svBitVecVal *out) {
  mdpi_t *m = h;
  if (m && out)
    pack(&m->b->out, m->out, out);
}

void madpost_dpi_core_registers(void *h, svBitVecVal *regs) {
  mdpi_t *m = h;
  if (m && regs)
    pack(&m->b->reg, m->b->regs(m->st, m->view), regs);
}

/* ---- Compare and messages --------------------------------------------------------------------- */
typedef struct {
  mdpi_t *m;
  const void *c;
  const svBitVecVal *dut;
  long long cycle;
  int n;
} cmp_t;
static void cmp_one(void *ctx, const mdpi_field_t *f, uint32_t k, uint32_t lsb) {
  cmp_t *x = ctx;
  const uint32_t d = get_bits(x->dut, lsb, f->width), v = get_c(x->c, f, k) & wmask(f->width);
  if (d == v)
    return;
  char idx[16] = "";
  if (f->count > 1)
    snprintf(idx, sizeof idx, "[%u]", k);
  note(x->m, "DPI MISMATCH blk=%s cycle=%lld sig=%s%s%s%s dut=0x%x model=0x%x", x->m->b->name,
       x->cycle, f->prefix, f->name, f->sfx, idx, d, v);
  x->n++;
}

/* ---- The merged wave (dpi_wave.c) ------------------------------------------------------------ */
static madpost_dpi_core_wave_t *wave_of(mdpi_t *m) {
  if (!m->wave)
    m->wave = madpost_dpi_core_wave_new(m->b);
  if (!m->wave)
    note(m, "madpost_dpi %s: out of memory for the merged wave's ring", m->b->name);
  return m->wave;
}

/* A compare into the wave's ring (and its stream): the model's side packed as the DUT's is. */
static void record(mdpi_t *m, long long cycle, const svBitVecVal *dut_out, const svBitVecVal *dut_regs) {
  madpost_dpi_core_wave_t *w = wave_of(m);
  if (!w)
    return;
  pack(&m->b->out, m->out, m->m_out_v);
  pack(&m->b->reg, m->b->regs(m->st, m->view), m->m_reg_v);
  madpost_dpi_core_wave_record(w, cycle, m->in_v, dut_out, dut_regs, m->m_out_v, m->m_reg_v);
}

int madpost_dpi_core_waves(void *h, const char *base) {
  mdpi_t *m = h;
  if (!m || m->dead || !base || !wave_of(m))
    return -1;
  return madpost_dpi_core_wave_open(m->wave, base);
}

long long madpost_dpi_core_wave_dump(void *h, const char *base) {
  mdpi_t *m = h;
  if (!m || m->dead || !base || !wave_of(m))
    return -1;
  return madpost_dpi_core_wave_write(m->wave, base);
}

int madpost_dpi_core_compare(void *h, long long cycle, const svBitVecVal *dut_out, const svBitVecVal *dut_regs,
                 int cmp_regs) {
  mdpi_t *m = h;
  if (!m || m->dead)
    return -1;
  cmp_t x = {m, m->out, dut_out, cycle, 0};
  visit(&m->b->out, cmp_one, &x);
  if (cmp_regs && dut_regs) {
    x.c = m->b->regs(m->st, m->view);
    x.dut = dut_regs;
    visit(&m->b->reg, cmp_one, &x);
  }
  record(m, cycle, dut_out, cmp_regs ? dut_regs : NULL);
  return x.n;
}

int madpost_dpi_core_error_count(void *h) {
  const mdpi_t *m = h;
  return m ? (int)(m->n_msg < 0x7FFFFFFF ? m->n_msg : 0x7FFFFFFF) : 0;
}

const char *madpost_dpi_core_error_get(void *h, int i) {
  const mdpi_t *m = h;
  if (!m || i < 0 || i >= m->n_msg)
    return "";
  return m->msg[i < MDPI_KEEP ? i : MDPI_KEEP - 1];
}

void madpost_dpi_core_error_clear(void *h) {
  mdpi_t *m = h;
  if (m)
    m->n_msg = 0;
}
