/*
** execute.c — preparing and executing statements, their parameters and the
** description of their results: SQLPrepare, SQLExecute, SQLExecDirect,
** SQLBindParameter, SQLNumParams, SQLDescribeParam, SQLParamData,
** SQLPutData, SQLNumResultCols, SQLDescribeCol, SQLColAttribute,
** SQLRowCount, SQLMoreResults, SQLNativeSql, SQLCancel, SQLEndTran,
** SQLCloseCursor, SQLGetCursorName, SQLSetCursorName; and
** lt_stmt_open_cursor, where SQLExecute and every catalog function end.
**
** The IRD is the one description of a result: it is filled from the
** prepared statement's columns at SQLPrepare and again from the cursor's at
** execution (types can change: `SELECT ?` is typed by its parameter), and
** SQLDescribeCol and SQLColAttribute read it.
*/
#include "driver.h"
#include "convert.h"
#include "narrow.h"
#include "types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* The IRD                                                                   */
/* ------------------------------------------------------------------------ */

static bool is_exact_numeric(SQLSMALLINT t)
{
    return t == SQL_DECIMAL || t == SQL_NUMERIC;
}

static bool is_datetime(SQLSMALLINT verbose)
{
    return verbose == SQL_DATETIME || verbose == SQL_INTERVAL;
}

static int set_str(char **slot, const char *s)
{
    free(*slot);
    *slot = strdup(s ? s : "");
    return *slot ? 0 : -1;
}

static int describe_column(lt_desc_rec *r, const sql_column *c)
{
    lt_sqltype t;
    lt_sqltype_of(&c->desc, &t);
    lt_desc_rec_clear(r);
    r->concise_type = t.concise;
    r->type = t.verbose;
    r->datetime_interval_code = t.datetime_code;
    r->length = t.column_size;
    r->octet_length = t.octet_length;
    r->display_size = (SQLINTEGER)t.display_size;
    r->num_prec_radix = t.num_prec_radix;
    r->unsigned_ = t.unsigned_attr;
    r->case_sensitive = t.case_sensitive;
    r->searchable = t.searchable;
    if (is_datetime(t.verbose)) {
        r->precision = t.decimal_digits; /* fractional-second digits */
        r->scale = 0;
    } else if (t.num_prec_radix != 0) {
        r->precision = (SQLSMALLINT)t.column_size;
        r->scale = is_exact_numeric(t.concise) || t.decimal_digits > 0
                       ? t.decimal_digits : 0;
    }
    r->nullable = c->desc.nullable ? SQL_NULLABLE : SQL_NO_NULLS;
    r->fixed_prec_scale = SQL_FALSE;
    r->auto_unique_value = SQL_FALSE;
    r->updatable = SQL_ATTR_READONLY;
    const char *name = c->desc.name ? c->desc.name : "";
    r->unnamed = name[0] ? SQL_NAMED : SQL_UNNAMED;
    const char *local = c->desc.type_name && c->desc.type_name[0] ? c->desc.type_name
                                                                   : t.name;
    if (set_str(&r->name, name) || set_str(&r->label, name) ||
        set_str(&r->base_column_name, c->base_column) ||
        set_str(&r->base_table_name, c->base_table) ||
        set_str(&r->table_name, c->base_table) || set_str(&r->type_name, t.name) ||
        set_str(&r->local_type_name, local) ||
        set_str(&r->literal_prefix, t.literal_prefix) ||
        set_str(&r->literal_suffix, t.literal_suffix))
        return -1;
    return 0;
}

/* Bookmarks are 4-byte row numbers: SQL_INTEGER, or SQL_BINARY(4) when
** variable-length bookmarks were asked for. */
static void describe_bookmark(lt_stmt *s, lt_desc_rec *r)
{
    lt_desc_rec_clear(r);
    bool variable = s->use_bookmarks == SQL_UB_VARIABLE;
    r->concise_type = r->type = variable ? SQL_BINARY : SQL_INTEGER;
    r->length = LT_BOOKMARK_SIZE;
    r->octet_length = LT_BOOKMARK_SIZE;
    r->precision = variable ? 0 : 10;
    r->display_size = variable ? 2 * LT_BOOKMARK_SIZE : 10;
    r->num_prec_radix = variable ? 0 : 10;
    r->unsigned_ = SQL_TRUE;
    r->nullable = SQL_NO_NULLS;
    r->unnamed = SQL_UNNAMED;
    r->updatable = SQL_ATTR_READONLY;
    r->searchable = SQL_PRED_NONE;
}

