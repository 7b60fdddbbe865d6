/* mb_generic.c - the generic evaluator: Phi, Phi_q, d(Phi_q)/dt, Gamma, Q, dQ/dq, dQ/dv,
 * energies and points of any planar mechanism, by walking its element list at run time.
 * Layer: evaluator (the model side of the seam runtime/mb_model.h); formulas follow SPEC.md
 * (equations derived per element in the comments). */
#include "mb_generic.h"

#include <string.h>

/* The rotations of one call and the model they belong to: cs[2i] = cos phi_i, cs[2i+1] = sin phi_i
 * (below), m for where each body's coordinates start (mb_body_q: a particle has two, no phi). */
typedef struct rc_s {
    const mb_model *m;
    mb_real *cs;
} rc_t;
#define QB(rc, body) mb_body_q((rc)->m, (body))
#define PARTICLE(rc, body) (mb_body_nq((rc)->m, (body)) == 2)

/* One end of an element: a point of a body (or of the ground) at the current state. */
typedef struct end_s {
    mb_real r[2];   /* CoM position (0 for the ground) */
    mb_real Rs[2];  /* R(phi) s: the point relative to the CoM in global axes (0 on the ground) */
    mb_real p[2];   /* global position r + R s */
    mb_real v[2];   /* point velocity rdot + Omega R s w */
    mb_real w;      /* angular velocity */
    mb_real phi;    /* angle (0 for the ground) */
} end_t;

mb_real mb_generic_tf(const mb_generic_data *d, int k, mb_real t)
{
    mb_real st[MB_TF_STACK];
    const int *c = d->tf_code + d->tf_start[k];
    int n = d->tf_len[k], sp = 0;
    for (int i = 0; i < n; i++) {
        switch (c[i]) {
        case MB_TF_CONST: st[sp++] = d->tf_const[c[++i]]; break;
        case MB_TF_T:     st[sp++] = t; break;
        case MB_TF_ADD:   sp--; st[sp - 1] += st[sp]; break;
        case MB_TF_SUB:   sp--; st[sp - 1] -= st[sp]; break;
        case MB_TF_MUL:   sp--; st[sp - 1] *= st[sp]; break;
        case MB_TF_DIV:   sp--; st[sp - 1] /= st[sp]; break;
        case MB_TF_POW:   sp--; st[sp - 1] = MB_POW(st[sp - 1], st[sp]); break;
        case MB_TF_NEG:   st[sp - 1] = -st[sp - 1]; break;
        case MB_TF_SIN:   st[sp - 1] = MB_SIN(st[sp - 1]); break;
        case MB_TF_COS:   st[sp - 1] = MB_COS(st[sp - 1]); break;
        case MB_TF_TAN:   st[sp - 1] = MB_TAN(st[sp - 1]); break;
        case MB_TF_EXP:   st[sp - 1] = MB_EXP(st[sp - 1]); break;
        case MB_TF_LOG:   st[sp - 1] = MB_LOG(st[sp - 1]); break;
        case MB_TF_SQRT:  st[sp - 1] = MB_SQRT(st[sp - 1]); break;
        case MB_TF_ABS:   st[sp - 1] = MB_FABS(st[sp - 1]); break;
        case MB_TF_STEP:  st[sp - 1] = st[sp - 1] >= MB_R(0.0) ? MB_R(1.0) : MB_R(0.0); break;
        case MB_TF_SIGN:
            st[sp - 1] = st[sp - 1] > MB_R(0.0) ? MB_R(1.0)
                       : st[sp - 1] < MB_R(0.0) ? MB_R(-1.0) : MB_R(0.0);
            break;
        default: return MB_R(0.0) / MB_R(0.0);   /* corrupt program: NaN, never silent */
        }
    }
    return st[0];
}

static mb_real tf(const mb_generic_data *d, int k, mb_real t)
{
    return k < 0 ? MB_R(0.0) : mb_generic_tf(d, k, t);
}

/* cos and sin of the body angles, each computed once per call and only when first needed:
 * cs[2i] = cos phi_i, cs[2i+1] = sin phi_i; cs[2i] = 2 (impossible for a cosine) marks "not yet".
 * A particle does not rotate: its frame stays the global one (1, 0). */
static void rot_reset(rc_t *rc)
{
    for (int i = 0; i < rc->m->nbody; i++) {
        rc->cs[2 * i] = PARTICLE(rc, i) ? MB_R(1.0) : MB_R(2.0);
        rc->cs[2 * i + 1] = MB_R(0.0);
    }
}

static const mb_real *rot(rc_t *rc, const mb_real *q, int body)
{
    mb_real *r = rc->cs + 2 * body;
    if (r[0] > MB_R(1.5)) {
        r[0] = MB_COS(q[QB(rc, body) + 2]);
        r[1] = MB_SIN(q[QB(rc, body) + 2]);
    }
    return r;
}

/* Fill e for point s of `body` (-1: ground, s global). v may be NULL (position-only functions). */
static void endpoint(rc_t *cs, const mb_real *q, const mb_real *v, int body,
                     const mb_real *s, end_t *e)
{
    if (body < 0) {
        e->r[0] = e->r[1] = e->Rs[0] = e->Rs[1] = e->v[0] = e->v[1] = MB_R(0.0);
        e->w = e->phi = MB_R(0.0);
        e->p[0] = s[0];
        e->p[1] = s[1];
        return;
    }
    const mb_real *cr = rot(cs, q, body), c = cr[0], sn = cr[1];
    const mb_real *qi = q + QB(cs, body);
    const int part = PARTICLE(cs, body);
    e->r[0] = qi[0];
    e->r[1] = qi[1];
    e->phi = part ? MB_R(0.0) : qi[2];
    e->Rs[0] = c * s[0] - sn * s[1];
    e->Rs[1] = sn * s[0] + c * s[1];
    e->p[0] = qi[0] + e->Rs[0];
    e->p[1] = qi[1] + e->Rs[1];
    if (v) {
        const mb_real *vi = v + QB(cs, body);
        e->w = part ? MB_R(0.0) : vi[2];
        e->v[0] = vi[0] - e->Rs[1] * e->w;   /* rdot + Omega R s w */
        e->v[1] = vi[1] + e->Rs[0] * e->w;
    } else {
        e->v[0] = e->v[1] = e->w = MB_R(0.0);
    }
}

/* Velocity of the element's local coordinates (0 for ground coordinates). */
static void local_v(const mb_generic_elem *e, const mb_real *v, mb_real *vl)
{
    for (int k = 0; k < e->ncol; k++) vl[k] = e->col[k] >= 0 ? v[e->col[k]] : MB_R(0.0);
}

/* Write (set) or accumulate a local block into the sparse values through its slots. */
static void scatter_set(const int *slot, const mb_real *blk, int n, mb_real *out)
{
    for (int k = 0; k < n; k++)
        if (slot[k] >= 0) out[slot[k]] = blk[k];
}
static void scatter_add(const int *slot, const mb_real *blk, int n, mb_real *out)
{
    for (int k = 0; k < n; k++)
        if (slot[k] >= 0) out[slot[k]] += blk[k];
}

