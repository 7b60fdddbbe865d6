#!/usr/bin/env bash
# validate_accuracy.sh - make validate-accuracy (issue 29): every integrator and formulation pair
# against exact references (tests/accuracy/ref_*.c, long double, independent of the runtime):
# error against rtol (adaptive pairs) and against h (fixed-step pairs), log-log slope and C,
# status and warnings of every run, the warnings' false alarms and misses, the goals, and the
# issue's findings re-measured. Writes results/accuracy.txt (RESULTS, OUT) and the raw runs
# next to it (accuracy.runs). Never a test: it reports, it does not pass or fail.
# Usage: scripts/validate_accuracy.sh (after make validate-accuracy's builds); QUICK=1 a
# few-minute subset; ACC_TIMEOUT=S the limit of one run (default 300 s; a run cut there is
# reported as "timeout"); ACC_PROBLEMS="pend chain2 ..." only those problems; ACC_FINDINGS=0
# without the issue's findings, =only those (with ACC_PROBLEMS="chain10 chain40": their
# references); ACC_REPORT_ONLY=1 only the report, from an existing $OUT.runs (e.g. the runs of
# several of those invocations concatenated); ACC_PAIRS=RE only the pairs whose label matches the
# extended regular expression RE; ACC_RTOLS="1e-6 1e-8" those tolerances; ACC_FIXED=0 no
# fixed-step runs; ACC_PROBLEMS="slider_crank jansen valve_train walker" the four models the
# warnings' thresholds are also checked on (OTHERS below; only when named).
set -u
cd "$(dirname "$0")/.."
B=${BUILD:-build}
RES=${RESULTS:-results}
OUT=${OUT:-$RES/accuracy.txt}
QUICK=${QUICK:-0}
TO=${ACC_TIMEOUT:-300}
T=$(mktemp -d "${TMPDIR:-/tmp}/accuracy.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$RES"
RUNS=$OUT.runs        # one line per run (fields below), written as the runs go
FINDINGS=${ACC_FINDINGS:-1}
ONLY=${ACC_REPORT_ONLY:-0}
[ "$ONLY" = 1 ] || : >"$RUNS"

# ---------------------------------------------------------------- the problems
# id | simulator | reference command (T_END DT appended) | adaptive span | output interval |
# length scale (m: the mechanism's size, the yardstick of err) | fixed-step span | fixed steps
if [ "$QUICK" = 1 ]; then
    RTOLS="1e-4 1e-6 1e-8"
    PROBLEMS=(
      "pend|acc_pendulum_sim|ref_pendulum|236.8|0.4|1|20|1e-3 1e-4"
      "chain2|parallelogram_chain_sim|ref_chain 2|20|0.1|2|20|1e-3 1e-4"
      "chain10|parallelogram_chain_N10_sim|ref_chain 10|20|0.1|10|5|1e-3"
      "crank|acc_crank_rocker_sim|ref_crank_rocker|100|0.1|0.4|20|1e-3 1e-4"
      "andrews|andrews_sim|-|0.03|5e-4|-|0.03|1e-5 1e-6")
else
    RTOLS="1e-4 1e-5 1e-6 1e-7 1e-8 1e-9 1e-10"
    PROBLEMS=(
      "pend|acc_pendulum_sim|ref_pendulum|2368|1|1|100|1e-3 1e-4 1e-5"
      "chain2|parallelogram_chain_sim|ref_chain 2|20|0.1|2|20|1e-3 1e-4 1e-5"
      "chain10|parallelogram_chain_N10_sim|ref_chain 10|20|0.1|10|20|1e-3 1e-4"
      "chain40|parallelogram_chain_N40_sim|ref_chain 40|20|0.1|40|20|1e-3 1e-4"
      "crank|acc_crank_rocker_sim|ref_crank_rocker|100|0.1|0.4|100|1e-3 1e-4 1e-5"
      "andrews|andrews_sim|-|0.03|5e-4|-|0.03|1e-4 1e-5 1e-6")
fi
# The models the warnings' thresholds are also checked on, against overfitting (docs/validation.md,
# section 10, "The thresholds"): not in the grid, run only when ACC_PROBLEMS names them. No exact
# solution: the reference is the simulator's own run, SELF_RUN at rtol = atol = 1e-12, checked
# against the same at 1e-13 (below); err over every point of the CSV (its .x/.y columns) in the
# model's length scale. The third field is "self MODEL_FILE"; no fixed steps.
OTHERS=(
  "slider_crank|slider_crank_sim|self models/slider_crank.lua|2|0.01|0.34||"
  "jansen|jansen_sim|self tests/models/jansen.lua|2|0.01|1.03||"
  "valve_train|valve_train_sim|self models/valve_train.lua|0.0377|1e-4|0.069||"
  "walker|walker_sim|self models/walker.lua|10|0.01|1.45||")
SELF_RUN="--formulation baumgarte --integrator dop853"
[ -n "${ACC_RTOLS:-}" ] && RTOLS=$ACC_RTOLS
if [ -n "${ACC_PROBLEMS:-}" ]; then
    keep=(); for p in "${PROBLEMS[@]}" "${OTHERS[@]}"; do case " $ACC_PROBLEMS " in *" ${p%%|*} "*) keep+=("$p");; esac; done
    PROBLEMS=("${keep[@]}")
