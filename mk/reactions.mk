# mk/reactions.mk - sensors that read reactions (docs/model-language.md, "Reactions in sensors";
# interface 13): tests/models/react_sensors.lua, a joint of every kind and a driver read by
# sensors, and tests/models/react_pendulum.lua (a hanging bar pushed by an input);
# tests/test_react_sensors.sh, the out. columns against the CSV's reaction columns, the closed
# forms of the driven arm, the bar at rest and its linearization's C and D; its derivatives (dy/dlambda too) against finite
# differences like every model's (mk/generator.mk).

$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/react_sensors.lua,react_sensors,))
$(BUILD)/react_sensors_sim: $(call SIM_OBJ,host,react_sensors,$(call LONG_SRC,react_sensors))
	$(call link,host,$(RT_LIBS))
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/react_pendulum.lua,react_pendulum,))
$(BUILD)/react_pendulum_sim: $(call SIM_OBJ,host,react_pendulum,$(call LONG_SRC,react_pendulum))
	$(call link,host,$(RT_LIBS))
$(BUILD)/test_derivs_react_sensors: $(BUILD)/o/san/derivs/react_sensors.o $(call obj,san,$(BUILD)/gen_test/react_sensors.c)
	$(call link,san,-lm)

TEST_PROGS   += $(BUILD)/test_derivs_react_sensors
TEST_SCRIPTS += tests/test_react_sensors.sh
TEST_NEEDS   += $(BUILD)/react_sensors_sim $(BUILD)/react_pendulum_sim $(BUILD)/mbgen $(BUILD)/test_react_api
# the C API: mb_anl_outputs, mb_sim_get_output against it
$(BUILD)/test_react_api: $(call obj,san,tests/test_react_api.c $(BUILD)/gen_test/react_pendulum.c $(BUILD)/gen_test/react_sensors.c) $(RT_OBJ_san)
	$(call link,san,$(RT_LIBS))
$(BUILD)/test_react_api_float: $(call obj,float,tests/test_react_api.c $(BUILD)/gen_test/react_pendulum.c $(BUILD)/gen_test/react_sensors.c) $(RT_OBJ_float)
	$(call link,float,$(RT_LIBS))
TEST_PROGS   += $(BUILD)/test_react_api $(BUILD)/test_react_api_float
