/* mb_sim.c - formulations F1-F4, RK4 / Dormand-Prince 5(4) / trapezoid integration, assembly
 * and energy/constraint monitors. Layer: runtime core (uses mb_model.h, mb_linalg.h only);
 * never allocates or prints; every array lives in the workspace handed to mb_sim_init. */
#include <string.h>
#include "mb_sim.h"
#include "mb_linalg.h"

/* ------------------------------------------------------------------ small vector helpers */

static mb_real dot(int n, const mb_real *a, const mb_real *b)
{
    mb_real s = 0;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}
static mb_real nrm2(int n, const mb_real *a) { return MB_SQRT(dot(n, a, a)); }
static mb_real nrminf(int n, const mb_real *a)
{
    mb_real s = 0;
    for (int i = 0; i < n; i++) if (MB_FABS(a[i]) > s) s = MB_FABS(a[i]);
    return s;
}
static int finite_vec(int n, const mb_real *a)
{
    for (int i = 0; i < n; i++) if (!isfinite(a[i])) return 0;
    return 1;
}
static void zero(int n, mb_real *a) { for (int i = 0; i < n; i++) a[i] = 0; }
static void copy(int n, mb_real *d, const mb_real *s) { if (n > 0) memcpy(d, s, sizeof(mb_real) * (size_t)n); }

/* Sparse pattern products; val follows pattern pat. */
static void sp_mv(const mb_pattern *pat, const mb_real *val, const mb_real *x, mb_real *out, int rows)
{
    zero(rows, out);
    for (int k = 0; k < pat->nnz; k++) out[pat->row[k]] += val[k] * x[pat->col[k]];
}
static void sp_mtv_add(const mb_pattern *pat, const mb_real *val, const mb_real *y, mb_real a, mb_real *out)
{
    for (int k = 0; k < pat->nnz; k++) out[pat->col[k]] += a * val[k] * y[pat->row[k]];
}
/* A (n x n, col-major) += a * Pa^T Pb, Pa and Pb on the constraint pattern (rows in rowp). */
static void add_ptp(mb_sim *s, mb_real *A, mb_real a, const mb_real *Pa, const mb_real *Pb)
{
    const int *col = s->m->phi_q_pat.col, n = s->n;
    for (int r = 0; r < s->nc; r++)
        for (int k = s->rowp[r]; k < s->rowp[r + 1]; k++) {
            mb_real ak = a * Pa[k];
            if (ak == 0) continue;
            for (int l = s->rowp[r]; l < s->rowp[r + 1]; l++)
                A[col[k] + (long)col[l] * n] += ak * Pb[l];
        }
}
static void add_sparse(mb_real *A, int n, const mb_pattern *pat, const mb_real *val, mb_real a)
{
    for (int k = 0; k < pat->nnz; k++) A[pat->row[k] + (long)pat->col[k] * n] += a * val[k];
}

/* ------------------------------------------------------------------ names and parameters */

static const char *const fnames[] = {"baumgarte", "canonical", "alf-explicit", "alf-trapezoid"};
static const char *const inames[] = {"rk4", "dopri5", "trapezoid"};

const char *mb_formulation_name(int f) { return f >= 0 && f < 4 ? fnames[f] : "?"; }
const char *mb_integrator_name(int i) { return i >= 0 && i < 3 ? inames[i] : "?"; }
int mb_formulation_parse(const char *str)
{
    for (int i = 0; i < 4; i++) if (strcmp(str, fnames[i]) == 0) return i;
    return -1;
}
int mb_integrator_parse(const char *str)
{
    for (int i = 0; i < 3; i++) if (strcmp(str, inames[i]) == 0) return i;
    return -1;
}

void mb_params_default(mb_params *p, int f)
{
    memset(p, 0, sizeof *p);
    p->formulation = f;
    p->integrator = f == MB_ALF_TRAPEZOID ? MB_TRAPEZOID : MB_RK4;
    p->h = MB_R(1e-3);
    p->rtol = MB_R(1e-6);
    p->atol = MB_R(1e-8);
    p->tol = MB_R(1e-10);
    p->max_iter = 10;
    switch (f) {
    case MB_BAUMGARTE: p->xi = 10; p->omega = 10; break;
    case MB_CANONICAL: p->xi = 10; p->omega = 1; break;
    case MB_ALF_EXPLICIT: p->alpha = MB_R(1e7); p->xi = 1; p->omega = 10; break;
    default: p->alpha = MB_R(1e8); p->xi = MB_R(1e4); p->omega = 1; break;
    }
#ifdef MB_FLOAT
    p->rank_tol = MB_R(1e-4);   /* scaled pivot ratio; well-posed models measure > 0.05 */
#else
    p->rank_tol = MB_R(1e-8);
#endif
    p->asm_tol = 100 * MB_EPS;
    p->asm_max_iter = 50;
}

int mb_params_check(const mb_params *p, const char **what)
{
    const char *w = NULL;
    if (p->formulation < 0 || p->formulation > 3) w = "formulation";
    else if (p->integrator < 0 || p->integrator > 2) w = "integrator";
    else if ((p->formulation == MB_ALF_TRAPEZOID) != (p->integrator == MB_TRAPEZOID))
        w = "integrator (alf-trapezoid needs trapezoid, the others rk4 or dopri5)";
    else if (!isfinite(p->h) || !(p->h > 0)) w = "h";
    else if (!isfinite(p->rtol) || !(p->rtol > 0)) w = "rtol";
    else if (!isfinite(p->atol) || !(p->atol > 0)) w = "atol";
    else if (!isfinite(p->h_min) || p->h_min < 0) w = "h_min";
    else if (!isfinite(p->h_max) || p->h_max < 0) w = "h_max";
    else if (!isfinite(p->alpha) || p->alpha < 0 ||
             (p->formulation >= MB_ALF_EXPLICIT && !(p->alpha > 0))) w = "alpha";
    else if (!isfinite(p->xi) || p->xi < 0) w = "xi";
    else if (!isfinite(p->omega) || p->omega < 0) w = "omega";
    else if (!isfinite(p->tol) || !(p->tol > 0)) w = "tol";
    else if (p->max_iter < 1) w = "max_iter";
    else if (!isfinite(p->sigma_reset) || p->sigma_reset < 0) w = "sigma_reset";
    else if (!isfinite(p->baumgarte_cap) || p->baumgarte_cap < 0) w = "baumgarte_cap";
    else if (!isfinite(p->rank_tol) || p->rank_tol < 0 || p->rank_tol >= 1) w = "rank_tol";
    else if (!isfinite(p->asm_tol) || !(p->asm_tol > 0)) w = "asm_tol";
    else if (p->asm_max_iter < 1) w = "asm_max_iter";
    if (what) *what = w;
    return w ? MB_ERR_PARAM : MB_OK;
}

/* ------------------------------------------------------------------ workspace layout */

static int check_pattern(const mb_pattern *pat, int rows, int cols)
{
    if (pat->nnz < 0 || (pat->nnz > 0 && (!pat->row || !pat->col))) return 0;
    for (int k = 0; k < pat->nnz; k++) {
        if (pat->row[k] < 0 || pat->row[k] >= rows || pat->col[k] < 0 || pat->col[k] >= cols) return 0;
        if (k > 0 && (pat->row[k] < pat->row[k - 1] ||
                      (pat->row[k] == pat->row[k - 1] && pat->col[k] <= pat->col[k - 1]))) return 0;
    }
    return 1;
}

