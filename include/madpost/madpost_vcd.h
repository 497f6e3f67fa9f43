/* Minimal VCD writer shared by the C models and the lockstep testbenches, so that both sides of a
 * lockstep write identical scopes, names and time base. */
#ifndef MADPOST_VCD_H
#define MADPOST_VCD_H

#include <madpost/madpost_api.h>
#include <stdint.h>
#include <stdio.h>

MADPOST_BEGIN_DECLS

typedef struct madpost_vcd_sig {
  char id[8];
  uint32_t width;
  uint64_t last;
  int dumped;
} madpost_vcd_sig_t;

typedef struct {
  FILE *f;
  madpost_vcd_sig_t *sigs;
  uint32_t nsigs, cap;
  uint64_t time;
  int time_written;
  int defs_done;
} madpost_vcd_t;

/* Opens path for writing; timescale such as "1ns". Returns 0 or -1 (errno set). */
int madpost_vcd_open(madpost_vcd_t *v, const char *path, const char *timescale);
void madpost_vcd_scope(madpost_vcd_t *v, const char *name);
void madpost_vcd_upscope(madpost_vcd_t *v);
/* Declares a wire; returns its handle (index). */
uint32_t madpost_vcd_wire(madpost_vcd_t *v, const char *name, uint32_t width);
void madpost_vcd_enddefs(madpost_vcd_t *v);
void madpost_vcd_time(madpost_vcd_t *v, uint64_t t);
/* Writes the value if it changed since the last write (or was never written). */
void madpost_vcd_val(madpost_vcd_t *v, uint32_t sig, uint64_t val);
void madpost_vcd_flush(madpost_vcd_t *v);
/* 0, or -1 if anything written to the file failed to reach it (it is closed either way). */
int madpost_vcd_close(madpost_vcd_t *v);

MADPOST_END_DECLS
#endif
