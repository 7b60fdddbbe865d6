/* test_math.c - the accuracy of runtime/mb_math.c (our sin, cos, hypot for embedded double
 * builds), measured in ulps against long double sinl/cosl/hypotl over the documented domain:
 * random arguments (uniform and log-uniform), the doubles nearest k pi/2 (where the reduction
 * cancels most) and (k + 1/2) pi/2 (where k may round either way), the domain's edges; NaN
 * beyond the domain and for NaN/Inf. Prints the maxima docs/embedding.md reports. Negative
 * controls: the same measure finds the error of a one-part reduction x - k (double)(pi/2) on
 * the hard arguments, and of a result two ulps off. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include "check.h"
#include "mb_math.h"
/* the sine cache in a build with our sin and cos (check_trig_cache) */
#define MB_MATH_HEADER "mb_math.h"
#include "mb_trig.h"

/* the bounds the functions are documented to meet (mb_math.h, docs/embedding.md). hypot: x^2 +
 * y^2 within 2 u relative (three roundings), sqrt halves that and rounds once: 1.5 ulp at most */
#define BOUND_ULP 1.0
#define BOUND_HYPOT 1.5

/* |got - ref| in ulps of the double nearest ref (subnormal spacing below the normal range) */
static double ulps(double got, long double ref)
{
    int e;
    if (isnan(got) || isinf(got)) return INFINITY;
    if (ref == 0) return got == 0 ? 0 : INFINITY;
    e = ilogbl(ref);
    if (e < -1022) e = -1022;
    return (double)(fabsl((long double)got - ref) / ldexpl(1.0L, e - 52));
}

/* xorshift64*: a reproducible stream of uniform doubles in [0, 1) */
static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static double uniform(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 0x2545f4914f6cdd1du) >> 11) * 0x1p-53;
}

struct maxerr { double ulp, at; long n; };
static void note(struct maxerr *m, double e, double x)
{
    if (e > m->ulp || m->n == 0) { m->ulp = e; m->at = x; }
    m->n++;
}

static void trig_at(struct maxerr *s, struct maxerr *c, double x)
{
    note(s, ulps(mb_math_sin(x), sinl((long double)x)), x);
    note(c, ulps(mb_math_cos(x), cosl((long double)x)), x);
}

static const long double PIO2L = 1.570796326794896619231321691639751442L;

/* a reduction with pi/2 in one double: what a naive sin would do (negative control) */
static double naive_sin(double x)
{
    double k = nearbyint(x / (double)PIO2L), r = x - k * (double)PIO2L;
    long double s = (fmod(fabs(k), 2.0) == 0) ? sinl(r) : cosl(r);
    if (fmod(fabs(k), 4.0) >= 2.0) s = -s;
    return (double)s;
}

static void report(const char *what, const struct maxerr *m)
{
    printf("%-34s %8ld args, max %.3f ulp at %.17g\n", what, m->n, m->ulp, m->at);
}

#if MB_WITH_TRIG_CACHE
/* The sine cache (mb_trig.h) of a build that supplies its own sin and cos (here mb_math.h's, as
 * -DMB_MATH_HEADER selects them): an entry's grid pair at x0 = k / 64 is those functions' values,
 * never the table of libm's (mb_trig_table.h), on both sides of the table's end (16 rad) and at
 * negative angles. */
static void check_trig_cache(void)
{
    int bad = 0, k0 = 0;
    for (int k = -1100; k <= 1100; k++) {
        double x0 = k / 64.0, tc[MB_TRIG_ENTRY];
        for (int i = 0; i < MB_TRIG_ENTRY; i++) tc[i] = NAN;
        (void)mb_sin_near(x0 + 0.001, tc, 0);
        if (!(tc[0] == x0 && tc[1] == mb_math_sin(x0) && tc[2] == mb_math_cos(x0))) {
            if (!bad) k0 = k;
            bad++;
        }
    }
    CHECK(bad == 0, "sine cache with our sin/cos: %d grid pairs of 2201 not theirs (first k = %d, x0 = k / 64)",
          bad, k0);
}
#endif

