/* mb_trapezoid_control.c - the trapezoid's step control (p.adaptive): Milne's device on the
 * positions (1), the extrapolated trapezoid (2), and the dense output of either (the Hermite
 * cubic, the extrapolation's quintic). Its trial steps are mb_trapezoid.c's (mbi_trap_attempt).
 * Layer: runtime core, the adaptive and dense slots of the trapezoid's row; never allocates or
 * prints. */
#include "mb_sim_impl.h"

#if MBI_F4A

/* ------------------------------------------------------------------ step control
 * Milne's device (PRADIS seed, steps 6-8: the local error from the difference of an explicit
 * prediction and the implicit solution), on the positions:
 * - Prediction q^P: the quadratic through the last three accepted positions q_k-2, q_k-1, q_k
 *   (steps h2, h1), extrapolated to t_k + h. Its error is q3 h (h + h1) (h + h1 + h2) / 6 +
 *   O(h^4) (q3: the third derivative), the trapezoid's -h^3 q3 / 12, so the trapezoid's local
 *   error is -C (q^C - q^P) with C = (h^3 / 12) / (h (h + h1) (h + h1 + h2) / 6 + h^3 / 12)
 *   (1/13 for equal steps).
 * - Why positions and not the AB2 prediction from the derivatives (the Newton predictor): with
 *   xi omega h >> 1 the converged velocities carry a component normal to the constraints of
 *   O(h) (Phi_q v = -2 xi omega Phi, |Phidot| ~ 1e-4 on Andrews) that changes with the step
 *   size; a derivative-based estimate took it for error and rejected most step increases (the
 *   bar pendulum of tests/test_f4_adaptive.c, 5 periods, rtol = atol = 1e-6: 218 rejections for
 *   896 steps against 38 for 859 with positions). Positions satisfy Phi = 0 to ~1e-8 and carry
 *   none of it.
 * - Components: the positions only (n), as the seed's GSTIFF ("tracks only displacements");
 *   momenta and velocities enter the positions one step later. Int Phi (explicit Euler, a
 *   stabilization term) and sigma~ (the multipliers' integral, the iteration's unknown) are
 *   excluded. Scaled RMS as dopri5's: atol + rtol max(|q_k,i|, |q_k+1,i|).
 * - Fewer than three accepted positions (after reset): Euler's prediction q_k + h v_k and the
 *   seed's first-order estimate |q^C - q^P| / 2 (1.27) with the step exponent 1/2 (1.30): larger
 *   than the trapezoid's error, so these steps are only ever too careful.
 * And sigma is re-referenced to zero after every accepted step (trap_accept), the shift the
 * sigma reset (6.3.4) makes: an exact symmetry of 5.30-5.32 (p -= Phi_q^T sigma, pdot -=
 * Phidot_q^T sigma), not one of the discretization, whose trapezoid error of Phi_q^T sigma is
 * O(h^3 |sigma|) per step. sigma = Int lambda grows without bound where a reaction keeps its sign
 * (gravity), and with a constant step those errors telescope; with a varying one they do not:
 * on that pendulum (rtol 1e-6) the angle after 5 periods was off by 5.1e-2 rad without the
 * shift (773 steps) and 8.7e-4 with it (859 steps). A constant step does better still (3.5e-5
 * with 900 steps): the trapezoid's local errors largely cancel along a constant-step run, and
 * a varying step, as any local error control makes it, keeps less of that (docs/formulations.md). */
/* Milne's coefficient C of a step of h (above; 1/2 with fewer than three accepted positions)
 * and the differences q^C - q^P into eq: the local error estimate is C eq */
static mb_real milne(const mb_sim *s, mb_real h, mb_real *eq)
{
    int n = s->n;
    const mb_real *qk = s->zk, *q = s->z;
    if (s->nqh < 2) {
        for (int i = 0; i < n; i++) eq[i] = q[i] - (qk[i] + h * s->yd[i]);
        return MB_R(0.5);
    }
    mb_real h1 = s->h_prev, h2 = s->h_prev2, h3 = h * h * h;
    for (int i = 0; i < n; i++) {   /* Newton's divided differences */
        mb_real d1 = (qk[i] - s->qh1[i]) / h1, d0 = (s->qh1[i] - s->qh2[i]) / h2;
        eq[i] = q[i] - (qk[i] + h * d1 + h * (h + h1) * (d1 - d0) / (h1 + h2));
    }
    return (h3 / 12) / (h * (h + h1) * (h + h1 + h2) / 6 + h3 / 12);
}

static mb_real trap_error(mb_sim *s, mb_real h)
{
    int n = s->n;
    const MBI_VIEW(MB_VIEW_TRAPCTL) b = MBI_VIEW_OF(MB_VIEW_TRAPCTL);   /* its block (mb_layout.h) */
    mb_real *eq = b.eq, coef = milne(s, h, eq), acc = 0;
    const mb_real *qk = s->zk, *q = s->z;
    for (int i = 0; i < n; i++) {
        mb_real a = MB_FABS(qk[i]), b = MB_FABS(q[i]);
        mb_real e = coef * eq[i] / (s->p.atol + s->p.rtol * (a > b ? a : b));
        acc += e * e;
    }
    mb_real err = MB_SQRT(acc / (mb_real)n);
    return isfinite(err) ? err : MB_R(1e30);
}

#if MBI_ACC
/* x <- its part tangent to the constraints (mbi_acc_tangent), scaled back to its size in M's
 * norm: a carried error turns with the tangent space as the mechanism moves (a crank's phase
 * error stays its size), where the projection alone would shorten it by the cosine of the turn
 * at every step (without it the chain N = 40 at rtol 1e-4, 401 x rtol off, read 11.6; 208
 * with it). At most 1.5 x: a part normal to the constraints from the run's start is not
 * turned into an error (the turn of one step leaves the factor within 1.1 on the grid). */
static void tangent_keep(mb_sim *s, const mb_real *minv, mb_real *x, mb_real *y, mb_real *pr)
{
    int n = s->n;
    const mb_real *mass = s->m->mass;
    mb_real a = 0, b = 0;
    for (int i = 0; i < n; i++) a += mass[i] * x[i] * x[i];
    mbi_acc_tangent(s, minv, x, y, pr);
    for (int i = 0; i < n; i++) b += mass[i] * x[i] * x[i];
    if (!(b > 0)) return;
    mb_real r = MB_SQRT(a / b);
    if (r > MB_R(1.5)) r = MB_R(1.5);
    for (int i = 0; i < n; i++) x[i] *= r;
}