/* Prismatic: u = R_a axis (the sliding direction), n = Omega u (its normal). */
static void prism_axes(const mb_generic_elem *e, rc_t *cs, const mb_real *q, mb_real *u,
                       mb_real *n)
{
    mb_real c = MB_R(1.0), s = MB_R(0.0);
    if (e->a >= 0) {
        const mb_real *cr = rot(cs, q, e->a);
        c = cr[0];
        s = cr[1];
    }
    u[0] = c * e->par[0] - s * e->par[1];
    u[1] = s * e->par[0] + c * e->par[1];
    n[0] = -u[1];
    n[1] = u[0];
}

/* Phi_q block (2 x 6) of a revolute or prismatic joint, row-major. */
static void joint_jac(const mb_generic_elem *e, rc_t *cs, const mb_real *q, const end_t *A,
                      const end_t *B, mb_real *J)
{
    memset(J, 0, 12 * sizeof *J);
    if (e->kind == MB_GE_REVOLUTE) {
        /* [I, Omega R_a s_a, -I, -Omega R_b s_b], Omega R s = (-Rs_y, Rs_x) */
        J[0] = MB_R(1.0);  J[2] = -A->Rs[1]; J[3] = MB_R(-1.0); J[5] = B->Rs[1];
        J[7] = MB_R(1.0);  J[8] = A->Rs[0];  J[10] = MB_R(-1.0); J[11] = -B->Rs[0];
        return;
    }
    /* row 1: phi_a - phi_b; row 2: n.(p_b - p_a), whose phi_a derivative simplifies to
     * (Omega n).(p_b - r_a) = -u.(p_b - r_a) and phi_b derivative to n.(Omega R_b s_b) */
    mb_real u[2], n[2];
    prism_axes(e, cs, q, u, n);
    J[2] = MB_R(1.0);
    J[5] = MB_R(-1.0);
    J[6] = -n[0];
    J[7] = -n[1];
    J[8] = -(u[0] * (B->p[0] - A->r[0]) + u[1] * (B->p[1] - A->r[1]));
    J[9] = n[0];
    J[10] = n[1];
    J[11] = n[0] * -B->Rs[1] + n[1] * B->Rs[0];
}

/* d(Phi_q)/dt block (2 x 6) of a revolute or prismatic joint (time-independent constraints). */
static void joint_jac_dot(const mb_generic_elem *e, rc_t *cs, const mb_real *q,
                          const end_t *A, const end_t *B, mb_real *Jd)
{
    memset(Jd, 0, 12 * sizeof *Jd);
    if (e->kind == MB_GE_REVOLUTE) {
        /* [0, -R_a s_a w_a, 0, +R_b s_b w_b] */
        Jd[2] = -A->Rs[0] * A->w;  Jd[5] = B->Rs[0] * B->w;
        Jd[8] = -A->Rs[1] * A->w;  Jd[11] = B->Rs[1] * B->w;
        return;
    }
    mb_real u[2], n[2];
    prism_axes(e, cs, q, u, n);
    const mb_real wa = A->w, wb = B->w;
    /* rdot_a of body a: point velocity minus the rotation part */
    const mb_real ra_dot[2] = { A->v[0] + A->Rs[1] * wa, A->v[1] - A->Rs[0] * wa };
    const mb_real dx = B->p[0] - A->r[0], dy = B->p[1] - A->r[1];
    Jd[6] = u[0] * wa;                    /* d(-n)/dt = -Omega n w_a = u w_a */
    Jd[7] = u[1] * wa;
    Jd[8] = -(n[0] * dx + n[1] * dy) * wa
            - (u[0] * (B->v[0] - ra_dot[0]) + u[1] * (B->v[1] - ra_dot[1]));
    Jd[9] = -u[0] * wa;
    Jd[10] = -u[1] * wa;
    Jd[11] = (n[0] * B->Rs[0] + n[1] * B->Rs[1]) * (wa - wb);
}

/* Rod: d = p_b - p_a, Phi = (d . d - L^2) / (2 L); the row Phi_q = d^T D / L with
 * D = dd/dq_local = [-I, -Omega R_a s_a, I, Omega R_b s_b] (2 x 6), and its rate
 * d(Phi_q)/dt = (ddot^T D + d^T Ddot) / L, Ddot nonzero in the phi columns only:
 * d(-Omega R_a s_a)/dt = R_a s_a w_a, d(Omega R_b s_b)/dt = -R_b s_b w_b. */
static void rod_row(const mb_generic_elem *e, const end_t *A, const end_t *B, mb_real *J, mb_real *Jd)
{
    const mb_real L = e->par[0];
    const mb_real d0 = B->p[0] - A->p[0], d1 = B->p[1] - A->p[1];
    const mb_real dd0 = B->v[0] - A->v[0], dd1 = B->v[1] - A->v[1];
    /* Omega R s = (-Rs_y, Rs_x) */
    const mb_real Da[2] = { A->Rs[1], -A->Rs[0] }, Db[2] = { -B->Rs[1], B->Rs[0] };
    if (J) {
        J[0] = -d0 / L; J[1] = -d1 / L; J[2] = (d0 * Da[0] + d1 * Da[1]) / L;
        J[3] = d0 / L;  J[4] = d1 / L;  J[5] = (d0 * Db[0] + d1 * Db[1]) / L;
    }
    if (Jd) {
        Jd[0] = -dd0 / L; Jd[1] = -dd1 / L;
        Jd[2] = (dd0 * Da[0] + dd1 * Da[1] + (d0 * A->Rs[0] + d1 * A->Rs[1]) * A->w) / L;
        Jd[3] = dd0 / L;  Jd[4] = dd1 / L;
        Jd[5] = (dd0 * Db[0] + dd1 * Db[1] - (d0 * B->Rs[0] + d1 * B->Rs[1]) * B->w) / L;
    }
}

/* Rack: the row of s u . (p_b - p_a) - r (phi_pinion - phi_frame) over a.x a.y a.phi b.x b.y b.phi
 * pinion.phi, u = R_a axis, n = Omega u, s = +1 when the frame is a, else -1. The travel part's
 * gradient is [-u, n . (p_b - r_a), u, -n . R_b s_b] (d u/dphi_a = n), its rate
 * [-n w_a, -u . (p_b - r_a) w_a + n . (pdot_b - rdot_a), n w_a, u . R_b s_b (w_a - w_b)]
 * (d n/dt = -u w_a); the angle part is constant. J, Jd: 7 entries each (NULL: not wanted). */
static void rack_row(const mb_generic_elem *e, rc_t *cs, const mb_real *q, const end_t *A,
                     const end_t *B, mb_real *J, mb_real *Jd)
{
    mb_real u[2], n[2];
    const mb_real sg = e->flag ? MB_R(1.0) : MB_R(-1.0), r = e->par[2];
    prism_axes(e, cs, q, u, n);
    const mb_real dx = B->p[0] - A->r[0], dy = B->p[1] - A->r[1];
    if (J) {
        J[0] = -sg * u[0];
        J[1] = -sg * u[1];
        J[2] = sg * (n[0] * dx + n[1] * dy);
        J[3] = sg * u[0];
        J[4] = sg * u[1];
        J[5] = -sg * (n[0] * B->Rs[0] + n[1] * B->Rs[1]);
        J[6] = -r;   /* pinion */
        if (e->flag) J[2] += r; else J[5] += r;   /* the frame's angle */
    }
    if (Jd) {
        const mb_real wa = A->w, wb = B->w;
        const mb_real ra_dot[2] = { A->v[0] + A->Rs[1] * wa, A->v[1] - A->Rs[0] * wa };
        Jd[0] = -sg * n[0] * wa;
        Jd[1] = -sg * n[1] * wa;
        Jd[2] = sg * (-(u[0] * dx + u[1] * dy) * wa
                      + n[0] * (B->v[0] - ra_dot[0]) + n[1] * (B->v[1] - ra_dot[1]));
        Jd[3] = sg * n[0] * wa;
        Jd[4] = sg * n[1] * wa;
        Jd[5] = sg * (u[0] * B->Rs[0] + u[1] * B->Rs[1]) * (wa - wb);
        Jd[6] = MB_R(0.0);
    }
}

