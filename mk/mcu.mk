# mk/mcu.mk - the firmware path. make mcu-test: the firmware example (examples/firmware over
# runtime/mb_embed.h) and the numerical kernels built for Cortex-M4F and Cortex-M3, run under
# qemu-system-arm, compared with a host build of the same sources; fails on malloc/free/printf
# in embedded objects (scripts/mcu/mcu-test.sh). make mcu-measure: flash, RAM, stack and cost
# per step for docs/embedding.md (-O2 and -Os). The cart-pole LQR firmware joins mcu-test (mk/control.mk).
MCU_MODELS := andrews double_pendulum
MCU_RT_SRC := runtime/mb_embed.c $(RT_CORE) runtime/mb_linalg.c runtime/mb_status.c runtime/mb_math.c
MCU_GEN    := $(MCU_MODELS:%=generated/%.c)
.PHONY: mcu-deps mcu-test mcu-measure

mcu-deps:
	@scripts/deps.sh core mcu

## mcu-test: the firmware example and kernels for Cortex-M4F and M3 under QEMU, compared with the host
mcu-test: mcu-deps $(MCU_GEN) generated/cartpole.c $(BUILD)/mbgen
	@MCU_MODELS=$(call shq,$(MCU_MODELS)) MCU_RUNTIME_SRC=$(call shq,$(MCU_RT_SRC)) CC=$(call shq,$(CC)) \
	    scripts/mcu/mcu-test.sh

# $(call MCU_MEASURE,MODELS,DIR,FILE,MBGEN OPTIONS): scripts/mcu/measure.sh at -O2 and -Os on the
# models' C in DIR, then at -Os on them regenerated flash-lean (from FILE with the options when
# given: one model of any file; else models/<m>.lua)
MCU_MEASURE = for o in -O2 -Os; do echo "== $$o"; MCU_MODELS=$(call shq,$(1)) MCU_GEN=$(call shq,$(2)) \
        scripts/mcu/measure.sh $$o || exit 1; done; \
    echo "== -Os, models generated with --linalg compact --no-fused (flash-lean)"; \
    MCU_MODELS=$(call shq,$(1)) MCU_MODEL_FILE=$(call shq,$(3)) MCU_MODEL_OPTS=$(call shq,$(4)) \
        MCU_MBGEN_FLAGS="--linalg compact --no-fused" scripts/mcu/measure.sh -Os
## mcu-measure: flash, RAM, stack and cost per step of the firmware example (-O2 and -Os) [MODEL=... DEFS=...: that model only]
ifeq ($(origin MODEL),command line)
mcu-measure: mcu-deps $(BUILD)/mbgen
	@$(call WITH_MODEL,model-mcu-measure)
else
mcu-measure: mcu-deps $(MCU_GEN) $(BUILD)/mbgen
	@$(call MCU_MEASURE,$(MCU_MODELS),generated,,)
endif
model-mcu-measure: model-gen
	@$(call MCU_MEASURE,$(MODEL_NAME),$(MODEL_DIR),$(MODEL_FILE),$(MODEL_OPTS))

# The firmware example for any model (scripts/mcu/firmware.sh): MODEL and DEFS as for make sim,
# REAL=double|float, TARGET=m4f|m3, FORMULATION=alf-trapezoid|baumgarte, MCU_STEPS=100 (they
# reach the script through the environment, as typed; it checks them).
REAL      ?= double
TARGET    ?= m4f
MCU_STEPS ?= 100
## mcu-build: the firmware example for one model: make mcu-build MODEL=... REAL=float|double TARGET=m4f|m3 [FORMULATION=]
mcu-build: mcu-deps $(BUILD)/mbgen
	@$(call WITH_MODEL,model-mcu-build)
## mcu-run: mcu-build, then run it under QEMU and print its output in decimal (coordinates named)
mcu-run: mcu-deps $(BUILD)/mbgen
	@$(call WITH_MODEL,model-mcu-run)
model-mcu-build model-mcu-run: export MB_FW_TARGET = $(value TARGET)
model-mcu-build model-mcu-run: export MB_FW_REAL = $(value REAL)
model-mcu-build model-mcu-run: export MB_FW_FORMULATION = $(value FORMULATION)
model-mcu-build model-mcu-run: export MCU_STEPS := $(MCU_STEPS)
model-mcu-build model-mcu-run: model-mcu-%: model-gen
	@scripts/mcu/firmware.sh $* $(call shq,$(MODEL_NAME)) $(call shq,$(MODEL_DIR)) "$$MB_FW_TARGET" "$$MB_FW_REAL" \
	    "$$MB_FW_FORMULATION"
.PHONY: mcu-build mcu-run model-mcu-build model-mcu-run model-mcu-measure

# Host test of the firmware API: the compile-time workspace bound against mb_sim.c's layout,
# mb_embed against direct mb_sim calls; double (ASan+UBSan, builtin back end), float, and the
# lean build (only alf-trapezoid, no full-Jacobian terms, no dense back end: links without
# mb_linalg.c; docs/embedding.md).
EMBED_TEST = $(call obj,$(1),tests/test_embed.c $(MCU_GEN))
$(BUILD)/test_embed: $(call EMBED_TEST,san_builtin) $(call RT_EMBED,san_builtin)
	$(call link,san_builtin,-lm)
$(BUILD)/test_embed_float: $(call EMBED_TEST,float_builtin) $(call RT_EMBED,float_builtin)
	$(call link,float_builtin,-lm)
$(BUILD)/test_embed_lean: $(call EMBED_TEST,lean) $(RT_OBJ_lean)
	$(call link,lean,-lm)
TEST_PROGS += $(BUILD)/test_embed $(BUILD)/test_embed_float $(BUILD)/test_embed_lean
