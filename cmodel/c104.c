/* C104 switch top (docs/c104.md §5, §6, §13, §14): port interfaces (dslink ends or token ports),
 * the slices, the arbiters, the crossbar, the links, the configuration port, reset and clock. */
#include <string.h>

#include "c104_int.h"

void c104_reset(const c104_cfg_t *cfg, c104_state_t *st) {
  memset(st, 0, sizeof *st);
  for (uint32_t p = 0; p < C104_PORTS; p++) {
    st->r.lfsr[p] = C104_LFSR_SEED;
    dslink_reset(&cfg->link, &st->link[p]);
  }
  st->r.cfg_grp = 0xFFFFFFFFu;
}

/* Every slice IDLE (sl_st is 32 bytes, read as four words). */
static int all_idle(const c104_regs_t *q) {
  uint64_t w[4];
  memcpy(w, q->sl_st, sizeof w);
  return (w[0] | w[1] | w[2] | w[3]) == 0;
}

int c104_eval(const c104_cfg_t *cfg, const c104_state_t *st, const c104_in_t *in, c104_out_t *out,
              c104_next_t *nx, c104_ev_t *ev) {
  _Static_assert(sizeof(((c104_regs_t *)0)->sl_st) == 32, "sl_st is 32 bytes");
  const c104_regs_t *q = &st->r;
  c104_regs_t *d = &nx->r;
  const uint32_t tok = cfg->tok_ports;
  nx->bit_ports = ~tok;

  c104_comb_t c;
  memset(&c, 0, sizeof c);

  /* 1. Port interfaces (§5, §14): registers of the links, or the token pins. */
  uint32_t anyv = 0;
  for (uint32_t p = 0; p < C104_PORTS; p++) {
    if ((tok >> p) & 1u) {
      c.rxv[p] = (uint8_t)(in->tok_rx_valid[p] & 1u);
      c.rxk[p] = c.rxv[p] ? (uint8_t)(in->tok_rx_kind[p] & 3u) : 0;
      c.rxb[p] = c.rxv[p] ? (uint8_t)(in->tok_rx_data[p] & 0xFFu) : 0;
      c.txr[p] = (uint8_t)(in->tok_tx_ready[p] & 1u);
    } else {
      dslink_out_t lo;
      dslink_outputs(&cfg->link, &st->link[p], &lo);
      c.rxv[p] = (uint8_t)lo.rx_valid;
      c.rxk[p] = (uint8_t)lo.rx_kind;
      c.rxb[p] = (uint8_t)lo.rx_data;
      c.txr[p] = (uint8_t)lo.tx_ready;
    }
    anyv |= c.rxv[p];
  }

  /* Quiet: every slice IDLE, no token at any input, no configuration write. No rule applies, so
     no register of the switch changes (out_busy and age are 0 when every slice is IDLE: the
     invariants of §10.2 and §10.4) and the slices drive nothing: keep_r tells c104_clock to leave
     the registers as they are (nx->r is then not written). */
  nx->keep_r = !anyv && !(in->cfg_we & 1u) && all_idle(q);
  if (!nx->keep_r) {
    *d = *q;

    /* 2. Slices: the rules that need no grant; withdrawal tests and lookups (§9.2). */
    for (uint32_t i = 0; i < C104_PORTS; i++) {
      /* an idle slice with nothing at its input does nothing (S1, S2) */
      if (q->sl_st[i] == C104_IDLE && !c.rxv[i])
        continue;
      c104_slice_pre(q, d, i, &c);
    }

    /* 3. Arbiters (§10.3), then the granted slices act in the grant cycle (S4). */
    if (c.cand) {
      c104_arb_grant(q, d, &c);
      for (uint32_t m = c.granted; m; m &= m - 1u) {
        const uint32_t i = c104_ctz(m);
        c104_slice_grant(q, d, i, c.port_of[i], &c);
      }
    }
    /* 4. Age matrix, ownership (§10.2, §10.4). */
    if (c.waiting | c.enter | c.gnt | c.rel)
      c104_arb_update(q, d, &c);

    /* 6. The configuration port: a write wins over a rule at the same edge (§7). */
    if (in->cfg_we & 1u)
      c104_cfg_write(d, in->cfg_addr, in->cfg_wdata);
  }

  /* 5. Crossbar to the ports; the links (§13). */
  for (uint32_t p = 0; p < C104_PORTS; p++) {
    if ((tok >> p) & 1u) {
      out->d[p] = out->s[p] = 0;
      out->tok_rx_ready[p] = c.rxr[p];
      out->tok_tx_valid[p] = c.txv[p];
      out->tok_tx_data[p] = c.txb[p];
      out->tok_tx_kind[p] = c.txk[p];
      out->link_state[p] = C104_LINK_RUN;
    } else {
      const dslink_in_t li = {
          .d = in->d[p] & 1u,
          .s = in->s[p] & 1u,
          .link_en = in->link_en[p] & 1u,
          .tx_valid = c.txv[p],
          .tx_data = c.txb[p],
          .tx_kind = c.txk[p],
          .rx_ready = c.rxr[p],
      };
      dslink_out_t lo;
      if (dslink_eval(&cfg->link, &st->link[p], &li, &lo, &nx->link[p], ev ? &ev->link[p] : NULL))
        c.err = 1;
      out->d[p] = lo.d;
      out->s[p] = lo.s;
      out->tok_rx_ready[p] = out->tok_tx_valid[p] = 0;
      out->tok_tx_data[p] = out->tok_tx_kind[p] = 0;
      out->link_state[p] = lo.link_state;
    }
  }
  return c.err ? -1 : 0;
}

void c104_clock(c104_state_t *st, const c104_next_t *nx) {
  if (!nx->keep_r)
    st->r = nx->r;
  for (uint32_t m = nx->bit_ports; m; m &= m - 1u) {
    const uint32_t p = c104_ctz(m);
    dslink_clock(&st->link[p], &nx->link[p]);
  }
}

const char *c104_sl_state_name(uint32_t s) {
  static const char *const names[] = {"IDLE", "HDR", "WAIT", "EMIT", "FWD", "DISC", "6", "7"};
  return names[s & 7u];
}
