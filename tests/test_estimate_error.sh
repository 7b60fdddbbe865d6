#!/usr/bin/env bash
# test_estimate_error.sh - --estimate-error and --max-error (issue 29, item 3): the second run's
# differences against the actual error of the first run (the pendulum against a dop853 run at
# rtol 1e-12), for a fixed step (rk4, the trapezoid: half the step) and adaptive runs (dopri5,
# bdf: a tenth of the tolerances); --max-error's exit status; the first run unchanged by the
# option; refused where it has no effect. Ends with "N passed, N failed".
# Usage: tests/test_estimate_error.sh   (BUILD=build/san for the sanitizer builds)
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
PE=$BUILD/pendulum_sim
T=$(mktemp -d "${TMPDIR:-/tmp}/test_estimate_error.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
[ -x "$PE" ] || { echo "FAIL: $PE missing" >&2; echo "0 passed, 1 failed"; exit 1; }
kv() { tr ' ' '\n' <"$T/out" | sed -n "s/^$1=//p"; }
sim() { timeout 300 "$PE" "$@" --quiet >"$T/out" 2>"$T/err"; rc=$?; }
# qdiff A.csv B.csv: the largest |A - B| over the coordinate columns (after t, up to energy_dev)
# at the rows of equal t
qdiff() {
    awk -F, 'FNR == 1 { for (i = 2; i <= NF && $i != "energy_dev"; i++) nq = i; next }
        NF < 3 { next }
        FILENAME == ARGV[1] { for (i = 2; i <= nq; i++) R[sprintf("%.6f", $1), i] = $i; next }
        { k = sprintf("%.6f", $1); if (!((k, 2) in R)) next; n++
          for (i = 2; i <= nq; i++) { d = $i - R[k, i]; if (d < 0) d = -d; if (d > m) m = d } }
        END { printf "%.3e", n ? m : -1 }' "$1" "$2"
}
within() { awk -v a="$1" -v b="$2" -v lo="$3" -v hi="$4" 'BEGIN { r = a / b; exit !(b > 0 && r >= lo && r <= hi) }'; }

TE=20
sim --formulation baumgarte --integrator dop853 --rtol 1e-12 --atol 1e-12 --t-end $TE --every 0.1 --out "$T/ref.csv"
ok "reference (dop853 rtol 1e-12): ok" '[ $rc -eq 0 ]'

# the estimate against the actual error: h / 2 leaves 1 - 2^-p of the error (rk4 0.94, the
# trapezoid 0.75); a tenth of the tolerance 1 - 10^-s (s the slope of error against rtol)
while IFS='|' read -r what args lo hi; do
    # shellcheck disable=SC2086
    sim $args --t-end $TE --estimate-error --out "$T/x.csv"
    est=$(kv est_err_q) act=$(qdiff "$T/ref.csv" "$T/x.csv")
    ok "$what: est_err_q $est against the actual $act (ratio in [$lo, $hi])" \
       '[ $rc -eq 0 ] && within "$est" "$act" '"$lo $hi"
    ok "$what: est_err_v, est_err_r and est_steps reported ($(kv est_err_v), $(kv est_err_r), $(kv est_steps))" \
       '[ -n "$(kv est_err_v)" ] && [ -n "$(kv est_err_r)" ] && [ "$(kv est_steps)" -gt 0 ]'
done <<'EOF'
baumgarte rk4 h = 2e-3|--formulation baumgarte --h 2e-3 --every 50|0.7|1.3
alf-trapezoid h = 1e-3|--h 1e-3 --every 100|0.6|1.2
baumgarte dopri5 rtol 1e-6|--formulation baumgarte --integrator dopri5 --rtol 1e-6 --atol 1e-6 --every 0.1|0.5|2
alf-trapezoid bdf rtol 1e-6|--integrator bdf --rtol 1e-6 --atol 1e-6 --every 0.1|0.3|3
EOF

# fixed steps: the second run takes twice the steps; the first run is the same with or without
sim --formulation baumgarte --h 2e-3 --every 50 --t-end $TE --out "$T/a.csv"
s1=$(kv steps) o1=$(cut -d' ' -f1-21 "$T/out")
ok "without --estimate-error: no est_ field in the summary" '! grep -q "est_" "$T/out"'
sim --formulation baumgarte --h 2e-3 --every 50 --t-end $TE --estimate-error --out "$T/b.csv"
ok "with it: the second run takes twice the steps ($(kv est_steps) = 2 x $s1)" '[ "$(kv est_steps)" -eq $((2 * s1)) ]'
ok "with it: the first run's CSV is the same file" 'cmp -s "$T/a.csv" "$T/b.csv"'
ok "with it: the first run's counters are the same" '[ "$(cut -d" " -f1-21 "$T/out")" = "$o1" ]'
sim --formulation baumgarte --integrator dopri5 --rtol 1e-6 --atol 1e-6 --every 0.1 --t-end $TE --out "$T/a.csv"
sim --formulation baumgarte --integrator dopri5 --rtol 1e-6 --atol 1e-6 --every 0.1 --t-end $TE --out "$T/b.csv" --estimate-error
ok "dopri5 with it: the first run's CSV is the same file" 'cmp -s "$T/a.csv" "$T/b.csv"'
sim --formulation baumgarte --integrator dopri5 --rtol 1e-6 --atol 1e-6 --every 0.1 --t-end $TE --estimate-error
ok "dopri5 without --out: the estimate all the same ($(kv est_err_q))" '[ $rc -eq 0 ] && [ -n "$(kv est_err_q)" ]'

# --max-error: met (exit 0) and exceeded (exit 1, named), the run itself ok either way
sim --formulation baumgarte --h 2e-3 --t-end $TE --estimate-error
est=$(kv est_err_q)
big=$(awk -v e="$est" 'BEGIN { printf "%.3e", 10 * e }') small=$(awk -v e="$est" 'BEGIN { printf "%.3e", e / 10 }')
sim --formulation baumgarte --h 2e-3 --t-end $TE --max-error "$big"
ok "--max-error $big (10 x the estimate): exit 0, max_error=met (rc $rc)" '[ $rc -eq 0 ] && [ "$(kv max_error)" = met ] && [ "$(kv est_err_q)" = "$est" ]'
sim --formulation baumgarte --h 2e-3 --t-end $TE --max-error "$small"
ok "--max-error $small (a tenth of it): exit 1, max_error=exceeded, status=ok, named on stderr (rc $rc)" \
   '[ $rc -eq 1 ] && [ "$(kv max_error)" = exceeded ] && [ "$(kv status)" = ok ] && grep -q -- "--max-error.*estimated position error is larger" "$T/err"'
sim --formulation baumgarte --h 2e-3 --t-end $TE --max-error 0
ok "--max-error 0: a usage error (exit 2)" '[ $rc -eq 2 ]'
sim --analysis static --estimate-error
ok "--analysis static --estimate-error: refused (exit 2)" '[ $rc -eq 2 ] && grep -q -- "--estimate-error has no effect" "$T/err"'

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
