/* Networks of C104 switches and T9000-style endpoints (docs/c104.md §17): a pair, a line, a 2-D
 * grid, the PUMA machine; generated interval tables, pattern-driven VL wiring, workload, packet
 * tracking outside the hardware and the figures of §17.6. Every block evaluated, then clocked. */
#ifndef MADPOST_C104_NET_H
#define MADPOST_C104_NET_H

#include <madpost/madpost_api.h>
#include <stddef.h>
#include <stdint.h>

#include <madpost/c104.h>
#include <madpost/dslink.h>
#include <madpost/net_traffic.h>
#include <madpost/madpost_rng.h>
#include <madpost/t9k_node.h>

MADPOST_BEGIN_DECLS

typedef enum {
  C104_NET_PAIR = 0, /* two endpoints, one link each, wired directly (§18.2) */
  C104_NET_LINE,     /* s switches in a chain, an endpoint at each end (s = 0 is the pair) */
  C104_NET_GRID,     /* W x H switches, one endpoint of 4 links each (§17.1) */
  C104_NET_PUMA,     /* 64 switches as a double 6-cube, 4 endpoints each (§17.3) */
  C104_NET_TOPO_COUNT
} c104_net_topo_e;

/* Traffic pattern: the MP1 simulator's (net_traffic.h), or none (messages only from
 * c104_net_send). */
#define C104_NET_PATTERN_NONE NET_TR_COUNT

enum { C104_NET_MAX_SEEDS = 64, C104_NET_TRACK = 64 };

/* Every parameter of a run; c104_net_cfg_default() gives §17's defaults. */
typedef struct {
  c104_net_topo_e topo;
  uint32_t gw, gh;      /* grid W x H */
  uint32_t switches;    /* line: s */
  uint32_t universal;   /* 1: two-phase routing (grid, PUMA) */
  uint32_t grid_links;  /* grid: links to each neighbour: 0 auto (1, or 2 with universal routing:
                           one per phase), 1, or 2 (without universal routing a hunt group of
                           two, §17.1) */
  uint32_t rr;          /* 1: round-robin arbitration, 0: FIFO */
  uint32_t pattern;     /* net_pattern_e, or C104_NET_PATTERN_NONE */
  uint32_t hot_node;
  double hot_frac;
  net_arrival_cfg_t arrival; /* kind and burst; the rate comes from load or iat */
  double load;          /* percent of one link's data bandwidth per node (§17.5) */
  double iat;           /* mean cycles between a node's messages; > 0 overrides load */
  uint32_t msg_len;     /* message bytes */
  uint32_t vls;         /* K; 0: chosen from the pattern (§17.4). Pair and line without a
                           pattern: K parallel VLs, end c of node 0 joined to end c of node 1 */
  uint32_t hbytes;      /* H: 0 chosen from the header space (§16.1), 1 or 2 forced (§17) */
  uint32_t qlimit;      /* per node (§17.5) */
  uint64_t warmup, measure;
  uint64_t seed;
  uint32_t seeds;       /* runs, seeds seed .. seed + seeds - 1 (for tools) */
} c104_net_cfg_t;

void c104_net_cfg_default(c104_net_cfg_t *c);
/* 0, or -1 with a message naming the problem (network size, pattern against network, header
 * space, K, lengths). */
int c104_net_cfg_check(const c104_net_cfg_t *c, char *err, size_t errlen);
/* Cycles one message of len bytes takes on a link with H-byte headers: the load's unit (§17.5). */
double c104_net_msg_cycles(uint32_t len, uint32_t hbytes);
/* Messages per node per cycle that the configuration means. */
double c104_net_rate(const c104_net_cfg_t *c, uint32_t hbytes);

const char *c104_net_topo_name(c104_net_topo_e t);
int c104_net_topo_parse(const char *s, c104_net_topo_e *t);

/* A link end of the network: switch s port p, or link l of node n. */
typedef enum { C104_END_NONE = 0, C104_END_SW, C104_END_NODE } c104_end_kind_e;
typedef struct {
  uint32_t kind, idx, port; /* kind, switch or node, port or link */
} c104_net_end_t;

/* One tracked packet at its delivery (§17.6). Times are cycles; UINT64_MAX: never happened. */
typedef struct {
  uint32_t hdr;          /* its header, the id: unique among packets in flight (§17.6) */
  uint32_t ack;          /* 1: an acknowledgement */
  uint32_t src, dst;     /* nodes */
  uint64_t t_create;     /* E2 (first packet of a message) or E1 */
  uint64_t t_out;        /* first token loaded onto the injection link */
  uint64_t t_int;        /* first token loaded onto a switch-to-switch link (loopback included) */
  uint64_t t_deliver;    /* end token popped by the destination */
} c104_net_pkt_t;

/* A figure over the window: count, mean, max, 95% CI half-width of the mean (normal, i.i.d.). */
typedef struct {
  uint64_t n;
  double mean, max, ci;
} c104_net_stat_t;

