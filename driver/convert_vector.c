/*
** convert_vector.c — a run of one vector's rows into a bound column at once.
**
** A block cursor converts a rowset column by column (driver/fetch.c).  The
** general path, lt_convert_to_c() per cell, decides the C type, the value's
** type and every error rule for each cell; for the common pairs (an integer
** into an integer C type, a double into SQL_C_DOUBLE, a date into its
** struct, text that fits into SQL_C_CHAR ...) this file does the same work
** once per run, in tight loops over the vector's arrays.
**
** It only ever handles runs that convert without any diagnostic: whenever a
** row would need one (a NULL without an indicator is 22002, an integer out
** of the C type's range 22003, text longer than the buffer 01004, a
** timestamp cut into a date 01S07 ...) it returns false and the caller
** converts the run cell by cell, which posts the right SQLSTATE.  A run it
** gave up on may already be partly written; the general path writes every
** cell again.  The results are those of lt_convert_to_c(), byte for byte,
** except that a NULL row's data buffer (undefined for the application) may
** receive the vector's slot: tests/unit/test_driver_fetch_vector.c compares
** the two paths on random vectors.
*/
#include "convert.h"

#include <string.h>

#include "../readers/common/datetime.h"
#include "narrow.h"

/* Where the rows go: element r's data, length and indicator addresses. */
typedef struct vec_out {
    char *data;
    size_t data_stride;
    char *len;          /* may be NULL */
    char *ind;          /* may be NULL; == len when they share one buffer */
    size_t ind_stride;
} vec_out;

static char *row_data(const vec_out *o, uint32_t r)
{
    return o->data + (size_t)r * o->data_stride;
}

static void put_sqllen(char *base, size_t stride, uint32_t r, SQLLEN v)
{
    memcpy(base + (size_t)r * stride, &v, sizeof v);
}

/* Lengths and indicators of a run of fixed-size values: SQL_NULL_DATA for
** a NULL, else 0 in a separate indicator and `size` as the length. */
static void put_fixed_lengths(const vec_out *o, const uint8_t *nulls, uint32_t n,
                              SQLLEN size)
{
    bool separate = o->ind != o->len;
    for (uint32_t r = 0; r < n; r++) {
        if (nulls[r]) {
            put_sqllen(o->ind, o->ind_stride, r, SQL_NULL_DATA);
            continue;
        }
        if (separate && o->ind != NULL)
            put_sqllen(o->ind, o->ind_stride, r, 0);
        if (o->len != NULL)
            put_sqllen(o->len, o->ind_stride, r, size);
    }
}

/* n 8-byte values (int64_t or double) as they are: one copy when the rows
** are packed. */
static void copy8(const vec_out *o, const void *src, uint32_t n)
{
    if (o->data_stride == 8) {
        memcpy(o->data, src, 8 * (size_t)n);
    } else {
        for (uint32_t r = 0; r < n; r++)
            memcpy(row_data(o, r), (const char *)src + 8 * (size_t)r, 8);
    }
}

/* Integers into an integer C type of `size` bytes holding [lo, hi]. */
static bool ints(const vec_out *o, const int64_t *src, const uint8_t *nulls,
                 uint32_t n, int size, int64_t lo, int64_t hi)
{
    if (size == 8) {
        copy8(o, src, n);
        return true;
    }
    for (uint32_t r = 0; r < n; r++) {
        int64_t x = nulls[r] ? 0 : src[r];
        if (x < lo || x > hi)
            return false;               /* 22003 */
        char *d = row_data(o, r);
        if (size == 4) {
            int32_t y = (int32_t)x;
            memcpy(d, &y, 4);
        } else if (size == 2) {
            int16_t y = (int16_t)x;
            memcpy(d, &y, 2);
        } else {
            int8_t y = (int8_t)x;
            memcpy(d, &y, 1);
        }
    }
    return true;
}

static bool doubles_from_ints(const vec_out *o, const int64_t *src,
                              const uint8_t *nulls, uint32_t n)
{
    for (uint32_t r = 0; r < n; r++) {
        double d = nulls[r] ? 0.0 : (double)src[r]; /* rounded as num_double */
        memcpy(row_data(o, r), &d, 8);
    }
    return true;
}

