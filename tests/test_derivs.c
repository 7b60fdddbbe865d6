/* test_derivs.c - checks every derivative a model provides against finite differences of the
 * function it differentiates, at random states on and off the constraint manifold.
 * Uses only the mb_model interface: build once per model with -DMB_TEST_MODEL=<name>_model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <float.h>
#include <math.h>
#include "mb_model.h"
#include "check.h"

#ifndef MB_TEST_MODEL
#error "define MB_TEST_MODEL, e.g. -DMB_TEST_MODEL=andrews_model"
#endif
#if MB_FLOAT
#error "finite-difference checks need double precision"
#endif

extern const mb_model MB_TEST_MODEL;
static const mb_model *M = &MB_TEST_MODEL;
static mb_model lam_copy;  /* sensors of reactions: M becomes a copy reading lam_val */
static double *lam_val;

#define TOL 1e-6           /* relative error allowed, on the scale of the compared quantity */

static int nq, nc;
static double lscale;      /* characteristic length of the mechanism (m) */

/* ------------------------------------------------------------------ small helpers */

/* Worst relative error seen per derivative, printed at the end (headroom against TOL). */
enum { E_PHIQ, E_PHIT, E_PHIQDOT, E_GAMMA, E_DQDQ, E_DQDV, E_QC, E_DY, E_DU, E_DL, E_N };
static const char *const err_names[E_N] = { "Phi_q", "Phi_t", "dPhi_q/dt", "Gamma", "dQ/dq",
                                             "dQ/dv", "Q_c=-dV/dq", "dy/dq,dy/dv", "dQ/du,dy/du",
                                             "dy/dlambda" };
static double err_worst[E_N];
static void note(int cat, double e) { if (e > err_worst[cat]) err_worst[cat] = e; }

static unsigned long long rng = 0x9E3779B97F4A7C15ull;
static double urand(void) /* uniform in [-1, 1), deterministic */
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) { fprintf(stderr, "out of memory\n"); exit(2); }
    return p;
}

/* Whether coordinate k is an angle (the third coordinate of a rigid body; a particle has none). */
static int is_angle(int k)
{
    for (int b = 0; b < M->nbody; b++)
        if (k >= mb_body_q(M, b) && k < mb_body_q(M, b) + mb_body_nq(M, b)) return k - mb_body_q(M, b) == 2;
    return 0;
}

/* Step for coordinate k: lengths scale with the mechanism, angles with 1 rad. */
static double qscale(int k) { return is_angle(k) ? 1.0 : lscale; }

/* Scatter sparse values into a dense rows x cols matrix (row-major). */
static void densify(const mb_pattern *p, const double *val, int cols, double *dense, int rows)
{
    memset(dense, 0, sizeof(double) * (size_t)rows * (size_t)cols);
    for (int k = 0; k < p->nnz; k++) dense[p->row[k] * cols + p->col[k]] = val[k];
}

/* Compare matrices row by row: |a - b| <= TOL * scale, scale = max(row max of |b|,
 * 1e-6 * overall max, 1e-12). Returns the worst ratio error/scale. */
static double cmp_rows(const double *a, const double *b, int rows, int cols, int *bad_r, int *bad_c)
{
    double gmax = 0, worst = 0;
    for (int i = 0; i < rows * cols; i++) gmax = fmax(gmax, fmax(fabs(a[i]), fabs(b[i])));
    for (int i = 0; i < rows; i++) {
        double rmax = 0;
        for (int j = 0; j < cols; j++) rmax = fmax(rmax, fmax(fabs(a[i * cols + j]), fabs(b[i * cols + j])));
        double s = fmax(fmax(rmax, 1e-6 * gmax), 1e-12);
        for (int j = 0; j < cols; j++) {
            double e = fabs(a[i * cols + j] - b[i * cols + j]) / s;
            if (e > worst) { worst = e; *bad_r = i; *bad_c = j; }
        }
    }
    return worst;
}

/* The dense Jacobians (dy/dq, dy/dv, dy/du, dQ/du, dy/dlambda) are written whole, zeros
 * included, however the generated code clears them (generator/emit.lua: dense_block): filled
 * with NaN before the call, none may be left. */
static void poison(double *a, int n) { for (int i = 0; i < n; i++) a[i] = NAN; }
static int written(const double *a, int n)
{
    for (int i = 0; i < n; i++) if (isnan(a[i])) return 0;
    return 1;
}

/* Same with one scale for the whole vector. */
static double cmp_vec(const double *a, const double *b, int n, int *bad)
{
    double s = 1e-12, worst = 0;
    for (int i = 0; i < n; i++) s = fmax(s, fmax(fabs(a[i]), fabs(b[i])));
    for (int i = 0; i < n; i++) {
        double e = fabs(a[i] - b[i]) / s;
        if (e > worst) { worst = e; *bad = i; }
    }
    return worst;
}

/* ------------------------------------------------------------------ finite differences */

/* A function of one scalar s around the state: out = f(s) of length n. */
typedef void (*sfun)(double s, void *ctx, double *out);

/* First derivative at s = 0 by Richardson-extrapolated central differences (O(h^4)). */
static void fd1(sfun f, void *ctx, double h, int n, double *d)
{
    double *p = xcalloc((size_t)n * 4, sizeof(double));
    f(h, ctx, p); f(-h, ctx, p + n); f(h / 2, ctx, p + 2 * n); f(-h / 2, ctx, p + 3 * n);
    for (int i = 0; i < n; i++) {
        double dh = (p[i] - p[n + i]) / (2 * h), dh2 = (p[2 * n + i] - p[3 * n + i]) / h;
        d[i] = (4 * dh2 - dh) / 3;
    }
    free(p);
}

/* Second derivative at s = 0, Richardson-extrapolated (O(h^4)). */
static void fd2(sfun f, void *ctx, double h, int n, double *d)
{
    double *p = xcalloc((size_t)n * 5, sizeof(double));
    f(0, ctx, p); f(h, ctx, p + n); f(-h, ctx, p + 2 * n); f(h / 2, ctx, p + 3 * n); f(-h / 2, ctx, p + 4 * n);
    for (int i = 0; i < n; i++) {
        double dh = (p[n + i] - 2 * p[i] + p[2 * n + i]) / (h * h);
        double dh2 = (p[3 * n + i] - 2 * p[i] + p[4 * n + i]) / (h * h / 4);
        d[i] = (4 * dh2 - dh) / 3;
    }
    free(p);
}

/* The state and a direction: f(s) evaluates at (t + s dt, q + s dq, v + s dv). */
typedef struct {
    double t, *q, *v;
    double dt; const double *dq, *dv;
    double *qs, *vs;       /* scratch */
    int which;             /* what to evaluate, see eval_at */
    int k;                 /* unit vector index for WHICH_QC */
} state;

enum { W_PHI, W_PHIQ_DENSE, W_FORCE, W_V, W_OUT };

