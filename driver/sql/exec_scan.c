/*
** exec_scan.c — the scan operator: batches of a table from its reader.
**
** The reader decodes only the columns of the spec, in spec order, and has
** been offered the simple predicates (planner.c reads its answers).  The
** cancel flag is checked before each batch, so a long scan under a sort
** stops promptly.
*/
#include "exec.h"

#include <stdlib.h>

typedef struct scan_op {
    sql_operator base;
    lt_source *src;
    lt_scan *scan;
    lt_batch *batch;
    bool done;
} scan_op;

static int scan_next(sql_operator *op, sql_chunk *out, lt_error *err)
{
    scan_op *s = (scan_op *)op;
    out->batch = s->batch;
    out->sel = NULL;
    out->n = 0;
    if (s->done)
        return 0;
    if (sql_check_cancel(op->ex, err) != 0)
        return -1;
    if (s->src->reader->scan_next(s->scan, s->batch, err) != 0)
        return -1;
    if (s->batch->count > s->batch->capacity)
        return lt_error_set(err, "HY000", "reader '%s' filled %u rows into a batch of %u",
                            s->src->reader->name, s->batch->count, s->batch->capacity);
    if (s->batch->count == 0)
        s->done = true;
    out->n = s->batch->count;
    return 0;
}

static void scan_close(sql_operator *op)
{
    scan_op *s = (scan_op *)op;
    if (s->scan != NULL)
        s->src->reader->scan_close(s->scan);
    lt_batch_free(s->batch);
}

int sql_op_scan(sql_exec *ex, lt_source *src, lt_scan_spec *spec,
                sql_operator **out, lt_error *err)
{
    scan_op *s = lt_arena_alloc(&ex->arena, sizeof *s);
    const lt_table *t = &src->tables[spec->table];
    lt_type *types = lt_arena_alloc(&ex->arena, (spec->ncols + 1) * sizeof *types);
    int16_t *scales = lt_arena_alloc(&ex->arena, (spec->ncols + 1) * sizeof *scales);
    if (s == NULL || types == NULL || scales == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    for (uint32_t i = 0; i < spec->ncols; i++) {
        types[i] = t->cols[spec->cols[i]].type;
        scales[i] = t->cols[spec->cols[i]].scale;
    }
    s->base.next = scan_next;
    s->base.close = scan_close;
    s->base.ex = ex;
    s->base.child = NULL;
    s->src = src;
    s->scan = NULL;
    s->done = false;
    s->batch = lt_batch_new(spec->ncols, types, scales, LT_BATCH_ROWS);
    if (s->batch == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    if (src->reader->scan_open(src, spec, &s->scan, err) != 0) {
        lt_batch_free(s->batch);
        return -1;
    }
    *out = &s->base;
    return 0;
}