static int check_model(const mb_model *m)
{
    if (!m || m->nq <= 0 || m->nc < 0 || !m->mass || !m->q0 || !m->v0 || !m->locked ||
        !m->v_given || !m->phi || !m->phi_q || !m->phi_t || !m->phi_q_dot || !m->gamma ||
        !m->force || !m->dforce_dq || !m->dforce_dv || !m->energy) return 0;
    for (int i = 0; i < m->nq; i++) if (!(m->mass[i] > 0)) return 0;
    return check_pattern(&m->phi_q_pat, m->nc, m->nq) && check_pattern(&m->dq_dq_pat, m->nq, m->nq) &&
           check_pattern(&m->dq_dv_pat, m->nq, m->nq);
}

/* Dense scratch: the largest of the formulation's matrices and the assembly's. */
static size_t scratch_reals(int n, int m, const mb_params *p, int *nint)
{
    size_t N = (size_t)n + (size_t)m, need = 0, f = (size_t)p->formulation;
    /* Sizes mirrored by MB_EMBED_NSCR (mb_embed.h, checked tight by tests/test_embed.c): change
     * both together. They could shrink to max(n^2 (2 n^2 with full_jacobian), m^2) - assembly
     * now builds J J^T from the sparse rows and needs only m^2. */
    size_t asmb = (size_t)m * (size_t)n + (size_t)m * (size_t)m;
    (void)p->full_jacobian;
    if (f == MB_BAUMGARTE || f == MB_CANONICAL) need = N * N;
    else need = 2 * (size_t)n * (size_t)n;   /* F4 full Jacobian keeps K2 beside A */
    *nint = (int)N;
    return need > asmb ? need : asmb;
}

/* Bump allocator over the caller's memory; with base NULL it only counts. */
typedef struct { char *base; size_t off, cap; } arena;
static void *take(arena *a, size_t bytes)
{
    size_t al = 16, off = (a->off + al - 1) / al * al;
    a->off = off + bytes;
    return a->base && a->off <= a->cap ? a->base + off : NULL;
}

static size_t layout(mb_sim *s, const mb_model *m, const mb_params *p, void *work, size_t size)
{
    arena a = {(char *)work, 0, size};
    int n = m->nq, nc = m->nc, nnz = m->phi_q_pat.nnz, nint;
    int nz = 2 * n + (p->formulation == MB_BAUMGARTE ? 0 : nc);
    size_t R = sizeof(mb_real);
    size_t nscr = scratch_reals(n, nc, p, &nint);
    mb_sim tmp, *t = s ? s : &tmp;
#define TAKE(ptr, count) (t->ptr = take(&a, R * (size_t)(count)))
    TAKE(z, nz); TAKE(fz, nz); TAKE(v, n); TAKE(pd, n); TAKE(sig, nc); TAKE(S, nc);
    TAKE(lam, nc); TAKE(ptq, nc);
    TAKE(ev_v, n); TAKE(ev_sig, nc); TAKE(ev_S, nc); TAKE(ev_lam, nc);
    TAKE(Pq, nnz); TAKE(Pqd, nnz); TAKE(IPq, p->formulation == MB_ALF_TRAPEZOID ? nnz : 0);
    TAKE(IPq_old, p->formulation == MB_ALF_TRAPEZOID ? nnz : 0);
    TAKE(dQq, m->dq_dq_pat.nnz); TAKE(dQv, m->dq_dv_pat.nnz);
    TAKE(Phi, nc); TAKE(Phit, nc); TAKE(Gam, nc); TAKE(Q, n); TAKE(cv, nc);
    for (int i = 0; i < 8; i++) TAKE(tn[i], n);
    for (int i = 0; i < 4; i++) TAKE(tm[i], nc);
    int nstage = p->integrator == MB_DOPRI5 ? 7 : p->integrator == MB_RK4 ? 4 : 0;
    for (int i = 0; i < 7; i++) TAKE(k[i], i < nstage ? nz : 0);
    TAKE(ztmp, nz); TAKE(zold, nz); TAKE(zk, nz); TAKE(yd, 2 * n);
    TAKE(dscale, n + nc); TAKE(kb, n + nc > nnz ? n + nc : nnz);
    TAKE(scr, nscr);
    t->piv = take(&a, sizeof(int) * (size_t)nint);
    t->rowp = take(&a, sizeof(int) * (size_t)(nc + 1));
#undef TAKE
    return a.off + 16;
}

size_t mb_sim_workspace_size(const mb_model *m, const mb_params *p)
{
    if (!p || mb_params_check(p, NULL) != MB_OK || !check_model(m)) return 0;
    return layout(NULL, m, p, NULL, 0);
}

int mb_sim_init(mb_sim *s, const mb_model *m, const mb_params *p, void *work, size_t size)
{
    if (!s || !p) return MB_ERR_PARAM;
    memset(s, 0, sizeof *s);
    if (mb_params_check(p, NULL) != MB_OK) return MB_ERR_PARAM;
    if (!check_model(m)) return MB_ERR_MODEL;
    if (!work || ((size_t)work % sizeof(mb_real)) != 0) return MB_ERR_WORKSPACE;
    if (size < layout(NULL, m, p, NULL, 0)) return MB_ERR_WORKSPACE;
    layout(s, m, p, work, size);
    memset(work, 0, size);
    s->m = m;
    s->p = *p;
    s->n = m->nq;
    s->nc = m->nc;
    s->nnz = m->phi_q_pat.nnz;
    s->nz = 2 * s->n + (p->formulation == MB_BAUMGARTE ? 0 : s->nc);
    for (int r = 0, k = 0; r <= s->nc; r++) {   /* row starts of the sorted Phi_q pattern */
        while (k < s->nnz && m->phi_q_pat.row[k] < r) k++;
        s->rowp[r] = k;
    }
    return MB_OK;
}

/* ------------------------------------------------------------------ KKT solve (F1, F2) */

/* Solve [[M, Phi_q^T], [Phi_q, 0]] [x; y] = [b1; b2] with Phi_q values in s->Pq. Symmetric
 * scaling D = diag(M^-1/2, 1/|row of Phi_q M^-1/2|) makes the pivot-ratio rank test
 * independent of units: rank loss of Phi_q shows as a small pivot ratio -> MB_ERR_SINGULAR. */
