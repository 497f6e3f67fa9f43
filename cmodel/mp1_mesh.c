/* A mesh of MP1 chips (docs/mp1.md §12). The channels between chips come from registers, so each
 * chip's inputs are read from its neighbours' state; then every chip is evaluated. */
#include "mp1_mesh.h"

#include <stdlib.h>
#include <string.h>

int mp1_mesh_init(mp1_mesh_state_t *st, mp1_mesh_next_t *nx, mp1_mesh_cfg_t cfg) {
  memset(st, 0, sizeof *st);
  memset(nx, 0, sizeof *nx);
  if (cfg.kx < 1 || cfg.ky < 1 || cfg.kx > MP1_MESH_MAX || cfg.ky > MP1_MESH_MAX) return -1;
  const size_t n = (size_t)cfg.kx * cfg.ky;
  st->cfg = cfg;
  st->chip = calloc(n, sizeof *st->chip);
  nx->chip = calloc(n, sizeof *nx->chip);
  nx->in = calloc(n, sizeof *nx->in);
  if (!st->chip || !nx->chip || !nx->in) {
    mp1_mesh_free(st, nx);
    return -1;
  }
  mp1_mesh_reset(st);
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

void mp1_mesh_reset(mp1_mesh_state_t *st) {
  const uint32_t n = st->cfg.kx * st->cfg.ky;
  for (uint32_t i = 0; i < n; i++) mp1_chip_reset(&st->chip[i]);
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

static uint32_t chan_dat(const mp1_chip_state_t *c, uint32_t j) {
  return mp1_plane_out_dat(&c->pl[j >> 1], j & 1u, c->r.inj_dat);
}

static uint32_t chan_stop(const mp1_chip_state_t *c, uint32_t j) {
  const mp1_plane_state_t *pl = &c->pl[j >> 1];
  return (j & 1u) ? pl->rmy.r.stop : pl->rmx.r.stop;
}

void mp1_mesh_eval(const mp1_mesh_state_t *st, const mp1_mesh_in_t *in, mp1_mesh_out_t *out,
                   mp1_mesh_next_t *nx) {
  const mp1_mesh_cfg_t *cfg = &st->cfg;
  const uint32_t n = cfg->kx * cfg->ky;
  for (uint32_t i = 0; i < n; i++) {
    mp1_chip_in_t *ci = &nx->in[i];
    memset(ci, 0, sizeof *ci);
    ci->px = i % cfg->kx;
    ci->py = i / cfg->kx;
    ci->xmax = cfg->kx - 1;
    ci->ymax = cfg->ky - 1;
    ci->chip = 0;
    ci->pbloop = in[i].pbloop & 1u;
    ci->inj_dat = in[i].inj_dat & 7u;
    ci->pbi_dat = in[i].pbi_dat & 7u;
    ci->rcv_stop = in[i].rcv_stop & 1u;
    ci->pbo_stop = in[i].pbo_stop & 1u;
    uint32_t din[8], sout[8];
    for (uint32_t j = 0; j < MP1_MESH_CHANS; j++) {
      const int up = step(cfg, i, j, -1), dn = step(cfg, i, j, 1);
      din[j] = up < 0 ? 0 : chan_dat(&st->chip[up], j);
      sout[j] = dn < 0 ? 0 : chan_stop(&st->chip[dn], j);
    }
    ci->p0_xin_dat = din[0], ci->p0_yin_dat = din[1], ci->p1_xin_dat = din[2], ci->p1_yin_dat = din[3];
    ci->p2_xin_dat = din[4], ci->p2_yin_dat = din[5], ci->p3_xin_dat = din[6], ci->p3_yin_dat = din[7];
    ci->p0_xout_stop = sout[0], ci->p0_yout_stop = sout[1];
    ci->p1_xout_stop = sout[2], ci->p1_yout_stop = sout[3];
    ci->p2_xout_stop = sout[4], ci->p2_yout_stop = sout[5];
    ci->p3_xout_stop = sout[6], ci->p3_yout_stop = sout[7];
    mp1_chip_out_t co;
    mp1_chip_eval(&st->chip[i], ci, &co, &nx->chip[i]);
    mp1_mesh_out_t *o = &out[i];
    o->inj_stop = co.inj_stop;
    o->pbi_stop = co.pbi_stop;
    o->rcv_dat = co.rcv_dat;
    o->pbo_dat = co.pbo_dat;
    const uint32_t od[8] = {co.p0_xout_dat, co.p0_yout_dat, co.p1_xout_dat, co.p1_yout_dat,
                            co.p2_xout_dat, co.p2_yout_dat, co.p3_xout_dat, co.p3_yout_dat};
    const uint32_t os[8] = {co.p0_xin_stop, co.p0_yin_stop, co.p1_xin_stop, co.p1_yin_stop,
                            co.p2_xin_stop, co.p2_yin_stop, co.p3_xin_stop, co.p3_yin_stop};
    memcpy(o->chan_dat, od, sizeof od);
    memcpy(o->chan_stop, os, sizeof os);
  }
}

void mp1_mesh_clock(mp1_mesh_state_t *st, const mp1_mesh_next_t *nx) {
  const uint32_t n = st->cfg.kx * st->cfg.ky;
  for (uint32_t i = 0; i < n; i++) mp1_chip_clock(&st->chip[i], &nx->chip[i]);
}
