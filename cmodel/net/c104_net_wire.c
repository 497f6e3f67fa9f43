/* C104 network wiring (docs/c104.md §17.1-§17.3): which link end is joined to which for each
 * topology, and each switch's setup (hunt groups, header bytes, universal routing, the interval
 * table generated from the routing function) loaded into the switch model. */
#include <string.h>

#include <madpost/c104_net.h>
#include "c104_net_int.h"
#include <madpost/net_err.h>

static uint32_t sw_end(const c104_net_t *w, uint32_t s, uint32_t p) {
  return c104_net_sw_end(w, s, p);
}
static uint32_t node_end(const c104_net_t *w, uint32_t n, uint32_t l) {
  return c104_net_node_end(w, n, l);
}
static void connect(c104_net_t *w, uint32_t a, uint32_t b) {
  w->peer[a] = (int32_t)b;
  w->peer[b] = (int32_t)a;
}

static uint32_t msb(uint32_t x) { return 31u - (uint32_t)__builtin_clz(x); }

/* ---- Routing: the port each header leaves by ------------------------------------------------ */

static int grid_port(const c104_net_t *w, uint32_t s, uint32_t h, int node_hdr, int uni) {
  const uint32_t node = (h >> 1) / w->K;
  const uint32_t H = w->cfg.gh, x = s / H, y = s % H;
  const uint32_t t = node_hdr ? node : h - w->R0, tx = t / H, ty = t % H;
  if (!uni && w->cfg.grid_links == 2) { /* hunt groups 4-5 +X, 6-7 -X, 8-9 +Y, 10-11 -Y */
    if (tx != x) return tx > x ? 4 : 6;
    if (ty != y) return ty > y ? 8 : 10;
    return 0;
  }
  const int b = node_hdr ? 4 : 8; /* phase 2 (or plain) and phase 1 ports */
  if (tx > x) return b;
  if (tx < x) return b + 1;
  if (ty > y) return b + 2;
  if (ty < y) return b + 3;
  return node_hdr ? 0 : 12;
}

/* The next-hop port of header h at switch s, or -1 (no route: a discard entry). */
static int next_port(const c104_net_t *w, uint32_t s, uint32_t h) {
  const int uni = w->cfg.universal != 0;
  const int node_hdr = h < 2u * w->N * w->K;
  const int rnd_hdr = uni && h >= w->R0 && h < w->R0 + w->S;
  if (!node_hdr && !rnd_hdr)
    return -1;
  const uint32_t node = (h >> 1) / w->K;
  switch (w->cfg.topo) {
  case C104_NET_LINE:
    if (!node_hdr)
      return -1;
    if (node == 0)
      return s == 0 ? 0 : 3;
    return s == w->S - 1 ? 1 : 2;
  case C104_NET_GRID:
    return grid_port(w, s, h, node_hdr, uni);
  case C104_NET_PUMA: {
    const uint32_t t = node_hdr ? node / 4 : h - w->R0;
    if (t == s)
      return node_hdr ? (int)(4 * (node % 4)) : 28;
    const uint32_t d = msb(t ^ s);
    return (int)(16 + 2 * d + (node_hdr && uni ? 1 : 0));
  }
  default:
    return -1;
  }
}

/* Run-length encoding of next_port over every header up to the top of the header space (§17.2). */
static int build_table(c104_net_t *w, uint32_t s, c104_setup_t *su, char *err, size_t n) {
  uint32_t ne = 0;
  int prev = next_port(w, s, 0);
  for (uint32_t h = 1; h <= w->top + 1u; h++) {
    const int p = h <= w->top ? next_port(w, s, h) : -2; /* -2 closes the last run */
    if (p == prev)
      continue;
    if (ne >= C104_NINT)
      return net_fail(err, n, "switch %u: the interval table needs more than %u entries", s,
                      (unsigned)C104_NINT);
    su->ival[ne].hi = h - 1u;
    su->ival[ne].port = prev < 0 ? 0 : (uint32_t)prev;
    su->ival[ne].valid = prev >= 0; /* a gap between header ranges: a discard entry */
    ne++;
    prev = p;
  }
  su->nint = ne;
  return 0;
}

/* ---- Wires ----------------------------------------------------------------------------------- */

static void wire_line(c104_net_t *w) {
  connect(w, node_end(w, 0, 0), sw_end(w, 0, 0));
  connect(w, node_end(w, 1, 0), sw_end(w, w->S - 1, 1));
  for (uint32_t i = 0; i + 1 < w->S; i++)
    connect(w, sw_end(w, i, 2), sw_end(w, i + 1, 3));
}

static void wire_grid(c104_net_t *w) {
  const c104_net_cfg_t *c = &w->cfg;
  const int uni = c->universal != 0;
  const uint32_t W = c->gw, H = c->gh;
  for (uint32_t x = 0; x < W; x++)
    for (uint32_t y = 0; y < H; y++) {
      const uint32_t s = x * H + y;
      for (uint32_t l = 0; l < 4; l++)
        connect(w, node_end(w, s, l), sw_end(w, s, l));
      if (!uni && c->grid_links == 2) { /* two links to each neighbour, a hunt group (§17.1) */
        for (uint32_t k = 0; k < 2; k++) {
          if (x + 1 < W)
            connect(w, sw_end(w, s, 4 + k), sw_end(w, s + H, 6 + k));
          if (y + 1 < H)
            connect(w, sw_end(w, s, 8 + k), sw_end(w, s + 1, 10 + k));
        }
        continue;
      }
      for (uint32_t ph = 0; ph < 1u + (uint32_t)uni; ph++) {
        const uint32_t b = ph ? 8 : 4;
        if (x + 1 < W)
          connect(w, sw_end(w, s, b), sw_end(w, s + H, b + 1));
        if (y + 1 < H)
          connect(w, sw_end(w, s, b + 2), sw_end(w, s + 1, b + 3));
      }
      if (uni)
        w->peer[sw_end(w, s, 12)] = (int32_t)sw_end(w, s, 12);
    }
}

