/* Link figures: two DS-Link model ends back to back with a T9000-style endpoint on each, timed
 * over a window of whole messages (docs/dslink.md §9). */
#include <madpost/dslink_bw.h>

#include <stdio.h>

#include <madpost/t9k.h>

double dslink_bw_formula(uint32_t m, dslink_bw_mode_e mode) {
  if (m == 0)
    return 0.0;
  const double n = (double)((m + T9K_PACKET_BYTES - 1) / T9K_PACKET_BYTES);
  double bits;
  if (mode == DSLINK_BW_ONE_WAY) {
    /* data and header/end bits, plus 4-bit FCTs for the 2n acknowledgement tokens coming back */
    bits = 10.0 * m + 14.0 * n + 4.0 * (2.0 * n / 8.0);
  } else {
    /* our data and our acks, plus FCTs for the m + 4n tokens coming the other way */
    bits = 10.0 * m + 28.0 * n + 4.0 * ((m + 4.0 * n) / 8.0);
  }
  return 8.0 * m / bits * DSLINK_BW_LINK_MBPS;
}

typedef struct {
  dslink_state_t link;
  t9k_state_t ep;
  t9k_cfg_t epc;
} side_t;

/* Senders start once the link is up, so start-up is not in the figures; in two-way mode the
   second sender half a packet later, so the two directions interleave. */
static void start_senders(const dslink_cfg_t *cfg, side_t *s, uint32_t m, dslink_bw_mode_e mode) {
  s[0].epc.send = 1;
  s[0].epc.send_start = s[0].ep.cyc;
  if (mode != DSLINK_BW_ONE_WAY) {
    const uint32_t pkt = m < T9K_PACKET_BYTES ? m : T9K_PACKET_BYTES;
    s[1].epc.send = 1;
    s[1].epc.send_start =
        s[1].ep.cyc + (mode == DSLINK_BW_TWO_WAY ? (10u * pkt + 14u) / 2u * cfg->bit_period : 0);
  }
}

/* One cycle of both link ends and both endpoints (lo: the ends' outputs this cycle); the
   endpoints' events into ev, the link ends' into lev. -1 if a link model invariant broke. */
static int step_pair(const dslink_cfg_t *cfg, side_t *s, const dslink_out_t *lo, t9k_ev_t *ev,
                     dslink_ev_t *lev) {
  t9k_in_t ei[2];
  t9k_out_t eo[2];
  t9k_next_t en[2];
  for (int i = 0; i < 2; i++) {
    ei[i] = (t9k_in_t){lo[i].tx_ready, lo[i].rx_valid, lo[i].rx_data, lo[i].rx_kind};
    t9k_eval(&s[i].epc, &s[i].ep, &ei[i], &eo[i], &en[i], &ev[i]);
  }
  dslink_next_t nx[2];
  for (int i = 0; i < 2; i++) {
    const side_t *peer = &s[1 - i];
    dslink_in_t in = {.d = peer->link.r.tx_d,
                      .s = peer->link.r.tx_s,
                      .link_en = 1,
                      .tx_valid = eo[i].tx_valid,
                      .tx_data = eo[i].tx_data,
                      .tx_kind = eo[i].tx_kind,
                      .rx_ready = eo[i].rx_ready};
    dslink_out_t out;
    if (dslink_eval(cfg, &s[i].link, &in, &out, &nx[i], &lev[i]))
      return -1;
  }
  for (int i = 0; i < 2; i++) {
    dslink_clock(&s[i].link, &nx[i]);
    t9k_clock(&s[i].ep, &en[i]);
  }
  return 0;
}

/* FCTs and NULLs the first end sent, in all and at the window's start. */
typedef struct {
  uint64_t t_first, fct_first, fcts, null_first, nulls;
} window_t;

