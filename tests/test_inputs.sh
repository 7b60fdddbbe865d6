#!/usr/bin/env bash
# test_inputs.sh - inputs, forces that depend on the state and sensors end to end
# (docs/model-language.md, "Inputs, forces that depend on the state, sensors"; docs/cli.md,
# "Inputs"), on models/cartpole.lua (input F, four sensors) and tests/models/incline_friction.lua:
#  - --input-file with --hold foh equals the model regenerated with the same ramps as a function
#    of time (make sim MODEL=<sed'ed copy>; run with --no-events, since with events the model's
#    ramp kinks are switches its steps stop at): the hold's in.F is the ramps' value to 4e-15 N
#    (measured 1.3e-15 N: the last digits of value + slope (t - t_set) against the ramp's own
#    formula, and of the CSV's 15 digits); rk4 (baumgarte, canonical) to 1e-13 (measured 7e-15);
#    alf-trapezoid and hht to within 3 times the difference that one table value moved by one
#    ulp (4e-16 N) makes to the same run (the integrator's own sensitivity to last-bit input
#    changes on this unstable plant, the floor any hold meets: measured foh 2.4e-12, 1.1e-12
#    against 3.9e-12, 1.0e-12; with --alpha 1e6 alf-trapezoid 5.2e-13 against 5.0e-13) and
#    below 1e-11; the zero-order hold of the same table differs (negative control);
#  - --hold zoh: a table with jumps on the step grid equals, digit for digit, the same run
#    driven through mb_sim_set_input (build/test_inputs --rows); a one-row table, and --set F=c,
#    equal the model with the constant, every column (alf-trapezoid, rk4, hht, bdf, dopri5); a jump table
#    converges at first order in h to the model with the jumps as heaviside(t - t_j) run with
#    --no-events, which no hold reproduces exactly (the step that ends on a jump sees it at its
#    end); with events (the default) that model's steps end just before each jump and it agrees
#    with the table to 1e-6 at every h (measured 4e-9 .. 4e-8, against 5e-4 .. 2e-3 without);
#  - adaptive integrators stop at every row: dopri5 (baumgarte, rtol 1e-10) on the ramp table
#    against rk4 at h = 1e-4 to 1e-8 (measured 6.7e-11; the ramps as f(t), no stops: 9.3e-9);
#    bdf on it in few steps (it restarts at each row only);
#  - sensors: out.x is the cart.x column;
#  - the block on an incline with regularized Coulomb friction against its closed form: the slip
#    phase, the stop and the stick (creep v0 atanh(tan theta / mu)); sliding on for mu < tan;
#  - --input-file errors: exit 2, the file and line named, no CSV; --set of an input the file
#    also gives, of a name that is neither a tunable nor an input.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
MAKE=${MAKE:-make}
BUILD=${BUILD:-build}
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_inputs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mk() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS "$MAKE" --no-print-directory -C "$root" "$@"; }
SIM=$BUILD/cartpole_sim
INC=$BUILD/incline_friction_sim
mk "$SIM" "$INC" "$BUILD/test_inputs" "$BUILD/mbgen" >/dev/null 2>&1 ||
    { bad "cannot build $SIM, $INC, $BUILD/test_inputs"; echo "$pass passed, $fail failed"; exit 1; }
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 == a && a < b) }'; }
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 == a && a > b) }'; }

# the cartpole with F replaced (sed): name NAME, F = EXPR; built with make sim MODEL=<copy>
variant() {
    local name=$1 expr=$2
    sed -e "s/^name \"cartpole\"/name \"$name\"/" -e "s/^local F = input \"F\" { default = 0[^}]*}.*/local F = $expr/" \
        models/cartpole.lua > "$tmp/$name.lua"
    if grep -q 'input "F"' "$tmp/$name.lua"; then bad "$name: sed left the input"; return 1; fi
    if out=$(mk sim MODEL="$tmp/$name.lua" 2>&1) && [ -x "$BUILD/${name}_sim" ]; then ok
    else bad "make sim MODEL=$tmp/$name.lua: $out"; return 1; fi
}
variant cartpole_ramp 'function(t) return ramp { t0 = 0.1, t1 = 0.3, from = 0, to = 2 }(t) - ramp { t0 = 0.3, t1 = 0.5, from = 0, to = 3 }(t) end'
variant cartpole_const '0.5'
variant cartpole_jump 'function(t) return 2 * heaviside(t - 0.1) - 3 * heaviside(t - 0.3) + 1.5 * heaviside(t - 0.5) end'

