/* mb_sim.h - the runtime API: four dynamics formulations, their integrators, assembly, monitors.
 * Layer: runtime core, consumes mb_model.h; no malloc, no printing. All memory is one caller-
 * provided workspace (size-then-assign: mb_sim_workspace_size, then mb_sim_init on that memory). */
#ifndef MB_SIM_H
#define MB_SIM_H

#include <stddef.h>
#include "mb_model.h"
#include "mb_status.h"
#include "mb_config.h"   /* the switches: mb_sim's fields (mb_sim_fields.h) follow them */

/* Formulations (thesis chapter 5). */
enum {
    MB_BAUMGARTE = 0,    /* F1: index-1 Newton-Euler + Baumgarte (5.1-5.5), state [q; v] */
    MB_CANONICAL = 1,    /* F2: canonical equations (5.17, 5.21), state [q; p; Int Phi] */
    MB_ALF_EXPLICIT = 2, /* F3: augmented Lagrangian canonical (5.31-5.37), [q; p; Int Phi] */
    MB_ALF_TRAPEZOID = 3 /* F4: the same, implicit trapezoid + Newton (5.38-5.60) */
};
/* Integrators. F1-F3 take rk4, dopri5 or dop853, F4 trapezoid; bdf (variable-order BDF,
 * mb_bdf.c) is for F1, F2 and F4; hht (fixed-step HHT-alpha on the index-3 equations with
 * Lagrange multipliers, mb_hht.c) takes F1 only. */
enum { MB_RK4 = 0, MB_DOPRI5 = 1, MB_TRAPEZOID = 2, MB_DOP853 = 3, MB_BDF = 4, MB_HHT = 5 };
/* The adaptive (error-controlled) integrators: dopri5, Hairer's DOP853 and the variable-order
 * BDF (mb_bdf.c). */
#define MB_ADAPTIVE(i) ((i) == MB_DOPRI5 || (i) == MB_DOP853 || (i) == MB_BDF)
/* Whether a run with parameters *p controls its step: the adaptive integrators, and F4's
 * trapezoid with p->adaptive set. Such a run lands on the t_stop of every mb_sim_step; in
 * between, mb_sim_dense interpolates the last step (p.dense for dopri5 and dop853). */
#define MB_PARAMS_ADAPTIVE(p) (MB_ADAPTIVE((p)->integrator) || ((p)->integrator == MB_TRAPEZOID && (p)->adaptive))

/* Linear-system back ends (docs/linear-systems.md). Every matrix is assembled into the model's
 * plan storage (mb_model.h: mb_plan); the back end factors it. */
enum {
    MB_LINSYS_SPARSE = 0,   /* the model's symbolic plan and the compact kernels (mb_sparse.c) */
    MB_LINSYS_DENSE = 1     /* dense LAPACKE / builtin LU and Cholesky: the reference */
};
/* The matrices, as a back end sees them. */
enum {
    MB_MAT_S = 0,           /* Phi_q W Phi_q^T (nc x nc), positive semi-definite: rank test */
    MB_MAT_A_SYM = 1,       /* F3's M + alpha Phi_q^T Phi_q (nq x nq), positive definite */
    MB_MAT_A_LU = 2         /* F4's Newton matrix (nq x nq), unsymmetric on a symmetric pattern */
};
/* An external back end (e.g. SuiteSparse KLU in the tools, which may allocate): factor the
 * matrix `which` given in plan storage F on symbolic sy (F may be overwritten), then solve in
 * place with the last factorization of that matrix. factor returns MB_OK, MB_ERR_SINGULAR
 * (rank test as mb_sp_ldl for MB_MAT_S; *bad the original row or -1; on success *bad may name
 * the row of the smallest pivot ratio of S, else -1), MB_ERR_NOT_SPD or
 * MB_ERR_NONFINITE; *ratio a pivot ratio for the monitors. */
typedef struct mb_linsys_ops {
    const char *name;
    int (*factor)(void *ctx, int which, const mb_symbolic *sy, mb_real *F, mb_real rank_tol,
                  mb_real *ratio, int *bad);
    void (*solve)(void *ctx, int which, const mb_symbolic *sy, const mb_real *F, mb_real *b);
    void *ctx;
} mb_linsys_ops;