fi
# the pairs: label | options
ADAPTIVE=(
  "baumgarte dopri5|--formulation baumgarte --integrator dopri5"
  "baumgarte dop853|--formulation baumgarte --integrator dop853"
  "baumgarte bdf|--formulation baumgarte --integrator bdf"
  "canonical dopri5|--formulation canonical --integrator dopri5"
  "canonical dop853|--formulation canonical --integrator dop853"
  "canonical bdf|--formulation canonical --integrator bdf"
  "alf-explicit dopri5|--formulation alf-explicit --integrator dopri5"
  "alf-explicit dop853|--formulation alf-explicit --integrator dop853"
  "alf-trapezoid bdf|--formulation alf-trapezoid --integrator bdf"
  "alf-trapezoid trapezoid|--formulation alf-trapezoid"
  "alf-trapezoid extrapolate|--formulation alf-trapezoid --extrapolate")
# fixed-step pairs: label | options | order
FIXED=(
  "baumgarte rk4|--formulation baumgarte|4"
  "canonical rk4|--formulation canonical|4"
  "alf-explicit rk4|--formulation alf-explicit|4"
  "alf-trapezoid trapezoid|--formulation alf-trapezoid|2"
  "baumgarte hht|--integrator hht|2")

# Hairer & Wanner's test set, Andrews' squeezer at t = 0.03 s (PSIDE, rtol 1e-14): beta, Theta,
# gamma, Phi, delta, Omega, epsilon
ANDREWS_REF="0.1581077119629904e+2 -0.1575637105984298e+2 0.4082224013073101e-1 -0.5347301163226948e+0 0.5244099658805304e+0 0.5347301163226948e+0 0.1048080741042263e+1"

# ---------------------------------------------------------------- comparison
# cmp REF.csv SIM.csv SCALE: "rows abs_err rel_err t_of_max missing" - the largest distance
# between a point of REF and the same point of SIM at equal t (rows matched to 1e-6 s), over the
# rows SIM has; missing: REF's rows within SIM's first and last t that SIM lacks (a row the
# simulator did not write, e.g. a non-finite one; run() reports the count)
CMP='BEGIN { FS = "," }
FNR == 1 { if (NR == 1) { for (i = 2; i <= NF; i++) rc[$i] = i; nr = NF } else for (i = 1; i <= NF; i++) sc[$i] = i; next }
NR == FNR { k = sprintf("%.6f", $1); for (i = 2; i <= nr; i++) R[k, i] = $i; have[k] = 1; next }
$1 !~ /^[-0-9.eE+]+$/ { next }
{ k = sprintf("%.6f", $1); if (ns++ == 0) tf = $1 + 0; tl = $1 + 0; if (!(k in have)) next; n++; got[k] = 1
  for (c in rc) if (c ~ /\.x$/) { b = substr(c, 1, length(c) - 2)
      if (!((c in sc) && ((b ".y") in sc))) { print "missing column " c > "/dev/stderr"; exit 3 }
      dx = $(sc[c]) - R[k, rc[c]]; dy = $(sc[b ".y"]) - R[k, rc[b ".y"]]; d = sqrt(dx * dx + dy * dy)
      if (d > m) { m = d; tm = $1 } } }
END { for (k in have) if (k + 0 >= tf - 1e-7 && k + 0 <= tl + 1e-7 && !(k in got)) miss++
  if (n == 0) print "0 - - - 0"; else printf "%d %.3e %.3e %s %d\n", n, m, m / s, tm, miss }'
# Andrews: the 7 angles (the mapping of bench/bench_wp.c) of every row against the same row of
# the reference run ANDREWS_RUN (baumgarte dop853 at rtol = atol = 1e-13, rows every DT; checked
# against a run at 1e-14 and against ANDREWS_REF at 0.03 s below): "rows max_abs max_mixed
# t_of_max", max_mixed the largest |d_i| / (1 + |ref_i|) over the rows: the error in the
# tolerance the run was asked for (--rtol R --atol R: atol + rtol |ref_i| = R (1 + |ref_i|)),
# in units of R as the other problems' distances are (a relative measure, |d_i| / |ref_i|,
# read gamma = 0.041 rad's error 25 times larger than the run's tolerance for it), and over the
# run as theirs are and as the accuracy warning's estimate is (its largest value over the run):
# at t = 0.03 s alone, Andrews canonical dopri5 at rtol 1e-8 read 6.5 x rtol while it was 28 x
# at 23 ms. A run that stops before 0.03 s: "rows - - - missing". missing as cmp's.
ANDREWS_RUN="--formulation baumgarte --integrator dop853 --h 1e-5"
CMP_ANDREWS='function ang(v, a,   hp) { hp = 1.57079632679489661923
  a[1] = v["OF.phi"]; a[2] = v["EF.phi"] - v["OF.phi"]; a[3] = v["EBD.phi"]
  a[4] = v["GE.phi"] + hp - v["AG.phi"]; a[5] = v["AG.phi"]; a[6] = v["HE.phi"] - v["AH.phi"] - hp
  a[7] = v["AH.phi"] + hp }
