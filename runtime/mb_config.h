/* mb_config.h - the configuration page: every build switch of the runtime and of the generated
 * models, once, with its default and what it removes; then what follows from them (MBI_*,
 * computed here only); then the one real type, the index type and the math they select.
 * Layer: shared by generated code, the runtime and the application; includes only <math.h> (and
 * the header of MB_MATH_HEADER when given).
 *
 * How to set a switch: -DNAME (that is, 1) or -DNAME=0 / 1 on every compilation (runtime,
 * models, application), or edit its default here. Every switch has a value after this page and is
 * tested by it (#if NAME, never #ifdef: -DNAME=0 is off).
 *
 * Tags: [ABI] changes mb_sim, mb_params or the model's arrays: the application must be compiled
 * with the runtime's value (each is a bit of MB_BUILD_CONFIG below; a mismatch gets MB_ERR_BUILD,
 * nothing is read or written); [code] changes only the code of the runtime or of a model (they
 * may differ between files); [model] read by generated code only; [test] for the tests. What a
 * switch leaves out is refused at run time (mb_params_check: MB_ERR_PARAM naming the switch), and
 * a firmware that links with -ffunction-sections -fdata-sections -Wl,--gc-sections drops the
 * rows and code nothing calls (docs/embedding.md, "Building only what the firmware uses"). */
#ifndef MB_CONFIG_H
#define MB_CONFIG_H

#include <math.h>

/* ================================================================== the switches */

/* ---- numbers */
#ifndef MB_FLOAT                   /* [ABI] 1: single precision (float); 0: double */
#define MB_FLOAT 0
#endif
#ifndef MB_INDEX16                 /* [ABI] 1: 16-bit model index arrays (half their flash; a model
                                      with an index above 65535 refuses to compile); 0: int */
#define MB_INDEX16 0
#endif
#ifndef MB_INDEX8                  /* [ABI] 1: 8-bit model index arrays (half again; a model with
                                      an index above 255 refuses to compile) */
#define MB_INDEX8 0
#endif
/* MB_MATH_HEADER                     [code] -DMB_MATH_HEADER='"file.h"' includes that header below;
                                      any of MB_SIN, MB_COS, MB_TAN, MB_SQRT, MB_HYPOT, MB_EXP,
                                      MB_LOG, MB_FABS, MB_POW, MB_ATAN2, MB_TANH it (or -D)
                                      defines replaces libm's function everywhere; default: none,
                                      libm (runtime/mb_math.h: ours, for embedded double builds) */
#ifndef MB_NO_LAPACKE              /* [code] 1: the dense LU and Cholesky by our own loops
                                      (mb_linalg.c), no LAPACKE in the tools; 0: LAPACKE */
#define MB_NO_LAPACKE 0
#endif
#ifndef MB_KEEP_SLP                /* [model] 1: GCC's SLP vectorizer kept on the kernels MB_NO_SLP
                                      marks (below) */
#define MB_KEEP_SLP 0
#endif

/* ---- what the runtime compiles. MB_ONLY_<F> = 1, a one-formulation (firmware) build: the
 * defaults of the MB_WITH_* below become 0 for the other formulations, hht, bdf, the sine cache
 * and F4's kernels (MB_ONLY_ALF_TRAPEZOID: also rk4, dopri5, dop853); a switch given keeps its
 * value (MB_ONLY_BAUMGARTE with MB_WITH_HHT=1 keeps hht). */