static int kkt_solve(mb_sim *s, const mb_real *b1, const mb_real *b2, mb_real *x, mb_real *y)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc, N = n + nc;
    mb_real *K = s->scr, *d = s->dscale, *rhs = s->kb;
    for (int i = 0; i < n; i++) d[i] = 1 / MB_SQRT(m->mass[i]);
    for (int r = 0; r < nc; r++) {
        mb_real ss = 0;
        for (int k = s->rowp[r]; k < s->rowp[r + 1]; k++) {
            mb_real e = s->Pq[k] * d[m->phi_q_pat.col[k]];
            ss += e * e;
        }
        d[n + r] = ss > 0 ? 1 / MB_SQRT(ss) : 1;
    }
    memset(K, 0, sizeof(mb_real) * (size_t)N * (size_t)N);
    for (int i = 0; i < n; i++) K[i + (long)i * N] = 1;      /* d M d = I */
    for (int k = 0; k < s->nnz; k++) {
        int r = n + m->phi_q_pat.row[k], c = m->phi_q_pat.col[k];
        mb_real e = d[r] * s->Pq[k] * d[c];
        K[r + (long)c * N] = e;
        K[c + (long)r * N] = e;
    }
    for (int i = 0; i < n; i++) rhs[i] = d[i] * b1[i];
    for (int r = 0; r < nc; r++) rhs[n + r] = d[n + r] * b2[r];
    mb_real ratio;
    int st = mb_lu_factor(N, K, s->piv, s->p.rank_tol, &ratio);
    if (ratio < s->mon.min_pivot_ratio || s->mon.min_pivot_ratio == 0) s->mon.min_pivot_ratio = ratio;
    if (st) return st;
    mb_lu_solve(N, K, s->piv, rhs);
    for (int i = 0; i < n; i++) x[i] = d[i] * rhs[i];
    for (int r = 0; r < nc; r++) y[r] = d[n + r] * rhs[n + r];
    return finite_vec(N, rhs) ? MB_OK : MB_ERR_NONFINITE;
}

/* ------------------------------------------------------------------ explicit right-hand sides */

/* F1 (5.2): M a + Phi_q^T lambda = Q, Phi_q a = Gamma - 2 xi w Phidot - w^2 Phi,
 * Phidot = Phi_q v + Phi_t. z = [q; v]. */
static int rhs_baumgarte(mb_sim *s, mb_real t, const mb_real *z, mb_real *f)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
    const mb_real *q = z, *v = z + n;
    mb_real *b2 = s->tm[0], *pd = s->tm[1], xi = s->p.xi, w = s->p.omega;
    m->phi(m, t, q, s->Phi);
    m->phi_t(m, t, q, s->Phit);
    m->phi_q(m, t, q, s->Pq);
    m->gamma(m, t, q, v, s->Gam);
    m->force(m, t, q, v, s->Q);
    sp_mv(&m->phi_q_pat, s->Pq, v, pd, nc);
    for (int r = 0; r < nc; r++) {
        pd[r] += s->Phit[r];
        b2[r] = 2 * xi * w * pd[r] + w * w * s->Phi[r];
    }
    if (s->p.baumgarte_cap > 0) {   /* keep the stabilization from dominating Gamma */
        mb_real nb = nrm2(nc, b2), ng = nrm2(nc, s->Gam);
        if (nb > s->p.baumgarte_cap * ng)
            for (int r = 0; r < nc; r++) b2[r] *= s->p.baumgarte_cap * ng / nb;
    }
    for (int r = 0; r < nc; r++) b2[r] = s->Gam[r] - b2[r];
    int st = kkt_solve(s, s->Q, b2, f + n, s->ev_lam);
    if (st) return st;
    copy(n, f, v);
    copy(n, s->ev_v, v);
    return MB_OK;
}

/* F2 (5.17, 5.21): [[M, Phi_q^T], [Phi_q, 0]] [v; sigma] = [p; -Phi_t - 2 xi w Phi - w^2 I],
 * pdot = Q + Phidot_q^T sigma, Idot = Phi. z = [q; p; I]. */
static int rhs_canonical(mb_sim *s, mb_real t, const mb_real *z, mb_real *f)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
    const mb_real *q = z, *p = z + n, *I = z + 2 * n;
    mb_real *b2 = s->tm[0], xi = s->p.xi, w = s->p.omega;
    m->phi(m, t, q, s->Phi);
    m->phi_t(m, t, q, s->Phit);
    m->phi_q(m, t, q, s->Pq);
    for (int r = 0; r < nc; r++) b2[r] = -s->Phit[r] - 2 * xi * w * s->Phi[r] - w * w * I[r];
    int st = kkt_solve(s, p, b2, s->ev_v, s->ev_sig);
    if (st) return st;
    m->force(m, t, q, s->ev_v, s->Q);
    m->phi_q_dot(m, t, q, s->ev_v, s->Pqd);
    copy(n, f, s->ev_v);
    copy(n, f + n, s->Q);
    sp_mtv_add(&m->phi_q_pat, s->Pqd, s->ev_sig, 1, f + n);
    copy(nc, f + 2 * n, s->Phi);
    copy(nc, s->ev_S, s->ev_sig);
    return MB_OK;
}

/* F3 (5.31-5.37): (M + a Phi_q^T Phi_q) v = p - Phi_q^T (a b + sigma~), b = Phi_t + 2 xi w Phi
 * + w^2 I; sigma~ += a (Phi_q v + b) (5.34) until |v_i+1 - v_i| < tol; pdot = Q + Phidot_q^T
 * sigma~ (5.32 with the updated sigma~ = sigma~ + a Phidot-term). sigma~ is warm-started from the
 * previous evaluation. v, sigma~ go to ev_v, ev_sig. */
static int alf_velocity(mb_sim *s, mb_real t, const mb_real *q, const mb_real *p, const mb_real *I)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
    mb_real *A = s->scr, *b = s->tm[0], *c = s->cv, *rhs = s->tn[0], *vold = s->tn[1];
    mb_real a = s->p.alpha, xi = s->p.xi, w = s->p.omega;
    m->phi(m, t, q, s->Phi);
    m->phi_t(m, t, q, s->Phit);
    m->phi_q(m, t, q, s->Pq);
    for (int r = 0; r < nc; r++) b[r] = s->Phit[r] + 2 * xi * w * s->Phi[r] + w * w * I[r];
    memset(A, 0, sizeof(mb_real) * (size_t)n * (size_t)n);
    for (int i = 0; i < n; i++) A[i + (long)i * n] = m->mass[i];
    add_ptp(s, A, a, s->Pq, s->Pq);
    int st = mb_chol_factor(n, A, 0, NULL);   /* SPD even at singular positions */
    if (st) return st;
    copy(n, vold, s->ev_v);
    int it, conv = 0;
    for (it = 1; it <= s->p.max_iter; it++) {
        copy(n, rhs, p);
        for (int r = 0; r < nc; r++) s->tm[1][r] = a * b[r] + s->ev_sig[r];
        sp_mtv_add(&m->phi_q_pat, s->Pq, s->tm[1], -1, rhs);
        mb_chol_solve(n, A, rhs);
        sp_mv(&m->phi_q_pat, s->Pq, rhs, c, nc);
        for (int r = 0; r < nc; r++) { c[r] += b[r]; s->ev_sig[r] += a * c[r]; }
        mb_real dv = 0;
        for (int i = 0; i < n; i++) { mb_real e = rhs[i] - vold[i]; dv += e * e; }
        copy(n, vold, rhs);
        if (!finite_vec(n, rhs)) return MB_ERR_NONFINITE;
        if (MB_SQRT(dv) < s->p.tol) { conv = 1; break; }
    }
    s->mon.alf_iters += it > s->p.max_iter ? s->p.max_iter : it;
    if (!conv) s->mon.maxiter_events++;
    copy(n, s->ev_v, vold);
    copy(nc, s->ev_S, s->ev_sig);
    return MB_OK;
}

