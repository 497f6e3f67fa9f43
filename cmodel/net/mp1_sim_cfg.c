/* Parameters of the MP1 network simulator: one table of keys serves the command line, the INI
 * configuration file (net_ini.c, over Debian's libinih) and the echo into every output. */
#include <string.h>

#include <madpost/mp1_sim.h>
#include <madpost/net_err.h>
#include <madpost/net_ini.h>
#include <madpost/net_num.h>

void mp1_sim_cfg_default(mp1_sim_cfg_t *c) {
  memset(c, 0, sizeof *c);
  c->kx = c->ky = 16;
  c->route = MP1_ROUTE_ADAPTIVE;
  c->traffic.pattern = NET_TR_UNIFORM;
  c->traffic.hot_frac = 0.1;
  c->mode = MP1_MODE_ASYNC;
  c->arrival.kind = NET_ARR_EXP;
  c->arrival.burst = 4.0;
  c->load = 30.0;
  c->len = 6;
  c->queue = MP1_SIM_QUEUE;
  c->warmup = 8000;
  c->measure = 8000;
  c->drain = 0;
  c->seed = 1;
  c->seeds = 3;
}

static const char *traffic_name(const mp1_sim_cfg_t *c) {
  return c->bcast == MP1_BCAST_HW    ? "broadcast"
         : c->bcast == MP1_BCAST_P2P ? "bcast-p2p"
                                     : net_pattern_name(c->traffic.pattern);
}

static const char *const route_names[] = {"oblivious", "restrictive", "adaptive"};
static const char *const mode_names[] = {"async", "sync"};
static const char *const tinj_names[] = {"paper", "fixed", "random"};

static int parse_u64(const char *key, const char *v, uint64_t lo, uint64_t hi, uint64_t *out,
                     char *err, size_t n) {
  if (net_num_whole(v, lo, hi, out))
    return net_fail(err, n, "%s: '%s' is not a whole number in %llu..%llu", key, v,
                    (unsigned long long)lo, (unsigned long long)hi);
  return 0;
}

static int parse_u32(const char *key, const char *v, uint32_t lo, uint32_t hi, uint32_t *out,
                     char *err, size_t n) {
  uint64_t x = 0;
  if (parse_u64(key, v, lo, hi, &x, err, n)) return -1;
  *out = (uint32_t)x;
  return 0;
}

static int parse_dbl(const char *key, const char *v, double lo, double hi, double *out, char *err,
                     size_t n) {
  if (net_num_real(v, lo, hi, out))
    return net_fail(err, n, "%s: '%s' is not a number in %g..%g", key, v, lo, hi);
  return 0;
}

static int parse_enum(const char *key, const char *v, const char *const *names, uint32_t count,
                      uint32_t *out, char *err, size_t n) {
  for (uint32_t i = 0; i < count; i++)
    if (!strcmp(v, names[i])) {
      *out = i;
      return 0;
    }
  char list[160] = "";
  for (uint32_t i = 0; i < count; i++) {
    strncat(list, names[i], sizeof list - strlen(list) - 1);
    if (i + 1 < count) strncat(list, "|", sizeof list - strlen(list) - 1);
  }
  return net_fail(err, n, "%s: '%s' is not one of %s", key, v, list);
}

static int parse_size(const char *key, const char *v, uint32_t *kx, uint32_t *ky, char *err,
                      size_t n) {
  char a[32], *x;
  if (strlen(v) >= sizeof a) return net_fail(err, n, "%s: '%s' is not of the form KXxKY", key, v);
  strcpy(a, v);
  x = strchr(a, 'x');
  if (!x) return net_fail(err, n, "%s: '%s' is not of the form KXxKY (e.g. 16x16)", key, v);
  *x = 0;
  char sub[64];
  snprintf(sub, sizeof sub, "%s (KX)", key);
  if (parse_u32(sub, a, 2, MP1_MESH_MAX_WIDE, kx, err, n)) return -1;
  snprintf(sub, sizeof sub, "%s (KY)", key);
  return parse_u32(sub, x + 1, 2, MP1_MESH_MAX_WIDE, ky, err, n);
}

