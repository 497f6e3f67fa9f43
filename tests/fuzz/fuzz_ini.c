/* Fuzz target ini: the configuration-file path of `madpost sim` and `sweep`: the input is written
 * to a file and read by mp1_sim_cfg_load (net_ini_load's checks on lines, then inih, then
 * mp1_sim_cfg_set on every key); a loaded configuration then goes through mp1_sim_cfg_check and,
 * if legal, the echo (text and JSON), the rate and the memory estimate the commands compute.
 * Asserts, besides the sanitizers: a refusal always comes with a message naming the file
 * (docs/mp1_sim.md §5: "PATH: line N: REASON" or "PATH: REASON"). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <madpost/mp1_sim.h>

static char path[64];
static FILE *devnull;

static void remove_file(void) { remove(path); }

/* The file lives in memory (/dev/shm) where there is one: on disk each run waits on the file
   system, 100 times slower. */
static void setup(void) {
  snprintf(path, sizeof path, "/dev/shm/madpost-fuzz-ini-%ld.ini", (long)getpid());
  FILE *f = fopen(path, "wb");
  if (f)
    fclose(f);
  else
    snprintf(path, sizeof path, "/tmp/madpost-fuzz-ini-%ld.ini", (long)getpid());
  atexit(remove_file);
  devnull = fopen("/dev/null", "w");
  if (!devnull) abort();
}

static int write_input(const uint8_t *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  const size_t n = fwrite(data, 1, size, f);
  return fclose(f) || n != size ? -1 : 0;
}

/* The library calls, in one place. */
static void load_and_use(void) {
  mp1_sim_cfg_t c;
  char err[400] = "";
  mp1_sim_cfg_default(&c);
  if (mp1_sim_cfg_load(&c, path, err, sizeof err)) {
    if (strncmp(err, path, strlen(path))) {
      fprintf(stderr, "fuzz_ini: refusal without the file's name: '%s'\n", err);
      abort();
    }
    return;
  }
  if (mp1_sim_cfg_check(&c, err, sizeof err)) return;
  mp1_sim_cfg_text(&c, devnull, "# ");
  mp1_sim_cfg_json(&c, devnull);
  fprintf(devnull, "%g %u %zu\n", mp1_sim_rate(&c), mp1_sim_awf(&c), mp1_sim_bytes_per_node(&c));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!devnull) setup();
  if (write_input(data, size)) abort();
  load_and_use();
  return 0;
}
