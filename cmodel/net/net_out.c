/* Checked output (include/madpost/net_out.h): flush, error flag and close, each checked, with the
 * file's name in the message; and whether two paths are one file. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <madpost/net_err.h>
#include <madpost/net_out.h>

/* The message for a failed write: the errno of the failing call if it set one. */
static int said(const char *name, int e, char *err, size_t n) {
  return net_fail(err, n, "cannot write %s: %s", name, e ? strerror(e) : "write error");
}

int net_out_flush(FILE *f, const char *name, char *err, size_t n) {
  errno = 0;
  if (fflush(f)) return said(name, errno, err, n);
  if (ferror(f)) return said(name, 0, err, n); /* an earlier write failed, its errno long gone */
  return 0;
}

int net_out_close(FILE *f, const char *name, char *err, size_t n) {
  if (!f) return 0;
  int r = net_out_flush(f, name, err, n);
  errno = 0;
  if (fclose(f) && !r) r = said(name, errno, err, n);
  return r;
}

/* The canonical form of path's directory into dir (PATH_MAX), and its last component in *base:
   0, or -1 when the directory cannot be resolved. */
static int split_real(const char *path, char *dir, const char **base) {
  const char *slash = strrchr(path, '/');
  char d[PATH_MAX];
  if (!slash) {
    snprintf(d, sizeof d, ".");
    *base = path;
  } else {
    snprintf(d, sizeof d, "%.*s", (int)(slash - path) + (slash == path), path);
    *base = slash + 1;
  }
  return realpath(d, dir) ? 0 : -1;
}

int net_out_same(const char *a, const char *b) {
  struct stat sa, sb;
  const int ha = !stat(a, &sa), hb = !stat(b, &sb);
  if (ha && hb) /* devices such as /dev/null may take any number of outputs */
    return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (ha != hb) return 0;
  char da[PATH_MAX], db[PATH_MAX];
  const char *na, *nb;
  if (split_real(a, da, &na) || split_real(b, db, &nb)) return !strcmp(a, b);
  return !strcmp(da, db) && !strcmp(na, nb);
}
