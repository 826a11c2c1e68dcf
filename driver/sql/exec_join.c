/*
** exec_join.c — joins: the rows put together so far (left) with one more
** table (right), INNER, LEFT, RIGHT, FULL or CROSS, by hashing.
**
** The right side is read whole first (build): its rows and the values of
** its join keys go into a row store, and a hash table chains the stored
** rows by their keys' hash (rows with a NULL key never match and are not
** kept).  Then each left chunk is probed row by row: the candidates of the
** row's chain whose keys are equal (sql_compare_any: INT64 against DOUBLE
** exactly, as `=` compares) are paired with it; without keys every stored
** row is a candidate (CROSS, or an ON without an equality).  Pairs fill
** the output batch (left columns gathered from the left chunk, right ones
** from the store), whose rows the residual conditions then check.  A LEFT
** JOIN remembers which left rows joined and, once their chunk is done,
** emits the others with NULL right columns.  The output batch is returned
** as soon as it is full, and the probe resumes where it stopped, so a row
** with many matches never needs more than one batch of memory.
**
** A RIGHT or FULL JOIN also keeps the right rows with a NULL key, outside
** the chains, and marks each stored row a pair uses; once the left side is
** done, the unmarked ones follow with NULL left columns.
**
** Order: left rows in their order, each with its matches in the right
** side's order; a LEFT JOIN's unmatched rows follow their chunk's matches;
** a RIGHT JOIN's unmatched right rows come last, in their order.
** Access sources compare text without regard to case (collate.h): their
** text keys hash folded to lower case and compare case-insensitively.
**
** The right side is held within the execution's budget (MemoryLimit).
** Past half of what the budget had left when the build began, a join with
** keys splits (Grace hash, spill.h): the right rows held and those still to
** come go to SQL_SPILL_FANOUT temporary partitions by a hash of their keys,
** then the left rows go to the same partitions by theirs, and each pair of
** partitions is joined as above, in turn (a right partition still too big
** is split again, with its left partner, by other bits of the hash; one key
** with more rows than the budget fails with HY001).  The rows are those of
** the in-memory join; the order is then partition by partition.  A join
** without keys (CROSS) cannot split: past the budget, HY001.
*/
#include "collate.h"
#include "exec.h"
#include "spill.h"

#include <stdlib.h>
#include <string.h>

/* Rows held below which a build does not split: the row store's first
** size (rowstore.c), which a split could not make smaller. */
#define SPLIT_MIN 1024u

/* A pair of partitions waiting to be joined, split `depth` times. */
typedef struct join_pending {
    FILE *right, *left;
    uint32_t depth;
} join_pending;

typedef struct join_op {
    sql_operator base;        /* child: the left rows */
    sql_operator *right;
    const sql_range *r;
    uint32_t lw, rw;          /* left and right widths */
    /* build */
    bool built, stored;
    sql_rowstore rows;        /* right columns, then key values */
    lt_vector *view;          /* rw + nkeys vectors of a right chunk */
    uint64_t *hashes;
    uint8_t *keyless;         /* per stored row: a NULL key (RIGHT, FULL) */
    uint8_t *rmatched;        /* RIGHT, FULL: per stored row, joined */
    uint32_t rnext;           /* RIGHT, FULL: next stored row to check at the end */
    uint32_t hash_cap;
    uint32_t *heads, *chain;  /* stored row + 1; 0 ends a chain */
    uint32_t mask;
    /* probe */
    sql_chunk in;             /* the left chunk; in.n == 0: none */
    const uint32_t *in_sel;
    const lt_vector **lkeys, **rkeys; /* the keys' vectors of a chunk */
    uint32_t i;               /* next position of in_sel to pair */
    bool row_started;
    uint32_t cand;            /* the row's next candidate + 1; 0: none left */
    uint64_t hash;
    int phase;                /* 0 pairs, 1 unmatched left rows, 2 chunk done */
    uint8_t *matched;         /* LEFT: per left row position */
    uint64_t *chunk_hash;     /* per row position of a chunk: its keys' hash */
    bool nocase;              /* Access: text keys ignore case */
    lt_vector *fold;          /* nocase: a chunk's keys, text lower-cased */
    lt_bytes **foldcells;
    lt_arena foldtext;
    const char *what;         /* for the budget's message */
    uint64_t held;            /* bytes of the hash arrays taken from the budget */
    bool done;
    uint32_t *pl, *pr;        /* the output batch's pairs */
    uint32_t *sel;
    lt_batch *batch;
    /* past the budget (spill.h) */
    uint64_t threshold;       /* budget used past which the build splits; 0: never */
    uint32_t depth;           /* of the pass: 0 the children, else partitions' */
    bool splitting;           /* the pass's right rows go to rparts */
    sql_spill_parts rparts, lparts;
    sql_spill_parts rshape, lshape; /* the partitions' columns, for reading back */
    bool rshaped, lshaped;
    join_pending *pending;
    uint32_t npending, pending_cap;
    sql_spill_reader *rrd, *lrd; /* the partitions being joined */
} join_op;

