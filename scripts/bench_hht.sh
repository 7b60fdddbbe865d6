#!/usr/bin/env bash
# bench_hht.sh - HHT-alpha (--integrator hht) against alf-trapezoid on Andrews' squeezer to
# t = 0.03 at fixed steps, side by side in one run: instructions per step (callgrind, the
# difference of a 0.03 s and a 0.003 s run, so start-up and output are not counted), wall time
# per step (median of 5 runs of 0.06 s), Newton iterations per step and |beta(0.03) - reference|.
# Timing is never pass/fail. Usage: scripts/bench_hht.sh [SIMULATOR] (default build/andrews_sim).
set -u
SIM=${1:-build/andrews_sim}
[ -x "$SIM" ] || { echo "bench_hht.sh: no $SIM" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "bench_hht.sh: valgrind missing (scripts/deps.sh tools)" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/bench_hht.XXXXXX")
trap 'rm -rf "$T"' EXIT
REF=15.81077119629904   # beta(0.03), Hairer & Wanner's test set (issue 11)
H=${HHT_BENCH_H:-1e-5}

# instructions of one run (callgrind's total)
instr() {
    valgrind --tool=callgrind --callgrind-out-file="$T/cg.out" "$SIM" --quiet "$@" >/dev/null 2>"$T/cg.log" ||
        { echo "bench_hht.sh: $SIM $* failed" >&2; cat "$T/cg.log" >&2; exit 1; }
    sed -n 's/^summary: *//p' "$T/cg.out"
}
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }

printf '# Andrews to t = 0.03, h = %s (fixed step), %s\n' "$H" "$(date -u +%Y-%m-%dT%H:%MZ)"
printf '%-34s %12s %10s %10s %12s\n' run instr/step us/step newton/st "|beta-ref|"
declare -A IPS
for run in "hht alpha -0.05|--integrator hht --hht-alpha -0.05" "hht alpha -0.3|--integrator hht --hht-alpha -0.3" \
           "hht alpha 0|--integrator hht --hht-alpha 0" "alf-trapezoid|--formulation alf-trapezoid"; do
    name=${run%%|*}; opts="${run#*|} --warn-error 0"   # the run alone (no accuracy companion)
    # shellcheck disable=SC2086
    i1=$(instr $opts --h "$H" --t-end 0.03); i0=$(instr $opts --h "$H" --t-end 0.003)
    steps=$(awk -v h="$H" 'BEGIN { printf "%d", 0.027 / h + 0.5 }')
    ips=$(( (i1 - i0) / steps ))
    IPS[$name]=$ips
    walls=()
    for k in 1 2 3 4 5; do
        # shellcheck disable=SC2086
        walls+=("$("$SIM" --quiet $opts --h "$H" --t-end 0.06 2>/dev/null | field wall_s)")
    done
    med=$(printf '%s\n' "${walls[@]}" | sort -g | sed -n 3p)
    # shellcheck disable=SC2086
    line=$("$SIM" --quiet $opts --h "$H" --t-end 0.03 --out "$T/a.csv" --every 1000000)
    beta=$(tail -n 1 "$T/a.csv" | cut -d, -f4)
    nit=$(printf '%s\n' "$line" | field newton_iters); st=$(printf '%s\n' "$line" | field steps)
    printf '%-34s %12d %10.2f %10.2f %12.3e\n' "$name" "$ips" \
        "$(awk -v w="$med" -v h="$H" 'BEGIN { print w / (0.06 / h) * 1e6 }')" \
        "$(awk -v a="$nit" -v b="$st" 'BEGIN { print a / b }')" \
        "$(awk -v b="$beta" -v r="$REF" 'BEGIN { d = b - r; print d < 0 ? -d : d }')"
done
awk -v a="${IPS[hht alpha -0.05]}" -v b="${IPS[alf-trapezoid]}" \
    'BEGIN { printf "instructions per step, alf-trapezoid / hht (alpha -0.05): %.2f\n", b / a }'