/* Fill the IRD from a prepared statement or a cursor (one is NULL). */
static int describe(lt_stmt *s, const sql_stmt *prep, const sql_cursor *cur)
{
    uint32_t n = cur ? sql_cursor_column_count(cur) : sql_column_count(prep);
    if (n > 32766)
        n = 32766;
    lt_desc *ird = &s->ird;
    if (lt_desc_record(ird, (SQLSMALLINT)n) == NULL)
        return -1;
    lt_desc_truncate(ird, (SQLSMALLINT)n);
    describe_bookmark(s, &ird->recs[0]);
    for (uint32_t i = 0; i < n; i++) {
        const sql_column *c = cur ? sql_cursor_column_at(cur, i) : sql_column_at(prep, i);
        if (describe_column(&ird->recs[i + 1], c) < 0)
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Cursors                                                                   */
/* ------------------------------------------------------------------------ */

static void reset_position(lt_stmt *s)
{
    s->rowset_start = 0;
    s->rowset_size = 0;
    s->rowset_row = 0;
    s->last_fetch_size = 0;
    memset(&s->getdata, 0, sizeof s->getdata);
}

static void forget_statement(lt_stmt *s)
{
    sql_stmt_free(s->prepared);
    s->prepared = NULL;
    free(s->text);
    s->text = NULL;
    s->prepared_explicitly = false;
}

void lt_stmt_close_cursor(lt_stmt *s)
{
    if (s->cursor == NULL && s->state != LT_STMT_CURSOR)
        return;
    lt_fetch_free(s);
    lt_mutex_lock(&s->cancel_lock);
    sql_cursor *cur = s->cursor;
    s->cursor = NULL;
    lt_mutex_unlock(&s->cancel_lock);
    sql_cursor_close(cur);
    reset_position(s);
    if (s->prepared != NULL && s->prepared_explicitly) {
        s->state = LT_STMT_PREPARED;
        /* The IRD describes the prepared statement again. */
        if (describe(s, s->prepared, NULL) < 0)
            lt_desc_truncate(&s->ird, 0);
    } else {
        forget_statement(s);
        s->state = LT_STMT_ALLOCATED;
        lt_desc_truncate(&s->ird, 0);
    }
}

static SQLRETURN open_cursor(lt_stmt *s, sql_cursor *cur)
{
    lt_mutex_lock(&s->cancel_lock);
    s->cursor = cur;
    lt_mutex_unlock(&s->cancel_lock);
    s->state = LT_STMT_CURSOR;
    s->row_count = -1;
    reset_position(s);
    s->h.diag.dynamic_function = "SELECT CURSOR";
    s->h.diag.dynamic_function_code = SQL_DIAG_SELECT_CURSOR;
    if (describe(s, NULL, cur) < 0) {
        lt_stmt_close_cursor(s);
        lt_diag_post(&s->h, "HY001", 0, "Memory allocation error");
        return SQL_ERROR;
    }
    return SQL_SUCCESS;
}

SQLRETURN lt_stmt_open_cursor(lt_stmt *s, sql_cursor *cur)
{
    /* A catalog result replaces whatever the statement held. */
    if (s->cursor != NULL || s->state == LT_STMT_CURSOR) {
        s->prepared_explicitly = false;
        lt_stmt_close_cursor(s);
    }
    lt_dae_free(s);
    forget_statement(s);
    if (cur == NULL) {
        s->state = LT_STMT_ALLOCATED;
        lt_diag_post(&s->h, "HY001", 0, "Memory allocation error");
        return SQL_ERROR;
    }
    return open_cursor(s, cur);
}

/* ------------------------------------------------------------------------ */
/* Data at execution                                                         */
/* ------------------------------------------------------------------------ */

typedef struct dae_param {
    uint32_t index;          /* parameter number - 1 */
    char *buf;
    size_t len, cap;
    bool got_data;           /* SQLPutData called at least once */
    bool is_null;
} dae_param;

typedef struct dae_state {
    uint32_t count;
    int32_t current;         /* -1 before the first SQLParamData */
    dae_param *params;
} dae_state;

void lt_dae_free(lt_stmt *s)
{
    dae_state *d = s->dae;
    if (d == NULL)
        return;
    for (uint32_t i = 0; i < d->count; i++)
        free(d->params[i].buf);
    free(d->params);
    free(d);
    lt_mutex_lock(&s->cancel_lock);
    s->dae = NULL;
    lt_mutex_unlock(&s->cancel_lock);
}

static bool is_dae(const SQLLEN *ind)
{
    return ind != NULL &&
           (*ind == SQL_DATA_AT_EXEC || *ind <= SQL_LEN_DATA_AT_EXEC_OFFSET);
}

static dae_param *dae_find(dae_state *d, uint32_t index)
{
    if (d == NULL)
        return NULL;
    for (uint32_t i = 0; i < d->count; i++)
        if (d->params[i].index == index)
            return &d->params[i];
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Executing                                                                 */
/* ------------------------------------------------------------------------ */

/* Where a bound parameter's buffers are, after the bind offset. */
typedef struct param_place {
    SQLPOINTER ptr;
    SQLLEN *ind;     /* indicator (NULL: not null) */
    SQLLEN *len;     /* octet length (NULL: buffer length / NTS rules) */
} param_place;

static SQLPOINTER offset_ptr(SQLPOINTER p, SQLLEN off)
{
    return p ? (SQLPOINTER)((char *)p + off) : NULL;
}

static param_place place_of(const lt_desc *apd, const lt_desc_rec *r)
{
    SQLLEN off = apd->bind_offset_ptr ? *apd->bind_offset_ptr : 0;
    param_place p = {offset_ptr(r->data_ptr, off),
                     (SQLLEN *)offset_ptr(r->indicator_ptr, off),
                     (SQLLEN *)offset_ptr(r->octet_length_ptr, off)};
    return p;
}

static bool rec_bound(const lt_desc_rec *r)
{
    return r->data_ptr != NULL || r->indicator_ptr != NULL ||
           r->octet_length_ptr != NULL;
}

/* Check every parameter is bound; start data-at-execution when some are.
** Returns SQL_SUCCESS, SQL_NEED_DATA or SQL_ERROR (posted). */
static SQLRETURN check_params(lt_stmt *s, uint32_t n)
{
    uint32_t ndae = 0;
    for (uint32_t i = 0; i < n; i++) {
        if ((SQLSMALLINT)(i + 1) > s->apd->count || !rec_bound(&s->apd->recs[i + 1])) {
            lt_diag_post(&s->h, "07002", 0,
                         "COUNT field incorrect: parameter %u of %u is not bound",
                         i + 1, n);
            return SQL_ERROR;
        }
        param_place p = place_of(s->apd, &s->apd->recs[i + 1]);
        if (is_dae(p.ind ? p.ind : p.len))
            ndae++;
    }
    if (ndae == 0)
        return SQL_SUCCESS;
    dae_state *d = calloc(1, sizeof *d);
    if (d != NULL)
        d->params = calloc(ndae, sizeof *d->params);
    if (d == NULL || d->params == NULL) {
        free(d);
        lt_diag_post(&s->h, "HY001", 0, "Memory allocation error");
        return SQL_ERROR;
    }
    d->current = -1;
    for (uint32_t i = 0; i < n; i++) {
        param_place p = place_of(s->apd, &s->apd->recs[i + 1]);
        if (is_dae(p.ind ? p.ind : p.len))
            d->params[d->count++].index = i;
    }
    lt_mutex_lock(&s->cancel_lock);
    s->dae = d;
    lt_mutex_unlock(&s->cancel_lock);
    return SQL_NEED_DATA;
}

#ifdef _WIN32
/* SQL_C_CHAR parameter text is in the ANSI code page on Windows (narrow.h):
** the malloc'ed UTF-8 form of a value that is not plain ASCII, with its
** length in *len; NULL when it needs none (ASCII, NULL, default, no buffer)
** or on no memory (*oom). */
static char *param_to_utf8(SQLSMALLINT ctype, SQLPOINTER ptr, const SQLLEN *ind,
                           SQLLEN *len, bool *oom)
{
    *oom = false;
    SQLLEN n = ind != NULL ? *ind : SQL_NTS;
    if (ctype != SQL_C_CHAR || ptr == NULL || (n < 0 && n != SQL_NTS))
        return NULL;
    size_t bytes = n == SQL_NTS ? strlen(ptr) : (size_t)n;
    if (lt_narrow_same(ptr, bytes))
        return NULL;
    size_t out = 0;
    char *u = lt_narrow_to_utf8(ptr, bytes, &out);
    *oom = u == NULL;
    *len = (SQLLEN)out;
    return u;
}
#endif

static SQLRETURN convert_params(lt_stmt *s, uint32_t n, lt_value *vals,
                                lt_arena *arena)
{
    SQLRETURN rc = SQL_SUCCESS;
    for (uint32_t i = 0; i < n; i++) {
        const lt_desc_rec *a = &s->apd->recs[i + 1];
        lt_desc_rec *ipd = lt_desc_record(&s->ipd, (SQLSMALLINT)(i + 1));
        SQLSMALLINT sqltype = ipd && ipd->concise_type ? ipd->concise_type : SQL_VARCHAR;
        SQLSMALLINT scale = ipd ? ipd->scale : 0;
        SQLSMALLINT ctype = a->concise_type;
        if (ctype == SQL_C_DEFAULT)
            ctype = lt_default_ctype(sqltype);
        param_place p = place_of(s->apd, a);
        SQLPOINTER ptr = p.ptr;
        SQLLEN buflen = a->octet_length;
        SQLLEN ind_value;
        const SQLLEN *ind = p.ind;
        dae_param *dp = dae_find(s->dae, i);
        if (dp != NULL) {
            /* The value came in pieces through SQLPutData. */
            ind_value = dp->is_null || !dp->got_data ? SQL_NULL_DATA : (SQLLEN)dp->len;
            ptr = dp->buf ? dp->buf : "";
            buflen = (SQLLEN)dp->len;
            ind = &ind_value;
        } else if (ind != NULL && *ind != SQL_NULL_DATA && p.len != NULL) {
            ind = p.len; /* separate length and indicator buffers */
        } else if (ind == NULL) {
            ind = p.len;
        }
        const char *state = NULL;
#ifdef _WIN32
        bool oom;
        SQLLEN utf8_len;
        char *utf8 = param_to_utf8(ctype, ptr, ind, &utf8_len, &oom);
        if (oom) {
            lt_diag_post(&s->h, "HY001", 0, "Memory allocation error");
            return SQL_ERROR;
        }
        if (utf8 != NULL) {
            ptr = utf8;
            buflen = utf8_len;
            ind = &utf8_len;
        }
        SQLRETURN crc = lt_convert_param(ctype, sqltype, scale, ptr, buflen, ind,
                                         arena, &vals[i], &state);
        free(utf8);
#else
        SQLRETURN crc = lt_convert_param(ctype, sqltype, scale, ptr, buflen, ind,
                                         arena, &vals[i], &state);
#endif
        if (crc == SQL_ERROR) {
            lt_diag_post_at(&s->h, state ? state : "HY000", SQL_NO_ROW_NUMBER,
                            (SQLINTEGER)(i + 1), "%s (parameter %u)",
                            lt_sqlstate_text(state ? state : "HY000"), i + 1);
            return SQL_ERROR;
        }
        if (crc == SQL_SUCCESS_WITH_INFO) {
            lt_diag_post_at(&s->h, state ? state : "01000", SQL_NO_ROW_NUMBER,
                            (SQLINTEGER)(i + 1), "%s (parameter %u)",
                            lt_sqlstate_text(state ? state : "01000"), i + 1);
            rc = SQL_SUCCESS_WITH_INFO;
        }
    }
    return rc;
}

/* Execute the prepared statement with the bound parameters (or those sent
** in pieces) and open its cursor. */
static SQLRETURN run(lt_stmt *s, bool params_ready)
{
    lt_handle *h = &s->h;
    lt_mutex_lock(&s->cancel_lock);
    s->cancel_requested = 0;
    lt_mutex_unlock(&s->cancel_lock);
    uint32_t n = sql_param_count(s->prepared);
    if (!params_ready) {
        SQLRETURN rc = check_params(s, n);
        if (rc != SQL_SUCCESS)
            return rc;
    }
    lt_value stack_vals[8];
    lt_value *vals = n <= 8 ? stack_vals : calloc(n, sizeof *vals);
    if (vals == NULL) {
        lt_diag_post(h, "HY001", 0, "Memory allocation error");
        return SQL_ERROR;
    }
    lt_arena arena;
    lt_arena_init(&arena);
    SQLRETURN rc = convert_params(s, n, vals, &arena);
    sql_cursor *cur = NULL;
    if (rc != SQL_ERROR) {
        lt_error err;
        lt_error_clear(&err);
        if (sql_execute(s->prepared, vals, n, &cur, &err) != 0) {
            lt_diag_error(h, &err);
            rc = SQL_ERROR;
        }
    }
    lt_arena_free(&arena);
    if (vals != stack_vals)
        free(vals);
    lt_dae_free(s);
    if (s->ipd.rows_processed_ptr != NULL)
        *s->ipd.rows_processed_ptr = rc == SQL_ERROR ? 0 : 1;
    if (s->ipd.array_status_ptr != NULL)
        s->ipd.array_status_ptr[0] = rc == SQL_ERROR ? SQL_PARAM_ERROR
                                     : rc == SQL_SUCCESS ? SQL_PARAM_SUCCESS
                                                         : SQL_PARAM_SUCCESS_WITH_INFO;
    if (rc == SQL_ERROR) {
        if (!s->prepared_explicitly) {
            forget_statement(s);
            s->state = LT_STMT_ALLOCATED;
            lt_desc_truncate(&s->ird, 0);
        }
        return rc;
    }
    SQLRETURN orc = open_cursor(s, cur);
    return orc == SQL_SUCCESS ? rc : orc;
}

/* Refuse while a cursor is open or data-at-execution is pending. */
static bool busy(lt_stmt *s)
{
    if (s->dae != NULL) {
        lt_diag_post(&s->h, "HY010", 0,
                     "Function sequence error: data-at-execution parameters are pending");
        return true;
    }
    if (s->state == LT_STMT_CURSOR) {
        lt_diag_post(&s->h, "24000", 0, "Invalid cursor state: a cursor is open");
        return true;
    }
    return false;
}

static SQLRETURN prepare(lt_stmt *s, const SQLCHAR *text, SQLINTEGER len,
                         bool explicitly)
{
    lt_handle *h = &s->h;
    if (text == NULL) {
        lt_diag_post(h, "HY009", 0, "Invalid use of null pointer");
        return SQL_ERROR;
    }
    SQLLEN n = lt_str_in_len(text, len);
    if (n < 0) {
        lt_diag_post(h, "HY090", 0, "Invalid string or buffer length");
        return SQL_ERROR;
    }
    forget_statement(s);
    s->state = LT_STMT_ALLOCATED;
    lt_desc_truncate(&s->ird, 0);
    bool oom = false;
    s->text = lt_str_in(text, n, &oom);
    if (s->text == NULL) {
        lt_diag_post(h, "HY001", 0, "Memory allocation error");
        return SQL_ERROR;
    }
    lt_error err;
    lt_error_clear(&err);
    if (sql_prepare(s->dbc->source, s->text, (size_t)n, &s->prepared, &err) != 0) {
        s->prepared = NULL;
        forget_statement(s);
        return lt_diag_error(h, &err);
    }
    sql_stmt_set_memory_limit(s->prepared, s->dbc->memory_limit);
    s->prepared_explicitly = explicitly;
    s->state = LT_STMT_PREPARED;
    if (describe(s, s->prepared, NULL) < 0) {
        forget_statement(s);
        s->state = LT_STMT_ALLOCATED;
        lt_diag_post(h, "HY001", 0, "Memory allocation error");
        return SQL_ERROR;
    }
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLPrepare(SQLHSTMT StatementHandle, SQLCHAR *StatementText,
                             SQLINTEGER TextLength)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_stmt *s = (lt_stmt *)h;
    if (busy(s))
        return lt_leave(h, SQL_ERROR);
    return lt_leave(h, prepare(s, StatementText, TextLength, true));
}

SQLRETURN SQL_API SQLExecute(SQLHSTMT StatementHandle)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_stmt *s = (lt_stmt *)h;
    if (busy(s))
        return lt_leave(h, SQL_ERROR);
    if (s->state != LT_STMT_PREPARED || s->prepared == NULL) {
        lt_diag_post(h, "HY010", 0, "Function sequence error: no statement is prepared");
        return lt_leave(h, SQL_ERROR);
    }
    return lt_leave(h, run(s, false));
}

SQLRETURN SQL_API SQLExecDirect(SQLHSTMT StatementHandle, SQLCHAR *StatementText,
                                SQLINTEGER TextLength)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_stmt *s = (lt_stmt *)h;
    if (busy(s))
        return lt_leave(h, SQL_ERROR);
    SQLRETURN rc = prepare(s, StatementText, TextLength, false);
    if (rc != SQL_SUCCESS)
        return lt_leave(h, rc);
    return lt_leave(h, run(s, false));
}

/* ------------------------------------------------------------------------ */
/* Parameters                                                                */
/* ------------------------------------------------------------------------ */

SQLRETURN SQL_API SQLBindParameter(SQLHSTMT StatementHandle, SQLUSMALLINT ParameterNumber,
                                   SQLSMALLINT InputOutputType, SQLSMALLINT ValueType,
                                   SQLSMALLINT ParameterType, SQLULEN ColumnSize,
                                   SQLSMALLINT DecimalDigits, SQLPOINTER ParameterValuePtr,
                                   SQLLEN BufferLength, SQLLEN *StrLen_or_IndPtr)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_stmt *s = (lt_stmt *)h;
    if (ParameterNumber < 1 || ParameterNumber > 32766) {
        lt_diag_post(h, "07009", 0, "Invalid descriptor index %u", ParameterNumber);
        return lt_leave(h, SQL_ERROR);
    }
    if (InputOutputType != SQL_PARAM_INPUT && InputOutputType != SQL_PARAM_INPUT_OUTPUT) {
        lt_diag_post(h, "HY105", 0,
                     "Invalid parameter type %d: Lector statements take input "
                     "parameters only", InputOutputType);
        return lt_leave(h, SQL_ERROR);
    }
    if (!lt_ctype_valid(ValueType)) {
        lt_diag_post(h, "HY003", 0, "Invalid application buffer type %d", ValueType);
        return lt_leave(h, SQL_ERROR);
    }
    if (!lt_sqltype_valid(ParameterType) && ParameterType != SQL_DATE &&
        ParameterType != SQL_TIME && ParameterType != SQL_TIMESTAMP) {
        lt_diag_post(h, "HY004", 0, "Invalid SQL data type %d", ParameterType);
        return lt_leave(h, SQL_ERROR);
    }
    if (BufferLength < 0) {
        lt_diag_post(h, "HY090", 0, "Invalid string or buffer length");
        return lt_leave(h, SQL_ERROR);
    }
    SQLSMALLINT n = (SQLSMALLINT)ParameterNumber;
    lt_desc_rec *a = lt_desc_record(s->apd, n);
    lt_desc_rec *i = a ? lt_desc_record(&s->ipd, n) : NULL;
    if (a == NULL || i == NULL) {
        lt_diag_post(h, "HY001", 0, "Memory allocation error");
        return lt_leave(h, SQL_ERROR);
    }
    lt_desc_set_type(a, ValueType);
    a->octet_length = BufferLength;
    a->data_ptr = ParameterValuePtr;
    a->indicator_ptr = StrLen_or_IndPtr;
    a->octet_length_ptr = StrLen_or_IndPtr;
    if (a->concise_type == SQL_C_NUMERIC) {
        a->precision = (SQLSMALLINT)(ColumnSize ? ColumnSize : 38);
        a->scale = DecimalDigits;
    }
    lt_desc_set_type(i, ParameterType);
    i->parameter_type = InputOutputType;
    i->length = ColumnSize;
    i->octet_length = (SQLLEN)ColumnSize;
    if (i->type == SQL_DATETIME)
        i->precision = DecimalDigits;
    else if (i->concise_type != SQL_CHAR && i->concise_type != SQL_VARCHAR &&
             i->concise_type != SQL_WCHAR && i->concise_type != SQL_WVARCHAR &&
             i->concise_type != SQL_LONGVARCHAR && i->concise_type != SQL_WLONGVARCHAR)
        i->precision = (SQLSMALLINT)ColumnSize;
    i->scale = DecimalDigits;
    if (n > s->apd->count)
        s->apd->count = n;
    if (n > s->ipd.count)
        s->ipd.count = n;
    return lt_leave(h, SQL_SUCCESS);
}

