/* mb_model.h - the model interface: the one seam between a mechanism and the runtime.
 * Layer: implemented by generated code (one const mb_model per model) and by the
 * generic evaluator; consumed by the formulations, integrators and tools.
 *
 * Conventions (see docs/model-interface.md):
 *  - q holds the absolute coordinates of each moving body in order: 3 for a rigid body,
 *    [x, y, phi] with the body frame at the CoM, 2 for a particle (a point mass), [x, y].
 *    body_q locates them (NULL: every body is rigid, nq = 3 * nbody; use mb_body_q and
 *    mb_body_nq below). v is the velocity qdot. t is time in seconds. SI units.
 *  - Sparse matrices are given as a const pattern (row, col, both 0-based, sorted by row
 *    then column, structural non-zeros only) plus a values array of length nnz that a
 *    function fills in the same order.
 *  - Every function only writes its output array; none allocates, prints or keeps state.
 *    `m` is the descriptor itself: generated code reads only the tunables' values m->par
 *    through it (a model without tunables ignores it), the generic evaluator reads m->data.
 *    Outputs never alias inputs.
 */
#ifndef MB_MODEL_H
#define MB_MODEL_H

#include "mb_config.h"
#include "mb_version.h"   /* MB_MODEL_INTERFACE: the version of this interface */
#include "mb_trig.h"      /* the generated fused evaluations' sine cache */

typedef struct mb_model mb_model;

/* A fixed sparsity pattern: entry k sits at (row[k], col[k]). mb_index: mb_config.h. */
typedef struct mb_pattern {
    int nnz;
    const mb_index *row;
    const mb_index *col;
} mb_pattern;

/* The symbolic factorization of one n x n matrix of symmetric pattern (computed once: by the
 * generator for generated models, at initialization for the generic evaluator). Pivot k is the
 * original row/column perm[k] (pinv is the inverse); L is unit lower triangular in compressed
 * columns of the permuted matrix, column k holding rows li[lp[k] .. lp[k+1]-1] (sorted, > k).
 * A matrix on this pattern is stored in one array F = [D (n) | L (nl) | U (nl)]: the diagonal,
 * the strict lower triangle at n + p, and (unsymmetric values only) the strict upper triangle
 * transposed onto L's pattern at n + nl + p. upd drives the right-looking elimination: for each
 * column k and each pair p <= q of its entries, upd names the storage index of entry
 * (li[q], li[p]) (a diagonal index when p == q, else n + its position in L). See
 * docs/linear-systems.md and runtime/mb_sparse.c. */
typedef struct mb_symbolic {
    int n, nl, nupd;
    const mb_index *perm, *pinv;  /* [n] */
    const mb_index *lp;           /* [n + 1] */
    const mb_index *li;           /* [nl] */
    const mb_index *upd;          /* [nupd] */
    /* The unrolled form (mbgen --linalg unrolled; NULL in the compact form): straight-line code
     * for this plan, the same arithmetic as the compact kernels of runtime/mb_sparse.c. ldl and
     * lu return -1 or the permuted index of the pivot that failed; y is n scratch values. Both
     * leave in D the pivots' reciprocals, but the failing pivot's d_k (interface 27: ldl; with
     * MB_LDL_RECIPROCAL, mb_config.h, else ldl's d_k). ldl's rank test is d_k > tol d0_k for
     * 0 <= tol <= 1 (which implies d0_k > 0), and it sets *qmax to the largest of 1 and
     * d0_k (1 / d_k) over the pivots that passed (interface 28). */
    int (*ldl)(mb_real *F, mb_real *d0, mb_real tol, mb_real *qmax);
    void (*ldl_solve)(const mb_real *F, mb_real *b, mb_real *y);
    int (*lu)(mb_real *F);
    void (*lu_solve)(const mb_real *F, mb_real *b, mb_real *y);
} mb_symbolic;