/* Suspect conditions (docs/formulations.md, "Warnings"): a step succeeded, but its result is
 * doubtful. Bit MB_WARN_BIT(k) of mb_monitor.warn is set by the first step that meets condition
 * k (an mb_params threshold of 0 turns the check off). With mb_params.strict that step returns
 * MB_ERR_SUSPECT instead of succeeding. */
enum {
    MB_WARN_NEWTON = 0,     /* F4, hht: a Newton iteration stopped at max_iter (step kept) */
    MB_WARN_ENERGY = 1,     /* |energy_dev| > warn_energy x the energy scale (mon.escale) */
    MB_WARN_CONSTRAINT = 2, /* |Phi|_2 > warn_phi x the length scale (mon.lscale) */
    MB_WARN_SIGMA = 3,      /* F2-F4: |Phi_q^T sigma|_2 (F2, F3: |p - M v|) > warn_sigma x the momentum
                               scale (mon.pscale): sigma (the impulse of the constraint forces)
                               grows without bound */
    MB_WARN_STABILITY = 4,  /* rk4: h |lambda| > warn_stability x the method's stability limit */
    MB_WARN_ACCURACY = 5,   /* bdf, the step-controlled trapezoid: the accepted steps' local error
                               estimates sum to more than warn_accuracy tolerances (mon.err_sum;
                               bdf: the positions' errors plus the velocities' times
                               the time since; dopri5, dop853, the extrapolated trapezoid: the
                               global error its companion estimates):
                               the step control keeps each step's error below rtol/atol, not the
                               run's, which grows with the number of steps. Only in builds with
                               either (MBI_ACC: firmware keeps its RAM) */
    MB_NWARN = 5 + MBI_ACC
};
/* p.warn_accuracy: each accuracy estimator's own threshold (mb_monitor.c, acc_limit) */
#define MB_WARN_ACCURACY_AUTO (-1)
#define MB_WARN_BIT(k) (1u << (k))

/* Largest max_iter: more iterations per step only make a stalled iteration look like a hang. */
#define MB_MAX_ITER_LIMIT 1000

/* -DMB_WITH_TUNABLES=0 (mb_config.h; define it for the application's sources too: it changes
 * mb_sim, as every MB_WITH_* and MB_ONLY_* switch does): no tunable parameters and no inputs
 * (both live in mb_sim's copy of the descriptor, which this leaves out). */

