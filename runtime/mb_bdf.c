/* mb_bdf.c - the implicit, variable-step, variable-order BDF (orders 1-5): Nordsieck form,
 * predictor-corrector error estimate, step and order selection after Gear's GSTIFF strategy
 * (ADAMS seed, sections 4-5; the coefficients and tests of the fixed-leading-coefficient
 * Nordsieck method as in Hindmarsh's LSODE). F1 and F2: the ODE z' = f(t, z), modified Newton on
 * a finite-difference Jacobian whose LU is kept across steps. F4: its index-3 augmented
 * Lagrangian equations in [q; p], Newton on its sparse reduced matrix (correct4). F3 is refused
 * by mb_params_check (noisy right-hand side); its code path here is the ODE one. Continuous
 * extension: the Nordsieck polynomial (bdf_dense). Layer: runtime core; never allocates or
 * prints.
 *
 * Notation: the array zn[j] = h^j y^(j) / j! (j = 0..q) at t_n. A step predicts zn <- P zn
 * (Pascal matrix), then solves for the correction e = y_{n+1} - y_pred the corrector
 *   h f(t_{n+1}, y_pred + e) = zn[1] + l_1 e,
 * i.e. G(e) = gamma f - zn[1] / l_1 - e = 0 with gamma = h / l_1, by modified Newton with the
 * matrix I - gamma J, and updates zn[j] += l_j e. l(x) = prod_{i=1..q} (1 + x / i) (constant-step
 * BDF of order q; l_0 = 1). The local error estimate is |e| / (q + 1) in the weighted RMS norm
 * over the error-tested components (docs/formulations.md, "bdf"). */
#include "mb_sim_impl.h"
#include "mb_sparse.h"

#if MBI_BDF

#define QMAX 5
#define MAXCOR 4            /* Newton iterations per attempt */
#define JAC_AGE 50          /* accepted steps a Jacobian is kept at most */
#define GAM_CHANGE MB_R(0.3) /* refactor when gamma moved by more than this fraction */

static mb_real *zc(const mb_sim *s, int j) { return s->bz + (size_t)j * (size_t)s->nz; }
/* Whether the formulation is implicit (its row gives the Newton pieces, not rhs: F4), as bdf's
 * start found it */
#if MBI_F4
#define IMPL(s) ((s)->bimp)
#else
#define IMPL(s) 0
#endif
/* The integrated components: an explicit formulation's whole state z; an implicit one's [q; p]
 * (Int Phi is advanced by explicit Euler from the step's start as in the trapezoid's step,
 * sigma~ by its iteration). */
static int ny_of(const mb_sim *s) { return IMPL(s) ? 2 * s->n : s->nz; }

/* l_j of order q (l_0 = 1): the coefficients of prod_{i=1..q} (1 + x / i), row q - 1, as the
 * recurrence l_j += l_{j-1} / i (i = 1..q, j = i..1) from l = (1, 0, ...) rounds them in mb_real
 * (hexadecimal: exact). A table, not the recurrence at every step: that was 0.4 % of a bdf run
 * on Andrews. */
#if MB_FLOAT
#define LC(d, f) f
#else
#define LC(d, f) d
#endif
static const mb_real LCOEF[QMAX][QMAX + 1] = {
    {1, 1, 0, 0, 0, 0},
    {1, LC(0x1.8p+0, 0x1.8p+0f), LC(0x1p-1, 0x1p-1f), 0, 0, 0},
    {1, LC(0x1.d555555555555p+0, 0x1.d55556p+0f), 1, LC(0x1.5555555555555p-3, 0x1.555556p-3f), 0, 0},
    {1, LC(0x1.0aaaaaaaaaaaap+1, 0x1.0aaaacp+1f), LC(0x1.7555555555555p+0, 0x1.755556p+0f),
     LC(0x1.aaaaaaaaaaaaap-2, 0x1.aaaaacp-2f), LC(0x1.5555555555555p-5, 0x1.555556p-5f), 0},
    {1, LC(0x1.2444444444444p+1, 0x1.244446p+1f), LC(0x1.ep+0, 0x1.ep+0f),
     LC(0x1.6aaaaaaaaaaaap-1, 0x1.6aaaacp-1f), LC(0x1p-3, 0x1p-3f),
     LC(0x1.1111111111111p-7, 0x1.111112p-7f)},
};
#undef LC

/* The error-tested components: F1's [q; v], F2's [q; p]; Int Phi (F2) is left out
 * (weight 0: it is the stabilization's integral of the constraint residual, not motion). F4:
 * the positions (GSTIFF's "displacements") and, below the top order, loosely the momenta
 * (set_weights); never its velocities: they carry a component normal to the constraints of
 * O(h) (Phi_q v = -2 xi omega Phi) that changes with h and would be taken for error (see F4's
 * step control in mb_f4_trapezoid.c). */
static int ntest(const mb_sim *s)
{
    return IMPL(s) && s->bq >= QMAX ? s->n : 2 * s->n;
}

/* Weights 1 / (atol + rtol |y_i|) (times 1 / tolf, below); a momentum p_i = m_i v_i + ... is
 * tested in velocity units, 1 / (m_i atol + rtol |p_i|), F2's with |p_i| at most P_s, the
 * run's largest |M v|_2 (mon.pscale, as dopri5's and dop853's test in mb_rk.c): the impulse
 * sigma of a lasting reaction grows |p| with t (the pendulum's rod: 1e3 x |M v| after 250 s),
 * and rtol |p| then passed a velocity error of that many tolerances, a phase error (canonical,
 * pendulum, 1000 periods, rtol 1e-8: 0.13 m -> 8.1e-4 m, 2.6x the steps; crank-rocker 100 s
 * 4.2e-2 -> 3.6e-3 m, 1.2x). Not F4's, tested loosely below the top order only (below): the
 * cap changed its errors by less than 10 %, and its crank-rocker at rtol 1e-4, which blows up
 * (energy 1e19 J), then crept on in ever smaller steps instead of stopping at 14.2 s with a
 * step size underflow. The momenta of small bodies are small numbers, and atol alone
 * would allow them relative errors far above rtol (Andrews, canonical, rtol = atol = 1e-8:
 * |beta - ref| 1.2e-4 with the plain weights, docs/formulations.md).
 * F4, below the top order (the start-up's ramp, and after an order drop), tests its momenta as
 * the position error their velocity error makes over MOM4_STEPS steps (those weights times
 * MOM4_STEPS h). Tested with the positions only, the momenta of the stiffened Andrews
 * (alpha = 1e9, rtol 1e-7) reached 4e3 .. 4e4 times the tolerance in velocity units in the
 * start-up at order 2, where the position test had let h grow 10x, and the angles at t = 0.03
 * lost 0.5-1.2 digits against the same work with them tested (docs/work-precision.md,
 * "Stiffened Andrews"). Tested at every order (30 steps) they cost the parallelogram chain
 * (20 s) 49 % more steps at rtol 1e-6 and tripled its energy error; at orders 1-4 only: 915
 * steps against 891, energy error 0.068 J against 0.073. 3 .. 100 steps all gained on Andrews
 * (the digits too noisy to rank them); 10 and 30 took tests/test_audit.sh's driven double
 * pendulum (rtol 1e-6, 100 s) above its 0.03 J energy bound (0.032, 0.041 J; 0.018 before,
 * 0.022 with 5). F4's array also holds Int Phi (weight 0). */
#define MOM4_STEPS 5

