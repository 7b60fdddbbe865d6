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

all: deps $(BUILD)/mbgen generate $(BUILD)/libmbrt.a

deps:
	@scripts/deps.sh core

$(BUILD):
	@mkdir -p $(BUILD)

# ---------------------------------------------------------------- generator
# build/mbgen: the C host embedding Lua 5.4 (modules from generator/ next to build/, else the
# compiled-in path). generated/<m>.c and .h are real targets of one mbgen run each; mbgen
# rewrites only changed files, so the rule touches both to mark them up to date.
GEN_LUA    := $(wildcard generator/*.lua)
GEN_C      := generator/mbgen.c generator/mbgen_plan.c generator/mb_plan_build.c
GEN_TPL    := $(wildcard templates/*)
GEN_CFLAGS := $(CSTD) $(WARN) $(LUA_CFLAGS) -Iruntime -I/usr/include/suitesparse \
              -DMBGEN_GENDIR='"$(CURDIR)/generator"'
GENERATED  := $(foreach m,$(MODELS),generated/$(m).c generated/$(m).h)

$(BUILD)/mbgen: $(GEN_C) generator/mb_plan_build.h runtime/mb_model.h Makefile | $(BUILD)
	$(CC) $(GEN_CFLAGS) $(OPT) $(GEN_C) $(LUA_LIBS) -lamd -o $@

generate: $(GENERATED)

generated/%.c generated/%.h: models/%.lua $(BUILD)/mbgen $(GEN_LUA) $(GEN_TPL)
	$(BUILD)/mbgen $< -o generated
	@touch generated/$*.c generated/$*.h

# tests/test_mbgen.sh: hostile models (tests/hostile), command line, outputs; the hostile
# corpus also runs against the host built with ASan+UBSan.
$(BUILD)/mbgen_san: $(GEN_C) generator/mb_plan_build.h runtime/mb_model.h Makefile | $(BUILD)
	$(CC) $(GEN_CFLAGS) -O1 -g $(SAN) $(GEN_C) $(LUA_LIBS) -lamd -o $@

TEST_SCRIPTS += tests/test_mbgen.sh
test: $(BUILD)/mbgen $(BUILD)/mbgen_san

# ---------------------------------------------------------------- runtime
# The runtime core (formulations, integrators, assembly, linear algebra) built once per
# variant: host (LAPACKE) and builtin (-DMB_NO_LAPACKE, the embedded path). The simulator
# is one shared driver compiled with one model: make sim MODEL=<name> -> build/<name>_sim.
RT_CORE    := runtime/mb_sim.c runtime/mb_assembly.c runtime/mb_f1_baumgarte.c runtime/mb_f2_canonical.c \
              runtime/mb_f3_alf.c runtime/mb_f4_trapezoid.c runtime/mb_kkt.c runtime/mb_rk.c runtime/mb_linsys.c \
              runtime/mb_sparse.c runtime/mb_monitor.c
RT_SRC     := $(RT_CORE) runtime/mb_linalg.c runtime/mb_status.c
RT_HDR     := runtime/mb_sim.h runtime/mb_sparse.h runtime/mb_linalg.h runtime/mb_status.h runtime/mb_model.h runtime/mb_config.h \
              runtime/mb_sim_impl.h runtime/mb_vec.h runtime/mb_layout.h
RT_CFLAGS  := $(CSTD) $(WARN) -Wdouble-promotion -Iruntime -Ievaluator -Igenerated -Igenerator -Itools -I/usr/include/suitesparse
RT_LIBS    := $(LAPACKE_LIBS) -lklu -lamd -lm
# the planner (AMD ordering, symbolic factorization) for models that carry no plan: the generic
# evaluator and hand-written test models; host programs only, never the firmware
RT_PLAN    := generator/mb_plan_build.c
RT_OBJ     := $(RT_SRC:runtime/%.c=$(BUILD)/rt/%.o) $(BUILD)/rt/mb_plan_build.o
RT_OBJ_B   := $(RT_SRC:runtime/%.c=$(BUILD)/rt_builtin/%.o) $(BUILD)/rt/mb_plan_build.o
RT_OBJ_F   := $(RT_SRC:runtime/%.c=$(BUILD)/rt_float/%.o) $(BUILD)/rt/mb_plan_build.o
# the builtin backend under other names, so one test links both backends side by side
LINALG_B_RENAME := -DMB_NO_LAPACKE -Dmb_lu_factor=mbb_lu_factor -Dmb_lu_solve=mbb_lu_solve \
	-Dmb_chol_factor=mbb_chol_factor -Dmb_chol_solve=mbb_chol_solve -Dmb_linalg_backend=mbb_linalg_backend
# generated models present in the tree (the physics suite runs on each of them)
RT_GEN     := $(wildcard $(MODELS:%=generated/%.c))
RT_GEN_DEF := $(foreach f,$(RT_GEN),-DMB_HAVE_$(basename $(notdir $(f))))

$(BUILD)/rt/%.o: runtime/%.c $(RT_HDR) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) $(OPT) -c $< -o $@
$(BUILD)/rt_builtin/%.o: runtime/%.c $(RT_HDR) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) $(OPT) -DMB_NO_LAPACKE -c $< -o $@
$(BUILD)/rt_float/%.o: runtime/%.c $(RT_HDR) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) $(OPT) -DMB_FLOAT -c $< -o $@
$(BUILD)/rt/mb_plan_build.o: generator/mb_plan_build.c generator/mb_plan_build.h $(RT_HDR) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) $(OPT) -c $< -o $@
$(BUILD)/rt/linalg_builtin_renamed.o: runtime/mb_linalg.c $(RT_HDR) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) $(OPT) $(LINALG_B_RENAME) -c $< -o $@

# build/libmbrt.a: the solver library alone (runtime/, host variant), what a program links
$(BUILD)/libmbrt.a: $(RT_SRC:runtime/%.c=$(BUILD)/rt/%.o)
	rm -f $@ && ar rcs $@ $^
lib: $(BUILD)/libmbrt.a
.PHONY: lib

# build/<model>_sim from generated/<model>.c (or the hand-written fixture)
sim: $(BUILD)/$(MODEL)_sim
SIM_MAIN := tools/mb_sim_main.c tools/mb_progress.c tools/mb_linsys_klu.c
$(BUILD)/%_sim: generated/%.c generated/%_data.c evaluator/mb_generic.c evaluator/mb_generic.h $(SIM_MAIN) tools/mb_progress.h $(RT_OBJ) $(RT_HDR) Makefile
	$(CC) $(RT_CFLAGS) -D_POSIX_C_SOURCE=200809L $(OPT) -DMB_MODEL=$* -DMB_WITH_GENERIC $(SIM_MAIN) $< \
	    generated/$*_data.c evaluator/mb_generic.c $(RT_OBJ) $(RT_LIBS) -o $@
$(BUILD)/fixture_pendulum_sim: tests/fixture_pendulum.c $(SIM_MAIN) tools/mb_progress.h $(RT_OBJ) $(RT_HDR) Makefile
	$(CC) $(RT_CFLAGS) -D_POSIX_C_SOURCE=200809L $(OPT) -DMB_MODEL=fixture_pendulum $(SIM_MAIN) $< $(RT_OBJ) $(RT_LIBS) -o $@

# tests: linear algebra (both backends), runtime API and assembly, the shared physics suite
# (host, builtin backend, and under ASan+UBSan)
RT_TEST_DEP := tests/check.h tests/fixture_pendulum.c tests/test_physics_models.h tests/test_plan.h $(RT_HDR) Makefile
$(BUILD)/test_runtime_linalg: tests/test_runtime_linalg.c $(RT_OBJ) $(BUILD)/rt/linalg_builtin_renamed.o $(RT_TEST_DEP)
	$(CC) $(RT_CFLAGS) $(OPT) $< $(RT_OBJ) $(BUILD)/rt/linalg_builtin_renamed.o $(RT_LIBS) -o $@
# the planner and the compact sparse kernels against dense products (every model, AMD and natural)
$(BUILD)/test_sparse: tests/test_sparse.c $(RT_OBJ) $(RT_GEN) $(RT_TEST_DEP) tests/test_plan.h
	$(CC) $(RT_CFLAGS) $(OPT) $(RT_GEN_DEF) $< tests/fixture_pendulum.c $(RT_GEN) $(RT_OBJ) $(RT_LIBS) -o $@
$(BUILD)/test_sparse_san: tests/test_sparse.c $(RT_SRC) $(RT_GEN) $(RT_TEST_DEP)
	$(CC) $(RT_CFLAGS) -O1 -g $(SAN) $(RT_GEN_DEF) $< tests/fixture_pendulum.c $(RT_GEN) $(RT_SRC) $(RT_PLAN) $(RT_LIBS) -o $@
$(BUILD)/test_runtime: tests/test_runtime.c $(RT_OBJ) $(RT_GEN) $(RT_TEST_DEP)
	$(CC) $(RT_CFLAGS) $(OPT) $(RT_GEN_DEF) $< tests/fixture_pendulum.c $(RT_GEN) $(RT_OBJ) $(RT_LIBS) -o $@
$(BUILD)/test_physics: tests/test_physics.c $(RT_OBJ) $(RT_GEN) $(RT_TEST_DEP)
	$(CC) $(RT_CFLAGS) $(OPT) $(RT_GEN_DEF) $< tests/fixture_pendulum.c $(RT_GEN) $(RT_OBJ) $(RT_LIBS) -o $@
$(BUILD)/test_physics_builtin: tests/test_physics.c $(RT_OBJ_B) $(RT_GEN) $(RT_TEST_DEP)
	$(CC) $(RT_CFLAGS) $(OPT) $(RT_GEN_DEF) -DMB_NO_LAPACKE $< tests/fixture_pendulum.c $(RT_GEN) $(RT_OBJ_B) -lamd -lm -o $@
$(BUILD)/test_physics_float: tests/test_physics.c $(RT_OBJ_F) $(RT_TEST_DEP)
	$(CC) $(RT_CFLAGS) $(OPT) -DMB_FLOAT $< tests/fixture_pendulum.c $(RT_OBJ_F) $(RT_LIBS) -o $@
$(BUILD)/test_runtime_san: tests/test_runtime.c $(RT_SRC) $(RT_GEN) $(RT_TEST_DEP)
	$(CC) $(RT_CFLAGS) -O1 -g $(SAN) $(RT_GEN_DEF) $< tests/fixture_pendulum.c $(RT_GEN) $(RT_SRC) $(RT_PLAN) $(RT_LIBS) -o $@
# the long validation runs of issue 3 (not in CI): writes docs/validation.md and docs/data/
validation: $(MODELS:%=$(BUILD)/%_sim)
	tests/runtime_validation.sh
.PHONY: validation
$(BUILD)/test_physics_san: tests/test_physics.c $(RT_SRC) $(RT_GEN) $(RT_TEST_DEP)
	$(CC) $(RT_CFLAGS) -O1 -g $(SAN) $(RT_GEN_DEF) $< tests/fixture_pendulum.c $(RT_GEN) $(RT_SRC) $(RT_PLAN) $(RT_LIBS) -o $@
TEST_PROGS += $(BUILD)/test_sparse $(BUILD)/test_sparse_san
TEST_PROGS += $(BUILD)/test_runtime_linalg $(BUILD)/test_runtime $(BUILD)/test_physics \
	$(BUILD)/test_physics_builtin $(BUILD)/test_physics_float $(BUILD)/test_runtime_san \
	$(BUILD)/test_physics_san
# the simulator's command-line contract (options, faults, CSV) on two simulators
TEST_SCRIPTS += tests/test_runtime_cli.sh
test: $(BUILD)/fixture_pendulum_sim $(BUILD)/fourbar_singular_sim


# ---------------------------------------------------------------- run and plots
# make run [MODEL=andrews] [FORMULATION=alf-trapezoid] [RUN_ARGS="--t-end 0.3"] [TRACE=B.P]
# make anim MODEL=name, make plots-compare (thesis figures 11-13), make gallery (docs/img).
FORMULATION ?= alf-trapezoid
RESULTS     := results
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
ANIM_SRC := tools/mb_anim_main.c runtime/mb_model.h runtime/mb_config.h

.PHONY: anim plots-deps plots-compare gallery

plots-deps:
	@scripts/deps.sh core plots

# The animation tool, one per model like the simulator: only the model's point functions.
$(BUILD)/%_anim: $(ANIM_SRC) generated/%.c generated/%.h Makefile | $(BUILD)
	$(CC) $(CSTD) $(WARN) $(OPT) -Iruntime -Igenerated -DMB_MODEL=$* \
	    tools/mb_anim_main.c generated/$*.c -lm -o $@

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

# The README's gallery (docs/img): Andrews' run, the double pendulum comparison and, when
# Chromium is installed, a screenshot of the animation.
gallery:
	@$(MAKE) --no-print-directory run MODEL=andrews FORMULATION=alf-trapezoid RUN_ARGS= TRACE=
	@$(MAKE) --no-print-directory plots-compare
	@mkdir -p docs/img
	@scripts/plot.sh --outdir docs/img --size 720x450 --trace OF.F \
	    --label "alf-trapezoid, h = 1e-5 s" $(RESULTS)/andrews.csv
	@scripts/plot.sh --size 720x450 --label "double pendulum, 5 s, h = 1e-3 s" \
	    --compare docs/img/double_pendulum_compare \
	    $(foreach f,$(COMPARE_FORMS),$(RESULTS)/compare/double_pendulum_$(f).csv:$(f))
	@if command -v chromium >/dev/null; then \
	    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=760,640 \
	        --virtual-time-budget=2500 --screenshot=docs/img/andrews_anim.png \
	        "file://$(CURDIR)/$(RESULTS)/andrews.html" >/dev/null 2>&1 && echo docs/img/andrews_anim.png; \
	else echo "gallery: chromium absent (scripts/deps.sh browser), no animation screenshot"; fi

TEST_PROGS += $(BUILD)/test_progress
# The animation and plot test runs a short Andrews simulation; it needs gnuplot and xmllint
# (plots group), and takes a Chromium screenshot only when Chromium is installed.
TEST_SCRIPTS += tests/test_anim.sh
test: plots-deps $(BUILD)/andrews_sim $(BUILD)/andrews_anim
$(BUILD)/test_progress: tests/test_progress.c tools/mb_progress.c tools/mb_progress.h \
                        tests/check.h Makefile | $(BUILD)
	$(CC) $(CSTD) $(WARN) $(OPT) $(SAN) -Iruntime -Itools -Itests tests/test_progress.c \
	    tools/mb_progress.c -lm -o $@

# ---------------------------------------------------------------- generic
# The generic evaluator (evaluator/mb_generic.c) walks a model's element list at run time; mbgen
# writes each model as data next to its code (generated/<m>_data.c, <m>_generic_model).
# test_generic: generic == generated on every function and whole simulations (+ ASan/UBSan);
# make bench: generated vs generic speed -> results/bench.txt (-O2, never a test).
GNR_OPT     := -O2 -g
GNR_CFLAGS  := $(CSTD) $(WARN) -Iruntime -Ievaluator -Igenerator -I/usr/include/suitesparse
GNR_HDR     := evaluator/mb_generic.h runtime/mb_model.h runtime/mb_config.h
GNR_GENDEPS := $(BUILD)/mbgen generator/emit_data.lua $(wildcard generator/*.lua) $(wildcard templates/*.in)
# models compared: the shipped ones plus the test models with every element kind (ours and the
# derivative test's, generated into $(BUILD)/gen_generic)
GNR_TESTM   := generic_allkinds every_element
GNR_MODELS  := $(MODELS) $(GNR_TESTM)
GNR_SRC     := $(MODELS:%=generated/%.c) $(MODELS:%=generated/%_data.c) \
               $(foreach m,$(GNR_TESTM),$(BUILD)/gen_generic/$(m).c $(BUILD)/gen_generic/$(m)_data.c)
# objects: one directory per source directory, bound by static pattern rules
gnr_obj      = $(patsubst generated/%.c,$(BUILD)/generic/g/%.o,$(patsubst $(BUILD)/gen/%.c,$(BUILD)/generic/c/%.o,$(patsubst $(BUILD)/gen_generic/%.c,$(BUILD)/generic/t/%.o,$(1))))
GNR_OBJ     := $(call gnr_obj,$(GNR_SRC))
BENCH_N     := 2 5 10 20 50 100
BENCH_SIMS  := double_pendulum andrews
BENCH_CHAIN := $(foreach n,$(BENCH_N),$(BUILD)/gen/chain$(n).c $(BUILD)/gen/chain$(n)_data.c)
BENCH_OBJ   := $(GNR_OBJ) $(call gnr_obj,$(BENCH_CHAIN))

.PHONY: bench
# mbgen writes <m>_data.c together with <m>.c and <m>.h (the generator section's rule for
# generated/<m>.c); it leaves unchanged files alone, so the recipes touch their targets
generate: $(MODELS:%=generated/%_data.c)
generated/%_data.c: generated/%.c
	@test -f $@ || $(BUILD)/mbgen models/$*.lua -o generated
	@test -f $@ && touch $@
define GNR_TESTM_RULE
$(BUILD)/gen_generic/$(1).c $(BUILD)/gen_generic/$(1)_data.c &: tests/models/$(1).lua $(GNR_GENDEPS) | $(BUILD)
	$(BUILD)/mbgen $$< -o $(BUILD)/gen_generic && touch $(BUILD)/gen_generic/$(1).c $(BUILD)/gen_generic/$(1)_data.c
endef
$(foreach m,$(GNR_TESTM),$(eval $(call GNR_TESTM_RULE,$(m))))
define GNR_CHAIN_RULE
$(BUILD)/gen/chain$(1).c $(BUILD)/gen/chain$(1)_data.c &: models/chain.lua $(GNR_GENDEPS) | $(BUILD)
	$(BUILD)/mbgen $$< -D N=$(1) --name chain$(1) -o $(BUILD)/gen && touch $(BUILD)/gen/chain$(1).c $(BUILD)/gen/chain$(1)_data.c
endef
$(foreach n,$(BENCH_N),$(eval $(call GNR_CHAIN_RULE,$(n))))

$(filter $(BUILD)/generic/g/%,$(BENCH_OBJ)): $(BUILD)/generic/g/%.o: generated/%.c $(GNR_HDR) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(GNR_CFLAGS) -pedantic $(GNR_OPT) -c $< -o $@
$(filter $(BUILD)/generic/c/%,$(BENCH_OBJ)): $(BUILD)/generic/c/%.o: $(BUILD)/gen/%.c $(GNR_HDR) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(GNR_CFLAGS) -pedantic $(GNR_OPT) -c $< -o $@
$(filter $(BUILD)/generic/t/%,$(BENCH_OBJ)): $(BUILD)/generic/t/%.o: $(BUILD)/gen_generic/%.c $(GNR_HDR) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(GNR_CFLAGS) -pedantic $(GNR_OPT) -c $< -o $@
$(BUILD)/generic/mb_generic.o: evaluator/mb_generic.c $(GNR_HDR) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(GNR_CFLAGS) -pedantic $(GNR_OPT) -c $< -o $@
# float build of the evaluator (hidden double arithmetic is an error)
$(BUILD)/generic/mb_generic_float.o: evaluator/mb_generic.c $(GNR_HDR) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(GNR_CFLAGS) -pedantic -Wdouble-promotion -DMB_FLOAT $(GNR_OPT) -c $< -o $@

# X-macro lists of the models the test and the bench link
$(BUILD)/generic/generic_models.h: Makefile
	@mkdir -p $(dir $@)
	@printf 'X(%s)\n' $(GNR_MODELS) > $@
$(BUILD)/generic/bench_models.h: Makefile
	@mkdir -p $(dir $@)
	@{ $(foreach m,$(GNR_MODELS),echo 'B($(m), 0, $(if $(filter $(m),$(BENCH_SIMS)),1,0))';) \
	   $(foreach n,$(BENCH_N),echo 'B(chain$(n), $(n), 1)';) } > $@

GNR_TEST_DEP := tests/test_generic.c tests/check.h $(BUILD)/generic/generic_models.h $(GNR_HDR) \
	$(RT_HDR) $(BUILD)/generic/mb_generic_float.o Makefile
$(BUILD)/test_generic: $(GNR_OBJ) $(BUILD)/generic/mb_generic.o $(RT_OBJ) $(GNR_TEST_DEP)
	$(CC) $(GNR_CFLAGS) $(GNR_OPT) -DGENERIC_WITH_SIM -Itests -I$(BUILD)/generic tests/test_generic.c \
	    $(GNR_OBJ) $(BUILD)/generic/mb_generic.o $(RT_OBJ) $(RT_LIBS) -o $@
$(BUILD)/test_generic_san: $(GNR_SRC) evaluator/mb_generic.c $(RT_SRC) $(GNR_TEST_DEP)
	$(CC) $(GNR_CFLAGS) -O1 -g $(SAN) -DGENERIC_WITH_SIM -Itests -I$(BUILD)/generic \
	    tests/test_generic.c $(GNR_SRC) evaluator/mb_generic.c $(RT_SRC) $(RT_PLAN) $(RT_LIBS) -o $@
# single precision: the same comparisons at float tolerances, on the float runtime
$(BUILD)/test_generic_float: $(GNR_SRC) evaluator/mb_generic.c $(RT_OBJ_F) $(GNR_TEST_DEP)
	$(CC) $(GNR_CFLAGS) $(GNR_OPT) -DMB_FLOAT -DGENERIC_WITH_SIM -Itests -I$(BUILD)/generic \
	    tests/test_generic.c $(GNR_SRC) evaluator/mb_generic.c $(RT_OBJ_F) $(RT_LIBS) -o $@
TEST_PROGS += $(BUILD)/test_generic $(BUILD)/test_generic_san $(BUILD)/test_generic_float
TEST_SCRIPTS += tests/test_generic_data.sh tests/test_generic_sim.sh
test: $(BUILD)/andrews_sim $(BUILD)/fourbar_singular_sim $(BUILD)/chain_sim

$(BUILD)/bench_generic: tests/bench_generic.c $(BENCH_OBJ) $(BUILD)/generic/mb_generic.o $(RT_OBJ) \
		$(BUILD)/generic/bench_models.h $(GNR_HDR) $(RT_HDR) Makefile
	$(CC) $(GNR_CFLAGS) -O2 -DBENCH_SIM -I$(BUILD)/generic tests/bench_generic.c \
	    $(BENCH_OBJ) $(BUILD)/generic/mb_generic.o $(RT_OBJ) $(RT_LIBS) -o $@

# The table goes to stdout and results/bench.txt: machine, compiler, code sizes, timings.
bench: deps $(BUILD)/bench_generic
	@mkdir -p $(RESULTS)
	@{ echo "# make bench: generated vs generic evaluator (tests/bench_generic.c)"; \
	   echo "machine:  $$(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $$(nproc) cores"; \
	   echo "compiler: $$($(CC) --version | head -n 1), model code -O2 -g, bench -O2"; \
	   echo "linalg:   $(RT_LIBS)"; echo; \
	   echo "## Code and data size (bytes, size(1): text + data): generated vs generic"; echo; \
	   printf '%-18s %10s %14s\n' model generated "generic data"; \
	   for o in $(filter-out %_data.o,$(BENCH_OBJ)); do \
	       printf '%-18s %10s %14s\n' $$(basename $$o .o) \
	           $$(size $$o | awk 'NR==2{print $$1+$$2}') \
	           $$(size $${o%.o}_data.o | awk 'NR==2{print $$1+$$2}'); \
	   done; \
	   echo "(the generic evaluator itself, shared: $$(size $(BUILD)/generic/mb_generic.o | awk 'NR==2{print $$1+$$2}') bytes)"; \
	} | tee $(RESULTS)/bench.txt
	@$(BUILD)/bench_generic $(RESULTS)/bench.txt

# Where the time of an alf-trapezoid step goes (perf, if installed): inclusive shares of the
# model functions, matrix assembly (the runtime's add_* helpers), sparse products (sp_*),
# factorization and solves (mb_lu_* / mb_chol_*). PROFILE_MODEL=andrews.
PROFILE_MODEL ?= andrews
PROFILE_STEPS ?= 4000
.PHONY: bench-profile
bench-profile: $(BUILD)/bench_generic
	@command -v perf >/dev/null || { echo "bench-profile: perf is not installed"; exit 1; }
	@for e in generated generic; do \
	    perf record -q --call-graph dwarf,16384 -F 2000 -o $(BUILD)/perf.$$e.data \
	        $(BUILD)/bench_generic --run $(PROFILE_MODEL) alf-trapezoid $$e $(PROFILE_STEPS) || exit 1; \
	    perf report -i $(BUILD)/perf.$$e.data --children --sort symbol --stdio 2>/dev/null | \
	    awk -v e=$$e -v m=$(PROFILE_MODEL) '/^ +[0-9.]+%/ { c = $$1 + 0; s = $$4; \
	        if (s ~ "^(" m "_|mb_generic_)(phi|phi_q|phi_t|phi_q_dot|gamma|force|dforce_dq|dforce_dv|energy|points)$$") f += c; \
	        else if (s ~ /^mb_(lu|chol)_factor$$/) fa += c; else if (s ~ /^mb_(lu|chol)_solve$$/) so += c; \
	        else if (s ~ /^add_/) as += c; else if (s ~ /^sp_/) sp += c; else if (s == "mb_sim_step") tot = c } \
	        END { printf "%-10s alf-trapezoid %s: model functions %4.1f%%, matrix assembly %4.1f%%, sparse products %4.1f%%, factorization %4.1f%%, solves %4.1f%%, other %4.1f%%\n", \
	              e, m, f, as, sp, fa, so, tot - f - as - sp - fa - so }'; \
	done

# ---------------------------------------------------------------- mcu
# make mcu-test: the firmware example (examples/firmware over runtime/mb_embed.h) and the numerical
# kernels built for Cortex-M4F and Cortex-M3, run under qemu-system-arm, compared with a host build
# of the same sources; fails on malloc/free/printf in embedded objects (scripts/mcu/mcu-test.sh).
# make mcu-measure: flash, RAM, stack and cost per step for docs/embedding.md (-O2 and -Os).
MCU_MODELS := andrews double_pendulum
MCU_RT_SRC := runtime/mb_embed.c $(RT_CORE) runtime/mb_linalg.c runtime/mb_status.c
MCU_GEN    := $(MCU_MODELS:%=generated/%.c)
.PHONY: mcu-deps mcu-test mcu-measure

mcu-deps:
	@scripts/deps.sh core mcu

mcu-test: mcu-deps $(MCU_GEN)
	@MCU_MODELS="$(MCU_MODELS)" MCU_RUNTIME_SRC="$(MCU_RT_SRC)" CC="$(CC)" scripts/mcu/mcu-test.sh

mcu-measure: mcu-deps $(MCU_GEN)
	@for o in -O2 -Os; do echo "== $$o"; MCU_MODELS="$(MCU_MODELS)" scripts/mcu/measure.sh $$o || exit 1; done

# Host test of the firmware API: the compile-time workspace bound against mb_sim.c's layout,
# mb_embed against direct mb_sim calls; double (ASan+UBSan) and float.
EMBED_DEP := tests/test_embed.c tests/check.h runtime/mb_embed.h $(MCU_RT_SRC) runtime/mb_sim.h \
             runtime/mb_sim_impl.h runtime/mb_vec.h runtime/mb_layout.h runtime/mb_linalg.h runtime/mb_status.h \
             runtime/mb_model.h runtime/mb_config.h \
             $(MCU_GEN) Makefile
EMBED_CC  := $(CSTD) $(WARN) -DMB_NO_LAPACKE -Iruntime -Igenerated -Itests
$(BUILD)/test_embed: $(EMBED_DEP) | $(BUILD)
	$(CC) $(EMBED_CC) -O1 -g $(SAN) tests/test_embed.c $(MCU_RT_SRC) $(MCU_GEN) -lm -o $@
$(BUILD)/test_embed_float: $(EMBED_DEP) | $(BUILD)
	$(CC) $(EMBED_CC) $(OPT) -DMB_FLOAT tests/test_embed.c $(MCU_RT_SRC) $(MCU_GEN) -lm -o $@
# the lean embedded build: only alf-trapezoid, no full-Jacobian terms, no dense back end (and no
# mb_linalg.c: it links without it) (docs/embedding.md)
$(BUILD)/test_embed_lean: $(EMBED_DEP) | $(BUILD)
	$(CC) $(EMBED_CC) -O1 -g $(SAN) -DMB_ONLY_ALF_TRAPEZOID -DMB_WITH_FULL_JACOBIAN=0 -DMB_WITH_DENSE=0 \
	    tests/test_embed.c $(filter-out runtime/mb_linalg.c,$(MCU_RT_SRC)) $(MCU_GEN) -lm -o $@
TEST_PROGS += $(BUILD)/test_embed $(BUILD)/test_embed_float $(BUILD)/test_embed_lean

# ---------------------------------------------------------------- reliability
# Hostile inputs, runtime faults, sanitizers, valgrind and fuzzing (issue 7).
# tests/test_cli_hostile.sh: hostile options and inputs of the simulator, the animation tool and
# mbgen. tests/test_faults.sh: Newton failure, step underflow, NaN/Inf, assembly failure and rank
# loss in the simulator, with the test models tests/models/fault_*.lua (built in $(BUILD)).
# make test-san: the binaries the script tests run and the C tests without a sanitizer twin,
# built with ASan+UBSan in $(BUILD)/san, and the script tests run against them.
# make valgrind: memcheck on one simulation per formulation (scripts/valgrind.sh).
# make fuzz [FUZZ_SECONDS=60]: the libFuzzer targets of tests/fuzz (clang; scripts/deps.sh fuzz).
REL_MODELS := fault_noassembly fault_blowup fault_spin fault_zerospring fault_hugek
SAN_DIR    := $(BUILD)/san
SAN_OPT    := -O1 -g $(SAN)
.PHONY: test-san valgrind fuzz fuzz-build
.SECONDARY: $(REL_MODELS:%=$(BUILD)/gen_fault/%.c) $(REL_MODELS:%=$(BUILD)/gen_fault/%_data.c)

$(BUILD)/gen_fault/%.c: tests/models/%.lua $(BUILD)/mbgen $(GEN_LUA) $(GEN_TPL) | $(BUILD)
	$(BUILD)/mbgen $< -o $(BUILD)/gen_fault && touch $@ $(BUILD)/gen_fault/$*_data.c
$(BUILD)/gen_fault/%_data.c: $(BUILD)/gen_fault/%.c
	@test -f $@ && touch $@
# (with the generic evaluator: --eval generic runs on the fault models too)
$(BUILD)/fault_%_sim: $(BUILD)/gen_fault/fault_%.c $(BUILD)/gen_fault/fault_%_data.c evaluator/mb_generic.c evaluator/mb_generic.h $(SIM_MAIN) tools/mb_progress.h $(RT_OBJ) $(RT_HDR) Makefile
	$(CC) $(RT_CFLAGS) -D_POSIX_C_SOURCE=200809L $(OPT) -DMB_MODEL=fault_$* -DMB_WITH_GENERIC $(SIM_MAIN) $< \
	    $(BUILD)/gen_fault/fault_$*_data.c evaluator/mb_generic.c $(RT_OBJ) $(RT_LIBS) -o $@

TEST_SCRIPTS += tests/test_cli_hostile.sh tests/test_faults.sh
test: $(REL_MODELS:%=$(BUILD)/%_sim) $(BUILD)/fixture_pendulum_sim $(BUILD)/andrews_sim \
      $(BUILD)/fourbar_singular_sim $(BUILD)/andrews_anim

# sanitizer builds: everything from source with -O1 -g -fsanitize=address,undefined
SAN_SIM_DEP := $(SIM_MAIN) tools/mb_progress.h $(RT_SRC) $(RT_HDR) Makefile
# (the simulators with the generic evaluator, as in the normal build: --eval generic under ASan)
$(SAN_DIR)/%_sim: generated/%.c generated/%_data.c evaluator/mb_generic.c evaluator/mb_generic.h $(SAN_SIM_DEP)
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -D_POSIX_C_SOURCE=200809L $(SAN_OPT) -DMB_MODEL=$* -DMB_WITH_GENERIC $(SIM_MAIN) $< \
	    generated/$*_data.c evaluator/mb_generic.c $(RT_SRC) $(RT_PLAN) $(RT_LIBS) -o $@
$(SAN_DIR)/fixture_pendulum_sim: tests/fixture_pendulum.c $(SAN_SIM_DEP)
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -D_POSIX_C_SOURCE=200809L $(SAN_OPT) -DMB_MODEL=fixture_pendulum $(SIM_MAIN) $< $(RT_SRC) $(RT_PLAN) $(RT_LIBS) -o $@
$(SAN_DIR)/fault_%_sim: $(BUILD)/gen_fault/fault_%.c $(BUILD)/gen_fault/fault_%_data.c evaluator/mb_generic.c evaluator/mb_generic.h $(SAN_SIM_DEP)
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -D_POSIX_C_SOURCE=200809L $(SAN_OPT) -DMB_MODEL=fault_$* -DMB_WITH_GENERIC $(SIM_MAIN) $< \
	    $(BUILD)/gen_fault/fault_$*_data.c evaluator/mb_generic.c $(RT_SRC) $(RT_PLAN) $(RT_LIBS) -o $@
$(SAN_DIR)/%_anim: $(ANIM_SRC) generated/%.c generated/%.h Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(SAN_OPT) -Iruntime -Igenerated -DMB_MODEL=$* tools/mb_anim_main.c generated/$*.c -lm -o $@
$(SAN_DIR)/mbgen: generator/mbgen.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(GEN_CFLAGS) $(SAN_OPT) generator/mbgen.c $(LUA_LIBS) -o $@
# the C tests whose own sections build them without sanitizers
$(SAN_DIR)/test_runtime_linalg: tests/test_runtime_linalg.c $(RT_SRC) $(RT_TEST_DEP)
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) $(SAN_OPT) -c runtime/mb_linalg.c $(LINALG_B_RENAME) -o $@_b.o
	$(CC) $(RT_CFLAGS) $(SAN_OPT) $< $(RT_SRC) $@_b.o $(RT_LIBS) -o $@
$(SAN_DIR)/test_physics_builtin: tests/test_physics.c $(RT_SRC) $(RT_GEN) $(RT_TEST_DEP)
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) $(SAN_OPT) $(RT_GEN_DEF) -DMB_NO_LAPACKE $< tests/fixture_pendulum.c $(RT_GEN) $(RT_SRC) $(RT_PLAN) -lamd -lm -o $@
$(SAN_DIR)/test_physics_float: tests/test_physics.c $(RT_SRC) $(RT_TEST_DEP)
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) $(SAN_OPT) -DMB_FLOAT $< tests/fixture_pendulum.c $(RT_SRC) $(RT_PLAN) $(RT_LIBS) -o $@
$(SAN_DIR)/test_generic_float: $(GNR_SRC) evaluator/mb_generic.c $(RT_SRC) $(GNR_TEST_DEP)
	@mkdir -p $(dir $@)
	$(CC) $(GNR_CFLAGS) $(SAN_OPT) -DMB_FLOAT -DGENERIC_WITH_SIM -Itests -I$(BUILD)/generic \
	    tests/test_generic.c $(GNR_SRC) evaluator/mb_generic.c $(RT_SRC) $(RT_PLAN) $(RT_LIBS) -o $@
$(SAN_DIR)/test_embed_float: $(EMBED_DEP)
	@mkdir -p $(dir $@)
	$(CC) $(EMBED_CC) $(SAN_OPT) -DMB_FLOAT tests/test_embed.c $(MCU_RT_SRC) $(MCU_GEN) -lm -o $@

SAN_PROGS   := $(SAN_DIR)/test_runtime_linalg $(SAN_DIR)/test_physics_builtin \
               $(SAN_DIR)/test_physics_float $(SAN_DIR)/test_generic_float $(SAN_DIR)/test_embed_float
SAN_BINS    := $(SAN_DIR)/mbgen $(SAN_DIR)/andrews_anim \
               $(foreach m,andrews fixture_pendulum fourbar_singular $(REL_MODELS),$(SAN_DIR)/$(m)_sim)
SAN_SCRIPTS := tests/test_mbgen.sh tests/test_runtime_cli.sh tests/test_anim.sh \
               tests/test_cli_hostile.sh tests/test_faults.sh
# a sanitizer report exits 99, which no test accepts as an expected exit status
SAN_ENV := ASAN_OPTIONS=exitcode=99:detect_leaks=1 UBSAN_OPTIONS=exitcode=99:print_stacktrace=1
test-san: deps plots-deps $(SAN_PROGS) $(SAN_BINS)
	@$(SAN_ENV) BUILD=$(SAN_DIR) MBGEN=$(SAN_DIR)/mbgen tests/run.sh $(SAN_PROGS) $(SAN_SCRIPTS)

valgrind: deps $(BUILD)/double_pendulum_sim
	@scripts/deps.sh tools
	@scripts/valgrind.sh $(BUILD)/double_pendulum_sim

# libFuzzer targets (clang): the model loader through mbgen's host, the simulator's options
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_FLAGS   := $(CSTD) $(WARN) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_TARGETS := $(BUILD)/fuzz/fuzz_model $(BUILD)/fuzz/fuzz_simopts
$(BUILD)/fuzz/fuzz_model: tests/fuzz/fuzz_model.c generator/mbgen.c Makefile
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Wno-unused-function $(LUA_CFLAGS) -DMBGEN_GENDIR='"$(CURDIR)/generator"' \
	    $< $(LUA_LIBS) -o $@
$(BUILD)/fuzz/fuzz_simopts: tests/fuzz/fuzz_simopts.c $(SIM_MAIN) tests/fixture_pendulum.c $(RT_SRC) $(RT_HDR) Makefile
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Iruntime -Igenerator -Itools -I/usr/include/suitesparse -DMB_MODEL=fixture_pendulum $< tools/mb_progress.c tools/mb_linsys_klu.c \
	    tests/fixture_pendulum.c $(RT_SRC) $(RT_PLAN) $(RT_LIBS) -Wl,--wrap=mb_sim_step,--wrap=mb_params_check -o $@
fuzz-build:
	@scripts/deps.sh core fuzz
	@$(MAKE) --no-print-directory $(FUZZ_TARGETS)
fuzz: fuzz-build
	@tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# ---------------------------------------------------------------- tests
# -- generated-code tests (generator back end)
# test_derivs_<model>: every derivative of the model vs finite differences (tests/test_derivs.c,
# mb_model interface only), for each model in MODELS and for the test-only model
# tests/models/every_element.lua (every element kind). tests/test_generated.sh: strict
# float/double compilation, includes, symbols, no mutable globals, all models linked together,
# generated/ not stale (tree and git), regeneration byte-identical, negative controls.
# test_sym: unit tests of generator/sym.lua and the template filler.
GEN_TEST_MODELS := $(MODELS)
GEN_BACKEND := generator/sym.lua generator/elements.lua generator/emit.lua $(wildcard templates/*.in)
DERIV_DEPS  := tests/test_derivs.c tests/check.h runtime/mb_model.h runtime/mb_config.h Makefile
TEST_PROGS  += $(GEN_TEST_MODELS:%=$(BUILD)/test_derivs_%) $(BUILD)/test_derivs_every_element
TEST_PROGS  += $(BUILD)/test_sym
TEST_SCRIPTS += tests/test_generated.sh

$(BUILD)/test_sym: tests/test_sym.c tests/test_sym.lua $(GEN_BACKEND) Makefile | $(BUILD)
	$(CC) $(CSTD) $(WARN) $(OPT) $(SAN) $(LUA_CFLAGS) tests/test_sym.c $(LUA_LIBS) -o $@

$(BUILD)/test_derivs_%: generated/%.c generated/%.h $(DERIV_DEPS) | $(BUILD)
	$(CC) $(CSTD) $(WARN) $(OPT) $(SAN) -Iruntime -Igenerated -Itests -DMB_TEST_MODEL=$*_model \
	    tests/test_derivs.c generated/$*.c -lm -o $@

$(BUILD)/gen/every_element.c: tests/models/every_element.lua $(BUILD)/mbgen $(GEN_BACKEND) | $(BUILD)
	$(BUILD)/mbgen $< -o $(BUILD)/gen

$(BUILD)/test_derivs_every_element: $(BUILD)/gen/every_element.c $(DERIV_DEPS) | $(BUILD)
	$(CC) $(CSTD) $(WARN_GEN) $(OPT) $(SAN) -Iruntime -I$(BUILD)/gen -Itests \
	    -DMB_TEST_MODEL=every_element_model tests/test_derivs.c $(BUILD)/gen/every_element.c -lm -o $@

test: $(BUILD)/mbgen
# -- end of generated-code tests

test: deps $(TEST_PROGS)
	@tests/run.sh $(TEST_PROGS) $(TEST_SCRIPTS)

clean:
	rm -rf $(BUILD)