typedef struct mb_params {
    int formulation;        /* MB_BAUMGARTE ... MB_ALF_TRAPEZOID */
    int integrator;         /* MB_RK4, MB_DOPRI5, MB_DOP853, MB_TRAPEZOID, MB_BDF, MB_HHT */
    mb_real h;              /* step, s (rk4, trapezoid); first trial step for dopri5, dop853
                               and the adaptive trapezoid */
    mb_real rtol, atol;     /* tolerances of the adaptive runs (per component: atol + rtol |y|) */
    mb_real h_min;          /* adaptive runs: a smaller trial step is MB_ERR_STEP_UNDERFLOW (or the
                               failure that shrank it); 0: auto, 16 eps max(|t|, |t_stop|) (stage
                               times no longer resolved) */
    mb_real h_max;          /* adaptive runs: largest step, 0: unlimited (a model with contacts
                               has its own limit too: the gaps' time to close, mb_event.c) */
    mb_real alpha;          /* penalty factor (F3, F4; hht's multiplier iteration, 0: 1e8). In
                               float, 0 (mb_params_default's there) is chosen by mb_sim_reset
                               from the model's scales (F3, F4: mb_sim.c, auto_penalty) */
    mb_real hht_alpha;      /* hht: the HHT damping parameter in [-1/3, 0] (0: trapezoidal
                               Newmark, no damping); default -0.05 */
    mb_real xi, omega;      /* stabilization damping ratio and frequency, 1/s */
    mb_real tol;            /* eps of 5.37 (F3) and 5.60 (F4). In float, 0 (the default there)
                               is chosen by mb_sim_reset from the state's scale (auto_penalty) */
    int max_iter;           /* iteration limit of 5.37 and of the Newton loop */
    mb_real sigma_reset;    /* F3/F4: zero sigma when |sigma| > this, p kept consistent; 0 off */
    mb_real sigma_reset_ratio; /* F2-F4: zero sigma also when |Phi_q^T sigma|_2 > this x the
                               momentum scale (mon.pscale), tested on the monitors' value after
                               each step (mon.sigma_ratio); 0 off (the default in double
                               and for F4), float F2/F3 0.1 */
    int project_velocity;   /* F1: project v onto Phi_q v + Phi_t = 0 after each step */
    mb_real baumgarte_cap;  /* F1: cap |2 xi w Phidot + w^2 Phi| at this times |Gamma|; 0 off */
    mb_real rank_tol;       /* pivot-ratio threshold declaring a KKT / projection matrix singular */
    mb_real asm_tol;        /* assembly: |Phi|_inf tolerance */
    int asm_max_iter;       /* assembly: Newton iteration limit */
    int strict_newton;      /* 1: F4 Newton not converged after max_iter is MB_ERR_NEWTON */
    int full_jacobian;      /* F4: add the second-derivative terms 5.45-5.47 neglect
                               (central differences, 4n extra Jacobian evaluations) */
    long max_steps;         /* accepted steps since reset; one more is MB_ERR_MAX_STEPS (a run
                               whose dopri5 step shrinks without end stops); >= 1, default 1e8 */
    int linsys;             /* MB_LINSYS_SPARSE (default) or MB_LINSYS_DENSE */
    int newton_reuse;       /* F4: 1 (default) keeps the Newton matrix's factorization for the
                               later iterations of a step while each correction shrinks at
                               least 4x (modified Newton; a step that then fails is redone with
                               full Newton), and uses full Newton for 32 steps after a step
                               whose kept matrix contracted slowly; 0 refactors at every
                               iteration (docs/linear-systems.md) */
    const mb_linsys_ops *linsys_ops; /* non-NULL: an external back end, used instead of linsys */
#if MB_WITH_REDUNDANT_ROWS
    const unsigned char *redundant_rows; /* alf-trapezoid with trapezoid: NULL (default) or nc
                               flags, 1 for a constraint equation the others imply along the
                               motion (redundant; the simulator passes its start-up check's,
                               mb_anl_redundant, by mb_sim_set_redundant_rows). Newton leaves
                               them out, as mbgen --redundant remove does, where they would make
                               it stall (docs/formulations.md, "Redundant constraints"); the
                               runtime sets it to NULL when a flagged equation's Phi departs
                               from the others' (a singular position, not a redundancy). The
                               caller keeps the array alive */
#endif
    int dense;              /* dopri5, dop853: keep each step's continuous extension for
                               mb_sim_dense (workspace: 4 (dopri5) or 7 (dop853) more state
                               vectors); 0 (default) for the other integrators */
    int events;             /* 1: contacts' gaps (the sensors named "<contact>.gap") are event
                               functions. Adaptive runs of baumgarte, canonical, alf-explicit
                               (dopri5, dop853, bdf) locate a sign change inside a step on its
                               dense output (Illinois) and cut the step there (dopri5, dop853:
                               the step redone to the root; bdf: restarted at order 1 from its
                               dense state there; mon.events); alf-trapezoid's trapezoid
                               (fixed, Milne's, the extrapolated macro step), hht and rk4
                               locate on the step's cubic Hermite and take it again to the
                               root; bdf on alf-trapezoid restarts at the root as bdf does
                               (docs/formulations.md, "Events"). The model's switches
                               (step{}: mb_model.switches): every integrator ends its step just
                               before one and jumps it (mon.events). Needs a build with
                               MB_WITH_EVENTS; the workspace grows by 5 (nout + nswitch) + nq
                               reals and nout + nswitch ints (and dopri5's and dop853's dense
                               output with gaps). 0 (default): none; models without gaps and
                               switches are unaffected either way (docs/formulations.md,
                               "Events") */
    /* Warning thresholds (MB_WARN_*; 0 turns a check off; defaults in mb_params_default) */
    mb_real warn_energy;    /* fraction of the energy scale, default 1e-2 */
    mb_real warn_phi;       /* fraction of the length scale, default 1e-3 */
    mb_real warn_sigma;     /* multiple of the momentum scale, default 5e5 (float 1e3) */
    mb_real warn_stability; /* multiple of the stability limit, default 2 */
#if MBI_ACC
    mb_real warn_accuracy;  /* bdf, the step-controlled trapezoid: the sum of the local error
                               estimates, in tolerances; dopri5, dop853, the extrapolated
                               trapezoid (adaptive 2): the companion's estimate of the global
                               error (mb_rk.c, mb_trapezoid_control.c), in tolerances. > 0: that
                               threshold for every estimator; 0: none (and no companion);
                               default MB_WARN_ACCURACY_AUTO: each estimator's own, set from
                               its misses and false alarms (mb_monitor.c; docs/validation.md,
                               section 10): the companions 10, bdf's signed estimate 15
                               (on F4 30), the sums (adaptive 1) 150 (mon.err_lim) */
#endif
    mb_real length_scale;   /* m, for warn_phi; 0 (default): from the model at reset (mon.lscale) */
    int strict;             /* 1: a step that raises a warning returns MB_ERR_SUSPECT */
    int adaptive;           /* F4 (trapezoid): 1 controls the step by rtol/atol (local error from
                               the difference of the Adams-Bashforth 2 prediction and the
                               converged step, docs/formulations.md); a step whose Newton
                               iteration fails is retried smaller. 2: the extrapolated
                               trapezoid, order 4 (a step H is 2 steps of H/2 and 4 of H/4,
                               combined; error control on their difference; best with a soft
                               stabilization, xi = omega = 1: docs/formulations.md, "Long
                               runs"). 0 (default): fixed step h */
} mb_params;