# csvdiff A B [SKIP]: the largest difference over the columns both have (by name), each on its scale
# max(max |value|, 1) (m, m/s, N: absolute below 1), leaving out the monitors (round-off of
# differences: energy_dev, phi_norm, phid_norm, sigma_norm), the in.* columns and those SKIP
# (a regular expression) matches
csvdiff() {
    awk -F, -v skip="${3:-^$}" 'NR == FNR { if (FNR == 1) { for (i = 1; i <= NF; i++) ca[$i] = i; next }
                         for (i = 1; i <= NF; i++) a[FNR, i] = $i; n = FNR; next }
             FNR == 1 { for (i = 1; i <= NF; i++) if (($i in ca) && $i !~ /^(energy_dev|phi_norm|phid_norm|sigma_norm|t)$/ && $i !~ skip) { cb[i] = ca[$i] }; next }
             { m = FNR; for (i in cb) { x = $i; y = a[FNR, cb[i]]; s = (x < 0 ? -x : x); if (s > sc[i]) sc[i] = s
                                        d = x - y; if (d < 0) d = -d; if (d > dm[i]) dm[i] = d } }
             END { if (m != n) { print "rows", n, m; exit }
                   for (i in cb) { s = sc[i] > 1 ? sc[i] : 1; r = dm[i] / s; if (r > w) w = r }; printf "%.3g\n", w }' "$1" "$2"
}
# same A B: every column both have (by name) equal as text (t and the monitors included)
same() {
    awk -F, 'NR == FNR { if (FNR == 1) { for (i = 1; i <= NF; i++) ca[$i] = i; next }
                         for (i = 1; i <= NF; i++) a[FNR, i] = $i; n = FNR; next }
             FNR == 1 { for (i = 1; i <= NF; i++) if ($i in ca) cb[i] = ca[$i]; next }
             { m = FNR; for (i in cb) if ($i != a[FNR, cb[i]]) { print "row " FNR " column " i ": " a[FNR, cb[i]] " vs " $i; exit } }
             END { if (m != n) print "rows", n, m }' "$1" "$2"
}

printf 't,F\n0,0\n0.1,0\n0.3,2\n0.5,-1\n' > "$tmp/ramp.csv"
printf 't,F\n0,0\n0.1,0\n0.3,2.0000000000000004\n0.5,-1\n' > "$tmp/ramp_ulp.csv"   # 2 one ulp up
printf 't,F\n0,0\n0.1,2\n0.3,-1\n0.5,0.5\n' > "$tmp/zoh.csv"    # = test_inputs.c's KROW, FV
printf 't,F\n0,0.5\n' > "$tmp/const.csv"

# ---- first-order hold against the ramps as a function of time
# (bound: a number, or "ulp": 3 times the one-ulp control's difference and below 1e-11)
for run in "alf-trapezoid trapezoid ulp" "baumgarte rk4 1e-13" "canonical rk4 1e-13" "baumgarte hht ulp" \
           "alf-trapezoid trapezoid 1e-12 --alpha 1e6"; do
    set -- $run
    f=$1 ig=$2 bound=$3; shift 3
    "$SIM" --quiet --formulation "$f" --integrator "$ig" --t-end 1 "$@" --input-file "$tmp/ramp.csv" --hold foh \
        --out "$tmp/foh.csv" > "$tmp/foh.txt" 2>&1
    "$BUILD/cartpole_ramp_sim" --quiet --formulation "$f" --integrator "$ig" --t-end 1 "$@" --no-events --out "$tmp/fun.csv" > /dev/null 2>&1
    "$SIM" --quiet --formulation "$f" --integrator "$ig" --t-end 1 "$@" --input-file "$tmp/ramp.csv" \
        --out "$tmp/zoh_r.csv" > /dev/null 2>&1
    "$SIM" --quiet --formulation "$f" --integrator "$ig" --t-end 1 "$@" --input-file "$tmp/ramp_ulp.csv" --hold foh \
        --out "$tmp/ulp.csv" > /dev/null 2>&1
    d=$(csvdiff "$tmp/foh.csv" "$tmp/fun.csv"); d0=$(csvdiff "$tmp/zoh_r.csv" "$tmp/fun.csv")
    du=$(csvdiff "$tmp/foh.csv" "$tmp/ulp.csv")
    echo "$f $ig $*: --hold foh vs the ramps as f(t): $d (one table value one ulp up: $du; zoh: $d0)"
    if [ "$bound" = ulp ]; then
        lim=$(awk -v u="$du" 'BEGIN { print (u + 0 == u) ? 3 * u : 0 }')
        if grep -q '^status=ok' "$tmp/foh.txt" && lt "$d" "$lim" && lt "$d" 1e-11; then ok
        else bad "$f $ig: foh differs from the ramp model by $d, above 3 x the one-ulp control $du (or 1e-11)"; fi
    elif grep -q '^status=ok' "$tmp/foh.txt" && lt "$d" "$bound"; then ok
    else bad "$f $ig $*: foh differs from the ramp model: $d (bound $bound) $(cat "$tmp/foh.txt")"; fi
    if gt "$d0" 1e-6; then ok; else bad "$ig: negative control: zoh should differ from the ramps: $d0"; fi
