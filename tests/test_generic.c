/* test_generic.c - the generic evaluator against the generated code: same descriptor data, and
 * every model function agrees to 1e-12 (relative) at random states on and off the manifold.
 * Uses only the mb_model interface; the model list comes from generic_models.h (X-macros). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mb_model.h"
#ifdef GENERIC_WITH_SIM
#include "mb_sim.h"
#include "test_plan.h"
#endif
#include "check.h"

#define X(name) extern const mb_model name##_model, name##_generic_model;
#include "generic_models.h"
#undef X

typedef struct pair_s {
    const mb_model *gen, *gnr;
} pair_t;

static const pair_t pairs[] = {
#define X(name) { &name##_model, &name##_generic_model },
#include "generic_models.h"
#undef X
};

/* Agreement bounds; a float build (-DMB_FLOAT) scales them to its precision. */
#if MB_FLOAT
#define TOL 2e-5        /* per function, relative */
/* a cam's rows in float: its normalized profile equation's velocity terms (|v|^2 r'' / |d| and
 * the like) cancel to a result hundreds of times smaller, and the two evaluators round them in
 * another order (measured 1e-4 on generic_cams off the manifold; the double build agrees to
 * 1e-12) */
#define CAM_TOL 1e-3
#define PHI_TOL 1e-5    /* |Phi| reached by the projection onto the manifold */
#define SIM_TOL 1e-4    /* whole simulations, relative */
#else
#define TOL 1e-12
#define CAM_TOL TOL
#define PHI_TOL 1e-13
#define SIM_TOL 1e-9
#endif
#define NSAMPLE 6

static unsigned long long rng = 88172645463325252ULL;
static double urand(void)   /* xorshift64 in [-1, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 4503599627370496.0 - 1.0;
}

static int same_strings(const char *const *a, const char *const *b, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(a[i], b[i]) != 0) return 0;
    return 1;
}

static int same_pattern(const mb_pattern *a, const mb_pattern *b)
{
    if (a->nnz != b->nnz) return 0;
    for (int k = 0; k < a->nnz; k++)
        if (a->row[k] != b->row[k] || a->col[k] != b->col[k]) return 0;
    return 1;
}

/* Everything that is data, not a function, must be identical. */
static void check_descriptor(const mb_model *g, const mb_model *h)
{
    CHECK(strcmp(g->name, h->name) == 0, "%s: name %s", g->name, h->name);
    CHECK(g->nq == h->nq && g->nc == h->nc && g->nbody == h->nbody && g->npoint == h->npoint
          && g->info->nspring == h->info->nspring, "%s: sizes differ", g->name);
    if (g->nq != h->nq || g->nc != h->nc || g->nbody != h->nbody || g->npoint != h->npoint
        || g->info->nspring != h->info->nspring) return;
    /* each descriptor array exists once: the generic model shares the generated one's */
    CHECK(g->info == h->info && g->mass == h->mass && g->q0 == h->q0 && g->point_body == h->point_body
          && g->phi_q_pat.row == h->phi_q_pat.row, "%s: descriptor arrays not shared", g->name);
    CHECK(same_strings(g->info->coord_names, h->info->coord_names, g->nq), "%s: coord names", g->name);
    CHECK(same_strings(g->info->body_names, h->info->body_names, g->nbody), "%s: body names", g->name);
    CHECK(same_strings(g->info->point_names, h->info->point_names, g->npoint), "%s: point names", g->name);
    CHECK(g->nc == 0 || same_strings(g->info->constraint_names, h->info->constraint_names, g->nc),
          "%s: constraint names", g->name);
    CHECK(memcmp(g->point_body, h->point_body, (size_t)g->npoint * sizeof(int)) == 0,
          "%s: point bodies", g->name);
    CHECK(g->info->nspring == 0 || memcmp(g->info->spring_points, h->info->spring_points,
                                    2 * (size_t)g->info->nspring * sizeof(int)) == 0,
          "%s: spring points", g->name);
    int same = 1;
    for (int k = 0; k < g->nq; k++)
        same &= g->mass[k] == h->mass[k] && g->q0[k] == h->q0[k] && g->v0[k] == h->v0[k]
                && g->locked[k] == h->locked[k] && g->v_given[k] == h->v_given[k];
    CHECK(same, "%s: mass, q0, v0, locked or v_given differ", g->name);
    CHECK(same_pattern(&g->phi_q_pat, &h->phi_q_pat), "%s: phi_q pattern", g->name);
    CHECK(same_pattern(&g->dq_dq_pat, &h->dq_dq_pat), "%s: dQ/dq pattern", g->name);
    CHECK(same_pattern(&g->dq_dv_pat, &h->dq_dv_pat), "%s: dQ/dv pattern", g->name);
}

