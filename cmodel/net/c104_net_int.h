/* Internal interfaces of the C104 network model, shared by its files (cmodel/c104_net*.c) and
 * not public: the network's state, its link-end numbering and the helpers each file offers. */
#ifndef MADPOST_C104_NET_INT_H
#define MADPOST_C104_NET_INT_H

#include <madpost/c104_net.h>

/* ---- Configuration and VL wiring (c104_net_cfg.c) ------------------------------------------ */

/* Nodes N, switches S, links per node P of the configured topology. */
void c104_net_shape(const c104_net_cfg_t *c, uint32_t *N, uint32_t *S, uint32_t *P);
/* The pattern's network for net_traffic (kx, ky chosen so node numbers agree). */
void c104_net_traffic_cfg(const c104_net_cfg_t *c, net_traffic_cfg_t *t);
/* K, whether uniform runs over a circulant, and H (§16.1, §17.4); -1 with a message. */
int c104_net_wiring(const c104_net_cfg_t *c, uint32_t *K, int *circ, uint32_t *H, char *err,
                    size_t n);
/* vl_to[n * N + m] and peer[n * K + c] for the pattern (§17.4). */
int c104_net_vl_wiring(const c104_net_cfg_t *c, uint64_t seed, uint32_t N, uint32_t K, int circ,
                       uint16_t *vl_to, uint32_t *peer, char *err, size_t n);

/* ---- The network's state -------------------------------------------------------------------- */

#define C104_NET_UNSET UINT64_MAX   /* a packet time that has not happened */
#define C104_NET_NOID 0xFFFFFFFFu   /* no packet */

/* Per transmitting link end: the packets whose first token was written to its transmit FIFO and
   not yet taken by the receiver (§17.6), oldest first; the first `cur` of them are on the wire. */
typedef struct {
  uint32_t id[C104_NET_TRACK];
  uint32_t first[C104_NET_TRACK]; /* index of the first token among the normal tokens written */
  uint32_t head, n, cur;
  uint32_t written, loaded;
  uint8_t in_pkt;
} c104_net_trk_t;

/* A packet in flight: ids are indices into a pool (a header is not unique in flight: a VL's next
   packet leaves once the previous one's header has arrived, before its tail). */
typedef struct {
  uint64_t t_create, t_out, t_int, msg_t0;
  uint32_t hdr, src_end, msg_len, next_free;
  uint8_t live, eom;
} c104_net_pkrec_t;

typedef struct {
  uint64_t n;
  double sum, sumsq, max;
} c104_net_acc_t;

struct c104_net {
  c104_net_cfg_t cfg;
  uint64_t seed;
  uint32_t N, S, K, P, H, R0, top;
  int circ;
  double rate;
  dslink_cfg_t lc;
  /* switches */
  c104_cfg_t *swc;
  c104_setup_t *setup;
  c104_state_t *sw;
  c104_next_t *swn;
  c104_ev_t *swev; /* the switches' events (their links', for tracking) */
  c104_in_t *swin;
  c104_out_t swout;
  /* nodes and their link ends */
  t9k_node_cfg_t *nc;
  t9k_node_state_t *ns;
  t9k_node_next_t *nn;
  t9k_node_ev_t *nev;
  dslink_state_t *nl;
  dslink_next_t *nln;
  dslink_ev_t *nlev;
  /* link ends: e < 32 S switch s = e / 32 port e % 32; then node n link l at 32 S + n P + l */
  uint32_t nend;
  int32_t *peer;
  uint8_t *internal; /* a switch end wired to a switch end (loopback included) */
  uint32_t *used;    /* the ends in use, in order */
  uint32_t nused;
  c104_net_trk_t *trk;
  uint64_t *ubits;
  uint32_t *sl_id;   /* per switch slice: the packet it holds */
  uint32_t *rx_id;   /* per node link: the packet being received */
  uint8_t *rx_open;
  c104_net_pkrec_t *ptab; /* the packet pool */
  uint32_t pcap, pfree, plive;
  uint32_t *tx_id;   /* per node link: the packet it is handing over */
  uint64_t *done, *dlv; /* per sender end n K + c: messages completed at the sender, delivered */
  /* workload */
  uint16_t *vl_to;
  uint32_t *vlpeer;
  uint32_t perm;     /* a permutation pattern: the sending ends 0, 2, .. K - 2 taken in turn */
  uint32_t *prr;     /* per node: the permutation's next sending end / 2 */
  madpost_rng_t *rng;
  net_arrival_t *arr;
  net_traffic_cfg_t tr;
  net_arrival_cfg_t ar;
  t9k_node_msg_t **man;
  uint32_t *man_n, *man_cap;
  t9k_node_msg_t *mbuf;
  uint32_t mcap;
  /* counters */
  uint64_t cyc, generated, delivered, corrupt, track_errs;
  uint64_t w_generated, w_dropped, w_delivered, w_bytes, w_packets, w_acks, w_unrouted;
  c104_net_acc_t a_msg, a_create, a_out, a_routed;
  /* switch counters, accumulated across their 16-bit wraps */
  uint16_t *last_cnt; /* 5 per slice: pkt, bad, short, cut, stray */
  uint64_t tot_cnt[5], win_pkt0, win_pkt1;
  int win_pkt0_set, win_pkt1_set;
  c104_net_pkt_fn pkt_fn;
  void *pkt_ctx;
};

/* ---- Link ends ------------------------------------------------------------------------------- */

static inline uint32_t c104_net_sw_end(const c104_net_t *w, uint32_t s, uint32_t p) {
  (void)w;
  return s * C104_PORTS + p;
}
static inline uint32_t c104_net_node_end(const c104_net_t *w, uint32_t n, uint32_t l) {
  return w->S * C104_PORTS + n * w->P + l;
}
static inline dslink_state_t *c104_net_end_st(c104_net_t *w, uint32_t e) {
  const uint32_t ns = w->S * C104_PORTS;
  return e < ns ? &w->sw[e / C104_PORTS].link[e % C104_PORTS] : &w->nl[e - ns];
}
/* The current cycle is in the measured window. */
static inline int c104_net_in_window(const c104_net_t *w) {
  return w->cyc >= w->cfg.warmup && w->cyc < w->cfg.warmup + w->cfg.measure;
}

/* ---- Each file's helpers -------------------------------------------------------------------- */

/* c104_net_wire.c: wires the ends and loads every switch with its generated setup (§17.1-§17.3);
   -1 with a message (a table over 32 entries). */
int c104_net_build(c104_net_t *w, char *err, size_t n);
/* c104_net_work.c: node i's messages of this cycle (c104_net_send's, then the pattern's arrivals)
   into w->mbuf, *nm of them; -1 out of memory. */
int c104_net_workload(c104_net_t *w, uint32_t i, int win, uint32_t *nm);
/* c104_net_track.c, after the cycle's evaluation (§17.6): loads onto the wire and first tokens
   written at every end in use; packets taken by switch slices; packets taken, delivered and
   created at the endpoints (-1 out of memory). */
void c104_net_track_links(c104_net_t *w, int win);
void c104_net_track_slices(c104_net_t *w);
int c104_net_track_nodes(c104_net_t *w);
/* c104_net_result.c: the 16-bit switch counters into 64-bit totals (called often enough that none
   wraps twice); a figure's accumulator. */
void c104_net_sample_counters(c104_net_t *w);
static inline void c104_net_acc(c104_net_acc_t *a, double v) {
  a->n++;
  a->sum += v;
  a->sumsq += v * v;
  if (v > a->max)
    a->max = v;
}

#endif
