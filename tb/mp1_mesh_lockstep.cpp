// MP1 mesh lockstep testbench: a KX x KY mesh of chips in RTL (rtl/mp1_mesh.sv) and in the C model
// (cmodel/mp1_mesh.c), identical interface inputs every cycle: seeded random traffic of every
// message type (point-to-point static and adaptive, broadcasts, intra- and inter-plane
// piggy-back, lengths 1 to 96 bytes, now and then a malformed header) from every node's
// interface; every channel, every interface output, and every register of every chip compared
// every cycle (docs/mp1.md §12). Addresses are words of MP1_AWF flits (§14; -DMP1_AWF=2 with the
// RTL built with -GAWF=2).
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "Vmp1_mesh.h"
#include "verilated.h"

#include "backdoor.h"
#include "common/bench.h"
#include "common/mesh_sigs.h"
#include "common/ports.h"
#include "lockstep.h"
#include <madpost/mp1_mesh.h>
#include <madpost/mp1_nic.h>
#include "mp1_stim.h"
#include <madpost/madpost_rng.h>

#ifndef MESH_KX
#define MESH_KX 4
#endif
#ifndef MESH_KY
#define MESH_KY 4
#endif

using lockstep::Sig;

namespace {

constexpr uint32_t kN = MESH_KX * MESH_KY;
constexpr uint32_t kA = MP1_AWF;  // flits per address word
constexpr uint32_t kChipRegBits = 0 MP1_CHIP_REGS(MP1_PLANE_X_BITS);

template <class T>
void put_bits(T &v, uint32_t lsb, uint32_t w, uint64_t x) {
  if constexpr (std::is_integral<T>::value) {
    const T m = (T)(((1ull << w) - 1) << lsb);
    v = (T)((v & ~m) | (((T)x << lsb) & m));
  } else {
    for (uint32_t i = 0; i < w; i++) {
      const uint32_t b = lsb + i;
      v[b / 32] = (v[b / 32] & ~(1u << (b % 32))) | ((uint32_t)((x >> i) & 1u) << (b % 32));
    }
  }
}

struct Node {
  uint32_t x, y;
};

// Valid traffic of every kind (docs/mp1.md §3.1, §5.5, §11.3), plus a little malformed traffic.
class Traffic {
 public:
  explicit Traffic(madpost_rng_t *g) : g_(g) {}
  uint32_t max_len = 96;   // data bytes
  uint32_t lvk = 0;        // --torus: the unrolled torus's level size (docs/mp1_sim.md §7), 0 a mesh
  uint32_t kinds = 0x1f;  // bit 0 p2p, 1 broadcast, 2 intra-, 3 inter-plane piggy-back, 4 malformed

