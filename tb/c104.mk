# C104 packet switch (docs/c104.md §15): 32 link ends, RTL against C, built per TokPorts (hex; bit
# p = 1: port p is a token port): the block itself at FFFFFFF0 (ports 0-3 on the full D/S path:
# the directed cases and most runs), the variants b16 (FFFF0000, 16 links) and b32 (0, every port
# a link: the largest build). Read by the Makefile (settings: its "Blocks" section).

# ---- The RTL under test: point these at your own RTL with the same ports ---------------------------
C104_RTL        ?= $(DSLINK_RTL) rtl/c104_cfg.sv rtl/c104_slice.sv rtl/c104_arb.sv rtl/c104.sv
C104_TOP        ?= c104
# 0 compares outputs only (for RTL without the dbg_*_o register observation ports)
C104_CMP_REGS   ?= 1
# 1 compiles Verilator's trace in (--trace-full); off by default: the design is large
C104_TRACE      ?= 0

# ---- Seeds and cycles ---------------------------------------------------------------------------------
C104_SEEDS       ?= 1 2 3 4
C104_CYCLES      ?= 40000
C104_FAULT_SEEDS ?= 5
C104_RECONFIG_SEEDS ?= 7
C104_WILD_SEEDS  ?= 8
C104_B16_SEEDS   ?= 6
C104_BIT_SEEDS   ?= 1 2
C104_BIT_CYCLES  ?= 40000

c104_vflags = -GTokPorts=32\'h$(1)
c104_cflags = -DC104_TOK_PORTS=0x$(1)u -DLOCKSTEP_CMP_REGS=$(C104_CMP_REGS)
# $(call c104_runs,MODE,SEEDS,CYCLES)
c104_runs   = $(foreach s,$(2),'--test $(1) --seed $(s) --cycles $(3)')

c104.rtl      = $(C104_RTL)
c104.top      = $(C104_TOP)
c104.prefix   = Vc104
c104.tb       = tb/c104_lockstep.cpp
c104.deps     = $(wildcard tb/c104/*.h)
c104.vflags   = $(call c104_vflags,FFFFFFF0)
c104.trace    = $(if $(filter 1,$(C104_TRACE)),--trace)
c104.cflags   = $(call c104_cflags,FFFFFFF0)
c104.seeded   = random faults reconfig wild
c104.runs     = $(call c104_runs,random,$(C104_SEEDS),$(C104_CYCLES)) \
                $(call c104_runs,faults,$(C104_FAULT_SEEDS),$(C104_CYCLES)) \
                $(call c104_runs,reconfig,$(C104_RECONFIG_SEEDS),$(C104_CYCLES)) \
                $(call c104_runs,wild,$(C104_WILD_SEEDS),$(C104_CYCLES))
c104.variants = b16 b32
# lint: also every port a token port
c104.lint_extra = -GTokPorts=32\'hFFFFFFFF
c104.synth    = yes
c104.ports    = $(BUILD)/portlist
c104.mutants  = tb/c104_mutants.txt
c104.mut_reset = rtl/c104_cfg.sv rtl/c104_slice.sv rtl/c104_arb.sv
c104.mut_runs = $(call c104_runs,random,1 2 3 4 5 6,15000)
c104.cov_rtl  = tb/cov/dslink_cov.sv tb/cov/c104_cov.sv

# More ports on the full D/S path: random, fault and reconfiguration runs only, as before this
# file: the directed cases are written for FFFFFFF0 (the bench refuses, exit 2, a case its build's
# TokPorts cannot run) and run in test-c104.
c104-b16.vflags = $(call c104_vflags,FFFF0000)
c104-b16.cflags = $(call c104_cflags,FFFF0000)
c104-b16.skip   = all
c104-b16.runs   = $(call c104_runs,random,$(C104_B16_SEEDS),$(C104_CYCLES))
c104-b32.vflags = $(call c104_vflags,00000000)
c104-b32.cflags = $(call c104_cflags,00000000)
c104-b32.skip   = all
c104-b32.runs   = $(call c104_runs,random,$(C104_BIT_SEEDS),$(C104_BIT_CYCLES)) \
                  $(call c104_runs,faults,3,$(C104_BIT_CYCLES)) $(call c104_runs,reconfig,4,$(C104_BIT_CYCLES))

c104.ymut_mod  = $(C104_TOP)
c104.ymut_mods = c104 c104_cfg c104_slice c104_arb
c104.ymut_rtl  = $(C104_RTL)
c104.ymut_set  = chparam -set TokPorts 32'hFFFFFFF0 $(C104_TOP)
c104.ymut_wp   = parameter logic [31:0] TokPorts = 32'h0

# Gate level (the Makefile's gate_rules): the netlist of synth -flatten at TokPorts FFFFFFF0 in
# this bench, every directed case, short random runs (+no_backdoor: the counters are not walked);
# mutant 1 must be caught. Not in make test-gate unless C104_GATE=yes: 288 121 cells, Yosys about
# 5 CPU-minutes and 3.9 GB, the Verilator build 10 and 1.7 GB (tb/README.md, "Gate-level lockstep").
C104_GATE        ?= no
C104_GATE_CYCLES ?= 10000
c104.gate        = $(C104_GATE)
c104.gate_runs   = $(call c104_runs,random,$(GATE_SEEDS),$(C104_GATE_CYCLES))
c104.gate_mutant = 1
