/* test_linearize.c - mb_anl_linearize_ss (runtime/mb_analysis.c, docs/analyses.md,
 * "Linearization") against closed forms and finite differences of the nonlinear motion:
 *  - the cart-pole (models/cartpole.lua) upright and hanging: A and B of the equations derived
 *    by hand below, to 1e-10;
 *  - the double pendulum (models/double_pendulum.lua) hanging: A, to 1e-10; the eigenvalues of
 *    A's stiffness block against the modal analysis' (mb_anl_linearize);
 *  - A and B against central differences of the minimal-coordinate right-hand side
 *    f(z, z', u) = [z'; a_z] (q and v put on the manifold from z, z'; a from the index-1
 *    equations), at rest and at moving states of both models, to 1e-6 relative;
 *  - a singular position (fourbar_singular at its collinear start) is refused with the row. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cartpole.h"
#include "double_pendulum.h"
#include "fourbar_singular.h"
#include "check.h"
#include "mb_analysis.h"

#define NMAX 32
#define PI_ 3.14159265358979323846

typedef struct {
    const mb_model *m;
    mb_anl a;
    void *work;
    mb_real in[3 * 4];
    mb_model cp;   /* the model with holds of its own */
    int zidx[NMAX], d;
    mb_real A[4 * NMAX * NMAX], B[2 * NMAX * 4], Tq[2 * NMAX * NMAX], Tv[2 * NMAX * NMAX];
    mb_real acc[NMAX], lam[NMAX];
} lin;

static int lin_init(lin *L, const mb_model *m)
{
    memset(L, 0, sizeof *L);
    L->cp = *m;
    for (int i = 0; i < 3 * m->nin; i++) L->in[i] = m->in[i];
    L->cp.in = m->nin ? L->in : NULL;
    L->m = &L->cp;
    size_t ws = mb_anl_workspace_size(L->m, MB_ANL_DENSE);
    L->work = malloc(ws);
    return mb_anl_init(&L->a, L->m, NULL, MB_ANL_DENSE, L->work, ws);
}

static int lin_at(lin *L, double t, const mb_real *q, const mb_real *v)
{
    mb_anl_ss ss = {L->zidx, 0, L->A, L->B, L->Tq, L->Tv, L->acc, L->lam, NULL};
    int st = mb_anl_linearize_ss(&L->a, (mb_real)t, q, v, 0, NULL, &ss);
    L->d = ss.d;
    return st;
}

/* Dense Gaussian elimination with partial pivoting, A (n x n row-major) x = b in place. */
static int gsolve(int n, double *A, double *b)
{
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++) if (fabs(A[r * n + c]) > fabs(A[p * n + c])) p = r;
        if (A[p * n + c] == 0) return -1;
        for (int j = 0; j < n; j++) { double x = A[c * n + j]; A[c * n + j] = A[p * n + j]; A[p * n + j] = x; }
        double x = b[c]; b[c] = b[p]; b[p] = x;
        for (int r = c + 1; r < n; r++) {
            double f = A[r * n + c] / A[c * n + c];
            for (int j = c; j < n; j++) A[r * n + j] -= f * A[c * n + j];
            b[r] -= f * b[c];
        }
    }
    for (int c = n - 1; c >= 0; c--) {
        for (int j = c + 1; j < n; j++) b[c] -= A[c * n + j] * b[j];
        b[c] /= A[c * n + c];
    }
    return 0;
}

/* The minimal-coordinate right-hand side at x = [z; z'], u: q from Newton on the dependent
 * coordinates (z held) starting at qref, v with v_z = z' and Phi_q v + Phi_t = 0, then the
 * accelerations of the index-1 equations (mb_anl_reactions). out[2d]. */
