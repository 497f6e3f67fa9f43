/* Writes the seed corpora of the block fuzz targets (tests/fuzz/corpus/{dslink,mp1_rm,c104}/) from
 * real runs, in each target's input format: a DS-Link start-up and messages between two model link
 * ends, MP1 messages of tests/test_mp1_rm.c's kinds, and a C104 loaded with c104_setup_writes()
 * carrying packets. Not part of the build; tests/fuzz/README.md says how to run it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <madpost/c104.h>
#include <madpost/dslink.h>
#include <madpost/mp1_rm.h>

typedef struct {
  uint8_t b[16384];
  size_t n;
} buf_t;

static void put(buf_t *b, uint8_t v) {
  if (b->n < sizeof b->b) b->b[b->n++] = v;
}

static void save(const char *dir, const char *target, const char *name, const buf_t *b) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s/%s", dir, target, name);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(b->b, 1, b->n, f) != b->n || fclose(f)) {
    perror(path);
    exit(1);
  }
}

/* ---- DS-Link: end A (the peer) sends packets to end B, whose inputs are recorded ------------ */

typedef struct {
  int cycles, bp, short_timers, drop_at; /* drop_at: A's link_en falls then (0: never) */
  int npkt, len;
  int b_stall; /* B's rx_ready is low every other cycle */
} ds_plan_t;

static void ds_seed(const ds_plan_t *p, buf_t *out) {
  const uint8_t cfgb = (uint8_t)((p->bp - 1) | (p->short_timers ? 4 : 0));
  dslink_cfg_t cfg;
  dslink_cfg_default(&cfg);
  cfg.bit_period = (uint32_t)p->bp;
  if (p->short_timers) cfg.reset_cycles = 4, cfg.wait_cycles = 8, cfg.timeout_cycles = 16;
  static dslink_state_t a, b;
  dslink_reset(&cfg, &a);
  dslink_reset(&cfg, &b);
  out->n = 0;
  put(out, cfgb);
  int sent = 0, pos = 0;
  for (int t = 0; t < p->cycles; t++) {
    dslink_out_t oa, ob;
    dslink_outputs(&cfg, &a, &oa);
    dslink_outputs(&cfg, &b, &ob);
    dslink_in_t ia = {.d = ob.d, .s = ob.s, .link_en = !(p->drop_at && t >= p->drop_at),
                      .rx_ready = 1};
    if (sent < p->npkt && oa.link_state == DSLINK_ST_RUN) {
      ia.tx_valid = 1;
      ia.tx_kind = pos < p->len ? DSLINK_KIND_DATA : (sent & 1) ? DSLINK_KIND_EOM : DSLINK_KIND_EOP;
      ia.tx_data = (uint32_t)(0x41 + pos);
    }
    const uint32_t rdy = !(p->b_stall && (t & 1));
    dslink_in_t ib = {.d = oa.d, .s = oa.s, .link_en = 1, .rx_ready = rdy};
    dslink_next_t na, nb;
    if (dslink_eval(&cfg, &a, &ia, &oa, &na, NULL) || dslink_eval(&cfg, &b, &ib, &ob, &nb, NULL))
      exit(1);
    if (ia.tx_valid && oa.tx_ready && ++pos > p->len) pos = 0, sent++;
    dslink_clock(&a, &na);
    dslink_clock(&b, &nb);
    put(out, (uint8_t)(ib.d | ib.s << 1 | ib.rx_ready << 2));
  }
}

static void ds_seeds(const char *dir) {
  static const ds_plan_t plans[] = {
      {400, 1, 0, 0, 0, 0, 0},     /* start-up to Run, NULLs */
      {900, 1, 0, 0, 2, 5, 0},     /* two packets (EOP, EOM) */
      {1400, 2, 0, 0, 3, 8, 1},    /* bit period 2, receiver stalls */
      {600, 1, 1, 200, 4, 30, 0},  /* short timers, the peer goes down mid-packet */
      {1500, 1, 0, 0, 12, 3, 1},   /* many short packets, credit exhausted by stalls */
  };
  static buf_t b;
  for (size_t i = 0; i < sizeof plans / sizeof plans[0]; i++) {
    char name[32];
    snprintf(name, sizeof name, "seed%zu", i);
    ds_seed(&plans[i], &b);
    save(dir, "dslink", name, &b);
  }
}

/* ---- MP1 routing machine: messages as chunks, every output owned after it asks --------------- */

static void mp_flit(uint8_t *c, int *n, uint32_t b) {
  c[(*n)++] = (uint8_t)(4u | ((b >> 6) & 3u));
  c[(*n)++] = (uint8_t)((b >> 3) & 7u);
  c[(*n)++] = (uint8_t)(b & 7u);
}

/* A message: header flits, data flits split into segments of seg flits (EOS between), EOM. */
static int mp_msg(uint8_t *c, int n, const uint32_t *hdr, int nh, int nd, int seg) {
  for (int i = 0; i < nh; i++) mp_flit(c, &n, hdr[i]);
  for (int i = 0; i < nd; i++) {
    mp_flit(c, &n, (uint32_t)(0x30 + i));
    if (seg && (i + 1) % seg == 0 && i + 1 < nd) c[n++] = MP1_CH_EOS;
  }
  c[n++] = MP1_CH_EOM;
  c[n++] = MP1_CH_IDLE;
  return n;
}

