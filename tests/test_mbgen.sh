#!/usr/bin/env bash
# test_mbgen.sh - the generator front end: hostile and broken models, command line, outputs.
# Usage: tests/test_mbgen.sh [path/to/mbgen]   (default build/mbgen; run from the repo root)
# Each tests/hostile/*.lua starts with "-- expect: <text>" and optionally "-- line: <n>".
set -u
cd "$(dirname "$0")/.."
MBGEN=${1:-${MBGEN:-build/mbgen}}   # or MBGEN=... in the environment (make test-san)
case "$MBGEN" in /*) ;; *) MBGEN=$(pwd)/$MBGEN ;; esac
pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_mbgen.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
marker=/tmp/mbgen_hostile_pwned     # what the hostile os/io models try to create

ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# run NAME EXPECTED_RC [ARGS...]: run mbgen, keep stdout/stderr/rc in $out, $err, $rc
run() {
    # (replace_intrin=0: under ASan, string.rep's 16 million 1-byte memcpy calls in the
    # uninstrumented Lua library took 4.8 of memory_pcall.lua's 5 CPU seconds, near the limit)
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}replace_intrin=0" \
        timeout 60 "$MBGEN" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    out=$(cat "$tmp/stdout"); err=$(cat "$tmp/stderr")
}

[ -x "$MBGEN" ] || { echo "no $MBGEN (make build/mbgen)"; echo "0 passed, 1 failed"; exit 1; }

# ---- mb_model.scleronomic (interface 29): 1 only where every entry of Phi_t is symbolically 0,
# as phi_t's code shows. A driver that follows an input has Phi_t = -(the input's slope), 0 at
# the defaults' hold (where test_derivs evaluates phi_t), so the flag is checked here; a driver
# held at a tunable, or one of step{} alone, has Phi_t = 0 between its jumps (the runtime then
# skips the drivers' power, which is 0 there too).
scl() {   # scl NAME DRIVER_F [PRELUDE]: generate a driven double pendulum, its flag to $got
    sed -e "s|^driver \"D\".*|$3\ndriver \"D\" { joint = \"O\", f = $2 }|" \
        -e "s|^name .*|name \"scl_$1\"|" tests/models/audit_driven.lua >"$tmp/scl_$1.lua"
    run "$tmp/scl_$1.lua" -o "$tmp/scl"
    got=$(sed -n 's/^ *\.scleronomic = \([01]\)$/\1/p' "$tmp/scl/scl_$1.c" 2>/dev/null)
}
for c in "input|0|function(t) return -pi / 2 + U end|local U = input \"U\" { default = 0.1 }" \
         "sine|0|sine { amplitude = 0.6, period = 1.1, offset = -pi / 2 }|" \
         "tunable|1|function(t) return -pi / 2 + th end|local th = tunable(\"th\", 0.1)" \
         "step|1|step { time = 0.5, before = -pi / 2, after = -pi / 2 + 0.1 }|"; do
    IFS='|' read -r nm want f pre <<<"$c"
    scl "$nm" "$f" "$pre"
    if [ "$rc" -eq 0 ] && [ "$got" = "$want" ]; then ok
    else bad "scleronomic of a driver ($nm): '$got', want $want (exit $rc: $err)"; fi
done
grep -q -- "-in\[1\]" "$tmp/scl/scl_input.c" && ok || bad "scl_input: phi_t without the input's slope"

# ---- hostile and broken models: exit 1, the expected message with file:line, nothing written
# hostile BIN [SKIP]: run the corpus with the binary BIN, skipping files whose name matches SKIP
hostile() {
    local bin=$1 skip=${2:-}
    rm -f "$marker"
    for f in tests/hostile/*.lua; do
        [ -n "$skip" ] && [[ "$f" == *$skip* ]] && continue
        expect=$(sed -n '1s/^-- expect: //p' "$f")
        line=$(sed -n '2s/^-- line: //p' "$f")
        [ -n "$expect" ] || { bad "$f: no '-- expect:' line"; continue; }
        o="$tmp/out_$(basename "$f" .lua)"
        MBGEN=$bin run "$f" -o "$o"
        # the error line (a model's print output comes before it)
        first=$(printf '%s\n' "$err" | grep -a -m 1 ': error: ' || printf '%s\n' "$err" | head -n 1)
        if [ "$rc" -ge 128 ] || [ "$rc" -eq 124 ]; then bad "$bin $f: crashed or hung (exit $rc)"
        elif [ "$rc" -ne 1 ]; then bad "$bin $f: exit $rc, expected 1: $first"
        elif [[ "$err" != *"$expect"* ]]; then bad "$f: message lacks '$expect': $first"
        elif [ -n "$line" ] && [[ "$first" != "$f:$line: error: "* ]]; then
            bad "$f: expected '$f:$line: error: ...', got: $first"
        elif [[ "$first" != "$f:"* ]]; then bad "$f: message does not start with '$f:': $first"
        elif [[ "$err" == *"stack traceback"* ]]; then bad "$f: traceback for a user error"
        elif [ -e "$o" ] && [ -n "$(ls -A "$o")" ]; then bad "$f: files were written: $(ls "$o")"
        else ok; fi
    done
    if [ -e "$marker" ]; then bad "a hostile model created $marker"; rm -f "$marker"; else ok; fi
}
hostile "$MBGEN"
# the host under ASan+UBSan, without the 5 s CPU-limit case: with MB_TEST_LONG=1 (make test-long,
# which builds it); make test leaves it out (its build and run are a quarter of the suite's time)
if [ "${MB_TEST_LONG:-0}" = 1 ]; then
    if [ -x build/mbgen_san ]; then hostile build/mbgen_san cpu_pattern
    else bad "MB_TEST_LONG=1: build/mbgen_san missing (make build/mbgen_san)"; fi
fi

# print is capped (64 KiB per model, then one notice) and cleaned (no escape or control bytes)
run tests/hostile/print_flood.lua -o "$tmp/pf"
if [ "$rc" -eq 1 ] && [ "$(wc -c <"$tmp/stderr")" -lt 70000 ] &&
   grep -q "print output stopped at the limit of 65536 bytes" "$tmp/stderr" &&
   ! LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$tmp/stderr" &&
   grep -q "^tests/hostile/print_flood.lua: ?\[31mred?\]0;title? tab.new?line?nul?$" "$tmp/stderr"; then ok
else bad "print not capped or not cleaned: $(wc -c <"$tmp/stderr") bytes: $(head -c 200 "$tmp/stderr")"; fi

# the shipped models (Makefile MODELS): not models/*.lua, where tests/test_install.sh keeps a
# user's stray file while it runs (make test-long runs the two at once)
shipped=$(sed -n 's/^MODELS *:= *//p' Makefile | tr ' ' '\n' | grep . | sed 's|^|models/|; s|$|.lua|')
# ---- every shipped model loads and validates; generating twice gives identical files
for m in $shipped; do
    name=$(basename "$m" .lua)
    run "$m" --check
    if [ "$rc" -eq 0 ] && [[ "$out" == "$name: "*" bod"*", "* ]]; then ok
    else bad "$m --check: exit $rc: $out $err"; fi
