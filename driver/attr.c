/*
** attr.c — environment, connection and statement attributes:
** SQLSet/GetEnvAttr, SQLSet/GetConnectAttr, SQLSet/GetStmtAttr.
**
** Lector is read-only and synchronous.  Values it cannot honour are either
** replaced by the nearest supported one with 01S02 (access mode, cursor
** type, concurrency, parameter set size) or refused with HYC00 (asynchronous
** execution, automatic IPD).  Statement attributes that are descriptor
** header fields live in the descriptors (ARD, APD, IRD, IPD), not twice.
*/
#include "driver.h"

#include <stdlib.h>
#include <string.h>

#ifndef SQL_OV_ODBC3_80
#define SQL_OV_ODBC3_80 380UL
#endif
/* A rowset is converted in one go and its rows stay readable until the
** next fetch: a million rows is plenty, and keeps the counters in range. */
#define LT_MAX_ROWSET 1048576
#define LT_STR_(x) #x
#define LT_STR(x) LT_STR_(x)

#ifndef SQL_ATTR_ANSI_APP
#define SQL_ATTR_ANSI_APP 115
#endif

static SQLRETURN bad_value(lt_handle *h, SQLINTEGER attr)
{
    lt_diag_post(h, "HY024", 0, "Invalid attribute value for attribute %d", (int)attr);
    return SQL_ERROR;
}

static SQLRETURN bad_attr(lt_handle *h, SQLINTEGER attr)
{
    lt_diag_post(h, "HY092", 0, "Invalid attribute/option identifier %d", (int)attr);
    return SQL_ERROR;
}

static SQLRETURN changed(lt_handle *h, const char *what)
{
    lt_diag_post(h, "01S02", 0, "Option value changed: %s", what);
    return SQL_SUCCESS_WITH_INFO;
}

static SQLRETURN not_implemented(lt_handle *h, const char *what)
{
    lt_diag_post(h, "HYC00", 0, "Optional feature not implemented: %s", what);
    return SQL_ERROR;
}

