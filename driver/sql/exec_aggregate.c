/*
** exec_aggregate.c — GROUP BY and the aggregates: hash aggregation.
**
** The child's rows are consumed whole.  Per chunk, the GROUP BY keys are
** evaluated over the live rows and each row is looked up in a row set of
** the keys seen so far (rowstore.c), which gives its group number.  Then
** each aggregate's argument is evaluated once over the chunk and folded
** into the per-group states, one loop per (aggregate, type) with nothing
** decided per row.  A DISTINCT aggregate first passes its (group, value)
** pairs through a row set of its own, so each pair counts once.  Without
** GROUP BY there is exactly one group, even over no rows: COUNT is then 0
** and the other aggregates NULL.
**
** Sums are exact: INT64 and DECIMAL values add up in 128 bits (a SUM of
** INT64 past 64 bits fails with 22003 when it is read, a DECIMAL sum past
** 38 digits as soon as it gets there); AVG of DECIMAL divides by long
** division and rounds half away from zero at the result's scale.
**
** The output is one row per group: the keys, then the aggregates.  The
** keys' row sets, the states and MIN/MAX text take their bytes from the
** execution's budget (MemoryLimit, budget.c).
**
** Past the budget (Grace hash, spill.h): between rows, once the groups
** hold more than a third (an eighth with DISTINCT aggregates, whose groups
** held keep growing) of what the budget had left when the pass began, the
** groups held stay and take their own rows still, and the rows of every
** other key go, whole input rows, to temporary partitions by a hash of the
** key.  When the input ends the held groups are returned and freed, then
** each partition is aggregated the same way as a pass of its own (split
** again, by other bits of the hash, if it is still too big), so every group
** is aggregated from all its rows in one place and the results are those of
** the in-memory path.  Order: groups in order of first appearance within
** the memory pass, then partition by partition.  Without GROUP BY there is
** one group and nothing to split: past the budget, HY001.
*/
#include "collate.h"
#include "exec.h"
#include "func.h"
#include "spill.h"
#include "value.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct agg_state {
    lt_int128 sum;       /* SUM/AVG of INT64 and DECIMAL */
    double f64;          /* SUM/AVG of DOUBLE */
    int64_t count;       /* values folded in */
} agg_state;

typedef struct agg_slot {
    const sql_expr *e;
    sql_agg kind;
    agg_state *st;       /* per group */
    lt_vector best;      /* MIN/MAX: per group; NULL while no value came */
    uint32_t *room;      /* MIN/MAX of text: bytes owned at best's pointer */
    bool nonfinite_in;   /* a SUM of DOUBLE was given an infinity or NaN */
    sql_rowset seen;     /* DISTINCT: the (group, value) pairs seen */
    bool seen_started;
} agg_slot;

/* A partition waiting to be aggregated, split `depth` times. */
typedef struct agg_pending {
    FILE *f;
    uint32_t depth;
} agg_pending;

typedef struct agg_op {
    sql_operator base;
    sql_expr **groups;
    uint32_t ngroups;
    agg_slot *aggs;
    uint32_t naggs;
    int64_t preset;      /* COUNT(*) the reader answered, or -1 */
    sql_rowset keys;
    bool keys_started;
    uint32_t count;      /* groups */
    uint32_t cap;        /* groups the states have room for */
    uint32_t *gid;       /* per input row position: its group */
    int64_t *gid64;      /* the same as a vector (DISTINCT pairs) */
    uint32_t *live;      /* scratch selection */
    uint64_t *hashes;    /* per input row position: its key's hash */
    lt_vector *keyvec;   /* this chunk's key vectors */
    /* Access: text keys group case-insensitively; `keys` holds them folded,
    ** `shown` each group's first key as written */
    bool nocase;
    lt_vector *foldvec;
    lt_bytes **foldcells;
    lt_bytes *dcells;    /* Access: COUNT(DISTINCT text) folds its values */
    lt_arena foldtext;
    sql_rowstore shown;
    lt_arena text;       /* MIN/MAX text */
    const char *what;    /* for the budget's message */
    uint64_t held;       /* bytes of states and text taken from the budget */
    bool consumed;
    uint32_t pos;        /* next group to return */
    uint32_t *seq;       /* pos, pos + 1, ... */
    lt_batch *batch;
    /* past the budget (spill.h) */
    uint64_t threshold;  /* budget used past which the pass splits; 0: never */
    uint32_t depth;      /* the pass's input: 0 the child, else a partition's split count */
    bool splitting;      /* rows of keys not held go to `parts` */
    sql_spill_parts parts;
    sql_spill_parts shape; /* the input's columns, for reading partitions back */
    bool shaped;
    agg_pending *pending;
    uint32_t npending, pending_cap;
    sql_spill_reader *rd; /* the partition being aggregated */
    uint32_t *mine;      /* rows of the chunk whose group is held */
    uint32_t share;      /* the groups may hold 1/share of the budget left */
} agg_op;