static void mp_seed(uint8_t flags, uint8_t pos, uint8_t opos, const uint8_t *ch, int n, buf_t *o) {
  o->n = 0;
  put(o, flags);
  put(o, pos);
  put(o, opos);
  /* own = 1, free = 0, stop = 0 on every output (the owner of each; fuzz_mp1_rm.c's format) */
  for (int t = 0; t < n; t++) {
    put(o, (uint8_t)(ch[t] | 1u << 3 | 1u << 6));
    put(o, (uint8_t)(1u << 1 | 1u << 4));
  }
}

static uint32_t af(uint32_t code, uint32_t addr) { return code << 5 | addr; }

static void mp_seeds(const char *dir) {
  static buf_t b;
  uint8_t c[1024];
  int n;
  const uint32_t h_st[2] = {af(MP1_CODE_P2P_STATIC, 5), af(MP1_CODE_DELIVER, 3)};
  n = mp_msg(c, 0, h_st, 2, 4, 0);
  mp_seed(0, 2, 0, c, n, &b), save(dir, "mp1_rm", "straight", &b);
  n = mp_msg(c, 0, h_st, 2, 6, 0);
  mp_seed(0, 5, 1, c, n, &b), save(dir, "mp1_rm", "turn", &b);
  const uint32_t h_dl[1] = {af(MP1_CODE_DELIVER, 7)};
  n = mp_msg(c, 0, h_dl, 1, 3, 0);
  mp_seed(0, 7, 0, c, n, &b), save(dir, "mp1_rm", "deliver", &b);
  const uint32_t h_bc[2] = {af(MP1_CODE_BCAST_2D, 6), af(MP1_CODE_DELIVER, 6)};
  n = mp_msg(c, 0, h_bc, 2, 5, 0);
  mp_seed(0, 2, 4, c, n, &b), save(dir, "mp1_rm", "broadcast", &b);
  const uint32_t h_ad[2] = {af(MP1_CODE_P2P_ADAPTIVE, 9), af(MP1_CODE_DELIVER, 4)};
  n = mp_msg(c, 0, h_ad, 2, 20, 6);
  n = mp_msg(c, n, h_st, 2, 40, 10);
  mp_seed(0, 3, 1, c, n, &b), save(dir, "mp1_rm", "segments", &b);
}

/* ---- C104: a real configuration through the port, then packets on a few inputs -------------- */

static void c1_token(buf_t *o, uint32_t port, uint32_t kind, uint8_t byte) {
  put(o, (uint8_t)(0x80u | kind << 5 | port));
  put(o, byte);
  put(o, 0);
  for (int k = 0; k < 2; k++) put(o, 0), put(o, 0), put(o, 0); /* time to take it */
}

static void c1_seed(const c104_setup_t *s, const uint32_t *hdrs, int nh, int hbytes, buf_t *o) {
  c104_write_t w[C104_SETUP_NWRITES];
  const size_t nw = c104_setup_writes(s, w);
  o->n = 0;
  put(o, (uint8_t)nw);
  for (size_t i = 0; i < nw; i++) {
    put(o, (uint8_t)w[i].addr);
    for (int k = 0; k < 4; k++) put(o, (uint8_t)(w[i].data >> (8 * k)));
  }
  for (int i = 0; i < nh; i++) {
    const uint32_t in = (uint32_t)(i * 3) & 31u;
    if (hbytes == 2) c1_token(o, in, 0, (uint8_t)(hdrs[i] >> 8));
    c1_token(o, in, 0, (uint8_t)hdrs[i]);
    for (int d = 0; d < 4; d++) c1_token(o, in, 0, (uint8_t)(0x61 + d));
    c1_token(o, in, 1, 0);
  }
}

static void c1_seeds(const char *dir) {
  static buf_t b;
  c104_setup_t s;
  c104_setup_default(&s);
  for (int e = 0; e < 8; e++) s.ival[e].hi = (uint32_t)(8 * e + 7), s.ival[e].port = (uint32_t)(4 * e), s.ival[e].valid = 1;
  s.nint = 8;
  const uint32_t hdrs[6] = {3, 12, 40, 63, 64, 21};
  c1_seed(&s, hdrs, 6, 1, &b), save(dir, "c104", "intervals", &b);
  s.grp = 0x11111111u; /* hunt groups of four ports */
  s.rr = 1;
  s.ival[3].valid = 0;
  c1_seed(&s, hdrs, 6, 1, &b), save(dir, "c104", "groups_rr", &b);
  for (int p = 0; p < C104_PORTS; p++) s.port[p].hdr2 = 1, s.port[p].del = (uint32_t)(p & 3);
  s.ival[7].hi = 0xFFFF;
  const uint32_t h2[4] = {0x0005, 0x0120, 0x3000, 0x0038};
  c1_seed(&s, h2, 4, 2, &b), save(dir, "c104", "hdr2_delete", &b);
  c104_setup_default(&s);
  for (int e = 0; e < 4; e++) s.ival[e].hi = (uint32_t)(64 * e + 63), s.ival[e].port = (uint32_t)(e + 1), s.ival[e].valid = 1;
  s.nint = 4;
  for (int p = 0; p < C104_PORTS; p++) s.port[p].rnd = 1, s.port[p].rlo = 10, s.port[p].rhi = 200, s.port[p].seed = (uint32_t)(p + 1);
  c1_seed(&s, hdrs, 6, 1, &b), save(dir, "c104", "universal", &b);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: seed_gen CORPUS_DIR\n");
    return 2;
  }
  ds_seeds(argv[1]);
  mp_seeds(argv[1]);
  c1_seeds(argv[1]);
  return 0;
}