static double *scratch_sparse;

static void eval_at(double s, void *vctx, double *out)
{
    state *st = vctx;
    double ts = st->t + s * st->dt;
    for (int i = 0; i < nq; i++) {
        st->qs[i] = st->q[i] + s * (st->dq ? st->dq[i] : 0);
        st->vs[i] = st->v[i] + s * (st->dv ? st->dv[i] : 0);
    }
    double e[3];
    switch (st->which) {
    case W_PHI: M->phi(M, ts, st->qs, out); break;
    case W_PHIQ_DENSE:
        M->phi_q(M, ts, st->qs, scratch_sparse);
        densify(&M->phi_q_pat, scratch_sparse, nq, out, nc);
        break;
    case W_FORCE: M->force(M, ts, st->qs, st->vs, out); break;
    case W_V: M->energy(M, ts, st->qs, st->vs, e); out[0] = e[1]; break;
    case W_OUT: M->outputs(M, ts, st->qs, st->vs, out, NULL, NULL); break;
    }
}

/* ------------------------------------------------------------------ manifold projection */

/* Solve the n x n system A x = b in place (Gaussian elimination, partial pivoting).
 * Returns 0, or -1 when A is (numerically) singular. */
static int solve(double *A, double *b, int n)
{
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++) if (fabs(A[r * n + c]) > fabs(A[p * n + c])) p = r;
        if (fabs(A[p * n + c]) < 1e-300) return -1;
        if (p != c) {
            for (int j = 0; j < n; j++) { double x = A[c * n + j]; A[c * n + j] = A[p * n + j]; A[p * n + j] = x; }
            double x = b[c]; b[c] = b[p]; b[p] = x;
        }
        for (int r = c + 1; r < n; r++) {
            double f = A[r * n + c] / A[c * n + c];
            if (f == 0) continue;
            for (int j = c; j < n; j++) A[r * n + j] -= f * A[c * n + j];
            b[r] -= f * b[c];
        }
    }
    for (int r = n - 1; r >= 0; r--) {
        double s = b[r];
        for (int j = r + 1; j < n; j++) s -= A[r * n + j] * b[j];
        b[r] = s / A[r * n + r];
    }
    return 0;
}

/* x <- x - J^T (J J^T)^-1 r: minimum-norm correction of J x = r. */
static int min_norm_step(const double *J, const double *r, double *x)
{
    double *A = xcalloc((size_t)nc * (size_t)nc, sizeof(double));
    double *y = xcalloc((size_t)nc, sizeof(double));
    for (int i = 0; i < nc; i++) {
        y[i] = r[i];
        for (int j = 0; j < nc; j++) {
            double s = 0;
            for (int k = 0; k < nq; k++) s += J[i * nq + k] * J[j * nq + k];
            A[i * nc + j] = s;
        }
    }
    int rc = solve(A, y, nc);
    if (rc == 0)
        for (int k = 0; k < nq; k++) {
            double s = 0;
            for (int i = 0; i < nc; i++) s += J[i * nq + k] * y[i];
            x[k] -= s;
        }
    free(A); free(y);
    return rc;
}

/* Newton projection of q onto Phi(t, q) = 0 and of v onto Phi_q v + Phi_t = 0.
 * Returns 1 when |Phi| converged below 1e-12 L. */
static int project(double t, double *q, double *v)
{
    double *J = xcalloc((size_t)nc * (size_t)nq, sizeof(double));
    double *r = xcalloc((size_t)nc + 1, sizeof(double));
    double *sp = xcalloc((size_t)M->phi_q_pat.nnz + 1, sizeof(double));
    int ok = 0;
    for (int it = 0; it < 50 && !ok; it++) {
        M->phi(M, t, q, r);
        double n = 0;
        for (int i = 0; i < nc; i++) n = fmax(n, fabs(r[i]));
        if (n < 1e-12 * lscale) { ok = 1; break; }
        M->phi_q(M, t, q, sp);
        densify(&M->phi_q_pat, sp, nq, J, nc);
        if (min_norm_step(J, r, q) != 0) break;
    }
    if (ok) {
        M->phi_q(M, t, q, sp);
        densify(&M->phi_q_pat, sp, nq, J, nc);
        M->phi_t(M, t, q, r);
        for (int i = 0; i < nc; i++)
            for (int k = 0; k < nq; k++) r[i] += J[i * nq + k] * v[k];
        ok = min_norm_step(J, r, v) == 0;
    }
    free(J); free(r); free(sp);
    return ok;
}

/* ------------------------------------------------------------------ the checks */

static void check_patterns(void)
{
    const mb_pattern *ps[3] = { &M->phi_q_pat, &M->dq_dq_pat, &M->dq_dv_pat };
    const char *names[3] = { "phi_q_pat", "dq_dq_pat", "dq_dv_pat" };
    int rows[3] = { nc, nq, nq };
    for (int p = 0; p < 3; p++) {
        int good = ps[p]->nnz >= 0 && (ps[p]->nnz == 0 || (ps[p]->row && ps[p]->col));
        for (int k = 0; good && k < ps[p]->nnz; k++) {
            int r = ps[p]->row[k], c = ps[p]->col[k];
            if (r < 0 || r >= rows[p] || c < 0 || c >= nq) good = 0;
            if (k > 0) {
                int r0 = ps[p]->row[k - 1], c0 = ps[p]->col[k - 1];
                if (r < r0 || (r == r0 && c <= c0)) good = 0;   /* sorted, no duplicates */
            }
        }
        CHECK(good, "%s: pattern out of range, unsorted or duplicated", names[p]);
    }
    int names_ok = M->info->coord_names && M->info->body_names && M->mass && M->q0 && M->v0 && M->locked && M->v_given
                   && (nc == 0 || M->info->constraint_names) && (M->npoint == 0 || (M->info->point_names && M->point_body));
    CHECK(names_ok, "missing name or data arrays");
    if (!M->body_q) CHECK(nq == 3 * M->nbody, "nq %d != 3 * nbody %d", nq, M->nbody);
    else {   /* particles: 2 or 3 coordinates per body, in order, nq in all */
        int good = M->body_q[0] == 0 && M->body_q[M->nbody] == nq;
        for (int b = 0; b < M->nbody; b++) good &= mb_body_nq(M, b) == 2 || mb_body_nq(M, b) == 3;
        CHECK(good, "body_q does not split the %d coordinates into 2 or 3 per body", nq);
    }
    for (int k = 0; k < nq; k++) CHECK(M->mass[k] > 0, "mass[%d] = %g not positive", k, M->mass[k]);
    for (int s = 0; s < 2 * M->info->nspring; s++)
        CHECK(M->info->spring_points[s] >= 0 && M->info->spring_points[s] < M->npoint, "spring point %d out of range", s);
    for (int s = 0; s < 2 * M->info->nrod; s++) {   /* a point, or -1 - b for particle b */
        int e = M->info->rod_ends[s], b = -1 - e;
        CHECK(e < M->npoint && (e >= 0 || (b < M->nbody && mb_body_nq(M, b) == 2)), "rod end %d out of range", s);
    }
    /* a joint joins two points of different bodies (the drawing info: tools/mb_info.c) */
    for (int j = 0; j < M->info->njoint; j++) {
        int a = M->info->joint_points[2 * j], b = M->info->joint_points[2 * j + 1];
        CHECK(a >= 0 && a < M->npoint && b >= 0 && b < M->npoint && M->point_body[a] != M->point_body[b],
              "joint %d: points %d, %d out of range or on one body", j, a, b);
    }
}

