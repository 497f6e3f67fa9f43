/* Shim for fuzz_opt.c: tools/madpost_c104.c included, so that `c104net`'s option parser and
 * setters (parse_args, set_*) run without the network simulation. */
#include "../../tools/madpost_c104.c"

int fuzz_opt_c104net(int argc, char **argv);

int fuzz_opt_c104net(int argc, char **argv) {
  c104_net_cfg_t c;
  c104_net_cfg_default(&c);
  const char *format = "table";
  int rc = 0;
  return parse_args(argc, argv, &c, &format, &rc) ? rc : 0;
}
