#!/usr/bin/env bash
# bench_sweep.sh - make sweep in blocks (SIM --batch, scripts/sweep.sh) against the per-row
# sweep it replaced, side by side in one run, on the same Andrews table (docs/sweeps.md):
#  1. the rows' solver time: one --batch process over the whole table, one row after the other
#     (its wall time, and the sum of the rows' own wall_s);
#  2. the sweep in blocks (GNU parallel, every core), wall and CPU time, against the table
#     solved by one --batch process per core at once (the rows' solver time / cores as the
#     machine gives it at that moment), BENCH_REPEAT (3) pairs one after the other; and against
#     the one-process run / cores;
#  3. the per-row sweep of commit BENCH_REF (its scripts and its build/mb_sweep, built here from
#     that commit; the same simulator), on the first BENCH_OLD_ROWS rows; its summary.csv
#     against the new one's, wall_s aside (the same rows, the same numbers);
#  4. the bookkeeping alone on BENCH_BOOK_ROWS rows: scripts/sweep.sh with a stand-in simulator
#     whose --batch solves nothing, then the re-run that keeps every row; mb_sweep plan, split
#     and gather timed by themselves.
# The machine's load average is printed before and after each timed step (a shared machine:
# the ratio is only meaningful with both sweeps in the same window). Timing is never pass/fail.
# Usage: scripts/bench_sweep.sh [SIMULATOR]   (default build/andrews_sim; build/mb_sweep next
#        to it). Environment: BENCH_ROWS (10000), BENCH_OLD_ROWS (1000: the per-row sweep costs
#        about 30 ms of CPU a row, 5 minutes of both cores at 10000), BENCH_BOOK_ROWS (100000),
#        BENCH_REF (the per-row sweep's commit, b142247), BENCH_REPEAT (3), BENCH_T_END (0.006 s: about 600 steps
#        of h = 1e-5, 1 ms of solver time a row).
set -u
SIM=${1:-build/andrews_sim}
TOOL=$(dirname "$SIM")/mb_sweep
ROWS=${BENCH_ROWS:-10000}
OLD_ROWS=${BENCH_OLD_ROWS:-1000}
BOOK_ROWS=${BENCH_BOOK_ROWS:-100000}
REF=${BENCH_REF:-b142247}
T_END=${BENCH_T_END:-0.006}
REPEAT=${BENCH_REPEAT:-3}
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$SIM" ] && [ -x "$TOOL" ] || { echo "bench_sweep.sh: no $SIM or $TOOL (make $SIM $TOOL)" >&2; exit 1; }
command -v parallel >/dev/null || { echo "bench_sweep.sh: GNU parallel missing (scripts/deps.sh sweep)" >&2; exit 1; }
SIM=$(realpath "$SIM") TOOL=$(realpath "$TOOL")
T=$(mktemp -d "${TMPDIR:-/tmp}/bench_sweep.XXXXXX")
trap '[ -n "${BENCH_KEEP:-}" ] || rm -rf "$T"' EXIT
cores=$(nproc)
load() { cut -d' ' -f1-3 /proc/loadavg; }
# timed CMD...: "wall user+sys" of CMD and its children into $T/time
timed() { /usr/bin/time -f '%e %U %S' -o "$T/time" "$@"; }
wall() { awk '{ print $1 }' "$T/time"; }
cpu() { awk '{ printf "%.2f", $2 + $3 }' "$T/time"; }
# strip CSV: wall_s and a repeated column dropped (the per-row sweep's summary repeated the
# table's t_end; the sweep in blocks names each column once), the rest compared as text
strip() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { drop[i] = ($i == "wall_s" || seen[$i]++) } }
    { s = ""; for (i = 1; i <= NF; i++) if (!drop[i]) s = s "," $i; print s }' "$1"; }

