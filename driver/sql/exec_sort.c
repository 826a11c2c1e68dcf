/*
** exec_sort.c — ORDER BY: all rows of the child, sorted by the keys.
**
** The rows are copied into a row store (the child's batches are reused),
** then (first-key prefix, row number) pairs are sorted by their 64-bit
** prefix with a stable radix sort, and each run of equal prefixes that does
** not settle the order (more keys, or a prefix that is not the whole value)
** is merge-sorted comparing whole rows.  Both sorts are stable, so ties keep
** the input order.  Batches are gathered from the store in that order.  Each key
** sorts ASC or DESC with NULLs first or last as the query says (the binder
** defaults to NULL being the smallest value).
**
** With a LIMIT (ORDER BY ... LIMIT n), only the n rows that can be
** returned are kept, in a heap (keep_top).
**
** Memory: the top n of a LIMIT are held within the execution's budget
** (MemoryLimit, budget.c); past it that sort fails with HY001.  A full sort
** whose store would grow past the budget spills (spill.c): what it holds is
** sorted as above and written as a run to a temporary file, the memory given
** back, and at the end the runs are merged, ties going to the earlier run,
** so the order is the one the in-memory sort gives.
*/
#include "collate.h"
#include "exec.h"
#include "spill.h"

#include <stdlib.h>
#include <string.h>

typedef struct sort_op {
    sql_operator base;
    const sql_sort_key *keys;
    uint32_t nkeys;
    sql_rowstore rows;
    bool started, sorted;
    int64_t top;         /* -1, or the rows a LIMIT can reach */
    bool nocase;         /* text sorts case-insensitively (Access) */
    uint32_t *heap;      /* top-N: stored rows, the worst first */
    uint32_t heap_n;
    uint64_t *seq;       /* top-N: input position of each stored row */
    uint64_t next_seq;
    uint32_t *perm;      /* stored rows in output order */
    uint32_t nperm;
    uint32_t pos;        /* next of perm to return */
    lt_batch *batch;
    sql_spill spill;     /* runs written past the budget */
    bool merging;        /* rows come from merging the runs */
} sort_op;

/* Row ra of columns x against row rb of columns y, by the keys. */
static int compare_keys(const sort_op *s, const lt_vector *x, uint32_t ra, const lt_vector *y,
                        uint32_t rb)
{
    for (uint32_t k = 0; k < s->nkeys; k++) {
        const sql_sort_key *key = &s->keys[k];
        const lt_vector *a = &x[key->output], *b = &y[key->output];
        bool na = a->type == LT_NULL || a->nulls[ra], nb = b->type == LT_NULL || b->nulls[rb];
        if (na || nb) {
            if (na && nb)
                continue;
            return na == key->nulls_first ? -1 : 1;
        }
        int c = sql_compare_cells_coll(a, ra, b, rb, s->nocase);
        if (c != 0)
            return key->desc ? -c : c;
    }
    return 0;
}

static int compare_rows(const sort_op *s, uint32_t a, uint32_t b)
{
    return compare_keys(s, s->rows.cols, a, s->rows.cols, b);
}

/* The merge's comparison (spill.c). */
static int compare_heads(const void *ctx, const lt_vector *a, uint32_t ra, const lt_vector *b,
                         uint32_t rb)
{
    return compare_keys(ctx, a, ra, b, rb);
}

typedef struct sort_entry {
    uint64_t prefix;
    uint32_t row;
} sort_entry;

static inline bool before(const sort_op *s, const sort_entry *a, const sort_entry *b)
{
    if (a->prefix != b->prefix)
        return a->prefix < b->prefix;
    return compare_rows(s, a->row, b->row) < 0;
}

/* Bottom-up merge sort of e[0..n) using tmp; the result ends in e. */
static void merge_sort(const sort_op *s, sort_entry *e, sort_entry *tmp, uint32_t n)
{
    sort_entry *src = e, *dst = tmp;
    for (uint64_t width = 1; width < n; width *= 2) {
        for (uint64_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = (uint32_t)(lo + width < n ? lo + width : n);
            uint32_t hi = (uint32_t)(lo + 2 * width < n ? lo + 2 * width : n);
            uint32_t i = (uint32_t)lo, j = mid, o = (uint32_t)lo;
            while (i < mid && j < hi)
                dst[o++] = before(s, &src[j], &src[i]) ? src[j++] : src[i++];
            while (i < mid)
                dst[o++] = src[i++];
            while (j < hi)
                dst[o++] = src[j++];
        }
        sort_entry *t = src;
        src = dst;
        dst = t;
    }
    if (src != e)
        memcpy(e, src, (size_t)n * sizeof *e);
}

