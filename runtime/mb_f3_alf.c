/* mb_f3_alf.c - F3 alf-explicit (5.30-5.37): the augmented Lagrangian velocity / sigma~
 * iteration (also F4's start-up evaluation), the right-hand side and the sigma reset of 6.3.4.
 * Layer: runtime core, one row of the formulation table (mb_sim_impl.h); no allocation. */
#include "mb_sim_impl.h"

#if MBI_F3 || MBI_F4
/* M + a Phi_q^T Phi_q straight into the plan storage (mb_model.h: mb_plan; E = a Phi_q, D =
 * Phi_q, or the model's unrolled matrix) and factored in the linear-system slot: SPD even at
 * singular positions */
static int alf_matrix_factor(mb_sim *s, const mb_real *Pq, mb_real a)
{
#if MB_WITH_F3_KERNEL
    const mb_f3_kernels *K = s->m->plan->f3;
    if (K) K->matrix(s->FA, s->m->mass, Pq, a);
    else
#endif
    {
        mb_real *Ek = s->Ek;
        for (int j = 0, nnz = s->nnz; j < nnz; j++) Ek[j] = a * Pq[j];
        mbi_assemble_a(s, Ek, Pq, 0);
    }
    return mbi_ls_factor(s, MB_MAT_A_SYM, 0);
}

#if !MBI_ONLY
/* b = Phi_t + c1 Phi + c2 I in pairs on restrict parameters (packed; the products and sums of
 * the plain loop, c1 = 2 xi w and c2 = w^2 formed as there: the same bits) */
static void stab_b(int nc, mb_real *restrict b, const mb_real *restrict pt, const mb_real *restrict ph,
                   const mb_real *restrict I, mb_real c1, mb_real c2)
{
    int r = 0;
    for (; r + 1 < nc; r += 2) {
        b[r] = pt[r] + c1 * ph[r] + c2 * I[r];
        b[r + 1] = pt[r + 1] + c1 * ph[r + 1] + c2 * I[r + 1];
    }
    if (r < nc) b[r] = pt[r] + c1 * ph[r] + c2 * I[r];
}
#endif

/* F3 (5.31-5.37): (M + a Phi_q^T Phi_q) v = p - Phi_q^T (a b + sigma~), b = Phi_t + 2 xi w Phi
 * + w^2 I; sigma~ += a (Phi_q v + b) (5.34) until |v_i+1 - v_i| < tol; pdot = Q + Phidot_q^T
 * sigma~ (5.32 with the updated sigma~ = sigma~ + a Phidot-term). sigma~ is warm-started from the
 * previous evaluation. v, sigma~ go to ev_v, ev_sig.
 * |.| is the RMS over the n coordinates, sqrt(dv / n): the accuracy tol asks of each coordinate
 * does not change with their number. A 2-norm asks sqrt(n) times more of each coordinate of a
 * chain of n (the 1000-link chain, rk4 at h = 1e-3, its first 100 steps: 4.43 iterations per
 * right-hand side instead of 3.49; N = 10: 2.50 and 2.42). */
int mbi_alf_velocity(mb_sim *s, mb_real t, const mb_real *q, const mb_real *p, const mb_real *I)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
    const MBI_VIEW(MB_VIEW_F3) k = MBI_VIEW_OF(MB_VIEW_F3);   /* its blocks (mb_layout.h) */
    mb_real *b = k.b, *c = s->cv, *rhs = k.rhs, *vold = k.vold, *sig = s->ev_sig;
    const mb_real *Pq = s->Pq;
    mb_real a = s->p.alpha, xi = s->p.xi, w = s->p.omega;
    mbi_eval_kin(s, t, q);
    /* (ev_v read first and b formed after: with the trapezoid, F4's start-up keeps ev_v in the
     * block that also holds Ek, and Ek reaches over b's, mb_layout.h) */
    copy(n, vold, s->ev_v);
#if MB_WITH_F3_KERNEL
    /* the model's unrolled kernels (mb_plan.f3): where A is factored on the plan (not KLU, not
     * the dense back end), the matrix with its factorization in one and the iteration's pass */
    const mb_f3_kernels *K = m->plan->f3;
    mb_real (*iter)(const mb_real *, const mb_real *, const mb_real *, const mb_real *, mb_real *,
                    mb_real *, mb_real) = K && !s->p.linsys_ops ? K->iter : NULL;
#if MB_WITH_DENSE
    if (s->p.linsys == MB_LINSYS_DENSE) iter = NULL;
#endif
    int st = iter ? mbi_ls_factored_a(s, K->factor(s->FA, m->mass, Pq, a))
                  : alf_matrix_factor(s, Pq, a);
