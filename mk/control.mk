# mk/control.mk - the closed loop, end to end (examples/cartpole, docs/control.md): the LQR gain
# from the generated cart-pole's linearization (lqr_design, LAPACKE), the controller stepping the
# generated solver on the host (cartpole_lqr; make run MODEL=cartpole draws the simulator's replay
# of its force) and in firmware (make mcu-test: scripts/mcu/mcu-test.sh's cart-pole cases).
# tests/test_lqr.c: the Riccati solver, the design and the closed loop with its negative control;
# tests/test_control.sh: the programs and the replay.
CP_DIR    := examples/cartpole
CP_DESIGN := $(CP_DIR)/cartpole_design.c $(CP_DIR)/lqr.c
CP_LOOP   := $(CP_DIR)/cartpole_run.c $(CP_DIR)/cartpole_control.c
CP_OBJS   := $(foreach v,host san,$(call obj,$(v),$(CP_DIR)/lqr_design.c $(CP_DIR)/cartpole_lqr.c $(CP_DESIGN) $(CP_LOOP) tests/test_lqr.c))
$(CP_OBJS): XFLAGS = -I$(CP_DIR)

$(BUILD)/lqr_design: $(call obj,host,$(CP_DIR)/lqr_design.c $(CP_DESIGN) generated/cartpole.c) $(call RT_EMBED,host)
	$(call link,host,$(RT_LIBS))
$(BUILD)/cartpole_lqr: $(call obj,host,$(CP_DIR)/cartpole_lqr.c $(CP_LOOP) generated/cartpole.c) $(call RT_EMBED,host)
	$(call link,host,$(RT_LIBS))
$(BUILD)/test_lqr: $(call obj,san,tests/test_lqr.c $(CP_DESIGN) $(CP_LOOP) generated/cartpole.c) $(call RT_EMBED,san)
	$(call link,san,$(RT_LIBS))

.PHONY: cartpole-gain
## cartpole-gain: the cart-pole's LQR gain from its linearization -> examples/cartpole/cartpole_gain.h (docs/control.md)
cartpole-gain: $(BUILD)/lqr_design
	$(BUILD)/lqr_design $(CP_DIR)/cartpole_gain.h

TEST_PROGS   += $(BUILD)/test_lqr
TEST_SCRIPTS += tests/test_control.sh
TEST_NEEDS   += $(BUILD)/cartpole_lqr $(BUILD)/lqr_design $(BUILD)/cartpole_sim

# the closed loop's firmware figures (docs/control.md): flash, RAM, stack, instructions per step
# and the real-time factor at 168 MHz of the cart-pole LQR firmware on the M4F, -O2 and -Os
.PHONY: mcu-measure-cartpole
## mcu-measure-cartpole: flash, RAM and real-time factor at 168 MHz of the cart-pole LQR firmware (M4F, float and double)
mcu-measure-cartpole: mcu-deps generated/cartpole.c
	@for o in -O2 -Os; do scripts/mcu/measure_cartpole.sh $$o | { [ $$o = -O2 ] && cat || tail -n 2; } || exit 1; done
