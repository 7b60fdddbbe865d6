#!/usr/bin/env bash
# test_sweep.sh - parameter sweeps (scripts/sweep.sh, docs/sweeps.md) without a cluster:
#  - GNU parallel: a table with a tunable and an option column (t_end) and one row that breaks
#    a rule: summary.csv has every row with its parameters, status and summary fields (the
#    values are the simulator's own summary line for that row), the failed row is reported with
#    its parameters and the rest completes (exit 1); plot.png is written;
#  - re-runs: with the row fixed only it runs; unchanged, nothing runs; an interrupted row (no
#    result) is redone alone; other SWEEP_ARGS redo every row;
#  - blocks: the rows to run split into blocks of SWEEP_BLOCK rows in order, run out of order,
#    gathered in row order, a re-run's blocks joined with the rows kept; damaged results files
#    (garbage lines, random bytes, another table's) not read;
#  - bad tables: a bad header, a row of the wrong length, an empty cell, blank lines, shell
#    syntax or quotes in a value, a bad SWEEP_JOBS or SWEEP_CHUNK: exit 2 with one message
#    naming the file and line, no sweep directory; an unknown column: every row fails with the
#    tunables and inputs listed; an input column (motor_arm's V): each row as its direct run;
#  - a byte-order mark, CRLF, no line break after the last row: every row runs; a failed row
#    whose value is "ok" counts as failed; --help as a value fails its row; the progress line and
#    a shorter table, with a stand-in simulator (its --batch prints summary rows, solving nothing);
#    the plot's y tick labels distinct when Y varies in its 7th digit (read on gnuplot's text
#    terminal);
#    an interrupted block (a row's line cut short) redoes that row alone;
#  - SWEEP_ENGINE=slurm through a stand-in sbatch that runs the generated job scripts as Slurm
#    would (the array script once per SLURM_ARRAY_TASK_ID, then the dependent gather script):
#    the same summary as GNU parallel, chunks of 2 rows; SWEEP_CHUNK chosen to fit the cluster's
#    MaxArraySize (a stand-in scontrol), or refused over it; the real thing: tests/test_slurm.sh;
#  - OUTDIR, SWEEP and RESULTS with a space or a quote; every row failing (no plot, the earlier
#    plot removed, one clear line); an unknown SWEEP_Y named;
#  - make sweep MODEL=suspension SWEEP=... writes RESULTS/sweep_suspension/summary.csv; a second
#    table for the same model is refused (the earlier sweep kept) unless SWEEP_OUT or SWEEP_FORCE=1.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
MAKE=${MAKE:-make}
BUILD=${BUILD:-build}
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_sweep.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mk() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS "$MAKE" --no-print-directory -C "$root" "$@"; }
SIM=$BUILD/suspension_sim
[ -x "$SIM" ] || mk "$SIM" >/dev/null 2>&1 || { bad "cannot build $SIM"; echo "$pass passed, $fail failed"; exit 1; }
# the bookkeeping (tools/mb_sweep_main.c): scripts/sweep.sh finds it next to the simulator
[ -x "$BUILD/mb_sweep" ] || mk "$BUILD/mb_sweep" >/dev/null 2>&1 || { bad "cannot build $BUILD/mb_sweep"; echo "$pass passed, $fail failed"; exit 1; }
scripts/deps.sh sweep >/dev/null 2>&1 || bad "scripts/deps.sh sweep failed"

printf 'k,c,t_end\n12000,500,0.3\n16000,800,0.2\n-5,500,0.3\n24000,2000,0.3\n' > "$tmp/p.csv"
out=$tmp/sweep_a
scripts/sweep.sh "$SIM" "$tmp/p.csv" "$out" > "$tmp/o" 2> "$tmp/e"
rc=$?
if [ $rc -eq 1 ] && [ "$(wc -l < "$out/summary.csv")" -eq 5 ]; then ok; else bad "parallel sweep: rc=$rc $(cat "$tmp/e")"; fi
if grep -q 'row 3 (k=-5 c=500 t_end=0.3) failed (exit 2): suspension_sim: --set: k=-5 c=500: the values break the model.s rule spring "susp" k >= 0' "$tmp/e"; then ok
else bad "failed row report: $(cat "$tmp/e")"; fi
if head -n 1 "$out/summary.csv" | grep -q '^row,k,c,t_end,status,exit,code,model,formulation,.*,max_energy_dev,.*,wall_s,message$'; then ok
else bad "summary header: $(head -n 1 "$out/summary.csv")"; fi
# each row's fields are its own run's: row 2 against a direct run with the same options
direct=$("$SIM" --quiet --set k=16000 --set c=800 --t-end 0.2)
for f in steps newton_iters max_energy_dev t_end; do
    want=$(printf '%s\n' "$direct" | tr ' ' '\n' | sed -n "s/^$f=//p")
    got=$(awk -F, -v f="$f" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == f) c = i } NR == 3 { print $c }' "$out/summary.csv")
    if [ -n "$want" ] && [ "$want" = "$got" ]; then ok; else bad "row 2 $f: summary.csv '$got', direct run '$want'"; fi
