#!/usr/bin/env bash
# test_react_sensors.sh - sensors that read reactions (docs/model-language.md, "Reactions in
# sensors"; model interface 13) on tests/models/react_sensors.lua:
#  - every sensor that is a reaction (revolute fx, fy, driver effort, prismatic fn, gear, rack,
#    slot, rod, cam) equals its CSV reaction column digit for digit in every row, with two
#    formulations (alf-trapezoid/trapezoid, baumgarte/rk4, and dopri5's interpolated rows): the
#    out. columns take the multipliers of the same solve (mb_anl_outputs);
#  - formulas of reactions: 2 Pr.moment + g1.omega, |J| cos(arm.phi) and Cm.normal Pg.moment to
#    1e-12 of the columns;
#  - the closed form of the arm turned at w = 3 rad/s (m = 2 kg, CoM at a = 0.3 m):
#    J = (-m w^2 a cos wt, -m w^2 a sin wt + m g), effort m g a cos wt, to 1e-9 N (measured
#    7.9e-12 N with the default trapezoid at h = 1e-3);
#  - mb_sim_get_output along the default run (build/test_react_api --rows) equals the out.*
#    columns digit for digit;
#  - the static analysis' out.* columns: the reaction sensors equal its reaction columns;
#  - a reaction of an equation mbgen --redundant removes is refused, naming the sensor;
#  - tests/models/react_pendulum.lua: the hanging bar's pin holds (0, m g) at rest, and
#    --analysis linearize gives the closed form's C and D for its pin force (C includes
#    dy/dlambda dlambda/dx from the linearization's own solve), Cf reads lambda, Df is dy/du.
# The generator's refusals (unknown joint, missing component, a reaction in a load ...) are in
# tests/hostile/sensor_reaction*.lua (tests/test_mbgen.sh). Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
MAKE=${MAKE:-make}
BUILD=${BUILD:-build}
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_react.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mk() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS "$MAKE" --no-print-directory -C "$root" "$@"; }
SIM=$BUILD/react_sensors_sim
PEN=$BUILD/react_pendulum_sim
API=$BUILD/test_react_api
mk "$SIM" "$PEN" "$API" >/dev/null 2>&1 || { bad "cannot build $SIM, $PEN, $API"; echo "$pass passed, $fail failed"; exit 1; }