/* Tolerance proportionality: the local error test holds e / (q + 1) below tolf = (rtol /
 * PROP_RTOL)^(1/QMAX) tolerances (1 for rtol >= PROP_RTOL, at least PROP_MIN), not one. A step
 * of order q accepted at a local error E has h ~ E^(1/(q+1)), and a run accumulates its 1 / h
 * steps' errors: with E = rtol (error per step, LSODE's and CVODE's test) the global error fell
 * as rtol^(q/(q+1)) at best, 1e3 .. 1e7 x rtol at rtol 1e-8 on the validation models
 * (docs/validation.md, section 10). E = rtol tolf makes it ~ rtol at the top order (RADAU5
 * transforms its tolerances the same way, rtol^(2/3) for its order-3 estimate). One factor
 * for every order, so the order selection compares the orders as before: per order,
 * (rtol / PROP_RTOL)^(1/q), favoured the high orders and cost the pendulum (1000 periods)
 * 2-6x its error at equal steps. Runs at rtol >= PROP_RTOL are unchanged; at 1e-6, 1e-8, 1e-10
 * the steps grow about 1.2, 1.35, 1.6x (docs/formulations.md, "bdf"). The Newton tests are
 * relative to the same weights, so they tighten with it (CVODE: a fraction of the error
 * test's tolerance). */
#define PROP_RTOL MB_R(1e-4)
#define PROP_MIN MB_R(0.01)
static mb_real tolf(const mb_sim *s)
{
    mb_real r = s->p.rtol / PROP_RTOL, f = r < 1 ? MB_POW(r, 1 / (mb_real)QMAX) : 1;
    return f > PROP_MIN ? f : PROP_MIN;
}

static void set_weights(mb_sim *s)
{
    const mb_real *y = zc(s, 0), *mass = s->m->mass;
    int n = s->n, mom = s->p.formulation != MB_BAUMGARTE;
    mb_real *w = s->bw, g = 1 / tolf(s), atol = s->p.atol, rtol = s->p.rtol;
    mb_real c = IMPL(s) ? MOM4_STEPS * s->bh : 1, ps = s->mon.pscale;
    c *= g;
    for (int i = 0; i < n; i++) w[i] = g / (atol + rtol * MB_FABS(y[i]));
    if (mom)
        for (int i = n; i < 2 * n; i++) {
            mb_real a = MB_FABS(y[i]);
            if (!IMPL(s) && ps > 0 && a > ps) a = ps;
            w[i] = c / (atol * mass[i - n] + rtol * a);
        }
    else for (int i = n; i < 2 * n; i++) w[i] = c / (atol + rtol * MB_FABS(y[i]));
    for (int i = 2 * n; i < s->nz; i++) w[i] = 0;
}

static mb_real wrms(const mb_sim *s, const mb_real *x)
{
    int m = ntest(s);
    mb_real acc = 0;
    for (int i = 0; i < m; i++) { mb_real e = x[i] * s->bw[i]; acc += e * e; }
    return MB_SQRT(acc / (mb_real)(m > 0 ? m : 1));
}

#if MBI_EXPLICIT
static int rhs(mb_sim *s, mb_real t, const mb_real *z, mb_real *f)
{
    s->mon.evals++;
    int st = MBI_FORM(s)->rhs(s, t, z, f);
    if (!st && !finite_vec(s->nz, f)) st = MB_ERR_NONFINITE;
    return st;
}
#endif

/* zn <- P zn (predict) or P^-1 zn (retract a rejected attempt): for each k < q, zn[j-1] +=
 * zn[j] (or -=) for j = q down to k + 1. Component by component with the entries in registers
 * (the same additions in the same order as row by row, so the same result, in a third of the
 * instructions: the row-by-row sweep was an eighth of a bdf run on Andrews), one loop per
 * order. */
#define PA(a, b) ((a) += (b))
#define PS(a, b) ((a) -= (b))
#define PASCAL_SWEEP(OP)                                                                           \
    switch (q) {                                                                                   \
    case 1:                                                                                        \
        for (int i = 0; i < nz; i++) OP(z0[i], z1[i]);                                             \
        break;                                                                                     \
    case 2:                                                                                        \
        for (int i = 0; i < nz; i++) {                                                             \
            mb_real x0 = z0[i], x1 = z1[i], x2 = z2[i];                                            \
            OP(x1, x2); OP(x0, x1);                                                                \
            OP(x1, x2);                                                                            \
            z0[i] = x0; z1[i] = x1;                                                                \
        }                                                                                          \
        break;                                                                                     \
    case 3:                                                                                        \
        for (int i = 0; i < nz; i++) {                                                             \
            mb_real x0 = z0[i], x1 = z1[i], x2 = z2[i], x3 = z3[i];                                \
            OP(x2, x3); OP(x1, x2); OP(x0, x1);                                                    \
            OP(x2, x3); OP(x1, x2);                                                                \
            OP(x2, x3);                                                                            \
            z0[i] = x0; z1[i] = x1; z2[i] = x2;                                                    \
        }                                                                                          \
        break;                                                                                     \
    case 4:                                                                                        \
        for (int i = 0; i < nz; i++) {                                                             \
            mb_real x0 = z0[i], x1 = z1[i], x2 = z2[i], x3 = z3[i], x4 = z4[i];                    \
            OP(x3, x4); OP(x2, x3); OP(x1, x2); OP(x0, x1);                                        \
            OP(x3, x4); OP(x2, x3); OP(x1, x2);                                                    \
            OP(x3, x4); OP(x2, x3);                                                                \
            OP(x3, x4);                                                                            \
            z0[i] = x0; z1[i] = x1; z2[i] = x2; z3[i] = x3;                                        \
        }                                                                                          \
        break;                                                                                     \
    default:                                                                                       \
        for (int i = 0; i < nz; i++) {                                                             \
            mb_real x0 = z0[i], x1 = z1[i], x2 = z2[i], x3 = z3[i], x4 = z4[i];                    \
            mb_real x5 = z5[i];                                                                    \
            OP(x4, x5); OP(x3, x4); OP(x2, x3); OP(x1, x2); OP(x0, x1);                            \
            OP(x4, x5); OP(x3, x4); OP(x2, x3); OP(x1, x2);                                        \
            OP(x4, x5); OP(x3, x4); OP(x2, x3);                                                    \
            OP(x4, x5); OP(x3, x4);                                                                \
            OP(x4, x5);                                                                            \
            z0[i] = x0; z1[i] = x1; z2[i] = x2; z3[i] = x3; z4[i] = x4;                            \
        }                                                                                          \
        break;                                                                                     \
    }
static void pascal(mb_sim *s, int inverse)
{
    int nz = ny_of(s), q = s->bq;
    mb_real *z0 = zc(s, 0), *z1 = zc(s, 1), *z2 = zc(s, 2), *z3 = zc(s, 3), *z4 = zc(s, 4), *z5 = zc(s, 5);
    if (inverse) { PASCAL_SWEEP(PS) }
    else { PASCAL_SWEEP(PA) }
}
#undef PASCAL_SWEEP
#undef PS
#undef PA

/* The accepted step's array: zn[j] += l_j e for j = 0..q, one loop per order (the same products
 * and sums as a loop that tests the order per component, without the tests). */
