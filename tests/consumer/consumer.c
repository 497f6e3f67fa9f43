/* A user's program against the installed library only (tests/consumer/run.sh builds it with
 * pkg-config, linked statically and dynamically): a DS-Link pair starts its link and carries a
 * message across, and an MP1 message crosses a 2x2 mesh of chips; both results are checked. The
 * same file is compiled as C11 and as C++ (consumer.cpp includes it), so it keeps to their
 * common subset. Exits 0 when both results are right, 1 otherwise. */
#include <stdio.h>
#include <string.h>

#include <madpost/dslink.h>
#include <madpost/mp1_mesh.h>
#include <madpost/mp1_nic.h>
#include <madpost/version.h>

#ifndef CONSUMER_LANG
#define CONSUMER_LANG "C"
#endif

static const char msg[] = "madpost golden model";

/* Two DS-Link ends wired back to back (a's d, s into b and back); a queues msg's bytes once the
 * link runs, b takes every byte it receives. Returns the number of bytes b got, in got. */
static unsigned dslink_pair(char *got, unsigned cap) {
  static dslink_state_t st[2];
  static dslink_next_t nx[2];
  dslink_cfg_t cfg;
  dslink_in_t in[2];
  dslink_out_t out[2];
  unsigned sent = 0, n = 0;
  dslink_cfg_default(&cfg);
  memset(in, 0, sizeof in);
  for (int e = 0; e < 2; e++) dslink_reset(&cfg, &st[e]);
  for (long cyc = 0; cyc < 20000 && n < sizeof msg - 1; cyc++) {
    for (int e = 0; e < 2; e++) dslink_outputs(&cfg, &st[e], &out[e]);
    for (int e = 0; e < 2; e++) {
      in[e].d = out[1 - e].d;
      in[e].s = out[1 - e].s;
      in[e].link_en = 1;
      in[e].rx_ready = 1;
    }
    in[0].tx_valid = sent < sizeof msg - 1;
    in[0].tx_data = in[0].tx_valid ? (unsigned char)msg[sent] : 0;
    in[0].tx_kind = DSLINK_KIND_DATA;
    for (int e = 0; e < 2; e++)
      if (dslink_eval(&cfg, &st[e], &in[e], &out[e], &nx[e], NULL) != 0) return 0;
    if (in[0].tx_valid && out[0].tx_ready) sent++;
    if (out[1].rx_valid && out[1].rx_kind == DSLINK_KIND_DATA && n < cap)
      got[n++] = (char)out[1].rx_data;
    for (int e = 0; e < 2; e++) dslink_clock(&st[e], &nx[e]);
  }
  return n;
}

/* A 2x2 mesh of MP1 chips: node 0 sends msg to node 3 (both dimensions differ, so it turns);
 * returns the bytes node 3's interface delivered (header flits consumed), in got. */
static unsigned mp1_mesh_send(char *got, unsigned cap) {
  static mp1_nic_t tx[4], rx[4];
  static mp1_msg_t m;
  mp1_mesh_state_t st;
  mp1_mesh_next_t nx;
  mp1_mesh_cfg_t cfg;
  mp1_mesh_in_t in[4];
  mp1_mesh_out_t out[4];
  unsigned n = 0;
  int err = 0;
  memset(&cfg, 0, sizeof cfg);
  cfg.kx = 2;
  cfg.ky = 2;
  cfg.awf = 1;
  if (mp1_mesh_init(&st, &nx, cfg) != 0) return 0;
  memset(in, 0, sizeof in);
  memset(&m, 0, sizeof m);
  for (int i = 0; i < 4; i++) {
    mp1_nic_reset(&tx[i]);
    mp1_nic_reset(&rx[i]);
    in[i].pbloop = 1;
  }
  const uint32_t h = mp1_msg_p2p(1, 2, 0, 3, 0, &m);
  memcpy(&m.bytes[h], msg, sizeof msg - 1);
  m.len = h + (uint32_t)(sizeof msg - 1);
  mp1_nic_push(&tx[0], &m);
  for (uint64_t t = 0; t < 2000 && n == 0 && !err; t++) {
    for (int i = 0; i < 4; i++) in[i].inj_dat = (uint8_t)tx[i].dat;
    mp1_mesh_eval(&st.cfg, &st, in, out, &nx, NULL);
    for (int i = 0; i < 4; i++) {
      mp1_rx_msg_t r;
      err |= out[i].err; /* a chip's buffer invariant broke (docs/mp1_draft4.md §6) */
      if (mp1_nic_rx(&rx[i], out[i].rcv_dat, t, &r) == 1 && i == 3 && r.len <= cap) {
        memcpy(got, r.bytes, r.len);
        n = r.len;
      }
      mp1_nic_tx_step(&tx[i], out[i].inj_stop, t);
    }
    mp1_mesh_clock(&st, &nx);
  }
  mp1_mesh_free(&st, &nx);
  return err ? 0 : n;
}

/* 1 if a run delivered exactly msg; else 0, saying what it got. */
static int delivered(const char *what, const char *got, unsigned n) {
  if (n == sizeof msg - 1 && !memcmp(got, msg, n)) return 1;
  printf("consumer: %s delivered %u bytes, not the %u sent (or other bytes)\n", what, n,
         (unsigned)sizeof msg - 1);
  return 0;
}

int main(void) {
  char got[64];
  int ok = 1;
  /* The headers compiled against and the library run with: the same major, or the soname lied. */
  const size_t major_len = strcspn(MADPOST_VERSION_STRING, ".") + 1;
  if (strncmp(madpost_version(), MADPOST_VERSION_STRING, major_len)) {
    printf("consumer: headers %s, library %s\n", MADPOST_VERSION_STRING, madpost_version());
    ok = 0;
  }
  ok &= delivered("DS-Link pair", got, dslink_pair(got, sizeof got));
  ok &= delivered("MP1 mesh", got, mp1_mesh_send(got, sizeof got));
  printf("consumer (%s, madpost %s): %s\n", CONSUMER_LANG, madpost_version(), ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
