/* mb_analysis.h - the analyses beside dynamics (ADAMS seed, section 9): joint reactions at any
 * state, static equilibrium with its stability, quasi-static sequences, kinematic and
 * inverse-dynamic analysis of a fully driven mechanism, the linearization about an equilibrium
 * that modal analysis needs, displaced configurations put back onto the constraints (mode-shape
 * frames), and the frequency response of the linearization.
 * Layer: runtime API, consumes mb_model.h; freestanding: no malloc, no stdio, no globals. All
 * memory is one caller-provided workspace (mb_anl_workspace_size, then mb_anl_init), separate
 * from any mb_sim, so reactions can be computed at the output times of a running simulation
 * without touching its state. See docs/analyses.md.
 *
 * Sign convention as in the dynamics (docs/formulations.md): M a + Phi_q^T lambda = Q; the
 * constraint force on the system is -Phi_q^T lambda. Static equilibrium: Q = Phi_q^T lambda. */
#ifndef MB_ANALYSIS_H
#define MB_ANALYSIS_H

#include <stddef.h>
#include "mb_model.h"
#include "mb_status.h"

/* Workspace levels: the sparse part (reactions, kinematic, inverse: a few vectors and the
 * plan storage of S = Phi_q W Phi_q^T) or everything (static and modal add dense n x n and
 * n x nc matrices: the null-space basis of Phi_q and the reduced stiffness). */
enum { MB_ANL_SPARSE = 0, MB_ANL_DENSE = 1 };

typedef struct mb_anl_params {
    mb_real rank_tol;     /* rank test of S and of the QR of Phi_q: sin^2 of the angle between
                             a constraint row and the span of the others (M^-1 metric); default
                             as mb_params: 1e-8 (float 1e-4) */
    mb_real pos_tol;      /* |Phi|_inf of a position solution (default 100 eps, as assembly) */
    int pos_max_iter;     /* Newton iterations of one position solution (default 50) */
    mb_real static_tol;   /* static: converged when the load not carried by the joints,
                             |Z^T Q| in the mass metric, is below static_tol |M^-1/2 Q| (default
                             1e3 eps; float 1e4 eps) */
    int static_max_iter;  /* static: iteration limit (default 500); reached: no equilibrium */
    mb_real step_angle;   /* static: largest change of an angle per iteration, rad (0.5) */
    int rank_qr_only;     /* mb_anl_redundant: 0 (default) proves independent equations on
                             the plan of S first, the dense QR only when that fails; 1 always
                             the dense QR (the reference the proof is tested against) */
} mb_anl_params;

/* What the static analysis found. */
typedef struct mb_anl_static_info {
    int iters;            /* iterations (Newton or descent steps taken) */
    int rejected;         /* trial steps rejected by the line search */
    int escapes;          /* steps away from an unstable equilibrium along negative curvature */
    int dof;              /* n - rank(Phi_q): degrees of freedom at the equilibrium */
    int rank;             /* rank of Phi_q (< nc: redundant constraints) */
    mb_real residual;     /* |Z^T Q| / |M^-1/2 Q| at the end (0 when there is no load) */
    mb_real eig_min, eig_max; /* extreme eigenvalues of the reduced stiffness in the mass
                             metric (Z^T M Z = I): squared undamped angular frequencies, 1/s^2 */
    int stability;        /* 1 stable (eig_min > 0), 0 neutral (eig_min ~ 0), -1 unstable */
    int why;              /* on failure: MB_ANL_WHY_* */
} mb_anl_static_info;
enum {
    MB_ANL_WHY_NONE = 0,
    MB_ANL_WHY_MAXITER = 1,   /* no equilibrium within static_max_iter: the loads keep doing work */
    MB_ANL_WHY_STALLED = 2,   /* the line search found no step that lowers the energy */
    MB_ANL_WHY_PROJECT = 3,   /* the constraints could not be satisfied (position Newton) */
    MB_ANL_WHY_DOF = 4,       /* kinematic: degrees of freedom remain (info->dof) */
    MB_ANL_WHY_RANK = 5,      /* kinematic/reactions: Phi_q rank-deficient (singular_row) */
    MB_ANL_WHY_GAMMA = 6      /* the model has no gamma (built with MB_OMIT_GAMMA) */
};

