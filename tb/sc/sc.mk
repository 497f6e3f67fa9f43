# The SystemC layer (docs/systemc.md): the generated modules' test and pin proof, the
# demonstrations. Read by the Makefile after the blocks' .mk files (it uses their rtl, top and
# vflags). Built -std=gnu++17: Debian's SystemC is C++17 (other standards fail to link on
# sc_api_version).
SC_DIR    := $(BUILD)/sc
SC_HDRS   := $(wildcard include/madpost/sc/*.h)
SC_CXX    := g++ -std=gnu++17 -Wall -Wextra -Werror -g -O1 -Iinclude
SC_ENV    := SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
SC_BLOCKS := dslink mp1_rm mp1_plane mp1_chip c104
SC_CYCLES ?= 20000

# `verilator --sc` of a block's RTL, C++ only (nothing built): the pins its Verilated module has.
define sc_pins_rule
$(SC_DIR)/pins/$(1)/V$(1).h: $$($(1).rtl)
	@mkdir -p $$(@D)
	verilator --sc --top-module $$($(1).top) --prefix V$(1) -Wno-fatal $$($(1).vflags) -Mdir $$(@D) \
	  $$($(1).rtl) > $$(@D)/verilator.log 2>&1 || { tail -20 $$(@D)/verilator.log; exit 1; }
endef
$(foreach b,$(SC_BLOCKS),$(eval $(call sc_pins_rule,$(b))))

# The proof compiles (never runs); so do the demonstrations, here with -Wall -Wextra -Werror (their
# Verilator builds take Verilator's flags).
SC_VL_INC := -isystem /usr/share/verilator/include -isystem /usr/share/verilator/include/vltstd \
             $(foreach b,$(SC_BLOCKS),-isystem $(SC_DIR)/pins/$(b))
$(SC_DIR)/pins/pins_match.ok: tests/sc/pins_match.cpp tb/sc/dslink_sc.cpp tb/sc/mp1_mesh_sc.cpp tb/sc/sc_waves.h tb/sc/sc_opts.h \
                              $(wildcard tb/*.h tb/common/*.h) \
                              $(SC_HDRS) $(CMODEL_HDR) $(foreach b,$(SC_BLOCKS),$(SC_DIR)/pins/$(b)/V$(b).h)
	$(SC_CXX) -fsyntax-only $(SC_VL_INC) $<
	$(SC_CXX) -fsyntax-only -Itb $(SC_VL_INC) tb/sc/dslink_sc.cpp
	$(SC_CXX) -fsyntax-only -Itb $(SC_VL_INC) tb/sc/mp1_mesh_sc.cpp
	@touch $@

$(SC_DIR)/tests/test_sc_modules: tests/sc/test_sc_modules.cpp $(SC_HDRS) $(LIB) $(CMODEL_HDR)
	@mkdir -p $(@D)
	$(SC_CXX) $< $(LIB) -lsystemc -o $@

# README.md's SystemC example, the code block after its <!-- sc-example --> line.
$(SC_DIR)/example: README.md $(SC_HDRS) $(LIB) $(CMODEL_HDR)
	@mkdir -p $(@D)
	awk '/<!-- sc-example -->/ { on = 1; next } on && /^```cpp/ { code = 1; next } code && /^```/ { exit } code' README.md > $@.cpp
	@test -s $@.cpp || { echo "sc-modules: no example after <!-- sc-example --> in README.md"; exit 1; }
	$(SC_CXX) $@.cpp $(LIB) -lsystemc -o $@

# make sc-modules: the five modules against their C models, every pin every cycle, the
# compile-time proof that their pins are those of the Verilated RTL, and the README example.
sc-modules: $(SC_DIR)/pins/pins_match.ok $(SC_DIR)/tests/test_sc_modules $(SC_DIR)/example
	@echo "sc-modules: dslink_sc, mp1_rm_sc, mp1_plane_sc, mp1_chip_sc, c104_sc have the pins of verilator --sc (compile-time proof)"
	$(SC_ENV) $(SC_DIR)/tests/test_sc_modules $(SC_CYCLES)
	$(SC_ENV) $(SC_DIR)/example | grep -x 'b received 0x5a in cycle [0-9]*'

# A Verilated SystemC build: $(call sc_vl_build,PREFIX,TOP,MDIR,RTL,TB_CPP,VFLAGS). The slow
# (constructor) files -O0 and the rest -O1: half the build time of Verilator's defaults, and runs
# as fast.
define sc_vl_build
	@echo "== verilator --sc: building $(2) ($(1)) in $(3)"
	@mkdir -p $(3); rm -f $@
	verilator --sc --exe --build -j $(JOBS) --prefix $(1) --top-module $(2) -Wno-fatal -O3 \
	  --x-assign fast --x-initial fast $(6) -Mdir $(3) -MAKEFLAGS "$(VL_OPT)" \
	  -CFLAGS "-std=gnu++17 -I$(CURDIR)/include -I$(CURDIR)/tb" \
	  -LDFLAGS "$(CURDIR)/$(LIB) -lsystemc" \
	  $(4) $(CURDIR)/$(5) > $(3)/build.log 2>&1 || { tail -40 $(3)/build.log; exit 1; }
endef

SC_DSLINK := $(SC_DIR)/dslink/Vdslink
$(SC_DSLINK): tb/sc/dslink_sc.cpp tb/sc/sc_waves.h tb/sc/sc_opts.h $(SC_HDRS) $(TB_DEPS) $(DSLINK_RTL)
	$(call sc_vl_build,Vdslink,$(DSLINK_TOP),$(@D),$(addprefix $(CURDIR)/,$(DSLINK_RTL)),tb/sc/dslink_sc.cpp,)

# make sc-dslink: demonstration 1 and 3. The check run with waves (their .gtkw must fit the VCD,
# the merged wave's .merged.gtkw its file), then a run whose C-model end gets a wrong byte from
# cycle 3000, which must fail and leave the merged wave of its last cycles, checked as make
# test-waves checks the lockstep's (scripts/check_waves.sh --log, docs/waves.md).
SC_DSLINK_CYCLES ?= 40000
sc-dslink: $(SC_DSLINK)
	@rm -rf $(SC_DIR)/waves $(SC_DIR)/waves-corrupt; mkdir -p $(SC_DIR)/waves
	$(SC_ENV) $(SC_DSLINK) --cycles $(SC_DSLINK_CYCLES) --seed 1 --waves $(SC_DIR)/waves
	scripts/gtkw_fits.sh $(SC_DIR)/waves/dslink_sc_s1.vcd $(SC_DIR)/waves/dslink_sc_s1.gtkw
	scripts/gtkw_fits.sh $(SC_DIR)/waves/dslink_sc_s1.merged.vcd $(SC_DIR)/waves/dslink_sc_s1.merged.gtkw
	@if $(SC_ENV) $(SC_DSLINK) --cycles 5000 --corrupt 3000 --wave-dir $(SC_DIR)/waves-corrupt \
	    > $(SC_DIR)/dslink_corrupt.log; then \
	  echo "sc-dslink: FAIL, the corrupted run passed"; exit 1; \
	else grep -m1 MISMATCH $(SC_DIR)/dslink_corrupt.log; echo "sc-dslink: the corrupted run failed, as it must"; fi
	scripts/check_waves.sh --log $(SC_DIR)/dslink_corrupt.log $(SC_DIR)/waves-check

SC_MESH := $(SC_DIR)/mp1_chip/Vmp1_chip
$(SC_MESH): tb/sc/mp1_mesh_sc.cpp tb/sc/sc_waves.h tb/sc/sc_opts.h $(SC_HDRS) $(TB_DEPS) $(MP1_CHIP_RTL)
	$(call sc_vl_build,Vmp1_chip,$(MP1_CHIP_TOP),$(@D),$(addprefix $(CURDIR)/,$(MP1_CHIP_RTL)),tb/sc/mp1_mesh_sc.cpp,$(mp1_chip.vflags))

# make sc-mesh: demonstration 2, the 4x4 checkerboard of Verilated and C-model chips against the
# all-C mesh; a short run with every chip an mp1_chip_sc; then a run with one node's reception
# stopped from cycle 1000, which must fail and leave the merged wave of its last cycles, checked
# by scripts/check_waves.sh --log (docs/waves.md).
SC_MESH_CYCLES ?= 20000
sc-mesh: $(SC_MESH)
	$(SC_ENV) $(SC_MESH) --cycles $(SC_MESH_CYCLES) --seed 1
	$(SC_ENV) $(SC_MESH) --cycles 5000 --seed 2 --nodes c
	@rm -rf $(SC_DIR)/mesh-waves-corrupt
	@if $(SC_ENV) $(SC_MESH) --cycles 3000 --corrupt 1000 --wave-dir $(SC_DIR)/mesh-waves-corrupt \
	    > $(SC_DIR)/mesh_corrupt.log; then \
	  echo "sc-mesh: FAIL, the corrupted run passed"; exit 1; \
	else grep -m1 FAIL $(SC_DIR)/mesh_corrupt.log; echo "sc-mesh: the corrupted run failed, as it must"; fi
	scripts/check_waves.sh --log $(SC_DIR)/mesh_corrupt.log $(SC_DIR)/mesh-waves-check

# make sc-bench: the demonstrations' speed beside the plain C engine's, into the SystemC section
# of docs/performance.md (make bench keeps that section; not in make test).
sc-bench: $(SC_DSLINK) $(SC_MESH)
	scripts/sc_bench.sh $(SC_DSLINK) $(SC_MESH) | scripts/splice.sh docs/performance.md systemc

.PHONY: sc-modules sc-dslink sc-mesh sc-bench
