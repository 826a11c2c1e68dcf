/*
** exec_distinct.c — SELECT DISTINCT: each distinct row once, at its first
** occurrence (so the input order is kept).
**
** Streaming: every row is looked up in a row set (rowstore.c) of the rows
** seen so far; new rows pass on as a selection over the child's batch.
** NULLs are equal to each other here.  For Access sources text compares
** without regard to case: the set sees the rows with their text folded to
** lower case, and the first row of each group passes as it is.
**
** Past the budget (Grace hash, spill.h): once the set holds more than half
** of what the budget had left when the pass began, the rows it holds still
** drop their duplicates, and every other row goes to a temporary partition
** by its hash; when the input ends the set is freed and each partition is
** deduplicated the same way as a pass of its own (split again, by other
** bits of the hash, when still too big).  The rows are those of the
** in-memory path; their order is then the pass's, partition by partition.
*/
#include "collate.h"
#include "exec.h"
#include "spill.h"

#include <stdlib.h>
#include <string.h>

/* Rows held below which a pass does not split: the store's first size
** (rowstore.c), which a split could not make smaller. */
#define SPLIT_MIN 1024u

/* A partition waiting to be deduplicated, split `depth` times. */
typedef struct distinct_pending {
    FILE *f;
    uint32_t depth;
} distinct_pending;

typedef struct distinct_op {
    sql_operator base;
    sql_rowset seen;
    bool started;
    uint32_t *sel;
    uint64_t *hashes;    /* per row position of the chunk */
    bool nocase;         /* Access */
    lt_vector *fold;     /* the chunk's columns, text folded */
    lt_bytes **cells;
    lt_arena text;
    const char *what;    /* for the budget's message */
    /* past the budget (spill.h) */
    uint64_t threshold;  /* budget used past which the pass splits; 0: never */
    uint32_t depth;      /* the pass's input: 0 the child, else a partition's */
    bool splitting;
    sql_spill_parts parts;
    sql_spill_parts shape; /* the rows' columns, for reading partitions back */
    distinct_pending *pending;
    uint32_t npending, pending_cap;
    sql_spill_reader *rd;
} distinct_op;

/* The chunk as the set sees it: for Access, text columns lower-cased. */
static int set_view(distinct_op *d, const sql_chunk *in, const uint32_t *sel, lt_batch *view,
                    lt_error *err)
{
    *view = *in->batch;
    if (!d->nocase)
        return 0;
    uint32_t ncols = in->batch->ncols;
    if (d->fold == NULL) {
        lt_arena *ar = &d->base.ex->arena;
        d->fold = lt_arena_alloc(ar, (ncols + 1) * sizeof *d->fold);
        d->cells = lt_arena_alloc(ar, (ncols + 1) * sizeof *d->cells);
        if (d->fold == NULL || d->cells == NULL)
            return lt_error_set(err, "HY001", "out of memory");
        for (uint32_t c = 0; c < ncols; c++)
            if ((d->cells[c] = lt_arena_alloc(ar, LT_BATCH_ROWS * sizeof **d->cells)) == NULL)
                return lt_error_set(err, "HY001", "out of memory");
    }
    lt_arena_reset(&d->text);
    for (uint32_t c = 0; c < ncols; c++)
        if (sql_fold_text_vector(&in->batch->cols[c], sel, in->n, &d->fold[c], d->cells[c],
                                 &d->text) != 0)
            return lt_error_set(err, "HY001", "out of memory");
    view->cols = d->fold;
    return 0;
}

/* A pass begins: the set may take half of what the budget has left. */
static void set_threshold(distinct_op *d)
{
    const sql_budget *b = d->base.ex->budget;
    d->threshold = 0;
    if (b != NULL && b->limit > 0)
        d->threshold = b->used + (b->limit > b->used ? (b->limit - b->used) / 2 : 0);
}

static bool over_threshold(const distinct_op *d)
{
    return d->threshold > 0 && d->base.ex->budget->used > d->threshold &&
           d->seen.rows.count >= SPLIT_MIN;
}

static int start_split(distinct_op *d, const lt_batch *in, lt_error *err)
{
    if (d->depth >= SQL_SPILL_DEPTH)
        return sql_budget_fail(d->base.ex->budget, d->what,
                               ", even with its rows split into partitions on temporary files",
                               err);
    if (d->shape.types == NULL &&
        sql_spill_parts_init(&d->shape, in->cols, in->ncols, 0, "SELECT DISTINCT", err) != 0)
        return -1;
    if (sql_spill_parts_init(&d->parts, in->cols, in->ncols, d->depth, "SELECT DISTINCT",
                             err) != 0)
        return -1;
    d->splitting = true;
    return 0;
}

