/*
** value.c — Access column types to logical types, and field bytes to values.
**
** | Access type              | logical   | ODBC size / digits | type_name  |
** |--------------------------|-----------|--------------------|------------|
** | Yes/No (0x01)            | BOOL      | 1                  | BIT        |
** | Byte (0x02)              | INT64     | 3                  | BYTE       |
** | Integer (0x03)           | INT64     | 5                  | SMALLINT   |
** | Long (0x04)              | INT64     | 10                 | INTEGER / COUNTER |
** | Currency (0x05)          | DECIMAL   | 19, 4              | CURRENCY   |
** | Single (0x06)            | DOUBLE    | 7                  | REAL       |
** | Double (0x07)            | DOUBLE    | 15                 | DOUBLE     |
** | Date/Time (0x08)         | TIMESTAMP | 23, 3              | DATETIME   |
** | Binary (0x09)            | BINARY    | length             | BINARY     |
** | Text (0x0A)              | TEXT      | characters         | VARCHAR    |
** | OLE Object (0x0B)        | BINARY    | long               | LONGBINARY |
** | Memo / Long Text (0x0C)  | TEXT      | long               | LONGCHAR   |
** | Replication ID (0x0F)    | GUID      | 36                 | GUID       |
** | Decimal (0x10)           | DECIMAL   | precision, scale   | DECIMAL    |
** | Complex (0x12)           | TEXT      | long               | ATTACHMENT, MULTIVALUE, VERSIONHISTORY |
** | Large Number (0x13)      | INT64     | 19                 | BIGINT     |
** | Date/Time Extended (0x14)| TIMESTAMP | 26, 6              | DATETIME2  |
**
** Date/Time is a double counting days from 1899-12-30; Access reads a
** negative value as whole days back plus a positive time of day, and keeps
** milliseconds.  Date/Time Extended is ASCII "days:seconds.ticks" from
** 0001-01-01 with 100 ns ticks, truncated here to microseconds.
*/
#include "access_internal.h"

#include "../common/datetime.h"
#include "../common/endian.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LONG_SIZE 1073741823u

void mdb_column_describe(const mdb_db *db, const mdb_column *mc, lt_column *out)
{
    memset(out, 0, sizeof *out);
    /* Nullable unless a Yes/No (never NULL) or in the primary key (tdef.c);
    ** Access keeps "Required" in the LvProp properties, not read here. */
    out->nullable = true;
    switch (mc->type) {
    case MDB_BOOL:
        out->type = LT_BOOL, out->size = 1, out->type_name = "BIT";
        out->nullable = false;
        break;
    case MDB_BYTE: out->type = LT_INT64, out->size = 3, out->type_name = "BYTE"; break;
    case MDB_INT: out->type = LT_INT64, out->size = 5, out->type_name = "SMALLINT"; break;
    case MDB_LONG:
        out->type = LT_INT64, out->size = 10;
        out->type_name = (mc->flags & MDB_COL_AUTONUM) ? "COUNTER" : "INTEGER";
        break;
    case MDB_MONEY: out->type = LT_DECIMAL, out->size = 19, out->scale = 4, out->type_name = "CURRENCY"; break;
    case MDB_FLOAT: out->type = LT_DOUBLE, out->size = 7, out->type_name = "REAL"; break;
    case MDB_DOUBLE: out->type = LT_DOUBLE, out->size = 15, out->type_name = "DOUBLE"; break;
    case MDB_DATETIME: out->type = LT_TIMESTAMP, out->size = 23, out->scale = 3, out->type_name = "DATETIME"; break;
    case MDB_BINARY: out->type = LT_BINARY, out->size = mc->length ? mc->length : 255, out->type_name = "BINARY"; break;
    case MDB_TEXT:
        out->type = LT_TEXT, out->type_name = "VARCHAR";
        out->size = db->jet3 ? mc->length : mc->length / 2u;
        if (out->size == 0)
            out->size = 255;
        break;
    case MDB_OLE: out->type = LT_BINARY, out->size = LONG_SIZE, out->is_long = true, out->type_name = "LONGBINARY"; break;
    case MDB_MEMO: out->type = LT_TEXT, out->size = LONG_SIZE, out->is_long = true, out->type_name = "LONGCHAR"; break;
    case MDB_REPID: out->type = LT_GUID, out->size = 36, out->type_name = "GUID"; break;
    case MDB_NUMERIC: {
        int p = mc->precision, s = mc->scale;
        if (p < 1 || p > 38)
            p = 28;
        if (s > p)
            s = p;
        out->type = LT_DECIMAL, out->size = (uint32_t)p, out->scale = (int16_t)s, out->type_name = "DECIMAL";
        break;
    }
    case MDB_COMPLEX: out->type = LT_TEXT, out->size = LONG_SIZE, out->is_long = true, out->type_name = "COMPLEX"; break;
    case MDB_BIGINT: out->type = LT_INT64, out->size = 19, out->type_name = "BIGINT"; break;
    case MDB_DATETIMEEXT: out->type = LT_TIMESTAMP, out->size = 26, out->scale = 6, out->type_name = "DATETIME2"; break;
    default: out->type = LT_BINARY, out->size = mc->length ? mc->length : 255, out->type_name = "UNKNOWN"; break;
    }
}

