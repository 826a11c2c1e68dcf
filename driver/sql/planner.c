/*
** planner.c — from a bound query to the operator tree of an execution.
**
** At prepare: number the expression nodes (their evaluation slots), pick
** the table columns the query reads (projection pushdown: each scan decodes
** only those), and place each WHERE and ON condition: on one table's scan
** when it reads that table alone (not the right side of a LEFT JOIN), as a
** hash key or a residual check of a join, or after the joins.
**
** At execute, when the constants' values are known: offer the reader each
** WHERE conjunct of the form `column op constant` (also IN, BETWEEN,
** IS [NOT] NULL) whose constant is already of the column's type; the
** conjuncts it answers LT_PUSH_EXACT are not evaluated again.  A LIMIT is
** passed on as a hint when nothing between the scan and the limit drops or
** reorders rows.  Then: per table scan -> filter, joined left to right
** (exec_join.c), or values -> filter -> [aggregate -> filter (HAVING)] ->
** project -> distinct -> sort -> limit.  `SELECT COUNT(*)
** FROM t` without WHERE asks the reader's count_rows first and reads no
** rows when it answers.
**
** A derived table (or view) is a range whose rows come from its own
** sub-plan (exec_subquery.c) instead of a scan; conditions on it are
** filtered above it, not pushed into it.  A compound query is its two
** sides' sub-plans under a set operator (exec_setop.c), then sort and
** limit.  Under a RIGHT or FULL join, no condition of WHERE moves below the
** join (the rows it adds would escape it).
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
    for (uint32_t r = 0; r < q->nranges; r++)
        for (uint32_t i = 0; i < q->ranges[r].non; i++)
            count_nodes(q, q->ranges[r].on[i], n);
    for (uint32_t i = 0; i < q->ngroups; i++)
        count_nodes(q, q->groups[i], n);
    for (uint32_t i = 0; i < q->nhaving; i++)
        count_nodes(q, q->having[i], n);
    count_nodes(q, q->limit, n);
    count_nodes(q, q->offset, n);
}

/* Visit the column references of `e` that read a scan's rows: all of
** them, except under a node a grouped query reads from the aggregation
** (a key, or an aggregate, whose argument does read the rows). */
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

static void walk_list(sql_expr **list, uint32_t n, void (*visit)(sql_expr *, void *), void *arg)
{
    for (uint32_t i = 0; i < n; i++)
        walk_scan_columns(list[i], visit, arg);
}

/* ------------------------------------------------------------------------ */
/* Columns                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct planner {
    sql_query *q;
    lt_arena *arena;
    bool **used;             /* per range, per table column */
    uint32_t **pos;          /* per range, per table column: place in its scan */
    bool local;              /* set_input: the scan's own batch, else the joined row */
    uint32_t lo, hi;         /* reads: the lowest and highest range read */
    bool any;
} planner;

static void mark_column(sql_expr *e, void *arg)
{
    ((planner *)arg)->used[e->range][e->table_col] = true;
}

/* Point a column reference at its place in the batch it is evaluated
** over: its table's scan batch, or the row the joins have put together. */
static void set_input(sql_expr *e, void *arg)
{
    const planner *p = arg;
    e->input = p->pos[e->range][e->table_col] + (p->local ? 0 : p->q->ranges[e->range].offset);
}

static void inputs(planner *p, sql_expr **list, uint32_t n, bool local)
{
    p->local = local;
    walk_list(list, n, set_input, p);
}

/* The ranges `e` reads lie in [p->lo, p->hi] (p->any false: none). */
static void note_range(sql_expr *e, void *arg)
{
    planner *p = arg;
    if (!p->any || e->range < p->lo)
        p->lo = e->range;
    if (!p->any || e->range > p->hi)
        p->hi = e->range;
    p->any = true;
}

static void reads(planner *p, sql_expr *e)
{
    p->any = false;
    p->lo = p->hi = 0;
    walk_scan_columns(e, note_range, p);
}

/* ------------------------------------------------------------------------ */
/* Where each condition goes                                                 */
/* ------------------------------------------------------------------------ */