/* Cam: Phi = F(d), d = R_a^T (p_b - p_a) the follower point b in the cam body's axes about its
 * centre O (end a). F and its gradient g and Hessian H (Hxx, Hxy, Hyy) in d:
 *  - circle (flag 0, par = cx, cy, L = R + roller): F = |d - c| - L, g = u, H = (I - u u^T) / l;
 *  - Fourier (flag 1, par[0] = first index of a0, a_1..a_K, b_1..b_K in tf_const, par[1] = K),
 *    or a periodic spline (flag 2, par[0] = first index of its knots and pieces, par[1] = n):
 *    F = (rho - r(psi)) / N, N = sqrt(1 + s^2), s = r'/rho, (rho, psi) the polar coordinates of
 *    d; F's polar derivatives from A = rho - r and N (s_rho = -r'/rho^2, s_psi = r''/rho, ...),
 *    turned into Cartesian ones: g = F_r e_r + F_p / rho e_p, H = F_rr e_r e_r^T + (F_rp / rho
 *    - F_p / rho^2) (e_r e_p^T + e_p e_r^T) + (F_pp / rho^2 + F_r / rho) e_p e_p^T. */
/* r, r', r'', r''' of a Fourier (flag 1) or spline (flag 2) profile at psi (c its constants in
 * tf_const, K its harmonics or points). */
static void cam_profile(const mb_real *c, int K, int flag, mb_real psi, mb_real *r)
{
    if (flag == 2) {   /* a spline: psi wrapped into a turn from x_1, the piece by bisection */
        const mb_real tp = MB_R(6.283185307179586), *p;
        mb_real u = psi - tp * MB_LIBM(floor)((psi - c[0]) / tp), t;
        int lo = 0, hi = K;
        if (u < c[0]) u = c[0];
        while (hi - lo > 1) {
            const int mid = (lo + hi) / 2;
            if (u < c[mid]) hi = mid; else lo = mid;
        }
        t = u - c[lo];
        p = c + K + 1 + 4 * lo;
        r[0] = p[0] + t * (p[1] + t * (p[2] + t * p[3]));
        r[1] = p[1] + t * (MB_R(2.0) * p[2] + MB_R(3.0) * t * p[3]);
        r[2] = MB_R(2.0) * p[2] + MB_R(6.0) * t * p[3];
        r[3] = MB_R(6.0) * p[3];
        return;
    }
    r[0] = c[0];
    r[1] = r[2] = r[3] = MB_R(0.0);
    for (int k = 1; k <= K; k++) {
        const mb_real a = c[k], b = c[K + k], kk = (mb_real)k;
        const mb_real ck = MB_COS(kk * psi), sk = MB_SIN(kk * psi);
        r[0] += a * ck + b * sk;
        r[1] += kk * (b * ck - a * sk);
        r[2] -= kk * kk * (a * ck + b * sk);
        r[3] -= kk * kk * kk * (b * ck - a * sk);
    }
}

/* The tangent P' = (tx, ty), P'' = (ax, ay) and d - P = (ex, ey) at psi; returns g_psi. */
static mb_real cam_frame(const mb_real *c, int K, int flag, mb_real psi, const mb_real *dd,
                         mb_real *r, mb_real *f)
{
    cam_profile(c, K, flag, psi, r);
    const mb_real cs = MB_COS(psi), sn = MB_SIN(psi);
    f[0] = r[1] * cs - r[0] * sn;
    f[1] = r[1] * sn + r[0] * cs;
    f[2] = (r[2] - r[0]) * cs - MB_R(2.0) * r[1] * sn;
    f[3] = (r[2] - r[0]) * sn + MB_R(2.0) * r[1] * cs;
    f[4] = dd[0] - r[0] * cs;
    f[5] = dd[1] - r[0] * sn;
    return f[4] * f[2] + f[5] * f[3] - (f[0] * f[0] + f[1] * f[1]);
}

/* One step of the contact angle's Newton iteration (the generated code's _step helper) */
static mb_real cam_roller_step(const mb_real *c, int K, int flag, mb_real psi, const mb_real *dd)
{
    mb_real r[4], f[6];
    const mb_real gp = cam_frame(c, K, flag, psi, dd, r, f);
    const mb_real tt = f[0] * f[0] + f[1] * f[1];
    const mb_real step = (f[4] * f[0] + f[5] * f[1]) / (gp < -MB_R(0.01) * tt ? gp : -tt);
    return step > MB_R(0.5) ? MB_R(0.5) : step < -MB_R(0.5) ? -MB_R(0.5) : step;
}

/* A roller of radius rr (par[2] > 0) on a Fourier or spline profile, its centre at d: the
 * contact angle psi, the root of g = (d - P(psi)) . P'(psi), by Newton from d's polar angle
 * (the generated code's iteration, generator/cam.lua: contact_c); F = (d - P) . N - rr, g = N
 * (the distance's derivative in psi is 0 at the root), H = N' grad(psi)^T with
 * grad(psi) = -P' / g_psi, N' = (P''_y, -P''_x) / L - N (P' . P'') / L^2, L = |P'| (symmetric:
 * N' is along P'). */
static void cam_roller_F(const mb_real *c, int K, int flag, mb_real rr, const mb_real *dd,
                         mb_real *F, mb_real *g, mb_real *H)
{
    mb_real psi = MB_ATAN2(dd[1], dd[0]), r[4], f[6], gp;
    int i;
    for (i = 0; i < 50; i++) {
        const mb_real step = cam_roller_step(c, K, flag, psi, dd);
        psi -= step;
        if (MB_FABS(step) < MB_SQRT(MB_EPS)) break;   /* one more step, then the root */
    }
    /* not converged in 50: NaN, as the generated code (the runtime: a non-finite evaluation) */
    psi = i < 50 ? psi - cam_roller_step(c, K, flag, psi, dd) : MB_R(0.0) / MB_R(0.0);
    gp = cam_frame(c, K, flag, psi, dd, r, f);
    const mb_real L = MB_HYPOT(r[0], r[1]), nx = f[1] / L, ny = -f[0] / L;
    const mb_real ta = (f[0] * f[2] + f[1] * f[3]) / (L * L);
    const mb_real n1x = f[3] / L - nx * ta, n1y = -f[2] / L - ny * ta, px = -f[0] / gp, py = -f[1] / gp;
    *F = f[4] * nx + f[5] * ny - rr;
    g[0] = nx;
    g[1] = ny;
    H[0] = n1x * px;
    H[1] = MB_R(0.5) * (n1x * py + n1y * px);
    H[2] = n1y * py;
}

