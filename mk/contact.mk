# mk/contact.mk - contact with friction (docs/model-language.md, "Contact with friction"):
# tests/test_contact.sh checks a dropped ball's apex heights and energy lost per impact against the
# Hunt-Crossley closed form (tests/models/ball_drop.lua; softer; without gravity), the ADAMS
# IMPACT law as a clamped linear dashpot (tests/models/impact_throw.lua), two moving balls
# colliding (tests/models/two_balls.lua), a block
# on an incline sticking and sliding (tests/models/incline_contact.lua at two angles) and a disc
# reaching pure rolling (tests/models/rolling_disc.lua), the shipped bouncing ball at its run
# settings; test_derivs_every_contact and test_derivs_every_segment, every contact
# form's derivatives against finite differences (tests/models/every_contact.lua, every_segment.lua);
# test_derivs_every_profile_contact, contacts against cam profiles (every_profile_contact.lua).

CONTACT_SIMS := ball_drop ball_drop_soft ball_flipped bouncing_stiff ball_throw impact_throw two_balls incline_stick incline_slide rolling_disc \
                valve_jump_stiff ball_on_profile
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/ball_drop.lua,ball_drop,))
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/ball_drop.lua,ball_drop_soft,-D k=1e8 --name ball_drop_soft))
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/ball_drop.lua,ball_flipped,-D lx=-1 --name ball_flipped))
$(eval $(call GEN_INTO,$(BUILD)/gen_test,models/bouncing_ball.lua,bouncing_stiff,-D k=1e8 -D v_stick=1e-3 --name bouncing_stiff))
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/ball_drop.lua,ball_throw,-D g=0 -D v0=-4.4294469180700204 --name ball_throw))
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/incline_contact.lua,incline_stick,-D theta=0.3805063771123649 --name incline_stick))
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/incline_contact.lua,incline_slide,-D theta=0.6107259643892086 --name incline_slide))
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/rolling_disc.lua,rolling_disc,))
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/impact_throw.lua,impact_throw,))
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/two_balls.lua,two_balls,))
$(eval $(call GEN_INTO,$(BUILD)/gen_test,models/valve_jump.lua,valve_jump_stiff,-D kc=1e13 --name valve_jump_stiff))
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/ball_on_profile.lua,ball_on_profile,))
$(foreach m,$(CONTACT_SIMS),$(eval $(BUILD)/$(m)_sim: $(call SIM_OBJ,host,$(m),$(call LONG_SRC,$(m)))))
$(CONTACT_SIMS:%=$(BUILD)/%_sim):
	$(call link,host,$(RT_LIBS))

$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/every_contact.lua,every_contact,))
$(BUILD)/test_derivs_every_contact: $(BUILD)/o/san/derivs/every_contact.o $(call obj,san,$(BUILD)/gen_test/every_contact.c)
	$(call link,san,-lm)

$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/every_segment.lua,every_segment,))
$(BUILD)/test_derivs_every_segment: $(BUILD)/o/san/derivs/every_segment.o $(call obj,san,$(BUILD)/gen_test/every_segment.c)
	$(call link,san,-lm)

$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/every_profile_contact.lua,every_profile_contact,))
$(BUILD)/test_derivs_every_profile_contact: $(BUILD)/o/san/derivs/every_profile_contact.o $(call obj,san,$(BUILD)/gen_test/every_profile_contact.c)
	$(call link,san,-lm)

TEST_PROGS   += $(BUILD)/test_derivs_every_contact $(BUILD)/test_derivs_every_segment \
                $(BUILD)/test_derivs_every_profile_contact
TEST_SCRIPTS += tests/test_contact.sh
TEST_NEEDS   += $(CONTACT_SIMS:%=$(BUILD)/%_sim) $(BUILD)/bouncing_ball_sim
# the demos: the Geneva drive against its closed form (segment contacts), the Jansen walker walks
TEST_SCRIPTS += tests/test_geneva.sh tests/test_walker.sh
TEST_NEEDS   += $(BUILD)/geneva_sim $(BUILD)/walker_sim
# contact against a cam profile: the valve train that lifts off (models/valve_jump.lua) against
# the bilateral cam's closed form (tests/cam_roller_ref.c), and a ball on a circular profile
# against the circle contact (tests/models/ball_on_profile.lua)
TEST_SCRIPTS += tests/test_valve_jump.sh
TEST_NEEDS   += $(BUILD)/valve_jump_sim $(BUILD)/valve_jump_stiff_sim $(BUILD)/ball_on_profile_sim \
                $(BUILD)/cam_roller_ref
