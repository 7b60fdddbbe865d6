/* test_ordering.c - the planner's METIS ordering (MBP_ORDER_METIS, generator/mb_plan_build.c
 * compiled with -DMBP_WITH_METIS): a valid permutation of both matrices, reproducible, the hub of
 * a star eliminated last, and the same solutions as the AMD plan (1e-12) on Andrews' patterns
 * and on a 300-link chain (large enough for METIS to dissect instead of falling back to its
 * minimum degree). Without METIS (libmetis-dev absent: scripts/deps.sh metis) the METIS checks
 * are skipped with a message and only the clean refusal is checked. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "mb_plan_build.h"
#include "mb_sparse.h"
#include "mb_status.h"

extern const mb_model andrews_model;

static double rnd(void) { return (double)rand() / RAND_MAX * 2 - 1; }

/* perm is a permutation of 0 .. n-1 and pinv its inverse */
static int valid_perm(const mb_symbolic *sy)
{
    int n = sy->n, ok = 1;
    char *seen = calloc((size_t)n + 1, 1);
    for (int k = 0; k < n && ok; k++) {
        int i = sy->perm[k];
        ok = i >= 0 && i < n && !seen[i] && sy->pinv[i] == k;
        if (ok) seen[i] = 1;
    }
    free(seen);
    return ok;
}

static int same_symbolic(const mb_symbolic *a, const mb_symbolic *b)
{
    return a->n == b->n && a->nl == b->nl && a->nupd == b->nupd &&
           memcmp(a->perm, b->perm, sizeof *a->perm * (size_t)a->n) == 0 &&
           memcmp(a->li, b->li, sizeof *a->perm * (size_t)a->nl) == 0;
}

/* max |x - y| / max |x| */
static double reldiff(int n, const double *x, const double *y)
{
    double d = 0, s = 0;
    for (int i = 0; i < n; i++) {
        if (fabs(x[i] - y[i]) > d) d = fabs(x[i] - y[i]);
        if (fabs(x[i]) > s) s = fabs(x[i]);
    }
    return d / (s + 1e-300);
}

/* The problem, in original numbering: Phi_q values Pq, a second matrix E (F4's unsymmetric
 * product), the weights W, the dQ/dq and dQ/dv values, and right-hand sides. */
typedef struct { const double *Pq, *E, *W, *dqq, *dqv, *bs, *ba; } problem;

/* Assemble S, A (LDL^T) and A (LU) on plan P, factor, solve: xs[nc], xa[nq], xu[nq]. */
static int solve_all(const char *name, const char *ord, int nq, int nc, const mb_pattern *pq,
                     const mb_pattern *dqq, const mb_pattern *dqv, const mb_plan *P,
                     const problem *pr, double *xs, double *xa, double *xu)
{
    int N = nq > nc ? nq : nc, nl = P->s.nl > P->a.nl ? P->s.nl : P->a.nl, bad, st, ok = 1;
    double *F = calloc((size_t)N + 2 * (size_t)nl + 1, sizeof(double));
    double *y = malloc(sizeof(double) * (size_t)N), *d0 = malloc(sizeof(double) * (size_t)N), ratio;
    for (int t = 0; t < P->ns; t++)
        F[P->s_dst[t]] += pr->W[pq->col[P->s_k[t]]] * pr->Pq[P->s_k[t]] * pr->Pq[P->s_l[t]];
    memcpy(xs, pr->bs, sizeof(double) * (size_t)nc);
    st = mb_sp_ldl(&P->s, F, d0, 1e-12, &ratio, &bad);
    CHECK(st == MB_OK, "%s %s: S factor st %d", name, ord, st);
    ok &= st == MB_OK;
    mb_sp_ldl_solve(&P->s, F, xs, y);
    for (int pass = 0; pass < 2; pass++) {   /* M + Pq^T Pq by LDL^T; M + E^T Pq - dQ by LU */
        memset(F, 0, sizeof(double) * ((size_t)nq + 2 * (size_t)P->a.nl));
        for (int i = 0; i < nq; i++) F[P->a.pinv[i]] += pr->W[i];
        for (int t = 0; t < P->na; t++) {
            int k = P->a_k[t], l = P->a_l[t], d = P->a_dst[t];
            if (pass == 0) F[d] += pr->Pq[k] * pr->Pq[l];
            else {
                F[d] += pr->E[k] * pr->Pq[l];
                if (d >= nq) F[d + P->a.nl] += pr->E[l] * pr->Pq[k];
            }
        }
        if (pass == 1) {
            for (int k = 0; k < dqq->nnz; k++) F[P->dqq_dst[k]] -= 0.1 * pr->dqq[k];
            for (int k = 0; k < dqv->nnz; k++) F[P->dqv_dst[k]] -= 0.1 * pr->dqv[k];
        }
        double *x = pass ? xu : xa;
        memcpy(x, pr->ba, sizeof(double) * (size_t)nq);
        st = pass == 0 ? mb_sp_ldl(&P->a, F, d0, 0, &ratio, &bad) : mb_sp_lu(&P->a, F, &ratio, &bad);
        CHECK(st == MB_OK, "%s %s: A factor (pass %d) st %d", name, ord, pass, st);
        ok &= st == MB_OK;
        if (pass == 0) mb_sp_ldl_solve(&P->a, F, x, y);
        else mb_sp_lu_solve(&P->a, F, x, y);
    }
    free(F); free(y); free(d0);
    return ok;
}

