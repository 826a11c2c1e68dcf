/*
** spill.h — sorted runs on temporary files, merged back (ORDER BY past the
** execution's memory budget; see spill.c).
*/
#ifndef LT_SQL_SPILL_H
#define LT_SQL_SPILL_H

#include "exec.h"

#include <stdio.h>

/* The sort's comparison of row ra of columns a with row rb of columns b. */
typedef int (*sql_spill_cmp)(const void *ctx, const lt_vector *a, uint32_t ra,
                             const lt_vector *b, uint32_t rb);

typedef struct sql_spill_run sql_spill_run;

typedef struct sql_spill {
    sql_spill_run *runs;  /* in input order: run i holds rows before run i+1's */
    uint32_t nruns, cap;
    uint32_t ncols;
    lt_type *types;       /* the stored columns' types and scales */
    int16_t *scales;
    uint32_t *heap;       /* runs with rows left, the next to return first */
    uint32_t heap_n;
    sql_spill_cmp cmp;
    const void *ctx;
    sql_budget *budget;
    const char *what;
    uint64_t held;        /* the merge's buffers, taken from budget */
} sql_spill;

/* Write stored rows perm[0..n) of rs, in that order, as a new run. */
int sql_spill_write(sql_spill *sp, const sql_rowstore *rs, const uint32_t *perm, uint32_t n,
                    lt_error *err);
/* Start merging the runs (buffers taken from b for `what`). */
int sql_spill_merge_begin(sql_spill *sp, sql_spill_cmp cmp, const void *ctx, sql_budget *b,
                          const char *what, lt_error *err);
/* Free *out, then fill it (budgeted like the sort's store) with the next
** rows in order, at most max; out->count == 0 at the end. */
int sql_spill_merge_next(sql_spill *sp, sql_rowstore *out, uint32_t max, lt_error *err);
void sql_spill_free(sql_spill *sp);

/* budget.c: would `bytes` more fit within the budget? */
bool sql_budget_fits(const sql_budget *b, uint64_t bytes);
/* rowstore.c: the bytes sql_rowstore_append(rs, b, row) would take. */
uint64_t sql_rowstore_need(const sql_rowstore *rs, const lt_batch *b, uint32_t row);

#endif