/* Compare n outputs of both evaluators; report the worst entry once. */
static void compare(const char *model, const char *fn, const char *where, const mb_real *a,
                    const mb_real *b, int n, double tol)
{
    int bad = -1;
    double worst = 0.0;
    for (int k = 0; k < n; k++) {
        double s = fabs((double)a[k]) > fabs((double)b[k]) ? fabs((double)a[k]) : fabs((double)b[k]);
        double e = fabs((double)a[k] - (double)b[k]) / (s > 1.0 ? s : 1.0);
        if (!check_close((double)a[k], (double)b[k], tol) && e >= worst) {
            worst = e;
            bad = k;
        }
    }
    CHECK(bad < 0, "%s %s (%s): entry %d generated %.17g generic %.17g", model, fn, where, bad,
          bad < 0 ? 0.0 : (double)a[bad], bad < 0 ? 0.0 : (double)b[bad]);
}

/* Solve the dense n x n system A x = b in place by Gaussian elimination with partial pivoting.
 * Returns 0, or -1 if A is singular to working precision. */
static int solve(int n, double *A, double *b)
{
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(A[r * n + c]) > fabs(A[p * n + c])) p = r;
        if (fabs(A[p * n + c]) < 1e-300) return -1;
        if (p != c) {
            for (int k = 0; k < n; k++) {
                double t = A[c * n + k]; A[c * n + k] = A[p * n + k]; A[p * n + k] = t;
            }
            double t = b[c]; b[c] = b[p]; b[p] = t;
        }
        for (int r = c + 1; r < n; r++) {
            double f = A[r * n + c] / A[c * n + c];
            for (int k = c; k < n; k++) A[r * n + k] -= f * A[c * n + k];
            b[r] -= f * b[c];
        }
    }
    for (int c = n - 1; c >= 0; c--) {
        for (int k = c + 1; k < n; k++) b[c] -= A[c * n + k] * b[k];
        b[c] /= A[c * n + c];
    }
    return 0;
}

/* Minimum-norm correction x -= J^T (J J^T)^-1 r with J = Phi_q (dense from the pattern).
 * Returns 0 or -1 when J J^T is singular. */
static int project(const mb_model *m, const mb_real *jv, const double *r, mb_real *x)
{
    int nc = m->nc, nq = m->nq;
    double *J = calloc((size_t)nc * nq, sizeof *J), *A = calloc((size_t)nc * nc, sizeof *A);
    double *y = malloc((size_t)nc * sizeof *y);
    int rc = 0;
    for (int k = 0; k < m->phi_q_pat.nnz; k++)
        J[m->phi_q_pat.row[k] * nq + m->phi_q_pat.col[k]] = (double)jv[k];
    for (int i = 0; i < nc; i++) {
        y[i] = r[i];
        for (int j = 0; j < nc; j++) {
            double s = 0.0;
            for (int k = 0; k < nq; k++) s += J[i * nq + k] * J[j * nq + k];
            A[i * nc + j] = s;
        }
    }
    if (solve(nc, A, y) != 0) rc = -1;
    else
        for (int k = 0; k < nq; k++) {
            double s = 0.0;
            for (int i = 0; i < nc; i++) s += J[i * nq + k] * y[i];
            x[k] -= (mb_real)s;
        }
    free(J); free(A); free(y);
    return rc;
}

/* Move (q, v) onto the position and velocity manifolds with the generated functions.
 * Returns 0 when |Phi| ends below PHI_TOL (the velocities follow in one projection). */
