/* Fuzz target dslink: one DS-Link end (cmodel/dslink*.c) whose D and S inputs are arbitrary bits.
 * Asserts, besides the sanitizers: dslink_eval never reports a broken invariant; every parity,
 * escape and disconnect error of docs/dslink.md §6, found by an independent decoder of the bit
 * stream written here from the document, is counted by the model as that error, in that cycle,
 * and so is every credit and protocol error the decoder's confirmed FCTs and normal tokens make
 * in the link's state (§4);
 * the receive interface never delivers a merged packet (§6.3: one packet's tokens come from one
 * link-up episode, a packet cut by a link reset is closed with ERR). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <madpost/dslink.h>

/* The receiver registers of docs/dslink.md §3 marked L, and rx_x, as the document defines them. */
typedef struct {
  uint32_t x, dc, seen, sync, sr, cnt, pbit, flag, par, pend_v, pend_f, pend_val, esc;
} ref_rx_t;

typedef struct {
  uint32_t par, esc, disc, fct, nchar;
} ref_err_t;

/* Confirmed token (§6.2): escape errors; an ESC FCT pair is a NULL. */
static void ref_confirm(const ref_rx_t *q, ref_rx_t *d, ref_err_t *e) {
  const int fct = q->pend_f && q->pend_val == DSLINK_CTL_FCT;
  if (q->esc) {
    if (fct)
      d->esc = 0;
    else
      e->esc = 1;
  } else if (q->pend_f && q->pend_val == DSLINK_CTL_ESC) {
    d->esc = 1;
  } else if (fct) {
    e->fct = 1;
  } else {
    e->nchar = 1;
  }
}

/* Token bits after sync (§6.1). */
static void ref_token_bit(const ref_rx_t *q, ref_rx_t *d, uint32_t bit, ref_err_t *e) {
  if (q->cnt == 0) {
    d->pbit = bit, d->cnt = 1;
  } else if (q->cnt == 1) {
    d->flag = bit, d->cnt = 2;
    if ((q->pbit ^ bit ^ q->par) != 1)
      e->par = 1;
    else if (q->pend_v) {
      ref_confirm(q, d, e);
      d->pend_v = 0;
    }
  } else {
    d->sr = ((bit << 7) | (q->sr >> 1)) & 0xFF;
    if ((q->flag && q->cnt == 3) || (!q->flag && q->cnt == 9)) {
      const uint32_t b6 = (d->sr >> 6) & 1, b7 = (d->sr >> 7) & 1;
      d->pend_v = 1, d->pend_f = q->flag, d->cnt = 0;
      d->pend_val = q->flag ? (b6 << 1) | b7 : d->sr;
      d->par = q->flag ? b6 ^ b7 : (uint32_t)__builtin_parity(d->sr);
    } else {
      d->cnt = q->cnt + 1;
    }
  }
}

/* One cycle of the reference receiver: the errors it sees (before gating), next registers. */
static ref_err_t ref_step(ref_rx_t *r, uint32_t d_i, uint32_t s_i, uint32_t disc_cycles,
                          int rx_rst) {
  const ref_rx_t q = *r;
  ref_rx_t d = q;
  ref_err_t e = {0, 0, 0, 0, 0};
  const uint32_t bit_ev = (d_i ^ s_i) != q.x, bit = d_i;
  d.x = d_i ^ s_i;
  e.disc = q.seen && !bit_ev && q.dc == disc_cycles - 1;
  if (bit_ev) {
    if (!q.sync) {
      d.sr = ((bit << 7) | (q.sr >> 1)) & 0xFF;
      d.sync = d.sr == 0x2E;
    } else {
      ref_token_bit(&q, &d, bit, &e);
    }
  }
  d.seen = q.seen | bit_ev;
  d.dc = bit_ev ? 0 : q.seen ? (q.dc + 1 > 255 ? 255 : q.dc + 1) : q.dc;
  if (rx_rst) {
    const uint32_t x = d.x;
    memset(&d, 0, sizeof d);
    d.x = x;
  }
  *r = d;
  return e;
}

/* The receive FIFO as seen from outside: each entry with the link-up episode it was written in. */
typedef struct {
  uint16_t tok[DSLINK_RXF_ENTRIES_MAX];
  uint32_t ep[DSLINK_RXF_ENTRIES_MAX];
  uint32_t head, n;
  uint32_t episode;          /* link resets so far */
  int open;                  /* the consumer is inside a packet (last popped token was DATA) */
  uint32_t open_ep;          /* the episode of that packet */
} shadow_t;

static void fail(const char *what, size_t cyc) {
  fprintf(stderr, "fuzz_dslink: cycle %zu: %s\n", cyc, what);
  abort();
}

/* The input's first byte: the configuration (bit period 1..4, short or default timers). */
static void fuzz_cfg(uint8_t b, dslink_cfg_t *cfg) {
  dslink_cfg_default(cfg);
  cfg->bit_period = 1u + (b & 3u);
  if (b & 4u) {
    cfg->reset_cycles = 4;
    cfg->wait_cycles = 8;
    cfg->timeout_cycles = 16;
  }
  char err[200];
  if (dslink_cfg_check(cfg, err, sizeof err)) {
    fprintf(stderr, "fuzz_dslink: harness configuration refused: %s\n", err);
    abort();
  }
}

