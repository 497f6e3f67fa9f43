/* Output of the madpost figure commands as rows of named columns: CSV with a comment line, or a
 * JSON object of rows; the table format prints nothing here (each command has its own table). */
#ifndef MADPOST_ROWS_H
#define MADPOST_ROWS_H

enum { MADPOST_ROWS_TABLE = 0, MADPOST_ROWS_CSV, MADPOST_ROWS_JSON };

typedef struct {
  int fmt; /* MADPOST_ROWS_* */
  const char *const *cols;
  int ncols, nrows;
  char num[32][48]; /* madpost_rows_num's ring of buffers, enough for one row */
  int nnum;
} madpost_rows_t;

/* --format's value into *fmt: 0, or -1 after "madpost: CMD: --format: ..." on stderr. */
int madpost_rows_format(const char *cmd, const char *v, int *fmt);
/* The header: CSV's comment line and column names, or JSON's command, params and method. */
void madpost_rows_begin(madpost_rows_t *o, const char *cmd, const char *params_json,
                        const char *method);
/* One row: ncols values as strings (NULL or "": empty / JSON null). Numbers are printed as given,
   text (a value starting with a letter) is quoted in JSON. */
void madpost_row(madpost_rows_t *o, ...);
void madpost_rows_end(madpost_rows_t *o);
/* A number formatted for a row (valid until 32 more are formatted). */
const char *madpost_rows_num(madpost_rows_t *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
#define MADPOST_FU(o, x) madpost_rows_num((o), "%llu", (unsigned long long)(x))
#define MADPOST_FG(o, x) madpost_rows_num((o), "%.6g", (double)(x))

#endif
