/*
** types.c — how Lector's logical columns look to ODBC, and SQLGetTypeInfo.
**
** One table lists every SQL type the driver ever reports, in SQLGetTypeInfo's
** order (DATA_TYPE, then how closely the type maps).  lt_sqltype_of() picks a
** row for a column and adds the column's own size; SQLGetTypeInfo prints the
** rows.  SQLDescribeCol, SQLColAttribute, SQLColumns and SQLGetTypeInfo thus
** always agree on the type name of a column, which Power Query checks.
**
** Sizes follow the ODBC reference, appendix D: "Column Size", "Decimal
** Digits", "Transfer Octet Length" and "Display Size".  docs/odbc-types.md
** is the readable form of this file.
*/
#include "types.h"

#include <string.h>

/* Sizes of text and binary whose source gives none. */
#define TEXT_SIZE_UNKNOWN 4000u          /* a WVARCHAR of a computed column */
#define LONG_SIZE 1073741823u            /* 2^30 - 1, as Access reports memos */
#define VAR_SIZE_MAX 65535u              /* longer "short" text becomes long */
#define LEN_MAX 2147483647               /* lengths reported as SQLINTEGER */

/* One row of SQLGetTypeInfo, and what lt_sqltype_of copies from it. */
typedef struct type_row {
    const char *name;
    SQLSMALLINT concise, verbose, datetime_code;
    SQLINTEGER max_size;                 /* COLUMN_SIZE of the widest form */
    const char *prefix, *suffix, *create_params;
    SQLSMALLINT case_sensitive, searchable;
    SQLSMALLINT unsigned_attr;           /* -1: NULL (not numeric) */
    SQLSMALLINT min_scale, max_scale;    /* -1: NULL (no decimal digits) */
    SQLSMALLINT radix;                   /* 0: NULL */
} type_row;

/* Positions in type_rows[]. */
enum {
    T_GUID, T_WLONGVARCHAR, T_WVARCHAR, T_WCHAR, T_BIT, T_TINYINT, T_BIGINT,
    T_LONGVARBINARY, T_VARBINARY, T_BINARY, T_LONGVARCHAR, T_CHAR, T_NUMERIC,
    T_DECIMAL, T_INTEGER, T_SMALLINT, T_FLOAT, T_REAL, T_DOUBLE, T_VARCHAR,
    T_DATE, T_TIME, T_TIMESTAMP, T_COUNT
};