#else
    int st = alf_matrix_factor(s, Pq, a);
#endif
    if (st) return st;
#if !MBI_ONLY
    stab_b(nc, b, s->Phit, s->Phi, I, 2 * xi * w, w * w);
#else
    for (int r = 0; r < nc; r++) b[r] = s->Phit[r] + 2 * xi * w * s->Phi[r] + w * w * I[r];
#endif
#if !MBI_ONLY
#if MB_WITH_F3_KERNEL
    if (!iter)   /* (the kernel's pass forms sb itself) */
#endif
        for (int r = 0; r < nc; r++) k.sb[r] = a * b[r] + sig[r];
#endif
    int it, conv = 0;
    for (it = 1; it <= s->p.max_iter; it++) {
#if MB_WITH_F3_KERNEL
        if (iter) {   /* the loops below in one call, v into vold */
            s->mon.solves++;
            mb_real dv = iter(s->FA, Pq, p, b, sig, vold, a);
            if (!(dv * 0 == 0) && !finite_vec(n, vold)) return MB_ERR_NONFINITE;
            if (MB_SQRT(dv / n) < s->p.tol) { conv = 1; break; }
            continue;
        }
#endif
        copy(n, rhs, p);
#if MBI_ONLY
        /* a firmware build keeps separate passes over the vectors: the fused ones of the
         * host's (below) cost flash, 56 B on the M4F, where F4's start-up calls this once;
         * the same arithmetic, the same values */
        const MBI_VIEW(MB_VIEW_F3) kk = MBI_VIEW_OF(MB_VIEW_F3);   /* sb: reloaded, not kept live */
        for (int r = 0; r < nc; r++) kk.sb[r] = a * b[r] + sig[r];
        pq_mtv(m, Pq, kk.sb, -1, rhs);
        mbi_ls_solve(s, MB_MAT_A_SYM, rhs);
        pq_mv(m, Pq, rhs, c);
        for (int r = 0; r < nc; r++) { c[r] += b[r]; sig[r] += a * c[r]; }
        mb_real dv = 0;
        for (int i = 0; i < n; i++) { mb_real e = rhs[i] - vold[i]; dv += e * e; }
        copy(n, vold, rhs);
        if (!finite_vec(n, rhs)) return MB_ERR_NONFINITE;
#else
        /* each pass over the vectors once an iteration: sb = a b + sigma~ is formed with the
         * update of sigma~ that precedes it (and before the loop), the change of v with its
         * copy */
        pq_mtv(m, Pq, k.sb, -1, rhs);
        mbi_ls_solve(s, MB_MAT_A_SYM, rhs);
        pq_mv(m, Pq, rhs, c);
        for (int r = 0; r < nc; r++) {
            mb_real cr = c[r] + b[r], sr = sig[r] + a * cr;
            sig[r] = sr;
            k.sb[r] = a * b[r] + sr;
        }
        mb_real dv = 0;
        for (int i = 0; i < n; i++) {
            mb_real x = rhs[i], e = x - vold[i];
            dv += e * e;
            vold[i] = x;
        }
        /* an Inf or NaN in v makes dv Inf or NaN (dv * 0 NaN), so v's own test runs only then */
        if (!(dv * 0 == 0) && !finite_vec(n, rhs)) return MB_ERR_NONFINITE;
#endif
        if (MB_SQRT(dv / n) < s->p.tol) { conv = 1; break; }
    }
    s->mon.alf_iters += it > s->p.max_iter ? s->p.max_iter : it;
    if (!conv) s->mon.maxiter_events++;
    copy(n, s->ev_v, vold);
    copy(nc, s->ev_S, sig);
    return MB_OK;
}
#endif

#if MBI_F3
/* alf_refine's passes over the vectors, each in pairs on restrict parameters (GCC packs a pair
 * into one vector operation only then; mb_trapezoid.c) and each entry's operations those of the
 * plain loop: the same bits. A maximum of |x| is the same value in any order (a NaN, which the
 * plain loop's test skips, is skipped in each lane), so the maxima run in two lanes. */
static inline mb_real max_abs(mb_real m, mb_real x)
{
    mb_real a = MB_FABS(x);
    return a > m ? a : m;
}

/* c += b, jd = sig + a c; returns max |b| */
static mb_real refine_c(int nc, mb_real *restrict c, mb_real *restrict jd, const mb_real *restrict sig,
                        const mb_real *restrict b, mb_real a)
{
    mb_real m0 = 0, m1 = 0;
    int r = 0;
    for (; r + 1 < nc; r += 2) {
        mb_real c0 = c[r] + b[r], c1 = c[r + 1] + b[r + 1];
        c[r] = c0;
        c[r + 1] = c1;
        jd[r] = sig[r] + a * c0;
        jd[r + 1] = sig[r + 1] + a * c1;
        m0 = max_abs(m0, b[r]);
        m1 = max_abs(m1, b[r + 1]);
    }
    if (r < nc) {
        mb_real c0 = c[r] + b[r];
        c[r] = c0;
        jd[r] = sig[r] + a * c0;
        m0 = max_abs(m0, b[r]);
    }
    return m1 > m0 ? m1 : m0;
}

