/* T9000-style network endpoint (docs/c104.md §16): P physical links whose DS-Link ends belong to
 * the network, K virtual-link ends, headers hdr(n, c, a) = 2 (n K + c) + a of H bytes. */
#ifndef MADPOST_T9K_NODE_H
#define MADPOST_T9K_NODE_H

#include <madpost/madpost_api.h>
#include <stddef.h>
#include <stdint.h>

#include <madpost/block.h>

MADPOST_BEGIN_DECLS

enum {
  T9K_NODE_LINKS_MAX = 4,
  T9K_NODE_PACKET = 32,          /* data bytes per packet at most (000 §3.1.1.1) */
  T9K_NODE_VL_MAX = 32767,       /* K * N must leave 2 N K <= 65536 anyway */
  T9K_NODE_QLIMIT_MAX = 1u << 20
};
#define T9K_NODE_NOPEER UINT32_MAX

/* Packet kinds of t_kind. */
typedef enum { T9K_NODE_NONE = 0, T9K_NODE_DATA = 1, T9K_NODE_ACK = 2 } t9k_node_pkt_e;

typedef struct {
  uint32_t node;   /* n */
  uint32_t nnodes; /* N: headers of the network are below 2 N K */
  uint32_t nvl;    /* K, VL ends per node */
  uint32_t nlinks; /* P, 1..4; VL end c uses link c mod P */
  uint32_t hbytes; /* H, 1 or 2 (most significant byte first) */
  uint32_t qlimit; /* messages accepted and not completely acknowledged, at most (§17.5) */
} t9k_node_cfg_t;

/* One message offered by the workload (E2): on VL end vl, len bytes, created this cycle. */
typedef struct {
  uint32_t vl, len;
} t9k_node_msg_t;

/* Inputs: each link end's packet-interface outputs, and the workload's new messages. */
typedef struct {
  uint32_t tx_ready[T9K_NODE_LINKS_MAX], rx_valid[T9K_NODE_LINKS_MAX];
  uint32_t rx_data[T9K_NODE_LINKS_MAX], rx_kind[T9K_NODE_LINKS_MAX];
  uint32_t n_new;
  const t9k_node_msg_t *new_msgs; /* n_new entries (may be NULL when n_new is 0) */
} t9k_node_in_t;

/* Outputs: each link end's packet-interface inputs (Moore: functions of the registers). */
typedef struct {
  uint32_t tx_valid[T9K_NODE_LINKS_MAX], tx_data[T9K_NODE_LINKS_MAX];
  uint32_t tx_kind[T9K_NODE_LINKS_MAX], rx_ready[T9K_NODE_LINKS_MAX];
} t9k_node_out_t;

/* The fixed-size registers (§16.2); per-VL and queue storage is in the node's memory words. */
typedef struct {
  uint64_t cyc;
  /* transmit, per link */
  uint32_t t_kind[T9K_NODE_LINKS_MAX], t_hdr[T9K_NODE_LINKS_MAX], t_vl[T9K_NODE_LINKS_MAX];
  uint32_t t_len[T9K_NODE_LINKS_MAX], t_end[T9K_NODE_LINKS_MAX], t_pos[T9K_NODE_LINKS_MAX];
  /* acknowledgement and data-ready queues, per link: head and count (rings of K entries) */
  uint32_t aq_head[T9K_NODE_LINKS_MAX], aq_n[T9K_NODE_LINKS_MAX];
  uint32_t dq_head[T9K_NODE_LINKS_MAX], dq_n[T9K_NODE_LINKS_MAX];
  /* receive, per link: 0 header, 1 data, 2 ack, 3 discard */
  uint32_t r_st[T9K_NODE_LINKS_MAX], r_hcnt[T9K_NODE_LINKS_MAX], r_hdr[T9K_NODE_LINKS_MAX];
  uint32_t r_vl[T9K_NODE_LINKS_MAX];
  uint32_t r_bytes[T9K_NODE_LINKS_MAX]; /* data bytes of the packet being received */
  /* pending messages: accepted and not completely acknowledged; free list of the pool */
  uint32_t outstanding, pool_free;
  /* counters */
  uint64_t msgs_accepted, msgs_dropped, msgs_nopeer, msgs_sent, msgs_rcvd, bytes_rcvd;
  uint64_t pkts_sent, acks_sent;
  uint64_t misrouted, bad, cut; /* must stay 0 in a correct network */
} t9k_node_regs_t;

typedef struct {
  t9k_node_regs_t r;
  uint64_t *mem; /* per-VL words, the pending-message pool, the queues (t9k_node_init) */
} t9k_node_state_t;

/* Next state: registers, and a journal of the memory words this cycle writes (word dirty[i] becomes
 * val[i], ndirty of them, at most cap), which the clock edge applies. No copy of the memory is
 * kept between cycles: eval reads the memory from the state and its own writes from the journal,
 * so what it gives depends on cfg, st and in alone (the block contract). */
