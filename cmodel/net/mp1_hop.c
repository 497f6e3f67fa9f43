/* Per-hop latency of one MP1 message (docs/mp1.md §13, docs/mp1_draft4.md). A routing machine
 * holds up to two messages, the front one F (whose copies send) and the back one B (draft-4 §3);
 * each message's residency runs from its first chunk on the machine's input (a slot created,
 * §4.1) to F complete (§5.6), following it from B into F. The walk from the source follows each
 * residency's live output to the next one. */
#include <madpost/mp1_hop.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <madpost/mp1_mesh.h>
#include <madpost/mp1_nic.h>
#include <madpost/madpost_rng.h>
#include <madpost/madpost_vcd.h>

/* One message's stay in one machine: first[k] the cycle copy k's first chunk was on its output
 * (0: none), eom_in the cycle its EOM arrived on the input. */
typedef struct {
  uint64_t arrive, first[MP1_RM_NOUT], eom_in;
  uint32_t route, adapt, open, base;
} res_t;

/* A machine's residencies, and the open ones in its slots F and B (-1: none). */
typedef struct {
  res_t *v;
  uint32_t n, cap;
  int32_t f, b;
} res_list_t;

typedef struct {
  const mp1_hop_cfg_t *cfg;
  mp1_mesh_state_t st;
  mp1_mesh_next_t nx;
  mp1_mesh_in_t *in;
  mp1_mesh_out_t *out;
  mp1_nic_t *nic;
  res_list_t *res; /* per machine: node * 8 + j */
  madpost_rng_t rng;
  uint64_t next_id;
  /* VCD of the path (second run) */
  madpost_vcd_t vcd;
  const uint32_t *path_node;
  uint32_t path_n;
  uint32_t *vh;
} hop_ctx_t;

static void fail(char *err, unsigned len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (err && len) vsnprintf(err, len, fmt, ap);
  va_end(ap);
}

/* A point-to-point message from s to d with `len` data bytes; ours (id 0) has its own pattern.
 * Returns the header flit count. */
static uint32_t make_msg(const mp1_mesh_cfg_t *c, uint32_t s, uint32_t d, uint32_t len,
                         uint32_t adaptive, uint64_t id, mp1_msg_t *m) {
  memset(m, 0, sizeof *m);
  m->id = id;
  const uint32_t h = mp1_msg_p2p(c->awf, c->kx, s, d, adaptive, m);
  for (uint32_t i = 0; i < len; i++)
    m->bytes[h + i] = (uint8_t)(id ? id * 31 + i * 7 : 0xa5u ^ (i * 29u));
  m->len = h + len;
  return h;
}

/* A new residency (its index), or -1 with no memory. */
static int32_t res_open(res_list_t *l, uint64_t t, uint32_t base) {
  if (l->n == l->cap) {
    uint32_t cap = l->cap ? 2 * l->cap : 16;
    res_t *v = realloc(l->v, cap * sizeof *v);
    if (!v) return -1;
    l->v = v;
    l->cap = cap;
  }
  res_t *r = &l->v[l->n];
  memset(r, 0, sizeof *r);
  r->open = 1;
  r->arrive = t;
  r->base = base;
  return (int32_t)l->n++;
}

static const mp1_rm_state_t *machine(const mp1_chip_state_t *c, uint32_t j) {
  return (j & 1u) ? &c->pl[j >> 1].rmy : &c->pl[j >> 1].rmx;
}
static const mp1_rm_next_t *machine_nx(const mp1_chip_next_t *c, uint32_t j) {
  return (j & 1u) ? &c->pl[j >> 1].rmy : &c->pl[j >> 1].rmx;
}
static uint32_t arb_own(const mp1_chip_state_t *c, uint32_t j) {
  return (j & 1u) ? c->pl[j >> 1].arby_own : c->pl[j >> 1].arbx_own;
}

/* After a cycle with slot B (base bb) valid or created and not valid next while F stays valid:
 * whether B took F's place (F complete, §5.6) rather than being cleared (its input cut short,
 * §4.4). Told by F's base next; should both bases be equal (F wrote a multiple of 128 chunks), B
 * is cleared only in the cycle its input ends other than by a good EOM. */
static int promoted(const mp1_rm_regs_t *q, const mp1_rm_regs_t *d, uint32_t bb, uint32_t eom) {
  if (d->f_base != q->f_base || q->f_base != bb) return d->f_base == bb;
  return d->f_in || !q->b_in || (eom && !q->b_drop);
}

