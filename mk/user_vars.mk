# mk/user_vars.mk - the make variables a user may set are data: checked here, first of all
# (the Makefile includes this file before anything else), so a refused value stops make with
# exit 2 before any recipe or $(shell) runs (docs/reliability.md, "make variables").
#  - A '$' is refused in every variable given on the command line (but the commands and flags
#    of MK_COMMAND_VARS) and in every variable of MK_USER_VARS taken from the environment:
#    GNU make expands a command-line variable when it exports it to a recipe's environment, and
#    any $(X) expands it, so '$(shell ...)' in MODEL would run and '$x' vanish from a path.
#    Control characters (newline, tab, escape, ...) are refused in the same variables.
#  - Values that become file names or C strings (BUILD, the MODEL_* of the resolved model; PREFIX
#    and DESTDIR for make install, checked in mk/install.mk) take only [A-Za-z0-9._/+@-].
#  - Recipes never paste a value into shell code: it reaches the shell through the environment
#    ("target: export MB_X = ...") or quoted by $(call shq,...) / $(call shwords,...).

# the variables the project reads (docs/cli.md, docs/sweeps.md, docs/reliability.md ...):
# checked also when they come from the environment
MK_USER_VARS := MODEL DEFS MBGEN_FLAGS FORMULATION ANALYSIS RUN_ARGS TRACE RESULTS BUILD CONTROL \
                SWEEP SWEEP_OUT SWEEP_ENGINE SWEEP_JOBS SWEEP_ARGS SWEEP_X SWEEP_Y SWEEP_CHUNK \
                SWEEP_BLOCK \
                SWEEP_SBATCH SWEEP_WAIT SWEEP_FORCE PREFIX DESTDIR REAL TARGET MCU_STEPS \
                FUZZ_SECONDS SCALING_N SCALING_INSTR SIMBODY_N PROFILE_MODEL PROFILE_FORMULATION PROFILE_STEPS \
                WP_ROUNDS BENCH_STIFF_SOLVERS BENCH_ROWS BENCH_OLD_ROWS BENCH_BOOK_ROWS BENCH_REF \
                BENCH_REPEAT BENCH_T_END TEST_SLURM_TIMEOUT TEST_JOBS \
                INTEGRATOR FMU_H FMU_RTOL FMU_ATOL FMU_SIGMA_RESET \
                MODEL_FILE MODEL_BASE MODEL_NAME MODEL_DIR MODEL_OPTS
# commands and compiler flags: shell text by nature, run as given (not checked)
MK_COMMAND_VARS := CC CXX OPT FUZZ_CC

# the control characters; those make takes for white space are tested one by one
define MK_NL


endef
MK_CTRL := $(shell printf '\001 \002 \003 \004 \005 \006 \007 \010 \016 \017 \020 \021 \022 \023 \024 \025 \026 \027 \030 \031 \032 \033 \034 \035 \036 \037 \177')
MK_TAB  := $(shell printf '\011')
MK_VT   := $(shell printf '\013')
MK_FF   := $(shell printf '\014')
MK_CR   := $(shell printf '\015')
mk_space := $(subst x,,x x)
# $(call mk_has_ctrl,TEXT): non-empty when TEXT holds a control character
mk_has_ctrl = $(strip $(foreach c,$(MK_CTRL),$(if $(findstring $(c),$(1)),x)) \
                      $(foreach c,MK_NL MK_TAB MK_VT MK_FF MK_CR,$(if $(findstring $($(c)),$(1)),x)))

# the variables to check: every command-line one but the commands, and the user variables
# taken from the environment
MK_CHECKED := $(sort $(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $(v))),$(v))) \
                     $(foreach v,$(MK_USER_VARS),$(if $(filter environment%,$(origin $(v))),$(v))))
MK_CHECKED := $(filter-out $(MK_COMMAND_VARS),$(MK_CHECKED))
$(foreach v,$(MK_CHECKED),$(if $(call mk_has_ctrl,$(value $(v))),\
  $(error $(v) holds a control character (a line break, tab, escape ...): refused, nothing was run)))
