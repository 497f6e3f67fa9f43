// MP1 chip lockstep testbench: one chip (four planes, reception and piggy-back arbiters, injection
// controller) in RTL and in the C model, identical inputs every cycle: random messages on all eight
// input channels, selection segments and messages from the interface (and the external piggy-back
// channel), random stops; every output, the chip's registers and all four planes' registers
// compared every cycle (docs/mp1.md §11).
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "Vmp1_chip.h"
#include "verilated.h"

#include "backdoor.h"
#include "common/bench.h"
#include "common/ports.h"
#include "lockstep.h"
#include <madpost/mp1_chip.h>
#include "mp1_stim.h"
#include <madpost/madpost_rng.h>


using lockstep::Sig;
using mp1stim::Source;
using mp1stim::Seg;
using mp1stim::cf;
using mp1stim::eqs;
using mp1stim::put_flit;
using mp1stim::seg;
using mp1stim::seg_n;

namespace {

// A source of the injection controller (docs/mp1.md §11.3, docs/mp1_draft4.md §10): a selection
// segment, then the message, whose first segment may follow the selection's EOS directly, as a
// later segment may follow an EOS (E); a message's first segment otherwise starts after an idle
// chunk. In the window after an EOM (draft 4 §10.2) a message to the same output goes without a
// selection. Segments start only after seeing stop low, except for rare deliberate violations.
// Chunks come from a register: the next one is chosen after this cycle's eval.
struct Sender {
  Source src;
  std::deque<std::deque<uint8_t>> segs;
  size_t pos = 0;
  bool in_seg = false;
  uint32_t dat = 0, wait = 0, rate = 40;
  uint64_t msgs = 0, violations = 0, windows = 0, forks = 0;
  bool scripted = false, force_violation = false;  // directed cases
  bool cont = false;        // the next segment in segs belongs to the message (or selection) sent
  int last_tgt = -1;        // {plane, dim} of the last message sent, -1 after a forked one
  bool window = true;       // uses the window (the interface; a piggy-back source has none)
  uint32_t prev = 0;        // the chunk on the wire the cycle before this one

  // The message's segments after its selection (the Source's random message).
  void body() {
    src.new_message();
    segs.push_back(src.q);
    for (auto &x : src.segs) segs.push_back(x);
    src.q.clear();
    src.segs.clear();
  }
  void new_message(const mp1_chip_in_t &in) {
    madpost_rng_t *g = &src.rng;
    uint32_t plane = madpost_rng_below(g, 4), dim = madpost_rng_below(g, 2);
    for (int tries = 0; tries < 8; tries++) {  // mostly a target inside the mesh
      const uint32_t nx = plane >> 1, ny = plane & 1u;
      const bool edge = dim ? (ny ? in.py == 0 : in.py == in.ymax) : (nx ? in.px == 0 : in.px == in.xmax);
      if (!edge) break;
      plane = madpost_rng_below(g, 4), dim = madpost_rng_below(g, 2);
    }
    uint32_t sel = mp1_sel_flit(in.chip, plane, dim);
    const uint32_t r = madpost_rng_below(g, 100);
    bool fork = false;
    if (r < 4)
      sel = mp1_sel_flit(in.chip ^ (1 + madpost_rng_below(g, 7)), plane, dim);  // another chip's
    else if (r < 7)
      sel |= 1 | (madpost_rng_below(g, 2) << 1);  // reserved bit 0
    else if (r < 19) sel |= 2, fork = true;  // a fork (draft 4 §10.3); with dim 1 a bad selection
    std::deque<uint8_t> s;
    src.flit(s, sel);
    s.push_back(r >= 19 && r < 21 ? 2 : 1);  // now and then EOM instead of EOS (a bad selection)
    segs.clear();
    segs.push_back(s);
    if (s.back() == 1) body();
    forks += fork;
    last_tgt = fork ? -1 : (int)(plane << 1 | dim);
    msgs++;
  }
  void send_first(uint32_t *next) {
    in_seg = true, pos = 0;
    *next = segs.front()[pos++];
    if (pos == segs.front().size()) segs.pop_front(), in_seg = false;
  }