  void make(uint32_t s, mp1_msg_t *m, uint64_t id) {
    Node a{s % MESH_KX, s / MESH_KX};
    uint32_t d = madpost_rng_below(g_, kN - 1);
    if (d >= s) d++;
    Node b{d % MESH_KX, d / MESH_KX};
    *m = mp1_msg_t{};
    m->id = id;
    const uint32_t len = madpost_rng_below(g_, 10) < 7
                             ? 1 + madpost_rng_below(g_, max_len < 8 ? max_len : 8)
                             : 1 + madpost_rng_below(g_, max_len);
    uint32_t kind = madpost_rng_below(g_, 100);
    for (int tries = 0; tries < 20 && !(kinds >> kind_class(kind) & 1u); tries++)
      kind = madpost_rng_below(g_, 100);
    uint32_t h = 0;
    uint32_t plane = ((b.x < a.x) << 1) | (b.y < a.y), dim = a.x == b.x;
    if (kind < 50 && a.x != b.x && a.y != b.y && madpost_rng_below(g_, 4) == 0) {
      // point to point, Y first: the Y machine takes the first address (static or adaptive) and
      // turns into X at the second ("the first address flit names the dimension the message is
      // travelling in", docs/mp1.md §3)
      h = mp1_addr_put(kA, madpost_rng_below(g_, 2), b.y, m->bytes);
      h += mp1_addr_put(kA, 2, b.x, m->bytes + h);
      dim = 1;
    } else if (kind < 50) {  // point to point, static or adaptive
      h = header(a, b, madpost_rng_below(g_, 2), 2, m->bytes);
    } else if (kind < 65) {  // broadcast over the bounding rectangle
      h = header(a, b, 4, 5, m->bytes);
    } else if (kind < 75 && a.x != b.x && (a.x + 1 < b.x || b.x + 1 < a.x)) {
      // intra-plane piggy-back: consumed at a node between, then sent on straight as a new
      // message whose header is in the data
      const uint32_t mid = a.x < b.x ? a.x + 1 + madpost_rng_below(g_, b.x - a.x - 1)
                                     : b.x + 1 + madpost_rng_below(g_, a.x - b.x - 1);
      h += mp1_addr_put(kA, 3, mid, m->bytes + h);
      Node mm{mid, a.y};
      h += header(mm, b, madpost_rng_below(g_, 2), 2, m->bytes + h);
      dim = 0;
    } else if (kind < 88 && a.x != b.x && a.y != b.y && inter_plane_ok(a, b)) {
      // inter-plane piggy-back: consumed at the node in line with the destination, into the
      // chip's piggy-back channel, re-injected on the plane towards the destination
      Node mm{b.x, a.y};
      h += mp1_addr_put(kA, 6, b.x, m->bytes + h);
      // The new plane's X sign is free (no X distance is left), but it must be a plane above this
      // one (the loop's plane order, docs/mp1.md §11.3).
      const uint32_t p2 = inter_plane(a, b);
      m->bytes[h++] = (uint8_t)mp1_sel_flit(chip_of(mm.x, mm.y), p2, 1);
      h += header(mm, b, 0, 2, m->bytes + h);  // the EOS after the selection flit: chunks_split
      seg_after_ = kA + 1;
      dim = 0;
    } else if (kind < 88) {
      // code 6 to any other node of the row, in either X direction: at an open loop it leaves on
      // the piggy-back output whatever its plane; at a closed one its selection flit (now and then
      // any byte) is re-injected or refused (docs/mp1.md §11.3)
      // (one in four consumed where it is injected: the only way into a plane above at x = 0)
      uint32_t gx = a.x;
      if (madpost_rng_below(g_, 4)) {
        gx = madpost_rng_below(g_, MESH_KX - 1);
        if (gx >= a.x) gx++;
      }
      h += mp1_addr_put(kA, 6, gx, m->bytes + h);
      m->bytes[h++] = (uint8_t)(madpost_rng_below(g_, 4)
                                    ? mp1_sel_flit(chip_of(gx, a.y), madpost_rng_below(g_, 4),
                                                   madpost_rng_below(g_, 2))
                                    : madpost_rng_below(g_, 256));
      Node t = b;
      if (t.x == gx && t.y == a.y) t.x = (gx + 1) % MESH_KX;
      h += header(Node{gx, a.y}, t, madpost_rng_below(g_, 2), 2, m->bytes + h);
      seg_after_ = kA + 1;
      plane = ((gx < a.x) << 1) | madpost_rng_below(g_, 2), dim = 0;
    } else if (kind < 97) {
      h = header(a, b, madpost_rng_below(g_, 2), 2, m->bytes);
    } else {  // malformed: a random header
      for (uint32_t i = 0; i < 2 * kA; i++) m->bytes[h++] = (uint8_t)madpost_rng_below(g_, 256);
      plane = madpost_rng_below(g_, 4), dim = madpost_rng_below(g_, 2);
    }
    for (uint32_t i = 0; i < len && h < MP1_MSG_MAX; i++)
      m->bytes[h++] = (uint8_t)madpost_rng_below(g_, 256);
    m->len = h;
    m->sel = mp1_sel_flit(chip_of(a.x, a.y), plane, dim);
    split_ = seg_after_;
    seg_after_ = 0;
  }
  // The lowest plane above the source's with the destination's Y sign, or 4 if none.
  static uint32_t inter_plane(Node a, Node b) {
    const uint32_t p = ((b.x < a.x) << 1) | (b.y < a.y), ny = b.y < a.y;
    for (uint32_t p2 : {ny, 2u | ny})
      if (p2 > p) return p2;
    return 4;
  }
  static bool inter_plane_ok(Node a, Node b) { return inter_plane(a, b) < 4; }
  static uint32_t kind_class(uint32_t k) {
    return k < 50 ? 0 : k < 65 ? 1 : k < 75 ? 2 : k < 88 ? 3 : k < 97 ? 0 : 4;
  }
  // A message whose first segment must end after this many flits (inter-plane piggy-back: the
  // selection segment inside the data), else 0.
  uint32_t split() const { return split_; }
  // Node (x, y)'s chip number: 0 in a mesh; in the unrolled torus, its level (docs/mp1_sim.md §7).
  uint32_t chip_of(uint32_t x, uint32_t y) const { return lvk ? 2u * (y >= lvk) + (x >= lvk) : 0u; }