/* Stable LSD radix sort of e[0..n) by prefix, 16 bits a pass; passes whose
** digit is the same for every entry are skipped.  -1 when out of memory. */
static int radix_sort(sort_entry *e, sort_entry *tmp, uint32_t n)
{
    uint32_t *count = calloc((size_t)4 << 16, sizeof *count);
    if (count == NULL)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        for (int d = 0; d < 4; d++)
            count[(d << 16) | (uint32_t)(e[i].prefix >> (16 * d) & 0xFFFF)]++;
    sort_entry *src = e, *dst = tmp;
    for (int d = 0; d < 4; d++) {
        uint32_t *c = count + ((size_t)d << 16);
        if (c[src[0].prefix >> (16 * d) & 0xFFFF] == n)
            continue;
        uint32_t sum = 0;
        for (uint32_t k = 0; k < 65536; k++) {
            uint32_t t = c[k];
            c[k] = sum;
            sum += t;
        }
        for (uint32_t i = 0; i < n; i++)
            dst[c[src[i].prefix >> (16 * d) & 0xFFFF]++] = src[i];
        sort_entry *t = src;
        src = dst;
        dst = t;
    }
    if (src != e)
        memcpy(e, src, (size_t)n * sizeof *e);
    free(count);
    return 0;
}

/* Does the first key's prefix hold its whole value (so equal prefixes are
** equal keys)?  Not when NULLs are present: theirs may equal a value's. */
static bool prefix_exact(const sort_op *s, bool nulls)
{
    const lt_vector *v = &s->rows.cols[s->keys[0].output];
    if (nulls)
        return false;
    switch (v->type) {
    case LT_BOOL: case LT_INT64: case LT_TIME: case LT_TIMESTAMP:
    case LT_DATE: case LT_DOUBLE:
        return v->tags == NULL;
    default:
        return false;
    }
}

/* The prefix of row r for the first key, with its direction and NULL
** placement folded in.  A dynamically typed key column gets no prefix. */
static uint64_t key_prefix(const sort_op *s, uint32_t r)
{
    const sql_sort_key *key = &s->keys[0];
    const lt_vector *v = &s->rows.cols[key->output];
    if (v->tags != NULL || v->type == LT_NULL || (s->nocase && v->type == LT_TEXT))
        return 0; /* (a byte prefix does not order folded text) */
    if (v->nulls[r])
        return key->nulls_first ? 0 : UINT64_MAX;
    uint64_t p = sql_sort_prefix(v, r);
    return key->desc ? ~p : p;
}

/* ORDER BY ... LIMIT: the best `top` rows seen so far stay in the store,
** in a heap with the worst on top.  A new row is compared with the worst
** before anything is copied, and replaces it only when it sorts before it:
** on a tie the earlier row (smaller seq) wins, as in the stable full sort. */
static bool worse(const sort_op *s, uint32_t a, uint32_t b)
{
    int c = compare_rows(s, a, b);
    return c > 0 || (c == 0 && s->seq[a] > s->seq[b]);
}

/* Row `row` of batch `b` against stored row `stored`, by the keys. */
static int compare_new(const sort_op *s, const lt_batch *b, uint32_t row, uint32_t stored)
{
    return compare_keys(s, b->cols, row, s->rows.cols, stored);
}

static void sift_up(sort_op *s, uint32_t i)
{
    while (i > 0) {
        uint32_t parent = (i - 1) / 2;
        if (!worse(s, s->heap[i], s->heap[parent]))
            break;
        uint32_t t = s->heap[i];
        s->heap[i] = s->heap[parent];
        s->heap[parent] = t;
        i = parent;
    }
}

static void sift_down(sort_op *s, uint32_t i)
{
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, w = i;
        if (l < s->heap_n && worse(s, s->heap[l], s->heap[w]))
            w = l;
        if (r < s->heap_n && worse(s, s->heap[r], s->heap[w]))
            w = r;
        if (w == i)
            return;
        uint32_t t = s->heap[i];
        s->heap[i] = s->heap[w];
        s->heap[w] = t;
        i = w;
    }
}

