/*
** compare.c — ordering and hashing values: the comparison kernels over
** vectors, and cell comparisons for sorting and DISTINCT.
**
** Orders: numbers by value (INT64 against DOUBLE exactly, DECIMALs of any
** scales exactly); text and binary by their bytes (UTF-8 byte order is code
** point order); DOUBLE NaN above every number and equal to itself; FALSE
** before TRUE.  NULL is handled by the callers.
*/
#include "affinity.h"
#include "collate.h"
#include "exec.h"
#include "value.h"

#include <math.h>
#include <string.h>

static inline int cmp_i64(int64_t x, int64_t y) { return (x > y) - (x < y); }
static inline int cmp_i32(int32_t x, int32_t y) { return (x > y) - (x < y); }
static inline int cmp_i128(lt_int128 x, lt_int128 y) { return (x > y) - (x < y); }

static inline int cmp_f64(double x, double y)
{
    if (x < y)
        return -1;
    if (x > y)
        return 1;
    if (x == y)
        return 0;
    return isnan(x) ? (isnan(y) ? 0 : 1) : -1;
}

/* An integer against a double, exactly: no rounding of the integer. */
static inline int cmp_i64_f64(int64_t i, double d)
{
    if (isnan(d) || d >= 9223372036854775808.0)
        return -1;
    if (d < -9223372036854775808.0)
        return 1;
    double t = trunc(d);
    int c = cmp_i64(i, (int64_t)t);
    if (c != 0)
        return c;
    return d > t ? -1 : d < t ? 1 : 0;
}

static inline int cmp_bytes(lt_bytes x, lt_bytes y)
{
    uint32_t n = x.len < y.len ? x.len : y.len;
    int c = n ? memcmp(x.ptr, y.ptr, n) : 0;
    if (c != 0)
        return c < 0 ? -1 : 1;
    return (x.len > y.len) - (x.len < y.len);
}

static inline int cmp_guid(const lt_guid *x, const lt_guid *y)
{
    if (x->data1 != y->data1)
        return x->data1 < y->data1 ? -1 : 1;
    if (x->data2 != y->data2)
        return x->data2 < y->data2 ? -1 : 1;
    if (x->data3 != y->data3)
        return x->data3 < y->data3 ? -1 : 1;
    int c = memcmp(x->data4, y->data4, sizeof x->data4);
    return (c > 0) - (c < 0);
}

static bool is_bytes(lt_type t) { return t == LT_TEXT || t == LT_BINARY; }
static bool is_i64(lt_type t) { return t == LT_INT64 || t == LT_TIME || t == LT_TIMESTAMP; }

/* One loop per type pair: `EXPR` compares row `row` of a and b. */
#define CMP_LOOP(EXPR)                                                  \
    for (uint32_t i = 0; i < n; i++) {                                  \
        uint32_t row = sel[i];                                          \
        if ((null[row] = a->nulls[row] | b->nulls[row]) == 0)           \
            cmp[row] = (int8_t)(EXPR);                                  \
    }

void sql_compare_vectors(const lt_vector *a, const lt_vector *b,
                         const uint32_t *sel, uint32_t n, int8_t *cmp,
                         uint8_t *null)
{
    lt_type ta = a->type, tb = b->type;
    if (is_i64(ta) && ta == tb) {
        CMP_LOOP(cmp_i64(a->v.i64[row], b->v.i64[row]))
    } else if (ta == LT_DOUBLE && tb == LT_DOUBLE) {
        CMP_LOOP(cmp_f64(a->v.f64[row], b->v.f64[row]))
    } else if (ta == LT_INT64 && tb == LT_DOUBLE) {
        CMP_LOOP(cmp_i64_f64(a->v.i64[row], b->v.f64[row]))
    } else if (ta == LT_DOUBLE && tb == LT_INT64) {
        CMP_LOOP(-cmp_i64_f64(b->v.i64[row], a->v.f64[row]))
    } else if (ta == LT_DECIMAL && tb == LT_DECIMAL) {
        int sa = a->scale, sb = b->scale;
        if (sa == sb) {
            CMP_LOOP(cmp_i128(a->v.dec[row], b->v.dec[row]))
        } else if (sa < sb) {
            CMP_LOOP(cmp_i128(sql_decimal_rescale_sat(a->v.dec[row], sa, sb), b->v.dec[row]))
        } else {
            CMP_LOOP(cmp_i128(a->v.dec[row], sql_decimal_rescale_sat(b->v.dec[row], sb, sa)))
        }
    } else if (ta == LT_DATE && tb == LT_DATE) {
        CMP_LOOP(cmp_i32(a->v.date[row], b->v.date[row]))
    } else if (is_bytes(ta) && is_bytes(tb)) {
        CMP_LOOP(cmp_bytes(a->v.bytes[row], b->v.bytes[row]))
    } else if (ta == LT_BOOL && tb == LT_BOOL) {
        CMP_LOOP(cmp_i32(a->v.b[row] != 0, b->v.b[row] != 0))
    } else if (ta == LT_GUID && tb == LT_GUID) {
        CMP_LOOP(cmp_guid(&a->v.guid[row], &b->v.guid[row]))
    } else {
        /* LT_NULL on either side (typing allows nothing else): NULL. */
        for (uint32_t i = 0; i < n; i++)
            null[sel[i]] = 1;
    }
}

