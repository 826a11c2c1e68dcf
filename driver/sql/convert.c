/*
** convert.c — converting vectors from one type to another, and single
** cells in and out of vectors.
**
** The conversions typing.c asks of non-constant operands are widenings
** (INT64 -> DOUBLE or DECIMAL, DECIMAL -> larger scale or DOUBLE, BOOL ->
** INT64, DATE -> TIMESTAMP): each has its own loop.  Anything else goes
** cell by cell through sql_convert_value, which also reports the errors.
*/
#include "exec.h"
#include "value.h"

#include <string.h>

#include "../../readers/common/datetime.h"

void sql_vector_get(const lt_vector *v, uint32_t row, lt_value *out)
{
    memset(out, 0, sizeof *out);
    if (v->type == LT_NULL || v->nulls[row])
        return;
    if (v->tags != NULL && v->tags[row] != LT_NULL) {
        *out = v->other[row];
        return;
    }
    out->type = v->type;
    switch (v->type) {
    case LT_BOOL:      out->u.b = v->v.b[row] != 0; break;
    case LT_INT64:
    case LT_TIME:
    case LT_TIMESTAMP: out->u.i64 = v->v.i64[row]; break;
    case LT_DATE:      out->u.date = v->v.date[row]; break;
    case LT_DOUBLE:    out->u.f64 = v->v.f64[row]; break;
    case LT_DECIMAL:   out->u.dec = v->v.dec[row]; out->scale = v->scale; break;
    case LT_TEXT:
    case LT_BINARY:    out->u.bytes = v->v.bytes[row]; break;
    case LT_GUID:      out->u.guid = v->v.guid[row]; break;
    case LT_NULL:      break;
    }
}

void sql_vector_set(lt_vector *v, uint32_t row, const lt_value *val)
{
    if (val->type == LT_NULL || v->type == LT_NULL) {
        v->nulls[row] = 1;
        return;
    }
    v->nulls[row] = 0;
    switch (v->type) {
    case LT_BOOL:      v->v.b[row] = val->u.b ? 1 : 0; break;
    case LT_INT64:
    case LT_TIME:
    case LT_TIMESTAMP: v->v.i64[row] = val->u.i64; break;
    case LT_DATE:      v->v.date[row] = val->u.date; break;
    case LT_DOUBLE:    v->v.f64[row] = val->u.f64; break;
    case LT_DECIMAL:   v->v.dec[row] = val->u.dec; break;
    case LT_TEXT:
    case LT_BINARY:    v->v.bytes[row] = val->u.bytes; break;
    case LT_GUID:      v->v.guid[row] = val->u.guid; break;
    case LT_NULL:      break;
    }
}

void sql_vector_copy_cell(lt_vector *dst, uint32_t to, const lt_vector *src, uint32_t from)
{
    if (src->type == LT_NULL || src->nulls[from]) {
        dst->nulls[to] = 1;
        return;
    }
    dst->nulls[to] = 0;
    size_t w = sql_type_width(dst->type);
    memcpy((char *)dst->v.any + (size_t)to * w, (const char *)src->v.any + (size_t)from * w, w);
}

/* One loop per widening: nulls carried, `EXPR` reads in's row. */
#define CONV_LOOP(OUT, EXPR)                                            \
    for (uint32_t i = 0; i < n; i++) {                                  \
        uint32_t row = sel[i];                                          \
        if ((out->nulls[row] = in->nulls[row]) == 0)                    \
            out->v.OUT[row] = (EXPR);                                   \
    }

static int overflow(lt_error *err, lt_type to)
{
    return lt_error_set(err, "22003", "numeric value out of range for %s", sql_type_name(to));
}

int sql_convert_vector(const lt_vector *in, const uint32_t *sel, uint32_t n,
                       lt_vector *out, lt_error *err)
{
    lt_type from = in->type, to = out->type;
    if (from == LT_NULL) {
        for (uint32_t i = 0; i < n; i++)
            out->nulls[sel[i]] = 1;
        return 0;
    }
    if (from == LT_INT64 && to == LT_DOUBLE) {
        CONV_LOOP(f64, (double)in->v.i64[row])
        return 0;
    }
    if (from == LT_DECIMAL && to == LT_DOUBLE) {
        CONV_LOOP(f64, sql_decimal_to_double(in->v.dec[row], in->scale))
        return 0;
    }
    if (from == LT_BOOL && to == LT_INT64) {
        CONV_LOOP(i64, in->v.b[row] != 0)
        return 0;
    }
    if (from == LT_DATE && to == LT_TIMESTAMP) {
        CONV_LOOP(i64, (int64_t)in->v.date[row] * LT_USEC_PER_DAY)
        return 0;
    }
    if ((from == LT_INT64 || from == LT_DECIMAL) && to == LT_DECIMAL) {
        int fs = from == LT_INT64 ? 0 : in->scale;
        if (fs == out->scale && from == LT_INT64) {
            CONV_LOOP(dec, (lt_int128)in->v.i64[row])
            return 0;
        }
        for (uint32_t i = 0; i < n; i++) {
            uint32_t row = sel[i];
            if ((out->nulls[row] = in->nulls[row]) != 0)
                continue;
            lt_int128 m = from == LT_INT64 ? (lt_int128)in->v.i64[row] : in->v.dec[row];
            if (sql_decimal_rescale(m, fs, out->scale, &out->v.dec[row]) != 0)
                return overflow(err, to);
        }
        return 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        lt_value v, c;
        sql_vector_get(in, row, &v);
        if (sql_convert_value(&v, to, out->scale, &c, err) != 0)
            return -1;
        sql_vector_set(out, row, &c);
    }
    return 0;
}

