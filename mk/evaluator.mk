# mk/evaluator.mk - the generic evaluator (evaluator/mb_generic.c): one implementation of the
# model seam that walks a model's element list at run time; mbgen writes each model as data
# next to its code (generated/<m>_data.c, <m>_generic_model). test_generic: generic ==
# generated on every function and whole simulations, in double, float and under ASan+UBSan.

# the shipped models plus the test models with every element kind (particles.lua: particles and
# rods in every role; every_tunable.lua: a tunable everywhere one may stand; every_joint.lua: gears,
# racks and slots; generic_cams.lua: Fourier and circle cams), generated into $(BUILD)
GNR_TESTM  := generic_allkinds every_element particles every_tunable every_joint generic_cams
GNR_MODELS := $(filter-out $(PLANT_MODELS),$(MODELS)) $(GNR_TESTM)
GNR_SRC    := $(foreach m,$(filter-out $(PLANT_MODELS),$(MODELS)),generated/$(m).c generated/$(m)_data.c) \
              $(foreach m,$(GNR_TESTM),$(BUILD)/gen_generic/$(m).c $(BUILD)/gen_generic/$(m)_data.c)
$(foreach m,$(GNR_TESTM),$(eval $(call GEN_INTO,$(BUILD)/gen_generic,tests/models/$(m).lua,$(m),)))

# the X-macro list of the models the test links
$(BUILD)/generic/generic_models.h: $(MK_FILES)
	@mkdir -p $(dir $@)
	@printf 'X(%s)\n' $(GNR_MODELS) > $@
$(BUILD)/o/%/tests/test_generic.o: XFLAGS = -DGENERIC_WITH_SIM -I$(BUILD)/generic
$(foreach v,host float san san_float,$(BUILD)/o/$(v)/tests/test_generic.o): $(BUILD)/generic/generic_models.h

GNR_TEST = $(call obj,$(1),tests/test_generic.c $(GNR_SRC) evaluator/mb_generic.c) $(RT_OBJ_$(1))
$(BUILD)/test_generic: $(call GNR_TEST,host)
	$(call link,host,$(RT_LIBS))
$(BUILD)/test_generic_san: $(call GNR_TEST,san)
	$(call link,san,$(RT_LIBS))
# single precision: the same comparisons at float tolerances, on the float runtime (the float
# build of the evaluator also shows any hidden double arithmetic: -Wdouble-promotion)
$(BUILD)/test_generic_float: $(call GNR_TEST,float)
	$(call link,float,$(RT_LIBS))

TEST_PROGS   += $(BUILD)/test_generic $(BUILD)/test_generic_san $(BUILD)/test_generic_float
TEST_SCRIPTS += tests/test_generic_data.sh tests/test_generic_sim.sh
TEST_NEEDS   += $(BUILD)/andrews_sim $(BUILD)/fourbar_singular_sim $(BUILD)/chain_sim

# a cam roller's contact angle not found (the Newton helper's cap): NaN, MB_ERR_NONFINITE
$(eval $(call GEN_INTO,$(BUILD)/gen_generic,tests/models/cam_newton_cap.lua,cam_newton_cap,))
$(BUILD)/test_cam_newton: $(call obj,host,tests/test_cam_newton.c $(BUILD)/gen_generic/cam_newton_cap.c \
                            $(BUILD)/gen_generic/cam_newton_cap_data.c evaluator/mb_generic.c) $(RT_OBJ_host)
	$(call link,host,$(RT_LIBS))
TEST_PROGS   += $(BUILD)/test_cam_newton
