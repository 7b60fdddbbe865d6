/* mb_analysis.c - reactions, static equilibrium and its stability, quasi-static sequences,
 * kinematic and inverse-dynamic analysis, the linearization about an equilibrium and its
 * frequency response (mb_analysis.h, docs/analyses.md).
 * Layer: runtime; freestanding (no malloc, no stdio, no globals), its own small dense kernels
 * where the runtime has none (pivoted Householder QR, Jacobi eigenvalues), mb_linalg.c's
 * Cholesky for the reduced Newton step; the sparse S = Phi_q W Phi_q^T goes through the model's
 * plan (mb_sparse.c). Not part of the lean firmware build. */
#include <string.h>
#include "mb_analysis.h"
#include "mb_linalg.h"
#include "mb_sparse.h"
#include "mb_vec.h"

void mb_anl_params_default(mb_anl_params *p)
{
    memset(p, 0, sizeof *p);
#if MB_FLOAT
    p->rank_tol = MB_R(1e-4);
#else
    p->rank_tol = MB_R(1e-8);
#endif
    p->pos_tol = 100 * MB_EPS;
    p->pos_max_iter = 50;
#if MB_FLOAT
    p->static_tol = 10000 * MB_EPS;   /* 1.2e-3: the rounding floor of a 30-link chain is 3e-4 */
#else
    p->static_tol = 1000 * MB_EPS;
#endif
    p->static_max_iter = 500;
    p->step_angle = MB_R(0.5);
}

/* ------------------------------------------------------------------ workspace */

typedef struct { char *base; size_t off, cap; } arena;
#define ANL_ALIGN (sizeof(mb_real) > sizeof(int) ? sizeof(mb_real) : sizeof(int))
static void *take(arena *a, size_t bytes)
{
    size_t off = a->off;
    a->off = off + (bytes + ANL_ALIGN - 1) / ANL_ALIGN * ANL_ALIGN;
    return a->base && bytes > 0 && a->off <= a->cap ? a->base + off : NULL;
}
#define TAKE_R(cnt) take(&ar, sizeof(mb_real) * (size_t)(cnt))
#define TAKE_I(cnt) take(&ar, sizeof(int) * (size_t)(cnt))

static size_t layout(mb_anl *a, const mb_model *m, int level, void *work, size_t size)
{
    arena ar = {(char *)work, 0, size};
    int n = m->nq, nc = m->nc, nnz = m->phi_q_pat.nnz, nmx = n > nc ? n : nc;
    a->Pq = TAKE_R(nnz);
    a->Pqd = TAKE_R(nnz);
    a->Pq0 = TAKE_R(nnz);
    a->Phi = TAKE_R(nc);
    a->Phit = TAKE_R(nc);
    a->Gam = TAKE_R(nc);
    a->Q = TAKE_R(n);
    a->dQq = TAKE_R(m->dq_dq_pat.nnz);
    a->dQv = TAKE_R(m->dq_dv_pat.nnz);
    a->minv = TAKE_R(n);
    a->isqm = TAKE_R(n);
    a->FS = TAKE_R(nc + m->plan->s.nl);
    a->d0 = TAKE_R(nmx);
    a->ly = TAKE_R(nmx);
    for (int i = 0; i < 10; i++) a->wn[i] = TAKE_R(n);
    for (int i = 0; i < 5; i++) a->wm[i] = TAKE_R(nc);
    if (level == MB_ANL_DENSE) {
        a->J = TAKE_R((size_t)n * (size_t)nc);
        a->tau = TAKE_R(nc);
        a->N = TAKE_R((size_t)n * (size_t)n);
        a->Kr = TAKE_R((size_t)n * (size_t)n);
        a->Cr = TAKE_R((size_t)n * (size_t)n);
        a->Ks = TAKE_R((size_t)n * (size_t)n);
        a->Ev = TAKE_R((size_t)n * (size_t)n);
        a->Kch = TAKE_R((size_t)n * (size_t)n);
        a->ev = TAKE_R(n);
        a->pts = TAKE_R(m->points ? 2 * m->npoint : 0);
        a->jpv = TAKE_I(nc);
        a->F2 = TAKE_R((size_t)4 * (size_t)n * (size_t)n + 2 * (size_t)n);
        a->piv2 = TAKE_I(2 * n);
        a->qs_prev = TAKE_R(n);
        a->Pqv = TAKE_R(nnz);
        a->Qu = TAKE_R((size_t)n * (size_t)m->nin);
    }
    return ar.off;
}

static int usable(const mb_model *m)
{
    if (!m || m->nq <= 0 || m->nc < 0 || !m->mass || !m->q0 || !m->plan || !m->phi || !m->phi_q ||
        !m->phi_t || !m->phi_q_dot || !m->force || !m->dforce_dq || !m->dforce_dv)
        return 0;
    if (m->plan->s.n != m->nc) return 0;
    for (int i = 0; i < m->nq; i++) if (!(m->mass[i] > 0)) return 0;
    const mb_pattern *p = &m->phi_q_pat;
    for (int k = 0; k < p->nnz; k++)
        if ((long)p->row[k] >= m->nc || (long)p->col[k] >= m->nq) return 0;
    for (int k = 0; k < m->dq_dq_pat.nnz; k++)
        if ((long)m->dq_dq_pat.row[k] >= m->nq || (long)m->dq_dq_pat.col[k] >= m->nq) return 0;
    for (int k = 0; k < m->dq_dv_pat.nnz; k++)
        if ((long)m->dq_dv_pat.row[k] >= m->nq || (long)m->dq_dv_pat.col[k] >= m->nq) return 0;
    return 1;
}

size_t mb_anl_workspace_size(const mb_model *m, int level)
{
    mb_anl tmp;
    if (!usable(m) || (level != MB_ANL_SPARSE && level != MB_ANL_DENSE)) return 0;
    return layout(&tmp, m, level, NULL, 0);
}

int mb_anl_init(mb_anl *a, const mb_model *m, const mb_anl_params *p, int level, void *work,
                size_t size)
{
    if (!a) return MB_ERR_PARAM;
    memset(a, 0, sizeof *a);
    if (level != MB_ANL_SPARSE && level != MB_ANL_DENSE) return MB_ERR_PARAM;
    if (!usable(m)) return MB_ERR_MODEL;
    if (p) a->p = *p;
    else mb_anl_params_default(&a->p);
    if (!(a->p.rank_tol >= 0 && a->p.rank_tol < 1) || !(a->p.pos_tol > 0) ||
        a->p.pos_max_iter < 1 || !(a->p.static_tol > 0) || a->p.static_max_iter < 1 ||
        !(a->p.step_angle > 0) || !isfinite(a->p.step_angle) ||
        (a->p.rank_qr_only != 0 && a->p.rank_qr_only != 1))
        return MB_ERR_PARAM;
    if (!work || ((size_t)work % sizeof(mb_real)) != 0) return MB_ERR_WORKSPACE;
    if (size < layout(a, m, level, NULL, 0)) return MB_ERR_WORKSPACE;
    memset(work, 0, size);
    layout(a, m, level, work, size);
    a->m = m;
    a->n = m->nq;
    a->nc = m->nc;
    a->nnz = m->phi_q_pat.nnz;
    a->level = level;
    a->singular_row = -1;
    for (int i = 0; i < a->n; i++) {
        a->minv[i] = 1 / m->mass[i];
        a->isqm[i] = 1 / MB_SQRT(m->mass[i]);
    }
    /* the length scale: the largest distance of a named point from its body's CoM at q0 */
    a->lscale = 0;
    if (m->points && m->point_body && m->npoint > 0) {
        mb_real *pts = a->pts;
        if (pts) {
            m->points(m, 0, m->q0, pts);
            for (int i = 0; i < m->npoint; i++) {
                int b = m->point_body[i];
                if (b < 0 || b >= m->nbody || mb_body_q(m, b) + 1 >= a->n) continue;
                int k = mb_body_q(m, b);
                mb_real dx = pts[2 * i] - m->q0[k], dy = pts[2 * i + 1] - m->q0[k + 1];
                mb_real d = MB_SQRT(dx * dx + dy * dy);   /* (libm's sqrt only: see test_install) */
                if (isfinite(d) && d > a->lscale) a->lscale = d;
            }
        }
    }
    if (!(a->lscale > 0)) a->lscale = 1;
    return MB_OK;
}

