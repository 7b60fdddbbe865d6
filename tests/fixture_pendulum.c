/* fixture_pendulum.c - the thesis double pendulum (table 1) written by hand against mb_model.h.
 * Layer: test fixture, independent of the generator: a reference for the generated model.
 * Bars AB (6 kg, J 1.0, L 1.0, phi0 pi/4) and BC (10 kg, J 1.6, L 1.5, phi0 pi/2), CoM mid-bar. */
#include "mb_model.h"


static const mb_real L1 = 1.0, L2 = 1.5, grav = MB_R(9.81);

/* Revolute terms: with u = R(phi) s, Omega u = (-u_y, u_x). */
static void rot(mb_real phi, mb_real sx, mb_real sy, mb_real *ux, mb_real *uy)
{
    mb_real c = MB_COS(phi), s = MB_SIN(phi);
    *ux = c * sx - s * sy;
    *uy = s * sx + c * sy;
}

/* Joint A: ground origin = r1 + R1 sA1, sA1 = (-L1/2, 0).
 * Joint B: r1 + R1 sB1 - r2 - R2 sB2, sB1 = (L1/2, 0), sB2 = (-L2/2, 0). */
static void phi(const mb_model *m, mb_real t, const mb_real *q, mb_real *out)
{
    mb_real ax, ay, bx, by, cx, cy;
    (void)m; (void)t;
    rot(q[2], -L1 / 2, 0, &ax, &ay);
    rot(q[2], L1 / 2, 0, &bx, &by);
    rot(q[5], -L2 / 2, 0, &cx, &cy);
    out[0] = q[0] + ax;
    out[1] = q[1] + ay;
    out[2] = q[0] + bx - q[3] - cx;
    out[3] = q[1] + by - q[4] - cy;
}

static const int pq_row[12] = {0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3};
static const int pq_col[12] = {0, 2, 1, 2, 0, 2, 3, 5, 1, 2, 4, 5};

static void phi_q(const mb_model *m, mb_real t, const mb_real *q, mb_real *out)
{
    mb_real ax, ay, bx, by, cx, cy;
    (void)m; (void)t;
    rot(q[2], -L1 / 2, 0, &ax, &ay);
    rot(q[2], L1 / 2, 0, &bx, &by);
    rot(q[5], -L2 / 2, 0, &cx, &cy);
    out[0] = 1;  out[1] = -ay;           /* row 0: d/dx1, d/dphi1 (Omega R s)_x */
    out[2] = 1;  out[3] = ax;            /* row 1 */
    out[4] = 1;  out[5] = -by; out[6] = -1; out[7] = cy;   /* row 2: -(Omega R2 s)_x = +u_y */
    out[8] = 1;  out[9] = bx;  out[10] = -1; out[11] = -cx;
}

static void phi_t(const mb_model *m, mb_real t, const mb_real *q, mb_real *out)
{
    (void)m; (void)t; (void)q;
    out[0] = out[1] = out[2] = out[3] = 0;
}

/* d(Phi_q)/dt: phi column of body i -R_i s_i phidot_i, of body j +R_j s_j phidot_j. */
static void phi_q_dot(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v,
                      mb_real *out)
{
    mb_real ax, ay, bx, by, cx, cy;
    (void)m; (void)t;
    rot(q[2], -L1 / 2, 0, &ax, &ay);
    rot(q[2], L1 / 2, 0, &bx, &by);
    rot(q[5], -L2 / 2, 0, &cx, &cy);
    for (int k = 0; k < 12; k++) out[k] = 0;
    out[1] = -ax * v[2];
    out[3] = -ay * v[2];
    out[5] = -bx * v[2]; out[7] = cx * v[5];
    out[9] = -by * v[2]; out[11] = cy * v[5];
}