typedef struct {
  uint64_t seed;
  uint64_t cycles;
  uint32_t nodes, switches, vls, links, hbytes;
  double rate;               /* messages per node per cycle offered */
  int circulant;             /* uniform traffic over a circulant of K ends, not all-to-all */
  /* conservation (messages, whole run): generated = accepted + dropped_qlimit + dropped_novl;
     accepted = delivered + in_flight */
  uint64_t generated, accepted, dropped_qlimit, dropped_novl, delivered, in_flight;
  uint64_t corrupt;          /* delivered with a length other than sent */
  /* window */
  uint64_t w_generated, w_dropped, w_delivered, w_bytes, w_packets, w_acks;
  c104_net_stat_t msg_lat;   /* message: creation to the EOM popped at the destination */
  c104_net_stat_t life_create, life_out; /* packets (data and acks): from creation, first output */
  c104_net_stat_t life_routed;           /* from the first internal link (Definition 5.3) */
  uint64_t w_unrouted;       /* delivered packets that crossed no internal link */
  double thr_msgs, thr_bytes; /* delivered per node per us (1 us = 100 cycles) */
  double pkts_per_c104_ms;   /* packets granted (cnt_pkt) per switch per ms */
  double util_mean, util_max;         /* link directions in use, % of the cycles carrying tokens */
  double util_int_mean, util_int_max; /* switch-to-switch directions only */
  /* errors, whole run: all 0 in a correct network */
  uint64_t sw_bad, sw_short, sw_cut, sw_stray; /* sums of cnt_bad, cnt_short, cnt_cut, cnt_stray */
  uint64_t link_errs;                          /* dslink error counters and spills */
  uint64_t node_misrouted, node_bad, node_cut;
  uint64_t track_errs;                         /* the tracking lost a packet (a model bug) */
} c104_net_result_t;

typedef struct c104_net c104_net_t;

/* Builds the network for one seed: switches configured by c104_setup_load from generated setups,
 * endpoints wired, workload seeded. -1 with a message (bad cfg, a table over 32 entries, memory). */
int c104_net_new(const c104_net_cfg_t *c, uint64_t seed, c104_net_t **net, char *err,
                 size_t errlen);
void c104_net_free(c104_net_t *net);
/* One cycle: every block evaluated, then every block clocked. 0, or -1 on a model bug. */
int c104_net_step(c104_net_t *net);
/* Queues a message of len bytes on VL end vl of node n for the next cycle (tests, figures). */
int c104_net_send(c104_net_t *net, uint32_t n, uint32_t vl, uint32_t len);
/* Called for every packet delivered (after the cycle's evaluation). */
typedef void (*c104_net_pkt_fn)(void *ctx, const c104_net_pkt_t *p);
void c104_net_on_packet(c104_net_t *net, c104_net_pkt_fn fn, void *ctx);
/* The figures so far (window figures from cycle warmup to warmup + measure). */
void c104_net_result(const c104_net_t *net, c104_net_result_t *r);

/* A pair or line of switches between two endpoints, driven by hand (c104_net_send; no generated
 * traffic), for tests and the figures of docs/c104.md §18.2, §18.3. */
typedef struct {
  uint32_t switches; /* 0: a pair, the endpoints wired to each other */
  uint32_t vls;      /* VLs between the two endpoints */
  uint32_t hbytes;   /* header bytes forced (0: automatic) */
  uint32_t qlimit;   /* messages queued per node */
} c104_net_line_t;
/* Builds it (seed 1), reports its packets to fn(ctx) and steps it idle to cycle
 * C104_NET_LINE_IDLE, past the links' start-up FCT exchange. -1 with a message. */
enum { C104_NET_LINE_IDLE = 400 };
int c104_net_new_line(const c104_net_line_t *l, c104_net_pkt_fn fn, void *ctx, c104_net_t **net,
                      char *err, size_t errlen);

/* Runs warmup + measure cycles of one seed and fills r. */
typedef void (*c104_net_progress_fn)(void *ctx, double frac);
int c104_net_run(const c104_net_cfg_t *c, uint64_t seed, c104_net_result_t *r,
                 c104_net_progress_fn cb, void *cb_ctx, char *err, size_t errlen);

/* ---- Structure, for tests and tools ------------------------------------------------------- */
uint64_t c104_net_cycle(const c104_net_t *net);
uint32_t c104_net_nodes(const c104_net_t *net);
uint32_t c104_net_switches(const c104_net_t *net);
uint32_t c104_net_vls(const c104_net_t *net);
uint32_t c104_net_hbytes(const c104_net_t *net);
/* First random header (universal routing), 2 N K. */
uint32_t c104_net_rbase(const c104_net_t *net);
/* What switch s port p is wired to (C104_END_NONE: unused, a token port). A loopback port is
 * wired to itself. */
c104_net_end_t c104_net_sw_peer(const c104_net_t *net, uint32_t s, uint32_t p);
/* The switch and port (or node and link) link l of node n is wired to. */
c104_net_end_t c104_net_node_peer(const c104_net_t *net, uint32_t n, uint32_t l);
const c104_state_t *c104_net_sw_state(const c104_net_t *net, uint32_t s);
const t9k_node_state_t *c104_net_node_state(const c104_net_t *net, uint32_t n);
const t9k_node_cfg_t *c104_net_node_cfg(const c104_net_t *net, uint32_t n);
/* The VL end of node n joined to node d (UINT32_MAX: none). */
uint32_t c104_net_vl_to(const c104_net_t *net, uint32_t n, uint32_t d);
/* The setup generated for switch s (§17.1-§17.3). */
const c104_setup_t *c104_net_setup(const c104_net_t *net, uint32_t s);

MADPOST_END_DECLS
#endif