static int to_manifold(const mb_model *m, mb_real t, mb_real *q, mb_real *v)
{
    int nc = m->nc;
    mb_real *phi = malloc((size_t)(nc > 0 ? nc : 1) * sizeof *phi);
    mb_real *jv = malloc((size_t)(m->phi_q_pat.nnz > 0 ? m->phi_q_pat.nnz : 1) * sizeof *jv);
    double *r = malloc((size_t)(nc > 0 ? nc : 1) * sizeof *r);
    int ok = -1;
    for (int it = 0; it < 50 && nc > 0; it++) {
        double norm = 0.0;
        m->phi(m, t, q, phi);
        for (int i = 0; i < nc; i++) {
            r[i] = (double)phi[i];
            norm = fmax(norm, fabs(r[i]));
        }
        if (norm < PHI_TOL) { ok = 0; break; }
        m->phi_q(m, t, q, jv);
        if (project(m, jv, r, q) != 0) break;
    }
    if (ok == 0) {   /* velocities: Phi_q v = -Phi_t */
        m->phi_q(m, t, q, jv);
        m->phi_t(m, t, q, phi);
        for (int i = 0; i < nc; i++) r[i] = (double)phi[i];
        for (int k = 0; k < m->phi_q_pat.nnz; k++)
            r[m->phi_q_pat.row[k]] += (double)jv[k] * (double)v[m->phi_q_pat.col[k]];
        if (project(m, jv, r, v) != 0) ok = -1;
    }
    if (nc == 0) ok = 0;
    free(phi); free(jv); free(r);
    return ok;
}

