/* test_sparse.c - the symbolic planner (generator/mb_plan_build.c) and the compact kernels
 * (runtime/mb_sparse.c) against dense products on every generated model's patterns, with AMD
 * and with the natural order: S = Phi_q W Phi_q^T by LDL^T, M + a Phi_q^T Phi_q by LDL^T, the
 * unsymmetric F4-like matrix by LU; residuals of random systems, and rank loss named by row. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "mb_plan_build.h"
#include "mb_sparse.h"
#include "mb_status.h"
#include "mb_sim.h"
#include "test_physics_models.h"

static double rnd(void) { return (double)rand() / RAND_MAX * 2 - 1; }

/* |A x - b|_inf / (|A|_inf |x|_inf + |b|_inf) for the dense n x n column-major A */
static double resid(int n, const double *A, const double *x, const double *b)
{
    double r = 0, an = 0, xn = 0, bn = 0;
    for (int i = 0; i < n; i++) {
        double s = -b[i], row = 0;
        for (int j = 0; j < n; j++) { s += A[i + (size_t)j * n] * x[j]; row += fabs(A[i + (size_t)j * n]); }
        if (fabs(s) > r) r = fabs(s);
        if (row > an) an = row;
        if (fabs(x[i]) > xn) xn = fabs(x[i]);
        if (fabs(b[i]) > bn) bn = fabs(b[i]);
    }
    return r / (an * xn + bn + 1e-300);
}

static void check_model(const mb_model *m, int ordering)
{
    int n = m->nq, nc = m->nc, nnz = m->phi_q_pat.nnz;
    const int *row = m->phi_q_pat.row, *col = m->phi_q_pat.col;
    mb_plan *P = mbp_build(n, nc, &m->phi_q_pat, &m->dq_dq_pat, &m->dq_dv_pat, ordering);
    CHECK(P != NULL, "%s: plan built", m->name);
    if (!P) return;
    int N = n > nc ? n : nc;
    double *Pq = malloc(sizeof(double) * (nnz + 1)), *E = malloc(sizeof(double) * (nnz + 1));
    double *W = malloc(sizeof(double) * n), *Dn = malloc(sizeof(double) * (size_t)N * N);
    double *F = calloc(N + 2 * (size_t)(P->s.nl > P->a.nl ? P->s.nl : P->a.nl) + 1, sizeof(double));
    double *x = malloc(sizeof(double) * N), *b = malloc(sizeof(double) * N), *y = malloc(sizeof(double) * N);
    double *d0 = malloc(sizeof(double) * N);
    double *dqq = malloc(sizeof(double) * (m->dq_dq_pat.nnz + 1)), *dqv = malloc(sizeof(double) * (m->dq_dv_pat.nnz + 1));
    double ratio;
    int bad, st;
    for (int k = 0; k < nnz; k++) { Pq[k] = rnd(); E[k] = rnd(); }
    for (int i = 0; i < n; i++) W[i] = 0.5 + fabs(rnd());
    /* S = Pq W Pq^T */
    memset(F, 0, sizeof(double) * (nc + P->s.nl));
    for (int t = 0; t < P->ns; t++)
        F[P->s_dst[t]] += W[col[P->s_k[t]]] * Pq[P->s_k[t]] * Pq[P->s_l[t]];
    memset(Dn, 0, sizeof(double) * (size_t)N * N);
    for (int k = 0; k < nnz; k++)
        for (int l = 0; l < nnz; l++)
            if (col[k] == col[l]) Dn[row[k] + (size_t)row[l] * nc] += W[col[k]] * Pq[k] * Pq[l];
    for (int r = 0; r < nc; r++) x[r] = b[r] = rnd();
    size_t fs = sizeof(double) * (nc + P->s.nl + 1);
    double *F0 = malloc(fs);
    memcpy(F0, F, fs);
    st = mb_sp_ldl(&P->s, F, d0, 1e-12, &ratio, &bad);
    CHECK(st == MB_OK, "%s ord %d: S factor st %d bad %d ratio %g", m->name, ordering, st, bad, ratio);
    if (st == MB_OK && nc > 0) {
        /* the ratio and its row as a plain loop keeping the first strict minimum has them; the
         * row named by mb_sp_ldl_below only for a ratio below its bound */
        double rmin = 1;
        int kmin = -1, bad2;
#if MB_LDL_RECIPROCAL   /* D holds 1 / d_k: the ratio is 1 / the largest d0_k (1 / d_k) */
        double mmax = 1;
        for (int k = 0; k < nc; k++)
            if (d0[k] * F[k] > mmax) { mmax = d0[k] * F[k]; kmin = k; }
        if (kmin >= 0) rmin = 1 / mmax;
#else
        for (int k = 0; k < nc; k++)
            if (F[k] / d0[k] < rmin) { rmin = F[k] / d0[k]; kmin = k; }
#endif
        CHECK(ratio == rmin && bad == (kmin >= 0 ? P->s.perm[kmin] : -1),
              "%s ord %d: S ratio %g row %d, a plain loop %g row %d", m->name, ordering, ratio, bad,
              rmin, kmin);
        double *F2 = malloc(fs), ratio2;
        for (int pass = 0; pass < 2; pass++) {
            memcpy(F2, F0, fs);
            double below = pass == 0 ? ratio : nextafter(ratio, 2.0);
            int st2 = mb_sp_ldl_below(&P->s, F2, d0, 1e-12, &ratio2, &bad2, below);
            CHECK(st2 == MB_OK && ratio2 == ratio && bad2 == (pass == 0 ? -1 : bad) &&
                  memcmp(F2, F, fs) == 0,
                  "%s ord %d: mb_sp_ldl_below pass %d: st %d ratio %g row %d", m->name, ordering,
                  pass, st2, ratio2, bad2);
        }
        free(F2);
    }
    free(F0);
    if (st == MB_OK) {
        mb_sp_ldl_solve(&P->s, F, x, y);
        double r = resid(nc, Dn, x, b);
        CHECK(r < 1e-12, "%s ord %d: S residual %g", m->name, ordering, r);
    }
    /* A = M + a Pq^T Pq (symmetric), and the unsymmetric M + a E^T D - dQq - dQv */
    for (int pass = 0; pass < 2; pass++) {
        double a = 1e3;
        memset(F, 0, sizeof(double) * (n + 2 * (size_t)P->a.nl));
        memset(Dn, 0, sizeof(double) * (size_t)N * N);
        for (int i = 0; i < n; i++) { F[P->a.pinv[i]] += W[i]; Dn[i + (size_t)i * n] += W[i]; }
        for (int t = 0; t < P->na; t++) {
            int k = P->a_k[t], l = P->a_l[t], d = P->a_dst[t];
            if (pass == 0) F[d] += a * Pq[k] * Pq[l];
            else {
                F[d] += a * E[k] * Pq[l];
                if (d >= n) F[d + P->a.nl] += a * E[l] * Pq[k];
            }
        }
        for (int k = 0; k < nnz; k++)
            for (int l = 0; l < nnz; l++)
                if (row[k] == row[l]) Dn[col[k] + (size_t)col[l] * n] += a * (pass ? E[k] : Pq[k]) * Pq[l];
        if (pass == 1) {
            for (int k = 0; k < m->dq_dq_pat.nnz; k++) {
                dqq[k] = rnd();
                F[P->dqq_dst[k]] -= dqq[k];
                Dn[m->dq_dq_pat.row[k] + (size_t)m->dq_dq_pat.col[k] * n] -= dqq[k];
            }
            for (int k = 0; k < m->dq_dv_pat.nnz; k++) {
                dqv[k] = rnd();
                F[P->dqv_dst[k]] -= 0.5 * dqv[k];
                Dn[m->dq_dv_pat.row[k] + (size_t)m->dq_dv_pat.col[k] * n] -= 0.5 * dqv[k];
            }
        }
        for (int i = 0; i < n; i++) x[i] = b[i] = rnd();
        st = pass == 0 ? mb_sp_ldl(&P->a, F, d0, 0, &ratio, &bad) : mb_sp_lu(&P->a, F, &ratio, &bad);
        CHECK(st == MB_OK, "%s ord %d pass %d: A factor st %d", m->name, ordering, pass, st);
        if (st == MB_OK) {
            if (pass == 0) mb_sp_ldl_solve(&P->a, F, x, y);
            else mb_sp_lu_solve(&P->a, F, x, y);
            double r = resid(n, Dn, x, b);
            CHECK(r < 1e-11, "%s ord %d pass %d: A residual %g", m->name, ordering, pass, r);
        }
    }
    /* a NaN off the diagonal reaches a later pivot: non-finite in both kernels */
    if (P->a.nl > 0) {
        memset(F, 0, sizeof(double) * (n + 2 * (size_t)P->a.nl));
        for (int i = 0; i < n; i++) F[P->a.pinv[i]] = W[i] + 10;
        F[n + P->a.nl - 1] = NAN;   /* the last entry of L (and of U): the latest column */
        F[n + 2 * P->a.nl - 1] = NAN;
        double *F2 = malloc(sizeof(double) * (n + 2 * (size_t)P->a.nl));
        memcpy(F2, F, sizeof(double) * (n + 2 * (size_t)P->a.nl));
        double *F3 = malloc(sizeof(double) * (n + 2 * (size_t)P->a.nl));
        memcpy(F3, F, sizeof(double) * (n + 2 * (size_t)P->a.nl));
        int st1 = mb_sp_ldl(&P->a, F, d0, 0, &ratio, &bad), st2 = mb_sp_lu(&P->a, F2, &ratio, &bad);
        CHECK(st1 == MB_ERR_NONFINITE && st2 == MB_ERR_NONFINITE, "%s: NaN in L: ldl %d lu %d", m->name, st1, st2);
        int st3 = mb_sp_ldl(&P->a, F3, d0, 0, NULL, &bad);   /* no ratio wanted: the same test */
        CHECK(st3 == MB_ERR_NONFINITE, "%s: NaN in L, no ratio: ldl %d", m->name, st3);
        free(F3);
        free(F2);
    }
    /* rank loss: make the last constraint row a combination of the first (when they share the
     * same columns) - here simply zero a row: its pivot must be named */
    if (nc > 1) {
        int rz = nc / 2;
        for (int k = 0; k < nnz; k++) if (row[k] == rz) Pq[k] = 0;
        memset(F, 0, sizeof(double) * (nc + P->s.nl));
        for (int t = 0; t < P->ns; t++)
            F[P->s_dst[t]] += W[col[P->s_k[t]]] * Pq[P->s_k[t]] * Pq[P->s_l[t]];
        st = mb_sp_ldl(&P->s, F, d0, 1e-8, &ratio, &bad);
        CHECK(st == MB_ERR_SINGULAR && bad == rz, "%s: zero row %d named: st %d bad %d", m->name, rz, st, bad);
    }
    free(Pq); free(E); free(W); free(Dn); free(F); free(x); free(b); free(y); free(d0); free(dqq); free(dqv);
    mbp_free(P);
}

