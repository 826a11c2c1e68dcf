/*
** eval.c — evaluating expressions over whole vectors.
**
** sql_eval walks the tree once per batch, not once per row: each node runs
** one loop over the selected rows of its operands' vectors, with the
** operator chosen outside the loop.  Results stay at their rows' positions
** (no compaction), so a filter narrows the selection without moving data.
** AND and OR evaluate their right operand only for the rows the left one
** leaves undecided.  Constants are converted and written into their vector
** once per execution.
*/
#include "affinity.h"
#include "collate.h"
#include "exec.h"
#include "func.h"
#include "value.h"

#include "../../readers/common/datetime.h"

#include <math.h>
#include <string.h>

int sql_vector_alloc(lt_arena *arena, lt_vector *v, lt_type type, int16_t scale,
                     uint32_t cap)
{
    memset(v, 0, sizeof *v);
    v->type = type;
    v->scale = scale;
    v->nulls = lt_arena_alloc(arena, cap);
    v->v.any = lt_arena_alloc(arena, (size_t)cap * sql_type_width(type));
    if (v->nulls == NULL || v->v.any == NULL)
        return -1;
    memset(v->nulls, 0, cap);
    return 0;
}

int sql_check_cancel(const sql_exec *ex, lt_error *err)
{
    if (ex->cancel != NULL && atomic_load(ex->cancel))
        return lt_error_set(err, "HY008", "operation canceled");
    return 0;
}

const lt_value *sql_const_value(const sql_exec *ex, const sql_expr *e)
{
    return &ex->slots[e->slot].cval;
}

/* The constant's value as its parent reads it, written into every row. */
static int init_constant(sql_exec *ex, const sql_expr *e, sql_slot *s, lt_error *err)
{
    const lt_value *v = e->kind == SQL_E_LITERAL ? &e->value
                      : e->kind == SQL_E_OUTER ? &ex->outer[e->param] : &ex->params[e->param];
    lt_type type = e->conv ? e->want : e->t.type;
    int16_t scale = e->conv ? e->want_scale : e->t.scale;
    int rc = type == LT_TEXT ? sql_to_text(v, &ex->arena, &s->cval, err)
                             : sql_convert_value(v, type, scale, &s->cval, err);
    if (rc != 0)
        return sql_error_at(err, e);
    if (type == LT_DECIMAL)
        s->cval.scale = scale;
    if (sql_vector_alloc(&ex->arena, &s->out, type, scale, LT_BATCH_ROWS) != 0)
        return lt_error_set(err, "HY001", "out of memory");
    for (uint32_t r = 0; r < LT_BATCH_ROWS; r++) {
        if (s->cval.type == LT_NULL)
            s->out.nulls[r] = 1;
        else
            sql_vector_set(&s->out, r, &s->cval);
    }
    return 0;
}

static int init_slot(sql_exec *ex, const sql_expr *e, sql_slot *s, lt_error *err)
{
    lt_arena *a = &ex->arena;
    const uint32_t cap = LT_BATCH_ROWS;
    if (sql_expr_is_constant(e))
        return init_constant(ex, e, s, err);
    if (e->kind != SQL_E_COLUMN && !e->from_input && sql_vector_alloc(a, &s->out, e->t.type, e->t.scale, cap) != 0)
        goto oom;
    if (e->conv && sql_vector_alloc(a, &s->conv, e->want, e->want_scale, cap) != 0)
        goto oom;
    if (e->t.dynamic && (e->kind == SQL_E_CASE || e->kind == SQL_E_FUNC)) {
        /* a CASE or COALESCE mixing numbers and text (SQLite): rows tagged */
        if ((s->out.tags = lt_arena_alloc(a, cap)) == NULL ||
            (s->out.other = lt_arena_alloc(a, cap * sizeof *s->out.other)) == NULL)
            goto oom;
        memset(s->out.tags, 0, cap);
    }
    if (e->kind == SQL_E_AND || e->kind == SQL_E_OR || e->kind == SQL_E_CASE) {
        if ((s->sel = lt_arena_alloc(a, cap * sizeof *s->sel)) == NULL)
            goto oom;
    }
    if (e->kind == SQL_E_CASE || (e->kind == SQL_E_FUNC && e->fn != NULL)) {
        if ((s->rest = lt_arena_alloc(a, cap * sizeof *s->rest)) == NULL ||
            (s->args = lt_arena_alloc(a, (e->nargs + 1) * sizeof *s->args)) == NULL)
            goto oom;
    }
    if (e->kind == SQL_E_COMPARE || e->kind == SQL_E_IN || e->kind == SQL_E_BETWEEN ||
        e->kind == SQL_E_CASE || (e->kind == SQL_E_FUNC && e->fn != NULL)) {
        s->cmp = lt_arena_alloc(a, cap);
        s->cmp_null = lt_arena_alloc(a, cap);
        if (s->cmp == NULL || s->cmp_null == NULL)
            goto oom;
    }
    return 0;
oom:
    return lt_error_set(err, "HY001", "out of memory");
}

