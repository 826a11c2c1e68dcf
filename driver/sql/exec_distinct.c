/*
** exec_distinct.c — SELECT DISTINCT: each distinct row once, at its first
** occurrence (so the input order is kept).
**
** Streaming: every row is looked up in a hash set of the rows seen so far
** (open addressing over row numbers of a row store, which holds copies,
** since the child's batches are reused).  New rows pass on as a selection
** over the child's batch.  NULLs are equal to each other here.
*/
#include "exec.h"

#include <stdlib.h>
#include <string.h>

typedef struct distinct_op {
    sql_operator base;
    sql_rowstore rows;
    bool started;
    uint64_t *hashes;    /* per stored row */
    uint32_t hash_cap;
    uint32_t *table;     /* row number + 1; 0 empty */
    uint32_t mask;       /* table size - 1 */
    uint32_t *sel;
} distinct_op;

static uint64_t row_hash(const lt_batch *b, uint32_t row)
{
    uint64_t h = 0;
    for (uint32_t c = 0; c < b->ncols; c++)
        h = sql_hash_cell(&b->cols[c], row, h);
    return h;
}

static bool row_equal(const distinct_op *d, const lt_batch *b, uint32_t row, uint32_t stored)
{
    for (uint32_t c = 0; c < b->ncols; c++)
        if (!sql_equal_cells(&b->cols[c], row, &d->rows.cols[c], stored))
            return false;
    return true;
}

/* Double the table when it is half full. */
static int rehash(distinct_op *d, lt_error *err)
{
    if (d->mask >= UINT32_MAX / 4)
        return lt_error_set(err, "HY001", "too many distinct rows to hold in memory");
    uint32_t size = (d->mask + 1) * 2;
    uint32_t *table = calloc(size, sizeof *table);
    if (table == NULL)
        return lt_error_set(err, "HY001", "out of memory for DISTINCT");
    for (uint32_t r = 0; r < d->rows.count; r++) {
        uint32_t i = (uint32_t)d->hashes[r] & (size - 1);
        while (table[i] != 0)
            i = (i + 1) & (size - 1);
        table[i] = r + 1;
    }
    free(d->table);
    d->table = table;
    d->mask = size - 1;
    return 0;
}

/* Add row `row` of `b` unless an equal row is stored: 1 added, 0 seen. */
static int insert(distinct_op *d, const lt_batch *b, uint32_t row, lt_error *err)
{
    uint64_t h = row_hash(b, row);
    uint32_t i = (uint32_t)h & d->mask;
    while (d->table[i] != 0) {
        uint32_t r = d->table[i] - 1;
        if (d->hashes[r] == h && row_equal(d, b, row, r))
            return 0;
        i = (i + 1) & d->mask;
    }
    if (d->rows.count == d->hash_cap) {
        uint32_t cap = d->hash_cap ? d->hash_cap * 2 : 1024;
        uint64_t *nh = realloc(d->hashes, (size_t)cap * sizeof *nh);
        if (nh == NULL)
            return lt_error_set(err, "HY001", "out of memory for DISTINCT");
        d->hashes = nh;
        d->hash_cap = cap;
    }
    uint32_t r = d->rows.count;
    if (sql_rowstore_append(&d->rows, b, row, err) != 0)
        return -1;
    d->hashes[r] = h;
    d->table[i] = r + 1;
    if ((uint64_t)d->rows.count * 2 > d->mask && rehash(d, err) != 0)
        return -1;
    return 1;
}

static int distinct_next(sql_operator *op, sql_chunk *out, lt_error *err)
{
    distinct_op *d = (distinct_op *)op;
    for (;;) {
        sql_chunk in;
        if (sql_next(op->child, &in, err) != 0)
            return -1;
        if (in.n == 0) {
            *out = in;
            return 0;
        }
        if (!d->started) {
            if (sql_rowstore_init(&d->rows, in.batch, in.batch->ncols) != 0)
                return lt_error_set(err, "HY001", "out of memory for DISTINCT");
            d->table = calloc(1024, sizeof *d->table);
            if (d->table == NULL)
                return lt_error_set(err, "HY001", "out of memory for DISTINCT");
            d->mask = 1023;
            d->started = true;
        }
        uint32_t k = 0;
        for (uint32_t i = 0; i < in.n; i++) {
            uint32_t row = in.sel ? in.sel[i] : i;
            int added = insert(d, in.batch, row, err);
            if (added < 0)
                return -1;
            if (added)
                d->sel[k++] = row;
        }
        if (k > 0) {
            out->batch = in.batch;
            out->sel = d->sel;
            out->n = k;
            return 0;
        }
    }
}

static void distinct_close(sql_operator *op)
{
    distinct_op *d = (distinct_op *)op;
    if (d->started)
        sql_rowstore_free(&d->rows);
    free(d->hashes);
    free(d->table);
    sql_close(op->child);
}

int sql_op_distinct(sql_exec *ex, sql_operator *child, sql_operator **out,
                    lt_error *err)
{
    distinct_op *d = lt_arena_alloc(&ex->arena, sizeof *d);
    uint32_t *sel = lt_arena_alloc(&ex->arena, LT_BATCH_ROWS * sizeof *sel);
    if (d == NULL || sel == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    memset(d, 0, sizeof *d);
    d->base.next = distinct_next;
    d->base.close = distinct_close;
    d->base.ex = ex;
    d->base.child = child;
    d->sel = sel;
    *out = &d->base;
    return 0;
}