static void update(mb_sim *s, const mb_real *l)
{
    int nz = ny_of(s), q = s->bq;
    const mb_real *e = s->be;
    mb_real *z0 = zc(s, 0), *z1 = zc(s, 1), *z2 = zc(s, 2), *z3 = zc(s, 3), *z4 = zc(s, 4), *z5 = zc(s, 5);
    mb_real l0 = l[0], l1 = l[1], l2 = l[2], l3 = l[3], l4 = l[4], l5 = l[5];
    switch (q) {
    case 1:
        for (int i = 0; i < nz; i++) { mb_real x = e[i]; z0[i] += l0 * x; z1[i] += l1 * x; }
        break;
    case 2:
        for (int i = 0; i < nz; i++) {
            mb_real x = e[i];
            z0[i] += l0 * x; z1[i] += l1 * x; z2[i] += l2 * x;
        }
        break;
    case 3:
        for (int i = 0; i < nz; i++) {
            mb_real x = e[i];
            z0[i] += l0 * x; z1[i] += l1 * x; z2[i] += l2 * x; z3[i] += l3 * x;
        }
        break;
    case 4:
        for (int i = 0; i < nz; i++) {
            mb_real x = e[i];
            z0[i] += l0 * x; z1[i] += l1 * x; z2[i] += l2 * x; z3[i] += l3 * x; z4[i] += l4 * x;
        }
        break;
    default:
        for (int i = 0; i < nz; i++) {
            mb_real x = e[i];
            z0[i] += l0 * x; z1[i] += l1 * x; z2[i] += l2 * x; z3[i] += l3 * x; z4[i] += l4 * x;
            z5[i] += l5 * x;
        }
        break;
    }
}

/* A new step r h: zn[j] *= r^j. */
static void rescale(mb_sim *s, mb_real r)
{
    int nn = ny_of(s), q = s->bq;
    mb_real f[QMAX + 1];
    mb_real *z1 = zc(s, 1), *z2 = zc(s, 2), *z3 = zc(s, 3), *z4 = zc(s, 4), *z5 = zc(s, 5);
    f[0] = 1;
    for (int j = 1; j <= QMAX; j++) f[j] = f[j - 1] * r;   /* r^j, as a running product */
    mb_real f1 = f[1], f2 = f[2], f3 = f[3], f4 = f[4], f5 = f[5];
    switch (q) {   /* component by component, one loop per order (the same products) */
    case 1:
        for (int i = 0; i < nn; i++) z1[i] *= f1;
        break;
    case 2:
        for (int i = 0; i < nn; i++) { z1[i] *= f1; z2[i] *= f2; }
        break;
    case 3:
        for (int i = 0; i < nn; i++) { z1[i] *= f1; z2[i] *= f2; z3[i] *= f3; }
        break;
    case 4:
        for (int i = 0; i < nn; i++) { z1[i] *= f1; z2[i] *= f2; z3[i] *= f3; z4[i] *= f4; }
        break;
    default:
        for (int i = 0; i < nn; i++) {
            z1[i] *= f1; z2[i] *= f2; z3[i] *= f3; z4[i] *= f4; z5[i] *= f5;
        }
        break;
    }
    s->bh *= r;
    s->bep_ok = 0;
}

#if MBI_EXPLICIT
/* df/dz at (t, y) by forward differences, f0 = f(t, y) given; column j perturbed by
 * sqrt(eps) max(|y_j|, |h f0_j|, 1 / w_j) (atol for the untested components). */
static int jacobian(mb_sim *s, mb_real t, mb_real *y, const mb_real *f0)
{
    int nz = s->nz, st;
    mb_real *fj = s->bd, srur = MB_SQRT(MB_EPS);
    for (int j = 0; j < nz; j++) {
        mb_real yj = y[j], d = MB_FABS(yj), hf = MB_FABS(s->bh * f0[j]);
        mb_real wj = s->bw[j] > 0 ? 1 / s->bw[j] : s->p.atol;
        if (hf > d) d = hf;
        if (wj > d) d = wj;
        d *= srur;
        y[j] = yj + d;
        d = y[j] - yj;                    /* the step actually taken */
        st = rhs(s, t, y, fj);
        y[j] = yj;
        if (st) return st;
        mb_real *col = s->bJ + (size_t)j * (size_t)nz;
        for (int i = 0; i < nz; i++) col[i] = (fj[i] - f0[i]) / d;
    }
    s->bjac_ok = 1;
    s->bjac_age = 0;
    return MB_OK;
}

/* The Newton matrix I - gamma J into bM, factored. */
static int factor(mb_sim *s, mb_real gamma)
{
    int nz = s->nz;
    size_t nn = (size_t)nz * (size_t)nz;
    for (size_t k = 0; k < nn; k++) s->bM[k] = -gamma * s->bJ[k];
    for (int i = 0; i < nz; i++) s->bM[i + (size_t)i * nz] += 1;
    s->mon.factorizations++;
    s->bfact_ok = 0;
    int st = mb_lu_factor(nz, s->bM, s->bpiv, 0, NULL);
    if (st) return st;
    s->bgam = gamma;
    s->bfact_ok = 1;
    return MB_OK;
}

/* The corrector at t1 from the predicted zn: e in be, y = zn[0] + e in ztmp. Returns MB_OK
 * (converged), 1 (not converged: retry) or a failure that is not the iteration's. */
static int correct(mb_sim *s, mb_real t1, const mb_real *l)
{
    int nz = s->nz, st;
    mb_real gamma = s->bh / l[1], *e = s->be, *y = s->ztmp, *f = s->bf, *d = s->bd;
    const mb_real *y0 = zc(s, 0), *z1 = zc(s, 1);
    mb_real conit = (mb_real)(2 * (s->bq + 2)) / (mb_real)(s->bq + 1), delp = 0;
    zero(nz, e);
    copy(nz, y, y0);
    for (int m = 0; m < MAXCOR; m++) {
        st = rhs(s, t1, y, f);
        if (st == MB_ERR_NONFINITE || st == MB_ERR_SINGULAR || st == MB_ERR_NOT_SPD) return 1;
        if (st) return st;
        if (m == 0 && (!s->bfact_ok || MB_FABS(gamma / s->bgam - 1) > GAM_CHANGE)) {
            if (!s->bjac_ok) {
                st = jacobian(s, t1, y, f);
                if (st == MB_ERR_NONFINITE || st == MB_ERR_SINGULAR || st == MB_ERR_NOT_SPD) return 1;
                if (st) return st;
            }
            st = factor(s, gamma);
            if (st == MB_ERR_SINGULAR || st == MB_ERR_NONFINITE) return 1;
            if (st) return st;
        }
        for (int i = 0; i < nz; i++) d[i] = gamma * f[i] - z1[i] / l[1] - e[i];
        mb_lu_solve(nz, s->bM, s->bpiv, d);
        s->mon.solves++;
        s->mon.newton_iters++;
        if (gamma != s->bgam) {          /* a matrix of another gamma: damp (CVODE's factor) */
            mb_real c = 2 / (1 + gamma / s->bgam);
            for (int i = 0; i < nz; i++) d[i] *= c;
        }
        for (int i = 0; i < nz; i++) { e[i] += d[i]; y[i] = y0[i] + e[i]; }
        mb_real del = wrms(s, d);
        if (!isfinite(del) || !finite_vec(nz, y)) return 1;
        if (m > 0) {
            mb_real r = del / delp;
            s->bcrate = MB_R(0.2) * s->bcrate > r ? MB_R(0.2) * s->bcrate : r;
        }
        mb_real cr = MB_R(1.5) * s->bcrate;
        if (m > 0 && del * (cr < 1 ? cr : 1) * conit <= 1) return MB_OK;
        if (m > 0 && del > 2 * delp) return 1;   /* diverging */
        delp = del;
    }
    return 1;
}