static void cam_F(const mb_generic_data *D, const mb_generic_elem *e, const mb_real *dd,
                  mb_real *F, mb_real *g, mb_real *H)
{
    if (!e->flag) {
        const mb_real ex = dd[0] - e->par[0], ey = dd[1] - e->par[1], l = MB_HYPOT(ex, ey);
        const mb_real ux = ex / l, uy = ey / l;
        *F = l - e->par[2];
        g[0] = ux;
        g[1] = uy;
        H[0] = (MB_R(1.0) - ux * ux) / l;
        H[1] = -ux * uy / l;
        H[2] = (MB_R(1.0) - uy * uy) / l;
        return;
    }
    const mb_real *c = D->tf_const + (int)e->par[0];
    const int K = (int)e->par[1];
    if (e->par[2] > MB_R(0.0)) {
        cam_roller_F(c, K, e->flag, e->par[2], dd, F, g, H);
        return;
    }
    const mb_real rho = MB_HYPOT(dd[0], dd[1]), psi = MB_ATAN2(dd[1], dd[0]);
    mb_real rv[4];
    cam_profile(c, K, e->flag, psi, rv);
    const mb_real r = rv[0], r1 = rv[1], r2 = rv[2], r3 = rv[3];
    const mb_real s = r1 / rho, N = MB_SQRT(MB_R(1.0) + s * s), A = rho - r;
    const mb_real s_r = -r1 / (rho * rho), s_p = r2 / rho;
    const mb_real s_rr = MB_R(2.0) * r1 / (rho * rho * rho), s_rp = -r2 / (rho * rho), s_pp = r3 / rho;
    const mb_real N_r = s * s_r / N, N_p = s * s_p / N, N3 = N * N * N;
    const mb_real N_rr = (s_r * s_r + s * s_rr) / N - s * s_r * s * s_r / N3;
    const mb_real N_rp = (s_r * s_p + s * s_rp) / N - s * s_r * s * s_p / N3;
    const mb_real N_pp = (s_p * s_p + s * s_pp) / N - s * s_p * s * s_p / N3;
    const mb_real A_r = MB_R(1.0), A_p = -r1, A_pp = -r2, N2 = N * N;
    const mb_real F_r = A_r / N - A * N_r / N2, F_p = A_p / N - A * N_p / N2;
    const mb_real F_rr = -(A_r * N_r + A_r * N_r) / N2 - A * N_rr / N2 + MB_R(2.0) * A * N_r * N_r / N3;
    const mb_real F_rp = -(A_r * N_p + A_p * N_r) / N2 - A * N_rp / N2 + MB_R(2.0) * A * N_r * N_p / N3;
    const mb_real F_pp = A_pp / N - (A_p * N_p + A_p * N_p) / N2 - A * N_pp / N2 +
                         MB_R(2.0) * A * N_p * N_p / N3;
    const mb_real er[2] = { dd[0] / rho, dd[1] / rho }, ep[2] = { -er[1], er[0] };
    const mb_real hm = F_rp / rho - F_p / (rho * rho), hp = F_pp / (rho * rho) + F_r / rho;
    *F = A / N;
    g[0] = F_r * er[0] + F_p / rho * ep[0];
    g[1] = F_r * er[1] + F_p / rho * ep[1];
    H[0] = F_rr * er[0] * er[0] + MB_R(2.0) * hm * er[0] * ep[0] + hp * ep[0] * ep[0];
    H[1] = F_rr * er[0] * er[1] + hm * (er[0] * ep[1] + ep[0] * er[1]) + hp * ep[0] * ep[1];
    H[2] = F_rr * er[1] * er[1] + MB_R(2.0) * hm * er[1] * ep[1] + hp * ep[1] * ep[1];
}

/* Cam row over a.x a.y a.phi b.x b.y b.phi: J = dd/dq (2 x 6, columns -R^T e_x, -R^T e_y,
 * -Omega R^T w, R^T e_x, R^T e_y, R^T Omega R_b s_b; w = p_b - r_a), the row g^T J, its rate
 * (H ddot)^T J + g^T Jdot (Jdot's columns Omega R^T e_x w_a, Omega R^T e_y w_a, -R^T w w_a
 * - Omega R^T wdot, -Omega R^T e_x w_a, -Omega R^T e_y w_a, -Omega R^T Omega R_b s_b w_a
 * - R^T R_b s_b w_b) and Gamma = -(ddot^T H ddot + g^T Jdot v). F, J, Jd, G may be NULL. */
static void cam_row(const mb_generic_data *D, const mb_generic_elem *e, rc_t *cs,
                    const mb_real *q, const mb_real *v, const end_t *A, const end_t *B,
                    mb_real *Fo, mb_real *Jo, mb_real *Jdo, mb_real *Go)
{
    mb_real c = MB_R(1.0), sn = MB_R(0.0);
    if (e->a >= 0 && !PARTICLE(cs, e->a)) {
        const mb_real *cr = rot(cs, q, e->a);
        c = cr[0];
        sn = cr[1];
    }
#define RT(x, y, o) ((o)[0] = c * (x) + sn * (y), (o)[1] = -sn * (x) + c * (y))   /* R^T (x, y) */
#define OM(x, o) ((o)[0] = -(x)[1], (o)[1] = (x)[0])                            /* Omega x */
    mb_real dd[2], F, g[2], H[3], J[12], t1[2], t2[2];
    RT(B->p[0] - A->p[0], B->p[1] - A->p[1], dd);
    cam_F(D, e, dd, &F, g, H);
    if (Fo) *Fo = F;
    /* columns of J, two entries each (d_x, d_y) */
    RT(MB_R(-1.0), MB_R(0.0), J + 0);
    RT(MB_R(0.0), MB_R(-1.0), J + 2);
    RT(B->p[0] - A->r[0], B->p[1] - A->r[1], t1);
    OM(t1, J + 4);
    J[4] = -J[4];
    J[5] = -J[5];
    RT(MB_R(1.0), MB_R(0.0), J + 6);
    RT(MB_R(0.0), MB_R(1.0), J + 8);
    OM(B->Rs, t1);
    RT(t1[0], t1[1], J + 10);
    if (Jo) for (int k = 0; k < 6; k++) Jo[k] = g[0] * J[2 * k] + g[1] * J[2 * k + 1];
    if (!Jdo && !Go) return;
    mb_real vl[6], ddot[2] = { MB_R(0.0), MB_R(0.0) }, Jd[12], Hd[2];
    local_v(e, v, vl);
    for (int k = 0; k < 6; k++) {
        ddot[0] += J[2 * k] * vl[k];
        ddot[1] += J[2 * k + 1] * vl[k];
    }
    const mb_real wa = A->w, wb = B->w;
    const mb_real radot[2] = { A->v[0] + A->Rs[1] * wa, A->v[1] - A->Rs[0] * wa };
    const mb_real wv[2] = { B->p[0] - A->r[0], B->p[1] - A->r[1] };
    const mb_real wdot[2] = { B->v[0] - radot[0], B->v[1] - radot[1] };
    for (int k = 0; k < 2; k++) {   /* a.x, a.y: Omega R^T e_k w_a = -Omega (column k) w_a */
        OM(J + 2 * k, t1);
        Jd[2 * k] = -t1[0] * wa;
        Jd[2 * k + 1] = -t1[1] * wa;
    }
    /* b.x, b.y: -Omega R^T e_k w_a = -Omega (column 3 + k) w_a */
    for (int k = 0; k < 2; k++) {
        OM(J + 6 + 2 * k, t1);
        Jd[6 + 2 * k] = -t1[0] * wa;
        Jd[6 + 2 * k + 1] = -t1[1] * wa;
    }
    RT(wv[0], wv[1], t1);          /* R^T w */
    RT(wdot[0], wdot[1], t2);      /* R^T wdot */
    Jd[4] = -t1[0] * wa + t2[1];   /* -R^T w w_a - Omega R^T wdot */
    Jd[5] = -t1[1] * wa - t2[0];
    OM(J + 10, t1);                /* Omega (R^T Omega R_b s_b) */
    RT(B->Rs[0], B->Rs[1], t2);    /* R^T R_b s_b */
    Jd[10] = -t1[0] * wa - t2[0] * wb;
    Jd[11] = -t1[1] * wa - t2[1] * wb;
#undef RT
#undef OM
    Hd[0] = H[0] * ddot[0] + H[1] * ddot[1];
    Hd[1] = H[1] * ddot[0] + H[2] * ddot[1];
    if (Jdo)
        for (int k = 0; k < 6; k++)
            Jdo[k] = Hd[0] * J[2 * k] + Hd[1] * J[2 * k + 1] + g[0] * Jd[2 * k] + g[1] * Jd[2 * k + 1];
    if (Go) {
        mb_real jv[2] = { MB_R(0.0), MB_R(0.0) };
        for (int k = 0; k < 6; k++) {
            jv[0] += Jd[2 * k] * vl[k];
            jv[1] += Jd[2 * k + 1] * vl[k];
        }
        *Go = -(ddot[0] * Hd[0] + ddot[1] * Hd[1] + g[0] * jv[0] + g[1] * jv[1]);
    }
}

