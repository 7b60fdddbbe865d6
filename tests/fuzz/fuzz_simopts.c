/* fuzz_simopts.c - libFuzzer target: the simulator's command line (tools/mb_sim_main.c with
 * the pendulum fixture), one argument per input line. Runs are bounded (mb_sim_step is wrapped:
 * at most FUZZ_STEPS steps; iteration limits capped). A finding: a crash, a sanitizer report or
 * a broken contract: exit 0/1 with --out must leave a complete CSV, exit 2 must leave nothing. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mb_sim.h"

#define main sim_cli_main
#include "../../tools/mb_sim_main.c"
#undef main

#define FUZZ_STEPS 200
#define FUZZ_MAX_ITER 50
#define FUZZ_MAX_ARGS 64

/* Linked with -Wl,--wrap=mb_sim_step,--wrap=mb_params_check_checked (the function behind the
 * macro mb_params_check, mb_sim.h). */
int __real_mb_sim_step(mb_sim *s, mb_real t_stop);
int __real_mb_params_check_checked(const mb_params *p, const char **what, unsigned long config,
                                   unsigned long sizes);
static long steps_left;

int __wrap_mb_sim_step(mb_sim *s, mb_real t_stop)
{
    if (steps_left-- <= 0) return MB_ERR_STATE;   /* ends the run as a fault */
    return __real_mb_sim_step(s, t_stop);
}

/* The simulator's own mb_params p is not const: capping the iteration limit is defined. */
int __wrap_mb_params_check_checked(const mb_params *p, const char **what, unsigned long config,
                                   unsigned long sizes)
{
    mb_params *w = (mb_params *)(uintptr_t)p;
    if (w->max_iter > FUZZ_MAX_ITER) w->max_iter = FUZZ_MAX_ITER;
    return __real_mb_params_check_checked(p, what, config, sizes);
}

static char out_path[512];
static char out_eq[520];   /* "--out=" out_path */

/* 1 if path holds a CSV: a header starting with "t," and rows with as many fields. */
static int csv_complete(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int c, fields = 1, header = -1, ok = 1, first = 1, col0 = 1;
    char start[3] = {0};
    long pos = 0;
    while ((c = fgetc(f)) != EOF) {
        if (first && pos < 2) start[pos] = (char)c;
        pos++;
        if (c == ',') fields++;
        else if (c == '\n') {
            if (first) { header = fields; first = 0; }
            else if (fields != header) ok = 0;
            fields = 1;
            col0 = 1;
            continue;
        }
        col0 = 0;
    }
    fclose(f);
    return ok && !first && col0 && strcmp(start, "t,") == 0;
}

static char work_dir[64];
static void remove_work_dir(void)   /* at the end of the bounded run */
{
    remove(out_path);
    rmdir(work_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    snprintf(work_dir, sizeof work_dir, "/tmp/mb_sim_fuzz.XXXXXX");
    if (!mkdtemp(work_dir)) abort();
    snprintf(out_path, sizeof out_path, "%s/out.csv", work_dir);
    snprintf(out_eq, sizeof out_eq, "--out=%s", out_path);
    atexit(remove_work_dir);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1), *argv[FUZZ_MAX_ARGS + 2];
    int argc = 0, has_out = 0, help = 0;
    if (!buf) return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    argv[argc++] = "fixture_pendulum_sim";
    for (char *p = buf; p && argc <= FUZZ_MAX_ARGS; ) {
        char *nl = memchr(p, '\n', (size_t)(buf + size - p));
        if (nl) *nl = '\0';
        /* the value after --out, or of --out=, is always the sandbox file (the fuzzer writes
         * nowhere else) */
        argv[argc] = argc > 1 && strcmp(argv[argc - 1], "--out") == 0 ? (has_out = 1, out_path) : p;
        if (strncmp(p, "--out=", 6) == 0) {
            has_out = 1;
            argv[argc] = out_eq;
        }
        help |= strcmp(argv[argc], "--help") == 0 || strcmp(argv[argc], "-h") == 0;
        argc++;
        p = nl ? nl + 1 : NULL;
    }
    argv[argc] = NULL;
    remove(out_path);
    steps_left = FUZZ_STEPS;
    int rc = sim_cli_main(argc, argv);
    int exists = access(out_path, F_OK) == 0;
    if (rc < 0 || rc > 2) {
        fprintf(stderr, "fuzz_simopts: exit status %d\n", rc);
        abort();
    }
    if (rc == 2 && exists) {
        fprintf(stderr, "fuzz_simopts: a command-line error left %s\n", out_path);
        abort();
    }
    if (rc == 0 && has_out && !help && (!exists || !csv_complete(out_path))) {
        fprintf(stderr, "fuzz_simopts: exit 0 but the CSV is %s\n", exists ? "incomplete" : "missing");
        abort();
    }
    if (rc == 1 && exists && !csv_complete(out_path)) {
        fprintf(stderr, "fuzz_simopts: a fault left an incomplete CSV\n");
        abort();
    }
    fflush(stdout);
    remove(out_path);
    free(buf);
    return 0;
}