SQLRETURN SQL_API SQLNumParams(SQLHSTMT StatementHandle, SQLSMALLINT *ParameterCountPtr)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_stmt *s = (lt_stmt *)h;
    if (s->prepared == NULL) {
        lt_diag_post(h, "HY010", 0, "Function sequence error: no statement is prepared");
        return lt_leave(h, SQL_ERROR);
    }
    if (ParameterCountPtr != NULL)
        *ParameterCountPtr = (SQLSMALLINT)sql_param_count(s->prepared);
    return lt_leave(h, SQL_SUCCESS);
}

SQLRETURN SQL_API SQLDescribeParam(SQLHSTMT StatementHandle, SQLUSMALLINT ParameterNumber,
                                   SQLSMALLINT *DataTypePtr, SQLULEN *ParameterSizePtr,
                                   SQLSMALLINT *DecimalDigitsPtr, SQLSMALLINT *NullablePtr)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_stmt *s = (lt_stmt *)h;
    if (s->prepared == NULL) {
        lt_diag_post(h, "HY010", 0, "Function sequence error: no statement is prepared");
        return lt_leave(h, SQL_ERROR);
    }
    uint32_t n = sql_param_count(s->prepared);
    if (ParameterNumber < 1 || ParameterNumber > n) {
        lt_diag_post(h, "07009", 0, "Invalid descriptor index %u (the statement has "
                     "%u parameters)", ParameterNumber, n);
        return lt_leave(h, SQL_ERROR);
    }
    /* A parameter that takes anything is described as text. */
    lt_column col = {0};
    col.name = "";
    col.type = sql_param_type(s->prepared, ParameterNumber - 1);
    col.nullable = true;
    switch (col.type) {
    case LT_NULL:
    case LT_TEXT:    col.type = LT_TEXT; col.size = 255; break;
    case LT_BINARY:  col.size = 255; break;
    case LT_INT64:   col.size = 19; break;
    case LT_DOUBLE:  col.size = 15; break;
    case LT_DECIMAL: col.size = 38; break;
    case LT_TIMESTAMP: col.scale = 6; break;
    default: break;
    }
    lt_sqltype t;
    lt_sqltype_of(&col, &t);
    if (DataTypePtr)
        *DataTypePtr = t.concise;
    if (ParameterSizePtr)
        *ParameterSizePtr = t.column_size;
    if (DecimalDigitsPtr)
        *DecimalDigitsPtr = t.decimal_digits;
    if (NullablePtr)
        *NullablePtr = SQL_NULLABLE;
    return lt_leave(h, SQL_SUCCESS);
}