static void rhs(lin *L, double t, const mb_real *qref, const double *x, const double *u, double *out)
{
    const mb_model *m = L->m;
    int n = m->nq, nc = m->nc, d = L->d;
    mb_real q[NMAX], v[NMAX], ph[NMAX], pq[4 * NMAX * NMAX], pt[NMAX], acc[NMAX];
    double J[NMAX * NMAX], b[NMAX];
    for (int i = 0; i < m->nin; i++) L->in[3 * i] = (mb_real)u[i];
    memcpy(q, qref, sizeof(mb_real) * (size_t)n);
    for (int j = 0; j < d; j++) q[L->zidx[j]] = (mb_real)x[j];
    for (int it = 0; it < 30; it++) {
        m->phi(m, (mb_real)t, q, ph);
        double r = 0;
        for (int i = 0; i < nc; i++) r = fmax(r, fabs((double)ph[i]));
        if (r < 1e-15) break;
        m->phi_q(m, (mb_real)t, q, pq);
        memset(J, 0, sizeof J);
        for (int k = 0; k < m->phi_q_pat.nnz; k++)
            for (int j = 0; j < nc; j++)
                if (L->zidx[d + j] == (int)m->phi_q_pat.col[k]) J[m->phi_q_pat.row[k] * nc + j] = pq[k];
        for (int i = 0; i < nc; i++) b[i] = -(double)ph[i];
        gsolve(nc, J, b);
        for (int j = 0; j < nc; j++) q[L->zidx[d + j]] += (mb_real)b[j];
    }
    m->phi_q(m, (mb_real)t, q, pq);
    m->phi_t(m, (mb_real)t, q, pt);
    memset(v, 0, sizeof v);
    for (int j = 0; j < d; j++) v[L->zidx[j]] = (mb_real)x[d + j];
    memset(J, 0, sizeof J);
    for (int i = 0; i < nc; i++) b[i] = -(double)pt[i];
    for (int k = 0; k < m->phi_q_pat.nnz; k++) {
        int r = m->phi_q_pat.row[k], c = m->phi_q_pat.col[k], w = -1;
        for (int j = 0; j < nc; j++) if (L->zidx[d + j] == c) w = j;
        if (w >= 0) J[r * nc + w] = pq[k];
        else b[r] -= (double)pq[k] * (double)v[c];
    }
    gsolve(nc, J, b);
    for (int j = 0; j < nc; j++) v[L->zidx[d + j]] = (mb_real)b[j];
    mb_anl_reactions(&L->a, (mb_real)t, q, v, acc, NULL);
    for (int j = 0; j < d; j++) { out[j] = x[d + j]; out[d + j] = acc[L->zidx[j]]; }
}

/* [A B] against Richardson-extrapolated central differences of rhs about (q, v, u0). */
static double fd_check(lin *L, double t, const mb_real *q, const mb_real *v, const char *where)
{
    int d = L->d, d2 = 2 * d, nin = L->m->nin;
    mb_real q0[NMAX];
    memcpy(q0, q, sizeof(mb_real) * (size_t)L->m->nq);
    double x0[2 * NMAX], u0[4], xp[2 * NMAX], up[4], fp[2 * NMAX], fm[2 * NMAX], f1[2 * NMAX];
    for (int j = 0; j < d; j++) { x0[j] = (double)q[L->zidx[j]]; x0[d + j] = (double)v[L->zidx[j]]; }
    for (int i = 0; i < nin; i++) u0[i] = (double)L->in[3 * i];
    double worst = 0, scale = 0;
    for (int i = 0; i < d2 * d2; i++) scale = fmax(scale, fabs((double)L->A[i]));
    for (int i = 0; i < d2 * nin; i++) scale = fmax(scale, fabs((double)L->B[i]));
    for (int c = 0; c < d2 + nin; c++) {
        for (int pass = 0; pass < 2; pass++) {
            double h = pass == 0 ? 1e-4 : 5e-5;
            for (int sgn = 0; sgn < 2; sgn++) {
                memcpy(xp, x0, sizeof xp);
                memcpy(up, u0, sizeof up);
                double s = sgn == 0 ? h : -h;
                if (c < d2) xp[c] += s; else up[c - d2] += s;
                rhs(L, t, q0, xp, up, sgn == 0 ? fp : fm);
            }
            for (int r = 0; r < d2; r++) {
                double dd = (fp[r] - fm[r]) / (2 * h);
                if (pass == 0) f1[r] = dd;
                else {
                    double fd = (4 * dd - f1[r]) / 3;
                    double an = c < d2 ? (double)L->A[r * d2 + c] : (double)L->B[r * nin + c - d2];
                    worst = fmax(worst, fabs(an - fd) / scale);
                }
            }
        }
    }
    for (int i = 0; i < nin; i++) L->in[3 * i] = (mb_real)u0[i];
    CHECK(worst <= 1e-6, "%s: [A B] against finite differences: %.2e of max |entry|", where, worst);
    printf("%s: [A B] vs finite differences %.2e\n", where, worst);
    return worst;
}

static double rel(double a, double b, double s) { return fabs(a - b) / s; }