/* Keys and the section each belongs to in a configuration file. */
static const struct {
  const char *key, *section;
} keys[] = {
    {"mesh", "network"},     {"routing", "network"},  {"queue", "network"},
    {"address-flits", "network"},
    {"zero-offset", "network"}, {"topology", "network"},  {"torus-inject", "network"},
    {"traffic", "traffic"},  {"mode", "traffic"},     {"arrival", "traffic"},
    {"burst", "traffic"},    {"load", "traffic"},     {"length", "traffic"},
    {"hot-node", "traffic"}, {"hot-frac", "traffic"}, {"warmup", "run"},
    {"bcast-src", "traffic"}, {"bcast-size", "traffic"},
    {"measure", "run"},      {"drain", "run"},        {"seed", "run"},
    {"seeds", "run"},
};

int mp1_sim_cfg_set(mp1_sim_cfg_t *c, const char *key, const char *v, char *err, size_t n) {
  uint32_t e;
  if (!strcmp(key, "mesh")) return parse_size(key, v, &c->kx, &c->ky, err, n);
  if (!strcmp(key, "routing")) {
    if (parse_enum(key, v, route_names, 3, &e, err, n)) return -1;
    c->route = (mp1_route_e)e;
    return 0;
  }
  if (!strcmp(key, "queue")) return parse_u32(key, v, 1, 64, &c->queue, err, n);
  if (!strcmp(key, "address-flits")) {
    static const char *const an[] = {"auto", "1", "2"};
    if (parse_enum(key, v, an, 3, &e, err, n)) return -1;
    c->awf = e;
    return 0;
  }
  if (!strcmp(key, "topology")) {
    static const char *const tn[] = {"mesh", "torus"};
    if (parse_enum(key, v, tn, 2, &e, err, n)) return -1;
    c->torus = e;
    return 0;
  }
  if (!strcmp(key, "torus-inject")) {
    static const char *const tn[] = {"paper", "fixed", "random"};
    if (parse_enum(key, v, tn, 3, &e, err, n)) return -1;
    c->torus_inject = (mp1_tinj_e)e;
    return 0;
  }
  if (!strcmp(key, "zero-offset")) {
    static const char *const zn[] = {"plus", "random"};
    if (parse_enum(key, v, zn, 2, &e, err, n)) return -1;
    c->zero_random = e;
    return 0;
  }
  if (!strcmp(key, "traffic")) {
    net_pattern_e p;
    c->bcast = !strcmp(v, "broadcast") ? MP1_BCAST_HW : !strcmp(v, "bcast-p2p") ? MP1_BCAST_P2P
                                                                                 : MP1_BCAST_NONE;
    if (c->bcast) return 0;
    if (net_pattern_parse(v, &p))
      return net_fail(err, n,
                  "%s: '%s' is not one of uniform|local|shuffle|bitrev|transpose|bitcomp|hotspot|"
                  "broadcast|bcast-p2p",
                  key, v);
    c->traffic.pattern = p;
    return 0;
  }
  if (!strcmp(key, "mode")) {
    if (parse_enum(key, v, mode_names, 2, &e, err, n)) return -1;
    c->mode = (mp1_mode_e)e;
    return 0;
  }
  if (!strcmp(key, "arrival")) {
    net_arrival_e a;
    if (net_arrival_parse(v, &a))
      return net_fail(err, n, "%s: '%s' is not one of exponential|uniform|bursty", key, v);
    c->arrival.kind = a;
    return 0;
  }
  if (!strcmp(key, "burst")) return parse_dbl(key, v, 1.0, 1000.0, &c->arrival.burst, err, n);
  if (!strcmp(key, "load")) return parse_dbl(key, v, 0.0, 1000.0, &c->load, err, n);
  if (!strcmp(key, "length")) return parse_u32(key, v, 1, 1024, &c->len, err, n);
  /* node numbers of the largest mesh (8192 x 8192) */
  if (!strcmp(key, "hot-node")) return parse_u32(key, v, 0, 1u << 26, &c->traffic.hot_node, err, n);
  if (!strcmp(key, "bcast-src")) return parse_u32(key, v, 0, 1u << 26, &c->bcast_src, err, n);
  if (!strcmp(key, "bcast-size"))
    return parse_u32(key, v, 0, MP1_MESH_MAX_WIDE, &c->bcast_size, err, n);
  if (!strcmp(key, "hot-frac")) return parse_dbl(key, v, 0.0, 1.0, &c->traffic.hot_frac, err, n);
  if (!strcmp(key, "warmup")) return parse_u64(key, v, 0, MP1_SIM_CYCLES_MAX, &c->warmup, err, n);
  if (!strcmp(key, "measure")) return parse_u64(key, v, 1, MP1_SIM_CYCLES_MAX, &c->measure, err, n);
  if (!strcmp(key, "drain")) return parse_u64(key, v, 0, MP1_SIM_CYCLES_MAX, &c->drain, err, n);
  if (!strcmp(key, "seed")) return parse_u64(key, v, 0, UINT64_MAX, &c->seed, err, n);
  if (!strcmp(key, "seeds")) return parse_u32(key, v, 1, MP1_SIM_MAX_SEEDS, &c->seeds, err, n);
  return net_fail(err, n, "unknown parameter '%s'", key);
}