/* The analysis object; arrays point into the caller's workspace. */
typedef struct mb_anl {
    const mb_model *m;
    mb_anl_params p;
    int n, nc, nnz, level;
    mb_real lscale;           /* length scale of the model (largest point distance from its
                                 body's CoM at q0), for the static step limit */
    int singular_row;         /* after a rank failure of S: the constraint row, else -1 */
    int rank, dof;            /* after mb_anl_linearize / static: rank of Phi_q and n - rank */
    long factorizations;
    /* sparse level */
    mb_real *Pq, *Pqd, *Pq0, *Phi, *Phit, *Gam, *Q, *dQq, *dQv;
    mb_real *minv, *isqm;     /* 1 / m_i and 1 / sqrt(m_i) */
    mb_real *FS, *d0, *ly;    /* S in plan storage; LDL^T scratch */
    mb_real *wn[10], *wm[5];  /* n- and nc-vectors (scratch) */
    /* dense level (NULL at MB_ANL_SPARSE) */
    mb_real *J;               /* n x nc: M^-1/2 Phi_q^T, then its pivoted QR */
    mb_real *tau;             /* nc: Householder factors */
    int *jpv;                 /* nc: QR column (constraint) order */
    mb_real *N;               /* n x n: first dof columns: orthonormal basis of null(Phi_q M^-1/2) */
    mb_real *Kr, *Cr, *Ks, *Ev, *Kch; /* dof x dof (leading dim dof): reduced stiffness, damping,
                                 symmetric part, its eigenvectors, Cholesky scratch */
    mb_real *ev;              /* n: eigenvalues of Ks, ascending */
    mb_real *pts;             /* 2 npoint: the model's points (the length scale) */
    int linearized;           /* mb_anl_linearize has filled Z, Kr, Cr */
    mb_real *F2;              /* 2n x 2n (then 2n: its right-hand side): the frequency response's real form of the complex
                                 reduced system, LU-factored */
    int *piv2;                /* 2n: its pivots */
    mb_real *qs_prev;         /* n: quasistatic: the equilibrium before the last one */
    mb_real qs_t[2];          /* quasistatic: the times of the last two equilibria */
    int qs_count;             /* quasistatic: equilibria found since mb_anl_quasistatic_start */
    mb_real residual;         /* after mb_anl_linearize: |Z^T Q| / |M^-1/2 Q|, the load the
                                 joints do not carry (0 at an equilibrium, or without load) */
    mb_real *Pqv;             /* nnz: phi_q_dot at the state's v (mb_anl_linearize_ss) */
    mb_real *Qu;              /* n x nin row-major: dQ/du (mb_anl_linearize_ss) */
} mb_anl;

void mb_anl_params_default(mb_anl_params *p);

/* Bytes of workspace for m at `level` (0 if m is unusable: sizes, patterns, plan, masses). */
size_t mb_anl_workspace_size(const mb_model *m, int level);

/* Lay the analysis out on work[size] (aligned for mb_real); p NULL: defaults. MB_OK,
 * MB_ERR_PARAM, MB_ERR_MODEL or MB_ERR_WORKSPACE. */
int mb_anl_init(mb_anl *a, const mb_model *m, const mb_anl_params *p, int level, void *work,
                size_t size);

/* Multipliers and accelerations of the exact index-1 equations at the state (t, q, v):
 * M acc + Phi_q^T lambda = Q, Phi_q acc = Gamma (no stabilization terms). The reactions of a
 * dynamic run at an output time, whatever the formulation; acc or lambda may be NULL. MB_OK, or
 * MB_ERR_SINGULAR (Phi_q rank-deficient: a singular position or a redundant joint; the
 * multipliers are then not unique; singular_row names the row), MB_ERR_MODEL (no gamma),
 * MB_ERR_NONFINITE. */
