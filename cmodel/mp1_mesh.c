/* A mesh of MP1 chips (docs/mp1.md §12). The channels between chips come from registers, so each
 * chip's inputs are read from its neighbours' state; then every chip is evaluated. */
#include <madpost/mp1_mesh.h>

#include <stdlib.h>
#include <string.h>

#include "mp1_int.h"

int mp1_mesh_init(mp1_mesh_state_t *st, mp1_mesh_next_t *nx, mp1_mesh_cfg_t cfg) {
  memset(st, 0, sizeof *st);
  memset(nx, 0, sizeof *nx);
  if (cfg.awf > MP1_AWF_MAX) return -1;
  if (cfg.awf == 0) cfg.awf = 1;
  const uint32_t kmax = mp1_mesh_max(cfg.awf);
  if (cfg.kx < 1 || cfg.ky < 1 || cfg.kx > kmax || cfg.ky > kmax) return -1;
  const size_t n = (size_t)cfg.kx * cfg.ky;
  st->cfg = cfg;
  st->chip = calloc(n, sizeof *st->chip);
  nx->chip = calloc(n, sizeof *nx->chip);
  nx->in = cfg.lean ? NULL : calloc(n, sizeof *nx->in);
  if (!st->chip || !nx->chip || (!cfg.lean && !nx->in)) {
    mp1_mesh_free(st, nx);
    return -1;
  }
  mp1_mesh_reset(&st->cfg, st);
  return 0;
}

void mp1_mesh_free(mp1_mesh_state_t *st, mp1_mesh_next_t *nx) {
  free(st->chip);
  free(nx->chip);
  free(nx->in);
  st->chip = NULL;
  nx->chip = NULL;
  nx->in = NULL;
}

void mp1_mesh_reset(const mp1_mesh_cfg_t *cfg, mp1_mesh_state_t *st) {
  const mp1_chip_cfg_t ccfg = {cfg->awf};
  const uint32_t n = cfg->kx * cfg->ky;
  for (uint32_t i = 0; i < n; i++) mp1_chip_reset(&ccfg, &st->chip[i]);
}

/* Node reached from n one step along dimension d of plane p, forwards (dir +1) or back (-1). */
static int step(const mp1_mesh_cfg_t *cfg, uint32_t n, uint32_t j, int dir) {
  const uint32_t p = j >> 1, d = j & 1u;
  const int s = ((d ? p & 1u : (p >> 1) & 1u) ? -1 : 1) * dir;
  int x = (int)(n % cfg->kx), y = (int)(n / cfg->kx);
  if (d) y += s;
  else x += s;
  if (x < 0 || y < 0 || x >= (int)cfg->kx || y >= (int)cfg->ky) return -1;
  return y * (int)cfg->kx + x;
}

int mp1_mesh_next_node(const mp1_mesh_cfg_t *cfg, uint32_t n, uint32_t j) {
  return step(cfg, n, j, 1);
}


static uint32_t chan_stop(const mp1_chip_state_t *c, uint32_t j) {
  const mp1_plane_state_t *pl = &c->pl[j >> 1];
  return (j & 1u) ? pl->rmy.r.stop : pl->rmx.r.stop;
}

static void put_out(mp1_mesh_out_t *o, const mp1_chip_out_t *co) {
  o->inj_stop = co->inj_stop;
  o->pbi_stop = co->pbi_stop;
  o->rcv_dat = co->rcv_dat;
  o->pbo_dat = co->pbo_dat;
  const uint32_t dat[8] = {MP1_CHIP_PER_CHANNEL(co->, xout_dat, yout_dat)};
  const uint32_t stop[8] = {MP1_CHIP_PER_CHANNEL(co->, xin_stop, yin_stop)};
  for (uint32_t j = 0; j < 8; j++) o->chan_dat[j] = dat[j], o->chan_stop[j] = stop[j];
  o->err = co->err;
}

int mp1_mesh_eval(const mp1_mesh_cfg_t *cfg, const mp1_mesh_state_t *st, const mp1_mesh_in_t *in,
                  mp1_mesh_out_t *out, mp1_mesh_next_t *nx, mp1_mesh_ev_t *ev) {
  mp1_chip_ev_t *cev = ev ? ev->chip : NULL;
  const mp1_chip_cfg_t ccfg = {cfg->awf};
  const uint32_t kx = cfg->kx, ky = cfg->ky, n = kx * ky;
  /* A node's outputs are copied out one node later: read at once, wide copies of the chip's
   * fields would wait on its narrow stores (a store-forwarding stall). */
  mp1_chip_out_t co[2];
  mp1_chip_in_t lean_in;
  for (uint32_t y = 0, i = 0; y < ky; y++) {
    for (uint32_t x = 0; x < kx; x++, i++) {
      mp1_chip_in_t *ci = nx->in ? &nx->in[i] : &lean_in;
      /* The neighbours (NULL outside the mesh); channel j = 2p + d runs towards -X (-Y) in the
       * planes with p's bit 1 (bit 0) set, so it comes from the other side (cf. step()). */
      const mp1_chip_state_t *w = x > 0 ? &st->chip[i - 1] : NULL;
      const mp1_chip_state_t *e = x + 1 < kx ? &st->chip[i + 1] : NULL;
      const mp1_chip_state_t *s = y > 0 ? &st->chip[i - kx] : NULL;
      const mp1_chip_state_t *nn = y + 1 < ky ? &st->chip[i + kx] : NULL;
#define DIN(j, up) ((up) ? mp1_chip_out_dat((up), (j), cfg->awf) : 0u)
#define SOUT(j, dn) ((dn) ? chan_stop((dn), (j)) : 0u)
      const uint32_t din[8] = {DIN(0, w), DIN(1, s),  DIN(2, w), DIN(3, nn),
                               DIN(4, e), DIN(5, s),  DIN(6, e), DIN(7, nn)};
      const uint32_t sout[8] = {SOUT(0, e), SOUT(1, nn), SOUT(2, e), SOUT(3, s),
                                SOUT(4, w), SOUT(5, nn), SOUT(6, w), SOUT(7, s)};
#undef DIN
#undef SOUT
      /* every field of the chip's inputs is written */
      ci->px = x;
      ci->py = y;
      ci->xmax = kx - 1;
      ci->ymax = ky - 1;
      ci->chip = cfg->lvkx ? 2u * (y >= cfg->lvky) + (x >= cfg->lvkx) : 0u;
      ci->pbloop = in[i].pbloop & 1u;
      ci->inj_dat = in[i].inj_dat & 7u;
      ci->pbi_dat = in[i].pbi_dat & 7u;
      ci->rcv_stop = in[i].rcv_stop & 1u;
      ci->pbo_stop = in[i].pbo_stop & 1u;
      MP1_CHIP_SET_PER_CHANNEL(ci->, xin_dat, yin_dat, din)
      MP1_CHIP_SET_PER_CHANNEL(ci->, xout_stop, yout_stop, sout)
      mp1_chip_eval(&ccfg, &st->chip[i], ci, &co[i & 1u], &nx->chip[i], cev ? &cev[i] : NULL);
      if (i > 0) put_out(&out[i - 1], &co[(i - 1) & 1u]);
    }
  }
  put_out(&out[n - 1], &co[(n - 1) & 1u]);
  return 0;
}

void mp1_mesh_clock(mp1_mesh_state_t *st, const mp1_mesh_next_t *nx) {
  const uint32_t n = st->cfg.kx * st->cfg.ky;
  for (uint32_t i = 0; i < n; i++) mp1_chip_clock(&st->chip[i], &nx->chip[i]);
}