SQLRETURN SQL_API SQLParamData(SQLHSTMT StatementHandle, SQLPOINTER *ValuePtrPtr)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_stmt *s = (lt_stmt *)h;
    dae_state *d = s->dae;
    if (d == NULL) {
        lt_diag_post(h, "HY010", 0,
                     "Function sequence error: no data-at-execution parameter is pending");
        return lt_leave(h, SQL_ERROR);
    }
    d->current++;
    if ((uint32_t)d->current < d->count) {
        const lt_desc_rec *a = &s->apd->recs[d->params[d->current].index + 1];
        if (ValuePtrPtr != NULL)
            *ValuePtrPtr = place_of(s->apd, a).ptr;
        return lt_leave(h, SQL_NEED_DATA);
    }
    return lt_leave(h, run(s, true));
}

SQLRETURN SQL_API SQLPutData(SQLHSTMT StatementHandle, SQLPOINTER Data,
                             SQLLEN StrLen_or_Ind)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_stmt *s = (lt_stmt *)h;
    dae_state *d = s->dae;
    if (d == NULL || d->current < 0 || (uint32_t)d->current >= d->count) {
        lt_diag_post(h, "HY010", 0,
                     "Function sequence error: SQLParamData has not asked for data");
        return lt_leave(h, SQL_ERROR);
    }
    dae_param *p = &d->params[d->current];
    const lt_desc_rec *a = &s->apd->recs[p->index + 1];
    SQLSMALLINT ctype = a->concise_type;
    bool pieces = ctype == SQL_C_CHAR || ctype == SQL_C_WCHAR || ctype == SQL_C_BINARY ||
                  ctype == SQL_C_DEFAULT;
    if (StrLen_or_Ind == SQL_NULL_DATA) {
        p->is_null = true;
        p->got_data = true;
        return lt_leave(h, SQL_SUCCESS);
    }
    if (p->got_data && !pieces) {
        lt_diag_post(h, "HY019", 0, "Non-character and non-binary data sent in pieces");
        return lt_leave(h, SQL_ERROR);
    }
    size_t len;
    if (StrLen_or_Ind == SQL_NTS) {
        if (Data == NULL) {
            lt_diag_post(h, "HY009", 0, "Invalid use of null pointer");
            return lt_leave(h, SQL_ERROR);
        }
        len = ctype == SQL_C_WCHAR ? 0 : strlen(Data);
        if (ctype == SQL_C_WCHAR)
            while (((const SQLWCHAR *)Data)[len] != 0)
                len++;
        if (ctype == SQL_C_WCHAR)
            len *= sizeof(SQLWCHAR);
    } else if (StrLen_or_Ind < 0) {
        lt_diag_post(h, "HY090", 0, "Invalid string or buffer length");
        return lt_leave(h, SQL_ERROR);
    } else {
        len = (size_t)StrLen_or_Ind;
        if (!pieces && lt_ctype_size(ctype) > 0)
            len = (size_t)lt_ctype_size(ctype);
    }
    if (len > 0 && Data == NULL) {
        lt_diag_post(h, "HY009", 0, "Invalid use of null pointer");
        return lt_leave(h, SQL_ERROR);
    }
    if (p->len + len + 1 > p->cap) {
        size_t cap = p->cap ? p->cap : 256;
        while (cap < p->len + len + 1)
            cap *= 2;
        char *buf = realloc(p->buf, cap);
        if (buf == NULL) {
            lt_diag_post(h, "HY001", 0, "Memory allocation error");
            return lt_leave(h, SQL_ERROR);
        }
        p->buf = buf;
        p->cap = cap;
    }
    if (len > 0)
        memcpy(p->buf + p->len, Data, len);
    p->len += len;
    p->buf[p->len] = '\0';
    p->got_data = true;
    p->is_null = false;
    return lt_leave(h, SQL_SUCCESS);
}

