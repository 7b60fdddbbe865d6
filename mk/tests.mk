# mk/tests.mk - the runtime's C tests: linear algebra (both dense back ends side by side), the
# planner and the compact sparse kernels against dense products (every model, AMD and natural),
# the runtime API and assembly, and the shared physics suite on every generated model (host,
# builtin back end, float, and under ASan+UBSan).

# generated models present in the tree (the physics suite runs on each of them)
RT_GEN     := $(wildcard $(MODELS:%=generated/%.c))
RT_GEN_DEF := $(foreach f,$(RT_GEN),-DMB_HAVE_$(basename $(notdir $(f))))
$(foreach v,host builtin san san_builtin,$(foreach t,test_physics test_runtime test_sparse test_newton_fd,\
  $(BUILD)/o/$(v)/tests/$(t).o)): XFLAGS = $(RT_GEN_DEF)

# $(call RT_TEST,V,TEST,MODELS): the test's objects in variant V, with the pendulum fixture
RT_TEST = $(call obj,$(1),tests/$(2).c tests/fixture_pendulum.c $(3)) $(RT_OBJ_$(1))

$(BUILD)/test_runtime_linalg: $(call obj,host,tests/test_runtime_linalg.c) $(RT_OBJ_host) $(BUILD)/o/host/linalg_renamed.o
	$(call link,host,$(RT_LIBS))
$(BUILD)/test_sparse: $(call RT_TEST,host,test_sparse,$(RT_GEN))
	$(call link,host,$(RT_LIBS))
$(BUILD)/test_sparse_san: $(call RT_TEST,san,test_sparse,$(RT_GEN))
	$(call link,san,$(RT_LIBS))
# F4's Newton matrix against central differences of its residual (white box: mb_sim_impl.h)
$(BUILD)/test_newton_fd: $(call RT_TEST,host,test_newton_fd,$(RT_GEN))
	$(call link,host,$(RT_LIBS))
$(BUILD)/test_runtime: $(call RT_TEST,host,test_runtime,$(RT_GEN))
	$(call link,host,$(RT_LIBS))
$(BUILD)/test_runtime_san: $(call RT_TEST,san,test_runtime,$(RT_GEN))
	$(call link,san,$(RT_LIBS))
$(BUILD)/test_physics: $(call RT_TEST,host,test_physics,$(RT_GEN))
	$(call link,host,$(RT_LIBS))
$(BUILD)/test_physics_builtin: $(call RT_TEST,builtin,test_physics,$(RT_GEN))
	$(call link,builtin,-lamd -lm)
$(BUILD)/test_physics_float: $(call RT_TEST,float,test_physics,)
	$(call link,float,$(RT_LIBS))
$(BUILD)/test_physics_san: $(call RT_TEST,san,test_physics,$(RT_GEN))
	$(call link,san,$(RT_LIBS))

# F4's step control and singular passages (tests/test_f4_adaptive.c): the bar pendulum is the
# chain with one link (a closed-form period), generated into $(BUILD) under its own name
$(eval $(call GEN_INTO,$(BUILD)/gen_f4,models/chain.lua,pendulum1,-D N=1 --name pendulum1))
F4A_MODELS := $(BUILD)/gen_f4/pendulum1.c generated/andrews.c generated/parallelogram_chain.c
$(BUILD)/test_f4_adaptive: $(call obj,host,tests/test_f4_adaptive.c $(F4A_MODELS)) $(RT_OBJ_host)
	$(call link,host,$(RT_LIBS))
$(BUILD)/test_f4_adaptive_san: $(call obj,san,tests/test_f4_adaptive.c $(F4A_MODELS)) $(RT_OBJ_san)
	$(call link,san,$(RT_LIBS))

TEST_PROGS += $(BUILD)/test_f4_adaptive $(BUILD)/test_f4_adaptive_san
TEST_PROGS += $(BUILD)/test_sparse $(BUILD)/test_sparse_san $(BUILD)/test_newton_fd $(BUILD)/test_runtime_linalg \
              $(BUILD)/test_runtime $(BUILD)/test_physics $(BUILD)/test_physics_builtin \
              $(BUILD)/test_physics_float $(BUILD)/test_runtime_san $(BUILD)/test_physics_san