static bool doubles(const vec_out *o, const double *src, uint32_t n)
{
    copy8(o, src, n);
    return true;
}

static bool bits(const vec_out *o, const uint8_t *src, uint32_t n)
{
    for (uint32_t r = 0; r < n; r++)
        *row_data(o, r) = src[r] != 0;
    return true;
}

/* A day number as a date; false when the year is outside SQLSMALLINT
** (22008 on the general path). */
static bool civil(int32_t days, int *y, int *m, int *d)
{
    lt_civil_from_days(days, y, m, d);
    return *y >= -32768 && *y <= 32767;
}

/* DATE or TIMESTAMP rows (days or microseconds) into SQL_DATE_STRUCT or
** SQL_TIMESTAMP_STRUCT.  A timestamp with a time of day into a date would
** be 01S07: declined. */
static bool dates(const vec_out *o, const lt_vector *vec, uint32_t first,
                  const uint8_t *nulls, uint32_t n, bool to_timestamp)
{
    for (uint32_t r = 0; r < n; r++) {
        if (nulls[r])
            continue;
        int32_t days;
        int64_t usec = 0;
        if (vec->type == LT_DATE)
            days = vec->v.date[first + r];
        else
            lt_timestamp_split(vec->v.i64[first + r], &days, &usec);
        int y, m, d, hh = 0, mm = 0, ss = 0, us = 0;
        if (!civil(days, &y, &m, &d))
            return false;
        if (usec != 0) {
            if (!to_timestamp)
                return false;
            lt_time_split(usec, &hh, &mm, &ss, &us);
        }
        if (to_timestamp) {
            SQL_TIMESTAMP_STRUCT ts;
            memset(&ts, 0, sizeof ts);
            ts.year = (SQLSMALLINT)y;
            ts.month = (SQLUSMALLINT)m;
            ts.day = (SQLUSMALLINT)d;
            ts.hour = (SQLUSMALLINT)hh;
            ts.minute = (SQLUSMALLINT)mm;
            ts.second = (SQLUSMALLINT)ss;
            ts.fraction = (SQLUINTEGER)us * 1000u;
            memcpy(row_data(o, r), &ts, sizeof ts);
        } else {
            SQL_DATE_STRUCT ds = {(SQLSMALLINT)y, (SQLUSMALLINT)m, (SQLUSMALLINT)d};
            memcpy(row_data(o, r), &ds, sizeof ds);
        }
    }
    return true;
}

/* TIME rows within a day and without fractional seconds (01S07) into
** SQL_TIME_STRUCT. */
static bool times(const vec_out *o, const int64_t *src, const uint8_t *nulls,
                  uint32_t n)
{
    for (uint32_t r = 0; r < n; r++) {
        if (nulls[r])
            continue;
        int64_t usec = src[r];
        if (usec < 0 || usec >= LT_USEC_PER_DAY || usec % 1000000 != 0)
            return false;
        int hh, mm, ss, us;
        lt_time_split(usec, &hh, &mm, &ss, &us);
        SQL_TIME_STRUCT t = {(SQLUSMALLINT)hh, (SQLUSMALLINT)mm, (SQLUSMALLINT)ss};
        memcpy(row_data(o, r), &t, sizeof t);
    }
    return true;
}

