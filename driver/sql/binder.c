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
**
** Composition: a derived table `(SELECT ...) AS x` and a view (a table whose
** reader gives its SELECT text) become a range over a bound sub-query; a
** compound (UNION, EXCEPT, INTERSECT) binds each side as a query of its
** own; a subquery in an expression is bound with the enclosing query's
** names visible: a name it cannot resolve itself is looked up outside and
** becomes an outer value (SQL_E_OUTER), whose outer expression is added to
** the SUBQUERY node's arguments, so the enclosing query evaluates it like
** any operand.  JOIN ... USING and NATURAL JOIN become ON equalities, the
** joined table's copy of each merged column hidden from `*` and from
** unqualified names.
*/
#include "func.h"
#include "query.h"

#include <string.h>
#include <strings.h>

/* What every query of one statement shares. */
typedef struct bind_ctx {
    uint32_t nparams;
    lt_type *param_hints;
    const char *views[SQL_MAX_VIEW_DEPTH]; /* views being expanded, outermost first */
    uint32_t nviews;
    uint32_t depth;          /* queries being bound, nested (views' included) */
} bind_ctx;

typedef struct binder binder;
struct binder {
    bind_ctx *ctx;
    binder *parent;          /* the query whose names a subquery also sees */
    sql_expr *corr;          /* the SUBQUERY node collecting outer values, or NULL */
    lt_source *src;
    const char *text;
    lt_arena *arena;
    lt_error *err;
    sql_query *q;
    uint32_t scope;          /* ranges names resolve against (ON sees those before it) */
    uint32_t cap_outputs;
    uint32_t cap_conj, cap_having, cap_aggs;
};

static int bind_select(binder *outer, binder *parent, sql_expr *corr, const sql_select *sel,
                       const char *text, sql_query **out);

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

/* Does qualifier `name` (NULL: none) reach column c of range rg: its alias
** or table name, or in a parenthesised join the table the column is of? */
static bool column_in(const sql_range *rg, uint32_t c, const char *name)
{
    return name == NULL || strcasecmp(rg->name, name) == 0 ||
           (rg->owners != NULL && rg->owners[c] != NULL && strcasecmp(rg->owners[c], name) == 0);
}

/* Is `name` range rg's alias or table name, or that of a table inside it
** (a parenthesised join)? */
static bool range_named(const sql_range *rg, const char *name)
{
    if (strcasecmp(rg->name, name) == 0)
        return true;
    for (uint32_t c = 0; rg->owners != NULL && c < rg->desc->ncols; c++)
        if (rg->owners[c] != NULL && strcasecmp(rg->owners[c], name) == 0)
            return true;
    return false;
}

/* The range a qualifier names (alias, else table name, or a table inside
** a parenthesised join), -1 when none. */
static int64_t find_range(const binder *b, const char *name)
{
    for (uint32_t r = 0; r < b->scope; r++)
        if (range_named(&b->q->ranges[r], name))
            return r;
    return -1;
}

/* A bound reference to column c of range r. */
static sql_expr *column_ref(binder *b, uint32_t r, uint32_t c, uint32_t line, uint32_t column)
{
    const lt_table *t = b->q->ranges[r].desc;
    sql_expr *e = lt_arena_alloc(b->arena, sizeof *e);
    if (e == NULL) {
        oom(b);
        return NULL;
    }
    memset(e, 0, sizeof *e);
    e->kind = SQL_E_COLUMN;
    e->name = t->cols[c].name;
    e->range = r;
    e->table_col = c;
    e->source = &t->cols[c];
    e->line = line;
    e->column = column;
    e->depth = 1;
    return e;
}

/* The USING pair whose left column is column c of range r, in a RIGHT or
** FULL join (where the merged value is COALESCE(left, right)); NULL when
** none. */
static const sql_using *merged_outer(const binder *b, uint32_t r, uint32_t c, uint32_t *right)
{
    const sql_query *q = b->q;
    for (uint32_t k = r + 1; k < q->nranges; k++) {
        const sql_range *rg = &q->ranges[k];
        if (rg->join != SQL_JOIN_RIGHT && rg->join != SQL_JOIN_FULL)
            continue;
        for (uint32_t i = 0; i < rg->nusing; i++)
            if (rg->usings[i].lrange == r && rg->usings[i].lcol == c) {
                *right = k;
                return &rg->usings[i];
            }
    }
    return NULL;
}