/* One state (t, q, v): every derivative against finite differences. */
/* The fused evaluations (when generated) against the single functions: the same expressions
 * with common subexpressions shared differently, so equal to rounding (long bodies are split
 * into parts, generator/emit.lua: body_of, which this also covers). */
static double fused_err(const double *a, const double *b, int n)
{
    double e = 0, s = 1;   /* absolute below 1 (Phi vanishes on the manifold) */
    for (int i = 0; i < n; i++) { e = fmax(e, fabs(a[i] - b[i])); s = fmax(s, fabs(b[i])); }
    return e / s;
}
static void check_fused(double t, const double *q, const double *v, const char *where)
{
    if (!M->eval_kin && !M->eval_kin_dyn) return;
    CHECK(M->eval_kin && M->eval_kin_dyn, "%s: only one of eval_kin, eval_kin_dyn", where);
    if (!M->eval_kin || !M->eval_kin_dyn) return;
    int pn = M->phi_q_pat.nnz, dqn = M->dq_dq_pat.nnz, dvn = M->dq_dv_pat.nnz;
    size_t tot = (size_t)(2 * nc + pn + nq + pn + dqn + dvn) + 1, kin = (size_t)(2 * nc + pn);
    double *f = xcalloc(tot, sizeof(double)), *g = xcalloc(tot, sizeof(double));
    double *fphi = f, *fpt = fphi + nc, *fpq = fpt + nc, *fQ = fpq + pn, *fpd = fQ + nq,
           *fdq = fpd + pn, *fdv = fdq + dqn;
    double *gphi = g, *gpt = gphi + nc, *gpq = gpt + nc, *gQ = gpq + pn, *gpd = gQ + nq,
           *gdq = gpd + pn, *gdv = gdq + dqn;
    /* eval_kin_dyn into f, eval_kin's three outputs (which must agree with it) after them */
    double *k3 = xcalloc(kin + 1, sizeof(double));
    M->eval_kin_dyn(M, t, q, v, fphi, fpt, fpq, fQ, fpd, fdq, fdv, NULL);
    M->eval_kin(M, t, q, k3, k3 + nc, k3 + 2 * nc, NULL);
    CHECK(fused_err(k3, f, (int)kin) <= 1e-13, "%s: eval_kin differs from eval_kin_dyn", where);
    /* the sine cache (runtime/mb_trig.h): with it the outputs at q agree with libm's, and do not
     * depend on the history of the cache (empty, filled 0.01 and 1 rad away, or holding the pairs
     * of q itself: the same bits); a filled entry holds the grid point nearest its angle
     * (multiples of 1/64 rad) and the angle's own pair */
    double *trig = xcalloc(MB_TRIG_ENTRY * (size_t)nq + 1, sizeof(double)), *qs = xcalloc((size_t)nq + 1, sizeof(double));
    double *c3 = xcalloc(tot, sizeof(double)), *c4 = xcalloc(tot, sizeof(double));
#define DYN(qq, o) M->eval_kin_dyn(M, t, qq, v, o, o + nc, o + 2 * nc, o + 2 * nc + pn, o + 2 * nc + pn + nq, \
                                   o + 2 * nc + 2 * pn + nq, o + 2 * nc + 2 * pn + nq + dqn, trig)
    for (int i = 0; i < MB_TRIG_ENTRY * nq; i++) trig[i] = NAN;
    DYN(q, c3);                                   /* from an empty cache */
    DYN(q, c4);                                   /* from the pairs of q kept */
    CHECK(memcmp(c3, c4, sizeof(double) * (tot - 1)) == 0,
          "%s: eval_kin_dyn with the sine cache differs with the pairs of q kept", where);
    for (double off = -0.01; off < 2; off += 1.01) {
        for (int i = 0; i < nq; i++) qs[i] = q[i] + off;
        DYN(qs, c4);
        DYN(q, c4);                               /* after an evaluation 0.01 and 1 rad away */
        CHECK(memcmp(c3, c4, sizeof(double) * (tot - 1)) == 0,
              "%s: eval_kin_dyn with the sine cache depends on its history (last at %+g rad)", where, off);
    }