/* The block's calls, in one place. */
static int dut_cycle(const dslink_cfg_t *cfg, dslink_state_t *st, const dslink_in_t *in,
                     dslink_out_t *out, dslink_next_t *nx, dslink_ev_t *ev) {
  const int rc = dslink_eval(cfg, st, in, out, nx, ev);
  return rc;
}

static void dut_reset(const dslink_cfg_t *cfg, dslink_state_t *st) { dslink_reset(cfg, st); }

/* The credit and protocol errors of §4 that the decoder's events make in the state q. */
static void expected_link_errors(const dslink_cfg_t *cfg, const dslink_regs_t *q, ref_err_t e,
                                 uint32_t *cred, uint32_t *proto) {
  const uint32_t s = q->fsm_state;
  const int conn_run = s == DSLINK_ST_CONNECTING || s == DSLINK_ST_RUN;
  const int pre = s == DSLINK_ST_ERROR_WAIT || s == DSLINK_ST_READY || s == DSLINK_ST_STARTED;
  *cred = (e.fct && conn_run && q->tx_credit + 8u > cfg->tx_credit_max) ||
          (e.nchar && s == DSLINK_ST_RUN && q->rx_credit == 0);
  *proto = (e.fct && pre) || (e.nchar && (pre || s == DSLINK_ST_CONNECTING));
}

static void check_errors(const dslink_cfg_t *cfg, const dslink_regs_t *q, const dslink_regs_t *n,
                         ref_err_t e, size_t c) {
  if (q->fsm_state == DSLINK_ST_ERROR_RESET) e = (ref_err_t){0, 0, 0, 0, 0}; /* events gated */
  uint32_t cred, proto;
  expected_link_errors(cfg, q, e, &cred, &proto);
  const uint32_t dpar = (n->cnt_par_err - q->cnt_par_err) & 0xFFFFu;
  const uint32_t desc = (n->cnt_esc_err - q->cnt_esc_err) & 0xFFFFu;
  const uint32_t ddisc = (n->cnt_disc_err - q->cnt_disc_err) & 0xFFFFu;
  const uint32_t dcred = (n->cnt_cred_err - q->cnt_cred_err) & 0xFFFFu;
  const uint32_t dproto = (n->cnt_proto_err - q->cnt_proto_err) & 0xFFFFu;
  if (dpar != e.par) fail("parity error count differs from the decoder", c);
  if (desc != e.esc) fail("escape error count differs from the decoder", c);
  if (ddisc != e.disc) fail("disconnect error count differs from the decoder", c);
  if (dcred != cred) fail("credit error count differs from the decoder's tokens", c);
  if (dproto != proto) fail("protocol error count differs from the decoder's tokens", c);
}

/* Pops and pushes of the receive FIFO: no token of another episode inside an open packet. */
static void check_fifo(shadow_t *sh, const dslink_in_t *in, const dslink_out_t *out,
                       const dslink_next_t *nx, const dslink_ev_t *ev, size_t c) {
  if (out->rx_valid && in->rx_ready) {
    if (sh->n == 0) fail("rx_valid_o with an empty receive FIFO", c);
    const uint16_t t = sh->tok[sh->head];
    const uint32_t ep = sh->ep[sh->head];
    if (out->rx_kind != (uint32_t)(t >> 8) || out->rx_data != (uint32_t)(t & 0xFF))
      fail("delivered token is not the one written", c);
    if (sh->open && ep != sh->open_ep) fail("merged packet: tokens of two link-up episodes", c);
    sh->open = out->rx_kind == DSLINK_KIND_DATA;
    sh->open_ep = ep;
    sh->head = (sh->head + 1) % DSLINK_RXF_ENTRIES_MAX;
    sh->n--;
  }
  if (nx->rxf_we) {
    if (sh->n == DSLINK_RXF_ENTRIES_MAX) fail("receive FIFO shadow overflow", c);
    const uint32_t at = (sh->head + sh->n) % DSLINK_RXF_ENTRIES_MAX;
    sh->tok[at] = nx->rxf_wdata;
    sh->ep[at] = sh->episode;
    sh->n++;
  }
  if (ev->link_rst) sh->episode++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  dslink_cfg_t cfg;
  fuzz_cfg(data[0], &cfg);
  static dslink_state_t st;
  static shadow_t sh;
  dut_reset(&cfg, &st);
  memset(&sh, 0, sizeof sh);
  ref_rx_t ref;
  memset(&ref, 0, sizeof ref);
  /* One byte a cycle: d, s, rx_ready, !link_en, tx_valid, tx_kind; the byte is tx_data. */
  for (size_t c = 1; c < size; c++) {
    const uint8_t b = data[c];
    dslink_in_t in = {.d = b & 1u, .s = (b >> 1) & 1u, .rx_ready = (b >> 2) & 1u,
                      .link_en = !((b >> 3) & 1u), .tx_valid = (b >> 4) & 1u,
                      .tx_kind = (b >> 5) & 3u, .tx_data = b};
    dslink_out_t out;
    dslink_next_t nx;
    dslink_ev_t ev;
    if (dut_cycle(&cfg, &st, &in, &out, &nx, &ev)) fail("dslink_eval: invariant broken", c);
    const int rx_rst = st.r.fsm_state == DSLINK_ST_ERROR_RESET || ev.link_rst;
    const ref_err_t e = ref_step(&ref, in.d, in.s, cfg.disconnect_cycles, rx_rst);
    check_errors(&cfg, &st.r, &nx.r, e, c);
    check_fifo(&sh, &in, &out, &nx, &ev, c);
    dslink_clock(&st, &nx);
  }
  return 0;
}