# every relative link in README.md and docs/*.md resolves, and no document cites a path outside
# the repository
TEST_SCRIPTS += tests/test_doc_links.sh
# docs/validation.md before section 10 is what tests/runtime_validation.sh (make validation)
# writes, its measured values left out (tests/test_validation_doc.sh; runs no simulation)
TEST_SCRIPTS += tests/test_validation_doc.sh
# the tree holds only files the build, the docs or the tests name (no stray output committed)
TEST_SCRIPTS += tests/test_tree_files.sh
# runtime/mb_config.h is the one page of the build switches: every switch read is on it, every
# [ABI] one in MB_BUILD_CONFIG, none tested by presence (tests/test_config_page.sh)
TEST_SCRIPTS += tests/test_config_page.sh
# MB_LDL_RECIPROCAL is a bit of MB_BUILD_CONFIG: an application and model built with another
# value than the runtime get MB_ERR_BUILD (tests/test_ldl_reciprocal_abi.sh)
TEST_SCRIPTS += tests/test_ldl_reciprocal_abi.sh
# every [code] switch of it can be turned off: the runtime built with -DNAME=0 resolves its own
# calls (tests/test_config_link.sh)
TEST_SCRIPTS += tests/test_config_link.sh
# docs/cli.md names every make target, script, mbgen option and make variable a user meets, and
# every binary it names answers --help (the bench tools too: built, never run, for that)
TEST_SCRIPTS += tests/test_doc_cli.sh
TEST_NEEDS   += $(BUILD)/mbgen $(BUILD)/mb_anim $(BUILD)/andrews_sim $(BUILD)/bench_generic $(BUILD)/bench_stiff \
                $(BUILD)/bench_ordering
# docs/embedding.md's copy list for a firmware project compiles and runs on its own (double,
# float, lean, own math), and the test sees a missing file (a firmware build: make test-long)
TEST_LONG    += tests/test_doc_embed.sh

# the test models of issue 11 (tests/models/pendulum.lua, fourbar_chain.lua, harmonic.lua),
# generated into $(BUILD)/gen_test; the simulators of the first two (tests/test_longrun.sh) and
# the dense-output test on the closed-form harmonic oscillator (double and float)
LONG_MODELS := pendulum fourbar_chain harmonic
$(foreach m,$(LONG_MODELS),$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/$(m).lua,$(m),)))
LONG_SRC = $(BUILD)/gen_test/$(1).c $(BUILD)/gen_test/$(1)_data.c
$(BUILD)/pendulum_sim: $(call SIM_OBJ,host,pendulum,$(call LONG_SRC,pendulum))
	$(call link,host,$(RT_LIBS))
$(BUILD)/fourbar_chain_sim: $(call SIM_OBJ,host,fourbar_chain,$(call LONG_SRC,fourbar_chain))
	$(call link,host,$(RT_LIBS))
DENSE_TEST = $(call obj,$(1),tests/test_dense.c $(BUILD)/gen_test/harmonic.c generated/double_pendulum.c) $(RT_OBJ_$(1))
$(BUILD)/test_dense: $(call DENSE_TEST,san)
	$(call link,san,$(RT_LIBS))
$(BUILD)/test_dense_float: $(call DENSE_TEST,float)
	$(call link,float,$(RT_LIBS))
TEST_PROGS   += $(BUILD)/test_dense $(BUILD)/test_dense_float
# the HHT-alpha integrator (tests/test_hht.c): closed forms (harmonic, pendulum), spectral radius,
# Andrews, the parallelogram chain's singular passages; also under ASan+UBSan
HHT_TEST = $(call obj,$(1),tests/test_hht.c $(BUILD)/gen_test/harmonic.c $(BUILD)/gen_test/pendulum.c \
             generated/andrews.c generated/parallelogram_chain.c) $(RT_OBJ_$(1))
$(BUILD)/test_hht: $(call HHT_TEST,host)
	$(call link,host,$(RT_LIBS))
