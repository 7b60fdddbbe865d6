#!/usr/bin/env bash
# test_joints.sh - slots, gears and racks against closed forms (docs/model-language.md, "Slots,
# gears and racks"), by kinematic analysis (every row solved by Newton on Phi = 0):
#  - models/shaper.lua (crank and slotted lever): the ram's position at every row against
#    x_R = T_x + sqrt(l^2 - (H - T_y)^2), T = L P / |P|, P = (r cos theta, d + r sin theta); its
#    velocity zero where the slot is tangent to the crank circle (theta = -pi/2 -+ acos(r/d)),
#    of one sign between them: the time ratio (pi - acos(r/d)) / acos(r/d);
#  - models/gear_train.lua: every row's speed ratios w2 / w1 = -z1 / z2 and w4 / w1 = -(z1 z3) /
#    (z2 z4), the angles the same; its Scotch yoke (a slot) at x_C + 0.05 cos(phi_ring);
#  - tests/models/kin_meshes.lua: the rack's travel r theta; the planet on a moving arm, sun held,
#    w_p = w_arm (1 + r_s / r_p).
# All to 1e-12 relative to the quantity's range over the run. Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/test_joints.XXXXXX"); trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
for b in shaper_sim gear_train_sim kin_meshes_sim; do
    [ -x "$BUILD/$b" ] || { echo "FAIL: $BUILD/$b missing" >&2; echo "0 passed, 1 failed"; exit 1; }
done
# awk over a CSV with columns by name: col["ram.x"]; prints what the program prints
csv() { awk -F, -v OFS=' ' "NR == 1 { for (i = 1; i <= NF; i++) col[\$i] = i; next } $1" "$2"; }

# ---- the shaper: r/d = 0.5, strokes end at t = 0, 1, 3 s (theta = theta0 + 2 pi / 3 t)
"$BUILD/shaper_sim" --analysis kinematic --t-end 3 --h 1e-3 --out "$T/sh.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "shaper: kinematic analysis runs (3001 rows)" '[ $rc -eq 0 ] && grep -q "outputs=3001" "$T/o"'
csv '
function acos(x) { return atan2(sqrt(1 - x * x), x) }
{ d = 0.2; r = 0.1; L = 0.5; l = 0.25; H = 0.5; pi = atan2(0, -1)
  c = acos(r / d); th = -pi / 2 - c + 2 * pi / 3 * $col["t"]
  px = r * cos(th); py = d + r * sin(th); n = sqrt(px * px + py * py)
  tx = L * px / n; ty = L * py / n; xr = tx + sqrt(l * l - (H - ty) ^ 2)
  e = $col["ram.x"] - xr; if (e < 0) e = -e; if (e > emax) emax = e
  x = $col["ram.x"]; if (NR == 2 || x < lo) lo = x; if (NR == 2 || x > hi) hi = x
  v = $col["ram.vx"]; a = v < 0 ? -v : v; if (a > vmax) vmax = a
  t = $col["t"]
  if (t == 0 || t == 1 || t == 3) { if (a > vend) vend = a }
  else if (t < 1) { if (v < 0) bad_ret++ } else { if (v > 0) bad_cut++ }
  ratio = (pi - c) / c }
END { printf "%.3e %.3e %d %d %.17g\n", emax / (hi - lo), vend / vmax, bad_ret, bad_cut, ratio }' \
    "$T/sh.csv" >"$T/r"
read -r err vend bret bcut ratio <"$T/r"
echo "shaper: ram position vs closed form ${err} of its stroke; velocity at the stroke ends ${vend} of its peak; time ratio (pi - acos(r/d)) / acos(r/d) = $ratio"
ok "shaper: ram position = closed form to 1e-12 of the stroke (got $err)" 'awk "BEGIN { exit !($err <= 1e-12) }"'
ok "shaper: ram at rest where the slot is tangent to the crank circle (t = 0, 1, 3 s; got $vend)" \
   'awk "BEGIN { exit !($vend <= 1e-12) }"'
ok "shaper: return stroke 0..1 s (the ram moving +x), cut 1..3 s (-x): time ratio 2 = closed form" \
   '[ "$bret" -eq 0 ] && [ "$bcut" -eq 0 ] && awk "BEGIN { exit !($ratio > 2 - 1e-12 && $ratio < 2 + 1e-12) }"'