/* ------------------------------------------------------------------------ */
/* Describing results                                                        */
/* ------------------------------------------------------------------------ */

static bool need_description(lt_stmt *s)
{
    if (s->state == LT_STMT_ALLOCATED) {
        lt_diag_post(&s->h, "HY010", 0,
                     "Function sequence error: the statement is neither prepared nor executed");
        return false;
    }
    return true;
}

/* The IRD record of column `col`, or NULL with 07009 posted. */
static const lt_desc_rec *column_rec(lt_stmt *s, SQLUSMALLINT col)
{
    if ((col == 0 && s->use_bookmarks != SQL_UB_OFF && s->ird.capacity > 0) ||
        (col > 0 && (SQLSMALLINT)col <= s->ird.count && col <= 32766))
        return &s->ird.recs[col];
    lt_diag_post(&s->h, "07009", 0, "Invalid descriptor index %u (the result has "
                 "%d columns)", col, s->ird.count);
    return NULL;
}

SQLRETURN SQL_API SQLNumResultCols(SQLHSTMT StatementHandle, SQLSMALLINT *ColumnCountPtr)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_stmt *s = (lt_stmt *)h;
    if (!need_description(s))
        return lt_leave(h, SQL_ERROR);
    if (ColumnCountPtr != NULL)
        *ColumnCountPtr = s->ird.count;
    return lt_leave(h, SQL_SUCCESS);
}

