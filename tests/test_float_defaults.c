/* test_float_defaults.c - models run in float with the defaults alone (mb_params_default and
 * the model file's settings: no alpha or tol chosen by hand) against the same runs in double.
 * One source, two builds: the double build (no argument) prints the reference trajectories,
 * the float build (argument: that file) runs the same models and checks that each finishes,
 * that its positions stay within POS_TOL of the double run's at every sampled time, and that it
 * raises no warning the double run does not (no false alarm: tests/test_float_defaults.sh), and
 * that the runs float leaves far off the double run's warn of their energy (the drift: no miss).
 * Models: the shipped ones linked in (MB_HAVE_<m>) and tests/models/jansen.lua. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mb_sim.h"

#ifdef MB_HAVE_andrews
#include "andrews.h"
#endif
#ifdef MB_HAVE_slider_crank
#include "slider_crank.h"
#endif
#ifdef MB_HAVE_cartpole
#include "cartpole.h"
#endif
#ifdef MB_HAVE_chain
#include "chain.h"
#endif
#ifdef MB_HAVE_double_pendulum
#include "double_pendulum.h"
#endif
#ifdef MB_HAVE_shaper
#include "shaper.h"
#endif
#ifdef MB_HAVE_gear_train
#include "gear_train.h"
#endif
#ifdef MB_HAVE_suspension
#include "suspension.h"
#endif
#ifdef MB_HAVE_motor_arm
#include "motor_arm.h"
#endif
#ifdef MB_HAVE_walker
#include "walker.h"
#endif
#ifdef MB_HAVE_parallelogram_chain
#include "parallelogram_chain.h"
#endif
extern const mb_model jansen_model;   /* tests/models/jansen.lua, generated into the build */
extern const mb_model acc_pendulum_model;   /* tests/models/acc_pendulum.lua, likewise */

/* A case: a model, its formulation, steps, the sample interval (in steps), how far (m, rad) the
 * float run's positions may be from the double run's (about 3x what was measured: the float
 * trajectory's own error, which grows with time; the chain is chaotic and gets only a bound
 * that catches a blow-up), and whether the float run may warn of its energy (Andrews: its float
 * run is 1.8e-2 rad off and 200x the double run's energy error, whatever alpha and tol: the
 * warning is right), or must (2: a float run far off the double run, which must not be silent;
 * pos_tol then only bounds it). */
typedef struct {
    const char *name;
    const mb_model *m;
    int formulation;
    long steps, every;
    double pos_tol;
    int may_warn_energy;
    double h;   /* the step, where not the model's own */
} fcase;

