/* mb_trapezoid.c - the trapezoid integrator of an implicit formulation's equations (F4's row:
 * mb_f4_trapezoid.c): the implicit trapezoidal step with Newton on [q; p] (5.54-5.60), modified
 * Newton's matrix reuse, the held-multiplier retry of a diverging fixed step, the accepted
 * step's history. Its step control (Milne's device, the extrapolated trapezoid) and their dense
 * output: mb_trapezoid_control.c. Layer: runtime core, one row of the integrator table
 * (mb_sim_impl.h: trapezoid), above the formulation table; never allocates or prints. */
#include "mb_sim_impl.h"

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

/* Modified Newton (newton_reuse): the factorization of a step's first iteration is kept while
 * every correction is at most REUSE_RATE times the one before; a slower one refactors at the
 * next iteration. Never across steps: with alpha ~ 1e8 a matrix one step old is off by
 * ~alpha |dq| in the mass-dominated directions and the next step converged in more iterations
 * than the factorizations saved (Andrews, chain, double pendulum all slower). */
#define REUSE_RATE MB_R(0.25)
/* Whether to try reuse in a step at all: where the kept matrix contracts slowly (a stale
 * correction more than REUSE_SLOW of the one before: larger steps, faster dynamics) its first
 * stale iteration is mostly wasted and full Newton is cheaper (the 4-link chain at h = 1e-3:
 * 16 % more instructions with reuse in every step). Such a step makes the next REUSE_WAIT steps
 * (accepted ones: trap_accept) use full Newton, after which reuse is tried again; on Andrews
 * (h = 1e-5) every stale correction shrinks more than 10x and reuse stays on. Deterministic:
 * counts, not clocks. The first stale correction is judged on dq alone: the kept matrix enters
 * only dq's solve, while dp (5.53, at the current Jacobians) also carries what q's first
 * correction changed in the momenta beyond 5.53's terms, which no factorization changes and
 * which grows with the loads the constraints carry (the N-link chain, h = 1e-3, N = 1000: 9.6e-7
 * after 1.0e-5 with the kept matrix, 1.07e-6 after 1.01e-5 with a fresh one; judged on [dq;
 * dp] its waits refactored at every iteration for nothing, 2.25 factorizations a step instead
 * of 1.37 for the same 298 iterations over 100 steps). Later stale corrections are judged on
 * [dq; dp]: their dq carries what dp's correction feeds back. */
#define REUSE_SLOW MB_R(0.1)
#define REUSE_WAIT 32
/* The rate-based stop (trap_step) accepts an iterate whose estimated remaining error is below
 * NEWTON_KAPPA tol. The test |dy| < tol alone leaves about theta tol (theta << 1 here), so 1
 * would loosen what --tol means by 1/theta: in float at tol = 1e-4 the double pendulum's energy
 * error over 5 s grew from below 0.2 J to 0.24 J (test_embed). With 0.1, Andrews at h = 1e-5 to
 * t = 0.03 takes 7428 corrections instead of 8329 (86.6 M instructions instead of 92.2 M), its
 * angles within 2.5e-8 rad of before against the trapezoid's own 1.2e-5 rad (h against h/2). */
#define NEWTON_KAPPA MB_R(0.1)

/* Fixed steps: the iteration stops at tol_step = min(tol, NEWTON_LTE |dy_1|), |dy_1| the step's
 * first correction. With the AB2 predictor (trap_step) |dy_1| is about |y - y_pred| = (1/2) h^3
 * |y'''| (Milne: AB2's error constant 5/12, the trapezoid's -1/12), 6 times the step's local
 * truncation error, so the error Newton leaves (at most NEWTON_KAPPA tol_step) is below 0.6 % of
 * the truncation error of the same step, at every h, and the accumulated iteration error stays a
 * fraction of the global error instead of growing as (steps) x tol: the pendulum
 * (tests/models/acc_pendulum.lua, 100 s) 1.2e-4, 1.2e-6, 1.1e-8 at h = 1e-3, 1e-4, 1e-5 (with tol
 * alone 1.2e-4, 7.8e-4, 4.4e-3). No evaluation more: |dy_1| is the first iteration's norm. tol
 * stays the ceiling: once the iteration has met tol (as before) and a correction no longer
 * shrinks, or at max_iter, the step is converged (counted in newton_roundoff: the arithmetic or a
 * singular position, not the iteration, limits; the pendulum's |p| grows to 3e3 with sigma and
 * resolves only 6e-13; the parallelogram four-bar at h = 2.5e-4 went on from there to max_iter
 * and a newton warning at t = 0.875 s). Float: tol_step never
 * below NEWTON_FLOOR |y|_2 = 1000 eps |y|_2 (1.2e-4 |y|_2; its iteration stalls at up to 12 eps,
 * NEWTON_FAR), so a float tol (mb_sim.c, auto_tol) keeps its meaning; double has no floor (a
 * floor of even 1 eps |y|_2 held the pendulum at 1.0e-4 at h = 1e-5: |y|_2 is p's scale, q resolves far
 * finer). Step control (adaptive) has its own error test and keeps tol. */
#define NEWTON_LTE MB_R(0.01)
#define NEWTON_FLOOR (MB_EPS > MB_R(1e-10) ? 1000 * MB_EPS : 0)