static int oom(lt_error *err)
{
    return lt_error_set(err, "HY001", "out of memory for GROUP BY");
}

static int overflow(const agg_slot *s, lt_error *err)
{
    return lt_error_set(err, "22003", "numeric value out of range in %s", s->e->fn->name);
}

static bool is_bytes(lt_type t)
{
    return t == LT_TEXT || t == LT_BINARY;
}

/* Room for `need` groups in every aggregate's state. */
static int grow_states(agg_op *a, uint32_t need, lt_error *err)
{
    if (need <= a->cap)
        return 0;
    uint32_t cap = a->cap ? a->cap : 64;
    while (cap < need) {
        if (cap > UINT32_MAX / 2)
            return lt_error_set(err, "HY001", "too many groups to hold in memory");
        cap *= 2;
    }
    uint64_t per_group = 0;
    for (uint32_t j = 0; j < a->naggs; j++) {
        const agg_slot *s = &a->aggs[j];
        per_group += sizeof(agg_state);
        if (s->kind == SQL_AGG_MIN || s->kind == SQL_AGG_MAX)
            per_group += 1 + sql_type_width(s->best.type) + (is_bytes(s->best.type) ? 4 : 0);
    }
    if (sql_budget_take(a->base.ex->budget, per_group * (cap - a->cap), a->what, &a->held,
                        err) != 0)
        return -1;
    for (uint32_t j = 0; j < a->naggs; j++) {
        agg_slot *s = &a->aggs[j];
        agg_state *st = realloc(s->st, (size_t)cap * sizeof *st);
        if (st == NULL)
            return oom(err);
        memset(st + a->cap, 0, (size_t)(cap - a->cap) * sizeof *st);
        s->st = st;
        if (s->kind != SQL_AGG_MIN && s->kind != SQL_AGG_MAX)
            continue;
        lt_vector *b = &s->best;
        uint8_t *nulls = realloc(b->nulls, cap);
        if (nulls == NULL)
            return oom(err);
        memset(nulls + a->cap, 1, cap - a->cap);
        b->nulls = nulls;
        void *vals = realloc(b->v.any, (size_t)cap * sql_type_width(b->type));
        if (vals == NULL)
            return oom(err);
        b->v.any = vals;
        if (is_bytes(b->type)) {
            uint32_t *room = realloc(s->room, (size_t)cap * sizeof *room);
            if (room == NULL)
                return oom(err);
            memset(room + a->cap, 0, (size_t)(cap - a->cap) * sizeof *room);
            s->room = room;
        }
    }
    a->cap = cap;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Groups                                                                    */
/* ------------------------------------------------------------------------ */

/* The keys of rows sel[0..n) of `in` as the group set sees them (*view;
** Access: text folded) and as written (*orig), their hashes in a->hashes. */
static int eval_keys(agg_op *a, const lt_batch *in, const uint32_t *sel, uint32_t n,
                     lt_batch *view, lt_batch *orig, lt_error *err)
{
    sql_exec *ex = a->base.ex;
    for (uint32_t k = 0; k < a->ngroups; k++) {
        const sql_expr *e = a->groups[k];
        const lt_vector *v;
        if (e->kind == SQL_E_COLUMN && !e->conv)
            v = &in->cols[e->input]; /* dynamically typed rows group as they are */
        else if (sql_eval(ex, e, in, sel, n, &v, err) != 0)
            return -1;
        a->keyvec[k] = *v;
    }
    *view = (lt_batch){in->count, in->capacity, a->ngroups, a->keyvec, {0}};
    *orig = *view;
    if (a->nocase) {
        lt_arena_reset(&a->foldtext);
        for (uint32_t k = 0; k < a->ngroups; k++)
            if (sql_fold_text_vector(&a->keyvec[k], sel, n, &a->foldvec[k], a->foldcells[k],
                                     &a->foldtext) != 0)
                return oom(err);
        view->cols = a->foldvec;
    }
    if (!a->keys_started) {
        if (sql_rowset_init(&a->keys, view, a->ngroups, err) != 0)
            return -1;
        if (a->nocase && sql_rowstore_init(&a->shown, orig, a->ngroups) != 0) {
            sql_rowset_free(&a->keys);
            return oom(err);
        }
        a->keys_started = true;
        sql_rowstore_budget(&a->keys.rows, ex->budget, a->what);
        if (a->nocase)
            sql_rowstore_budget(&a->shown, ex->budget, a->what);
    }
    sql_rowset_hashes(&a->keys, view, sel, n, a->hashes);
    return 0;
}

static int start_split(agg_op *a, const lt_batch *in, lt_error *err);

/* Groups held below which a pass does not split: so few that the first
** sizes of the key store and the states (not their groups) fill the budget,
** which a split could not make smaller. */
#define SPLIT_MIN 256u

/* Has the pass passed its share of the budget (between rows: one row's
** growth at most doubles what the groups hold, which then still fits)? */
static bool over_threshold(const agg_op *a)
{
    return a->threshold > 0 && a->base.ex->budget->used > a->threshold && a->count >= SPLIT_MIN;
}

/* gid[row] for the rows of sel[0..n) of `in` whose group is held, listed in
** a->mine (*kept of them).  New keys make new groups until the pass passes
** its share of the budget; from then on (splitting) the rows of keys not
** held go to their partitions. */
static int assign_groups(agg_op *a, const lt_batch *in, const uint32_t *sel, uint32_t n,
                         uint32_t *kept, lt_error *err)
{
    if (a->ngroups == 0) {
        for (uint32_t i = 0; i < n; i++) {
            a->gid[sel[i]] = 0;
            a->mine[i] = sel[i];
        }
        *kept = n;
        return 0;
    }
    lt_batch view, orig;
    if (eval_keys(a, in, sel, n, &view, &orig, err) != 0)
        return -1;
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        if (!a->splitting && over_threshold(a) && start_split(a, in, err) != 0)
            return -1;
        if (a->splitting) {
            int64_t g = sql_rowset_find(&a->keys, &view, row, a->hashes[row]);
            if (g < 0) {
                uint32_t part = sql_spill_part_of(a->hashes[row], a->depth);
                if (sql_spill_parts_put(&a->parts, part, in->cols, row, err) != 0)
                    return -1;
                continue;
            }
            a->gid[row] = (uint32_t)g;
            a->mine[k++] = row;
            continue;
        }
        bool added;
        int64_t g = sql_rowset_insert(&a->keys, &view, row, a->hashes[row], &added, err);
        if (g < 0)
            return -1;
        if (added) {
            if (grow_states(a, (uint32_t)g + 1, err) != 0 ||
                (a->nocase && sql_rowstore_append(&a->shown, &orig, row, err) != 0))
                return -1;
            a->count = (uint32_t)g + 1;
        }
        a->gid[row] = (uint32_t)g;
        a->mine[k++] = row;
    }
    *kept = k;
    return 0;
}