/* Energy, constraint and iteration monitors, updated after every accepted step. */
typedef struct mb_monitor {
    mb_real T, V;            /* kinetic and potential energy, J */
    mb_real E0;              /* T + V after reset, J */
    mb_real W;               /* work of non-conservative loads and drivers since reset, J */
#if MB_FLOAT
    mb_real W_lo;            /* the compensation of W's running sum (Kahan's: what the additions
                                rounded off; float only, double's layout as before) */
    mb_real W_floor;         /* F4: what W's quadrature of steep loads at float's velocity
                                resolution can add up to, J (mb_monitor.c, wq_floor) */
    mb_real drift;           /* the positions' drift the energy error implies, m: the integral
                                over the run of energy_dev / (|M v|_2 + pscale / 10) dt (the
                                speed error of an energy error; float only: mb_monitor.c) */
    mb_real mv2;             /* |M v|_2^2 at the last step (for the drift) */
#endif
    mb_real energy_dev;      /* Delta U = T + V - E0 - W (6.19), J */
    mb_real phi_norm;        /* |Phi|_2 */
    mb_real phid_norm;       /* |Phi_q v + Phi_t|_2 */
    mb_real sigma_norm;      /* |sigma|_2 (F2: sigma of 5.17, F3/F4: sigma~); 0 for F1 */
    mb_real max_energy_dev, max_phi, max_phid, max_sigma; /* maxima of the absolute values */
    long steps, rejected;    /* accepted and (adaptive runs) rejected steps */
    long evals;              /* right-hand side evaluations (explicit) */
    long newton_iters;       /* F4 Newton iterations (linear solves) */
    long alf_iters;          /* F3 sigma iterations (also F4's start-up evaluation) */
    long maxiter_events;     /* iterations that stopped at max_iter */
    long sigma_resets;       /* sigma resets performed */
    mb_real min_pivot_ratio; /* smallest pivot ratio d_k / d0_k of S = Phi_q W Phi_q^T seen
                                (rank indicator; 0 before the first factorization) */
    int singular_row;        /* after MB_ERR_SINGULAR of S: the constraint equation whose pivot
                                vanished (index into constraint_names), else -1 */
    long factorizations, solves; /* linear-system factorizations and solves */
    long newton_roundoff;    /* F4 steps accepted with Newton stalled at round-off above tol */
    long events;             /* p.events: steps cut at a located sign change of a gap, and
                                switches jumped */
    long onsets;             /* p.events: contact onsets (a gap's sign change to <= 0) inside
                                a step that no location cut (the shipped integrators locate:
                                mon.events), and switches a step crossed unforeseen */
    long sigma_holds;        /* F4 fixed steps taken with sigma~ held after a diverging iteration
                                (near a singular position; mb_f4_trapezoid.c, trap_attempt) */
    /* Scales of the warnings (docs/formulations.md, "Warnings") */
    mb_real V0;              /* V after reset, J */
    mb_real escale;          /* energy scale: max over the run of T + |V - V0| + |W|, J */
    mb_real lscale;          /* length scale, m: p.length_scale, else the largest of the bodies'
                                sizes sqrt(12 J / m) (a bar's length) and the diagonal of the box
                                around their centres of mass at reset */
    mb_real pscale;          /* momentum scale: max over the run of |M v|_2 */
    mb_real sigma_ratio;     /* F2-F4: |Phi_q^T sigma|_2 / pscale after the last step */
    mb_real stiffness;       /* explicit: h |lambda| / stability limit of the last step: the
                                larger of the stabilization's fastest rate w (xi + sqrt(xi^2 - 1))
                                and (rk4 with warn_stability > 0) the rate seen between the first
                                two stages, |k2 - k1| / (c2 h |k1|), when that was beyond the
                                limit at this step and another of the last three */
#if MBI_ACC
    mb_real err_sum;         /* bdf and the step-controlled trapezoid (adaptive 1): the
                                largest coordinate, in tolerances atol + rtol max(|q_i|,
                                lscale) as the companions', of the positions' error the local
                                errors add up to, with their signs (the velocities' times the
                                time since; mb_bdf.c, acc_step; mb_trapezoid_control.c,
                                trap_acc: it can fall); dopri5, dop853, the extrapolated trapezoid
                                (adaptive 2): the largest global error of the positions so far, in
                                tolerances (atol + rtol max(|q_i|, lscale)), by the
                                companion at 2h */
    mb_real err_max;         /* the largest err_sum of the run's accepted steps (what the
                                accuracy warning compares; bdf's signed estimate can fall) */
    mb_real err_lim;         /* the threshold err_sum is compared with: p.warn_accuracy, or
                                with MB_WARN_ACCURACY_AUTO the estimator's own; 0: none */
    mb_real err_vel;         /* bdf and the step-controlled trapezoid: the RMS of the
                                velocity error so far (its part tangent to the constraints;
                                signed sums), in position tolerances per second (the vectors in
                                the workspace: bacc, tacc) */
#endif
    unsigned warn;           /* MB_WARN_BIT(k): condition k met at least once */
    mb_real warn_t[MB_NWARN];   /* time of the first step that met condition k */
    mb_real warn_val[MB_NWARN]; /* its value there: maxiter_events, |energy_dev| / escale,
                                   |Phi| / lscale, sigma_ratio, stiffness, err_sum */
} mb_monitor;