/* Adaptive runs: Newton at max_iter keeps the step when its last correction is at most
 * NEWTON_KEEP of the error tolerance (weighted RMS, trap_wnorm): an iteration error that small
 * is noise next to the local error the step is allowed (near singular positions the iteration
 * stalls around 1e-9 above tol, while the step is good). Larger: the step is rejected. Fixed
 * steps: within NEWTON_KEEP of the step's first correction, no newton warning (trap_step). */
#define NEWTON_KEEP MB_R(0.1)

#if MBI_F4A

/* Weighted RMS of e = [eq; ep] (n each) over the components of [q; p], each scaled by
 * atol + rtol max(|y_k,i|, |y_i|) (zk: the step's start, z: its end), times c. */
static mb_real trap_wnorm(const mb_sim *s, const mb_real *eq, const mb_real *ep, mb_real c)
{
    int n = s->n;
    mb_real acc = 0;
    for (int i = 0; i < 2 * n; i++) {
        mb_real a = MB_FABS(s->zk[i]), b = MB_FABS(s->z[i]);
        mb_real sc = s->p.atol + s->p.rtol * (a > b ? a : b);
        mb_real e = c * (i < n ? eq[i] : ep[i - n]) / sc;
        acc += e * e;
    }
    return MB_SQRT(acc / (mb_real)(2 * n));
}
#endif

/* The iteration's bookkeeping across corrections (trap_judge) */
typedef struct {
    int stall, grow, refresh, met;
    mb_real best, ny_last, tol, ny1;
    mb_real sq;                /* |dq|_2^2 of the last correction (REUSE_SLOW) */
#if MB_FLOAT
    int floor;                 /* the last correction at the rounding floor (trap_judge) */
    mb_real nq, fr, fr_prev;   /* its |dq|_2, |tmpn|_2 (5.53's dg2/dq dq), the one before's */
#endif
} trap_nw;

/* After a correction of size ny (|[dq; dp]|_2, sq = |dq|_2^2; fresh: with a new factorization):
 * whether the iteration has converged (1), goes on (0) or diverges (MB_ERR_NEWTON, adaptive
 * only); a kept matrix that contracts slowly refreshes (k->refresh) and makes reuse wait
 * (reuse_slow). */
static int trap_judge(mb_sim *s, trap_nw *k, mb_real ny, mb_real sq, int fresh, int adapt, int it)
{
    mb_real ny_prev = k->ny_last;
    k->ny_last = ny;
    mb_real a = ny, b = ny_prev;   /* the slow test's sizes: [dq; dp], or at it 1 dq's squares */
    if (it == 1) a = sq, b = REUSE_SLOW * k->sq;
    k->sq = sq;
    if (!fresh && b > 0 && a > REUSE_SLOW * b) s->reuse_slow = 1;
    if (!fresh && ny_prev > 0 && ny > REUSE_RATE * ny_prev) k->refresh = 1;
    /* adaptive: two corrections in a row that grew (after the first sigma~ updates have
     * settled) mean divergence; stop now and let the step be retried smaller. (In float this
     * also fires on round-off: Andrews at its float tol 1e-7 with the extrapolated control;
     * exempting corrections below 100 eps |y| fixed that but, in double, let the parallelogram
     * chain at rtol 1e-9 carry 7385 steps at max_iter through a singular position, 11 J
     * off, instead of stopping: not kept) */
    k->grow = ny_prev > 0 && ny > ny_prev ? k->grow + 1 : 0;
    if (adapt && it >= 3 && k->grow >= 2 && ny > s->p.tol) { s->mon.maxiter_events++; return MB_ERR_NEWTON; }
    if (it == 0) k->ny1 = ny;
#if MB_FLOAT
    mb_real yn = MB_SQRT(dot(2 * s->n, s->z, s->z));   /* |y|_2 (NEWTON_FLOOR, NEWTON_ROUNDOFF) */
#endif
    if (it == 0 && !adapt) {   /* the step's tolerance from its first correction (NEWTON_LTE) */
        mb_real tl = NEWTON_LTE * ny;
#if MB_FLOAT
        mb_real fl = NEWTON_FLOOR * yn;
        if (tl < fl) tl = fl;
#endif
        if (tl < k->tol) k->tol = tl;
    }
    if (ny < k->tol) return 1;
    /* The error left after this correction is about theta / (1 - theta) |dy| for a
     * contraction rate theta = |dy| / |dy_prev| (Hairer & Wanner's stopping test of simplified
     * Newton, as in RADAU5): below NEWTON_KAPPA tol it needs no further correction. */
    mb_real left = MB_R(1e30);   /* (the rate only where the iteration contracts) */
    if (ny_prev > 0 && ny < ny_prev) {
        mb_real th = ny / ny_prev;
        left = th / (1 - th) * ny;
    }
    if (left < NEWTON_KAPPA * k->tol) return 1;
    /* tol itself met (k->tol below it: NEWTON_LTE) and the iteration no longer contracts: the
     * arithmetic or a singular position ends it; stop here, not at max_iter further off */
    if (ny < s->p.tol || left < NEWTON_KAPPA * s->p.tol) {
        if (k->met && ny >= ny_prev) { s->mon.newton_roundoff++; return 1; }
        k->met = 1;
    }
    int conv = 0;
#if MB_FLOAT
    /* Float: the correction at the precision's floor (k->floor): q's within the round-off
     * above, p's within that and what q's last two corrections leave in it. Given q, p's
     * residual g2 is linear in p with unit coefficient (pdot = 2/h (p - p_k) - pdot_k), so a
     * correction makes p exact for the q it was computed at, and the next one finds only the
     * change of g2 across q's own correction that the matrix did not predict (a force's slope
     * that moved, an update rounded, the geometric terms 5.53 neglects), of the order of g2's
     * linear response to it, |dg2/dq dq| = |tmpn| (5.53), for this correction and the one
     * before. Where the forces are steep in the state that is far above eps |y|: the walker's
     * feet on the ground (models/walker.lua: friction dQ/dv up to 1e5 N s/m while a foot
     * sticks, contact dQ/dq 4e5 N/m; v = 2/h (q - q_k) - v_k, so an ulp of q is 2/h ulps of v)
     * leave corrections of 1e-4 .. 1e-1 in their momenta at every iterate while q moves by
     * 1 .. 15 ulps, and no iteration count gets further. A diverging iteration is not at the
     * floor: its q corrections grow past q's round-off, and p cannot diverge on its own
     * (linear, unit coefficient). Every correction the test without tmpn took is taken. */
    mb_real yl = NEWTON_ROUNDOFF * yn;
    mb_real pl = yl + k->fr + 2 * k->fr_prev;
    k->floor = k->nq <= yl && ny * ny - k->nq * k->nq <= pl * pl;
    if (ny < k->best / 2 || !k->floor) k->stall = 0;
#else
    if (ny < k->best / 2 || ny > NEWTON_ROUNDOFF * MB_SQRT(dot(2 * s->n, s->z, s->z))) k->stall = 0;
#endif
    else if (++k->stall >= NEWTON_STALL) { conv = 1; s->mon.newton_roundoff++; }
    if (ny < k->best) k->best = ny;
    return conv;
}

