/* calib.c - checks the cost measurement itself: a loop of exactly 2 * N Thumb instructions
 * (subs + bne) timed with the SysTick under `qemu -icount`. Layer: MCU test program (target
 * only); prints "M ticks_loop" for N = 10^6 and "M ticks_empty" for the timing overhead. */
#include "mcu_port.h"

/* N iterations of two instructions; N > 0. */
static void spin(unsigned n)
{
    __asm__ volatile("1: subs %0, %0, #1\n\tbne 1b" : "+r"(n) : : "cc");
}

int main(void)
{
    unsigned long long t0, t1, t2;
    mcu_ticks_reset();
    t0 = mcu_ticks();
    t1 = mcu_ticks();
    spin(1000000u);
    t2 = mcu_ticks();
    mcu_put_u("ticks_empty", t1 - t0);
    mcu_put_u("ticks_loop", t2 - t1);
    return 0;
}
