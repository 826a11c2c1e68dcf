/*
** typing.c — the type rules (docs/sql-types.md is their written form).
**
** Every node gets the type of its result (sql_type: logical type, size,
** scale, nullability) and, where its parent reads it as another type, the
** conversion (`conv`, `want`).  Types change nothing in the tree's shape, so
** a statement with parameters is typed again at each execution with the
** values' types, and its result columns are described anew.
**
** Comparisons (=, <>, <, IN, BETWEEN) type their operands together: the
** operands' types unify into a domain (INT64+DECIMAL -> DECIMAL, numbers
** with DOUBLE -> DOUBLE, DATE+TIMESTAMP -> TIMESTAMP, BOOL+INT64 -> INT64);
** a text constant compared with a non-text operand is read as a value of
** that operand's kind.  INT64 against DOUBLE and DECIMALs of different
** scales are compared exactly by the comparison kernels, so those operands
** are not converted.  The values a CASE or COALESCE returns share one type
** (type_common); functions type their arguments and result by their table
** entry (func.h); aggregates by their own rules (type_aggregate).
*/
#include "affinity.h"
#include "func.h"
#include "query.h"
#include "value.h"
#include "lexer.h"

#include <string.h>

typedef struct typer {
    sql_query *q;
    const lt_value *params;  /* NULL at prepare */
    lt_error *err;
} typer;

static int type_expr(typer *t, sql_expr *e);
static int type_query(typer *t, sql_query *q);
static uint8_t output_affinity(const sql_query *q, uint32_t i);

static bool is_number(lt_type type)
{
    return type == LT_INT64 || type == LT_DOUBLE || type == LT_DECIMAL;
}

static uint32_t default_size(lt_type type)
{
    switch (type) {
    case LT_BOOL:      return 1;
    case LT_INT64:     return 19;
    case LT_DOUBLE:    return 15;
    case LT_DECIMAL:   return 38;
    case LT_DATE:      return 10;
    case LT_TIME:      return 8;
    case LT_TIMESTAMP: return 19;
    case LT_GUID:      return 36;
    case LT_TEXT:
    case LT_BINARY:    return 255;
    case LT_NULL:      return 1;
    }
    return 1;
}

static sql_type make_type(lt_type type, int16_t scale, uint32_t size, bool nullable)
{
    sql_type st = {type, scale, size, nullable, false};
    return st;
}

/* The type of a constant value as written. */
static sql_type value_type(const lt_value *v, bool nullable)
{
    sql_type st = make_type(v->type, 0, default_size(v->type), nullable || v->type == LT_NULL);
    switch (v->type) {
    case LT_DECIMAL: {
        uint32_t digits = sql_decimal_digits(v->u.dec);
        st.scale = v->scale;
        st.size = digits > (uint32_t)v->scale ? digits : (uint32_t)v->scale;
        if (st.size == 0)
            st.size = 1;
        break;
    }
    case LT_TEXT:
    case LT_BINARY: {
        uint32_t n = v->type == LT_TEXT ? sql_utf8_length(v->u.bytes.ptr, v->u.bytes.len)
                                        : v->u.bytes.len;
        st.size = n ? n : 1;
        break;
    }
    case LT_TIME:
    case LT_TIMESTAMP:
        if (v->u.i64 % 1000000 != 0) {
            st.scale = 6;
            st.size += 7;
        }
        break;
    default:
        break;
    }
    return st;
}

static const lt_value *const_value(const typer *t, const sql_expr *e)
{
    if (e->kind == SQL_E_LITERAL)
        return &e->value;
    if (e->kind == SQL_E_PARAM && t->params != NULL)
        return &t->params[e->param];
    return NULL;
}

static bool is_text_const(const typer *t, const sql_expr *e)
{
    const lt_value *v = const_value(t, e);
    return v != NULL && v->type == LT_TEXT;
}

/* At prepare, a parameter takes the type its context implies. */
static void hint(typer *t, sql_expr *e, lt_type type)
{
    if (e->kind == SQL_E_PARAM && t->params == NULL && t->q->param_hints[e->param] == LT_NULL)
        t->q->param_hints[e->param] = type;
}

static void set_want(sql_expr *e, lt_type type, int16_t scale)
{
    e->conv = e->t.type != type || (type == LT_DECIMAL && e->t.scale != scale);
    e->want = type;
    e->want_scale = scale;
}

static int type_error(typer *t, const sql_expr *e, const char *what, lt_type a, lt_type b)
{
    if (b == LT_NULL)
        return lt_error_set(t->err, "42000", "%s %s (line %u, column %u)", what,
                            sql_type_name(a), e->line, e->column);
    return lt_error_set(t->err, "42000", "%s %s and %s (line %u, column %u)", what,
                        sql_type_name(a), sql_type_name(b), e->line, e->column);
}

/* The type a text constant stands for next to operands of kind `family`. */
static int text_const_type(typer *t, const sql_expr *e, lt_type family, sql_type *out)
{
    const lt_value *v = const_value(t, e);
    lt_value conv;
    if (is_number(family)) {
        if (!sql_parse_number(v->u.bytes.ptr, v->u.bytes.len, &conv)) {
            lt_error_set(t->err, "22018", "'%.*s' is not a number",
                         v->u.bytes.len > 60 ? 60 : (int)v->u.bytes.len, v->u.bytes.ptr);
            return sql_error_at(t->err, e);
        }
        *out = value_type(&conv, false);
        return 0;
    }
    /* '2020-01-02 10:30' next to a date compares as a timestamp. */
    if (family == LT_DATE && sql_convert_value(v, LT_DATE, 0, &conv, NULL) != 0 &&
        sql_convert_value(v, LT_TIMESTAMP, 0, &conv, NULL) == 0)
        family = LT_TIMESTAMP;
    if (family == LT_TEXT || family == LT_NULL) {
        *out = value_type(v, false);
        return 0;
    }
    if (sql_convert_value(v, family, 0, &conv, t->err) != 0)
        return sql_error_at(t->err, e);
    *out = value_type(&conv, false);
    return 0;
}

/* The common domain of two comparable types, LT_NULL when none. */
static lt_type unify(lt_type a, lt_type b)
{
    if (a == LT_NULL)
        return b;
    if (b == LT_NULL || a == b)
        return a;
    if ((a == LT_INT64 && b == LT_DECIMAL) || (a == LT_DECIMAL && b == LT_INT64))
        return LT_DECIMAL;
    if (is_number(a) && is_number(b))
        return LT_DOUBLE;
    if ((a == LT_BOOL && b == LT_INT64) || (a == LT_INT64 && b == LT_BOOL))
        return LT_INT64;
    if ((a == LT_DATE && b == LT_TIMESTAMP) || (a == LT_TIMESTAMP && b == LT_DATE))
        return LT_TIMESTAMP;
    return LT_NULL;
}