/* The accuracy warning's estimate of the step control (mon.err_sum, against warn_accuracy:
 * mb_monitor.c), after an accepted step of h to t1: the positions' error the steps' local
 * errors add up to, a signed vector D, in the companions' tolerances,
 *   D(t) = sum_k a_k + sum_k b_k (t - t_k),   err_sum = max_i |D_i| / (atol + rtol max(|q_i|, L)),
 * as bdf's (mb_bdf.c, acc_step): a_k the step's position error, Milne's C (q^C - q^P), with its
 * sign (over a swing q''' changes sign, and the errors cancel along the run as they do), b_k
 * its velocity error, which moves the positions linearly from the step on (a phase error). The
 * trapezoid's local errors are h^3 y''' / 12 in q and in v, and q''' / 12 is what a_k / h^3
 * estimates, so b_k = h^3 d/dt (a / h^3): the change of a_k / h_k^3 from the step before over
 * the steps' mean (from the third step after a start, a restart or a switch's jump on, as
 * Milne's own estimate). From the positions, not Milne's device on v: where a stiff mode has
 * h lambda >> 1 (F4's stabilization, a motor's back-EMF) the trapezoid's velocities ring from
 * step to step (its amplification near -1), which their differences would take for error; the
 * positions average it out (q1 - q0 = h (v0 + v1) / 2). Taken tangent to the constraints
 * (tangent_keep, below), plus the constraints' own violation. The velocity error is damped
 * where the applied forces damp, as bdf's (mbi_acc_damping: B += c tangent(M^-1 D B)):
 * undamped, the held yoke (tests/models/yoke_hold.lua, V = 1, rtol 1e-6) read 1.9e3 at 2 s
 * and 9.0e5 at 1000 s, its positions 3.3 tolerances off; 24.0 and 24.7 damped. S + mu I is
 * assembled and factored at each accepted step, in A's block, which the next step factors
 * afresh (S not factored: nothing is projected). Replaces the sum of the steps' weighted RMS
 * estimates (threshold 150), which read about one figure a step whatever the error: Andrews
 * at rtol 1e-4 and 1e-5, 123 and 404 x rtol off, 51.3 and 117, silent, while the Jansen
 * linkage, driven and within 3 x rtol, read 257 .. 5.5e3 at 1e-6 .. 1e-10 and warned
 * (docs/validation.md, "The thresholds"). The vectors start at 0 with the run (the monitor
 * cleared, err_vel 0 too); a step undone after it (mb_sim_step) keeps its share. */
static void trap_acc(mb_sim *s, mb_real h, mb_real t1)
{
    int n = s->n, nc = s->nc, nk = n > nc ? n : nc;
    mb_real *D = s->tacc, *B = D + n, *fp = B + n, *minv = fp + n, *av = minv + n, *bv = av + n;
    mb_real *pr = bv + n, *y = pr + n, *zs = y + nc;
    mb_real hp = s->tacc_h, h3 = h * h * h, b2 = 0, L = s->mon.lscale;
    const mb_real *q = s->z;
    int three = s->nqh >= 2;
    if (s->mon.err_sum == 0 && s->mon.err_vel == 0) {
        zero(2 * n, D);
        hp = 0;
    }
    /* a_k from the third step after a start, a restart or a switch's jump on (Milne's
     * estimate before is Euler's prediction's, of first order: not the trapezoid's error) */
    if (three) {
        mb_real c = milne(s, h, av);
        for (int i = 0; i < n; i++) av[i] *= c;
    } else {
        zero(n, av);
    }
    /* minv, and S at the step's last evaluation (Pq at (t1, q)) in A's block, which the next
     * step factors afresh; its factorization, and with --linsys dense its solves (the
     * equilibration), use lsd, which is zk here (mb_layout.h, MB_L_SHARED): the step's start,
     * the history's next entry and the dense output's start, kept in zs until the last solve */
    if (nc > 0) copy(nk, zs, s->zk);
    int st4 = mbi_acc_s4(s, minv), tangent = nc == 0 ? 0 : st4 == MB_OK ? 1 : -1;
    if (nc > 0) s->fact_valid = 0;
    mb_real cd = mbi_acc_damping(s, t1, h, q, s->v, minv);
    if (cd > 0) mbi_acc_damp(s, cd, minv, tangent, B, bv, y, pr);
    for (int i = 0; i < n; i++) {   /* b_k */
        mb_real f = av[i] / h3;
        bv[i] = three && hp > 0 ? h3 * (f - fp[i]) / ((h + hp) / 2) : 0;
        if (three) fp[i] = f;
    }
    /* the sums carried into this step's tangent space, and its parts of a_k and b_k: their
     * parts normal to the constraints are the coordinates' curvature, which the step's end on
     * the constraints does not have (b_k from the tangent parts of a_k instead: the chain N = 40
     * at rtol 1e-4, 401 x rtol off, read 23) */
    if (tangent > 0) {
        tangent_keep(s, minv, D, y, pr);
        tangent_keep(s, minv, B, y, pr);
        mbi_acc_tangent(s, minv, av, y, pr);
        mbi_acc_tangent(s, minv, bv, y, pr);
    }
    for (int i = 0; i < n; i++) {
        D[i] += h * B[i] + av[i];
        B[i] += bv[i];
        mb_real qi = MB_FABS(q[i]) > L ? MB_FABS(q[i]) : L;
        mb_real u = B[i] / (s->p.atol + s->p.rtol * qi);
        b2 += u * u;
    }
    s->tacc_h = three ? h : 0;
    /* and the positions' part normal to the constraints, which no step carries on: the
     * least-norm (in M) correction to Phi = 0, M^-1 Phi_q^T S^-1 Phi (a driven linkage's whole
     * error at the steps; Phi of the step's last evaluation) */
    copy(n, av, D);
    if (tangent > 0) {
        copy(nc, y, s->Phi);
        mbi_ls_solve(s, MB_MAT_S, y);
        zero(n, pr);
        pq_mtv(s->m, s->Pq, y, 1, pr);
        for (int i = 0; i < n; i++) av[i] += minv[i] * pr[i];
    }
    if (nc > 0) copy(nk, s->zk, zs);
    s->mon.err_sum = mbi_err_tols(s, av, NULL, q);
    s->mon.err_vel = MB_SQRT(b2 / (mb_real)n);
    mbi_poison(av, n);
    mbi_poison(bv, n);
    mbi_poison(pr, n);
    mbi_poison(y, nc);
}
#endif

/* Step factors: safety 0.9, growth at most 5, shrink at least 0.2 per trial, 0.25 after a
 * failed Newton iteration; no growth right after a rejection. */
#define ADAPT_SAFETY MB_R(0.9)
#define ADAPT_FACMAX MB_R(5.0)
#define ADAPT_FACMIN MB_R(0.2)
#define ADAPT_NEWTON_SHRINK MB_R(0.25)

/* The next trial step: the controller's h_next within h_max, and the rest rem to t_stop taken
 * whole when h nearly reaches it (*last = 1) or in two equal steps when h passes its half, so
 * that no sliver of a step is left. */
static mb_real trial_h(const mb_sim *s, mb_real rem, int *last)
{
    mb_real h = s->h_next;
    mb_real hm = mbi_h_max(s);
    if (hm > 0 && h > hm) h = hm;
    *last = 0;
    if (h >= rem * (1 - MB_R(1e-9))) { h = rem; *last = 1; }
    else if (h > rem / 2) h = rem / 2;
    return h;
}

static int step_trapezoid_adaptive(mb_sim *s, mb_real t_stop, mb_real *h_taken)
{
    mb_real t_start = s->t, rem = t_stop - s->t;
    /* the minimum step as dopri5's: below 16 eps |t| the step no longer discretizes time */
    mb_real ts = MB_FABS(s->t) > MB_FABS(t_stop) ? MB_FABS(s->t) : MB_FABS(t_stop);
    mb_real hmin = s->p.h_min > 0 ? s->p.h_min : 16 * MB_EPS * ts;
    int lastfail = 0, rejected = 0;
#if MBI_HAS_EV
    mb_real t_root = (mb_real)NAN, h_after = 0;   /* a gap's root the step was cut to */
#endif
    for (;;) {
        int last;
        mb_real h = trial_h(s, rem, &last);
        long me = s->mon.maxiter_events, nr = s->mon.newton_roundoff;
        int order2 = s->nqh >= 2;
        int st = mbi_trap_attempt(s, h, last ? t_stop : t_start + h, 1);
        mb_real err = MB_R(1e30), fac = ADAPT_NEWTON_SHRINK;
        if (st >= 0) {
            err = trap_error(s, h);
            fac = err > 0 ? ADAPT_SAFETY * MB_POW(err, order2 ? -MB_R(1.0) / 3 : -MB_R(0.5)) : ADAPT_FACMAX;
            if (fac > ADAPT_FACMAX) fac = ADAPT_FACMAX;
            if (fac < ADAPT_FACMIN) fac = ADAPT_FACMIN;
        } else {
            lastfail = st;
        }
#if MBI_HAS_EV
        /* events: a gap's root inside the accepted trial (mb_event.c): the trial taken again from
         * the start with the root as its stop (a rejection then lands short of it, and a later
         * step finds it again) */
        mb_real tr;
        if (st >= 0 && err <= 1 && s->nev && !(t_stop == t_root) &&
            mbi_event_trial(s, t_start, last ? t_stop : t_start + h, &tr)) {
            mbi_trap_restore(s, t_start, s->S0);
            s->mon.maxiter_events = me;
            s->mon.newton_roundoff = nr;
            h_after = h * (rejected && fac > 1 ? 1 : fac);   /* the controller's next step */
            t_stop = t_root = tr;
            rem = tr - t_start;
            s->h_next = rem;
            continue;
        }
        int cut = st >= 0 && err <= 1 && last && t_stop == t_root;
        if (cut) mbi_event_trial_cut(s, t_stop);
#endif
        if (st >= 0 && err <= 1) {
            if (rejected && fac > 1) fac = 1;
            if (!last) s->h_next = h * fac;
#if MBI_HAS_EV
            if (cut) s->h_next = h_after;
#endif
            *h_taken = h;
#if MBI_ACC
            if (s->p.warn_accuracy != 0) trap_acc(s, h, last ? t_stop : t_start + h);
#endif
            return mbi_trap_accept(s, h, last ? t_stop : t_start + h, st, 1);
        }
        if (st >= 0) {                  /* converged, error too large: back to the start */
            mbi_trap_restore(s, t_start, s->S0);
            fac = fac < 1 ? fac : MB_R(0.5);
        }
        s->mon.maxiter_events = me;     /* events count kept steps; this one is `rejected` */
        s->mon.newton_roundoff = nr;
        s->mon.rejected++;
        rejected = 1;
        s->h_next = h * fac;
        if (s->h_next < hmin) return lastfail ? lastfail : MB_ERR_STEP_UNDERFLOW;
    }
}

/* ------------------------------------------------------------------ extrapolated step control
 * p.adaptive = 2 (docs/formulations.md, "Long runs"): a macro step H is two trapezoid steps of
 * H/2 (y2) and, from the same start, four of H/4 (y4); the result is (4 y4 - y2) / 3, the h^2
 * term of the symmetric trapezoid's error expansion removed (order 4 where the solution is
 * smooth). Even substep counts because of F4's constraint-stabilization mode (eigenvalue about
 * -2 xi omega), on which the trapezoid's amplification R is near -1 when xi omega h >> 1: one
 * step against two extrapolates (4 R^2 - R) / 3, about 5/3, unstable; two against four
 * (4 R4^4 - R2^2) / 3, which damps. The state is extrapolated whole: [q; p; Int Phi], v and
 * pdot (the trapezoid's start derivatives) and sigma~, all referenced to the same sigma~ at the
 * macro step's start (the sequences run without the per-step shift; the shift follows the
 * extrapolation). Int Phi is integrated by the trapezoid here too (trap_step; explicit Euler
 * would leave a first-order term the extrapolation does not remove: order 3 on the pendulum
 * at xi = omega = 1). The estimate is y4's error, |y4 - y2| / 3, on the positions (weighted
 * RMS as trap_error), with the exponent 1/3 (local extrapolation: the result is better than
 * the tolerance asks). Measured: with xi omega h >> 1 (the default xi = 1e4) the order drops
 * to 2 (the trapezoid's order reduction on the stiff stabilization mode: its error coefficients
 * depend on xi omega h, so they differ between the H/2 and H/4 sequences), so the simulator's
 * --extrapolate defaults to xi = omega = 1. Workspace: xs (the start: [z; v; pdot; sigma~] and
 * the predictor's history ydp), xa (y2's end; q, v, W and P_nc at the middle for dense
 * output), xib
 * (trap_step's Int Phi base; Phi_t at the macro step's start for the work). */
static void xst_save(const mb_sim *s, mb_real *b)
{
    int n = s->n, nz = s->nz;
    copy(nz, b, s->z);
    copy(n, b + nz, s->v);
    copy(n, b + nz + n, s->pd);
    copy(s->nc, b + nz + 2 * n, s->sig);
}

/* a macro step's start (xs, or the companion's xg): the state and the predictor's history */
static void xst_save_start(const mb_sim *s, mb_real *b)
{
    int n = s->n;
    xst_save(s, b);
    copy(2 * n, b + s->nz + 2 * n + s->nc, s->ydp);
}

/* back to the macro step's start (xs), the predictor's history included */
static void xst_restart(mb_sim *s, mb_real t, mb_real h_prev, int nhist, int wait)
{
    int n = s->n, nz = s->nz;
    const mb_real *b = s->xs;
    copy(nz, s->z, b);
    copy(n, s->v, b + nz);
    copy(n, s->pd, b + nz + n);
    copy(s->nc, s->sig, b + nz + 2 * n);
    copy(s->nc, s->S0, b + nz + 2 * n);   /* sigma~ at the step's start (xst_sequence) */
    copy(2 * n, s->ydp, b + nz + 2 * n + s->nc);
    copy(s->nc, s->ptq, s->xib + s->nc);     /* Phi_t at the start (xst_sequence moves it) */
    s->t = t;
    s->h_prev = h_prev;
    s->nhist = nhist;
    s->reuse_wait = wait;
    s->kin_fresh = 0;
    s->fact_valid = 0;
}

/* k trapezoid steps of (t1 - t0) / k from the current state (at t0) to t1; the predictor's
 * history advances, sigma~ accumulates. S0 holds each substep's starting sigma~ (what
 * trap_attempt restores before its full-Newton retry; the macro step puts the start's back).
 * *w: the work of the loads and drivers over the sequence, the monitor's trapezoidal rule
 * (mbi_step_work) per substep, so the macro step's work can be extrapolated as its state: one
 * trapezoid over the whole macro step, second order against a fourth-order state, made the
 * energy balance report errors the solution did not have (the damped oscillator at rtol 1e-4:
 * 0.70 J and an energy warning, against 0.21 J and none from the plain step control, whose
 * positions were 10x less accurate). P_nc at each substep's end is the energies' third entry
 * (trap_step_checked, kin_e), Phi_t the last evaluation's, carried in the monitor's ptq
 * (the macro step's start's kept in xib + nc: xst_restart). Returns the worst status (events
 * kept), or the failure. */
static int xst_sequence(mb_sim *s, mb_real t0, mb_real t1, int k, mb_real *w)
{
    int n = s->n, nc = s->nc;
    /* [q; v; W - W_start; P_nc] at the middle (trap_dense) */
    mb_real *mid = s->xa + s->nz + 2 * n + nc;
    mb_real h = (t1 - t0) / (mb_real)k, pp = s->pnc;
    int ret = MB_OK;
    *w = 0;
    for (int j = 1; j <= k; j++) {
        mb_real tj = j == k ? t1 : t0 + (mb_real)j * h;
        copy(nc, s->S0, s->sig);
        int st = mbi_trap_attempt(s, h, tj, 1);
        if (st < 0) return st;
        if (st > ret) ret = st;
        *w += mbi_step_work(s, h, pp, s->kin_e[2], 0, 0);   /* from S0, ptq to sig, Phit */
        pp = s->kin_e[2];
        copy(nc, s->ptq, s->Phit);   /* the next substep's start (xst_restart puts it back) */
        s->t = tj;
        mbi_trap_history(s, h);
        if (2 * j == k) {   /* the middle, extrapolated as the end: the H/2 sequence's first */
            if (k == 2) {
                copy(n, mid, s->z);
                copy(n, mid + n, s->v);
                mid[2 * n] = *w;
                mid[2 * n + 1] = pp;
            } else {
                for (int i = 0; i < n; i++) {
                    mid[i] = (4 * s->z[i] - mid[i]) / 3;
                    mid[n + i] = (4 * s->v[i] - mid[n + i]) / 3;
                }
                mid[2 * n] = (4 * *w - mid[2 * n]) / 3;
                mid[2 * n + 1] = (4 * pp - mid[2 * n + 1]) / 3;
            }
        }
    }
    return ret;
}

/* The macro step's two sequences to t1 from the start in s, which xs holds too (with the
 * predictor's history h_prev0, nhist0 and reuse's wait0): y2 into xa, y4 left in s, their work
 * into *w2, *w4 and the estimate of y4's error, |y4 - y2| / 3 on the positions (weighted RMS as
 * trap_error), into *err (1e30 on failure). Returns the worst status (events kept), or the
 * failure. */
static int xst_pair(mb_sim *s, mb_real t0, mb_real t1, mb_real h_prev0, int nhist0, int wait0,
                    mb_real *w2, mb_real *w4, mb_real *err)
{
    int n = s->n;
    *err = MB_R(1e30);
    int st = xst_sequence(s, t0, t1, 2, w2);
    if (st >= 0) {
        xst_save(s, s->xa);
        xst_restart(s, t0, h_prev0, nhist0, wait0);
        int st4 = xst_sequence(s, t0, t1, 4, w4);
        st = st4 < 0 || st4 > st ? st4 : st;
    }
    if (st < 0) return st;
    const mb_real *qk = s->xs, *q2 = s->xa;   /* y4 in s, y2 in xa */
    mb_real acc = 0;
    for (int i = 0; i < n; i++) {
        mb_real a = MB_FABS(qk[i]), b = MB_FABS(s->z[i]);
        mb_real e = (s->z[i] - q2[i]) / 3 / (s->p.atol + s->p.rtol * (a > b ? a : b));
        acc += e * e;
    }
    *err = MB_SQRT(acc / (mb_real)n);
    if (!isfinite(*err)) *err = MB_R(1e30);
    return st;
}

/* The extrapolation (4 y4 - y2) / 3 of the whole state: [q; p; Int Phi], v, pdot and sigma~ */
static void xst_combine(mb_sim *s)
{
    int n = s->n, nz = s->nz;
    const mb_real *y2 = s->xa;
    for (int i = 0; i < nz; i++) s->z[i] = (4 * s->z[i] - y2[i]) / 3;
    for (int i = 0; i < n; i++) {
        s->v[i] = (4 * s->v[i] - y2[nz + i]) / 3;
        s->pd[i] = (4 * s->pd[i] - y2[nz + n + i]) / 3;
    }
    for (int r = 0; r < s->nc; r++) s->sig[r] = (4 * s->sig[r] - y2[nz + 2 * n + r]) / 3;
}

static int step_trapezoid_extrap(mb_sim *s, mb_real t_stop, mb_real *h_taken)
{
    int n = s->n, nz = s->nz, nc = s->nc;
    mb_real t_start = s->t, rem = t_stop - s->t;
    /* the minimum macro step: its substeps (H/4) no longer below dopri5's 16 eps |t| */
    mb_real ts = MB_FABS(s->t) > MB_FABS(t_stop) ? MB_FABS(s->t) : MB_FABS(t_stop);
    mb_real hmin = s->p.h_min > 0 ? s->p.h_min : 64 * MB_EPS * ts;
    int lastfail = 0, rejected = 0;
    mb_real h_prev0 = s->h_prev;
    int nhist0 = s->nhist, wait0 = s->reuse_wait;
#if MBI_HAS_EV
    mb_real t_root = (mb_real)NAN, h_after = 0;   /* a gap's root the step was cut to */
#endif
    xst_save_start(s, s->xs);
    copy(nc, s->xib + nc, s->ptq);
    for (;;) {
        int last;
        mb_real h = trial_h(s, rem, &last);
        mb_real t1 = last ? t_stop : t_start + h;
        long me = s->mon.maxiter_events, nr = s->mon.newton_roundoff;
        mb_real err, fac = ADAPT_NEWTON_SHRINK;
        mb_real w2 = 0, w4 = 0;
        int st = xst_pair(s, t_start, t1, h_prev0, nhist0, wait0, &w2, &w4, &err);
        if (st >= 0) {
            fac = err > 0 ? ADAPT_SAFETY * MB_POW(err, -MB_R(1.0) / 3) : ADAPT_FACMAX;
            if (fac > ADAPT_FACMAX) fac = ADAPT_FACMAX;
            if (fac < ADAPT_FACMIN) fac = ADAPT_FACMIN;
        } else {
            lastfail = st;
        }
        if (st >= 0 && err <= 1) {
            xst_combine(s);
            if (rejected && fac > 1) fac = 1;
#if MBI_HAS_EV
            /* events: a gap's root inside the accepted macro step, located on the cubic
             * Hermite through its ends' q and v as the plain trapezoid's (mb_event.c): the
             * macro step taken again from its start with the root as its stop (a rejection
             * then lands short of it, and a later step finds it again) */
            mb_real tr;
            if (s->nev && !(t_stop == t_root) && mbi_event_trial(s, t_start, t1, &tr)) {
                xst_restart(s, t_start, h_prev0, nhist0, wait0);
                s->mon.maxiter_events = me;
                s->mon.newton_roundoff = nr;
                h_after = last ? s->h_next : h * fac;   /* the controller's next step */
                t_stop = t_root = tr;
                rem = tr - t_start;
                s->h_next = rem;
                continue;
            }
            int cut = last && t_stop == t_root;
            if (cut) mbi_event_trial_cut(s, t_stop);
#endif
            s->kin_fresh = 0;                  /* the last evaluation was y4's */
            s->xw = (4 * w4 - w2) / 3;         /* the monitor's work over the step (mb_sim.c) */
            copy(nc, s->S0, s->xs + nz + 2 * n);   /* the work's reference: S at the start */
            s->t = t1;
            if (!last) s->h_next = h * fac;
#if MBI_HAS_EV
            if (cut) s->h_next = h_after;
#endif
            *h_taken = h;
            MBI_FORM(s)->shift(s);             /* the next macro step starts at sigma~ = 0 */
            return st;
        }
        xst_restart(s, t_start, h_prev0, nhist0, wait0);
        if (st >= 0) fac = fac < 1 ? fac : MB_R(0.5);
        s->mon.maxiter_events = me;     /* events count kept steps; this one is `rejected` */
        s->mon.newton_roundoff = nr;
        s->mon.rejected++;
        rejected = 1;
        s->h_next = h * fac;
        if (s->h_next < hmin) return lastfail ? lastfail : MB_ERR_STEP_UNDERFLOW;
    }
}

#if MBI_XGE
/* ------------------------------------------------------------------ the accuracy companion
 * The extrapolated step's estimate is of y4, the plain trapezoid's result at H/4, not of the
 * extrapolation the run advances, and no step's estimate says how errors grow, so its runs
 * were 120 .. 2e4 x rtol off with no warning (make validate-accuracy, QUICK: 8 of 15). The
 * run's global error is estimated as dopri5's (mb_rk.c, ge_step): by global Richardson
 * extrapolation against a companion solution of the same method from the same start that takes
 * one macro step over every two of the run's (H = h1 + h2, in lock-step at every second step
 * point): the extrapolated step is of order XGE_P (4: the trapezoid's h^2 term removed), so
 * the companion's global error is about 2^XGE_P times the run's and, at the common points,
 * run - companion = (2^XGE_P - 1) x the run's error. Its largest value so far over the
 * positions, in tolerances (atol + rtol max(|q_i|, lscale)), is mon.err_sum, which the
 * accuracy warning tests (mb_monitor.c). Cost: the companion's macro steps, half the run's
 * (6 trapezoid substeps, each a Newton iteration, per two of the run's 12). Its macro step is
 * trusted where the step control's estimate scales as H^3 (the trapezoid's local error): at
 * most 2^3 x the tolerance; beyond it, or where its Newton iteration fails, it takes the run's
 * two macro steps instead, carrying the difference so far without adding to it. At a
 * contact's cut (the run's step ends at the root) it compares there, one step or two, and goes
 * on from its own state (xge_cut: its steps end at the kink, none crosses it). It starts anew
 * from the run's state (xge_sync) after a start, a restart, a switch's jump, a sigma reset or a
 * failure of those two steps; but for a start or restart the estimate it had then is kept and
 * the new one's added to it (xg_off: the run's error so far does not vanish with the
 * companion's difference; the walker's Newton failures of the companion in its feet's stick
 * phases dropped 0.7 .. 1.7 tolerances each). It runs
 * at the start of the run's next step, whose workspace (xs, xa, xib's Int Phi base, the Newton
 * blocks) is free then (the dense output of the last step is dropped: mb_sim_dense after a step
 * is before it), with the run's state in xs, and puts back what the run's step reads: its
 * state, sigma~ at the start (S0), Phi_t at the start (ptq), the predictor's history, reuse's
 * wait, the redundant rows and the monitor (but the evaluations, Newton iterations,
 * factorizations and solves it counts); kin_fresh cleared (the run's step evaluates its start
 * again: the same bits, trap_step). With the companion the run's steps are bit for bit those
 * without it (tests/test_accuracy_warning.sh).
 * The energy balance: a macro step that crosses a singular position (Phi_q's rank lost) gives
 * the run a velocity error whose size does not follow H^4 (the chain N = 10 at rtol 1e-8:
 * -1.3e-6 .. +1.7e-6 J of its 159 J in one step at each passage, against 1e-10 J for a smooth
 * step, no smaller at rtol 1e-10), and the companion's macro step across the same passage
 * gets one of unrelated size: run - companion was then 0.03 .. 0.3 x the error, not 15 x
 * (docs/validation.md, section 10). The run's energy balance (energy_dev: T + V - E0 - W)
 * measures the part of such an error along the motion at every step. So the companion's
 * change of T + V - W over each of its steps is made 2^p times the run's over the same span
 * (xge_energy): where the errors scale as H^4 that is what it had already (the chain's smooth
 * steps: 14 .. 15 x, the change 1e-10 J), and at a passage it gets 2^p times the run's kick, which
 * it carries forward as the run does (the phase error it makes), so that (run - companion) /
 * 15 holds it at its size. Its start's P_nc and Phi_t (its work, as the run's: xst_sequence)
 * are its own (the run's Phi_t kept in xg's last nc meanwhile). */
#define XGE_P 4
#define XGE_LIM MB_R(8.0)
/* what makes it start anew: sigma resets, and events (a switch's jump; a cut at a contact's
 * root but where xge_cut compares there) */
#define XGE_MARK(s) ((s)->mon.sigma_resets + (s)->mon.events)

/* the companion's state from s's: xg, its predictor's last substep and history */
static void xge_keep(mb_sim *s)
{
    xst_save_start(s, s->xg);
    s->xg_hp = s->h_prev;
    s->xg_nh = s->nhist;
}

static void xge_sync(mb_sim *s)
{
    xge_keep(s);
    s->xg_off += s->xg_e;
    s->xg_e = 0;
    s->xg_d0 = s->mon.energy_dev;
    s->ge_t = s->ge_tlast = s->t;
    s->ge_n = 0;
    s->ge_resets = XGE_MARK(s);
    s->xg_ev = s->mon.events;
}

/* The run's last step ended at a contact's root (its cut: mb_event.c), and nothing else made
 * the companion start anew: the companion compares there instead (the pair or the single step
 * ends at the kink, neither crosses it) and goes on from its own state, so that the difference
 * the impacts make is carried on, not dropped at each of them (the walker at rtol 1e-4 had 122
 * restarts in 10 s and its estimate stayed at 1.0 tolerances, 188 x rtol off). A switch's jump
 * (no ev_tlast) and a sigma reset still start it anew. */
static int xge_cut(const mb_sim *s)
{
#if MBI_HAS_EV
    return s->ge_n >= 1 && s->t == s->ge_tlast && s->t == s->ev_tlast &&
           XGE_MARK(s) - s->ge_resets == s->mon.events - s->xg_ev;
#else
    (void)s;
    return 0;
#endif
}

/* One macro step of the companion from (t0, xg), loaded into s, to t1, its result back into xg;
 * MB_ERR_PARAM when its error estimate is above lim (the step not taken), else the status */
static int xge_macro(mb_sim *s, mb_real t0, mb_real t1, mb_real lim, int wait, mb_real *w, mb_real *e0)
{
    mb_real w2, w4, err, e[3];
    s->m->energy(s->m, t0, s->xg, s->xg + s->nz, e);
    if (e0) copy(3, e0, e);                /* (its energies at the start: xge_energy) */
    s->pnc = e[2];                         /* P_nc and Phi_t at its start, for its work */
    s->m->phi_t(s->m, t0, s->xg, s->xib + s->nc);   /* (xst_restart: ptq) */
    xst_restart(s, t0, s->xg_hp, s->xg_nh, wait);
    int st = xst_pair(s, t0, t1, s->xg_hp, s->xg_nh, wait, &w2, &w4, &err);
    if (st < 0) return st;
    if (!(err <= lim)) return MB_ERR_PARAM;
    *w += (4 * w4 - w2) / 3;               /* its work, as the run's (xw) */
    xst_combine(s);
    s->t = t1;
    MBI_FORM(s)->shift(s);
    xge_keep(s);
    return MB_OK;
}

/* The energy balance (above): the companion's change of T + V - W over its step of H1 + H2
 * (at the start e0, at the end measured here; w its work over the step) made 2^p times the
 * run's over its two steps (dr: the change of its energy_dev, o its monitor), by scaling the
 * companion's velocities at the step's end by 1 + d / (v^T M v) and adding M times that change
 * to its momenta (p - M v, the multipliers' part, as it was). Not where the change is not a small
 * one (below T / 2, a relative change of v below 1/4), not where a driver moves the constraints
 * (below) and not over the first pair from a start
 * (dr NaN: the first step from the assembled state changes the energy by the same in both,
 * 2.7e-8 J on the chain N = 10, which is no error of the step size). A change of the run's
 * below the rounding of energy_dev's terms (4 eps their sum: float's noise) counts as none. */
static void xge_energy(mb_sim *s, mb_real t, const mb_real *e0, mb_real w, const mb_monitor *o)
{
    int n = s->n, nz = s->nz;
    mb_real e1[3], *q = s->xg, *p = s->xg + n, *v = s->xg + nz, vmv = 0;
    const mb_real *mass = s->m->mass;
    mb_real dr = o->energy_dev - s->xg_d0;
    s->m->energy(s->m, t, q, v, e1);
    if (!isfinite(dr)) return;
    /* Not where the constraints move with time (a driver: Phi_t != 0 at the step's end; into
     * xib's Phi_t, which xge_compare puts back): there the velocities lie on Phi_q v = -Phi_t,
     * which a scaling of v leaves, and the energy follows the driver's work, not a step's kick
     * (tests/models/jansen.lua, driven, no free motion, at rtol 1e-8: scalings of v up to
     * 1.8e-3 a comparison, estimated 29 tolerances for 0.004 off, without them 0.004;
     * tests/models/audit_driven.lua at 1e-8: 1.8e4 for 0.015 off, without them 0.016) */
    mb_real *pt = s->xib + s->nc;
    s->m->phi_t(s->m, t, q, pt);
    for (int i = 0; i < s->nc; i++) if (pt[i] != 0) return;
    if (MB_FABS(dr) <= 4 * MB_EPS * (MB_FABS(o->T) + MB_FABS(o->V) + MB_FABS(o->V0) + MB_FABS(o->W)))
        dr = 0;                      /* below the rounding of energy_dev's terms: none */
    mb_real dc = e1[0] + e1[1] - e0[0] - e0[1] - w;
    mb_real d = (mb_real)(1 << XGE_P) * dr - dc;
    for (int i = 0; i < n; i++) vmv += mass[i] * v[i] * v[i];
    if (!(MB_FABS(d) <= vmv / 4)) return;
    mb_real ep = d / vmv;
    for (int i = 0; i < n; i++) {
        p[i] += ep * mass[i] * v[i];
        v[i] += ep * v[i];
    }
}

/* The comparison of the run's macro steps since ge_t with the companion's: two (ge_n 2) by one
 * of their sum, as above; one (ge_n 1: the run's last step, mbi_trap_finish) by one of the
 * run's own length, whose difference adds no local error of its own but carries the difference
 * so far through that step, and whose energy balance is made 2^p times the run's as the pair's
 * is (a run that goes wrong in its last step shows there). */
static void xge_compare(mb_sim *s)
{
    int n = s->n, nc = s->nc, st, one = s->ge_n == 1;
    /* the run's state, as its step saves it (step_trapezoid_extrap) */
    mb_real *xs = s->xs, t = s->t, hp = s->h_prev;
    int nh = s->nhist, wait = s->reuse_wait;
    xst_save_start(s, xs);
    copy(nc, s->xib + nc, s->ptq);
    mb_real *ptr = s->xg + s->nz + 4 * n + nc;   /* (xg's last nc) */
    copy(nc, ptr, s->ptq);
    mb_monitor m0 = s->mon;
#if MB_WITH_REDUNDANT_ROWS
    const unsigned char *rr = s->p.redundant_rows;
#endif
    mb_real e0[3], wc = 0, pnc = s->pnc;
    s->xs = s->xg;                        /* the companion's macro step restarts from xg */
    st = xge_macro(s, s->ge_t, t, one ? MB_R(1e30) : XGE_LIM, wait, &wc, e0);   /* e0: the companion's at its start */
    if (st < 0 && !one) {   /* (xge_macro's failure left xg as it was) */
        wc = 0;
        st = xge_macro(s, s->ge_t, s->ge_tm, MB_R(1e30), wait, &wc, NULL);
        if (st >= 0) st = xge_macro(s, s->ge_tm, t, MB_R(1e30), wait, &wc, NULL);
    }
    if (st >= 0) xge_energy(s, t, e0, wc, &m0);
    s->xs = xs;
    s->pnc = pnc;
    copy(nc, s->xib + nc, ptr);
    xst_restart(s, t, hp, nh, wait);      /* the run's state back (S0 = its sigma~, ptq) */
#if MB_WITH_REDUNDANT_ROWS
    s->p.redundant_rows = rr;
#endif
    long ev = s->mon.evals, ni = s->mon.newton_iters, fa = s->mon.factorizations, so = s->mon.solves;
    s->mon = m0;                          /* (but its cost) */
    s->mon.evals = ev;
    s->mon.newton_iters = ni;
    s->mon.factorizations = fa;
    s->mon.solves = so;
    if (st < 0) { xge_sync(s); return; }
    /* in tolerances of the mechanism's size, as dopri5's (mb_rk.c) */
    mb_real e = mbi_err_tols(s, s->xg, xs, xs) / (mb_real)((1 << XGE_P) - 1);
    s->xg_e = e;
    e += s->xg_off;
    if (!(e <= s->mon.err_sum)) s->mon.err_sum = e;   /* (NaN too) */
    s->ge_t = t;
    s->ge_n = 0;
    s->xg_d0 = s->mon.energy_dev;
    s->ge_resets = XGE_MARK(s);   /* compared here: what happened before (a contact's cut) is
                                   * behind it, and it goes on from its own state */
    s->xg_ev = s->mon.events;
}

static void xge_step(mb_sim *s)
{
    if (s->p.warn_accuracy == 0 || !s->xg) return;
    if (s->ge_n < 0 || s->t != s->ge_tlast || XGE_MARK(s) != s->ge_resets) {
        int start = s->ge_n < 0;
        if (xge_cut(s)) {
            xge_compare(s);
            return;
        }
        if (start) s->xg_e = s->xg_off = 0;
        xge_sync(s);
        if (start) s->xg_d0 = (mb_real)NAN;   /* (xge_energy) */
        return;
    }
    if (s->ge_n == 2) xge_compare(s);
}

/* mb_sim_finish: the run ends; the one or two macro steps since the last comparison (xge_step
 * compares at the start of the step after a pair, which the run's end never takes) are
 * compared now. Nothing when the companion was to start anew (a start, a restart, a sigma
 * reset, an event at the last step): it has no steps of its own to compare. The comparison
 * overwrites xs and xa, the last step's dense output (trap_dense: none kept now). */
int mbi_trap_finish(mb_sim *s)
{
    if (s->p.warn_accuracy == 0 || !s->xg || s->p.adaptive != 2) return 0;
    if (s->p.integrator != MB_TRAPEZOID || MBI_FORMULATION(s) != MB_ALF_TRAPEZOID) return 0;
    if (s->ge_n < 1 || s->t != s->ge_tlast || (XGE_MARK(s) != s->ge_resets && !xge_cut(s))) return 0;
    xge_compare(s);
    s->td_t0 = s->t;
    return 1;
}
#endif

/* The quintic with values 0, b, a and slopes d0, dm, d1 (per unit theta) at theta = 0, 1/2, 1:
 * its value at th, and its slope into *dv (coefficients in differences from the start's value:
 * no cancellation of a large offset). */
