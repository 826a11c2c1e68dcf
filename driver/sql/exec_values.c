/*
** exec_values.c — the one row without columns a FROM-less SELECT projects
** its constants over.
*/
#include "exec.h"

typedef struct values_op {
    sql_operator base;
    lt_batch *batch;
    bool done;
} values_op;

static int values_next(sql_operator *op, sql_chunk *out, lt_error *err)
{
    values_op *v = (values_op *)op;
    if (sql_check_cancel(op->ex, err) != 0)
        return -1;
    out->batch = v->batch;
    out->sel = NULL;
    out->n = v->done ? 0 : 1;
    v->done = true;
    return 0;
}

static void values_close(sql_operator *op)
{
    lt_batch_free(((values_op *)op)->batch);
}

int sql_op_values(sql_exec *ex, sql_operator **out, lt_error *err)
{
    values_op *v = lt_arena_alloc(&ex->arena, sizeof *v);
    if (v == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    v->base.next = values_next;
    v->base.close = values_close;
    v->base.ex = ex;
    v->base.child = NULL;
    v->done = false;
    v->batch = lt_batch_new(0, NULL, NULL, 1);
    if (v->batch == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    v->batch->count = 1;
    *out = &v->base;
    return 0;
}