/* The simulation object, opaque: applications hold an mb_sim * and read the state through the
 * accessors below (mb_sim_get_*); its members are the runtime's (mb_sim_impl.h). */
typedef struct mb_sim mb_sim;

/* Memory for one mb_sim, of its size and alignment under the build's switches (mb_config.h), for
 * an application that keeps it without malloc: e.g. `static mb_sim_storage sim_mem;` and then
 * mb_sim_init(mb_sim_of(&sim_mem), ...). Its member is private: the runtime's member list
 * (mb_sim_fields.h, the one the runtime's struct mb_sim has), there only to give the size. */
typedef struct mb_sim_storage {
    struct mbi_sim_members {
#include "mb_sim_fields.h"
    } mbi_private;
} mb_sim_storage;
/* The simulation object in storage st (no code: a conversion). */
static inline mb_sim *mb_sim_of(mb_sim_storage *st)
{
    return (mb_sim *)(void *)st;
}

/* The build as the caller's compiler sees this header: the precision, index width and [ABI]
 * switches of mb_config.h in MB_BUILD_CONFIG (there), the sizes they give mb_sim (mb_sim_storage) and mb_params
 * in MB_BUILD_SIZES. The five calls that take a caller's mb_params or mb_sim before one is set
 * up (the four below and mb_embed_start) are macros that pass both to the runtime, which
 * compares them with its own:
 * an application compiled with another MB_FLOAT, other MB_ONLY_* / MB_WITH_* switches or
 * another MB_INDEX8 / MB_INDEX16 (the width of the model's index arrays, which the runtime
 * reads) than the runtime (a float program on the double libmbrt.a, say) gets MB_ERR_BUILD, and nothing of
 * its structures is read or written, where the two layouts would otherwise overwrite memory. */
#define MB_BUILD_SIZES ((unsigned long)sizeof(mb_sim_storage) << 12 | (unsigned long)sizeof(mb_params))

/* Defaults for formulation f: the thesis' double pendulum parameters (F1 xi=10 w=10; F2 xi=10
 * w=1; F3 alpha=1e7 xi=1 w=10; F4 alpha=1e8 xi=1e4 w=1), h=1e-3, tol=1e-10, max_iter=10,
 * max_steps=1e8, integrator rk4 for F1-F3 and trapezoid for F4; in float alpha (F3, F4) and tol
 * 0, chosen by mb_sim_reset from the model's scales (mb_sim.c, auto_penalty). Does not
 * allocate. In a caller built differently from the runtime (MB_BUILD_CONFIG) it writes nothing;
 * mb_sim_init then returns MB_ERR_BUILD. */
