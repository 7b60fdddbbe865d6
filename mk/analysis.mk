# mk/analysis.mk - the analyses beside dynamics (runtime/mb_analysis.c, docs/analyses.md): the
# test models tests/models/anl_*.lua (generated into $(BUILD)/gen_anl), their simulators, and
# the tests: tests/test_analysis.c (the runtime API against closed forms, double and float) and
# tests/test_analyses.sh (the simulators' --analysis and CSV columns against closed forms).
ANL_MODELS := anl_pendulum anl_slider_driven anl_falling anl_damped anl_inverted anl_torqued
$(foreach m,$(ANL_MODELS),$(eval $(call GEN_INTO,$(BUILD)/gen_anl,tests/models/$(m).lua,$(m),)))
# anl_slider_free: the driven slider-crank without its driver, for the C test only (no simulator)
$(eval $(call GEN_INTO,$(BUILD)/gen_anl,tests/models/anl_slider_free.lua,anl_slider_free,))
ANL_GEN := $(ANL_MODELS:%=$(BUILD)/gen_anl/%.c) $(BUILD)/gen_anl/anl_slider_free.c $(BUILD)/gen/chain30.c

$(BUILD)/anl_%_sim: $(call SIM_OBJ,host,anl_%,$(BUILD)/gen_anl/anl_%.c $(BUILD)/gen_anl/anl_%_data.c)
	$(call link,host,$(RT_LIBS))

# the C test sees the shipped models (MB_HAVE_<m>) and the analysis test models
$(foreach v,host float san,$(BUILD)/o/$(v)/tests/test_analysis.o): private XFLAGS = $(RT_GEN_DEF) -DMB_HAVE_chain30
$(foreach v,host float san,$(BUILD)/o/$(v)/tests/test_analysis.o): $(ANL_GEN)
$(BUILD)/test_analysis: $(call obj,host,tests/test_analysis.c $(RT_GEN) $(ANL_GEN)) $(RT_OBJ_host)
	$(call link,host,$(RT_LIBS))
$(BUILD)/test_analysis_float: $(call obj,float,tests/test_analysis.c $(RT_GEN) $(ANL_GEN)) $(RT_OBJ_float)
	$(call link,float,$(RT_LIBS))
$(BUILD)/test_analysis_san: $(call obj,san,tests/test_analysis.c $(RT_GEN) $(ANL_GEN)) $(RT_OBJ_san)
	$(call link,san,$(RT_LIBS))

TEST_PROGS   += $(BUILD)/test_analysis $(BUILD)/test_analysis_float $(BUILD)/test_analysis_san
TEST_SCRIPTS += tests/test_analyses.sh
TEST_NEEDS   += $(ANL_MODELS:%=$(BUILD)/%_sim) $(BUILD)/double_pendulum_sim $(BUILD)/slider_crank_sim \
                $(BUILD)/oscillator_1dof_sim $(BUILD)/andrews_sim $(BUILD)/fourbar_singular_sim \
                $(BUILD)/fault_redundant_sim $(BUILD)/stretched_chain_sim \
                $(BUILD)/mb_anim

# the linearization (mb_anl_linearize_ss) against closed forms and finite differences of the
# nonlinear motion: tests/test_linearize.c on the generated cart-pole, double pendulum and
# singular four-bar; tests/test_linearize.sh the simulators' --analysis linearize
$(BUILD)/test_linearize: $(call obj,san,tests/test_linearize.c generated/cartpole.c generated/double_pendulum.c generated/fourbar_singular.c) $(RT_OBJ_san)
	$(call link,san,$(RT_LIBS))
TEST_PROGS   += $(BUILD)/test_linearize
TEST_SCRIPTS += tests/test_linearize.sh
TEST_NEEDS   += $(BUILD)/motor_arm_sim $(BUILD)/cartpole_sim