static const fcase cases[] = {
    /* the A01 pendulum under its held load for 100 s, canonical with rk4: float's default sigma
     * reset (a tenth of the momentum scale: docs/embedding.md) keeps it 1.2e-4 from the double
     * run without a reset; without the float reset 8.3e-2 */
    {"pendulum_F2_100s", &acc_pendulum_model, MB_CANONICAL, 100000, 2000, 1e-3, 0, 0},
    /* float's energy error moves the phase (the energy warning's drift, mb_monitor.c): the A01
     * pendulum with alf-trapezoid (no sigma reset) is 0.46 m off the reference after 100 s
     * (double 1.1e-4), with an energy error of 0.5 % of its scale */
    {"pendulum_F4_100s", &acc_pendulum_model, MB_ALF_TRAPEZOID, 100000, 2000, 2.5, 2, 1e-3},
    {"jansen", &jansen_model, MB_ALF_TRAPEZOID, 2000, 100, 1e-5, 0, 0},   /* measured 3.9e-6 */
#ifdef MB_HAVE_andrews
    {"andrews", &andrews_model, MB_ALF_TRAPEZOID, 3000, 100, 5e-2, 1, 0},   /* 1.8e-2 */
#endif
#ifdef MB_HAVE_slider_crank
    {"slider_crank", &slider_crank_model, MB_ALF_TRAPEZOID, 1000, 50, 3e-3, 0, 0},   /* 6.5e-4 */
#endif
#ifdef MB_HAVE_cartpole
    {"cartpole", &cartpole_model, MB_ALF_TRAPEZOID, 2000, 100, 4e-3, 0, 0},   /* 1.3e-3 */
#endif
#ifdef MB_HAVE_chain
    {"chain", &chain_model, MB_ALF_TRAPEZOID, 2000, 100, 1, 0, 0},   /* 7.5e-2, chaotic */
#endif
#ifdef MB_HAVE_double_pendulum
    {"double_pendulum", &double_pendulum_model, MB_ALF_TRAPEZOID, 2000, 100, 1e-3, 0, 0},   /* 2.2e-4 */
#endif
#ifdef MB_HAVE_shaper
    {"shaper", &shaper_model, MB_ALF_TRAPEZOID, 2000, 100, 5e-3, 0, 0},   /* 1.5e-3 */
#endif
#ifdef MB_HAVE_gear_train
    {"gear_train", &gear_train_model, MB_ALF_TRAPEZOID, 2000, 100, 2e-5, 0, 0},   /* 5.2e-6 */
#endif
#ifdef MB_HAVE_suspension
    {"suspension", &suspension_model, MB_ALF_TRAPEZOID, 2000, 100, 1e-5, 0, 0},   /* 2.9e-7 */
#endif
#ifdef MB_HAVE_walker
    /* 1 s, 3.4e-4 (frame x 1.4e-4); before the momenta's floor (mb_trapezoid.c, trap_judge)
     * Newton failed at 0.0104 s, and before W's quadrature floor (mb_monitor.c, wq_floor) it
     * warned of its energy at 0.036 s (the monitor's noise, not the motion's) */
    {"walker", &walker_model, MB_ALF_TRAPEZOID, 10000, 500, 1e-3, 0, 0},
    /* at h = 1e-3 its Newton iteration diverges (the double run stops at t = 0.011 s, step 12):
     * the float run must stop there too (within a step), not pass it off as its rounding floor */
    {"walker_h1e-3", &walker_model, MB_ALF_TRAPEZOID, 20, 1, 1e-3, 0, 1e-3},
#endif
#ifdef MB_HAVE_parallelogram_chain
    /* the A02 chain (N = 2) 20 s in float stays on its branch (the parallelogram's loops closed
     * to 4e-4 m) but is 2 m off the reference (double 2.8e-5) after an energy error of 0.6 % of
     * its scale: its kinetic energy over the top is 1.5 J of 139 */
    {"chain2_F3_20s", &parallelogram_chain_model, MB_ALF_EXPLICIT, 20000, 500, 20, 2, 1e-3},
#endif
#ifdef MB_HAVE_motor_arm
    {"motor_arm", &motor_arm_model, MB_ALF_TRAPEZOID, 2000, 100, 3e-4, 0, 0},   /* 6.7e-5 */
#endif
};
#define NCASE ((int)(sizeof cases / sizeof cases[0]))

#define MAXQ 64
#define MAXS 64

static int n_pass, n_fail;
static void check(int ok, const char *name, const char *what, double val)
{
    if (ok) n_pass++;
    else {
        n_fail++;
        printf("FAIL %s: %s (%g)\n", name, what, val);
    }
}

static unsigned char work[1 << 20];

/* Run case c with the defaults; q at every c->every steps into qs[sample][i]. Returns the
 * status (< 0: failed at *nsample samples), the monitors in *mon, the settings used in *pu. */
static int run(const fcase *c, double qs[MAXS][MAXQ], int *nsample, mb_monitor *mon, mb_params *pu)
{
    mb_params p;
    mb_sim_storage s_mem;
    mb_sim *s = mb_sim_of(&s_mem);
    mb_params_default(&p, c->formulation);
    mb_params_preset(&p, c->m->preset, c->formulation);
    if (c->m->preset && c->m->preset->h > 0) p.h = (mb_real)c->m->preset->h;
    if (c->h > 0) p.h = (mb_real)c->h;
    /* the double reference at float's sigma threshold (double's default is 5e5: mb_sim.c), so
     * that both runs are judged by the same one (gear_train passes 1e3 in both) */
    if (sizeof(mb_real) == sizeof(double)) p.warn_sigma = 1e3;
    size_t need = mb_sim_workspace_size(c->m, &p);
    if (need == 0 || need > sizeof work) return -1000;
    int st = mb_sim_init(s, c->m, &p, work, sizeof work);
    if (st == MB_OK) st = mb_sim_reset(s, 0, NULL, NULL, 1);
    *pu = *mb_sim_get_params(s);
    *nsample = 0;
    for (long k = 1; st >= 0 && k <= c->steps; k++) {
        st = mb_sim_step(s, (mb_real)1e30);
        if (st >= 0 && k % c->every == 0 && *nsample < MAXS) {
            for (int i = 0; i < mb_sim_model(s)->nq && i < MAXQ; i++) qs[*nsample][i] = (double)mb_sim_get_q(s)[i];
            (*nsample)++;
        }
    }
    *mon = *mb_sim_get_monitor(s);
    return st;
}

