/*
** exec_subquery.c — queries inside queries: the rows of a derived table, a
** view or a compound's side (sql_op_subquery), and the value of a subquery
** in an expression (sql_eval_subquery).
**
** A sub-query is a bound query of its own, so it runs as an execution of
** its own (sql_exec: its slots, its operator tree) sharing the statement's
** parameters, cancel flag and clock.  sql_op_subquery wraps that tree as
** an operator: its chunks pass through without copying, only the columns
** asked for, converted when the enclosing query reads them as another type
** (a UNION's shared type).
**
** Subqueries in expressions: an uncorrelated one (no outer values) runs
** once per execution, the first time it is evaluated, and its result is
** kept: the scalar value, whether a row exists, or the set of values IN
** looks up (a hash set of the values read as the comparison's type).  A
** correlated one is run again for each row evaluated, with that row's
** outer values bound as the sub-query's constants (SQL_E_OUTER): a plain
** nested-loop re-execution, correct for any shape but as slow as the outer
** row count times the sub-query.  Results of scalar and EXISTS subqueries
** are remembered by their outer values (up to MEMO_MAX of them), so rows
** repeating outer values run nothing; IN reuses the last run when
** consecutive rows have the same outer values.
*/
#include "affinity.h"
#include "exec.h"
#include "collate.h"
#include "value.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* The sub-query operator                                                    */
/* ------------------------------------------------------------------------ */

typedef struct sub_op {
    sql_operator base;
    sql_exec sx;              /* the sub-query's execution */
    bool live;
    sql_operator *top;
    uint32_t ncols;
    const uint32_t *cols;     /* NULL: 0 .. ncols-1 */
    const sql_type *types;    /* NULL: as they come */
    lt_batch shell;           /* the columns handed out */
    lt_vector *conv;          /* per column: converted values */
    lt_vector *untag;         /* per column: tagged rows read as the column's type */
    lt_arena text;            /* converted text, reset per chunk */
} sub_op;

static int oom(lt_error *err)
{
    return lt_error_set(err, "HY001", "out of memory for a subquery");
}

static bool same_type(const lt_vector *v, const sql_type *t)
{
    if (t->dynamic)
        return v->type == LT_TEXT; /* its tagged rows pass as they are */
    lt_type want = t->type == LT_NULL ? LT_TEXT : t->type;
    return v->type == want && (want != LT_DECIMAL || v->scale == t->scale);
}

/* A dynamically typed column (sql_type.dynamic): text rows as they are,
** every other value tagged with its own type. */
static int tag_column(sub_op *s, uint32_t c, const lt_vector *src, const uint32_t *sel,
                      uint32_t n, lt_error *err)
{
    lt_vector *v = &s->conv[c];
    if (v->nulls == NULL) {
        if (sql_vector_alloc(&s->sx.arena, v, LT_TEXT, 0, LT_BATCH_ROWS) != 0 ||
            (v->tags = lt_arena_alloc(&s->sx.arena, LT_BATCH_ROWS)) == NULL ||
            (v->other = lt_arena_alloc(&s->sx.arena, LT_BATCH_ROWS * sizeof *v->other)) == NULL)
            return oom(err);
        memset(v->tags, 0, LT_BATCH_ROWS);
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        lt_value x;
        sql_vector_get(src, row, &x);
        v->nulls[row] = x.type == LT_NULL;
        v->tags[row] = x.type == LT_TEXT || x.type == LT_NULL ? LT_NULL : (uint8_t)x.type;
        if (x.type == LT_TEXT)
            v->v.bytes[row] = x.u.bytes;
        else
            v->other[row] = x;
    }
    return 0;
}

/* Rows of src tagged with another type than its own (SQLite: 'abc' or 2.5
** in an INTEGER column) keep their value in dst, converted to dst's type
** (src converted there, the tagged rows as NULL): a number where dst is
** DOUBLE, anything of dst's type as it is, any other value tagged with its
** own type, as SQLite keeps each value's storage class. */
static int retag_column(sub_op *s, lt_vector *dst, const lt_vector *src, const uint32_t *sel,
                        uint32_t n, lt_error *err)
{
    if (dst->tags == NULL &&
        ((dst->tags = lt_arena_alloc(&s->sx.arena, LT_BATCH_ROWS)) == NULL ||
         (dst->other = lt_arena_alloc(&s->sx.arena, LT_BATCH_ROWS * sizeof *dst->other)) == NULL))
        return oom(err);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        dst->tags[row] = LT_NULL;
        if (src->nulls[row] || src->tags[row] == LT_NULL)
            continue;
        lt_value x = src->other[row];
        dst->nulls[row] = 0;
        if (dst->type == LT_DOUBLE && (x.type == LT_INT64 || x.type == LT_DECIMAL ||
                                       x.type == LT_DOUBLE || x.type == LT_BOOL)) {
            dst->v.f64[row] = x.type == LT_INT64    ? (double)x.u.i64
                            : x.type == LT_DECIMAL ? sql_decimal_to_double(x.u.dec, x.scale)
                            : x.type == LT_BOOL    ? (double)x.u.b
                                                   : x.u.f64;
        } else if (x.type == dst->type && (x.type != LT_DECIMAL || x.scale == dst->scale)) {
            sql_vector_set(dst, row, &x);
        } else {
            dst->tags[row] = (uint8_t)x.type;
            dst->other[row] = x;
        }
    }
    return 0;
}

