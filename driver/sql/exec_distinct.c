/*
** exec_distinct.c — SELECT DISTINCT: each distinct row once, at its first
** occurrence (so the input order is kept).
**
** Streaming: every row is looked up in a row set (rowstore.c) of the rows
** seen so far; new rows pass on as a selection over the child's batch.
** NULLs are equal to each other here.  For Access sources text compares
** without regard to case: the set sees the rows with their text folded to
** lower case, and the first row of each group passes as it is.
*/
#include "collate.h"
#include "exec.h"

#include <string.h>

typedef struct distinct_op {
    sql_operator base;
    sql_rowset seen;
    bool started;
    uint32_t *sel;
    uint64_t *hashes;    /* per row position of the chunk */
    bool nocase;         /* Access */
    lt_vector *fold;     /* the chunk's columns, text folded */
    lt_bytes **cells;
    lt_arena text;
} distinct_op;

/* The chunk as the set sees it: for Access, text columns lower-cased. */
static int set_view(distinct_op *d, const sql_chunk *in, const uint32_t *sel, lt_batch *view,
                    lt_error *err)
{
    *view = *in->batch;
    if (!d->nocase)
        return 0;
    uint32_t ncols = in->batch->ncols;
    if (d->fold == NULL) {
        lt_arena *ar = &d->base.ex->arena;
        d->fold = lt_arena_alloc(ar, (ncols + 1) * sizeof *d->fold);
        d->cells = lt_arena_alloc(ar, (ncols + 1) * sizeof *d->cells);
        if (d->fold == NULL || d->cells == NULL)
            return lt_error_set(err, "HY001", "out of memory");
        for (uint32_t c = 0; c < ncols; c++)
            if ((d->cells[c] = lt_arena_alloc(ar, LT_BATCH_ROWS * sizeof **d->cells)) == NULL)
                return lt_error_set(err, "HY001", "out of memory");
    }
    lt_arena_reset(&d->text);
    for (uint32_t c = 0; c < ncols; c++)
        if (sql_fold_text_vector(&in->batch->cols[c], sel, in->n, &d->fold[c], d->cells[c],
                                 &d->text) != 0)
            return lt_error_set(err, "HY001", "out of memory");
    view->cols = d->fold;
    return 0;
}

static int distinct_next(sql_operator *op, sql_chunk *out, lt_error *err)
{
    distinct_op *d = (distinct_op *)op;
    for (;;) {
        sql_chunk in;
        if (sql_next(op->child, &in, err) != 0)
            return -1;
        if (in.n == 0) {
            *out = in;
            return 0;
        }
        const uint32_t *sel = in.sel ? in.sel : op->ex->identity;
        lt_batch view;
        if (set_view(d, &in, sel, &view, err) != 0)
            return -1;
        if (!d->started) {
            if (sql_rowset_init(&d->seen, &view, view.ncols, err) != 0)
                return -1;
            d->started = true;
            sql_rowstore_budget(&d->seen.rows, op->ex->budget,
                                sql_budget_what(op->ex, "deduplicate", NULL));
        }
        sql_rowset_hashes(&d->seen, &view, sel, in.n, d->hashes);
        uint32_t k = 0;
        for (uint32_t i = 0; i < in.n; i++) {
            uint32_t row = sel[i];
            bool added;
            if (sql_rowset_insert(&d->seen, &view, row, d->hashes[row], &added, err) < 0)
                return -1;
            if (added)
                d->sel[k++] = row;
        }
        if (k > 0) {
            out->batch = in.batch;
            out->sel = d->sel;
            out->n = k;
            return 0;
        }
    }
}

static void distinct_close(sql_operator *op)
{
    distinct_op *d = (distinct_op *)op;
    if (d->started)
        sql_rowset_free(&d->seen);
    lt_arena_free(&d->text);
    sql_close(op->child);
}

int sql_op_distinct(sql_exec *ex, sql_operator *child, sql_operator **out,
                    lt_error *err)
{
    distinct_op *d = lt_arena_alloc(&ex->arena, sizeof *d);
    uint32_t *sel = lt_arena_alloc(&ex->arena, LT_BATCH_ROWS * sizeof *sel);
    uint64_t *hashes = lt_arena_alloc(&ex->arena, LT_BATCH_ROWS * sizeof *hashes);
    if (d == NULL || sel == NULL || hashes == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    memset(d, 0, sizeof *d);
    d->hashes = hashes;
    d->base.next = distinct_next;
    d->base.close = distinct_close;
    d->base.ex = ex;
    d->base.child = child;
    d->sel = sel;
    d->nocase = sql_text_nocase(ex);
    lt_arena_init(&d->text);
    *out = &d->base;
    return 0;
}
