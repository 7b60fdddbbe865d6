#!/usr/bin/env bash
# run_analysis.sh - one analysis other than dynamics on one model, then its plots and animation
# (called by `make run ANALYSIS=...`; docs/analyses.md, "Plots").
# Usage: scripts/run_analysis.sh MODEL ANALYSIS [simulator options...]
# Expects build/MODEL_sim and build/mb_anim; writes results/MODEL_ANALYSIS.{csv,csv.info,log} and:
#   modal:     results/MODEL_modal.html (the mode shapes animated, mode k at t in [k-1, k))
#              and results/MODEL_modal_mode<k>.png, a picture per mode;
#   frequency: results/MODEL_frequency_bode.png (needs --input, e.g. RUN_ARGS="--input mass.x");
#   static, quasistatic, kinematic, inverse: results/MODEL_ANALYSIS.html.
set -u

if [ $# -lt 2 ] || [ "$1" = --help ]; then
    echo "usage: scripts/run_analysis.sh MODEL ANALYSIS [simulator options...]" >&2
    echo "  env: BUILD (default build), RESULTS (default results)" >&2
    exit 2
fi
model=$1 analysis=$2
shift 2
build=${BUILD:-build}
res=${RESULTS:-results}
sim=$build/${model}_sim anim=$build/mb_anim
base=$res/${model}_$analysis
csv=$base.csv log=$base.log html=$base.html
for b in "$sim" "$anim"; do
    [ -x "$b" ] || { echo "run_analysis.sh: $b is missing (make sim MODEL=$model; make anim)" >&2; exit 1; }
done
# The simulator writes into a fresh directory first: a command line it refuses (exit 2, no
# summary line: a bad option, an --input the model lacks) leaves the earlier results as they
# were; otherwise they go (never shown next to a new run's) and the new CSV, info and log move in.
mkdir -p "$res" || exit 1
work=$(mktemp -d "$res/.run_${model}_$analysis.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
name=$(basename "$base")
echo "== $analysis analysis of $model: $sim --analysis $analysis $* --out $csv"
"$sim" --analysis "$analysis" "$@" --out "$work/$name.csv" | tee "$work/$name.log"
rc=${PIPESTATUS[0]}
summary=$(grep -E '(^| )status=' "$work/$name.log" | tail -n 1)
if [ -z "$summary" ] && [ "$rc" -eq 2 ]; then
    echo "run_analysis.sh: the simulator refused its command line (exit 2, see above); the earlier results in $res are left as they were" >&2
    exit 2
fi
rm -f "$csv" "$csv.info" "$log" "$html" "$base"_mode*.png "${base}_bode.png"   # never show a previous run's results
for f in "$name.csv" "$name.csv.info" "$name.log"; do
    [ -f "$work/$f" ] && mv -f "$work/$f" "$res/$f"
done
[ -s "$log" ] || rm -f "$log"
[ "$rc" -eq 0 ] || { echo "run_analysis.sh: the simulator exited with status $rc (see above)" >&2; exit "$rc"; }
if [ "$analysis" = modal ] && [[ " $summary " == *" modes=0 "* ]]; then   # dof=0: nothing to draw
    echo "== $model, modal analysis done: no modes: the mechanism has 0 degrees of freedom (dof=0), nothing to animate or plot"
    printf '   %s\n' "$csv" "$log"
    exit 0
fi
[ -s "$csv" ] || { echo "run_analysis.sh: no results in $csv" >&2; exit 1; }
out=()
case "$analysis" in
    frequency)
        out+=("$(scripts/plot_analysis.sh --label "$model" bode "$csv")") || exit 1 ;;
    *)
        note="Simulator: $summary"
        [ "$analysis" = modal ] && note="Mode k plays at t in [k-1, k), one cycle. $note"
        "$anim" --quiet --trace none --title "$model, $analysis analysis" --note "$note" --out "$html" "$csv" || exit 1
        out+=("$html")
        if [ "$analysis" = modal ]; then
            while read -r p; do out+=("$p"); done < <(scripts/plot_analysis.sh --label "$model" modes "$csv") || exit 1
        fi ;;
esac
echo
echo "== $model, $analysis analysis done"
printf '   %s\n' "$csv" "$csv.info" "$log" "${out[@]}"