typedef struct {
  mp1_sim_cfg_t *c;
  uint32_t seen[sizeof keys / sizeof keys[0]];
} load_ctx_t;

/* One key = value of a configuration file (net_ini_load adds the file and line to err). */
static int on_key(void *user, const char *section, const char *name, const char *value, char *err,
                  size_t n) {
  load_ctx_t *L = user;
  if (*section && strcmp(section, "network") && strcmp(section, "traffic") &&
      strcmp(section, "run"))
    return net_fail(err, n, "unknown section [%s] (sections: network, traffic, run)", section);
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    if (strcmp(name, keys[i].key)) continue;
    if (*section && strcmp(section, keys[i].section))
      return net_fail(err, n, "'%s' belongs in section [%s], not [%s]", name, keys[i].section,
                      section);
    if (L->seen[i]++) return net_fail(err, n, "'%s' is given twice", name);
    return mp1_sim_cfg_set(L->c, name, value, err, n);
  }
  return net_fail(err, n, "unknown parameter '%s'", name);
}

int mp1_sim_cfg_load(mp1_sim_cfg_t *c, const char *path, char *err, size_t n) {
  load_ctx_t L = {.c = c};
  return net_ini_load(path, on_key, &L, err, n);
}

/* Options that would do nothing in c, given other than their defaults: -1 with the reason, so
   that no output echoes a setting as if it were in effect (issue 16 item 7); else 0. */
static int mp1_sim_cfg_unused(const mp1_sim_cfg_t *c, char *err, size_t n) {
  mp1_sim_cfg_t d;
  mp1_sim_cfg_default(&d);
  const char *tr = traffic_name(c);
  if (c->bcast == MP1_BCAST_NONE && c->traffic.pattern != NET_TR_HOTSPOT &&
      (c->traffic.hot_node != d.traffic.hot_node || c->traffic.hot_frac != d.traffic.hot_frac))
    return net_fail(err, n, "hot-node and hot-frac: only with traffic hotspot (traffic is %s)", tr);
  if (!c->bcast && (c->bcast_src != d.bcast_src || c->bcast_size != d.bcast_size))
    return net_fail(err, n, "bcast-src and bcast-size: only with traffic broadcast or bcast-p2p "
                    "(traffic is %s)", tr);
  if (!c->torus && c->torus_inject != d.torus_inject)
    return net_fail(err, n, "torus-inject: only with topology torus (this is a mesh)");
  if (c->arrival.kind != NET_ARR_BURSTY && c->arrival.burst != d.arrival.burst)
    return net_fail(err, n, "burst: only with arrival bursty (arrival is %s)",
                    net_arrival_name(c->arrival.kind));
  if (c->mode == MP1_MODE_SYNC &&
      (c->load != d.load || c->warmup != d.warmup || c->measure != d.measure ||
       c->arrival.kind != d.arrival.kind || c->arrival.burst != d.arrival.burst))
    return net_fail(err, n, "mode sync: load, warmup, measure, arrival and burst do nothing (every "
                    "node sends once at cycle 0; the run lasts until done or drain)");
  return 0;
}

