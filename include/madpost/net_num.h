/* Numbers from text (command-line options and configuration files), parsed in one place so that
 * every command refuses the same things: signs on whole numbers, spaces, hex, NaN and infinity,
 * values that would wrap around, trailing characters. Each takes its range; 0 and *out set, or -1
 * with *out untouched (the caller names the option and prints the range). */
#ifndef MADPOST_NET_NUM_H
#define MADPOST_NET_NUM_H

#include <madpost/madpost_api.h>
#include <stdint.h>

MADPOST_BEGIN_DECLS

/* Decimal digits only, in lo..hi. */
int net_num_whole(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);
/* The same into a 32-bit value (hi at most UINT32_MAX). */
int net_num_whole32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out);
/* [-]digits[.digits][e[+-]digits] (or .digits), finite, in lo..hi. */
int net_num_real(const char *s, double lo, double hi, double *out);
/* "A<sep>B", A and B whole numbers in lo..hi each (e.g. 16x16, 3,2). */
int net_num_pair(const char *s, char sep, uint32_t lo, uint32_t hi, uint32_t *a, uint32_t *b);

MADPOST_END_DECLS

#endif
