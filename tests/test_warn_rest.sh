#!/usr/bin/env bash
# test_warn_rest.sh - warnings that are right on an ordinary plant (tests/models/yoke_hold.lua: a
# DC motor turning a Scotch yoke against a return spring, no gravity):
#  - at rest (V = 0, the spring at its rest length) no run warns: round-off motion of 1e-25 J is
#    below the energy test's rest floor (runtime/mb_monitor.c, rest_floor);
#  - holding the spring (V = 1, a held torque: sigma grows linearly for ever) no run warns: what
#    p = M v + Phi_q^T sigma loses of M v stays below the tolerance (warn_sigma 5e5);
#  - where it does not (a spring 1e6 x stiffer, k = 2e9, at h = 1e-5: M v 150 x smaller, the
#    ratio past 5e5 at t = 3.85 s, v 3.6e-8 of its scale off a --sigma-reset run's) the sigma
#    warning still comes alone (the energy balance holds to 2.3e-9 J), --strict fails the run;
#  - --estimate-error's second run and the accuracy companion run with the table's inputs;
#  - bdf's and the step-controlled trapezoid's accuracy estimates do not grow at rest (their
#    velocity error damped as the motor's).
# Ends with "N passed, N failed".  Usage: tests/test_warn_rest.sh   (BUILD=... for another build)
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
Y=$BUILD/yoke_hold_sim
T=$(mktemp -d "${TMPDIR:-/tmp}/test_warn_rest.XXXXXX"); trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
[ -x "$Y" ] || { echo "FAIL: $Y missing" >&2; echo "0 passed, 1 failed"; exit 1; }
sim() { timeout 120 "$@" --quiet >"$T/out" 2>"$T/err"; rc=$?; }
kv() { tr ' ' '\n' <"$T/out" | sed -n "s/^$1=//p"; }
printf 't,V\n0,1\n' >"$T/v1.csv"
# at rest: every formulation, the fixed and adaptive steps (baumgarte dopri5 is left out: its
# steps at rest move 7.5e-15 J, the error its atol allows, and it warns)
for a in "" "--h 1e-2" "--h 1e-4" "--integrator bdf" "--rtol 1e-8" "--formulation baumgarte" \
         "--formulation canonical" "--formulation alf-explicit" "--formulation canonical --integrator bdf" \
         "--formulation baumgarte --integrator hht"; do
    sim "$Y" $a --strict
    ok "at rest $a: no warning, --strict passes" '[ $rc -eq 0 ] && [ "$(kv warnings)" = 0 ] && ! grep -q warning "$T/err"'
done
# holding the spring
for a in "" "--t-end 20" "--formulation canonical" "--formulation alf-explicit"; do
    sim "$Y" --input-file "$T/v1.csv" $a --strict
    ok "holding $a: no warning, --strict passes" '[ $rc -eq 0 ] && [ "$(kv warnings)" = 0 ] && ! grep -q warning "$T/err"'
done
# the second runs get the table's inputs too: --estimate-error's (2e-8 off; at V = 0 it was 0.2)
# and the fixed steps' accuracy companion (the runs above would warn)
sim "$Y" --input-file "$T/v1.csv" --formulation canonical --estimate-error
ok "holding canonical --estimate-error: est_err_q $(kv est_err_q) < 1e-6" \
   '[ $rc -eq 0 ] && awk -v e="$(kv est_err_q)" "BEGIN { exit !(e + 0 < 1e-6 && e != \"\") }"'
# bdf (on alf-trapezoid) at rtol 1e-6, against baumgarte dop853 at 1e-11, rows every 0.01 s: its
# positions within their tolerance (crank.phi 3.6e-7 rad off, 0.2 x atol + rtol |phi|; the points
# 1.8e-8 m), the crank's rate 2.0e-5 rad/s off (2e-5 of its largest); its signed sum 0.93
# tolerances at 2 s, 1.5 from 10 s on (the sums of magnitudes read 20; the signed sum with its
# velocity error undamped 114 at 2 s, rising linearly): no warning; with --warn-accuracy 0.5
# the accuracy warning, the only one
sim "$Y" --input-file "$T/v1.csv" --integrator bdf
ok "holding, bdf: no warning, err_est $(kv err_est) below 5" \
   '[ "$(kv warnings)" = 0 ] && awk -v e="$(kv err_est)" "BEGIN { exit !(e + 0 > 0 && e + 0 < 5) }"'