/* Operands typed together.  Comparison groups: the operands of a
** comparison, IN, BETWEEN, NULLIF, and a simple CASE's operand with its
** WHEN values.  Result groups: the values a CASE or COALESCE returns. */
static uint32_t group_size(const sql_expr *e, bool results)
{
    if (e->kind == SQL_E_CASE)
        return e->nargs / 2 + (results ? e->right != NULL : 1);
    if (e->kind == SQL_E_FUNC)
        return e->nargs;
    return e->kind == SQL_E_IN ? e->nargs + 1 : e->kind == SQL_E_BETWEEN ? 3 : 2;
}

static sql_expr *group_op(const sql_expr *e, bool results, uint32_t i)
{
    if (e->kind == SQL_E_CASE) {
        if (results)
            return i < e->nargs / 2 ? e->args[2 * i + 1] : e->right;
        return i == 0 ? e->left : e->args[2 * (i - 1)];
    }
    if (e->kind == SQL_E_FUNC)
        return e->args[i];
    if (i == 0)
        return e->left;
    if (e->kind == SQL_E_IN)
        return e->args[i - 1];
    return i == 1 ? e->right : e->third;
}

/* The type operand `op` is compared as in domain `dom`: its own, or for a
** text constant the value it reads as. */
static int effective_type(typer *t, const sql_expr *op, lt_type dom, sql_type *out)
{
    *out = op->t;
    if (is_text_const(t, op) && dom != LT_TEXT)
        return text_const_type(t, op, dom, out);
    return 0;
}

/* The domain a group's operands unify into; `kind` is the domain of the
** operands that are not text constants (what those constants read as). */
static int group_domain(typer *t, const sql_expr *e, bool results, lt_type *dom_out,
                        lt_type *kind_out)
{
    uint32_t n = group_size(e, results);
    const char *what = results ? "cannot mix" : "cannot compare";
    lt_type dom = LT_NULL;
    bool any_text_const = false;
    for (uint32_t i = 0; i < n; i++) {
        const sql_expr *op = group_op(e, results, i);
        if (is_text_const(t, op)) {
            any_text_const = true;
            continue;
        }
        if (op->t.type == LT_NULL)
            continue;
        lt_type u = unify(dom, op->t.type);
        if (u == LT_NULL)
            return type_error(t, e, what, dom, op->t.type);
        dom = u;
    }
    if (dom == LT_NULL && any_text_const)
        dom = LT_TEXT;
    /* A text constant takes the kind of the others; its value may widen the
    ** domain ('1.5' next to an INT64 column: DECIMAL). */
    lt_type kind = dom;
    for (uint32_t i = 0; i < n && any_text_const && dom != LT_TEXT; i++) {
        sql_type eff;
        if (effective_type(t, group_op(e, results, i), kind, &eff) != 0)
            return -1;
        lt_type u = unify(dom, eff.type);
        if (u == LT_NULL)
            return type_error(t, e, what, dom, eff.type);
        dom = u;
    }
    *dom_out = dom;
    *kind_out = kind;
    return 0;
}

static bool sqlite_source(const typer *t)
{
    return t->q->src != NULL && t->q->src->dialect == LT_DIALECT_SQLITE;
}

/* The kind of an operand for SQLite's affinity: 'C' a text constant, 'S'
** other text, 'N' a number, 'X' a blob, 'D' a date, time or GUID (kept on
** the typed rules), 0 an untyped NULL. */
static char affinity_kind(const typer *t, const sql_expr *op)
{
    if (is_text_const(t, op))
        return 'C';
    switch (op->t.type) {
    case LT_NULL:    return 0;
    case LT_TEXT:    return 'S';
    case LT_BINARY:  return 'X';
    case LT_BOOL:
    case LT_INT64:
    case LT_DOUBLE:
    case LT_DECIMAL: return 'N';
    default:         return 'D';
    }
}

/* Would SQLite compare x (affinity xa) and y (ya) otherwise than the typed
** rules?  Operands of one kind compare alike; a text constant against a
** number compares alike when the pair's affinity is NUMERIC and the text
** is a number (both then read it as that number); any other mix of
** numbers, text and blobs needs SQLite's rules. */
static bool pair_needs_affinity(const typer *t, const sql_expr *x, uint8_t xa, const sql_expr *y,
                                uint8_t ya)
{
    char kx = affinity_kind(t, x), ky = affinity_kind(t, y);
    bool tx = kx == 'C' || kx == 'S', ty = ky == 'C' || ky == 'S';
    if (kx == 0 || ky == 0 || kx == 'D' || ky == 'D')
        return false;
    if (x->t.dynamic || y->t.dynamic) /* rows of any type: compared as SQLite does */
        return true;
    if (kx == ky || (tx && ty))
        return false;
    if (((kx == 'C' && ky == 'N') || (kx == 'N' && ky == 'C')) &&
        sql_affinity_pair(xa, ya) == SQL_AFF_NUMERIC) {
        const lt_value *v = const_value(t, kx == 'C' ? x : y);
        lt_value num;
        if (sql_sqlite_text_number(v->u.bytes.ptr, v->u.bytes.len, &num) &&
            sql_parse_number(v->u.bytes.ptr, v->u.bytes.len, &num))
            return false;
    }
    return true;
}

/* Is op a column, or the sub-query's column a column, whose rows may hold
** values of other types (reader.h, lt_vector.tags)? */
static bool may_be_dynamic(const sql_expr *op)
{
    if (op->kind == SQL_E_SUBQUERY) {
        const sql_query *q = op->subq;
        while (q->setop != SQL_SET_NONE)
            q = q->lhs;
        op = q->noutputs > 0 ? q->outputs[0].expr : NULL;
        if (op == NULL)
            return false;
    }
    return op->kind == SQL_E_COLUMN || op->from_input;
}

/* x IN (SELECT c) where x or c is a column: its rows may hold numbers,
** text or blobs whatever its type, which the typed set (one type) cannot
** hold, so it is compared by keys (exec_subquery.c) — dates aside. */
static bool in_select_dynamic(const typer *t, const sql_expr *e)
{
    char kx = affinity_kind(t, e->left), ky = affinity_kind(t, e->right);
    if (kx == 0 || ky == 0 || kx == 'D' || ky == 'D')
        return false;
    return may_be_dynamic(e->left) || may_be_dynamic(e->right);
}

