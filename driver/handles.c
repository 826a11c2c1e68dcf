/*
** handles.c — allocating and freeing the four kinds of handle, SQLFreeStmt,
** and the validate-lock-clear step every entry point starts with.
**
** Lock order, the one rule that keeps threads from deadlocking: a
** connection's lock is taken before any of its statements' locks, and the
** environment's lock only after a connection's.  So freeing a statement
** first lets go of the statement, then takes connection, then statement.
*/
#include "driver.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* The common head                                                           */
/* ------------------------------------------------------------------------ */

void lt_handle_init(lt_handle *h, SQLSMALLINT type)
{
    memset(h, 0, sizeof *h);
    h->type = type;
    h->magic = LT_MAGIC;
    lt_mutex_init(&h->lock);
    h->diag.cursor_row_count = -1;
}

void lt_handle_destroy(lt_handle *h)
{
    lt_diag_clear(&h->diag);
    free(h->diag.recs);
    h->diag.recs = NULL;
    h->diag.capacity = 0;
    h->magic = 0;
    lt_mutex_destroy(&h->lock);
}

/* Validate and lock: the part of every entry shared by lt_enter and
** lt_enter_keep_diag, inlined into both (SQLGetData runs it per value). */
static inline lt_handle *validate_and_lock(SQLHANDLE handle, SQLSMALLINT type)
{
    lt_handle *h = handle;
    /* The magic check catches NULL, a handle of another type and a handle
    ** already freed (while its memory is not reused). */
    if (h == NULL || h->magic != LT_MAGIC || h->type != type)
        return NULL;
    lt_mutex_lock(&h->lock);
    return h;
}

lt_handle *lt_enter_keep_diag(SQLHANDLE handle, SQLSMALLINT type)
{
    return validate_and_lock(handle, type);
}

lt_handle *lt_enter(SQLHANDLE handle, SQLSMALLINT type)
{
    lt_handle *h = validate_and_lock(handle, type);
    if (h != NULL) {
        /* Most calls find the diagnostics already empty: skip the call. */
        if (h->diag.count > 0 || h->diag.cursor_row_count != -1)
            lt_diag_clear(&h->diag);
        h->diag.dynamic_function = NULL;
        h->diag.dynamic_function_code = 0;
    }
    return h;
}

SQLRETURN lt_leave(lt_handle *h, SQLRETURN rc)
{
    h->diag.retcode = rc;
    lt_mutex_unlock(&h->lock);
    return rc;
}