#undef DYN
    int grid = 1;
    for (int i = 0; i < nq; i++) {
        const double *e = trig + MB_TRIG_ENTRY * i;
        if (!isnan(e[0])) grid &= e[0] == nearbyint(q[i] * 64) / 64 && e[3] == q[i]
                                  && fabs(e[4] - sin(q[i])) <= 3e-16 && fabs(e[5] - cos(q[i])) <= 3e-16;
    }
    CHECK(fused_err(c3, f, (int)(tot - 1)) <= 1e-13 && grid,
          "%s: eval_kin_dyn with the sine cache differs by %.1e (entries on the grid: %d)", where,
          fused_err(c3, f, (int)(tot - 1)), grid);
    M->eval_kin(M, t, q, c4, c4 + nc, c4 + 2 * nc, trig);
    CHECK(fused_err(c4, c3, (int)kin) <= 1e-13, "%s: eval_kin and eval_kin_dyn with the sine cache differ", where);
    free(c4);
    free(trig); free(qs); free(c3);
    free(k3);
    M->phi(M, t, q, gphi);
    M->phi_t(M, t, q, gpt);
    M->phi_q(M, t, q, gpq);
    M->force(M, t, q, v, gQ);
    M->phi_q_dot(M, t, q, v, gpd);
    M->dforce_dq(M, t, q, v, gdq);
    M->dforce_dv(M, t, q, v, gdv);
    const char *names[7] = { "Phi", "Phi_t", "Phi_q", "Q", "dPhi_q/dt", "dQ/dq", "dQ/dv" };
    const double *fa[7] = { fphi, fpt, fpq, fQ, fpd, fdq, fdv }, *ga[7] = { gphi, gpt, gpq, gQ, gpd, gdq, gdv };
    int ns[7] = { nc, nc, pn, nq, pn, dqn, dvn };
    for (int k = 0; k < 7; k++) {
        double e = fused_err(fa[k], ga[k], ns[k]);
        CHECK(e <= 1e-13, "%s: fused %s differs from the single function by %.1e (relative, absolute below 1)", where, names[k], e);
    }
    /* eval_gamma_force (interface 14: baumgarte's Gamma and Q) against gamma and force, without
     * the sine cache and with it as the runtime calls it (after eval_kin at the same q) */
    CHECK(!M->eval_gamma_force || M->eval_kin, "%s: eval_gamma_force without eval_kin", where);
    if (M->eval_gamma_force && M->gamma) {
        double *gf = xcalloc((size_t)(nc + nq) + 1, sizeof(double)), *ff = xcalloc((size_t)(nc + nq) + 1, sizeof(double));
        double *trig = xcalloc(MB_TRIG_ENTRY * (size_t)nq + 1, sizeof(double));
        double *f0 = xcalloc((size_t)(nc + nq) + 1, sizeof(double));
        M->gamma(M, t, q, v, gf);
        M->force(M, t, q, v, gf + nc);
        /* pass 0 without the cache, 1 from an empty one, 2 after eval_kin at q (its pairs kept:
         * the same bits as 1) */
        for (int pass = 0; pass < 3; pass++) {
            for (int i = 0; i < MB_TRIG_ENTRY * nq; i++) trig[i] = NAN;
            if (pass == 2) M->eval_kin(M, t, q, f, f + nc, f + 2 * nc, trig);
            M->eval_gamma_force(M, t, q, v, ff, ff + nc, pass ? trig : NULL);
            double eg = fused_err(ff, gf, nc), eq = fused_err(ff + nc, gf + nc, nq);
            CHECK(eg <= 1e-13 && eq <= 1e-13, "%s: eval_gamma_force (%s the sine cache) differs from gamma by %.1e, "
                  "from force by %.1e", where, pass ? "with" : "without", eg, eq);
            if (pass == 1) memcpy(f0, ff, sizeof(double) * (size_t)(nc + nq));
            if (pass == 2)
                CHECK(memcmp(f0, ff, sizeof(double) * (size_t)(nc + nq)) == 0,
                      "%s: eval_gamma_force after eval_kin differs from its value from an empty sine cache", where);
        }
        free(gf); free(ff); free(trig); free(f0);
    }
    /* eval_force_phi_q_dot (interface 20: canonical's and alf-explicit's Q and Phidot_q) against
     * force and phi_q_dot, without the sine cache and with it as the runtime calls it */
    CHECK(!M->eval_force_phi_q_dot || M->eval_kin, "%s: eval_force_phi_q_dot without eval_kin", where);
    if (M->eval_force_phi_q_dot) {
        double *gf = xcalloc((size_t)(nq + pn) + 1, sizeof(double)), *ff = xcalloc((size_t)(nq + pn) + 1, sizeof(double));
        double *trig = xcalloc(MB_TRIG_ENTRY * (size_t)nq + 1, sizeof(double));
        M->force(M, t, q, v, gf);
        M->phi_q_dot(M, t, q, v, gf + nq);
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < MB_TRIG_ENTRY * nq; i++) trig[i] = NAN;
            if (pass) M->eval_kin(M, t, q, f, f + nc, f + 2 * nc, trig);
            M->eval_force_phi_q_dot(M, t, q, v, ff, ff + nq, pass ? trig : NULL);
            double eq = fused_err(ff, gf, nq), ed = fused_err(ff + nq, gf + nq, pn);
            CHECK(eq <= 1e-13 && ed <= 1e-13, "%s: eval_force_phi_q_dot (%s the sine cache) differs from force "
                  "by %.1e, from phi_q_dot by %.1e", where, pass ? "with" : "without", eq, ed);
        }
        free(gf); free(ff); free(trig);
    }
    /* power (interface 18): energy's third value, bit for bit */
    if (M->power) {
        double e[3], p = NAN;
        M->energy(M, t, q, v, e);
        M->power(M, t, q, v, &p);
        CHECK(memcmp(&p, &e[2], sizeof p) == 0, "%s: power %.17g differs from energy's %.17g", where, p, e[2]);
    }
    free(f); free(g);
}

