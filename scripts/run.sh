#!/usr/bin/env bash
# run.sh - simulate one model, then write its plots and animation and print a short summary.
# Usage: scripts/run.sh MODEL FORMULATION [simulator options...]   (called by `make run`)
#   FORMULATION "" leaves it to the simulator (its default, or a --formulation among the
#   options: that one wins). Exit status: the simulator's (2 for a TRACE that names no point,
#   before anything runs), else 1 when the animation or the plots fail.
# Expects build/MODEL_sim and build/mb_anim (one animation tool for every model); writes
# results/MODEL.{csv,csv.info,log,html} and PNGs.
set -u

if [ $# -lt 2 ] || [ "$1" = --help ]; then
    echo "usage: scripts/run.sh MODEL FORMULATION [simulator options...]   (FORMULATION \"\": the simulator's)" >&2
    echo "  env: BUILD (default build), RESULTS (default results), TRACE (point to trace)," >&2
    echo "       MODEL_DIR (where MODEL.h is, default generated: the model's step for the labels)" >&2
    exit 2
fi
model=$1 form=$2
shift 2
# the formulation option: FORMULATION unless the options name one (RUN_ARGS="--formulation ...")
form_opt=()
if [ -n "$form" ]; then
    form_opt=(--formulation "$form")
    for a in "$@"; do case "$a" in --formulation|--formulation=*) form_opt=() ;; esac; done
fi
build=${BUILD:-build}
res=${RESULTS:-results}
sim=$build/${model}_sim anim=$build/mb_anim
csv=$res/$model.csv log=$res/$model.log html=$res/$model.html
for b in "$sim" "$anim"; do
    [ -x "$b" ] || { echo "run.sh: $b is missing (make sim MODEL=$model; make anim)" >&2; exit 1; }
done
tmp_err=$(mktemp)
trap 'rm -f "$tmp_err"' EXIT

# TRACE names a point or particle of the model: checked before the simulation (a probe of one step writes
# the drawing info; the animation tool says whether the point is there and lists the points)
if [ -n "${TRACE:-}" ] && [ "$TRACE" != none ]; then
    probe=$(mktemp -d)
    if "$sim" "${form_opt[@]}" "$@" --quiet --every 1 --max-steps 1 --out "$probe/p.csv" >/dev/null 2>&1 ||
       [ -s "$probe/p.csv.info" ]; then
        if ! "$anim" --quiet --trace "$TRACE" --out "$probe/p.html" "$probe/p.csv" 2> "$probe/err" &&
           grep -q -- "--trace" "$probe/err"; then
            sed 's/^/run.sh: TRACE: /' "$probe/err" >&2
            rm -rf "$probe"
            exit 2
        fi
    fi           # (a probe that fails otherwise: the simulation below reports why)
    rm -rf "$probe"
fi

# The simulation writes into a fresh directory next to the results; a command line the
# simulator refuses (exit 2, no summary line) leaves the earlier results as they were. Else
# the previous run's CSV, log, animation and plots go first (never shown by mistake next to a
# new CSV) and the new CSV, info and log take their place.
mkdir -p "$res" || exit 1
work=$(mktemp -d "$res/.run_$model.XXXXXX") || exit 1
trap 'rm -f "$tmp_err"; rm -rf "$work"' EXIT
start=$(date +%s.%N)
echo "== simulating $model${form_opt[1]:+ with ${form_opt[1]}}: $sim ${form_opt[*]}${form_opt[*]:+ }$* --out $csv"
# stdout (the summary line) is kept in the log; stderr stays on the terminal so the
# simulator's progress bar can show.
"$sim" "${form_opt[@]}" "$@" --out "$work/$model.csv" | tee "$work/$model.log"
sim_rc=${PIPESTATUS[0]}
summary=$(grep -E '(^| )status=' "$work/$model.log" 2>/dev/null | tail -n 1)
if [ -z "$summary" ] && [ "$sim_rc" -eq 2 ]; then
    echo "run.sh: the simulator refused its command line (exit 2, see above) and wrote no results; the earlier results in $res are left as they were" >&2
    exit 2