/* Keep, of the rows live[0..*n), those whose (group, value) pair is new. */
static int first_pairs(agg_op *a, agg_slot *s, const lt_vector *v, uint32_t *n, lt_error *err)
{
    lt_vector cols[2];
    memset(&cols[0], 0, sizeof cols[0]);
    cols[0].type = LT_INT64;
    cols[0].nulls = a->keyvec[a->ngroups].nulls; /* all zero: see sql_op_aggregate */
    cols[0].v.i64 = a->gid64;
    cols[1] = *v;
    if (a->dcells != NULL) {
        lt_arena_reset(&a->foldtext);
        if (sql_fold_text_vector(v, a->live, *n, &cols[1], a->dcells, &a->foldtext) != 0)
            return oom(err);
    }
    lt_batch view = {LT_BATCH_ROWS, LT_BATCH_ROWS, 2, cols, {0}};
    if (!s->seen_started) {
        if (sql_rowset_init(&s->seen, &view, 2, err) != 0)
            return -1;
        s->seen_started = true;
        sql_rowstore_budget(&s->seen.rows, a->base.ex->budget, a->what);
    }
    for (uint32_t i = 0; i < *n; i++)
        a->gid64[a->live[i]] = a->gid[a->live[i]];
    sql_rowset_hashes(&s->seen, &view, a->live, *n, a->hashes);
    uint32_t k = 0;
    for (uint32_t i = 0; i < *n; i++) {
        uint32_t row = a->live[i];
        bool added;
        if (sql_rowset_insert(&s->seen, &view, row, a->hashes[row], &added, err) < 0)
            return -1;
        a->live[k] = row;
        k += added;
    }
    *n = k;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Folding values into the states                                            */
/* ------------------------------------------------------------------------ */

static int fold_sum(agg_op *a, agg_slot *s, const lt_vector *v, uint32_t n, lt_error *err)
{
    const uint32_t *live = a->live, *gid = a->gid;
    agg_state *st = s->st;
    switch (v->type) {
    case LT_INT64:
        for (uint32_t i = 0; i < n; i++) {
            agg_state *g = &st[gid[live[i]]];
            g->count++;
            g->sum += v->v.i64[live[i]];
        }
        return 0;
    case LT_DECIMAL: {
        const lt_int128 max = SQL_DEC_MAX;
        for (uint32_t i = 0; i < n; i++) {
            agg_state *g = &st[gid[live[i]]];
            lt_int128 x = v->v.dec[live[i]];
            if ((x > 0 && g->sum > max - x) || (x < 0 && g->sum < -max - x))
                return overflow(s, err);
            g->count++;
            g->sum += x;
        }
        return 0;
    }
    case LT_DOUBLE:
        for (uint32_t i = 0; i < n; i++) {
            agg_state *g = &st[gid[live[i]]];
            double x = v->v.f64[live[i]];
            s->nonfinite_in |= !isfinite(x);
            g->count++;
            g->f64 += x;
        }
        return 0;
    default:
        return lt_error_set(err, "HY000", "internal error: %s over %s", s->e->fn->name,
                            sql_type_name(v->type));
    }
}

/* Keep row `row` of v as group g's value.  Text is copied into bytes the
** group owns (room[g] > 0), reused while they are long enough. */
static int keep_best(agg_op *a, agg_slot *s, uint32_t g, const lt_vector *v, uint32_t row,
                     lt_error *err)
{
    lt_vector *b = &s->best;
    if (!is_bytes(b->type)) {
        sql_vector_copy_cell(b, g, v, row);
        return 0;
    }
    lt_bytes src = v->v.bytes[row];
    char *own = s->room[g] > 0 ? (char *)b->v.bytes[g].ptr : NULL;
    if (own == NULL || src.len > s->room[g]) {
        uint32_t room = src.len < 16 ? 16 : src.len;
        if (s->room[g] <= UINT32_MAX / 2 && room < 2 * s->room[g])
            room = 2 * s->room[g];
        if (sql_budget_take(a->base.ex->budget, room, a->what, &a->held, err) != 0)
            return -1;
        if ((own = lt_arena_alloc(&a->text, room)) == NULL)
            return oom(err);
        s->room[g] = room;
    }
    if (src.len > 0)
        memcpy(own, src.ptr, src.len);
    b->nulls[g] = 0;
    b->v.bytes[g].ptr = own;
    b->v.bytes[g].len = src.len;
    return 0;
}

static int fold_min_max(agg_op *a, agg_slot *s, const lt_vector *v, uint32_t n, lt_error *err)
{
    lt_vector *b = &s->best;
    int want = s->kind == SQL_AGG_MIN ? -1 : 1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = a->live[i], g = a->gid[row];
        if (!b->nulls[g]) {
            int c = sql_compare_cells_coll(v, row, b, g, sql_text_nocase(a->base.ex));
            if (c != want)
                continue;
        }
        if (keep_best(a, s, g, v, row, err) != 0)
            return -1;
    }
    return 0;
}