# the table: h from 0.9e-5 to 1.1e-5, every row about 600 steps of Andrews' squeezer
awk -v n="$ROWS" -v te="$T_END" 'BEGIN { print "h,t_end"; for (i = 0; i < n; i++) printf "%.6e,%s\n", 0.9e-5 + 0.2e-5 * i / n, te }' > "$T/table.csv"
head -n $((OLD_ROWS + 1)) "$T/table.csv" > "$T/table_old.csv"
printf '# make sweep in blocks vs the per-row sweep (%s), %s, %d cores, %s\n' "$REF" "$(basename "$SIM")" "$cores" "$(date -u +%Y-%m-%dT%H:%MZ)"
printf '# table: %d rows h,t_end (h 0.9e-5 .. 1.1e-5, t_end %s)\n\n' "$ROWS" "$T_END"

# ---- 1. the rows' solver time, one row after the other in one process
l0=$(load)
timed "$SIM" --quiet --batch "$T/table.csv" > "$T/serial.csv" 2> /dev/null
ser=$(wall) ser_cpu=$(cpu)
sum_wall=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_s") w = i; next } { s += $w } END { printf "%.2f", s }' "$T/serial.csv")
printf 'rows solved one after the other (one --batch process): %s s wall, %s s CPU; sum of the rows'"'"' wall_s %s s  [load %s -> %s]\n' \
    "$ser" "$ser_cpu" "$sum_wall" "$l0" "$(load)"

# ---- 2. the sweep in blocks, against the table solved in one process per core at once (the
# rows' solver time / cores as this machine gives it now, no bookkeeping): pairs of runs one
# after the other, so both see the same load
awk -v c="$cores" 'NR == 1 { for (i = 0; i < c; i++) print > (FILENAME "." i); next }
                   { print > (FILENAME "." ((NR - 2) % c)) }' "$T/table.csv"
now() { date +%s.%N; }
ratios=""
for rep in $(seq 1 "$REPEAT"); do
    l0=$(load)
    t0=$(now)
    for i in $(seq 0 $((cores - 1))); do "$SIM" --quiet --batch "$T/table.csv.$i" > /dev/null 2>&1 & done
    wait
    ideal=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
    rm -rf "$T/new"
    timed "$here/sweep.sh" "$SIM" "$T/table.csv" "$T/new" > /dev/null 2> "$T/new.err"
    new=$(wall) new_cpu=$(cpu)
    ok=$(grep -c ',ok,0,' "$T/new/summary.csv")
    r=$(awk -v n="$new" -v i="$ideal" 'BEGIN { printf "%.2f", n / i }')
    ratios="$ratios $r"
    printf 'run %d: the table in %d --batch processes at once %s s; make sweep in blocks (%s) %s s wall, %s s CPU, %d/%d rows ok: ratio %s  [load %s -> %s]\n' \
        "$rep" "$cores" "$ideal" "$(grep -o '[0-9]* block(s) of up to [0-9]* rows' "$T/new.err")" "$new" "$new_cpu" "$ok" "$ROWS" "$r" "$l0" "$(load)"
done
printf '  ratio of make sweep to the rows solved %d at once (the solver time / cores now): %s (median %s)\n' "$cores" "$ratios" \
    "$(printf '%s\n' $ratios | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
awk -v n="$new" -v s="$ser" -v w="$sum_wall" -v c="$cores" -v nc="$new_cpu" -v sc="$ser_cpu" 'BEGIN {
    printf "  last run against the one-process run / %d cores: %.2f (its wall), %.2f (the sum of wall_s); CPU %.2f x the one-process run'"'"'s\n", c, n / (s / c), n / (w / c), nc / sc }'

# ---- 3. the per-row sweep of $REF, the same simulator
mkdir -p "$T/old/scripts" "$T/old/tools"
for f in scripts/sweep.sh scripts/sweep_task.sh scripts/sweep_gather.sh scripts/gp_quote.sh tools/mb_sweep_main.c \
         tools/mb_sweep_table.c tools/mb_sweep_table.h; do
    git -C "$here/.." show "$REF:$f" > "$T/old/$f" 2> /dev/null || { echo "bench_sweep.sh: no $f in $REF" >&2; exit 1; }
