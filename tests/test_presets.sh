#!/usr/bin/env bash
# test_presets.sh - the run settings of a model file (simulate { ... }) reach the tools: the
# simulator's defaults equal the model's preset as the generated header states it (<NAME>_SIM_*,
# the same data as mb_model.preset), options still override them, a model without a preset gets
# mb_params_default's, and the firmware parameters (scripts/mcu/fw_params.sh) come from the same
# macros. Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }

# the value of the header macro <U>_SIM_<KEY> (MB_R(x) -> x), empty when not given
mac() { sed -n "s/^#define $1_SIM_$2 \(MB_R(\)\{0,1\}\([0-9.eE+-]*\))\{0,1\}\$/\2/p" "$3"; }
# the simulator's parameter line (stderr) as key=value words; one step is enough to print it
params() { "$@" --max-steps 1 2>&1 >/dev/null | sed -n '1s/.*: [a-z-]*\/[a-z0-9]* //p' | tr ' ,' '\n\n'; }
val() { printf '%s\n' "$1" | sed -n "s/^$2=//p" | head -n 1; }
same() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 == b + 0 && a != "") }'; }

# Andrews: a preset for every formulation
H=generated/andrews.h
for f in baumgarte canonical alf-explicit alf-trapezoid; do
    F=$(printf '%s' "$f" | tr 'a-z-' 'A-Z_')
    P=$(params "$BUILD/andrews_sim" --formulation "$f")
    ok "andrews $f: the simulator prints its parameters" '[ -n "$(val "$P" h)" ]'
    ok "andrews $f: h = the preset's" 'same "$(val "$P" h)" "$(mac ANDREWS H "$H")"'
    ok "andrews $f: t_end = the preset's" 'same "$(val "$P" t_end)" "$(mac ANDREWS T_END "$H")"'
    for k in alpha xi omega tol max_iter; do
        K=$(printf '%s' "$k" | tr a-z A-Z)
        m=$(mac ANDREWS "${F}_$K" "$H")
        [ -n "$m" ] || continue
        ok "andrews $f: $k = the preset's ($m)" 'same "$(val "$P" "$k")" "$m"'
    done
done
ok "andrews alf-trapezoid: the preset is the thesis' (alpha 1e8, h 1e-5)" \
   'same "$(mac ANDREWS ALF_TRAPEZOID_ALPHA "$H")" 1e8 && same "$(mac ANDREWS H "$H")" 1e-5'
ok "andrews baumgarte: xi 1, omega 100" \
   'same "$(mac ANDREWS BAUMGARTE_XI "$H")" 1 && same "$(mac ANDREWS BAUMGARTE_OMEGA "$H")" 100'
# the generic evaluator runs with the same defaults
P=$(params "$BUILD/andrews_sim" --formulation baumgarte --eval generic)
ok "andrews --eval generic: the same preset" 'same "$(val "$P" omega)" 100 && same "$(val "$P" h)" 1e-5'
# options override the preset
P=$(params "$BUILD/andrews_sim" --formulation alf-explicit --h 2e-5 --alpha 1e7 --xi 3 --t-end 0.01)
ok "options override the preset" 'same "$(val "$P" h)" 2e-5 && same "$(val "$P" alpha)" 1e7 &&
    same "$(val "$P" xi)" 3 && same "$(val "$P" t_end)" 0.01 && same "$(val "$P" omega)" 1'

# no simulate block (fourbar_singular; the hand-written fixture): mb_params_default, t_end 5 s
ok "fourbar_singular.h says it has no preset" \
   'grep -q "has no simulate" generated/fourbar_singular.h && ! grep -q "_SIM_" generated/fourbar_singular.h'
for sim in "$BUILD/fourbar_singular_sim" "$BUILD/fixture_pendulum_sim"; do
    P=$(params "$sim" --formulation baumgarte)
    ok "$sim baumgarte: mb_params_default (h 1e-3, t_end 5, xi 10, omega 10)" \
       'same "$(val "$P" h)" 1e-3 && same "$(val "$P" t_end)" 5 && same "$(val "$P" xi)" 10 && same "$(val "$P" omega)" 10'
    P=$(params "$sim" --formulation alf-explicit)
    ok "$sim alf-explicit: mb_params_default (alpha 1e7, xi 1, omega 10)" \
       'same "$(val "$P" alpha)" 1e7 && same "$(val "$P" xi)" 1 && same "$(val "$P" omega)" 10'
done

# the firmware's parameters come from the same macros
. scripts/mcu/fw_params.sh
p=$(fw_params andrews alf-trapezoid double)
ok "fw_params andrews alf-trapezoid double: the preset's h and alpha" \
   '[[ " $p " == *" -DFW_H=MB_R(1e-05) "* && " $p " == *" -DFW_ALPHA=MB_R(100000000.0) "* ]]'
p=$(fw_params andrews alf-trapezoid float)
ok "fw_params andrews alf-trapezoid float: the preset's float alpha and tol" \
   '[[ " $p " == *" -DFW_ALPHA=MB_R(10000.0) "* && " $p " == *" -DFW_TOL=MB_R(1e-07) "* ]]'
p=$(fw_params fourbar_singular alf-trapezoid float)
ok "fw_params without a preset: no step, no float alpha or tol (the runtime chooses them)" \
   '[[ " $p " != *" -DFW_H="* && " $p " != *" -DFW_ALPHA="* && " $p " != *" -DFW_TOL="* ]]'
p=$(fw_params gear_train alf-trapezoid float)
ok "fw_params float: a double alpha of the preset is not float's (gear_train alpha 1e4)" \
   '[[ " $p " != *" -DFW_ALPHA="* ]]'
# a value that is not a number never reaches the compiler flags
mkdir -p "$T/g"
printf '#define EVIL_SIM_H MB_R(1e-3) -include /etc/passwd\n#define EVIL_SIM_ALF_TRAPEZOID_ALPHA MB_R($(touch x))\n' > "$T/g/evil.h"
p=$(fw_params evil alf-trapezoid double "$T/g")
ok "fw_params ignores macros that are not MB_R(number): $p" '[[ "$p" != *passwd* && "$p" != *touch* && "$p" != *FW_H* ]]'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