/* The unrolled kernels of F4's Newton iteration (mb_plan.f4; NULL in the compact form and
 * without MB_WITH_F4_KERNELS: the runtime's loops in runtime/mb_f4_trapezoid.c, with the same arithmetic in the same order, so
 * both give the same numbers). Pq, Pqd: Phi_q, Phidot_q; dQq, dQv: dQ/dq, dQ/dv values; mass:
 * the diagonal of M (an argument: tunables may change it); no argument aliases another.
 *  - matrix: the Newton matrix into its plan storage F (every entry written), unsymmetric:
 *    M + the pairs E[k] D[l] of a_* (and their transposes) - h^2/4 dQ/dq - h/2 dQ/dv with
 *    E = a (Pq - h/2 Pqd), D = c1 Pq + h/2 Pqd; D is stored (nnz values) for dg2.
 *  - constraint: c = Phi_q v + Phi_t + k1 Phi + k2 Isig (nc), then sig += a c if sig != NULL.
 *  - residual: sv = sig + a c, g1 = g (M v - p + Phi_q^T sv), g2 = g (pd - Q - Phidot_q^T sv).
 *  - dg2: out = g dQ/dq dq + dQ/dv dq + Phidot_q^T (a D dq) (nq).
 *  - newton_rhs: the trapezoid's Newton iteration after the constraint up to the solve
 *    (runtime/mb_trapezoid.c): with s = sig + a c, g2 (as residual's) and the solve's right-hand
 *    side b = -g1 - g g2 (s, g1 not stored); p in z = [q; p; I].
 *  - factor: matrix and the plan's LU (mb_symbolic.lu) in one: F = [D | L | U] and D, the same
 *    values but for the sign of a zero entry; returns -1, or the pivot k (permuted) that is
 *    exactly zero (F then partly written). */
/* The unrolled products with Phi_q (mb_plan.pq; runtime/mb_vec.h: pq_mv, pq_mtv, phiq_mv),
 * one pointer in the plan (interface 26). mv, mtv: the same arithmetic in the same order as the
 * loops over phi_q_pat, out = Phi_q x (nc values) and out += a Phi_q^T y (nq values), for any
 * values Pq on its pattern (Phi_q, Phidot_q, F4's D). For Phi_q's own values, its entries that
 * are the constant +-1 in the model taken as such (the same bits without their loads and
 * products): phiq_mv, the same as mv; phiq_x, the KKT solve's x = w (b - Phi_q^T y) (nq
 * values: b copied, mtv with a = -1, the product with w; runtime/mb_kkt.c). NULL where Phi_q
 * has none and where MB_WITH_PHIQ_PRODUCTS is 0 (runtime/mb_config.h). s_factor: S = Phi_q W
 * Phi_q^T assembled and factored in one (interface 28; NULL where MB_WITH_S_FACTOR is 0),
 * mb_plan.s_assemble(F, Pq, w) then s.ldl(F, d0, tol, qmax) on locals: the same F, d0, *qmax
 * and result, but F written only up to a pivot that fails; Pq: Phi_q's values, as s_assemble's.
 * kkt_bv (interface 28; NULL where MB_WITH_S_FACTOR is 0): the baumgarte KKT solve's right-hand
 * side y = Phi_q (mi b + cv v) - (ga - (c1 pt + c2 ph)) (nc values) in one pass, the same bits as
 * x = mi b + cv v, phiq_mv (mv) and the subtraction (runtime/mb_kkt.c); Pq: Phi_q's values.
 * kkt_bi: the canonical KKT solve's y = Phi_q (mi b) - (-pt - c1 ph - c2 I) the same way
 * (mbi_kkt_solve_f2). */
typedef struct mb_pq_products {
    void (*mv)(const mb_real *Pq, const mb_real *x, mb_real *out);
    void (*mtv)(const mb_real *Pq, const mb_real *y, mb_real a, mb_real *out);
    void (*phiq_mv)(const mb_real *Pq, const mb_real *x, mb_real *out);
    void (*phiq_x)(const mb_real *Pq, const mb_real *y, const mb_real *b, const mb_real *w,
                   mb_real *x);
    int (*s_factor)(mb_real *F, mb_real *d0, mb_real tol, mb_real *qmax, const mb_real *Pq,
                    const mb_real *w);
    void (*kkt_bv)(const mb_real *Pq, const mb_real *mi, const mb_real *b, const mb_real *v,
                   mb_real cv, const mb_real *ga, const mb_real *pt, const mb_real *ph, mb_real c1,
                   mb_real c2, mb_real *y);
    void (*kkt_bi)(const mb_real *Pq, const mb_real *mi, const mb_real *b, const mb_real *pt,
                   const mb_real *ph, const mb_real *Ip, mb_real c1, mb_real c2, mb_real *y);
} mb_pq_products;

