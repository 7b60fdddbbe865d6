# mk/bench.mk - make bench: generated vs generic evaluator speed -> results/bench.txt (-O2,
# never a test); make bench-profile: where the time of a step goes (perf).
GNR_OPT     := -O2 -g
GNR_CFLAGS  := $(CFLAGS_C)
GNR_GENDEPS := $(BUILD)/mbgen $(GEN_LUA) $(GEN_TPL)
BENCH_N     := 2 5 10 20 50 100
BENCH_SIMS  := double_pendulum andrews
BENCH_CHAIN := $(foreach n,$(BENCH_N),$(BUILD)/gen/chain$(n).c $(BUILD)/gen/chain$(n)_data.c)
# objects: one directory per source directory, bound by static pattern rules
gnr_obj      = $(patsubst generated/%.c,$(BUILD)/generic/g/%.o,$(patsubst $(BUILD)/gen/%.c,$(BUILD)/generic/c/%.o,$(patsubst $(BUILD)/gen_generic/%.c,$(BUILD)/generic/t/%.o,$(1))))
GNR_OBJ     := $(call gnr_obj,$(GNR_SRC))
BENCH_OBJ   := $(GNR_OBJ) $(call gnr_obj,$(BENCH_CHAIN))
define GNR_CHAIN_RULE
$(BUILD)/gen/chain$(1).c $(BUILD)/gen/chain$(1)_data.c &: models/chain.lua $(GNR_GENDEPS) | $(BUILD)
	$(BUILD)/mbgen $$< -D N=$(1) --name chain$(1) -o $(BUILD)/gen && touch $(BUILD)/gen/chain$(1).c $(BUILD)/gen/chain$(1)_data.c
endef
$(foreach n,$(BENCH_N),$(eval $(call GNR_CHAIN_RULE,$(n))))

$(filter $(BUILD)/generic/g/%,$(BENCH_OBJ)): $(BUILD)/generic/g/%.o: generated/%.c $(MK_FILES)
	@mkdir -p $(dir $@)
	$(CC) $(GNR_CFLAGS) $(GNR_OPT) $(DEPFLAGS) -c $< -o $@
$(filter $(BUILD)/generic/c/%,$(BENCH_OBJ)): $(BUILD)/generic/c/%.o: $(BUILD)/gen/%.c $(MK_FILES)
	@mkdir -p $(dir $@)
	$(CC) $(GNR_CFLAGS) $(GNR_OPT) $(DEPFLAGS) -c $< -o $@
$(filter $(BUILD)/generic/t/%,$(BENCH_OBJ)): $(BUILD)/generic/t/%.o: $(BUILD)/gen_generic/%.c $(MK_FILES)
	@mkdir -p $(dir $@)
	$(CC) $(GNR_CFLAGS) $(GNR_OPT) $(DEPFLAGS) -c $< -o $@
$(BUILD)/generic/mb_generic.o: evaluator/mb_generic.c $(MK_FILES)
	@mkdir -p $(dir $@)
	$(CC) $(GNR_CFLAGS) $(GNR_OPT) $(DEPFLAGS) -c $< -o $@
-include $(BENCH_OBJ:.o=.d) $(BUILD)/generic/mb_generic.d

# X-macro list of the models the bench links
$(BUILD)/generic/bench_models.h: $(MK_FILES)
	@mkdir -p $(dir $@)
	@{ $(foreach m,$(GNR_MODELS),echo 'B($(m), 0, $(if $(filter $(m),$(BENCH_SIMS)),1,0))';) \
	   $(foreach n,$(BENCH_N),echo 'B(chain$(n), $(n), 1)';) } > $@

$(BUILD)/bench_generic: tests/bench_generic.c $(BENCH_OBJ) $(BUILD)/generic/mb_generic.o $(RT_OBJ_host) \
		$(BUILD)/generic/bench_models.h $(MK_FILES)
	$(CC) $(GNR_CFLAGS) -O2 -DBENCH_SIM -I$(BUILD)/generic tests/bench_generic.c \
	    $(BENCH_OBJ) $(BUILD)/generic/mb_generic.o $(RT_OBJ_host) $(RT_LIBS) -o $@

.PHONY: bench bench-profile
# The table goes to stdout and results/bench.txt: machine, compiler, code sizes, timings.
## bench: generated versus generic evaluator, ns per call and per step: results/bench.txt
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
# model functions, matrix assembly, sparse products, factorization and solves
# (scripts/perf_shares.sh). PROFILE_MODEL=andrews.
PROFILE_MODEL ?= andrews
PROFILE_STEPS ?= 4000
## bench-profile: the same under perf (needs perf) [PROFILE_MODEL=andrews]
bench-profile: $(BUILD)/bench_generic
	@command -v perf >/dev/null || { echo "bench-profile: perf is not installed"; exit 1; }
	@for e in generated generic; do \
	    perf record -q --call-graph dwarf,16384 -F 2000 -o $(BUILD)/perf.$$e.data \
	        $(BUILD)/bench_generic --run $(PROFILE_MODEL) alf-trapezoid $$e $(PROFILE_STEPS) || exit 1; \
	    perf report -i $(BUILD)/perf.$$e.data --children --sort symbol --stdio 2>/dev/null | \
	        scripts/perf_shares.sh $$e $(PROFILE_MODEL); \
	done
