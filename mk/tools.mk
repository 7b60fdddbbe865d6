# mk/tools.mk - the command-line programs (tools/): build/<m>_sim, the simulator, and
# build/<m>_anim, the animation tool, each compiled with one model (-DMB_MODEL=<m>); make run,
# the plots and the gallery.

# the per-model main objects, in variant V: $(BUILD)/o/V/sim/<m>.o and anim/<m>.o
SIM_GENERIC := -DMB_WITH_GENERIC
$(BUILD)/o/%/sim/fixture_pendulum.o: SIM_GENERIC :=
define TOOL_MAINS
$(BUILD)/o/$(1)/sim/%.o: tools/mb_sim_main.c $$(MK_FILES)
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS_C) $$(VFLAGS_$(1)) -D_POSIX_C_SOURCE=200809L -DMB_MODEL=$$* $$(SIM_GENERIC) \
	    $$(DEPFLAGS) -c $$< -o $$@
$(BUILD)/o/$(1)/anim/%.o: tools/mb_anim_main.c $$(MK_FILES)
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS_C) $$(VFLAGS_$(1)) -DMB_MODEL=$$* $$(DEPFLAGS) -c $$< -o $$@
endef
$(eval $(call TOOL_MAINS,host))
$(eval $(call TOOL_MAINS,san))
# a simulator's objects: $(call SIM_OBJ,V,MODEL,MODEL SOURCES) (the model with the generic
# evaluator, so --eval generic runs it too)
SIM_OBJ = $(BUILD)/o/$(1)/sim/$(2).o $(RT_OBJ_$(1)) \
          $(call obj,$(1),$(3) evaluator/mb_generic.c tools/mb_progress.c tools/mb_linsys_klu.c)

$(BUILD)/%_sim: $(call SIM_OBJ,host,%,generated/%.c generated/%_data.c)
	$(call link,host,$(RT_LIBS))
$(BUILD)/fixture_pendulum_sim: $(call SIM_OBJ,host,fixture_pendulum,tests/fixture_pendulum.c)
	$(call link,host,$(RT_LIBS))
# the animation tool: only the model's point functions
$(BUILD)/%_anim: $(BUILD)/o/host/anim/%.o $(call obj,host,generated/%.c)
	$(call link,host,-lm)

.PHONY: sim anim run plots-deps plots-compare gallery validation
## sim: build/$(MODEL)_sim, the simulator of one model (make sim MODEL=<m>)
sim: $(BUILD)/$(MODEL)_sim
## anim: build/$(MODEL)_anim, the animation tool of one model
anim: $(BUILD)/$(MODEL)_anim

# make run [MODEL=andrews] [FORMULATION=alf-trapezoid] [RUN_ARGS="--t-end 0.3"] [TRACE=B.P]
FORMULATION ?= alf-trapezoid
RUN_ARGS    ?=
TRACE       ?=
# Thesis parameters (SPEC.md): per model, then per model and formulation. Others: the
# simulator's defaults (per model, in mb_sim_main.c). --every 10: one CSV row per 10 steps.
RUNP_andrews                := --t-end 0.05 --h 1e-5 --every 10
RUNP_andrews_alf-trapezoid  := --alpha 1e8 --xi 1e4 --omega 1 --tol 1e-10 --max-iter 10
RUNP_andrews_alf-explicit   := --alpha 1e8 --xi 1e4 --omega 1 --tol 1e-10 --max-iter 10
RUNP_double_pendulum        := --t-end 5 --h 1e-3 --every 10
RUN_OPTS = $(or $(RUNP_$(MODEL)),--every 10) $(RUNP_$(MODEL)_$(FORMULATION)) $(RUN_ARGS)
COMPARE_FORMS := baumgarte canonical alf-explicit alf-trapezoid

plots-deps:
	@scripts/deps.sh core plots

## run: simulate MODEL with FORMULATION, write results/MODEL.csv, PNG plots and an HTML animation
run: plots-deps
	@$(MAKE) --no-print-directory $(BUILD)/$(MODEL)_sim $(BUILD)/$(MODEL)_anim
	@TRACE='$(TRACE)' RESULTS=$(RESULTS) BUILD=$(BUILD) \
	    scripts/run.sh $(MODEL) $(FORMULATION) $(RUN_OPTS)

## plots-compare: the four formulations on the double pendulum, 5 s (thesis figures 11-13)
plots-compare: plots-deps
	@$(MAKE) --no-print-directory $(BUILD)/double_pendulum_sim
	@BUILD=$(BUILD) RESULTS=$(RESULTS) scripts/plots_compare.sh "$(COMPARE_FORMS)" $(RUNP_double_pendulum)

## gallery: make run and plots-compare, then the README's images in docs/img
gallery:
	@$(MAKE) --no-print-directory run MODEL=andrews FORMULATION=alf-trapezoid RUN_ARGS= TRACE=
	@$(MAKE) --no-print-directory plots-compare
	@RESULTS=$(RESULTS) scripts/gallery.sh "$(COMPARE_FORMS)"

## validation: the long validation runs (not in the suite): writes docs/validation.md, docs/data/
validation: $(MODELS:%=$(BUILD)/%_sim)
	tests/runtime_validation.sh

# the progress bar's test; the animation and plot test runs a short Andrews simulation (needs
# gnuplot and xmllint, the plots group; a Chromium screenshot only when Chromium is installed)
$(BUILD)/test_progress: $(call obj,san,tests/test_progress.c tools/mb_progress.c)
	$(call link,san,-lm)
TEST_PROGS   += $(BUILD)/test_progress
TEST_SCRIPTS += tests/test_runtime_cli.sh tests/test_anim.sh
TEST_NEEDS   += plots-deps $(BUILD)/fixture_pendulum_sim $(BUILD)/fourbar_singular_sim \
                $(BUILD)/andrews_sim $(BUILD)/andrews_anim