int mdb_datetime(double days, int64_t *usec)
{
    const int64_t day = INT64_C(86400000);
    const int64_t epoch = 25569;          /* 1899-12-30 .. 1970-01-01 */
    if (!isfinite(days) || days < -1e7 || days > 1e7)
        return -1;
    int64_t ms = mdb_floor((days - (double)epoch) * (double)day + 0.5);
    int64_t t = ms + epoch * day;        /* the stored value, in ms */
    if (t < 0) {
        int64_t whole = t / day;         /* towards zero */
        int64_t frac = t - whole * day;  /* <= 0 */
        ms = whole * day - frac - epoch * day;
    }
    *usec = ms * 1000;
    return 0;
}

/* "DDDDDDDDDDDDDDDDDDD:SSSSSSSSSSSS.TTTTTTT" (days since 0001-01-01, seconds,
** 100 ns ticks) to microseconds since 1970; -1 when malformed. */
static int datetime_ext(const uint8_t *p, uint32_t n, int64_t *usec)
{
    static const struct { uint32_t at, len; } parts[3] = {{0, 19}, {20, 12}, {32, 7}};
    if (n < 39)
        return -1;
    int64_t v[3];
    for (int k = 0; k < 3; k++) {
        v[k] = 0;
        for (uint32_t i = 0; i < parts[k].len; i++) {
            uint8_t c = p[parts[k].at + i];
            if (c < '0' || c > '9')
                return -1;
            if (v[k] > (INT64_MAX - 9) / 10)
                return -1;
            v[k] = v[k] * 10 + (c - '0');
        }
    }
    if (v[0] > 3652058 || v[1] >= 86400 || v[2] >= 10000000)
        return -1;
    int64_t days = v[0] + lt_days_from_civil(1, 1, 1);
    *usec = days * LT_USEC_PER_DAY + v[1] * 1000000 + v[2] / 10;
    return 0;
}

/* Sign byte then four little-endian 32-bit words, most significant first. */
static int numeric(const uint8_t *p, lt_int128 *out)
{
    unsigned __int128 m = 0;
    for (int w = 0; w < 4; w++)
        m = (m << 32) | lt_le32(p + 1 + 4 * w);
    unsigned __int128 limit = 1;
    for (int i = 0; i < 38; i++)
        limit *= 10;
    if (m >= limit)
        return -1;
    *out = (p[0] & 0x80) ? -(lt_int128)m : (lt_int128)m;
    return 0;
}

static int field_corrupt(const mdb_decoder *d, const mdb_row *row, uint32_t col, const char *what,
                         lt_error *err)
{
    return lt_error_set(err, "HY000", "'%s' is corrupt: page %u, row %u, column '%s' of table '%s': %s",
                        d->db->path, row->pgno, row->slot, d->table->cols[col].name,
                        d->table->name, what);
}

/* Fixed-size types: how many bytes the value needs. */
static uint32_t needed(uint8_t type)
{
    switch (type) {
    case MDB_BYTE: return 1;
    case MDB_INT: return 2;
    case MDB_LONG: case MDB_FLOAT: case MDB_COMPLEX: return 4;
    case MDB_MONEY: case MDB_DOUBLE: case MDB_DATETIME: case MDB_BIGINT: return 8;
    case MDB_REPID: return 16;
    case MDB_NUMERIC: return 17;
    case MDB_DATETIMEEXT: return 39;
    default: return 0;
    }
}

static int oom(const mdb_decoder *d, lt_error *err)
{
    return lt_error_set(err, "HY001", "out of memory reading '%s'", d->db->path);
}

/* Memo and OLE: follow the long value, then text or bytes. */
static int long_value(mdb_decoder *d, const mdb_row *row, uint32_t col, const mdb_column *mc,
                      const uint8_t *p, uint32_t n, lt_value *out, lt_error *err)
{
    const uint8_t *v;
    uint32_t vlen;
    if (mdb_lval(d->db, p, n, &d->lval, &v, &vlen, err) != 0) {
        char why[LT_ERROR_MESSAGE_MAX];
        snprintf(why, sizeof why, "%s", err->message);
        return field_corrupt(d, row, col, why, err);
    }
    if (mc->type == MDB_MEMO) {
        out->type = LT_TEXT;
        if (mdb_text(d->db, mdb_codepage(d->db, mc), v, vlen, &d->text, d->arena, &out->u.bytes) != 0)
            return oom(d, err);
        /* Text handed out in place must not stay in the assembly buffer,
        ** which the next long value reuses. */
        uintptr_t at = (uintptr_t)out->u.bytes.ptr, lo = (uintptr_t)v;
        if (v == d->lval.p && at >= lo && at <= lo + vlen) {
            char *s = lt_arena_strndup(d->arena, out->u.bytes.ptr, out->u.bytes.len);
            if (s == NULL)
                return oom(d, err);
            out->u.bytes.ptr = s;
        }
        return 0;
    }
    out->type = LT_BINARY;
    out->u.bytes.len = vlen;
    if (v == d->lval.p) {
        char *s = lt_arena_strndup(d->arena, (const char *)v, vlen);
        if (s == NULL)
            return oom(d, err);
        out->u.bytes.ptr = s;
    } else {
        out->u.bytes.ptr = (const char *)v;
    }
    return 0;
}