/* Turn `e` (in place) into COALESCE(left, right) of a merged column. */
static int make_merged(binder *b, sql_expr *e, uint32_t r, uint32_t c, uint32_t k,
                       const sql_using *u)
{
    sql_expr **args = lt_arena_alloc(b->arena, 2 * sizeof *args);
    if (args == NULL)
        return oom(b);
    if ((args[0] = column_ref(b, r, c, e->line, e->column)) == NULL ||
        (args[1] = column_ref(b, k, u->rcol, e->line, e->column)) == NULL)
        return -1;
    e->kind = SQL_E_FUNC;
    e->name = "COALESCE";
    e->qualifier = NULL;
    e->args = args;
    e->nargs = 2;
    e->depth = 2;
    return bind_func(b, e);
}

/* Resolve `e` against this query's ranges in scope: 0 found, 1 not there
** (err untouched), -1 error (ambiguous). */
static int resolve_here(binder *b, sql_expr *e)
{
    const sql_query *q = b->q;
    if (q->nranges == 0)
        return 1;
    uint32_t from = 0, to = b->scope;
    if (e->qualifier != NULL) {
        int64_t r = find_range(b, e->qualifier);
        if (r < 0)
            return 1;
        from = (uint32_t)r;
        to = from + 1;
    }
    int64_t found = -1;
    uint32_t in = 0;
    for (uint32_t r = from; r < to; r++) {
        const sql_range *rg = &q->ranges[r];
        const lt_table *t = rg->desc;
        for (uint32_t c = 0; c < t->ncols; c++) {
            if (strcasecmp(t->cols[c].name, e->name) != 0 || !column_in(rg, c, e->qualifier))
                continue;
            /* USING: the joined table's copy is the same column. */
            if (e->qualifier == NULL && rg->hidden != NULL && rg->hidden[c])
                continue;
            if (found >= 0)
                return bind_error(b, "42000", e, "ambiguous column name", e->name);
            found = c;
            in = r;
        }
    }
    if (found < 0)
        return 1;
    uint32_t k;
    const sql_using *u = e->qualifier == NULL ? merged_outer(b, in, (uint32_t)found, &k) : NULL;
    if (u != NULL && k < b->scope)
        return make_merged(b, e, in, (uint32_t)found, k, u);
    e->range = in;
    e->table_col = (uint32_t)found;
    e->source = &q->ranges[in].desc->cols[found];
    return 0;
}

/* A name the subquery does not know, looked up in the enclosing queries:
** found there, it becomes an outer value of this subquery (0); 1 when no
** enclosing query knows it either. */
static int resolve_outer(binder *b, sql_expr *e)
{
    if (b->parent == NULL || b->corr == NULL)
        return 1;
    sql_expr *c = sql_expr_copy(e, b->arena);
    if (c == NULL)
        return oom(b);
    int rc = resolve_here(b->parent, c);
    if (rc == 1)
        rc = resolve_outer(b->parent, c);
    if (rc != 0)
        return rc;
    sql_expr *corr = b->corr;
    uint32_t i = 0;
    while (i < corr->nargs && !sql_expr_equal(corr->args[i], c))
        i++;
    if (i == corr->nargs) {
        sql_expr **na = lt_arena_alloc(b->arena, (corr->nargs + 1) * sizeof *na);
        if (na == NULL)
            return oom(b);
        if (corr->nargs)
            memcpy(na, corr->args, corr->nargs * sizeof *na);
        na[corr->nargs++] = c;
        corr->args = na;
    }
    e->kind = SQL_E_OUTER;
    e->param = i;
    e->corr = corr->args[i];
    return 0;
}

