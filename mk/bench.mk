# mk/bench.mk - the benchmarks (bench/): make bench: generated vs generic evaluator speed ->
# results/bench.txt (-O2, never a test); make bench-profile: where the time of a step goes (perf).
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

# the generic side runs on SuiteSparse KLU (tools/mb_linsys_klu.c), as the simulator's --eval generic
$(BUILD)/bench_generic: bench/bench_generic.c $(BENCH_OBJ) $(BUILD)/generic/mb_generic.o $(RT_OBJ_host) \
		tools/mb_linsys_klu.c tools/mb_linsys_klu.h $(BUILD)/generic/bench_models.h $(MK_FILES)
	$(CC) $(GNR_CFLAGS) -O2 -DBENCH_SIM -I$(BUILD)/generic bench/bench_generic.c tools/mb_linsys_klu.c \
	    $(BENCH_OBJ) $(BUILD)/generic/mb_generic.o $(RT_OBJ_host) $(RT_LIBS) -o $@

.PHONY: bench bench-profile
# The table goes to stdout and results/bench.txt: machine, compiler, code sizes, timings.
## bench: generated code on its plan versus the generic evaluator on KLU, ns per call and per step: results/bench.txt
bench: deps $(BUILD)/bench_generic
	@mkdir -p $(call shq,$(RESULTS))
	@{ echo "# make bench: generated vs generic evaluator (bench/bench_generic.c)"; \
	   echo "machine:  $$(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $$(nproc) cores"; \
	   echo "compiler: $$($(CC) --version | head -n 1), model code -O2 -g, bench -O2"; \
	   echo "linalg:   generated: its plan, in the form mbgen chose (default --linalg auto: unrolled up to 3000 elimination updates, compact above); generic: SuiteSparse KLU $$(sed -n 's/^#define KLU_\(MAIN\|SUB\|SUBSUB\)_VERSION \([0-9]*\).*/\2/p' /usr/include/suitesparse/klu.h | paste -sd.) (tools/mb_linsys_klu.c); $(RT_LIBS)"; \
	   echo "timing:   CPU time of the benchmark thread (time the shared machine gives other jobs is not counted); load average $$(cut -d' ' -f1-3 /proc/loadavg) at the start"; echo; \
	   echo "## Code and data size (bytes, size(1): text + data): generated vs generic"; echo; \
	   printf '%-18s %10s %14s\n' model generated "generic data"; \
	   for o in $(filter-out %_data.o,$(BENCH_OBJ)); do \
	       printf '%-18s %10s %14s\n' $$(basename $$o .o) \
	           $$(size $$o | awk 'NR==2{print $$1+$$2}') \
	           $$(size $${o%.o}_data.o | awk 'NR==2{print $$1+$$2}'); \
	   done; \
	   echo "(the generic evaluator itself, shared: $$(size $(BUILD)/generic/mb_generic.o | awk 'NR==2{print $$1+$$2}') bytes)"; \
	} | tee $(call shq,$(RESULTS)/bench.txt)
	@$(BUILD)/bench_generic $(call shq,$(RESULTS)/bench.txt)

# make bench-scaling: the chain at N = SCALING_N (generated into $(BUILD)/scaling, never
# generated/): mbgen and -O2 compile time, us per step of every formulation (generated on its plan
# vs generic on KLU), instructions per step under callgrind (SCALING_INSTR=0: not), log-log
# slopes, us per right-hand side; then the Simbody peer (bench/bench_simbody.cpp; installs
# libsimbody-dev, scripts/deps.sh simbody): the chain and the parallelogram chain at N =
# SIMBODY_N, Simbody's realize(Acceleration) against our baumgarte right-hand side side by side,
# after a check that their accelerations agree (SIMBODY_N= : no peer) -> results/scaling.txt.
# About 10 minutes, most of it gcc on chain1000.c (compact) and chain300.c (unrolled). Not a test.
SCALING_N ?= 10 30 100 300 1000
SCALING_INSTR ?= 1
SIMBODY_N ?= 10 20 50 100
.PHONY: bench-scaling
## bench-scaling: the chain at N = 10 .. 1000, us and instructions per step, slopes, generation and compile times, the Simbody peer: results/scaling.txt
bench-scaling: deps $(BUILD)/mbgen $(RT_OBJ_host) $(BUILD)/generic/mb_generic.o
	@scripts/deps.sh simbody || echo "bench-scaling: Simbody could not be installed: no Simbody peer"
	@BUILD=$(call shq,$(BUILD)) RESULTS=$(call shq,$(RESULTS)) CC=$(call shq,$(CC)) CXX=$(call shq,$(CXX)) \
	    RT_OBJ=$(call shq,$(RT_OBJ_host)) RT_LIBS=$(call shq,$(RT_LIBS)) GNR_CFLAGS=$(call shq,$(GNR_CFLAGS)) \
	    SCALING_N=$(call shq,$(SCALING_N)) SCALING_INSTR=$(call shq,$(SCALING_INSTR)) SIMBODY_N=$(call shq,$(SIMBODY_N)) \
	    scripts/bench_scaling.sh