int mdb_value(mdb_decoder *d, const mdb_row *row, uint32_t col, lt_value *out, lt_error *err)
{
    const mdb_column *mc = &d->mt->cols[col];
    memset(out, 0, sizeof *out);
    if (mc->type == MDB_BOOL) {
        out->type = LT_BOOL;
        out->u.b = mdb_row_bool(row, mc);
        return 0;
    }
    uint32_t off, n;
    int r = mdb_row_field(d->db, row, mc, &off, &n, err);
    if (r <= 0)
        return r;   /* NULL (out->type is LT_NULL) or corrupt */
    const uint8_t *p = row->p + off;
    if (mc->calculated) {
        /* 16 unknown bytes and the value's length, then the value */
        if (n < MDB_CALC_HEADER)
            return field_corrupt(d, row, col, "calculated value shorter than its header", err);
        uint32_t vlen = lt_le32(p + 16);
        if (vlen == 0)
            return 0;   /* the expression's result is NULL */
        p += MDB_CALC_HEADER;
        n -= MDB_CALC_HEADER;
        if (vlen < n)
            n = vlen;
    }
    if (n < needed(mc->type))
        return field_corrupt(d, row, col, "value shorter than its type", err);
    switch (mc->type) {
    case MDB_BYTE: out->type = LT_INT64, out->u.i64 = p[0]; break;
    case MDB_INT: out->type = LT_INT64, out->u.i64 = (int16_t)lt_le16(p); break;
    case MDB_LONG: out->type = LT_INT64, out->u.i64 = (int32_t)lt_le32(p); break;
    case MDB_COMPLEX:
        if (mc->cx == NULL || mc->cx->error != NULL)
            return lt_error_set(err, "HY000", "'%s': complex column '%s' of table '%s' cannot be read: %s",
                                d->db->path, d->table->cols[col].name, d->table->name,
                                mc->cx ? mc->cx->error : "MSysComplexColumns does not describe it");
        if (mdb_complex_value(mc->cx, (int32_t)lt_le32(p), d->arena, out) != 0)
            return oom(d, err);
        break;
    case MDB_BIGINT: out->type = LT_INT64, out->u.i64 = (int64_t)lt_le64(p); break;
    case MDB_MONEY:
        out->type = LT_DECIMAL, out->scale = 4, out->u.dec = (int64_t)lt_le64(p);
        break;
    case MDB_FLOAT: {
        uint32_t bits = lt_le32(p);
        float f;
        memcpy(&f, &bits, sizeof f);
        out->type = LT_DOUBLE, out->u.f64 = (double)f;
        break;
    }
    case MDB_DOUBLE: out->type = LT_DOUBLE, out->u.f64 = lt_le_double(p); break;
    case MDB_DATETIME:
        out->type = LT_TIMESTAMP;
        if (mdb_datetime(lt_le_double(p), &out->u.i64) != 0)
            return field_corrupt(d, row, col, "Date/Time value out of range", err);
        break;
    case MDB_DATETIMEEXT:
        out->type = LT_TIMESTAMP;
        if (datetime_ext(p, n, &out->u.i64) != 0)
            return field_corrupt(d, row, col, "malformed Date/Time Extended value", err);
        break;
    case MDB_NUMERIC:
        out->type = LT_DECIMAL, out->scale = d->table->cols[col].scale;
        if (numeric(p, &out->u.dec) != 0)
            return field_corrupt(d, row, col, "Decimal value out of range", err);
        break;
    case MDB_REPID:
        out->type = LT_GUID;
        out->u.guid.data1 = lt_le32(p);
        out->u.guid.data2 = lt_le16(p + 4);
        out->u.guid.data3 = lt_le16(p + 6);
        memcpy(out->u.guid.data4, p + 8, 8);
        break;
    case MDB_TEXT:
        out->type = LT_TEXT;
        if (mdb_text(d->db, mdb_codepage(d->db, mc), p, n, &d->text, d->arena, &out->u.bytes) != 0)
            return oom(d, err);
        break;
    case MDB_MEMO:
    case MDB_OLE:
        return long_value(d, row, col, mc, p, n, out, err);
    default:    /* Binary, and types Lector does not know: the bytes */
        out->type = LT_BINARY;
        out->u.bytes.ptr = (const char *)p;
        out->u.bytes.len = n;
        break;
    }
    return 0;
}

void mdb_decoder_free(mdb_decoder *d)
{
    mdb_buf_free(&d->lval);
    mdb_buf_free(&d->text);
}