int sql_exec_init(sql_exec *ex, sql_query *q, const lt_value *params,
                  const atomic_int *cancel, lt_error *err)
{
    return sql_exec_init_outer(ex, q, params, NULL, cancel, err);
}

int sql_exec_init_outer(sql_exec *ex, sql_query *q, const lt_value *params,
                        const lt_value *outer, const atomic_int *cancel, lt_error *err)
{
    memset(ex, 0, sizeof *ex);
    lt_arena_init(&ex->arena);
    ex->q = q;
    ex->params = params;
    ex->outer = outer;
    ex->cancel = cancel;
    ex->identity = lt_arena_alloc(&ex->arena, LT_BATCH_ROWS * sizeof *ex->identity);
    ex->slots = lt_arena_alloc(&ex->arena, (q->nslots ? q->nslots : 1) * sizeof *ex->slots);
    if (ex->identity == NULL || ex->slots == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    for (uint32_t i = 0; i < LT_BATCH_ROWS; i++)
        ex->identity[i] = i;
    memset(ex->slots, 0, (q->nslots ? q->nslots : 1) * sizeof *ex->slots);
    for (uint32_t i = 0; i < q->nslots; i++)
        lt_arena_init(&ex->slots[i].text);
    ex->now = sql_local_now();
    for (uint32_t i = 0; i < q->nslots; i++)
        if (init_slot(ex, q->slots[i], &ex->slots[i], err) != 0)
            return -1;
    return 0;
}

void sql_exec_free(sql_exec *ex)
{
    for (uint32_t i = 0; ex->slots != NULL && i < ex->q->nslots; i++)
        lt_arena_free(&ex->slots[i].text);
    lt_arena_free(&ex->arena);
}

/* ------------------------------------------------------------------------ */
/* Arithmetic                                                                */
/* ------------------------------------------------------------------------ */

static int overflow(lt_error *err)
{
    return lt_error_set(err, "22003", "numeric value out of range");
}

static int div_zero(lt_error *err)
{
    return lt_error_set(err, "22012", "division by zero");
}

/* One loop per operator: `BODY` computes r from x and y, or fails. */
#define ARITH_LOOP(FIELD, TYPE, BODY)                                   \
    for (uint32_t i = 0; i < n; i++) {                                  \
        uint32_t row = sel[i];                                          \
        if ((out->nulls[row] = a->nulls[row] | b->nulls[row]) != 0)     \
            continue;                                                   \
        TYPE x = a->v.FIELD[row], y = b->v.FIELD[row], r;               \
        BODY                                                            \
        out->v.FIELD[row] = r;                                          \
    }

static int arith_int64(sql_op op, const lt_vector *a, const lt_vector *b,
                       const uint32_t *sel, uint32_t n, lt_vector *out, lt_error *err)
{
    switch (op) {
    case SQL_OP_ADD:
        ARITH_LOOP(i64, int64_t,
                   if ((y > 0 && x > INT64_MAX - y) || (y < 0 && x < INT64_MIN - y))
                       return overflow(err);
                   r = x + y;)
        return 0;
    case SQL_OP_SUB:
        ARITH_LOOP(i64, int64_t,
                   if ((y < 0 && x > INT64_MAX + y) || (y > 0 && x < INT64_MIN + y))
                       return overflow(err);
                   r = x - y;)
        return 0;
    case SQL_OP_MUL:
        ARITH_LOOP(i64, int64_t,
                   lt_int128 p = (lt_int128)x * y;
                   if (p > INT64_MAX || p < INT64_MIN)
                       return overflow(err);
                   r = (int64_t)p;)
        return 0;
    case SQL_OP_DIV:
        ARITH_LOOP(i64, int64_t,
                   if (y == 0)
                       return div_zero(err);
                   if (x == INT64_MIN && y == -1)
                       return overflow(err);
                   r = x / y;)
        return 0;
    case SQL_OP_MOD:
        ARITH_LOOP(i64, int64_t,
                   if (y == 0)
                       return div_zero(err);
                   r = y == -1 ? 0 : x % y;)
        return 0;
    default:
        return lt_error_set(err, "HY000", "internal error: bad arithmetic operator");
    }
}

static int arith_double(sql_op op, const lt_vector *a, const lt_vector *b,
                        const uint32_t *sel, uint32_t n, lt_vector *out, lt_error *err)
{
    switch (op) {
    case SQL_OP_ADD: ARITH_LOOP(f64, double, r = x + y;) break;
    case SQL_OP_SUB: ARITH_LOOP(f64, double, r = x - y;) break;
    case SQL_OP_MUL: ARITH_LOOP(f64, double, r = x * y;) break;
    case SQL_OP_DIV: ARITH_LOOP(f64, double, if (y == 0) return div_zero(err); r = x / y;) break;
    case SQL_OP_MOD: ARITH_LOOP(f64, double, if (y == 0) return div_zero(err); r = fmod(x, y);) break;
    default:
        return lt_error_set(err, "HY000", "internal error: bad arithmetic operator");
    }
    /* Finite operands with an infinite result overflowed. */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        if (!out->nulls[row] && !isfinite(out->v.f64[row]) && isfinite(a->v.f64[row]) &&
            isfinite(b->v.f64[row]))
            return overflow(err);
    }
    return 0;
}

