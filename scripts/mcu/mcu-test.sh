#!/usr/bin/env bash
# mcu-test.sh - build test programs for Cortex-M4F and Cortex-M3, run them under QEMU, compare
# their numbers bit for bit with a host build of the same sources, and check for malloc/printf.
# Usage: scripts/mcu/mcu-test.sh   (env: MCU_MODELS, MCU_TARGETS, MCU_RUNTIME_SRC, CC); ends with
# the line "N passed, N failed" and exits non-zero on any failure. Called by `make mcu-test`.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
mcu=scripts/mcu/mcu.sh
out=build/mcu
: "${MCU_MODELS=andrews double_pendulum}"
: "${MCU_TARGETS:=m4f m3}"
: "${MCU_RUNTIME_SRC:=runtime/mb_linalg.c runtime/mb_status.c}"
: "${CC:=cc}"
mkdir -p "$out"
pass=0 fail=0
ok()  { pass=$((pass + 1)); echo "  ok    $*"; }
bad() { fail=$((fail + 1)); echo "  FAIL  $*"; }

# Both sides: C99, no FMA contraction, our own LU/Cholesky, and the shared sin/cos of
# mcu_math.c (libm differences in the last bit would otherwise hide everything else).
same_flags="-DMB_NO_LAPACKE -fno-builtin-sin -fno-builtin-cos -fno-builtin-sinf -fno-builtin-cosf"
host_flags="-std=c99 -ffp-contract=off -O2 -Wall -Wextra -Werror"
inc="-Iruntime -Igenerated -Iscripts/mcu"
port_target="scripts/mcu/mcu_port.c scripts/mcu/mcu_report.c scripts/mcu/mcu_math.c"
port_host="scripts/mcu/host_port.c scripts/mcu/mcu_report.c scripts/mcu/mcu_math.c"

$CC -std=c99 -O2 -Wall -Wextra -Werror -o "$out/mcu_compare" scripts/mcu/mcu_compare.c -lm ||
    { echo "cannot build mcu_compare"; exit 1; }

# run_case NAME PREC TOL-ARGS DEFINES -- SOURCES: host build + run, then per target build, run
# under QEMU, compare. PREC is double or float. Measurement lines go to $out/NAME-TARGET.txt.
run_case() {
    local name=$1 prec=$2 tol=$3; shift 3
    local defs=()
    while [ "$1" != -- ]; do defs+=("$1"); shift; done
    shift
    local pflag=""; [ "$prec" = float ] && pflag="-DMB_FLOAT"
    local hdir="$out/host" t
    mkdir -p "$hdir"
    if ! $CC $host_flags $same_flags $pflag "${defs[@]}" $inc "$@" $port_host -lm \
            -o "$hdir/$name" 2> "$hdir/$name.err"; then
        bad "$name host build"; sed -n 1,20p "$hdir/$name.err"; return
    fi
    if ! "$hdir/$name" > "$hdir/$name.txt"; then bad "$name host run"; return; fi
    for t in $MCU_TARGETS; do
        local tdir="$out/$t"
        mkdir -p "$tdir"
        if ! $mcu build "$t" "$tdir" "$name" $same_flags $pflag "${defs[@]}" $inc -- "$@" \
                $port_target 2> "$tdir/$name.err"; then
            bad "$name $t build"; sed -n 1,20p "$tdir/$name.err"; continue
        fi
        if ! $mcu nmcheck "$tdir/$name.elf" "$tdir/obj-$name"/*.o; then
            bad "$name $t: malloc/free/printf referenced"
        else
            ok "$name $t: no malloc/free/printf in objects or image"
        fi
        if ! $mcu run "$t" "$tdir/$name.elf" > "$tdir/$name.txt" 2> "$tdir/$name.qemu"; then
            bad "$name $t: QEMU run failed (exit $?)"; tail -n 5 "$tdir/$name.txt"; continue
        fi
        local res
        if res=$("$out/mcu_compare" $tol --label "$name $t" "$hdir/$name.txt" "$tdir/$name.txt"); then
            ok "$res"
        else
            bad "$res"
        fi
    done
}

echo "== mcu: kernels (LU, Cholesky, generated model functions), host vs target"
for prec in double float; do
    run_case "kernel-$prec" "$prec" "" -- scripts/mcu/kernel_test.c $MCU_RUNTIME_SRC
    for m in $MCU_MODELS; do
        run_case "kernel-$m-$prec" "$prec" "" -DMCU_MODEL="$m" -- scripts/mcu/kernel_test.c \
            "generated/$m.c" $MCU_RUNTIME_SRC
    done
done

# Negative control: the comparison must notice a single flipped bit.
f="$out/host/kernel-double.txt"
if [ -f "$f" ]; then
    awk '!done && /^V / { n = split($3, d, ""); c = d[n]; d[n] = (c == "0") ? "1" : "0";
         s = ""; for (i = 1; i <= n; i++) s = s d[i]; $3 = s; done = 1 } { print }' "$f" \
        > "$out/host/flipped.txt"
    if "$out/mcu_compare" --label flipped "$f" "$out/host/flipped.txt" > /dev/null; then
        bad "negative control: a flipped bit went unnoticed"
    else
        ok "negative control: a flipped bit is reported"
    fi
fi

# Negative control: the nm check must notice a call to malloc.
printf '#include <stdlib.h>\nvoid *mcu_bad(void);\nvoid *mcu_bad(void) { return malloc(8); }\n' \
    > "$out/bad_malloc.c"
if arm-none-eabi-gcc $($mcu flags m3) -c "$out/bad_malloc.c" -o "$out/bad_malloc.o" &&
        ! $mcu nmcheck "$out/bad_malloc.o" 2> /dev/null; then
    ok "negative control: a malloc reference is reported"
else
    bad "negative control: a malloc reference went unnoticed"
fi

echo
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
