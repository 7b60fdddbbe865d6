/* mb_optable.h - a command line described by one table of options: each row names an option,
 * its kind (flag, integer, real, string, choice), the field of the options struct it sets, where
 * it applies (analyses, formulations, integrators, the step control) and its help text. The same
 * rows drive the parser, the refusal of an option that has no effect with what was chosen, the
 * --help text and the option rows of docs/cli.md (--help=markdown, checked by
 * tests/test_sim_options.sh). The simulator's table: tools/mb_sim_options.c.
 * Layer: host tool helper (tools/); prints. */
#ifndef MB_OPTABLE_H
#define MB_OPTABLE_H

#include <stddef.h>
#include <stdio.h>

enum {
    MB_OPT_HELP,     /* prints the usage, exit 0 */
    MB_OPT_FLAG,     /* int field = set */
    MB_OPT_INT,      /* int field, an integer in [lo, hi] */
    MB_OPT_LONG,     /* long field, an integer in [lo, hi] */
    MB_OPT_REAL,     /* double field, a finite number in [lo, hi] (lo excluded when lo_open) */
    MB_OPT_STRING,   /* const char * field: the value as given; empty refused when nonempty */
    MB_OPT_ENUM,     /* int field: the value of the choice named */
    MB_OPT_CUSTOM    /* accept() stores it */
};

/* The dimensions an option may be limited to; bit k of a mask is value k. */
#define MB_OPT_ALL 0xffffu
enum { MB_OPT_CTL_ANY, MB_OPT_CTL_FIXED, MB_OPT_CTL_STEPCTL };

typedef struct { const char *name; int value; } mb_opt_choice;

typedef struct mb_opt {
    const char *name;          /* "--h"; NULL ends the table */
    int kind;
    const char *meta;          /* the value's name in the help ("S"); NULL for flags */
    size_t off;                /* the field in the options struct */
    int set;                   /* MB_OPT_FLAG: the value stored */
    double lo, hi;             /* MB_OPT_INT/LONG/REAL: the range */
    int lo_open;               /* MB_OPT_REAL: lo itself refused */
    const char *why_bad;       /* a value out of range (INT/LONG: also not an integer; STRING:
                                  empty, and then refused) */
    const char *why_hi;        /* INT/LONG: above hi (NULL: why_bad) */
    const mb_opt_choice *choices;   /* MB_OPT_ENUM, NULL-terminated */
    const char *expect;        /* MB_OPT_ENUM: the message for another word (NULL: "expected
                                  a, b or c" from the choices) */
    /* MB_OPT_CUSTOM, and after an ENUM is stored: NULL, or why val is refused */
    const char *(*accept)(void *opts, const char *val);
    /* where it applies: the analyses, the formulations (or any formulation with an integrator
     * in also_integs), the integrators and the step control; group: which refusal pass checks
     * it (mb_opt_refuse) */
    unsigned analyses, forms, also_integs, integs;
    int ctl, group;
    const char *why_analysis;  /* the refusal's reason for another analysis (NULL: the table's) */
    const char *why;           /* ... for another formulation or integrator */
    const char *why_integ;     /* ... for another integrator (NULL: why) */
    const char *why_ctl;       /* ... for the other step control */
    const char *refuse_as;     /* the name the refusal gives (NULL: name) */
    /* after the masks: NULL, or why the value given does not apply to analysis a (*as: the
     * name to give) */
    const char *(*refuse_value)(const void *opts, int analysis, const char **as);
    int doc_joined;            /* docs/cli.md: in the row of the option above */
    const char *example;       /* a valid value, for tests (--help=table); NULL: none */
    const char *help;          /* --help text; '\n' starts a continuation line */
} mb_opt;

/* The names of the dimensions' values, for messages, --help and the docs (bit k: names[k]). */
typedef struct mb_optable {
    const mb_opt *opt;
    const char *prog;          /* "<model>_sim": the messages' prefix */
    const char *const *analyses, *const *forms, *const *integs;
    int nanalyses, nforms, ninteg;
    const char *why_analysis;  /* an option of another analysis (mb_opt.why_analysis NULL) */
} mb_optable;

/* What the run chose, against which an option given is checked. */
typedef struct mb_opt_ctx {
    int analysis, form, integ;
    int stepctl;               /* 1: the trapezoid's step control (--rtol/--atol) */
} mb_opt_ctx;

/* Parse argv into opts (whose fields hold the defaults); given[row] says which options were
 * given (a flag that shares its field with another cancels the other). Values as --opt VALUE or
 * --opt=VALUE. Returns -1 to go on, 0 after printing the usage (--help; --help=markdown prints
 * the docs rows, --help=table the rows for tests), 2 after a message (the usage follows an
 * unknown or incomplete option). */
int mb_opt_parse(const mb_optable *t, int argc, char **argv, void *opts, unsigned char *given,
                 void (*usage)(FILE *));

/* The options of group `group` given that have no effect with what x chose, in table order:
 * the first is named on stderr ("<prog>: option --x has no effect with --integrator rk4: why").
 * Returns 1 after saying so, 0 when all apply. */
int mb_opt_refuse(const mb_optable *t, int group, const unsigned char *given, const void *opts,
                  const mb_opt_ctx *x);

/* The --help lines of every option of group `group` (-1: all): "  --name META  help". */
void mb_opt_usage(const mb_optable *t, int group, FILE *f);

/* docs/cli.md's option rows: "| `--name META`, `--other` | applies to |" per docs row. */
void mb_opt_markdown(const mb_optable *t, FILE *f);

/* A finite double from s: NULL, or why not ("not a number", "underflows to 0 ..."). A
 * subnormal value is a finite number. */
const char *mb_opt_num(const char *s, double *out);

/* The rows as tests read them, one line each, tab-separated: the name, the name a refusal
 * gives, an example value ("-" for a flag, "" for none), the masks of analyses, formulations,
 * also_integs and integrators, the step control and the group. */
void mb_opt_table_dump(const mb_optable *t, FILE *f);

/* The row of an option by name, or -1. */
int mb_opt_find(const mb_optable *t, const char *name);

#endif /* MB_OPTABLE_H */
