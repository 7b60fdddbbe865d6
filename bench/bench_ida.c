/* bench_ida.c - the SUNDIALS IDA baseline of make bench-wp (bench_ida.h). IDA gets the model's
 * own generated functions (mass, Q and its Jacobians, Phi, Phi_t, Phi_q, Phidot_q, Gamma), not
 * a hand-derived minimal-coordinate model, so the comparison with our formulations is on the
 * same equations. Form: stabilized index 2 (Gear, Leimkuhler, Gupta 1985), y = [q; v; lam; mu]:
 *   q' - v + Phi_q^T mu = 0,  M v' - Q(t, q, v) + Phi_q^T lam = 0,
 *   Phi_q v + Phi_t = 0,      Phi(t, q) = 0,
 * mu = 0 on the exact solution. lam and mu are left out of the error test (IDASetSuppressAlg), as
 * usual for index 2. The Jacobian dF/dy + cj dF/dy' is exact: its only second-derivative terms,
 * (Phi_q^T w)_q for w = lam, mu, come column by column from Phidot_q evaluated at unit
 * velocities: Phidot_q(q, e_c) - Phidot_q(q, 0) = dPhi_q/dq_c. Host double build only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>
#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include "bench_ida.h"

typedef char bida_needs_double[sizeof(mb_real) == sizeof(double) && sizeof(realtype) == sizeof(double) ? 1 : -1];

/* absolute tolerance of lam and mu: loose, so that the Newton test is decided by q and v */
#define ALG_ATOL 1e6

struct bida {
    const mb_model *m;
    int n, nc, N, sparse;
    SUNContext ctx;
    void *mem;
    N_Vector yy, yp, y0, yp0, id, atol;
    SUNMatrix A;
    SUNLinearSolver LS;
    double *pq, *pqd, *pq0, *pqc, *dqq, *dqv, *Q, *pt, *e;   /* model outputs, scratch */
    double *Jd;                 /* the Jacobian, dense column-major N x N (both back ends) */
    unsigned char *mask;        /* KLU: the structural pattern, N x N column-major */
    sunindextype *cp, *ri;      /* KLU: that pattern in compressed columns (IDA zeroes the
                                   matrix's own index arrays before each Jacobian call) */
};

static void *xcalloc(size_t n, size_t s, int *ok)
{
    void *p = calloc(n ? n : 1, s);
    if (!p) *ok = 0;
    return p;
}

static int res_fn(realtype t, N_Vector yy, N_Vector yp, N_Vector rr, void *ud)
{
    bida *b = ud;
    const mb_model *m = b->m;
    int n = b->n, nc = b->nc;
    const double *y = N_VGetArrayPointer(yy), *yd = N_VGetArrayPointer(yp);
    double *r = N_VGetArrayPointer(rr);
    const double *q = y, *v = y + n, *lam = y + 2 * n, *mu = y + 2 * n + nc;
    m->phi_q(m, t, q, b->pq);
    m->force(m, t, q, v, b->Q);
    m->phi_t(m, t, q, b->pt);
    m->phi(m, t, q, r + 2 * n + nc);
    for (int i = 0; i < n; i++) {
        r[i] = yd[i] - v[i];
        r[n + i] = m->mass[i] * yd[n + i] - b->Q[i];
    }
    for (int i = 0; i < nc; i++) r[2 * n + i] = b->pt[i];
    for (int k = 0; k < m->phi_q_pat.nnz; k++) {
        int i = m->phi_q_pat.row[k], j = m->phi_q_pat.col[k];
        r[j] += b->pq[k] * mu[i];
        r[n + j] += b->pq[k] * lam[i];
        r[2 * n + i] += b->pq[k] * v[j];
    }
    return 0;
}

#define JD(i, j) b->Jd[(size_t)(j) * (size_t)b->N + (size_t)(i)]