int mb_anl_reactions(mb_anl *a, mb_real t, const mb_real *q, const mb_real *v, mb_real *acc,
                     mb_real *lambda);

/* The sensors at (t, q, v) with the multipliers of mb_anl_reactions (interface 13: a sensor may
 * read a reaction, mb_model.lam): lambda [nc] receives them (required when the model's sensors
 * read reactions, else may be NULL and is not computed); y [nout]; dy_dq, dy_dv [nout x nq]
 * when both non-NULL; dy_dlam [nout x nc] when non-NULL (zeros for a model whose sensors read
 * no reaction). All row-major, as mb_model.outputs. MB_ERR_PARAM (no sensors, or lambda NULL
 * where needed), or mb_anl_reactions' status (y then untouched). */
int mb_anl_outputs(mb_anl *a, mb_real t, const mb_real *q, const mb_real *v, mb_real *lambda,
                   mb_real *y, mb_real *dy_dq, mb_real *dy_dv, mb_real *dy_dlam);

/* Inverse dynamics at a given motion (t, q, v, acc): the multipliers of
 * M acc - Q + Phi_q^T lambda = 0, solved in the least-squares sense in the M^-1 metric
 * (exact when the motion is consistent, as a kinematic analysis gives it). */
int mb_anl_inverse(mb_anl *a, mb_real t, const mb_real *q, const mb_real *v, const mb_real *acc,
                   mb_real *lambda);

/* Kinematic analysis at time t of a mechanism with zero degrees of freedom left by its drivers:
 * q[n] in: a guess (the model's q0, or the previous output extrapolated), out: Phi(t, q) = 0 by
 * Newton; v from Phi_q v = -Phi_t; acc from Phi_q acc = Gamma. MB_OK; MB_ERR_PARAM with
 * *why = MB_ANL_WHY_DOF when nc < n (*dof = n - nc degrees of freedom remain); MB_ERR_SINGULAR
 * (why RANK: redundant or singular, singular_row); MB_ERR_ASSEMBLY_POS (why PROJECT). */
int mb_anl_kinematic(mb_anl *a, mb_real t, mb_real *q, mb_real *v, mb_real *acc, int *dof,
                     int *why);

/* Static equilibrium at time t (loads and drivers frozen at t): Q(t, q, 0) = Phi_q^T lambda,
 * Phi(t, q) = 0, from the guess q[n] (in/out; the model's q0 for the shipped guesses) by a
 * damped Newton method on the constraint manifold with a line search on the work of the loads,
 * saddle-free steps where the reduced stiffness is indefinite, and a step away from an unstable
 * equilibrium along its most negative curvature, so that it ends in a stable equilibrium when it
 * can reach one. lambda[nc] receives the multipliers (the reactions); info the iterations,
 * residual and stability. Needs level MB_ANL_DENSE. MB_OK (info->stability tells stable,
 * neutral or unstable), MB_ERR_NEWTON (no equilibrium: info->why), MB_ERR_ASSEMBLY_POS. */
int mb_anl_static(mb_anl *a, mb_real t, mb_real *q, mb_real *lambda, mb_anl_static_info *info);

/* Linearization at (t, q) with multipliers lambda (an equilibrium): the pivoted QR of
 * M^-1/2 Phi_q^T gives rank r and an orthonormal basis N of the rest; Z = M^-1/2 N (n x d,
 * d = n - r, Z^T M Z = I) spans the motions the constraints allow. Kr = Z^T K Z with
 * K = -dQ/dq + (Phi_q^T lambda)_q (exact: (Phi_q)_q z comes from phi_q_dot with v = z),
 * Cr = -Z^T dQ/dv Z (at v = 0), both d x d column-major with leading dimension d, and the
 * eigenvalues of (Kr + Kr^T) / 2 (ascending, into a->ev; eigenvectors in a->Ev) by Jacobi
 * rotations. *dof receives d. lambda NULL: the least-squares multipliers of Phi_q^T lambda = Q
 * (mass metric) are used, and left in a->wm[0] (nc) until the next call; a->residual tells the
 * fraction of the load they do not carry (0 at an equilibrium). Needs level MB_ANL_DENSE. */