$(BUILD)/test_hht_san: $(call HHT_TEST,san)
	$(call link,san,$(RT_LIBS))
$(BUILD)/test_hht_float: $(call HHT_TEST,float)
	$(call link,float,$(RT_LIBS))
TEST_PROGS   += $(BUILD)/test_hht $(BUILD)/test_hht_san $(BUILD)/test_hht_float
TEST_SCRIPTS += tests/test_longrun.sh
# --estimate-error and --max-error against the pendulum's actual error (tests/test_estimate_error.sh)
TEST_SCRIPTS += tests/test_estimate_error.sh
# dopri5's and dop853's accuracy warning: its companion warns on a miss, not on an accurate run
TEST_SCRIPTS += tests/test_accuracy_warning.sh
TEST_NEEDS   += $(BUILD)/pendulum_sim $(BUILD)/fourbar_chain_sim $(BUILD)/andrews_sim $(BUILD)/parallelogram_chain_sim \
                $(BUILD)/double_pendulum_sim $(BUILD)/fourbar_singular_sim $(BUILD)/oscillator_1dof_sim $(BUILD)/ref_chain \
                $(BUILD)/acc_pendulum_w_sim $(BUILD)/ref_pendulum $(BUILD)/cartpole_sim $(BUILD)/cam_follower_sim \
                $(BUILD)/motor_arm_sim $(BUILD)/bouncing_ball_sim
# the A01 pendulum (tests/models/acc_pendulum.lua, make validate-accuracy's) under its own name, so
# that make sim MODEL=tests/models/acc_pendulum.lua keeps its own build/acc_pendulum_sim
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/acc_pendulum.lua,acc_pendulum_w,--name acc_pendulum_w))
$(BUILD)/acc_pendulum_w_sim: $(call SIM_OBJ,host,acc_pendulum_w,$(call LONG_SRC,acc_pendulum_w))
	$(call link,host,$(RT_LIBS))

# particles and rods (issue 12, item 4): the point-mass pendulum against its exact period, every
# formulation (tests/test_particles.sh)
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/point_pendulum.lua,point_pendulum,))
$(BUILD)/point_pendulum_sim: $(call SIM_OBJ,host,point_pendulum,$(call LONG_SRC,point_pendulum))
	$(call link,host,$(RT_LIBS))
TEST_SCRIPTS += tests/test_particles.sh
TEST_NEEDS   += $(BUILD)/point_pendulum_sim

# redundant constraints by name (issue 12, item 3): the parallelogram with a third crank as
# written and as mbgen --redundant remove generates it (tests/test_redundant.sh)
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/parallelogram_redundant.lua,parallelogram_redundant,))
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/parallelogram_redundant.lua,parallelogram_removed,--redundant remove --name parallelogram_removed))
$(BUILD)/parallelogram_redundant_sim: $(call SIM_OBJ,host,parallelogram_redundant,$(call LONG_SRC,parallelogram_redundant))
	$(call link,host,$(RT_LIBS))
$(BUILD)/parallelogram_removed_sim: $(call SIM_OBJ,host,parallelogram_removed,$(call LONG_SRC,parallelogram_removed))
	$(call link,host,$(RT_LIBS))
# and a coupler on four cranks (two redundant equations), both ways (alf-trapezoid leaves the
# dependent equations out of its Newton iteration: docs/formulations.md, "Redundant constraints")
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/parallelogram_cranks.lua,parallelogram_cranks,))
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/parallelogram_cranks.lua,cranks_removed,--redundant remove --name cranks_removed))
$(BUILD)/parallelogram_cranks_sim: $(call SIM_OBJ,host,parallelogram_cranks,$(call LONG_SRC,parallelogram_cranks))
	$(call link,host,$(RT_LIBS))
$(BUILD)/cranks_removed_sim: $(call SIM_OBJ,host,cranks_removed,$(call LONG_SRC,cranks_removed))
	$(call link,host,$(RT_LIBS))
