/* main.c - run the solver for FW_STEPS steps and report the state bit for bit, the monitors and
 * the cost. Layer: application demo and MCU test program; its only platform calls are the
 * mcu_* functions of scripts/mcu/mcu_port.h (replace them with your board's UART and timer). */
#include "mcu_port.h"
#include "solver.h"

#ifndef FW_STEPS
#define FW_STEPS 100                   /* steps to run */
#endif

static void put(const char *name, int i, mb_real x)
{
#if MB_FLOAT
    mcu_put_f32(name, i, x);
#else
    mcu_put_f64(name, i, x);
#endif
}

int main(void)
{
    const mb_sim *s = solver_sim();
    const mb_monitor *mon;
    unsigned long long t0, t1, dt, worst = 0, total = 0;
    int i, k, n, st, failures = 0;

    mcu_puts("# firmware example on ");
    mcu_puts(mcu_target());
    mcu_puts("\n");
    mcu_ticks_reset();
    t0 = mcu_ticks();
    st = solver_init();
    mcu_put_u("ticks_init", mcu_ticks() - t0);
    if (st < 0) {
        mcu_put_u("init_failed", (unsigned long long)-st);
        return 1;
    }
    for (k = 0; k < FW_STEPS; k++) {
        t0 = mcu_ticks();
        st = solver_step();
        t1 = mcu_ticks();
        dt = t1 - t0;
        total += dt;
        if (dt > worst) worst = dt;
        if (st < 0) {
            mcu_put_u("step_failed_at", (unsigned long long)k);
            mcu_put_u("step_status_neg", (unsigned long long)-st);
            failures++;
            break;
        }
    }
    mon = mb_sim_get_monitor(s);
    n = mb_sim_model(s)->nq;
    for (i = 0; i < n; i++) put("q", i, mb_sim_get_q(s)[i]);
    for (i = 0; i < n; i++) put("v", i, mb_sim_get_v(s)[i]);
    put("t", 0, mb_sim_get_t(s));
    put("energy_dev", 0, mb_embed_energy_dev(s));
    put("phi_norm", 0, mb_embed_phi_norm(s));
    put("phid_norm", 0, mb_embed_phid_norm(s));
    mcu_put_u("steps", (unsigned long long)mon->steps);
    mcu_put_u("newton_iters", (unsigned long long)mon->newton_iters);
    mcu_put_u("maxiter_events", (unsigned long long)mon->maxiter_events);
    mcu_put_u("ticks_steps", total);
    mcu_put_u("ticks_worst_step", worst);
    mcu_put_u("work_reserved", solver_work_reserved());
    mcu_put_u("work_needed", solver_work_needed());
    mcu_put_u("stack_bytes", mcu_stack_high_water());
    /* the monitors as decimal millionths, for a human reading the log */
    mcu_put_u("energy_dev_uJ_abs", (unsigned long long)(MB_FABS(mon->max_energy_dev) * MB_R(1e6)));
    return failures || solver_work_needed() > solver_work_reserved() ? 1 : 0;
}
