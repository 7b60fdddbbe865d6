#!/usr/bin/env bash
# test_run_script.sh - scripts/run.sh and make run as a user meets them (mk/tools.mk):
#  - a simulator that refuses its command line: run.sh returns its status (2), says it wrote
#    nothing (no "plotting what it wrote"), leaves no empty log and the earlier results as they were;
#  - a failed assembly (no row): exit 1, nothing plotted or animated, only the log left;
#  - TRACE naming no point: refused before the simulation (exit 2, the points listed), the
#    earlier results left alone; a good TRACE plots that point;
#  - no blank line between "== plotting" and the closing report;
#  - make run RUN_ARGS="--formulation canonical --integrator dopri5": RUN_ARGS' formulation wins
#    (make passes --formulation only for a FORMULATION given), an adaptive run gets no
#    "--every 10" (seconds for it); FORMULATION=canonical RUN_ARGS="--integrator dopri5" too;
#    make run TRACE=bad.point stops before simulating; RESULTS with a space;
#  - mb_anim on a missing CSV names the CSV (not its info file); the CSV never holds "-0".
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
MAKE=${MAKE:-make}
BUILD=${BUILD:-build}
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
mk() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS "$MAKE" --no-print-directory -C "$root" "$@"; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_run_script.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for b in "$BUILD/andrews_sim" "$BUILD/mb_anim" "$BUILD/oscillator_1dof_sim" "$BUILD/fault_velconflict_sim"; do
    [ -x "$b" ] || mk "$b" >/dev/null 2>&1 || { bad "cannot build $b"; echo "$pass passed, $fail failed"; exit 1; }
done
stale() { mkdir -p "$1"; for s in energy constraints sigma trace; do echo old > "$1/andrews_$s.png"; done; echo old > "$1/andrews.csv"; }

# ---- the simulator refuses its command line
R=$tmp/r1; stale "$R"
RESULTS=$R BUILD=$BUILD scripts/run.sh andrews bogus > "$tmp/o" 2> "$tmp/e"
rc=$?
[ $rc -eq 2 ] && ok || bad "run.sh with a refused formulation: exit $rc, expected the simulator's 2"
grep -q "invalid value 'bogus' for --formulation" "$tmp/e" && grep -q "refused its command line (exit 2, see above) and wrote no results; the earlier results in $R are left" "$tmp/e" &&
    ! grep -q "plotting what it wrote" "$tmp/e" && ok || bad "run.sh messages: $(cat "$tmp/e")"
# the earlier results are left as they were (the command line is checked before any is removed)
[ "$(cat "$R/andrews.csv" "$R/andrews_energy.png")" = "$(printf 'old\nold')" ] && [ "$(ls -A "$R" | wc -l)" -eq 5 ] &&
    ok || bad "run.sh with a refused formulation touched the earlier results: $(ls -A "$R" | tr '\n' ' ')"

# ---- a failed assembly (no row): nothing to plot, no CSV, no log of an earlier run, no plots
R=$tmp/r0; mkdir -p "$R"; echo old > "$R/fault_velconflict.csv"; echo old > "$R/fault_velconflict_energy.png"
RESULTS=$R BUILD=$BUILD scripts/run.sh fault_velconflict "" --t-end 0.1 > "$tmp/o" 2> "$tmp/e"
rc=$?
[ $rc -eq 1 ] && grep -q "exited with status 1 and wrote no results" "$tmp/e" && ! grep -q "plotting what it wrote\|no data rows" "$tmp/e" &&
    ! grep -q "== animating" "$tmp/o" && ok || bad "run.sh after a failed assembly: exit $rc: $(cat "$tmp/o" "$tmp/e")"
[ "$(ls -A "$R" | tr '\n' ' ')" = "fault_velconflict.log " ] && grep -q "^status=error code=-7" "$R/fault_velconflict.log" &&
    ok || bad "run.sh after a failed assembly left: $(ls -A "$R" | tr '\n' ' ')"

