/* Fuzz target c104: the C104 switch (cmodel/c104*.c) with every port a token-level port (docs/c104.md
 * §14), given arbitrary configuration writes through its configuration port (interval table, hunt
 * groups, header modes, deletion, universal routing, seeds), then arbitrary packets (headers and
 * bodies) on its inputs, offered as a receive FIFO would, with arbitrary output stalls. Asserts,
 * besides the sanitizers: c104_eval never reports a broken invariant (two drivers of one output, a
 * release by a non-owner, no unique FIFO head); no merged packet on an output (every token of a
 * packet sent on an output comes from the slice granted it for that packet, §10.4, §12); and no
 * hang: once every input's open packet is
 * ended (EOP) and every output accepts, every slice is idle and every output released within a
 * bounded number of cycles (DISC never waits, §12; a forwarding slice moves a token a cycle). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <madpost/c104.h>

enum { DRAIN_CYCLES = 2000, KIND_DATA = 0, KIND_EOP = 1 };

/* The test bench's side of the token ports: one offered token per input, and whether the input's
   packet is open (its last token taken was DATA). */
typedef struct {
  uint8_t valid[C104_PORTS], kind[C104_PORTS], data[C104_PORTS], open[C104_PORTS];
  /* per output: a packet is being sent (its last token was DATA), and the slice sending it */
  uint8_t out_open[C104_PORTS], out_slice[C104_PORTS];
} src_t;

static void fail(const char *what, size_t cyc) {
  fprintf(stderr, "fuzz_c104: cycle %zu: %s\n", cyc, what);
  abort();
}

/* The block's calls, in one place. */
static void dut_reset(const c104_cfg_t *cfg, c104_state_t *st) { c104_reset(cfg, st); }

static void dut_cycle(const c104_cfg_t *cfg, c104_state_t *st, const c104_in_t *in,
                      c104_out_t *out, size_t c) {
  static c104_next_t nx;
  if (c104_eval(cfg, st, in, out, &nx, NULL)) fail("c104_eval: invariant broken", c);
  c104_clock(st, &nx);
}

/* One cycle with src's tokens offered and tx_ready as given; updates src from what was taken. */
static void step(const c104_cfg_t *cfg, c104_state_t *st, c104_in_t *in, src_t *s, size_t c) {
  c104_out_t out;
  for (int p = 0; p < C104_PORTS; p++) {
    in->tok_rx_valid[p] = s->valid[p];
    in->tok_rx_kind[p] = s->kind[p];
    in->tok_rx_data[p] = s->data[p];
  }
  uint8_t owner_q[C104_PORTS];
  memcpy(owner_q, st->r.out_owner, sizeof owner_q);
  dut_cycle(cfg, st, in, &out, c);
  for (int o = 0; o < C104_PORTS; o++) {
    if (!(out.tok_tx_valid[o] && in->tok_tx_ready[o])) continue;
    /* the first token goes in the grant cycle, before out_owner holds the grant */
    if (!s->out_open[o]) s->out_slice[o] = st->r.out_owner[o];
    else if (owner_q[o] != s->out_slice[o]) fail("merged packet on an output", c);
    s->out_open[o] = out.tok_tx_kind[o] == KIND_DATA;
  }
  for (int p = 0; p < C104_PORTS; p++)
    if (s->valid[p] && out.tok_rx_ready[p]) {
      s->valid[p] = 0;
      s->open[p] = s->kind[p] == KIND_DATA;
    }
}

static int settled(const c104_state_t *st, const src_t *s) {
  if (st->r.out_busy) return 0;
  for (int p = 0; p < C104_PORTS; p++)
    if (s->valid[p] || (st->r.sl_st[p] != C104_IDLE && st->r.sl_st[p] < 6)) return 0;
  return 1;
}

/* Every open packet ended with EOP, every output ready: the switch must empty. */
static void drain(const c104_cfg_t *cfg, c104_state_t *st, c104_in_t *in, src_t *s, size_t c) {
  for (int p = 0; p < C104_PORTS; p++) in->tok_tx_ready[p] = 1;
  for (int k = 0; k < DRAIN_CYCLES && !settled(st, s); k++, c++) {
    for (int p = 0; p < C104_PORTS; p++)
      if (!s->valid[p] && s->open[p]) s->valid[p] = 1, s->kind[p] = KIND_EOP, s->data[p] = 0;
    step(cfg, st, in, s, c);
  }
  if (!settled(st, s)) fail("hang: slices busy after every packet ended", c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  c104_cfg_t cfg;
  c104_cfg_default(&cfg);
  cfg.tok_ports = 0xFFFFFFFFu;
  static c104_state_t st;
  static c104_in_t in;
  dut_reset(&cfg, &st);
  memset(&in, 0, sizeof in);
  src_t s;
  memset(&s, 0, sizeof s);
  /* data[0]: how many configuration writes follow, 5 bytes each (address, data little-endian). */
  size_t i = 1, c = 0;
  for (uint32_t w = 0; w < data[0] && i + 5 <= size; w++, i += 5, c++) {
    in.cfg_we = 1;
    in.cfg_addr = data[i];
    in.cfg_wdata = (uint32_t)data[i + 1] | (uint32_t)data[i + 2] << 8 |
                   (uint32_t)data[i + 3] << 16 | (uint32_t)data[i + 4] << 24;
    step(&cfg, &st, &in, &s, c);
  }
  in.cfg_we = 0;
  /* Then 3 bytes a cycle: {valid, kind[1:0], port[4:0]}, the byte, output stalls (bit q&7 of
     the third byte set: output q not ready). A token is offered only on an input that has none. */
  for (; i + 3 <= size; i += 3, c++) {
    const uint32_t p = data[i] & 31u;
    if ((data[i] & 0x80u) && !s.valid[p])
      s.valid[p] = 1, s.kind[p] = (data[i] >> 5) & 3u, s.data[p] = data[i + 1];
    for (int q = 0; q < C104_PORTS; q++) in.tok_tx_ready[q] = !((data[i + 2] >> (q & 7)) & 1u);
    step(&cfg, &st, &in, &s, c);
  }
  drain(&cfg, &st, &in, &s, c);
  return 0;
}
