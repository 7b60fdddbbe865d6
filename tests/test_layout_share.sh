#!/usr/bin/env bash
# test_layout_share.sh - the F4 trapezoid's workspace blocks shared by lifetime (runtime/mb_layout.h,
# MB_L_F4T: Ek, Q, c, sv, the solves' scratch in the Newton temporaries, sigma~ at the step's start
# once) change no bit: the simulators built with every block its own (-DMB_LAYOUT_NO_SHARE,
# build/<m>_noshare_sim) write the same CSV and summary as the shipped ones, on runs that reach
# every use of the shared blocks (start-up and assembly, fixed and adaptive steps with rejections,
# Newton reuse and its full-Newton retry, Newton at max_iter, a held step, the sigma reset, bdf,
# the dense back end, full Jacobian). Negative controls: the comparison reports a run with
# another penalty alpha (a looser --tol no longer moves a fixed step whose truncation error sets
# its Newton stop), and the shipped build's workspace is the smaller one. Ends with
# "N passed, N failed".
# Usage: tests/test_layout_share.sh
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/test_layout_share.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
for m in andrews double_pendulum audit_fourbar_cp; do
    for b in "$BUILD/${m}_sim" "$BUILD/${m}_noshare_sim"; do
        [ -x "$b" ] || { echo "FAIL: $b missing" >&2; echo "0 passed, 1 failed"; exit 1; }
    done
done
# run TAG BINARY ARGS...: CSV in $T/TAG.csv, the summary without the wall time in $T/TAG.sum,
# the workspace size in $T/TAG.ws
run() {
    local tag=$1 bin=$2
    shift 2
    timeout 300 "$bin" "$@" --out "$T/$tag.csv" >"$T/$tag.out" 2>"$T/$tag.err"
    echo "rc=$?" >"$T/$tag.sum"
    grep -h '^status=' "$T/$tag.out" "$T/$tag.err" | sed 's/ wall_s=[^ ]*//' >>"$T/$tag.sum"
    grep -ho 'workspace [0-9]* bytes' "$T/$tag.out" "$T/$tag.err" | head -n 1 | tr -dc 0-9 >"$T/$tag.ws"
}
same() { cmp -s "$T/$1.csv" "$T/$2.csv" && cmp -s "$T/$1.sum" "$T/$2.sum" && [ -s "$T/$1.csv" ]; }
# case NAME MODEL ARGS...: shared against unshared, byte for byte
case_() {
    local name=$1 m=$2
    shift 2
    run s "$BUILD/${m}_sim" "$@"
    run u "$BUILD/${m}_noshare_sim" "$@"
    ok "$name: shared blocks give the same CSV and summary ($(head -c 60 "$T/s.sum" | tr '\n' ' '))" 'same s u'
}
case_ "andrews fixed step" andrews --t-end 0.003
case_ "andrews adaptive" andrews --t-end 0.003 --rtol 1e-6
case_ "andrews bdf" andrews --integrator bdf --t-end 0.003
case_ "andrews without Newton reuse" andrews --t-end 0.002 --no-newton-reuse
case_ "andrews dense back end" andrews --t-end 0.001 --linsys dense
case_ "andrews full Jacobian" andrews --t-end 0.0005 --full-jacobian
case_ "andrews sigma reset" andrews --t-end 0.002 --sigma-reset 1e-3
case_ "double pendulum fixed step" double_pendulum --t-end 1
case_ "double pendulum adaptive" double_pendulum --t-end 1 --rtol 1e-6
case_ "double pendulum h = 0.05 (Newton at max_iter)" double_pendulum --t-end 1 --h 0.05 --max-iter 2
case_ "change-point four-bar h = 1e-4 (a held step)" audit_fourbar_cp --t-end 3 --h 1e-4
case_ "change-point four-bar adaptive" audit_fourbar_cp --t-end 3 --rtol 1e-7
# the runs above reach what they are meant to reach
run s "$BUILD/audit_fourbar_cp_sim" --t-end 3 --h 1e-4
ok "the four-bar run holds sigma~ once (the held step's c after the loop)" 'grep -q " sigma_holds=[1-9]" "$T/s.sum"'
# (max-iter 2: at the default 10 its iterations end within a tenth of their first correction,
# within tolerance, mb_trapezoid.c)
run s "$BUILD/double_pendulum_sim" --t-end 1 --h 0.05 --max-iter 2
ok "the double pendulum at h = 0.05 --max-iter 2 stops Newton at max_iter" 'grep -q " maxiter_events=[1-9]" "$T/s.sum"'
# negative controls
run s "$BUILD/andrews_sim" --t-end 0.001
run u "$BUILD/andrews_noshare_sim" --t-end 0.001 --alpha 1e7
ok "negative control: another penalty (alpha) is reported" '! same s u'
run u "$BUILD/andrews_noshare_sim" --t-end 0.001
ok "the shared layout is in effect: a smaller workspace ($(cat "$T/s.ws") < $(cat "$T/u.ws") B)" \
   '[ -s "$T/s.ws" ] && [ -s "$T/u.ws" ] && [ "$(cat "$T/s.ws")" -lt "$(cat "$T/u.ws")" ]'
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
