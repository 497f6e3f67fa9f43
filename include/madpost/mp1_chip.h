/* Golden model of one MP1 chip (docs/mp1.md §11, with docs/mp1_draft4.md §8 and §10): four
 * planes, the reception and piggy-back round-robin arbiters and the injection controller, in the
 * house block shape. */
#ifndef MADPOST_MP1_CHIP_H
#define MADPOST_MP1_CHIP_H

#include <madpost/madpost_api.h>
#include <stdint.h>

#include <madpost/block.h>
#include <madpost/mp1_chip_ports.h>
#include <madpost/mp1_plane.h>

MADPOST_BEGIN_DECLS

enum { MP1_CHIP_PLANES = 4, MP1_CHIP_MACHINES = 8 };

/* Injection front-end states (§11.3; NEXT and WIN: draft-4 §10.2). */
typedef enum {
  MP1_FE_FREE = 0,
  MP1_FE_SEL = 1,
  MP1_FE_PEND = 2,
  MP1_FE_FWD = 3,
  MP1_FE_SKIP = 4,
  MP1_FE_NEXT = 5,
  MP1_FE_WIN = 6
} mp1_fe_state_e;

/* Selection flit bit 1: fork (draft-4 §10.3), valid only with dim 0. */
enum { MP1_SEL_FORK = 2 };

#define MP1_CHIP_X_FIELD(name, count, width) uint32_t name;
typedef struct {
  MP1_CHIP_INPUTS(MP1_CHIP_X_FIELD)
} mp1_chip_in_t;
typedef struct {
  MP1_CHIP_OUTPUTS(MP1_CHIP_X_FIELD)
} mp1_chip_out_t;
/* The chip's own registers, named as the RTL's debug ports. */
#define MP1_CHIP_X_REG(name, count, width) MP1_UINT_##width name; /* pasted directly: mp1_awf.h */
typedef struct {
  MP1_CHIP_REGS(MP1_CHIP_X_REG)
} mp1_chip_regs_t;
#undef MP1_CHIP_X_FIELD
#undef MP1_CHIP_X_REG

/* The per-plane ports are flat fields p<k>_<port>, as the RTL names them. For code that takes the
 * planes, or their eight channels (j = 2 p + dim: X then Y of each plane), in turn, the port list
 * generates the copies (S is what comes before the field: `in->`, `&in.`):
 * MP1_CHIP_PER_PLANE(S, port)             S p0_port, ..., S p3_port,   (an initializer's elements)
 * MP1_CHIP_PER_CHANNEL(S, xport, yport)   S p0_xport, S p0_yport, ..., S p3_yport,
 * MP1_CHIP_SET_PER_PLANE(S, port, a)      S p<k>_port = a[k]; for each plane k
 * MP1_CHIP_SET_PER_CHANNEL(S, xport, yport, a)   S p<k>_xport = a[2k]; S p<k>_yport = a[2k + 1]; */
#define MP1_CHIP_AT_PLANE_(P, K, S, F) S P##_##F,
#define MP1_CHIP_PER_PLANE(S, F) MP1_CHIP_PLANE_LIST(MP1_CHIP_AT_PLANE_, S, F)
#define MP1_CHIP_AT_CHANNEL_(P, K, S, FX, FY) S P##_##FX, S P##_##FY,
#define MP1_CHIP_PER_CHANNEL(S, FX, FY) MP1_CHIP_PLANE_LIST(MP1_CHIP_AT_CHANNEL_, S, FX, FY)
#define MP1_CHIP_SET_PLANE_(P, K, S, F, A) S P##_##F = (A)[K];
#define MP1_CHIP_SET_PER_PLANE(S, F, A) MP1_CHIP_PLANE_LIST(MP1_CHIP_SET_PLANE_, S, F, A)
#define MP1_CHIP_SET_CHANNEL_(P, K, S, FX, FY, A) \
  S P##_##FX = (A)[2 * (K)], S P##_##FY = (A)[2 * (K) + 1];
#define MP1_CHIP_SET_PER_CHANNEL(S, FX, FY, A) \
  MP1_CHIP_PLANE_LIST(MP1_CHIP_SET_CHANNEL_, S, FX, FY, A)

/* The chip's parameter, passed to its planes (docs/mp1.md §14.3): address flits per word. */
typedef struct {
  uint32_t awf;
} mp1_chip_cfg_t;

typedef struct {
  mp1_chip_regs_t r;
  mp1_plane_state_t pl[MP1_CHIP_PLANES];
} mp1_chip_state_t;

typedef struct {
  mp1_chip_regs_t r;
  mp1_plane_next_t pl[MP1_CHIP_PLANES];
} mp1_chip_next_t;

/* Per-cycle events (derived from state and inputs, not state): the planes' (machines and output
 * channels) and the injection controller's, what the network simulator measures
 * (docs/mp1_sim.md §4) instead of reading registers. */
typedef struct {
  mp1_plane_ev_t pl[MP1_CHIP_PLANES];
  uint8_t drop;  /* messages the injection controller dropped at this edge (cnt_sel_bad and
                  * cnt_inj_drop's growth) */
  uint8_t stray; /* its strays (cnt_inj_stray's growth) */
} mp1_chip_ev_t;

/* The block contract (include/madpost/block.h); eval returns 0 (err is a port). */
void mp1_chip_reset(const mp1_chip_cfg_t *cfg, mp1_chip_state_t *st);
int mp1_chip_eval(const mp1_chip_cfg_t *cfg, const mp1_chip_state_t *st, const mp1_chip_in_t *in,
                  mp1_chip_out_t *out, mp1_chip_next_t *nx, mp1_chip_ev_t *ev);
void mp1_chip_clock(mp1_chip_state_t *st, const mp1_chip_next_t *nx);
MADPOST_BLOCK_CONTRACT(mp1_chip);

/* Nothing in the chip holds a message: no machine holds one or discards a segment, no output
 * owned, no injection front end busy. (A run drains when every chip and interface is idle.) */
int mp1_chip_idle(const mp1_chip_state_t *st);

/* The 8-requester round-robin arbiter (§11.2, draft-4 §8): next owner (0 none, m + 1) and last
 * granted; an owner that asks keeps the channel except at an EOM on it (eom), where the round
 * then starts after it, so it goes last. */
void mp1_rr_next(uint32_t own, uint32_t last, uint32_t eom, const uint32_t req[MP1_CHIP_MACHINES],
                 uint32_t *own_d, uint32_t *last_d);

/* Selection flit (§11.3): chip, plane p (0 (+X,+Y), 1 (+X,-Y), 2 (-X,+Y), 3 (-X,-Y)), first
 * dimension (0 X, 1 Y). */
static inline uint32_t mp1_sel_flit(uint32_t chip, uint32_t plane, uint32_t dim) {
  return ((chip & 7u) << 5) | ((plane & 3u) << 3) | ((dim & 1u) << 2);
}

MADPOST_END_DECLS
#endif