/* The Jacobian dF/dy + cj dF/dy' into b->Jd. */
static void jac_fill(bida *b, double t, double cj, const double *y)
{
    const mb_model *m = b->m;
    const mb_pattern *P = &m->phi_q_pat;
    int n = b->n, nc = b->nc, N = b->N;
    const double *q = y, *v = y + n, *lam = y + 2 * n, *mu = y + 2 * n + nc;
    memset(b->Jd, 0, sizeof(double) * (size_t)N * (size_t)N);
    m->phi_q(m, t, q, b->pq);
    m->phi_q_dot(m, t, q, v, b->pqd);
    m->dforce_dq(m, t, q, v, b->dqq);
    m->dforce_dv(m, t, q, v, b->dqv);
    /* (Phi_q^T mu)_q and (Phi_q^T lam)_q, column c at a time */
    memset(b->e, 0, sizeof(double) * (size_t)n);
    m->phi_q_dot(m, t, q, b->e, b->pq0);
    for (int c = 0; c < n; c++) {
        b->e[c] = 1;
        m->phi_q_dot(m, t, q, b->e, b->pqc);
        b->e[c] = 0;
        for (int k = 0; k < P->nnz; k++) {
            double d = b->pqc[k] - b->pq0[k];
            if (d == 0) continue;
            int i = P->row[k], j = P->col[k];
            JD(j, c) += d * mu[i];
            JD(n + j, c) += d * lam[i];
        }
    }
    for (int i = 0; i < n; i++) {
        JD(i, i) += cj;
        JD(i, n + i) -= 1;
        JD(n + i, n + i) += cj * m->mass[i];
    }
    for (int k = 0; k < P->nnz; k++) {
        int i = P->row[k], j = P->col[k];
        JD(j, 2 * n + nc + i) += b->pq[k];   /* r1: Phi_q^T mu */
        JD(n + j, 2 * n + i) += b->pq[k];    /* r2: Phi_q^T lam */
        JD(2 * n + i, n + j) += b->pq[k];    /* r3: Phi_q v */
        JD(2 * n + i, j) += b->pqd[k];       /* r3: (Phi_q v + Phi_t)_q = Phidot_q */
        JD(2 * n + nc + i, j) += b->pq[k];   /* r4: Phi */
    }
    for (int k = 0; k < m->dq_dq_pat.nnz; k++)
        JD(n + m->dq_dq_pat.row[k], m->dq_dq_pat.col[k]) -= b->dqq[k];
    for (int k = 0; k < m->dq_dv_pat.nnz; k++)
        JD(n + m->dq_dv_pat.row[k], n + m->dq_dv_pat.col[k]) -= b->dqv[k];
}

static int jac_fn(realtype t, realtype cj, N_Vector yy, N_Vector yp, N_Vector rr, SUNMatrix J,
                  void *ud, N_Vector t1, N_Vector t2, N_Vector t3)
{
    (void)yp; (void)rr; (void)t1; (void)t2; (void)t3;
    bida *b = ud;
    int N = b->N;
    jac_fill(b, t, cj, N_VGetArrayPointer(yy));
    if (!b->sparse) {
        memcpy(SUNDenseMatrix_Data(J), b->Jd, sizeof(double) * (size_t)N * (size_t)N);
        return 0;
    }
    /* gather onto the CSC pattern (built in bida_open); a value outside it is a bug */
    sunindextype *cp = SUNSparseMatrix_IndexPointers(J), *ri = SUNSparseMatrix_IndexValues(J);
    double *x = SUNSparseMatrix_Data(J);
    memcpy(cp, b->cp, sizeof *cp * (size_t)(N + 1));
    memcpy(ri, b->ri, sizeof *ri * (size_t)cp[N]);
    for (int j = 0; j < N; j++) {
        for (sunindextype p = cp[j]; p < cp[j + 1]; p++) x[p] = JD(ri[p], j);
    }
    for (size_t k = 0; k < (size_t)N * (size_t)N; k++)
        if (!b->mask[k] && b->Jd[k] != 0) {
            fprintf(stderr, "bench_ida: Jacobian entry (%d, %d) outside the KLU pattern\n", (int)(k % (size_t)N), (int)(k / (size_t)N));
            return -1;
        }
    return 0;
}

/* Structural pattern of the Jacobian for KLU: every entry jac_fill may touch. The second-
 * derivative block of a constraint row couples every pair of its columns. */
static void build_mask(bida *b)
{
    const mb_model *m = b->m;
    const mb_pattern *P = &m->phi_q_pat;
    int n = b->n, nc = b->nc, N = b->N;
#define MK(i, j) b->mask[(size_t)(j) * (size_t)N + (size_t)(i)] = 1
    for (int k = 0; k < P->nnz; k++) {
        int i = P->row[k], j = P->col[k];
        for (int l = 0; l < P->nnz; l++) {
            if (P->row[l] != i) continue;
            MK(j, P->col[l]);
            MK(n + j, P->col[l]);
        }
        MK(j, 2 * n + nc + i); MK(n + j, 2 * n + i); MK(2 * n + i, n + j);
        MK(2 * n + i, j); MK(2 * n + nc + i, j);
    }
    for (int i = 0; i < n; i++) { MK(i, i); MK(i, n + i); MK(n + i, n + i); }
    for (int k = 0; k < m->dq_dq_pat.nnz; k++) MK(n + m->dq_dq_pat.row[k], m->dq_dq_pat.col[k]);
    for (int k = 0; k < m->dq_dv_pat.nnz; k++) MK(n + m->dq_dv_pat.row[k], n + m->dq_dv_pat.col[k]);
#undef MK
}