/* Column c of the chunk, converted to types[c]. */
static int convert_column(sub_op *s, uint32_t c, const lt_vector *src, const uint32_t *sel,
                          uint32_t n, lt_error *err)
{
    if (s->types[c].dynamic)
        return tag_column(s, c, src, sel, n, err);
    static const sql_type as_text = {LT_TEXT, 0, 0, true, false};
    lt_arena *a = &s->sx.arena;
    const sql_type *t = &s->types[c];
    lt_type want = t->type == LT_NULL ? LT_TEXT : t->type;
    if (s->conv[c].nulls == NULL &&
        sql_vector_alloc(a, &s->conv[c], want, want == LT_DECIMAL ? t->scale : 0, LT_BATCH_ROWS) != 0)
        return oom(err);
    const lt_vector *tagged = src->tags != NULL ? src : NULL;
    if (tagged != NULL) {
        if (s->untag[c].nulls == NULL &&
            sql_vector_alloc(a, &s->untag[c], src->type, src->scale, LT_BATCH_ROWS) != 0)
            return oom(err);
        sql_vector_untag(&s->untag[c], src, sel, n);
        src = &s->untag[c];
    }
    int rc = 0;
    if (src->type == LT_NULL) {
        for (uint32_t i = 0; i < n; i++)
            s->conv[c].nulls[sel[i]] = 1;
    } else if (want == LT_TEXT) {
        rc = sql_cast_vector(src, sel, n, &as_text, false, &s->conv[c], &s->text, err);
    } else {
        rc = sql_convert_vector(src, sel, n, &s->conv[c], err);
    }
    if (rc == 0 && tagged != NULL)
        rc = retag_column(s, &s->conv[c], tagged, sel, n, err);
    else if (rc == 0 && s->conv[c].tags != NULL) /* an earlier chunk's */
        for (uint32_t i = 0; i < n; i++)
            s->conv[c].tags[sel[i]] = LT_NULL;
    return rc;
}

static int sub_next(sql_operator *op, sql_chunk *out, lt_error *err)
{
    sub_op *s = (sub_op *)op;
    sql_chunk in;
    out->batch = &s->shell;
    out->sel = NULL;
    out->n = 0;
    s->shell.count = 0;
    if (sql_next(s->top, &in, err) != 0)
        return -1;
    if (in.n == 0)
        return 0;
    const uint32_t *sel = in.sel ? in.sel : s->sx.identity;
    lt_arena_reset(&s->text);
    for (uint32_t c = 0; c < s->ncols; c++) {
        const lt_vector *src = &in.batch->cols[s->cols ? s->cols[c] : c];
        if (s->types != NULL && !same_type(src, &s->types[c])) {
            if (convert_column(s, c, src, sel, in.n, err) != 0)
                return -1;
            s->shell.cols[c] = s->conv[c];
        } else {
            s->shell.cols[c] = *src;
        }
    }
    s->shell.count = in.batch->count;
    s->shell.capacity = in.batch->capacity;
    out->sel = in.sel;
    out->n = in.n;
    return 0;
}

static void sub_close(sql_operator *op)
{
    sub_op *s = (sub_op *)op;
    sql_close(s->top);
    if (s->live)
        sql_exec_free(&s->sx);
    lt_arena_free(&s->text);
    free(s);
}

int sql_op_subquery(sql_exec *ex, sql_query *q, const lt_value *outer, const uint32_t *cols,
                    uint32_t ncols, const sql_type *types, sql_operator **out, lt_error *err)
{
    /* Not from ex's arena: a correlated subquery opens one per outer row. */
    sub_op *s = calloc(1, sizeof *s);
    if (s == NULL)
        return oom(err);
    s->base.next = sub_next;
    s->base.close = sub_close;
    s->base.ex = ex;
    s->ncols = ncols;
    s->cols = cols;
    s->types = types;
    lt_arena_init(&s->text);
    s->live = true;
    if (sql_exec_init_outer(&s->sx, q, ex->params, outer, ex->cancel, err) != 0)
        goto fail;
    s->sx.now = ex->now;
    s->sx.budget = ex->budget; /* one MemoryLimit for the whole statement */
    lt_arena *a = &s->sx.arena;
    s->shell.ncols = ncols;
    s->shell.cols = lt_arena_alloc(a, (ncols + 1) * sizeof *s->shell.cols);
    s->conv = lt_arena_alloc(a, (ncols + 1) * sizeof *s->conv);
    s->untag = lt_arena_alloc(a, (ncols + 1) * sizeof *s->untag);
    if (s->shell.cols == NULL || s->conv == NULL || s->untag == NULL) {
        oom(err);
        goto fail;
    }
    memset(s->conv, 0, (ncols + 1) * sizeof *s->conv);
    memset(s->untag, 0, (ncols + 1) * sizeof *s->untag);
    if (sql_plan_open(&s->sx, &s->top, err) != 0)
        goto fail;
    *out = &s->base;
    return 0;
fail:
    sub_close(&s->base);
    return -1;
}

/* ------------------------------------------------------------------------ */
/* Subqueries in expressions                                                 */
/* ------------------------------------------------------------------------ */

/* Remembered results of a correlated scalar or EXISTS subquery. */
#define MEMO_MAX 4096

typedef struct memo_entry {
    lt_value *outer;          /* the outer values (text in the execution arena) */
    uint64_t hash;
    lt_value scalar;
    bool exists;
} memo_entry;

/* A hash set of cells of one type; `group` (pairs) ties each to a key. */
typedef struct semi_set {
    lt_vector items;
    uint32_t *group;          /* pairs only */
    uint32_t n, cap;
    uint32_t *table;          /* item + 1, 0 empty */
    uint32_t mask;
} semi_set;

