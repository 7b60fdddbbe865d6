/* cartpole_design.c - the cart-pole's LQR design (cartpole_design.h): the linearization of
 * generated/cartpole.c about the upright pole at rest with F = 0 (mb_anl_linearize_ss: exact
 * derivatives, docs/analyses.md), the Riccati equation for weights on the sensors (lqr.c,
 * LAPACKE) and the gain on the sensors. Layer: host design code (lqr_design, tests/test_lqr.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cartpole.h"
#include "cartpole_design.h"
#include "lqr.h"
#include "mb_analysis.h"

#define NQ CARTPOLE_NQ

int cartpole_design(cartpole_lqr *d)
{
    const mb_model *m = &cartpole_model;
    memset(d, 0, sizeof *d);
    mb_anl a;
    size_t ws = mb_anl_workspace_size(m, MB_ANL_DENSE);
    void *work = malloc(ws);
    if (!work || mb_anl_init(&a, m, NULL, MB_ANL_DENSE, work, ws) != MB_OK) {
        fprintf(stderr, "lqr_design: cannot set up the analysis of %s\n", m->name);
        free(work);
        return -1;
    }
    /* The upright pose: the pole's centre of mass above the pivot at the distance the model's
     * start pose gives it, at rest, F = 0 (the defaults). */
    const mb_real *q0 = m->q0;
    double l = hypot((double)(q0[CARTPOLE_Q_POLE_X] - q0[CARTPOLE_Q_CART_X]),
                     (double)(q0[CARTPOLE_Q_POLE_Y] - q0[CARTPOLE_Q_CART_Y]));
    mb_real q[NQ] = {0}, v[NQ] = {0}, phi[CARTPOLE_NC];
    q[CARTPOLE_Q_POLE_Y] = (mb_real)l;
    q[CARTPOLE_Q_POLE_PHI] = (mb_real)(2 * atan(1.0));
    m->phi(m, 0, q, phi);
    for (int i = 0; i < m->nc; i++) d->phi_norm = fmax(d->phi_norm, fabs((double)phi[i]));

    int zidx[NQ];
    mb_real A[4 * NQ * NQ], B[2 * NQ * NU], dqx[NQ * 2 * NQ], dvx[NQ * 2 * NQ], acc[NQ], lam[CARTPOLE_NC];
    mb_anl_ss ss = {zidx, 0, A, B, dqx, dvx, acc, lam, NULL};
    int st = mb_anl_linearize_ss(&a, 0, q, v, 0, NULL, &ss);
    free(work);
    if (st != MB_OK || 2 * ss.d != NX) {
        fprintf(stderr, "lqr_design: linearization failed (status %d, %d states)\n", st, 2 * ss.d);
        return -1;
    }
    for (int i = 0; i < NQ; i++) d->acc_norm = fmax(d->acc_norm, fabs((double)acc[i]));
    for (int i = 0; i < NX * NX; i++) d->A[i] = (double)A[i];
    for (int i = 0; i < NX * NU; i++) d->B[i] = (double)B[i];
    /* C = dy/dq dq/dx + dy/dv dv/dx, and the sensors at the pose (the reference) */
    mb_real y[NY], yq[NY * NQ], yv[NY * NQ];
    m->outputs(m, 0, q, v, y, yq, yv);
    for (int i = 0; i < NY; i++) {
        d->yref[i] = (double)y[i];
        for (int j = 0; j < NX; j++) {
            double s = 0;
            for (int k = 0; k < NQ; k++)
                s += (double)yq[i * NQ + k] * (double)dqx[k * NX + j] + (double)yv[i * NQ + k] * (double)dvx[k * NX + j];
            d->C[i * NX + j] = s;
        }
    }
    d->d = ss.d;
    for (int j = 0; j < ss.d; j++) d->z[j] = zidx[j];
    /* Q = C^T Qy C (weights on what the sensors measure), R */
    static const double qy[NY] = CARTPOLE_LQR_QY;
    static const double r[NU * NU] = CARTPOLE_LQR_R;
    double *Q = d->Q, *R = d->R;
    memcpy(R, r, sizeof r);
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NX; j++) {
            double s = 0;
            for (int k = 0; k < NY; k++) s += d->C[k * NX + i] * qy[k] * d->C[k * NX + j];
            Q[i * NX + j] = s;
        }
    if (lqr_care(NX, NU, d->A, d->B, Q, R, d->P, d->K)) {
        fprintf(stderr, "lqr_design: the Riccati equation has no stabilizing solution\n");
        return -1;
    }
    d->residual = lqr_care_residual(NX, NU, d->A, d->B, Q, R, d->P);
    /* the gain on the sensors: u = -K x = -Ky (y - yref) with Ky C = K (C square, invertible) */
    double Ct[NX * NX], Kt[NX * NU];
    for (int i = 0; i < NX; i++) {
        for (int j = 0; j < NX; j++) Ct[i * NX + j] = d->C[j * NX + i];
        for (int u = 0; u < NU; u++) Kt[i * NU + u] = d->K[u * NX + i];
    }
    /* Gaussian elimination with partial pivoting: Ct Kyt = Kt */
    for (int c = 0; c < NX; c++) {
        int p = c;
        for (int r = c + 1; r < NX; r++) if (fabs(Ct[r * NX + c]) > fabs(Ct[p * NX + c])) p = r;
        if (fabs(Ct[p * NX + c]) < 1e-12) {
            fprintf(stderr, "lqr_design: the sensors do not determine the state (C singular)\n");
            return -1;
        }
        for (int j = 0; j < NX; j++) { double t = Ct[c * NX + j]; Ct[c * NX + j] = Ct[p * NX + j]; Ct[p * NX + j] = t; }
        for (int u = 0; u < NU; u++) { double t = Kt[c * NU + u]; Kt[c * NU + u] = Kt[p * NU + u]; Kt[p * NU + u] = t; }
        for (int r = c + 1; r < NX; r++) {
            double f = Ct[r * NX + c] / Ct[c * NX + c];
            for (int j = c; j < NX; j++) Ct[r * NX + j] -= f * Ct[c * NX + j];
            for (int u = 0; u < NU; u++) Kt[r * NU + u] -= f * Kt[c * NU + u];
        }
    }
    for (int c = NX - 1; c >= 0; c--)
        for (int u = 0; u < NU; u++) {
            double s = Kt[c * NU + u];
            for (int j = c + 1; j < NX; j++) s -= Ct[c * NX + j] * Kt[j * NU + u];
            Kt[c * NU + u] = s / Ct[c * NX + c];
        }
    for (int u = 0; u < NU; u++)
        for (int i = 0; i < NY; i++) d->Ky[u * NY + i] = Kt[i * NU + u];
    /* closed loop A - B K */
    double Acl[NX * NX];
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NX; j++) {
            double s = d->A[i * NX + j];
            for (int u = 0; u < NU; u++) s -= d->B[i * NU + u] * d->K[u * NX + j];
            Acl[i * NX + j] = s;
        }
    if (lqr_eig(NX, Acl, d->eig_re, d->eig_im) || lqr_eig(NX, d->A, d->ol_re, d->ol_im)) return -1;
    return 0;
}

