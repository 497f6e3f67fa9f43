/* T9000-style endpoint on one DS-Link with `nvl` virtual links each way. Messages are split into
 * packets of at most 32 data bytes behind a 1-byte header, ended by EOP (EOM on the last); at most
 * one packet per virtual link is unacknowledged; the receiver acknowledges a packet (header + EOP)
 * as soon as its header arrives; acknowledgements go ahead of data (seed 000 §3.1.1.1, §4.1.4.1).
 * Same block shape as the hardware models: outputs from state, pure eval, clock. */
#ifndef MADPOST_T9K_H
#define MADPOST_T9K_H

#include <madpost/madpost_api.h>
#include <stdint.h>

#include <madpost/block.h>
#include <madpost/dslink.h>

MADPOST_BEGIN_DECLS

enum { T9K_PACKET_BYTES = 32, T9K_ACK_FLAG = 0x80, T9K_MAX_VL = 16, T9K_ACKQ = 16 };

typedef struct {
  uint32_t nvl;         /* virtual links (1..T9K_MAX_VL); VL v sends header v, is acked by v|0x80 */
  uint32_t send;        /* 1: one process per virtual link sends messages back to back */
  uint32_t msg_len;     /* message length in bytes */
  uint64_t send_start;  /* cycle from which the sender may start */
} t9k_cfg_t;

/* Inputs: the link end's packet-interface outputs. */
typedef struct {
  uint32_t tx_ready, rx_valid, rx_data, rx_kind;
} t9k_in_t;

/* Outputs: the link end's packet-interface inputs. */
typedef struct {
  uint32_t tx_valid, tx_data, tx_kind, rx_ready;
} t9k_out_t;

typedef enum { T9K_PKT_NONE = 0, T9K_PKT_DATA = 1, T9K_PKT_ACK = 2 } t9k_pkt_e;

typedef struct {
  uint64_t cyc;
  /* packet being handed to the link */
  uint32_t tx_pkt, tx_pos, tx_len, tx_end, tx_hdr;
  /* senders, one per virtual link; the next data packet is taken round-robin */
  uint32_t msg_off[T9K_MAX_VL], unacked[T9K_MAX_VL], last_vl;
  /* acknowledgements waiting to be sent (their headers), oldest first */
  uint32_t ackq[T9K_ACKQ], ackq_n;
  /* receiver */
  uint32_t rx_state; /* 0 expecting a header, 1 in a data packet, 2 in an ack packet */
  uint32_t rx_hdr;
  uint32_t rx_msg_bytes;
  /* totals */
  uint64_t msgs_sent, pkts_sent, msgs_rcvd, bytes_rcvd, acks_rcvd, errs_rcvd;
} t9k_state_t;

typedef struct {
  uint8_t msg_done; /* a whole message (EOM) was received this cycle */
} t9k_ev_t;

/* The next state, whole (the endpoint is small; the clock copies it). */
typedef struct {
  t9k_state_t s;
} t9k_next_t;

/* The block contract (include/madpost/block.h); eval returns 0 (an acknowledgement queue that
 * fills is counted in errs_rcvd, not a model bug). */
void t9k_reset(const t9k_cfg_t *cfg, t9k_state_t *st);
int t9k_eval(const t9k_cfg_t *cfg, const t9k_state_t *st, const t9k_in_t *in, t9k_out_t *out,
             t9k_next_t *nx, t9k_ev_t *ev);
static inline void t9k_clock(t9k_state_t *st, const t9k_next_t *nx) { *st = nx->s; }
MADPOST_BLOCK_CONTRACT(t9k);

void t9k_outputs(const t9k_cfg_t *cfg, const t9k_state_t *st, t9k_out_t *out);

MADPOST_END_DECLS
#endif
