/* C104 parameters and configuration (docs/c104.md §4, §7): defaults and checks, the register
 * map of the configuration port, the setup struct and its writes, the interval lookup (§9.1). */
#include <stdio.h>
#include <string.h>

#include "c104_int.h"

void c104_cfg_default(c104_cfg_t *cfg) {
  memset(cfg, 0, sizeof *cfg);
#define X(rtl, field, def) cfg->field = (def);
  C104_PARAMS(X)
#undef X
}

int c104_cfg_check(const c104_cfg_t *cfg, char *err, size_t errlen) {
  char msg[200];
  if (dslink_cfg_check(&cfg->link, msg, sizeof msg)) {
    snprintf(err, errlen, "c104: %s", msg);
    return -1;
  }
  return 0;
}

void c104_cfg_write(c104_regs_t *r, uint32_t addr, uint32_t data) {
  addr &= 0xFFu;
  const uint32_t p = addr & 31u;
  if (addr < C104_A_RANGE) {
    r->cfg_port[p] = (uint8_t)(data & 15u);
  } else if (addr < C104_A_SEED) {
    r->cfg_rlo[p] = (uint16_t)(data & 0xFFFFu);
    r->cfg_rhi[p] = (uint16_t)(data >> 16);
  } else if (addr < C104_A_INT) {
    const uint32_t seed = data & 0xFFFFu;
    r->lfsr[p] = (uint16_t)(seed ? seed : C104_LFSR_SEED);
  } else if (addr < C104_A_CTRL) {
    r->cfg_ihi[p] = (uint16_t)(data & 0xFFFFu);
    r->cfg_iport[p] = (uint8_t)((data >> 16) & 31u);
    r->cfg_ival[p] = (uint8_t)((data >> 24) & 1u);
  } else if (addr == C104_A_CTRL) {
    r->cfg_nint = (uint8_t)(data & 63u);
    r->cfg_rr = (uint8_t)((data >> 8) & 1u);
  } else if (addr == C104_A_GRP) {
    r->cfg_grp = data;
  }
}

void c104_setup_default(c104_setup_t *s) {
  memset(s, 0, sizeof *s);
  for (uint32_t p = 0; p < C104_PORTS; p++)
    s->port[p].seed = C104_LFSR_SEED;
  s->grp = 0xFFFFFFFFu;
}

size_t c104_setup_writes(const c104_setup_t *s, c104_write_t *w) {
  size_t n = 0;
  for (uint32_t p = 0; p < C104_PORTS; p++)
    w[n++] = (c104_write_t){C104_A_PORT + p, (s->port[p].hdr2 & 1u) |
                                                 (s->port[p].del & 3u) << C104_PORT_DEL_SHIFT |
                                                 (s->port[p].rnd & 1u) << 3};
  for (uint32_t p = 0; p < C104_PORTS; p++)
    w[n++] = (c104_write_t){C104_A_RANGE + p,
                            (s->port[p].rlo & 0xFFFFu) | (s->port[p].rhi & 0xFFFFu) << 16};
  for (uint32_t p = 0; p < C104_PORTS; p++)
    w[n++] = (c104_write_t){C104_A_SEED + p, s->port[p].seed & 0xFFFFu};
  for (uint32_t e = 0; e < C104_NINT; e++)
    w[n++] = (c104_write_t){C104_A_INT + e, (s->ival[e].hi & 0xFFFFu) |
                                                (s->ival[e].port & 31u) << 16 |
                                                (s->ival[e].valid & 1u) << 24};
  w[n++] = (c104_write_t){C104_A_CTRL, (s->nint & 63u) | (s->rr & 1u) << 8};
  w[n++] = (c104_write_t){C104_A_GRP, s->grp};
  return n;
}

void c104_setup_load(const c104_setup_t *s, c104_state_t *st) {
  c104_write_t w[C104_SETUP_NWRITES];
  const size_t n = c104_setup_writes(s, w);
  for (size_t k = 0; k < n; k++)
    c104_cfg_write(&st->r, w[k].addr, w[k].data);
}

int c104_lookup(const c104_regs_t *r, uint32_t x, uint32_t *port, uint32_t *leader) {
  const uint32_t n = r->cfg_nint > C104_NINT ? C104_NINT : r->cfg_nint;
  for (uint32_t e = 0; e < n; e++) {
    if (x <= r->cfg_ihi[e]) {
      if (!r->cfg_ival[e])
        return 0;
      *port = r->cfg_iport[e];
      *leader = c104_leader(r->cfg_grp, *port);
      return 1;
    }
  }
  return 0;
}
