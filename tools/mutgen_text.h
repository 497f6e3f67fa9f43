/* The mutant generators' file reading (tools/mutgen.c, tools/mutgen_reset.c): a whole RTL or list
 * file as one string, and a path's last component. A file that cannot be read is a usage error. */
#ifndef MADPOST_MUTGEN_TEXT_H
#define MADPOST_MUTGEN_TEXT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *mutgen_slurp(const char *prog, const char *path) {
  FILE *f = fopen(path, "rb");
  long n = -1;
  if (f && fseek(f, 0, SEEK_END) == 0)
    n = ftell(f);
  char *b = n >= 0 && fseek(f, 0, SEEK_SET) == 0 ? malloc((size_t)n + 1) : NULL;
  if (!b || fread(b, 1, (size_t)n, f) != (size_t)n) {
    fprintf(stderr, "%s: cannot read %s\n", prog, path);
    exit(2);
  }
  b[n] = 0;
  fclose(f);
  return b;
}

static const char *mutgen_base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

#endif
