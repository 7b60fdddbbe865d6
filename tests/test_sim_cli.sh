#!/usr/bin/env bash
# test_sim_cli.sh - the simulator's options and messages (docs/cli.md, "Options that do not
# apply are refused"; docs/analyses.md, "Modal analysis"):
#  - every option that has no effect with the formulation, integrator or analysis chosen is
#    refused (exit 2, the option and what was chosen named, no CSV), each against a positive
#    control where it applies (exit 0);
#  - an integrator that does not fit the formulation: the integrators that formulation takes;
#    --analysis modal --integrator dopri5: about the analysis, not about alf-trapezoid;
#  - --set with a subnormal value: refused as such (it was called a redundant joint);
#  - a NaN from a function of time: the fault names the force or driver that went non-finite;
#  - modal analysis with 0 degrees of freedom: modes=0 said plainly (simulator and
#    scripts/run_analysis.sh); a zero root (a free wheel): freq_hz=0 damping_ratio=0, growing=0.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
DP=$BUILD/double_pendulum_sim SU=$BUILD/suspension_sim NT=$BUILD/nan_torque_sim ND=$BUILD/nan_driver_sim
SD=$BUILD/anl_slider_driven_sim SP=$BUILD/anl_spinner_sim IV=$BUILD/anl_inverted_sim
T=$(mktemp -d "${TMPDIR:-/tmp}/test_sim_cli.XXXXXX"); trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
for b in "$DP" "$SU" "$NT" "$ND" "$SD" "$SP" "$IV" "$BUILD/mb_anim"; do
    [ -x "$b" ] || { echo "FAIL: $b missing" >&2; echo "0 passed, 1 failed"; exit 1; }
done
# run SIM ARGS...: rc, stdout in $T/o, stderr in $T/e, CSV at $T/x.csv (removed before)
run() { local s=$1; shift; rm -f "$T/x.csv"; "$s" "$@" --out "$T/x.csv" >"$T/o" 2>"$T/e"; rc=$?; }

# ---- options without effect: "refused args|option|with|control args" (the control: the same
# option where it applies, a short run that must succeed)
while IFS='|' read -r args opt with control; do
    [ -n "$args" ] || continue
    te="--t-end 0.01"; [[ $args == *--analysis* ]] && te=""   # (--t-end is refused there)
    # shellcheck disable=SC2086
    run "$DP" $args $te --quiet
    ok "[$args]: refused (exit 2), '$opt' named with '$with', nothing written" \
       '[ $rc -eq 2 ] && grep -qF -- "option $opt has no effect with $with:" "$T/e" && [ ! -e "$T/x.csv" ] && [ ! -s "$T/o" ]'
    # shellcheck disable=SC2086
    run "$DP" $control --t-end 0.01 --quiet
    ok "[$control]: $opt applies there (exit 0)" '[ $rc -eq 0 ] && grep -q "^status=ok" "$T/o"'