done
# the summary's counts in the singular when there is one ("1 particles" was printed)
run tests/models/point_pendulum.lua --check
if [ "$rc" -eq 0 ] && [ "$out" = "point_pendulum: 0 bodies, 1 particle, 2 coordinates, 1 constraint, 1 point, 1 element (1 rod)" ]; then ok
else bad "point_pendulum --check: singular counts: exit $rc: $out"; fi
run models/oscillator_1dof.lua --check
if [ "$rc" -eq 0 ] && [[ "$out" == "oscillator_1dof: 1 body, 3 coordinates, 2 constraints, "* ]]; then ok
else bad "oscillator_1dof --check: '1 body': $out"; fi
# units (docs/model-language.md, "Units"): the grammar's accepted forms reach the summary and
# the generated info (mb_model_info in_units, out_units, par_units; "" where none is declared);
# what it refuses is in tests/hostile/unit_*.lua
cat >"$tmp/units.lua" <<'EOF'
ground { O = { 0, 0 } }
body "arm" { mass = tunable("m", 1, "kg"), inertia = 0.1, points = { A = { -0.5, 0 } } }
revolute "A" { "ground.O", "arm.A" }
local k2 = tunable("k2", 2)
local u = input "u" { default = 0, unit = "N.m" }
torque "T" { joint = "A", tau = u * k2 + tunable("c", 0, "N.m.s/rad") * rate("A") }
sensor "a" { value = rate("A"), unit = "1/s" }
sensor "b" { value = rate("A"), unit = "kg*m^2" }
sensor "c2" { value = rate("A") }
sensor "d" { value = rate("A"), unit = "(m/s)^-2.s2" }
EOF
run "$tmp/units.lua" --check
if [ "$rc" -eq 0 ] && [[ "$out" == *", 3 tunables (m [kg] k2 c [N.m.s/rad]), 1 input (u [N.m]), 4 sensors (a [1/s] b [kg*m^2] c2 d [(m/s)^-2.s2])" ]]; then ok
else bad "units --check: exit $rc: $out $err"; fi
run "$tmp/units.lua" -o "$tmp/ugen"
c=$(tr -d '\n' <"$tmp/ugen/units.c" 2>/dev/null)
if [ "$rc" -eq 0 ] && [[ "$c" == *'units_in_units[1] = {    "N.m",}'* ]] &&
   [[ "$c" == *'units_out_units[4] = {    "1/s", "kg*m^2", "", "(m/s)^-2.s2",}'* ]] &&
   [[ "$c" == *'units_par_units[3] = {    "kg", "", "N.m.s/rad",}'* ]] &&
   [[ "$c" == *'units_in_units, units_out_units, units_par_units,};'* ]]; then ok
