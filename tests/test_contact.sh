#!/usr/bin/env bash
# test_contact.sh - contact with friction against closed forms (docs/model-language.md, "Contact
# with friction"; docs/validation.md, section 11). Adaptive dop853 at rtol 1e-10 resolves each impact
# by error control (no event location: see the docs); rows every 1e-4 s from its dense output.
#  - tests/models/ball_drop.lua, no gravity (ball_throw): a ball thrown at the ground at v0 leaves
#    at e(v0) v0, e from the Hunt-Crossley relation s - ln(1 + s) = -e s - ln(1 - e s), s = d v0,
#    exact for this force law: to 1e-8;
#  - dropped from 1 m (ball_drop, k = 4.87e10: Hertz, steel): each flight's apex H_i (from any free-flight row,
#    H = gap + vy^2 / (2 g)) against H_{i+1} = e(v_i)^2 H_i, v_i = sqrt(2 g H_i), to 1e-3
#    relative, and the energy lost per impact against m g H_i (1 - e_i^2) to 1e-3 of it; the
#    softer contact (k = 1e8) misses by gravity's share during the contact, m g / F_max, whose
#    scaling k^-0.4 the two runs show (a ratio of 487^0.4 = 11.9 within 20 %);
#  - tests/models/impact_throw.lua: model = "impact" with exponent 1 and a ramp depth 7e-7 of the
#    penetration is the linear dashpot k x + c x' clamped at 0: thrown without gravity, the ball
#    leaves where the force reaches 0, at e = exp(-beta t_s), beta = c / (2 m),
#    w = sqrt(k / m - beta^2), w t_s = pi - atan2(2 beta w, w^2 - beta^2) (x = (v0 / w)
#    e^(-beta t) sin(w t); k x + c x' = 0 there, and x'(t_s) = -v0 e^(-beta t_s)): to 1e-5
#    (the unclamped dashpot's exp(-beta pi / w) = 0.351 instead of 0.435: the clamp is seen);
#  - tests/models/two_balls.lua: two free balls (1 kg at 3 m/s, 2 kg at rest) collide, circle on
#    circle: momentum kept to 1e-12, separation at e(3 m/s) 3 m/s = 2.1 m/s (the relation with the
#    reduced mass) to 1e-8;
#  - tests/models/incline_contact.lua: tan theta = 0.4 < mu_s = 0.5: the block creeps at the v_c
#    where mu(v_c) = tan theta, below v_stick; tan theta = 0.7 > mu_s: it slides with the
#    acceleration -g (sin theta - mu_d cos theta) to 1e-6 once its speed is 1000 v_stick;
#  - tests/models/rolling_disc.lua: slip falls at 3 mu g, pure rolling at t* = v0 / (3 mu g),
#    then v = 2 v0 / 3;
#  - models/bouncing_ball.lua at its own run settings (alf-trapezoid, fixed h = 1e-5) and in
#    baumgarte (rk4): through the first bounce, rolling after it at the speed its angular
#    momentum about the contact point gives, r (m r v0 - J w0) / (J + m r^2) = 0.3 m/s.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/test_contact.XXXXXX"); trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
for b in ball_drop ball_drop_soft ball_flipped bouncing_stiff ball_throw impact_throw two_balls incline_stick incline_slide rolling_disc bouncing_ball; do
    [ -x "$BUILD/${b}_sim" ] || { echo "FAIL: $BUILD/${b}_sim missing" >&2; echo "0 passed, 1 failed"; exit 1; }
done
le() { awk "BEGIN { exit !($1 <= $2) }"; }
run() { "$BUILD/$1_sim" --formulation baumgarte --integrator dop853 --rtol 1e-10 --atol 1e-12 \
        --every 1e-4 --quiet --out "$T/$1.csv" "${@:2}" >"$T/$1.o" 2>"$T/$1.e"; }
