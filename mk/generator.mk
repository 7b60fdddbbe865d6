# mk/generator.mk - build/mbgen (generator/: a C host embedding Lua 5.4; modules read from
# generator/ next to build/, else the compiled-in path) and generated/ from models/.
# generated/<m>.c, .h and _data.c are the outputs of one mbgen run; mbgen rewrites only
# changed files, so the rules touch them to mark them up to date.

GEN_LUA   := $(wildcard generator/*.lua)
GEN_TPL   := $(wildcard templates/*)
GEN_SRC   := generator/mbgen.c generator/mbgen_plan.c generator/mb_plan_build.c runtime/mb_sparse.c
GENERATED := $(foreach m,$(MODELS),generated/$(m).c generated/$(m).h generated/$(m)_data.c)
$(BUILD)/o/%/generator/mbgen.o: XFLAGS = -DMBGEN_DATADIR='"$(CURDIR)"'

$(BUILD)/mbgen: $(call obj,host,$(GEN_SRC))
	$(call link,host,$(LUA_LIBS) -lamd)
# the same host under ASan+UBSan (tests/test_mbgen.sh runs the hostile corpus against it)
$(BUILD)/mbgen_san: $(call obj,san,$(GEN_SRC))
	$(call link,san,$(LUA_LIBS) -lamd)

## generate: regenerate generated/<m>.c, .h and _data.c for every shipped model
generate: $(GENERATED)
# (a model whose name statement differs from its file name would write other files: refused
# before anything is written; make sim MODEL=models/<m>.lua builds it under $(BUILD)/models)
generated/%.c generated/%.h: models/%.lua $(BUILD)/mbgen $(GEN_LUA) $(GEN_TPL)
	@n=$$($(BUILD)/mbgen $< --check) || exit 1; [ "$${n%%:*}" = "$*" ] || { \
	    echo "make: $< declares the name '$${n%%:*}', not '$*': no generated/$*.c (make sim MODEL=$< builds it in $(BUILD)/models)" >&2; \
	    exit 1; }
	$(BUILD)/mbgen $< -o generated
	@touch generated/$*.c generated/$*.h
generated/%_data.c: generated/%.c
	@test -f $@ || $(BUILD)/mbgen models/$*.lua -o generated
	@test -f $@ && touch $@

# models generated into $(BUILD) for tests: $(call GEN_INTO,DIR,MODEL.lua,NAME,MBGEN OPTIONS)
define GEN_INTO
$(1)/$(3).c $(1)/$(3).h $(1)/$(3)_data.c &: $(2) $$(BUILD)/mbgen $$(GEN_LUA) $$(GEN_TPL)
	$$(BUILD)/mbgen $(2) $(4) -o $(1) && touch $(1)/$(3).c $(1)/$(3).h $(1)/$(3)_data.c
endef

# generated-code tests: test_derivs_<m>, every derivative against finite differences (the
# mb_model interface only), for the shipped models and tests/models/every_element.lua (every
# element kind); test_sym, generator/sym.lua and the template filler; tests/test_generated.sh:
# strict float/double compilation, includes, symbols, no mutable globals, all models linked
# together, generated/ not stale (tree and git), regeneration byte-identical; test_mbgen.sh:
# hostile models (tests/hostile), the command line and the outputs.
$(eval $(call GEN_INTO,$(BUILD)/gen,tests/models/every_element.lua,every_element,))
$(BUILD)/o/san/derivs/%.o: tests/test_derivs.c $(MK_FILES)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_C) $(VFLAGS_san) -DMB_TEST_MODEL=$*_model $(DEPFLAGS) -c $< -o $@
$(BUILD)/test_derivs_every_element: $(BUILD)/o/san/derivs/every_element.o $(call obj,san,$(BUILD)/gen/every_element.c)
	$(call link,san,-lm)
# particles and rods in every role (tests/models/particles.lua)
$(eval $(call GEN_INTO,$(BUILD)/gen,tests/models/particles.lua,particles,))
$(BUILD)/test_derivs_particles: $(BUILD)/o/san/derivs/particles.o $(call obj,san,$(BUILD)/gen/particles.c)
	$(call link,san,-lm)
# tests/models/every_tunable.lua: a tunable everywhere one may stand, checked at the defaults and
# at other values (test_derivs.c: check_tunables)
$(eval $(call GEN_INTO,$(BUILD)/gen,tests/models/every_tunable.lua,every_tunable,))
$(BUILD)/test_derivs_every_tunable: $(BUILD)/o/san/derivs/every_tunable.o $(call obj,san,$(BUILD)/gen/every_tunable.c)
	$(call link,san,-lm)
# tests/models/every_input.lua: an input in every load that takes one (dQ/du, dy/du)
$(eval $(call GEN_INTO,$(BUILD)/gen,tests/models/every_input.lua,every_input,))
$(BUILD)/test_derivs_every_input: $(BUILD)/o/san/derivs/every_input.o $(call obj,san,$(BUILD)/gen/every_input.c)
	$(call link,san,-lm)
# dense Jacobian blocks of mostly zeros, each cleared by a loop (tests/models/sparse_blocks.lua;
# generator/emit.lua: dense_block)
$(eval $(call GEN_INTO,$(BUILD)/gen,tests/models/sparse_blocks.lua,sparse_blocks,))
$(BUILD)/test_derivs_sparse_blocks: $(BUILD)/o/san/derivs/sparse_blocks.o $(call obj,san,$(BUILD)/gen/sparse_blocks.c)
	$(call link,san,-lm)
# gears, racks and slots in every role (tests/models/every_joint.lua)
$(eval $(call GEN_INTO,$(BUILD)/gen,tests/models/every_joint.lua,every_joint,))
$(BUILD)/test_derivs_every_joint: $(BUILD)/o/san/derivs/every_joint.o $(call obj,san,$(BUILD)/gen/every_joint.c)
	$(call link,san,-lm)
# cams: Fourier and circle profiles, point and roller followers (tests/models/every_cam.lua)
$(eval $(call GEN_INTO,$(BUILD)/gen,tests/models/every_cam.lua,every_cam,))
$(BUILD)/test_derivs_every_cam: $(BUILD)/o/san/derivs/every_cam.o $(call obj,san,$(BUILD)/gen/every_cam.c)
	$(call link,san,-lm)
# the 30-link chain: function bodies long enough to be split into parts (emit.lua: body_of)
$(eval $(call GEN_INTO,$(BUILD)/gen,models/chain.lua,chain30,-D N=30 --name chain30))
$(BUILD)/test_derivs_chain30: $(BUILD)/o/san/derivs/chain30.o $(call obj,san,$(BUILD)/gen/chain30.c)
	$(call link,san,-lm)
$(BUILD)/test_derivs_%: $(BUILD)/o/san/derivs/%.o $(call obj,san,generated/%.c)
	$(call link,san,-lm)
$(BUILD)/test_sym: $(call obj,san,tests/test_sym.c) tests/test_sym.lua $(GEN_LUA) $(GEN_TPL)
	$(call link,san,$(LUA_LIBS))

TEST_PROGS   += $(MODELS:%=$(BUILD)/test_derivs_%) $(BUILD)/test_derivs_every_element $(BUILD)/test_derivs_particles $(BUILD)/test_derivs_every_tunable \
                $(BUILD)/test_derivs_every_input $(BUILD)/test_derivs_sparse_blocks $(BUILD)/test_derivs_every_joint \
                $(BUILD)/test_derivs_chain30 $(BUILD)/test_sym
TEST_SCRIPTS += tests/test_mbgen.sh tests/test_generated.sh tests/test_generated_api.sh
TEST_LONG    += tests/test_mbgen.sh   # its long form: every mutant, and the hostile models under ASan
TEST_NEEDS   += $(BUILD)/mbgen $(BUILD)/mbgen_san
