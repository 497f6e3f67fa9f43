/* Prints a block's port list as its X-macro header defines it, one "dir name width" line per port
 * in RTL order, for scripts/check_ports.sh to compare with the RTL. usage: portlist BLOCK. The MP1
 * widths that depend on the address flits per word are those of -DMP1_AWF (1 unless given;
 * docs/mp1.md §14). */
#include <stdio.h>
#include <string.h>

#include <madpost/c104_ports.h>
#include <madpost/dslink_ports.h>
#include <madpost/mp1_chip_ports.h>
#include <madpost/mp1_plane_ports.h>
#include <madpost/mp1_rm_ports.h>

/* X(name, count, width), the schema of every port list: one port of count * width bits (a
 * packed per-port vector when count > 1, docs/c104.md §6). */
#define IN(n, c, w) printf("input %s_i %d\n", #n, (c) * (w));
#define OUT(n, c, w) printf("output %s_o %d\n", #n, (c) * (w));
#define DBG(n, c, w) printf("output dbg_%s_o %d\n", #n, (c) * (w));
/* The C104's link registers: DSLINK_REGS taken 32 times (the count given is dslink's, 1). */
#define DBGL(n, c, w) printf("output dbg_l_%s_o %d\n", #n, 32 * (c) * (w));

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: portlist dslink|mp1_rm|mp1_plane|mp1_chip|c104\n");
    return 2;
  }
  puts("input clk_i 1");
  puts("input rst_ni 1");
  if (!strcmp(argv[1], "dslink")) {
    DSLINK_INPUTS(IN)
    DSLINK_OUTPUTS(OUT)
    DSLINK_REGS(DBG)
  } else if (!strcmp(argv[1], "mp1_rm")) {
    MP1_RM_INPUTS(IN)
    MP1_RM_OUTPUTS(OUT)
    MP1_RM_REGS(DBG)
  } else if (!strcmp(argv[1], "mp1_plane")) {
    MP1_PLANE_INPUTS(IN)
    MP1_PLANE_OUTPUTS(OUT)
    MP1_PLANE_REGS(DBG)
  } else if (!strcmp(argv[1], "mp1_chip")) {
#define BUS(p, k, ...) printf("output dbg_%s_o %d\n", #p, MP1_PLANE_REG_BITS);
    MP1_CHIP_INPUTS(IN)
    MP1_CHIP_OUTPUTS(OUT)
    MP1_CHIP_REGS(DBG)
    MP1_CHIP_PLANE_LIST(BUS, _)
#undef BUS
  } else if (!strcmp(argv[1], "c104")) {
    C104_INPUTS(IN)
    C104_OUTPUTS(OUT)
    C104_REGS(DBG)
    C104_LINK_REGS(DBGL)
  } else {
    fprintf(stderr, "portlist: unknown block '%s'\n", argv[1]);
    return 2;
  }
  return 0;
}