#endif /* MBI_EXPLICIT */

#if MBI_F4
/* Newton on F4's residuals 5.41, 5.42 (scaled by gamma) with sigma~ updated by 5.34 after each
 * update of y = [q; p], as F4's trapezoid step (mb_f4_trapezoid.c, trap_step), the trapezoid's
 * v = 2/h (q - q_k) - v_k replaced by the BDF corrector's v = (q - q_pred) / gamma + zn1_q / h
 * (and pdot likewise), gamma = h / l_1: the reduced matrix is F4's with h/2 -> gamma (its
 * c1 = 1 + 2 gamma xi omega).
 * Converged when the position correction is below NEWTON4 of the error tolerance (weighted RMS
 * over q, what the error test measures) after at least two iterations, or the whole correction
 * below tol and the position correction below the error tolerance (tol alone, absolute 1e-10,
 * stopped iterations whose position correction was above tolerances of 1e-10 and less: the
 * pendulum over 1000 periods at rtol 1e-10 ended 1.2e-2 m off, more than at 1e-9). The momenta are not tested: p carries Phi_q^T sigma~, whose update 5.34 lags the
 * iterate by one iteration, so the second correction is mostly p's share of it and the third,
 * which a test on [q; p] waited for, changes nothing (Andrews, alpha = 1e9, rtol 1e-9: q's
 * second correction 2e-4 of the tolerance, p's 40x, the third 1e-14 in all; the angles at
 * t = 0.03 the same to 3 digits of their error at rtol 1e-6 ... 1e-12, 22 % fewer Newton
 * iterations at 1e-9). Stopping after one iteration when the rate promises convergence lost
 * half a digit: p's lagged share is needed. A correction up to NEWTON4_FAST of the tolerance
 * also converges when it is at most NEWTON4_RATE of the one before: the estimated remaining
 * error, rate / (1 - rate) of it, is then at most 3e-5 of the tolerance, below what NEWTON4
 * alone leaves. With alpha 1e9 the second correction is 1e-3 .. 6e-3 of the first (the
 * neglected terms of the matrix, not the predicted state's violation of the velocity
 * constraint: a first iterate moved onto it by a projection left the ratio as it was), and
 * 1e-3 .. 2.5e-3 of the tolerance in 110 of Andrews' 195 attempts at rtol 1e-6, which took a
 * third iteration and factorization for it: 13 % fewer iterations there, the digits the same
 * at rtol 1e-4 ... 1e-12 to 0.1 (docs/work-precision.md, "Stiffened Andrews"). A rate of 0.01
 * saved 2-4 % more but left sigma~ unconverged in a 37 ms step of the parallelogram chain at
 * rtol 1e-4 (|Phi_q^T sigma~| 300 -> 4e5).
 * From the third iteration on, when the rate has been seen twice, a correction up to
 * NEWTON4_FAST also converges when the estimated remaining error r / (1 - r) wn (r the last
 * ratio) is at most NEWTON4_LEFT of the tolerance: what NEWTON4 alone leaves at a rate of 0.1.
 * The sigma~ lag makes the iteration linear with r = 0.01 .. 0.02 (Andrews, alpha 1e9, rtol
 * 3.16e-6), and a third correction of 1e-3 .. 3e-3 of the tolerance took a fourth iteration
 * (and factorization) for an estimated 2e-5 .. 6e-5 in 18 of 171 attempts.
 * Modified Newton (p.newton_reuse): the later iterations keep the first one's factorization
 * while each position correction shrinks at least 1 / REUSE4_SLOW; one that shrinks less (with
 * alpha 1e9 a kept matrix is off by alpha |dq| in the mass-dominated directions: the large
 * steps of loose tolerances, where stale corrections grew 1000x) refactors from the next
 * iteration on and makes full Newton the rule until REUSE4_WAIT steps, this one included, are
 * accepted (s->reuse_wait, the trapezoid's counter; the two never run together).
 * Never across steps, and never after a small correction in full-Newton mode, measured on the
 * stiffened Andrews (alpha 1e9; docs/work-precision.md): the previous step's factorization for
 * the first iteration (gamma within 30 %, a slow second iteration refactoring and waiting as
 * above) took 5.91 M instructions instead of 5.06 at rtol 3.2e-6, 19.6 instead of 12.5 at 1e-9
 * (its second corrections shrank less than 10x almost always: 1518 factorizations for 1541
 * iterations there, 543 for 1080 without); a matrix kept from the second iteration on when the
 * corrections since its factorization summed to at most 0.1 of the tolerance made 507
 * iterations of 418 at 3.2e-6 (after a second correction of 0.016 of the tolerance the kept
 * matrix's third one was 6.7x larger, and the refactored fourth undid it; likely through the
 * matrix's alpha gamma Phidot_q terms, whose v = (q - q_pred) / gamma + ... moves 1 / gamma
 * times the iterate: not measured).
 * REUSE4_WAIT 4 or 0 instead of 32: 5.58 or 7.62 M at 3.2e-6; the same from 1e-8 on, where no
 * kept matrix is slow. Returns MB_OK (the error estimate in *dsm), 1 (not converged: retry
 * smaller) or a failure. */