int mp1_sim_cfg_check(const mp1_sim_cfg_t *c, char *err, size_t n) {
  net_traffic_cfg_t t = c->traffic;
  t.kx = c->kx;
  t.ky = c->ky;
  t.torus = 0;
  if (net_traffic_check(&t, err, n)) return -1;
  net_arrival_cfg_t a = c->arrival;
  a.rate = mp1_sim_rate(c);
  if (net_arrival_check(&a, err, n)) return -1;
  if (c->kx < 2 || c->ky < 2 || c->kx > MP1_MESH_MAX_WIDE || c->ky > MP1_MESH_MAX_WIDE)
    return net_fail(err, n, "mesh: %ux%u: each side must be 2..%u", c->kx, c->ky,
                    (unsigned)MP1_MESH_MAX_WIDE);
  if (c->awf > MP1_AWF_MAX)
    return net_fail(err, n, "address-flits: %u is not one of auto|1|2", c->awf);
  if (c->torus && (c->kx > MP1_MESH_MAX_WIDE / 2 || c->ky > MP1_MESH_MAX_WIDE / 2))
    return net_fail(err, n,
                "topology torus: %ux%u is too large; a torus unrolls into a mesh twice as wide and "
                "two-flit addresses (13 bits) reach 8192, so at most %ux%u",
                c->kx, c->ky, (unsigned)MP1_MESH_MAX_WIDE / 2, (unsigned)MP1_MESH_MAX_WIDE / 2);
  {
    /* the chip mesh's addresses must fit the address words (docs/mp1.md §14) */
    const uint32_t side = (c->torus ? 2 : 1) * (c->kx > c->ky ? c->kx : c->ky);
    const uint32_t awf = mp1_sim_awf(c);
    if (side > mp1_mesh_max(awf))
      return net_fail(err, n,
                      "address-flits %u: the %ux%u %s needs addresses up to %u%s, but %u-flit "
                      "addresses reach %u; use address-flits 2 or auto",
                      awf, c->kx, c->ky, c->torus ? "torus" : "mesh", side - 1,
                      c->torus ? " (it unrolls into a mesh twice as wide)" : "", awf,
                      mp1_mesh_max(awf) - 1);
  }
  if (c->torus && c->bcast)
    return net_fail(err, n, "traffic broadcast: a mesh only (MP1's broadcast is a mesh rectangle)");
  if (c->len < 2)
    return net_fail(err, n, "length: %u bytes cannot hold a two-flit header (at least 2)", c->len);
  if (c->bcast && c->mode != MP1_MODE_SYNC)
    return net_fail(err, n, "traffic %s: needs mode sync (one broadcast, timed to completion)",
                c->bcast == MP1_BCAST_HW ? "broadcast" : "bcast-p2p");
  if (c->bcast == MP1_BCAST_HW && mp1_sim_awf(c) == 1 && c->len > 32)
    return net_fail(err, n, "traffic broadcast: length %u: a broadcast is one segment of at most 32 "
                        "flits (docs/mp1.md §8.8 rule 10)", c->len);
  if (c->bcast == MP1_BCAST_HW && mp1_sim_awf(c) == 2 && c->len + 2 > 32)
    return net_fail(err, n, "traffic broadcast: length %u: a broadcast is one segment of at most 32 "
                        "flits (docs/mp1.md §8.8 rule 10), and at address-flits 2 its two address words "
                        "take a flit more each, so at most 30", c->len);
  if (c->bcast && c->bcast_src >= c->kx * c->ky)
    return net_fail(err, n, "bcast-src: node %u is outside the %ux%u network", c->bcast_src, c->kx,
                c->ky);
  if (c->bcast) {
    const uint32_t sx = c->bcast_src % c->kx, sy = c->bcast_src / c->kx;
    if (c->bcast_size && (sx + c->bcast_size > c->kx || sy + c->bcast_size > c->ky))
      return net_fail(err, n, "bcast-size: a %u x %u domain from node (%u,%u) leaves the network",
                  c->bcast_size, c->bcast_size, sx, sy);
  }
  if (c->seeds && c->seed > UINT64_MAX - (c->seeds - 1)) /* run k uses seed + k: no wrap to 0 */
    return net_fail(err, n, "seed %llu with %u seeds: the last, seed + seeds - 1, passes 2^64 - 1",
                    (unsigned long long)c->seed, c->seeds);
  if (c->mode == MP1_MODE_SYNC && c->drain == 0)
    return net_fail(err, n, "mode sync: give drain, the most cycles to wait for the permutation");
  return mp1_sim_cfg_unused(c, err, n);
}