/* Whether this query or one enclosing it has a range of that name (a
** qualifier of an outer table with a wrong column is 42S22, not 42S02). */
static bool range_known(const binder *b, const char *name)
{
    for (; b != NULL; b = b->parent)
        if (find_range(b, name) >= 0)
            return true;
    return false;
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
    int rc = resolve_here(b, e);
    if (rc == 1)
        rc = resolve_outer(b, e);
    if (rc != 1)
        return rc;
    if (e->qualifier != NULL && !range_known(b, e->qualifier))
        return bind_error(b, "42S02", e, "unknown table", e->qualifier);
    if (q->nranges == 0)
        return lt_error_set(b->err, "42S22", "unknown column '%s' at line %u, column %u: the query has no FROM clause",
                            e->name, e->line, e->column);
    return bind_error(b, "42S22", e, "unknown column", e->name);
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

/* (SELECT ...) inside an expression of this query. */
static int bind_subquery(binder *b, sql_expr *e, bool one_column)
{
    if (e->subq == NULL && bind_select(b, b, e, e->sub, b->text, &e->subq) != 0)
        return -1;
    if (one_column && e->subq->nvisible != 1)
        return lt_error_set(b->err, "42000",
                            "a subquery used as a value must return one column, not %u (line %u, column %u)",
                            e->subq->nvisible, e->line, e->column);
    e->subq->nouter = e->nargs;
    return 0;
}

static int bind_expr(binder *b, sql_expr *e)
{
    switch (e->kind) {
    case SQL_E_COLUMN:
        /* Nodes the binder made itself (USING, `*`) are bound already. */
        return e->source != NULL ? 0 : resolve_column(b, e);
    case SQL_E_FUNC:
        return bind_func(b, e);
    case SQL_E_OUTER:
        return 0;
    case SQL_E_SUBQUERY:
        return bind_subquery(b, e, true);
    case SQL_E_EXISTS:
        return bind_subquery(b, e->left, false);
    case SQL_E_IN_SELECT:
        return bind_expr(b, e->left) != 0 ? -1 : bind_subquery(b, e->right, true);
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

/* One output showing column `c` of range `r` as it is (for `*`: a column
** USING merged into an earlier one is shown there, once; merged in a RIGHT
** or FULL join, as COALESCE of both). */
static int add_column_output(binder *b, uint32_t r, uint32_t c, const sql_select_item *item,
                             bool star)
{
    const sql_range *rg = &b->q->ranges[r];
    const lt_table *t = rg->desc;
    if (star && rg->hidden != NULL && rg->hidden[c])
        return 0;
    sql_expr *e = column_ref(b, r, c, item->line, item->column);
    if (e == NULL)
        return -1;
    uint32_t k;
    const sql_using *u = star ? merged_outer(b, r, c, &k) : NULL;
    bool merged = u != NULL;
    if (merged && make_merged(b, e, r, c, k, u) != 0)
        return -1;
    sql_output *o = add_output(b);
    if (o == NULL)
        return -1;
    o->expr = e;
    o->label = t->cols[c].name;
    o->base_table = merged ? "" : t->name;
    o->base_column = merged ? "" : t->cols[c].name;
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
                if (column_in(&q->ranges[r], c, item->star_table) &&
                    add_column_output(b, r, c, item, item->star_table == NULL) != 0)
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
    if (e->kind == SQL_E_COLUMN && b->src != NULL && b->src->dialect == LT_DIALECT_SQLITE) {
        /* SQLite takes a bare column's value from some row of the group
        ** (its views rely on it, e.g. GROUP BY d.id with d.name shown): a
        ** group's minimum, which is that value when the column depends on
        ** the key. */
        sql_expr *col = sql_expr_copy(e, b->arena);
        sql_expr **args = lt_arena_alloc(b->arena, sizeof *args);
        if (col == NULL || args == NULL)
            return oom(b);
        args[0] = col;
        e->kind = SQL_E_FUNC;
        e->name = "MIN";
        e->qualifier = NULL;
        e->args = args;
        e->nargs = 1;
        e->depth = 2;
        e->source = NULL;
        if (bind_func(b, e) != 0)
            return -1;
        return bind_grouped(b, e);
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

/* Range r over a bound sub-query: its visible outputs are the columns,
** named by `names` when given. */
static int bind_derived(binder *b, sql_range *r, const sql_select *sel, const char *text,
                        const char *name, const char *kind, const char *const *names,
                        uint32_t nnames, const sql_table_ref *t)
{
    /* A derived table sees the names the enclosing query's subqueries see,
    ** not its sibling tables. */
    if (bind_select(b, b->parent, b->corr, sel, text, &r->sub) != 0)
        return -1;
    uint32_t n = r->sub->nvisible;
    if (nnames > 0 && nnames != n)
        return lt_error_set(b->err, "42000",
                            "%s '%s' has %u column%s but %u column name%s given (line %u, column %u)",
                            kind, name, n, n == 1 ? "" : "s", nnames, nnames == 1 ? " is" : "s are",
                            t->line, t->column);
    lt_column *cols = lt_arena_alloc(b->arena, (n ? n : 1) * sizeof *cols);
    if (cols == NULL)
        return oom(b);
    memset(cols, 0, (n ? n : 1) * sizeof *cols);
    for (uint32_t i = 0; i < n; i++) {
        /* Types come from the sub-query's typing (typing.c). */
        cols[i].name = (char *)(nnames > 0 ? names[i] : r->sub->outputs[i].label);
        cols[i].type = LT_NULL;
        cols[i].nullable = true;
    }
    memset(&r->derived, 0, sizeof r->derived);
    r->derived.name = (char *)name;
    r->derived.kind = kind;
    r->derived.ncols = n;
    r->derived.cols = cols;
    r->derived.row_estimate = -1;
    r->table = UINT32_MAX;
    r->desc = &r->derived;
    return 0;
}

/* A view: its reader-given SELECT, parsed and bound as a derived table
** named like the view, guarded against a view that reads itself. */
static int bind_view(binder *b, sql_range *r, const lt_table *view, const sql_table_ref *t)
{
    bind_ctx *ctx = b->ctx;
    for (uint32_t i = 0; i < ctx->nviews; i++)
        if (strcasecmp(ctx->views[i], view->name) == 0)
            return lt_error_set(b->err, "42000", "view '%s' refers to itself (line %u, column %u)",
                                view->name, t->line, t->column);
    if (ctx->nviews >= SQL_MAX_VIEW_DEPTH)
        return lt_error_set(b->err, "42000", "views nested more than %d deep at view '%s' (line %u, column %u)",
                            SQL_MAX_VIEW_DEPTH, view->name, t->line, t->column);
    sql_select *sel;
    if (sql_parse(view->query, strlen(view->query), b->arena, &sel, b->err) != 0) {
        lt_error inner = *b->err;
        return lt_error_set(b->err, inner.sqlstate, "in the query of view '%s': %.900s", view->name,
                            inner.message);
    }
    if (sel->nparams > 0)
        return lt_error_set(b->err, "42000", "the query of view '%s' contains a parameter marker",
                            view->name);
    const char **names = NULL;
    if (view->ncols > 0) {
        names = lt_arena_alloc(b->arena, view->ncols * sizeof *names);
        if (names == NULL)
            return oom(b);
        for (uint32_t i = 0; i < view->ncols; i++)
            names[i] = view->cols[i].name;
    }
    ctx->views[ctx->nviews++] = view->name;
    /* Outside names are not visible in a view: it is bound on its own. */
    binder *parent = b->parent;
    sql_expr *corr = b->corr;
    b->parent = NULL;
    b->corr = NULL;
    int rc = bind_derived(b, r, sel, view->query, view->name, "view", names, view->ncols, t);
    b->parent = parent;
    b->corr = corr;
    ctx->nviews--;
    if (rc != 0 && strncmp(b->err->message, "in the query of view", 20) != 0 &&
        strstr(b->err->message, view->name) == NULL) {
        lt_error inner = *b->err;
        return lt_error_set(b->err, inner.sqlstate, "in the query of view '%s': %.900s", view->name,
                            inner.message);
    }
    return rc;
}

/* The column of range r named `name` (not hidden), -1 when none. */
static int64_t range_column(const sql_range *r, const char *name)
{
    for (uint32_t c = 0; c < r->desc->ncols; c++)
        if ((r->hidden == NULL || !r->hidden[c]) && strcasecmp(r->desc->cols[c].name, name) == 0)
            return c;
    return -1;
}

/* One merged column of JOIN ... USING or NATURAL JOIN: column rcol of
** range i equals `name` of the ranges before it (exactly one of them). */
static int add_using(binder *b, uint32_t i, uint32_t rcol, const char *name,
                     const sql_table_ref *t, uint32_t *cap)
{
    sql_query *q = b->q;
    sql_range *r = &q->ranges[i];
    int64_t lr = -1, lc = -1;
    for (uint32_t k = 0; k < i; k++) {
        int64_t c = range_column(&q->ranges[k], name);
        if (c < 0)
            continue;
        if (lr >= 0)
            return lt_error_set(b->err, "42000",
                                "ambiguous column name '%s' in USING: tables '%s' and '%s' have it (line %u, column %u)",
                                name, q->ranges[lr].name, q->ranges[k].name, t->line, t->column);
        lr = k;
        lc = c;
    }
    if (lr < 0)
        return lt_error_set(b->err, "42S22", "USING column '%s' is not in the tables before '%s' (line %u, column %u)",
                            name, r->name, t->line, t->column);
    sql_using *nu = lt_arena_alloc(b->arena, (r->nusing + 1) * sizeof *nu);
    sql_expr *eq = lt_arena_alloc(b->arena, sizeof *eq);
    if (nu == NULL || eq == NULL)
        return oom(b);
    if (r->nusing)
        memcpy(nu, r->usings, r->nusing * sizeof *nu);
    nu[r->nusing].lrange = (uint32_t)lr;
    nu[r->nusing].lcol = (uint32_t)lc;
    nu[r->nusing].rcol = rcol;
    r->usings = nu;
    r->nusing++;
    memset(eq, 0, sizeof *eq);
    eq->kind = SQL_E_COMPARE;
    eq->op = SQL_OP_EQ;
    eq->line = t->line;
    eq->column = t->column;
    eq->depth = 2;
    if ((eq->left = column_ref(b, (uint32_t)lr, (uint32_t)lc, t->line, t->column)) == NULL ||
        (eq->right = column_ref(b, i, rcol, t->line, t->column)) == NULL)
        return -1;
    r->hidden[rcol] = 1;
    return append(b, &r->on, &r->non, cap, eq);
}

/* USING (a, b) and NATURAL JOIN of range i: ON equalities. */
static int bind_using(binder *b, uint32_t i, const sql_table_ref *t, uint32_t *cap)
{
    sql_range *r = &b->q->ranges[i];
    uint32_t n = r->desc->ncols;
    r->hidden = lt_arena_alloc(b->arena, n ? n : 1);
    if (r->hidden == NULL)
        return oom(b);
    memset(r->hidden, 0, n ? n : 1);
    if (t->natural) {
        for (uint32_t c = 0; c < n; c++) {
            bool common = false;
            for (uint32_t k = 0; k < i && !common; k++)
                common = range_column(&b->q->ranges[k], r->desc->cols[c].name) >= 0;
            if (common && add_using(b, i, c, r->desc->cols[c].name, t, cap) != 0)
                return -1;
        }
        return 0;
    }
    for (uint32_t u = 0; u < t->nusing; u++) {
        int64_t c = range_column(r, t->using_cols[u]);
        if (c < 0)
            return lt_error_set(b->err, "42S22", "USING column '%s' is not in table '%s' (line %u, column %u)",
                                t->using_cols[u], r->name, t->line, t->column);
        if (add_using(b, i, (uint32_t)c, t->using_cols[u], t, cap) != 0)
            return -1;
    }
    return 0;
}

/* A parenthesised join `(a JOIN b ON c)` joined to other tables: a derived
** table (SELECT * over a and b) without a name of its own, whose columns
** `a.x` and `b.y` still qualify (owners). */
static int bind_nested(binder *b, sql_range *r, const sql_table_ref *t)
{
    if (bind_derived(b, r, t->sub, b->text, "", "joined table", NULL, 0, t) != 0)
        return -1;
    const sql_query *sub = r->sub;
    uint32_t n = sub->nvisible;
    r->owners = lt_arena_alloc(b->arena, (n ? n : 1) * sizeof *r->owners);
    if (r->owners == NULL)
        return oom(b);
    for (uint32_t i = 0; i < n; i++) {
        const sql_expr *e = sub->outputs[i].expr;
        const sql_range *in = e->kind == SQL_E_COLUMN ? &sub->ranges[e->range] : NULL;
        r->owners[i] = in == NULL ? NULL : in->owners != NULL ? in->owners[e->table_col] : in->name;
    }
    return 0;
}

/* Range i: a table of the source, a view, a derived table or a
** parenthesised join. */
static int bind_table_ref(binder *b, uint32_t i, const sql_table_ref *t)
{
    sql_query *q = b->q;
    sql_range *r = &q->ranges[i];
    if (t->nested) {
        if (bind_nested(b, r, t) != 0)
            return -1;
    } else if (t->sub != NULL) {
        if (bind_derived(b, r, t->sub, b->text, t->alias, "derived table", t->colnames,
                         t->ncolnames, t) != 0)
            return -1;
    } else {
        lt_error why;
        lt_error_clear(&why);
        int64_t found = b->src != NULL ? lt_source_find_table_err(b->src, t->name, strlen(t->name), &why) : -1;
        if (found < 0 && b->src != NULL && strcmp(why.sqlstate, "42S02") != 0)
            return lt_error_set(b->err, why.sqlstate, "%.900s (line %u, column %u)", why.message,
                                t->line, t->column);
        if (found < 0 && b->src == NULL)
            return lt_error_set(b->err, "42S02", "unknown table '%s' at line %u, column %u: the connection has no data source",
                                t->name, t->line, t->column);
        if (found < 0)
            return lt_error_set(b->err, "42S02", "unknown table '%s' at line %u, column %u (data source %s)",
                                t->name, t->line, t->column, b->src->path ? b->src->path : "");
        const lt_table *desc = &b->src->tables[found];
        if (desc->error != NULL)
            return lt_error_set(b->err, "HY000", "table '%s' cannot be read: %s", desc->name,
                                desc->error);
        if (desc->query != NULL) {
            if (bind_view(b, r, desc, t) != 0)
                return -1;
        } else {
            r->table = (uint32_t)found;
            r->desc = desc;
        }
    }
    r->name = t->alias != NULL ? t->alias : r->desc->name;
    r->join = t->join;
    /* (a parenthesised join's names are its tables') */
    const char *dup = NULL;
    for (uint32_t k = 0; k < i && dup == NULL; k++) {
        if (r->name[0] != '\0' && range_named(&q->ranges[k], r->name))
            dup = r->name;
        for (uint32_t c = 0; r->owners != NULL && c < r->desc->ncols && dup == NULL; c++)
            if (r->owners[c] != NULL && range_named(&q->ranges[k], r->owners[c]))
                dup = r->owners[c];
    }
    if (dup != NULL)
        return lt_error_set(b->err, "42000",
                            "the table name '%s' is used twice in FROM (line %u, column %u): give one an alias",
                            dup, t->line, t->column);
    /* The side an outer join may fill with NULLs. */
    r->outer = t->join == SQL_JOIN_LEFT || t->join == SQL_JOIN_FULL;
    if (t->join == SQL_JOIN_RIGHT || t->join == SQL_JOIN_FULL)
        for (uint32_t k = 0; k < i; k++)
            q->ranges[k].outer = true;
    q->nranges = i + 1;
    return 0;
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
        b->scope = i;
        if (bind_table_ref(b, i, &sel->from[i]) != 0)
            return -1;
    }
    for (uint32_t i = 0; i < sel->nfrom; i++) {
        const sql_table_ref *t = &sel->from[i];
        uint32_t cap = 0;
        b->scope = i + 1;
        if ((t->nusing > 0 || t->natural) && bind_using(b, i, t, &cap) != 0)
            return -1;
        if (t->on == NULL)
            continue;
        if (bind_expr(b, t->on) != 0 || no_aggregate(b, t->on, "ON") != 0 ||
            add_conjuncts(b, t->on, &q->ranges[i].on, &q->ranges[i].non, &cap) != 0)
            return -1;
    }
    b->scope = q->nranges;
    return 0;
}

static sql_query *new_query(binder *b)
{
    sql_query *q = lt_arena_alloc(b->arena, sizeof *q);
    if (q == NULL) {
        oom(b);
        return NULL;
    }
    memset(q, 0, sizeof *q);
    q->src = b->src;
    q->nparams = b->ctx->nparams;
    q->param_hints = b->ctx->param_hints;
    return q;
}

/* ORDER BY of a compound: an output's position or name. */
static int bind_set_order(binder *b, const sql_order_item *item, sql_sort_key *key)
{
    sql_query *q = b->q;
    const sql_expr *e = item->expr;
    key->desc = item->desc;
    key->nulls_first = item->nulls != 0 ? item->nulls > 0 : !item->desc;
    if (e->kind == SQL_E_LITERAL && e->value.type == LT_INT64) {
        if (e->value.u.i64 < 1 || e->value.u.i64 > q->nvisible)
            return lt_error_set(b->err, "42000",
                                "ORDER BY position %lld is not in the select list (1 to %u) at line %u, column %u",
                                (long long)e->value.u.i64, q->nvisible, e->line, e->column);
        key->output = (uint32_t)(e->value.u.i64 - 1);
        return 0;
    }
    if (e->kind == SQL_E_COLUMN && !e->star) {
        for (uint32_t i = 0; i < q->nvisible; i++)
            if (strcasecmp(q->outputs[i].label, e->name) == 0) {
                key->output = i;
                return 0;
            }
        return bind_error(b, "42S22", e, "ORDER BY of UNION, EXCEPT or INTERSECT names no output column", e->name);
    }
    return lt_error_set(b->err, "42000",
                        "ORDER BY of UNION, EXCEPT or INTERSECT must name an output column or give its position (line %u, column %u)",
                        e->line, e->column);
}

static const char *setop_name(sql_setop op)
{
    switch (op) {
    case SQL_SET_UNION:     return "UNION";
    case SQL_SET_UNION_ALL: return "UNION ALL";
    case SQL_SET_EXCEPT:    return "EXCEPT";
    case SQL_SET_INTERSECT: return "INTERSECT";
    case SQL_SET_EXCEPT_ALL: return "EXCEPT ALL";
    case SQL_SET_INTERSECT_ALL: return "INTERSECT ALL";
    default:                return "";
    }
}

/* lhs op rhs: both sides bound as queries of their own (seeing what this
** query's subqueries see); the outputs are named after the first side's. */
static int bind_compound(binder *b, const sql_select *sel)
{
    sql_query *q = b->q;
    q->setop = sel->setop;
    if (bind_select(b, b->parent, b->corr, sel->lhs, b->text, &q->lhs) != 0 ||
        bind_select(b, b->parent, b->corr, sel->rhs, b->text, &q->rhs) != 0)
        return -1;
    if (q->lhs->nvisible != q->rhs->nvisible)
        return lt_error_set(b->err, "42000",
                            "the queries combined by %s must have the same number of columns, not %u and %u (line %u, column %u)",
                            setop_name(sel->setop), q->lhs->nvisible, q->rhs->nvisible,
                            sel->line, sel->column);
    for (uint32_t i = 0; i < q->lhs->nvisible; i++) {
        sql_output *o = add_output(b);
        if (o == NULL)
            return -1;
        o->label = q->lhs->outputs[i].label;
    }
    q->nvisible = q->noutputs;
    q->set_types = lt_arena_alloc(b->arena, (q->noutputs ? q->noutputs : 1) * sizeof *q->set_types);
    if (q->set_types == NULL)
        return oom(b);
    if (sel->norder > 0) {
        q->keys = lt_arena_alloc(b->arena, sel->norder * sizeof *q->keys);
        if (q->keys == NULL)
            return oom(b);
        for (uint32_t i = 0; i < sel->norder; i++)
            if (bind_set_order(b, &sel->order[i], &q->keys[i]) != 0)
                return -1;
        q->nkeys = sel->norder;
    }
    return 0;
}

/* One SELECT: FROM, the select list, WHERE, ORDER BY, grouping. */
static int bind_simple(binder *b, const sql_select *sel)
{
    sql_query *q = b->q;
    q->distinct = sel->distinct;
    if (bind_from(b, sel) != 0)
        return -1;
    for (uint32_t i = 0; i < sel->nitems; i++)
        if (bind_item(b, &sel->items[i]) != 0)
            return -1;
    q->nvisible = q->noutputs;
    if (sel->where != NULL) {
        if (bind_expr(b, sel->where) != 0 || no_aggregate(b, sel->where, "WHERE") != 0 ||
            add_conjuncts(b, sel->where, &q->conj, &q->nconj, &b->cap_conj) != 0)
            return -1;
    }
    /* Grouping is bound after ORDER BY, so that the hidden outputs ORDER BY
    ** adds are checked against the GROUP BY keys too. */
    if (sel->norder > 0) {
        q->keys = lt_arena_alloc(b->arena, sel->norder * sizeof *q->keys);
        if (q->keys == NULL)
            return oom(b);
        for (uint32_t i = 0; i < sel->norder; i++)
            if (bind_order_item(b, &sel->order[i], &q->keys[i]) != 0)
                return -1;
        q->nkeys = sel->norder;
    }
    return bind_grouping(b, sel);
}

/* Bind `sel` as a query of its own.  `outer` gives the statement-wide
** context; `parent` is the query whose names it may read (a subquery's
** enclosing query), `corr` the SUBQUERY node its outer values go to. */
static int bind_select(binder *outer, binder *parent, sql_expr *corr, const sql_select *sel,
                       const char *text, sql_query **out)
{
    binder b;
    memset(&b, 0, sizeof b);
    /* Each view's text nests queries anew: bound the whole, so that a file
    ** cannot make the recursion run out of stack. */
    if (outer->ctx->depth >= SQL_MAX_DEPTH / 2)
        return lt_error_set(outer->err, "42000",
                            "queries nested too deeply (more than %d levels, views included) at line %u, column %u",
                            SQL_MAX_DEPTH / 2, sel->line, sel->column);
    outer->ctx->depth++;
    b.ctx = outer->ctx;
    b.parent = parent;
    b.corr = corr;
    b.src = outer->src;
    b.text = text;
    b.arena = outer->arena;
    b.err = outer->err;
    if ((b.q = new_query(&b)) == NULL)
        return -1;
    int rc = sel->setop != SQL_SET_NONE ? bind_compound(&b, sel) : bind_simple(&b, sel);
    b.ctx->depth--;
    if (rc != 0)
        return -1;
    sql_query *q = b.q;
    if (bind_count(&b, sel->limit, "LIMIT") != 0 || bind_count(&b, sel->offset, "OFFSET") != 0)
        return -1;
    q->limit = sel->limit;
    q->offset = sel->offset;
    q->line = sel->line;
    q->column = sel->column;
    *out = q;
    return 0;
}

int sql_bind(lt_source *src, const sql_select *sel, const char *text,
             lt_arena *arena, sql_query **out, lt_error *err)
{
    *out = NULL;
    bind_ctx *ctx = lt_arena_alloc(arena, sizeof *ctx);
    binder top;
    memset(&top, 0, sizeof top);
    top.src = src;
    top.arena = arena;
    top.err = err;
    top.ctx = ctx;
    if (ctx == NULL)
        return oom(&top);
    memset(ctx, 0, sizeof *ctx);
    ctx->nparams = sel->nparams;
    ctx->param_hints = lt_arena_alloc(arena, (sel->nparams ? sel->nparams : 1) * sizeof *ctx->param_hints);
    if (ctx->param_hints == NULL)
        return oom(&top);
    memset(ctx->param_hints, 0, (sel->nparams ? sel->nparams : 1) * sizeof *ctx->param_hints);
    sql_query *q;
    if (bind_select(&top, NULL, NULL, sel, text, &q) != 0)
        return -1;
    q->params = sel->params;
    if (sql_type_query(q, NULL, err) != 0)
        return -1;
    *out = q;
    return 0;
}