/* The LDL^T rank test as interface 27 had it, d_k > tol d0_k and d0_k > 0 tested apart, in a
 * plain right-looking sweep over the plan storage F (d0: n scratch values): the pivot it stops
 * at, -1 for none. The kernels test d_k > tol d0_k alone (interface 28) and must stop at the
 * same pivot for every tol mb_params_check accepts (check_rank_test). */
static int ldl_ref27(const mb_symbolic *sy, double *F, double *d0, double tol)
{
    int n = sy->n, u = 0;
    double *L = F + n;
    for (int k = 0; k < n; k++) d0[k] = F[k];
    for (int k = 0; k < n; k++) {
        double d = F[k];
        if (!(d > tol * d0[k]) || !(d0[k] > 0)) return k;
        double inv = 1 / d;
        for (int p = sy->lp[k]; p < sy->lp[k + 1]; p++) {
            double yp = L[p] * inv;
            for (int q = p; q < sy->lp[k + 1]; q++) F[sy->upd[u++]] -= L[q] * yp;
        }
        for (int p = sy->lp[k]; p < sy->lp[k + 1]; p++) L[p] *= inv;
    }
    return -1;
}

/* The generated plan's two forms: its unrolled functions (when the model was generated with
 * them) and the compact kernels on the same plan give bit-identical factors and solutions. */