int mb_anl_linearize(mb_anl *a, mb_real t, const mb_real *q, const mb_real *lambda, int *dof);

/* The state-space linearization at any state (t, q, v) and the model's inputs (the holds in
 * m->in): in minimal coordinates z (d = n - nc of the coordinates q, the others dependent through
 * Phi(t, q) = 0), the state x = [z; z'] and the inputs u,
 *     x' = A x + B u   (A: 2d x 2d, B: 2d x nin, row-major),
 * the exact derivative of the motion the index-1 equations M a + Phi_q^T lambda = Q,
 * Phi_q a = Gamma give, with q(z) and v(z, z') on the manifold (Phi = 0, Phi_q v + Phi_t = 0):
 * A's lower rows are d(a_z)/dz through dq = T dz, dv = V dz (V from the curvature:
 * Phi_q dv = -Phidot_q dq) and d(a_z)/dz' through dv = T dz'; B's are d(a_z)/du with
 * dQ/du from the model (dforce_du). Every term is exact (the model's derivatives, (Phi_q)_q from
 * phi_q_dot being linear in v) except dGamma/dq, which no model function gives: central
 * differences of gamma, Richardson-extrapolated (0 exactly where Gamma does not depend on q, as
 * at rest without time-dependent constraints). At an equilibrium at rest (v = 0, a = 0) A is the
 * modal analysis' [0 I; -Mr^-1 Kr, -Mr^-1 Cr] in these coordinates.
 * The coordinates: nz = 0 (zsel NULL): chosen here, a greedy elimination on the columns of Phi_q
 * in a fixed preference (translations x, y before angles, later bodies first), a coordinate
 * becoming dependent when its column of Phi_q has at least 0.1 of its squared norm outside the
 * span of the dependent ones before; what that leaves by the largest such fraction. nz = d with
 * zsel[d]: those coordinates are z (MB_ERR_PARAM when the rest's Phi_q block is singular).
 * Results (the caller's arrays, sized for d <= n): zidx[n] (z's coordinates, then the dependent
 * ones), *d, A[4 n^2], B[2 n nin], dq_dx, dv_dx [n x 2d] row-major (q and v of the linearized
 * state: dq = dq_dx dx, dv = dv_dx dx, for the sensors' C), acc[n], lambda[nc] at the state;
 * dlambda (NULL: not computed) [nc x (2d + nin)] row-major: the multipliers' derivatives by x
 * and u, for the C and D of sensors that read reactions (mb_model.doutputs_dlam).
 * Needs MB_ANL_DENSE. MB_OK, MB_ERR_SINGULAR (Phi_q rank-deficient: a->singular_row), MB_ERR_PARAM
 * (zsel), MB_ERR_MODEL (inputs without dforce_du, no gamma), MB_ERR_NONFINITE. */
typedef struct mb_anl_ss {
    int *zidx;
    int d;
    mb_real *A, *B, *dq_dx, *dv_dx, *acc, *lambda;
    mb_real *dlambda;   /* optional (NULL): [nc x (2d + nin)] */
} mb_anl_ss;
int mb_anl_linearize_ss(mb_anl *a, mb_real t, const mb_real *q, const mb_real *v, int nz,
                        const int *zsel, mb_anl_ss *out);

/* Directional derivatives of the index-1 accelerations at any state, in all coordinates (not
 * on the constraint manifold only): the Jacobian-vector products of x' = [v; acc(t, q, v, u)] a
 * Model Exchange FMU gives (fmi2GetDirectionalDerivative). At (t, q, v) and the inputs held in
 * m->in, along the direction dq, dv [n], du [nin] (each NULL: zero): dacc [n] and dlambda [nc]
 * (NULL: not returned), with acc [n] and lambda [nc] at the state (as mb_anl_reactions). The
 * terms of mb_anl_linearize_ss's columns: exact but dgamma/dq, Richardson-extrapolated central
 * differences of m->gamma. gv: the coefficient of a velocity term -gv Phi_q v in m->gamma beyond
 * Gamma's: 0 for the exact index-1 equations, 2 xi omega for a descriptor whose gamma is
 * Baumgarte's Gamma - 2 xi omega (Phi_q v + Phi_t) - omega^2 Phi (its position terms come with
 * the differences). Needs MB_ANL_DENSE. MB_OK, mb_anl_reactions' status, MB_ERR_PARAM (acc,
 * lambda or dacc NULL), MB_ERR_MODEL (no gamma, inputs without dforce_du), MB_ERR_NONFINITE. */
