/* mb_f4_trapezoid.c - F4 alf-trapezoid (5.38-5.60): the implicit trapezoidal step with Newton on
 * [q; p] and sigma~ updated by 5.34, its optional full Jacobian, start-up and failure restore.
 * Layer: runtime core, one row of the formulation table (mb_sim_impl.h: its own integrator);
 * never allocates or prints. */
#include "mb_sim_impl.h"
#include "mb_sparse.h"

#if MBI_F4

/* ------------------------------------------------------------------ Newton step */

/* A Newton step that stops at max_iter with a last correction above NEWTON_FAR (1 + |y|_inf) is
 * diverging, below it merely slow (kept, MB_EVENT_NEWTON_MAXITER). 1e-6 in double; in float
 * 1e-6 is 8 eps, and a float iteration that has stalled at its rounding floor still corrects
 * by up to 12 eps of the state (double pendulum, alpha 1e5: 2e-7 .. 1.4e-6 relative), so the
 * floor is 1000 eps: 1.2e-4 in float (100x above that noise), unchanged 1e-6 in double. */
#define NEWTON_FAR (MB_R(1e-6) > 1000 * MB_EPS ? MB_R(1e-6) : 1000 * MB_EPS)

/* Round-off stall: a correction below NEWTON_ROUNDOFF |y|_2 is noise of the residual's rounding
 * (the float iteration above stalls at up to 12 eps); when it has not halved the smallest one
 * for NEWTON_STALL iterations in a row, tol is below what the arithmetic resolves and more
 * iterations change nothing: the step is accepted as converged (mon.newton_roundoff). */
#define NEWTON_ROUNDOFF (100 * MB_EPS)
#define NEWTON_STALL 3


#if MBI_FJ
/* The terms 5.45-5.47 neglect: (Phi_q^T s)_q, (Phidot_q^T s)_q and (Phidot_q^T s)_v with
 * s = sigma~ + alpha c held fixed, by central differences of the model's Phi_q and Phidot_q
 * (the interface has no second derivatives). Adds h/2 K1 - h^2/4 K2q - h/2 K2v to the reduced
 * matrix in the plan storage FA and keeps K2 = h/2 K2q + K2v for 5.53 in scr + n*n (dense; the
 * terms lie on the pattern of Phi_q^T Phi_q, so every non-zero has its place in FA). Cost: 4n
 * extra Jacobians. */
void mbi_geometric_terms(mb_sim *s, mb_real t1, mb_real *q, const mb_real *sv, mb_real h)
{
    const mb_model *m = s->m;
    int n = s->n;
    mb_real *A = s->scr, *K2 = s->scr + (size_t)n * n, *col = s->tn[5], *cm = s->tn[6];
    mb_real *Pt = s->tn[7], *vv = s->tn[4];
    mb_real *Ptmp = s->kb;   /* kb holds nnz values */
    for (long k = 0; k < (long)n * n; k++) A[k] = 0;
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
        /* (Phidot_q^T s)_v column j: Phidot_q = (Phi_q)_q v + Phi_qt is affine in v, so the
         * column is Phidot_q(e_j) - Phidot_q(0) */
        zero(n, vv); vv[j] = 1;
        m->phi_q_dot(m, t1, q, vv, Ptmp); zero(n, Pt); sp_mtv_add(&m->phi_q_pat, Ptmp, sv, 1, Pt);
        vv[j] = 0;
        m->phi_q_dot(m, t1, q, vv, Ptmp); sp_mtv_add(&m->phi_q_pat, Ptmp, sv, -1, Pt);
        for (int i = 0; i < n; i++) {
            K2[i + (long)j * n] += Pt[i];
            A[i + (long)j * n] -= h / 2 * K2[i + (long)j * n];
        }
    }
    const mb_symbolic *sy = &m->plan->a;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            mb_real e = A[i + (long)j * n];
            if (e == 0) continue;
            int d = mb_sp_locate(sy, sy->pinv[i], sy->pinv[j]);
            if (d >= 0) s->FA[d] += e;
        }
}
#endif

/* The reduced Newton matrix (5.45, 5.47, 5.52) straight into the plan storage FA:
 * M + a (Phi_q - h/2 Phidot_q)^T D - h^2/4 dQ/dq - h/2 dQ/dv with D = c1 Phi_q + c2 IPq +
 * h/2 Phidot_q = h/2 dc/dq (see trap_step). Each term pairs two entries k, l of one row of
 * Phi_q (mb_plan a_k, a_l): its lower-triangle value goes to a_dst, its transpose nl further. */