/* ------------------------------------------------------------------ sparse S on the plan */

/* FS = Phi_q diag(w) Phi_q^T (Phi_q values in Pq), the same terms as the runtime's assembly. */
static void assemble_s(mb_anl *a, const mb_real *w) { mb_sp_assemble_s(a->m, a->Pq, w, a->FS); }

/* Factor S = Phi_q M^-1 Phi_q^T: with the rank test (reg = 0; MB_ERR_SINGULAR names the row),
 * or regularized by mu = 1e3 eps max diag (reg = 1: a least-squares / minimum-norm step that
 * stays defined for redundant constraints). */
static int factor_s(mb_anl *a, int reg)
{
    int nc = a->nc, bad = -1;
    mb_real ratio;
    a->singular_row = -1;
    if (nc == 0) return MB_OK;
    assemble_s(a, a->minv);
    if (reg) {
        mb_real dmax = 0;
        for (int r = 0; r < nc; r++) if (a->FS[r] > dmax) dmax = a->FS[r];
        mb_real mu = (dmax > 0 ? dmax : 1) * MB_R(1e3) * MB_EPS;
        for (int r = 0; r < nc; r++) a->FS[r] += mu;
    }
    a->factorizations++;
    int st = mb_sp_ldl(&a->m->plan->s, a->FS, a->d0, reg ? 0 : a->p.rank_tol, &ratio, &bad);
    if (st == MB_ERR_SINGULAR || st == MB_ERR_NOT_SPD) {
        a->singular_row = bad;
        return MB_ERR_SINGULAR;
    }
    return st;
}

static void solve_s(mb_anl *a, mb_real *b)
{
    if (a->nc > 0) mb_sp_ldl_solve(&a->m->plan->s, a->FS, b, a->ly);
}

/* x = M^-1 Phi_q^T y */
static void minv_pqt(const mb_anl *a, const mb_real *y, mb_real *x)
{
    zero(a->n, x);
    pq_mtv(a->m, a->Pq, y, 1, x);
    for (int i = 0; i < a->n; i++) x[i] *= a->minv[i];
}

/* Positions: Phi(t, q) = 0 by Gauss-Newton with the minimum-norm step in the mass metric,
 * dq = -M^-1 Phi_q^T S^-1 Phi, halved until |Phi|_inf decreases. Scratch wn[4], wn[5], wm[2]. */
static int project(mb_anl *a, mb_real t, mb_real *q)
{
    const mb_model *m = a->m;
    int n = a->n, nc = a->nc;
    mb_real *dq = a->wn[4], *qt = a->wn[5], *w = a->wm[2];
    if (nc == 0) return MB_OK;
    m->phi(m, t, q, a->Phi);
    mb_real res = nrminf(nc, a->Phi);
    for (int it = 0; it < a->p.pos_max_iter && !(res <= a->p.pos_tol); it++) {
        m->phi_q(m, t, q, a->Pq);
        if (factor_s(a, 1)) return MB_ERR_ASSEMBLY_POS;
        copy(nc, w, a->Phi);
        solve_s(a, w);
        minv_pqt(a, w, dq);
        mb_real lam = 1, rnew = 0;
        for (int tries = 0; tries < 30; tries++, lam /= 2) {
            for (int i = 0; i < n; i++) qt[i] = q[i] - lam * dq[i];
            m->phi(m, t, qt, a->Phi);
            rnew = nrminf(nc, a->Phi);
            if (isfinite(rnew) && rnew < res) break;
        }
        if (!(rnew < res)) break;
        copy(n, q, qt);
        res = rnew;
    }
    if (!(res <= a->p.pos_tol) || !finite_vec(n, q)) return MB_ERR_ASSEMBLY_POS;
    return MB_OK;
}

/* ------------------------------------------------------------------ reactions, inverse, kinematic */

int mb_anl_reactions(mb_anl *a, mb_real t, const mb_real *q, const mb_real *v, mb_real *acc,
                     mb_real *lambda)
{
    const mb_model *m = a->m;
    int n = a->n, nc = a->nc;
    mb_real *x = a->wn[0], *y = a->wm[0];
    if (!m) return MB_ERR_STATE;
    if (!m->gamma) return MB_ERR_MODEL;
    m->phi_q(m, t, q, a->Pq);
    m->gamma(m, t, q, v, a->Gam);
    m->force(m, t, q, v, a->Q);
    int st = factor_s(a, 0);
    if (st) return st;
    /* S lambda = Phi_q M^-1 Q - Gamma, acc = M^-1 (Q - Phi_q^T lambda) */
    for (int i = 0; i < n; i++) x[i] = a->minv[i] * a->Q[i];
    pq_mv(m, a->Pq, x, y);
    for (int r = 0; r < nc; r++) y[r] -= a->Gam[r];
    solve_s(a, y);
    if (!finite_vec(nc, y)) return MB_ERR_NONFINITE;
    if (lambda) copy(nc, lambda, y);
    if (acc) {
        copy(n, acc, a->Q);
        pq_mtv(m, a->Pq, y, -1, acc);
        for (int i = 0; i < n; i++) acc[i] *= a->minv[i];
        if (!finite_vec(n, acc)) return MB_ERR_NONFINITE;
    }
    return MB_OK;
}

int mb_anl_outputs(mb_anl *a, mb_real t, const mb_real *q, const mb_real *v, mb_real *lambda,
                   mb_real *y, mb_real *dy_dq, mb_real *dy_dv, mb_real *dy_dlam)
{
    const mb_model *m = a->m;
    if (!m) return MB_ERR_STATE;
    if (m->nout <= 0 || !m->outputs || !y || (m->doutputs_dlam && !lambda)) return MB_ERR_PARAM;
    if (!m->doutputs_dlam) {
        m->outputs(m, t, q, v, y, dy_dq, dy_dv);
        if (dy_dlam) for (int k = 0; k < m->nout * m->nc; k++) dy_dlam[k] = 0;
        return MB_OK;
    }
    int st = mb_anl_reactions(a, t, q, v, NULL, lambda);
    if (st) return st;
    mb_model ml = *m;   /* a copy that reads these multipliers (no state kept) */
    ml.lam = lambda;
    ml.outputs(&ml, t, q, v, y, dy_dq, dy_dv);
    if (dy_dlam) ml.doutputs_dlam(&ml, t, q, v, dy_dlam);
    return MB_OK;
}

int mb_anl_inverse(mb_anl *a, mb_real t, const mb_real *q, const mb_real *v, const mb_real *acc,
                   mb_real *lambda)
{
    const mb_model *m = a->m;
    int n = a->n, nc = a->nc;
    mb_real *x = a->wn[0];
    if (!m) return MB_ERR_STATE;
    m->phi_q(m, t, q, a->Pq);
    m->force(m, t, q, v, a->Q);
    int st = factor_s(a, 0);
    if (st) return st;
    /* S lambda = Phi_q M^-1 (Q - M acc) */
    for (int i = 0; i < n; i++) x[i] = a->minv[i] * a->Q[i] - acc[i];
    pq_mv(m, a->Pq, x, lambda);
    solve_s(a, lambda);
    return finite_vec(nc, lambda) ? MB_OK : MB_ERR_NONFINITE;
}

int mb_anl_kinematic(mb_anl *a, mb_real t, mb_real *q, mb_real *v, mb_real *acc, int *dof,
                     int *why)
{
    const mb_model *m = a->m;
    int n = a->n, nc = a->nc;
    mb_real *y = a->wm[0];
    int w = MB_ANL_WHY_NONE, st = MB_OK;
    if (dof) *dof = nc < n ? n - nc : 0;
    if (!m) { st = MB_ERR_STATE; goto out; }
    if (nc < n) { w = MB_ANL_WHY_DOF; st = MB_ERR_PARAM; goto out; }
    if (!m->gamma) { w = MB_ANL_WHY_GAMMA; st = MB_ERR_MODEL; goto out; }
    if ((st = project(a, t, q))) { w = MB_ANL_WHY_PROJECT; goto out; }
    m->phi_q(m, t, q, a->Pq);
    m->phi_t(m, t, q, a->Phit);
    if ((st = factor_s(a, 0))) { w = MB_ANL_WHY_RANK; goto out; }
    /* Phi_q v = -Phi_t: v = M^-1 Phi_q^T S^-1 (-Phi_t) (Phi_q square and regular: exact) */
    for (int r = 0; r < nc; r++) y[r] = -a->Phit[r];
    solve_s(a, y);
    minv_pqt(a, y, v);
    m->gamma(m, t, q, v, a->Gam);
    copy(nc, y, a->Gam);
    solve_s(a, y);
    minv_pqt(a, y, acc);
    if (!finite_vec(n, v) || !finite_vec(n, acc)) st = MB_ERR_NONFINITE;
out:
    if (why) *why = w;
    return st;
}

