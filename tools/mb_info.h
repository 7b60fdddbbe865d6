/* mb_info.h - the drawing info file next to a results CSV: a model's bodies, particles, named
 * points, springs, revolute joints and rods by name and index (the info part of mb_model,
 * runtime/mb_model.h), written by the simulator (mb_info.c) and read by the animation tool
 * (mb_info_read.c), so that one animation binary serves every model.
 * Layer: host tool helper (tools/); allocates and does file I/O, the runtime never does.
 *
 * Format (docs/cli.md, "The drawing info file"): text lines "<keyword> <fields>", each ended by a
 * line break, in this order:
 *   mbinfo 2                     the format and its version (1: the same without particles)
 *   model <name>
 *   body <name>                  one per moving body or particle, in coordinate order: "body"
 *   particle <name>              for a rigid body, "particle" for a point mass (version 2)
 *   point <body> <name>          one per named point: body index (-1: ground), name
 *   spring <p> <q>               point indices of a spring's ends
 *   joint <p> <q>                point indices of a revolute joint's ends
 *   rod <a> <b>                  a rod's ends: a point index, or -1 - b for particle b (it has
 *                                no named point; its position is its centre of mass)
 *   slot <p> <q> <ax> <ay>       a slot: its line passes through point p along the axis (ax, ay)
 *                                fixed in p's body; the pin q is a point or -1 - b (particle)
 *   gear <p> <q> <r1> <r2>       a gear pair: the axles' centres (points) and pitch radii (0 0:
 *                                not defined; the centres are linked)
 *   rack <c> <p> <r> <ux> <uy>   a rack and pinion: the pinion's centre c, a point p on the rack,
 *                                the signed pitch radius r and the axis u in c's body's axes:
 *                                the pitch line runs along u through c - r Omega u
 *   contact <c> <p> <r> <k> <x> <y>  a contact: a circle of radius r >= 0 around c (a point, or
 *                                -1 - b for particle b) against, k = 0, the line through p along
 *                                (x, y) fixed in p's body, k = 1 the circle of radius x > 0
 *                                around p, k = 2 inside it (y 0); p a point or -1 - b
 *   cam <o> <p> <rr> <n> <x1> <y1> .. <xn> <yn>
 *                                a cam: its centre o (a point), the follower p (a point or
 *                                -1 - b, particle b), the roller's radius rr (0: a point
 *                                follower) and its profile as a closed polyline of n vertices
 *                                (3 <= n <= MB_INFO_CAM_VERTICES) in o's body's axes about o
 * The slot, gear, rack, contact and cam lines (optional, in that order after the rods) carry
 * numbers as C reads them (finite; an axis of any non-zero length, normalized on reading; radii >= 0, a
 * rack's radius not 0). Readers that predate them refuse them as unknown keywords.
 * A name is the rest of its line: 1..255 bytes, no control characters. The file comes from
 * outside (it may be edited, cut short or be something else entirely): the reader checks
 * everything (a line of at most MB_INFO_LINE_MAX bytes, a line break at the end, at most
 * MB_INFO_MAX_ITEMS of each kind) and names file:line on error. */
#ifndef MB_INFO_H
#define MB_INFO_H

#include <stddef.h>
#include <stdio.h>

#include "mb_model.h"

#define MB_INFO_NAME_MAX 255      /* bytes of a name */
#define MB_INFO_LINE_MAX 4096     /* bytes of a line: "point -1 " and the longest name fit */
#define MB_INFO_MAX_ITEMS 1000000 /* bodies, points, springs, joints, rods, slots, gears,
                                     racks, contacts or cams: far beyond any model */
#define MB_INFO_CAM_VERTICES 64   /* a cam line's vertices at most: 64 at 17 digits fit a line */

typedef struct mb_info {
    char *model;
    int nbody, npoint, nspring, njoint, nrod;
    char **body;       /* [nbody] */
    int *particle;     /* [nbody] 1: a particle (a point mass: no rotation, no named point) */
    char **point;      /* [npoint] */
    int *point_body;   /* [npoint] -1: ground */
    int *spring;       /* [2 * nspring] */
    int *joint;        /* [2 * njoint] */
    int *rod;          /* [2 * nrod] a point index, or -1 - b: particle b */
    int nslot, ngear, nrack;
    int *slot;         /* [2 * nslot] the point on the slotted body, the pin (as rod ends) */
    double *slot_axis; /* [2 * nslot] unit axis in the point's body's axes */
    int *gear;         /* [2 * ngear] the centres' points */
    double *gear_r;    /* [2 * ngear] pitch radii (0 0: not defined) */
    int *rack;         /* [2 * nrack] the pinion's centre, a point on the rack */
    double *rack_geom; /* [3 * nrack] signed pitch radius, unit axis in the centre's body's axes */
    int ncontact;
    int *contact;      /* [2 * ncontact] the circle's centre, the line's or circle's point (as
                          rod ends) */
    double *contact_geom; /* [4 * ncontact] r, kind (0 line, 1 circle, 2 inside, 3 segment,
                             4 profile), (ux, uy) of a line in the point's body's axes, (R, 0),
                             the segment's (dx, dy) or the profile's cam entry and 0 */
    int ncam;
    int *cam;          /* [2 * ncam] the cam's centre (a point), the follower (as rod ends) */
    double *cam_roller; /* [ncam] roller radius (0: a point follower) */
    int *cam_nv;       /* [ncam] vertices of each profile */
    double *cam_xy;    /* [2 * MB_INFO_CAM_VERTICES * ncam] each profile's vertices, about its
                          centre in its body's axes (the first 2 cam_nv[c] of each block) */
} mb_info;

/* A name the format can carry: 1..255 bytes, no control characters (a newline would end it). */
int mb_info_name_ok(const char *s);

/* The info file of a CSV: its path with ".info" appended (malloc'd; NULL: out of memory). */
char *mb_info_path(const char *csv);

/* Write m's info to path (through a temporary renamed into place: never a partial file).
 * Returns 0, or -1 with a message in err[nerr]. */
int mb_info_write(const char *path, const mb_model *m, char *err, size_t nerr);

/* The simulators' call: write m's info file next to csv (mb_info_path); on failure a message
 * "<model>_sim: ..." on stderr and -1. */
int mb_info_write_csv(const char *csv, const mb_model *m);

/* Read path (a regular file or a pipe) into *f (zeroed first; free with mb_info_free, also after
 * a failure). Returns 0, or -1 with "path:line: what" in err[nerr]. */
int mb_info_read(const char *path, mb_info *f, char *err, size_t nerr);
/* The same from an open stream, named path in messages (the fuzz target reads a buffer). */
int mb_info_read_stream(FILE *in, const char *path, mb_info *f, char *err, size_t nerr);
void mb_info_free(mb_info *f);

#endif /* MB_INFO_H */
