/* Traffic for network simulations of MP1 meshes and tori: which node each message goes to
 * (destination patterns) and when each node's messages appear (arrival processes). */
#ifndef MADPOST_MP1_TRAFFIC_H
#define MADPOST_MP1_TRAFFIC_H

#include <madpost/madpost_api.h>
#include <stddef.h>
#include <stdint.h>

#include <madpost/madpost_rng.h>

MADPOST_BEGIN_DECLS

/* ---- Destination patterns -------------------------------------------------------------------
 *
 * Network: kx x ky nodes (1..NET_TRAFFIC_KMAX each, at least 2 nodes), node n = y * kx + x.
 * N = kx * ky; where a pattern needs N a power of two, b = log2 N and n is taken as a b-bit word.
 *
 *   uniform    every node other than s equally likely: madpost_rng_below(N - 1), then skip s.
 *   local      seed paper 004 §5.2: a hop distance d in 1..5 is drawn with p(d) = (7 - d) / 20
 *              (0.30 0.25 0.20 0.15 0.10, mean exactly 2.5, the paper's stated mean), restricted
 *              to the distances that exist from s and renormalised; then one of the nodes at
 *              exactly distance d from s, all equally likely. The paper's Fig. 11a values are lost
 *              in the OCR, so the linear law is our choice; it only has to match the mean. Where
 *              all of 1..5 exist from every node (mesh: ceil((kx-1)/2) + ceil((ky-1)/2) >= 5;
 *              torus: floor(kx/2) + floor(ky/2) >= 5; e.g. 6 x 6 and up) the mean is exactly
 *              2.5 from every source; smaller networks shift it down.
 *              Distances are Manhattan; when torus != 0 each dimension wraps around.
 *   shuffle    perfect shuffle, N a power of two: s rotated left by one bit within b bits.
 *   bitrev     N a power of two: the b bits of s in reverse order.
 *   transpose  kx == ky: (x, y) -> (y, x).
 *   bitcomp    N a power of two: ~s within b bits.
 *   hotspot    with probability hot_frac the hot node, otherwise uniform. The hot node itself
 *              sends uniform traffic (our choice: it cannot send to itself).
 *
 * A permutation's fixed point (shuffle of 0 and N-1, bitrev palindromes, the transpose's
 * diagonal) sends nothing: net_traffic_dest returns -1 there.
 *
 * Random draws, all from the caller's rng (one stream per source node keeps runs reproducible
 * whatever the order nodes are served in):
 *   uniform   one madpost_rng_below(N - 1) (Lemire; it may draw again on rejection)
 *   local     one madpost_rng_below(total weight of the present distances), one
 * madpost_rng_below(ring size) hotspot   one madpost_rng_unit (hot if < hot_frac; drawn even at the
 * hot node, so the number of draws does not depend on s), then the uniform draw unless the hot node
 * was chosen shuffle, bitrev, transpose, bitcomp: none. */

enum { NET_TRAFFIC_KMAX = 8192, NET_LOCAL_DMAX = 5 };

typedef enum {
  NET_TR_UNIFORM = 0,
  NET_TR_LOCAL,
  NET_TR_SHUFFLE,
  NET_TR_BITREV,
  NET_TR_TRANSPOSE,
  NET_TR_BITCOMP,
  NET_TR_HOTSPOT,
  NET_TR_COUNT
} net_pattern_e;

typedef struct {
  net_pattern_e pattern;
  uint32_t kx, ky;
  uint32_t torus;    /* nonzero: distances wrap around (used by LOCAL) */
  uint32_t hot_node; /* HOTSPOT: the hot node */
  double hot_frac;   /* HOTSPOT: fraction of messages sent to the hot node (others uniform) */
} net_traffic_cfg_t;

/* 0 if the pattern is usable on this network, else -1 and a message in err (err may be NULL).
 * The hot_* fields are only checked for HOTSPOT. */
int net_traffic_check(const net_traffic_cfg_t *c, char *err, size_t errlen);

/* Destination of a message from node s: a node != s, or -1 when s sends nothing under this
 * pattern (a permutation's fixed point). Meaningful only for a config that passes
 * net_traffic_check; for s >= N or a config that does not, returns -1 rather than a bad node. */
int64_t net_traffic_dest(const net_traffic_cfg_t *c, uint32_t s, madpost_rng_t *r);

