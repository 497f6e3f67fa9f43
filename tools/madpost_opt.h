/* Option values of the madpost subcommands: a number or a whole number in a range, with the error
 * the CLI prints (naming the command, the option and the value) when it is not. */
#ifndef MADPOST_OPT_H
#define MADPOST_OPT_H

#include <stdint.h>

/* 0 and *out set, or -1 after "madpost: CMD: --KEY: 'V' is not a ... in LO..HI" on stderr. */
int madpost_opt_num(const char *cmd, const char *key, const char *v, double lo, double hi,
                    double *out);
int madpost_opt_whole(const char *cmd, const char *key, const char *v, uint64_t lo, uint64_t hi,
                      uint64_t *out);

#endif
