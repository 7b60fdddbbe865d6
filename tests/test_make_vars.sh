#!/usr/bin/env bash
# test_make_vars.sh - the make variables a user may set are data (mk/user_vars.mk,
# docs/reliability.md "make variables"):
#  - every variable of MK_USER_VARS (read from make itself), and one the makefiles never name,
#    given on the command line as $(shell touch FILE), ${shell touch FILE}, a$xb or with a line
#    break, and from the environment as $(shell touch FILE): make stops with exit 2 naming the
#    variable before anything runs (no FILE, nothing new under build/ or results/, git status
#    unchanged), on the target that reads the variable; CC runs as given (a command);
#  - quotes, backticks and ; are text: make install / uninstall refuse such a PREFIX or DESTDIR
#    (exit 2, the value printed as given); MODEL, DEFS, MBGEN_FLAGS, FORMULATION, ANALYSIS,
#    RUN_ARGS, TRACE and SWEEP_ENGINE reach the program that checks them as typed (refused,
#    FILE never made); RESULTS holding them is a directory of that name;
#  - counts (FUZZ_SECONDS, MCU_STEPS, ...) are digits; BUILD and MODEL_* are paths;
#  - no recipe in Makefile and mk/*.mk pastes a user variable between quotes, and a recipe
#    line takes the free-text ones only quoted ($(call shq,...), shwords, dest) or in $(filter).
# Ends with "N passed, N failed".
# run.sh: alone - it requires that nothing new appears under build/ and results/ and that git
# status stays the same while it runs
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
MAKE=${MAKE:-make}
BUILD=${BUILD:-build}
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_make_vars.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mk() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS "$MAKE" --no-print-directory -C "$root" "$@"; }
pwn=$tmp/pwn

# the variables, from make
vars=$(mk -s -f mk/user_vars.mk --eval 'print-vars: ; @echo $(MK_USER_VARS)' print-vars)
[ "$(echo "$vars" | wc -w)" -ge 30 ] && ok || bad "MK_USER_VARS lists only: $vars"
for v in MODEL DEFS SWEEP SWEEP_OUT SWEEP_ENGINE SWEEP_JOBS SWEEP_CHUNK RESULTS TRACE FORMULATION ANALYSIS \
         RUN_ARGS MBGEN_FLAGS PREFIX DESTDIR FUZZ_SECONDS TEST_SLURM_TIMEOUT REAL TARGET MCU_STEPS; do
    [[ " $vars " == *" $v "* ]] && ok || bad "MK_USER_VARS lacks $v"
