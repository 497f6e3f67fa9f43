/* FIFO pointer arithmetic shared by the transmit and receive FIFOs (docs/dslink.md §7). */
#include "dslink_int.h"

void dslink_fifo_step(uint32_t depth, uint32_t wptr, uint32_t rptr, uint32_t cnt, int we, int re,
                      uint32_t *wptr_d, uint32_t *rptr_d, uint32_t *cnt_d) {
  /* Depths need not be powers of two (the receive FIFO has RxDepth + 1 entries), so wrap
   * explicitly. */
  *wptr_d = we ? (wptr == depth - 1 ? 0 : wptr + 1) : wptr;
  *rptr_d = re ? (rptr == depth - 1 ? 0 : rptr + 1) : rptr;
  *cnt_d = cnt + (we ? 1u : 0u) - (re ? 1u : 0u);
}
