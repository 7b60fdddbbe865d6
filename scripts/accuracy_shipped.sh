#!/usr/bin/env bash
# accuracy_shipped.sh - the accuracy warning on every shipped model (docs/validation.md, section
# 10, "The thresholds"): each models/*.lua run with the options given (default: the trapezoid's
# step control, --formulation alf-trapezoid) at rtol = atol = R for each R of ACC_RTOLS, at the
# model's own span and rows, against baumgarte dop853 at rtol = atol = 1e-12; err the largest
# coordinate's difference over R (1 + |q_ref|) at the rows of equal t (the coordinates: the
# CSV's columns before energy_dev). Prints one line per run: model, R, status, err / R (x),
# err_est (the accuracy warning's largest estimate) and the warnings. Never a test: it reports.
# Usage: scripts/accuracy_shipped.sh [SIM OPTIONS...]   (ACC_RTOLS="1e-4 1e-6 1e-8" the
# tolerances; ACC_MODELS="cartpole valve_train" only those; BUILD=build; ACC_TIMEOUT=300 s a run)
set -u
cd "$(dirname "$0")/.."
B=${BUILD:-build}
RTOLS=${ACC_RTOLS:-1e-4 1e-6 1e-8}
TO=${ACC_TIMEOUT:-300}
[ $# -gt 0 ] || set -- --formulation alf-trapezoid
T=$(mktemp -d "${TMPDIR:-/tmp}/accuracy_shipped.XXXXXX")
trap 'rm -rf "$T"' EXIT
CMP='BEGIN { FS = "," }
FNR == 1 { for (i = 2; i <= NF && $i != "energy_dev"; i++) nq = i; next }
NF < 3 { next }
FILENAME == ARGV[1] { for (i = 2; i <= nq; i++) R[sprintf("%.6f", $1), i] = $i; next }
{ k = sprintf("%.6f", $1); if (!((k, 2) in R)) next; n++
  for (i = 2; i <= nq; i++) { a = R[k, i]; if (a < 0) a = -a
      d = $i - R[k, i]; if (d < 0) d = -d; d /= r * (1 + a); if (d > m) m = d } }
END { if (n) printf "%.3g", m; else printf "none" }'
kv() { tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"; }
printf '%-20s %-6s %-9s %-10s %-10s %s\n' model rtol status "err/rtol" err_est warnings
for m in models/*.lua; do
    b=$(basename "$m" .lua)
    case " ${ACC_MODELS:-$b} " in *" $b "*) ;; *) continue;; esac
    make --no-print-directory -s sim MODEL="$m" >/dev/null 2>&1 || { echo "$b: build failed"; continue; }
    sim=$B/${b}_sim
    if ! timeout "$TO" "$sim" --formulation baumgarte --integrator dop853 --rtol 1e-12 --atol 1e-12 \
            --out "$T/ref.csv" --quiet >/dev/null 2>&1; then
        echo "$b: reference run failed (baumgarte dop853 at 1e-12)"
        continue
    fi
    for r in $RTOLS; do
        sum=$(timeout "$TO" "$sim" "$@" --rtol "$r" --atol "$r" --out "$T/run.csv" --quiet 2>"$T/err")
        st=$(kv status "$sum")
        w=$(sed -n 's/.*warning: \([a-z]*\): first at.*/\1/p' "$T/err" | paste -sd, -)
        x=$(awk -v r="$r" "$CMP" "$T/ref.csv" "$T/run.csv")
        printf '%-20s %-6s %-9s %-10s %-10s %s\n' "$b" "$r" "${st:-fail}" "$x" "$(kv err_est "$sum")" "${w:--}"
    done
done
