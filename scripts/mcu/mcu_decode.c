/* mcu_decode.c - the output of a firmware or test run (mcu_report.c: "V <name>[<i>] <hex bits>",
 * "M <key> <decimal>", "# text") in decimal for a human: "q[2] OF.phi = 33.825714074792702".
 * Layer: host tool of the MCU scripts (scripts/mcu/firmware.sh, mcu-test.sh); the hex lines stay
 * what mcu_compare reads. 16 hex digits are an IEEE double (printed with 17 significant digits),
 * 8 a float (9 digits): enough to give the bits back.
 * Usage: mcu_decode [--names FILE] < RUN.txt   (FILE: one coordinate name a line, for q[] and v[])
 * Exit status: 0, 1 on a malformed V line (reported, the rest still decoded), 2 bad usage. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAMES 4096

static char *names[MAX_NAMES];
static int nnames;

static void read_names(const char *path)
{
    char buf[256];
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "mcu_decode: cannot read %s\n", path);
        exit(2);
    }
    while (nnames < MAX_NAMES && fgets(buf, sizeof buf, f) != NULL) {
        buf[strcspn(buf, "\r\n")] = '\0';
        names[nnames] = malloc(strlen(buf) + 1);
        if (names[nnames] == NULL)
            exit(2);
        strcpy(names[nnames++], buf);
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    char line[512], name[128], hex[32];
    int status = 0, lineno = 0;
    if (argc == 3 && strcmp(argv[1], "--names") == 0) {
        read_names(argv[2]);
    } else if (argc != 1) {
        fprintf(stderr, "usage: mcu_decode [--names FILE] < RUN.txt\n");
        return 2;
    }
    while (fgets(line, sizeof line, stdin) != NULL) {
        int idx;
        lineno++;
        if (strncmp(line, "V ", 2) != 0) {
            fputs(strncmp(line, "M ", 2) == 0 ? line + 2 : line, stdout);
            continue;
        }
        if (sscanf(line, "V %127[^[][%d] %31s", name, &idx, hex) != 3 ||
            (strlen(hex) != 16 && strlen(hex) != 8) || strspn(hex, "0123456789abcdef") != strlen(hex)) {
            fprintf(stderr, "mcu_decode: line %d: not a value line: %s", lineno, line);
            status = 1;
            continue;
        }
        uint64_t bits = strtoull(hex, NULL, 16);
        const char *label = "";
        if ((strcmp(name, "q") == 0 || strcmp(name, "v") == 0) && idx >= 0 && idx < nnames)
            label = names[idx];
        printf("%s[%d]%s%s = ", name, idx, label[0] ? " " : "", label);
        if (strlen(hex) == 16) {
            double d;
            memcpy(&d, &bits, sizeof d);
            printf("%.17g\n", d);
        } else {
            uint32_t b32 = (uint32_t)bits;
            float f;
            memcpy(&f, &b32, sizeof f);
            printf("%.9g\n", (double)f);
        }
    }
    return status;
}