static int rhs_alf(mb_sim *s, mb_real t, const mb_real *z, mb_real *f)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
    const mb_real *q = z;
    int st = alf_velocity(s, t, q, z + n, z + 2 * n);
    if (st) return st;
    m->force(m, t, q, s->ev_v, s->Q);
    m->phi_q_dot(m, t, q, s->ev_v, s->Pqd);
    copy(n, f, s->ev_v);
    copy(n, f + n, s->Q);
    sp_mtv_add(&m->phi_q_pat, s->Pqd, s->ev_sig, 1, f + n);
    copy(nc, f + 2 * n, s->Phi);
    return MB_OK;
}

static int rhs(mb_sim *s, mb_real t, const mb_real *z, mb_real *f)
{
    s->mon.evals++;
    switch (s->p.formulation) {
    case MB_BAUMGARTE: return rhs_baumgarte(s, t, z, f);
    case MB_CANONICAL: return rhs_canonical(s, t, z, f);
    default: return rhs_alf(s, t, z, f);
    }
}

/* ------------------------------------------------------------------ monitors */

/* Energies, constraint norms and the powers at the current state (q = z, v = s->v). */
static void measure(mb_sim *s, mb_real *pnc, mb_real *pdrv)
{
    const mb_model *m = s->m;
    int nc = s->nc;
    mb_real e[3], *pdot = s->tm[2];
    const mb_real *q = s->z;
    m->energy(m, s->t, q, s->v, e);
    m->phi(m, s->t, q, s->Phi);
    m->phi_t(m, s->t, q, s->Phit);
    m->phi_q(m, s->t, q, s->Pq);
    sp_mv(&m->phi_q_pat, s->Pq, s->v, pdot, nc);
    for (int r = 0; r < nc; r++) pdot[r] += s->Phit[r];
    s->mon.T = e[0];
    s->mon.V = e[1];
    s->mon.phi_norm = nrm2(nc, s->Phi);
    s->mon.phid_norm = nrm2(nc, pdot);
    s->mon.sigma_norm = s->p.formulation == MB_BAUMGARTE ? 0 : nrm2(nc, s->sig);
    *pnc = e[2];
    /* Driver power lambda^T Phi_t (F1); for F2-F4 the work uses Delta S (see advance_monitor). */
    *pdrv = s->p.formulation == MB_BAUMGARTE ? dot(nc, s->lam, s->Phit) : 0;
}

static void update_max(mb_sim *s)
{
    mb_monitor *o = &s->mon;
    o->energy_dev = o->T + o->V - o->E0 - o->W;
    if (MB_FABS(o->energy_dev) > o->max_energy_dev) o->max_energy_dev = MB_FABS(o->energy_dev);
    if (o->phi_norm > o->max_phi) o->max_phi = o->phi_norm;
    if (o->phid_norm > o->max_phid) o->max_phid = o->phid_norm;
    if (o->sigma_norm > o->max_sigma) o->max_sigma = o->sigma_norm;
}

/* After a step from t_old (powers pnc_old, pdrv_old, Phi_t in ptq, multiplier integral in
 * S_old = tm[3]): W += trapezoid of P_nc + work of drivers. Driver work: F1 trapezoid of
 * lambda^T Phi_t; F2-F4 lambda = dS/dt so the trapezoid is (S_new - S_old)^T (Phit_old +
 * Phit_new) / 2. Constraint forces on the system are -Phi_q^T lambda (M a + Phi_q^T lambda = Q),
 * their power -lambda^T Phi_q v = lambda^T Phi_t on Phidot = 0. */
static void advance_monitor(mb_sim *s, mb_real dt, mb_real pnc_old, mb_real pdrv_old)
{
    mb_real pnc, pdrv;
    measure(s, &pnc, &pdrv);
    mb_real w = dt / 2 * (pnc_old + pnc);
    if (s->p.formulation == MB_BAUMGARTE) w += dt / 2 * (pdrv_old + pdrv);
    else
        for (int r = 0; r < s->nc; r++) w += (s->S[r] - s->tm[3][r]) * (s->ptq[r] + s->Phit[r]) / 2;
    s->mon.W += w;
    s->pnc = pnc;
    s->pdrv = pdrv;
    copy(s->nc, s->ptq, s->Phit);
    update_max(s);
}

/* ------------------------------------------------------------------ assembly */

/* G = J J^T + mu I (nc x nc, returned mu = 1e3 eps max diag) where J is Phi_q (values in Pq)
 * restricted to the columns with mask[c] == 0; built from the sparse rows, no dense J. */
static mb_real masked_gram(mb_sim *s, const unsigned char *mask, mb_real *G)
{
    const int *col = s->m->phi_q_pat.col;
    int nc = s->nc;
    mb_real dmax = 0;
    for (int a = 0; a < nc; a++)
        for (int b = 0; b <= a; b++) {
            mb_real e = 0;
            for (int k = s->rowp[a]; k < s->rowp[a + 1]; k++) {
                if (mask[col[k]]) continue;
                for (int l = s->rowp[b]; l < s->rowp[b + 1]; l++)
                    if (col[l] == col[k]) e += s->Pq[k] * s->Pq[l];
            }
            G[a + (long)b * nc] = G[b + (long)a * nc] = e;
            if (a == b && e > dmax) dmax = e;
        }
    mb_real mu = (dmax > 0 ? dmax : 1) * MB_R(1e3) * MB_EPS;
    for (int a = 0; a < nc; a++) G[a + (long)a * nc] += mu;
    return mu;
}

/* out[c] = a (J^T w)[c] for unmasked columns (masked ones get 0). */
static void masked_jtw(mb_sim *s, const unsigned char *mask, const mb_real *w, mb_real a, mb_real *out)
{
    const mb_pattern *pat = &s->m->phi_q_pat;
    zero(s->n, out);
    for (int k = 0; k < pat->nnz; k++)
        if (!mask[pat->col[k]]) out[pat->col[k]] += a * s->Pq[k] * w[pat->row[k]];
}

