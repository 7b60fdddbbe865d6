#!/usr/bin/env bash
# test_cam.sh - cams against closed forms (docs/model-language.md, "Cams"), by kinematic analysis
# (every row solved by Newton on Phi = 0, the reactions from the multipliers):
#  - models/cam_follower.lua (a harmonic cam r = a0 + e cos(psi) lifting a follower against a
#    valve spring, theta = pi/2 + w t): the follower's lift, velocity and acceleration against
#    y = a0 + e cos(w t), -w e sin(w t), -w^2 e cos(w t); the cam's normal force (C.normal)
#    against N = (m ay + m g + k (y + s - H_y + l0)) sqrt(1 + (r'/r)^2) (the vertical force over
#    the cosine of the pressure angle); the jump speed: the speed at which the
#    smallest normal force crosses zero, from runs at 0.98 and 1.02 of the closed form
#    w_jump = sqrt(F(a0 + e) / (m e)) (N_min is linear in w^2 there), and the signs of N on
#    each side (the follower would leave the cam above w_jump, not below);
#  - tests/models/kin_cams.lua: a three-harmonic profile (cosine and sine terms) y = r(pi/2 -
#    theta), vy = -w r', ay = w^2 r'' (and the same for a profile given as a Lua function of its
#    angle); an eccentric circle under a roller,
#    y = e sin(theta) + sqrt((R + rr)^2 - e^2 cos^2(theta)) and its derivatives;
#    a roller on the three-harmonic profile (C4), its centre against the offset curve's polar
#    radius rho(pi/2 - theta), -w rho', w^2 rho'' from tests/cam_roller_ref.c (long double);
#    a periodic spline under a point (C5) and under a roller (C6) against that program's own
#    fit of the spline, and the lift at the point follower's knot crossings equal to the
#    points' radii; a roller larger than the cam on an offset follower (C7), its centre's
#    distance from the profile by brute force;
#  - models/valve_train.lua (a roller on r = a0 + a1 cos(psi) + a2 cos(2 psi) under a valve
#    spring): the roller centre's lift, velocity, acceleration and C.normal against the same
#    closed form at 500 rad/s; the jump speed from the closed form (min over the cam angle of
#    F(rho) / (m (-rho''))) against the reactions at 0.98 and 1.02 of it; a dynamic run on the
#    offset curve to 1e-9 of the lift; the generic evaluator gives the same kinematics and
#    normal force (1e-12);
#  - a dynamic run of cam_follower (the default formulation and integrator) keeps the follower
#    on the profile: lift to 1e-9 of the stroke;
#  - a free cam flywheel with a spring-loaded follower conserves T + V (tests/models/cam_free.lua);
#  - the generic evaluator agrees with the generated code on cam_follower; it refuses a profile
#    given as a function (exit 2), its data file naming the cam.
# Kinematics to 1e-12 relative to the quantity's range. Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/test_cam.XXXXXX"); trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
for b in cam_follower_sim kin_cams_sim cam_free_sim valve_train_sim cam_roller_ref; do
    [ -x "$BUILD/$b" ] || { echo "FAIL: $BUILD/$b missing" >&2; echo "0 passed, 1 failed"; exit 1; }
done
csv() { awk -F, -v OFS=' ' "NR == 1 { for (i = 1; i <= NF; i++) col[\$i] = i; next } $1" "$2"; }
le() { awk "BEGIN { exit !($1 <= $2) }"; }

# the shipped model's data (models/cam_follower.lua)
DATA='a0 = 0.025; e = 0.005; m = 0.1; k = 20000; l0 = 0.06; Hy = 0.08; s = 0.01; g = 9.81; Py = -0.02'
wj=$(awk "BEGIN { $DATA; F = m * g + k * (a0 + e + s - Hy + l0); printf \"%.17g\", sqrt(F / (m * e)) }")
echo "cam_follower: closed-form jump speed sqrt(F(a0 + e) / (m e)) = $wj rad/s"

