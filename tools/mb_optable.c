/* mb_optable.c - the parser, the refusals, --help and the docs rows of a table of options
 * (mb_optable.h). Layer: host tool helper (tools/); prints. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "mb_optable.h"

#define BIT(k) (1u << (unsigned)(k))
#define FIELD(opts, o, type) ((type *)(void *)((char *)(opts) + (o)->off))

int mb_opt_find(const mb_optable *t, const char *name)
{
    for (int r = 0; t->opt[r].name; r++)
        if (!strcmp(t->opt[r].name, name)) return r;
    return -1;
}

/* A finite double: NULL on success, else why not. A subnormal value is a finite number (strtod
 * reports ERANGE for it too); a value that underflows to 0 is said to. */
const char *mb_opt_num(const char *s, double *out)
{
    char *end;
    if (!s || !*s) return "not a number";
    errno = 0;
    double v = strtod(s, &end);
    if (*end || end == s) return "not a number";
    if (!isfinite(v) || (errno == ERANGE && fabs(v) > 1)) return "not a finite number";
    if (errno == ERANGE && v == 0) return "underflows to 0 (below the smallest double)";
    *out = v;
    return NULL;
}

/* "expected a, b or c" from an option's choices. */
static const char *expected(const mb_opt_choice *c)
{
    static char buf[256];
    int n = 0;
    while (c[n].name) n++;
    snprintf(buf, sizeof buf, "expected");
    for (int k = 0; k < n; k++) {
        size_t l = strlen(buf);
        snprintf(buf + l, sizeof buf - l, "%s%s", k == 0 ? " " : k == n - 1 ? " or " : ", ", c[k].name);
    }
    return buf;
}

/* Store val into the field of row o: NULL, or why val is refused. */
static const char *store(const mb_opt *o, void *opts, const char *val)
{
    switch (o->kind) {
    case MB_OPT_INT:
    case MB_OPT_LONG: {
        char *end;
        errno = 0;
        long k = strtol(val, &end, 10);
        if (*end || errno || (double)k < o->lo) return o->why_bad;
        if ((double)k > o->hi) return o->why_hi ? o->why_hi : o->why_bad;
        if (o->kind == MB_OPT_INT) *FIELD(opts, o, int) = (int)k;
        else *FIELD(opts, o, long) = k;
        return NULL;
    }
    case MB_OPT_REAL: {
        double v;
        const char *why = mb_opt_num(val, &v);
        if (why) return why;
        if (!(o->lo_open ? v > o->lo : v >= o->lo) || !(v <= o->hi)) return o->why_bad;
        *FIELD(opts, o, double) = v;
        return NULL;
    }
    case MB_OPT_STRING:
        if (o->why_bad && !*val) return o->why_bad;
        *FIELD(opts, o, const char *) = val;
        return NULL;
    case MB_OPT_ENUM: {
        const mb_opt_choice *c = o->choices;
        while (c->name && strcmp(c->name, val)) c++;
        if (!c->name) return o->expect ? o->expect : expected(o->choices);
        *FIELD(opts, o, int) = c->value;
        return o->accept ? o->accept(opts, val) : NULL;
    }
    default:   /* MB_OPT_CUSTOM */
        return o->accept(opts, val);
    }
}

/* Row r was given: it and no other row that sets the same field (--newton-reuse after
 * --no-newton-reuse: the last one counts). */
static void mark(const mb_optable *t, unsigned char *given, int r)
{
    for (int s = 0; t->opt[s].name; s++)
        if (t->opt[s].kind == t->opt[r].kind && t->opt[s].off == t->opt[r].off) given[s] = 0;
    given[r] = 1;
}