done
chmod +x "$T/old/scripts/"*.sh
${CC:-cc} -std=c99 -O2 -I"$T/old/tools" "$T/old/tools/mb_sweep_main.c" "$T/old/tools/mb_sweep_table.c" -o "$T/old/mb_sweep" ||
    { echo "bench_sweep.sh: cannot build $REF's mb_sweep" >&2; exit 1; }
l0=$(load)
SWEEP_TOOL=$T/old/mb_sweep timed "$T/old/scripts/sweep.sh" "$SIM" "$T/table_old.csv" "$T/old/out" > /dev/null 2> /dev/null
old=$(wall) old_cpu=$(cpu)
printf 'per-row make sweep (%s) on %d rows: %s s wall, %s s CPU  [load %s -> %s]\n' "$REF" "$OLD_ROWS" "$old" "$old_cpu" "$l0" "$(load)"
awk -v o="$old" -v oc="$old_cpu" -v r="$OLD_ROWS" -v n="$new" -v nc="$new_cpu" -v nr="$ROWS" 'BEGIN {
    printf "  per row: %.2f ms per-row, %.3f ms in blocks (%.0fx); CPU %.2f ms per-row, %.3f ms in blocks (%.0fx)\n",
        1000 * o / r, 1000 * n / nr, (o / r) / (n / nr), 1000 * oc / r, 1000 * nc / nr, (oc / r) / (nc / nr) }'
if [ "$(strip "$T/old/out/summary.csv")" = "$(strip "$T/new/summary.csv" | head -n $((OLD_ROWS + 1)))" ]; then
    printf '  summary.csv: the same %d rows, every column but wall_s identical\n' "$OLD_ROWS"
else
    printf '  summary.csv: DIFFERS from the per-row sweep on the first %d rows\n' "$OLD_ROWS"
fi

# ---- 4. the bookkeeping alone: a stand-in simulator that solves nothing
cat > "$T/fake_sim" <<'FAKE'
#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = --batch ] && f=$2; shift; done
awk -F, 'NR == 1 { printf "%s,status,exit,code,max_energy_dev,t_end,wall_s,message\n", $0; next }
         { printf "%s,ok,0,0,1e-6,%s,0.000,\"\"\n", $0, $3 }' "$f"
FAKE
chmod +x "$T/fake_sim"
awk -v n="$BOOK_ROWS" -v te="$T_END" 'BEGIN { print "h,t_end"; for (i = 0; i < n; i++) printf "%.6e,%s\n", 0.9e-5 + 0.2e-5 * i / n, te }' > "$T/book.csv"
printf '\nbookkeeping alone, %d rows (a stand-in --batch that solves nothing):\n' "$BOOK_ROWS"
l0=$(load)
SWEEP_TOOL=$TOOL timed "$here/sweep.sh" "$T/fake_sim" "$T/book.csv" "$T/book" > /dev/null 2> "$T/book.err"
printf '  first sweep (check, plan, split, %s, progress, gather, plot): %s s wall, %s s CPU  [load %s -> %s]\n' \
    "$(grep -o '[0-9]* block(s)' "$T/book.err")" "$(wall)" "$(cpu)" "$l0" "$(load)"
SWEEP_TOOL=$TOOL timed "$here/sweep.sh" "$T/fake_sim" "$T/book.csv" "$T/book" > /dev/null 2> /dev/null
printf '  re-run, every row kept (check, plan, gather, plot): %s s wall, %s s CPU\n' "$(wall)" "$(cpu)"
timed "$TOOL" gather "$T/book" > /dev/null 2>&1
printf '  mb_sweep gather: %s s' "$(wall)"
rm -f "$T/book/results/kept.csv"
cp "$T/book/summary.csv" "$T/book/results/b0.csv"   # (as if one block had written every row)
timed "$TOOL" plan "$T/book" > /dev/null 2>&1
printf ', plan (%d rows read, kept): %s s' "$BOOK_ROWS" "$(wall)"
seq 1 "$BOOK_ROWS" > "$T/book/todo"
timed "$TOOL" split "$T/book" 1000 > /dev/null 2>&1
printf ', split (%d rows into blocks of 1000): %s s\n' "$BOOK_ROWS" "$(wall)"
