#!/usr/bin/env bash
# test_walker.sh - the Jansen walker walks (models/walker.lua, its run settings: 10 s):
#  - the frame advances by a positive distance every crank turn (turns 1 to 5, x at the times
#    the crank has turned a whole number of turns), the same within 2 % on turns 2 to 5 (steady
#    walking after the start-up);
#  - the distance per turn agrees with the legs' geometry: within 20 % of twice the foot's
#    stride, the span in x of foot L1 relative to the frame over those turns (two feet push on
#    each side per turn; what the feet roll and slip makes up the rest);
#  - the frame stays upright (|phi| < 0.05 rad) and up (its axle above 0.85 m: it never falls);
#  - the motor's energy goes in and the balance closes (no warning from the simulator);
#  - the figure is the integration's limit, not its error: baumgarte with dop853 at rtol 1e-6
#    (its steps cut at each foot's touch and lift-off: events) gives the same distance on turns
#    2 and 3 to 1e-4.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/test_walker.XXXXXX"); trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
le() { awk "BEGIN { exit !($1 <= $2) }"; }
[ -x "$BUILD/walker_sim" ] || { echo "FAIL: $BUILD/walker_sim missing" >&2; echo "0 passed, 1 failed"; exit 1; }

"$BUILD/walker_sim" --every 10 --out "$T/w.csv" >"$T/o" 2>"$T/e"; rc=$?
ok "walker: the run (exit $rc: $(tail -n 2 "$T/e"))" '[ $rc -eq 0 ] && grep -q "status=ok" "$T/o"'
ok "walker: no warning: $(grep -o 'warnings=[0-9]*' "$T/o")" 'grep -q "warnings=0" "$T/o"'

turns() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; k = 1; next }
{
    t = $col["t"]; x = $col["frame.x"]; n = $col["out.crank_turns"]; p = $col["frame.phi"]
    y = $col["frame.y"]
    if (p < 0) p = -p; if (p > pmax) pmax = p
    if (NR == 2 || y < ymin) ymin = y
    while (NR > 2 && n0 < k && k <= n) { X[k] = x0 + (k - n0) / (n - n0) * (x - x0); k++ }
    if (n >= 1 && n <= 5) {   # the foot in the frame axes
        c = cos($col["frame.phi"]); s = sin($col["frame.phi"])
        fx = c * ($col["lowL1.G.x"] - x) + s * ($col["lowL1.G.y"] - y)
        if (!seen || fx < fmin) fmin = fx; if (!seen || fx > fmax) fmax = fx; seen = 1
    }
    x0 = x; n0 = n
}
END {
    X[0] = 0
    for (i = 1; i < k; i++) printf "%.6f ", X[i] - X[i - 1]; printf "\n"
    printf "%d %.6f %.6f %.6f\n", k - 1, pmax, ymin, fmax - fmin
}' "$1"; }
turns "$T/w.csv" >"$T/r"
read -r -a D < "$T/r"
read -r nturn pmax ymin stride < <(sed -n 2p "$T/r")
echo "walker: distance per crank turn ${D[*]} m; stride $stride m; max |phi| $pmax rad; lowest axle $ymin m"
ok "walker: five crank turns in 10 s ($nturn)" '[ "$nturn" -ge 5 ]'
allpos=1; for d in "${D[@]}"; do le "$d" 0 && allpos=0; done
ok "walker: it walks forward every turn (${D[*]})" '[ "$allpos" -eq 1 ]'
mean=$(awk -v a="${D[1]:-0}" -v b="${D[2]:-0}" -v c="${D[3]:-0}" -v d="${D[4]:-0}" 'BEGIN { printf "%.6f", (a + b + c + d) / 4 }')
steady=1; for i in 1 2 3 4; do awk -v d="${D[$i]:-0}" -v m="$mean" 'BEGIN { exit !(d > 0.98 * m && d < 1.02 * m) }' || steady=0; done
ok "walker: steady on turns 2..5 (each within 2 % of their mean $mean m)" '[ "$steady" -eq 1 ]'
ok "walker: $mean m per turn within 20 % of twice the stride $stride m" \
   'awk -v m="$mean" -v s="$stride" "BEGIN { exit !(m > 1.6 * s && m < 2.4 * s) }"'
ok "walker: upright (max |phi| $pmax < 0.05 rad)" 'le "$pmax" 0.05'
ok "walker: up (lowest axle $ymin > 0.85 m)" 'le 0.85 "$ymin"'
"$BUILD/walker_sim" --formulation baumgarte --integrator dop853 --rtol 1e-6 --t-end 6 --out "$T/a.csv" >"$T/o2" 2>"$T/e2"; rc=$?
ok "walker: the adaptive run (exit $rc: $(tail -n 2 "$T/e2"))" '[ $rc -eq 0 ] && grep -q "status=ok" "$T/o2" && grep -q " events=[1-9]" "$T/o2"'
read -r -a A < <(turns "$T/a.csv" | head -n 1)
echo "walker: dop853 rtol 1e-6: ${A[*]} m per turn ($(grep -o ' events=[0-9]*' "$T/o2" | tail -n 1))"
ok "walker: dop853 agrees on turns 2 and 3 (${A[1]:-?} ${A[2]:-?} against ${D[1]} ${D[2]}, 1e-4)" \
   'awk -v a="${A[1]:-0}" -v b="${A[2]:-0}" -v c="${D[1]}" -v d="${D[2]}" "BEGIN { x = a / c - 1; y = b / d - 1; exit !(x < 1e-4 && x > -1e-4 && y < 1e-4 && y > -1e-4) }"'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
