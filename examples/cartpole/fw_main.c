/* fw_main.c - the cart-pole balanced by its LQR controller in firmware: the solver of
 * examples/firmware/solver.c on the generated cart-pole (FW_MODEL=cartpole) with the controller
 * of cartpole_control.c every 10 ms, from the model's start (the pole 0.2 rad from upright) for
 * FW_STEPS steps. Reports the final state bit for bit, the force and the cost per step through
 * scripts/mcu/mcu_port.h (semihosting; replace with your UART and timer). Exit 1 when a step
 * fails or the pole is not upright at the end (|theta| > 1e-3 rad, |x| > 1 cm): the firmware
 * checks the closed loop itself. Layer: application demo and MCU test program (make mcu-test). */
#include "cartpole_control.h"
#include "mcu_port.h"
#include "solver.h"

#ifndef FW_STEPS
#define FW_STEPS 5000                  /* 5 s at h = 1 ms */
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
    mb_sim *s = solver_sim_rw();
    mb_real y[CARTPOLE_NOUT], F = 0, Fmax = 0;
    unsigned long long t0, t1, dt, worst = 0, total = 0;
    int i, k, st, failed = 0;

    mcu_puts("# cart-pole LQR firmware on ");
    mcu_puts(mcu_target());
    mcu_puts("\n");
    mcu_ticks_reset();
    st = solver_init();
    if (st < 0) {
        mcu_put_u("init_failed", (unsigned long long)-st);
        return 1;
    }
    for (k = 0; k < FW_STEPS / CARTPOLE_CONTROL_EVERY; k++) {
        t0 = mcu_ticks();
        st = control_period(s, control_gain, &F);   /* sensors, F, 10 steps */
        t1 = mcu_ticks();
        dt = t1 - t0;
        total += dt;
        if (dt > worst) worst = dt;
        if (MB_FABS(F) > Fmax) Fmax = MB_FABS(F);
        if (st < 0) {
            mcu_put_u("step_failed_in_period", (unsigned long long)k);
            mcu_put_u("step_status_neg", (unsigned long long)-st);
            failed = 1;
            break;
        }
    }
    mb_sim_get_output(s, y, NULL, NULL);
    for (i = 0; i < CARTPOLE_NQ; i++) put("q", i, mb_sim_get_q(s)[i]);
    for (i = 0; i < CARTPOLE_NQ; i++) put("v", i, mb_sim_get_v(s)[i]);
    for (i = 0; i < CARTPOLE_NOUT; i++) put("y", i, y[i]);
    put("t", 0, mb_sim_get_t(s));
    put("F_last", 0, F);
    put("F_max", 0, Fmax);
    mcu_put_u("steps", (unsigned long long)mb_sim_get_monitor(s)->steps);
    mcu_put_u("newton_iters", (unsigned long long)mb_sim_get_monitor(s)->newton_iters);
    mcu_put_u("ticks_steps", total);            /* controller included */
    mcu_put_u("ticks_worst_period", worst);
    mcu_put_u("work_reserved", solver_work_reserved());
    mcu_put_u("work_needed", solver_work_needed());
    mcu_put_u("stack_bytes", mcu_stack_high_water());
    /* balanced: theta and x in millionths, for a human reading the log */
    mcu_put_u("theta_end_urad_abs", (unsigned long long)(MB_FABS(y[CARTPOLE_OUT_THETA]) * MB_R(1e6)));
    mcu_put_u("x_end_um_abs", (unsigned long long)(MB_FABS(y[CARTPOLE_OUT_X]) * MB_R(1e6)));
    if (MB_FABS(y[CARTPOLE_OUT_THETA]) > MB_R(1e-3) || MB_FABS(y[CARTPOLE_OUT_X]) > MB_R(0.01)) {
        mcu_puts("# the pole is not balanced\n");
        failed = 1;
    }
    return failed || solver_work_needed() > solver_work_reserved() ? 1 : 0;
}