  void step(uint32_t stop, const mp1_chip_in_t &in) {
    uint32_t next = 0;
    if (in_seg) {
      next = segs.front()[pos++];
      if (pos == segs.front().size()) segs.pop_front(), in_seg = false, cont = next == 1;
    } else if (!segs.empty()) {
      // A message's first segment (its selection) after an idle chunk, but not in the cycle after
      // the idle chunk that follows our EOM (the controller's WIN takes any start for a window
      // message, docs/mp1_draft4.md §10.2); a later segment may follow its EOS (E).
      const bool may = !stop && ((dat == 0 && prev != 2) || (dat == 1 && cont));
      const bool violate =
          !may && (scripted ? force_violation : madpost_rng_chance(&src.rng, 1, 400));
      if (may || violate) {
        violations += violate;
        send_first(&next);
      }
    } else if (scripted) {
    } else if (window && prev == 2 && dat == 0 && !stop && last_tgt >= 0 &&
               madpost_rng_chance(&src.rng, 1, 2)) {
      // NEXT (the idle chunk after our EOM) with stop low: the window; the next message to the
      // same output goes in the following cycle (WIN), without a selection
      body();
      windows++;
      msgs++;
      send_first(&next);
    } else if (wait) {
      wait--;
    } else if (madpost_rng_chance(&src.rng, 1, rate)) {
      new_message(in);
      wait = madpost_rng_below(&src.rng, 30);
    }
    if (next == 2 || (dat == 2 && next == 0)) cont = false;
    prev = dat;
    dat = next;
  }
};

// ---- Directed cases (docs/mp1.md §11): scripted chunk streams on the chip's inputs and interface,
// RTL and C in lockstep, then the output streams and counters checked. --------------------------
// The non-idle chunks of a segment list, as an output shows them.
std::vector<uint8_t> nz(const std::vector<Seg> &v) {
  std::vector<uint8_t> r;
  for (const Seg &s : v)
    for (uint8_t c : s)
      if (c) r.push_back(c);
  return r;
}

struct ChipCase {
  const char *name, *what;
  uint32_t pbloop;
  std::vector<std::vector<Seg>> ifs;  // interface messages: segments (selection segment first)
  bool violate;                       // the interface starts its segments against stop
  std::vector<std::vector<Seg>> pbi;  // external piggy-back source messages
  std::vector<std::pair<uint32_t, std::vector<Seg>>> chan;  // input channel j, its segments
  // expected non-idle chunks per output: j = 0..7 channels, 8 reception, 9 piggy-back out
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> out;
  std::function<std::string(const mp1_chip_regs_t &)> check;
  // The channels' senders ignore stop, each starting kErrGap cycles after the one before, and
  // every output's receiver holds stop until kErrHeld: err must rise, once per channel (§6).
  bool deaf = false;
};

constexpr uint64_t kErrGap = 40;
constexpr uint64_t kErrHeld = 600;

// The chip's err is any plane's, a plane's either machine's (docs/mp1_draft4.md §6); no sender
// that honours stop raises it, so every other run requires it low. Here each channel's sender in
// turn sends, as the routing machine's err_stop_ignored does, a message passing straight (a code-2
// address one ahead) whose first segment of 32 flits fills the buffer behind the stopped output,
// then two segments of 5 flits against stop: its machine writes its 128th chunk with 127 held.
// The eight pulses are apart, so each term of both ORs shows on its own on err, compared every
// cycle.
ChipCase err_case() {
  ChipCase c{"err_stop_ignored", "each channel's sender ignores stop in turn: 8 machines' err", 1,
             {}, false, {}, {}, {}, nullptr};
  c.deaf = true;
  for (uint32_t j = 0; j < 8; j++) {
    const uint32_t p = j >> 1, neg = j & 1u ? p & 1u : p >> 1;  // the machine's direction
    const uint32_t ahead = neg ? 0 : 2;                          // the node is (1,1)
    c.chan.push_back({j, {seg_n({cf(2, ahead)}, 32, 1), seg_n({}, 5, 1), seg_n({}, 5, 2)}});
  }
  return c;
}

// A forked message (docs/mp1_draft4.md §10.3) into each plane: X shows every chunk, Y every chunk
// from a2's word on; the controller asks for Y only once it owns X, so each plane's Y request is
// its own term.
ChipCase fork_case() {
  ChipCase c{"fork", "a forked broadcast into each plane: X all of it, Y from a2's word on", 1, {},
             false, {}, {}, {}, nullptr};
  for (uint32_t p = 0; p < 4; p++) {
    const uint32_t a1 = cf(4, p >> 1 ? 0 : 2), a2 = cf(5, p & 1u ? 0 : 2);
    const Seg m = seg({a1, a2, 0x60 + p, 0x70 + p}, 2), y = seg({a2, 0x60 + p, 0x70 + p}, 2);
    c.ifs.push_back({seg({mp1_sel_flit(0, p, 0) | 2u}, 1), m});
    c.out.push_back({2 * p, nz({m})});
    c.out.push_back({2 * p + 1, nz({y})});
  }
  c.check = [](const mp1_chip_regs_t &r) { return eqs("injected", r.cnt_inj_msgs, 4); };
  return c;
}

// At node (1,1) of a 3x3 mesh every plane output exists.
std::vector<ChipCase> chip_cases() {
  std::vector<ChipCase> v;
  {
    ChipCase c{"inject_all", "the interface injects into every plane and dimension", 1, {}, false,
               {}, {}, {}, nullptr};
    for (uint32_t j = 0; j < 8; j++) {
      const Seg m = seg({cf(2, j & 1u ? 0 : 2), 0x30 + j, 0x50 + j}, 2);
      c.ifs.push_back({seg({mp1_sel_flit(0, j >> 1, j & 1u)}, 1), m});
      c.out.push_back({j, nz({m})});
    }
    c.check = [](const mp1_chip_regs_t &r) { return eqs("injected", r.cnt_inj_msgs, 8); };
    v.push_back(c);
  }
  {
    const Seg m = seg({cf(2, 2), 0x11}, 2);
    ChipCase c{"selection", "bad selections counted and skipped, another chip's ignored", 1,
               {{seg({mp1_sel_flit(0, 0, 0) | 1u}, 1), m},          // reserved bits
                {seg({mp1_sel_flit(0, 0, 0)}, 2)},                  // EOM after the selection
                {seg({mp1_sel_flit(0, 0, 0), 0x99}, 1), m},         // a second flit in it
                {seg({mp1_sel_flit(3, 0, 0)}, 1), m},               // chip 3's message
                {seg({mp1_sel_flit(0, 0, 0)}, 1), m}},              // a good one
               false, {}, {}, {{0, nz({m})}},
               [](const mp1_chip_regs_t &r) {
                 return eqs("bad selections", r.cnt_sel_bad, 3) + eqs("injected", r.cnt_inj_msgs, 1);
               }};
    v.push_back(c);
  }
  {
    ChipCase c{"stop_violation", "a source that starts its message against stop loses it", 1,
               {{seg({mp1_sel_flit(0, 0, 0)}, 1), seg({cf(2, 2), 0x22}, 2)}}, true, {}, {},
               {{0, {}}},
               [](const mp1_chip_regs_t &r) {
                 return eqs("dropped", r.cnt_inj_drop, 1) + eqs("injected", r.cnt_inj_msgs, 0);
               }};
    v.push_back(c);
  }
  {
    const Seg a = seg({cf(2, 1), 0xa1, 0xa2}, 2), b = seg({cf(2, 1), 0xb1, 0xb2}, 2);
    ChipCase c{"reception", "two deliveries at once: whole, machine 2 before machine 0", 1, {},
               false, {}, {{0, {a}}, {2, {b}}},
               {{8, nz({seg({0xb1, 0xb2}, 2), seg({0xa1, 0xa2}, 2)})}}, nullptr};
    v.push_back(c);
  }
  {
    // code 6 at this node: the data carry a selection segment (plane 3, Y) and a nested message
    const Seg nest = seg({cf(2, 0), 0xc1, 0xc2}, 2);
    ChipCase c{"piggy_loop", "inter-plane piggy-back through the looped channel onto plane 3 Y", 1,
               {}, false, {}, {{0, {seg({cf(6, 1), mp1_sel_flit(0, 3, 1)}, 1), nest}}},
               {{7, nz({nest})}},
               [](const mp1_chip_regs_t &r) { return eqs("injected", r.cnt_inj_msgs, 1); }};
    v.push_back(c);
  }
  {
    const Seg nest = seg({cf(2, 0), 0xd1}, 2), ext = seg({cf(2, 2), 0xe1}, 2);
    Seg dead;  // the code-6 flit was cut through before it matched: it ran on as a dead flit
    put_flit(dead, cf(6, 1));
    ChipCase c{"piggy_gateway", "loop open: code 6 leaves on the piggy-back output, pbi injects", 0,
               {}, false, {{seg({mp1_sel_flit(0, 0, 0)}, 1), ext}},
               {{0, {seg({cf(6, 1), mp1_sel_flit(0, 3, 1)}, 1), nest}}},
               {{9, nz({seg({mp1_sel_flit(0, 3, 1)}, 1), nest})}, {0, nz({dead, ext})}, {7, {}}},
               [](const mp1_chip_regs_t &r) { return eqs("injected", r.cnt_inj_msgs, 1); }};
    v.push_back(c);
  }
  {
    // Framing events outside a message at both front ends (loop open, so pbi feeds pb): the
    // illegal chunk and an end code in FREE count as strays; a selection flit followed by a gap
    // is a cut selection in SEL (bad, back to FREE). A good message then still goes in.
    // The gap is part of the cut segment: the sender would start the next one right after a flit
    // ending in a 000 chunk, as if that were the idle chunk before it.
    const Seg m = seg({cf(2, 2), 0x12}, 2);
    Seg cut_if = seg({mp1_sel_flit(0, 0, 0)}, 0), cut_pb = seg({mp1_sel_flit(0, 1, 0)}, 0);
    cut_if.push_back(0);
    cut_pb.push_back(0);
    ChipCase c{"fe_framing", "strays, aborts and cut selections at both front ends", 0,
               {{Seg{3}}, {Seg{1}}, {cut_if}, {seg({mp1_sel_flit(0, 0, 0)}, 1), m}}, false,
               {{Seg{3}}, {Seg{2}}, {cut_pb}}, {}, {{0, nz({m})}},
               [](const mp1_chip_regs_t &r) {
                 return eqs("stray", r.cnt_inj_stray, 4) + eqs("bad selections", r.cnt_sel_bad, 2) +
                        eqs("injected", r.cnt_inj_msgs, 1);
               }};
    v.push_back(c);
  }
  v.push_back(fork_case());
  v.push_back(err_case());
  return v;
}

// Signals: the chip's inputs, outputs and own registers, then each plane's registers, unpacked
// from its debug port by the same port list.
std::vector<Sig> make_sigs() {
  std::vector<Sig> s;
  PORTS_TABLE(&s, MP1_CHIP_INPUTS, MP1_CHIP_OUTPUTS, MP1_CHIP_REGS);
#define X(p, k, ...) PORTS_SIG_REGS(&s, #p "_", MP1_PLANE_REGS);
  MP1_CHIP_PLANE_LIST(X, _)
#undef X
  return s;
}

#ifndef LOCKSTEP_TOP
#define LOCKSTEP_TOP "mp1_chip"
#endif

class Tb : public bench::Run {
 public:
  Tb(const bench::Options &o, VerilatedContext *ctx) : bench::Run("mp1_chip", o), ctx_(ctx) {
    sigs_ = make_sigs();
    rtl_ = std::make_unique<Vmp1_chip>(ctx, "chip");
    inst_.init("chip", &sigs_);
    h_.add(&inst_);
    mp1_chip_reset(&cfg_, &m_);
    madpost_rng_seed(&g_, o.seed, 0);
    in_ = mp1_chip_in_t{};
    in_.xmax = 1 + madpost_rng_below(&g_, mp1stim::kAddrs - 1);
    in_.ymax = 1 + madpost_rng_below(&g_, mp1stim::kAddrs - 1);
    in_.px = madpost_rng_below(&g_, in_.xmax + 1);
    in_.py = madpost_rng_below(&g_, in_.ymax + 1);
    if (madpost_rng_chance(&g_, 1, 4)) in_.px = madpost_rng_chance(&g_, 1, 2) ? 0 : in_.xmax;
    // The mesh's corners by seed, as the draws seldom reach them: the far corner of an even-sized
    // mesh (each edge flag compares against all of xmax, ymax), the origin, the corner between.
    const uint64_t corner = o.seed % 4;
    if (corner == 1) {
      in_.xmax = in_.xmax & 1u ? in_.xmax ^ 1u : in_.xmax;
      in_.ymax = in_.ymax & 1u ? in_.ymax ^ 1u : in_.ymax;
      in_.xmax += in_.xmax ? 0 : 2, in_.ymax += in_.ymax ? 0 : 2;
      in_.px = in_.xmax, in_.py = in_.ymax;
    } else if (corner == 2) {
      in_.px = in_.py = 0;
    } else if (corner == 3) {
      in_.px = in_.xmax, in_.py = 0;
    }
    in_.chip = madpost_rng_below(&g_, 8);
    in_.pbloop = madpost_rng_below(&g_, 2);
    for (uint32_t k = 0; k < 8; k++) {
      Source &s = src_[k];
      const uint32_t p = k >> 1, y = k & 1u, nx = p >> 1, ny = p & 1u;
      madpost_rng_seed(&s.rng, o.seed, 1 + k);
      s.pos = y ? in_.py : in_.px;
      s.opos = y ? in_.px : in_.py;
      s.neg = y ? ny : nx;
      s.oneg = y ? nx : ny;
      s.nest = true;
      // mostly a plane above this one (the loop's plane order, docs/mp1.md §11.3), else any
      const uint32_t np = p < 3 && madpost_rng_below(&g_, 4) ? p + 1 + madpost_rng_below(&g_, 3 - p)
                                                             : madpost_rng_below(&g_, 4);
      s.nest_sel = mp1_sel_flit(in_.chip, np, madpost_rng_below(&g_, 2));
    }
    madpost_rng_seed(&ifs_.src.rng, o.seed, 20);
    madpost_rng_seed(&pbs_.src.rng, o.seed, 21);
    ifs_.src.pos = madpost_rng_below(&g_, mp1stim::kAddrs),
    pbs_.src.pos = madpost_rng_below(&g_, mp1stim::kAddrs);
    pbs_.rate = 80;
    pbs_.window = false;
    stop_pct_ = madpost_rng_below(&g_, 30);
    // The random runs walk the injector's and the machines' counters through their carries.
    mp1stim::add_chip_counters(walk_, "", &m_);
  }