static void check_forms(const mb_model *m)
{
    const mb_plan *P = m->plan;
    if (!P || !P->a.lu) return;
    int n = m->nq, nc = m->nc, nnz = m->phi_q_pat.nnz;
    mb_symbolic sc = P->s, ac = P->a;          /* compact copies: no unrolled functions */
    sc.ldl = NULL; sc.ldl_solve = NULL; sc.lu = NULL; sc.lu_solve = NULL;
    ac.ldl = NULL; ac.ldl_solve = NULL; ac.lu = NULL; ac.lu_solve = NULL;
    size_t len = (size_t)(n > nc ? n : nc) + 2 * (size_t)(P->a.nl > P->s.nl ? P->a.nl : P->s.nl) + 1;
    double *F1 = calloc(len, sizeof(double)), *F2 = calloc(len, sizeof(double));
    double *b1 = calloc(len, sizeof(double)), *b2 = calloc(len, sizeof(double));
    double *y = calloc(len, sizeof(double)), *d0 = calloc(len, sizeof(double));
    double *Pq = malloc(sizeof(double) * (nnz + 1)), ratio1, ratio2;
    int bad1, bad2, diff = 0;
    for (int k = 0; k < nnz; k++) Pq[k] = rnd();
    for (int t = 0; t < P->ns; t++) F1[P->s_dst[t]] += Pq[P->s_k[t]] * Pq[P->s_l[t]];
    memcpy(F2, F1, sizeof(double) * len);
    int st1 = mb_sp_ldl(&P->s, F1, d0, 1e-12, &ratio1, &bad1), st2 = mb_sp_ldl(&sc, F2, d0, 1e-12, &ratio2, &bad2);
    for (int r = 0; r < nc; r++) b1[r] = b2[r] = rnd();
    mb_sp_ldl_solve(&P->s, F1, b1, y);
    mb_sp_ldl_solve(&sc, F2, b2, y);
    diff |= memcmp(F1, F2, sizeof(double) * len) != 0 || memcmp(b1, b2, sizeof(double) * len) != 0;
    CHECK(st1 == st2 && bad1 == bad2 && ratio1 == ratio2 && !diff, "%s: S unrolled vs compact differ", m->name);
    int spd = st1 == MB_OK;
#if MB_LDL_RECIPROCAL
    /* the unrolled kernel's qmax: the largest of 1 and d0_k (1 / d_k) over the pivots that
     * passed, as a plain loop over what it left in d0 and D finds it */
    if (P->s.ldl && nc > 0) {
        double q = -1, mq = 1;
        memset(F1, 0, sizeof(double) * len);
        for (int t = 0; t < P->ns; t++) F1[P->s_dst[t]] += Pq[P->s_k[t]] * Pq[P->s_l[t]];
        int kf = P->s.ldl(F1, d0, 1e-12, &q);
        for (int k = 0; k < (kf < 0 ? nc : kf); k++) if (d0[k] * F1[k] > mq) mq = d0[k] * F1[k];
        CHECK(q == mq, "%s: ldl's qmax %.17g, the pivots' largest d0_k / d_k %.17g", m->name, q, mq);
    }
#endif
    /* a diagonal entry <= 0 (-1, +0, -0; an indefinite S) at one pivot: both forms stop there
     * with the same status, row and ratio, at tol 0 and above (the kernels' one test
     * d_k > tol d0_k also fails where d0_k <= 0, for 0 <= tol <= 1) */
    for (int c = 0; c < 6 && nc > 0 && spd; c++) {
        static const double neg[3] = {-1, 0, -0.0};
        double tol = c % 2 ? 1e-12 : 0;
        int kneg = (c * 7 + 3) % nc;
        memset(F1, 0, sizeof(double) * len);
        for (int t = 0; t < P->ns; t++) F1[P->s_dst[t]] += Pq[P->s_k[t]] * Pq[P->s_l[t]];
        F1[kneg] = neg[c / 2];
        memcpy(F2, F1, sizeof(double) * len);
        st1 = mb_sp_ldl(&P->s, F1, d0, tol, &ratio1, &bad1);
        st2 = mb_sp_ldl(&sc, F2, d0, tol, &ratio2, &bad2);
        CHECK(st1 == (tol > 0 ? MB_ERR_SINGULAR : MB_ERR_NOT_SPD) && st1 == st2 && bad1 == P->s.perm[kneg] &&
              bad2 == bad1 && ratio1 == ratio2 && ratio1 == 0 && memcmp(F1, F2, sizeof(double) * (size_t)kneg) == 0,
              "%s: diagonal %g at pivot %d, tol %g: st %d %d, bad %d %d, ratio %g %g", m->name, neg[c / 2],
              kneg, tol, st1, st2, bad1, bad2, ratio1, ratio2);
    }
    /* the one rank test d_k > tol d0_k stops where interface 27's two (d0_k > 0 apart) did,
     * for every tol mb_params_check takes (0, -0, the smallest denormal, a denormal product, 1e-12,
     * 0.999) and a diagonal entry NaN, +-Inf, +-denormal, +-0, -1 at one pivot, or a NaN or Inf in
     * L that reaches a later one: the unrolled kernel stops at the reference's pivot, and both
     * forms give the same status, row and ratio (bits), the row the reference's where singular */
    if (nc > 0 && spd && P->s.ldl) {
        static const double tols[6] = {0, -0.0, 4.9406564584124654e-324, 1e-300, 1e-12, 0.999};
        const double dpert[10] = {NAN, INFINITY, -INFINITY, -4.9406564584124654e-324, 4.9406564584124654e-324,
                                  -0.0, 0, -1, NAN, INFINITY};
        double *F3 = calloc(len, sizeof(double)), *d3 = calloc(len, sizeof(double)), q = 0;
        for (int c = 0; c < 11; c++)
            for (int it = 0; it < 6; it++) {
                double tol = tols[it];
                int kp = (c * 5 + 1) % nc;
                memset(F1, 0, sizeof(double) * len);
                for (int t = 0; t < P->ns; t++) F1[P->s_dst[t]] += Pq[P->s_k[t]] * Pq[P->s_l[t]];
                if (c < 8) F1[kp] = dpert[c];
                else if (c < 10 && P->s.nl > 0) F1[nc + (c * 3) % P->s.nl] = dpert[c];
                memcpy(F2, F1, sizeof(double) * len);
                memcpy(F3, F1, sizeof(double) * len);
                int kr = ldl_ref27(&P->s, F3, d3, tol);
                memcpy(F3, F1, sizeof(double) * len);
                int ku = P->s.ldl(F3, d0, tol, &q);
                st1 = mb_sp_ldl(&P->s, F1, d0, tol, &ratio1, &bad1);
                st2 = mb_sp_ldl(&sc, F2, d0, tol, &ratio2, &bad2);
                int ok = ku == kr && st1 == st2 && bad1 == bad2 && memcmp(&ratio1, &ratio2, sizeof ratio1) == 0 &&
                         (kr < 0 ? st1 == MB_OK || st1 == MB_ERR_NONFINITE
                                 : st1 == MB_ERR_NONFINITE ||
                                   (st1 == (tol > 0 ? MB_ERR_SINGULAR : MB_ERR_NOT_SPD) && bad1 == P->s.perm[kr]));
                CHECK(ok, "%s: rank test, case %d tol %g: reference pivot %d, unrolled %d; st %d %d, bad %d %d, "
                      "ratio %g %g", m->name, c, tol, kr, ku, st1, st2, bad1, bad2, ratio1, ratio2);
            }
        free(F3); free(d3);
    }
    for (int pass = 0; pass < 2; pass++) {   /* A: LDL^T (F3) and LU (F4) */
        memset(F1, 0, sizeof(double) * len);
        for (int i = 0; i < n; i++) F1[P->a.pinv[i]] = 1 + fabs(rnd());
        for (int t = 0; t < P->na; t++) {
            F1[P->a_dst[t]] += 10 * Pq[P->a_k[t]] * Pq[P->a_l[t]];
            if (pass && P->a_dst[t] >= n) F1[P->a_dst[t] + P->a.nl] += 10 * Pq[P->a_l[t]] * Pq[P->a_k[t]] + rnd();
        }
        memcpy(F2, F1, sizeof(double) * len);
        for (int i = 0; i < n; i++) b1[i] = b2[i] = rnd();
        if (pass == 0) {
            st1 = mb_sp_ldl(&P->a, F1, d0, 0, &ratio1, &bad1); st2 = mb_sp_ldl(&ac, F2, d0, 0, &ratio2, &bad2);
            mb_sp_ldl_solve(&P->a, F1, b1, y); mb_sp_ldl_solve(&ac, F2, b2, y);
        } else {
            st1 = mb_sp_lu(&P->a, F1, &ratio1, &bad1); st2 = mb_sp_lu(&ac, F2, &ratio2, &bad2);
            mb_sp_lu_solve(&P->a, F1, b1, y); mb_sp_lu_solve(&ac, F2, b2, y);
        }
        diff = memcmp(F1, F2, sizeof(double) * len) != 0 || memcmp(b1, b2, sizeof(double) * len) != 0;
        CHECK(st1 == MB_OK && st1 == st2 && !diff, "%s: A pass %d unrolled vs compact differ (st %d %d)",
              m->name, pass, st1, st2);
    }
    /* the unrolled assembly against the loops over the maps, bit for bit */
    if (P->s_assemble && P->a_assemble) {
        double *w = malloc(sizeof(double) * (n + 1)), *E = malloc(sizeof(double) * (nnz + 1));
        for (int i = 0; i < n; i++) w[i] = 0.5 + fabs(rnd());
        for (int k = 0; k < nnz; k++) E[k] = 1e3 * Pq[k] + rnd();
        memset(F1, 0, sizeof(double) * len);
        for (int k = 0; k < P->s.n + P->s.nl; k++) F1[k] = NAN;   /* s_assemble writes them all */
        memset(F2, 0, sizeof(double) * len);
        /* s_assemble takes Phi_q's constant +-1 entries as such: the model's Phi_q (at q0, its
         * other entries perturbed so that they are not +-1 by chance) */
        double *G = malloc(sizeof(double) * (nnz + 1)), *q = malloc(sizeof(double) * (n + 1));
        for (int i = 0; i < n; i++) q[i] = m->q0[i] + 0.1 * rnd();
        m->phi_q(m, 0, q, G);
        P->s_assemble(F1, G, w);
        mb_sp_assemble_s_maps(m, G, w, F2);
        CHECK(memcmp(F1, F2, sizeof(double) * (size_t)(P->s.n + P->s.nl)) == 0, "%s: S assembly unrolled vs maps differ", m->name);
        memset(F2, 0, sizeof(double) * len);
        for (int t = 0; t < P->ns; t++)
            F2[P->s_dst[t]] += w[m->phi_q_pat.col[P->s_k[t]]] * G[P->s_k[t]] * G[P->s_l[t]];
        CHECK(memcmp(F1, F2, sizeof(double) * len) == 0, "%s: S assembly unrolled vs the terms differ", m->name);
        int kv = 0;                                              /* negative control: */
        while (kv < nnz && (G[kv] == 1 || G[kv] == -1)) kv++;     /* a variable entry moved */
        if (kv < nnz) {
            G[kv] += 0.25;
            P->s_assemble(F1, G, w);
            G[kv] -= 0.25;
            CHECK(memcmp(F1, F2, sizeof(double) * len) != 0, "%s: a perturbed Phi_q entry left S unchanged", m->name);
        }
        /* S's assembly and LDL^T in one kernel against s_assemble then the ldl: the same
         * result, *qmax, d0 and factors, bit for bit (at a pivot that fails: D, d0 and L's
         * columns up to it); c = 2, 3: W with a negative entry, so that S may be indefinite */
        if (P->pq && P->pq->s_factor && P->s.ldl) {
            int ns_ = P->s.n, fails = 0;
            double *d1 = calloc((size_t)ns_ + 1, sizeof(double)), *d2 = calloc((size_t)ns_ + 1, sizeof(double));
            for (int c = 0; c < 4; c++) {
                double tol = c % 2 ? 0 : 1e-12, q1 = -1, q2 = -2;
                if (c == 2) for (int i = 0; i < n; i += 2) w[i] = -w[i];
                for (int k = 0; k < ns_ + P->s.nl; k++) F1[k] = F2[k] = NAN;
                P->s_assemble(F2, G, w);
                int k2 = P->s.ldl(F2, d2, tol, &q2);
                int k1 = P->pq->s_factor(F1, d1, tol, &q1, G, w);
                int kend = k1 < 0 ? ns_ : k1 + 1;
                size_t nlw = (size_t)P->s.lp[k1 < 0 ? ns_ : k1];   /* L's columns done */
                fails += k1 >= 0;
                CHECK(k1 == k2 && q1 == q2 && memcmp(d1, d2, sizeof(double) * (size_t)kend) == 0 &&
                      memcmp(F1, F2, sizeof(double) * (size_t)kend) == 0 &&
                      memcmp(F1 + ns_, F2 + ns_, sizeof(double) * nlw) == 0,
                      "%s: s_factor vs s_assemble + ldl (case %d): result %d %d, qmax %.17g %.17g", m->name,
                      c, k1, k2, q1, q2);
            }
            for (int i = 0; i < n; i += 2) w[i] = -w[i];
            CHECK(fails > 0, "%s: s_factor's failing pivot not reached (W with negative entries)", m->name);
            free(d1); free(d2);
        }
        /* the baumgarte KKT solve's right-hand side in one pass against x = mi b + cv v, the
         * pattern's loop for Phi_q x and the subtraction, bit for bit; a perturbed entry shows */
        if (P->pq && P->pq->kkt_bv && nc > 0) {
            double *bb = malloc(sizeof(double) * (n + 1)), *vv = malloc(sizeof(double) * (n + 1));
            double *xx = malloc(sizeof(double) * (n + 1)), *ga = malloc(sizeof(double) * (nc + 1));
            double *pt = malloc(sizeof(double) * (nc + 1)), *ph = malloc(sizeof(double) * (nc + 1));
            double *y1 = malloc(sizeof(double) * (nc + 1)), *y2 = malloc(sizeof(double) * (nc + 1));
            double cv = 2.5 + rnd(), c2 = 1e4 * (1 + rnd());
            for (int i = 0; i < n; i++) { bb[i] = 100 * rnd(); vv[i] = rnd(); xx[i] = w[i] * bb[i] + cv * vv[i]; }
            for (int r = 0; r < nc; r++) { ga[r] = rnd(); pt[r] = rnd(); ph[r] = 1e-3 * rnd(); y2[r] = 0; }
            for (int k = 0; k < nnz; k++) y2[m->phi_q_pat.row[k]] += G[k] * xx[m->phi_q_pat.col[k]];
            for (int r = 0; r < nc; r++) y2[r] -= ga[r] - (cv * pt[r] + c2 * ph[r]);
            P->pq->kkt_bv(G, w, bb, vv, cv, ga, pt, ph, cv, c2, y1);
            CHECK(memcmp(y1, y2, sizeof(double) * (size_t)nc) == 0, "%s: kkt_bv vs the loops differ", m->name);
            if (P->pq->kkt_bi) {   /* canonical's: x = mi b, y = Phi_q x - (-pt - c1 ph - c2 I), I in ga */
                double *y3 = malloc(sizeof(double) * (nc + 1));
                for (int i = 0; i < n; i++) xx[i] = w[i] * bb[i];
                for (int r = 0; r < nc; r++) y3[r] = 0;
                for (int k = 0; k < nnz; k++) y3[m->phi_q_pat.row[k]] += G[k] * xx[m->phi_q_pat.col[k]];
                for (int r = 0; r < nc; r++) y3[r] -= -pt[r] - cv * ph[r] - c2 * ga[r];
                P->pq->kkt_bi(G, w, bb, pt, ph, ga, cv, c2, y1);
                CHECK(memcmp(y1, y3, sizeof(double) * (size_t)nc) == 0, "%s: kkt_bi vs the loops differ", m->name);
                free(y3);
            }
            int kv = 0;
            while (kv < nnz && (G[kv] == 1 || G[kv] == -1)) kv++;
            if (kv < nnz) {
                G[kv] += 0.25;
                P->pq->kkt_bv(G, w, bb, vv, cv, ga, pt, ph, cv, c2, y1);
                G[kv] -= 0.25;
                CHECK(memcmp(y1, y2, sizeof(double) * (size_t)nc) != 0, "%s: kkt_bv ignored a perturbed Phi_q entry",
                      m->name);
            }
            free(bb); free(vv); free(xx); free(ga); free(pt); free(ph); free(y1); free(y2);
        }
        free(G); free(q);
        for (int unsym = 0; unsym < 2; unsym++) {
            memset(F1, 0, sizeof(double) * len);
            memset(F2, 0, sizeof(double) * len);
            P->a_assemble(F1, E, Pq, unsym);
            for (int t = 0; t < P->na; t++) {
                int k = P->a_k[t], l = P->a_l[t], d = P->a_dst[t];
                F2[d] += E[k] * Pq[l];
                if (unsym && d >= n) F2[d + P->a.nl] += E[l] * Pq[k];
            }
            CHECK(memcmp(F1, F2, sizeof(double) * len) == 0, "%s: A assembly (unsym %d) unrolled vs maps differ",
                  m->name, unsym);
        }
        free(w); free(E);
    }
    /* the unrolled products with Phi_q against the pattern's loops, bit for bit; a perturbed
     * value must show (the comparison can fail) */
    if (P->pq && nnz > 0) {
        int nc = m->nc;
        double *x = malloc(sizeof(double) * (n + 1)), *o1 = malloc(sizeof(double) * (n + nc + 1));
        double *o2 = malloc(sizeof(double) * (n + nc + 1));
        for (int i = 0; i < n; i++) x[i] = rnd();
        for (int i = 0; i < nc; i++) o1[i] = o2[i] = rnd();   /* pq_mv must overwrite them */
        P->pq->mv(Pq, x, o1);
        memset(o2, 0, sizeof(double) * (size_t)nc);
        for (int k = 0; k < nnz; k++) o2[m->phi_q_pat.row[k]] += Pq[k] * x[m->phi_q_pat.col[k]];
        CHECK(memcmp(o1, o2, sizeof(double) * (size_t)nc) == 0, "%s: Phi_q x unrolled vs loop differ", m->name);
        for (int neg = 0; neg < 2; neg++) {
            double a = neg ? -0.75 : 1;
            for (int i = 0; i < n; i++) o1[i] = o2[i] = rnd();
            P->pq->mtv(Pq, x, a, o1);
            for (int k = 0; k < nnz; k++) o2[m->phi_q_pat.col[k]] += a * Pq[k] * x[m->phi_q_pat.row[k]];
            CHECK(memcmp(o1, o2, sizeof(double) * (size_t)n) == 0, "%s: Phi_q^T y (a %g) unrolled vs loop differ",
                  m->name, a);
        }
        Pq[0] += 1e-3;                                       /* negative control */
        P->pq->mv(Pq, x, o1);
        Pq[0] -= 1e-3;
        CHECK(memcmp(o1, o2, sizeof(double) * (size_t)nc) != 0 || x[m->phi_q_pat.col[0]] == 0,
              "%s: a perturbed Phi_q entry left Phi_q x unchanged", m->name);
        free(x); free(o1); free(o2);
    }
    /* the products for Phi_q's own values (its constant +-1 entries as such) against the loops,
     * bit for bit, on the model's Phi_q at a perturbed q, x and y with zeros of both signs; a
     * perturbed variable entry must show */
    if (P->pq && P->pq->phiq_mv && P->pq->phiq_x && nnz > 0) {
        int nc = m->nc, kv = 0;
        double *G = malloc(sizeof(double) * (nnz + 1)), *q = malloc(sizeof(double) * (n + 1));
        double *x = malloc(sizeof(double) * (n + nc + 1)), *o1 = malloc(sizeof(double) * (n + nc + 1));
        double *o2 = malloc(sizeof(double) * (n + nc + 1));
        double *b = malloc(sizeof(double) * (n + 1)), *w = malloc(sizeof(double) * (n + 1));
        for (int i = 0; i < n; i++) q[i] = m->q0[i] + 0.1 * rnd();
        m->phi_q(m, 0, q, G);
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < n + nc; i++) x[i] = pass && i % 3 ? (i % 2 ? 0.0 : -0.0) : rnd();
            for (int i = 0; i < nc; i++) o1[i] = rnd();
            P->pq->phiq_mv(G, x, o1);
            memset(o2, 0, sizeof(double) * (size_t)nc);
            for (int k = 0; k < nnz; k++) o2[m->phi_q_pat.row[k]] += G[k] * x[m->phi_q_pat.col[k]];
            CHECK(memcmp(o1, o2, sizeof(double) * (size_t)nc) == 0, "%s: phiq_mv vs loop differ (pass %d)",
                  m->name, pass);
            /* x = w (b - Phi_q^T y): b copied, the loop with a = -1, the product with w */
            for (int i = 0; i < n; i++) { b[i] = pass && i % 2 ? -0.0 : rnd(); w[i] = 0.5 + fabs(rnd()); }
            for (int i = 0; i < n; i++) o1[i] = rnd();
            P->pq->phiq_x(G, x, b, w, o1);
            memcpy(o2, b, sizeof(double) * (size_t)n);
            for (int k = 0; k < nnz; k++) o2[m->phi_q_pat.col[k]] += -1 * G[k] * x[m->phi_q_pat.row[k]];
            for (int i = 0; i < n; i++) o2[i] *= w[i];
            CHECK(memcmp(o1, o2, sizeof(double) * (size_t)n) == 0, "%s: phiq_x (pass %d) vs loop differ",
                  m->name, pass);
        }
        for (int i = 0; i < n + nc; i++) x[i] = 1 + fabs(rnd());
        while (kv < nnz && (G[kv] == 1 || G[kv] == -1)) kv++;   /* negative control */
        if (kv < nnz) {
            for (int i = 0; i < n; i++) b[i] = w[i] = 1;
            P->pq->phiq_mv(G, x, o2);
            P->pq->phiq_x(G, x, b, w, o2 + nc);
            G[kv] += 0.25;
            P->pq->phiq_mv(G, x, o1);
            P->pq->phiq_x(G, x, b, w, o1 + nc);
            CHECK(memcmp(o1, o2, sizeof(double) * (size_t)nc) != 0, "%s: a perturbed Phi_q entry left phiq_mv unchanged",
                  m->name);
            CHECK(memcmp(o1 + nc, o2 + nc, sizeof(double) * (size_t)n) != 0,
                  "%s: a perturbed Phi_q entry left phiq_x unchanged", m->name);
        }
        free(G); free(q); free(x); free(o1); free(o2); free(b); free(w);
    }
    free(F1); free(F2); free(b1); free(b2); free(y); free(d0); free(Pq);
}