static int fold(agg_op *a, agg_slot *s, const lt_batch *in, const uint32_t *sel, uint32_t n,
                lt_error *err)
{
    const sql_expr *e = s->e;
    if (e->star) {
        for (uint32_t i = 0; i < n; i++)
            s->st[a->gid[sel[i]]].count++;
        return 0;
    }
    const sql_expr *arg = e->args[0];
    const lt_vector *v;
    if (s->kind == SQL_AGG_COUNT && arg->kind == SQL_E_COLUMN && !arg->conv)
        v = &in->cols[arg->input]; /* a dynamically typed row is a value */
    else if (sql_eval(a->base.ex, arg, in, sel, n, &v, err) != 0)
        return -1;
    if (v->type == LT_NULL)
        return 0;
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        a->live[k] = sel[i];
        k += !v->nulls[sel[i]];
    }
    if (e->distinct && s->kind != SQL_AGG_MIN && s->kind != SQL_AGG_MAX &&
        first_pairs(a, s, v, &k, err) != 0)
        return -1;
    switch (s->kind) {
    case SQL_AGG_COUNT:
        for (uint32_t i = 0; i < k; i++)
            s->st[a->gid[a->live[i]]].count++;
        return 0;
    case SQL_AGG_SUM:
    case SQL_AGG_AVG:
        return fold_sum(a, s, v, k, err);
    case SQL_AGG_MIN:
    case SQL_AGG_MAX:
        return fold_min_max(a, s, v, k, err);
    case SQL_AGG_NONE:
        break;
    }
    return lt_error_set(err, "HY000", "internal error: not an aggregate");
}