  int open_waves() { return o_.waves ? h_.open_waves(o_.wave_dir) : 0; }
  void reset() { lockstep::rtl_reset(rtl_.get()); }
  void finish() {}

  // A directed case (dc), or random traffic (nullptr).
  void run(const ChipCase *dc) {
    dc_ = dc;
    if (dc_) {
      in_.xmax = in_.ymax = 2, in_.px = in_.py = 1, in_.chip = 0, in_.pbloop = dc_->pbloop;
      stop_pct_ = 0;
      for (auto &s : src_) s.scripted = true, s.nest = false;
      for (uint32_t k = 0; k < 8 && dc_->deaf; k++) src_[k].gap = kErrGap * k;
      for (const auto &ch : dc_->chan)
        for (const Seg &sg : ch.second) src_[ch.first].segs.push_back(sg);
      ifs_.scripted = pbs_.scripted = true;
      ifs_.force_violation = dc_->violate;
      for (const auto &m : dc_->ifs) mq_if_.push_back(m);
      for (const auto &m : dc_->pbi) mq_pb_.push_back(m);
      run_directed();
      return;
    }
    // Random runs reset the chip now and then, messages in flight (tb/lockstep.h MidReset).
    rst_.init(o_.seed, 25000);
    walk_.open(ctx_, rtl_.get(), LOCKSTEP_TOP);
    uint64_t at_three_quarters = 0;
    for (uint64_t c = 0; c < o_.cycles; c++) {
      if (c == o_.cycles * 3 / 4) at_three_quarters = entered();
      cycle(c);
    }
    h_.close();
    if (entered() == at_three_quarters) fatal("no message entered in the last quarter (deadlock?)");
    const mp1_chip_regs_t &r = m_.r;
    uint64_t ch = 0;
    for (auto &s : src_) ch += s.msgs;
    std::printf("mp1_chip: %" PRIu64 " messages on the channels, %" PRIu64 " offered by the "
                "interface (%" PRIu64 " on pbi), pbloop %u; injected %u, bad selections %u, "
                "dropped %u, stray %u, resets %" PRIu64 ", counter moves from injected values %"
                PRIu64 "\n",
                ch, ifs_.msgs, pbs_.msgs, in_.pbloop, r.cnt_inj_msgs, r.cnt_sel_bad,
                r.cnt_inj_drop, r.cnt_inj_stray, rst_.count, walk_.carries());
    cyc_ = o_.cycles;
    matched();
  }

