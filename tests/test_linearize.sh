#!/usr/bin/env bash
# test_linearize.sh - the simulators' --analysis linearize (docs/analyses.md, "Linearization"):
# the output files and their shapes, the coordinate choice printed, NumPy reading the text files
# (skipped with a message without python3-numpy), and hostile input: --about t=abc, t=-1, --about
# t= with modal, a model without inputs (B, D with 0 columns: a note), a singular position (the
# constraint named), no equilibrium (exit 1, no files); the cart-pole about its static
# equilibrium (a neutral direction) against the closed form; the motor arm about the equilibrium
# at an input set with --set V=0.5 against the closed form.
set -u
cd "$(dirname "$0")/.."
B=build
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

# the double pendulum at its equilibrium: A's stiffness block as in test_linearize.c
out=$($B/double_pendulum_sim --analysis linearize --out "$T/dp.csv" 2>"$T/err"); rc=$?
[ $rc -eq 0 ] && ok || bad "double pendulum: exit $rc"
case "$out" in *"z=AB.phi,BC.phi dependent=AB.x,AB.y,BC.x,BC.y"*"point=equilibrium"*|*"point=equilibrium"*"z=AB.phi,BC.phi dependent=AB.x,AB.y,BC.x,BC.y"*) ok ;; *) bad "double pendulum summary: $out" ;; esac
grep -q "no inputs: B and D have 0 columns" "$T/err" && ok || bad "no note on the missing inputs"
for f in A B C D Ef Af Bf Cf; do [ -f "$T/dp_$f.txt" ] && ok || bad "no dp_$f.txt"; done
a31=$(awk -F, '$1=="A" && $2=="d(AB.phi)" {print $3}' "$T/dp.csv")
awk -v x="$a31" 'BEGIN { w = -(1.6 + 10 * 0.5625) * 13 * 9.81 / ((1 + 1.5 + 10) * (1.6 + 5.625) - 56.25);
                         exit !(x != "" && (x - w) / w < 1e-12 && (w - x) / w < 1e-12) }' && ok || bad "A[d(AB.phi)][AB.phi] = $a31"
# the descriptor block: 2 n + nc = 16 rows
[ "$(grep -c '^Af,' "$T/dp.csv")" = 16 ] && ok || bad "Af rows"

# the cart-pole from its initial state (not an equilibrium: a trajectory point), with inputs and sensors
out=$($B/cartpole_sim --analysis linearize --about initial --out "$T/cp.csv" 2>"$T/err"); rc=$?
[ $rc -eq 0 ] && ok || bad "cartpole: exit $rc"
case "$out" in *"point=trajectory"*"z=cart.x,pole.phi"*) ok ;; *) bad "cartpole summary: $out" ;; esac
grep -q "point of a trajectory" "$T/err" && ok || bad "no trajectory note"
[ "$(grep -c '^B,' "$T/cp.csv")" = 4 ] && [ "$(grep -c '^C,' "$T/cp.csv")" = 4 ] && ok || bad "cartpole B, C rows"
out=$($B/cartpole_sim --analysis linearize --about t=0.3 --out "$T/cp3.csv" 2>/dev/null); rc=$?
[ $rc -eq 0 ] && case "$out" in *"t=0.3 "*) true ;; *) false ;; esac && ok || bad "--about t=0.3: $rc $out"

# the cart-pole about its static equilibrium: the cart free on its rail (a neutral direction, no
# spring), the pole hanging. The solver converges on the pole's angle where the energy cannot
# resolve it (a height change below the positions' ulp) but the load can (Newton in the stiff
# direction); A against the closed form of the hanging pole on a free cart (M = 1, m = 0.1,
# l = 0.5, J = m (2 l)^2 / 12): d(x)' = m^2 l^2 g / D x_phi, d(phi)' = -m l g (M + m) / D
# phi, D = (M + m) (m l^2 + J) - m^2 l^2, to 1e-10
out=$($B/cartpole_sim --analysis linearize --about static --out "$T/cps.csv" 2>"$T/err"); rc=$?
[ $rc -eq 0 ] && case "$out" in *"point=equilibrium"*) true ;; *) false ;; esac && ok || bad "cartpole about static: exit $rc $out $(cat "$T/err")"
read -r axp app < <(awk -F, '$1=="A" && $2=="d(cart.x)" {x = $4} $1=="A" && $2=="d(pole.phi)" {p = $4} END {print x, p}' "$T/cps.csv")
awk -v x="$axp" -v p="$app" 'BEGIN { M = 1; m = 0.1; l = 0.5; g = 9.81; J = m * 4 * l * l / 12
    D = (M + m) * (m * l * l + J) - m * m * l * l; wx = m * m * l * l * g / D; wp = -m * l * g * (M + m) / D
    ex = (x - wx) / wx; ep = (p - wp) / wp; if (ex < 0) ex = -ex; if (ep < 0) ep = -ep
    exit !(x != "" && p != "" && ex < 1e-10 && ep < 1e-10) }' && ok || bad "cartpole about static: A[d(cart.x)][pole.phi] = $axp, A[d(pole.phi)][pole.phi] = $app"
out=$($B/cartpole_sim --analysis static --out "$T/cpst.csv" 2>&1); rc=$?
[ $rc -eq 0 ] && case "$out" in *"stability=neutral"*) true ;; *) false ;; esac && ok || bad "cartpole static: exit $rc $out"

