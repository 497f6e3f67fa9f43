// The SystemC demonstrations' command line (tb/sc/*.cpp): the options they share, and a demo's own
// through a callback. A usage error exits 2 naming the problem.
#ifndef MADPOST_TB_SC_OPTS_H
#define MADPOST_TB_SC_OPTS_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

namespace madpost_sc {

struct DemoOpts {
  uint64_t cycles = 0, seed = 1, corrupt = 0;
  std::string waves;               // directory, empty: none
  std::string wave_dir = "waves";  // a failure's merged wave (--waves DIR sets it too)
  bool bench = false;
};

[[noreturn]] inline void demo_usage(const char *prog, const char *usage_opts, const std::string &msg) {
  std::fprintf(stderr, "%s: %s\nusage: %s %s\n", prog, msg.c_str(), prog, usage_opts);
  std::exit(2);
}

// A decimal number, or a usage error.
inline uint64_t demo_number(const char *prog, const char *usage_opts, const char *v) {
  char *end;
  const unsigned long long n = std::strtoull(v, &end, 10);
  if (!*v || *end || *v == '-') demo_usage(prog, usage_opts, "not a number: " + std::string(v));
  return n;
}

// prog: the demo's name; usage: its usage line's options; `own(name, value)` takes a demo's own
// option (true) or declines it (false: unknown). Every option but --bench takes a value.
inline void demo_parse(int argc, char **argv, const char *prog, const char *usage_opts, DemoOpts *o,
                       const std::function<bool(const std::string &, const char *)> &own) {
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if (a == "--bench") {
      o->bench = true;
      continue;
    }
    if (i + 1 >= argc) demo_usage(prog, usage_opts, "missing value after " + a);
    const char *v = argv[++i];
    if (a == "--waves" || a == "--wave-dir") {
      o->wave_dir = v;
      if (a == "--waves") o->waves = v;
      continue;
    }
    if (own(a, v)) continue;
    const uint64_t n = demo_number(prog, usage_opts, v);
    if (a == "--cycles") o->cycles = n;
    else if (a == "--seed") o->seed = n;
    else if (a == "--corrupt") o->corrupt = n;
    else demo_usage(prog, usage_opts, "unknown option " + a);
  }
}

}  // namespace madpost_sc

#endif
