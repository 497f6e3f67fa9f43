/* The one port list of the C104 switch (docs/c104.md §6, §8): inputs, outputs and architectural
 * registers. It generates the C structs (include/madpost/c104.h), the lockstep copy-in, collect,
 * compare, VCD declarations and mismatch lines (tb/common/ports.h), and `make check-ports`
 * (tools/portlist.c).
 *
 * Form: X(name, count, width), as every port list. The direction is given by the list
 * (C104_INPUTS, C104_OUTPUTS, C104_REGS), as for the other blocks; docs/c104.md §6 writes
 * X(name, dir, count, width).
 * count is the literal 1 or 32 (C104_PORTS): a port of count 32 is one packed RTL vector of
 * 32 * width bits, element p in bits [p*width +: width]; in C it is the array name[32] (a scalar
 * when count is 1), read generically with C104_AT(lvalue, count, k) (include/madpost/c104.h). A lockstep
 * signal table expands a count-32 entry into 32 signals of `width` bits named name_i[p],
 * name_o[p], name_q[p] (the mismatch line of §15: sig=sl_st[7]).
 * RTL names: name_i, name_o, name_q and dbg_name_o; clk_i and rst_ni are not listed. Order
 * matters only for printing (and for check-ports). */
#ifndef MADPOST_C104_PORTS_H
#define MADPOST_C104_PORTS_H

#include <madpost/dslink_ports.h>

#define C104_INPUTS(X)   \
  X(cfg_we, 1, 1)        \
  X(cfg_addr, 1, 8)      \
  X(cfg_wdata, 1, 32)    \
  X(link_en, 32, 1)      \
  X(d, 32, 1)            \
  X(s, 32, 1)            \
  X(tok_rx_valid, 32, 1) \
  X(tok_rx_data, 32, 8)  \
  X(tok_rx_kind, 32, 2)  \
  X(tok_tx_ready, 32, 1)

#define C104_OUTPUTS(X)  \
  X(d, 32, 1)            \
  X(s, 32, 1)            \
  X(tok_rx_ready, 32, 1) \
  X(tok_tx_valid, 32, 1) \
  X(tok_tx_data, 32, 8)  \
  X(tok_tx_kind, 32, 2)  \
  X(link_state, 32, 3)

/* Architectural registers (§8), in the order of its table. */
#define C104_REGS(X)   \
  X(cfg_port, 32, 4)   \
  X(cfg_rlo, 32, 16)   \
  X(cfg_rhi, 32, 16)   \
  X(lfsr, 32, 16)      \
  X(cfg_ihi, 32, 16)   \
  X(cfg_iport, 32, 5)  \
  X(cfg_ival, 32, 1)   \
  X(cfg_nint, 1, 6)    \
  X(cfg_rr, 1, 1)      \
  X(cfg_grp, 1, 32)    \
  X(sl_st, 32, 3)      \
  X(sl_hcnt, 32, 1)    \
  X(sl_skip, 32, 1)    \
  X(sl_hdr, 32, 16)    \
  X(sl_ecnt, 32, 2)    \
  X(sl_grp, 32, 5)     \
  X(sl_port, 32, 5)    \
  X(out_busy, 1, 32)   \
  X(out_owner, 32, 5)  \
  X(age, 32, 32)       \
  X(rr, 32, 5)         \
  X(cnt_pkt, 32, 16)   \
  X(cnt_bad, 32, 16)   \
  X(cnt_short, 32, 16) \
  X(cnt_cut, 32, 16)   \
  X(cnt_stray, 32, 16)

/* The link registers (§6 dbg_l_<reg>_o): every DSLINK_REGS entry X(name, 1, width), taken with
 * count 32 and the l_ prefix (RTL dbg_l_<name>_o, 32 * width bits; 0 for token ports). In C, port
 * p's value is st->link[p].r.<name>. (The preprocessor cannot change the count and the prefix
 * under a caller's X, so a consumer's X for this list ignores the count it is given.) */
#define C104_LINK_REGS(X) DSLINK_REGS(X)

/* Parameters: X(RtlName, c_field, default) (§4); the link's differ from dslink's own defaults. */
#define C104_PARAMS(X)                             \
  X(TokPorts, tok_ports, 0)                        \
  X(BitPeriod, link.bit_period, 1)                 \
  X(RxDepth, link.rx_depth, 40)                    \
  X(TxDepth, link.tx_depth, 35)                    \
  X(TxCreditMax, link.tx_credit_max, 40)           \
  X(DisconnectCycles, link.disconnect_cycles, 8)   \
  X(ResetCycles, link.reset_cycles, 64)            \
  X(WaitCycles, link.wait_cycles, 128)             \
  X(TimeoutCycles, link.timeout_cycles, 128)

#endif