#if !MBI_ONLY
/* The predictor y = y_k + h (rb ydot_k - ra ydot_k-1) and 5.59's derivatives v = 2/h (q - q_k)
 * - v_k, pdot = 2/h (p - p_k) - pdot_k at it, in pairs on restrict parameters (GCC honours
 * restrict on a function's parameters, and only then packs a pair into one vector operation):
 * the same operations entry by entry, the same bits (a firmware build: the plain loop, flash) */
static void trap_predict(int n, mb_real *restrict q, mb_real *restrict p, mb_real *restrict v,
                         mb_real *restrict pd, const mb_real *restrict qk, const mb_real *restrict pk,
                         const mb_real *restrict vk, const mb_real *restrict pdk,
                         const mb_real *restrict vm, const mb_real *restrict pdm, mb_real h,
                         mb_real ra, mb_real rb, mb_real ih2)
{
    int i = 0;
    for (; i + 1 < n; i += 2) {
        mb_real q0 = qk[i] + h * (rb * vk[i] - ra * vm[i]), p0 = pk[i] + h * (rb * pdk[i] - ra * pdm[i]);
        mb_real q1 = qk[i + 1] + h * (rb * vk[i + 1] - ra * vm[i + 1]);
        mb_real p1 = pk[i + 1] + h * (rb * pdk[i + 1] - ra * pdm[i + 1]);
        q[i] = q0;
        q[i + 1] = q1;
        p[i] = p0;
        p[i + 1] = p1;
        v[i] = ih2 * (q0 - qk[i]) - vk[i];
        v[i + 1] = ih2 * (q1 - qk[i + 1]) - vk[i + 1];
        pd[i] = ih2 * (p0 - pk[i]) - pdk[i];
        pd[i + 1] = ih2 * (p1 - pk[i + 1]) - pdk[i + 1];
    }
    if (i < n) {
        mb_real q0 = qk[i] + h * (rb * vk[i] - ra * vm[i]), p0 = pk[i] + h * (rb * pdk[i] - ra * pdm[i]);
        q[i] = q0;
        p[i] = p0;
        v[i] = ih2 * (q0 - qk[i]) - vk[i];
        pd[i] = ih2 * (p0 - pk[i]) - pdk[i];
    }
}

/* y += a x in pairs on restrict parameters (the same bits) */
static void add_scaled(int n, mb_real *restrict y, mb_real a, const mb_real *restrict x)
{
    int i = 0;
    for (; i + 1 < n; i += 2) {
        y[i] += a * x[i];
        y[i + 1] += a * x[i + 1];
    }
    if (i < n) y[i] += a * x[i];
}

#if !MB_FLOAT
/* Newton's update in pairs, as trap_predict: dp = -g2 + tmpn, y += (dq, dp), 5.59's
 * derivatives at the new iterate, and |dq|^2, |dp|^2 summed in entry order (the same bits) */
