# mk/reliability.mk - hostile inputs, runtime faults, sanitizers, valgrind and fuzzing (issue 7).
# tests/test_make_vars.sh: hostile make variables (mk/user_vars.mk, issue 27).
# tests/test_cli_hostile.sh: hostile options and inputs of the simulator, the animation tool and
# mbgen. tests/test_faults.sh: Newton failure, step underflow, NaN/Inf, assembly failure and rank
# loss in the simulator, with the test models tests/models/fault_*.lua (built in $(BUILD)).
# make test-san: the binaries the script tests run and the C tests without a sanitizer twin,
# built with ASan+UBSan in $(BUILD)/san, and the script tests run against them.
REL_MODELS := fault_noassembly fault_velconflict fault_blowup fault_spin fault_zerospring fault_hugek fault_redundant
SAN_DIR    := $(BUILD)/san
$(foreach m,$(REL_MODELS),$(eval $(call GEN_INTO,$(BUILD)/gen_fault,tests/models/$(m).lua,$(m),)))

# the fault simulators (with the generic evaluator: --eval generic runs on them too)
FAULT_SRC := $(BUILD)/gen_fault/fault_%.c $(BUILD)/gen_fault/fault_%_data.c
$(BUILD)/fault_%_sim: $(call SIM_OBJ,host,fault_%,$(FAULT_SRC))
	$(call link,host,$(RT_LIBS))
TEST_SCRIPTS += tests/test_cli_hostile.sh tests/test_faults.sh
# hostile make variables (mk/user_vars.mk): refused before anything runs, or text
TEST_SCRIPTS += tests/test_make_vars.sh
TEST_NEEDS   += $(BUILD)/mbgen $(BUILD)/andrews_sim $(BUILD)/mb_anim $(BUILD)/suspension_sim
TEST_NEEDS   += $(REL_MODELS:%=$(BUILD)/%_sim) $(BUILD)/fixture_pendulum_sim $(BUILD)/andrews_sim \
                $(BUILD)/fourbar_singular_sim $(BUILD)/mb_anim

# sanitizer builds: the programs of the script tests, in the san variant
$(SAN_DIR)/%_sim: $(call SIM_OBJ,san,%,generated/%.c generated/%_data.c)
	@mkdir -p $(@D)
	$(call link,san,$(RT_LIBS))
$(SAN_DIR)/fixture_pendulum_sim: $(call SIM_OBJ,san,fixture_pendulum,tests/fixture_pendulum.c)
	@mkdir -p $(@D)
	$(call link,san,$(RT_LIBS))
$(SAN_DIR)/fault_%_sim: $(call SIM_OBJ,san,fault_%,$(FAULT_SRC))
	@mkdir -p $(@D)
	$(call link,san,$(RT_LIBS))
$(SAN_DIR)/mb_anim: $(call ANIM_OBJ,san)
	@mkdir -p $(@D)
	$(call link,san,-lm)
$(SAN_DIR)/mbgen: $(BUILD)/mbgen_san
	@mkdir -p $(@D)
	cp $< $@
# the C tests whose own sections build them without sanitizers
$(SAN_DIR)/test_runtime_linalg: $(call obj,san,tests/test_runtime_linalg.c) $(RT_OBJ_san) $(BUILD)/o/san/linalg_renamed.o
	@mkdir -p $(@D)
	$(call link,san,$(RT_LIBS))
$(SAN_DIR)/test_physics_builtin: $(call RT_TEST,san_builtin,test_physics,$(RT_GEN))
	@mkdir -p $(@D)
	$(call link,san_builtin,-lamd -lm)
$(SAN_DIR)/test_physics_float: $(call RT_TEST,san_float,test_physics,)
	@mkdir -p $(@D)
	$(call link,san_float,$(RT_LIBS))
$(SAN_DIR)/test_generic_float: $(call GNR_TEST,san_float)
	@mkdir -p $(@D)
	$(call link,san_float,$(RT_LIBS))
$(SAN_DIR)/test_embed_float: $(call EMBED_TEST,san_float_builtin) $(call RT_EMBED,san_float_builtin)
	@mkdir -p $(@D)
	$(call link,san_float_builtin,-lm)

# the simulators of the test models of issue 11 (mk/tests.mk: LONG_MODELS)
$(SAN_DIR)/pendulum_sim: $(call SIM_OBJ,san,pendulum,$(call LONG_SRC,pendulum))
	@mkdir -p $(@D)
	$(call link,san,$(RT_LIBS))