/* Gather with the element width fixed per loop, so the copy is a move. */
#define GATHER_LOOP(TYPE)                                               \
    do {                                                                \
        TYPE *d = dst->v.any;                                           \
        const TYPE *s = src->v.any;                                     \
        for (uint32_t i = 0; i < n; i++) {                              \
            uint32_t row = sel ? sel[i] : i;                            \
            dst->nulls[i] = src->nulls[row];                            \
            d[i] = s[row];                                              \
        }                                                               \
    } while (0)

void sql_vector_gather(lt_vector *dst, const lt_vector *src, const uint32_t *sel,
                       uint32_t n)
{
    if (src->type == LT_NULL) {
        memset(dst->nulls, 1, n);
        return;
    }
    switch (src->type) {
    case LT_BOOL:      GATHER_LOOP(uint8_t); break;
    case LT_DATE:      GATHER_LOOP(int32_t); break;
    case LT_INT64:
    case LT_TIME:
    case LT_TIMESTAMP: GATHER_LOOP(int64_t); break;
    case LT_DOUBLE:    GATHER_LOOP(double); break;
    case LT_DECIMAL:   GATHER_LOOP(lt_int128); break;
    case LT_TEXT:
    case LT_BINARY:    GATHER_LOOP(lt_bytes); break;
    case LT_GUID:      GATHER_LOOP(lt_guid); break;
    case LT_NULL:      break;
    }
}

/* Copy with the element width fixed per loop, rows staying in place. */
#define COPY_LOOP(TYPE)                                                 \
    do {                                                                \
        TYPE *d = dst->v.any;                                           \
        const TYPE *s = src->v.any;                                     \
        for (uint32_t i = 0; i < n; i++) {                              \
            uint32_t row = sel[i];                                      \
            dst->nulls[row] = src->nulls[row];                          \
            d[row] = s[row];                                            \
        }                                                               \
    } while (0)

void sql_vector_copy_rows(lt_vector *dst, const lt_vector *src, const uint32_t *sel, uint32_t n)
{
    switch (src->type) {
    case LT_BOOL:      COPY_LOOP(uint8_t); break;
    case LT_DATE:      COPY_LOOP(int32_t); break;
    case LT_INT64:
    case LT_TIME:
    case LT_TIMESTAMP: COPY_LOOP(int64_t); break;
    case LT_DOUBLE:    COPY_LOOP(double); break;
    case LT_DECIMAL:   COPY_LOOP(lt_int128); break;
    case LT_TEXT:
    case LT_BINARY:    COPY_LOOP(lt_bytes); break;
    case LT_GUID:      COPY_LOOP(lt_guid); break;
    case LT_NULL:
        for (uint32_t i = 0; i < n; i++)
            dst->nulls[sel[i]] = 1;
        break;
    }
}

int sql_vector_gather_tags(lt_vector *dst, const lt_vector *src, const uint32_t *sel,
                           uint32_t n, lt_arena *arena)
{
    if (src->tags == NULL) {
        /* Buffers once allocated stay: all-zero tags mean "none tagged". */
        if (dst->tags != NULL)
            memset(dst->tags, 0, n);
        return 0;
    }
    if (dst->tags == NULL) {
        dst->tags = lt_arena_alloc(arena, LT_BATCH_ROWS);
        dst->other = lt_arena_alloc(arena, LT_BATCH_ROWS * sizeof *dst->other);
        if (dst->tags == NULL || dst->other == NULL) {
            dst->tags = NULL;
            return -1;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel ? sel[i] : i;
        dst->tags[i] = src->tags[row];
        if (src->tags[row] != LT_NULL)
            dst->other[i] = src->other[row];
    }
    return 0;
}

/* A value converted without loss (2.5 is no INT64), else false. */
static bool convert_exactly(const lt_value *in, lt_type to, int16_t scale, lt_value *out)
{
    if (sql_convert_value(in, to, scale, out, NULL) != 0)
        return false;
    bool numbers = (in->type == LT_DOUBLE || in->type == LT_DECIMAL) &&
                   (to == LT_INT64 || to == LT_DECIMAL);
    if (!numbers)
        return true;
    lt_value back;
    if (sql_convert_value(out, in->type, in->scale, &back, NULL) != 0)
        return false;
    return in->type == LT_DOUBLE ? back.u.f64 == in->u.f64 : back.u.dec == in->u.dec;
}

int sql_vector_untag(lt_vector *dst, const lt_vector *src, const uint32_t *sel, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        if (src->tags[row] == LT_NULL) {
            sql_vector_copy_cell(dst, row, src, row);
            continue;
        }
        lt_value c;
        if (!convert_exactly(&src->other[row], dst->type, dst->scale, &c))
            c.type = LT_NULL;
        sql_vector_set(dst, row, &c);
    }
    return 0;
}
