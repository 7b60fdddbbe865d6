/* bench_ordering.c - fill-reducing orderings compared on the two matrices every formulation
 * factors (docs/linear-systems.md): S = Phi_q W Phi_q^T (nc x nc) and
 * A = M + Phi_q^T (.) Phi_q - dQ/dq - dQ/dv (nq x nq), under the natural order, SuiteSparse AMD
 * (what mbgen uses) and METIS nested dissection (METIS_NodeND), all through the planner
 * (generator/mb_plan_build.c, compiled with -DMBP_WITH_METIS). The patterns come from the
 * generator's data files (<name>_data.c, the generic evaluator's models: make bench-ordering
 * generates the scaled ones), never written by hand.
 * Per model, matrix and ordering: n, nnz of the lower triangle of the matrix (diagonal
 * included), nnz(L) (strictly lower), nupd (the update count of the right-looking kernels) and
 * the flops of the compact kernels (runtime/mb_sparse.c), counted as they do them:
 *   LDL^T: n + 2 nl + 2 nupd (a division per pivot, two multiplications per entry of L, a
 *          multiply-subtract per update); S (F1/F2, assembly) and A (F3)
 *   LU:    n - nl + 5 nupd (F4's Newton matrix; the update of a pair p < q touches L and U)
 * and the CPU time of one numeric factorization by the compact kernels (mb_sp_ldl, mb_sp_lu)
 * of a matrix assembled through the plan's own maps from random Phi_q values (S + I and
 * M + Phi_q^T Phi_q, symmetric positive definite; M + E^T Phi_q for LU, diagonally dominated):
 * the orderings side by side, interleaved, median of NREP, and the ratio to AMD. Timing is
 * never a test. Usage: bench_ordering [FILE] (appends the table to FILE as well). */
#define _POSIX_C_SOURCE 199309L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

#include "mb_model.h"
#include "mb_plan_build.h"
#include "mb_sparse.h"
#include "mb_status.h"

/* ordering_models.h (written by the Makefile): O(name) per model */
#define O(name) extern const mb_model name##_generic_model;
#include "ordering_models.h"
#undef O
static const mb_model *const models[] = {
#define O(name) &name##_generic_model,
#include "ordering_models.h"
#undef O
};

enum { NORD = 3, NREP = 7 };
static const int ords[NORD] = { MBP_ORDER_NATURAL, MBP_ORDER_AMD, MBP_ORDER_METIS };
static volatile double sink;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double median(double *x, int n)
{
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

static FILE *out_file;
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    if (out_file) {
        va_start(ap, fmt);
        vfprintf(out_file, fmt, ap);
        va_end(ap);
    }
    fflush(stdout);
}

static double rnd(void) { return (double)rand() / RAND_MAX * 2 - 1; }

/* One factorization kind on one plan: the assembled values F0 (storage of that plan) and the
 * time of one factorization. */
enum { K_S_LDL, K_A_LDL, K_A_LU, NKIND };
typedef struct {
    mb_plan *P;
    double *F0[NKIND], *F, *d0;
    size_t len[NKIND];
    double t[NKIND][NREP];
    int nnz_s, nnz_a;      /* lower triangle, diagonal included */
} oplan;

/* distinct storage positions among dst[0 .. n-1] that lie in [0, lim) */
static int distinct(const int *dst, int n, int lim, char *mark)
{
    int c = 0;
    memset(mark, 0, (size_t)lim);
    for (int t = 0; t < n; t++)
        if (dst[t] < lim && !mark[dst[t]]) { mark[dst[t]] = 1; c++; }
    return c;
}