/* One machine's residencies over cycle t: q its registers, d its next ones, c its input chunk. */
static int observe_rm(res_list_t *l, const mp1_rm_regs_t *q, const mp1_rm_regs_t *d, uint32_t c,
                      uint64_t t) {
  const uint32_t eom = q->ic == 0 && q->iseg && c == MP1_CH_EOM;
  const int32_t rx = q->f_val && q->f_in ? l->f : q->b_val && q->b_in ? l->b : -1;
  if (rx >= 0 && eom) l->v[rx].eom_in = t;
  /* a message starts: a segment start with no message open at the input (§4.1) */
  if (q->ic == 0 && (c & 4u) && !q->iseg && rx < 0 && !(q->f_val && q->b_val)) {
    const int32_t k = res_open(l, t, q->wp);
    if (k < 0) return -1;
    if (q->f_val) l->b = k;
    else l->f = k;
  }
  if (l->f < 0) return 0;
  res_t *f = &l->v[l->f];
  if (q->f_val) f->route |= q->f_route;
  f->adapt += (uint32_t)(d->cnt_adapt - q->cnt_adapt) & 0xffffu;
  /* F's copies send (a copy's first chunk is a flit's): on the wire the next cycle */
  const uint32_t dat[MP1_RM_NOUT] = {d->st_dat, d->ot_dat, d->rc_dat, d->pb_dat};
  for (uint32_t k = 0; k < MP1_RM_NOUT; k++)
    if (!f->first[k] && (dat[k] & 4u)) f->first[k] = t + 1;
  if (l->b >= 0 && q->b_val) l->v[l->b].route |= q->b_route;
  if (!d->f_val) {
    /* F complete, and B (if any) gone with it */
    f->open = 0;
    if (l->b >= 0) l->v[l->b].open = 0;
    l->f = l->b = -1;
  } else if (l->b >= 0 && !d->b_val) {
    if (promoted(q, d, l->v[l->b].base, eom)) {
      f->open = 0;
      l->f = l->b;
    } else {
      l->v[l->b].open = 0;
    }
    l->b = -1;
  }
  return 0;
}

/* Residency bookkeeping of every machine for cycle t (regs of t, inputs of t, next of t). */
static int observe(hop_ctx_t *h, uint64_t t) {
  const uint32_t n = h->st.cfg.kx * h->st.cfg.ky;
  for (uint32_t i = 0; i < n; i++) {
    const mp1_chip_state_t *c = &h->st.chip[i];
    const mp1_chip_next_t *cn = &h->nx.chip[i];
    const mp1_chip_in_t *ci = &h->nx.in[i];
    const uint32_t din[8] = {MP1_CHIP_PER_CHANNEL(ci->, xin_dat, yin_dat)};
    for (uint32_t j = 0; j < 8; j++) {
      const mp1_rm_state_t *m = machine(c, j);
      const mp1_rm_next_t *mn = machine_nx(cn, j);
      /* a kept machine's next registers are its registers (mp1_rm_next_t) */
      if (observe_rm(&h->res[i * 8 + j], &m->r, mn->keep ? &m->r : &mn->r, din[j] & 7u, t))
        return -1;
    }
  }
  return 0;
}

/* Follows the message from the source's output link through the residencies; 1 when it reached
 * the destination's reception copy, 0 if the path is not complete yet. */
