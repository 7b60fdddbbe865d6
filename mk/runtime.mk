# mk/runtime.mk - the solver library (runtime/) and the variants every C file is built in.
# $(call obj,V,FILES.c) names the objects of FILES in variant V: $(BUILD)/o/V/<path>.o.
# $(call RT_VARIANT,V,FLAGS) defines variant V: the rule compiling any C file into
# $(BUILD)/o/V/ with FLAGS (plus XFLAGS, set per object where a file needs more), and
# RT_OBJ_V, the runtime library in that variant.

RT_CORE := runtime/mb_sim.c runtime/mb_eval.c runtime/mb_forms.c runtime/mb_assembly.c runtime/mb_f1_baumgarte.c runtime/mb_f2_canonical.c \
           runtime/mb_f3_alf.c runtime/mb_f4_trapezoid.c runtime/mb_trapezoid.c runtime/mb_trapezoid_control.c runtime/mb_hht.c runtime/mb_kkt.c runtime/mb_rk.c runtime/mb_bdf.c runtime/mb_linsys.c \
           runtime/mb_sparse.c runtime/mb_monitor.c runtime/mb_event.c runtime/mb_input.c
# mb_math.c: our sin/cos/hypot, used only when a build selects it (-DMB_MATH_HEADER, mb_config.h)
RT_SRC  := $(RT_CORE) runtime/mb_linalg.c runtime/mb_status.c runtime/mb_analysis.c runtime/mb_math.c
# the planner (AMD ordering, symbolic factorization) for models that carry no plan: the generic
# evaluator and hand-written test models; host programs only, never the firmware
RT_PLAN := generator/mb_plan_build.c

# (every object after deps: under make -j a compile would not wait for the headers deps.sh installs)
obj = $(patsubst %.c,$(BUILD)/o/$(1)/%.o,$(2))
define RT_VARIANT
VFLAGS_$(1) := $(2)
$(BUILD)/o/$(1)/%.o: %.c $$(MK_FILES) | deps
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS_C) $$(VFLAGS_$(1)) $$(XFLAGS) $$(DEPFLAGS) -c $$< -o $$@
RT_OBJ_$(1) := $$(call obj,$(1),$$(RT_SRC) $$(RT_PLAN))
endef
# link the objects among the prerequisites: $(call link,V,LIBS)
link = $(CC) $(VFLAGS_$(1)) $(filter %.o %.a,$^) $(2) -o $@

LEAN := -DMB_ONLY_ALF_TRAPEZOID -DMB_WITH_BDF=0 -DMB_WITH_FULL_JACOBIAN=0 -DMB_WITH_DENSE=0 -DMB_WITH_TRAPEZOID_ADAPTIVE=0 -DMB_WITH_REDUNDANT_ROWS=0 -DMB_INDEX8 -DMB_OMIT_GAMMA -DMB_OMIT_POINTS -DMB_OMIT_INFO -DMB_WITH_TUNABLES=0 '-DMB_MATH_HEADER="mb_math.h"'
$(eval $(call RT_VARIANT,host,$(OPT)))
$(eval $(call RT_VARIANT,builtin,$(OPT) -DMB_NO_LAPACKE))
$(eval $(call RT_VARIANT,float,$(OPT) -DMB_FLOAT))
$(eval $(call RT_VARIANT,float_builtin,$(OPT) -DMB_FLOAT -DMB_NO_LAPACKE))
$(eval $(call RT_VARIANT,san,$(SAN_OPT)))
$(eval $(call RT_VARIANT,san_builtin,$(SAN_OPT) -DMB_NO_LAPACKE))
$(eval $(call RT_VARIANT,san_float,$(SAN_OPT) -DMB_FLOAT))
$(eval $(call RT_VARIANT,san_float_builtin,$(SAN_OPT) -DMB_FLOAT -DMB_NO_LAPACKE))
# lean firmware: only alf-trapezoid, no full-Jacobian terms, no dense back end, 8-bit indices, our
# sin/cos/hypot (runtime/mb_math.h) as scripts/mcu/fw_params.sh fw_lean builds it (docs/embedding.md)
$(eval $(call RT_VARIANT,lean,$(SAN_OPT) -DMB_NO_LAPACKE $(LEAN)))

# the embedded API (runtime/mb_embed.c) on top of the library, for the firmware tests
RT_EMBED = $(call obj,$(1),runtime/mb_embed.c $(RT_SRC))
RT_OBJ_lean := $(call obj,lean,runtime/mb_embed.c $(filter-out runtime/mb_linalg.c runtime/mb_analysis.c,$(RT_SRC)))

# build/libmbrt.a: the solver library alone, what a program links (and make install installs):
# double, with the built-in dense LU and Cholesky (-DMB_NO_LAPACKE), so it links with -lm only;
# build/libmbrt_float.a the same in single precision (-DMB_FLOAT: a program links it only when
# compiled with -DMB_FLOAT too, else its start returns MB_ERR_BUILD, mb_sim.h MB_BUILD_CONFIG)
$(BUILD)/libmbrt.a: $(call obj,builtin,$(RT_SRC) runtime/mb_embed.c)
	rm -f $@ && ar rcs $@ $^
$(BUILD)/libmbrt_float.a: $(call obj,float_builtin,$(RT_SRC) runtime/mb_embed.c)
	rm -f $@ && ar rcs $@ $^
.PHONY: lib
## lib: build/libmbrt.a and build/libmbrt_float.a, the solver library (runtime/) in double and float
lib: $(BUILD)/libmbrt.a $(BUILD)/libmbrt_float.a

# the dense builtin back end under other names, so one test links both back ends side by side
LINALG_B_RENAME := -DMB_NO_LAPACKE -Dmb_lu_factor=mbb_lu_factor -Dmb_lu_solve=mbb_lu_solve \
	-Dmb_chol_factor=mbb_chol_factor -Dmb_chol_factor_row=mbb_chol_factor_row \
	-Dmb_chol_solve=mbb_chol_solve -Dmb_linalg_backend=mbb_linalg_backend
$(BUILD)/o/%/linalg_renamed.o: runtime/mb_linalg.c $(MK_FILES)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_C) $(VFLAGS_$*) $(LINALG_B_RENAME) $(DEPFLAGS) -c $< -o $@
