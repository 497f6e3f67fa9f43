/* Error messages into a caller's buffer, the way the simulator's modules report bad input: the
 * message names the problem, the return value (-1) says there was one. */
#ifndef MADPOST_NET_ERR_H
#define MADPOST_NET_ERR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

__attribute__((format(printf, 3, 4))) static inline int net_fail(char *err, size_t n,
                                                                 const char *fmt, ...) {
  if (err && n) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

#endif