$(foreach v,$(MK_CHECKED),$(if $(findstring $$,$(value $(v))),\
  $(error $(v)='$(value $(v))': a '$$' in a make variable is make syntax (make would expand it); \
    values are text: give it without '$$' (docs/reliability.md), nothing was run)))

# $(call mk_unsafe,TEXT,MORE): what is left of TEXT without the characters [A-Za-z0-9._/+@-]
# (and the words of MORE); a space is left over as ':' (MORE ':' takes it)
MK_SAFE_CHARS := a b c d e f g h i j k l m n o p q r s t u v w x y z \
                 A B C D E F G H I J K L M N O P Q R S T U V W X Y Z \
                 0 1 2 3 4 5 6 7 8 9 . _ / + @ -
mk_strip_chars = $(if $(2),$(call mk_strip_chars,$(subst $(firstword $(2)),,$(1)),$(wordlist 2,$(words $(2)),$(2))),$(1))
mk_unsafe = $(call mk_strip_chars,$(subst $(mk_space),:,$(1)),$(MK_SAFE_CHARS) $(2))
# $(call mk_need_path,VAR,WHO): stop unless VAR holds only those characters;
# $(call mk_need_words,VAR,WHO): only those, '=' and spaces
mk_need_path = $(if $(call mk_unsafe,$(value $(1))),$(error $(2): $(1) may hold only letters, digits \
    and ._/+@- (got $(1)='$(value $(1))'), nothing was run))
mk_need_words = $(if $(call mk_unsafe,$(value $(1)),= :),$(error $(2): $(1) may hold only letters, digits, \
    spaces and ._/+@-= (got $(1)='$(value $(1))'), nothing was run))

# BUILD (a directory make names in targets), the resolved model (scripts/model.sh prints only
# such values; make model-sim MODEL_NAME=... given by hand is checked the same way) and the
# shipped models' names
$(foreach v,$(filter BUILD MODEL_FILE MODEL_BASE MODEL_NAME MODEL_DIR,$(MK_CHECKED)),$(call mk_need_path,$(v),make))
$(foreach v,$(filter MODEL_OPTS MODELS,$(MK_CHECKED)),$(call mk_need_words,$(v),make))

# counts and seconds are digits (they reach shell arithmetic, sleep, -D flags); SCALING_N and
# SIMBODY_N are lists of them (SIMBODY_N may be empty: no Simbody peer)
MK_COUNT_VARS := FUZZ_SECONDS MCU_STEPS PROFILE_STEPS SCALING_INSTR WP_ROUNDS TEST_SLURM_TIMEOUT TEST_JOBS
mk_not_digits = $(call mk_strip_chars,$(subst $(mk_space),:,$(1)),0 1 2 3 4 5 6 7 8 9 $(2))
$(foreach v,$(filter $(MK_COUNT_VARS),$(MK_CHECKED)),$(if $(or $(call mk_not_digits,$(value $(v))),$(if $(value $(v)),,empty)),\
  $(error make: $(v) is a whole number, digits only (got $(v)='$(value $(v))'), nothing was run)))
$(if $(filter SCALING_N,$(MK_CHECKED)),$(if $(call mk_not_digits,$(strip $(value SCALING_N)),:),\
  $(error make: SCALING_N is a list of whole numbers (got SCALING_N='$(value SCALING_N)'), nothing was run)))
$(if $(filter SIMBODY_N,$(MK_CHECKED)),$(if $(call mk_not_digits,$(strip $(value SIMBODY_N)),:),\
  $(error make: SIMBODY_N is a list of whole numbers (got SIMBODY_N='$(value SIMBODY_N)'), nothing was run)))

# $(call shq,TEXT): TEXT as one shell word, quoted (a ' inside is '\''); $(call shwords,LIST):
# each white-space separated word of LIST so (RUN_ARGS: quotes, ; or * in them are text)
shq = '$(subst ','\'',$(1))'
shwords = $(foreach w,$(1),$(call shq,$(w)))