# and the chain stretched straight, a singular position the start-up check cannot tell apart
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/stretched_chain.lua,stretched_chain,))
$(BUILD)/stretched_chain_sim: $(call SIM_OBJ,host,stretched_chain,$(call LONG_SRC,stretched_chain))
	$(call link,host,$(RT_LIBS))
# (and a third crank on its own ground point: the simulator names the equation mbgen names)
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/parallelogram_3crank.lua,parallelogram_3crank,))
$(BUILD)/parallelogram_3crank_sim: $(call SIM_OBJ,host,parallelogram_3crank,$(call LONG_SRC,parallelogram_3crank))
	$(call link,host,$(RT_LIBS))
# (and a gear train whose third mesh follows from the other two: named as a gear)
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/gear_redundant.lua,gear_redundant,))
$(BUILD)/gear_redundant_sim: $(call SIM_OBJ,host,gear_redundant,$(call LONG_SRC,gear_redundant))
	$(call link,host,$(RT_LIBS))
# (and a follower held by two cams of one profile: named as a cam)
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/cam_redundant.lua,cam_redundant,))
$(BUILD)/cam_redundant_sim: $(call SIM_OBJ,host,cam_redundant,$(call LONG_SRC,cam_redundant))
	$(call link,host,$(RT_LIBS))
# gears, racks and slots against closed forms: the shipped shaper and gear train, and a rack and
# a planetary stage (tests/test_joints.sh)
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/kin_meshes.lua,kin_meshes,))
$(BUILD)/kin_meshes_sim: $(call SIM_OBJ,host,kin_meshes,$(call LONG_SRC,kin_meshes))
	$(call link,host,$(RT_LIBS))
TEST_SCRIPTS += tests/test_joints.sh
TEST_NEEDS   += $(BUILD)/kin_meshes_sim $(BUILD)/shaper_sim $(BUILD)/gear_train_sim
# cams against closed forms: the shipped cam_follower (lift, velocity, acceleration, normal force,
# jump speed), a three-harmonic cam, an eccentric under a roller and a profile function, and a
# free cam flywheel's energy balance (tests/test_cam.sh)
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/kin_cams.lua,kin_cams,))
$(BUILD)/kin_cams_sim: $(call SIM_OBJ,host,kin_cams,$(call LONG_SRC,kin_cams))
	$(call link,host,$(RT_LIBS))
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/cam_free.lua,cam_free,))
$(BUILD)/cam_free_sim: $(call SIM_OBJ,host,cam_free,$(call LONG_SRC,cam_free))
	$(call link,host,$(RT_LIBS))
# the roller centre's closed form on a Fourier cam, in long double (tests/cam_roller_ref.c)
$(BUILD)/cam_roller_ref: $(call obj,host,tests/cam_roller_ref.c)
	$(call link,host,-lm)
TEST_SCRIPTS += tests/test_cam.sh
TEST_NEEDS   += $(BUILD)/kin_cams_sim $(BUILD)/cam_follower_sim $(BUILD)/cam_free_sim \
                $(BUILD)/valve_train_sim $(BUILD)/cam_roller_ref
TEST_SCRIPTS += tests/test_redundant.sh
TEST_NEEDS   += $(BUILD)/gear_redundant_sim $(BUILD)/cam_redundant_sim $(BUILD)/parallelogram_redundant_sim $(BUILD)/parallelogram_removed_sim $(BUILD)/fault_redundant_sim \
                $(BUILD)/parallelogram_3crank_sim $(BUILD)/parallelogram_cranks_sim $(BUILD)/cranks_removed_sim \
                $(BUILD)/stretched_chain_sim

# METIS nested dissection, optional (scripts/deps.sh metis): the planner compiled with
# MBP_ORDER_METIS into its own variant, for test_ordering and make bench-ordering (mk/bench.mk);
# mbgen and every other program keep the planner without it. metis.flags remembers whether
# METIS was there, so the object is rebuilt when libmetis-dev comes or goes.
METIS_FLAGS := $(if $(wildcard /usr/include/metis.h),-DMBP_WITH_METIS)
METIS_LIBS  := $(if $(METIS_FLAGS),-lmetis)
$(eval $(call RT_VARIANT,metis,$(OPT) $(METIS_FLAGS)))
.PHONY: metis-flags-check
$(BUILD)/metis.flags: metis-flags-check
	@mkdir -p $(@D)
	@echo '$(METIS_FLAGS)' | cmp -s - $@ || echo '$(METIS_FLAGS)' > $@