/* SQLite sources: does comparison group e mix kinds so that it must be
** compared with SQLite's affinity (affinity.c)?  IN's items have no
** affinity (SQLite reads `x IN (a, b)` as `x = +a OR x = +b`); BETWEEN is
** its two comparisons; a simple CASE compares its operand with each WHEN
** value. */
static bool group_needs_affinity(const typer *t, const sql_expr *e)
{
    /* NULL BETWEEN 'a' AND 1, NULL IN (1, 'a'), CASE NULL WHEN 1 ... WHEN
    ** 'a': SQLite never compares those operands with each other; the
    ** typed rules would unify them (22018) */
    if ((e->kind == SQL_E_BETWEEN || e->kind == SQL_E_IN || e->kind == SQL_E_CASE) &&
        e->left != NULL && affinity_kind(t, e->left) == 0)
        for (uint32_t i = 1; i < group_size(e, false); i++)
            for (uint32_t j = i + 1; j < group_size(e, false); j++)
                if (pair_needs_affinity(t, group_op(e, false, i), SQL_AFF_NONE,
                                        group_op(e, false, j), SQL_AFF_NONE))
                    return true;
    switch (e->kind) {
    case SQL_E_COMPARE:
        return pair_needs_affinity(t, e->left, e->left->affinity, e->right, e->right->affinity);
    case SQL_E_BETWEEN:
        return pair_needs_affinity(t, e->left, e->left->affinity, e->right, e->right->affinity) ||
               pair_needs_affinity(t, e->left, e->left->affinity, e->third, e->third->affinity);
    case SQL_E_IN:
        for (uint32_t i = 0; i < e->nargs; i++)
            if (pair_needs_affinity(t, e->left, e->left->affinity, e->args[i], SQL_AFF_NONE))
                return true;
        return false;
    case SQL_E_CASE:
        for (uint32_t i = 0; i + 1 < e->nargs; i += 2)
            if (pair_needs_affinity(t, e->left, e->left->affinity, e->args[i],
                                    e->args[i]->affinity))
                return true;
        return false;
    case SQL_E_IN_SELECT: /* the left side against the sub-query's column */
        return pair_needs_affinity(t, e->left, e->left->affinity, e->right, e->right->affinity) ||
               in_select_dynamic(t, e);
    case SQL_E_FUNC: /* NULLIF: a function's arguments compare without affinity */
        return e->nargs == 2 && pair_needs_affinity(t, e->args[0], SQL_AFF_NONE, e->args[1],
                                                    SQL_AFF_NONE);
    default:
        return false;
    }
}

/* Unify the operands' types into a domain, then tell each operand how the
** comparison kernel wants to read it.  On SQLite sources a group that
** mixes numbers and text reads its operands as they are and compares them
** row by row as SQLite does. */
static int type_compare_group(typer *t, sql_expr *e)
{
    e->affinity_cmp = sqlite_source(t) && group_needs_affinity(t, e);
    if (e->affinity_cmp) {
        for (uint32_t i = 0; i < group_size(e, false); i++) {
            sql_expr *op = group_op(e, false, i);
            set_want(op, op->t.type, op->t.scale);
        }
        return 0;
    }
    lt_type dom, kind;
    if (group_domain(t, e, false, &dom, &kind) != 0)
        return -1;
    uint32_t n = group_size(e, false);
    for (uint32_t i = 0; i < n; i++) {
        sql_expr *op = group_op(e, false, i);
        sql_type eff;
        if (effective_type(t, op, kind, &eff) != 0)
            return -1;
        lt_type ty = eff.type;
        int16_t scale = eff.scale;
        hint(t, op, dom);
        if (ty == LT_NULL || ty == dom) {
            /* same domain: no conversion (DECIMAL scales are the kernel's) */
        } else if (dom == LT_DOUBLE && ty == LT_INT64) {
            /* INT64 against DOUBLE: compared exactly, unconverted */
        } else if (dom == LT_DECIMAL && ty == LT_INT64) {
            ty = LT_DECIMAL;
            scale = 0;
        } else {
            ty = dom;
            scale = 0;
        }
        set_want(op, ty == LT_NULL ? op->t.type : ty, scale);
    }
    return 0;
}

/* Characters a value of type `st` takes as text (sql_format_value). */
static uint32_t text_size(const sql_type *st)
{
    switch (st->type) {
    case LT_BOOL:      return 1;
    case LT_INT64:     return (st->size ? st->size : 19) + 1;
    case LT_DOUBLE:    return 24;
    case LT_DECIMAL:   return st->size + 2;
    case LT_DATE:      return 10;
    case LT_TIME:      return 15;
    case LT_TIMESTAMP: return 26;
    case LT_GUID:      return 36;
    case LT_TEXT:
    case LT_BINARY:    return st->size;
    case LT_NULL:      return 1;
    }
    return 0;
}

/* SQLite sources: do the values a CASE or COALESCE returns mix numbers
** with text or blobs, or is one of them such a mix already? */
static bool mixes_kinds(const typer *t, const sql_expr *e)
{
    bool num = false, text = false, blob = false;
    for (uint32_t i = 0; i < group_size(e, true); i++) {
        const sql_expr *op = group_op(e, true, i);
        if (op->t.dynamic)
            return true;
        switch (affinity_kind(t, op)) {
        case 'N': num = true; break;
        case 'S': text = true; break;
        case 'X': blob = true; break;
        case 'C':
            /* a literal is text even when it reads as a number ('1'); a
            ** parameter keeps the type its context gave it at prepare */
            if (op->kind != SQL_E_PARAM)
                text = true;
            break;
        case 'D': return false; /* dates keep the typed rules */
        default: break;
        }
    }
    return (num && (text || blob)) || (text && blob);
}

/* ... then, as SQLite, each value keeps its own type: the result is
** dynamically typed (sql_type.dynamic: described as text long enough for
** any value, its rows of other types tagged), its values not converted. */
static void type_dynamic(typer *t, sql_expr *e, sql_type *out)
{
    uint32_t size = 1;
    for (uint32_t i = 0; i < group_size(e, true); i++) {
        sql_expr *op = group_op(e, true, i);
        uint32_t sz = text_size(&op->t);
        if (sz > size)
            size = sz;
        hint(t, op, LT_TEXT);
        set_want(op, op->t.type, op->t.scale);
    }
    *out = make_type(LT_TEXT, 0, size, true);
    out->dynamic = true;
}

/* The type the values of a result group share (CASE, COALESCE): every one
** is converted to it.  Numbers widen INT64 -> DECIMAL -> DOUBLE (DECIMAL
** keeping the most integer digits and the largest scale), DATE widens to
** TIMESTAMP, BOOL to INT64; text sizes are the largest. */
static int type_common(typer *t, sql_expr *e, sql_type *out)
{
    lt_type dom, kind;
    if (sqlite_source(t) && mixes_kinds(t, e)) {
        type_dynamic(t, e, out);
        return 0;
    }
    if (group_domain(t, e, true, &dom, &kind) != 0)
        return -1;
    uint32_t n = group_size(e, true);
    uint32_t size = 0, int_digits = 0;
    int16_t scale = 0;
    for (uint32_t i = 0; i < n; i++) {
        sql_type eff;
        if (effective_type(t, group_op(e, true, i), kind, &eff) != 0)
            return -1;
        if (eff.type == LT_NULL)
            continue;
        if (dom == LT_DECIMAL || dom == LT_TIME || dom == LT_TIMESTAMP) {
            int16_t s = eff.type == LT_DECIMAL || eff.type == dom ? eff.scale : 0;
            uint32_t p = eff.type == LT_DECIMAL ? eff.size : 19;
            if (s > scale)
                scale = s;
            if (p > (uint32_t)s && p - (uint32_t)s > int_digits)
                int_digits = p - (uint32_t)s;
        }
        uint32_t sz = dom == LT_TEXT ? text_size(&eff) : eff.size;
        if (sz > size)
            size = sz;
    }
    *out = make_type(dom, 0, dom == LT_NULL ? 1 : default_size(dom), true);
    if (dom == LT_DECIMAL) {
        out->scale = scale;
        out->size = int_digits + (uint32_t)scale > 38 ? 38 : int_digits + (uint32_t)scale;
        if (out->size == 0)
            out->size = 1;
    } else if (dom == LT_TEXT || dom == LT_BINARY) {
        out->size = size;
    } else if (dom == LT_TIME || dom == LT_TIMESTAMP) {
        out->scale = scale;
        out->size += scale ? 1 + (uint32_t)scale : 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        sql_expr *op = group_op(e, true, i);
        hint(t, op, dom);
        set_want(op, dom == LT_NULL ? op->t.type : dom, out->scale);
    }
    return 0;
}

