# mk/inputs.mk - inputs, forces that depend on the state and sensors (docs/model-language.md,
# "Inputs, forces that depend on the state, sensors"): tests/test_inputs.c, the C API on the
# generated cartpole (a zero-order-hold table set through mb_sim_set_input equals the simulator's
# --input-file code bit for bit; the sensors; misuse); tests/test_inputs.sh, --input-file against
# the model regenerated with the same function of time, and the block on an incline with
# regularized Coulomb friction against its closed form (tests/models/incline_friction.lua).

$(BUILD)/test_inputs: $(call obj,san,tests/test_inputs.c generated/cartpole.c tools/mb_input_file.c) $(RT_OBJ_san)
	$(call link,san,$(RT_LIBS))
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/incline_friction.lua,incline_friction,))
$(BUILD)/incline_friction_sim: $(call SIM_OBJ,host,incline_friction,$(call LONG_SRC,incline_friction))
	$(call link,host,$(RT_LIBS))
# its derivatives against finite differences, like every shipped model's (mk/generator.mk)
$(BUILD)/test_derivs_incline_friction: $(BUILD)/o/san/derivs/incline_friction.o $(call obj,san,$(BUILD)/gen_test/incline_friction.c)
	$(call link,san,-lm)

TEST_PROGS   += $(BUILD)/test_inputs $(BUILD)/test_derivs_incline_friction
TEST_SCRIPTS += tests/test_inputs.sh
TEST_NEEDS   += $(BUILD)/cartpole_sim $(BUILD)/incline_friction_sim $(BUILD)/test_inputs $(BUILD)/mbgen