/* ------------------------------------------------------------------ dense kernels */

/* Householder QR with scaled column pivoting of J = M^-1/2 Phi_q^T (n x nc; Phi_q^T without
 * `scaled`, as mbgen's check): the column
 * (constraint) whose remaining part is largest relative to its original norm comes next; the
 * factorization stops when that ratio (sin^2 of the angle to the span of the columns before)
 * is at most rank_tol. Leaves R above the diagonal, the Householder vectors below (unit first
 * entry implied) and returns the rank. Scratch wm[1] (original norms), wm[3] (remaining). */
static int qr_pivoted(mb_anl *a, int scaled)
{
    const mb_pattern *pat = &a->m->phi_q_pat;
    int n = a->n, nc = a->nc, kmax = n < nc ? n : nc, k;
    mb_real *J = a->J, *orig = a->wm[1], *rem = a->wm[3];
    for (long i = 0; i < (long)n * nc; i++) J[i] = 0;
    for (int e = 0; e < pat->nnz; e++)
        J[pat->col[e] + (long)pat->row[e] * n] += scaled ? a->Pq[e] * a->isqm[pat->col[e]] : a->Pq[e];
    for (int c = 0; c < nc; c++) {
        a->jpv[c] = c;
        orig[c] = dot(n, J + (long)c * n, J + (long)c * n);
        rem[c] = orig[c];
    }
    for (k = 0; k < kmax; k++) {
        int best = -1;
        mb_real br = 0;
        for (int c = k; c < nc; c++) {
            mb_real r = orig[c] > 0 ? rem[c] / orig[c] : 0;
            if (r > br) { br = r; best = c; }
        }
        if (best < 0 || !(br > a->p.rank_tol)) break;
        if (best != k) {
            mb_real *A = J + (long)k * n, *B = J + (long)best * n, tmp;
            for (int i = 0; i < n; i++) { tmp = A[i]; A[i] = B[i]; B[i] = tmp; }
            int ti = a->jpv[k]; a->jpv[k] = a->jpv[best]; a->jpv[best] = ti;
            tmp = orig[k]; orig[k] = orig[best]; orig[best] = tmp;
            tmp = rem[k]; rem[k] = rem[best]; rem[best] = tmp;
        }
        mb_real *x = J + (long)k * n;
        mb_real nx = 0;
        for (int i = k; i < n; i++) nx += x[i] * x[i];
        nx = MB_SQRT(nx);
        mb_real alpha = x[k] > 0 ? -nx : nx;
        mb_real u0 = x[k] - alpha;
        mb_real vv = 1;
        for (int i = k + 1; i < n; i++) { x[i] /= u0; vv += x[i] * x[i]; }
        mb_real tk = 2 / vv;
        a->tau[k] = tk;
        x[k] = alpha;
        for (int c = k + 1; c < nc; c++) {   /* apply H_k to the remaining columns */
            mb_real *y = J + (long)c * n;
            mb_real s = y[k];
            for (int i = k + 1; i < n; i++) s += x[i] * y[i];
            s *= tk;
            y[k] -= s;
            for (int i = k + 1; i < n; i++) y[i] -= s * x[i];
            mb_real rr = 0;
            for (int i = k + 1; i < n; i++) rr += y[i] * y[i];
            rem[c] = rr;
        }
    }
    return k;
}

/* 1 when the unscaled pivoted QR above would keep every column of Phi_q^T (values in Pq), proved
 * on the sparsity of S instead of found by the dense QR (whose cost grows as nq nc^2): the plan's
 * LDL^T of G - mu I, G = D^-1/2 Phi_q Phi_q^T D^-1/2 the Gram matrix of the rows scaled to unit
 * length (D: the diagonal of Phi_q Phi_q^T). Every ratio the QR tests is the squared distance of
 * a unit column of Phi_q^T from the span of some others, at least sigma_min^2 of the scaled
 * Phi_q^T, i.e. lambda_min(G); all pivots positive prove lambda_min(G) > mu (Sylvester's law of
 * inertia). mu = 2 rank_tol + 8 nq eps: twice the QR's threshold plus a margin for the rounding
 * of both factorizations (of order nq eps), so that a model this accepts is one the QR accepts;
 * one near the threshold (rank_tol < lambda_min <= mu) is left to the QR. 0 otherwise (a
 * dependent or nearly dependent equation, nc > nq, a zero row): the QR decides. Scratch: Pqd,
 * wn[9], wm[1], FS. */
static int full_rank(mb_anl *a)
{
    const mb_model *m = a->m;
    const mb_symbolic *sy = &m->plan->s;
    const mb_pattern *pat = &m->phi_q_pat;
    int n = a->n, nc = a->nc, bad;
    mb_real *one = a->wn[9], *ps = a->Pqd, *rs = a->wm[1], ratio;
    if (nc == 0) return 1;
    if (nc > n) return 0;
    for (int i = 0; i < n; i++) one[i] = 1;
    mb_sp_assemble_s(m, a->Pq, one, a->FS);
    for (int k = 0; k < nc; k++) rs[sy->perm[k]] = a->FS[k];   /* |row|^2, original order */
    for (int r = 0; r < nc; r++) {
        if (!(rs[r] > 0) || !isfinite(rs[r])) return 0;
        rs[r] = 1 / MB_SQRT(rs[r]);
    }
    for (int e = 0; e < pat->nnz; e++) ps[e] = a->Pq[e] * rs[pat->row[e]];
    mb_sp_assemble_s_maps(m, ps, one, a->FS);   /* (not Phi_q's values: no unrolled form) */
    mb_real mu = 2 * a->p.rank_tol + 8 * (mb_real)n * MB_EPS;
    for (int k = 0; k < nc; k++) a->FS[k] -= mu;
    a->factorizations++;
    return mb_sp_ldl(sy, a->FS, a->d0, 0, &ratio, &bad) == MB_OK;
}

/* Redundant constraint equations at (t, q): the pivoted QR of Phi_q^T above, unweighted as in
 * generator/redundant.lua, so that the equations named are those mbgen --check names and
 * --redundant remove removes (M^-1/2 would pick others: a parallelogram's third crank); the
 * columns it leaves over are the dependent equations (the scaled pivoting takes, of equal
 * columns, the one declared first, so a repeated joint is the later one). A Phi_q that
 * full_rank proves independent skips the QR (the same answer: none). */
int mb_anl_redundant(mb_anl *a, mb_real t, const mb_real *q, unsigned char *dep)
{
    if (!finite_vec(a->n, q)) return MB_ERR_NONFINITE;
    a->m->phi_q(a->m, t, q, a->Pq);
    if (!finite_vec(a->m->phi_q_pat.nnz, a->Pq)) return MB_ERR_NONFINITE;
    if (!a->p.rank_qr_only && full_rank(a)) {
        a->rank = a->nc;
        for (int k = 0; k < a->nc; k++) {
            dep[k] = 0;
            if (a->jpv) a->jpv[k] = k;
        }
        return 0;
    }
    if (a->level != MB_ANL_DENSE) return MB_ERR_WORKSPACE;
    int r = qr_pivoted(a, 0);
    a->rank = r;
    for (int k = 0; k < a->nc; k++) dep[a->jpv[k]] = k >= r;
    return a->nc - r;
}

/* After mb_anl_redundant: uses[c] = 1 for the independent rows that dependent row `row` is a
 * combination of (coefficients of R11^-1 R12 that carry more than 1e-6 of its norm). */
