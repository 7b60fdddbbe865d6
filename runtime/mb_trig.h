/* mb_trig.h - the sines and cosines of coordinate angles for the generated fused evaluations
 * (eval_kin, eval_kin_dyn: model-interface.md, "The sine cache"), from kept values at a grid.
 * Layer: runtime core, included by mb_model.h; static inline functions, no state of their own
 * (the cache is the caller's: mb_sim's workspace block trig).
 *
 * Why: F4's Newton iteration evaluates the model 3 to 4 times per step at angles that differ by
 * the step's motion and the corrections, and without the cache libm's sincos is 14 % of an
 * Andrews step (3.1 k of 21.2 k instructions: 7 angles, 33 calls). An angle's entry keeps sin and cos of the grid point
 * x0 nearest to it (multiples of 2^-6 rad); sin(x0 + d) = s0 cos d + c0 sin d with the short
 * series of sin d and cos d - 1, |d| <= 2^-7, costs a fraction of a libm call, which is needed
 * only when the angle reaches another grid point (in double builds, within 16 rad, not even
 * then: the grid pair is libm's from a table, mb_trig_table.h). The entry keeps the last angle's pair too, so
 * the second of an angle's sine and cosine in a function, and the same angle in the next fused
 * function of a right-hand side (eval_gamma_force after eval_kin), cost a load instead of the
 * series (chain N = 100 baumgarte: eval_gamma_force 7.5 k -> 2.6 k instructions a call). The result
 * depends on x alone, not on which evaluations came before (the kept pair is the bits the
 * series gives for that x): a run repeats bit for bit, and a rejected trial step undone leaves
 * nothing behind. Accuracy: s0, c0 are libm's; the series' first omitted terms are below 2^-72
 * (sin d, relative to |d|) and 2^-68 (cos d - 1, relative to 1); the sum's roundings leave an
 * absolute error below 1.2e-16 (libm's: 5.6e-17), within 2.2 ulp where |sin x|, |cos x| > 2^-7
 * and more ulps of the tiny values near their zeros (measured over 4e6 angles in [-100, 100]
 * against long double). Not libm's bits, so a trajectory differs from one without the cache in
 * the last bits (more where a singular position amplifies rounding). */
#ifndef MB_TRIG_H
#define MB_TRIG_H

#include "mb_config.h"   /* MB_WITH_TRIG_CACHE: off, the calls below are libm's alone */

/* The grid: entries at multiples of 1 / MB_TRIG_GRID rad. x0 = x rounded to it by the shift
 * (t + 1.5 2^52) - 1.5 2^52 (2^23 in float), exact for |x| below 2^45 (2^16 in float) rad; beyond,
 * or for a NaN or Inf, |x - x0| <= half a cell fails and libm gives sin and cos directly. */
#define MB_TRIG_GRID MB_R(64.0)
#if MB_FLOAT
#define MB_TRIG_SHIFT 12582912.0f
#else
#define MB_TRIG_SHIFT 6755399441055744.0
#endif

/* Reals per coordinate in the cache: [x0, sin x0, cos x0, x, sin x, cos x], the grid point's
 * pair from libm and the last angle's pair; NaN x0 and x when empty. */
#define MB_TRIG_ENTRY 6

#if MB_WITH_TRIG_CACHE
/* The grid pairs of |x0| <= MB_TRIG_TABLE_N / 64 = 16 rad from a table (16 KB of constants, in
 * each object file whose code reads it: a generated model's)
 * instead of libm's calls, the same values (mb_trig_table.h holds libm's, written by
 * scripts/trig_table.c); double builds with the cache and libm's sin and cos only (float:
 * sinf's values would be another table; a build that supplies MB_SIN or MB_COS, e.g.
 * mb_math.h's, gets its own functions' values; firmware builds have no cache). */
#ifndef MB_TRIG_TABLED
#define MB_TRIG_TABLED (!MB_FLOAT && MBI_LIBM_SINCOS)
#endif
#if MB_TRIG_TABLED
#include "mb_trig_table.h"
#endif

/* The series in pairs of GCC's vector extension (x86-64's SSE2: two lanes an instruction) where
 * the compiler has it; each lane's operations are the scalar code's IEEE operations in its
 * order, so the bits are the same with and without (Andrews baumgarte dop853 rtol 3.2e-7: 12 k
 * fewer instructions of 4.10 M) where the compiler fuses no multiply-add: the default x86-64
 * flags. With FMA instructions (-mfma, -march=native) GCC 12.2 forms a fused one from the
 * scalar code even under -std=c99's -ffp-contract=off (its SLP vectorizer's vfmsubadd), clang
 * (-ffp-contract=on by default) from both: 26 (GCC -O2 -mfma) and 1 (clang -O3 -march=native)
 * of 4e6 sines and cosines then differ between pairs and scalar code. */
#ifndef MB_TRIG_PAIRS
#if defined(__GNUC__) && defined(__SSE2__) && !MB_FLOAT
#define MB_TRIG_PAIRS 1
#else
#define MB_TRIG_PAIRS 0
#endif
#endif
#if MB_TRIG_PAIRS
typedef double mb_trig_v2 __attribute__((vector_size(16)));
#endif

/* *s = sin x, *c = cos x through the cache entry tc of coordinate x: the kept pair when x is the
 * last angle (==: -0 and +0 give the same bits), else the series from x's grid point (x0 NaN:
 * empty; another grid point: refilled from libm); the pair is kept for the next call. */
