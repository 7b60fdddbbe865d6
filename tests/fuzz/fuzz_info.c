/* fuzz_info.c - libFuzzer target: the drawing info file reader (tools/mb_info_read.c, through
 * the bounded line reader tools/mb_lines.c), the input read as the file. A finding: a crash, a
 * sanitizer report or a broken contract: a file accepted must hold only what the animation tool
 * may index blindly (every index in range, every name 1..255 bytes without control characters,
 * no named point on a particle, a version 2 rod's body end a particle); a file refused must say
 * why, starting with its name. */
#define _POSIX_C_SOURCE 200809L /* fmemopen */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mb_info.h"

#define NAME "fuzz.info"

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_info: broken contract: %s\n", what);
        abort();
    }
}

static void check_accepted(const mb_info *f, int version)
{
    int i;
    check(f->model && mb_info_name_ok(f->model), "the model's name");
    check(f->nbody >= 0 && f->npoint >= 0 && f->nspring >= 0 && f->njoint >= 0 && f->nrod >= 0,
          "counts");
    for (i = 0; i < f->nbody; i++) {
        check(mb_info_name_ok(f->body[i]), "a body's name");
        check(f->particle[i] == 0 || (version == 2 && f->particle[i] == 1), "a particle flag");
    }
    for (i = 0; i < f->npoint; i++) {
        int b = f->point_body[i];
        check(mb_info_name_ok(f->point[i]), "a point's name");
        check(b >= -1 && b < f->nbody, "a point's body");
        check(b < 0 || !f->particle[b], "a named point on a particle");
    }
    for (i = 0; i < 2 * f->nspring; i++) check(f->spring[i] >= 0 && f->spring[i] < f->npoint, "a spring end");
    for (i = 0; i < 2 * f->njoint; i++) check(f->joint[i] >= 0 && f->joint[i] < f->npoint, "a joint end");
    for (i = 0; i < 2 * f->nrod; i++) {
        int e = f->rod[i];
        check(e >= -f->nbody && e < f->npoint, "a rod end");
        check(e >= 0 || version < 2 || f->particle[-1 - e], "a rod's body end not a particle");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[4400];
    mb_info f;
    int rc, version;
    /* fmemopen may refuse a size of 0: the empty file is /dev/null */
    FILE *in = size ? fmemopen((void *)(uintptr_t)data, size, "r") : fopen("/dev/null", "r");
    if (!in) return 0;
    err[0] = '\0';
    rc = mb_info_read_stream(in, NAME, &f, err, sizeof err);
    fclose(in);
    version = size >= 8 && memcmp(data, "mbinfo 2", 8) == 0 ? 2 : 1;
    if (rc == 0) {
        check_accepted(&f, version);
        /* accepted: the text was complete (a line break at the end, no NUL byte) */
        check(size > 0 && data[size - 1] == '\n' && !memchr(data, '\0', size), "an accepted file's text");
    } else {
        check(rc == -1, "the return value");
        check(strncmp(err, NAME ":", strlen(NAME ":")) == 0 && err[strlen(NAME) + 1] != '\0',
              "a message naming the file");
    }
    mb_info_free(&f);
    return 0;
}