typedef struct sql_subq_state {
    bool done;                /* uncorrelated: the result below is known */
    bool have_last;           /* correlated: last_outer and the result are of one run
                              ** of this batch (their text is in the slot's arena) */
    lt_value *last_outer;     /* correlated: the outer values of the last run */
    lt_value scalar;          /* SUBQUERY */
    bool exists;              /* EXISTS */
    /* IN (SELECT): the distinct non-NULL values, as the comparison reads
    ** them, in a hash set; `has_null` when some value is NULL. */
    lt_vector items;
    uint32_t nitems, cap;
    uint32_t *table;          /* item + 1, 0 empty */
    uint32_t mask;
    bool has_null;
    lt_value *outer;          /* the outer values of the row being evaluated */
    const lt_vector **args;   /* the outer expressions' vectors */
    memo_entry *memo;         /* correlated scalar, EXISTS: nmemo results */
    uint32_t nmemo;
    uint32_t *memo_table;     /* entry + 1, 0 empty; 2 * MEMO_MAX slots */
    /* Semi-join (query.h `semi`): 0 undecided, 1 built, -1 not used. */
    int semi;
    semi_set keys;            /* the keys with a row */
    semi_set pairs;           /* IN: the distinct (key, non-NULL value) */
    uint8_t *key_null;        /* IN: per key, some value NULL */
    lt_vector kconv, yconv;   /* the build's key and value, converted */
    lt_vector oconv;          /* the outer key, converted */
    uint64_t held;            /* budget taken */
    /* IN (SELECT) compared by SQLite's affinity (sql_expr.affinity_cmp):
    ** both sides as keys (affinity.h), the set holding the sub-query's. */
    lt_vector xkeys, ckeys;
} sql_subq_state;

static sql_subq_state *state_of(sql_exec *ex, const sql_expr *e, uint32_t nouter, lt_error *err)
{
    sql_slot *slot = &ex->slots[e->slot];
    if (slot->subq != NULL)
        return slot->subq;
    sql_subq_state *st = lt_arena_alloc(&ex->arena, sizeof *st);
    if (st == NULL) {
        oom(err);
        return NULL;
    }
    memset(st, 0, sizeof *st);
    st->outer = lt_arena_alloc(&ex->arena, (nouter + 1) * sizeof *st->outer);
    st->last_outer = lt_arena_alloc(&ex->arena, (nouter + 1) * sizeof *st->last_outer);
    st->args = lt_arena_alloc(&ex->arena, (nouter + 1) * sizeof *st->args);
    if (st->outer == NULL || st->last_outer == NULL || st->args == NULL) {
        oom(err);
        return NULL;
    }
    slot->subq = st;
    return st;
}

/* The type IN compares the sub-query's values as. */
static sql_type in_type(const sql_expr *sub)
{
    sql_type t = sub->t;
    if (sub->conv) {
        t.type = sub->want;
        t.scale = sub->want_scale;
    }
    return t;
}

/* Open the sub-query of SUBQUERY node `sub` with the outer values. */
static int open_sub(sql_exec *ex, const sql_expr *sub, const lt_value *outer, uint32_t ncols,
                    const sql_type *types, sql_operator **op, lt_error *err)
{
    return sql_op_subquery(ex, sub->subq, sub->nargs > 0 ? outer : NULL, NULL, ncols, types, op,
                           err);
}

/* The one value of a scalar subquery (NULL when no row; 21000 past one),
** text copied into `keep`. */
static int run_scalar(sql_exec *ex, const sql_expr *e, const lt_value *outer, lt_value *val,
                      lt_arena *keep, lt_error *err)
{
    sql_operator *op;
    if (open_sub(ex, e, outer, 1, NULL, &op, err) != 0)
        return -1;
    uint64_t rows = 0;
    memset(val, 0, sizeof *val);
    for (;;) {
        sql_chunk ch;
        if (sql_next(op, &ch, err) != 0)
            goto fail;
        if (ch.n == 0)
            break;
        rows += ch.n;
        if (rows > 1) {
            lt_error_set(err, "21000", "a subquery used as a value returned more than one row");
            sql_error_at(err, e);
            goto fail;
        }
        lt_value v;
        sql_vector_get(&ch.batch->cols[0], ch.sel ? ch.sel[0] : 0, &v);
        if (v.type != LT_NULL && v.type != e->t.type) {
            lt_value conv;
            if (sql_convert_value(&v, e->t.type, e->t.scale, &conv, NULL) != 0)
                conv.type = LT_NULL; /* a dynamically typed value that does not convert */
            v = conv;
        }
        if (v.type == LT_DECIMAL)
            v.scale = ch.batch->cols[0].type == LT_DECIMAL ? ch.batch->cols[0].scale : e->t.scale;
        if ((v.type == LT_TEXT || v.type == LT_BINARY) && v.u.bytes.len > 0) {
            char *copy = lt_arena_strndup(keep, v.u.bytes.ptr, v.u.bytes.len);
            if (copy == NULL) {
                oom(err);
                goto fail;
            }
            v.u.bytes.ptr = copy;
        }
        *val = v;
    }
    sql_close(op);
    return 0;
fail:
    sql_close(op);
    return -1;
}

static int run_exists(sql_exec *ex, const sql_expr *e, const lt_value *outer, bool *found,
                      lt_error *err)
{
    sql_operator *op;
    sql_chunk ch;
    if (open_sub(ex, e, outer, 0, NULL, &op, err) != 0)
        return -1;
    int rc = sql_next(op, &ch, err);
    *found = rc == 0 && ch.n > 0;
    sql_close(op);
    return rc;
}

