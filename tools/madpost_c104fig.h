/* Measurement on idle C104 networks for madpost c104transit and c104cost (docs/c104.md §18.2,
 * §18.3): pairs and lines of switches driven by hand-made messages (c104_net_send), timed by the
 * per-packet records of c104_net_on_packet. */
#ifndef MADPOST_C104FIG_H
#define MADPOST_C104FIG_H

#include <stdint.h>

#include <madpost/c104_net.h>

/* The packets delivered so far, in delivery order. */
typedef struct {
  c104_net_pkt_t *p;
  int n, cap, ndata, nack;
  int oom;
} madpost_plog_t;

/* An idle pair (s = 0) or line of s switches with K VLs between its two endpoints, H forced to
   hbytes (0: automatic), started and left idle a while (the links' FCT exchange); its packets go
   to log, which is emptied. Exits on a model error, as do the others below. */
c104_net_t *madpost_fig_net(uint32_t s, uint32_t vls, uint32_t hbytes, madpost_plog_t *log);
/* Queues a message of len bytes on VL end vl of node 0. */
void madpost_fig_send(c104_net_t *w, uint32_t vl, uint32_t len);
/* Steps until the log holds at least ndata data packets and nack acknowledgements. */
void madpost_fig_run_until(c104_net_t *w, madpost_plog_t *log, int ndata, int nack);
void madpost_fig_step_n(c104_net_t *w, int n);
/* The k-th data packet or acknowledgement (0-based) of the log, or NULL. */
const c104_net_pkt_t *madpost_fig_data(const madpost_plog_t *l, int k);
const c104_net_pkt_t *madpost_fig_ack(const madpost_plog_t *l, int k);
/* Least-squares line y = a + b x. */
void madpost_fig_lsq(const double *x, const double *y, int n, double *a, double *b);

#endif