 private:
  uint64_t entered() const {
    uint64_t n = ifs_.msgs + pbs_.msgs;
    for (auto &s : src_) n += s.msgs;
    return n;
  }

  void run_directed() {
    uint64_t c = 0;
    for (; c < 3000; c++) {
      // the next scripted message once the sender has finished the last
      if (ifs_.segs.empty() && !ifs_.in_seg && !mq_if_.empty()) {
        for (const Seg &sg : mq_if_.front()) ifs_.segs.push_back(sg);
        mq_if_.pop_front();
      }
      if (pbs_.segs.empty() && !pbs_.in_seg && !mq_pb_.empty()) {
        for (const Seg &sg : mq_pb_.front()) pbs_.segs.push_back(sg);
        mq_pb_.pop_front();
      }
      cycle(c);
    }
    h_.close();
    std::string err;
    for (const auto &e : dc_->out)
      if (seen_[e.first] != e.second)
        err += "output " + std::to_string(e.first) + " showed " + std::to_string(seen_[e.first].size()) +
               " non-idle chunks, not the " + std::to_string(e.second.size()) + " expected; ";
    if (dc_->check) err += dc_->check(m_.r);
    if (dc_->deaf) err += check_err();
    if (!err.empty()) fatal(err);
    std::printf("mp1_chip: %-14s as expected, %" PRIu64 " cycles matched (%s)\n", dc_->name, c,
                dc_->what);
  }

