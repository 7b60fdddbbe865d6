/* trig_table.c - writes runtime/mb_trig_table.h, the sine cache's grid values (runtime/mb_trig.h):
 * sin and cos of k / 64 rad for k = 0 .. MB_TRIG_TABLE_N, from this machine's libm, as hex
 * literals (exact). Refuses (exit 1) when libm's sin is not odd or its cos not even on the grid,
 * which the table's use of -k relies on. Not part of the build: run by hand when the table is
 * to change,
 *   cc -O2 scripts/trig_table.c -lm -o /tmp/trig_table && /tmp/trig_table > runtime/mb_trig_table.h
 * The committed table was made on Debian 12's glibc 2.36 (x86-64). */
#include <math.h>
#include <stdio.h>

#define N 1024

int main(void)
{
    printf("/* mb_trig_table.h - sin and cos of k / 64 rad, k = 0 .. MB_TRIG_TABLE_N, libm's values (glibc 2.36,\n"
           " * x86-64) as exact hex literals: the sine cache's grid pairs (runtime/mb_trig.h), which a miss\n"
           " * there loads instead of calling libm. Written by scripts/trig_table.c; do not edit. */\n"
           "#ifndef MB_TRIG_TABLE_H\n#define MB_TRIG_TABLE_H\n\n"
           "#define MB_TRIG_TABLE_N %d\n\n"
           "/* [2 k] sin(k / 64), [2 k + 1] cos(k / 64); the array inside a static inline function, so\n"
           " * that a file which includes this header (through mb_model.h) and never reads the table\n"
           " * carries none of it: GCC keeps an unused static const array at -O0 (-fkeep-static-consts),\n"
           " * but no function of a file that does not call it */\n"
           "static inline const double *mb_trig_table(void)\n{\n"
           "    static const double t[2 * (MB_TRIG_TABLE_N + 1)] = {\n", N);
    for (int k = 0; k <= N; k++) {
        double x = k / 64.0, s = sin(x), c = cos(x);
        if (sin(-x) != -s || cos(-x) != c) {
            fprintf(stderr, "trig_table: libm's sin is not odd or cos not even at %d / 64\n", k);
            return 1;
        }
        printf("        %a, %a,\n", s, c);
    }
    printf("    };\n    return t;\n}\n\n#endif /* MB_TRIG_TABLE_H */\n");
    return 0;
}
