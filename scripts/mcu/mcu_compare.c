/* mcu_compare.c - compare the "V <name> <hex>" lines of a host run and a target run by bits.
 * Layer: host-side test tool of the MCU tests. Hex is the IEEE bit pattern: 16 digits for double,
 * 8 for float. Usage: mcu_compare [--ulps N] [--rel TOL] [--label TEXT] HOST.txt TARGET.txt
 * A value passes if its ulp distance <= N (default 0: bit-identical) or, with --rel, if
 * |a - b| <= TOL * max(1, |a|, |b|). Prints one summary line; exit 0 pass, 1 fail, 2 bad input. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char name[64];
    char hex[24];
} value;

/* Read every "V name hex" line; returns the count, -1 on error. */
static int read_values(const char *path, value *v, int cap)
{
    char line[256];
    int n = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        if (line[0] != 'V' || line[1] != ' ') continue;
        if (n == cap || sscanf(line + 2, "%63s %23s", v[n].name, v[n].hex) != 2) {
            fprintf(stderr, "%s: bad or too many value lines\n", path);
            fclose(f);
            return -1;
        }
        n++;
    }
    fclose(f);
    return n;
}

/* Map the bit pattern to an integer that is monotonic in the real value, for ulp distances. */
static int64_t ordered(uint64_t bits, int width)
{
    uint64_t sign = width == 16 ? (uint64_t)1 << 63 : (uint64_t)1 << 31;
    return (bits & sign) ? -(int64_t)(bits & (sign - 1)) : (int64_t)bits;
}

static double to_double(uint64_t bits, int width)
{
    if (width == 16) {
        double d;
        memcpy(&d, &bits, sizeof d);
        return d;
    } else {
        uint32_t b = (uint32_t)bits;
        float f;
        memcpy(&f, &b, sizeof f);
        return f;
    }
}

int main(int argc, char **argv)
{
    static value a[8192], b[8192];
    long long max_ulps = 0, tol_ulps = 0;
    double tol_rel = -1.0, max_rel = 0.0;
    const char *label = "compare", *worst = "-";
    int i, na, nb, same = 0, bad = 0, argi = 1;

    while (argi + 1 < argc && argv[argi][0] == '-') {
        if (!strcmp(argv[argi], "--ulps")) tol_ulps = atoll(argv[argi + 1]);
        else if (!strcmp(argv[argi], "--rel")) tol_rel = atof(argv[argi + 1]);
        else if (!strcmp(argv[argi], "--label")) label = argv[argi + 1];
        else break;
        argi += 2;
    }
    if (argc - argi != 2) {
        fprintf(stderr, "usage: mcu_compare [--ulps N] [--rel TOL] [--label TEXT] HOST TARGET\n");
        return 2;
    }
    na = read_values(argv[argi], a, 8192);
    nb = read_values(argv[argi + 1], b, 8192);
    if (na < 0 || nb < 0) return 2;
    if (na != nb || na == 0) {
        printf("%s: FAIL value count host %d target %d\n", label, na, nb);
        return 1;
    }
    for (i = 0; i < na; i++) {
        int w = (int)strlen(a[i].hex);
        uint64_t x = strtoull(a[i].hex, NULL, 16), y = strtoull(b[i].hex, NULL, 16);
        double dx, dy, s, rel;
        long long u;
        if (strcmp(a[i].name, b[i].name) || w != (int)strlen(b[i].hex) || (w != 16 && w != 8)) {
            printf("%s: FAIL line %d: host %s/%s target %s/%s\n", label, i + 1, a[i].name,
                   a[i].hex, b[i].name, b[i].hex);
            return 1;
        }
        if (x == y) {
            same++;
            continue;
        }
        u = llabs((long long)(ordered(x, w) - ordered(y, w)));
        dx = to_double(x, w);
        dy = to_double(y, w);
        s = fmax(1.0, fmax(fabs(dx), fabs(dy)));
        rel = fabs(dx - dy) / s;
        if (rel != rel) rel = INFINITY;  /* NaN on one side */
        if (u > max_ulps) max_ulps = u;
        if (rel > max_rel) {
            max_rel = rel;
            worst = a[i].name;
        }
        if (u > tol_ulps && !(tol_rel >= 0.0 && rel <= tol_rel)) bad++;
    }
    printf("%s: %s %d values, %d bit-identical, max %lld ulp, max rel %.3g (%s)\n", label,
           bad ? "FAIL" : "ok", na, same, max_ulps, max_rel, worst);
    return bad ? 1 : 0;
}
