# Makefile - build the generator, generate the models, build the runtime, run the tests.
# `make help` lists the targets (docs/cli.md describes them); README.md has the quick start.
# mk/user_vars.mk first: the variables a user may set are checked before anything expands them.
# One include per part: mk/generator.mk, runtime.mk, evaluator.mk, tools.mk, tests.mk, analysis.mk, params.mk, inputs.mk,
# reactions.mk, contact.mk, events.mk, control.mk, mcu.mk, reliability.mk, bench.mk, python.mk, install.mk. Every object
# is built under
# $(BUILD)/o/<variant>/ with automatic
# header dependencies (-MMD -MP); a variant is one flag set (mk/runtime.mk: RT_VARIANT).

include mk/user_vars.mk

# ---------------------------------------------------------------- settings
CC       ?= cc
CSTD     := -std=c99
WARN     := -Wall -Wextra -Werror
OPT      ?= -O2 -g
SAN      := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_OPT  := -O1 -g $(SAN)
BUILD    := build
RESULTS  := results
# (one line: tests/test_install.sh reads it)
MODELS   := double_pendulum andrews slider_crank fourbar_singular oscillator_1dof chain parallelogram_chain suspension cartpole motor_arm shaper gear_train bouncing_ball cam_follower valve_train walker geneva valve_jump
# models with inputs, sensors or loads that depend on the state: generated code only (the generic
# evaluator refuses them: docs/generic-evaluator.md)
PLANT_MODELS := cartpole motor_arm bouncing_ball walker geneva valve_jump
MODEL    ?= andrews

# Library flags from pkg-config. On a fresh machine the packages are installed by the first
# make (scripts/deps.sh) after this file has been parsed, when pkg-config (or the .pc file)
# is still missing: then the Debian defaults, so that first run links too.
pkgconf      = $(or $(shell pkg-config $(1) 2>/dev/null),$(2))
LUA_CFLAGS   := $(call pkgconf,--cflags lua5.4,-I/usr/include/lua5.4)
LUA_LIBS     := $(call pkgconf,--libs lua5.4,-llua5.4)
LAPACKE_LIBS := $(call pkgconf,--libs lapacke,-llapacke) -llapack -lblas
RT_LIBS      := $(LAPACKE_LIBS) -lklu -lamd -lm

# Every C file compiles with these (plus its variant's flags and, for a few, XFLAGS).
INCLUDES := -Iruntime -Ievaluator -Itools -Igenerator -Igenerated -Itests \
            -I/usr/include/suitesparse $(LUA_CFLAGS)
CFLAGS_C := $(CSTD) $(WARN) -Wdouble-promotion -pedantic $(INCLUDES)
DEPFLAGS := -MMD -MP
MK_FILES := Makefile $(wildcard mk/*.mk)

# Every C test program to run (each ends with "N passed, N failed"), the script tests, and
# what they need built; each part adds to these. make test runs TEST_PROGS and TEST_SCRIPTS except
# the sanitizer builds (names ending in _san); make test-long runs those and TEST_LONG: the long
# validations, firmware builds and make install (a script in both TEST_SCRIPTS and TEST_LONG runs
# its short form in make test and its long one, MB_TEST_LONG=1, in test-long). docs/testing.md.
TEST_PROGS   :=
TEST_SCRIPTS :=
TEST_LONG    :=
TEST_NEEDS   :=
# tests and builds at a time (tests/run.sh -j; the builds only when make was given no -j)
TEST_JOBS    ?= $(shell nproc 2>/dev/null || echo 2)

# no built-in rules: they would try to remake the included .d files (%: %.o)
MAKEFLAGS += --no-builtin-rules
.SUFFIXES:
.PHONY: all deps generate test test-build test-long test-long-build check clean help FORCE
# a prerequisite that is always out of date (for stamps rewritten only when their content changes)
FORCE:
.DELETE_ON_ERROR:
.SECONDARY:

all: deps $(BUILD)/mbgen generate $(BUILD)/libmbrt.a

deps:
	@scripts/deps.sh core

$(BUILD):
	@mkdir -p $(BUILD)

include mk/runtime.mk
include mk/generator.mk
include mk/evaluator.mk
include mk/tools.mk
include mk/tests.mk
include mk/analysis.mk
include mk/params.mk
include mk/inputs.mk
include mk/reactions.mk
include mk/contact.mk
include mk/events.mk
include mk/control.mk
include mk/mcu.mk
include mk/reliability.mk
include mk/bench.mk
include mk/python.mk
include mk/fmu.mk
include mk/install.mk

# The tests' programs are built by a make of its own, in parallel unless the command line chose
# (-j); the scripts go first, the slowest tests being among them.
TEST_MAKE = $(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(TEST_JOBS))
test: deps
	@$(TEST_MAKE) test-build
	@tests/run.sh -j $(TEST_JOBS) $(TEST_SCRIPTS) $(filter-out %_san,$(TEST_PROGS))
test-build: $(filter-out %_san,$(TEST_PROGS) $(TEST_NEEDS))

test-long: deps
	@$(TEST_MAKE) test-long-build
	@MB_TEST_LONG=1 tests/run.sh -j $(TEST_JOBS) $(TEST_LONG) $(filter %_san,$(TEST_PROGS))
test-long-build: $(filter $(BUILD)/%,$(TEST_LONG)) $(TEST_PROGS) $(TEST_NEEDS)

# everything .ci/run runs, one after another (test-slurm needs root; mcu-test, test-san, valgrind
# and fuzz install their tools through scripts/deps.sh when missing; FUZZ_SECONDS=... given to
# make check reaches make fuzz, as every command-line variable reaches a sub-make)
check:
	$(MAKE) test && $(MAKE) test-long && $(MAKE) test-slurm && $(MAKE) mcu-test && \
	$(MAKE) test-san && $(MAKE) valgrind && $(MAKE) fuzz

clean:
	rm -rf $(BUILD)

# The targets, one line each: the "## " comments of the .PHONY targets in these files.
help:
	@scripts/make_help.sh $(MK_FILES)
## all: (default) install missing core packages, build build/mbgen, regenerate generated/, build build/libmbrt.a
## test: build and run the default test suite, TEST_JOBS (nproc) at a time; ends with "N passed, N failed"
## test-long: the long validations, firmware builds, make install and the sanitizer builds of the C tests
## check: make test, test-long, test-slurm, mcu-test, test-san, valgrind and fuzz: all that .ci/run runs
## clean: remove build/
## help: this list

# the automatic header dependencies of every object built so far
-include $(shell find $(call shq,$(BUILD)/o) -name '*.d' 2>/dev/null)