/* Gamma = R_i s_i phidot_i^2 - R_j s_j phidot_j^2 (ground has no velocity). */
static void gamma_(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v,
                   mb_real *out)
{
    mb_real ax, ay, bx, by, cx, cy;
    (void)m; (void)t;
    rot(q[2], -L1 / 2, 0, &ax, &ay);
    rot(q[2], L1 / 2, 0, &bx, &by);
    rot(q[5], -L2 / 2, 0, &cx, &cy);
    mb_real w1 = v[2] * v[2], w2 = v[5] * v[5];
    out[0] = ax * w1;
    out[1] = ay * w1;
    out[2] = bx * w1 - cx * w2;
    out[3] = by * w1 - cy * w2;
}

static const mb_real mass[6] = {6, 6, 1.0, 10, 10, 1.6};

static void force(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v,
                  mb_real *out)
{
    (void)m; (void)t; (void)q; (void)v;
    out[0] = 0; out[1] = -6 * grav; out[2] = 0;
    out[3] = 0; out[4] = -10 * grav; out[5] = 0;
}

static void none_qv(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v,
                    mb_real *out)
{
    (void)m; (void)t; (void)q; (void)v; (void)out;
}

static void energy(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v,
                   mb_real *out)
{
    mb_real T = 0;
    (void)m; (void)t;
    for (int i = 0; i < 6; i++) T += mass[i] * v[i] * v[i];
    out[0] = T / 2;
    out[1] = grav * (6 * q[1] + 10 * q[4]);   /* V = -m g^T r, g = (0, -9.81) */
    out[2] = 0;
}

static void points(const mb_model *m, mb_real t, const mb_real *q, mb_real *out)
{
    mb_real ux, uy;
    (void)m; (void)t;
    out[0] = 0; out[1] = 0;                               /* ground.A */
    rot(q[2], -L1 / 2, 0, &ux, &uy); out[2] = q[0] + ux; out[3] = q[1] + uy; /* AB.A */
    rot(q[2], L1 / 2, 0, &ux, &uy);  out[4] = q[0] + ux; out[5] = q[1] + uy; /* AB.B */
    rot(q[5], -L2 / 2, 0, &ux, &uy); out[6] = q[3] + ux; out[7] = q[4] + uy; /* BC.B */
    rot(q[5], L2 / 2, 0, &ux, &uy);  out[8] = q[3] + ux; out[9] = q[4] + uy; /* BC.C */
}

static const char *const coord_names[6] = {"AB.x", "AB.y", "AB.phi", "BC.x", "BC.y", "BC.phi"};
static const char *const body_names[2] = {"AB", "BC"};
static const char *const point_names[5] = {"ground.A", "AB.A", "AB.B", "BC.B", "BC.C"};
static const int point_body[5] = {-1, 0, 0, 1, 1};
static const char *const constraint_names[4] = {"A.x", "A.y", "B.x", "B.y"};
static const int joint_points[4] = {0, 1, 2, 3};   /* A: ground.A-AB.A, B: AB.B-BC.B */
static const mb_model_info info = {coord_names, body_names, point_names, constraint_names,
                                   0, 0, 2, joint_points, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                   0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
/* Guesses: angles exact, positions deliberately off so assembly has work to do. */
static const mb_real q0[6] = {0.3, 0.4, 0.78539816339744831, 0.8, 1.4, 1.5707963267948966};
static const mb_real v0[6] = {0, 0, 0, 0, 0, 0};
static const unsigned char locked[6] = {0, 0, 1, 0, 0, 1};
static const unsigned char v_given[6] = {0, 0, 1, 0, 0, 1};

const mb_model fixture_pendulum_model = {
    "fixture_pendulum", 6, 4, 2, 5,
    point_body, &info,
    mass, q0, v0, locked, v_given,
    0, 0, 0, 0, 0, 0, 0,
    {12, pq_row, pq_col}, {0, 0, 0}, {0, 0, 0},
    phi, phi_q, phi_t, phi_q_dot, gamma_,
    force, none_qv, none_qv, energy, points,
    0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0,   /* no inputs, no sensors */
    0, 0,               /* no input derivatives */
    0, 0,               /* no reactions in sensors */
    0, 0,               /* no switches */
    0,                  /* no fused gamma and force */
    0,                  /* no power alone */
    0,                  /* no fused Q and Phidot_q */
    1,                  /* scleronomic: phi_t writes zeros */
};
