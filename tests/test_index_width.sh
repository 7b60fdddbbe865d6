#!/usr/bin/env bash
# test_index_width.sh - the width of mb_index (runtime/mb_config.h): the firmware example (host
# build, lean, Andrews alf-trapezoid) gives the same state bit for bit with int, 16-bit and 8-bit
# indices; a generated model with an index above 255 refuses to compile with -DMB_INDEX8 (mbgen's
# #error names it) and compiles with -DMB_INDEX16; and with our sin/cos (-DMB_MATH_HEADER,
# runtime/mb_math.h) the run completes and stays within 1e-9 of the libm run; an application
# built with another index width than the runtime gets MB_ERR_BUILD. Ends with
# "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
CC=${CC:-cc}
BUILD=${BUILD:-build}
MBGEN=$BUILD/mbgen
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. scripts/mcu/fw_params.sh

# the lean firmware example on the host, with extra flags $2..: output in $tmp/$1.txt
lean_rt="runtime/mb_embed.c runtime/mb_sim.c runtime/mb_eval.c runtime/mb_forms.c runtime/mb_assembly.c runtime/mb_f3_alf.c runtime/mb_f4_trapezoid.c runtime/mb_trapezoid.c runtime/mb_trapezoid_control.c runtime/mb_linsys.c runtime/mb_sparse.c runtime/mb_monitor.c runtime/mb_event.c runtime/mb_status.c runtime/mb_math.c"
# fw_lean's flags without its index width and math choice: each case sets its own
base=$(for f in $(fw_lean alf-trapezoid andrews); do
           case "$f" in -DMB_INDEX*|-DMB_MATH_HEADER=*) ;; *) printf '%s ' "$f" ;; esac
       done)
fw() {
    local name=$1; shift
    # shellcheck disable=SC2046,SC2086  # flag lists are words
    if $CC -std=c99 -O1 -Wall -Wextra -Werror -Wdouble-promotion $(fw_params andrews alf-trapezoid double) \
            $base -DFW_STEPS=50 -DMB_NO_LAPACKE "$@" -Iruntime -Igenerated -Iscripts/mcu -Iexamples/firmware \
            examples/firmware/main.c examples/firmware/solver.c $lean_rt generated/andrews.c \
            scripts/mcu/host_port.c scripts/mcu/mcu_report.c -lm -o "$tmp/$name" 2>"$tmp/$name.err" &&
       "$tmp/$name" >"$tmp/$name.txt"; then
        ok
    else
        bad "firmware example ($name: $*) does not build or run: $(head -n 5 "$tmp/$name.err")"
    fi
}
fw int
fw i16 -DMB_INDEX16
fw i8 -DMB_INDEX8
fw i8math -DMB_INDEX8 '-DMB_MATH_HEADER="mb_math.h"'
n=$(grep -c '^V ' "$tmp/int.txt" 2>/dev/null || echo 0)
[ "$n" -ge 21 ] && ok || bad "the firmware example printed $n state values"
for w in i16 i8; do
    [ -s "$tmp/$w.txt" ] && cmp -s "$tmp/int.txt" "$tmp/$w.txt" && ok ||
        bad "$w: the state differs from the int-index build"
done
# our sin/cos: a different last bit here and there, the same trajectory to 1e-9
cc -std=c99 -O2 -o "$tmp/compare" scripts/mcu/mcu_compare.c -lm || bad "mcu_compare does not build"
if res=$("$tmp/compare" --rel 1e-9 --label "mb_math vs libm" "$tmp/i8.txt" "$tmp/i8math.txt"); then
    ok; echo "$res"
else
    bad "$res"
fi
# negative control: the comparison notices a state that moved
# (the first value's leading mantissa digit changed: a relative move of 1/16 at least)
awk '!done && /^V / && length($3) == 16 { c = substr($3, 4, 1); $3 = substr($3, 1, 3) (c == "0" ? "8" : "0") substr($3, 5); done = 1 }
     { print }' "$tmp/i8.txt" >"$tmp/moved.txt"
if ! cmp -s "$tmp/i8.txt" "$tmp/moved.txt" && ! "$tmp/compare" --rel 1e-9 "$tmp/i8.txt" "$tmp/moved.txt" >/dev/null; then
    ok
else
    bad "negative control: a moved state went unnoticed"