/* The unrolled F4 kernels (mb_plan.f4) against the loops of runtime/mb_f4_trapezoid.c
 * (written out here over the patterns and maps, in the runtime's order), bit for bit, on random
 * values; a perturbed input must show (the comparison can fail). */
static void check_f4_kernels(const mb_model *m)
{
    const mb_plan *P = m->plan;
    if (!P || !P->f4) return;
    const mb_f4_kernels *K = P->f4;
    int n = m->nq, nc = m->nc, nnz = m->phi_q_pat.nnz, nl = P->a.nl, nF = n + 2 * nl;
    int nqq = m->dq_dq_pat.nnz, nqv = m->dq_dv_pat.nnz;
    const mb_index *row = m->phi_q_pat.row, *col = m->phi_q_pat.col;
    size_t L = (size_t)(nF + nnz + n + nc + nqq + nqv) + 1;
    double *Pq = malloc(sizeof(double) * L), *Pqd = malloc(sizeof(double) * L);
    double *dQq = malloc(sizeof(double) * L), *dQv = malloc(sizeof(double) * L);
    double *mass = malloc(sizeof(double) * L), *F1 = malloc(sizeof(double) * L), *F2 = malloc(sizeof(double) * L);
    double *D1 = malloc(sizeof(double) * L), *D2 = malloc(sizeof(double) * L), *E = malloc(sizeof(double) * L);
    double *v = malloc(sizeof(double) * L), *pv = malloc(sizeof(double) * L), *pd = malloc(sizeof(double) * L);
    double *Q = malloc(sizeof(double) * L), *Phi = malloc(sizeof(double) * L), *Pht = malloc(sizeof(double) * L);
    double *I = malloc(sizeof(double) * L), *c1 = malloc(sizeof(double) * L), *c2 = malloc(sizeof(double) * L);
    double *sg1 = malloc(sizeof(double) * L), *sg2 = malloc(sizeof(double) * L);
    double *o1 = malloc(sizeof(double) * L), *o2 = malloc(sizeof(double) * L);
    double *o3 = malloc(sizeof(double) * L), *o4 = malloc(sizeof(double) * L);
    double *o5 = malloc(sizeof(double) * L), *o6 = malloc(sizeof(double) * L);
    double a = 1e8 * (1 + 0.1 * rnd()), cc = 1 + fabs(rnd()), h = 1e-5 * (1 + fabs(rnd()));
    double k1 = 2e4 * (1 + rnd()), k2 = 1 + rnd(), g = h / 2;
    for (size_t i = 0; i < L; i++) {
        Pq[i] = rnd(); Pqd[i] = rnd(); dQq[i] = 1e3 * rnd(); dQv[i] = rnd(); mass[i] = 1 + fabs(rnd());
        v[i] = rnd(); pv[i] = rnd(); pd[i] = rnd(); Q[i] = rnd(); Phi[i] = 1e-6 * rnd();
        Pht[i] = rnd(); I[i] = 1e-9 * rnd(); sg1[i] = sg2[i] = rnd();
        F1[i] = F2[i] = o1[i] = o2[i] = o3[i] = o4[i] = o5[i] = o6[i] = rnd();   /* outputs: overwritten */
    }
    /* the Newton matrix (F4 row's matrix) */
    K->matrix(F1, D1, mass, Pq, Pqd, dQq, dQv, a, cc, h);
    for (int k = 0; k < nnz; k++) { E[k] = a * (Pq[k] - h / 2 * Pqd[k]); D2[k] = cc * Pq[k] + h / 2 * Pqd[k]; }
    memset(F2, 0, sizeof(double) * (size_t)nF);
    for (int i = 0; i < n; i++) F2[P->a.pinv[i]] = mass[i];
    for (int t = 0; t < P->na; t++) {
        int k = P->a_k[t], l = P->a_l[t], d = P->a_dst[t];
        F2[d] += E[k] * D2[l];
        if (d >= n) F2[d + nl] += E[l] * D2[k];
    }
    for (int k = 0; k < nqq; k++) F2[P->dqq_dst[k]] -= h * h / 4 * dQq[k];
    for (int k = 0; k < nqv; k++) F2[P->dqv_dst[k]] -= h / 2 * dQv[k];
    CHECK(memcmp(F1, F2, sizeof(double) * (size_t)nF) == 0 && memcmp(D1, D2, sizeof(double) * (size_t)nnz) == 0,
          "%s: F4 Newton matrix unrolled vs loops differ", m->name);
    /* the matrix factored in one kernel: the loops' matrix and the compact LU, the same factors
     * and D bit for bit (but for the sign of a zero entry, which random values have not) */
    if (K->factor) {
        mb_symbolic cs = P->a;
        cs.lu = NULL;   /* lu_compact */
        double *F3 = malloc(sizeof(double) * L), *D3 = malloc(sizeof(double) * L);
        for (size_t i = 0; i < L; i++) F3[i] = D3[i] = rnd();
        int bad, kf = K->factor(F3, D3, mass, Pq, Pqd, dQq, dQv, a, cc, h), st = mb_sp_lu(&cs, F2, NULL, &bad);
        CHECK(kf == -1 && st == MB_OK && memcmp(F3, F2, sizeof(double) * (size_t)nF) == 0 &&
              memcmp(D3, D2, sizeof(double) * (size_t)nnz) == 0,
              "%s: F4 factor (%d) vs matrix + LU (%d) differ", m->name, kf, st);
        /* a zero pivot: with Phi_q, Phidot_q and the force Jacobians zero A is M, and a zero
         * mass is its pivot, named as the LU names it */
        double *z = calloc(L, sizeof(double));
        int i0 = (int)((unsigned)rand() % (unsigned)n), kp = P->a.pinv[i0];
        double keep = mass[i0];
        mass[i0] = 0;
        kf = K->factor(F3, D3, mass, z, z, z, z, a, cc, h);
        K->matrix(F2, D2, mass, z, z, z, z, a, cc, h);
        int kl = P->a.lu ? P->a.lu(F2) : -2;
        CHECK(kf == kp && kl == kp, "%s: F4 factor of mass 0 at %d: pivot %d (LU %d), not %d", m->name, i0, kf,
              kl, kp);
        mass[i0] = keep;
        free(F3); free(D3); free(z);
    }
    /* mbi_f4_constraint, with and without the update */
    for (int upd = 0; upd < 2; upd++) {
        K->constraint(c1, upd ? sg1 : NULL, Pq, v, Pht, Phi, I, k1, k2, a);
        memset(c2, 0, sizeof(double) * (size_t)nc);
        for (int k = 0; k < nnz; k++) c2[row[k]] += Pq[k] * v[col[k]];
        for (int r = 0; r < nc; r++) c2[r] += Pht[r] + k1 * Phi[r] + k2 * I[r];
        if (upd) for (int r = 0; r < nc; r++) sg2[r] += a * c2[r];
        CHECK(memcmp(c1, c2, sizeof(double) * (size_t)nc) == 0 && memcmp(sg1, sg2, sizeof(double) * (size_t)nc) == 0,
              "%s: F4 constraint (upd %d) unrolled vs loops differ", m->name, upd);
    }
    /* mbi_f4_residual */
    K->residual(o1, o3, o5, sg1, c1, mass, v, pv, pd, Q, Pq, Pqd, a, g);
    for (int r = 0; r < nc; r++) o2[r] = sg1[r] + a * c1[r];
    for (int i = 0; i < n; i++) { o4[i] = mass[i] * v[i] - pv[i]; o6[i] = pd[i] - Q[i]; }
    for (int k = 0; k < nnz; k++) o4[col[k]] += 1 * Pq[k] * o2[row[k]];
    for (int k = 0; k < nnz; k++) o6[col[k]] += -1 * Pqd[k] * o2[row[k]];
    for (int i = 0; i < n; i++) { o4[i] *= g; o6[i] *= g; }
    CHECK(memcmp(o1, o2, sizeof(double) * (size_t)nc) == 0 && memcmp(o3, o4, sizeof(double) * (size_t)n) == 0 &&
          memcmp(o5, o6, sizeof(double) * (size_t)n) == 0, "%s: F4 residual unrolled vs loops differ", m->name);
    /* mbi_f4_dg2 (dq in v) */
    K->dg2(o1, v, dQq, dQv, D1, Pqd, a, g);
    memset(o2, 0, sizeof(double) * (size_t)n);
    for (int k = 0; k < nqq; k++) o2[m->dq_dq_pat.row[k]] += g * dQq[k] * v[m->dq_dq_pat.col[k]];
    for (int k = 0; k < nqv; k++) o2[m->dq_dv_pat.row[k]] += dQv[k] * v[m->dq_dv_pat.col[k]];
    memset(o3, 0, sizeof(double) * (size_t)nc);
    for (int k = 0; k < nnz; k++) o3[row[k]] += D1[k] * v[col[k]];
    for (int r = 0; r < nc; r++) o3[r] *= a;
    for (int k = 0; k < nnz; k++) o2[col[k]] += 1 * Pqd[k] * o3[row[k]];
    CHECK(memcmp(o1, o2, sizeof(double) * (size_t)n) == 0, "%s: F4 dg2 unrolled vs loops differ", m->name);
    /* the trapezoid's pass up to the solve (newton_rhs) against the residual above and the loop
     * of mb_trapezoid.c: b = -g1 - g g2 with g1, g2 the residual's (from sg1, c1), p in z */
    if (K->newton_rhs) {
        size_t nz = 3 * (size_t)n + (size_t)nc;
        double *z = malloc(sizeof(double) * nz), *b1 = malloc(sizeof(double) * L), *gg = malloc(sizeof(double) * L);
        for (size_t i = 0; i < nz; i++) z[i] = rnd();
        for (int i = 0; i < n; i++) z[n + i] = pv[i];
        K->newton_rhs(b1, gg, sg1, c1, z, v, pd, mass, Pq, Pqd, Q, a, g);
        K->residual(o1, o3, o5, sg1, c1, mass, v, pv, pd, Q, Pq, Pqd, a, g);
        for (int i = 0; i < n; i++) o4[i] = -o3[i] - g * o5[i];
        CHECK(memcmp(b1, o4, sizeof(double) * (size_t)n) == 0 && memcmp(gg, o5, sizeof(double) * (size_t)n) == 0,
              "%s: F4 newton_rhs vs residual and -g1 - g g2 differ", m->name);
        /* negative control: p's entry 0 (in z) moves g1_0, so b_0 */
        z[n] += 1;
        K->newton_rhs(b1, gg, sg1, c1, z, v, pd, mass, Pq, Pqd, Q, a, g);
        CHECK(n == 0 || b1[0] != o4[0], "%s: a perturbed p left newton_rhs's b unchanged", m->name);
        free(z); free(b1); free(gg);
    }
    /* negative control: one changed entry of Phidot_q changes the residual */
    if (nnz > 0) {
        Pqd[0] += 1e-3;
        K->residual(o1, o3, o5, sg1, c1, mass, v, pv, pd, Q, Pq, Pqd, a, g);
        Pqd[0] -= 1e-3;
        CHECK(memcmp(o5, o6, sizeof(double) * (size_t)n) != 0, "%s: a perturbed Phidot_q entry left g2 unchanged",
              m->name);
    }
    free(Pq); free(Pqd); free(dQq); free(dQv); free(mass); free(F1); free(F2); free(D1); free(D2); free(E);
    free(v); free(pv); free(pd); free(Q); free(Phi); free(Pht); free(I); free(c1); free(c2); free(sg1); free(sg2);
    free(o1); free(o2); free(o3); free(o4); free(o5); free(o6);
}

