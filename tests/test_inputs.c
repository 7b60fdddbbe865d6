/* test_inputs.c - inputs and sensors through the C API (runtime/mb_input.c) on the generated
 * cartpole (models/cartpole.lua: input F, sensors x, xdot, theta, thetadot):
 *  - a zero-order-hold table with jumps on the step grid, set with mb_sim_set_input before every
 *    step, equals bit for bit the same table applied by the simulator's code (tools/
 *    mb_input_file.c, which --input-file uses), in alf-trapezoid, rk4 and hht;
 *  - the sensors equal the coordinates and velocities they measure, y alone equals y with the
 *    Jacobians, and the Jacobians have the entries the measures say;
 *  - misuse: a bad index, a non-finite value or slope, a NULL sim, outputs before a reset or of a
 *    model without sensors, descriptors whose input or sensor fields are inconsistent.
 * With --rows FILE.csv it instead writes the alf-trapezoid run of the jump table (t and the
 * coordinates, the simulator's CSV format: %.15g) to FILE.csv, for tests/test_inputs.sh to
 * compare with cartpole_sim --input-file. Ends with "N passed, N failed". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cartpole.h"
#include "check.h"
#include "mb_input_file.h"
#include "mb_sim.h"

/* The jump table: F = FV[j] from step KROW[j] on (h = 1e-3: t = 0, 0.1, 0.3, 0.5 s). The same
 * rows as tests/test_inputs.sh's zoh.csv. */
#define H 1e-3
#define T_END 1.0
static const long KROW[4] = {0, 100, 300, 500};
static const double FV[4] = {0, 2, -1, 0.5};

static double jump_value(long k)
{
    int j = 0;
    while (j < 3 && KROW[j + 1] <= k) j++;
    return FV[j];
}

/* The formulation of each integrator: alf-trapezoid's trapezoid, rk4 on alf-explicit, hht on
 * baumgarte. */
static void *start(mb_sim *s, const mb_model *m, int integ)
{
    mb_params p;
    mb_params_default(&p, integ == MB_RK4 ? MB_ALF_EXPLICIT : integ == MB_HHT ? MB_BAUMGARTE : MB_ALF_TRAPEZOID);
    p.integrator = integ;
    p.h = (mb_real)H;
    size_t ws = mb_sim_workspace_size(m, &p);
    void *w = ws ? malloc(ws) : NULL;
    int st = w ? mb_sim_init(s, m, &p, w, ws) : MB_ERR_WORKSPACE;
    CHECK(st == MB_OK, "init (integrator %d): %s", integ, mb_status_str(st));
    return st == MB_OK ? w : (free(w), NULL);
}

/* The run of the jump table: through mb_sim_set_input (tab NULL) or the simulator's
 * mb_input_table_apply, in the simulator's order (the hold at t = 0 before the assembly, then
 * before every step). Writes every state [rows x 2 nq] to out, returns the rows (-1: failure).
 * f: also the simulator's CSV columns t, q. */
static long run(int integ, mb_input_table *tab, double *out, long maxrows, FILE *f)
{
    const mb_model *m = &cartpole_model;
    int n = m->nq;
    mb_sim_storage s_mem;
    mb_sim *s = mb_sim_of(&s_mem);
    void *w = start(s, m, integ);
    if (!w) return -1;
    long k = 0, rows = 0, bad = 0;
    if (tab) {
        tab->applied = 0;
        mb_input_table_apply(tab, s, 0, 0);
    }
    else mb_sim_set_input(s, CARTPOLE_IN_F, (mb_real)jump_value(0));
    int st = mb_sim_reset(s, 0, NULL, NULL, 1);
    CHECK(st == MB_OK, "reset: %s", mb_status_str(st));
    for (;;) {
        const mb_real *q = mb_sim_get_q(s), *v = mb_sim_get_v(s);
        if (rows < maxrows) {
            for (int i = 0; i < n; i++) {
                out[rows * 2 * n + i] = (double)q[i];
                out[rows * 2 * n + n + i] = (double)v[i];
            }
        }
        rows++;
        if (f) {
            fprintf(f, "%.15g", (double)mb_sim_get_t(s));
            for (int i = 0; i < n; i++) fprintf(f, ",%.15g", (double)q[i]);
            fputc('\n', f);
        }
        if (st < 0 || mb_sim_get_t(s) >= (mb_real)T_END) break;
        if (tab) mb_input_table_apply(tab, s, (double)mb_sim_get_t(s), 0);
        else if (mb_sim_set_input(s, CARTPOLE_IN_F, (mb_real)jump_value(k)) != MB_OK) bad++;
        st = mb_sim_step(s, (mb_real)T_END);
        k++;
    }
    CHECK(st >= 0 && bad == 0, "integrator %d: step %ld: %s, %ld refused sets", integ, k, mb_status_str(st), bad);
    free(w);
    return st < 0 ? -1 : rows;
}