# Where the time of a step goes (perf, if installed): inclusive shares of the model functions
# (fused evaluations included), factorizations (mbi_ls_factor: the plan's kernels on the
# generated side, KLU on the generic side), solves and the rest (matrix assembly into the plan
# storage, sparse products, integrator) (scripts/perf_shares.sh).
# PROFILE_MODEL=andrews PROFILE_FORMULATION=alf-trapezoid.
PROFILE_MODEL ?= andrews
PROFILE_FORMULATION ?= alf-trapezoid
PROFILE_STEPS ?= 50000
## bench-profile: the same under perf (needs perf) [PROFILE_MODEL=andrews PROFILE_FORMULATION=alf-trapezoid]
bench-profile: $(BUILD)/bench_generic
	@command -v perf >/dev/null || { echo "bench-profile: perf is not installed"; exit 1; }
	@for e in generated generic; do \
	    perf record -q --call-graph dwarf,16384 -F 4000 -o $(BUILD)/perf.$$e.data \
	        $(BUILD)/bench_generic --run $(call shq,$(PROFILE_MODEL)) $(call shq,$(PROFILE_FORMULATION)) $$e \
	            $(call shq,$(PROFILE_STEPS)) || \
	        echo "bench-profile: the $$e run stopped early (status above); the shares cover the steps it took"; \
	    perf report -i $(BUILD)/perf.$$e.data --children --sort symbol --stdio 2>/dev/null | \
	        scripts/perf_shares.sh $$e $(call shq,$(PROFILE_MODEL)) $(call shq,$(PROFILE_FORMULATION)); \
	done

# make bench-ordering: natural, AMD and METIS orderings of S and A (bench/bench_ordering.c) on
# the shipped models and scaled ones (chains, ladders of closed loops, the four-bar chain of
# issue 11, square nets; the parallelogram chain too when models/parallelogram_chain.lua
# exists), from the generator's data files -> results/ordering.txt. Installs libmetis-dev
# (scripts/deps.sh metis); not a test.
ORD_SHIPPED := andrews chain double_pendulum slider_crank fourbar_singular
ORD_DIR     := $(BUILD)/ordering
# scaled models: the chain, a ladder of N square loops and the four-bar chain (closed chains), a
# square net of K x K cells
ORD_CHAIN_N   := 10 100 1000
ORD_LADDER_N  := 10 100 500
ORD_FOURBAR_N := 10 100
ORD_PCHAIN_N  := $(if $(wildcard models/parallelogram_chain.lua),10 100 500)
ORD_NET_K     := 4 8 16 24 30
ORD_NAMES     := $(ORD_CHAIN_N:%=chain%) $(ORD_LADDER_N:%=ladder%) $(ORD_FOURBAR_N:%=fourbar_chain%) \
                 $(ORD_PCHAIN_N:%=parallelogram_chain%) $(ORD_NET_K:%=net%)
$(foreach n,$(ORD_CHAIN_N),$(eval $(call GEN_INTO,$(ORD_DIR),models/chain.lua,chain$(n),-D N=$(n) --name chain$(n))))
$(foreach n,$(ORD_LADDER_N),$(eval $(call GEN_INTO,$(ORD_DIR),tests/models/ladder.lua,ladder$(n),-D N=$(n) --name ladder$(n))))
$(foreach n,$(ORD_FOURBAR_N),$(eval $(call GEN_INTO,$(ORD_DIR),tests/models/fourbar_chain.lua,fourbar_chain$(n),-D N=$(n) --name fourbar_chain$(n))))
$(foreach n,$(ORD_PCHAIN_N),$(eval $(call GEN_INTO,$(ORD_DIR),models/parallelogram_chain.lua,parallelogram_chain$(n),-D N=$(n) --name parallelogram_chain$(n))))
$(foreach k,$(ORD_NET_K),$(eval $(call GEN_INTO,$(ORD_DIR),tests/models/net.lua,net$(k),-D K=$(k) --name net$(k))))
ORD_DATA    := $(ORD_SHIPPED:%=generated/%_data.c) $(ORD_NAMES:%=$(ORD_DIR)/%_data.c)
$(ORD_DIR)/ordering_models.h: $(MK_FILES)
	@mkdir -p $(@D)
	@printf 'O(%s)\n' $(ORD_SHIPPED) $(ORD_NAMES) > $@