/* A whole alf-trapezoid run on the unrolled F4 kernels and on the runtime's loops (the same
 * model with plan.f4 cleared) ends in the same state, bit for bit. */
static void check_f4_run(const mb_model *m)
{
    if (!m->plan || !m->plan->f4 || m->nc == 0) return;
    mb_plan loops = *m->plan;
    mb_model ml = *m;
    loops.f4 = NULL;
    ml.plan = &loops;
    const mb_model *pair[2] = { m, &ml };
    double *res[2] = { NULL, NULL };
    long iters[2] = { -1, -2 };
    int n = m->nq, ok = 1;
    for (int w = 0; w < 2; w++) {
        mb_params p;
        mb_params_default(&p, MB_ALF_TRAPEZOID);
        p.h = 1e-3;
        size_t ws = mb_sim_workspace_size(pair[w], &p);
        void *buf = malloc(ws ? ws : 1);
        mb_sim_storage s_mem;
        mb_sim *s = mb_sim_of(&s_mem);
        int st = mb_sim_init(s, pair[w], &p, buf, ws);
        if (!st) st = mb_sim_reset(s, 0, NULL, NULL, 1);
        if (!st) st = mb_sim_step(s, 0.05);
        ok &= st >= 0;
        res[w] = malloc(sizeof(double) * (2 * (size_t)n + 1));
        memcpy(res[w], mb_sim_get_q(s), sizeof(double) * (size_t)n);
        memcpy(res[w] + n, mb_sim_get_v(s), sizeof(double) * (size_t)n);
        iters[w] = mb_sim_get_monitor(s)->newton_iters;
        free(buf);
    }
    CHECK(ok && iters[0] == iters[1] && iters[0] > 0 && memcmp(res[0], res[1], sizeof(double) * 2 * (size_t)n) == 0,
          "%s: alf-trapezoid run on the F4 kernels vs the loops differ (newton %ld %ld)", m->name, iters[0], iters[1]);
    free(res[0]); free(res[1]);
}

