# mk/tools.mk - the command-line programs (tools/): build/<m>_sim, the simulator, compiled with
# one model (-DMB_MODEL=<m>), and build/mb_anim, the animation tool, one binary for every model
# (it reads the CSV and the drawing info file the simulator writes next to it); make run, the
# plots and the gallery.

# the per-model simulator main objects, in variant V: $(BUILD)/o/V/sim/<m>.o
SIM_GENERIC := -DMB_WITH_GENERIC
$(BUILD)/o/%/sim/fixture_pendulum.o: SIM_GENERIC :=
define TOOL_MAINS
$(BUILD)/o/$(1)/sim/%.o: tools/mb_sim_main.c $$(MK_FILES)
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS_C) $$(VFLAGS_$(1)) -D_POSIX_C_SOURCE=200809L -DMB_MODEL=$$* $$(SIM_GENERIC) \
	    $$(DEPFLAGS) -c $$< -o $$@
endef
$(eval $(call TOOL_MAINS,host))
$(eval $(call TOOL_MAINS,san))
# a simulator's objects: $(call SIM_OBJ,V,MODEL,MODEL SOURCES) (the model with the generic
# evaluator, so --eval generic runs it too)
# the tools' sources every simulator links (tools/mb_sim_main.c is compiled per model)
SIM_TOOL_SRC := tools/mb_progress.c tools/mb_linsys_klu.c tools/mb_analysis_cli.c tools/mb_info.c \
                tools/mb_input_file.c tools/mb_optable.c tools/mb_sim_options.c tools/mb_batch.c \
                tools/mb_sweep_table.c
SIM_OBJ = $(BUILD)/o/$(1)/sim/$(2).o $(RT_OBJ_$(1)) \
          $(call obj,$(1),$(3) evaluator/mb_generic.c $(SIM_TOOL_SRC))
# the animation tool's objects in variant V (no model, no runtime)
ANIM_OBJ = $(call obj,$(1),tools/mb_anim_main.c tools/mb_info.c tools/mb_info_read.c tools/mb_lines.c)

$(BUILD)/%_sim: $(call SIM_OBJ,host,%,generated/%.c generated/%_data.c) $(BUILD)/simsrc/%.dir
	$(call link,host,$(RT_LIBS))
# which directory's C a simulator was linked from (generated/, or $(BUILD)/models for an edited
# shipped model, make sim MODEL=...): a stamp rewritten when that changes, so the two builds of
# $(BUILD)/<m>_sim never pass for each other (the test suite relinks the committed one)
$(BUILD)/simsrc/%.dir: FORCE
	@mkdir -p $(@D); d=$(call shq,$(if $(filter $*,$(MODEL_NAME)),$(MODEL_DIR),generated)); \
	    printf '%s\n' "$$d" | cmp -s - $@ || printf '%s\n' "$$d" >$@
$(BUILD)/fixture_pendulum_sim: $(call SIM_OBJ,host,fixture_pendulum,tests/fixture_pendulum.c)
	$(call link,host,$(RT_LIBS))
# the animation tool: one for every model
$(BUILD)/mb_anim: $(call ANIM_OBJ,host)
	$(call link,host,-lm)

.PHONY: sim anim run plots-deps plots-compare gallery validation model-sim model-run model-gen

