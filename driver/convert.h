/*
** convert.h — logical values to the application's C types and back.
**
** Conversions follow the ODBC reference, appendix D ("Converting Data from
** SQL to C Data Types" and "from C to SQL").  The functions never post
** diagnostics themselves: they return the SQLRETURN and, when it is not
** SQL_SUCCESS, the SQLSTATE in *sqlstate ("01004" truncation, "01S07"
** fractional truncation, "22003" out of range, "22018" invalid character
** value, "22007" invalid datetime, "07006" restricted type); the caller
** posts it with the row and column it knows.
*/
#ifndef LT_CONVERT_H
#define LT_CONVERT_H

#include "driver.h"

/* Where to write one converted value. */
typedef struct lt_target {
    SQLSMALLINT ctype;          /* SQL_C_* (SQL_C_DEFAULT already resolved) */
    SQLPOINTER ptr;             /* may be NULL: only the length is wanted */
    SQLLEN buflen;              /* bytes available at ptr (char/binary/wchar) */
    SQLLEN *len_or_ind;         /* may be NULL */
    SQLSMALLINT precision;      /* SQL_C_NUMERIC: from the ARD */
    SQLSMALLINT scale;
} lt_target;

/* Convert `value` (of column `col`) into `t`.  `piece` is SQLGetData's
** place in this value: zeroed before the first piece and kept between
** calls; each truncated piece fills the buffer completely (clients such as
** pyodbc count on it), so UTF-8 sequences and surrogate pairs may be split
** across pieces.  When the whole value went out before, the result is
** SQL_NO_DATA.  SQL_C_CHAR gives UTF-8, SQL_C_WCHAR gives SQLWCHAR text. */
SQLRETURN lt_convert_to_c(const lt_value *value, const lt_column *col,
                          const lt_target *t, lt_piece *piece,
                          const char **sqlstate);

/* Convert rows [first, first+n) of `vec` into a bound column at once, when
** every row converts without a diagnostic; false (buffers possibly partly
** written) means "convert them one by one with lt_convert_to_c".  Row r's
** data goes to t->ptr + r * data_stride (t->buflen bytes for text), its
** length to t->len_or_ind and its indicator to `ind`, both advancing by
** `ind_stride` (either may be NULL; they may be the same buffer).  Handles
** untagged INT64, DOUBLE, BOOL, DATE, TIME, TIMESTAMP and TEXT vectors into
** their usual C types (driver/convert_vector.c). */
bool lt_convert_vector_to_c(const lt_vector *vec, uint32_t first, uint32_t n,
                            const lt_target *t, size_t data_stride, SQLLEN *ind,
                            size_t ind_stride);

/* Convert a bound parameter (C type `ctype` at `ptr`, with `buflen` and
** `*ind`, for SQL type `sql_type`) into a value; text and binary are
** copied into `arena`.  SQL_NULL_DATA gives LT_NULL. */
SQLRETURN lt_convert_param(SQLSMALLINT ctype, SQLSMALLINT sql_type,
                           SQLSMALLINT scale, SQLPOINTER ptr, SQLLEN buflen,
                           const SQLLEN *ind, lt_arena *arena, lt_value *out,
                           const char **sqlstate);

/* Bytes of one value of fixed-size C type `ctype`, 0 for char/binary. */
SQLLEN lt_ctype_size(SQLSMALLINT ctype);

#endif /* LT_CONVERT_H */