/* cart-pole: z = (cart.x, pole.phi); the pole's CoM at the pivot + l (cos phi, sin phi):
 * T = (M + m) xd^2 / 2 - m l sin(phi) xd phid + (J + m l^2) phid^2 / 2, V = m g l sin(phi),
 * Q = (F, 0). At rest at phi0 = +-pi/2 (s = sin phi0): Ml z'' + K z = (F, 0) with
 * Ml = [M + m, -m l s; -m l s, J + m l^2], K = diag(0, -m g l s). */
static void cartpole_closed(double s, const char *label)
{
    const double Mc = 1.0, mp = 0.1, l = 0.5, g = 9.81, J = mp * (2 * l) * (2 * l) / 12;
    lin L;
    CHECK(lin_init(&L, &cartpole_model) == MB_OK, "cartpole: init");
    mb_real q[6] = {0, 0, 0, 0, (mb_real)(s * l), (mb_real)(s * PI_ / 2)}, v[6] = {0};
    CHECK(lin_at(&L, 0, q, v) == MB_OK, "%s: linearize", label);
    CHECK(L.d == 2 && L.zidx[0] == CARTPOLE_Q_CART_X && L.zidx[1] == CARTPOLE_Q_POLE_PHI,
          "%s: z = (cart.x, pole.phi), got %d coordinates (%d, %d)", label, L.d, L.zidx[0], L.zidx[1]);
    double m11 = Mc + mp, m12 = -mp * l * s, m22 = J + mp * l * l, det = m11 * m22 - m12 * m12;
    double k22 = -mp * g * l * s;
    /* A21 = -Ml^-1 K, B2 = Ml^-1 (1, 0) */
    double want[4][4] = {{0, 0, 1, 0}, {0, 0, 0, 1},
                         {0, -(-m12 * k22) / det, 0, 0}, {0, -(m11 * k22) / det, 0, 0}};
    double wantB[4] = {0, 0, m22 / det, -m12 / det};
    double e = 0;
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 4; j++) e = fmax(e, rel((double)L.A[i * 4 + j], want[i][j], fabs(want[3][1])));
        e = fmax(e, rel((double)L.B[i], wantB[i], fabs(wantB[2])));
    }
    CHECK(e <= 1e-10, "%s: A, B against the closed form: %.2e", label, e);
    printf("%s: A, B against the closed form %.2e (A[3][1] %.12g, 1/s^2)\n", label, e, (double)L.A[13]);
    fd_check(&L, 0, q, v, label);
    /* a moving state near it: curvature terms and dGamma/dq */
    mb_real q2[6] = {0.2, 0, 0, 0, 0, (mb_real)(s * PI_ / 2 - 0.3)}, v2[6] = {0.4, 0, 0, 0, 0, 1.1};
    q2[3] = q2[0] + (mb_real)(l * cos((double)q2[5]));
    q2[4] = (mb_real)(l * sin((double)q2[5]));
    v2[3] = v2[0] - (mb_real)(l * sin((double)q2[5])) * v2[5];
    v2[4] = (mb_real)(l * cos((double)q2[5])) * v2[5];
    L.in[0] = (mb_real)2.5;   /* and a force on */
    char where[96];
    snprintf(where, sizeof where, "%s, moving", label);
    CHECK(lin_at(&L, 0, q2, v2) == MB_OK, "%s: linearize", where);
    fd_check(&L, 0, q2, v2, where);
    free(L.work);
}

/* double pendulum hanging, z = (AB.phi, BC.phi) (absolute angles), a = L / 2:
 * Ml = [J1 + m1 a1^2 + m2 L1^2, m2 L1 a2; m2 L1 a2, J2 + m2 a2^2],
 * K = diag((m1 a1 + m2 L1) g, m2 a2 g); A21 = -Ml^-1 K. */