int dslink_bw_measure(const dslink_cfg_t *cfg, uint32_t m, dslink_bw_mode_e mode, uint32_t nvl,
                      uint32_t messages, dslink_bw_t *res, char *err, size_t errlen) {
  side_t s[2];
  /* The virtual links complete messages in a fixed round-robin order once the link is in its
   * steady state, so a window of whole rounds (a multiple of nvl messages) is exact. */
  nvl = nvl < 1 ? 1 : nvl;
  messages = (messages + nvl - 1) / nvl * nvl;
  const uint32_t warm = 4 * nvl;
  for (int i = 0; i < 2; i++) {
    dslink_reset(cfg, &s[i].link);
    s[i].epc = (t9k_cfg_t){.nvl = nvl, .msg_len = m, .send = 0, .send_start = 0};
    t9k_reset(&s[i].epc, &s[i].ep);
  }
  *res = (dslink_bw_t){0};
  /* Per message, a generous bound: the slowest case is about 30 bit periods a byte. */
  const uint64_t limit = 2000 + (uint64_t)(messages + warm + 2) * (uint64_t)(m + 40) * 40 *
                                    cfg->bit_period;
  int started = 0;
  window_t w = {0};
  for (uint64_t cyc = 0; cyc < limit; cyc++) {
    dslink_out_t lo[2];
    for (int i = 0; i < 2; i++)
      dslink_outputs(cfg, &s[i].link, &lo[i]);
    if (!started && lo[0].link_state == DSLINK_ST_RUN && lo[1].link_state == DSLINK_ST_RUN) {
      started = 1;
      start_senders(cfg, s, m, mode);
    }
    t9k_ev_t ev[2];
    dslink_ev_t lev[2];
    if (step_pair(cfg, s, lo, ev, lev)) {
      snprintf(err, errlen, "link model invariant broken at cycle %llu", (unsigned long long)cyc);
      return -1;
    }
    w.fcts += lev[0].fct_sent;
    w.nulls += lev[0].null_sent;
    if (lev[0].link_rst && started) {
      snprintf(err, errlen, "link reset during the measurement at cycle %llu",
               (unsigned long long)cyc);
      return -1;
    }
    if (ev[1].msg_done) {
      const uint64_t k = s[1].ep.msgs_rcvd;
      if (k == warm) {
        w.t_first = cyc;
        w.fct_first = w.fcts;
        w.null_first = w.nulls;
      } else if (k == warm + messages) {
        res->cycles = cyc - w.t_first;
        res->messages = messages;
        res->fcts = w.fcts - w.fct_first;
        res->nulls = w.nulls - w.null_first;
        const double bit_times = (double)res->cycles / cfg->bit_period;
        res->mbps = m ? 8.0 * m * messages / bit_times * DSLINK_BW_LINK_MBPS : 0.0;
        return 0;
      }
    }
  }
  snprintf(err, errlen, "no result within %llu cycles (m = %u)", (unsigned long long)limit, m);
  return -1;
}

int dslink_bw_row(const dslink_cfg_t *cfg, uint32_t m, uint32_t messages, dslink_bw_row_t *row,
                  char *err, size_t errlen) {
  dslink_bw_t r;
  double *dst[5] = {&row->one_way_1vl, &row->one_way_cap, &row->two_way_1vl, &row->lockstep_1vl,
                    &row->two_way_cap};
  const dslink_bw_mode_e mode[5] = {DSLINK_BW_ONE_WAY, DSLINK_BW_ONE_WAY, DSLINK_BW_TWO_WAY,
                                    DSLINK_BW_LOCKSTEP, DSLINK_BW_TWO_WAY};
  const uint32_t nvl[5] = {1, DSLINK_BW_CAP_VL, 1, 1, DSLINK_BW_CAP_VL};
  row->bytes = m;
  row->cap_nulls = 0;
  for (int i = 0; i < 5; i++) {
    if (dslink_bw_measure(cfg, m, mode[i], nvl[i], messages, &r, err, errlen))
      return -1;
    *dst[i] = r.mbps;
    if (nvl[i] > 1)
      row->cap_nulls += r.nulls;
  }
  row->eq41 = dslink_bw_formula(m, DSLINK_BW_ONE_WAY);
  row->eq42 = dslink_bw_formula(m, DSLINK_BW_TWO_WAY);
  row->diff41 = m ? 100.0 * (row->one_way_cap - row->eq41) / row->eq41 : 0.0;
  row->diff42 = m ? 100.0 * (row->two_way_cap - row->eq42) / row->eq42 : 0.0;
  return 0;
}
