#!/usr/bin/env bash
# test_accuracy_warning.sh - the accuracy warning of dopri5 and dop853 (issue 29, item 4) and of
# the extrapolated trapezoid (alf-trapezoid --extrapolate): their companion at twice the step
# (mb_rk.c, ge_step; mb_trapezoid_control.c, xge_step) warns on a run far off its tolerance that
# was silent without it, stays silent on an accurate run, leaves the run's own steps bit for bit
# as they are without it (--warn-accuracy 0), and costs about half the run's evaluations (the
# trapezoid: Newton iterations); dopri5's and dop853's also where the stabilization's stability
# limit holds the run's step (baumgarte at rtol 1e-4), and the run's last steps, compared at its
# end (mb_sim_finish). The actual error against a dop853 run at
# rtol 1e-12. bdf's estimate (baumgarte, canonical): silent on the parallelogram chain within
# rtol, warned on the pendulum far off; on Andrews within 3 x the actual error. The
# extrapolated trapezoid's on the parallelogram chain's singular passages (its energy balance,
# xge_energy). Ends with "N passed, N failed".
# Usage: tests/test_accuracy_warning.sh   (BUILD=build/san for the sanitizer builds)
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
PE=$BUILD/pendulum_sim
T=$(mktemp -d "${TMPDIR:-/tmp}/test_accuracy_warning.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
[ -x "$PE" ] || { echo "FAIL: $PE missing" >&2; echo "0 passed, 1 failed"; exit 1; }
kv() { tr ' ' '\n' <"$T/out" | sed -n "s/^$1=//p"; }
sim() { timeout 300 "$PE" "$@" --quiet >"$T/out" 2>"$T/err"; rc=$?; }
warned() { grep -q "warning: accuracy:" "$T/err"; }
# qdiff A.csv B.csv: the largest |A - B| over the coordinate columns (after t, up to energy_dev)
# at the rows of equal t
qdiff() {
    awk -F, 'FNR == 1 { for (i = 2; i <= NF && $i != "energy_dev"; i++) nq = i; next }
        NF < 3 { next }
        FILENAME == ARGV[1] { for (i = 2; i <= nq; i++) R[sprintf("%.6f", $1), i] = $i; next }
        { k = sprintf("%.6f", $1); if (!((k, 2) in R)) next; n++
          for (i = 2; i <= nq; i++) { d = $i - R[k, i]; if (d < 0) d = -d; if (d > m) m = d } }
        END { printf "%.3e", n ? m : -1 }' "$1" "$2"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3g", a / b }'; }
above() { awk -v a="$1" -v b="$2" -v f="${3:-1}" 'BEGIN { exit !(a > f * b) }'; }   # a > f b

TE=100
COMMON="--t-end $TE --every 0.5"
sim --formulation baumgarte --integrator dop853 --rtol 1e-12 --atol 1e-12 $COMMON --out "$T/ref.csv"
ok "reference (dop853 rtol 1e-12): ok" '[ $rc -eq 0 ]'

# a run far off its tolerance: silent without the companion, warned with it
R=1e-6
RUN="--formulation canonical --integrator dopri5 --rtol $R --atol $R $COMMON"
# shellcheck disable=SC2086
sim $RUN --warn-accuracy 0 --out "$T/off.csv"
e_off=$(kv evals)
act=$(qdiff "$T/ref.csv" "$T/off.csv")
ok "canonical dopri5 rtol $R: $act off, $(ratio "$act" $R) x rtol (> 100: a miss if silent)" \
   '[ $rc -eq 0 ] && above "$act" $R 100'
ok "without the companion (--warn-accuracy 0): silent, warnings=0" '[ "$(kv warnings)" = 0 ] && ! warned'
# shellcheck disable=SC2086
sim $RUN --out "$T/on.csv"
e_on=$(kv evals)
ok "with it (the default): the accuracy warning ($(grep -o 'warning: accuracy: first at t=[^:]*' "$T/err"))" \
   '[ $rc -eq 0 ] && warned'
ok "with it: the run's rows are the same file (its steps bit for bit)" 'cmp -s "$T/off.csv" "$T/on.csv"'
ok "with it: $e_on evaluations against $e_off, 1.3 .. 1.7 x (the companion: half the run's)" \
   'above "$e_on" "$e_off" 1.3 && ! above "$e_on" "$e_off" 1.7'
# shellcheck disable=SC2086
sim $RUN --strict --out "$T/strict.csv"
ok "with --strict: the run stops at the warning (exit non-zero)" '[ $rc -ne 0 ]'

# an accurate run: no warning
R=1e-8
# shellcheck disable=SC2086
sim --formulation baumgarte --integrator dop853 --rtol $R --atol $R $COMMON --out "$T/acc.csv"
act=$(qdiff "$T/ref.csv" "$T/acc.csv")
ok "baumgarte dop853 rtol $R: $act off, $(ratio "$act" $R) x rtol (<= 10)" '[ $rc -eq 0 ] && ! above "$act" $R 10'
ok "baumgarte dop853 rtol $R: no accuracy warning" '! warned'

# runs whose step the stabilization's stability limit holds (baumgarte at rtol 1e-4: the
# companion's step of 2h would be unstable; it takes it with omega scaled to the run's h lambda
# and counts its new difference as the run's error): far off, warned, their rows unchanged
R=1e-4
for I in dopri5 dop853; do
    # shellcheck disable=SC2086
    sim --formulation baumgarte --integrator $I --rtol $R --atol $R $COMMON --out "$T/held.csv"
    act=$(qdiff "$T/ref.csv" "$T/held.csv")
    ok "baumgarte $I rtol $R (step held by stability): $act off, $(ratio "$act" $R) x rtol (> 100)" \
       '[ $rc -eq 0 ] && above "$act" $R 100'
    ok "baumgarte $I rtol $R: the accuracy warning ($(grep -o 'estimated at [^ ]* tolerances' "$T/err"))" 'warned'
    # shellcheck disable=SC2086
    sim --formulation baumgarte --integrator $I --rtol $R --atol $R $COMMON --warn-accuracy 0 --out "$T/held0.csv"
    ok "baumgarte $I rtol $R: the run's rows the same file with --warn-accuracy 0" 'cmp -s "$T/held.csv" "$T/held0.csv"'
done

# the run's last steps (mb_sim_finish): a run of two steps, whose only pair the companion used to
# compare at the start of a third step that never came, has an estimate (a tiny threshold shows
# it); with --strict that warning ends the run non-zero
sim --formulation canonical --integrator dopri5 --rtol 1e-4 --atol 1e-4 --h 0.05 --t-end 0.2 --warn-accuracy 1e-6
ok "a run of $(kv steps) steps (rtol 1e-4, 0.2 s): its pair compared at its end ($(grep -o 'accuracy: first at t=[^:]*' "$T/err"))" \
   '[ $rc -eq 0 ] && [ "$(kv steps)" = 2 ] && grep -q "warning: accuracy: first at t=0.2:" "$T/err"'
sim --formulation canonical --integrator dopri5 --rtol 1e-4 --atol 1e-4 --h 0.05 --t-end 0.2 --warn-accuracy 1e-6 --strict
ok "the same with --strict: exit non-zero" '[ $rc -ne 0 ]'

# the extrapolated trapezoid: the same on its companion (its step control's estimate is of the
# plain trapezoid's y4, and it had no accuracy warning)
X="--formulation alf-trapezoid --extrapolate"
R=1e-4
# shellcheck disable=SC2086
sim $X --rtol $R --atol $R $COMMON --warn-accuracy 0 --out "$T/xoff.csv"
n_off=$(kv newton_iters)
act=$(qdiff "$T/ref.csv" "$T/xoff.csv")
ok "extrapolated trapezoid rtol $R: $act off, $(ratio "$act" $R) x rtol (> 100: a miss if silent)" \
   '[ $rc -eq 0 ] && above "$act" $R 100'
ok "without the companion (--warn-accuracy 0): silent" '[ "$(kv warnings)" = 0 ] && ! warned'
# shellcheck disable=SC2086
sim $X --rtol $R --atol $R $COMMON --out "$T/xon.csv"
n_on=$(kv newton_iters)
ok "with it: the accuracy warning ($(grep -o 'warning: accuracy: first at t=[^:]*' "$T/err"))" \
   '[ $rc -eq 0 ] && warned'
ok "with it: the run's rows are the same file (its steps bit for bit)" 'cmp -s "$T/xoff.csv" "$T/xon.csv"'
ok "with it: $n_on Newton iterations against $n_off, 1.3 .. 2 x (the companion: half the run's macro steps)" \
   'above "$n_on" "$n_off" 1.3 && ! above "$n_on" "$n_off" 2'
# the run's rows bit for bit on Andrews too (its default rows every h, 0.03 s; silent at 1e-6)
AN=$BUILD/andrews_sim
for R in 1e-4 1e-6; do
    # shellcheck disable=SC2086
    timeout 300 "$AN" $X --rtol $R --atol $R --quiet --out "$T/aon.csv" >"$T/out" 2>"$T/err"
    r1=$? s1=$(kv steps)
    # shellcheck disable=SC2086
    timeout 300 "$AN" $X --rtol $R --atol $R --warn-accuracy 0 --quiet --out "$T/aoff.csv" >"$T/out" 2>/dev/null
    r2=$?
    ok "andrews --extrapolate rtol $R: the same rows with and without the companion ($s1 steps)" \
       '[ $r1 -eq 0 ] && [ $r2 -eq 0 ] && [ "$(kv steps)" = "$s1" ] && cmp -s "$T/aon.csv" "$T/aoff.csv"'
done
# through singular positions: the chain N = 2 at rtol 1e-9 (20 s, a passage about every second)
# is 200 x rtol off the exact reference (tests/accuracy/ref_chain.c: its crank tips). The
# macro steps that cross a passage kick the run's energy by amounts that do not scale as H^4,
# and the companion's by others: only with the run's energy balance carried over to the
# companion (2^p times its change, xge_energy) does it warn (silent before, estimate < 10)
XC=$BUILD/parallelogram_chain_sim
R=1e-9
"$BUILD/ref_chain" 20 0.5 2 >"$T/rchain.csv"
# shellcheck disable=SC2086
timeout 300 "$XC" $X --rtol $R --atol $R --t-end 20 --every 0.5 --quiet --out "$T/xc.csv" >"$T/out" 2>"$T/err"; rc=$?
act=$(awk -F, 'FNR == 1 { if (NR == 1) { for (i = 2; i <= NF; i++) rc[$i] = i } else for (i = 1; i <= NF; i++) sc[$i] = i; next }
    NR == FNR { k = sprintf("%.6f", $1); for (c in rc) R[k, c] = $(rc[c]); next }
    { k = sprintf("%.6f", $1); if (!((k, "crank0.B.x") in R)) next
      for (c in rc) if (c ~ /\.x$/) { b = substr(c, 1, length(c) - 2); dx = $(sc[c]) - R[k, c]; dy = $(sc[b ".y"]) - R[k, b ".y"]
          d = sqrt(dx * dx + dy * dy); if (d > m) m = d } }
    END { printf "%.3e", m }' "$T/rchain.csv" "$T/xc.csv")
ok "chain N = 2 --extrapolate rtol $R, 20 s: $act off, $(ratio "$act" $R) x rtol (> 100)" '[ $rc -eq 0 ] && above "$act" $R 100'
ok "chain N = 2 --extrapolate rtol $R: the accuracy warning ($(grep -o 'warning: accuracy: first at t=[^:]*' "$T/err"))" 'warned'
# shellcheck disable=SC2086
timeout 300 "$XC" $X --rtol $R --atol $R --t-end 20 --every 0.5 --warn-accuracy 0 --quiet --out "$T/xc0.csv" >"$T/out" 2>/dev/null
ok "chain N = 2 --extrapolate rtol $R: the same rows without the companion" 'cmp -s "$T/xc.csv" "$T/xc0.csv"'
R=1e-6
# shellcheck disable=SC2086
sim $X --rtol $R --atol $R --t-end 20 --every 0.5 --out "$T/xacc.csv"
act=$(qdiff "$T/ref.csv" "$T/xacc.csv")
ok "extrapolated trapezoid rtol $R, 20 s: $act off, $(ratio "$act" $R) x rtol (<= 10)" \
   '[ $rc -eq 0 ] && ! above "$act" $R 10'
ok "extrapolated trapezoid rtol $R, 20 s: no accuracy warning" '! warned'
# bdf (baumgarte, canonical): the positions' error its steps' local errors add up to, in rtol
# (mb_bdf.c, acc_step). Within rtol up to the chain's first singular position (0.714 s): silent (in its
# error test's tighter tolerance the sum passed 10 at 0.07 .. 0.41 s); far off: warned.
CH=$BUILD/parallelogram_chain_sim
CC="--t-end 0.6 --every 0.1"
# shellcheck disable=SC2086
timeout 300 "$CH" --formulation baumgarte --integrator dop853 --rtol 1e-12 --atol 1e-12 $CC --out "$T/chref.csv" --quiet >/dev/null 2>&1
ok "chain reference (dop853 rtol 1e-12): written" '[ -s "$T/chref.csv" ]'
for f in baumgarte canonical; do
    for R in 1e-6 1e-10; do
        # shellcheck disable=SC2086
        timeout 300 "$CH" --formulation $f --integrator bdf --rtol $R --atol $R --h 1e-3 $CC --out "$T/ch.csv" --quiet >"$T/out" 2>"$T/err"; rc=$?
        act=$(qdiff "$T/chref.csv" "$T/ch.csv")
        ok "chain N = 2 $f bdf rtol $R to 0.6 s: $act off, $(ratio "$act" $R) x rtol (<= 10), no accuracy warning" \
           '[ $rc -eq 0 ] && ! above "$act" $R 10 && [ "$(kv warnings)" = 0 ] && ! warned'
    done
done
R=1e-6
for f in baumgarte canonical; do
    # shellcheck disable=SC2086
    sim --formulation $f --integrator bdf --rtol $R --atol $R $COMMON --out "$T/bdf.csv"
    act=$(qdiff "$T/ref.csv" "$T/bdf.csv")
    ok "pendulum $f bdf rtol $R: $act off, $(ratio "$act" $R) x rtol (> 100), warned" \
       '[ $rc -eq 0 ] && above "$act" $R 100 && warned'
done

# bdf on baumgarte and canonical adds the local errors up with their signs, the velocity errors'
# part tangent to the constraints (mb_bdf.c, acc_step): on Andrews' squeezer (0.03 s) the sum of
# their magnitudes read 10 .. 39 tolerances (2 .. 10 x the angles' actual error: warned). The
# estimate by the end (--warn-accuracy 0.01 prints it) against the 7 angles' error at t = 0.03 s
# in the run's own tolerance, max |d| / (R (1 + |ref|)), the references Hairer & Wanner's test
# set values: within a factor of 3 of it (the largest of the 21 coordinates' errors against
# the largest angle's) and below the default threshold 10.
AN=$BUILD/andrews_sim
AREF="0.1581077119629904e+2 -0.1575637105984298e+2 0.4082224013073101e-1 -0.5347301163226948e+0 0.5244099658805304e+0 0.5347301163226948e+0 0.1048080741042263e+1"
for FR in "baumgarte 1e-6" "baumgarte 1e-8" "canonical 1e-6" "canonical 1e-8"; do
    read -r f R <<<"$FR"
    timeout 300 "$AN" --formulation $f --integrator bdf --rtol $R --atol $R --h 1e-3 --every 0.01 --t-end 0.03 \
        --warn-accuracy 0.01 --out "$T/an.csv" --quiet >"$T/out" 2>"$T/err"; rc=$?
    est=$(sed -n 's/.*warning: accuracy:.*; \([0-9.e+-]*\) by the end.*/\1/p' "$T/err" | head -1)
    act=$(awk -F, -v ref="$AREF" -v R=$R 'BEGIN { split(ref, F, " ") }
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { for (i in c) v[i] = $(c[i]) }
        END { hp = 1.57079632679489661923
            a[1] = v["OF.phi"]; a[2] = v["EF.phi"] - v["OF.phi"]; a[3] = v["EBD.phi"]
            a[4] = v["GE.phi"] + hp - v["AG.phi"]; a[5] = v["AG.phi"]; a[6] = v["HE.phi"] - v["AH.phi"] - hp
            a[7] = v["AH.phi"] + hp
            for (i = 1; i <= 7; i++) { d = a[i] - F[i]; if (d < 0) d = -d; r = F[i] < 0 ? -F[i] : F[i]
                d /= R * (1 + r); if (d > m) m = d }
            printf "%.3g", m }' "$T/an.csv")
    ok "Andrews $f bdf rtol $R: estimate ${est:-none} by the end, the angles $act tolerances off: within 3 x, below 10" \
       '[ $rc -eq 0 ] && [ -n "$est" ] && ! above "$act" "$est" 3 && ! above "$est" "$act" 3 && ! above "$est" 10'
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