/* The pass's next input chunk: the child's, or a partition's rows. */
static int next_input(agg_op *a, sql_chunk *in, lt_error *err)
{
    if (a->rd == NULL)
        return sql_next(a->base.child, in, err);
    lt_batch *b;
    if (sql_spill_reader_next(a->rd, &b, err) != 0)
        return -1;
    in->batch = b;
    in->sel = NULL;
    in->n = b->count;
    return 0;
}

/* A pass begins: its groups may take a third of what the budget has left
** (a row's growth may double them; the rest is for the values folded in:
** MIN/MAX text), an eighth with DISTINCT aggregates (the groups held keep
** adding their distinct values after the split). */
static void set_threshold(agg_op *a)
{
    const sql_budget *b = a->base.ex->budget;
    a->threshold = 0;
    if (b != NULL && b->limit > 0 && a->ngroups > 0)
        a->threshold = b->used + (b->limit > b->used ? (b->limit - b->used) / a->share : 0);
}

/* The groups held passed the threshold: from now on split. */
static int start_split(agg_op *a, const lt_batch *in, lt_error *err)
{
    if (a->depth >= SQL_SPILL_DEPTH)
        return sql_budget_fail(a->base.ex->budget, a->what,
                               ", even with its rows split into partitions on temporary files "
                               "(too many rows share one GROUP BY key)",
                               err);
    if (!a->shaped) {
        if (sql_spill_parts_init(&a->shape, in->cols, in->ncols, 0, "GROUP BY", err) != 0)
            return -1;
        a->shaped = true;
    }
    if (sql_spill_parts_init(&a->parts, in->cols, in->ncols, a->depth, "GROUP BY", err) != 0)
        return -1;
    a->splitting = true;
    return 0;
}

/* The pass is over: its partitions wait their turn. */
static int end_split(agg_op *a, lt_error *err)
{
    if (!a->splitting)
        return 0;
    for (uint32_t p = 0; p < SQL_SPILL_FANOUT; p++) {
        if (a->npending == a->pending_cap) {
            uint32_t cap = a->pending_cap ? a->pending_cap * 2 : SQL_SPILL_FANOUT;
            agg_pending *np = realloc(a->pending, (size_t)cap * sizeof *np);
            if (np == NULL)
                return oom(err);
            a->pending = np;
            a->pending_cap = cap;
        }
        FILE *f;
        if (sql_spill_parts_take(&a->parts, p, &f, err) != 0)
            return -1;
        if (f != NULL)
            a->pending[a->npending++] = (agg_pending){f, a->depth + 1};
    }
    sql_spill_parts_free(&a->parts);
    a->splitting = false;
    return 0;
}