# awk over a CSV with columns by name: col["ball.vy"]
csv() { awk -F, "NR == 1 { for (i = 1; i <= NF; i++) col[\$i] = i; next } $1" "$2"; }
# the restitution relation, solved by bisection (independent of the generator's Lua):
# hc_s(e): s = d v of restitution e; hc_e(s): the restitution at s
HC='function l1(s) { return s - log(1 + s) }
function l2(w) { return -w - log(1 - w) }
function hc_s(e,   lo, hi, m, i) { lo = 0; hi = 1 / e; for (i = 0; i < 200; i++) { m = (lo + hi) / 2; if (l1(m) - l2(e * m) > 0) lo = m; else hi = m } return (lo + hi) / 2 }
function hc_e(s,   lo, hi, m, i) { lo = 0; hi = s > 1 ? 1 / s : 1; for (i = 0; i < 200; i++) { m = (lo + hi) / 2; if (l1(s) - l2(m * s) > 0) lo = m; else hi = m } return (lo + hi) / 2 }
function ab(x) { return x < 0 ? -x : x }'
VREF=4.4294469180700204   # sqrt(2 g 1 m): the models' restitution 0.8 holds at this speed

# ---- thrown at the ground without gravity: the exact relation
run ball_throw --t-end 0.4; rc=$?
ok "ball_throw: runs" '[ $rc -eq 0 ]'
csv "$HC"'
NR == 2 { v0 = -$col["ball.vy"] } { vy = $col["ball.vy"] }
END { d = hc_s(0.8) / '$VREF'; e = hc_e(d * v0); printf "%.3e %.12f %.12f\n", ab(vy / v0 - e) / e, vy / v0, e }' \
    "$T/ball_throw.csv" >"$T/r"
read -r err got want <"$T/r"
echo "ball_throw: out/in speed $got, Hunt-Crossley relation $want (relative error $err)"
ok "ball_throw: rebound speed = e(v0) v0 of the closed form to 1e-8 (got $err)" 'le "$err" 1e-8'

