#!/usr/bin/env bash
# test_analyses.sh - the simulators' analyses and the velocity, acceleration and reaction columns
# of their CSVs against closed forms (docs/analyses.md):
#  - a swinging bar pendulum, every formulation: the pin's force along and across the bar against
#    m g cos + m d w^2 and m d alpha + m g sin at the CSV's (theta, w), and with w from the energy;
#  - Newton's law for every body of the double pendulum and the slider-crank, from the CSV alone:
#    reactions + weights = m a, moments about the CoM = J alpha (a from the CSV's columns, and
#    from central differences of its velocities);
#  - kinematic and inverse: the sensors' out.* columns (positions, velocities, reactions);
#  - static: the hanging pendulum and the slider-crank's reactions by hand, stability; the
#    bouncing ball resting on its contact (neutral directions with the load balanced);
#  - kinematic and inverse: the driven slider-crank's piston against its closed form, the driver's
#    effort against the power balance (energy_dev of the inverse run);
#  - modal: the bar pendulum, the double pendulum (2 x 2 closed form), the PRADIS oscillator and a
#    damped oscillator, frequency and damping ratio to 1e-6;
#  - modal: a near-simple pendulum (anl_inverted) about its hanging equilibrium, and about its
#    upright start (--about initial: an unstable state, reported with its growing root); mode
#    shapes in the CSV: the double pendulum's amplitude ratio against the 2 x 2 closed form, the
#    animation tool reads the CSV;
#  - frequency: the PRADIS oscillator and the damped oscillator against their transfer functions,
#    a force at the pendulum's tip against L^2 / (J_O (w0^2 - w^2));
#  - quasistatic: the torqued pendulum against the hand equilibrium at 13 load levels;
#  - --analysis dynamic is the default;
#  - bad input: kinematic with a free degree of freedom, static without an equilibrium, an
#    unknown analysis, frequency without a harmonic input or with an unknown one (refused before
#    any solve, the names listed), an empty frequency range (a bound beyond the other's default:
#    exit 2 naming both, before the sweep), analysis
#    options with the wrong analysis: a clear message, non-zero exit, no CSV.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
# lt A B: A < B for numbers in any notation
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 < b + 0) }'; }
# the summary value of key K in file F
kv() { tr ' ' '\n' <"$2" | sed -n "s/^$1=//p" | head -1; }
# awk prelude: columns by name (c["name"]), abs()
PRE='BEGIN { FS = "," } function abs(x) { return x < 0 ? -x : x }
     NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }'