/* Operands arrive at the scales typing.c chose: equal for + - %, their own
** for * (the result's scale is their sum). */
static int arith_decimal(sql_op op, const lt_vector *a, const lt_vector *b,
                         const uint32_t *sel, uint32_t n, lt_vector *out, lt_error *err)
{
    const lt_int128 max = SQL_DEC_MAX;
    switch (op) {
    case SQL_OP_ADD:
        ARITH_LOOP(dec, lt_int128,
                   if (x > max || x < -max || y > max || y < -max ||
                       (y > 0 && x > max - y) || (y < 0 && x < -max - y))
                       return overflow(err);
                   r = x + y;)
        return 0;
    case SQL_OP_SUB:
        ARITH_LOOP(dec, lt_int128,
                   if (x > max || x < -max || y > max || y < -max ||
                       (y < 0 && x > max + y) || (y > 0 && x < -max + y))
                       return overflow(err);
                   r = x - y;)
        return 0;
    case SQL_OP_MUL:
        ARITH_LOOP(dec, lt_int128,
                   lt_int128 ax = x < 0 ? -x : x;
                   lt_int128 ay = y < 0 ? -y : y;
                   if (ax > max || ay > max || (ax != 0 && ay > max / ax))
                       return overflow(err);
                   r = x * y;)
        return 0;
    case SQL_OP_MOD:
        ARITH_LOOP(dec, lt_int128,
                   if (y == 0)
                       return div_zero(err);
                   r = x % y;)
        return 0;
    default:
        return lt_error_set(err, "HY000", "internal error: bad arithmetic operator");
    }
}

static int date_overflow(lt_error *err)
{
    return lt_error_set(err, "22008", "date arithmetic: the result is outside the years 1 to 9999");
}

/* Date arithmetic in days, as typing.c's type_date_arith typed it: the
** operands arrive as DATE + INT64 (→ DATE), TIMESTAMP + DOUBLE
** (→ TIMESTAMP), DATE − DATE (→ INT64) or TIMESTAMP − TIMESTAMP (→ DOUBLE). */
static int arith_datetime(sql_op op, const lt_vector *a, const lt_vector *b,
                          const uint32_t *sel, uint32_t n, lt_vector *out, lt_error *err)
{
    const int64_t ts_min = SQL_DAYS_MIN * LT_USEC_PER_DAY;
    const int64_t ts_max = (SQL_DAYS_MAX + INT64_C(1)) * LT_USEC_PER_DAY - 1;
    bool left_date = a->type == LT_DATE || a->type == LT_TIMESTAMP;
    const lt_vector *d = left_date ? a : b, *k = left_date ? b : a;
    int64_t sign = op == SQL_OP_SUB ? -1 : 1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        if ((out->nulls[row] = a->nulls[row] | b->nulls[row]) != 0)
            continue;
        switch (out->type) {
        case LT_DATE: {
            int64_t days = k->v.i64[row];
            if (days > SQL_DAYS_MAX - SQL_DAYS_MIN || days < SQL_DAYS_MIN - SQL_DAYS_MAX)
                return date_overflow(err);
            int64_t r = d->v.date[row] + sign * days;
            if (r < SQL_DAYS_MIN || r > SQL_DAYS_MAX)
                return date_overflow(err);
            out->v.date[row] = (int32_t)r;
            break;
        }
        case LT_TIMESTAMP: {
            double usec = k->v.f64[row] * (double)LT_USEC_PER_DAY;
            if (!(fabs(usec) <= (double)(ts_max - ts_min)) || d->v.i64[row] < ts_min ||
                d->v.i64[row] > ts_max)
                return date_overflow(err); /* also NaN */
            int64_t r = d->v.i64[row] + sign * (int64_t)llround(usec);
            if (r < ts_min || r > ts_max)
                return date_overflow(err);
            out->v.i64[row] = r;
            break;
        }
        case LT_INT64:
            out->v.i64[row] = (int64_t)a->v.date[row] - b->v.date[row];
            break;
        case LT_DOUBLE:
            out->v.f64[row] = (double)(a->v.i64[row] - b->v.i64[row]) / (double)LT_USEC_PER_DAY;
            break;
        default:
            out->nulls[row] = 1;
            break;
        }
    }
    return 0;
}

