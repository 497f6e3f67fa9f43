/* A node interface for MP1 meshes (docs/mp1.md §13, docs/mp1_draft4.md §10.4): the injection
 * side (a queue of up to 10 messages, each sent as a selection segment and then its segments,
 * honouring stop, or without a selection in the window) and the reception side (reassembles
 * messages from the reception channel). Used by the per-hop command and the network simulator;
 * not part of the chip. */
#ifndef MADPOST_MP1_NIC_H
#define MADPOST_MP1_NIC_H

#include <madpost/madpost_api.h>
#include <stdint.h>
#include <string.h>

#include <madpost/mp1_chip.h>

MADPOST_BEGIN_DECLS

enum { MP1_NIC_QUEUE = 10, MP1_MSG_MAX = 1024, MP1_SEG_FLITS = 32 };

typedef struct {
  uint64_t id;
  uint32_t sel;              /* selection flit */
  uint32_t len;              /* bytes, header flits included */
  uint8_t bytes[MP1_MSG_MAX];
  uint64_t t_enq;            /* cycle queued */
} mp1_msg_t;

/* Chunks of one message as sent to the injection controller: [sel] EOS, then its segments (in the
 * window from chunk 4 on). */
typedef struct {
  uint32_t n;
  uint8_t c[4 + 3 * MP1_MSG_MAX + MP1_MSG_MAX / MP1_SEG_FLITS + 2];
} mp1_chunks_t;

/* The chunk protocol both node interfaces speak (this one and the network simulator's,
 * docs/mp1.md §2, §3, §13.1), in one place. */

/* Chunk k (0..2) of flit b: `1 b7 b6`, `b5 b4 b3`, `b2 b1 b0`. */
static inline uint32_t mp1_flit_chunk(uint32_t b, uint32_t k) {
  return k == 0 ? 4u | ((b >> 6) & 3u) : k == 1 ? (b >> 3) & 7u : b & 7u;
}

/* Writes the address word {code, addr} as its awf flits, most significant first (docs/mp1.md
 * §14.1; awf 0 is taken as 1); returns the number of flits. */
static inline uint32_t mp1_addr_put(uint32_t awf, uint32_t code, uint32_t addr, uint8_t *o) {
  const uint32_t n = awf == 2 ? 2u : 1u, w = mp1_addr_word(n, code, addr);
  for (uint32_t f = 0; f < n; f++) o[f] = (uint8_t)mp1_addr_flit(n, w, f);
  return n;
}

/* Chunks of a message of len bytes as an interface sends it: [selection] EOS, then segments of
 * at most 32 flits (header included), each ended by EOS, the last by EOM. */
static inline uint32_t mp1_msg_nchunks(uint32_t len) {
  return 4 + 3 * len + (len + MP1_SEG_FLITS - 1) / MP1_SEG_FLITS;
}

/* Chunk pos of that sequence: the chunk for the selection flit's and the end codes' positions;
 * otherwise -1, with the byte's index in *i and the chunk of its flit in *k. */
static inline int mp1_msg_chunk_at(uint32_t sel, uint32_t len, uint32_t pos, uint32_t *i,
                                   uint32_t *k) {
  if (pos < 3) return (int)mp1_flit_chunk(sel, pos);
  if (pos == 3) return 1; /* EOS */
  const uint32_t p = pos - 4, seg = p / (3 * MP1_SEG_FLITS + 1), r = p % (3 * MP1_SEG_FLITS + 1);
  const uint32_t first = seg * MP1_SEG_FLITS;
  const uint32_t nb = len - first < MP1_SEG_FLITS ? len - first : (uint32_t)MP1_SEG_FLITS;
  if (r < 3 * nb) {
    *i = first + r / 3;
    *k = r % 3;
    return -1;
  }
  return first + nb == len ? 2 : 1; /* EOM, EOS */
}

/* The selection flit a message is sent with: fork (draft-4 §10.3) added to a code-4 broadcast
 * started in X (first: the message's first byte, whose top bits are a1's code, §14.1), so the
 * injection controller gives its Y output a2's word and the data: no second message. */
static inline uint32_t mp1_sel_tx(uint32_t sel, uint32_t first) {
  const int bcast_x = ((first >> 5) & 7u) == MP1_CODE_BCAST_2D && !(sel & 4u);
  return (sel | (bcast_x ? (uint32_t)MP1_SEL_FORK : 0u)) & 0xffu;
}

/* Sending (draft-4 §2, §10.4). A segment, once started, is sent to its end. A later segment of a
 * message (after its selection's EOS or a segment's EOS) may start in the cycle after one whose
 * stop was low, directly after the EOS (E). Between messages there is an idle chunk: not while an
 * EOM is on the channel; in the cycle after it (the controller's NEXT cycle) only the window, if
 * win is set: with stop low, a message to the same output as the previous one (and the previous
 * not forked) starts at its header, without a selection; otherwise that cycle's choice is idle,
 * since a start in the controller's WIN cycle is taken for a message in the window, by the serving
 * chip and by every chip that skipped the message (§10.2). So a selection starts no earlier than
 * the cycle after WIN. Later, a message starts with its selection when stop was low.
 * win is on after mp1_txf_init (the default): the machine behind raises stop as soon as it holds a
 * message it is not sending (draft-4 §6), so the stop the window is offered on already says so. */
