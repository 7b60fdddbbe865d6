# mk/events.mk - events (runtime/mb_event.c; docs/formulations.md, "Events"; docs/validation.md,
# "Events"): tests/test_events.c, the shipped bouncing ball's apex heights with and without root
# finding on its contact gap (the error-over-rtol table of dop853, bdf and dopri5), fixed-step
# onset counting, the parameter check.

# ball_linear: a linear contact law, smooth inside the contact (hht, the extrapolated trapezoid)
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/ball_drop.lua,ball_linear,-D e=1 -D k=1e6 --name ball_linear))
$(BUILD)/test_events: $(call obj,san,tests/test_events.c generated/bouncing_ball.c generated/bouncing_ball_data.c $(BUILD)/gen_test/ball_linear.c $(BUILD)/gen_test/ball_linear_data.c) $(RT_OBJ_san)
	$(call link,san,$(RT_LIBS))

TEST_PROGS += $(BUILD)/test_events

# step{} switches as events: tests/test_switches.c on tests/models/step_spring.lua (closed form)
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/step_spring.lua,step_spring,))
$(BUILD)/test_switches: $(call obj,san,tests/test_switches.c $(BUILD)/gen_test/step_spring.c $(BUILD)/gen_test/step_spring_data.c evaluator/mb_generic.c) $(RT_OBJ_san)
	$(call link,san,$(RT_LIBS))

TEST_PROGS += $(BUILD)/test_switches
