# mk/reactions.mk - sensors that read reactions (docs/model-language.md, "Reactions in sensors";
# interface 12): tests/models/react_sensors.lua, a joint of every kind and a driver read by
# sensors; tests/test_react_sensors.sh, the out. columns against the CSV's reaction columns and a
# driven arm's closed form, the refusals; its derivatives (dy/dlambda too) against finite
# differences like every model's (mk/generator.mk).

$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/react_sensors.lua,react_sensors,))
$(BUILD)/react_sensors_sim: $(call SIM_OBJ,host,react_sensors,$(call LONG_SRC,react_sensors))
	$(call link,host,$(RT_LIBS))
$(BUILD)/test_derivs_react_sensors: $(BUILD)/o/san/derivs/react_sensors.o $(call obj,san,$(BUILD)/gen_test/react_sensors.c)
	$(call link,san,-lm)

TEST_PROGS   += $(BUILD)/test_derivs_react_sensors
TEST_SCRIPTS += tests/test_react_sensors.sh
TEST_NEEDS   += $(BUILD)/react_sensors_sim $(BUILD)/mbgen