static int keep_top(sort_op *s, const lt_batch *b, uint32_t row, lt_error *err)
{
    uint32_t r = s->rows.count;
    if (r < (uint32_t)s->top) {
        if (sql_rowstore_append(&s->rows, b, row, err) != 0)
            return -1;
        s->seq[r] = s->next_seq++;
        s->heap[s->heap_n++] = r;
        sift_up(s, s->heap_n - 1);
        return 0;
    }
    uint64_t seq = s->next_seq++;
    if (compare_new(s, b, row, s->heap[0]) >= 0)
        return 0;
    if (sql_rowstore_set(&s->rows, s->heap[0], b, row, err) != 0)
        return -1;
    s->seq[s->heap[0]] = seq;
    sift_down(s, 0);
    return 0;
}

/* qsort order of entries whose prefix field holds the input position. */
static int by_seq(const void *a, const void *b)
{
    const sort_entry *x = a, *y = b;
    return (x->prefix > y->prefix) - (x->prefix < y->prefix);
}

/* Sort the stored rows `e[0..n).row` (in input order) into s->perm. */
static int sort_rows(sort_op *s, sort_entry *e, uint32_t n, lt_error *err)
{
    sort_entry *tmp = malloc((n ? n : 1) * sizeof *tmp);
    s->perm = malloc((n ? n : 1) * sizeof *s->perm);
    if (tmp == NULL || s->perm == NULL) {
        free(tmp);
        return lt_error_set(err, "HY001", "out of memory for ORDER BY");
    }
    bool nulls = false;
    if (n > 0) {
        const lt_vector *first = &s->rows.cols[s->keys[0].output];
        for (uint32_t i = 0; i < n; i++) {
            e[i].prefix = key_prefix(s, e[i].row);
            nulls |= first->nulls[e[i].row] != 0;
        }
    }
    if (n > 1 && radix_sort(e, tmp, n) != 0) {
        free(tmp);
        return lt_error_set(err, "HY001", "out of memory for ORDER BY");
    }
    if (n > 1 && (s->nkeys > 1 || !prefix_exact(s, nulls))) {
        for (uint32_t lo = 0, hi; lo < n; lo = hi) {
            for (hi = lo + 1; hi < n && e[hi].prefix == e[lo].prefix; hi++)
                ;
            if (hi - lo > 1)
                merge_sort(s, e + lo, tmp, hi - lo);
        }
    }
    for (uint32_t i = 0; i < n; i++)
        s->perm[i] = e[i].row;
    s->nperm = n;
    free(tmp);
    return 0;
}

/* Largest ORDER BY ... LIMIT kept in a heap; past it, the full sort. */
#define SORT_TOP_MAX (1u << 20)

/* Rows merged at a time from spilled runs: the row store's first size, so
** that the merge holds little. */
#define SORT_MERGE_ROWS 1024

/* What sorting takes per held row beside the store: the entries, their
** merge space and the permutation. */
#define SORT_ROW_BYTES (2 * sizeof(sort_entry) + sizeof(uint32_t))

/* Sort the held rows (the heap's, or all) into s->perm. */
static int sort_held(sort_op *s, bool heap, lt_error *err)
{
    uint32_t n = heap ? s->heap_n : s->rows.count;
    if (s->started && sql_budget_take(s->rows.budget, (uint64_t)n * SORT_ROW_BYTES,
                                      s->rows.what, &s->rows.held, err) != 0)
        return -1;
    sort_entry *e = malloc((n ? n : 1) * sizeof *e);
    if (e == NULL)
        return lt_error_set(err, "HY001", "out of memory for ORDER BY");
    for (uint32_t i = 0; i < n; i++) {
        e[i].row = heap ? s->heap[i] : i;
        e[i].prefix = heap ? s->seq[e[i].row] : 0;
    }
    if (heap) /* back to input order, so the stable sorts keep ties in it */
        qsort(e, n, sizeof *e, by_seq);
    int rc = sort_rows(s, e, n, err);
    free(e);
    return rc;
}

/* Would holding row `row` of `b` (and sorting it) pass the budget? */
static bool past_budget(const sort_op *s, const lt_batch *b, uint32_t row)
{
    const sql_budget *budget = s->rows.budget;
    if (budget == NULL || budget->limit == 0 || s->rows.count == 0)
        return false;
    uint64_t need = sql_rowstore_need(&s->rows, b, row) +
                    ((uint64_t)s->rows.count + 1) * SORT_ROW_BYTES;
    return !sql_budget_fits(budget, need);
}

