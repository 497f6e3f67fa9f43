// The C104 bench's scoreboard: what moved in a cycle (pops, link drops, tokens out), the
// reference of §9-§12 fed with the pops, every packet leaving an output matched against the one
// granted to it next (exactly on token ports; cut or lost only as a link drop explains), the
// directed cases' checks on the outputs' logs, and the counters' check at the end.
#ifndef MADPOST_TB_C104_SCOREBOARD_H
#define MADPOST_TB_C104_SCOREBOARD_H

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "c104/tb.h"

namespace {

using namespace c104tb;

std::vector<Tok> Tb::log_toks(uint32_t o, size_t from) const {
  std::vector<Tok> v;
  for (size_t k = from; k < log_[o].size(); k++) v.push_back(log_[o][k].first);
  return v;
}

// Output o's log from entry `from` on: exactly these tokens, and (if given) in these cycles
// counted from t0_.
void Tb::expect_log(uint32_t o, const std::vector<Tok> &t, const std::vector<uint64_t> &cyc,
                size_t from) {
  const std::vector<Tok> got = log_toks(o, from);
  if (got != t)
    fatal("check failed: output " + std::to_string(o) + " sent " + tstr(got) + ", expected " +
          tstr(t));
  for (size_t k = 0; k < cyc.size(); k++)
    if (log_[o][from + k].second != T(cyc[k]))
      fatal("check failed: output " + std::to_string(o) + " token " + std::to_string(k) +
            " left in cycle t0+" + std::to_string(log_[o][from + k].second - t0_) +
            ", expected t0+" + std::to_string(cyc[k]));
}

void Tb::expect_pops(uint32_t p, const std::vector<uint64_t> &cyc) {
  std::string got;
  for (uint64_t c : pops_[p]) got += " " + std::to_string(c - t0_);
  std::string want;
  for (uint64_t c : cyc) want += " " + std::to_string(c);
  if (got != want) fatal("check failed: input " + std::to_string(p) + " popped at t0+{" + got +
                         " }, expected {" + want + " }");
}

void Tb::expect_silent_except(uint32_t mask) {
  for (uint32_t o = 0; o < kN; o++)
    if (!((mask >> o) & 1u) && !log_[o].empty())
      fatal("check failed: output " + std::to_string(o) + " sent " + tstr(log_toks(o)) +
            ", expected nothing");
}

void Tb::need_ports(uint32_t tok_mask, uint32_t bit_mask) {
  if ((kTok & tok_mask) != tok_mask || (kTok & bit_mask) != 0) {
    std::printf("c104: test %s needs token ports 0x%08x and bit-level ports 0x%08x; this build "
                "has TokPorts 0x%08x\n", o_.test.c_str(), tok_mask, bit_mask, kTok);
    std::exit(2);
  }
}

// ---- Bookkeeping after the edge ------------------------------------------------------------
void Tb::observe(bool wr, const uint16_t *cnt_pkt, const uint8_t *was_run) {
  observe_links(was_run);
  // the reference: draws (S2), grants, pops
  for (uint32_t i = 0; i < kN; i++)
    if (ref_[i].st == RefIn::kIdle && rc_.rnd[i] && head_[i] != kNone && !tend(head_[i])) ref_draw(i);
  for (uint32_t i = 0; i < kN; i++)
    if (st_.r.cnt_pkt[i] != cnt_pkt[i]) ref_grant(i, st_.r.sl_port[i]);
  observe_pops();
  // token outputs
  for (uint32_t p = 0; p < kN; p++) {
    if (!tokp(p) || !(mo_.tok_tx_valid[p] && in_.tok_tx_ready[p])) continue;
    const Tok t = TK(mo_.tok_tx_kind[p], mo_.tok_tx_data[p]);
    out_token(p, t);
    if (tp_[p].loop) tp_[p].rxq.push_back({t, cyc_ + 1 + tp_[p].loop_delay});
  }
  if (wr) ref_cfg_write(in_.cfg_addr, in_.cfg_wdata);
  // sources
  for (uint32_t p = 0; p < kN; p++)
    if (gen_[p].on) generate(p);
}

// The bit-level ports: link drops, and what the peers' user sides took and delivered.
void Tb::observe_links(const uint8_t *was_run) {
  for (uint32_t p = 0; p < kN; p++) {
    if (tokp(p)) continue;
    BitPort &b = bp_[p];
    if (was_run[p] && st_.link[p].r.fsm_state != DSLINK_ST_RUN) {
      drops_[p]++;
      if (debug_)
        std::printf("%" PRIu64 " drop %u (txf %u spill %u peer %s; errors sw %u %u %u %u %u %u peer %u %u %u %u %u %u)\n",
                    cyc_, p, st_.link[p].r.txf_cnt, st_.link[p].r.cnt_tx_spill,
                    dslink_state_name(bp_[p].st.r.fsm_state), L(p).cnt_par_err, L(p).cnt_esc_err,
                    L(p).cnt_disc_err, L(p).cnt_cred_err, L(p).cnt_proto_err, L(p).cnt_tmo_err,
                    bp_[p].st.r.cnt_par_err, bp_[p].st.r.cnt_esc_err, bp_[p].st.r.cnt_disc_err,
                    bp_[p].st.r.cnt_cred_err, bp_[p].st.r.cnt_proto_err, bp_[p].st.r.cnt_tmo_err);
    }
    if (debug_ && !was_run[p] && st_.link[p].r.fsm_state == DSLINK_ST_RUN)
      std::printf("%" PRIu64 " up %u\n", cyc_, p);
    if (!b.peer) continue;
    if (b.li.tx_valid && b.out.tx_ready) b.txq.pop_front(), moved_++;
    if (b.out.rx_valid && b.li.rx_ready) out_token(p, TK(b.out.rx_kind, b.out.rx_data));
  }
}

// What the switch popped at every input: the token ports' sources move on, the reference reads it.
void Tb::observe_pops() {
  for (uint32_t p = 0; p < kN; p++) {
    bool pop;
    if (tokp(p)) {
      pop = in_.tok_rx_valid[p] && mo_.tok_rx_ready[p];
    } else {
      pop = st_.link[p].r.rxf_rptr != rptr_[p];
      if (pop && head_[p] == kNone) fatal("port " + std::to_string(p) + ": a pop from an empty receive FIFO");
    }
    if (!pop) {
      if (tokp(p) && tp_[p].gap) tp_[p].gap--;
      continue;
    }
    const Tok t = head_[p];
    pops_[p].push_back(cyc_);
    moved_++;
    if (tokp(p)) {
      if (!wild_tok_[p]) tp_[p].rxq.pop_front();  // a wild token is taken instead of the head
      tp_[p].gap = next_gap(p);
    } else if (bp_[p].loop) {
      out_token(p, t);  // what the looped output sent, as it comes back
    }
    ref_pop(p, t);
  }
}

// ---- The reference (§9-§12) ----------------------------------------------------------------

void Tb::ref_cfg_write(uint32_t addr, uint32_t data) {
  addr &= 0xFFu;
  const uint32_t p = addr & 31u;
  switch (addr >> 5) {
    case 0:
      rc_.hdr2[p] = data & 1u, rc_.del[p] = (data >> 1) & 3u, rc_.rnd[p] = (data >> 3) & 1u;
      break;
    case 1: rc_.rlo[p] = data & 0xFFFFu, rc_.rhi[p] = data >> 16; break;
    case 2: ref_[p].lfsr = (data & 0xFFFFu) ? (data & 0xFFFFu) : (uint32_t)C104_LFSR_SEED; break;
    case 3:
      rc_.ihi[p] = data & 0xFFFFu, rc_.iport[p] = (data >> 16) & 31u, rc_.ival[p] = (data >> 24) & 1u;
      break;
    default:
      if (addr == C104_A_CTRL) rc_.nint = data & 63u, rc_.rr = (data >> 8) & 1u;
      if (addr == C104_A_GRP) rc_.grp = data;
      break;
  }
}

void Tb::hdr_bytes(std::vector<Tok> &v, uint32_t x, uint32_t H) {
  if (H == 2) v.push_back(D(x >> 8));
  v.push_back(D(x & 0xFFu));
}

void Tb::ref_route(uint32_t i, uint32_t x, bool emit) {
  RefIn &r = ref_[i];
  uint32_t port, ldr;
  if (!rc_.lookup(x, &port, &ldr)) {
    r.bad++;
    r.st = RefIn::kDisc;
    return;
  }
  RP pk = std::make_shared<RPkt>();
  pk->in = i, pk->leader = ldr, pk->born = cyc_;
  if (emit) hdr_bytes(pk->toks, x, rc_.H(i));
  r.cur = pk, r.fwd = 0, r.st = RefIn::kFwd;
  r.unpaired.push_back(pk);
}

void Tb::ref_draw(uint32_t i) {
  RefIn &r = ref_[i];
  if (debug_) std::printf("%" PRIu64 " draw %u lfsr %04x\n", cyc_, i, r.lfsr);
  const uint32_t v = ref_rand(r.lfsr, rc_.rlo[i], rc_.rhi[i]);
  r.lfsr = ref_lfsr_next(r.lfsr);
  ref_route(i, rc_.H(i) == 1 ? (v & 0xFFu) : v, true);
}

void Tb::ref_grant(uint32_t i, uint32_t port) {
  RefIn &r = ref_[i];
  if (debug_) std::printf("%" PRIu64 " grant %u -> %u\n", cyc_, i, port);
  r.pkt++;
  if (r.unpaired.empty())
    fatal("scoreboard: input " + std::to_string(i) + " granted output " + std::to_string(port) +
          " with no routed packet");
  RP pk = r.unpaired.front();
  r.unpaired.pop_front();
  if (!rc_.in_group(pk->leader, port))
    fatal("scoreboard: input " + std::to_string(i) + " granted output " + std::to_string(port) +
          ", not in the group of leader " + std::to_string(pk->leader));
  pk->port = (int)port;
  Q_[port].push_back(pk);
}

void Tb::ref_pop(uint32_t i, Tok t) {
  RefIn &r = ref_[i];
  if (debug_) std::printf("%" PRIu64 " pop %u %s (ref state %d)\n", cyc_, i, tstr(t).c_str(), (int)r.st);
  const uint32_t H = rc_.H(i), del = rc_.dele(i);
  const std::string at = "scoreboard: input " + std::to_string(i) + " ";
  switch (r.st) {
    case RefIn::kIdle:
      if (tend(t)) {
        r.stray++;
        return;
      }
      if (rc_.rnd[i]) fatal(at + "popped a packet's first token without a draw");
      r.hcnt = 0, r.skip = del == 2;
      break;
    case RefIn::kHdr:
      if (tend(t)) {
        (tkind(t) == kErr ? r.cut : r.shrt)++;
        r.st = RefIn::kIdle;
        return;
      }
      break;
    case RefIn::kFwd: {
      RP pk = r.cur;
      if (pk->port < 0) {
        if (r.fwd == 0 && tkind(t) == kErr) {  // withdrawn in WAIT (S4)
          r.unpaired.pop_back();
          r.cut++;
          r.cur.reset();
          r.st = RefIn::kIdle;
          return;
        }
        fatal(at + "popped " + tstr(t) + " of a packet not yet granted");
      }
      pk->toks.push_back(t);
      r.fwd++;
      if (tend(t)) {
        pk->done = true;
        if (tkind(t) == kErr) r.cut++;
        r.cur.reset();
        r.st = RefIn::kIdle;
      }
      return;
    }
    case RefIn::kDisc:
      if (tend(t)) r.st = RefIn::kIdle;
      return;
  }
  // S3, the header step with a DATA token
  if (r.hcnt + 1 < H) {
    r.hi = tdata(t), r.hcnt = 1, r.st = RefIn::kHdr;
    return;
  }
  const uint32_t x = H == 2 ? (r.hi << 8 | tdata(t)) : tdata(t);
  r.hcnt = 0;
  if (r.skip) {
    r.skip = 0, r.st = RefIn::kHdr;
    return;
  }
  ref_route(i, x, del != 1);
}

// A token left output o (a token port's tok_tx, a peer's receiver, or a loop coming back).
void Tb::out_token(uint32_t o, Tok t) {
  if (debug_) std::printf("%" PRIu64 " out %u %s\n", cyc_, o, tstr(t).c_str());
  log_[o].push_back({t, cyc_});
  moved_++;
  if (asm_[o].empty()) asm_t_[o] = cyc_;
  asm_[o].push_back(t);
  if (!tend(t)) return;
  match(o, asm_[o]);
  asm_[o].clear();
}

bool Tb::cut_of(const std::vector<Tok> &R, const std::vector<Tok> &E) {
  // R = a prefix of E's tokens before its end, closed with ERR (a link dropped under it; or
  // the last token before a forwarded ERR, never confirmed: docs/c104.md §21.7)
  // (E may still be open: the slice carries on into the spilled link, §12)
  if (R.empty() || tkind(R.back()) != kErr || R.size() - 1 > E.size()) return false;
  return std::equal(R.begin(), R.end() - 1, E.begin());
}

void Tb::match(uint32_t o, const std::vector<Tok> &R) {
  auto &q = Q_[o];
  if (!q.empty() && q.front()->done && q.front()->toks == R) {
    q.pop_front();
    delivered_++;
    return;
  }
  if (!tokp(o)) {
    // a bit-level output: a link drop cuts packets or loses them whole; an ERR-ended packet
    // loses the token before its ERR (docs/c104.md §21.7)
    for (size_t d = 0; d < q.size(); d++) {
      const bool exact = q[d]->done && q[d]->toks == R;
      if (!exact && !cut_of(R, q[d]->toks)) continue;
      if (d && !drops_[o]) break;
      lost_ += d;
      q.erase(q.begin(), q.begin() + (long)d + 1);
      delivered_++;
      if (!exact) cut_rx_++;
      return;
    }
    if (asm_t_[o] < tolerate_until_) {  // begun while faults were on
      damaged_++;
      return;
    }
  }
  std::string next;
  for (size_t d = 0; d < q.size() && d < 3; d++)
    next += std::string(d ? "; then" : "") + " from input " + std::to_string(q[d]->in) + " " +
            tstr(q[d]->toks) + (q[d]->done ? "" : " (open)");
  fatal("scoreboard: output " + std::to_string(o) + " sent " + tstr(R) +
        ", not the packet granted to it next (expected" + (next.empty() ? " none" : next) + ")");
}

// After a drain: every expected packet has left (exactly, on token outputs; on a bit-level
// output those a link drop lost are counted), and the counters are the reference's.
void Tb::end_checks() {
  for (uint32_t i = 0; i < kN; i++) {
    const RefIn &r = ref_[i];
    if (r.st != RefIn::kIdle) fatal("scoreboard: input " + std::to_string(i) + " not idle at the end");
    if (!r.unpaired.empty())
      fatal("scoreboard: input " + std::to_string(i) + " has a routed packet never granted: " +
            tstr(r.unpaired.front()->toks));
  }
  for (uint32_t o = 0; o < kN; o++) {
    auto &q = Q_[o];
    if (q.empty()) continue;
    if (tokp(o) || !drops_[o])
      fatal("scoreboard: output " + std::to_string(o) + " never sent " + tstr(q.front()->toks) +
            " from input " + std::to_string(q.front()->in) + " (" + std::to_string(q.size()) +
            " missing)");
    lost_ += q.size();
    q.clear();
  }
  for (uint32_t i = 0; i < kN; i++) {
    const RefIn &r = ref_[i];
    const std::string in = " of input " + std::to_string(i);
    expect_eq(st_.r.cnt_pkt[i], (r.pkt + r.inj[0]) & 0xFFFF, "cnt_pkt" + in);
    expect_eq(st_.r.cnt_bad[i], (r.bad + r.inj[1]) & 0xFFFF, "cnt_bad" + in);
    expect_eq(st_.r.cnt_short[i], (r.shrt + r.inj[2]) & 0xFFFF, "cnt_short" + in);
    expect_eq(st_.r.cnt_cut[i], (r.cut + r.inj[3]) & 0xFFFF, "cnt_cut" + in);
    expect_eq(st_.r.cnt_stray[i], (r.stray + r.inj[4]) & 0xFFFF, "cnt_stray" + in);
  }
}

std::string Tb::totals() const {
  uint64_t pkt = 0, bad = 0, shrt = 0, cut = 0, stray = 0;
  for (const RefIn &r : ref_) pkt += r.pkt, bad += r.bad, shrt += r.shrt, cut += r.cut, stray += r.stray;
  char b[400];
  std::snprintf(b, sizeof b,
                "%" PRIu64 " packets routed, %" PRIu64 " delivered (%" PRIu64 " cut, %" PRIu64
                " lost on dropped links), bad %" PRIu64 " short %" PRIu64 " cut %" PRIu64
                " stray %" PRIu64 ", %" PRIu64 " link drops, %" PRIu64
                " counter moves from injected values",
                pkt, delivered_, cut_rx_, lost_, bad, shrt, cut, stray, total_drops(),
                walk_.carries());
  return b;
}

uint64_t Tb::total_drops() const {
  uint64_t n = 0;
  for (uint32_t p = 0; p < kN; p++) n += drops_[p];
  return n;
}

}  // namespace

#endif