static void check_inputs(double t, const double *q, const double *v, const char *where);
static void check_lambda(double t, const double *q, const double *v, const char *where);
static void check_state(double t, double *q, double *v, const char *where)
{
    int pnnz = M->phi_q_pat.nnz, dqn = M->dq_dq_pat.nnz, dvn = M->dq_dv_pat.nnz;
    int nmax = nq > nc ? nq : nc;
    double *A = xcalloc((size_t)nmax * (size_t)nq, sizeof(double));  /* analytic, dense */
    double *F = xcalloc((size_t)nmax * (size_t)nq, sizeof(double));  /* finite differences */
    double *col = xcalloc((size_t)nmax * (size_t)nq + 1, sizeof(double));
    double *sp = xcalloc((size_t)(pnnz + dqn + dvn) + 1, sizeof(double));
    double *dir = xcalloc((size_t)nq, sizeof(double));
    double *qs = xcalloc((size_t)nq, sizeof(double)), *vs = xcalloc((size_t)nq, sizeof(double));
    double *a1 = xcalloc((size_t)nmax + 1, sizeof(double)), *a2 = xcalloc((size_t)nmax + 1, sizeof(double));
    state st = { t, q, v, 0, NULL, NULL, qs, vs, W_PHI, 0 };
    int br = 0, bc = 0;
    double e;

    /* Phi_q vs d Phi / d q_k, column by column; entries outside the pattern must vanish. */
    if (nc > 0) {
        M->phi_q(M, t, q, sp);
        densify(&M->phi_q_pat, sp, nq, A, nc);
        for (int k = 0; k < nq; k++) {
            memset(dir, 0, sizeof(double) * (size_t)nq); dir[k] = 1;
            st.which = W_PHI; st.dq = dir; st.dv = NULL; st.dt = 0;
            fd1(eval_at, &st, 1e-3 * qscale(k), nc, col);
            for (int i = 0; i < nc; i++) F[i * nq + k] = col[i];
        }
        e = cmp_rows(A, F, nc, nq, &br, &bc);
        note(E_PHIQ, e);
        CHECK(e <= TOL, "%s: Phi_q[%d][%d] = %.12g, FD %.12g (rel %.2e)", where, br, bc,
              A[br * nq + bc], F[br * nq + bc], e);

        /* Phi_t vs d Phi / dt */
        M->phi_t(M, t, q, a1);
        st.which = W_PHI; st.dq = NULL; st.dt = 1;
        fd1(eval_at, &st, 1e-3, nc, a2);
        e = cmp_vec(a1, a2, nc, &br);
        note(E_PHIT, e);
        CHECK(e <= TOL, "%s: Phi_t[%d] = %.12g, FD %.12g (rel %.2e)", where, br, a1[br], a2[br], e);
        /* scleronomic (interface 29): the runtime skips the drivers' power, so Phi_t must be 0 */
        CHECK(M->scleronomic == 0 || M->scleronomic == 1, "%s: scleronomic = %d", where, M->scleronomic);
        for (int i = 0; M->scleronomic && i < nc; i++)
            CHECK(a1[i] == 0, "%s: scleronomic, but Phi_t[%d] = %.12g", where, i, a1[i]);

        /* d(Phi_q)/dt vs the derivative of Phi_q along (q + s v, t + s); the step shrinks with
         * the fastest coordinate (a cam at 700 rad/s turns 0.7 rad in s = 1e-3), so s |v| stays
         * below 0.02 and the O(s^4) error of the extrapolated differences below TOL */
        double vinf = 0;
        for (int k = 0; k < nq; k++) vinf = fmax(vinf, fabs(v[k]));
        double sv = vinf > 20 ? 20 / vinf : 1;
        M->phi_q_dot(M, t, q, v, sp);
        densify(&M->phi_q_pat, sp, nq, A, nc);
        {
            double *tmp = xcalloc((size_t)pnnz + 1, sizeof(double));
            scratch_sparse = tmp;
            st.which = W_PHIQ_DENSE; st.dq = v; st.dt = 1;
            fd1(eval_at, &st, 1e-3 * sv, nc * nq, F);
            free(tmp);
        }
        e = cmp_rows(A, F, nc, nq, &br, &bc);
        note(E_PHIQDOT, e);
        CHECK(e <= TOL, "%s: dPhi_q/dt[%d][%d] = %.12g, FD %.12g (rel %.2e)", where, br, bc,
              A[br * nq + bc], F[br * nq + bc], e);

        /* Gamma = -d^2/ds^2 Phi(t + s, q + s v): the acceleration-free part of Phi'' */
        M->gamma(M, t, q, v, a1);
        st.which = W_PHI; st.dq = v; st.dt = 1;
        fd2(eval_at, &st, 2e-3 * sv, nc, a2);
        for (int i = 0; i < nc; i++) a2[i] = -a2[i];
        e = cmp_vec(a1, a2, nc, &br);
        {   /* the second differences' round-off: Phi's operands (coordinates, and time through
             * Phi_t: a driver at 700 rad/s has angles of hundreds of radians) lose 64 eps of
             * their size each, over (h/2)^2; below that the comparison cannot see */
            double big = 0, sc = 1e-12, h2 = 2e-3 * sv;
            M->phi_t(M, t, q, a2 + 0);   /* (a2 is recomputed below) */
            for (int k = 0; k < nq; k++) big = fmax(big, fabs(q[k]));
            for (int i = 0; i < nc; i++) big = fmax(big, fabs(t * a2[i]));
            fd2(eval_at, &st, h2, nc, a2);
            for (int i = 0; i < nc; i++) a2[i] = -a2[i];
            for (int i = 0; i < nc; i++) sc = fmax(sc, fmax(fabs(a1[i]), fabs(a2[i])));
            double noise = 64 * DBL_EPSILON * big / (h2 * h2 / 4);
            if (e > TOL && e * sc <= TOL * sc + noise) e = TOL;   /* within the round-off */
        }
        note(E_GAMMA, e);
        CHECK(e <= TOL, "%s: Gamma[%d] = %.12g, FD %.12g (rel %.2e)", where, br, a1[br], a2[br], e);
    }

    /* dQ/dq and dQ/dv vs finite differences of Q */
    M->dforce_dq(M, t, q, v, sp);
    densify(&M->dq_dq_pat, sp, nq, A, nq);
    /* a load may vary on a small scale (a Coulomb friction regularized over 1e-3 m/s): where
     * the step 1e-3 of the coordinate's scale misses it, the differences are taken again with
     * steps 32 and 1024 times smaller, and the closest agreement counts */
    for (int r = 0; r < 3; r++) {
        for (int k = 0; k < nq; k++) {
            memset(dir, 0, sizeof(double) * (size_t)nq); dir[k] = 1;
            st.which = W_FORCE; st.dq = dir; st.dv = NULL; st.dt = 0;
            fd1(eval_at, &st, 1e-3 * qscale(k) / (r == 0 ? 1 : r == 1 ? 32 : 1024), nq, col);
            for (int i = 0; i < nq; i++) F[i * nq + k] = col[i];
        }
        double er = cmp_rows(A, F, nq, nq, &br, &bc);
        e = r == 0 ? er : fmin(e, er);
        if (e <= TOL) break;
    }
    note(E_DQDQ, e);
    CHECK(e <= TOL, "%s: dQ/dq[%d][%d] = %.12g, FD %.12g (rel %.2e)", where, br, bc,
          A[br * nq + bc], F[br * nq + bc], e);

    M->dforce_dv(M, t, q, v, sp);
    densify(&M->dq_dv_pat, sp, nq, A, nq);
    for (int r = 0; r < 3; r++) {   /* (steps as for dQ/dq) */
        for (int k = 0; k < nq; k++) {
            memset(dir, 0, sizeof(double) * (size_t)nq); dir[k] = 1;
            st.which = W_FORCE; st.dq = NULL; st.dv = dir; st.dt = 0;
            fd1(eval_at, &st, 1e-3 * qscale(k) / (r == 0 ? 1 : r == 1 ? 32 : 1024), nq, col);
            for (int i = 0; i < nq; i++) F[i * nq + k] = col[i];
        }
        double er = cmp_rows(A, F, nq, nq, &br, &bc);
        e = r == 0 ? er : fmin(e, er);
        if (e <= TOL) break;
    }
    note(E_DQDV, e);
    CHECK(e <= TOL, "%s: dQ/dv[%d][%d] = %.12g, FD %.12g (rel %.2e)", where, br, bc,
          A[br * nq + bc], F[br * nq + bc], e);

    /* sensors: dy/dq and dy/dv (dense, row-major) vs finite differences of y, and y alone
     * (without the Jacobians) equal to y with them */
    if (M->nout > 0) {
        int no = M->nout;
        double *y = xcalloc((size_t)no, sizeof(double)), *y2 = xcalloc((size_t)no, sizeof(double));
        double *Jq = xcalloc((size_t)no * (size_t)nq, sizeof(double));
        double *Jv = xcalloc((size_t)no * (size_t)nq, sizeof(double));
        double *Fo = xcalloc((size_t)no * (size_t)nq, sizeof(double));
        double *co = xcalloc((size_t)no, sizeof(double));
        poison(Jq, no * nq);
        poison(Jv, no * nq);
        M->outputs(M, t, q, v, y, Jq, Jv);
        CHECK(written(Jq, no * nq) && written(Jv, no * nq), "%s: dy/dq or dy/dv not written whole", where);
        M->outputs(M, t, q, v, y2, NULL, NULL);
        CHECK(memcmp(y, y2, sizeof(double) * (size_t)no) == 0, "%s: outputs y differ with and without the Jacobians", where);
        for (int w = 0; w < 2; w++) {
            for (int k = 0; k < nq; k++) {
                memset(dir, 0, sizeof(double) * (size_t)nq); dir[k] = 1;
                st.which = W_OUT; st.dq = w == 0 ? dir : NULL; st.dv = w == 1 ? dir : NULL; st.dt = 0;
                fd1(eval_at, &st, 1e-3 * qscale(k), no, co);
                for (int i = 0; i < no; i++) Fo[i * nq + k] = co[i];
            }
            e = cmp_rows(w == 0 ? Jq : Jv, Fo, no, nq, &br, &bc);
            note(E_DY, e);
            CHECK(e <= TOL, "%s: dy/d%s[%d][%d] = %.12g, FD %.12g (rel %.2e)", where, w == 0 ? "q" : "v", br, bc,
                  (w == 0 ? Jq : Jv)[br * nq + bc], Fo[br * nq + bc], e);
        }
        free(y); free(y2); free(Jq); free(Jv); free(Fo); free(co);
    }

    /* Conservative forces: Q(t, q, e_k)_k - P_nc(t, q, e_k) = Q_c,k (the damper and load
     * parts of Q are exactly Q_nc, whose power at v = e_k is Q_nc,k), and Q_c = -dV/dq. */
    {
        double *qc = a1, *dv = a2, en[3], vmax = 1e-12;
        double *Q = xcalloc((size_t)nq, sizeof(double)), *unit = xcalloc((size_t)nq, sizeof(double));
        double *sc = xcalloc((size_t)nq, sizeof(double));
        for (int k = 0; k < nq; k++) {
            memset(unit, 0, sizeof(double) * (size_t)nq); unit[k] = 1;
            M->force(M, t, q, unit, Q);
            M->energy(M, t, q, unit, en);
            qc[k] = Q[k] - en[2];
            memset(dir, 0, sizeof(double) * (size_t)nq); dir[k] = 1;
            st.which = W_V; st.dq = dir; st.dv = NULL; st.dt = 0;
            fd1(eval_at, &st, 1e-3 * qscale(k), 1, col);
            dv[k] = -col[0];
            sc[k] = fmax(fmax(fabs(Q[k]), fabs(en[2])), fabs(dv[k]));   /* per component */
            vmax = fmax(vmax, sc[k]);
        }
        int bad = -1;
        double worst = 0;
        for (int k = 0; k < nq; k++) {
            double r = fabs(qc[k] - dv[k]) / fmax(sc[k], 1e-6 * vmax);
            if (r > worst) { worst = r; bad = k; }
        }
        note(E_QC, worst);
        CHECK(worst <= TOL, "%s: conservative Q[%d] = %.12g, -dV/dq %.12g (rel %.2e)", where, bad,
              bad >= 0 ? qc[bad] : 0.0, bad >= 0 ? dv[bad] : 0.0, worst);
        free(sc);

        /* P_nc(v) = (Q(v) - Q_c)^T v at the state's own v; T = v^T M v / 2 */
        M->force(M, t, q, v, Q);
        M->energy(M, t, q, v, en);
        double p = 0, ps = 1e-12, T = 0;
        for (int k = 0; k < nq; k++) {
            p += (Q[k] - qc[k]) * v[k];
            ps += fabs(Q[k] * v[k]) + fabs(qc[k] * v[k]);
            T += 0.5 * M->mass[k] * v[k] * v[k];
        }
        CHECK(fabs(en[2] - p) <= TOL * ps, "%s: P_nc = %.12g, (Q - Q_c)^T v = %.12g", where, en[2], p);
        CHECK(check_close(en[0] / fmax(T, 1e-300), 1.0, 1e-12) || (T == 0 && en[0] == 0),
              "%s: T = %.12g, v^T M v / 2 = %.12g", where, en[0], T);
        free(Q); free(unit);
    }

    /* Points move rigidly with their body: d point / d x_b = (1, 0) for points of body b. */
    if (M->npoint > 0) {
        int np2 = 2 * M->npoint, ok = 1;
        double *p0 = xcalloc((size_t)np2, sizeof(double)), *p1 = xcalloc((size_t)np2, sizeof(double));
        M->points(M, t, q, p0);
        for (int b = 0; b < M->nbody; b++) {
            memcpy(qs, q, sizeof(double) * (size_t)nq);
            qs[mb_body_q(M, b)] += 0.5 * lscale;
            M->points(M, t, qs, p1);
            for (int i = 0; i < M->npoint; i++) {
                double want = M->point_body[i] == b ? 0.5 * lscale : 0;
                if (fabs(p1[2 * i] - p0[2 * i] - want) > 1e-12 * lscale * 10 + 1e-9 * fabs(p0[2 * i])
                    || fabs(p1[2 * i + 1] - p0[2 * i + 1]) > 1e-9 * lscale + 1e-9 * fabs(p0[2 * i + 1]))
                    ok = 0;
            }
        }
        CHECK(ok, "%s: points do not move with their bodies (point_body or points wrong)", where);
        /* rotating a body keeps the distances of its points to its CoM and to each other */
        ok = 1;
        for (int b = 0; b < M->nbody; b++) {
            if (mb_body_nq(M, b) < 3) continue;   /* a particle does not rotate */
            int k0 = mb_body_q(M, b);
            memcpy(qs, q, sizeof(double) * (size_t)nq);
            qs[k0 + 2] += 0.7;
            M->points(M, t, qs, p1);
            for (int i = 0; i < M->npoint; i++) {
                if (M->point_body[i] != b) continue;
                for (int j = -1; j < M->npoint; j++) {
                    if (j >= 0 && M->point_body[j] != b) continue;
                    double x0 = j < 0 ? q[k0] : p0[2 * j], y0 = j < 0 ? q[k0 + 1] : p0[2 * j + 1];
                    double x1 = j < 0 ? qs[k0] : p1[2 * j], y1 = j < 0 ? qs[k0 + 1] : p1[2 * j + 1];
                    double d0 = hypot(p0[2 * i] - x0, p0[2 * i + 1] - y0);
                    double d1 = hypot(p1[2 * i] - x1, p1[2 * i + 1] - y1);
                    if (fabs(d0 - d1) > 1e-12 * lscale + 1e-12 * d0) ok = 0;
                }
            }
        }
        CHECK(ok, "%s: points are not rigid in their bodies", where);
        free(p0); free(p1);
    }

    check_fused(t, q, v, where);
    check_inputs(t, q, v, where);
    check_lambda(t, q, v, where);
    free(A); free(F); free(col); free(sp); free(dir); free(qs); free(vs); free(a1); free(a2);
}