static int consume(agg_op *a, lt_error *err)
{
    sql_exec *ex = a->base.ex;
    if (a->ngroups == 0) {
        if (grow_states(a, 1, err) != 0)
            return -1;
        a->count = 1;
    }
    if (a->preset >= 0) {
        for (uint32_t j = 0; j < a->naggs; j++)
            a->aggs[j].st[0].count = a->preset;
        a->consumed = true;
        return 0;
    }
    set_threshold(a);
    for (;;) {
        sql_chunk in;
        if (next_input(a, &in, err) != 0)
            return -1;
        if (in.n == 0)
            break;
        const uint32_t *sel = in.sel ? in.sel : ex->identity;
        uint32_t n;
        if (assign_groups(a, in.batch, sel, in.n, &n, err) != 0)
            return -1;
        for (uint32_t j = 0; j < a->naggs && n > 0; j++)
            if (fold(a, &a->aggs[j], in.batch, a->mine, n, err) != 0)
                return -1;
    }
    if (end_split(a, err) != 0)
        return -1;
    a->consumed = true;
    return 0;
}

/* Forget the groups (returned), giving their memory back. */
static void free_groups(agg_op *a)
{
    for (uint32_t j = 0; j < a->naggs; j++) {
        agg_slot *s = &a->aggs[j];
        free(s->st);
        free(s->best.nulls);
        free(s->best.v.any);
        free(s->room);
        s->st = NULL;
        s->best.nulls = NULL;
        s->best.v.any = NULL;
        s->room = NULL;
        if (s->seen_started)
            sql_rowset_free(&s->seen);
        s->seen_started = false;
    }
    if (a->keys_started)
        sql_rowset_free(&a->keys);
    if (a->keys_started && a->nocase)
        sql_rowstore_free(&a->shown);
    a->keys_started = false;
    lt_arena_free(&a->text);
    lt_arena_init(&a->text);
    sql_budget_release(a->base.ex->budget, &a->held);
    a->count = a->cap = a->pos = 0;
}

/* The groups held are all returned: aggregate the next partition. */
static int next_partition(agg_op *a, lt_error *err)
{
    free_groups(a);
    sql_spill_reader_free(a->rd);
    a->rd = NULL;
    agg_pending p = a->pending[--a->npending];
    a->depth = p.depth;
    if (sql_spill_reader_open(&a->rd, p.f, &a->shape, err) != 0)
        return -1;
    a->consumed = false;
    return consume(a, err);
}

/* ------------------------------------------------------------------------ */
/* Results                                                                   */
/* ------------------------------------------------------------------------ */

/* sum / count rounded half away from zero, `more` digits past the sum's
** scale, by long division (the quotient fits: typing.c keeps the mean of
** p-digit values within 38 digits). */
static int decimal_mean(lt_int128 sum, int64_t count, int more, lt_int128 *out)
{
    typedef unsigned __int128 u128;
    bool neg = sum < 0;
    u128 m = neg ? (u128)0 - (u128)sum : (u128)sum, c = (u128)count;
    u128 q = m / c, r = m % c;
    for (int k = 0; k < more; k++) {
        if (q > (u128)SQL_DEC_MAX / 10)
            return -1;
        q = q * 10 + r * 10 / c;
        r = r * 10 % c;
    }
    if (2 * r >= c)
        q++;
    if (q > (u128)SQL_DEC_MAX)
        return -1;
    *out = neg ? -(lt_int128)q : (lt_int128)q;
    return 0;
}