#define NEWTON4 MB_R(1e-3)
#define NEWTON4_FAST MB_R(1e-2)
#define NEWTON4_RATE MB_R(0.003)
#define NEWTON4_LEFT MB_R(1e-4)
#define REUSE4_SLOW MB_R(0.1)
#define REUSE4_WAIT 32
static int correct4(mb_sim *s, mb_real t1, const mb_real *l, mb_real *dsm)
{
    const mbi_form *fm = MBI_FORM(s);   /* the equations (F4's row) */
    int n = s->n, nc = s->nc, conv = 0, st, fresh = 1;
    int reuse = s->p.newton_reuse && s->reuse_wait == 0;
    mb_real *q = s->z, *p = s->z + n, *I = s->z + 2 * n;
    const mb_real *qb = zc(s, 0), *pb = zc(s, 0) + n, *z1 = zc(s, 1);
    const MBI_VIEW(MB_VIEW_BDF4) w = MBI_VIEW_OF(MB_VIEW_BDF4);   /* its blocks (mb_layout.h) */
    mb_real *g1 = w.g1, *g2 = w.g2, *dq = w.dq, *sv = w.sv, *tmpm = w.tmpm, *tmpn = w.tmpn;
    mb_real gam = s->bh / l[1], hh = s->bh, wprev = 0;
    copy(2 * n, s->z, zc(s, 0));
    for (int it = 0;; it++) {
        /* at y = y_pred (y - y_pred) / gamma is +0: "+ 0" keeps the sum's sign of zero */
        if (it == 0)
            for (int i = 0; i < n; i++) {
                s->v[i] = z1[i] / hh + 0;
                s->pd[i] = z1[n + i] / hh + 0;
            }
        else
            for (int i = 0; i < n; i++) {
                s->v[i] = (q[i] - qb[i]) / gam + z1[i] / hh;
                s->pd[i] = (p[i] - pb[i]) / gam + z1[n + i] / hh;
            }
        int last = conv || it == s->p.max_iter;
        if (!last) mbi_eval_kin_dyn(s, t1, q, s->v);
        else mbi_eval_kin(s, t1, q);
        fm->constraint(s, I, it > 0, NULL);
        if (last) break;
        fm->residual(s, p, gam, sv, g1, g2);
        mbi_poison(sv, nc);
        if (fresh) {
            fm->matrix(s, t1, q, gam, 0, 0);
            st = mbi_ls_factor(s, MB_MAT_A_LU, 0);
            if (st == MB_ERR_SINGULAR || st == MB_ERR_NONFINITE) return 1;
            if (st) return st;
        }
        for (int i = 0; i < n; i++) dq[i] = -g1[i] - gam * g2[i];
        mbi_poison(g1, n);
        mbi_ls_solve(s, MB_MAT_A_LU, dq);
        /* dp = -g2 + (gamma dQ/dq + dQ/dv + Phidot_q^T a D) dq (F4's 5.53 with h/2 -> gamma),
         * formed in the pass that takes |[dq; dp]|_2 (the sums of dot(dq, dq) and dot(dp, dp),
         * in their order), the weighted RMS of dq and the update */
        fm->momenta(s, dq, gam, tmpn, tmpm, 0);
        mb_real aq = 0, ap = 0, wn = 0;
        for (int i = 0; i < n; i++) {
            mb_real x = dq[i], y = tmpn[i] - g2[i], e = x * s->bw[i];
            aq += x * x;
            ap += y * y;
            wn += e * e;
            q[i] += x;
            p[i] += y;
        }
        mbi_poison(g2, n);
        mbi_poison(tmpn, n);
        mbi_poison(dq, n);
        mb_real ny = MB_SQRT(aq + ap);
        wn = MB_SQRT(wn / (mb_real)n);
        if (!isfinite(ny) || !isfinite(wn)) return 1;
        s->mon.newton_iters++;
        if (!fresh && wn > REUSE4_SLOW * wprev) { s->reuse_wait = REUSE4_WAIT; reuse = 0; }
        if ((ny < s->p.tol && wn <= 1) || (it >= 1 && (wn <= NEWTON4 || (wn <= NEWTON4_FAST && wn <= NEWTON4_RATE * wprev))))
            conv = 1;
        if (it >= 2 && wn <= NEWTON4_FAST && wn < wprev && wn * wn / (wprev - wn) <= NEWTON4_LEFT)
            conv = 1;             /* rate r = wn / wprev: the remaining error r / (1 - r) wn */
        fresh = !reuse;
        wprev = wn;
        if (conv) {
            /* the correction e = [q; p] - predicted (the last pass changes neither) and the
             * finiteness of [q; p] (x * 0 is NaN for an Inf or NaN x, else +-0); an attempt the
             * error test will reject (the same e, the same test in bdf_try) returns before
             * the last pass, whose evaluation and sigma~ update undo4 would throw away */
            mb_real *e = s->be, nanchk = 0;
            for (int i = 0; i < 2 * n; i++) {
                mb_real zi = s->z[i];
                nanchk += zi * 0;
                e[i] = zi - qb[i];
            }
            if (nanchk != 0) return 1;
            *dsm = wrms(s, e) / (mb_real)(s->bq + 1);
            if (!(*dsm <= 1)) return MB_OK;
        }
    }
    if (!conv || !finite_vec(nc, s->sig)) return 1;
    return MB_OK;
}
#endif /* MBI_F4 */

/* A new Nordsieck array of order 1 at the current state: zn = [z, h f] (F4: [q; p], h [v; pdot]). */
static void restart(mb_sim *s, mb_real h)
{
    int imp = IMPL(s), nn = ny_of(s);
    copy(nn, zc(s, 0), s->z);
    for (int i = 0; i < nn; i++)
        zc(s, 1)[i] = h * (!imp ? s->fz[i] : i < s->n ? s->v[i] : s->pd[i - s->n]);
    s->bq = 1;
    s->bh = h;
    s->bt = s->t;
    s->bwait = 2;
    s->bep_ok = 0;
    s->bcrate = MB_R(0.7);
    s->bok = 1;
}

/* After an accepted step: f and the derived quantities (v, sigma) at the new state, then the
 * formulation's acceptance (projection, sigma reset), which restarts the array when it moves
 * the state. */
#if MBI_EXPLICIT
static int finish(mb_sim *s)
{
    int st = rhs(s, s->t, s->z, s->fz), reeval = 0, ev = MB_OK;
    if (st) return st;
    mbi_take_eval(s);
    const mbi_form *fm = MBI_FORM(s);
    if (fm->accept) {
        ev = fm->accept(s, &reeval);
        if (ev < 0) return ev;
    }
    if (reeval) {
        if ((st = rhs(s, s->t, s->z, s->fz))) return st;
        mbi_take_eval(s);
    }
    s->have_f = 1;
    return ev;
}
#endif

#if MBI_F4
/* An implicit formulation after an accepted step: S, then its acceptance (F4: the sigma reset
 * of 6.3.4 as the trapezoid's, p and pdot kept consistent; the Nordsieck array restarts at the
 * next step since p moved). */
static int finish4(mb_sim *s)
{
    int moved = 0;
    if (s->reuse_wait > 0) s->reuse_wait--;
    copy(s->nc, s->S, s->sig);
    return MBI_FORM(s)->accept(s, &moved);
}

/* F4: back to the step's start (Int Phi and sigma~ kept in bd, bf; v, pdot from the array). */
static void undo4(mb_sim *s)
{
    int n = s->n;
    copy(2 * n, s->z, zc(s, 0));
    copy(s->nc, s->z + 2 * n, s->bd);
    copy(s->nc, s->sig, s->bf);
    for (int i = 0; i < n; i++) { s->v[i] = zc(s, 1)[i] / s->bh; s->pd[i] = zc(s, 1)[n + i] / s->bh; }
}
#endif

/* Back to the step's start after a failed attempt (the predicted array retracted first). */
static void undo(mb_sim *s)
{
#if MBI_F4
    if (IMPL(s)) { undo4(s); return; }
#endif
    copy(s->nz, s->z, zc(s, 0));
}

/* The corrector; on MB_OK the error estimate in dsm (the weighted RMS of e over q + 1). */
static int corrector(mb_sim *s, mb_real t1, const mb_real *l, mb_real *dsm)
{
#if MBI_F4
    if (IMPL(s)) return correct4(s, t1, l, dsm);
#endif
#if MBI_EXPLICIT
    int st = correct(s, t1, l);
    if (st == MB_OK) *dsm = wrms(s, s->be) / (mb_real)(s->bq + 1);
    return st;
#else
    (void)t1; (void)l; (void)dsm;
    return MB_ERR_STATE;
#endif
}

#if MBI_F1 || MBI_F2 || MBI_F4   /* (bdf refuses F3) */