/* Store a string attribute value (SQL_NTS or a byte count). */
static SQLRETURN set_string(lt_handle *h, char **slot, SQLPOINTER value,
                            SQLINTEGER len)
{
    if (value == NULL) {
        lt_diag_post(h, "HY009", 0, "Invalid use of null pointer");
        return SQL_ERROR;
    }
    if (lt_str_in_len(value, len) < 0) {
        lt_diag_post(h, "HY090", 0, "Invalid string or buffer length");
        return SQL_ERROR;
    }
    bool oom = false;
    char *copy = lt_str_in(value, len, &oom);
    if (copy == NULL) {
        lt_diag_post(h, "HY001", 0, "Memory allocation error");
        return SQL_ERROR;
    }
    free(*slot);
    *slot = copy;
    return SQL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Environment                                                               */
/* ------------------------------------------------------------------------ */

SQLRETURN SQL_API SQLSetEnvAttr(SQLHENV EnvironmentHandle, SQLINTEGER Attribute,
                                SQLPOINTER Value, SQLINTEGER StringLength)
{
    (void)StringLength;
    lt_handle *h = lt_enter(EnvironmentHandle, SQL_HANDLE_ENV);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_env *env = (lt_env *)h;
    uintptr_t v = (uintptr_t)Value;
    if (env->dbcs != NULL) {
        lt_diag_post(h, "HY010", 0,
                     "Function sequence error: a connection is allocated");
        return lt_leave(h, SQL_ERROR);
    }
    switch (Attribute) {
    case SQL_ATTR_ODBC_VERSION:
        if (v != SQL_OV_ODBC2 && v != SQL_OV_ODBC3 && v != SQL_OV_ODBC3_80)
            return lt_leave(h, bad_value(h, Attribute));
        env->odbc_version = (SQLINTEGER)v;
        return lt_leave(h, SQL_SUCCESS);
    case SQL_ATTR_CONNECTION_POOLING:
        /* The driver manager pools; the driver only remembers. */
        if (v != SQL_CP_OFF && v != SQL_CP_ONE_PER_DRIVER && v != SQL_CP_ONE_PER_HENV)
            return lt_leave(h, bad_value(h, Attribute));
        env->connection_pooling = (SQLINTEGER)v;
        return lt_leave(h, SQL_SUCCESS);
    case SQL_ATTR_CP_MATCH:
        if (v != SQL_CP_STRICT_MATCH && v != SQL_CP_RELAXED_MATCH)
            return lt_leave(h, bad_value(h, Attribute));
        env->cp_match = (SQLINTEGER)v;
        return lt_leave(h, SQL_SUCCESS);
    case SQL_ATTR_OUTPUT_NTS:
        if (v == SQL_TRUE)
            return lt_leave(h, SQL_SUCCESS);
        if (v == SQL_FALSE)
            return lt_leave(h, not_implemented(h, "SQL_ATTR_OUTPUT_NTS false"));
        return lt_leave(h, bad_value(h, Attribute));
    }
    return lt_leave(h, bad_attr(h, Attribute));
}

SQLRETURN SQL_API SQLGetEnvAttr(SQLHENV EnvironmentHandle, SQLINTEGER Attribute,
                                SQLPOINTER Value, SQLINTEGER BufferLength,
                                SQLINTEGER *StringLength)
{
    (void)BufferLength;
    lt_handle *h = lt_enter(EnvironmentHandle, SQL_HANDLE_ENV);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_env *env = (lt_env *)h;
    SQLINTEGER v;
    switch (Attribute) {
    case SQL_ATTR_ODBC_VERSION:      v = env->odbc_version; break;
    case SQL_ATTR_CONNECTION_POOLING: v = env->connection_pooling; break;
    case SQL_ATTR_CP_MATCH:          v = env->cp_match; break;
    case SQL_ATTR_OUTPUT_NTS:        v = env->output_nts; break;
    default:
        return lt_leave(h, bad_attr(h, Attribute));
    }
    if (Value != NULL)
        *(SQLINTEGER *)Value = v;
    if (StringLength != NULL)
        *StringLength = (SQLINTEGER)sizeof(SQLINTEGER);
    return lt_leave(h, SQL_SUCCESS);
}

/* ------------------------------------------------------------------------ */
/* Connection                                                                */
/* ------------------------------------------------------------------------ */

static SQLRETURN set_connect_attr(lt_dbc *dbc, SQLINTEGER attr, SQLPOINTER value,
                                  SQLINTEGER len)
{
    lt_handle *h = &dbc->h;
    uintptr_t v = (uintptr_t)value;
    switch (attr) {
    case SQL_ATTR_ACCESS_MODE:
        if (v == SQL_MODE_READ_ONLY)
            return SQL_SUCCESS;
        if (v == SQL_MODE_READ_WRITE)
            return changed(h, "Lector is read-only; SQL_ATTR_ACCESS_MODE stays "
                              "SQL_MODE_READ_ONLY");
        return bad_value(h, attr);
    case SQL_ATTR_AUTOCOMMIT:
        /* Nothing is ever written, so both modes behave alike. */
        if (v != SQL_AUTOCOMMIT_ON && v != SQL_AUTOCOMMIT_OFF)
            return bad_value(h, attr);
        dbc->autocommit = (SQLUINTEGER)v;
        return SQL_SUCCESS;
    case SQL_ATTR_LOGIN_TIMEOUT:
        dbc->login_timeout = (SQLUINTEGER)v;
        return SQL_SUCCESS;
    case SQL_ATTR_CONNECTION_TIMEOUT:
        dbc->connection_timeout = (SQLUINTEGER)v;
        return SQL_SUCCESS;
    case SQL_ATTR_TXN_ISOLATION:
        if (v != SQL_TXN_READ_UNCOMMITTED && v != SQL_TXN_READ_COMMITTED &&
            v != SQL_TXN_REPEATABLE_READ && v != SQL_TXN_SERIALIZABLE)
            return bad_value(h, attr);
        dbc->txn_isolation = (SQLUINTEGER)v;
        return SQL_SUCCESS;
    case SQL_ATTR_METADATA_ID:
        if (v != SQL_TRUE && v != SQL_FALSE)
            return bad_value(h, attr);
        dbc->metadata_id = (SQLUINTEGER)v;
        return SQL_SUCCESS;
    case SQL_ATTR_ASYNC_ENABLE:
        if (v == SQL_ASYNC_ENABLE_OFF)
            return SQL_SUCCESS;
        if (v == SQL_ASYNC_ENABLE_ON)
            return not_implemented(h, "asynchronous execution");
        return bad_value(h, attr);
    case SQL_ATTR_PACKET_SIZE:
        dbc->packet_size = (SQLUINTEGER)v;
        return SQL_SUCCESS;
    case SQL_ATTR_QUIET_MODE:
        dbc->quiet_mode = value;
        dbc->quiet_mode_set = 1;
        return SQL_SUCCESS;
    case SQL_ATTR_TRACE:
        if (v != SQL_OPT_TRACE_OFF && v != SQL_OPT_TRACE_ON)
            return bad_value(h, attr);
        dbc->trace = (SQLUINTEGER)v;
        return SQL_SUCCESS;
    case SQL_ATTR_TRACEFILE:
        return set_string(h, &dbc->tracefile, value, len);
    case SQL_ATTR_CURRENT_CATALOG:
        return set_string(h, &dbc->current_catalog, value, len);
    case SQL_ATTR_ANSI_APP:
        /* The Windows driver manager says whether the application is ANSI;
        ** Lector behaves the same either way. */
        return SQL_SUCCESS;
    case SQL_ATTR_TRANSLATE_LIB:
    case SQL_ATTR_TRANSLATE_OPTION:
        return not_implemented(h, "translation libraries");
    case SQL_ATTR_CONNECTION_DEAD:
    case SQL_ATTR_AUTO_IPD:
        return bad_attr(h, attr); /* read-only */
    }
    return bad_attr(h, attr);
}

SQLRETURN SQL_API SQLSetConnectAttr(SQLHDBC ConnectionHandle, SQLINTEGER Attribute,
                                    SQLPOINTER Value, SQLINTEGER StringLength)
{
    lt_handle *h = lt_enter(ConnectionHandle, SQL_HANDLE_DBC);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    return lt_leave(h, set_connect_attr((lt_dbc *)h, Attribute, Value, StringLength));
}

SQLRETURN SQL_API SQLGetConnectAttr(SQLHDBC ConnectionHandle, SQLINTEGER Attribute,
                                    SQLPOINTER Value, SQLINTEGER BufferLength,
                                    SQLINTEGER *StringLength)
{
    lt_handle *h = lt_enter(ConnectionHandle, SQL_HANDLE_DBC);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_dbc *dbc = (lt_dbc *)h;
    SQLUINTEGER v;
    switch (Attribute) {
    case SQL_ATTR_ACCESS_MODE:        v = SQL_MODE_READ_ONLY; break;
    case SQL_ATTR_AUTOCOMMIT:         v = dbc->autocommit; break;
    case SQL_ATTR_LOGIN_TIMEOUT:      v = dbc->login_timeout; break;
    case SQL_ATTR_CONNECTION_TIMEOUT: v = dbc->connection_timeout; break;
    case SQL_ATTR_TXN_ISOLATION:      v = dbc->txn_isolation; break;
    case SQL_ATTR_METADATA_ID:        v = dbc->metadata_id; break;
    case SQL_ATTR_ASYNC_ENABLE:       v = SQL_ASYNC_ENABLE_OFF; break;
    case SQL_ATTR_PACKET_SIZE:        v = dbc->packet_size; break;
    case SQL_ATTR_TRACE:              v = dbc->trace; break;
    case SQL_ATTR_AUTO_IPD:           v = SQL_FALSE; break;
    case SQL_ATTR_CONNECTION_DEAD:
        v = dbc->connected ? SQL_CD_FALSE : SQL_CD_TRUE;
        break;
    case SQL_ATTR_QUIET_MODE:
        if (Value != NULL)
            *(SQLPOINTER *)Value = dbc->quiet_mode;
        if (StringLength != NULL)
            *StringLength = (SQLINTEGER)sizeof(SQLPOINTER);
        return lt_leave(h, SQL_SUCCESS);
    case SQL_ATTR_TRACEFILE:
        return lt_leave(h, lt_str_out(h, dbc->tracefile ? dbc->tracefile : "",
                                      Value, BufferLength, NULL, StringLength));
    case SQL_ATTR_CURRENT_CATALOG:
        if (!dbc->connected && dbc->current_catalog == NULL) {
            /* Before connecting there is no catalog to name. */
            return lt_leave(h, SQL_NO_DATA);
        }
        return lt_leave(h, lt_str_out(h, dbc->current_catalog ? dbc->current_catalog : "",
                                      Value, BufferLength, NULL, StringLength));
    default:
        return lt_leave(h, bad_attr(h, Attribute));
    }
    if (Value != NULL)
        *(SQLUINTEGER *)Value = v;
    if (StringLength != NULL)
        *StringLength = (SQLINTEGER)sizeof(SQLUINTEGER);
    return lt_leave(h, SQL_SUCCESS);
}

/* ------------------------------------------------------------------------ */
/* Statement                                                                 */
/* ------------------------------------------------------------------------ */

/* SQL_ATTR_APP_ROW_DESC / APP_PARAM_DESC: an explicit descriptor of the
** same connection, or NULL for the implicit one. */
static SQLRETURN set_app_desc(lt_stmt *s, lt_desc **slot, lt_desc *implicit,
                              SQLPOINTER value)
{
    lt_handle *h = &s->h;
    if (value == SQL_NULL_HDESC || value == implicit) {
        *slot = implicit;
        return SQL_SUCCESS;
    }
    lt_desc *d = value;
    if (d->h.magic != LT_MAGIC || d->h.type != SQL_HANDLE_DESC) {
        lt_diag_post(h, "HY024", 0, "Invalid attribute value: not a descriptor handle");
        return SQL_ERROR;
    }
    if (d->alloc_type != SQL_DESC_ALLOC_USER || d->dbc != s->dbc) {
        lt_diag_post(h, "HY017", 0,
                     "Invalid use of an automatically allocated descriptor handle");
        return SQL_ERROR;
    }
    *slot = d;
    return SQL_SUCCESS;
}

/* The attributes a cursor depends on cannot change while one is open. */
static bool cursor_locked(lt_stmt *s, SQLINTEGER attr)
{
    if (s->state != LT_STMT_CURSOR)
        return false;
    switch (attr) {
    case SQL_ATTR_CONCURRENCY: case SQL_ATTR_CURSOR_TYPE:
    case SQL_ATTR_CURSOR_SCROLLABLE: case SQL_ATTR_CURSOR_SENSITIVITY:
    case SQL_ATTR_SIMULATE_CURSOR: case SQL_ATTR_USE_BOOKMARKS:
        return true;
    }
    return false;
}

static void make_static(lt_stmt *s)
{
    s->cursor_type = SQL_CURSOR_STATIC;
    s->cursor_scrollable = SQL_SCROLLABLE;
    s->cursor_sensitivity = SQL_INSENSITIVE;
    s->concurrency = SQL_CONCUR_READ_ONLY;
}

static void make_forward_only(lt_stmt *s)
{
    s->cursor_type = SQL_CURSOR_FORWARD_ONLY;
    s->cursor_scrollable = SQL_NONSCROLLABLE;
}

static SQLRETURN set_cursor_type(lt_stmt *s, SQLULEN v)
{
    switch (v) {
    case SQL_CURSOR_FORWARD_ONLY:
        make_forward_only(s);
        return SQL_SUCCESS;
    case SQL_CURSOR_STATIC:
        make_static(s);
        return SQL_SUCCESS;
    case SQL_CURSOR_KEYSET_DRIVEN:
    case SQL_CURSOR_DYNAMIC:
        /* A file read once cannot change under the cursor: static is the
        ** honest scrollable cursor. */
        make_static(s);
        return changed(&s->h, "cursor type is SQL_CURSOR_STATIC");
    }
    return bad_value(&s->h, SQL_ATTR_CURSOR_TYPE);
}

static SQLRETURN set_stmt_attr(lt_stmt *s, SQLINTEGER attr, SQLPOINTER value,
                               SQLINTEGER len)
{
    (void)len;
    lt_handle *h = &s->h;
    SQLULEN v = (SQLULEN)(uintptr_t)value;
    if (cursor_locked(s, attr)) {
        lt_diag_post(h, "HY011", 0, "Attribute cannot be set now: a cursor is open");
        return SQL_ERROR;
    }
    switch (attr) {
    case SQL_ATTR_APP_ROW_DESC:
        return set_app_desc(s, &s->ard, &s->ard_implicit, value);
    case SQL_ATTR_APP_PARAM_DESC:
        return set_app_desc(s, &s->apd, &s->apd_implicit, value);
    case SQL_ATTR_IMP_ROW_DESC:
    case SQL_ATTR_IMP_PARAM_DESC:
        lt_diag_post(h, "HY017", 0,
                     "Invalid use of an automatically allocated descriptor handle");
        return SQL_ERROR;
    case SQL_ATTR_ASYNC_ENABLE:
        if (v == SQL_ASYNC_ENABLE_OFF)
            return SQL_SUCCESS;
        if (v == SQL_ASYNC_ENABLE_ON)
            return not_implemented(h, "asynchronous execution");
        return bad_value(h, attr);
    case SQL_ATTR_CONCURRENCY:
        if (v == SQL_CONCUR_READ_ONLY)
            return SQL_SUCCESS;
        if (v == SQL_CONCUR_LOCK || v == SQL_CONCUR_ROWVER || v == SQL_CONCUR_VALUES)
            return changed(h, "Lector is read-only; concurrency is "
                              "SQL_CONCUR_READ_ONLY");
        return bad_value(h, attr);
    case SQL_ATTR_CURSOR_TYPE:
        return set_cursor_type(s, v);
    case SQL_ATTR_CURSOR_SCROLLABLE:
        if (v == SQL_NONSCROLLABLE)
            make_forward_only(s);
        else if (v == SQL_SCROLLABLE) {
            if (s->cursor_type == SQL_CURSOR_FORWARD_ONLY)
                make_static(s);
        } else
            return bad_value(h, attr);
        return SQL_SUCCESS;
    case SQL_ATTR_CURSOR_SENSITIVITY:
        if (v == SQL_UNSPECIFIED) {
            s->cursor_sensitivity = SQL_UNSPECIFIED;
            return SQL_SUCCESS;
        }
        if (v == SQL_INSENSITIVE) {
            make_static(s);
            return SQL_SUCCESS;
        }
        if (v == SQL_SENSITIVE) {
            make_static(s);
            return changed(h, "cursor sensitivity is SQL_INSENSITIVE");
        }
        return bad_value(h, attr);
    case SQL_ATTR_ENABLE_AUTO_IPD:
        if (v == SQL_FALSE)
            return SQL_SUCCESS;
        if (v == SQL_TRUE)
            return not_implemented(h, "automatic population of the IPD");
        return bad_value(h, attr);
    case SQL_ATTR_FETCH_BOOKMARK_PTR:
        s->fetch_bookmark_ptr = value;
        return SQL_SUCCESS;
    case SQL_ATTR_KEYSET_SIZE:
        s->keyset_size = v;
        return SQL_SUCCESS;
    case SQL_ATTR_MAX_LENGTH:
        if (v == 0)
            return SQL_SUCCESS;
        return changed(h, "SQL_ATTR_MAX_LENGTH is 0: data is never cut short "
                          "by the driver");
    case SQL_ATTR_MAX_ROWS:
        s->max_rows = v;
        return SQL_SUCCESS;
    case SQL_ATTR_METADATA_ID:
        if (v != SQL_TRUE && v != SQL_FALSE)
            return bad_value(h, attr);
        s->metadata_id = v;
        return SQL_SUCCESS;
    case SQL_ATTR_NOSCAN:
        if (v != SQL_NOSCAN_ON && v != SQL_NOSCAN_OFF)
            return bad_value(h, attr);
        s->noscan = v;
        return SQL_SUCCESS;
    case SQL_ATTR_PARAM_BIND_OFFSET_PTR:
        s->apd->bind_offset_ptr = value;
        return SQL_SUCCESS;
    case SQL_ATTR_PARAM_BIND_TYPE:
        s->apd->bind_type = (SQLINTEGER)v;
        return SQL_SUCCESS;
    case SQL_ATTR_PARAM_OPERATION_PTR:
        s->apd->array_status_ptr = value;
        return SQL_SUCCESS;
    case SQL_ATTR_PARAM_STATUS_PTR:
        s->ipd.array_status_ptr = value;
        return SQL_SUCCESS;
    case SQL_ATTR_PARAMS_PROCESSED_PTR:
        s->ipd.rows_processed_ptr = value;
        return SQL_SUCCESS;
    case SQL_ATTR_PARAMSET_SIZE:
        if (v == 0)
            return bad_value(h, attr);
        if (v != 1)
            return changed(h, "arrays of parameters are not supported; "
                              "SQL_ATTR_PARAMSET_SIZE is 1");
        s->apd->array_size = 1;
        return SQL_SUCCESS;
    case SQL_ATTR_QUERY_TIMEOUT:
        s->query_timeout = v;
        return SQL_SUCCESS;
    case SQL_ATTR_RETRIEVE_DATA:
        if (v != SQL_RD_ON && v != SQL_RD_OFF)
            return bad_value(h, attr);
        s->retrieve_data = v;
        return SQL_SUCCESS;
    case SQL_ATTR_ROW_ARRAY_SIZE:
    case SQL_ROWSET_SIZE: {
        if (v == 0)
            return bad_value(h, attr);
        SQLRETURN rc = SQL_SUCCESS;
        if (v > LT_MAX_ROWSET) {
            v = LT_MAX_ROWSET;
            rc = changed(h, "the rowset size is at most " LT_STR(LT_MAX_ROWSET) " rows");
        }
        if (attr == SQL_ROWSET_SIZE)
            s->rowset_size_odbc2 = v;
        else
            s->ard->array_size = v;
        return rc;
    }
    case SQL_ATTR_ROW_BIND_OFFSET_PTR:
        s->ard->bind_offset_ptr = value;
        return SQL_SUCCESS;
    case SQL_ATTR_ROW_BIND_TYPE:
        s->ard->bind_type = (SQLINTEGER)v;
        return SQL_SUCCESS;
    case SQL_ATTR_ROW_OPERATION_PTR:
        s->ard->array_status_ptr = value;
        return SQL_SUCCESS;
    case SQL_ATTR_ROW_STATUS_PTR:
        s->ird.array_status_ptr = value;
        return SQL_SUCCESS;
    case SQL_ATTR_ROWS_FETCHED_PTR:
        s->ird.rows_processed_ptr = value;
        return SQL_SUCCESS;
    case SQL_ATTR_SIMULATE_CURSOR:
        if (v != SQL_SC_NON_UNIQUE && v != SQL_SC_TRY_UNIQUE && v != SQL_SC_UNIQUE)
            return bad_value(h, attr);
        s->simulate_cursor = v;
        return SQL_SUCCESS;
    case SQL_ATTR_USE_BOOKMARKS:
        if (v != SQL_UB_OFF && v != SQL_UB_VARIABLE && v != SQL_UB_ON)
            return bad_value(h, attr);
        s->use_bookmarks = v;
        return SQL_SUCCESS;
    case SQL_ATTR_ROW_NUMBER:
    case SQL_GET_BOOKMARK:
        return bad_attr(h, attr); /* read-only */
    }
    return bad_attr(h, attr);
}

SQLRETURN SQL_API SQLSetStmtAttr(SQLHSTMT StatementHandle, SQLINTEGER Attribute,
                                 SQLPOINTER Value, SQLINTEGER StringLength)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    return lt_leave(h, set_stmt_attr((lt_stmt *)h, Attribute, Value, StringLength));
}

