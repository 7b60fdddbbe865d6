/* lqr_design.c - writes the cart-pole controller's gain header (cartpole_gain.h) from the LQR
 * design on the generated linearization (cartpole_design.c), and prints the checks: the upright
 * pose an equilibrium, the Riccati residual (at most 1e-9 relative), the closed-loop eigenvalues
 * (all in the left half plane). Layer: host design tool. docs/control.md.
 * Usage: lqr_design OUT.h   (exit 1 when a check fails, nothing written; 2 usage) */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cartpole_design.h"

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--help")) {
        printf("usage: lqr_design OUT.h   (the cart-pole's LQR gain on its sensors, docs/control.md)\n");
        return 0;
    }
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: lqr_design OUT.h   (the cart-pole's LQR gain on its sensors, docs/control.md)\n");
        return 2;
    }
    const mb_model *m = &cartpole_model;
    cartpole_lqr d;
    if (cartpole_design(&d)) return 1;
    double worst = -INFINITY;
    for (int i = 0; i < NX; i++) worst = fmax(worst, d.eig_re[i]);
    printf("upright pose: max |Phi| %.1e, max |acc| %.1e (an equilibrium at F = 0)\n", d.phi_norm, d.acc_norm);
    printf("open loop eigenvalues:  ");
    for (int i = 0; i < NX; i++) printf(" %.6g%+.6gi", d.ol_re[i], d.ol_im[i]);
    printf("\nRiccati residual %.2e (relative)\nclosed loop eigenvalues:", d.residual);
    for (int i = 0; i < NX; i++) printf(" %.6g%+.6gi", d.eig_re[i], d.eig_im[i]);
    printf("\ngain on the sensors:    ");
    for (int i = 0; i < NY; i++) printf(" %s %.6g", m->out_names[i], d.Ky[i]);
    printf("\n");
    int fail = 0;
    if (d.phi_norm > 1e-12 || d.acc_norm > 1e-9) { fprintf(stderr, "lqr_design: the upright pose is not an equilibrium\n"); fail = 1; }
    if (!(d.residual <= 1e-9)) { fprintf(stderr, "lqr_design: Riccati residual %.2e above 1e-9\n", d.residual); fail = 1; }
    if (!(worst < 0)) { fprintf(stderr, "lqr_design: the closed loop is not stable (max Re %.3g)\n", worst); fail = 1; }
    if (fail) return 1;

    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", argv[1]) >= (int)sizeof tmp) { fprintf(stderr, "lqr_design: path too long\n"); return 2; }
    FILE *f = fopen(tmp, "w");
    if (!f) { perror(tmp); return 1; }
    static const double qy[NY] = CARTPOLE_LQR_QY, r[NU * NU] = CARTPOLE_LQR_R;
    fprintf(f, "/* cartpole_gain.h - written by lqr_design (examples/cartpole/lqr_design.c, docs/control.md);\n"
               " * do not edit. The LQR gain of the cart-pole (generated/cartpole.c) about the upright pole at\n"
               " * rest, F = 0, on its sensors: F = -sum_i K[i] (y[i] - YREF[i]), y =");
    for (int i = 0; i < NY; i++) fprintf(f, " %s", m->out_names[i]);
    fprintf(f, ".\n * Weights: Qy = diag(");
    for (int i = 0; i < NY; i++) fprintf(f, "%s%g", i ? ", " : "", qy[i]);
    fprintf(f, ") on the sensors, R = %g. Riccati residual %.1e; closed-loop\n * eigenvalues", r[0], d.residual);
    for (int i = 0; i < NX; i++) fprintf(f, "%s %.4g%+.4gi", i ? "," : "", d.eig_re[i], d.eig_im[i]);
    fprintf(f, " 1/s. */\n#ifndef CARTPOLE_GAIN_H\n#define CARTPOLE_GAIN_H\n\n");
    fprintf(f, "#define CARTPOLE_GAIN_NY %d\n#define CARTPOLE_GAIN_K {", NY);
    for (int i = 0; i < NY; i++) fprintf(f, "%s MB_R(%.16e)", i ? "," : "", d.Ky[i]);
    fprintf(f, " }\n#define CARTPOLE_GAIN_YREF {");
    for (int i = 0; i < NY; i++) fprintf(f, "%s MB_R(%.16e)", i ? "," : "", d.yref[i] == 0 ? 0.0 : d.yref[i]);
    fprintf(f, " }\n\n#endif /* CARTPOLE_GAIN_H */\n");
    if (fclose(f) != 0 || rename(tmp, argv[1]) != 0) { perror(argv[1]); remove(tmp); return 1; }
    return 0;
}
