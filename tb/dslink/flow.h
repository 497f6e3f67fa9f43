// The DS-Link bench's packet flows (its scoreboard): one direction's source, and the checker of
// what arrives against what was sent (intact, cut, lost, damaged or merged).
#ifndef MADPOST_TB_DSLINK_FLOW_H
#define MADPOST_TB_DSLINK_FLOW_H

#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <madpost/dslink.h>
#include <madpost/madpost_rng.h>

namespace {

// Packet source and checker for one direction: payloads carry their sequence number, so a
// received packet can be matched to the packet sent, and merging or damage shows.
struct Packet {
  uint32_t seq;
  std::vector<uint8_t> bytes;
  uint32_t end;  // EOP, EOM or ERR
};

// How many packets in a row a receiver may find missing (sequence numbers are 8 bits).
constexpr size_t kLostWindow = 64;

uint8_t payload(uint32_t seq, size_t i) {
  return i == 0 ? (uint8_t)seq : (uint8_t)(seq * 37u + (uint32_t)i * 11u + 5u);
}

struct Flow {
  std::string name;
  madpost_rng_t rng{};
  uint32_t seq = 0;
  Packet cur{};
  size_t pos = 0;
  bool have = false;
  uint32_t valid_pct = 100, abort_pm = 0, maxlen = 64, longlen = 0;
  std::deque<Packet> sent;
  Packet rx{};
  uint64_t n_sent = 0, n_ok = 0, n_cut = 0, n_lost = 0, n_bad = 0, bytes_ok = 0;
  bool strict = true;
  std::string first_error;

  void new_packet() {
    cur.seq = seq++ & 0xffu;
    size_t len = 1 + madpost_rng_below(&rng, maxlen);
    if (longlen && madpost_rng_chance(&rng, 1, 50)) len = longlen;
    cur.bytes.resize(len);
    for (size_t i = 0; i < len; i++) cur.bytes[i] = payload(cur.seq, i);
    cur.end = madpost_rng_chance(&rng, 1, 4) ? DSLINK_KIND_EOM : DSLINK_KIND_EOP;
    if (abort_pm && madpost_rng_chance(&rng, abort_pm, 1000)) cur.end = DSLINK_KIND_ERR;
    pos = 0;
    have = true;
  }
  // Offer this cycle's token (if any) on in.
  void offer(dslink_in_t *in) {
    if (!have) new_packet();
    in->tx_valid = madpost_rng_chance(&rng, valid_pct, 100);
    if (pos < cur.bytes.size()) {
      in->tx_kind = DSLINK_KIND_DATA;
      in->tx_data = cur.bytes[pos];
    } else {
      in->tx_kind = cur.end;
      in->tx_data = 0;
    }
  }
  // A packet counts as sent from its first token: it can be cut while still being written.
  void accepted() {
    if (pos == 0) {
      sent.push_back(cur);
      n_sent++;
    }
    if (pos++ == cur.bytes.size()) have = false;
  }
  // Packets whose end token was accepted.
  uint64_t complete() const { return n_sent - (have && pos > 0 ? 1 : 0); }
  void fail(uint64_t cycle, const std::string &what) {
    n_bad++;
    if (first_error.empty())
      first_error = name + " cycle " + std::to_string(cycle) + ": " + what;
  }
  void received(uint64_t cycle, uint32_t kind, uint32_t data) {
    if (kind == DSLINK_KIND_DATA) {
      rx.bytes.push_back((uint8_t)data);
      return;
    }
    rx.end = kind;
    if (rx.bytes.empty()) {
      fail(cycle, std::string("empty packet ended by ") + dslink_kind_name(kind));
    } else {
      uint32_t seq = rx.bytes[0];
      size_t k = 0;
      // A reset end loses what its FIFOs held: up to RxDepth short packets.
      while (k < sent.size() && k < kLostWindow && sent[k].seq != seq) k++;
      if (k == sent.size() || k == kLostWindow) {
        std::string q;
        for (size_t j = 0; j < sent.size() && j < 10; j++) q += " " + std::to_string(sent[j].seq);
        fail(cycle, "packet with unknown sequence " + std::to_string(seq) + " (" +
                        std::to_string(rx.bytes.size()) + " bytes, " + dslink_kind_name(kind) +
                        "; expected one of" + q + ")");
      } else {
        n_lost += k;
        sent.erase(sent.begin(), sent.begin() + (long)k);
        const Packet &p = sent.front();
        bool prefix = rx.bytes.size() <= p.bytes.size() &&
                      std::equal(rx.bytes.begin(), rx.bytes.end(), p.bytes.begin());
        if (kind == DSLINK_KIND_ERR) {
          if (prefix)
            n_cut++;
          else
            fail(cycle, "cut packet is not a prefix of packet " + std::to_string(p.seq));
        } else if (prefix && rx.bytes.size() == p.bytes.size() && p.end == kind) {
          n_ok++;
          bytes_ok += rx.bytes.size();
        } else {
          fail(cycle, "packet " + std::to_string(p.seq) + " damaged or merged (" +
                          std::to_string(rx.bytes.size()) + " bytes, " + dslink_kind_name(kind) +
                          ", sent " + std::to_string(p.bytes.size()) + " bytes, " +
                          dslink_kind_name(p.end) + ")");
        }
        sent.pop_front();
      }
    }
    rx = Packet{};
  }
};

}  // namespace

#endif
