/* mcu_math.c - sin, cos and hypot written in plain IEEE arithmetic, linked into BOTH the host and the
 * target build of the bit-comparison tests. Layer: test infrastructure, never firmware.
 * Why: glibc's and newlib/picolibc's sin/cos differ in the last bit for ~3% of double and ~10% of
 * float arguments (measured by scripts/mcu/libm_probe.c), which would hide every other difference.
 * With one shared sin/cos, the remaining arithmetic must match bit for bit. Build with
 * -ffp-contract=off -fno-builtin; accurate to about 1 ulp for |x| < 1.6e6 (beyond, the
 * reduction below loses accuracy but stays deterministic). */
#include <math.h>

/* pi/2 as a sum of three doubles; the first two have 33 significant bits so that k * PIO2_1 and
 * k * PIO2_2 are exact for |k| < 2^20 (values computed from 80 digits of pi). */
static const double PIO2_1 = 0x1.921fb544p+0;
static const double PIO2_2 = 0x1.0b4611a6p-34;
static const double PIO2_3 = 0x1.3198a2e037073p-69;
static const double TWO_OVER_PI = 0x1.45f306dc9c883p-1;

/* Taylor coefficients (-1)^k / (2k+1)! and (-1)^k / (2k)!, rounded to double; for |r| <= pi/4
 * the first omitted terms are below 1e-21 relative. */
static const double S[10] = {
    -0x1.5555555555555p-3,  0x1.1111111111111p-7,  -0x1.a01a01a01a01ap-13, 0x1.71de3a556c734p-19,
    -0x1.ae64567f544e4p-26, 0x1.6124613a86d09p-33, -0x1.ae7f3e733b81fp-41, 0x1.952c77030ad4ap-49,
    -0x1.2f49b46814157p-57, 0x1.71b8ef6dcf572p-66,
};
static const double C[10] = {
    -0x1p-1,                0x1.5555555555555p-5,  -0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-16,
    -0x1.27e4fb7789f5cp-22, 0x1.1eed8eff8d898p-29, -0x1.93974a8c07c9dp-37, 0x1.ae7f3e733b81fp-45,
    -0x1.6827863b97d97p-53, 0x1.e542ba4020225p-62,
};

static double poly_sin(double r)
{
    double z = r * r, p = S[9];
    int i;
    for (i = 8; i >= 0; i--) p = S[i] + z * p;
    return r + r * z * p;
}

static double poly_cos(double r)
{
    double z = r * r, p = C[9];
    int i;
    for (i = 8; i >= 0; i--) p = C[i] + z * p;
    return 1.0 + z * p;
}

/* x = k pi/2 + r with |r| <= pi/4 (about); returns r, *quadrant = k mod 4. */
static double reduce(double x, int *quadrant)
{
    double fk = x * TWO_OVER_PI;
    long k = (long)(fk + (fk >= 0.0 ? 0.5 : -0.5));
    double dk = (double)k;
    *quadrant = (int)(k & 3);
    return ((x - dk * PIO2_1) - dk * PIO2_2) - dk * PIO2_3;
}

double sin(double x)
{
    int q;
    double r;
    if (x != x || x - x != 0.0) return x - x;   /* NaN or infinity: NaN */
    r = reduce(x, &q);
    switch (q) {
    case 0: return poly_sin(r);
    case 1: return poly_cos(r);
    case 2: return -poly_sin(r);
    default: return -poly_cos(r);
    }
}

double cos(double x)
{
    int q;
    double r;
    if (x != x || x - x != 0.0) return x - x;
    r = reduce(x, &q);
    switch (q) {
    case 0: return poly_cos(r);
    case 1: return -poly_sin(r);
    case 2: return -poly_cos(r);
    default: return poly_sin(r);
    }
}

/* Single precision through double: one extra rounding, identical on every IEEE machine. */
float sinf(float x)
{
    return (float)sin((double)x);
}

float cosf(float x)
{
    return (float)cos((double)x);
}

/* hypot (a spring's length, generated code since issue 13.5) the same on both sides: the
 * scaled formula in plain IEEE arithmetic (sqrt is correctly rounded everywhere); libm
 * implementations of hypot differ in the last bit. */
double hypot(double x, double y)
{
    x = fabs(x);
    y = fabs(y);
    if (isinf(x) || isinf(y)) return INFINITY;
    if (isnan(x) || isnan(y)) return x + y;
    if (x < y) {
        double t = x;
        x = y;
        y = t;
    }
    if (x == 0.0) return 0.0;
    double r = y / x;
    return x * sqrt(1.0 + r * r);
}

float hypotf(float x, float y)
{
    return (float)hypot((double)x, (double)y);
}