done <<'EOF'
--formulation baumgarte --rtol 1e-6|--rtol|--integrator rk4|--formulation baumgarte --integrator dopri5 --rtol 1e-6
--formulation canonical --atol 1e-9|--atol|--integrator rk4|--formulation canonical --integrator bdf --atol 1e-9
--integrator hht --rtol 1e-6|--rtol|--integrator hht|--formulation alf-trapezoid --rtol 1e-6
--hht-alpha -0.1|--hht-alpha|--integrator trapezoid|--integrator hht --hht-alpha -0.1
--integrator hht --xi 2|--xi|--integrator hht|--formulation baumgarte --xi 2
--integrator hht --omega 2|--omega|--integrator hht|--formulation canonical --omega 2
--integrator hht --project-velocity|--project-velocity|--integrator hht|--formulation baumgarte --project-velocity
--integrator hht --baumgarte-cap 2|--baumgarte-cap|--integrator hht|--formulation baumgarte --baumgarte-cap 2
--formulation canonical --project-velocity|--project-velocity|--formulation canonical|--formulation baumgarte --integrator bdf --project-velocity
--formulation alf-explicit --baumgarte-cap 2|--baumgarte-cap|--formulation alf-explicit|--formulation baumgarte --integrator dopri5 --baumgarte-cap 2
--formulation alf-trapezoid --project-velocity|--project-velocity|--formulation alf-trapezoid|--formulation baumgarte --project-velocity
--formulation baumgarte --alpha 1e7|--alpha|--formulation baumgarte|--integrator hht --alpha 1e7
--formulation canonical --alpha 1e7|--alpha|--formulation canonical|--formulation alf-explicit --alpha 1e7
--formulation baumgarte --tol 1e-9|--tol|--formulation baumgarte|--formulation alf-explicit --tol 1e-9
--formulation canonical --integrator bdf --max-iter 20|--max-iter|--formulation canonical|--formulation alf-trapezoid --integrator bdf --max-iter 20
--formulation baumgarte --sigma-reset 10|--sigma-reset|--formulation baumgarte|--formulation canonical --sigma-reset 10
--integrator hht --sigma-reset 10|--sigma-reset|--formulation baumgarte|--formulation alf-explicit --sigma-reset 10
--formulation alf-trapezoid --rtol 1e-6 --sigma-reset 10|--sigma-reset|alf-trapezoid's step control (--rtol/--atol)|--formulation alf-trapezoid --sigma-reset 10
--formulation baumgarte --warn-sigma 10|--warn-sigma|--formulation baumgarte|--formulation alf-trapezoid --warn-sigma 10
--formulation canonical --no-newton-reuse|--no-newton-reuse|--formulation canonical|--formulation alf-trapezoid --no-newton-reuse
--formulation baumgarte --integrator bdf --newton-reuse|--newton-reuse|--formulation baumgarte|--formulation alf-trapezoid --integrator bdf --newton-reuse
--formulation baumgarte --full-jacobian|--full-jacobian|--formulation baumgarte|--formulation alf-trapezoid --full-jacobian
--formulation alf-trapezoid --integrator bdf --full-jacobian|--full-jacobian|--integrator bdf|--formulation alf-trapezoid --integrator trapezoid --full-jacobian
--formulation alf-explicit --integrator dopri5 --rtol 1e-6 --extrapolate|--extrapolate|--formulation alf-explicit|--formulation alf-trapezoid --rtol 1e-6 --extrapolate
--formulation alf-trapezoid --integrator bdf --rtol 1e-6 --extrapolate|--extrapolate|--integrator bdf|--formulation alf-trapezoid --atol 1e-8 --extrapolate
--formulation alf-trapezoid --extrapolate|--extrapolate|fixed steps (no --rtol or --atol)|--formulation alf-trapezoid --rtol 1e-6 --extrapolate
--formulation canonical --integrator dopri5 --warn-stability 3|--warn-stability|--integrator dopri5|--formulation canonical --warn-stability 3
--warn-stability 3|--warn-stability|--integrator trapezoid|--formulation alf-explicit --warn-stability 3
--analysis modal --integrator dopri5|--integrator|--analysis modal|--integrator dopri5 --formulation canonical
--analysis static --formulation baumgarte|--formulation|--analysis static|--formulation baumgarte
--analysis modal --rtol 1e-6|--rtol|--analysis modal|--rtol 1e-6
--analysis static --tol 1e-9|--tol|--analysis static|--tol 1e-9
--analysis modal --strict|--strict|--analysis modal|--strict
--analysis static --linsys dense|--linsys|--analysis static|--linsys dense
--analysis modal --warn-phi 0|--warn-phi|--analysis modal|--warn-phi 0
--analysis static --max-steps 100|--max-steps|--analysis static|--max-steps 100000
--analysis modal --t-end 2|--t-end|--analysis modal|--analysis quasistatic --t-end 2
--analysis static --h 0.01|--h|--analysis static|--analysis quasistatic --h 0.01
--analysis modal --every 2|--every|--analysis modal|--analysis quasistatic --every 2
--analysis static --warn-energy 0|--warn-energy|--analysis static|--warn-energy 0
--analysis modal --hht-alpha -0.1|--hht-alpha|--analysis modal|--integrator hht --hht-alpha -0.1
--analysis frequency --input AB.x --xi 2|--xi|--analysis frequency|--xi 2
--analysis quasistatic --alpha 1e7|--alpha|--analysis quasistatic|--alpha 1e7
--analysis static --omega 2|--omega|--analysis static|--omega 2
--analysis modal --sigma-reset 1|--sigma-reset|--analysis modal|--sigma-reset 1
--analysis static --baumgarte-cap 1|--baumgarte-cap|--analysis static|--formulation baumgarte --baumgarte-cap 1
--analysis static --project-velocity|--project-velocity|--analysis static|--formulation baumgarte --project-velocity
--analysis modal --full-jacobian|--full-jacobian|--analysis modal|--full-jacobian
--analysis modal --no-newton-reuse|--no-newton-reuse|--analysis modal|--no-newton-reuse
--analysis static --extrapolate|--extrapolate|--analysis static|--rtol 1e-6 --extrapolate
--analysis static --max-iter 5|--max-iter|--analysis static|--max-iter 5
--analysis static --atol 1e-9|--atol|--analysis static|--atol 1e-9
--analysis static --warn-sigma 5|--warn-sigma|--analysis static|--warn-sigma 5
--analysis static --warn-stability 5|--warn-stability|--analysis static|--formulation baumgarte --warn-stability 5
EOF