/* IN's value set: add item `row` of `v` unless already there. */
static int set_add(sql_exec *ex, sql_subq_state *st, const lt_vector *v, uint32_t row,
                   lt_arena *keep, lt_error *err)
{
    lt_arena *a = &ex->arena;
    if (v->nulls[row]) {
        st->has_null = true;
        return 0;
    }
    if (st->table != NULL) {
        uint32_t h = (uint32_t)sql_hash_cell(v, row, 0) & st->mask;
        for (; st->table[h] != 0; h = (h + 1) & st->mask)
            if (sql_compare_cells(v, row, &st->items, st->table[h] - 1) == 0)
                return 0;
    }
    if (st->nitems == st->cap) {
        uint32_t cap = st->cap ? st->cap * 2 : 64;
        lt_vector grown;
        if (st->cap >= UINT32_MAX / 4 || sql_vector_alloc(a, &grown, v->type, v->scale, cap) != 0)
            return oom(err);
        for (uint32_t i = 0; i < st->nitems; i++)
            sql_vector_copy_cell(&grown, i, &st->items, i);
        st->items = grown;
        st->cap = cap;
        uint32_t size = 4 * cap;
        st->table = lt_arena_alloc(a, size * sizeof *st->table);
        if (st->table == NULL)
            return oom(err);
        memset(st->table, 0, size * sizeof *st->table);
        st->mask = size - 1;
        for (uint32_t i = 0; i < st->nitems; i++) {
            uint32_t h = (uint32_t)sql_hash_cell(&st->items, i, 0) & st->mask;
            while (st->table[h] != 0)
                h = (h + 1) & st->mask;
            st->table[h] = i + 1;
        }
    }
    uint32_t i = st->nitems++;
    sql_vector_copy_cell(&st->items, i, v, row);
    if (v->type == LT_TEXT || v->type == LT_BINARY) {
        lt_bytes *b = &st->items.v.bytes[i];
        char *copy = lt_arena_strndup(keep, b->len ? b->ptr : "", b->len);
        if (copy == NULL)
            return oom(err);
        b->ptr = copy;
    }
    uint32_t h = (uint32_t)sql_hash_cell(&st->items, i, 0) & st->mask;
    while (st->table[h] != 0)
        h = (h + 1) & st->mask;
    st->table[h] = i + 1;
    return 0;
}

/* The affinity x IN (SELECT c) applies to both sides (SQLite: x's, with
** c's). */
static uint8_t in_affinity(const sql_expr *e)
{
    return sql_affinity_pair(e->left->affinity, e->right->affinity);
}

/* Keys of rows sel[0..n) of `v` (operand e, or e NULL: a sub-query's
** column) into `keys` (allocated once), their bytes in `arena`. */
static const lt_vector *as_keys(sql_exec *ex, const sql_expr *e, const sql_expr *in_node,
                                const lt_batch *in, const lt_vector *v, const uint32_t *sel,
                                uint32_t n, lt_vector *keys, lt_arena *arena, lt_error *err)
{
    if (keys->nulls == NULL &&
        sql_vector_alloc(&ex->arena, keys, LT_TEXT, 0, LT_BATCH_ROWS) != 0) {
        oom(err);
        return NULL;
    }
    if (sql_affinity_keys(e, in, v, in_affinity(in_node), sel, n, keys, arena) != 0) {
        oom(err);
        return NULL;
    }
    return keys;
}

/* Put the values of one chunk of the sub-query's column into the set
** (as keys when SQLite's affinity compares them; their bytes then go
** through `scratch`, the set copying them into `keep`). */
static int add_chunk(sql_exec *ex, const sql_expr *e, sql_subq_state *st, const sql_chunk *ch,
                     lt_arena *keep, lt_arena *scratch, lt_error *err)
{
    const lt_vector *v = &ch->batch->cols[0];
    const uint32_t *sel = ch->sel ? ch->sel : ex->identity;
    if (e->affinity_cmp) {
        lt_arena_reset(scratch);
        if ((v = as_keys(ex, NULL, e, NULL, v, sel, ch->n, &st->ckeys, scratch, err)) == NULL)
            return -1;
    }
    for (uint32_t i = 0; i < ch->n; i++)
        if (set_add(ex, st, v, sel[i], keep, err) != 0)
            return -1;
    return 0;
}

/* Run the sub-query of IN once and keep its values. */
static int build_set(sql_exec *ex, const sql_expr *e, sql_subq_state *st, lt_error *err)
{
    const sql_expr *sub = e->right;
    sql_type t = in_type(sub);
    sql_operator *op;
    lt_arena scratch;
    lt_arena_init(&scratch);
    if (open_sub(ex, sub, NULL, 1, &t, &op, err) != 0)
        goto fail_open;
    for (;;) {
        sql_chunk ch;
        if (sql_next(op, &ch, err) != 0)
            goto fail;
        if (ch.n == 0)
            break;
        if (add_chunk(ex, e, st, &ch, &ex->arena, &scratch, err) != 0)
            goto fail;
    }
    sql_close(op);
    lt_arena_free(&scratch);
    return 0;
fail:
    sql_close(op);
fail_open:
    lt_arena_free(&scratch);
    return -1;
}

static bool set_has(const sql_subq_state *st, const lt_vector *x, uint32_t row)
{
    if (st->table == NULL)
        return false;
    uint32_t h = (uint32_t)sql_hash_cell(x, row, 0) & st->mask;
    for (; st->table[h] != 0; h = (h + 1) & st->mask)
        if (sql_compare_cells(x, row, &st->items, st->table[h] - 1) == 0)
            return true;
    return false;
}

/* x IN set: TRUE when found; else NULL when x is NULL (and the set is not
** empty) or the set holds a NULL; else FALSE.  NOT IN negates TRUE/FALSE. */
static void in_result(const sql_expr *e, const sql_subq_state *st, const lt_vector *x,
                      uint32_t row, lt_vector *out)
{
    bool empty = st->nitems == 0 && !st->has_null;
    bool xnull = x->type == LT_NULL || x->nulls[row];
    bool found = !empty && !xnull && set_has(st, x, row);
    out->nulls[row] = !empty && !found && (xnull || st->has_null);
    out->v.b[row] = !out->nulls[row] && found != e->negated;
}

