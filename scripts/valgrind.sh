#!/usr/bin/env bash
# valgrind.sh - memcheck on one short simulation per formulation (and dopri5 once): no invalid
# access, no use of uninitialised values, no leak. Needs valgrind (scripts/deps.sh tools).
# Usage: scripts/valgrind.sh [SIMULATOR]   (default build/double_pendulum_sim; prints N passed, N failed)
set -u
SIM=${1:-build/double_pendulum_sim}
command -v valgrind >/dev/null || { echo "valgrind.sh: valgrind missing (scripts/deps.sh tools)" >&2; exit 1; }
[ -x "$SIM" ] || { echo "valgrind.sh: no $SIM" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/valgrind.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
run() {
    local name=$1; shift
    valgrind --tool=memcheck --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible \
        --errors-for-leak-kinds=definite,indirect,possible --track-origins=yes --log-file="$T/$name.log" \
        "$SIM" --quiet --out "$T/$name.csv" "$@" >"$T/$name.out" 2>&1
    local rc=$?
    local errs
    errs=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$T/$name.log" | tail -n 1)
    if [ $rc -eq 0 ] && [ "${errs:-1}" -eq 0 ] && grep -q "All heap blocks were freed\|definitely lost: 0 bytes" "$T/$name.log"; then
        pass=$((pass + 1)); echo "valgrind $name: clean ($(grep -o 'total heap usage.*' "$T/$name.log"))"
    else
        fail=$((fail + 1)); echo "FAIL: valgrind $name: exit $rc, ${errs:-?} errors"; sed -n '/ERROR SUMMARY\|Invalid\|uninitialised\|lost/p' "$T/$name.log" | head -n 20
    fi
}
run baumgarte     --formulation baumgarte     --t-end 0.2
run canonical     --formulation canonical     --t-end 0.2
run alf-explicit  --formulation alf-explicit  --t-end 0.2
run alf-trapezoid --formulation alf-trapezoid --t-end 0.2
run dopri5        --formulation baumgarte --integrator dopri5 --t-end 0.2
run hht           --integrator hht --t-end 0.2
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
