#!/usr/bin/env bash
# run.sh - simulate one model, then write its plots and animation and print a short summary.
# Usage: scripts/run.sh MODEL FORMULATION [simulator options...]   (called by `make run`)
# Expects build/MODEL_sim and build/mb_anim (one animation tool for every model); writes
# results/MODEL.{csv,csv.info,log,html} and PNGs.
set -u

if [ $# -lt 2 ] || [ "$1" = --help ]; then
    echo "usage: scripts/run.sh MODEL FORMULATION [simulator options...]" >&2
    echo "  env: BUILD (default build), RESULTS (default results), TRACE (point to trace)," >&2
    echo "       MODEL_DIR (where MODEL.h is, default generated: the model's step for the labels)" >&2
    exit 2
fi
model=$1 form=$2
shift 2
build=${BUILD:-build}
res=${RESULTS:-results}
sim=$build/${model}_sim anim=$build/mb_anim
csv=$res/$model.csv log=$res/$model.log html=$res/$model.html
for b in "$sim" "$anim"; do
    [ -x "$b" ] || { echo "run.sh: $b is missing (make sim MODEL=$model; make anim)" >&2; exit 1; }
done
mkdir -p "$res"
tmp_err=$(mktemp)
trap 'rm -f "$tmp_err"' EXIT

start=$(date +%s.%N)
echo "== simulating $model with $form: $sim --formulation $form $* --out $csv"
# stdout (the summary line) is kept in the log; stderr stays on the terminal so the
# simulator's progress bar can show.
rm -f "$csv" "$csv.info" "$log" "$html"  # never plot a previous run's results by mistake
"$sim" --formulation "$form" "$@" --out "$csv" | tee "$log"
sim_rc=${PIPESTATUS[0]}
summary=$(grep -E '(^| )status=' "$log" | tail -n 1)
[ -n "$summary" ] || summary=$(grep -E 'status=' "$csv" 2>/dev/null | tail -n 1)
get() { printf '%s\n' "$summary" | tr ' ' '\n' | sed -n "s/^$1=//p" | head -n 1; }
if [ "$sim_rc" -ne 0 ]; then
    echo "run.sh: the simulator exited with status $sim_rc (see above); plotting what it wrote" >&2
fi
[ -s "$csv" ] || { echo "run.sh: no results in $csv" >&2; exit 1; }

# The label says how the curves were made; h comes from the options when given.
h=$(printf '%s\n' "$@" | awk 'p {h = $0; p = 0} $0 == "--h" {p = 1} END {print h}')  # the last wins
# else the model's own step (its simulate { ... }: <NAME>_SIM_H in the generated header), in
# the shorter of %g and exponent form (1e-05 -> 1e-5, 0.001 -> 1e-3)
hdr=${MODEL_DIR:-generated}/$model.h
if [ -z "$h" ] && [ -f "$hdr" ]; then
    h=$(sed -n "s/^#define $(printf '%s' "$model" | tr '[:lower:]' '[:upper:]')_SIM_H MB_R(\([0-9.eE+-]*\))\$/\1/p" "$hdr" |
        awk 'NF { g = sprintf("%g", $1); e = sprintf("%.0e", $1); sub(/e-0*/, "e-", e); sub(/e\+0*/, "e", e)
                  if (e + 0 == $1 + 0 && length(e) < length(g)) g = e; print g }')
fi
label="$form${h:+, h = $h s}"
trace_opt=()
[ -n "${TRACE:-}" ] && trace_opt=(--trace "$TRACE")

echo "== animating"
"$anim" "${trace_opt[@]}" --title "$model, $label" --note "Simulator: $summary" --out "$html" "$csv" \
    2> "$tmp_err"
anim_rc=$?
cat "$tmp_err" >&2
[ "$anim_rc" -eq 0 ] || exit 1
# Plot the same point the animation traces (its default is the point that moves farthest).
traced=$(sed -n 's/.*, trace \([^)]*\)).*/\1/p' "$tmp_err")
[ -n "$traced" ] && trace_opt=(--trace "$traced")
echo "== plotting"
pngs=$(scripts/plot.sh --label "$label" "${trace_opt[@]}" "$csv") || exit 1
end=$(date +%s.%N)

rows=$(grep -c -v -e '=' -e '^#' "$csv")
rows=$((rows - 1))
echo
echo "== $model ($form) done in $(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.1f", b - a}') s"
if [ -n "$summary" ]; then
    printf '   status %s, %s steps to t = %s s, simulator time %s s\n' \
        "$(get status)" "$(get steps)" "$(get t_end)" "$(get wall_s)"
    printf '   max |energy deviation| %s J, max |Phi| %s m, max |dPhi/dt| %s m/s\n' \
        "$(get max_energy_dev)" "$(get max_phi)" "$(get max_phid)"
    w=$(get warnings)
    [ -n "$w" ] && [ "$w" != 0 ] &&
        echo "   $w warning(s): suspect results, named by the simulator above (docs/formulations.md, Warnings)"
else
    echo "   the simulator printed no summary line (exit status $sim_rc)"
fi
w=$(( ${#res} + ${#model} + 18 ))  # the longest name: <res>/<model>_constraints.png
printf '   %-*s %s rows\n' "$w" "$csv" "$rows"
printf '   %-*s %s\n' "$w" "$csv.info" "the model's bodies, points, joints and springs (for the animation)"
printf '   %-*s %s\n' "$w" "$log" "the simulator's summary line"
while read -r p; do
    case "$p" in
        *_energy.png) what="energy deviation against time" ;;
        *_constraints.png) what="position and velocity constraint violation (log)" ;;
        *_sigma.png) what="norm of sigma (integral of the multipliers)" ;;
        *_trace.png) t=${traced:-${TRACE:-}}
                     # empty: plot.sh chose (a particle, which the animation does not trace)
                     if [ -n "$t" ]; then what="trajectory of point $t"
                     else what="trajectory of the point or particle that travels farthest"; fi ;;
        *) what="" ;;
    esac
    printf '   %-*s %s\n' "$w" "$p" "$what"
done <<< "$pngs"
printf '   %-*s %s\n' "$w" "$html" "animation: open it in a web browser"
exit "$sim_rc"
