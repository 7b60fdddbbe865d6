/* test_lqr.c - the closed loop of examples/cartpole (docs/control.md):
 *  - the Riccati solver (lqr.c) against the scalar closed form p = r (a + sqrt(a^2 + b^2 q / r)) / b^2
 *    and on a 2-input system, its residual to 1e-9 and A - B K Hurwitz;
 *  - the cart-pole design: the upright pose an equilibrium, K on the position sqrt(q_x / r) (an LQR
 *    identity for a free integrator chain: |K_x| = sqrt(Qx / R) when x is a pure position),
 *    the residual, the closed loop's eigenvalues in the left half plane, the open loop's one
 *    unstable eigenvalue sqrt(g m l (M + m) / (I0 (M + m) - m^2 l^2)), and the committed
 *    cartpole_gain.h equal to the design to 1e-9;
 *  - the closed loop on the host from 0.2 rad: |theta| < 1e-3 rad over the last of 5 s, the cart
 *    back within 1 cm; the negative control (gain zero) lets the pole fall past 1 rad.
 * Ends with "N passed, N failed". */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cartpole.h"
#include "cartpole_control.h"
#include "cartpole_design.h"
#include "cartpole_run.h"
#include "check.h"
#include "lqr.h"

static void scalar_case(double a, double b, double q, double r)
{
    double P, K;
    int rc = lqr_care(1, 1, &a, &b, &q, &r, &P, &K);
    double want = r * (a + sqrt(a * a + b * b * q / r)) / (b * b);
    CHECK(rc == 0 && fabs(P - want) <= 1e-12 * fabs(want), "scalar a=%g: P %.17g, closed form %.17g", a, P, want);
    CHECK(a - b * K < 0, "scalar a=%g: closed loop %g not stable", a, a - b * K);
}

static void two_input_case(void)
{
    /* a double integrator in x and an unstable mode in y, coupled: 4 states, 2 inputs */
    double A[16] = {0, 1, 0, 0,  0, 0, 0.5, 0,  0, 0, 0, 1,  0.3, 0, 2, -0.1};
    double B[8] = {0, 0,  1, 0.2,  0, 0,  0, 1};
    double Q[16] = {3, 0, 0, 0,  0, 1, 0, 0,  0, 0, 5, 0.5,  0, 0, 0.5, 1};
    double R[4] = {1, 0.1,  0.1, 2};
    double P[16], K[8], Acl[16], re[4], im[4];
    CHECK(lqr_care(4, 2, A, B, Q, R, P, K) == 0, "two inputs: no solution");
    double res = lqr_care_residual(4, 2, A, B, Q, R, P);
    CHECK(res >= 0 && res <= 1e-9, "two inputs: residual %.2e", res);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            Acl[i * 4 + j] = A[i * 4 + j] - B[i * 2] * K[j] - B[i * 2 + 1] * K[4 + j];
            CHECK(fabs(P[i * 4 + j] - P[j * 4 + i]) <= 1e-12 * fabs(P[i * 4 + j]) + 1e-15, "two inputs: P symmetric");
        }
    CHECK(lqr_eig(4, Acl, re, im) == 0, "two inputs: eig");
    for (int i = 0; i < 4; i++) CHECK(re[i] < 0, "two inputs: closed-loop eigenvalue %g%+gi", re[i], im[i]);
    /* a wrong P must show a large residual (the residual can fail) */
    P[0] *= 1.01;
    res = lqr_care_residual(4, 2, A, B, Q, R, P);
    CHECK(res > 1e-4, "two inputs: a 1 %% error in P gives residual %.2e only", res);
    /* not stabilizable: an unstable mode B cannot reach */
    double A2[4] = {1, 0, 0, -1}, B2[2] = {0, 1}, Q2[4] = {1, 0, 0, 1}, R2[1] = {1}, P2[4], K2[2];
    CHECK(lqr_care(2, 1, A2, B2, Q2, R2, P2, K2) != 0, "unstabilizable pair accepted");
}