# ---- lift, velocity, acceleration, normal force at 700 rad/s over two turns
"$BUILD/cam_follower_sim" --analysis kinematic --t-end 0.018 --h 1e-6 --out "$T/cf.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "cam_follower: kinematic analysis runs (18001 rows)" '[ $rc -eq 0 ] && grep -q "outputs=18001" "$T/o"'
csv "
function ab(x) { return x < 0 ? -x : x }
{ $DATA; w = 700; t = \$col[\"t\"]
  y = a0 + e * cos(w * t); vy = -w * e * sin(w * t); ay = -w * w * e * cos(w * t)
  # the guide takes the side force: the cam's force is along the profile's normal, which leans
  # from the follower's axis by the pressure angle, tan = r' / r (r' = dr/dpsi = e sin(w t))
  rp = e * sin(w * t); N = (m * ay + m * g + k * (y + s - Hy + l0)) * sqrt(1 + (rp / y) ^ 2)
  # the same with the row's own lift in the spring's force: the position's Newton stop (2.2e-14 m)
  # times k is 4.4e-10 N, 1.1e-12 of the peak; this isolates the multiplier
  yr = \$col[\"follower.P.y\"]; Nr = (m * ay + m * g + k * (yr + s - Hy + l0)) * sqrt(1 + (rp / yr) ^ 2)
  e1 = ab(\$col[\"follower.P.y\"] - y); e2 = ab(\$col[\"follower.vy\"] - vy)
  e3 = ab(\$col[\"follower.ay\"] - ay); e4 = ab(\$col[\"C.normal\"] - Nr); e5 = ab(\$col[\"C.normal\"] - N)
  if (e1 > m1) m1 = e1; if (e2 > m2) m2 = e2; if (e3 > m3) m3 = e3; if (e4 > m4) m4 = e4; if (e5 > m5) m5 = e5
  if (ab(N) > nmax) nmax = ab(N) }
END { printf \"%.3e %.3e %.3e %.3e %.3e %.3e\n\", m1 / (a0 + e), m1 / (2 * e), m2 / (700 * e), m3 / (700 * 700 * e), m4 / nmax, m5 / nmax }" \
    "$T/cf.csv" >"$T/r"
read -r l1 l2 v1 a1 n1 n2 <"$T/r"
echo "cam_follower at 700 rad/s: lift $l1 of the follower's height a0 + e ($l2 of the stroke), velocity $v1, acceleration $a1 of w e, w^2 e; normal force $n1 of its peak ($n2 with the closed-form lift in the spring)"
# (the kinematic Newton stops at |Phi| <= 100 eps = 2.2e-14 m, absolute: 2.2e-12 of the 10 mm
# stroke, 7e-13 of the follower's height, the scale of the equation)
ok "cam_follower: lift a0 + e cos(w t) to 1e-12 of the follower's height a0 + e (got $l1)" 'le "$l1" 1e-12'
ok "cam_follower: velocity -w e sin(w t) to 1e-12 of w e (got $v1)" 'le "$v1" 1e-12'
ok "cam_follower: acceleration -w^2 e cos(w t) to 1e-12 of w^2 e (got $a1)" 'le "$a1" 1e-12'
ok "cam_follower: C.normal = (m ay + m g + k compression) / cos(pressure angle) to 1e-12 of its peak (got $n1)" 'le "$n1" 1e-12'

# ---- the jump speed: the smallest normal force at 0.98 and 1.02 w_jump (one turn each)
nmin() {
    "$BUILD/cam_follower_sim" --analysis kinematic --set "w=$1" --t-end "$(awk "BEGIN { printf \"%.17g\", 6.2832 / $1 }")" \
        --h 1e-6 --out "$T/j.csv" >"$T/o" 2>"$T/e" || { echo nan; return; }
    csv '{ n = $col["C.normal"]; if (NR == 2 || n < lo) lo = n } END { printf "%.17g\n", lo }' "$T/j.csv"
}
w1=$(awk "BEGIN { printf \"%.17g\", 0.98 * $wj }"); w2=$(awk "BEGIN { printf \"%.17g\", 1.02 * $wj }")
N1=$(nmin "$w1"); N2=$(nmin "$w2")
echo "cam_follower: smallest normal force $N1 N at 0.98 w_jump, $N2 N at 1.02 w_jump"
ok "cam_follower: the follower stays on the cam below the jump speed (N_min > 0 at 0.98 w_jump: $N1)" \
   'awk "BEGIN { exit !($N1 > 0) }"'
ok "cam_follower: it would leave above it (N_min < 0 at 1.02 w_jump: $N2)" 'awk "BEGIN { exit !($N2 < 0) }"'
wz=$(awk "BEGIN { w1 = $w1; w2 = $w2; z = w1 * w1 + (w2 * w2 - w1 * w1) * $N1 / ($N1 - ($N2)); printf \"%.17g\", sqrt(z) }")
jr=$(awk "BEGIN { d = ($wz - $wj) / $wj; if (d < 0) d = -d; printf \"%.3e\", d }")
echo "cam_follower: jump speed from the reactions $wz rad/s, closed form $wj rad/s: relative difference $jr"
ok "cam_follower: the reactions' jump speed matches sqrt(F(a0 + e) / (m e)) to 1e-12 (got $jr)" 'le "$jr" 1e-12'

# ---- the three-harmonic cam and the roller on the eccentric
"$BUILD/kin_cams_sim" --analysis kinematic --t-end 0.5 --h 1e-4 --out "$T/kc.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "kin_cams: kinematic analysis runs" '[ $rc -eq 0 ] && grep -q "outputs=5001" "$T/o"'
csv '
function ab(x) { return x < 0 ? -x : x }
{ pi = atan2(0, -1); t = $col["t"]
  # the Fourier cam: psi = pi/2 - theta, dpsi/dt = -40
  w = 40; p = pi / 2 - (0.3 + w * t)
  r = 0.04 + 0.006 * cos(p) - 0.001 * cos(3 * p) + 0.002 * sin(2 * p)
  r1 = -0.006 * sin(p) + 0.003 * sin(3 * p) + 0.004 * cos(2 * p)
  r2 = -0.006 * cos(p) + 0.009 * cos(3 * p) - 0.008 * sin(2 * p)
  f1 = ab($col["fol1.P.y"] - r); f2 = ab($col["fol1.vy"] + w * r1); f3 = ab($col["fol1.ay"] - w * w * r2)
  if (f1 > m1) m1 = f1; if (f2 > m2) m2 = f2; if (f3 > m3) m3 = f3
  if (NR == 2 || r < rlo) rlo = r; if (NR == 2 || r > rhi) rhi = r
  if (ab(w * r1) > vs) vs = ab(w * r1); if (ab(w * w * r2) > as) as = ab(w * w * r2)
  # the roller: theta = -0.5 + 25 t, D = R + rr
  th = -0.5 + 25 * t; ee = 0.01; D = 0.042; c = cos(th); sn = sin(th)
  q = sqrt(D * D - ee * ee * c * c)
  y = ee * sn + q
  yd = ee * c + ee * ee * c * sn / q                          # dy/dtheta
  ydd = -ee * sn + ee * ee * (c * c - sn * sn) / q - ee ^ 4 * c * c * sn * sn / q ^ 3
  g1 = ab($col["fol2.C.y"] - y); g2 = ab($col["fol2.vy"] - 25 * yd); g3 = ab($col["fol2.ay"] - 625 * ydd)
  if (g1 > n1) n1 = g1; if (g2 > n2) n2 = g2; if (g3 > n3) n3 = g3
  if (NR == 2 || y < ylo) ylo = y; if (NR == 2 || y > yhi) yhi = y
  if (ab(25 * yd) > vs2) vs2 = ab(25 * yd); if (ab(625 * ydd) > as2) as2 = ab(625 * ydd)
  # the function profile: r = 0.04 + 0.005 cos + 0.002 sin^2, psi = pi/2 - (0.1 + 30 t)
  w = 30; p = pi / 2 - (0.1 + w * t)
  r = 0.04 + 0.005 * cos(p) + 0.002 * sin(p) ^ 2
  r1 = -0.005 * sin(p) + 0.002 * sin(2 * p); r2 = -0.005 * cos(p) + 0.004 * cos(2 * p)
  h1 = ab($col["fol3.P.y"] - r); h2 = ab($col["fol3.vy"] + w * r1); h3 = ab($col["fol3.ay"] - w * w * r2)
  if (h1 > k1) k1 = h1; if (h2 > k2) k2 = h2; if (h3 > k3) k3 = h3
  if (NR == 2 || r < flo) flo = r; if (NR == 2 || r > fhi) fhi = r
  if (ab(w * r1) > vs3) vs3 = ab(w * r1); if (ab(w * w * r2) > as3) as3 = ab(w * w * r2) }
END { printf "%.3e %.3e %.3e %.3e %.3e %.3e %.3e %.3e %.3e\n", m1 / (rhi - rlo), m2 / vs, m3 / as, n1 / (yhi - ylo), n2 / vs2, n3 / as2, k1 / (fhi - flo), k2 / vs3, k3 / as3 }' \
    "$T/kc.csv" >"$T/r"
read -r f1 f2 f3 g1 g2 g3 h1 h2 h3 <"$T/r"
echo "kin_cams: Fourier cam lift $f1, velocity $f2, acceleration $f3; roller on the eccentric $g1, $g2, $g3 (of their ranges)"
ok "kin_cams: three-harmonic cam lift r(pi/2 - theta) to 1e-12 (got $f1)" 'le "$f1" 1e-12'
ok "kin_cams: its velocity -w r' to 1e-12 (got $f2)" 'le "$f2" 1e-12'
ok "kin_cams: its acceleration w^2 r'' to 1e-12 (got $f3)" 'le "$f3" 1e-12'
ok "kin_cams: roller centre on the eccentric, e sin + sqrt((R + rr)^2 - e^2 cos^2), to 1e-12 (got $g1)" 'le "$g1" 1e-12'
ok "kin_cams: its velocity to 1e-12 (got $g2)" 'le "$g2" 1e-12'
ok "kin_cams: its acceleration to 1e-12 (got $g3)" 'le "$g3" 1e-12'
echo "kin_cams: profile function lift $h1, velocity $h2, acceleration $h3 (of their ranges)"
ok "kin_cams: a profile function's lift r(pi/2 - theta) to 1e-12 (got $h1)" 'le "$h1" 1e-12'
ok "kin_cams: its velocity to 1e-12 (got $h2)" 'le "$h2" 1e-12'
ok "kin_cams: its acceleration to 1e-12 (got $h3)" 'le "$h3" 1e-12'

# ---- a roller on a Fourier profile (kin_cams' C4): the roller centre against the offset curve's
# polar radius rho(pi/2 - theta) and its derivatives (tests/cam_roller_ref.c, long double)
"$BUILD/cam_roller_ref" 0.01 35 0.2 5000 1e-4 0.04 3 0.006 0 -0.001 0 0.002 0 >"$T/ref4" 2>"$T/e"; rc=$?
ok "cam_roller_ref: runs (5001 rows)" '[ $rc -eq 0 ] && [ "$(wc -l <"$T/ref4")" -eq 5001 ]'
csv '{ print $col["fol4.C.y"], $col["fol4.vy"], $col["fol4.ay"] }' "$T/kc.csv" | paste -d' ' - "$T/ref4" | awk '
function ab(x) { return x < 0 ? -x : x }
{ e1 = ab($1 - $5); e2 = ab($2 - $6); e3 = ab($3 - $7)
  if (e1 > m1) m1 = e1; if (e2 > m2) m2 = e2; if (e3 > m3) m3 = e3
  if (NR == 1 || $5 < lo) lo = $5; if (NR == 1 || $5 > hi) hi = $5
  if (ab($6) > vs) vs = ab($6); if (ab($7) > as) as = ab($7) }
END { printf "%.3e %.3e %.3e %d\n", m1 / (hi - lo), m2 / vs, m3 / as, NR }' >"$T/r"
read -r g1 g2 g3 nr <"$T/r"
echo "kin_cams: roller on the three-harmonic profile: centre $g1, velocity $g2, acceleration $g3 (of their ranges; $nr rows)"
ok "kin_cams: roller centre on a Fourier profile, rho(pi/2 - theta) of the offset curve, to 1e-12 (got $g1)" '[ "$nr" -eq 5001 ] && le "$g1" 1e-12'
ok "kin_cams: its velocity -w rho' to 1e-12 (got $g2)" 'le "$g2" 1e-12'
ok "kin_cams: its acceleration w^2 rho'' to 1e-12 (got $g3)" 'le "$g3" 1e-12'

# ---- periodic splines (kin_cams' C5 under a point, C6 under a roller): the follower against the
# spline's own fit in tests/cam_roller_ref.c (long double; rr = 0 for the point: rho = r); and
# the spline passes through its points: the rows where the follower's polar angle pi/2 - theta
# is a knot (C5: theta = 0.15 + 20 t) lift it to the point's radius
LOBE='spline 10 0 0.04 0.5 0.038 1 0.034 1.5 0.031 2 0.03 3 0.03 4 0.03 4.5 0.031 5 0.034 5.6 0.038'
# shellcheck disable=SC2086
"$BUILD/cam_roller_ref" 0 20 0.15 5000 1e-4 $LOBE >"$T/ref5" 2>"$T/e" &&
"$BUILD/cam_roller_ref" 0.008 28 -0.4 5000 1e-4 $LOBE >"$T/ref6" 2>>"$T/e"; rc=$?
ok "cam_roller_ref: the spline profiles run" '[ $rc -eq 0 ]'
spl() { # spl COLUMN-PREFIX POINT REF: worst lift, velocity, acceleration of their ranges
    csv "{ print \$col[\"$1.$2.y\"], \$col[\"$1.vy\"], \$col[\"$1.ay\"] }" "$T/kc.csv" | paste -d' ' - "$3" | awk '
    function ab(x) { return x < 0 ? -x : x }
    { e1 = ab($1 - $5); e2 = ab($2 - $6); e3 = ab($3 - $7)
      if (e1 > m1) m1 = e1; if (e2 > m2) m2 = e2; if (e3 > m3) m3 = e3
      if (NR == 1 || $5 < lo) lo = $5; if (NR == 1 || $5 > hi) hi = $5
      if (ab($6) > vs) vs = ab($6); if (ab($7) > as) as = ab($7) }
    END { printf "%.3e %.3e %.3e %d\n", m1 / (hi - lo), m2 / vs, m3 / as, NR }'
}
read -r s1 s2 s3 nr <<<"$(spl fol5 P "$T/ref5")"
echo "kin_cams: spline under a point: lift $s1, velocity $s2, acceleration $s3 (of their ranges; $nr rows)"
ok "kin_cams: a spline profile's lift r(pi/2 - theta) to 1e-12 (got $s1)" '[ "$nr" -eq 5001 ] && le "$s1" 1e-12'
ok "kin_cams: its velocity -w r' to 1e-12 (got $s2)" 'le "$s2" 1e-12'
ok "kin_cams: its acceleration w^2 r'' to 1e-12 (got $s3)" 'le "$s3" 1e-12'
read -r s1 s2 s3 nr <<<"$(spl fol6 C "$T/ref6")"
echo "kin_cams: spline under a roller: centre $s1, velocity $s2, acceleration $s3 (of their ranges; $nr rows)"
ok "kin_cams: a roller on a spline, rho(pi/2 - theta), to 1e-12 (got $s1)" '[ "$nr" -eq 5001 ] && le "$s1" 1e-12'
ok "kin_cams: its velocity to 1e-12 (got $s2)" 'le "$s2" 1e-12'
ok "kin_cams: its acceleration to 1e-12 (got $s3)" 'le "$s3" 1e-12'
# through its points: at each knot's time tk (0.15 + 20 tk = pi/2 - phi_i mod 2 pi) the lift
# from the nearest row j by Taylor, y_j + vy_j (tk - t_j) + ay_j (tk - t_j)^2 / 2 (|tk - t_j|
# <= 5e-5 s: the jerk's term w^3 |r'''| dt^3 / 6 is below 1e-10 m) equals the point's radius
kn=$(csv '{ print $col["t"], $col["fol5.P.y"], $col["fol5.vy"], $col["fol5.ay"] }' "$T/kc.csv" | awk -v pts="${LOBE#spline 10 }" '
  BEGIN { n = split(pts, a, " "); pi = atan2(0, -1) }
  { t[NR] = $1; y[NR] = $2; v[NR] = $3; ac[NR] = $4 }
  END { for (i = 1; i < n; i += 2) { phi = a[i]; r = a[i + 1]
          for (k = -1; k <= 2; k++) { tk = (pi / 2 - 0.15 - phi + 2 * pi * k) / 20
            if (tk < 0 || tk > 0.5) continue
            j = int(tk / 1e-4 + 0.5) + 1; dt = tk - t[j]
            d = y[j] + v[j] * dt + ac[j] * dt * dt / 2 - r; if (d < 0) d = -d; if (d > w) w = d; c++ } }
        printf "%.3e %d\n", w / 0.01, c }')
read -r kw kc <<<"$kn"
echo "kin_cams: the spline at its $kc knot crossings within $kw of the 10 mm lift of its points' radii"
ok "kin_cams: the spline passes through its points (to 1e-8 of the lift, Taylor from the nearest row; $kw, $kc crossings)" \
   '[ "$kc" -ge 10 ] && le "$kw" 1e-8'

# ---- a roller larger than the cam on an offset follower (kin_cams' C7): the centre's distance
# from the profile by brute force (the smallest of 2000 angles, refined by ternary search; no
# Newton, no normal) equals the roller's radius, at every 10th row
csv '{ if ((NR - 2) % 10 == 0) print $col["fol7.C.x"] - 6, $col["fol7.C.y"], $col["cam7.phi"] }' "$T/kc.csv" | awk '
function prof(s) { return 0.04 + 0.008 * cos(s) + 0.002 * cos(2 * s) + 0.001 * sin(2 * s) }
function dist(s,   r) { r = prof(s); return sqrt((dx - r * cos(s)) ^ 2 + (dy - r * sin(s)) ^ 2) }
{ th = $3; dx = cos(th) * $1 + sin(th) * $2; dy = cos(th) * $2 - sin(th) * $1
  best = 1e9; for (i = 0; i < 2000; i++) { s = 2 * atan2(0, -1) * i / 2000; d = dist(s); if (d < best) { best = d; bs = s } }
  lo = bs - 0.004; hi = bs + 0.004
  for (k = 0; k < 80; k++) { m1 = lo + (hi - lo) / 3; m2 = hi - (hi - lo) / 3; if (dist(m1) < dist(m2)) hi = m2; else lo = m1 }
  e = dist((lo + hi) / 2) - 0.06; if (e < 0) e = -e; if (e > w) w = e
  a = (lo + hi) / 2 - atan2(dy, dx); while (a > 3.1416) a -= 6.2832; while (a < -3.1416) a += 6.2832; if (a < 0) a = -a; if (a > md) md = a }
END { printf "%.3e %.3f %d\n", w / 0.06, md, NR }' >"$T/r"
read -r b1 b2 nr <"$T/r"
echo "kin_cams: roller 0.06 on a 0.04 cam, offset follower: distance from the profile off the radius by $b1 of it (brute force, $nr rows; the contact angle up to $b2 rad from the centre's polar angle)"
ok "kin_cams: a roller larger than the cam, offset: its centre 0.06 from the profile to 1e-12 (got $b1)" '[ "$nr" -eq 501 ] && le "$b1" 1e-12'

# ---- models/valve_train.lua: a roller on r = a0 + a1 cos(psi) + a2 cos(2 psi) under a valve
# spring. The roller centre's lift, velocity, acceleration and the normal force
# N = (m ay + F(y)) / cos(phi) (phi the pressure angle: cos(phi) the normal's y component; F at
# the row's lift) at
# 500 rad/s over one turn against the long-double closed form; the jump speed
# w_jump = sqrt(min over alpha of F(rho) / (m (-rho''))) from the closed form at w = 1 (at the
# nose, alpha = 0, the scan says), against the speed at which C.normal at full lift (t = 0:
# linear in w^2 there) crosses zero between runs at 0.98 and 1.02 w_jump; the smallest normal
# force over a turn positive below w_jump and negative above.
VDATA='m = 0.1; k = 20000; l0 = 0.06; Hy = 0.09; s = 0.01; g = 9.81'
vref() { # W= N= H= vref: the closed form of valve_train's roller (rr = 0.01) from theta0 = pi/2
    "$BUILD/cam_roller_ref" 0.01 "$W" 1.5707963267948966 "$N" "$H" 0.025 2 0.005 0.0015 0 0
}
W=500 N=12000 H=1e-6 vref >"$T/vref" 2>"$T/e"
"$BUILD/valve_train_sim" --analysis kinematic --t-end 0.012 --h 1e-6 --out "$T/vt.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "valve_train: kinematic analysis runs (12001 rows)" '[ $rc -eq 0 ] && grep -q "outputs=12001" "$T/o"'
csv '{ print $col["follower.C.y"], $col["follower.vy"], $col["follower.ay"], $col["C.normal"] }' "$T/vt.csv" |
    paste -d' ' - "$T/vref" | awk "
function ab(x) { return x < 0 ? -x : x }
{ $VDATA; y = \$6; ay = \$8
  # the row's own lift in the spring's force: the kinematic Newton's stop (2.2e-14 m) times k
  # is 4.4e-10 N, 1.1e-12 of the peak (as cam_follower above): this isolates the multiplier
  N = (m * ay + m * g + k * (\$1 + s - Hy + l0)) / \$9
  e1 = ab(\$1 - y); e2 = ab(\$2 - \$7); e3 = ab(\$3 - ay); e4 = ab(\$4 - N)
  if (e1 > m1) m1 = e1; if (e2 > m2) m2 = e2; if (e3 > m3) m3 = e3; if (e4 > m4) m4 = e4
  if (ab(y) > ys) ys = ab(y); if (ab(\$7) > vs) vs = ab(\$7); if (ab(ay) > as) as = ab(ay); if (ab(N) > ns) ns = ab(N) }
END { printf \"%.3e %.3e %.3e %.3e %d\\n\", m1 / ys, m2 / vs, m3 / as, m4 / ns, NR }" >"$T/r"
read -r v1 v2 v3 v4 nr <"$T/r"
echo "valve_train at 500 rad/s: roller centre $v1 of its height, velocity $v2, acceleration $v3, normal force $v4 (of their peaks; $nr rows)"
ok "valve_train: roller centre rho(pi/2 - theta) to 1e-12 of its height (got $v1)" '[ "$nr" -eq 12001 ] && le "$v1" 1e-12'
ok "valve_train: velocity -w rho' to 1e-12 (got $v2)" 'le "$v2" 1e-12'
ok "valve_train: acceleration w^2 rho'' to 1e-12 (got $v3)" 'le "$v3" 1e-12'
ok "valve_train: C.normal = (m ay + m g + k compression) / cos(pressure angle) to 1e-12 of its peak (got $v4)" 'le "$v4" 1e-12'
# the jump criterion from the closed form at w = 1 (ay = rho''), one turn in 2^16 steps
W=1 N=65536 H=$(awk 'BEGIN { printf "%.17g", 2 * atan2(0, -1) / 65536 }') vref >"$T/vj" 2>"$T/e"
read -r vwj vat <<<"$(awk "{ $VDATA; F = m * g + k * (\$2 + s - Hy + l0)
  if (\$4 < 0) { r = F / (m * -\$4); if (!n || r < best) { best = r; at = \$1; n = 1 } } }
  END { printf \"%.17g %.6g\\n\", sqrt(best), at }" "$T/vj")"
echo "valve_train: closed-form jump speed $vwj rad/s (at the cam angle $vat rad from the nose)"
ok "valve_train: the jump starts at the nose (the criterion's minimum at alpha = 0: $vat)" 'awk "BEGIN { exit !($vat == 0) }"'
vnose() { # the normal force at full lift and the smallest over one turn at speed $1
    "$BUILD/valve_train_sim" --analysis kinematic --set "w=$1" --t-end "$(awk "BEGIN { printf \"%.17g\", 6.2832 / $1 }")" \
        --h 1e-6 --out "$T/vj.csv" >"$T/o" 2>"$T/e" || { echo nan nan; return; }
    csv '{ n = $col["C.normal"]; if (NR == 2) n0 = n; if (NR == 2 || n < lo) lo = n } END { printf "%.17g %.17g\n", n0, lo }' "$T/vj.csv"
}
w1=$(awk "BEGIN { printf \"%.17g\", 0.98 * $vwj }"); w2=$(awk "BEGIN { printf \"%.17g\", 1.02 * $vwj }")
read -r N1 L1 <<<"$(vnose "$w1")"; read -r N2 L2 <<<"$(vnose "$w2")"
echo "valve_train: normal force at full lift $N1 N at 0.98 w_jump, $N2 N at 1.02 w_jump; smallest over a turn $L1 N, $L2 N"
ok "valve_train: the roller stays on the cam below the jump speed (smallest C.normal > 0 at 0.98 w_jump: $L1)" \
   'awk "BEGIN { exit !($L1 > 0) }"'
ok "valve_train: it would leave above it (smallest C.normal < 0 at 1.02 w_jump: $L2)" 'awk "BEGIN { exit !($L2 < 0) }"'
wz=$(awk "BEGIN { w1 = $w1; w2 = $w2; z = w1 * w1 + (w2 * w2 - w1 * w1) * $N1 / ($N1 - ($N2)); printf \"%.17g\", sqrt(z) }")
jr=$(awk "BEGIN { d = ($wz - $vwj) / $vwj; if (d < 0) d = -d; printf \"%.3e\", d }")
echo "valve_train: jump speed from the reactions $wz rad/s, closed form $vwj rad/s: relative difference $jr"
ok "valve_train: the reactions' jump speed matches the closed form to 1e-12 (got $jr)" 'le "$jr" 1e-12'
# a dynamic run (the model's settings, one turn) keeps the roller on the offset curve
"$BUILD/valve_train_sim" --t-end 0.012 --out "$T/vtd.csv" >"$T/o" 2>"$T/e"; rc=$?
csv '{ print $col["t"], $col["follower.C.y"] }' "$T/vtd.csv" >"$T/vtd"
n=$(wc -l <"$T/vtd"); hd=$(awk 'NR == 2 { printf "%.17g", $1 } ' "$T/vtd")
W=500 N=$((n - 1)) H=$hd vref >"$T/vrefd" 2>"$T/e"
d1=$(paste -d' ' "$T/vtd" "$T/vrefd" | awk 'function ab(x) { return x < 0 ? -x : x }
  { if (ab($1 - $3) > 1e-12) bad = 1; e = ab($2 - $4); if (e > m) m = e } END { if (bad || NR < 2) print "nan"; else printf "%.3e\n", m / 0.01 }')
echo "valve_train dynamics (default settings, one turn): roller centre off the closed form by $d1 of the 10 mm lift"
ok "valve_train: a dynamic run follows the offset curve to 1e-9 of the lift (got $d1)" '[ $rc -eq 0 ] && [ "$d1" != nan ] && le "$d1" 1e-9'
# the generic evaluator (its own Newton for the contact angle, mb_generic.c: cam_roller_F)
# gives the same kinematics and normal force as the generated code
"$BUILD/valve_train_sim" --eval generic --analysis kinematic --t-end 0.012 --h 1e-6 --out "$T/vtg.csv" \
    >"$T/o" 2>"$T/e"; rc=$?
paste -d, "$T/vt.csv" "$T/vtg.csv" | awk -F, 'NR == 1 { n = NF / 2; for (i = 1; i <= n; i++) c[$i] = i; next }
  { for (j = 1; j <= 4; j++) { k = c[j == 1 ? "follower.C.y" : j == 2 ? "follower.vy" : j == 3 ? "follower.ay" : "C.normal"]
      x = $k - $(k + n); if (x < 0) x = -x; if (x > m[j]) m[j] = x; a = $k < 0 ? -$k : $k; if (a > s[j]) s[j] = a } }
  END { printf "%.3e %.3e %.3e %.3e\n", m[1] / s[1], m[2] / s[2], m[3] / s[3], m[4] / s[4] }' >"$T/r"
read -r e1 e2 e3 e4 <"$T/r"
echo "valve_train, generic vs generated evaluator: lift $e1, velocity $e2, acceleration $e3, normal force $e4 (of their peaks)"
ok "valve_train: --eval generic runs the kinematic analysis" '[ $rc -eq 0 ] && grep -q "outputs=12001" "$T/o"'
ok "valve_train: generic = generated to 1e-12 (lift, velocity, acceleration, C.normal: $e1 $e2 $e3 $e4)" \
   'le "$e1" 1e-12 && le "$e2" 1e-12 && le "$e3" 1e-12 && le "$e4" 1e-12'

# ---- a dynamic run keeps the follower on the profile
"$BUILD/cam_follower_sim" --t-end 0.009 --out "$T/dyn.csv" >"$T/o" 2>"$T/e"; rc=$?
csv "
function ab(x) { return x < 0 ? -x : x }
{ $DATA; e1 = ab(\$col[\"follower.P.y\"] - (a0 + e * cos(700 * \$col[\"t\"]))); if (e1 > m1) m1 = e1 }
END { printf \"%.3e\n\", m1 / (2 * e) }" "$T/dyn.csv" >"$T/r"
read -r d1 <"$T/r"
echo "cam_follower dynamics (default settings, one turn): lift off the closed form by $d1 of the stroke"
ok "cam_follower: a dynamic run follows the profile to 1e-9 of the stroke (got $d1)" '[ $rc -eq 0 ] && le "$d1" 1e-9'

# ---- a free cam flywheel (tests/models/cam_free.lua, 50 rad/s, no gravity, no damping): the
# cam's force does no work, so T + V is constant while the flywheel trades speed with the
# follower and its spring (the speed swings by about 2 rad/s: the cam acts)
"$BUILD/cam_free_sim" --formulation baumgarte --integrator dopri5 --rtol 1e-10 --atol 1e-12 \
    --out "$T/free.csv" >"$T/o" 2>"$T/e"; rc=$?
de=$(sed -n 's/.* max_energy_dev=\([^ ]*\).*/\1/p' "$T/o")
sw=$(csv '{ w = $col["cam.omega"]; if (NR == 2 || w < lo) lo = w; if (NR == 2 || w > hi) hi = w } END { printf "%.6g\n", hi - lo }' "$T/free.csv")
echo "cam_free (baumgarte, dopri5, rtol 1e-10): energy deviation ${de:-?} J of 2.5 J; the flywheel's speed swings by $sw rad/s"
ok "cam_free: the free run conserves T + V to 1e-9 J (got ${de:-none})" '[ $rc -eq 0 ] && [ -n "$de" ] && le "$de" 1e-9'
ok "cam_free: the cam acts (the flywheel's speed swings by more than 1 rad/s: $sw)" 'awk "BEGIN { exit !($sw > 1) }"'
"$BUILD/cam_free_sim" --out "$T/free4.csv" >"$T/o" 2>"$T/e"; rc=$?
de=$(sed -n 's/.* max_energy_dev=\([^ ]*\).*/\1/p' "$T/o")
echo "cam_free (alf-trapezoid, h = 1e-4): energy deviation ${de:-?} J"
ok "cam_free: alf-trapezoid at h = 1e-4 to 1e-4 J (second order; got ${de:-none})" '[ $rc -eq 0 ] && [ -n "$de" ] && le "$de" 1e-4'

# ---- the generic evaluator (evaluator/mb_generic.c, MB_GE_CAM) gives the same kinematics and
# normal force as the generated code; it refuses a profile given as a function (kin_cams' C3)
"$BUILD/cam_follower_sim" --eval generic --analysis kinematic --t-end 0.018 --h 1e-6 --out "$T/cfg.csv" \
    >"$T/o" 2>"$T/e"; rc=$?
paste -d, "$T/cf.csv" "$T/cfg.csv" | awk -F, 'NR == 1 { n = NF / 2; for (i = 1; i <= n; i++) c[$i] = i; next }
  { for (j = 1; j <= 4; j++) { k = c[j == 1 ? "follower.P.y" : j == 2 ? "follower.vy" : j == 3 ? "follower.ay" : "C.normal"]
      x = $k - $(k + n); if (x < 0) x = -x; if (x > m[j]) m[j] = x; a = $k < 0 ? -$k : $k; if (a > s[j]) s[j] = a } }
  END { printf "%.3e %.3e %.3e %.3e\n", m[1] / s[1], m[2] / s[2], m[3] / s[3], m[4] / s[4] }' >"$T/r"
read -r e1 e2 e3 e4 <"$T/r"
echo "cam_follower, generic vs generated evaluator: lift $e1, velocity $e2, acceleration $e3, normal force $e4 (of their peaks)"
ok "cam_follower: --eval generic runs the kinematic analysis" '[ $rc -eq 0 ] && grep -q "outputs=18001" "$T/o"'
ok "cam_follower: generic = generated to 1e-12 (lift, velocity, acceleration, C.normal: $e1 $e2 $e3 $e4)" \
   'le "$e1" 1e-12 && le "$e2" 1e-12 && le "$e3" 1e-12 && le "$e4" 1e-12'
"$BUILD/kin_cams_sim" --eval generic --t-end 0.001 >"$T/o" 2>"$T/e"; rc=$?
ok "kin_cams: --eval generic refused (exit 2: a profile function)" '[ $rc -eq 2 ] && grep -q "a cam profile given as a function" "$T/e"'
ok "kin_cams: its data file says why: a cam whose profile is a function (cam \"C3\")" \
   'grep -q "The model has a cam whose profile is a function (cam \"C3\")" "$BUILD/gen_test/kin_cams_data.c"'

# ---- the energy warning's advice on a driven cam under a large penalty: the positions do not
# move with alpha, the drivers' work does, so the advice names --alpha (a smaller --h is worse)
"$BUILD/cam_follower_sim" --alpha 1e8 --h 1e-4 --out "$T/a8.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "cam_follower --alpha 1e8: the energy warning points to --alpha" \
   '[ $rc -eq 0 ] && grep -q "warning: energy: .*try --alpha 1e4 to 1e6 (now 1e+08)" "$T/e"'
"$BUILD/cam_follower_sim" --h 1e-4 --out "$T/a4.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "cam_follower at its own alpha: no energy warning" '[ $rc -eq 0 ] && ! grep -q "warning: energy" "$T/e"'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