typedef struct mb_f4_kernels {
    void (*matrix)(mb_real *F, mb_real *D, const mb_real *mass, const mb_real *Pq,
                   const mb_real *Pqd, const mb_real *dQq, const mb_real *dQv, mb_real a,
                   mb_real c1, mb_real h);
    void (*constraint)(mb_real *c, mb_real *sig, const mb_real *Pq, const mb_real *v,
                       const mb_real *Phit, const mb_real *Phi, const mb_real *Isig, mb_real k1,
                       mb_real k2, mb_real a);
    void (*residual)(mb_real *sv, mb_real *g1, mb_real *g2, const mb_real *sig, const mb_real *c,
                     const mb_real *mass, const mb_real *v, const mb_real *p, const mb_real *pd,
                     const mb_real *Q, const mb_real *Pq, const mb_real *Pqd, mb_real a, mb_real g);
    void (*dg2)(mb_real *out, const mb_real *dq, const mb_real *dQq, const mb_real *dQv,
                const mb_real *D, const mb_real *Pqd, mb_real a, mb_real g);
    void (*newton_rhs)(mb_real *b, mb_real *g2, const mb_real *sig, const mb_real *c,
                       const mb_real *z, const mb_real *v, const mb_real *pd, const mb_real *mass,
                       const mb_real *Pq, const mb_real *Pqd, const mb_real *Q, mb_real a,
                       mb_real g);
    int (*factor)(mb_real *F, mb_real *D, const mb_real *mass, const mb_real *Pq,
                  const mb_real *Pqd, const mb_real *dQq, const mb_real *dQv, mb_real a,
                  mb_real c1, mb_real h);
} mb_f4_kernels;

/* The unrolled kernels of alf-explicit (mb_plan.f3; NULL in the compact form and without
 * MB_WITH_F3_KERNEL), the arithmetic of runtime/mb_f3_alf.c's loops and of the kernels they
 * call, in the same order (so both give the same numbers); no argument aliases another:
 *  - matrix: M + (a Phi_q)^T Phi_q into A's plan storage F (every entry written).
 *  - iter: one pass of the sigma iteration, sb = a b + sig, v = A^-1 (p - Phi_q^T sb) with A's
 *    LDL^T factors F, sig += a (Phi_q v + b); returns |v - vold|^2 and leaves v in vold (nq).
 *  - factor: matrix and the plan's LDL^T (mb_symbolic.ldl at tol 0) in one: F = [D | L], the
 *    same values; returns -1, or the pivot k (permuted) where A is not positive definite to
 *    working precision (!(d_k > 0)) or d_k is not finite, with d_k stored at F[k] (at the
 *    pivots before it MB_LDL_D: 1 / d_k with MB_LDL_RECIPROCAL, interface 27). */
typedef struct mb_f3_kernels {
    void (*matrix)(mb_real *F, const mb_real *mass, const mb_real *Pq, mb_real a);
    mb_real (*iter)(const mb_real *F, const mb_real *Pq, const mb_real *p, const mb_real *b,
                    mb_real *sig, mb_real *vold, mb_real a);
    int (*factor)(mb_real *F, const mb_real *mass, const mb_real *Pq, mb_real a);
} mb_f3_kernels;

/* The plan of every matrix the formulations factor, and where each product term lands:
 *  - s: S = Phi_q W Phi_q^T (nc x nc, W diagonal: M^-1 for the F1/F2 Schur complement, a 0/1
 *    mask for assembly, I for F1's projection). Term t adds W[c] Pq[s_k[t]] Pq[s_l[t]] at
 *    F[s_dst[t]], c the common column of entries s_k[t], s_l[t] of Phi_q.
 *  - a: A = M + Phi_q^T (.) Phi_q - dQ/dq (.) - dQ/dv (.) (nq x nq: F3's M + alpha Phi_q^T Phi_q,
 *    F4's Newton matrix). Term t pairs entries a_k[t], a_l[t] of one row of Phi_q, oriented so
 *    that (col a_k, col a_l) lies in the lower triangle (or on the diagonal) of the permuted
 *    matrix at F[a_dst[t]]; its transpose (col a_l, col a_k) is at F[a_dst[t] + a.nl] when
 *    a_dst[t] >= n. dqq_dst[k], dqv_dst[k]: storage index of entry k of dQ/dq, dQ/dv. */