 private:
  // A header from a to b in the plane of their offsets: two address words if both dimensions
  // differ.
  static uint32_t header(Node a, Node b, uint32_t code2, uint32_t code1, uint8_t *o) {
    if (a.x != b.x && a.y != b.y) {
      const uint32_t h = mp1_addr_put(kA, code2, b.x, o);
      return h + mp1_addr_put(kA, code1, b.y, o + h);
    }
    const uint32_t c = code2 == 4 ? 5 : code1;
    return mp1_addr_put(kA, c, a.x != b.x ? b.x : b.y, o);
  }
  madpost_rng_t *g_;
  uint32_t seg_after_ = 0, split_ = 0;
};

// Chunks of a message with its first segment ended early (the inter-plane piggy-back's selection
// segment), else as mp1_msg_chunks.
void chunks_split(const mp1_msg_t *m, uint32_t split, mp1_chunks_t *o) {
  mp1_msg_chunks(m, o);
  if (!split) return;
  // Insert an EOS after `split` flits of the message (after the selection segment's 4 chunks).
  const uint32_t at = 4 + 3 * split;
  for (uint32_t i = o->n; i > at; i--) o->c[i] = o->c[i - 1];
  o->c[at] = 1;
  o->n++;  // the caller keeps such messages under 32 flits, so no other EOS follows
}

// ---- Directed cases: one scripted situation per behaviour, RTL and C in lockstep, and then the
// deliveries and counters checked against what docs/mp1.md says must happen. ----------------
struct DMsg {
  uint64_t at;
  uint32_t x, y, plane, dim;
  std::vector<uint8_t> bytes;
  uint32_t split;  // EOS after this many flits (an inner selection segment), 0: none
};
struct DExp {
  uint32_t x, y;
  std::vector<uint8_t> data;
};
struct Case {
  const char *name, *what;
  std::vector<DMsg> msgs;
  std::vector<DExp> exp;
  // extra checks on the C model's state (the RTL's equals it: the lockstep compared every cycle)
  std::function<std::string(const mp1_mesh_state_t &)> check;
  std::vector<uint32_t> pbloop_off;  // nodes whose piggy-back loop is open
  uint64_t rcv_stop_until = 0;       // every interface refuses reception until this cycle
  uint32_t pbo = 0;                  // messages expected on open piggy-back outputs
};

// An address word (docs/mp1.md §14.1), marked so that `with` writes it as its kA flits; any other
// value is one flit.
constexpr uint32_t kWord = 1u << 31;
uint32_t cf(uint32_t code, uint32_t addr) { return kWord | mp1_addr_word(kA, code, addr); }
std::vector<uint8_t> with(std::initializer_list<uint32_t> hdr, uint32_t n, uint8_t base) {
  std::vector<uint8_t> h;
  for (uint32_t v : hdr)
    if (v & kWord)
      for (uint32_t f = 0; f < kA; f++) h.push_back((uint8_t)mp1_addr_flit(kA, v & ~kWord, f));
    else
      h.push_back((uint8_t)v);
  for (uint32_t i = 0; i < n; i++) h.push_back((uint8_t)(base + i * 7));
  return h;
}
std::vector<uint8_t> tail(const std::vector<uint8_t> &v, size_t from, size_t n = ~(size_t)0) {
  std::vector<uint8_t> r(v.begin() + (long)from, v.end());
  if (r.size() > n) r.resize(n);
  return r;
}
const mp1_rm_regs_t &rmr(const mp1_mesh_state_t &m, uint32_t x, uint32_t y, uint32_t p, uint32_t d) {
  const mp1_plane_state_t &pl = m.chip[y * MESH_KX + x].pl[p];
  return d ? pl.rmy.r : pl.rmx.r;
}
template <typename T> uint32_t total(const mp1_mesh_state_t &m, T mp1_rm_regs_t::*f) {
  uint32_t t = 0;
  for (uint32_t n = 0; n < kN; n++)
    for (uint32_t p = 0; p < 4; p++) t += m.chip[n].pl[p].rmx.r.*f + m.chip[n].pl[p].rmy.r.*f;
  return t;
}
std::string eq_err(const char *what, uint64_t got, uint64_t want) {
  if (got == want) return "";
  return std::string(what) + ": " + std::to_string(got) + ", expected " + std::to_string(want);
}

// Routes: point to point, dead flits, adaptive and static, segments, broadcasts.
void route_cases(std::vector<Case> &v) {
  {
    auto m = with({cf(0, 3), cf(2, 2)}, 4, 0x10);
    v.push_back({"p2p", "point to point, static, X then Y: one delivery, intact",
                 {{0, 0, 0, 0, 0, m, 0}}, {{3, 2, tail(m, 2 * kA)}}, nullptr, {}, 0});
  }
  {
    auto m = with({cf(2, 1)}, 3, 0x20);
    v.push_back({"dead_flit", "cut through, then matched: the address flit runs on as a dead flit",
                 {{0, 0, 0, 0, 0, m, 0}}, {{1, 0, tail(m, kA)}},
                 [](const mp1_mesh_state_t &s) {
                   // dropped once at every node from (2,0) to the edge
                   std::string e;
                   for (uint32_t x = 2; x < MESH_KX; x++)
                     e += eq_err(("dead flits at x = " + std::to_string(x)).c_str(),
                                    rmr(s, x, 0, 0, 0).cnt_dead, 1);
                   return e + eq_err("dead flits", total(s, &mp1_rm_regs_t::cnt_dead), MESH_KX - 2);
                 }, {}, 0});
  }
  for (uint32_t code : {1u, 0u}) {
    auto blk = with({cf(2, 3)}, 90, 0x30);
    auto m = with({cf(code, 3), cf(2, 3)}, 2, 0x40);
    v.push_back({code ? "adaptive" : "static",
                 code ? "straight output busy: the adaptive message turns early, codes kept in place"
                      : "straight output busy: the static message waits (dimension order)",
                 {{0, 1, 0, 0, 0, blk, 0}, {30, 0, 0, 0, 0, m, 0}},
                 {{3, 0, tail(blk, kA)}, {3, 3, tail(m, 2 * kA)}},
                 [code](const mp1_mesh_state_t &s) {
                   return eq_err("adaptations", total(s, &mp1_rm_regs_t::cnt_adapt), code ? 1 : 0);
                 }, {}, 0});
  }
  {
    auto m2 = with({cf(0, 3), cf(2, 2)}, 96, 0x60);
    v.push_back({"multi_segment", "96 data bytes: four segments, through a turn",
                 {{0, 0, 0, 0, 0, m2, 0}}, {{3, 2, tail(m2, 2 * kA)}}, nullptr, {}, 0});
  }
  {
    auto m = with({cf(4, 2), cf(5, 2)}, 3, 0x70);
    std::vector<DExp> e;
    // the source's own column from the fork at its injection controller (docs/mp1_draft4.md §10.3)
    for (uint32_t x = 0; x <= 2; x++)
      for (uint32_t y = x ? 0 : 1; y <= 2; y++) e.push_back({x, y, tail(m, 2 * kA)});
    v.push_back({"broadcast", "broadcast to the rectangle (0,0)-(2,2), the source's column by the fork",
                 {{0, 0, 0, 0, 0, m, 0}}, e, nullptr, {}, 0});
    auto l = with({cf(4, 2), cf(5, 2)}, 60, 0x80);
    std::vector<DExp> e2;
    for (uint32_t x = 0; x <= 2; x++)
      for (uint32_t y = x ? 0 : 1; y <= 2; y++) e2.push_back({x, y, tail(l, 2 * kA, 32 - 2 * kA)});
    v.push_back({"broadcast_cut", "a broadcast longer than one segment is cut to its first",
                 {{0, 0, 0, 0, 0, l, 0}}, e2,
                 [](const mp1_mesh_state_t &s) {
                   // cut where each branch, X and the fork's Y, first meets a machine
                   return eq_err("cut broadcasts", total(s, &mp1_rm_regs_t::cnt_bad_long), 2);
                 }, {}, 0});
  }
}

// Piggy-back, bad flits, every output, reception refused.
void piggy_and_edge_cases(std::vector<Case> &v) {
  {
    auto m = with({cf(3, 1), cf(2, 3)}, 2, 0x90);
    v.push_back({"piggy_intra", "consumed at (1,0), sent on straight as a new message to (3,0)",
                 {{0, 0, 0, 0, 0, m, 0}}, {{3, 0, tail(m, 2 * kA)}}, nullptr, {}, 0});
  }
  {
    auto m = with({cf(6, 2), mp1_sel_flit(0, 2, 1), cf(2, 3)}, 3, 0xa0);
    v.push_back({"piggy_inter", "consumed at (2,0) into the piggy-back channel, on in plane 2 Y",
                 {{0, 0, 0, 0, 0, m, kA + 1}}, {{2, 3, tail(m, 2 * kA + 1)}},
                 [](const mp1_mesh_state_t &s) {
                   return eq_err("re-injected at (2,0)", s.chip[2].r.cnt_inj_msgs, 1);
                 }, {}, 0});
    auto down = m;
    down[kA] = (uint8_t)mp1_sel_flit(0, 0, 1);  // plane 0 again: breaks the loop's plane order
    v.push_back({"piggy_order", "re-injection into a plane not above the one it came in: refused",
                 {{0, 0, 0, 0, 0, down, kA + 1}}, {},
                 [](const mp1_mesh_state_t &s) {
                   return eq_err("bad selections at (2,0)", s.chip[2].r.cnt_sel_bad, 1) +
                          eq_err("re-injected at (2,0)", s.chip[2].r.cnt_inj_msgs, 0);
                 }, {}, 0});
    v.push_back({"piggy_gateway", "the same with (2,0)'s loop open: it leaves on the piggy-back output",
                 {{0, 0, 0, 0, 0, m, kA + 1}}, {},
                 [](const mp1_mesh_state_t &s) {
                   return eq_err("re-injected at (2,0)", s.chip[2].r.cnt_inj_msgs, 0);
                 }, {2}, 0, 1});
  }
  {
    auto far = with({cf(2, 31)}, 2, 0xb0), ill = with({cf(7, 2)}, 2, 0xc0);
    auto ok = with({cf(2, 3)}, 2, 0xd0);
    v.push_back({"bad_flits", "address outside the mesh, illegal code: counted, dropped, no hang",
                 {{0, 0, 0, 0, 0, far, 0}, {0, 0, 0, 0, 0, ill, 0}, {0, 0, 0, 0, 0, ok, 0}},
                 {{3, 0, tail(ok, kA)}},
                 [](const mp1_mesh_state_t &s) {
                   return eq_err("bad address at the edge", rmr(s, MESH_KX - 1, 0, 0, 0).cnt_bad_addr, 1) +
                          eq_err("bad code at (1,0)", rmr(s, 1, 0, 0, 0).cnt_bad_code, 1);
                 }, {}, 0});
  }
  {
    std::vector<DMsg> ms;
    std::vector<DExp> e;
    for (uint32_t p = 0; p < 4; p++)
      for (uint32_t d = 0; d < 2; d++) {
        const int sx = (p >> 1) ? -1 : 1, sy = (p & 1) ? -1 : 1;
        const uint32_t tx = d ? 1 : (uint32_t)(1 + sx), ty = d ? (uint32_t)(1 + sy) : 1;
        auto m = with({cf(2, d ? ty : tx)}, 2, (uint8_t)(0x11 * (p * 2 + d)));
        ms.push_back({0, 1, 1, p, d, m, 0});
        e.push_back({tx, ty, tail(m, kA)});
      }
    v.push_back({"all_outputs", "from (1,1) into every plane and dimension", ms, e, nullptr, {}, 0});
  }
  {
    auto a = with({cf(2, 1)}, 3, 0xe0), b = with({cf(2, 1)}, 3, 0xf0);
    v.push_back({"reception", "two messages reach (1,1) together while reception is refused",
                 {{0, 0, 1, 0, 0, a, 0}, {0, 1, 0, 0, 1, b, 0}},
                 {{1, 1, tail(a, kA)}, {1, 1, tail(b, kA)}}, nullptr, {}, 300});
  }
}

std::vector<Case> directed_cases() {
  std::vector<Case> v;
  static_assert(MESH_KX >= 4 && MESH_KY >= 4, "the directed cases need at least a 4x4 mesh");
  route_cases(v);
  piggy_and_edge_cases(v);
  return v;
}

class Tb : public bench::Run {
 public:
  Tb(const bench::Options &o, VerilatedContext *ctx) : bench::Run("mp1_mesh", o), tr_(&g_), ctx_(ctx) {
    rtl_ = std::make_unique<Vmp1_mesh>(ctx, "mesh");
    sigs_ = mesh_sigs::node(true);
    inst_.resize(kN);
    for (uint32_t n = 0; n < kN; n++) {
      inst_[n].init("n" + std::to_string(n), &sigs_);
      h_.add(&inst_[n]);
    }
    // --torus K: the unrolled K x K torus, a 2K x 2K mesh whose chips are numbered by level; the
    // RTL mesh takes the numbers on chip_i, the C mesh computes them from its cfg.
    tr_.lvk = (uint32_t)o.extra;
    if (o.extra && (2 * o.extra != MESH_KX || 2 * o.extra != MESH_KY))
      lockstep::usage_error("mp1_mesh_lockstep", "--torus " + std::to_string(o.extra) +
                                                     ": the mesh must be 2K x 2K (it is " +
                                                     std::to_string(MESH_KX) + "x" + std::to_string(MESH_KY) + ")");
    for (uint32_t n = 0; n < kN; n++) put_bits(rtl_->chip_i, 3 * n, 3, tr_.chip_of(n % MESH_KX, n / MESH_KX));
    if (mp1_mesh_init(&m_, &nx_, mp1_mesh_cfg_t{MESH_KX, MESH_KY, tr_.lvk, tr_.lvk, 0, kA}))
      std::exit(2);
    madpost_rng_seed(&g_, o.seed, 0);
    in_.resize(kN);
    out_.resize(kN);
    nic_.resize(kN);
    pnic_.resize(kN);
    // Odd seeds open one piggy-back loop in 8, even seeds one in 2: an open node's piggy-back
    // output leaves the mesh and its input is fed by a source of its own (pnic_).
    // Every mid-run reset draws them again (a configuration pin changed while the mesh is held).
    open_1_in_ = o.seed % 2 ? 8 : 2;
    for (uint32_t n = 0; n < kN; n++) {
      in_[n] = mp1_mesh_in_t{};
      in_[n].pbloop = madpost_rng_below(&g_, open_1_in_) != 0;
      mp1_nic_reset(&nic_[n]);
      mp1_nic_reset(&pnic_[n]);
      pnic_[n].txf.win = 0;  // a piggy-back input has no window (docs/mp1_draft4.md §10.2)
      const std::string chip = "g_y[" + std::to_string(n / MESH_KX) + "].g_x[" + std::to_string(n % MESH_KX) + "].u_chip.";
      mp1stim::add_chip_counters(ctrs_, chip, &m_.chip[n]);
    }
    rate_ = 2000 + madpost_rng_below(&g_, 20000);  // messages per node per million cycles
    const char *a;
    if ((a = Verilated::commandArgsPlusMatch("maxlen=")) && *a) tr_.max_len = (uint32_t)std::atoi(a + 8);
    if ((a = Verilated::commandArgsPlusMatch("kinds=")) && *a) tr_.kinds = (uint32_t)std::strtoul(a + 7, nullptr, 0);
    plusarg_rate();
    stop_pct_ = 3 + madpost_rng_below(&g_, 20);  // every run sees its sinks stop now and then
  }
  ~Tb() { mp1_mesh_free(&m_, &nx_); }

