/*
** binder.c — resolving names: from a parsed SELECT to a bound query.
**
** Table names resolve case-insensitively against the source's tables, each
** FROM table becoming a range (query.h); a column name resolves against
** every range in scope (ON sees the ranges before it and its own), or the
** one its qualifier names (42S02 unknown table, 42S22 unknown column, 42000
** ambiguous).  The select list's stars are expanded, WHERE and ON are
** split into conjuncts, and each ORDER BY item becomes a reference to an
** output column: by ordinal, by output name (alias), or as an expression
** over the tables, added as a hidden output when the select list does not
** already compute it.
**
** Function calls are looked up in the function table (func.h); a few are
** rewritten here into other nodes (IIF into CASE, MOD into %).
** A query with GROUP BY, HAVING or an aggregate is grouped: each output,
** HAVING and ORDER BY expression must be built from GROUP BY keys,
** aggregates and constants; those keys and aggregates are marked to be
** read from the aggregation's output row (query.h).
*/
#include "func.h"
#include "query.h"

#include <string.h>
#include <strings.h>

typedef struct binder {
    lt_source *src;
    const char *text;
    lt_arena *arena;
    lt_error *err;
    sql_query *q;
    uint32_t scope;          /* ranges names resolve against (ON sees those before it) */
    uint32_t cap_outputs;
    uint32_t cap_conj, cap_having, cap_aggs;
} binder;

static int oom(binder *b)
{
    return lt_error_set(b->err, "HY001", "out of memory while binding");
}

static int bind_error(binder *b, const char *state, const sql_expr *at,
                      const char *what, const char *name)
{
    return lt_error_set(b->err, state, "%s '%s' at line %u, column %u", what, name,
                        at->line, at->column);
}

/* Is `name` a column of some FROM table in scope? */
static bool is_table_column(const binder *b, const char *name)
{
    for (uint32_t r = 0; r < b->scope; r++) {
        const lt_table *t = b->q->ranges[r].desc;
        for (uint32_t c = 0; c < t->ncols; c++)
            if (strcasecmp(t->cols[c].name, name) == 0)
                return true;
    }
    return false;
}

static int bind_func(binder *b, sql_expr *e);

/* CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP, LOCALTIME,
** LOCALTIMESTAMP, USER, CURRENT_USER, SESSION_USER, SYSTEM_USER: written
** without parentheses, and no column of that name. */
static bool niladic(const binder *b, const sql_expr *e)
{
    static const char *const names[] = {
        "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "LOCALTIME", "LOCALTIMESTAMP",
        "USER", "CURRENT_USER", "SESSION_USER", "SYSTEM_USER",
    };
    if (e->qualifier != NULL || e->name == NULL || is_table_column(b, e->name))
        return false;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(names[i], e->name) == 0)
            return true;
    return false;
}

/* The range a qualifier names (alias, else table name), -1 when none. */
static int64_t find_range(const binder *b, const char *name)
{
    for (uint32_t r = 0; r < b->scope; r++)
        if (strcasecmp(b->q->ranges[r].name, name) == 0)
            return r;
    return -1;
}

static int resolve_column(binder *b, sql_expr *e)
{
    const sql_query *q = b->q;
    if (e->star)
        return lt_error_set(b->err, "42000", "%s.* is only allowed in the select list (line %u, column %u)",
                            e->qualifier, e->line, e->column);
    if (niladic(b, e)) {
        e->kind = SQL_E_FUNC;
        return bind_func(b, e);
    }
    if (q->nranges == 0)
        return lt_error_set(b->err, "42S22", "unknown column '%s' at line %u, column %u: the query has no FROM clause",
                            e->name, e->line, e->column);
    uint32_t from = 0, to = b->scope;
    if (e->qualifier != NULL) {
        int64_t r = find_range(b, e->qualifier);
        if (r < 0)
            return bind_error(b, "42S02", e, "unknown table", e->qualifier);
        from = (uint32_t)r;
        to = from + 1;
    }
    int64_t found = -1;
    uint32_t in = 0;
    for (uint32_t r = from; r < to; r++) {
        const lt_table *t = q->ranges[r].desc;
        for (uint32_t c = 0; c < t->ncols; c++) {
            if (strcasecmp(t->cols[c].name, e->name) != 0)
                continue;
            if (found >= 0)
                return bind_error(b, "42000", e, "ambiguous column name", e->name);
            found = c;
            in = r;
        }
    }
    if (found < 0)
        return bind_error(b, "42S22", e, "unknown column", e->name);
    e->range = in;
    e->table_col = (uint32_t)found;
    e->source = &q->ranges[in].desc->cols[found];
    return 0;
}