# ---- an integrator that does not fit: the integrators the formulation takes
while IFS='|' read -r f i takes; do
    run "$DP" --formulation "$f" --integrator "$i" --t-end 0.01
    ok "$f + $i: refused (exit 2) with what $f takes" \
       '[ $rc -eq 2 ] && grep -qF -- "--integrator $i does not fit --formulation $f: $f takes $takes" "$T/e" && [ ! -e "$T/x.csv" ]'
done <<'EOF'
baumgarte|trapezoid|rk4, dopri5, dop853, bdf or hht
canonical|trapezoid|rk4, dopri5, dop853 or bdf
canonical|hht|rk4, dopri5, dop853 or bdf
alf-explicit|bdf|rk4, dopri5 or dop853
alf-explicit|hht|rk4, dopri5 or dop853
alf-trapezoid|dopri5|trapezoid or bdf
EOF
# the analyses' own options outside their analysis: the same words
run "$DP" --about initial --t-end 0.01
ok "--about with the dynamic run: refused in the same words" \
   '[ $rc -eq 2 ] && grep -qF "option --about has no effect with --analysis dynamic: it applies to --analysis modal, frequency and linearize" "$T/e"'
run "$DP" --analysis modal --f-points 20
ok "--f-points with modal: refused in the same words" \
   '[ $rc -eq 2 ] && grep -qF "option --f-points has no effect with --analysis modal: " "$T/e"'
run "$DP" --analysis modal --integrator dopri5
ok "modal + dopri5: about the analysis, nothing about alf-trapezoid" \
   '[ $rc -eq 2 ] && grep -q "no effect with --analysis modal: .*integrates nothing" "$T/e" && ! grep -q "alf-trapezoid" "$T/e"'

# ---- --set with a subnormal value (a mass of 1e-320 was reported as a redundant joint)
run "$SU" --set m=1e-320 --t-end 0.01
ok "--set m=1e-320: refused (exit 2) as not a normal number, no 'redundant', no CSV" \
   '[ $rc -eq 2 ] && grep -q "^suspension_sim: --set m=1e-320: not a normal number" "$T/e" && ! grep -q redundant "$T/e" && [ ! -e "$T/x.csv" ]'
run "$SU" --set a=-4e-310 --t-end 0.01
ok "--set a=-4e-310 (no rule on a): refused the same way" '[ $rc -eq 2 ] && grep -q "not a normal number" "$T/e"'
run "$SU" --set m=1e-300 --set a=0 --t-end 0.01 --quiet
ok "--set m=1e-300 a=0 (normal, zero): accepted, runs" '[ $rc -eq 0 ] && grep -q "^status=ok" "$T/o"'

# ---- a NaN from a function of time, named (tests/models/nan_torque.lua, nan_driver.lua)
for c in "--formulation alf-trapezoid" "--formulation baumgarte" "--formulation canonical --integrator dopri5" \
         "--formulation alf-explicit --integrator dop853"; do
    # shellcheck disable=SC2086
    run "$NT" $c --t-end 2 --quiet
    ok "nan_torque [$c]: exit 1 at t=1, the force on bar.phi named NaN" \
       '[ $rc -eq 1 ] && grep -q "non-finite value.*the generalized force on bar\.phi (a force, torque.*) is NaN at t=1\.0" "$T/e"'
    # shellcheck disable=SC2086
    run "$ND" $c --t-end 2 --quiet
    ok "nan_driver [$c]: exit 1, the driver 'spin' named" \
       '[ $rc -eq 1 ] && grep -q "non-finite value.*Phi\(/dt\)\{0,1\} of constraint spin (a driver.s function of time, or a joint.s equation) is [NI][an][Nf] at t=" "$T/e"'