void mbi_newton_matrix(mb_sim *s, mb_real a, mb_real c1, mb_real c2, mb_real h)
{
    const mb_model *m = s->m;
    const mb_plan *P = m->plan;
    mb_real *A = s->FA, *E = s->Ek, *D = s->Dk;
    for (int k = 0; k < s->nnz; k++) {   /* the two factors of every term, once per entry */
        E[k] = a * (s->Pq[k] - h / 2 * s->Pqd[k]);
        D[k] = c1 * s->Pq[k] + c2 * s->IPq[k] + h / 2 * s->Pqd[k];
    }
    mbi_assemble_a(s, E, D, 1);
    for (int k = 0; k < m->dq_dq_pat.nnz; k++) A[P->dqq_dst[k]] -= h * h / 4 * s->dQq[k];
    for (int k = 0; k < m->dq_dv_pat.nnz; k++) A[P->dqv_dst[k]] -= h / 2 * s->dQv[k];
}

/* One implicit trapezoid step of F4 (5.54-5.60), Newton on y = [q; p] with the reduced n x n
 * system (5.52, 5.53) and sigma~ updated by 5.34 after each update of y.
 * The matrix differentiates c = Phi_q v + Phi_t + 2 xi w Phi + w^2 I (v = 2/h (q - q_k) - v_k)
 * fully: h/2 dc/dq = c1 Phi_q + h/2 Phidot_q, where the thesis (5.45-5.47) keeps c1 Phi_q only
 * (and adds c2 IPq, kept). At a singular position, u^T Phi_q = 0 for the lost-rank direction u,
 * so u^T c depends on q only through u^T Phidot_q: without that term Newton does not see it, and
 * the sigma~ update 5.34 pumps u^T sigma~ by alpha u^T c every iteration - the iteration
 * diverged on every step that landed on the four-bar's singular position. */
/* Modified Newton (newton_reuse): the factorization of a step's first iteration is kept while
 * every correction is at most REUSE_RATE times the one before; a slower one refactors at the
 * next iteration. Never across steps: with alpha ~ 1e8 a matrix one step old is off by
 * ~alpha |dq| in the mass-dominated directions and the next step converged in more iterations
 * than the factorizations saved (Andrews, chain, double pendulum all slower). */
#define REUSE_RATE MB_R(0.25)

