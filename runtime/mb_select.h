/* mb_select.h - what a build of the runtime compiles: the switches MB_WITH_<X> and MB_ONLY_<F>
 * and what follows from them (MBI_*: which formulations, integrators and options exist). mb_sim
 * leaves out the fields of what is not compiled, so the application's sources must see the same
 * switches as the runtime's (docs/embedding.md, "Building only what the firmware uses").
 * Layer: runtime API support, included by mb_sim.h; macros only. */
#ifndef MB_SELECT_H
#define MB_SELECT_H

/* Compile-time selection (docs/embedding.md): MB_WITH_<X> = 0 leaves X out of the build; the
 * default is everything. MB_ONLY_<F> sets the other formulations to 0 (MB_ONLY_ALF_TRAPEZOID also
 * rk4 and dopri5) and HHT (MB_WITH_HHT=1 with MB_ONLY_BAUMGARTE keeps it). mb_params_check
 * refuses what is left out with MB_ERR_PARAM. */
#if defined(MB_ONLY_ALF_TRAPEZOID) || defined(MB_ONLY_BAUMGARTE) || defined(MB_ONLY_CANONICAL) || \
    defined(MB_ONLY_ALF_EXPLICIT)
#if !defined(MB_WITH_BAUMGARTE) && !defined(MB_ONLY_BAUMGARTE)
#define MB_WITH_BAUMGARTE 0
#endif
#if !defined(MB_WITH_CANONICAL) && !defined(MB_ONLY_CANONICAL)
#define MB_WITH_CANONICAL 0
#endif
#if !defined(MB_WITH_ALF_EXPLICIT) && !defined(MB_ONLY_ALF_EXPLICIT)
#define MB_WITH_ALF_EXPLICIT 0
#endif
#if !defined(MB_WITH_ALF_TRAPEZOID) && !defined(MB_ONLY_ALF_TRAPEZOID)
#define MB_WITH_ALF_TRAPEZOID 0
#endif
#ifndef MB_WITH_HHT                /* a one-formulation firmware: HHT only when asked for */
#define MB_WITH_HHT 0
#endif
#endif
#ifdef MB_ONLY_ALF_TRAPEZOID
#ifndef MB_WITH_DOP853
#define MB_WITH_DOP853 0
#endif
#ifndef MB_WITH_RK4
#define MB_WITH_RK4 0
#endif
#ifndef MB_WITH_DOPRI5
#define MB_WITH_DOPRI5 0
#endif
#endif
#if (defined(MB_ONLY_ALF_TRAPEZOID) || defined(MB_ONLY_BAUMGARTE) || defined(MB_ONLY_CANONICAL) || \
     defined(MB_ONLY_ALF_EXPLICIT)) && !defined(MB_WITH_BDF)
#define MB_WITH_BDF 0              /* firmware builds: no implicit variable-order integrator */
#endif
#if (defined(MB_ONLY_ALF_TRAPEZOID) || defined(MB_ONLY_BAUMGARTE) || defined(MB_ONLY_CANONICAL) || \
     defined(MB_ONLY_ALF_EXPLICIT)) && !defined(MB_WITH_TRIG_CACHE)
