#!/usr/bin/env bash
# test_runtime_cli.sh - the simulator's contract: option errors exit 2 with a message, a runtime
# fault exits 1 naming status and time while the CSV written so far stays valid, no temp files
# are left, every run ends with one summary line. Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}   # build/san: the sanitizer builds (make test-san)
SIM=$BUILD/fixture_pendulum_sim
FB=$BUILD/fourbar_singular_sim
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }

for a in "--h -1" "--h nan" "--h 0" "--t-end -5" "--rtol 0" "--atol -1" "--tol 0" "--every 0" \
         "--max-iter 0" "--xi -1" "--alpha 0" "--sigma-reset -2" "--formulation lagrange" \
         "--integrator euler" "--formulation baumgarte --integrator trapezoid" "--bogus" "--h"; do
    $SIM $a >"$T/o" 2>"$T/e"; rc=$?
    ok "exit 2 for '$a' (got $rc)" '[ $rc -eq 2 ]'
    ok "message for '$a'" '[ -s "$T/e" ]'
done
$SIM --help >"$T/o"; ok "--help exits 0" '[ $? -eq 0 ] && grep -q -- --formulation "$T/o"'

# a normal run: CSV header and rows, summary keys, no temp file left
$SIM --formulation alf-trapezoid --t-end 0.2 --out "$T/a.csv" --every 10 --quiet >"$T/o" 2>"$T/e"; rc=$?
ok "normal run exits 0" '[ $rc -eq 0 ]'
ok "header" 'head -1 "$T/a.csv" | grep -q "^t,AB.x,AB.y,AB.phi,BC.x,BC.y,BC.phi,energy_dev,phi_norm,phid_norm,sigma_norm,ground.A.x,ground.A.y"'
ok "21 rows (t = 0, every 10th of 200 steps)" '[ $(wc -l <"$T/a.csv") -eq 22 ]'
for k in status steps newton_iters max_energy_dev max_phi max_phid t_end wall_s; do
    ok "summary has $k" 'grep -q " $k=\| ^$k=\|^$k=" "$T/o" || grep -q "$k=" "$T/o"'
done
ok "one summary line" '[ $(wc -l <"$T/o") -eq 1 ] && grep -q "^status=ok" "$T/o"'
ok "no temp file" '! ls "$T"/a.csv.tmp.* >/dev/null 2>&1'

# a runtime fault: baumgarte lands on the four-bar's singular position at t = 0.375
$FB --formulation baumgarte --h 1e-3 --t-end 1 --out "$T/f.csv" --quiet >"$T/o" 2>"$T/e"; rc=$?
ok "fault exits 1 (got $rc)" '[ $rc -eq 1 ]'
ok "fault names rank loss and time" 'grep -q "rank loss" "$T/e" && grep -q "t=0.37" "$T/e"'
ok "summary says error" 'grep -q "^status=error code=-3" "$T/o"'
n=$(head -1 "$T/f.csv" | awk -F, "{ print NF }")
ok "CSV so far is valid (all rows complete, ends before the fault)" \
   'awk -F, -v n=$n "NF != n { bad = 1 } END { exit bad }" "$T/f.csv" && [ $(wc -l <"$T/f.csv") -eq 376 ]'
ok "no temp file after a fault" '! ls "$T"/f.csv.tmp.* >/dev/null 2>&1'
# alf-trapezoid with --rtol: step control; rows at t = k --every (default --h), on which the
# steps land; the steps between are the controller's; without it steps of exactly h
$SIM --rtol 1e-6 --h 0.05 --t-end 0.2 --out "$T/r.csv" --quiet >"$T/o" 2>"$T/e"; rc=$?
ok "step control exits 0" '[ $rc -eq 0 ] && grep -q "^status=ok .*integrator=trapezoid .* rejected=" "$T/o"'
ok "step control: rows at 0, 0.05, .., 0.2" '[ "$(cut -d, -f1 "$T/r.csv" | tail -n +2 | tr "\n" " ")" = "0 0.05 0.1 0.15 0.2 " ]'
ok "step control: its own steps" '[ $(sed "s/.* steps=\([0-9]*\) .*/\1/" "$T/o") -gt 4 ]'
$SIM --atol 1e-8 --h 0.05 --t-end 0.2 --every 0.1 --out "$T/r.csv" --quiet >"$T/o" 2>"$T/e"
ok "--atol alone switches it on; --every 0.1: a row every 0.1 s"    '[ "$(cut -d, -f1 "$T/r.csv" | tail -n +2 | tr "\n" " ")" = "0 0.1 0.2 " ]'
$SIM --h 0.05 --t-end 0.2 --quiet >"$T/o" 2>"$T/e"
ok "fixed step without a tolerance" 'grep -q " steps=4 rejected=0 " "$T/o"'
# the tools, the FMU's wrapper, the Python shim and the examples read the simulation only through
# the accessors of mb_sim.h (mb_sim_get_*): mb_sim is opaque there, and the compiler refuses a
# member read unless a file includes the runtime's internal header
ok "tools, FMU, Python shim and examples see mb_sim opaque (no mb_sim_impl.h)" \
   '! grep -ln "mb_sim_impl\.h" tools/*.[ch] fmu/*.[ch] python/mbsim/*.c examples/*/*.[ch]'
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
