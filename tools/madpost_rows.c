/* Output of the madpost figure commands as rows of named columns (CSV or JSON; madpost_rows.h). */
#include "madpost_rows.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int madpost_rows_format(const char *cmd, const char *v, int *fmt) {
  if (!strcmp(v, "table"))
    *fmt = MADPOST_ROWS_TABLE;
  else if (!strcmp(v, "csv"))
    *fmt = MADPOST_ROWS_CSV;
  else if (!strcmp(v, "json"))
    *fmt = MADPOST_ROWS_JSON;
  else {
    fprintf(stderr, "madpost: %s: --format: '%s' is not table, csv or json\n", cmd, v);
    return -1;
  }
  return 0;
}

void madpost_row(madpost_rows_t *o, ...) {
  if (o->fmt == MADPOST_ROWS_TABLE)
    return;
  va_list ap;
  va_start(ap, o);
  if (o->fmt == MADPOST_ROWS_JSON)
    printf("%s\n    {", o->nrows ? "," : "");
  for (int i = 0; i < o->ncols; i++) {
    const char *v = va_arg(ap, const char *);
    if (o->fmt == MADPOST_ROWS_CSV) {
      printf("%s%s", i ? "," : "", v ? v : "");
    } else {
      const int text = v && *v && ((*v >= 'a' && *v <= 'z') || (*v >= 'A' && *v <= 'Z'));
      printf("%s\"%s\":", i ? "," : "", o->cols[i]);
      if (!v || !*v)
        printf("null");
      else if (text)
        printf("\"%s\"", v);
      else
        printf("%s", v);
    }
  }
  if (o->fmt == MADPOST_ROWS_CSV)
    printf("\n");
  else
    printf("}");
  o->nrows++;
  va_end(ap);
}

void madpost_rows_begin(madpost_rows_t *o, const char *cmd, const char *params_json,
                        const char *method) {
  if (o->fmt == MADPOST_ROWS_CSV) {
    printf("# madpost %s: %s\n", cmd, method);
    for (int i = 0; i < o->ncols; i++)
      printf("%s%s", i ? "," : "", o->cols[i]);
    printf("\n");
  } else if (o->fmt == MADPOST_ROWS_JSON) {
    printf("{\"command\":\"%s\",\"params\":{%s},\"method\":\"%s\",\"rows\":[", cmd, params_json,
           method);
  }
}

void madpost_rows_end(madpost_rows_t *o) {
  if (o->fmt == MADPOST_ROWS_JSON)
    printf("\n]}\n");
}

const char *madpost_rows_num(madpost_rows_t *o, const char *fmt, ...) {
  char *b = o->num[o->nnum++ % 32];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b, sizeof o->num[0], fmt, ap);
  va_end(ap);
  return b;
}