typedef struct mb_plan {
    mb_symbolic s;
    int ns;
    const mb_index *s_k, *s_l, *s_dst;  /* [ns] */
    mb_symbolic a;
    int na;
    const mb_index *a_k, *a_l, *a_dst;  /* [na] */
    const mb_index *dqq_dst, *dqv_dst;  /* [dq_dq_pat.nnz], [dq_dv_pat.nnz] */
    /* The unrolled form's assembly (NULL in the compact form): the same terms in the same order
     * as the loops over s_* and a_*: F += w[c] Pq[k] Pq[l]; F += E[k] D[l] (and, with unsym, the
     * transposed term nl further). s_assemble writes every entry of S's storage (an entry's
     * first term stored, the fill set to 0: the caller zeroes nothing); a_assemble adds.
     * s_assemble's Pq must be Phi_q's values: a term of two entries that are the constant +-1
     * in the model's Phi_q is written +-w[c] (the same bits). */
    void (*s_assemble)(mb_real *F, const mb_real *Pq, const mb_real *w);
    void (*a_assemble)(mb_real *F, const mb_real *E, const mb_real *D, int unsym);
    /* The unrolled products with Phi_q (mb_pq_products above; NULL in the compact form). */
    const mb_pq_products *pq;
    /* F4's Newton iteration, unrolled (mb_f4_kernels above; NULL in the compact form and where
     * MB_WITH_F4_KERNELS is 0, runtime/mb_config.h). */
    const mb_f4_kernels *f4;
    /* alf-explicit's matrix and sigma iteration, unrolled (mb_f3_kernels above; NULL in the
     * compact form and where MB_WITH_F3_KERNEL is 0, runtime/mb_config.h). */
    const mb_f3_kernels *f3;
} mb_plan;

/* A model's recommended run settings: the simulate { ... } block of its model file
 * (docs/model-language.md, "Run settings"). The tools take them as their defaults (command-line
 * options override them); the runtime never reads them. In double; a value not given is 0
 * (t_end, h, max_iter) or -1 (alpha, xi, omega, tol): mb_params_default's then. */
typedef struct mb_preset_form {
    double alpha, xi, omega, tol;
    int max_iter;
} mb_preset_form;
typedef struct mb_preset {
    double t_end, h;            /* end time and step, s */
    mb_preset_form form[4];     /* per formulation: MB_BAUMGARTE .. MB_ALF_TRAPEZOID (mb_sim.h) */
} mb_preset;

/* The info part of a model: what the tools print, name in diagnostics and draw. The numerics
 * (formulations, integrators, analyses) never read it; tools copy it into the drawing info file
 * next to a CSV (tools/mb_info.h), so that one animation tool serves every model. */
