/* test_progress.c - the progress bar: silent for short runs and when disabled, rate-limited,
 * erased at the end, and its text (bar, percentage, time left) right for given fractions.
 * Layer: test of tools/mb_progress.c; writes into a temporary file instead of a terminal. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "mb_progress.h"

/* Everything written to f so far, as a string in buf. */
static const char *contents(FILE *f, char *buf, size_t n)
{
    size_t k;
    fflush(f);
    rewind(f);
    k = fread(buf, 1, n - 1, f);
    buf[k] = '\0';
    fseek(f, 0, SEEK_END);
    return buf;
}

static int count_char(const char *s, char c)
{
    int n = 0;
    for (; *s; s++) n += *s == c;
    return n;
}

int main(void)
{
    char line[128], buf[4096];
    mb_progress p;
    FILE *f = tmpfile();
    double w0;
    int len;

    (void)check_close; /* unused here */
    CHECK(f != NULL, "tmpfile");
    if (!f) return check_report();

    /* Text of the bar. */
    len = mb_progress_format(line, (int)sizeof line, 0.5, 0.025, 2.0);
    CHECK(len > 0 && (size_t)len == strlen(line), "length %d", len);
    CHECK(strstr(line, " 50%") != NULL, "half way shows 50%%: %s", line);
    CHECK(count_char(line, '#') == 15, "half of 30 cells filled: %s", line);
    CHECK(strstr(line, "~2.0 s left") != NULL, "time left = elapsed at half way: %s", line);
    CHECK(strstr(line, "t=0.025") != NULL, "simulated time shown: %s", line);
    mb_progress_format(line, (int)sizeof line, 1.0, 1.0, 3.0);
    CHECK(strstr(line, "100%") && count_char(line, '#') == 30 && !strstr(line, "left"),
          "complete bar: %s", line);
    mb_progress_format(line, (int)sizeof line, NAN, 0.0, 0.0);
    CHECK(strstr(line, "  0%") && count_char(line, '#') == 0, "NaN fraction is 0%%: %s", line);
    mb_progress_format(line, (int)sizeof line, 7.0, 0.0, 0.0);
    CHECK(strstr(line, "100%") != NULL, "fraction clipped to 1: %s", line);
    len = mb_progress_format(line, 10, 0.5, 0.0, 1.0);
    CHECK(strlen(line) == 9, "output truncated to the buffer: %d bytes", (int)strlen(line));

    /* Quiet always wins; a test's stderr may or may not be a terminal. */
    CHECK(mb_progress_wanted(1) == 0, "quiet disables the bar");

    /* Nothing during the first second, then a bar, then at most 10 redraws a second. */
    mb_progress_init(&p, f, 0.0, 2.0);
    w0 = p.wall0;
    mb_progress_update_at(&p, 0.5, w0 + 0.5);
    CHECK(contents(f, buf, sizeof buf)[0] == '\0', "silent before 1 s: '%s'", buf);
    mb_progress_update_at(&p, 1.0, w0 + 1.2);
    contents(f, buf, sizeof buf);
    CHECK(buf[0] == '\r' && strstr(buf, " 50%") != NULL, "bar after 1 s: '%s'", buf);
    CHECK(count_char(buf, '\r') == 1, "one draw");
    mb_progress_update_at(&p, 1.1, w0 + 1.25);
    CHECK(count_char(contents(f, buf, sizeof buf), '\r') == 1, "no redraw within 0.1 s");
    mb_progress_update_at(&p, 1.5, w0 + 1.4);
    contents(f, buf, sizeof buf);
    CHECK(count_char(buf, '\r') == 2 && strstr(buf, " 75%") != NULL, "redraw later: '%s'", buf);
    mb_progress_done(&p);
    contents(f, buf, sizeof buf);
    len = (int)strlen(buf);
    CHECK(len >= 4 && strcmp(buf + len - 4, "\r\033[K") == 0, "erased at the end");
    mb_progress_done(&p);
    CHECK((int)strlen(contents(f, buf, sizeof buf)) == len, "erased only once");

    /* A short run leaves no trace at all. */
    {
        FILE *g = tmpfile();
        mb_progress q;
        int i;
        mb_progress_init(&q, g, 0.0, 1.0);
        for (i = 0; i < 100000; i++) mb_progress_update(&q, i * 1e-5);
        mb_progress_done(&q);
        CHECK(contents(g, buf, sizeof buf)[0] == '\0', "fast run prints nothing: '%s'", buf);
        CHECK(q.stride > 1, "clock read only every few calls (stride %ld)", q.stride);
        fclose(g);
    }

    /* Disabled (NULL stream): updates and done are harmless no-ops. */
    mb_progress_init(&p, NULL, 0.0, 1.0);
    mb_progress_update_at(&p, 0.5, p.wall0 + 5.0);
    mb_progress_update(&p, 0.6);
    mb_progress_done(&p);
    CHECK(p.shown == 0, "disabled bar never shown");

    fclose(f);
    return check_report();
}