$(BUILD)/o/host/bench/bench_ordering.o: XFLAGS = -I$(ORD_DIR)
$(BUILD)/o/host/bench/bench_ordering.o: $(ORD_DIR)/ordering_models.h
# the generic models of <m>_data.c share <m>.c's descriptor arrays: compiled alone
# (-DMB_DESCRIPTOR_ONLY), without the generated code (tens of MB for the largest models)
ORD_DESC_G := $(ORD_SHIPPED:%=$(BUILD)/ordering_desc/g/%.o)
ORD_DESC_O := $(ORD_NAMES:%=$(BUILD)/ordering_desc/o/%.o)
$(ORD_DESC_G): $(BUILD)/ordering_desc/g/%.o: generated/%.c $(MK_FILES)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_C) -DMB_DESCRIPTOR_ONLY -c $< -o $@
$(ORD_DESC_O): $(BUILD)/ordering_desc/o/%.o: $(ORD_DIR)/%.c $(MK_FILES)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_C) -DMB_DESCRIPTOR_ONLY -c $< -o $@
$(BUILD)/bench_ordering: $(call obj,host,bench/bench_ordering.c $(ORD_DATA) evaluator/mb_generic.c runtime/mb_sparse.c) \
		$(ORD_DESC_G) $(ORD_DESC_O) $(PLAN_METIS)
	$(call link,host,-lamd $(METIS_LIBS) -lm)

.PHONY: bench-ordering
## bench-ordering: natural, AMD and METIS orderings of S and A: nnz(L), updates, flops, factorization time: results/ordering.txt
bench-ordering: deps
	@scripts/deps.sh metis
	@$(MAKE) --no-print-directory $(BUILD)/bench_ordering   # again: METIS may have just been installed
	@mkdir -p $(call shq,$(RESULTS))
	@{ echo "# make bench-ordering: fill-reducing orderings of S and A (bench/bench_ordering.c)"; \
	   echo "machine:  $$(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $$(nproc) cores; load average $$(cut -d' ' -f1-3 /proc/loadavg) at the start"; \
	   echo "compiler: $$($(CC) --version | head -n 1), -O2; kernels: the compact ones (runtime/mb_sparse.c)"; \
	   echo "orderings: natural; SuiteSparse AMD $$(sed -n 's/^#define AMD_\(MAIN\|SUB\|SUBSUB\)_VERSION \([0-9]*\).*/\2/p' /usr/include/suitesparse/amd.h | paste -sd.) (amd_order, default controls); METIS $$(sed -n 's/^#define METIS_VER_\(MAJOR\|MINOR\|SUBMINOR\) *\([0-9]*\).*/\2/p' /usr/include/metis.h 2>/dev/null | paste -sd.) (METIS_NodeND, default options)"; \
	   echo "columns: n; nnz = lower triangle of the matrix, diagonal included; nnz(L) strictly lower; nupd = updates of the"; \
	   echo "  right-looking kernels, /AMD its ratio to AMD's; flops as the compact kernels do them (LDL^T n + 2 nnz(L) + 2 nupd,"; \
	   echo "  LU n - nnz(L) + 5 nupd); us = CPU time of one numeric factorization (copy of the assembled values included),"; \
	   echo "  median of 7 interleaved samples, /AMD its ratio to AMD's. S by LDL^T only; A by LDL^T (F3) and LU (F4)."; \
	   echo; } > $(call shq,$(RESULTS)/ordering.txt)
	@cat $(call shq,$(RESULTS)/ordering.txt)
	@$(BUILD)/bench_ordering $(call shq,$(RESULTS)/ordering.txt)

# make bench-hht: HHT-alpha (--integrator hht) against alf-trapezoid on Andrews, h = 1e-5 to
# t = 0.03: callgrind instructions per step and wall time per step side by side, Newton
# iterations per step, |beta - reference| (scripts/bench_hht.sh; needs valgrind). Not a test.
.PHONY: bench-hht
## bench-hht: HHT-alpha vs alf-trapezoid on Andrews h = 1e-5, instructions and us per step: results/bench_hht.txt
bench-hht: $(BUILD)/andrews_sim
	@mkdir -p $(call shq,$(RESULTS))
	@scripts/bench_hht.sh $(BUILD)/andrews_sim | tee $(call shq,$(RESULTS)/bench_hht.txt)

