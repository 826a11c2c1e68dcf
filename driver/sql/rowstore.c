/*
** rowstore.c — rows kept beyond their batch (sort, distinct).
**
** Readers reuse their batches and their text points into them, so an
** operator that holds rows copies them here: column vectors that double
** when full, and text and binary bytes in one arena.  Growth is amortised:
** no allocation per row.
**
** Everything stays in memory for now; spilling to a temporary file past a
** memory budget is the planned next step (DESIGN.md, issue 3).
*/
#include "exec.h"
#include "value.h"

#include <stdlib.h>
#include <string.h>

static const char empty[1] = "";

int sql_rowstore_init(sql_rowstore *rs, const lt_batch *shape, uint32_t ncols)
{
    memset(rs, 0, sizeof *rs);
    lt_arena_init(&rs->text);
    rs->cols = calloc(ncols ? ncols : 1, sizeof *rs->cols);
    if (rs->cols == NULL)
        return -1;
    rs->ncols = ncols;
    for (uint32_t c = 0; c < ncols; c++) {
        rs->cols[c].type = shape->cols[c].type;
        rs->cols[c].scale = shape->cols[c].scale;
    }
    return 0;
}

static int grow(sql_rowstore *rs, lt_error *err)
{
    if (rs->capacity >= UINT32_MAX / 2)
        return lt_error_set(err, "HY001", "too many rows to hold in memory");
    uint32_t cap = rs->capacity ? rs->capacity * 2 : 1024;
    for (uint32_t c = 0; c < rs->ncols; c++) {
        lt_vector *v = &rs->cols[c];
        uint8_t *nulls = realloc(v->nulls, cap);
        if (nulls == NULL)
            return lt_error_set(err, "HY001", "out of memory holding rows");
        v->nulls = nulls;
        void *vals = realloc(v->v.any, (size_t)cap * sql_type_width(v->type));
        if (vals == NULL)
            return lt_error_set(err, "HY001", "out of memory holding rows");
        v->v.any = vals;
    }
    rs->capacity = cap;
    return 0;
}

int sql_rowstore_append(sql_rowstore *rs, const lt_batch *b, uint32_t row, lt_error *err)
{
    if (rs->count == rs->capacity && grow(rs, err) != 0)
        return -1;
    uint32_t to = rs->count;
    for (uint32_t c = 0; c < rs->ncols; c++) {
        lt_vector *v = &rs->cols[c];
        sql_vector_copy_cell(v, to, &b->cols[c], row);
        if ((v->type != LT_TEXT && v->type != LT_BINARY) || v->nulls[to])
            continue;
        lt_bytes *cell = &v->v.bytes[to];
        if (cell->len == 0) {
            cell->ptr = empty;
            continue;
        }
        char *copy = lt_arena_alloc(&rs->text, cell->len);
        if (copy == NULL)
            return lt_error_set(err, "HY001", "out of memory holding rows");
        memcpy(copy, cell->ptr, cell->len);
        cell->ptr = copy;
    }
    rs->count++;
    return 0;
}

void sql_rowstore_free(sql_rowstore *rs)
{
    if (rs->cols != NULL) {
        for (uint32_t c = 0; c < rs->ncols; c++) {
            free(rs->cols[c].nulls);
            free(rs->cols[c].v.any);
        }
        free(rs->cols);
    }
    lt_arena_free(&rs->text);
    memset(rs, 0, sizeof *rs);
}