# ---- the gear train: w_compound / w_pinion = -20/60, w_ring / w_pinion = -(20 25)/(60 75) = -1/9
"$BUILD/gear_train_sim" --analysis kinematic --t-end 2 --h 1e-3 --out "$T/gt.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "gear train: kinematic analysis runs" '[ $rc -eq 0 ] && grep -q "outputs=2001" "$T/o"'
csv '
function ab(x) { return x < 0 ? -x : x }
NR == 2 { p0 = $col["pinion.phi"]; c0 = $col["compound.phi"]; r0 = $col["ring.phi"] }
{ w1 = $col["pinion.omega"]; e1 = ab($col["compound.omega"] / w1 + 20 / 60); e2 = ab($col["ring.omega"] / w1 + (20 * 25) / (60 * 75))
  dp = $col["pinion.phi"] - p0; if (ab(dp) > span) span = ab(dp)
  a1 = ab(($col["compound.phi"] - c0) + dp * 20 / 60); a2 = ab(($col["ring.phi"] - r0) + dp * (20 * 25) / (60 * 75))
  if (e1 > m1) m1 = e1; if (e2 > m2) m2 = e2; if (a1 > n1) n1 = a1; if (a2 > n2) n2 = a2
  e = ab($col["yoke.x"] - (0.13 + 0.05 * cos($col["ring.phi"]))); if (e > m3) m3 = e }
END { printf "%.3e %.3e %.3e %.3e %.3e\n", m1 * 3, m2 * 9, n1 / span, n2 / span, m3 / 0.1 }' "$T/gt.csv" >"$T/r"
read -r s1 s2 g1 g2 y1 <"$T/r"
ok "gear train: the Scotch yoke (a slot) at x_C + 0.05 cos(phi_ring) to 1e-12 of its stroke (got $y1)" \
   'awk "BEGIN { exit !($y1 <= 1e-12) }"'
echo "gear train: speed ratios vs -1/3 and -1/9: $s1, $s2 relative; angles: $g1, $g2 of the input's turn"
ok "gear train: w2/w1 = -z1/z2 at every row to 1e-12 (got $s1)" 'awk "BEGIN { exit !($s1 <= 1e-12) }"'
ok "gear train: w4/w1 = product of the stages' ratios, -1/9, to 1e-12 (got $s2)" 'awk "BEGIN { exit !($s2 <= 1e-12) }"'
ok "gear train: the angles follow the same ratios to 1e-12 (got $g1, $g2)" \
   'awk "BEGIN { exit !($g1 <= 1e-12 && $g2 <= 1e-12) }"'

# ---- rack travel = r theta; the planet on the moving arm
"$BUILD/kin_meshes_sim" --analysis kinematic --t-end 2 --h 1e-3 --out "$T/km.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "kin_meshes: kinematic analysis runs" '[ $rc -eq 0 ] && grep -q "outputs=2001" "$T/o"'
csv '
function ab(x) { return x < 0 ? -x : x }
NR == 2 { x0 = $col["rack.x"]; th0 = $col["pinion.phi"] }
{ s = $col["rack.x"] - x0; th = $col["pinion.phi"] - th0; if (ab(s) > span) span = ab(s)
  e = ab(s - 0.05 * th); if (e > m1) m1 = e
  e = ab($col["rack.vx"] - 0.05 * $col["pinion.omega"]); if (e > m2) m2 = e
  if (ab($col["rack.vx"]) > vs) vs = ab($col["rack.vx"])
  e = ab($col["planet.omega"] / $col["arm.omega"] - (1 + 0.03 / 0.02)); if (e > m3) m3 = e }
END { printf "%.3e %.3e %.3e\n", m1 / span, m2 / vs, m3 / 2.5 }' "$T/km.csv" >"$T/r"
read -r t1 t2 t3 <"$T/r"
echo "rack: travel - r theta: $t1 of the travel, velocity $t2; planet: w_p / w_arm - (1 + r_s/r_p): $t3"
ok "rack: travel = r theta at every row to 1e-12 (got $t1)" 'awk "BEGIN { exit !($t1 <= 1e-12) }"'
ok "rack: velocity = r omega to 1e-12 (got $t2)" 'awk "BEGIN { exit !($t2 <= 1e-12) }"'
ok "planetary on a moving carrier: w_p = w_arm (1 + r_s / r_p) to 1e-12 (got $t3)" \
   'awk "BEGIN { exit !($t3 <= 1e-12) }"'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
