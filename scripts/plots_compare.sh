#!/usr/bin/env bash
# plots_compare.sh - what `make plots-compare` runs: the double pendulum once per formulation
# ($BUILD/double_pendulum_sim, the remaining arguments are its options), then one comparison
# plot of each monitor (scripts/plot.sh --compare).
#   scripts/plots_compare.sh "FORMULATION..." [SIMULATOR OPTIONS...]
# Environment: BUILD (default build), RESULTS (default results).
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}; RESULTS=${RESULTS:-results}
forms=$1; shift
mkdir -p "$RESULTS/compare"
csvs=()
for f in $forms; do
    echo "== double_pendulum, $f"
    "$BUILD/double_pendulum_sim" --formulation "$f" "$@" --out "$RESULTS/compare/double_pendulum_$f.csv"
    csvs+=("$RESULTS/compare/double_pendulum_$f.csv:$f")
done
scripts/plot.sh --label "double pendulum, 5 s, h = 1e-3 s" \
    --compare "$RESULTS/double_pendulum_compare" "${csvs[@]}"
