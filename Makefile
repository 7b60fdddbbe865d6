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

# ---------------------------------------------------------------- tests
test: deps $(TEST_PROGS)
	@tests/run.sh $(TEST_PROGS) $(TEST_SCRIPTS)

clean:
	rm -rf $(BUILD)