/* Correlated IN for one row: the sub-query's values for its outer values. */
static int run_in_row(sql_exec *ex, const sql_expr *e, sql_subq_state *st, const lt_value *outer,
                      lt_arena *keep, lt_error *err)
{
    st->nitems = 0;
    st->has_null = false;
    if (st->table != NULL)
        memset(st->table, 0, (st->mask + 1) * sizeof *st->table);
    const sql_expr *sub = e->right;
    sql_type t = in_type(sub);
    sql_operator *op;
    lt_arena scratch;
    lt_arena_init(&scratch);
    if (open_sub(ex, sub, outer, 1, &t, &op, err) != 0)
        goto fail_open;
    for (;;) {
        sql_chunk ch;
        if (sql_next(op, &ch, err) != 0)
            goto fail;
        if (ch.n == 0)
            break;
        if (add_chunk(ex, e, st, &ch, keep, &scratch, err) != 0)
            goto fail;
    }
    sql_close(op);
    lt_arena_free(&scratch);
    return 0;
fail:
    sql_close(op);
fail_open:
    lt_arena_free(&scratch);
    return -1;
}

/* The value a row gives one cell of a result. */
static void put_value(lt_vector *out, uint32_t row, const lt_value *v)
{
    out->nulls[row] = v->type == LT_NULL;
    if (v->type != LT_NULL)
        sql_vector_set(out, row, v);
}

static bool same_outer(const lt_value *a, const lt_value *b, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (a[i].type != b[i].type)
            return false;
        if (a[i].type == LT_NULL)
            continue;
        switch (a[i].type) {
        case LT_TEXT:
        case LT_BINARY:
            if (a[i].u.bytes.len != b[i].u.bytes.len ||
                (a[i].u.bytes.len && memcmp(a[i].u.bytes.ptr, b[i].u.bytes.ptr, a[i].u.bytes.len) != 0))
                return false;
            break;
        case LT_DECIMAL:
            if (a[i].scale != b[i].scale || a[i].u.dec != b[i].u.dec)
                return false;
            break;
        case LT_BOOL:
            if (a[i].u.b != b[i].u.b)
                return false;
            break;
        case LT_DATE:
            if (a[i].u.date != b[i].u.date)
                return false;
            break;
        case LT_DOUBLE:
            if (a[i].u.f64 != b[i].u.f64)
                return false;
            break;
        case LT_GUID:
            if (memcmp(&a[i].u.guid, &b[i].u.guid, sizeof a[i].u.guid) != 0)
                return false;
            break;
        default: /* INT64, TIME, TIMESTAMP */
            if (a[i].u.i64 != b[i].u.i64)
                return false;
            break;
        }
    }
    return true;
}

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * UINT64_C(1099511628211);
    return h;
}

/* A hash agreeing with same_outer. */
static uint64_t hash_outer(const lt_value *v, uint32_t n)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (uint32_t i = 0; i < n; i++) {
        unsigned char type = (unsigned char)v[i].type;
        h = mix(h, &type, 1);
        switch (v[i].type) {
        case LT_NULL:
            break;
        case LT_TEXT:
        case LT_BINARY:
            h = mix(h, v[i].u.bytes.ptr, v[i].u.bytes.len);
            break;
        case LT_DECIMAL:
            h = mix(h, &v[i].u.dec, sizeof v[i].u.dec);
            h = mix(h, &v[i].scale, sizeof v[i].scale);
            break;
        case LT_BOOL:
            h = mix(h, &v[i].u.b, sizeof v[i].u.b);
            break;
        case LT_DATE:
            h = mix(h, &v[i].u.date, sizeof v[i].u.date);
            break;
        case LT_DOUBLE: {
            double d = v[i].u.f64 == 0 ? 0 : v[i].u.f64; /* -0 equals 0 */
            h = mix(h, &d, sizeof d);
            break;
        }
        case LT_GUID:
            h = mix(h, &v[i].u.guid, sizeof v[i].u.guid);
            break;
        default:
            h = mix(h, &v[i].u.i64, sizeof v[i].u.i64);
            break;
        }
    }
    return h;
}

static memo_entry *memo_find(const sql_subq_state *st, uint32_t n, uint64_t h)
{
    if (st->memo_table == NULL)
        return NULL;
    uint32_t mask = 2 * MEMO_MAX - 1;
    for (uint32_t i = (uint32_t)h & mask; st->memo_table[i] != 0; i = (i + 1) & mask) {
        memo_entry *m = &st->memo[st->memo_table[i] - 1];
        if (m->hash == h && same_outer(m->outer, st->outer, n))
            return m;
    }
    return NULL;
}

/* Remember the result just computed (its text already in ex's arena). */
static int memo_add(sql_exec *ex, sql_subq_state *st, uint32_t n, uint64_t h, lt_error *err)
{
    lt_arena *a = &ex->arena;
    if (st->memo_table == NULL) {
        st->memo = lt_arena_alloc(a, MEMO_MAX * sizeof *st->memo);
        st->memo_table = lt_arena_alloc(a, 2 * MEMO_MAX * sizeof *st->memo_table);
        if (st->memo == NULL || st->memo_table == NULL)
            return oom(err);
        memset(st->memo_table, 0, 2 * MEMO_MAX * sizeof *st->memo_table);
    }
    memo_entry *m = &st->memo[st->nmemo];
    if ((m->outer = lt_arena_alloc(a, (n + 1) * sizeof *m->outer)) == NULL)
        return oom(err);
    for (uint32_t i = 0; i < n; i++) {
        m->outer[i] = st->outer[i];
        lt_value *v = &m->outer[i];
        if ((v->type == LT_TEXT || v->type == LT_BINARY) && v->u.bytes.len > 0 &&
            (v->u.bytes.ptr = lt_arena_strndup(a, v->u.bytes.ptr, v->u.bytes.len)) == NULL)
            return oom(err);
    }
    m->hash = h;
    m->scalar = st->scalar;
    m->exists = st->exists;
    uint32_t mask = 2 * MEMO_MAX - 1, i = (uint32_t)h & mask;
    while (st->memo_table[i] != 0)
        i = (i + 1) & mask;
    st->memo_table[i] = ++st->nmemo;
    return 0;
}