static int setup(const mb_model *m, oplan *o, const double *Pq, const double *E, const double *W)
{
    mb_plan *P = o->P;
    int nq = m->nq, nc = m->nc, ns = P->s.n + P->s.nl, na = P->a.n + P->a.nl;
    const mb_index *col = m->phi_q_pat.col;
    char *mark = malloc((size_t)(ns > na ? ns : na) + 1);
    size_t ntmp = (size_t)P->na + (size_t)nq + (size_t)m->dq_dq_pat.nnz + (size_t)m->dq_dv_pat.nnz;
    if ((size_t)P->ns > ntmp) ntmp = (size_t)P->ns;
    int *tmp = malloc(sizeof(int) * (ntmp + 1));
    if (!mark || !tmp) { free(mark); free(tmp); return 0; }
    for (int t = 0; t < P->ns; t++) tmp[t] = P->s_dst[t];
    o->nnz_s = distinct(tmp, P->ns, ns, mark);
    int k = 0;
    for (int t = 0; t < P->na; t++) tmp[k++] = P->a_dst[t];
    for (int i = 0; i < nq; i++) tmp[k++] = P->a.pinv[i];
    for (int t = 0; t < m->dq_dq_pat.nnz; t++) tmp[k++] = P->dqq_dst[t];
    for (int t = 0; t < m->dq_dv_pat.nnz; t++) tmp[k++] = P->dqv_dst[t];
    o->nnz_a = distinct(tmp, k, na, mark);
    free(mark);
    free(tmp);
    o->len[K_S_LDL] = (size_t)nc + (size_t)P->s.nl;
    o->len[K_A_LDL] = (size_t)nq + (size_t)P->a.nl;
    o->len[K_A_LU] = (size_t)nq + 2 * (size_t)P->a.nl;
    size_t big = o->len[K_A_LU] > o->len[K_S_LDL] ? o->len[K_A_LU] : o->len[K_S_LDL];
    o->F = malloc(sizeof(double) * (big + 1));
    o->d0 = malloc(sizeof(double) * ((size_t)(nq > nc ? nq : nc) + 1));
    for (int c = 0; c < NKIND; c++) o->F0[c] = calloc(o->len[c] + 1, sizeof(double));
    if (!o->F || !o->d0 || !o->F0[0] || !o->F0[1] || !o->F0[2]) return 0;
    /* S + I: Phi_q W Phi_q^T through the maps, and a unit shift (positive definite whatever the
     * rank of the random Phi_q) */
    double *F = o->F0[K_S_LDL];
    for (int t = 0; t < P->ns; t++) F[P->s_dst[t]] += W[col[P->s_k[t]]] * Pq[P->s_k[t]] * Pq[P->s_l[t]];
    for (int i = 0; i < nc; i++) F[i] += 1;
    /* M + Phi_q^T Phi_q (F3), and M + E^T Phi_q - dQ/dq - dQ/dv (F4's shape) */
    for (int c = K_A_LDL; c <= K_A_LU; c++) {
        F = o->F0[c];
        for (int i = 0; i < nq; i++) F[P->a.pinv[i]] += W[i] + 1;
        for (int t = 0; t < P->na; t++) {
            int a = P->a_k[t], b = P->a_l[t], d = P->a_dst[t];
            if (c == K_A_LDL) F[d] += Pq[a] * Pq[b];
            else {
                F[d] += E[a] * Pq[b];
                if (d >= nq) F[d + P->a.nl] += E[b] * Pq[a];
            }
        }
        if (c == K_A_LU) {
            for (int t = 0; t < m->dq_dq_pat.nnz; t++) F[P->dqq_dst[t]] -= 0.01 * rnd();
            for (int t = 0; t < m->dq_dv_pat.nnz; t++) F[P->dqv_dst[t]] -= 0.01 * rnd();
        }
    }
    return 1;
}

/* One factorization of kind c (from the assembled values); returns its status. */
static int factor(oplan *o, int c)
{
    double ratio;
    int bad;
    memcpy(o->F, o->F0[c], sizeof(double) * o->len[c]);
    if (c == K_S_LDL) return mb_sp_ldl(&o->P->s, o->F, o->d0, 0, &ratio, &bad);
    if (c == K_A_LDL) return mb_sp_ldl(&o->P->a, o->F, o->d0, 0, &ratio, &bad);
    return mb_sp_lu(&o->P->a, o->F, &ratio, &bad);
}

/* seconds per factorization of kind c over `reps` factorizations */
static double time_factor(oplan *o, int c, long reps)
{
    double t0 = now();
    for (long r = 0; r < reps; r++) {
        factor(o, c);
        sink += o->F[0];
    }
    return (now() - t0) / (double)reps;
}

static double flops_ldl(const mb_symbolic *sy) { return (double)sy->n + 2.0 * sy->nl + 2.0 * sy->nupd; }
static double flops_lu(const mb_symbolic *sy) { return (double)sy->n - sy->nl + 5.0 * sy->nupd; }

