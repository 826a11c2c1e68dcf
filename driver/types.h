/*
** types.h — how a logical column looks to ODBC.
**
** One function maps a column (logical type, size, scale) to its SQL type,
** size, octet length, display size and type name.  SQLDescribeCol,
** SQLColAttribute, SQLColumns, the IRD and SQLGetTypeInfo all use it, so the
** type names they report always agree (Power Query checks that).
*/
#ifndef LT_TYPES_H
#define LT_TYPES_H

#include "driver.h"

typedef struct lt_sqltype {
    SQLSMALLINT concise;        /* SQL_WVARCHAR, SQL_TYPE_TIMESTAMP ... */
    SQLSMALLINT verbose;        /* SQL_DESC_TYPE: SQL_DATETIME for dates */
    SQLSMALLINT datetime_code;  /* SQL_CODE_DATE ... or 0 */
    const char *name;           /* "WVARCHAR", "TIMESTAMP": a SQLGetTypeInfo name */
    SQLULEN column_size;
    SQLSMALLINT decimal_digits;
    SQLLEN octet_length;        /* bytes for SQL_C_DEFAULT's transfer */
    SQLLEN display_size;
    SQLSMALLINT num_prec_radix; /* 10, 2 or 0 */
    SQLSMALLINT unsigned_attr;  /* SQL_TRUE / SQL_FALSE */
    SQLSMALLINT searchable;     /* SQL_PRED_* */
    SQLSMALLINT case_sensitive;
    const char *literal_prefix, *literal_suffix;
    /* added by types.c: */
    bool has_scale;             /* decimal digits apply (exact numbers,
                                ** TIME, TIMESTAMP): SQLColumns' DECIMAL_DIGITS
                                ** is NULL otherwise */
    SQLLEN char_octet_length;   /* SQLColumns' CHAR_OCTET_LENGTH: bytes of the
                                ** longest value of a character or binary
                                ** column (the SQLWCHAR form for text), else 0 */
} lt_sqltype;

void lt_sqltype_of(const lt_column *col, lt_sqltype *out);

/* The C type SQL_C_DEFAULT means for a SQL type. */
SQLSMALLINT lt_default_ctype(SQLSMALLINT sql_type);

/* SQLGetTypeInfo's result for `data_type` (SQL_ALL_TYPES for all). */
int lt_typeinfo_cursor(SQLSMALLINT data_type, sql_cursor **out, lt_error *err);

/* ---- added by types.c / catalog.c ---- */

/* As lt_typeinfo_cursor, for an environment of ODBC version `odbc_version`
** (SQL_OV_ODBC2 reports the date types as SQL_DATE/SQL_TIME/SQL_TIMESTAMP
** in DATA_TYPE, as the spec requires of result sets; "Datetime Data Type
** Changes").  -1 with HY004 when `data_type` is no SQL type. */
int lt_typeinfo_cursor_v(SQLSMALLINT data_type, SQLINTEGER odbc_version,
                         sql_cursor **out, lt_error *err);

/* The concise SQL type an ODBC 2 application sees: SQL_TYPE_DATE, _TIME and
** _TIMESTAMP become SQL_DATE, SQL_TIME and SQL_TIMESTAMP (9, 10, 11) when
** `odbc_version` is SQL_OV_ODBC2; everything else is unchanged. */
SQLSMALLINT lt_sqltype_for_version(SQLSMALLINT concise,
                                   SQLINTEGER odbc_version);

/* The ODBC 3 concise type of an SQL type argument (SQL_DATE -> SQL_TYPE_DATE
** ...); 0 when `sql_type` is not an SQL data type the driver knows. */
SQLSMALLINT lt_sqltype_normalize(SQLSMALLINT sql_type);

/* Result sets the driver builds itself (catalog functions, type info),
** catalog.c.  Filling runs twice: first with no batch, counting rows, then
** for real once lt_result_alloc() made a batch of exactly that many rows,
** so a filler is one function called twice and never grows a batch. */
typedef struct lt_result_col {
    const char *name;        /* as the ODBC reference names it */
    lt_type type;            /* LT_TEXT or LT_INT64 */
    uint32_t size;           /* 128 for names, 5 SMALLINT, 10 INTEGER */
    bool nullable;
} lt_result_col;

typedef struct lt_result {
    const lt_result_col *cols;
    uint32_t ncols;
    uint32_t row;            /* the row being filled */
    lt_batch *batch;         /* NULL while counting */
    bool oom;
} lt_result;

void lt_result_init(lt_result *r, const lt_result_col *cols, uint32_t ncols);
/* After the counting pass: allocate the batch, rewind to row 0. */
int lt_result_alloc(lt_result *r, lt_error *err);
/* Set a cell of the current row; `s` NULL is NULL. */
void lt_result_text(lt_result *r, uint32_t col, const char *s);
void lt_result_int(lt_result *r, uint32_t col, int64_t v);
void lt_result_null(lt_result *r, uint32_t col);
/* The current row is complete. */
void lt_result_end_row(lt_result *r);
/* Wrap the batch as a cursor (which then owns it); frees on failure. */
int lt_result_cursor(lt_result *r, sql_cursor **out, lt_error *err);
void lt_result_free(lt_result *r);

/* Catalog search patterns ('%', '_', '\' escape), matched
** case-insensitively (ASCII) since Lector's identifiers are; `_` matches one
** UTF-8 character.  `pat` NULL matches everything. */
bool lt_pattern_match(const char *pat, size_t pat_len, const char *s);

#endif /* LT_TYPES_H */