static int eval_arith(const sql_expr *e, const lt_vector *a, const lt_vector *b,
                      const uint32_t *sel, uint32_t n, lt_vector *out, lt_error *err)
{
    if (a->type == LT_DATE || a->type == LT_TIMESTAMP || b->type == LT_DATE ||
        b->type == LT_TIMESTAMP)
        return arith_datetime(e->op, a, b, sel, n, out, err);
    switch (out->type) {
    case LT_INT64:   return arith_int64(e->op, a, b, sel, n, out, err);
    case LT_DOUBLE:  return arith_double(e->op, a, b, sel, n, out, err);
    case LT_DECIMAL: return arith_decimal(e->op, a, b, sel, n, out, err);
    default:
        for (uint32_t i = 0; i < n; i++)
            out->nulls[sel[i]] = 1;
        return 0;
    }
}

static int eval_neg(const lt_vector *a, const uint32_t *sel, uint32_t n, lt_vector *out,
                    lt_error *err)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        if ((out->nulls[row] = a->type == LT_NULL || a->nulls[row]) != 0)
            continue;
        switch (out->type) {
        case LT_INT64:
            if (a->v.i64[row] == INT64_MIN)
                return overflow(err);
            out->v.i64[row] = -a->v.i64[row];
            break;
        case LT_DOUBLE:  out->v.f64[row] = -a->v.f64[row]; break;
        case LT_DECIMAL: out->v.dec[row] = -a->v.dec[row]; break;
        default:         out->nulls[row] = 1; break;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Logic: three-valued, TRUE = (b 1, null 0), NULL = (null 1)               */
/* ------------------------------------------------------------------------ */

static int eval_and_or(sql_exec *ex, const sql_expr *e, const lt_batch *in,
                       const uint32_t *sel, uint32_t n, lt_vector *out, lt_error *err)
{
    const lt_vector *l, *r = NULL;
    sql_slot *s = &ex->slots[e->slot];
    bool is_and = e->kind == SQL_E_AND;
    if (sql_eval(ex, e->left, in, sel, n, &l, err) != 0)
        return -1;
    /* The right side decides only where the left is NULL or, for AND, TRUE
    ** (for OR, FALSE). */
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        if (l->nulls[row] || (l->v.b[row] != 0) == is_and)
            s->sel[k++] = row;
    }
    if (k > 0 && sql_eval(ex, e->right, in, s->sel, k, &r, err) != 0)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        bool ln = l->nulls[row], lv = l->v.b[row] != 0;
        if (!ln && lv != is_and) {
            /* decided by the left: AND FALSE, OR TRUE */
            out->nulls[row] = 0;
            out->v.b[row] = lv;
            continue;
        }
        bool rn = r->nulls[row], rv = r->v.b[row] != 0;
        if (!rn && rv != is_and) {
            out->nulls[row] = 0;
            out->v.b[row] = rv;
        } else if (ln || rn) {
            out->nulls[row] = 1;
        } else {
            out->nulls[row] = 0;
            out->v.b[row] = is_and;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Comparisons                                                               */
/* ------------------------------------------------------------------------ */

/* Operands a and b (vectors l and r) of comparison node e compared into
** the slot's cmp and cmp_null: by SQLite's affinity when e is marked so
** (b's affinity taken as b_aff), else by the typed kernels, on SQLite
** sources a column's rows of another type as SQLite orders them. */
static void compare_pair(const sql_exec *ex, const sql_expr *e, const sql_expr *a,
                         const sql_expr *b, uint8_t b_aff, const lt_batch *in,
                         const lt_vector *l, const lt_vector *r, const uint32_t *sel, uint32_t n,
                         sql_slot *s)
{
    if (e->affinity_cmp) {
        sql_compare_affinity(a, b, sql_affinity_pair(a->affinity, b_aff), in, l, r, sel, n,
                             s->cmp, s->cmp_null);
        return;
    }
    sql_compare_vectors_coll(l, r, sel, n, s->cmp, s->cmp_null, sql_text_nocase(ex));
    if (sql_dialect_sqlite(ex))
        sql_compare_dynamic(a, b, in, l, r, sel, n, s->cmp, s->cmp_null);
}

static void apply_compare(sql_op op, const sql_slot *s, const uint32_t *sel, uint32_t n,
                          lt_vector *out)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        out->nulls[row] = s->cmp_null[row];
        out->v.b[row] = !s->cmp_null[row] && sql_op_holds(op, s->cmp[row]);
    }
}

