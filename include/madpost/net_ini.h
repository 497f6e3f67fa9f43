/* Configuration files (INI, read with Debian's libinih), checked before inih sees a line: only a
 * regular file, every line whole (inih would split an overlong one and read its tail as a key),
 * no NUL bytes, no indented continuation lines, and every malformed line refused. Each error is
 * "PATH: line N: REASON", or "PATH: REASON" for the file as a whole. */
#ifndef MADPOST_NET_INI_H
#define MADPOST_NET_INI_H

#include <madpost/madpost_api.h>
#include <stddef.h>

MADPOST_BEGIN_DECLS

/* The largest configuration file read (bytes): anything bigger is not one. */
#define NET_INI_MAX_BYTES (1u << 20)

/* One key = value in [section] ("" before any): 0, or -1 with the reason in err (the loader adds
   the file and line). */
typedef int (*net_ini_fn)(void *user, const char *section, const char *key, const char *value,
                          char *err, size_t n);

/* Every key = value of the file at path into fn, in order, stopping at the first error: 0, or -1
   with the message in err. */
int net_ini_load(const char *path, net_ini_fn fn, void *user, char *err, size_t n);

MADPOST_END_DECLS

#endif