typedef struct mb_model_info {
    const char *const *coord_names;      /* [nq]  "<body>.x", "<body>.y", "<body>.phi" (no
                                            phi for a particle) */
    const char *const *body_names;       /* [nbody] */
    const char *const *point_names;      /* [npoint] "<body>.<point>" or "ground.<point>" */
    const char *const *constraint_names; /* [nc]  "<element>.<eq>", e.g. "B.x", "slide.perp"
                                            (NULL: the tools print equation numbers) */
    int nspring;                         /* point-to-point springs */
    const int *spring_points;            /* [2 * nspring] point indices of each spring's ends */
    int njoint;                          /* revolute joints */
    const int *joint_points;             /* [2 * njoint] point indices of each joint's ends */
    int nrod;                            /* rods */
    const int *rod_ends;                 /* [2 * nrod] each end a point index (point_names) or
                                            -1 - b for particle b (it has no named point) */
    /* Slots, gears and racks, for drawing (docs/model-language.md, "Slots, gears and racks"). */
    int nslot;                           /* pin-in-slot joints */
    const int *slot_ends;                /* [2 * nslot] P (a point on b1 or the ground: the
                                            slot's line passes through it) and the pin Q (a
                                            point index, or -1 - b for particle b) */
    const double *slot_axis;             /* [2 * nslot] the slot's unit axis in P's body's axes */
    int ngear;                           /* gear pairs */
    const int *gear_centres;             /* [2 * ngear] each joint's point on the carrier */
    const double *gear_radii;            /* [2 * ngear] pitch radii r1, r2 (0, 0: not defined:
                                            coaxial joints, or internal with ratio 1) */
    int nrack;                           /* racks and pinions */
    const int *rack_points;              /* [2 * nrack] the pinion's centre (its joint's point on
                                            the frame) and the prismatic joint's point on the
                                            rack */
    const double *rack_geom;             /* [3 * nrack] the signed pitch radius r and the unit
                                            axis (ux, uy) in the frame's axes: the pitch line
                                            passes through centre - r Omega u along u */
    /* Contacts, for drawing (docs/model-language.md, "Contact with friction"). */
    int ncontact;                        /* contact elements */
    const int *contact_points;           /* [2 * ncontact] the centre C of the first body's
                                            circle (a point index, or -1 - b for particle b)
                                            and the point P of the second body's line or circle */
    const double *contact_geom;          /* [4 * ncontact] radius r around C; kind 0 a line,
                                            1 a circle, 2 inside a circle, 3 a segment, 4 a
                                            cam profile (interface 16); a line's unit
                                            direction (ux, uy) in P's body's axes, a circle's
                                            radius R and 0, the segment's vector (dx, dy)
                                            from P in P's body's axes, or a profile's entry
                                            in the cam arrays below and 0 */
    /* Cams, for drawing (docs/model-language.md, "Cams"; interface 12), and the profiles of
     * contacts against one (kind 4 above, after the cams; roller 0). */
    int ncam;                            /* cams and contact profiles */
    const int *cam_points;               /* [2 * ncam] the cam's centre O (a point on the cam
                                            body or the ground) and the follower (a point index,
                                            or -1 - b for particle b) */
    const double *cam_roller;            /* [ncam] the roller's radius, 0 for a point follower */
    const double *cam_profile;           /* [2 * MB_CAM_VERTICES * ncam] each profile as a closed
                                            polyline: vertices (x, y) in O's body's axes,
                                            relative to O */
    /* Units (interface 17; docs/model-language.md, "Units"): the model file's unit of each
     * input, sensor and tunable, "" where it declares none; NULL where none of that kind has
     * one. The generator admits only unit expressions (letters, digits, . * / ^ - and
     * parentheses, at most 32 characters), so the text needs no escaping in C, XML or CSV. */
    const char *const *in_units;         /* [nin] */
    const char *const *out_units;        /* [nout] a contact's sensors: m, N, N, m/s */
    const char *const *par_units;        /* [npar] */
} mb_model_info;

#define MB_CAM_VERTICES 64   /* vertices of a cam's drawn profile (mb_model_info.cam_profile) */

/* f(t, q) -> out */
typedef void (*mb_fn_q)(const mb_model *m, mb_real t, const mb_real *q, mb_real *out);
/* f(t, q, v) -> out */
typedef void (*mb_fn_qv)(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v,
                         mb_real *out);

struct mb_model {
    const char *name;        /* model name, also the C prefix of generated code */
    int nq;                  /* number of coordinates (3 per body, 2 per particle) */
    int nc;                  /* number of constraint equations m (joints + drivers) */
    int nbody;               /* moving bodies and particles (the ground is not one) */
    int npoint;              /* named points, ground points included */

    const int *point_body;   /* [npoint] body index of each named point, -1 for ground points
                                (the structure of `points`) */
    const mb_model_info *info; /* names, springs, rods, joints (above): tools only */

    /* Constant data. */
    const mb_real *mass;     /* [nq] diagonal of M: m, m, J per body (J about the CoM), m, m
                                per particle */
    const mb_real *q0;       /* [nq] initial position guesses from the model file */
    const mb_real *v0;       /* [nq] initial velocities given in the model file (0 if not) */
    const unsigned char *locked;  /* [nq] 1: held at q0 during position assembly */
    const unsigned char *v_given; /* [nq] 1: v0 component prescribed in velocity assembly */

    /* Tunable parameters: the model file's tunable("k", default) (docs/model-language.md),
     * read by the model functions as m->par[i]; none: npar 0 and NULL pointers. Patterns never
     * depend on their values. */
    int npar;
    const char *const *par_names;        /* [npar] */
    const mb_real *par;                  /* [npar] the values the functions read: the defaults
                                            in a generated descriptor; mb_sim's copy of the
                                            descriptor points at its own block (mb_sim_model) */
    void (*par_mass)(const mb_model *m, mb_real *mass); /* non-NULL when M depends on par:
                                            writes its diagonal [nq] for m->par (mass above
                                            holds it at the defaults) */
    int nrule;                           /* rules a value of the tunables must satisfy */
    int (*par_check)(const mb_real *par); /* -1, or the first rule par breaks */
    const char *const *par_rules;        /* [nrule] their text, e.g. "body \"b\" mass > 0" */

