/*
** exec_setop.c — UNION [ALL], EXCEPT and INTERSECT over two children whose
** batches have the same column types (planner.c converts each side to the
** shared types).
**
** UNION ALL passes the left side's chunks, then the right side's.  The
** others give each distinct row once (NULL equal to NULL), in the order of
** first occurrence, with one row hash set (sql_rowset):
**   UNION      every row of both sides goes into the set; new ones pass.
**   EXCEPT     the right side is read into the set first (its rows are
**              stored rows 0 .. nright-1); a left row passes when inserting
**              it adds a row numbered nright or more (not on the right, not
**              passed before).
**   INTERSECT  the same set of the right side; a left row passes when it
**              is found among the first nright rows and that row has not
**              passed yet.
** Left rows missing from the right side stay in the set afterwards: that
** costs memory but keeps one structure and one lookup per row.
**
** EXCEPT ALL and INTERSECT ALL (multisets, as the SQL standard defines
** them) count the copies of each distinct right row while building the
** set; a left row is then only looked up (never stored):
**   INTERSECT ALL  passes while its right row has copies left, taking one
**                  (min(m, n) copies of a row pass);
**   EXCEPT ALL     is dropped while its right row has copies left, taking
**                  one, and passes otherwise (max(m - n, 0) copies).
** Left rows keep their order.
*/
#include "exec.h"

#include <stdlib.h>
#include <string.h>

typedef struct setop_op {
    sql_operator base;        /* child: the left side */
    sql_operator *rhs;
    sql_setop op;
    int side;                 /* 0 left, 1 right (UNION), 2 done */
    bool built;               /* EXCEPT, INTERSECT: the right side is in the set */
    sql_rowset set;
    bool set_live;
    uint32_t nright;          /* rows of the right side in the set */
    uint8_t *emitted;         /* INTERSECT: per right row, passed already */
    uint32_t *copies;         /* EXCEPT ALL, INTERSECT ALL: per right row, copies left */
    uint32_t copies_cap;
    uint64_t *hashes;         /* per row position of a chunk */
    uint32_t *sel;
} setop_op;

static int set_start(setop_op *s, const lt_batch *shape, lt_error *err)
{
    if (s->set_live)
        return 0;
    if (sql_rowset_init(&s->set, shape, shape->ncols, err) != 0)
        return -1;
    s->set_live = true;
    sql_rowstore_budget(&s->set.rows, s->base.ex->budget,
                        s->op == SQL_SET_EXCEPT          ? "combine the rows of EXCEPT"
                        : s->op == SQL_SET_INTERSECT     ? "combine the rows of INTERSECT"
                        : s->op == SQL_SET_EXCEPT_ALL    ? "combine the rows of EXCEPT ALL"
                        : s->op == SQL_SET_INTERSECT_ALL ? "combine the rows of INTERSECT ALL"
                                                         : "combine the rows of UNION");
    return 0;
}

static bool multiset(sql_setop op)
{
    return op == SQL_SET_EXCEPT_ALL || op == SQL_SET_INTERSECT_ALL;
}

/* One more copy of stored right row `at` (the count array grows within
** the budget). */
static int count_copy(setop_op *s, int64_t at, lt_error *err)
{
    if ((uint64_t)at >= s->copies_cap) {
        uint32_t cap = s->copies_cap ? 2 * s->copies_cap : 1024;
        while ((uint64_t)at >= cap)
            cap *= 2;
        if (sql_budget_take(s->base.ex->budget, (uint64_t)(cap - s->copies_cap) * sizeof *s->copies,
                            s->set.rows.what, &s->set.rows.held, err) != 0)
            return -1;
        uint32_t *c = realloc(s->copies, cap * sizeof *c);
        if (c == NULL)
            return lt_error_set(err, "HY001", "out of memory for %s", s->set.rows.what);
        memset(c + s->copies_cap, 0, (cap - s->copies_cap) * sizeof *c);
        s->copies = c;
        s->copies_cap = cap;
    }
    s->copies[at]++;
    return 0;
}

