/* C104 network configuration (docs/c104.md §17): defaults, checks, the header space and the VL
 * wiring the pattern asks for (§17.4), the load's unit (§17.5). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <madpost/c104_net.h>
#include "c104_net_int.h"
#include <madpost/net_err.h>

static const char *const topo_names[C104_NET_TOPO_COUNT] = {"pair", "line", "grid", "puma"};

const char *c104_net_topo_name(c104_net_topo_e t) {
  return (unsigned)t < C104_NET_TOPO_COUNT ? topo_names[t] : "?";
}

int c104_net_topo_parse(const char *s, c104_net_topo_e *t) {
  for (unsigned i = 0; s && i < C104_NET_TOPO_COUNT; i++)
    if (!strcmp(s, topo_names[i])) {
      *t = (c104_net_topo_e)i;
      return 0;
    }
  return -1;
}

void c104_net_cfg_default(c104_net_cfg_t *c) {
  memset(c, 0, sizeof *c);
  c->topo = C104_NET_GRID;
  c->gw = c->gh = 4;
  c->switches = 1;
  c->pattern = NET_TR_UNIFORM;
  c->hot_frac = 0.1;
  c->arrival.kind = NET_ARR_EXP;
  c->arrival.burst = 4;
  c->load = 20;
  c->msg_len = 32; /* 000 §5.4 */
  c->qlimit = 64;
  c->warmup = 5000;
  c->measure = 20000;
  c->seed = 1;
  c->seeds = 3; /* as sim (issue 16 item 8: one convention) */
}

double c104_net_msg_cycles(uint32_t len, uint32_t hbytes) {
  const uint32_t np = len == 0 ? 1 : (len + T9K_NODE_PACKET - 1) / T9K_NODE_PACKET;
  return 10.0 * (np * hbytes + len) + 4.0 * np;
}

double c104_net_rate(const c104_net_cfg_t *c, uint32_t hbytes) {
  if (c->iat > 0)
    return 1.0 / c->iat;
  return c->load / 100.0 / c104_net_msg_cycles(c->msg_len, hbytes);
}

/* Nodes, switches, links per node of a topology. */
void c104_net_shape(const c104_net_cfg_t *c, uint32_t *N, uint32_t *S, uint32_t *P) {
  switch (c->topo) {
  case C104_NET_GRID:
    *S = c->gw * c->gh, *N = *S, *P = 4;
    break;
  case C104_NET_PUMA:
    *S = 64, *N = 256, *P = 4;
    break;
  case C104_NET_LINE:
    *S = c->switches, *N = 2, *P = 1;
    break;
  default:
    *S = 0, *N = 2, *P = 1;
  }
}

/* The pattern's view of the nodes (net_traffic.h numbers n = y * kx + x): a grid's node
   n = x * H + y is (x' = y, y' = x) with kx = H, so distances and the transpose agree. */
void c104_net_traffic_cfg(const c104_net_cfg_t *c, net_traffic_cfg_t *t) {
  memset(t, 0, sizeof *t);
  t->pattern = c->pattern < NET_TR_COUNT ? (net_pattern_e)c->pattern : NET_TR_UNIFORM;
  t->hot_node = c->hot_node;
  t->hot_frac = c->hot_frac;
  if (c->topo == C104_NET_GRID)
    t->kx = c->gh, t->ky = c->gw;
  else if (c->topo == C104_NET_PUMA)
    t->kx = 16, t->ky = 16;
  else
    t->kx = 2, t->ky = 1;
}

/* Neighbours of n within local distance 1..5, ascending; returns the count. */
static uint32_t local_list(const net_traffic_cfg_t *t, uint32_t N, uint32_t n, uint32_t *out) {
  uint32_t k = 0;
  for (uint32_t m = 0; m < N; m++) {
    const uint32_t d = net_traffic_dist(t, n, m);
    if (m != n && d >= 1 && d <= NET_LOCAL_DMAX) {
      if (out)
        out[k] = m;
      k++;
    }
  }
  return k;
}