$(BUILD)/o/metis/generator/mb_plan_build.o: $(BUILD)/metis.flags
PLAN_METIS := $(BUILD)/o/metis/generator/mb_plan_build.o
# the METIS order against AMD on Andrews and a 300-link chain (skipped, with a message, without METIS)
$(BUILD)/test_ordering: $(call obj,host,tests/test_ordering.c generated/andrews.c runtime/mb_sparse.c) $(PLAN_METIS)
	$(call link,host,-lamd $(METIS_LIBS) -lm)
TEST_PROGS += $(BUILD)/test_ordering

# the variable-order BDF (tests/test_bdf.c): closed form, Andrews, the parallelogram chain (also
# under the sanitizers)
BDF_MODELS := $(BUILD)/gen_test/harmonic.c generated/andrews.c generated/parallelogram_chain.c
$(BUILD)/test_bdf: $(call obj,host,tests/test_bdf.c $(BDF_MODELS)) $(RT_OBJ_host)
	$(call link,host,$(RT_LIBS))
$(BUILD)/test_bdf_san: $(call obj,san,tests/test_bdf.c $(BDF_MODELS)) $(RT_OBJ_san)
	$(call link,san,$(RT_LIBS))
TEST_PROGS += $(BUILD)/test_bdf $(BUILD)/test_bdf_san

# the claims audit (tests/test_audit.sh): four mechanisms no formulation was tuned for
# (tests/models/audit_*.lua: an offset slider-crank with a torque and a spring-damper, a
# non-symmetric change-point four-bar, a 3-link chain with spring-dampers, a driven double
# pendulum), every recommended formulation x integrator, the docs' claims checked on them; and
# a bar hanging at rest (no false warnings)
AUDIT_MODELS := audit_slider_offset audit_fourbar_cp audit_chain3 audit_driven audit_rest
$(foreach m,$(AUDIT_MODELS),$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/$(m).lua,$(m),)))
$(foreach m,$(AUDIT_MODELS),$(eval $(BUILD)/$(m)_sim: $(call SIM_OBJ,host,$(m),$(call LONG_SRC,$(m)))))
$(AUDIT_MODELS:%=$(BUILD)/%_sim):
	$(call link,host,$(RT_LIBS))
# and the generated derivatives of those with new element uses (an inclined prismatic joint,
# rotational dampers, a joint driver) against finite differences (tests/test_derivs.c; the
# four-bar's revolute joints are fourbar_singular's, and on one of its random states (projected
# onto the 1-dof velocity space) every |Gamma| is below 2e-7, where the test's relative check
# meets the difference quotient's round-off: rel 2e-4)
AUDIT_DERIVS := audit_slider_offset audit_chain3 audit_driven
$(foreach m,$(AUDIT_DERIVS),$(eval $(BUILD)/test_derivs_$(m): $(BUILD)/o/san/derivs/$(m).o $(call obj,san,$(BUILD)/gen_test/$(m).c)))
$(AUDIT_DERIVS:%=$(BUILD)/test_derivs_%):
	$(call link,san,-lm)
TEST_PROGS   += $(AUDIT_DERIVS:%=$(BUILD)/test_derivs_%)
TEST_SCRIPTS += tests/test_audit.sh
TEST_NEEDS   += $(AUDIT_MODELS:%=$(BUILD)/%_sim)
# warnings that are right (tests/test_warn_rest.sh): a motor-driven Scotch yoke held by a spring
# (tests/models/yoke_hold.lua) at rest and holding a load warns in no run; the cases that lose
# what a warning names still warn
WARN_MODELS := yoke_hold
$(foreach m,$(WARN_MODELS),$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/$(m).lua,$(m),)))
$(foreach m,$(WARN_MODELS),$(eval $(BUILD)/$(m)_sim: $(call SIM_OBJ,host,$(m),$(call LONG_SRC,$(m)))))
$(WARN_MODELS:%=$(BUILD)/%_sim):
	$(call link,host,$(RT_LIBS))
