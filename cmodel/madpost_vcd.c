/* Minimal VCD (IEEE 1364 value change dump) writer: wires only, values written on change. */
#include <madpost/madpost_vcd.h>

#include <stdlib.h>
#include <string.h>

int madpost_vcd_open(madpost_vcd_t *v, const char *path, const char *timescale) {
  memset(v, 0, sizeof *v);
  v->f = fopen(path, "w");
  if (!v->f)
    return -1;
  fprintf(v->f, "$version madpost vcd $end\n$timescale %s $end\n", timescale);
  return 0;
}

void madpost_vcd_scope(madpost_vcd_t *v, const char *name) {
  fprintf(v->f, "$scope module %s $end\n", name);
}

void madpost_vcd_upscope(madpost_vcd_t *v) { fputs("$upscope $end\n", v->f); }

uint32_t madpost_vcd_wire(madpost_vcd_t *v, const char *name, uint32_t width) {
  if (v->nsigs == v->cap) {
    v->cap = v->cap ? v->cap * 2 : 64;
    madpost_vcd_sig_t *n = realloc(v->sigs, v->cap * sizeof *n);
    if (!n) {
      fputs("vcd: out of memory\n", stderr);
      exit(1);
    }
    v->sigs = n;
  }
  madpost_vcd_sig_t *s = &v->sigs[v->nsigs];
  memset(s, 0, sizeof *s);
  /* Identifier codes: base-94 over the printable characters '!'..'~'. */
  uint32_t n = v->nsigs, k = 0;
  do {
    s->id[k++] = (char)('!' + n % 94);
    n /= 94;
  } while (n && k < sizeof s->id - 1);
  s->width = width;
  if (width == 1)
    fprintf(v->f, "$var wire 1 %s %s $end\n", s->id, name);
  else
    fprintf(v->f, "$var wire %u %s %s [%u:0] $end\n", width, s->id, name, width - 1);
  return v->nsigs++;
}

void madpost_vcd_enddefs(madpost_vcd_t *v) {
  fputs("$enddefinitions $end\n", v->f);
  v->defs_done = 1;
}

void madpost_vcd_time(madpost_vcd_t *v, uint64_t t) {
  v->time = t;
  v->time_written = 0;
}

void madpost_vcd_val(madpost_vcd_t *v, uint32_t sig, uint64_t val) {
  madpost_vcd_sig_t *s = &v->sigs[sig];
  if (s->width < 64)
    val &= (UINT64_C(1) << s->width) - 1;
  if (s->dumped && s->last == val)
    return;
  if (!v->time_written) {
    fprintf(v->f, "#%llu\n", (unsigned long long)v->time);
    v->time_written = 1;
  }
  s->last = val;
  s->dumped = 1;
  if (s->width == 1) {
    fprintf(v->f, "%c%s\n", val ? '1' : '0', s->id);
    return;
  }
  char buf[66];
  int i = 0;
  for (int b = (int)s->width - 1; b >= 0; b--)
    buf[i++] = (char)('0' + ((val >> b) & 1));
  buf[i] = 0;
  /* Leading zeros may be dropped in VCD; keep them short for readability. */
  const char *p = buf;
  while (p[0] == '0' && p[1])
    p++;
  fprintf(v->f, "b%s %s\n", p, s->id);
}

void madpost_vcd_flush(madpost_vcd_t *v) {
  if (v->f)
    fflush(v->f);
}

int madpost_vcd_close(madpost_vcd_t *v) {
  int r = 0;
  if (v->f) {
    if (fflush(v->f) || ferror(v->f))
      r = -1;
    if (fclose(v->f))
      r = -1;
  }
  free(v->sigs);
  memset(v, 0, sizeof *v);
  return r;
}
