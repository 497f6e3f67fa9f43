/* Checked output: whatever a command writes reaches its file, or the command says which file it
 * could not write and why (a full disk, /dev/full, a closed pipe). Writes are buffered, so most
 * failures show only at the flush: check every file this way before calling a run a success. */
#ifndef MADPOST_NET_OUT_H
#define MADPOST_NET_OUT_H

#include <madpost/madpost_api.h>
#include <stddef.h>
#include <stdio.h>

MADPOST_BEGIN_DECLS

/* 0 if everything written to f so far reached it (flushed, no error flagged); else -1 with
   "cannot write NAME: REASON" in err. */
int net_out_flush(FILE *f, const char *name, char *err, size_t n);
/* The same, then f closed (closed in either case); f NULL is 0. */
int net_out_close(FILE *f, const char *name, char *err, size_t n);
/* 1 if paths a and b name the same regular file, existing or not (the same directory and name),
   so that two outputs, or an input and an output, would overwrite each other; else 0. */
int net_out_same(const char *a, const char *b);

MADPOST_END_DECLS

#endif