static bool is_aggregate(const sql_expr *e)
{
    return e->kind == SQL_E_FUNC && e->fn != NULL && e->fn->agg != SQL_AGG_NONE;
}

/* The first aggregate call in `e`, NULL when none. */
static const sql_expr *find_aggregate(const sql_expr *e)
{
    if (is_aggregate(e))
        return e;
    uint32_t n = sql_expr_nchildren(e);
    for (uint32_t i = 0; i < n; i++) {
        const sql_expr *a = find_aggregate(sql_expr_child(e, i));
        if (a != NULL)
            return a;
    }
    return NULL;
}

static int no_aggregate(binder *b, const sql_expr *e, const char *where)
{
    const sql_expr *a = find_aggregate(e);
    if (a == NULL)
        return 0;
    return lt_error_set(b->err, "42000", "aggregate function %s is not allowed in %s (line %u, column %u)",
                        a->name, where, a->line, a->column);
}

static int bind_expr(binder *b, sql_expr *e);

/* An interval or field name (DAY, SQL_TSI_DAY ...) where a function wants
** one: it becomes an INT64 constant holding the sql_unit. */
static int bind_unit(binder *b, const sql_expr *call, sql_expr *arg)
{
    const char *name = NULL;
    if (arg->kind == SQL_E_COLUMN && arg->qualifier == NULL && !arg->star)
        name = arg->name;
    else if (arg->kind == SQL_E_LITERAL && arg->value.type == LT_TEXT)
        name = arg->value.u.bytes.ptr; /* EXTRACT's field, NUL-terminated by the parser */
    sql_unit u = name != NULL ? sql_unit_from_name(name) : 0;
    if (u == 0)
        return lt_error_set(b->err, "42000", "%s needs an interval name such as SQL_TSI_DAY or DAY (line %u, column %u)",
                            call->fn->name, arg->line, arg->column);
    arg->kind = SQL_E_LITERAL;
    arg->name = NULL;
    memset(&arg->value, 0, sizeof arg->value);
    arg->value.type = LT_INT64;
    arg->value.u.i64 = u;
    return 0;
}

/* Calls the binder turns into other nodes, so that they share their
** evaluation: IIF(c, a, b) is CASE WHEN c THEN a ELSE b END, MOD(a, b) is
** a % b. */
static void rewrite_call(sql_expr *e)
{
    if (strcmp(e->fn->name, "MOD") == 0) {
        e->kind = SQL_E_ARITH;
        e->op = SQL_OP_MOD;
        e->left = e->args[0];
        e->right = e->args[1];
        e->args = NULL;
        e->nargs = 0;
    } else if (strcmp(e->fn->name, "IIF") == 0) {
        e->kind = SQL_E_CASE;
        e->right = e->args[2];
        e->nargs = 2;
    } else {
        return;
    }
    e->fn = NULL;
    e->name = NULL;
}

/* A call: find the function, check and bind its arguments. */
static int bind_func(binder *b, sql_expr *e)
{
    const sql_func *fn = sql_func_find(e->name);
    if (fn == NULL)
        return lt_error_set(b->err, "42000", "unknown function '%s' (line %u, column %u)",
                            e->name, e->line, e->column);
    if (e->star && fn->agg != SQL_AGG_COUNT)
        return lt_error_set(b->err, "42000", "%s(*) is not allowed; only COUNT(*) (line %u, column %u)",
                            e->name, e->line, e->column);
    if (!e->star && (e->nargs < fn->min_args || e->nargs > fn->max_args)) {
        if (fn->min_args == fn->max_args)
            return lt_error_set(b->err, "42000", "function %s takes %u argument%s, not %u (line %u, column %u)",
                                fn->name, fn->min_args, fn->min_args == 1 ? "" : "s", e->nargs,
                                e->line, e->column);
        return lt_error_set(b->err, "42000", "function %s takes %u to %u arguments, not %u (line %u, column %u)",
                            fn->name, fn->min_args, fn->max_args, e->nargs, e->line, e->column);
    }
    if (e->distinct && fn->agg == SQL_AGG_NONE)
        return lt_error_set(b->err, "42000", "DISTINCT is only allowed in an aggregate function, not in %s (line %u, column %u)",
                            fn->name, e->line, e->column);
    e->fn = fn;
    for (uint32_t i = 0; i < e->nargs; i++) {
        if (sql_func_arg(fn, i) == SQL_ARG_UNIT) {
            if (bind_unit(b, e, e->args[i]) != 0)
                return -1;
            continue;
        }
        if (bind_expr(b, e->args[i]) != 0)
            return -1;
        if (fn->agg != SQL_AGG_NONE && no_aggregate(b, e->args[i], "the argument of another aggregate") != 0)
            return -1;
    }
    rewrite_call(e);
    return 0;
}

