#!/usr/bin/env bash
# sweep_task.sh - run rows of a parameter sweep (docs/sweeps.md): one simulator run per row of
# DIR/params.csv, its options from the row (a column naming a tunable: --set NAME=VALUE; one
# naming a simulator option: --h, --t-end, ...). Called by GNU parallel (scripts/sweep.sh) and
# by each Slurm array task (DIR/array.sbatch).
#
# Usage: scripts/sweep_task.sh DIR ROW...        rows are 1-based data rows of params.csv
#        scripts/sweep_task.sh DIR --options ROW  print the options of a row, one a line
#        scripts/sweep_task.sh DIR --array ID     Slurm: chunk ID (0-based) of DIR/todo, the
#                                                 rows to run, DIR/chunk rows per chunk
# Per row N it writes DIR/runs/N.args (the options), N.out (the summary line), N.err (stderr),
# N.rc (the exit status), each complete or absent (written under a temporary name, then
# renamed): a killed run leaves no .rc, so a re-run redoes it. Exit status: 0, or 1 when a row
# failed (its .rc says which).
set -u
dir=$1; shift
[ -f "$dir/params.csv" ] && [ -x "$dir/sim" ] || { echo "sweep_task: $dir is not a sweep directory" >&2; exit 2; }
sim="$dir/sim"
extra=()
[ -f "$dir/extra_args" ] && mapfile -t extra < "$dir/extra_args"
# the options of a row: the header names the columns (scripts/sweep.sh checked them)
options() {
    awk -F, -v row="$1" '
        NR == 1 { for (i = 1; i <= NF; i++) name[i] = $i; n = NF; next }
        NR == row + 1 {
            for (i = 1; i <= n; i++) {
                v = $i; gsub(/^[ \t]+|[ \t\r]+$/, "", v)
                if (name[i] == "h") print "--h\n" v
                else if (name[i] == "t_end") print "--t-end\n" v
                else if (name[i] == "formulation") print "--formulation\n" v
                else if (name[i] == "integrator") print "--integrator\n" v
                else print "--set\n" name[i] "=" v
            }
        }' "$dir/params.csv"
}
rows=()
if [ "${1:-}" = --options ]; then options "$2"; exit 0; fi
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
    mapfile -t opts < <(options "$r")
    base="$dir/runs/$r" t="$dir/runs/.$r.$$"
    printf '%s\n' "${opts[@]}" > "$t.args"
    "$sim" --quiet "${extra[@]}" "${opts[@]}" > "$t.out" 2> "$t.err"
    rc=$?
    mv -f "$t.args" "$base.args"; mv -f "$t.out" "$base.out"; mv -f "$t.err" "$base.err"
    echo "$rc" > "$t.rc" && mv -f "$t.rc" "$base.rc"
    [ "$rc" -eq 0 ] || status=1
done
exit $status
