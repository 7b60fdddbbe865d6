/* mb_generic.h - the generic evaluator: one C implementation of the mb_model interface that
 * walks a mechanism's element list at run time and applies hand-written per-element formulas.
 * Layer: evaluator (the model side of the seam runtime/mb_model.h); the generator emits the
 * model as const data (generated/<name>_data.c). */
#ifndef MB_GENERIC_H
#define MB_GENERIC_H

#include "mb_model.h"

/* Element kinds. */
enum {
    MB_GE_REVOLUTE = 1,   /* 2 rows: p_a - p_b = 0 */
    MB_GE_PRISMATIC,      /* 2 rows: phi_a - phi_b - angle = 0; n(phi_a) . (p_b - p_a) = 0 */
    MB_GE_SPRING,         /* point-to-point spring-damper, par = k, l0, c, c2 */
    MB_GE_ROTSPRING,      /* rotational spring-damper on phi_b - phi_a, par = k, theta0, c */
    MB_GE_FORCE,          /* point force on body a, tf = fx, fy; flag 1: body frame */
    MB_GE_TORQUE,         /* torque on body a, tf = tau */
    MB_GE_DRIVER_COORD,   /* 1 row: q_k - f(t) = 0, k = col[0]; tf = f, f', f'' */
    MB_GE_DRIVER_JOINT,   /* 1 row: phi_b - phi_a - f(t) = 0; tf = f, f', f'' */
    MB_GE_ROD,            /* 1 row: (d . d - L^2) / (2 L) = 0, d = p_b - p_a, par = L */
    MB_GE_SLOT,           /* 1 row: n(phi_a) . (p_b - p_a) = 0, par = axis (a prismatic's 2nd row) */
    MB_GE_GEAR,           /* 1 row: (phi_g1 - phi_c) + k (phi_g2 - phi_c) - offset = 0, col = g1.phi
                             g2.phi c.phi, par = k (ratio, negative for an internal mesh), offset */
    MB_GE_RACK,           /* 1 row: s u(phi_a) . (p_b - p_a) - r (phi_pinion - phi_frame) - offset = 0,
                             par = axis, r, offset; s = +1 (flag 1: the frame is a) or -1 (frame b) */
    MB_GE_CAM             /* 1 row: F(d) = 0, d = R_a^T (p_b - p_a) (a the cam's centre O, b the
                             follower); flag 0, a circle: F = |d - c| - L, par = cx, cy, L (radius
                             + roller); flag 1, a Fourier profile: F = (|d| - r(psi)) /
                             sqrt(1 + (r'(psi) / |d|)^2), par[0] = the index in tf_const of a0,
                             a_1..a_K, b_1..b_K, par[1] = K (generator/cam.lua); flag 2, a
                             periodic spline, F as Fourier's: par[0] = the index in tf_const of
                             the knots x_1..x_{n+1} (x_{n+1} = x_1 + 2 pi) and then the pieces'
                             c0..c3 (r = c0 + c1 t + c2 t^2 + c3 t^3, t = psi - x_i), par[1] = n;
                             flags 1 and 2 with par[2] = rr > 0: a roller, F = (d - P(psi_c))
                             . N(psi_c) - rr, psi_c by Newton (generator/cam.lua) */
};

/* Opcodes of the postfix time-function programs. MB_TF_CONST takes the next code as an
 * index into the constant pool; every other opcode stands alone. */
enum {
    MB_TF_CONST = 0, MB_TF_T, MB_TF_ADD, MB_TF_SUB, MB_TF_MUL, MB_TF_DIV, MB_TF_POW,
    MB_TF_NEG, MB_TF_SIN, MB_TF_COS, MB_TF_TAN, MB_TF_EXP, MB_TF_LOG, MB_TF_SQRT,
    MB_TF_ABS, MB_TF_STEP, MB_TF_SIGN
};
#define MB_TF_STACK 32   /* deepest evaluation stack a program may need (checked by the generator) */

/* One element. Local coordinates: col[0..ncol-1] are global coordinate indices (-1: ground):
 * revolute, prismatic, spring, rod, slot, cam: a.x a.y a.phi b.x b.y b.phi; rack: the same (its
 * prismatic joint's ends) and pinion.phi; gear: g1.phi g2.phi c.phi; rotspring, joint driver:
 * a.phi b.phi; force: a.x a.y a.phi; torque: a.phi; coordinate driver: q_k. A particle (two
 * coordinates, mb_model.body_q) has no phi: its col entry is -1, like the ground's. */
typedef struct mb_generic_elem {
    int kind;             /* MB_GE_* */
    int a, b;             /* body indices (0-based), -1 for the ground */
    mb_real sa[2], sb[2]; /* attachment points: body frame (CoM), or global on the ground */
    mb_real par[4];       /* kind-specific parameters, see the kinds */
    int flag;             /* force: 1 if components are in the body frame */
    int row;              /* first constraint row, -1 if the element has none */
    int ncol;             /* number of local coordinates */
    int col[7];           /* local -> global coordinate, -1 for ground coordinates */
    int tf[3];            /* time-function indices (see the kinds), -1 unused */
    int jslot;            /* offset in slot[] of the nrow x ncol Phi_q block, -1 none */
    int qslot;            /* offset in slot[] of the ncol x ncol dQ/dq block, -1 none */
    int vslot;            /* offset in slot[] of the ncol x ncol dQ/dv block, -1 none */
} mb_generic_elem;

/* The whole model as data; mb_model.data points to one of these. */
typedef struct mb_generic_data {
    int nelem;
    const mb_generic_elem *elem;
    const int *slot;         /* position of each local block entry in the sparse values, -1: not stored */
    mb_real gravity[2];
    const mb_real *point_s;  /* [2 * npoint] body-frame point coordinates (global for ground) */
    int ntf;
    const int *tf_start;     /* [ntf] first code of each program */
    const int *tf_len;       /* [ntf] number of codes */
    const int *tf_code;      /* opcodes (and constant indices) of all programs */
    const mb_real *tf_const; /* constant pool */
} mb_generic_data;

/* Evaluate time function `k` of `d` at time t. Pure; no allocation. */
mb_real mb_generic_tf(const mb_generic_data *d, int k, mb_real t);

/* The mb_model functions of the generic evaluator (see mb_model.h for each contract).
 * All read m->data (an mb_generic_data), m->mass and the patterns; none allocates on the heap
 * (they use a stack array of 2 * nbody reals for the body rotations). */
void mb_generic_phi(const mb_model *m, mb_real t, const mb_real *q, mb_real *out);
void mb_generic_phi_q(const mb_model *m, mb_real t, const mb_real *q, mb_real *out);
void mb_generic_phi_t(const mb_model *m, mb_real t, const mb_real *q, mb_real *out);
void mb_generic_phi_q_dot(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v,
                          mb_real *out);
void mb_generic_gamma(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v,
                      mb_real *out);
void mb_generic_force(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v,
                      mb_real *out);
void mb_generic_dforce_dq(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v,
                          mb_real *out);
void mb_generic_dforce_dv(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v,
                          mb_real *out);
void mb_generic_energy(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v,
                       mb_real *out);
void mb_generic_points(const mb_model *m, mb_real t, const mb_real *q, mb_real *out);
/* The switches of step{} and heaviside() (interface 14): g = -x of each step's argument x, the
 * last m->nswitch time functions of the table (the generator puts them there); q not read. */
void mb_generic_switches(const mb_model *m, mb_real t, const mb_real *q, mb_real *out);

#endif /* MB_GENERIC_H */
