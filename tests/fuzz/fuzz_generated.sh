#!/usr/bin/env bash
# fuzz_generated.sh - mutation fuzzing of what mbgen generates: the shipped and test models with
# their numbers mutated (zeroed, negated, scaled by 1e-30 .. 1e30), generated in both
# linear-algebra forms, compiled with -std=c99 -pedantic -Werror and run for a few steps with
# every formulation under a timeout. A finding is: mbgen exiting 2 (internal error) or crashing;
# generated C that does not compile; a simulator that dies by a signal, hangs, or ends without
# its summary line. A model error (mbgen exit 1) and a run ending with status=error are fine.
# Usage: tests/fuzz/fuzz_generated.sh SECONDS   (make fuzz runs it; needs build/mbgen and the
# simulator's objects: CC, SIM_SRC, SIM_CFLAGS, SIM_LIBS from the Makefile)
# Prints executions and findings, and "N passed, N failed"; inputs behind findings are kept in
# build/fuzz/artifacts/fuzz_generated-*.lua.
set -u
cd "$(dirname "$0")/../.."
secs=${1:?usage: tests/fuzz/fuzz_generated.sh SECONDS}
: "${CC:=cc}" "${SIM_SRC:?}" "${SIM_CFLAGS:?}" "${SIM_LIBS:?}"
out=build/fuzz/generated
art=build/fuzz/artifacts
rm -rf "$out"
mkdir -p "$out" "$art"
seeds=(models/*.lua tests/models/*.lua)
end=$((SECONDS + secs))
n=0 rejected=0 compiled=0 runs=0 findings=0
finding() {   # finding WHAT: keep the input, count it
    findings=$((findings + 1))
    cp "$out/m.lua" "$art/fuzz_generated-$findings.lua"
    echo "FINDING $findings: $1 (input: $art/fuzz_generated-$findings.lua)" >&2
}
while [ $SECONDS -lt $end ]; do
    n=$((n + 1))
    seed=${seeds[$((RANDOM % ${#seeds[@]}))]}
    # mutate about one number in eight; the name is fixed so the C symbols are known
    awk -v s=$RANDOM 'BEGIN { srand(s); split("0 -1 1e-30 1e-6 1e3 1e30 0.5 2", f, " ") }
        /^ *name / { print "name \"fz\""; next }
        { out = ""; line = $0
          while (match(line, /[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/)) {
              num = substr(line, RSTART, RLENGTH)
              if (rand() < 0.125) num = "(" num " * " f[int(rand() * 8) + 1] ")"
              out = out substr(line, 1, RSTART - 1) num; line = substr(line, RSTART + RLENGTH) }
          print out line }' "$seed" >"$out/m.lua"
    form=compact; [ $((n % 2)) -eq 0 ] && form=unrolled
    rm -f "$out"/fz*
    timeout 20 build/mbgen "$out/m.lua" --name fz --linalg $form -o "$out" >/dev/null 2>"$out/gen.err"
    rc=$?
    if [ $rc -eq 1 ]; then rejected=$((rejected + 1)); continue; fi
    if [ $rc -ne 0 ]; then finding "mbgen exit $rc: $(head -c 300 "$out/gen.err")"; continue; fi
    if ! timeout 120 $CC $SIM_CFLAGS -pedantic -I"$out" -DMB_MODEL=fz $SIM_SRC "$out/fz.c" \
            $SIM_LIBS -o "$out/fz_sim" 2>"$out/cc.err"; then
        finding "generated C does not compile: $(head -c 300 "$out/cc.err")"; continue
    fi
    compiled=$((compiled + 1))
    for f in baumgarte canonical alf-explicit alf-trapezoid; do
        runs=$((runs + 1))
        timeout 20 "$out/fz_sim" --formulation $f --t-end 0.01 --h 1e-3 --quiet >"$out/sum" 2>"$out/err"
        rc=$?
        if [ $rc -ge 124 ]; then finding "$f: exit $rc (signal or timeout): $(head -c 300 "$out/err")"
        elif ! grep -q '^status=' "$out/sum"; then finding "$f: no summary line (exit $rc)"; fi
    done
done
echo "fuzz generated: $n mutated models in $secs s: $rejected rejected by mbgen, $compiled generated and compiled, $runs simulator runs, $findings findings"
if [ $findings -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; exit 1; fi