/* Sort the held rows, write them as a run and give their memory back; then
** start an empty store of the shape of `b` (NULL: none, the input is over). */
static int spill_run(sort_op *s, const lt_batch *b, lt_error *err)
{
    if (sort_held(s, false, err) != 0 ||
        sql_spill_write(&s->spill, &s->rows, s->perm, s->nperm, err) != 0)
        return -1;
    free(s->perm);
    s->perm = NULL;
    s->nperm = 0;
    sql_budget *budget = s->rows.budget;
    const char *what = s->rows.what;
    sql_rowstore_free(&s->rows);
    if (b != NULL && sql_rowstore_init(&s->rows, b, b->ncols) != 0)
        return lt_error_set(err, "HY001", "out of memory for ORDER BY");
    sql_rowstore_budget(&s->rows, budget, what);
    return 0;
}

/* After the input, with runs written: write the rest, start the merge. */
static int start_merge(sort_op *s, lt_error *err)
{
    if (s->rows.count > 0 && spill_run(s, NULL, err) != 0)
        return -1;
    if (sql_spill_merge_begin(&s->spill, compare_heads, s, s->rows.budget, s->rows.what, err) != 0)
        return -1;
    s->perm = malloc(SORT_MERGE_ROWS * sizeof *s->perm);
    if (s->perm == NULL)
        return lt_error_set(err, "HY001", "out of memory for ORDER BY");
    for (uint32_t i = 0; i < SORT_MERGE_ROWS; i++)
        s->perm[i] = i;
    s->nperm = s->pos = 0;
    s->merging = true;
    return 0;
}

static int consume(sort_op *s, lt_error *err)
{
    bool heap = s->top >= 0 && s->top <= SORT_TOP_MAX;
    if (heap) {
        s->heap = malloc(((size_t)s->top + 1) * sizeof *s->heap);
        s->seq = malloc(((size_t)s->top + 1) * sizeof *s->seq);
        if (s->heap == NULL || s->seq == NULL)
            return lt_error_set(err, "HY001", "out of memory for ORDER BY");
    }
    while (!heap || s->top > 0) {
        sql_chunk in;
        if (sql_next(s->base.child, &in, err) != 0)
            return -1;
        if (in.n == 0)
            break;
        if (!s->started) {
            if (sql_rowstore_init(&s->rows, in.batch, in.batch->ncols) != 0)
                return lt_error_set(err, "HY001", "out of memory for ORDER BY");
            s->started = true;
            sql_rowstore_budget(&s->rows, s->base.ex->budget,
                                sql_budget_what(s->base.ex, "sort", NULL));
        }
        for (uint32_t i = 0; i < in.n; i++) {
            uint32_t row = in.sel ? in.sel[i] : i;
            if (heap) {
                if (keep_top(s, in.batch, row, err) != 0)
                    return -1;
                continue;
            }
            if (past_budget(s, in.batch, row) && spill_run(s, in.batch, err) != 0)
                return -1;
            if (sql_rowstore_append(&s->rows, in.batch, row, err) != 0)
                return -1;
        }
    }
    int rc = s->spill.nruns > 0 ? start_merge(s, err) : sort_held(s, heap, err);
    s->sorted = rc == 0;
    return rc;
}

static int sort_next(sql_operator *op, sql_chunk *out, lt_error *err)
{
    sort_op *s = (sort_op *)op;
    if (!s->sorted && consume(s, err) != 0)
        return -1;
    out->sel = NULL;
    out->n = 0;
    out->batch = s->batch;
    if (s->merging && s->pos >= s->nperm) {
        if (sql_spill_merge_next(&s->spill, &s->rows, SORT_MERGE_ROWS, err) != 0)
            return -1;
        s->nperm = s->rows.count;
        s->pos = 0;
    }
    if (s->pos >= s->nperm)
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
    uint32_t n = s->nperm - s->pos;
    if (n > LT_BATCH_ROWS)
        n = LT_BATCH_ROWS;
    for (uint32_t c = 0; c < s->rows.ncols; c++) {
        sql_vector_gather(&s->batch->cols[c], &s->rows.cols[c], s->perm + s->pos, n);
        if (sql_vector_gather_tags(&s->batch->cols[c], &s->rows.cols[c], s->perm + s->pos, n,
                                   &op->ex->arena) != 0)
            return lt_error_set(err, "HY001", "out of memory for ORDER BY");
    }
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
    sql_spill_free(&s->spill);
    free(s->perm);
    free(s->heap);
    free(s->seq);
    lt_batch_free(s->batch);
    sql_close(op->child);
}

int sql_op_sort(sql_exec *ex, sql_operator *child, const sql_sort_key *keys,
                uint32_t nkeys, int64_t top, sql_operator **out, lt_error *err)
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
    s->top = top;
    s->nocase = sql_text_nocase(ex);
    *out = &s->base;
    return 0;
}
