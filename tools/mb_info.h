/* mb_info.h - the drawing info file next to a results CSV: a model's bodies, named points, springs,
 * revolute joints and rods by name and index (the info part of mb_model, runtime/mb_model.h), written by
 * the simulator and read by the animation tool, so that one animation binary serves every model.
 * Layer: host tool helper (tools/); allocates and does file I/O, the runtime never does.
 *
 * Format (docs/cli.md, "The drawing info file"): text lines "<keyword> <fields>", in this order:
 *   mbinfo 1                     the format and its version
 *   model <name>
 *   body <name>                  one per moving body, in coordinate order
 *   point <body> <name>          one per named point: body index (-1: ground), name
 *   spring <p> <q>               point indices of a spring's ends
 *   joint <p> <q>                point indices of a revolute joint's ends
 *   rod <a> <b>                  a rod's ends: a point index, or -1 - b for body b's centre of
 *                                mass (a particle: it has no named point)
 * A name is the rest of its line: 1..255 bytes, no control characters. The file comes from
 * outside (it may be edited): the reader checks everything and names file:line on error. */
#ifndef MB_INFO_H
#define MB_INFO_H

#include <stddef.h>

#include "mb_model.h"

typedef struct mb_info {
    char *model;
    int nbody, npoint, nspring, njoint, nrod;
    char **body;       /* [nbody] */
    char **point;      /* [npoint] */
    int *point_body;   /* [npoint] -1: ground */
    int *spring;       /* [2 * nspring] */
    int *joint;        /* [2 * njoint] */
    int *rod;          /* [2 * nrod] a point index, or -1 - b: body b's centre of mass */
} mb_info;

/* The info file of a CSV: its path with ".info" appended (malloc'd; NULL: out of memory). */
char *mb_info_path(const char *csv);

/* Write m's info to path (through a temporary renamed into place: never a partial file).
 * Returns 0, or -1 with a message in err[nerr]. */
int mb_info_write(const char *path, const mb_model *m, char *err, size_t nerr);

/* The simulators' call: write m's info file next to csv (mb_info_path); on failure a message
 * "<model>_sim: ..." on stderr and -1. */
int mb_info_write_csv(const char *csv, const mb_model *m);

/* Read path into *f (zeroed first; free with mb_info_free, also after a failure). Returns 0, or
 * -1 with "path:line: what" in err[nerr]. */
int mb_info_read(const char *path, mb_info *f, char *err, size_t nerr);
void mb_info_free(mb_info *f);

#endif /* MB_INFO_H */