sim "$Y" --input-file "$T/v1.csv" --integrator bdf --t-end 30
ok "holding 30 s, bdf: no warning, err_est $(kv err_est) below 5" \
   '[ "$(kv warnings)" = 0 ] && awk -v e="$(kv err_est)" "BEGIN { exit !(e + 0 > 0 && e + 0 < 5) }"'
sim "$Y" --input-file "$T/v1.csv" --integrator bdf --warn-accuracy 0.5
ok "holding, bdf --warn-accuracy 0.5: the accuracy warning only" '[ "$(kv warnings)" = 1 ] && grep -q "warning: accuracy:" "$T/err"'
# bdf's signed sum on baumgarte and canonical damps its velocity error where the forces damp
# (mb_bdf.c, acc_damping: here the motor's back-EMF, 4 ms): held 10 s at rest (the start's
# transient over by 0.1 s) it stays at what the transient left, 0.075 and 0.025 tolerances
# (the positions 0.016 and 0.004 off over 2 s against baumgarte dop853 at rtol 1e-12). Carried
# undamped it rose linearly, 9.3 and 14.8 at 2 s, 45.7 and 74.8 at 10 s, and warned.
for f in baumgarte canonical; do
    sim "$Y" --input-file "$T/v1.csv" --formulation $f --integrator bdf
    e2=$(kv err_est)
    sim "$Y" --input-file "$T/v1.csv" --formulation $f --integrator bdf --t-end 10
    ok "holding 10 s, $f bdf: no warning, err_est $(kv err_est) below 1, within 1.5 x of 2 s's $e2" \
       '[ $rc -eq 0 ] && [ "$(kv warnings)" = 0 ] && awk -v a="$(kv err_est)" -v b="$e2" "BEGIN { exit !(a + 0 > 0 && a + 0 < 1 && a + 0 <= 1.5 * b) }"'
done
# the step-controlled trapezoid's signed sum likewise (mb_trapezoid_control.c, trap_acc: the
# velocity error tangent to the constraints, damped as the motor damps it; at rest the steps
# grow to 50 s). At rtol 1e-6 it reads what the start's transient left, 24.0
# tolerances at 2 s and 24.7 from 5 s on (the positions 3.3 tolerances off over 2 s against
# baumgarte dop853 at rtol 1e-12), and stays there: held 1000 s, within 1.02 x of its 10 s
# value, silent. With the carried sums not taken into the tangent space the crank pin's stale
# normal part rose linearly (585 at 1000 s).
sim "$Y" --input-file "$T/v1.csv" --rtol 1e-6 --t-end 10
e2=$(kv err_est)
sim "$Y" --input-file "$T/v1.csv" --rtol 1e-6 --t-end 1000
ok "holding 1000 s, the step-controlled trapezoid: no warning, err_est $(kv err_est) within 1.02 x of 10 s's $e2" \
   '[ $rc -eq 0 ] && [ "$(kv warnings)" = 0 ] && awk -v a="$(kv err_est)" -v b="$e2" "BEGIN { exit !(a + 0 > 0 && a + 0 <= 1.02 * b) }"'
# the held load loses digits of M v: a stiff spring (k = 2e9) held for 6 s
S="--input-file $T/v1.csv --set k=2e9 --h 1e-5 --t-end 6 --every 1000"
sim "$Y" $S
ok "stiff spring held 6 s: the sigma warning alone" '[ "$(kv warnings)" = 1 ] && grep -q "warning: sigma: first at t=3\.8.*x the momentum scale .*(threshold 5e+05)" "$T/err"'
sim "$Y" $S --strict
ok "stiff spring held 6 s --strict: fails" '[ $rc -eq 1 ]'
sim "$Y" $S --sigma-reset 1
ok "stiff spring with --sigma-reset 1: quiet" '[ $rc -eq 0 ] && [ "$(kv warnings)" = 0 ] && [ "$(kv sigma_resets)" -gt 100 ]'
# the energy test still arms from this rest: the stiff spring at h = 1e-3 (h omega = 60, its
# energy balance 28 % off from t = 0.012 s)
sim "$Y" --input-file "$T/v1.csv" --set k=2e9 --t-end 0.1
ok "stiff spring at h = 1e-3: energy warning" 'grep -q "warning: energy: first at t=0.01" "$T/err"'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