/* ODBC's "decimal digits" of a described column. */
static SQLSMALLINT decimal_digits(const lt_desc_rec *r)
{
    if (is_datetime(r->type))
        return r->precision;
    return r->num_prec_radix != 0 ? r->scale : 0;
}

SQLRETURN SQL_API SQLDescribeCol(SQLHSTMT StatementHandle, SQLUSMALLINT ColumnNumber,
                                 SQLCHAR *ColumnName, SQLSMALLINT BufferLength,
                                 SQLSMALLINT *NameLengthPtr, SQLSMALLINT *DataTypePtr,
                                 SQLULEN *ColumnSizePtr, SQLSMALLINT *DecimalDigitsPtr,
                                 SQLSMALLINT *NullablePtr)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_stmt *s = (lt_stmt *)h;
    if (!need_description(s))
        return lt_leave(h, SQL_ERROR);
    if (BufferLength < 0) {
        lt_diag_post(h, "HY090", 0, "Invalid string or buffer length");
        return lt_leave(h, SQL_ERROR);
    }
    const lt_desc_rec *r = column_rec(s, ColumnNumber);
    if (r == NULL)
        return lt_leave(h, SQL_ERROR);
    SQLRETURN rc = lt_str_out(h, r->name ? r->name : "", ColumnName, BufferLength,
                              NameLengthPtr, NULL);
    if (DataTypePtr)
        *DataTypePtr = lt_sqltype_for_version(r->concise_type, s->dbc->env->odbc_version);
    if (ColumnSizePtr)
        *ColumnSizePtr = r->length;
    if (DecimalDigitsPtr)
        *DecimalDigitsPtr = decimal_digits(r);
    if (NullablePtr)
        *NullablePtr = r->nullable;
    return lt_leave(h, rc);
}

static const char *text_attribute(const lt_desc_rec *r, SQLUSMALLINT field)
{
    const char *v = NULL;
    switch (field) {
    case SQL_DESC_BASE_COLUMN_NAME: v = r->base_column_name; break;
    case SQL_DESC_BASE_TABLE_NAME:  v = r->base_table_name; break;
    case SQL_DESC_CATALOG_NAME:     v = ""; break; /* = SQL_COLUMN_QUALIFIER_NAME */
    case SQL_DESC_LABEL:            v = r->label; break;
    case SQL_DESC_LITERAL_PREFIX:   v = r->literal_prefix; break;
    case SQL_DESC_LITERAL_SUFFIX:   v = r->literal_suffix; break;
    case SQL_DESC_LOCAL_TYPE_NAME:  v = r->local_type_name; break;
    case SQL_DESC_NAME:
    case SQL_COLUMN_NAME:           v = r->name; break;
    case SQL_DESC_SCHEMA_NAME:      v = ""; break; /* = SQL_COLUMN_OWNER_NAME */
    case SQL_DESC_TABLE_NAME:       v = r->table_name; break;
    case SQL_DESC_TYPE_NAME:        v = r->type_name; break;
    default:                        return NULL;
    }
    return v ? v : "";
}