static void bench_model(const mb_model *m)
{
    oplan o[NORD];
    int have[NORD];
    memset(o, 0, sizeof o);
    int nnz = m->phi_q_pat.nnz, N = m->nq > m->nc ? m->nq : m->nc;
    double *Pq = malloc(sizeof(double) * ((size_t)nnz + 1)), *E = malloc(sizeof(double) * ((size_t)nnz + 1));
    double *W = malloc(sizeof(double) * ((size_t)N + 1));
    srand(777);
    for (int k = 0; k < nnz; k++) { Pq[k] = rnd(); E[k] = Pq[k] + 0.1 * rnd(); }
    for (int i = 0; i < N; i++) W[i] = 1 + 0.5 * rnd();
    for (int r = 0; r < NORD; r++) {
        have[r] = 0;
        if (!mbp_ordering_available(ords[r])) continue;
        o[r].P = mbp_build(m->nq, m->nc, &m->phi_q_pat, &m->dq_dq_pat, &m->dq_dv_pat, ords[r]);
        if (!o[r].P) { say("%s: the %s plan failed\n", m->name, mbp_ordering_name(ords[r])); continue; }
        if (!setup(m, &o[r], Pq, E, W)) { say("%s: out of memory\n", m->name); continue; }
        int ok = 1;
        for (int c = 0; c < NKIND; c++) {
            int st = factor(&o[r], c);
            if (st != MB_OK) { say("%s %s: factorization %d failed (%d)\n", m->name, mbp_ordering_name(ords[r]), c, st); ok = 0; }
        }
        have[r] = ok;
    }
    /* time: each kind calibrated on AMD (about 3 ms per sample), orderings interleaved */
    int ramd = 1;
    for (int c = 0; c < NKIND && have[ramd]; c++) {
        long reps = 1;
        while (reps < (1L << 24) && time_factor(&o[ramd], c, reps) * (double)reps < 3e-3) reps *= 2;
        for (int k = 0; k < NREP; k++)
            for (int r = 0; r < NORD; r++)
                if (have[r]) o[r].t[c][k] = time_factor(&o[r], c, reps);
    }
    double tmed[NORD][NKIND];
    for (int r = 0; r < NORD; r++)
        for (int c = 0; c < NKIND; c++) tmed[r][c] = have[r] ? median(o[r].t[c], NREP) : 0;
    for (int mat = 0; mat < 2; mat++) {
        for (int r = 0; r < NORD; r++) {
            const char *mname = mat ? "A" : "S";
            if (!o[r].P) {
                say("%-22s %-3s %6d %8s %-8s %s\n", m->name, mname, mat ? m->nq : m->nc, "",
                    mbp_ordering_name(ords[r]),
                    mbp_ordering_available(ords[r]) ? "(plan failed)" : "(not compiled in)");
                continue;
            }
            const mb_symbolic *sy = mat ? &o[r].P->a : &o[r].P->s;
            int c1 = mat ? K_A_LDL : K_S_LDL;
            char lu[48] = "", tlu[48] = "";
            if (mat) {
                snprintf(lu, sizeof lu, "%11.0f", flops_lu(sy));
                if (have[r] && have[ramd]) snprintf(tlu, sizeof tlu, "%10.2f %6.2f", 1e6 * tmed[r][K_A_LU],
                                                     tmed[r][K_A_LU] / tmed[ramd][K_A_LU]);
            } else {
                snprintf(lu, sizeof lu, "%11s", "-");
                snprintf(tlu, sizeof tlu, "%10s %6s", "-", "-");
            }
            char tl[48] = "";
            if (have[r] && have[ramd]) snprintf(tl, sizeof tl, "%10.2f %6.2f", 1e6 * tmed[r][c1], tmed[r][c1] / tmed[ramd][c1]);
            double rel = o[ramd].P ? (double)sy->nupd / (double)(mat ? o[ramd].P->a.nupd : o[ramd].P->s.nupd) : 0;
            say("%-22s %-3s %6d %8d %-8s %9d %10d %6.2f %11.0f %s %s %s\n", m->name, mname, sy->n,
                mat ? o[r].nnz_a : o[r].nnz_s, mbp_ordering_name(ords[r]), sy->nl, sy->nupd,
                sy->nupd > 0 ? rel : 1.0, flops_ldl(sy), lu, tl, tlu);
        }
    }
    for (int r = 0; r < NORD; r++) {
        mbp_free(o[r].P);
        free(o[r].F); free(o[r].d0);
        for (int c = 0; c < NKIND; c++) free(o[r].F0[c]);
    }
    free(Pq); free(E); free(W);
}

int main(int argc, char **argv)
{
    int help = argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
    if (help || argc > 2 || (argc == 2 && argv[1][0] == '-')) {   /* not an option taken for a file */
        fprintf(help ? stdout : stderr, "usage: bench_ordering [FILE]\n"
                "  the table of make bench-ordering (natural, AMD and METIS orderings: nnz(L), flops,\n"
                "  time of one factorization; timings, never a test), appended to FILE when given\n");
        return help ? 0 : 2;
    }
    if (argc > 1 && !(out_file = fopen(argv[1], "a"))) {
        fprintf(stderr, "bench_ordering: cannot open %s\n", argv[1]);
        return 1;
    }
    if (!mbp_ordering_available(MBP_ORDER_METIS))
        say("METIS is not compiled in (scripts/deps.sh metis, then rebuild): its rows are empty\n\n");
    say("%-22s %-3s %6s %8s %-8s %9s %10s %6s %11s %11s %10s %6s %10s %6s\n", "model", "mat", "n",
        "nnz", "order", "nnz(L)", "nupd", "/AMD", "flops LDL", "flops LU", "us LDL", "/AMD",
        "us LU", "/AMD");
    int nm = (int)(sizeof models / sizeof models[0]);
    for (int i = 0; i < nm; i++) bench_model(models[i]);
    if (out_file) fclose(out_file);
    return sink == 12345.0;
}
