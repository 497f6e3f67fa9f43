# MP1 routing machine (docs/mp1.md §8): RTL against C model, directed cases and random runs.
# Also the settings every MP1 level shares (address words, seeds, mutant runs). Read by the
# Makefile, whose block macro makes the targets (settings: the Makefile's "Blocks" section).

# ---- The RTL under test: point these at your own RTL with the same ports ---------------------------
MP1_RM_RTL      ?= rtl/mp1_rm_copy.sv rtl/mp1_rm.sv
MP1_RM_TOP      ?= mp1_rm
# 0 compares outputs only (for RTL without the register observation ports)
MP1_RM_CMP_REGS ?= 1

# ---- Shared by every MP1 level ------------------------------------------------------------------
# Address flits per address word (docs/mp1.md §14) of every MP1 build but the awf2 variants: the
# RTL gets -GAWF (only when not 1, so an RTL without the parameter still builds), the bench
# -DMP1_AWF.
MP1_AWF         ?= 1
mp1_awf_vflags   = $(if $(filter-out 1,$(1)),-GAWF=$(1))
MP1_SEEDS       ?= 1 2 3 4 5 6 7 8 9 10
MP1_CYCLES      ?= 200000
# The awf2 variants (two-flit address words, docs/mp1.md §14): short runs, addresses over 13 bits.
AWF2_SEEDS      ?= 1 2 3
AWF2_CYCLES     ?= 20000
# random runs: $(call mp1_runs,SEEDS,CYCLES) (the MP1 benches' default case is random)
mp1_runs         = $(foreach s,$(1),'--seed $(s) --cycles $(2)')
MP1_MUT_RUNS    := $(call mp1_runs,1 2 3 4 5 6,100000)
MP1_TB_DEPS      = tb/mp1_stim.h

mp1_rm.rtl      = $(MP1_RM_RTL)
mp1_rm.top      = $(MP1_RM_TOP)
mp1_rm.prefix   = Vmp1_rm
mp1_rm.tb       = tb/mp1_rm_lockstep.cpp
mp1_rm.deps     = $(MP1_TB_DEPS)
mp1_rm.vflags   = $(call mp1_awf_vflags,$(MP1_AWF))
mp1_rm.cflags   = -DLOCKSTEP_CMP_REGS=$(MP1_RM_CMP_REGS) -DMP1_AWF=$(MP1_AWF)
mp1_rm.seeded   = random
mp1_rm.runs     = $(call mp1_runs,$(MP1_SEEDS),$(MP1_CYCLES))
mp1_rm.variants = awf2
mp1_rm.synth    = yes
mp1_rm.ports    = $(BUILD)/portlist
mp1_rm.mutants  = tb/mp1_rm_mutants.txt
mp1_rm.mut_reset = rtl/mp1_rm.sv
mp1_rm.mut_runs = $(MP1_MUT_RUNS)
mp1_rm.cov_rtl  = tb/cov/mp1_rm_cov.sv
# (err_stop_ignored's sender ignores stop on purpose, so it reaches the occupancy and err
# coverpoints tb/cov/unreachable.txt lists as unreachable for senders that honour stop)
mp1_rm.cov_skip = err_stop_ignored

mp1_rm-awf2.vflags = -GAWF=2
mp1_rm-awf2.cflags = -DLOCKSTEP_CMP_REGS=$(MP1_RM_CMP_REGS) -DMP1_AWF=2
mp1_rm-awf2.runs   = $(call mp1_runs,$(AWF2_SEEDS),$(AWF2_CYCLES))
mp1_rm-awf2.ports  = $(BUILD)/portlist_awf2
mp1_rm-awf2.ports_args = -GAWF=2
# The wide-address logic's own mutants (no reset-value mutants: the default build has them).
mp1_rm-awf2.mutants  = tb/mp1_rm_awf2_mutants.txt
mp1_rm-awf2.mut_runs = $(MP1_MUT_RUNS)

mp1_rm.ymut_mod  = $(MP1_RM_TOP)
mp1_rm.ymut_mods = mp1_rm mp1_rm_copy
mp1_rm.ymut_rtl  = $(MP1_RM_RTL)
mp1_rm.ymut_wp   = parameter int AWF = 1

# Gate level (make gate-mp1_rm, gate-mutant-mp1_rm: the Makefile's gate_rules): the netlist of
# synth -flatten in this bench, every case, short random runs (+no_backdoor: the counters are not
# walked, a flattened netlist does not keep their names); mutant 1 (plane direction) must be caught.
MP1_RM_GATE_CYCLES ?= 100000
mp1_rm.gate        = yes
mp1_rm.gate_runs   = $(call mp1_runs,$(GATE_SEEDS),$(MP1_RM_GATE_CYCLES))
mp1_rm.gate_mutant = 1
