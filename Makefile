# madpost: golden C models, RTL and lockstep testbenches of transputer-era router chips.
# `make run` is the main job, `make test` the full test suite (both install missing packages).
# Every generated file goes under build/ or waves/.

SHELL := /bin/bash
# A failing command inside a pipe (`Vdslink ... | tail -1`) must fail the recipe.
.SHELLFLAGS := -o pipefail -c
.DEFAULT_GOAL := all
comma := ,

BUILD   ?= build
CC      ?= cc
JOBS    ?= 2
OPT     ?= -O2
CWARN   := -std=c11 -Wall -Wextra -Werror -g
CFLAGS  ?=
ALLCFLAGS := $(CWARN) $(OPT) -Iinclude $(CFLAGS)
# inih reads the simulator's configuration files (docs/mp1_sim.md §5)
LDLIBS  := -linih -lm
SANFLAGS := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer

CMODEL_SRC := $(wildcard cmodel/*.c cmodel/net/*.c cmodel/dpi/*.c)
CMODEL_HDR := $(wildcard include/madpost/*.h cmodel/*.h cmodel/net/*.h cmodel/dpi/*.h)
LIB        := $(BUILD)/lib/libmadpost.a
LIB_SAN    := $(BUILD)/san/libmadpost.a
# Verilator's copy of GTKWave's fstapi (FST writer and reader), compiled into build/fst/, never
# committed: the benches' merged waves in FST (--wave-format fst) and build/fst2vcd. Without it
# (another Verilator install: set FST_SRC_DIR) the benches offer VCD only.
FST_SRC_DIR ?= /usr/share/verilator/include/gtkwave
FST_OK      := $(wildcard $(FST_SRC_DIR)/fstapi.c)
FST_LIB     := $(if $(FST_OK),$(BUILD)/fst/libfst.a)
FST_CFLAGS  := $(if $(FST_OK),-DMADPOST_FST=1 -I$(FST_SRC_DIR)/..)
FST_LDFLAGS := $(if $(FST_OK),$(CURDIR)/$(FST_LIB) -lz)

.PHONY: all deps lib install uninstall run test test-unit lint synth check-ports mutants coverage cov-start soak clean help \
        lockstep bench figures figures-doc figures-plot reproduce reproduce-c104 check-paper unit-cli \
        mutants-yosys mutants-yosys-all mutants-yosys-rescore

help:
	@echo "make run        main job: DS-Link lockstep run with waves, the link figures, an MP1 per-hop run"
	@echo "make test       everything CI runs: unit and command-line tests (plain and sanitized),"
	@echo "                lint, synth, ports, DS-Link lockstep (bit periods 1 and 3), MP1 routing"
	@echo "                machine, plane, chip and 4x4 mesh lockstep (directed and random), mutants"
	@echo "                of every block and level, the C104 switch's lockstep and mutants, the C104"
	@echo "                network lockstep, the merged wave of a failing run; every part runs, logs"
	@echo "                in build/log/, a table at the end"
	@echo "Blocks (tb/<block>.mk): $(BLOCKS); their variants: $(filter-out $(BLOCKS),$(BUILD_IDS))"
	@echo "make test-ID    one build's lockstep: every case its bench lists (--list), then its seeded"
	@echo "                runs; ID is a block or block-variant, e.g. test-dslink, test-mp1_rm-awf2,"
	@echo "                test-mp1_mesh-torus, test-c104-b32 (lockstep-ID: only build it)"
	@echo "make test-gate  gate-level lockstep: each block's Yosys netlist (synth -flatten) in its bench,"
	@echo "                against the C model, and a mutant's netlist, which must fail: $(GATE_BLOCKS)"
	@echo "                (gate-BLK, gate-mutant-BLK: one block's; into build/gate/BLK/)"
	@echo "make mutants-ID its RTL mutants, every one must be killed: $(strip $(foreach i,$(BUILD_IDS),$(if $($(i).mutants),$(i))))"
	@echo "make lint-BLK|synth-BLK|ports-BLK   one block's lint (every variant), synthesis or port check"
	@echo "                (lint-ID, ports-ID: one variant's, e.g. ports-mp1_rm-awf2)"
	@echo "make lint|synth|check-ports|mutants  every block's (mutants: those make test runs)"
	@echo "make unit-NAME  tests/test_NAME.c plain and sanitized (unit-cli: tests/test_cli.sh)"
	@echo "make dpi       the SystemVerilog DPI-C layer of every block into build/dpi/ (docs/dpi.md);"
	@echo "                lint-dpi lints it, test-dpi runs the DS-Link DPI bench and its mutant"
	@echo "make install PREFIX=/usr/local DESTDIR=  libmadpost (static, shared), headers, .pc files, RTL,"
	@echo "                the madpost command; make uninstall removes what it wrote (docs/install.md)"
	@echo "make check-headers|check-exports|check-abi|test-install   the installable library's checks"
	@echo "                (each header as C11 and C++11..17; exports; ABI fingerprint against the"
	@echo "                soname's major; C and C++ consumers of an installed tree)"
	@echo "make test-waves the merged wave a failing lockstep run writes (a DS-Link mutant; docs/waves.md)"
	@echo "make test-mp1-awf2    every MP1 level's lockstep and port check with two-flit address"
	@echo "                      words (AWF = 2, docs/mp1.md §14), short runs"
	@echo "make test-c104-bit    the C104 lockstep with 16 links (test-c104-b16), then every port a link"
	@echo "                      (test-c104-b32); not in make test"
	@echo "make mutants-yosys BLOCK=$(subst $(eval) ,|,$(BLOCKS)) N=200 SEED=1"
	@echo "                N Yosys netlist mutants (mcy flow) against the lockstep, survivors to a proof,"
	@echo "                into build/ymut/BLOCK/ (mutants-yosys-all: every block; not in make test)"
	@echo "make mutants-yosys-rescore BLOCK=...   the last run's survivors through the bench as it is now"
	@echo "make soak       long random lockstep runs (SOAK_CYCLES, SOAK_SEEDS)"
	@echo "make fuzz       each libFuzzer target of tests/fuzz/ for FUZZ_SECONDS (600) (make fuzz-TARGET: one, 10 s)"
	@echo "make coverage   every lockstep under Verilator coverage with the tb/cov/ coverpoints, into"
	@echo "               docs/coverage.md (make coverage-<block>: one block; not in make test)"
	@echo "make bench      speed of the DS-Link model and lockstep, of the MP1 mesh model, and of the"
	@echo "                network simulator (into docs/performance.md)"
	@echo "make reproduce  seed 004's results with the simulator: docs/results/, docs/results.md"
	@echo "make reproduce-c104  seeds 000/002 on the C104 networks: docs/results/c104_*, docs/results.md"
	@echo "                (QUICK=1: a small run into build/results-quick)"
	@echo "make check-paper     assert seed 004's figures (transpose period, saturation loads, busiest"
	@echo "                channel, broadcast, local traffic, channel load) on fixed-seed runs: the gate of"
	@echo "                issue 14, about a minute; currently FAILS (docs/results.md); not in make test"
	@echo "make sc-modules the SystemC modules against their C models and their pins against verilator --sc;"
	@echo "                sc-dslink, sc-mesh: the SystemC demonstrations; sc-bench: their speeds into"
	@echo "                docs/performance.md (docs/systemc.md)"
	@echo "make figures    measure the link figures and print them (figures-doc: into docs/dslink.md,"
	@echo "                figures-plot: PNG and SVG plots under build/plots/)"
	@echo "Old names still work: $(foreach a,$(ALIASES),$(word 1,$(subst :, ,$(a))))"
	@echo "Your own RTL (README \"Checking your own RTL\"):"
	@echo "DSLINK_RTL=... DSLINK_TOP=... DSLINK_PARAMS=... DSLINK_CMP_REGS=0|1 TRACE=0|1  the DS-Link"
	@echo "MP1_RM_RTL/TOP/CMP_REGS, MP1_PLANE_RTL/TOP, MP1_CHIP_RTL/TOP/CMP_REGS, MP1_MESH_RTL, MESH_KX/KY,"
	@echo "MP1_AWF  the MP1 levels"
	@echo "C104_RTL=... C104_TOP=... C104_CMP_REGS=0|1 C104_TRACE=0|1  the C104 RTL"
	@echo "make gate-BLK GATE_NETLIST=\"netlist.v [cells.v]\" [BLK_TOP=...]  your post-synthesis netlist (README"
	@echo "                \"Checking your own netlist\"); C104_GATE=yes: the C104's gate targets too"
	@echo "Seeds and cycles: RANDOM_SEEDS FAULT_SEEDS RANDOM_CYCLES DSLINK_BP3_*, MP1_SEEDS MP1_CYCLES"
	@echo "MP1_MESH_SEEDS MP1_MESH_CYCLES AWF2_SEEDS AWF2_CYCLES AWF2_MESH_SEEDS, C104_*SEEDS C104_CYCLES"
	@echo "C104_BIT_CYCLES, C104_NET_SEEDS C104_NET_CYCLES (tb/<block>.mk)"

deps:
	@scripts/deps.sh


# ---- C model library and tools ------------------------------------------------------------------
# The version's one source is include/madpost/version.h (docs/install.md).
version_num = $(shell sed -n 's/^.define MADPOST_VERSION_$(1) \([0-9][0-9]*\)$$/\1/p' include/madpost/version.h)
MADPOST_MAJOR   := $(call version_num,MAJOR)
MADPOST_MINOR   := $(call version_num,MINOR)
MADPOST_PATCH   := $(call version_num,PATCH)
ifneq ($(words $(MADPOST_MAJOR) $(MADPOST_MINOR) $(MADPOST_PATCH)),3)
$(error include/madpost/version.h: MADPOST_VERSION_MAJOR, _MINOR and _PATCH must each be a number)
endif
MADPOST_VERSION := $(MADPOST_MAJOR).$(MADPOST_MINOR).$(MADPOST_PATCH)
SONAME := libmadpost.so.$(MADPOST_MAJOR)
SOLIB  := $(BUILD)/lib/libmadpost.so

# One set of objects serves the static and the shared library: position-independent; every symbol
# hidden but those the public headers declare (include/madpost/madpost_api.h); and no semantic
# interposition, so the model's calls between its own public functions (chip eval to plane eval)
# stay direct and inlinable, as they were in the static-only build.
LIB_CFLAGS := -fPIC -fvisibility=hidden -fno-semantic-interposition
$(BUILD)/lib/%.o: cmodel/%.c $(CMODEL_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) $(LIB_CFLAGS) -c $< -o $@

$(BUILD)/san/%.o: cmodel/%.c $(CMODEL_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) $(SANFLAGS) -c $< -o $@

$(LIB): $(patsubst cmodel/%.c,$(BUILD)/lib/%.o,$(CMODEL_SRC))
	ar rcs $@ $^

$(LIB_SAN): $(patsubst cmodel/%.c,$(BUILD)/san/%.o,$(CMODEL_SRC))
	ar rcs $@ $^

# libmadpost.so.MAJOR.MINOR.PATCH, its soname libmadpost.so.MAJOR, and the link-time name
# libmadpost.so; -Bsymbolic-functions as -fno-semantic-interposition promised the compiler.
$(SOLIB).$(MADPOST_VERSION): $(patsubst cmodel/%.c,$(BUILD)/lib/%.o,$(CMODEL_SRC))
	$(CC) -shared -Wl,-soname,$(SONAME) -Wl,-Bsymbolic-functions -Wl,--no-undefined $^ $(LDLIBS) -o $@
$(SOLIB): $(SOLIB).$(MADPOST_VERSION)
	ln -sf $(notdir $<) $(BUILD)/lib/$(SONAME)
	ln -sf $(SONAME) $@

lib: $(LIB) $(SOLIB)

# (third-party C: compiled as Verilator compiles it, its warnings are not ours)
$(BUILD)/fst/%.o: $(FST_SRC_DIR)/%.c
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -w -I$(FST_SRC_DIR) -DFST_CONFIG_INCLUDE='"fst_config.h"' -c $< -o $@

$(BUILD)/fst/libfst.a: $(BUILD)/fst/fstapi.o $(BUILD)/fst/fastlz.o $(BUILD)/fst/lz4.o
	ar rcs $@ $^

$(BUILD)/fst2vcd: tools/fst2vcd.c $(FST_LIB)
	$(CC) $(ALLCFLAGS) -I$(FST_SRC_DIR)/.. $< $(FST_LIB) -lz -o $@

MADPOST_SRC := tools/madpost.c tools/madpost_sim.c tools/madpost_c104.c tools/madpost_c104fig.c \
               tools/madpost_c104transit.c tools/madpost_c104cost.c tools/madpost_rows.c \
               tools/madpost_opt.c

$(BUILD)/madpost: $(MADPOST_SRC) tools/madpost_opt.h tools/madpost_rows.h tools/madpost_c104fig.h $(LIB) $(CMODEL_HDR)
	$(CC) $(ALLCFLAGS) $(MADPOST_SRC) $(LIB) $(LDLIBS) -o $@

# ---- make install, make uninstall (docs/install.md) ---------------------------------------------
# PREFIX/bin/madpost, PREFIX/LIBDIR/libmadpost.{a,so*}, PREFIX/LIBDIR/pkgconfig/madpost*.pc,
# PREFIX/include/madpost/*.h, PREFIX/share/madpost/rtl/*.sv; DESTDIR stages the tree elsewhere (a
# package build), the .pc files still naming PREFIX. scripts/install.sh records what it wrote,
# and uninstall removes exactly that.
PREFIX  ?= /usr/local
DESTDIR ?=
LIBDIR  ?= lib
# What is installed, by layer: INSTALL_SC_HDRS, the SystemC layer's C++ headers (its modules,
# include/madpost/sc/, picked up as they land; into include/madpost/sc/, where the tree has them);
# INSTALL_SV, the DPI layer's SystemVerilog packages, reference modules and shadows (generated
# into build/dpi/ by tools/dpigen, tb/dpi.mk; into share/madpost/sv/).
INSTALL_HDRS    := $(wildcard include/madpost/*.h)
INSTALL_SC_HDRS ?= $(wildcard include/madpost/sc/*.h)
INSTALL_RTL     := $(wildcard rtl/*.sv)
INSTALL_SV      ?= $(DPI_SV)
INSTALL_PC      := $(BUILD)/pkg/madpost.pc $(BUILD)/pkg/madpost-systemc.pc
INSTALL_ROOT     = $(DESTDIR)$(PREFIX)

# The .pc files name PREFIX: remade on every install (the stamp would be PREFIX itself).
$(BUILD)/pkg/%.pc: scripts/pkg/%.pc.in include/madpost/version.h FORCE
	@mkdir -p $(@D)
	@sed -e 's|@PREFIX@|$(PREFIX)|g; s|@LIBDIR@|$(LIBDIR)|g; s|@VERSION@|$(MADPOST_VERSION)|g' $< > $@

install: $(LIB) $(SOLIB) $(BUILD)/madpost $(INSTALL_PC) dpi
	@case "$(PREFIX)" in /*) ;; *) echo "install: PREFIX must be an absolute path (got '$(PREFIX)')"; exit 2;; esac
	@{ echo "755 $(BUILD)/madpost bin/madpost"; \
	   echo "644 $(LIB) $(LIBDIR)/libmadpost.a"; \
	   echo "755 $(SOLIB).$(MADPOST_VERSION) $(LIBDIR)/libmadpost.so.$(MADPOST_VERSION)"; \
	   echo "link libmadpost.so.$(MADPOST_VERSION) $(LIBDIR)/$(SONAME)"; \
	   echo "link $(SONAME) $(LIBDIR)/libmadpost.so"; \
	   for f in $(INSTALL_PC); do echo "644 $$f $(LIBDIR)/pkgconfig/$${f##*/}"; done; \
	   for f in $(INSTALL_HDRS); do echo "644 $$f include/madpost/$${f##*/}"; done; \
	   for f in $(INSTALL_SC_HDRS); do echo "644 $$f include/madpost/sc/$${f##*/}"; done; \
	   for f in $(INSTALL_RTL); do echo "644 $$f share/madpost/rtl/$${f##*/}"; done; \
	   for f in $(INSTALL_SV); do echo "644 $$f share/madpost/sv/$${f##*/}"; done; \
	 } | scripts/install.sh install "$(INSTALL_ROOT)"