int main(void)
{
    const double MAX = MB_MATH_TRIG_MAX;
    struct maxerr s = {0, 0, 0}, c = {0, 0, 0}, sh = {0, 0, 0}, ch = {0, 0, 0};
    struct maxerr nv = {0, 0, 0}, off = {0, 0, 0}, h = {0, 0, 0};
    static const double ranges[] = {0.785398, 8.0, 1000.0, 1.0e5, 1.6e6};
    long i, k;
    int r, d;

    (void)check_close;
#if MB_WITH_TRIG_CACHE
    check_trig_cache();
#endif

    /* uniform in [-R, R] for each R, and log-uniform magnitudes 2^-40 .. MAX */
    for (r = 0; r < (int)(sizeof ranges / sizeof ranges[0]); r++)
        for (i = 0; i < 200000; i++) trig_at(&s, &c, ranges[r] * (2.0 * uniform() - 1.0));
    for (i = 0; i < 400000; i++) {
        double x = ldexp(1.0, -40) * pow(MAX / ldexp(1.0, -40), uniform());
        trig_at(&s, &c, uniform() < 0.5 ? -x : x);
    }
    report("sin, random in the domain", &s);
    report("cos, random in the domain", &c);
    CHECK(s.ulp <= BOUND_ULP, "sin: %.3f ulp at %.17g (bound %.1f)", s.ulp, s.at, BOUND_ULP);
    CHECK(c.ulp <= BOUND_ULP, "cos: %.3f ulp at %.17g (bound %.1f)", c.ulp, c.at, BOUND_ULP);

    /* the doubles nearest k pi/2 and their neighbours: sin or cos nearly zero, the reduction
     * cancels all leading bits. Every k up to 2^16, then a stride to the domain's end. */
    for (k = 1; k <= 1048576; k += (k < 65536 ? 1 : 61)) {
        double x = (double)(k * PIO2L);
        for (d = -2; d <= 2; d++) {
            double y = x;
            int j;
            for (j = 0; j < (d < 0 ? -d : d); j++) y = nextafter(y, d < 0 ? 0.0 : 2.0 * MAX);
            if (y > MAX) continue;
            trig_at(&sh, &ch, y);
            trig_at(&sh, &ch, -y);
            if (d == 0) note(&nv, ulps(naive_sin(y), sinl((long double)y)), y);
        }
    }
    /* the quadrant boundaries (k + 1/2) pi/2, where k may round either way */
    for (k = 0; k <= 4096; k++) {
        double x = (double)((k + 0.5L) * PIO2L);
        for (d = -3; d <= 3; d++) {
            double y = x;
            int j;
            for (j = 0; j < (d < 0 ? -d : d); j++) y = nextafter(y, d < 0 ? 0.0 : 2.0 * MAX);
            trig_at(&sh, &ch, y);
            trig_at(&sh, &ch, -y);
        }
    }
    report("sin, nearest k pi/2 (hard cases)", &sh);
    report("cos, nearest k pi/2 (hard cases)", &ch);
    report("control: one-part reduction", &nv);
    CHECK(sh.ulp <= BOUND_ULP, "sin hard cases: %.3f ulp at %.17g", sh.ulp, sh.at);
    CHECK(ch.ulp <= BOUND_ULP, "cos hard cases: %.3f ulp at %.17g", ch.ulp, ch.at);
    CHECK(nv.ulp > 1e3, "negative control: a one-part reduction measures only %.3f ulp", nv.ulp);

    /* a result one ulp off is seen as such by the measure (negative control) */
    for (i = 0; i < 100000; i++) {
        double x = 8.0 * (2.0 * uniform() - 1.0), y = mb_math_sin(x);
        note(&off, ulps(nextafter(nextafter(y, 2.0), 2.0), sinl((long double)x)), x);
    }
    CHECK(off.ulp > BOUND_ULP, "negative control: sin two ulps up measures %.3f ulp", off.ulp);

    /* domain edges, signs, special values */
    CHECK(ulps(mb_math_sin(MAX), sinl((long double)MAX)) <= BOUND_ULP, "sin(MAX)");
    CHECK(ulps(mb_math_cos(-MAX), cosl((long double)-MAX)) <= BOUND_ULP, "cos(-MAX)");
    CHECK(isnan(mb_math_sin(nextafter(MAX, 2.0 * MAX))), "sin beyond the domain is NaN");
    CHECK(isnan(mb_math_cos(-nextafter(MAX, 2.0 * MAX))), "cos beyond the domain is NaN");
    CHECK(isnan(mb_math_sin(INFINITY)) && isnan(mb_math_cos(-INFINITY)), "sin/cos(Inf) NaN");
    CHECK(isnan(mb_math_sin(NAN)) && isnan(mb_math_cos(NAN)), "sin/cos(NaN) NaN");
    CHECK(mb_math_sin(-0.0) == 0 && signbit(mb_math_sin(-0.0)), "sin(-0) = -0");
    CHECK(mb_math_cos(0.0) == 1.0 && mb_math_cos(-0.0) == 1.0, "cos(0) = 1");
    CHECK(mb_math_sin(0x1p-1074) == 0x1p-1074, "sin of the smallest subnormal");

    /* hypot: magnitudes 2^-1074 .. 2^1023 for each coordinate, independent */
    for (i = 0; i < 400000; i++) {
        double x = ldexp(1.0 + uniform(), (int)(uniform() * 2096) - 1075);
        double y = (i % 4 == 0) ? ldexp(1.0 + uniform(), (int)(uniform() * 2096) - 1075)
                                : x * ldexp(1.0 + uniform(), (int)(uniform() * 120) - 60);
        if (isinf(y)) continue;
        if (i % 3 == 1) x = -x;
        note(&h, ulps(mb_math_hypot(x, y), hypotl((long double)x, (long double)y)), x);
    }
    report("hypot, random over all finite", &h);
    CHECK(h.ulp <= BOUND_HYPOT, "hypot: %.3f ulp at x = %.17g", h.ulp, h.at);
    CHECK(mb_math_hypot(3.0, -4.0) == 5.0, "hypot(3, -4) = 5");
    CHECK(isinf(mb_math_hypot(DBL_MAX, DBL_MAX)), "hypot(DBL_MAX, DBL_MAX) overflows");
    CHECK(mb_math_hypot(DBL_MAX, 1.0) == DBL_MAX, "hypot(DBL_MAX, 1)");
    CHECK(mb_math_hypot(0.0, -0.0) == 0.0, "hypot(0, -0)");
    CHECK(isinf(mb_math_hypot(NAN, INFINITY)) && isinf(mb_math_hypot(-INFINITY, NAN)),
          "hypot: Inf wins over NaN");
    CHECK(isnan(mb_math_hypot(NAN, 1.0)), "hypot(NaN, 1) NaN");
    return check_report();
}