static void double_pendulum_closed(void)
{
    const double m1 = 6, J1 = 1, L1 = 1, m2 = 10, J2 = 1.6, L2 = 1.5, g = 9.81, a1 = L1 / 2, a2 = L2 / 2;
    lin L;
    CHECK(lin_init(&L, &double_pendulum_model) == MB_OK, "double pendulum: init");
    mb_real q[6] = {0, (mb_real)-a1, (mb_real)(-PI_ / 2), 0, (mb_real)(-L1 - a2), (mb_real)(-PI_ / 2)};
    mb_real v[6] = {0};
    CHECK(lin_at(&L, 0, q, v) == MB_OK, "double pendulum: linearize");
    CHECK(L.d == 2 && L.zidx[0] == DOUBLE_PENDULUM_Q_AB_PHI && L.zidx[1] == DOUBLE_PENDULUM_Q_BC_PHI,
          "double pendulum: z = (AB.phi, BC.phi)");
    double m11 = J1 + m1 * a1 * a1 + m2 * L1 * L1, m12 = m2 * L1 * a2, m22 = J2 + m2 * a2 * a2;
    double det = m11 * m22 - m12 * m12, k1 = (m1 * a1 + m2 * L1) * g, k2 = m2 * a2 * g;
    double A21[2][2] = {{-m22 * k1 / det, m12 * k2 / det}, {m12 * k1 / det, -m11 * k2 / det}};
    double e = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double w = i < 2 ? (j == i + 2) : j < 2 ? A21[i - 2][j] : 0;
            e = fmax(e, rel((double)L.A[i * 4 + j], w, fabs(A21[0][0])));
        }
    CHECK(e <= 1e-10, "double pendulum: A against the closed form: %.2e", e);
    printf("double pendulum hanging: A against the closed form %.2e\n", e);
    fd_check(&L, 0, q, v, "double pendulum hanging");
    /* the eigenvalues of A21 are -w^2: against the modal analysis' (Kr in the mass metric) */
    double tr = (double)L.A[8] + (double)L.A[13], dt = (double)L.A[8] * (double)L.A[13] - (double)L.A[9] * (double)L.A[12];
    double disc = sqrt(tr * tr / 4 - dt), w2[2] = {-(tr / 2 + disc), -(tr / 2 - disc)};
    int dof = 0;
    CHECK(mb_anl_linearize(&L.a, 0, q, NULL, &dof) == MB_OK && dof == 2, "double pendulum: modal linearization");
    double em = fmax(rel(w2[0], (double)L.a.ev[0], (double)L.a.ev[0]), rel(w2[1], (double)L.a.ev[1], (double)L.a.ev[1]));
    CHECK(em <= 1e-10, "double pendulum: eigenvalues %.12g, %.12g against the modal analysis' %.12g, %.12g",
          w2[0], w2[1], (double)L.a.ev[0], (double)L.a.ev[1]);
    printf("double pendulum: w^2 = %.12g, %.12g 1/s^2 (modal: %.2e)\n", w2[0], w2[1], em);
    /* a moving state: both bars swinging */
    mb_real th1 = (mb_real)(-PI_ / 2 + 0.4), th2 = (mb_real)(-PI_ / 2 - 0.7), w1 = 1.3, w2v = -0.8;
    mb_real q2[6] = {(mb_real)(a1 * cos(th1)), (mb_real)(a1 * sin(th1)), th1,
                     (mb_real)(L1 * cos(th1) + a2 * cos(th2)), (mb_real)(L1 * sin(th1) + a2 * sin(th2)), th2};
    mb_real v2[6] = {(mb_real)(-a1 * sin(th1) * w1), (mb_real)(a1 * cos(th1) * w1), w1,
                     (mb_real)(-L1 * sin(th1) * w1 - a2 * sin(th2) * w2v),
                     (mb_real)(L1 * cos(th1) * w1 + a2 * cos(th2) * w2v), w2v};
    CHECK(lin_at(&L, 0, q2, v2) == MB_OK, "double pendulum moving: linearize");
    fd_check(&L, 0, q2, v2, "double pendulum, moving");
    free(L.work);
}

static void singular(void)
{
    lin L;
    CHECK(lin_init(&L, &fourbar_singular_model) == MB_OK, "fourbar_singular: init");
    /* crank angle 0: every link on the X axis (a = 0.1, L = 0.3 m) */
    mb_real v[NMAX] = {0}, q[9] = {0.05, 0, 0, 0.25, 0, 0, 0.35, 0, 0};
    int st = lin_at(&L, 0, q, v);
    CHECK(st == MB_ERR_SINGULAR && L.a.singular_row >= 0,
          "fourbar_singular at its singular start: status %d, row %d", st, L.a.singular_row);
    free(L.work);
}

int main(void)
{
    cartpole_closed(1, "cart-pole upright");
    cartpole_closed(-1, "cart-pole hanging");
    double_pendulum_closed();
    singular();
    CHECK(check_close(1, 1, 0), "check_close");   /* (check.h: used by every test) */
    return check_report();
}