done
if grep -q '^3,-5,500,0.3,failed,2,' "$out/summary.csv" && [ "$(grep -c ',ok,0,' "$out/summary.csv")" -eq 3 ]; then ok
else bad "statuses: $(cut -d, -f1-6 "$out/summary.csv")"; fi
if [ -s "$out/plot.png" ] && [ "$(head -c 4 "$out/plot.png" | tail -c 3)" = PNG ]; then ok; else bad "no plot.png"; fi

# ---- re-runs
printf 'k,c,t_end\n12000,500,0.3\n16000,800,0.2\n20000,500,0.3\n24000,2000,0.3\n' > "$tmp/p.csv"
scripts/sweep.sh "$SIM" "$tmp/p.csv" "$out" > /dev/null 2> "$tmp/e"
rc=$?
if [ $rc -eq 0 ] && grep -q ': 1 to run (3 kept' "$tmp/e" && [ "$(grep -c ',ok,0,' "$out/summary.csv")" -eq 4 ]; then ok
else bad "re-run with the row fixed: rc=$rc $(cat "$tmp/e")"; fi
scripts/sweep.sh "$SIM" "$tmp/p.csv" "$out" > /dev/null 2> "$tmp/e"
if grep -q ': 0 to run (4 kept' "$tmp/e"; then ok; else bad "unchanged re-run: $(cat "$tmp/e")"; fi
# as if the batch was killed while writing row 2: its line cut short, without its line break
r2=$(grep '^2,' "$out/results/kept.csv")
{ grep -v '^2,' "$out/results/kept.csv"; printf '%s' "${r2:0:20}"; } > "$tmp/k" && mv "$tmp/k" "$out/results/kept.csv"
scripts/sweep.sh "$SIM" "$tmp/p.csv" "$out" > /dev/null 2> "$tmp/e"
if grep -q ': 1 to run (3 kept' "$tmp/e" && grep -q '^2,16000,800,0.2,ok,0,' "$out/summary.csv" &&
   [ "$(cut -d, -f1 "$out/summary.csv" | tr '\n' ' ')" = "row 1 2 3 4 " ]; then ok; else bad "interrupted row: $(cat "$tmp/e")"; fi
SWEEP_ARGS="--formulation canonical" scripts/sweep.sh "$SIM" "$tmp/p.csv" "$out" > /dev/null 2> "$tmp/e"
if grep -q ': 4 to run (0 kept' "$tmp/e" && [ "$(grep -c ',canonical,' "$out/summary.csv")" -eq 4 ]; then ok
else bad "other SWEEP_ARGS: $(cat "$tmp/e")"; fi

# ---- bad tables
bad_table() {   # bad_table "what" "pattern" csv-text [VAR=VALUE...]
    printf '%b' "$3" > "$tmp/b.csv"
    rm -rf "$tmp/sweep_b"
    env "${@:4}" scripts/sweep.sh "$SIM" "$tmp/b.csv" "$tmp/sweep_b" > "$tmp/o" 2> "$tmp/e"
    local rc=$?
    if [ $rc -eq 2 ] && grep -q -- "$2" "$tmp/e" && [ ! -e "$tmp/sweep_b" ]; then ok
    else bad "$1: rc=$rc $(cat "$tmp/e")"; fi
}
bad_table "bad header" 'b.csv:1: column 2: "c c" is not a name' 'k,c c\n1,2\n'
bad_table "short row" 'b.csv:3: 1 fields, the header has 2' 'k,c\n1,2\n3\n'
bad_table "empty cell" 'b.csv:2: column 2 is empty' 'k,c\n1, \n'
bad_table "no rows" 'b.csv: no rows' 'k,c\n'
bad_table "duplicate column" 'column "k" given twice' 'k,k\n1,2\n'
bad_table "a value that is no number" 'b.csv:2: column 1: "1;rm" is not a number' 'k\n1;rm\n'
bad_table "command substitution" 'b.csv:2: column 1: "$(touch PWNED)" is not a number' 'k\n$(touch PWNED)\n'
bad_table "backticks" 'b.csv:2: column 1: "`id`" is not a number' 'k\n`id`\n'
bad_table "a quoted line break" 'b.csv:2: column 1: "\\"1" is not a number' 'k\n"1\n2"\n'
bad_table "unknown SWEEP_JOBS" 'SWEEP_JOBS=abc: expected an integer >= 1' 'k\n12000\n' SWEEP_JOBS=abc
bad_table "unknown SWEEP_CHUNK" 'SWEEP_CHUNK=0: expected an integer >= 1' 'k\n12000\n' SWEEP_CHUNK=0
# a table of blank lines, a blank line, an empty file: refused, not the model's defaults run
bad_table "blank lines only" 'b.csv:1: the header is empty' '\n\n'
bad_table "a blank line" 'b.csv:3: a blank line' 'k\n12000\n\n16000\n'
bad_table "an empty file" 'b.csv: empty' ''
# every header error is one message: no "no rows" after it
printf 'k,c c\n' > "$tmp/b.csv"
scripts/sweep.sh "$SIM" "$tmp/b.csv" "$tmp/sweep_b" > /dev/null 2> "$tmp/e"
if [ $? -eq 2 ] && [ "$(wc -l < "$tmp/e")" -eq 1 ] && ! grep -q 'no rows' "$tmp/e"; then ok
else bad "a header error and nothing else: $(cat "$tmp/e")"; fi
# a byte-order mark shown where it is no part of the file's start
bad_table "a mark inside the header" 'b.csv:1: column 2: "\\xef\\xbb\\xbfc" is not a name' 'k,\xef\xbb\xbfc\n1,2\n'