static int oom(lt_error *err)
{
    return lt_error_set(err, "HY001", "out of memory for a join");
}

/* The join keeps the left rows that match nothing (LEFT, FULL), or the
** right ones (RIGHT, FULL). */
static bool keeps_left(const join_op *j)
{
    return j->r->join == SQL_JOIN_LEFT || j->r->join == SQL_JOIN_FULL;
}

static bool keeps_right(const join_op *j)
{
    return j->r->join == SQL_JOIN_RIGHT || j->r->join == SQL_JOIN_FULL;
}

/* hashes[row] for the rows sel[0..n): the hash of their keys (for
** Access, of their text folded to lower case, so that keys equal but for
** case meet in one chain). */
static int key_hashes(join_op *j, const lt_vector *const *keys, const uint32_t *sel,
                      uint32_t n, uint64_t *hashes, lt_error *err)
{
    uint32_t nkeys = j->r->nkeys;
    for (uint32_t i = 0; i < n; i++)
        hashes[sel[i]] = 0;
    if (j->nocase)
        lt_arena_reset(&j->foldtext);
    for (uint32_t k = 0; k < nkeys; k++) {
        const lt_vector *v = keys[k];
        if (j->nocase && v->type == LT_TEXT) {
            if (sql_fold_text_vector(v, sel, n, &j->fold[k], j->foldcells[k], &j->foldtext) != 0)
                return oom(err);
            v = &j->fold[k];
        }
        sql_hash_vector(v, sel, n, hashes);
    }
    return 0;
}

static bool key_null(const lt_vector *const *keys, uint32_t nkeys, uint32_t row)
{
    for (uint32_t k = 0; k < nkeys; k++)
        if (keys[k]->type == LT_NULL || keys[k]->nulls[row])
            return true;
    return false;
}

/* ------------------------------------------------------------------------ */
/* Build                                                                     */
/* ------------------------------------------------------------------------ */

static int start_split(join_op *j, const lt_batch *view, lt_error *err);