int mb_anl_redundant_support(mb_anl *a, int row, unsigned char *uses)
{
    int n = a->n, nc = a->nc, r = a->rank, j = -1;
    mb_real *x = a->wm[0];
    if (a->level != MB_ANL_DENSE || row < 0 || row >= nc) return MB_ERR_PARAM;
    for (int k = r; k < nc; k++) if (a->jpv[k] == row) j = k;
    if (j < 0) return MB_ERR_PARAM;   /* not a dependent row */
    const mb_real *cj = a->J + (long)j * n;
    mb_real cn = 0;
    for (int i = 0; i < nc; i++) uses[i] = 0;
    for (int i = 0; i < r; i++) cn += cj[i] * cj[i];   /* |column| (its rest is below rank_tol) */
    cn = MB_SQRT(cn);
    for (int i = r - 1; i >= 0; i--) {   /* R11 x = R12 e_j */
        mb_real s = cj[i];
        for (int k = i + 1; k < r; k++) s -= a->J[(long)k * n + i] * x[k];
        x[i] = s / a->J[(long)i * n + i];
    }
    for (int i = 0; i < r; i++) {
        mb_real ci = 0;   /* |R11 column i| = the norm of the equation's column */
        for (int k = 0; k <= i; k++) ci += a->J[(long)i * n + k] * a->J[(long)i * n + k];
        if (MB_FABS(x[i]) * MB_SQRT(ci) > MB_R(1e-6) * cn) uses[a->jpv[i]] = 1;
    }
    return MB_OK;
}

/* b <- H_k b for the stored Householder vector k (H_k symmetric, its own inverse). */
static void apply_h(const mb_anl *a, int k, mb_real *b)
{
    const mb_real *x = a->J + (long)k * a->n;
    mb_real s = b[k];
    for (int i = k + 1; i < a->n; i++) s += x[i] * b[i];
    s *= a->tau[k];
    b[k] -= s;
    for (int i = k + 1; i < a->n; i++) b[i] -= s * x[i];
}

/* N[:, j] = H_0 ... H_{r-1} e_{r+j}, j < n - r: an orthonormal basis of the complement of the
 * range of J, i.e. of the null space of Phi_q M^-1/2. */
static void null_basis(mb_anl *a, int r)
{
    int n = a->n;
    for (int j = 0; j < n - r; j++) {
        mb_real *c = a->N + (long)j * n;
        zero(n, c);
        c[r + j] = 1;
        for (int k = r - 1; k >= 0; k--) apply_h(a, k, c);
    }
}

/* Least squares J lambda ~ g with the QR: c = Q^T g (c[r..n) is the part of g the constraints
 * cannot carry), lambda from R (dependent constraints get 0). */
static void qr_lsq(mb_anl *a, int r, const mb_real *g, mb_real *c, mb_real *lambda)
{
    int n = a->n, nc = a->nc;
    mb_real *lp = a->wm[4];
    copy(n, c, g);
    for (int k = 0; k < r; k++) apply_h(a, k, c);
    for (int k = r - 1; k >= 0; k--) {
        mb_real s = c[k];
        for (int j = k + 1; j < r; j++) s -= a->J[k + (long)j * n] * lp[j];
        lp[k] = s / a->J[k + (long)k * n];
    }
    if (lambda) {
        zero(nc, lambda);
        for (int k = 0; k < r; k++) lambda[a->jpv[k]] = lp[k];
    }
}

/* Eigenvalues (ascending, into ev) and eigenvectors (columns of V) of the symmetric d x d
 * matrix A (destroyed) by cyclic Jacobi rotations. */
static void jacobi_eig(int d, mb_real *A, mb_real *V, mb_real *ev)
{
    for (int i = 0; i < d; i++)
        for (int j = 0; j < d; j++) V[i + (long)j * d] = i == j ? 1 : 0;
    for (int sweep = 0; sweep < 100; sweep++) {
        mb_real off = 0, all = 0;
        for (int j = 0; j < d; j++)
            for (int i = 0; i < d; i++) {
                mb_real x = A[i + (long)j * d] * A[i + (long)j * d];
                all += x;
                if (i != j) off += x;
            }
        if (!(off > MB_EPS * MB_EPS * all)) break;
        for (int p = 0; p < d - 1; p++)
            for (int q = p + 1; q < d; q++) {
                mb_real apq = A[p + (long)q * d], app = A[p + (long)p * d], aqq = A[q + (long)q * d];
                if (apq == 0) continue;
                if (MB_FABS(apq) < MB_EPS * MB_EPS * (MB_FABS(app) + MB_FABS(aqq))) {
                    A[p + (long)q * d] = A[q + (long)p * d] = 0;   /* below round-off */
                    continue;
                }
                mb_real th = (aqq - app) / (2 * apq);
                mb_real tt = (th >= 0 ? 1 : -1) / (MB_FABS(th) + MB_SQRT(th * th + 1));
                mb_real c = 1 / MB_SQRT(tt * tt + 1), s = tt * c;
                for (int k = 0; k < d; k++) {   /* columns p, q */
                    mb_real akp = A[k + (long)p * d], akq = A[k + (long)q * d];
                    A[k + (long)p * d] = c * akp - s * akq;
                    A[k + (long)q * d] = s * akp + c * akq;
                }
                for (int k = 0; k < d; k++) {   /* rows p, q */
                    mb_real apk = A[p + (long)k * d], aqk = A[q + (long)k * d];
                    A[p + (long)k * d] = c * apk - s * aqk;
                    A[q + (long)k * d] = s * apk + c * aqk;
                }
                A[p + (long)q * d] = A[q + (long)p * d] = 0;
                for (int k = 0; k < d; k++) {
                    mb_real vkp = V[k + (long)p * d], vkq = V[k + (long)q * d];
                    V[k + (long)p * d] = c * vkp - s * vkq;
                    V[k + (long)q * d] = s * vkp + c * vkq;
                }
            }
    }
    for (int i = 0; i < d; i++) ev[i] = A[i + (long)i * d];
    for (int i = 1; i < d; i++) {   /* insertion sort, vectors along */
        for (int j = i; j > 0 && ev[j] < ev[j - 1]; j--) {
            mb_real t = ev[j]; ev[j] = ev[j - 1]; ev[j - 1] = t;
            for (int k = 0; k < d; k++) {
                t = V[k + (long)j * d];
                V[k + (long)j * d] = V[k + (long)(j - 1) * d];
                V[k + (long)(j - 1) * d] = t;
            }
        }
    }
}

/* ------------------------------------------------------------------ linearization */

/* out += a * P x for a sparse n x n pattern */
static void sp_mv_add(const mb_pattern *pat, const mb_real *val, const mb_real *x, mb_real a,
                      mb_real *out)
{
    for (int k = 0; k < pat->nnz; k++) out[pat->row[k]] += a * val[k] * x[pat->col[k]];
}

/* At (t, q) with v = 0: Pq, Q, dQ/dq, dQ/dv, Phi_qt (phi_q_dot at v = 0); the pivoted QR, the
 * rank, the null-space basis and, with lam NULL, the least-squares multipliers (into lam_out).
 * c[n] receives Q^T M^-1/2 Q (its last n - r entries: the unbalanced load). Returns the rank. */
static int lin_base(mb_anl *a, mb_real t, const mb_real *q, mb_real *c, mb_real *lam_out)
{
    const mb_model *m = a->m;
    int n = a->n;
    mb_real *zv = a->wn[3], *g = a->wn[8];
    zero(n, zv);
    m->phi_q(m, t, q, a->Pq);
    m->force(m, t, q, zv, a->Q);
    m->dforce_dq(m, t, q, zv, a->dQq);
    m->dforce_dv(m, t, q, zv, a->dQv);
    m->phi_q_dot(m, t, q, zv, a->Pq0);
    int r = qr_pivoted(a, 1);
    null_basis(a, r);
    for (int i = 0; i < n; i++) g[i] = a->isqm[i] * a->Q[i];
    qr_lsq(a, r, g, c, lam_out);
    a->rank = r;
    a->dof = n - r;
    mb_real gn = nrm2(n, g), rn = nrm2(n - r, c + r);
    a->residual = gn > 0 ? rn / gn : 0;
    return r;
}

