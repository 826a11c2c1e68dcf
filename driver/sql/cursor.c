/*
** cursor.c — pulling result batches (sql.h), and cursors over batches the
** ODBC layer built itself (catalog functions).
*/
#include "stmt.h"

#include <stdlib.h>
#include <string.h>

/* The rows of `ch` as a batch of exactly the result columns. */
static lt_batch *result_batch(sql_cursor *cur, const sql_chunk *ch)
{
    if (ch->sel == NULL && ch->n == ch->batch->count && ch->batch->ncols == cur->ncols)
        return ch->batch;
    for (uint32_t c = 0; c < cur->ncols; c++) {
        sql_vector_gather(&cur->out->cols[c], &ch->batch->cols[c], ch->sel, ch->n);
        if (sql_vector_gather_tags(&cur->out->cols[c], &ch->batch->cols[c], ch->sel, ch->n,
                                   &cur->arena) != 0)
            return NULL;
    }
    cur->out->count = ch->n;
    return cur->out;
}

int sql_cursor_next(sql_cursor *cur, lt_batch **out, lt_error *err)
{
    *out = NULL;
    if (atomic_load(&cur->cancel))
        return lt_error_set(err, "HY008", "operation canceled");
    if (cur->failed) {
        if (err != NULL)
            *err = cur->failure;
        return -1;
    }
    if (cur->given != NULL) {
        if (cur->sent)
            cur->given->count = 0;
        cur->sent = true;
        *out = cur->given;
        return 0;
    }
    if (!cur->done) {
        sql_chunk ch;
        if (sql_next(cur->top, &ch, err) != 0) {
            cur->failed = true;
            if (err != NULL)
                cur->failure = *err;
            return -1;
        }
        if (ch.n > 0) {
            if ((*out = result_batch(cur, &ch)) == NULL)
                return lt_error_set(err, "HY001", "out of memory");
            return 0;
        }
        cur->done = true;
    }
    cur->out->count = 0;
    *out = cur->out;
    return 0;
}

void sql_cursor_close(sql_cursor *cur)
{
    if (cur == NULL)
        return;
    sql_close(cur->top);
    if (cur->ex_live)
        sql_exec_free(&cur->ex);
    lt_batch_free(cur->out);
    lt_batch_free(cur->given);
    lt_arena_free(&cur->arena);
    if (cur->stmt != NULL && cur->stmt->open == cur)
        cur->stmt->open = NULL;
    free(cur);
}

uint32_t sql_cursor_column_count(const sql_cursor *cur)
{
    return cur->ncols;
}

const sql_column *sql_cursor_column_at(const sql_cursor *cur, uint32_t i)
{
    return i < cur->ncols ? &cur->cols[i] : NULL;
}

static const char *copy_str(lt_arena *a, const char *s, bool *ok)
{
    if (s == NULL)
        return NULL;
    char *c = lt_arena_strndup(a, s, strlen(s));
    if (c == NULL)
        *ok = false;
    return c;
}

sql_cursor *sql_cursor_from_batch(const sql_column *cols, uint32_t ncols,
                                  lt_batch *batch)
{
    sql_cursor *cur = calloc(1, sizeof *cur);
    if (cur == NULL) {
        lt_batch_free(batch);
        return NULL;
    }
    lt_arena_init(&cur->arena);
    atomic_init(&cur->cancel, 0);
    cur->given = batch;
    cur->ncols = ncols;
    cur->cols = lt_arena_alloc(&cur->arena, (ncols ? ncols : 1) * sizeof *cur->cols);
    bool ok = cur->cols != NULL;
    for (uint32_t i = 0; ok && i < ncols; i++) {
        sql_column *c = &cur->cols[i];
        *c = cols[i];
        c->desc.name = (char *)copy_str(&cur->arena, cols[i].desc.name, &ok);
        c->desc.type_name = copy_str(&cur->arena, cols[i].desc.type_name, &ok);
        c->base_table = copy_str(&cur->arena, cols[i].base_table ? cols[i].base_table : "", &ok);
        c->base_column = copy_str(&cur->arena, cols[i].base_column ? cols[i].base_column : "", &ok);
    }
    if (!ok) {
        sql_cursor_close(cur);
        return NULL;
    }
    return cur;
}

void sql_cursor_cancel(sql_cursor *cur)
{
    if (cur != NULL)
        atomic_store(&cur->cancel, 1);
}
