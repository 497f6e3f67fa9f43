// The C104 bench's setups: interval entries, the directed cases' plain table, random setups
// (tables, groups, header modes, universal routing with a loopback port) and the random runs'
// start (a random setup loaded, every port's source and readiness drawn).
#ifndef MADPOST_TB_C104_SETUPS_H
#define MADPOST_TB_C104_SETUPS_H

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <vector>

#include "c104/tb.h"

namespace {

using namespace c104tb;

void setup_ival(c104_setup_t *s, uint32_t e, uint32_t hi, uint32_t port, uint32_t valid) {
  s->ival[e].hi = hi;
  s->ival[e].port = port;
  s->ival[e].valid = valid;
  if (s->nint < e + 1) s->nint = e + 1;
}
// e0: [0, 0x0F] -> 9; e1: [0x10, 0x1F] -> 7; e2: [0x20, 0x2F] discard.
c104_setup_t plain_setup() {
  c104_setup_t s;
  c104_setup_default(&s);
  setup_ival(&s, 0, 0x0F, 9, 1);
  setup_ival(&s, 1, 0x1F, 7, 1);
  setup_ival(&s, 2, 0x2F, 0, 0);
  return s;
}

// ---- Random setups (§15 "Random"): interval tables (ascending, sometimes not), discard entries,
// live counts above 32, hunt groups, header sizes, deletion modes, universal routing with ranges
// (and a loopback port), FIFO or round-robin. Each part draws from g in turn.

// The interval table: n live entries (returned) with random limits, most valid, sometimes out of
// order; the entries past them random too (they must never match).
uint32_t random_table(madpost_rng_t *g, c104_setup_t *s, Plan *pl) {
  pl->hmax = madpost_rng_chance(g, 1, 2) ? 0xFFu : 0xFFFFu;
  const uint32_t live = 1 + madpost_rng_below(g, 32);
  s->nint = live == 32 && madpost_rng_chance(g, 1, 2) ? 33 + madpost_rng_below(g, 31) : live;
  if (madpost_rng_chance(g, 1, 10)) s->nint = 32 + madpost_rng_below(g, 32);  // 32..63: all 32 live
  const uint32_t n = s->nint < 32 ? s->nint : 32;
  const uint32_t top =
      madpost_rng_chance(g, 4, 5) ? pl->hmax - madpost_rng_below(g, pl->hmax / 8 + 1) : pl->hmax;
  std::vector<uint32_t> lim;
  while (lim.size() < n) {
    const uint32_t v = madpost_rng_below(g, top + 1);
    if (std::find(lim.begin(), lim.end(), v) == lim.end()) lim.push_back(v);
  }
  std::sort(lim.begin(), lim.end());
  for (uint32_t e = 0; e < kN; e++) {
    if (e < n) {
      s->ival[e].hi = lim[e];
      s->ival[e].port = madpost_rng_below(g, 32);
      s->ival[e].valid = madpost_rng_chance(g, 85, 100);
    } else {  // not live: must never match
      s->ival[e].hi = madpost_rng_below(g, 0x10000);
      s->ival[e].port = madpost_rng_below(g, 32);
      s->ival[e].valid = madpost_rng_below(g, 2);
    }
  }
  s->ival[madpost_rng_below(g, n)].valid = 1;  // something routes
  if (n >= 2 && madpost_rng_chance(g, 1, 6)) {  // an unordered table: the lower entry wins (§9.1)
    const uint32_t a = madpost_rng_below(g, n), b = madpost_rng_below(g, n);
    std::swap(s->ival[a].hi, s->ival[b].hi);
  }
  return n;
}

// The hunt groups, the arbitration mode, and every port's header mode, deletion, range and seed.
void random_ports(madpost_rng_t *g, c104_setup_t *s, Plan *pl) {
  switch (madpost_rng_below(g, 4)) {
    case 0: s->grp = 0xFFFFFFFFu; break;
    case 1: s->grp = 0x11111111u | (madpost_rng_chance(g, 1, 2) ? 0 : 0x00010000u); break;
    case 2: s->grp = (uint32_t)madpost_rng_next(g); break;
    default: s->grp = (uint32_t)madpost_rng_next(g) & (uint32_t)madpost_rng_next(g); break;
  }
  s->rr = madpost_rng_below(g, 2);
  for (uint32_t p = 0; p < kN; p++) {
    s->port[p].hdr2 = madpost_rng_chance(g, pl->hmax == 0xFF ? 2 : 6, 10);
    const uint32_t d = madpost_rng_below(g, 100);
    s->port[p].del = d < 55 ? 0 : d < 70 ? 1 : d < 90 ? 2 : 3;
    s->port[p].rnd = 0;
    s->port[p].rlo = madpost_rng_below(g, 0x10000);  // ignored while rnd is 0
    s->port[p].rhi = madpost_rng_below(g, 0x10000);
    s->port[p].seed = madpost_rng_chance(g, 1, 10) ? 0 : madpost_rng_below(g, 0x10000);
  }
}

// The interval of entry e under first-match: (max of the earlier limits, hi_e].
bool entry_interval(const c104_setup_t *s, uint32_t e, uint32_t *lo, uint32_t *hi) {
  *lo = 0;
  for (uint32_t k = 0; k < e; k++) *lo = std::max(*lo, s->ival[k].hi + 1);
  *hi = s->ival[e].hi;
  return *lo <= *hi;
}

// Half the time, universal routing through a loopback port (§11.3): a narrow interval of one of
// the n live entries sent to a port looped back to itself, recorded in the plan.
void random_loop(madpost_rng_t *g, c104_setup_t *s, Plan *pl, uint32_t n, bool allow_bit_loop) {
  if (!madpost_rng_chance(g, 1, 2)) return;
  std::vector<uint32_t> cand;
  for (uint32_t p = 0; p < kN; p++)
    if (tokp(p) || allow_bit_loop) cand.push_back(p);
  const uint32_t hl = madpost_rng_chance(g, pl->hmax == 0xFF ? 1 : 2, 3) ? 2 : 1;
  std::vector<uint32_t> ents;
  for (uint32_t e = 0; e < n; e++) {
    uint32_t lo, hi;
    if (s->ival[e].valid && entry_interval(s, e, &lo, &hi) && (hl == 2 || lo <= 0xFF)) ents.push_back(e);
  }
  if (cand.empty() || ents.empty()) return;
  const uint32_t L = cand[madpost_rng_below(g, (uint32_t)cand.size())];
  // a narrow interval (1-8 headers): the testbench's other headers keep out of it
  const uint32_t e = ents[madpost_rng_below(g, (uint32_t)ents.size())];
  uint32_t lo, hi;
  entry_interval(s, e, &lo, &hi);
  s->ival[e].hi = lo + madpost_rng_below(g, std::min(hi - lo, 7u) + 1);
  pl->loop = (int)L;
  pl->hl = hl;
  s->port[L].del = 2;
  s->port[L].hdr2 = hl == 2;
  s->grp |= 1u << L;
  if (L < 31) s->grp |= 1u << (L + 1);
  s->ival[e].port = L;
  entry_interval(s, e, &pl->r0, &pl->r1);
  if (hl == 1) pl->r1 = std::min(pl->r1, 0xFFu);
  // Only random headers reach the loop (the testbench's other headers avoid entry e), so a
  // packet comes back at most once: a bit-level loop has bounded buffers (a packet routed
  // from the loop into itself would deadlock there), a token loop would pass a long packet
  // round and round, one byte shorter each time.
  for (uint32_t k = 0; k < kN; k++)
    if (k != e && s->ival[k].port == L) s->ival[k].port = (L + 1) % 32;
}

// Up to four inputs with random headers: mostly into the loop's interval when there is one.
void random_inputs(madpost_rng_t *g, c104_setup_t *s, Plan *pl) {
  const uint32_t nrnd = madpost_rng_below(g, 5);
  for (uint32_t k = 0; k < nrnd; k++) {
    const uint32_t p = madpost_rng_below(g, 32);
    if ((int)p == pl->loop) continue;
    s->port[p].rnd = 1;
    const uint32_t c = madpost_rng_below(g, 10);
    if (pl->loop >= 0 && c < 6) {
      s->port[p].hdr2 = pl->hl == 2;
      const uint32_t a = pl->r0 + madpost_rng_below(g, pl->r1 - pl->r0 + 1);
      const uint32_t b = pl->r0 + madpost_rng_below(g, pl->r1 - pl->r0 + 1);
      s->port[p].rlo = std::min(a, b), s->port[p].rhi = std::max(a, b);
      continue;
    }
    if (c == 9) {
      s->port[p].rlo = 1 + madpost_rng_below(g, pl->hmax);  // rhi < rlo: always rlo
      s->port[p].rhi = madpost_rng_below(g, s->port[p].rlo);
    } else if (c == 8) {
      s->port[p].rlo = 0, s->port[p].rhi = pl->hmax;
    } else {
      const uint32_t a = madpost_rng_below(g, pl->hmax + 1), b = madpost_rng_below(g, pl->hmax + 1);
      s->port[p].rlo = std::min(a, b), s->port[p].rhi = std::max(a, b);
    }
  }
  // the random headers that reach the loop have the length it strips
  if (pl->loop >= 0)
    for (uint32_t p = 0; p < kN; p++)
      if (s->port[p].rnd) s->port[p].hdr2 = pl->hl == 2;
}

// A random setup (§15 "Random"), the plan filled.
void random_setup(madpost_rng_t *g, c104_setup_t *s, Plan *pl, bool allow_bit_loop) {
  c104_setup_default(s);
  *pl = Plan{};
  const uint32_t n = random_table(g, s, pl);
  random_ports(g, s, pl);
  random_loop(g, s, pl, n, allow_bit_loop);
  random_inputs(g, s, pl);
}

// A random setup loaded (no loopback port when `no_loop`: a corrupted, reconfigured, wild or
// reset header could send a long packet round it), then every port's source and readiness drawn.
void random_start(Tb &tb, c104_setup_t *s, bool no_loop, bool faults) {
  madpost_rng_t *g = &tb.rng_;
  tb.peers_on_bit_ports();
  random_setup(g, s, &tb.plan_, true);
  if (no_loop && tb.plan_.loop >= 0) {
    for (uint32_t e = 0; e < kN; e++)
      if ((int)s->ival[e].port == tb.plan_.loop) s->ival[e].port = (s->ival[e].port + 1) % 32;
    tb.plan_.loop = -1;
  }
  if (tb.plan_.loop >= 0) tb.set_loop((uint32_t)tb.plan_.loop);
  tb.avoid_loop_ = tb.plan_.loop >= 0;
  tb.load(*s);
  tb.start_walk();
  if (tb.debug_) {
    for (uint32_t e = 0; e < kN; e++)
      std::printf("entry %u: hi %04x port %u valid %u\n", e, s->ival[e].hi, s->ival[e].port, s->ival[e].valid);
    for (uint32_t p = 0; p < kN; p++)
      std::printf("port %u: hdr2 %u del %u rnd %u range %04x-%04x\n", p, s->port[p].hdr2, s->port[p].del,
                  s->port[p].rnd, s->port[p].rlo, s->port[p].rhi);
    std::printf("plan: loop %d hl %u r0 %04x r1 %04x\n", tb.plan_.loop, tb.plan_.hl, tb.plan_.r0, tb.plan_.r1);
  }
  tb.junk_ = true;
  for (uint32_t p = 0; p < kN; p++) {
    Gen &G = tb.gen_[p];
    const bool loop = (int)p == tb.plan_.loop;
    G.on = !loop;
    G.rate = 1 + madpost_rng_below(g, madpost_rng_chance(g, 1, 4) ? 200 : 30);
    G.maxlen = madpost_rng_chance(g, 1, 5) ? madpost_rng_below(g, 6) : 40;
    G.err_pm = tokp(p) ? madpost_rng_below(g, 60) : (faults ? 10 : madpost_rng_below(g, 6));
    G.short_pm = madpost_rng_below(g, 40);
    G.stray_pm = madpost_rng_below(g, 30);
    G.long_pm = madpost_rng_below(g, 20);
    G.gap_pct = madpost_rng_below(g, 60);
    G.pause_pm = madpost_rng_below(g, 10);
    Ready &r = tb.rdy_[p];
    const uint32_t pcts[4] = {100, 90, 60, 25};
    r.pct = pcts[madpost_rng_below(g, 4)];
    r.stall_pm = madpost_rng_below(g, 60);
    if (!tokp(p)) tb.bp_[p].valid_pct = 40 + madpost_rng_below(g, 61);
  }
}

// A port whose slice is in the middle of a packet, one in a short-lived state if any (HDR: a header
// half read; EMIT: a header being sent on), either with even odds; -1 if every slice is idle.
int busy_port(Tb &tb, madpost_rng_t *g) {
  std::vector<uint32_t> hdr, emit, other;
  for (uint32_t p = 0; p < kN; p++) {
    const uint32_t st = tb.R().sl_st[p];
    if (st == C104_HDR) hdr.push_back(p);
    else if (st == C104_EMIT) emit.push_back(p);
    else if (st != C104_IDLE) other.push_back(p);
  }
  const bool pick_emit = !emit.empty() && (hdr.empty() || madpost_rng_chance(g, 1, 2));
  const std::vector<uint32_t> &v = pick_emit ? emit : !hdr.empty() ? hdr : other;
  return v.empty() ? -1 : (int)v[madpost_rng_below(g, (uint32_t)v.size())];
}

}  // namespace

#endif