/* Lists longer than this, all constants of the left side's type, are
** probed in a hash set instead of compared item by item. */
#define IN_HASH_MIN 8

static bool same_kind(const lt_vector *x, const lt_value *v)
{
    return v->type == x->type && (v->type != LT_DECIMAL || v->scale == x->scale);
}

/* Decide (once per execution) how `e` runs, building the set if it can. */
static int in_prepare(sql_exec *ex, const sql_expr *e, sql_slot *s, const lt_vector *x,
                      lt_error *err)
{
    s->in_mode = 2;
    if (e->nargs <= IN_HASH_MIN || e->affinity_cmp || x->tags != NULL || x->type == LT_NULL ||
        (x->type == LT_TEXT && sql_text_nocase(ex)) || /* the set hashes bytes */
        (sql_dialect_sqlite(ex) && (e->left->kind == SQL_E_COLUMN || e->left->from_input)))
        return 0; /* (SQLite: its rows may hold other types, sql_compare_dynamic) */
    uint32_t n = 0;
    for (uint32_t k = 0; k < e->nargs; k++) {
        if (!sql_expr_is_constant(e->args[k]))
            return 0;
        const lt_value *v = sql_const_value(ex, e->args[k]);
        if (v->type != LT_NULL && !same_kind(x, v))
            return 0;
        n += v->type != LT_NULL;
    }
    uint32_t size = 16;
    while (size < 2 * n)
        size *= 2;
    if (sql_vector_alloc(&ex->arena, &s->in_items, x->type, x->scale, n ? n : 1) != 0 ||
        (s->in_set = lt_arena_alloc(&ex->arena, size * sizeof *s->in_set)) == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    memset(s->in_set, 0, size * sizeof *s->in_set);
    s->in_mask = size - 1;
    uint32_t m = 0;
    for (uint32_t k = 0; k < e->nargs; k++) {
        const lt_value *v = sql_const_value(ex, e->args[k]);
        if (v->type == LT_NULL) {
            s->in_null = true;
            continue;
        }
        sql_vector_set(&s->in_items, m, v);
        uint32_t i = (uint32_t)sql_hash_cell(&s->in_items, m, 0) & s->in_mask;
        while (s->in_set[i] != 0)
            i = (i + 1) & s->in_mask;
        s->in_set[i] = ++m;
    }
    s->in_mode = 1;
    return 0;
}

static void eval_in_hash(const sql_expr *e, const sql_slot *s, const lt_vector *x,
                         const uint32_t *sel, uint32_t n, lt_vector *out)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        bool found = false;
        if (!x->nulls[row]) {
            uint32_t h = (uint32_t)sql_hash_cell(x, row, 0) & s->in_mask;
            for (; s->in_set[h] != 0 && !found; h = (h + 1) & s->in_mask)
                found = sql_compare_cells(x, row, &s->in_items, s->in_set[h] - 1) == 0;
        }
        out->nulls[row] = !found && (x->nulls[row] || s->in_null);
        out->v.b[row] = !out->nulls[row] && found != e->negated;
    }
}

