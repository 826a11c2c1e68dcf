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
** are not converted.
*/
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
    sql_type st = {type, scale, size, nullable};
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

/* Operand i of a comparison, IN or BETWEEN: the operands typed together. */
static uint32_t group_size(const sql_expr *e)
{
    return e->kind == SQL_E_IN ? e->nargs + 1 : e->kind == SQL_E_BETWEEN ? 3 : 2;
}

static sql_expr *group_op(const sql_expr *e, uint32_t i)
{
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

/* Unify the operands' types into a domain, then tell each operand how the
** comparison kernel wants to read it. */
static int type_compare_group(typer *t, sql_expr *e)
{
    uint32_t n = group_size(e);
    lt_type dom = LT_NULL;
    bool any_text_const = false;
    for (uint32_t i = 0; i < n; i++) {
        const sql_expr *op = group_op(e, i);
        if (is_text_const(t, op)) {
            any_text_const = true;
            continue;
        }
        if (op->t.type == LT_NULL)
            continue;
        lt_type u = unify(dom, op->t.type);
        if (u == LT_NULL)
            return type_error(t, e, "cannot compare", dom, op->t.type);
        dom = u;
    }
    if (dom == LT_NULL && any_text_const)
        dom = LT_TEXT;
    /* A text constant takes the kind of the others; its value may widen the
    ** domain ('1.5' next to an INT64 column: DECIMAL). */
    lt_type kind = dom;
    for (uint32_t i = 0; i < n && any_text_const && dom != LT_TEXT; i++) {
        sql_type eff;
        if (effective_type(t, group_op(e, i), kind, &eff) != 0)
            return -1;
        lt_type u = unify(dom, eff.type);
        if (u == LT_NULL)
            return type_error(t, e, "cannot compare", dom, eff.type);
        dom = u;
    }
    for (uint32_t i = 0; i < n; i++) {
        sql_expr *op = group_op(e, i);
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

static int type_arith(typer *t, sql_expr *e)
{
    sql_expr *ops[2] = {e->left, e->right};
    sql_type ty[2];
    for (int i = 0; i < 2; i++) {
        ty[i] = ops[i]->t;
        if (is_text_const(t, ops[i]) && text_const_type(t, ops[i], LT_DOUBLE, &ty[i]) != 0)
            return -1;
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

static int type_func(typer *t, sql_expr *e)
{
    if (e->fn->result == SQL_RES_AGGREGATE)
        return type_aggregate(t, e);
    return lt_error_set(t->err, "42000", "function %s is not supported yet (line %u, column %u)",
                        e->fn->name, e->line, e->column);
}

static bool any_nullable(const sql_expr *e)
{
    uint32_t n = sql_expr_nchildren(e);
    for (uint32_t i = 0; i < n; i++)
        if (sql_expr_child(e, i)->t.nullable)
            return true;
    return false;
}

static int type_expr(typer *t, sql_expr *e)
{
    uint32_t n = sql_expr_nchildren(e);
    for (uint32_t i = 0; i < n; i++)
        if (type_expr(t, sql_expr_child(e, i)) != 0)
            return -1;
    e->conv = false;
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
        e->t = make_type(c->type, c->scale, c->size, c->nullable);
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
    case SQL_E_CASE:
    case SQL_E_CAST:
        break;
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

static const char *computed_type_name(lt_type type)
{
    switch (type) {
    case LT_BOOL:      return "BIT";
    case LT_INT64:     return "BIGINT";
    case LT_DOUBLE:    return "DOUBLE";
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
    } else {
        memset(d, 0, sizeof *d);
        d->type = e->conv ? e->want : e->t.type;
        d->size = e->t.size;
        d->scale = e->t.scale;
        d->nullable = e->t.nullable;
        d->type_name = computed_type_name(d->type);
    }
    d->name = (char *)o->label;
    o->col.base_table = o->base_table;
    o->col.base_column = o->base_column;
}

int sql_type_query(sql_query *q, const lt_value *params, lt_error *err)
{
    typer t = {q, params, err};
    if (params == NULL)
        for (uint32_t i = 0; i < q->nparams; i++)
            q->param_hints[i] = LT_NULL;
    for (uint32_t i = 0; i < q->noutputs; i++)
        if (type_expr(&t, q->outputs[i].expr) != 0)
            return -1;
    for (uint32_t i = 0; i < q->nconj; i++) {
        if (type_expr(&t, q->conj[i]) != 0 ||
            need_type(&t, q->conj[i], LT_BOOL, "WHERE needs a BOOLEAN condition, not") != 0)
            return -1;
    }
    for (uint32_t i = 0; i < q->ngroups; i++)
        if (type_expr(&t, q->groups[i]) != 0)
            return -1;
    for (uint32_t i = 0; i < q->nhaving; i++) {
        if (type_expr(&t, q->having[i]) != 0 ||
            need_type(&t, q->having[i], LT_BOOL, "HAVING needs a BOOLEAN condition, not") != 0)
            return -1;
    }
    if (type_count(&t, q->limit) != 0 || type_count(&t, q->offset) != 0)
        return -1;
    for (uint32_t i = 0; i < q->noutputs; i++)
        describe(&q->outputs[i]);
    return 0;
}
