/* mcu_report.c - value and measurement lines for the MCU tests, formatted without printf.
 * Layer: test infrastructure, built for the host and the target alike so both print the same.
 * Format: "V <name>[<i>] <hex bits>" (compared by mcu_compare) and "M <key> <decimal>". */
#include "mcu_port.h"

#include <stdint.h>
#include <string.h>

/* The line being formatted: on the stack of the printing call (the report comes after the run,
 * far from the deepest stack), not 128 bytes of static RAM in every image. */
#define LINE 128

/* Append s at position n of line; returns the new length (silently truncates). */
static int put_str(char *line, int n, const char *s)
{
    while (*s && n < LINE - 24) line[n++] = *s++;
    return n;
}

/* v in decimal. v / 10 in 16-bit pieces with 32-bit arithmetic: no 64-bit division, which
 * would link libgcc's __udivmoddi4 (700 bytes) into every image for this alone. */
static int put_dec(char *line, int n, unsigned long long v)
{
    char tmp[24];
    int k = 0;
    do {
        unsigned long long q = 0;
        uint32_t r = 0;
        for (int sh = 48; sh >= 0; sh -= 16) {
            uint32_t cur = (r << 16) | (uint32_t)((v >> sh) & 0xFFFFu);   /* < 10 * 2^16 */
            q |= (unsigned long long)(cur / 10u) << sh;
            r = cur % 10u;
        }
        tmp[k++] = (char)('0' + (int)r);
        v = q;
    } while (v);
    while (k) line[n++] = tmp[--k];
    return n;
}

static void put_value(const char *name, int i, uint64_t bits, int digits)
{
    char line[LINE];
    int n = put_str(line, 0, "V "), k;
    n = put_str(line, n, name);
    line[n++] = '[';
    n = put_dec(line, n, (unsigned long long)i);
    line[n++] = ']';
    line[n++] = ' ';
    for (k = digits - 1; k >= 0; k--) line[n++] = "0123456789abcdef"[(bits >> (4 * k)) & 15u];
    line[n++] = '\n';
    line[n] = 0;
    mcu_puts(line);
}

void mcu_put_f64(const char *name, int i, double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    put_value(name, i, b, 16);
}

void mcu_put_f32(const char *name, int i, float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    put_value(name, i, b, 8);
}

void mcu_put_u(const char *key, unsigned long long v)
{
    char line[LINE];
    int n = put_str(line, 0, "M ");
    n = put_str(line, n, key);
    line[n++] = ' ';
    n = put_dec(line, n, v);
    line[n++] = '\n';
    line[n] = 0;
    mcu_puts(line);
}