else bad "units: the generated info: exit $rc: $err $(grep -n -A2 '_units' "$tmp/ugen/units.c")"; fi
# a model without units: NULL arrays
run models/double_pendulum.lua -o "$tmp/dgen"
if [ "$rc" -eq 0 ] && grep -q '^    0, 0, 0,$' "$tmp/dgen/double_pendulum.c" && ! grep -q '_units' "$tmp/dgen/double_pendulum.c"; then ok
else bad "double_pendulum: unit arrays without units: $(grep -n '_units' "$tmp/dgen/double_pendulum.c")"; fi

if [ -f generator/emit.lua ]; then
    for m in $shipped; do
        name=$(basename "$m" .lua)
        run "$m" -o "$tmp/gen1"
        run "$m" -o "$tmp/gen2" -v
        if [ "$rc" -eq 0 ] && cmp -s "$tmp/gen1/$name.c" "$tmp/gen2/$name.c" &&
           cmp -s "$tmp/gen1/$name.h" "$tmp/gen2/$name.h"; then ok
        else bad "$m: generation failed or differs between runs (exit $rc): $err"; fi
        run "$m" -o "$tmp/gen2" -v           # unchanged content: no rewrite
        if [ "$rc" -eq 0 ] && [[ "$err" == *"$name.c unchanged"* ]] &&
           [[ "$err" == *"$name.h unchanged"* ]]; then ok
        else bad "$m: rewrote unchanged files: $err"; fi
    done
    for n in 10 100; do
        run models/chain.lua -D N=$n --name chain$n -o "$tmp/chain" --stats
        if [ "$rc" -eq 0 ] && [ -s "$tmp/chain/chain$n.c" ] &&
           grep -q "CHAIN${n}_NQ $((3 * n))" "$tmp/chain/chain$n.h" &&
           grep -q -- "-D N=$n --name chain$n" "$tmp/chain/chain$n.h" &&
           [[ "$err" == *"generation time"* ]]; then ok
        else bad "chain N=$n: exit $rc: $err"; fi
    done
    # -D values as typed reach the banner comment only through the safe character set
    # (tonumber accepts surrounding white space: a newline, a form feed)
    run models/chain.lua -D N=3 --name chainws -o "$tmp/ws3"
    run models/chain.lua -D $'N=\f3\n' --name chainws -o "$tmp/ws"
    if [ "$rc" -eq 0 ] && grep -q '^ \* Generated by .* (options: -D N=_3_ --name chainws)\.$' "$tmp/ws/chainws.c" &&
       cmp -s <(grep -v '^ \* Generated by' "$tmp/ws/chainws.h") <(grep -v '^ \* Generated by' "$tmp/ws3/chainws.h"); then ok
    else bad "-D value with white space in the banner: exit $rc: $(grep -m 1 "Generated by" "$tmp/ws/chainws.c")"; fi
    # a model with stale output (its banner, other code) is regenerated in place, the other
    # file kept
    { head -n 4 "$tmp/gen1/andrews.c"; echo "stale"; } >"$tmp/gen2/andrews.c"
    run models/andrews.lua -o "$tmp/gen2" -v
    if [ "$rc" -eq 0 ] && cmp -s "$tmp/gen1/andrews.c" "$tmp/gen2/andrews.c" &&
       [[ "$err" == *"wrote $tmp/gen2/andrews.c"* ]] && [[ "$err" == *"andrews.h unchanged"* ]] &&
       [ -z "$(ls "$tmp/gen2" | grep tmp)" ]; then ok
    else bad "stale output not rewritten cleanly: $err"; fi