/* y0 = [q0; v0; lam0; 0], y0' = [v0; a0; 0; 0] from [M Phi_q^T; Phi_q 0] [a0; lam0] = [Q; Gamma] */
static int consistent_start(bida *b, const double *q0, const double *v0)
{
    const mb_model *m = b->m;
    int n = b->n, nc = b->nc, K = n + nc, ok = 1;
    double *A = xcalloc((size_t)K * (size_t)K, sizeof(double), &ok);
    double *rhs = xcalloc((size_t)K, sizeof(double), &ok);
    lapack_int *piv = xcalloc((size_t)K, sizeof(lapack_int), &ok);
    double *y = N_VGetArrayPointer(b->y0), *yd = N_VGetArrayPointer(b->yp0);
    int st = -1;
    if (ok && m->gamma) {
        m->phi_q(m, 0, q0, b->pq);
        m->force(m, 0, q0, v0, b->Q);
        m->gamma(m, 0, q0, v0, rhs + n);
        for (int i = 0; i < n; i++) { A[(size_t)i * K + i] = m->mass[i]; rhs[i] = b->Q[i]; }
        for (int k = 0; k < m->phi_q_pat.nnz; k++) {
            int i = m->phi_q_pat.row[k], j = m->phi_q_pat.col[k];
            A[(size_t)j * K + n + i] = b->pq[k];
            A[(size_t)(n + i) * K + j] = b->pq[k];
        }
        if (LAPACKE_dgesv(LAPACK_ROW_MAJOR, K, 1, A, K, piv, rhs, 1) == 0) {
            memset(y, 0, sizeof(double) * (size_t)b->N);
            memset(yd, 0, sizeof(double) * (size_t)b->N);
            for (int i = 0; i < n; i++) {
                y[i] = q0[i]; y[n + i] = v0[i];
                yd[i] = v0[i]; yd[n + i] = rhs[i];
            }
            for (int i = 0; i < nc; i++) y[2 * n + i] = rhs[n + i];
            st = 0;
        }
    }
    free(A); free(rhs); free(piv);
    return st;
}

bida *bida_open(const mb_model *m, const double *q0, const double *v0, int sparse)
{
    int ok = 1;
    bida *b = xcalloc(1, sizeof *b, &ok);
    if (!b) return NULL;
    b->m = m; b->n = m->nq; b->nc = m->nc; b->N = 2 * m->nq + 2 * m->nc; b->sparse = sparse;
    size_t nnz = (size_t)m->phi_q_pat.nnz, N = (size_t)b->N;
    b->pq = xcalloc(nnz, sizeof(double), &ok);  b->pqd = xcalloc(nnz, sizeof(double), &ok);
    b->pq0 = xcalloc(nnz, sizeof(double), &ok); b->pqc = xcalloc(nnz, sizeof(double), &ok);
    b->dqq = xcalloc((size_t)m->dq_dq_pat.nnz, sizeof(double), &ok);
    b->dqv = xcalloc((size_t)m->dq_dv_pat.nnz, sizeof(double), &ok);
    b->Q = xcalloc((size_t)b->n, sizeof(double), &ok);
    b->e = xcalloc((size_t)b->n, sizeof(double), &ok);
    b->pt = xcalloc((size_t)b->nc, sizeof(double), &ok);
    b->Jd = xcalloc(N * N, sizeof(double), &ok);
    b->mask = xcalloc(N * N, 1, &ok);
    if (!ok || SUNContext_Create(NULL, &b->ctx)) { fprintf(stderr, "bench_ida: out of memory\n"); bida_close(b); return NULL; }
    b->yy = N_VNew_Serial(b->N, b->ctx); b->yp = N_VNew_Serial(b->N, b->ctx);
    b->y0 = N_VNew_Serial(b->N, b->ctx); b->yp0 = N_VNew_Serial(b->N, b->ctx);
    b->id = N_VNew_Serial(b->N, b->ctx);
    b->atol = N_VNew_Serial(b->N, b->ctx);
    if (!b->yy || !b->yp || !b->y0 || !b->yp0 || !b->id || !b->atol || consistent_start(b, q0, v0)) {
        fprintf(stderr, "bench_ida: no consistent initial state for %s\n", m->name);
        bida_close(b);
        return NULL;
    }
    double *id = N_VGetArrayPointer(b->id);
    for (int i = 0; i < b->N; i++) id[i] = i < 2 * b->n ? 1.0 : 0.0;
    if (sparse) {
        build_mask(b);
        long nz = 0;
        for (size_t k = 0; k < N * N; k++) nz += b->mask[k];
        b->A = SUNSparseMatrix(b->N, b->N, nz, CSC_MAT, b->ctx);
        b->cp = calloc(N + 1, sizeof *b->cp);
        b->ri = calloc((size_t)nz, sizeof *b->ri);
        if (b->A && b->cp && b->ri) {
            sunindextype p = 0;
            for (size_t j = 0; j < N; j++) {
                b->cp[j] = p;
                for (size_t i = 0; i < N; i++) if (b->mask[j * N + i]) b->ri[p++] = (sunindextype)i;
            }
            b->cp[N] = p;
            memcpy(SUNSparseMatrix_IndexPointers(b->A), b->cp, sizeof *b->cp * (N + 1));
            memcpy(SUNSparseMatrix_IndexValues(b->A), b->ri, sizeof *b->ri * (size_t)nz);
            b->LS = SUNLinSol_KLU(b->yy, b->A, b->ctx);
        }
    } else {
        b->A = SUNDenseMatrix(b->N, b->N, b->ctx);
        if (b->A) b->LS = SUNLinSol_Dense(b->yy, b->A, b->ctx);
    }
    N_VScale(1.0, b->y0, b->yy);
    N_VScale(1.0, b->yp0, b->yp);
    b->mem = IDACreate(b->ctx);
    if (!b->A || !b->LS || !b->mem || IDAInit(b->mem, res_fn, 0.0, b->yy, b->yp) ||
        IDASetUserData(b->mem, b) || IDASStolerances(b->mem, 1e-6, 1e-6) ||
        IDASetLinearSolver(b->mem, b->LS, b->A) || IDASetJacFn(b->mem, jac_fn) ||
        IDASetId(b->mem, b->id) || IDASetSuppressAlg(b->mem, SUNTRUE) ||
        IDASetMaxNumSteps(b->mem, 1000000)) {
        fprintf(stderr, "bench_ida: IDA setup failed\n");
        bida_close(b);
        return NULL;
    }
    return b;
}

