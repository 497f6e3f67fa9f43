// The command line, the verdicts and main() of every lockstep bench (DS-Link, the MP1 routing
// machine, plane, chip and mesh, C104, C104 network): one parser, one failure report and one entry
// point, so their options, --help, --list and exit codes (0 matched, 1 failed, 2 usage) cannot
// drift apart.
#ifndef MADPOST_TB_COMMON_BENCH_H
#define MADPOST_TB_COMMON_BENCH_H

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "verilated.h"

#include "lockstep.h"

namespace bench {

struct Options {
  std::string test = "random";
  uint64_t seed = 1, cycles = 0;
  bool waves = false, trace_full = false, list = false;
  std::string wave_dir = "waves";
  uint64_t extra = 0;  // the value of the bench's own option (Spec::extra), 0 if not given
  wave::Format wave_format = wave::kVcd;  // of the merged wave
};

// What differs between the benches' command lines.
struct Spec {
  const char *prog;            // the name in usage errors: "c104_lockstep"
  uint64_t cycles;             // --cycles when not given
  bool trace_full;             // takes --trace-full (Verilator's own trace)
  int list_width;              // the name column of --list
  const char *about;           // --help's lines after the usage, a printf format of about_arg
  uint32_t about_arg;
  uint64_t min_cycles = 1000;  // the least --cycles taken
  const char *usage = nullptr;  // --help's usage line (a printf format of prog) if not the full one
  const char *extra = nullptr;  // an option of this bench's own taking a number, e.g. "--torus"
  const char *extra_help = nullptr;  // --help's line for it
};

// --help: the usage (the options this bench takes), then what it runs.
inline void help(const Spec &spec) {
  if (spec.usage) {
    std::printf(spec.usage, spec.prog);
  } else {
    const std::string prog = spec.prog, indent(std::string("usage: ").size() + prog.size() + 1, ' ');
    std::printf("usage: %s [--test NAME] [--seed S] [--cycles N] [--waves] [--wave-dir D]\n",
                spec.prog);
    std::printf("%s[--wave-format vcd|fst]\n", indent.c_str());
    std::printf("%s%s[--list] [+mutant=K]\n", indent.c_str(),
                spec.trace_full ? "[--trace-full] " : "");
  }
  if (spec.extra_help) std::printf("%s", spec.extra_help);
  if (spec.about) std::printf(spec.about, spec.about_arg);
}

// The merged wave's format: vcd, or fst where the build has Verilator's fstapi.
template <class Usage>
wave::Format wave_format(const std::string &v, Usage usage) {
  if (v == "vcd") return wave::kVcd;
  if (v != "fst") usage("--wave-format: '" + v + "' is neither vcd nor fst");
  if (!wave::have_fst())
    usage("--wave-format fst: this build has no FST writer (Verilator's fstapi.c was not found)");
  return wave::kFst;
}

// --test NAME --seed S --cycles N --waves --wave-dir D --wave-format F [--trace-full]
// [Spec::extra N] --list --help; Verilator's plusargs (+mutant=K) pass. A usage error exits 2 at
// the first bad argument.
inline Options parse(int argc, char **argv, const Spec &spec) {
  Options o;
  o.cycles = spec.cycles;
  auto usage = [&](const std::string &m) { lockstep::usage_error(spec.prog, m); };
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto val = [&](const char *what) -> std::string {
      if (i + 1 >= argc) usage(a + " needs " + what);
      return argv[++i];
    };
    auto num = [&](const char *what) -> uint64_t {
      std::string v = val(what);
      char *end = nullptr;
      unsigned long long n = std::strtoull(v.c_str(), &end, 0);
      if (v.empty() || *end || v[0] == '-') usage(a + ": '" + v + "' is not a number");
      return n;
    };
    if (a == "--test") o.test = val("a test name");
    else if (a == "--seed") o.seed = num("a seed");
    else if (a == "--cycles") o.cycles = num("a cycle count");
    else if (a == "--waves") o.waves = true;
    else if (a == "--wave-dir") o.wave_dir = val("a directory");
    else if (a == "--wave-format") o.wave_format = wave_format(val("vcd or fst"), usage);
    else if (a == "--trace-full" && spec.trace_full) o.trace_full = true;
    else if (a == "--list") o.list = true;
    else if (spec.extra && a == spec.extra) o.extra = num("a number");
    else if (a == "--help" || a == "-h") help(spec), std::exit(0);
    else if (a[0] == '+') continue;
    else usage("unknown option '" + a + "'");
  }
  if (o.cycles < spec.min_cycles)
    usage("--cycles must be at least " + std::to_string(spec.min_cycles));
  return o;
}

