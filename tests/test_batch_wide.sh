#!/usr/bin/env bash
# test_batch_wide.sh - a sweep table and a summary line wider than 1024 fields (make test-long:
# the model's 1100 sensors take half a minute to compile): tests/models/wide_outputs.lua's
# 1000 tunables and 30 inputs as the 1030 columns of a --batch table, its 1100 sensors as
# out.NAME columns of every summary row, each equal to the same run's own summary line and to
# its CSV's last row.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
MAKE=${MAKE:-make}
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_batch_wide.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
SIM=$BUILD/wide_outputs_sim
env -u MAKEFLAGS -u MAKELEVEL "$MAKE" --no-print-directory sim MODEL=tests/models/wide_outputs.lua >/dev/null 2>&1 && [ -x "$SIM" ] ||
    { bad "cannot build $SIM"; echo "$pass passed, $fail failed"; exit 1; }

# two rows: every tunable and input a column; row 2 pushes the mass (sum 1000 * 0.05 + 30 * 1)
awk 'BEGIN { for (r = 0; r < 3; r++) { s = ""
        for (i = 1; i <= 1000; i++) s = s (i > 1 ? "," : "") (r == 0 ? "p" i : r == 1 ? 0 : 0.05)
        for (i = 1; i <= 30; i++) s = s "," (r == 0 ? "u" i : r == 1 ? 0 : 1)
        print s } }' > "$tmp/rows.csv"
"$SIM" --quiet --batch "$tmp/rows.csv" > "$tmp/out" 2> "$tmp/err"
rc=$?
ncol=$(head -n 1 "$tmp/out" | awk -F, '{ print NF }')
nout=$(head -n 1 "$tmp/out" | tr , '\n' | grep -c '^out\.y')
if [ $rc -eq 0 ] && [ "$(wc -l < "$tmp/out")" -eq 3 ] && [ "$nout" -eq 1100 ]; then ok
else bad "batch of 1030 columns: rc $rc, $(wc -l < "$tmp/out") lines, $ncol columns, $nout sensors: $(head -c 300 "$tmp/err")"; fi

# each row's sensors against a run of its own (its summary line) and its CSV's last row
for r in 1 2; do
    set -- $( [ $r = 1 ] || awk 'BEGIN { for (i = 1; i <= 1000; i++) printf "--set p%d=0.05 ", i; for (i = 1; i <= 30; i++) printf "--set u%d=1 ", i }')
    line=$("$SIM" --quiet --out "$tmp/r$r.csv" "$@" 2> /dev/null | tail -n 1)
    miss=0
    for k in 1 2 517 1100; do
        own=$(printf '%s\n' "$line" | tr ' ' '\n' | sed -n "s/^out\.y$k=//p")
        bat=$(awk -F, -v c="out.y$k" -v r=$((r + 1)) 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) j = i } NR == r { print $j }' "$tmp/out")
        csv=$(awk -F, -v c="out.y$k" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) j = i } END { printf "%.9g", $j }' "$tmp/r$r.csv")
        [ -n "$own" ] && [ "$own" = "$bat" ] && [ "$own" = "$csv" ] || { miss=1; echo "row $r y$k: own '$own' batch '$bat' csv '$csv'" >&2; }
    done
    [ $miss = 0 ] && ok || bad "row $r: the sensors differ"
done
# the push moves the mass: row 2's last sensor is 1100 times its first, and not row 1's
y1=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "out.y1") j = i } NR == 3 { print $j }' "$tmp/out")
y11=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "out.y1100") j = i } NR == 3 { print $j }' "$tmp/out")
z1=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "out.y1") j = i } NR == 2 { print $j }' "$tmp/out")
if awk -v a="$y1" -v b="$y11" -v z="$z1" 'BEGIN { exit !(a != z && (b / a - 1100) ^ 2 < 1e-12) }'; then ok
else bad "row 2: out.y1 $y1, out.y1100 $y11 (row 1: $z1)"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