# ---- tables as editors write them: a byte-order mark and CRLF (a spreadsheet), no line break
# after the last row; every row runs, with the engine below as with this one
printf '\xef\xbb\xbfk,t_end\r\n12000,0.2\r\n16000,0.2' > "$tmp/bom.csv"
scripts/sweep.sh "$SIM" "$tmp/bom.csv" "$tmp/sweep_bom" > /dev/null 2> "$tmp/e"
rc=$?
if [ $rc -eq 0 ] && grep -q '^sweep: 2 rows, 2 ok' "$tmp/e" && grep -q '^row,k,t_end,status,' "$tmp/sweep_bom/summary.csv" &&
   [ "$(grep -c ',ok,0,' "$tmp/sweep_bom/summary.csv")" -eq 2 ]; then ok
else bad "a table with a byte-order mark, CRLF, no last line break: rc=$rc $(cat "$tmp/e")"; fi
printf 'k\n12000\n16000' > "$tmp/nonl.csv"
scripts/sweep.sh "$SIM" "$tmp/nonl.csv" "$tmp/sweep_nonl" > /dev/null 2> "$tmp/e"
rc=$?
if [ $rc -eq 0 ] && grep -q ': 2 to run' "$tmp/e" && grep -q '^2,16000,ok,0,' "$tmp/sweep_nonl/summary.csv"; then ok
else bad "the last row without a line break: rc=$rc $(cat "$tmp/e")"; fi
# the status column decides, not an "ok" elsewhere in the line: a row whose value is ok fails
printf 'k,formulation\n12000,ok\n' > "$tmp/okv.csv"
scripts/sweep.sh "$SIM" "$tmp/okv.csv" "$tmp/sweep_okv" > /dev/null 2> "$tmp/e"
rc=$?
if [ $rc -eq 1 ] && grep -q '^sweep: 1 rows, 0 ok' "$tmp/e" && grep -q '^sweep: no plot: no row succeeded$' "$tmp/e" &&
   grep -q '^1,12000,ok,failed,2,' "$tmp/sweep_okv/summary.csv"; then ok
else bad "a failed row with the value ok: rc=$rc $(cat "$tmp/e")"; fi
# --help as a value is a value: the row fails with the simulator's message, no usage text
printf 't_end\n--help\n' > "$tmp/help.csv"
scripts/sweep.sh "$SIM" "$tmp/help.csv" "$tmp/sweep_help" > "$tmp/o" 2> "$tmp/e"
rc=$?
if [ $rc -eq 1 ] && grep -q "row 1 (t_end=--help) failed (exit 2): suspension_sim: invalid value '--help' for --t-end" "$tmp/e" &&
   ! grep -qi usage "$tmp/o" "$tmp/e"; then ok
else bad "--help as a value: rc=$rc $(cat "$tmp/e")"; fi
# a progress line (not a terminal: at tenths of 100 rows or more), the bookkeeping of many
# rows, with a stand-in simulator that solves nothing: its --batch prints a summary row per row
cat > "$tmp/fake_sim" <<'FAKE'
#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = --batch ] && f=$2; shift; done
awk -F, 'NR == 1 { printf "%s,status,exit,code,max_energy_dev,t_end,message\n", $0; next }
         { printf "%s,ok,0,0,0,1,\"\"\n", $0 }' "$f"
