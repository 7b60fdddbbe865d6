/* lqr.c - the continuous algebraic Riccati equation by the Hamiltonian's ordered Schur form,
 * refined by Newton-Kleinman (lqr.h). LAPACKE, row-major. */
#include "lqr.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static lapack_logical stable(const double *re, const double *im)
{
    (void)im;
    return *re < 0;
}

/* G = B R^-1 B^T (n x n) and, when Rb is given, Rb = R^-1 B^T (m x n). 0 or -1. */
static int gain_terms(int n, int m, const double *B, const double *R, double *G, double *Rb)
{
    double *Rc = malloc(sizeof(double) * (size_t)(m * m + m * n));
    if (!Rc) return -1;
    double *X = Rc + m * m;
    memcpy(Rc, R, sizeof(double) * (size_t)(m * m));
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) X[i * n + j] = B[j * m + i];
    int rc = LAPACKE_dposv(LAPACK_ROW_MAJOR, 'U', m, n, Rc, m, X, n) == 0 ? 0 : -1;
    if (rc == 0) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int k = 0; k < m; k++) s += B[i * m + k] * X[k * n + j];
                G[i * n + j] = s;
            }
        if (Rb) memcpy(Rb, X, sizeof(double) * (size_t)(m * n));
    }
    free(Rc);
    return rc;
}

/* E = A^T P + P A - P G P + Q and the scale of its terms */
static double residual_g(int n, const double *A, const double *G, const double *Q, const double *P,
                         double *E)
{
    double sa = 0, sg = 0, sq = 0, e = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double atp = 0, pa = 0, pgp = 0;
            for (int k = 0; k < n; k++) {
                atp += A[k * n + i] * P[k * n + j];
                pa += P[i * n + k] * A[k * n + j];
                double gp = 0;
                for (int l = 0; l < n; l++) gp += G[k * n + l] * P[l * n + j];
                pgp += P[i * n + k] * gp;
            }
            double r = atp + pa - pgp + Q[i * n + j];
            if (E) E[i * n + j] = r;
            sa = fmax(sa, fabs(atp));
            sg = fmax(sg, fabs(pgp));
            sq = fmax(sq, fabs(Q[i * n + j]));
            e = fmax(e, fabs(r));
        }
    double s = fmax(sa, fmax(sg, sq));
    return s > 0 ? e / s : e;
}

double lqr_care_residual(int n, int m, const double *A, const double *B, const double *Q,
                         const double *R, const double *P)
{
    double *G = malloc(sizeof(double) * (size_t)(n * n));
    if (!G || gain_terms(n, m, B, R, G, NULL)) { free(G); return -1; }
    double r = residual_g(n, A, G, Q, P, NULL);
    free(G);
    return r;
}

/* One Newton-Kleinman step: with Ak = A - G P, solve Ak^T X + X Ak = -(P G P + Q) for the new P
 * (the Kronecker form (I (x) Ak^T + Ak^T (x) I) vec X = vec(rhs), n^2 unknowns: small n only). */
static int newton_step(int n, const double *A, const double *G, const double *Q, const double *P,
                       double *Pn)
{
    int N = n * n;
    double *L = calloc((size_t)(N * N + N + n * n), sizeof(double));
    lapack_int *ipiv = malloc(sizeof(lapack_int) * (size_t)N);
    if (!L || !ipiv) { free(L); free(ipiv); return -1; }
    double *rhs = L + N * N, *Ak = rhs + N;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double gp = 0, pgp = 0;
            for (int k = 0; k < n; k++) gp += G[i * n + k] * P[k * n + j];
            Ak[i * n + j] = A[i * n + j] - gp;
            for (int k = 0; k < n; k++) {
                double g = 0;
                for (int l = 0; l < n; l++) g += G[k * n + l] * P[l * n + j];
                pgp += P[i * n + k] * g;
            }
            rhs[i * n + j] = -(pgp + Q[i * n + j]);
        }
    /* (Ak^T X + X Ak)_ij = sum_k Ak_ki X_kj + X_ik Ak_kj; unknown X_ab at a * n + b */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++) {
                L[(i * n + j) * N + k * n + j] += Ak[k * n + i];
                L[(i * n + j) * N + i * n + k] += Ak[k * n + j];
            }
    int rc = LAPACKE_dgesv(LAPACK_ROW_MAJOR, N, 1, L, N, ipiv, rhs, 1) == 0 ? 0 : -1;
    if (rc == 0)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) Pn[i * n + j] = 0.5 * (rhs[i * n + j] + rhs[j * n + i]);
    free(L);
    free(ipiv);
    return rc;
}

int lqr_care(int n, int m, const double *A, const double *B, const double *Q, const double *R,
             double *P, double *K)
{
    int n2 = 2 * n, rc = -1;
    double *H = malloc(sizeof(double) * (size_t)(n2 * n2 * 2 + n2 * 2 + n * n * 3 + m * n));
    lapack_int *ipiv = malloc(sizeof(lapack_int) * (size_t)n);
    if (!H || !ipiv) goto out;
    double *U = H + n2 * n2, *wr = U + n2 * n2, *wi = wr + n2, *G = wi + n2, *U11 = G + n * n,
           *Pn = U11 + n * n, *Rb = Pn + n * n;
    if (gain_terms(n, m, B, R, G, Rb)) goto out;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            H[i * n2 + j] = A[i * n + j];
            H[i * n2 + n + j] = -G[i * n + j];
            H[(n + i) * n2 + j] = -Q[i * n + j];
            H[(n + i) * n2 + n + j] = -A[j * n + i];
        }
    lapack_int sdim = 0;
    if (LAPACKE_dgees(LAPACK_ROW_MAJOR, 'V', 'S', stable, n2, H, n2, &sdim, wr, wi, U, n2) != 0 ||
        sdim != n)
        goto out;
    /* P U11 = U21, i.e. U11^T P^T = U21^T: solve with U11^T (n x n) */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            U11[i * n + j] = U[j * n2 + i];          /* U11^T */
            Pn[i * n + j] = U[(n + j) * n2 + i];     /* U21^T */
        }
    if (LAPACKE_dgesv(LAPACK_ROW_MAJOR, n, n, U11, n, ipiv, Pn, n) != 0) goto out;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) P[i * n + j] = 0.5 * (Pn[j * n + i] + Pn[i * n + j]);
    /* Newton-Kleinman from the Schur solution (already stabilizing): keep a step while it helps */
    double r = residual_g(n, A, G, Q, P, NULL);
    for (int it = 0; it < 5 && r > 0; it++) {
        if (newton_step(n, A, G, Q, P, Pn)) break;
        double rn = residual_g(n, A, G, Q, Pn, NULL);
        if (!(rn < r)) break;
        memcpy(P, Pn, sizeof(double) * (size_t)(n * n));
        r = rn;
    }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++) s += Rb[i * n + k] * P[k * n + j];
            K[i * n + j] = s;
        }
    rc = 0;
out:
    free(H);
    free(ipiv);
    return rc;
}

int lqr_eig(int n, const double *M, double *re, double *im)
{
    double *C = malloc(sizeof(double) * (size_t)(n * n));
    if (!C) return -1;
    memcpy(C, M, sizeof(double) * (size_t)(n * n));
    int rc = LAPACKE_dgeev(LAPACK_ROW_MAJOR, 'N', 'N', n, C, n, re, im, NULL, n, NULL, n) == 0 ? 0 : -1;
    free(C);
    return rc;
}
