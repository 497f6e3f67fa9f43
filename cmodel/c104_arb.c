/* C104 arbitration and output side (docs/c104.md §10): groups, the FIFO age matrix, grants A1-A5,
 * ownership and release. */
#include <stdio.h>

#include "c104_int.h"

uint32_t c104_leader(uint32_t grp, uint32_t q) {
  q &= 31u;
  /* (2 << 31) - 1 wraps to all ones: ports 0..q */
  return c104_msb((grp | 1u) & ((2u << q) - 1u));
}

uint32_t c104_group_mask(uint32_t grp, uint32_t g) {
  g &= 31u;
  const uint32_t from_g = ~0u << g;
  const uint32_t above = (grp | 1u) & ~((2u << g) - 1u); /* leaders above g */
  return above ? from_g & ((1u << c104_ctz(above)) - 1u) : from_g;
}

void c104_arb_grant(const c104_regs_t *q, c104_regs_t *d, c104_comb_t *c) {
  const uint32_t grp = q->cfg_grp | 1u;
  /* A1: the candidates of each current leader; a slice whose sl_grp is no leader is in none. */
  uint32_t cg[C104_PORTS];
  uint32_t leaders = 0;
  for (uint32_t m = c->cand; m; m &= m - 1u) {
    const uint32_t i = c104_ctz(m);
    const uint32_t g = q->sl_grp[i];
    if (!((grp >> g) & 1u))
      continue;
    if (!((leaders >> g) & 1u)) {
      leaders |= 1u << g;
      cg[g] = 0;
    }
    cg[g] |= 1u << i;
  }
  for (; leaders; leaders &= leaders - 1u) {
    const uint32_t g = c104_ctz(leaders);
    /* A2: free ports of the group; A3: one grant, the first free port */
    const uint32_t free = c104_group_mask(grp, g) & ~q->out_busy;
    if (!free)
      continue;
    const uint32_t f = c104_ctz(free);
    const uint32_t C = cg[g];
    uint32_t w;
    if (q->cfg_rr) {
      const uint32_t from = C & (~0u << (q->rr[g] & 31u));
      w = c104_ctz(from ? from : C);
    } else {
      uint32_t heads = 0;
      for (uint32_t m = C; m; m &= m - 1u) {
        const uint32_t i = c104_ctz(m);
        if (!(q->age[i] & C))
          heads |= 1u << i;
      }
      if (!heads || (heads & (heads - 1u))) {
        fprintf(stderr,
                "c104: internal error: FIFO order of group %u has %s head (candidates 0x%08x)\n",
                g, heads ? "more than one" : "no", C);
        c->err = 1;
        if (!heads)
          heads = C;
      }
      w = c104_ctz(heads);
    }
    d->rr[g] = (uint8_t)((w + 1u) & 31u); /* A4 */
    c->granted |= 1u << w;
    c->gnt |= 1u << f;
    c->winner[f] = (uint8_t)w;
    c->port_of[w] = (uint8_t)f;
  }
}

void c104_arb_update(const c104_regs_t *q, c104_regs_t *d, const c104_comb_t *c) {
  /* §10.2: rows of slices not in W nor entering are 0 already (the invariant this rule keeps
     from reset), so only those rows are written. */
  const uint32_t stay = c->cand & ~c->granted;
  for (uint32_t m = c->waiting | c->enter; m; m &= m - 1u) {
    const uint32_t i = c104_ctz(m);
    const uint32_t bit = 1u << i;
    if (c->enter & bit)
      d->age[i] = stay | (c->enter & (bit - 1u));
    else if (stay & bit)
      d->age[i] = q->age[i] & stay;
    else
      d->age[i] = 0;
  }
  /* §10.4 */
  d->out_busy = (q->out_busy | c->gnt) & ~c->rel;
  for (uint32_t m = c->gnt; m; m &= m - 1u) {
    const uint32_t f = c104_ctz(m);
    d->out_owner[f] = c->winner[f];
  }
}