done
# every variable the makefiles default with ?= is listed (or is a command: CC OPT FUZZ_CC)
for v in $(sed -n 's/^\([A-Z_][A-Z0-9_]*\) *?=.*/\1/p' Makefile mk/*.mk); do
    case " $vars CC OPT FUZZ_CC " in *" $v "*) ok ;; *) bad "$v (?= in the makefiles) is not in MK_USER_VARS" ;; esac
done

# the target that reads each variable
target_of() {
    case $1 in
        MODEL|DEFS|MBGEN_FLAGS) echo sim ;;
        FORMULATION|ANALYSIS|RUN_ARGS|TRACE|RESULTS) echo run ;;
        SWEEP*) echo sweep ;;
        PREFIX|DESTDIR) echo install ;;
        REAL|TARGET|MCU_STEPS) echo mcu-build ;;
        FUZZ_SECONDS) echo fuzz ;;
        SCALING_*|SIMBODY_N) echo bench-scaling ;;
        PROFILE_*) echo bench-profile ;;
        WP_ROUNDS) echo bench-wp ;;
        BENCH_STIFF_SOLVERS) echo bench-stiff ;;
        BENCH_*) echo bench-sweep ;;
        TEST_SLURM_TIMEOUT) echo test-slurm ;;
        MODEL_*) echo model-sim ;;
        BUILD) echo lib ;;
        *) echo sim ;;
    esac
}
# state: what exists under build/ and results/ newer than the stamp, and git status
stamp=$tmp/stamp
state() { git status --porcelain 2>/dev/null; find "$BUILD" results -newer "$stamp" 2>/dev/null; }
touch "$stamp"; sleep 1
state0=$(state)
# refused: exit 2, the variable named, "nothing was run", no $pwn, nothing written
refused() {   # refused WHAT MAKE-ARGS...
    local what=$1; shift
    timeout 120 env "${envs[@]}" "$MAKE" --no-print-directory -C "$root" "$@" >"$tmp/out" 2>&1
    local rc=$?
    if [ $rc -eq 2 ] && [ ! -e "$pwn" ] && grep -q "nothing was run" "$tmp/out" && grep -qF -- "$what" "$tmp/out" &&
       [ "$(state)" = "$state0" ]; then ok
    else bad "make $*: exit $rc (expected 2 naming $what, nothing run), $( [ -e "$pwn" ] && echo "$pwn MADE, ")$(head -c 300 "$tmp/out")"
        [ "$(state)" = "$state0" ] || bad "make $*: wrote $(diff <(echo "$state0") <(state) | head -n 5)"
    fi
    rm -f "$pwn"
}
envs=(-u MAKEFLAGS -u MAKELEVEL -u MFLAGS)
nl=$'\n'
for v in $vars ZZ_NOT_A_MAKE_VARIABLE; do
    t=$(target_of "$v")
    for val in "\$(shell touch $pwn)" "\${shell touch $pwn}" "a\$xb" "a${nl}b\$(shell touch $pwn)"; do
        refused "$v" "$t" "$v=$val"
    done
    # from the environment (a variable make does not name is not its business there)
    [ "$v" = ZZ_NOT_A_MAKE_VARIABLE ] && continue
    envs=(-u MAKEFLAGS -u MAKELEVEL -u MFLAGS "$v=\$(shell touch $pwn)")
    refused "$v" "$t"
    envs=(-u MAKEFLAGS -u MAKELEVEL -u MFLAGS)
done
# a refusal prints the value as given
refused "RESULTS='\$(shell touch $pwn)'" run "RESULTS=\$(shell touch $pwn)"
# CC is a command: it runs as given (make expands it; here a $(info ...))
out=$(mk -s help 'CC=$(info cc-expanded)cc' 2>&1)
[[ "$out" == cc-expanded* ]] && ok || bad "make CC='\$(info ...)cc' help: $(echo "$out" | head -n 2)"

# ---- quotes, backticks, ; : text
q="x'\`touch $pwn\`'\"; touch $pwn; '"
for v in PREFIX DESTDIR; do
    for t in install uninstall; do
        val=$q; [ "$v" = PREFIX ] && val=/$q
        refused "$v='$val'" "$t" "$v=$val"
    done
done
refused "PREFIX='relative'" install PREFIX=relative
refused "DESTDIR='relative'" uninstall DESTDIR=relative
refused "PREFIX='/a\"b'" install 'PREFIX=/a"b'
for v in BUILD MODEL_FILE MODEL_NAME MODEL_DIR MODEL_OPTS; do
    refused "$v='$q'" "$(target_of "$v")" "$v=$q"
done
for v in FUZZ_SECONDS MCU_STEPS PROFILE_STEPS SCALING_INSTR WP_ROUNDS TEST_SLURM_TIMEOUT SCALING_N SIMBODY_N; do
    refused "$v='1;touch $pwn'" "$(target_of "$v")" "$v=1;touch $pwn"
done
# handled as text by the program that checks it: refused there, $pwn never made
astext() {   # astext EXPECTED-TEXT MAKE-ARGS...
    local text=$1; shift
    timeout 300 env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS "$MAKE" --no-print-directory -C "$root" "$@" >"$tmp/out" 2>&1
    local rc=$?
    if [ $rc -ne 0 ] && [ ! -e "$pwn" ] && grep -qF -- "$text" "$tmp/out"; then ok
    else bad "make $*: exit $rc, $( [ -e "$pwn" ] && echo "$pwn MADE, ")expected '$text': $(tail -n 3 "$tmp/out")"; fi
    rm -f "$pwn"
}
astext "$q" sim "MODEL=$q"
astext "DEFS: " sim MODEL=chain "DEFS=N=3$q"
astext "MBGEN_FLAGS: '" sim MODEL=chain "MBGEN_FLAGS=--no-fused $q"
if command -v gnuplot >/dev/null && command -v xmllint >/dev/null; then
    R=$tmp/r; short="--t-end 0.002"
    astext "invalid value 'x'" run MODEL=andrews RESULTS="$R" "FORMULATION=$q" "RUN_ARGS=$short"
    astext "$q" run MODEL=andrews RESULTS="$R" "ANALYSIS=$q" "RUN_ARGS=$short"
    astext "$(printf '%s' "$q" | cut -d' ' -f1)" run MODEL=andrews RESULTS="$R" "RUN_ARGS=$short $q"
    astext "$q" run MODEL=andrews RESULTS="$R" "TRACE=$q" "RUN_ARGS=$short"
    # RESULTS: a directory of that name
    d=$tmp/r2/$q
    if mk run MODEL=andrews RESULTS="$d" "RUN_ARGS=$short" >"$tmp/out" 2>&1 && [ -s "$d/andrews.csv" ] && [ ! -e "$pwn" ]; then ok
    else bad "make run RESULTS='$d': $( [ -e "$pwn" ] && echo "$pwn MADE, ")$(tail -n 3 "$tmp/out")"; fi
    rm -f "$pwn"
else echo "test_make_vars.sh: make run cases skipped: gnuplot or xmllint missing (scripts/deps.sh plots)"; fi
if command -v parallel >/dev/null && command -v gnuplot >/dev/null; then
    printf 'h\n1e-3\n' > "$tmp/p.csv"
    astext "SWEEP_ENGINE=parallel'" sweep MODEL=suspension SWEEP="$tmp/p.csv" SWEEP_OUT="$tmp/sw" "SWEEP_ENGINE=parallel'; touch $pwn; '"
    [ ! -e "$tmp/sw/summary.csv" ] && ok || bad "make sweep with a refused SWEEP_ENGINE wrote $tmp/sw/summary.csv"
else echo "test_make_vars.sh: make sweep case skipped: GNU parallel or gnuplot missing (scripts/deps.sh sweep)"; fi

# ---- the recipes: no user variable between quotes; free-text ones only quoted or filtered
alt=$(echo "$vars RUN_OPTS RUN_FORM" | tr ' ' '|')
grep -nE "['\"]\\\$\\((value )?($alt)\\)" Makefile mk/*.mk | grep -vF '$(error ' > "$tmp/quoted"   # (messages quote)
[ ! -s "$tmp/quoted" ] && ok || bad "a user variable pasted between quotes (pass it in the environment or \$(call shq,...)): $(cat "$tmp/quoted")"
free="MODEL|DEFS|MBGEN_FLAGS|FORMULATION|ANALYSIS|RUN_ARGS|RUN_OPTS|RUN_FORM|TRACE|RESULTS|SWEEP|SWEEP_OUT|SWEEP_ENGINE|REAL|TARGET|PROFILE_MODEL|PROFILE_FORMULATION|PREFIX|DESTDIR|SCALING_N|SCALING_INSTR|SIMBODY_N|FUZZ_SECONDS"
awk 'cont || /^\t/ { print FILENAME ":" FNR ": " $0; cont = /\\$/; next } { cont = 0 }' Makefile mk/*.mk |
    sed -E "s/\\\$\\(call (shq|shwords|dest),[^\$()]*\\\$\\((value )?($free)\\)//g; s/\\\$\\(filter [^,()]*,\\\$\\(($free)\\)\\)//g" |
    grep -E "\\\$\\((value )?($free)\\)" > "$tmp/bare"
[ ! -s "$tmp/bare" ] && ok || bad "a recipe takes a free-text variable unquoted (\$(call shq,...) or the environment): $(cat "$tmp/bare")"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