BEGIN { FS = ","; if (ref != "") { split(ref, R0, " "); for (i = 1; i <= 7; i++) R["0.030000", i] = R0[i]; have["0.030000"] = 1 } }
FNR == 1 { delete c; for (i = 1; i <= NF; i++) if ($i ~ /\.phi$/) c[$i] = i; next }
$1 !~ /^[-0-9.eE+]+$/ { next }
{ k = sprintf("%.6f", $1); for (i in c) v[i] = $(c[i]); ang(v, a); t = $1 }
ref == "" && NR == FNR { for (i = 1; i <= 7; i++) R[k, i] = a[i]; have[k] = 1; next }
{ if (ns++ == 0) tf = $1 + 0; tl = $1 + 0 }
(k in have) { n++; got[k] = 1; for (i = 1; i <= 7; i++) { d = a[i] - R[k, i]; if (d < 0) d = -d; if (d > ma) ma = d
    r = d / (1 + (R[k, i] < 0 ? -R[k, i] : R[k, i])); if (r > mr) { mr = r; tm = $1 } } }
END { for (k in have) if (k + 0 >= tf - 1e-7 && k + 0 <= tl + 1e-7 && !(k in got)) miss++
  if (n == 0 || t < 0.03 - 1e-9) { print n + 0 " - - - " miss + 0; exit }
  printf "%d %.3e %.3e %s %d\n", n, ma, mr, tm, miss }'