int c104_net_wiring(const c104_net_cfg_t *c, uint32_t *K, int *circ, uint32_t *H, char *err,
                    size_t n) {
  uint32_t N, S, P;
  c104_net_shape(c, &N, &S, &P);
  const uint32_t extra = c->universal ? S : 0;
  *circ = 0;
  const uint32_t pat = c->pattern;
  if (pat == C104_NET_PATTERN_NONE) {
    *K = c->vls ? c->vls : 1;
  } else if (pat == NET_TR_UNIFORM || pat == NET_TR_HOTSPOT) {
    const uint64_t all = (uint64_t)2 * N * (N - 1) + extra;
    if (c->vls == 0 || c->vls >= N - 1) {
      if (all <= 65536) {
        *K = c->vls ? c->vls : N - 1;
      } else if (pat == NET_TR_HOTSPOT) {
        return net_fail(err, n,
                        "pattern hotspot needs all-to-all VLs (K = N - 1 = %u), but 2 N K%s = %llu "
                        "header values exceed 65536 (N = %u; at most 181 nodes)",
                        N - 1, extra ? " + switches" : "", (unsigned long long)all, N);
      } else if (c->vls) {
        return net_fail(err, n, "--vls %u: 2 N K = %llu header values exceed 65536 (N = %u)",
                        c->vls, (unsigned long long)((uint64_t)2 * N * c->vls + extra), N);
      } else {
        *K = 16, *circ = 1; /* §17.4: the circulant approximates uniform */
      }
    } else if (pat == NET_TR_HOTSPOT) {
      return net_fail(err, n, "pattern hotspot needs all-to-all VLs: --vls %u is below N - 1 = %u",
                      c->vls, N - 1);
    } else {
      *K = c->vls, *circ = 1;
    }
    if (*circ && (*K % 2 || *K / 2 > (N - 1) / 2))
      return net_fail(err, n,
                      "--vls %u: uniform traffic over a circulant needs K even with K/2 <= "
                      "(N - 1)/2 = %u distinct offsets (N = %u)",
                      *K, (N - 1) / 2, N);
  } else if (pat == NET_TR_LOCAL) {
    if (c->topo != C104_NET_GRID)
      return net_fail(err, n, "pattern local needs the grid topology (hop distances on the grid)");
    net_traffic_cfg_t t;
    c104_net_traffic_cfg(c, &t);
    uint32_t k = 1;
    for (uint32_t m = 0; m < N; m++) {
      const uint32_t x = local_list(&t, N, m, NULL);
      k = x > k ? x : k;
    }
    if (c->vls && c->vls < k)
      return net_fail(err, n, "--vls %u: pattern local needs K >= %u (every node within 1..5 hops)",
                      c->vls, k);
    *K = c->vls ? c->vls : k;
  } else {
    if (c->vls && c->vls < 2)
      return net_fail(err, n, "--vls %u: permutation patterns need K >= 2", c->vls);
    *K = c->vls ? c->vls : 2;
  }
  const uint64_t top = (uint64_t)2 * N * *K + extra;
  if (top > 65536)
    return net_fail(err, n, "2 N K%s = %llu header values exceed the 65536 of 2-byte headers "
                    "(N = %u, K = %u)", extra ? " + switches" : "", (unsigned long long)top, N, *K);
  *H = top <= 256 ? 1 : 2;
  if (c->hbytes > 2)
    return net_fail(err, n, "hbytes %u: must be 0 (from the header space), 1 or 2", c->hbytes);
  if (c->hbytes == 1 && top > 256)
    return net_fail(err, n, "hbytes 1: 1-byte headers reach 255, but the network needs headers up "
                    "to %llu (N = %u, K = %u)", (unsigned long long)(top - 1), N, *K);
  if (c->hbytes)
    *H = c->hbytes;
  return 0;
}

