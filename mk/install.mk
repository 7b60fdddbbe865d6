# mk/install.mk - make install / make uninstall [PREFIX=/usr/local] [DESTDIR=]: mbgen with its
# Lua modules and templates (PREFIX/share/mbgen, found by a path compiled into the installed
# mbgen, or beside it when staged or moved; MBGEN_DATADIR overrides), the example models, the
# runtime headers (PREFIX/include/mb), the solver library (PREFIX/lib/libmbrt.a), its pkg-config
# file (mbrt.pc) and the man page mbgen(1). tests/test_install.sh installs into a temporary
# prefix, builds the README's program from the installed files only, and uninstalls.

PREFIX   ?= /usr/local
DESTDIR  ?=
BINDIR   := $(PREFIX)/bin
DATADIR  := $(PREFIX)/share/mbgen
INCDIR   := $(PREFIX)/include/mb
LIBDIR   := $(PREFIX)/lib
PCDIR    := $(LIBDIR)/pkgconfig
MAN1DIR  := $(PREFIX)/share/man/man1
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
	@printf '%s\n' '$(PREFIX)' | cmp -s - $@ || printf '%s\n' '$(PREFIX)' >$@
$(BUILD)/o/inst/generator/mbgen.o: generator/mbgen.c $(MK_FILES) $(BUILD)/inst/prefix
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_C) $(OPT) -DMBGEN_INSTALLED -DMBGEN_DATADIR='"$(DATADIR)"' $(DEPFLAGS) -c $< -o $@
$(BUILD)/inst/mbgen: $(BUILD)/o/inst/generator/mbgen.o \
                     $(call obj,host,generator/mbgen_plan.c generator/mb_plan_build.c runtime/mb_sparse.c)
	$(CC) $(OPT) $^ $(LUA_LIBS) -lamd -o $@
$(BUILD)/inst/mbrt.pc: runtime/mb_version.h $(BUILD)/inst/prefix $(MK_FILES)
	@mkdir -p $(@D)
	@printf '%s\n' 'prefix=$(PREFIX)' 'includedir=$${prefix}/include/mb' 'libdir=$${prefix}/lib' '' \
	    'Name: mbrt' 'Description: runtime of the planar multibody solvers that mbgen generates' \
	    'Version: $(MB_VER)' 'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lmbrt -lm' >$@

# PREFIX and DESTDIR: absolute, and only characters that make, the shell and a C string carry
# as they are (share/mbgen is removed whole by make uninstall)
install-check-prefix:
	@case '$(DESTDIR)$(PREFIX)' in \
	    *[!A-Za-z0-9._/+@-]*) echo "make install: PREFIX and DESTDIR may hold only letters, digits and ._/+@- (got '$(DESTDIR)$(PREFIX)')" >&2; exit 2 ;; \
	    /*) ;; *) echo "make install: PREFIX must be an absolute path (got '$(PREFIX)')" >&2; exit 2 ;; esac

.PHONY: install uninstall install-check-prefix
## install: install mbgen, the runtime headers, libmbrt.a, mbrt.pc and mbgen(1) [PREFIX=/usr/local] [DESTDIR=]
install: install-check-prefix $(BUILD)/inst/mbgen $(BUILD)/libmbrt.a $(BUILD)/inst/mbrt.pc
	install -d '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(DATADIR)/generator' '$(DESTDIR)$(DATADIR)/templates' \
	    '$(DESTDIR)$(DATADIR)/models' '$(DESTDIR)$(INCDIR)' '$(DESTDIR)$(LIBDIR)' '$(DESTDIR)$(PCDIR)' \
	    '$(DESTDIR)$(MAN1DIR)'
	install -m 755 $(BUILD)/inst/mbgen '$(DESTDIR)$(BINDIR)/mbgen'
	install -m 644 $(INST_LUA) '$(DESTDIR)$(DATADIR)/generator/'
	install -m 644 $(INST_TPL) '$(DESTDIR)$(DATADIR)/templates/'
	install -m 644 $(INST_MODELS) '$(DESTDIR)$(DATADIR)/models/'
	install -m 644 $(INST_HEADERS) '$(DESTDIR)$(INCDIR)/'
	install -m 644 $(BUILD)/libmbrt.a '$(DESTDIR)$(LIBDIR)/libmbrt.a'
	install -m 644 $(BUILD)/inst/mbrt.pc '$(DESTDIR)$(PCDIR)/mbrt.pc'
	install -m 644 docs/mbgen.1 '$(DESTDIR)$(MAN1DIR)/mbgen.1'
	@echo "installed mbgen $(MB_VER) under $(DESTDIR)$(PREFIX) (pkg-config: $(PCDIR)/mbrt.pc)"

## uninstall: remove what make install installed [PREFIX=/usr/local] [DESTDIR=]
uninstall: install-check-prefix
	rm -f '$(DESTDIR)$(BINDIR)/mbgen' '$(DESTDIR)$(LIBDIR)/libmbrt.a' '$(DESTDIR)$(PCDIR)/mbrt.pc' \
	    '$(DESTDIR)$(MAN1DIR)/mbgen.1'
	rm -f $(addprefix '$(DESTDIR)$(INCDIR)'/,$(notdir $(INST_HEADERS)))
	rm -rf '$(DESTDIR)$(DATADIR)'
	@if [ -d '$(DESTDIR)$(INCDIR)' ]; then rmdir '$(DESTDIR)$(INCDIR)' 2>/dev/null || \
	    echo "make uninstall: $(DESTDIR)$(INCDIR) holds other files, kept" >&2; fi

TEST_SCRIPTS += tests/test_install.sh
TEST_NEEDS   += $(BUILD)/mbgen