/* Ordered by (ODBC 3) DATA_TYPE as SQLGetTypeInfo must be; each type has
** one row, so there is no second key.  Dates take the ODBC escape as their
** literal form ({d '2024-01-31'}): every ODBC SQL engine accepts it, and a
** client that glues prefix, value and suffix gets a valid literal.
** Columns are reported only as the types lt_sqltype_of picks; the other
** rows (WCHAR, CHAR, VARCHAR, LONGVARCHAR, BINARY, NUMERIC, FLOAT) are the
** engine's CAST targets (driver/sql/cast.c) and what an application may
** give a parameter in SQLBindParameter, and answer clients that look a type
** up before they use it (Power Query asks for SQL_WCHAR). */
static const type_row type_rows[T_COUNT] = {
    [T_GUID] = {"GUID", SQL_GUID, SQL_GUID, 0, 36, NULL, NULL, NULL,
                SQL_FALSE, SQL_PRED_BASIC, -1, -1, -1, 0},
    [T_WLONGVARCHAR] = {"WLONGVARCHAR", SQL_WLONGVARCHAR, SQL_WLONGVARCHAR, 0,
                        LONG_SIZE, "'", "'", NULL,
                        SQL_TRUE, SQL_PRED_SEARCHABLE, -1, -1, -1, 0},
    [T_WVARCHAR] = {"WVARCHAR", SQL_WVARCHAR, SQL_WVARCHAR, 0, VAR_SIZE_MAX,
                    "'", "'", "max length",
                    SQL_TRUE, SQL_PRED_SEARCHABLE, -1, -1, -1, 0},
    [T_WCHAR] = {"WCHAR", SQL_WCHAR, SQL_WCHAR, 0, VAR_SIZE_MAX, "'", "'", "length",
                 SQL_TRUE, SQL_PRED_SEARCHABLE, -1, -1, -1, 0},
    [T_BIT] = {"BIT", SQL_BIT, SQL_BIT, 0, 1, NULL, NULL, NULL,
               SQL_FALSE, SQL_PRED_BASIC, -1, 0, 0, 0},
    [T_TINYINT] = {"TINYINT", SQL_TINYINT, SQL_TINYINT, 0, 3, NULL, NULL, NULL,
                   SQL_FALSE, SQL_PRED_BASIC, SQL_FALSE, 0, 0, 10},
    [T_BIGINT] = {"BIGINT", SQL_BIGINT, SQL_BIGINT, 0, 19, NULL, NULL, NULL,
                  SQL_FALSE, SQL_PRED_BASIC, SQL_FALSE, 0, 0, 10},
    [T_LONGVARBINARY] = {"LONGVARBINARY", SQL_LONGVARBINARY, SQL_LONGVARBINARY,
                         0, LONG_SIZE, NULL, NULL, NULL,
                         SQL_FALSE, SQL_PRED_NONE, -1, -1, -1, 0},
    [T_VARBINARY] = {"VARBINARY", SQL_VARBINARY, SQL_VARBINARY, 0,
                     VAR_SIZE_MAX, NULL, NULL, "max length",
                     SQL_FALSE, SQL_PRED_BASIC, -1, -1, -1, 0},
    [T_BINARY] = {"BINARY", SQL_BINARY, SQL_BINARY, 0, VAR_SIZE_MAX, NULL, NULL,
                  "length", SQL_FALSE, SQL_PRED_BASIC, -1, -1, -1, 0},
    [T_LONGVARCHAR] = {"LONGVARCHAR", SQL_LONGVARCHAR, SQL_LONGVARCHAR, 0,
                       LONG_SIZE, "'", "'", NULL,
                       SQL_TRUE, SQL_PRED_SEARCHABLE, -1, -1, -1, 0},
    [T_CHAR] = {"CHAR", SQL_CHAR, SQL_CHAR, 0, VAR_SIZE_MAX, "'", "'", "length",
                SQL_TRUE, SQL_PRED_SEARCHABLE, -1, -1, -1, 0},
    [T_NUMERIC] = {"NUMERIC", SQL_NUMERIC, SQL_NUMERIC, 0, 38, NULL, NULL,
                   "precision,scale",
                   SQL_FALSE, SQL_PRED_BASIC, SQL_FALSE, 0, 38, 10},
    [T_DECIMAL] = {"DECIMAL", SQL_DECIMAL, SQL_DECIMAL, 0, 38, NULL, NULL,
                   "precision,scale",
                   SQL_FALSE, SQL_PRED_BASIC, SQL_FALSE, 0, 38, 10},
    [T_INTEGER] = {"INTEGER", SQL_INTEGER, SQL_INTEGER, 0, 10, NULL, NULL, NULL,
                   SQL_FALSE, SQL_PRED_BASIC, SQL_FALSE, 0, 0, 10},
    [T_SMALLINT] = {"SMALLINT", SQL_SMALLINT, SQL_SMALLINT, 0, 5, NULL, NULL,
                    NULL, SQL_FALSE, SQL_PRED_BASIC, SQL_FALSE, 0, 0, 10},
    [T_FLOAT] = {"FLOAT", SQL_FLOAT, SQL_FLOAT, 0, 15, NULL, NULL, NULL,
                 SQL_FALSE, SQL_PRED_BASIC, SQL_FALSE, -1, -1, 10},
    [T_REAL] = {"REAL", SQL_REAL, SQL_REAL, 0, 7, NULL, NULL, NULL,
                SQL_FALSE, SQL_PRED_BASIC, SQL_FALSE, -1, -1, 10},
    [T_DOUBLE] = {"DOUBLE", SQL_DOUBLE, SQL_DOUBLE, 0, 15, NULL, NULL, NULL,
                  SQL_FALSE, SQL_PRED_BASIC, SQL_FALSE, -1, -1, 10},
    [T_VARCHAR] = {"VARCHAR", SQL_VARCHAR, SQL_VARCHAR, 0, VAR_SIZE_MAX,
                   "'", "'", "max length",
                   SQL_TRUE, SQL_PRED_SEARCHABLE, -1, -1, -1, 0},
    [T_DATE] = {"DATE", SQL_TYPE_DATE, SQL_DATETIME, SQL_CODE_DATE, 10,
                "{d '", "'}", NULL, SQL_FALSE, SQL_PRED_BASIC, -1, -1, -1, 0},
    [T_TIME] = {"TIME", SQL_TYPE_TIME, SQL_DATETIME, SQL_CODE_TIME, 15,
                "{t '", "'}", NULL, SQL_FALSE, SQL_PRED_BASIC, -1, 0, 6, 0},
    [T_TIMESTAMP] = {"TIMESTAMP", SQL_TYPE_TIMESTAMP, SQL_DATETIME,
                     SQL_CODE_TIMESTAMP, 26, "{ts '", "'}", NULL,
                     SQL_FALSE, SQL_PRED_BASIC, -1, 0, 6, 0},
};

