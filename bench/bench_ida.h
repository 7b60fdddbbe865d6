/* bench_ida.h - the SUNDIALS IDA baseline of make bench-wp (bench/bench_ida.c): a model's own
 * generated functions (mb_model.h) integrated by IDA (variable-order BDF) in the stabilized
 * index-2 form of Gear, Gupta and Leimkuhler (GGL), with its exact Jacobian. Bench only: never
 * part of make test, the runtime or the tools. */
#ifndef BENCH_IDA_H
#define BENCH_IDA_H

#include "mb_model.h"

typedef struct bida bida;

/* Counters of the last solve (IDA's own). */
typedef struct bida_stats {
    long steps, newton_iters, jac_evals, res_evals, err_fails, conv_fails;
    int last_order;
} bida_stats;

/* IDA on model m from the consistent state q0, v0 at t = 0 (multipliers and accelerations are
 * computed here from the KKT system). sparse: 0 dense LU (SUNDIALS' own), 1 KLU. NULL on
 * failure (message on stderr). Allocates; bida_close frees. */
bida *bida_open(const mb_model *m, const double *q0, const double *v0, int sparse);

/* One solve from t = 0 to t_end at tolerances rtol, atol (positions and velocities; the
 * multipliers are left out of the error test): q[nq] receives the positions at t_end. Returns
 * 0, or IDA's (negative) flag. */
int bida_solve(bida *b, double rtol, double atol, double t_end, double *q, bida_stats *st);

/* "dense LU" or "KLU" */
const char *bida_linsol_name(const bida *b);

void bida_close(bida *b);

#endif /* BENCH_IDA_H */
