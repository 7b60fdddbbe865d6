#!/usr/bin/env bash
# run_control.sh - make run MODEL=cartpole: the closed loop (examples/cartpole, docs/control.md).
# The LQR controller balances the pole on the host (build/cartpole_lqr) and writes the force it
# set, every 10 ms, as a table; the simulator then replays that table (--input-file, zero-order
# hold: the same steps with the same inputs, ending within 1e-9 of the closed loop,
# tests/test_control.sh) through scripts/run.sh, which writes the CSV, the plots (u and y:
# <model>_io.png) and the animation as for any run.
# Usage: scripts/run_control.sh [simulator options...]   (--t-end S: the loop's length, default 5)
# env: BUILD, RESULTS, TRACE, MODEL_DIR as scripts/run.sh. Exit: the closed loop's (1: the
# solver failed) or run.sh's.
set -u
build=${BUILD:-build}
res=${RESULTS:-results}
t_end=5
prev=""
for a in "$@"; do [ "$prev" = --t-end ] && t_end=$a; prev=$a; done
for a in "$@"; do
    case "$a" in --formulation|--formulation=*|--integrator|--integrator=*|--h|--h=*|--input-file|--input-file=*)
        echo "run_control.sh: $a: the replay must take the closed loop's steps (alf-trapezoid, the model's h, its own force table)" >&2
        exit 2 ;;
    esac
done
mkdir -p "$res" || exit 1
table=$res/cartpole_lqr_F.csv
echo "== balancing the cart-pole with its LQR controller: $build/cartpole_lqr --t-end $t_end --inputs $table"
"$build/cartpole_lqr" --t-end "$t_end" --inputs "$table" || exit $?
# the replay (its own --t-end: the options' last wins)
export TRACE=${TRACE:-pole.T}   # the tip of the pole
exec scripts/run.sh cartpole "" --t-end "$t_end" "$@" --input-file "$table"