static int walk(hop_ctx_t *h, mp1_hop_result_t *res, uint32_t src, uint32_t dst, uint32_t j0,
                uint64_t t_inj, uint64_t t0) {
  const mp1_hop_cfg_t *cfg = h->cfg;
  memset(res->hop, 0, sizeof res->hop);
  mp1_hop_t *hp = &res->hop[0];
  hp->node = src, hp->x = cfg->sx, hp->y = cfg->sy, hp->plane = j0 >> 1, hp->dim = j0 & 1u;
  hp->kind = MP1_HOP_SOURCE;
  hp->arrive = t_inj, hp->decide = t0 - 1, hp->depart = t0;
  hp->delay = (uint32_t)(t0 - t_inj);
  res->nhops = 1;
  res->links = 0;
  res->turns = 0;
  uint32_t node = src, j = j0;
  uint64_t at = t0;
  while (res->nhops < MP1_HOP_MAX) {
    const int nn = mp1_mesh_next_node(&h->st.cfg, node, j);
    if (nn < 0) return 0;
    res->links++;
    res_list_t *l = &h->res[(uint32_t)nn * 8 + j];
    res_t *r = NULL;
    for (uint32_t k = 0; k < l->n; k++)
      if (l->v[k].arrive == at) r = &l->v[k];
    if (!r || r->open) return 0; /* not there yet, or still handling the message */
    mp1_hop_t *o = &res->hop[res->nhops++];
    o->node = (uint32_t)nn, o->x = (uint32_t)nn % cfg->kx, o->y = (uint32_t)nn / cfg->kx;
    o->plane = j >> 1, o->dim = j & 1u;
    o->arrive = r->arrive;
    o->adapt = r->adapt;
    uint32_t jn = j, live = MP1_RM_ST;
    if (r->route & (1u << MP1_RM_OT)) {
      o->kind = MP1_HOP_TURN;
      live = MP1_RM_OT;
      jn = j ^ 1u;
      res->turns++;
    } else if (r->route & (1u << MP1_RM_RC)) {
      o->kind = MP1_HOP_DELIVER;
      live = MP1_RM_RC;
    } else {
      o->kind = MP1_HOP_STRAIGHT;
    }
    /* Every copy starts on its own (draft-4 §5.4): the node commits the message to its live output
       in the cycle that copy sends its first chunk, a straight cut-through's claim included. */
    const uint64_t dep = r->first[live];
    o->decide = dep ? dep - 1 : 0;
    o->dead = r->first[MP1_RM_ST] && o->kind != MP1_HOP_STRAIGHT;
    o->depart = dep;
    o->delay = dep ? (uint32_t)(dep - r->arrive) : 0;
    if (!dep) return 0;
    if (o->kind == MP1_HOP_DELIVER) {
      res->t_last_in = r->eom_in - 1;
      return (uint32_t)nn == dst;
    }
    node = (uint32_t)nn, j = jn, at = dep;
  }
  return 0;
}

/* VCD wires per path node: six per machine (output chunk, input stop, slots, copy states, route,
 * write pointer) and three of the interface. */
enum { VCD_WIRES = 8 * 6 + 3 };

/* The wires of one channel j (plane j >> 1, x or y): its output data and input stop, then its
 * routing machine's slots {b_val, f_val}, F's copy states {cs_pb, cs_rc, cs_ot, cs_st}
 * (draft-4 §3), route and write pointer. */
static const struct {
  const char *fmt; /* plane, then "x" or "y" */
  uint32_t width;
} chan_wires[] = {{"p%u_%sout_dat", 3}, {"p%u_%sin_stop", 1}, {"p%u_rm%s_slots", 2},
                  {"p%u_rm%s_cs", 8},   {"p%u_rm%s_route", 4}, {"p%u_rm%s_wp", 7}};

static void vcd_setup(hop_ctx_t *h) {
  char name[64];
  madpost_vcd_scope(&h->vcd, "mp1_path");
  uint32_t k = 0;
  for (uint32_t p = 0; p < h->path_n; p++) {
    const uint32_t i = h->path_node[p];
    snprintf(name, sizeof name, "n%u_x%u_y%u", i, i % h->st.cfg.kx, i / h->st.cfg.kx);
    madpost_vcd_scope(&h->vcd, name);
    for (uint32_t j = 0; j < 8; j++)
      for (uint32_t w = 0; w < sizeof chan_wires / sizeof chan_wires[0]; w++) {
        snprintf(name, sizeof name, chan_wires[w].fmt, j >> 1, (j & 1u) ? "y" : "x");
        h->vh[k++] = madpost_vcd_wire(&h->vcd, name, chan_wires[w].width);
      }
    h->vh[k++] = madpost_vcd_wire(&h->vcd, "inj_dat", 3);
    h->vh[k++] = madpost_vcd_wire(&h->vcd, "inj_stop", 1);
    h->vh[k++] = madpost_vcd_wire(&h->vcd, "rcv_dat", 3);
    madpost_vcd_upscope(&h->vcd);
  }
  madpost_vcd_upscope(&h->vcd);
  madpost_vcd_enddefs(&h->vcd);
}

