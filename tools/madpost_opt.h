/* Option values of the madpost subcommands: a number or a whole number in a range, with the error
 * the CLI prints (naming the command, the option and the value) when it is not; and the whole
 * command line of a figure command made of such options. */
#ifndef MADPOST_OPT_H
#define MADPOST_OPT_H

#include <stdint.h>
#include <stdio.h>

/* 0 and *out set, or -1 after "madpost: CMD: --KEY: 'V' is not a ... in LO..HI" on stderr. */
int madpost_opt_num(const char *cmd, const char *key, const char *v, double lo, double hi,
                    double *out);
int madpost_opt_whole(const char *cmd, const char *key, const char *v, uint64_t lo, uint64_t hi,
                      uint64_t *out);

/* A subcommand's line of --KEY VALUE pairs: --help or -h anywhere shows usage(stdout); each pair
   goes to one(ctx, "--KEY", VALUE), which says on stderr why it refuses one (-1). 0, or 1 with
   the exit status in *rc (usage's on help or a malformed line, 2 on a refused pair). */
int madpost_opt_pairs(const char *cmd, int argc, char **argv, int (*usage)(FILE *),
                      int (*one)(void *ctx, const char *a, const char *v), void *ctx, int *rc);

/* A whole-number option of a figure command (madpost c104transit, c104cost). */
typedef struct {
  const char *key; /* without the dashes */
  uint64_t lo, hi;
  uint64_t *val;
} madpost_opt_whole_t;
/* A figure command's line of --KEY VALUE pairs: --help, --format (into *fmt, a MADPOST_ROWS_*)
   and the options of opt: 0, or 1 with the exit status in *rc (help shown, or an error said on
   stderr). */
int madpost_opt_args(const char *cmd, int argc, char **argv, const madpost_opt_whole_t *opt,
                     int nopt, int (*usage)(FILE *), int *fmt, int *rc);

#endif