/* The inputs' derivatives (interface 9): dQ/du and dy/du, dense row-major, against central
 * differences in each input's hold value, through a copy of the descriptor with holds of its
 * own (as mb_sim's copy: runtime/mb_input.c) away from the defaults, with a slope. */
typedef struct { const double *q, *v; double t; int i, out; mb_model *cp; double *hold; } ustate;
static void eval_u(double s, void *vctx, double *out)
{
    ustate *u = vctx;
    double keep = u->hold[3 * u->i];
    u->hold[3 * u->i] = keep + s;
    if (u->out) u->cp->outputs(u->cp, u->t, u->q, u->v, out, NULL, NULL);
    else u->cp->force(u->cp, u->t, u->q, u->v, out);
    u->hold[3 * u->i] = keep;
}
static void check_inputs(double t, const double *q, const double *v, const char *where)
{
    int ni = M->nin, no = M->nout;
    if (ni == 0) {
        CHECK(!M->dforce_du && !M->doutputs_du, "%s: input derivatives without inputs", where);
        return;
    }
    CHECK(M->dforce_du && (no == 0) == (M->doutputs_du == NULL),
          "%s: dforce_du or doutputs_du missing (nin %d, nout %d)", where, ni, no);
    if (!M->dforce_du || (no > 0 && !M->doutputs_du)) return;
    static mb_model cp;
    cp = *M;
    double *hold = xcalloc((size_t)3 * (size_t)ni, sizeof(double));
    for (int i = 0; i < ni; i++) {
        hold[3 * i] = M->in[3 * i] * 1.2 + 0.3 * (i + 1);
        hold[3 * i + 1] = 0.5 * urand();
        hold[3 * i + 2] = 0.1;
    }
    cp.in = hold;
    int nr = no > nq ? no : nq;
    double *A = xcalloc((size_t)nr * (size_t)ni, sizeof(double));
    double *F = xcalloc((size_t)nr * (size_t)ni, sizeof(double));
    double *col = xcalloc((size_t)nr, sizeof(double));
    ustate us = { q, v, t, 0, 0, &cp, hold };
    for (int w = 0; w < (no > 0 ? 2 : 1); w++) {
        int rows = w == 0 ? nq : no, br = 0, bc = 0;
        poison(A, rows * ni);
        if (w == 0) cp.dforce_du(&cp, t, q, v, A);
        else cp.doutputs_du(&cp, t, q, v, A);
        CHECK(written(A, rows * ni), "%s: %s not written whole", where, w == 0 ? "dQ/du" : "dy/du");
        for (int i = 0; i < ni; i++) {
            us.i = i;
            us.out = w;
            fd1(eval_u, &us, 1e-3 * fmax(1, fabs(hold[3 * i])), rows, col);
            for (int r = 0; r < rows; r++) F[r * ni + i] = col[r];
        }
        double e = cmp_rows(A, F, rows, ni, &br, &bc);
        note(E_DU, e);
        CHECK(e <= TOL, "%s: %s[%d][%d] = %.12g, FD %.12g (rel %.2e)", where, w == 0 ? "dQ/du" : "dy/du",
              br, bc, A[br * ni + bc], F[br * ni + bc], e);
    }
    free(A); free(F); free(col); free(hold);
}

