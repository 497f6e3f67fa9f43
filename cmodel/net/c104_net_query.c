/* C104 network structure for tests and tools (include/madpost/c104_net.h "Structure"): sizes, what each
 * link end is wired to, and read-only views of the blocks and their generated setups. */
#include <madpost/c104_net.h>
#include "c104_net_int.h"

uint64_t c104_net_cycle(const c104_net_t *w) { return w->cyc; }
uint32_t c104_net_nodes(const c104_net_t *w) { return w->N; }
uint32_t c104_net_switches(const c104_net_t *w) { return w->S; }
uint32_t c104_net_vls(const c104_net_t *w) { return w->K; }
uint32_t c104_net_hbytes(const c104_net_t *w) { return w->H; }
uint32_t c104_net_rbase(const c104_net_t *w) { return w->R0; }

static c104_net_end_t end_of(const c104_net_t *w, int32_t e) {
  c104_net_end_t x = {C104_END_NONE, 0, 0};
  if (e < 0)
    return x;
  const uint32_t u = (uint32_t)e, nsw = w->S * C104_PORTS;
  if (u < nsw)
    return (c104_net_end_t){C104_END_SW, u / C104_PORTS, u % C104_PORTS};
  return (c104_net_end_t){C104_END_NODE, (u - nsw) / w->P, (u - nsw) % w->P};
}

c104_net_end_t c104_net_sw_peer(const c104_net_t *w, uint32_t s, uint32_t p) {
  return s < w->S && p < C104_PORTS ? end_of(w, w->peer[c104_net_sw_end(w, s, p)])
                                    : end_of(w, -1);
}
c104_net_end_t c104_net_node_peer(const c104_net_t *w, uint32_t n, uint32_t l) {
  return n < w->N && l < w->P ? end_of(w, w->peer[c104_net_node_end(w, n, l)]) : end_of(w, -1);
}
const c104_state_t *c104_net_sw_state(const c104_net_t *w, uint32_t s) { return &w->sw[s]; }
const t9k_node_state_t *c104_net_node_state(const c104_net_t *w, uint32_t n) { return &w->ns[n]; }
const t9k_node_cfg_t *c104_net_node_cfg(const c104_net_t *w, uint32_t n) { return &w->nc[n]; }
uint32_t c104_net_vl_to(const c104_net_t *w, uint32_t n, uint32_t d) {
  const uint16_t v = w->vl_to[(size_t)n * w->N + d];
  return v == 0xFFFF ? UINT32_MAX : v;
}
const c104_setup_t *c104_net_setup(const c104_net_t *w, uint32_t s) { return &w->setup[s]; }
