/* Shim for fuzz_opt.c: tools/madpost.c compiled with its main renamed, so that its static option
 * parsers (linkbw, hop) are reachable without running the commands. */
#define main madpost_main
#include "../../tools/madpost.c"

int fuzz_opt_linkbw(int argc, char **argv);
int fuzz_opt_hop(int argc, char **argv);

int fuzz_opt_linkbw(int argc, char **argv) {
  linkbw_opt_t o;
  return linkbw_parse(argc, argv, &o);
}

/* hop's defaults as cmd_hop sets them. */
int fuzz_opt_hop(int argc, char **argv) {
  mp1_hop_cfg_t c = {.kx = 4, .ky = 4, .sx = 0, .sy = 0, .dx = 3, .dy = 0, .len = 4,
                     .bg_len = 4, .seed = 1, .warmup = 0, .max_cycles = 1000000};
  const char *format = "table";
  return hop_options(argc, argv, &c, &format);
}
