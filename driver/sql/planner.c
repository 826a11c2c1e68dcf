/*
** planner.c — from a bound query to the operator tree of an execution.
**
** At prepare: number the expression nodes (their evaluation slots) and pick
** the table columns the query reads (projection pushdown: the scan decodes
** only those).
**
** At execute, when the constants' values are known: offer the reader each
** WHERE conjunct of the form `column op constant` (also IN, BETWEEN,
** IS [NOT] NULL) whose constant is already of the column's type; the
** conjuncts it answers LT_PUSH_EXACT are not evaluated again.  A LIMIT is
** passed on as a hint when nothing between the scan and the limit drops or
** reorders rows.  Then: scan (or values) -> filter -> [aggregate -> filter
** (HAVING)] -> project -> distinct -> sort -> limit.  `SELECT COUNT(*)
** FROM t` without WHERE asks the reader's count_rows first and reads no
** rows when it answers.
*/
#include "exec.h"
#include "value.h"

#include <string.h>

static void count_nodes(sql_query *q, sql_expr *e, uint32_t *n)
{
    if (e == NULL)
        return;
    if (q->slots != NULL)
        q->slots[*n] = e;
    e->slot = (*n)++;
    uint32_t k = sql_expr_nchildren(e);
    for (uint32_t i = 0; i < k; i++)
        count_nodes(q, sql_expr_child(e, i), n);
}

static void number_all(sql_query *q, uint32_t *n)
{
    *n = 0;
    for (uint32_t i = 0; i < q->noutputs; i++)
        count_nodes(q, q->outputs[i].expr, n);
    for (uint32_t i = 0; i < q->nconj; i++)
        count_nodes(q, q->conj[i], n);
    for (uint32_t i = 0; i < q->ngroups; i++)
        count_nodes(q, q->groups[i], n);
    for (uint32_t i = 0; i < q->nhaving; i++)
        count_nodes(q, q->having[i], n);
    count_nodes(q, q->limit, n);
    count_nodes(q, q->offset, n);
}

/* Visit the column references of `e` that read the scan's batch: all of
** them, except under a node a grouped query reads from the aggregation
** (a key, or an aggregate, whose argument does read the scan). */
static void walk_scan_columns(sql_expr *e, void (*visit)(sql_expr *, void *), void *arg)
{
    if (e == NULL)
        return;
    if (e->from_input) {
        if (e->kind != SQL_E_FUNC)
            return;
        for (uint32_t i = 0; i < e->nargs; i++)
            walk_scan_columns(e->args[i], visit, arg);
        return;
    }
    if (e->kind == SQL_E_COLUMN)
        visit(e, arg);
    uint32_t k = sql_expr_nchildren(e);
    for (uint32_t i = 0; i < k; i++)
        walk_scan_columns(sql_expr_child(e, i), visit, arg);
}

static void walk_query_columns(sql_query *q, void (*visit)(sql_expr *, void *), void *arg)
{
    for (uint32_t i = 0; i < q->noutputs; i++)
        walk_scan_columns(q->outputs[i].expr, visit, arg);
    for (uint32_t i = 0; i < q->nconj; i++)
        walk_scan_columns(q->conj[i], visit, arg);
    for (uint32_t i = 0; i < q->ngroups; i++)
        walk_scan_columns(q->groups[i], visit, arg);
    for (uint32_t i = 0; i < q->nhaving; i++)
        walk_scan_columns(q->having[i], visit, arg);
}

/* Mark the table columns the query reads. */
static void mark_column(sql_expr *e, void *used)
{
    ((bool *)used)[e->table_col] = true;
}

/* Point a column reference at its place in the scan's batch. */
static void set_input(sql_expr *e, void *batch_pos)
{
    e->input = ((const uint32_t *)batch_pos)[e->table_col];
}