int mb_anl_dacc(mb_anl *a, mb_real t, const mb_real *q, const mb_real *v, const mb_real *dq,
                const mb_real *dv, const mb_real *du, mb_real gv, mb_real *acc, mb_real *lambda,
                mb_real *dacc, mb_real *dlambda);

/* Quasistatic analysis: a sequence of static equilibria along time-varying loads and drivers,
 * each found by mb_anl_static at its time from a predicted guess. Start a sequence with
 * mb_anl_quasistatic_start; then each call takes q[n] = the equilibrium of the previous call
 * (the first: the model's guesses) and returns the one at t: the guess is q extrapolated
 * linearly through the last two equilibria (secant predictor, so the sequence follows a branch
 * as the loads change), then projected and iterated as mb_anl_static does. Arguments and
 * results as mb_anl_static. Needs level MB_ANL_DENSE. */
void mb_anl_quasistatic_start(mb_anl *a);
int mb_anl_quasistatic(mb_anl *a, mb_real t, mb_real *q, mb_real *lambda,
                       mb_anl_static_info *info);

/* A configuration displaced from q0[n] by dq[n] (e.g. a scaled mode shape), put back onto
 * Phi(t, q) = 0 by the minimum-norm Gauss-Newton projection in the mass metric: q[n] (may be
 * q0 with dq zero: the assembled state of q0). MB_OK or MB_ERR_ASSEMBLY_POS. */
int mb_anl_displace(mb_anl *a, mb_real t, const mb_real *q0, const mb_real *dq, mb_real *q);

/* Frequency response after mb_anl_linearize: the steady-state complex amplitude x = x_re + i x_im
 * (n coordinates) of the linearized motion under the harmonic generalized force f cos(omega t)
 * (f[n] in the coordinates' units: N on x, y; N m on phi), i.e. x = Z (Kr - omega^2 I +
 * i omega Cr)^-1 Z^T f, solved as the real 2d x 2d system. MB_OK, MB_ERR_SINGULAR (omega at an
 * undamped natural frequency: no steady state), MB_ERR_STATE (not linearized), MB_ERR_NONFINITE. */
int mb_anl_frf(mb_anl *a, mb_real omega, const mb_real *f, mb_real *x_re, mb_real *x_im);

/* Redundant constraint equations at (t, q) (an assembled configuration: a closed loop's
 * redundancy exists only there): the pivoted QR of Phi_q^T (unweighted, as mbgen --check: the
 * same equations named; rank test rank_tol, of equal equations the one declared first is kept).
 * Independent equations are first proved so on the plan of S (a sparse LDL^T, see
 * docs/analyses.md), at either level; the dense QR runs only when that proof fails.
 * dep[nc] receives 1 for each dependent row. Returns their number (nc - rank, a->rank set),
 * or MB_ERR_WORKSPACE (level MB_ANL_SPARSE and the equations not proved independent: the QR
 * needs MB_ANL_DENSE), MB_ERR_NONFINITE. mb_anl_redundant_support then gives, for a dependent row, the independent
 * rows it is a combination of: uses[nc] (1 = used). MB_OK or MB_ERR_PARAM (not dependent). */
int mb_anl_redundant(mb_anl *a, mb_real t, const mb_real *q, unsigned char *dep);
int mb_anl_redundant_support(mb_anl *a, int row, unsigned char *uses);

/* The i-th column (i < dof) of Z = M^-1/2 N after mb_anl_linearize or mb_anl_static: z[n]. */
void mb_anl_mode_vector(const mb_anl *a, int i, mb_real *z);

#endif /* MB_ANALYSIS_H */