done
run "$NT" --t-end 0.9 --quiet
ok "nan_torque to t=0.9 (before the NaN): runs, exit 0" '[ $rc -eq 0 ] && ! grep -q "non-finite" "$T/e"'

# ---- modal analysis: 0 degrees of freedom, a zero root
run "$SD" --analysis modal
ok "fully driven, modal: exit 0, modes=0, a note says 0 degrees of freedom, a CSV with its header only" \
   '[ $rc -eq 0 ] && grep -q " dof=0 .* modes=0 " "$T/o" && grep -q "note: no modes: the mechanism has 0 degrees of freedom" "$T/e" &&
    [ "$(wc -l <"$T/x.csv")" -eq 1 ] && head -1 "$T/x.csv" | grep -q ",mode,freq_hz,damping_ratio,phase$"'
BUILD=$BUILD RESULTS=$T/res scripts/run_analysis.sh anl_slider_driven modal >"$T/o" 2>"$T/e"; rc=$?
ok "run_analysis.sh (make run ANALYSIS=modal), fully driven: exit 0, says no modes, 0 degrees of freedom" \
   '[ $rc -eq 0 ] && grep -q "no modes: the mechanism has 0 degrees of freedom" "$T/o" && ! grep -q "no results" "$T/e"'
# a refused command line (an --input the model lacks): run_analysis.sh keeps the earlier results
mkdir -p "$T/res2"; echo old > "$T/res2/anl_damped_frequency.csv"; echo old > "$T/res2/anl_damped_frequency_bode.png"
BUILD=$BUILD RESULTS=$T/res2 scripts/run_analysis.sh anl_damped frequency --input blokc.x >"$T/o" 2>"$T/e"; rc=$?
ok "run_analysis.sh, frequency with a bad --input: exit 2, the earlier results left as they were" \
   '[ $rc -eq 2 ] && grep -q "refused its command line" "$T/e" && grep -q "invalid value .blokc.x. for --input" "$T/e" &&
    [ "$(cat "$T/res2/anl_damped_frequency.csv" "$T/res2/anl_damped_frequency_bode.png")" = "$(printf "old\nold")" ] && [ "$(ls -A "$T/res2" | wc -l)" -eq 2 ]'
run "$SP" --analysis modal --about initial
ok "free wheel, modal about initial: two zero roots, freq_hz=0 damping_ratio=0, growing=0" \
   '[ $rc -eq 0 ] && [ "$(grep -c "^mode=[12] freq_hz=0 damping_ratio=0$" "$T/o")" -eq 2 ] && grep -q " modes=2 growing=0 " "$T/o" &&
    ! grep -q "unstable" "$T/e"'
run "$IV" --analysis modal --about initial
ok "control, inverted pendulum about initial: real roots with damping_ratio 1 and -1, growing=1" \
   'grep -q "^mode=1 freq_hz=0.70482742[0-9] damping_ratio=1$" "$T/o" && grep -q "^mode=2 freq_hz=0.70482742[0-9] damping_ratio=-1$" "$T/o" &&
    grep -q " growing=1 " "$T/o"'

# ---- the adaptive trapezoid's sigma (docs/cli.md, "the adaptive trapezoid and the output grid"):
# re-referenced to 0 after every step, so sigma_norm is 0 after the t = 0 row; that row and
# max_sigma carry the start's sigma, which is not 0 on the parallelogram chain (8e-9): the docs
# said both "stay at 0"
PC=$BUILD/parallelogram_chain_sim
run "$PC" --t-end 0.2 --rtol 1e-7 --h 0.01 --quiet
ms=$(tr ' ' '\n' <"$T/o" | sed -n 's/^max_sigma=//p')
s0=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "sigma_norm") k = i; next } NR == 2 { print $k }' "$T/x.csv")
ok "adaptive trapezoid: sigma_norm 0 after the first row, max_sigma = the t = 0 row's ($s0, $ms) and not 0" \
   '[ $rc -eq 0 ] && [ -n "$s0" ] && [ "$s0" = "$ms" ] && awk "BEGIN { exit !($ms > 0) }" &&
    awk -F, "NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"sigma_norm\") k = i; next } NR > 2 && \$k + 0 != 0 { exit 1 } END { exit NR < 10 }" "$T/x.csv"'