static void vcd_dump(hop_ctx_t *h, uint64_t t) {
  madpost_vcd_time(&h->vcd, t * 40); /* one MP1 cycle is 40 ns */
  uint32_t k = 0;
  for (uint32_t p = 0; p < h->path_n; p++) {
    const uint32_t i = h->path_node[p];
    const mp1_chip_state_t *c = &h->st.chip[i];
    for (uint32_t j = 0; j < 8; j++) {
      const mp1_rm_regs_t *r = &machine(c, j)->r;
      madpost_vcd_val(&h->vcd, h->vh[k++], h->out[i].chan_dat[j]);
      madpost_vcd_val(&h->vcd, h->vh[k++], h->out[i].chan_stop[j]);
      madpost_vcd_val(&h->vcd, h->vh[k++], (uint32_t)r->b_val << 1 | r->f_val);
      const uint32_t cs = (uint32_t)r->cs_pb << 6 | (uint32_t)r->cs_rc << 4;
      madpost_vcd_val(&h->vcd, h->vh[k++], cs | (uint32_t)r->cs_ot << 2 | r->cs_st);
      madpost_vcd_val(&h->vcd, h->vh[k++], r->f_route);
      madpost_vcd_val(&h->vcd, h->vh[k++], r->wp);
    }
    madpost_vcd_val(&h->vcd, h->vh[k++], h->in[i].inj_dat);
    madpost_vcd_val(&h->vcd, h->vh[k++], h->out[i].inj_stop);
    madpost_vcd_val(&h->vcd, h->vh[k++], h->out[i].rcv_dat);
  }
}

static void ctx_free(hop_ctx_t *h, uint32_t n) {
  if (h->res)
    for (uint32_t i = 0; i < n * 8; i++) free(h->res[i].v);
  free(h->res);
  free(h->in);
  free(h->out);
  free(h->nic);
  free(h->vh);
  mp1_mesh_free(&h->st, &h->nx);
}

/* The mesh, the interfaces and the residency lists of one simulation; with path != NULL the VCD
 * of the path's nodes too. Returns 0, or -1 with err filled (h freed). */
static int ctx_init(hop_ctx_t *h, const mp1_hop_cfg_t *cfg, const uint32_t *path,
                    uint32_t path_n, char *err, unsigned errlen) {
  memset(h, 0, sizeof *h);
  h->cfg = cfg;
  /* MP1 as §1-13 specify it: one-flit addresses (docs/mp1.md §14) */
  const mp1_mesh_cfg_t mc = {.kx = cfg->kx, .ky = cfg->ky, .awf = 1};
  if (mp1_mesh_init(&h->st, &h->nx, mc)) {
    fail(err, errlen, "cannot build a %ux%u mesh", cfg->kx, cfg->ky);
    return -1;
  }
  const uint32_t n = cfg->kx * cfg->ky;
  h->in = calloc(n, sizeof *h->in);
  h->out = calloc(n, sizeof *h->out);
  h->nic = calloc(n, sizeof *h->nic);
  h->res = calloc((size_t)n * 8, sizeof *h->res);
  if (path) {
    h->path_node = path;
    h->path_n = path_n;
    h->vh = calloc((size_t)path_n * VCD_WIRES, sizeof *h->vh);
  }
  if (!h->in || !h->out || !h->nic || !h->res || (path && !h->vh)) {
    fail(err, errlen, "out of memory");
    ctx_free(h, n);
    return -1;
  }
  if (path) {
    if (madpost_vcd_open(&h->vcd, cfg->vcd_path, "1ns")) {
      fail(err, errlen, "cannot write %s", cfg->vcd_path);
      ctx_free(h, n);
      return -1;
    }
    vcd_setup(h);
  }
  for (uint32_t i = 0; i < n; i++) mp1_nic_reset(&h->nic[i]);
  for (uint32_t i = 0; i < n * 8; i++) h->res[i].f = h->res[i].b = -1;
  madpost_rng_seed(&h->rng, cfg->seed, 0x4f50);
  return 0;
}

/* Background traffic at cycle t: every node but the source, Bernoulli per cycle; returns the
 * messages queued. */
