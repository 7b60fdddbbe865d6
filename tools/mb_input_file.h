/* mb_input_file.h - the simulator's --input-file: a time series of a model's inputs (CSV) set
 * before every step as the hold says (docs/cli.md, "Inputs"). Host tools only (allocates). */
#ifndef MB_INPUT_FILE_H
#define MB_INPUT_FILE_H

#include <stddef.h>
#include "mb_sim.h"

typedef struct mb_input_table {
    int ncol;          /* input columns */
    int *col_in;       /* [ncol] the model input of each column */
    long nrow;
    double *t;         /* [nrow] strictly increasing */
    double *val;       /* [nrow * ncol] row-major */
    int applied;       /* mb_input_table_apply: set the holds of row `row` (-1: before the first) */
    long row;
} mb_input_table;

/* Read PATH: a header "t,<input>,..." (the model's input names, each at most once, any subset)
 * and rows of finite numbers with t strictly increasing. 0, or -1 with the reason in err
 * ("file:line: ..."); nothing is kept on failure. */
int mb_input_table_read(const char *path, const mb_model *m, mb_input_table *tb, char *err,
                        size_t nerr);
void mb_input_table_free(mb_input_table *tb);
/* Set the inputs of s for the step from its time t, when t has entered another row than the
 * last call's (nothing, else: the holds set then still apply): foh 0, the zero-order hold (the
 * value of the last row at or before t, the first row's before it); foh 1, the first-order hold
 * (the table interpolated linearly, and extended constant beyond its ends: value at t and the
 * slope of the segment t lies on). A step that spans a row sees the hold of its start: adaptive
 * runs stop at every row (mb_input_table_next), fixed steps should have the rows on their grid. */
void mb_input_table_apply(mb_input_table *tb, mb_sim *s, double t, int foh);
/* The first row time after t (+ a rounding margin), or HUGE_VAL: an adaptive step stops there,
 * so that no step spans a row (a kink of the first-order hold, a jump of the zero-order one). */
double mb_input_table_next(const mb_input_table *tb, double t);

#endif /* MB_INPUT_FILE_H */