fi

# ---- dense Jacobian blocks (dy/dq, dy/dv, dy/du, dQ/du, dy/dlambda; generator/emit.lua:
# dense_block): code that grows with their nonzeros, not with their size. In
# tests/models/sparse_blocks.lua (N links, 2N inputs, 4N sensors) a sensor depends on at most 3
# coordinates, 2 velocities, 1 input and 1 multiplier and an input loads at most 2 coordinates:
# at most 32 N nonzero entries in all, against 4N 3N (dy/dq, dy/dv), 4N 2N (dy/du, dy/dlambda)
# and 3N 2N (dQ/du) entries. At N = 12 and 24 each block has over 256 zeros: one clearing loop
# of the block's size each, at most 32 N stores into entries (141 and 285; writing every entry
# was 6624 and 26496), and the functions' text at most 2560 N bytes (32 N stores and the 8 N
# sensor values at 64 bytes; 11 and 21 KB, was 205 and 820 KB).
dense_blocks() {    # FILE NAME: "bytes B stores S loops L sizes N1 N2 ..." of the block functions
    awk -v name="$2" '
    $0 ~ "^void " name "_(outputs|dforce_du|doutputs_du|doutputs_dlam)(_part[0-9]+)?\\(" && $0 !~ /;$/ { inf = 1 }
    inf { bytes += length($0) + 1
          if ($0 ~ /^ +(out|dy_dq|dy_dv)\[[0-9]+\] = /) st++
          if ($0 ~ /^ +for \(int i = 0; i < [0-9]+; i\+\+\) (out|dy_dq|dy_dv)\[i\] = MB_R\(0\.0\);$/) {
              lp++; n = $0; sub(/^[^<]*< /, "", n); sub(/;.*/, "", n); sizes = sizes " " n } }
    inf && /^}/ { inf = 0 }
    END { printf "bytes %d stores %d loops %d sizes%s\n", bytes, st, lp, sizes }' "$1"
}
for N in 12 24; do
    run tests/models/sparse_blocks.lua -D N=$N -o "$tmp/sb$N"
    if [ "$rc" -ne 0 ]; then bad "sparse_blocks N=$N: exit $rc: $err"; continue; fi
    r=($(dense_blocks "$tmp/sb$N/sparse_blocks.c" sparse_blocks))
    # outputs clears dy/dq and dy/dv, then dy/du (doutputs_du), dQ/du (dforce_du), dy/dlambda
    want="$((12 * N * N)) $((12 * N * N)) $((8 * N * N)) $((6 * N * N)) $((8 * N * N))"
    if [ "${#r[@]}" -eq 12 ] && [ "${r[5]}" -eq 5 ] && [ "${r[*]:7}" = "$want" ]; then ok
    else bad "sparse_blocks N=$N: not one loop per block of sizes $want: ${r[*]}"; fi
    [ "${r[3]}" -le $((32 * N)) ] && ok || bad "sparse_blocks N=$N: ${r[3]} stores into the dense blocks, more than their 32 N = $((32 * N)) possible nonzeros"
    [ "${r[1]}" -le $((2560 * N)) ] && ok || bad "sparse_blocks N=$N: the block functions are ${r[1]} bytes, more than 2560 N = $((2560 * N))"
done

