/*
** eval_cond.c — the conditional expressions: CASE (both forms), COALESCE
** (and IFNULL), NULLIF.  (IIF is a CASE by then: the binder rewrote it.)
**
** CASE and COALESCE evaluate each operand only over the rows still
** undecided, as AND and OR do: `CASE WHEN x = 0 THEN 0 ELSE 1 / x END`
** never divides by zero, and a THEN branch no row reaches raises nothing.
** Each branch's value is copied into the node's vector at the row's
** position (text is not copied: it lives as long as the branch's result).
** typing.c has converted every branch to the node's type.
*/
#include "affinity.h"
#include "collate.h"
#include "exec.h"

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

/* The value of `e` for the rows sel[0..n), copied into `out`. */
static int take(sql_exec *ex, const sql_expr *e, const lt_batch *in, const uint32_t *sel,
                uint32_t n, lt_vector *out, lt_error *err)
{
    const lt_vector *v;
    if (n == 0)
        return 0;
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
            else
                sql_compare_vectors_coll(x, w, s->rest, k, s->cmp, s->cmp_null,
                                         sql_text_nocase(ex));
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
        if (take(ex, e->args[a + 1], in, matched, m, out, err) != 0)
            return -1;
    }
    if (e->right != NULL)
        return take(ex, e->right, in, s->rest, k, out, err);
    for (uint32_t i = 0; i < k; i++)
        out->nulls[s->rest[i]] = 1;
    return 0;
}

int sql_eval_coalesce(sql_exec *ex, const sql_expr *e, const lt_batch *in,
                      const uint32_t *sel, uint32_t n, lt_vector *out, lt_error *err)
{
    sql_slot *s = &ex->slots[e->slot];
    uint32_t k = n;
    for (uint32_t i = 0; i < n; i++)
        s->rest[i] = sel[i];
    for (uint32_t a = 0; a < e->nargs && k > 0; a++) {
        const lt_vector *v;
        if (sql_eval(ex, e->args[a], in, s->rest, k, &v, err) != 0)
            return -1;
        uint32_t kept = 0;
        for (uint32_t i = 0; i < k; i++) {
            uint32_t row = s->rest[i];
            if (v->type == LT_NULL || v->nulls[row])
                s->rest[kept++] = row;
            else
                sql_vector_copy_cell(out, row, v, row);
        }
        k = kept;
    }
    for (uint32_t i = 0; i < k; i++)
        out->nulls[s->rest[i]] = 1;
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
            out->nulls[row] = 1;
        else
            sql_vector_copy_cell(out, row, a, row);
    }
    return 0;
}