int mb_sim_assemble(mb_sim *s, mb_real t0, mb_real *q, mb_real *v, int *iters)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc, it;
    mb_real *JJ = s->scr, *w = s->tm[0], *dq = s->tn[0];
    mb_real *qt = s->tn[1], *Ph = s->tm[1];
    if (iters) *iters = 0;
    if (nc == 0) return MB_OK;
    /* Positions: Gauss-Newton, minimum-norm step dq = -J^T (J J^T + mu I)^-1 Phi over the free
     * coordinates; mu is tiny (rank-deficient or overdetermined systems), halving on increase. */
    m->phi(m, t0, q, Ph);
    mb_real res = nrminf(nc, Ph);
    for (it = 0; it < s->p.asm_max_iter && !(res <= s->p.asm_tol); it++) {
        m->phi_q(m, t0, q, s->Pq);
        masked_gram(s, m->locked, JJ);
        int st = mb_chol_factor(nc, JJ, 0, NULL);
        if (st) return MB_ERR_ASSEMBLY_POS;
        copy(nc, w, Ph);
        mb_chol_solve(nc, JJ, w);
        masked_jtw(s, m->locked, w, -1, dq);
        mb_real lam = 1, rnew = 0;
        for (int tries = 0; tries < 20; tries++, lam /= 2) {  /* backtrack on |Phi| */
            for (int c = 0; c < n; c++) qt[c] = q[c] + lam * dq[c];
            m->phi(m, t0, qt, Ph);
            rnew = nrminf(nc, Ph);
            if (isfinite(rnew) && rnew < res) break;
        }
        if (!(rnew < res)) break;       /* no decrease: stuck */
        copy(n, q, qt);
        res = rnew;
    }
    if (iters) *iters = it;
    if (!(res <= s->p.asm_tol) || !finite_vec(n, q)) return MB_ERR_ASSEMBLY_POS;
    /* Velocities: Phi_q v = -Phi_t with v_given held; minimum-norm change of the others. */
    for (int pass = 0; pass < 3; pass++) {
        m->phi_q(m, t0, q, s->Pq);
        m->phi_t(m, t0, q, s->Phit);
        sp_mv(&m->phi_q_pat, s->Pq, v, w, nc);
        for (int r = 0; r < nc; r++) w[r] = -(w[r] + s->Phit[r]);
        mb_real vs = 1 + nrminf(n, v), r0 = nrminf(nc, w);
        if (r0 <= MB_R(1e3) * MB_EPS * vs) return MB_OK;
        if (pass == 2) break;
        masked_gram(s, m->v_given, JJ);
        if (mb_chol_factor(nc, JJ, 0, NULL)) return MB_ERR_ASSEMBLY_VEL;
        mb_chol_solve(nc, JJ, w);
        masked_jtw(s, m->v_given, w, 1, dq);
        for (int c = 0; c < n; c++) v[c] += dq[c];
    }
    return MB_ERR_ASSEMBLY_VEL;
}

/* ------------------------------------------------------------------ F4 support */

/* Bring the derived quantities (v, sig, S, lam) from the last evaluation into the state. */
static void take_eval(mb_sim *s)
{
    copy(s->n, s->v, s->ev_v);
    copy(s->nc, s->sig, s->ev_sig);
    copy(s->nc, s->S, s->ev_S);
    copy(s->nc, s->lam, s->ev_lam);
}

/* Velocity projection remedy (F1): v -= Phi_q^T (Phi_q Phi_q^T)^-1 (Phi_q v + Phi_t). */
static int project_velocity(mb_sim *s)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
    mb_real *A = s->scr, *w = s->tm[0], *v = s->z + n;
    if (nc == 0) return MB_OK;
    m->phi_q(m, s->t, s->z, s->Pq);
    m->phi_t(m, s->t, s->z, s->Phit);
    memset(A, 0, sizeof(mb_real) * (size_t)nc * nc);
    for (int r = 0; r < nc; r++)
        for (int k = s->rowp[r]; k < s->rowp[r + 1]; k++)
            for (int r2 = 0; r2 < nc; r2++)
                for (int l = s->rowp[r2]; l < s->rowp[r2 + 1]; l++)
                    if (m->phi_q_pat.col[l] == m->phi_q_pat.col[k]) A[r + (long)r2 * nc] += s->Pq[k] * s->Pq[l];
    /* unit diagonal scaling, so the pivot-ratio rank test means the same as for the KKT */
    mb_real ratio, *d = s->dscale;
    for (int r = 0; r < nc; r++) d[r] = A[r + (long)r * nc] > 0 ? 1 / MB_SQRT(A[r + (long)r * nc]) : 1;
    for (int r = 0; r < nc; r++)
        for (int c = 0; c < nc; c++) A[r + (long)c * nc] *= d[r] * d[c];
    int st = mb_chol_factor(nc, A, s->p.rank_tol, &ratio);
    if (ratio < s->mon.min_pivot_ratio) s->mon.min_pivot_ratio = ratio;
    if (st) return st;
    for (int pass = 0; pass < 3; pass++) {
        sp_mv(&m->phi_q_pat, s->Pq, v, w, nc);
        for (int r = 0; r < nc; r++) w[r] += s->Phit[r];
        if (nrminf(nc, w) <= 10 * MB_EPS * (1 + nrminf(n, v))) break;
        for (int r = 0; r < nc; r++) w[r] *= d[r];
        mb_chol_solve(nc, A, w);
        for (int r = 0; r < nc; r++) w[r] *= d[r];
        sp_mtv_add(&m->phi_q_pat, s->Pq, w, -1, v);
    }
    return MB_OK;
}

/* The terms 5.45-5.47 neglect: (Phi_q^T s)_q, (Phidot_q^T s)_q and (Phidot_q^T s)_v with
 * s = sigma~ + alpha c held fixed, by central differences of the model's Phi_q and Phidot_q
 * (the interface has no second derivatives). Adds h/2 K1 - h^2/4 K2q - h/2 K2v to the reduced
 * matrix in scr and keeps K2 = h/2 K2q + K2v for 5.53 in scr + n*n. Cost: 4n extra Jacobians. */
static void geometric_terms(mb_sim *s, mb_real t1, mb_real *q, const mb_real *sv, mb_real h)
{
    const mb_model *m = s->m;
    int n = s->n;
    mb_real *A = s->scr, *K2 = s->scr + (size_t)n * n, *col = s->tn[5], *cm = s->tn[6];
    mb_real *Pt = s->tn[7], *vv = s->tn[4];
    mb_real *Ptmp = s->kb;   /* kb holds max(n + nc, nnz) values */
    for (int j = 0; j < n; j++) {
        mb_real qj = q[j], e = MB_SQRT(MB_EPS) * (1 + MB_FABS(qj));
        /* (Phi_q^T s)_q column j */
        q[j] = qj + e; m->phi_q(m, t1, q, Ptmp); zero(n, col); sp_mtv_add(&m->phi_q_pat, Ptmp, sv, 1, col);
        q[j] = qj - e; m->phi_q(m, t1, q, Ptmp); zero(n, cm); sp_mtv_add(&m->phi_q_pat, Ptmp, sv, 1, cm);
        for (int i = 0; i < n; i++) A[i + (long)j * n] += h / 2 * (col[i] - cm[i]) / (2 * e);
        /* (Phidot_q^T s)_q column j */
        q[j] = qj + e; m->phi_q_dot(m, t1, q, s->v, Ptmp); zero(n, col); sp_mtv_add(&m->phi_q_pat, Ptmp, sv, 1, col);
        q[j] = qj - e; m->phi_q_dot(m, t1, q, s->v, Ptmp); zero(n, cm); sp_mtv_add(&m->phi_q_pat, Ptmp, sv, 1, cm);
        q[j] = qj;
        for (int i = 0; i < n; i++) K2[i + (long)j * n] = h / 2 * (col[i] - cm[i]) / (2 * e);
        /* (Phidot_q^T s)_v column j: Phidot_q is linear in v */
        zero(n, vv); vv[j] = 1;
        m->phi_q_dot(m, t1, q, vv, Ptmp); zero(n, Pt); sp_mtv_add(&m->phi_q_pat, Ptmp, sv, 1, Pt);
        for (int i = 0; i < n; i++) {
            K2[i + (long)j * n] += Pt[i];
            A[i + (long)j * n] -= h / 2 * K2[i + (long)j * n];
        }
    }
}

/* One implicit trapezoid step of F4 (5.54-5.60), Newton on y = [q; p] with the reduced n x n
 * system (5.52, 5.53) and sigma~ updated by 5.34 after each update of y. */