#define mb_params_default(p, formulation) \
    mb_params_default_checked((p), (formulation), MB_BUILD_CONFIG, MB_BUILD_SIZES)
void mb_params_default_checked(mb_params *p, int formulation, unsigned long config,
                               unsigned long sizes);

/* A model file's run settings for formulation f (pr: mb_model.preset, NULL: none; alpha, xi,
 * omega, tol and max_iter, those given; in float not alpha and tol) over p; the step and end
 * time are the caller's to take.
 * For the tools and applications that start from a model's settings: the runtime itself never
 * reads them. */
static inline void mb_params_preset(mb_params *p, const mb_preset *pr, int f)
{
    const mb_preset_form *pf;
    if (!pr || f < 0 || f > 3) return;
    pf = &pr->form[f];
#if !MB_FLOAT   /* float: alpha and tol are the runtime's choice (0: mb_sim.c, auto_penalty);
                 * the file's values are double's, its float = { ... } the firmware's macros */
    if (pf->alpha > 0) p->alpha = (mb_real)pf->alpha;
    if (pf->tol > 0) p->tol = (mb_real)pf->tol;
#endif
    if (pf->xi >= 0) p->xi = (mb_real)pf->xi;
    if (pf->omega >= 0) p->omega = (mb_real)pf->omega;
    if (pf->max_iter > 0) p->max_iter = pf->max_iter;
}

/* Check p for model m: MB_OK or MB_ERR_PARAM (non-finite or non-positive step/tolerances,
 * max_iter outside 1..MB_MAX_ITER_LIMIT, max_steps < 1, unsupported formulation/integrator
 * pair), MB_ERR_BUILD (above). *what (may be NULL) names the offending field. */
#define mb_params_check(p, what) mb_params_check_checked((p), (what), MB_BUILD_CONFIG, MB_BUILD_SIZES)
int mb_params_check_checked(const mb_params *p, const char **what, unsigned long config,
                            unsigned long sizes);

/* Bytes of workspace mb_sim_init needs for m and p (0 if p or m is invalid, or the build
 * differs: MB_BUILD_CONFIG). */
#define mb_sim_workspace_size(m, p) mb_sim_workspace_size_checked((m), (p), MB_BUILD_CONFIG, MB_BUILD_SIZES)
size_t mb_sim_workspace_size_checked(const mb_model *m, const mb_params *p, unsigned long config,
                                     unsigned long sizes);

/* Lay the simulation out on work[size] (aligned for mb_real). Returns MB_OK, MB_ERR_PARAM,
 * MB_ERR_MODEL, MB_ERR_WORKSPACE or MB_ERR_BUILD (above). Keeps pointers to m and work;
 * nothing to free. */
#define mb_sim_init(s, m, p, work, size) \
    mb_sim_init_checked((s), (m), (p), (work), (size), MB_BUILD_CONFIG, MB_BUILD_SIZES)
int mb_sim_init_checked(mb_sim *s, const mb_model *m, const mb_params *p, void *work, size_t size,
                        unsigned long config, unsigned long sizes);

/* Set the state at time t0 from q[nq], v[nq] (NULL: the model's q0 / v0). With assemble != 0,
 * first solve Phi(t0, q) = 0 by Newton (locked coordinates held, minimum-norm steps) and then
 * Phi_q v = -Phi_t with the v_given components held (minimum-norm change of the rest).
 * Initializes p, Int Phi, sigma and the energy reference E0. Returns MB_OK, MB_ERR_ASSEMBLY_POS,
 * MB_ERR_ASSEMBLY_VEL, or a linear-algebra failure of the first evaluation. */
int mb_sim_reset(mb_sim *s, mb_real t0, const mb_real *q, const mb_real *v, int assemble);

/* Standalone assembly on the sim's workspace (used by reset): q[nq], v[nq] in/out.
 * *iters receives the Newton iterations. Returns MB_OK, MB_ERR_ASSEMBLY_POS/_VEL. */
int mb_sim_assemble(mb_sim *s, mb_real t0, mb_real *q, mb_real *v, int *iters);