# Any model file: MODEL is a name (models/<m>.lua), a file <m>.lua or a path, DEFS generation
# parameters ("N=100", mbgen -D), MBGEN_FLAGS more mbgen options. scripts/model.sh resolves
# them (or stops with a message naming the file, before anything is written) into MODEL_FILE,
# MODEL_BASE (the name the model declares), MODEL_NAME (the C name: MODEL_BASE, or the variant
# MODEL_BASE_N100 with DEFS, MODEL_BASE_redundant_remove with MBGEN_FLAGS),
# MODEL_DIR (generated/ for a shipped model as committed, else $(BUILD)/models) and MODEL_OPTS
# (mbgen's options); a second make builds with them.
DEFS       ?=
# more mbgen options for sim, run, sweep and mcu-build (--redundant MODE, --linalg FORM,
# --no-fused): a variant like DEFS, named after them (scripts/model.sh)
MBGEN_FLAGS ?=
MODEL_VARS := MODEL_FILE MODEL_BASE MODEL_NAME MODEL_DIR MODEL_OPTS
# $(call WITH_MODEL,TARGETS): resolve, then make TARGETS with the model's variables. MODEL and
# DEFS reach scripts/model.sh as they were typed, through the environment (never through the
# shell's parser: a quote in them is text); what it prints is checked, safe to eval.
WITH_MODEL = set -e; vars=$$(MBGEN=$(call shq,$(BUILD)/mbgen) BUILD=$(call shq,$(BUILD)) SHIPPED=$(call shq,$(MODELS)) \
    TESTSIMS=$(call shq,$(TEST_SIMS)) \
    scripts/model.sh "$$MB_MODEL_ARG" "$$MB_DEFS_ARG" "$$MB_MBGEN_FLAGS_ARG"); eval "$$vars"; \
    $(MAKE) --no-print-directory $(foreach v,$(MODEL_VARS),$(v)="$$$(v)") $(1)

# the test suite's own simulators ($(BUILD)/<name>_sim of its test models): a model file that
# declares one of their names is refused like a shipped model's (both rules would link it)
TEST_SIMS = $(filter-out $(MODELS),$(patsubst $(BUILD)/%_sim,%,$(filter $(BUILD)/%_sim,$(TEST_NEEDS))))
sim run mcu-build mcu-run mcu-measure: export MB_MODEL_ARG = $(value MODEL)
sim run mcu-build mcu-run mcu-measure: export MB_DEFS_ARG = $(value DEFS)
sim run mcu-build mcu-run mcu-measure: export MB_MBGEN_FLAGS_ARG = $(value MBGEN_FLAGS)
## sim: the simulator of one model: make sim MODEL=<name | file.lua | path> [DEFS="N=100"] [MBGEN_FLAGS="--redundant remove"] -> build/<name>_sim
sim: $(BUILD)/mbgen
	@$(call WITH_MODEL,model-sim)
## anim: the animation tool, one for every model -> build/mb_anim
anim: $(BUILD)/mb_anim

ifdef MODEL_NAME
model-sim: $(BUILD)/$(MODEL_NAME)_sim
	@:
model-gen: $(MODEL_DIR)/$(MODEL_NAME).c $(MODEL_DIR)/$(MODEL_NAME).h
	@:
ifneq ($(MODEL_DIR),generated)
# a model file outside the committed set, or a variant: generated into $(BUILD)/models; the
# stamp <name>.src holds the file and options, so another file with the same name (or other
# options) regenerates
MODEL_GEN := $(MODEL_DIR)/$(MODEL_NAME).c $(MODEL_DIR)/$(MODEL_NAME).h $(MODEL_DIR)/$(MODEL_NAME)_data.c
$(MODEL_DIR)/$(MODEL_NAME).src: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' $(call shq,$(abspath $(MODEL_FILE)) $(MODEL_OPTS)) | cmp -s - $@ || \
	    printf '%s\n' $(call shq,$(abspath $(MODEL_FILE)) $(MODEL_OPTS)) >$@
$(MODEL_GEN) &: $(MODEL_FILE) $(MODEL_DIR)/$(MODEL_NAME).src $(BUILD)/mbgen $(GEN_LUA) $(GEN_TPL)
	$(BUILD)/mbgen $(call shq,$(MODEL_FILE)) $(call shwords,$(MODEL_OPTS)) -o $(call shq,$(MODEL_DIR)) && touch $(MODEL_GEN)
$(BUILD)/$(MODEL_NAME)_sim: $(call SIM_OBJ,host,$(MODEL_NAME),$(MODEL_DIR)/$(MODEL_NAME).c $(MODEL_DIR)/$(MODEL_NAME)_data.c) \
                            $(BUILD)/simsrc/$(MODEL_NAME).dir
	$(call link,host,$(RT_LIBS))