  // A deaf case's err: one pulse per channel, 127 cycles after its first chunk, in the cycle its
  // machine writes the 128th chunk held; each second segment started against stop.
  std::string check_err() const {
    std::string e = eqs("cycles with err high", err_at_.size(), 8);
    for (size_t k = 0; k < 8; k++) {
      const std::string ch = "channel " + std::to_string(k) + ": ";
      e += eqs((ch + "stop when the second segment started").c_str(), stop_seg2_[k], 1);
      if (k < err_at_.size())
        e += eqs((ch + "err's cycle after its first chunk").c_str(), err_at_[k] - first_in_[k],
                 127);
    }
    return e;
  }

  // What a deaf case checks: the channels' first chunks, their machines' stop when the second
  // segment starts (97 chunks on), and the cycles with err high.
  void trace_err(uint64_t c, uint32_t *const *din, const uint32_t *stop_in, uint32_t err) {
    for (int k = 0; k < 8; k++) {
      if (*din[k] && first_in_[k] == ~0ull) first_in_[k] = c;
      if (first_in_[k] != ~0ull && c == first_in_[k] + 97) stop_seg2_[k] = stop_in[k];
    }
    if (err) err_at_.push_back(c);
  }

  void cycle(uint64_t c) {
    cyc_ = c;
    if (rst_.start(rtl_.get())) mp1_chip_reset(&cfg_, &m_);
    const uint32_t stop_in[8] = {m_.pl[0].rmx.r.stop, m_.pl[0].rmy.r.stop, m_.pl[1].rmx.r.stop,
                                 m_.pl[1].rmy.r.stop, m_.pl[2].rmx.r.stop, m_.pl[2].rmy.r.stop,
                                 m_.pl[3].rmx.r.stop, m_.pl[3].rmy.r.stop};
    uint32_t *din[8] = {MP1_CHIP_PER_CHANNEL(&in_., xin_dat, yin_dat)};
    uint32_t *sout[8] = {MP1_CHIP_PER_CHANNEL(&in_., xout_stop, yout_stop)};
    const bool deaf = dc_ && dc_->deaf;  // (a deaf sender sees a stop that is always low)
    for (int k = 0; k < 8; k++) {
      *din[k] = src_[k].next(deaf ? 0 : stop_in[k]);
      if (madpost_rng_chance(&g_, 1, 20)) *sout[k] = madpost_rng_chance(&g_, stop_pct_, 100);
      if (dc_) *sout[k] = deaf && c < kErrHeld;
    }
    if (madpost_rng_chance(&g_, 1, 20)) in_.rcv_stop = madpost_rng_chance(&g_, stop_pct_, 100);
    if (madpost_rng_chance(&g_, 1, 20)) in_.pbo_stop = madpost_rng_chance(&g_, stop_pct_, 100);
    if (dc_) in_.rcv_stop = in_.pbo_stop = 0;
    in_.inj_dat = ifs_.dat;
    in_.pbi_dat = pbs_.dat;
    PORTS_COPY_IN(MP1_CHIP_INPUTS, rtl_.get(), in_);
    rtl_->eval();
    mp1_chip_out_t mo;
    mp1_chip_eval(&cfg_, &m_, &in_, &mo, &nx_, nullptr);
    collect(mo);
    if (dc_) {
      const uint32_t o[10] = {MP1_CHIP_PER_CHANNEL(mo., xout_dat, yout_dat) mo.rcv_dat, mo.pbo_dat};
      for (int k = 0; k < 10; k++)
        if (o[k]) seen_[k].push_back((uint8_t)o[k]);
    }
    if (h_.check(c)) mismatch();
    if (deaf) {
      trace_err(c, din, stop_in, mo.err);
    } else if (mo.err) {  // the buffer invariant (draft 4 §6): compared above, and 0 here
      fatal("buffer invariant (err)");
    }
    ifs_.step(mo.inj_stop, in_);
    if (!in_.pbloop) pbs_.step(mo.pbi_stop, in_);
    mp1_chip_clock(&m_, &nx_);
    lockstep::rtl_clock(rtl_.get());
    if (rst_.after_clock(rtl_.get())) mp1_chip_reset(&cfg_, &m_);
    walk_.step(rtl_.get());
  }

