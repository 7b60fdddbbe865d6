/* mb_config.h - the one real type of the project and the math it uses.
 * Layer: shared by generated code and the runtime; includes only <math.h>.
 * Build with -DMB_FLOAT for single precision; double is the default. */
#ifndef MB_CONFIG_H
#define MB_CONFIG_H

#include <math.h>

#ifdef MB_FLOAT
typedef float mb_real;
#define MB_R(x) x##f          /* literal of type mb_real */
#define MB_SIN sinf
#define MB_COS cosf
#define MB_TAN tanf
#define MB_SQRT sqrtf
#define MB_HYPOT hypotf
#define MB_EXP expf
#define MB_LOG logf
#define MB_FABS fabsf
#define MB_POW powf
#define MB_ATAN2 atan2f
#define MB_EPS 1.1920929e-07f
#define MB_LEN_TINY 1e-18f    /* see below */
#else
typedef double mb_real;
#define MB_R(x) x
#define MB_SIN sin
#define MB_COS cos
#define MB_TAN tan
#define MB_SQRT sqrt
#define MB_HYPOT hypot
#define MB_EXP exp
#define MB_LOG log
#define MB_FABS fabs
#define MB_POW pow
#define MB_ATAN2 atan2
#define MB_EPS 2.220446049250313e-16
/* A length below MB_LEN_TINY counts as zero where model code divides by it (a spring's
 * direction d / l and its derivatives): about the square root of the smallest normal number, so
 * 1 / l and the products of two such factors in the Jacobians stay finite. */
#define MB_LEN_TINY 1e-150
#endif

/* The index type of a model's constant arrays (sparsity patterns and plans, runtime/mb_model.h).
 * -DMB_INDEX16: 16 bits, which halves their flash on a microcontroller (Andrews: 3.2 KB); a
 * generated model with an index above 65535 then refuses to compile. */
#ifdef MB_INDEX16
typedef unsigned short mb_index;
#else
typedef int mb_index;
#endif

/* F4's unrolled kernels (runtime/mb_model.h: mb_f4_kernels, mb_plan.f4): compiled into models
 * generated in the unrolled form and called by the runtime, except in one-formulation
 * (firmware) builds, MB_ONLY_*, where they are left out of both (flash; the runtime's loops do
 * the same arithmetic). -DMB_WITH_F4_KERNELS=1 or 0 decides explicitly; model and runtime must
 * be built with the same value. */
#ifndef MB_WITH_F4_KERNELS
#if defined(MB_ONLY_ALF_TRAPEZOID) || defined(MB_ONLY_BAUMGARTE) || defined(MB_ONLY_CANONICAL) || \
    defined(MB_ONLY_ALF_EXPLICIT)
#define MB_WITH_F4_KERNELS 0
#else
#define MB_WITH_F4_KERNELS 1
#endif
#endif

#endif /* MB_CONFIG_H */