// The run's identity and its verdicts, the base of a bench's context object: the options, the
// lockstep harness, the cycle count, and the lines a failed or matched run prints.
class Run {
 public:
  Run(const char *blk, const Options &o) : o_(o), h_(blk, o.seed, o.test), blk_(blk) {
    h_.set_wave_out(o.wave_dir, o.wave_format);
  }

  // A failed check: the verdict, then the merged wave of the last cycles (or of the whole run).
  [[noreturn]] void fatal(const std::string &what) {
    h_.flush();
    std::printf("%s: FAILED test %s seed %" PRIu64 " at cycle %" PRIu64 ": %s\n", blk_, o_.test.c_str(),
                o_.seed, cyc_, what.c_str());
    h_.fail_waves(cyc_);
    std::exit(1);
  }
  void expect(bool ok, const std::string &what) {
    if (!ok) fatal("check failed: " + what);
  }
  template <class A, class B>
  void expect_eq(const A &got, const B &want, const std::string &what) {
    if ((uint64_t)got != (uint64_t)want)
      fatal("check failed: " + what + " = " + std::to_string((uint64_t)got) + ", expected " +
            std::to_string((uint64_t)want));
  }
  // A lockstep mismatch (the harness has printed the signals): the failure and how to see it.
  [[noreturn]] void mismatch() {
    h_.flush();
    std::printf("%s: FAILED test %s seed %" PRIu64 " at cycle %" PRIu64 "\n", blk_, o_.test.c_str(),
                o_.seed, cyc_);
    h_.fail_waves(cyc_);
    if (!o_.waves)
      std::printf("%s: the run is deterministic; rerun with --waves for the whole run (merged wave "
                  "and both VCDs): --test %s --seed %" PRIu64 " --cycles %" PRIu64 " --waves\n",
                  blk_, o_.test.c_str(), o_.seed, o_.cycles);
    std::exit(1);
  }
  // The end of a run: cycles until quiet() has held for 50 in a row, or a failure naming what
  // did not drain in `limit` cycles and what it still holds (pending()).
  template <class Cycle, class Quiet, class Pending>
  void settle(uint64_t limit, const std::string &what, Cycle cycle, Quiet quiet, Pending pending) {
    uint64_t calm = 0;
    for (uint64_t k = 0; calm < 50; k++) {
      if (k == limit) fatal("traffic stopped: " + what + " did not drain in " + std::to_string(limit) +
                            " cycles" + pending());
      cycle();
      calm = quiet() ? calm + 1 : 0;
    }
  }
  void matched() {
    h_.close();
    std::printf("%s: matched %" PRIu64 " cycles (seed %" PRIu64 ")\n", blk_, cyc_, o_.seed);
  }

  const Options &o_;
  lockstep::Harness h_;
  uint64_t cyc_ = 0;

 private:
  const char *blk_;
};

template <class Tb>
struct TestDef {
  const char *name;
  std::function<void(Tb &)> fn;
  const char *what;
};

// The cases of a bench whose directed cases are data (the MP1 benches: Case has name and what):
// "random" (Tb::run(nullptr)), then each case (Tb::run(&case)); `cases` must outlive main().
template <class Tb, class Case>
std::vector<TestDef<Tb>> case_tests(const std::vector<Case> &cases) {
  std::vector<TestDef<Tb>> t{{"random", [](Tb &tb) { tb.run(nullptr); }, ""}};
  for (const Case &c : cases) t.push_back({c.name, [&c](Tb &tb) { tb.run(&c); }, c.what});
  return t;
}

// main() of a bench: --list (one case a line, its name first; a case with no description is its
// name alone), or the named case run on a fresh Tb(options, context) after its reset; exit 0 when
// it matched (the case's checks exit 1 and usage errors 2 on their own).
template <class Tb>
int main(int argc, char **argv, const Spec &spec, const std::vector<TestDef<Tb>> &tests) {
  const Options o = parse(argc, argv, spec);
  if (o.list) {
    for (const TestDef<Tb> &t : tests) {
      if (*t.what)
        std::printf("%-*s %s\n", spec.list_width, t.name, t.what);
      else
        std::printf("%s\n", t.name);
    }
    return 0;
  }
  const TestDef<Tb> *def = nullptr;
  for (const TestDef<Tb> &t : tests)
    if (o.test == t.name) def = &t;
  if (!def) lockstep::usage_error(spec.prog, "unknown test '" + o.test + "' (--list shows them)");
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  auto tb = std::make_unique<Tb>(o, ctx.get());
  if (tb->open_waves()) return 2;
  tb->reset();
  def->fn(*tb);
  tb->finish();
  lockstep::cov_write(ctx.get());
  return 0;
}

}  // namespace bench

#endif
