# MP1 mesh (docs/mp1_sim.md §7): a KX x KY mesh of MP1 chips, RTL against C; as variants the
# unrolled torus and two-flit address words. Read by the Makefile (settings: its "Blocks"
# section); the chip's RTL and the MP1 seeds are in tb/mp1_chip.mk and tb/mp1_rm.mk.

MP1_MESH_RTL    ?= $(MP1_CHIP_RTL) rtl/mp1_mesh.sv
MESH_KX         ?= 4
MESH_KY         ?= 4
MP1_MESH_SEEDS  ?= 1 2 3
MP1_MESH_CYCLES ?= 50000
AWF2_MESH_SEEDS ?= 1 2

# The network's Verilator options (tb/network.vlt: the chip kept a module of its own): see
# NET_VFLAGS in the Makefile. $(call mp1_mesh_vflags,KX,KY,AWF), $(call mp1_mesh_cflags,...)
mp1_mesh_vflags = -GKX=$(1) -GKY=$(2) +define+MP1_CHIP_MODULE=$(MP1_CHIP_TOP) \
                  $(call mp1_awf_vflags,$(3)) $(NET_VFLAGS)
mp1_mesh_cflags = -DMESH_KX=$(1) -DMESH_KY=$(2) -DLOCKSTEP_CMP_REGS=$(MP1_CHIP_CMP_REGS) -DMP1_AWF=$(3)

mp1_mesh.rtl      = $(MP1_MESH_RTL)
mp1_mesh.top      = mp1_mesh
mp1_mesh.prefix   = Vmp1_mesh
mp1_mesh.tb       = tb/mp1_mesh_lockstep.cpp
mp1_mesh.deps     = $(MP1_TB_DEPS) tb/network.vlt
mp1_mesh.vflags   = $(call mp1_mesh_vflags,$(MESH_KX),$(MESH_KY),$(MP1_AWF))
mp1_mesh.cflags   = $(call mp1_mesh_cflags,$(MESH_KX),$(MESH_KY),$(MP1_AWF))
mp1_mesh.seeded   = random
mp1_mesh.runs     = $(call mp1_runs,$(MP1_MESH_SEEDS),$(MP1_MESH_CYCLES))
mp1_mesh.variants = torus awf2
mp1_mesh.mutants  = tb/mp1_mesh_mutants.txt
mp1_mesh.mut_runs = $(call mp1_runs,1 2 3 4,20000)
mp1_mesh.cov_rtl  = tb/cov/mp1_rm_cov.sv tb/cov/mp1_plane_cov.sv tb/cov/mp1_chip_cov.sv
# Sixteen chips with toggle coverage are too large a build for what it is worth (mp1_chip
# measures the toggles of the same RTL): line and user coverage only.
mp1_mesh.cov_kind = --coverage-line --coverage-user

# The unrolled torus (docs/mp1_sim.md §7): the default 4x4 build run as a 2x2 torus (--torus 2:
# chips numbered by level on the mesh's chip_i), random traffic from every chip to every chip, and
# the directed cases. piggy_inter and piggy_order expect the mesh's chip numbers (the piggyback
# re-injected at (2,0), a selection there): on the torus's numbering RTL and C still agree but the
# case's own check fails ("missing delivery at (2,3)", "bad selections at (2,0)"), so they run on
# the mesh only.
mp1_mesh-torus.build = mp1_mesh
mp1_mesh-torus.args  = --torus 2
mp1_mesh-torus.skip  = piggy_inter piggy_order

mp1_mesh-awf2.vflags = $(call mp1_mesh_vflags,$(MESH_KX),$(MESH_KY),2)
mp1_mesh-awf2.cflags = $(call mp1_mesh_cflags,$(MESH_KX),$(MESH_KY),2)
mp1_mesh-awf2.runs   = $(call mp1_runs,$(AWF2_MESH_SEEDS),$(AWF2_CYCLES))
# lint: a mesh wider than 5-bit coordinates reach, so AWF 2, and not square: 33 x 1, the least
# such (21 s; the 40 x 3 linted before took 89)
mp1_mesh-awf2.lint   = -GKX=33 -GKY=1 -GAWF=2 +define+MP1_CHIP_MODULE=$(MP1_CHIP_TOP)

# Yosys mutants of the network module alone (the wiring between chips; the chip RTL kept as RTL).
mp1_mesh.ymut_mod  = mp1_mesh
mp1_mesh.ymut_mods = mp1_mesh
mp1_mesh.ymut_rtl  = rtl/mp1_mesh.sv
mp1_mesh.ymut_set  = chparam -set KX $(MESH_KX) -set KY $(MESH_KY) mp1_mesh
mp1_mesh.ymut_wp   = parameter int unsigned KX = 4, parameter int unsigned KY = 4, parameter int AWF = 1
mp1_mesh.ymut_lib  = $(MP1_CHIP_RTL)
