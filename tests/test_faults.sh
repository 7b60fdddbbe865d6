#!/usr/bin/env bash
# test_faults.sh - runtime faults in the simulator: Newton non-convergence, dopri5 step-size
# underflow, the step limit, NaN/Inf in the state, assembly failure, a singular system, and
# Newton stalled at round-off (accepted, not a fault). Each fault must stop with exit
# 1, a message naming the status, the time, the step, h and the size of what failed, a
# status=error summary, and a CSV that is still valid (header + complete, finite rows, none past
# the fault); a fault before the first row (a failed assembly) leaves no CSV and no .csv.info. Usage: tests/test_faults.sh   (BUILD=build/san for the sanitizer builds)
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
A=$BUILD/andrews_sim FX=$BUILD/fixture_pendulum_sim FB=$BUILD/fourbar_singular_sim
NA=$BUILD/fault_noassembly_sim VC=$BUILD/fault_velconflict_sim BU=$BUILD/fault_blowup_sim SP=$BUILD/fault_spin_sim
ZS=$BUILD/fault_zerospring_sim HK=$BUILD/fault_hugek_sim
T=$(mktemp -d "${TMPDIR:-/tmp}/test_faults.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0 fail=0 faults=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
for b in "$A" "$FX" "$FB" "$NA" "$VC" "$BU" "$SP" "$ZS" "$HK"; do
    [ -x "$b" ] || { echo "FAIL: $b missing" >&2; echo "0 passed, 1 failed"; exit 1; }
done

# fault NAME CODE "TEXT1|TEXT2|..." SIM ARGS...: one faulting run and its checks (norows=1: a
# fault before the first row; then no CSV, no .csv.info and no temporary may be left)
norows=0
fault() {
    local name=$1 code=$2 texts=$3 csv=$T/$1.csv; shift 3
    faults=$((faults + 1))
    timeout 120 "$@" --quiet --out "$csv" >"$T/out" 2>"$T/err"
    local rc=$? msg
    msg=$(grep -v -m 1 "warning: " "$T/err")   # the fault's line (warnings may come first)
    if [ $rc -ne 1 ]; then bad "$name: exit $rc, expected 1: $msg"; return; fi
    if grep -q "runtime error:\|AddressSanitizer\|LeakSanitizer" "$T/err"; then bad "$name: sanitizer report"; fi
    local IFS='|' t
    for t in $texts; do
        [[ "$msg" == *"$t"* ]] || bad "$name: message lacks '$t': $msg"
    done
    unset IFS
    if grep -q "^status=error code=$code " "$T/out" && [ "$(wc -l <"$T/out")" -eq 1 ]; then ok
    else bad "$name: summary: $(cat "$T/out")"; fi
    # the CSV: header, complete rows of finite numbers, time increasing, none after the fault
    if [ "$norows" = 1 ]; then
        if [ -e "$csv" ] || [ -e "$csv.info" ]; then bad "$name: a CSV or .csv.info without a row: $(ls "$T")"; else ok; fi
        if compgen -G "$csv.tmp*" >/dev/null; then bad "$name: temporary file left"; else ok; fi
        grep -q "no CSV row was computed: --out $csv not written" "$T/err" && ok || bad "$name: no message about --out: $(cat "$T/err")"
        return
    fi
    local tf
    tf=$(printf '%s\n' "$msg" | sed -n 's/.* at t=\([^ ]*\) .*/\1/p')
    [ -n "$tf" ] || tf=0
    if [ -s "$csv" ] && head -n 1 "$csv" | grep -q '^t,' &&
       awk -F, -v tf="$tf" 'NR == 1 { n = NF; next }
            NF != n { exit 1 }
            { for (i = 1; i <= NF; i++) if ($i !~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/) exit 2
              if (NR > 2 && $1 <= last) exit 3
              if ($1 > tf * (1 + 1e-12)) exit 4
              last = $1 }' "$csv"; then ok
    else bad "$name: CSV not valid (awk status $?): $(tail -n 1 "$csv" | cut -c 1-120)"; fi
    if compgen -G "$csv.tmp*" >/dev/null; then bad "$name: temporary file left"; else ok; fi
}

# Newton: one iteration with --strict on Andrews; a step of 10 s on the pendulum diverges
fault newton_strict -8 "Newton iteration|t=0 |step 1,|h=1e-05|max_iter 1|Newton matrix 21 x 21" \
    "$A" --max-iter 1 --strict --t-end 0.001
fault newton_diverge -8 "Newton iteration diverged|step 1,|h=10 s|Newton matrix 6 x 6" \
    "$FX" --h 10 --t-end 100
fault newton_late -8 "Newton iteration|step |h=0.05 s|Newton matrix 9 x 9" \
    "$FB" --h 0.05 --t-end 5 --max-iter 2 --strict

# dopri5 step-size underflow with tolerances no step can meet, F1-F3
for f in baumgarte canonical alf-explicit; do
    fault "underflow_$f" -9 "step size underflow|step 1,|fell below its minimum|rtol 1e-300" \
        "$A" --formulation $f --integrator dopri5 --rtol 1e-300 --atol 1e-300 --t-end 0.001
done

# the step limit: a pendulum spun by a torque exp(20 t) never overflows, dopri5 only shrinks its
# step (2e-7 s at t = 0.8); before the limit existed this ran for hours. And a fixed-step run.
for f in baumgarte canonical alf-explicit; do
    fault "spin_$f" -12 "step limit reached (max_steps)|step 50001, after 50000 accepted|max_steps 50000 (--max-steps)|rejected" \
        "$SP" --formulation $f --integrator dopri5 --h 0.01 --t-end 5 --max-steps 50000
done
fault maxsteps_rk4 -12 "step limit reached|t=0.01 |step 11,|max_steps 10 " \
    "$FX" --formulation baumgarte --max-steps 10 --t-end 1

# NaN/Inf in the state: a force exp(1000 t) overflows; every formulation and integrator. The
# energies overflow first (T = m v^2 / 2 at |v| 1.3e154, q and v still finite): that step is
# undone (bdf on F1, F2 too: before, it went on to t = 0.71 with energy_dev NaN and ended in a
# step size underflow; bdf on F4 refuses the step before accepting it: before, it crept on to
# t = 0.397 in 74607 steps)
for f in baumgarte canonical alf-explicit alf-trapezoid; do
    for i in rk4 dopri5 bdf; do
        [ $f = alf-trapezoid ] && { [ $i = rk4 ] && i=trapezoid; [ $i = dopri5 ] && continue; }
        [ $f = alf-explicit ] && [ $i = bdf ] && continue
        fault "blowup_${f}_$i" -5 "non-finite|t=0.35|step |h=|max |q| = |3 coordinates" \
            "$BU" --formulation $f --integrator $i --t-end 2
    done
done

# assembly: a chain that cannot close, a four-bar given two velocities it cannot both meet (the
# message names both and the constraint left unmet); no row, so no CSV (not a header alone)
norows=1
for f in baumgarte canonical alf-explicit alf-trapezoid; do
    fault "noassembly_$f" -6 "assembly at t=0 failed|position assembly did not converge|constraint T.|6 constraints in 6 coordinates" \
        "$NA" --formulation $f
    fault "velconflict_$f" -7 "assembly at t=0 failed|velocity assembly failed|crank.phi = 3, rocker.phi = 50 cannot all hold|at constraint |8 constraints in 9 coordinates" \
        "$VC" --formulation $f --t-end 0.1
done
norows=0
# an earlier CSV at --out is left as it was (the rename that would replace it never happens)
echo old > "$T/keep.csv"
"$VC" --quiet --out "$T/keep.csv" >/dev/null 2>&1
[ "$(cat "$T/keep.csv")" = old ] && [ ! -e "$T/keep.csv.info" ] && ok || bad "a failed assembly touched an earlier --out"

# a redundant joint (tests/models/fault_redundant.lua: two revolute joints at one point): F1/F2
# stop at their first evaluation and name the repeated joint, on the plan's kernels, on KLU and
# on the dense reference; F4 runs (its matrix stays definite); no row, so no CSV
RD=$BUILD/fault_redundant_sim
norows=1
for f in baumgarte canonical; do
    for ls in sparse klu dense; do
        fault "redundant_${f}_$ls" -3 "start-up|rank loss|redundant or singular constraint: A2." \
            "$RD" --formulation $f --linsys $ls --t-end 0.1
    done
done
norows=0
"$RD" --formulation alf-trapezoid --t-end 0.1 --quiet >"$T/out" 2>"$T/err" && grep -q "^status=ok" "$T/out" && ok \
    || bad "redundant alf-trapezoid: $(cat "$T/err" "$T/out")"

# a singular system: the parallelogram four-bar reaches its collinear position at t = 0.375; rk4
# lands on it (h = 1e-3), dopri5 is made to by ending its run there (its steps are not clipped
# to the output grid: elsewhere they may step past it). The constraint named is one of the
# dependent set there, the joints' x equations (all four links on the x axis: the self-stress
# is a tension along it): the last of them in the factorization's order, A.x in the plan's
# (AMD: O2, B, O1, A) and in KLU's (its AMD order of S: O2, B, O1, A.y, A.x; it named A.y
# with canonical rk4 and baumgarte dopri5, and canonical dopri5 went through, while it pivoted
# off S's diagonal), O2.x in the dense reference's (the equations' order).
for f in baumgarte canonical; do
    for i in rk4 dopri5; do
        for ls in sparse klu dense; do
            te=1; [ $i = dopri5 ] && te=0.375
            fault "singular_${f}_${i}_$ls" -3 "rank loss|t=0.37|Phi_q M^-1 Phi_q^T 8 x 8|redundant or singular constraint: |pivot ratio" \
                "$FB" --formulation $f --integrator $i --h 1e-3 --t-end $te --linsys $ls
            grep -q "redundant or singular constraint: \(O1\|A\|B\|O2\)\.x (equation [0246] of Phi)" "$T/err" && ok ||
                bad "singular_${f}_${i}_$ls: the constraint named is not one of the dependent x equations: $(cat "$T/err")"
        done
    done
done
# (KLU passed the projection's rank loss unseen while it pivoted off S's diagonal)
for ls in sparse klu dense; do
    fault "singular_projection_$ls" -3 "rank loss|velocity projection|redundant or singular constraint: " \
        "$FB" --formulation baumgarte --project-velocity --h 1e-3 --t-end 1 --linsys $ls
done

# the formulation meant for singular positions passes it (no fault: the control case)
timeout 120 "$FB" --formulation alf-explicit --h 1e-3 --t-end 1 --quiet --out "$T/pass.csv" >"$T/out" 2>&1
if [ $? -eq 0 ] && grep -q "^status=ok" "$T/out"; then ok; else bad "alf-explicit through the singular position: $(cat "$T/out")"; fi

# tol below round-off with the largest max-iter: Newton stops when its corrections stall at
# rounding noise and accepts the step (newton_roundoff), also with --strict; no 1000 iterations
# per step (about 10 per step measured)
timeout 120 "$FX" --tol 1e-300 --max-iter 1000 --strict --t-end 1 --quiet >"$T/out" 2>&1
if [ $? -eq 0 ] && grep -q "^status=ok .* steps=1000 .* newton_roundoff=1000 " "$T/out" &&
   [ "$(sed -n 's/.* newton_iters=\([0-9]*\) .*/\1/p' "$T/out")" -lt 30000 ]; then ok
else bad "Newton at round-off: $(cat "$T/out")"; fi

# a spring of rest length 0 reaching its equilibrium: the length decays past 1e-162 (where
# sqrt(dx*dx + dy*dy) underflowed to 0 and gave NaN) to exactly 0; hypot and a zero direction
# at length 0 keep every formulation and both evaluators running to the end, with finite rows
for ev in generated generic; do
    for f in baumgarte canonical alf-explicit alf-trapezoid; do
        timeout 120 "$ZS" --eval $ev --formulation $f --h 1e-3 --t-end 8 --every 100 --quiet \
            --out "$T/zs.csv" >"$T/out" 2>"$T/err"
        if [ $? -eq 0 ] && grep -q "^status=ok" "$T/out" && ! grep -qi "nan\|inf" "$T/zs.csv" &&
           ! grep -q "runtime error:\|AddressSanitizer" "$T/err" &&
           tail -n 1 "$T/zs.csv" | grep -q '^8,'; then ok
        else bad "zero-length spring, $ev $f: $(cat "$T/out" "$T/err" | head -c 300) $(tail -n 1 "$T/zs.csv" | cut -c 1-80)"; fi
    done
done

# a CSV never holds NaN or Inf: k = 1e308 makes energy_dev NaN from t = 0; the row is not written
# (a warning names it), the run faults, no CSV is left (it would be the header alone)
for f in alf-trapezoid canonical; do
    timeout 120 "$HK" --formulation $f --quiet --out "$T/hk.csv" >"$T/out" 2>"$T/err"
    rc=$?
    if [ $rc -eq 1 ] && [ ! -e "$T/hk.csv" ] && [ ! -e "$T/hk.csv.info" ] && grep -q "no CSV row was computed" "$T/err" &&
       grep -q "CSV row at t=0 not written: energy_dev is not a finite number" "$T/err" &&
       grep -q "^status=error" "$T/out"; then ok
    else bad "k = 1e308, $f: exit $rc: $(cat "$T/err") $(ls "$T")"; fi
done

echo "runtime faults provoked: $faults"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