# a simulator that leaves a CSV with its header alone (as ours did after a failed assembly):
# run.sh does not animate or plot it (a stand-in simulator in a BUILD of its own)
FB=$tmp/fb; mkdir -p "$FB"; ln -s "$root/$BUILD/mb_anim" "$FB/mb_anim"
cat > "$FB/hdr_sim" <<'SIM'
#!/bin/sh
while [ $# -gt 1 ]; do [ "$1" = --out ] && out=$2; shift; done
printf 't,x,energy_dev,phi_norm,phid_norm,sigma_norm\n' > "$out"; printf '{}\n' > "$out.info"
echo "status=error code=-7 model=hdr"; exit 1
SIM
chmod +x "$FB/hdr_sim"
R=$tmp/r00
RESULTS=$R BUILD=$FB scripts/run.sh hdr "" > "$tmp/o" 2> "$tmp/e"
rc=$?
[ $rc -eq 1 ] && grep -q "exited with status 1 and wrote no results" "$tmp/e" && ! grep -q "== animating" "$tmp/o" &&
    [ ! -e "$R/hdr.csv" ] && [ ! -e "$R/hdr.csv.info" ] && ok || bad "run.sh on a CSV without rows: exit $rc: $(cat "$tmp/o" "$tmp/e")"

# ---- TRACE: checked before the simulation
R=$tmp/r2; stale "$R"
TRACE=bad.point RESULTS=$R BUILD=$BUILD scripts/run.sh andrews alf-trapezoid --t-end 0.001 > "$tmp/o" 2> "$tmp/e"
rc=$?
[ $rc -eq 2 ] && ! grep -q "== simulating" "$tmp/o" && grep -q "TRACE: .*--trace bad.point: no such point; the points are: OF.F" "$tmp/e" &&
    ok || bad "TRACE=bad.point: exit $rc: $(cat "$tmp/o" "$tmp/e" | head -n 5)"
[ "$(cat "$R/andrews_energy.png")" = old ] && ok || bad "a refused TRACE removed the earlier results"
TRACE=EF.E RESULTS=$R BUILD=$BUILD scripts/run.sh andrews alf-trapezoid --t-end 0.001 --every 10 > "$tmp/o" 2> "$tmp/e"
rc=$?
[ $rc -eq 0 ] && grep -q "trajectory of point EF.E" "$tmp/o" && [ "$(head -c 4 "$R/andrews_trace.png" | tail -c 3)" = PNG ] &&
    ok || bad "TRACE=EF.E: exit $rc: $(tail -n 3 "$tmp/e")"
# no blank line after "== plotting"
awk '/^== plotting/ { getline n; exit (n == "") }' "$tmp/o" && ok || bad "a blank line after '== plotting': $(cat "$tmp/o")"
# a run without a sigma plot (canonical has sigma; baumgarte not): no stale sigma PNG next to it
echo old > "$R/andrews_sigma.png"
RESULTS=$R BUILD=$BUILD scripts/run.sh andrews baumgarte --t-end 0.001 --h 1e-5 --every 10 > "$tmp/o" 2> "$tmp/e"
rc=$?
if [ $rc -eq 0 ] && [ "$(cat "$R/andrews_sigma.png" 2>/dev/null)" != old ]; then ok
else bad "baumgarte run: exit $rc, an earlier andrews_sigma.png kept: $(tail -n 2 "$tmp/e")"; fi

# ---- make run: RUN_ARGS passes any option, TRACE before simulating, RESULTS with a space
if mk run MODEL=andrews RESULTS="$tmp/r 3" RUN_ARGS="--formulation canonical --integrator dopri5 --t-end 0.002" > "$tmp/o" 2>&1 &&
   grep -q "formulation=canonical integrator=dopri5" "$tmp/r 3/andrews.log" && grep -q "== andrews (canonical + dopri5) done" "$tmp/o" &&
   [ "$(grep -v = "$tmp/r 3/andrews.csv" | wc -l)" -ge 10 ]; then ok
else bad "make run RUN_ARGS='--formulation canonical --integrator dopri5': $(tail -n 5 "$tmp/o")"; fi
if mk run MODEL=andrews RESULTS="$tmp/r4" FORMULATION=canonical RUN_ARGS="--integrator dopri5 --t-end 0.002" > "$tmp/o" 2>&1 &&
   grep -q "formulation=canonical integrator=dopri5" "$tmp/r4/andrews.log"; then ok
else bad "make run FORMULATION=canonical RUN_ARGS='--integrator dopri5': $(tail -n 5 "$tmp/o")"; fi
mk run MODEL=andrews RESULTS="$tmp/r5" TRACE=bad.point RUN_ARGS="--t-end 0.002" > "$tmp/o" 2>&1
rc=$?
[ $rc -ne 0 ] && ! grep -q "== simulating" "$tmp/o" && grep -q "no such point" "$tmp/o" && ok ||
    bad "make run TRACE=bad.point: exit $rc: $(tail -n 3 "$tmp/o")"

# ---- mb_anim: a missing CSV is named; no "-0" in a CSV
"$BUILD/mb_anim" "$tmp/missing.csv" 2> "$tmp/e"
rc=$?
[ $rc -eq 1 ] && grep -q "cannot read $tmp/missing.csv" "$tmp/e" && ! grep -q "\.info" "$tmp/e" && ok ||
    bad "mb_anim missing.csv: exit $rc: $(cat "$tmp/e")"
"$BUILD/oscillator_1dof_sim" --t-end 0.01 --quiet --out "$tmp/o.csv" > /dev/null 2>&1
n=$(grep -v = "$tmp/o.csv" | tr ',' '\n' | grep -c -x -- '-0')
[ -s "$tmp/o.csv" ] && [ "$n" -eq 0 ] && ok || bad "oscillator_1dof CSV holds $n fields '-0'"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
