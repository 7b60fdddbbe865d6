/* mb_math.c - sin, cos and hypot for embedded double builds (mb_math.h says when and why).
 * Layer: runtime core; no allocation, no printing. Plain IEEE double arithmetic: the same bits
 * on every machine that rounds to nearest without extended precision and contracts no FMA
 * (-ffp-contract=off), so a firmware and its host build agree.
 *
 * sin and cos: x = k pi/2 + r with |r| <= pi/4 (Cody-Waite reduction: pi/2 split into parts
 * whose products with k are exact), r carried as hi + lo, then Taylor polynomials on r. */
#include <math.h>
#include <stdint.h>
#include "mb_math.h"

/* |x|'s bit pattern: for non-negative doubles (and above them Inf, NaN) the integer order is
 * the numeric order, so a range test is an integer compare, not a software-double call */
static uint64_t abs_bits(double x)
{
    union { double d; uint64_t u; } b;
    b.d = x;
    return b.u & 0x7fffffffffffffffu;
}

/* pi/2 = P1 + P2 + P3 + P4 + O(2^-160): P1..P3 have 33 significant bits, so k Pi is exact for
 * |k| <= 2^20 (the domain), P4 is the next 53 bits (digits of pi from a 400-bit computation). */
static const double P1 = 0x1.921fb544p+0;
static const double P2 = 0x1.0b4611a6p-34;
static const double P3 = 0x1.3198a2ep-69;
static const double P4 = 0x1.b839a252049c1p-104;
static const double TWO_OVER_PI = 0x1.45f306dc9c883p-1;

/* x - k pi/2 = *hi + *lo (|lo| <= ulp(hi) / 2); returns k mod 4. For |x| <= MB_MATH_TRIG_MAX. */
static unsigned reduce(double x, double *hi, double *lo)
{
    /* k = x 2/pi rounded to the nearest integer by the 1.5 2^52 shift (|x 2/pi| < 2^51);
     * a k one off near r = +-pi/4 only makes |r| slightly larger */
    double dk = (x * TWO_OVER_PI + 0x1.8p52) - 0x1.8p52;
    long k = (long)dk;
    if (k == 0) {               /* |x| <= pi/4: no reduction (and its 25 operations) */
        *hi = x;
        *lo = 0;
        return 0;
    }
    /* x and k P1 lie within a factor 2 of each other: the difference is exact */
    double a = x - dk * P1, b = dk * P2, c = dk * P3, l;
    /* s + e = a - b exactly (Knuth's two-sum) */
    double s = a - b, t = s - a, e = (a - (s - t)) - (b + t);
    /* |s| < 2^-10, cancellation: k P3 reaches beyond s's last bit, take s - c exactly too
     * (|c| < 2^-48; otherwise it only enters l, whose rounding stays below 2^-100) */
    if (abs_bits(s) < 0x3f50000000000000u) {
        double s2 = s - c, t2 = s2 - s;
        e += (s - (s2 - t2)) - (c + t2);
        s = s2;
        c = 0;
    }
    l = (e - c) - dk * P4;
    *hi = s + l;
    *lo = l - (*hi - s);
    return (unsigned long)k & 3u;
}

/* Taylor coefficients (-1)^j / (2j+3)! of sin and (-1)^j / (2j+4)! of cos, each the double
 * nearest (the compiler divides exactly and rounds once). Terms up to r^17 and r^18: for
 * |r| <= pi/4 the first omitted ones are below 2^-62 and 2^-67 relative. */
static const double SC[8] = {
    -1.0 / 6.0, 1.0 / 120.0, -1.0 / 5040.0, 1.0 / 362880.0, -1.0 / 39916800.0,
    1.0 / 6227020800.0, -1.0 / 1307674368000.0, 1.0 / 355687428096000.0,
};
static const double CC[8] = {
    1.0 / 24.0, -1.0 / 720.0, 1.0 / 40320.0, -1.0 / 3628800.0, 1.0 / 479001600.0,
    -1.0 / 87178291200.0, 1.0 / 20922789888000.0, -1.0 / 6402373705728000.0,
};

/* c[0] + z c[1] + ... + z^7 c[7] (Horner; a loop: on a soft-float target every operation is a
 * call, and the loop is a third of the unrolled code) */
static double poly8(const double *c, double z)
{
    double p = c[7];
    int i;
    for (i = 6; i >= 0; i--) p = c[i] + z * p;
    return p;
}

/* sin(hi + lo) for |hi| <= pi/4 + a little, with lo cos(hi) ~ lo (1 - hi^2/2) */
static double ksin(double hi, double lo)
{
    double z = hi * hi;
    return hi + (hi * z * poly8(SC, z) + lo * (1.0 - 0.5 * z));
}

/* cos(hi + lo) with lo sin(hi) ~ lo hi; 1 - z/2 is formed with its rounding error recovered
 * (exact: 1 >= z/2 >= 0) */
static double kcos(double hi, double lo)
{
    double z = hi * hi, hz = 0.5 * z, w = 1.0 - hz;
    return w + (((1.0 - w) - hz) + (z * z * poly8(CC, z) - hi * lo));
}

/* sin(x + j pi/2): sin for j = 0, cos for j = 1 (one body for both: flash) */
static double sin_shifted(double x, unsigned j)
{
    double hi, lo, r;
    uint64_t ax = abs_bits(x);
    if (ax > abs_bits(MB_MATH_TRIG_MAX)) return NAN;    /* NaN, Inf, or outside the domain */
    if (ax == 0 && j == 0) return x;                    /* sin(-0) = -0 */
    j += reduce(x, &hi, &lo);
    r = (j & 1u) ? kcos(hi, lo) : ksin(hi, lo);
    return (j & 2u) ? -r : r;
}

double mb_math_sin(double x)
{
    return sin_shifted(x, 0);
}

double mb_math_cos(double x)
{
    return sin_shifted(x, 1);
}

/* Scaled by a power of two (exact) when x^2 could overflow or y^2 matter while underflowing:
 * then sqrt(x^2 + y^2) rounds twice plus once, within 1.5 ulp. */
double mb_math_hypot(double x, double y)
{
    uint64_t ax = abs_bits(x), ay = abs_bits(y), inf = abs_bits(INFINITY);
    double e;
    if (ax == inf || ay == inf) return INFINITY;
    if (ax < ay) {              /* x: the larger magnitude (a NaN stays where it is: NaN out) */
        e = x;
        x = y;
        y = e;
        ax = ay;
    }
    /* x > 2^500: y^2 may underflow then, but y < 2^-422 x is below x's last bit */
    e = ax > abs_bits(0x1p500) ? 0x1p-600 : ax < abs_bits(0x1p-500) ? 0x1p600 : 1.0;
    x *= e;
    y *= e;
    return sqrt(x * x + y * y) / e;
}
