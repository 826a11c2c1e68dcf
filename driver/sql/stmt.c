/*
** stmt.c — preparing and executing statements (sql.h).
**
** Prepare parses, binds, types and plans once; execute copies the
** parameter values, types the query again when it has parameters (their
** values fix their types), sets up the evaluation state and opens the
** operator tree.  The cursor side is in cursor.c.
*/
#include "stmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sql_prepare(lt_source *src, const char *text, size_t len, sql_stmt **out,
                lt_error *err)
{
    *out = NULL;
    if (text == NULL && len > 0)
        return lt_error_set(err, "HY009", "no statement text");
    sql_stmt *stmt = calloc(1, sizeof *stmt);
    if (stmt == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    lt_arena_init(&stmt->arena);
    stmt->src = src;
    stmt->memory_limit = SQL_DEFAULT_MEMORY_LIMIT;
    sql_select *sel;
    if (sql_parse(text ? text : "", len, &stmt->arena, &sel, err) != 0 ||
        sql_bind(src, sel, text, &stmt->arena, &stmt->q, err) != 0 ||
        sql_plan_prepare(stmt->q, &stmt->arena, err) != 0)
        goto fail;
    uint32_t n = stmt->q->nvisible;
    stmt->cols = lt_arena_alloc(&stmt->arena, (n ? n : 1) * sizeof *stmt->cols);
    if (stmt->cols == NULL) {
        lt_error_set(err, "HY001", "out of memory");
        goto fail;
    }
    for (uint32_t i = 0; i < n; i++)
        stmt->cols[i] = stmt->q->outputs[i].col;
    *out = stmt;
    return 0;
fail:
    sql_stmt_free(stmt);
    return -1;
}

void sql_stmt_free(sql_stmt *stmt)
{
    if (stmt == NULL)
        return;
    /* The contract says close first; closing here keeps a slip harmless. */
    if (stmt->open != NULL)
        sql_cursor_close(stmt->open);
    lt_arena_free(&stmt->arena);
    free(stmt);
}

void sql_stmt_set_memory_limit(sql_stmt *stmt, uint64_t bytes)
{
    stmt->memory_limit = bytes;
}

uint32_t sql_param_count(const sql_stmt *stmt)
{
    return stmt->q->nparams;
}

lt_type sql_param_type(const sql_stmt *stmt, uint32_t i)
{
    return i < stmt->q->nparams ? stmt->q->param_hints[i] : LT_NULL;
}

uint32_t sql_column_count(const sql_stmt *stmt)
{
    return stmt->q->nvisible;
}

const sql_column *sql_column_at(const sql_stmt *stmt, uint32_t i)
{
    return i < stmt->q->nvisible ? &stmt->cols[i] : NULL;
}

/* The caller's values, with text and binary copied into the cursor. */
static int copy_params(sql_cursor *cur, const lt_value *params, uint32_t n, lt_error *err)
{
    cur->params = lt_arena_alloc(&cur->arena, (n ? n : 1) * sizeof *cur->params);
    if (cur->params == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    for (uint32_t i = 0; i < n; i++) {
        cur->params[i] = params[i];
        if (params[i].type != LT_TEXT && params[i].type != LT_BINARY)
            continue;
        const lt_bytes *b = &params[i].u.bytes;
        char *copy = lt_arena_strndup(&cur->arena, b->len ? b->ptr : "", b->len);
        if (copy == NULL)
            return lt_error_set(err, "HY001", "out of memory");
        cur->params[i].u.bytes.ptr = copy;
    }
    return 0;
}

static int open_cursor(sql_stmt *stmt, sql_cursor *cur, const lt_value *params,
                       uint32_t nparams, lt_error *err)
{
    sql_query *q = stmt->q;
    if (copy_params(cur, params, nparams, err) != 0)
        return -1;
    if (nparams > 0 && sql_type_query(q, cur->params, err) != 0)
        return -1;
    cur->ncols = q->nvisible;
    cur->cols = lt_arena_alloc(&cur->arena, (cur->ncols ? cur->ncols : 1) * sizeof *cur->cols);
    lt_type *types = lt_arena_alloc(&cur->arena, (cur->ncols + 1) * sizeof *types);
    int16_t *scales = lt_arena_alloc(&cur->arena, (cur->ncols + 1) * sizeof *scales);
    if (cur->cols == NULL || types == NULL || scales == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    for (uint32_t i = 0; i < cur->ncols; i++) {
        cur->cols[i] = q->outputs[i].col;
        types[i] = cur->cols[i].desc.type;
        scales[i] = cur->cols[i].desc.scale;
    }
    cur->out = lt_batch_new(cur->ncols, types, scales, LT_BATCH_ROWS);
    if (cur->out == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    cur->ex_live = true;
    if (sql_exec_init(&cur->ex, q, cur->params, &cur->cancel, err) != 0)
        return -1;
    cur->budget.limit = stmt->memory_limit;
    cur->budget.used = 0;
    cur->ex.budget = &cur->budget;
    return sql_plan_open(&cur->ex, &cur->top, err);
}

int sql_execute(sql_stmt *stmt, const lt_value *params, uint32_t nparams,
                sql_cursor **out, lt_error *err)
{
    *out = NULL;
    if (nparams != stmt->q->nparams)
        return lt_error_set(err, "07002", "the statement has %u parameter marker%s but %u value%s given",
                            stmt->q->nparams, stmt->q->nparams == 1 ? "" : "s",
                            nparams, nparams == 1 ? " was" : "s were");
    if (stmt->open != NULL)
        return lt_error_set(err, "24000", "a cursor is already open on this statement");
    sql_cursor *cur = calloc(1, sizeof *cur);
    if (cur == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    lt_arena_init(&cur->arena);
    atomic_init(&cur->cancel, 0);
    cur->stmt = stmt;
    stmt->open = cur;
    if (open_cursor(stmt, cur, params, nparams, err) != 0) {
        sql_cursor_close(cur);
        return -1;
    }
    *out = cur;
    return 0;
}

static char *arena_copy(lt_arena *a, const char *s)
{
    return s == NULL ? NULL : lt_arena_strndup(a, s, strlen(s));
}

int sql_describe_table(lt_source *src, uint32_t table, lt_arena *arena, sql_column **cols,
                       uint32_t *ncols, lt_error *err)
{
    *cols = NULL;
    *ncols = 0;
    if (src == NULL || table >= src->ntables)
        return lt_error_set(err, "HY000", "no such table to describe");
    /* SELECT * FROM "name", the name's quotes doubled. */
    const char *name = src->tables[table].name;
    size_t len = strlen(name), k = 0;
    char *text = malloc(2 * len + 32);
    if (text == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    k += (size_t)sprintf(text, "SELECT * FROM \"");
    for (size_t i = 0; i < len; i++) {
        text[k++] = name[i];
        if (name[i] == '"')
            text[k++] = '"';
    }
    text[k++] = '"';
    text[k] = '\0';
    sql_stmt *st;
    int rc = sql_prepare(src, text, k, &st, err);
    free(text);
    if (rc != 0)
        return -1;
    uint32_t n = sql_column_count(st);
    sql_column *out = lt_arena_alloc(arena, (n ? n : 1) * sizeof *out);
    bool ok = out != NULL;
    for (uint32_t i = 0; ok && i < n; i++) {
        out[i] = *sql_column_at(st, i);
        out[i].desc.name = arena_copy(arena, out[i].desc.name);
        out[i].desc.type_name = arena_copy(arena, out[i].desc.type_name);
        out[i].base_table = arena_copy(arena, out[i].base_table);
        out[i].base_column = arena_copy(arena, out[i].base_column);
        ok = out[i].desc.name != NULL && (sql_column_at(st, i)->desc.type_name == NULL ||
                                          out[i].desc.type_name != NULL) &&
             out[i].base_table != NULL && out[i].base_column != NULL;
    }
    sql_stmt_free(st);
    if (!ok)
        return lt_error_set(err, "HY001", "out of memory");
    *cols = out;
    *ncols = n;
    return 0;
}