# ---- all or nothing across <name>.c, <name>.h and <name>_data.c (docs/cli.md)
# a destination that is not a regular file stops everything before any rename ("stale": an
# earlier output of mbgen, which it may replace: its banner)
printf '/* SPDX-License-Identifier: MIT */\n/* x.c - generated model "x".\n * Generated by mbgen 0.0.0 from x.lua (options: none).\n * DO NOT EDIT. */\nstale\n' >"$tmp/stale"
mkdir -p "$tmp/aon"
run models/double_pendulum.lua -o "$tmp/aon"
cp "$tmp/stale" "$tmp/aon/double_pendulum.c"; cp "$tmp/stale" "$tmp/aon/double_pendulum.h"
rm -f "$tmp/aon/double_pendulum_data.c"; mkdir "$tmp/aon/double_pendulum_data.c"
run models/double_pendulum.lua -o "$tmp/aon"
if [ "$rc" -eq 1 ] && [[ "$err" == *"double_pendulum_data.c': it exists and is not a regular file"* ]] &&
   cmp -s "$tmp/stale" "$tmp/aon/double_pendulum.c" && cmp -s "$tmp/stale" "$tmp/aon/double_pendulum.h" &&
   [ "$(ls "$tmp/aon" | wc -l)" -eq 3 ]; then ok
else bad "partial output set (directory in the way): exit $rc: $err: $(ls "$tmp/aon")"; fi
# a rename that fails after others succeeded (rename() made to fail for *_data.c by a preloaded
# shim): the files renamed before are put back, new ones removed, no temporary or backup left
cat >"$tmp/shim.c" <<'SHIM'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
int rename(const char *a, const char *b)
{
    static int (*real)(const char *, const char *);
    size_t n = strlen(b);
    if (n > 7 && strcmp(b + n - 7, "_data.c") == 0) { errno = EIO; return -1; }
    if (!real) real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
    return real(a, b);
}
SHIM
if cc -shared -fPIC -o "$tmp/shim.so" "$tmp/shim.c" -ldl 2>"$tmp/shim.err"; then
    rm -rf "$tmp/aon"; mkdir -p "$tmp/aon"
    cp "$tmp/stale" "$tmp/aon/andrews.c"  # replaced, then restored; andrews.h new, then removed
    LD_PRELOAD=$tmp/shim.so ASAN_OPTIONS=verify_asan_link_order=0 run models/andrews.lua -o "$tmp/aon"
    if [ "$rc" -eq 1 ] && [[ "$err" == *"cannot rename to '$tmp/aon/andrews_data.c'"*"no file changed"* ]] &&
       cmp -s "$tmp/stale" "$tmp/aon/andrews.c" && [ "$(ls "$tmp/aon")" = andrews.c ]; then ok
    else bad "partial output set (failed rename): exit $rc: $err: $(ls "$tmp/aon")"; fi
else bad "cannot build the rename shim: $(cat "$tmp/shim.err")"; fi

# ---- the validated table handed to the back end (docs/generator.md), via --dump
# dump_has MODEL ARGS -- LINE...: every LINE appears in the dump
dump_has() {
    local m=$1; shift
    local args=()
    while [ "$1" != "--" ]; do args+=("$1"); shift; done
    shift
    run "$m" --dump "${args[@]}"
    if [ "$rc" -ne 0 ]; then bad "$m --dump: exit $rc: $err"; return; fi
    for l in "$@"; do
        if grep -qxF -- "$l" "$tmp/stdout"; then ok; else bad "$m --dump lacks: $l"; fi
    done
}
dump_has models/oscillator_1dof.lua -- 'name = "oscillator_1dof"' 'bodies[1].mass = 0.10000000000000001' \
    'elements[1].kind = "prismatic"' 'elements[1].axis[1] = 1' 'elements[2].kind = "spring"' \
    'elements[2].a.body = 0' 'elements[2].a.s[1] = -1' 'elements[2].b.label = "mass.P"' \
    'elements[2].k = 20000' 'elements[2].l0 = 1' 'elements[2].c2 = 1000' \
    'elements[3].fx = f(t) = (1000 * sin((10 * t)))' 'gravity[2] = 0'
dump_has models/andrews.lua -- 'bodies[1].name = "OF"' 'bodies[7].name = "EBD"' \
    'bodies[1].angle = -0.061713890014276448' 'bodies[2].angle = -0.062' \
    'bodies[7].points[1].name = "B"' 'bodies[7].points[3].name = "E"' 'lock[3] = true' \
    'ground_points[4].name = "O"' 'elements[10].b.label = "EBD.B"' 'elements[11].k = 4530' \
    'elements[11].a.s[1] = 0.0095700000000000004' 'elements[12].tau = 0.033000000000000002' \
    'elements[12].body.body = 1'