int main(int argc, char **argv)
{
    static double qs[MAXS][MAXQ], qr[MAXS][MAXQ];
    int ns;
    mb_monitor mon;
    mb_params pu;
    if (argc < 2) {   /* the double build: the reference */
        for (int c = 0; c < NCASE; c++) {
            int st = run(&cases[c], qs, &ns, &mon, &pu);
            printf("%s %d %d %u %.17g\n", cases[c].name, st, ns, mon.warn, (double)mon.max_energy_dev);
            for (int k = 0; k < ns; k++)
                for (int i = 0; i < cases[c].m->nq; i++) printf("%.17g\n", qs[k][i]);
        }
        return 0;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) { printf("cannot read %s\n0 passed, 1 failed\n", argv[1]); return 1; }
    for (int c = 0; c < NCASE; c++) {
        const fcase *cs = &cases[c];
        char name[64];
        int rst, rns;
        unsigned rwarn;
        double rdev;
        if (fscanf(f, "%63s %d %d %u %lg", name, &rst, &rns, &rwarn, &rdev) != 5 ||
            strcmp(name, cs->name) != 0) {
            printf("reference file out of step at %s\n0 passed, 1 failed\n", cs->name);
            return 1;
        }
        for (int k = 0; k < rns; k++)
            for (int i = 0; i < cs->m->nq; i++)
                if (fscanf(f, "%lg", &qr[k][i]) != 1) { printf("short reference\n"); return 1; }
        int st = run(cs, qs, &ns, &mon, &pu);
        double dq = 0;
        for (int k = 0; k < ns && k < rns; k++)
            for (int i = 0; i < cs->m->nq; i++)
                if (fabs(qs[k][i] - qr[k][i]) > dq) dq = fabs(qs[k][i] - qr[k][i]);
        printf("%-16s alpha %-9.3g tol %-9.3g status %d warn %#x (double %#x) max|dq| %.2e "
               "energy_dev %.3g (double %.3g) of escale %.3g newton %ld maxiter %ld\n",
               cs->name, (double)pu.alpha, (double)pu.tol, st, mon.warn, rwarn, dq,
               (double)mon.max_energy_dev, rdev, (double)mon.escale, mon.newton_iters, mon.maxiter_events);
        check(rst < 0 || st >= 0, cs->name, "the float run failed", st);
        /* a Newton failure of the double run is one of the float run's, at the same step */
        if (rst == MB_ERR_NEWTON) check(st == MB_ERR_NEWTON, cs->name, "a diverging iteration passed", st);
        /* (a diverging run: within a step of it, where the rounding decides the last step:
         * the walker at h = 1e-3 stops at sample 11 in double, 10 in float) */
        check(rst == MB_ERR_NEWTON ? abs(ns - rns) <= 1 : ns == rns, cs->name, "samples", ns);
        check(dq <= cs->pos_tol, cs->name, "positions off the double run's", dq);
        unsigned extra = mon.warn & ~rwarn;
        if (cs->may_warn_energy) extra &= ~MB_WARN_BIT(MB_WARN_ENERGY);
        if (cs->may_warn_energy == 2)
            check((mon.warn & MB_WARN_BIT(MB_WARN_ENERGY)) && !(rwarn & MB_WARN_BIT(MB_WARN_ENERGY)), cs->name,
                  "the float run far off warns of its energy (the double run does not)", mon.warn);
        check(extra == 0, cs->name, "a warning the double run has not", mon.warn);
        /* the rule's choice: float's alpha well below the thesis' 1e8, tol above float's noise */
        double a = (double)pu.alpha, tl = (double)pu.tol;
        if (cs->formulation == MB_CANONICAL) a = 1;   /* (no alpha) */
        check(a > 0 && a < 1e6 && tl > 0 && tl < 1e-4, cs->name, "alpha or tol not chosen", a);
    }
    fclose(f);
    printf("%d passed, %d failed\n", n_pass, n_fail);
    return n_fail > 0;
}
