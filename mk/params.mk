# mk/params.mk - tunable parameters and parameter sweeps (docs/model-language.md "Tunable
# parameters", docs/sweeps.md). tests/test_params.c: the runtime API (mb_sim_set_param) on the
# generated suspension model against the closed form of the damped oscillator;
# tests/test_params.sh: --set against the model regenerated with constants, the errors;
# tests/test_batch.sh: the simulator's --batch against runs of their own, hostile files;
# tests/test_batch_wide.sh: a table of 1030 columns, 1100 sensors (a half-minute compile: long).

$(BUILD)/test_params: $(call obj,san,tests/test_params.c generated/suspension.c) $(RT_OBJ_san)
	$(call link,san,$(RT_LIBS))

TEST_PROGS   += $(BUILD)/test_params
TEST_SCRIPTS += tests/test_params.sh tests/test_sweep.sh tests/test_batch.sh
TEST_NEEDS   += $(BUILD)/suspension_sim $(BUILD)/mb_sweep $(BUILD)/motor_arm_sim
TEST_LONG    += tests/test_batch_wide.sh

# the sweep's bookkeeping: the table checked, the rows to run, the blocks, the progress, the summary
# (tools/mb_sweep_main.c; scripts/sweep.sh finds it next to the simulator)
$(BUILD)/mb_sweep: $(call obj,host,tools/mb_sweep_main.c tools/mb_sweep_table.c)
	$(call link,host,)

# make sweep MODEL=<name | file.lua | path> [DEFS=...] SWEEP=params.csv: every row of the table
# (a column per tunable, or h, t_end, formulation, integrator) one run of the model's simulator,
# in parallel (GNU parallel) or as a Slurm job array (SWEEP_ENGINE=slurm); then
# results/sweep_<name>/summary.csv and plot.png (scripts/sweep.sh, docs/sweeps.md)
SWEEP        ?=
SWEEP_OUT    ?=
SWEEP_ENGINE ?= parallel
sweep: export MB_MODEL_ARG = $(value MODEL)
sweep: export MB_DEFS_ARG = $(value DEFS)
sweep: export MB_MBGEN_FLAGS_ARG = $(value MBGEN_FLAGS)
## sweep: run MODEL over the rows of SWEEP=params.csv (GNU parallel, or SWEEP_ENGINE=slurm): results/sweep_<name>/summary.csv, plot.png
# (paths and the engine reach the scripts through the environment, never through the shell's
# parser: a space or a quote in SWEEP, RESULTS or SWEEP_ENGINE is text)
sweep model-sweep: export MB_SWEEP_TABLE = $(SWEEP)
sweep model-sweep: export MB_SWEEP_DIR = $(if $(SWEEP_OUT),$(SWEEP_OUT),$(RESULTS)/sweep_$(MODEL_NAME))
sweep model-sweep: export MB_SWEEP_ENGINE = $(SWEEP_ENGINE)
sweep: $(BUILD)/mbgen $(BUILD)/mb_sweep
	@test -n "$$MB_SWEEP_TABLE" || { echo "make sweep: give SWEEP=params.csv (a column per tunable, one row per run; docs/sweeps.md)" >&2; exit 2; }
	@scripts/deps.sh core $(if $(filter slurm,$(SWEEP_ENGINE)),,sweep)
	@$(call WITH_MODEL,model-sweep)
ifdef MODEL_NAME
model-sweep: model-sim
	@SWEEP_ENGINE="$$MB_SWEEP_ENGINE" scripts/sweep.sh $(call shq,$(BUILD)/$(MODEL_NAME)_sim) "$$MB_SWEEP_TABLE" "$$MB_SWEEP_DIR"
endif
.PHONY: sweep model-sweep

# The Slurm engine on a real (single-node, local) Slurm: not in make test, since it needs root
# and starts daemons (munged, slurmctld, slurmd); .ci/run runs it after make test, bounded by
# TEST_SLURM_TIMEOUT (default 180 s). tests/test_sweep.sh checks the job scripts without Slurm.
## test-slurm: make sweep SWEEP_ENGINE=slurm on a Slurm started on this machine for the test (root; tests/test_slurm.sh)
test-slurm: $(BUILD)/suspension_sim $(BUILD)/mb_sweep
	@scripts/deps.sh core sweep slurm
	@tests/run.sh tests/test_slurm.sh
.PHONY: test-slurm
