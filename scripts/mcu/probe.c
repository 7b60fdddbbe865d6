/* probe.c - where a Cortex-M build can differ from the host for reasons outside our code: the
 * toolchain's libm (sin, cos, sqrt in double and float) and libgcc's soft-float double addition.
 * Layer: diagnostic program for scripts/mcu/probe.sh (not a pass/fail test); prints "V" lines
 * named by kind so the two outputs can be compared line by line. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "mcu_port.h"

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A double with the given unbiased exponent, random significand and sign. */
static double make(int e, uint64_t frac, int negative)
{
    uint64_t b = ((uint64_t)(negative != 0) << 63) | ((uint64_t)(1023 + e) << 52) |
                 (frac & 0xFFFFFFFFFFFFFull);
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

int main(void)
{
    int k, d;
    for (k = 0; k < 3000; k++) {         /* libm on [-10, 10] */
        double x = ((double)(next() >> 11) * (1.0 / 9007199254740992.0) - 0.5) * 20.0;
        mcu_put_f64("sin", k, sin(x));
        mcu_put_f64("cos", k, cos(x));
        mcu_put_f64("sqrt", k, sqrt(fabs(x)));
        mcu_put_f32("sinf", k, sinf((float)x));
        mcu_put_f32("cosf", k, cosf((float)x));
    }
    /* 1 + b and (1 + small) + b with b negative, exponents d apart (effective subtraction) */
    for (d = 1; d < 60; d++)
        for (k = 0; k < 40; k++) {
            uint64_t r1 = next(), r2 = next();
            double a = make(0, k < 20 ? 0 : (r1 & 0xff), 0), b = make(-d, r2, 1);
            mcu_put_f64(d == 33 ? "dadd33" : "dadd", d * 100 + k, a + b);
        }
    return 0;
}
