#!/usr/bin/env bash
# test_particles.sh - particles and rods (issue 12, item 4; docs/model-language.md) through the
# point-mass pendulum's simulator (tests/models/point_pendulum.lua):
#  - the period against the exact T = 4 sqrt(L / g) K(sin(theta0 / 2)), K computed here by the
#    arithmetic-geometric mean, in every formulation (from the times P.x crosses 0);
#  - the rod's tension column against m g (3 cos theta - 2 cos theta0) (energy conservation);
#  - the CSV has 2 coordinates for the particle (P.x, P.y, P.vx, P.vy; no P.phi, P.omega);
#  - the generic evaluator (--eval generic) gives the same period;
#  - a negative control: a wrong length in the closed form is detected.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
S=$BUILD/point_pendulum_sim
T=$(mktemp -d "${TMPDIR:-/tmp}/test_particles.XXXXXX"); trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 < b + 0) }'; }
[ -x "$S" ] || { echo "FAIL: $S missing" >&2; echo "0 passed, 1 failed"; exit 1; }

# the exact period, L = 1, g = 9.81, theta0 = pi / 3 (the model's data): K(k) = pi / (2 AGM(1, k'))
period() {   # period L
    awk -v L="$1" 'BEGIN { pi = atan2(0, -1); g = 9.81; k = sin(pi / 6); a = 1; b = sqrt(1 - k * k)
        for (i = 0; i < 30; i++) { an = (a + b) / 2; b = sqrt(a * b); a = an }
        printf "%.15g", 4 * sqrt(L / g) * pi / (2 * a) }'
}
TX=$(period 1)
echo "exact period (AGM): $TX s"
ok "the exact period is 2.1529 s (K(1/2) = 1.685750354812596)" \
   'awk -v t="$TX" "BEGIN { k = 1.685750354812596; e = t - 4 * sqrt(1 / 9.81) * k; exit !(e < 1e-12 && e > -1e-12) }"'

# measured period: the first and fifth crossings of P.x through 0 (linear interpolation), two periods apart
measured() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "P.x") c = i; next }
             { t = $1; x = $c; if (NR > 2 && (x < 0) != (xp < 0)) { n++; tc[n] = tp + (t - tp) * xp / (xp - x) }
               tp = t; xp = x }
             END { if (n < 5) print "nan"; else printf "%.15g", (tc[5] - tc[1]) / 2 }' "$1"
}
for f in baumgarte canonical alf-explicit alf-trapezoid; do
    "$S" --formulation $f --h 1e-3 --t-end 7 --out "$T/$f.csv" --quiet >"$T/o" 2>"$T/e"
    ok "$f runs (exit 0)" '[ $? -eq 0 ]'
    tm=$(measured "$T/$f.csv")
    rel=$(awk -v a="$tm" -v b="$TX" 'BEGIN { d = (a - b) / b; printf "%.3e", d < 0 ? -d : d }')
    echo "$f: period $tm s, relative error $rel"
    ok "$f: period within 1e-5 of the exact one (got $rel)" 'lt "$rel" 1e-5'
    # negative control: against the period of a 1 % longer rod the same data must fail
    rel2=$(awk -v a="$tm" -v b="$(period 1.01)" 'BEGIN { d = (a - b) / b; printf "%.3e", d < 0 ? -d : d }')
    ok "$f: control, the period of L = 1.01 m is rejected (error $rel2)" '! lt "$rel2" 1e-5'
    # tension = m g (3 cos theta - 2 cos theta0), cos theta = -P.y / L, at every row
    te=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
         { m = 1.5; g = 9.81; w = m * g * (3 * (-$c["P.y"]) - 2 * 0.5); d = $c["R.tension"] - w
           if (d < 0) d = -d; if (d > e) e = d } END { printf "%.3e", e / (m * g) }' "$T/$f.csv")
    ok "$f: rod tension within 1e-4 m g of the closed form (got $te)" 'lt "$te" 1e-4'
done
ok "CSV columns: P.x, P.y, P.vx, P.vy, P.ax, P.ay, R.tension and no P.phi, P.omega" \
   'head -1 "$T/canonical.csv" | grep -q "^t,P.x,P.y,energy_dev,.*,P.vx,P.vy,P.ax,P.ay,R.tension$" &&
    ! head -1 "$T/canonical.csv" | grep -q "P.phi\|P.omega\|P.alpha"'

# the generic evaluator (evaluator/mb_generic.c: particles through body_q, the rod kind): the
# same period
"$S" --eval generic --formulation canonical --h 1e-3 --t-end 7 --out "$T/g.csv" --quiet >"$T/o" 2>"$T/e"
ok "--eval generic runs (exit 0)" '[ $? -eq 0 ] && grep -q "^status=ok" "$T/o"'
tg=$(measured "$T/g.csv")
rel=$(awk -v a="$tg" -v b="$TX" 'BEGIN { d = (a - b) / b; printf "%.3e", d < 0 ? -d : d }')
echo "canonical, generic evaluator: period $tg s, relative error $rel"
ok "--eval generic: period within 1e-5 of the exact one (got $rel)" 'lt "$rel" 1e-5'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