static uint64_t background(hop_ctx_t *h, uint32_t src, uint64_t t) {
  const mp1_hop_cfg_t *cfg = h->cfg;
  const uint32_t n = cfg->kx * cfg->ky;
  uint64_t sent = 0;
  for (uint32_t i = 0; i < n && cfg->load_ppm; i++) {
    if (i == src || h->nic[i].count == MP1_NIC_QUEUE) continue;
    if (madpost_rng_below(&h->rng, 1000000) >= cfg->load_ppm) continue;
    uint32_t d = madpost_rng_below(&h->rng, n - 1);
    if (d >= i) d++;
    mp1_msg_t b;
    make_msg(&h->st.cfg, i, d, cfg->bg_len, cfg->adaptive, ++h->next_id, &b);
    b.t_enq = t;
    if (!mp1_nic_push(&h->nic[i], &b)) sent++;
  }
  return sent;
}

/* A chip's err stops the run (docs/mp1_draft4.md §6): a fault of the model, reported with the
 * first node whose chip raised it and the cycle. */
static void invariant_fail(const hop_ctx_t *h, uint64_t t, char *err, unsigned errlen) {
  const uint32_t kx = h->st.cfg.kx, i = mp1_mesh_first_err(h->out, kx * h->st.cfg.ky);
  fail(err, errlen, "MP1 buffer invariant broken at node (%u,%u), cycle %llu", i % kx, i / kx,
       (unsigned long long)t);
}

/* The traced message: where it goes, and when it was injected, first left the source and was
 * received; the background messages sent and delivered. */
typedef struct {
  mp1_msg_t m;
  uint32_t src, dst, hdr, j0;
  int queued, got;
  uint64_t t_inj, t0, t_eom;
  uint32_t data_ok;
  uint64_t bg_sent, bg_del;
} trace_t;

/* The messages every node's interface received at cycle t: the traced one (the same bytes, and a
 * path from the source that ends in this delivery) or background. Returns the chips' err bits. */
static uint32_t receive(hop_ctx_t *h, const mp1_hop_cfg_t *cfg, mp1_hop_result_t *res,
                        trace_t *tr, uint64_t t) {
  const uint32_t n = cfg->kx * cfg->ky;
  uint32_t any_err = 0;
  for (uint32_t i = 0; i < n; i++) {
    mp1_rx_msg_t rx;
    any_err |= h->out[i].err;
    if (mp1_nic_rx(&h->nic[i], h->out[i].rcv_dat, t, &rx) == 1) {
      if (i == tr->dst && !tr->got && tr->t0 && rx.len == cfg->len &&
          !memcmp(rx.bytes, tr->m.bytes + tr->hdr, cfg->len) &&
          walk(h, res, tr->src, tr->dst, tr->j0, tr->t_inj, tr->t0)) {
        tr->got = 1;
        tr->t_eom = t;
        tr->data_ok = 1;
      } else {
        tr->bg_del++;
      }
    }
  }
  return any_err;
}

/* Every interface sends its next flit; the traced message's injection time is its first. */
static void transmit(hop_ctx_t *h, uint32_t n, trace_t *tr, uint64_t t) {
  for (uint32_t i = 0; i < n; i++) {
    const int was_src_head = i == tr->src && tr->queued && h->nic[i].count && !tr->t_inj;
    mp1_nic_tx_step(&h->nic[i], h->out[i].inj_stop, t);
    if (was_src_head && h->nic[i].t_first) tr->t_inj = h->nic[i].t_first;
  }
}

/* The result from the trace and the walk: times, and the formulas to compare with. */
static void finish(mp1_hop_result_t *res, const trace_t *tr) {
  res->flits = tr->m.len;
  res->t_inj = tr->t_inj;
  res->t0 = tr->t0;
  res->t_rcv_eom = tr->t_eom;
  res->data_ok = tr->data_ok;
  res->bg_sent = tr->bg_sent;
  res->bg_delivered = tr->bg_del;
  res->net = res->t_last_in - res->t0 + 1;
  res->total = res->t_rcv_eom - res->t_inj + 1;
  res->formula = (int64_t)res->links + 3 * (int64_t)res->flits - 1;
  res->formula_k1 = ((double)res->links + 9.0 * res->flits - 1.0) / 3.0;
  res->segments = (res->flits + MP1_SEG_FLITS - 1) / MP1_SEG_FLITS;
  res->predicted = res->formula + (int64_t)(res->segments - 1) * MP1_HOP_SEG_EXTRA;
}