/* The accuracy warning's estimate (bdf refuses F3; mon.err_sum, against warn_accuracy): the positions'
 * error the steps' local errors add up to by t, a signed vector (bacc), in tolerances,
 *   D(t) = sum_k a_k + sum_k b_k (t - t_k),   err_sum = max_i |D_i| / (atol + rtol max(|q_i|, L)),
 * a_k the step's position error, b_k its velocity error (e / (q + 1), signed: BDF's local
 * errors are h^(q+1) y^(q+1) / (q + 1) times a constant, and over a swing y^(q+1) changes sign,
 * so at a steady step they add up to the bounded h^q y^(q) / (q + 1), not to their magnitudes'
 * sum): a velocity error moves the positions linearly from the step on (a phase error). The
 * velocity error counted is the part tangent to the constraints (mbi_acc_tangent): the part normal
 * to them (along M^-1 Phi_q^T) is damped (F1) or taken out by the constraint term (F2, F4), not
 * integrated into the positions. F1's b_k is the tangent part of its velocity error at step k,
 * kept (B = sum_k b_k). F2's and F4's is their momenta's error P = sum_k e_p / (q + 1), kept as
 * momenta and turned into a velocity at every step, M^-1 P's tangent part there: a momentum error
 * along Phi_q^T at step k (the multipliers' impulse, which grows with t on a pendulum's rod)
 * is tangent once the mechanism has moved on. Kept as D += (t1 - t0) B + a, B += b; the
 * estimate can fall where the errors cancel (mon.err_vel: the RMS of B in tolerances per
 * second). The velocity error is damped where the applied forces damp (mb_monitor.c, mbi_acc_damping: D = dQ/dv,
 * B += c tangent(M^-1 D B); F2 P += c D u): carried undamped, the one a start's transient left
 * made a plant held at rest by a motor (tests/models/yoke_hold.lua, its back-EMF damping the
 * crank in 4 ms) read 45.7 (baumgarte) and 74.8 (canonical) at 10 s with its positions within
 * 0.02 tolerances, rising linearly; 0.075, 0.025 now. Models without dampers: the same bits.
 * Measured on make validate-accuracy's bdf grid (docs/validation.md, section 10): the sum of
 * the magnitudes instead, |a| + |b| (t - t_k), warned on 20 F1, F2 runs within 10 x
 * rtol (Andrews 29 .. 39 tolerances on canonical, 4 .. 9 off; the chains after a singular
 * passage, 16 against 6.5), the signed vectors on 4 (baumgarte on the chains), with no run
 * more than 100 x rtol off left silent; F2's velocity as (dv/dz) e at its step (the Jacobian's rows), signed, left the
 * pendulum's canonical runs silent at 8e4 x rtol. A step undone by an event cut keeps its
 * share (the redo adds the rest again: an overestimate). F4 forms no S: mbi_acc_s4 factors one
 * at each accepted step (about 15 % of a run). It kept the sum of the magnitudes of its
 * weighted estimate dsm before, which reads about one figure per problem whatever the error
 * (Andrews at rtol 1e-5, 267 x rtol off, 59.6; within rtol the Jansen linkage 43 .. 1.2e3):
 * the signed sum reads 74.7 and 9.9 .. 27.4 there (docs/validation.md, "The thresholds");
 * without the tangent part the multipliers' impulse dominates (the Jansen linkage 7.6e3 ..
 * 3.8e4). The largest coordinate's, not the RMS:
 * a run's error sits in few coordinates (a spinning crank's angle), and the RMS over the
 * slider_crank's 9 read a third of it (canonical at rtol 1e-8: 6.3 by the end, silent, the
 * crank's angle 76 tolerances off; the largest 16, warned). In the companions' tolerances
 * (mbi_err_tols: L the mechanism's length scale), not the error test's atol + rtol |q_i|: a
 * coordinate near 0 (a chain's crank tip crossing its pivot's height) asked an error of atol
 * there, and the chains' baumgarte runs within 10 x rtol of their size read 21 .. 31 and
 * warned (N = 10 at rtol 1e-5, 1e-7; N = 40 at 1e-7: 2.7, 3.7, 1.0 now). */
static void acc_step(mb_sim *s, mb_real t1)
{
    int n = s->n, mom = s->p.formulation != MB_BAUMGARTE;
    const mb_real *e = s->be, *w = s->bw;
    const MBI_VIEW(MB_VIEW_BDFACC) v = MBI_VIEW_OF(MB_VIEW_BDFACC);   /* its blocks (mb_layout.h) */
    mb_real *D = s->bacc, *B = s->bacc + n, *dv = v.dv, c = 1 / (mb_real)(s->bq + 1);
    mb_real h = t1 - s->t, b = 0;
    const mb_real *minv = NULL;
    int tangent = s->nc > 0;   /* (F3: refused, mb_params_check) */
#if MBI_HAS_KKT
    minv = s->minv;
#endif
#if MBI_F4
    if (IMPL(s)) {
        minv = v.minv;
        if (mbi_acc_s4(s, v.minv) != MB_OK) tangent = -1;   /* (minv without constraints too) */
    }
#endif
    /* a run's first step (mb_sim_reset clears the monitor), or the warning's, turned on since:
     * the vectors start at 0 (nonzero after a step unless every local error was 0) */
    if (s->mon.err_sum == 0 && s->mon.err_vel == 0) zero(2 * n, s->bacc);
    mb_real cd = mbi_acc_damping(s, t1, h, zc(s, 0), IMPL(s) ? s->v : mom ? s->ev_v : zc(s, 0) + n, minv);
    const mb_pattern *dp = &s->m->dq_dv_pat;
    if (cd > 0 && !mom) mbi_acc_damp(s, cd, minv, tangent, B, dv, v.y, v.pr);   /* F1 */
    if (mom) {              /* F2, F4: P += c D u, u = tangent(M^-1 P) */
        for (int i = 0; i < n; i++) B[i] += c * e[n + i];
        if (cd > 0) {
            for (int i = 0; i < n; i++) dv[i] = minv[i] * B[i];
            if (tangent > 0) mbi_acc_tangent(s, minv, dv, v.y, v.pr);
            sp_mv(dp, s->dQv, dv, v.pr, n);   /* (pr: mbi_acc_tangent's scratch, spent) */
            for (int i = 0; i < n; i++) B[i] += cd * v.pr[i];
        }
    }
    for (int i = 0; i < n; i++) dv[i] = mom ? minv[i] * B[i] : c * e[n + i];   /* F2, F4: M^-1 P */
    if (tangent > 0) mbi_acc_tangent(s, minv, dv, v.y, v.pr);
    else if (tangent < 0) zero(n, dv);   /* (S + mu I not factored: the step adds no phase) */
    for (int i = 0; i < n; i++) {
        if (mom) D[i] += h * dv[i];
        else { D[i] += h * B[i]; B[i] += dv[i]; }
        D[i] += c * e[i];
        mb_real y = (mom ? dv[i] : B[i]) * w[i];
        b += y * y;
    }
    b = MB_SQRT(b / (mb_real)n) * tolf(s);
    s->mon.err_sum = mbi_err_tols(s, D, NULL, zc(s, 0));   /* at the step's end (update) */
    s->mon.err_vel = b;
    mbi_poison(dv, n);
    mbi_poison(v.pr, n);
    mbi_poison(v.y, s->nc);
#if MBI_F4
    if (IMPL(s)) mbi_poison(v.minv, n);
#endif
}
#endif

/* One accepted step towards t_stop, rejections and Newton failures retried inside; *h_taken the
 * step; the monitor is not advanced. On failure the state is that of the last good step. */
