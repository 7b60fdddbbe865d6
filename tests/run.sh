#!/usr/bin/env bash
# run.sh - run the test programs and scripts given on the command line, JOBS at a time, sum their
# "N passed, N failed" lines and print the total as the suite's closing line; exit 1 on a failure.
# A program that exits non-zero without such a line counts as one failure.
# Usage: tests/run.sh [-j JOBS] TEST...   (JOBS: default $TEST_JOBS, else nproc)
# Each test's output is kept and printed whole (its last 25 lines) when it ends, in the order
# given, never interleaved with another's. A script with the line "# run.sh: alone" among its
# first 30 lines changes files other tests read (models/, build/): it runs after the others,
# with nothing beside it.
set -u
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
if [ "${1:-}" = -j ]; then jobs=${2:?run.sh: -j needs a number}; shift 2; fi
case "$jobs" in ''|*[!0-9]*|0) echo "run.sh: -j $jobs: not a positive number" >&2; exit 2 ;; esac
dir=$(mktemp -d "${TMPDIR:-/tmp}/run_sh.XXXXXX"); trap 'rm -rf "$dir"' EXIT

# run_one I TEST: run it, leave its report in $dir/I.out and "passed failed" in $dir/I.sum
run_one() {
    local i=$1 t=$2 out rc line p f s0=$SECONDS
    out=$("$t" 2>&1); rc=$?
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    {
        echo "== $t ($((SECONDS - s0)) s)"
        printf '%s\n' "$out" | tail -n 25
        if [ -n "$line" ]; then
            p=${line%% passed*}; f=${line#*, }; f=${f%% failed*}
            if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "   (exit $rc)"; fi
        elif [ "$rc" -ne 0 ]; then p=0; f=1; echo "   (exit $rc, no summary)"
        else p=1; f=0; fi
    } >"$dir/$i.tmp"
    echo "$p $f" >"$dir/$i.sum"
    mv "$dir/$i.tmp" "$dir/$i.out"     # complete: the report may be printed
}

# print the reports of the tests finished so far, in the order given
shown=0
show() {
    while [ "$shown" -lt "$n" ] && [ -f "$dir/$shown.out" ]; do
        cat "$dir/$shown.out"; shown=$((shown + 1))
    done
}

tests=() alone=()
for t in "$@"; do
    if [ -f "$t" ] && head -n 30 "$t" 2>/dev/null | grep -aq '^# run\.sh: alone'; then alone+=("$t")
    else tests+=("$t"); fi
done
all=(${tests[@]+"${tests[@]}"} ${alone[@]+"${alone[@]}"})
n=${#all[@]}
for ((i = 0; i < n; i++)); do
    # the "alone" scripts come last: start one only when every other test has ended
    if [ "$i" -ge "${#tests[@]}" ]; then wait; show; run_one "$i" "${all[$i]}"; show; continue; fi
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; show; done
    run_one "$i" "${all[$i]}" &
done
wait; show

total_p=0; total_f=0
for ((i = 0; i < n; i++)); do
    read -r p f <"$dir/$i.sum" || { p=0; f=1; }
    total_p=$((total_p + p)); total_f=$((total_f + f))
done
echo
echo "$total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]