int mb_opt_parse(const mb_optable *t, int argc, char **argv, void *opts, unsigned char *given,
                 void (*usage)(FILE *))
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = NULL, *eq = !strncmp(a, "--", 2) ? strchr(a, '=') : NULL;
        char name[32];
        if (eq) {   /* --opt=VALUE */
            size_t n = (size_t)(eq - a);
            if (n >= sizeof name) n = sizeof name - 1;   /* too long for any option: unknown */
            memcpy(name, a, n);
            name[n] = '\0';
            a = name;
            val = eq + 1;
        }
        int r = mb_opt_find(t, a);
        const mb_opt *o = r >= 0 ? &t->opt[r] : NULL;
        if (o && (o->kind == MB_OPT_HELP || o->kind == MB_OPT_FLAG)) {
            if (eq && o->kind == MB_OPT_HELP && !strcmp(val, "markdown")) {   /* docs/cli.md */
                mb_opt_markdown(t, stdout);
                return 0;
            }
            if (eq && o->kind == MB_OPT_HELP && !strcmp(val, "table")) {   /* the tests' view */
                mb_opt_table_dump(t, stdout);
                return 0;
            }
            if (eq) { fprintf(stderr, "%s: option %s takes no value: %s\n", t->prog, a, argv[i]); return 2; }
            if (o->kind == MB_OPT_HELP) { usage(stdout); return 0; }
            *FIELD(opts, o, int) = o->set;
            mark(t, given, r);
            continue;
        }
        if (!o) {
            fprintf(stderr, "%s: unknown option %s\n", t->prog, eq ? argv[i] : a);
            usage(stderr);
            return 2;
        }
        if (!eq) {
            if (i + 1 >= argc) { fprintf(stderr, "%s: option %s needs a value\n", t->prog, a); usage(stderr); return 2; }
            val = argv[++i];
        }
        const char *why = store(o, opts, val);
        if (why) {
            fprintf(stderr, "%s: invalid value '%s' for %s: %s\n", t->prog, val, a, why);
            return 2;
        }
        mark(t, given, r);
    }
    return -1;
}

static int refuse(const mb_optable *t, const mb_opt *o, const char *as, const char *with, const char *why)
{
    fprintf(stderr, "%s: option %s has no effect with %s: %s\n", t->prog,
            as ? as : o->refuse_as ? o->refuse_as : o->name, with, why);
    return 1;
}

static const char *name_of(const char *const *names, int n, int k) { return k >= 0 && k < n ? names[k] : "?"; }

int mb_opt_refuse(const mb_optable *t, int group, const unsigned char *given, const void *opts,
                  const mb_opt_ctx *x)
{
    char with[96];
    for (int r = 0; t->opt[r].name; r++) {
        const mb_opt *o = &t->opt[r];
        if (!given[r] || o->group != group) continue;
        if (!(o->analyses & BIT(x->analysis))) {
            snprintf(with, sizeof with, "--analysis %s", name_of(t->analyses, t->nanalyses, x->analysis));
            return refuse(t, o, NULL, with, o->why_analysis ? o->why_analysis : t->why_analysis);
        }
        if (x->analysis == 0) {   /* the dynamic run's formulation, integrator, step control */
            if (!(o->forms & BIT(x->form)) && !(o->also_integs & BIT(x->integ))) {
                snprintf(with, sizeof with, "--formulation %s", name_of(t->forms, t->nforms, x->form));
                return refuse(t, o, NULL, with, o->why);
            }
            if (!(o->integs & BIT(x->integ))) {
                snprintf(with, sizeof with, "--integrator %s", name_of(t->integs, t->ninteg, x->integ));
                return refuse(t, o, NULL, with, o->why_integ ? o->why_integ : o->why);
            }
            if (o->ctl == MB_OPT_CTL_FIXED && x->stepctl)
                return refuse(t, o, NULL, "alf-trapezoid's step control (--rtol/--atol)", o->why_ctl);
            if (o->ctl == MB_OPT_CTL_STEPCTL && !x->stepctl)
                return refuse(t, o, NULL, "fixed steps (no --rtol or --atol)", o->why_ctl);
        }
        const char *as = NULL, *why = o->refuse_value ? o->refuse_value(opts, x->analysis, &as) : NULL;
        if (why) {
            snprintf(with, sizeof with, "--analysis %s", name_of(t->analyses, t->nanalyses, x->analysis));
            return refuse(t, o, as, with, why);
        }
    }
    return 0;
}

void mb_opt_usage(const mb_optable *t, int group, FILE *f)
{
    for (const mb_opt *o = t->opt; o->name; o++) {
        if (!o->help || (group >= 0 && o->group != group)) continue;
        char head[64];
        snprintf(head, sizeof head, "  %s%s%s", o->name, o->meta ? " " : "", o->meta ? o->meta : "");
        fprintf(f, "%-19s ", head);
        for (const char *s = o->help; *s; s++) {
            fputc(*s, f);
            if (*s == '\n') fprintf(f, "%20s", "");
        }
        fputc('\n', f);
    }
}

