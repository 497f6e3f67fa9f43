/* Mutant generator: writes copies of RTL files in which each mutation point of a mutant list is
 * wrapped as ((madpost_mut == K) ? (mutated) : (original)), with madpost_mut read from the plusarg
 * +mutant=K. One Verilator build then serves every mutant; K = 0 is the unmutated design.
 * With --fixed K the selector is the constant K instead (a localparam, which synthesis folds: the
 * gate-level lockstep's mutant netlist, Makefile gate_rules).
 * List format, one mutant per line: file @@ original text @@ mutated expression @@ description.
 * The original text must occur exactly once in the file; the expression it replaces is either the
 * whole text or the part marked @{ ... }@ inside it (the rest being context for uniqueness). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mutgen_text.h"

enum { MAX_MUT = 256 };

typedef struct {
  char *file, *orig, *mut, *desc;
  char *ctx;          /* original text with the markers removed */
  size_t span_off;    /* the replaced expression within ctx */
  size_t span_len;
  size_t pos;         /* where ctx starts in the file */
  int id;
} mutant_t;

/* Splits "a @{b}@ c" into ctx "a b c" and the span of b; no markers: the whole text. */
static int split_marks(mutant_t *m) {
  const char *o = strstr(m->orig, "@{"), *c = strstr(m->orig, "}@");
  size_t n = strlen(m->orig);
  m->ctx = malloc(n + 1);
  if (!m->ctx)
    return -1;
  if (!o && !c) {
    memcpy(m->ctx, m->orig, n + 1);
    m->span_off = 0;
    m->span_len = n;
    return 0;
  }
  if (!o || !c || c < o)
    return -1;
  size_t a = (size_t)(o - m->orig), b = (size_t)(c - m->orig);
  memcpy(m->ctx, m->orig, a);
  memcpy(m->ctx + a, o + 2, b - a - 2);
  strcpy(m->ctx + b - 2, c + 2);
  m->span_off = a;
  m->span_len = b - a - 2;
  return 0;
}

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
    s[--n] = 0;
  return s;
}

static int by_pos(const void *a, const void *b) {
  const mutant_t *x = a, *y = b;
  return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The mutant list into m (at most MAX_MUT); returns their number, or -1 after a message. */
static int read_list(const char *path, mutant_t *m) {
  int n = 0, lineno = 0;
  char *list = mutgen_slurp("mutgen", path);
  for (char *line = strtok(list, "\n"); line; line = strtok(NULL, "\n")) {
    lineno++;
    char *t = trim(line);
    if (!*t || *t == '#')
      continue;
    char *f[4];
    char *p = t;
    for (int i = 0; i < 4; i++) {
      char *sep = i < 3 ? strstr(p, "@@") : NULL;
      if (i < 3 && !sep) {
        fprintf(stderr, "mutgen: %s: mutant line %d needs 4 fields separated by @@\n", path, lineno);
        return -1;
      }
      if (sep)
        *sep = 0;
      f[i] = trim(p);
      p = sep ? sep + 2 : p;
    }
    if (n == MAX_MUT) {
      fprintf(stderr, "mutgen: more than %d mutants\n", MAX_MUT);
      return -1;
    }
    m[n] = (mutant_t){.file = f[0], .orig = f[1], .mut = f[2], .desc = f[3], .id = n + 1};
    if (split_marks(&m[n])) {
      fprintf(stderr, "mutgen: %s: mutant line %d has unbalanced @{ }@ marks\n", path, lineno);
      return -1;
    }
    n++;
  }
  return n;
}

/* The mutants of file `name` placed in its text src, into here in file order; their number, or
 * -1 after a message (a context not found exactly once, or two mutants overlapping). */
static int place(const char *name, const char *src, const mutant_t *m, int n, mutant_t *here) {
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (strcmp(m[i].file, name) != 0)
      continue;
    const char *hit = strstr(src, m[i].ctx);
    if (!hit || strstr(hit + 1, m[i].ctx)) {
      fprintf(stderr, "mutgen: mutant %d: '%s' must occur exactly once in %s (%s)\n", m[i].id,
              m[i].ctx, name, hit ? "several" : "none");
      return -1;
    }
    here[k] = m[i];
    here[k].pos = (size_t)(hit - src) + m[i].span_off;
    k++;
  }
  qsort(here, (size_t)k, sizeof here[0], by_pos);
  for (int i = 1; i < k; i++)
    if (here[i - 1].pos + here[i - 1].span_len > here[i].pos) {
      fprintf(stderr, "mutgen: mutants %d and %d overlap in %s\n", here[i - 1].id, here[i].id,
              name);
      return -1;
    }
  return k;
}