static void trap_update(int n, mb_real *restrict q, mb_real *restrict p, mb_real *restrict v,
                        mb_real *restrict pd, mb_real *restrict dp, const mb_real *restrict dq,
                        const mb_real *restrict g2, const mb_real *restrict tmpn,
                        const mb_real *restrict qk, const mb_real *restrict pk,
                        const mb_real *restrict vk, const mb_real *restrict pdk, mb_real ih2,
                        mb_real *sq_out, mb_real *sp_out)
{
    mb_real sq = 0, sp = 0;
    int i = 0;
    for (; i + 1 < n; i += 2) {
        mb_real e0 = dq[i], e1 = dq[i + 1], d0 = -g2[i] + tmpn[i], d1 = -g2[i + 1] + tmpn[i + 1];
        dp[i] = d0;
        dp[i + 1] = d1;
        sq += e0 * e0;
        sq += e1 * e1;
        sp += d0 * d0;
        sp += d1 * d1;
        mb_real q0 = q[i] + e0, q1 = q[i + 1] + e1, p0 = p[i] + d0, p1 = p[i + 1] + d1;
        q[i] = q0;
        q[i + 1] = q1;
        p[i] = p0;
        p[i + 1] = p1;
        v[i] = ih2 * (q0 - qk[i]) - vk[i];
        v[i + 1] = ih2 * (q1 - qk[i + 1]) - vk[i + 1];
        pd[i] = ih2 * (p0 - pk[i]) - pdk[i];
        pd[i + 1] = ih2 * (p1 - pk[i + 1]) - pdk[i + 1];
    }
    if (i < n) {
        mb_real e = dq[i], d = -g2[i] + tmpn[i];
        dp[i] = d;
        sq += e * e;
        sp += d * d;
        mb_real qi = q[i] + e, pi = p[i] + d;
        q[i] = qi;
        p[i] = pi;
        v[i] = ih2 * (qi - qk[i]) - vk[i];
        pd[i] = ih2 * (pi - pk[i]) - pdk[i];
    }
    *sq_out = sq;
    *sp_out = sp;
}
#endif
#endif

/* One implicit trapezoid step (5.54-5.60), Newton on y = [q; p] with the reduced n x n system
 * (5.52, 5.53; the row's matrix and momenta) and sigma~ updated by 5.34 after each update of y
 * (the row's constraint). */