#ifndef MB_ONLY_ALF_TRAPEZOID      /* [ABI] 1: F4 and its trapezoid only */
#define MB_ONLY_ALF_TRAPEZOID 0
#endif
#ifndef MB_ONLY_BAUMGARTE          /* [ABI] 1: F1 only */
#define MB_ONLY_BAUMGARTE 0
#endif
#ifndef MB_ONLY_CANONICAL          /* [ABI] 1: F2 only */
#define MB_ONLY_CANONICAL 0
#endif
#ifndef MB_ONLY_ALF_EXPLICIT       /* [ABI] 1: F3 only */
#define MB_ONLY_ALF_EXPLICIT 0
#endif
#define MBI_ONLY (MB_ONLY_ALF_TRAPEZOID || MB_ONLY_BAUMGARTE || MB_ONLY_CANONICAL || MB_ONLY_ALF_EXPLICIT)
#ifndef MB_WITH_BAUMGARTE          /* [ABI] F1 (mb_f1_baumgarte.c, mb_kkt.c) */
#define MB_WITH_BAUMGARTE (!MBI_ONLY || MB_ONLY_BAUMGARTE)
#endif
#ifndef MB_WITH_CANONICAL          /* [ABI] F2 (mb_f2_canonical.c) */
#define MB_WITH_CANONICAL (!MBI_ONLY || MB_ONLY_CANONICAL)
#endif
#ifndef MB_WITH_ALF_EXPLICIT       /* [ABI] F3 (mb_f3_alf.c; its velocity iteration stays: F4's start) */
#define MB_WITH_ALF_EXPLICIT (!MBI_ONLY || MB_ONLY_ALF_EXPLICIT)
#endif
#ifndef MB_WITH_ALF_TRAPEZOID      /* [ABI] F4 and its trapezoid (mb_f4_trapezoid.c, mb_trapezoid*.c) */
#define MB_WITH_ALF_TRAPEZOID (!MBI_ONLY || MB_ONLY_ALF_TRAPEZOID)
#endif
#ifndef MB_WITH_RK4                /* [ABI] rk4 (mb_rk.c) */
#define MB_WITH_RK4 (!MB_ONLY_ALF_TRAPEZOID)
#endif
#ifndef MB_WITH_DOPRI5             /* [ABI] dopri5 (mb_rk.c) */
#define MB_WITH_DOPRI5 (!MB_ONLY_ALF_TRAPEZOID)
#endif
#ifndef MB_WITH_DOP853             /* [ABI] dop853 (mb_rk.c) */
#define MB_WITH_DOP853 (!MB_ONLY_ALF_TRAPEZOID)
#endif
#ifndef MB_WITH_BDF                /* [ABI] the variable-order BDF for F1, F2, F4 (mb_bdf.c) */
#define MB_WITH_BDF (!MBI_ONLY)
#endif
#ifndef MB_WITH_HHT                /* [ABI] the HHT-alpha integrator of F1's index-3 equations (mb_hht.c) */
#define MB_WITH_HHT (!MBI_ONLY)
#endif
#ifndef MB_WITH_ASSEMBLY           /* [ABI] mb_sim_assemble (mb_assembly.c); without it
                                      reset(assemble=1) fails */
#define MB_WITH_ASSEMBLY 1
#endif
#ifndef MB_WITH_DENSE              /* [ABI] the dense reference back end (mb_linalg.c); 0: sparse only */
#define MB_WITH_DENSE 1
#endif
#ifndef MB_WITH_FULL_JACOBIAN      /* [ABI] F4's optional second-derivative Newton terms */
#define MB_WITH_FULL_JACOBIAN 1
#endif
#ifndef MB_WITH_DENSE_OUTPUT       /* [ABI] dopri5's and dop853's continuous extensions (p.dense) */
#define MB_WITH_DENSE_OUTPUT 1
#endif
#ifndef MB_WITH_TRAPEZOID_ADAPTIVE /* [ABI] F4's step control (p.adaptive, mb_trapezoid_control.c) */
#define MB_WITH_TRAPEZOID_ADAPTIVE 1
#endif
#ifndef MB_WITH_REDUNDANT_ROWS     /* [ABI] F4's Newton without named redundant equations */
#define MB_WITH_REDUNDANT_ROWS 1
#endif
#ifndef MB_WITH_TRIG_CACHE         /* [ABI] the fused evaluations' sines and cosines kept
                                      (mb_trig.h; 3 nq reals of RAM) */
#define MB_WITH_TRIG_CACHE (!MBI_ONLY)
#endif
#ifndef MB_WITH_TUNABLES           /* [ABI] tunable parameters and inputs: 0 keeps no copy of the
                                      model descriptor in mb_sim (about 180 B on a 32-bit target);
                                      mb_sim_init then refuses a model that has them (MB_ERR_MODEL) */
#define MB_WITH_TUNABLES 1
#endif
#ifndef MB_WITH_F4_KERNELS         /* [code] F4's unrolled kernels (mb_model.h: mb_f4_kernels)
                                      compiled into unrolled models and called by the runtime; off
                                      in one-formulation builds (flash: the runtime's loops do the
                                      same arithmetic). A model and a runtime built with different
                                      values still work together (the plan's pointer is NULL, or
                                      not called) */
#define MB_WITH_F4_KERNELS (!MBI_ONLY)
#endif

/* ---- what a generated model compiles */
#ifndef MB_OMIT_GAMMA              /* [model] 1: no gamma (F1's only: a firmware of another
                                      formulation; mb_model.gamma NULL) */