/* Store the right rows sel[0..n) of `view` (right columns then key values,
** the keys' hashes in chunk_hash), or once splitting send them to their
** partitions. */
static int store_rows(join_op *j, const lt_batch *view, const uint32_t *sel, uint32_t n,
                      lt_error *err)
{
    sql_exec *ex = j->base.ex;
    uint32_t nkeys = j->r->nkeys, ncols = j->rw + nkeys;
    const lt_vector **kp = j->rkeys;
    for (uint32_t k = 0; k < nkeys; k++)
        kp[k] = &view->cols[j->rw + k];
    if (!j->stored) {
        if (sql_rowstore_init(&j->rows, view, ncols) != 0)
            return oom(err);
        j->stored = true;
        sql_rowstore_budget(&j->rows, ex->budget, j->what);
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        bool keyless = nkeys > 0 && key_null(kp, nkeys, row);
        if (keyless && !keeps_right(j))
            continue;
        /* (below SPLIT_MIN rows held, splitting would not make room) */
        if (!j->splitting && j->threshold > 0 && ex->budget->used > j->threshold &&
            j->rows.count >= SPLIT_MIN && start_split(j, view, err) != 0)
            return -1;
        if (j->splitting) {
            uint32_t part = sql_spill_part_of(j->chunk_hash[row], j->depth);
            if (sql_spill_parts_put(&j->rparts, part, view->cols, row, err) != 0)
                return -1;
            continue;
        }
        if (j->rows.count == j->hash_cap) {
            if (j->hash_cap >= UINT32_MAX / 2)
                return lt_error_set(err, "HY001", "too many rows to join in memory");
            uint32_t cap = j->hash_cap ? j->hash_cap * 2 : 1024;
            if (sql_budget_take(ex->budget, (uint64_t)(cap - j->hash_cap) * (sizeof(uint64_t) + 1),
                                j->what, &j->held, err) != 0)
                return -1;
            uint64_t *nh = realloc(j->hashes, (size_t)cap * sizeof *nh);
            if (nh == NULL)
                return oom(err);
            j->hashes = nh;
            uint8_t *nk = realloc(j->keyless, cap);
            if (nk == NULL)
                return oom(err);
            j->keyless = nk;
            j->hash_cap = cap;
        }
        j->keyless[j->rows.count] = keyless;
        j->hashes[j->rows.count] = j->chunk_hash[row];
        if (sql_rowstore_append(&j->rows, view, row, err) != 0)
            return -1;
    }
    return 0;
}

/* A chunk of the right child: its keys evaluated, then stored. */
static int store_chunk(join_op *j, const sql_chunk *ch, lt_error *err)
{
    sql_exec *ex = j->base.ex;
    uint32_t nkeys = j->r->nkeys, ncols = j->rw + nkeys;
    const uint32_t *sel = ch->sel ? ch->sel : ex->identity;
    const lt_vector **kp = j->rkeys;
    for (uint32_t c = 0; c < j->rw; c++)
        j->view[c] = ch->batch->cols[c];
    for (uint32_t k = 0; k < nkeys; k++) {
        if (sql_eval(ex, j->r->rkeys[k], ch->batch, sel, ch->n, &kp[k], err) != 0)
            return -1;
        j->view[j->rw + k] = *kp[k];
    }
    if (key_hashes(j, kp, sel, ch->n, j->chunk_hash, err) != 0)
        return -1;
    lt_batch view = {ch->batch->count, ch->batch->capacity, ncols, j->view, {0}};
    return store_rows(j, &view, sel, ch->n, err);
}

/* The rows held passed the threshold: they, and the pass's right rows to
** come, go to partitions, and the memory they held goes back. */
static int start_split(join_op *j, const lt_batch *view, lt_error *err)
{
    if (j->depth >= SQL_SPILL_DEPTH)
        return sql_budget_fail(j->base.ex->budget, j->what,
                               ", even with its rows split into partitions on temporary files "
                               "(too many rows share one join key)",
                               err);
    if (!j->rshaped) {
        if (sql_spill_parts_init(&j->rshape, view->cols, view->ncols, 0, "a join", err) != 0)
            return -1;
        j->rshaped = true;
    }
    if (sql_spill_parts_init(&j->rparts, view->cols, view->ncols, j->depth, "a join", err) != 0)
        return -1;
    j->splitting = true;
    for (uint32_t s = 0; s < j->rows.count; s++) {
        uint32_t part = sql_spill_part_of(j->hashes[s], j->depth);
        if (sql_spill_parts_put(&j->rparts, part, j->rows.cols, s, err) != 0)
            return -1;
    }
    sql_rowstore_free(&j->rows);
    j->stored = false;
    free(j->hashes);
    free(j->keyless);
    j->hashes = NULL;
    j->keyless = NULL;
    j->hash_cap = 0;
    sql_budget_release(j->base.ex->budget, &j->held);
    return 0;
}