/* d = p - M v */
static void refine_d(int n, mb_real *restrict d, const mb_real *restrict p, const mb_real *restrict mass,
                     const mb_real *restrict v)
{
    int i = 0;
    for (; i + 1 < n; i += 2) {
        d[i] = p[i] - mass[i] * v[i];
        d[i + 1] = p[i + 1] - mass[i + 1] * v[i + 1];
    }
    if (i < n) d[i] = p[i] - mass[i] * v[i];
}

/* max |x| over n entries */
static mb_real refine_absmax(int n, const mb_real *restrict x)
{
    mb_real m0 = 0, m1 = 0;
    int i = 0;
    for (; i + 1 < n; i += 2) {
        m0 = max_abs(m0, x[i]);
        m1 = max_abs(m1, x[i + 1]);
    }
    if (i < n) m0 = max_abs(m0, x[i]);
    return m1 > m0 ? m1 : m0;
}

/* y = x + y (the sum stored over y); returns max |y| and in *fz the sum of y * 0 (+-0 while
 * every y is finite, else NaN) */
static mb_real refine_sum(int n, const mb_real *restrict x, mb_real *restrict y, mb_real *fz)
{
    mb_real m0 = 0, m1 = 0, z0 = 0, z1 = 0;
    int i = 0;
    for (; i + 1 < n; i += 2) {
        mb_real y0 = x[i] + y[i], y1 = x[i + 1] + y[i + 1];
        y[i] = y0;
        y[i + 1] = y1;
        z0 += y0 * 0;
        z1 += y1 * 0;
        m0 = max_abs(m0, y0);
        m1 = max_abs(m1, y1);
    }
    if (i < n) {
        mb_real y0 = x[i] + y[i];
        y[i] = y0;
        z0 += y0 * 0;
        m0 = max_abs(m0, y0);
    }
    *fz = z0 + z1;
    return m1 > m0 ? m1 : m0;
}

/* y = x + y; returns max |y| (refine_sum without the finiteness sum) */
static mb_real refine_summax(int n, const mb_real *restrict x, mb_real *restrict y)
{
    mb_real m0 = 0, m1 = 0;
    int i = 0;
    for (; i + 1 < n; i += 2) {
        mb_real y0 = x[i] + y[i], y1 = x[i + 1] + y[i + 1];
        y[i] = y0;
        y[i + 1] = y1;
        m0 = max_abs(m0, y0);
        m1 = max_abs(m1, y1);
    }
    if (i < n) {
        mb_real y0 = x[i] + y[i];
        y[i] = y0;
        m0 = max_abs(m0, y0);
    }
    return m1 > m0 ? m1 : m0;
}

/* y += a x */
static void refine_axpy(int n, mb_real *restrict y, mb_real a, const mb_real *restrict x)
{
    int i = 0;
    for (; i + 1 < n; i += 2) {
        y[i] += a * x[i];
        y[i + 1] += a * x[i + 1];
    }
    if (i < n) y[i] += a * x[i];
}

/* F3's right-hand side after the iteration has stopped: one more pass of it in residual form,
 * d = A^-1 (p - M v - Phi_q^T (sigma~ + a c)), v += d, sigma~ += a (c + Phi_q d), c = Phi_q v + b
 * (the same step as the loop's in exact arithmetic). The loop's own values carry round-off of
 * alpha eps whatever its stop: its v is the solve of A = M + a Phi_q^T Phi_q, whose factors hold
 * M's part (the tangent directions' mass) only to a eps of A's size, and each update of sigma~
 * adds a times the rounding of c = Phi_q v + b (eps |Phi_q| |v|). In residual form M v enters
 * unrounded by a, and c is the same value in d's right-hand side and in sigma~'s update, where
 * its rounding cancels to (I - a Phi_q A^-1 Phi_q^T) c, M / (a |Phi_q|^2) of it: v and sigma~
 * within a few eps. Measured (rk4, err against the exact solutions, docs/validation.md section
 * 10): the A01 pendulum at h = 1e-4 over 20 s 2.1e-10 -> 9.2e-12 (alpha 1e9: 9.5e-8 -> 2.6e-12),
 * Andrews at h = 1e-6 5.0e-7 -> 8.6e-11; a tighter --tol (to 1e-16) had left both where they
 * were. Not in F4's start-up (mbi_alf_velocity alone: its results unchanged). Counted in
 * alf_iters and solves. Taken only where it keeps the velocity constraints (below): taken
 * everywhere, it left the chain N = 2 with dop853 at rtol 1e-10 to 2 s at 2.3e-5 of its size
 * (median of 18 runs; 1.0e-7 without the pass, 8.3e-8 with the test; docs/validation.md
 * section 10). Its passes over the vectors are the helpers above, the maxima of the test formed
 * in the passes that already read their vectors (|b| with c, |v + d| with the sum, which d
 * keeps, |c + Phi_q d| with the sum, which jd keeps, for the updates). */