static int trap_step(mb_sim *s, mb_real h)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc, nnz = s->nnz;
    mb_real *q = s->z, *p = s->z + n, *I = s->z + 2 * n;
    mb_real *qk = s->zk, *pk = s->zk + n, *vk = s->yd, *pdk = s->yd + n;
    mb_real *g1 = s->tn[0], *g2 = s->tn[1], *dq = s->tn[2], *dp = s->tn[3], *sv = s->tm[0];
    mb_real *c = s->cv, *A = s->scr, *tmpm = s->tm[1], *tmpn = s->tn[4];
    mb_real a = s->p.alpha, xi = s->p.xi, w = s->p.omega, t1 = s->t + h;
    mb_real c1 = 1 + h * xi * w, c2 = h * w * w / 2;
    copy(s->nz, s->zk, s->z);
    copy(nnz, s->IPq_old, s->IPq);
    copy(n, vk, s->v);
    copy(n, pdk, s->pd);
    /* 5.54, 5.55: explicit Euler for Int Phi and Int Phi_q using q_k */
    m->phi(m, s->t, qk, s->Phi);
    m->phi_q(m, s->t, qk, s->Pq);
    for (int r = 0; r < nc; r++) I[r] += h * s->Phi[r];
    for (int k = 0; k < nnz; k++) s->IPq[k] += h * s->Pq[k];
    /* 5.56-5.58: predictor */
    for (int i = 0; i < n; i++) { q[i] = qk[i] + h * vk[i]; p[i] = pk[i] + h * pdk[i]; }
    int it, conv = 0;
    mb_real ny = 0;
    for (it = 0;; it++) {
        /* 5.59: derivatives of the current iterate */
        for (int i = 0; i < n; i++) {
            s->v[i] = 2 / h * (q[i] - qk[i]) - vk[i];
            s->pd[i] = 2 / h * (p[i] - pk[i]) - pdk[i];
        }
        m->phi(m, t1, q, s->Phi);
        m->phi_t(m, t1, q, s->Phit);
        m->phi_q(m, t1, q, s->Pq);
        sp_mv(&m->phi_q_pat, s->Pq, s->v, c, nc);
        for (int r = 0; r < nc; r++) c[r] += s->Phit[r] + 2 * xi * w * s->Phi[r] + w * w * I[r];
        if (it > 0)                                   /* 5.34 after each update of y */
            for (int r = 0; r < nc; r++) s->sig[r] += a * c[r];
        if (conv || it == s->p.max_iter) break;
        for (int r = 0; r < nc; r++) sv[r] = s->sig[r] + a * c[r];
        m->force(m, t1, q, s->v, s->Q);
        m->phi_q_dot(m, t1, q, s->v, s->Pqd);
        m->dforce_dq(m, t1, q, s->v, s->dQq);
        m->dforce_dv(m, t1, q, s->v, s->dQv);
        /* residuals 5.41, 5.42 */
        for (int i = 0; i < n; i++) { g1[i] = m->mass[i] * s->v[i] - p[i]; g2[i] = s->pd[i] - s->Q[i]; }
        sp_mtv_add(&m->phi_q_pat, s->Pq, sv, 1, g1);
        sp_mtv_add(&m->phi_q_pat, s->Pqd, sv, -1, g2);
        for (int i = 0; i < n; i++) { g1[i] *= h / 2; g2[i] *= h / 2; }
        /* reduced matrix dg1/dq + h/2 dg2/dq (5.45, 5.47, 5.52) */
        memset(A, 0, sizeof(mb_real) * (size_t)n * (size_t)n);
        for (int i = 0; i < n; i++) A[i + (long)i * n] = m->mass[i];
        add_ptp(s, A, a * c1, s->Pq, s->Pq);
        add_ptp(s, A, a * c2, s->Pq, s->IPq);
        add_ptp(s, A, -h / 2 * a * c1, s->Pqd, s->Pq);
        add_ptp(s, A, -h / 2 * a * c2, s->Pqd, s->IPq);
        add_sparse(A, n, &m->dq_dq_pat, s->dQq, -h * h / 4);
        add_sparse(A, n, &m->dq_dv_pat, s->dQv, -h / 2);
        if (s->p.full_jacobian) geometric_terms(s, t1, q, sv, h);
        for (int i = 0; i < n; i++) dq[i] = -g1[i] - h / 2 * g2[i];
        int st = mb_lu_factor(n, A, s->piv, 0, NULL);
        if (st) return st;
        mb_lu_solve(n, A, s->piv, dq);
        /* 5.53: dp = -g2 - dg2/dq dq, dg2/dq = -h/2 dQ/dq - dQ/dv - Phidot_q^T a (c1 Phi_q + c2 IPq) */
        for (int i = 0; i < n; i++) dp[i] = -g2[i];
        zero(n, tmpn);
        for (int k = 0; k < m->dq_dq_pat.nnz; k++) tmpn[m->dq_dq_pat.row[k]] += h / 2 * s->dQq[k] * dq[m->dq_dq_pat.col[k]];
        for (int k = 0; k < m->dq_dv_pat.nnz; k++) tmpn[m->dq_dv_pat.row[k]] += s->dQv[k] * dq[m->dq_dv_pat.col[k]];
        sp_mv(&m->phi_q_pat, s->Pq, dq, tmpm, nc);
        for (int r = 0; r < nc; r++) tmpm[r] *= a * c1;
        for (int k = 0; k < nnz; k++) tmpm[m->phi_q_pat.row[k]] += a * c2 * s->IPq[k] * dq[m->phi_q_pat.col[k]];
        sp_mtv_add(&m->phi_q_pat, s->Pqd, tmpm, 1, tmpn);
        if (s->p.full_jacobian) {            /* + K2 dq */
            const mb_real *K2 = s->scr + (size_t)n * n;
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++) tmpn[i] += K2[i + (long)j * n] * dq[j];
        }
        for (int i = 0; i < n; i++) dp[i] += tmpn[i];
        if (!finite_vec(n, dq) || !finite_vec(n, dp)) return MB_ERR_NONFINITE;
        for (int i = 0; i < n; i++) { q[i] += dq[i]; p[i] += dp[i]; }
        s->mon.newton_iters++;
        ny = MB_SQRT(dot(n, dq, dq) + dot(n, dp, dp));     /* 5.60 */
        if (ny < s->p.tol) conv = 1;
    }
    if (!finite_vec(s->nz, s->z) || !finite_vec(nc, s->sig)) return MB_ERR_NONFINITE;
    copy(nc, s->S, s->sig);
    if (!conv) {
        s->mon.maxiter_events++;
        /* Far from converged (last correction above 1e-6 of the state's size): diverging,
         * not merely slow; never continue silently from there. */
        mb_real ys = 1 + nrminf(2 * n, s->z);
        if (s->p.strict_newton || ny > MB_R(1e-6) * ys) return MB_ERR_NEWTON;
        return MB_EVENT_NEWTON_MAXITER;
    }
    return MB_OK;
}

/* ------------------------------------------------------------------ explicit steps */

