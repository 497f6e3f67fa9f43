/* Golden cycle-accurate model of one DS-Link link end (docs/dslink.md): the house block shape,
 * a pure eval from registers and inputs to outputs and next registers, then a clock edge. */
#ifndef MADPOST_DSLINK_H
#define MADPOST_DSLINK_H

#include <madpost/madpost_api.h>
#include <stdint.h>
#include <stddef.h>

#include <madpost/block.h>
#include <madpost/dslink_ports.h>

MADPOST_BEGIN_DECLS

enum {
  DSLINK_RX_DEPTH_MAX = 128,
  DSLINK_TX_DEPTH_MAX = 128,
  DSLINK_RXF_ENTRIES_MAX = DSLINK_RX_DEPTH_MAX + 1
};

/* Packet-interface token kinds (tx_kind_i, rx_kind_o). */
typedef enum {
  DSLINK_KIND_DATA = 0,
  DSLINK_KIND_EOP = 1,
  DSLINK_KIND_EOM = 2,
  DSLINK_KIND_ERR = 3
} dslink_kind_e;

/* Link states (fsm_state, link_state_o). */
typedef enum {
  DSLINK_ST_ERROR_RESET = 0,
  DSLINK_ST_ERROR_WAIT = 1,
  DSLINK_ST_READY = 2,
  DSLINK_ST_STARTED = 3,
  DSLINK_ST_CONNECTING = 4,
  DSLINK_ST_RUN = 5
} dslink_state_e;

/* Control codes on the wire. */
typedef enum {
  DSLINK_CTL_FCT = 0,
  DSLINK_CTL_EOP = 1,
  DSLINK_CTL_EOM = 2,
  DSLINK_CTL_ESC = 3
} dslink_ctl_e;

typedef struct {
#define DSLINK_X_CFG(rtl, field, def) uint32_t field;
  DSLINK_PARAMS(DSLINK_X_CFG)
#undef DSLINK_X_CFG
} dslink_cfg_t;

#define DSLINK_X_FIELD(name, count, width) uint32_t name;
typedef struct {
  DSLINK_INPUTS(DSLINK_X_FIELD)
} dslink_in_t;

typedef struct {
  DSLINK_OUTPUTS(DSLINK_X_FIELD)
} dslink_out_t;

/* Every architectural register, named as in the RTL without _q. */
typedef struct {
  DSLINK_REGS(DSLINK_X_FIELD)
} dslink_regs_t;
#undef DSLINK_X_FIELD

/* Registers plus FIFO storage ({kind[1:0], data[7:0]} per entry). */
typedef struct {
  dslink_regs_t r;
  uint16_t txf_mem[DSLINK_TX_DEPTH_MAX];
  uint16_t rxf_mem[DSLINK_RXF_ENTRIES_MAX];
} dslink_state_t;

/* What one eval decides: next registers and the FIFO write ports, applied by dslink_clock(). */
typedef struct {
  dslink_regs_t r;
  uint8_t txf_we, rxf_we;
  uint8_t txf_waddr, rxf_waddr;
  uint16_t txf_wdata, rxf_wdata;
} dslink_next_t;

/* Per-cycle events, for counters and figures outside the block (not ports; derived, not state). */
typedef struct {
  uint8_t fct_sent;      /* an FCT was loaded onto the wire */
  uint8_t fct_rcvd;      /* an FCT was confirmed */
  uint8_t normal_sent;   /* a DATA/EOP/EOM token was loaded onto the wire */
  uint8_t nchar_rcvd;    /* a DATA/EOP/EOM token was accepted into the receive FIFO */
  uint8_t null_sent;     /* a NULL was loaded onto the wire */
  uint8_t link_rst;      /* the link goes to (or stays in) ErrorReset at this edge */
} dslink_ev_t;

void dslink_cfg_default(dslink_cfg_t *cfg);
/* 0 if cfg is legal; otherwise -1 and a message naming the bad field in err. */
int dslink_cfg_check(const dslink_cfg_t *cfg, char *err, size_t errlen);

void dslink_reset(const dslink_cfg_t *cfg, dslink_state_t *st);
/* Pure: reads cfg, st, in; writes out, nx and (if not NULL) ev. Returns 0, or -1 if an internal
 * invariant broke (receive FIFO overflow: a model bug, never a user error). */
int dslink_eval(const dslink_cfg_t *cfg, const dslink_state_t *st, const dslink_in_t *in,
                dslink_out_t *out, dslink_next_t *nx, dslink_ev_t *ev);
void dslink_clock(dslink_state_t *st, const dslink_next_t *nx);
MADPOST_BLOCK_CONTRACT(dslink);

/* Outputs only (a function of registers): what a peer sees this cycle. */
void dslink_outputs(const dslink_cfg_t *cfg, const dslink_state_t *st, dslink_out_t *out);

const char *dslink_state_name(uint32_t state);
const char *dslink_kind_name(uint32_t kind);

MADPOST_END_DECLS
#endif
