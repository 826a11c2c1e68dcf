/*
** affinity.c — SQLite's comparison affinity, for SQLite sources
** (https://www.sqlite.org/datatype3.html sections 3.1 and 4.2).
**
** A column has the affinity of its declared type, CAST(x AS t) that of t,
** every other expression none.  When a comparison's operands mix numbers
** and text, typing.c marks it (sql_expr.affinity_cmp) and it is compared
** row by row here: the pair's affinity is applied to both values (NUMERIC
** reads a text that is a well-formed number as that number; TEXT writes a
** number as SQLite writes it), then the values compare by storage class:
** numbers by value, then text by bytes, then blobs.  Every other
** comparison keeps the typed kernels (compare.c), which give the same
** answers for operands of one kind.
*/
#include "affinity.h"
#include "value.h"
#include "../../readers/common/sqlite_rules.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint8_t sql_affinity_of_declared(const char *type)
{
    /* REAL is NUMERIC here: both compare as numbers */
    switch (lt_sqlite_affinity(type, type ? strlen(type) : 0)) {
    case LT_SQLITE_AFF_BLOB: return SQL_AFF_BLOB;
    case LT_SQLITE_AFF_TEXT: return SQL_AFF_TEXT;
    default:                 return SQL_AFF_NUMERIC;
    }
}

uint8_t sql_affinity_of_type(lt_type type)
{
    switch (type) {
    case LT_TEXT:   return SQL_AFF_TEXT;
    case LT_BINARY: return SQL_AFF_BLOB;
    case LT_NULL:   return SQL_AFF_NONE;
    default:        return SQL_AFF_NUMERIC;
    }
}

uint8_t sql_affinity_pair(uint8_t x, uint8_t y)
{
    /* sqlite3CompareAffinity */
    if (x != SQL_AFF_NONE && y != SQL_AFF_NONE)
        return x == SQL_AFF_NUMERIC || y == SQL_AFF_NUMERIC ? SQL_AFF_NUMERIC : SQL_AFF_BLOB;
    return x != SQL_AFF_NONE ? x : y;
}

bool sql_sqlite_text_number(const char *s, uint32_t len, lt_value *out)
{
    int64_t i;
    double r;
    int kind = lt_sqlite_text_number(s, len, &i, &r);
    if (kind == 0)
        return false;
    memset(out, 0, sizeof *out);
    if (kind == 1) {
        out->type = LT_INT64;
        out->u.i64 = i;
    } else {
        out->type = LT_DOUBLE;
        out->u.f64 = r;
    }
    return true;
}

uint32_t sql_sqlite_number_text(const lt_value *v, char *buf, size_t cap)
{
    double d;
    switch (v->type) {
    case LT_BOOL:  return (uint32_t)snprintf(buf, cap, "%d", v->u.b ? 1 : 0);
    case LT_INT64: return (uint32_t)snprintf(buf, cap, "%lld", (long long)v->u.i64);
    case LT_DECIMAL:
        /* scale 0 (CAST(x AS NUMERIC), DECIMAL(p,0)): what SQLite holds
        ** as an INTEGER */
        if (v->scale == 0 && v->u.dec >= INT64_MIN && v->u.dec <= INT64_MAX)
            return (uint32_t)snprintf(buf, cap, "%lld", (long long)v->u.dec);
        d = sql_decimal_to_double(v->u.dec, v->scale);
        break;
    default:       d = v->u.f64; break;
    }
    if (isnan(d))
        return 0;
    return (uint32_t)lt_sqlite_real_text(d, buf, cap);
}

static bool is_number_value(lt_type t)
{
    return t == LT_INT64 || t == LT_DOUBLE || t == LT_DECIMAL || t == LT_BOOL;
}