$(SAN_DIR)/fourbar_chain_sim: $(call SIM_OBJ,san,fourbar_chain,$(call LONG_SRC,fourbar_chain))
	@mkdir -p $(@D)
	$(call link,san,$(RT_LIBS))
$(SAN_DIR)/point_pendulum_sim: $(call SIM_OBJ,san,point_pendulum,$(call LONG_SRC,point_pendulum))
	@mkdir -p $(@D)
	$(call link,san,$(RT_LIBS))
# (tests/test_anim.sh's slots, gears and racks: kin_meshes beside the shipped shaper, gear_train)
$(SAN_DIR)/kin_meshes_sim: $(call SIM_OBJ,san,kin_meshes,$(call LONG_SRC,kin_meshes))
	@mkdir -p $(@D)
	$(call link,san,$(RT_LIBS))
# (tests/test_anim.sh's cams: kin_cams beside the shipped cam_follower)
$(SAN_DIR)/kin_cams_sim: $(call SIM_OBJ,san,kin_cams,$(call LONG_SRC,kin_cams))
	@mkdir -p $(@D)
	$(call link,san,$(RT_LIBS))
# (tests/test_sim_cli.sh's step input)
$(SAN_DIR)/step_crane_sim: $(call SIM_OBJ,san,step_crane,$(call LONG_SRC,step_crane))
	@mkdir -p $(@D)
	$(call link,san,$(RT_LIBS))

# the simulators tests/test_sim_cli.sh runs: analysis test models (mk/analysis.mk) and the
# models with a non-finite load (mk/tests.mk)
$(SAN_DIR)/anl_%_sim: $(call SIM_OBJ,san,anl_%,$(BUILD)/gen_anl/anl_%.c $(BUILD)/gen_anl/anl_%_data.c)
	@mkdir -p $(@D)
	$(call link,san,$(RT_LIBS))
$(SAN_DIR)/nan_%_sim: $(call SIM_OBJ,san,nan_%,$(call LONG_SRC,nan_%))
	@mkdir -p $(@D)
	$(call link,san,$(RT_LIBS))

# the claims audit's simulators (mk/tests.mk: AUDIT_MODELS)
$(foreach m,$(AUDIT_MODELS),$(eval $(SAN_DIR)/$(m)_sim: $(call SIM_OBJ,san,$(m),$(call LONG_SRC,$(m)))))
$(AUDIT_MODELS:%=$(SAN_DIR)/%_sim):
	@mkdir -p $(@D)
	$(call link,san,$(RT_LIBS))

SAN_PROGS   := $(SAN_DIR)/test_runtime_linalg $(SAN_DIR)/test_physics_builtin \
               $(SAN_DIR)/test_physics_float $(SAN_DIR)/test_generic_float $(SAN_DIR)/test_embed_float
SAN_BINS    := $(SAN_DIR)/mbgen $(SAN_DIR)/mb_anim \
               $(foreach m,andrews fixture_pendulum fourbar_singular $(REL_MODELS),$(SAN_DIR)/$(m)_sim) \
               $(foreach m,pendulum fourbar_chain double_pendulum oscillator_1dof point_pendulum,$(SAN_DIR)/$(m)_sim) \
               $(AUDIT_MODELS:%=$(SAN_DIR)/%_sim) \
               $(foreach m,anl_inverted anl_slider_driven anl_spinner nan_driver nan_torque suspension,$(SAN_DIR)/$(m)_sim) \
               $(foreach m,parallelogram_chain step_crane anl_damped,$(SAN_DIR)/$(m)_sim) \
               $(foreach m,shaper gear_train kin_meshes bouncing_ball cam_follower kin_cams geneva valve_jump cartpole,$(SAN_DIR)/$(m)_sim)
SAN_SCRIPTS := tests/test_mbgen.sh tests/test_runtime_cli.sh tests/test_anim.sh \
               tests/test_cli_hostile.sh tests/test_faults.sh tests/test_longrun.sh tests/test_audit.sh \
               tests/test_sim_cli.sh tests/test_run_script.sh tests/test_batch.sh