static int bind_expr(binder *b, sql_expr *e)
{
    switch (e->kind) {
    case SQL_E_COLUMN:
        return resolve_column(b, e);
    case SQL_E_FUNC:
        return bind_func(b, e);
    default:
        break;
    }
    uint32_t n = sql_expr_nchildren(e);
    for (uint32_t i = 0; i < n; i++)
        if (bind_expr(b, sql_expr_child(e, i)) != 0)
            return -1;
    return 0;
}

/* Text of the expression as written, for the label of a computed column. */
static const char *source_text(binder *b, const sql_expr *e)
{
    const char *s = lt_arena_strndup(b->arena, b->text + e->start, e->end - e->start);
    if (s == NULL)
        oom(b);
    return s;
}

static sql_output *add_output(binder *b)
{
    sql_query *q = b->q;
    if (q->noutputs == b->cap_outputs) {
        uint32_t cap = b->cap_outputs ? b->cap_outputs * 2 : 8;
        sql_output *no = lt_arena_alloc(b->arena, (size_t)cap * sizeof *no);
        if (no == NULL) {
            oom(b);
            return NULL;
        }
        if (q->noutputs)
            memcpy(no, q->outputs, q->noutputs * sizeof *no);
        q->outputs = no;
        b->cap_outputs = cap;
    }
    sql_output *o = &q->outputs[q->noutputs++];
    memset(o, 0, sizeof *o);
    o->base_table = "";
    o->base_column = "";
    return o;
}

/* One output showing column `c` of range `r` as it is. */
static int add_column_output(binder *b, uint32_t r, uint32_t c, const sql_select_item *item)
{
    const lt_table *t = b->q->ranges[r].desc;
    sql_expr *e = lt_arena_alloc(b->arena, sizeof *e);
    if (e == NULL)
        return oom(b);
    memset(e, 0, sizeof *e);
    e->kind = SQL_E_COLUMN;
    e->name = t->cols[c].name;
    e->range = r;
    e->table_col = c;
    e->source = &t->cols[c];
    e->line = item->line;
    e->column = item->column;
    e->depth = 1;
    sql_output *o = add_output(b);
    if (o == NULL)
        return -1;
    o->expr = e;
    o->label = e->source->name;
    o->base_table = t->name;
    o->base_column = e->source->name;
    return 0;
}

static int bind_item(binder *b, const sql_select_item *item)
{
    const sql_query *q = b->q;
    if (item->expr == NULL) {
        if (q->nranges == 0)
            return lt_error_set(b->err, "42000", "SELECT * needs a FROM clause (line %u, column %u)",
                                item->line, item->column);
        uint32_t from = 0, to = q->nranges;
        if (item->star_table != NULL) {
            int64_t r = find_range(b, item->star_table);
            if (r < 0)
                return lt_error_set(b->err, "42S02", "unknown table '%s' at line %u, column %u",
                                    item->star_table, item->line, item->column);
            from = (uint32_t)r;
            to = from + 1;
        }
        for (uint32_t r = from; r < to; r++)
            for (uint32_t c = 0; c < q->ranges[r].desc->ncols; c++)
                if (add_column_output(b, r, c, item) != 0)
                    return -1;
        return 0;
    }
    if (bind_expr(b, item->expr) != 0)
        return -1;
    sql_output *o = add_output(b);
    if (o == NULL)
        return -1;
    o->expr = item->expr;
    if (item->expr->kind == SQL_E_COLUMN) {
        o->label = item->expr->source->name;
        o->base_table = q->ranges[item->expr->range].desc->name;
        o->base_column = item->expr->source->name;
    } else if ((o->label = source_text(b, item->expr)) == NULL) {
        return -1;
    }
    if (item->alias != NULL)
        o->label = item->alias;
    return 0;
}