int c104_net_cfg_check(const c104_net_cfg_t *c, char *err, size_t n) {
  if ((unsigned)c->topo >= C104_NET_TOPO_COUNT)
    return net_fail(err, n, "unknown topology %d", (int)c->topo);
  if (c->topo == C104_NET_GRID && (c->gw < 1 || c->gh < 1 || c->gw > 32 || c->gh > 32 ||
                                   c->gw * c->gh < 2))
    return net_fail(err, n, "grid %ux%u: W and H must be 1..32 with at least 2 nodes", c->gw,
                    c->gh);
  if (c->topo == C104_NET_LINE && c->switches > 64)
    return net_fail(err, n, "line of %u switches: at most 64", c->switches);
  if (c->grid_links > 2)
    return net_fail(err, n, "grid links %u: must be 1 or 2 (0: auto)", c->grid_links);
  if (c->grid_links == 1 && c->universal)
    return net_fail(err, n, "grid links 1 with universal routing: the two phases need a link "
                    "each to every neighbour (grid links 2)");
  if (c->universal && c->topo != C104_NET_GRID && c->topo != C104_NET_PUMA)
    return net_fail(err, n, "universal routing needs the grid or puma topology (not %s)",
                    c104_net_topo_name(c->topo));
  if (c->pattern > C104_NET_PATTERN_NONE)
    return net_fail(err, n, "unknown pattern %u", c->pattern);
  if (c->pattern != C104_NET_PATTERN_NONE) {
    net_traffic_cfg_t t;
    c104_net_traffic_cfg(c, &t);
    char e2[200];
    if (net_traffic_check(&t, e2, sizeof e2))
      return net_fail(err, n, "pattern %s on the %s network: %s", net_pattern_name(t.pattern),
                      c104_net_topo_name(c->topo), e2);
  }
  if (c->msg_len > 1000000)
    return net_fail(err, n, "message length %u: at most 1000000 bytes", c->msg_len);
  if (c->qlimit < 1 || c->qlimit > 100000)
    return net_fail(err, n, "qlimit %u: must be 1..100000", c->qlimit);
  if (!(c->load >= 0 && c->load <= 1000))
    return net_fail(err, n, "load %g: must be 0..1000 (percent of one link per node)", c->load);
  if (!(c->iat >= 0) || (c->iat > 0 && c->iat < 1e-3))
    return net_fail(err, n, "iat %g: must be above 0.001 cycles (or 0: use load)", c->iat);
  if (c->measure < 1 || c->warmup + c->measure > (uint64_t)1 << 40)
    return net_fail(err, n, "measure must be at least 1 cycle (warmup + measure below 2^40)");
  if (c->seeds < 1 || c->seeds > C104_NET_MAX_SEEDS)
    return net_fail(err, n, "seeds %u: must be 1..%u", c->seeds, (unsigned)C104_NET_MAX_SEEDS);
  if (c->seed > UINT64_MAX - (c->seeds - 1)) /* run k uses seed + k: no wrap to seed 0 */
    return net_fail(err, n, "seed %llu with %u seeds: the last, seed + seeds - 1, passes 2^64 - 1",
                    (unsigned long long)c->seed, c->seeds);
  uint32_t K, H;
  int circ;
  if (c104_net_wiring(c, &K, &circ, &H, err, n))
    return -1;
  net_arrival_cfg_t a = c->arrival;
  a.rate = c104_net_rate(c, H);
  char e2[200];
  if (net_arrival_check(&a, e2, sizeof e2))
    return net_fail(err, n, "arrivals: %s", e2);
  return 0;
}

/* Circulant wiring: K/2 distinct offsets from 1..floor((N-1)/2), drawn by a partial Fisher-Yates
   with the run seed; end 2j of a joins end 2j + 1 of a + offset j. */
static void wire_circulant(uint64_t seed, uint32_t N, uint32_t K, uint16_t *vl_to,
                           uint32_t *peer) {
  const uint32_t G = (N - 1) / 2;
  uint32_t g[1024]; /* N <= 1024 (a 32 x 32 grid) */
  for (uint32_t i = 0; i < G; i++)
    g[i] = i + 1;
  madpost_rng_t r;
  madpost_rng_seed(&r, seed, 0x1050000u);
  for (uint32_t j = 0; j < K / 2; j++) {
    const uint32_t k = j + madpost_rng_below(&r, G - j);
    const uint32_t t = g[j];
    g[j] = g[k], g[k] = t;
    for (uint32_t a = 0; a < N; a++) {
      const uint32_t b = (a + g[j]) % N;
      peer[(size_t)a * K + 2 * j] = b * K + 2 * j + 1;
      peer[(size_t)b * K + 2 * j + 1] = a * K + 2 * j;
      if (vl_to[(size_t)a * N + b] == 0xFFFF)
        vl_to[(size_t)a * N + b] = (uint16_t)(2 * j);
    }
  }
}

