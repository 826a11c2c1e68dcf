/*
** cast.c — explicit conversions: CAST(x AS type), {fn CONVERT(x, SQL_type)},
** and every value written as text (CAST to VARCHAR, `||`, the string
** functions' non-text arguments).
**
** The type names a statement may write map to an engine type plus the size
** that selects a range (INT64 of size 3, 5, 10, 19 is TINYINT, SMALLINT,
** INTEGER, BIGINT; DOUBLE of size 7 is REAL).  Text is written as the ODBC
** layer writes a value for SQL_C_CHAR (driver/convert.c): integers and
** decimals exactly, a double in the fewest significant digits that read
** back the same (readers/common/numfmt.c, shared with the ODBC layer),
** dates as YYYY-MM-DD, times as HH:MM:SS with up to six fraction digits
** (none when zero), booleans as 1 and 0, GUIDs in upper-case hex.
**
** Narrowing is explicit here only: a DOUBLE or DECIMAL cast to an integer
** type drops its fraction (toward zero, as SQL Server and SQLite do), to a
** DECIMAL it rounds half away from zero; a value outside the target's range
** is 22003; VARCHAR(n) keeps the first n characters, CHAR(n) also pads with
** blanks to n.
*/
#include "exec.h"
#include "value.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../../readers/common/datetime.h"
#include "../../readers/common/numfmt.h"
#include "../../readers/common/platform.h"

/* ------------------------------------------------------------------------ */
/* Type names                                                                */
/* ------------------------------------------------------------------------ */

static const sql_type_spec type_names[] = {
    {"INTEGER", LT_INT64, 10, 0, SQL_TP_NONE, false},
    {"INT", LT_INT64, 10, 0, SQL_TP_NONE, false},
    {"SMALLINT", LT_INT64, 5, 0, SQL_TP_NONE, false},
    {"TINYINT", LT_INT64, 3, 0, SQL_TP_NONE, false},
    {"BIGINT", LT_INT64, 19, 0, SQL_TP_NONE, false},
    {"DOUBLE", LT_DOUBLE, 15, 0, SQL_TP_NONE, false},
    {"DOUBLE PRECISION", LT_DOUBLE, 15, 0, SQL_TP_NONE, false},
    {"FLOAT", LT_DOUBLE, 15, 0, SQL_TP_FLOAT, false},
    {"REAL", LT_DOUBLE, 7, 0, SQL_TP_NONE, false},
    {"DECIMAL", LT_DECIMAL, 18, 0, SQL_TP_PRECISION, false},
    {"DEC", LT_DECIMAL, 18, 0, SQL_TP_PRECISION, false},
    {"NUMERIC", LT_DECIMAL, 18, 0, SQL_TP_PRECISION, false},
    {"VARCHAR", LT_TEXT, 0, 0, SQL_TP_LENGTH, false},
    {"CHARACTER VARYING", LT_TEXT, 0, 0, SQL_TP_LENGTH, false},
    {"CHAR VARYING", LT_TEXT, 0, 0, SQL_TP_LENGTH, false},
    {"NVARCHAR", LT_TEXT, 0, 0, SQL_TP_LENGTH, false},
    {"NATIONAL CHARACTER VARYING", LT_TEXT, 0, 0, SQL_TP_LENGTH, false},
    {"NATIONAL CHAR VARYING", LT_TEXT, 0, 0, SQL_TP_LENGTH, false},
    {"WVARCHAR", LT_TEXT, 0, 0, SQL_TP_LENGTH, false},
    {"LONGVARCHAR", LT_TEXT, 0, 0, SQL_TP_NONE, false},
    {"WLONGVARCHAR", LT_TEXT, 0, 0, SQL_TP_NONE, false},
    {"TEXT", LT_TEXT, 0, 0, SQL_TP_NONE, false},
    {"CLOB", LT_TEXT, 0, 0, SQL_TP_NONE, false},
    {"CHAR", LT_TEXT, 1, 0, SQL_TP_LENGTH, true},
    {"CHARACTER", LT_TEXT, 1, 0, SQL_TP_LENGTH, true},
    {"NCHAR", LT_TEXT, 1, 0, SQL_TP_LENGTH, true},
    {"NATIONAL CHARACTER", LT_TEXT, 1, 0, SQL_TP_LENGTH, true},
    {"NATIONAL CHAR", LT_TEXT, 1, 0, SQL_TP_LENGTH, true},
    {"WCHAR", LT_TEXT, 1, 0, SQL_TP_LENGTH, true},
    {"DATE", LT_DATE, 10, 0, SQL_TP_NONE, false},
    {"TYPE_DATE", LT_DATE, 10, 0, SQL_TP_NONE, false},
    {"TIME", LT_TIME, 8, 0, SQL_TP_FRACTION, false},
    {"TYPE_TIME", LT_TIME, 8, 0, SQL_TP_FRACTION, false},
    {"TIMESTAMP", LT_TIMESTAMP, 26, 6, SQL_TP_FRACTION, false},
    {"TYPE_TIMESTAMP", LT_TIMESTAMP, 26, 6, SQL_TP_FRACTION, false},
    {"DATETIME", LT_TIMESTAMP, 26, 6, SQL_TP_FRACTION, false},
    {"BIT", LT_BOOL, 1, 0, SQL_TP_NONE, false},
    {"BOOLEAN", LT_BOOL, 1, 0, SQL_TP_NONE, false},
    {"BINARY", LT_BINARY, 0, 0, SQL_TP_LENGTH, false},
    {"VARBINARY", LT_BINARY, 0, 0, SQL_TP_LENGTH, false},
    {"LONGVARBINARY", LT_BINARY, 0, 0, SQL_TP_NONE, false},
    {"BLOB", LT_BINARY, 0, 0, SQL_TP_NONE, false},
    {"GUID", LT_GUID, 36, 0, SQL_TP_NONE, false},
    {"UNIQUEIDENTIFIER", LT_GUID, 36, 0, SQL_TP_NONE, false},
};

