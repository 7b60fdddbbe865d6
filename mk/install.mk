# mk/install.mk - make install / make uninstall [PREFIX=/usr/local] [DESTDIR=]: mbgen with its
# Lua modules and templates (PREFIX/share/mbgen, found by a path compiled into the installed
# mbgen, or beside it when staged or moved; MBGEN_DATADIR overrides), the example models, the
# runtime headers (PREFIX/include/mb), the solver library (PREFIX/lib/libmbrt.a), its pkg-config
# file (mbrt.pc) and the man page mbgen(1). tests/test_install.sh installs into a temporary
# prefix, builds the README's program from the installed files only, and uninstalls.

PREFIX   ?= /usr/local
DESTDIR  ?=
# PREFIX and DESTDIR become paths in recipes, the C string of the installed mbgen's data
# directory and mbrt.pc's prefix (share/mbgen is removed whole by make uninstall): checked when
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
# include, the firmware API (mb_embed.h, mb_layout.h, mb_math.h); the runtime's internals stay out
INST_HEADERS := runtime/mb_version.h runtime/mb_config.h runtime/mb_model.h runtime/mb_status.h runtime/mb_select.h \
                runtime/mb_sim.h runtime/mb_layout.h runtime/mb_embed.h runtime/mb_analysis.h runtime/mb_math.h \
                runtime/mb_trig.h
INST_LUA     := $(wildcard generator/*.lua)
INST_TPL     := $(wildcard templates/*.in)
# the shipped models (Makefile MODELS, the files git tracks), never any other file in models/
INST_MODELS  := $(MODELS:%=models/%.lua)
# the version for mbrt.pc, from runtime/mb_version.h
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
$(BUILD)/inst/mbrt.pc: runtime/mb_version.h $(BUILD)/inst/prefix $(MK_FILES)
	@mkdir -p $(@D)
	@printf '%s\n' $(call shq,prefix=$(PREFIX)) 'includedir=$${prefix}/include/mb' 'libdir=$${prefix}/lib' '' \
	    'Name: mbrt' 'Description: runtime of the planar multibody solvers that mbgen generates' \
	    $(call shq,Version: $(MB_VER)) 'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lmbrt -lm' >$@

.PHONY: install uninstall
## install: install mbgen, the runtime headers, libmbrt.a, mbrt.pc and mbgen(1) [PREFIX=/usr/local] [DESTDIR=]
install: $(BUILD)/inst/mbgen $(BUILD)/libmbrt.a $(BUILD)/inst/mbrt.pc
	install -d $(foreach d,$(BINDIR) $(DATADIR)/generator $(DATADIR)/templates $(DATADIR)/models $(INCDIR) \
	    $(LIBDIR) $(PCDIR) $(MAN1DIR),$(call dest,$(d)))
	install -m 755 $(BUILD)/inst/mbgen $(call dest,$(BINDIR)/mbgen)
	install -m 644 $(INST_LUA) $(call dest,$(DATADIR)/generator/)
	install -m 644 $(INST_TPL) $(call dest,$(DATADIR)/templates/)
	install -m 644 $(INST_MODELS) $(call dest,$(DATADIR)/models/)
	install -m 644 $(INST_HEADERS) $(call dest,$(INCDIR)/)
	install -m 644 $(BUILD)/libmbrt.a $(call dest,$(LIBDIR)/libmbrt.a)
	install -m 644 $(BUILD)/inst/mbrt.pc $(call dest,$(PCDIR)/mbrt.pc)
	install -m 644 docs/mbgen.1 $(call dest,$(MAN1DIR)/mbgen.1)
	@echo "installed mbgen $(MB_VER) under "$(call dest,$(PREFIX))" (pkg-config: "$(call shq,$(PCDIR))"/mbrt.pc)"

## uninstall: remove what make install installed [PREFIX=/usr/local] [DESTDIR=]
uninstall:
	rm -f $(call dest,$(BINDIR)/mbgen) $(call dest,$(LIBDIR)/libmbrt.a) $(call dest,$(PCDIR)/mbrt.pc) \
	    $(call dest,$(MAN1DIR)/mbgen.1)
	rm -f $(addprefix $(call dest,$(INCDIR))/,$(notdir $(INST_HEADERS)))
	rm -rf $(call dest,$(DATADIR))
	@if [ -d $(call dest,$(INCDIR)) ]; then rmdir $(call dest,$(INCDIR)) 2>/dev/null || \
	    echo "make uninstall: "$(call dest,$(INCDIR))" holds other files, kept" >&2; fi

TEST_SCRIPTS += tests/test_install.sh
TEST_NEEDS   += $(BUILD)/mbgen