SQLRETURN lt_leave_keep_diag(lt_handle *h, SQLRETURN rc)
{
    lt_mutex_unlock(&h->lock);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Strings in and out of the API                                             */
/* ------------------------------------------------------------------------ */

SQLRETURN lt_str_out(lt_handle *h, const char *s, SQLPOINTER buf,
                     SQLLEN buflen, SQLSMALLINT *outlen16,
                     SQLINTEGER *outlen32)
{
    size_t len = s ? strlen(s) : 0;
    if (buflen < 0 && buf != NULL) {
        if (h != NULL)
            lt_diag_post(h, "HY090", 0, "Invalid string or buffer length");
        return SQL_ERROR;
    }
    if (outlen16 != NULL)
        *outlen16 = (SQLSMALLINT)(len > 32767 ? 32767 : len);
    if (outlen32 != NULL)
        *outlen32 = (SQLINTEGER)len;
    if (buf == NULL)
        return SQL_SUCCESS;
    if (len < (size_t)buflen) {
        memcpy(buf, s ? s : "", len + 1);
        return SQL_SUCCESS;
    }
    if (buflen > 0) {
        /* Truncate on a character boundary: back off continuation bytes. */
        size_t n = (size_t)buflen - 1;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
        memcpy(buf, s, n);
        ((char *)buf)[n] = '\0';
    }
    if (h != NULL)
        lt_diag_post(h, "01004", 0, "String data, right truncated");
    return SQL_SUCCESS_WITH_INFO;
}

SQLLEN lt_str_in_len(const SQLCHAR *s, SQLLEN len)
{
    if (s == NULL)
        return len == 0 || len == SQL_NTS ? 0 : -1;
    if (len == SQL_NTS)
        return (SQLLEN)strlen((const char *)s);
    return len < 0 ? -1 : len;
}

char *lt_str_in(const SQLCHAR *s, SQLLEN len, bool *oom)
{
    if (s == NULL)
        return NULL;
    SQLLEN n = lt_str_in_len(s, len);
    if (n < 0)
        n = 0;
    char *copy = malloc((size_t)n + 1);
    if (copy == NULL) {
        if (oom)
            *oom = true;
        return NULL;
    }
    memcpy(copy, s, (size_t)n);
    copy[n] = '\0';
    return copy;
}

/* ------------------------------------------------------------------------ */
/* Allocation                                                                */
/* ------------------------------------------------------------------------ */

static SQLRETURN alloc_env(SQLHANDLE *out)
{
    lt_env *env = calloc(1, sizeof *env);
    if (env == NULL)
        return SQL_ERROR;
    lt_handle_init(&env->h, SQL_HANDLE_ENV);
    env->odbc_version = 0; /* unset: SQLAllocHandle(DBC) says HY010 */
    env->connection_pooling = SQL_CP_OFF;
    env->cp_match = SQL_CP_STRICT_MATCH;
    env->output_nts = SQL_TRUE;
    *out = env;
    return SQL_SUCCESS;
}

static SQLRETURN alloc_dbc(lt_env *env, SQLHANDLE *out)
{
    if (env->odbc_version == 0) {
        lt_diag_post(&env->h, "HY010", 0,
                     "Function sequence error: SQL_ATTR_ODBC_VERSION is not set");
        return SQL_ERROR;
    }
    lt_dbc *dbc = calloc(1, sizeof *dbc);
    if (dbc == NULL) {
        lt_diag_post(&env->h, "HY001", 0, "Memory allocation error");
        return SQL_ERROR;
    }
    lt_handle_init(&dbc->h, SQL_HANDLE_DBC);
    dbc->env = env;
    dbc->access_mode = SQL_MODE_READ_ONLY;
    dbc->autocommit = SQL_AUTOCOMMIT_ON;
    dbc->txn_isolation = LT_TXN_ISOLATION_DEFAULT;
    dbc->metadata_id = SQL_FALSE;
    dbc->async_enable = SQL_ASYNC_ENABLE_OFF;
    dbc->trace = SQL_OPT_TRACE_OFF;
    dbc->next = env->dbcs;
    env->dbcs = dbc;
    *out = dbc;
    return SQL_SUCCESS;
}

static SQLRETURN alloc_stmt(lt_dbc *dbc, SQLHANDLE *out)
{
    if (!dbc->connected) {
        lt_diag_post(&dbc->h, "08003", 0, "Connection not open");
        return SQL_ERROR;
    }
    lt_stmt *s = calloc(1, sizeof *s);
    if (s == NULL) {
        lt_diag_post(&dbc->h, "HY001", 0, "Memory allocation error");
        return SQL_ERROR;
    }
    lt_handle_init(&s->h, SQL_HANDLE_STMT);
    lt_mutex_init(&s->cancel_lock);
    s->dbc = dbc;
    lt_desc_init(&s->ard_implicit, dbc, LT_ARD, SQL_DESC_ALLOC_AUTO);
    lt_desc_init(&s->apd_implicit, dbc, LT_APD, SQL_DESC_ALLOC_AUTO);
    lt_desc_init(&s->ird, dbc, LT_IRD, SQL_DESC_ALLOC_AUTO);
    lt_desc_init(&s->ipd, dbc, LT_IPD, SQL_DESC_ALLOC_AUTO);
    s->ard_implicit.stmt = s->apd_implicit.stmt = s->ird.stmt = s->ipd.stmt = s;
    s->ard = &s->ard_implicit;
    s->apd = &s->apd_implicit;
    s->state = LT_STMT_ALLOCATED;
    s->row_count = -1;
    s->cursor_type = SQL_CURSOR_FORWARD_ONLY;
    s->concurrency = SQL_CONCUR_READ_ONLY;
    s->cursor_scrollable = SQL_NONSCROLLABLE;
    s->cursor_sensitivity = SQL_UNSPECIFIED;
    s->noscan = SQL_NOSCAN_OFF;
    s->retrieve_data = SQL_RD_ON;
    s->use_bookmarks = SQL_UB_OFF;
    s->async_enable = SQL_ASYNC_ENABLE_OFF;
    s->metadata_id = dbc->metadata_id;
    s->enable_auto_ipd = SQL_FALSE;
    s->simulate_cursor = SQL_SC_NON_UNIQUE;
    s->rowset_size_odbc2 = 1;
    s->last_fetch_size = 1;
    s->stmt_number = ++dbc->stmt_counter;
    s->next = dbc->stmts;
    dbc->stmts = s;
    *out = s;
    return SQL_SUCCESS;
}

static SQLRETURN alloc_desc(lt_dbc *dbc, SQLHANDLE *out)
{
    if (!dbc->connected) {
        lt_diag_post(&dbc->h, "08003", 0, "Connection not open");
        return SQL_ERROR;
    }
    lt_desc *d = calloc(1, sizeof *d);
    if (d == NULL) {
        lt_diag_post(&dbc->h, "HY001", 0, "Memory allocation error");
        return SQL_ERROR;
    }
    /* An explicit descriptor can serve as ARD or APD: both are application
    ** descriptors with the same fields. */
    lt_desc_init(d, dbc, LT_ARD, SQL_DESC_ALLOC_USER);
    d->next = dbc->descs;
    dbc->descs = d;
    *out = d;
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLAllocHandle(SQLSMALLINT HandleType, SQLHANDLE InputHandle,
                                 SQLHANDLE *OutputHandle)
{
    if (HandleType == SQL_HANDLE_ENV) {
        if (OutputHandle == NULL)
            return SQL_ERROR;
        *OutputHandle = SQL_NULL_HENV;
        return alloc_env(OutputHandle);
    }
    if (HandleType == SQL_HANDLE_DBC) {
        lt_handle *h = lt_enter(InputHandle, SQL_HANDLE_ENV);
        if (h == NULL)
            return SQL_INVALID_HANDLE;
        if (OutputHandle == NULL) {
            lt_diag_post(h, "HY009", 0, "Invalid use of null pointer");
            return lt_leave(h, SQL_ERROR);
        }
        *OutputHandle = SQL_NULL_HDBC;
        return lt_leave(h, alloc_dbc((lt_env *)h, OutputHandle));
    }
    if (HandleType == SQL_HANDLE_STMT || HandleType == SQL_HANDLE_DESC) {
        lt_handle *h = lt_enter(InputHandle, SQL_HANDLE_DBC);
        if (h == NULL)
            return SQL_INVALID_HANDLE;
        if (OutputHandle == NULL) {
            lt_diag_post(h, "HY009", 0, "Invalid use of null pointer");
            return lt_leave(h, SQL_ERROR);
        }
        *OutputHandle = SQL_NULL_HANDLE;
        SQLRETURN rc = HandleType == SQL_HANDLE_STMT
                           ? alloc_stmt((lt_dbc *)h, OutputHandle)
                           : alloc_desc((lt_dbc *)h, OutputHandle);
        return lt_leave(h, rc);
    }
    /* An unknown type: post on the input handle if it is one of ours. */
    lt_handle *h = InputHandle;
    if (h != NULL && h->magic == LT_MAGIC) {
        h = lt_enter(InputHandle, h->type);
        if (h != NULL) {
            lt_diag_post(h, "HY092", 0, "Invalid attribute/option identifier");
            return lt_leave(h, SQL_ERROR);
        }
    }
    return SQL_ERROR;
}

/* ------------------------------------------------------------------------ */
/* Freeing                                                                   */
/* ------------------------------------------------------------------------ */

static void desc_destroy(lt_desc *d)
{
    lt_desc_clear(d);
    lt_handle_destroy(&d->h);
}

void lt_stmt_free(lt_stmt *s)
{
    lt_dbc *dbc = s->dbc;
    lt_mutex_lock(&dbc->h.lock);
    lt_mutex_lock(&s->h.lock);
    lt_stmt_close_cursor(s);
    lt_dae_free(s);
    sql_stmt_free(s->prepared);
    s->prepared = NULL;
    for (lt_stmt **p = &dbc->stmts; *p != NULL; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            break;
        }
    s->h.magic = 0;
    lt_mutex_unlock(&s->h.lock);
    lt_mutex_unlock(&dbc->h.lock);

    desc_destroy(&s->ard_implicit);
    desc_destroy(&s->apd_implicit);
    desc_destroy(&s->ird);
    desc_destroy(&s->ipd);
    free(s->text);
    free(s->cursor_name);
    lt_mutex_destroy(&s->cancel_lock);
    lt_handle_destroy(&s->h);
    free(s);
}

void lt_desc_free(lt_desc *d)
{
    lt_dbc *dbc = d->dbc;
    lt_mutex_lock(&dbc->h.lock);
    /* Statements using it fall back to their implicit descriptors. */
    for (lt_stmt *s = dbc->stmts; s != NULL; s = s->next) {
        lt_mutex_lock(&s->h.lock);
        if (s->ard == d)
            s->ard = &s->ard_implicit;
        if (s->apd == d)
            s->apd = &s->apd_implicit;
        lt_mutex_unlock(&s->h.lock);
    }
    for (lt_desc **p = &dbc->descs; *p != NULL; p = &(*p)->next)
        if (*p == d) {
            *p = d->next;
            break;
        }
    lt_mutex_lock(&d->h.lock);
    d->h.magic = 0;
    lt_mutex_unlock(&d->h.lock);
    lt_mutex_unlock(&dbc->h.lock);
    desc_destroy(d);
    free(d);
}

static SQLRETURN free_env(SQLHANDLE handle)
{
    lt_handle *h = lt_enter(handle, SQL_HANDLE_ENV);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_env *env = (lt_env *)h;
    if (env->dbcs != NULL) {
        lt_diag_post(h, "HY010", 0,
                     "Function sequence error: connections are still allocated");
        return lt_leave(h, SQL_ERROR);
    }
    env->h.magic = 0;
    lt_mutex_unlock(&h->lock);
    lt_handle_destroy(&env->h);
    free(env);
    return SQL_SUCCESS;
}

static SQLRETURN free_dbc(SQLHANDLE handle)
{
    lt_handle *h = lt_enter(handle, SQL_HANDLE_DBC);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_dbc *dbc = (lt_dbc *)h;
    if (dbc->connected) {
        lt_diag_post(h, "HY010", 0,
                     "Function sequence error: the connection is still open");
        return lt_leave(h, SQL_ERROR);
    }
    lt_env *env = dbc->env;
    lt_mutex_lock(&env->h.lock);
    for (lt_dbc **p = &env->dbcs; *p != NULL; p = &(*p)->next)
        if (*p == dbc) {
            *p = dbc->next;
            break;
        }
    lt_mutex_unlock(&env->h.lock);
    dbc->h.magic = 0;
    lt_mutex_unlock(&h->lock);
    /* Descriptors and statements went with SQLDisconnect. */
    free(dbc->tracefile);
    free(dbc->current_catalog);
    free(dbc->browse_partial);
    lt_handle_destroy(&dbc->h);
    free(dbc);
    return SQL_SUCCESS;
}

static SQLRETURN free_stmt_handle(SQLHANDLE handle)
{
    lt_handle *h = lt_enter(handle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    /* Let go first: lt_stmt_free takes the connection, then the statement. */
    lt_leave_keep_diag(h, SQL_SUCCESS);
    lt_stmt_free((lt_stmt *)h);
    return SQL_SUCCESS;
}

static SQLRETURN free_desc_handle(SQLHANDLE handle)
{
    lt_handle *h = lt_enter(handle, SQL_HANDLE_DESC);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_desc *d = (lt_desc *)h;
    if (d->alloc_type != SQL_DESC_ALLOC_USER) {
        lt_diag_post(h, "HY017", 0,
                     "Invalid use of an automatically allocated descriptor handle");
        return lt_leave(h, SQL_ERROR);
    }
    lt_leave_keep_diag(h, SQL_SUCCESS);
    lt_desc_free(d);
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLFreeHandle(SQLSMALLINT HandleType, SQLHANDLE Handle)
{
    switch (HandleType) {
    case SQL_HANDLE_ENV:  return free_env(Handle);
    case SQL_HANDLE_DBC:  return free_dbc(Handle);
    case SQL_HANDLE_STMT: return free_stmt_handle(Handle);
    case SQL_HANDLE_DESC: return free_desc_handle(Handle);
    default:              return SQL_INVALID_HANDLE;
    }
}

SQLRETURN SQL_API SQLFreeStmt(SQLHSTMT StatementHandle, SQLUSMALLINT Option)
{
    if (Option == SQL_DROP)
        return free_stmt_handle(StatementHandle);
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_stmt *s = (lt_stmt *)h;
    switch (Option) {
    case SQL_CLOSE:
        lt_stmt_close_cursor(s);
        return lt_leave(h, SQL_SUCCESS);
    case SQL_UNBIND:
        lt_desc_truncate(s->ard, 0);
        return lt_leave(h, SQL_SUCCESS);
    case SQL_RESET_PARAMS:
        lt_desc_truncate(s->apd, 0);
        return lt_leave(h, SQL_SUCCESS);
    default:
        lt_diag_post(h, "HY092", 0, "Invalid attribute/option identifier");
        return lt_leave(h, SQL_ERROR);
    }
}
