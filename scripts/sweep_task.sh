#!/usr/bin/env bash
# sweep_task.sh - run rows of a parameter sweep (docs/sweeps.md): one simulator run per row of
# DIR/params.csv, its options from the row (a column naming a tunable: --set NAME=VALUE; one
# naming a simulator option: --h, --t-end, ...). Called by GNU parallel (scripts/sweep.sh) and
# by each Slurm array task (DIR/array.sbatch).
#
# Usage: scripts/sweep_task.sh DIR ROW...        rows are 1-based data rows of params.csv
#        scripts/sweep_task.sh DIR --array ID     Slurm: chunk ID (0-based) of DIR/todo, the
#                                                 rows to run, DIR/chunk rows per chunk
# Per row N it writes DIR/runs/N.args (the options), N.out (the summary line), N.err (stderr),
# N.rc (the exit status), each complete or absent (written under a temporary name, then
# renamed): a killed run leaves no .rc, so a re-run redoes it; and prints "N STATUS" (the
# progress line of scripts/sweep.sh). Exit status: 0, or 1 when a row failed (its .rc says
# which), 2 when DIR is no sweep directory.
set -u
dir=$1; shift
[ -f "$dir/params.csv" ] && [ -x "$dir/sim" ] && [ -x "$dir/mb_sweep" ] ||
    { echo "sweep_task: $dir is not a sweep directory" >&2; exit 2; }
sim="$dir/sim"
extra=()
[ -f "$dir/extra_args" ] && mapfile -t extra < "$dir/extra_args"
rows=()
if [ "${1:-}" = --array ]; then
    id=${2:-${SLURM_ARRAY_TASK_ID:-}}
    [[ "$id" =~ ^[0-9]+$ ]] || { echo "sweep_task: --array needs a task id (SLURM_ARRAY_TASK_ID)" >&2; exit 2; }
    chunk=$(cat "$dir/chunk")
    mapfile -t rows < <(sed -n "$((id * chunk + 1)),$(((id + 1) * chunk))p" "$dir/todo")
else
    rows=("$@")
fi
status=0
mkdir -p "$dir/runs"
for r in "${rows[@]}"; do
    # the row's options, one a line (tools/mb_sweep_main.c: h -> --h, k -> --set k=VALUE)
    opts=()
    mapfile -t opts < <("$dir/mb_sweep" options "$dir" "$r")
    [ ${#opts[@]} -gt 0 ] || { status=1; echo "$r 2"; continue; }
    base="$dir/runs/$r" t="$dir/runs/.$r.$$"
    printf '%s\n' "${opts[@]}" > "$t.args"
    "$sim" --quiet "${extra[@]}" "${opts[@]}" > "$t.out" 2> "$t.err"
    rc=$?
    mv -f "$t.args" "$base.args"; mv -f "$t.out" "$base.out"; mv -f "$t.err" "$base.err"
    echo "$rc" > "$t.rc" && mv -f "$t.rc" "$base.rc"
    [ "$rc" -eq 0 ] || status=1
    echo "$r $rc"
done
exit $status