/* Text into SQL_C_CHAR (UTF-8 as stored) or, when it is all ASCII, into
** SQL_C_WCHAR; every value must fit with its terminator (01004 else).
** Lengths and indicators go in the same loop: they vary by row. */
static bool texts(const vec_out *o, const lt_bytes *src, const uint8_t *nulls,
                  uint32_t n, SQLLEN buflen, bool wide)
{
    const size_t unit = wide ? sizeof(SQLWCHAR) : 1;
    if (buflen <= 0)
        return false;
    size_t room = (size_t)buflen / unit;    /* units, terminator included */
    if (room == 0)
        return false;
    bool separate = o->ind != o->len;
    for (uint32_t r = 0; r < n; r++) {
        if (nulls[r]) {
            put_sqllen(o->ind, o->ind_stride, r, SQL_NULL_DATA);
            continue;
        }
        const char *s = src[r].ptr;
        size_t len = src[r].len;
        if (len >= room)
            return false;
        char *d = row_data(o, r);
        if (!wide) {
            if (!lt_narrow_same(s, len))
                return false;           /* the ANSI code page: the general path */
            memcpy(d, s, len);
            d[len] = '\0';
        } else {
            /* memcpy: a column-wise buffer of odd length is unaligned */
            for (size_t k = 0; k <= len; k++) {
                unsigned char c = k < len ? (unsigned char)s[k] : 0;
                if (c >= 0x80)
                    return false;       /* not ASCII: the general path */
                SQLWCHAR w = c;
                memcpy(d + k * unit, &w, unit);
            }
        }
        if (separate && o->ind != NULL)
            put_sqllen(o->ind, o->ind_stride, r, 0);
        if (o->len != NULL)
            put_sqllen(o->len, o->ind_stride, r, (SQLLEN)(len * unit));
    }
    return true;
}

bool lt_convert_vector_to_c(const lt_vector *vec, uint32_t first, uint32_t n,
                            const lt_target *t, size_t data_stride, SQLLEN *ind,
                            size_t ind_stride)
{
    if (vec->tags != NULL || t->ptr == NULL || n == 0)
        return false;
    const uint8_t *nulls = vec->nulls + first;
    if (ind == NULL && memchr(nulls, 1, n) != NULL)
        return false;                   /* 22002 */
    vec_out o = {t->ptr, data_stride, (char *)t->len_or_ind, (char *)ind, ind_stride};
    SQLSMALLINT c = t->ctype;
    SQLLEN size;
    bool ok;
    switch (vec->type) {
    case LT_INT64: {
        const int64_t *src = vec->v.i64 + first;
        switch (c) {
        case SQL_C_SBIGINT:
            ok = ints(&o, src, nulls, n, 8, INT64_MIN, INT64_MAX);
            break;
        case SQL_C_SLONG: case SQL_C_LONG:
            ok = ints(&o, src, nulls, n, 4, INT32_MIN, INT32_MAX);
            break;
        case SQL_C_SSHORT: case SQL_C_SHORT:
            ok = ints(&o, src, nulls, n, 2, INT16_MIN, INT16_MAX);
            break;
        case SQL_C_STINYINT: case SQL_C_TINYINT:
            ok = ints(&o, src, nulls, n, 1, INT8_MIN, INT8_MAX);
            break;
        case SQL_C_DOUBLE:
            ok = doubles_from_ints(&o, src, nulls, n);
            break;
        default:
            return false;
        }
        break;
    }
    case LT_DOUBLE:
        if (c != SQL_C_DOUBLE)
            return false;
        ok = doubles(&o, vec->v.f64 + first, n);
        break;
    case LT_BOOL:
        if (c != SQL_C_BIT)
            return false;
        ok = bits(&o, vec->v.b + first, n);
        break;
    case LT_DATE:
    case LT_TIMESTAMP:
        if (c == SQL_C_TYPE_DATE || c == SQL_C_DATE)
            ok = dates(&o, vec, first, nulls, n, false);
        else if (c == SQL_C_TYPE_TIMESTAMP || c == SQL_C_TIMESTAMP)
            ok = dates(&o, vec, first, nulls, n, true);
        else
            return false;
        break;
    case LT_TIME:
        if (c != SQL_C_TYPE_TIME && c != SQL_C_TIME)
            return false;
        ok = times(&o, vec->v.i64 + first, nulls, n);
        break;
    case LT_TEXT:
        if (c != SQL_C_CHAR && c != SQL_C_WCHAR)
            return false;
        return texts(&o, vec->v.bytes + first, nulls, n, t->buflen, c == SQL_C_WCHAR);
    default:
        return false;
    }
    if (!ok)
        return false;
    size = lt_ctype_size(c);
    put_fixed_lengths(&o, nulls, n, size);
    return true;
}