static inline MB_ALWAYS_INLINE void mb_sincos_entry(mb_real x, mb_real *tc, mb_real *s, mb_real *c)
{
    if (tc[3] == x) {                                  /* (never for an empty entry's NaN) */
        *s = tc[4];
        *c = tc[5];
        return;
    }
    mb_real x0 = ((x * MB_TRIG_GRID + MB_TRIG_SHIFT) - MB_TRIG_SHIFT) / MB_TRIG_GRID, d = x - x0;
    if (!(MB_FABS(d) <= MB_R(0.5) / MB_TRIG_GRID)) {   /* NaN, Inf, beyond the shift's range */
        *s = MB_SIN(x);
        *c = MB_COS(x);
    } else {
        if (tc[0] != x0) {                             /* (an empty entry's NaN too) */
            tc[0] = x0;
#if MB_TRIG_TABLED
            mb_real kr = x0 * MB_TRIG_GRID;                /* an integer, exactly */
            if (MB_FABS(kr) <= MB_TRIG_TABLE_N) {          /* libm's pair from the table */
                const double *e = mb_trig_table() + 2 * (int)MB_FABS(kr);
                tc[1] = kr < 0 ? -e[0] : e[0];
                tc[2] = e[1];
            } else
#endif
            {
                tc[1] = MB_SIN(x0);
                tc[2] = MB_COS(x0);
            }
        }
        mb_real z = d * d, s0 = tc[1], c0 = tc[2];
        /* sin d = d - d^3/6 + d^5/120 - d^7/5040, cos d - 1 = -z/2 + z^2/24 - z^3/720 */
#if MB_TRIG_PAIRS
        /* the two series and the two sums side by side in pairs, each lane the scalar code's
         * operations in its order (the same bits: -(z) and -(s0 sd) are exact negations) */
        mb_trig_v2 zz = {z, z}, sc0 = {s0, c0};
        mb_trig_v2 p = zz * (mb_trig_v2){MB_R(1.0) / 5040, MB_R(1.0) / 720};
        p = zz * ((mb_trig_v2){MB_R(1.0) / 120, MB_R(1.0) / 24} - p);
        p = (mb_trig_v2){d * z, -z} * ((mb_trig_v2){MB_R(1.0) / 6, MB_R(0.5)} - p);
        mb_real sd = d - p[0], cm = p[1];
        mb_trig_v2 r = sc0 + (sc0 * (mb_trig_v2){cm, cm} + (mb_trig_v2){c0, -s0} * (mb_trig_v2){sd, sd});
        *s = r[0];
        *c = r[1];
#else
        mb_real sd = d - d * z * (MB_R(1.0) / 6 - z * (MB_R(1.0) / 120 - z * (MB_R(1.0) / 5040)));
        mb_real cm = -z * (MB_R(0.5) - z * (MB_R(1.0) / 24 - z * (MB_R(1.0) / 720)));
        *s = s0 + (s0 * cm + c0 * sd);
        *c = c0 + (c0 * cm - s0 * sd);
#endif
    }
    tc[3] = x;
    tc[4] = *s;
    tc[5] = *c;
}

#endif

/* sin and cos of coordinate i's value x with the cache trig [MB_TRIG_ENTRY nq] (NULL, or a
 * build without the cache: libm's). The generated code writes the first MB_SIN(q[i]) or
 * MB_COS(q[i]) of a fused function as mb_sin_near(q[i], trig, i) or mb_cos_near (which find the
 * pair a previous function kept at the same q[i]) and, when that first call stands alone in
 * an unconditional statement, every later one as mb_sin_kept or mb_cos_kept below. */
static inline MB_ALWAYS_INLINE mb_real mb_sin_near(mb_real x, mb_real *trig, int i)
{
#if MB_WITH_TRIG_CACHE
    mb_real s, c;
    if (trig) {
        mb_sincos_entry(x, trig + MB_TRIG_ENTRY * i, &s, &c);
        return s;
    }
#else
    (void)trig;
    (void)i;
#endif
    return MB_SIN(x);
}
static inline MB_ALWAYS_INLINE mb_real mb_cos_near(mb_real x, mb_real *trig, int i)
{
#if MB_WITH_TRIG_CACHE
    mb_real s, c;
    if (trig) {
        mb_sincos_entry(x, trig + MB_TRIG_ENTRY * i, &s, &c);
        return c;
    }
#else
    (void)trig;
    (void)i;
#endif
    return MB_COS(x);
}

/* sin and cos of coordinate i's value x where an mb_sin_near or mb_cos_near of this x has
 * run before in the same function (the generator's guarantee): the pair it kept, one load. */
static inline MB_ALWAYS_INLINE mb_real mb_sin_kept(mb_real x, const mb_real *trig, int i)
{
#if MB_WITH_TRIG_CACHE
    if (trig) return trig[MB_TRIG_ENTRY * i + 4];
#else
    (void)trig;
    (void)i;
#endif
    return MB_SIN(x);
}
static inline MB_ALWAYS_INLINE mb_real mb_cos_kept(mb_real x, const mb_real *trig, int i)
{
#if MB_WITH_TRIG_CACHE
    if (trig) return trig[MB_TRIG_ENTRY * i + 5];
#else
    (void)trig;
    (void)i;
#endif
    return MB_COS(x);
}

#endif /* MB_TRIG_H */
