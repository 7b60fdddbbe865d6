/* mb_info.c - write the drawing info file of a results CSV (format: mb_info.h; the reader, which
 * only the animation tool needs: mb_info_read.c). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* getpid */
#endif
#include "mb_info.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *mb_info_path(const char *csv)
{
    size_t n = strlen(csv);
    char *p = malloc(n + 6);
    if (p) {
        memcpy(p, csv, n);
        memcpy(p + n, ".info", 6);
    }
    return p;
}

int mb_info_name_ok(const char *s)
{
    size_t n = 0;
    if (!s) return 0;
    for (; s[n]; n++)
        if ((unsigned char)s[n] < 0x20 || s[n] == 0x7f) return 0;
    return n >= 1 && n <= MB_INFO_NAME_MAX;
}

static int write_body(FILE *f, const mb_model *m, char *err, size_t nerr)
{
    const mb_model_info *in = m->info;
    fprintf(f, "mbinfo 2\nmodel %s\n", m->name);
    for (int b = 0; b < m->nbody; b++) {
        if (!mb_info_name_ok(in->body_names[b])) {
            snprintf(err, nerr, "body %d: name unfit for the info file", b);
            return -1;
        }
        /* a particle: two coordinates (mb_body_nq), no rotation, no named point */
        fprintf(f, "%s %s\n", mb_body_nq(m, b) == 2 ? "particle" : "body", in->body_names[b]);
    }
    for (int p = 0; p < m->npoint; p++) {
        if (!mb_info_name_ok(in->point_names[p])) {
            snprintf(err, nerr, "point %d: name unfit for the info file", p);
            return -1;
        }
        fprintf(f, "point %d %s\n", m->point_body[p], in->point_names[p]);
    }
    for (int s = 0; s < in->nspring; s++)
        fprintf(f, "spring %d %d\n", in->spring_points[2 * s], in->spring_points[2 * s + 1]);
    for (int j = 0; j < in->njoint; j++)
        fprintf(f, "joint %d %d\n", in->joint_points[2 * j], in->joint_points[2 * j + 1]);
    for (int r = 0; r < in->nrod; r++)
        fprintf(f, "rod %d %d\n", in->rod_ends[2 * r], in->rod_ends[2 * r + 1]);
    /* %.17g: the doubles read back exactly */
    for (int s = 0; s < in->nslot; s++)
        fprintf(f, "slot %d %d %.17g %.17g\n", in->slot_ends[2 * s], in->slot_ends[2 * s + 1],
                in->slot_axis[2 * s], in->slot_axis[2 * s + 1]);
    for (int g = 0; g < in->ngear; g++)
        fprintf(f, "gear %d %d %.17g %.17g\n", in->gear_centres[2 * g], in->gear_centres[2 * g + 1],
                in->gear_radii[2 * g], in->gear_radii[2 * g + 1]);
    for (int r = 0; r < in->nrack; r++)
        fprintf(f, "rack %d %d %.17g %.17g %.17g\n", in->rack_points[2 * r],
                in->rack_points[2 * r + 1], in->rack_geom[3 * r], in->rack_geom[3 * r + 1],
                in->rack_geom[3 * r + 2]);
    for (int k = 0; k < in->ncontact; k++)
        fprintf(f, "contact %d %d %.17g %d %.17g %.17g\n", in->contact_points[2 * k],
                in->contact_points[2 * k + 1], in->contact_geom[4 * k], (int)in->contact_geom[4 * k + 1],
                in->contact_geom[4 * k + 2], in->contact_geom[4 * k + 3]);
    for (int c = 0; c < in->ncam; c++) {   /* one line: at most 4096 bytes (mb_info.h) */
        const double *v = in->cam_profile + 2 * MB_CAM_VERTICES * c;
        fprintf(f, "cam %d %d %.17g %d", in->cam_points[2 * c], in->cam_points[2 * c + 1],
                in->cam_roller[c], MB_CAM_VERTICES);
        for (int i = 0; i < 2 * MB_CAM_VERTICES; i++) fprintf(f, " %.17g", v[i]);
        fputc('\n', f);
    }
    return 0;
}

/* a cam's line carries the model's vertices: the reader must take that many */
typedef char mb_info_cam_vertices_fit[MB_CAM_VERTICES <= MB_INFO_CAM_VERTICES ? 1 : -1];

int mb_info_write(const char *path, const mb_model *m, char *err, size_t nerr)
{
    char tmp[4096];
    FILE *f;
    if (!m->info || !m->info->body_names || (m->npoint > 0 && (!m->info->point_names || !m->point_body)) ||
        !mb_info_name_ok(m->name)) {
        snprintf(err, nerr, "the model has no names to write to %s", path);
        return -1;
    }
    if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp) {
        snprintf(err, nerr, "%s: path too long", path);
        return -1;
    }
    if (!(f = fopen(tmp, "w"))) {
        snprintf(err, nerr, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    if (write_body(f, m, err, nerr) != 0) {
        fclose(f);
        remove(tmp);
        return -1;
    }
    if ((ferror(f) | (fclose(f) != 0)) || rename(tmp, path) != 0) {
        snprintf(err, nerr, "cannot write %s: %s", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

int mb_info_write_csv(const char *csv, const mb_model *m)
{
    char err[4400];
    char *path = mb_info_path(csv);
    int rc = path ? mb_info_write(path, m, err, sizeof err) : -1;
    if (!path) snprintf(err, sizeof err, "out of memory");
    if (rc != 0) fprintf(stderr, "%s_sim: drawing info file: %s\n", m->name, err);
    free(path);
    return rc;
}