/* Kr = Z^T K Z, Cr = -Z^T dQ/dv Z, the eigen decomposition of (Kr + Kr^T) / 2. */
static void lin_reduce(mb_anl *a, mb_real t, const mb_real *q, const mb_real *lam)
{
    const mb_model *m = a->m;
    int n = a->n, nc = a->nc, d = a->dof;
    mb_real *z = a->wn[7], *kz = a->wn[6], *cz = a->wn[9];
    for (int j = 0; j < d; j++) {
        for (int i = 0; i < n; i++) z[i] = a->isqm[i] * a->N[i + (long)j * n];
        zero(n, kz);
        zero(n, cz);
        sp_mv_add(&m->dq_dq_pat, a->dQq, z, -1, kz);
        sp_mv_add(&m->dq_dv_pat, a->dQv, z, -1, cz);
        if (nc > 0) {
            m->phi_q_dot(m, t, q, z, a->Pqd);   /* (Phi_q)_q z + Phi_qt */
            for (int e = 0; e < a->nnz; e++) a->Pqd[e] -= a->Pq0[e];
            pq_mtv(m, a->Pqd, lam, 1, kz);
        }
        for (int i = 0; i < n; i++) { kz[i] *= a->isqm[i]; cz[i] *= a->isqm[i]; }
        for (int i = 0; i < d; i++) {
            a->Kr[i + (long)j * d] = dot(n, a->N + (long)i * n, kz);
            a->Cr[i + (long)j * d] = dot(n, a->N + (long)i * n, cz);
        }
    }
    for (int j = 0; j < d; j++)
        for (int i = 0; i < d; i++)
            a->Ks[i + (long)j * d] = (a->Kr[i + (long)j * d] + a->Kr[j + (long)i * d]) / 2;
    jacobi_eig(d, a->Ks, a->Ev, a->ev);
}

int mb_anl_linearize(mb_anl *a, mb_real t, const mb_real *q, const mb_real *lambda, int *dof)
{
    if (!a->m) return MB_ERR_STATE;
    if (a->level != MB_ANL_DENSE) return MB_ERR_WORKSPACE;
    mb_real *lam = a->wm[0];
    lin_base(a, t, q, a->wn[0], lam);
    if (lambda) copy(a->nc, lam, lambda);
    lin_reduce(a, t, q, lam);
    a->linearized = 1;
    if (dof) *dof = a->dof;
    for (long i = 0; i < (long)a->dof * a->dof; i++)
        if (!isfinite(a->Kr[i]) || !isfinite(a->Cr[i])) return MB_ERR_NONFINITE;
    return MB_OK;
}

void mb_anl_mode_vector(const mb_anl *a, int i, mb_real *z)
{
    for (int k = 0; k < a->n; k++) z[k] = i >= 0 && i < a->dof ? a->isqm[k] * a->N[k + (long)i * a->n] : 0;
}

/* ------------------------------------------------------------------ static equilibrium */

/* The factor that brings the step dq within the limits: angles by step_angle, positions by
 * step_angle times the model's length scale (>= 1: the step is divided by it). */
static mb_real step_excess(const mb_anl *a, const mb_real *dq)
{
    mb_real s = 0;
    for (int b = 0; b < a->m->nbody; b++) {
        int k0 = mb_body_q(a->m, b), nk = mb_body_nq(a->m, b);   /* phi third, if any */
        for (int i = k0; i < k0 + nk && i < a->n; i++) {
            mb_real lim = i - k0 == 2 ? a->p.step_angle : a->p.step_angle * a->lscale;
            mb_real r = MB_FABS(dq[i]) / lim;
            if (!(r <= s)) s = r;
        }
    }
    return s;
}

/* dq = Z dz = M^-1/2 N dz */
static void z_times(const mb_anl *a, const mb_real *dz, mb_real *dq)
{
    int n = a->n;
    zero(n, dq);
    for (int j = 0; j < a->dof; j++)
        for (int i = 0; i < n; i++) dq[i] += a->N[i + (long)j * n] * dz[j];
    for (int i = 0; i < n; i++) dq[i] *= a->isqm[i];
}

/* Trial q + lam dq projected onto Phi = 0, and the work of the loads along it (trapezoid):
 * W = (Q(q) + Q(qt)) . (qt - q) / 2, about the drop of the potential energy. Q(q) in a->Q. */
static int trial(mb_anl *a, mb_real t, const mb_real *q, const mb_real *dq, mb_real lam,
                 mb_real *qt, mb_real *W, mb_real *Wnoise)
{
    const mb_model *m = a->m;
    int n = a->n;
    mb_real *Qt = a->wn[9], *zv = a->wn[3];
    for (int i = 0; i < n; i++) qt[i] = q[i] + lam * dq[i];
    if (project(a, t, qt)) return MB_ERR_ASSEMBLY_POS;
    m->force(m, t, qt, zv, Qt);
    mb_real w = 0, wn = 0;
    for (int i = 0; i < n; i++) {
        mb_real d = qt[i] - q[i];
        w += (a->Q[i] + Qt[i]) * d / 2;
        wn += (MB_FABS(a->Q[i]) + MB_FABS(Qt[i])) * MB_FABS(d);
    }
    *W = w;
    *Wnoise = 100 * MB_EPS * wn;
    return isfinite(w) ? MB_OK : MB_ERR_NONFINITE;
}