static int trap_step(mb_sim *s, mb_real h, mb_real t1, int full, int *stale_used, int adapt, int hold,
                     int *diverged)
{
    const mb_model *m = s->m;
    const mbi_form *fm = MBI_FORM(s);   /* the equations (F4's row) */
    int n = s->n, nc = s->nc;
    mb_real *q = s->z, *p = s->z + n, *I = s->z + 2 * n;
    mb_real *qk = s->zk, *pk = s->zk + n, *vk = s->yd, *pdk = s->yd + n;
    const MBI_VIEW(MB_VIEW_TRAP) w = MBI_VIEW_OF(MB_VIEW_TRAP);   /* its blocks (mb_layout.h) */
    mb_real *g1 = w.g1, *g2 = w.g2, *dq = w.dq, *dp = w.dp, *sv = w.sv, *tmpm = w.tmpm, *tmpn = w.tmpn;
    mb_real *v = s->v, *pd = s->pd;
    mb_real h2 = h / 2, ih2 = 2 / h;   /* the loops' factors, hoisted */
#if MB_WITH_REDUNDANT_ROWS
    const unsigned char *dr = s->p.redundant_rows;   /* equations left out (mb_f4_trapezoid.c) */
    if (dr) fm->rows_start(s, dr);
#else
    const unsigned char *dr = NULL;                   /* (compiled out: the lean firmware) */
#endif
    copy(s->nz, s->zk, s->z);
    copy(n, vk, s->v);
    copy(n, pdk, s->pd);
    /* 5.54: explicit Euler for Int Phi using q_k (5.55's Int Phi_q: mb_f4_trapezoid.c);
     * Phi(t_k, q_k) is still in s->Phi when the last evaluation was the previous step's final one
     * (kin_fresh) */
    if (!(s->kin_fresh && s->kin_t == s->t)) {
        /* the fused evaluation where the model has one, as the previous step's final one: its
         * sines (mb_trig.h) are not always libm's bits, and the trajectory must not depend on
         * whether that evaluation was kept (dense output's evaluations clear kin_fresh) */
        if (m->eval_kin) mbi_eval_kin(s, s->t, qk);
        else m->phi(m, s->t, qk, s->Phi);
    }
#if MBI_F4A
    /* the extrapolated trapezoid (p.adaptive 2): Int Phi by the trapezoid, I = I_k + h/2 (Phi_k
     * + Phi(q)) at every iterate, its base in xib (the matrix's ig = h/2) */
    mb_real *Ib = s->p.adaptive == 2 ? s->xib : NULL;
    if (Ib) {
        for (int r = 0; r < nc; r++) Ib[r] = I[r] + h2 * s->Phi[r];
    } else
#else
    mb_real *Ib = NULL;
#endif
#if !MBI_ONLY
    add_scaled(nc, I, h, s->Phi);
#else
    for (int r = 0; r < nc; r++) I[r] += h * s->Phi[r];
#endif
    mb_real ig = Ib ? h2 : 0;
    /* predictor: 5.56-5.58 print explicit Euler, y = y_k + h ydot_k; with the derivative one
     * accepted step back (ydp, step h_prev) the variable-step Adams-Bashforth 2 instead,
     * y = y_k + h ((1 + r/2) ydot_k - r/2 ydot_k-1), r = h / h_prev: second order, so Newton
     * starts O(h^3) from the solution, not O(h^2) (Andrews, h = 1e-5: 8329 Newton iterations to
     * t = 0.03 instead of 9705). Euler on the first step and after a restart (sigma reset). */
    mb_real ra = s->nhist ? h / s->h_prev / 2 : 0, rb = 1 + ra;
    const mb_real *vm = s->ydp, *pdm = s->ydp + n;
#if !MBI_ONLY
    trap_predict(n, q, p, v, pd, qk, pk, vk, pdk, vm, pdm, h, ra, rb, ih2);
#else
    /* and 5.59's derivatives at it (each update below too); a firmware build: q's half, then
     * p's, through one loop body (flash: 5.59 is the same operations on both), the same
     * operations entry by entry */
    for (int j = 0; j < 2; j++) {
        mb_real *y = j ? p : q, *d = j ? pd : v;
        const mb_real *yk = j ? pk : qk, *ydk = j ? pdk : vk, *ydm = j ? pdm : vm;
        for (int i = 0; i < n; i++) {
            mb_real yi = yk[i] + h * (rb * ydk[i] - ra * ydm[i]);
            y[i] = yi;
            d[i] = ih2 * (yi - yk[i]) - ydk[i];
        }
    }
#endif
#if MBI_FJ
    int full_j = s->p.full_jacobian;
#else
    int full_j = 0;
#endif
#if MB_WITH_F4_KERNELS
    /* the model's pass for an iteration's residual up to dq's solve where this run can take it
     * (mbi_f4_fusable; not with the geometric terms: the matrix is formed before it); the same
     * arithmetic, the residual's g1 and the loop forming dq fused into it */
    int one = !full_j && fm->fusable && fm->fusable(s, dr);
#else
    const int one = 0;
#endif
    int reuse = s->p.newton_reuse && s->reuse_wait == 0;
    s->reuse_slow = 0;
    int it, conv = 0;
    trap_nw k = {0, 0, full || !reuse, 0, MB_R(1e30), 0, s->p.tol, 0, 0
#if MB_FLOAT
                 , 0, 0, 0, 0
#endif
    };
    mb_real ny = 0;
    *stale_used = 0;
    *diverged = 0;
    s->fact_valid = 0;
    for (it = 0;; it++) {
        /* v, pd: 5.59's derivatives of the current iterate (the predictor's loop, the update's) */
        /* an iteration that goes on needs the dynamics at this state too: one fused call (a
         * kept matrix's iteration as well where the model has it: the sines are shared, and
         * the force Jacobians it refreshes enter only 5.53 below, not the kept factors). The
         * last one takes the kinematics only: the fused call there (its forces unused, one
         * evaluation's code a step instead of two: 1.92 -> 1.83 us on Andrews) was tried and
         * moves results (the chain N = 10, --extrapolate at rtol 1e-8: 4 -> 10 held steps): the
         * forces, Phidot_q and the force Jacobians left for what reads them before the next
         * evaluation are then the final state's, not the last iterate's */
        int last = conv || it == s->p.max_iter, fresh = k.refresh || !s->fact_valid;
        int fused = !last && (fresh || m->eval_kin_dyn);
        if (fused) mbi_eval_kin_dyn(s, t1, q, v);
        else mbi_eval_kin(s, t1, q);
        if (Ib) for (int r = 0; r < nc; r++) I[r] = Ib[r] + h2 * s->Phi[r];
        int upd = it > 0 && (!hold || last);                   /* hold: see trap_attempt */
        fm->constraint(s, I, upd, dr);
        if (last) break;
        if (!fused) {   /* the force Jacobians enter only the matrix and 5.53 */
            m->force(m, t1, q, v, s->Q);
            m->phi_q_dot(m, t1, q, v, s->Pqd);
        }
#if MB_WITH_REDUNDANT_ROWS
        if (dr) fm->rows_drop(s, dr);
#endif
        if (!one) {
            fm->residual(s, p, h2, sv, g1, g2);
            mbi_poison(sv, nc);
        }
        if (fresh) {   /* reduced matrix dg1/dq + h/2 dg2/dq (5.45, 5.47, 5.52) */
            s->fact_valid = 0;
            int st;
#if MB_WITH_F4_KERNELS
            if (one) st = fm->factor(s, h2, ig);   /* formed and factored in the model's kernel */
            else
#endif
            {
                fm->matrix(s, t1, q, h2, ig, full_j);
                st = mbi_ls_factor(s, MB_MAT_A_LU, 0);
            }
            if (st) return st;
            s->fact_valid = 1;
            k.refresh = full || !reuse;
        } else {
            *stale_used = 1;
        }
        if (one) {   /* the residual up to dq and its solve in the model's pass */
            fm->newton(s, h2, dq, g2);
        } else {
            for (int i = 0; i < n; i++) dq[i] = -g1[i] - h2 * g2[i];
            mbi_poison(g1, n);
            mbi_ls_solve(s, MB_MAT_A_LU, dq);
        }
        /* 5.53: dp = -g2 - dg2/dq dq, dg2/dq = -h/2 dQ/dq - dQ/dv
         *                                   - Phidot_q^T a (c1 Phi_q + h/2 Phidot_q) */
        fm->momenta(s, dq, h2, tmpn, tmpm, full_j);
        /* dp, |dq|^2 and |dp|^2 (the sums in dot's order), the update (5.60) and 5.59's
         * derivatives at the new iterate, in one pass: the loop's lengths are n, its bodies
         * short, and apart they cost as much as the generated kernels they feed (Andrews) */
        mb_real sq = 0, sp = 0;
#if MB_FLOAT
        mb_real st = 0;   /* |tmpn|^2, for the floor (trap_judge) */
#endif
#if !MBI_ONLY && !MB_FLOAT
        trap_update(n, q, p, v, pd, dp, dq, g2, tmpn, qk, pk, vk, pdk, ih2, &sq, &sp);
#elif MBI_ONLY
        /* a firmware build: dp first, then q's half and p's through one loop body, as the
         * predictor's (flash); the same operations, the sums in the same order */
        for (int i = 0; i < n; i++) {
            dp[i] = -g2[i] + tmpn[i];
#if MB_FLOAT
            st += tmpn[i] * tmpn[i];
#endif
        }
        for (int j = 0; j < 2; j++) {
            mb_real *y = j ? p : q, *d = j ? pd : v;
            const mb_real *c = j ? dp : dq, *yk = j ? pk : qk, *ydk = j ? pdk : vk;
            for (int i = 0; i < n; i++) {
                mb_real e = c[i];
                sp += e * e;
                mb_real yi = y[i] + e;
                y[i] = yi;
                d[i] = ih2 * (yi - yk[i]) - ydk[i];
            }
            if (!j) sq = sp, sp = 0;
        }
#else
        for (int i = 0; i < n; i++) {
            mb_real e = dq[i], d = -g2[i] + tmpn[i];
            dp[i] = d;
            sq += e * e;
            sp += d * d;
#if MB_FLOAT
            st += tmpn[i] * tmpn[i];
#endif
            mb_real qi = q[i] + e, pi = p[i] + d;   /* locals: no reload after the stores */
            q[i] = qi;
            p[i] = pi;
            v[i] = ih2 * (qi - qk[i]) - vk[i];
            pd[i] = ih2 * (pi - pk[i]) - pdk[i];
        }
#endif
        mbi_poison(g2, n);
        mbi_poison(tmpn, n);
        ny = MB_SQRT(sq + sp);
        /* a NaN or Inf in dq or dp (the caller restores the step's start: trap_attempt) */
        if (!isfinite(ny)) return MB_ERR_NONFINITE;
        s->mon.newton_iters++;
#if MB_FLOAT
        k.nq = MB_SQRT(sq);
        k.fr_prev = k.fr;
        k.fr = MB_SQRT(st);
#endif
        int j = trap_judge(s, &k, ny, sq, fresh, adapt, it);
        if (j < 0) return j;
        conv = j;
    }
    s->kin_fresh = 1;                   /* the last evaluation was at the final (t1, q) */
    s->kin_t = t1;
#if MB_WITH_REDUNDANT_ROWS
    if (dr && !fm->rows_implied(s, dr)) s->p.redundant_rows = NULL;
#endif
    if (!finite_vec(s->nz, s->z) || !finite_vec(nc, s->sig)) return MB_ERR_NONFINITE;
    copy(nc, s->S, s->sig);
    if (!conv && !adapt && k.met) {   /* tol met, tol_step out of reach (trap_judge) */
        conv = 1;
        s->mon.newton_roundoff++;
    }
    if (!conv) {
        /* Far from converged (last correction above NEWTON_FAR of the state's size): diverging,
         * not merely slow; never continue silently from there. */
        mb_real ys = 1 + nrminf(2 * n, s->z);
        int kept = 0;
#if MBI_F4A
        /* step control: a last correction within NEWTON_KEEP of the error tolerance is kept
         * (in --strict runs rejected) */
        if (adapt) {
            kept = trap_wnorm(s, dq, dp, 1) <= NEWTON_KEEP;
            ys = kept ? MB_R(1e30) : 0;
        }
#endif
        /* fixed steps: a last correction within NEWTON_KEEP of the first, which is about 6
         * times the step's truncation error (NEWTON_LTE), leaves an iteration error below that
         * error. Either is within tolerance: no newton warning, counted with the round-off
         * stalls (the step and what follows as before). The parallelogram chain's singular
         * passages (h = 1e-3, 1e-4) stall there at 1e-7 .. 0.03 of the first correction
         * (|dy| 1e-10 .. 1e-8 against tol 1e-10) in all 9 of h = 1e-3's steps at max_iter
         * (accurate to 1.4e-4) and 129 of h = 1e-4's 177 (the others do not contract, 0.1 ..
         * 1 of the first, or diverge). */
        if (!adapt) kept = ny <= NEWTON_KEEP * k.ny1;
#if MB_FLOAT
        /* float: a last correction at the rounding floor (trap_judge) has gone as far as float
         * resolves: kept, and no divergence */
        if (k.floor) kept = 1, ys = MB_R(1e30);
#endif
        if (kept && !s->p.strict_newton) s->mon.newton_roundoff++;
        else s->mon.maxiter_events++;
        *diverged = ny > NEWTON_FAR * ys;
        if (s->p.strict_newton || *diverged) return MB_ERR_NEWTON;
        return MB_EVENT_NEWTON_MAXITER;
    }
    return MB_OK;
}