static bool is_datetime(lt_type type)
{
    return type == LT_DATE || type == LT_TIMESTAMP;
}

/* Date arithmetic, counted in days (as Access and SQL Server's datetime):
** date ± integer is a DATE; a TIMESTAMP, or a fractional number of days,
** makes a TIMESTAMP; date − date is whole days (INT64); a TIMESTAMP on
** either side of a difference makes days as a DOUBLE.  ty are the operand
** types, one of them DATE or TIMESTAMP; eval.c's arith_datetime computes. */
static int type_date_arith(typer *t, sql_expr *e, const sql_type ty[2])
{
    sql_expr *ops[2] = {e->left, e->right};
    lt_type a = ty[0].type, b = ty[1].type;
    bool nullable = ops[0]->t.nullable || ops[1]->t.nullable;
    if (e->op == SQL_OP_SUB && is_datetime(a) && is_datetime(b)) {
        lt_type both = a == LT_DATE && b == LT_DATE ? LT_DATE : LT_TIMESTAMP;
        hint(t, ops[0], both);
        hint(t, ops[1], both);
        set_want(ops[0], both, 0);
        set_want(ops[1], both, 0);
        e->t = both == LT_DATE ? make_type(LT_INT64, 0, 10, nullable)
                               : make_type(LT_DOUBLE, 0, 15, nullable);
        return 0;
    }
    /* date + n, n + date, date − n; n a number or NULL. */
    int d = is_datetime(a) ? 0 : 1;
    lt_type n = ty[1 - d].type;
    if ((e->op != SQL_OP_ADD && !(e->op == SQL_OP_SUB && d == 0)) ||
        (n != LT_NULL && !is_number(n)))
        return type_error(t, e, e->op == SQL_OP_ADD || e->op == SQL_OP_SUB
                                    ? "date arithmetic adds or subtracts a number of days, not"
                                    : "arithmetic needs numbers, not",
                          a, b);
    lt_type res = ty[d].type == LT_TIMESTAMP || n == LT_DOUBLE || n == LT_DECIMAL ? LT_TIMESTAMP
                                                                                    : LT_DATE;
    lt_type days = res == LT_DATE ? LT_INT64 : LT_DOUBLE;
    hint(t, ops[d], res);
    hint(t, ops[1 - d], days);
    set_want(ops[d], res, 0);
    set_want(ops[1 - d], days, 0);
    e->t = res == LT_DATE ? make_type(LT_DATE, 0, 10, nullable)
                          : make_type(LT_TIMESTAMP, 6, 26, nullable);
    return 0;
}

static int type_arith(typer *t, sql_expr *e)
{
    sql_expr *ops[2] = {e->left, e->right};
    sql_type ty[2];
    for (int i = 0; i < 2; i++) {
        ty[i] = ops[i]->t;
        if (!is_text_const(t, ops[i]))
            continue;
        /* A text that is no number beside a date, in a difference, is a
        ** date: born - '1990-01-01'. */
        lt_type family = LT_DOUBLE, other = ops[1 - i]->t.type;
        lt_value num;
        const lt_value *v = const_value(t, ops[i]);
        if (e->op == SQL_OP_SUB && is_datetime(other) &&
            !sql_parse_number(v->u.bytes.ptr, v->u.bytes.len, &num))
            family = other;
        if (text_const_type(t, ops[i], family, &ty[i]) != 0)
            return -1;
    }
    if (is_datetime(ty[0].type) || is_datetime(ty[1].type))
        return type_date_arith(t, e, ty);
    for (int i = 0; i < 2; i++) {
        if (ty[i].type != LT_NULL && !is_number(ty[i].type))
            return type_error(t, e, "arithmetic needs numbers, not", ty[i].type, LT_NULL);
    }
    for (int i = 0; i < 2; i++)
        if (ty[i].type == LT_NULL)
            ty[i] = ty[1 - i];
    hint(t, ops[0], ty[0].type);
    hint(t, ops[1], ty[1].type);
    bool nullable = ops[0]->t.nullable || ops[1]->t.nullable;
    lt_type a = ty[0].type, b = ty[1].type;
    if (a == LT_NULL) {
        e->t = make_type(LT_NULL, 0, 1, true);
        return 0;
    }
    if (a == LT_INT64 && b == LT_INT64) {
        e->t = make_type(LT_INT64, 0, 19, nullable);
        set_want(ops[0], LT_INT64, 0);
        set_want(ops[1], LT_INT64, 0);
        return 0;
    }
    /* INT64 joins decimals as DECIMAL(19,0). */
    int16_t s[2];
    uint32_t p[2];
    for (int i = 0; i < 2; i++) {
        s[i] = ty[i].type == LT_DECIMAL ? ty[i].scale : 0;
        p[i] = ty[i].type == LT_DECIMAL ? ty[i].size : 19;
    }
    bool dbl = a == LT_DOUBLE || b == LT_DOUBLE || e->op == SQL_OP_DIV ||
               (e->op == SQL_OP_MUL && s[0] + s[1] > SQL_DEC_MAX_DIGITS);
    if (dbl) {
        e->t = make_type(LT_DOUBLE, 0, 15, nullable);
        set_want(ops[0], LT_DOUBLE, 0);
        set_want(ops[1], LT_DOUBLE, 0);
        return 0;
    }
    if (e->op == SQL_OP_MUL) {
        uint32_t prec = p[0] + p[1];
        e->t = make_type(LT_DECIMAL, (int16_t)(s[0] + s[1]), prec > 38 ? 38 : prec, nullable);
        set_want(ops[0], LT_DECIMAL, s[0]);
        set_want(ops[1], LT_DECIMAL, s[1]);
        return 0;
    }
    int16_t scale = s[0] > s[1] ? s[0] : s[1];
    uint32_t int0 = p[0] > (uint32_t)s[0] ? p[0] - s[0] : 0;
    uint32_t int1 = p[1] > (uint32_t)s[1] ? p[1] - s[1] : 0;
    uint32_t prec = (int0 > int1 ? int0 : int1) + scale + (e->op == SQL_OP_MOD ? 0 : 1);
    e->t = make_type(LT_DECIMAL, scale, prec > 38 ? 38 : prec ? prec : 1, nullable);
    set_want(ops[0], LT_DECIMAL, scale);
    set_want(ops[1], LT_DECIMAL, scale);
    return 0;
}