# --set of an input: the operating point of the motor arm (models/motor_arm.lua) held at V = 0.5 V
# instead of its default 6 V (no equilibrium there): the motor's torque gear kt V / R = V N m
# against gravity m g (L/2) sin phi, so sin phi = V / 0.981 at the static point, and A's
# stiffness -m g (L/2) cos phi / J_A (J_A = m L^2 / 3) there; B = gear kt / R / J_A whatever V
out=$($B/motor_arm_sim --analysis linearize --set V=0.5 --out "$T/ma.csv" 2>"$T/err"); rc=$?
[ $rc -eq 0 ] && case "$out" in *"point=equilibrium"*) true ;; *) false ;; esac && ok || bad "motor_arm --set V=0.5 linearize: exit $rc $out $(cat "$T/err")"
read -r app bv < <(awk -F, '$1=="A" && $2=="d(arm.phi)" {a = $3} $1=="B" && $2=="d(arm.phi)" {b = $3} END {print a, b}' "$T/ma.csv")
awk -v a="$app" -v b="$bv" 'BEGIN { m = 0.5; L = 0.4; g = 9.81; V = 0.5; J = m * L * L / 3; s = V / (m * g * L / 2)
    wa = -m * g * L / 2 * sqrt(1 - s * s) / J; wb = 1 / J
    ea = (a - wa) / wa; eb = (b - wb) / wb; if (ea < 0) ea = -ea; if (eb < 0) eb = -eb
    exit !(a != "" && b != "" && ea < 1e-10 && eb < 1e-10) }' && ok || bad "motor_arm about V = 0.5: A[d(arm.phi)][arm.phi] = $app, B[d(arm.phi)] = $bv"
# (V = 0 hangs the arm straight: another stiffness, so the comparison above sees V)
$B/motor_arm_sim --analysis linearize --set V=0 --out "$T/ma0.csv" >/dev/null 2>&1
a0=$(awk -F, '$1=="A" && $2=="d(arm.phi)" {print $3}' "$T/ma0.csv")
awk -v a="$a0" -v b="$app" 'BEGIN { exit !(a != "" && b != "" && (a - b) * (a - b) > 1) }' && ok || bad "motor_arm V = 0 vs 0.5: $a0 $app"
# the static analysis: the angle sensor at asin(V / 0.981), the in.V column the value set
$B/motor_arm_sim --analysis static --set V=0.5 --out "$T/mast.csv" >/dev/null 2>&1
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
         { s = 0.5 / 0.981; w = atan2(s, sqrt(1 - s * s)); e = $c["out.angle"] - w; if (e < 0) e = -e
           exit !($c["in.V"] == 0.5 && e < 1e-12) }' "$T/mast.csv" && ok || bad "motor_arm static --set V=0.5: $(tail -1 "$T/mast.csv")"

if python3 -c 'import numpy' 2>/dev/null; then
    python3 - "$T" <<'PY' && ok || bad "numpy cannot read the text files"
import sys, numpy as np
t = sys.argv[1]
A = np.loadtxt(t + "/dp_A.txt", ndmin=2); Af = np.loadtxt(t + "/dp_Af.txt", ndmin=2)
B = np.loadtxt(t + "/cp_B.txt", ndmin=2); C = np.loadtxt(t + "/cp_C.txt", ndmin=2)
assert A.shape == (4, 4) and Af.shape == (16, 16) and B.shape == (4, 1) and C.shape == (4, 4), (A.shape, Af.shape, B.shape, C.shape)
w2 = sorted(-np.linalg.eigvals(A[2:, :2]).real)
assert abs(w2[0] - 5.69689404195) < 1e-9 and abs(w2[1] - 48.353505958) < 1e-7, w2
PY
else
    echo "note: python3-numpy not installed: the NumPy reading test is skipped"
fi

# hostile input
for about in t=abc t=-1 t= sideways; do
    $B/double_pendulum_sim --analysis linearize --about "$about" --out "$T/h.csv" >/dev/null 2>"$T/err"; rc=$?
    [ $rc -eq 2 ] && grep -q "invalid value '$about' for --about" "$T/err" && [ ! -e "$T/h.csv" ] && ok || bad "--about $about: exit $rc $(cat "$T/err")"
done
$B/double_pendulum_sim --analysis modal --about t=1 >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "applies to --analysis linearize" "$T/err" && ok || bad "modal --about t=1: exit $rc"
$B/fourbar_singular_sim --analysis linearize --about t=0.5 --out "$T/s.csv" >/dev/null 2>"$T/err"; rc=$?
# exit 1 and no files: the constraint named, or (the simulation to t=0.5 reaches the singular
# position first) the simulation's rank loss; the start exactly on it is test_linearize.c's case
[ $rc -eq 1 ] && grep -q "singular" "$T/err" && [ ! -e "$T/s.csv" ] && ok || bad "fourbar_singular: exit $rc $(cat "$T/err")"
$B/anl_falling_sim --analysis linearize --out "$T/f.csv" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "no equilibrium" "$T/err" && [ ! -e "$T/f.csv" ] && [ ! -e "$T/f_A.txt" ] && ok || bad "anl_falling: exit $rc $(cat "$T/err")"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
