# C104 network (docs/c104.md §15 "Network lockstep"): four switches of $(C104_TOP) in a 2 x 2 grid
# (tb/c104_net_tb.sv; +define+C104_MODULE selects the switch module), the inter-switch links D/S
# wires between the RTL instances and between the C models; ports 0-5 bit-level (links,
# loopback, one endpoint), the rest token ports. Read by the Makefile (settings: its "Blocks"
# section); the switch's RTL is in tb/c104.mk.

C104_NET_TOK    := FFFFFFC0
# (C104N_*: the names before tb/c104_net.mk)
C104N_SEEDS     ?= 1 2 3
C104N_CYCLES    ?= 20000
C104_NET_SEEDS  ?= $(C104N_SEEDS)
C104_NET_CYCLES ?= $(C104N_CYCLES)

c104_net.rtl      = $(C104_RTL) tb/c104_net_tb.sv
c104_net.top      = c104_net_tb
c104_net.prefix   = Vc104net
c104_net.tb       = tb/c104_net_lockstep.cpp
c104_net.deps     = $(wildcard tb/c104_net/*.h) tb/network.vlt
c104_net.vflags   = -GTokPorts=32\'h$(C104_NET_TOK) +define+C104_MODULE=$(C104_TOP) $(NET_VFLAGS)
# -O1 (after the recipe's -O2): four switches are 9 MB of generated C++ (NET_VFLAGS); -O1 compiles
# it in about half the time of -O2 and runs the tests only a little slower.
c104_net.cflags   = -DC104_NET_TOK_PORTS=0x$(C104_NET_TOK)u -DLOCKSTEP_CMP_REGS=$(C104_CMP_REGS) -O1
c104_net.seeded   = random
c104_net.runs     = $(call c104_runs,random,$(C104_NET_SEEDS),$(C104_NET_CYCLES))
# lint: the switch module's default TokPorts
c104_net.lint     = +define+C104_MODULE=$(C104_TOP)
# A few RTL mutants the network lockstep must kill (not in make test), with the runs of
# test-c104_net, so a mutant is killed or not by what make test runs; the switch's RTL mutated.
c104_net.mutants  = tb/c104_net_mutants.txt
c104_net.mut_rtl  = $(C104_RTL)
c104_net.mut_runs = $(c104_net.runs)
c104_net.mut_min  = 3
c104_net.cov_rtl  = tb/cov/dslink_cov.sv tb/cov/c104_cov.sv
# Four switches with toggle coverage: too large a build (c104 measures the same RTL's toggles).
c104_net.cov_kind = --coverage-line --coverage-user

# Yosys mutants of the network module alone (the switch RTL kept as RTL).
c104_net.ymut_mod  = c104_net_tb
c104_net.ymut_mods = c104_net_tb
c104_net.ymut_rtl  = tb/c104_net_tb.sv
c104_net.ymut_set  = chparam -set TokPorts 32'h$(C104_NET_TOK) c104_net_tb
c104_net.ymut_wp   = parameter int unsigned NSW = 4, parameter logic [31:0] TokPorts = 32'h0
c104_net.ymut_lib  = $(C104_RTL)