uint32_t mp1_sim_awf(const mp1_sim_cfg_t *c) {
  if (c->awf) return c->awf;
  const uint32_t side = (c->torus ? 2 : 1) * (c->kx > c->ky ? c->kx : c->ky);
  return side <= MP1_MESH_MAX ? 1 : 2;
}

double mp1_sim_rate(const mp1_sim_cfg_t *c) {
  const uint32_t n = c->kx > c->ky ? c->kx : c->ky;
  return c->load / 100.0 * (8.0 / (3.0 * n)) / (double)c->len;
}

void mp1_sim_cfg_json(const mp1_sim_cfg_t *c, FILE *f) {
  fprintf(f,
          "\"mesh\":\"%ux%u\",\"address-flits\":%u,\"routing\":\"%s\",\"queue\":%u,\"zero-offset\":\"%s\",\"topology\":\"%s\",\"torus-inject\":\"%s\",\"traffic\":\"%s\",\"mode\":\"%s\","
          "\"arrival\":\"%s\",\"burst\":%g,\"load\":%g,\"length\":%u,\"hot-node\":%u,"
          "\"hot-frac\":%g,\"bcast-src\":%u,\"bcast-size\":%u,\"warmup\":%llu,\"measure\":%llu,\"drain\":%llu,\"seed\":%llu,"
          "\"seeds\":%u,\"rate\":%.9g",
          c->kx, c->ky, mp1_sim_awf(c), route_names[c->route], c->queue,
          c->zero_random ? "random" : "plus",
          c->torus ? "torus" : "mesh", tinj_names[c->torus_inject], traffic_name(c),
          mode_names[c->mode],
          net_arrival_name(c->arrival.kind), c->arrival.burst, c->load, c->len,
          c->traffic.hot_node, c->traffic.hot_frac, c->bcast_src, c->bcast_size,
          (unsigned long long)c->warmup, (unsigned long long)c->measure,
          (unsigned long long)c->drain, (unsigned long long)c->seed, c->seeds, mp1_sim_rate(c));
}

void mp1_sim_cfg_text(const mp1_sim_cfg_t *c, FILE *f, const char *p) {
  fprintf(f,
          "%smesh=%ux%u address-flits=%u routing=%s queue=%u zero-offset=%s topology=%s torus-inject=%s traffic=%s mode=%s arrival=%s burst=%g\n"
          "%sload=%g length=%u hot-node=%u hot-frac=%g bcast-src=%u bcast-size=%u warmup=%llu measure=%llu drain=%llu\n"
          "%sseed=%llu seeds=%u rate=%.9g messages/node/cycle\n",
          p, c->kx, c->ky, mp1_sim_awf(c), route_names[c->route], c->queue,
          c->zero_random ? "random" : "plus",
          c->torus ? "torus" : "mesh", tinj_names[c->torus_inject], traffic_name(c),
          mode_names[c->mode], net_arrival_name(c->arrival.kind), c->arrival.burst, p, c->load,
          c->len, c->traffic.hot_node, c->traffic.hot_frac, c->bcast_src, c->bcast_size,
          (unsigned long long)c->warmup, (unsigned long long)c->measure,
          (unsigned long long)c->drain, p,
          (unsigned long long)c->seed, c->seeds, mp1_sim_rate(c));
}