FAKE
chmod +x "$tmp/fake_sim"
awk 'BEGIN { print "k"; for (i = 1; i <= 150; i++) print i }' > "$tmp/many.csv"
SWEEP_TOOL=$BUILD/mb_sweep scripts/sweep.sh "$tmp/fake_sim" "$tmp/many.csv" "$tmp/sweep_many" > /dev/null 2> "$tmp/e"
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c '^sweep: [0-9]*/150 rows run, 0 failed ([0-9]*%)$' "$tmp/e")" -ge 1 ] &&
   [ "$(grep '^sweep: [0-9]*/150 rows run' "$tmp/e" | tail -n 1)" = "sweep: 150/150 rows run, 0 failed (100%)" ] &&
   grep -q '^sweep: 150 rows, 150 ok' "$tmp/e" && [ "$(grep -c ',ok,0,' "$tmp/sweep_many/summary.csv")" -eq 150 ]; then ok
else bad "progress lines: rc=$rc $(cat "$tmp/e")"; fi
# the plot's tick labels tell the ticks apart when Y varies in its 7th digit (2.255065e-5 ..
# 2.255071e-5: the default format showed 2.25507e-05 at every tick): gnuplot through a stand-in
# that draws the same script on its text terminal, whose tick labels are read back
if command -v gnuplot >/dev/null; then
    cat > "$tmp/fine_sim" <<'FAKE'
#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = --batch ] && f=$2; shift; done
awk -F, 'NR == 1 { printf "%s,status,exit,code,max_energy_dev,t_end,message\n", $0; next }
         { printf "%s,ok,0,0,%.6e,1,\"\"\n", $0, 2.255065e-5 + 1.5e-14 * $2 }' "$f"
FAKE
    chmod +x "$tmp/fine_sim"
    mkdir -p "$tmp/gpbin"
    gp=$(command -v gnuplot)
    printf '#!/bin/sh\nsed -e "s/^set terminal pngcairo.*/set terminal dumb size 120,40/" -e "s|^set output .*|set output %s|" | %s\n' \
        "'$tmp/dumb.txt'" "$gp" > "$tmp/gpbin/gnuplot"
    chmod +x "$tmp/gpbin/gnuplot"
    printf 'k\n0\n1000\n2000\n3000\n4000\n' > "$tmp/fine.csv"
    PATH=$tmp/gpbin:$PATH SWEEP_TOOL=$BUILD/mb_sweep scripts/sweep.sh "$tmp/fine_sim" "$tmp/fine.csv" "$tmp/sweep_fine" > /dev/null 2> "$tmp/e"
    ticks=$(sed -n 's/^ *\([-+0-9.e]*\) [|+].*/\1/p' "$tmp/dumb.txt" 2>/dev/null | grep .)
    if [ "$(printf '%s\n' "$ticks" | grep -c .)" -ge 3 ] && [ -z "$(printf '%s\n' "$ticks" | sort | uniq -d)" ]; then ok
    else bad "the plot's y ticks repeat: $(printf '%s ' $ticks) $(cat "$tmp/e")"; fi
fi
# a shorter table: the results of the rows beyond it go, the rest are kept
head -n 101 "$tmp/many.csv" > "$tmp/many2.csv" && cp "$tmp/many2.csv" "$tmp/many.csv"
SWEEP_TOOL=$BUILD/mb_sweep scripts/sweep.sh "$tmp/fake_sim" "$tmp/many.csv" "$tmp/sweep_many" > /dev/null 2> "$tmp/e"
if grep -q ': 0 to run (100 kept' "$tmp/e" && ! grep -q '^101,' "$tmp/sweep_many/results/kept.csv" &&
   grep -q '^100,100,ok,' "$tmp/sweep_many/results/kept.csv" && [ "$(wc -l < "$tmp/sweep_many/summary.csv")" -eq 101 ]; then ok