/* x [NOT] IN (a, b, ...): TRUE when some item equals x, else NULL when x or
** some item is NULL, else FALSE. */
static int eval_in(sql_exec *ex, const sql_expr *e, const lt_batch *in,
                   const uint32_t *sel, uint32_t n, lt_vector *out, lt_error *err)
{
    sql_slot *s = &ex->slots[e->slot];
    const lt_vector *x, *item;
    if (sql_eval(ex, e->left, in, sel, n, &x, err) != 0)
        return -1;
    if (s->in_mode == 0 && in_prepare(ex, e, s, x, err) != 0)
        return -1;
    if (s->in_mode == 1 && x->tags == NULL) {
        eval_in_hash(e, s, x, sel, n, out);
        return 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        out->v.b[sel[i]] = 0;
        out->nulls[sel[i]] = 0;
    }
    for (uint32_t k = 0; k < e->nargs; k++) {
        if (sql_eval(ex, e->args[k], in, sel, n, &item, err) != 0)
            return -1;
        /* (the items have no affinity) */
        compare_pair(ex, e, e->left, e->args[k], SQL_AFF_NONE, in, x, item, sel, n, s);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t row = sel[i];
            if (s->cmp_null[row])
                out->nulls[row] = 1;
            else if (s->cmp[row] == 0)
                out->v.b[row] = 1;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        if (out->v.b[row])
            out->nulls[row] = 0;
        else if (!out->nulls[row])
            out->v.b[row] = 0;
        if (e->negated)
            out->v.b[row] = !out->v.b[row];
    }
    return 0;
}

/* x [NOT] BETWEEN lo AND hi = x >= lo AND x <= hi, three-valued. */
static int eval_between(sql_exec *ex, const sql_expr *e, const lt_batch *in,
                        const uint32_t *sel, uint32_t n, lt_vector *out, lt_error *err)
{
    sql_slot *s = &ex->slots[e->slot];
    const lt_vector *x, *bound;
    if (sql_eval(ex, e->left, in, sel, n, &x, err) != 0)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        out->v.b[sel[i]] = 1;
        out->nulls[sel[i]] = 0;
    }
    for (int side = 0; side < 2; side++) {
        if (sql_eval(ex, side == 0 ? e->right : e->third, in, sel, n, &bound, err) != 0)
            return -1;
        const sql_expr *b = side == 0 ? e->right : e->third;
        compare_pair(ex, e, e->left, b, b->affinity, in, x, bound, sel, n, s);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t row = sel[i];
            if (!out->nulls[row] && !out->v.b[row])
                continue; /* already FALSE */
            if (s->cmp_null[row])
                out->nulls[row] = 1;
            else if (side == 0 ? s->cmp[row] < 0 : s->cmp[row] > 0) {
                out->nulls[row] = 0;
                out->v.b[row] = 0;
            }
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        if (out->nulls[row])
            out->v.b[row] = 0;
        else if (e->negated)
            out->v.b[row] = !out->v.b[row];
    }
    return 0;
}

/* True when the bytes are exactly one UTF-8 character. */
static bool one_char(const char *s, size_t len)
{
    if (len == 0 || len > 4)
        return false;
    unsigned char c = (unsigned char)s[0];
    size_t want = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
    if (want != len)
        return false;
    for (size_t k = 1; k < len; k++)
        if (((unsigned char)s[k] & 0xC0) != 0x80)
            return false;
    return true;
}

static int eval_like(sql_exec *ex, const sql_expr *e, const lt_batch *in,
                     const uint32_t *sel, uint32_t n, lt_vector *out, lt_error *err)
{
    const lt_vector *x, *pat, *esc = NULL;
    if (sql_eval(ex, e->left, in, sel, n, &x, err) != 0 ||
        sql_eval(ex, e->right, in, sel, n, &pat, err) != 0 ||
        (e->third != NULL && sql_eval(ex, e->third, in, sel, n, &esc, err) != 0))
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        if ((out->nulls[row] = x->nulls[row] | pat->nulls[row] | (esc ? esc->nulls[row] : 0)) != 0)
            continue;
        const char *ep = NULL;
        size_t elen = 0;
        if (esc != NULL) {
            ep = esc->v.bytes[row].ptr;
            elen = esc->v.bytes[row].len;
            if (!one_char(ep, elen))
                return lt_error_set(err, "22019", "invalid escape character: ESCAPE needs exactly one character");
        }
        lt_bytes xs = x->v.bytes[row], ps = pat->v.bytes[row];
        int m = sql_text_nocase(ex) ? sql_like_access(xs.ptr, xs.len, ps.ptr, ps.len, ep, elen)
                                    : sql_like(xs.ptr, xs.len, ps.ptr, ps.len, ep, elen);
        if (m < 0)
            return lt_error_set(err, "22025", "invalid escape sequence: the LIKE pattern ends with its escape character");
        out->v.b[row] = (m == 1) != e->negated;
    }
    return 0;
}