static int trap_step(mb_sim *s, mb_real h, int full, int *stale_used)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc, nnz = s->nnz;
    mb_real *q = s->z, *p = s->z + n, *I = s->z + 2 * n;
    mb_real *qk = s->zk, *pk = s->zk + n, *vk = s->yd, *pdk = s->yd + n;
    mb_real *g1 = s->tn[0], *g2 = s->tn[1], *dq = s->tn[2], *dp = s->tn[3], *sv = s->tm[0];
    mb_real *c = s->cv, *tmpm = s->tm[1], *tmpn = s->tn[4];
    mb_real a = s->p.alpha, xi = s->p.xi, w = s->p.omega, t1 = s->t + h;
    mb_real c1 = 1 + h * xi * w, c2 = h * w * w / 2;
    copy(s->nz, s->zk, s->z);
    copy(n, vk, s->v);
    copy(n, pdk, s->pd);
    /* 5.54, 5.55: explicit Euler for Int Phi and Int Phi_q using q_k */
    m->phi(m, s->t, qk, s->Phi);
    m->phi_q(m, s->t, qk, s->Pq);
    for (int r = 0; r < nc; r++) I[r] += h * s->Phi[r];
    for (int k = 0; k < nnz; k++) s->IPq[k] += h * s->Pq[k];
    /* 5.56-5.58: predictor */
    for (int i = 0; i < n; i++) { q[i] = qk[i] + h * vk[i]; p[i] = pk[i] + h * pdk[i]; }
    int it, conv = 0, stall = 0, refresh = full || !s->p.newton_reuse;
    mb_real ny = 0, best = MB_R(1e30), ny_prev = 0;
    *stale_used = 0;
    s->fact_valid = 0;
    for (it = 0;; it++) {
        /* 5.59: derivatives of the current iterate */
        for (int i = 0; i < n; i++) {
            s->v[i] = 2 / h * (q[i] - qk[i]) - vk[i];
            s->pd[i] = 2 / h * (p[i] - pk[i]) - pdk[i];
        }
        /* an iteration that will refactor needs the dynamics at this state too: one fused call */
        int last = conv || it == s->p.max_iter, fresh = refresh || !s->fact_valid;
        if (!last && fresh) mbi_eval_kin_dyn(s, t1, q, s->v);
        else mbi_eval_kin(s, t1, q);
        sp_mv(&m->phi_q_pat, s->Pq, s->v, c, nc);
        for (int r = 0; r < nc; r++) c[r] += s->Phit[r] + 2 * xi * w * s->Phi[r] + w * w * I[r];
        if (it > 0)                                   /* 5.34 after each update of y */
            for (int r = 0; r < nc; r++) s->sig[r] += a * c[r];
        if (last) break;
        for (int r = 0; r < nc; r++) sv[r] = s->sig[r] + a * c[r];
        if (!fresh) {   /* the force Jacobians enter only the matrix and 5.53 */
            m->force(m, t1, q, s->v, s->Q);
            m->phi_q_dot(m, t1, q, s->v, s->Pqd);
        }
        /* residuals 5.41, 5.42 */
        for (int i = 0; i < n; i++) { g1[i] = m->mass[i] * s->v[i] - p[i]; g2[i] = s->pd[i] - s->Q[i]; }
        for (int k = 0; k < nnz; k++) {   /* + Phi_q^T s, - Phidot_q^T s in one pass */
            int cj = m->phi_q_pat.col[k];
            mb_real sr = sv[m->phi_q_pat.row[k]];
            g1[cj] += s->Pq[k] * sr;
            g2[cj] -= s->Pqd[k] * sr;
        }
        for (int i = 0; i < n; i++) { g1[i] *= h / 2; g2[i] *= h / 2; }
        if (fresh) {   /* reduced matrix dg1/dq + h/2 dg2/dq (5.45, 5.47, 5.52) */
            s->fact_valid = 0;
            mbi_newton_matrix(s, a, c1, c2, h);
#if MBI_FJ
            if (s->p.full_jacobian) mbi_geometric_terms(s, t1, q, sv, h);
#endif
            int st = mbi_ls_factor(s, MB_MAT_A_LU, 0);
            if (st) return st;
            s->fact_valid = 1;
            refresh = full || !s->p.newton_reuse;
        } else {
            *stale_used = 1;
        }
        for (int i = 0; i < n; i++) dq[i] = -g1[i] - h / 2 * g2[i];
        mbi_ls_solve(s, MB_MAT_A_LU, dq);
        /* 5.53: dp = -g2 - dg2/dq dq, dg2/dq = -h/2 dQ/dq - dQ/dv
         *                                   - Phidot_q^T a (c1 Phi_q + c2 IPq + h/2 Phidot_q) */
        for (int i = 0; i < n; i++) dp[i] = -g2[i];
        zero(n, tmpn);
        for (int k = 0; k < m->dq_dq_pat.nnz; k++) tmpn[m->dq_dq_pat.row[k]] += h / 2 * s->dQq[k] * dq[m->dq_dq_pat.col[k]];
        for (int k = 0; k < m->dq_dv_pat.nnz; k++) tmpn[m->dq_dv_pat.row[k]] += s->dQv[k] * dq[m->dq_dv_pat.col[k]];
        sp_mv(&m->phi_q_pat, s->Dk, dq, tmpm, nc);   /* a D dq (Dk: the matrix's, kept) */
        for (int r = 0; r < nc; r++) tmpm[r] *= a;
        sp_mtv_add(&m->phi_q_pat, s->Pqd, tmpm, 1, tmpn);
#if MBI_FJ
        if (s->p.full_jacobian) {            /* + K2 dq */
            const mb_real *K2 = s->scr + (size_t)n * n;
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++) tmpn[i] += K2[i + (long)j * n] * dq[j];
        }