static const mb_real dp_c[7] = {0, MB_R(0.2), MB_R(0.3), MB_R(0.8), MB_R(8.0) / 9, 1, 1};
static const mb_real dp_a[7][6] = {
    {0},
    {MB_R(0.2)},
    {MB_R(3.0) / 40, MB_R(9.0) / 40},
    {MB_R(44.0) / 45, -MB_R(56.0) / 15, MB_R(32.0) / 9},
    {MB_R(19372.0) / 6561, -MB_R(25360.0) / 2187, MB_R(64448.0) / 6561, -MB_R(212.0) / 729},
    {MB_R(9017.0) / 3168, -MB_R(355.0) / 33, MB_R(46732.0) / 5247, MB_R(49.0) / 176, -MB_R(5103.0) / 18656},
    {MB_R(35.0) / 384, 0, MB_R(500.0) / 1113, MB_R(125.0) / 192, -MB_R(2187.0) / 6784, MB_R(11.0) / 84}};
static const mb_real dp_e[7] = {MB_R(71.0) / 57600, 0, -MB_R(71.0) / 16695, MB_R(71.0) / 1920,
                                -MB_R(17253.0) / 339200, MB_R(22.0) / 525, -MB_R(1.0) / 40};

/* Classical RK4 from (t, z) with f(t, z) cached in fz; result in ztmp, f(t+h) in k[3]'s slot. */
static int rk4_step(mb_sim *s, mb_real h)
{
    int nz = s->nz, st;
    mb_real *k1 = s->fz, *k2 = s->k[1], *k3 = s->k[2], *k4 = s->k[3], *y = s->ztmp, t = s->t;
    for (int i = 0; i < nz; i++) y[i] = s->z[i] + h / 2 * k1[i];
    if ((st = rhs(s, t + h / 2, y, k2))) return st;
    for (int i = 0; i < nz; i++) y[i] = s->z[i] + h / 2 * k2[i];
    if ((st = rhs(s, t + h / 2, y, k3))) return st;
    for (int i = 0; i < nz; i++) y[i] = s->z[i] + h * k3[i];
    if ((st = rhs(s, t + h, y, k4))) return st;
    for (int i = 0; i < nz; i++) y[i] = s->z[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    return finite_vec(nz, y) ? MB_OK : MB_ERR_NONFINITE;
}

/* Dormand-Prince 5(4) trial step; *err receives the scaled RMS error estimate. The new state
 * goes to ztmp and f at it (FSAL) to k[6]. */
static int dopri_step(mb_sim *s, mb_real h, mb_real *err)
{
    int nz = s->nz, st;
    mb_real *y = s->ztmp, t = s->t;
    s->k[0] = s->fz;
    for (int j = 1; j < 7; j++) {
        for (int i = 0; i < nz; i++) {
            mb_real acc = 0;
            for (int l = 0; l < j; l++) acc += dp_a[j][l] * s->k[l][i];
            y[i] = s->z[i] + h * acc;
        }
        if ((st = rhs(s, t + dp_c[j] * h, y, s->k[j]))) return st;
    }
    mb_real e2 = 0;
    for (int i = 0; i < nz; i++) {
        mb_real e = 0;
        for (int l = 0; l < 7; l++) e += dp_e[l] * s->k[l][i];
        e *= h;
        mb_real ym = MB_FABS(s->z[i]) > MB_FABS(y[i]) ? MB_FABS(s->z[i]) : MB_FABS(y[i]);
        mb_real sc = s->p.atol + s->p.rtol * ym;
        e2 += (e / sc) * (e / sc);
    }
    *err = MB_SQRT(e2 / (nz > 0 ? nz : 1));
    if (!isfinite(*err) || !finite_vec(nz, y)) *err = MB_R(1e30);
    return MB_OK;
}

/* After an accepted explicit step: state = ztmp, fz = f at it, optional projection / reset. */
static int accept_explicit(mb_sim *s, const mb_real *fnew)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc, ev = MB_OK;
    copy(s->nz, s->z, s->ztmp);
    copy(s->nz, s->fz, fnew);
    take_eval(s);
    if (s->p.formulation == MB_BAUMGARTE && s->p.project_velocity) {
        int st = project_velocity(s);
        if (st) return st;
        if ((st = rhs(s, s->t, s->z, s->fz))) return st;
        take_eval(s);
        copy(n, s->v, s->z + n);
    }
    if (s->p.formulation == MB_ALF_EXPLICIT && s->p.sigma_reset > 0 &&
        nrm2(nc, s->sig) > s->p.sigma_reset) {
        /* 6.3.4: p consistent with 5.30 for sigma~ = 0, v unchanged; S drops by sigma~ */
        m->phi_q(m, s->t, s->z, s->Pq);
        sp_mtv_add(&m->phi_q_pat, s->Pq, s->sig, -1, s->z + n);
        for (int r = 0; r < nc; r++) s->tm[3][r] -= s->sig[r];
        zero(nc, s->ev_sig);
        int st = rhs(s, s->t, s->z, s->fz);
        if (st) return st;
        take_eval(s);
        s->mon.sigma_resets++;
        ev = MB_EVENT_SIGMA_RESET;
    }
    return ev;
}

/* ------------------------------------------------------------------ reset and step */

int mb_sim_reset(mb_sim *s, mb_real t0, const mb_real *q, const mb_real *v, int assemble)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc, st;
    if (!m) return MB_ERR_STATE;
    s->ready = 0;
    if (!isfinite(t0)) return MB_ERR_PARAM;
    memset(&s->mon, 0, sizeof s->mon);
    zero(s->nz, s->z);
    copy(n, s->z, q ? q : m->q0);
    copy(n, s->v, v ? v : m->v0);
    if (!finite_vec(n, s->z) || !finite_vec(n, s->v)) return MB_ERR_NONFINITE;
    s->t = t0;
    if (assemble && (st = mb_sim_assemble(s, t0, s->z, s->v, NULL))) return st;
    zero(nc, s->sig); zero(nc, s->S); zero(nc, s->lam);
    zero(nc, s->ev_sig); zero(nc, s->ev_S); zero(nc, s->ev_lam);
    copy(n, s->ev_v, s->v);
    if (s->IPq) zero(s->nnz, s->IPq);
    if (s->p.formulation == MB_BAUMGARTE) copy(n, s->z + n, s->v);
    else for (int i = 0; i < n; i++) s->z[n + i] = m->mass[i] * s->v[i];   /* 5.19 */
    if (s->p.formulation == MB_ALF_TRAPEZOID) {
        /* step 5 of 5.4.2: ydot_0 from the F3 evaluation H */
        if ((st = alf_velocity(s, t0, s->z, s->z + n, s->z + 2 * n))) return st;
        m->force(m, t0, s->z, s->ev_v, s->Q);
        m->phi_q_dot(m, t0, s->z, s->ev_v, s->Pqd);
        copy(n, s->pd, s->Q);
        sp_mtv_add(&m->phi_q_pat, s->Pqd, s->ev_sig, 1, s->pd);
        take_eval(s);
    } else {
        if ((st = rhs(s, t0, s->z, s->fz))) return st;
        take_eval(s);
    }
    s->have_f = 1;
    s->h_next = s->p.h;
    s->t_grid0 = t0;
    s->nfixed = 0;
    mb_real pnc, pdrv;
    measure(s, &pnc, &pdrv);
    s->pnc = pnc;
    s->pdrv = pdrv;
    copy(nc, s->ptq, s->Phit);
    s->mon.E0 = s->mon.T + s->mon.V;
    s->mon.W = 0;
    update_max(s);
    s->ready = 1;
    return MB_OK;
}

