#!/usr/bin/env bash
# run.sh - run libFuzzer targets for a bounded time each. Seeds are assembled afresh each run in
# build/fuzz/seeds/<target>: the committed seeds of tests/fuzz/corpus/<target> and, for
# fuzz_model, the current models/*.lua, tests/models/*.lua and tests/hostile/*.lua (as
# hostile_<name>.lua; no committed copies that go stale). libFuzzer reads the seeds and the
# growing corpus build/fuzz/work/<target>, adding new inputs to the latter; crashes go to
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
    work=$out/work/$name seeds=$out/seeds/$name
    rm -rf "$seeds"
    mkdir -p "$work" "$seeds"
    cp tests/fuzz/corpus/"$name"/* "$seeds"/ 2>/dev/null
    if [ "$name" = fuzz_model ]; then
        cp models/*.lua tests/models/*.lua "$seeds"/
        for f in tests/hostile/*.lua; do cp "$f" "$seeds/hostile_$(basename "$f")"; done
    fi
    # copies an older run.sh put into the work corpus would shadow today's seeds
    for f in "$seeds"/*; do rm -f "$work/$(basename "$f")"; done
    # (fuzz_info: beyond the info file's 4096-byte line limit)
    case $name in fuzz_model) maxlen=16384 ;; fuzz_info) maxlen=8192 ;; *) maxlen=1024 ;; esac
    log=$out/$name.log
    # stdout/stderr of the target closed (models print, the simulator summarises every run)
    "$bin" -max_total_time="$secs" -close_fd_mask=3 -timeout=30 -rss_limit_mb=4096 \
        -max_len=$maxlen -print_final_stats=1 -artifact_prefix="$out/artifacts/$name-" \
        "$work" "$seeds" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1)
    echo "fuzz $name: ${execs:-?} executions in $secs s (${rate:-?}/s), $cov, seeds $(ls "$seeds" | wc -l), corpus $(ls "$work" | wc -l) inputs"
    if [ $rc -eq 0 ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $name found a problem (exit $rc); log $log:"
        grep -E "ERROR|SUMMARY|fuzz_(model|simopts|info|sweep_table):|Test unit written" "$log" | head -n 20
    fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
