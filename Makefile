# Makefile - build the generator, generate the models, build the runtime, run the tests.
# Targets: all (default), generate, test, sim MODEL=name, run, clean. See README.md.

# ---------------------------------------------------------------- settings
CC       ?= cc
CSTD     := -std=c99
WARN     := -Wall -Wextra -Werror
WARN_GEN := $(WARN) -pedantic
OPT      ?= -O2 -g
SAN      := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LUA_CFLAGS := $(shell pkg-config --cflags lua5.4 2>/dev/null)
LUA_LIBS   := $(shell pkg-config --libs lua5.4 2>/dev/null)
LAPACKE_LIBS := $(shell pkg-config --libs lapacke 2>/dev/null) -llapack -lblas
BUILD    := build
MODELS   := double_pendulum andrews slider_crank fourbar_singular oscillator_1dof chain
MODEL    ?= andrews

# Every C test program to run; each ends with "N passed, N failed". Sections add to it.
TEST_PROGS :=
# Shell/script tests run by tests/run.sh as well.
TEST_SCRIPTS :=

.PHONY: all deps generate test sim run clean
.DELETE_ON_ERROR:

all: deps $(BUILD)/mbgen generate

deps:
	@scripts/deps.sh core

$(BUILD):
	@mkdir -p $(BUILD)

# ---------------------------------------------------------------- generator

# ---------------------------------------------------------------- runtime

# ---------------------------------------------------------------- run and plots
# make run [MODEL=andrews] [FORMULATION=alf-trapezoid] [RUN_ARGS="--t-end 0.3"] [TRACE=B.P]
# make anim MODEL=name, make plots-compare (thesis figures 11-13), make gallery (docs/img).
FORMULATION ?= alf-trapezoid
RESULTS     := results
RUN_ARGS    ?=
TRACE       ?=
# Thesis parameters (SPEC.md): per model, then per model and formulation. Others: the
# simulator's defaults. --every thins the CSV (one row per 10 steps).
RUNP_andrews                := --t-end 0.05 --h 1e-5 --every 10
RUNP_andrews_alf-trapezoid  := --alpha 1e8 --xi 1e4 --omega 1 --tol 1e-10 --max-iter 10
RUNP_andrews_alf-explicit   := --alpha 1e8 --xi 1e4 --omega 1 --tol 1e-10 --max-iter 10
RUNP_double_pendulum        := --t-end 5 --h 1e-3 --every 10
RUN_OPTS = $(RUNP_$(MODEL)) $(RUNP_$(MODEL)_$(FORMULATION)) $(RUN_ARGS)
COMPARE_FORMS := baumgarte canonical alf-explicit alf-trapezoid
ANIM_SRC := runtime/mb_anim_main.c runtime/mb_model.h runtime/mb_config.h

.PHONY: anim plots-deps plots-compare gallery

plots-deps:
	@scripts/deps.sh core plots

# The animation tool, one per model like the simulator: only the model's point functions.
$(BUILD)/%_anim: $(ANIM_SRC) generated/%.c generated/%.h Makefile | $(BUILD)
	$(CC) $(CSTD) $(WARN) $(OPT) -Iruntime -Igenerated -DMB_MODEL_VAR=$*_model \
	    runtime/mb_anim_main.c generated/$*.c -lm -o $@

anim: $(BUILD)/$(MODEL)_anim

# Simulate MODEL, write results/MODEL.csv, the PNG plots and results/MODEL.html.
run: plots-deps
	@$(MAKE) --no-print-directory $(BUILD)/$(MODEL)_sim $(BUILD)/$(MODEL)_anim
	@TRACE='$(TRACE)' RESULTS=$(RESULTS) BUILD=$(BUILD) \
	    scripts/run.sh $(MODEL) $(FORMULATION) $(RUN_OPTS)

# The four formulations on the double pendulum, 5 s, h = 1e-3, thesis parameters.
plots-compare: plots-deps
	@$(MAKE) --no-print-directory $(BUILD)/double_pendulum_sim
	@mkdir -p $(RESULTS)/compare
	@for f in $(COMPARE_FORMS); do \
	    echo "== double_pendulum, $$f"; \
	    $(BUILD)/double_pendulum_sim --formulation $$f $(RUNP_double_pendulum) \
	        --out $(RESULTS)/compare/double_pendulum_$$f.csv || exit 1; \
	done
	@scripts/plot.sh --label "double pendulum, 5 s, h = 1e-3 s" \
	    --compare $(RESULTS)/double_pendulum_compare \
	    $(foreach f,$(COMPARE_FORMS),$(RESULTS)/compare/double_pendulum_$(f).csv:$(f))

TEST_PROGS += $(BUILD)/test_progress
$(BUILD)/test_progress: tests/test_progress.c runtime/mb_progress.c runtime/mb_progress.h \
                        tests/check.h Makefile | $(BUILD)
	$(CC) $(CSTD) $(WARN) $(OPT) $(SAN) -Iruntime -Itests tests/test_progress.c \
	    runtime/mb_progress.c -lm -o $@

# ---------------------------------------------------------------- tests
test: deps $(TEST_PROGS)
	@tests/run.sh $(TEST_PROGS) $(TEST_SCRIPTS)

clean:
	rm -rf $(BUILD)
