/* Shim for fuzz_opt.c: tools/madpost_sim.c included, so that the option handling of `sim` and
 * `sweep` (parse_opts with each command's extra options, then the file-clash checks) runs
 * without the simulation. */
#include "../../tools/madpost_sim.c"

int fuzz_opt_sim(int argc, char **argv);
int fuzz_opt_sweep(int argc, char **argv);

int fuzz_opt_sim(int argc, char **argv) {
  mp1_sim_cfg_t c;
  const char *format = "table", *files[2] = {NULL, NULL};
  const int e = parse_opts(argc, argv, &c, &format, sim_extra, files, "sim");
  if (e) return e;
  return sim_files_clash(argc, argv, files[0], files[1]);
}

int fuzz_opt_sweep(int argc, char **argv) {
  mp1_sim_cfg_t c;
  const char *format = "csv";
  sweep_opts_t o = {.from = 5, .to = 100, .step = 5, .after = 1, .out = NULL, .name = "sweep",
                    .plots = 1};
  const int e = parse_opts(argc, argv, &c, &format, sweep_extra, &o, "sweep");
  if (e || !o.out) return e ? e : 2;
  char path[4096];
  sweep_path(&o, "csv", path, sizeof path);
  if (config_clash(argc, argv, "sweep", "--out", path)) return 2;
  /* the point count sweep allocates for */
  const uint32_t npts = (uint32_t)floor((o.to - o.from) / o.step + 1e-9) + 1;
  return npts > 1000 ? 3 : 0;
}
