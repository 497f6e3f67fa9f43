/* Statistics over independent runs (seeds), shared by the MP1 and C104 network tools. */
#ifndef MADPOST_NET_STAT_H
#define MADPOST_NET_STAT_H

#include <madpost/madpost_api.h>
#include <stdint.h>

MADPOST_BEGIN_DECLS

/* Mean and 95% confidence half-width (Student t) of a figure over runs. */
typedef struct {
  double mean, ci;
} net_stat_t;
net_stat_t net_stat(const double *v, uint32_t n);

MADPOST_END_DECLS

#endif
