/*
** rowstore.c — rows kept beyond their batch (sort, distinct, grouping).
**
** Readers reuse their batches and their text points into them, so an
** operator that holds rows copies them here: column vectors that double
** when full, and text and binary bytes in one arena.  Growth is amortised:
** no allocation per row.
**
** A row set adds a hash table over a row store: each distinct row once,
** numbered in order of arrival (DISTINCT, GROUP BY keys, the values of
** DISTINCT aggregates).  NULLs are equal to each other there.
**
** Memory: a store given a budget (sql_rowstore_budget, budget.c) takes
** what it is about to allocate from it first: column growth, text bytes, a
** row set's hash tables; past the execution's MemoryLimit the operator
** fails with HY001 naming what it was doing.  sql_rowstore_free gives the
** bytes back.
*/
#include "exec.h"
#include "spill.h"
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

/* Tags for rows [0, cap) of a stored column, the rows from `old` on zeroed. */
static int grow_tags(lt_vector *v, uint32_t old, uint32_t cap)
{
    uint8_t *tags = realloc(v->tags, cap);
    if (tags == NULL)
        return -1;
    memset(tags + old, 0, cap - old);
    v->tags = tags;
    lt_value *other = realloc(v->other, (size_t)cap * sizeof *other);
    if (other == NULL)
        return -1;
    v->other = other;
    return 0;
}

void sql_rowstore_budget(sql_rowstore *rs, sql_budget *b, const char *what)
{
    rs->budget = b;
    rs->what = what;
}

static int take(sql_rowstore *rs, uint64_t bytes, lt_error *err)
{
    return sql_budget_take(rs->budget, bytes, rs->what, &rs->held, err);
}

static int no_room(lt_error *err)
{
    return lt_error_set(err, "HY001", "out of memory holding rows");
}

/* Copy text or binary bytes into the store (the source's are reused). */
static int keep_bytes(sql_rowstore *rs, lt_bytes *cell, lt_error *err)
{
    if (cell->len == 0) {
        cell->ptr = empty;
        return 0;
    }
    if (take(rs, cell->len, err) != 0)
        return -1;
    char *copy = lt_arena_alloc(&rs->text, cell->len);
    if (copy == NULL)
        return no_room(err);
    memcpy(copy, cell->ptr, cell->len);
    cell->ptr = copy;
    return 0;
}

/* The capacity after the next growth, and the bytes it takes. */
static uint32_t next_capacity(const sql_rowstore *rs, uint64_t *bytes)
{
    uint32_t cap = rs->capacity ? rs->capacity * 2 : 1024;
    uint64_t row = 0;
    for (uint32_t c = 0; c < rs->ncols; c++) {
        const lt_vector *v = &rs->cols[c];
        row += 1 + sql_type_width(v->type) + (v->tags != NULL ? 1 + sizeof(lt_value) : 0);
    }
    *bytes = row * (cap - rs->capacity);
    return cap;
}

static int grow(sql_rowstore *rs, lt_error *err)
{
    if (rs->capacity >= UINT32_MAX / 2)
        return lt_error_set(err, "HY001", "too many rows to hold in memory");
    uint64_t bytes;
    uint32_t cap = next_capacity(rs, &bytes);
    if (take(rs, bytes, err) != 0)
        return -1;
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
        if (v->tags != NULL && grow_tags(v, rs->capacity, cap) != 0)
            return lt_error_set(err, "HY001", "out of memory holding rows");
    }
    rs->capacity = cap;
    return 0;
}

uint64_t sql_rowstore_need(const sql_rowstore *rs, const lt_batch *b, uint32_t row)
{
    uint64_t need = 0;
    if (rs->count == rs->capacity)
        next_capacity(rs, &need);
    uint32_t cap = rs->count == rs->capacity ? (rs->capacity ? rs->capacity * 2 : 1024)
                                             : rs->capacity;
    for (uint32_t c = 0; c < rs->ncols; c++) {
        const lt_vector *src = &b->cols[c];
        if (src->type == LT_NULL || src->nulls[row])
            continue;
        if (src->tags != NULL && src->tags[row] != LT_NULL) {
            const lt_value *o = &src->other[row];
            if (rs->cols[c].tags == NULL)
                need += (uint64_t)cap * (1 + sizeof(lt_value));
            if (o->type == LT_TEXT || o->type == LT_BINARY)
                need += o->u.bytes.len;
        } else if (src->type == LT_TEXT || src->type == LT_BINARY) {
            need += src->v.bytes[row].len;
        }
    }
    return need;
}

int sql_rowstore_append(sql_rowstore *rs, const lt_batch *b, uint32_t row, lt_error *err)
{
    if (rs->count == rs->capacity && grow(rs, err) != 0)
        return -1;
    if (sql_rowstore_set(rs, rs->count, b, row, err) != 0)
        return -1;
    rs->count++;
    return 0;
}