static int type_neg(typer *t, sql_expr *e)
{
    sql_type ty = e->left->t;
    if (is_text_const(t, e->left) && text_const_type(t, e->left, LT_DOUBLE, &ty) != 0)
        return -1;
    if (ty.type != LT_NULL && !is_number(ty.type))
        return type_error(t, e, "unary minus needs a number, not", ty.type, LT_NULL);
    set_want(e->left, ty.type, ty.scale);
    ty.nullable = e->left->t.nullable;
    if (ty.type == LT_INT64)
        ty.size = 19;
    e->t = ty;
    return 0;
}

/* Operands that must be of one type (BOOL for AND/OR/NOT, TEXT for LIKE). */
static int need_type(typer *t, sql_expr *e, lt_type type, const char *what)
{
    hint(t, e, type);
    if (e->t.type != LT_NULL && e->t.type != type)
        return type_error(t, e, what, e->t.type, LT_NULL);
    set_want(e, type, 0);
    return 0;
}

static bool any_nullable(const sql_expr *e)
{
    uint32_t n = sql_expr_nchildren(e);
    for (uint32_t i = 0; i < n; i++)
        if (sql_expr_child(e, i)->t.nullable)
            return true;
    return false;
}

/* COUNT: INT64.  SUM: INT64 -> INT64, DECIMAL(p,s) -> DECIMAL(38,s),
** DOUBLE -> DOUBLE.  AVG: INT64 and DOUBLE -> DOUBLE, DECIMAL(p,s) ->
** DECIMAL(38,s') with s' = s + min(max(6 - s, 0), 38 - p), so the mean of
** p-digit values always fits.  MIN, MAX: the argument's type.  All but
** COUNT are NULL over no rows. */
static int type_aggregate(typer *t, sql_expr *e)
{
    sql_agg agg = e->fn->agg;
    if (agg == SQL_AGG_COUNT) {
        e->t = make_type(LT_INT64, 0, 19, false);
        return 0;
    }
    sql_expr *arg = e->args[0];
    sql_type ty = arg->t;
    if (agg == SQL_AGG_MIN || agg == SQL_AGG_MAX) {
        if (ty.dynamic) /* its state holds one type */
            return lt_error_set(t->err, "42000",
                                "%s of values that mix numbers and text is not supported (line %u, column %u)",
                                e->fn->name, e->line, e->column);
        e->t = ty;
        e->t.nullable = true;
        return 0;
    }
    if (is_text_const(t, arg) && text_const_type(t, arg, LT_DOUBLE, &ty) != 0)
        return -1;
    hint(t, arg, LT_DOUBLE);
    if (ty.type == LT_NULL)
        ty = make_type(LT_INT64, 0, 19, true);
    if (!is_number(ty.type))
        return lt_error_set(t->err, "42000", "%s needs numbers, not %s (line %u, column %u)",
                            e->fn->name, sql_type_name(ty.type), e->line, e->column);
    set_want(arg, ty.type, ty.scale);
    if (ty.type == LT_DOUBLE || (agg == SQL_AGG_AVG && ty.type == LT_INT64)) {
        e->t = make_type(LT_DOUBLE, 0, 15, true);
    } else if (ty.type == LT_INT64) {
        e->t = make_type(LT_INT64, 0, 19, true);
    } else {
        int p = ty.size > 38 ? 38 : (int)ty.size, s = ty.scale;
        if (agg == SQL_AGG_AVG) {
            int more = 6 - s > 0 ? 6 - s : 0;
            s += more < 38 - p ? more : 38 - p;
        }
        e->t = make_type(LT_DECIMAL, (int16_t)s, 38, true);
    }
    return 0;
}

/* CASE: searched, every WHEN a BOOL; simple, the operand and the WHEN
** values compared as one group.  The THEN and ELSE values share a type. */
static int type_case(typer *t, sql_expr *e)
{
    if (e->left != NULL) {
        if (type_compare_group(t, e) != 0)
            return -1;
    } else {
        for (uint32_t i = 0; i < e->nargs; i += 2)
            if (need_type(t, e->args[i], LT_BOOL, "CASE WHEN needs a BOOLEAN condition, not") != 0)
                return -1;
    }
    if (type_common(t, e, &e->t) != 0)
        return -1;
    e->t.nullable = e->right == NULL;
    for (uint32_t i = 0; i < group_size(e, true); i++)
        e->t.nullable |= group_op(e, true, i)->t.nullable;
    return 0;
}

/* CAST(x AS type): the type named; VARCHAR without a length is as long as
** x's text. */
static int type_cast(typer *t, sql_expr *e)
{
    const sql_type *from = &e->left->t;
    if (!sql_cast_allowed(from->type, e->cast.type))
        return lt_error_set(t->err, "42000", "cannot CAST %s to %s (line %u, column %u)",
                            sql_type_name(from->type), sql_type_name(e->cast.type), e->line,
                            e->column);
    hint(t, e->left, e->cast.type);
    e->t = make_type(e->cast.type, e->cast.scale, e->cast.size, from->nullable);
    if ((e->cast.type == LT_TEXT || e->cast.type == LT_BINARY) && e->cast.size == 0)
        e->t.size = e->cast.type == LT_TEXT ? text_size(from) : from->size;
    if (sqlite_source(t))
        e->affinity = sql_affinity_of_type(e->cast.type);
    return 0;
}

/* a || b: TEXT, either operand written as text; NULL when either is. */
static int type_concat(typer *t, sql_expr *e)
{
    uint32_t size = 0;
    bool known = true;
    for (int i = 0; i < 2; i++) {
        sql_expr *op = i == 0 ? e->left : e->right;
        hint(t, op, LT_TEXT);
        set_want(op, op->t.type == LT_NULL ? LT_NULL : LT_TEXT, 0);
        uint32_t n = text_size(&op->t);
        known &= n > 0;
        size += n;
    }
    /* Access's `&` reads NULL as '': NULL only when both operands are. */
    bool nullable = sql_amp_reads_null_as_empty(t->q->src, e)
                        ? e->left->t.nullable && e->right->t.nullable
                        : any_nullable(e);
    e->t = make_type(LT_TEXT, 0, known ? size : SQL_SIZE_UNKNOWN, nullable);
    return 0;
}