#define MB_OMIT_GAMMA 0
#endif
#ifndef MB_OMIT_POINTS             /* [model] 1: no named points (drawing data: tools only) */
#define MB_OMIT_POINTS 0
#endif
#ifndef MB_OMIT_INFO               /* [model] 1: no info part (names: tools only) */
#define MB_OMIT_INFO 0
#endif
#ifndef MB_DESCRIPTOR_ONLY         /* [model] 1: a model file's descriptor alone, its data without
                                      code (the generic evaluator's benchmarks, mk/bench.mk) */
#define MB_DESCRIPTOR_ONLY 0
#endif

/* ---- tests and tools */
#ifndef MB_POISON_WORK             /* [test] 1: NaN into each workspace block when its lifetime
                                      ends (mb_sim_impl.h: a read through a wrong alias fails) */
#define MB_POISON_WORK 0
#endif
#ifndef MB_LAYOUT_NO_SHARE         /* [test] 1: every workspace block its own (mb_layout.h; the
                                      same results, tests/test_layout_share.sh) */
#define MB_LAYOUT_NO_SHARE 0
#endif
#ifndef MB_WITH_GENERIC            /* [code] 1: the simulator's --eval generic (tools/mb_sim_main.c:
                                      the model as data for the generic evaluator) */
#define MB_WITH_GENERIC 0
#endif

/* The build as a compiler sees this page: every [ABI] switch above is a bit here (and the
 * precision and index width, through the types below). mb_sim.h passes it with the sizes of
 * mb_sim and mb_params (MB_BUILD_SIZES) to the runtime, which compares them with its own. */
#define MB_BUILD_CONFIG                                                                        \
    ((unsigned long)(sizeof(mb_real) == sizeof(float)) | (unsigned long)MB_WITH_BAUMGARTE << 1 | \
     (unsigned long)MB_WITH_CANONICAL << 2 | (unsigned long)MB_WITH_ALF_EXPLICIT << 3 |          \
     (unsigned long)MB_WITH_ALF_TRAPEZOID << 4 | (unsigned long)MB_WITH_RK4 << 5 |               \
     (unsigned long)MB_WITH_DOPRI5 << 6 | (unsigned long)MB_WITH_DOP853 << 7 |                   \
     (unsigned long)MB_WITH_BDF << 8 | (unsigned long)MB_WITH_HHT << 9 |                         \
     (unsigned long)MB_WITH_ASSEMBLY << 10 | (unsigned long)MB_WITH_DENSE << 11 |                \
     (unsigned long)MB_WITH_FULL_JACOBIAN << 12 | (unsigned long)MB_WITH_DENSE_OUTPUT << 13 |     \
     (unsigned long)MB_WITH_TRAPEZOID_ADAPTIVE << 14 | (unsigned long)MB_WITH_REDUNDANT_ROWS << 15 | \
     (unsigned long)MB_WITH_TUNABLES << 16 | (unsigned long)MB_WITH_TRIG_CACHE << 17 |            \
     (unsigned long)(sizeof(mb_index) == 2) << 18 | (unsigned long)(sizeof(mb_index) == 1) << 19)

/* ================================================================== what follows from them */

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
#define MBI_HHT (MB_WITH_HHT && MBI_F1)
#define MBI_NFORM (MBI_F1 + MBI_F2 + MBI_F3 + MBI_F4)
#define MBI_ONE_FORM (MBI_F1 ? MB_BAUMGARTE : MBI_F2 ? MB_CANONICAL : MBI_F3 ? MB_ALF_EXPLICIT : MB_ALF_TRAPEZOID)
#define MBI_NINTEG (MBI_RK4 + MBI_DOPRI5 + MBI_DOP853 + MBI_BDF + MBI_F4 + MBI_HHT)
#define MBI_ONE_INTEG (MBI_RK4 ? MB_RK4 : MBI_DOPRI5 ? MB_DOPRI5 : MBI_DOP853 ? MB_DOP853 : MBI_BDF ? MB_BDF : MBI_HHT ? MB_HHT : MB_TRAPEZOID)
#if !MBI_EXPLICIT && !MBI_F4
#error "mb_sim: no formulation left (MB_WITH_* / MB_ONLY_*)"
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

/* ================================================================== the types and the math */

/* Supply your own math: -DMB_MATH_HEADER='"file.h"' includes that header here, and any of
 * MB_SIN, MB_COS, MB_TAN, MB_SQRT, MB_HYPOT, MB_EXP, MB_LOG, MB_FABS, MB_POW, MB_ATAN2, MB_TANH defined
 * by it (or by -D) replaces the libm function of mb_real everywhere (runtime and generated code).
 * runtime/mb_math.h is ours: sin, cos and hypot without libm's huge-argument reduction, for
 * embedded double builds (docs/embedding.md). */