/* Group g's value of aggregate s into row `row` of `out`. */
static int result_cell(agg_slot *s, uint32_t g, lt_vector *out, uint32_t row, lt_error *err)
{
    const agg_state *st = &s->st[g];
    out->nulls[row] = 0;
    if (s->kind == SQL_AGG_COUNT) {
        out->v.i64[row] = st->count;
        return 0;
    }
    if (s->kind == SQL_AGG_MIN || s->kind == SQL_AGG_MAX) {
        sql_vector_copy_cell(out, row, &s->best, g);
        return 0;
    }
    if (st->count == 0) {
        out->nulls[row] = 1;
        return 0;
    }
    const sql_expr *arg = s->e->args[0];
    lt_type in = arg->conv ? arg->want : arg->t.type;
    int in_scale = arg->conv ? arg->want_scale : arg->t.scale;
    switch (out->type) {
    case LT_INT64:
        if (st->sum < INT64_MIN || st->sum > INT64_MAX)
            return overflow(s, err);
        out->v.i64[row] = (int64_t)st->sum;
        return 0;
    case LT_DOUBLE: {
        double d;
        if (in == LT_DOUBLE)
            d = s->kind == SQL_AGG_SUM ? st->f64 : st->f64 / (double)st->count;
        else
            d = (double)st->sum / (double)st->count;
        if (!isfinite(d) && !s->nonfinite_in)
            return overflow(s, err);
        out->v.f64[row] = d;
        return 0;
    }
    case LT_DECIMAL:
        if (s->kind == SQL_AGG_SUM) {
            out->v.dec[row] = st->sum;
            return 0;
        }
        if (decimal_mean(st->sum, st->count, out->scale - in_scale, &out->v.dec[row]) != 0)
            return overflow(s, err);
        return 0;
    default:
        return lt_error_set(err, "HY000", "internal error: aggregate result %s",
                            sql_type_name(out->type));
    }
}

static int aggregate_next(sql_operator *op, sql_chunk *out, lt_error *err)
{
    agg_op *a = (agg_op *)op;
    out->batch = a->batch;
    out->sel = NULL;
    out->n = 0;
    a->batch->count = 0;
    if (!a->consumed && consume(a, err) != 0)
        return -1;
    while (a->pos >= a->count) {
        if (a->npending == 0)
            return 0;
        if (sql_check_cancel(op->ex, err) != 0 || next_partition(a, err) != 0)
            return -1;
    }
    if (sql_check_cancel(op->ex, err) != 0)
        return -1;
    uint32_t n = a->count - a->pos;
    if (n > LT_BATCH_ROWS)
        n = LT_BATCH_ROWS;
    for (uint32_t i = 0; i < n; i++)
        a->seq[i] = a->pos + i;
    for (uint32_t c = 0; c < a->ngroups; c++) {
        lt_vector *dst = &a->batch->cols[c];
        const lt_vector *src = a->nocase ? &a->shown.cols[c] : &a->keys.rows.cols[c];
        sql_vector_gather(dst, src, a->seq, n);
        if (sql_vector_gather_tags(dst, src, a->seq, n, &op->ex->arena) != 0)
            return oom(err);
    }
    for (uint32_t j = 0; j < a->naggs; j++)
        for (uint32_t i = 0; i < n; i++)
            if (result_cell(&a->aggs[j], a->pos + i, &a->batch->cols[a->ngroups + j], i, err) != 0)
                return -1;
    a->pos += n;
    a->batch->count = n;
    out->n = n;
    return 0;
}

static void aggregate_close(sql_operator *op)
{
    agg_op *a = (agg_op *)op;
    free_groups(a);
    lt_arena_free(&a->foldtext);
    lt_arena_free(&a->text);
    sql_spill_reader_free(a->rd);
    for (uint32_t i = 0; i < a->npending; i++)
        fclose(a->pending[i].f);
    free(a->pending);
    sql_spill_parts_free(&a->parts); /* all zero when unused */
    sql_spill_parts_free(&a->shape);
    lt_batch_free(a->batch);
    sql_close(op->child);
}