bool sql_op_holds(sql_op op, int c)
{
    switch (op) {
    case SQL_OP_EQ: return c == 0;
    case SQL_OP_NE: return c != 0;
    case SQL_OP_LT: return c < 0;
    case SQL_OP_LE: return c <= 0;
    case SQL_OP_GT: return c > 0;
    case SQL_OP_GE: return c >= 0;
    default:        return false;
    }
}

/* Kinds of values in the order mixed kinds sort (as SQLite orders its
** storage classes: numbers, then text, then blobs). */
static int kind_rank(lt_type t)
{
    switch (t) {
    case LT_BOOL:
    case LT_INT64:
    case LT_DOUBLE:
    case LT_DECIMAL:   return 1;
    case LT_DATE:
    case LT_TIME:
    case LT_TIMESTAMP: return 2;
    case LT_TEXT:      return 3;
    case LT_BINARY:    return 4;
    case LT_GUID:      return 5;
    case LT_NULL:      return 0;
    }
    return 0;
}

/* Two non-NULL values of any types (the tagged rows of dynamically typed
** vectors). */
static int compare_values(const lt_value *a, const lt_value *b)
{
    lt_vector va = {.type = a->type, .scale = a->scale}, vb = {.type = b->type, .scale = b->scale};
    uint8_t nul = 0;
    int8_t c = 0;
    int ra = kind_rank(a->type), rb = kind_rank(b->type);
    if (ra != rb)
        return ra < rb ? -1 : 1;
    /* One-row vectors over the values let the kernels do the work. */
    lt_value xa = *a, xb = *b;
    if (xa.type == LT_BOOL) {
        xa.type = LT_INT64;
        xa.u.i64 = a->u.b;
        va.type = LT_INT64;
    }
    if (xb.type == LT_BOOL) {
        xb.type = LT_INT64;
        xb.u.i64 = b->u.b;
        vb.type = LT_INT64;
    }
    if (va.type == LT_DECIMAL && vb.type == LT_INT64) {
        xb.type = vb.type = LT_DECIMAL;
        xb.u.dec = b->type == LT_BOOL ? b->u.b : b->u.i64;
        vb.scale = 0;
    } else if (vb.type == LT_DECIMAL && va.type == LT_INT64) {
        xa.type = va.type = LT_DECIMAL;
        xa.u.dec = a->type == LT_BOOL ? a->u.b : a->u.i64;
        va.scale = 0;
    } else if (va.type == LT_DECIMAL && vb.type == LT_DOUBLE) {
        xa.type = va.type = LT_DOUBLE;
        xa.u.f64 = sql_decimal_to_double(a->u.dec, a->scale);
    } else if (vb.type == LT_DECIMAL && va.type == LT_DOUBLE) {
        xb.type = vb.type = LT_DOUBLE;
        xb.u.f64 = sql_decimal_to_double(b->u.dec, b->scale);
    } else if (va.type == LT_DATE && vb.type == LT_TIMESTAMP) {
        xa.type = va.type = LT_TIMESTAMP;
        xa.u.i64 = (int64_t)a->u.date * 86400000000LL;
    } else if (vb.type == LT_DATE && va.type == LT_TIMESTAMP) {
        xb.type = vb.type = LT_TIMESTAMP;
        xb.u.i64 = (int64_t)b->u.date * 86400000000LL;
    }
    uint8_t zero = 0;
    va.nulls = vb.nulls = &zero;
    va.v.any = &xa.u;
    vb.v.any = &xb.u;
    uint32_t row = 0;
    sql_compare_vectors(&va, &vb, &row, 1, &c, &nul);
    if (nul) /* kinds that do not compare (TIME against DATE): by type */
        return (a->type > b->type) - (a->type < b->type);
    return c;
}