/* METIS against AMD on one model's patterns. */
static void compare(const char *name, int nq, int nc, const mb_pattern *pq, const mb_pattern *dqq,
                    const mb_pattern *dqv)
{
    mb_plan *Pa = mbp_build(nq, nc, pq, dqq, dqv, MBP_ORDER_AMD);
    mb_plan *Pm = mbp_build(nq, nc, pq, dqq, dqv, MBP_ORDER_METIS);
    mb_plan *Pm2 = mbp_build(nq, nc, pq, dqq, dqv, MBP_ORDER_METIS);
    CHECK(Pa && Pm && Pm2, "%s: plans built (amd %p, metis %p)", name, (void *)Pa, (void *)Pm);
    if (!Pa || !Pm || !Pm2) { mbp_free(Pa); mbp_free(Pm); mbp_free(Pm2); return; }
    CHECK(valid_perm(&Pm->s) && valid_perm(&Pm->a), "%s: METIS orders are permutations", name);
    CHECK(Pm->s.n == nc && Pm->a.n == nq, "%s: sizes %d %d", name, Pm->s.n, Pm->a.n);
    CHECK(same_symbolic(&Pm->s, &Pm2->s) && same_symbolic(&Pm->a, &Pm2->a),
          "%s: METIS plan reproducible", name);
    CHECK(Pm->ns == Pa->ns && Pm->na == Pa->na, "%s: same number of product terms", name);
    int N = nq > nc ? nq : nc, nnz = pq->nnz;
    double *v = malloc(sizeof(double) * (4 * (size_t)nnz + 3 * (size_t)N + (size_t)dqq->nnz + (size_t)dqv->nnz + 1));
    double *Pq = v, *E = Pq + nnz, *W = E + nnz, *bs = W + N, *ba = bs + N, *dq = ba + N, *dv = dq + dqq->nnz;
    for (int k = 0; k < nnz; k++) { Pq[k] = rnd(); E[k] = Pq[k] + 0.1 * rnd(); }
    for (int i = 0; i < N; i++) { W[i] = 1 + 0.5 * rnd(); bs[i] = rnd(); ba[i] = rnd(); }
    for (int k = 0; k < dqq->nnz; k++) dq[k] = rnd();
    for (int k = 0; k < dqv->nnz; k++) dv[k] = rnd();
    problem pr = {Pq, E, W, dq, dv, bs, ba};
    double *x = malloc(sizeof(double) * 6 * (size_t)N);
    int ok = solve_all(name, "amd", nq, nc, pq, dqq, dqv, Pa, &pr, x, x + N, x + 2 * N) &&
             solve_all(name, "metis", nq, nc, pq, dqq, dqv, Pm, &pr, x + 3 * N, x + 4 * N, x + 5 * N);
    if (ok) {
        double ds = reldiff(nc, x, x + 3 * N), da = reldiff(nq, x + N, x + 4 * N),
               du = reldiff(nq, x + 2 * N, x + 5 * N);
        CHECK(ds < 1e-12, "%s: S solution METIS vs AMD differs by %g", name, ds);
        CHECK(da < 1e-12, "%s: A (LDL^T) solution METIS vs AMD differs by %g", name, da);
        CHECK(du < 1e-12, "%s: A (LU) solution METIS vs AMD differs by %g", name, du);
        printf("test_ordering: %-9s S %4d x %-4d nl amd %5d metis %5d, A %4d x %-4d nl amd %5d metis %5d;"
               " solutions agree to %.1e\n", name, nc, nc, Pa->s.nl, Pm->s.nl, nq, nq, Pa->a.nl,
               Pm->a.nl, fmax(ds, fmax(da, du)));
    }
    free(v); free(x);
    mbp_free(Pa); mbp_free(Pm); mbp_free(Pm2);
}

