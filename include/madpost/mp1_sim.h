/* The MP1 network simulator (docs/mp1_sim.md): the mesh C model of docs/mp1.md §12, driven by
 * per-node traffic sources and node interfaces, measured with the metrics of seed 004 §4.2. */
#ifndef MADPOST_MP1_SIM_H
#define MADPOST_MP1_SIM_H

#include <madpost/madpost_api.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <madpost/mp1_mesh.h>
#include <madpost/net_traffic.h>
#include <madpost/madpost_rng.h>

MADPOST_BEGIN_DECLS

typedef enum { MP1_ROUTE_OBLIVIOUS = 0, MP1_ROUTE_RESTRICTIVE, MP1_ROUTE_ADAPTIVE } mp1_route_e;
typedef enum { MP1_MODE_ASYNC = 0, MP1_MODE_SYNC } mp1_mode_e;
/* Torus injection (004 §5.5): 004's randomised rule, its fixed rule, or uniformly random levels. */
typedef enum { MP1_TINJ_PAPER = 0, MP1_TINJ_FIXED, MP1_TINJ_RANDOM } mp1_tinj_e;
/* Broadcast (sync mode): MP1's hardware broadcast, or one message per destination in turn. */
typedef enum { MP1_BCAST_NONE = 0, MP1_BCAST_HW, MP1_BCAST_P2P } mp1_bcast_e;

enum { MP1_SIM_QUEUE = 10, MP1_SIM_MAX_SEEDS = 64 };
/* The longest warm-up, window or drain (cycles): a 16x16 run of this many takes hours. */
#define MP1_SIM_CYCLES_MAX UINT64_C(1000000000)

/* Every parameter of a run; mp1_sim_cfg_default() gives seed 004's defaults. */
typedef struct {
  uint32_t kx, ky;
  uint32_t torus;             /* 1: a torus of four chips per node (docs/mp1_sim.md §7) */
  uint32_t awf;               /* address flits per address word: 0 auto (mp1_sim_awf), 1 or 2 */
  mp1_tinj_e torus_inject;
  mp1_route_e route;
  net_traffic_cfg_t traffic;  /* pattern, hot spot (kx, ky filled in from the network) */
  mp1_bcast_e bcast;          /* traffic broadcast | bcast-p2p instead of the pattern */
  uint32_t bcast_src;         /* the broadcasting node */
  uint32_t bcast_size;        /* side of the square domain from the source (0: to the far corner) */
  mp1_mode_e mode;            /* async: arrivals at random times; sync: one message per node at 0 */
  net_arrival_cfg_t arrival;  /* kind and burst; rate comes from load */
  double load;                /* offered load, percent of the bisection bound 8 / (3 n) flits */
  uint32_t len;               /* message bytes, header included: one per address word (the data
                               * do not depend on awf; docs/mp1_sim.md §2.1) */
  uint32_t queue;             /* injection queue (messages) */
  uint32_t zero_random;       /* an offset of 0 picks either plane at random (else the + one) */
  uint64_t warmup, measure;   /* cycles */
  uint64_t drain;             /* at most this many cycles after the window to deliver the rest */
  uint64_t seed;
  uint32_t seeds;             /* runs averaged, seeds seed .. seed + seeds - 1 */
  FILE *trace;                /* not a parameter: if set, one CSV line per delivered message */
} mp1_sim_cfg_t;

void mp1_sim_cfg_default(mp1_sim_cfg_t *c);
/* Sets one parameter from text (command-line option or config-file key). 0, or -1 with a message
 * naming the key and the problem in err (unknown key, bad value). */
int mp1_sim_cfg_set(mp1_sim_cfg_t *c, const char *key, const char *val, char *err, size_t errlen);
/* Reads an INI file of the same keys (sections optional: [network], [traffic], [run]). */
int mp1_sim_cfg_load(mp1_sim_cfg_t *c, const char *path, char *err, size_t errlen);
/* Cross-checks (pattern against network, lengths); 0 or -1 with a message. */
int mp1_sim_cfg_check(const mp1_sim_cfg_t *c, char *err, size_t errlen);
/* Every parameter as "key": value pairs of a JSON object body, or as key=value CSV comment lines. */
void mp1_sim_cfg_json(const mp1_sim_cfg_t *c, FILE *f);
void mp1_sim_cfg_text(const mp1_sim_cfg_t *c, FILE *f, const char *prefix);
/* Messages per node per cycle that the offered load means for this network and length. */
double mp1_sim_rate(const mp1_sim_cfg_t *c);
/* The address flits per word a run uses (docs/mp1.md §14): awf if set, else 1 when every address
 * of the chip mesh (a torus's is twice as wide) fits 5 bits, else 2. */