static void design(void)
{
    static cartpole_lqr d;
    CHECK(cartpole_design(&d) == 0, "cartpole design failed");
    printf("cartpole: upright |Phi| %.1e, |acc| %.1e; Riccati residual %.2e\n", d.phi_norm, d.acc_norm, d.residual);
    CHECK(d.phi_norm <= 1e-12 && d.acc_norm <= 1e-9, "upright pose not an equilibrium: |Phi| %g |acc| %g", d.phi_norm, d.acc_norm);
    CHECK(d.residual >= 0 && d.residual <= 1e-9, "Riccati residual %.2e", d.residual);
    double worst = -INFINITY;
    for (int i = 0; i < NX; i++) {
        worst = fmax(worst, d.eig_re[i]);
        printf("  closed-loop eigenvalue %.6g%+.6gi\n", d.eig_re[i], d.eig_im[i]);
    }
    CHECK(worst < 0, "closed loop not Hurwitz: max Re %g", worst);
    /* the open loop: one eigenvalue +sqrt(g m l (M + m) / (I0 (M + m) - m^2 l^2)) */
    const double M = 1, m = 0.1, l = 0.5, g = 9.81, I0 = m * l * l + m * 1.0 / 12;
    double lam = sqrt(g * m * l * (M + m) / (I0 * (M + m) - m * m * l * l)), ol = -INFINITY;
    for (int i = 0; i < NX; i++) ol = fmax(ol, d.ol_re[i]);
    CHECK(fabs(ol - lam) <= 1e-10 * lam, "open-loop unstable eigenvalue %.15g, closed form %.15g", ol, lam);
    static const double qy[NY] = CARTPOLE_LQR_QY, r[1] = CARTPOLE_LQR_R;
    CHECK(fabs(fabs(d.Ky[CARTPOLE_OUT_X]) - sqrt(qy[CARTPOLE_OUT_X] / r[0])) <= 1e-9 * sqrt(qy[CARTPOLE_OUT_X] / r[0]),
          "gain on x %.15g, sqrt(Qx/R) %.15g", d.Ky[CARTPOLE_OUT_X], sqrt(qy[CARTPOLE_OUT_X] / r[0]));
    double e = 0, s = 0;
    for (int i = 0; i < NY; i++) {
        e = fmax(e, fabs((double)control_gain[i] - d.Ky[i]));
        s = fmax(s, fabs(d.Ky[i]));
    }
    CHECK(e <= 1e-9 * s, "examples/cartpole/cartpole_gain.h differs from the design by %.2e: run make cartpole-gain", e / s);
}

static void closed_loop(void)
{
    cartpole_run_result r;
    CHECK(cartpole_run(control_gain, 5.0, NULL, &r) == 0 && r.status >= 0, "closed loop did not run: %d", r.status);
    printf("closed loop: theta %.3g -> %.3e rad (max %.3e over the last s), x %.3e m, max |F| %.4g N, |theta| <= 1e-3 from %.3g s\n",
           r.y0[CARTPOLE_OUT_THETA], r.y[CARTPOLE_OUT_THETA], r.max_theta_late, r.y[CARTPOLE_OUT_X], r.max_F, r.settle_t);
    CHECK(check_close(r.y0[CARTPOLE_OUT_THETA], 0.2, 1e-12), "start %.17g, not 0.2 rad", r.y0[CARTPOLE_OUT_THETA]);
    CHECK(fabs(r.t - 5.0) < 1e-9, "closed loop stopped at %g s", r.t);
    CHECK(r.max_theta_late < 1e-3, "pole not upright: max |theta| %.3e over the last second", r.max_theta_late);
    CHECK(fabs(r.y[CARTPOLE_OUT_X]) < 0.01, "cart not back: x %.3e m", r.y[CARTPOLE_OUT_X]);
    /* negative control: without the controller the same start falls */
    const mb_real zero[CARTPOLE_NOUT] = {0};
    CHECK(cartpole_run(zero, 2.0, NULL, &r) == 0, "open loop did not run");
    printf("gain zero: theta %.3e rad at %.3g s\n", r.y[CARTPOLE_OUT_THETA], r.t);
    CHECK(r.max_theta_late > 1.0, "without control the pole does not fall: max |theta| %.3e", r.max_theta_late);
}

int main(void)
{
    scalar_case(2.0, 1.0, 1.0, 1.0);
    scalar_case(-0.5, 3.0, 10.0, 0.1);
    scalar_case(4.0, 0.2, 1e3, 1.0);
    two_input_case();
    design();
    closed_loop();
    return check_report();
}