/* Argument i of a scalar function, read as its class says (func.h). */
static int type_arg(typer *t, sql_expr *e, uint32_t i)
{
    sql_expr *a = e->args[i];
    sql_arg cls = sql_func_arg(e->fn, i);
    sql_type ty = a->t;
    const char *need = NULL;
    switch (cls) {
    case SQL_ARG_ANY:
    case SQL_ARG_UNIT:
        return 0;
    case SQL_ARG_TEXT:
        hint(t, a, LT_TEXT);
        set_want(a, ty.type == LT_NULL ? LT_NULL : LT_TEXT, 0);
        return 0;
    case SQL_ARG_INT:
    case SQL_ARG_NUMBER:
    case SQL_ARG_DOUBLE:
        if (is_text_const(t, a) && text_const_type(t, a, LT_DOUBLE, &ty) != 0)
            return -1;
        hint(t, a, cls == SQL_ARG_INT ? LT_INT64 : LT_DOUBLE);
        if (ty.type == LT_NULL || is_number(ty.type)) {
            lt_type want = cls == SQL_ARG_INT ? LT_INT64 : cls == SQL_ARG_DOUBLE ? LT_DOUBLE : ty.type;
            set_want(a, want, want == LT_DECIMAL ? ty.scale : 0);
            return 0;
        }
        need = "a number";
        break;
    case SQL_ARG_DATETIME:
    case SQL_ARG_TIME:
        if (is_text_const(t, a)) {
            /* '10:30' is a time where one may stand, else a timestamp. */
            lt_value v;
            lt_type as = cls == SQL_ARG_TIME && sql_convert_value(const_value(t, a), LT_TIME, 0, &v, NULL) == 0
                             ? LT_TIME : LT_TIMESTAMP;
            if (text_const_type(t, a, as, &ty) != 0)
                return -1;
        }
        hint(t, a, LT_TIMESTAMP);
        if (ty.type == LT_NULL || ty.type == LT_DATE || ty.type == LT_TIMESTAMP ||
            (cls == SQL_ARG_TIME && ty.type == LT_TIME)) {
            set_want(a, ty.type == LT_NULL || ty.type == LT_TIME ? ty.type : LT_TIMESTAMP, 0);
            return 0;
        }
        need = cls == SQL_ARG_TIME ? "a time or a timestamp" : "a date or a timestamp";
        break;
    }
    return lt_error_set(t->err, "42000", "argument %u of %s must be %s, not %s (line %u, column %u)",
                        i + 1, e->fn->name, need, sql_type_name(ty.type), a->line, a->column);
}

/* A scalar function's result, by its table entry's rule. */
static int type_scalar(typer *t, sql_expr *e)
{
    const sql_func *fn = e->fn;
    for (uint32_t i = 0; i < e->nargs; i++)
        if (type_arg(t, e, i) != 0)
            return -1;
    const sql_expr *a0 = e->nargs > 0 ? e->args[0] : NULL;
    sql_type arg0 = {LT_NULL, 0, 1, true, false};
    if (a0 != NULL) {
        arg0 = a0->t;
        if (a0->conv) {
            arg0.type = a0->want;
            arg0.scale = a0->want_scale;
        }
    }
    bool nullable = any_nullable(e) || fn->partial;
    switch (fn->result) {
    case SQL_RES_INT64:
        e->t = make_type(LT_INT64, 0, fn->size ? fn->size : 19, nullable);
        return 0;
    case SQL_RES_DOUBLE:
        e->t = make_type(LT_DOUBLE, 0, 15, nullable);
        return 0;
    case SQL_RES_TEXT:
        e->t = make_type(LT_TEXT, 0, fn->size == SQL_SIZE_ARG0 ? text_size(&arg0) : fn->size, nullable);
        return 0;
    case SQL_RES_DATE:
        e->t = make_type(LT_DATE, 0, 10, nullable);
        return 0;
    case SQL_RES_TIME:
    case SQL_RES_TIMESTAMP: {
        int16_t scale = (int16_t)(fn->size ? 6 : 0);
        lt_type ty = fn->result == SQL_RES_TIME ? LT_TIME : LT_TIMESTAMP;
        e->t = make_type(ty, scale, (ty == LT_TIME ? 8 : 19) + (scale ? 7 : 0), nullable);
        return 0;
    }
    case SQL_RES_ARG0:
    case SQL_RES_ROUND:
    case SQL_RES_INTEGRAL:
        e->t = arg0;
        e->t.nullable = nullable;
        if (arg0.type == LT_NULL)
            e->t = make_type(LT_NULL, 0, 1, true);
        if (arg0.type == LT_INT64)
            e->t.size = 19;
        if (arg0.type == LT_DECIMAL && fn->result == SQL_RES_ROUND)
            e->t.size = arg0.size < 38 ? arg0.size + 1 : 38;
        if (arg0.type == LT_DECIMAL && fn->result == SQL_RES_INTEGRAL) {
            uint32_t digits = arg0.size > (uint32_t)arg0.scale ? arg0.size - (uint32_t)arg0.scale : 0;
            e->t.size = digits + 1 > 38 ? 38 : digits + 1;
            e->t.scale = 0;
        }
        return 0;
    case SQL_RES_CONCAT: {
        uint32_t size = 0;
        for (uint32_t i = 0; i < e->nargs; i++) {
            uint32_t n = text_size(&e->args[i]->t);
            if (n == 0 || size + n > 1u << 30) {
                size = 0;
                break;
            }
            size += n;
        }
        e->t = make_type(LT_TEXT, 0, size, fn->partial);
        return 0;
    }
    default:
        break;
    }
    return lt_error_set(t->err, "HY000", "internal error: no typing rule for %s", fn->name);
}

static int type_func(typer *t, sql_expr *e)
{
    switch (e->fn->result) {
    case SQL_RES_AGGREGATE:
        return type_aggregate(t, e);
    case SQL_RES_COMMON: {
        if (type_common(t, e, &e->t) != 0)
            return -1;
        e->t.nullable = true;
        for (uint32_t i = 0; i < e->nargs; i++)
            e->t.nullable &= e->args[i]->t.nullable;
        return 0;
    }
    case SQL_RES_NULLIF: {
        if (type_compare_group(t, e) != 0)
            return -1;
        const sql_expr *a = e->args[0];
        e->t = a->t;
        if (a->conv) {
            e->t.type = a->want;
            e->t.scale = a->want_scale;
            e->t.size = default_size(a->want);
        }
        e->t.nullable = true;
        return 0;
    }
    default:
        return type_scalar(t, e);
    }
}

