/* Exact per-hop latency of one MP1 message through a mesh (docs/mp1.md §13, docs/mp1_draft4.md
 * §11): runs the C mesh with optional background traffic, records every routing machine's message
 * residencies, and follows the message's live path from source to destination. */
#ifndef MADPOST_MP1_HOP_H
#define MADPOST_MP1_HOP_H

#include <madpost/madpost_api.h>
#include <stdint.h>

MADPOST_BEGIN_DECLS

enum { MP1_HOP_MAX = 80 };

typedef struct {
  uint32_t kx, ky;
  uint32_t sx, sy, dx, dy; /* source and destination nodes */
  uint32_t len;            /* data bytes (the 1 or 2 header flits come on top) */
  uint32_t adaptive;       /* code 1 (adaptive) instead of 0 (static) for two-dimension paths */
  uint32_t load_ppm;       /* background: new message per node per cycle, in millionths */
  uint32_t bg_len;         /* data bytes of background messages */
  uint64_t seed;
  uint64_t warmup;         /* cycles of background before the message is queued */
  uint64_t max_cycles;     /* give up after this many cycles */
  const char *vcd_path;    /* NULL: no VCD; else the path nodes' channels and machines */
} mp1_hop_cfg_t;

typedef enum { MP1_HOP_SOURCE, MP1_HOP_STRAIGHT, MP1_HOP_TURN, MP1_HOP_DELIVER } mp1_hop_kind_e;

typedef struct {
  uint32_t node, x, y;
  uint32_t plane, dim;          /* input channel (the source: its output channel) */
  uint32_t kind;                /* mp1_hop_kind_e */
  uint64_t arrive, decide, depart;
  uint32_t delay;               /* depart - arrive */
  uint32_t dead;                /* dead address flits spawned here */
  uint32_t adapt;               /* adaptive turns taken here */
} mp1_hop_t;

typedef struct {
  uint32_t nhops;
  mp1_hop_t hop[MP1_HOP_MAX];
  uint32_t links;      /* d: links crossed, source output to destination input */
  uint32_t flits;      /* F: flits injected (header + data) */
  uint32_t turns;      /* turn nodes on the path */
  uint64_t t_inj;      /* first header chunk on the source's injection channel */
  uint64_t t0;         /* first chunk on the first link */
  uint64_t t_last_in;  /* last data chunk into the destination's routing machine */
  uint64_t t_rcv_eom;  /* EOM on the destination's reception channel */
  uint64_t net;        /* t_last_in - t0 + 1 */
  uint64_t total;      /* t_rcv_eom - t_inj + 1 */
  int64_t formula;     /* d + 3F - 1 (seed 004: (k d + l - k) tau / w, k = 3, l = 9F, w = 3) */
  double formula_k1;   /* the same with the paper's synchronous k = 1: (d + 9F - 1) / 3 */
  uint32_t segments;   /* segments of the message (32 flits each, the header counted) */
  int64_t predicted;   /* formula + (segments - 1) (docs/mp1_draft4.md §11: no turn term) */
  uint32_t data_ok;    /* the delivered bytes equal the sent data */
  uint64_t bg_sent, bg_delivered;
} mp1_hop_result_t;

/* Extra cycles a segment boundary costs at zero load beyond mad-postman pipelining: its EOS chunk
 * only, a later segment following it directly (docs/mp1_draft4.md §11; a turn costs none). */
enum { MP1_HOP_SEG_EXTRA = 1 };

/* Returns 0; -2 with a message in err for a bad configuration; -1 with one if the run failed (no
 * arrival in time, no memory, or a chip's err: the buffer invariant, docs/mp1_draft4.md §6). */
int mp1_hop_run(const mp1_hop_cfg_t *cfg, mp1_hop_result_t *res, char *err, unsigned errlen);

MADPOST_END_DECLS
#endif