int sql_compare_values(const lt_value *a, const lt_value *b)
{
    return compare_values(a, b);
}

static bool tagged(const lt_vector *v, uint32_t row)
{
    return v->tags != NULL && v->tags[row] != LT_NULL;
}

int sql_compare_cells(const lt_vector *a, uint32_t ra, const lt_vector *b, uint32_t rb)
{
    if (tagged(a, ra) || tagged(b, rb)) {
        lt_value x, y;
        sql_vector_get(a, ra, &x);
        sql_vector_get(b, rb, &y);
        return compare_values(&x, &y);
    }
    switch (a->type) {
    case LT_BOOL:      return cmp_i32(a->v.b[ra] != 0, b->v.b[rb] != 0);
    case LT_INT64:
    case LT_TIME:
    case LT_TIMESTAMP: return cmp_i64(a->v.i64[ra], b->v.i64[rb]);
    case LT_DATE:      return cmp_i32(a->v.date[ra], b->v.date[rb]);
    case LT_DOUBLE:    return cmp_f64(a->v.f64[ra], b->v.f64[rb]);
    case LT_DECIMAL:
        if (a->scale == b->scale)
            return cmp_i128(a->v.dec[ra], b->v.dec[rb]);
        if (a->scale < b->scale)
            return cmp_i128(sql_decimal_rescale_sat(a->v.dec[ra], a->scale, b->scale), b->v.dec[rb]);
        return cmp_i128(a->v.dec[ra], sql_decimal_rescale_sat(b->v.dec[rb], b->scale, a->scale));
    case LT_TEXT:
    case LT_BINARY:    return cmp_bytes(a->v.bytes[ra], b->v.bytes[rb]);
    case LT_GUID:      return cmp_guid(&a->v.guid[ra], &b->v.guid[rb]);
    case LT_NULL:      return 0;
    }
    return 0;
}

int sql_compare_any(const lt_vector *a, uint32_t ra, const lt_vector *b, uint32_t rb)
{
    if (a->type == b->type)
        return sql_compare_cells(a, ra, b, rb);
    lt_value x, y;
    sql_vector_get(a, ra, &x);
    sql_vector_get(b, rb, &y);
    return compare_values(&x, &y);
}

/* Access: text by case-folded code points; a tie on folded text is
** equality (ORDER BY then keeps the scan order). */
int sql_text_compare_nocase(lt_bytes a, lt_bytes b)
{
    uint32_t i = 0, j = 0;
    while (i < a.len && j < b.len) {
        uint32_t na, nb;
        uint32_t ca = sql_char_lower(sql_utf8_char(a.ptr, a.len, i, &na));
        uint32_t cb = sql_char_lower(sql_utf8_char(b.ptr, b.len, j, &nb));
        if (ca != cb)
            return ca < cb ? -1 : 1;
        i += na;
        j += nb;
    }
    return (i < a.len) - (j < b.len);
}

void sql_compare_vectors_coll(const lt_vector *a, const lt_vector *b, const uint32_t *sel,
                              uint32_t n, int8_t *cmp, uint8_t *null, bool nocase)
{
    if (!nocase || a->type != LT_TEXT || b->type != LT_TEXT) {
        sql_compare_vectors(a, b, sel, n, cmp, null);
        return;
    }
    CMP_LOOP(sql_text_compare_nocase(a->v.bytes[row], b->v.bytes[row]))
}

int sql_compare_cells_coll(const lt_vector *a, uint32_t ra, const lt_vector *b, uint32_t rb,
                           bool nocase)
{
    if (nocase && a->type == LT_TEXT && b->type == LT_TEXT && !tagged(a, ra) && !tagged(b, rb))
        return sql_text_compare_nocase(a->v.bytes[ra], b->v.bytes[rb]);
    return sql_compare_cells(a, ra, b, rb);
}

/* The column under `x` when it has dynamically typed rows, else NULL. */
static const lt_vector *dynamic_column(const sql_expr *x, const lt_batch *in)
{
    if (x == NULL || (x->kind != SQL_E_COLUMN && !x->from_input) || x->input >= in->ncols)
        return NULL;
    const lt_vector *v = &in->cols[x->input];
    return v->tags != NULL ? v : NULL;
}