/* Take one step: h (fixed-step integrators) or the adaptive step (dopri5, dop853, bdf, the
 * adaptive trapezoid; retried until accepted), never past t_stop (the step is shortened to land on it
 * exactly). Returns MB_OK, a positive event (the step was taken) or a failure (state left at
 * the last good step; a step undone after its error test accepted it, near a singular position
 * or with non-finite energies (dopri5, dop853, bdf on F1 and F2, the fixed steps), also leaves
 * mb_sim_get_h and the events' state, mon.events, at the step this call started from). */
int mb_sim_step(mb_sim *s, mb_real t_stop);

/* Dense output (p.dense, dopri5 and dop853; bdf and the adaptive trapezoid always): the state at
 * a time t inside the last accepted step (t_prev <= t <= t_now) from the integrator's continuous
 * extension (dopri5: 4th order, Hairer's DOPRI5 interpolant; dop853: 7th order, DOP853's dense
 * output, which costs 3 more right-hand sides once per step that is interpolated; bdf: its
 * Nordsieck polynomial; the adaptive trapezoid: the cubic Hermite interpolant of q through the
 * step's ends, v its derivative). q[nq] receives the positions; v[nq] (may be NULL)
 * the velocities and mo (may be NULL) the monitors at t (T, V, W, energy_dev, phi_norm,
 * phid_norm, sigma_norm; the rest as after the step): both need one right-hand side at the
 * interpolated state (counted in evals). The trajectory does not depend on these calls.
 * Interpolates the integrator's step: a velocity projection or sigma reset after it shows at
 * t_now only. Returns MB_OK, MB_ERR_STATE (no dense output kept: p.dense off, no step yet, or
 * the last step failed), MB_ERR_PARAM (t outside the step), or a failure of the evaluation. */
int mb_sim_dense(mb_sim *s, mb_real t, mb_real *q, mb_real *v, mb_monitor *mo);

/* The run ends here (optional; after the last step and its dense output): dopri5's, dop853's
 * and the extrapolated trapezoid's (p.adaptive 2) accuracy companion (p.warn_accuracy;
 * mon.err_sum) compares the one or two steps it still has
 * pending, which it otherwise compares at the start of the next step, and the `accuracy`
 * warning is tested again (a run that goes wrong in its last steps warns). Costs up to one
 * companion step (counted in evals); the last step's dense output is lost; the run may go on
 * with mb_sim_step, but a single pending step is compared by a companion step of its own
 * length, which adds nothing to the estimate: called after every step it leaves the companion
 * no pairs (the A01 pendulum, canonical dopri5 at rtol 1e-4 over 200 s: mon.err_sum 2.8e-9,
 * 330 called at the end only), so call it where the run ends. Returns MB_OK, MB_ERR_SUSPECT (p.strict and it raised a warning) or
 * MB_ERR_STATE (no reset yet). The other integrators: nothing to do, MB_OK. */
int mb_sim_finish(mb_sim *s);

/* Tunable parameters (mb_model.npar; docs/model-language.md). They start at the model's
 * defaults at mb_sim_init. mb_sim_set_param sets tunable i (mb_sim_param_index: by name, -1 if
 * unknown) and re-validates every rule of the model (mb_model.par_rules: masses and inertias
 * > 0, spring constants >= 0, every number that depends on tunables finite, and every such
 * number 0 or normal: at least MB_REAL_MIN in magnitude, so that its reciprocal stays finite):
 * MB_OK, or MB_ERR_PARAM with the old value kept and *rule (may be NULL) the broken rule
 * (m->par_rules[*rule] names it), -1 for a bad index or a non-finite or subnormal value. A successful set needs a new mb_sim_reset before the next step
 * (the mass matrix, momenta and the energy reference may change). mb_sim_model: the descriptor
 * the sim evaluates, with these values (for tools calling model functions themselves). */
int mb_sim_param_index(const mb_sim *s, const char *name);
int mb_sim_set_param(mb_sim *s, int i, mb_real value, int *rule);
mb_real mb_sim_get_param(const mb_sim *s, int i);
const mb_model *mb_sim_model(const mb_sim *s);