/* The names of the set bits of mask among n values: "a, b" + last + "c". */
static void list(char *buf, size_t size, const char *const *names, int n, unsigned mask, const char *last)
{
    int total = 0, k2 = 0;
    for (int k = 0; k < n; k++) total += (mask & BIT(k)) != 0;
    buf[0] = '\0';
    for (int k = 0; k < n; k++) {
        if (!(mask & BIT(k))) continue;
        size_t l = strlen(buf);
        snprintf(buf + l, size - l, "%s%s", k2 == 0 ? "" : k2 == total - 1 ? last : ", ", names[k]);
        k2++;
    }
}

static int count(unsigned mask, int n)
{
    int c = 0;
    for (int k = 0; k < n; k++) c += (mask & BIT(k)) != 0;
    return c;
}

/* Where an option applies, in words: "dynamic: canonical, alf-explicit, alf-trapezoid". */
static void applies(const mb_optable *t, const mb_opt *o, char *buf, size_t size)
{
    unsigned all_a = BIT(t->nanalyses) - 1, all_f = BIT(t->nforms) - 1, all_i = BIT(t->ninteg) - 1;
    unsigned an = o->analyses & all_a, fo = o->forms & all_f, in = o->integs & all_i;
    char part[160];
    if (an == all_a) snprintf(buf, size, "all");
    else list(buf, size, t->analyses, t->nanalyses, an, ", ");
    if (!(an & 1)) return;   /* the rest steers the dynamic run */
    const char *sep = ": ";
    if (fo != all_f) {
        unsigned also = o->also_integs & all_i;
        list(part, sizeof part, t->forms, t->nforms, fo, also ? ", " : " or ");
        size_t l = strlen(part);
        if (also) {
            snprintf(part + l, sizeof part - l, " or ");
            list(part + l + 4, sizeof part - l - 4, t->integs, t->ninteg, also, " or ");
        }
        l = strlen(buf);
        snprintf(buf + l, size - l, "%s%s", sep, part);
        sep = "; ";
    }
    if (in != all_i) {
        int neg = count(in, t->ninteg) > t->ninteg / 2;
        list(part, sizeof part, t->integs, t->ninteg, neg ? all_i & ~in : in, " or ");
        size_t l = strlen(buf);
        snprintf(buf + l, size - l, "%s%s%s", sep, neg ? "not " : "", part);
        sep = "; ";
    }
    size_t l = strlen(buf);
    if (o->ctl == MB_OPT_CTL_FIXED)
        snprintf(buf + l, size - l, "%snot with --rtol/--atol on the trapezoid (its step control)", sep);
    else if (o->ctl == MB_OPT_CTL_STEPCTL)
        snprintf(buf + l, size - l, " with --rtol/--atol (its step control)");
}

/* "`--name META`" with the table's pipes escaped. */
static void md_name(const mb_opt *o, FILE *f)
{
    fprintf(f, "`%s", o->name);
    if (o->meta) {
        fputc(' ', f);
        for (const char *s = o->meta; *s; s++) fputs(*s == '|' ? "\\|" : (char[2]){*s, 0}, f);
    }
    fputc('`', f);
}

void mb_opt_markdown(const mb_optable *t, FILE *f)
{
    char buf[512];
    for (const mb_opt *o = t->opt; o->name; o++) {
        if (o->doc_joined) continue;
        fputs("| ", f);
        md_name(o, f);
        for (const mb_opt *j = o + 1; j->name && j->doc_joined; j++) {
            fputs(", ", f);
            md_name(j, f);
        }
        applies(t, o, buf, sizeof buf);
        fprintf(f, " | %s |\n", buf);
    }
}

void mb_opt_table_dump(const mb_optable *t, FILE *f)
{
    for (const mb_opt *o = t->opt; o->name; o++)
        fprintf(f, "%s\t%s\t%s\t%u\t%u\t%u\t%u\t%d\t%d\n", o->name, o->refuse_as ? o->refuse_as : o->name,
                o->kind == MB_OPT_FLAG || o->kind == MB_OPT_HELP ? "-" : o->example ? o->example : "",
                o->analyses, o->forms, o->also_integs, o->integs, o->ctl, o->group);
}