void sql_compare_dynamic(const sql_expr *a, const sql_expr *b, const lt_batch *in,
                         const lt_vector *l, const lt_vector *r, const uint32_t *sel, uint32_t n,
                         int8_t *cmp, uint8_t *null)
{
    const lt_vector *dl = dynamic_column(a, in), *dr = dynamic_column(b, in);
    if (dl == NULL && dr == NULL)
        return;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        if (!tagged(dl ? dl : l, row) && !tagged(dr ? dr : r, row))
            continue;
        lt_value x, y;
        sql_vector_get(dl && tagged(dl, row) ? dl : l, row, &x);
        sql_vector_get(dr && tagged(dr, row) ? dr : r, row, &y);
        if ((null[row] = x.type == LT_NULL || y.type == LT_NULL) == 0)
            cmp[row] = (int8_t)compare_values(&x, &y);
    }
}

int sql_fold_text_vector(const lt_vector *in, const uint32_t *sel, uint32_t n, lt_vector *out,
                         lt_bytes *cells, lt_arena *arena)
{
    *out = *in;
    if (in->type != LT_TEXT || in->tags != NULL)
        return 0;
    out->v.bytes = cells;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        if (in->nulls[row])
            continue;
        lt_bytes t = in->v.bytes[row];
        /* lower-casing keeps each letter's UTF-8 length (func_string.c) */
        char *o = lt_arena_alloc(arena, (size_t)t.len + 1);
        if (o == NULL)
            return -1;
        uint32_t len = 0;
        for (uint32_t k = 0; k < t.len;) {
            uint32_t nb;
            char tmp[4];
            uint32_t c = sql_utf8_char(t.ptr, t.len, k, &nb);
            if (sql_utf8_put(c, tmp) == nb) {
                len += sql_utf8_put(sql_char_lower(c), o + len);
            } else { /* a malformed sequence stays as it is */
                memcpy(o + len, t.ptr + k, nb);
                len += nb;
            }
            k += nb;
        }
        cells[row].ptr = o;
        cells[row].len = len;
    }
    return 0;
}

bool sql_equal_cells(const lt_vector *a, uint32_t ra, const lt_vector *b, uint32_t rb)
{
    bool na = a->type == LT_NULL || a->nulls[ra], nb = b->type == LT_NULL || b->nulls[rb];
    if (na || nb)
        return na && nb;
    return sql_compare_cells(a, ra, b, rb) == 0;
}

/* splitmix64's finaliser: spreads every input bit over the output. */
static inline uint64_t mix(uint64_t h)
{
    h ^= h >> 30;
    h *= UINT64_C(0xbf58476d1ce4e5b9);
    h ^= h >> 27;
    h *= UINT64_C(0x94d049bb133111eb);
    h ^= h >> 31;
    return h;
}

