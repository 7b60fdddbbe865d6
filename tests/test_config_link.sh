#!/usr/bin/env bash
# test_config_link.sh - every [code] switch of runtime/mb_config.h (MB_WITH_F4_KERNELS, ...) can
# be turned off in a host build: the runtime compiled with -DNAME=0 (at -O0, its own objects
# linked together with ld -r) references no mb_* / mbi_* function that it does not define (a
# call left outside the switch's #if, whose body is compiled out: -DMB_WITH_PHIQ_PRODUCTS=0
# left mb_kkt.c calling mb_sp_phiq_mv, so no simulator linked). Negative control: the same
# objects without mb_sparse.c are reported. The four formulations' [ABI] switches two at a time
# likewise. Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
CC=${CC:-cc}
pass=0 fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
T=$(mktemp -d "${TMPDIR:-/tmp}/test_config_link.XXXXXX")
trap 'rm -rf "$T"' EXIT
# the runtime's sources (mk/runtime.mk's RT_SRC)
SRC=$(sed -n '/^RT_CORE *:=/,/^RT_SRC *:=/p' mk/runtime.mk | grep -oE 'runtime/[a-z0-9_]+\.c' | sort -u)
[ -n "$SRC" ] || { echo "FAIL: no runtime sources in mk/runtime.mk" >&2; echo "0 passed, 1 failed"; exit 1; }
# build FLAGS DIR: the objects into DIR; non-zero when one does not compile
build() {
    mkdir -p "$2"
    for f in $SRC; do
        $CC -std=c99 -O0 -Iruntime -Igenerated $1 -c "$f" -o "$2/$(basename "$f" .c).o" 2>>"$2/log" || return 1
    done
}
# unresolved OBJECTS...: the mb_ / mbi_ functions they call but none of them defines
unresolved() {
    ld -r -o "$T/all.o" "$@" 2>/dev/null || { echo "(ld -r failed)"; return; }
    nm -u "$T/all.o" | awk '{ print $NF }' | grep -E '^mbi?_' | sort -u | tr '\n' ' '
}
SWITCHES=$(grep -oE '^#ifndef MB_WITH_[A-Z0-9_]+ +/\* \[code\]' runtime/mb_config.h | grep -oE 'MB_WITH_[A-Z0-9_]+')
ok "runtime/mb_config.h names [code] switches ($(echo $SWITCHES))" '[ -n "$SWITCHES" ]'
for sw in $SWITCHES; do
    d=$T/$sw
    if build "-D$sw=0" "$d"; then
        u=$(unresolved "$d"/*.o)
        ok "-D$sw=0: the runtime's objects resolve their own calls${u:+ (unresolved: $u)}" '[ -z "$u" ]'
    else
        ok "-D$sw=0: the runtime compiles ($(head -2 "$d/log"))" false
    fi
done
# the formulations ([ABI] switches) two at a time: a host build of the other two (neither
# baumgarte nor canonical, the KKT solve's two: mb_rk.c's companion and mb_bdf.c's accuracy
# estimate referred to their fields, step_ratio and minv)
FORMS="BAUMGARTE CANONICAL ALF_EXPLICIT ALF_TRAPEZOID"
for a in $FORMS; do
    for b in $FORMS; do
        [[ "$a" < "$b" ]] || continue
        d=$T/F_${a}_$b
        if build "-DMB_WITH_$a=0 -DMB_WITH_$b=0" "$d"; then
            u=$(unresolved "$d"/*.o)
            ok "-DMB_WITH_$a=0 -DMB_WITH_$b=0: the runtime's objects resolve their own calls${u:+ (unresolved: $u)}" '[ -z "$u" ]'
        else
            ok "-DMB_WITH_$a=0 -DMB_WITH_$b=0: the runtime compiles ($(grep -m2 error "$d/log"))" false
        fi
    done
done
# the sine cache's table (runtime/mb_trig_table.h: 2050 doubles, 16400 B) only in a file that
# reads it, the generated code's: in no runtime object, even at -O0, where GCC keeps the unused
# static const arrays of every header (mb_model.h includes it) in every file
nt=$(nm -S "$T/F_ALF_EXPLICIT_ALF_TRAPEZOID"/*.o 2>/dev/null | grep -cE '^[0-9a-f]+ 0*4010 ')
ok "no runtime object at -O0 carries the sine cache's 16 KB table ($nt do)" '[ "$nt" = 0 ]'
# negative control: a missing definition is reported
d=$T/$(echo "$SWITCHES" | head -1)
u=$(unresolved $(ls "$d"/*.o | grep -v '/mb_sparse\.o$'))
ok "negative control: without mb_sparse.o unresolved calls are found (${u:-none})" '[ -n "$u" ]'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