# The library's checks (make test's install column): every public header alone as C11 and C++11,
# 14, 17, and in-tree code including them as <madpost/x.h>; the shared library's exports exactly
# the public declarations; the ABI fingerprint the one recorded for the soname's major; the
# consumer test (tests/consumer/run.sh: install, C and C++ programs against the installed tree
# through pkg-config, static and dynamic, uninstall).
.PHONY: check-headers check-exports check-abi test-install
check-headers:
	@scripts/check_headers.sh
check-exports: $(SOLIB)
	@scripts/check_exports.sh $(SOLIB)
check-abi:
	@scripts/abi.sh check
test-install: $(LIB) $(SOLIB) $(BUILD)/madpost
	@MAKE="$(MAKE)" OUT="$(abspath $(BUILD))/consumer" tests/consumer/run.sh

uninstall:
	@case "$(PREFIX)" in /*) ;; *) echo "uninstall: PREFIX must be an absolute path (got '$(PREFIX)')"; exit 2;; esac
	@scripts/install.sh uninstall "$(INSTALL_ROOT)"

$(BUILD)/mutgen: tools/mutgen.c tools/mutgen_text.h
	$(CC) $(ALLCFLAGS) $< -o $@

$(BUILD)/mutgen_reset: tools/mutgen_reset.c tools/mutgen_text.h
	$(CC) $(ALLCFLAGS) $< -o $@

# ---- Unit tests (cmocka), plain and under ASan + UBSan ------------------------------------------
UNIT_TESTS := $(patsubst tests/%.c,%,$(wildcard tests/test_*.c))

$(BUILD)/tests/%: tests/%.c tests/check.h $(LIB) $(CMODEL_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) $< $(LIB) -lcmocka $(LDLIBS) -o $@

$(BUILD)/tests-san/%: tests/%.c tests/check.h $(LIB_SAN) $(CMODEL_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) $(SANFLAGS) $< $(LIB_SAN) -lcmocka $(LDLIBS) -o $@

UNIT_NAMES := $(patsubst test_%,%,$(UNIT_TESTS))
# One unit test, plain and sanitized: unit-dslink runs tests/test_dslink.c; unit-cli the command
# line checks of tests/test_cli.sh.
unit-%: $(BUILD)/tests/test_% $(BUILD)/tests-san/test_% $(BUILD)/madpost
	@echo "== unit: test_$*"; MADPOST_ROOT=$(CURDIR) $(BUILD)/tests/test_$*
	@echo "== unit (asan+ubsan): test_$*"; MADPOST_ROOT=$(CURDIR) $(BUILD)/tests-san/test_$*

unit-cli: $(BUILD)/madpost
	@bash tests/test_cli.sh $(BUILD)/madpost

test-unit: $(addprefix unit-,$(UNIT_NAMES)) unit-cli

# ---- Blocks ----------------------------------------------------------------------------------------
# Each block is described by tb/<block>.mk; the macros below make its targets. A build ID is a
# block (its default build) or BLOCK-VARIANT (a parameter set, e.g. mp1_rm-awf2); each has its own
# build directory build/vl/<ID with _ for ->, whose config.stamp records the options it was built
# with (a change rebuilds it), and the targets lockstep-ID (the binary), test-ID, lint-ID and,
# where the .mk asks, ports-ID and mutants-ID; lint-BLOCK lints every parameter set of the block,
# synth-BLOCK synthesizes its default build, coverage-BLOCK runs its default build's stimulus
# under coverage. A .mk sets ID.NAME; a variant takes its block's value of a NAME it does not set
# (but for lint, ports, mutants and coverage, which belong to one build):
#   rtl top prefix tb deps  the RTL files, top module, Verilator prefix, bench and its own headers
#   vflags trace cflags     Verilator options of every build of it (parameters, defines; lint
#                           too), those of the lockstep build only, the bench's C flags
#   seeded skip case_args   the bench's seeded modes and the cases that must not run (each with
#                           its reason; `all`: none), the arguments after --test NAME
#   runs                    the seeded runs, each one quoted argument list
#   variants                the block's variants (.mk of the block only)
#   lint lint_extra         lint options if not vflags; one more parameter set of lint-BLOCK
#   synth ports ports_args  yes: synth-BLOCK; the port-list printer and its Verilator options
#   mutants mut_reset mut_rtl mut_runs mut_min   hand-written mutant list, the RTL files whose
#                           reset values are mutated too, the files mutgen copies (default rtl),
#                           the seeded mutant runs, the least number of mutants
#   cov_rtl cov_kind cov_skip cov_runs   coverage: bind files, Verilator coverage kind, cases
#                           left out, seeded runs (default runs)
#   ymut_*                  make mutants-yosys: see below
#   gate gate_skip gate_runs gate_mutant   yes: the gate-level lockstep (gate_rules below); the
#                           cases it leaves out besides skip, its seeded runs, the mutant of
#                           `mutants` whose netlist must fail
# test-ID runs every case `BIN --list` names (one a line, the name first), but the seeded modes
# and the skipped ones, then the seeded runs; mutants-ID, coverage-BLOCK and mutants-yosys run the
# same cases.
BLOCKS := dslink mp1_rm mp1_plane mp1_chip mp1_mesh c104 c104_net
# The networks' Verilator options: their chip or switch kept a module of its own (tb/network.vlt),
# and without gate and DFG optimisation, which otherwise specialise that module's code for each
# instance (16 copies of a chip, 45 MB of C++, 8 minutes a build); with them off it is one copy,
# 6 MB, about a minute, and the runs are faster too. What they optimise across is the boundary of
# the kept module, so the code inside each chip or switch loses little.
NET_VFLAGS := -fno-gate -fno-dfg $(CURDIR)/tb/network.vlt
include $(addprefix tb/,$(addsuffix .mk,$(BLOCKS)))

BUILD_IDS   := $(foreach b,$(BLOCKS),$(b) $(addprefix $(b)-,$($(b).variants)))
BUILD_ATTRS := rtl top prefix tb deps vflags trace cflags seeded skip case_args runs
# ID's NAME: its own, else its block's (the word before the first -).
attr = $(if $(filter undefined,$(origin $(1).$(2))),$($(firstword $(subst -, ,$(1))).$(2)),$($(1).$(2)))
$(foreach i,$(BUILD_IDS),$(foreach a,$(BUILD_ATTRS),$(eval $(i).$(a) := $$(call attr,$(i),$(a)))))
vl_dir = $(BUILD)/vl/$(subst -,_,$(1))

# What every bench build depends on besides its own files: the shared harness (tb/common/), the
# C model library and headers.
TB_DEPS := $(wildcard tb/*.h tb/common/*.h) tb/backdoor.vlt $(LIB) $(FST_LIB) $(CMODEL_HDR)

# One Verilator build: $(call vl_build,PREFIX,TOP,MDIR,RTL,TB_CPP,VFLAGS,CFLAGS). The binary is
# removed first because Verilator's make does not see the C model library. VL_OPT: g++'s levels
# for Verilator's run-once (slow) and per-cycle (fast) files, -Os both by default; on the 4x4
# mesh -O0/-O1 halve the build (107 s to 55 s on 2 cores) and the run is faster too (9.1 s to
# 6.3 s for 50,000 cycles), -Os being slower code than -O1 here (docs/performance.md).
VL_OPT := OPT_SLOW=-O0 OPT_FAST=-O1
define vl_build
	@echo "== verilator: building $(2) ($(1)) in $(3)"
	@rm -f $@
	verilator --cc --exe --build -j $(JOBS) --prefix $(1) --top-module $(2) -Wno-fatal -O3 \
	  --x-assign fast --x-initial fast --vpi $(6) -Mdir $(3) -MAKEFLAGS "$(VL_OPT)" \
	  -CFLAGS "-O2 -I$(CURDIR)/include -I$(CURDIR)/tb -DLOCKSTEP_TOP='\"$(2)\"' $(FST_CFLAGS) $(7)" \
	  -LDFLAGS "$(CURDIR)/$(LIB) $(FST_LDFLAGS)" $(CURDIR)/tb/backdoor.vlt \
	  $(4) $(CURDIR)/$(5) > $(3)/build.log 2>&1 || { tail -40 $(3)/build.log; exit 1; }
endef
# A build directory is rebuilt when the options written into its stamp change (without quotes,
# which would end the recipe's quoting).
%/config.stamp: FORCE
	@mkdir -p $(@D)
	@echo '$(subst ',,$(STAMP))' | cmp -s - $@ || echo '$(subst ',,$(STAMP))' > $@
build_stamp = $($(1).top) $($(1).rtl) $($(1).vflags) $($(1).cflags)

# $(call bench_cases,BIN,SKIP,ARGS): shell code setting the array `runs` to one run per case
# `BIN --list` names ('--test NAME ARGS'), but those in SKIP (all of them if SKIP holds `all`).
bench_cases = names=$$($(1) --list | awk '{print $$1}') || exit 1; runs=(); \
  for t in $$names; do case " $(2) " in *" all "*|*" $$t "*) ;; *) runs+=("--test $$t$(if $(3), $(3))");; esac; done
id_cases = $(call bench_cases,$(1),$(strip $($(2).seeded) $($(2).skip) $(3)),$($(2).case_args))
vlint = verilator --lint-only -Wall --top-module $(1)

# $(call build_rules,ID): ID's lockstep build and test (and its lint, for a variant). A variant
# with ID.build = ID2 is a run of ID2's binary (every run with ID.args after it), no build of its own.
bin_of = $(call vl_dir,$(or $($(1).build),$(1)))/$($(1).prefix)
define build_rules
lockstep-$(1): $(call bin_of,$(1))
test-$(1): $(call bin_of,$(1))
	@set -e; $$(call id_cases,$$<,$(1)); for r in "$$$${runs[@]}" $$($(1).runs); do $$< $$$$r $($(1).args); done
endef
define vl_build_rules
$(call vl_dir,$(1))/config.stamp: STAMP = $$(call build_stamp,$(1)) $$($(1).trace)
$(call vl_dir,$(1))/$($(1).prefix): $(call vl_dir,$(1))/config.stamp $$($(1).tb) $$($(1).deps) $$(TB_DEPS) $$($(1).rtl)
	$$(call vl_build,$$($(1).prefix),$$($(1).top),$$(@D),$$($(1).rtl),$$($(1).tb),$$($(1).vflags) $$($(1).trace),$$($(1).cflags))
$(if $(findstring -,$(1)),lint-$(1):
	$$(call vlint,$$($(1).top)) $$(or $$($(1).lint),$$($(1).vflags)) $$($(1).rtl))
endef

# $(call ports_rules,ID): the port list (include/madpost/*_ports.h) against the RTL's ports.
define ports_rules
ports-$(1): $$($(1).ports)
	@scripts/check_ports.sh $$($(1).ports) $(firstword $(subst -, ,$(1))) $$($(1).top) $$($(1).ports_args) $$($(1).rtl)
endef

# $(call mutant_rules,ID): ID's mutant build (every mutant selected at run time by +mutant=K) and
# run; the list is the hand-written one, followed by the reset-value mutants of mut_reset's files
# (tools/mutgen_reset.c: every register's reset value changed, one at a time).
define mutant_rules
$(1).mut_list := $(if $($(1).mut_reset),$(BUILD)/mut/$(subst -,_,$(1)).txt,$($(1).mutants))
$(1).mut_files := $(or $($(1).mut_rtl),$($(1).rtl))
$(1).mut_bin := $(call vl_dir,$(1))_mut/$($(1).prefix)
$(if $($(1).mut_reset),$(BUILD)/mut/$(subst -,_,$(1)).txt: $($(1).mutants) $($(1).mut_reset) $(BUILD)/mutgen_reset
	@mkdir -p $$(@D)
	{ cat $($(1).mutants); $(BUILD)/mutgen_reset $($(1).mut_reset); } > $$@)
$(call vl_dir,$(1))_mut/config.stamp: STAMP = $$(call build_stamp,$(1))
$$($(1).mut_bin): $(call vl_dir,$(1))_mut/config.stamp $$($(1).mut_list) $(BUILD)/mutgen $$($(1).tb) $$($(1).deps) $$(TB_DEPS) $$($(1).rtl)
	@mkdir -p $$(@D)/rtl
	$(BUILD)/mutgen $$($(1).mut_list) $$(@D)/rtl $$($(1).mut_files)
	$$(call vl_build,$$($(1).prefix),$$($(1).top),$$(@D),$$(addprefix $$(@D)/rtl/,$$(notdir $$($(1).mut_files))) $$(filter-out $$($(1).mut_files),$$($(1).rtl)),$$($(1).tb),$$($(1).vflags),$$($(1).cflags))
mutants-$(1): $$($(1).mut_bin)
	@$$(call id_cases,$$<,$(1)); $(if $($(1).mut_min),MUT_MIN=$($(1).mut_min) )scripts/mutants.sh $$< $$($(1).mut_list) $(subst -,_,$(1)) "$$$${runs[@]}" $$($(1).mut_runs)
endef

# Gate-level lockstep (tb/README.md "Gate-level lockstep"), for each block whose .mk sets
# BLOCK.gate = yes: Yosys synthesises the default build's RTL flattened (synth -flatten), with the
# parameters its vflags give Verilator (-GName=V becomes chparam), into build/gate/BLOCK/netlist.v
# (write_verilog -noattr); the block's own bench, built with that netlist for the RTL (its cflags:
# the dbg_*_o ports, ports of the netlist too, are compared where the RTL has them) into
# build/gate/BLOCK/vl/, runs every case it lists but the seeded ones, the skipped ones and
# BLOCK.gate_skip, then BLOCK.gate_runs, each with +no_backdoor: a flattened netlist has no
# registers under the names the benches write by VPI (tb/backdoor.h). gate-mutant-BLOCK does the
# same with the synthesis of the RTL with hand-written mutant BLOCK.gate_mutant (tools/mutgen
# --fixed), into build/gate/BLOCK_mut/, and passes only if a run fails (exit 1).
# $(call gate_build,BLOCK,DIR,RTL,DEPS,NET): DIR/netlist.v from RTL, and the bench built with the
# Verilog files NET (that netlist, or a user's: GATE_NETLIST) into DIR/vl/.
define gate_build
$(2)/config.stamp: STAMP = $$($(1).top) $(3) $$($(1).vflags)
$(2)/netlist.v: $(2)/config.stamp $(3) $(4)
	@echo "== yosys: synth -flatten -top $$($(1).top) into $$@"
	@date +%s.%N > $$(@D)/start.sec
	@yosys -q -l $$(@D)/yosys.log -p "read_verilog -sv $(3); $$(call gate_chparam,$$($(1).vflags),$$($(1).top)) \
	  synth -flatten -top $$($(1).top); tee -q -o $$(@D)/stat.txt stat; write_verilog -noattr $$@" \
	  || { rm -f $$@; tail -20 $$(@D)/yosys.log; exit 1; }
	@echo "gate: $$@: $$$$(awk '/Number of cells/ {n=$$$$4} END {print n}' $$(@D)/stat.txt) cells, yosys $$$$(awk \
	  -v s=$$$$(cat $$(@D)/start.sec) -v e=$$$$(date +%s.%N) 'BEGIN { printf "%.1f", e - s }') s"
$(2)/vl/config.stamp: STAMP = $$($(1).top) $(5) $$($(1).cflags)
$(2)/vl/$($(1).prefix): $(2)/vl/config.stamp $(5) $$($(1).tb) $$($(1).deps) $$(TB_DEPS)
	@date +%s.%N > $$(@D)/start.sec
	$$(call vl_build,$$($(1).prefix),$$($(1).top),$$(@D),$$(abspath $(5)),$$($(1).tb),$$(GATE_VFLAGS),$$($(1).cflags))
	@echo "gate: $$@: verilator $$$$(awk -v s=$$$$(cat $$(@D)/start.sec) -v e=$$$$(date +%s.%N) 'BEGIN { printf "%.1f", e - s }') s"
endef
# $(call gate_rules,BLOCK): the netlist's and the mutant netlist's builds, gate-BLOCK, gate-mutant-BLOCK.
define gate_rules
$(call gate_build,$(1),$(BUILD)/gate/$(1),$$($(1).rtl),,$$(or $$(GATE_NETLIST),$(BUILD)/gate/$(1)/netlist.v))
$(BUILD)/gate/$(1)_mut/rtl.stamp: $$($(1).mutants) $$($(1).rtl) $(BUILD)/mutgen
	@mkdir -p $$(@D)/rtl
	$(BUILD)/mutgen --fixed $$($(1).gate_mutant) $$($(1).mutants) $$(@D)/rtl $$($(1).rtl)
	@touch $$@
$$(addprefix $(BUILD)/gate/$(1)_mut/rtl/,$$(notdir $$($(1).rtl))): $(BUILD)/gate/$(1)_mut/rtl.stamp ;
$(call gate_build,$(1),$(BUILD)/gate/$(1)_mut,$$(addprefix $(BUILD)/gate/$(1)_mut/rtl/,$$(notdir $$($(1).rtl))),$(BUILD)/gate/$(1)_mut/rtl.stamp,$(BUILD)/gate/$(1)_mut/netlist.v)
gate-$(1): $(BUILD)/gate/$(1)/vl/$($(1).prefix)
	@set -e; $$(call id_cases,$$<,$(1),$$($(1).gate_skip)); for r in "$$$${runs[@]}" $$($(1).gate_runs); do $$< $$$$r +no_backdoor; done
gate-mutant-$(1): $(BUILD)/gate/$(1)_mut/vl/$($(1).prefix)
	@$$(call id_cases,$$<,$(1),$$($(1).gate_skip)); scripts/gate_mutant.sh $$< $$($(1).mutants) $$($(1).gate_mutant) \
	  "$$$${runs[@]}" $$($(1).gate_runs)
endef
# The Yosys chparam commands for the -GName=VALUE of a Verilator option list, on module TOP.
gate_chparam = $(foreach g,$(filter -G%,$(1)),chparam -set $(subst =, ,$(patsubst -G%,%,$(subst \,,$(g)))) $(2);)
# Netlist builds: g++'s levels as every Verilator build's (VL_OPT above).
GATE_VFLAGS := -MAKEFLAGS "$(VL_OPT)"
# The gate runs' seeds (each .mk sets its cycles: BLK_GATE_CYCLES): seconds of running in make test.
GATE_SEEDS       ?= 1 2
GATE_FAULT_SEEDS ?= 3
GATE_BLOCKS = $(strip $(foreach b,$(BLOCKS),$(if $(filter yes,$($(b).gate)),$(b))))

# $(call block_rules,BLOCK): lint of every parameter set, synthesis, coverage.
define block_rules
lint-$(1): $(foreach v,$($(1).variants),$(if $($(1)-$(v).build),,lint-$(1)-$(v)))
	$$(call vlint,$$($(1).top)) $$(or $$($(1).lint),$$($(1).vflags)) $$($(1).rtl)
	$(if $($(1).lint_extra),$$(call vlint,$$($(1).top)) $$($(1).lint_extra) $$($(1).rtl))
$(if $($(1).synth),synth-$(1): $(BUILD)/synth/$(1).log
$(BUILD)/synth/$(1).log: $$($(1).rtl)
	$$(call yosys_synth,$(1),$$($(1).rtl),$$($(1).top)))
$(1).cov_bin := $(COV_DIR)/$(1)/$($(1).prefix)
$(COV_DIR)/$(1)/config.stamp: STAMP = $$(call build_stamp,$(1)) $$($(1).cov_rtl) $$($(1).cov_kind)
$(COV_DIR)/$(1)/$($(1).prefix): $(COV_DIR)/$(1)/config.stamp $$($(1).tb) $$($(1).deps) $$(TB_DEPS) $$($(1).rtl) $$($(1).cov_rtl)
	$$(call vl_build,$$($(1).prefix),$$($(1).top),$$(@D),$$($(1).rtl) $$($(1).cov_rtl),$$($(1).tb),$$(or $$($(1).cov_kind),--coverage) $$($(1).vflags),$$($(1).cflags))
coverage-$(1): $(COV_DIR)/$(1)/$($(1).prefix)
	@$$(call id_cases,$$<,$(1),$$($(1).cov_skip)); scripts/coverage.sh $(1) $$< "$$$${runs[@]}" $$(or $$($(1).cov_runs),$$($(1).runs))
endef

# One synthesis: $(call yosys_synth,NAME,RTL,TOP); for the hierarchical designs the last "Number
# of cells" of stat is the whole design's. (The whole C104 with its 32 link ends: about 3 minutes
# and 2 GB.)
define yosys_synth
	@mkdir -p $(@D)
	yosys -q -l $@ -p 'read_verilog -sv $(2); synth -top $(3); tee -o $(BUILD)/synth/$(1).stat stat'
	@echo "synth: $(1) $$(awk '/Number of cells/ {n=$$4} END {print n}' $(BUILD)/synth/$(1).stat) cells (yosys synth)"
endef

# Coverage builds (docs/coverage.md): --coverage and the coverpoint bind files of tb/cov/, into
# build/cov/<blk>/; each run its own .dat (scripts/coverage.sh). The coverage points make the
# Slow (initialisation) files huge: at -O2 one of them takes gcc half an hour on the chip and the
# switch; run once, they need no optimisation (vl_build's VL_OPT compiles them at -O0).
COV_DIR := $(BUILD)/cov

$(foreach b,$(BLOCKS),$(eval $(call block_rules,$(b))))
$(foreach i,$(BUILD_IDS),$(eval $(call build_rules,$(i))))
$(foreach i,$(BUILD_IDS),$(if $($(i).build),,$(eval $(call vl_build_rules,$(i)))))
$(foreach i,$(BUILD_IDS),$(if $($(i).ports),$(eval $(call ports_rules,$(i)))))
$(foreach i,$(BUILD_IDS),$(if $($(i).mutants),$(eval $(call mutant_rules,$(i)))))
$(foreach b,$(GATE_BLOCKS),$(eval $(call gate_rules,$(b))))
test-gate: $(foreach b,$(GATE_BLOCKS),gate-$(b) gate-mutant-$(b))
# The SystemC layer (docs/systemc.md): make sc-modules, sc-dslink, sc-mesh, sc-bench.
include tb/sc/sc.mk

LOCKSTEP := $(call vl_dir,dslink)/Vdslink
lockstep: $(LOCKSTEP)
all: lib $(BUILD)/madpost $(LOCKSTEP)

# ---- Every block at once ---------------------------------------------------------------------------
lint: $(addprefix lint-,$(BLOCKS))
	@echo "lint: verilator -Wall clean"
synth: $(foreach b,$(BLOCKS),$(if $($(b).synth),synth-$(b)))
check-ports: $(foreach b,$(BLOCKS),$(if $($(b).ports),ports-$(b)))
# The default builds' mutants and mp1_rm's at AWF 2 (make test's; not c104's, nor c104_net's)
MUTANT_IDS := dslink mp1_rm mp1_rm-awf2 mp1_plane mp1_chip mp1_mesh
mutants: $(addprefix mutants-,$(MUTANT_IDS))

PORT_HDRS := include/madpost/dslink_ports.h include/madpost/mp1_awf.h include/madpost/mp1_rm_ports.h \
             include/madpost/mp1_plane_ports.h include/madpost/mp1_chip_ports.h include/madpost/c104_ports.h
$(BUILD)/portlist: tools/portlist.c $(PORT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) $< -o $@
# The MP1 port lists with two-flit address words (docs/mp1.md §14): the widths from MP1_AWF = 2.
$(BUILD)/portlist_awf2: tools/portlist.c $(PORT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) -DMP1_AWF=2 $< -o $@

# The SystemVerilog DPI-C layer and its bench (docs/dpi.md; after PORT_HDRS, which it uses).
include tb/dpi.mk

SOAK_CYCLES ?= 20000000
SOAK_SEEDS  ?= 101 102 103 104
soak: $(LOCKSTEP)
	@set -e; for s in $(SOAK_SEEDS); do \
	  $(LOCKSTEP) --test random --seed $$s --cycles $(SOAK_CYCLES); \
	  $(LOCKSTEP) --test faults --seed $$s --cycles $(SOAK_CYCLES); done

# make coverage: every block, then docs/coverage.md (scripts/coverage_md.sh; not in make test).
coverage: cov-start $(addprefix coverage-,$(BLOCKS))
	@echo "$$(( $$(date +%s) - $$(cat $(COV_DIR)/start.sec) ))" > $(COV_DIR)/total.sec
	@scripts/coverage_md.sh $(COV_DIR) $(BLOCKS) > $(COV_DIR)/coverage.md
	@scripts/splice.sh docs/coverage.md coverage < $(COV_DIR)/coverage.md
cov-start:
	@mkdir -p $(COV_DIR); date +%s > $(COV_DIR)/start.sec

# ---- Yosys mutants (mcy flow; scripts/mutants_yosys.sh, tb/README.md; not in make test) ----------
# make mutants-yosys BLOCK=dslink|mp1_rm|mp1_plane|mp1_chip|c104|mp1_mesh|c104_net N=200 SEED=1:
# N netlist mutations of the block's own modules (BLOCK.ymut_mods: those no smaller block holds;
# for mp1_mesh and c104_net the network module, rtl/mp1_mesh.sv and tb/c104_net_tb.sv: the wiring
# between chips or switches, the ports of their instances, whose own logic the chip and c104
# blocks score) in one netlist of the block's hierarchy, each mutation inside its module and so in
# every instance of it, behind a wrapper of the block's name, run through the block's mutant runs
# (those of mutants-BLOCK); survivors go to a Yosys proof. Results in build/ymut/<BLOCK>/.
# The .mk's ymut_mod, ymut_mods, ymut_rtl: the top, the modules whose cells are sampled, the RTL;
# ymut_set: the Yosys setup (the lockstep build's parameters); ymut_wp: the parameters the
# wrapper accepts from an instantiating module; ymut_lib (the networks): the element RTL, read by
# Yosys as black boxes, so the netlist is the network module alone, its instances of them kept
# with their parameters, and built by Verilator from the RTL, as the network's own lockstep is (a
# netlist chip kept a module of its own is still 1500 files of C++, and sixteen inlined ones 160 MB).
BLOCK ?= dslink
N     ?= 200
SEED  ?= 1
YMUT_DIR := $(BUILD)/ymut/$(BLOCK)
YMUT_BIN := $(YMUT_DIR)/vl/$($(BLOCK).prefix)
# The block's mutant runs: every listed case but the skipped ones, then its seeded mutant runs.
ymut_runs = $(call id_cases,$(YMUT_BIN),$(BLOCK)); runs+=($($(BLOCK).mut_runs))

$(YMUT_DIR)/config.stamp: STAMP = $(N) $(SEED) $($(BLOCK).ymut_mods) $($(BLOCK).ymut_rtl) $($(BLOCK).ymut_lib) $($(BLOCK).ymut_set)
$(YMUT_DIR)/netlist.v: $(YMUT_DIR)/config.stamp scripts/mutants_yosys.sh $($(BLOCK).ymut_rtl) $($(BLOCK).ymut_lib)
	YMUT_LIB="$($(BLOCK).ymut_lib)" scripts/mutants_yosys.sh gen $(YMUT_DIR) $($(BLOCK).ymut_mod) "$($(BLOCK).ymut_mods)" \
	  $(N) $(SEED) "$($(BLOCK).ymut_set)" "$($(BLOCK).ymut_wp)" $($(BLOCK).ymut_rtl)
	scripts/ymut_backdoor.sh $(YMUT_DIR) $($(BLOCK).ymut_mod)_ymut

$(YMUT_BIN): $(YMUT_DIR)/netlist.v $($(BLOCK).tb) $($(BLOCK).deps) $(TB_DEPS) $($(BLOCK).ymut_lib)
	@mkdir -p $(@D)
	$(call vl_build,$($(BLOCK).prefix),$($(BLOCK).top),$(@D),$(YMUT_DIR)/wrapper.sv $(YMUT_DIR)/netlist.v $(YMUT_DIR)/backdoor.vlt $($(BLOCK).ymut_lib),$($(BLOCK).tb),$($(BLOCK).vflags),$($(BLOCK).cflags))

mutants-yosys: $(YMUT_BIN)
	@$(ymut_runs); SEED=$(SEED) YMUT_LIB="$($(BLOCK).ymut_lib)" MADPOST_BACKDOOR_MAP=$(CURDIR)/$(YMUT_DIR)/backdoor.map \
	  scripts/mutants_yosys.sh run $(YMUT_DIR) $(BLOCK) $($(BLOCK).ymut_mod) $(YMUT_BIN) "$${runs[@]}"

# Every block, one after another (BLOCK selects a block's whole variable set, hence one make each).
mutants-yosys-all:
	@set -e; for b in $(BLOCKS); do $(MAKE) --no-print-directory mutants-yosys BLOCK=$$b; done

# After new stimulus: the last run's survivors again, through the bench as it is now (same netlist;
# scripts/ymut_rescore.sh), then the summary with the proofs' verdicts kept.
mutants-yosys-rescore: $(YMUT_BIN)
	@$(ymut_runs); MADPOST_BACKDOOR_MAP=$(CURDIR)/$(YMUT_DIR)/backdoor.map scripts/ymut_rescore.sh $(YMUT_DIR) $(YMUT_BIN) "$${runs[@]}"
	@SEED=$(SEED) FORMAL_RESUME=1 YMUT_LIB="$($(BLOCK).ymut_lib)" scripts/mutants_yosys.sh report $(YMUT_DIR) $(BLOCK) $($(BLOCK).ymut_mod)

# ---- Link figures -----------------------------------------------------------------------------------
figures: $(BUILD)/madpost
	$(BUILD)/madpost linkbw --format table

# Regenerates the figures table in docs/dslink.md (the dslink_figures test checks it is current).
figures-doc: $(BUILD)/madpost
	$(BUILD)/madpost linkbw --format markdown | scripts/splice.sh docs/dslink.md figures

# Plots of the figures for people (PNG and SVG) from the CSV, with gnuplot: a well-kept Debian
# package with native PNG (cairo) and SVG output, driven by a script so the C stays free of plotting.
figures-plot: $(BUILD)/madpost
	@scripts/deps.sh gnuplot-nox
	@mkdir -p $(BUILD)/plots
	$(BUILD)/madpost linkbw --format csv > $(BUILD)/plots/dslink_bw.csv
	gnuplot -e "csv='$(BUILD)/plots/dslink_bw.csv'; out='$(BUILD)/plots/dslink_bw'" scripts/plot_linkbw.gp
	@echo "figures-plot: $(BUILD)/plots/dslink_bw.png and .svg"

# ---- Benchmarks (speed is measured here, never in tests) -------------------------------------------
bench: $(BUILD)/madpost $(LOCKSTEP)
	$(BUILD)/madpost linkbench --cycles 20000000
	$(BUILD)/madpost meshbench --mesh 16x16 --cycles 20000
	@s=$$(date +%s.%N); $(LOCKSTEP) --test random --seed 1 --cycles 5000000 | tail -1; \
	  e=$$(date +%s.%N); awk -v s=$$s -v e=$$e 'BEGIN { printf "lockstep: 5004000 cycles (2 RTL + 2 model ends) in %.2f s: %.2f M cycles/s\n", e - s, 5.004 / (e - s) }'
	@# the SystemC section (make sc-bench; scripts/sc_bench.sh) is kept as it is
	{ scripts/bench_sim.sh $(BUILD)/madpost; echo; \
	  if grep -q '<!-- systemc:begin -->' docs/performance.md; then \
	    sed -n '/<!-- systemc:begin -->/,/<!-- systemc:end -->/p' docs/performance.md; \
	  else printf '<!-- systemc:begin -->\n<!-- systemc:end -->\n'; fi; } > $(BUILD)/performance.md
	mv $(BUILD)/performance.md docs/performance.md
	@cat docs/performance.md

# Seed 004's results with the network simulator: docs/results/ and docs/results.md (about an
# hour on 2 cores; QUICK=1 for a small check of the pipeline into build/results-quick).
reproduce:
	@scripts/deps.sh gnuplot-nox
	@$(MAKE) --no-print-directory $(BUILD)/madpost
	@if [ "$(QUICK)" = 1 ]; then MADPOST=$(BUILD)/madpost QUICK=1 OUT=$(BUILD)/results-quick \
	  MD=$(BUILD)/results-quick.md scripts/reproduce.sh; else MADPOST=$(BUILD)/madpost scripts/reproduce.sh; fi

# The C104 validation (seeds 000 §4.1.5 and 002 eqs. (1)-(4), universal routing): docs/results/c104_*
# and the C104 section of docs/results.md; a few minutes. QUICK=1 writes build/results-quick-c104.
reproduce-c104:
	@scripts/deps.sh gnuplot-nox
	@$(MAKE) --no-print-directory $(BUILD)/madpost
	@if [ "$(QUICK)" = 1 ]; then MADPOST=$(BUILD)/madpost QUICK=1 OUT=$(BUILD)/results-quick-c104 \
	  MD=/dev/null scripts/reproduce_c104.sh > $(BUILD)/results-quick-c104.md; \
	  else MADPOST=$(BUILD)/madpost scripts/reproduce_c104.sh; fi

# Seed 004's figures asserted on fixed-seed runs (scripts/check_paper.sh, docs/results.md "make
# check-paper"): the gate of issue 14, which the model does not meet yet, so not part of make test.
# Raw outputs in $(BUILD)/check-paper.
check-paper: deps
	@$(MAKE) --no-print-directory $(BUILD)/madpost
	@MADPOST=$(BUILD)/madpost OUT=$(BUILD)/check-paper scripts/check_paper.sh

# ---- Top-level jobs ------------------------------------------------------------------------------
run: deps
	@$(MAKE) --no-print-directory $(LOCKSTEP) $(BUILD)/madpost
	@mkdir -p waves
	$(LOCKSTEP) --test packets --seed 7 --waves
	$(LOCKSTEP) --test faults --seed 7 --cycles 1000000
	$(BUILD)/madpost linkbw --format table
	$(BUILD)/madpost hop --mesh 4x4 --src 0,0 --dst 3,2 --len 4
	$(BUILD)/madpost sim --mesh 8x8 --routing adaptive --load 30 --seeds 2

# ---- libFuzzer targets (tests/fuzz/README.md): clang, ASan + UBSan, into build/fuzz/ -----------
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
# make fuzz: every target for FUZZ_SECONDS each; make fuzz-TARGET (a make test part): one target
# for FUZZ_SMOKE_SECONDS from its committed corpus.
FUZZ_SECONDS       ?= 600
FUZZ_SMOKE_SECONDS ?= 10
.PHONY: fuzz
fuzz: deps
	@for t in $(FUZZ_TARGETS); do scripts/fuzz.sh $$t $(FUZZ_SECONDS) || exit 1; done
fuzz-%: FORCE
	@scripts/fuzz.sh $* $(FUZZ_SMOKE_SECONDS)

# `make test`: every part of every block, two at a time, longest first, each part's whole output
# kept in build/log/<target>.log (scripts/logged.sh), a failing part not stopping the others;
# then the table of block x part (scripts/test_report.sh). Entries are row:part:target (the row
# is the block, but for the variants mp1_awf2 and mp1_torus, which keep rows of their own).
TEST_LOG   := $(BUILD)/log
TEST_PARTS := \
  mp1_mesh:mutants:mutants-mp1_mesh       c104_net:lockstep:test-c104_net \
  c104:mutants:mutants-c104               mp1_torus:lockstep:test-mp1_mesh-torus \
  mp1_mesh:lockstep:test-mp1_mesh         c104:lockstep:test-c104 \
  mp1_awf2:lockstep:test-mp1_mesh-awf2    mp1_chip:mutants:mutants-mp1_chip \
  mp1_chip:lockstep:test-mp1_chip         dslink:mutants:mutants-dslink \
  dslink:lockstep:test-dslink             c104:synth:synth-c104 \
  mp1_awf2:lockstep:test-mp1_chip-awf2    mp1_rm:mutants:mutants-mp1_rm \
  mp1_awf2:mutants:mutants-mp1_rm-awf2    mp1_plane:mutants:mutants-mp1_plane \
  mp1_plane:lockstep:test-mp1_plane       dslink:lockstep:test-dslink-bp3 \
  mp1_awf2:lockstep:test-mp1_plane-awf2   mp1_rm:lockstep:test-mp1_rm \
  mp1_awf2:lockstep:test-mp1_rm-awf2      mp1_chip:synth:synth-mp1_chip \
  mp1_plane:synth:synth-mp1_plane         mp1_rm:synth:synth-mp1_rm   dslink:synth:synth-dslink \
  mp1_rm:gate:gate-mp1_rm                 mp1_rm:gate:gate-mutant-mp1_rm \
  dslink:gate:gate-dslink                 dslink:gate:gate-mutant-dslink \
  dslink:unit:unit-dslink           dslink:unit:unit-dslink_figures   mp1_rm:unit:unit-mp1_rm \
  mp1_mesh:unit:unit-mp1_mesh       mp1_sim:unit:unit-mp1_sim         mp1_sim:unit:unit-net_traffic \
  c104:unit:unit-c104               c104_net:unit:unit-c104_net       t9k_node:unit:unit-t9k_node \
  madpost:unit:unit-cli             contract:unit:unit-contract       mp1_sim:unit:unit-net_input \
  dpi:lockstep:test-dpi             dpi:lint:lint-dpi                 dpi:unit:unit-dpi \
  dslink:fuzz:fuzz-dslink           mp1_rm:fuzz:fuzz-mp1_rm           c104:fuzz:fuzz-c104 \
  mp1_sim:fuzz:fuzz-ini             madpost:fuzz:fuzz-opt             dslink:waves:test-waves \
  library:install:check-headers     library:install:check-exports     library:install:check-abi \
  library:install:test-install \
  dslink:systemc:sc-dslink          systemc:unit:sc-modules           mp1_mesh:systemc:sc-mesh \
  $(foreach b,$(BLOCKS),$(b):lint:lint-$(b)) \
  $(foreach i,$(BUILD_IDS),$(if $($(i).ports),$(if $(findstring -awf2,$(i)),mp1_awf2,$(i)):ports:ports-$(i)))
# What several parts share, built once before they start side by side.
# (A binary two parts run, such as the mesh's, which test-mp1_mesh-torus runs too: built here, or
# the two parts' makes would build it into one directory at once.)
TEST_SHARED := $(LIB) $(SOLIB) $(LIB_SAN) $(BUILD)/madpost $(BUILD)/mutgen $(BUILD)/mutgen_reset $(BUILD)/portlist \
               $(BUILD)/portlist_awf2 $(BUILD)/dpigen $(DPI_SV) $(FST_LIB) $(dslink.mut_bin) \
               $(sort $(foreach i,$(BUILD_IDS),$(if $($(i).build),$(call bin_of,$(i)))))
# A unit test file that no entry names would never run: make test refuses to start.
UNIT_UNLISTED := $(filter-out $(foreach p,$(TEST_PARTS),$(lastword $(subst :, ,$(p)))),$(addprefix unit-,$(UNIT_NAMES)))
test: deps
	@if [ -n "$(UNIT_UNLISTED)" ]; then echo "make test: add $(UNIT_UNLISTED) to TEST_PARTS"; exit 1; fi
	@rm -rf $(TEST_LOG)
	@$(MAKE) --no-print-directory -j2 -O $(TEST_SHARED)
	@$(MAKE) --no-print-directory -j2 -O $(addprefix logged-,$(foreach p,$(TEST_PARTS),$(lastword $(subst :, ,$(p)))))
	@scripts/test_report.sh $(TEST_LOG) $(TEST_PARTS)

logged-%:
	@scripts/logged.sh $(TEST_LOG) $* $(MAKE) --no-print-directory $*

# The merged wave a failing lockstep run writes by itself (docs/waves.md; a make test part): the
# first mutant of the DS-Link's mutant build (mutants-dslink's, hence in TEST_SHARED) that
# WAVES_RUN catches, its VCD and FST checked by scripts/check_waves.sh; in build/waves-check/.
WAVES_RUN ?= --test random --seed 11 --cycles 60000
test-waves: $(dslink.mut_bin) $(if $(FST_OK),$(BUILD)/fst2vcd)
	@scripts/check_waves.sh $(dslink.mut_bin) $(if $(FST_OK),$(BUILD)/fst2vcd,-) $(BUILD)/waves-check '$(WAVES_RUN)'

# ---- The names before tb/<block>.mk (README, docs and scripts may still use them) -------------------
# old:new ... (new: one target, or several joined by +)
ALIASES := test-lockstep:test-dslink test-bp3:test-dslink-bp3 \
  test-mp1-rm:test-mp1_rm test-mp1-plane:test-mp1_plane test-mp1-chip:test-mp1_chip \
  test-mp1-mesh:test-mp1_mesh test-mp1-torus:test-mp1_mesh-torus \
  test-mp1-awf2:ports-mp1_rm-awf2+ports-mp1_plane-awf2+ports-mp1_chip-awf2+test-mp1_rm-awf2+test-mp1_plane-awf2+test-mp1_chip-awf2+test-mp1_mesh-awf2 \
  check-ports-awf2:ports-mp1_rm-awf2+ports-mp1_plane-awf2+ports-mp1_chip-awf2 \
  mutants-mp1-rm:mutants-mp1_rm mutants-mp1-rm-awf2:mutants-mp1_rm-awf2 \
  mutants-mp1-plane:mutants-mp1_plane mutants-mp1-chip:mutants-mp1_chip mutants-mp1-mesh:mutants-mp1_mesh \
  test-c104-bit:test-c104-b16+test-c104-b32 test-c104-net:test-c104_net mutants-c104-net:mutants-c104_net \
  test-c104-unit:unit-c104 ports:check-ports
$(foreach a,$(ALIASES),$(eval $(word 1,$(subst :, ,$(a))): $(subst +, ,$(word 2,$(subst :, ,$(a))))))

.PHONY: test-waves $(foreach i,$(BUILD_IDS),lockstep-$(i) test-$(i) lint-$(i) $(if $($(i).ports),ports-$(i)) \
          $(if $($(i).mutants),mutants-$(i))) \
        $(foreach b,$(BLOCKS),coverage-$(b) $(if $($(b).synth),synth-$(b))) \
        test-gate $(foreach b,$(GATE_BLOCKS),gate-$(b) gate-mutant-$(b)) $(foreach a,$(ALIASES),$(word 1,$(subst :, ,$(a))))

clean:
	rm -rf $(BUILD) waves/*.vcd waves/*.fst waves/*.gtkw

FORCE:
