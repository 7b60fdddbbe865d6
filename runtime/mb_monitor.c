/* mb_monitor.c - energy, work and constraint monitors updated after every accepted step
 * (energy balance 6.19 with the work of non-conservative loads and drivers).
 * Layer: runtime core (mb_sim_impl.h); never allocates or prints. */
#include "mb_sim_impl.h"

/* Energies, constraint norms and the powers at (t, q, v), sigma sig (F2-F4) or lambda lam (F1),
 * into o (T, V, phi_norm, phid_norm, sigma_norm). */
void mbi_measure_at(mb_sim *s, mb_real t, const mb_real *q, const mb_real *v, const mb_real *sig,
                    const mb_real *lam, mb_monitor *o, mb_real *pnc, mb_real *pdrv)
{
    const mb_model *m = s->m;
    int nc = s->nc;
    const MBI_VIEW(MB_VIEW_MON) w = MBI_VIEW_OF(MB_VIEW_MON);   /* its blocks (mb_layout.h) */
    mb_real e[3], *pdot = w.pdot;
    int fresh = s->kin_fresh && q == s->z && t == s->kin_t;   /* F4 ends its step there */
    if (fresh && s->kin_fresh == 2 && v == s->v) copy(3, e, s->kin_e);   /* and checked them */
    else m->energy(m, t, q, v, e);
    if (!fresh) {
        mbi_eval_kin(s, t, q);
        /* the trapezoid's next step starts with Phi(t, z) (Int Phi, trap_step); its state only
         * changes through steps, which evaluate with mbi_eval_kin* (clearing the flag) */
        if (q == s->z && MBI_INTEGRATOR(s) == MB_TRAPEZOID) { s->kin_fresh = 1; s->kin_t = t; }
    }
    pq_mv(m, s->Pq, v, pdot);
    const mb_real *Phit = s->Phit, *Phi = s->Phi;
    mb_real a2 = 0, b2 = 0;   /* |Phi|^2 and |Phidot|^2 in one pass */
    for (int r = 0; r < nc; r++) {
        mb_real d = pdot[r] + Phit[r];
        pdot[r] = d;
        a2 += Phi[r] * Phi[r];
        b2 += d * d;
    }
    o->T = e[0];
    o->V = e[1];
    o->phi_norm = MB_SQRT(a2);
    o->phid_norm = MB_SQRT(b2);
    o->sigma_norm = MBI_FORMULATION(s) == MB_BAUMGARTE ? 0 : nrm2(nc, sig);
    *pnc = e[2];
    /* Driver power lambda^T Phi_t (F1); for F2-F4 the work uses Delta S (see advance_monitor). */
    *pdrv = MBI_FORMULATION(s) == MB_BAUMGARTE ? dot(nc, lam, s->Phit) : 0;
}

/* Energies, constraint norms and the powers at the current state (q = z, v = s->v). */
void mbi_measure(mb_sim *s, mb_real *pnc, mb_real *pdrv)
{
    mbi_measure_at(s, s->t, s->z, s->v, s->sig, s->lam, &s->mon, pnc, pdrv);
}

#if MBI_GE || MBI_XGE || MBI_ACC
/* (a coordinate near 0 is no finer than the mechanism: with the default atol 1e-8 at rtol 1e-6
 * a crank pin's 2e-5 m, 20 x rtol of a 1 m mechanism, would be 700 tolerances of its x) */
mb_real mbi_err_tols(const mb_sim *s, const mb_real *a, const mb_real *b, const mb_real *q)
{
    mb_real e = 0, L = s->mon.lscale;
    for (int i = 0; i < s->n; i++) {
        mb_real qi = MB_FABS(q[i]) > L ? MB_FABS(q[i]) : L;
        mb_real d = MB_FABS(b ? a[i] - b[i] : a[i]) / (s->p.atol + s->p.rtol * qi);
        if (!(d <= e)) e = d;             /* (NaN too) */
    }
    return e;
}
#endif

/* energy_dev, the running maxima and the scales of the warnings (after reset and every step) */
void mbi_update_max(mb_sim *s)
{
    mb_monitor *o = &s->mon;
    const mb_real *mass = s->m->mass, *p = s->z + s->n;
    o->energy_dev = o->T + o->V - o->E0 - o->W;
    if (MB_FABS(o->energy_dev) > o->max_energy_dev) o->max_energy_dev = MB_FABS(o->energy_dev);
    if (o->phi_norm > o->max_phi) o->max_phi = o->phi_norm;
    if (o->phid_norm > o->max_phid) o->max_phid = o->phid_norm;
    if (o->sigma_norm > o->max_sigma) o->max_sigma = o->sigma_norm;
    mb_real es = o->T + MB_FABS(o->V - o->V0) + MB_FABS(o->W), mv = 0, ps = 0;
    if (es > o->escale) o->escale = es;
    int n = s->n, f4 = MBI_FORMULATION(s) == MB_ALF_TRAPEZOID;
    int pm = !(MBI_FORMULATION(s) == MB_BAUMGARTE || f4);
    const mb_real *v = s->v;
    if (pm) {
        for (int i = 0; i < n; i++) {   /* M v, and p - M v = Phi_q^T sigma (F2, F3) */
            mb_real a = mass[i] * v[i], b = p[i] - a;
            mv += a * a;
            ps += b * b;
        }
    } else {
        for (int i = 0; i < n; i++) {   /* M v alone (ps stays 0) */
            mb_real a = mass[i] * v[i];
            mv += a * a;
        }
    }
    if (f4) {   /* F4: p - M v = Phi_q^T (sigma + alpha c) (5.41); alpha c is no drift of sigma,
                 * and from rest, while M v is still tiny, it alone passed the threshold (Andrews,
                 * step control at rtol 1e-10: at t = 3e-7 with |sigma| = 8e-14). Phi_q^T sigma
                 * itself, with Phi_q at this state (the monitor's evaluation), in u (the
                 * Newton iteration's g1, free between steps). */
        const MBI_VIEW(MB_VIEW_MON) w = MBI_VIEW_OF(MB_VIEW_MON);
        mb_real *u = w.u;
        zero(s->n, u);
        pq_mtv(s->m, s->Pq, s->sig, 1, u);
        ps = dot(s->n, u, u);
    }
    if (mv > o->pscale * o->pscale) o->pscale = MB_SQRT(mv);
#if MB_FLOAT
    o->mv2 = mv;   /* for the drift (mbi_advance_monitor) */
#endif
    o->sigma_ratio = ps == 0 ? 0 : o->pscale > 0 ? MB_SQRT(ps) / o->pscale : MB_R(1e30);
}

/* The default thresholds, for a check the caller turned off: what F1 and F2 still test to tell
 * a broken passage of a singular position (mb_sim_step). */
#define WARN_ENERGY MB_R(1e-2)
#define WARN_PHI MB_R(1e-3)

static void raise_warning(mb_monitor *o, int k, mb_real t, mb_real val)
{
    if (o->warn & MB_WARN_BIT(k)) return;
    o->warn |= MB_WARN_BIT(k);
    o->warn_t[k] = t;
    o->warn_val[k] = val;
}

/* F4's drivers' work, Delta S^T Phi_t: S = sigma~ carries alpha times the round-off of c
 * (c_r = Phi_q,r v + ..., v = 2/h (q - q_k) - v_k: eps |q_j| / h for the coordinates j of row
 * r), which the sum over the steps telescopes away except at the current step: a floor of
 * alpha eps |q| / h |Phi_t| that grows as h shrinks and with alpha, not a drift
 * (tests/models/audit_driven.lua at h = 1e-5: |energy_dev| up to 1.2e-2 J at alpha 1e8, 1.2 J at
 * 1e10, 1.2e-4 J at 1e6, while baumgarte has 2e-7 J on the same trajectory). Measured within 1-2
 * x of sum_r 4 alpha eps (1 + max_{j in row r} |q_j|) / h |Phi_t,r| (per row: a coordinate far
 * from the origin in another row says nothing of a driver's round-off; the pattern is sorted by
 * row). The energy test is not met below it, unless it reaches the energy scale itself: then the
 * balance cannot tell a failed run from round-off, and the test stays on (a smaller alpha or a
 * longer step lowers the floor). F4_FLOOR (mb_sim_impl.h) is that 4 in double; in float 16:
 * the crank-driven tests/models/jansen.lua measured 1.6 .. 2.1 x 4 alpha eps ... at alpha 3 ..
 * 4e3 (an ulp is up to 2 eps |x|), and with 10 its 60 s run still warned at 2.5 s. */
static mb_real f4_work_floor(const mb_sim *s)
{
    if (MBI_FORMULATION(s) != MB_ALF_TRAPEZOID || !(s->h_prev > 0)) return 0;
    const mb_pattern *P = &s->m->phi_q_pat;
    const mb_real *q = s->z;
    mb_real acc = 0, qm = 0;
    for (int k = 0; k < P->nnz; k++) {
        mb_real a = MB_FABS(q[P->col[k]]);
        if (a > qm) qm = a;
        if (k + 1 == P->nnz || P->row[k + 1] != P->row[k]) {   /* the row ends */
            acc += MB_FABS(s->Phit[P->row[k]]) * (1 + qm);
            qm = 0;
        }
    }
    mb_real f = F4_FLOOR * s->p.alpha * MB_EPS / s->h_prev * acc;
#if MB_FLOAT
    f += s->mon.W_floor;   /* and W's quadrature of steep loads (wq_floor) */
#endif
    return f < s->mon.escale ? f : 0;
}

#if MBI_ACC
/* ------------------------------------------------------------------ the accuracy estimates'
 * velocity error (bdf's signed sum, mb_bdf.c acc_step; the step-controlled trapezoid's,
 * mb_trapezoid_control.c trap_acc): its part tangent to the constraints, and its damping */
/* dv <- its part tangent to the constraints, the M-orthogonal projection
 *   dv - M^-1 Phi_q^T S^-1 Phi_q dv,  S = Phi_q M^-1 Phi_q^T,
 * with the Phi_q and the factors of S of the step's last evaluation (bdf on F1, F2:
 * mbi_kkt_solve's, at the corrector's last iterate, kept until the next evaluation; F4:
 * mbi_acc_s4's): no evaluation, one product with
 * Phi_q and one with its transpose, one solve with S. The part along M^-1 Phi_q^T is the one
 * the constraint forces act along: the stabilization (F1) or the momentum's constraint term
 * (F2) takes it out of the velocities; it does not carry the positions along the mechanism's
 * motion. y, pr scratch (nc, n). */
void mbi_acc_tangent(mb_sim *s, const mb_real *minv, mb_real *dv, mb_real *y, mb_real *pr)
{
    const mb_model *m = s->m;
    int n = s->n;
    pq_mv(m, s->Pq, dv, y);
    mbi_ls_solve(s, MB_MAT_S, y);
    zero(n, pr);
    pq_mtv(m, s->Pq, y, 1, pr);
    for (int i = 0; i < n; i++) dv[i] -= minv[i] * pr[i];
}

/* The damping of the velocity error u over a step of h (mb_bdf.c, acc_step;
 * mb_trapezoid_control.c, trap_acc): M du/dt = D u, D = dQ/dv (the model's dforce_dv at the
 * accepted q and the velocity v given, into dQv; bdf on F2: the velocity of the step's last
 * evaluation; on F4: of its last iterate), taken as du = c D u,
 * c = h / (1 + h rho), rho = |M^-1/2 D M^-1/2|_F, at least D's spectral radius in M's metric:
 * along an eigenvector of rate lambda <= rho the factor 1 - c lambda is in [1 / (1 + h rho), 1],
 * implicit Euler's for the fastest and between it and none for the slower (never damped past
 * zero, an undamped direction not at all), and an anti-damping D grows it. Returns c; 0 where
 * D is 0 (no dampers: the estimate's bits as without the damping) */
mb_real mbi_acc_damping(mb_sim *s, mb_real t1, mb_real h, const mb_real *q, const mb_real *v,
                        const mb_real *minv)
{
    const mb_model *m = s->m;
    const mb_pattern *pat = &m->dq_dv_pat;
    if (pat->nnz == 0) return 0;
    m->dforce_dv(m, t1, q, v, s->dQv);
    mb_real f = 0;
    for (int k = 0; k < pat->nnz; k++) {
        mb_real a = s->dQv[k] * s->dQv[k] * minv[pat->row[k]] * minv[pat->col[k]];
        f += a;
    }
    if (!(f > 0) || !isfinite(f)) return 0;   /* (a non-finite D: the step's own test sees it) */
    return h / (1 + h * MB_SQRT(f));
}

/* B += c tangent(M^-1 D B): a velocity error B damped over a step by the factor c of
 * mbi_acc_damping (D = dQ/dv in dQv, evaluated there), the damping's part tangent to the
 * constraints where tangent > 0 (S factored), else all of it; dv, y, pr scratch (n, nc, n) */
void mbi_acc_damp(mb_sim *s, mb_real c, const mb_real *minv, int tangent, mb_real *B, mb_real *dv,
                  mb_real *y, mb_real *pr)
{
    int n = s->n;
    sp_mv(&s->m->dq_dv_pat, s->dQv, B, dv, n);
    for (int i = 0; i < n; i++) dv[i] *= minv[i];
    if (tangent > 0) mbi_acc_tangent(s, minv, dv, y, pr);
    for (int i = 0; i < n; i++) B[i] += c * dv[i];
}

#if MBI_F4
/* F4 forms no S: S = Phi_q M^-1 Phi_q^T at the step's last evaluation (its Phi_q, the accepted
 * q), assembled and factored in A's block (mb_layout.h: F4 factors S there; A's factors do not
 * outlive a step: bdf's correct4 and the trapezoid factor afresh at each step's first
 * iteration), with minv <- M^-1. Regularized (mbi_ls_factor_s_reg): F4 runs through redundant
 * constraints (a parallelogram chain) and singular positions, where S is singular. mu = 10 eps
 * max diag, not the assembly's 1e3: mu's share of the normal part leaks into the tangent one,
 * and the multipliers' impulse in P grows with a held load (in float bdf on the held yoke read
 * 45.9 at rtol 1e-4 over 10 s with 1e3, its positions 1e-3 tolerances off; 0.55 with 10).
 * Without constraints minv alone (the damping reads it). 0, or nonzero where even that
 * factorization fails */
int mbi_acc_s4(mb_sim *s, mb_real *minv)
{
    for (int i = 0; i < s->n; i++) minv[i] = 1 / s->m->mass[i];
    return s->nc > 0 ? mbi_ls_factor_s_reg(s, minv, MB_R(1e1)) : MB_OK;
}
#endif
#endif

#if MBI_ACC
/* The accuracy warning's threshold in tolerances: p.warn_accuracy when given (> 0; 0: off),
 * else the estimator's own, each set from its misses and false alarms on the validation grid
 * and four more models (docs/validation.md, section 10, "The thresholds"): no
 * run more than 100 x rtol off silent, with 25 % to spare on its estimate, then the fewest
 * warnings on runs within 10 x rtol. The companions at 2h estimate the global error itself:
 * 10 (the smallest estimate of a run to warn 12.8, the walker's extrapolated trapezoid 125 x
 * rtol off); bdf's signed sum on F1, F2: 15 (slider_crank canonical at 1e-8, 822 x off, reads
 * 25.3; the chains' runs within 10 x read up to 13.8); on F4: 30 (Andrews at 1e-5, 267 x off,
 * reads 74.7; within 10 x the Jansen linkage up to 27.4); the step-controlled trapezoid's
 * signed sum: 30 (the cartpole at rtol 1e-4, 174 x off, reads 47.2, Andrews 86.2 at 123 x; of
 * the shipped models' runs within 10 x one warns, parallelogram_chain at 1e-4, 329 at 5.4 x,
 * and the held yoke reads 25 at 3.3 x) */
static mb_real acc_limit(const mb_sim *s)
{
    mb_real w = s->p.warn_accuracy;
    if (!(w < 0)) return w;
    int ig = MBI_INTEGRATOR(s);
    if (ig == MB_DOPRI5 || ig == MB_DOP853 || s->p.adaptive == 2) return 10;
    return ig == MB_BDF && MBI_FORMULATION(s) != MB_ALF_TRAPEZOID ? 15 : 30;
}
#endif

unsigned mbi_warnings(mb_sim *s, long maxiter_before)
{
    mb_monitor *o = &s->mon;
    const mb_params *p = &s->p;
    unsigned met = 0;
    mb_real e = o->escale > 0 && s->energy_armed ? MB_FABS(o->energy_dev) / o->escale :
                isfinite(o->energy_dev) ? 0 : o->energy_dev;
    mb_real ph = o->lscale > 0 ? o->phi_norm / o->lscale : 0;
#if MB_FLOAT
    /* the energy warning also measures the drift against the length scale (1 m where it is 0: a
     * single particle): in float the energy's round-off is a random walk, and
     * the period follows the energy (the A02 chain: 0.6 % of its energy scale, 2 m off) */
    mb_real dr = p->warn_energy > 0 ? MB_FABS(o->drift) / (o->lscale > 0 ? o->lscale : 1) : 0;
#endif
    if ((MBI_FORMULATION(s) == MB_ALF_TRAPEZOID || MBI_INTEGRATOR(s) == MB_HHT) && o->maxiter_events > maxiter_before) {
        met |= MB_WARN_BIT(MB_WARN_NEWTON);
        raise_warning(o, MB_WARN_NEWTON, s->t, (mb_real)o->maxiter_events);
    }
#if MBI_F4A
    /* the extrapolated trapezoid's held steps (mb_trapezoid.c, ADAPT_HOLD) past 1 % of the
     * steps: on the A02 chains (docs/validation.md, section 10) every run with that many was
     * 2e4 .. 2e5 x rtol off (their passages through the singular positions), every run with fewer
     * within 400 x rtol */
    if (p->adaptive == 2 && 100 * o->sigma_holds > o->steps + 100) {
        met |= MB_WARN_BIT(MB_WARN_NEWTON);
        raise_warning(o, MB_WARN_NEWTON, s->t, (mb_real)o->sigma_holds);
    }
#endif
    /* NaN too; F4's floor only where the test would be met (a pass over Phi_q's pattern) */
    if (!(e <= (p->warn_energy > 0 ? p->warn_energy : WARN_ENERGY)) &&
        !(MB_FABS(o->energy_dev) <= f4_work_floor(s))) {
        met |= MB_WARN_BIT(MB_WARN_ENERGY);
        if (p->warn_energy > 0) raise_warning(o, MB_WARN_ENERGY, s->t, e);
    }
#if MB_FLOAT
    /* the drift warns but is not met by this step: it sums the whole run, and F1's and F2's
     * test of a step near a singular position (mb_sim.c) must not undo every later step */
    else if (dr > p->warn_energy && !(MB_FABS(o->energy_dev) <= f4_work_floor(s)))
        raise_warning(o, MB_WARN_ENERGY, s->t, dr);
#endif
    if (!(ph <= (p->warn_phi > 0 ? p->warn_phi : WARN_PHI))) {
        met |= MB_WARN_BIT(MB_WARN_CONSTRAINT);
        if (p->warn_phi > 0) raise_warning(o, MB_WARN_CONSTRAINT, s->t, ph);
    }
    if (p->warn_sigma > 0 && s->energy_armed && o->sigma_ratio > p->warn_sigma) {
        met |= MB_WARN_BIT(MB_WARN_SIGMA);
        raise_warning(o, MB_WARN_SIGMA, s->t, o->sigma_ratio);
    }
    /* fixed steps only: an adaptive step beyond the limit (a stiff mode not excited) leaves the
     * error control to reject what an instability would spoil */
    if (p->warn_stability > 0 && MBI_INTEGRATOR(s) == MB_RK4 && o->stiffness > p->warn_stability) {
        met |= MB_WARN_BIT(MB_WARN_STABILITY);
        raise_warning(o, MB_WARN_STABILITY, s->t, o->stiffness);
    }
    /* bdf and the step-controlled trapezoid: each step's error is held below the tolerance, the
     * run's is about their sum times how errors grow (a phase error: linearly in t), and their
     * estimates are of the solution they advance (dopri5's and dop853's are of the embedded
     * lower order one, many times the error of the solution taken; the extrapolated
     * trapezoid's likewise, so they estimate the global error by a companion at 2h instead):
     * an estimate past its threshold (acc_limit) is a run whose error rtol may not bound; the
     * thresholds' misses and false alarms: docs/validation.md, section 10, "The thresholds".
     * err_max keeps the largest estimate (the summary's err_est) */
#if MBI_ACC   /* (firmware builds have neither: no code, no field) */
    if (o->err_sum > o->err_max) o->err_max = o->err_sum;
    o->err_lim = acc_limit(s);
    if (o->err_lim > 0 && o->err_sum > o->err_lim) {
        met |= MB_WARN_BIT(MB_WARN_ACCURACY);
        raise_warning(o, MB_WARN_ACCURACY, s->t, o->err_sum);
    }
#endif
    return met;
}

/* The work of a step of dt by the trapezoidal rule (powers pnc_old, pdrv_old at its start, pnc,
 * pdrv at its end; Phi_t at the start in ptq, at the end in Phit; the multiplier integral S_old
 * in S0, S at the end): P_nc + work of drivers. Driver work: F1 trapezoid of lambda^T Phi_t;
 * F2-F4 lambda = dS/dt so the trapezoid is (S_new - S_old)^T (Phit_old + Phit_new) / 2.
 * Constraint forces on the system are -Phi_q^T lambda (M a + Phi_q^T lambda = Q), their power
 * -lambda^T Phi_q v = lambda^T Phi_t on Phidot = 0. */
mb_real mbi_step_work(const mb_sim *s, mb_real dt, mb_real pnc_old, mb_real pnc, mb_real pdrv_old,
                      mb_real pdrv)
{
    mb_real w = dt / 2 * (pnc_old + pnc);
    if (MBI_FORMULATION(s) == MB_BAUMGARTE) w += dt / 2 * (pdrv_old + pdrv);
    else {
        const mb_real *S = s->S, *S0 = s->S0, *pt0 = s->ptq, *pt = s->Phit;
        for (int r = 0; r < s->nc; r++) w += (S[r] - S0[r]) * (pt0[r] + pt[r]) / 2;
    }
    return w;
}

/* The kinetic energy of motion the run cannot resolve. Two velocities are below its
 * resolution: one ulp of the position per step, eps (1 + |q_i|) / dt, moves no coordinate
 * (q_k+1 = q_k + dt v rounds it away), and the velocity constraints' own residual, max |Phidot|
 * (the initial velocities' assembly, then each step's solution), is motion the constraints do
 * not hold to. A mechanism at rest with V = V0 = W = 0 (nothing for eround to scale) moves
 * about that: tests/models/yoke_hold.lua at rest (the spring at its rest length, no gravity)
 * has escale 1.9e-25 J at h = 1e-3 (max |Phidot| 1.7e-13 m/s; 1/2 sum M_ii dv_i^2 = 1.0e-25 J
 * from the ulps, 2e-26 J from Phidot), 4.7e-26 J at h = 1e-2 (4.3e-14 m/s: 3.5e-28 + 1.3e-27 J)
 * and 7.6e-28 J with bdf's 0.25 s steps (1.3e-27 J from Phidot alone). 100x that (10x in
 * velocity) is the floor. It grows as 1 / dt^2: a 1 kg body 1 m from the origin in float
 * has 3.6e-6 J of it at h = 1e-3 (the float 1 m bar's 0.01 rad swing, escale 4.8e-4 J, still
 * arms), 3.6e-4 J at h = 1e-4, where float resolves no slower motion of it (v below 2.4e-3 m/s
 * moves no coordinate). */
static mb_real rest_floor(const mb_sim *s, mb_real dt)
{
    if (!(dt > 0)) return 0;
    const mb_real *mass = s->m->mass, *q = s->z;
    mb_real acc = 0;
    for (int i = 0; i < s->n; i++) {
        mb_real dv = MB_EPS * (1 + MB_FABS(q[i])) / dt + s->mon.max_phid;
        acc += mass[i] * dv * dv;
    }
    return 50 * acc;   /* 100 x 1/2 sum M_ii dv_i^2 */
}

#if MB_FLOAT
/* F4 in float: W sums the loads' power Q.v at the steps' ends (mbi_step_work), at velocities
 * the trapezoid resolves to dv_j = 2 eps (1 + |q_j|) / dt (v = 2/h (q - q_k) - v_k: an ulp of
 * q), and a load as steep as dQ_i/dv_j errs by about dQ/dv dv_j in the power's factor and
 * the same in the velocity's: dt/2 sum |dQ_i/dv_j| dv_j^2 a step, the same sign every step (a
 * dissipative slope dissipates the noise too). Summed over the run (mon.W_floor) it is part of
 * f4_work_floor: below it the energy test cannot tell a failed run from that noise. The
 * walker's feet (models/walker.lua: friction slope up to 1e5 N s/m while a foot sticks) make W
 * 0.23 J low over its first second while T + V stays within 0.005 J of the double run's:
 * |energy_dev| 0.25, 2.7, 9.6 J at 1, 5, 10 s against this sum's 0.33, 3.5, 12.8 J (at 10 s
 * 40 % of the energy scale: float's energy balance says little about this model). */
static mb_real wq_floor(const mb_sim *s, mb_real dt)
{
    const mb_model *m = s->m;
    const mb_real *q = s->z;
    mb_real acc = 0;
    for (int k = 0; k < m->dq_dv_pat.nnz; k++) {
        mb_real dv = 2 * MB_EPS * (1 + MB_FABS(q[m->dq_dv_pat.col[k]])) / dt;
        acc += MB_FABS(s->dQv[k]) * dv * dv;
    }
    return dt / 2 * acc;
}
#endif

/* After a step of dt: the monitors at the new state, W += mbi_step_work, or *wq, the adaptive
 * integrators' own quadrature of both loads and drivers (mb_rk.c). */
void mbi_advance_monitor(mb_sim *s, mb_real dt, mb_real pnc_old, mb_real pdrv_old, const mb_real *wq)
{
    mb_real pnc, pdrv, T0 = s->mon.T, V0 = s->mon.V;
    mbi_measure(s, &pnc, &pdrv);
    mb_real w = wq ? *wq : mbi_step_work(s, dt, pnc_old, pnc, pdrv_old, pdrv);
#if MB_FLOAT
    /* W += w compensated (Kahan): over n steps a plain float sum rounds off up to n eps |W|
     * (1e5 steps: 1 % of W), this one about 2 eps |W| (double keeps its plain sum, bit for bit) */
    mb_real y = w - s->mon.W_lo, W1 = s->mon.W + y;
    s->mon.W_lo = (W1 - s->mon.W) - y;
    s->mon.W = W1;
    if (MBI_FORMULATION(s) == MB_ALF_TRAPEZOID && dt > 0) s->mon.W_floor += wq_floor(s, dt);
#else
    s->mon.W += w;
#endif
    s->pnc = pnc;
    s->pdrv = pdrv;
    copy(s->nc, s->ptq, s->Phit);
    mbi_update_max(s);
#if MB_FLOAT
    /* the drift: an energy error dE is a speed error dE / |M v| (T = |M v|^2 / 2m), which moves
     * the positions along the path (docs/embedding.md, "The energy drift in float"); a tenth
     * of the momentum scale added to |M v| where the motion turns (armed: it has moved) */
    if (s->energy_armed)
        s->mon.drift += dt * s->mon.energy_dev / (MB_SQRT(s->mon.mv2) + MB_R(0.1) * s->mon.pscale);
#endif
    /* the energy test is armed once the energy scale exceeds 10 x what one step moves (in the
     * first steps from rest the scale is of the order of one step's quadrature error) and the
     * round-off of the energies themselves: a mechanism at rest (a 1 m bar balanced upright,
     * until round-off toppled it: escale 5e-14 J = 46 eps |V|, |V| = 4.9 J) has moved nothing a
     * deviation could be measured against, and the sigma test, armed with it, nothing its momentum scale means.
     * 200 eps: 4x that in double, and in float a 1 m bar swinging 0.01 rad (escale 4.8e-4 J =
     * 800 eps |V|) still arms (1000 eps did not: its energy error of 3 % went unreported) */
    mb_real eround = 200 * MB_EPS * (MB_FABS(s->mon.T) + MB_FABS(s->mon.V) + MB_FABS(s->mon.V0) +
                                     MB_FABS(s->mon.W));
    if (!s->energy_armed && s->mon.escale > eround && s->mon.escale > rest_floor(s, dt) &&
        s->mon.escale >= 10 * (MB_FABS(s->mon.T - T0) + MB_FABS(s->mon.V - V0) + MB_FABS(w)))
        s->energy_armed = 1;
}