/* Room for n conditions in each of a range's lists. */
static int range_lists(planner *p, sql_range *r, uint32_t n)
{
    size_t size = (n ? n : 1) * sizeof(sql_expr *);
    r->pushed = lt_arena_alloc(p->arena, size);
    r->lkeys = lt_arena_alloc(p->arena, size);
    r->rkeys = lt_arena_alloc(p->arena, size);
    r->residual = lt_arena_alloc(p->arena, size);
    return r->pushed && r->lkeys && r->rkeys && r->residual ? 0 : -1;
}

/* Condition `c` of join m, or moved into it: an equality of an expression
** over the tables before m with one over m alone is a hash key; the rest
** is checked on the joined row. */
static void into_join(planner *p, sql_range *r, uint32_t m, sql_expr *c)
{
    /* (SQLite's affinity comparisons are not hashed: checked on the row) */
    if (c->kind == SQL_E_COMPARE && c->op == SQL_OP_EQ && !c->affinity_cmp) {
        planner side = *p;
        reads(&side, c->left);
        bool l_any = side.any, l_before = side.any && side.hi < m, l_here = side.any && side.lo == m;
        reads(&side, c->right);
        bool r_before = side.any && side.hi < m, r_here = side.any && side.lo == m;
        if (l_any && side.any && ((l_before && r_here) || (l_here && r_before))) {
            r->lkeys[r->nkeys] = l_before ? c->left : c->right;
            r->rkeys[r->nkeys++] = l_before ? c->right : c->left;
            return;
        }
    }
    r->residual[r->nresidual++] = c;
}

/* A WHERE condition goes under the joins to its one table's scan (not a
** LEFT JOIN's right side, whose NULL rows it must see), else into the
** last join it reads when that join is inner (filtering there is the same
** as filtering after), else after the joins.  A condition of ON goes to
** its table's scan when it reads that table alone, else into the join. */
static int place_conditions(planner *p)
{
    sql_query *q = p->q;
    uint32_t cap = q->nconj;
    for (uint32_t r = 0; r < q->nranges; r++)
        cap += q->ranges[r].non;
    for (uint32_t r = 0; r < q->nranges; r++)
        if (range_lists(p, &q->ranges[r], cap) != 0)
            return -1;
    q->post = lt_arena_alloc(p->arena, (q->nconj ? q->nconj : 1) * sizeof *q->post);
    if (q->post == NULL)
        return -1;
    q->npost = 0;
    /* Rows a RIGHT or FULL join adds never pass the joins before it. */
    uint32_t preserving = 0;
    for (uint32_t r = 0; r < q->nranges; r++)
        if (q->ranges[r].join == SQL_JOIN_RIGHT || q->ranges[r].join == SQL_JOIN_FULL)
            preserving = r;
    for (uint32_t i = 0; i < q->nconj; i++) {
        sql_expr *c = q->conj[i];
        reads(p, c);
        if (p->any ? p->hi < preserving : preserving > 0) {
            q->post[q->npost++] = c;
        } else if (!p->any || (p->lo == p->hi && !q->ranges[p->lo].outer)) {
            sql_range *r = &q->ranges[p->any ? p->lo : 0];
            r->pushed[r->npushed++] = c;
        } else if (p->hi > 0 && (q->ranges[p->hi].join == SQL_JOIN_INNER ||
                                 q->ranges[p->hi].join == SQL_JOIN_CROSS)) {
            into_join(p, &q->ranges[p->hi], p->hi, c);
        } else {
            q->post[q->npost++] = c;
        }
    }
    for (uint32_t m = 1; m < q->nranges; m++) {
        sql_range *r = &q->ranges[m];
        for (uint32_t i = 0; i < r->non; i++) {
            sql_expr *c = r->on[i];
            reads(p, c);
            /* A RIGHT or FULL join keeps every row of this table: its own
            ** conditions decide matches, not which rows exist. */
            if (p->any && p->lo == m && p->hi == m && r->join != SQL_JOIN_RIGHT &&
                r->join != SQL_JOIN_FULL)
                r->pushed[r->npushed++] = c;
            else
                into_join(p, r, m, c);
        }
    }
    return 0;
}

