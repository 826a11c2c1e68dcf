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
} lt_sqltype;

void lt_sqltype_of(const lt_column *col, lt_sqltype *out);

/* The C type SQL_C_DEFAULT means for a SQL type. */
SQLSMALLINT lt_default_ctype(SQLSMALLINT sql_type);

/* SQLGetTypeInfo's result for `data_type` (SQL_ALL_TYPES for all). */
int lt_typeinfo_cursor(SQLSMALLINT data_type, sql_cursor **out, lt_error *err);

#endif /* LT_TYPES_H */