#endif
        for (int i = 0; i < n; i++) dp[i] += tmpn[i];
        ny = MB_SQRT(dot(n, dq, dq) + dot(n, dp, dp));     /* 5.60 */
        if (!isfinite(ny)) return MB_ERR_NONFINITE;       /* a NaN or Inf in dq or dp */
        for (int i = 0; i < n; i++) { q[i] += dq[i]; p[i] += dp[i]; }
        s->mon.newton_iters++;
        if (!fresh && ny_prev > 0 && ny > REUSE_RATE * ny_prev) refresh = 1;
        ny_prev = ny;
        if (ny < s->p.tol) { conv = 1; continue; }
        if (ny > NEWTON_ROUNDOFF * MB_SQRT(dot(2 * n, s->z, s->z)) || ny < best / 2) stall = 0;
        else if (++stall >= NEWTON_STALL) { conv = 1; s->mon.newton_roundoff++; }
        if (ny < best) best = ny;
    }
    if (!finite_vec(s->nz, s->z) || !finite_vec(nc, s->sig)) return MB_ERR_NONFINITE;
    copy(nc, s->S, s->sig);
    if (!conv) {
        s->mon.maxiter_events++;
        /* Far from converged (last correction above NEWTON_FAR of the state's size): diverging,
         * not merely slow; never continue silently from there. */
        mb_real ys = 1 + nrminf(2 * n, s->z);
        if (s->p.strict_newton || ny > NEWTON_FAR * ys) return MB_ERR_NEWTON;
        return MB_EVENT_NEWTON_MAXITER;
    }
    return MB_OK;
}

/* ------------------------------------------------------------------ start-up and step */

static int trap_start(mb_sim *s, mb_real t0)
{
    const mb_model *m = s->m;
    int n = s->n, st;
    /* step 5 of 5.4.2: ydot_0 from the F3 evaluation H */
    if ((st = mbi_alf_velocity(s, t0, s->z, s->z + n, s->z + 2 * n))) return st;
    m->force(m, t0, s->z, s->ev_v, s->Q);
    m->phi_q_dot(m, t0, s->z, s->ev_v, s->Pqd);
    copy(n, s->pd, s->Q);
    sp_mtv_add(&m->phi_q_pat, s->Pqd, s->ev_sig, 1, s->pd);
    return MB_OK;
}

/* Back to the step's start after trap_step (z, v, pdot, sigma, undo 5.55). */
static void trap_restore(mb_sim *s, mb_real h, mb_real t_old, const mb_real *sig_old)
{
    copy(s->nz, s->z, s->zk);
    copy(s->n, s->v, s->yd);
    copy(s->n, s->pd, s->yd + s->n);
    copy(s->nc, s->sig, sig_old);
    /* undo 5.55 (Int Phi_q enters only the Newton matrix: rounding here changes no converged
     * result, and saves a copy of it) */
    s->m->phi_q(s->m, t_old, s->z, s->Pq);
    for (int k = 0; k < s->nnz; k++) s->IPq[k] -= h * s->Pq[k];
    s->t = t_old;
}

static int step_trapezoid(mb_sim *s, mb_real h, mb_real t_new)
{
    int nc = s->nc;
    mb_real t_old = s->t, *sig_old = s->tm[2];
    copy(nc, sig_old, s->sig);
    int st, stale = 0;
    long me = s->mon.maxiter_events, nr = s->mon.newton_roundoff;
    for (int full = 0; full < 2; full++) {
        st = trap_step(s, h, full, &stale);
        if (st >= 0) {                  /* energies must be finite too */
            mb_real e[3];
            s->m->energy(s->m, t_old + h, s->z, s->v, e);
            if (!isfinite(e[0] + e[1] + e[2])) st = MB_ERR_NONFINITE;
        }
        if (st == MB_OK || st == MB_EVENT_SIGMA_RESET || !stale) break;
        /* not converged with a kept factorization: the same step again, refactoring at every
         * iteration, so reuse never changes whether or how well a step converges */
        trap_restore(s, h, t_old, sig_old);
        s->fact_valid = 0;
        s->mon.maxiter_events = me;
        s->mon.newton_roundoff = nr;
    }
    if (st < 0) {                       /* restore the last good step */
        trap_restore(s, h, t_old, sig_old);
        s->fact_valid = 0;
        return st;
    }
    s->t = t_new;
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
    return st;
}

const mbi_form mbi_form_alf_trapezoid = {NULL, NULL, trap_start, step_trapezoid};
#endif /* MBI_F4 */
