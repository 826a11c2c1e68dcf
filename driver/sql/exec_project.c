/*
** exec_project.c — computing the output columns.
**
** Evaluates every output expression over the live rows of the child's
** chunk and gathers the values into a dense batch of the result types.
** Text is not copied: it points where the child's batch or the expression
** put it, which stays valid until the next call.
*/
#include "exec.h"

typedef struct project_op {
    sql_operator base;
    const sql_output *outs;
    uint32_t nouts;
    lt_batch *batch;
} project_op;

static int project_next(sql_operator *op, sql_chunk *out, lt_error *err)
{
    project_op *p = (project_op *)op;
    sql_chunk in;
    if (sql_next(op->child, &in, err) != 0)
        return -1;
    out->batch = p->batch;
    out->sel = NULL;
    out->n = 0;
    p->batch->count = 0;
    if (in.n == 0)
        return 0;
    const uint32_t *sel = in.sel ? in.sel : op->ex->identity;
    for (uint32_t c = 0; c < p->nouts; c++) {
        const sql_expr *e = p->outs[c].expr;
        const lt_vector *v;
        if (e->kind == SQL_E_COLUMN && !e->conv) {
            /* Shown as it is: dynamically typed rows keep their own type. */
            v = &in.batch->cols[e->input];
        } else if (sql_eval(op->ex, e, in.batch, sel, in.n, &v, err) != 0) {
            return -1;
        }
        sql_vector_gather(&p->batch->cols[c], v, sel, in.n);
        if (sql_vector_gather_tags(&p->batch->cols[c], v, sel, in.n, &op->ex->arena) != 0)
            return lt_error_set(err, "HY001", "out of memory");
    }
    p->batch->count = in.n;
    out->n = in.n;
    return 0;
}

static void project_close(sql_operator *op)
{
    lt_batch_free(((project_op *)op)->batch);
    sql_close(op->child);
}

int sql_op_project(sql_exec *ex, sql_operator *child, const sql_output *outs,
                   uint32_t nouts, sql_operator **out, lt_error *err)
{
    project_op *p = lt_arena_alloc(&ex->arena, sizeof *p);
    lt_type *types = lt_arena_alloc(&ex->arena, (nouts + 1) * sizeof *types);
    int16_t *scales = lt_arena_alloc(&ex->arena, (nouts + 1) * sizeof *scales);
    if (p == NULL || types == NULL || scales == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    for (uint32_t c = 0; c < nouts; c++) {
        types[c] = outs[c].col.desc.type;
        scales[c] = outs[c].col.desc.scale;
    }
    p->base.next = project_next;
    p->base.close = project_close;
    p->base.ex = ex;
    p->base.child = child;
    p->outs = outs;
    p->nouts = nouts;
    p->batch = lt_batch_new(nouts, types, scales, LT_BATCH_ROWS);
    if (p->batch == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    *out = &p->base;
    return 0;
}