/* The unrolled pass of alf-explicit's sigma iteration (mb_plan.f3) against the loops of
 * runtime/mb_f3_alf.c and the compact kernels (written out here: pq_mtv with a = -1, the compact
 * LDL^T solve, pq_mv), bit for bit, on random values; a perturbed input must show. */
static void check_alf_kernel(const mb_model *m)
{
    const mb_plan *P = m->plan;
    if (!P || !P->f3) return;
    int n = m->nq, nc = m->nc, nnz = m->phi_q_pat.nnz, nF = n + P->a.nl;
    const mb_index *row = m->phi_q_pat.row, *col = m->phi_q_pat.col;
    size_t L = (size_t)(nF + nnz + n + nc) + 1;
    double *F = malloc(sizeof(double) * L), *Pq = malloc(sizeof(double) * L), *pv = malloc(sizeof(double) * L);
    double *b = malloc(sizeof(double) * L), *sg1 = malloc(sizeof(double) * L), *sg2 = malloc(sizeof(double) * L);
    double *v1 = malloc(sizeof(double) * L), *v2 = malloc(sizeof(double) * L), *sb = malloc(sizeof(double) * L);
    double *rhs = malloc(sizeof(double) * L), *c = malloc(sizeof(double) * L), *y = malloc(sizeof(double) * L);
    double a = 1e8 * (1 + 0.1 * rnd());
    for (size_t i = 0; i < L; i++) {
        F[i] = rnd(); Pq[i] = rnd(); pv[i] = rnd(); b[i] = 1e-6 * rnd();
        sg1[i] = sg2[i] = rnd(); v1[i] = v2[i] = rnd();
    }
    for (int k = 0; k < n; k++) F[k] = 1 + fabs(rnd());   /* the pivots D */
    double dv1 = P->f3->iter(F, Pq, pv, b, sg1, v1, a), dv2 = 0;
    /* the matrix: mbi_alf_velocity's E = a Pq and mbi_assemble_a's loops */
    double *A1 = malloc(sizeof(double) * L), *A2 = malloc(sizeof(double) * L), *mass = malloc(sizeof(double) * L);
    for (size_t i = 0; i < L; i++) { A1[i] = A2[i] = rnd(); mass[i] = 1 + fabs(rnd()); }
    P->f3->matrix(A1, mass, Pq, a);
    for (int k = 0; k < nnz; k++) y[k] = a * Pq[k];
    memset(A2, 0, sizeof(double) * (size_t)nF);
    for (int i = 0; i < n; i++) A2[P->a.pinv[i]] = mass[i];
    for (int t = 0; t < P->na; t++) A2[P->a_dst[t]] += y[P->a_k[t]] * Pq[P->a_l[t]];
    CHECK(memcmp(A1, A2, sizeof(double) * (size_t)nF) == 0, "%s: alf-explicit matrix unrolled vs loops differ",
          m->name);
    /* the matrix factored in one kernel: the loops' matrix and the compact LDL^T at tol 0, the
     * same factors bit for bit (but for the sign of a zero entry, which random values have not) */
    mb_symbolic cs = P->a;
    cs.ldl = NULL;   /* ldl_compact */
    double *d0 = malloc(sizeof(double) * L);
    int bad, kf = P->f3->factor(A1, mass, Pq, a), st = mb_sp_ldl(&cs, A2, d0, 0, NULL, &bad);
    CHECK(kf == -1 && st == MB_OK && memcmp(A1, A2, sizeof(double) * (size_t)nF) == 0,
          "%s: alf-explicit factor (%d) vs matrix + LDL^T (%d) differ", m->name, kf, st);
    /* not positive definite (a = 0, a negative mass) and not finite (Inf, NaN): the pivot named */
    int i0 = (int)((unsigned)rand() % (unsigned)n), kp = P->a.pinv[i0];
    static const double bad_mass[3] = { -1, INFINITY, NAN };
    for (int c3 = 0; c3 < 3; c3++) {
        double keep = mass[i0];
        mass[i0] = bad_mass[c3];
        kf = P->f3->factor(A1, mass, Pq, 0);
        CHECK(kf == kp && (c3 == 0 ? A1[kp] == -1 : !isfinite(A1[kp])),
              "%s: alf-explicit factor of mass %g at %d: pivot %d (%g), not %d", m->name, bad_mass[c3], i0, kf,
              kf >= 0 ? A1[kf] : 0, kp);
        mass[i0] = keep;
    }
    free(A1); free(A2); free(mass); free(d0);
    mb_symbolic compact = P->a;
    compact.ldl_solve = NULL;   /* mb_sp_ldl_solve's own loops */
    for (int r = 0; r < nc; r++) sb[r] = a * b[r] + sg2[r];
    memcpy(rhs, pv, sizeof(double) * (size_t)n);
    for (int k = 0; k < nnz; k++) rhs[col[k]] += -1.0 * Pq[k] * sb[row[k]];
    mb_sp_ldl_solve(&compact, F, rhs, y);
    memset(c, 0, sizeof(double) * (size_t)nc);
    for (int k = 0; k < nnz; k++) c[row[k]] += Pq[k] * rhs[col[k]];
    for (int r = 0; r < nc; r++) sg2[r] += a * (c[r] + b[r]);
    for (int i = 0; i < n; i++) { double e = rhs[i] - v2[i]; dv2 += e * e; v2[i] = rhs[i]; }
    CHECK(memcmp(&dv1, &dv2, sizeof dv1) == 0 && memcmp(sg1, sg2, sizeof(double) * (size_t)nc) == 0 &&
          memcmp(v1, v2, sizeof(double) * (size_t)n) == 0,
          "%s: alf-explicit sigma pass unrolled vs loops differ (dv %.17g %.17g)", m->name, dv1, dv2);
    /* negative control: one changed entry of Phi_q changes sigma~ */
    if (nnz > 0 && nc > 0) {
        memcpy(sg1, sg2, sizeof(double) * (size_t)nc);
        memcpy(c, sg2, sizeof(double) * (size_t)nc);
        P->f3->iter(F, Pq, pv, b, sg1, v1, a);
        Pq[0] += 1e-3;
        P->f3->iter(F, Pq, pv, b, c, v2, a);
        CHECK(memcmp(sg1, c, sizeof(double) * (size_t)nc) != 0, "%s: a perturbed Phi_q entry left sigma~ unchanged",
              m->name);
    }
    free(F); free(Pq); free(pv); free(b); free(sg1); free(sg2); free(v1); free(v2); free(sb); free(rhs); free(c);
    free(y);
}