/* Gear: the angle of local coordinate k (0 for the ground). */
static mb_real lq(const mb_generic_elem *e, const mb_real *q, int k)
{
    return e->col[k] >= 0 ? q[e->col[k]] : MB_R(0.0);
}

/* Body-frame or ground point ends of a two-point element. */
static void ends(const mb_generic_elem *e, rc_t *cs, const mb_real *q, const mb_real *v,
                 end_t *A, end_t *B)
{
    endpoint(cs, q, v, e->a, e->sa, A);
    endpoint(cs, q, v, e->b, e->sb, B);
}

static int nrows(int kind)
{
    return kind == MB_GE_REVOLUTE || kind == MB_GE_PRISMATIC ? 2
         : kind == MB_GE_DRIVER_COORD || kind == MB_GE_DRIVER_JOINT || kind == MB_GE_ROD ||
           kind == MB_GE_SLOT || kind == MB_GE_GEAR || kind == MB_GE_RACK || kind == MB_GE_CAM ? 1 : 0;
}

static mb_real angle(rc_t *cs, const mb_real *q, int body)
{
    return body < 0 || PARTICLE(cs, body) ? MB_R(0.0) : q[QB(cs, body) + 2];
}

#define GDATA(m) ((const mb_generic_data *)(m)->data)
#define NB(m) ((m)->nbody > 0 ? 2 * (m)->nbody : 1)

void mb_generic_phi(const mb_model *m, mb_real t, const mb_real *q, mb_real *out)
{
    const mb_generic_data *d = GDATA(m);
    mb_real csb[NB(m)];
    rc_t rcx = { m, csb }, *cs = &rcx;
    rot_reset(cs);
    for (int i = 0; i < d->nelem; i++) {
        const mb_generic_elem *e = &d->elem[i];
        end_t A, B;
        switch (e->kind) {
        case MB_GE_REVOLUTE:
            ends(e, cs, q, NULL, &A, &B);
            out[e->row] = A.p[0] - B.p[0];
            out[e->row + 1] = A.p[1] - B.p[1];
            break;
        case MB_GE_PRISMATIC: {
            mb_real u[2], n[2];
            ends(e, cs, q, NULL, &A, &B);
            prism_axes(e, cs, q, u, n);
            out[e->row] = A.phi - B.phi - e->par[2];
            out[e->row + 1] = n[0] * (B.p[0] - A.p[0]) + n[1] * (B.p[1] - A.p[1]);
            break;
        }
        case MB_GE_DRIVER_COORD:
            out[e->row] = q[e->col[0]] - tf(d, e->tf[0], t);
            break;
        case MB_GE_ROD: {
            ends(e, cs, q, NULL, &A, &B);
            const mb_real d0 = B.p[0] - A.p[0], d1 = B.p[1] - A.p[1], L = e->par[0];
            out[e->row] = (d0 * d0 + d1 * d1 - L * L) / (MB_R(2.0) * L);
            break;
        }
        case MB_GE_DRIVER_JOINT:
            out[e->row] = angle(cs, q, e->b) - angle(cs, q, e->a) - tf(d, e->tf[0], t);
            break;
        case MB_GE_SLOT: {   /* the prismatic joint's second row */
            mb_real u[2], n[2];
            ends(e, cs, q, NULL, &A, &B);
            prism_axes(e, cs, q, u, n);
            out[e->row] = n[0] * (B.p[0] - A.p[0]) + n[1] * (B.p[1] - A.p[1]);
            break;
        }
        case MB_GE_CAM:
            ends(e, cs, q, NULL, &A, &B);
            cam_row(d, e, cs, q, NULL, &A, &B, &out[e->row], NULL, NULL, NULL);
            break;
        case MB_GE_GEAR: {
            const mb_real c = lq(e, q, 2);
            out[e->row] = (lq(e, q, 0) - c) + e->par[0] * (lq(e, q, 1) - c) - e->par[1];
            break;
        }
        case MB_GE_RACK: {
            mb_real u[2], n[2];
            ends(e, cs, q, NULL, &A, &B);
            prism_axes(e, cs, q, u, n);
            const mb_real s = u[0] * (B.p[0] - A.p[0]) + u[1] * (B.p[1] - A.p[1]);
            const mb_real frame = e->flag ? angle(cs, q, e->a) : angle(cs, q, e->b);
            out[e->row] = (e->flag ? s : -s) - e->par[2] * (lq(e, q, 6) - frame) - e->par[3];
            break;
        }
        default: break;
        }
    }
}

void mb_generic_phi_q(const mb_model *m, mb_real t, const mb_real *q, mb_real *out)
{
    const mb_generic_data *d = GDATA(m);
    mb_real csb[NB(m)];
    rc_t rcx = { m, csb }, *cs = &rcx;
    (void)t;
    if (m->phi_q_pat.nnz == 0) return;   /* no constraints: out may be NULL (memset(NULL, 0, 0)) */
    rot_reset(cs);
    memset(out, 0, (size_t)m->phi_q_pat.nnz * sizeof *out);
    for (int i = 0; i < d->nelem; i++) {
        const mb_generic_elem *e = &d->elem[i];
        mb_real J[12];
        end_t A, B;
        switch (e->kind) {
        case MB_GE_REVOLUTE:
        case MB_GE_PRISMATIC:
            ends(e, cs, q, NULL, &A, &B);
            joint_jac(e, cs, q, &A, &B, J);
            scatter_set(d->slot + e->jslot, J, 12, out);
            break;
        case MB_GE_ROD:
            ends(e, cs, q, NULL, &A, &B);
            rod_row(e, &A, &B, J, NULL);
            scatter_set(d->slot + e->jslot, J, 6, out);
            break;
        case MB_GE_DRIVER_COORD:
            J[0] = MB_R(1.0);
            scatter_set(d->slot + e->jslot, J, 1, out);
            break;
        case MB_GE_DRIVER_JOINT:
            J[0] = MB_R(-1.0);
            J[1] = MB_R(1.0);
            scatter_set(d->slot + e->jslot, J, 2, out);
            break;
        case MB_GE_SLOT:
            ends(e, cs, q, NULL, &A, &B);
            joint_jac(e, cs, q, &A, &B, J);   /* the prismatic's rows: the second one */
            scatter_set(d->slot + e->jslot, J + 6, 6, out);
            break;
        case MB_GE_GEAR:
            J[0] = MB_R(1.0);
            J[1] = e->par[0];
            J[2] = MB_R(-1.0) - e->par[0];
            scatter_set(d->slot + e->jslot, J, 3, out);
            break;
        case MB_GE_RACK:
            ends(e, cs, q, NULL, &A, &B);
            rack_row(e, cs, q, &A, &B, J, NULL);
            scatter_set(d->slot + e->jslot, J, 7, out);
            break;
        case MB_GE_CAM:
            ends(e, cs, q, NULL, &A, &B);
            cam_row(d, e, cs, q, NULL, &A, &B, NULL, J, NULL, NULL);
            scatter_set(d->slot + e->jslot, J, 6, out);
            break;
        default: break;
        }
    }
}