uint32_t mp1_sim_awf(const mp1_sim_cfg_t *c);

/* Figures of one run; window figures cover the measured cycles only. */
typedef struct {
  uint64_t seed;
  /* conservation, whole run */
  uint64_t generated;     /* messages the sources asked to send */
  uint64_t overflow;      /* dropped: the injection queue was full (saturation) */
  uint64_t delivered;     /* complete at their destination, intact */
  uint64_t corrupt;       /* received with wrong length or bytes (counted, never matched) */
  uint64_t net_dropped;   /* dropped by the chips (bad code, address, cut), from their counters */
  uint64_t net_stray;     /* the chips' stray counters (machines' cnt_stray, cnt_inj_stray): a
                           * segment that found both slots full is one; none in a correct run */
  uint64_t in_queue, in_network; /* at the end */
  uint64_t win_sent;      /* of the messages injected, those sent in the window, without their
                           * selection (docs/mp1_draft4.md §10.2, §10.4) */
  /* window */
  uint64_t w_generated, w_overflow, w_delivered, w_bytes;
  double lat_mean, lat_max, lat_sd;  /* injection-queue entry to completed reception, cycles */
  double inj_delay_mean;             /* queue entry to the first header chunk on the channel */
  double net_lat_mean;               /* first header chunk injected to completed reception */
  double hops_mean;                  /* minimal hop count of the delivered messages */
  double thr_bytes;                  /* delivered bytes per cycle, whole network */
  double thr_frac;                   /* accepted flits per node per cycle / (8 / (3 n)), percent */
  double util_mean, util_max;        /* channel multiplexers assigned, percent; dead flits included */
  double util_msg_max, util_dead_mean; /* the same split: live messages only (max), dead flits (mean) */
  double util_wait_mean, util_wait_max; /* of util, cycles assigned with no chunk of a flit and no
                                         * end code on the wire (max: the busiest channel's) */
  double adapt_per_msg, adapt_buf_per_msg;
  double buf_hold_mean;              /* routing machines holding a waiting segment (HOLD), mean */
  double buf_busy_mean;              /* routing machines not IDLE, mean */
  double queue_mean;                 /* injection-queue messages per node, mean */
  int saturated;                     /* the injection queue overflowed in the window */
  /* sync mode */
  uint64_t completion;               /* cycle the last message was received (+1) */
  int complete;                      /* every message delivered */
} mp1_sim_result_t;

/* Per-channel message counts (live crossings) for the analytic comparison: chan[node * 8 + j].
 * wait and wait_stopped may be NULL: a run only counts what is asked for. */
typedef struct {
  uint64_t *cross;    /* messages whose live path crossed output channel j of node */
  uint64_t *busy;     /* cycles in the window the channel's multiplexer was assigned */
  uint64_t *dead;     /* of those, cycles carrying a dead flit */
  uint64_t *wait;     /* of busy, cycles owned but waiting (docs/mp1_sim.md §4) */
  uint64_t *wait_stopped; /* of wait, cycles the receiver's stop was high */
} mp1_sim_chan_t;

/* Runs one seed. chan may be NULL; progress (0..1) is reported through cb if given. Returns 0, or
 * -1 with a message (out of memory; a chip's err, where the run stops: docs/mp1_sim.md §4). */
typedef void (*mp1_sim_progress_fn)(void *ctx, double frac);
int mp1_sim_run(const mp1_sim_cfg_t *c, uint64_t seed, mp1_sim_result_t *r, mp1_sim_chan_t *chan,
                mp1_sim_progress_fn cb, void *cb_ctx, char *err, size_t errlen);


/* Peak memory the simulator allocates per node for this network (bytes). */
size_t mp1_sim_bytes_per_node(const mp1_sim_cfg_t *c);

MADPOST_END_DECLS
#endif
