/*
** diag.c — the diagnostics area of a handle, SQLGetDiagRec and
** SQLGetDiagField.
**
** Every record's message starts with "[Lector]".  Posting never fails
** visibly: when memory runs out the record keeps its SQLSTATE and loses its
** text, because a missing diagnostic is worse than a terse one.
*/
#include "driver.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIAG_PREFIX "[Lector]"
#define DIAG_MAX_RECORDS 512 /* a runaway loop must not eat memory */

/* ------------------------------------------------------------------------ */
/* Standard texts                                                            */
/* ------------------------------------------------------------------------ */

static const struct { const char *state, *text; } standard_texts[] = {
    {"01000", "General warning"},
    {"01004", "String data, right truncated"},
    {"01S02", "Option value changed"},
    {"01S06", "Attempt to fetch before the result set returned the first rowset"},
    {"01S07", "Fractional truncation"},
    {"07002", "COUNT field incorrect"},
    {"07006", "Restricted data type attribute violation"},
    {"07009", "Invalid descriptor index"},
    {"08001", "Client unable to establish connection"},
    {"08002", "Connection name in use"},
    {"08003", "Connection not open"},
    {"22002", "Indicator variable required but not supplied"},
    {"22003", "Numeric value out of range"},
    {"22007", "Invalid datetime format"},
    {"22018", "Invalid character value for cast specification"},
    {"24000", "Invalid cursor state"},
    {"25000", "Invalid transaction state"},
    {"34000", "Invalid cursor name"},
    {"3C000", "Duplicate cursor name"},
    {"42000", "Syntax error or access violation"},
    {"42S02", "Base table or view not found"},
    {"42S22", "Column not found"},
    {"HY000", "General error"},
    {"HY001", "Memory allocation error"},
    {"HY003", "Invalid application buffer type"},
    {"HY004", "Invalid SQL data type"},
    {"HY007", "Associated statement is not prepared"},
    {"HY008", "Operation canceled"},
    {"HY009", "Invalid use of null pointer"},
    {"HY010", "Function sequence error"},
    {"HY011", "Attribute cannot be set now"},
    {"HY012", "Invalid transaction operation code"},
    {"HY016", "Cannot modify an implementation row descriptor"},
    {"HY017", "Invalid use of an automatically allocated descriptor handle"},
    {"HY019", "Non-character and non-binary data sent in pieces"},
    {"HY021", "Inconsistent descriptor information"},
    {"HY024", "Invalid attribute value"},
    {"HY090", "Invalid string or buffer length"},
    {"HY091", "Invalid descriptor field identifier"},
    {"HY092", "Invalid attribute/option identifier"},
    {"HY096", "Invalid information type"},
    {"HY104", "Invalid precision or scale value"},
    {"HY105", "Invalid parameter type"},
    {"HY106", "Fetch type out of range"},
    {"HY107", "Row value out of range"},
    {"HY109", "Invalid cursor position"},
    {"HY110", "Invalid driver completion"},
    {"HY111", "Invalid bookmark value"},
    {"HYC00", "Optional feature not implemented"},
    {"HYT00", "Timeout expired"},
    {"IM001", "Driver does not support this function"},
};

const char *lt_sqlstate_text(const char *sqlstate)
{
    for (size_t i = 0; i < sizeof standard_texts / sizeof standard_texts[0]; i++)
        if (strcmp(standard_texts[i].state, sqlstate) == 0)
            return standard_texts[i].text;
    return "General error";
}

/* SQLSTATEs that ODBC 3.0 defines beyond ISO 9075 (SQL_DIAG_SUBCLASS_ORIGIN). */
static bool odbc_subclass(const char *s)
{
    static const char *const odbc[] = {
        "01S00", "01S01", "01S02", "01S06", "01S07", "07S01", "08S01",
        "21S01", "21S02", "25S01", "25S02", "25S03", "42S01", "42S02",
        "42S11", "42S12", "42S21", "42S22", "HY095", "HY097", "HY098",
        "HY099", "HY100", "HY101", "HY105", "HY107", "HY109", "HY110",
        "HY111", "HYT00", "HYT01", "IM001", "IM002", "IM003", "IM004",
        "IM005", "IM006", "IM007", "IM008", "IM010", "IM011", "IM012",
    };
    for (size_t i = 0; i < sizeof odbc / sizeof odbc[0]; i++)
        if (strcmp(odbc[i], s) == 0)
            return true;
    return false;
}

/* ------------------------------------------------------------------------ */
/* Posting                                                                   */
/* ------------------------------------------------------------------------ */