/* A numeric attribute; false when `field` is not one. */
static bool number_attribute(const lt_stmt *s, const lt_desc_rec *r,
                             SQLUSMALLINT field, SQLLEN *out)
{
    switch (field) {
    case SQL_DESC_COUNT:
    case SQL_COLUMN_COUNT:          *out = s->ird.count; return true;
    case SQL_DESC_AUTO_UNIQUE_VALUE: *out = r->auto_unique_value; return true;
    case SQL_DESC_CASE_SENSITIVE:   *out = r->case_sensitive; return true;
    case SQL_DESC_CONCISE_TYPE: /* = SQL_COLUMN_TYPE */
        *out = lt_sqltype_for_version(r->concise_type, s->dbc->env->odbc_version);
        return true;
    case SQL_DESC_DISPLAY_SIZE:     *out = r->display_size; return true;
    case SQL_DESC_FIXED_PREC_SCALE: *out = r->fixed_prec_scale; return true;
    case SQL_DESC_LENGTH:           *out = (SQLLEN)r->length; return true;
    case SQL_DESC_NULLABLE:
    case SQL_COLUMN_NULLABLE:       *out = r->nullable; return true;
    case SQL_DESC_NUM_PREC_RADIX:   *out = r->num_prec_radix; return true;
    case SQL_DESC_OCTET_LENGTH:     *out = r->octet_length; return true;
    case SQL_DESC_PRECISION:        *out = r->precision; return true;
    case SQL_DESC_SCALE:            *out = r->scale; return true;
    case SQL_DESC_SEARCHABLE:       *out = r->searchable; return true;
    case SQL_DESC_TYPE:             *out = r->type; return true;
    case SQL_DESC_UNNAMED:          *out = r->unnamed; return true;
    case SQL_DESC_UNSIGNED:         *out = r->unsigned_; return true;
    case SQL_DESC_UPDATABLE:        *out = r->updatable; return true;
    /* ODBC 2's meanings: LENGTH is the transfer octet length, PRECISION
    ** the column size, SCALE the decimal digits. */
    case SQL_COLUMN_LENGTH:         *out = r->octet_length; return true;
    case SQL_COLUMN_PRECISION:      *out = (SQLLEN)r->length; return true;
    case SQL_COLUMN_SCALE:          *out = decimal_digits(r); return true;
    }
    return false;
}

SQLRETURN SQL_API SQLColAttribute(SQLHSTMT StatementHandle, SQLUSMALLINT ColumnNumber,
                                  SQLUSMALLINT FieldIdentifier, SQLPOINTER CharacterAttributePtr,
                                  SQLSMALLINT BufferLength, SQLSMALLINT *StringLengthPtr,
                                  SQLLEN *NumericAttributePtr)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_stmt *s = (lt_stmt *)h;
    if (!need_description(s))
        return lt_leave(h, SQL_ERROR);
    SQLLEN num = 0;
    if (FieldIdentifier == SQL_DESC_COUNT || FieldIdentifier == SQL_COLUMN_COUNT) {
        number_attribute(s, NULL, FieldIdentifier, &num);
        if (NumericAttributePtr)
            *NumericAttributePtr = num;
        return lt_leave(h, SQL_SUCCESS);
    }
    const lt_desc_rec *r = column_rec(s, ColumnNumber);
    if (r == NULL)
        return lt_leave(h, SQL_ERROR);
    const char *text = text_attribute(r, FieldIdentifier);
    if (text != NULL) {
        if (BufferLength < 0 && CharacterAttributePtr != NULL) {
            lt_diag_post(h, "HY090", 0, "Invalid string or buffer length");
            return lt_leave(h, SQL_ERROR);
        }
        return lt_leave(h, lt_str_out(h, text, CharacterAttributePtr, BufferLength,
                                      StringLengthPtr, NULL));
    }
    if (!number_attribute(s, r, FieldIdentifier, &num)) {
        lt_diag_post(h, "HY091", 0, "Invalid descriptor field identifier %u",
                     FieldIdentifier);
        return lt_leave(h, SQL_ERROR);
    }
    if (NumericAttributePtr)
        *NumericAttributePtr = num;
    return lt_leave(h, SQL_SUCCESS);
}

SQLRETURN SQL_API SQLRowCount(SQLHSTMT StatementHandle, SQLLEN *RowCountPtr)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_stmt *s = (lt_stmt *)h;
    if (s->state != LT_STMT_CURSOR) {
        lt_diag_post(h, "HY010", 0, "Function sequence error: the statement was not executed");
        return lt_leave(h, SQL_ERROR);
    }
    /* A SELECT's row count is not known before the last fetch: -1. */
    if (RowCountPtr)
        *RowCountPtr = s->row_count;
    return lt_leave(h, SQL_SUCCESS);
}

SQLRETURN SQL_API SQLMoreResults(SQLHSTMT StatementHandle)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_stmt *s = (lt_stmt *)h;
    /* One statement, one result: the next is never there. */
    if (s->state == LT_STMT_CURSOR)
        lt_stmt_close_cursor(s);
    return lt_leave(h, SQL_NO_DATA);
}

SQLRETURN SQL_API SQLCloseCursor(SQLHSTMT StatementHandle)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_stmt *s = (lt_stmt *)h;
    if (s->state != LT_STMT_CURSOR) {
        lt_diag_post(h, "24000", 0, "Invalid cursor state: no cursor is open");
        return lt_leave(h, SQL_ERROR);
    }
    lt_stmt_close_cursor(s);
    return lt_leave(h, SQL_SUCCESS);
}

/* ------------------------------------------------------------------------ */
/* Cancel, transactions, native SQL, cursor names                            */
/* ------------------------------------------------------------------------ */

