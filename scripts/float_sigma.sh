#!/usr/bin/env bash
# float_sigma.sh - the float sigma reset's measurements (docs/embedding.md, "The sigma reset in
# float"): runs build/float_run_float (and _double) with the runtime's defaults and the given
# reset ratios, and prints each run's largest position error over the run against the
# long-double reference (tests/accuracy/ref_*.c; Andrews and the walker, which have none over
# a run, against the double run), the error at the end, the resets, the warnings and the energy
# test's drift (docs/embedding.md, "The energy drift in float").
# Usage: scripts/float_sigma.sh PROBLEM FORMULATION H T_END "RATIOS" [double]
#   PROBLEM pend | crank | chain2 | andrews | walker; RATIOS p.sigma_reset_ratio values, "-" the
#   build's default; "double" runs the double build instead (its error against the same reference).
# Needs: make build/float_run_float build/float_run_double build/ref_pendulum build/ref_chain
#   build/ref_crank_rocker
set -u
cd "$(dirname "$0")/.."
B=${BUILD:-build}
prob=$1 form=$2 h=$3 tend=$4 ratios=$5 prec=${6:-float}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
case $prob in
pend)   model=acc_pendulum; pts="q0 q1"; dt=0.5; "$B/ref_pendulum" "$tend" $dt >"$T/ref" ;;
crank)  model=acc_crank_rocker; pts="crank.A rocker.B coupler.P"; dt=0.1; "$B/ref_crank_rocker" "$tend" $dt >"$T/ref" ;;
chain2) model=parallelogram_chain; pts="crank0.B crank1.B crank2.B"; dt=0.1; "$B/ref_chain" "$tend" $dt 2 >"$T/ref" ;;
andrews) model=andrews; pts="q0 q1 q2 q3 q4 q5 q6"; dt=0.001 ;;
walker) model=walker; pts="q0 q1 q2"; dt=0.1 ;;
*) echo "unknown problem $prob" >&2; exit 2 ;;
esac
if [ ! -s "$T/ref" ]; then   # no closed form over the run: the double build with its defaults
    "$B/float_run_double" $model $form $h $tend $dt - $pts | grep -v '^#' >"$T/ref"
fi
for r in $ratios; do
    "$B/float_run_$prec" $model $form $h $tend $dt $r $pts >"$T/run"   # (FLOAT_RUN_TRACE: stderr)
    grep '^#' "$T/run" | sed 's/^# //' | tr "\n" " " >"$T/sum"
    [ -s "$T/sum" ] || printf "(no summary)" >"$T/sum"
    echo >>"$T/sum"
    grep -v '^#' "$T/run" | awk -F, -v ref="$T/ref" '
        BEGIN { while ((getline l < ref) > 0) { n = split(l, a, ","); key = sprintf("%.3f", a[1]); R[key] = l } }
        { key = sprintf("%.3f", $1); if (!(key in R)) next; split(R[key], a, ",");
          e = 0; for (i = 2; i <= NF; i++) { d = $i - a[i]; if (d < 0) d = -d; if (d > e) e = d }
          if (e > mx) mx = e; last = e; lt = $1 }
        END { printf "%s %s %s h=%s t=%s ratio=%s: max_err %.2e end_err %.2e (t %s) ", "'$prob'", "'$form'", "'$prec'", "'$h'", "'$tend'", "'$r'", mx, last, lt }'
    cat "$T/sum"
done
