/*
** compare.c — ordering and hashing values: the comparison kernels over
** vectors, and cell comparisons for sorting and DISTINCT.
**
** Orders: numbers by value (INT64 against DOUBLE exactly, DECIMALs of any
** scales exactly); text and binary by their bytes (UTF-8 byte order is code
** point order); DOUBLE NaN above every number and equal to itself; FALSE
** before TRUE.  NULL is handled by the callers.
*/
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

int sql_compare_cells(const lt_vector *a, uint32_t ra, const lt_vector *b, uint32_t rb)
{
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

uint64_t sql_hash_cell(const lt_vector *v, uint32_t row, uint64_t seed)
{
    uint64_t h;
    if (v->type == LT_NULL || v->nulls[row])
        return mix(seed ^ UINT64_C(0x6e756c6c));
    switch (v->type) {
    case LT_BOOL:      h = v->v.b[row] != 0; break;
    case LT_INT64:
    case LT_TIME:
    case LT_TIMESTAMP: h = (uint64_t)v->v.i64[row]; break;
    case LT_DATE:      h = (uint64_t)(int64_t)v->v.date[row]; break;
    case LT_DOUBLE: {
        double d = v->v.f64[row];
        if (d == 0)
            d = 0;         /* -0.0 equals 0.0 */
        else if (isnan(d))
            d = NAN;       /* every NaN equals every other */
        memcpy(&h, &d, sizeof h);
        break;
    }
    case LT_DECIMAL: {
        lt_int128 m = v->v.dec[row];
        h = (uint64_t)m ^ mix((uint64_t)(m >> 64));
        break;
    }
    case LT_TEXT:
    case LT_BINARY: {
        /* FNV-1a */
        h = UINT64_C(0xcbf29ce484222325);
        const unsigned char *p = (const unsigned char *)v->v.bytes[row].ptr;
        for (uint32_t i = 0; i < v->v.bytes[row].len; i++)
            h = (h ^ p[i]) * UINT64_C(0x100000001b3);
        break;
    }
    case LT_GUID: {
        const lt_guid *g = &v->v.guid[row];
        uint64_t lo;
        memcpy(&lo, g->data4, sizeof lo);
        h = ((uint64_t)g->data1 << 32 | (uint64_t)g->data2 << 16 | g->data3) ^ mix(lo);
        break;
    }
    default:
        h = 0;
        break;
    }
    return mix(seed ^ mix(h + 0x9e3779b97f4a7c15u));
}