endif
endif

# make run [MODEL=andrews] [DEFS=...] [FORMULATION=alf-trapezoid] [RUN_ARGS="--t-end 0.3"] [TRACE=B.P]
# [MBGEN_FLAGS=...]
# make run MODEL=double_pendulum ANALYSIS=modal: another analysis (scripts/run_analysis.sh): its CSV,
# the mode-shape pictures and animation, or the Bode plot (ANALYSIS=frequency RUN_ARGS="--input mass.x")
FORMULATION ?= alf-trapezoid
ANALYSIS    ?=
RUN_ARGS    ?=
TRACE       ?=
# The run settings (t_end, h, the formulation's parameters) are the simulator's defaults: the
# model file's simulate { ... } (docs/model-language.md). --every 10: one CSV row per 10 steps,
# for fixed-step runs only (an adaptive run's --every is seconds: its default, a row every h),
# and not when RUN_ARGS gives --every. --formulation: only a FORMULATION that was given (the
# command line or the environment); else the simulator's default, or RUN_ARGS' --formulation.
RUN_ADAPTIVE := --every% --rtol% --atol% dopri5 dop853 bdf --integrator=dopri5 --integrator=dop853 --integrator=bdf
RUN_OPTS = $(if $(filter $(RUN_ADAPTIVE),$(RUN_ARGS)),,--every 10) $(RUN_ARGS)
RUN_FORM = $(if $(filter file default undefined,$(origin FORMULATION)),,$(FORMULATION))
COMPARE_FORMS := baumgarte canonical alf-explicit alf-trapezoid
# make run MODEL=cartpole: the closed loop (scripts/run_control.sh, docs/control.md) for the shipped
# cart-pole (not a DEFS variant: the controller is built on generated/cartpole.c), unless
# CONTROL=none (the open loop) or FORMULATION is given; CONTROL=lqr for another model: refused
CONTROL ?=
ifneq ($(filter-out lqr none,$(CONTROL)),)
$(error CONTROL=$(CONTROL): lqr (the cart-pole's closed loop) or none (the open loop))
endif
RUN_CONTROL = $(if $(and $(filter cartpole,$(MODEL_NAME)),$(filter generated,$(MODEL_DIR)),$(filter-out none,$(or $(CONTROL),lqr)),$(if $(RUN_FORM),,x)),lqr)

plots-deps:
	@scripts/deps.sh core plots

## run: simulate MODEL (a name, file or path; DEFS) with FORMULATION: results/<name>.csv, PNG plots, an HTML animation; ANALYSIS=modal|frequency|...: that analysis and its plots
run: plots-deps $(BUILD)/mbgen
	@$(call WITH_MODEL,model-run)
# (RESULTS and TRACE reach the scripts through the environment: a space or a quote is text;
# ANALYSIS is one quoted word, RUN_ARGS each of its words quoted: a quote, ; or * in them is text)
model-run: export MB_RESULTS = $(RESULTS)
model-run: export MB_TRACE = $(TRACE)
model-run: export MB_RUN_FORM = $(RUN_FORM)
model-run: model-sim $(BUILD)/mb_anim $(if $(RUN_CONTROL),$(BUILD)/cartpole_lqr)
	@$(if $(and $(filter lqr,$(CONTROL)),$(if $(RUN_CONTROL),,x)),echo "make run: CONTROL=lqr balances the shipped cart-pole only (MODEL=cartpole without DEFS or FORMULATION)" >&2; exit 2)
ifneq ($(filter-out dynamic,$(ANALYSIS)),)
	@RESULTS="$$MB_RESULTS" BUILD=$(call shq,$(BUILD)) scripts/run_analysis.sh $(call shq,$(MODEL_NAME)) \
	    $(call shq,$(ANALYSIS)) $(call shwords,$(RUN_ARGS))
else ifneq ($(RUN_CONTROL),)
	@TRACE="$$MB_TRACE" RESULTS="$$MB_RESULTS" BUILD=$(call shq,$(BUILD)) MODEL_DIR=$(call shq,$(MODEL_DIR)) \
	    scripts/run_control.sh $(call shwords,$(RUN_OPTS))
else
	@TRACE="$$MB_TRACE" RESULTS="$$MB_RESULTS" BUILD=$(call shq,$(BUILD)) MODEL_DIR=$(call shq,$(MODEL_DIR)) \
	    scripts/run.sh $(call shq,$(MODEL_NAME)) "$$MB_RUN_FORM" $(call shwords,$(RUN_OPTS))
endif

plots-compare gallery: export MB_RESULTS = $(RESULTS)
## plots-compare: the four formulations on the double pendulum, 5 s (thesis figures 11-13)
plots-compare: plots-deps
	@$(MAKE) --no-print-directory $(BUILD)/double_pendulum_sim
	@BUILD=$(call shq,$(BUILD)) RESULTS="$$MB_RESULTS" scripts/plots_compare.sh $(call shq,$(COMPARE_FORMS)) --every 10

## gallery: make run and plots-compare, then the README's images in docs/img
gallery:
	@$(MAKE) --no-print-directory run MODEL=andrews FORMULATION=alf-trapezoid RUN_ARGS= TRACE=
	@$(MAKE) --no-print-directory plots-compare
	@RESULTS="$$MB_RESULTS" scripts/gallery.sh $(call shq,$(COMPARE_FORMS))

## validation: the long validation runs (not in the suite): writes docs/validation.md, docs/data/
validation: $(MODELS:%=$(BUILD)/%_sim)
	tests/runtime_validation.sh

# the exact references of make validate-accuracy (tests/accuracy/: long double, libm only,
# independent of the runtime)
ACC_REFS := $(BUILD)/ref_pendulum $(BUILD)/ref_chain $(BUILD)/ref_crank_rocker
$(BUILD)/ref_%: tests/accuracy/ref_%.c tests/accuracy/ref_common.h
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -Wdouble-promotion -pedantic -O2 $< -o $@ -lm
.PHONY: validate-accuracy
## validate-accuracy: every integrator x formulation pair against exact references, error against rtol and h, warnings' false alarms and misses: results/accuracy.txt [QUICK=1]
validate-accuracy: $(BUILD)/mbgen $(ACC_REFS)
	@mkdir -p $(call shq,$(RESULTS))
	@BUILD=$(call shq,$(BUILD)) RESULTS=$(call shq,$(RESULTS)) scripts/validate_accuracy.sh

# the progress bar's test; the animation and plot test runs a short Andrews simulation (needs
# gnuplot and xmllint, the plots group; a Chromium screenshot only when Chromium is installed)
$(BUILD)/test_progress: $(call obj,san,tests/test_progress.c tools/mb_progress.c)
	$(call link,san,-lm)
TEST_PROGS   += $(BUILD)/test_progress
TEST_SCRIPTS += tests/test_plot_paths.sh tests/test_run_script.sh tests/test_runtime_cli.sh tests/test_anim.sh tests/test_make_models.sh tests/test_presets.sh
TEST_NEEDS   += plots-deps $(BUILD)/fixture_pendulum_sim $(BUILD)/fourbar_singular_sim \
                $(BUILD)/andrews_sim $(BUILD)/mb_anim $(BUILD)/point_pendulum_sim $(BUILD)/oscillator_1dof_sim \
                $(BUILD)/fault_velconflict_sim $(BUILD)/shaper_sim $(BUILD)/gear_train_sim \
                $(BUILD)/kin_meshes_sim $(BUILD)/bouncing_ball_sim \
                $(BUILD)/cam_follower_sim $(BUILD)/kin_cams_sim $(BUILD)/geneva_sim $(BUILD)/valve_jump_sim