static mb_real quintic(mb_real th, mb_real a, mb_real b, mb_real d0, mb_real dm, mb_real d1, mb_real *dv)
{
    mb_real c2 = 7 * a + 16 * b - 6 * d0 - 8 * dm - d1;
    mb_real c3 = -34 * a - 32 * b + 13 * d0 + 32 * dm + 5 * d1;
    mb_real c4 = 52 * a + 16 * b - 12 * d0 - 40 * dm - 8 * d1;
    mb_real c5 = -24 * a + 4 * d0 + 16 * dm + 4 * d1;
    *dv = d0 + th * (2 * c2 + th * (3 * c3 + th * (4 * c4 + th * 5 * c5)));
    return th * (d0 + th * (c2 + th * (c3 + th * (c4 + th * c5))));
}

/* The cubic with values 0, a and slopes d0, d1 (per unit theta) at theta = 0, 1; slope in *dv. */
static mb_real cubic(mb_real th, mb_real a, mb_real d0, mb_real d1, mb_real *dv)
{
    mb_real a2 = 3 * a - 2 * d0 - d1, a3 = d0 + d1 - 2 * a;
    *dv = d0 + th * (2 * a2 + 3 * th * a3);
    return th * (d0 + th * (a2 + th * a3));
}

/* Dense output (mb_sim_dense) of either step control.
 * - Milne's: the cubic Hermite interpolant of q through the last accepted step's ends (q and v
 *   at both: zk, yd, its start until the next step), v its derivative: the trapezoid's own
 *   continuous extension, since q1 - q0 = h/2 (v0 + v1) makes the cubic term vanish (q
 *   quadratic, v linear in t); the work W likewise with P_nc at the ends.
 * - The extrapolated step (order 4) keeps q, v, W and P_nc at its middle too, extrapolated from
 *   the two sequences as its end is (xst_sequence), and interpolates by the quintic through the
 *   start (xs), the middle and the end: O(H^6) in q and W, O(H^5) in v per step, below the
 *   step's own error. Measured: the cubic through the ends alone made v's error O(H^3)
 *   (Andrews at rtol 1e-6, rows every 1e-3 s: 4e-3 against 3e-4 rad/s at the steps, the rows'
 *   energy deviation 70x that at the steps); W by the cubic with P_nc at the ends left the
 *   rows of the stiffly damped oscillator_1dof (omega H ~ 1.6) at 14x the steps' deviation.
 * The monitors are evaluated at the interpolated (q, v) with sigma~ of the step's end (zero
 * after the adaptive re-reference). The evaluation leaves Phi, Pq of the interpolated state
 * behind and clears kin_fresh (mbi_eval_kin), so the next step evaluates its start again: the
 * trajectory does not depend on these calls. */
static int trap_dense(mb_sim *s, mb_real t, mb_real *q, mb_real *v, mb_monitor *mo)
{
    int n = s->n, x = s->p.adaptive == 2;
    mb_real t0 = s->td_t0, h = s->t - t0;
    if (!s->ready || !(h > 0)) return MB_ERR_STATE;
    if (!(t >= t0 && t <= s->t)) return MB_ERR_PARAM;
    const mb_real *q0 = x ? s->xs : s->zk, *v0 = x ? s->xs + s->nz : s->yd;
    /* the middle (x only: without the extrapolation xa is NULL, and no offset may be applied) */
    const mb_real *qm = x ? s->xa + s->nz + 2 * n + s->nc : NULL, *vm = x ? qm + n : NULL;
    const mb_real *q1 = s->z, *v1 = s->v;
    const MBI_VIEW(MB_VIEW_TRAPCTL) b = MBI_VIEW_OF(MB_VIEW_TRAPCTL);   /* vv: free between steps */
    mb_real th = (t - t0) / h, dv, *vv = v ? v : b.vv;
    for (int i = 0; i < n; i++) {
        mb_real a = q1[i] - q0[i], d0 = h * v0[i], d1 = h * v1[i];
        q[i] = q0[i] + (x ? quintic(th, a, qm[i] - q0[i], d0, h * vm[i], d1, &dv) : cubic(th, a, d0, d1, &dv));
        vv[i] = dv / h;
    }
    if (mo) {
        mb_real pnc, pdrv, dw = s->mon.W - s->td_W0, p0 = h * s->td_P0, p1 = h * s->pnc;
        *mo = s->mon;
        mbi_measure_at(s, t, q, vv, s->sig, NULL, mo, &pnc, &pdrv);
        /* the drivers' work enters through W's values only (their power is no P_nc) */
        mo->W = s->td_W0 + (x ? quintic(th, dw, qm[2 * n], p0, h * qm[2 * n + 1], p1, &dv) : cubic(th, dw, p0, p1, &dv));
        mo->energy_dev = mo->T + mo->V - mo->E0 - mo->W;
    }
    return MB_OK;
}

/* The slot's adaptive step (p.adaptive: 1 Milne's device, 2 the extrapolated trapezoid), the
 * monitor advanced: the extrapolation's work by its own quadrature (xw) */
int mbi_trap_control(mb_sim *s, mb_real t_stop, const mbi_step0 *b)
{
    mb_real h = 0;
    s->td_t0 = s->t;                   /* a failed step leaves nothing to interpolate */
#if MBI_XGE
    if (s->p.adaptive == 2) xge_step(s);
#endif
    int st = s->p.adaptive == 2 ? step_trapezoid_extrap(s, t_stop, &h)
                                : step_trapezoid_adaptive(s, t_stop, &h);
    if (st < 0) return st;
#if MBI_XGE
    if (s->p.adaptive == 2) {          /* the companion's count (xge_step) */
        if (++s->ge_n == 1) s->ge_tm = s->t;
        s->ge_tlast = s->t;
    }
#endif
    s->td_t0 = b->t_start;             /* mb_sim_dense's step (trap_dense) */
    s->td_W0 = b->mon0.W;
    s->td_P0 = b->pnc0;
    mbi_advance_monitor(s, h, b->pnc0, b->pdrv0, s->p.adaptive == 2 ? &s->xw : NULL);
    return st;
}

/* mb_sim_dense: the adaptive trapezoid's last step (the fixed step keeps none) */
int mbi_trap_dense(mb_sim *s, mb_real t, mb_real *q, mb_real *v, mb_monitor *mo)
{
    return s->p.adaptive ? trap_dense(s, t, q, v, mo) : MB_ERR_STATE;
}
#endif /* MBI_F4A */