/* A whole alf-explicit run on the unrolled pass and on the runtime's loops (the same model with
 * plan.f3 cleared) ends in the same state, bit for bit, after the same iterations. */
static void check_alf_run(const mb_model *m)
{
    if (!m->plan || !m->plan->f3 || m->nc == 0) return;
    mb_plan loops = *m->plan;
    mb_model ml = *m;
    loops.f3 = NULL;
    ml.plan = &loops;
    const mb_model *pair[2] = { m, &ml };
    double *res[2] = { NULL, NULL };
    long iters[2] = { -1, -2 }, solves[2] = { -1, -2 };
    int n = m->nq, nc = m->nc, ok = 1;
    for (int w = 0; w < 2; w++) {
        mb_params p;
        mb_params_default(&p, MB_ALF_EXPLICIT);
        p.h = 1e-4;
        size_t ws = mb_sim_workspace_size(pair[w], &p);
        void *buf = malloc(ws ? ws : 1);
        mb_sim_storage s_mem;
        mb_sim *s = mb_sim_of(&s_mem);
        int st = mb_sim_init(s, pair[w], &p, buf, ws);
        if (!st) st = mb_sim_reset(s, 0, NULL, NULL, 1);
        if (!st) st = mb_sim_step(s, 0.01);
        ok &= st >= 0;
        res[w] = malloc(sizeof(double) * (2 * (size_t)n + (size_t)nc + 1));
        memcpy(res[w], mb_sim_get_q(s), sizeof(double) * (size_t)n);
        memcpy(res[w] + n, mb_sim_get_v(s), sizeof(double) * (size_t)n);
        memcpy(res[w] + 2 * n, mb_sim_get_sigma(s), sizeof(double) * (size_t)nc);
        iters[w] = mb_sim_get_monitor(s)->alf_iters;
        solves[w] = mb_sim_get_monitor(s)->solves;
        free(buf);
    }
    CHECK(ok && iters[0] == iters[1] && solves[0] == solves[1] && iters[0] > 0 &&
          memcmp(res[0], res[1], sizeof(double) * (2 * (size_t)n + (size_t)nc)) == 0,
          "%s: alf-explicit run on the unrolled pass vs the loops differ (iterations %ld %ld)", m->name,
          iters[0], iters[1]);
    free(res[0]); free(res[1]);
}

/* Whole baumgarte and canonical runs with S assembled and factored in one kernel (and
 * the right-hand sides of S in one pass) and with the plan's pq->s_factor, kkt_bv and kkt_bi
 * cleared (s_assemble and the ldl; the runtime's passes) end in the same state, bit for bit,
 * with the same counts and smallest pivot ratio. */
static void check_s_factor_run(const mb_model *m)
{
    if (!m->plan || !m->plan->pq || !m->plan->pq->s_factor || m->nc == 0) return;
    mb_plan sep = *m->plan;
    mb_pq_products pq = *m->plan->pq;
    mb_model ms = *m;
    pq.s_factor = NULL;
    pq.kkt_bv = NULL;
    pq.kkt_bi = NULL;
    sep.pq = &pq;
    ms.plan = &sep;
    const mb_model *pair[2] = { m, &ms };
    int n = m->nq;
    for (int f = MB_BAUMGARTE; f <= MB_CANONICAL; f++) {
        double *res[2] = { NULL, NULL }, ratio[2] = { -1, -2 };
        long evals[2] = { -1, -2 }, fact[2] = { -1, -2 };
        int ok = 1;
        for (int w = 0; w < 2; w++) {
            mb_params p;
            mb_params_default(&p, f);
            p.integrator = MB_DOP853;
            p.adaptive = 1;
            p.rtol = p.atol = 1e-7;
            p.h = 1e-4;
            size_t ws = mb_sim_workspace_size(pair[w], &p);
            void *buf = malloc(ws ? ws : 1);
            mb_sim_storage s_mem;
            mb_sim *s = mb_sim_of(&s_mem);
            int st = mb_sim_init(s, pair[w], &p, buf, ws);
            if (!st) st = mb_sim_reset(s, 0, NULL, NULL, 1);
            if (!st) st = mb_sim_step(s, 0.01);
            ok &= st >= 0;
            res[w] = malloc(sizeof(double) * (2 * (size_t)n + 1));
            memcpy(res[w], mb_sim_get_q(s), sizeof(double) * (size_t)n);
            memcpy(res[w] + n, mb_sim_get_v(s), sizeof(double) * (size_t)n);
            evals[w] = mb_sim_get_monitor(s)->evals;
            fact[w] = mb_sim_get_monitor(s)->factorizations;
            ratio[w] = mb_sim_get_monitor(s)->min_pivot_ratio;
            free(buf);
        }
        CHECK(ok && evals[0] == evals[1] && fact[0] == fact[1] && fact[0] > 0 && ratio[0] == ratio[1] &&
              memcmp(res[0], res[1], sizeof(double) * 2 * (size_t)n) == 0,
              "%s: %s run with s_factor vs s_assemble + ldl differ (evaluations %ld %ld, ratio %g %g)",
              m->name, mb_formulation_name(f), evals[0], evals[1], ratio[0], ratio[1]);
        free(res[0]); free(res[1]);
    }
}