done
# the hold itself: in.F against the ramps' formula (F = 10 (t - 0.1) on [0.1, 0.3], 2 - 15 (t - 0.3)
# on [0.3, 0.5]): the last digits only
e=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { t = $1; f = t <= 0.1 ? 0 : t <= 0.3 ? 10 * (t - 0.1) : t <= 0.5 ? 2 - 15 * (t - 0.3) : -1
      d = $c["in.F"] - f; if (d < 0) d = -d; if (d > m) m = d } END { printf "%.3g\n", m }' "$tmp/foh.csv")
echo "--hold foh: in.F within $e N of the ramps"
if lt "$e" 4e-15; then ok; else bad "--hold foh: in.F off the ramps by $e N"; fi

# ---- zero-order hold: the jump table equals mb_sim_set_input's run digit for digit
"$SIM" --quiet --t-end 1 --input-file "$tmp/zoh.csv" --out "$tmp/zoh_cli.csv" > /dev/null 2>&1
if "$BUILD/test_inputs" --rows "$tmp/zoh_api.body" && [ -s "$tmp/zoh_api.body" ]; then
    { head -n 1 "$tmp/zoh_cli.csv" | cut -d, -f1-7; cat "$tmp/zoh_api.body"; } > "$tmp/zoh_api.csv"
    r=$(same "$tmp/zoh_cli.csv" "$tmp/zoh_api.csv")
    if [ -z "$r" ]; then ok; else bad "zoh: --input-file differs from mb_sim_set_input: $r"; fi
else bad "test_inputs --rows failed"; fi
# in.F as the model saw it (a row at a table time ends the step before: the old value), and
# out.x = cart.x
if awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            { t = $1 + 0; f = t <= 0.1 + 1e-9 ? 0 : t <= 0.3 + 1e-9 ? 2 : t <= 0.5 + 1e-9 ? -1 : 0.5
              if ($c["in.F"] + 0 != f || $c["out.x"] != $c["cart.x"]) { print; exit 1 } }' "$tmp/zoh_cli.csv"; then ok
else bad "zoh: in.F is not the table's value, or out.x is not cart.x"; fi

# ---- a one-row table equals the model with the constant, every column
for run in "alf-trapezoid trapezoid" "alf-explicit rk4" "baumgarte hht" "alf-trapezoid bdf" "alf-explicit dopri5"; do
    set -- $run
    "$SIM" --quiet --formulation "$1" --integrator "$2" --t-end 1 --input-file "$tmp/const.csv" --out "$tmp/c1.csv" > /dev/null 2>&1
    "$BUILD/cartpole_const_sim" --quiet --formulation "$1" --integrator "$2" --t-end 1 --out "$tmp/c2.csv" > /dev/null 2>&1
    r=$(same "$tmp/c1.csv" "$tmp/c2.csv")
    if [ -z "$r" ] && [ "$(wc -l < "$tmp/c1.csv")" -gt 10 ]; then ok; else bad "$2: a constant table differs from the constant model: $r"; fi
    # --set F=0.5: the input held from t = 0 in place of its default, the same run
    "$SIM" --quiet --formulation "$1" --integrator "$2" --t-end 1 --set F=0.5 --out "$tmp/c3.csv" > /dev/null 2>&1
    r=$(same "$tmp/c3.csv" "$tmp/c2.csv")
    if [ -z "$r" ] && [ "$(wc -l < "$tmp/c3.csv")" -gt 10 ]; then ok; else bad "$2: --set F=0.5 differs from the constant model: $r"; fi
done
# (negative control: the default F = 0 is another run)
"$SIM" --quiet --t-end 1 --out "$tmp/c4.csv" > /dev/null 2>&1
[ -n "$(same "$tmp/c4.csv" "$tmp/c2.csv")" ] && ok || bad "the default F equals the constant model: the comparison sees nothing"