int mb_anl_static(mb_anl *a, mb_real t, mb_real *q, mb_real *lambda, mb_anl_static_info *info)
{
    int n = a->n, st;
    mb_anl_static_info inf;
    memset(&inf, 0, sizeof inf);
    if (!a->m) return MB_ERR_STATE;
    if (a->level != MB_ANL_DENSE) return MB_ERR_WORKSPACE;
    mb_real *c = a->wn[0], *rr = a->wn[1], *qt = a->wn[2], *dq = a->wn[6], *lam = a->wm[0];
    mb_real etol = 100 * MB_EPS;   /* neutral: |eigenvalue| below this times the largest */
    /* trust radius, in units of the step limits (step_angle per angle, step_angle lscale per
     * position): doubled after a limited step the quadratic model predicted well, halved after
     * a poor one, so that long descents take long steps */
    mb_real radius = 1;
    if ((st = project(a, t, q))) {
        inf.why = MB_ANL_WHY_PROJECT;
        goto out;
    }
    for (;;) {
        int r = lin_base(a, t, q, c, lam), d = n - r;
        mb_real gnorm = 0;
        for (int i = 0; i < n; i++) gnorm += a->Q[i] * a->Q[i] * a->minv[i];
        gnorm = MB_SQRT(gnorm);
        copy(d, rr, c + r);
        mb_real res = nrm2(d, rr);
        lin_reduce(a, t, q, lam);
        mb_real emin = d > 0 ? a->ev[0] : 0, emax = d > 0 ? a->ev[d - 1] : 0;
        mb_real escale = MB_FABS(emin) > MB_FABS(emax) ? MB_FABS(emin) : MB_FABS(emax);
        inf.dof = d;
        inf.rank = r;
        inf.residual = gnorm > 0 ? res / gnorm : 0;
        inf.eig_min = emin;
        inf.eig_max = emax;
        int pd = d == 0 || emin > etol * escale;
        int converged = !(gnorm > 0) || res <= a->p.static_tol * gnorm || d == 0;
        if (!isfinite(res) || !isfinite(escale)) { st = MB_ERR_NONFINITE; goto out; }
        if (converged) {
            inf.stability = pd ? 1 : emin >= -etol * escale ? 0 : -1;
            if (inf.stability >= 0 || inf.escapes >= 20) { st = MB_OK; goto out; }
            /* an unstable equilibrium: step along the eigenvector of the most negative
             * curvature, where the energy falls at second order */
            mb_real *dz = a->wn[7];
            for (int i = 0; i < d; i++) dz[i] = a->Ev[i];   /* column 0: ascending */
            z_times(a, dz, dq);
            mb_real ex = step_excess(a, dq), W = 0, Wn = 0;
            if (!(ex > 0)) { st = MB_OK; goto out; }
            for (int i = 0; i < n; i++) dq[i] *= MB_R(0.4) / ex;
            int ok = 0;
            mb_real lam_s = 1;
            for (int ls = 0; ls < 40 && !ok; ls++, lam_s /= 2) {
                if (trial(a, t, q, dq, lam_s, qt, &W, &Wn) == MB_OK && W > Wn) ok = 1;
                else inf.rejected++;
            }
            if (!ok) { st = MB_OK; goto out; }   /* stays: reported as unstable */
            inf.escapes++;
            copy(n, q, qt);
            continue;
        }
        if (inf.iters >= a->p.static_max_iter) {
            inf.why = MB_ANL_WHY_MAXITER;
            st = MB_ERR_NEWTON;
            goto out;
        }
        /* the step in reduced coordinates: Newton where the reduced stiffness is positive
         * definite, else saddle-free (|eigenvalues|, floored) so that it always descends */
        mb_real *dz = a->wn[7];
        int newton = 0;
        if (pd) {
            for (long i = 0; i < (long)d * d; i++) a->Kch[i] = a->Kr[i];
            copy(d, dz, rr);
            if (mb_chol_factor(d, a->Kch, 0, NULL) == MB_OK) {   /* Kr is SPD here */
                mb_chol_solve(d, a->Kch, dz);
                newton = finite_vec(d, dz) && dot(d, rr, dz) > 0;
            }
        }
        if (!newton) {
            /* semi-definite with the load balanced along the neutral directions (a cart free
             * on its rail, the pole hanging): Newton in the stiff directions, where the energy
             * cannot resolve the minimum better than sqrt(eps) of the step (a height change of
             * the square of the step's) but the load can, so that the step counts as Newton's */
            int psd = d > 0 && !pd && emin >= -etol * escale;
            mb_real floor = escale > 0 ? MB_R(1e-3) * escale : 1, rneutral = 0;
            zero(d, dz);
            for (int k = 0; k < d; k++) {
                const mb_real *vk = a->Ev + (long)k * d;
                mb_real e = MB_FABS(a->ev[k]), g = dot(d, vk, rr);
                mb_real s = g / (e > floor ? e : floor);
                if (!(e > etol * escale)) rneutral += g * g;
                for (int i = 0; i < d; i++) dz[i] += s * vk[i];
            }
            newton = psd && MB_SQRT(rneutral) <= a->p.static_tol * gnorm && finite_vec(d, dz) &&
                     dot(d, rr, dz) > 0;
        }
        z_times(a, dz, dq);
        /* a Newton step below sqrt(eps) of the step limits: taken, and converged (its error is
         * of the order of its square), also where the total load vanishes at the equilibrium
         * (a spring balancing a force, no joint carrying load), so that the residual relative
         * to |M^-1/2 Q| cannot get small */
        if (newton && step_excess(a, dq) <= MB_SQRT(MB_EPS)) {
            mb_real W0, Wn0;
            if (trial(a, t, q, dq, 1, qt, &W0, &Wn0) == MB_OK) {
                copy(n, q, qt);
                inf.iters++;
                inf.stability = pd ? 1 : 0;   /* (else semi-definite: neutral) */
                st = MB_OK;
                /* the multipliers and the unbalanced load at the new q */
                lin_base(a, t, q, c, lam);
                inf.residual = a->residual;
                goto out;
            }
        }
        mb_real ex = step_excess(a, dq) / radius;
        int limited = ex > 1;
        if (limited) {
            for (int i = 0; i < n; i++) dq[i] /= ex;
            for (int i = 0; i < d; i++) dz[i] /= ex;
            newton = 0;
        }
        mb_real slope = dot(d, rr, dz);   /* first-order work of the loads along the step */
        /* the decrease the quadratic model predicts: r.dz - dz.Kr dz / 2 */
        mb_real pred = slope;
        for (int j = 0; j < d; j++)
            for (int i = 0; i < d; i++) pred -= dz[i] * a->Kr[i + (long)j * d] * dz[j] / 2;
        int ok = 0;
        mb_real lam_s = 1, W = 0, Wn = 0;
        for (int ls = 0; ls < 40; ls++, lam_s /= 2) {
            if (trial(a, t, q, dq, lam_s, qt, &W, &Wn) == MB_OK &&
                (W >= MB_R(1e-4) * lam_s * slope || (newton && ls == 0 && W >= -Wn))) {
                ok = 1;
                break;
            }
            inf.rejected++;
        }
        if (!ok) {
            inf.why = MB_ANL_WHY_STALLED;
            st = MB_ERR_NEWTON;
            goto out;
        }
        if (lam_s < 1) radius = MB_FABS(lam_s) * (limited ? radius : step_excess(a, dq));
        else if (limited && pred > 0 && W >= MB_R(0.75) * pred && radius < 8) radius *= 2;
        else if (pred > 0 && W < MB_R(0.25) * pred && radius > MB_R(1.0) / 64) radius /= 2;
        if (radius < MB_R(1.0) / 64) radius = MB_R(1.0) / 64;
        copy(n, q, qt);
        inf.iters++;
    }
out:
    if (st == MB_OK && lambda) copy(a->nc, lambda, lam);
    if (info) *info = inf;
    return st;
}

/* ------------------------------------------------------------------ quasistatic, displacement, FRF */

void mb_anl_quasistatic_start(mb_anl *a) { a->qs_count = 0; }

int mb_anl_quasistatic(mb_anl *a, mb_real t, mb_real *q, mb_real *lambda,
                       mb_anl_static_info *info)
{
    int n = a->n;
    if (!a->m) return MB_ERR_STATE;
    if (a->level != MB_ANL_DENSE) return MB_ERR_WORKSPACE;
    mb_real *qp = a->wn[1];   /* the equilibrium q (mb_anl_static uses wn[1] only after project) */
    copy(n, qp, q);
    if (a->qs_count >= 2 && a->qs_t[1] != a->qs_t[0]) {
        /* secant predictor through the last two equilibria (q is the later one) */
        mb_real s = (t - a->qs_t[1]) / (a->qs_t[1] - a->qs_t[0]);
        for (int i = 0; i < n; i++) q[i] += s * (q[i] - a->qs_prev[i]);
        if (!finite_vec(n, q)) copy(n, q, qp);
    }
    copy(n, a->qs_prev, qp);   /* qp is overwritten by mb_anl_static: keep it first */
    int st = mb_anl_static(a, t, q, lambda, info);
    if (st != MB_OK) {
        copy(n, q, a->qs_prev);   /* the caller keeps the last equilibrium */
        return st;
    }
    a->qs_t[0] = a->qs_t[1];
    a->qs_t[1] = t;
    if (a->qs_count < 2) a->qs_count++;
    return MB_OK;
}

int mb_anl_displace(mb_anl *a, mb_real t, const mb_real *q0, const mb_real *dq, mb_real *q)
{
    if (!a->m) return MB_ERR_STATE;
    for (int i = 0; i < a->n; i++) q[i] = q0[i] + (dq ? dq[i] : 0);
    return project(a, t, q);
}

int mb_anl_frf(mb_anl *a, mb_real omega, const mb_real *f, mb_real *x_re, mb_real *x_im)
{
    int n = a->n, d = a->dof, d2 = 2 * a->dof;
    if (!a->m || a->level != MB_ANL_DENSE) return MB_ERR_STATE;
    if (!a->linearized) return MB_ERR_STATE;
    mb_real *fr = a->wn[1];
    /* the reduced force fr = Z^T f = N^T M^-1/2 f */
    for (int j = 0; j < d; j++) {
        mb_real s = 0;
        for (int i = 0; i < n; i++) s += a->N[i + (long)j * n] * a->isqm[i] * f[i];
        fr[j] = s;
    }
    /* (Kr - w^2 I + i w Cr)(u + i v) = fr:  [Kr - w^2 I, -w Cr; w Cr, Kr - w^2 I] [u; v] = [fr; 0] */
    mb_real *A = a->F2, w2 = omega * omega;
    for (int j = 0; j < d; j++)
        for (int i = 0; i < d; i++) {
            mb_real k = a->Kr[i + (long)j * d] - (i == j ? w2 : 0), c = omega * a->Cr[i + (long)j * d];
            A[i + (long)j * d2] = k;
            A[d + i + (long)(d + j) * d2] = k;
            A[i + (long)(d + j) * d2] = -c;
            A[d + i + (long)j * d2] = c;
        }
    mb_real *b = a->F2 + (long)d2 * d2;   /* the right-hand side, then [u; v] */
    for (int i = 0; i < d; i++) { b[i] = fr[i]; b[d + i] = 0; }
    if (d == 0) {
        zero(n, x_re);
        zero(n, x_im);
        return MB_OK;
    }
    int st = mb_lu_factor(d2, A, a->piv2, 100 * MB_EPS, NULL);
    if (st) return st;
    mb_lu_solve(d2, A, a->piv2, b);
    /* x = Z u + i Z v */
    zero(n, x_re);
    zero(n, x_im);
    for (int j = 0; j < d; j++)
        for (int i = 0; i < n; i++) {
            x_re[i] += a->N[i + (long)j * n] * b[j];
            x_im[i] += a->N[i + (long)j * n] * b[d + j];
        }
    for (int i = 0; i < n; i++) { x_re[i] *= a->isqm[i]; x_im[i] *= a->isqm[i]; }
    return finite_vec(n, x_re) && finite_vec(n, x_im) ? MB_OK : MB_ERR_NONFINITE;
}

