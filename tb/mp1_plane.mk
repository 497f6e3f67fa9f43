# MP1 plane (docs/mp1.md §10): two routing machines and their output arbiters, RTL against C.
# Read by the Makefile (settings: its "Blocks" section); the MP1 seeds are in tb/mp1_rm.mk.

MP1_PLANE_RTL   ?= rtl/mp1_rm_copy.sv rtl/mp1_rm.sv rtl/mp1_arb.sv rtl/mp1_plane.sv
MP1_PLANE_TOP   ?= mp1_plane

mp1_plane.rtl      = $(MP1_PLANE_RTL)
mp1_plane.top      = $(MP1_PLANE_TOP)
mp1_plane.prefix   = Vmp1_plane
mp1_plane.tb       = tb/mp1_plane_lockstep.cpp
mp1_plane.deps     = $(MP1_TB_DEPS)
mp1_plane.vflags   = $(call mp1_awf_vflags,$(MP1_AWF))
mp1_plane.cflags   = -DMP1_AWF=$(MP1_AWF)
mp1_plane.seeded   = random
mp1_plane.runs     = $(call mp1_runs,$(MP1_SEEDS),$(MP1_CYCLES))
mp1_plane.variants = awf2
mp1_plane.synth    = yes
mp1_plane.ports    = $(BUILD)/portlist
mp1_plane.mutants  = tb/mp1_plane_mutants.txt
mp1_plane.mut_reset = rtl/mp1_arb.sv
mp1_plane.mut_runs = $(MP1_MUT_RUNS)
mp1_plane.cov_rtl  = tb/cov/mp1_rm_cov.sv tb/cov/mp1_plane_cov.sv
# (err_x and err_y: their senders ignore stop on purpose; see mp1_rm.cov_skip)
mp1_plane.cov_skip = err_x err_y

mp1_plane-awf2.vflags = -GAWF=2
mp1_plane-awf2.cflags = -DMP1_AWF=2
mp1_plane-awf2.runs   = $(call mp1_runs,$(AWF2_SEEDS),$(AWF2_CYCLES))
mp1_plane-awf2.ports  = $(BUILD)/portlist_awf2
mp1_plane-awf2.ports_args = -GAWF=2

mp1_plane.ymut_mod  = $(MP1_PLANE_TOP)
mp1_plane.ymut_mods = mp1_plane mp1_arb
mp1_plane.ymut_rtl  = $(MP1_PLANE_RTL)
mp1_plane.ymut_wp   = parameter int AWF = 1
