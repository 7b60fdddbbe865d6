#!/usr/bin/env bash
# run.sh - run libFuzzer targets for a bounded time each, on a working copy of their seed corpus
# (tests/fuzz/corpus/<target>, kept growing in build/fuzz/work/<target>); crashes go to
# build/fuzz/artifacts/. Usage: tests/fuzz/run.sh SECONDS TARGET_BINARY...  (what make fuzz does)
# Prints executions, coverage and findings per target, and "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
secs=${1:?usage: tests/fuzz/run.sh SECONDS TARGET...}; shift
out=build/fuzz
mkdir -p "$out/artifacts"
pass=0 fail=0
for bin in "$@"; do
    name=$(basename "$bin")
    work=$out/work/$name
    mkdir -p "$work"
    cp -n tests/fuzz/corpus/"$name"/* "$work"/ 2>/dev/null
    case $name in fuzz_model) maxlen=16384 ;; *) maxlen=1024 ;; esac
    log=$out/$name.log
    # stdout/stderr of the target closed (models print, the simulator summarises every run)
    "$bin" -max_total_time="$secs" -close_fd_mask=3 -timeout=30 -rss_limit_mb=4096 \
        -max_len=$maxlen -print_final_stats=1 -artifact_prefix="$out/artifacts/$name-" \
        "$work" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1)
    echo "fuzz $name: ${execs:-?} executions in $secs s (${rate:-?}/s), $cov, corpus $(ls "$work" | wc -l) inputs"
    if [ $rc -eq 0 ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $name found a problem (exit $rc); log $log:"
        grep -E "ERROR|SUMMARY|fuzz_(model|simopts):|Test unit written" "$log" | head -n 20
    fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