/* a || b into the node's text arena. */
/* a || b, NULL when either is; with null_empty (Access's `&`) a NULL
** operand reads as '' and only two NULLs give NULL. */
static int eval_concat(const lt_vector *a, const lt_vector *b, bool null_empty,
                       const uint32_t *sel, uint32_t n, lt_vector *out, lt_arena *text,
                       lt_error *err)
{
    static const lt_bytes empty = {NULL, 0};
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        bool anull = a->type == LT_NULL || a->nulls[row];
        bool bnull = b->type == LT_NULL || b->nulls[row];
        if ((out->nulls[row] = null_empty ? anull && bnull : anull || bnull) != 0)
            continue;
        lt_bytes x = anull ? empty : a->v.bytes[row], y = bnull ? empty : b->v.bytes[row];
        size_t len = (size_t)x.len + y.len;
        if (len > SQL_TEXT_MAX)
            return lt_error_set(err, "22001", "the result of || would be longer than %u bytes",
                                SQL_TEXT_MAX);
        char *p = lt_arena_alloc(text, len ? len : 1);
        if (p == NULL)
            return lt_error_set(err, "HY001", "out of memory");
        if (x.len)
            memcpy(p, x.ptr, x.len);
        if (y.len)
            memcpy(p + x.len, y.ptr, y.len);
        out->v.bytes[row].ptr = p;
        out->v.bytes[row].len = (uint32_t)len;
    }
    return 0;
}

/* A call of a scalar function: its arguments, then its implementation. */
static int eval_call(sql_exec *ex, const sql_expr *e, const lt_batch *in, const uint32_t *sel,
                     uint32_t n, lt_vector *out, lt_error *err)
{
    sql_slot *s = &ex->slots[e->slot];
    switch (e->fn->result) {
    case SQL_RES_COMMON:
        return sql_eval_coalesce(ex, e, in, sel, n, out, err);
    case SQL_RES_NULLIF:
        return sql_eval_nullif(ex, e, in, sel, n, out, err);
    default:
        break;
    }
    if (e->fn->eval == NULL)
        return lt_error_set(err, "HY000", "internal error: %s has no implementation", e->fn->name);
    for (uint32_t i = 0; i < e->nargs; i++)
        if (sql_eval(ex, e->args[i], in, sel, n, &s->args[i], err) != 0)
            return -1;
    sql_fcall c = {ex, e, s->args, sel, n, out, &s->text, err};
    if (e->fn->eval(&c) != 0)
        return sql_error_at(err, e);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The walk                                                                  */
/* ------------------------------------------------------------------------ */

static int eval_node(sql_exec *ex, const sql_expr *e, const lt_batch *in,
                     const uint32_t *sel, uint32_t n, lt_vector *out, lt_error *err)
{
    sql_slot *s = &ex->slots[e->slot];
    const lt_vector *l, *r;
    switch (e->kind) {
    case SQL_E_NEG:
        if (sql_eval(ex, e->left, in, sel, n, &l, err) != 0)
            return -1;
        return eval_neg(l, sel, n, out, err);
    case SQL_E_ARITH:
        if (sql_eval(ex, e->left, in, sel, n, &l, err) != 0 ||
            sql_eval(ex, e->right, in, sel, n, &r, err) != 0)
            return -1;
        return eval_arith(e, l, r, sel, n, out, err);
    case SQL_E_COMPARE:
        if (sql_eval(ex, e->left, in, sel, n, &l, err) != 0 ||
            sql_eval(ex, e->right, in, sel, n, &r, err) != 0)
            return -1;
        compare_pair(ex, e, e->left, e->right, e->right->affinity, in, l, r, sel, n, s);
        apply_compare(e->op, s, sel, n, out);
        return 0;
    case SQL_E_AND:
    case SQL_E_OR:
        return eval_and_or(ex, e, in, sel, n, out, err);
    case SQL_E_NOT:
        if (sql_eval(ex, e->left, in, sel, n, &l, err) != 0)
            return -1;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t row = sel[i];
            out->nulls[row] = l->nulls[row];
            out->v.b[row] = !l->v.b[row];
        }
        return 0;
    case SQL_E_IS_NULL:
        /* A column's own NULLs: a dynamically typed row that does not read
        ** as the column's type is still not NULL. */
        if (e->left->kind == SQL_E_COLUMN)
            l = &in->cols[e->left->input];
        else if (sql_eval(ex, e->left, in, sel, n, &l, err) != 0)
            return -1;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t row = sel[i];
            out->nulls[row] = 0;
            out->v.b[row] = (l->type == LT_NULL || l->nulls[row]) != e->negated;
        }
        return 0;
    case SQL_E_IN:
        return eval_in(ex, e, in, sel, n, out, err);
    case SQL_E_BETWEEN:
        return eval_between(ex, e, in, sel, n, out, err);
    case SQL_E_LIKE:
        return eval_like(ex, e, in, sel, n, out, err);
    case SQL_E_CONCAT:
        if (sql_eval(ex, e->left, in, sel, n, &l, err) != 0 ||
            sql_eval(ex, e->right, in, sel, n, &r, err) != 0)
            return -1;
        return eval_concat(l, r, sql_amp_reads_null_as_empty(ex->q ? ex->q->src : NULL, e),
                           sel, n, out, &s->text, err);
    case SQL_E_CAST:
        if (sql_eval(ex, e->left, in, sel, n, &l, err) != 0)
            return -1;
        if (sql_cast_vector(l, sel, n, &e->cast, e->pad, out, &s->text, err) != 0)
            return sql_error_at(err, e);
        return 0;
    case SQL_E_CASE:
        return sql_eval_case(ex, e, in, sel, n, out, err);
    case SQL_E_FUNC:
        if (e->fn != NULL && e->fn->agg == SQL_AGG_NONE)
            return eval_call(ex, e, in, sel, n, out, err);
        break;
    case SQL_E_SUBQUERY:
    case SQL_E_EXISTS:
    case SQL_E_IN_SELECT:
        return sql_eval_subquery(ex, e, in, sel, n, out, err);
    case SQL_E_LITERAL:
    case SQL_E_PARAM:
    case SQL_E_COLUMN:
    case SQL_E_OUTER:
        break;
    }
    return lt_error_set(err, "HY000", "internal error: cannot evaluate this expression");
}

