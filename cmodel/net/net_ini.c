/* Configuration files through inih with every line checked first (include/madpost/net_ini.h):
 * inih reads through our line reader, which hands it only whole, well-formed lines and stops the
 * file at the first fault, so the line numbers in messages are the lines at fault. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <madpost/net_err.h>
#include <madpost/net_ini.h>

typedef struct {
  FILE *f;
  const char *path;
  net_ini_fn fn;
  void *user;
  char *line; /* getline's buffer */
  size_t cap;
  int lineno, failed;
  char *err;
  size_t n;
} ini_ctx_t;

__attribute__((format(printf, 2, 3))) static void fault(ini_ctx_t *x, const char *fmt, ...) {
  char why[320];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  net_fail(x->err, x->n, "%s: line %d: %s", x->path, x->lineno, why);
  x->failed = 1;
}

/* Why line s (without its end of line) is not one inih reads as meant, or NULL if it is. */
static const char *malformed(const char *s) {
  const char *t = s + strspn(s, " \t");
  if (!*t || *t == ';' || *t == '#') return NULL; /* blank or a comment */
  if (t != s) return "an indented line (continuation lines are not supported)";
  if (*t == '[') {
    const char *close = strchr(t, ']');
    if (!close) return "not of the form [section]";
    const char *rest = close + 1 + strspn(close + 1, " \t");
    return !*rest || *rest == ';' || *rest == '#' ? NULL : "text after ]";
  }
  return strpbrk(t, "=:") ? NULL : "not of the form key = value";
}

/* inih's fgets: the next line if it is whole and well-formed, else NULL (the end) after the
   fault is noted. */
static char *next_line(char *str, int num, void *stream) {
  ini_ctx_t *x = stream;
  if (x->failed) return NULL;
  errno = 0;
  ssize_t len = getline(&x->line, &x->cap, x->f);
  if (len < 0) {
    if (ferror(x->f)) {
      net_fail(x->err, x->n, "%s: cannot read: %s", x->path, strerror(errno));
      x->failed = 1;
    }
    return NULL;
  }
  x->lineno++;
  if (strlen(x->line) != (size_t)len) return fault(x, "a NUL byte"), NULL;
  if (len && x->line[len - 1] == '\n') x->line[--len] = 0;
  if (len && x->line[len - 1] == '\r') x->line[--len] = 0;
  if (x->lineno == 1 && !strncmp(x->line, "\xEF\xBB\xBF", 3)) /* a UTF-8 BOM, as inih allows */
    memmove(x->line, x->line + 3, (size_t)(len -= 3) + 1);
  /* room for the line, an end of line and the NUL in inih's buffer */
  if (len > num - 3) return fault(x, "longer than %d characters", num - 3), NULL;
  const char *why = malformed(x->line);
  if (why) return fault(x, "%s", why), NULL;
  snprintf(str, (size_t)num, "%s\n", x->line);
  return str;
}

static int on_pair(void *user, const char *section, const char *name, const char *value) {
  ini_ctx_t *x = user;
  char why[320];
  if (x->failed) return 0;
  if (x->fn(x->user, section, name, value, why, sizeof why)) {
    fault(x, "%s", why);
    return 0;
  }
  return 1;
}

/* path opened for reading if it is a regular file of a sensible size: the stream, or NULL after
   the message. A FIFO or device is refused before it can block the open or the reads. */
static FILE *open_regular(const char *path, char *err, size_t n) {
  const int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    net_fail(err, n, "%s: cannot open the configuration file: %s", path, strerror(errno));
    return NULL;
  }
  struct stat st;
  FILE *f = NULL;
  if (fstat(fd, &st))
    net_fail(err, n, "%s: cannot read: %s", path, strerror(errno));
  else if (!S_ISREG(st.st_mode))
    net_fail(err, n, "%s: not a regular file (%s); give a configuration file", path,
             S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" : "a device");
  else if (st.st_size > (off_t)NET_INI_MAX_BYTES)
    net_fail(err, n, "%s: %lld bytes: larger than a configuration file (at most %u)", path,
             (long long)st.st_size, NET_INI_MAX_BYTES);
  else if (!(f = fdopen(fd, "r")))
    net_fail(err, n, "%s: cannot read: %s", path, strerror(errno));
  if (!f) close(fd);
  return f;
}

int net_ini_load(const char *path, net_ini_fn fn, void *user, char *err, size_t n) {
  if (err && n) err[0] = 0;
  ini_ctx_t x = {.path = path, .fn = fn, .user = user, .err = err, .n = n};
  if (!(x.f = open_regular(path, err, n))) return -1;
  const int r = ini_parse_stream(next_line, &x, on_pair, &x);
  if (!x.failed && r == -2) x.failed = 1, net_fail(err, n, "%s: out of memory", path);
  if (!x.failed && r) /* a line inih refused that our checks passed */
    x.failed = 1, net_fail(err, n, "%s: line %d: not of the form key = value", path, r);
  free(x.line);
  fclose(x.f);
  return x.failed ? -1 : 0;
}
