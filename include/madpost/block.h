/* The block contract every C block follows (docs/architecture.md, "The block contract"), and the
 * macro that makes the compiler check a block's functions against it. */
#ifndef MADPOST_BLOCK_H
#define MADPOST_BLOCK_H

/* A block <p> declares seven types and three functions:
 *
 *   p_cfg_t    parameters, fixed for a run (what the RTL takes as parameters);
 *   p_in_t     input ports, p_out_t output ports (include/madpost/<p>_ports.h where the block
 *              has RTL);
 *   p_state_t  registers and memories, everything that survives a clock edge;
 *   p_next_t   what one cycle decides: the next registers and memory writes;
 *   p_ev_t     per-cycle events: what happened this cycle, for counters, tracking and figures
 *              outside the block. Derived from state and inputs, never state, never read back
 *              by the block.
 *
 *   void p_reset(const p_cfg_t *cfg, p_state_t *st);
 *       every register and memory word to its reset value (rst_ni low).
 *   int p_eval(const p_cfg_t *cfg, const p_state_t *st, const p_in_t *in, p_out_t *out,
 *              p_next_t *nx, p_ev_t *ev);
 *       pure: reads cfg, st and in only, writes out, nx and (when ev is not NULL) ev; the same
 *       arguments give the same results, whatever out, nx and ev held before. Returns 0, or -1
 *       when an internal bound or invariant broke (a model bug, never a user error; a message
 *       goes to stderr where the block says so).
 *   void p_clock(p_state_t *st, const p_next_t *nx);
 *       the rising edge: st becomes what nx says. Reads nothing else.
 *
 * A block may offer more (p_outputs from state alone, p_cfg_check, allocation for blocks whose
 * size is a parameter, read-only queries on the state); those are outside the contract. */

/* MADPOST_BLOCK_CONTRACT(p): compile-time proof that p_reset, p_eval and p_clock have exactly the
 * contract's types. Put once after a block's declarations; a signature that drifts fails the
 * build, in C and in C++ (the lockstep benches include the same headers). */
#ifdef __cplusplus
#include <type_traits>
#define MADPOST_BLOCK_CONTRACT(p)                                                                  \
  static_assert(std::is_same<decltype(&p##_reset), void (*)(const p##_cfg_t *, p##_state_t *)>::value, \
                #p "_reset breaks the block contract (include/madpost/block.h)");                \
  static_assert(std::is_same<decltype(&p##_eval),                                                \
                             int (*)(const p##_cfg_t *, const p##_state_t *, const p##_in_t *,   \
                                     p##_out_t *, p##_next_t *, p##_ev_t *)>::value,             \
                #p "_eval breaks the block contract (include/madpost/block.h)");                 \
  static_assert(std::is_same<decltype(&p##_clock), void (*)(p##_state_t *, const p##_next_t *)>::value, \
                #p "_clock breaks the block contract (include/madpost/block.h)")
#else
#define MADPOST_BLOCK_CONTRACT(p)                                                                  \
  _Static_assert(_Generic(&p##_reset, void (*)(const p##_cfg_t *, p##_state_t *): 1, default: 0), \
                 #p "_reset breaks the block contract (include/madpost/block.h)");               \
  _Static_assert(_Generic(&p##_eval,                                                             \
                          int (*)(const p##_cfg_t *, const p##_state_t *, const p##_in_t *,      \
                                  p##_out_t *, p##_next_t *, p##_ev_t *): 1,                     \
                          default: 0),                                                           \
                 #p "_eval breaks the block contract (include/madpost/block.h)");                \
  _Static_assert(_Generic(&p##_clock, void (*)(p##_state_t *, const p##_next_t *): 1, default: 0), \
                 #p "_clock breaks the block contract (include/madpost/block.h)")
#endif

#endif
