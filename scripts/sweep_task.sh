#!/usr/bin/env bash
# sweep_task.sh - run blocks of rows of a parameter sweep (docs/sweeps.md): for block i, one
# simulator process over DIR/blocks/<i>.csv (SIM --batch: a summary row per table row, the
# row's options from its columns: a tunable or input --set NAME=VALUE, an option --h, --t-end, ...).
# Called by GNU parallel (scripts/sweep.sh) and by each Slurm array task (DIR/array.sbatch).
#
# Usage: scripts/sweep_task.sh DIR BLOCK...       blocks are 0-based (build/mb_sweep split)
#        scripts/sweep_task.sh DIR --array ID     Slurm: block ID (SLURM_ARRAY_TASK_ID)
# Block i writes DIR/results/b<i>.csv (the header, then a row at a time as each finishes: an
# interrupted block leaves the rows it finished, a re-run does the others) and
# DIR/blocks/<i>.err (the rows' stderr, each line "row N: ..."). Exit status: 0, or 1 when a
# row failed, 2 when DIR is no sweep directory or a block did not run.
set -u
dir=$1; shift
[ -f "$dir/params.csv" ] && [ -x "$dir/sim" ] ||
    { echo "sweep_task: $dir is not a sweep directory" >&2; exit 2; }
sim="$dir/sim"
extra=()
[ -f "$dir/extra_args" ] && mapfile -t extra < "$dir/extra_args"
blocks=()
if [ "${1:-}" = --array ]; then
    id=${2:-${SLURM_ARRAY_TASK_ID:-}}
    [[ "$id" =~ ^[0-9]+$ ]] || { echo "sweep_task: --array needs a task id (SLURM_ARRAY_TASK_ID)" >&2; exit 2; }
    blocks=("$id")
else
    blocks=("$@")
fi
status=0
mkdir -p "$dir/results"
for b in "${blocks[@]}"; do
    [ -f "$dir/blocks/$b.csv" ] || { echo "sweep_task: no block $b in $dir/blocks" >&2; status=2; continue; }
    "$sim" --quiet "${extra[@]}" --batch "$dir/blocks/$b.csv" > "$dir/results/b$b.csv" 2> "$dir/blocks/$b.err"
    rc=$?
    if [ $rc -gt 1 ]; then
        # not a row's failure (those are in the rows): the block stopped; its rows not run are
        # reported missing by the gather step
        echo "sweep: block $b (rows $(sed -n '2{s/,.*//;p}' "$dir/blocks/$b.csv")...) stopped with exit status $rc: $(grep -v '^row [0-9]*: ' "$dir/blocks/$b.err" | head -n 1)" >&2
        status=2
    elif [ $rc -eq 1 ] && [ $status -eq 0 ]; then
        status=1
    fi
done
exit $status