# a sanitizer report exits 99, which no test accepts as an expected exit status; the scripts run
# their long form (MB_TEST_LONG=1: test_mbgen.sh's every mutant)
SAN_ENV := ASAN_OPTIONS=exitcode=99:detect_leaks=1 UBSAN_OPTIONS=exitcode=99:print_stacktrace=1 MB_TEST_LONG=1
.PHONY: test-san valgrind fuzz fuzz-build
## test-san: the simulators, animation tool, mbgen and the remaining C tests under ASan+UBSan
test-san: deps plots-deps $(SAN_PROGS) $(SAN_BINS)
	@$(SAN_ENV) BUILD=$(call shq,$(SAN_DIR)) MBGEN=$(call shq,$(SAN_DIR)/mbgen) tests/run.sh $(SAN_PROGS) $(SAN_SCRIPTS)

## valgrind: memcheck on one simulation per formulation (scripts/valgrind.sh)
valgrind: deps $(BUILD)/double_pendulum_sim
	@scripts/deps.sh tools
	@scripts/valgrind.sh $(BUILD)/double_pendulum_sim

# libFuzzer targets (clang, built from source: not a variant): the model loader through
# mbgen's host, the simulator's options, the animation tool's drawing info reader, the sweep
# table reader (build/mb_sweep's)
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_FLAGS   := $(CSTD) $(WARN) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
                $(INCLUDES)
FUZZ_TARGETS := $(BUILD)/fuzz/fuzz_model $(BUILD)/fuzz/fuzz_simopts $(BUILD)/fuzz/fuzz_info \
                $(BUILD)/fuzz/fuzz_sweep_table
# (one clang run per target: its headers, and the C files the targets #include, by wildcard)
FUZZ_DEPS    := $(wildcard runtime/*.h tools/*.h generator/*.h tests/*.h) generator/mbgen.c \
                tools/mb_sim_main.c $(MK_FILES)
FUZZ_MODEL_SRC   := tests/fuzz/fuzz_model.c generator/mbgen_plan.c generator/mb_plan_build.c \
                    runtime/mb_sparse.c
FUZZ_SIMOPTS_SRC := tests/fuzz/fuzz_simopts.c $(SIM_TOOL_SRC) \
                    tests/fixture_pendulum.c $(RT_SRC) $(RT_PLAN)
FUZZ_INFO_SRC    := tests/fuzz/fuzz_info.c tools/mb_info_read.c tools/mb_info.c tools/mb_lines.c
FUZZ_SWEEP_SRC   := tests/fuzz/fuzz_sweep_table.c tools/mb_sweep_table.c
$(BUILD)/fuzz/fuzz_sweep_table: $(FUZZ_SWEEP_SRC) $(FUZZ_DEPS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_SWEEP_SRC) -o $@
$(BUILD)/fuzz/fuzz_model: $(FUZZ_MODEL_SRC) $(FUZZ_DEPS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Wno-unused-function -DMBGEN_DATADIR='"$(CURDIR)"' \
	    $(FUZZ_MODEL_SRC) $(LUA_LIBS) -lamd -o $@
$(BUILD)/fuzz/fuzz_simopts: $(FUZZ_SIMOPTS_SRC) $(FUZZ_DEPS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -DMB_MODEL=fixture_pendulum $(FUZZ_SIMOPTS_SRC) $(RT_LIBS) \
	    -Wl,--wrap=mb_sim_step,--wrap=mb_params_check_checked -o $@
$(BUILD)/fuzz/fuzz_info: $(FUZZ_INFO_SRC) $(FUZZ_DEPS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_INFO_SRC) -o $@
fuzz-build:
	@scripts/deps.sh core fuzz
	@$(MAKE) --no-print-directory $(FUZZ_TARGETS)
## fuzz: libFuzzer runs of the model loader, the simulator's options, the drawing info reader and the sweep table reader, and mutated models generated, compiled and run [FUZZ_SECONDS=60]
fuzz: fuzz-build $(BUILD)/mbgen $(RT_OBJ_host) $(call obj,host,$(SIM_TOOL_SRC))
	@tests/fuzz/run.sh $(call shq,$(FUZZ_SECONDS)) $(FUZZ_TARGETS)
	@CC=$(call shq,$(CC)) SIM_SRC=$(call shq,tools/mb_sim_main.c $(RT_OBJ_host) $(call obj,host,$(SIM_TOOL_SRC))) \
	    SIM_CFLAGS=$(call shq,$(CFLAGS_C) -O1 -D_POSIX_C_SOURCE=200809L) SIM_LIBS=$(call shq,$(RT_LIBS)) \
	    tests/fuzz/fuzz_generated.sh $(call shq,$(FUZZ_SECONDS))