/* Keep a row's outer values to recognise the next row with the same ones. */
static int remember_outer(sql_subq_state *st, uint32_t n, lt_arena *text, lt_error *err)
{
    for (uint32_t i = 0; i < n; i++) {
        st->last_outer[i] = st->outer[i];
        lt_value *v = &st->last_outer[i];
        if ((v->type == LT_TEXT || v->type == LT_BINARY) && v->u.bytes.len > 0) {
            char *copy = lt_arena_strndup(text, v->u.bytes.ptr, v->u.bytes.len);
            if (copy == NULL)
                return oom(err);
            v->u.bytes.ptr = copy;
        }
    }
    st->have_last = true;
    return 0;
}

/* The SUBQUERY node a node runs (itself, EXISTS's or IN's operand). */
static const sql_expr *sub_node(const sql_expr *e)
{
    return e->kind == SQL_E_SUBQUERY ? e : e->kind == SQL_E_EXISTS ? e->left : e->right;
}

/* One run for the outer values in st->outer, into st (scalar, exists or
** the IN set); `keep` holds a scalar's text. */
static int run_once(sql_exec *ex, const sql_expr *e, sql_subq_state *st, lt_arena *keep,
                    lt_error *err)
{
    switch (e->kind) {
    case SQL_E_SUBQUERY:
        return run_scalar(ex, e, st->outer, &st->scalar, keep, err);
    case SQL_E_EXISTS:
        return run_exists(ex, e->left, st->outer, &st->exists, err);
    default:
        return run_in_row(ex, e, st, st->outer, keep, err);
    }
}

static void put_result(const sql_expr *e, const sql_subq_state *st, const lt_vector *x,
                       uint32_t row, lt_vector *out)
{
    switch (e->kind) {
    case SQL_E_SUBQUERY:
        put_value(out, row, &st->scalar);
        break;
    case SQL_E_EXISTS:
        out->nulls[row] = 0;
        out->v.b[row] = st->exists != e->negated;
        break;
    default:
        in_result(e, st, x, row, out);
        break;
    }
}

/* ------------------------------------------------------------------------ */
/* Semi-join: a correlated EXISTS / IN of the shape planner.c decorrelates   */
/* ------------------------------------------------------------------------ */

/* Its sub-query (query.h `semi`) runs once: the keys that have a row go
** into a hash set (IN: with the distinct values of each key, and whether
** one is NULL), and each outer row probes it.  The key and the outer value
** are compared as their `=` reads them; a NULL key has no row.  IN's
** values that SQLite's affinity compares go into the set as their keys
** (affinity.h), as the outer value is probed.  The path is left for the
** nested runs when a key is dynamically typed (SQLite's comparison rules)
** or text compares without case (Access). */

#define NO_ITEM UINT32_MAX

static uint32_t semi_find(const semi_set *s, const lt_vector *v, uint32_t row, uint32_t group)
{
    if (s->table == NULL)
        return NO_ITEM;
    uint32_t h = (uint32_t)sql_hash_cell(v, row, group) & s->mask;
    for (; s->table[h] != 0; h = (h + 1) & s->mask) {
        uint32_t i = s->table[h] - 1;
        if ((s->group == NULL || s->group[i] == group) &&
            sql_compare_cells(v, row, &s->items, i) == 0)
            return i;
    }
    return NO_ITEM;
}

static void semi_place(semi_set *s, uint32_t i)
{
    uint32_t h = (uint32_t)sql_hash_cell(&s->items, i, s->group ? s->group[i] : 0) & s->mask;
    while (s->table[h] != 0)
        h = (h + 1) & s->mask;
    s->table[h] = i + 1;
}

/* Double the set's room (memory from the budget). */
static int semi_grow(sql_exec *ex, sql_subq_state *st, semi_set *s, const lt_vector *v,
                     bool pairs, lt_error *err)
{
    lt_arena *a = &ex->arena;
    uint32_t cap = s->cap ? s->cap * 2 : 256;
    lt_vector grown;
    if (s->cap >= UINT32_MAX / 8)
        return oom(err);
    uint64_t bytes = (uint64_t)cap * (sizeof(lt_value) + 1 + 4 * sizeof *s->table +
                                      (pairs ? sizeof *s->group : 1));
    if (sql_budget_take(ex->budget, bytes, "hash the rows of a subquery", &st->held, err) != 0)
        return -1;
    if (sql_vector_alloc(a, &grown, v->type, v->scale, cap) != 0)
        return oom(err);
    for (uint32_t i = 0; i < s->n; i++)
        sql_vector_copy_cell(&grown, i, &s->items, i);
    uint32_t *group = NULL;
    if (pairs) {
        if ((group = lt_arena_alloc(a, cap * sizeof *group)) == NULL)
            return oom(err);
        if (s->n > 0)
            memcpy(group, s->group, s->n * sizeof *group);
    } else {
        uint8_t *flags = lt_arena_alloc(a, cap);
        if (flags == NULL)
            return oom(err);
        memset(flags, 0, cap);
        if (s->n > 0)
            memcpy(flags, st->key_null, s->n);
        st->key_null = flags;
    }
    s->table = lt_arena_alloc(a, 4 * (size_t)cap * sizeof *s->table);
    if (s->table == NULL)
        return oom(err);
    memset(s->table, 0, 4 * (size_t)cap * sizeof *s->table);
    s->items = grown;
    s->group = group;
    s->cap = cap;
    s->mask = 4 * cap - 1;
    for (uint32_t i = 0; i < s->n; i++)
        semi_place(s, i);
    return 0;
}