fi
rm -f "$csv" "$csv.info" "$log" "$html" \
      "$res/${model}_energy.png" "$res/${model}_constraints.png" "$res/${model}_sigma.png" "$res/${model}_trace.png" "$res/${model}_io.png" \
      "$res/${model}_cams.png"
for f in "$model.csv" "$model.csv.info" "$model.log"; do
    [ -f "$work/$f" ] && mv -f "$work/$f" "$res/$f"
done
[ -s "$log" ] || rm -f "$log"      # nothing printed: no empty log
get() { printf '%s\n' "$summary" | tr ' ' '\n' | sed -n "s/^$1=//p" | head -n 1; }
# a CSV with its header alone (no row) is no result: nothing to plot
if [ ! -f "$csv" ] || ! awk 'NR == 2 { found = 1; exit } END { exit !found }' "$csv"; then
    rm -f "$csv" "$csv.info"
    echo "run.sh: the simulator exited with status $sim_rc and wrote no results (see above)" >&2
    [ "$sim_rc" -ne 0 ] && exit "$sim_rc"
    exit 1
fi
if [ "$sim_rc" -ne 0 ]; then
    echo "run.sh: the simulator exited with status $sim_rc (see above); plotting what it wrote" >&2
fi

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
# the formulation and integrator the run used (its summary line), the integrator when it is not
# the formulation's default
form=$(get formulation); [ -n "$form" ] || form=${form_opt[1]:-?}
integ=$(get integrator) defint=rk4
[ "$form" = alf-trapezoid ] && defint=trapezoid
[ -n "$integ" ] && [ "$integ" != "$defint" ] && form="$form + $integ"
label="$form${h:+, h = $h s}"
trace_opt=()
[ -n "${TRACE:-}" ] && trace_opt=(--trace "$TRACE")

echo "== animating"
"$anim" "${trace_opt[@]}" --title "$model, $label" --note "Simulator: $summary" --out "$html" "$csv" \
    2> "$tmp_err"
anim_rc=$?
cat "$tmp_err" >&2
[ "$anim_rc" -eq 0 ] || exit 1
# Plot the same point or particle the animation traces (its default: the one that moves farthest).
traced=$(sed -n 's/.*, trace \([^)]*\)).*/\1/p' "$tmp_err")
[ -n "$traced" ] && trace_opt=(--trace "$traced")
echo "== plotting"
pngs=$(scripts/plot.sh --label "$label" "${trace_opt[@]}" "$csv") || exit 1
end=$(date +%s.%N)

rows=$(grep -c -v -e '=' -e '^#' "$csv")
rows=$((rows - 1))
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
[ -f "$log" ] && printf '   %-*s %s\n' "$w" "$log" "the simulator's summary line"
while read -r p; do
    case "$p" in
        *_energy.png) what="energy deviation against time" ;;
        *_constraints.png) what="position and velocity constraint violation (log)" ;;
        *_sigma.png) what="norm of sigma (integral of the multipliers)" ;;
        *_io.png) what="the model's inputs (in.*) and sensors (out.*) against time" ;;
        *_cams.png) what="the cams' normal forces against time (a follower leaves below zero)" ;;
        *_trace.png) t=${traced:-${TRACE:-}}
                     # empty: the animation traced nothing (no moving point or particle), plot.sh chose
                     if [ -n "$t" ]; then what="trajectory of point $t"
                     else what="trajectory of the point or particle that travels farthest"; fi ;;
        *) what="" ;;
    esac
    printf '   %-*s %s\n' "$w" "$p" "$what"
done <<< "$pngs"
printf '   %-*s %s\n' "$w" "$html" "animation: open it in a web browser"
exit "$sim_rc"