/* "uniform", "local", "shuffle", "bitrev", "transpose", "bitcomp", "hotspot"; "?" otherwise. */
const char *net_pattern_name(net_pattern_e p);
/* Exact (case-sensitive) names of net_pattern_name: 0 ok, -1 unknown (p untouched). */
int net_pattern_parse(const char *s, net_pattern_e *p);

/* The local pattern's law before restriction: p(d) = (7 - d) / 20 for d in 1..5, else 0. */
double net_local_pdf(uint32_t d);

/* Hop distance between nodes a and b: Manhattan, each dimension wrapped when torus. */
uint32_t net_traffic_dist(const net_traffic_cfg_t *c, uint32_t a, uint32_t b);

/* Number of nodes at exactly distance d from s (1 for d = 0). */
uint32_t net_traffic_ring(const net_traffic_cfg_t *c, uint32_t s, uint32_t d);

/* Exact mean hop distance of the local pattern from s (2.5 when distances 1..5 all exist). */
double net_local_mean(const net_traffic_cfg_t *c, uint32_t s);

/* ---- Arrival processes ----------------------------------------------------------------------
 *
 * Time is continuous; cycle t is the interval [t, t + 1). A message arriving at time T is
 * injected in cycle floor(T). Per node, with rate = mean messages per node per cycle:
 *
 *   exponential  (default; "exp" also parses) a Poisson process: inter-arrival times
 *                exponential with mean 1 / rate.
 *   uniform      inter-arrival times uniform on [0, 2 / rate) (same mean, much less variance).
 *   bursty       bursts form a Poisson process of rate rate / burst; each burst brings a geometric
 *                number K >= 1 of messages, P(K = k) = (1 - q)^(k-1) q with q = 1 / burst
 *                (mean burst), all in the burst's cycle. The mean rate is still rate.
 *
 * rate 0 means no arrivals ever (t_next = +inf, and no draws). The first arrival after
 * net_arrival_start(t0) is t0 plus one inter-arrival (inter-burst) time: exact for exponential
 * and bursty, which are memoryless; for uniform this start is our choice (not the stationary one).
 * Bounds are ours: rate <= NET_ARR_RATE_MAX and burst <= NET_ARR_BURST_MAX keep counts and the
 * work per cycle bounded (a node cannot inject more than a few messages per cycle anyway).
 *
 * Draws: one madpost_rng_unit per arrival (exponential, uniform) or per burst (bursty), plus one
 * madpost_rng_unit per burst for its size when burst > 1. */

#define NET_ARR_RATE_MAX 1000.0
#define NET_ARR_BURST_MAX 1.0e6

typedef enum { NET_ARR_EXP = 0, NET_ARR_UNIFORM, NET_ARR_BURSTY, NET_ARR_COUNT } net_arrival_e;

typedef struct {
  net_arrival_e kind;
  double rate;  /* mean messages per node per cycle, 0..NET_ARR_RATE_MAX */
  double burst; /* BURSTY: mean messages per burst, 1..NET_ARR_BURST_MAX (ignored otherwise) */
} net_arrival_cfg_t;

/* Per-node state: time of the next arrival (for bursty, of the next burst). */
typedef struct {
  double t_next;
} net_arrival_t;

/* 0 if usable, else -1 and a message in err (err may be NULL). */
int net_arrival_check(const net_arrival_cfg_t *c, char *err, size_t errlen);

/* "exponential", "uniform", "bursty"; "?" otherwise. */
const char *net_arrival_name(net_arrival_e k);
/* Exact names of net_arrival_name, or "exp": 0 ok, -1 unknown (k untouched). */
int net_arrival_parse(const char *s, net_arrival_e *k);

/* Starts a node's process at time t0: draws the first arrival (burst) time. */
void net_arrival_start(const net_arrival_cfg_t *c, net_arrival_t *a, double t0, madpost_rng_t *r);

/* Messages arriving in cycle t: every arrival not yet counted with time < t + 1, after which
 * t_next >= t + 1. Called once per cycle in order, that is exactly the arrivals in [t, t + 1);
 * a caller that skips cycles gets their arrivals in the next call. Saturates at UINT32_MAX. */
uint32_t net_arrival_count(const net_arrival_cfg_t *c, net_arrival_t *a, uint64_t t,
                           madpost_rng_t *r);

MADPOST_END_DECLS
#endif
