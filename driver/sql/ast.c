/*
** ast.c — walking and comparing expression trees.
*/
#include "ast.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

uint32_t sql_expr_nchildren(const sql_expr *e)
{
    return (e->left != NULL) + (e->right != NULL) + (e->third != NULL) + e->nargs;
}

sql_expr *sql_expr_child(const sql_expr *e, uint32_t i)
{
    sql_expr *fixed[3] = {e->left, e->right, e->third};
    for (int k = 0; k < 3; k++) {
        if (fixed[k] == NULL)
            continue;
        if (i == 0)
            return fixed[k];
        i--;
    }
    return i < e->nargs ? e->args[i] : NULL;
}

bool sql_expr_is_constant(const sql_expr *e)
{
    return e->kind == SQL_E_LITERAL || e->kind == SQL_E_PARAM || e->kind == SQL_E_OUTER;
}

static bool same_name(const char *a, const char *b)
{
    if (a == NULL || b == NULL)
        return a == b;
    return strcasecmp(a, b) == 0;
}

static bool same_value(const lt_value *a, const lt_value *b)
{
    if (a->type != b->type)
        return false;
    switch (a->type) {
    case LT_NULL:      return true;
    case LT_BOOL:      return a->u.b == b->u.b;
    case LT_INT64:
    case LT_TIME:
    case LT_TIMESTAMP: return a->u.i64 == b->u.i64;
    case LT_DATE:      return a->u.date == b->u.date;
    case LT_DOUBLE:    return a->u.f64 == b->u.f64;
    case LT_DECIMAL:   return a->scale == b->scale && a->u.dec == b->u.dec;
    case LT_TEXT:
    case LT_BINARY:
        return a->u.bytes.len == b->u.bytes.len &&
               (a->u.bytes.len == 0 || memcmp(a->u.bytes.ptr, b->u.bytes.ptr, a->u.bytes.len) == 0);
    case LT_GUID:      return memcmp(&a->u.guid, &b->u.guid, sizeof a->u.guid) == 0;
    }
    return false;
}

bool sql_expr_equal(const sql_expr *a, const sql_expr *b)
{
    if (a == NULL || b == NULL)
        return a == b;
    if (a->kind != b->kind || a->op != b->op || a->negated != b->negated ||
        a->star != b->star || a->distinct != b->distinct || a->nargs != b->nargs)
        return false;
    switch (a->kind) {
    case SQL_E_LITERAL:
        return same_value(&a->value, &b->value);
    case SQL_E_PARAM:
    case SQL_E_OUTER:
        return a->param == b->param;
    case SQL_E_SUBQUERY:
        /* The same query written twice is still two evaluations. */
        if (a->sub != b->sub)
            return false;
        break;
    case SQL_E_COLUMN:
        /* Bound columns compare by table and position; the names may
        ** differ in case or qualification (a self-join's two tables share
        ** their column descriptions). */
        return a->source != NULL && a->source == b->source && a->range == b->range;
    case SQL_E_FUNC:
        if (!same_name(a->name, b->name))
            return false;
        break;
    case SQL_E_CAST:
        if (a->cast.type != b->cast.type || a->cast.scale != b->cast.scale ||
            a->cast.size != b->cast.size)
            return false;
        break;
    default:
        break;
    }
    uint32_t n = sql_expr_nchildren(a);
    if (n != sql_expr_nchildren(b))
        return false;
    if (!sql_expr_equal(a->left, b->left) || !sql_expr_equal(a->right, b->right) ||
        !sql_expr_equal(a->third, b->third))
        return false;
    for (uint32_t i = 0; i < a->nargs; i++)
        if (!sql_expr_equal(a->args[i], b->args[i]))
            return false;
    return true;
}

sql_expr *sql_expr_copy(const sql_expr *e, lt_arena *arena)
{
    if (e == NULL)
        return NULL;
    sql_expr *c = lt_arena_alloc(arena, sizeof *c);
    if (c == NULL)
        return NULL;
    *c = *e;
    sql_expr **kids[3] = {&c->left, &c->right, &c->third};
    for (int k = 0; k < 3; k++)
        if (*kids[k] != NULL && (*kids[k] = sql_expr_copy(*kids[k], arena)) == NULL)
            return NULL;
    if (e->nargs > 0) {
        c->args = lt_arena_alloc(arena, e->nargs * sizeof *c->args);
        if (c->args == NULL)
            return NULL;
        for (uint32_t i = 0; i < e->nargs; i++)
            if ((c->args[i] = sql_expr_copy(e->args[i], arena)) == NULL)
                return NULL;
    }
    return c;
}

int sql_error_at(lt_error *err, const sql_expr *e)
{
    if (err == NULL)
        return -1;
    char msg[LT_ERROR_MESSAGE_MAX], state[sizeof err->sqlstate], what[32] = "";
    snprintf(msg, sizeof msg, "%s", err->message);
    snprintf(state, sizeof state, "%s", err->sqlstate);
    if (e->kind == SQL_E_PARAM)
        snprintf(what, sizeof what, "parameter %u at ", e->param + 1);
    else if (e->kind == SQL_E_LITERAL)
        snprintf(what, sizeof what, "literal at ");
    return lt_error_set(err, state, "%.900s (%sline %u, column %u)", msg, what, e->line, e->column);
}
