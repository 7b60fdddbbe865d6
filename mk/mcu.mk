# mk/mcu.mk - the firmware path. make mcu-test: the firmware example (examples/firmware over
# runtime/mb_embed.h) and the numerical kernels built for Cortex-M4F and Cortex-M3, run under
# qemu-system-arm, compared with a host build of the same sources; fails on malloc/free/printf
# in embedded objects (scripts/mcu/mcu-test.sh). make mcu-measure: flash, RAM, stack and cost
# per step for docs/embedding.md (-O2 and -Os).
MCU_MODELS := andrews double_pendulum
MCU_RT_SRC := runtime/mb_embed.c $(RT_CORE) runtime/mb_linalg.c runtime/mb_status.c
MCU_GEN    := $(MCU_MODELS:%=generated/%.c)
.PHONY: mcu-deps mcu-test mcu-measure

mcu-deps:
	@scripts/deps.sh core mcu

## mcu-test: the firmware example and kernels for Cortex-M4F and M3 under QEMU, compared with the host
mcu-test: mcu-deps $(MCU_GEN)
	@MCU_MODELS="$(MCU_MODELS)" MCU_RUNTIME_SRC="$(MCU_RT_SRC)" CC="$(CC)" scripts/mcu/mcu-test.sh

## mcu-measure: flash, RAM, stack and cost per step of the firmware example (-O2 and -Os)
mcu-measure: mcu-deps $(MCU_GEN) $(BUILD)/mbgen
	@for o in -O2 -Os; do echo "== $$o"; MCU_MODELS="$(MCU_MODELS)" scripts/mcu/measure.sh $$o || exit 1; done
	@echo "== -Os, models generated with --linalg compact --no-fused (flash-lean)"
	@MCU_MODELS="$(MCU_MODELS)" MCU_MBGEN_FLAGS="--linalg compact --no-fused" scripts/mcu/measure.sh -Os

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