static void wire_puma(c104_net_t *w) {
  const int uni = w->cfg.universal != 0;
  for (uint32_t s = 0; s < 64; s++) {
    for (uint32_t e = 0; e < 4; e++)
      for (uint32_t l = 0; l < 4; l++)
        connect(w, node_end(w, 4 * s + e, l), sw_end(w, s, 4 * e + l));
    for (uint32_t d = 0; d < 6; d++) {
      const uint32_t t = s ^ (1u << d);
      if (t > s) {
        connect(w, sw_end(w, s, 16 + 2 * d), sw_end(w, t, 16 + 2 * d));
        connect(w, sw_end(w, s, 17 + 2 * d), sw_end(w, t, 17 + 2 * d));
      }
    }
    if (uni)
      w->peer[sw_end(w, s, 28)] = (int32_t)sw_end(w, s, 28);
  }
}

static void wire(c104_net_t *w) {
  const c104_net_cfg_t *c = &w->cfg;
  for (uint32_t e = 0; e < w->nend; e++)
    w->peer[e] = -1;
  if (c->topo == C104_NET_PAIR || (c->topo == C104_NET_LINE && w->S == 0))
    connect(w, node_end(w, 0, 0), node_end(w, 1, 0));
  else if (c->topo == C104_NET_LINE)
    wire_line(w);
  else if (c->topo == C104_NET_GRID)
    wire_grid(w);
  else
    wire_puma(w);
}

/* ---- Switch setups --------------------------------------------------------------------------- */

/* The hunt groups of a switch (grp as c104_setup_t has it), from the default grp. */
static uint32_t hunt_groups(const c104_net_cfg_t *c, uint32_t grp) {
  const int uni = c->universal != 0;
  if (c->topo == C104_NET_GRID) {
    grp = 0xFFFFFFF1u; /* ports 0-3 one hunt group */
    if (!uni && c->grid_links == 2)
      grp &= ~0xAA0u; /* and 4-5, 6-7, 8-9, 10-11 */
  } else if (c->topo == C104_NET_PUMA) {
    grp = 0xFFFFFFFFu & ~0xEEEEu; /* each node's four links one group */
    if (!uni)
      for (uint32_t d = 0; d < 6; d++)
        grp &= ~(1u << (17 + 2 * d)); /* the two links of a dimension: one fat link */
  }
  return grp;
}

/* Port p of switch s: header bytes, its seed, and with universal routing the random header added
   on entry from a node or stripped at the loopback. */
static void port_setup(c104_net_t *w, uint32_t s, uint32_t p, c104_setup_t *su) {
  const int uni = w->cfg.universal != 0;
  su->port[p].hdr2 = w->H == 2;
  madpost_rng_t r;
  madpost_rng_seed(&r, w->seed, 0x1040000u + 32u * s + p);
  uint32_t sd = (uint32_t)(madpost_rng_next(&r) & 0xFFFFu);
  su->port[p].seed = sd ? sd : 1;
  const int32_t pe = w->peer[sw_end(w, s, p)];
  const int from_node = pe >= (int32_t)(w->S * C104_PORTS);
  if (uni && from_node) {
    su->port[p].rnd = 1;
    su->port[p].rlo = w->R0;
    su->port[p].rhi = w->R0 + w->S - 1;
  }
  if (uni && pe == (int32_t)sw_end(w, s, p))
    su->port[p].del = 2; /* the loopback: strip the random header, route on (§11.3) */
}

static int setup_switch(c104_net_t *w, uint32_t s, char *err, size_t n) {
  c104_setup_t *su = &w->setup[s];
  c104_setup_default(su);
  su->rr = w->cfg.rr != 0;
  uint32_t used = 0;
  for (uint32_t p = 0; p < C104_PORTS; p++)
    if (w->peer[sw_end(w, s, p)] >= 0)
      used |= 1u << p;
  su->grp = hunt_groups(&w->cfg, su->grp);
  for (uint32_t p = 0; p < C104_PORTS; p++)
    port_setup(w, s, p, su);
  if (build_table(w, s, su, err, n))
    return -1;
  w->swc[s].tok_ports = ~used;
  w->swc[s].link = w->lc;
  c104_reset(&w->swc[s], &w->sw[s]);
  c104_setup_load(su, &w->sw[s]);
  memset(&w->swin[s], 0, sizeof w->swin[s]);
  for (uint32_t p = 0; p < C104_PORTS; p++)
    w->swin[s].link_en[p] = (used >> p) & 1u;
  return 0;
}

int c104_net_build(c104_net_t *w, char *err, size_t n) {
  wire(w);
  for (uint32_t s = 0; s < w->S; s++)
    if (setup_switch(w, s, err, n))
      return -1;
  w->nused = 0;
  for (uint32_t e = 0; e < w->nend; e++) {
    if (w->peer[e] < 0)
      continue;
    w->used[w->nused++] = e;
    w->internal[e] = e < w->S * C104_PORTS && (uint32_t)w->peer[e] < w->S * C104_PORTS;
  }
  return 0;
}