static MB_NOINLINE int bdf_try(mb_sim *s, mb_real t_stop, mb_real *h_taken)
{
    int nz = ny_of(s), st, nef = 0, ncf = 0, f4 = IMPL(s);
    mb_real t0 = s->t;
    const mb_real *l;                     /* LCOEF's row of the attempt's order */
    mb_real ts = MB_FABS(s->t) > MB_FABS(t_stop) ? MB_FABS(s->t) : MB_FABS(t_stop);
    mb_real hmin = s->p.h_min > 0 ? s->p.h_min : 16 * MB_EPS * ts;
    mb_real rmax = s->mon.steps == 0 ? MB_R(1e4) : 10;
    s->mon.stiffness = 0;
    /* the array is the current state's unless a reset, a rollback or a failure intervened (the
     * bits compared: a state written as -0 for +0 restarts, which is merely safe) */
    int fresh = !s->bok || s->bt != s->t || memcmp(zc(s, 0), s->z, sizeof(mb_real) * (size_t)nz) != 0;
    if (fresh) {
        mb_real h0 = s->bok ? s->bh : s->h_next;
        mb_real hm = mbi_h_max(s);
        if (hm > 0 && h0 > hm) h0 = hm;
        restart(s, h0);
        s->bjac_ok = 0;
        s->bfact_ok = 0;
    }
    if (f4) {                             /* Int Phi and sigma~ at the step's start */
        copy(s->nc, s->bd, s->z + 2 * s->n);
        copy(s->nc, s->bf, s->sig);
    }
    for (;;) {
        mb_real rem = t_stop - s->t, hm = mbi_h_max(s);
        int last = 0;
        if (hm > 0 && s->bh > hm) rescale(s, hm / s->bh);
        if (s->bh >= rem * (1 - MB_R(1e-9))) { rescale(s, rem / s->bh); last = 1; }
        set_weights(s);
        l = LCOEF[s->bq - 1];
        mb_real t1 = last ? t_stop : s->t + s->bh;
        if (f4) {                         /* 5.54: explicit Euler for Int Phi from q_k */
            const mb_model *m = s->m;
            /* Phi(t_k, q_k) is still in s->Phi when the last evaluation was the accepted
             * step's final one (kin_fresh: any later evaluation clears it) */
            if (!(s->kin_fresh && s->kin_t == s->t)) m->phi(m, s->t, zc(s, 0), s->Phi);
            mb_real *ip = s->z + 2 * s->n, hk = s->bh;
            const mb_real *ip0 = s->bd, *ph = s->Phi;
            for (int r = 0; r < s->nc; r++) ip[r] = ip0[r] + hk * ph[r];
        }
        pascal(s, 0);
        mb_real dsm = 0;
        st = corrector(s, t1, l, &dsm);
        if (st < 0) { pascal(s, 1); undo(s); return st; }
        if (st > 0) {                     /* Newton failed: fresh Jacobian, else a smaller step */
            pascal(s, 1);
            undo(s);
            s->mon.rejected++;
            s->bfact_ok = 0;
            if (!f4 && s->bjac_ok && s->bjac_age > 0) { s->bjac_ok = 0; continue; }   /* stale J */
            s->bjac_ok = 0;
            if (++ncf > 10 || s->bh * MB_R(0.25) < hmin) return MB_ERR_STEP_UNDERFLOW;
            rescale(s, MB_R(0.25));
            s->bwait = s->bq + 1;
            rmax = 1;
            continue;
        }
        if (!(dsm <= 1)) {                /* error test failed */
            pascal(s, 1);
            undo(s);
            s->mon.rejected++;
            nef++;
            rmax = 1;
            mb_real rh;
            if (nef >= 3) {               /* back to order 1 and a tenth of the step */
                rh = MB_R(0.1);
                if (s->bh * rh < hmin) return MB_ERR_STEP_UNDERFLOW;
                restart(s, s->bh * rh);
                continue;
            }
            rh = 1 / (MB_R(1.2) * MB_POW(dsm, 1 / (mb_real)(s->bq + 1)) + MB_R(1.2e-6));
            if (s->bq > 1) {              /* a lower order may allow a larger step */
                mb_real ddn = wrms(s, zc(s, s->bq));
                for (int k = 2; k < s->bq; k++) ddn *= (mb_real)k;   /* (q-1)! */
                mb_real rd = 1 / (MB_R(1.3) * MB_POW(ddn, 1 / (mb_real)s->bq) + MB_R(1.3e-6));
                if (rd > rh) { rh = rd; s->bq--; }
            }
            if (rh > MB_R(0.9)) rh = MB_R(0.9);
            if (nef >= 2 && rh > MB_R(0.2)) rh = MB_R(0.2);
            if (rh < MB_R(0.1)) rh = MB_R(0.1);
            if (s->bh * rh < hmin) return MB_ERR_STEP_UNDERFLOW;
            rescale(s, rh);
            s->bwait = s->bq + 1;
            continue;
        }
#if MBI_F4
        /* F4 keeps no copy of the step's start once the array is updated, so a step whose
         * energies or loads' work overflow (the state still finite: fault_blowup's) is refused
         * here, as the trapezoid's trap_step_checked does, not after the monitor as F1's and
         * F2's are: without it the run went on with energy_dev NaN to a step-size underflow.
         * Undone as a rejected attempt is (z, Int Phi, sigma~ as at the start; v and pdot from
         * the array, to round-off). The drivers' work is not in the test: nothing undoes an F4
         * step where it alone overflows (a non-finite Phi_t fails Newton first) */
        if (f4) {
            mb_real e[3];
            s->m->energy(s->m, t1, s->z, s->v, e);
            mb_real dev = e[0] + e[1] - s->mon.E0 - (s->mon.W + s->bh / 2 * (s->pnc + e[2]));
            if (!isfinite(dev)) { pascal(s, 1); undo(s); return MB_ERR_NONFINITE; }
        }
#endif
        /* accepted: the corrected array, component by component with e_i in a register (the
         * same products and sums as row by row, in fewer instructions), the new state */
        update(s, l);
        /* the accuracy warning's estimate (mb_monitor.c; acc_step: its tangent part costs a
         * solve with S, on F4 S's assembly and factorization too, so only where the warning
         * is on) */
        if (s->p.warn_accuracy != 0) acc_step(s, t1);
        *h_taken = s->bh;
        s->t_prev = s->t;
        s->h_prev = s->bh;
        s->t = t1;
        s->bt = t1;
        s->bjac_age++;
        if (s->bjac_age >= JAC_AGE) s->bjac_ok = 0;
        copy(nz, s->z, zc(s, 0));
        /* step and order for the next step (GSTIFF: the largest step the estimates allow) */
        int changed = 0;
        if (--s->bwait <= 0 && !last) {
            int q = s->bq, dq = 0;
            mb_real rh = 1 / (MB_R(1.2) * MB_POW(dsm, 1 / (mb_real)(q + 1)) + MB_R(1.2e-6));
            if (q > 1) {
                mb_real ddn = wrms(s, zc(s, q));
                for (int k = 2; k < q; k++) ddn *= (mb_real)k;
                mb_real rd = 1 / (MB_R(1.3) * MB_POW(ddn, 1 / (mb_real)q) + MB_R(1.3e-6));
                if (rd > rh) { rh = rd; dq = -1; }
            }
            if (q < QMAX && s->bep_ok) {
                for (int i = 0; i < nz; i++) s->bd[i] = s->be[i] - s->bep[i];
                mb_real dup = wrms(s, s->bd) / (mb_real)(q + 2);
                mb_real ru = 1 / (MB_R(1.4) * MB_POW(dup, 1 / (mb_real)(q + 2)) + MB_R(1.4e-6));
                if (ru > rh) { rh = ru; dq = 1; }
            }
            if (rh < MB_R(1.1)) {         /* not worth a change: hold, test again later */
                s->bwait = 3;
            } else {
                if (dq > 0) {             /* zn[q+1] from the last correction */
                    mb_real *a = zc(s, q + 1), c = l[q] / (mb_real)(q + 1);
                    for (int i = 0; i < nz; i++) a[i] = c * s->be[i];
                }
                s->bq += dq;
                if (rh > rmax) rh = rmax;
                rescale(s, rh);
                s->bwait = s->bq + 1;
                changed = 1;
            }
        }
        copy(nz, s->bep, s->be);          /* the next step's order-increase test: same h, q */
        s->bep_ok = !changed && !last;
        s->h_next = s->bh;
#if MBI_F4
        if (f4) {
            /* correct4's last evaluation was at the new state: the monitor and the next step's
             * Int Phi need none of their own */
            s->kin_fresh = 1;
            s->kin_t = t1;
            return finish4(s);
        }
#endif
#if MBI_EXPLICIT
        st = finish(s);
        if (st < 0) {                     /* the new state does not evaluate: undo the step */
            s->t = t0;
            copy(s->nz, s->z, s->zold);
            s->bok = 0;
            s->have_f = 0;
        }
        return st;
#else
        (void)t0;
        return MB_OK;
#endif
    }
}

