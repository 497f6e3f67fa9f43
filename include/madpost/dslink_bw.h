/* DS-Link throughput measured on the C model with T9000-style endpoints, beside the bandwidth
 * model of seed 000 §4.1.4.1 (eq. 4.1 one way, eq. 4.2 both ways). */
#ifndef MADPOST_DSLINK_BW_H
#define MADPOST_DSLINK_BW_H

#include <madpost/madpost_api.h>
#include <stdint.h>

#include <madpost/dslink.h>

MADPOST_BEGIN_DECLS

typedef enum {
  DSLINK_BW_ONE_WAY = 0,   /* a sends, b receives and acknowledges */
  DSLINK_BW_TWO_WAY = 1,   /* a sender and a receiver at each end, b starting half a packet later */
  DSLINK_BW_LOCKSTEP = 2   /* both ways, both senders starting in the same cycle */
} dslink_bw_mode_e;

typedef struct {
  double mbps;        /* data throughput a->b in Mbit/s at 100 Mbit/s per bit period */
  uint64_t cycles;    /* cycles in the measured window */
  uint64_t messages;  /* messages in the measured window */
  uint64_t fcts;      /* FCTs a sent in the window */
  uint64_t nulls;     /* NULLs a sent in the window: 0 means the link a->b never idled */
} dslink_bw_t;

/* Virtual links each way in the capacity runs: enough that acknowledgement latency never idles
 * the link (checked: no NULL in the window), so eq. 4.1/4.2's bit accounting is what is measured. */
#ifndef DSLINK_BW_CAP_VL
#define DSLINK_BW_CAP_VL 12
#endif

/* Link bit rate the figures are scaled to (seed 000: 100 Mbit/s). */
#define DSLINK_BW_LINK_MBPS 100.0

/* Eq. 4.1 / 4.2 for a message of m bytes (0 for m = 0). */
double dslink_bw_formula(uint32_t m, dslink_bw_mode_e mode);
/* Runs two model link ends back to back, nvl virtual links each way (1 is the published
 * setting; 2 hides acknowledgement latency, so the link is never idle and its capacity shows);
 * 0, or -1 with a message in err. */
int dslink_bw_measure(const dslink_cfg_t *cfg, uint32_t m, dslink_bw_mode_e mode, uint32_t nvl,
                      uint32_t messages, dslink_bw_t *res, char *err, size_t errlen);

/* One row of the figures table (docs/dslink.md §9), all in Mbit/s; diffs in percent against the
 * equations, for the capacity (DSLINK_BW_CAP_VL virtual links) measurements; the *_cap fields hold
 * those capacity figures. */
typedef struct {
  uint32_t bytes;
  double one_way_1vl, one_way_cap, eq41, diff41;
  double two_way_1vl, lockstep_1vl, two_way_cap, eq42, diff42;
  uint64_t cap_nulls; /* NULLs in both capacity windows */
} dslink_bw_row_t;

int dslink_bw_row(const dslink_cfg_t *cfg, uint32_t m, uint32_t messages, dslink_bw_row_t *row,
                  char *err, size_t errlen);

MADPOST_END_DECLS
#endif