/* Sensors that read reactions (interface 13): dy/dlambda, dense row-major, against central
 * differences in each multiplier of the copy's lam (random values: main). */
typedef struct { const double *q, *v; double t; int r; } lstate;
static void eval_l(double s, void *vctx, double *out)
{
    lstate *l = vctx;
    double keep = lam_val[l->r];
    lam_val[l->r] = keep + s;
    M->outputs(M, l->t, l->q, l->v, out, NULL, NULL);
    lam_val[l->r] = keep;
}
static void check_lambda(double t, const double *q, const double *v, const char *where)
{
    int no = M->nout, br = 0, bc = 0;
    CHECK(!M->lam == !M->doutputs_dlam, "%s: lam and doutputs_dlam not both set", where);
    if (!M->doutputs_dlam || no == 0 || nc == 0) return;
    double *A = xcalloc((size_t)no * (size_t)nc, sizeof(double));
    double *F = xcalloc((size_t)no * (size_t)nc, sizeof(double));
    double *col = xcalloc((size_t)no, sizeof(double));
    lstate ls = { q, v, t, 0 };
    poison(A, no * nc);
    M->doutputs_dlam(M, t, q, v, A);
    CHECK(written(A, no * nc), "%s: dy/dlambda not written whole", where);
    for (int r = 0; r < nc; r++) {
        ls.r = r;
        fd1(eval_l, &ls, 1e-3 * fmax(1, fabs(lam_val[r])), no, col);
        for (int i = 0; i < no; i++) F[i * nc + r] = col[i];
    }
    double e = cmp_rows(A, F, no, nc, &br, &bc);
    note(E_DL, e);
    CHECK(e <= TOL, "%s: dy/dlambda[%d][%d] = %.12g, FD %.12g (rel %.2e)", where, br, bc,
          A[br * nc + bc], F[br * nc + bc], e);
    free(A); free(F); free(col);
}

static void run_states(const char *label);
static void check_tunables(void);

#if MB_WITH_TRIG_CACHE
/* The sine cache's grid pairs (runtime/mb_trig.h), from its table within 16 rad and from libm
 * beyond: libm's values at x0 = k / 64 (on glibc 2.36 x86-64, whose values the table holds, the
 * same bits; with another libm, or another glibc, within an ulp), the entry's own pair within 3e-16 of libm's at x, on both sides of
 * the table's end and at negative angles. */
static void check_trig_grid(void)
{
    int bad = 0, k0 = 0;
    for (int k = -1100; k <= 1100; k++) {
        double x0 = k / 64.0, x = x0 + ((k % 3 + 3) % 3 - 1) * 0.0031, tc[MB_TRIG_ENTRY];
        for (int i = 0; i < MB_TRIG_ENTRY; i++) tc[i] = NAN;
        double s = mb_sin_near(x, tc, 0), c = mb_cos_kept(x, tc, 0), s0 = sin(x0), c0 = cos(x0);
#if defined(__GLIBC__) && __GLIBC__ == 2 && __GLIBC_MINOR__ == 36 && defined(__x86_64__)
        int same = tc[1] == s0 && tc[2] == c0;   /* the libm the table was written from */
#else
        int same = fabs(tc[1] - s0) <= nextafter(fabs(s0), 2) - fabs(s0)
                   && fabs(tc[2] - c0) <= nextafter(fabs(c0), 2) - fabs(c0);
#endif
        if (!(tc[0] == x0 && same && fabs(s - sin(x)) <= 3e-16 && fabs(c - cos(x)) <= 3e-16)) {
            if (!bad) k0 = k;
            bad++;
        }
    }
    CHECK(bad == 0, "sine cache: %d grid points of 2201 not libm's (first k = %d, x0 = k / 64)", bad, k0);
}
#endif