void mb_generic_phi_t(const mb_model *m, mb_real t, const mb_real *q, mb_real *out)
{
    const mb_generic_data *d = GDATA(m);
    (void)q;
    for (int i = 0; i < d->nelem; i++) {
        const mb_generic_elem *e = &d->elem[i];
        int nr = nrows(e->kind);
        if (e->kind == MB_GE_DRIVER_COORD || e->kind == MB_GE_DRIVER_JOINT)
            out[e->row] = -tf(d, e->tf[1], t);
        else
            for (int r = 0; r < nr; r++) out[e->row + r] = MB_R(0.0);
    }
}

void mb_generic_phi_q_dot(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v,
                          mb_real *out)
{
    const mb_generic_data *d = GDATA(m);
    mb_real csb[NB(m)];
    rc_t rcx = { m, csb }, *cs = &rcx;
    (void)t;
    if (m->phi_q_pat.nnz == 0) return;   /* no constraints: out may be NULL */
    rot_reset(cs);
    memset(out, 0, (size_t)m->phi_q_pat.nnz * sizeof *out);   /* drivers: constant rows */
    for (int i = 0; i < d->nelem; i++) {
        const mb_generic_elem *e = &d->elem[i];
        mb_real Jd[12];
        end_t A, B;
        if (e->kind == MB_GE_ROD) {
            ends(e, cs, q, v, &A, &B);
            rod_row(e, &A, &B, NULL, Jd);
            scatter_set(d->slot + e->jslot, Jd, 6, out);
            continue;
        }
        if (e->kind == MB_GE_RACK) {
            ends(e, cs, q, v, &A, &B);
            rack_row(e, cs, q, &A, &B, NULL, Jd);
            scatter_set(d->slot + e->jslot, Jd, 7, out);
            continue;
        }
        if (e->kind == MB_GE_CAM) {
            ends(e, cs, q, v, &A, &B);
            cam_row(d, e, cs, q, v, &A, &B, NULL, NULL, Jd, NULL);
            scatter_set(d->slot + e->jslot, Jd, 6, out);
            continue;
        }
        if (e->kind != MB_GE_REVOLUTE && e->kind != MB_GE_PRISMATIC && e->kind != MB_GE_SLOT)
            continue;   /* gears and drivers: constant rows */
        ends(e, cs, q, v, &A, &B);
        joint_jac_dot(e, cs, q, &A, &B, Jd);
        if (e->kind == MB_GE_SLOT) scatter_set(d->slot + e->jslot, Jd + 6, 6, out);
        else scatter_set(d->slot + e->jslot, Jd, 12, out);
    }
}

void mb_generic_gamma(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v,
                      mb_real *out)
{
    const mb_generic_data *d = GDATA(m);
    mb_real csb[NB(m)];
    rc_t rcx = { m, csb }, *cs = &rcx;
    rot_reset(cs);
    for (int i = 0; i < d->nelem; i++) {
        const mb_generic_elem *e = &d->elem[i];
        end_t A, B;
        switch (e->kind) {
        case MB_GE_REVOLUTE:   /* R_a s_a w_a^2 - R_b s_b w_b^2 */
            ends(e, cs, q, v, &A, &B);
            out[e->row] = A.Rs[0] * A.w * A.w - B.Rs[0] * B.w * B.w;
            out[e->row + 1] = A.Rs[1] * A.w * A.w - B.Rs[1] * B.w * B.w;
            break;
        case MB_GE_PRISMATIC: {   /* -(d(Phi_q)/dt) v: holds for time-independent rows */
            mb_real Jd[12], vl[6];
            ends(e, cs, q, v, &A, &B);
            joint_jac_dot(e, cs, q, &A, &B, Jd);
            local_v(e, v, vl);
            for (int r = 0; r < 2; r++) {
                mb_real s = MB_R(0.0);
                for (int k = 0; k < 6; k++) s += Jd[6 * r + k] * vl[k];
                out[e->row + r] = -s;
            }
            break;
        }
        case MB_GE_ROD: {   /* -(d(Phi_q)/dt) v (time-independent) */
            mb_real Jd[6], vl[6], g = MB_R(0.0);
            ends(e, cs, q, v, &A, &B);
            rod_row(e, &A, &B, NULL, Jd);
            local_v(e, v, vl);
            for (int k = 0; k < 6; k++) g += Jd[k] * vl[k];
            out[e->row] = -g;
            break;
        }
        case MB_GE_SLOT: {   /* -(d(Phi_q)/dt) v of the prismatic's second row */
            mb_real Jd[12], vl[6], g = MB_R(0.0);
            ends(e, cs, q, v, &A, &B);
            joint_jac_dot(e, cs, q, &A, &B, Jd);
            local_v(e, v, vl);
            for (int k = 0; k < 6; k++) g += Jd[6 + k] * vl[k];
            out[e->row] = -g;
            break;
        }
        case MB_GE_RACK: {   /* -(d(Phi_q)/dt) v (time-independent) */
            mb_real Jd[7], vl[7], g = MB_R(0.0);
            ends(e, cs, q, v, &A, &B);
            rack_row(e, cs, q, &A, &B, NULL, Jd);
            local_v(e, v, vl);
            for (int k = 0; k < 7; k++) g += Jd[k] * vl[k];
            out[e->row] = -g;
            break;
        }
        case MB_GE_CAM:   /* -(d(Phi_q)/dt) v (time-independent) */
            ends(e, cs, q, v, &A, &B);
            cam_row(d, e, cs, q, v, &A, &B, NULL, NULL, NULL, &out[e->row]);
            break;
        case MB_GE_GEAR:   /* linear in q: Gamma = 0 */
            out[e->row] = MB_R(0.0);
            break;
        case MB_GE_DRIVER_COORD:   /* Phi_tt = -f'' and Phi_qt = 0 */
        case MB_GE_DRIVER_JOINT:
            out[e->row] = tf(d, e->tf[2], t);
            break;
        default: break;
        }
    }
}

/* Spring-damper state: d = p_b - p_a, l = |d|, u = d / l (0 when l = 0), ldot = u . ddot,
 * F = k (l - l0) + c ldot + c2 ldot |ldot| (tension positive), f = u F. */
typedef struct spring_s {
    mb_real d[2], dd[2], u[2], l, ldot, Fel, Fd, F;
} spring_t;

