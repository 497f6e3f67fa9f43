/* Internal interfaces of the C104 network model (configuration and wiring helpers); not public. */
#ifndef MADPOST_C104_NET_INT_H
#define MADPOST_C104_NET_INT_H

#include "c104_net.h"

/* Nodes N, switches S, links per node P of the configured topology. */
void c104_net_shape(const c104_net_cfg_t *c, uint32_t *N, uint32_t *S, uint32_t *P);
/* The pattern's network for mp1_traffic (kx, ky chosen so node numbers agree). */
void c104_net_traffic_cfg(const c104_net_cfg_t *c, mp1_traffic_cfg_t *t);
/* K, whether uniform runs over a circulant, and H (§16.1, §17.4); -1 with a message. */
int c104_net_wiring(const c104_net_cfg_t *c, uint32_t *K, int *circ, uint32_t *H, char *err,
                    size_t n);
/* vl_to[n * N + m] and peer[n * K + c] for the pattern (§17.4). */
int c104_net_vl_wiring(const c104_net_cfg_t *c, uint64_t seed, uint32_t N, uint32_t K, int circ,
                       uint16_t *vl_to, uint32_t *peer, char *err, size_t n);

#endif