/* A failure after the new state was taken (projection, sigma reset): back to the step's start;
 * the cached derivative is recomputed by the next mb_sim_step. */
static int explicit_fail(mb_sim *s, mb_real t_start, int st)
{
    copy(s->nz, s->z, s->zold);
    copy(s->n, s->v, s->tn[7]);
    copy(s->nc, s->S, s->tm[3]);
    s->t = t_start;
    s->have_f = 0;
    return st;
}

int mb_sim_step(mb_sim *s, mb_real t_stop)
{
    int st = MB_OK, nc = s->nc;
    if (!s->ready) return MB_ERR_STATE;
    mb_real rem = t_stop - s->t;
    if (!isfinite(t_stop) || !(rem > 0)) return MB_ERR_PARAM;
    if (s->p.integrator != MB_TRAPEZOID && !s->have_f) {   /* after a failed step */
        if ((st = rhs(s, s->t, s->z, s->fz)) < 0) return st;
        take_eval(s);
        s->have_f = 1;
    }
    mb_real pnc0 = s->pnc, pdrv0 = s->pdrv, t_start = s->t;
    mb_monitor mon0 = s->mon;
    copy(nc, s->tm[3], s->S);              /* S at the start of the step */
    copy(s->nz, s->zold, s->z);
    copy(s->n, s->tn[7], s->v);
    if (s->p.integrator == MB_DOPRI5) {
        mb_real hmin = s->p.h_min > 0 ? s->p.h_min : 64 * MB_EPS * (1 + MB_FABS(s->t));
        int lastfail = 0;
        for (;;) {
            mb_real h = s->h_next;
            if (s->p.h_max > 0 && h > s->p.h_max) h = s->p.h_max;
            int last = 0;
            if (h >= rem * (1 - MB_R(1e-9))) { h = rem; last = 1; }
            mb_real err = MB_R(1e30);
            st = dopri_step(s, h, &err);
            if (st < 0 && st != MB_ERR_SINGULAR && st != MB_ERR_NOT_SPD) return st;
            if (st < 0) { err = MB_R(1e30); lastfail = st; }  /* retry smaller, fail below h_min */
            mb_real fac = err > 0 ? MB_R(0.9) * MB_POW(err, -MB_R(0.2)) : 5;
            if (fac > 5) fac = 5;
            if (fac < MB_R(0.2)) fac = MB_R(0.2);
            if (err <= 1) {
                if (!last) s->h_next = h * fac;
                s->t = last ? t_stop : s->t + h;
                st = accept_explicit(s, s->k[6]);
                if (st < 0) return explicit_fail(s, t_start, st);
                advance_monitor(s, h, pnc0, pdrv0);
                if (!isfinite(s->mon.energy_dev)) {     /* energies or work overflow: not a good state */
                    s->mon = mon0; s->pnc = pnc0; s->pdrv = pdrv0;
                    return explicit_fail(s, t_start, MB_ERR_NONFINITE);
                }
                break;
            }
            s->mon.rejected++;
            s->h_next = h * (fac < 1 ? fac : MB_R(0.5));
            if (s->h_next < hmin) {   /* name the rank loss if it is what shrank the step */
                copy(s->nz, s->z, s->zold);
                return lastfail ? lastfail : MB_ERR_STEP_UNDERFLOW;
            }
        }
    } else {
        mb_real h = s->p.h;
        /* the last step may be up to 1% longer than h, so no sliver step follows; times on the
         * grid are t0 + k h (no accumulated rounding) */
        int last = rem <= h * MB_R(1.01);
        if (last) h = rem;
        if (s->p.integrator == MB_RK4) {
            mb_real t_old = s->t;
            st = rk4_step(s, h);
            if (st < 0) { copy(s->nz, s->z, s->zold); return st; }
            s->t = last ? t_stop : s->t_grid0 + (mb_real)(s->nfixed + 1) * h;
            mb_real *fnew = s->k[1];          /* f at the new state, reused as next k1 */
            if ((st = rhs(s, s->t, s->ztmp, fnew)) < 0) { s->t = t_old; return st; }
            st = accept_explicit(s, fnew);
            if (st < 0) return explicit_fail(s, t_start, st);
        } else {
            mb_real t_old = s->t, *sig_old = s->tm[2];
            copy(nc, sig_old, s->sig);
            st = trap_step(s, h);
            if (st >= 0) {                      /* energies must be finite too */
                mb_real e[3];
                s->m->energy(s->m, t_old + h, s->z, s->v, e);
                if (!isfinite(e[0] + e[1] + e[2])) st = MB_ERR_NONFINITE;
            }
            if (st < 0) {                       /* restore the last good step */
                copy(s->nz, s->z, s->zk);
                copy(s->n, s->v, s->yd);
                copy(s->n, s->pd, s->yd + s->n);
                copy(nc, s->sig, sig_old);
                copy(s->nnz, s->IPq, s->IPq_old);
                copy(nc, s->S, s->tm[3]);
                s->t = t_old;
                return st;
            }
            s->t = last ? t_stop : s->t_grid0 + (mb_real)(s->nfixed + 1) * h;
            if (s->p.sigma_reset > 0 && nrm2(nc, s->sig) > s->p.sigma_reset) {
                const mb_model *m = s->m;      /* 6.3.4: p and pdot kept consistent (5.30, 5.32) */
                m->phi_q(m, s->t, s->z, s->Pq);
                m->phi_q_dot(m, s->t, s->z, s->v, s->Pqd);
                sp_mtv_add(&m->phi_q_pat, s->Pq, s->sig, -1, s->z + s->n);
                sp_mtv_add(&m->phi_q_pat, s->Pqd, s->sig, -1, s->pd);
                for (int r = 0; r < nc; r++) s->tm[3][r] -= s->sig[r];
                zero(nc, s->sig);
                zero(nc, s->S);
                s->mon.sigma_resets++;
                if (st == MB_OK) st = MB_EVENT_SIGMA_RESET;
            }
        }
        advance_monitor(s, h, pnc0, pdrv0);
        if (s->p.integrator == MB_RK4 && !isfinite(s->mon.energy_dev)) {
            s->mon = mon0; s->pnc = pnc0; s->pdrv = pdrv0;
            return explicit_fail(s, t_start, MB_ERR_NONFINITE);
        }
        if (last) { s->t_grid0 = s->t; s->nfixed = 0; }   /* a clipped step starts a new grid */
        else s->nfixed++;
    }
    s->mon.steps++;
    return st;
}

mb_real mb_sim_get_t(const mb_sim *s) { return s->t; }
const mb_real *mb_sim_get_q(const mb_sim *s) { return s->z; }
const mb_real *mb_sim_get_v(const mb_sim *s) { return s->v; }
const mb_real *mb_sim_get_p(const mb_sim *s)
{
    return s->p.formulation == MB_BAUMGARTE ? NULL : s->z + s->n;
}
const mb_real *mb_sim_get_sigma(const mb_sim *s)
{
    return s->p.formulation == MB_BAUMGARTE ? NULL : s->sig;
}
const mb_monitor *mb_sim_get_monitor(const mb_sim *s) { return &s->mon; }