else bad "a shorter table: $(cat "$tmp/e")"; fi
# blocks: split in the order of the rows to run, finished out of order (3 at a time, blocks of
# 4 rows, the first block the slowest), gathered in row order; a re-run splits only the rows
# to run and joins them with the rows kept, in row order
printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = --batch ] && f=$2; shift; done\n[ "$(sed -n "2s/,.*//p" "$f")" = 1 ] && sleep 1\nexec %q --batch "$f"\n' "$tmp/fake_sim" > "$tmp/slow_sim"
chmod +x "$tmp/slow_sim"
awk 'BEGIN { print "k,c"; for (i = 1; i <= 25; i++) print i "," 100 - i }' > "$tmp/ord.csv"
rows() { awk -v a="$1" -v b="$2" 'BEGIN { for (i = a; i <= b; i++) printf "%d,%d,%d\n", i, i, 100 - i }'; }
SWEEP_TOOL=$BUILD/mb_sweep SWEEP_JOBS=3 SWEEP_BLOCK=4 scripts/sweep.sh "$tmp/slow_sim" "$tmp/ord.csv" "$tmp/sweep_ord" > /dev/null 2> "$tmp/e"
rc=$?
blocks_ok=1
for i in 0 1 2 3 4 5 6; do
    a=$((4 * i + 1)) b=$((4 * i + 4)); [ $b -le 25 ] || b=25
    [ "$(tail -n +2 "$tmp/sweep_ord/blocks/$i.csv")" = "$(rows $a $b)" ] && [ "$(head -n 1 "$tmp/sweep_ord/blocks/$i.csv")" = "row,k,c" ] || blocks_ok=0
done
[ ! -e "$tmp/sweep_ord/blocks/7.csv" ] || blocks_ok=0
if [ $rc -eq 0 ] && [ $blocks_ok = 1 ] && grep -q '^sweep: 7 block(s) of up to 4 rows, 3 at a time' "$tmp/e" &&
   [ "$(tail -n +2 "$tmp/sweep_ord/summary.csv" | cut -d, -f1-3)" = "$(rows 1 25)" ]; then ok
else bad "blocks split and gathered in order: rc=$rc $(cat "$tmp/e") $(cut -d, -f1-3 "$tmp/sweep_ord/summary.csv" | tr '\n' ' ')"; fi
sed -i '/^\(5\|6\|7\|8\|9\|10\|11\|12\|20\),/d' "$tmp/sweep_ord/results/"b*.csv   # as if never run
SWEEP_TOOL=$BUILD/mb_sweep SWEEP_JOBS=3 SWEEP_BLOCK=4 scripts/sweep.sh "$tmp/slow_sim" "$tmp/ord.csv" "$tmp/sweep_ord" > /dev/null 2> "$tmp/e"
rc=$?
if [ $rc -eq 0 ] && grep -q ': 9 to run (16 kept' "$tmp/e" && [ "$(ls "$tmp/sweep_ord/blocks/" | grep -c 'csv$')" -eq 3 ] &&
   [ "$(tail -n +2 "$tmp/sweep_ord/blocks/2.csv")" = "$(rows 20 20)" ] &&
   [ "$(tail -n +2 "$tmp/sweep_ord/summary.csv" | cut -d, -f1-3)" = "$(rows 1 25)" ]; then ok
else bad "a re-run's blocks joined with the rows kept: rc=$rc $(cat "$tmp/e")"; fi
# damaged results: garbage lines (an unclosed quote, too few cells, control bytes, a row that
# is no row), random bytes, another table's header: not read, the good rows still are
printf '"unclosed,1\n7,7\n\001\002,,,\n0,1,99,ok,0,0,0,1,""\n26,1,74,ok,0,0,0,1,""\n' >> "$tmp/sweep_ord/results/kept.csv"
head -c 20000 /dev/urandom > "$tmp/sweep_ord/results/b97.csv"
printf 'row,x,status,exit,message\n3,1,failed,2,"no"\n' > "$tmp/sweep_ord/results/b98.csv"
printf 'row,k,c,status,exit,message\n"3,3,97,failed,2,"\n' > "$tmp/sweep_ord/results/b99.csv"
"$BUILD/mb_sweep" gather "$tmp/sweep_ord" > "$tmp/o" 2> "$tmp/e"
rc=$?
if [ $rc -eq 0 ] && [ "$(cat "$tmp/o")" = "25 25" ] && [ ! -s "$tmp/e" ] &&
   [ "$(tail -n +2 "$tmp/sweep_ord/summary.csv" | cut -d, -f1-4)" = "$(rows 1 25 | sed 's/$/,ok/')" ]; then ok
else bad "damaged results files: rc=$rc $(cat "$tmp/o" "$tmp/e")"; fi
printf 'kk\n1\n2\n' > "$tmp/u.csv"
scripts/sweep.sh "$SIM" "$tmp/u.csv" "$tmp/sweep_u" > /dev/null 2> "$tmp/e"
rc=$?
if [ $rc -eq 1 ] && [ "$(grep -c "unknown tunable or input 'kk'; the tunables are: m (default 250) k" "$tmp/e")" -eq 2 ]; then ok
else bad "unknown column: rc=$rc $(cat "$tmp/e")"; fi

# an input column (models/motor_arm.lua's V): each row's run has --set V=..., as a direct run;
# the rows differ (V moves the arm), so the column reached the model
ARM=$BUILD/motor_arm_sim
[ -x "$ARM" ] || mk "$ARM" >/dev/null 2>&1 || bad "cannot build $ARM"
printf 'V,t_end\n0.5,0.3\n3,0.3\n' > "$tmp/in.csv"
SWEEP_Y=max_energy_dev scripts/sweep.sh "$ARM" "$tmp/in.csv" "$tmp/sweep_in" > /dev/null 2> "$tmp/e"
rc=$?
direct=$("$ARM" --quiet --set V=3 --t-end 0.3 2>/dev/null | tr ' ' '\n' | sed -n 's/^steps=//p;s/^newton_iters=//p;s/^max_energy_dev=//p' | tr '\n' ' ')
got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 3 { print $c["steps"], $c["newton_iters"], $c["max_energy_dev"] "" }' "$tmp/sweep_in/summary.csv" 2>/dev/null)
other=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 { print $c["max_energy_dev"] }' "$tmp/sweep_in/summary.csv" 2>/dev/null)
if [ $rc -eq 0 ] && [ "$(grep -c ',ok,0,' "$tmp/sweep_in/summary.csv")" -eq 2 ] && [ -n "$got" ] &&
   [ "$got " = "$direct" ] && [ "$other" != "${got##* }" ]; then ok
else bad "a sweep over an input: rc=$rc got '$got' direct '$direct' row 1 '$other' $(cat "$tmp/e")"; fi

# ---- OUTDIR with a space, a quote, a backtick: every row runs (GNU parallel gets the words as
# they are), the plot is written under that name, nothing else is created, no command runs
printf 'k\n12000\n16000\n' > "$tmp/q.csv"
for d in "sw out" "sw'q" 'sw`touch PWNED`"x'; do
    (cd "$tmp" && "$root/scripts/sweep.sh" "$root/$SIM" q.csv "$d") > /dev/null 2> "$tmp/e"
    rc=$?
    if [ $rc -eq 0 ] && [ "$(grep -c ',ok,0,' "$tmp/$d/summary.csv" 2>/dev/null)" -eq 2 ] &&
       [ -s "$tmp/$d/plot.png" ] && [ ! -e "$tmp/PWNED" ] && [ ! -e "$tmp/sw" ]; then ok
    else bad "sweep into OUTDIR '$d': rc=$rc $(head -n 3 "$tmp/e")"; fi
done
# a line break in OUTDIR: refused before anything is written
scripts/sweep.sh "$SIM" "$tmp/q.csv" "$tmp/a"$'\n'"b" > /dev/null 2> "$tmp/e"
rc=$?
if [ $rc -eq 2 ] && grep -q "line break" "$tmp/e" && [ ! -e "$tmp/a"$'\n'"b" ]; then ok
else bad "OUTDIR with a line break: rc=$rc $(cat "$tmp/e")"; fi
# every row failing: a clear message, and the plot of an earlier sweep is removed, not shown
printf 'k\n-1\n-2\n' > "$tmp/f.csv"
cp -r "$tmp/sw out" "$tmp/sweep_f"
realpath "$tmp/f.csv" > "$tmp/sweep_f/source"   # (as if f.csv had succeeded there before, then edited)
scripts/sweep.sh "$SIM" "$tmp/f.csv" "$tmp/sweep_f" > /dev/null 2> "$tmp/e"
rc=$?
if [ $rc -eq 1 ] && grep -q '^sweep: no plot: no row succeeded$' "$tmp/e" && [ ! -e "$tmp/sweep_f/plot.png" ] &&
   ! grep -q 'plot.png' "$tmp/e" && ! grep -q "no column" "$tmp/e"; then ok
else bad "every row failing: rc=$rc plot.png $( [ -e "$tmp/sweep_f/plot.png" ] && echo kept || echo removed): $(cat "$tmp/e")"; fi
# a SWEEP_Y that is no summary field: named as such
SWEEP_Y=max_energy_dev2 scripts/sweep.sh "$SIM" "$tmp/q.csv" "$tmp/sweep_y" > /dev/null 2> "$tmp/e"
if grep -q "^sweep: no plot: SWEEP_Y=max_energy_dev2 is not a column of summary.csv" "$tmp/e" &&
   [ ! -e "$tmp/sweep_y/plot.png" ]; then ok
else bad "unknown SWEEP_Y: $(cat "$tmp/e")"; fi
SWEEP_ENGINE=slurm scripts/sweep.sh "$SIM" "$tmp/q.csv" "$tmp/s p" > /dev/null 2> "$tmp/e"
if [ $? -eq 2 ] && grep -q "SWEEP_ENGINE=slurm cannot take white space" "$tmp/e" && [ ! -e "$tmp/s p" ]; then ok
else bad "slurm OUTDIR with a space: $(cat "$tmp/e")"; fi

# ---- the Slurm engine's job scripts, run by a stand-in sbatch
mkdir -p "$tmp/bin"
cat > "$tmp/bin/sbatch" <<'SB'
#!/usr/bin/env bash
# a stand-in for sbatch: runs the script as Slurm would, the array once per task id
array="" wait=0 script=""
for a in "$@"; do
    case "$a" in --array=*) array=${a#--array=} ;; --wait) wait=1 ;; --*) ;; *) script=$a ;; esac
done
echo "$*" >> "$SBATCH_LOG"
id=$(( $(wc -l < "$SBATCH_LOG") ))
if [ -n "$array" ]; then
    for ((t = ${array%-*}; t <= ${array#*-}; t++)); do
        SLURM_ARRAY_TASK_ID=$t SLURM_ARRAY_JOB_ID=$id bash "$script" > /dev/null 2>&1
    done
    echo "$id"; exit 0
fi
out=$(sed -n 's/^#SBATCH --output=//p' "$script" | sed "s/%j/$id/")
echo "$id"
bash "$script" > "$out" 2>&1
rc=$?
[ $wait -eq 1 ] && exit $rc
exit 0
SB
chmod +x "$tmp/bin/sbatch"
printf 'k,c,t_end\n12000,500,0.3\n16000,800,0.2\n-5,500,0.3\n24000,2000,0.3\n30000,2000,0.3\n' > "$tmp/p.csv"
export SBATCH_LOG=$tmp/sbatch.log
: > "$SBATCH_LOG"
PATH=$tmp/bin:$PATH SWEEP_ENGINE=slurm SWEEP_CHUNK=2 SWEEP_SBATCH="--partition=x" \
    scripts/sweep.sh "$SIM" "$tmp/p.csv" "$tmp/sweep_s" > /dev/null 2> "$tmp/e"
rc=$?
scripts/sweep.sh "$SIM" "$tmp/p.csv" "$tmp/sweep_p" > /dev/null 2>&1
strip() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_s") w = i } { $w = ""; print }' OFS=, "$1"; }
if [ $rc -eq 1 ] && [ -f "$tmp/sweep_s/summary.csv" ] &&
   [ "$(strip "$tmp/sweep_s/summary.csv")" = "$(strip "$tmp/sweep_p/summary.csv")" ]; then ok
else bad "slurm engine (stand-in sbatch): rc=$rc $(cat "$tmp/e")"; fi
if grep -q -- '--partition=x --array=0-2 .*array.sbatch' "$SBATCH_LOG" &&
   grep -q -- '--wait --partition=x --dependency=afterany:1 .*gather.sbatch' "$SBATCH_LOG"; then ok
else bad "sbatch calls: $(cat "$SBATCH_LOG")"; fi
if grep -q 'row 3 (k=-5 c=500 t_end=0.3) failed' "$tmp/e"; then ok; else bad "slurm: failed row report: $(cat "$tmp/e")"; fi
# the array script by itself, as a compute node runs it: task 1 is block 1, rows 3 and 4
rm -f "$tmp/sweep_s/results/b1.csv"
SLURM_ARRAY_TASK_ID=1 bash "$tmp/sweep_s/array.sbatch" > /dev/null 2>&1
if [ "$(cut -d, -f1,5 "$tmp/sweep_s/results/b1.csv" | tr '\n' ' ')" = "row,status 3,failed 4,ok " ]; then ok
else bad "array.sbatch with SLURM_ARRAY_TASK_ID=1 did not run rows 3 and 4"; fi
# the cluster's MaxArraySize (a stand-in scontrol says 3): SWEEP_CHUNK unset fits 5 rows into
# 3 tasks of 2; SWEEP_CHUNK=1 (5 tasks) is refused naming the least that fits; a table without
# a line break after its last row runs every row
printf '#!/bin/sh\n[ "$*" = "show config" ] && printf "MaxJobCount             = 10000\\nMaxArraySize            = 3\\n"\n' > "$tmp/bin/scontrol"
chmod +x "$tmp/bin/scontrol"
printf 'k,c,t_end\n12000,500,0.3\n16000,800,0.2\n-5,500,0.3\n24000,2000,0.3\n30000,2000,0.3' > "$tmp/p5.csv"
: > "$SBATCH_LOG"
PATH=$tmp/bin:$PATH SWEEP_ENGINE=slurm scripts/sweep.sh "$SIM" "$tmp/p5.csv" "$tmp/sweep_s5" > /dev/null 2> "$tmp/e"
rc=$?
if [ $rc -eq 1 ] && grep -q -- '--array=0-2 .*array.sbatch' "$SBATCH_LOG" && [ "$(cat "$tmp/sweep_s5/chunk")" = 2 ] &&
   [ "$(strip "$tmp/sweep_s5/summary.csv")" = "$(strip "$tmp/sweep_p/summary.csv")" ]; then ok
else bad "slurm, SWEEP_CHUNK chosen for MaxArraySize 3: rc=$rc $(cat "$tmp/e") $(cat "$SBATCH_LOG")"; fi
rm -rf "$tmp/sweep_s5"; : > "$SBATCH_LOG"
PATH=$tmp/bin:$PATH SWEEP_ENGINE=slurm SWEEP_CHUNK=1 scripts/sweep.sh "$SIM" "$tmp/p5.csv" "$tmp/sweep_s5" > /dev/null 2> "$tmp/e"
rc=$?
if [ $rc -eq 2 ] && grep -q "SWEEP_CHUNK=1: 5 rows to run make 5 array tasks, more than the cluster's MaxArraySize 3 (scontrol show config): give SWEEP_CHUNK=2 or more" "$tmp/e" &&
   [ ! -s "$SBATCH_LOG" ]; then ok
else bad "slurm, SWEEP_CHUNK over MaxArraySize: rc=$rc $(cat "$tmp/e")"; fi

# ---- make sweep
if mk sweep MODEL=suspension SWEEP="$tmp/p.csv" RESULTS="$tmp/res" > "$tmp/o" 2>&1; then
    bad "make sweep with a failing row should fail"
else
    if [ -f "$tmp/res/sweep_suspension/summary.csv" ] && [ -f "$tmp/res/sweep_suspension/plot.png" ]; then ok
    else bad "make sweep: $(tail -5 "$tmp/o")"; fi
fi
# a second table for the same model: refused (exit 2, the directory and the ways out named), the
# earlier sweep untouched; SWEEP_OUT elsewhere runs it; SWEEP_FORCE=1 replaces the earlier one
cp "$tmp/res/sweep_suspension/summary.csv" "$tmp/summary_before.csv"
if mk sweep MODEL=suspension SWEEP="$tmp/q.csv" RESULTS="$tmp/res" > "$tmp/o" 2>&1; then bad "make sweep with a second table: not refused"
elif grep -q "sweep: $tmp/res/sweep_suspension holds the sweep of another table ($tmp/p.csv); give another directory (make sweep SWEEP_OUT=DIR" "$tmp/o" &&
     grep -q "SWEEP_FORCE=1 to replace it" "$tmp/o" && cmp -s "$tmp/summary_before.csv" "$tmp/res/sweep_suspension/summary.csv"; then ok
else bad "make sweep with a second table: $(tail -3 "$tmp/o")"; fi
if mk sweep MODEL=suspension SWEEP="$tmp/q.csv" RESULTS="$tmp/res" SWEEP_OUT="$tmp/res/other" > "$tmp/o" 2>&1 &&
   [ "$(grep -c ',ok,0,' "$tmp/res/other/summary.csv" 2>/dev/null)" -eq 2 ] && cmp -s "$tmp/summary_before.csv" "$tmp/res/sweep_suspension/summary.csv"; then ok
else bad "make sweep SWEEP_OUT=...: $(tail -3 "$tmp/o")"; fi
if mk sweep MODEL=suspension SWEEP="$tmp/q.csv" RESULTS="$tmp/res" SWEEP_FORCE=1 > "$tmp/o" 2>&1 &&
   [ "$(grep -c ',ok,0,' "$tmp/res/sweep_suspension/summary.csv")" -eq 2 ] && [ "$(wc -l < "$tmp/res/sweep_suspension/summary.csv")" -eq 3 ] &&
   grep -q "SWEEP_FORCE=1: the earlier sweep in .* is replaced" "$tmp/o"; then ok
else bad "make sweep SWEEP_FORCE=1: $(tail -3 "$tmp/o")"; fi
# the same table again (a re-run) is not refused: nothing to run
if mk sweep MODEL=suspension SWEEP="$tmp/q.csv" RESULTS="$tmp/res" > "$tmp/o" 2>&1 && grep -q ': 0 to run (2 kept' "$tmp/o"; then ok
else bad "make sweep, the same table again: $(tail -3 "$tmp/o")"; fi
# RESULTS and SWEEP with a space and a quote
cp "$tmp/q.csv" "$tmp/q r'.csv"
if mk sweep MODEL=suspension SWEEP="$tmp/q r'.csv" RESULTS="$tmp/r s'" > "$tmp/o" 2>&1 &&
   [ "$(grep -c ',ok,0,' "$tmp/r s'/sweep_suspension/summary.csv" 2>/dev/null)" -eq 2 ]; then ok
else bad "make sweep RESULTS='$tmp/r s'\'': $(tail -5 "$tmp/o")"; fi
if ! mk sweep MODEL=suspension > "$tmp/o" 2>&1 && grep -q 'give SWEEP=params.csv' "$tmp/o"; then ok
else bad "make sweep without SWEEP: $(tail -3 "$tmp/o")"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