/* The item of cell `row` of v (added when new) into *out. */
static int semi_add(sql_exec *ex, sql_subq_state *st, semi_set *s, const lt_vector *v,
                    uint32_t row, uint32_t group, bool pairs, uint32_t *out, lt_error *err)
{
    uint32_t i = semi_find(s, v, row, group);
    if (i == NO_ITEM) {
        if (s->n == s->cap && semi_grow(ex, st, s, v, pairs, err) != 0)
            return -1;
        i = s->n++;
        sql_vector_copy_cell(&s->items, i, v, row);
        if (v->type == LT_TEXT || v->type == LT_BINARY) {
            lt_bytes *b = &s->items.v.bytes[i];
            if (sql_budget_take(ex->budget, b->len, "hash the rows of a subquery", &st->held,
                                err) != 0)
                return -1;
            char *copy = lt_arena_strndup(&ex->arena, b->len ? b->ptr : "", b->len);
            if (copy == NULL)
                return oom(err);
            b->ptr = copy;
        }
        if (pairs)
            s->group[i] = group;
        semi_place(s, i);
    }
    if (out != NULL)
        *out = i;
    return 0;
}

/* The type `side` of the correlated `=` is compared as. */
static sql_type semi_side_type(const sql_expr *side)
{
    sql_type t = side->t;
    if (side->conv) {
        t.type = side->want;
        t.scale = side->want_scale;
    }
    return t;
}

/* Rows `sel` of `v` as type `t` into `conv` (or v itself when of that
** type); NULL when v is dynamically typed or would need a text cast. */
static const lt_vector *semi_as(sql_exec *ex, const lt_vector *v, const sql_type *t,
                                const uint32_t *sel, uint32_t n, lt_vector *conv,
                                lt_error *err, int *rc)
{
    *rc = 0;
    if (v->tags != NULL)
        return NULL;
    if (v->type == t->type && (t->type != LT_DECIMAL || v->scale == t->scale))
        return v;
    if (t->type == LT_TEXT || t->type == LT_BINARY)
        return NULL;
    if (conv->nulls == NULL &&
        sql_vector_alloc(&ex->arena, conv, t->type, t->scale, LT_BATCH_ROWS) != 0) {
        *rc = oom(err);
        return NULL;
    }
    if (v->type == LT_NULL) {
        for (uint32_t i = 0; i < n; i++)
            conv->nulls[sel[i]] = 1;
        return conv;
    }
    if (sql_convert_vector(v, sel, n, conv, err) != 0) {
        *rc = -1;
        return NULL;
    }
    return conv;
}

/* Decide whether e runs as a semi-join, and build its set when it does. */
static int semi_build(sql_exec *ex, const sql_expr *e, sql_subq_state *st, sql_type *kt,
                      lt_error *err)
{
    const sql_expr *sub = sub_node(e);
    const sql_query *q = sub->subq;
    st->semi = -1;
    if (q->semi == NULL)
        return 0;
    const sql_expr *c = q->conj[q->semi_conj];
    const sql_expr *key = q->semi_left ? c->left : c->right;
    const sql_expr *outer = q->semi_left ? c->right : c->left;
    *kt = semi_side_type(key);
    sql_type ot = semi_side_type(outer);
    if (kt->type != ot.type || (kt->type == LT_DECIMAL && kt->scale != ot.scale))
        return 0;
    switch (kt->type) {
    case LT_INT64: case LT_DOUBLE: case LT_DECIMAL: case LT_DATE: case LT_TIME:
    case LT_TIMESTAMP: case LT_BOOL:
        break;
    case LT_TEXT:
        if (sql_text_nocase(ex))
            return 0;
        break;
    default:
        return 0;
    }
    bool in = e->kind == SQL_E_IN_SELECT;
    sql_type yt = in_type(sub);
    sql_operator *op;
    if (sql_op_subquery(ex, q->semi, NULL, NULL, in ? 2 : 1, NULL, &op, err) != 0)
        return -1;
    lt_arena scratch; /* the values' keys, per chunk, when SQLite's affinity compares them */
    lt_arena_init(&scratch);
    for (;;) {
        sql_chunk ch;
        int rc;
        if (sql_next(op, &ch, err) != 0)
            goto fail;
        if (ch.n == 0)
            break;
        const uint32_t *sel = ch.sel ? ch.sel : ex->identity;
        const lt_vector *k = semi_as(ex, &ch.batch->cols[0], kt, sel, ch.n, &st->kconv, err, &rc);
        const lt_vector *y = NULL;
        if (k != NULL && in && e->affinity_cmp) {
            /* as keys, like the outer value x (the pairs then hold keys) */
            lt_arena_reset(&scratch);
            y = as_keys(ex, NULL, e, NULL, &ch.batch->cols[1], sel, ch.n, &st->ckeys, &scratch, err);
            rc = y == NULL ? -1 : 0;
        } else if (k != NULL && in) {
            y = semi_as(ex, &ch.batch->cols[1], &yt, sel, ch.n, &st->yconv, err, &rc);
        }
        if (rc != 0)
            goto fail;
        if (k == NULL || (in && y == NULL)) { /* the nested runs answer */
            sql_close(op);
            lt_arena_free(&scratch);
            return 0;
        }
        for (uint32_t i = 0; i < ch.n; i++) {
            uint32_t row = sel[i], ki;
            if (k->type == LT_NULL || k->nulls[row])
                continue; /* a NULL key equals nothing */
            if (semi_add(ex, st, &st->keys, k, row, 0, false, &ki, err) != 0)
                goto fail;
            if (!in)
                continue;
            if (y->type == LT_NULL || y->nulls[row])
                st->key_null[ki] = 1;
            else if (semi_add(ex, st, &st->pairs, y, row, ki, true, NULL, err) != 0)
                goto fail;
        }
    }
    sql_close(op);
    lt_arena_free(&scratch);
    st->semi = 1;
    return 0;
fail:
    sql_close(op);
    lt_arena_free(&scratch);
    return -1;
}