  // The chip's own ports and registers, then each plane's registers from its debug bus.
  void collect(const mp1_chip_out_t &mo) {
    ports::Fill f{&inst_};
    PORTS_COLLECT(f, MP1_CHIP_INPUTS, MP1_CHIP_OUTPUTS, MP1_CHIP_REGS, *rtl_, in_, mo, m_.r);
    mp1_plane_regs_t pr[MP1_CHIP_PLANES];
    for (int p = 0; p < MP1_CHIP_PLANES; p++) mp1_plane_regs(&m_.pl[p], &pr[p]);
#define X(p, k, ...) \
  PORTS_COLLECT_PACKED(f, MP1_PLANE_REGS, rtl_->dbg_##p##_o, MP1_PLANE_REG_BITS, pr[k]);
    MP1_CHIP_PLANE_LIST(X, _)
#undef X
  }

  VerilatedContext *ctx_;
  std::vector<Sig> sigs_;
  lockstep::Instance inst_;
  std::unique_ptr<Vmp1_chip> rtl_;
  const mp1_chip_cfg_t cfg_{MP1_AWF};  // as the RTL's AWF parameter (docs/mp1.md §14)
  mp1_chip_state_t m_{};
  mp1_chip_next_t nx_{};
  mp1_chip_in_t in_{};
  madpost_rng_t g_{};
  Source src_[8];
  Sender ifs_, pbs_;
  uint32_t stop_pct_ = 0;
  lockstep::MidReset rst_;
  const ChipCase *dc_ = nullptr;
  std::deque<std::vector<Seg>> mq_if_, mq_pb_;
  std::vector<uint8_t> seen_[10];
  uint64_t first_in_[8] = {~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull};
  uint32_t stop_seg2_[8] = {};
  std::vector<uint64_t> err_at_;
  lockstep::CounterWalk walk_{"mp1_chip"};
};

}  // namespace

int main(int argc, char **argv) {
  const std::vector<ChipCase> cases = chip_cases();
  return bench::main(argc, argv, mp1stim::spec("mp1_chip_lockstep"), bench::case_tests<Tb>(cases));
}