# make bench-wp: work versus precision on Andrews' squeezer to t = 0.03 s (bench/bench_wp.c):
# every formulation x integrator x tolerance the runtime accepts, correct digits of the 7 angles
# against the published reference and our own high-precision run, CPU time per solve, and the
# SUNDIALS IDA baseline on the same generated functions (bench/bench_ida.c), side by side ->
# results/work_precision.txt. Installs libsundials-dev (scripts/deps.sh bench); not a test.
# WP_ROUNDS=N timing rounds (default 7). 1.5-6 minutes on the 2-core machine (load).
SUNDIALS_LIBS := -lsundials_ida -lsundials_nvecserial -lsundials_sunmatrixdense -lsundials_sunlinsoldense \
                 -lsundials_sunmatrixsparse -lsundials_sunlinsolklu -lsundials_generic
$(BUILD)/bench_wp: $(call obj,host,bench/bench_wp.c bench/bench_ida.c bench/andrews7.c generated/andrews.c) $(RT_OBJ_host)
	$(call link,host,$(SUNDIALS_LIBS) $(RT_LIBS))

.PHONY: bench-wp
## bench-wp: work-precision on Andrews to t = 0.03: digits, ms, steps of every run, IDA side by side: results/work_precision.txt
bench-wp: deps
	@scripts/deps.sh bench
	@$(MAKE) --no-print-directory $(BUILD)/bench_wp   # again: SUNDIALS may have just been installed
	@mkdir -p $(call shq,$(RESULTS))
	@{ echo "# make bench-wp: work versus precision, Andrews' squeezer to t = 0.03 s (bench/bench_wp.c, bench/bench_ida.c)"; \
	   echo "machine:  $$(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $$(nproc) cores; load average $$(cut -d' ' -f1-3 /proc/loadavg) at the start"; \
	   echo "compiler: $$($(CC) --version | head -n 1), $(OPT); SUNDIALS $$(sed -n 's/^#define SUNDIALS_VERSION "\(.*\)"/\1/p' /usr/include/sundials/sundials_config.h) (Debian libsundials-dev)"; \
	   echo "timing:   CPU time of the benchmark thread per solve (reset from the assembled state, steps to t = 0.03,"; \
	   echo "          no output); median of interleaved rounds; see docs/work-precision.md"; \
	   echo; } > $(call shq,$(RESULTS)/work_precision.txt)
	@cat $(call shq,$(RESULTS)/work_precision.txt)
	@$(BUILD)/bench_wp $(call shq,$(RESULTS)/work_precision.txt)

# make bench-stiff: issue 11's stiffened Andrews (alpha = 1e9), bdf against dopri5 at equal
# accuracy: alf-explicit + dopri5 / dop853 and alf-trapezoid + bdf / adaptive trapezoid swept
# over rtol, the 7 angles' digits against our own reference and the instructions of each solve
# (callgrind, exact on the shared machine), the ratio at each accuracy side by side
# (bench/bench_stiff.c, scripts/bench_stiff.sh; needs valgrind) -> results/bench_stiff.txt.
# About 2 minutes. Not a test.
$(BUILD)/bench_stiff: $(call obj,host,bench/bench_stiff.c generated/andrews.c) $(RT_OBJ_host)
	$(call link,host,$(RT_LIBS))

.PHONY: bench-stiff
## bench-stiff: stiffened Andrews (alpha 1e9): bdf vs dopri5 instructions at equal accuracy: results/bench_stiff.txt
bench-stiff: $(BUILD)/bench_stiff
	@mkdir -p $(call shq,$(RESULTS))
	@scripts/bench_stiff.sh $(BUILD)/bench_stiff | tee $(call shq,$(RESULTS)/bench_stiff.txt)

# make bench-sweep: make sweep in blocks (SIM --batch) against the per-row sweep of commit
# b142247 on the same 10000-row Andrews table, in one run: the ratio of the sweep's wall time
# to (the rows' solver time) / cores, the per-row sweep on its first 1000 rows (BENCH_OLD_ROWS)
# with its summary.csv compared, and 100000 rows of bookkeeping with a stand-in simulator
# (scripts/bench_sweep.sh; BENCH_ROWS, BENCH_BOOK_ROWS, BENCH_REF). Not a test.
.PHONY: bench-sweep
## bench-sweep: make sweep in blocks vs the per-row sweep on a 10000-row Andrews table, and 100000 rows of bookkeeping: results/bench_sweep.txt
bench-sweep: $(BUILD)/andrews_sim $(BUILD)/mb_sweep
	@scripts/deps.sh core sweep
	@mkdir -p $(call shq,$(RESULTS))
	@scripts/bench_sweep.sh $(BUILD)/andrews_sim | tee $(call shq,$(RESULTS)/bench_sweep.txt)