# same CSV: rows where a reaction sensor differs from its column (as text), and the worst
# relative error of the formula sensors; "rows mismatches formula_err"
same() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    function chk(a, b) { if (!(a in c) || !(b in c)) { miss++; return } if ($c[a] != $c[b]) bad++ }
    function rel(x, y) { d = x - y; if (d < 0) d = -d; s = (x < 0 ? -x : x); if (s < 1) s = 1; return d / s }
    { n++
      chk("J.fx", "out.Jfx"); chk("J.fy", "out.Jfy"); chk("D.effort", "out.Deffort")
      chk("G12.mesh.lambda", "out.G12"); chk("RP.travel.lambda", "out.RP"); chk("Pr.fn", "out.Prfn")
      chk("Sg.perp.lambda", "out.Sg"); chk("Rd.tension", "out.Rd"); chk("Cm.normal", "out.Cm")
      e = rel($c["out.Cm2"], $c["Cm.normal"] * $c["Pg.moment"]); if (e > w) w = e
      e = rel($c["out.Prmoment"], 2 * $c["Pr.moment"] + $c["g1.omega"]); if (e > w) w = e
      fx = $c["J.fx"]; fy = $c["J.fy"]
      e = rel($c["out.load"], sqrt(fx * fx + fy * fy) * cos($c["arm.phi"])); if (e > w) w = e }
    END { printf "%d %d %.3e\n", n, bad + miss * 1000, w + 0 }' "$1"
}
for run in "trapezoid::" "rk4:--formulation baumgarte --integrator rk4:" "dopri5:--formulation baumgarte --integrator dopri5 --rtol 1e-9:"; do
    label=${run%%:*}; rest=${run#*:}; opts=${rest%%:*}
    # shellcheck disable=SC2086
    if ! "$SIM" $opts --out "$tmp/$label.csv" >"$tmp/$label.log" 2>&1; then
        bad "$label: the run failed: $(tail -2 "$tmp/$label.log")"; continue
    fi
    read -r n mism w < <(same "$tmp/$label.csv")
    if [ "$n" -gt 100 ] && [ "$mism" -eq 0 ]; then ok
    else bad "$label: $mism of $n rows: a reaction sensor differs from its reaction column"; fi
    if awk -v w="$w" 'BEGIN { exit !(w + 0 == w && w < 1e-12) }'; then ok
    else bad "$label: formula sensors of reactions off by $w (relative)"; fi
    echo "$label: $n rows, reaction sensors identical to the columns, formulas within $w"
done

# mb_sim_get_output (the C API, test_react_api --rows: the sensors after every step of the default
# run) equals the simulator's out.* columns digit for digit, every sensor, every row
if "$API" --rows "$tmp/api.csv" && "$SIM" --quiet --out "$tmp/default.csv" >/dev/null 2>&1; then
    read -r rn cols diff < <(awk -F, 'NR == FNR { if (FNR == 1) { for (i = 1; i <= NF; i++) ca[$i] = i; next }
            for (i = 1; i <= NF; i++) a[FNR, i] = $i; n = FNR; next }
        FNR == 1 { for (i = 1; i <= NF; i++) if ($i in ca) { cb[i] = ca[$i]; k++ }; next }
        { m = FNR; for (i in cb) if ($i != a[FNR, cb[i]]) bad++ }
        END { print (m == n ? n : -1), k + 0, bad + 0 }' "$tmp/api.csv" "$tmp/default.csv")
    if [ "$rn" -gt 100 ] && [ "$cols" -eq 13 ] && [ "$diff" -eq 0 ]; then ok
    else bad "mb_sim_get_output vs the out.* columns: $rn rows, $cols columns, $diff fields differ"; fi
    echo "mb_sim_get_output: $rn rows of t and 12 sensors, identical to the simulator's out.* columns"
else bad "test_react_api --rows or the default run failed"; fi

# the analyses write the same out.* columns: static (the multipliers of the equilibrium) and
# modal (its frames have no multipliers: the sensors of reactions are empty there)
if "$SIM" --analysis static --out "$tmp/static.csv" >"$tmp/static.log" 2>&1; then
    read -r n mism w < <(same "$tmp/static.csv")
    if [ "$n" -eq 1 ] && [ "$mism" -eq 0 ]; then ok
    else bad "static: $mism mismatches in $n rows: a reaction sensor differs from its reaction column"; fi
    echo "static: the reaction sensors equal their columns ($n row, formulas within $w)"
else bad "static analysis failed: $(tail -2 "$tmp/static.log")"; fi

# the closed form of the driven arm (the default run)
read -r ex ey ee < <(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    function ab(x) { return x < 0 ? -x : x }
    { m = 2; a = 0.3; w = 3; g = 9.81; th = w * $1
      d = ab($c["out.Jfx"] + m * w * w * a * cos(th)); if (d > e1) e1 = d
      d = ab($c["out.Jfy"] + m * w * w * a * sin(th) - m * g); if (d > e2) e2 = d
      d = ab($c["out.Deffort"] - m * g * a * cos(th)); if (d > e3) e3 = d }
    END { printf "%.3e %.3e %.3e\n", e1, e2, e3 }' "$tmp/trapezoid.csv")
for e in "$ex" "$ey" "$ee"; do
    if awk -v e="$e" 'BEGIN { exit !(e + 0 == e && e < 1e-9) }'; then ok
    else bad "driven arm: a reaction sensor off its closed form by $e"; fi
done
echo "driven arm against the closed form: J.fx $ex N, J.fy $ey N, D.effort $ee N m"

# the hanging bar (tests/models/react_pendulum.lua, m = 2 kg, L = 1 m): at rest the pin holds
# (0, m g) in every row; linearized about it, C and D of the pin's force against the closed form
# fx = -(3/4) m g delta + u / 2 (z = bar.phi), fy without first-order terms (to 1e-12 N);
# the descriptor form reads lambda directly (Cf = [0 0 I]) with Df the direct dy/du (0)
if "$PEN" --out "$tmp/pen.csv" >/dev/null 2>&1; then ok; else bad "$PEN: the run failed"; fi
e=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    function ab(x) { return x < 0 ? -x : x }
    { d = ab($c["out.fx"]); if (d > w) w = d; d = ab($c["out.fy"] - 2 * 9.81); if (d > w) w = d; n++ }
    END { printf "%.3e %d\n", w + 0, n }' "$tmp/pen.csv")
if awk -v e="${e% *}" -v n="${e#* }" 'BEGIN { exit !(e + 0 == e && e < 1e-10 && n > 100) }'; then ok
else bad "bar at rest: the pin's force off (0, m g) by $e (max N, rows)"; fi
echo "bar at rest: pin force within ${e% *} N of (0, m g)"
if "$PEN" --analysis linearize --out "$tmp/lin.csv" >"$tmp/lin.out" 2>&1 && grep -q "z=bar.phi" "$tmp/lin.out"; then ok
else bad "linearize: $(cat "$tmp/lin.out")"; fi
lin() { awk -F, -v b="$1" -v r="$2" -v col="$3" '$1 == "block" { for (i = 3; i <= NF; i++) c[$i] = i; next }
    $1 == b && $2 == r { print $c[col]; exit }' "$tmp/lin.csv"; }
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a + 0 == a && d <= t) }'; }
chk() {   # label value expected tolerance
    if near "$2" "$3" "$4"; then ok; else bad "linearize: $1 = $2, expected $3 (within $4)"; fi
}
chk "C[fx][bar.phi]" "$(lin C fx bar.phi)" -14.715 1e-10
chk "C[fx][d(bar.phi)]" "$(lin C fx 'd(bar.phi)')" 0 1e-12
chk "D[fx][u]" "$(lin D fx u)" 0.5 1e-12
chk "C[fy][bar.phi]" "$(lin C fy bar.phi)" 0 1e-12
chk "D[fy][u]" "$(lin D fy u)" 0 1e-12
chk "Cf[fx][lambda(J.x)]" "$(lin Cf fx 'lambda(J.x)')" 1 0
chk "Cf[fy][lambda(J.y)]" "$(lin Cf fy 'lambda(J.y)')" 1 0
chk "Df[fx][u]" "$(lin Df fx u)" 0 0
echo "linearized: C[fx] $(lin C fx bar.phi) N/rad (-3/4 m g = -14.715), D[fx] $(lin D fx u) (0.5)"

# a reaction of an equation mbgen --redundant removes: refused, named, nothing written
{ cat tests/models/parallelogram_redundant.lua; echo 'sensor "y" { value = reaction("F").fy }'; } >"$tmp/red.lua"
if "$BUILD/mbgen" --redundant remove "$tmp/red.lua" -o "$tmp/red" >"$tmp/red.out" 2>&1; then
    bad "mbgen --redundant remove accepted a reaction of a removed equation"
elif grep -q "red.lua:[0-9]*: error: sensor \"y\": reaction(\"F\").fy: its equation F.y was removed as redundant" "$tmp/red.out" &&
     [ ! -e "$tmp/red" ]; then ok
else bad "a reaction of a removed equation: $(tail -1 "$tmp/red.out")"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