# ---------------------------------------------------------------- the pendulum's pin force
PEND=$BUILD/anl_pendulum_sim
for f in baumgarte canonical alf-explicit alf-trapezoid; do
    $PEND --formulation $f --t-end 2 --every 5 --out "$T/p_$f.csv" --quiet >"$T/o" 2>"$T/e"
    ok "pendulum $f runs" '[ $? -eq 0 ]'
    # at the CSV's state: exact up to round-off; with w^2 from the energy (theta0 = 1 rad,
    # J_O = m L^2 / 3): the integration error too
    read -r e1 e2 < <(awk "$PRE"'
        { M = 2.0; L = 0.8; d = L / 2; J = M * L * L / 12; g = 9.81; JO = J + M * d * d
          th = $c["bar.phi"] + 3.14159265358979323846 / 2; w = $c["bar.omega"]; s = sin(th); co = cos(th)
          fx = $c["pin.fx"]; fy = $c["pin.fy"]; along = -fx * s + fy * co; across = fx * co + fy * s
          al = -M * g * d * s / JO
          e = abs(along - (M * g * co + M * d * w * w)); if (abs(across - (M * d * al + M * g * s)) > e) e = abs(across - (M * d * al + M * g * s))
          if (e > e1) e1 = e
          w2 = 2 * M * g * d * (co - cos(1.0)) / JO
          e = abs(along - (M * g * co + M * d * w2)); if (e > e2) e2 = e }
        END { printf "%.3e %.3e\n", e1 / (M * g), e2 / (M * g) }' "$T/p_$f.csv")
    echo "pendulum $f: pin force against the closed form at the state: $e1 of m g; with w from the energy: $e2"
    ok "pendulum $f: pin force at the CSV state within 1e-9 m g (got $e1)" 'lt "$e1" 1e-9'
    ok "pendulum $f: pin force with w from the energy within 1e-4 m g (got $e2)" 'lt "$e2" 1e-4'
done

# ---------------------------------------------------------------- Newton's law per body
# double pendulum: joints A {ground.A, AB.A}, B {AB.B, BC.B}; a joint's force is on its second body
$BUILD/double_pendulum_sim --t-end 1 --h 1e-4 --out "$T/dp.csv" --quiet >"$T/o" 2>"$T/e"
ok "double pendulum runs" '[ $? -eq 0 ]'
DPAWK='function cr(ax, ay, fx, fy) { return ax * fy - ay * fx }
  { g = 9.81; m1 = 6; J1 = 1.0; m2 = 10; J2 = 1.6
    Ax = $c["A.fx"]; Ay = $c["A.fy"]; Bx = $c["B.fx"]; By = $c["B.fy"]
    r[1] = m1 * ACC("AB", "x") - Ax + Bx
    r[2] = m1 * ACC("AB", "y") + m1 * g - Ay + By
    r[3] = J1 * ACC("AB", "phi") - cr($c["AB.A.x"] - $c["AB.x"], $c["AB.A.y"] - $c["AB.y"], Ax, Ay) \
           + cr($c["AB.B.x"] - $c["AB.x"], $c["AB.B.y"] - $c["AB.y"], Bx, By)
    r[4] = m2 * ACC("BC", "x") - Bx
    r[5] = m2 * ACC("BC", "y") + m2 * g - By
    r[6] = J2 * ACC("BC", "phi") - cr($c["BC.B.x"] - $c["BC.x"], $c["BC.B.y"] - $c["BC.y"], Bx, By)
    for (i = 1; i <= 6; i++) if (OK && abs(r[i]) > e) e = abs(r[i]) }'
# accelerations from the CSV columns; then from central differences of its velocities
ACOL='function ACC(b, k) { return $c[b "." (k == "x" ? "ax" : k == "y" ? "ay" : "alpha")] }'
e=$(awk "$PRE $ACOL"' { OK = 1 } '"$DPAWK"' END { printf "%.3e\n", e / (16 * 9.81) }' "$T/dp.csv")
ok "double pendulum: every body balances with the CSV accelerations (1e-9 of the weight, got $e)" 'lt "$e" 1e-9'
echo "double pendulum: Newton's law from the CSV with its accelerations: $e of the weight"
# central differences: the balance at row k with a = (v[k+1] - v[k-1]) / (t[k+1] - t[k-1]); their
# error h^2 v''' / 6 is 1.4e-4 of the weight at h = 1e-4 (1e-2 at 1e-3: the whip near t = 0.92 s)
e=$(awk "$PRE"'
  function ACC(b, k) { n = c[b "." (k == "x" ? "vx" : k == "y" ? "vy" : "omega")]; return (CUR[n] - P2[n]) / (CUR[1] - P2[1]) }
  { for (i = 1; i <= NF; i++) CUR[i] = $i; OK = 0
    if (NR >= 4) { for (i = 1; i <= NF; i++) $i = P1[i]; OK = 1 } }
  '"$DPAWK"'
  { for (i = 1; i <= NF; i++) { P2[i] = P1[i]; P1[i] = CUR[i] } }
  END { printf "%.3e\n", e / (16 * 9.81) }' "$T/dp.csv")
ok "double pendulum: every body balances with accelerations from the CSV velocities (1e-3 of the weight, got $e)" 'lt "$e" 1e-3'
echo "double pendulum: Newton's law from the CSV, finite-difference accelerations: $e of the weight"

# slider-crank: O {ground.O, crank.O}, A {crank.A, rod.A}, B {rod.B, piston.B}, slide {ground.S,
# piston.B} along X (normal n = (0, 1)), gravity
$BUILD/slider_crank_sim --t-end 0.5 --h 1e-4 --every 10 --out "$T/sc.csv" --quiet >"$T/o" 2>"$T/e"
ok "slider-crank runs" '[ $? -eq 0 ]'
e=$(awk "$PRE $ACOL"'
  function cr(ax, ay, fx, fy) { return ax * fy - ay * fx }
  function arm(b, p, k) { return $c[b "." p "." k] - $c[b "." k] }
  { g = 9.81; mc = 0.5; Jc = 0.5 * 0.01 / 12; mr = 1.0; Jr = 0.09 / 12; mp = 2.0; Jp = 1e-3
    Ox = $c["O.fx"]; Oy = $c["O.fy"]; Ax = $c["A.fx"]; Ay = $c["A.fy"]; Bx = $c["B.fx"]; By = $c["B.fy"]
    fn = $c["slide.fn"]; sm = $c["slide.moment"]
    r[1] = mc * ACC("crank", "x") - Ox + Ax
    r[2] = mc * ACC("crank", "y") + mc * g - Oy + Ay
    r[3] = Jc * ACC("crank", "phi") - cr(arm("crank", "O", "x"), arm("crank", "O", "y"), Ox, Oy) + cr(arm("crank", "A", "x"), arm("crank", "A", "y"), Ax, Ay)
    r[4] = mr * ACC("rod", "x") - Ax + Bx
    r[5] = mr * ACC("rod", "y") + mr * g - Ay + By
    r[6] = Jr * ACC("rod", "phi") - cr(arm("rod", "A", "x"), arm("rod", "A", "y"), Ax, Ay) + cr(arm("rod", "B", "x"), arm("rod", "B", "y"), Bx, By)
    r[7] = mp * ACC("piston", "x") - Bx
    r[8] = mp * ACC("piston", "y") + mp * g - By - fn
    r[9] = Jp * ACC("piston", "phi") - cr(arm("piston", "B", "x"), arm("piston", "B", "y"), Bx, By + fn) - sm
    for (i = 1; i <= 9; i++) if (abs(r[i]) > e) e = abs(r[i]) }
  END { printf "%.3e\n", e / (3.5 * 9.81) }' "$T/sc.csv")
ok "slider-crank: every body balances with the CSV's reactions and accelerations (1e-9 of the weight, got $e)" 'lt "$e" 1e-9'
echo "slider-crank: Newton's law from the CSV: $e of the weight"

# ---------------------------------------------------------------- static
$PEND --analysis static --out "$T/ps.csv" >"$T/o" 2>"$T/e"
ok "pendulum static exits 0" '[ $? -eq 0 ]'
ok "pendulum static: stable, one CSV row" 'grep -q "stability=stable" "$T/o" && [ $(wc -l <"$T/ps.csv") -eq 2 ]'
e=$(awk "$PRE"' { print abs($c["pin.fx"]) + abs($c["pin.fy"] - 2 * 9.81) + abs($c["bar.phi"] + 1.5707963267948966) }' "$T/ps.csv")
ok "pendulum static: hangs, pin carries m g (error $e)" 'lt "$e" 1e-9'
eig=$(kv eig_min "$T/o")
ok "pendulum static: reduced stiffness 3 g / (2 L) = 18.39375 (got $eig)" 'lt "$(awk -v e="$eig" "BEGIN { print (e - 18.39375) / 18.39375 }" | tr -d -)" 1e-9'
$BUILD/slider_crank_sim --analysis static --out "$T/ss.csv" >"$T/o" 2>"$T/e"
ok "slider-crank static exits 0, stable" '[ $? -eq 0 ] && grep -q "stability=stable" "$T/o"'
e=$(awk "$PRE"' { g = 9.81
    e = abs($c["crank.phi"] + 1.5707963267948966) + abs($c["O.fx"]) + abs($c["O.fy"] - 1.0 * g) + abs($c["A.fy"] - 0.5 * g)
    e += abs($c["B.fx"]) + abs($c["B.fy"] + 0.5 * g) + abs($c["slide.fn"] - 2.5 * g) + abs($c["slide.moment"])
    print e }' "$T/ss.csv")
ok "slider-crank static: crank down, O (m_c + m_r/2) g, A m_r g/2, B -m_r g/2, slide (m_p + m_r/2) g (error $e)" 'lt "$e" 1e-9'
$BUILD/double_pendulum_sim --analysis static --out "$T/ds.csv" >"$T/o" 2>"$T/e"
e=$(awk "$PRE"' { print abs($c["A.fy"] - 16 * 9.81) + abs($c["B.fy"] - 10 * 9.81) + abs($c["A.fx"]) + abs($c["B.fx"]) }' "$T/ds.csv")
ok "double pendulum static from the shipped guesses: hangs, A 16 g, B 10 g (error $e)" 'lt "$e" 1e-9'
# a neutral direction (x and the spin free) with the load balanced: the ball rests on its contact,
# pressed d = (m g / k)^(1 / 1.5) into it (m = 1, k = 1e6, r = 0.1)
$BUILD/bouncing_ball_sim --analysis static --out "$T/bs.csv" >"$T/o" 2>"$T/e"; rc=$?
e=$(awk "$PRE"' { d = exp(log(9.81 / 1e6) / 1.5); print abs($c["ball.y"] - (0.1 - d)) / d }' "$T/bs.csv" 2>/dev/null)
ok "bouncing ball static: exit 0, neutral, resting (m g / k)^(2/3) into the floor (rc $rc, relative error $e)" \
   '[ $rc -eq 0 ] && grep -q "stability=neutral" "$T/o" && lt "${e:-1}" 1e-9'

# ---------------------------------------------------------------- kinematic and inverse
SD=$BUILD/anl_slider_driven_sim
$SD --analysis kinematic --t-end 0.3 --h 1e-3 --every 10 --out "$T/k.csv" >"$T/o" 2>"$T/e"
ok "kinematic exits 0 with 31 rows" '[ $? -eq 0 ] && [ $(wc -l <"$T/k.csv") -eq 32 ]'
e=$(awk "$PRE"' { r = 0.1; l = 0.3; w = 20; t = $1; th = 3.14159265358979323846 / 6 + w * t; s = sin(th); co = cos(th)
    rt = sqrt(l * l - r * r * s * s); x = r * co + rt; xd = -r * s * w - r * r * s * co * w / rt
    num = r * r * s * co; dnum = r * r * (co * co - s * s) * w; dden = -r * r * s * co * w / rt
    xdd = -r * co * w * w - w * (dnum * rt - num * dden) / (rt * rt)
    e1 = abs($c["piston.x"] - x); e2 = abs($c["piston.vx"] - xd) / 3; e3 = abs($c["piston.ax"] - xdd) / 60
    if (e1 > e) e = e1; if (e2 > e) e = e2; if (e3 > e) e = e3 } END { printf "%.3e\n", e }' "$T/k.csv")
ok "kinematic: piston x, v, a against the closed form (relative 1e-9, got $e)" 'lt "$e" 1e-9'
echo "kinematic: piston against the closed form: $e"
$SD --analysis inverse --t-end 0.3 --h 1e-4 --every 100 --out "$T/i.csv" >"$T/o" 2>"$T/e"
ok "inverse exits 0" '[ $? -eq 0 ] && grep -q "^status=ok" "$T/o"'
dev=$(kv max_energy_dev "$T/o"); eff=$(kv max_effort "$T/o")
# the energy balance T + V - E0 - int(effort w) dt by the trapezoidal rule: O(h^2), 6.7e-4 J at
# h = 1e-3, 6.7e-6 J at 1e-4
ok "inverse: energy balance with the driver's work (max |dev| $dev J < 2e-5 J, effort up to $eff N m)" 'lt "$dev" 2e-5'
ok "inverse: CSV has drive.effort" 'head -1 "$T/i.csv" | grep -q ",drive.effort"'
# the sensors' out.* columns (tests/models/anl_slider_driven.lua): the piston's position and
# velocity as its columns (1e-12), the driver's torque and a pin's force digit for digit as the
# reaction columns (the same multipliers), in every row of both analyses
for f in k i; do
    r=$(awk "$PRE"' NR > 1 { n++
        if (!("out.xp" in c) || !("out.torque" in c)) { print "missing"; exit }
        d = abs($c["out.xp"] - $c["piston.B.x"]); if (d > e) e = d
        d = abs($c["out.vp"] - $c["piston.vx"]); if (d > e) e = d
        if ($c["out.torque"] != $c["drive.effort"] || $c["out.Ofy"] != $c["O.fy"] || $c["out.torque"] == "") bad++ }
        END { printf "%d %d %.3e\n", n, bad, e }' "$T/$f.csv")
    read -r rn rb re <<<"$r"
    ok "$f: out.* sensor columns: $rn rows, $rb reaction sensors off their columns, position/velocity within $re" \
       '[ "${rn:-0}" -gt 2 ] && [ "$rb" = 0 ] && lt "$re" 1e-12'
done

# ---------------------------------------------------------------- modal
# rel F G: |F - G| / |G|
rel() { awk -v a="$1" -v b="$2" 'BEGIN { d = (a - b) / b; printf "%.3e\n", d < 0 ? -d : d }'; }
modes() { sed -n "s/^mode=$2 freq_hz=\([^ ]*\) damping_ratio=\([^ ]*\)$/\1 \2/p" "$1"; }
$PEND --analysis modal >"$T/o" 2>"$T/e"
read -r f z < <(modes "$T/o" 1)
r=$(rel "$f" "$(awk 'BEGIN { print sqrt(3 * 9.81 / (2 * 0.8)) / (2 * 3.14159265358979323846) }')")
ok "modal: bar pendulum sqrt(3 g / 2 L) / 2 pi (rel. error $r), undamped" 'lt "$r" 1e-6 && [ "$z" = 0 ]'
$BUILD/double_pendulum_sim --analysis modal >"$T/o" 2>"$T/e"
read -r f1 z1 < <(modes "$T/o" 1); read -r f2 z2 < <(modes "$T/o" 2)
read -r c1 c2 < <(awk 'BEGIN { g = 9.81; m1 = 6; J1 = 1; L1 = 1; m2 = 10; J2 = 1.6; L2 = 1.5
    M11 = J1 + m1 * L1 * L1 / 4 + m2 * L1 * L1; M12 = m2 * L1 * L2 / 2; M22 = J2 + m2 * L2 * L2 / 4
    K11 = (m1 * L1 / 2 + m2 * L1) * g; K22 = m2 * g * L2 / 2
    A = M11 * M22 - M12 * M12; B = -(K11 * M22 + K22 * M11); C = K11 * K22; D = sqrt(B * B - 4 * A * C)
    pi2 = 2 * 3.14159265358979323846; printf "%.15g %.15g\n", sqrt((-B - D) / (2 * A)) / pi2, sqrt((-B + D) / (2 * A)) / pi2 }')
r1=$(rel "$f1" "$c1"); r2=$(rel "$f2" "$c2")
ok "modal: double pendulum about the hanging position, 2 x 2 closed form (rel. errors $r1 $r2)" 'lt "$r1" 1e-6 && lt "$r2" 1e-6'
echo "modal double pendulum: relative errors $r1 $r2"
echo "modal double pendulum: $f1 $f2 Hz, closed form $c1 $c2 Hz"
$BUILD/oscillator_1dof_sim --analysis modal >"$T/o" 2>"$T/e"
read -r f z < <(modes "$T/o" 1)
r=$(rel "$f" "$(awk 'BEGIN { print sqrt(20000 / 0.1) / (2 * 3.14159265358979323846) }')")
ok "modal: PRADIS oscillator sqrt(k/m) / 2 pi (rel. error $r; the quadratic damper has no linear part: zeta 0)" 'lt "$r" 1e-6 && [ "$z" = 0 ]'
$BUILD/anl_damped_sim --analysis modal >"$T/o" 2>"$T/e"
read -r f z < <(modes "$T/o" 1)
r=$(rel "$f" "$(awk 'BEGIN { print 20 / (2 * 3.14159265358979323846) }')"); rz=$(rel "$z" 0.1)
ok "modal: damped oscillator f_n = 20 / 2 pi, zeta = 0.1 (rel. errors $r $rz)" 'lt "$r" 1e-6 && lt "$rz" 1e-6'

# a (nearly) simple pendulum: m 1, J 1e-4, L 0.5: w^2 = m g L / (J + m L^2); from its upright
# start the static analysis escapes to the hanging equilibrium
INV=$BUILD/anl_inverted_sim
wsp=$(awk 'BEGIN { printf "%.15g\n", sqrt(9.81 * 0.5 / (1e-4 + 0.25)) / (2 * 3.14159265358979323846) }')
$INV --analysis modal >"$T/o" 2>"$T/e"
read -r f z < <(modes "$T/o" 1)
r=$(rel "$f" "$wsp")
ok "modal: simple pendulum about the hanging equilibrium sqrt(m g L / (J + m L^2)) / 2 pi (rel. error $r)" 'lt "$r" 1e-6 && [ "$z" = 0 ] && grep -q "stability=stable" "$T/o"'
echo "modal simple pendulum: $f Hz, closed form $wsp Hz (rel. $r)"
# about the upright start: unstable, reported (exit 0, a warning, the growing root s = w)
$INV --analysis modal --about initial --out "$T/inv.csv" >"$T/o" 2>"$T/e"; rc=$?
read -r f1 z1 < <(modes "$T/o" 1); read -r f2 z2 < <(modes "$T/o" 2)
r=$(rel "$f2" "$wsp")
ok "modal about an unstable state: exit 0, stability=unstable, growing=1, a warning (rc $rc)" \
   '[ $rc -eq 0 ] && grep -q "stability=unstable" "$T/o" && grep -q "growing=1" "$T/o" && grep -q "warning: modal analysis about an unstable state: 1 mode grows" "$T/e"'
ok "modal about an unstable state: roots -s (z 1) and +s (z -1), s = w (rel. error $r)" \
   '[ "$z1" = 1 ] && [ "$z2" = -1 ] && lt "$r" 1e-6 && lt "$(rel "$f1" "$wsp")" 1e-6'
ok "modal about an unstable state: its mode shapes written (2 modes x 48 frames)" '[ $(wc -l <"$T/inv.csv") -eq 97 ]'

# mode shapes of the double pendulum: 48 frames per mode; the velocity columns hold the linear
# shape (v = s Re(lambda x e^(i theta)): at phase 1/4 proportional to x): BC.omega / AB.omega
# against the 2 x 2 closed form (K11 - w^2 M11) / (w^2 M12); the phase-0 frame's largest excursion
# is the documented 0.2 rad
$BUILD/double_pendulum_sim --analysis modal --out "$T/dm.csv" >"$T/o" 2>"$T/e"
ok "modal CSV: 2 modes x 48 frames, columns mode, freq_hz, damping_ratio, phase" \
   '[ $(wc -l <"$T/dm.csv") -eq 97 ] && head -1 "$T/dm.csv" | grep -q ",mode,freq_hz,damping_ratio,phase$"'
read -r e1 e2 < <(awk "$PRE"' $c["phase"] == 0.25 { g = 9.81; m1 = 6; J1 = 1; L1 = 1; m2 = 10; J2 = 1.6; L2 = 1.5
    M11 = J1 + m1 * L1 * L1 / 4 + m2 * L1 * L1; M12 = m2 * L1 * L2 / 2; K11 = (m1 * L1 / 2 + m2 * L1) * g
    w2 = (2 * 3.14159265358979323846 * $c["freq_hz"]) ^ 2; rc = (K11 - w2 * M11) / (w2 * M12)
    e[$c["mode"]] = abs($c["BC.omega"] / $c["AB.omega"] - rc) / abs(rc) }
    END { printf "%.3e %.3e\n", e[1], e[2] }' "$T/dm.csv")
ok "modal shapes: double pendulum amplitude ratios against the closed form (rel. $e1, $e2)" 'lt "$e1" 1e-6 && lt "$e2" 1e-6'
echo "modal shapes double pendulum: amplitude ratio errors $e1 $e2"
# the hanging equilibrium (static CSV above); the length scale 0.75 m (BC's point B from its CoM)
e=$(awk "$PRE"' FNR == NR { if (FNR > 1) { x1 = $c["AB.x"]; y1 = $c["AB.y"]; x2 = $c["BC.x"]; y2 = $c["BC.y"] } ; next }
    FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["phase"] == 0 && $c["mode"] == 1 { p1 = abs($c["AB.phi"] + 1.5707963267948966) / 0.2; p2 = abs($c["BC.phi"] + 1.5707963267948966) / 0.2
    m = p1; if (p2 > m) m = p2
    d[1] = abs($c["AB.x"] - x1); d[2] = abs($c["AB.y"] - y1); d[3] = abs($c["BC.x"] - x2); d[4] = abs($c["BC.y"] - y2)
    for (i = 1; i <= 4; i++) if (d[i] / 0.075 > m) m = d[i] / 0.075
    print m }' "$T/ds.csv" "$T/dm.csv")
ok "modal shapes: mode 1 at phase 0 reaches its excursion limit (0.2 rad or 0.1 lengths; got $e of it)" 'lt "$(awk -v e="$e" "BEGIN { print (e - 1) * (e - 1) }")" 4e-4'
$BUILD/mb_anim --quiet --out "$T/dm.html" "$T/dm.csv" 2>"$T/e"
ok "the animation tool reads the mode-shape CSV" '[ $? -eq 0 ] && [ -s "$T/dm.html" ]'

# ---------------------------------------------------------------- frequency response
# the PRADIS oscillator: H = 1 / (k - m w^2) (no linear damping); the damped oscillator
# H = 1 / (k - m w^2 + i c w); relative to |H|, re, im, magnitude and phase
$BUILD/oscillator_1dof_sim --analysis frequency --input mass.x --out "$T/of.csv" >"$T/o" 2>"$T/e"
ok "frequency: oscillator exits 0, 200 rows" '[ $? -eq 0 ] && [ $(wc -l <"$T/of.csv") -eq 201 ] && head -1 "$T/of.csv" | grep -q "^freq_hz,omega,re,im,magnitude,phase_deg$"'
e=$(awk "$PRE"' { w = $c["omega"]; h = 1 / (20000 - 0.1 * w * w); m = abs(h)
    ee = (abs($c["re"] - h) + abs($c["im"]) + abs($c["magnitude"] - m)) / m
    ph = h > 0 ? 0 : -180; ee += abs($c["phase_deg"] - ph) / 180; if (ee > e) e = ee } END { printf "%.3e\n", e }' "$T/of.csv")
ok "frequency: oscillator FRF against 1 / (k - m w^2) (rel. $e)" 'lt "$e" 1e-6'
echo "frequency: oscillator FRF against the transfer function: $e"
$BUILD/anl_damped_sim --analysis frequency --input block.P.x --f-min 0.1 --f-max 100 --f-points 50 --out "$T/df.csv" >"$T/o" 2>"$T/e"
ok "frequency: damped oscillator exits 0, 50 rows from --f-min to --f-max" \
   '[ $? -eq 0 ] && [ $(wc -l <"$T/df.csv") -eq 51 ] && awk -F, "NR == 2 && \$1 != 0.1 { exit 1 } END { if (\$1 != 100) exit 1 }" "$T/df.csv"'
e=$(awk "$PRE"' { w = $c["omega"]; a = 800 - 2 * w * w; b = 8 * w; d = a * a + b * b; m = 1 / sqrt(d)
    ee = (abs($c["re"] - a / d) + abs($c["im"] + b / d) + abs($c["magnitude"] - m)) / m
    ee += abs($c["phase_deg"] - atan2(-b, a) * 180 / 3.14159265358979323846) / 180; if (ee > e) e = ee }
    END { printf "%.3e\n", e }' "$T/df.csv")
ok "frequency: damped oscillator FRF against 1 / (k - m w^2 + i c w), magnitude and phase (rel. $e)" 'lt "$e" 1e-6'
echo "frequency: damped oscillator FRF against the transfer function: $e"
$BUILD/anl_damped_sim --analysis frequency --input block.x --f-min 3 --f-max 3.3 --f-points 301 >"$T/o" 2>"$T/e"
pk=$(kv peak_freq_hz "$T/o"); r=$(rel "$pk" "$(awk 'BEGIN { print 20 * sqrt(1 - 2 * 0.01) / (2 * 3.14159265358979323846) }')")
ok "frequency: the damped oscillator's peak at w_n sqrt(1 - 2 zeta^2) (got $pk Hz, rel. $r; grid 3e-4)" 'lt "$r" 5e-4'
# --about initial: the damped oscillator's start (0.05 m out) is not an equilibrium: a warning;
# its spring is linear, so the FRF is the same as about the equilibrium
$BUILD/anl_damped_sim --analysis frequency --about initial --input block.P.x --f-min 0.1 --f-max 100 --f-points 50 --out "$T/di.csv" >"$T/o" 2>"$T/e"
ok "frequency --about initial: exit 0, about=initial, warns that the start is no equilibrium" \
   '[ $? -eq 0 ] && grep -q "about=initial" "$T/o" && grep -q "warning: the initial state is not an equilibrium" "$T/e"'
e=$(paste -d, "$T/df.csv" "$T/di.csv" | awk -F, 'NR > 1 { d = ($5 - $11) / $5; d = d < 0 ? -d : d; if (d > e) e = d } END { printf "%.3e\n", e }')
ok "frequency --about initial: a linear spring's FRF as about the equilibrium (rel. $e)" 'lt "$e" 1e-12'
# a force at the pendulum's tip, its horizontal displacement: L^2 / (J_O (w0^2 - w^2))
$PEND --analysis frequency --input bar.T.x --f-points 30 --out "$T/pf.csv" >"$T/o" 2>"$T/e"
e=$(awk "$PRE"' { w = $c["omega"]; L = 0.8; JO = 2 * L * L / 3; h = L * L / (JO * (3 * 9.81 / (2 * L) - w * w))
    ee = (abs($c["re"] - h) + abs($c["im"])) / abs(h); if (ee > e) e = ee } END { printf "%.3e\n", e }' "$T/pf.csv")
ok "frequency: pendulum tip force to tip displacement against L^2 / (J_O (w0^2 - w^2)) (rel. $e)" 'lt "$e" 1e-6'
echo "frequency: pendulum tip FRF against the transfer function: $e"

# ---------------------------------------------------------------- quasistatic
# the torqued pendulum: tau = 0.9 m g d min(t, 1): m g d sin(theta) = tau, pin (0, m g)
$BUILD/anl_torqued_sim --analysis quasistatic --t-end 1.2 --h 0.1 --out "$T/q.csv" >"$T/o" 2>"$T/e"
ok "quasistatic: exits 0, 13 rows" '[ $? -eq 0 ] && [ $(wc -l <"$T/q.csv") -eq 14 ] && grep -q "outputs=13" "$T/o"'
e=$(awk "$PRE"' { M = 2; d = 0.4; g = 9.81; t = $1; tau = 0.9 * M * g * d * (t < 1 ? t : 1)
    th = $c["bar.phi"] + 1.5707963267948966
    ee = abs(M * g * d * sin(th) - tau) / (M * g * d) + (abs($c["pin.fx"]) + abs($c["pin.fy"] - M * g)) / (M * g)
    if (ee > e) e = ee } END { printf "%.3e\n", e }' "$T/q.csv")
ok "quasistatic: torqued pendulum against the hand equilibrium at 13 load levels (rel. $e)" 'lt "$e" 1e-9'
echo "quasistatic: torqued pendulum against the hand equilibrium: $e"
# the oscillator along its sine load: x = Q sin(2 pi t / T) / k
$BUILD/oscillator_1dof_sim --analysis quasistatic --t-end 0.6 --h 0.05 --out "$T/oq.csv" >"$T/o" 2>"$T/e"
e=$(awk "$PRE"' { x = 1000 * sin(2 * 3.14159265358979323846 * $1 / (0.2 * 3.14159265358979323846)) / 20000
    ee = abs($c["mass.x"] - x) / 0.05; if (ee > e) e = ee } END { printf "%.3e\n", e }' "$T/oq.csv")
ok "quasistatic: oscillator x = Q sin(2 pi t / T) / k (rel. $e)" 'lt "$e" 1e-9'
echo "quasistatic: oscillator against Q sin(2 pi t / T) / k: $e"

# ---------------------------------------------------------------- --analysis dynamic = default
$PEND --t-end 0.2 --out "$T/d1.csv" --quiet >/dev/null 2>&1
$PEND --analysis dynamic --t-end 0.2 --out "$T/d2.csv" --quiet >/dev/null 2>&1
ok "--analysis dynamic is the default run (same CSV)" '[ -s "$T/d1.csv" ] && cmp -s "$T/d1.csv" "$T/d2.csv"'

# ---------------------------------------------------------------- plots (make run ANALYSIS=...)
png() { [ "$(head -c 4 "$1" | tail -c 3)" = PNG ]; }
scripts/plot_analysis.sh --outdir "$T/png" modes "$T/dm.csv" >"$T/o" 2>"$T/e"
ok "plot_analysis.sh modes: a PNG per mode" '[ $? -eq 0 ] && [ $(wc -l <"$T/o") -eq 2 ] && png "$T/png/dm_mode1.png" && png "$T/png/dm_mode2.png"'
scripts/plot_analysis.sh --outdir "$T/png" bode "$T/df.csv" >"$T/o" 2>"$T/e"
ok "plot_analysis.sh bode: the Bode plot" '[ $? -eq 0 ] && png "$T/png/df_bode.png"'
scripts/plot_analysis.sh --outdir "$T/png" bode "$T/dm.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "plot_analysis.sh bode of a modal CSV: exit 1, says which column is missing" '[ $rc -eq 1 ] && grep -q "no column .magnitude. (written by --analysis frequency?)" "$T/e"'

# ---------------------------------------------------------------- bad input
$PEND --analysis kinematic --out "$T/x.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "kinematic with a free degree of freedom: exit 1, says so, no CSV" \
   '[ $rc -eq 1 ] && grep -q "1 degree of freedom not driven" "$T/e" && [ ! -e "$T/x.csv" ] && grep -q "^status=error" "$T/o"'
$BUILD/anl_falling_sim --analysis static --out "$T/x.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "static without an equilibrium: exit 1, says so, no CSV" \
   '[ $rc -eq 1 ] && grep -q "no equilibrium found" "$T/e" && [ ! -e "$T/x.csv" ] && grep -q "^status=error" "$T/o"'
$PEND --analysis quasi >"$T/o" 2>"$T/e"; rc=$?
ok "unknown analysis: exit 2 with the choices" '[ $rc -eq 2 ] && grep -q "expected dynamic, static" "$T/e"'
$BUILD/oscillator_1dof_sim --analysis frequency --out "$T/x.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "frequency without a harmonic input: exit 2, says so, no CSV" \
   '[ $rc -eq 2 ] && grep -q "needs a harmonic input: --input" "$T/e" && [ ! -e "$T/x.csv" ] && [ ! -s "$T/o" ]'
$BUILD/oscillator_1dof_sim --analysis frequency --input mass.z --out "$T/x.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "frequency with an unknown input: exit 2, names it and lists the names, no CSV, no summary" \
   '[ $rc -eq 2 ] && grep -q "invalid value '"'"'mass.z'"'"' for --input: no such coordinate or moving point; the coordinates are: mass.x, mass.y, mass.phi" "$T/e" && [ ! -e "$T/x.csv" ] && [ ! -s "$T/o" ]'
# checked before any solve: a model without an equilibrium says the name, not "no equilibrium"
$BUILD/anl_falling_sim --analysis frequency --input block.x --response blokc.x --out "$T/x.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "frequency with an unknown response: exit 2 before the equilibrium is sought" \
   '[ $rc -eq 2 ] && grep -q "invalid value '"'"'blokc.x'"'"' for --response: no such coordinate" "$T/e" && ! grep -q "equilibrium" "$T/e" && [ ! -e "$T/x.csv" ] && [ ! -s "$T/o" ]'
# an empty range: one bound given on the wrong side of the other's default (the oscillator's
# 71.18 Hz: defaults 7.12 and 711.8 Hz), or both the wrong way round: exit 2 naming both values,
# no sweep, no CSV, no summary (it said "no positive natural frequency"); a bound just inside the
# default (control) runs
for a in "--f-min 1000:--f-min 1000 Hz is not below the default --f-max 711.762543 Hz" \
         "--f-max 0.01:--f-max 0.01 Hz is not above the default --f-min 7.11762543 Hz" \
         "--f-min 712:--f-min 712 Hz is not below the default --f-max 711.762543 Hz"; do
    $BUILD/oscillator_1dof_sim --analysis frequency --input mass.x ${a%%:*} --out "$T/x.csv" >"$T/o" 2>"$T/e"; rc=$?
    ok "frequency ${a%%:*}: exit 2, both values named, not 'no natural frequency', no CSV, no summary" \
       '[ $rc -eq 2 ] && grep -qF -- "${a#*:}" "$T/e" && ! grep -q "no positive natural" "$T/e" && [ ! -e "$T/x.csv" ] && [ ! -s "$T/o" ]'
done
$BUILD/oscillator_1dof_sim --analysis frequency --input mass.x --f-min 2 --f-max 1 --out "$T/x.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "frequency --f-min 2 --f-max 1: exit 2 before any solve, no CSV" \
   '[ $rc -eq 2 ] && grep -q "f-max must be above --f-min" "$T/e" && ! grep -q "workspace" "$T/e" && [ ! -e "$T/x.csv" ] && [ ! -s "$T/o" ]'
$BUILD/oscillator_1dof_sim --analysis frequency --input mass.x --f-min 700 --f-points 5 --out "$T/x.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "frequency --f-min 700 (control, below the default --f-max): exit 0, 5 rows from 700 Hz" \
   '[ $rc -eq 0 ] && [ "$(kv f_min "$T/o")" = 700 ] && [ $(wc -l <"$T/x.csv") -eq 6 ]'
rm -f "$T/x.csv"
# every analysis names redundant constraints by element (tests/models/fault_redundant.lua: a
# second hinge A2 on A1's point), with the words of the simulators' start-up report; and a rank
# loss where it fails by equation (tests/models/stretched_chain.lua: J2.x at its singular
# position), as kinematic does (issue 27, item 8: static and modal said only "rank 2 < 4",
# quasistatic nothing, and its failure a line-search message)
RD=$BUILD/fault_redundant_sim SC=$BUILD/stretched_chain_sim
for a in static modal "frequency --input bar.x" "quasistatic --t-end 0.01"; do
    # shellcheck disable=SC2086  # the analysis and its options
    $RD --analysis $a --out "$T/x.csv" >"$T/o" 2>"$T/e"; rc=$?
    ok "redundant joint, --analysis ${a%% *}: exit 0, A2 named with what it duplicates, its reactions said" \
       '[ $rc -eq 0 ] && grep -q "warning: redundant constraint: joint \"A2\" (A2.x, A2.y) duplicates joint \"A1\" (rank 2 of 4 equations at the equilibrium" "$T/e" &&
        grep -q "reactions of redundant constraints are not unique" "$T/e" && [ "$(grep -c "redundant constraint: joint" "$T/e")" -eq 1 ]'
done
$RD --analysis modal --about initial --out "$T/x.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "redundant joint, modal --about initial: A2 named at the initial state" \
   '[ $rc -eq 0 ] && grep -q "redundant constraint: joint \"A2\" (A2.x, A2.y) duplicates joint \"A1\" (rank 2 of 4 equations at the initial state)" "$T/e"'
for a in kinematic inverse; do
    $RD --analysis $a --t-end 0.01 --out "$T/x.csv" >"$T/o" 2>"$T/e"; rc=$?
    ok "redundant joint, --analysis $a: exit 1, A2.x named" '[ $rc -eq 1 ] && grep -q "redundant or singular constraint: A2.x" "$T/e"'
done
for a in static "quasistatic --t-end 0.01" "kinematic --t-end 0.01"; do
    # shellcheck disable=SC2086
    $SC --analysis $a --out "$T/x.csv" >"$T/o" 2>"$T/e"; rc=$?
    ok "singular position, --analysis ${a%% *}: exit 1, J2.x named" \
       '[ $rc -eq 1 ] && grep -q "${a%% *} analysis failed.*: redundant or singular constraint: J2.x (equation 2 of Phi)" "$T/e"'
done
# control: a model without redundancy or singular position names none
$PEND --analysis static --out "$T/x.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "pendulum, static (control): no redundant or singular constraint named" '[ $rc -eq 0 ] && ! grep -q -e "redundant" -e "singular" "$T/e"'
rm -f "$T/x.csv"
$PEND --analysis static --input bar.x --out "$T/x.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "--input with static analysis: exit 2, no CSV" '[ $rc -eq 2 ] && grep -q "apply to --analysis frequency" "$T/e" && [ ! -e "$T/x.csv" ]'
$PEND --analysis modal --about upside --out "$T/x.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "--about with a bad value: exit 2" '[ $rc -eq 2 ] && grep -q "invalid value '"'"'upside'"'"' for --about" "$T/e" && [ ! -e "$T/x.csv" ]'
$BUILD/anl_falling_sim --analysis frequency --input block.x --out "$T/x.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "frequency about no equilibrium: exit 1, no CSV" '[ $rc -eq 1 ] && grep -q "no equilibrium found" "$T/e" && [ ! -e "$T/x.csv" ]'
$BUILD/anl_falling_sim --analysis quasistatic --out "$T/x.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "quasistatic without an equilibrium: exit 1, says at which time, no CSV" '[ $rc -eq 1 ] && grep -q "quasistatic analysis failed at t=0: no equilibrium" "$T/e" && [ ! -e "$T/x.csv" ]'
ok "no temporary files left" '! ls "$T"/*.tmp.* >/dev/null 2>&1'
$PEND --help >"$T/o"; ok "--help lists --analysis" 'grep -q -- "--analysis" "$T/o"'

# ---------------------------------------------------------------- the singular four-bar
# F4 passes the singular position; there the multipliers are not unique: empty fields, a warning
$BUILD/fourbar_singular_sim --t-end 1 --out "$T/fb.csv" --quiet >"$T/o" 2>"$T/e"
ok "four-bar runs; CSV rows complete, no NaN" '[ $? -eq 0 ] && ! grep -qi "nan\|inf" "$T/fb.csv" && awk -F, "NR == 1 { n = NF } NF != n { exit 1 }" "$T/fb.csv"'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
