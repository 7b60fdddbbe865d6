#!/usr/bin/env bash
# test_float_defaults.sh - float with the defaults alone: build/float_defaults_ref (double) writes
# the reference trajectories, build/float_defaults_float runs the same models in float, with
# alpha and tol the runtime's own choice (mb_sim.c, auto_penalty), and checks positions and
# warnings against them (tests/test_float_defaults.c).
set -u
cd "$(dirname "$0")/.."
B=${BUILD:-build}
ref=$(mktemp) || exit 1
trap 'rm -f "$ref"' EXIT
if ! "$B/float_defaults_ref" >"$ref"; then
    echo "FAIL: the double reference run"
    echo "0 passed, 1 failed"
    exit 1
fi
"$B/float_defaults_float" "$ref"