  int open_waves() { return o_.waves ? h_.open_waves(o_.wave_dir) : 0; }
  void reset() { lockstep::rtl_reset(rtl_.get()); }
  void finish() {}

  // A directed case (dc), or random traffic (nullptr).
  void run(const Case *dc) {
    dc_ = dc;
    if (dc_) {  // no random traffic (unless +rate= asks for it), every piggy-back loop closed
      rate_ = 0;
      plusarg_rate();
      for (uint32_t n = 0; n < kN; n++) in_[n].pbloop = 1;
      for (uint32_t n : dc_->pbloop_off) in_[n].pbloop = 0;
      run_directed();
      return;
    }
    // Random runs reset the whole mesh now and then, messages in flight (tb/lockstep.h MidReset).
    rst_.init(o_.seed, 6000);
    ctrs_.walk.open(ctx_, rtl_.get(), LOCKSTEP_TOP);
    uint64_t at_three_quarters = 0;
    for (uint64_t c = 0; c < o_.cycles; c++) {
      if (c == o_.cycles * 3 / 4) at_three_quarters = delivered_;
      if (c && c % 50000 == 0) std::fprintf(stderr, "mp1_mesh: cycle %" PRIu64 "\r", c);
      cycle(c);
    }
    h_.close();
    if (delivered_ == at_three_quarters) {
      dump_busy();
      fatal("nothing delivered in the last quarter");
    }
    // The counters' events (less what the walk wrote), in add_chip_counters' order.
    uint64_t dead = 0, bad = 0, adapt = 0, inj = 0, selbad = 0;
    for (uint32_t n = 0; n < kN; n++) {
      const size_t b = n * mp1stim::kChipCounters;
      inj += ctrs_.events(b), selbad += ctrs_.events(b + 1);
      for (size_t r = b + 4; r < b + mp1stim::kChipCounters; r += 8)
        dead += ctrs_.events(r), bad += ctrs_.events(r + 1) + ctrs_.events(r + 2) + ctrs_.events(r + 3),
            adapt += ctrs_.events(r + 6);
    }
    std::printf("mp1_mesh: %ux%u, %" PRIu64 " messages queued, %u injected (%u bad selections), "
                "%" PRIu64 " delivered to interfaces, %" PRIu64 " on piggy-back outputs; dead flits "
                "%" PRIu64 ", bad %" PRIu64 ", adaptations %" PRIu64 ", resets %" PRIu64 "\n",
                MESH_KX, MESH_KY, queued_, (unsigned)inj, (unsigned)selbad, delivered_, pbo_msgs_,
                dead, bad, adapt, rst_.count);
    cyc_ = o_.cycles;
    matched();
  }