#define MB_WITH_TRIG_CACHE 0       /* firmware builds: its 3 nq reals of RAM only when asked for */
#endif
#ifndef MB_WITH_BAUMGARTE
#define MB_WITH_BAUMGARTE 1
#endif
#ifndef MB_WITH_CANONICAL
#define MB_WITH_CANONICAL 1
#endif
#ifndef MB_WITH_ALF_EXPLICIT
#define MB_WITH_ALF_EXPLICIT 1
#endif
#ifndef MB_WITH_ALF_TRAPEZOID
#define MB_WITH_ALF_TRAPEZOID 1
#endif
#ifndef MB_WITH_RK4
#define MB_WITH_RK4 1
#endif
#ifndef MB_WITH_DOPRI5
#define MB_WITH_DOPRI5 1
#endif
#ifndef MB_WITH_DOP853
#define MB_WITH_DOP853 1
#endif
#ifndef MB_WITH_BDF                /* the variable-order BDF for F1, F2, F4 (mb_bdf.c) */
#define MB_WITH_BDF 1
#endif
#ifndef MB_WITH_ASSEMBLY           /* mb_sim_assemble; without it reset(assemble=1) fails */
#define MB_WITH_ASSEMBLY 1
#endif
#ifndef MB_WITH_DENSE              /* the dense reference back end (mb_linalg.c); 0: sparse only */
#define MB_WITH_DENSE 1
#endif
#ifndef MB_WITH_FULL_JACOBIAN      /* F4's optional second-derivative Newton terms */
#define MB_WITH_FULL_JACOBIAN 1
#endif
#ifndef MB_WITH_DENSE_OUTPUT       /* dopri5's and dop853's continuous extensions (p.dense) */
#define MB_WITH_DENSE_OUTPUT 1
#endif
#ifndef MB_WITH_HHT                /* the HHT-alpha integrator of F1's index-3 equations */
#define MB_WITH_HHT 1
#endif
#ifndef MB_WITH_TRAPEZOID_ADAPTIVE /* F4's step control (mb_params.adaptive) */
#define MB_WITH_TRAPEZOID_ADAPTIVE 1
#endif
#ifndef MB_WITH_REDUNDANT_ROWS     /* F4's Newton without named redundant equations */
#define MB_WITH_REDUNDANT_ROWS 1
#endif
#ifndef MB_WITH_TRIG_CACHE         /* the fused evaluations' sines and cosines kept (mb_trig.h) */
#define MB_WITH_TRIG_CACHE 1
#endif
/* What is compiled: an explicit formulation needs an explicit integrator and vice versa. */
#define MBI_EXPL_INTEG (MB_WITH_RK4 || MB_WITH_DOPRI5 || MB_WITH_DOP853 || MB_WITH_BDF)
#define MBI_F1 (MB_WITH_BAUMGARTE && MBI_EXPL_INTEG)
#define MBI_F2 (MB_WITH_CANONICAL && MBI_EXPL_INTEG)
#define MBI_F3 (MB_WITH_ALF_EXPLICIT && MBI_EXPL_INTEG)
#define MBI_F4 MB_WITH_ALF_TRAPEZOID
#define MBI_EXPLICIT (MBI_F1 || MBI_F2 || MBI_F3)
#define MBI_RK4 (MB_WITH_RK4 && MBI_EXPLICIT)
#define MBI_DOPRI5 (MB_WITH_DOPRI5 && MBI_EXPLICIT)
#define MBI_DOP853 (MB_WITH_DOP853 && MBI_EXPLICIT)
#define MBI_ADAPTIVE (MBI_DOPRI5 || MBI_DOP853)
#define MBI_BDF (MB_WITH_BDF && (MBI_EXPLICIT || MBI_F4))
#define MBI_FJ (MBI_F4 && MB_WITH_FULL_JACOBIAN)
#define MBI_DENSE (MBI_ADAPTIVE && MB_WITH_DENSE_OUTPUT)
#define MBI_F4A (MBI_F4 && MB_WITH_TRAPEZOID_ADAPTIVE)
#define MBI_ACC (MBI_BDF || MBI_F4A)   /* the accuracy warning (mb_monitor.c) */
#define MBI_HHT (MB_WITH_HHT && MBI_F1)
#define MBI_NFORM (MBI_F1 + MBI_F2 + MBI_F3 + MBI_F4)
#define MBI_ONE_FORM (MBI_F1 ? MB_BAUMGARTE : MBI_F2 ? MB_CANONICAL : MBI_F3 ? MB_ALF_EXPLICIT : MB_ALF_TRAPEZOID)
#define MBI_NINTEG (MBI_RK4 + MBI_DOPRI5 + MBI_DOP853 + MBI_BDF + MBI_F4 + MBI_HHT)
#define MBI_ONE_INTEG (MBI_RK4 ? MB_RK4 : MBI_DOPRI5 ? MB_DOPRI5 : MBI_DOP853 ? MB_DOP853 : MBI_BDF ? MB_BDF : MBI_HHT ? MB_HHT : MB_TRAPEZOID)
#if !MBI_EXPLICIT && !MBI_F4
#error "mb_sim: no formulation left (MB_WITH_* / MB_ONLY_*)"
#endif

/* -DMB_WITH_TUNABLES=0: no tunable parameters and no inputs (mb_model.nin: their holds are read
 * through the same copy), so mb_sim keeps no copy of the model descriptor (about 180 bytes on a
 * 32-bit target); mb_sim_init refuses a model that has tunables or inputs with MB_ERR_MODEL. */
#ifndef MB_WITH_TUNABLES
#define MB_WITH_TUNABLES 1
#endif

/* Which of mb_sim's fields exist (mb_sim.h), as 0 / 1 (mb_layout.h pastes them): those of the
 * explicit integrators and bdf (EB: f, the state scratch, dense output's step), of the explicit
 * integrators (EXPL: stages, dense output), of F4's step control (F4A), of F1 and F2 (KKT: 1/M),
 * of F4's full Jacobian (FJ), v0 (explicit, bdf, full Jacobian), the dense scratch (SCR: dense
 * back end, full Jacobian) and pivots (PIV: dense back end), hht (HHT), bdf (BDF), the
 * tunables (TUN) and the sine cache (TRIG). */
#if MBI_EXPLICIT || MBI_BDF
#define MBI_HAS_EB 1
#else
#define MBI_HAS_EB 0
#endif
#if MBI_EXPLICIT
#define MBI_HAS_EXPL 1
#else
#define MBI_HAS_EXPL 0
#endif
#if MBI_F4A
#define MBI_HAS_F4A 1
#else
#define MBI_HAS_F4A 0
#endif
#if MBI_F1 || MBI_F2
#define MBI_HAS_KKT 1
#else
#define MBI_HAS_KKT 0
#endif
#if MBI_FJ
#define MBI_HAS_FJ 1
#else
#define MBI_HAS_FJ 0
#endif
#if MBI_EXPLICIT || MBI_BDF || MBI_FJ
#define MBI_HAS_TN7 1
#else
#define MBI_HAS_TN7 0
#endif
#if MB_WITH_DENSE || MBI_FJ
#define MBI_HAS_SCR 1
#else
#define MBI_HAS_SCR 0
#endif
#if MB_WITH_DENSE
#define MBI_HAS_PIV 1
#else
#define MBI_HAS_PIV 0
#endif
#if MBI_HHT
#define MBI_HAS_HHT 1
#else
#define MBI_HAS_HHT 0
#endif
#if MBI_BDF
#define MBI_HAS_BDF 1
#else
#define MBI_HAS_BDF 0
#endif
#if MB_WITH_TUNABLES
#define MBI_HAS_TUN 1
#else
#define MBI_HAS_TUN 0
#endif
#if MB_WITH_TRIG_CACHE
#define MBI_HAS_TRIG 1
#else
#define MBI_HAS_TRIG 0
#endif

#endif /* MB_SELECT_H */