/* ------------------------------------------------------------------ state-space linearization */

/* The dependent coordinates (mb_anl_linearize_ss): dep[k] = 1 for nc coordinates whose columns
 * of Phi_q (dense in J, row r at J + r n) are independent; greedy in the preference order
 * (translations before angles, later bodies first), a column accepted when at least `frac` of its
 * squared norm lies outside the span of those accepted (Gram-Schmidt basis in N, nc x nc); then,
 * if needed, the best remaining columns. Returns the number found. */
static int choose_dependent(mb_anl *a, unsigned char *dep)
{
    const mb_model *m = a->m;
    int n = a->n, nc = a->nc, nb = 0, *ord = a->piv2;   /* piv2: 2n ints, free here */
    mb_real *J = a->J, *B = a->N, *c = a->wm[2];
    for (int pass = 0; pass < 2; pass++)
        for (int b = m->nbody - 1; b >= 0; b--) {
            int k0 = mb_body_q(m, b), nk = mb_body_nq(m, b);
            for (int i = k0; i < k0 + nk; i++)
                if ((i - k0 == 2) == (pass == 1)) ord[nb++] = i;
        }
    for (int k = 0; k < n; k++) dep[k] = 0;
    int found = 0;
    for (int pass = 0; pass < 2; pass++)
        while (found < nc) {
            int best = -1;
            mb_real bratio = pass == 0 ? MB_R(0.1) : a->p.rank_tol;
            for (int o = 0; o < n; o++) {
                int k = ord[o];
                if (dep[k]) continue;
                mb_real n0 = 0;
                for (int r = 0; r < nc; r++) { c[r] = J[k + (long)r * n]; n0 += c[r] * c[r]; }
                if (!(n0 > 0)) continue;
                for (int rep = 0; rep < 2; rep++)   /* Gram-Schmidt, twice for orthogonality */
                    for (int j = 0; j < found; j++) {
                        mb_real sp = dot(nc, B + (long)j * nc, c);
                        for (int r = 0; r < nc; r++) c[r] -= sp * B[r + (long)j * nc];
                    }
                mb_real ratio = dot(nc, c, c) / n0;
                if (ratio > bratio) {
                    best = k;
                    bratio = ratio;
                    if (pass == 0) break;   /* the first good one in the preference order */
                }
            }
            if (best < 0) break;
            for (int r = 0; r < nc; r++) c[r] = J[best + (long)r * n];
            for (int rep = 0; rep < 2; rep++)
                for (int j = 0; j < found; j++) {
                    mb_real sp = dot(nc, B + (long)j * nc, c);
                    for (int r = 0; r < nc; r++) c[r] -= sp * B[r + (long)j * nc];
                }
            mb_real nn = nrm2(nc, c);
            for (int r = 0; r < nc; r++) B[r + (long)found * nc] = c[r] / nn;
            dep[best] = 1;
            found++;
        }
    return found;
}

/* r2 += dGamma/dq dq by Richardson-extrapolated central differences along dq (steps 1e-3 of the
 * model's scale: 1 rad per angle, lscale per position), exactly 0 where Gamma does not depend on
 * q. Scratch wn[5], wm[0], wm[3], wm[4]. */
static void gamma_q_dq(mb_anl *a, mb_real t, const mb_real *q, const mb_real *v, const mb_real *dq,
                       mb_real *r2)
{
    const mb_model *m = a->m;
    int n = a->n, nc = a->nc;
    mb_real *qs = a->wn[5], *d1 = a->wm[0], *gp = a->wm[3], *gm = a->wm[4], sc = 0;
    for (int b = 0; b < m->nbody; b++) {
        int k0 = mb_body_q(m, b), nk = mb_body_nq(m, b);
        for (int i = k0; i < k0 + nk; i++) {
            mb_real r = MB_FABS(dq[i]) / (i - k0 == 2 ? 1 : a->lscale);
            if (r > sc) sc = r;
        }
    }
    if (!(sc > 0)) return;
    mb_real h = MB_R(1e-3) / sc;
    for (int pass = 0; pass < 2; pass++, h /= 2) {
        for (int i = 0; i < n; i++) qs[i] = q[i] + h * dq[i];
        m->gamma(m, t, qs, v, gp);
        for (int i = 0; i < n; i++) qs[i] = q[i] - h * dq[i];
        m->gamma(m, t, qs, v, gm);
        for (int r = 0; r < nc; r++) {
            mb_real dd = (gp[r] - gm[r]) / (2 * h);
            if (pass == 0) d1[r] = dd;
            else r2[r] += (4 * dd - d1[r]) / 3;
        }
    }
}

/* Prepare the derivatives of the index-1 accelerations at (t, q, v) after mb_anl_reactions:
 * the force derivatives (dQq, dQv, Qu), Phi_qt (Pq0) and Phidot_q (Pqv). Scratch wn[9]. */
static void dacc_prepare(mb_anl *a, mb_real t, const mb_real *q, const mb_real *v)
{
    const mb_model *m = a->m;
    m->force(m, t, q, v, a->Q);
    m->dforce_dq(m, t, q, v, a->dQq);
    m->dforce_dv(m, t, q, v, a->dQv);
    if (m->nin > 0) m->dforce_du(m, t, q, v, a->Qu);
    mb_real *zv = a->wn[9];
    zero(a->n, zv);
    m->phi_q_dot(m, t, q, zv, a->Pq0);   /* Phi_qt: subtracted to leave (Phi_q)_q dq */
    m->phi_q_dot(m, t, q, v, a->Pqv);    /* Phidot_q = d(Phi_q v + Phi_t)/dq = -dGamma/dv / 2 */
}

/* The derivative of the index-1 accelerations (and multipliers) along one direction of the state
 * and inputs, at the state (t, q, v) prepared by dacc_prepare with its acc and lam: dq, dv [n]
 * (NULL: zero), the input direction: ucol >= 0 the unit vector of input ucol, else du [nin]
 * (NULL: zero). Differentiating M a + Phi_q^T lam = Q, Phi_q a = gamma:
 *   M da + Phi_q^T dlam = dQ - ((Phi_q)_q dq)^T lam             (r1)
 *   Phi_q da = dgamma - ((Phi_q)_q dq) a                         (r2)
 * with (Phi_q)_q dq from phi_q_dot (linear in its v argument), dGamma/dv dv = -2 Phidot_q dv
 * (exact), dgamma/dq dq by differences of m->gamma (gamma_q_dq), and gv Phi_q dv subtracted for
 * a gamma with a velocity term beyond Gamma's (Baumgarte's 2 xi omega Phi_q v). da [n] (scratch
 * wn[4] may be passed), dlam [nc] (NULL: not kept). Scratch wn[3], wn[4], wn[5], wm[0..4], Pqd. */
static void dacc_dir(mb_anl *a, mb_real t, const mb_real *q, const mb_real *v, const mb_real *acc,
                     const mb_real *lam, const mb_real *dq, const mb_real *dv, int ucol, const mb_real *du,
                     mb_real gv, mb_real *da, mb_real *dlam)
{
    const mb_model *m = a->m;
    int n = a->n, nc = a->nc, nin = m->nin, nnz = a->nnz;
    mb_real *r1 = a->wn[3], *r2 = a->wm[1], *y = a->wm[2], *G = a->Pqd;
    zero(n, r1);
    zero(nc, r2);
    if (ucol >= 0) for (int i = 0; i < n; i++) r1[i] = a->Qu[(long)i * nin + ucol];
    else if (du) for (int i = 0; i < n; i++) r1[i] = dot(nin, a->Qu + (long)i * nin, du);
    if (dq) sp_mv_add(&m->dq_dq_pat, a->dQq, dq, 1, r1);
    if (dv) sp_mv_add(&m->dq_dv_pat, a->dQv, dv, 1, r1);
    if (nc > 0) {
        if (dq) {   /* (Phi_q)_q dq: -(its)^T lambda in r1, -(it) acc in r2 */
            m->phi_q_dot(m, t, q, dq, G);
            for (int e = 0; e < nnz; e++) G[e] -= a->Pq0[e];
            pq_mtv(m, G, lam, -1, r1);
            pq_mv(m, G, acc, y);
            for (int r = 0; r < nc; r++) r2[r] -= y[r];
            gamma_q_dq(a, t, q, v, dq, r2);
        }
        if (dv) {
            pq_mv(m, a->Pqv, dv, y);   /* dGamma/dv dv = -2 Phidot_q dv */
            for (int r = 0; r < nc; r++) r2[r] -= 2 * y[r];
            if (gv != 0) {
                pq_mv(m, a->Pq, dv, y);
                for (int r = 0; r < nc; r++) r2[r] -= gv * y[r];
            }
        }
    }
    /* [M Phi_q^T; Phi_q 0] [da; dlam] = [r1; r2] through S: S dlam = Phi_q M^-1 r1 - r2 */
    mb_real *x = a->wn[4];
    for (int i = 0; i < n; i++) x[i] = a->minv[i] * r1[i];
    if (nc > 0) {
        pq_mv(m, a->Pq, x, y);
        for (int r = 0; r < nc; r++) y[r] -= r2[r];
        solve_s(a, y);
        if (dlam) copy(nc, dlam, y);
        pq_mtv(m, a->Pq, y, -1, r1);
        for (int i = 0; i < n; i++) x[i] = a->minv[i] * r1[i];
    }
    if (da != x) copy(n, da, x);
}