/* Subqueries: a scalar one has its one column's type (NULL when it finds
** no row); EXISTS is a BOOLEAN never NULL; x IN (SELECT c ...) compares x
** with c as `=` does, both read as one type so that the values hash alike;
** an outer value has its outer expression's type. */
static int type_subquery(typer *t, sql_expr *e)
{
    switch (e->kind) {
    case SQL_E_SUBQUERY: {
        sql_query *saved = t->q;
        int rc = type_query(t, e->subq);
        /* the semi-join form (planner.c) follows its query's types */
        if (rc == 0 && e->subq->semi != NULL)
            rc = type_query(t, e->subq->semi);
        t->q = saved;
        if (rc != 0)
            return -1;
        if (e->subq->nvisible == 0) { /* EXISTS over a table without columns */
            e->t = make_type(LT_NULL, 0, 1, true);
            return 0;
        }
        const lt_column *d = &e->subq->outputs[0].col.desc;
        e->t = make_type(d->type, d->scale, d->size, true);
        if (sqlite_source(t))
            e->affinity = output_affinity(e->subq, 0);
        return 0;
    }
    case SQL_E_EXISTS:
        e->t = make_type(LT_BOOL, 0, 1, false);
        return 0;
    case SQL_E_IN_SELECT: {
        e->t = make_type(LT_BOOL, 0, 1, true);
        if (type_compare_group(t, e) != 0)
            return -1;
        if (e->affinity_cmp) /* compared by SQLite's rules (exec_subquery.c) */
            return 0;
        sql_expr *ops[2] = {e->left, e->right};
        lt_type ty[2];
        int16_t sc[2];
        for (int i = 0; i < 2; i++) {
            ty[i] = ops[i]->conv ? ops[i]->want : ops[i]->t.type;
            sc[i] = ops[i]->conv ? ops[i]->want_scale : ops[i]->t.scale;
        }
        lt_type same = ty[0] == LT_NULL ? ty[1] : ty[1] == LT_NULL || ty[0] == ty[1] ? ty[0]
                     : LT_DOUBLE; /* INT64 against DOUBLE */
        int16_t scale = sc[0] > sc[1] ? sc[0] : sc[1];
        for (int i = 0; i < 2; i++)
            if (ty[i] != LT_NULL)
                set_want(ops[i], same, same == LT_DECIMAL ? scale : 0);
        return 0;
    }
    default: /* SQL_E_OUTER */
        e->t = e->corr->t;
        e->t.nullable = true;
        e->affinity = e->corr->affinity;
        return 0;
    }
}

/* SQLite: a base table's column has its declared type's affinity; a
** derived table's or view's, that of its query's expression (a compound's:
** its first SELECT's). */
static uint8_t output_affinity(const sql_query *q, uint32_t i)
{
    while (q->setop != SQL_SET_NONE)
        q = q->lhs;
    if (i < q->noutputs && q->outputs[i].expr != NULL)
        return q->outputs[i].expr->affinity;
    return SQL_AFF_NONE;
}

static uint8_t column_affinity(const sql_query *q, const sql_expr *e)
{
    const sql_range *rg = &q->ranges[e->range];
    if (rg->sub == NULL)
        return sql_affinity_of_declared(e->source->type_name);
    return output_affinity(rg->sub, e->table_col);
}

static int type_expr(typer *t, sql_expr *e)
{
    uint32_t n = sql_expr_nchildren(e);
    for (uint32_t i = 0; i < n; i++)
        if (type_expr(t, sql_expr_child(e, i)) != 0)
            return -1;
    e->conv = false;
    e->affinity = SQL_AFF_NONE;
    e->affinity_cmp = false;
    sql_type boolean = make_type(LT_BOOL, 0, 1, any_nullable(e));
    switch (e->kind) {
    case SQL_E_LITERAL:
        e->t = value_type(&e->value, false);
        return 0;
    case SQL_E_PARAM:
        if (t->params != NULL)
            e->t = value_type(&t->params[e->param], true);
        else
            e->t = make_type(LT_NULL, 0, 1, true);
        return 0;
    case SQL_E_COLUMN: {
        const lt_column *c = e->source;
        e->t = make_type(c->type, c->scale, c->size, c->nullable || t->q->ranges[e->range].outer);
        if (sqlite_source(t))
            e->affinity = column_affinity(t->q, e);
        return 0;
    }
    case SQL_E_NEG:
        return type_neg(t, e);
    case SQL_E_ARITH:
        return type_arith(t, e);
    case SQL_E_COMPARE:
    case SQL_E_BETWEEN:
    case SQL_E_IN:
        e->t = boolean;
        return type_compare_group(t, e);
    case SQL_E_AND:
    case SQL_E_OR:
        e->t = boolean;
        if (need_type(t, e->right, LT_BOOL, "AND/OR needs BOOLEAN operands, not") != 0)
            return -1;
        /* fall through */
    case SQL_E_NOT:
        e->t = boolean;
        return need_type(t, e->left, LT_BOOL,
                         e->kind == SQL_E_NOT ? "NOT needs a BOOLEAN operand, not"
                                              : "AND/OR needs BOOLEAN operands, not");
    case SQL_E_IS_NULL:
        e->t = make_type(LT_BOOL, 0, 1, false);
        return 0;
    case SQL_E_LIKE:
        e->t = boolean;
        for (uint32_t i = 0; i < n; i++)
            if (need_type(t, sql_expr_child(e, i), LT_TEXT, "LIKE needs TEXT, not") != 0)
                return -1;
        return 0;
    case SQL_E_FUNC:
        return type_func(t, e);
    case SQL_E_CONCAT:
        return type_concat(t, e);
    case SQL_E_CASE:
        return type_case(t, e);
    case SQL_E_CAST:
        return type_cast(t, e);
    case SQL_E_SUBQUERY:
    case SQL_E_EXISTS:
    case SQL_E_IN_SELECT:
    case SQL_E_OUTER:
        return type_subquery(t, e);
    }
    return lt_error_set(t->err, "42000", "unsupported expression (line %u, column %u)",
                        e->line, e->column);
}

/* LIMIT and OFFSET read as INT64. */
static int type_count(typer *t, sql_expr *e)
{
    if (e == NULL)
        return 0;
    if (type_expr(t, e) != 0)
        return -1;
    hint(t, e, LT_INT64);
    set_want(e, LT_INT64, 0);
    return 0;
}

static const char *computed_type_name(lt_type type, uint32_t size)
{
    switch (type) {
    case LT_BOOL:      return "BIT";
    case LT_INT64:     return size == 3 ? "TINYINT" : size == 5 ? "SMALLINT" : size == 10 ? "INTEGER" : "BIGINT";
    case LT_DOUBLE:    return size == 7 ? "REAL" : "DOUBLE";
    case LT_DECIMAL:   return "DECIMAL";
    case LT_BINARY:    return "VARBINARY";
    case LT_DATE:      return "DATE";
    case LT_TIME:      return "TIME";
    case LT_TIMESTAMP: return "TIMESTAMP";
    case LT_GUID:      return "GUID";
    case LT_TEXT:
    case LT_NULL:      return "VARCHAR";
    }
    return "VARCHAR";
}

/* What the client sees of an output: a column shown as it is keeps its
** source's description; a computed one is described by its type. */
static void describe(sql_output *o)
{
    sql_expr *e = o->expr;
    lt_column *d = &o->col.desc;
    if (e->t.type == LT_NULL)
        set_want(e, LT_TEXT, 0); /* an untyped NULL is shown as text */
    if (e->kind == SQL_E_COLUMN) {
        *d = *e->source;
        d->nullable = e->t.nullable; /* a LEFT JOIN's right side may be NULL */
    } else {
        memset(d, 0, sizeof *d);
        d->type = e->conv ? e->want : e->t.type;
        d->size = e->t.size;
        d->scale = e->t.scale;
        d->nullable = e->t.nullable;
        d->type_name = computed_type_name(d->type, d->size);
    }
    d->name = (char *)o->label;
    o->col.base_table = o->base_table;
    o->col.base_column = o->base_column;
}