/* The jump table through the simulator's reader: zoh.csv written here. */
static int read_table(mb_input_table *tab, const char *dir)
{
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/test_inputs_zoh.csv", dir);
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "t,F\n");
    for (int j = 0; j < 4; j++) fprintf(f, "%.17g,%.17g\n", (double)KROW[j] * H, FV[j]);
    fclose(f);
    int rc = mb_input_table_read(path, &cartpole_model, tab, err, sizeof err);
    CHECK(rc == 0, "read %s: %s", path, err);
    remove(path);
    return rc;
}

static void check_tables(void)
{
    enum { MAXR = 1100 };
    static const int integ[3] = {MB_TRAPEZOID, MB_RK4, MB_HHT};
    static const char *const iname[3] = {"trapezoid", "rk4", "hht"};
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    mb_input_table tab;
    memset(&tab, 0, sizeof tab);
    if (read_table(&tab, dir) != 0) return;
    double *a = malloc(sizeof(double) * MAXR * 2 * CARTPOLE_NQ);
    double *b = malloc(sizeof(double) * MAXR * 2 * CARTPOLE_NQ);
    double *c = malloc(sizeof(double) * MAXR * 2 * CARTPOLE_NQ);
    for (int i = 0; a && b && c && i < 3; i++) {
        long ra = run(integ[i], NULL, a, MAXR, NULL), rb = run(integ[i], &tab, b, MAXR, NULL);
        CHECK(ra > 1000 && ra == rb && ra <= MAXR, "%s: rows %ld (API) and %ld (table)", iname[i], ra, rb);
        if (ra == rb && ra > 0 && ra <= MAXR)
            CHECK(memcmp(a, b, sizeof(double) * (size_t)ra * 2 * CARTPOLE_NQ) == 0,
                  "%s: the table applied by mb_input_file.c differs from mb_sim_set_input", iname[i]);
        /* negative control: the same run with the jump at 0.3 s one step late differs */
        if (i == 0 && ra > 0) {
            mb_input_table late = tab;
            double t2[4];
            memcpy(t2, tab.t, sizeof t2);
            t2[2] += H;
            late.t = t2;
            long rc = run(integ[i], &late, c, MAXR, NULL);
            CHECK(rc == ra && memcmp(a, c, sizeof(double) * (size_t)ra * 2 * CARTPOLE_NQ) != 0,
                  "negative control: a jump one step later gives the same run");
        }
    }
    free(a);
    free(b);
    free(c);
    mb_input_table_free(&tab);
}