/* Append `e` to an arena array that doubles when full. */
static int append(binder *b, sql_expr ***arr, uint32_t *n, uint32_t *cap, sql_expr *e)
{
    if (*n == *cap) {
        uint32_t ncap = *cap ? *cap * 2 : 8;
        sql_expr **na = lt_arena_alloc(b->arena, (size_t)ncap * sizeof *na);
        if (na == NULL)
            return oom(b);
        if (*n)
            memcpy(na, *arr, *n * sizeof *na);
        *arr = na;
        *cap = ncap;
    }
    (*arr)[(*n)++] = e;
    return 0;
}

/* a AND b AND c -> a, b, c */
static int add_conjuncts(binder *b, sql_expr *e, sql_expr ***arr, uint32_t *n, uint32_t *cap)
{
    if (e->kind == SQL_E_AND)
        return add_conjuncts(b, e->left, arr, n, cap) != 0 ? -1 : add_conjuncts(b, e->right, arr, n, cap);
    return append(b, arr, n, cap, e);
}

/* ------------------------------------------------------------------------ */
/* GROUP BY                                                                  */
/* ------------------------------------------------------------------------ */

/* A GROUP BY item: an expression over the table; an ordinal or the alias
** of a select item (not a table column's name) stands for a copy of that
** item's expression, as SQLite, PostgreSQL and MySQL read it. */
static int bind_group_item(binder *b, sql_expr *e, sql_expr **out)
{
    const sql_query *q = b->q;
    const sql_expr *item = NULL;
    if (e->kind == SQL_E_LITERAL && e->value.type == LT_INT64) {
        if (e->value.u.i64 < 1 || e->value.u.i64 > q->nvisible)
            return lt_error_set(b->err, "42000",
                                "GROUP BY position %lld is not in the select list (1 to %u) at line %u, column %u",
                                (long long)e->value.u.i64, q->nvisible, e->line, e->column);
        item = q->outputs[e->value.u.i64 - 1].expr;
    } else if (e->kind == SQL_E_COLUMN && e->qualifier == NULL && !e->star &&
               !is_table_column(b, e->name)) {
        for (uint32_t i = 0; i < q->nvisible && item == NULL; i++)
            if (strcasecmp(q->outputs[i].label, e->name) == 0)
                item = q->outputs[i].expr;
    }
    if (item != NULL) {
        if ((e = sql_expr_copy(item, b->arena)) == NULL)
            return oom(b);
    } else if (bind_expr(b, e) != 0) {
        return -1;
    }
    if (no_aggregate(b, e, "GROUP BY") != 0)
        return -1;
    *out = e;
    return 0;
}

/* Mark the GROUP BY keys and aggregates of an output, HAVING or ORDER BY
** expression of a grouped query; any other column reference is an error. */
static int bind_grouped(binder *b, sql_expr *e)
{
    sql_query *q = b->q;
    if (sql_expr_is_constant(e))
        return 0;
    for (uint32_t i = 0; i < q->ngroups; i++) {
        if (sql_expr_equal(q->groups[i], e)) {
            e->from_input = true;
            e->input = i;
            return 0;
        }
    }
    if (is_aggregate(e)) {
        uint32_t j = 0;
        while (j < q->naggs && !sql_expr_equal(q->aggs[j], e))
            j++;
        if (j == q->naggs && append(b, &q->aggs, &q->naggs, &b->cap_aggs, e) != 0)
            return -1;
        e->from_input = true;
        e->input = q->ngroups + j;
        return 0;
    }
    if (e->kind == SQL_E_COLUMN)
        return lt_error_set(b->err, "42000",
                            "column '%s' must appear in GROUP BY or be used in an aggregate function (line %u, column %u)",
                            e->name, e->line, e->column);
    uint32_t n = sql_expr_nchildren(e);
    for (uint32_t i = 0; i < n; i++)
        if (bind_grouped(b, sql_expr_child(e, i)) != 0)
            return -1;
    return 0;
}

