# mk/install.mk - make install / make uninstall [PREFIX=/usr/local] [DESTDIR=]: mbgen with its
# Lua modules and templates (PREFIX/share/mbgen, found by a path compiled into the installed
# mbgen, or beside it when staged or moved; MBGEN_DATADIR overrides), the example models, the
# runtime headers (PREFIX/include/mb), the solver library in double and float (PREFIX/lib/
# libmbrt.a, libmbrt_float.a) with a pkg-config file each (mbrt.pc, mbrt_float.pc), the runtime's
# sources and the firmware example's solver.[ch] for firmware builds (PREFIX/share/mbgen/runtime,
# PREFIX/share/mbgen/firmware; docs/embedding.md), the man page mbgen(1) and the Python module mbsim
# (PREFIX/lib/pythonX.Y/dist-packages/mbsim, X.Y of the system's python3; docs/python.md)
# and the FMU tooling (PREFIX/share/mbgen/fmu and scripts/fmu_pack.sh: mbgen --fmu). make uninstall
# removes exactly those files (the lists below serve both) and the directories that are ours
# alone when empty. tests/test_install.sh installs into temporary prefixes, builds a double and
# a float program and a lean firmware-style build from the installed files only, and uninstalls.

PREFIX   ?= /usr/local
DESTDIR  ?=
# PREFIX and DESTDIR become paths in recipes, the C string of the installed mbgen's data
# directory and the .pc files' prefix (and the paths make uninstall removes): checked when
# parsed, before anything runs (exit 2; mk/user_vars.mk: mk_need_path): absolute, and only
# characters make, the shell and a C string carry as they are
ifneq ($(filter install uninstall,$(MAKECMDGOALS))$(findstring /inst/,$(MAKECMDGOALS)),)
MK_INST_WHO := make $(firstword $(filter install uninstall,$(MAKECMDGOALS)) install)
$(call mk_need_path,PREFIX,$(MK_INST_WHO))
$(call mk_need_path,DESTDIR,$(MK_INST_WHO))
$(if $(filter /%,$(value PREFIX)),,$(error $(MK_INST_WHO): PREFIX must be an absolute path (got PREFIX='$(value PREFIX)'), nothing was run))
$(if $(filter-out /%,$(value DESTDIR)),$(error $(MK_INST_WHO): DESTDIR must be empty or an absolute path (got DESTDIR='$(value DESTDIR)'), nothing was run))
endif
BINDIR   := $(PREFIX)/bin
DATADIR  := $(PREFIX)/share/mbgen
INCDIR   := $(PREFIX)/include/mb
LIBDIR   := $(PREFIX)/lib
PCDIR    := $(LIBDIR)/pkgconfig
MAN1DIR  := $(PREFIX)/share/man/man1
# $(call dest,PATH): DESTDIR/PATH as one quoted shell word
dest     = $(call shq,$(DESTDIR)$(1))
# the public headers: the runtime API (mb_sim.h, mb_analysis.h), the model interface (mb_model.h) and what they
# include (mb_sim_fields.h: the member list that sizes mb_sim_storage, not API), the firmware API
# (mb_embed.h, mb_layout.h, mb_math.h); the runtime's internals stay out
INST_HEADERS := runtime/mb_version.h runtime/mb_config.h runtime/mb_model.h runtime/mb_status.h \
                runtime/mb_sim.h runtime/mb_sim_fields.h runtime/mb_layout.h runtime/mb_embed.h runtime/mb_analysis.h runtime/mb_math.h \
                runtime/mb_trig.h runtime/mb_trig_table.h
