/* C104 network packet tracking outside the hardware (docs/c104.md §17.6): which packet each
 * link end, switch slice and endpoint holds, so that every delivered packet gets its creation,
 * first output and first internal-link times, and the per-packet callback is called. */
#include <stdlib.h>

#include <madpost/c104_net.h>
#include "c104_net_int.h"

#define NOID C104_NET_NOID
#define UNSET C104_NET_UNSET
/* The tracking lost a packet: a model bug, counted (c104_net_result_t.track_errs must be 0). */
#define TERR(w) ((w)->track_errs++)

void c104_net_on_packet(c104_net_t *w, c104_net_pkt_fn fn, void *ctx) {
  w->pkt_fn = fn;
  w->pkt_ctx = ctx;
}

/* The packet whose first token the receiving end e_rx has just taken. */
static uint32_t trk_pop(c104_net_t *w, uint32_t e_rx) {
  const int32_t tx = w->peer[e_rx];
  c104_net_trk_t *t = tx >= 0 ? &w->trk[tx] : NULL;
  if (!t || !t->n || !t->cur) {
    TERR(w);
    return NOID;
  }
  const uint32_t id = t->id[t->head];
  t->head = (t->head + 1u) % C104_NET_TRACK;
  t->n--, t->cur--;
  return id;
}

static uint32_t pk_alloc(c104_net_t *w) {
  if (w->pfree == NOID) {
    const uint32_t cap = 2 * w->pcap;
    c104_net_pkrec_t *p = realloc(w->ptab, cap * sizeof *p);
    if (!p)
      return NOID;
    for (uint32_t i = w->pcap; i < cap; i++)
      p[i] = (c104_net_pkrec_t){.next_free = i + 1 < cap ? i + 1 : NOID};
    w->ptab = p, w->pfree = w->pcap, w->pcap = cap;
  }
  const uint32_t id = w->pfree;
  w->pfree = w->ptab[id].next_free;
  w->plive++;
  return id;
}

/* The window's packet lifetimes of a delivered packet. */
static void count_packet(c104_net_t *w, const c104_net_pkrec_t *p) {
  w->w_packets++;
  w->w_acks += p->hdr & 1u;
  c104_net_acc(&w->a_create, (double)(w->cyc - p->t_create));
  if (p->t_out != UNSET)
    c104_net_acc(&w->a_out, (double)(w->cyc - p->t_out));
  if (p->t_int != UNSET)
    c104_net_acc(&w->a_routed, (double)(w->cyc - p->t_int));
  else
    w->w_unrouted++;
}

/* Packet id delivered to node n on link l (its end token popped); bytes: the message's as the
   receiver counted them, when this end token is an EOM. */
static void deliver(c104_net_t *w, uint32_t n, uint32_t id, int msg, uint32_t bytes) {
  if (id == NOID || id >= w->pcap || !w->ptab[id].live) {
    TERR(w);
    return;
  }
  c104_net_pkrec_t *p = &w->ptab[id];
  const uint32_t dst = (p->hdr >> 1) / w->K;
  if (dst != n)
    TERR(w); /* the node counts it misrouted too */
  const int win = c104_net_in_window(w);
  c104_net_pkt_t rec = {.hdr = p->hdr, .ack = p->hdr & 1u, .src = p->src_end / w->K, .dst = dst,
                        .t_create = p->t_create, .t_out = p->t_out, .t_int = p->t_int,
                        .t_deliver = w->cyc};
  if (win)
    count_packet(w, p);
  if (!(p->hdr & 1u) && p->eom) {
    /* the message's last packet: the message is delivered */
    w->delivered++;
    w->dlv[p->src_end]++;
    if (!msg || bytes != p->msg_len)
      w->corrupt++;
    if (win) {
      w->w_delivered++;
      w->w_bytes += bytes;
      c104_net_acc(&w->a_msg, (double)(w->cyc - p->msg_t0));
    }
  } else if (msg) {
    w->corrupt++; /* an EOM where the sender put none */
  }
  p->live = 0;
  p->next_free = w->pfree;
  w->pfree = id;
  w->plive--;
  if (w->pkt_fn)
    w->pkt_fn(w->pkt_ctx, &rec);
}

/* A normal token loaded onto end e's wire: link use, and the packet's first output or first
   internal link when it is a packet's first token. */
static void track_load(c104_net_t *w, uint32_t e, const dslink_state_t *st, int win) {
  c104_net_trk_t *t = &w->trk[e];
  const uint32_t kind = (st->txf_mem[st->r.txf_rptr] >> 8) & 3u;
  if (win)
    w->ubits[e] += kind == DSLINK_KIND_DATA ? 10u : 4u;
  t->loaded++;
  if (t->cur < t->n && t->first[(t->head + t->cur) % C104_NET_TRACK] == t->loaded - 1u) {
    const uint32_t pid = t->id[(t->head + t->cur) % C104_NET_TRACK];
    t->cur++;
    if (pid < w->pcap && w->ptab[pid].live) {
      c104_net_pkrec_t *pt = &w->ptab[pid];
      if (e >= w->S * C104_PORTS && pt->t_out == UNSET)
        pt->t_out = w->cyc;
      if (w->internal[e] && pt->t_int == UNSET)
        pt->t_int = w->cyc;
    }
  }
}