/* The sensors against what they measure (cartpole: q = cart x, y, phi, pole x, y, phi). */
static void check_sensors(void)
{
    const mb_model *m = &cartpole_model;
    int n = m->nq, no = m->nout;
    mb_sim_storage s_mem;
    mb_sim *s = mb_sim_of(&s_mem);
    mb_real y[CARTPOLE_NOUT], y2[CARTPOLE_NOUT], jq[CARTPOLE_NOUT * CARTPOLE_NQ], jv[CARTPOLE_NOUT * CARTPOLE_NQ];
    void *w = start(s, m, MB_TRAPEZOID);
    if (!w) return;
    CHECK(no == CARTPOLE_NOUT && m->nin == CARTPOLE_NIN && m->outputs && !strcmp(m->out_names[CARTPOLE_OUT_THETA], "theta") &&
          !strcmp(m->in_names[CARTPOLE_IN_F], "F"), "descriptor: nin %d, nout %d", m->nin, no);
    CHECK(mb_sim_get_output(s, y, NULL, NULL) == MB_ERR_STATE, "outputs before a reset");
    CHECK(mb_sim_set_input(s, CARTPOLE_IN_F, 3) == MB_OK && mb_sim_get_input(s, CARTPOLE_IN_F) == 3,
          "an input set before the reset");
    CHECK(mb_sim_reset(s, 0, NULL, NULL, 1) == MB_OK, "reset");
    CHECK(mb_sim_get_input(s, CARTPOLE_IN_F) == 3 && m->in[0] == 0, "the reset keeps the input; the descriptor its default");
    for (int k = 0; k < 50; k++) mb_sim_step(s, 10);
    const mb_real *q = mb_sim_get_q(s), *v = mb_sim_get_v(s);
    CHECK(mb_sim_get_output(s, y, NULL, NULL) == MB_OK && mb_sim_get_output(s, y2, jq, jv) == MB_OK, "outputs");
    CHECK(memcmp(y, y2, sizeof y) == 0, "y alone differs from y with the Jacobians");
    CHECK(y[CARTPOLE_OUT_X] == q[0] && y[CARTPOLE_OUT_XDOT] == v[0], "x = %g, xdot = %g; q %g, v %g",
          (double)y[0], (double)y[1], (double)q[0], (double)v[0]);
    CHECK(check_close((double)y[CARTPOLE_OUT_THETA], 1.5707963267948966 - (double)(q[5] - q[2]), 1e-15) &&
          y[CARTPOLE_OUT_THETADOT] == -(v[5] - v[2]), "theta, thetadot");
    /* d theta / d q: -1 on pole.phi, +1 on cart.phi; d thetadot / d v the same; x: 1 on cart.x */
    int okj = 1;
    for (int i = 0; i < no; i++)
        for (int j = 0; j < n; j++) {
            mb_real eq = 0, ev = 0;
            if (i == CARTPOLE_OUT_X && j == 0) eq = 1;
            if (i == CARTPOLE_OUT_XDOT && j == 0) ev = 1;
            if (i == CARTPOLE_OUT_THETA) eq = j == 5 ? -1 : j == 2 ? 1 : 0;
            if (i == CARTPOLE_OUT_THETADOT) ev = j == 5 ? -1 : j == 2 ? 1 : 0;
            if (jq[i * n + j] != eq || jv[i * n + j] != ev) okj = 0;
        }
    CHECK(okj, "the sensors' Jacobians");

    /* misuse: refused, and nothing changes */
    mb_real f0 = mb_sim_get_input(s, CARTPOLE_IN_F), q0[CARTPOLE_NQ];
    memcpy(q0, q, sizeof q0);
    CHECK(mb_sim_set_input(s, -1, 1) == MB_ERR_PARAM, "index -1");
    CHECK(mb_sim_set_input(s, CARTPOLE_NIN, 1) == MB_ERR_PARAM, "index nin");
    CHECK(mb_sim_set_input(s, CARTPOLE_IN_F, (mb_real)NAN) == MB_ERR_PARAM, "NaN value");
    CHECK(mb_sim_set_input(s, CARTPOLE_IN_F, (mb_real)INFINITY) == MB_ERR_PARAM, "infinite value");
    CHECK(mb_sim_set_input_slope(s, CARTPOLE_IN_F, 1, (mb_real)NAN) == MB_ERR_PARAM, "NaN slope");
    CHECK(mb_sim_set_input(NULL, 0, 1) == MB_ERR_PARAM, "NULL sim");
    CHECK(mb_sim_get_input(s, CARTPOLE_IN_F) == f0 && memcmp(q0, mb_sim_get_q(s), sizeof q0) == 0,
          "a refused set changed the input or the state");
    CHECK(mb_sim_get_input(s, 7) == 0 && mb_sim_get_input(NULL, 0) == 0, "get_input, bad index");
    CHECK(mb_sim_input_index(s, "F") == CARTPOLE_IN_F && mb_sim_input_index(s, "G") == -1 &&
          mb_sim_input_index(s, "") == -1 && mb_sim_input_index(s, "FF") == -1 &&
          mb_sim_input_index(s, NULL) == -1, "input_index");
    CHECK(mb_sim_get_output(s, NULL, NULL, NULL) == MB_ERR_PARAM && mb_sim_get_output(NULL, y, NULL, NULL) == MB_ERR_PARAM,
          "get_output without y or sim");
    /* a slope: the model sees value + slope (t - t_set) */
    mb_real t0 = mb_sim_get_t(s);
    CHECK(mb_sim_set_input_slope(s, CARTPOLE_IN_F, 1, 2) == MB_OK, "set_input_slope");
    mb_sim_step(s, 10);
    CHECK(check_close((double)mb_sim_get_input(s, CARTPOLE_IN_F), 1 + 2 * (double)(mb_sim_get_t(s) - t0), 1e-14),
          "first-order hold: %g after a step", (double)mb_sim_get_input(s, CARTPOLE_IN_F));
    free(w);

    /* descriptors: no sensors (get_output refuses), inconsistent input or sensor fields (init
     * refuses) */
    mb_model m2 = *m;
    m2.nout = 0;
    m2.out_names = NULL;
    m2.outputs = NULL;
    w = start(s, &m2, MB_TRAPEZOID);
    if (w) {
        CHECK(mb_sim_reset(s, 0, NULL, NULL, 1) == MB_OK && mb_sim_get_output(s, y, NULL, NULL) == MB_ERR_PARAM,
              "outputs of a model without sensors");
        free(w);
    }
    mb_params p;
    mb_params_default(&p, MB_ALF_TRAPEZOID);
    static mb_real work[1 << 14];
    m2 = *m;
    m2.in = NULL;
    CHECK(mb_sim_init(s, &m2, &p, work, sizeof work) == MB_ERR_MODEL, "inputs without holds");
    m2 = *m;
    m2.nin = -1;
    CHECK(mb_sim_init(s, &m2, &p, work, sizeof work) == MB_ERR_MODEL, "nin -1");
    m2 = *m;
    m2.outputs = NULL;
    CHECK(mb_sim_init(s, &m2, &p, work, sizeof work) == MB_ERR_MODEL, "sensors without outputs");
    m2 = *m;
    m2.out_names = NULL;
    CHECK(mb_sim_init(s, &m2, &p, work, sizeof work) == MB_ERR_MODEL, "sensors without names");
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--rows")) {
        FILE *f = fopen(argv[2], "w");
        if (!f) { perror(argv[2]); return 2; }
        static double buf[2 * CARTPOLE_NQ];
        long r = run(MB_TRAPEZOID, NULL, buf, 0, f);
        fclose(f);
        return r > 0 && !check_failed ? 0 : 1;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: test_inputs [--rows FILE.csv]\n");
        return 2;
    }
    check_tables();
    check_sensors();
    return check_report();
}
