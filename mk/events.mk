# mk/events.mk - events (runtime/mb_event.c; docs/formulations.md, "Events"; docs/validation.md,
# "Events"): tests/test_events.c, the shipped bouncing ball's apex heights with and without root
# finding on its contact gap (the error-over-rtol table of dop853, bdf and dopri5), fixed-step
# onset counting, the parameter check.

$(BUILD)/test_events: $(call obj,san,tests/test_events.c generated/bouncing_ball.c generated/bouncing_ball_data.c) $(RT_OBJ_san)
	$(call link,san,$(RT_LIBS))

TEST_PROGS += $(BUILD)/test_events
