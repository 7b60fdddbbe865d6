#!/usr/bin/env bash
# perf_shares.sh - what `make bench-profile` prints per evaluator: reads `perf report --children
# --sort symbol --stdio` on stdin and sums the inclusive shares of the model functions
# (<model>_* or mb_generic_*), matrix assembly (the runtime's add_* helpers), sparse products
# (sp_*), factorization and solves (mb_lu_* / mb_chol_*), and the rest of mb_sim_step.
#   perf report ... | scripts/perf_shares.sh EVALUATOR MODEL
set -eu
awk -v e="$1" -v m="$2" '/^ +[0-9.]+%/ { c = $1 + 0; s = $4;
    if (s ~ "^(" m "_|mb_generic_)(phi|phi_q|phi_t|phi_q_dot|gamma|force|dforce_dq|dforce_dv|energy|points)$") f += c;
    else if (s ~ /^mb_(lu|chol)_factor$/) fa += c; else if (s ~ /^mb_(lu|chol)_solve$/) so += c;
    else if (s ~ /^add_/) as += c; else if (s ~ /^sp_/) sp += c; else if (s == "mb_sim_step") tot = c }
    END { printf "%-10s alf-trapezoid %s: model functions %4.1f%%, matrix assembly %4.1f%%, sparse products %4.1f%%, factorization %4.1f%%, solves %4.1f%%, other %4.1f%%\n",
          e, m, f, as, sp, fa, so, tot - f - as - sp - fa - so }'