 private:
  // +rate=N: messages per node per million cycles, instead of the drawn rate.
  void plusarg_rate() {
    const char *a = Verilated::commandArgsPlusMatch("rate=");
    if (a && *a) rate_ = (uint32_t)std::atoi(a + 6);
  }

  void cycle(uint64_t c) {
    cyc_ = c;
    if (rst_.start(rtl_.get())) {
      mp1_mesh_reset(&m_.cfg, &m_), ctrs_.clear();
      for (uint32_t n = 0; n < kN; n++) in_[n].pbloop = madpost_rng_below(&g_, open_1_in_) != 0;
    }
    for (uint32_t n = 0; n < kN; n++) {
      offer(n, &nic_[n], split_[n], rate_);
      if (madpost_rng_chance(&g_, 1, 50)) in_[n].rcv_stop = madpost_rng_chance(&g_, stop_pct_, 100);
      if (madpost_rng_chance(&g_, 1, 50)) in_[n].pbo_stop = madpost_rng_chance(&g_, stop_pct_, 100);
      in_[n].inj_dat = nic_[n].dat;
      in_[n].pbi_dat = 0;
      if (!dc_ && !in_[n].pbloop) {
        offer(n, &pnic_[n], psplit_[n], rate_ / 2);
        in_[n].pbi_dat = pnic_[n].dat;
      }
    }
    for (uint32_t n = 0; n < kN; n++) {
      put_bits(rtl_->pbloop_i, n, 1, in_[n].pbloop);
      put_bits(rtl_->inj_dat_i, 3 * n, 3, in_[n].inj_dat);
      put_bits(rtl_->pbi_dat_i, 3 * n, 3, in_[n].pbi_dat);
      put_bits(rtl_->rcv_stop_i, n, 1, in_[n].rcv_stop);
      put_bits(rtl_->pbo_stop_i, n, 1, in_[n].pbo_stop);
    }
    rtl_->eval();
    mp1_mesh_eval(&m_.cfg, &m_, in_.data(), out_.data(), &nx_, nullptr);
    collect();
    if (h_.check(c)) mismatch();
    for (uint32_t n = 0; n < kN; n++)  // the buffer invariant (docs/mp1_draft4.md §6): compared, and 0 here
      if (out_[n].err) fatal("buffer invariant (err) at node " + std::to_string(n));
    for (uint32_t n = 0; n < kN; n++) {
      mp1_rx_msg_t rx;
      if (mp1_nic_rx(&rcv_[n], out_[n].rcv_dat, c, &rx) == 1) {
        delivered_++;
        if (dc_) got_.push_back({n, std::vector<uint8_t>(rx.bytes, rx.bytes + rx.len)});
      }
      if (mp1_nic_rx(&pbo_[n], in_[n].pbloop ? 0 : out_[n].pbo_dat, c, &rx) == 1) pbo_msgs_++;
      step_sender(&nic_[n], split_[n], out_[n].inj_stop, c);
      if (!dc_ && !in_[n].pbloop) step_sender(&pnic_[n], psplit_[n], out_[n].pbi_stop, c);
    }
    mp1_mesh_clock(&m_, &nx_);
    check_edge_machines();
    lockstep::rtl_clock(rtl_.get());
    if (rst_.after_clock(rtl_.get())) mp1_mesh_reset(&m_.cfg, &m_), ctrs_.clear();
    if (!dc_ && !rst_.held()) ctrs_.walk.step(rtl_.get(), [&](size_t i, uint32_t a) { ctrs_.added[i] += a; });
  }