/* ------------------------------------------------------------------ the fixed step */

/* Back to the step's start after trap_step: z (with Int Phi), v, pdot and sigma, exactly; the
 * step's factorization no longer applies. */
void mbi_trap_restore(mb_sim *s, mb_real t_old, const mb_real *sig_old)
{
    copy(s->nz, s->z, s->zk);
    copy(s->n, s->v, s->yd);
    copy(s->n, s->pd, s->yd + s->n);
    copy(s->nc, s->sig, sig_old);
    s->t = t_old;
    s->kin_fresh = 0;
    s->fact_valid = 0;
}

/* trap_step, then the energies at the result (into e: s->kin_e) must be finite too; they are
 * kept with the step's last evaluation (kin_fresh 2), for the monitor at the same state */
static int trap_step_checked(mb_sim *s, mb_real h, mb_real t1, int full, int *stale, int adapt,
                             int hold, int *diverged, mb_real *e)
{
    int st = trap_step(s, h, t1, full, stale, adapt, hold, diverged);
#if MB_POISON_WORK
    const MBI_VIEW(MB_VIEW_TRAP) w = MBI_VIEW_OF(MB_VIEW_TRAP);
    mbi_poison(w.dq, s->n);   /* the corrections' lifetime ends with the step */
    mbi_poison(w.dp, s->n);
#endif
    if (st >= 0) {
        s->m->energy(s->m, t1, s->z, s->v, e);
        if (!isfinite(e[0] + e[1] + e[2])) st = MB_ERR_NONFINITE;
        else if (s->kin_fresh && e == s->kin_e) s->kin_fresh = 2;
    }
    return st;
}