kv() { tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"; }

# run PROB LABEL KIND VALUE OPTIONS...: one simulation, compared; appends to $RUNS
#   prob|label|kind|value|status|t_reached|warnings|nwarn|steps|wall|rows|abs|rel|t_max|command|stop reason|
#   err_est (the summary's: the accuracy warning's largest estimate, in tolerances; 0 none)
run() {
    local prob=$1 label=$2 kind=$3 val=$4; shift 4
    local sim=$B/$SIM csv=$T/run.csv sum rc st tr w nw steps wall cmp why est
    rm -f "$csv"
    sum=$(timeout "$TO" "$sim" "$@" --out "$csv" --quiet 2>"$T/err"); rc=$?
    st=$(kv status "$sum"); tr=$(kv t_end "$sum"); nw=$(kv warnings "$sum")
    steps=$(kv steps "$sum"); wall=$(kv wall_s "$sum"); est=$(kv err_est "$sum")
    [ "$rc" = 124 ] && st=timeout
    [ -n "$st" ] || { st="fail($rc)"; }
    w=$(sed -n 's/.*warning: \([a-z]*\): first at t=\([^:]*\):.*/\1@\2/p' "$T/err" | paste -sd, -)
    why=$(grep -m1 -o 'fault at t=[^:]*: [^;]*\|runtime fault at t=[^:]*: [^;]*\|step size underflow[^;]*' "$T/err" | head -1)
    if [ ! -s "$csv" ]; then cmp="0 - - - 0"
    elif [ "$prob" = andrews ]; then cmp=$(awk "$CMP_ANDREWS" "$REF" "$csv")
    else cmp=$(awk -v s="$SCALE" "$CMP" "$REF" "$csv") || cmp="0 - - - 0"; fi
    local miss=${cmp##* }
    cmp=${cmp% *}
    [ "${miss:-0}" -gt 0 ] 2>/dev/null && why="${why:+$why; }$miss rows missing"
    printf '%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s\n' "$prob" "$label" "$kind" "$val" "$st" "${tr:--}" "${w:-}" \
        "${nw:-0}" "${steps:--}" "${wall:--}" "$(tr ' ' '|' <<<"$cmp")" "$B/$SIM $* | $(tr '|' '/' <<<"${why:-}")" "${est:--}" >>"$RUNS"
    printf '  %-8s %-26s %-5s %-6s %-8s t=%-10s err=%-10s %s\n' "$prob" "$label" "$kind" "$val" "$st" "${tr:--}" \
        "$(cut -d' ' -f3 <<<"$cmp")" "${w:-}${miss:+$([ "$miss" -gt 0 ] 2>/dev/null && echo " $miss rows missing")}" >&2
}

if [ "$ONLY" != 1 ]; then
# ---------------------------------------------------------------- builds
echo "validate_accuracy.sh: building the simulators and references" >&2
MK="make --no-print-directory -s"
$MK "$B/mbgen" "$B/parallelogram_chain_sim" "$B/andrews_sim" "$B/ref_pendulum" "$B/ref_chain" "$B/ref_crank_rocker" || exit 1
$MK sim MODEL=tests/models/acc_pendulum.lua >/dev/null || exit 1
$MK sim MODEL=tests/models/acc_crank_rocker.lua >/dev/null || exit 1
$MK sim MODEL=parallelogram_chain DEFS=N=10 >/dev/null || exit 1
[ "$QUICK" = 1 ] || $MK sim MODEL=parallelogram_chain DEFS=N=40 >/dev/null || exit 1
for p in "${PROBLEMS[@]}"; do
    IFS='|' read -r id sim refc rest <<<"$p"
    [ "${refc%% *}" = self ] || continue
    $MK sim MODEL="${refc#self }" >/dev/null || exit 1
done

START=$(date +%s)
{
echo "# make validate-accuracy: error against exact references (issue 29)"
echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo ' (modified)'), $(uname -m), $([ "$QUICK" = 1 ] && echo 'QUICK=1 subset' || echo 'full grid')"
echo
echo "## References (tests/accuracy/ref_*.c, long double; each checked against a second method)"
echo
} >"$T/head"

# ---------------------------------------------------------------- references and their checks
for p in "${PROBLEMS[@]}"; do
    IFS='|' read -r id sim refc span dt scale fspan hs <<<"$p"
    [ "$refc" = - ] || [ "${refc%% *}" = self ] && continue
    read -r rprog rarg <<<"$refc"
    fmax=$(awk -v a="$span" -v b="$fspan" 'BEGIN { print (a > b ? a : b) }')
    "$B/$rprog" "$fmax" "$dt" ${rarg:+"$rarg"} >"$T/ref_$id.csv" || { echo "validate_accuracy.sh: $rprog failed" >&2; exit 1; }
    chk=$T/check_$id
    "$B/$rprog" --check "$fmax" "$dt" ${rarg:+"$rarg"} >"$chk" 2>&1; crc=$?
    { echo "$id: \`$B/$rprog --check $fmax $dt${rarg:+ $rarg}\`"; sed 's/^/    /' "$chk"; echo; } >>"$T/head"
    [ "$crc" = 0 ] || { cat "$chk" >&2; echo "validate_accuracy.sh: reference $id failed its check" >&2; exit 1; }
done
# Andrews: a run of the simulator itself at rtol = atol = 1e-13 (ANDREWS_RUN), checked against
# the same at 1e-14 over every row and against Hairer & Wanner's values at t = 0.03 s
for p in "${PROBLEMS[@]}"; do
    IFS='|' read -r id sim refc span dt scale fspan hs <<<"$p"
    [ "$id" = andrews ] || continue
    fmax=$(awk -v a="$span" -v b="$fspan" 'BEGIN { print (a > b ? a : b) }')
    # shellcheck disable=SC2086
    "$B/$sim" $ANDREWS_RUN --rtol 1e-13 --atol 1e-13 --every "$dt" --t-end "$fmax" --out "$T/ref_$id.csv" --quiet >/dev/null 2>"$T/ref_$id.err" \
        || { cat "$T/ref_$id.err" >&2; echo "validate_accuracy.sh: the Andrews reference run failed" >&2; exit 1; }
    # shellcheck disable=SC2086
    "$B/$sim" $ANDREWS_RUN --rtol 1e-14 --atol 1e-14 --every "$dt" --t-end "$fmax" --out "$T/ref_${id}14.csv" --quiet >/dev/null 2>&1
    c14=$(awk "$CMP_ANDREWS" "$T/ref_$id.csv" "$T/ref_${id}14.csv"); chw=$(awk -v ref="$ANDREWS_REF" "$CMP_ANDREWS" "$T/ref_$id.csv")
    { echo "andrews: \`$B/$sim $ANDREWS_RUN --rtol 1e-13 --atol 1e-13 --every $dt --t-end $fmax\`, rows every $dt s, the 7"
      echo "    angles (the mapping from the bodies' angles of bench/bench_wp.c); its own error, the largest |d| / (1 + |ref|):"
      echo "    against the same at rtol 1e-14 over its $(cut -d' ' -f1 <<<"$c14") rows $(cut -d' ' -f3 <<<"$c14") (at t = $(cut -d' ' -f4 <<<"$c14") s), against"
      echo "    Hairer & Wanner's test set values at t = 0.03 s (PSIDE, rtol 1e-14) $(cut -d' ' -f3 <<<"$chw"): $ANDREWS_REF"; echo; } >>"$T/head"
    awk -v a="$c14" -v b="$chw" 'BEGIN { split(a, x, " "); split(b, y, " "); exit !(x[3] != "-" && x[3] + 0 < 1e-11 && y[3] != "-" && y[3] + 0 < 1e-9) }' \
        || { echo "validate_accuracy.sh: the Andrews reference failed its check ($c14; $chw)" >&2; exit 1; }
done

# The other models (OTHERS): SELF_RUN at 1e-12, checked against the same at 1e-13 over every row
for p in "${PROBLEMS[@]}"; do
    IFS='|' read -r id sim refc span dt scale fspan hs <<<"$p"
    [ "${refc%% *}" = self ] || continue
    for r in 12 13; do
        # shellcheck disable=SC2086
        "$B/$sim" $SELF_RUN --rtol 1e-$r --atol 1e-$r --every "$dt" --t-end "$span" --out "$T/ref_${id}$r.csv" --quiet \
            >/dev/null 2>"$T/ref_$id.err" || { cat "$T/ref_$id.err" >&2; echo "validate_accuracy.sh: the $id reference run failed" >&2; exit 1; }
    done
    mv "$T/ref_${id}12.csv" "$T/ref_$id.csv"
    c13=$(awk -v s="$scale" "$CMP" "$T/ref_$id.csv" "$T/ref_${id}13.csv")
    { echo "$id: \`$B/$sim $SELF_RUN --rtol 1e-12 --atol 1e-12 --every $dt --t-end $span\`, every point of the CSV; its"
      echo "    own error against the same at rtol 1e-13 over its $(cut -d' ' -f1 <<<"$c13") rows: $(cut -d' ' -f3 <<<"$c13") of its length scale $scale m"; echo; } >>"$T/head"
    awk -v a="$c13" 'BEGIN { split(a, x, " "); exit !(x[3] != "-" && x[3] + 0 < 1e-9) }' \
        || { echo "validate_accuracy.sh: the $id reference failed its check ($c13)" >&2; exit 1; }
done

# ---------------------------------------------------------------- the grid
[ "$FINDINGS" = only ] || for p in "${PROBLEMS[@]}"; do
    IFS='|' read -r id sim refc span dt scale fspan hs <<<"$p"
    SIM=$sim; REF=$T/ref_$id.csv; SCALE=$scale
    for a in "${ADAPTIVE[@]}"; do
        label=${a%%|*}; opts=${a#*|}
        [ -z "${ACC_PAIRS:-}" ] || grep -Eq -- "$ACC_PAIRS" <<<"$label" || continue
        for r in $RTOLS; do
            # (the first trial step 1e-3 on every problem; the rows by the dense output, which
            # leaves the steps as they are)
            # shellcheck disable=SC2086
            run "$id" "$label" rtol "$r" $opts --rtol "$r" --atol "$r" --h 1e-3 \
                --every "$dt" --t-end "$span"
        done
    done
    for f in "${FIXED[@]}"; do
        IFS='|' read -r label opts order <<<"$f"
        [ "${ACC_FIXED:-1}" = 0 ] && continue
        [ -z "${ACC_PAIRS:-}" ] || grep -Eq -- "$ACC_PAIRS" <<<"$label" || continue
        for h in $hs; do
            k=$(awk -v d="$dt" -v h="$h" 'BEGIN { printf "%d", d / h + 0.5 }')
            # shellcheck disable=SC2086
            run "$id" "$label" h "$h" $opts --h "$h" --every "$k" --t-end "$fspan"
        done
    done
done

# ---------------------------------------------------------------- the issue's findings
if [ "$QUICK" != 1 ] && [ "$FINDINGS" != 0 ]; then
    SIM=parallelogram_chain_N10_sim; REF=$T/ref_chain10.csv; SCALE=10
    run chain10 "F1 extrapolate h 0.01" finding 1e-8 --formulation alf-trapezoid --rtol 1e-8 --extrapolate --h 0.01 --every 0.1 --t-end 20
    SIM=parallelogram_chain_N40_sim; REF=$T/ref_chain40.csv; SCALE=40
    run chain40 "F1 extrapolate h 0.01" finding 1e-8 --formulation alf-trapezoid --rtol 1e-8 --extrapolate --h 0.01 --every 0.1 --t-end 20
    SIM=acc_pendulum_sim; SCALE=1
    "$B/ref_pendulum" 2000 1 >"$T/ref_pend2000.csv"; REF=$T/ref_pend2000.csv
    for h in 1e-3 1e-4; do
        run pend "F4 alf-trapezoid 2000 s" finding "$h" --formulation alf-trapezoid --h "$h" --every "$(awk -v h="$h" 'BEGIN { printf "%d", 1 / h + 0.5 }')" --t-end 2000
    done
    run pend "F4 alf-trapezoid 2000 s --tol 1e-12" finding 1e-4 --formulation alf-trapezoid --tol 1e-12 --h 1e-4 --every 10000 --t-end 2000
    run pend "F4 alf-trapezoid 2000 s --sigma-reset 100" finding 1e-4 --formulation alf-trapezoid --sigma-reset 100 --h 1e-4 --every 10000 --t-end 2000
fi

else
    START=$(date +%s)
    { echo "# make validate-accuracy: error against exact references (issue 29)"
      echo "# report regenerated from $RUNS ($(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(uname -m)); the references' checks: run without ACC_REPORT_ONLY"; } >"$T/head"
fi
# ---------------------------------------------------------------- the report
{
cat "$T/head"
echo
cat <<'EOF'
## How to read the tables

err: the largest distance of a tracked point from the reference over the output rows
(pendulum: the particle; chains: every crank tip; crank-rocker: crank pin A, rocker pin B and
coupler point P), divided by the mechanism's length scale (the pendulum 1 m; the chains N m, the
span of their ground pivots, as the runtime's mon.lscale: 2.06, 10, 40 m; crank-rocker 0.4 m, its ground link):
the error relative to the mechanism's size, the yardstick of the step control (atol + rtol |q_i|)
and of the accuracy warning (atol + rtol max(|q_i|, lscale)); Andrews:
the largest error of the 7 angles over the rows (every 0.5 ms to 0.03 s) against a run at rtol
1e-13 (References above) in the run's own tolerance, |d| / (1 + |ref|) (atol + rtol |ref| with
atol = rtol = R, read in units of R as the others), not their relative error |d| / |ref|, which
no run is asked for (it reads gamma = 0.041 rad's error 25 x larger). Every err is the largest
over the run, as the accuracy warning's estimate (err_est) is. Adaptive runs: --rtol R --atol R,
--h 1e-3 (the first trial step), rows at t = k DT by the dense output. Fixed
steps: rows every DT (--every DT/h). After the number: [n e c s t a] the warnings the run gave
(newton, energy, constraint, sigma, stability, accuracy); "stop@T" a run that stopped at T with an
error (its err over the rows before), "timeout" a run cut after ACC_TIMEOUT s; "gaps" a run whose CSV lacks rows within its span (err
over the rows it has; results/accuracy.txt.runs says how many).
slope, C: least squares of log10 err = log10 C + slope log10 R (or h) over the runs with
status ok and err above 1e-13 (the references' floor); "-" with fewer than 2.
EOF
echo
awk -F'|' -v rtols="$RTOLS" -v probs="$(for p in "${PROBLEMS[@]}"; do printf '%s|' "$p"; done)" '
function cell(i,   s, w, n, a, j, f) {
    if (!(i in ST)) return "-"
    s = (ERR[i] == "-" ? "-" : sprintf("%.1e", ERR[i]))
    w = ""; n = split(WN[i], a, ",")
    for (j = 1; j <= n; j++) { f = substr(a[j], 1, 1); if (index(w, f) == 0) w = w f }
    if (ST[i] == "timeout") return "timeout"
    if (ST[i] != "ok") s = s " stop@" TR[i] + 0
    if (GAP[i]) s = s " gaps"
    if (w != "") s = s " [" w "]"
    return s
}
function fit(key, vals,   n, a, j, x, y, sx, sy, sxx, sxy, m, sl, c, i) {
    n = split(vals, a, " "); m = 0; sx = sy = sxx = sxy = 0
    for (j = 1; j <= n; j++) { i = key SUBSEP a[j]
        if ((i in ST) && ST[i] == "ok" && ERR[i] != "-" && ERR[i] > 1e-13) {
            x = log(a[j]) / log(10); y = log(ERR[i]) / log(10); m++; sx += x; sy += y; sxx += x * x; sxy += x * y } }
    if (m < 2 || sxx * m - sx * sx == 0) return "- -"
    sl = (m * sxy - sx * sy) / (m * sxx - sx * sx); c = (sy - sl * sx) / m
    return sprintf("%.2f %.1e", sl, 10 ^ c)
}
{ i = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4; ST[i] = $5; TR[i] = $6; WN[i] = $7; ERR[i] = $13; GAP[i] = ($16 ~ /rows missing/)
  if (!(($1 SUBSEP $2 SUBSEP $3) in seen)) { seen[$1 SUBSEP $2 SUBSEP $3] = 1; order[$1, $3, ++cnt[$1, $3]] = $2 }
  if ($3 == "h") { if (!(($1 SUBSEP $4) in hseen)) { hseen[$1 SUBSEP $4] = 1; hl[$1] = hl[$1] (hl[$1] == "" ? "" : " ") $4 } } }
END {
    np = split(probs, P, "|") 
    for (q = 1; q + 7 <= np; q += 8) {
        id = P[q]
        printf "## %s: adaptive pairs, err against rtol (span %s s, rows every %s s)\n\n", id, P[q + 3], P[q + 4]
        nr = split(rtols, R, " ")
        printf "| pair |"; for (j = 1; j <= nr; j++) printf " %s |", R[j]; printf " slope | C |\n|---|"; for (j = 1; j <= nr + 2; j++) printf "---|"; printf "\n"
        for (k = 1; k <= cnt[id, "rtol"]; k++) { lab = order[id, "rtol", k]
            printf "| %s |", lab; for (j = 1; j <= nr; j++) printf " %s |", cell(id SUBSEP lab SUBSEP "rtol" SUBSEP R[j])
            split(fit(id SUBSEP lab SUBSEP "rtol", rtols), F, " "); printf " %s | %s |\n", F[1], F[2] }
        printf "\n## %s: fixed-step pairs, err against h (span %s s)\n\n", id, P[q + 6]
        nh = split(hl[id], H, " ")
        printf "| pair |"; for (j = 1; j <= nh; j++) printf " h = %s |", H[j]; printf " slope | C |\n|---|"; for (j = 1; j <= nh + 2; j++) printf "---|"; printf "\n"
        for (k = 1; k <= cnt[id, "h"]; k++) { lab = order[id, "h", k]
            printf "| %s |", lab; for (j = 1; j <= nh; j++) printf " %s |", cell(id SUBSEP lab SUBSEP "h" SUBSEP H[j])
            split(fit(id SUBSEP lab SUBSEP "h", hl[id]), F, " "); printf " %s | %s |\n", F[1], F[2] }
        printf "\n"
    }
}' "$RUNS"

# the warnings' false alarms and misses, and the goals
awk -F'|' '
$3 == "finding" { next }
{ ok = ($5 == "ok"); warned = ($8 + 0 > 0); e = $13
  if (e == "-") next
  wo = $7; gsub(/accuracy@[^,]*,?/, "", wo); warned0 = (wo != "")   # without the accuracy warning
  if ($3 == "rtol") {
      na++
      if (ok && !warned0 && e > 100 * $4) miss0++
      if (warned0 && e <= 10 * $4) fa0++
      if (ok && !warned && e > 100 * $4) { miss++; ml = ml sprintf("    %s %s rtol %s: err %.1e (%.0f x rtol)\n", $1, $2, $4, e, e / $4) }
      if (warned && e <= 10 * $4) { fa++; fl = fl sprintf("    %s %s rtol %s: err %.1e, warned %s\n", $1, $2, $4, e, $7) }
      if (warned && e > 10 * $4) hit++
      if ($4 == "1e-8") { n8++; if (e <= 1e-6) p8++; else if (!ok || warned) f8++; else { s8++; sl8 = sl8 sprintf("    %s %s: err %.1e%s\n", $1, $2, e, "") } }
  } else {
      nf++
      if (ok && !warned && e > 1e-3) { fmiss++; fml = fml sprintf("    %s %s h %s: err %.1e\n", $1, $2, $4, e) }
      if (warned && e <= 1e-7) { ffa++; ffl = ffl sprintf("    %s %s h %s: err %.1e, warned %s\n", $1, $2, $4, e, $7) }
  } }
END {
  printf "## Warnings: false alarms and misses\n\n"
  printf "Adaptive runs (%d with an error figure): a miss is a run with status ok, no warning and err > 100 x rtol;\n", na
  printf "a false alarm a run that warned with err <= 10 x rtol. Warned runs with err > 10 x rtol: %d.\n\n", hit
  printf "misses: %d\n%s\nfalse alarms: %d\n%s\n", miss, ml, fa, fl
  printf "The same runs with the accuracy warning taken as silence (as before it existed): misses %d, false alarms %d.\n\n", miss0, fa0
  printf "Fixed-step runs (%d): a miss is silent (ok, no warning) with err > 1e-3; a false alarm warned with err <= 1e-7.\n\n", nf
  printf "misses: %d\n%s\nfalse alarms: %d\n%s\n", fmiss, fml, ffa, ffl
  printf "## Goal: every adaptive run at rtol 1e-8 within 1e-6 of the reference (or refused / warned)\n\n"
  printf "runs at rtol 1e-8: %d; within 1e-6: %d; off but stopped or warned: %d; off and silent: %d\n%s\n", n8, p8, f8, s8, sl8
}' "$RUNS"

# the goal "error(rtol) <= C rtol, one C per pair": per adaptive pair the largest err / rtol over
# its runs that returned ok with no warning (the bound a user can rely on without a warning),
# over every problem and rtol of the runs, and where it is reached; the same over every run with
# an error figure (a stop's err is that of its rows before the stop); per rtol the silent runs'
# largest, "-" where the pair has no silent run at that rtol
awk -F'|' '
$3 != "rtol" || $13 == "-" { next }
{ p = $2; r = $13 / $4
  if (!(p in np)) { np[p] = 1; pl[++npl] = p }
  if (!($4 in nr)) { nr[$4] = 1; rl[++nrl] = $4 }
  na[p]++
  if (!(p in ca) || r > ca[p]) { ca[p] = r; wa[p] = sprintf("%s %s, %s%s", $1, $4, $5, $7 == "" ? "" : " [" $7 "]") }
  if ($5 == "ok" && $8 + 0 == 0) { ns[p]++; nsr[p, $4]++
      if (!(p in cs) || r > cs[p]) { cs[p] = r; ws[p] = $1 " " $4 }
      if (!((p, $4) in csr) || r > csr[p, $4]) csr[p, $4] = r } }
END {
  for (i = 2; i <= nrl; i++) for (j = i; j > 1 && rl[j] + 0 > rl[j - 1] + 0; j--) { x = rl[j]; rl[j] = rl[j - 1]; rl[j - 1] = x }
  printf "## Goal: err <= C rtol with one C per pair (C: the largest err / rtol)\n\n"
  printf "silent: status ok and no warning, the bound a user can rely on without a warning; all: every\n"
  printf "run with an error figure (a stop: its rows before the stop). Over every problem and rtol here.\n\n"
  printf "| pair | C, silent runs | where | silent runs | C, all runs | where | rtols without a silent run |\n"
  printf "|---|---|---|---|---|---|---|\n"
  for (i = 1; i <= npl; i++) { p = pl[i]; none = ""
      for (j = 1; j <= nrl; j++) if (!((p, rl[j]) in nsr)) none = none (none == "" ? "" : " ") rl[j]
      printf "| %s | %s | %s | %d of %d | %.3g | %s | %s |\n", p, (p in cs) ? sprintf("%.3g", cs[p]) : "-", (p in ws) ? ws[p] : "-",
          ns[p], na[p], ca[p], wa[p], none == "" ? "-" : none }
  printf "\nThe silent runs'"'"' largest err / rtol at each rtol:\n\n| pair |"
  for (j = 1; j <= nrl; j++) printf " %s |", rl[j]
  printf "\n|---|"; for (j = 1; j <= nrl; j++) printf "---|"; printf "\n"
  for (i = 1; i <= npl; i++) { p = pl[i]; printf "| %s |", p
      for (j = 1; j <= nrl; j++) printf " %s |", ((p, rl[j]) in csr) ? sprintf("%.3g", csr[p, rl[j]]) : "-"
      printf "\n" }
  printf "\n"
}' "$RUNS"

# the accuracy warning's threshold per estimator kind: misses and false alarms (as above, the
# other warnings counted as they are) had the warning fired past T, from each run's err_est
# (its largest estimate; runs without it, from before the field, are left out)
awk -F'|' '
BEGIN { nt = split("5 7 10 15 20 30 50 70 100 150 200 300", TT, " ")
        name["a"] = "companion at 2h (dopri5, dop853, --extrapolate; default 10)"
        name["b"] = "bdf signed sum (baumgarte, canonical; default 15)"
        name["d"] = "bdf signed sum (alf-trapezoid; default 30)"
        name["c"] = "signed sum of the plain step control of alf-trapezoid (default 30)" }
$3 != "rtol" || $13 == "-" || $17 == "" || $17 == "-" { next }
{ k = ($2 ~ /dopri5|dop853|extrapolate/) ? "a" : ($2 ~ /bdf/) ? (($2 ~ /alf-trapezoid/) ? "d" : "b") : "c"
  r = $13 / $4; est = $17 + 0; ok = ($5 == "ok"); n[k]++
  wo = $7; gsub(/accuracy@[^,]*,?/, "", wo); other = (wo != "")
  for (j = 1; j <= nt; j++) { w = other || est > TT[j]
      if (ok && !w && r > 100) M[k, j]++
      if (w && r <= 10) F[k, j]++ }
  if (ok && !other && r > 100 && (!(k in lo) || est < lo[k])) { lo[k] = est; lol[k] = sprintf("%s %s %s, %.0f x rtol", $1, $2, $4, r) }
  if (!other && r <= 10 && (!(k in hi) || est > hi[k])) { hi[k] = est; hil[k] = sprintf("%s %s %s, %.2g x rtol", $1, $2, $4, r) } }
END {
  printf "## The accuracy warning: misses and false alarms against its threshold T, per estimator\n\n"
  printf "From each run'"'"'s err_est (the largest estimate over the run, in tolerances): the counts had the\n"
  printf "warning fired past T (other warnings as they are). docs/validation.md, section 10, \"The thresholds\".\n\n"
  split("a b d c", K, " ")
  for (i = 1; i <= 4; i++) { k = K[i]; if (!(k in n)) continue
      printf "%s, %d runs: the smallest estimate of a run to warn (ok, no other warning, > 100 x rtol) %s%s;\n", name[k], n[k], (k in lo) ? sprintf("%.3g", lo[k]) : "-", (k in lo) ? " (" lol[k] ")" : ""
      printf "the largest of a run within 10 x rtol (no other warning) %s%s\n", (k in hi) ? sprintf("%.3g", hi[k]) : "-", (k in hi) ? " (" hil[k] ")" : ""
      printf "    T:           "; for (j = 1; j <= nt; j++) printf " %4s", TT[j]; printf "\n    misses:      "
      for (j = 1; j <= nt; j++) printf " %4d", M[k, j]; printf "\n    false alarms:"
      for (j = 1; j <= nt; j++) printf " %4d", F[k, j]; printf "\n\n" }
}' "$RUNS"

# fixed steps: observed order between consecutive h
echo "## Goal: fixed steps at the method's order (observed order between consecutive h; status ok only)"
echo
awk -F'|' -v fx="$(for f in "${FIXED[@]}"; do printf '%s=%s;' "${f%%|*}" "${f##*|}"; done)" '
BEGIN { n = split(fx, a, ";"); for (i = 1; i < n; i++) { split(a[i], b, "="); ord[b[1]] = b[2] } }
$3 == "h" && $5 == "ok" && $13 != "-" { k = $1 " | " $2; if (k in prev && ph[k] != $4) { o = log(pe[k] / $13) / log(ph[k] / $4)
    line[k] = line[k] sprintf(" %s->%s: %.2f", ph[k], $4, o) } prev[k] = 1; ph[k] = $4; pe[k] = $13; ks[k] = $2 }
END { for (k in line) printf "    %s (order %s):%s\n", k, ord[ks[k]], line[k] }' "$RUNS" | sort
echo

echo "## The issue's findings, re-measured"
echo
awk -F'|' '$3 == "finding" || ($3 == "rtol" && $4 == "1e-8" && ($2 ~ /bdf|trapezoid/)) {
    printf "    %-8s %-42s %-6s status=%s t=%s warnings=%s err=%s (abs %s) %s\n", $1, $2, $4, $5, $6, ($7 == "" ? 0 : $7), $13, $12, ($16 ~ /[a-z]/ ? "- " $16 : "") }' "$RUNS"
echo

echo "## Every run"
echo
echo "prob|pair|kind|value|status|t_reached|warnings|nwarn|steps|wall_s|rows|abs_err|rel_err|t_of_max|command|stop|err_est"
cat "$RUNS"
echo
echo "harness wall time: $(( $(date +%s) - START )) s"
} >"$OUT"
echo "validate_accuracy.sh: wrote $OUT" >&2