# ---- a jump table converges at first order to the jumps as functions of time (positions and
# velocities: the accelerations and reactions of a row at a jump jump themselves)
acc='[.](ax|ay|alpha|fx|fy|fn|moment)$|^out[.](xdot|thetadot)$'
err=(); erre=()
for h in 1e-3 5e-4 2.5e-4; do
    "$SIM" --quiet --h "$h" --t-end 1 --input-file "$tmp/zoh.csv" --out "$tmp/j1.csv" > /dev/null 2>&1
    "$BUILD/cartpole_jump_sim" --quiet --h "$h" --t-end 1 --no-events --out "$tmp/j2.csv" > /dev/null 2>&1
    "$BUILD/cartpole_jump_sim" --quiet --h "$h" --t-end 1 --out "$tmp/j3.csv" > /dev/null 2>&1
    err+=("$(csvdiff "$tmp/j1.csv" "$tmp/j2.csv" "$acc")")
    erre+=("$(csvdiff "$tmp/j1.csv" "$tmp/j3.csv" "$acc")")
done
echo "zoh jump table vs heaviside model: h = 1e-3, 5e-4, 2.5e-4: ${err[*]} (--no-events), ${erre[*]} (events)"
for k in 0 1 2; do
    if lt "${erre[$k]}" 1e-6; then ok; else bad "zoh jumps: the heaviside model with events differs from the table by ${erre[$k]}"; fi
done
for k in 0 1; do
    q=$(awk -v a="${err[$k]}" -v b="${err[$((k + 1))]}" 'BEGIN { print (b > 0 ? a / b : 0) }')
    if gt "$q" 1.7 && lt "$q" 2.3; then ok; else bad "zoh jumps: error ratio $q at halved h, expected 2 (first order): ${err[*]}"; fi
done

# ---- adaptive integrators stop at every row: dopri5 on the ramp table against rk4 at h = 1e-4
"$BUILD/cartpole_ramp_sim" --quiet --formulation baumgarte --integrator rk4 --h 1e-4 --every 10 --t-end 1 \
    --out "$tmp/ref.csv" > /dev/null 2>&1
"$SIM" --quiet --formulation baumgarte --integrator dopri5 --rtol 1e-10 --atol 1e-12 --t-end 1 \
    --input-file "$tmp/ramp.csv" --hold foh --out "$tmp/dp.csv" > "$tmp/dp.txt" 2>&1
"$BUILD/cartpole_ramp_sim" --quiet --formulation baumgarte --integrator dopri5 --rtol 1e-10 --atol 1e-12 --t-end 1 \
    --out "$tmp/dpf.csv" > /dev/null 2>&1
d=$(csvdiff "$tmp/dp.csv" "$tmp/ref.csv" "$acc"); d0=$(csvdiff "$tmp/dpf.csv" "$tmp/ref.csv" "$acc")
echo "dopri5: the ramp table (stops at its rows) $d from rk4 h = 1e-4; the ramps as f(t), no stops: $d0"
if grep -q '^status=ok' "$tmp/dp.txt" && lt "$d" 1e-8; then ok; else bad "dopri5 with the ramp table: $d from the reference"; fi
"$SIM" --quiet --formulation alf-trapezoid --integrator bdf --t-end 1 --input-file "$tmp/ramp.csv" --hold foh \
    --out "$tmp/bdf.csv" > "$tmp/bdf.txt" 2>&1
d=$(csvdiff "$tmp/bdf.csv" "$tmp/ref.csv" "$acc")
# bdf: the table sets its holds at its rows only (each set restarts the Nordsieck array)
steps=$(sed -n 's/.* steps=\([0-9]*\) .*/\1/p' "$tmp/bdf.txt")
echo "bdf (default tolerances): the ramp table $d from the reference in $steps steps"
if grep -q '^status=ok' "$tmp/bdf.txt" && lt "$d" 1e-3 && lt "$steps" 1000; then ok; else bad "bdf with the ramp table: $d: $(cat "$tmp/bdf.txt")"; fi