/* Whether a held step (trap_attempt) is kept: what it leaves in the constraints,
 * c = (s - sigma~_k) / alpha, below NEWTON_FAR of the velocities (a smaller alpha or a longer
 * step leaves more: the chain of two loops at alpha = 1e4, h = 2e-3 had |c| = 5e-3 and lost
 * 0.4 J after such a step), and its own energy balance, T + V - W across the step as the
 * monitor will count it (mbi_advance_monitor), within WARN_STEP_ENERGY of the energy scale
 * (the double pendulum at h = 0.1 s: 170 J in one held step). A sound held step changes either
 * by round-off (the parallelogram chain at h = 1e-4: |c| = 7e-8). */
#define WARN_STEP_ENERGY MB_R(1e-2)
static MB_NOINLINE int held_step_sane(const mb_sim *s, mb_real h, const mb_real *e)
{
    if (nrm2(s->nc, s->cv) > NEWTON_FAR * (1 + nrm2(s->n, s->v))) return 0;
    mb_real w = mbi_step_work(s, h, s->pnc, e[2], 0, 0);
    mb_real de = e[0] + e[1] - s->mon.T - s->mon.V - w;
    mb_real es = s->mon.escale, en = e[0] + MB_FABS(e[1] - s->mon.V0) + MB_FABS(s->mon.W + w);
    if (en > es) es = en;
    return MB_FABS(de) <= WARN_STEP_ENERGY * es;
}

/* One trial step of h ending at t1, the time the step is taken at (t_new: its final evaluation is
 * then the one the monitors and the next step reuse, kin_fresh, where t_k + h could differ from
 * the grid's time by an ulp and cost an evaluation more; Andrews h = 1e-5: 591 of 3000 steps).
 * Sigma at its start is in S0 (mb_sim_step); on failure everything is restored.
 * A fixed step whose iteration diverges (not merely slow) is taken once more with sigma~ held at
 * its start value until the last evaluation (hold; mon.sigma_holds): Newton on a fixed set of
 * equations, the penalty equations with s = sigma~_k + alpha c, and the multiplier update 5.34
 * once at the end; kept only if held_step_sane. Near a singular position the update is what
 * diverges: it adds alpha u^T c to u^T sigma~ every iteration in the lost-rank direction u,
 * where the matrix sees u^T c only through h/2 u^T Phidot_q, so the smaller the step the weaker
 * the control (the change-point four-bar, tests/models/audit_fourbar_cp.lua: h = 1e-4 diverged
 * at t = 2.9923 s with sigma~ pumped from 3 to 1e2 .. 1e13, while h = 2e-3 .. 2.5e-4 passed).
 * The plain step control (adapt) rejects and retries smaller instead; the extrapolated one
 * holds too (ADAPT_HOLD). */
#if MBI_F4A
/* The extrapolated trapezoid (p.adaptive 2) retries a (sub)step whose iteration fails the same
 * way, before its control cuts the step: near a singular position a cut makes the sigma~
 * update's divergence worse, not better (above), and the cut steps failed down to the minimum
 * step on the A02 chains (models/parallelogram_chain.lua N = 10, rtol 1e-8, --h 0.01: stopped
 * at 3.20 s after 1917 rejections). The held step is kept only if sane (held_step_sane) and
 * then judged by the control's error estimate like any other. Measured: docs/validation.md,
 * section 10. The plain step control still cuts (its runs unchanged). */