/* Where the selector goes: right after the module's port list, the first ");" after "module "
 * that is not inside a line comment; NULL if there is none. */
static const char *header_end(const char *src) {
  const char *mod = strstr(src, "module ");
  const char *hdr_end = mod ? strstr(mod, ");") : NULL;
  while (hdr_end) {
    const char *bol = hdr_end;
    while (bol > src && bol[-1] != '\n')
      bol--;
    const char *cmt = strstr(bol, "//");
    if (!cmt || cmt > hdr_end)
      break;
    hdr_end = strstr(hdr_end + 2, ");");
  }
  return hdr_end;
}

/* src with its k mutants wrapped and the selector inserted after the header at ins, to o; the
   selector is the plusarg, or the constant fixed when fixed >= 0. */
static void write_mutated(FILE *o, const char *src, const mutant_t *here, int k, size_t ins, int fixed) {
  size_t at = 0;
  for (int i = 0; i <= k; i++) {
    size_t stop = i < k ? here[i].pos : strlen(src);
    if (ins >= at && ins <= stop) {
      fwrite(src + at, 1, ins - at, o);
      if (fixed >= 0)
        fprintf(o, "\n  localparam int unsigned madpost_mut = %d;\n", fixed);
      else
        fputs("\n  int unsigned madpost_mut;\n  initial begin\n"
            "    if (!$value$plusargs(\"mutant=%d\", madpost_mut)) madpost_mut = 0;\n  end\n",
            o);
      at = ins;
    }
    fwrite(src + at, 1, stop - at, o);
    if (i < k) {
      fprintf(o, "((madpost_mut == %d) ? (%s) : (%.*s))", here[i].id, here[i].mut,
              (int)here[i].span_len, src + here[i].pos);
      at = stop + here[i].span_len;
    }
  }
}

/* One RTL file's mutated copy in outdir; the number of mutants it holds, or after a message -1
   (bad input) or -2 (the copy could not be written). */
static int mutate_file(const char *path, const char *outdir, const mutant_t *m, int n, int fixed) {
  const char *name = mutgen_base_name(path);
  char *src = mutgen_slurp("mutgen", path);
  mutant_t *here = malloc(MAX_MUT * sizeof *here);
  if (!here) {
    fprintf(stderr, "mutgen: out of memory\n");
    return -1;
  }
  const int k = place(name, src, m, n, here);
  if (k < 0)
    return -1;
  const char *hdr_end = header_end(src);
  if (k && !hdr_end) {
    fprintf(stderr, "mutgen: no module header found in %s\n", name);
    return -1;
  }
  char out[4096];
  snprintf(out, sizeof out, "%s/%s", outdir, name);
  FILE *o = fopen(out, "w");
  if (!o) {
    fprintf(stderr, "mutgen: cannot write %s\n", out);
    return -1;
  }
  write_mutated(o, src, here, k, k ? (size_t)(hdr_end - src) + 2 : (size_t)-1, fixed);
  /* in this order: ferror on a closed stream is undefined (the operands of | have none) */
  const int werr = ferror(o);
  if (fclose(o) || werr) {
    fprintf(stderr, "mutgen: cannot write %s\n", out);
    return -2;
  }
  free(here);
  free(src);
  return k;
}

int main(int argc, char **argv) {
  int fixed = -1;
  if (argc > 2 && strcmp(argv[1], "--fixed") == 0) {
    char *end;
    const long v = strtol(argv[2], &end, 10);
    if (*argv[2] == '\0' || *end != '\0' || v < 1 || v > MAX_MUT) {
      fprintf(stderr, "mutgen: --fixed takes a mutant number 1..%d, not '%s'\n", MAX_MUT, argv[2]);
      return 2;
    }
    fixed = (int)v;
    argc -= 2, argv += 2;
  }
  if (argc < 4) {
    fprintf(stderr, "usage: mutgen [--fixed K] LIST OUTDIR RTL_FILES...\n");
    return 2;
  }
  static mutant_t m[MAX_MUT];
  const int n = read_list(argv[1], m);
  if (n < 0)
    return 2;
  if (fixed > n) {
    fprintf(stderr, "mutgen: --fixed %d, but the list has %d mutants\n", fixed, n);
    return 2;
  }
  int used = 0;
  for (int a = 3; a < argc; a++) {
    const int k = mutate_file(argv[a], argv[2], m, n, fixed);
    if (k < 0)
      return k == -2 ? 1 : 2; /* a failed write is not a usage error */
    used += k;
  }
  if (used != n) {
    fprintf(stderr, "mutgen: %d mutants name files that were not given\n", n - used);
    return 2;
  }
  printf("mutgen: %d mutants written to %s%s\n", n, argv[2], fixed >= 0 ? " (one selected)" : "");
  return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
