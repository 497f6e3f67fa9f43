// The C104 bench's stimulus: the configuration through the cfg port, the links brought up, the
// peers' queues and readiness, and the random packet sources (headers mostly inside a live entry).
#ifndef MADPOST_TB_C104_STIMULUS_H
#define MADPOST_TB_C104_STIMULUS_H

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "c104/tb.h"

namespace {

using namespace c104tb;

// Loads s through the configuration port, one write a cycle (§7). The first load does so with
// every link_en_i low, then enables the bit-level ports that have a peer or a loop and waits
// until those links (and their peers) run. t0_ is the first cycle after.
void Tb::load(const c104_setup_t &s) {
  su_ = s;
  c104_write_t w[C104_SETUP_NWRITES];
  const size_t n = c104_setup_writes(&s, w);
  for (size_t k = 0; k < n; k++) write(w[k].addr, w[k].data, cyc_ + k);
  while (!cfgq_.empty()) cycle();
  reloading_ = false;
  if (!links_started_) {
    links_started_ = true;
    for (uint32_t p = 0; p < kN; p++)
      if (!tokp(p) && (bp_[p].peer || bp_[p].loop)) link_en_[p] = 1;
    wait_links(3000);
  }
  t0_ = cyc_;
}

bool Tb::links_up() const {
  for (uint32_t p = 0; p < kN; p++) {
    if (tokp(p) || !link_en_[p]) continue;
    if (st_.link[p].r.fsm_state != DSLINK_ST_RUN) return false;
    if (bp_[p].peer && bp_[p].link_en && bp_[p].st.r.fsm_state != DSLINK_ST_RUN) return false;
  }
  return true;
}

void Tb::wait_links(uint64_t limit) {
  for (uint64_t k = 0; !links_up(); k++) {
    if (k == limit) fatal("bit-level links not in Run after " + std::to_string(limit) + " cycles");
    cycle();
  }
}

// Every bit-level port gets a dslink peer (directed cases and random setups may then turn one
// into a loop).
void Tb::peers_on_bit_ports() {
  for (uint32_t p = 0; p < kN; p++)
    if (!tokp(p)) bp_[p].peer = true, bp_[p].loop = false;
}

void Tb::set_loop(uint32_t p) {
  if (tokp(p)) {
    tp_[p].loop = true;
  } else {
    bp_[p].loop = true;
    bp_[p].peer = false;
  }
}

void Tb::send(uint32_t p, uint64_t at, const std::vector<Tok> &toks) {
  for (Tok t : toks) {
    if (tokp(p))
      tp_[p].rxq.push_back({t, at});
    else if (bp_[p].peer)
      bp_[p].txq.push_back({t, at});
    else
      fatal("send on port " + std::to_string(p) + ", which has no peer");
  }
}

// tok_tx_ready of token port p, rx_ready of bit-level peer p: a directed case's override, or a draw.
uint32_t Tb::ready(uint32_t p) {
  if (ready_fn_) {
    const int r = ready_fn_(p);
    if (r >= 0) return (uint32_t)r;
  }
  return rdy_[p].draw(&rng_, cyc_);
}

uint32_t Tb::next_gap(uint32_t p) {
  if (tp_[p].loop || !gen_[p].on) return 0;
  Gen &g = gen_[p];
  if (g.pause_pm && madpost_rng_chance(&g.rng, g.pause_pm, 1000))
    return 1 + madpost_rng_below(&g.rng, 100);
  return madpost_rng_chance(&g.rng, g.gap_pct, 100) ? 1 + madpost_rng_below(&g.rng, g.gap_max) : 0;
}

uint32_t Tb::setup_lookup(uint32_t x, uint32_t *port) const {
  const uint32_t n = su_.nint < 32 ? su_.nint : 32;
  for (uint32_t e = 0; e < n; e++) {
    if (x > (su_.ival[e].hi & 0xFFFFu)) continue;
    if (!su_.ival[e].valid) return 0;
    *port = su_.ival[e].port & 31u;
    return 1;
  }
  return 0;
}

// A routing header of H bytes: mostly inside a live entry, sometimes anywhere, sometimes above
// the table.
uint32_t Tb::gen_header(madpost_rng_t *g, uint32_t H) {
  const uint32_t hmax = H == 1 ? 0xFFu : 0xFFFFu;
  const uint32_t n = su_.nint < 32 ? su_.nint : 32;
  for (int tries = 0; tries < 20; tries++) {
    uint32_t x;
    const uint32_t r = madpost_rng_below(g, 100);
    if (r < 70 && n) {
      const uint32_t e = madpost_rng_below(g, n);
      uint32_t lo = 0;
      for (uint32_t k = 0; k < e; k++) lo = std::max(lo, (su_.ival[k].hi & 0xFFFFu) + 1);
      const uint32_t hi = std::min(su_.ival[e].hi & 0xFFFFu, hmax);
      x = lo <= hi ? lo + madpost_rng_below(g, hi - lo + 1) : madpost_rng_below(g, hmax + 1);
    } else if (r < 85 || !n) {
      x = madpost_rng_below(g, hmax + 1);
    } else {
      uint32_t top = 0;
      for (uint32_t k = 0; k < n; k++) top = std::max(top, su_.ival[k].hi & 0xFFFFu);
      x = top < hmax ? top + 1 + madpost_rng_below(g, hmax - top) : madpost_rng_below(g, hmax + 1);
    }
    uint32_t port;
    if (avoid_loop_ && setup_lookup(x, &port) && (int)port == plan_.loop) continue;
    return x;
  }
  // every draw named the loop: a header above the table, or one that is cut short
  uint32_t top = 0;
  for (uint32_t k = 0; k < n; k++) top = std::max(top, su_.ival[k].hi & 0xFFFFu);
  return top < hmax ? hmax : 0x10000u;
}

std::vector<Tok> Tb::gen_packet(uint32_t p) {
  Gen &G = gen_[p];
  madpost_rng_t *g = &G.rng;
  std::vector<Tok> v;
  const uint32_t ends[3] = {kEop, kEom, kErr};
  if (madpost_rng_chance(g, G.stray_pm, 1000)) {
    v.push_back(TK(ends[madpost_rng_below(g, 3)], 0));
    return v;
  }
  const uint32_t cp = (su_.port[p].hdr2 & 1u) | (su_.port[p].del & 3u) << 1 | (su_.port[p].rnd & 1u) << 3;
  const uint32_t H = (cp & 1u) ? 2 : 1, rnd = cp >> 3, del0 = (cp >> 1) & 3u;
  const uint32_t del = rnd ? 0 : (del0 == 3 ? 0 : del0);
  uint32_t hdr_len = 0;
  if (rnd) {
    // the original header, routed by the loopback input (or never looked at)
    const uint32_t h = plan_.loop >= 0 ? plan_.hl : 1 + madpost_rng_below(g, 2);
    const uint32_t x = gen_header(g, h);
    if (x > 0xFFFFu) return {EOP};  // a stray end token instead
    hdr_bytes(v, x, h);
    hdr_len = 0;
  } else {
    if (del == 2)
      for (uint32_t k = 0; k < H; k++) v.push_back(D(madpost_rng_below(g, 256)));
    const uint32_t x = gen_header(g, H);
    if (x > 0xFFFFu) {  // ends inside its header instead (or a stray end token)
      if (H == 2) v.push_back(D(0));
      v.push_back(EOP);
      return v;
    }
    hdr_bytes(v, x, H);
    hdr_len = (uint32_t)v.size();
  }
  if (hdr_len && madpost_rng_chance(g, G.short_pm, 1000)) {
    v.resize(madpost_rng_below(g, hdr_len));
    v.push_back(TK(ends[madpost_rng_below(g, 3)], 0));
    return v;
  }
  uint32_t len = madpost_rng_below(g, G.maxlen + 1);
  if (madpost_rng_chance(g, G.long_pm, 1000)) len = 100 + madpost_rng_below(g, 201);
  for (uint32_t k = 0; k < len; k++) v.push_back(D(madpost_rng_below(g, 256)));
  v.push_back(
      TK(madpost_rng_chance(g, G.err_pm, 1000) ? kErr : (madpost_rng_chance(g, 1, 2) ? kEop : kEom),
         0));
  G.made++;
  return v;
}

void Tb::generate(uint32_t p) {
  Gen &G = gen_[p];
  const size_t q = tokp(p) ? tp_[p].rxq.size() : bp_[p].txq.size();
  if (q > 2 || !madpost_rng_chance(&G.rng, 1, G.rate)) return;
  const std::vector<Tok> pk = gen_packet(p);
  if (debug_) std::printf("%" PRIu64 " gen %u %s\n", cyc_, p, tstr(pk).c_str());
  for (Tok t : pk) send(p, cyc_ + 1, {t});
}

}  // namespace

#endif
