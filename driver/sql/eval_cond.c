/*
** eval_cond.c — the conditional expressions: CASE (both forms), COALESCE
** (and IFNULL), NULLIF.  (IIF is a CASE by then: the binder rewrote it.)
**
** CASE and COALESCE evaluate each operand only over the rows still
** undecided, as AND and OR do: `CASE WHEN x = 0 THEN 0 ELSE 1 / x END`
** never divides by zero, and a THEN branch no row reaches raises nothing.
** Each branch's value is copied into the node's vector at the row's
** position (text is not copied: it lives as long as the branch's result).
** typing.c has converted every branch to the node's type — except, on
** SQLite sources, where the branches mix numbers and text: the node is then
** dynamically typed (sql_type.dynamic) and each row keeps its value's own
** type, tagged as reader.h's dynamically typed rows are.
*/
#include "affinity.h"
#include "collate.h"
#include "exec.h"

#include <string.h>

/* Of the rows rest[0..*k), move those `hit` marks (in order) to `to`,
** keeping the others in rest; returns how many moved. */
static uint32_t split(uint32_t *rest, uint32_t *k, const uint8_t *hit, uint32_t *to)
{
    uint32_t kept = 0, moved = 0;
    for (uint32_t i = 0; i < *k; i++) {
        uint32_t row = rest[i];
        if (hit[row])
            to[moved++] = row;
        else
            rest[kept++] = row;
    }
    *k = kept;
    return moved;
}

int sql_put_dynamic(lt_vector *out, const lt_vector *src, uint32_t row, lt_arena *text,
                    lt_error *err)
{
    lt_value x;
    sql_vector_get(src, row, &x);
    out->tags[row] = LT_NULL;
    if ((out->nulls[row] = x.type == LT_NULL) != 0)
        return 0;
    if (x.type == LT_TEXT) {
        out->v.bytes[row] = x.u.bytes;
        return 0;
    }
    out->tags[row] = (uint8_t)x.type;
    out->other[row] = x;
    if (x.type == LT_BINARY) {
        out->v.bytes[row] = x.u.bytes;
        return 0;
    }
    char buf[64];
    uint32_t len = sql_sqlite_number_text(&x, buf, sizeof buf);
    if (len >= sizeof buf)
        len = 0;
    char *p = lt_arena_alloc(text, len ? len : 1);
    if (p == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    memcpy(p, buf, len);
    out->v.bytes[row].ptr = p;
    out->v.bytes[row].len = len;
    return 0;
}

/* Operand e's rows sel[0..n) into the dynamically typed `out`: a column's
** rows of other types as they are (read from `in`), as SQLite returns
** them. */
static int take_dynamic(sql_exec *ex, const sql_expr *node, const sql_expr *e,
                        const lt_batch *in, const uint32_t *sel, uint32_t n, lt_vector *out,
                        lt_error *err)
{
    const lt_vector *v;
    if ((e->kind == SQL_E_COLUMN || e->from_input) && in != NULL && e->input < in->ncols)
        v = &in->cols[e->input];
    else if (sql_eval(ex, e, in, sel, n, &v, err) != 0)
        return -1;
    lt_arena *text = &ex->slots[node->slot].text;
    for (uint32_t i = 0; i < n; i++)
        if (sql_put_dynamic(out, v, sel[i], text, err) != 0)
            return -1;
    return 0;
}

/* NULL into rows sel[0..n) of out (its tags too, when it has them). */
static void put_nulls(lt_vector *out, const uint32_t *sel, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        out->nulls[sel[i]] = 1;
        if (out->tags != NULL)
            out->tags[sel[i]] = LT_NULL;
    }
}

/* The value of `e` for the rows sel[0..n), copied into `out` (node's). */
static int take(sql_exec *ex, const sql_expr *node, const sql_expr *e, const lt_batch *in,
                const uint32_t *sel, uint32_t n, lt_vector *out, lt_error *err)
{
    const lt_vector *v;
    if (n == 0)
        return 0;
    if (node->t.dynamic && out->tags != NULL)
        return take_dynamic(ex, node, e, in, sel, n, out, err);
    if (sql_eval(ex, e, in, sel, n, &v, err) != 0)
        return -1;
    sql_vector_copy_rows(out, v, sel, n);
    return 0;
}

