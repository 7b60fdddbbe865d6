/* fuzz_sweep_table.c - libFuzzer target: the sweep table reader (tools/mb_sweep_table.c, the one
 * build/mb_sweep runs for GNU parallel and Slurm alike) on arbitrary bytes. A finding: a crash,
 * a sanitizer report or a broken contract:
 *  - refused (2): one message line, printable (no byte below 0x20, no 0x7f: a byte-order mark
 *    or a CR in the table is shown escaped), naming the file;
 *  - read (0): at least one column and one row, names identifiers given once, values non-empty
 *    and made of [-+.0-9A-Za-z_] (nothing a shell or an option parser takes for more); the
 *    normalized text read again gives the same text; every row's options are two lines per
 *    column, the first of each pair an option (--set, --h, ...). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mb_sweep_table.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)

static int identifier(const char *s)
{
    if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_')) return 0;
    for (s++; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mb_sweep_table t;
    char err[2400];
    int rc = mb_sweep_table_read((const char *)data, size, "t.csv", &t, err, sizeof err);
    CHECK(rc == 0 || rc == 2);
    if (rc == 2) {
        CHECK(!strncmp(err, "t.csv", 5) && err[5] != 0);
        for (const char *p = err; *p; p++) CHECK((unsigned char)*p >= 0x20 && *p != 0x7f);
        CHECK(t.ncol == 0 && t.nrow == 0 && !t.name && !t.cell && !t.store);
        return 0;
    }
    CHECK(t.ncol >= 1 && t.nrow >= 1);
    for (int c = 0; c < t.ncol; c++) {
        CHECK(identifier(t.name[c]) && strlen(t.name[c]) <= MB_SWEEP_MAX_CELL);
        for (int d = 0; d < c; d++) CHECK(strcmp(t.name[c], t.name[d]) != 0);
    }
    for (long i = 0; i < t.nrow * t.ncol; i++) {
        const char *v = t.cell[i];
        CHECK(*v && strlen(v) <= MB_SWEEP_MAX_CELL && strspn(v, "-+.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                               "abcdefghijklmnopqrstuvwxyz_") == strlen(v));
    }
    size_t n, m;
    char *text = mb_sweep_table_text(&t, &n);
    CHECK(text && n > 0 && text[n - 1] == '\n');
    mb_sweep_table u;
    CHECK(mb_sweep_table_read(text, n, "t.csv", &u, err, sizeof err) == 0);
    char *again = mb_sweep_table_text(&u, &m);
    CHECK(again && m == n && !memcmp(text, again, n) && u.nrow == t.nrow && u.ncol == t.ncol);
    free(again);
    mb_sweep_table_free(&u);
    free(text);
    for (long r = 0; r < t.nrow; r++) {
        char *o = mb_sweep_row_options(&t, r, &n);
        CHECK(o && n > 0 && o[n - 1] == '\n');
        int lines = 0;
        for (char *p = o, *q; p < o + n; p = q + 1, lines++) {
            q = memchr(p, '\n', (size_t)(o + n - p));
            CHECK(q && q > p);
            if (lines % 2 == 0) CHECK(p[0] == '-' && p[1] == '-');
        }
        CHECK(lines == 2 * t.ncol);
        free(o);
    }
    mb_sweep_table_free(&t);
    return 0;
}