/* The last step's Nordsieck polynomial sum_j zn[j] x^j at x = (t - t_n) / h into y[nz] (Horner):
 * mb_sim_dense's state and the events' cut */
static void nordsieck_at(const mb_sim *s, mb_real x, int nz, mb_real *y)
{
    copy(nz, y, zc(s, s->bq));
    for (int j = s->bq - 1; j >= 0; j--) {
        const mb_real *a = zc(s, j);
        for (int i = 0; i < nz; i++) y[i] = a[i] + x * y[i];
    }
}

/* mb_sim_dense: the Nordsieck polynomial of the last step */
static int bdf_dense(mb_sim *s, mb_real t, mb_real *q, mb_real *v, mb_monitor *mo)
{
    int n = s->n, nc = s->nc, nz = ny_of(s), st = MB_OK;
    if (!s->dense_state || !s->ready || !s->bok) return MB_ERR_STATE;
    if (!(t >= s->t_prev && t <= s->t)) return MB_ERR_PARAM;
    mb_real x = (t - s->bt) / s->bh, *y = IMPL(s) ? s->bd : s->ztmp;
    nordsieck_at(s, x, nz, y);
    copy(n, q, y);
    if (!v && !mo) return MB_OK;
#if MBI_F4
    if (IMPL(s)) {   /* v: the polynomial's derivative */
        const MBI_VIEW(MB_VIEW_DENSE) b = MBI_VIEW_OF(MB_VIEW_DENSE);
        mb_real *vv = b.vv;
        zero(n, vv);
        for (int j = s->bq; j >= 1; j--) {
            const mb_real *a = zc(s, j);
            for (int i = 0; i < n; i++) vv[i] = (mb_real)j * a[i] + x * vv[i];
        }
        for (int i = 0; i < n; i++) vv[i] /= s->bh;
        if (v) copy(n, v, vv);
        if (mo) {
            mb_real pnc, pdrv, th = (t - s->t_prev) / (s->t - s->t_prev);
            *mo = s->mon;
            mbi_measure_at(s, t, y, vv, s->sig, NULL, mo, &pnc, &pdrv);
            mo->W = s->dn_W0 + th * (s->mon.W - s->dn_W0);
            mo->energy_dev = mo->T + mo->V - mo->E0 - mo->W;
        }
        return MB_OK;
    }
#endif
#if MBI_EXPLICIT
    if (v && s->p.formulation == MB_BAUMGARTE && !mo) { copy(n, v, y + n); return MB_OK; }
    const MBI_VIEW(MB_VIEW_DENSE) w = MBI_VIEW_OF(MB_VIEW_DENSE);   /* the state's v, sigma kept */
    mb_real *vsave = w.vsave, *ssave = w.vsave + n;
    copy(n, vsave, s->ev_v);
    copy(nc, ssave, s->ev_sig);
    if ((st = rhs(s, t, y, s->bf))) goto out;
    if (v) copy(n, v, s->ev_v);
    if (mo) {   /* the monitors at t; the work of the loads linear over the step */
        mb_real pnc, pdrv, th = (t - s->t_prev) / (s->t - s->t_prev);
        *mo = s->mon;
        mbi_measure_at(s, t, y, s->ev_v, s->ev_S, s->ev_lam, mo, &pnc, &pdrv);
        mo->W = s->dn_W0 + th * (s->mon.W - s->dn_W0);
        mo->energy_dev = mo->T + mo->V - mo->E0 - mo->W;
    }
out:
    copy(n, s->ev_v, vsave);
    copy(nc, s->ev_sig, ssave);
    mbi_poison(vsave, n + nc);            /* (its lifetime ends with the call) */
    return st;
#else
    (void)nc;
    return st;
#endif
}

#if MBI_EVENTS
/* events (mb_event.c): the state at t of the last step from its Nordsieck polynomial, into z:
 * the integrated components (F4: q and p; its Int Phi stays the step's end's, off by
 * (t_n - t) Phi(t_n-1, q_n-1), the stabilization's integral of a residual at the Newton
 * tolerance). The array keeps t_n: the next step finds it stale and restarts at order 1. */
void mbi_bdf_state_at(mb_sim *s, mb_real t)
{
    nordsieck_at(s, (t - s->bt) / s->bh, ny_of(s), s->z);
}
#endif

static int bdf_undo(mb_sim *s, mb_real t_start, int st);

/* The slot's step: bdf_try, the monitor advanced by the trapezoidal rule over the step. */
static int bdf_step(mb_sim *s, mb_real t_stop, const mbi_step0 *b)
{
    mb_real h = 0;
    s->dense_state = 0;
    s->dn_W0 = b->mon0.W;
    int st = bdf_try(s, t_stop, &h);
    if (st < 0) {                          /* (bdf_try's undo of a step whose end does not
                                            * evaluate: not the discarded step's proposal) */
        s->h_next = b->h0;
        return st;
    }
    mbi_advance_monitor(s, h, b->pnc0, b->pdrv0, NULL);
#if MBI_EXPLICIT
    /* energies or work overflow (the state still finite): not a good state, undone as dopri5's
     * (mb_rk.c, step_adaptive) and the fixed steps' (mb_sim.c). F1, F2 (the start's copies
     * zold, v0, S0); alf-trapezoid keeps none after its step is accepted and refuses such a
     * step before (bdf_try) */
    if (s->zold && !isfinite(s->mon.energy_dev)) {
        s->mon = b->mon0; s->pnc = b->pnc0; s->pdrv = b->pdrv0;
        s->h_next = b->h0;
        return bdf_undo(s, b->t_start, MB_ERR_NONFINITE);
    }
#endif
    s->dense_state = 1;
    return st;
}

/* The start: the formulation's start-up evaluation, and whether it is implicit */
static int bdf_start(mb_sim *s, mb_real t0)
{
    s->bimp = MBI_F4 && !MBI_FORM(s)->rhs;
    return mbi_form_start(s, t0);
}

/* mb_sim_step's undo: the state at the step's start (mbi_undo_step) and the array no longer
 * the state's, so that the next step starts it again from h_next (mb_sim_step puts back the
 * step's start's), not from the discarded step's bh */
static int bdf_undo(mb_sim *s, mb_real t_start, int st)
{
    s->bok = 0;
    return mbi_undo_step(s, t_start, st);
}

const mbi_integ mbi_integ_bdf = {bdf_start, mbi_form_restart, NULL, bdf_step, bdf_dense, bdf_undo,
                                 NULL};
#endif /* MBI_BDF */