const sql_type_spec *sql_type_lookup(const char *name, size_t len)
{
    /* ODBC's names: SQL_INTEGER, SQL_TYPE_DATE ... */
    if (len > 4 && strncasecmp(name, "SQL_", 4) == 0) {
        name += 4;
        len -= 4;
    }
    for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
        if (strlen(type_names[i].name) == len && strncasecmp(type_names[i].name, name, len) == 0)
            return &type_names[i];
    return NULL;
}

bool sql_cast_allowed(lt_type from, lt_type to)
{
    if (from == LT_NULL || from == to || from == LT_TEXT || to == LT_TEXT)
        return true;
    bool num_from = from == LT_INT64 || from == LT_DOUBLE || from == LT_DECIMAL || from == LT_BOOL;
    bool num_to = to == LT_INT64 || to == LT_DOUBLE || to == LT_DECIMAL || to == LT_BOOL;
    if (num_from && num_to)
        return true;
    return (from == LT_DATE && to == LT_TIMESTAMP) || (from == LT_TIMESTAMP && to == LT_DATE) ||
           (from == LT_TIMESTAMP && to == LT_TIME);
}

/* ------------------------------------------------------------------------ */
/* Values as text                                                            */
/* ------------------------------------------------------------------------ */

size_t sql_format_value(const lt_value *v, char *buf)
{
    switch (v->type) {
    case LT_BOOL:      buf[0] = v->u.b ? '1' : '0'; return 1;
    case LT_INT64:     return lt_format_int64(v->u.i64, buf);
    case LT_DECIMAL:   return lt_format_decimal(v->u.dec, v->scale, buf);
    case LT_DOUBLE:    return lt_format_double(v->u.f64, buf);
    case LT_DATE:      return lt_format_date(v->u.date, buf);
    case LT_TIME:      return lt_format_time(v->u.i64, 6, buf);
    case LT_TIMESTAMP: return lt_format_timestamp(v->u.i64, 6, buf);
    case LT_GUID:      return lt_format_guid(&v->u.guid, false, buf);
    case LT_TEXT:
    case LT_BINARY:
    case LT_NULL:
        break;
    }
    return 0;
}