int main(void)
{
    nq = M->nq;
    nc = M->nc;
    printf("model %s: nq %d, nc %d, phi_q nnz %d, dQ/dq nnz %d, dQ/dv nnz %d\n", M->name, nq, nc,
           M->phi_q_pat.nnz, M->dq_dq_pat.nnz, M->dq_dv_pat.nnz);
    check_patterns();
#if MB_WITH_TRIG_CACHE
    check_trig_grid();
#endif
    if (M->doutputs_dlam) {   /* multipliers away from the descriptor's zeros */
        lam_val = xcalloc((size_t)nc, sizeof(double));
        for (int r = 0; r < nc; r++) lam_val[r] = 2 * urand() + (urand() < 0 ? -1 : 1);
        lam_copy = *M;
        lam_copy.lam = lam_val;
        M = &lam_copy;
    }

    /* length scale: the spread of the named points at the initial guess */
    lscale = 0;
    if (M->npoint > 0) {
        double *p = xcalloc((size_t)M->npoint * 2, sizeof(double));
        M->points(M, 0, M->q0, p);
        for (int i = 0; i < 2 * M->npoint; i++) lscale = fmax(lscale, fabs(p[i]));
        for (int b = 0; b < M->nbody; b++)
            lscale = fmax(lscale, fmax(fabs(M->q0[mb_body_q(M, b)]), fabs(M->q0[mb_body_q(M, b) + 1])));
        free(p);
    }
    if (!(lscale > 0)) lscale = 1;

    run_states("");
    if (M->npar > 0) check_tunables();
    return check_report();
}

/* A contact's gap (a sensor "<K>.gap") within 2e-3 of the length scale of touch, or the
 * contact inside with its force clamped at 0: there the
 * force's x^e (and its clamp, and the gap's cancellation) make central differences of step
 * ~1e-6 meaningless, not the exact derivatives wrong (x^1.5: relative error ~ (h / x)^2). A
 * model whose feet stand on the ground (walker) starts there. */
static int near_touch(double t, const double *q, const double *v)
{
    int hit = 0;
    if (M->nout <= 0 || !M->outputs || !M->out_names) return 0;
    double *y = xcalloc((size_t)M->nout, sizeof(double));
    M->outputs(M, t, q, v, y, NULL, NULL);
    for (int i = 0; i < M->nout && !hit; i++) {
        size_t n = strlen(M->out_names[i]);
        if (n <= 4 || strcmp(M->out_names[i] + n - 4, ".gap")) continue;
        hit = fabs(y[i]) < 2e-3 * lscale;
        /* inside, with no force: the damping's clamp holds it at 0 (x' < -1/d), whose kink a
         * difference may cross (the contact's sensors: gap, normal, friction, slip) */
        if (y[i] < 0 && i + 1 < M->nout && y[i + 1] == 0) hit = 1;
    }
    free(y);
    return hit;
}

/* The states of the test: random ones on and off the constraint manifold (away from a
 * contact's touch: up to 100 draws). */
static void run_states(const char *label)
{
    double *q = xcalloc((size_t)nq, sizeof(double)), *v = xcalloc((size_t)nq, sizeof(double));
    int on = 0;
    for (int s = 0; s < 6; s++) {
        double t = 0.7 * (urand() + 1);
        int manifold = s % 2 == 1 && nc > 0, ok = 1;
        double amp = manifold ? 0.01 : 0.1;    /* small perturbation when projecting back */
        for (int draw = 0; draw < 100; draw++) {
            for (int k = 0; k < nq; k++) {
                q[k] = M->q0[k] + amp * qscale(k) * urand();
                v[k] = (is_angle(k) ? 2.0 : lscale) * urand();
            }
            ok = !manifold || project(t, q, v);
            if (ok && !near_touch(t, q, v)) break;
            ok = 0;
        }
        char where[64];
        if (manifold) {
            if (!ok) continue;
            on++;
            snprintf(where, sizeof where, "%sstate %d (on the manifold)", label, s);
        } else {
            snprintf(where, sizeof where, "%sstate %d (off the manifold)", label, s);
        }
        check_state(t, q, v, where);
    }
    if (nc > 0) CHECK(on > 0, "no state could be projected onto the constraint manifold");
    printf("%s: %s%d states on the manifold; worst relative errors:", M->name, label, on);
    for (int c = 0; c < E_N; c++) printf(" %s %.1e%s", err_names[c], err_worst[c], c + 1 < E_N ? "," : "\n");
    free(q); free(v);
}

/* A model with tunables: the same checks with every tunable away from its default (the
 * derivatives must hold for any value, and the patterns must not depend on them), through a
 * copy of the descriptor whose par (and mass) hold the new values, as mb_sim's copy does. */
static void check_tunables(void)
{
    static mb_model tuned;
    double *par = xcalloc((size_t)M->npar, sizeof(double));
    double *mass = xcalloc((size_t)nq, sizeof(double));
    for (int i = 0; i < M->npar; i++) par[i] = M->par[i] * (1.3 + 0.1 * (i % 5)) + 0.05;
    CHECK(M->par_check(par) < 0, "the tuned values break rule %d", M->par_check(par));
    /* negative control: a rule must refuse a value (every model with a tunable mass or spring
     * constant has one: a negative value breaks it) */
    int refused = 0;
    for (int i = 0; i < M->npar && !refused; i++) {
        double keep = par[i];
        par[i] = -1e3 * (fabs(keep) + 1);
        refused = M->par_check(par) >= 0;
        par[i] = keep;
    }
    if (M->nrule > 0 && M->par_mass) CHECK(refused, "no rule refuses a negative tunable");
    tuned = *M;
    tuned.par = par;
    if (M->par_mass) {
        M->par_mass(&tuned, mass);
        tuned.mass = mass;
        int differ = 0;
        for (int k = 0; k < nq; k++) differ |= mass[k] != M->mass[k];
        CHECK(differ, "par_mass gives the default masses for other values");
    }
    /* the functions read par: Q or Phi at q0 changes (every test model's loads or drivers
     * depend on a tunable: cam_follower's only tunable is its driver's speed) */
    double *f0 = xcalloc((size_t)nq, sizeof(double)), *f1 = xcalloc((size_t)nq, sizeof(double));
    double *v0 = xcalloc((size_t)nq, sizeof(double));
    for (int k = 0; k < nq; k++) v0[k] = 0.3;
    M->force(M, 0.4, M->q0, v0, f0);
    tuned.force(&tuned, 0.4, M->q0, v0, f1);
    int differ = 0;
    for (int k = 0; k < nq; k++) differ |= f0[k] != f1[k];
    if (nc > 0) {
        double *p0 = xcalloc((size_t)nc, sizeof(double)), *p1 = xcalloc((size_t)nc, sizeof(double));
        M->phi(M, 0.4, M->q0, p0);
        tuned.phi(&tuned, 0.4, M->q0, p1);
        for (int i = 0; i < nc; i++) differ |= p0[i] != p1[i];
        free(p0); free(p1);
    }
    CHECK(differ, "neither Q nor Phi changes with the tunables");
    free(f0); free(f1); free(v0);
    M = &tuned;
    run_states("tuned: ");
    M = &MB_TEST_MODEL;
    free(par); free(mass);
}
