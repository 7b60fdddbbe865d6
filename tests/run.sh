#!/usr/bin/env bash
# run.sh - run every test program given on the command line, sum their
# "N passed, N failed" lines and print the total as the suite's closing line.
# A program that exits non-zero without such a line counts as one failure.
set -u
total_p=0; total_f=0
for t in "$@"; do
    echo "== $t"
    out=$("$t" 2>&1); rc=$?
    printf '%s\n' "$out" | tail -n 25
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    if [ -n "$line" ]; then
        p=${line%% passed*}; f=${line#*, }; f=${f%% failed*}
        total_p=$((total_p + p)); total_f=$((total_f + f))
        if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then total_f=$((total_f + 1)); echo "   (exit $rc)"; fi
    else
        if [ "$rc" -ne 0 ]; then total_f=$((total_f + 1)); echo "   (exit $rc, no summary)"; else total_p=$((total_p + 1)); fi
    fi
done
echo
echo "$total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]