static SQLLEN clamp_len(uint64_t n)
{
    return n > (uint64_t)LEN_MAX ? LEN_MAX : (SQLLEN)n;
}

static int clamp_int(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The row a column maps to, and its column size and decimal digits. */
static int row_of(const lt_column *col, uint64_t *size, int *digits)
{
    *digits = 0;
    switch (col->type) {
    case LT_BOOL:
        *size = 1;
        return T_BIT;
    case LT_INT64:
        switch (col->size) {
        case 3:  *size = 3;  return T_TINYINT;
        case 5:  *size = 5;  return T_SMALLINT;
        case 10: *size = 10; return T_INTEGER;
        default: *size = 19; return T_BIGINT;
        }
    case LT_DOUBLE:
        if (col->size == 7) {
            *size = 7;
            return T_REAL;
        }
        *size = 15;
        return T_DOUBLE;
    case LT_DECIMAL:
        *size = col->size == 0 ? 38 : (uint64_t)clamp_int((int)col->size, 1, 38);
        *digits = clamp_int(col->scale, 0, (int)*size);
        return T_DECIMAL;
    case LT_BINARY:
        if (col->is_long || col->size > VAR_SIZE_MAX) {
            *size = col->size == 0 || col->size > LONG_SIZE ? LONG_SIZE : col->size;
            return T_LONGVARBINARY;
        }
        *size = col->size == 0 ? VAR_SIZE_MAX : col->size;
        return T_VARBINARY;
    case LT_DATE:
        *size = 10;
        return T_DATE;
    case LT_TIME:
        *digits = clamp_int(col->scale, 0, 6);
        *size = *digits ? 9u + (unsigned)*digits : 8u;
        return T_TIME;
    case LT_TIMESTAMP:
        *digits = clamp_int(col->scale, 0, 6);
        *size = *digits ? 20u + (unsigned)*digits : 19u;
        return T_TIMESTAMP;
    case LT_GUID:
        *size = 36;
        return T_GUID;
    case LT_TEXT:
    case LT_NULL:   /* the NULL literal: reported as text, as engines do */
        break;
    }
    if (col->is_long || col->size > VAR_SIZE_MAX) {
        *size = col->size == 0 || col->size > LONG_SIZE ? LONG_SIZE : col->size;
        return T_WLONGVARCHAR;
    }
    *size = col->size == 0 ? TEXT_SIZE_UNKNOWN : col->size;
    return T_WVARCHAR;
}

/* Transfer octet length (the bytes of the default C form) and display size
** (characters of the character form), appendix D. */
static void lengths(int row, uint64_t size, int digits, lt_sqltype *out)
{
    SQLLEN octet = 0, display = 0, char_octet = 0;
    switch (row) {
    case T_BIT:      octet = 1; display = 1; break;
    case T_TINYINT:  octet = 1; display = 4; break;
    case T_SMALLINT: octet = 2; display = 6; break;
    case T_INTEGER:  octet = 4; display = 11; break;
    case T_BIGINT:   octet = 8; display = 20; break;
    case T_REAL:     octet = 4; display = 14; break;
    case T_FLOAT:
    case T_DOUBLE:   octet = 8; display = 24; break;
    case T_NUMERIC:
    case T_DECIMAL:  octet = (SQLLEN)size + 2; display = (SQLLEN)size + 2; break;
    case T_DATE:     octet = sizeof(SQL_DATE_STRUCT); display = 10; break;
    case T_TIME:     octet = sizeof(SQL_TIME_STRUCT); display = (SQLLEN)size; break;
    case T_TIMESTAMP:
        octet = sizeof(SQL_TIMESTAMP_STRUCT);
        display = (SQLLEN)size;
        break;
    case T_GUID:     octet = sizeof(SQLGUID); display = 38; /* "{...}" braced, as Access shows */ break;
    case T_BINARY:
    case T_VARBINARY:
    case T_LONGVARBINARY:
        octet = char_octet = clamp_len(size);
        display = clamp_len(size * 2);
        break;
    default:         /* text: the bytes of its SQLWCHAR form */
        octet = char_octet = clamp_len(size * sizeof(SQLWCHAR));
        display = clamp_len(size);
        break;
    }
    (void)digits;
    out->octet_length = octet;
    out->display_size = display;
    out->char_octet_length = char_octet;
}

static void fill_from_row(int row, uint64_t size, int digits, lt_sqltype *out)
{
    const type_row *t = &type_rows[row];
    memset(out, 0, sizeof *out);
    out->concise = t->concise;
    out->verbose = t->verbose;
    out->datetime_code = t->datetime_code;
    out->name = t->name;
    out->column_size = (SQLULEN)size;
    out->decimal_digits = (SQLSMALLINT)digits;
    out->num_prec_radix = t->radix;
    /* SQL_DESC_UNSIGNED is SQL_TRUE for what is not numeric at all. */
    out->unsigned_attr = t->unsigned_attr < 0 ? SQL_TRUE : t->unsigned_attr;
    out->searchable = t->searchable;
    out->case_sensitive = t->case_sensitive;
    out->literal_prefix = t->prefix;
    out->literal_suffix = t->suffix;
    out->has_scale = t->min_scale >= 0;
    lengths(row, size, digits, out);
}

void lt_sqltype_of(const lt_column *col, lt_sqltype *out)
{
    uint64_t size;
    int digits;
    int row = row_of(col, &size, &digits);
    fill_from_row(row, size, digits, out);
}

SQLSMALLINT lt_sqltype_normalize(SQLSMALLINT sql_type)
{
    switch (sql_type) {
    case SQL_DATE:      return SQL_TYPE_DATE;       /* ODBC 2 codes */
    case SQL_TIME:      return SQL_TYPE_TIME;
    case SQL_TIMESTAMP: return SQL_TYPE_TIMESTAMP;
    case SQL_CHAR: case SQL_VARCHAR: case SQL_LONGVARCHAR:
    case SQL_WCHAR: case SQL_WVARCHAR: case SQL_WLONGVARCHAR:
    case SQL_DECIMAL: case SQL_NUMERIC: case SQL_BIT: case SQL_TINYINT:
    case SQL_SMALLINT: case SQL_INTEGER: case SQL_BIGINT:
    case SQL_REAL: case SQL_FLOAT: case SQL_DOUBLE:
    case SQL_BINARY: case SQL_VARBINARY: case SQL_LONGVARBINARY:
    case SQL_TYPE_DATE: case SQL_TYPE_TIME: case SQL_TYPE_TIMESTAMP:
    case SQL_GUID:
    case SQL_INTERVAL_YEAR: case SQL_INTERVAL_MONTH: case SQL_INTERVAL_DAY:
    case SQL_INTERVAL_HOUR: case SQL_INTERVAL_MINUTE:
    case SQL_INTERVAL_SECOND: case SQL_INTERVAL_YEAR_TO_MONTH:
    case SQL_INTERVAL_DAY_TO_HOUR: case SQL_INTERVAL_DAY_TO_MINUTE:
    case SQL_INTERVAL_DAY_TO_SECOND: case SQL_INTERVAL_HOUR_TO_MINUTE:
    case SQL_INTERVAL_HOUR_TO_SECOND: case SQL_INTERVAL_MINUTE_TO_SECOND:
        return sql_type;
    default:
        return 0;
    }
}

SQLSMALLINT lt_sqltype_for_version(SQLSMALLINT concise, SQLINTEGER odbc_version)
{
    if (odbc_version != SQL_OV_ODBC2)
        return concise;
    switch (concise) {
    case SQL_TYPE_DATE:      return SQL_DATE;
    case SQL_TYPE_TIME:      return SQL_TIME;
    case SQL_TYPE_TIMESTAMP: return SQL_TIMESTAMP;
    default:                 return concise;
    }
}

SQLSMALLINT lt_default_ctype(SQLSMALLINT sql_type)
{
    switch (sql_type) {
    case SQL_WCHAR: case SQL_WVARCHAR: case SQL_WLONGVARCHAR:
        return SQL_C_WCHAR;
    case SQL_BIT:      return SQL_C_BIT;
    case SQL_TINYINT:  return SQL_C_STINYINT;
    case SQL_SMALLINT: return SQL_C_SSHORT;
    case SQL_INTEGER:  return SQL_C_SLONG;
    case SQL_BIGINT:   return SQL_C_SBIGINT;
    case SQL_REAL:     return SQL_C_FLOAT;
    case SQL_FLOAT:
    case SQL_DOUBLE:   return SQL_C_DOUBLE;
    case SQL_BINARY: case SQL_VARBINARY: case SQL_LONGVARBINARY:
        return SQL_C_BINARY;
    case SQL_TYPE_DATE:      return SQL_C_TYPE_DATE;
    case SQL_TYPE_TIME:      return SQL_C_TYPE_TIME;
    case SQL_TYPE_TIMESTAMP: return SQL_C_TYPE_TIMESTAMP;
    case SQL_DATE:           return SQL_C_DATE;
    case SQL_TIME:           return SQL_C_TIME;
    case SQL_TIMESTAMP:      return SQL_C_TIMESTAMP;
    case SQL_GUID:           return SQL_C_GUID;
    default:   /* SQL_CHAR, VARCHAR, LONGVARCHAR, DECIMAL, NUMERIC ... */
        return SQL_C_CHAR;
    }
}

/* ------------------------------------------------------------------------ */
/* SQLGetTypeInfo                                                            */
/* ------------------------------------------------------------------------ */

enum {
    TI_TYPE_NAME, TI_DATA_TYPE, TI_COLUMN_SIZE, TI_LITERAL_PREFIX,
    TI_LITERAL_SUFFIX, TI_CREATE_PARAMS, TI_NULLABLE, TI_CASE_SENSITIVE,
    TI_SEARCHABLE, TI_UNSIGNED_ATTRIBUTE, TI_FIXED_PREC_SCALE,
    TI_AUTO_UNIQUE_VALUE, TI_LOCAL_TYPE_NAME, TI_MINIMUM_SCALE,
    TI_MAXIMUM_SCALE, TI_SQL_DATA_TYPE, TI_SQL_DATETIME_SUB,
    TI_NUM_PREC_RADIX, TI_INTERVAL_PRECISION, TI_NCOLS
};

static const lt_result_col typeinfo_cols[TI_NCOLS] = {
    {"TYPE_NAME", LT_TEXT, 128, false},
    {"DATA_TYPE", LT_INT64, 5, false},
    {"COLUMN_SIZE", LT_INT64, 10, true},
    {"LITERAL_PREFIX", LT_TEXT, 128, true},
    {"LITERAL_SUFFIX", LT_TEXT, 128, true},
    {"CREATE_PARAMS", LT_TEXT, 128, true},
    {"NULLABLE", LT_INT64, 5, false},
    {"CASE_SENSITIVE", LT_INT64, 5, false},
    {"SEARCHABLE", LT_INT64, 5, false},
    {"UNSIGNED_ATTRIBUTE", LT_INT64, 5, true},
    {"FIXED_PREC_SCALE", LT_INT64, 5, false},
    {"AUTO_UNIQUE_VALUE", LT_INT64, 5, true},
    {"LOCAL_TYPE_NAME", LT_TEXT, 128, true},
    {"MINIMUM_SCALE", LT_INT64, 5, true},
    {"MAXIMUM_SCALE", LT_INT64, 5, true},
    {"SQL_DATA_TYPE", LT_INT64, 5, false},
    {"SQL_DATETIME_SUB", LT_INT64, 5, true},
    {"NUM_PREC_RADIX", LT_INT64, 10, true},
    {"INTERVAL_PRECISION", LT_INT64, 5, true},
};

static void int_or_null(lt_result *r, uint32_t col, int v)
{
    if (v < 0)
        lt_result_null(r, col);
    else
        lt_result_int(r, col, v);
}

/* type_rows[] in the order of the DATA_TYPE an environment of
** `odbc_version` sees: under ODBC 2, DATE, TIME and TIMESTAMP are 9, 10 and
** 11 and come before VARCHAR (12).  A stable insertion sort of a few rows. */
static void typeinfo_order(SQLINTEGER odbc_version, int order[T_COUNT])
{
    for (int i = 0; i < T_COUNT; i++) {
        SQLSMALLINT key = lt_sqltype_for_version(type_rows[i].concise, odbc_version);
        int j = i;
        while (j > 0 &&
               lt_sqltype_for_version(type_rows[order[j - 1]].concise, odbc_version) > key) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
}

static void typeinfo_fill(lt_result *r, SQLSMALLINT data_type,
                          SQLINTEGER odbc_version)
{
    int order[T_COUNT];
    typeinfo_order(odbc_version, order);
    for (int i = 0; i < T_COUNT; i++) {
        const type_row *t = &type_rows[order[i]];
        if (data_type != SQL_ALL_TYPES && data_type != t->concise)
            continue;
        bool numeric = t->unsigned_attr >= 0;
        lt_result_text(r, TI_TYPE_NAME, t->name);
        lt_result_int(r, TI_DATA_TYPE,
                      lt_sqltype_for_version(t->concise, odbc_version));
        lt_result_int(r, TI_COLUMN_SIZE, t->max_size);
        lt_result_text(r, TI_LITERAL_PREFIX, t->prefix);
        lt_result_text(r, TI_LITERAL_SUFFIX, t->suffix);
        lt_result_text(r, TI_CREATE_PARAMS, t->create_params);
        lt_result_int(r, TI_NULLABLE, SQL_NULLABLE);
        lt_result_int(r, TI_CASE_SENSITIVE, t->case_sensitive);
        lt_result_int(r, TI_SEARCHABLE, t->searchable);
        int_or_null(r, TI_UNSIGNED_ATTRIBUTE, t->unsigned_attr);
        lt_result_int(r, TI_FIXED_PREC_SCALE, SQL_FALSE);
        int_or_null(r, TI_AUTO_UNIQUE_VALUE, numeric ? SQL_FALSE : -1);
        lt_result_text(r, TI_LOCAL_TYPE_NAME, t->name);
        int_or_null(r, TI_MINIMUM_SCALE, t->min_scale);
        int_or_null(r, TI_MAXIMUM_SCALE, t->max_scale);
        lt_result_int(r, TI_SQL_DATA_TYPE, t->verbose);
        int_or_null(r, TI_SQL_DATETIME_SUB,
                    t->datetime_code ? t->datetime_code : -1);
        int_or_null(r, TI_NUM_PREC_RADIX, t->radix ? t->radix : -1);
        lt_result_null(r, TI_INTERVAL_PRECISION);
        lt_result_end_row(r);
    }
}

int lt_typeinfo_cursor_v(SQLSMALLINT data_type, SQLINTEGER odbc_version,
                         sql_cursor **out, lt_error *err)
{
    if (data_type != SQL_ALL_TYPES) {
        SQLSMALLINT t = lt_sqltype_normalize(data_type);
        if (t == 0)
            return lt_error_set(err, "HY004", "invalid SQL data type %d",
                                (int)data_type);
        data_type = t;
    }
    lt_result r;
    lt_result_init(&r, typeinfo_cols, TI_NCOLS);
    typeinfo_fill(&r, data_type, odbc_version);
    if (lt_result_alloc(&r, err) != 0)
        return -1;
    typeinfo_fill(&r, data_type, odbc_version);
    return lt_result_cursor(&r, out, err);
}

int lt_typeinfo_cursor(SQLSMALLINT data_type, sql_cursor **out, lt_error *err)
{
    return lt_typeinfo_cursor_v(data_type, SQL_OV_ODBC3, out, err);
}