static int bind_grouping(binder *b, const sql_select *sel)
{
    sql_query *q = b->q;
    uint32_t cap = 0;
    for (uint32_t i = 0; i < sel->ngroup; i++) {
        sql_expr *key = NULL;
        if (bind_group_item(b, sel->group[i], &key) != 0 ||
            append(b, &q->groups, &q->ngroups, &cap, key) != 0)
            return -1;
    }
    if (sel->having != NULL) {
        if (bind_expr(b, sel->having) != 0 ||
            add_conjuncts(b, sel->having, &q->having, &q->nhaving, &b->cap_having) != 0)
            return -1;
    }
    q->grouped = q->ngroups > 0 || q->nhaving > 0;
    for (uint32_t i = 0; i < q->noutputs && !q->grouped; i++)
        q->grouped = find_aggregate(q->outputs[i].expr) != NULL;
    if (!q->grouped)
        return 0;
    for (uint32_t i = 0; i < q->noutputs; i++)
        if (bind_grouped(b, q->outputs[i].expr) != 0)
            return -1;
    for (uint32_t i = 0; i < q->nhaving; i++)
        if (bind_grouped(b, q->having[i]) != 0)
            return -1;
    return 0;
}

/* An unqualified name in ORDER BY may name an output column (its alias or
** its column name).  Returns the output, -1 when none, -2 on error. */
static int64_t order_by_name(binder *b, const sql_expr *e)
{
    const sql_query *q = b->q;
    int64_t found = -1;
    for (uint32_t i = 0; i < q->nvisible; i++) {
        if (strcasecmp(q->outputs[i].label, e->name) != 0)
            continue;
        if (found >= 0 && !sql_expr_equal(q->outputs[found].expr, q->outputs[i].expr)) {
            bind_error(b, "42000", e, "ambiguous ORDER BY name", e->name);
            return -2;
        }
        if (found < 0)
            found = i;
    }
    return found;
}

static int bind_order_item(binder *b, const sql_order_item *item, sql_sort_key *key)
{
    sql_query *q = b->q;
    sql_expr *e = item->expr;
    int64_t out = -1;
    key->desc = item->desc;
    /* NULL sorts as the smallest value unless the item says otherwise. */
    key->nulls_first = item->nulls != 0 ? item->nulls > 0 : !item->desc;
    if (e->kind == SQL_E_LITERAL && e->value.type == LT_INT64) {
        if (e->value.u.i64 < 1 || e->value.u.i64 > q->nvisible)
            return lt_error_set(b->err, "42000",
                                "ORDER BY position %lld is not in the select list (1 to %u) at line %u, column %u",
                                (long long)e->value.u.i64, q->nvisible, e->line, e->column);
        key->output = (uint32_t)(e->value.u.i64 - 1);
        return 0;
    }
    if (e->kind == SQL_E_COLUMN && e->qualifier == NULL && !e->star) {
        out = order_by_name(b, e);
        if (out == -2)
            return -1;
    }
    if (out < 0) {
        if (bind_expr(b, e) != 0)
            return -1;
        for (uint32_t i = 0; i < q->nvisible && out < 0; i++)
            if (sql_expr_equal(q->outputs[i].expr, e))
                out = i;
    }
    if (out < 0) {
        if (q->distinct)
            return lt_error_set(b->err, "42000",
                                "with SELECT DISTINCT, ORDER BY items must be in the select list (line %u, column %u)",
                                e->line, e->column);
        sql_output *o = add_output(b);
        if (o == NULL)
            return -1;
        o->expr = e;
        o->label = "";
        out = q->noutputs - 1;
    }
    key->output = (uint32_t)out;
    return 0;
}

/* LIMIT and OFFSET take an integer constant or a parameter. */
static int bind_count(binder *b, sql_expr *e, const char *what)
{
    if (e == NULL || e->kind == SQL_E_PARAM)
        return 0;
    if (e->kind == SQL_E_LITERAL && e->value.type == LT_INT64 && e->value.u.i64 >= 0)
        return 0;
    return lt_error_set(b->err, "42000", "%s needs a non-negative integer or ? (line %u, column %u)",
                        what, e->line, e->column);
}