fi

# a model with an index above 255: the chain of 40 links
if "$MBGEN" models/chain.lua -D N=40 -o "$tmp" >/dev/null 2>"$tmp/gen.err"; then
    if grep -q '^#if MB_INDEX8$' "$tmp/chain.c"; then ok; else bad "chain N=40: no MB_INDEX8 guard"; fi
    if $CC -std=c99 -Iruntime -I"$tmp" -DMB_INDEX8 -fsyntax-only "$tmp/chain.c" 2>"$tmp/c8.err"; then
        bad "chain N=40 compiles with 8-bit indices"
    elif grep -q 'does not fit the 8-bit mb_index of MB_INDEX8' "$tmp/c8.err"; then
        ok
    else
        bad "chain N=40 with MB_INDEX8: unexpected error $(head -n 3 "$tmp/c8.err")"
    fi
    $CC -std=c99 -Wall -Wextra -Werror -Iruntime -I"$tmp" -DMB_INDEX16 -fsyntax-only "$tmp/chain.c" && ok ||
        bad "chain N=40 does not compile with 16-bit indices"
    # fw_lean picks 16 bits for it, 8 for Andrews
    case " $(fw_lean alf-trapezoid chain "$tmp") " in *" -DMB_INDEX16 "*) ok ;; *) bad "fw_lean: chain N=40 not 16-bit" ;; esac
    case " $(fw_lean alf-trapezoid andrews) " in *" -DMB_INDEX8 "*) ok ;; *) bad "fw_lean: andrews not 8-bit" ;; esac
else
    bad "mbgen chain N=40: $(head -n 3 "$tmp/gen.err")"
fi

# an application built with another index width than the runtime (the default, int): its model's
# index arrays would be read with the wrong width, so the start answers MB_ERR_BUILD (-14) naming
# the index width, as for the other switches, not MB_ERR_MODEL; nothing overwritten (ASan); the
# same width starts (the control)
mkdir -p "$tmp/mix"
cat >"$tmp/mix/app.c" <<'EOF'
#include <stdio.h>
#include "mb_embed.h"
#include "double_pendulum.h"
static mb_sim_storage sim;
static mb_real work[4096];
int main(void)
{
    mb_params p;
    const char *what = NULL;
    mb_params_default(&p, MB_ALF_TRAPEZOID);
    int ck = mb_params_check(&p, &what);
    int st = mb_embed_start(mb_sim_of(&sim), &double_pendulum_model, &p, work, sizeof work, 0, NULL, NULL, 1);
    printf("start %d check %d %s\n", st, ck, what ? what : "-");
    return 0;
}
EOF
san="-fsanitize=address,undefined -fno-sanitize-recover=all -g"
rtok=1
for f in runtime/mb_*.c; do
    # shellcheck disable=SC2086  # a flag list
    $CC -std=c99 -DMB_NO_LAPACKE $san -Iruntime -c "$f" -o "$tmp/mix/$(basename "$f" .c).o" 2>>"$tmp/mix/rt.err" || rtok=0
done
[ $rtok = 1 ] && ok || bad "the default runtime does not compile: $(head -n 3 "$tmp/mix/rt.err")"
for w in "" -DMB_INDEX16 -DMB_INDEX8; do
    # shellcheck disable=SC2086  # flag lists
    if $CC -std=c99 -DMB_NO_LAPACKE $san $w -Iruntime -Igenerated "$tmp/mix/app.c" generated/double_pendulum.c \
            "$tmp"/mix/mb_*.o -lm -o "$tmp/mix/app" 2>"$tmp/mix/app.err" &&
       "$tmp/mix/app" >"$tmp/mix/out.txt" 2>&1; then
        got=$(cat "$tmp/mix/out.txt")
        if [ -z "$w" ]; then
            [ "$got" = "start 0 check 0 -" ] && ok || bad "the same index width: expected a start, got: $got"
        else
            case $got in
                "start -14 check -14 "*"MB_INDEX8 / MB_INDEX16"*) ok ;;
                *) bad "$w application on the int-index runtime: expected MB_ERR_BUILD naming the index width, got: $got" ;;
            esac
        fi
    else
        bad "index width ${w:-(the same)}: does not build or run: $(head -n 5 "$tmp/mix/app.err" "$tmp/mix/out.txt")"
    fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
