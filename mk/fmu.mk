# mk/fmu.mk - FMI 2.0 export (docs/fmi.md): make fmu MODEL=x -> build/fmu/x.fmu, Co-Simulation
# and Model Exchange (modelDescription.xml, binaries/linux64/x.so, sources/), built by
# scripts/fmu_pack.sh from the generated model, the runtime sources and the wrapper
# fmu/mb_fmu.c; the Co-Simulation settings (formulation, integrator, step, tolerances) are the
# simulator's defaults unless FORMULATION, INTEGRATOR, FMU_H, FMU_RTOL, FMU_ATOL say otherwise.
# tests/test_fmu.c imports FMUs as a master does and compares them with the simulator.

INTEGRATOR ?=
FMU_H      ?=
FMU_RTOL   ?=
FMU_ATOL   ?=
# the FMU's library: optimized, without debug information (OPT's -g would triple its size)
FMU_OPT    := -O2
FMU_DEPS := scripts/fmu_pack.sh fmu/mb_fmu.c fmu/mb_fmu_desc.c fmu/mb_fmi2.h fmu/mb_fmu_vars.h \
            $(RT_CORE) runtime/mb_linalg.c runtime/mb_status.c runtime/mb_analysis.c $(wildcard runtime/*.h)

# the settings of an FMU: a file rewritten only when they change (so a change rebuilds it)
$(BUILD)/fmu/%.settings: export MB_FMU_SETTINGS = formulation=$(FORMULATION)|integrator=$(INTEGRATOR)|h=$(FMU_H)|rtol=$(FMU_RTOL)|atol=$(FMU_ATOL)
$(BUILD)/fmu/%.settings: FORCE
	@mkdir -p $(@D); printf '%s\n' "$$MB_FMU_SETTINGS" | tr '|' '\n' | cmp -s - $@ || \
	    printf '%s\n' "$$MB_FMU_SETTINGS" | tr '|' '\n' >$@
# $(call FMU_PACK,NAME,MODEL_DIR[,SETTINGS]): the FMU $@
FMU_PACK = scripts/deps.sh fmu && CC=$(call shq,$(CC)) OPT=$(call shq,$(FMU_OPT)) \
           scripts/fmu_pack.sh $(1) $(call shq,$(2)) $(call shq,$(or $(3),$(BUILD)/fmu/$(1).settings)) $(call shq,$@)
$(BUILD)/fmu/%.fmu: generated/%.c generated/%.h $(BUILD)/fmu/%.settings $(FMU_DEPS)
	@$(call FMU_PACK,$*,generated)

fmu: export MB_MODEL_ARG = $(value MODEL)
fmu: export MB_DEFS_ARG = $(value DEFS)
fmu: export MB_MBGEN_FLAGS_ARG = $(value MBGEN_FLAGS)
## fmu: an FMI 2.0 FMU of MODEL (Co-Simulation, Model Exchange): make fmu MODEL=<name | file.lua | path> [DEFS=...] [FORMULATION=f INTEGRATOR=i FMU_H=s FMU_RTOL=r FMU_ATOL=a] -> build/fmu/<name>.fmu
fmu: $(BUILD)/mbgen
	@$(call WITH_MODEL,model-fmu)
.PHONY: fmu model-fmu

ifdef MODEL_NAME
model-fmu: $(BUILD)/fmu/$(MODEL_NAME).fmu
	@:
ifneq ($(MODEL_DIR),generated)
$(BUILD)/fmu/$(MODEL_NAME).fmu: $(MODEL_DIR)/$(MODEL_NAME).c $(MODEL_DIR)/$(MODEL_NAME).h \
                                $(BUILD)/fmu/$(MODEL_NAME).settings $(FMU_DEPS)
	@$(call FMU_PACK,$(MODEL_NAME),$(MODEL_DIR))
endif
endif

# the test: a master's import of the FMUs of the cart-pole and the quarter car (the simulator's
# defaults) and of the motor arm built with baumgarte and dopri5, in $(BUILD)/fmu_test with their
# settings fixed (whatever FORMULATION make test is given), against the simulator
# $(call FMU_TEST,NAME,SETTINGS LINES)
define FMU_TEST
$(BUILD)/fmu_test/$(1).settings: $$(MK_FILES)
	@mkdir -p $$(@D); printf '%s\n' $(2) >$$@
$(BUILD)/fmu_test/$(1).fmu: generated/$(1).c generated/$(1).h $(BUILD)/fmu_test/$(1).settings $$(FMU_DEPS)
	@$$(call FMU_PACK,$(1),generated,$(BUILD)/fmu_test/$(1).settings)
endef
$(eval $(call FMU_TEST,cartpole,formulation= integrator= h= rtol= atol=))
$(eval $(call FMU_TEST,suspension,formulation= integrator= h= rtol= atol=))
$(eval $(call FMU_TEST,motor_arm,formulation=baumgarte integrator=dopri5 h= rtol= atol=))
$(BUILD)/test_fmu: $(call obj,host,tests/test_fmu.c)
	$(call link,host,-ldl -lm)
$(BUILD)/o/host/tests/test_fmu.o: XFLAGS = -Ifmu -D_POSIX_C_SOURCE=200809L
TEST_PROGS += $(BUILD)/test_fmu
TEST_NEEDS += $(BUILD)/test_fmu $(BUILD)/fmu_test/cartpole.fmu $(BUILD)/fmu_test/motor_arm.fmu $(BUILD)/fmu_test/suspension.fmu \
              $(BUILD)/cartpole_sim $(BUILD)/motor_arm_sim $(BUILD)/suspension_sim