    /* Sparsity patterns. phi_q_dot uses the pattern of phi_q. */
    mb_pattern phi_q_pat;    /* nc x nq */
    mb_pattern dq_dq_pat;    /* nq x nq, dQ/dq */
    mb_pattern dq_dv_pat;    /* nq x nq, dQ/dv */

    /* Kinematics. */
    mb_fn_q  phi;            /* Phi(t, q)                         [nc] */
    mb_fn_q  phi_q;          /* Phi_q values                      [phi_q_pat.nnz] */
    mb_fn_q  phi_t;          /* dPhi/dt at fixed q (drivers)      [nc] */
    mb_fn_qv phi_q_dot;      /* d(Phi_q)/dt = (Phi_q)_q v + Phi_qt [phi_q_pat.nnz] */
    mb_fn_qv gamma;          /* Gamma = -(Phi_q v)_q v - 2 Phi_qt v - Phi_tt  [nc]
                                so that Phi_q a = Gamma on the manifold; baumgarte
                                only (NULL in a firmware built with MB_OMIT_GAMMA) */
    /* Dynamics. */
    mb_fn_qv force;          /* generalized forces Q (gravity, springs, dampers,
                                point forces, torques)            [nq] */
    mb_fn_qv dforce_dq;      /* dQ/dq values                      [dq_dq_pat.nnz] */
    mb_fn_qv dforce_dv;      /* dQ/dv values                      [dq_dv_pat.nnz] */
    mb_fn_qv energy;         /* [3]: kinetic T, potential V (springs + gravity),
                                power of non-conservative loads P_nc = Q_nc^T v */
    mb_fn_q  points;         /* global positions of named points  [2 * npoint] (x, y);
                                tools only (NULL with MB_OMIT_POINTS) */

    const mb_plan *plan;     /* symbolic factorizations and assembly maps (required) */

    /* Optional fused evaluations (NULL: the runtime calls the single functions above): each
     * computes several outputs at once, sharing the work (sines and cosines) between them.
     * trig: NULL, or the caller's sine cache of MB_TRIG_ENTRY (6) nq reals, an entry [x0,
     * sin x0, cos x0, x, sin x, cos x] per coordinate (x0 and x NaN: empty; x0 the multiple of
     * 1/64 rad nearest the last q[i], x that q[i]): the sine and cosine of an angle q[i] are the
     * kept pair when q[i] is the last angle, else its grid point's kept values and a short
     * series (runtime/mb_trig.h: within 1.2e-16, not always libm's bits, the same whatever the
     * cache held before), the grid entry refilled from libm when q[i] reaches another grid
     * point. The single functions never use it. */
    void (*eval_kin)(const mb_model *m, mb_real t, const mb_real *q, mb_real *phi,
                     mb_real *phi_t, mb_real *phi_q, mb_real *trig);
    /* eval_kin's outputs and the dynamics of F4's Newton iteration, at one (t, q, v) */
    void (*eval_kin_dyn)(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v,
                         mb_real *phi, mb_real *phi_t, mb_real *phi_q, mb_real *force,
                         mb_real *phi_q_dot, mb_real *dq_dq, mb_real *dq_dv, mb_real *trig);
    const void *data;        /* private data of the generic evaluator; NULL otherwise */
    const mb_preset *preset; /* run settings of the model file, NULL if none; tools only (NULL
                                with MB_OMIT_POINTS) */
    /* [nbody + 1] index in q of each body's first coordinate, nq last: body i has
       body_q[i + 1] - body_q[i] coordinates, 3 (x, y, phi) or 2 for a particle (x, y). NULL:
       every body has 3 (models without particles, the generic evaluator). */
    const int *body_q;

