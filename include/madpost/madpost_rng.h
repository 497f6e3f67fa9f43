/* Deterministic pseudo-random streams (xoshiro256** seeded by splitmix64): the same seed gives the
 * same sequence on every machine and compiler, which the project's determinism rests on. */
#ifndef MADPOST_RNG_H
#define MADPOST_RNG_H

#include <stdint.h>

typedef struct {
  uint64_t s[4];
} madpost_rng_t;

static inline uint64_t madpost_rng_splitmix64(uint64_t *x) {
  uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

/* Stream `stream` of seed `seed`: independent streams (per node, per direction) from one seed. */
static inline void madpost_rng_seed(madpost_rng_t *r, uint64_t seed, uint64_t stream) {
  uint64_t x = seed ^ (stream * UINT64_C(0xD1B54A32D192ED03));
  for (int i = 0; i < 4; i++)
    r->s[i] = madpost_rng_splitmix64(&x);
}

static inline uint64_t madpost_rng_next(madpost_rng_t *r) {
  uint64_t *s = r->s;
  const uint64_t t = s[1] << 17;
  uint64_t res = s[1] * 5;
  res = ((res << 7) | (res >> 57)) * 9;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = (s[3] << 45) | (s[3] >> 19);
  return res;
}

/* Uniform in [0, n), n > 0 (Lemire's multiply-shift with rejection: exact, no modulo bias). */
static inline uint32_t madpost_rng_below(madpost_rng_t *r, uint32_t n) {
  uint64_t m = (madpost_rng_next(r) >> 32) * (uint64_t)n;
  uint32_t l = (uint32_t)m;
  if (l < n) {
    const uint32_t t = (uint32_t)(-n) % n;
    while (l < t) {
      m = (madpost_rng_next(r) >> 32) * (uint64_t)n;
      l = (uint32_t)m;
    }
  }
  return (uint32_t)(m >> 32);
}

/* True with probability num/den. */
static inline int madpost_rng_chance(madpost_rng_t *r, uint32_t num, uint32_t den) {
  return madpost_rng_below(r, den) < num;
}

/* Uniform double in [0, 1): 53 random bits times 2^-53 (written as a quotient, exact: a hex float
 * literal is not C++ before C++17). */
static inline double madpost_rng_unit(madpost_rng_t *r) {
  return (double)(madpost_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
