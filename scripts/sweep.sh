#!/usr/bin/env bash
# sweep.sh - run a simulator over the rows of a parameter table (docs/sweeps.md): the rows in
# blocks, each block one simulator process (SIM --batch: one run per row, one summary row
# each), in parallel through GNU parallel on this machine or as a Slurm job array on a cluster,
# then the gather step: OUTDIR/summary.csv and OUTDIR/plot.png. Called by `make sweep`.
#
# Usage: scripts/sweep.sh SIM PARAMS.csv OUTDIR
#   OUTDIR      any name but one with a line break (with SWEEP_ENGINE=slurm also no white
#               space, quotes, backslashes or %: the #SBATCH --output lines)
#   PARAMS.csv  a header of column names, then one row per run. A column names a tunable or
#               an input of the model (--set NAME=VALUE) or one of the simulator options h, t_end,
#               formulation, integrator (--h, --t-end, ...). Plain CSV: no quotes, no commas in
#               values, no empty cells; '#' lines and blank lines are not allowed; a UTF-8
#               byte-order mark, CRLF and a last row without a line break are fine. Read and
#               checked by build/mb_sweep (tools/mb_sweep_table.c), found next to SIM (or
#               SWEEP_TOOL=PATH), which also does the bookkeeping.
# Environment:
#   SWEEP_ENGINE  parallel (default) or slurm
#   SWEEP_JOBS    parallel: simultaneous runs (default: the number of processors)
#   SWEEP_BLOCK   parallel: rows per block, one simulator process each (default: the rows to
#               run shared into 8 blocks per job, at most 1000 rows a block)
#   SWEEP_ARGS    simulator options for every row, e.g. "--formulation canonical" (not --out:
#               a sweep keeps each row's summary, not its motion)
#   SWEEP_X, SWEEP_Y  the plot: SWEEP_Y (a summary field, default max_energy_dev) against
#               SWEEP_X (a column, default the first)
#   SWEEP_CHUNK   slurm: rows per array task, one block (default: the fewest that keep the array within
#               the cluster's MaxArraySize, from scontrol show config, else 1001 tasks)
#   SWEEP_SBATCH  slurm: more sbatch options for both jobs, e.g. "--partition=short"
#   SWEEP_FORCE   1: replace the sweep of another table in OUTDIR (default: refused)
#   SWEEP_WAIT    slurm: 1 (default) waits for the gather job and prints its report; 0 submits
#               and returns (the gather job writes summary.csv when the array is done)
# A re-run with the same OUTDIR runs only the rows that failed, are missing, or whose options
# changed (the simulator binary or SWEEP_ARGS changed: every row). Another table (another file
# with other rows) into an OUTDIR that holds a sweep is refused (exit 2) unless SWEEP_FORCE=1,
# which replaces the earlier sweep. Exit status: 0 when every
# row succeeded, 1 when some failed (each reported with its parameters), 2 on bad input (the
# table, SWEEP_JOBS, SWEEP_CHUNK: before anything runs).
set -u
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "sweep: $*" >&2; exit 2; }
[ $# -eq 3 ] || die "usage: scripts/sweep.sh SIM PARAMS.csv OUTDIR"
sim=$1 csv=$2 dir=$3
engine=${SWEEP_ENGINE:-parallel}
[ -x "$sim" ] || die "$sim is not an executable simulator"
[ -f "$csv" ] && [ -r "$csv" ] || die "$csv not found (SWEEP=params.csv: a header of tunable and input names, one row per run)"
case "$engine" in parallel|slurm) ;; *) die "SWEEP_ENGINE=$engine: expected parallel or slurm" ;; esac
# OUTDIR reaches GNU parallel quoted (-q) and gnuplot as a safe literal; a line break no tool
# can take, and Slurm's #SBATCH lines (--output=...) split at white space and expand %
case "$dir" in *$'\n'*|*$'\r'*) die "OUTDIR $(printf '%q' "$dir") contains a line break: give another directory" ;; esac
if [ "$engine" = slurm ]; then
    case "$dir" in *[[:space:]\'\"\\%]*)
        die "OUTDIR '$dir': SWEEP_ENGINE=slurm cannot take white space, quotes, backslashes or % in it (its #SBATCH --output line): give another directory" ;;
    esac
fi

# ---- the bookkeeping tool (tools/mb_sweep_main.c): next to the simulator (make builds both
# into build/), or SWEEP_TOOL
tool=${SWEEP_TOOL:-$(dirname "$sim")/mb_sweep}
[ -x "$tool" ] || tool=$here/../build/mb_sweep
[ -x "$tool" ] || die "no mb_sweep next to $sim: make build/mb_sweep (or SWEEP_TOOL=PATH)"
# the options that are numbers, checked before anything is written
[ -z "${SWEEP_JOBS:-}" ] || [[ "$SWEEP_JOBS" =~ ^[1-9][0-9]{0,5}$ ]] ||
    die "SWEEP_JOBS=$SWEEP_JOBS: expected an integer >= 1 (simultaneous runs)"
[ -z "${SWEEP_BLOCK:-}" ] || [[ "$SWEEP_BLOCK" =~ ^[1-9][0-9]{0,8}$ ]] ||
    die "SWEEP_BLOCK=$SWEEP_BLOCK: expected an integer >= 1 (rows per simulator process), or nothing (chosen from the rows and SWEEP_JOBS)"
[ -z "${SWEEP_CHUNK:-}" ] || [[ "$SWEEP_CHUNK" =~ ^[1-9][0-9]{0,8}$ ]] ||
    die "SWEEP_CHUNK=$SWEEP_CHUNK: expected an integer >= 1 (rows per array task), or nothing (chosen to fit the cluster)"

read -r -a extra <<< "${SWEEP_ARGS:-}"      # words, never globs
for a in "${extra[@]}"; do
    case "$a" in --out|--out=*) die "SWEEP_ARGS: --out has no place in a sweep (each row keeps its summary row, not its motion): run a row alone with --out for that" ;; esac