    /* Inputs (interface 8; docs/model-interface.md, "Inputs and sensors"): the model file's
     * input "u" { default = .. }, values the caller sets between steps. The functions read
     * input i at time t as in[3i] + in[3i+1] (t - in[3i+2]): the value, its slope (0: zero-order
     * hold) and the time it was set (runtime/mb_input.c: mb_sim_set_input). None: 0 and NULL. */
    int nin;
    const char *const *in_names;         /* [nin] */
    const mb_real *in;                   /* [3 nin] the holds: {default, 0, 0} in a generated
                                            descriptor; mb_sim's copy points at its own block */
    /* Sensors: the model file's sensor "y" { value = .. }: y [nout] at (t, q, v) and, when
     * dy_dq and dy_dv are both non-NULL, their Jacobians [nout x nq] row-major. None: 0 and
     * NULL. */
    int nout;
    const char *const *out_names;        /* [nout] */
    void (*outputs)(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v, mb_real *y,
                    mb_real *dy_dq, mb_real *dy_dv);
    /* The inputs' exact derivatives (interface 9; the linearization's B and D): dQ/du
     * [nq x nin] and dy/du [nout x nin], dense row-major, at (t, q, v) and the holds in m->in.
     * NULL without inputs (doutputs_du also without sensors). */
    mb_fn_qv dforce_du;
    mb_fn_qv doutputs_du;
    /* Sensors that read reactions (interface 13; docs/model-interface.md, "Reactions in
     * sensors"): outputs and doutputs_dlam then read the multipliers lambda [nc] from m->lam (in
     * the sign of Phi_q^T lambda: M a + Phi_q^T lambda = Q), so y = h(t, q, v, lambda). lam
     * points at nc zeros in a generated descriptor: a caller copies the descriptor and points
     * the copy's lam at the multipliers it solved for (mb_anl_reactions). doutputs_dlam: dy/dlambda
     * [nout x nc] dense row-major. Both NULL when no sensor reads a reaction. */
    const mb_real *lam;
    mb_fn_qv doutputs_dlam;
    /* Switches (interface 14; docs/model-interface.md, "Switches"): the times where a load or a
     * driver jumps (the model file's step{} and heaviside()). switches(m, t, q, g) writes
     * g [nswitch], > 0 before switch k and <= 0 from it on; of time only (tunables and inputs
     * included: q is not read), so the runtime finds a switch's time by evaluating g at trial
     * times (runtime/mb_event.c). None: 0 and NULL. */
    int nswitch;
    mb_fn_q switches;
    /* Optional fused evaluation (interface 15): Gamma [nc] and Q [nq] at (t, q, v), the sines
     * and cosines through the cache trig as eval_kin's (baumgarte's right-hand side calls it
     * after eval_kin at the same (t, q), whose cache entries it then finds). NULL: the runtime
     * calls gamma and force. */
    void (*eval_gamma_force)(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v,
                             mb_real *gamma, mb_real *force, mb_real *trig);
    /* Optional (interface 18): the power of the non-conservative loads P_nc [1] alone, energy's
     * third value by the same arithmetic, without T and V (the adaptive Runge-Kutta
     * integrators' per-stage power; runtime/mb_config.h MB_WITH_STAGE_POWER). NULL: the runtime
     * calls energy. */
    mb_fn_qv power;
    /* Optional fused evaluation (interface 20): Q [nq] and d(Phi_q)/dt [phi_q_pat.nnz] at
     * (t, q, v), the sines and cosines through the cache trig as eval_kin's (canonical's and
     * alf-explicit's right-hand sides call it after eval_kin at the same (t, q), with the
     * velocity their solve found). NULL: the runtime calls force and phi_q_dot. */
    void (*eval_force_phi_q_dot)(const mb_model *m, mb_real t, const mb_real *q,
                                 const mb_real *v, mb_real *force, mb_real *phi_q_dot,
                                 mb_real *trig);
    /* Interface 29: 1 when every entry of Phi_t is symbolically 0 (mbgen): no constraint
     * moves continuously in time (no driver whose f varies with t, no input in a constraint;
     * a driver held at a number or a tunable, or one of step{} alone, moves only where it is
     * set or switches, and counts): phi_t writes exact zeros at every (t, q), tunables and
     * inputs, and the drivers' power lambda^T Phi_t and work by parts are 0, which the runtime
     * then does not compute. 0: Phi_t may be nonzero (a descriptor that leaves it out, the generic
     * evaluator). Last in the struct: a positional initializer lists it after the above. */
    int scleronomic;
};

/* Where body i's coordinates start in q, and how many it has (3, or 2 for a particle). */
static inline int mb_body_q(const mb_model *m, int i)
{
    return m->body_q ? m->body_q[i] : 3 * i;
}
static inline int mb_body_nq(const mb_model *m, int i)
{
    return m->body_q ? m->body_q[i + 1] - m->body_q[i] : 3;
}

#endif /* MB_MODEL_H */
