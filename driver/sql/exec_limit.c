/*
** exec_limit.c — LIMIT and OFFSET: skip rows, then pass a bounded number.
**
** Once the count is reached the child is not pulled again, so a LIMIT
** stops the scan under it early.
*/
#include "exec.h"

typedef struct limit_op {
    sql_operator base;
    int64_t skip;       /* rows of OFFSET still to skip */
    int64_t left;       /* rows still to pass; -1: no limit */
    uint32_t *sel;
} limit_op;

static int limit_next(sql_operator *op, sql_chunk *out, lt_error *err)
{
    limit_op *l = (limit_op *)op;
    for (;;) {
        out->n = 0;
        if (l->left == 0)
            return 0;
        sql_chunk in;
        if (sql_next(op->child, &in, err) != 0)
            return -1;
        if (in.n == 0) {
            *out = in;
            return 0;
        }
        uint32_t first = 0;
        if (l->skip > 0) {
            first = l->skip >= in.n ? in.n : (uint32_t)l->skip;
            l->skip -= first;
        }
        uint32_t take = in.n - first;
        if (l->left >= 0 && take > l->left)
            take = (uint32_t)l->left;
        if (take == 0)
            continue;
        if (l->left > 0)
            l->left -= take;
        for (uint32_t i = 0; i < take; i++)
            l->sel[i] = in.sel ? in.sel[first + i] : first + i;
        out->batch = in.batch;
        out->sel = l->sel;
        out->n = take;
        return 0;
    }
}

static void limit_close(sql_operator *op)
{
    sql_close(op->child);
}

int sql_op_limit(sql_exec *ex, sql_operator *child, int64_t offset,
                 int64_t count, sql_operator **out, lt_error *err)
{
    limit_op *l = lt_arena_alloc(&ex->arena, sizeof *l);
    uint32_t *sel = lt_arena_alloc(&ex->arena, LT_BATCH_ROWS * sizeof *sel);
    if (l == NULL || sel == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    l->base.next = limit_next;
    l->base.close = limit_close;
    l->base.ex = ex;
    l->base.child = child;
    l->skip = offset;
    l->left = count;
    l->sel = sel;
    *out = &l->base;
    return 0;
}