INST_LUA     := $(wildcard generator/*.lua)
INST_TPL     := $(wildcard templates/*.in)
# the shipped models (Makefile MODELS, the files git tracks), never any other file in models/
INST_MODELS  := $(MODELS:%=models/%.lua)
# the runtime as a firmware compiles it with its own compiler and switches (docs/embedding.md,
# "Dropping the example into a firmware project", step 2): every source and header
INST_RT      := $(RT_SRC) runtime/mb_embed.c $(INST_HEADERS) runtime/mb_sim_impl.h runtime/mb_vec.h \
                runtime/mb_sparse.h runtime/mb_linalg.h

# What make install installs, a group per directory: INST_DIR_g (under PREFIX), INST_MODE_g and
# INST_FILES_g (each installed under its own name). make uninstall removes the same files; the
# directories of INST_OWN_DIRS are ours alone (removed when empty, deepest first), the others are
# the prefix's (bin, lib, ...: kept). The FMU tooling (mbgen --fmu, docs/fmi.md): the wrapper's
# sources in share/mbgen/fmu and the packer in share/mbgen/scripts, where mbgen looks for it.
INST_GROUPS := bin lib pc inc gen tpl models rt fw man py fmu fmupack
INST_DIR_bin    := $(BINDIR)
INST_MODE_bin   := 755
INST_FILES_bin  := $(BUILD)/inst/mbgen
INST_DIR_lib    := $(LIBDIR)
INST_FILES_lib  := $(BUILD)/libmbrt.a $(BUILD)/libmbrt_float.a
INST_DIR_pc     := $(PCDIR)
INST_FILES_pc   := $(BUILD)/inst/mbrt.pc $(BUILD)/inst/mbrt_float.pc
INST_DIR_inc    := $(INCDIR)
INST_FILES_inc  := $(INST_HEADERS)
INST_DIR_gen    := $(DATADIR)/generator
INST_FILES_gen  := $(INST_LUA)
INST_DIR_tpl    := $(DATADIR)/templates
INST_FILES_tpl  := $(INST_TPL)
INST_DIR_models := $(DATADIR)/models
INST_FILES_models := $(INST_MODELS)
INST_DIR_rt     := $(DATADIR)/runtime
INST_FILES_rt   := $(INST_RT)
INST_DIR_fw     := $(DATADIR)/firmware
INST_FILES_fw   := examples/firmware/solver.c examples/firmware/solver.h
INST_DIR_fmu    := $(DATADIR)/fmu
INST_FILES_fmu  := fmu/mb_fmu.c fmu/mb_fmu_desc.c fmu/mb_fmi2.h fmu/mb_fmu_vars.h fmu/mb_fmu_stab.h
INST_DIR_fmupack := $(DATADIR)/scripts
INST_FILES_fmupack := scripts/fmu_pack.sh
INST_DIR_man    := $(MAN1DIR)
INST_FILES_man  := docs/mbgen.1
# the Python module: its sources (it builds each model's library itself, with PREFIX/bin/mbgen and
# PREFIX/share/mbgen/runtime); the directory Debian's python3 searches for PREFIX (/usr/local:
# /usr/local/lib/python3.11/dist-packages)
PY_VER          = $(shell { /usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' || \
                            python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])'; } 2>/dev/null)
INST_DIR_py     = $(LIBDIR)/python$(PY_VER)/dist-packages/mbsim
INST_FILES_py   := $(PY_SRC)
$(foreach g,$(filter-out bin fmupack,$(INST_GROUPS)),$(eval INST_MODE_$(g) := 644))
INST_MODE_fmupack := 755
INST_OWN_DIRS = $(foreach g,gen tpl models rt fw py fmu fmupack,$(INST_DIR_$(g))) $(DATADIR) $(INCDIR)
# every installed file (its installed path) and every source
INST_PATHS = $(foreach g,$(INST_GROUPS),$(foreach f,$(INST_FILES_$(g)),$(INST_DIR_$(g))/$(notdir $(f))))
INST_SRCS  := $(foreach g,$(INST_GROUPS),$(INST_FILES_$(g)))

# the version for the .pc files, from runtime/mb_version.h
MB_VER = $(shell sed -n 's/^\#define MB_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$$/\2/p' \
                 runtime/mb_version.h | paste -sd.)

# The installed mbgen: the host program with PREFIX/share/mbgen compiled in (and without the
# source tree's lookup beside build/). Rebuilt when PREFIX changes (the stamp holds it).
$(BUILD)/inst/prefix: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' $(call shq,$(PREFIX)) | cmp -s - $@ || printf '%s\n' $(call shq,$(PREFIX)) >$@
$(BUILD)/o/inst/generator/mbgen.o: generator/mbgen.c $(MK_FILES) $(BUILD)/inst/prefix
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_C) $(OPT) -DMBGEN_INSTALLED -DMBGEN_DATADIR='"$(DATADIR)"' $(DEPFLAGS) -c $< -o $@
$(BUILD)/inst/mbgen: $(BUILD)/o/inst/generator/mbgen.o \
                     $(call obj,host,generator/mbgen_plan.c generator/mb_plan_build.c runtime/mb_sparse.c)
	$(CC) $(OPT) $^ $(LUA_LIBS) -lamd -o $@
# $(call mbrt_pc,LIB,DESCRIPTION,CFLAGS): a pkg-config file for the library LIB
mbrt_pc = @printf '%s\n' $(call shq,prefix=$(PREFIX)) 'includedir=$${prefix}/include/mb' 'libdir=$${prefix}/lib' '' \
    'Name: $(1)' 'Description: $(2)' $(call shq,Version: $(MB_VER)) \
    'Cflags: -I$${includedir}$(3)' 'Libs: -L$${libdir} -l$(1) -lm' >$@
$(BUILD)/inst/mbrt.pc: runtime/mb_version.h $(BUILD)/inst/prefix $(MK_FILES)
	@mkdir -p $(@D)
	$(call mbrt_pc,mbrt,runtime of the planar multibody solvers that mbgen generates (double),)
$(BUILD)/inst/mbrt_float.pc: runtime/mb_version.h $(BUILD)/inst/prefix $(MK_FILES)
	@mkdir -p $(@D)
	$(call mbrt_pc,mbrt_float,runtime of the planar multibody solvers that mbgen generates (float),$(mk_space)-DMB_FLOAT)

# $(call inst_group,g): the install line of group g
define inst_group
	install -m $(INST_MODE_$(1)) $(INST_FILES_$(1)) $(call dest,$(INST_DIR_$(1))/)

endef

.PHONY: install uninstall
## install: install mbgen, the headers, libmbrt.a and libmbrt_float.a with their .pc files, the runtime sources for firmware, mbgen(1) and the Python module mbsim [PREFIX=/usr/local] [DESTDIR=]
install: $(INST_SRCS) $(BUILD)/inst/prefix
	install -d $(foreach g,$(INST_GROUPS),$(call dest,$(INST_DIR_$(g))))
	$(foreach g,$(INST_GROUPS),$(call inst_group,$(g)))
	@echo "installed mbgen $(MB_VER) under "$(call dest,$(PREFIX))" (pkg-config: "$(call shq,$(PCDIR))"/mbrt.pc, mbrt_float.pc)"

## uninstall: remove what make install installed [PREFIX=/usr/local] [DESTDIR=]
uninstall:
	@echo "make uninstall: removing the $(words $(INST_PATHS)) files make install installs under "$(call dest,$(PREFIX))
	@rm -f $(foreach f,$(INST_PATHS),$(call dest,$(f)))
	@# the byte code python3 leaves beside the module when it imports it
	@rm -f $(foreach m,__init__ _build,$(call dest,$(INST_DIR_py)/__pycache__/)$(m).cpython-*.pyc)
	@rmdir $(call dest,$(INST_DIR_py)/__pycache__) 2>/dev/null || true
	@for d in $(foreach d,$(INST_OWN_DIRS),$(call dest,$(d))); do \
	    if [ -d "$$d" ] && ! rmdir "$$d" 2>/dev/null; then echo "make uninstall: $$d holds other files, kept" >&2; fi; \
	done

TEST_LONG    += tests/test_install.sh   # make install into temporary prefixes: make test-long
TEST_NEEDS   += $(BUILD)/mbgen