int sql_eval(sql_exec *ex, const sql_expr *e, const lt_batch *in,
             const uint32_t *sel, uint32_t n, const lt_vector **out,
             lt_error *err)
{
    sql_slot *s = &ex->slots[e->slot];
    const lt_vector *v;
    if (sql_expr_is_constant(e)) {
        *out = &s->out; /* already converted and written */
        return 0;
    }
    if (e->kind == SQL_E_COLUMN || e->from_input) {
        v = &in->cols[e->input];
        if (v->tags != NULL && e->t.dynamic && v->type == LT_TEXT) {
            /* a dynamically typed expression computed below: its rows as
            ** they are, with their text */
            if (s->untag.nulls == NULL &&
                (sql_vector_alloc(&ex->arena, &s->untag, LT_TEXT, 0, LT_BATCH_ROWS) != 0 ||
                 (s->untag.tags = lt_arena_alloc(&ex->arena, LT_BATCH_ROWS)) == NULL ||
                 (s->untag.other = lt_arena_alloc(&ex->arena,
                                                  LT_BATCH_ROWS * sizeof *s->untag.other)) == NULL))
                return lt_error_set(err, "HY001", "out of memory");
            lt_arena_reset(&s->text);
            for (uint32_t i = 0; i < n; i++)
                if (sql_put_dynamic(&s->untag, v, sel[i], &s->text, err) != 0)
                    return -1;
            v = &s->untag;
        } else if (v->tags != NULL) {
            /* Expressions see each row as the column's type: a tagged value
            ** converted when it converts, else NULL (docs/sql-types.md). */
            if (s->untag.nulls == NULL &&
                sql_vector_alloc(&ex->arena, &s->untag, v->type, v->scale, LT_BATCH_ROWS) != 0)
                return lt_error_set(err, "HY001", "out of memory");
            sql_vector_untag(&s->untag, v, sel, n);
            v = &s->untag;
        }
    } else {
        lt_arena_reset(&s->text);
        if (eval_node(ex, e, in, sel, n, &s->out, err) != 0)
            return -1;
        v = &s->out;
    }
    if (e->conv) {
        /* Anything read as text is written as text (cast.c). */
        static const sql_type as_text = {LT_TEXT, 0, 0, true, false};
        if (e->kind == SQL_E_COLUMN || e->from_input)
            lt_arena_reset(&s->text);
        if (e->want == LT_TEXT ? sql_cast_vector(v, sel, n, &as_text, false, &s->conv, &s->text, err)
                               : sql_convert_vector(v, sel, n, &s->conv, err))
            return -1;
        v = &s->conv;
    }
    *out = v;
    return 0;
}
