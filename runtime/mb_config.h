/* mb_config.h - the one real type of the project and the math it uses.
 * Layer: shared by generated code and the runtime; includes only <math.h> (and the header of
 * MB_MATH_HEADER when given).
 * Build with -DMB_FLOAT for single precision; double is the default. */
#ifndef MB_CONFIG_H
#define MB_CONFIG_H

#include <math.h>

/* Supply your own math: -DMB_MATH_HEADER='"file.h"' includes that header here, and any of
 * MB_SIN, MB_COS, MB_TAN, MB_SQRT, MB_HYPOT, MB_EXP, MB_LOG, MB_FABS, MB_POW, MB_ATAN2, MB_TANH defined
 * by it (or by -D) replaces the libm function of mb_real everywhere (runtime and generated code).
 * runtime/mb_math.h is ours: sin, cos and hypot without libm's huge-argument reduction, for
 * embedded double builds (docs/embedding.md). */
#ifdef MB_MATH_HEADER
#include MB_MATH_HEADER
#endif

#ifdef MB_FLOAT
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
#if defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_COMPILER) && !defined(MB_KEEP_SLP)
#define MB_NO_SLP __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define MB_NO_SLP
#endif

/* The index type of a model's constant arrays (sparsity patterns and plans, runtime/mb_model.h).
 * -DMB_INDEX16: 16 bits, which halves their flash on a microcontroller (Andrews: 3.2 KB); a
 * generated model with an index above 65535 then refuses to compile. -DMB_INDEX8: 8 bits, half
 * again (Andrews: 1.5 KB), for models whose indices all stay below 256 (the others refuse). */
#if defined MB_INDEX8
typedef unsigned char mb_index;
#elif defined MB_INDEX16
typedef unsigned short mb_index;
#else
typedef int mb_index;
#endif

/* F4's unrolled kernels (runtime/mb_model.h: mb_f4_kernels, mb_plan.f4): compiled into models
 * generated in the unrolled form and called by the runtime, except in one-formulation
 * (firmware) builds, MB_ONLY_*, where they are left out of both (flash; the runtime's loops do
 * the same arithmetic). -DMB_WITH_F4_KERNELS=1 or 0 decides explicitly; a model and a runtime
 * built with different values still work together (the plan's pointer is then NULL, or not
 * called). */
#ifndef MB_WITH_F4_KERNELS
#if defined(MB_ONLY_ALF_TRAPEZOID) || defined(MB_ONLY_BAUMGARTE) || defined(MB_ONLY_CANONICAL) || \
    defined(MB_ONLY_ALF_EXPLICIT)
#define MB_WITH_F4_KERNELS 0
#else
#define MB_WITH_F4_KERNELS 1
#endif
#endif

#endif /* MB_CONFIG_H */
