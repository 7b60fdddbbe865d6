/* mcu_port.h - what a test program needs from the platform: text output, a tick counter, stack use.
 * Layer: test infrastructure; two implementations, mcu_port.c (bare-metal Cortex-M under QEMU,
 * semihosting) and host_port.c (stdio), so one test driver builds for both. */
#ifndef MCU_PORT_H
#define MCU_PORT_H

/* Write a NUL-terminated string to the host's standard output. Never allocates. */
void mcu_puts(const char *s);

/* Processor clock ticks since mcu_ticks_reset() (SysTick, 24-bit counter extended in its
 * interrupt). Deterministic under `qemu -icount shift=N`; 0 on the host. */
void mcu_ticks_reset(void);
unsigned long long mcu_ticks(void);

/* Deepest stack use seen so far in bytes (the startup code painted the stack), 0 on the host. */
unsigned long mcu_stack_high_water(void);

/* Target name: "cortex-m4f", "cortex-m3" or "host". */
const char *mcu_target(void);

/* mcu_report.c, the same on both sides (no printf): one line per value, "V <name>[<i>] <hex>"
 * with the IEEE bits (16 hex digits for double, 8 for float), and "M <key> <unsigned>". */
void mcu_put_f64(const char *name, int i, double x);
void mcu_put_f32(const char *name, int i, float x);
void mcu_put_u(const char *key, unsigned long long v);

#endif /* MCU_PORT_H */