/* A token written to end e's transmit FIFO: a packet's first is queued under packet id. */
static void track_write(c104_net_t *w, uint32_t e, uint32_t wdata, uint32_t id) {
  c104_net_trk_t *t = &w->trk[e];
  const uint32_t kind = (wdata >> 8) & 3u;
  if (kind == DSLINK_KIND_ERR)
    return;
  if (!t->in_pkt) {
    if (t->n >= C104_NET_TRACK) {
      TERR(w);
    } else {
      const uint32_t k = (t->head + t->n) % C104_NET_TRACK;
      t->id[k] = id;
      t->first[k] = t->written;
      t->n++;
    }
  }
  t->written++;
  t->in_pkt = kind == DSLINK_KIND_DATA;
}

void c104_net_track_links(c104_net_t *w, int win) {
  const uint32_t nsw = w->S * C104_PORTS;
  for (uint32_t u = 0; u < w->nused; u++) {
    const uint32_t e = w->used[u];
    const dslink_next_t *nx;
    const dslink_ev_t *ev;
    uint32_t id = NOID;
    if (e < nsw) {
      const uint32_t s = e / C104_PORTS, p = e % C104_PORTS;
      nx = &w->swn[s].link[p];
      ev = &w->swev[s].link[p];
      if (nx->txf_we) { /* the slice that owns the output is handing its packet on */
        const c104_regs_t *r = w->swn[s].keep_r ? &w->sw[s].r : &w->swn[s].r;
        id = w->sl_id[s * C104_PORTS + r->out_owner[p]];
      }
    } else {
      nx = &w->nln[e - nsw];
      ev = &w->nlev[e - nsw];
      id = w->tx_id[e - nsw];
    }
    if (ev->normal_sent)
      track_load(w, e, c104_net_end_st(w, e), win);
    if (nx->txf_we)
      track_write(w, e, nx->txf_wdata, id);
  }
}

/* Slices taking a packet: leaving IDLE (§17.6). */
void c104_net_track_slices(c104_net_t *w) {
  for (uint32_t s = 0; s < w->S; s++) {
    if (w->swn[s].keep_r)
      continue;
    const c104_regs_t *q = &w->sw[s].r, *d = &w->swn[s].r;
    for (uint32_t m = ~w->swc[s].tok_ports; m; m &= m - 1u) {
      const uint32_t i = (uint32_t)__builtin_ctz(m);
      const int was_idle = q->sl_st[i] == C104_IDLE || q->sl_st[i] >= 6;
      const int is_idle = d->sl_st[i] == C104_IDLE || d->sl_st[i] >= 6;
      if (was_idle && !is_idle)
        w->sl_id[s * C104_PORTS + i] = trk_pop(w, c104_net_sw_end(w, s, i));
    }
  }
}

/* Node i's link l: a packet taken, delivered, or a message completed at the sender. */
static void node_rx(c104_net_t *w, uint32_t i, uint32_t l) {
  const t9k_node_ev_t *ev = &w->nev[i];
  const uint32_t x = i * w->P + l;
  if (ev->rx_first[l]) {
    w->rx_id[x] = trk_pop(w, c104_net_node_end(w, i, l));
    w->rx_open[x] = 1;
  }
  if (ev->rx_end[l] && w->rx_open[x]) {
    deliver(w, i, w->rx_id[x], ev->rx_msg[l], ev->rx_bytes[l]);
    w->rx_open[x] = 0;
  } else if (ev->rx_msg[l]) {
    TERR(w);
  }
  if (ev->msg_done[l])
    w->done[(size_t)i * w->K + ev->done_vl[l]]++;
}

/* Node i's link l chose a packet to send: it gets a record in the pool. -1 out of memory. */
static int node_tx(c104_net_t *w, uint32_t i, uint32_t l) {
  const t9k_node_ev_t *ev = &w->nev[i];
  const uint32_t id = pk_alloc(w);
  if (id == NOID)
    return -1;
  const uint32_t h = ev->sel_hdr[l];
  const int ack = h & 1u;
  w->ptab[id] = (c104_net_pkrec_t){.t_create = ev->sel_t0[l], .t_out = UNSET, .t_int = UNSET,
                                   .msg_t0 = ev->sel_msg_t0[l], .hdr = h,
                                   .src_end = i * w->K + ev->sel_vl[l],
                                   .msg_len = ev->sel_msg_len[l], .next_free = NOID, .live = 1,
                                   .eom = !ack && ev->sel_end[l] == DSLINK_KIND_EOM};
  w->tx_id[i * w->P + l] = id;
  return 0;
}

int c104_net_track_nodes(c104_net_t *w) {
  for (uint32_t i = 0; i < w->N; i++) {
    for (uint32_t l = 0; l < w->P; l++)
      node_rx(w, i, l);
    for (uint32_t l = 0; l < w->P; l++)
      if (w->nev[i].sel[l] && node_tx(w, i, l))
        return -1;
  }
  return 0;
}