void lt_diag_clear(lt_diag *diag)
{
    for (SQLSMALLINT i = 0; i < diag->count; i++)
        free(diag->recs[i].message);
    diag->count = 0;
    diag->cursor_row_count = -1;
}

static void post_v(lt_handle *h, const char *sqlstate, SQLINTEGER native,
                   SQLLEN row, SQLINTEGER column, const char *fmt, va_list ap)
{
    lt_diag *d = &h->diag;
    if (d->count >= DIAG_MAX_RECORDS)
        return;
    if (d->count == d->capacity) {
        SQLSMALLINT cap = d->capacity ? (SQLSMALLINT)(d->capacity * 2) : 4;
        lt_diag_rec *recs = realloc(d->recs, (size_t)cap * sizeof *recs);
        if (recs == NULL)
            return;
        d->recs = recs;
        d->capacity = cap;
    }
    lt_diag_rec *r = &d->recs[d->count++];
    memset(r, 0, sizeof *r);
    snprintf(r->sqlstate, sizeof r->sqlstate, "%.5s", sqlstate);
    r->native = native;
    r->row_number = row;
    r->column_number = column;

    char text[LT_ERROR_MESSAGE_MAX + 64];
    int n = vsnprintf(text, sizeof text, fmt, ap);
    if (n <= 0)
        snprintf(text, sizeof text, "%s", lt_sqlstate_text(r->sqlstate));
    size_t len = strlen(text);
    r->message = malloc(sizeof DIAG_PREFIX + len);
    if (r->message != NULL) {
        memcpy(r->message, DIAG_PREFIX, sizeof DIAG_PREFIX - 1);
        memcpy(r->message + sizeof DIAG_PREFIX - 1, text, len + 1);
    }
}

void lt_diag_post(lt_handle *h, const char *sqlstate, SQLINTEGER native,
                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    post_v(h, sqlstate, native, SQL_NO_ROW_NUMBER, SQL_NO_COLUMN_NUMBER, fmt, ap);
    va_end(ap);
}

void lt_diag_post_at(lt_handle *h, const char *sqlstate, SQLLEN row,
                     SQLINTEGER column, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    post_v(h, sqlstate, 0, row, column, fmt, ap);
    va_end(ap);
}