/* All-to-all: end c of n joins node (n + 1 + c) mod N, end N - 2 - c. */
static void wire_all_to_all(uint32_t N, uint32_t K, uint16_t *vl_to, uint32_t *peer) {
  for (uint32_t a = 0; a < N; a++)
    for (uint32_t ci = 0; ci + 1 < N && ci < K; ci++) {
      const uint32_t b = (a + 1 + ci) % N;
      peer[(size_t)a * K + ci] = b * K + (N - 2 - ci);
      vl_to[(size_t)a * N + b] = (uint16_t)ci;
    }
}

/* Local traffic: end i of a to the i-th node of a's local list, joined to the end b keeps for a. */
static void wire_local(const net_traffic_cfg_t *t, uint32_t N, uint32_t K, uint16_t *vl_to,
                       uint32_t *peer) {
  uint32_t list[1024];
  for (uint32_t a = 0; a < N; a++) {
    const uint32_t k = local_list(t, N, a, list);
    for (uint32_t i = 0; i < k; i++)
      vl_to[(size_t)a * N + list[i]] = (uint16_t)i;
  }
  for (uint32_t a = 0; a < N; a++)
    for (uint32_t b = 0; b < N; b++)
      if (vl_to[(size_t)a * N + b] != 0xFFFF)
        peer[(size_t)a * K + vl_to[(size_t)a * N + b]] = b * K + vl_to[(size_t)b * N + a];
}

/* A permutation: ends 2i (i < K / 2) of n send to ends 2i + 1 of pi(n); fixed points send
   nothing; the sender takes its ends in turn (c104_net_work.c), so K = 2j gives j packets of one
   node in flight at once. -1 if the pattern is not a permutation. */
static int wire_permutation(const net_traffic_cfg_t *t, uint32_t N, uint32_t K, uint16_t *vl_to,
                            uint32_t *peer, char *err, size_t n) {
  for (uint32_t a = 0; a < N; a++) {
    madpost_rng_t r;
    madpost_rng_seed(&r, 0, 0); /* permutations draw nothing */
    const int64_t b = net_traffic_dest(t, a, &r);
    if (b < 0)
      continue;
    if (peer[(size_t)b * K + 1] != T9K_NODE_NOPEER)
      return net_fail(err, n, "pattern %s is not a permutation at node %lld",
                      net_pattern_name(t->pattern), (long long)b);
    for (uint32_t i = 0; 2 * i + 1 < K; i++) {
      peer[(size_t)a * K + 2 * i] = (uint32_t)b * K + 2 * i + 1;
      peer[(size_t)b * K + 2 * i + 1] = a * K + 2 * i;
    }
    vl_to[(size_t)a * N + b] = 0;
  }
  return 0;
}

/* Fills vl_to[n * N + m] (the end of n joined to m, or 0xFFFF) and the peers (end c of n joins
   peer[n * K + c] = m * K + c', or T9K_NODE_NOPEER), from the pattern (§17.4). */
int c104_net_vl_wiring(const c104_net_cfg_t *c, uint64_t seed, uint32_t N, uint32_t K, int circ,
                       uint16_t *vl_to, uint32_t *peer, char *err, size_t n) {
  for (size_t i = 0; i < (size_t)N * K; i++)
    peer[i] = T9K_NODE_NOPEER;
  for (size_t i = 0; i < (size_t)N * N; i++)
    vl_to[i] = 0xFFFF;
  const uint32_t pat = c->pattern;
  if (circ) {
    wire_circulant(seed, N, K, vl_to, peer);
    return 0;
  }
  if (pat == C104_NET_PATTERN_NONE &&
      (c->topo == C104_NET_PAIR || c->topo == C104_NET_LINE)) {
    /* pair and line by hand: K parallel VLs, end c of node 0 joins end c of node 1 */
    for (uint32_t ci = 0; ci < K; ci++) {
      peer[ci] = K + ci;
      peer[(size_t)K + ci] = ci;
    }
    vl_to[1] = 0, vl_to[2] = 0;
    return 0;
  }
  if (pat == C104_NET_PATTERN_NONE || pat == NET_TR_UNIFORM || pat == NET_TR_HOTSPOT) {
    wire_all_to_all(N, K, vl_to, peer);
    return 0;
  }
  net_traffic_cfg_t t;
  c104_net_traffic_cfg(c, &t);
  if (pat == NET_TR_LOCAL) {
    wire_local(&t, N, K, vl_to, peer);
    return 0;
  }
  return wire_permutation(&t, N, K, vl_to, peer, err, n);
}
