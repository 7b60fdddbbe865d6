#!/usr/bin/env bash
# perf_shares.sh - what `make bench-profile` prints per evaluator: reads `perf report --children
# --sort symbol --stdio` on stdin and sums the inclusive shares of the model functions
# (<model>_* or mb_generic_*, fused evaluations included), the factorizations (mbi_ls_factor:
# the plan's kernels or KLU), the solves (the back ends' solve kernels; the calls into them are
# tail calls, so their callers' frames may be missing) and the rest of mb_sim_step (assembly
# into the plan storage, sparse products, integrator).
#   perf report ... | scripts/perf_shares.sh EVALUATOR MODEL [FORMULATION]
set -eu
awk -v e="$1" -v m="$2" -v fo="${3:-alf-trapezoid}" '/^ +[0-9.]+%/ { c = $1 + 0; s = $4;
    if (s ~ "^(" m "_|mb_generic_)(phi|phi_q|phi_t|phi_q_dot|gamma|force|dforce_dq|dforce_dv|energy|points|eval_kin|eval_kin_dyn)$") f += c;
    else if (s == "mbi_ls_factor") fa += c; else if (s ~ /^(klu_solve|mb_lu_solve|mb_chol_solve)$/) so += c;
    else if (s ~ /^mb_sp_(lu|ldl)_solve$/) ssp += c; else if (s ~ "^" m "_[sa]_(lu|ldl)_solve$") sun += c;
    else if (s == "mb_sim_step") tot = c }
    END { so += ssp > sun ? ssp : sun;
          printf "%-10s %s %s: model functions %4.1f%%, factorization %4.1f%%, solves %4.1f%%, other (assembly, products, integrator) %4.1f%%\n",
          e, fo, m, f, fa, so, tot - f - fa - so }'