int sql_eval_case(sql_exec *ex, const sql_expr *e, const lt_batch *in, const uint32_t *sel,
                  uint32_t n, lt_vector *out, lt_error *err)
{
    sql_slot *s = &ex->slots[e->slot];
    const lt_vector *x = NULL, *w;
    /* s->cmp_null serves as the hit flags, indexed by row. */
    uint8_t *hit = s->cmp_null;
    uint32_t *matched = s->sel, k = n;
    for (uint32_t i = 0; i < n; i++)
        s->rest[i] = sel[i];
    if (e->left != NULL && sql_eval(ex, e->left, in, sel, n, &x, err) != 0)
        return -1;
    for (uint32_t a = 0; a + 1 < e->nargs && k > 0; a += 2) {
        if (sql_eval(ex, e->args[a], in, s->rest, k, &w, err) != 0)
            return -1;
        if (x != NULL) {
            if (e->affinity_cmp)
                sql_compare_affinity(e->left, e->args[a],
                                     sql_affinity_pair(e->left->affinity, e->args[a]->affinity),
                                     in, x, w, s->rest, k, s->cmp, s->cmp_null);
            else {
                sql_compare_vectors_coll(x, w, s->rest, k, s->cmp, s->cmp_null,
                                         sql_text_nocase(ex));
                if (sql_dialect_sqlite(ex)) /* a column's rows of other types */
                    sql_compare_dynamic(e->left, e->args[a], in, x, w, s->rest, k, s->cmp,
                                        s->cmp_null);
            }
            for (uint32_t i = 0; i < k; i++) {
                uint32_t row = s->rest[i];
                hit[row] = !s->cmp_null[row] && s->cmp[row] == 0;
            }
        } else {
            for (uint32_t i = 0; i < k; i++) {
                uint32_t row = s->rest[i];
                hit[row] = w->type != LT_NULL && !w->nulls[row] && w->v.b[row];
            }
        }
        uint32_t m = split(s->rest, &k, hit, matched);
        if (take(ex, e, e->args[a + 1], in, matched, m, out, err) != 0)
            return -1;
    }
    if (e->right != NULL)
        return take(ex, e, e->right, in, s->rest, k, out, err);
    put_nulls(out, s->rest, k);
    return 0;
}

int sql_eval_coalesce(sql_exec *ex, const sql_expr *e, const lt_batch *in,
                      const uint32_t *sel, uint32_t n, lt_vector *out, lt_error *err)
{
    sql_slot *s = &ex->slots[e->slot];
    uint32_t k = n;
    for (uint32_t i = 0; i < n; i++)
        s->rest[i] = sel[i];
    bool dynamic = e->t.dynamic && out->tags != NULL;
    for (uint32_t a = 0; a < e->nargs && k > 0; a++) {
        const lt_vector *v;
        const sql_expr *x = e->args[a];
        if (dynamic && (x->kind == SQL_E_COLUMN || x->from_input) && in != NULL &&
            x->input < in->ncols)
            v = &in->cols[x->input]; /* its rows of other types as they are */
        else if (sql_eval(ex, x, in, s->rest, k, &v, err) != 0)
            return -1;
        uint32_t kept = 0;
        for (uint32_t i = 0; i < k; i++) {
            uint32_t row = s->rest[i];
            if (v->type == LT_NULL || v->nulls[row])
                s->rest[kept++] = row;
            else if (!dynamic)
                sql_vector_copy_cell(out, row, v, row);
            else if (sql_put_dynamic(out, v, row, &s->text, err) != 0)
                return -1;
        }
        k = kept;
    }
    put_nulls(out, s->rest, k);
    return 0;
}

/* NULLIF(a, b): NULL where a = b, else a (as compared: typing.c). */
int sql_eval_nullif(sql_exec *ex, const sql_expr *e, const lt_batch *in, const uint32_t *sel,
                    uint32_t n, lt_vector *out, lt_error *err)
{
    sql_slot *s = &ex->slots[e->slot];
    const lt_vector *a, *b;
    if (sql_eval(ex, e->args[0], in, sel, n, &a, err) != 0 ||
        sql_eval(ex, e->args[1], in, sel, n, &b, err) != 0)
        return -1;
    if (e->affinity_cmp)
        sql_compare_affinity(e->args[0], e->args[1], SQL_AFF_NONE, in, a, b, sel, n, s->cmp,
                             s->cmp_null); /* a function's arguments: no affinity */
    else
        sql_compare_vectors_coll(a, b, sel, n, s->cmp, s->cmp_null, sql_text_nocase(ex));
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        if (!s->cmp_null[row] && s->cmp[row] == 0)
            put_nulls(out, &row, 1);
        else if (!e->t.dynamic || out->tags == NULL)
            sql_vector_copy_cell(out, row, a, row);
        else if (sql_put_dynamic(out, a, row, &s->text, err) != 0)
            return -1;
    }
    return 0;
}