SQLRETURN lt_diag_error(lt_handle *h, const lt_error *err)
{
    const char *state = err->sqlstate[0] ? err->sqlstate : "HY000";
    if (err->message[0])
        lt_diag_post(h, state, err->native, "%s", err->message);
    else
        lt_diag_post(h, state, err->native, "%s", lt_sqlstate_text(state));
    return SQL_ERROR;
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                   */
/* ------------------------------------------------------------------------ */

static const char *handle_dsn(const lt_handle *h)
{
    const lt_dbc *dbc = NULL;
    switch (h->type) {
    case SQL_HANDLE_DBC:  dbc = (const lt_dbc *)h; break;
    case SQL_HANDLE_STMT: dbc = ((const lt_stmt *)h)->dbc; break;
    case SQL_HANDLE_DESC: dbc = ((const lt_desc *)h)->dbc; break;
    default: break;
    }
    return dbc != NULL && dbc->dsn != NULL ? dbc->dsn : "";
}

SQLRETURN SQL_API SQLGetDiagRec(SQLSMALLINT HandleType, SQLHANDLE Handle,
                                SQLSMALLINT RecNumber, SQLCHAR *Sqlstate,
                                SQLINTEGER *NativeError, SQLCHAR *MessageText,
                                SQLSMALLINT BufferLength,
                                SQLSMALLINT *TextLength)
{
    lt_handle *h = lt_enter_keep_diag(Handle, HandleType);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    if (RecNumber < 1 || BufferLength < 0)
        return lt_leave_keep_diag(h, SQL_ERROR);
    if (RecNumber > h->diag.count)
        return lt_leave_keep_diag(h, SQL_NO_DATA);
    const lt_diag_rec *r = &h->diag.recs[RecNumber - 1];
    if (Sqlstate != NULL)
        memcpy(Sqlstate, r->sqlstate, 6);
    if (NativeError != NULL)
        *NativeError = r->native;
    SQLRETURN rc = lt_str_out(NULL, r->message ? r->message : DIAG_PREFIX,
                              MessageText, BufferLength, TextLength, NULL);
    return lt_leave_keep_diag(h, rc);
}

/* Header fields only statements have. */
static bool stmt_only_field(SQLSMALLINT id)
{
    return id == SQL_DIAG_CURSOR_ROW_COUNT || id == SQL_DIAG_DYNAMIC_FUNCTION ||
           id == SQL_DIAG_DYNAMIC_FUNCTION_CODE || id == SQL_DIAG_ROW_COUNT;
}

static SQLRETURN header_field(lt_handle *h, SQLSMALLINT id, SQLPOINTER info,
                              SQLSMALLINT buflen, SQLSMALLINT *outlen)
{
    const lt_diag *d = &h->diag;
    switch (id) {
    case SQL_DIAG_NUMBER:
        if (info)
            *(SQLINTEGER *)info = d->count;
        return SQL_SUCCESS;
    case SQL_DIAG_RETURNCODE:
        if (info)
            *(SQLRETURN *)info = d->retcode;
        return SQL_SUCCESS;
    case SQL_DIAG_ROW_COUNT:
        if (info)
            *(SQLLEN *)info = ((lt_stmt *)h)->row_count;
        return SQL_SUCCESS;
    case SQL_DIAG_CURSOR_ROW_COUNT:
        if (info)
            *(SQLLEN *)info = d->cursor_row_count;
        return SQL_SUCCESS;
    case SQL_DIAG_DYNAMIC_FUNCTION_CODE:
        if (info)
            *(SQLINTEGER *)info = d->dynamic_function_code;
        return SQL_SUCCESS;
    case SQL_DIAG_DYNAMIC_FUNCTION:
        if (buflen < 0)
            return SQL_ERROR;
        return lt_str_out(NULL, d->dynamic_function ? d->dynamic_function : "",
                          info, buflen, outlen, NULL);
    }
    return SQL_ERROR;
}

static SQLRETURN record_field(lt_handle *h, const lt_diag_rec *r,
                              SQLSMALLINT id, SQLPOINTER info,
                              SQLSMALLINT buflen, SQLSMALLINT *outlen)
{
    const char *text = NULL;
    switch (id) {
    case SQL_DIAG_NATIVE:
        if (info)
            *(SQLINTEGER *)info = r->native;
        return SQL_SUCCESS;
    case SQL_DIAG_ROW_NUMBER:
        if (info)
            *(SQLLEN *)info = r->row_number;
        return SQL_SUCCESS;
    case SQL_DIAG_COLUMN_NUMBER:
        if (info)
            *(SQLINTEGER *)info = r->column_number;
        return SQL_SUCCESS;
    case SQL_DIAG_SQLSTATE:
        text = r->sqlstate;
        break;
    case SQL_DIAG_MESSAGE_TEXT:
        text = r->message ? r->message : DIAG_PREFIX;
        break;
    case SQL_DIAG_CLASS_ORIGIN:
        /* Only class IM is ODBC's own; every other class is ISO's. */
        text = strncmp(r->sqlstate, "IM", 2) == 0 ? "ODBC 3.0" : "ISO 9075";
        break;
    case SQL_DIAG_SUBCLASS_ORIGIN:
        text = odbc_subclass(r->sqlstate) ? "ODBC 3.0" : "ISO 9075";
        break;
    case SQL_DIAG_CONNECTION_NAME:
    case SQL_DIAG_SERVER_NAME:
        text = handle_dsn(h);
        break;
    default:
        return SQL_ERROR;
    }
    if (buflen < 0)
        return SQL_ERROR;
    return lt_str_out(NULL, text, info, buflen, outlen, NULL);
}

static bool header_id(SQLSMALLINT id)
{
    return id == SQL_DIAG_NUMBER || id == SQL_DIAG_RETURNCODE ||
           stmt_only_field(id);
}

SQLRETURN SQL_API SQLGetDiagField(SQLSMALLINT HandleType, SQLHANDLE Handle,
                                  SQLSMALLINT RecNumber,
                                  SQLSMALLINT DiagIdentifier,
                                  SQLPOINTER DiagInfo, SQLSMALLINT BufferLength,
                                  SQLSMALLINT *StringLength)
{
    lt_handle *h = lt_enter_keep_diag(Handle, HandleType);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    SQLRETURN rc;
    if (header_id(DiagIdentifier)) {
        if (stmt_only_field(DiagIdentifier) && HandleType != SQL_HANDLE_STMT)
            rc = SQL_ERROR;
        else
            rc = header_field(h, DiagIdentifier, DiagInfo, BufferLength,
                              StringLength);
    } else if (RecNumber < 1) {
        rc = SQL_ERROR;
    } else if (RecNumber > h->diag.count) {
        rc = SQL_NO_DATA;
    } else {
        rc = record_field(h, &h->diag.recs[RecNumber - 1], DiagIdentifier,
                          DiagInfo, BufferLength, StringLength);
    }
    return lt_leave_keep_diag(h, rc);
}