# ---- the block on the incline: closed form (tests/models/incline_friction.lua)
col() { awk -F, -v t="$2" -v n="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $1 == t { print $c[n]; exit }' "$1"; }
"$INC" --quiet --out "$tmp/inc.csv" > "$tmp/inc.txt" 2>&1
"$INC" --quiet --set mu=0.2 --out "$tmp/inc2.csv" > "$tmp/inc2.txt" 2>&1
read -r a1 sst vc a2 < <(awk 'BEGIN { g = 9.81; th = 20 * atan2(1, 1) / 45; s = sin(th); c = cos(th); r = s / c / 0.6
    printf "%.17g %.17g %.17g %.17g\n", g * (s - 0.6 * c), 4 / (2 * g * (0.6 * c - s)), 1e-3 * 0.5 * log((1 + r) / (1 - r)), g * (s - 0.2 * c) }')
ts=$(awk -v a="$a1" 'BEGIN { printf "%.17g", -2 / a }')
check() {   # check WHAT GOT EXPECTED TOL
    local e; e=$(awk -v x="$2" -v y="$3" 'BEGIN { d = x - y; print (d < 0 ? -d : d) }')
    echo "incline: $1: $2, closed form $3 (|difference| $e)"
    if [ -n "$2" ] && lt "$e" "$4"; then ok; else bad "incline: $1: $2, expected $3 within $4"; fi
}
check "slip, s(0.5) [mu 0.6]" "$(col "$tmp/inc.csv" 0.5 out.s)" "$(awk -v a="$a1" 'BEGIN { printf "%.17g", 1 + a / 8 }')" 1e-9
check "slip, s'(0.5) [mu 0.6]" "$(col "$tmp/inc.csv" 0.5 out.sdot)" "$(awk -v a="$a1" 'BEGIN { printf "%.17g", 2 + a / 2 }')" 1e-9
check "stick, s(2) [mu 0.6]" "$(col "$tmp/inc.csv" 2 out.s)" "$(awk -v s="$sst" -v v="$vc" -v ts="$ts" 'BEGIN { printf "%.17g", s + v * (2 - ts) }')" 1e-5
check "stick, s'(2) = creep [mu 0.6]" "$(col "$tmp/inc.csv" 2 out.sdot)" "$vc" 1e-9
check "slide on, s(2) [mu 0.2]" "$(col "$tmp/inc2.csv" 2 out.s)" "$(awk -v a="$a2" 'BEGIN { printf "%.17g", 4 + 2 * a }')" 1e-9
if grep -q '^status=ok' "$tmp/inc.txt" && grep -q '^status=ok' "$tmp/inc2.txt"; then ok; else bad "incline: status: $(cat "$tmp/inc.txt" "$tmp/inc2.txt")"; fi

# ---- --input-file errors: exit 2, the file (and line) named, no CSV
expect_err() {   # expect_err WHAT PATTERN ARGS...
    local what=$1 pat=$2; shift 2
    rm -f "$tmp/e.csv"
    "$@" --quiet --out "$tmp/e.csv" > "$tmp/o" 2> "$tmp/e"
    local rc=$?
    if [ "$rc" -eq 2 ] && grep -q -- "$pat" "$tmp/e" && [ ! -e "$tmp/e.csv" ]; then ok
    else bad "$what: exit $rc, stderr: $(cat "$tmp/e"), csv: $([ -e "$tmp/e.csv" ] && echo written || echo none)"; fi
}
printf 't,G\n0,1\n' > "$tmp/b1.csv"; expect_err "unknown input" "b1.csv:1: unknown input 'G'" "$SIM" --input-file "$tmp/b1.csv"
printf 't,F\n0,1\n0,2\n' > "$tmp/b2.csv"; expect_err "t not increasing" "b2.csv:3: t must increase" "$SIM" --input-file "$tmp/b2.csv"
printf 't,F\n0,nan\n' > "$tmp/b3.csv"; expect_err "NaN value" "b3.csv:2: not a finite number: 'nan'" "$SIM" --input-file "$tmp/b3.csv"
printf 't,F,F\n0,1,2\n' > "$tmp/b4.csv"; expect_err "a column twice" "b4.csv:1: input given twice" "$SIM" --input-file "$tmp/b4.csv"
printf 'time,F\n0,1\n' > "$tmp/b5.csv"; expect_err "no t column" "b5.csv:1: the first column must be t" "$SIM" --input-file "$tmp/b5.csv"
printf 't,F\n0,1,2\n' > "$tmp/b6.csv"; expect_err "too many columns" "b6.csv:2: too many columns" "$SIM" --input-file "$tmp/b6.csv"
printf 't,F\n' > "$tmp/b7.csv"; expect_err "no rows" "b7.csv:1: no data rows" "$SIM" --input-file "$tmp/b7.csv"
expect_err "missing file" "cannot read" "$SIM" --input-file "$tmp/none.csv"
expect_err "--hold without a table" "--hold has no effect without --input-file" "$SIM" --hold foh
expect_err "--hold bad" "expected zoh or foh" "$SIM" --input-file "$tmp/ramp.csv" --hold cubic
expect_err "a model without inputs" "the model has no inputs" "$INC" --input-file "$tmp/ramp.csv"
expect_err "--set of an input the file gives" "--set F=1: --input-file .*const.csv also gives input 'F'" \
    "$SIM" --set F=1 --input-file "$tmp/const.csv"
expect_err "--set of an unknown name" "unknown tunable or input 'G'; the tunables are: none; the inputs are: F (default 0)" \
    "$SIM" --set G=1

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