#ifdef MB_MATH_HEADER
#include MB_MATH_HEADER
#endif

#if MB_FLOAT
typedef float mb_real;
#define MB_R(x) x##f          /* literal of type mb_real */
#define MB_LIBM(fn) fn##f     /* the libm function of type mb_real */
#define MB_EPS 1.1920929e-07f
#define MB_REAL_MIN 1.17549435e-38f   /* see below */
#define MB_LEN_TINY 1e-18f    /* see below */
#else
typedef double mb_real;
#define MB_R(x) x
#define MB_LIBM(fn) fn
#define MB_EPS 2.220446049250313e-16
/* The smallest normal number: a nonzero value below it in magnitude (subnormal) keeps too few
 * digits and its reciprocal overflows, so tunables and every value derived from them must be
 * 0 or at least this in magnitude (mb_sim_set_param, <name>_par_check). */
#define MB_REAL_MIN 2.2250738585072014e-308
/* A length below MB_LEN_TINY counts as zero where model code divides by it (a spring's
 * direction d / l and its derivatives): about the square root of the smallest normal number, so
 * 1 / l and the products of two such factors in the Jacobians stay finite. */
#define MB_LEN_TINY 1e-150
#endif

#ifndef MB_SIN
#define MB_SIN MB_LIBM(sin)
#endif
#ifndef MB_COS
#define MB_COS MB_LIBM(cos)
#endif
#ifndef MB_TAN
#define MB_TAN MB_LIBM(tan)
#endif
#ifndef MB_SQRT
#define MB_SQRT MB_LIBM(sqrt)
#endif
#ifndef MB_HYPOT
#define MB_HYPOT MB_LIBM(hypot)
#endif
#ifndef MB_EXP
#define MB_EXP MB_LIBM(exp)
#endif
#ifndef MB_LOG
#define MB_LOG MB_LIBM(log)
#endif
#ifndef MB_FABS
#define MB_FABS MB_LIBM(fabs)
#endif
#ifndef MB_POW
#define MB_POW MB_LIBM(pow)
#endif
#ifndef MB_ATAN2
#define MB_ATAN2 MB_LIBM(atan2)
#endif
#ifndef MB_TANH
#define MB_TANH MB_LIBM(tanh)
#endif

/* MB_NOINLINE: keep a function out of its callers (with link-time optimization too), so that its
 * frame is not part of theirs: the runtime marks what runs after a deep call (the step's
 * monitors), which then is not on the stack under it. */
#if defined(__GNUC__)
#define MB_NOINLINE __attribute__((noinline))
#else
#define MB_NOINLINE
#endif

/* MB_NO_SLP: GCC's basic-block (SLP) vectorizer off for one generated function. On the unrolled
 * LU, F4's residual and the assembly of S (generator/emit_linalg.lua) it packs pairs of scalars
 * into vectors with more shuffles and spills than it saves (x86-64 -O2, Andrews: the LU 1679 ->
 * 1154 instructions per call, 10.2 -> 6.7 KB of code; the residual 741 -> 668; S's assembly
 * 4.8 -> 4.0 KB, 12 % fewer instructions), while the other kernels gain from it
 * (F4's c: 311 -> 424 without it), so no file-wide flag. The same bits either way: the vectorizer
 * does not reorder arithmetic. GCC documents the optimize attribute as meant for debugging: on a
 * new GCC, check the LU's size (nm -S) and time first (or build with -DMB_KEEP_SLP). Other compilers (clang has no such attribute), or -DMB_KEEP_SLP:
 * nothing. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_COMPILER) && !MB_KEEP_SLP
#define MB_NO_SLP __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define MB_NO_SLP
#endif

/* The index type of a model's constant arrays (sparsity patterns and plans, runtime/mb_model.h).
 * -DMB_INDEX16: 16 bits, which halves their flash on a microcontroller (Andrews: 3.2 KB); a
 * generated model with an index above 65535 then refuses to compile. -DMB_INDEX8: 8 bits, half
 * again (Andrews: 1.5 KB), for models whose indices all stay below 256 (the others refuse). */
#if MB_INDEX8
typedef unsigned char mb_index;
#elif MB_INDEX16
typedef unsigned short mb_index;
#else
typedef int mb_index;
#endif

#endif /* MB_CONFIG_H */
