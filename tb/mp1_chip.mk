# MP1 chip (docs/mp1.md §11): two planes, the injection and reception logic, RTL against C.
# Read by the Makefile (settings: its "Blocks" section); the MP1 seeds are in tb/mp1_rm.mk.

MP1_CHIP_RTL    ?= rtl/mp1_rm_copy.sv rtl/mp1_rm.sv rtl/mp1_arb.sv rtl/mp1_plane.sv rtl/mp1_rr_arb.sv rtl/mp1_inj.sv rtl/mp1_chip.sv
MP1_CHIP_TOP    ?= mp1_chip
# 0 compares outputs only (for RTL without the register observation ports); also the mesh's
MP1_CHIP_CMP_REGS ?= 1

mp1_chip.rtl      = $(MP1_CHIP_RTL)
mp1_chip.top      = $(MP1_CHIP_TOP)
mp1_chip.prefix   = Vmp1_chip
mp1_chip.tb       = tb/mp1_chip_lockstep.cpp
mp1_chip.deps     = $(MP1_TB_DEPS)
mp1_chip.vflags   = $(call mp1_awf_vflags,$(MP1_AWF))
mp1_chip.cflags   = -DLOCKSTEP_CMP_REGS=$(MP1_CHIP_CMP_REGS) -DMP1_AWF=$(MP1_AWF)
mp1_chip.seeded   = random
mp1_chip.runs     = $(call mp1_runs,$(MP1_SEEDS),$(MP1_CYCLES))
mp1_chip.variants = awf2
mp1_chip.synth    = yes
mp1_chip.ports    = $(BUILD)/portlist
mp1_chip.mutants  = tb/mp1_chip_mutants.txt
mp1_chip.mut_reset = rtl/mp1_rr_arb.sv rtl/mp1_inj.sv
mp1_chip.mut_runs = $(MP1_MUT_RUNS)
mp1_chip.cov_rtl  = tb/cov/mp1_rm_cov.sv tb/cov/mp1_plane_cov.sv tb/cov/mp1_chip_cov.sv
# (see mp1_rm.cov_skip)
mp1_chip.cov_skip = err_stop_ignored

mp1_chip-awf2.vflags = -GAWF=2
mp1_chip-awf2.cflags = -DLOCKSTEP_CMP_REGS=$(MP1_CHIP_CMP_REGS) -DMP1_AWF=2
mp1_chip-awf2.runs   = $(call mp1_runs,$(AWF2_SEEDS),$(AWF2_CYCLES))
mp1_chip-awf2.ports  = $(BUILD)/portlist_awf2
mp1_chip-awf2.ports_args = -GAWF=2

mp1_chip.ymut_mod  = $(MP1_CHIP_TOP)
mp1_chip.ymut_mods = mp1_chip mp1_rr_arb mp1_inj
mp1_chip.ymut_rtl  = $(MP1_CHIP_RTL)
mp1_chip.ymut_wp   = parameter int AWF = 1

# Gate level (make gate-mp1_chip, gate-mutant-mp1_chip: the Makefile's gate_rules): the netlist of
# synth -flatten in this bench, every case, short random runs (+no_backdoor: see tb/mp1_rm.mk);
# mutant 1 (a reception owner never releases) must be caught.
MP1_CHIP_GATE_CYCLES ?= 20000
mp1_chip.gate        = yes
mp1_chip.gate_runs   = $(call mp1_runs,$(GATE_SEEDS),$(MP1_CHIP_GATE_CYCLES))
mp1_chip.gate_mutant = 1
