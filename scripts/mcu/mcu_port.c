/* mcu_port.c - bare-metal startup, semihosting and SysTick for the QEMU MPS2 boards.
 * Layer: test infrastructure (mps2.ld places the sections); implements mcu_port.h.
 * No libc calls: the vector table, reset handler and semihosting are all here. */
#include "mcu_port.h"

#include <stdint.h>

extern uint32_t __data_load[], __data_start[], __data_end[], __bss_start[], __bss_end[];
extern uint32_t __stack_bottom[], __stack_top[];
extern int main(void);

#define PAINT 0xA5A5A5A5u               /* stack fill pattern for the high-water mark */

/* System control registers of ARMv7-M. */
#define REG(a) (*(volatile uint32_t *)(a))
#define SCB_CPACR  REG(0xE000ED88u)
#define SYST_CSR   REG(0xE000E010u)
#define SYST_RVR   REG(0xE000E014u)
#define SYST_CVR   REG(0xE000E018u)

/* ARM semihosting call: operation in r0, argument block pointer in r1, result in r0. */
static int semihost(int op, const void *arg)
{
    register int r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

#define SYS_WRITE0 0x04
#define SYS_EXIT_EXTENDED 0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u

void mcu_puts(const char *s)
{
    semihost(SYS_WRITE0, s);
}

/* SYS_EXIT_EXTENDED carries the exit status; plain SYS_EXIT on 32-bit ARM cannot. */
static void mcu_exit(int status)
{
    uint32_t block[2];
    block[0] = ADP_STOPPED_APPLICATION_EXIT;
    block[1] = (uint32_t)status;
    for (;;) semihost(SYS_EXIT_EXTENDED, block);
}

static volatile uint32_t systick_wraps;

/* SysTick exception handler: extends the 24-bit counter (one interrupt per 2^24 ticks). */
void mcu_systick(void)
{
    systick_wraps++;
}

void mcu_ticks_reset(void)
{
    SYST_CSR = 0;
    SYST_RVR = 0x00FFFFFFu;             /* full 24-bit period */
    SYST_CVR = 0;                       /* any write clears the counter */
    SYST_CSR = 7;                       /* processor clock, interrupt on wrap, enable */
    while (SYST_CVR == 0) {             /* wait for the first reload: ticks start at 0 */
    }
    systick_wraps = 0;
}

unsigned long long mcu_ticks(void)
{
    uint32_t w, v;
    do {                                /* re-read if the counter wrapped in between */
        w = systick_wraps;
        v = SYST_CVR;
    } while (w != systick_wraps);
    return (unsigned long long)w * 0x01000000u + (0x00FFFFFFu - v);
}

unsigned long mcu_stack_high_water(void)
{
    const uint32_t *p = __stack_bottom;
    while (p < __stack_top && *p == PAINT) p++;
    return (unsigned long)((const char *)__stack_top - (const char *)p);
}

const char *mcu_target(void)
{
#if defined(__ARM_FP)
    return "cortex-m4f";
#else
    return "cortex-m3";
#endif
}

static void mcu_fault(void)
{
    mcu_puts("mcu: fault\n");
    mcu_exit(99);
}

/* Reset handler (the image's entry): FPU on, .data copied, .bss zeroed, stack painted, then
 * main; its return value leaves QEMU as the exit status. Never returns. */
void mcu_reset(void)
{
    uint32_t *p, *sp;
#if defined(__ARM_FP)
    SCB_CPACR |= 0xFu << 20;            /* full access to CP10/CP11 (the FPU) */
    __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
    for (p = __data_start; p < __data_end; p++) *p = __data_load[p - __data_start];
    for (p = __bss_start; p < __bss_end; p++) *p = 0;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    for (p = __stack_bottom; p < sp; p++) *p = PAINT;   /* below sp nothing is live yet */
    mcu_exit(main());
}

/* Cortex-M vector table: initial stack pointer, then the exception handlers. */
typedef void (*mcu_vector)(void);
__attribute__((section(".vectors"), used)) static const mcu_vector mcu_vectors[16] = {
    (mcu_vector)(uintptr_t)__stack_top,
    mcu_reset,
    mcu_fault,                          /* NMI */
    mcu_fault,                          /* HardFault */
    mcu_fault,                          /* MemManage */
    mcu_fault,                          /* BusFault */
    mcu_fault,                          /* UsageFault */
    0, 0, 0, 0,
    mcu_fault,                          /* SVCall */
    mcu_fault,                          /* DebugMonitor */
    0,
    mcu_fault,                          /* PendSV */
    mcu_systick,
};