/* A redundant constraint: two identical rows of a 2 x 3 Phi_q; the later pivot is named. */
static void check_redundant(void)
{
    static const int r[6] = {0, 0, 0, 1, 1, 1}, c[6] = {0, 1, 2, 0, 1, 2};
    mb_pattern pq = {6, r, c}, none = {0, NULL, NULL};
    mb_plan *P = mbp_build(3, 2, &pq, &none, &none, MBP_ORDER_NATURAL);
    double v[6] = {1, 2, 3, 1, 2, 3}, F[8] = {0}, d0[3], ratio;
    int bad;
    for (int t = 0; t < P->ns; t++) F[P->s_dst[t]] += v[P->s_k[t]] * v[P->s_l[t]];
    int st = mb_sp_ldl(&P->s, F, d0, 1e-8, &ratio, &bad);
    CHECK(st == MB_ERR_SINGULAR && bad == 1 && ratio < 1e-12, "redundant row: st %d bad %d ratio %g", st, bad, ratio);
    /* a nearly dependent row: the ratio test (not a zero diagonal) fails, at the same pivot in
     * the natural order as in the exact case */
    memset(F, 0, sizeof F);
    v[3] += 1e-6;
    for (int t = 0; t < P->ns; t++) F[P->s_dst[t]] += v[P->s_k[t]] * v[P->s_l[t]];
    st = mb_sp_ldl(&P->s, F, d0, 1e-8, &ratio, &bad);
    CHECK(st == MB_ERR_SINGULAR && bad == 1 && ratio > 1e-16 && ratio < 1e-8,
          "nearly redundant row: st %d bad %d ratio %g", st, bad, ratio);
    v[3] -= 1e-6;
    /* a NaN entry: non-finite, not singular */
    memset(F, 0, sizeof F);
    for (int t = 0; t < P->ns; t++) F[P->s_dst[t]] += v[P->s_k[t]] * v[P->s_l[t]];
    F[2] += 1;   /* regular again */
    F[0] = NAN;
    double G[8];
    memcpy(G, F, sizeof F);
    st = mb_sp_ldl(&P->s, F, d0, 1e-8, &ratio, &bad);
    CHECK(st == MB_ERR_NONFINITE, "NaN pivot: st %d", st);
    st = mb_sp_ldl(&P->s, G, d0, 1e-8, NULL, &bad);
    CHECK(st == MB_ERR_NONFINITE, "NaN pivot, no ratio: st %d", st);
    /* no ratio wanted: the same factors and status, the failing pivot still named */
    memset(F, 0, sizeof F);
    for (int t = 0; t < P->ns; t++) F[P->s_dst[t]] += v[P->s_k[t]] * v[P->s_l[t]];
    memcpy(G, F, sizeof F);
    st = mb_sp_ldl(&P->s, F, d0, 1e-8, NULL, &bad);
    CHECK(st == MB_ERR_SINGULAR && bad == 1, "redundant row, no ratio: st %d bad %d", st, bad);
    v[3] += 1;   /* independent rows */
    memset(F, 0, sizeof F);
    for (int t = 0; t < P->ns; t++) F[P->s_dst[t]] += v[P->s_k[t]] * v[P->s_l[t]];
    memcpy(G, F, sizeof F);
    int st1 = mb_sp_ldl(&P->s, F, d0, 1e-8, &ratio, &bad), st2 = mb_sp_ldl(&P->s, G, d0, 1e-8, NULL, &bad);
    CHECK(st1 == MB_OK && st2 == MB_OK && memcmp(F, G, sizeof F) == 0,
          "regular, no ratio: st %d %d, factors %s", st1, st2, memcmp(F, G, sizeof F) ? "differ" : "equal");
    mbp_free(P);
}

#if MB_LDL_RECIPROCAL && !MBI_ONLY
/* mb_sp_ldl_status given a kernel's largest d0_k (1 / d_k) that no product d0_k F_k here equals
 * (another rounding of it: excess precision): the row named is still a pivot's, the first of the
 * largest product, and the ratio 1 / mmax; never past the pivots (perm[n]: ASan in test_sparse_san) */
static void check_status_mismatch(void)
{
    static const int r[9] = {0, 0, 0, 1, 1, 1, 2, 2, 2}, c[9] = {0, 1, 2, 0, 1, 2, 0, 1, 2};
    mb_pattern pq = {9, r, c}, none = {0, NULL, NULL};
    mb_plan *P = mbp_build(3, 3, &pq, &none, &none, MBP_ORDER_NATURAL);
    CHECK(P != NULL, "mismatch: plan built");
    if (!P) return;
    /* row 1 nearly along row 0: the largest d0_k / d_k at pivot 1 (an inner one) */
    double v[9] = {1, 2, 3, 1, 2.1, 3, 0, 1, -1}, F[16] = {0}, d0[3], ratio;
    int bad, n = P->s.n;
    for (int t = 0; t < P->ns; t++) F[P->s_dst[t]] += v[P->s_k[t]] * v[P->s_l[t]];
    int st = mb_sp_ldl(&P->s, F, d0, 1e-8, &ratio, &bad);
    int kbig = 0;
    for (int k = 1; k < n; k++) if (d0[k] * F[k] > d0[kbig] * F[kbig]) kbig = k;
    double qmax = d0[kbig] * F[kbig];
    CHECK(st == MB_OK && n == 3 && kbig == 1 && bad == P->s.perm[kbig] && ratio == 1 / qmax,
          "mismatch: the factorization st %d n %d, largest product at %d, row %d, ratio %g", st, n,
          kbig, bad, ratio);
    for (int pass = 0; pass < 3; pass++) {
        /* just above, just below, and far below every product but above 1 */
        double mmax = pass == 0 ? nextafter(qmax, 2 * qmax) : pass == 1 ? nextafter(qmax, 0) : 1.5;
        int hits = 0;
        for (int k = 0; k < n; k++) hits += d0[k] * F[k] == mmax;
        bad = -7;
        st = mb_sp_ldl_status(&P->s, F, d0, 1e-8, &ratio, &bad, 1, -1, mmax);
        CHECK(hits == 0 && st == MB_OK && bad >= 0 && bad < n && bad == P->s.perm[kbig] &&
              ratio == 1 / mmax, "mismatch pass %d: mmax %.17g (%d products equal), st %d row %d "
              "(a pivot's: 0..%d, the largest product's %d), ratio %g", pass, mmax, hits, st, bad,
              n - 1, P->s.perm[kbig], ratio);
    }
    mbp_free(P);
}
#endif

int main(void)
{
    (void)check_close;
    srand(12345);
    const mb_model *models[16];
    mb_model driven;
    int nm = all_models(models, &driven);
    for (int i = 0; i < nm; i++)
        for (int ord = 0; ord < 2; ord++) check_model(models[i], ord);
    int unrolled = 0;
    int f4k = 0;
    for (int i = 0; i < nm; i++) { check_forms(models[i]); unrolled += models[i]->plan && models[i]->plan->a.lu; }
    CHECK(unrolled >= 4, "only %d generated models in the unrolled form", unrolled);
    int phiq = 0;
    for (int i = 0; i < nm; i++) phiq += models[i]->plan && models[i]->plan->pq && models[i]->plan->pq->phiq_mv;
    CHECK(phiq >= 2, "only %d generated models with the products for Phi_q's own values", phiq);
    for (int i = 0; i < nm; i++) {
        check_f4_kernels(models[i]);
        check_f4_run(models[i]);
        f4k += models[i]->plan && models[i]->plan->f4;
    }
    CHECK(f4k >= 4, "only %d generated models with the F4 kernels", f4k);
    int alfk = 0;
    for (int i = 0; i < nm; i++) {
        check_alf_kernel(models[i]);
        check_alf_run(models[i]);
        alfk += models[i]->plan && models[i]->plan->f3;
    }
    CHECK(alfk >= 4, "only %d generated models with the alf-explicit kernels", alfk);
    int sfk = 0;
    for (int i = 0; i < nm; i++) {
        check_s_factor_run(models[i]);
        sfk += models[i]->plan && models[i]->plan->pq && models[i]->plan->pq->s_factor;
    }
    CHECK(sfk >= 4, "only %d generated models with s_factor", sfk);
    check_redundant();
#if MB_LDL_RECIPROCAL && !MBI_ONLY
    check_status_mismatch();
#endif
    return check_report();
}