/* The pass's input is over: its partitions wait their turn. */
static int end_split(distinct_op *d, lt_error *err)
{
    for (uint32_t p = 0; p < SQL_SPILL_FANOUT; p++) {
        if (d->npending == d->pending_cap) {
            uint32_t cap = d->pending_cap ? d->pending_cap * 2 : SQL_SPILL_FANOUT;
            distinct_pending *np = realloc(d->pending, (size_t)cap * sizeof *np);
            if (np == NULL)
                return lt_error_set(err, "HY001", "out of memory");
            d->pending = np;
            d->pending_cap = cap;
        }
        FILE *f;
        if (sql_spill_parts_take(&d->parts, p, &f, err) != 0)
            return -1;
        if (f != NULL)
            d->pending[d->npending++] = (distinct_pending){f, d->depth + 1};
    }
    sql_spill_parts_free(&d->parts);
    d->splitting = false;
    return 0;
}

/* The next chunk of the pass's input; at its end, the next partition's
** (n == 0 when there is none). */
static int next_input(distinct_op *d, sql_chunk *in, lt_error *err)
{
    for (;;) {
        if (d->rd == NULL && d->depth == 0) {
            if (sql_next(d->base.child, in, err) != 0)
                return -1;
        } else {
            lt_batch *b;
            if (sql_spill_reader_next(d->rd, &b, err) != 0)
                return -1;
            *in = (sql_chunk){b, NULL, b->count};
        }
        if (in->n > 0)
            return 0;
        if (d->splitting && end_split(d, err) != 0)
            return -1;
        if (d->npending == 0)
            return 0;
        /* the set's rows were all returned: on to the next partition */
        if (d->started)
            sql_rowset_free(&d->seen);
        d->started = false;
        sql_spill_reader_free(d->rd);
        d->rd = NULL;
        distinct_pending p = d->pending[--d->npending];
        d->depth = p.depth;
        if (sql_spill_reader_open(&d->rd, p.f, &d->shape, err) != 0)
            return -1;
    }
}

static int distinct_next(sql_operator *op, sql_chunk *out, lt_error *err)
{
    distinct_op *d = (distinct_op *)op;
    for (;;) {
        sql_chunk in;
        if (next_input(d, &in, err) != 0)
            return -1;
        if (in.n == 0) {
            *out = in;
            return 0;
        }
        const uint32_t *sel = in.sel ? in.sel : op->ex->identity;
        lt_batch view;
        if (set_view(d, &in, sel, &view, err) != 0)
            return -1;
        if (!d->started) {
            if (sql_rowset_init(&d->seen, &view, view.ncols, err) != 0)
                return -1;
            d->started = true;
            sql_rowstore_budget(&d->seen.rows, op->ex->budget, d->what);
            set_threshold(d);
        }
        sql_rowset_hashes(&d->seen, &view, sel, in.n, d->hashes);
        uint32_t k = 0;
        for (uint32_t i = 0; i < in.n; i++) {
            uint32_t row = sel[i];
            if (!d->splitting && over_threshold(d) && start_split(d, in.batch, err) != 0)
                return -1;
            if (d->splitting) {
                if (sql_rowset_find(&d->seen, &view, row, d->hashes[row]) < 0 &&
                    sql_spill_parts_put(&d->parts, sql_spill_part_of(d->hashes[row], d->depth),
                                        in.batch->cols, row, err) != 0)
                    return -1;
                continue;
            }
            bool added;
            if (sql_rowset_insert(&d->seen, &view, row, d->hashes[row], &added, err) < 0)
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
        sql_rowset_free(&d->seen);
    lt_arena_free(&d->text);
    sql_spill_reader_free(d->rd);
    for (uint32_t i = 0; i < d->npending; i++)
        fclose(d->pending[i].f);
    free(d->pending);
    sql_spill_parts_free(&d->parts); /* all zero when unused */
    sql_spill_parts_free(&d->shape);
    sql_close(op->child);
}

int sql_op_distinct(sql_exec *ex, sql_operator *child, sql_operator **out,
                    lt_error *err)
{
    distinct_op *d = lt_arena_alloc(&ex->arena, sizeof *d);
    uint32_t *sel = lt_arena_alloc(&ex->arena, LT_BATCH_ROWS * sizeof *sel);
    uint64_t *hashes = lt_arena_alloc(&ex->arena, LT_BATCH_ROWS * sizeof *hashes);
    if (d == NULL || sel == NULL || hashes == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    memset(d, 0, sizeof *d);
    d->hashes = hashes;
    d->base.next = distinct_next;
    d->base.close = distinct_close;
    d->base.ex = ex;
    d->base.child = child;
    d->sel = sel;
    d->nocase = sql_text_nocase(ex);
    lt_arena_init(&d->text);
    d->what = sql_budget_what(ex, "deduplicate", NULL);
    *out = &d->base;
    return 0;
}