SQLRETURN SQL_API SQLGetStmtAttr(SQLHSTMT StatementHandle, SQLINTEGER Attribute,
                                 SQLPOINTER Value, SQLINTEGER BufferLength,
                                 SQLINTEGER *StringLength)
{
    (void)BufferLength;
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_stmt *s = (lt_stmt *)h;
    SQLPOINTER p = NULL;
    SQLULEN v = 0;
    bool is_pointer = false;
    switch (Attribute) {
    case SQL_ATTR_APP_ROW_DESC:    p = s->ard; is_pointer = true; break;
    case SQL_ATTR_APP_PARAM_DESC:  p = s->apd; is_pointer = true; break;
    case SQL_ATTR_IMP_ROW_DESC:    p = &s->ird; is_pointer = true; break;
    case SQL_ATTR_IMP_PARAM_DESC:  p = &s->ipd; is_pointer = true; break;
    case SQL_ATTR_FETCH_BOOKMARK_PTR: p = s->fetch_bookmark_ptr; is_pointer = true; break;
    case SQL_ATTR_PARAM_BIND_OFFSET_PTR: p = s->apd->bind_offset_ptr; is_pointer = true; break;
    case SQL_ATTR_PARAM_OPERATION_PTR: p = s->apd->array_status_ptr; is_pointer = true; break;
    case SQL_ATTR_PARAM_STATUS_PTR: p = s->ipd.array_status_ptr; is_pointer = true; break;
    case SQL_ATTR_PARAMS_PROCESSED_PTR: p = s->ipd.rows_processed_ptr; is_pointer = true; break;
    case SQL_ATTR_ROW_BIND_OFFSET_PTR: p = s->ard->bind_offset_ptr; is_pointer = true; break;
    case SQL_ATTR_ROW_OPERATION_PTR: p = s->ard->array_status_ptr; is_pointer = true; break;
    case SQL_ATTR_ROW_STATUS_PTR:  p = s->ird.array_status_ptr; is_pointer = true; break;
    case SQL_ATTR_ROWS_FETCHED_PTR: p = s->ird.rows_processed_ptr; is_pointer = true; break;
    case SQL_ATTR_ASYNC_ENABLE:    v = SQL_ASYNC_ENABLE_OFF; break;
    case SQL_ATTR_CONCURRENCY:     v = s->concurrency; break;
    case SQL_ATTR_CURSOR_TYPE:     v = s->cursor_type; break;
    case SQL_ATTR_CURSOR_SCROLLABLE: v = s->cursor_scrollable; break;
    case SQL_ATTR_CURSOR_SENSITIVITY: v = s->cursor_sensitivity; break;
    case SQL_ATTR_ENABLE_AUTO_IPD: v = SQL_FALSE; break;
    case SQL_ATTR_KEYSET_SIZE:     v = s->keyset_size; break;
    case SQL_ATTR_MAX_LENGTH:      v = 0; break;
    case SQL_ATTR_MAX_ROWS:        v = s->max_rows; break;
    case SQL_ATTR_METADATA_ID:     v = s->metadata_id; break;
    case SQL_ATTR_NOSCAN:          v = s->noscan; break;
    case SQL_ATTR_PARAM_BIND_TYPE: v = (SQLULEN)s->apd->bind_type; break;
    case SQL_ATTR_PARAMSET_SIZE:   v = s->apd->array_size; break;
    case SQL_ATTR_QUERY_TIMEOUT:   v = s->query_timeout; break;
    case SQL_ATTR_RETRIEVE_DATA:   v = s->retrieve_data; break;
    case SQL_ATTR_ROW_ARRAY_SIZE:  v = s->ard->array_size; break;
    case SQL_ROWSET_SIZE:          v = s->rowset_size_odbc2; break;
    case SQL_ATTR_ROW_BIND_TYPE:   v = (SQLULEN)s->ard->bind_type; break;
    case SQL_ATTR_ROW_NUMBER:
        v = lt_stmt_row_number(s);
        if (v == 0) {
            lt_diag_post(h, "24000", 0, "Invalid cursor state: the cursor is not on a row");
            return lt_leave(h, SQL_ERROR);
        }
        break;
    case SQL_ATTR_SIMULATE_CURSOR: v = s->simulate_cursor; break;
    case SQL_ATTR_USE_BOOKMARKS:   v = s->use_bookmarks; break;
    default:
        return lt_leave(h, bad_attr(h, Attribute));
    }
    if (is_pointer) {
        if (Value != NULL)
            *(SQLPOINTER *)Value = p;
        if (StringLength != NULL)
            *StringLength = (SQLINTEGER)sizeof(SQLPOINTER);
    } else {
        if (Value != NULL)
            *(SQLULEN *)Value = v;
        if (StringLength != NULL)
            *StringLength = (SQLINTEGER)sizeof(SQLULEN);
    }
    return lt_leave(h, SQL_SUCCESS);
}