/* The FROM tables, then each ON condition with the tables before it and
** its own in scope. */
static int bind_from(binder *b, const sql_select *sel)
{
    sql_query *q = b->q;
    if (sel->nfrom == 0)
        return 0;
    q->ranges = lt_arena_alloc(b->arena, sel->nfrom * sizeof *q->ranges);
    if (q->ranges == NULL)
        return oom(b);
    memset(q->ranges, 0, sel->nfrom * sizeof *q->ranges);
    for (uint32_t i = 0; i < sel->nfrom; i++) {
        const sql_table_ref *t = &sel->from[i];
        sql_range *r = &q->ranges[i];
        int64_t found = b->src != NULL ? lt_source_find_table(b->src, t->name, strlen(t->name)) : -1;
        if (found < 0)
            return lt_error_set(b->err, "42S02", "unknown table '%s' at line %u, column %u%s", t->name,
                                t->line, t->column,
                                b->src == NULL ? ": the connection has no data source" : "");
        r->table = (uint32_t)found;
        r->desc = &b->src->tables[found];
        if (r->desc->error != NULL)
            return lt_error_set(b->err, "HY000", "table '%s' cannot be read: %s", r->desc->name,
                                r->desc->error);
        r->name = t->alias != NULL ? t->alias : r->desc->name;
        r->join = t->join;
        for (uint32_t k = 0; k < i; k++)
            if (strcasecmp(q->ranges[k].name, r->name) == 0)
                return lt_error_set(b->err, "42000",
                                    "the table name '%s' is used twice in FROM (line %u, column %u): give one an alias",
                                    r->name, t->line, t->column);
        /* LEFT JOIN: this table's columns are NULL where nothing matched. */
        r->outer = t->join == SQL_JOIN_LEFT;
        q->nranges = i + 1;
    }
    for (uint32_t i = 0; i < sel->nfrom; i++) {
        sql_expr *on = sel->from[i].on;
        uint32_t cap = 0;
        if (on == NULL)
            continue;
        b->scope = i + 1;
        if (bind_expr(b, on) != 0 || no_aggregate(b, on, "ON") != 0 ||
            add_conjuncts(b, on, &q->ranges[i].on, &q->ranges[i].non, &cap) != 0)
            return -1;
    }
    b->scope = q->nranges;
    return 0;
}

int sql_bind(lt_source *src, const sql_select *sel, const char *text,
             lt_arena *arena, sql_query **out, lt_error *err)
{
    *out = NULL;
    binder b;
    memset(&b, 0, sizeof b);
    b.src = src;
    b.text = text;
    b.arena = arena;
    b.err = err;
    sql_query *q = lt_arena_alloc(arena, sizeof *q);
    if (q == NULL)
        return oom(&b);
    memset(q, 0, sizeof *q);
    b.q = q;
    q->src = src;
    q->distinct = sel->distinct;
    if (bind_from(&b, sel) != 0)
        return -1;
    for (uint32_t i = 0; i < sel->nitems; i++)
        if (bind_item(&b, &sel->items[i]) != 0)
            return -1;
    q->nvisible = q->noutputs;
    if (sel->where != NULL) {
        if (bind_expr(&b, sel->where) != 0 || no_aggregate(&b, sel->where, "WHERE") != 0 ||
            add_conjuncts(&b, sel->where, &q->conj, &q->nconj, &b.cap_conj) != 0)
            return -1;
    }
    /* Grouping is bound after ORDER BY, so that the hidden outputs ORDER BY
    ** adds are checked against the GROUP BY keys too. */
    if (sel->norder > 0) {
        q->keys = lt_arena_alloc(arena, sel->norder * sizeof *q->keys);
        if (q->keys == NULL)
            return oom(&b);
        for (uint32_t i = 0; i < sel->norder; i++)
            if (bind_order_item(&b, &sel->order[i], &q->keys[i]) != 0)
                return -1;
        q->nkeys = sel->norder;
    }
    if (bind_grouping(&b, sel) != 0)
        return -1;
    if (bind_count(&b, sel->limit, "LIMIT") != 0 || bind_count(&b, sel->offset, "OFFSET") != 0)
        return -1;
    q->limit = sel->limit;
    q->offset = sel->offset;
    q->nparams = sel->nparams;
    q->params = sel->params;
    q->param_hints = lt_arena_alloc(arena, (q->nparams ? q->nparams : 1) * sizeof *q->param_hints);
    if (q->param_hints == NULL)
        return oom(&b);
    if (sql_type_query(q, NULL, err) != 0)
        return -1;
    *out = q;
    return 0;
}
