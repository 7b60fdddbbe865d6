/* host_port.c - mcu_port.h on the host: stdio output, no tick counter, no stack measurement.
 * Layer: test infrastructure; lets the same test driver build natively for bit comparison. */
#include "mcu_port.h"

#include <stdio.h>

void mcu_puts(const char *s)
{
    fputs(s, stdout);
}

void mcu_ticks_reset(void)
{
}

unsigned long long mcu_ticks(void)
{
    return 0;
}

unsigned long mcu_stack_high_water(void)
{
    return 0;
}

const char *mcu_target(void)
{
    return "host";
}