typedef struct {
  t9k_node_regs_t r;
  uint32_t *dirty;
  uint64_t *val;
  uint32_t ndirty, cap;
} t9k_node_next_t;

/* What happened in one cycle, per link (derived, for tracking and figures outside the block). */
typedef struct {
  /* E5: a packet was chosen for link l (offered from the next cycle) */
  uint8_t sel[T9K_NODE_LINKS_MAX];
  uint32_t sel_kind[T9K_NODE_LINKS_MAX], sel_hdr[T9K_NODE_LINKS_MAX];
  uint32_t sel_vl[T9K_NODE_LINKS_MAX], sel_len[T9K_NODE_LINKS_MAX];
  uint64_t sel_t0[T9K_NODE_LINKS_MAX]; /* the packet's creation cycle (§17.6) */
  uint32_t sel_end[T9K_NODE_LINKS_MAX]; /* its end token */
  uint64_t sel_msg_t0[T9K_NODE_LINKS_MAX];  /* data: its message's creation cycle and length */
  uint32_t sel_msg_len[T9K_NODE_LINKS_MAX];
  /* E1: tokens popped */
  uint8_t rx_first[T9K_NODE_LINKS_MAX]; /* the first token of a packet */
  uint8_t rx_end[T9K_NODE_LINKS_MAX];   /* an end token (any kind) closing a packet or a discard */
  uint8_t rx_msg[T9K_NODE_LINKS_MAX];   /* an EOM completing a message on end rx_vl */
  uint32_t rx_vl[T9K_NODE_LINKS_MAX], rx_bytes[T9K_NODE_LINKS_MAX];
  uint8_t msg_done[T9K_NODE_LINKS_MAX]; /* an ack completed the message of end done_vl here */
  uint32_t done_vl[T9K_NODE_LINKS_MAX];
  uint32_t msgs_done;   /* messages completely acknowledged at this sender */
  uint32_t accepted, dropped; /* E2 */
} t9k_node_ev_t;

/* 0 if cfg is legal, else -1 and a message naming the field in err. */
int t9k_node_cfg_check(const t9k_node_cfg_t *cfg, char *err, size_t errlen);
/* Allocates st's memory and nx's journal from cfg (K, P, qlimit) and resets; -1 with a message on
 * a bad cfg or no memory. Every VL end starts unconnected. */
int t9k_node_init(const t9k_node_cfg_t *cfg, t9k_node_state_t *st, t9k_node_next_t *nx, char *err,
                  size_t errlen);
void t9k_node_free(t9k_node_state_t *st, t9k_node_next_t *nx);
/* Joins VL end c of this node to end pc of node pn (configuration, not a cycle's work). */
void t9k_node_set_peer(const t9k_node_cfg_t *cfg, t9k_node_state_t *st, uint32_t c, uint32_t pn,
                       uint32_t pc);
/* The peer of end c as pn * K + pc, or T9K_NODE_NOPEER. */
uint32_t t9k_node_peer(const t9k_node_cfg_t *cfg, const t9k_node_state_t *st, uint32_t c);
/* hdr(n, c, a) of §16.1. */
static inline uint32_t t9k_node_hdr(uint32_t K, uint32_t n, uint32_t c, uint32_t a) {
  return 2u * (n * K + c) + a;
}

/* The block contract (include/madpost/block.h). reset: every register and queue to its reset
 * value; the VL wiring (peers) is kept. eval, pure: from cfg, st and in to out, nx and (if not
 * NULL) ev (E1-E6 of §16.3); returns 0, or -1 if an internal bound broke (a queue or the write
 * journal overflowed: a model bug, message on stderr). */
void t9k_node_reset(const t9k_node_cfg_t *cfg, t9k_node_state_t *st);
int t9k_node_eval(const t9k_node_cfg_t *cfg, const t9k_node_state_t *st, const t9k_node_in_t *in,
                  t9k_node_out_t *out, t9k_node_next_t *nx, t9k_node_ev_t *ev);
void t9k_node_clock(t9k_node_state_t *st, const t9k_node_next_t *nx);
MADPOST_BLOCK_CONTRACT(t9k_node);

void t9k_node_outputs(const t9k_node_cfg_t *cfg, const t9k_node_state_t *st, t9k_node_out_t *out);

/* Sender view of VL end c (for figures and conservation): pending messages not yet started, a
 * message in progress, its creation cycle and length. */
typedef struct {
  uint32_t pending, active, len, off, unacked;
  uint64_t t0;
} t9k_node_vl_t;
void t9k_node_vl(const t9k_node_cfg_t *cfg, const t9k_node_state_t *st, uint32_t c,
                 t9k_node_vl_t *v);

MADPOST_END_DECLS
#endif