dump_has models/slider_crank.lua -- 'lock[3] = true' 'velocity[3] = 20' 'elements[4].kind = "prismatic"'
dump_has models/chain.lua -D N=3 --name c3 -- 'name = "c3"' 'params[1].name = "N"' \
    'params[1].value = 3' 'bodies[3].name = "link3"' 'elements[3].a.label = "link2.B"' \
    'options[1] = "-D N=3"' 'options[2] = "--name c3"'

# ---- mutants of the shipped models (per line: deleted; first number NaN; second number -1 or
# a table): the generator must end with exit 0 or a user error (1), never crash or fail inside.
# make test runs one of the three per line, taken in turn (line l: mutation l mod 3): every line
# and every kind, a third of the runs; MB_TEST_LONG=1 (make test-long) runs all three per line.
mut_bad=0; mut_n=0
for m in $shipped; do
    nl=$(wc -l <"$m")
    for ((l = 1; l <= nl; l++)); do
        sed -n "${l}p" "$m" | grep -q -E '^[[:space:]]*(--|$)' && continue
        alt='-1'; [ $((l % 2)) -eq 0 ] && alt='{}'
        k=-1
        for expr in "${l}d" "${l}s/[0-9]+(\.[0-9]+)?/(0\/0)/" "${l}s/[0-9]+(\.[0-9]+)?/$alt/2"; do
            k=$((k + 1))
            [ "${MB_TEST_LONG:-0}" = 1 ] || [ "$k" -eq $((l % 3)) ] || continue
            sed -E "$expr" "$m" >"$tmp/mutant.lua"
            run "$tmp/mutant.lua" -o "$tmp/mutout"
            mut_n=$((mut_n + 1))
            if [ "$rc" -gt 1 ] || [[ "$err" == *traceback* ]] ||
               { [ "$rc" -eq 1 ] && [[ "$err" != *": error: "* ]]; }; then
                mut_bad=$((mut_bad + 1))
                echo "mutant $m sed '$expr': exit $rc: $(printf '%s' "$err" | head -n 3)"
            fi
        done
    done
done
if [ "$mut_n" -gt 100 ] && [ "$mut_bad" -eq 0 ]; then ok
else bad "$mut_bad of $mut_n mutants of the shipped models crashed or failed internally"; fi

# ---- command line
run --help
if [ "$rc" -eq 0 ] && [[ "$out" == "usage: mbgen"* ]]; then ok; else bad "--help: exit $rc"; fi
run --version
if [ "$rc" -eq 0 ] && [[ "$out" == "mbgen "[0-9]* ]]; then ok; else bad "--version: exit $rc: $out"; fi

# expect_fail TEXT ARGS...: exit 1 with "mbgen: error: ..." or "file: error:" containing TEXT
expect_fail() {
    local text=$1; shift
    run "$@"
    if [ "$rc" -eq 1 ] && [[ "$err" == *"error: "*"$text"* ]] && [[ "$err" != *traceback* ]]; then ok
    else bad "mbgen $*: exit $rc, expected 1 and '$text': $err"; fi
}
expect_fail "unknown option '--frobnicate'" models/andrews.lua --frobnicate
expect_fail "option -o needs an argument" models/andrews.lua -o
expect_fail "option --name needs an argument" models/andrews.lua --name
expect_fail "option -D needs an argument" models/andrews.lua -D
expect_fail "-D expects NAME=VALUE" models/chain.lua -D N --check
expect_fail "value is not a finite number" models/chain.lua -D N=abc --check
expect_fail "value is not a finite number" models/chain.lua -D N=1e999 --check
expect_fail "-D N given twice" models/chain.lua -D N=3 -D N=4 --check
expect_fail "-D Q given, but the model has no param" models/andrews.lua -D Q=1 --check
expect_fail "no model file given" --check
expect_fail "one model file at a time" models/andrews.lua models/chain.lua --check
expect_fail "cannot read model file" "$tmp/nonexistent.lua" --check
expect_fail "--name name 'not-an-id' is not an identifier" models/andrews.lua --name not-an-id --check
expect_fail "N must be an integer" models/chain.lua -D N=0 --check
expect_fail "cannot write to directory '/dev/null/sub'" models/andrews.lua -o /dev/null/sub
mkdir -p "$tmp/ro"; echo x >"$tmp/ro/file"
expect_fail "cannot write to directory '$tmp/ro/file/sub'" models/andrews.lua -o "$tmp/ro/file/sub"