ok "docs/cli.md no longer says the adaptive trapezoid's sigma_norm and max_sigma stay at 0" \
   '! tr "\n" " " <docs/cli.md | grep -q "sigma_norm. column and .max_sigma. stay at 0"'

# ---- a step input (docs/model-language.md, "Values that depend on time"): with events (the
# default) the runtime ends a step just before the switch and jumps it, so rk4 keeps its order
# (the error at h = 4e-3 over that at 2e-3 above 10: fourth order gives 16); with --no-events
# (the negative control) a step ends on the switch (t0 = 0.5 on the grid of both steps) and the
# error after it halves with h; dopri5 is accurate either way (its error control rejects steps
# at the switch without events). The error of hook.phi at t = 0.7 against dop853 at rtol 1e-12.
SC=$BUILD/step_crane_sim
last() { awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } END { print $k }' "$1"; }
"$SC" --formulation alf-explicit --integrator dop853 --rtol 1e-12 --atol 1e-12 --t-end 0.7 --every 0.7 --quiet --out "$T/ref.csv" >/dev/null 2>&1
ref=$(last "$T/ref.csv" hook.phi)
err() { awk -v a="$(last "$1" hook.phi)" -v r="$ref" 'BEGIN { d = a - r; print (d < 0 ? -d : d) }'; }
"$SC" --formulation alf-explicit --h 4e-3 --t-end 0.7 --every 1000 --out "$T/h1.csv" >"$T/o1" 2>/dev/null
"$SC" --formulation alf-explicit --h 2e-3 --t-end 0.7 --every 1000 --quiet --out "$T/h2.csv" >/dev/null 2>&1
"$SC" --formulation alf-explicit --h 4e-3 --t-end 0.7 --every 1000 --no-events --quiet --out "$T/n1.csv" >/dev/null 2>&1
"$SC" --formulation alf-explicit --h 2e-3 --t-end 0.7 --every 1000 --no-events --quiet --out "$T/n2.csv" >/dev/null 2>&1
"$SC" --formulation alf-explicit --integrator dopri5 --rtol 1e-8 --t-end 0.7 --every 0.7 --out "$T/d.csv" >"$T/o" 2>/dev/null
"$SC" --formulation alf-explicit --integrator dopri5 --rtol 1e-8 --t-end 0.7 --every 0.7 --no-events --out "$T/d0.csv" >"$T/o0" 2>/dev/null
e1=$(err "$T/h1.csv"); e2=$(err "$T/h2.csv"); n1=$(err "$T/n1.csv"); n2=$(err "$T/n2.csv")
ed=$(err "$T/d.csv"); ed0=$(err "$T/d0.csv")
ok "step input, rk4 with events: fourth order across the switch (error $e1 at h = 4e-3, $e2 at 2e-3: ratio above 10), events=1" \
   'grep -q " events=1 " "$T/o1" && awk -v a="$e1" -v b="$e2" "BEGIN { exit !(b > 0 && a / b > 10) }"'
ok "step input, rk4 --no-events (the switch on the grid): first order (error $n1 at h = 4e-3, $n2 at 2e-3: ratio 1.7..2.3, above 1e-6)" \
   'awk -v a="$n1" -v b="$n2" "BEGIN { exit !(b > 0 && a / b > 1.7 && a / b < 2.3 && b > 1e-6) }"'
ok "step input, dopri5 --rtol 1e-8: error $ed with events (events=1), $ed0 without (steps rejected at the switch), both below 1e-6" \
   'grep -q " events=1 " "$T/o" && grep -q " rejected=[1-9]" "$T/o0" && awk -v a="$ed" -v b="$ed0" "BEGIN { exit !(a < 1e-6 && b < 1e-6) }"'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