/* The Phi_q pattern of an n-link pendulum chain (revolute joints: rows 2i, 2i+1 hold x, phi and
 * y, phi of link i - 1 and link i), as models/chain.lua generates it, without the generator. */
static void chain_pattern(int links, mb_index *row, mb_index *col, int *nnz)
{
    int k = 0;
    for (int j = 0; j < links; j++)
        for (int r = 0; r < 2; r++) {
            int lo = j > 0 ? j - 1 : j;
            for (int b = lo; b <= j; b++) {
                row[k] = (mb_index)(2 * j + r); col[k++] = (mb_index)(3 * b + r);
                row[k] = (mb_index)(2 * j + r); col[k++] = (mb_index)(3 * b + 2);
            }
        }
    *nnz = k;
}

/* Phi_q of a star: row 0 touches every column, row i column i only: S is a star with hub 0,
 * which a fill-reducing order eliminates last (no fill: nl = n - 1). This pins down which of
 * METIS's two arrays is the order and which its inverse. */
static void star(void)
{
    enum { NS = 200 };
    static mb_index row[2 * NS], col[2 * NS];
    int k = 0;
    for (int j = 0; j < NS; j++) { row[k] = 0; col[k++] = (mb_index)j; }
    for (int j = 1; j < NS; j++) { row[k] = (mb_index)j; col[k++] = (mb_index)j; }
    mb_pattern pq = {k, row, col}, none = {0, NULL, NULL};
    mb_plan *P = mbp_build(NS, NS, &pq, &none, &none, MBP_ORDER_METIS);
    CHECK(P != NULL, "star: METIS plan built");
    if (!P) return;
    CHECK(P->s.perm[NS - 1] == 0 && P->s.nl == NS - 1, "star: hub pivot %d (want it last), nl %d (want %d)",
          P->s.perm[NS - 1], P->s.nl, NS - 1);
    mbp_free(P);
}

int main(void)
{
    (void)check_close;
    srand(4242);
    const mb_model *m = &andrews_model;
    CHECK(strcmp(mbp_ordering_name(MBP_ORDER_METIS), "metis") == 0, "ordering name");
    CHECK(mbp_ordering_available(MBP_ORDER_AMD) && mbp_ordering_available(MBP_ORDER_NATURAL), "AMD, natural");
    if (!mbp_ordering_available(MBP_ORDER_METIS)) {
        mb_plan *P = mbp_build(m->nq, m->nc, &m->phi_q_pat, &m->dq_dq_pat, &m->dq_dv_pat, MBP_ORDER_METIS);
        CHECK(P == NULL, "a planner without METIS refuses MBP_ORDER_METIS");
        mbp_free(P);
        printf("test_ordering: METIS is not compiled in (libmetis-dev absent; scripts/deps.sh metis "
               "installs it): METIS checks skipped\n");
        return check_report();
    }
    compare("andrews", m->nq, m->nc, &m->phi_q_pat, &m->dq_dq_pat, &m->dq_dv_pat);
    enum { LINKS = 300 };
    static mb_index row[8 * LINKS], col[8 * LINKS];
    int nnz;
    chain_pattern(LINKS, row, col, &nnz);
    mb_pattern pq = {nnz, row, col}, none = {0, NULL, NULL};
    compare("chain300", 3 * LINKS, 2 * LINKS, &pq, &none, &none);
    star();
    return check_report();
}