static void spring_state(const mb_generic_elem *e, const end_t *A, const end_t *B, spring_t *s)
{
    s->d[0] = B->p[0] - A->p[0];
    s->d[1] = B->p[1] - A->p[1];
    s->dd[0] = B->v[0] - A->v[0];
    s->dd[1] = B->v[1] - A->v[1];
    /* hypot: no underflow of d*d near |d| = 1e-162; at l = 0 (below MB_LEN_TINY) the direction
     * is undefined and taken as zero (no force along it), like the generated code */
    s->l = MB_HYPOT(s->d[0], s->d[1]);
    s->u[0] = s->l > MB_LEN_TINY ? s->d[0] / s->l : MB_R(0.0);
    s->u[1] = s->l > MB_LEN_TINY ? s->d[1] / s->l : MB_R(0.0);
    s->ldot = s->u[0] * s->dd[0] + s->u[1] * s->dd[1];
    s->Fel = e->par[0] * (s->l - e->par[1]);
    s->Fd = e->par[2] * s->ldot + e->par[3] * s->ldot * MB_FABS(s->ldot);
    s->F = s->Fel + s->Fd;
}

/* D = dd/dq_local (2 x 6): [-I, -Omega R_a s_a, I, Omega R_b s_b], row-major. */
static void spring_D(const end_t *A, const end_t *B, mb_real *D)
{
    D[0] = MB_R(-1.0); D[1] = MB_R(0.0);  D[2] = A->Rs[1];
    D[3] = MB_R(1.0);  D[4] = MB_R(0.0);  D[5] = -B->Rs[1];
    D[6] = MB_R(0.0);  D[7] = MB_R(-1.0); D[8] = -A->Rs[0];
    D[9] = MB_R(0.0);  D[10] = MB_R(1.0); D[11] = B->Rs[0];
}

/* Forces of element e added into Q (full vector; NULL: none); returns its non-conservative
 * power. */
static mb_real elem_force(const mb_generic_data *d, const mb_generic_elem *e, rc_t *cs,
                          mb_real t, const mb_real *q, const mb_real *v, mb_real *Q)
{
    end_t A, B;
    switch (e->kind) {
    case MB_GE_SPRING: {   /* Q_local = -D^T u F */
        spring_t s;
        mb_real D[12];
        ends(e, cs, q, v, &A, &B);
        spring_state(e, &A, &B, &s);
        spring_D(&A, &B, D);
        const mb_real f0 = s.u[0] * s.F, f1 = s.u[1] * s.F;
        for (int k = 0; k < 6; k++)
            if (Q && e->col[k] >= 0) Q[e->col[k]] -= D[k] * f0 + D[6 + k] * f1;
        return -s.Fd * s.ldot;
    }
    case MB_GE_ROTSPRING: {   /* tau = k (theta - theta0) + c thetadot on theta = phi_b - phi_a */
        const mb_real th = angle(cs, q, e->b) - angle(cs, q, e->a);
        const mb_real thd = (e->b >= 0 ? v[QB(cs, e->b) + 2] : MB_R(0.0))
                          - (e->a >= 0 ? v[QB(cs, e->a) + 2] : MB_R(0.0));
        const mb_real tau = e->par[0] * (th - e->par[1]) + e->par[2] * thd;
        if (Q && e->a >= 0) Q[QB(cs, e->a) + 2] += tau;
        if (Q && e->b >= 0) Q[QB(cs, e->b) + 2] -= tau;
        return -e->par[2] * thd * thd;
    }
    case MB_GE_FORCE: {   /* Q_r += f, Q_phi += (Omega R s) . f */
        if (e->a < 0) return MB_R(0.0);
        mb_real f[2] = { tf(d, e->tf[0], t), tf(d, e->tf[1], t) };
        endpoint(cs, q, v, e->a, e->sa, &A);
        if (e->flag) {
            const mb_real *cr = rot(cs, q, e->a), c = cr[0], sn = cr[1], fx = f[0];
            f[0] = c * fx - sn * f[1];
            f[1] = sn * fx + c * f[1];
        }
        if (Q) {
            mb_real *Qa = Q + QB(cs, e->a);
            Qa[0] += f[0];
            Qa[1] += f[1];
            if (!PARTICLE(cs, e->a)) Qa[2] += -A.Rs[1] * f[0] + A.Rs[0] * f[1];
        }
        return f[0] * A.v[0] + f[1] * A.v[1];
    }
    case MB_GE_TORQUE: {
        if (e->a < 0) return MB_R(0.0);
        const mb_real tau = tf(d, e->tf[0], t);
        if (Q) Q[QB(cs, e->a) + 2] += tau;
        return tau * v[QB(cs, e->a) + 2];
    }
    default: return MB_R(0.0);
    }
}

void mb_generic_force(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v,
                      mb_real *out)
{
    const mb_generic_data *d = GDATA(m);
    mb_real csb[NB(m)];
    rc_t rcx = { m, csb }, *cs = &rcx;
    rot_reset(cs);
    for (int i = 0; i < m->nbody; i++) {   /* gravity */
        const int k = QB(cs, i);
        out[k] = m->mass[k] * d->gravity[0];
        out[k + 1] = m->mass[k + 1] * d->gravity[1];
        if (!PARTICLE(cs, i)) out[k + 2] = MB_R(0.0);
    }
    for (int i = 0; i < d->nelem; i++) (void)elem_force(d, &d->elem[i], cs, t, q, v, out);
}