#define ADAPT_HOLD(s) ((s)->p.adaptive == 2)
#else
#define ADAPT_HOLD(s) 0
#endif
int mbi_trap_attempt(mb_sim *s, mb_real h, mb_real t1, int adapt)
{
    mb_real t_old = s->t, *sig_old = s->S0;
    int st, stale = 0, diverged = 0;
    mb_real *e = s->kin_e;   /* the energies at the step's end (trap_step_checked) */
    long me = s->mon.maxiter_events, nr = s->mon.newton_roundoff;
    for (int full = 0; full < 2; full++) {
        st = trap_step_checked(s, h, t1, full, &stale, adapt, 0, &diverged, e);
        if (st == MB_OK || st == MB_EVENT_SIGMA_RESET || !stale) break;
        /* not converged with a kept factorization: the same step again, refactoring at every
         * iteration, so reuse never changes whether or how well a step converges */
        mbi_trap_restore(s, t_old, sig_old);
        s->mon.maxiter_events = me;
        s->mon.newton_roundoff = nr;
    }
    if (st == MB_ERR_NEWTON && (adapt ? ADAPT_HOLD(s) : diverged)) {
        mbi_trap_restore(s, t_old, sig_old);
        s->mon.maxiter_events = me;
        s->mon.newton_roundoff = nr;
        st = trap_step_checked(s, h, t1, 1, &stale, adapt, 1, &diverged, e);
        if (st >= 0 && !held_step_sane(s, h, e)) {
            s->mon.maxiter_events = me;
            st = MB_ERR_NEWTON;
        }
        if (st >= 0) s->mon.sigma_holds++;
    }
    if (st < 0) mbi_trap_restore(s, t_old, sig_old);   /* back to the last good step */
    return st;
}

/* The predictor's history after a step of h (accepted, or a substep of the extrapolation's
 * sequence): [v; pdot] at its start, its size; reuse's wait (REUSE_SLOW): history, so only
 * accepted steps change it. */
void mbi_trap_history(mb_sim *s, mb_real h)
{
    copy(2 * s->n, s->ydp, s->yd);      /* [v; pdot] at the step's start: AB2's history */
    s->h_prev = h;
    s->nhist = 1;
    if (s->reuse_slow) s->reuse_wait = REUSE_WAIT;
    else if (s->reuse_wait > 0) s->reuse_wait--;
}

/* The trial step of h ending at t_new is taken: time, the predictor's history, the equations'
 * acceptance (the sigma reset); adaptive: the position history and sigma re-referenced to zero
 * (see step control). */
MB_NOINLINE int mbi_trap_accept(mb_sim *s, mb_real h, mb_real t_new, int st, int adapt)
{
    const mbi_form *fm = MBI_FORM(s);
    s->t = t_new;
#if MBI_F4A
    if (adapt) {                        /* q at t_k-1, t_k-2 for the error estimate */
        mb_real *t = s->qh2;
        s->qh2 = s->qh1;
        s->qh1 = t;
        copy(s->n, s->qh1, s->zk);
        s->h_prev2 = s->h_prev;
        if (s->nqh < 2) s->nqh++;
    }
#endif
    mbi_trap_history(s, h);
#if MBI_F4A
    if (adapt) {   /* the shift of the sigma reset, every step: p = M v + Phi_q^T sigma with sigma
                    * the impulse of this step only (the history keeps the AB2 predictor) */
        fm->shift(s);
        return st;
    }
#else
    (void)adapt;
#endif
    int moved = 0, ev = fm->accept(s, &moved);   /* 6.3.4 */
    if (moved) {
        s->nhist = 0;                   /* pdot jumped: the history no longer fits */
        if (st == MB_OK) st = ev;
    }
    return st;
}

#if MBI_HAS_EV
/* events: a gap's root inside the converged step (mb_event.c): the step taken again to it, the
 * rest to the grid point left to the next step (mb_sim_step); if that fails, the whole step
 * again. The attempt left s->t at the step's start. */
static MB_NOINLINE int trap_event(mb_sim *s, mb_real h, mb_real t_new, int st)
{
    mb_real t0 = s->t, tr;
    if (!mbi_event_trial(s, t0, t_new, &tr)) return mbi_trap_accept(s, h, t_new, st, 0);
    mbi_trap_restore(s, t0, s->S0);
    int st2 = mbi_trap_attempt(s, tr - t0, tr, 0);
    if (st2 >= 0) {
        mbi_event_trial_cut(s, tr);
        return mbi_trap_accept(s, tr - t0, tr, st2, 0);
    }
    st = mbi_trap_attempt(s, h, t_new, 0);
    return st < 0 ? st : mbi_trap_accept(s, h, t_new, st, 0);
}
#endif

static int step_trapezoid(mb_sim *s, mb_real h, mb_real t_new)
{
    int st = mbi_trap_attempt(s, h, t_new, 0);
#if MBI_HAS_EV
    if (st >= 0 && s->nev) return trap_event(s, h, t_new, st);
#endif
    return st < 0 ? st : mbi_trap_accept(s, h, t_new, st, 0);
}

/* the trapezoid's row: the formulation's start-up evaluation (mb_forms.c), the fixed step, the
 * step control and its dense output (mb_trapezoid_control.c) */
#if MBI_F4A
#define TRAP_ADAPTIVE mbi_trap_control
#define TRAP_DENSE mbi_trap_dense
#else
#define TRAP_ADAPTIVE NULL
#define TRAP_DENSE NULL
#endif
const mbi_integ mbi_integ_trapezoid = {mbi_form_start, NULL,       step_trapezoid, TRAP_ADAPTIVE,
                                       TRAP_DENSE,     NULL,       NULL};
#endif /* MBI_F4 */
