/* Golden cycle-accurate model of one MP1 routing machine (docs/mp1.md §8): the house block shape,
 * outputs from registers (and the combinational requests of §8.1), pure eval, clock edge. */
#ifndef MADPOST_MP1_RM_H
#define MADPOST_MP1_RM_H

#include <stdint.h>

#include "mp1_rm_ports.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { MP1_RM_BUF = 128 };

typedef enum {
  MP1_RM_IDLE = 0,
  MP1_RM_PASS = 1,
  MP1_RM_HOLD = 2,
  MP1_RM_EMIT = 3,
  MP1_RM_WAIT = 4,
  MP1_RM_DROP = 5
} mp1_rm_state_e;

/* Output copies (bits of route and act). */
enum { MP1_RM_ST = 0, MP1_RM_OT = 1, MP1_RM_RC = 2, MP1_RM_PB = 3, MP1_RM_NOUT = 4 };

/* Chunks (docs/mp1.md §2.1). */
enum { MP1_CH_IDLE = 0, MP1_CH_EOS = 1, MP1_CH_EOM = 2, MP1_CH_ILLEGAL = 3 };

/* Control codes (docs/mp1.md §3.1). */
enum {
  MP1_CODE_P2P_STATIC = 0,
  MP1_CODE_P2P_ADAPTIVE = 1,
  MP1_CODE_DELIVER = 2,
  MP1_CODE_PIGGY_INTRA = 3,
  MP1_CODE_BCAST_2D = 4,
  MP1_CODE_BCAST_1D = 5,
  MP1_CODE_PIGGY_INTER = 6,
  MP1_CODE_ILLEGAL = 7
};

#define MP1_RM_X_FIELD(name, width) uint32_t name;
typedef struct {
  MP1_RM_INPUTS(MP1_RM_X_FIELD)
} mp1_rm_in_t;
typedef struct {
  MP1_RM_OUTPUTS(MP1_RM_X_FIELD)
} mp1_rm_out_t;
typedef struct {
  MP1_RM_REGS(MP1_RM_X_FIELD)
} mp1_rm_regs_t;
#undef MP1_RM_X_FIELD

/* The routing machine has no parameters; its node position arrives on input ports. */
typedef struct {
  mp1_rm_regs_t r;
  uint8_t mem[MP1_RM_BUF]; /* {endc, chunk[2:0]} */
} mp1_rm_state_t;

typedef struct {
  mp1_rm_regs_t r;
  uint8_t we, waddr, wdata;
} mp1_rm_next_t;

void mp1_rm_reset(mp1_rm_state_t *st);
void mp1_rm_eval(const mp1_rm_state_t *st, const mp1_rm_in_t *in, mp1_rm_out_t *out,
                 mp1_rm_next_t *nx);
void mp1_rm_clock(mp1_rm_state_t *st, const mp1_rm_next_t *nx);

const char *mp1_rm_state_name(uint32_t s);

#ifdef __cplusplus
}
#endif
#endif
