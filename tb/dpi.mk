# DPI-C (docs/dpi.md): tools/dpigen writes each block's SystemVerilog layer into build/dpi/ (a
# package, a reference module, a shadow checker); lint-dpi lints them all and checks the reference
# modules' ports against the port lists; test-dpi builds and runs the DS-Link DPI bench
# (tb/dpi/dslink_dpi_tb.sv): the RTL against a C-model peer and a C-model shadow, then one RTL
# mutant, which must be reported. Read by the Makefile (not a block of BLOCKS: no lockstep of its own).

DPI_BLOCKS := dslink mp1_rm mp1_plane mp1_chip c104
DPI_KINDS  := pkg ref shadow
DPI_DIR    := $(BUILD)/dpi
DPI_SV     := $(foreach b,$(DPI_BLOCKS),$(foreach k,$(DPI_KINDS),$(DPI_DIR)/madpost_$(b)_$(k).sv))
# The bench, built twice: on rtl/ as it is (the clean run) and on tools/mutgen's copies of it
# (+mutant=K selects a mutant of tb/dslink_mutants.txt), so the clean run's DUT is the RTL itself.
DPI_RTL    := $(wildcard rtl/dslink*.sv)
DPI_TB_DIR := $(BUILD)/vl/dslink_dpi
DPI_TB     := $(DPI_TB_DIR)/Vdslink_dpi
DPI_MUT_TB := $(DPI_TB_DIR)_mut/Vdslink_dpi
DPI_CYCLES ?= 1000000
DPI_SEED   ?= 1
# tb/dslink_mutants.txt's 8th: the transmitter sends data tokens with even parity.
DPI_MUTANT ?= 8
DPI_MUT_CYCLES ?= 20000

$(BUILD)/dpigen: tools/dpigen.c $(PORT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) $< -o $@

# build/dpi/madpost_<block>_<kind>.sv: kind is the stem's last word (pkg, ref, shadow).
$(DPI_DIR)/madpost_%.sv: $(BUILD)/dpigen
	@mkdir -p $(@D)
	$(BUILD)/dpigen $(lastword $(subst _, ,$*)) $(patsubst %_$(lastword $(subst _, ,$*)),%,$*) > $@.tmp
	@mv $@.tmp $@

dpi: $(DPI_SV)

lint-dpi: $(DPI_SV) $(BUILD)/portlist
	@set -e; for b in $(DPI_BLOCKS); do for k in ref shadow; do \
	  echo "== lint: madpost_$${b}_$$k"; \
	  $(call vlint,madpost_$${b}_$$k) $(DPI_DIR)/madpost_$${b}_pkg.sv $(DPI_DIR)/madpost_$${b}_$$k.sv; done; \
	  scripts/check_ports.sh $(BUILD)/portlist $$b madpost_$${b}_ref $(DPI_DIR)/madpost_$${b}_pkg.sv \
	    $(DPI_DIR)/madpost_$${b}_ref.sv; done
	@echo "lint-dpi: every package, reference module and shadow verilator -Wall clean; every reference module has its block's ports"

# Verilator --binary (--timing: the bench's clock is a delay): $(call dpi_tb_build,RTL files).
define dpi_tb_build
	@echo "== verilator: building the DS-Link DPI bench in $(@D)"
	@rm -f $@
	verilator --binary -j $(JOBS) --prefix Vdslink_dpi --top-module dslink_dpi_tb -Wno-fatal -O3 \
	  --x-assign fast --x-initial fast -MAKEFLAGS "$(VL_OPT)" -Mdir $(@D) \
	  -CFLAGS "-I$(CURDIR)/include" -LDFLAGS "$(CURDIR)/$(LIB)" \
	  $(addprefix $(DPI_DIR)/madpost_dslink_,pkg.sv ref.sv shadow.sv) $(1) \
	  $(CURDIR)/tb/dpi/dslink_dpi_tb.sv $(CURDIR)/tb/dpi/dpi_check.cpp > $(@D)/build.log 2>&1 || { tail -40 $(@D)/build.log; exit 1; }
endef
DPI_TB_DEPS := $(DPI_SV) tb/dpi/dslink_dpi_tb.sv tb/dpi/dpi_check.cpp $(LIB) $(CMODEL_HDR) $(DPI_RTL)
$(DPI_TB): $(DPI_TB_DEPS)
	@mkdir -p $(@D)
	$(call dpi_tb_build,$(DPI_RTL))
$(DPI_MUT_TB): $(DPI_TB_DEPS) $(BUILD)/mutgen tb/dslink_mutants.txt
	@mkdir -p $(@D)/rtl
	$(BUILD)/mutgen tb/dslink_mutants.txt $(@D)/rtl $(DPI_RTL)
	$(call dpi_tb_build,$(addprefix $(@D)/rtl/,$(notdir $(DPI_RTL))))

lockstep-dpi: $(DPI_TB)

# The clean run (it must write no merged wave), then the mutant: it must fail, with the shadow's
# mismatch messages, and leave the merged wave of its last cycles, checked as make test-waves
# checks the lockstep's (scripts/check_waves.sh --log, docs/waves.md); then the same mutant with
# +madpost_waves: the whole run's merged wave, the same checks.
DPI_WAVES := $(DPI_DIR)/waves
test-dpi: $(DPI_TB) $(DPI_MUT_TB)
	@rm -rf $(DPI_WAVES); mkdir -p $(DPI_WAVES)/clean $(DPI_WAVES)/last $(DPI_WAVES)/whole
	$(DPI_TB) +cycles=$(DPI_CYCLES) +seed=$(DPI_SEED) +madpost_wave_dir=$(DPI_WAVES)/clean
	@if [ -n "$$(ls -A $(DPI_WAVES)/clean)" ]; then echo "test-dpi: the clean run wrote a merged wave"; exit 1; fi
	@$(DPI_MUT_TB) +cycles=$(DPI_MUT_CYCLES) +seed=$(DPI_SEED) +mutant=$(DPI_MUTANT) \
	  +madpost_wave_dir=$(DPI_WAVES)/last > $(DPI_WAVES)/last.log 2>&1; rc=$$?; \
	  tail -25 $(DPI_WAVES)/last.log; \
	  if [ $$rc -ne 0 ] && grep -q 'DPI MISMATCH' $(DPI_WAVES)/last.log; then \
	    echo "test-dpi: mutant $(DPI_MUTANT) reported as mismatches, the run failed (exit $$rc): killed"; \
	  else echo "test-dpi: mutant $(DPI_MUTANT) NOT reported (exit $$rc)"; exit 1; fi
	scripts/check_waves.sh --log $(DPI_WAVES)/last.log $(DPI_WAVES)/check-last
	@$(DPI_MUT_TB) +cycles=$(DPI_MUT_CYCLES) +seed=$(DPI_SEED) +mutant=$(DPI_MUTANT) +madpost_waves \
	  +madpost_wave_dir=$(DPI_WAVES)/whole > $(DPI_WAVES)/whole.log 2>&1; \
	  grep -q 'merged wave (.*the whole run' $(DPI_WAVES)/whole.log || { echo "test-dpi: +madpost_waves: no whole-run merged wave line"; exit 1; }
	scripts/check_waves.sh --log $(DPI_WAVES)/whole.log $(DPI_WAVES)/check-whole

.PHONY: dpi lint-dpi lockstep-dpi test-dpi