/* The hash of one non-NULL value: equal values (as compare_values sees
** them: 5, 5.0e0 and TRUE-as-1 among numbers) hash alike. */
static uint64_t hash_value(const lt_value *v)
{
    uint64_t h;
    switch (v->type) {
    case LT_BOOL:      return (uint64_t)v->u.b;
    case LT_INT64:
    case LT_TIME:
    case LT_TIMESTAMP: return (uint64_t)v->u.i64;
    case LT_DATE:      return (uint64_t)(int64_t)v->u.date * UINT64_C(86400000000);
    case LT_DOUBLE: {
        double d = v->u.f64;
        if (d == trunc(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0)
            return (uint64_t)(int64_t)d;  /* integral: as the INT64 it equals */
        if (isnan(d))
            d = NAN;                      /* every NaN equals every other */
        memcpy(&h, &d, sizeof h);
        return h;
    }
    case LT_DECIMAL: {
        /* As the INT64 or the DOUBLE it equals, whatever its scale. */
        lt_int128 f = sql_pow10(v->scale), m = v->u.dec;
        if (m % f == 0 && m / f >= INT64_MIN && m / f <= INT64_MAX)
            return (uint64_t)(int64_t)(m / f);
        lt_value d = {.type = LT_DOUBLE};
        d.u.f64 = sql_decimal_to_double(m, v->scale);
        return hash_value(&d);
    }
    case LT_TEXT:
    case LT_BINARY: {
        /* FNV-1a */
        h = UINT64_C(0xcbf29ce484222325);
        const unsigned char *p = (const unsigned char *)v->u.bytes.ptr;
        for (uint32_t i = 0; i < v->u.bytes.len; i++)
            h = (h ^ p[i]) * UINT64_C(0x100000001b3);
        return h;
    }
    case LT_GUID: {
        const lt_guid *g = &v->u.guid;
        uint64_t lo;
        memcpy(&lo, g->data4, sizeof lo);
        return ((uint64_t)g->data1 << 32 | (uint64_t)g->data2 << 16 | g->data3) ^ mix(lo);
    }
    case LT_NULL:
        break;
    }
    return 0;
}

uint64_t sql_hash_cell(const lt_vector *v, uint32_t row, uint64_t seed)
{
    if (v->type == LT_NULL || v->nulls[row])
        return mix(seed ^ UINT64_C(0x6e756c6c));
    lt_value x;
    sql_vector_get(v, row, &x);
    return mix(seed ^ mix(hash_value(&x) + UINT64_C(0x9e3779b97f4a7c15)));
}

void sql_hash_vector(const lt_vector *v, const uint32_t *sel, uint32_t n, uint64_t *hashes)
{
    const uint64_t null_hash = UINT64_C(0x6e756c6c), golden = UINT64_C(0x9e3779b97f4a7c15);
    /* The same values as sql_hash_cell, one loop per common type. */
#define HASH_LOOP(VALUE)                                                \
    for (uint32_t i = 0; i < n; i++) {                                  \
        uint32_t row = sel[i];                                          \
        uint64_t h = hashes[row];                                       \
        hashes[row] = v->nulls[row] ? mix(h ^ null_hash) : mix(h ^ mix((VALUE) + golden)); \
    }
    if (v->tags == NULL) {
        switch (v->type) {
        case LT_INT64:
        case LT_TIME:
        case LT_TIMESTAMP:
            HASH_LOOP((uint64_t)v->v.i64[row])
            return;
        case LT_DATE:
            HASH_LOOP((uint64_t)(int64_t)v->v.date[row] * UINT64_C(86400000000))
            return;
        case LT_BOOL:
            HASH_LOOP((uint64_t)(v->v.b[row] != 0))
            return;
        case LT_TEXT:
        case LT_BINARY: {
            lt_value x = {.type = v->type};
            HASH_LOOP((x.u.bytes = v->v.bytes[row], hash_value(&x)))
            return;
        }
        default:
            break;
        }
    }
#undef HASH_LOOP
    for (uint32_t i = 0; i < n; i++)
        hashes[sel[i]] = sql_hash_cell(v, sel[i], hashes[sel[i]]);
}

uint64_t sql_sort_prefix(const lt_vector *v, uint32_t row)
{
    const uint64_t sign = UINT64_C(1) << 63;
    uint64_t u;
    double d;
    switch (v->type) {
    case LT_BOOL:      return v->v.b[row] != 0;
    case LT_INT64:
    case LT_TIME:
    case LT_TIMESTAMP: return (uint64_t)v->v.i64[row] ^ sign;
    case LT_DATE:      return (uint64_t)(int64_t)v->v.date[row] ^ sign;
    case LT_DOUBLE:    d = v->v.f64[row]; break;
    case LT_DECIMAL:   d = sql_decimal_to_double(v->v.dec[row], v->scale); break;
    case LT_TEXT:
    case LT_BINARY: {
        /* The first eight bytes, big-endian, zero-padded. */
        const unsigned char *p = (const unsigned char *)v->v.bytes[row].ptr;
        uint32_t n = v->v.bytes[row].len < 8 ? v->v.bytes[row].len : 8;
        u = 0;
        for (uint32_t i = 0; i < 8; i++)
            u = u << 8 | (i < n ? p[i] : 0);
        return u;
    }
    case LT_GUID: {
        const lt_guid *g = &v->v.guid[row];
        return (uint64_t)g->data1 << 32 | (uint64_t)g->data2 << 16 | g->data3;
    }
    default:
        return 0;
    }
    /* IEEE order as unsigned integers: flip negatives, set the sign of the
    ** rest; NaN (one, positive) lands above +inf as cmp_f64 puts it. */
    if (isnan(d))
        d = NAN;
    if (d == 0)
        d = 0;
    memcpy(&u, &d, sizeof u);
    return (u & sign) ? ~u : u | sign;
}