# ---- -o DIR creates at most its last component: a typo never creates a tree
expect_fail "its parent '$tmp/typo/a' does not exist (mbgen creates only the last component" models/andrews.lua -o "$tmp/typo/a/b"
[ ! -e "$tmp/typo" ] && ok || bad "mbgen -o $tmp/typo/a/b created $(find "$tmp/typo")"
run models/andrews.lua -o "$tmp/newdir/"
[ "$rc" -eq 0 ] && [ -f "$tmp/newdir/andrews.c" ] && ok || bad "mbgen -o NEWDIR (parent exists): exit $rc: $err"
# a model error leaves no new directory behind
printf 'body "a" { mass = -1 }\n' >"$tmp/broken.lua"
run "$tmp/broken.lua" -o "$tmp/never"
[ "$rc" -eq 1 ] && [ ! -e "$tmp/never" ] && ok || bad "a failed generation created its -o directory (exit $rc)"

# ---- a file at an output name that mbgen did not write is never replaced (a model named
# "main" and the user's main.c), unless --force; nothing else is written either
mkdir -p "$tmp/user"
printf 'int main(void) { return 0; }\n' >"$tmp/user/main.c"
cp "$tmp/user/main.c" "$tmp/user_main.c"
sed 's/^name "double_pendulum"/name "main"/' models/double_pendulum.lua >"$tmp/main_model.lua"
run "$tmp/main_model.lua" -o "$tmp/user"
if [ "$rc" -eq 1 ] && [[ "$err" == *"error: '$tmp/user/main.c' exists and was not written by mbgen"*"--force"* ]] &&
   cmp -s "$tmp/user_main.c" "$tmp/user/main.c" && [ "$(ls "$tmp/user")" = main.c ]; then ok
else bad "mbgen overwrote or wrote next to a user's main.c: exit $rc: $err: $(ls "$tmp/user")"; fi
run "$tmp/main_model.lua" -o "$tmp/user" --force
if [ "$rc" -eq 0 ] && grep -q "Generated by mbgen" "$tmp/user/main.c" && [ -f "$tmp/user/main_data.c" ]; then ok
else bad "mbgen --force did not replace main.c: exit $rc: $err"; fi
# its own earlier output (the banner) is replaced without --force
echo '/* DP_CHANGED */' >>"$tmp/user/main.c"
run "$tmp/main_model.lua" -o "$tmp/user"
if [ "$rc" -eq 0 ] && ! grep -q DP_CHANGED "$tmp/user/main.c"; then ok
else bad "mbgen refused to replace its own output: exit $rc: $err"; fi

# ---- names that break the build are refused (exit 1, "is reserved"): every header the project
# includes (generated/<name>.h would hide it: -Igenerated comes first), every object-like macro
# with a lowercase letter the simulator's headers define (-DMB_MODEL=<name> would expand it),
# names without a lowercase letter (the macro namespace), and the issue's examples
reserved_bad=0; reserved_n=0
refused() {   # refused NAME: --name NAME and a name statement are both refused
    reserved_n=$((reserved_n + 1))
    run models/double_pendulum.lua --name "$1" --check
    if [ "$rc" -ne 1 ] || [[ "$err" != *"model name '$1' is reserved"* ]] || [[ "$err" == *traceback* ]]; then
        reserved_bad=$((reserved_bad + 1)); echo "name '$1' accepted or misreported: exit $rc: $err"
    fi
}
headers=$(grep -rhoE '#include [<"][A-Za-z0-9_]+\.h[>"]' runtime evaluator tools generated tests bench examples generator |
          sed -E 's/#include [<"]//; s/\.h[>"]//' | sort -u)
for h in $headers; do
    case "$h" in mb_*) continue ;; esac
    [ -f "generated/$h.h" ] && continue      # a shipped model's own header
    [ -f "tests/models/$h.lua" ] && continue # a test model's, generated into build/ (float_run.c)
    refused "$h"