TEST_SCRIPTS += tests/test_warn_rest.sh
TEST_NEEDS   += $(WARN_MODELS:%=$(BUILD)/%_sim)

# runtime/mb_math.c (our sin, cos, hypot for embedded double builds): accuracy in ulps against
# long double over the documented domain; the width of mb_index (8/16/int: the same state) and
# the firmware example with our sin/cos against libm's (docs/embedding.md)
$(BUILD)/test_math: $(call obj,host,tests/test_math.c runtime/mb_math.c)
	$(call link,host,-lm)
$(BUILD)/test_math_san: $(call obj,san,tests/test_math.c runtime/mb_math.c)
	$(call link,san,-lm)
TEST_PROGS   += $(BUILD)/test_math $(BUILD)/test_math_san
TEST_LONG    += tests/test_index_width.sh   # firmware builds: make test-long
TEST_NEEDS   += $(BUILD)/mbgen

# the simulator's options (tests/test_sim_cli.sh): an option without effect for the analysis,
# formulation or integrator chosen is refused; messages that name what they are about (a
# formulation's integrators, a subnormal --set value, the element whose value went NaN)
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/nan_torque.lua,nan_torque,))
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/nan_driver.lua,nan_driver,))
$(eval $(call GEN_INTO,$(BUILD)/gen_anl,tests/models/anl_spinner.lua,anl_spinner,))
$(BUILD)/nan_torque_sim: $(call SIM_OBJ,host,nan_torque,$(call LONG_SRC,nan_torque))
	$(call link,host,$(RT_LIBS))
$(BUILD)/nan_driver_sim: $(call SIM_OBJ,host,nan_driver,$(call LONG_SRC,nan_driver))
	$(call link,host,$(RT_LIBS))
$(eval $(call GEN_INTO,$(BUILD)/gen_test,tests/models/step_crane.lua,step_crane,))
$(BUILD)/step_crane_sim: $(call SIM_OBJ,host,step_crane,$(call LONG_SRC,step_crane))
	$(call link,host,$(RT_LIBS))
TEST_SCRIPTS += tests/test_sim_cli.sh
# docs/cli.md's option table is the simulator's own (tools/mb_sim_options.c, --help=markdown)
TEST_SCRIPTS += tests/test_sim_options.sh
TEST_NEEDS   += $(BUILD)/double_pendulum_sim
TEST_NEEDS   += $(BUILD)/nan_torque_sim $(BUILD)/nan_driver_sim $(BUILD)/anl_spinner_sim \
                $(BUILD)/anl_slider_driven_sim $(BUILD)/anl_inverted_sim $(BUILD)/double_pendulum_sim \
                $(BUILD)/suspension_sim $(BUILD)/mb_anim $(BUILD)/parallelogram_chain_sim $(BUILD)/step_crane_sim
# the F4 trapezoid's shared workspace blocks (runtime/mb_layout.h, MB_L_F4T) change no result:
# the simulators built with every block its own (-DMB_LAYOUT_NO_SHARE) against the shipped ones
# (tests/test_layout_share.sh)
$(eval $(call RT_VARIANT,noshare,$(OPT) -DMB_LAYOUT_NO_SHARE))
$(eval $(call TOOL_MAINS,noshare))
$(BUILD)/andrews_noshare_sim: $(call SIM_OBJ,noshare,andrews,generated/andrews.c generated/andrews_data.c)
	$(call link,noshare,$(RT_LIBS))
$(BUILD)/double_pendulum_noshare_sim: $(call SIM_OBJ,noshare,double_pendulum,generated/double_pendulum.c generated/double_pendulum_data.c)
	$(call link,noshare,$(RT_LIBS))
$(BUILD)/audit_fourbar_cp_noshare_sim: $(call SIM_OBJ,noshare,audit_fourbar_cp,$(call LONG_SRC,audit_fourbar_cp))
	$(call link,noshare,$(RT_LIBS))
