/*
** exec_sort.c — ORDER BY: all rows of the child, sorted by the keys.
**
** The rows are copied into a row store (the child's batches are reused),
** a permutation of row numbers is merge-sorted (stable: ties keep the input
** order), and batches are gathered from the store in that order.  Each key
** sorts ASC or DESC with NULLs first or last as the query says (the binder
** defaults to NULL being the smallest value).
**
** Memory: the whole input is held.  A top-N heap for ORDER BY ... LIMIT and
** spilling sorted runs to a temporary file past a memory budget are the
** planned next steps.
*/
#include "exec.h"

#include <stdlib.h>
#include <string.h>

typedef struct sort_op {
    sql_operator base;
    const sql_sort_key *keys;
    uint32_t nkeys;
    sql_rowstore rows;
    bool started, sorted;
    uint32_t *perm;
    uint32_t pos;        /* next row of perm to return */
    lt_batch *batch;
} sort_op;

static int compare_rows(const sort_op *s, uint32_t a, uint32_t b)
{
    for (uint32_t k = 0; k < s->nkeys; k++) {
        const sql_sort_key *key = &s->keys[k];
        const lt_vector *v = &s->rows.cols[key->output];
        bool na = v->nulls[a], nb = v->nulls[b];
        if (na || nb) {
            if (na && nb)
                continue;
            return na == key->nulls_first ? -1 : 1;
        }
        int c = sql_compare_cells(v, a, v, b);
        if (c != 0)
            return key->desc ? -c : c;
    }
    return 0;
}

/* Bottom-up merge sort of perm[0..n) using tmp; the result ends in perm. */
static void merge_sort(const sort_op *s, uint32_t *perm, uint32_t *tmp, uint32_t n)
{
    uint32_t *src = perm, *dst = tmp;
    for (uint64_t width = 1; width < n; width *= 2) {
        for (uint64_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = (uint32_t)(lo + width < n ? lo + width : n);
            uint32_t hi = (uint32_t)(lo + 2 * width < n ? lo + 2 * width : n);
            uint32_t i = (uint32_t)lo, j = mid, o = (uint32_t)lo;
            while (i < mid && j < hi)
                dst[o++] = compare_rows(s, src[j], src[i]) < 0 ? src[j++] : src[i++];
            while (i < mid)
                dst[o++] = src[i++];
            while (j < hi)
                dst[o++] = src[j++];
        }
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != perm)
        memcpy(perm, src, (size_t)n * sizeof *perm);
}

static int consume(sort_op *s, lt_error *err)
{
    for (;;) {
        sql_chunk in;
        if (sql_next(s->base.child, &in, err) != 0)
            return -1;
        if (in.n == 0)
            break;
        if (!s->started) {
            if (sql_rowstore_init(&s->rows, in.batch, in.batch->ncols) != 0)
                return lt_error_set(err, "HY001", "out of memory for ORDER BY");
            s->started = true;
        }
        for (uint32_t i = 0; i < in.n; i++)
            if (sql_rowstore_append(&s->rows, in.batch, in.sel ? in.sel[i] : i, err) != 0)
                return -1;
    }
    uint32_t n = s->rows.count;
    s->perm = malloc((n ? n : 1) * sizeof *s->perm);
    uint32_t *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (s->perm == NULL || tmp == NULL) {
        free(tmp);
        return lt_error_set(err, "HY001", "out of memory for ORDER BY");
    }
    for (uint32_t i = 0; i < n; i++)
        s->perm[i] = i;
    merge_sort(s, s->perm, tmp, n);
    free(tmp);
    s->sorted = true;
    return 0;
}

static int sort_next(sql_operator *op, sql_chunk *out, lt_error *err)
{
    sort_op *s = (sort_op *)op;
    if (!s->sorted && consume(s, err) != 0)
        return -1;
    out->sel = NULL;
    out->n = 0;
    out->batch = s->batch;
    if (s->pos >= s->rows.count)
        return 0;
    if (sql_check_cancel(op->ex, err) != 0)
        return -1;
    if (s->batch == NULL) {
        lt_type *types = lt_arena_alloc(&op->ex->arena, (s->rows.ncols + 1) * sizeof *types);
        int16_t *scales = lt_arena_alloc(&op->ex->arena, (s->rows.ncols + 1) * sizeof *scales);
        if (types == NULL || scales == NULL)
            return lt_error_set(err, "HY001", "out of memory for ORDER BY");
        for (uint32_t c = 0; c < s->rows.ncols; c++) {
            types[c] = s->rows.cols[c].type;
            scales[c] = s->rows.cols[c].scale;
        }
        s->batch = lt_batch_new(s->rows.ncols, types, scales, LT_BATCH_ROWS);
        if (s->batch == NULL)
            return lt_error_set(err, "HY001", "out of memory for ORDER BY");
    }
    uint32_t n = s->rows.count - s->pos;
    if (n > LT_BATCH_ROWS)
        n = LT_BATCH_ROWS;
    for (uint32_t c = 0; c < s->rows.ncols; c++)
        sql_vector_gather(&s->batch->cols[c], &s->rows.cols[c], s->perm + s->pos, n);
    s->batch->count = n;
    s->pos += n;
    out->batch = s->batch;
    out->n = n;
    return 0;
}

static void sort_close(sql_operator *op)
{
    sort_op *s = (sort_op *)op;
    if (s->started)
        sql_rowstore_free(&s->rows);
    free(s->perm);
    lt_batch_free(s->batch);
    sql_close(op->child);
}

int sql_op_sort(sql_exec *ex, sql_operator *child, const sql_sort_key *keys,
                uint32_t nkeys, sql_operator **out, lt_error *err)
{
    sort_op *s = lt_arena_alloc(&ex->arena, sizeof *s);
    if (s == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    memset(s, 0, sizeof *s);
    s->base.next = sort_next;
    s->base.close = sort_close;
    s->base.ex = ex;
    s->base.child = child;
    s->keys = keys;
    s->nkeys = nkeys;
    *out = &s->base;
    return 0;
}