static void compare_all(const mb_model *g, const mb_model *h, mb_real t, const mb_real *q,
                        const mb_real *v, const char *where)
{
    int n = g->nq + g->nc + g->phi_q_pat.nnz + g->dq_dq_pat.nnz + g->dq_dv_pat.nnz
            + 2 * g->npoint + 3;
    mb_real *a = calloc((size_t)n, sizeof *a), *b = calloc((size_t)n, sizeof *b);
#define CMP_Q(fn, len) \
    do { g->fn(g, t, q, a); h->fn(h, t, q, b); compare(g->name, #fn, where, a, b, len, g->info->ncam > 0 ? CAM_TOL : TOL); } while (0)
#define CMP_QV(fn, len) \
    do { g->fn(g, t, q, v, a); h->fn(h, t, q, v, b); compare(g->name, #fn, where, a, b, len, g->info->ncam > 0 ? CAM_TOL : TOL); } while (0)
    CMP_Q(phi, g->nc);
    CMP_Q(phi_q, g->phi_q_pat.nnz);
    CMP_Q(phi_t, g->nc);
    CMP_QV(phi_q_dot, g->phi_q_pat.nnz);
    CMP_QV(gamma, g->nc);
    CMP_QV(force, g->nq);
    CMP_QV(dforce_dq, g->dq_dq_pat.nnz);
    CMP_QV(dforce_dv, g->dq_dv_pat.nnz);
    CMP_QV(energy, 3);
    CMP_Q(points, 2 * g->npoint);
#undef CMP_Q
#undef CMP_QV
    free(a);
    free(b);
}

#ifdef GENERIC_WITH_SIM
/* Run formulation f on model m for nstep steps; final q, v into qv[0 .. 2 nq) (canonical and
 * alf-explicit: q, p, their integrated state; v is derived from p by cancellation, see
 * compare_sims). With z0 == NULL
 * the run starts from the model's guesses with assembly (the assembled q, v go to
 * qv[2 nq .. 4 nq)), else from z0 = [q; v] as given.
 * Returns the first non-success status (negative) or MB_OK. */
static int simulate(const mb_model *m, int f, mb_real h, int nstep, const mb_real *z0,
                    mb_real *qv)
{
    mb_params p;
    mb_sim_storage s_mem;
    mb_sim *s = mb_sim_of(&s_mem);
    mb_params_default(&p, f);
    p.h = h;
    if (strcmp(m->name, "andrews") == 0 && f >= MB_ALF_EXPLICIT) {   /* thesis parameters */
        /* but not the thesis' alpha in float: 1e8 against Andrews' smallest masses swamps the
         * mass matrix in 24 bits (alf-explicit's M + alpha Phi_q^T Phi_q met a non-positive
         * Cholesky pivot, MB_ERR_NOT_SPD, in both evaluators; alf-trapezoid's Newton matrix
         * was singular, MB_ERR_SINGULAR): float keeps mb_params_default's 0, the runtime's
         * own choice at reset (mb_sim.c, auto_penalty) */
#if !MB_FLOAT
        p.alpha = MB_R(1e8);
#endif
        p.xi = MB_R(1e4);
        p.omega = MB_R(1.0);
    }
    m = planned(m);
    size_t size = mb_sim_workspace_size(m, &p);
    void *work = malloc(size ? size : 1);
    int rc = mb_sim_init(s, m, &p, work, size);
    if (rc == MB_OK)
        rc = mb_sim_reset(s, MB_R(0.0), z0 ? z0 : NULL, z0 ? z0 + m->nq : NULL, z0 == NULL);
    if (rc >= 0 && !z0) {   /* the assembled start, for the sensitivity run */
        memcpy(qv + 2 * m->nq, mb_sim_get_q(s), (size_t)m->nq * sizeof *qv);
        memcpy(qv + 3 * m->nq, mb_sim_get_v(s), (size_t)m->nq * sizeof *qv);
    }
    for (int i = 0; i < nstep && rc >= 0; i++) rc = mb_sim_step(s, MB_R(1e9));
    if (rc >= 0) {
        memcpy(qv, mb_sim_get_q(s), (size_t)m->nq * sizeof *qv);
        /* canonical and alf-explicit integrate p; v = M^-1 (p - Phi_q^T sigma) carries the
         * rounding of p over M (compare_sims) */
        const mb_real *pv = f == MB_CANONICAL || f == MB_ALF_EXPLICIT ? mb_sim_get_p(s) : NULL;
        memcpy(qv + m->nq, pv ? pv : mb_sim_get_v(s), (size_t)m->nq * sizeof *qv);
    }
    free(work);
    return rc < 0 ? rc : MB_OK;
}

/* The runs that stop in every build: fourbar_singular starts at its singular position (no
 * consistent velocities, MB_ERR_ASSEMBLY_VEL), oscillator_1dof's explicit runs take 1e-3 s steps
 * beyond rk4's stability limit (k / m = 2e5 1/s^2: MB_ERR_NONFINITE). */
static int stops_by_design(const char *name, int f)
{
    return strcmp(name, "fourbar_singular") == 0 ||
           (strcmp(name, "oscillator_1dof") == 0 && f != MB_ALF_TRAPEZOID);
}

/* Largest |a - b| / max(1, |a|, |b|) over n entries; *at receives its index. */
static double max_rel(const mb_real *a, const mb_real *b, int n, int *at)
{
    double worst = 0.0;
    *at = 0;
    for (int k = 0; k < n; k++) {
        double s = fmax(1.0, fmax(fabs((double)a[k]), fabs((double)b[k])));
        double e = fabs((double)a[k] - (double)b[k]) / s;
        if (e > worst) { worst = e; *at = k; }
    }
    return worst;
}

/* Whole simulations, every formulation: generated and generic agree to 1e-9 (relative, final
 * q and v). Where the run itself amplifies rounding beyond that (measured: the generated run
 * again from its assembled start perturbed by 4 ulp), the bound is 10x that sensitivity. */
static void compare_sims(const mb_model *g, const mb_model *h)
{
    int n = 2 * g->nq, at;
    mb_real *a = malloc(2 * (size_t)n * sizeof *a), *b = malloc(2 * (size_t)n * sizeof *b);
    mb_real *c = malloc(2 * (size_t)n * sizeof *c);
    /* Andrews at 1e-5 s. Canonical and alf-explicit compare p, not v: with sigma_reset off
     * (the default) sigma, the impulse of the constraint forces, grows without bound where a
     * joint carries a steady load, and v = M^-1 (p - Phi_q^T sigma) loses what p's rounding is
     * over M v. valve_train (its revolute holds the cam against the 210 .. 410 N spring) after
     * 200 steps of 1e-3 s: |sigma| 61, p up to 60 against |M v| 0.06; one ulp of the
     * follower's angular momentum (1.5e-8 N m s) over its inertia 1e-5 is 1.5e-3 rad/s of a
     * velocity that is 0 (float canonical, generated vs generic: v 1.5e-3 apart, p 6e-6
     * relative; with sigma_reset 1, 2e-7 and 6e-9) */
    const int fine = strcmp(g->name, "andrews") == 0;
    const mb_real step = fine ? MB_R(1e-5) : MB_R(1e-3);
    const int nstep = fine ? 300 : 200;
    for (int f = MB_BAUMGARTE; f <= MB_ALF_TRAPEZOID; f++) {
        int ra = simulate(g, f, step, nstep, NULL, a), rb = simulate(h, f, step, nstep, NULL, b);
        /* both run or both fail; how a doomed run fails (e.g. Newton divergence or a singular
         * pivot first) may depend on rounding, so failure codes are only reported */
        CHECK((ra == MB_OK) == (rb == MB_OK), "%s %s: status generated %d generic %d", g->name,
              mb_formulation_name(f), ra, rb);
        /* every other run must go through, in float too (Andrews' alf-explicit and
         * alf-trapezoid stopped there with MB_ERR_NOT_SPD and MB_ERR_SINGULAR at the thesis'
         * alpha: simulate) */
        CHECK(ra == MB_OK || stops_by_design(g->name, f), "%s %s: the run stops (status %d)",
              g->name, mb_formulation_name(f), ra);
        if (ra != MB_OK || rb != MB_OK) {
            printf("%-20s %-14s both stop: status %d (generated), %d (generic)\n", g->name,
                   mb_formulation_name(f), ra, rb);
            continue;
        }
        mb_real *z0 = a + n;   /* assembled start of the generated run */
        for (int k = 0; k < g->nq; k++) z0[k] *= MB_R(1.0) + 4 * MB_EPS;
        int rc = simulate(g, f, step, nstep, z0, c);
        double sens = rc == MB_OK ? max_rel(a, c, n, &at) : 1.0;
        double diff = max_rel(a, b, n, &at);
        double bound = fmax(SIM_TOL, 10.0 * sens);
        CHECK(diff <= bound, "%s %s: %s differs by %.3g (relative), bound %.3g", g->name,
              mb_formulation_name(f), at < g->nq ? g->info->coord_names[at] : "a velocity", diff, bound);
        printf("%-20s %-14s %d steps of %g s: generated vs generic %.2e (4-ulp sensitivity %.2e)\n",
               g->name, mb_formulation_name(f), nstep, (double)step, diff, sens);
    }
    free(a);
    free(b);
    free(c);
}
#endif

int main(void)
{
    int npair = (int)(sizeof pairs / sizeof pairs[0]);
    for (int p = 0; p < npair; p++) {
        const mb_model *g = pairs[p].gen, *h = pairs[p].gnr;
        check_descriptor(g, h);
        if (g->nq != h->nq || g->nc != h->nc || g->npoint != h->npoint) continue;
        mb_real *q = malloc((size_t)g->nq * sizeof *q), *v = malloc((size_t)g->nq * sizeof *v);
        int on = 0;
        for (int s = 0; s < NSAMPLE; s++) {
            mb_real t = (mb_real)(1.0 + urand());   /* t in [0, 2) */
            for (int k = 0; k < g->nq; k++) {
                /* off the manifold: guesses perturbed by 10 % of their scale plus a little */
                double scale = fabs((double)g->q0[k]) + 0.05;
                q[k] = g->q0[k] + (mb_real)(0.1 * scale * urand());
                v[k] = (mb_real)(3.0 * urand());
            }
            compare_all(g, h, t, q, v, "off the manifold");
            if (to_manifold(g, t, q, v) == 0) {
                compare_all(g, h, t, q, v, "on the manifold");
                on++;
            }
        }
        /* at rest on the initial guess, t = 0 */
        memcpy(q, g->q0, (size_t)g->nq * sizeof *q);
        memcpy(v, g->v0, (size_t)g->nq * sizeof *v);
        compare_all(g, h, MB_R(0.0), q, v, "initial guess");
        CHECK(on >= NSAMPLE / 2, "%s: only %d of %d samples reached the manifold", g->name, on,
              NSAMPLE);
        printf("%-20s nq %3d nc %3d: %d states compared (%d on the manifold)\n", g->name, g->nq,
               g->nc, NSAMPLE + on + 1, on);
        free(q);
        free(v);
#ifdef GENERIC_WITH_SIM
        compare_sims(g, h);
#endif
    }
    CHECK(npair > 0, "no models to compare");
    return check_report();
}