/* Does e read an outer value (its own subqueries' outer values included:
** they are its nodes, the SUBQUERY's arguments)? */
static bool reads_outer(const sql_expr *e)
{
    if (e == NULL)
        return false;
    if (e->kind == SQL_E_OUTER)
        return true;
    uint32_t k = sql_expr_nchildren(e);
    for (uint32_t i = 0; i < k; i++)
        if (reads_outer(sql_expr_child(e, i)))
            return true;
    return false;
}

/* Copies of n nodes (NULL when out of memory). */
static sql_expr **copy_list(sql_expr *const *list, uint32_t n, lt_arena *arena)
{
    sql_expr **c = lt_arena_alloc(arena, (n + 1) * sizeof *c);
    for (uint32_t i = 0; c != NULL && i < n; i++)
        if ((c[i] = sql_expr_copy(list[i], arena)) == NULL)
            return NULL;
    return c;
}

/* The decorrelated form of the sub-query of EXISTS or IN node e when it
** has the shape a semi-join answers (query.h, `semi`): base tables only,
** no grouping, aggregate or limit, one outer value read only by one
** top-level conjunct `key = outer` whose key reads no outer value.  Its
** nodes are copies (a node's slot belongs to one query).  0 also when the
** shape does not fit (semi stays NULL). */
static int make_semi(sql_expr *e, lt_arena *arena, lt_error *err)
{
    sql_expr *sub = e->kind == SQL_E_EXISTS ? e->left : e->right;
    sql_query *q = sub->subq;
    bool in = e->kind == SQL_E_IN_SELECT;
    if (q->semi != NULL || sub->nargs != 1 || q->setop != SQL_SET_NONE || q->nranges == 0 ||
        q->grouped || q->naggs > 0 || q->ngroups > 0 || q->nhaving > 0 || q->limit != NULL ||
        q->offset != NULL || (in && q->nvisible != 1))
        return 0;
    uint32_t found = UINT32_MAX;
    bool left = false;
    for (uint32_t i = 0; i < q->nconj; i++) {
        const sql_expr *c = q->conj[i];
        if (!reads_outer(c))
            continue;
        if (found != UINT32_MAX || c->kind != SQL_E_COMPARE || c->op != SQL_OP_EQ ||
            c->affinity_cmp) /* (SQLite's affinity: not a hash key) */
            return 0;
        if (c->right->kind == SQL_E_OUTER && !reads_outer(c->left))
            left = true;
        else if (c->left->kind != SQL_E_OUTER || reads_outer(c->right))
            return 0;
        found = i;
    }
    if (found == UINT32_MAX || (in && reads_outer(q->outputs[0].expr)))
        return 0;
    for (uint32_t r = 0; r < q->nranges; r++) {
        if (q->ranges[r].sub != NULL)
            return 0;
        for (uint32_t i = 0; i < q->ranges[r].non; i++)
            if (reads_outer(q->ranges[r].on[i]))
                return 0;
    }
    sql_query *d = lt_arena_alloc(arena, sizeof *d);
    if (d == NULL)
        goto oom;
    *d = *q;
    d->nouter = 0;
    d->planned = false;
    d->distinct = false;
    d->nkeys = 0;
    d->keys = NULL;
    d->slots = NULL;
    d->nslots = 0;
    d->ranges = lt_arena_alloc(arena, q->nranges * sizeof *d->ranges);
    d->outputs = lt_arena_alloc(arena, 2 * sizeof *d->outputs);
    d->conj = lt_arena_alloc(arena, (q->nconj + 1) * sizeof *d->conj);
    if (d->ranges == NULL || d->outputs == NULL || d->conj == NULL)
        goto oom;
    for (uint32_t r = 0; r < q->nranges; r++) {
        sql_range *rg = &d->ranges[r];
        *rg = q->ranges[r];
        rg->nscan = rg->offset = rg->npushed = rg->nkeys = rg->nresidual = 0;
        rg->scan_cols = NULL;
        rg->pushed = rg->lkeys = rg->rkeys = rg->residual = NULL;
        if (rg->non > 0 && (rg->on = copy_list(rg->on, rg->non, arena)) == NULL)
            goto oom;
    }
    d->nconj = 0;
    for (uint32_t i = 0; i < q->nconj; i++)
        if (i != found && (d->conj[d->nconj++] = sql_expr_copy(q->conj[i], arena)) == NULL)
            goto oom;
    const sql_expr *c = q->conj[found];
    d->noutputs = d->nvisible = in ? 2 : 1;
    d->outputs[0] = q->outputs[0];
    d->outputs[0].expr = sql_expr_copy(left ? c->left : c->right, arena);
    if (in) {
        d->outputs[1] = q->outputs[0];
        d->outputs[1].expr = sql_expr_copy(q->outputs[0].expr, arena);
    }
    if (d->outputs[0].expr == NULL || (in && d->outputs[1].expr == NULL))
        goto oom;
    /* Type it (its outputs' descriptions), keeping the hints the
    ** statement's typing gave its parameters. */
    lt_type *hints = lt_arena_alloc(arena, (q->nparams + 1) * sizeof *hints);
    if (hints == NULL)
        goto oom;
    if (q->nparams > 0)
        memcpy(hints, q->param_hints, q->nparams * sizeof *hints);
    int rc = sql_type_query(d, NULL, err);
    if (q->nparams > 0)
        memcpy(q->param_hints, hints, q->nparams * sizeof *hints);
    if (rc != 0)
        return -1;
    q->semi = d;
    q->semi_conj = found;
    q->semi_left = left;
    return 0;
oom:
    return lt_error_set(err, "HY001", "out of memory planning a subquery");
}