int sql_to_text(const lt_value *in, lt_arena *arena, lt_value *out, lt_error *err)
{
    if (in->type == LT_NULL || in->type == LT_TEXT || in->type == LT_BINARY) {
        *out = *in;
        if (in->type == LT_BINARY)
            out->type = LT_TEXT;
        return 0;
    }
    char buf[SQL_FORMAT_MAX];
    size_t n = sql_format_value(in, buf);
    char *p = lt_arena_alloc(arena, n ? n : 1);
    if (p == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    memcpy(p, buf, n);
    memset(out, 0, sizeof *out);
    out->type = LT_TEXT;
    out->u.bytes.ptr = p;
    out->u.bytes.len = (uint32_t)n;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* CAST                                                                      */
/* ------------------------------------------------------------------------ */

static int out_of_range(const sql_type *to, lt_error *err)
{
    static const char *const ints[] = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT"};
    const char *name = sql_type_name(to->type);
    if (to->type == LT_INT64)
        name = ints[to->size == 3 ? 0 : to->size == 5 ? 1 : to->size == 10 ? 2 : 3];
    else if (to->type == LT_DOUBLE && to->size == 7)
        name = "REAL";
    if (to->type == LT_DECIMAL)
        return lt_error_set(err, "22003", "numeric value out of range for DECIMAL(%u,%d)",
                            to->size, to->scale);
    return lt_error_set(err, "22003", "numeric value out of range for %s", name);
}

/* Text cut to `size` characters (0: as it is), padded with blanks to that
** many when `pad`. */
static int fit_text(lt_value *v, const sql_type *to, bool pad, lt_arena *arena, lt_error *err)
{
    if (to->size == 0)
        return 0;
    const char *s = v->u.bytes.ptr;
    uint32_t len = v->u.bytes.len, chars = 0, i = 0;
    if (v->type == LT_BINARY) {
        if (len > to->size)
            v->u.bytes.len = to->size;
        return 0;
    }
    for (; i < len; i++) {
        if (((unsigned char)s[i] & 0xC0) == 0x80)
            continue;
        if (chars == to->size)
            break;
        chars++;
    }
    v->u.bytes.len = i;
    if (!pad || chars >= to->size)
        return 0;
    char *p = lt_arena_alloc(arena, (size_t)i + (to->size - chars));
    if (p == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    if (i > 0)
        memcpy(p, s, i);
    memset(p + i, ' ', to->size - chars);
    v->u.bytes.ptr = p;
    v->u.bytes.len = i + (to->size - chars);
    return 0;
}

/* An INT64 within the range its size names. */
static bool int_fits(int64_t v, uint32_t size)
{
    switch (size) {
    case 3:  return v >= -128 && v <= 127;
    case 5:  return v >= INT16_MIN && v <= INT16_MAX;
    case 10: return v >= INT32_MIN && v <= INT32_MAX;
    default: return true;
    }
}

static int cast_number(const lt_value *in, const sql_type *to, lt_value *out, lt_error *err)
{
    lt_value num = *in;
    if (in->type == LT_BOOL) {
        memset(&num, 0, sizeof num);
        num.type = LT_INT64;
        num.u.i64 = in->u.b;
    }
    if (to->type == LT_BOOL) {
        memset(out, 0, sizeof *out);
        out->type = LT_BOOL;
        out->u.b = num.type == LT_INT64 ? num.u.i64 != 0 : num.type == LT_DOUBLE ? num.u.f64 != 0
                                                                                : num.u.dec != 0;
        return 0;
    }
    lt_error inner;
    if (sql_convert_value(&num, to->type, to->scale, out, &inner) != 0)
        return out_of_range(to, err);
    switch (to->type) {
    case LT_INT64:
        if (!int_fits(out->u.i64, to->size))
            return out_of_range(to, err);
        return 0;
    case LT_DOUBLE:
        if (to->size == 7) {
            if (isfinite(out->u.f64) && fabs(out->u.f64) > FLT_MAX)
                return out_of_range(to, err);
            out->u.f64 = (float)out->u.f64;
        }
        return 0;
    case LT_DECIMAL:
        out->scale = to->scale;
        if (sql_decimal_digits(out->u.dec) > to->size)
            return out_of_range(to, err);
        return 0;
    default:
        return 0;
    }
}

/* Fraction digits of a TIME or TIMESTAMP beyond `scale` dropped. */
static int64_t cut_fraction(int64_t usec, int scale)
{
    if (scale >= 6)
        return usec;
    int64_t unit = 1;
    for (int i = scale; i < 6; i++)
        unit *= 10;
    int64_t r = usec % unit;
    return usec - (r < 0 ? r + unit : r);
}

int sql_cast_value(const lt_value *in, const sql_type *to, bool pad, lt_arena *arena,
                   lt_value *out, lt_error *err)
{
    if (in->type == LT_NULL) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    if (to->type == LT_TEXT) {
        if (sql_to_text(in, arena, out, err) != 0)
            return -1;
        return fit_text(out, to, pad, arena, err);
    }
    bool num_in = in->type == LT_INT64 || in->type == LT_DOUBLE || in->type == LT_DECIMAL ||
                  in->type == LT_BOOL;
    bool num_to = to->type == LT_INT64 || to->type == LT_DOUBLE || to->type == LT_DECIMAL ||
                  to->type == LT_BOOL;
    if (in->type == LT_TEXT && num_to) {
        lt_value num;
        if (to->type == LT_BOOL)
            return sql_convert_value(in, LT_BOOL, 0, out, err);
        /* Read the number as written, then narrow it as a CAST does. */
        if (!sql_parse_number(in->u.bytes.ptr, in->u.bytes.len, &num))
            return sql_convert_value(in, to->type, to->scale, out, err); /* the 22018 */
        return cast_number(&num, to, out, err);
    }
    if (num_in && num_to)
        return cast_number(in, to, out, err);
    if (in->type == LT_TIMESTAMP && to->type == LT_TIME) {
        int32_t days;
        memset(out, 0, sizeof *out);
        out->type = LT_TIME;
        lt_timestamp_split(in->u.i64, &days, &out->u.i64);
    } else if (in->type == LT_BINARY && to->type == LT_BINARY) {
        *out = *in;
    } else if (in->type == LT_TEXT && to->type == LT_BINARY) {
        *out = *in;
        out->type = LT_BINARY;
    } else if (sql_convert_value(in, to->type, to->scale, out, err) != 0) {
        return -1;
    }
    if (to->type == LT_TIME || to->type == LT_TIMESTAMP)
        out->u.i64 = cut_fraction(out->u.i64, to->scale);
    if (to->type == LT_BINARY)
        return fit_text(out, to, false, arena, err);
    return 0;
}

int sql_cast_vector(const lt_vector *in, const uint32_t *sel, uint32_t n, const sql_type *to,
                    bool pad, lt_vector *out, lt_arena *arena, lt_error *err)
{
    if (in->type == LT_NULL) {
        for (uint32_t i = 0; i < n; i++)
            out->nulls[sel[i]] = 1;
        return 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel[i];
        lt_value v, c;
        sql_vector_get(in, row, &v);
        if (sql_cast_value(&v, to, pad, arena, &c, err) != 0)
            return -1;
        sql_vector_set(out, row, &c);
    }
    return 0;
}