int sql_op_aggregate(sql_exec *ex, sql_operator *child, sql_expr **groups, uint32_t ngroups,
                     sql_expr **aggs, uint32_t naggs, int64_t preset, sql_operator **out,
                     lt_error *err)
{
    lt_arena *ar = &ex->arena;
    uint32_t ncols = ngroups + naggs;
    agg_op *a = lt_arena_alloc(ar, sizeof *a);
    lt_type *types = lt_arena_alloc(ar, (ncols + 1) * sizeof *types);
    int16_t *scales = lt_arena_alloc(ar, (ncols + 1) * sizeof *scales);
    if (a == NULL || types == NULL || scales == NULL)
        return oom(err);
    memset(a, 0, sizeof *a);
    a->base.next = aggregate_next;
    a->base.close = aggregate_close;
    a->base.ex = ex;
    a->base.child = child;
    a->groups = groups;
    a->ngroups = ngroups;
    a->naggs = naggs;
    a->preset = preset;
    a->what = sql_budget_what(ex, "group", NULL);
    lt_arena_init(&a->text);
    a->aggs = lt_arena_alloc(ar, (naggs + 1) * sizeof *a->aggs);
    /* keyvec has one spare vector whose all-zero null flags the DISTINCT
    ** pairs' group column borrows. */
    a->keyvec = lt_arena_alloc(ar, (ngroups + 1) * sizeof *a->keyvec);
    a->gid = lt_arena_alloc(ar, LT_BATCH_ROWS * sizeof *a->gid);
    a->gid64 = lt_arena_alloc(ar, LT_BATCH_ROWS * sizeof *a->gid64);
    a->live = lt_arena_alloc(ar, LT_BATCH_ROWS * sizeof *a->live);
    a->hashes = lt_arena_alloc(ar, LT_BATCH_ROWS * sizeof *a->hashes);
    a->seq = lt_arena_alloc(ar, LT_BATCH_ROWS * sizeof *a->seq);
    a->mine = lt_arena_alloc(ar, LT_BATCH_ROWS * sizeof *a->mine);
    uint8_t *zeros = lt_arena_alloc(ar, LT_BATCH_ROWS);
    if (a->aggs == NULL || a->keyvec == NULL || a->gid == NULL || a->gid64 == NULL || a->hashes == NULL ||
        a->live == NULL || a->seq == NULL || a->mine == NULL || zeros == NULL)
        return oom(err);
    memset(zeros, 0, LT_BATCH_ROWS);
    memset(a->keyvec, 0, (ngroups + 1) * sizeof *a->keyvec);
    lt_arena_init(&a->foldtext);
    a->nocase = sql_text_nocase(ex) && ngroups > 0;
    if (sql_text_nocase(ex) &&
        (a->dcells = lt_arena_alloc(ar, LT_BATCH_ROWS * sizeof *a->dcells)) == NULL)
        return oom(err);
    if (a->nocase) {
        a->foldvec = lt_arena_alloc(ar, ngroups * sizeof *a->foldvec);
        a->foldcells = lt_arena_alloc(ar, ngroups * sizeof *a->foldcells);
        if (a->foldvec == NULL || a->foldcells == NULL)
            return oom(err);
        for (uint32_t k = 0; k < ngroups; k++)
            if ((a->foldcells[k] = lt_arena_alloc(ar, LT_BATCH_ROWS * sizeof **a->foldcells)) == NULL)
                return oom(err);
    }
    a->keyvec[ngroups].nulls = zeros;
    memset(a->aggs, 0, (naggs + 1) * sizeof *a->aggs);
    for (uint32_t k = 0; k < ngroups; k++) {
        types[k] = groups[k]->t.type;
        scales[k] = groups[k]->t.scale;
    }
    a->share = 3;
    for (uint32_t j = 0; j < naggs; j++) {
        agg_slot *s = &a->aggs[j];
        s->e = aggs[j];
        if (aggs[j]->distinct)
            a->share = 8;
        s->kind = aggs[j]->fn->agg;
        types[ngroups + j] = aggs[j]->t.type;
        scales[ngroups + j] = aggs[j]->t.scale;
        if (s->kind == SQL_AGG_MIN || s->kind == SQL_AGG_MAX) {
            s->best.type = aggs[j]->t.type;
            s->best.scale = aggs[j]->t.scale;
        }
    }
    a->batch = lt_batch_new(ncols, types, scales, LT_BATCH_ROWS);
    if (a->batch == NULL)
        return oom(err);
    *out = &a->base;
    return 0;
}
