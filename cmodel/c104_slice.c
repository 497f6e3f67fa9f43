/* C104 input slice (docs/c104.md §9.2 rules S1-S9, §11, §12): header collection, interval lookup,
 * request, header emission, wormhole forwarding, discard. */
#include <stdio.h>

#include "c104_int.h"

static uint16_t inc16(uint32_t v) { return (uint16_t)((v + 1u) & 0xFFFFu); }

/* S8: entering IDLE from any state. */
static void to_idle(c104_regs_t *d, uint32_t i) {
  d->sl_st[i] = C104_IDLE;
  d->sl_hcnt[i] = 0;
  d->sl_skip[i] = 0;
  d->sl_ecnt[i] = 0;
}

/* A lookup hit or miss on a complete header x: WAIT with the request, or DISC (S2, S3). */
static void route(const c104_regs_t *q, c104_regs_t *d, uint32_t i, uint32_t x, uint32_t ecnt,
                  c104_comb_t *c) {
  uint32_t port, leader;
  if (c104_lookup(q, x, &port, &leader)) {
    d->sl_hdr[i] = (uint16_t)x;
    d->sl_grp[i] = (uint8_t)leader;
    d->sl_ecnt[i] = (uint8_t)ecnt;
    d->sl_skip[i] = 0;
    d->sl_st[i] = C104_WAIT;
    c->enter |= 1u << i;
  } else {
    d->cnt_bad[i] = inc16(q->cnt_bad[i]);
    d->sl_st[i] = C104_DISC;
  }
}

/* Drive output o from slice i as EMIT or FWD (S5, S6); grant = the grant cycle (S4). */
static void drive(const c104_regs_t *q, c104_regs_t *d, uint32_t i, uint32_t o, int grant,
                  c104_comb_t *c) {
  const uint32_t bit = 1u << o;
  if (c->driven & bit) {
    fprintf(stderr, "c104: internal error: output %u driven by two slices (one is %u)\n", o, i);
    c->err = 1;
  }
  if (!grant && (!(q->out_busy & bit) || q->out_owner[o] != i)) {
    fprintf(stderr, "c104: internal error: slice %u drives output %u which it does not own\n", i,
            o);
    c->err = 1;
  }
  c->driven |= bit;
  const uint32_t ready = c->txr[o];
  if (grant ? q->sl_ecnt[i] > 0 : q->sl_st[i] == C104_EMIT) {
    /* S5 EMIT */
    c->txv[o] = 1;
    c->txk[o] = DSLINK_KIND_DATA;
    c->txb[o] = (uint8_t)(q->sl_ecnt[i] == 2 ? q->sl_hdr[i] >> 8 : q->sl_hdr[i] & 0xFFu);
    if (ready) {
      d->sl_ecnt[i] = (uint8_t)((q->sl_ecnt[i] - 1u) & 3u);
      d->sl_st[i] = d->sl_ecnt[i] == 0 ? C104_FWD : C104_EMIT;
    } else {
      d->sl_st[i] = C104_EMIT;
    }
    return;
  }
  /* S6 FWD */
  const uint32_t v = c->rxv[i], k = c->rxk[i];
  c->txv[o] = (uint8_t)v;
  c->txk[o] = v ? (uint8_t)k : 0;
  c->txb[o] = v ? c->rxb[i] : 0;
  c->rxr[i] = (uint8_t)ready;
  d->sl_st[i] = C104_FWD;
  if (v && ready && k != DSLINK_KIND_DATA) {
    c->rel |= bit;
    if (k == DSLINK_KIND_ERR)
      d->cnt_cut[i] = inc16(q->cnt_cut[i]);
    to_idle(d, i);
  }
}

void c104_slice_pre(const c104_regs_t *q, c104_regs_t *d, uint32_t i, c104_comb_t *c) {
  const uint32_t st = q->sl_st[i];
  const uint32_t v = c->rxv[i];
  if (st == C104_EMIT || st == C104_FWD) {
    drive(q, d, i, q->sl_port[i], 0, c);
    return;
  }
  if (st == C104_WAIT) {
    c->waiting |= 1u << i;
    if (v && c->rxk[i] == DSLINK_KIND_ERR) {
      /* S4 withdrawal */
      c->rxr[i] = 1;
      d->cnt_cut[i] = inc16(q->cnt_cut[i]);
      to_idle(d, i);
    } else {
      c->cand |= 1u << i;
    }
    return;
  }
  if (st == C104_DISC) {
    /* S7 */
    c->rxr[i] = 1;
    if (v && c->rxk[i] != DSLINK_KIND_DATA)
      to_idle(d, i);
    return;
  }
  /* IDLE (and 6, 7 acting as IDLE) or HDR */
  const int idle = st != C104_HDR;
  if (!v) {
    if (idle && st != C104_IDLE)
      to_idle(d, i); /* 6, 7 become 0 */
    return;          /* HDR with !v: stay */
  }
  const uint32_t k = c->rxk[i], b = c->rxb[i];
  const uint32_t cp = q->cfg_port[i];
  const uint32_t H = (cp & C104_PORT_HDR2) ? 2u : 1u;
  const int rnd = (cp & C104_PORT_RND) != 0;
  const uint32_t del0 = (cp >> C104_PORT_DEL_SHIFT) & 3u;
  const uint32_t del = rnd ? 0u : (del0 == 3u ? 0u : del0);
  if (idle) {
    if (k != DSLINK_KIND_DATA) {
      /* S1, S2: a stray end token */
      c->rxr[i] = 1;
      d->cnt_stray[i] = inc16(q->cnt_stray[i]);
      to_idle(d, i);
      return;
    }
    if (rnd) {
      /* S2: draw, no pop */
      const uint32_t r = c104_rand_header(q->lfsr[i], q->cfg_rlo[i], q->cfg_rhi[i]);
      d->lfsr[i] = (uint16_t)c104_lfsr_next(q->lfsr[i]);
      const uint32_t x = H == 1 ? (r & 0xFFu) : r;
      route(q, d, i, x, H, c);
      return;
    }
  }
  /* S3 header step */
  const uint32_t hcnt = idle ? 0u : q->sl_hcnt[i];
  const int skip = idle ? del == 2 : q->sl_skip[i] != 0;
  c->rxr[i] = 1;
  if (k != DSLINK_KIND_DATA) {
    /* only in HDR: a packet ending inside its header */
    if (k == DSLINK_KIND_ERR)
      d->cnt_cut[i] = inc16(q->cnt_cut[i]);
    else
      d->cnt_short[i] = inc16(q->cnt_short[i]);
    to_idle(d, i);
    return;
  }
  if (hcnt + 1u < H) {
    d->sl_hdr[i] = (uint16_t)((q->sl_hdr[i] & 0x00FFu) | (b << 8));
    d->sl_hcnt[i] = 1;
    d->sl_skip[i] = (uint8_t)skip;
    d->sl_st[i] = C104_HDR;
    return;
  }
  const uint32_t x = H == 2 ? ((uint32_t)(q->sl_hdr[i] & 0xFF00u) | b) : b;
  d->sl_hcnt[i] = 0;
  if (skip) {
    d->sl_skip[i] = 0;
    d->sl_st[i] = C104_HDR;
    return;
  }
  route(q, d, i, x, del == 1 ? 0u : H, c);
}

void c104_slice_grant(const c104_regs_t *q, c104_regs_t *d, uint32_t i, uint32_t f,
                      c104_comb_t *c) {
  d->cnt_pkt[i] = inc16(q->cnt_pkt[i]);
  d->sl_port[i] = (uint8_t)f;
  drive(q, d, i, f, 1, c);
}
