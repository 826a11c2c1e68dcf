/*
** binder.c — resolving names: from a parsed SELECT to a bound query.
**
** Table and column names resolve case-insensitively against the source's
** tables (42S02 unknown table, 42S22 unknown column, 42000 ambiguous).  The
** select list's stars are expanded, WHERE is split into conjuncts, and each
** ORDER BY item becomes a reference to an output column: by ordinal, by
** output name (alias), or as an expression over the table, added as a
** hidden output when the select list does not already compute it.
*/
#include "query.h"

#include <string.h>
#include <strings.h>

typedef struct binder {
    lt_source *src;
    const char *text;
    lt_arena *arena;
    lt_error *err;
    sql_query *q;
    const lt_table *table;   /* NULL when FROM-less */
    uint32_t cap_outputs;
    uint32_t cap_conj;
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

static int resolve_column(binder *b, sql_expr *e)
{
    const sql_query *q = b->q;
    if (e->star)
        return lt_error_set(b->err, "42000", "%s.* is only allowed in the select list (line %u, column %u)",
                            e->qualifier, e->line, e->column);
    if (b->table == NULL)
        return lt_error_set(b->err, "42S22", "unknown column '%s' at line %u, column %u: the query has no FROM clause",
                            e->name, e->line, e->column);
    if (e->qualifier != NULL && strcasecmp(e->qualifier, q->range_name) != 0)
        return bind_error(b, "42S02", e, "unknown table", e->qualifier);
    int64_t found = -1;
    for (uint32_t c = 0; c < b->table->ncols; c++) {
        if (strcasecmp(b->table->cols[c].name, e->name) != 0)
            continue;
        if (found >= 0)
            return bind_error(b, "42000", e, "ambiguous column name", e->name);
        found = c;
    }
    if (found < 0)
        return bind_error(b, "42S22", e, "unknown column", e->name);
    e->table_col = (uint32_t)found;
    e->source = &b->table->cols[found];
    return 0;
}

static int bind_expr(binder *b, sql_expr *e)
{
    switch (e->kind) {
    case SQL_E_COLUMN:
        return resolve_column(b, e);
    case SQL_E_FUNC:
        return lt_error_set(b->err, "42000", "function %s is not supported yet (line %u, column %u)",
                            e->name, e->line, e->column);
    case SQL_E_CONCAT:
        return lt_error_set(b->err, "42000", "string concatenation is not supported yet (line %u, column %u)",
                            e->line, e->column);
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

/* One output showing column `c` of the table as it is. */
static int add_column_output(binder *b, uint32_t c, const sql_select_item *item)
{
    sql_expr *e = lt_arena_alloc(b->arena, sizeof *e);
    if (e == NULL)
        return oom(b);
    memset(e, 0, sizeof *e);
    e->kind = SQL_E_COLUMN;
    e->name = b->table->cols[c].name;
    e->table_col = c;
    e->source = &b->table->cols[c];
    e->line = item->line;
    e->column = item->column;
    e->depth = 1;
    sql_output *o = add_output(b);
    if (o == NULL)
        return -1;
    o->expr = e;
    o->label = e->source->name;
    o->base_table = b->table->name;
    o->base_column = e->source->name;
    return 0;
}

static int bind_item(binder *b, const sql_select_item *item)
{
    const sql_query *q = b->q;
    if (item->expr == NULL) {
        if (b->table == NULL)
            return lt_error_set(b->err, "42000", "SELECT * needs a FROM clause (line %u, column %u)",
                                item->line, item->column);
        if (item->star_table != NULL && strcasecmp(item->star_table, q->range_name) != 0)
            return lt_error_set(b->err, "42S02", "unknown table '%s' at line %u, column %u",
                                item->star_table, item->line, item->column);
        for (uint32_t c = 0; c < b->table->ncols; c++)
            if (add_column_output(b, c, item) != 0)
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
        o->base_table = b->table->name;
        o->base_column = item->expr->source->name;
    } else if ((o->label = source_text(b, item->expr)) == NULL) {
        return -1;
    }
    if (item->alias != NULL)
        o->label = item->alias;
    return 0;
}

static int add_conjuncts(binder *b, sql_expr *e)
{
    if (e->kind == SQL_E_AND)
        return add_conjuncts(b, e->left) != 0 ? -1 : add_conjuncts(b, e->right);
    sql_query *q = b->q;
    if (q->nconj == b->cap_conj) {
        uint32_t cap = b->cap_conj ? b->cap_conj * 2 : 8;
        sql_expr **nc = lt_arena_alloc(b->arena, (size_t)cap * sizeof *nc);
        if (nc == NULL)
            return oom(b);
        if (q->nconj)
            memcpy(nc, q->conj, q->nconj * sizeof *nc);
        q->conj = nc;
        b->cap_conj = cap;
    }
    q->conj[q->nconj++] = e;
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
    q->table = -1;
    q->distinct = sel->distinct;
    if (sel->from != NULL) {
        const sql_table_ref *t = sel->from;
        if (src != NULL)
            q->table = lt_source_find_table(src, t->name, strlen(t->name));
        if (q->table < 0)
            return lt_error_set(err, "42S02", "unknown table '%s' at line %u, column %u%s", t->name,
                                t->line, t->column, src == NULL ? ": the connection has no data source" : "");
        b.table = &src->tables[q->table];
        if (b.table->error != NULL)
            return lt_error_set(err, "HY000", "table '%s' cannot be read: %s", b.table->name,
                                b.table->error);
        q->range_name = t->alias != NULL ? t->alias : b.table->name;
    }
    for (uint32_t i = 0; i < sel->nitems; i++)
        if (bind_item(&b, &sel->items[i]) != 0)
            return -1;
    q->nvisible = q->noutputs;
    if (sel->where != NULL) {
        if (bind_expr(&b, sel->where) != 0 || add_conjuncts(&b, sel->where) != 0)
            return -1;
    }
    if (sel->norder > 0) {
        q->keys = lt_arena_alloc(arena, sel->norder * sizeof *q->keys);
        if (q->keys == NULL)
            return oom(&b);
        for (uint32_t i = 0; i < sel->norder; i++)
            if (bind_order_item(&b, &sel->order[i], &q->keys[i]) != 0)
                return -1;
        q->nkeys = sel->norder;
    }
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