/* Inputs and sensors (mb_model.nin, nout; docs/model-interface.md, "Inputs and sensors";
 * runtime/mb_input.c). An input starts at its default at mb_sim_init and may be set before
 * mb_sim_reset or between steps, with no reset: mb_sim_set_input holds value from the current
 * time on (zero-order hold), mb_sim_set_input_slope sets value + slope (t - t_now) (first-order
 * hold: slope = (u(t_now + h) - u(t_now)) / h reproduces u linear over the step). Both return
 * MB_OK or MB_ERR_PARAM (bad index, non-finite value). mb_sim_input_index: by name, -1 if
 * unknown; mb_sim_get_input: the value the model sees at the current time. mb_sim_get_output:
 * the sensors y[nout] at the current state and, when dy_dq and dy_dv are both non-NULL, their
 * Jacobians [nout x nq] row-major (a sensor of a reaction: its partial derivatives at fixed
 * multipliers, as mb_model.outputs; mb_anl_outputs gives dy/dlambda too); MB_ERR_PARAM without
 * sensors, MB_ERR_STATE before a reset. A sensor that reads a reaction (mb_model.doutputs_dlam)
 * takes the multipliers of the exact index-1 equations at the current state (t, q, v), solved
 * in the sim's own workspace block (no formulation keeps multipliers valid at every state):
 * the same solve, in the same order, as mb_anl_reactions and the simulator's reaction columns,
 * so the values equal theirs bit for bit; it leaves the integrator's blocks, the monitors and
 * the trajectory untouched. Its failures: MB_ERR_MODEL (no gamma: a firmware built with
 * MB_OMIT_GAMMA; or a build with MB_WITH_TUNABLES=0, which keeps no block for the solve),
 * MB_ERR_SINGULAR (Phi_q rank-deficient: the multipliers are not unique), MB_ERR_NONFINITE; y
 * is then untouched. */
int mb_sim_input_index(const mb_sim *s, const char *name);
int mb_sim_set_input(mb_sim *s, int i, mb_real value);
int mb_sim_set_input_slope(mb_sim *s, int i, mb_real value, mb_real slope);
mb_real mb_sim_get_input(const mb_sim *s, int i);
int mb_sim_get_output(const mb_sim *s, mb_real *y, mb_real *dy_dq, mb_real *dy_dv);

/* The sensors that are event functions, the contacts' gaps (names ending in ".gap"): their
 * count, and their indices into idx [nout] when idx is given (the FMU's event indicators). */
int mb_event_sensors(const mb_model *m, int *idx);

/* Accessors: time, positions q[nq], velocities v[nq], momenta p[nq] (NULL for F1), sigma[nc]
 * (F2-F4; NULL for F1), monitors. Pointers stay valid until the next step/reset. */
mb_real mb_sim_get_t(const mb_sim *s);
const mb_real *mb_sim_get_q(const mb_sim *s);
const mb_real *mb_sim_get_v(const mb_sim *s);
const mb_real *mb_sim_get_p(const mb_sim *s);
const mb_real *mb_sim_get_sigma(const mb_sim *s);
const mb_monitor *mb_sim_get_monitor(const mb_sim *s);

/* The constraint equations the others imply (redundant; rows: nc flags, NULL: none) for
 * alf-trapezoid's Newton iteration, after mb_sim_reset: mb_params.redundant_rows. The simulator
 * passes its start-up check's (mb_anl_redundant at the assembled configuration). Returns MB_OK,
 * or MB_ERR_PARAM for flags in a build without them (-DMB_WITH_REDUNDANT_ROWS=0: the lean
 * firmware; generate such a model with mbgen --redundant remove instead). */
int mb_sim_set_redundant_rows(mb_sim *s, const unsigned char *rows);
/* The step the next mb_sim_step tries: the adaptive trial step of an adaptive run
 * (MB_PARAMS_ADAPTIVE; it changes with every accepted or rejected step), p.h for fixed steps. */
mb_real mb_sim_get_h(const mb_sim *s);
/* The parameters in use: mb_sim_init's copy, with what mb_sim_reset chose (in float, alpha and
 * tol when they were 0: mb_params_default) */
const mb_params *mb_sim_get_params(const mb_sim *s);

/* Names for the command line: "baumgarte", "canonical", "alf-explicit", "alf-trapezoid";
 * "rk4", "dopri5", "trapezoid", "dop853", "bdf", "hht". The parse functions return -1 for an unknown name. */
const char *mb_formulation_name(int f);
const char *mb_integrator_name(int i);
int mb_formulation_parse(const char *s);
int mb_integrator_parse(const char *s);

#endif /* MB_SIM_H */