# ---- dropped: apex heights and the energy lost per impact
apex() { csv "$HC"'
{ gap = $col["out.floor.gap"]; vy = $col["ball.vy"]
  E = 0.5 * ($col["ball.vx"] ^ 2 + vy ^ 2) + 0.5 * 0.004 * $col["ball.omega"] ^ 2 + 9.81 * $col["ball.y"] }
gap > 0 && !fl { fl = 1; n++; H[n] = gap + vy * vy / (2 * 9.81); E0[n] = E }
gap <= 0 { fl = 0 }
END { d = hc_s(0.8) / '$VREF'; eh = 0; ee = 0
      for (i = 1; i < n; i++) { v = sqrt(2 * 9.81 * H[i]); e = hc_e(d * v)
        r = ab(H[i + 1] / (e * e * H[i]) - 1); if (r > eh) eh = r
        lost = 9.81 * H[i] * (1 - e * e); r = ab((E0[i] - E0[i + 1]) / lost - 1); if (r > ee) ee = r }
      printf "%d %.3e %.3e %.9f\n", n, eh, ee, H[2] }' "$1"; }
run ball_drop --t-end 3; rc=$?
run ball_drop_soft --t-end 3; rc2=$?
ok "ball_drop: both stiffnesses run" '[ $rc -eq 0 ] && [ $rc2 -eq 0 ]'
apex "$T/ball_drop.csv" >"$T/r"; read -r n eh ee h2 <"$T/r"
apex "$T/ball_drop_soft.csv" >"$T/r"; read -r ns ehs ees h2s <"$T/r"
echo "ball_drop k=4.87e10: $n flights, apex heights vs e(v)^2 H worst $eh, energy lost per impact worst $ee (H2 = $h2 m)"
echo "ball_drop k=1e8: $ns flights, apex heights worst $ehs, energy lost worst $ees (H2 = $h2s m)"
ok "ball_drop: 6 flights in 3 s" '[ "$n" -eq 6 ] && [ "$ns" -eq 6 ]'
ok "ball_drop (k = 4.87e10): apex heights = e(v)^2 H to 1e-3 (got $eh)" 'le "$eh" 1e-3'
ok "ball_drop (k = 4.87e10): energy lost per impact = m g H (1 - e^2) to 1e-3 (got $ee)" 'le "$ee" 1e-3'
ok "ball_drop: the softer contact's error is gravity's share, k^-0.4: ratio 11.9 within 20 % (got $ehs / $eh)" \
   'awk "BEGIN { r = $ehs / $eh; exit !(r > 11.9 * 0.8 && r < 11.9 * 1.2) }"'
ok "ball_drop: the energy monitor balances the contact's work (max |energy_dev| <= 1e-4 J of the 10.8 J)" \
   'grep -q "max_energy_dev=" "$T/ball_drop.o" && le "$(sed -n "s/.*max_energy_dev=\([^ ]*\).*/\1/p" "$T/ball_drop.o")" 1e-4'

# ---- ADAMS IMPACT as a clamped linear dashpot
run impact_throw --t-end 0.1; rc=$?
ok "impact_throw: runs" '[ $rc -eq 0 ]'
csv '
NR == 2 { v0 = -$col["ball.vy"] } { vy = $col["ball.vy"] }
END { m = 1; k = 1e7; c = 2000; b = c / (2 * m); w = sqrt(k / m - b * b); pi = atan2(0, -1)
      ts = (pi - atan2(2 * b * w, w * w - b * b)) / w; e = exp(-b * ts); r = (vy / v0 - e) / e
      printf "%.3e %.12f %.12f %.12f\n", r < 0 ? -r : r, vy / v0, e, exp(-b * pi / w) }' "$T/impact_throw.csv" >"$T/r"
read -r err got want free <"$T/r"
echo "impact_throw: out/in speed $got, clamped dashpot $want (relative error $err; unclamped $free)"
ok "impact_throw: rebound = the clamped dashpot's e v0 to 1e-5 (got $err)" 'le "$err" 1e-5'

# ---- two moving balls, circle on circle
run two_balls --t-end 0.2; rc=$?
ok "two_balls: runs" '[ $rc -eq 0 ]'
csv '
function ab(x) { return x < 0 ? -x : x }
{ va = $col["a.vx"]; vb = $col["b.vx"]; p = va + 2 * vb; e = ab(p - 3); if (e > pm) pm = e }
END { printf "%.3e %.3e %.12f %.12f\n", pm / 3, ab((vb - va) / 2.1 - 1), va, vb }' "$T/two_balls.csv" >"$T/r"
read -r pm er va vb <"$T/r"
echo "two_balls: momentum drift $pm relative; separation speed vs 0.7 x 3 m/s $er (v_a $va, v_b $vb m/s)"
ok "two_balls: momentum kept to 1e-12 (got $pm)" 'le "$pm" 1e-12'
ok "two_balls: separation at e v_rel = 2.1 m/s to 1e-8 (got $er)" 'le "$er" 1e-8'

# ---- the block on the incline; mu(s) of the Brown-McPhee curve
MU='function th(x) { return (exp(2 * x) - 1) / (exp(2 * x) + 1) }
function mu(s,  w) { w = s / 1e-3; return 0.3 * th(4 * w) + 0.2 * w / (w * w / 4 + 0.75) ^ 2 }
function ab(x) { return x < 0 ? -x : x }'
run incline_stick --t-end 1; rc=$?
ok "incline_stick: runs" '[ $rc -eq 0 ]'
csv "$MU"'
{ v = $col["block.vx"]; t = $col["t"] } t >= 0.5 { if (ab(v) > vmax) vmax = ab(v); if (ab(v) < vmin || vmin == "") vmin = ab(v) }
END { lo = 0; hi = 1e-3; for (i = 0; i < 200; i++) { m = (lo + hi) / 2; if (mu(m) < 0.4) lo = m; else hi = m }
      printf "%.6e %.6e %.6e\n", vmin, vmax, lo }' "$T/incline_stick.csv" >"$T/r"
read -r vmin vmax vc <"$T/r"
echo "incline tan = 0.4 < mu_s: creep speed $vmin .. $vmax m/s over 0.5 .. 1 s; closed form mu(v_c) = tan theta: v_c = $vc m/s (v_stick 1e-3)"
ok "incline_stick: creeps at v_c (mu(v_c) = tan theta) to 1e-6 relative, below v_stick" \
   'awk "BEGIN { exit !(($vmax - $vc) / $vc <= 1e-6 && ($vc - $vmin) / $vc <= 1e-6 && $vc < 1e-3) }"'
run incline_slide --t-end 1; rc=$?
ok "incline_slide: runs" '[ $rc -eq 0 ]'
csv "$MU"'
{ ang = atan2(0.7, 1); a = $col["block.ax"]; v = $col["block.vx"]
  if (ab(v) > 1) { want = -9.81 * (sin(ang) - 0.3 * cos(ang)); e = ab(a / want - 1); if (e > emax) emax = e; n++ } }
END { printf "%.3e %d\n", emax, n }' "$T/incline_slide.csv" >"$T/r"
read -r ea na <"$T/r"
echo "incline tan = 0.7 > mu_s: acceleration vs -g (sin - mu_d cos) worst $ea over $na rows at |v| > 1 m/s"
ok "incline_slide: slides, acceleration = -g (sin theta - mu_d cos theta) to 1e-6 (got $ea over $na rows)" \
   '[ "$na" -gt 100 ] && le "$ea" 1e-6'

# ---- the rolling disc
run rolling_disc --t-end 0.5; rc=$?
ok "rolling_disc: runs" '[ $rc -eq 0 ]'
csv '
function ab(x) { return x < 0 ? -x : x }
{ t = $col["t"]; s = $col["out.floor.slip"]; v = $col["disc.vx"] }
s > 1e-2 { t1 = t }   # the last row still sliding at 100 v_stick
END { ts = 3 / (3 * 0.4 * 9.81); want = ts - 1e-2 / (3 * 0.4 * 9.81)
      printf "%.6f %.6f %.3e %.3e\n", t1, ts, ab(t1 - want), ab(v / 2 - 1) }' "$T/rolling_disc.csv" >"$T/r"
read -r t1 ts et ev <"$T/r"
echo "rolling disc: slip down to 100 v_stick at $t1 s (closed form $ts s less 1e-2 / (3 mu g): off by $et s); final speed vs 2 v0 / 3: $ev"
ok "rolling_disc: slip reaches 100 v_stick at the closed-form time to 2e-4 s (one row; got $et)" 'le "$et" 2e-4'
ok "rolling_disc: rolls on at 2 v0 / 3 to 1e-3 (got $ev)" 'le "$ev" 1e-3'

# ---- the shipped model at its run settings (fixed steps) and in rk4
for form in "" baumgarte; do
    "$BUILD/bouncing_ball_sim" ${form:+--formulation $form} --t-end 1 --quiet --every 100 \
        --out "$T/bb.csv" >"$T/bb.o" 2>"$T/bb.e"; rc=$?
    csv '
function ab(x) { return x < 0 ? -x : x }
{ vx = $col["ball.vx"]; s = $col["out.floor.slip"]; if ($col["ball.vy"] > 0) up = 1 }
END { printf "%.3e %.3e %d\n", ab(vx / 0.3 - 1), ab(s), up }' "$T/bb.csv" >"$T/r" 2>/dev/null
    read -r ev es up <"$T/r"
    echo "bouncing_ball (${form:-its run settings}): bounced $up, vx after it vs 0.3 m/s $ev, slip $es m/s"
    ok "bouncing_ball (${form:-its run settings}): runs through the first bounce and rolls at 0.3 m/s to 1e-9 (got $ev, slip $es)" \
       '[ $rc -eq 0 ] && [ "$up" = 1 ] && le "$ev" 1e-9 && le "$es" 1e-9'
done

# ---- what the simulator says about a contact: a start deep inside (ball_drop with its line's
# direction flipped: the ball is 1.2 m on the inner side) is a note naming the contact, a start
# outside is not; a fixed implicit step that diverges on a stiff contact (bouncing_ball at
# k = 1e8, v_stick = 1e-3) names the touching contact and what to do
"$BUILD/ball_flipped_sim" --t-end 1e-3 --out "$T/f.csv" >"$T/o" 2>"$T/e"
ok "a contact starting 1.2 m inside: a note naming it" \
   'grep -q "^ball_flipped_sim: note: contact \"floor\" starts 1.2 m inside (gap -1.2 m at t = 0" "$T/e"'
"$BUILD/ball_drop_sim" --t-end 1e-3 --out "$T/f.csv" >"$T/o" 2>"$T/e"
ok "a contact starting apart: no note" '! grep -q "note: contact" "$T/e"'
"$BUILD/bouncing_stiff_sim" --out "$T/f.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "Newton diverging at a stiff contact: the fault names the contact and the remedy (rc $rc)" \
   '[ $rc -eq 1 ] && grep -q "Newton iteration diverged.*; contact \"floor\" is touching (gap -[0-9.e-]* m at the last good step): .*an adaptive run (--rtol 1e-6, or --integrator bdf --rtol 1e-6) cuts the step where Newton fails$" "$T/e"'
"$BUILD/bouncing_stiff_sim" --rtol 1e-6 --t-end 1 --out "$T/f.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "the remedy works: the adaptive trapezoid through the stiff contact (rc $rc)" '[ $rc -eq 0 ] && grep -q "^status=ok" "$T/o"'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