TEST_SCRIPTS += tests/test_layout_share.sh
TEST_NEEDS   += $(foreach m,andrews double_pendulum audit_fourbar_cp,$(BUILD)/$(m)_sim $(BUILD)/$(m)_noshare_sim)

# the workspace's poison build (-DMB_POISON_WORK, runtime/mb_layout.h's typed views): a block
# whose lifetime has ended holds NaN, so a read through a wrong alias fails these tests
$(eval $(call RT_VARIANT,poison,$(SAN_OPT) -DMB_POISON_WORK))
$(BUILD)/o/poison/tests/test_runtime.o: XFLAGS = $(RT_GEN_DEF)
$(BUILD)/test_runtime_poison: $(call RT_TEST,poison,test_runtime,$(RT_GEN))
	$(call link,poison,$(RT_LIBS))
$(BUILD)/test_f4_adaptive_poison: $(call obj,poison,tests/test_f4_adaptive.c $(F4A_MODELS)) $(RT_OBJ_poison)
	$(call link,poison,$(RT_LIBS))
$(BUILD)/test_bdf_poison: $(call obj,poison,tests/test_bdf.c $(BDF_MODELS)) $(RT_OBJ_poison)
	$(call link,poison,$(RT_LIBS))
TEST_PROGS += $(BUILD)/test_runtime_poison $(BUILD)/test_f4_adaptive_poison $(BUILD)/test_bdf_poison

# Float with the defaults alone (tests/test_float_defaults.c): the shipped models, a Jansen
# linkage (tests/models/jansen.lua) and the A01 pendulum (tests/models/acc_pendulum.lua), built in double (the reference trajectories) and in float
# (the check: tests/test_float_defaults.sh runs both)
$(eval $(call GEN_INTO,$(BUILD)/gen_float,tests/models/jansen.lua,jansen,))
$(foreach m,acc_pendulum acc_crank_rocker,$(eval $(call GEN_INTO,$(BUILD)/gen_float,tests/models/$(m).lua,$(m),)))
FLT_SRC := tests/test_float_defaults.c $(RT_GEN) $(BUILD)/gen_float/jansen.c $(BUILD)/gen_float/acc_pendulum.c
$(foreach v,host float,$(BUILD)/o/$(v)/tests/test_float_defaults.o): XFLAGS = $(RT_GEN_DEF)
$(BUILD)/float_defaults_ref: $(call obj,host,$(FLT_SRC)) $(RT_OBJ_host)
	$(call link,host,$(RT_LIBS))
$(BUILD)/float_defaults_float: $(call obj,float,$(FLT_SRC)) $(RT_OBJ_float)
	$(call link,float,$(RT_LIBS))
TEST_SCRIPTS += tests/test_float_defaults.sh
TEST_NEEDS   += $(BUILD)/float_defaults_ref $(BUILD)/float_defaults_float
# the float measurements' runner (tests/accuracy/float_run.c, scripts/float_sigma.sh): one run
# of the A01 pendulum, the crank-rocker, the parallelogram chain, Andrews or the walker, in
# double and in float (not in the suite)
FRUN_SRC := tests/accuracy/float_run.c $(BUILD)/gen_float/acc_pendulum.c $(BUILD)/gen_float/acc_crank_rocker.c \
            generated/parallelogram_chain.c generated/andrews.c generated/walker.c
$(foreach v,host float,$(BUILD)/o/$(v)/tests/accuracy/float_run.o): XFLAGS = -I$(BUILD)/gen_float
$(foreach v,host float,$(BUILD)/o/$(v)/tests/accuracy/float_run.o): $(BUILD)/gen_float/acc_pendulum.h $(BUILD)/gen_float/acc_crank_rocker.h
$(BUILD)/float_run_double: $(call obj,host,$(FRUN_SRC)) $(RT_OBJ_host)
	$(call link,host,$(RT_LIBS))
$(BUILD)/float_run_float: $(call obj,float,$(FRUN_SRC)) $(RT_OBJ_float)
	$(call link,float,$(RT_LIBS))