int sql_plan_prepare(sql_query *q, lt_arena *arena, lt_error *err)
{
    uint32_t n;
    q->slots = NULL;
    number_all(q, &n);
    q->slots = lt_arena_alloc(arena, (n ? n : 1) * sizeof *q->slots);
    if (q->slots == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    number_all(q, &n);
    q->nslots = n;
    if (q->table < 0)
        return 0;

    const lt_table *t = &q->src->tables[q->table];
    bool *used = lt_arena_alloc(arena, t->ncols + 1);
    uint32_t *batch_pos = lt_arena_alloc(arena, (t->ncols + 1) * sizeof *batch_pos);
    q->scan_cols = lt_arena_alloc(arena, (t->ncols + 1) * sizeof *q->scan_cols);
    if (used == NULL || batch_pos == NULL || q->scan_cols == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    memset(used, 0, t->ncols + 1);
    walk_query_columns(q, mark_column, used);
    q->nscan = 0;
    for (uint32_t c = 0; c < t->ncols; c++) {
        if (!used[c])
            continue;
        batch_pos[c] = q->nscan;
        q->scan_cols[q->nscan++] = c;
    }
    walk_query_columns(q, set_input, batch_pos);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Predicate pushdown                                                        */
/* ------------------------------------------------------------------------ */

/* A column read as it is (no conversion), so the reader sees its values. */
static bool plain_column(const sql_expr *e)
{
    return e->kind == SQL_E_COLUMN && !e->conv;
}

/* The constant `c` as a value of column `col`'s type, when that is exact. */
static bool constant_for(sql_exec *ex, const sql_expr *c, const sql_expr *col, lt_value *out)
{
    if (!sql_expr_is_constant(c))
        return false;
    const lt_value *v = sql_const_value(ex, c);
    const lt_column *d = col->source;
    if (v->type == LT_NULL)
        return false;
    *out = *v;
    if (v->type == d->type && (v->type != LT_DECIMAL || v->scale == d->scale))
        return true;
    if (d->type == LT_DOUBLE && v->type == LT_INT64 && v->u.i64 >= -(INT64_C(1) << 53) &&
        v->u.i64 <= (INT64_C(1) << 53)) {
        out->type = LT_DOUBLE;
        out->u.f64 = (double)v->u.i64;
        return true;
    }
    if (d->type == LT_DECIMAL && v->type == LT_DECIMAL) {
        lt_int128 m;
        if (v->scale < d->scale) {
            if (sql_decimal_rescale(v->u.dec, v->scale, d->scale, &m) != 0)
                return false;
        } else {
            lt_int128 f = sql_pow10(v->scale - d->scale);
            if (v->u.dec % f != 0)
                return false;
            m = v->u.dec / f;
        }
        out->u.dec = m;
        out->scale = d->scale;
        return true;
    }
    return false;
}

static lt_pred_op pred_op(sql_op op, bool flipped)
{
    switch (op) {
    case SQL_OP_EQ: return LT_PRED_EQ;
    case SQL_OP_NE: return LT_PRED_NE;
    case SQL_OP_LT: return flipped ? LT_PRED_GT : LT_PRED_LT;
    case SQL_OP_LE: return flipped ? LT_PRED_GE : LT_PRED_LE;
    case SQL_OP_GT: return flipped ? LT_PRED_LT : LT_PRED_GT;
    case SQL_OP_GE: return flipped ? LT_PRED_LE : LT_PRED_GE;
    default:        return LT_PRED_EQ;
    }
}

/* Is conjunct `e` a simple predicate?  Fills `p` (values in the arena). */
static bool make_pred(sql_exec *ex, const sql_expr *e, lt_pred *p)
{
    lt_value *vals;
    memset(p, 0, sizeof *p);
    switch (e->kind) {
    case SQL_E_COMPARE: {
        bool flipped = !plain_column(e->left);
        const sql_expr *col = flipped ? e->right : e->left;
        const sql_expr *c = flipped ? e->left : e->right;
        lt_value v;
        if (!plain_column(col) || !constant_for(ex, c, col, &v))
            return false;
        if ((vals = lt_arena_alloc(&ex->arena, sizeof *vals)) == NULL)
            return false;
        vals[0] = v;
        p->col = col->table_col;
        p->op = pred_op(e->op, flipped);
        p->nvalues = 1;
        p->values = vals;
        return true;
    }
    case SQL_E_BETWEEN:
        if (e->negated || !plain_column(e->left))
            return false;
        if ((vals = lt_arena_alloc(&ex->arena, 2 * sizeof *vals)) == NULL)
            return false;
        if (!constant_for(ex, e->right, e->left, &vals[0]) ||
            !constant_for(ex, e->third, e->left, &vals[1]))
            return false;
        p->col = e->left->table_col;
        p->op = LT_PRED_BETWEEN;
        p->nvalues = 2;
        p->values = vals;
        return true;
    case SQL_E_IN: {
        if (e->negated || !plain_column(e->left))
            return false;
        if ((vals = lt_arena_alloc(&ex->arena, e->nargs * sizeof *vals)) == NULL)
            return false;
        uint32_t n = 0;
        for (uint32_t i = 0; i < e->nargs; i++) {
            const sql_expr *a = e->args[i];
            /* A NULL item can make the IN NULL but never TRUE: a WHERE
            ** keeps the same rows without it. */
            if (sql_expr_is_constant(a) && sql_const_value(ex, a)->type == LT_NULL)
                continue;
            if (!constant_for(ex, a, e->left, &vals[n++]))
                return false;
        }
        if (n == 0)
            return false;
        p->col = e->left->table_col;
        p->op = LT_PRED_IN;
        p->nvalues = n;
        p->values = vals;
        return true;
    }
    case SQL_E_IS_NULL:
        if (e->left->kind != SQL_E_COLUMN)
            return false;
        p->col = e->left->table_col;
        p->op = e->negated ? LT_PRED_IS_NOT_NULL : LT_PRED_IS_NULL;
        return true;
    default:
        return false;
    }
}

/* ------------------------------------------------------------------------ */
/* The operator tree                                                         */
/* ------------------------------------------------------------------------ */

void sql_close(sql_operator *op)
{
    if (op != NULL)
        op->close(op);
}

/* LIMIT / OFFSET value: -1 when absent (or NULL: no limit). */
static int count_value(sql_exec *ex, const sql_expr *e, const char *what, int64_t *out,
                       lt_error *err)
{
    *out = -1;
    if (e == NULL)
        return 0;
    const lt_value *v = sql_const_value(ex, e);
    if (v->type == LT_NULL)
        return 0;
    if (v->u.i64 < 0)
        return lt_error_set(err, "22003", "%s must not be negative (got %lld)", what,
                            (long long)v->u.i64);
    *out = v->u.i64;
    return 0;
}

static int open_scan(sql_exec *ex, int64_t limit_hint, bool *skip, sql_operator **out,
                     lt_error *err)
{
    sql_query *q = ex->q;
    lt_scan_spec *spec = lt_arena_alloc(&ex->arena, sizeof *spec);
    lt_pred *preds = lt_arena_alloc(&ex->arena, (q->nconj + 1) * sizeof *preds);
    uint32_t *pred_conj = lt_arena_alloc(&ex->arena, (q->nconj + 1) * sizeof *pred_conj);
    if (spec == NULL || preds == NULL || pred_conj == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    memset(spec, 0, sizeof *spec);
    spec->table = (uint32_t)q->table;
    spec->ncols = q->nscan;
    spec->cols = q->scan_cols;
    spec->limit = limit_hint;
    uint32_t np = 0;
    for (uint32_t i = 0; i < q->nconj; i++) {
        if (make_pred(ex, q->conj[i], &preds[np])) {
            preds[np].use = LT_PUSH_UNUSED;
            pred_conj[np++] = i;
        }
    }
    spec->npreds = np;
    spec->preds = np ? preds : NULL;
    if (sql_op_scan(ex, q->src, spec, out, err) != 0)
        return -1;
    for (uint32_t p = 0; p < np; p++)
        if (preds[p].use == LT_PUSH_EXACT)
            skip[pred_conj[p]] = true;
    return 0;
}

/* SELECT COUNT(*) FROM t (no WHERE, no GROUP BY): the reader's count, or
** -1 when it has none (then the rows are counted). */
static int64_t counted_rows(const sql_query *q)
{
    if (q->table < 0 || q->nconj > 0 || q->ngroups > 0 || q->naggs == 0 ||
        q->src->reader->count_rows == NULL)
        return -1;
    for (uint32_t j = 0; j < q->naggs; j++)
        if (!q->aggs[j]->star)
            return -1;
    lt_error ignored;
    int64_t n = q->src->reader->count_rows(q->src, (uint32_t)q->table, &ignored);
    return n >= 0 ? n : -1;
}

int sql_plan_open(sql_exec *ex, sql_operator **out, lt_error *err)
{
    sql_query *q = ex->q;
    sql_operator *op = NULL, *next;
    int64_t limit, offset;
    *out = NULL;
    if (count_value(ex, q->limit, "LIMIT", &limit, err) != 0 ||
        count_value(ex, q->offset, "OFFSET", &offset, err) != 0)
        return -1;
    bool *skip = lt_arena_alloc(&ex->arena, q->nconj + 1);
    if (skip == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    memset(skip, 0, q->nconj + 1);
    int64_t preset = q->grouped ? counted_rows(q) : -1;
    if (q->table >= 0 && preset < 0) {
        int64_t hint = -1;
        if (limit >= 0 && q->nconj == 0 && !q->distinct && q->nkeys == 0 && !q->grouped) {
            if (offset <= 0)
                hint = limit;
            else if (limit <= INT64_MAX - offset)
                hint = limit + offset;
        }
        if (open_scan(ex, hint, skip, &op, err) != 0)
            return -1;
    } else if (sql_op_values(ex, &op, err) != 0) {
        return -1;
    }
    uint32_t nkeep = 0;
    sql_expr **keep = lt_arena_alloc(&ex->arena, (q->nconj + 1) * sizeof *keep);
    if (keep == NULL)
        goto oom;
    for (uint32_t i = 0; i < q->nconj; i++)
        if (!skip[i])
            keep[nkeep++] = q->conj[i];
    if (nkeep > 0) {
        if (sql_op_filter(ex, op, keep, nkeep, &next, err) != 0)
            goto fail;
        op = next;
    }
    if (q->grouped) {
        if (sql_op_aggregate(ex, op, q->groups, q->ngroups, q->aggs, q->naggs, preset, &next,
                             err) != 0)
            goto fail;
        op = next;
        if (q->nhaving > 0) {
            if (sql_op_filter(ex, op, q->having, q->nhaving, &next, err) != 0)
                goto fail;
            op = next;
        }
    }
    if (sql_op_project(ex, op, q->outputs, q->noutputs, &next, err) != 0)
        goto fail;
    op = next;
    if (q->distinct) {
        if (sql_op_distinct(ex, op, &next, err) != 0)
            goto fail;
        op = next;
    }
    if (q->nkeys > 0) {
        /* ORDER BY ... LIMIT keeps only the rows the limit can reach. */
        int64_t top = -1;
        if (limit >= 0 && (offset <= 0 || limit <= INT64_MAX - offset))
            top = limit + (offset > 0 ? offset : 0);
        if (sql_op_sort(ex, op, q->keys, q->nkeys, top, &next, err) != 0)
            goto fail;
        op = next;
    }
    if (limit >= 0 || offset > 0) {
        if (sql_op_limit(ex, op, offset > 0 ? offset : 0, limit, &next, err) != 0)
            goto fail;
        op = next;
    }
    *out = op;
    return 0;
oom:
    lt_error_set(err, "HY001", "out of memory");
fail:
    sql_close(op);
    return -1;
}