/* The queries inside `q`: its sides, derived tables and subqueries. */
static int plan_inner(sql_query *q, lt_arena *arena, lt_error *err)
{
    if (q->lhs != NULL && (sql_plan_prepare(q->lhs, arena, err) != 0 ||
                           sql_plan_prepare(q->rhs, arena, err) != 0))
        return -1;
    for (uint32_t r = 0; r < q->nranges; r++)
        if (q->ranges[r].sub != NULL && sql_plan_prepare(q->ranges[r].sub, arena, err) != 0)
            return -1;
    for (uint32_t i = 0; i < q->nslots; i++) {
        sql_expr *e = q->slots[i];
        if (e->kind == SQL_E_SUBQUERY && sql_plan_prepare(e->subq, arena, err) != 0)
            return -1;
        if ((e->kind == SQL_E_EXISTS || e->kind == SQL_E_IN_SELECT) &&
            (make_semi(e, arena, err) != 0 ||
             ((e->kind == SQL_E_EXISTS ? e->left : e->right)->subq->semi != NULL &&
              sql_plan_prepare((e->kind == SQL_E_EXISTS ? e->left : e->right)->subq->semi, arena,
                               err) != 0)))
            return -1;
    }
    return 0;
}

int sql_plan_prepare(sql_query *q, lt_arena *arena, lt_error *err)
{
    uint32_t n;
    if (q->planned)
        return 0;
    q->planned = true;
    q->slots = NULL;
    number_all(q, &n);
    q->slots = lt_arena_alloc(arena, (n ? n : 1) * sizeof *q->slots);
    if (q->slots == NULL)
        goto oom;
    number_all(q, &n);
    q->nslots = n;
    if (plan_inner(q, arena, err) != 0)
        return -1;
    if (q->nranges == 0) {
        q->post = q->conj;
        q->npost = q->nconj;
        return 0;
    }

    planner p = {q, arena, NULL, NULL, false, 0, 0, false};
    p.used = lt_arena_alloc(arena, q->nranges * sizeof *p.used);
    p.pos = lt_arena_alloc(arena, q->nranges * sizeof *p.pos);
    if (p.used == NULL || p.pos == NULL)
        goto oom;
    for (uint32_t r = 0; r < q->nranges; r++) {
        uint32_t ncols = q->ranges[r].desc->ncols;
        p.used[r] = lt_arena_alloc(arena, ncols + 1);
        p.pos[r] = lt_arena_alloc(arena, (ncols + 1) * sizeof *p.pos[r]);
        q->ranges[r].scan_cols = lt_arena_alloc(arena, (ncols + 1) * sizeof *q->ranges[r].scan_cols);
        if (p.used[r] == NULL || p.pos[r] == NULL || q->ranges[r].scan_cols == NULL)
            goto oom;
        memset(p.used[r], 0, ncols + 1);
    }
    for (uint32_t i = 0; i < q->noutputs; i++)
        walk_scan_columns(q->outputs[i].expr, mark_column, &p);
    walk_list(q->conj, q->nconj, mark_column, &p);
    walk_list(q->groups, q->ngroups, mark_column, &p);
    walk_list(q->having, q->nhaving, mark_column, &p);
    for (uint32_t r = 0; r < q->nranges; r++)
        walk_list(q->ranges[r].on, q->ranges[r].non, mark_column, &p);
    /* Each table's scan decodes the columns it uses; the joined row is the
    ** tables' columns one after the other. */
    uint32_t offset = 0;
    for (uint32_t r = 0; r < q->nranges; r++) {
        sql_range *rg = &q->ranges[r];
        rg->nscan = 0;
        rg->offset = offset;
        for (uint32_t c = 0; c < rg->desc->ncols; c++) {
            if (!p.used[r][c])
                continue;
            p.pos[r][c] = rg->nscan;
            rg->scan_cols[rg->nscan++] = c;
        }
        offset += rg->nscan;
    }
    if (place_conditions(&p) != 0)
        goto oom;
    for (uint32_t i = 0; i < q->noutputs; i++) {
        p.local = false;
        walk_scan_columns(q->outputs[i].expr, set_input, &p);
    }
    inputs(&p, q->post, q->npost, false);
    inputs(&p, q->groups, q->ngroups, false);
    inputs(&p, q->having, q->nhaving, false);
    for (uint32_t r = 0; r < q->nranges; r++) {
        sql_range *rg = &q->ranges[r];
        inputs(&p, rg->pushed, rg->npushed, true);
        inputs(&p, rg->rkeys, rg->nkeys, true);
        inputs(&p, rg->lkeys, rg->nkeys, false);
        inputs(&p, rg->residual, rg->nresidual, false);
    }
    return 0;
oom:
    return lt_error_set(err, "HY001", "out of memory");
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
    if (e->affinity_cmp) /* SQLite's affinity comparisons: the engine's own */
        return false;
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

/* Range r's rows: its scan, offered the simple conditions pushed to it,
** then a filter for those the reader does not answer exactly. */
static int open_range(sql_exec *ex, sql_range *r, int64_t limit_hint, sql_operator **out,
                      lt_error *err)
{
    sql_query *q = ex->q;
    if (r->sub != NULL) {
        /* A derived table: its sub-plan's columns this query reads. */
        sql_operator *op, *next;
        if (sql_op_subquery(ex, r->sub, ex->outer, r->scan_cols, r->nscan, NULL, &op, err) != 0)
            return -1;
        if (r->npushed > 0) {
            if (sql_op_filter(ex, op, r->pushed, r->npushed, &next, err) != 0) {
                sql_close(op);
                return -1;
            }
            op = next;
        }
        *out = op;
        return 0;
    }
    lt_scan_spec *spec = lt_arena_alloc(&ex->arena, sizeof *spec);
    lt_pred *preds = lt_arena_alloc(&ex->arena, (r->npushed + 1) * sizeof *preds);
    uint32_t *pred_conj = lt_arena_alloc(&ex->arena, (r->npushed + 1) * sizeof *pred_conj);
    bool *skip = lt_arena_alloc(&ex->arena, r->npushed + 1);
    sql_expr **keep = lt_arena_alloc(&ex->arena, (r->npushed + 1) * sizeof *keep);
    if (spec == NULL || preds == NULL || pred_conj == NULL || skip == NULL || keep == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    memset(spec, 0, sizeof *spec);
    memset(skip, 0, r->npushed + 1);
    spec->table = r->table;
    spec->ncols = r->nscan;
    spec->cols = r->scan_cols;
    spec->limit = limit_hint;
    uint32_t np = 0;
    for (uint32_t i = 0; i < r->npushed; i++) {
        if (make_pred(ex, r->pushed[i], &preds[np])) {
            preds[np].use = LT_PUSH_UNUSED;
            pred_conj[np++] = i;
        }
    }
    spec->npreds = np;
    spec->preds = np ? preds : NULL;
    sql_operator *op;
    if (sql_op_scan(ex, q->src, spec, &op, err) != 0)
        return -1;
    for (uint32_t k = 0; k < np; k++)
        if (preds[k].use == LT_PUSH_EXACT)
            skip[pred_conj[k]] = true;
    uint32_t nkeep = 0;
    for (uint32_t i = 0; i < r->npushed; i++)
        if (!skip[i])
            keep[nkeep++] = r->pushed[i];
    if (nkeep > 0) {
        sql_operator *next;
        if (sql_op_filter(ex, op, keep, nkeep, &next, err) != 0) {
            sql_close(op);
            return -1;
        }
        op = next;
    }
    *out = op;
    return 0;
}

/* FROM: each table's rows, joined to the rows before it in order. */
static int open_from(sql_exec *ex, int64_t limit_hint, sql_operator **out, lt_error *err)
{
    sql_query *q = ex->q;
    sql_operator *acc = NULL, *right = NULL, *next = NULL;
    for (uint32_t r = 0; r < q->nranges; r++) {
        if (open_range(ex, &q->ranges[r], q->nranges == 1 ? limit_hint : -1, &right, err) != 0) {
            sql_close(acc);
            return -1;
        }
        if (acc == NULL) {
            acc = right;
            continue;
        }
        if (sql_op_join(ex, acc, right, &q->ranges[r], &next, err) != 0) {
            sql_close(acc);
            sql_close(right);
            return -1;
        }
        acc = next;
    }
    *out = acc;
    return 0;
}

/* SELECT COUNT(*) FROM t (no WHERE, no GROUP BY): the reader's count, or
** -1 when it has none (then the rows are counted). */
static int64_t counted_rows(const sql_query *q)
{
    if (q->nranges != 1 || q->ranges[0].sub != NULL || q->nconj > 0 || q->ngroups > 0 ||
        q->naggs == 0 || q->src->reader->count_rows == NULL)
        return -1;
    for (uint32_t j = 0; j < q->naggs; j++)
        if (!q->aggs[j]->star)
            return -1;
    lt_error ignored;
    int64_t n = q->src->reader->count_rows(q->src, q->ranges[0].table, &ignored);
    return n >= 0 ? n : -1;
}

/* lhs op rhs: each side's sub-plan, its columns converted to the shared
** types. */
static int open_compound(sql_exec *ex, sql_operator **out, lt_error *err)
{
    sql_query *q = ex->q;
    sql_operator *l = NULL, *r = NULL;
    if (sql_op_subquery(ex, q->lhs, ex->outer, NULL, q->nvisible, q->set_types, &l, err) != 0)
        return -1;
    if (sql_op_subquery(ex, q->rhs, ex->outer, NULL, q->nvisible, q->set_types, &r, err) != 0 ||
        sql_op_setop(ex, q->setop, l, r, out, err) != 0) {
        sql_close(l);
        sql_close(r);
        return -1;
    }
    return 0;
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
    if (q->setop != SQL_SET_NONE) {
        if (open_compound(ex, &op, err) != 0)
            return -1;
        goto order;
    }
    int64_t preset = q->grouped ? counted_rows(q) : -1;
    if (q->nranges > 0 && preset < 0) {
        /* The reader may stop early when nothing drops or reorders rows. */
        int64_t hint = -1;
        if (limit >= 0 && q->nconj == 0 && !q->distinct && q->nkeys == 0 && !q->grouped) {
            if (offset <= 0)
                hint = limit;
            else if (limit <= INT64_MAX - offset)
                hint = limit + offset;
        }
        if (open_from(ex, hint, &op, err) != 0)
            return -1;
    } else if (sql_op_values(ex, &op, err) != 0) {
        return -1;
    }
    if (q->npost > 0 && preset < 0) {
        if (sql_op_filter(ex, op, q->post, q->npost, &next, err) != 0)
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
order:
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
fail:
    sql_close(op);
    return -1;
}