done

# ---- the table: checked before anything runs (one message naming file:line, exit 2); its
# normalized text (no byte-order mark, no CR, a line break after every row) is what the sweep
# directory keeps
norm=$(mktemp "${TMPDIR:-/tmp}/sweep_table.XXXXXX") || die "cannot create a temporary file"
trap 'rm -f "$norm"' EXIT
"$tool" check "$csv" > "$norm" || exit 2

# ---- the sweep directory: the table, the simulator, the options; a stamp decides what is kept
# A directory holds one table's sweep: a re-run of that table (the same file, edited or not, or
# the same rows) goes on there; another table is refused (its results would replace the earlier
# sweep's silently) unless SWEEP_FORCE=1 (then the earlier runs, summary and plot are removed).
src=$(realpath -- "$csv") || die "cannot resolve $csv"
if [ -f "$dir/source" ] && [ "$(cat "$dir/source")" != "$src" ] && ! cmp -s "$norm" "$dir/params.csv"; then
    if [ "${SWEEP_FORCE:-0}" = 1 ]; then
        echo "sweep: SWEEP_FORCE=1: the earlier sweep in $dir (table $(cat "$dir/source")) is replaced" >&2
        rm -rf "$dir/runs" "$dir/results" "$dir/blocks" "$dir/slurm"
        rm -f "$dir/summary.csv" "$dir/plot.png" "$dir/stamp" "$dir/todo" "$dir/params.csv"
    else
        die "$dir holds the sweep of another table ($(cat "$dir/source")); give another directory (make sweep SWEEP_OUT=DIR, or OUTDIR here) or SWEEP_FORCE=1 to replace it"
    fi