void mb_generic_dforce_dq(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v,
                          mb_real *out)
{
    const mb_generic_data *d = GDATA(m);
    mb_real csb[NB(m)];
    rc_t rcx = { m, csb }, *cs = &rcx;
    if (m->dq_dq_pat.nnz == 0) return;
    rot_reset(cs);
    memset(out, 0, (size_t)m->dq_dq_pat.nnz * sizeof *out);
    for (int i = 0; i < d->nelem; i++) {
        const mb_generic_elem *e = &d->elem[i];
        end_t A, B;
        switch (e->kind) {
        case MB_GE_SPRING: {
            /* Q = -D^T f, f = u F. dQ/dq = -D^T G - (dD^T/dq) f with
             * G = df/dq = (F/l) P D + u [k u^T D + F_ld (ddot^T P D / l + u^T E)],
             * P = I - u u^T, E = d(ddot)/dq = [0, R_a s_a w_a, 0, -R_b s_b w_b],
             * F_ld = dF/dldot = c + 2 c2 |ldot|; the D^T term is -R_a s_a.f at (phi_a, phi_a)
             * and +R_b s_b.f at (phi_b, phi_b). */
            spring_t s;
            mb_real D[12], G[12], blk[36];
            ends(e, cs, q, v, &A, &B);
            spring_state(e, &A, &B, &s);
            spring_D(&A, &B, D);
            const mb_real Fld = e->par[2] + MB_R(2.0) * e->par[3] * MB_FABS(s.ldot);
            const mb_real P00 = MB_R(1.0) - s.u[0] * s.u[0], P01 = -s.u[0] * s.u[1];
            const mb_real P11 = MB_R(1.0) - s.u[1] * s.u[1];
            const mb_real il = s.l > MB_LEN_TINY ? MB_R(1.0) / s.l : MB_R(0.0);
            /* w = P ddot / l (row vector acting on D), ddot^T P D / l = w^T D */
            const mb_real w0 = (P00 * s.dd[0] + P01 * s.dd[1]) * il;
            const mb_real w1 = (P01 * s.dd[0] + P11 * s.dd[1]) * il;
            for (int k = 0; k < 6; k++) {
                const mb_real D0 = D[k], D1 = D[6 + k];
                mb_real uE = MB_R(0.0);
                if (k == 2) uE = (s.u[0] * A.Rs[0] + s.u[1] * A.Rs[1]) * A.w;
                if (k == 5) uE = -(s.u[0] * B.Rs[0] + s.u[1] * B.Rs[1]) * B.w;
                const mb_real sc = e->par[0] * (s.u[0] * D0 + s.u[1] * D1)
                                 + Fld * (w0 * D0 + w1 * D1 + uE);
                G[k] = s.F * il * (P00 * D0 + P01 * D1) + s.u[0] * sc;
                G[6 + k] = s.F * il * (P01 * D0 + P11 * D1) + s.u[1] * sc;
            }
            for (int r = 0; r < 6; r++)
                for (int c = 0; c < 6; c++)
                    blk[6 * r + c] = -(D[r] * G[c] + D[6 + r] * G[6 + c]);
            const mb_real f0 = s.u[0] * s.F, f1 = s.u[1] * s.F;
            blk[14] -= A.Rs[0] * f0 + A.Rs[1] * f1;
            blk[35] += B.Rs[0] * f0 + B.Rs[1] * f1;
            scatter_add(d->slot + e->qslot, blk, 36, out);
            break;
        }
        case MB_GE_ROTSPRING: {
            const mb_real k = e->par[0];
            const mb_real blk[4] = { -k, k, k, -k };   /* rows/cols: phi_a, phi_b */
            scatter_add(d->slot + e->qslot, blk, 4, out);
            break;
        }
        case MB_GE_FORCE: {
            if (e->a < 0) break;
            mb_real f[2] = { tf(d, e->tf[0], t), tf(d, e->tf[1], t) }, blk[9] = { 0 };
            endpoint(cs, q, NULL, e->a, e->sa, &A);
            if (e->flag) {   /* f = R f_body: df/dphi = Omega f */
                const mb_real *cr = rot(cs, q, e->a), c = cr[0], sn = cr[1], fx = f[0];
                f[0] = c * fx - sn * f[1];
                f[1] = sn * fx + c * f[1];
                blk[2] = -f[1];
                blk[5] = f[0];
                /* d/dphi (Omega R s).(R f_b) = -R s.f + (Omega R s).(Omega f) */
                blk[8] = -(A.Rs[0] * f[0] + A.Rs[1] * f[1]) + (A.Rs[1] * f[1] + A.Rs[0] * f[0]);
            } else {
                blk[8] = -(A.Rs[0] * f[0] + A.Rs[1] * f[1]);   /* d/dphi (Omega R s).f */
            }
            scatter_add(d->slot + e->qslot, blk, 9, out);
            break;
        }
        default: break;
        }
    }
}

void mb_generic_dforce_dv(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v,
                          mb_real *out)
{
    const mb_generic_data *d = GDATA(m);
    mb_real csb[NB(m)];
    rc_t rcx = { m, csb }, *cs = &rcx;
    (void)t;
    if (m->dq_dv_pat.nnz == 0) return;   /* no dampers: nothing to evaluate */
    rot_reset(cs);
    memset(out, 0, (size_t)m->dq_dv_pat.nnz * sizeof *out);
    for (int i = 0; i < d->nelem; i++) {
        const mb_generic_elem *e = &d->elem[i];
        if (e->vslot < 0) continue;
        if (e->kind == MB_GE_SPRING) {   /* -F_ld (D^T u)(D^T u)^T */
            if (e->par[2] == MB_R(0.0) && e->par[3] == MB_R(0.0)) continue;
            spring_t s;
            end_t A, B;
            mb_real D[12], g[6], blk[36];
            ends(e, cs, q, v, &A, &B);
            spring_state(e, &A, &B, &s);
            spring_D(&A, &B, D);
            const mb_real Fld = e->par[2] + MB_R(2.0) * e->par[3] * MB_FABS(s.ldot);
            for (int k = 0; k < 6; k++) g[k] = D[k] * s.u[0] + D[6 + k] * s.u[1];
            for (int r = 0; r < 6; r++)
                for (int c = 0; c < 6; c++) blk[6 * r + c] = -Fld * g[r] * g[c];
            scatter_add(d->slot + e->vslot, blk, 36, out);
        } else if (e->kind == MB_GE_ROTSPRING) {
            const mb_real c = e->par[2];
            const mb_real blk[4] = { -c, c, c, -c };
            scatter_add(d->slot + e->vslot, blk, 4, out);
        }
    }
}

void mb_generic_energy(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v,
                       mb_real *out)
{
    const mb_generic_data *d = GDATA(m);
    mb_real csb[NB(m)];
    rc_t rcx = { m, csb }, *cs = &rcx;
    mb_real T = MB_R(0.0), V = MB_R(0.0), P = MB_R(0.0);
    rot_reset(cs);
    for (int k = 0; k < m->nq; k++) T += m->mass[k] * v[k] * v[k];
    for (int i = 0; i < m->nbody; i++) {
        const int k = QB(cs, i);
        V -= m->mass[k] * (d->gravity[0] * q[k] + d->gravity[1] * q[k + 1]);
    }
    for (int i = 0; i < d->nelem; i++) {
        const mb_generic_elem *e = &d->elem[i];
        switch (e->kind) {
        case MB_GE_SPRING: {
            spring_t s;
            end_t A, B;
            ends(e, cs, q, v, &A, &B);
            spring_state(e, &A, &B, &s);
            V += MB_R(0.5) * e->par[0] * (s.l - e->par[1]) * (s.l - e->par[1]);
            P -= s.Fd * s.ldot;
            break;
        }
        case MB_GE_ROTSPRING: {
            const mb_real th = angle(cs, q, e->b) - angle(cs, q, e->a) - e->par[1];
            const mb_real thd = (e->b >= 0 ? v[QB(cs, e->b) + 2] : MB_R(0.0))
                              - (e->a >= 0 ? v[QB(cs, e->a) + 2] : MB_R(0.0));
            V += MB_R(0.5) * e->par[0] * th * th;
            P -= e->par[2] * thd * thd;
            break;
        }
        case MB_GE_FORCE:
        case MB_GE_TORQUE: {
            P += elem_force(d, e, cs, t, q, v, NULL);   /* power only */
            break;
        }
        default: break;
        }
    }
    out[0] = MB_R(0.5) * T;
    out[1] = V;
    out[2] = P;
}

void mb_generic_points(const mb_model *m, mb_real t, const mb_real *q, mb_real *out)
{
    const mb_generic_data *d = GDATA(m);
    mb_real csb[NB(m)];
    rc_t rcx = { m, csb }, *cs = &rcx;
    (void)t;
    rot_reset(cs);
    for (int i = 0; i < m->npoint; i++) {
        const mb_real *s = d->point_s + 2 * i;
        const int b = m->point_body[i];
        if (b < 0) {
            out[2 * i] = s[0];
            out[2 * i + 1] = s[1];
        } else {
            const mb_real *cr = rot(cs, q, b), c = cr[0], sn = cr[1];
            out[2 * i] = q[QB(cs, b)] + c * s[0] - sn * s[1];
            out[2 * i + 1] = q[QB(cs, b) + 1] + sn * s[0] + c * s[1];
        }
    }
}
