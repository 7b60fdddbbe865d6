#!/usr/bin/env bash
# test_ldl_reciprocal_abi.sh - MB_LDL_RECIPROCAL (runtime/mb_config.h) decides what the LDL^T's D
# holds (1 / d_k or d_k) in the runtime's kernels (runtime/mb_sparse.c: the pivot ratio, the
# compact solve) and in a generated model's unrolled ones, so a model built with another value
# than its runtime is read wrongly (the pivot ratio of S: 1 / (d0_k d_k) for d_k / d0_k). It is a
# bit of MB_BUILD_CONFIG: an application (and its model) built with -DMB_LDL_RECIPROCAL=0 on the
# default runtime gets MB_ERR_BUILD (-14) from its start, nothing stepped; the same value starts
# (the control) and a baumgarte run there monitors a pivot ratio in (0, 1]. Ends with
# "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
CC=${CC:-cc}
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_ldl_reciprocal_abi.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
cat >"$tmp/app.c" <<'EOF'
#include <stdio.h>
#include "mb_embed.h"
#include "double_pendulum.h"
static mb_sim_storage sim;
static mb_real work[4096];
int main(void)
{
    mb_params p;
    mb_sim *s = mb_sim_of(&sim);
    mb_params_default(&p, MB_BAUMGARTE);
    p.h = (mb_real)1e-3;
    int st = mb_embed_start(s, &double_pendulum_model, &p, work, sizeof work, 0, NULL, NULL, 1);
    for (int k = 0; k < 100 && st == MB_OK; k++) st = mb_embed_step(s);
    printf("start %d ratio %.17g\n", st, st == MB_OK ? (double)mb_sim_get_monitor(s)->min_pivot_ratio : -1.0);
    return 0;
}
EOF
rtok=1
for f in runtime/mb_*.c; do
    $CC -std=c99 -O1 -DMB_NO_LAPACKE -Iruntime -c "$f" -o "$tmp/$(basename "$f" .c).o" 2>>"$tmp/rt.err" || rtok=0
done
[ $rtok = 1 ] && ok || bad "the default runtime does not compile: $(head -n 3 "$tmp/rt.err")"
for w in "" -DMB_LDL_RECIPROCAL=0; do
    # shellcheck disable=SC2086  # a flag list
    if $CC -std=c99 -O1 -DMB_NO_LAPACKE $w -Iruntime -Igenerated "$tmp/app.c" generated/double_pendulum.c \
            "$tmp"/mb_*.o -lm -o "$tmp/app" 2>"$tmp/app.err" && "$tmp/app" >"$tmp/out.txt" 2>&1; then
        [ -n "${KEEP:-}" ] && echo "${w:-same}: $(cat "$tmp/out.txt")"
        got=$(cat "$tmp/out.txt")
        if [ -z "$w" ]; then
            r=${got#start 0 ratio }
            [ "$r" != "$got" ] && awk -v r="$r" 'BEGIN { exit !(r > 0 && r <= 1) }' && ok ||
                bad "the same value: expected a run with a pivot ratio in (0, 1], got: $got"
        else
            case $got in
                "start -14 "*) ok ;;
                *) bad "$w application on the default runtime: expected MB_ERR_BUILD (-14), got: $got" ;;
            esac
        fi
    else
        bad "${w:-the same value}: does not build or run: $(head -n 5 "$tmp/app.err" "$tmp/out.txt")"
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