int bida_solve(bida *b, double rtol, double atol, double t_end, double *q, bida_stats *st)
{
    realtype tret = 0;
    N_VScale(1.0, b->y0, b->yy);
    N_VScale(1.0, b->yp0, b->yp);
    int f = IDAReInit(b->mem, 0.0, b->yy, b->yp);
    /* lam and mu: out of the error test, and so loose in the Newton test that it is decided by
       q and v (their corrections scale with 1/h and 1/h^2: at index 2 a tight test on them
       fails at round-off) */
    double *at = N_VGetArrayPointer(b->atol);
    for (int i = 0; i < b->N; i++) at[i] = i < 2 * b->n ? atol : ALG_ATOL;
    if (!f) f = IDASVtolerances(b->mem, rtol, b->atol);
    if (!f) f = IDASetStopTime(b->mem, t_end);
    if (!f) f = IDASolve(b->mem, t_end, &tret, b->yy, b->yp, IDA_NORMAL);
    if (f > 0) f = 0;   /* IDA_TSTOP_RETURN */
    memcpy(q, N_VGetArrayPointer(b->yy), sizeof(double) * (size_t)b->n);
    if (st) {
        long v = 0;
        memset(st, 0, sizeof *st);
        IDAGetNumSteps(b->mem, &v); st->steps = v;
        IDAGetNumNonlinSolvIters(b->mem, &v); st->newton_iters = v;
        IDAGetNumJacEvals(b->mem, &v); st->jac_evals = v;
        IDAGetNumResEvals(b->mem, &v); st->res_evals = v;
        IDAGetNumErrTestFails(b->mem, &v); st->err_fails = v;
        IDAGetNumNonlinSolvConvFails(b->mem, &v); st->conv_fails = v;
        IDAGetLastOrder(b->mem, &st->last_order);
    }
    return f;
}

const char *bida_linsol_name(const bida *b) { return b->sparse ? "KLU" : "dense LU"; }

void bida_close(bida *b)
{
    if (!b) return;
    if (b->mem) IDAFree(&b->mem);
    if (b->LS) SUNLinSolFree(b->LS);
    if (b->A) SUNMatDestroy(b->A);
    N_Vector *vs[] = {&b->yy, &b->yp, &b->y0, &b->yp0, &b->id, &b->atol};
    for (int i = 0; i < 6; i++) if (*vs[i]) N_VDestroy(*vs[i]);
    if (b->ctx) SUNContext_Free(&b->ctx);
    free(b->pq); free(b->pqd); free(b->pq0); free(b->pqc); free(b->dqq); free(b->dqv);
    free(b->Q); free(b->e); free(b->pt); free(b->Jd); free(b->mask); free(b->cp); free(b->ri);
    free(b);
}