int mb_anl_dacc(mb_anl *a, mb_real t, const mb_real *q, const mb_real *v, const mb_real *dq,
                const mb_real *dv, const mb_real *du, mb_real gv, mb_real *acc, mb_real *lambda,
                mb_real *dacc, mb_real *dlambda)
{
    const mb_model *m = a->m;
    if (!m) return MB_ERR_STATE;
    if (a->level != MB_ANL_DENSE) return MB_ERR_WORKSPACE;
    if (!acc || !lambda || !dacc) return MB_ERR_PARAM;
    if (!m->gamma || (m->nin > 0 && !m->dforce_du)) return MB_ERR_MODEL;
    int n = a->n, st;
    if (!finite_vec(n, q) || !finite_vec(n, v)) return MB_ERR_NONFINITE;
    if ((st = mb_anl_reactions(a, t, q, v, acc, lambda))) return st;
    dacc_prepare(a, t, q, v);
    dacc_dir(a, t, q, v, acc, lambda, dq, dv, -1, du, gv, dacc, dlambda);
    if (!finite_vec(n, dacc) || (dlambda && !finite_vec(a->nc, dlambda))) return MB_ERR_NONFINITE;
    return MB_OK;
}

int mb_anl_linearize_ss(mb_anl *a, mb_real t, const mb_real *q, const mb_real *v, int nz,
                        const int *zsel, mb_anl_ss *out)
{
    const mb_model *m = a->m;
    if (!m) return MB_ERR_STATE;
    if (a->level != MB_ANL_DENSE) return MB_ERR_WORKSPACE;
    int n = a->n, nc = a->nc, nin = m->nin, st;
    if (!m->gamma || (nin > 0 && !m->dforce_du)) return MB_ERR_MODEL;
    if (!finite_vec(n, q) || !finite_vec(n, v)) return MB_ERR_NONFINITE;
    /* the state's accelerations and multipliers (S factored with the rank test: a singular
     * position or a redundant constraint stops here, with singular_row) */
    if ((st = mb_anl_reactions(a, t, q, v, out->acc, out->lambda))) return st;
    if (nc > n) return MB_ERR_SINGULAR;
    const mb_real *acc = out->acc, *lam = out->lambda;
    dacc_prepare(a, t, q, v);
    /* the dependent coordinates and the LU of their block Phi_w (nc x nc, in Kch) */
    int *zidx = out->zidx, d = n - nc;
    const mb_pattern *pat = &m->phi_q_pat;
    mb_real *J = a->J;
    for (long i = 0; i < (long)n * nc; i++) J[i] = 0;
    for (int e = 0; e < pat->nnz; e++) J[pat->col[e] + (long)pat->row[e] * n] += a->Pq[e];
    unsigned char *isdep = (unsigned char *)a->F2;   /* 4n^2 reals: room for n flags */
    if (zsel) {
        if (nz != d) return MB_ERR_PARAM;
        for (int k = 0; k < n; k++) isdep[k] = 1;
        for (int j = 0; j < nz; j++) {
            if (zsel[j] < 0 || zsel[j] >= n || !isdep[zsel[j]]) return MB_ERR_PARAM;
            isdep[zsel[j]] = 0;
        }
    } else if (choose_dependent(a, isdep) != nc) {
        return MB_ERR_SINGULAR;
    }
    int nzc = 0, nw = 0;
    if (zsel) for (int j = 0; j < nz; j++) zidx[nzc++] = zsel[j];
    else for (int k = 0; k < n; k++) if (!isdep[k]) zidx[nzc++] = k;
    for (int k = 0; k < n; k++) if (isdep[k]) zidx[d + nw++] = k;
    mb_real *W = a->Kch;
    int *piv = a->piv2;
    for (int j = 0; j < nc; j++)
        for (int r = 0; r < nc; r++) W[r + (long)j * nc] = J[zidx[d + j] + (long)r * n];
    if (nc > 0 && (st = mb_lu_factor(nc, W, piv, a->p.rank_tol, NULL)))
        return st == MB_ERR_SINGULAR && zsel ? MB_ERR_PARAM : st;
    /* T (n x d, column j in Ks + j n): dq/dz_j; V (in Ev): dv/dz_j at fixed z' */
    mb_real *T = a->Ks, *V = a->Ev, *b = a->wm[1];
    for (int j = 0; j < d; j++) {
        mb_real *Tj = T + (long)j * n, *Vj = V + (long)j * n;
        zero(n, Tj);
        Tj[zidx[j]] = 1;
        for (int r = 0; r < nc; r++) b[r] = -J[zidx[j] + (long)r * n];
        if (nc > 0) mb_lu_solve(nc, W, piv, b);
        for (int r = 0; r < nc; r++) Tj[zidx[d + r]] = b[r];
        pq_mv(m, a->Pqv, Tj, b);
        for (int r = 0; r < nc; r++) b[r] = -b[r];
        if (nc > 0) mb_lu_solve(nc, W, piv, b);
        zero(n, Vj);
        for (int r = 0; r < nc; r++) Vj[zidx[d + r]] = b[r];
    }
    /* the columns of [A B]: da for each direction (dq, dv, du) of z, z', u */
    int d2 = 2 * d;
    mb_real *dq = a->wn[1], *dv = a->wn[2], *x = a->wn[4];
    for (int col = 0; col < d2 + nin; col++) {
        int kind = col < d ? 0 : col < d2 ? 1 : 2, j = kind == 0 ? col : kind == 1 ? col - d : col - d2;
        zero(n, dq);
        zero(n, dv);
        if (kind == 0) { copy(n, dq, T + (long)j * n); copy(n, dv, V + (long)j * n); }
        else if (kind == 1) copy(n, dv, T + (long)j * n);
        dacc_dir(a, t, q, v, acc, lam, kind == 0 ? dq : NULL, kind < 2 ? dv : NULL, kind == 2 ? j : -1, NULL, 0,
                 x, out->dlambda ? a->wm[2] : NULL);
        if (out->dlambda)
            for (int r = 0; r < nc; r++) out->dlambda[(long)r * (d2 + nin) + col] = a->wm[2][r];
        for (int i = 0; i < d; i++) {
            mb_real da = x[zidx[i]];
            if (kind < 2) {
                out->A[(long)i * d2 + col] = kind == 1 && i == j ? 1 : 0;   /* dz'/dx */
                out->A[(long)(d + i) * d2 + col] = da;
            } else {
                out->B[(long)i * nin + j] = 0;
                out->B[(long)(d + i) * nin + j] = da;
            }
        }
    }
    /* the full state of the linearized one: dq = [T 0] dx, dv = [V T] dx */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < d; j++) {
            out->dq_dx[(long)i * d2 + j] = T[i + (long)j * n];
            out->dq_dx[(long)i * d2 + d + j] = 0;
            out->dv_dx[(long)i * d2 + j] = V[i + (long)j * n];
            out->dv_dx[(long)i * d2 + d + j] = T[i + (long)j * n];
        }
    out->d = d;
    if (!finite_vec(d2 * d2, out->A) || !finite_vec(d2 * nin, out->B)) return MB_ERR_NONFINITE;
    return MB_OK;
}
