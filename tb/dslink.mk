# DS-Link (docs/dslink.md): one link end; the bench runs two RTL ends against two C model ends.
# Read by the Makefile, whose block macro makes this block's targets from the settings below
# (their meaning: the Makefile's "Blocks" section).

# ---- The RTL under test: point these at your own RTL with the same ports ---------------------------
DSLINK_RTL      ?= rtl/dslink_fifo.sv rtl/dslink_rx.sv rtl/dslink_tx.sv rtl/dslink_fsm.sv rtl/dslink.sv
DSLINK_TOP      ?= dslink
# Parameters for both sides, e.g. DSLINK_PARAMS=BitPeriod=3,RxDepth=64
DSLINK_PARAMS   ?=
# 0 compares outputs only (for RTL without the dbg_*_o register observation ports)
DSLINK_CMP_REGS ?= 1
# 1 compiles Verilator's full internal trace in (switched on at run time by --trace-full)
TRACE           ?= 1

# ---- Seeds and cycles ---------------------------------------------------------------------------------
RANDOM_CYCLES   ?= 2000000
RANDOM_SEEDS    ?= 1 2
FAULT_SEEDS     ?= 3 4
DSLINK_BP3_CYCLES      ?= 600000
DSLINK_BP3_SEEDS       ?= 5
DSLINK_BP3_FAULT_SEEDS ?= 6
# make coverage-dslink's random and fault runs
COV_DSLINK_CYCLES ?= $(RANDOM_CYCLES)

dslink_params = $(addprefix -G,$(subst $(comma), ,$(1)))
# random and fault runs: $(call dslink_runs,RANDOM_SEEDS,FAULT_SEEDS,CYCLES)
dslink_runs = $(foreach s,$(1),'--test random --seed $(s) --cycles $(3)') \
              $(foreach s,$(2),'--test faults --seed $(s) --cycles $(3)')

dslink.rtl      = $(DSLINK_RTL)
dslink.top      = $(DSLINK_TOP)
dslink.prefix   = Vdslink
dslink.tb       = tb/dslink_lockstep.cpp
dslink.deps     = $(wildcard tb/dslink/*.h)
dslink.vflags   = $(call dslink_params,$(DSLINK_PARAMS))
dslink.trace    = $(if $(filter 1,$(TRACE)),--trace)
dslink.cflags   = -DDSLINK_GPARAMS='\"$(DSLINK_PARAMS)\"' -DLOCKSTEP_CMP_REGS=$(DSLINK_CMP_REGS)
# Every case the bench lists runs with --seed 1, but its seeded modes, which run as below.
dslink.seeded   = random faults
dslink.case_args = --seed 1
dslink.runs     = $(call dslink_runs,$(RANDOM_SEEDS),$(FAULT_SEEDS),$(RANDOM_CYCLES))
dslink.variants = bp3
dslink.synth    = yes
dslink.ports    = $(BUILD)/portlist
dslink.mutants  = tb/dslink_mutants.txt
dslink.mut_reset = $(DSLINK_RTL)
dslink.mut_runs = '--test random --seed 11 --cycles 60000' '--test faults --seed 12 --cycles 100000'
dslink.cov_rtl  = tb/cov/dslink_cov.sv
dslink.cov_runs = $(call dslink_runs,$(RANDOM_SEEDS),$(FAULT_SEEDS),$(COV_DSLINK_CYCLES))

# A bit period of 3 cycles: the same suite, shorter runs (lint: with the other FIFO depths too).
dslink-bp3.vflags = -GBitPeriod=3
dslink-bp3.cflags = -DDSLINK_GPARAMS='\"BitPeriod=3\"' -DLOCKSTEP_CMP_REGS=$(DSLINK_CMP_REGS)
dslink-bp3.lint   = -GBitPeriod=3 -GRxDepth=64 -GTxDepth=2
dslink-bp3.runs   = $(call dslink_runs,$(DSLINK_BP3_SEEDS),$(DSLINK_BP3_FAULT_SEEDS),$(DSLINK_BP3_CYCLES))

# Yosys mutants (make mutants-yosys BLOCK=dslink): the modules sampled, the RTL.
dslink.ymut_mod  = $(DSLINK_TOP)
dslink.ymut_mods = dslink dslink_fsm dslink_rx dslink_tx dslink_fifo
dslink.ymut_rtl  = $(DSLINK_RTL)

# Gate level (make gate-dslink, gate-mutant-dslink: the Makefile's gate_rules): the netlist of
# synth -flatten in this bench, every case but counters (it writes the counters by name, which a
# flattened netlist does not keep), short seeded runs; mutant 1 (parity) must be caught.
DSLINK_GATE_CYCLES ?= 100000
dslink.gate        = yes
dslink.gate_skip   = counters
dslink.gate_runs   = $(call dslink_runs,$(GATE_SEEDS),$(GATE_FAULT_SEEDS),$(DSLINK_GATE_CYCLES))
dslink.gate_mutant = 1