  // A routing machine whose input is the mesh's edge (rtl/mp1_mesh.sv ties it to 000) never sees
  // a chunk, so every register of it keeps its reset value (its counters only move by the walk's
  // writes): what docs/coverage.md's argument for the mutants of those registers' bits rests on,
  // checked on the C model (the RTL's equals it) after every edge.
  void check_edge_machines() {
    mp1_rm_state_t idle;
    const mp1_rm_cfg_t rcfg{kA};
    mp1_rm_reset(&rcfg, &idle);
    for (uint32_t n = 0; n < kN; n++)
      for (uint32_t p = 0; p < 4; p++)
        for (uint32_t d = 0; d < 2; d++) {
          const int32_t at = d ? (int32_t)(n / MESH_KX) : (int32_t)(n % MESH_KX), size = d ? MESH_KY : MESH_KX;
          const int32_t behind = at - ((p >> (1 - d) & 1u) ? -1 : 1);
          if (behind >= 0 && behind < size) continue;
          const mp1_rm_regs_t &r = d ? m_.chip[n].pl[p].rmy.r : m_.chip[n].pl[p].rmx.r;
          std::string diff;
#define X(nm, c, w) \
  if (r.nm != idle.r.nm && std::strncmp(#nm, "cnt_", 4) != 0) diff += " " #nm "=" + std::to_string(r.nm);
          MP1_RM_REGS(X)
#undef X
          if (diff.empty()) continue;
          fatal("node " + std::to_string(n) + " plane " + std::to_string(p) + " " + (d ? "Y" : "X") +
                " machine, whose input is the mesh edge, left its reset state:" + diff);
        }
  }

  bool busy() const {
    for (uint32_t n = 0; n < kN; n++) {
      if (nic_[n].count || nic_[n].dat || pnic_[n].count || pnic_[n].dat || !mp1_chip_idle(&m_.chip[n]))
        return true;
    }
    return false;
  }

  void run_directed() {
    size_t next = 0;
    uint64_t c = 0;
    const uint64_t limit = 20000;
    while (c < limit && (next < dc_->msgs.size() || busy() || c < dc_->rcv_stop_until)) {
      while (next < dc_->msgs.size() && dc_->msgs[next].at <= c) {
        const DMsg &d = dc_->msgs[next++];
        mp1_msg_t m{};
        m.sel = mp1_sel_flit(0, d.plane, d.dim);
        m.len = (uint32_t)d.bytes.size();
        std::copy(d.bytes.begin(), d.bytes.end(), m.bytes);
        const uint32_t n = d.y * MESH_KX + d.x;
        if (mp1_nic_push(&nic_[n], &m)) std::exit(2);
        split_[n].push_back(d.split);
      }
      for (uint32_t n = 0; n < kN; n++) in_[n].rcv_stop = c < dc_->rcv_stop_until;
      cycle(c++);
    }
    for (int i = 0; i < 20; i++) cycle(c++);
    h_.close();
    std::string err;
    if (c >= limit) err += "the mesh did not drain (a hang); ";
    std::vector<DExp> want = dc_->exp;
    for (const auto &g : got_) {
      bool found = false;
      for (size_t i = 0; i < want.size() && !found; i++)
        if (want[i].x == g.first % MESH_KX && want[i].y == g.first / MESH_KX && want[i].data == g.second) {
          want.erase(want.begin() + (long)i);
          found = true;
        }
      if (!found)
        err += "unexpected delivery at (" + std::to_string(g.first % MESH_KX) + "," +
               std::to_string(g.first / MESH_KX) + ") of " + std::to_string(g.second.size()) + " bytes; ";
    }
    for (const auto &w : want)
      err += "missing delivery at (" + std::to_string(w.x) + "," + std::to_string(w.y) + "); ";
    if (dc_->check) err += dc_->check(m_);
    err += eq_err("messages on piggy-back outputs", pbo_msgs_, dc_->pbo);
    if (!err.empty()) fatal(err);
    std::printf("mp1_mesh: %-14s %zu deliveries as expected, %" PRIu64 " cycles matched (%s)\n",
                dc_->name, got_.size(), c, dc_->what);
  }

  // What holds what when the mesh stops (a deadlock report).
  void dump_busy() const {
    static const char *csn[] = {"off", "wait", "run", "next"};
    for (uint32_t n = 0; n < kN; n++) {
      const mp1_chip_state_t *c = &m_.chip[n];
      std::printf("  node %u (%u,%u): rca_own %u pba_own %u inj cur %u tgt %u if_st %u pb_st %u "
                  "rcv_stop %u\n", n, n % MESH_KX, n / MESH_KX, c->r.rca_own, c->r.pba_own,
                  c->r.inj_cur, c->r.inj_tgt, c->r.inj_if_st, c->r.inj_pb_st, in_[n].rcv_stop);
      for (uint32_t j = 0; j < 8; j++) {
        const mp1_plane_state_t *pl = &c->pl[j >> 1];
        const mp1_rm_regs_t *r = (j & 1u) ? &pl->rmy.r : &pl->rmx.r;
        if (!r->f_val && !r->b_val) continue;
        std::printf("    p%u rm%c F route %x in %u drop %u a1 %02x a2 %02x st %s ot %s rc %s pb %s | "
                    "B %u route %x | wp %u stop %u | arbx %u arby %u\n",
                    j >> 1, (j & 1u) ? 'y' : 'x', r->f_route, r->f_in, r->f_drop, r->f_a1, r->f_a2,
                    csn[r->cs_st & 3u], csn[r->cs_ot & 3u], csn[r->cs_rc & 3u], csn[r->cs_pb & 3u],
                    r->b_val, r->b_route, r->wp, r->stop, pl->arbx_own, pl->arby_own);
      }
    }
  }

  // The node's interface sender; messages with an inner selection segment get their extra EOS.
  // Node n's source k (its interface or piggy-back input) gets a new message with probability
  // rate per million, if its queue has room (inter-plane piggy-back ones only under 32 flits).
  void offer(uint32_t n, mp1_nic_t *k, std::vector<uint32_t> &split, uint32_t rate) {
    if (k->count >= MP1_NIC_QUEUE || madpost_rng_below(&g_, 1000000) >= rate) return;
    mp1_msg_t m;
    tr_.make(n, &m, ++queued_);
    const uint32_t sp = tr_.split();
    if (!sp || m.len <= 31) {
      mp1_nic_push(k, &m);
      split.push_back(sp);
    } else {
      queued_--;
    }
  }

  // One source (a node's interface or piggy-back input) steps, its next message's first segment
  // split as drawn.
  void step_sender(mp1_nic_t *k, std::vector<uint32_t> &split, uint32_t stop, uint64_t c) {
    if (k->count && !k->started && !k->txf.in_seg) {
      chunks_split(&k->q[k->head], split.front(), &k->cur);
      split.erase(split.begin());
      k->pos = 0;
      k->started = 1;
    }
    mp1_nic_tx_step(k, stop, c);
  }

  // Every node's values of this cycle, in mesh_sigs::node() order (its ports by hand, see there).
  void collect() {
    for (uint32_t n = 0; n < kN; n++) {
      ports::Fill f{&inst_[n]};
      const mp1_mesh_in_t &mi = in_[n];
      for (uint64_t v : {(uint64_t)mi.pbloop, (uint64_t)mi.inj_dat, (uint64_t)mi.pbi_dat,
                         (uint64_t)mi.rcv_stop, (uint64_t)mi.pbo_stop})
        f.both(v);
      const mp1_mesh_out_t &mo = out_[n];
      f.pair(ports::field(rtl_->inj_stop_o, n, 1), mo.inj_stop);
      f.pair(ports::field(rtl_->pbi_stop_o, n, 1), mo.pbi_stop);
      f.pair(ports::field(rtl_->rcv_dat_o, 3 * n, 3), mo.rcv_dat);
      f.pair(ports::field(rtl_->pbo_dat_o, 3 * n, 3), mo.pbo_dat);
      for (uint32_t j = 0; j < 8; j++) {
        f.pair(ports::field(rtl_->chan_dat_o, 24 * n + 3 * j, 3), mo.chan_dat[j]);
        f.pair(ports::field(rtl_->chan_stop_o, 8 * n + j, 1), mo.chan_stop[j]);
      }
      f.pair(ports::field(rtl_->err_o, n, 1), mo.err);
      // The registers, from the chip list and the plane list as in the chip's bench.
      const mp1_chip_state_t *cs = &m_.chip[n];
      PORTS_COLLECT_PACKED(f, MP1_CHIP_REGS, rtl_->dbg_chip_o, kChipRegBits * (n + 1), cs->r);
      for (uint32_t p = 0; p < MP1_CHIP_PLANES; p++) {
        mp1_plane_regs_t pr;
        mp1_plane_regs(&cs->pl[p], &pr);
        PORTS_COLLECT_PACKED(f, MP1_PLANE_REGS, rtl_->dbg_plane_o, MP1_PLANE_REG_BITS * (4 * n + p + 1), pr);
      }
    }
  }

  madpost_rng_t g_{};
  Traffic tr_;
  std::unique_ptr<Vmp1_mesh> rtl_;
  std::vector<Sig> sigs_;
  std::vector<lockstep::Instance> inst_;
  mp1_mesh_state_t m_{};
  mp1_mesh_next_t nx_{};
  std::vector<mp1_mesh_in_t> in_;
  std::vector<mp1_mesh_out_t> out_;
  std::vector<mp1_nic_t> nic_;
  std::vector<std::vector<uint32_t>> split_ = std::vector<std::vector<uint32_t>>(kN);
  std::vector<mp1_nic_t> pnic_;  // the piggy-back inputs' sources (open loops, random runs)
  std::vector<std::vector<uint32_t>> psplit_ = std::vector<std::vector<uint32_t>>(kN);
  VerilatedContext *ctx_;
  // Every chip's counters, walked through their carries in random runs (tb/backdoor.h), and what
  // the walk wrote into each, so the summary counts events only.
  struct Counters {
    // Patience 500: most of the mesh's counters see an event a few times per run per chip.
    lockstep::CounterWalk walk{"mp1_mesh", 500};
    std::vector<uint16_t *> field;
    std::vector<uint32_t> added;
    void add(const std::string &rtl, uint16_t *f) { walk.add(rtl, f), field.push_back(f), added.push_back(0); }
    uint32_t events(size_t i) const { return (*field[i] - added[i]) & 0xFFFFu; }
    void clear() { std::fill(added.begin(), added.end(), 0u); }
  } ctrs_;
  mp1_nic_t rcv_[kN]{}, pbo_[kN]{};
  uint32_t rate_ = 0, stop_pct_ = 0, open_1_in_ = 2;
  uint64_t queued_ = 0, delivered_ = 0, pbo_msgs_ = 0;
  lockstep::MidReset rst_;
  const Case *dc_ = nullptr;
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> got_;
};

}  // namespace

int main(int argc, char **argv) {
  const std::vector<Case> cases = directed_cases();
  bench::Spec spec = mp1stim::spec("mp1_mesh_lockstep");
  spec.usage = "usage: %s [--seed S] [--cycles N] [--torus K] [--waves] [+mutant=K]\n";
  spec.extra = "--torus";
  spec.extra_help = "  --torus K: the unrolled K x K torus of docs/mp1_sim.md §7 (chips numbered by level;\n"
                    "             the mesh must be 2K x 2K); 0, the default: a mesh\n";
  return bench::main(argc, argv, spec, bench::case_tests<Tb>(cases));
}