SQLRETURN SQL_API SQLCancel(SQLHSTMT StatementHandle)
{
    /* Called from another thread while this statement works, so it takes
    ** only the small cancel lock, never the statement's. */
    lt_stmt *s = StatementHandle;
    if (s == NULL || s->h.magic != LT_MAGIC || s->h.type != SQL_HANDLE_STMT)
        return SQL_INVALID_HANDLE;
    lt_mutex_lock(&s->cancel_lock);
    s->cancel_requested = 1;
    if (s->cursor != NULL)
        sql_cursor_cancel(s->cursor);
    bool pending = s->dae != NULL;
    lt_mutex_unlock(&s->cancel_lock);
    if (pending) {
        /* Between SQLExecute and the last SQLParamData nothing runs on the
        ** statement: taking its lock is safe, and cancels the execution. */
        lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
        if (h == NULL)
            return SQL_INVALID_HANDLE;
        lt_dae_free(s);
        return lt_leave(h, SQL_SUCCESS);
    }
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLEndTran(SQLSMALLINT HandleType, SQLHANDLE Handle,
                             SQLSMALLINT CompletionType)
{
    if (HandleType != SQL_HANDLE_ENV && HandleType != SQL_HANDLE_DBC)
        return SQL_INVALID_HANDLE;
    lt_handle *h = lt_enter(Handle, HandleType);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    if (HandleType == SQL_HANDLE_DBC && !((lt_dbc *)h)->connected) {
        lt_diag_post(h, "08003", 0, "Connection not open");
        return lt_leave(h, SQL_ERROR);
    }
    if (CompletionType != SQL_COMMIT && CompletionType != SQL_ROLLBACK) {
        lt_diag_post(h, "HY012", 0, "Invalid transaction operation code %d", CompletionType);
        return lt_leave(h, SQL_ERROR);
    }
    /* Nothing is ever written: there is nothing to commit or roll back,
    ** and cursors stay open (SQL_CURSOR_COMMIT_BEHAVIOR = PRESERVE). */
    return lt_leave(h, SQL_SUCCESS);
}

SQLRETURN SQL_API SQLNativeSql(SQLHDBC ConnectionHandle, SQLCHAR *InStatementText,
                               SQLINTEGER TextLength1, SQLCHAR *OutStatementText,
                               SQLINTEGER BufferLength, SQLINTEGER *TextLength2Ptr)
{
    lt_handle *h = lt_enter(ConnectionHandle, SQL_HANDLE_DBC);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    if (!((lt_dbc *)h)->connected) {
        lt_diag_post(h, "08003", 0, "Connection not open");
        return lt_leave(h, SQL_ERROR);
    }
    if (InStatementText == NULL) {
        lt_diag_post(h, "HY009", 0, "Invalid use of null pointer");
        return lt_leave(h, SQL_ERROR);
    }
    SQLLEN n = lt_str_in_len(InStatementText, TextLength1);
    if (n < 0 || BufferLength < 0) {
        lt_diag_post(h, "HY090", 0, "Invalid string or buffer length");
        return lt_leave(h, SQL_ERROR);
    }
    bool oom = false;
    char *text = lt_str_in(InStatementText, n, &oom);
    if (text == NULL) {
        lt_diag_post(h, "HY001", 0, "Memory allocation error");
        return lt_leave(h, SQL_ERROR);
    }
    /* The engine reads the text as the application wrote it. */
    SQLRETURN rc = lt_str_out(h, text, OutStatementText, BufferLength, NULL, TextLength2Ptr);
    free(text);
    return lt_leave(h, rc);
}

static void cursor_name_of(const lt_stmt *s, char *buf, size_t cap)
{
    if (s->cursor_name != NULL)
        snprintf(buf, cap, "%s", s->cursor_name);
    else
        snprintf(buf, cap, "SQL_CUR%u", (unsigned)s->stmt_number);
}

SQLRETURN SQL_API SQLGetCursorName(SQLHSTMT StatementHandle, SQLCHAR *CursorName,
                                   SQLSMALLINT BufferLength, SQLSMALLINT *NameLengthPtr)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    if (BufferLength < 0) {
        lt_diag_post(h, "HY090", 0, "Invalid string or buffer length");
        return lt_leave(h, SQL_ERROR);
    }
    char name[256];
    cursor_name_of((lt_stmt *)h, name, sizeof name);
    return lt_leave(h, lt_str_out(h, name, CursorName, BufferLength, NameLengthPtr, NULL));
}

SQLRETURN SQL_API SQLSetCursorName(SQLHSTMT StatementHandle, SQLCHAR *CursorName,
                                   SQLSMALLINT NameLength)
{
    lt_stmt *s = StatementHandle;
    if (s == NULL || s->h.magic != LT_MAGIC || s->h.type != SQL_HANDLE_STMT)
        return SQL_INVALID_HANDLE;
    /* The name must be unique on the connection: look at the others under
    ** the connection's lock, taken first as everywhere. */
    lt_dbc *dbc = s->dbc;
    lt_mutex_lock(&dbc->h.lock);
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL) {
        lt_mutex_unlock(&dbc->h.lock);
        return SQL_INVALID_HANDLE;
    }
    SQLRETURN rc = SQL_ERROR;
    SQLLEN n = lt_str_in_len(CursorName, NameLength);
    if (CursorName == NULL) {
        lt_diag_post(h, "HY009", 0, "Invalid use of null pointer");
    } else if (n < 0) {
        lt_diag_post(h, "HY090", 0, "Invalid string or buffer length");
    } else if (s->state == LT_STMT_CURSOR) {
        lt_diag_post(h, "24000", 0, "Invalid cursor state: a cursor is open");
    } else if (n == 0 || n > 128 || strncmp((const char *)CursorName, "SQL_CUR", 7) == 0 ||
               strncmp((const char *)CursorName, "SQLCUR", 6) == 0) {
        lt_diag_post(h, "34000", 0, "Invalid cursor name");
    } else {
        bool oom = false;
        char *name = lt_str_in(CursorName, n, &oom);
        bool duplicate = false;
        char other[256];
        for (lt_stmt *o = dbc->stmts; name && o != NULL; o = o->next) {
            if (o == s)
                continue;
            cursor_name_of(o, other, sizeof other);
            if (strcmp(other, name) == 0)
                duplicate = true;
        }
        if (name == NULL) {
            lt_diag_post(h, "HY001", 0, "Memory allocation error");
        } else if (duplicate) {
            lt_diag_post(h, "3C000", 0, "Duplicate cursor name '%s'", name);
            free(name);
        } else {
            free(s->cursor_name);
            s->cursor_name = name;
            rc = SQL_SUCCESS;
        }
    }
    rc = lt_leave(h, rc);
    lt_mutex_unlock(&dbc->h.lock);
    return rc;
}