/* EXCEPT and INTERSECT: every row of the right side into the set. */
static int build_right(setop_op *s, lt_error *err)
{
    for (;;) {
        sql_chunk ch;
        if (sql_next(s->rhs, &ch, err) != 0)
            return -1;
        if (ch.n == 0)
            break;
        if (set_start(s, ch.batch, err) != 0)
            return -1;
        const uint32_t *sel = ch.sel ? ch.sel : s->base.ex->identity;
        sql_rowset_hashes(&s->set, ch.batch, sel, ch.n, s->hashes);
        for (uint32_t i = 0; i < ch.n; i++) {
            bool added;
            int64_t at = sql_rowset_insert(&s->set, ch.batch, sel[i], s->hashes[sel[i]], &added,
                                           err);
            if (at < 0 || (multiset(s->op) && count_copy(s, at, err) != 0))
                return -1;
        }
    }
    s->nright = s->set_live ? s->set.rows.count : 0;
    if (s->op == SQL_SET_INTERSECT) {
        if (sql_budget_take(s->base.ex->budget, s->nright, s->set.rows.what, &s->set.rows.held,
                            err) != 0)
            return -1;
        s->emitted = calloc(s->nright ? s->nright : 1, 1);
        if (s->emitted == NULL)
            return lt_error_set(err, "HY001", "out of memory for INTERSECT");
    }
    s->built = true;
    return 0;
}

/* The rows of `in` that pass, into s->sel; returns how many. */
static int filter_chunk(setop_op *s, const sql_chunk *in, uint32_t *kept, lt_error *err)
{
    if (set_start(s, in->batch, err) != 0)
        return -1;
    const uint32_t *sel = in->sel ? in->sel : s->base.ex->identity;
    sql_rowset_hashes(&s->set, in->batch, sel, in->n, s->hashes);
    uint32_t k = 0;
    for (uint32_t i = 0; i < in->n && multiset(s->op); i++) {
        uint32_t row = sel[i];
        int64_t at = s->set_live && s->nright > 0
                         ? sql_rowset_find(&s->set, in->batch, row, s->hashes[row]) : -1;
        bool found = at >= 0 && at < s->nright && s->copies[at] > 0;
        if (found)
            s->copies[at]--;
        if (found == (s->op == SQL_SET_INTERSECT_ALL))
            s->sel[k++] = row;
    }
    for (uint32_t i = 0; i < in->n && !multiset(s->op); i++) {
        uint32_t row = sel[i];
        bool added;
        int64_t at = sql_rowset_insert(&s->set, in->batch, row, s->hashes[row], &added, err);
        if (at < 0)
            return -1;
        bool pass;
        if (s->op == SQL_SET_INTERSECT) {
            pass = at < s->nright && !s->emitted[at];
            if (pass)
                s->emitted[at] = 1;
        } else {
            /* UNION: new; EXCEPT: new and not one of the right side's */
            pass = added && at >= s->nright;
        }
        if (pass)
            s->sel[k++] = row;
    }
    *kept = k;
    return 0;
}

static int setop_next(sql_operator *op, sql_chunk *out, lt_error *err)
{
    setop_op *s = (setop_op *)op;
    bool both = s->op == SQL_SET_UNION || s->op == SQL_SET_UNION_ALL;
    if (!both && !s->built && build_right(s, err) != 0)
        return -1;
    for (;;) {
        if (sql_check_cancel(op->ex, err) != 0)
            return -1;
        out->n = 0;
        if (s->side == 2)
            return 0;
        sql_chunk in;
        if (sql_next(s->side == 0 ? op->child : s->rhs, &in, err) != 0)
            return -1;
        if (in.n == 0) {
            s->side = both && s->side == 0 ? 1 : 2;
            *out = in;
            out->n = 0;
            continue;
        }
        if (s->op == SQL_SET_UNION_ALL) {
            *out = in;
            return 0;
        }
        uint32_t kept;
        if (filter_chunk(s, &in, &kept, err) != 0)
            return -1;
        if (kept == 0)
            continue;
        out->batch = in.batch;
        out->sel = s->sel;
        out->n = kept;
        return 0;
    }
}

static void setop_close(sql_operator *op)
{
    setop_op *s = (setop_op *)op;
    if (s->set_live)
        sql_rowset_free(&s->set);
    free(s->emitted);
    free(s->copies);
    sql_close(s->rhs);
    sql_close(op->child);
}

int sql_op_setop(sql_exec *ex, sql_setop op, sql_operator *lhs, sql_operator *rhs,
                 sql_operator **out, lt_error *err)
{
    setop_op *s = lt_arena_alloc(&ex->arena, sizeof *s);
    uint32_t *sel = lt_arena_alloc(&ex->arena, LT_BATCH_ROWS * sizeof *sel);
    uint64_t *hashes = lt_arena_alloc(&ex->arena, LT_BATCH_ROWS * sizeof *hashes);
    if (s == NULL || sel == NULL || hashes == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    memset(s, 0, sizeof *s);
    s->base.next = setop_next;
    s->base.close = setop_close;
    s->base.ex = ex;
    s->base.child = lhs;
    s->rhs = rhs;
    s->op = op;
    s->sel = sel;
    s->hashes = hashes;
    *out = &s->base;
    return 0;
}