/* Probe the set for rows `sel`; 1 when the outer key's vector cannot be
** probed (then nothing is written). */
static int semi_probe(sql_exec *ex, const sql_expr *e, sql_subq_state *st, const sql_type *kt,
                      const lt_vector *x, const uint32_t *sel, uint32_t n, lt_vector *out,
                      lt_error *err)
{
    int rc;
    const lt_vector *k = semi_as(ex, st->args[0], kt, sel, n, &st->oconv, err, &rc);
    if (rc != 0)
        return -1;
    if (k == NULL)
        return 1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        uint32_t ki = k->type == LT_NULL || k->nulls[row] ? NO_ITEM
                                                         : semi_find(&st->keys, k, row, 0);
        if (e->kind == SQL_E_EXISTS || ki == NO_ITEM) { /* no row: EXISTS, IN false */
            out->nulls[row] = 0;
            out->v.b[row] = (ki != NO_ITEM) != e->negated;
            continue;
        }
        bool xnull = x->type == LT_NULL || x->nulls[row];
        bool found = !xnull && semi_find(&st->pairs, x, row, ki) != NO_ITEM;
        out->nulls[row] = !found && (xnull || st->key_null[ki]);
        out->v.b[row] = !out->nulls[row] && found != e->negated;
    }
    return 0;
}

int sql_eval_subquery(sql_exec *ex, const sql_expr *e, const lt_batch *in,
                      const uint32_t *sel, uint32_t n, lt_vector *out, lt_error *err)
{
    const sql_expr *sub = sub_node(e);
    uint32_t nouter = sub->nargs;
    sql_subq_state *st = state_of(ex, e, nouter, err);
    const lt_vector *x = NULL;
    if (st == NULL)
        return -1;
    if (e->kind == SQL_E_IN_SELECT && sql_eval(ex, e->left, in, sel, n, &x, err) != 0)
        return -1;
    if (e->kind == SQL_E_IN_SELECT && e->affinity_cmp &&
        (x = as_keys(ex, e->left, e, in, x, sel, n, &st->xkeys, &ex->slots[e->slot].text,
                     err)) == NULL)
        return -1;
    if (nouter == 0) {
        if (!st->done) {
            int rc = e->kind == SQL_E_IN_SELECT ? build_set(ex, e, st, err)
                                                : run_once(ex, e, st, &ex->arena, err);
            if (rc != 0)
                return -1;
            st->done = true;
        }
        for (uint32_t i = 0; i < n; i++)
            put_result(e, st, x, sel[i], out);
        return 0;
    }
    /* Correlated: the outer expressions over these rows, then per row the
    ** remembered result or a run. */
    for (uint32_t k = 0; k < nouter; k++)
        if (sql_eval(ex, sub->args[k], in, sel, n, &st->args[k], err) != 0)
            return -1;
    if (e->kind != SQL_E_SUBQUERY && st->semi >= 0) {
        sql_type kt;
        if (st->semi == 0 && semi_build(ex, e, st, &kt, err) != 0)
            return -1;
        if (st->semi == 1) {
            const sql_expr *c = sub->subq->conj[sub->subq->semi_conj];
            kt = semi_side_type(sub->subq->semi_left ? c->left : c->right);
            int rc = semi_probe(ex, e, st, &kt, x, sel, n, out, err);
            if (rc <= 0)
                return rc;
            st->semi = -1; /* a dynamically typed outer value: the nested runs from now on */
        }
    }
    lt_arena *text = &ex->slots[e->slot].text; /* reset by sql_eval for each batch */
    st->have_last = false;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        if (sql_check_cancel(ex, err) != 0)
            return -1;
        for (uint32_t k = 0; k < nouter; k++) {
            const lt_vector *v = st->args[k];
            if (v->type == LT_NULL || v->nulls[row])
                memset(&st->outer[k], 0, sizeof st->outer[k]);
            else
                sql_vector_get(v, row, &st->outer[k]);
        }
        if (e->kind != SQL_E_IN_SELECT) {
            uint64_t h = hash_outer(st->outer, nouter);
            const memo_entry *m = memo_find(st, nouter, h);
            st->have_last = false; /* st's result is about to change */
            if (m != NULL) {
                st->scalar = m->scalar;
                st->exists = m->exists;
                put_result(e, st, x, row, out);
                continue;
            }
            if (st->nmemo < MEMO_MAX) {
                if (run_once(ex, e, st, &ex->arena, err) != 0 || memo_add(ex, st, nouter, h, err) != 0)
                    return -1;
                put_result(e, st, x, row, out);
                continue;
            }
        }
        if (!st->have_last || !same_outer(st->outer, st->last_outer, nouter)) {
            if (run_once(ex, e, st, text, err) != 0 || remember_outer(st, nouter, text, err) != 0)
                return -1;
        }
        put_result(e, st, x, row, out);
    }
    return 0;
}