done
printf '#define _POSIX_C_SOURCE 200809L\n%s\n' \
    "$(grep -hoE '#include <[a-z/]+\.h>' tools/mb_sim_main.c tools/mb_anim_main.c runtime/mb_model.h \
       runtime/mb_config.h | sort -u)" >"$tmp/hdrs.c"
macros=$(cc -std=c99 -dM -E "$tmp/hdrs.c" | awk '$1 == "#define" && $2 !~ /[(]/ { print $2 }' |
         grep -v '^_' | grep '[a-z]')
[ "$(printf '%s\n' "$macros" | wc -l)" -gt 20 ] && ok || bad "too few macros found in the headers: $macros"
for m in $macros; do refused "$m"; done
for n in math stdio string stdlib signal time errno NULL EOF Math STDIO features lapacke lua \
         PATH_MAX X stdin st_mtime true; do
    refused "$n"
done
if [ "$reserved_bad" -eq 0 ] && [ "$reserved_n" -gt 60 ]; then ok
else bad "$reserved_bad of $reserved_n reserved names were accepted"; fi
printf 'name "math"\nground { O = { 0, 0 } }\nbody "b" { mass = 1, inertia = 1, points = { A = { 0, 0 } } }\nrevolute "j" { "ground.O", "b.A" }\n' >"$tmp/math_name.lua"
run "$tmp/math_name.lua" -o "$tmp/math_out"
if [ "$rc" -eq 1 ] && [[ "$err" == "$tmp/math_name.lua:1: error: model name 'math' is reserved: "*"<math.h>"* ]] &&
   [ ! -e "$tmp/math_out" ]; then ok
else bad "name \"math\" statement: exit $rc: $err"; fi
for n in tower mathx Stdio2 isx e2 sig; do    # near misses are fine
    run models/double_pendulum.lua --name "$n" --check
    if [ "$rc" -eq 0 ]; then ok; else bad "name '$n' refused: $err"; fi
done

# --name overrides the model's name statement
run models/andrews.lua --name squeezer --check
if [ "$rc" -eq 0 ] && [[ "$out" == "squeezer: 7 bodies"* ]]; then ok; else bad "--name: $out $err"; fi

# LUA_PATH, LUA_CPATH and LUA_INIT are ignored; the generator is found from any directory
mkdir -p "$tmp/evil"
echo 'error("evil module loaded")' >"$tmp/evil/model.lua"
root=$(pwd)
(cd "$tmp" && LUA_INIT='error("LUA_INIT ran")' LUA_INIT_5_4='error("LUA_INIT ran")' \
    LUA_PATH="$tmp/evil/?.lua" LUA_PATH_5_4="$tmp/evil/?.lua" LUA_CPATH="$tmp/evil/?.so" \
    timeout 60 "$MBGEN" "$root/models/double_pendulum.lua" --check >"$tmp/stdout" 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && grep -q "^double_pendulum: 2 bodies" "$tmp/stdout"; then ok
else bad "environment or working directory changed the result: $(cat "$tmp/stdout")"; fi

# exit status 2 (with a traceback) for internal errors: a copy of the host next to a generator
# directory without the back end, and one whose main.lua has a bug
mkdir -p "$tmp/inst/build" "$tmp/inst/generator"
cp "$MBGEN" "$tmp/inst/build/mbgen"
cp generator/main.lua generator/model.lua "$tmp/inst/generator/"
MBGEN=$tmp/inst/build/mbgen run models/double_pendulum.lua --check
if [ "$rc" -eq 0 ]; then ok; else bad "host copy without the back end: --check exit $rc: $err"; fi
MBGEN=$tmp/inst/build/mbgen run models/double_pendulum.lua -o "$tmp/inst/out"
if [ "$rc" -eq 2 ] && [[ "$err" == *"generator/emit.lua"*"could not be loaded"* ]] &&
   [ ! -e "$tmp/inst/out/double_pendulum.c" ]; then ok
else bad "missing back end: exit $rc, expected 2: $err"; fi
echo 'local t = nil; return t.x' >"$tmp/inst/generator/main.lua"
MBGEN=$tmp/inst/build/mbgen run models/double_pendulum.lua
if [ "$rc" -eq 2 ] && [[ "$err" == *"stack traceback"* ]] && [[ "$err" == *"internal error"* ]]; then ok
else bad "internal error: exit $rc, expected 2 with a traceback: $err"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