/* The pass's next right rows: the right child's, or a partition's. */
static int next_right(join_op *j, sql_chunk *ch, bool *more, lt_error *err)
{
    if (j->depth == 0) {
        if (sql_next(j->right, ch, err) != 0)
            return -1;
        *more = ch->n > 0;
        return *more ? store_chunk(j, ch, err) : 0;
    }
    lt_batch *b;
    *more = false;
    if (j->rrd == NULL)
        return 0; /* a partition no right row went to */
    if (sql_spill_reader_next(j->rrd, &b, err) != 0)
        return -1;
    *more = b->count > 0;
    if (!*more)
        return 0;
    const lt_vector **kp = j->rkeys;
    for (uint32_t k = 0; k < j->r->nkeys; k++)
        kp[k] = &b->cols[j->rw + k];
    if (key_hashes(j, kp, j->base.ex->identity, b->count, j->chunk_hash, err) != 0)
        return -1;
    return store_rows(j, b, j->base.ex->identity, b->count, err);
}

static int split_left(join_op *j, lt_error *err);

static int build(join_op *j, lt_error *err)
{
    const sql_budget *bg = j->base.ex->budget;
    j->threshold = 0;
    if (bg != NULL && bg->limit > 0 && j->r->nkeys > 0)
        j->threshold = bg->used + (bg->limit > bg->used ? (bg->limit - bg->used) / 2 : 0);
    for (;;) {
        sql_chunk ch;
        bool more;
        if (next_right(j, &ch, &more, err) != 0)
            return -1;
        if (!more)
            break;
    }
    if (j->splitting)
        return split_left(j, err);
    uint32_t n = j->stored ? j->rows.count : 0, size = 16;
    while (size < 2 * (uint64_t)n && size < (1u << 31))
        size *= 2;
    if (sql_budget_take(j->base.ex->budget, (uint64_t)size * 4 + (uint64_t)n * 5, j->what,
                        &j->held, err) != 0)
        return -1;
    j->heads = calloc(size, sizeof *j->heads);
    j->chain = malloc((n ? n : 1) * sizeof *j->chain);
    if (j->heads == NULL || j->chain == NULL)
        return oom(err);
    j->mask = size - 1;
    if (keeps_right(j) && (j->rmatched = calloc(n ? n : 1, 1)) == NULL)
        return oom(err);
    /* Inserted last to first, so each chain lists rows in their order. */
    for (uint32_t row = n; row-- > 0;) {
        if (j->keyless[row])
            continue;
        uint32_t b = (uint32_t)j->hashes[row] & j->mask;
        j->chain[row] = j->heads[b];
        j->heads[b] = row + 1;
    }
    j->built = true;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Probe                                                                     */
/* ------------------------------------------------------------------------ */

static bool keys_equal(const join_op *j, uint32_t left_row, uint32_t stored)
{
    for (uint32_t k = 0; k < j->r->nkeys; k++) {
        const lt_vector *l = j->lkeys[k], *r = &j->rows.cols[j->rw + k];
        int c = j->nocase && l->type == LT_TEXT && r->type == LT_TEXT
                    ? sql_compare_cells_coll(l, left_row, r, stored, true)
                    : sql_compare_any(l, left_row, r, stored);
        if (c != 0)
            return false;
    }
    return true;
}

/* The next left chunk and its keys; false at the end of the left rows. */
static int next_chunk(join_op *j, bool *more, lt_error *err)
{
    sql_exec *ex = j->base.ex;
    if (j->depth == 0) {
        if (sql_next(j->base.child, &j->in, err) != 0)
            return -1;
    } else if (j->lrd == NULL) {
        j->in.n = 0; /* a partition no left row went to */
    } else {
        lt_batch *b;
        if (sql_spill_reader_next(j->lrd, &b, err) != 0)
            return -1;
        j->in = (sql_chunk){b, NULL, b->count};
    }
    *more = j->in.n > 0;
    if (!*more)
        return 0;
    j->in_sel = j->in.sel ? j->in.sel : ex->identity;
    for (uint32_t k = 0; k < j->r->nkeys; k++)
        if (sql_eval(ex, j->r->lkeys[k], j->in.batch, j->in_sel, j->in.n, &j->lkeys[k], err) != 0)
            return -1;
    if (key_hashes(j, j->lkeys, j->in_sel, j->in.n, j->chunk_hash, err) != 0)
        return -1;
    for (uint32_t i = 0; i < j->in.n; i++)
        j->matched[j->in_sel[i]] = 0;
    j->i = 0;
    j->row_started = false;
    j->phase = 0;
    return 0;
}

/* Pairs of the current chunk into pl/pr, at most a batch. */
static uint32_t fill_pairs(join_op *j)
{
    uint32_t k = 0, nkeys = j->r->nkeys, count = j->stored ? j->rows.count : 0;
    bool marks = keeps_left(j) && j->r->nresidual == 0;
    bool rmarks = keeps_right(j) && j->r->nresidual == 0;
    while (k < LT_BATCH_ROWS && j->i < j->in.n) {
        uint32_t row = j->in_sel[j->i];
        if (!j->row_started) {
            j->row_started = true;
            if (nkeys == 0) {
                j->cand = count > 0 ? 1 : 0;
            } else if (key_null(j->lkeys, nkeys, row)) {
                j->cand = 0;
            } else {
                j->hash = j->chunk_hash[row];
                j->cand = j->heads[(uint32_t)j->hash & j->mask];
            }
        }
        while (j->cand != 0 && k < LT_BATCH_ROWS) {
            uint32_t s = j->cand - 1;
            j->cand = nkeys > 0 ? j->chain[s] : (s + 1 < count ? s + 2 : 0);
            if (nkeys > 0 && (j->hashes[s] != j->hash || !keys_equal(j, row, s)))
                continue;
            j->pl[k] = row;
            j->pr[k++] = s;
            if (marks)
                j->matched[row] = 1;
            if (rmarks)
                j->rmatched[s] = 1;
        }
        if (j->cand == 0) {
            j->i++;
            j->row_started = false;
        }
    }
    return k;
}

/* A LEFT JOIN's left rows of the chunk that joined nothing. */
static uint32_t fill_unmatched(join_op *j)
{
    uint32_t k = 0;
    while (k < LT_BATCH_ROWS && j->i < j->in.n) {
        uint32_t row = j->in_sel[j->i++];
        if (!j->matched[row])
            j->pl[k++] = row;
    }
    return k;
}

/* RIGHT, FULL: the stored rows no pair used, into pr. */
static uint32_t fill_unmatched_right(join_op *j)
{
    uint32_t k = 0, count = j->stored ? j->rows.count : 0;
    while (k < LT_BATCH_ROWS && j->rnext < count) {
        uint32_t s = j->rnext++;
        if (!j->rmatched[s])
            j->pr[k++] = s;
    }
    return k;
}

static void set_null(lt_vector *dst, uint32_t k)
{
    memset(dst->nulls, 1, k);
    if (dst->tags != NULL)
        memset(dst->tags, 0, k);
}

/* The output batch's k rows: left cells by pl (or NULL when
** `left_null`), right cells by pr (or NULL when `unmatched`). */
static int materialize(join_op *j, uint32_t k, bool unmatched, bool left_null, lt_error *err)
{
    lt_arena *a = &j->base.ex->arena;
    for (uint32_t c = 0; c < j->lw; c++) {
        lt_vector *dst = &j->batch->cols[c];
        if (left_null) {
            set_null(dst, k);
            continue;
        }
        const lt_vector *src = &j->in.batch->cols[c];
        sql_vector_gather(dst, src, j->pl, k);
        if (sql_vector_gather_tags(dst, src, j->pl, k, a) != 0)
            return oom(err);
    }
    for (uint32_t c = 0; c < j->rw; c++) {
        lt_vector *dst = &j->batch->cols[j->lw + c];
        if (unmatched) {
            set_null(dst, k);
            continue;
        }
        sql_vector_gather(dst, &j->rows.cols[c], j->pr, k);
        if (sql_vector_gather_tags(dst, &j->rows.cols[c], j->pr, k, a) != 0)
            return oom(err);
    }
    j->batch->count = k;
    return 0;
}

/* The rows of the output batch whose residual conditions are all TRUE,
** into j->sel; returns how many. */
static int check_residual(join_op *j, uint32_t k, uint32_t *kept, lt_error *err)
{
    sql_exec *ex = j->base.ex;
    const uint32_t *sel = ex->identity;
    uint32_t n = k;
    for (uint32_t c = 0; c < j->r->nresidual && n > 0; c++) {
        const lt_vector *v;
        if (sql_eval(ex, j->r->residual[c], j->batch, sel, n, &v, err) != 0)
            return -1;
        uint32_t m = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t row = sel[i];
            j->sel[m] = row;
            m += !v->nulls[row] && v->v.b[row];
        }
        sel = j->sel;
        n = m;
    }
    if (keeps_left(j))
        for (uint32_t i = 0; i < n; i++)
            j->matched[j->pl[sel[i]]] = 1;
    if (keeps_right(j))
        for (uint32_t i = 0; i < n; i++)
            j->rmatched[j->pr[sel[i]]] = 1;
    if (sel != j->sel)
        for (uint32_t i = 0; i < n; i++)
            j->sel[i] = sel[i];
    *kept = n;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Partitions                                                                */
/* ------------------------------------------------------------------------ */

static int push_pending(join_op *j, FILE *right, FILE *left, lt_error *err)
{
    if ((right == NULL && !keeps_left(j)) || (left == NULL && !keeps_right(j))) {
        if (right != NULL)
            fclose(right);
        if (left != NULL)
            fclose(left);
        return 0; /* nothing can come of it */
    }
    if (j->npending == j->pending_cap) {
        uint32_t cap = j->pending_cap ? j->pending_cap * 2 : SQL_SPILL_FANOUT;
        join_pending *np = realloc(j->pending, (size_t)cap * sizeof *np);
        if (np == NULL) {
            if (right != NULL)
                fclose(right);
            if (left != NULL)
                fclose(left);
            return oom(err);
        }
        j->pending = np;
        j->pending_cap = cap;
    }
    j->pending[j->npending++] = (join_pending){right, left, j->depth + 1};
    return 0;
}

/* The build split: the pass's left rows go to the partitions of their
** keys too, and the pairs of partitions wait their turn. */
static int split_left(join_op *j, lt_error *err)
{
    bool lsplit = false;
    for (;;) {
        bool more;
        if (next_chunk(j, &more, err) != 0)
            return -1;
        if (!more)
            break;
        const lt_batch *in = j->in.batch;
        if (!j->lshaped) {
            if (sql_spill_parts_init(&j->lshape, in->cols, j->lw, 0, "a join", err) != 0)
                return -1;
            j->lshaped = true;
        }
        if (!lsplit) {
            if (sql_spill_parts_init(&j->lparts, in->cols, j->lw, j->depth, "a join", err) != 0)
                return -1;
            lsplit = true;
        }
        for (uint32_t i = 0; i < j->in.n; i++) {
            uint32_t row = j->in_sel[i];
            if (!keeps_left(j) && key_null(j->lkeys, j->r->nkeys, row))
                continue;
            uint32_t part = sql_spill_part_of(j->chunk_hash[row], j->depth);
            if (sql_spill_parts_put(&j->lparts, part, in->cols, row, err) != 0)
                return -1;
        }
    }
    int rc = 0;
    for (uint32_t p = 0; p < SQL_SPILL_FANOUT && rc == 0; p++) {
        FILE *right = NULL, *left = NULL;
        rc = sql_spill_parts_take(&j->rparts, p, &right, err);
        if (rc == 0 && lsplit && (rc = sql_spill_parts_take(&j->lparts, p, &left, err)) != 0 &&
            right != NULL)
            fclose(right);
        if (rc == 0)
            rc = push_pending(j, right, left, err);
    }
    sql_spill_parts_free(&j->rparts);
    if (lsplit)
        sql_spill_parts_free(&j->lparts);
    j->splitting = false;
    j->built = true;
    j->done = true; /* nothing held to join: on to the partitions */
    j->in.n = 0;
    return rc;
}

/* Free what the pass held (its rows are all joined). */
static void free_build(join_op *j)
{
    if (j->stored)
        sql_rowstore_free(&j->rows);
    j->stored = false;
    free(j->hashes);
    free(j->keyless);
    free(j->rmatched);
    free(j->heads);
    free(j->chain);
    j->hashes = NULL;
    j->keyless = NULL;
    j->rmatched = NULL;
    j->heads = NULL;
    j->chain = NULL;
    j->hash_cap = 0;
    sql_budget_release(j->base.ex->budget, &j->held);
    sql_spill_reader_free(j->rrd);
    sql_spill_reader_free(j->lrd);
    j->rrd = j->lrd = NULL;
}

/* Join the next pair of partitions: build on its right rows. */
static int next_partition(join_op *j, lt_error *err)
{
    free_build(j);
    join_pending p = j->pending[--j->npending];
    j->depth = p.depth;
    int rc = 0;
    if (p.right != NULL)
        rc = sql_spill_reader_open(&j->rrd, p.right, &j->rshape, err);
    if (p.left != NULL) {
        if (rc == 0)
            rc = sql_spill_reader_open(&j->lrd, p.left, &j->lshape, err);
        else
            fclose(p.left);
    }
    if (rc != 0)
        return -1;
    j->in.n = 0;
    j->phase = 0;
    j->i = 0;
    j->row_started = false;
    j->rnext = 0;
    j->done = false;
    j->built = false;
    return build(j, err);
}

static int join_next(sql_operator *op, sql_chunk *out, lt_error *err)
{
    join_op *j = (join_op *)op;
    out->batch = j->batch;
    out->sel = NULL;
    out->n = 0;
    if (!j->built && build(j, err) != 0)
        return -1;
    for (;;) {
        if (sql_check_cancel(op->ex, err) != 0)
            return -1;
        if (j->done) {
            /* RIGHT, FULL: the right rows nothing joined. */
            uint32_t k = keeps_right(j) ? fill_unmatched_right(j) : 0;
            if (k == 0) {
                if (j->npending == 0)
                    return 0;
                if (next_partition(j, err) != 0)
                    return -1;
                continue;
            }
            if (materialize(j, k, false, true, err) != 0)
                return -1;
            out->n = k;
            return 0;
        }
        if (j->in.n == 0 || j->phase == 2) {
            bool more;
            if (next_chunk(j, &more, err) != 0)
                return -1;
            if (!more) {
                j->done = true;
                continue;
            }
        }
        bool unmatched = j->phase == 1;
        uint32_t k = unmatched ? fill_unmatched(j) : fill_pairs(j);
        if (j->i == j->in.n) {
            if (j->phase == 0 && keeps_left(j)) {
                j->phase = 1;
                j->i = 0;
            } else {
                j->phase = 2;
            }
        }
        if (k == 0)
            continue;
        if (materialize(j, k, unmatched, false, err) != 0)
            return -1;
        uint32_t kept = k;
        if (!unmatched && j->r->nresidual > 0 && check_residual(j, k, &kept, err) != 0)
            return -1;
        if (kept == 0)
            continue;
        out->sel = !unmatched && j->r->nresidual > 0 ? j->sel : NULL;
        out->n = kept;
        return 0;
    }
}

static void join_close(sql_operator *op)
{
    join_op *j = (join_op *)op;
    free_build(j);
    for (uint32_t i = 0; i < j->npending; i++) {
        if (j->pending[i].right != NULL)
            fclose(j->pending[i].right);
        if (j->pending[i].left != NULL)
            fclose(j->pending[i].left);
    }
    free(j->pending);
    sql_spill_parts_free(&j->rparts); /* all zero when unused */
    sql_spill_parts_free(&j->lparts);
    sql_spill_parts_free(&j->rshape);
    sql_spill_parts_free(&j->lshape);
    lt_arena_free(&j->foldtext);
    lt_batch_free(j->batch);
    sql_close(j->right);
    sql_close(op->child);
}

int sql_op_join(sql_exec *ex, sql_operator *left, sql_operator *right, const sql_range *r,
                sql_operator **out, lt_error *err)
{
    lt_arena *a = &ex->arena;
    const sql_query *q = ex->q;
    uint32_t index = (uint32_t)(r - q->ranges), ncols = r->offset + r->nscan;
    join_op *j = lt_arena_alloc(a, sizeof *j);
    lt_type *types = lt_arena_alloc(a, (ncols + 1) * sizeof *types);
    int16_t *scales = lt_arena_alloc(a, (ncols + 1) * sizeof *scales);
    if (j == NULL || types == NULL || scales == NULL)
        return oom(err);
    memset(j, 0, sizeof *j);
    j->base.next = join_next;
    j->base.close = join_close;
    j->base.ex = ex;
    j->base.child = left;
    j->right = right;
    j->r = r;
    j->lw = r->offset;
    j->rw = r->nscan;
    /* The joined row: every table's scanned columns, in FROM order. */
    for (uint32_t k = 0; k <= index; k++) {
        const sql_range *rg = &q->ranges[k];
        for (uint32_t c = 0; c < rg->nscan; c++) {
            const lt_column *col = &rg->desc->cols[rg->scan_cols[c]];
            types[rg->offset + c] = col->type;
            scales[rg->offset + c] = col->scale;
        }
    }
    j->view = lt_arena_alloc(a, (j->rw + r->nkeys + 1) * sizeof *j->view);
    j->lkeys = lt_arena_alloc(a, (r->nkeys + 1) * sizeof *j->lkeys);
    j->rkeys = lt_arena_alloc(a, (r->nkeys + 1) * sizeof *j->rkeys);
    j->matched = lt_arena_alloc(a, LT_BATCH_ROWS);
    j->chunk_hash = lt_arena_alloc(a, LT_BATCH_ROWS * sizeof *j->chunk_hash);
    j->pl = lt_arena_alloc(a, LT_BATCH_ROWS * sizeof *j->pl);
    j->pr = lt_arena_alloc(a, LT_BATCH_ROWS * sizeof *j->pr);
    j->sel = lt_arena_alloc(a, LT_BATCH_ROWS * sizeof *j->sel);
    j->batch = lt_batch_new(ncols, types, scales, LT_BATCH_ROWS);
    if (j->view == NULL || j->lkeys == NULL || j->rkeys == NULL || j->matched == NULL ||
        j->chunk_hash == NULL || j->pl == NULL ||
        j->pr == NULL || j->sel == NULL || j->batch == NULL) {
        lt_batch_free(j->batch);
        return oom(err);
    }
    lt_arena_init(&j->foldtext);
    j->what = sql_budget_what(ex, "join", r->table != UINT32_MAX && r->desc != NULL
                                              ? r->desc->name : r->name);
    j->nocase = sql_text_nocase(ex);
    if (j->nocase) {
        j->fold = lt_arena_alloc(a, (r->nkeys + 1) * sizeof *j->fold);
        j->foldcells = lt_arena_alloc(a, (r->nkeys + 1) * sizeof *j->foldcells);
        bool ok = j->fold != NULL && j->foldcells != NULL;
        for (uint32_t k = 0; ok && k < r->nkeys; k++)
            ok = (j->foldcells[k] = lt_arena_alloc(a, LT_BATCH_ROWS * sizeof **j->foldcells)) != NULL;
        if (!ok) {
            lt_batch_free(j->batch);
            return oom(err);
        }
    }
    *out = &j->base;
    return 0;
}