fi
mkdir -p "$dir/results" || die "cannot create $dir"
dir=$(cd "$dir" && pwd)
printf '%s\n' "$src" > "$dir/source"
stamp=$( { sha1sum < "$sim"; printf '%s\n' "${SWEEP_ARGS:-}"; } | sha1sum | cut -d' ' -f1)
# (runs/: the results of a sweep made before the rows ran in blocks)
if [ "$(cat "$dir/stamp" 2>/dev/null)" != "$stamp" ] || [ -d "$dir/runs" ]; then
    rm -rf "$dir/runs" "$dir/results" "$dir/blocks" && mkdir "$dir/results" || die "cannot clear $dir/results"
fi
cp -f "$norm" "$dir/params.csv.tmp" && mv -f "$dir/params.csv.tmp" "$dir/params.csv" || die "cannot write $dir/params.csv"
cp -f "$sim" "$dir/sim.tmp" && mv -f "$dir/sim.tmp" "$dir/sim" || die "cannot copy $sim into $dir"
cp -f "$tool" "$dir/mb_sweep.tmp" && mv -f "$dir/mb_sweep.tmp" "$dir/mb_sweep" || die "cannot copy $tool into $dir"
if [ ${#extra[@]} -gt 0 ]; then printf '%s\n' "${extra[@]}" > "$dir/extra_args"; else : > "$dir/extra_args"; fi
echo "$stamp" > "$dir/stamp"
# rows still to run: no result, a failed result, or other values than the table now gives
# (mb_sweep plan: DIR/todo; the rows kept into results/kept.csv, every other result removed)
read -r n todo < <("$dir/mb_sweep" plan "$dir") && [ -n "${todo:-}" ] || exit 2
echo "sweep: $(basename "$sim") over $n rows of $csv: $todo to run ($((n - todo)) kept from an earlier run), engine $engine" >&2

# the progress line while the rows run (mb_sweep progress: the rows in DIR/results/, until
# its stdin, the engine's output, ends)
progress() { "$dir/mb_sweep" progress "$dir" "$todo"; }

gather() { "$here/sweep_gather.sh" "$dir" "${SWEEP_X:-}" "${SWEEP_Y:-max_energy_dev}"; }

if [ "$engine" = parallel ]; then
    # GNU parallel, not moreutils' (its script names its author; parallel --version costs a
    # Perl start, a third of a second on a loaded machine)
    par=$(command -v parallel) && { head -c 2000 "$par" | grep -q 'Ole Tange' || parallel --version 2>/dev/null | grep -q 'GNU parallel'; } ||
        die "GNU parallel is missing: scripts/deps.sh sweep"
    if [ "$todo" -gt 0 ]; then
        # blocks of rows, one simulator process each: 8 blocks per job (the last ones end
        # close together), at most 1000 rows a block, or SWEEP_BLOCK
        jobs=${SWEEP_JOBS:-$(nproc)}
        per=$(( (todo + 8 * jobs - 1) / (8 * jobs) )); [ "$per" -le 1000 ] || per=1000
        nb=$("$dir/mb_sweep" split "$dir" "${SWEEP_BLOCK:-$per}") && [ -n "$nb" ] || exit 2
        echo "sweep: $nb block(s) of up to ${SWEEP_BLOCK:-$per} rows, $jobs at a time" >&2
        # -q: the command's words reach sweep_task.sh as they are (a space or a quote in
        # OUTDIR), never through a shell
        seq 0 $((nb - 1)) | parallel --will-cite -q --jobs "$jobs" --halt never \
            "$here/sweep_task.sh" "$dir" {} | progress
    fi
    gather
    exit $?
fi

# ---- Slurm: an array of ceil(todo / chunk) tasks over the todo rows, then the gather job
command -v sbatch >/dev/null || die "sbatch not found: SWEEP_ENGINE=slurm needs a Slurm cluster (scripts/deps.sh slurm installs the client)"
# The array's task ids run 0 .. MaxArraySize - 1 (the cluster's, from scontrol; Slurm's default
# 1001 without it): SWEEP_CHUNK unset takes the fewest rows per task that fit (1 up to that
# many rows); a SWEEP_CHUNK that makes more tasks is refused, naming the least that fits.
maxarr="" from="scontrol show config"
# (bounded: a controller that does not answer costs 30 s, not a hang)
command -v scontrol >/dev/null &&
    maxarr=$(timeout 30 scontrol show config 2>/dev/null | awk '$1 == "MaxArraySize" && $2 == "=" { print $3; exit }')
[[ "$maxarr" =~ ^[0-9]{1,9}$ ]] || maxarr=1001 from="Slurm's default; scontrol show config did not say"
[ "$maxarr" -gt 0 ] || die "the cluster takes no job arrays (MaxArraySize = 0, $from)"
least=$(( (todo + maxarr - 1) / maxarr )); [ "$least" -ge 1 ] || least=1
chunk=${SWEEP_CHUNK:-$least}
if [ "$chunk" -lt "$least" ]; then
    die "SWEEP_CHUNK=$chunk: $todo rows to run make $(( (todo + chunk - 1) / chunk )) array tasks, more than the cluster's MaxArraySize $maxarr ($from): give SWEEP_CHUNK=$least or more, or leave it unset (then $least)"
fi
echo "$chunk" > "$dir/chunk"
mkdir -p "$dir/slurm"
name=$(basename "$dir")
ntask=0
if [ "$todo" -gt 0 ]; then
    ntask=$("$dir/mb_sweep" split "$dir" "$chunk") && [ -n "$ntask" ] || exit 2
fi
q() { printf '%q' "$1"; }
cat > "$dir/array.sbatch" <<SB
#!/bin/bash
# $name: one array task per block of $chunk row(s) of $dir/todo, $dir/blocks/<task id>.csv
# (scripts/sweep_task.sh --array: one simulator process, --batch)
#SBATCH --job-name=$name
#SBATCH --output=$dir/slurm/task_%A_%a.log
exec $(q "$here/sweep_task.sh") $(q "$dir") --array "\$SLURM_ARRAY_TASK_ID"
SB
cat > "$dir/gather.sbatch" <<SB
#!/bin/bash
# $name: the gather step after the array (scripts/sweep_gather.sh)
#SBATCH --job-name=${name}_gather
#SBATCH --output=$dir/slurm/gather_%j.log
exec $(q "$here/sweep_gather.sh") $(q "$dir") $(q "${SWEEP_X:-}") $(q "${SWEEP_Y:-max_energy_dev}")
SB
chmod +x "$dir/array.sbatch" "$dir/gather.sbatch"
if [ "$todo" -eq 0 ]; then gather; exit $?; fi
read -r -a sbo <<< "${SWEEP_SBATCH:-}"       # words, never globs
jid=$(sbatch --parsable "${sbo[@]}" --array=0-$((ntask - 1)) "$dir/array.sbatch") ||
    die "sbatch of the array failed"
jid=${jid%%;*}
echo "sweep: submitted array job $jid ($ntask tasks of $chunk row(s); squeue -j $jid shows them), gather after it" >&2
if [ "${SWEEP_WAIT:-1}" = 1 ]; then
    # (the progress line until sbatch returns: the rows the array's tasks have written)
    sbatch --parsable --wait "${sbo[@]}" --dependency=afterany:"$jid" "$dir/gather.sbatch" > "$dir/slurm/gather.jid" | progress
    rc=${PIPESTATUS[0]}
    cat "$dir"/slurm/gather_"$(cut -d';' -f1 < "$dir/slurm/gather.jid")".log >&2 2>/dev/null
    [ $rc -le 1 ] || echo "sweep: the gather job ended with status $rc" >&2
    [ -f "$dir/summary.csv" ] || die "no $dir/summary.csv: the gather job did not run (see $dir/slurm/)"
    exit $(( rc == 0 ? 0 : 1 ))
fi
gj=$(sbatch --parsable "${sbo[@]}" --dependency=afterany:"$jid" "$dir/gather.sbatch") || die "sbatch of the gather job failed"
echo "sweep: gather job ${gj%%;*}: $dir/summary.csv when the array is done" >&2
