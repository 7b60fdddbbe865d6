/* cartpole_lqr.c - the cart-pole balanced by its LQR controller on the host (cartpole_run.c):
 * prints a summary line and, with --inputs, writes the force it applied as a table the simulator
 * replays (cartpole_sim --input-file; make run MODEL=cartpole draws that replay). Layer: host
 * example program. docs/control.md.
 * Usage: cartpole_lqr [--t-end S] [--gain zero] [--inputs F.csv]
 * Exit: 0 the run reached t_end, 1 the solver failed, 2 usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cartpole.h"
#include "cartpole_control.h"
#include "cartpole_run.h"

static int usage(FILE *f, int rc)
{
    fprintf(f, "usage: cartpole_lqr [--t-end S] [--gain zero] [--inputs F.csv]\n"
                    "  the cart-pole balanced from 0.2 rad by the LQR gain of cartpole_gain.h\n"
                    "  --t-end S      seconds to run (default 8)\n"
                    "  --gain zero    no control (F = 0): the pole falls\n"
                    "  --inputs FILE  write the applied force as a t,F table (cartpole_sim --input-file)\n");
    return rc;
}

int main(int argc, char **argv)
{
    double t_end = 8;
    const char *inputs = NULL;
    mb_real zero[CARTPOLE_NOUT] = {0};
    const mb_real *K = control_gain;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--t-end") && i + 1 < argc) {
            char *e;
            t_end = strtod(argv[++i], &e);
            if (*e || !(t_end > 0 && t_end <= 1e4)) { fprintf(stderr, "cartpole_lqr: --t-end: a number in (0, 1e4] expected\n"); return 2; }
        } else if (!strcmp(argv[i], "--gain") && i + 1 < argc && !strcmp(argv[i + 1], "zero")) {
            K = zero;
            i++;
        } else if (!strcmp(argv[i], "--inputs") && i + 1 < argc) {
            inputs = argv[++i];
        } else if (!strcmp(argv[i], "--help")) {
            return usage(stdout, 0);
        } else {
            return usage(stderr, 2);
        }
    }
    FILE *f = NULL;
    if (inputs && !(f = fopen(inputs, "w"))) { perror(inputs); return 1; }
    cartpole_run_result r;
    int rc = cartpole_run(K, t_end, f, &r);
    if (f && fclose(f) != 0) { perror(inputs); rc = -1; }
    if (rc) return 1;
    printf("status=%s t_end=%.6g theta0=%.6g theta_end=%.9e x_end=%.9e max_theta_last_1s=%.3e "
           "max_abs_F=%.4g settle_1e-3=%.3g gain=%s\n", r.status < 0 ? "error" : "ok", r.t,
           r.y0[CARTPOLE_OUT_THETA], r.y[CARTPOLE_OUT_THETA], r.y[CARTPOLE_OUT_X], r.max_theta_late,
           r.max_F, r.settle_t, K == zero ? "zero" : "lqr");
    return r.status < 0 ? 1 : 0;
}