sql_type sql_output_type(const sql_query *q, uint32_t i)
{
    if (q->setop != SQL_SET_NONE)
        return q->set_types[i];
    return q->outputs[i].expr->t;
}

/* Types a SQLite compound's dynamically typed column may mix. */
static bool dynamic_kind(lt_type type)
{
    return type == LT_NULL || type == LT_TEXT || type == LT_BINARY || is_number(type) ||
           type == LT_BOOL;
}

/* The type two values of one result column share (UNION's sides), by the
** rule CASE uses (type_common). */
static int unify_column(typer *t, const sql_query *q, uint32_t i, sql_type a, sql_type b,
                        sql_type *out)
{
    lt_type dom = unify(a.type, b.type);
    bool mixed = (dom == LT_NULL && a.type != LT_NULL && b.type != LT_NULL) || a.dynamic ||
                 b.dynamic;
    if (mixed && sqlite_source(t) && dynamic_kind(a.type) && dynamic_kind(b.type)) {
        /* SQLite: each value keeps its type (numbers, text and blobs); the
        ** column is described as text long enough for any of them. */
        uint32_t sa = text_size(&a), sb = text_size(&b);
        *out = make_type(LT_TEXT, 0, sa > sb ? sa : sb, a.nullable || b.nullable);
        out->dynamic = true;
        return 0;
    }
    if (dom == LT_NULL && a.type != LT_NULL && b.type != LT_NULL)
        return lt_error_set(t->err, "42000",
                            "cannot mix %s and %s in column %u of a UNION, EXCEPT or INTERSECT (line %u, column %u)",
                            sql_type_name(a.type), sql_type_name(b.type), i + 1, q->line, q->column);
    *out = make_type(dom, 0, dom == LT_NULL ? 1 : default_size(dom), a.nullable || b.nullable);
    const sql_type *sides[2] = {&a, &b};
    uint32_t int_digits = 0, size = 0;
    int16_t scale = 0;
    for (int k = 0; k < 2; k++) {
        const sql_type *st = sides[k];
        if (st->type == LT_NULL)
            continue;
        int16_t sk = st->type == LT_DECIMAL || st->type == dom ? st->scale : 0;
        uint32_t p = st->type == LT_DECIMAL ? st->size : 19;
        if (sk > scale)
            scale = sk;
        if (p > (uint32_t)sk && p - (uint32_t)sk > int_digits)
            int_digits = p - (uint32_t)sk;
        if (st->size > size)
            size = st->size;
    }
    if (dom == LT_DECIMAL) {
        out->scale = scale;
        out->size = int_digits + (uint32_t)scale > 38 ? 38 : int_digits + (uint32_t)scale;
        if (out->size == 0)
            out->size = 1;
    } else if (dom == LT_TEXT || dom == LT_BINARY) {
        out->size = size;
    } else if (dom == LT_TIME || dom == LT_TIMESTAMP) {
        out->scale = scale;
        out->size += scale ? 1 + (uint32_t)scale : 0;
    } else if (dom == a.type && dom == b.type && dom != LT_NULL) {
        out->size = size;
    }
    return 0;
}

/* A compound: its sides, then each column's shared type. */
static int type_compound(typer *t, sql_query *q)
{
    if (type_query(t, q->lhs) != 0 || type_query(t, q->rhs) != 0)
        return -1;
    t->q = q;
    for (uint32_t i = 0; i < q->noutputs; i++) {
        sql_type *st = &q->set_types[i];
        if (unify_column(t, q, i, sql_output_type(q->lhs, i), sql_output_type(q->rhs, i), st) != 0)
            return -1;
        lt_column *d = &q->outputs[i].col.desc;
        memset(d, 0, sizeof *d);
        d->type = st->type == LT_NULL ? LT_TEXT : st->type; /* untyped NULLs show as text */
        d->size = st->size;
        d->scale = st->scale;
        d->nullable = st->nullable;
        d->type_name = computed_type_name(d->type, d->size);
        d->name = (char *)q->outputs[i].label;
        q->outputs[i].col.base_table = "";
        q->outputs[i].col.base_column = "";
    }
    return type_count(t, q->limit) != 0 || type_count(t, q->offset) != 0 ? -1 : 0;
}

int sql_type_query(sql_query *q, const lt_value *params, lt_error *err)
{
    typer t = {q, params, err};
    if (params == NULL)
        for (uint32_t i = 0; i < q->nparams; i++)
            q->param_hints[i] = LT_NULL;
    return type_query(&t, q);
}

/* A query: its derived tables first (their columns take the types of
** their queries' outputs), then its own expressions. */
static int type_query(typer *t, sql_query *q)
{
    if (q->setop != SQL_SET_NONE)
        return type_compound(t, q);
    for (uint32_t r = 0; r < q->nranges; r++) {
        sql_range *rg = &q->ranges[r];
        if (rg->sub == NULL)
            continue;
        if (type_query(t, rg->sub) != 0)
            return -1;
        for (uint32_t c = 0; c < rg->derived.ncols; c++) {
            lt_column *d = &rg->derived.cols[c];
            const lt_column *o = &rg->sub->outputs[c].col.desc;
            d->type = o->type;
            d->size = o->size;
            d->scale = o->scale;
            d->nullable = o->nullable;
            d->type_name = o->type_name;
        }
    }
    t->q = q;
    for (uint32_t i = 0; i < q->noutputs; i++)
        if (type_expr(t, q->outputs[i].expr) != 0)
            return -1;
    for (uint32_t i = 0; i < q->nconj; i++) {
        if (type_expr(t, q->conj[i]) != 0 ||
            need_type(t, q->conj[i], LT_BOOL, "WHERE needs a BOOLEAN condition, not") != 0)
            return -1;
    }
    for (uint32_t r = 0; r < q->nranges; r++) {
        const sql_range *rg = &q->ranges[r];
        for (uint32_t i = 0; i < rg->non; i++)
            if (type_expr(t, rg->on[i]) != 0 ||
                need_type(t, rg->on[i], LT_BOOL, "ON needs a BOOLEAN condition, not") != 0)
                return -1;
    }
    for (uint32_t i = 0; i < q->ngroups; i++)
        if (type_expr(t, q->groups[i]) != 0)
            return -1;
    for (uint32_t i = 0; i < q->nhaving; i++) {
        if (type_expr(t, q->having[i]) != 0 ||
            need_type(t, q->having[i], LT_BOOL, "HAVING needs a BOOLEAN condition, not") != 0)
            return -1;
    }
    if (type_count(t, q->limit) != 0 || type_count(t, q->offset) != 0)
        return -1;
    for (uint32_t i = 0; i < q->noutputs; i++)
        describe(&q->outputs[i]);
    return 0;
}
