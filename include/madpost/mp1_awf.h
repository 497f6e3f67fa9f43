/* Wide addresses (docs/mp1.md §14): the compile-time width tokens of the MP1 port lists and the
 * run-time address word of AWF flits, in one place for every port list and model. */
#ifndef MADPOST_MP1_AWF_H
#define MADPOST_MP1_AWF_H

#include <stdint.h>

/* Address flits per address word for the port lists' widths: 1 (MP1 as §1-13) or 2. The
 * testbenches and tools/portlist set it (-DMP1_AWF=2) to match an RTL built with -GAWF=2; the C
 * library takes AWF at run time (mp1_rm_cfg_t) and uses the port lists only for field names and
 * storage types, never their widths. */
#ifndef MP1_AWF
#define MP1_AWF 1
#endif

/* The widths that depend on AWF, as tokens in the port lists: MP1_AWB is AW (an address: pos,
 * opos, px, py, xmax, ymax), MP1_AWR 3 + AW (a code and an address: the a1, a2 registers). An
 * X-macro callback that pastes a width into a type name (MP1_UINT_##width) must paste it directly:
 * passed on through another macro's parameter, the token would be expanded to its number first. */
#define MP1_AWB (5 + 8 * (MP1_AWF - 1))
#define MP1_AWR (3 + MP1_AWB)

enum { MP1_AWF_MAX = 2 };

/* Address bits of a word of awf flits (§14): 5, or 13 at awf = 2 (anything else is taken as 1). */
static inline uint32_t mp1_aw(uint32_t awf) { return awf == 2 ? 13u : 5u; }

/* Positions per dimension an address word of awf flits can name: 32 or 8192. */
static inline uint32_t mp1_addr_span(uint32_t awf) { return 1u << mp1_aw(awf); }

/* The address word {code, addr} (§14.1), 3 + AW bits. */
static inline uint32_t mp1_addr_word(uint32_t awf, uint32_t code, uint32_t addr) {
  const uint32_t aw = mp1_aw(awf);
  return ((code & 7u) << aw) | (addr & ((1u << aw) - 1u));
}

/* Flit f (0 first) of an address word of awf flits, most significant first (§14.1): the first
 * is {code, addr[AW-1:AW-5]}, each further one 8 more address bits. */
static inline uint32_t mp1_addr_flit(uint32_t awf, uint32_t word, uint32_t f) {
  return (word >> (8u * ((awf == 2 ? 2u : 1u) - 1u - f))) & 0xffu;
}

#endif
