/* fst2vcd FILE.fst: an FST wave file as VCD on stdout, through Verilator's fstapi (the reader of
 * the library the lockstep benches write FST with), so make test checks an FST merged wave with
 * the same script as a VCD one and needs no GTKWave. */
#include <stdio.h>

#include "gtkwave/fstapi.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: fst2vcd FILE.fst\n");
    return 2;
  }
  void *r = fstReaderOpen(argv[1]);
  if (!r) {
    fprintf(stderr, "fst2vcd: %s is not a readable FST file\n", argv[1]);
    return 1;
  }
  if (!fstReaderProcessHier(r, stdout)) {
    fprintf(stderr, "fst2vcd: %s: no hierarchy\n", argv[1]);
    fstReaderClose(r);
    return 1;
  }
  fstReaderSetFacProcessMaskAll(r);
  const int ok = fstReaderIterBlocks(r, NULL, NULL, stdout);
  fstReaderClose(r);
  return ok && !ferror(stdout) ? 0 : 1;
}
