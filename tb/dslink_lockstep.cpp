// DS-Link lockstep testbench: two link ends (a, b) in RTL (Verilated) and in the C model, fed
// identical inputs every cycle and compared on every output and architectural register.
// This file: the directed cases, the random runs with wire faults, and the bench's entry; the
// harness is tb/dslink/harness.h, the packet scoreboard tb/dslink/flow.h, the scripted peer
// tb/dslink/script_peer.h.
#include <cinttypes>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "common/bench.h"
#include "dslink/harness.h"

namespace {

// How far a 16-bit counter moved (modulo 2^16, as the RTL counts).
uint32_t d16(uint32_t now, uint32_t before) { return (now - before) & 0xffffu; }

// ---- Directed cases --------------------------------------------------------------------------

// a listens to the scripted peer, b listens to a; only a's behaviour is checked by the script.
void script_stim(Tb &tb, uint32_t a_link_en = 1, uint32_t a_rx_ready = 1) {
  tb.peer_.step();
  tb.e_[0].in.d = tb.peer_.d, tb.e_[0].in.s = tb.peer_.s;
  tb.e_[1].in.d = tb.e_[0].mo.d, tb.e_[1].in.s = tb.e_[0].mo.s;
  tb.e_[0].in.link_en = a_link_en;
  tb.e_[1].in.link_en = 0;
  tb.e_[0].in.rx_ready = a_rx_ready;
  tb.e_[1].in.rx_ready = 1;
}
void run_script(Tb &tb, uint64_t n, uint32_t a_link_en = 1, uint32_t a_rx_ready = 1) {
  for (uint64_t k = 0; k < n; k++) tb.cycle([&] { script_stim(tb, a_link_en, a_rx_ready); });
}
void run_script_until(Tb &tb, uint32_t state, uint64_t limit, uint32_t a_link_en = 1) {
  for (uint64_t k = 0; k < limit && tb.st(0) != state; k++) run_script(tb, 1, a_link_en);
  tb.expect(tb.st(0) == state, std::string("end a reaches ") + dslink_state_name(state));
}
// Scripted peer brings end a to Run: NULLs, then one FCT once a is Connecting.
void script_to_run(Tb &tb) {
  tb.peer_.on = true;
  run_script_until(tb, DSLINK_ST_CONNECTING, 600);
  tb.peer_.ctl(DSLINK_CTL_FCT);
  run_script_until(tb, DSLINK_ST_RUN, 100);
}
void drain_script(Tb &tb) {
  for (uint32_t k = 0; k < 400 * tb.cfg_.bit_period && !tb.peer_.bits.empty(); k++) run_script(tb, 1);
  run_script(tb, 4 * tb.cfg_.bit_period);
}

void t_startup(Tb &tb) {
  uint64_t t0 = tb.cyc_;
  tb.expect(tb.st(0) == DSLINK_ST_ERROR_RESET, "starts in ErrorReset");
  tb.wait_run(1000);
  std::printf("dslink: startup: both ends in Run after %" PRIu64 " cycles\n", tb.cyc_ - t0);
  tb.run_link(500, false);
  for (int i = 0; i < 2; i++)
    tb.expect(tb.st(i) == DSLINK_ST_RUN && tb.r(i).cnt_par_err + tb.r(i).cnt_disc_err +
                                                   tb.r(i).cnt_esc_err + tb.r(i).cnt_cred_err +
                                                   tb.r(i).cnt_proto_err + tb.r(i).cnt_tmo_err ==
                                               0,
              "idle link stays up without errors");
  tb.expect(tb.r(0).tx_credit == tb.cfg_.rx_depth, "full credit on an idle link");
}

void t_packets(Tb &tb) {
  tb.wait_run(1000);
  for (int i = 0; i < 2; i++) {
    tb.flow_[i].maxlen = 40;
    tb.flow_[i].longlen = 2000;
  }
  tb.run_link(60000 * tb.cfg_.bit_period, true);
  tb.run_link(3000 * tb.cfg_.bit_period, false);
  for (int i = 0; i < 2; i++) {
    const Flow &f = tb.flow_[i];
    tb.expect(f.n_bad == 0, f.first_error);
    tb.expect(f.n_ok == f.complete() && f.n_lost == 0 && f.n_cut == 0 && f.n_ok > 50,
              f.name + " delivers every packet intact (sent " + std::to_string(f.n_sent) + " complete " + std::to_string(f.complete()) + " ok " + std::to_string(f.n_ok) + " lost " + std::to_string(f.n_lost) + " cut " + std::to_string(f.n_cut) + ")");
  }
}

void t_credit(Tb &tb) {
  tb.wait_run(1000);
  tb.flow_[0].maxlen = 200;
  // b never reads: a must stop after exactly RxDepth normal tokens.
  tb.run_link(3000, true, 0);
  tb.expect(tb.r(1).rxf_cnt == tb.cfg_.rx_depth, "receiver holds RxDepth tokens");
  tb.expect(tb.r(0).tx_credit == 0 && tb.r(1).rx_credit == 0, "credit exhausted on both sides");
  tb.expect(tb.st(0) == DSLINK_ST_RUN && tb.r(0).txf_cnt == tb.cfg_.tx_depth,
            "sender blocked with a full transmit FIFO, link still up");
  tb.run_link(20000, true, 30);
  tb.run_link(3000, false, 100);
  tb.expect(tb.flow_[0].n_bad == 0 && tb.flow_[0].n_ok == tb.flow_[0].complete(),
            "everything delivered after the stall");
}

// The scripted error cases check how far their counters moved (modulo 2^16), so that `counters`
// can run them again from injected values.
void t_parity(Tb &tb) {
  const dslink_regs_t r0 = tb.r(0);
  script_to_run(tb);
  for (int k = 0; k < 5; k++) tb.peer_.data(0x40u + (uint32_t)k);
  tb.peer_.data(0x55, true);
  drain_script(tb);
  tb.expect(d16(tb.r(0).cnt_par_err, r0.cnt_par_err) == 1, "one parity error");
  tb.expect(d16(tb.r(0).cnt_rx_cut, r0.cnt_rx_cut) == 1, "the open packet is closed with ERR");
}

void t_escape(Tb &tb) {
  const uint32_t e0 = tb.r(0).cnt_esc_err;
  script_to_run(tb);
  tb.peer_.data(0x12);
  tb.peer_.ctl(DSLINK_CTL_ESC);
  tb.peer_.ctl(DSLINK_CTL_EOP);
  drain_script(tb);
  tb.expect(d16(tb.r(0).cnt_esc_err, e0) == 1, "ESC EOP is an escape error");
  // The link restarts; then ESC ESC, which must not pass for a NULL either.
  script_to_run(tb);
  tb.peer_.ctl(DSLINK_CTL_ESC);
  tb.peer_.ctl(DSLINK_CTL_ESC);
  drain_script(tb);
  tb.expect(d16(tb.r(0).cnt_esc_err, e0) == 2, "ESC ESC is an escape error");
}

void t_disconnect(Tb &tb) {
  const uint32_t d0 = tb.r(0).cnt_disc_err;
  script_to_run(tb);
  tb.peer_.frozen = true;
  run_script(tb, tb.cfg_.disconnect_cycles + 4);
  tb.expect(d16(tb.r(0).cnt_disc_err, d0) == 1, "one disconnect error");
  tb.expect(tb.st(0) == DSLINK_ST_ERROR_RESET, "link reset");
}

void t_credit_rx(Tb &tb) {
  const uint32_t c0 = tb.r(0).cnt_cred_err;
  script_to_run(tb);
  run_script(tb, 200);  // let a grant all its credit
  tb.expect(tb.r(0).rx_credit == tb.cfg_.rx_depth, "a granted RxDepth credit");
  for (uint32_t k = 0; k <= tb.cfg_.rx_depth; k++) tb.peer_.data(k);
  // a does not read, so its credit runs out after exactly RxDepth tokens.
  for (uint32_t k = 0; k < 600 * tb.cfg_.bit_period && !tb.peer_.bits.empty(); k++)
    run_script(tb, 1, 1, 0);
  run_script(tb, 4 * tb.cfg_.bit_period, 1, 0);
  tb.expect(d16(tb.r(0).cnt_cred_err, c0) == 1, "one credit error for the token beyond credit");
  tb.expect(tb.r(0).rxf_cnt == tb.cfg_.rx_depth + 1, "RxDepth tokens and the ERR marker kept");
}

void t_credit_tx(Tb &tb) {
  const uint32_t c0 = tb.r(0).cnt_cred_err;
  script_to_run(tb);
  for (uint32_t k = 0; k < tb.cfg_.tx_credit_max / 8; k++) tb.peer_.ctl(DSLINK_CTL_FCT);
  drain_script(tb);
  tb.expect(d16(tb.r(0).cnt_cred_err, c0) == 1, "an FCT beyond TxCreditMax is a credit error");
}

void t_proto(Tb &tb) {
  const uint32_t p0 = tb.r(0).cnt_proto_err;
  // FCT while a waits in Ready (link_en = 0) after it has seen NULLs.
  tb.peer_.on = true;
  run_script_until(tb, DSLINK_ST_READY, 600, 0);
  run_script(tb, 50, 0);
  tb.peer_.ctl(DSLINK_CTL_FCT);
  for (int k = 0; k < 40; k++) run_script(tb, 1, 0);
  tb.expect(d16(tb.r(0).cnt_proto_err, p0) == 1, "FCT in Ready is a protocol error");
  // Data while Connecting.
  run_script_until(tb, DSLINK_ST_CONNECTING, 1000);
  tb.peer_.data(0x77);
  drain_script(tb);
  tb.expect(d16(tb.r(0).cnt_proto_err, p0) == 2, "data in Connecting is a protocol error");
}

void t_timeout(Tb &tb) {
  const uint32_t t0 = tb.r(0).cnt_tmo_err;
  // Peer silent: a reaches Started and times out; then, with NULLs but no FCT, Connecting times out.
  run_script_until(tb, DSLINK_ST_STARTED, 600);
  run_script(tb, tb.cfg_.timeout_cycles + 2);
  tb.expect(d16(tb.r(0).cnt_tmo_err, t0) == 1, "Started times out");
  tb.peer_.on = true;
  run_script_until(tb, DSLINK_ST_CONNECTING, 1000);
  run_script(tb, tb.cfg_.timeout_cycles + 2);
  tb.expect(d16(tb.r(0).cnt_tmo_err, t0) == 2, "Connecting times out");
}

void t_cut(Tb &tb) {
  tb.wait_run(1000);
  tb.flow_[0].maxlen = 1;
  tb.flow_[0].longlen = 400;
  // Send one long packet, cut a->b in its middle.
  tb.flow_[0].cur = Packet{};
  tb.flow_[0].new_packet();
  tb.flow_[0].cur.bytes.resize(400);
  for (size_t i = 0; i < 400; i++) tb.flow_[0].cur.bytes[i] = payload(tb.flow_[0].cur.seq, i);
  tb.flow_[0].cur.end = DSLINK_KIND_EOP;
  tb.run_link(1500, true);
  // 100 cycles: healed while both ends are still in ErrorReset, so one clean restart follows.
  tb.fault_[0].start(bench::WireFault::kCut, tb.cyc_, 100, 0, tb.e_[0].mo.d, tb.e_[0].mo.s);
  tb.run_link(400, true);
  tb.wait_run(2000, true);
  tb.run_link(20000, true);
  tb.run_link(3000, false);
  const Flow &f = tb.flow_[0];
  tb.expect(tb.r(1).cnt_rx_cut == 1 && f.n_cut == 1, "receiver closed the cut packet with ERR");
  tb.expect(tb.r(0).cnt_tx_spill == 1, "sender spilled the rest of the cut packet (spills " + std::to_string(tb.r(0).cnt_tx_spill) + ", a->b cut " + std::to_string(f.n_cut) + " lost " + std::to_string(f.n_lost) + ")");
  tb.expect(f.n_bad == 0 && f.n_ok + 1 == f.complete(), "every other packet intact, none merged");
}

void t_abort(Tb &tb) {
  tb.wait_run(1000);
  tb.flow_[0].maxlen = 30;
  tb.flow_[0].abort_pm = 100;
  tb.flow_[1].maxlen = 30;
  uint64_t t_end = tb.cyc_ + 40000;
  while (tb.cyc_ < t_end) tb.run_link(1, true);
  tb.flow_[0].abort_pm = 0;
  tb.run_link(3000, true);
  tb.run_link(3000, false);
  const Flow &f = tb.flow_[0];
  tb.expect(f.n_bad == 0 && tb.flow_[1].n_bad == 0, f.first_error + tb.flow_[1].first_error);
  tb.expect(f.n_cut > 0 && tb.r(1).cnt_rx_cut == f.n_cut, "aborted packets arrive cut");
}

void t_link_en(Tb &tb) {
  tb.wait_run(1000);
  tb.run_link(2000, true);
  tb.link_en_[0] = 0;
  tb.run_link(50, true);
  tb.expect(tb.st(0) != DSLINK_ST_RUN && tb.st(1) != DSLINK_ST_RUN, "link_en=0 takes the link down");
  // The disabled end never starts; it may still be reset by the disconnects of its restarting peer.
  for (int k = 0; k < 1000; k++) {
    tb.run_link(1, true);
    tb.expect(tb.st(0) <= DSLINK_ST_READY && tb.st(1) != DSLINK_ST_RUN,
              "disabled end stays out of Started/Connecting/Run");
  }
  tb.link_en_[0] = 1;
  tb.wait_run(2000, true);
  tb.run_link(5000, true);
  tb.run_link(3000, false);
  for (int i = 0; i < 2; i++) tb.expect(tb.flow_[i].n_bad == 0, tb.flow_[i].first_error);
}

// Reset in the middle of a run (docs/dslink.md §2): in every link state of end a on the way up,
// then in Run with packets in flight both ways, at offsets swept across a packet, of end a, of
// end b and of both on the same cycle, as pulses and held over 1-3 clock edges. After each, the
// reset end's registers are compared at once (cycle()), it must be back in ErrorReset with
// nothing held, and the link must come up again; a clean stretch then delivers every packet.
void t_reset(Tb &tb) {
  for (int i = 0; i < 2; i++) tb.flow_[i].maxlen = 24;
  for (uint32_t s = DSLINK_ST_ERROR_RESET; s <= DSLINK_ST_RUN; s++) {
    for (int k = 0; k < 5000 && tb.st(0) != s; k++) tb.run_link(1, true);
    tb.expect(tb.st(0) == s, std::string("end a reaches ") + dslink_state_name(s));
    tb.run_link(s, true);  // a few cycles into the state
    tb.reset_end(0, s % 3);
    tb.expect(tb.st(0) == DSLINK_ST_ERROR_RESET && tb.r(0).txf_cnt == 0 && tb.r(0).rxf_cnt == 0 &&
                  tb.r(0).tx_credit == 0 && tb.r(0).rx_credit == 0 && tb.r(0).cnt_par_err == 0,
              std::string("reset in ") + dslink_state_name(s) + " empties end a");
  }
  for (uint32_t k = 0; k < 24; k++) {
    tb.wait_run(5000, true);
    tb.run_link(300 + 7 * k * tb.cfg_.bit_period, true, 70);
    const int who = (int)(k % 3);  // a, b, both
    if (who != 1) tb.reset_end(0, k % 4);
    if (who != 0) tb.reset_end(1, (k + 1) % 4);
  }
  tb.wait_run(5000, true);
  const uint64_t ok0 = tb.flow_[0].n_ok + tb.flow_[1].n_ok;
  tb.run_link(20000, true);
  tb.run_link(3000, false);
  for (int i = 0; i < 2; i++) {
    const Flow &f = tb.flow_[i];
    tb.expect(f.n_bad == 0, f.first_error);
    tb.expect(f.sent.size() == f.n_sent - f.complete(), f.name + " nothing left undelivered");
  }
  tb.expect(tb.flow_[0].n_ok + tb.flow_[1].n_ok > ok0 + 100, "traffic flows after the resets");
  std::printf("dslink: reset: %" PRIu64 " resets mid-run\n", tb.n_resets_);
}

// Races at the timers' last counts (docs/dslink.md §4): for each timer, the event it waits for
// (or an error) is made to arrive on every cycle across the timer's end, from the scripted peer,
// end a reset before each try. The sweep must land on both sides of each boundary: some tries see
// the event win, some the timer.
void race_restart(Tb &tb) {
  tb.reset_end(0, 0);
  tb.peer_ = ScriptPeer{};
  tb.peer_.bp = tb.cfg_.bit_period;
}
// Runs the script up to n cycles; the state end a was in when error counter `cnt` went up (Run,
// which no error here can hit, if it did not).
uint32_t state_hit(Tb &tb, uint32_t n, uint32_t dslink_regs_t::*cnt, uint32_t a_link_en = 1) {
  for (uint32_t k = 0; k < n; k++) {
    const uint32_t st = tb.st(0), before = tb.r(0).*cnt;
    run_script(tb, 1, a_link_en);
    if (tb.r(0).*cnt != before) return st;
  }
  return DSLINK_ST_RUN;
}
void t_race(Tb &tb) {
  const uint32_t bp = tb.cfg_.bit_period, T = tb.cfg_.timeout_cycles, W = tb.cfg_.wait_cycles;
  const uint32_t span = 12 * bp;  // a NULL (8 bits) and some: the first token's arrival time
  uint32_t won[4] = {}, lost[4] = {};  // tries the event came first, the timer first
  // 1. Started: the peer's first NULLs against the Started timeout.
  for (uint32_t off = T > span ? T - span : 0; off <= T + 2; off++) {
    race_restart(tb);
    run_script_until(tb, DSLINK_ST_STARTED, 600);
    const uint32_t tmo = tb.r(0).cnt_tmo_err;
    run_script(tb, off);
    tb.peer_.on = true;
    run_script(tb, span + 4);
    (tb.r(0).cnt_tmo_err == tmo ? won : lost)[0]++;
  }
  // 2. Connecting: the peer's FCT against the Connecting timeout.
  for (uint32_t off = T > span ? T - span : 0; off <= T + 2; off++) {
    race_restart(tb);
    tb.peer_.on = true;
    run_script_until(tb, DSLINK_ST_CONNECTING, 600);
    const uint32_t tmo = tb.r(0).cnt_tmo_err;
    run_script(tb, off);
    tb.peer_.ctl(DSLINK_CTL_FCT);
    run_script(tb, span + 4);
    (tb.r(0).cnt_tmo_err == tmo ? won : lost)[1]++;
  }
  // 3. ErrorWait: the line stops (a disconnect) against ErrorWait's end and Ready's one cycle.
  const uint32_t dc = tb.cfg_.disconnect_cycles;
  for (uint32_t off = W > dc + 4 ? W - dc - 4 : 0; off <= W + 4; off++) {
    race_restart(tb);
    tb.peer_.on = true;
    run_script_until(tb, DSLINK_ST_ERROR_WAIT, 600);
    run_script(tb, off);
    tb.peer_.frozen = true;
    // which state the disconnect hits: ErrorWait, or Ready/Started after it
    const uint32_t hit = state_hit(tb, dc + 4, &dslink_regs_t::cnt_disc_err);
    (hit == DSLINK_ST_ERROR_WAIT ? won : lost)[2]++;
  }
  // 4. ErrorWait: a token with bad parity against ErrorWait's end.
  for (uint32_t off = W > span ? W - span : 0; off <= W + 4; off++) {
    race_restart(tb);
    tb.peer_.on = true;
    run_script_until(tb, DSLINK_ST_ERROR_WAIT, 600);
    run_script(tb, off);
    tb.peer_.bits.clear();
    tb.peer_.ctl(DSLINK_CTL_FCT, true);
    const uint32_t hit = state_hit(tb, span + 4, &dslink_regs_t::cnt_par_err);
    (hit == DSLINK_ST_ERROR_WAIT ? won : lost)[3]++;
  }
  const char *what[4] = {"Started timeout / NULL", "Connecting timeout / FCT",
                         "ErrorWait end / disconnect", "ErrorWait end / parity error"};
  for (int k = 0; k < 4; k++) {
    std::printf("dslink: race %s: %u tries the event first, %u the timer first\n", what[k],
                won[k], lost[k]);
    tb.expect(won[k] && lost[k], std::string("the sweep straddles ") + what[k]);
  }
}

// Every receiver event in every state it can arrive in (docs/dslink.md §4 and §6.2), from the
// scripted peer, end a reset before each try: an FCT, a data byte, an EOP, ESC ESC (escape error)
// and a token with bad parity, each in ErrorWait, Ready and Connecting, queued once a's receiver
// has synchronised; and in Started, which lasts one cycle once the receiver is synchronised, by
// raising link_en in Ready at every offset across the token's arrival. Each must land in its
// state and count as the table says (an FCT in Connecting moves to Run); link_en falling in
// Started and Connecting resets the link.
enum MatrixTok { kMxFct, kMxData, kMxEop, kMxEscEsc, kMxBadPar, kMxToks };
void matrix_send(ScriptPeer &p, int tok) {
  switch (tok) {
    case kMxFct: p.ctl(DSLINK_CTL_FCT); break;
    case kMxData: p.data(0x5a); break;
    case kMxEop: p.ctl(DSLINK_CTL_EOP); break;
    case kMxEscEsc: p.ctl(DSLINK_CTL_ESC), p.ctl(DSLINK_CTL_ESC); break;
    default: p.ctl(DSLINK_CTL_FCT, true); break;
  }
}
uint32_t dslink_regs_t::*matrix_cnt(int tok) {
  return tok == kMxEscEsc ? &dslink_regs_t::cnt_esc_err
         : tok == kMxBadPar ? &dslink_regs_t::cnt_par_err
                            : &dslink_regs_t::cnt_proto_err;
}
// End a reset, the peer's NULLs from the start, a taken to state s (with link_en en) and its
// receiver synchronised.
void matrix_to(Tb &tb, uint32_t s, uint32_t en) {
  race_restart(tb);
  tb.peer_.on = true;
  run_script_until(tb, s, 1000, en);
  for (int k = 0; k < 200 && !tb.r(0).rx_sync; k++) run_script(tb, 1, en);
  tb.expect(tb.st(0) == s && tb.r(0).rx_sync, std::string("end a synchronised in ") + dslink_state_name(s));
}
void t_matrix(Tb &tb) {
  const uint32_t bp = tb.cfg_.bit_period, span = 40 * bp;
  const char *tok_name[kMxToks] = {"FCT", "data", "EOP", "ESC ESC", "bad parity"};
  const uint32_t states[3] = {DSLINK_ST_ERROR_WAIT, DSLINK_ST_READY, DSLINK_ST_CONNECTING};
  for (uint32_t s : states) {
    const uint32_t en = s == DSLINK_ST_READY ? 0 : 1;
    for (int tok = 0; tok < kMxToks; tok++) {
      matrix_to(tb, s, en);
      matrix_send(tb.peer_, tok);
      const std::string what = std::string(tok_name[tok]) + " in " + dslink_state_name(s);
      if (s == DSLINK_ST_CONNECTING && tok == kMxFct) {
        run_script_until(tb, DSLINK_ST_RUN, span);
        continue;
      }
      const uint32_t hit = state_hit(tb, span, matrix_cnt(tok), en);
      tb.expect(hit == s, what + " counts in that state");
    }
  }
  // Started: link_en rises in Ready at every offset across the token's arrival.
  for (int tok = 0; tok < kMxToks; tok++) {
    uint32_t in_started = 0;
    for (uint32_t off = 0; off < 20 * bp; off++) {
      matrix_to(tb, DSLINK_ST_READY, 0);
      matrix_send(tb.peer_, tok);
      run_script(tb, off, 0);
      in_started += state_hit(tb, span, matrix_cnt(tok), 1) == DSLINK_ST_STARTED;
    }
    std::printf("dslink: matrix: %s in Started's one cycle: %u tries\n", tok_name[tok], in_started);
    tb.expect(in_started > 0, std::string(tok_name[tok]) + " lands in Started");
  }
  // link_en falls in Started (peer silent: a waits there) and in Connecting.
  race_restart(tb);
  run_script_until(tb, DSLINK_ST_STARTED, 1000);
  run_script(tb, 1, 0);
  tb.expect(tb.st(0) == DSLINK_ST_ERROR_RESET, "link_en low in Started resets the link");
  matrix_to(tb, DSLINK_ST_READY, 0);
  run_script_until(tb, DSLINK_ST_CONNECTING, 100);
  run_script(tb, 1, 0);
  tb.expect(tb.st(0) == DSLINK_ST_ERROR_RESET, "link_en low in Connecting resets the link");
}

// The receive FIFO one from full (RxDepth tokens, a's user not reading) when the credit error of
// credit_rx pushes the ERR marker that closes the open packet, and the user reads one token in
// that very cycle: the count must stay at RxDepth. Found by a first run, then replayed (the
// scripted peer is deterministic and a is reset before each) with the read on that cycle.
void t_full_pop(Tb &tb) {
  auto run = [&](int64_t read_at) -> int64_t {
    race_restart(tb);
    script_to_run(tb);
    run_script(tb, 200);
    for (uint32_t k = 0; k <= tb.cfg_.rx_depth; k++) tb.peer_.data(k);
    const uint64_t t0 = tb.cyc_;
    const uint32_t c0 = tb.r(0).cnt_cred_err;
    int64_t at = -1;
    for (uint32_t k = 0; k < 600 * tb.cfg_.bit_period && at < 0; k++) {
      const int64_t off = (int64_t)(tb.cyc_ - t0);
      const uint32_t cnt = tb.r(0).rxf_cnt;
      run_script(tb, 1, 1, off == read_at ? 1 : 0);
      if (tb.r(0).cnt_cred_err != c0) {
        at = off;
        if (read_at >= 0)
          tb.expect(cnt == tb.cfg_.rx_depth && tb.r(0).rxf_cnt == tb.cfg_.rx_depth,
                    "ERR pushed and a token read in one cycle: the FIFO stays at RxDepth");
      }
    }
    tb.expect(at >= 0, "the token beyond credit is a credit error");
    return at;
  };
  const int64_t at = run(-1);
  tb.expect(run(at) == at, "the replay meets the credit error on the same cycle");
}

// The peer goes quiet while end a sends an unterminated packet (docs/dslink.md §5.3): the
// disconnect cuts it, a's transmitter spills the rest of it, and the end token written after ends
// the spill.
// End a's user writes n tokens of one kind (bytes 0x30, 0x31, ...) while the script runs.
void offer_a(Tb &tb, uint32_t n, uint32_t kind) {
  uint32_t sent = 0;
  for (int k = 0; k < 400 && sent < n; k++) {
    bool taken = false;
    tb.cycle([&] {
      script_stim(tb);
      tb.e_[0].in.tx_valid = 1;
      tb.e_[0].in.tx_data = 0x30u + sent;
      tb.e_[0].in.tx_kind = kind;
      taken = tb.e_[0].mo.tx_ready;
    });
    sent += taken;
  }
  tb.expect(sent == n, "end a takes the tokens");
}

void t_spill(Tb &tb) {
  const uint32_t s0 = tb.r(0).cnt_tx_spill, dc0 = tb.r(0).cnt_disc_err;
  script_to_run(tb);
  offer_a(tb, 3, DSLINK_KIND_DATA);
  for (int k = 0; k < 200 && !tb.r(0).tx_open; k++) run_script(tb, 1);
  tb.expect(tb.r(0).tx_open, "end a is sending the packet");
  tb.peer_.frozen = true;
  run_script(tb, tb.cfg_.disconnect_cycles + 4);
  tb.expect(d16(tb.r(0).cnt_disc_err, dc0) == 1, "the quiet peer is a disconnect");
  tb.expect(d16(tb.r(0).cnt_tx_spill, s0) == 1 && tb.r(0).tx_spill, "the cut packet is spilled");
  offer_a(tb, 1, DSLINK_KIND_EOP);
  run_script(tb, 20);
  tb.expect(!tb.r(0).tx_spill && tb.r(0).txf_cnt == 0, "the end token ends the spill");
}

// An ERR left in the transmit FIFO's storage after its ABORT (docs/dslink.md §5.4): ERR and then
// TxDepth - 1 tokens are written, so once the FIFO has drained its read pointer is back on the
// ERR's slot. An empty FIFO has no head (head_ok): the link must stay in Run, no second ABORT.
void t_stale_err(Tb &tb) {
  script_to_run(tb);
  offer_a(tb, 1, DSLINK_KIND_DATA);
  offer_a(tb, 1, DSLINK_KIND_ERR);
  run_script_until(tb, DSLINK_ST_ERROR_RESET, 200);
  tb.peer_ = ScriptPeer{};
  tb.peer_.bp = tb.cfg_.bit_period;
  script_to_run(tb);
  offer_a(tb, tb.cfg_.tx_depth - 2, DSLINK_KIND_DATA);
  offer_a(tb, 1, DSLINK_KIND_EOP);
  for (int k = 0; k < 400 && tb.r(0).txf_cnt; k++) run_script(tb, 1);
  tb.expect(tb.r(0).txf_cnt == 0 && tb.r(0).txf_rptr == tb.r(0).txf_wptr, "the FIFO drained");
  run_script(tb, 300);
  tb.expect(tb.st(0) == DSLINK_ST_RUN, "an empty FIFO's stale ERR is no ABORT: the link stays up");
}

// Event counters across every carry: the 16-bit counters never get past a few hundred in a run,
// so their upper bits would never change. For k = 1..16 every counter of both ends is set to
// 2^k - 1 on both sides (tb/backdoor.h), then to 0xfffe, and the scripted error cases run again
// and check their increments modulo 2^16: each bit is carried into, cleared by a carry, and held
// at 1 and at 0, and 0xffff wraps to 0.
void t_counters(Tb &tb) {
  const std::function<void(Tb &)> cases[] = {t_parity, t_escape,  t_disconnect, t_credit_rx,
                                             t_credit_tx, t_proto, t_timeout, t_spill};
  for (uint32_t k = 1; k <= lockstep::CarryWalk::kRound; k++) {
    const uint32_t v = lockstep::CarryWalk::value(k);
    for (int i = 0; i < 2; i++) tb.inject_counters(i, v);
    for (const auto &c : cases) {
      tb.peer_ = ScriptPeer{};
      tb.peer_.bp = tb.cfg_.bit_period;
      c(tb);
    }
  }
  std::printf("dslink: counters: the error cases ran from 17 injected values, 1 to 0xffff and 0xfffe\n");
}

// ---- Random traffic with wire faults -------------------------------------------------------

// Long runs report progress on stderr, every tenth of the run.
struct Progress {
  uint64_t t0, total, tenth, next;
  Progress(uint64_t start, uint64_t n) : t0(start), total(n), tenth(n / 10), next(n >= 5000000 ? start + n / 10 : UINT64_MAX) {}
  void at(const Tb &tb) {
    if (tb.cyc_ < next) return;
    std::fprintf(stderr, "dslink: %s seed %" PRIu64 ": %" PRIu64 "%% (%" PRIu64 " cycles)\n",
                 tb.o_.test.c_str(), tb.o_.seed, (tb.cyc_ - t0) * 100 / total, tb.cyc_ - t0);
    next += tenth;
  }
};

// One cycle's draws of the faulty stretch: wire faults, link_en toggles, resets, stalled users.
void random_upsets(Tb &tb, madpost_rng_t &g) {
  for (int w = 0; w < 2; w++) {
    bench::WireFault &f = tb.fault_[w];
    if (f.active() || !madpost_rng_chance(&g, 1, 3000)) continue;
    f.start_random(&g, tb.cyc_, tb.e_[w].mo.d, tb.e_[w].mo.s);
  }
  if (madpost_rng_chance(&g, 1, 200000)) tb.link_en_[madpost_rng_below(&g, 2)] ^= 1u;
  if (madpost_rng_chance(&g, 1, 150000))
    tb.reset_end((int)madpost_rng_below(&g, 2), madpost_rng_below(&g, 3));
  // A user that stops reading for a while: the receive FIFO fills (to RxDepth, then the ERR
  // of a link reset on top) and stays full across the link's restart.
  if (madpost_rng_chance(&g, 1, 30000))
    tb.stall_until_[madpost_rng_below(&g, 2)] = tb.cyc_ + 200 + madpost_rng_below(&g, 3000);
  for (int i = 0; i < 2; i++)
    if (tb.link_en_[i] == 0 && madpost_rng_chance(&g, 1, 2000)) tb.link_en_[i] = 1;
}

// After the drain: each flow's figures and checks (ok_before, bad_before: at the clean tail's
// start), then the faults' totals.
void random_report(Tb &tb, bool faults, const uint64_t *ok_before, const uint64_t *bad_before,
                   uint64_t resets, uint64_t up_after) {
  for (int i = 0; i < 2; i++) {
    const Flow &f = tb.flow_[i];
    std::printf("dslink: %s sent %" PRIu64 " ok %" PRIu64 " cut %" PRIu64 " lost %" PRIu64
                " damaged %" PRIu64 "\n",
                f.name.c_str(), f.n_sent, f.n_ok, f.n_cut, f.n_lost, f.n_bad);
    tb.expect(f.sent.size() == f.n_sent - f.complete(),
              f.name + " nothing left undelivered after the drain");
    tb.expect(f.n_ok > ok_before[i], f.name + " carries traffic after the faults");
    if (!faults) {
      tb.expect(f.n_bad == 0 && f.n_lost == 0 && f.n_cut == 0 && f.n_ok == f.complete(),
                f.name + " clean link delivers every packet intact: " + f.first_error);
    } else {
      tb.expect(f.n_bad == bad_before[i], f.name + " no damage after the faults end: " + f.first_error);
    }
  }
  if (!faults) return;
  const uint64_t nf = tb.fault_[0].total() + tb.fault_[1].total();
  uint64_t errs = 0;
  for (int i = 0; i < 2; i++)
    errs += tb.r(i).cnt_par_err + tb.r(i).cnt_esc_err + tb.r(i).cnt_disc_err +
            tb.r(i).cnt_cred_err + tb.r(i).cnt_proto_err + tb.r(i).cnt_tmo_err;
  std::printf("dslink: %" PRIu64 " wire faults, %" PRIu64 " link errors, %" PRIu64
              " link drops, up again %" PRIu64 " cycles into the clean tail\n",
              nf, errs, resets, up_after);
  tb.expect(nf > 0 && errs > 0, "faults were injected and detected");
}

void t_random(Tb &tb, bool faults) {
  madpost_rng_t &g = tb.rng_;
  for (int i = 0; i < 2; i++) {
    tb.flow_[i].maxlen = 1 + madpost_rng_below(&g, 80);
    tb.flow_[i].longlen = 300;
    tb.flow_[i].valid_pct = 30 + madpost_rng_below(&g, 71);
    tb.flow_[i].abort_pm = faults ? 2 : 0;
  }
  const uint32_t ready_pct = 40 + madpost_rng_below(&g, 61);
  const uint64_t total = tb.o_.cycles, tail = total / 5, fault_end = tb.cyc_ + total - tail;
  uint64_t resets = 0;
  Progress progress(tb.cyc_, total);
  while (tb.cyc_ < fault_end) {
    progress.at(tb);
    if (faults) random_upsets(tb, g);
    bool was_run = tb.st(1) == DSLINK_ST_RUN;
    tb.run_link(1, true, ready_pct);
    if (was_run && tb.st(1) != DSLINK_ST_RUN) resets++;
  }
  // Clean tail: the link must come back by itself and carry traffic intact.
  tb.link_en_[0] = tb.link_en_[1] = 1;
  tb.stall_until_[0] = tb.stall_until_[1] = 0;
  for (int i = 0; i < 2; i++) tb.flow_[i].abort_pm = 0;
  uint64_t ok_before[2] = {tb.flow_[0].n_ok, tb.flow_[1].n_ok};
  uint64_t bad_before[2] = {tb.flow_[0].n_bad, tb.flow_[1].n_bad};
  tb.wait_run(5000, true);
  uint64_t t_up = tb.cyc_;
  while (tb.cyc_ < fault_end + tail) {
    progress.at(tb);
    tb.run_link(1, true, ready_pct);
  }
  tb.run_link(4000, false, 100);
  random_report(tb, faults, ok_before, bad_before, resets, t_up - fault_end);
}

using TestDef = bench::TestDef<Tb>;

const std::vector<TestDef> &tests() {
  static const std::vector<TestDef> t = {
      {"startup", t_startup, "both ends from reset to Run, idle link stays up"},
      {"packets", t_packets, "random packets 1..40 bytes and 2000-byte packets, EOP/EOM, both ways"},
      {"credit", t_credit, "receiver stalls: sender stops after RxDepth tokens, resumes"},
      {"parity", t_parity, "scripted peer sends a token with bad parity"},
      {"escape", t_escape, "scripted peer sends ESC EOP"},
      {"disconnect", t_disconnect, "scripted peer stops toggling"},
      {"credit_rx", t_credit_rx, "scripted peer sends more tokens than credit"},
      {"credit_tx", t_credit_tx, "scripted peer grants credit beyond TxCreditMax"},
      {"proto", t_proto, "FCT in Ready, data in Connecting"},
      {"timeout", t_timeout, "Started and Connecting timeouts"},
      {"cut", t_cut, "wire cut in a long packet: ERR at the receiver, spill at the sender"},
      {"abort", t_abort, "ERR written on tx takes the link down and cuts the packet"},
      {"link_en", t_link_en, "link_en low takes the link down, high brings it back"},
      {"reset", t_reset, "reset mid-run: in every state, with packets in flight, a, b, both, held"},
      {"full_pop", t_full_pop, "ERR pushed into a FIFO one from full while the user reads"},
      {"matrix", t_matrix, "FCT, data, EOP, ESC ESC, bad parity in ErrorWait, Ready, Started, Connecting"},
      {"stale_err", t_stale_err, "an ERR left in an empty FIFO's storage is not sent again"},
      {"spill", t_spill, "peer goes quiet while a sends: the cut packet is spilled to its end"},
      {"counters", t_counters, "error cases again from counters injected at 2^k - 1, k = 1..16"},
      {"race", t_race, "events on every cycle across the Started, Connecting, ErrorWait timers' ends"},
      {"random", [](Tb &tb) { t_random(tb, false); }, "random traffic and back-pressure, clean wires"},
      {"faults", [](Tb &tb) { t_random(tb, true); }, "random traffic with bit flips, stuck and cut wires"},
  };
  return t;
}

}  // namespace

int main(int argc, char **argv) {
  const char *about = "Runs the DS-Link RTL and C model in lockstep. --cycles applies to random and faults.\n";
  return bench::main(argc, argv, {"dslink_lockstep", 200000, true, 12, about, 0}, tests());
}