/* Apply affinity `aff` to v (a comparison's operand); text written into
** buf (room for 64 bytes). */
static void apply(lt_value *v, uint8_t aff, char *buf)
{
    if (aff == SQL_AFF_NUMERIC && v->type == LT_TEXT) {
        lt_value num;
        if (sql_sqlite_text_number(v->u.bytes.ptr, v->u.bytes.len, &num))
            *v = num;
    } else if (aff == SQL_AFF_TEXT && is_number_value(v->type)) {
        uint32_t n = sql_sqlite_number_text(v, buf, 64);
        if (n > 0 && n < 64) {
            v->type = LT_TEXT;
            v->u.bytes.ptr = buf;
            v->u.bytes.len = n;
        }
    }
}

/* The column under `x` (its tagged rows as they are), else NULL. */
static const lt_vector *raw_column(const sql_expr *x, const lt_batch *in)
{
    if ((x->kind != SQL_E_COLUMN && !x->from_input) || in == NULL || x->input >= in->ncols)
        return NULL;
    return &in->cols[x->input];
}

void sql_compare_affinity(const sql_expr *a, const sql_expr *b, uint8_t aff,
                          const lt_batch *in, const lt_vector *l, const lt_vector *r,
                          const uint32_t *sel, uint32_t n, int8_t *cmp, uint8_t *null)
{
    const lt_vector *ra = raw_column(a, in), *rb = raw_column(b, in);
    if (ra != NULL)
        l = ra;
    if (rb != NULL)
        r = rb;
    char ba[64], bb[64];
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        lt_value x, y;
        sql_vector_get(l, row, &x);
        sql_vector_get(r, row, &y);
        if (x.type == LT_NULL || y.type == LT_NULL) {
            null[row] = 1;
            continue;
        }
        apply(&x, aff, ba);
        apply(&y, aff, bb);
        null[row] = 0;
        cmp[row] = (int8_t)sql_compare_values(&x, &y);
    }
}

/* The key of one value after affinity: a class byte (numbers, text,
** blobs, anything else) and a payload that is equal exactly when SQLite
** finds the values equal (numbers: an integral value as its integer,
** others in the 17 digits that tell doubles apart). */
static int value_key(const lt_value *v, lt_arena *arena, lt_bytes *out)
{
    char num[40];
    const void *payload = num;
    uint32_t len;
    char cls;
    double d;
    switch (v->type) {
    case LT_BOOL:
    case LT_INT64:
        cls = 'N';
        len = (uint32_t)snprintf(num, sizeof num, "%lld",
                                 (long long)(v->type == LT_BOOL ? v->u.b != 0 : v->u.i64));
        break;
    case LT_DOUBLE:
    case LT_DECIMAL:
        cls = 'N';
        d = v->type == LT_DOUBLE ? v->u.f64 : sql_decimal_to_double(v->u.dec, v->scale);
        if (d == trunc(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0)
            len = (uint32_t)snprintf(num, sizeof num, "%lld", (long long)d);
        else
            len = (uint32_t)snprintf(num, sizeof num, "%.17g", d);
        break;
    case LT_TEXT:
    case LT_BINARY:
        cls = v->type == LT_TEXT ? 'T' : 'X';
        payload = v->u.bytes.ptr;
        len = v->u.bytes.len;
        break;
    default:
        cls = (char)('a' + v->type);
        payload = &v->u;
        len = sizeof v->u;
        break;
    }
    char *k = lt_arena_alloc(arena, (size_t)len + 1);
    if (k == NULL)
        return -1;
    k[0] = cls;
    if (len)
        memcpy(k + 1, payload, len);
    out->ptr = k;
    out->len = len + 1;
    return 0;
}

int sql_affinity_keys(const sql_expr *e, const lt_batch *in, const lt_vector *v, uint8_t aff,
                      const uint32_t *sel, uint32_t n, lt_vector *out, lt_arena *arena)
{
    const lt_vector *raw = e != NULL ? raw_column(e, in) : NULL;
    if (raw != NULL)
        v = raw;
    char buf[64];
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        lt_value x;
        sql_vector_get(v, row, &x);
        out->nulls[row] = x.type == LT_NULL;
        if (x.type == LT_NULL)
            continue;
        apply(&x, aff, buf);
        if (value_key(&x, arena, &out->v.bytes[row]) != 0)
            return -1;
    }
    return 0;
}