int sql_rowstore_set(sql_rowstore *rs, uint32_t to, const lt_batch *b, uint32_t row,
                     lt_error *err)
{
    for (uint32_t c = 0; c < rs->ncols; c++) {
        lt_vector *v = &rs->cols[c];
        const lt_vector *src = &b->cols[c];
        bool tagged = src->tags != NULL && src->tags[row] != LT_NULL && !src->nulls[row];
        if (tagged) {
            /* A dynamically typed row: keep its value and its type. */
            if (v->tags == NULL &&
                (take(rs, (uint64_t)rs->capacity * (1 + sizeof(lt_value)), err) != 0 ||
                 (grow_tags(v, 0, rs->capacity) != 0 && no_room(err))))
                return -1;
            v->nulls[to] = 0;
            v->tags[to] = src->tags[row];
            v->other[to] = src->other[row];
            lt_value *o = &v->other[to];
            if ((o->type == LT_TEXT || o->type == LT_BINARY) && keep_bytes(rs, &o->u.bytes, err) != 0)
                return -1;
            continue;
        }
        if (v->tags != NULL)
            v->tags[to] = LT_NULL;
        sql_vector_copy_cell(v, to, src, row);
        if ((v->type == LT_TEXT || v->type == LT_BINARY) && !v->nulls[to] &&
            keep_bytes(rs, &v->v.bytes[to], err) != 0)
            return -1;
    }
    return 0;
}

void sql_rowstore_free(sql_rowstore *rs)
{
    if (rs->cols != NULL) {
        for (uint32_t c = 0; c < rs->ncols; c++) {
            free(rs->cols[c].nulls);
            free(rs->cols[c].v.any);
            free(rs->cols[c].tags);
            free(rs->cols[c].other);
        }
        free(rs->cols);
    }
    lt_arena_free(&rs->text);
    sql_budget_release(rs->budget, &rs->held);
    memset(rs, 0, sizeof *rs);
}

/* ------------------------------------------------------------------------ */
/* Row sets                                                                  */
/* ------------------------------------------------------------------------ */

int sql_rowset_init(sql_rowset *set, const lt_batch *shape, uint32_t ncols, lt_error *err)
{
    memset(set, 0, sizeof *set);
    if (sql_rowstore_init(&set->rows, shape, ncols) != 0)
        return lt_error_set(err, "HY001", "out of memory");
    set->table = calloc(1024, sizeof *set->table);
    if (set->table == NULL) {
        sql_rowstore_free(&set->rows);
        return lt_error_set(err, "HY001", "out of memory");
    }
    set->mask = 1023;
    return 0;
}

void sql_rowset_free(sql_rowset *set)
{
    if (set->table != NULL)
        sql_rowstore_free(&set->rows);
    free(set->hashes);
    free(set->table);
    memset(set, 0, sizeof *set);
}

void sql_rowset_hashes(const sql_rowset *set, const lt_batch *b, const uint32_t *sel, uint32_t n,
                       uint64_t *hashes)
{
    for (uint32_t i = 0; i < n; i++)
        hashes[sel[i]] = 0;
    for (uint32_t c = 0; c < set->rows.ncols; c++)
        sql_hash_vector(&b->cols[c], sel, n, hashes);
}

static bool row_equal(const sql_rowset *set, const lt_batch *b, uint32_t row, uint32_t stored)
{
    for (uint32_t c = 0; c < set->rows.ncols; c++)
        if (!sql_equal_cells(&b->cols[c], row, &set->rows.cols[c], stored))
            return false;
    return true;
}

/* Double the table when it is half full. */
static int rehash(sql_rowset *set, lt_error *err)
{
    if (set->mask >= UINT32_MAX / 4)
        return lt_error_set(err, "HY001", "too many distinct rows to hold in memory");
    uint32_t size = (set->mask + 1) * 2;
    if (take(&set->rows, (uint64_t)(size - (set->mask + 1)) * sizeof(uint32_t), err) != 0)
        return -1;
    uint32_t *table = calloc(size, sizeof *table);
    if (table == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    for (uint32_t r = 0; r < set->rows.count; r++) {
        uint32_t i = (uint32_t)set->hashes[r] & (size - 1);
        while (table[i] != 0)
            i = (i + 1) & (size - 1);
        table[i] = r + 1;
    }
    free(set->table);
    set->table = table;
    set->mask = size - 1;
    return 0;
}

int64_t sql_rowset_find(const sql_rowset *set, const lt_batch *b, uint32_t row, uint64_t h)
{
    for (uint32_t i = (uint32_t)h & set->mask; set->table[i] != 0; i = (i + 1) & set->mask) {
        uint32_t r = set->table[i] - 1;
        if (set->hashes[r] == h && row_equal(set, b, row, r))
            return r;
    }
    return -1;
}

int64_t sql_rowset_insert(sql_rowset *set, const lt_batch *b, uint32_t row, uint64_t h,
                          bool *added, lt_error *err)
{
    uint32_t i = (uint32_t)h & set->mask;
    *added = false;
    while (set->table[i] != 0) {
        uint32_t r = set->table[i] - 1;
        if (set->hashes[r] == h && row_equal(set, b, row, r))
            return r;
        i = (i + 1) & set->mask;
    }
    if (set->rows.count == set->hash_cap) {
        uint32_t cap = set->hash_cap ? set->hash_cap * 2 : 1024;
        if (take(&set->rows, (uint64_t)(cap - set->hash_cap) * sizeof(uint64_t), err) != 0)
            return -1;
        uint64_t *nh = realloc(set->hashes, (size_t)cap * sizeof *nh);
        if (nh == NULL)
            return lt_error_set(err, "HY001", "out of memory");
        set->hashes = nh;
        set->hash_cap = cap;
    }
    uint32_t r = set->rows.count;
    if (sql_rowstore_append(&set->rows, b, row, err) != 0)
        return -1;
    set->hashes[r] = h;
    set->table[i] = r + 1;
    *added = true;
    if ((uint64_t)set->rows.count * 2 > set->mask && rehash(set, err) != 0)
        return -1;
    return r;
}
