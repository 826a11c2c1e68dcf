/*
** exec_filter.c — keeping the rows for which the WHERE conjuncts are TRUE.
**
** Each conjunct is evaluated only over the rows the earlier ones kept, and
** the survivors are passed on as a selection over the child's batch: no
** row is copied.  Batches where nothing survives are skipped.
*/
#include "exec.h"

typedef struct filter_op {
    sql_operator base;
    sql_expr **conj;
    uint32_t nconj;
    uint32_t *sel;
} filter_op;

static int filter_next(sql_operator *op, sql_chunk *out, lt_error *err)
{
    filter_op *f = (filter_op *)op;
    for (;;) {
        sql_chunk in;
        if (sql_next(op->child, &in, err) != 0)
            return -1;
        if (in.n == 0) {
            *out = in;
            return 0;
        }
        const uint32_t *sel = in.sel ? in.sel : op->ex->identity;
        uint32_t n = in.n;
        for (uint32_t c = 0; c < f->nconj && n > 0; c++) {
            const lt_vector *v;
            if (sql_eval(op->ex, f->conj[c], in.batch, sel, n, &v, err) != 0)
                return -1;
            /* Narrowing in place is safe: the write index never passes the
            ** read index. */
            uint32_t k = 0;
            for (uint32_t i = 0; i < n; i++) {
                uint32_t row = sel[i];
                f->sel[k] = row;
                k += !v->nulls[row] && v->v.b[row];
            }
            sel = f->sel;
            n = k;
        }
        if (n > 0) {
            out->batch = in.batch;
            out->sel = sel;
            out->n = n;
            return 0;
        }
    }
}

static void filter_close(sql_operator *op)
{
    sql_close(op->child);
}

int sql_op_filter(sql_exec *ex, sql_operator *child, sql_expr **conj,
                  uint32_t nconj, sql_operator **out, lt_error *err)
{
    filter_op *f = lt_arena_alloc(&ex->arena, sizeof *f);
    uint32_t *sel = lt_arena_alloc(&ex->arena, LT_BATCH_ROWS * sizeof *sel);
    if (f == NULL || sel == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    f->base.next = filter_next;
    f->base.close = filter_close;
    f->base.ex = ex;
    f->base.child = child;
    f->conj = conj;
    f->nconj = nconj;
    f->sel = sel;
    *out = &f->base;
    return 0;
}