/* One simulation; fills res from the walk. With path != NULL (second run) it writes the VCD. */
static int simulate(const mp1_hop_cfg_t *cfg, mp1_hop_result_t *res, const uint32_t *path,
                    uint32_t path_n, char *err, unsigned errlen) {
  hop_ctx_t h;
  if (ctx_init(&h, cfg, path, path_n, err, errlen)) return -1;
  const uint32_t n = cfg->kx * cfg->ky;
  trace_t tr = {.src = cfg->sy * cfg->kx + cfg->sx, .dst = cfg->dy * cfg->kx + cfg->dx};
  tr.hdr = make_msg(&h.st.cfg, tr.src, tr.dst, cfg->len, cfg->adaptive, 0, &tr.m);
  res->flits = tr.m.len;
  tr.j0 = ((tr.m.sel >> 3) & 3u) * 2 + ((tr.m.sel >> 2) & 1u);
  const uint32_t src = tr.src, j0 = tr.j0;
  int failed = 0;
  uint64_t t;
  for (t = 0; t < cfg->max_cycles && !tr.got; t++) {
    tr.bg_sent += background(&h, src, t);
    if (!tr.queued && t >= cfg->warmup) {
      tr.m.t_enq = t;
      mp1_nic_push(&h.nic[src], &tr.m);
      tr.queued = 1;
    }
    for (uint32_t i = 0; i < n; i++) h.in[i].inj_dat = h.nic[i].dat;
    mp1_mesh_eval(&h.st.cfg, &h.st, h.in, h.out, &h.nx, NULL);
    if (path) vcd_dump(&h, t);
    if (observe(&h, t)) {
      fail(err, errlen, "out of memory");
      failed = 1;
      break;
    }
    /* The first chunk on the source's output link, from its injection controller. */
    if (tr.queued && !tr.t0 && h.nic[src].t_first && t > h.nic[src].t_first &&
        (h.out[src].chan_dat[j0] & 4u) && arb_own(&h.st.chip[src], j0) == 3)
      tr.t0 = t;
    if (receive(&h, cfg, res, &tr, t)) {
      invariant_fail(&h, t, err, errlen);
      failed = 1;
      break;
    }
    transmit(&h, n, &tr, t);
    mp1_mesh_clock(&h.st, &h.nx);
  }
  /* the dump is buffered: a full disk shows only when it is closed */
  if (path && madpost_vcd_close(&h.vcd) && !failed) {
    fail(err, errlen, "cannot write %s", cfg->vcd_path);
    failed = 1;
  }
  if (failed || !tr.got) {
    if (!failed)
      fail(err, errlen, "the message did not arrive within %llu cycles",
           (unsigned long long)cfg->max_cycles);
    ctx_free(&h, n);
    return -1;
  }
  ctx_free(&h, n);
  finish(res, &tr);
  return 0;
}

int mp1_hop_run(const mp1_hop_cfg_t *cfg, mp1_hop_result_t *res, char *err, unsigned errlen) {
  memset(res, 0, sizeof *res);
  if (cfg->kx < 1 || cfg->ky < 1 || cfg->kx > MP1_MESH_MAX || cfg->ky > MP1_MESH_MAX) {
    fail(err, errlen, "mesh size %ux%u: each side must be 1..32", cfg->kx, cfg->ky);
    return -2;
  }
  if (cfg->sx >= cfg->kx || cfg->sy >= cfg->ky || cfg->dx >= cfg->kx || cfg->dy >= cfg->ky) {
    fail(err, errlen, "source or destination outside the %ux%u mesh", cfg->kx, cfg->ky);
    return -2;
  }
  if (cfg->sx == cfg->dx && cfg->sy == cfg->dy) {
    fail(err, errlen, "source and destination are the same node");
    return -2;
  }
  if (cfg->len < 1 || cfg->len + 2 > MP1_MSG_MAX || (cfg->load_ppm && cfg->bg_len < 1)) {
    fail(err, errlen, "message length must be 1..%u bytes", MP1_MSG_MAX - 2);
    return -2;
  }
  if (simulate(cfg, res, NULL, 0, err, errlen)) return -1;
  if (cfg->vcd_path) {
    uint32_t path[MP1_HOP_MAX];
    for (uint32_t i = 0; i < res->nhops; i++) path[i] = res->hop[i].node;
    mp1_hop_result_t again;
    memset(&again, 0, sizeof again);
    if (simulate(cfg, &again, path, res->nhops, err, errlen)) return -1;
  }
  return 0;
}