typedef struct {
  uint8_t in_seg; /* a segment is being sent */
  uint8_t phase;  /* chunk index within the flit being sent (0: between flits) */
  uint8_t in_msg; /* between the segments of a message (its selection's included) */
  uint8_t after;  /* 0: no message sent yet; 1: the last chunk chosen was an EOM; 2: the one before
                     it (the controller's NEXT cycle now); 3: earlier */
  uint8_t sel;    /* the selection of the last message started (as sent, fork included) */
  uint8_t win;    /* use the window (1 after mp1_txf_init; a test may clear it) */
} mp1_txf_t;

/* A sender between messages, nothing sent yet, with the window on (draft-4 §10.4). */
static inline void mp1_txf_init(mp1_txf_t *f) {
  /* no compound literal or designated initializer: C++ before 20 has neither */
  memset(f, 0, sizeof *f);
  f->win = 1;
}

/* Whether the chunk after this cycle's is the message's next one, from this cycle's stop. first:
 * the message has sent nothing yet, sel its selection as sent (mp1_sel_tx); then *skip_sel says
 * whether it starts through the window, at its header (chunk 4). */
static inline int mp1_txf_go(mp1_txf_t *f, uint32_t inj_stop, int first, uint32_t sel,
                             int *skip_sel) {
  *skip_sel = 0;
  if (f->in_seg) return 1;
  if (inj_stop || f->after == 1) return 0;
  if (!first) return 1;
  if (f->after == 2) {
    if (!f->win || f->sel != (sel & 0xffu) || (f->sel & MP1_SEL_FORK)) return 0;
    *skip_sel = 1;
  }
  f->sel = (uint8_t)sel;
  return 1;
}

/* Chunk c has been chosen for the channel (every cycle, idle included). */
static inline void mp1_txf_sent(mp1_txf_t *f, uint32_t c) {
  if (f->phase == 0) {
    if (c & 4u) {
      f->in_seg = 1;
    } else if (f->in_seg && (c == 1 || c == 2)) { /* an end code */
      f->in_seg = 0;
      f->in_msg = c == 1;
      if (c == 2) f->after = 1;
    } else if (f->after && f->after < 3) {
      f->after++;
    }
  }
  f->phase = f->phase ? (uint8_t)((f->phase + 1) % 3) : ((c & 4u) ? 1 : 0);
}

/* Receiving: flits, EOS between segments, EOM; a gap or illegal chunk inside a segment. */
typedef struct {
  uint8_t ic, isr, iseg;
} mp1_rxf_t;

typedef enum {
  MP1_RXF_NONE = 0,
  MP1_RXF_OPEN, /* the first chunk of a segment */
  MP1_RXF_BYTE, /* a data flit is complete: its byte in *b */
  MP1_RXF_EOS,
  MP1_RXF_EOM,
  MP1_RXF_BAD   /* a gap or illegal chunk inside a segment: the segment is lost */
} mp1_rxf_e;

static inline mp1_rxf_e mp1_rxf_step(mp1_rxf_t *f, uint32_t c, uint8_t *b) {
  c &= 7u;
  if (f->ic == 1) {
    f->isr = (uint8_t)((f->isr << 3) | c);
    f->ic = 2;
    return MP1_RXF_NONE;
  }
  if (f->ic == 2) {
    *b = (uint8_t)((f->isr << 3) | c);
    f->ic = 0;
    return MP1_RXF_BYTE;
  }
  if (c & 4u) {
    const int opens = !f->iseg;
    f->iseg = 1;
    f->isr = (uint8_t)(c & 3u);
    f->ic = 1;
    return opens ? MP1_RXF_OPEN : MP1_RXF_NONE;
  }
  if (!f->iseg) return MP1_RXF_NONE; /* idle between segments */
  f->iseg = 0;
  return c == 1 ? MP1_RXF_EOS : c == 2 ? MP1_RXF_EOM : MP1_RXF_BAD;
}

typedef struct {
  mp1_msg_t q[MP1_NIC_QUEUE];
  uint32_t head, count;
  mp1_chunks_t cur;     /* chunks of q[head] once it has started */
  uint32_t pos;         /* next chunk of cur */
  mp1_txf_t txf;
  uint32_t started;     /* q[head] has started */
  uint32_t dat;         /* chunk on the injection channel this cycle (a register) */
  uint64_t t_first;     /* cycle the head message's first header chunk was on the channel */
  /* reception */
  mp1_rxf_t rxf;
  uint32_t r_len;
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
 * (adaptive) and DELIVER when both dimensions differ, else DELIVER alone; each address a word of
 * awf flits (§14.1). Writes m->bytes[0..h), m->sel and m->len = h; returns h, the header length
 * in flits. */
uint32_t mp1_msg_p2p(uint32_t awf, uint32_t kx, uint32_t s, uint32_t d, uint32_t adaptive,
                     mp1_msg_t *m);
/* Splits a message into chunks (docs/mp1.md §2, §3), its selection as sent (mp1_sel_tx). */
void mp1_msg_chunks(const mp1_msg_t *m, mp1_chunks_t *out);
/* After the cycle-t eval: the next chunk, from this cycle's inj_stop (a sender's register; the
 * rules of mp1_txf_go). Returns 1 in the cycle the head message's last chunk has been chosen (it
 * is then done). A caller may fill cur itself (started = 1, pos = 0) before the call. */
int mp1_nic_tx_step(mp1_nic_t *nic, uint32_t inj_stop, uint64_t t);
/* Takes this cycle's reception chunk; returns 1 and fills *m when a message's EOM arrived. A
 * malformed stream (a gap or illegal chunk inside a segment) returns -1 and drops the message. */
int mp1_nic_rx(mp1_nic_t *nic, uint32_t c, uint64_t t, mp1_rx_msg_t *m);

MADPOST_END_DECLS
#endif