static int alf_refine(mb_sim *s, const mb_real *p)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
    const MBI_VIEW(MB_VIEW_F3) k = MBI_VIEW_OF(MB_VIEW_F3);   /* b as the loop left it */
    mb_real *v = s->ev_v, *sig = s->ev_sig, *c = s->cv, *d = k.rhs, *jd = k.sb;
    const mb_real *Pq = s->Pq, *mass = m->mass, *b = k.b;
    mb_real a = s->p.alpha;
    pq_mv(m, Pq, v, c);
    mb_real bm = refine_c(nc, c, jd, sig, b, a);   /* c = Phi_q v + b, jd = sigma~ + a c */
    refine_d(n, d, p, mass, v);
    pq_mtv(m, Pq, jd, -1, d);
    mbi_ls_solve(s, MB_MAT_A_SYM, d);
    s->mon.alf_iters++;
    /* taken only where v + d keeps c = Phi_q v + b at its round-off (2 eps of its terms'
     * size), as the loop's v does. Where it would not (its residual is damped only by M / (M +
     * alpha s^2) along a singular value s of Phi_q: on the approach to a singular position),
     * q' = v would carry it along the direction the constraints are about to lose, which the
     * passage amplifies; the loop's v and sigma~ stay then. On the pendulum, Andrews and the
     * crank-rocker it never declines (at eps it does, on the pendulum). A NaN or Inf in v + d
     * fails it too (fz; the maxima skip a NaN): the loop's finite values stay. */
    pq_mv(m, Pq, d, jd);
    mb_real fz;                                      /* +-0 while v + d is finite */
    mb_real vm = refine_sum(n, v, d, &fz);           /* d = v + d */
    mb_real cm = refine_summax(nc, c, jd);           /* jd = c + Phi_q d */
    if (!(fz == 0)) return MB_OK;
    /* max |Phi_q| (pm) over all its entries only where the test fails with that over the first
     * few, pl <= pm: with vm > 0 (and every operand >= 0, finite but for pm, pl) the rounded
     * pl vm + bm is at most pm vm + bm, so passing with pl is passing with pm (an Inf in
     * Phi_q makes pm vm Inf and the test pass either way); the same decisions as the whole
     * maximum, which costs a pass over Phi_q every right-hand side */
    int nnz = s->nnz, few = nnz < 8 ? nnz : 8;
    mb_real pl = refine_absmax(few, Pq);
    if (!(vm > 0 && cm <= 2 * MB_EPS * (pl * vm + bm))) {
        mb_real pm = few < nnz ? refine_absmax(nnz, Pq) : pl;
        if (!(cm <= 2 * MB_EPS * (pm * vm + bm))) return MB_OK;
    }
    copy(n, v, d);
    refine_axpy(nc, sig, a, jd);                     /* sigma~ += a (c + Phi_q d) */
    return MB_OK;
}

static int rhs_alf(mb_sim *s, mb_real t, const mb_real *z, mb_real *f)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
    const mb_real *q = z;
    int st = mbi_alf_velocity(s, t, q, z + n, z + 2 * n);
    if (!st) st = alf_refine(s, z + n);
    if (st) return st;
    mbi_eval_force_pqd(s, t, q, s->ev_v);
    copy(n, f, s->ev_v);
    copy(n, f + n, s->Q);
    pq_mtv(m, s->Pqd, s->ev_sig, 1, f + n);
    copy(nc, f + 2 * n, s->Phi);
    return MB_OK;
}

/* After an accepted step: the sigma reset of 6.3.4 (mb_f2_canonical.c); sigma~'s warm start
 * restarts from zero with it. */
static int accept_alf(mb_sim *s, int *reeval)
{
    int st = mbi_sigma_reset(s, reeval);
    if (st == MB_EVENT_SIGMA_RESET) zero(s->nc, s->ev_sig);
    return st;
}

const mbi_form mbi_form_alf_explicit = {.rhs = rhs_alf, .accept = accept_alf};
#endif
