/* A node interface for MP1 meshes (docs/mp1.md §13): the injection side (a queue of up to 10
 * messages, each sent as a selection segment and then its segments, honouring stop) and the
 * reception side (reassembles messages from the reception channel). Used by the per-hop command
 * and the network simulator; not part of the chip. */
#ifndef MADPOST_MP1_NIC_H
#define MADPOST_MP1_NIC_H

#include <stdint.h>

#include "mp1_chip.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { MP1_NIC_QUEUE = 10, MP1_MSG_MAX = 1024, MP1_SEG_FLITS = 32 };

typedef struct {
  uint64_t id;
  uint32_t sel;              /* selection flit */
  uint32_t len;              /* bytes, header flits included */
  uint8_t bytes[MP1_MSG_MAX];
  uint64_t t_enq;            /* cycle queued */
} mp1_msg_t;

/* Chunks of one message as sent to the injection controller: [sel] EOS, then its segments. */
typedef struct {
  uint32_t n;
  uint8_t c[4 + 3 * MP1_MSG_MAX + MP1_MSG_MAX / MP1_SEG_FLITS + 2];
} mp1_chunks_t;

typedef struct {
  mp1_msg_t q[MP1_NIC_QUEUE];
  uint32_t head, count;
  mp1_chunks_t cur;     /* chunks of q[head] once it has started */
  uint32_t pos;         /* next chunk of cur */
  uint32_t in_seg;      /* a segment is being sent */
  uint32_t phase;       /* chunk index within the flit being sent (0: between flits) */
  uint32_t started;     /* q[head] has started */
  uint32_t dat;         /* chunk on the injection channel this cycle (a register) */
  uint64_t t_first;     /* cycle the head message's first header chunk was on the channel */
  /* reception */
  uint32_t r_ic, r_isr, r_iseg, r_len;
  uint8_t r_bytes[MP1_MSG_MAX];
  uint64_t r_first, r_last_data;
} mp1_nic_t;

/* A delivered message: its bytes (data only: the header flits were consumed on the way) and the
 * cycles its first chunk and its last data chunk were on the reception channel. */
typedef struct {
  uint32_t len;
  const uint8_t *bytes;
  uint64_t t_first, t_last_data, t_eom;
} mp1_rx_msg_t;

void mp1_nic_reset(mp1_nic_t *nic);
/* Queues a message; -1 when the queue is full. */
int mp1_nic_push(mp1_nic_t *nic, const mp1_msg_t *m);
/* The header and selection of a point-to-point message from node s to node d of a mesh kx wide
 * (dimension order X then Y, plane from the offsets' signs, docs/mp1.md §4, §13.2): code 0 or 1
 * (adaptive) and DELIVER when both dimensions differ, else DELIVER alone. Writes m->bytes[0..h),
 * m->sel and m->len = h; returns h, the header length. */
uint32_t mp1_msg_p2p(uint32_t kx, uint32_t s, uint32_t d, uint32_t adaptive, mp1_msg_t *m);
/* Splits a message into chunks (docs/mp1.md §2, §3). */
void mp1_msg_chunks(const mp1_msg_t *m, mp1_chunks_t *out);
/* After the cycle-t eval: the next chunk, from this cycle's inj_stop (a sender's register).
 * Returns 1 in the cycle the head message's last chunk has been chosen (it is then done). */
int mp1_nic_tx_step(mp1_nic_t *nic, uint32_t inj_stop, uint64_t t);
/* Takes this cycle's reception chunk; returns 1 and fills *m when a message's EOM arrived. A
 * malformed stream (a gap or illegal chunk inside a segment) returns -1 and drops the message. */
int mp1_nic_rx(mp1_nic_t *nic, uint32_t c, uint64_t t, mp1_rx_msg_t *m);

#ifdef __cplusplus
}
#endif
#endif
