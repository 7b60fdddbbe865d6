/* mb_math.h - sin, cos and hypot of our own for embedded double builds, where the toolchain's
 * libm links fdlibm's reduction for huge arguments (about 3 KB that Andrews' angles never use).
 * Layer: runtime core; no allocation, no printing. Selected by building with
 * -DMB_MATH_HEADER='"mb_math.h"' (runtime/mb_config.h: "supply your own math") and linking
 * runtime/mb_math.c; the host build stays on libm. In single precision (MB_FLOAT) this header
 * selects nothing: float keeps sinf/cosf/hypotf.
 * Accuracy (tests/test_math.c, against long double sinl/cosl/hypotl, docs/embedding.md): sin and
 * cos within 1 ulp (0.8 measured), hypot within 1.5 ulp (1.1 measured); not always the
 * toolchain's rounding, so a trajectory differs from the libm build's in the last bits. */
#ifndef MB_MATH_H
#define MB_MATH_H

/* The domain of mb_math_sin and mb_math_cos: |x| <= MB_MATH_TRIG_MAX = 2^20 pi/2 (about 1.647e6
 * rad, 262144 turns), where the three-part reduction below is exact. Beyond it, and for NaN and
 * Inf, they return NaN: the runtime's non-finite checks then stop the run with an error
 * (MB_ERR_NONFINITE) instead of continuing on a wrong angle. */
#define MB_MATH_TRIG_MAX (0x1p20 * 0x1.921fb544p+0)

double mb_math_sin(double x);
double mb_math_cos(double x);
/* sqrt(x^2 + y^2) without intermediate overflow or underflow for any finite x, y; Inf if either
 * is Inf, else NaN if either is NaN (C99's hypot rules). */
double mb_math_hypot(double x, double y);

#if !MB_FLOAT && !defined MB_SIN && !defined MB_COS && !defined MB_HYPOT
#define MB_SIN mb_math_sin
#define MB_COS mb_math_cos
#define MB_HYPOT mb_math_hypot
#endif

#endif /* MB_MATH_H */
