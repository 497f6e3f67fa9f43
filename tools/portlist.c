/* Prints the DS-Link port list that include/dslink_ports.h defines, one "dir name width" line per
 * port in RTL order, for scripts/check_ports.sh to compare with the RTL. */
#include <stdio.h>

#include "dslink_ports.h"

int main(void) {
  puts("input clk_i 1");
  puts("input rst_ni 1");
#define X(n, w) printf("input %s_i %d\n", #n, w);
  DSLINK_INPUTS(X)
#undef X
#define X(n, w) printf("output %s_o %d\n", #n, w);
  DSLINK_OUTPUTS(X)
#undef X
#define X(n, w) printf("output dbg_%s_o %d\n", #n, w);
  DSLINK_REGS(X)
#undef X
  return 0;
}
