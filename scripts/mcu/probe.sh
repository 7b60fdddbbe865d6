#!/usr/bin/env bash
# probe.sh - count where the toolchain's libm and libgcc differ from the host's (scripts/mcu/probe.c).
# Usage: scripts/mcu/probe.sh   Prints, per target, the number of differing results per kind.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=build/mcu-probe
mkdir -p "$out"
${CC:-cc} -std=c99 -ffp-contract=off -O2 -Wall -Wextra -Werror -Iscripts/mcu scripts/mcu/probe.c \
    scripts/mcu/host_port.c scripts/mcu/mcu_report.c -lm -o "$out/probe"
"$out/probe" > "$out/host.txt"
for t in m4f m3; do
    scripts/mcu/mcu.sh build "$t" "$out" "probe-$t" -Iscripts/mcu -- scripts/mcu/probe.c \
        scripts/mcu/mcu_port.c scripts/mcu/mcu_report.c
    scripts/mcu/mcu.sh run "$t" "$out/probe-$t.elf" > "$out/$t.txt"
    printf '%s: ' "$t"
    paste -d' ' "$out/host.txt" "$out/$t.txt" | awk '$1 == "V" {
        k = $2; sub(/\[.*/, "", k); n[k]++; if ($3 != $6) bad[k]++ }
        END { for (k in n) printf "%s %d/%d differ; ", k, bad[k] + 0, n[k]; print "" }'
done
