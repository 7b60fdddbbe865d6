# mk/params.mk - tunable parameters and parameter sweeps (docs/model-language.md "Tunable
# parameters", docs/sweeps.md). tests/test_params.c: the runtime API (mb_sim_set_param) on the
# generated suspension model against the closed form of the damped oscillator;
# tests/test_params.sh: --set against the model regenerated with constants, the errors.

$(BUILD)/test_params: $(call obj,san,tests/test_params.c generated/suspension.c) $(RT_OBJ_san)
	$(call link,san,$(RT_LIBS))

TEST_PROGS   += $(BUILD)/test_params
TEST_SCRIPTS += tests/test_params.sh
TEST_NEEDS   += $(BUILD)/suspension_sim
