/*
** unicode.c — the Unicode (W) entry points.
**
** The core works in UTF-8, so each SQLFooW converts its SQLWCHAR arguments
** to UTF-8, calls the ANSI SQLFoo of this driver (-Bsymbolic-functions keeps
** the call inside the shared object) and converts string results back.
**
** Lengths follow the ODBC reference, "Unicode Function Arguments": input
** lengths count characters (SQLWCHARs) or are SQL_NTS; output buffers and the
** lengths returned count characters for the functions that only ever return
** strings (SQLDescribeColW, SQLGetDiagRecW, SQLDriverConnectW ...), and
** bytes for those whose value may be a string or not (SQLGetInfoW,
** SQLGetConnectAttrW, SQLGetStmtAttrW, SQLGetDescFieldW, SQLColAttributeW,
** SQLGetDiagFieldW, and the SQLSet* counterparts).  Only the string-valued
** info types, attributes and fields are converted; the rest pass through.
**
** A string result first lands in a UTF-8 buffer.  When that buffer is too
** small the ANSI call is repeated with the size it reported: the repeat
** clears the handle's diagnostics on entry, so its spurious 01004 does not
** survive.  Only when the application's own buffer is too small does the
** wrapper post 01004, under the handle's (recursive) lock so that the
** diagnostics after a W call are exactly those of the call.  SQLDriverConnect
** and SQLBrowseConnect are not repeatable and get the largest buffer their
** length type allows.
*/
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "narrow.h"
#include "wide.h"

/* ------------------------------------------------------------------------ */
/* Which values are strings                                                  */
/* ------------------------------------------------------------------------ */

/* SQLGetInfo types whose value is a character string. */
static bool info_is_string(SQLUSMALLINT type)
{
    switch (type) {
    case SQL_ACCESSIBLE_PROCEDURES:
    case SQL_ACCESSIBLE_TABLES:
    case SQL_CATALOG_NAME:
    case SQL_CATALOG_NAME_SEPARATOR:
    case SQL_CATALOG_TERM:
    case SQL_COLLATION_SEQ:
    case SQL_COLUMN_ALIAS:
    case SQL_DATA_SOURCE_NAME:
    case SQL_DATA_SOURCE_READ_ONLY:
    case SQL_DATABASE_NAME:
    case SQL_DBMS_NAME:
    case SQL_DBMS_VER:
    case SQL_DESCRIBE_PARAMETER:
    case SQL_DM_VER:
    case SQL_DRIVER_NAME:
    case SQL_DRIVER_ODBC_VER:
    case SQL_DRIVER_VER:
    case SQL_EXPRESSIONS_IN_ORDERBY:
    case SQL_IDENTIFIER_QUOTE_CHAR:
    case SQL_INTEGRITY:              /* = SQL_ODBC_SQL_OPT_IEF */
    case SQL_KEYWORDS:
    case SQL_LIKE_ESCAPE_CLAUSE:
    case SQL_MAX_ROW_SIZE_INCLUDES_LONG:
    case SQL_MULT_RESULT_SETS:
    case SQL_MULTIPLE_ACTIVE_TXN:
    case SQL_NEED_LONG_DATA_LEN:
    case SQL_ODBC_VER:
    case SQL_ORDER_BY_COLUMNS_IN_SELECT:
    case SQL_OUTER_JOINS:            /* ODBC 2: "Y"/"N" */
    case SQL_PROCEDURE_TERM:
    case SQL_PROCEDURES:
    case SQL_ROW_UPDATES:
    case SQL_SCHEMA_TERM:
    case SQL_SEARCH_PATTERN_ESCAPE:
    case SQL_SERVER_NAME:
    case SQL_SPECIAL_CHARACTERS:
    case SQL_TABLE_TERM:
    case SQL_USER_NAME:
    case SQL_XOPEN_CLI_YEAR:
        return true;
    default:
        return false;
    }
}

/* Connection attributes holding a string.  (SQLGet/SetConnectOptionW are
** not exported, like their ANSI forms: the driver managers map them onto
** SQLGet/SetConnectAttrW, string options included.) */
static bool connect_attr_is_string(SQLINTEGER attr)
{
    return attr == SQL_ATTR_CURRENT_CATALOG || attr == SQL_ATTR_TRACEFILE ||
           attr == SQL_ATTR_TRANSLATE_LIB;
}

/* Descriptor fields holding a string. */
static bool desc_field_is_string(SQLSMALLINT field)
{
    switch (field) {
    case SQL_DESC_BASE_COLUMN_NAME:
    case SQL_DESC_BASE_TABLE_NAME:
    case SQL_DESC_CATALOG_NAME:
    case SQL_DESC_LABEL:
    case SQL_DESC_LITERAL_PREFIX:
    case SQL_DESC_LITERAL_SUFFIX:
    case SQL_DESC_LOCAL_TYPE_NAME:
    case SQL_DESC_NAME:
    case SQL_DESC_SCHEMA_NAME:
    case SQL_DESC_TABLE_NAME:
    case SQL_DESC_TYPE_NAME:
        return true;
    default:
        return false;
    }
}

/* SQLColAttribute fields holding a string: the descriptor's, and ODBC 2's
** SQL_COLUMN_NAME (SQL_COLUMN_TYPE_NAME, _TABLE_NAME, _OWNER_NAME,
** _QUALIFIER_NAME and _LABEL share the SQL_DESC_ values). */
static bool col_attr_is_string(SQLUSMALLINT field)
{
    return field == SQL_COLUMN_NAME ||
           (field <= SHRT_MAX && desc_field_is_string((SQLSMALLINT)field));
}

/* SQLGetDiagField fields holding a string. */
static bool diag_field_is_string(SQLSMALLINT field)
{
    switch (field) {
    case SQL_DIAG_CLASS_ORIGIN:
    case SQL_DIAG_CONNECTION_NAME:
    case SQL_DIAG_DYNAMIC_FUNCTION:
    case SQL_DIAG_MESSAGE_TEXT:
    case SQL_DIAG_SERVER_NAME:
    case SQL_DIAG_SQLSTATE:
    case SQL_DIAG_SUBCLASS_ORIGIN:
        return true;
    default:
        return false;
    }
}

/* ------------------------------------------------------------------------ */
/* Diagnostics                                                               */
/* ------------------------------------------------------------------------ */

/* Replace the diagnostics of the locked handle `h` by one error.  With no
** handle (SQLGetDiag*, which never post) just fail. */
static SQLRETURN w_error(lt_handle *h, const char *sqlstate)
{
    if (h) {
        /* As lt_enter() would have: the call's diagnostics replace all. */
        lt_diag_clear(&h->diag);
        h->diag.dynamic_function = NULL;
        h->diag.dynamic_function_code = 0;
        lt_diag_post(h, sqlstate, 0, "%s", lt_sqlstate_text(sqlstate));
    }
    return SQL_ERROR;
}

/* Fail a call on a handle not yet entered (input conversion ran out of
** memory before the ANSI call). */
static SQLRETURN w_fail(SQLHANDLE handle, SQLSMALLINT type,
                        const char *sqlstate)
{
    lt_handle *h = lt_enter(handle, type);
    if (!h)
        return SQL_INVALID_HANDLE;
    return lt_leave(h, w_error(h, sqlstate));
}

/* The application's buffer was too small: 01004 and SQL_SUCCESS_WITH_INFO
** (SQL_NEED_DATA stays).  The ANSI call may already have posted 01004 if
** even the largest UTF-8 buffer was short; one record is enough. */
static SQLRETURN w_truncated(lt_handle *h, SQLRETURN rc)
{
    if (h) {
        bool posted = false;
        for (SQLSMALLINT i = 0; i < h->diag.count && !posted; i++)
            posted = strcmp(h->diag.recs[i].sqlstate, "01004") == 0;
        if (!posted)
            lt_diag_post(h, "01004", 0, "%s", lt_sqlstate_text("01004"));
    }
    return rc == SQL_SUCCESS ? SQL_SUCCESS_WITH_INFO : rc;
}

/* ------------------------------------------------------------------------ */
/* String arguments                                                          */
/* ------------------------------------------------------------------------ */

/* An input string converted to UTF-8 for the ANSI call. */
typedef struct w_arg {
    char *text;        /* malloc'ed; NULL when the argument was NULL */
    SQLINTEGER len;    /* bytes; or the caller's length when it was invalid */
} w_arg;

/* Convert `wlen` SQLWCHARs (or SQL_NTS) at `w`.  A negative length other
** than SQL_NTS goes through unchanged (over an empty text) so that the ANSI
** function reports HY090 as it would for itself; a byte length beyond
** `max`, what the ANSI length type holds, becomes SQL_NTS.  False when out
** of memory. */
static bool w_arg_make(w_arg *a, const SQLWCHAR *w, SQLINTEGER wlen,
                       SQLINTEGER max)
{
    bool valid = wlen >= 0 || wlen == SQL_NTS;
    size_t n;
    bool oom;

    a->len = wlen;
    a->text = NULL;
    if (!w)
        return true;
    a->text = lt_wide_to_utf8(w, valid ? wlen : 0, &n, &oom);
    if (!a->text)
        return false;
    if (valid)
        a->len = n <= (size_t)max ? (SQLINTEGER)n : SQL_NTS;
    return true;
}

/* The string arguments of one call (catalog functions have up to six). */
typedef struct w_args {
    w_arg a[6];
    size_t n;
} w_args;

static void w_args_free(w_args *args)
{
    for (size_t i = 0; i < args->n; i++)
        free(args->a[i].text);
    args->n = 0;
}

/* Convert `n` arguments with SQLSMALLINT lengths. */
static bool w_args_small(w_args *args, size_t n, SQLWCHAR *const *w,
                         const SQLSMALLINT *len)
{
    for (args->n = 0; args->n < n; args->n++) {
        if (!w_arg_make(&args->a[args->n], w[args->n], len[args->n],
                        SHRT_MAX)) {
            w_args_free(args);
            return false;
        }
    }
    return true;
}

#define W_TEXT(args, i) ((SQLCHAR *)(args).a[i].text)
#define W_SLEN(args, i) ((SQLSMALLINT)(args).a[i].len)

/* ------------------------------------------------------------------------ */
/* String results                                                            */
/* ------------------------------------------------------------------------ */

/* The UTF-8 buffer an ANSI call writes a string result into. */
typedef struct w_buf {
    char *text;        /* `local` or malloc'ed */
    size_t cap;        /* bytes, terminator included */
    size_t limit;      /* the largest cap the ANSI length type expresses */
    bool oom;          /* growing failed: text holds a prefix */
    char local[256];
} w_buf;

static void w_buf_init(w_buf *b, size_t limit)
{
    b->text = b->local;
    b->cap = sizeof b->local < limit ? sizeof b->local : limit;
    b->limit = limit;
    b->oom = false;
    b->text[0] = '\0';
}

/* Start with `cap` bytes (for the calls that cannot be repeated). */
static bool w_buf_init_size(w_buf *b, size_t cap)
{
    w_buf_init(b, cap);
    if (cap <= sizeof b->local)
        return true;
    if (!(b->text = malloc(cap))) {
        b->text = b->local;
        return false;
    }
    b->cap = cap;
    b->text[0] = '\0';
    return true;
}

static void w_buf_free(w_buf *b)
{
    if (b->text != b->local)
        free(b->text);
    b->text = b->local;
}

/* After an ANSI call that returned `rc` and a full length of `len` bytes:
** true when the text did not fit and a buffer large enough is ready for
** the call to be repeated. */
static bool w_buf_retry(w_buf *b, SQLRETURN rc, SQLLEN len)
{
    size_t want;
    char *t;

    if (rc != SQL_SUCCESS_WITH_INFO || len < 0 || (size_t)len < b->cap ||
        b->cap >= b->limit)
        return false;
    want = (size_t)len < b->limit ? (size_t)len + 1 : b->limit;
    if (!(t = malloc(want))) {
        b->oom = true;
        return false;
    }
    w_buf_free(b);
    b->text = t;
    b->cap = want;
    b->text[0] = '\0';
    return true;
}

/* Bytes of text in the buffer after the ANSI call reported `len`. */
static size_t w_buf_len(const w_buf *b, SQLLEN len)
{
    const char *nul;
    if (len >= 0 && (size_t)len < b->cap)
        return (size_t)len;
    nul = memchr(b->text, '\0', b->cap);  /* truncated: what was written */
    return nul ? (size_t)(nul - b->text) : 0;
}

/* Give the application the UTF-8 result as SQLWCHAR text in `dst`, room for
** `cap` SQLWCHARs (dst may be NULL: length only).  *units gets the whole
** text's SQLWCHARs.  Returns `rc`, a truncation warning when the text did
** not fit, or HY001 when the UTF-8 buffer could not grow (posted on `h`;
** with no handle the prefix is delivered as truncated). */
static SQLRETURN w_deliver(lt_handle *h, const w_buf *b, SQLRETURN rc,
                           SQLLEN len, SQLPOINTER dst, SQLLEN cap,
                           size_t *units)
{
    size_t n, room;
    bool partial;

    *units = 0;
    if (!SQL_SUCCEEDED(rc) && rc != SQL_NEED_DATA)
        return rc;
    if (b->oom && h)
        return w_error(h, "HY001");
    n = w_buf_len(b, len);
    if (!dst) {
        *units = lt_utf8_wide_units(b->text, n);
        return rc;
    }
    /* A prefix (the ANSI call had more than the largest buffer holds) is
    ** truncated whatever the application's room. */
    partial = b->oom || (len >= 0 && (size_t)len >= b->cap);
    room = cap > 0 ? (size_t)cap : 0;
    *units = lt_utf8_to_wide(b->text, n, dst, room, NULL);
    if (*units >= room || partial)
        return w_truncated(h, rc);
    return rc;
}

static SQLSMALLINT w_len16(size_t n)
{
    return n > SHRT_MAX ? SHRT_MAX : (SQLSMALLINT)n;
}

static SQLINTEGER w_len32(size_t n)
{
    return n > INT_MAX ? INT_MAX : (SQLINTEGER)n;
}

/* SQLWCHARs in a buffer of `bytes` bytes. */
static SQLLEN w_units_in(SQLLEN bytes)
{
    return bytes > 0 ? bytes / (SQLLEN)sizeof(SQLWCHAR) : 0;
}

#define W_BYTES(units) ((units) * sizeof(SQLWCHAR))

/* ------------------------------------------------------------------------ */
/* Connecting                                                                */
/* ------------------------------------------------------------------------ */

SQLRETURN SQL_API SQLConnectW(SQLHDBC dbc, SQLWCHAR *dsn, SQLSMALLINT ndsn,
                              SQLWCHAR *uid, SQLSMALLINT nuid,
                              SQLWCHAR *auth, SQLSMALLINT nauth)
{
    w_args a;
    SQLRETURN rc;

    if (!w_args_small(&a, 3, (SQLWCHAR *[]){dsn, uid, auth},
                      (SQLSMALLINT[]){ndsn, nuid, nauth}))
        return w_fail(dbc, SQL_HANDLE_DBC, "HY001");
    rc = SQLConnect(dbc, W_TEXT(a, 0), W_SLEN(a, 0), W_TEXT(a, 1),
                    W_SLEN(a, 1), W_TEXT(a, 2), W_SLEN(a, 2));
    w_args_free(&a);
    return rc;
}

/* SQLDriverConnectW and SQLBrowseConnectW: both return a connection string
** in characters and cannot be repeated, so the ANSI call gets the largest
** buffer an SQLSMALLINT length allows.  `driver` selects the function. */
static SQLRETURN w_connect(bool driver, SQLHDBC dbc, SQLHWND hwnd,
                           SQLWCHAR *in, SQLSMALLINT nin, SQLWCHAR *out,
                           SQLSMALLINT outmax, SQLSMALLINT *outlen,
                           SQLUSMALLINT completion)
{
    lt_handle *h = lt_enter_keep_diag(dbc, SQL_HANDLE_DBC);
    w_arg a;
    w_buf b;
    SQLSMALLINT len = 0;
    SQLRETURN rc;
    size_t units;

    if (!h)
        return SQL_INVALID_HANDLE;
    if (out && outmax < 0)
        return lt_leave(h, w_error(h, "HY090"));
    if (!w_arg_make(&a, in, nin, SHRT_MAX))
        return lt_leave(h, w_error(h, "HY001"));
    if (!w_buf_init_size(&b, SHRT_MAX)) {
        free(a.text);
        return lt_leave(h, w_error(h, "HY001"));
    }
    if (driver)
        rc = SQLDriverConnect(dbc, hwnd, (SQLCHAR *)a.text, (SQLSMALLINT)a.len,
                              (SQLCHAR *)b.text, (SQLSMALLINT)b.cap, &len,
                              completion);
    else
        rc = SQLBrowseConnect(dbc, (SQLCHAR *)a.text, (SQLSMALLINT)a.len,
                              (SQLCHAR *)b.text, (SQLSMALLINT)b.cap, &len);
    rc = w_deliver(h, &b, rc, len, out, outmax, &units);
    if ((SQL_SUCCEEDED(rc) || rc == SQL_NEED_DATA) && outlen)
        *outlen = w_len16(units);
    w_buf_free(&b);
    free(a.text);
    return lt_leave(h, rc);
}

SQLRETURN SQL_API SQLDriverConnectW(SQLHDBC dbc, SQLHWND hwnd, SQLWCHAR *in,
                                    SQLSMALLINT nin, SQLWCHAR *out,
                                    SQLSMALLINT outmax, SQLSMALLINT *outlen,
                                    SQLUSMALLINT completion)
{
    return w_connect(true, dbc, hwnd, in, nin, out, outmax, outlen,
                     completion);
}

SQLRETURN SQL_API SQLBrowseConnectW(SQLHDBC dbc, SQLWCHAR *in, SQLSMALLINT nin,
                                    SQLWCHAR *out, SQLSMALLINT outmax,
                                    SQLSMALLINT *outlen)
{
    return w_connect(false, dbc, NULL, in, nin, out, outmax, outlen, 0);
}

/* ------------------------------------------------------------------------ */
/* Statements                                                                */
/* ------------------------------------------------------------------------ */

SQLRETURN SQL_API SQLExecDirectW(SQLHSTMT stmt, SQLWCHAR *text,
                                 SQLINTEGER len)
{
    w_arg a;
    SQLRETURN rc;

    if (!w_arg_make(&a, text, len, INT_MAX))
        return w_fail(stmt, SQL_HANDLE_STMT, "HY001");
    rc = SQLExecDirect(stmt, (SQLCHAR *)a.text, a.len);
    free(a.text);
    return rc;
}

SQLRETURN SQL_API SQLPrepareW(SQLHSTMT stmt, SQLWCHAR *text, SQLINTEGER len)
{
    w_arg a;
    SQLRETURN rc;

    if (!w_arg_make(&a, text, len, INT_MAX))
        return w_fail(stmt, SQL_HANDLE_STMT, "HY001");
    rc = SQLPrepare(stmt, (SQLCHAR *)a.text, a.len);
    free(a.text);
    return rc;
}

SQLRETURN SQL_API SQLNativeSqlW(SQLHDBC dbc, SQLWCHAR *in, SQLINTEGER nin,
                                SQLWCHAR *out, SQLINTEGER outmax,
                                SQLINTEGER *outlen)
{
    lt_handle *h;
    w_arg a;
    w_buf b;
    SQLINTEGER len;
    SQLRETURN rc;
    size_t units;

    if (!(h = lt_enter_keep_diag(dbc, SQL_HANDLE_DBC)))
        return SQL_INVALID_HANDLE;
    if (out && outmax < 0)
        return lt_leave(h, w_error(h, "HY090"));
    if (!w_arg_make(&a, in, nin, INT_MAX))
        return lt_leave(h, w_error(h, "HY001"));
    w_buf_init(&b, INT_MAX);
    do {
        len = 0;
        rc = SQLNativeSql(dbc, (SQLCHAR *)a.text, a.len, (SQLCHAR *)b.text,
                          (SQLINTEGER)b.cap, &len);
    } while (w_buf_retry(&b, rc, len));
    rc = w_deliver(h, &b, rc, len, out, outmax, &units);
    if (SQL_SUCCEEDED(rc) && outlen)
        *outlen = w_len32(units);
    w_buf_free(&b);
    free(a.text);
    return lt_leave(h, rc);
}

SQLRETURN SQL_API SQLDescribeColW(SQLHSTMT stmt, SQLUSMALLINT col,
                                  SQLWCHAR *name, SQLSMALLINT namemax,
                                  SQLSMALLINT *namelen, SQLSMALLINT *type,
                                  SQLULEN *size, SQLSMALLINT *digits,
                                  SQLSMALLINT *nullable)
{
    lt_handle *h;
    w_buf b;
    SQLSMALLINT len;
    SQLRETURN rc;
    size_t units;

    if (!name && !namelen)
        return SQLDescribeCol(stmt, col, NULL, 0, NULL, type, size, digits,
                              nullable);
    if (!(h = lt_enter_keep_diag(stmt, SQL_HANDLE_STMT)))
        return SQL_INVALID_HANDLE;
    if (name && namemax < 0)
        return lt_leave(h, w_error(h, "HY090"));
    w_buf_init(&b, SHRT_MAX);
    do {
        len = 0;
        rc = SQLDescribeCol(stmt, col, (SQLCHAR *)b.text, (SQLSMALLINT)b.cap,
                            &len, type, size, digits, nullable);
    } while (w_buf_retry(&b, rc, len));
    rc = w_deliver(h, &b, rc, len, name, namemax, &units);
    if (SQL_SUCCEEDED(rc) && namelen)
        *namelen = w_len16(units);
    w_buf_free(&b);
    return lt_leave(h, rc);
}

SQLRETURN SQL_API SQLColAttributeW(SQLHSTMT stmt, SQLUSMALLINT col,
                                   SQLUSMALLINT field, SQLPOINTER value,
                                   SQLSMALLINT buflen, SQLSMALLINT *outlen,
                                   SQLLEN *number)
{
    lt_handle *h;
    w_buf b;
    SQLSMALLINT len;
    SQLRETURN rc;
    size_t units;

    if (!col_attr_is_string(field) || (!value && !outlen))
        return SQLColAttribute(stmt, col, field, value, buflen, outlen,
                               number);
    if (!(h = lt_enter_keep_diag(stmt, SQL_HANDLE_STMT)))
        return SQL_INVALID_HANDLE;
    if (value && buflen < 0)
        return lt_leave(h, w_error(h, "HY090"));
    w_buf_init(&b, SHRT_MAX);
    do {
        len = 0;
        rc = SQLColAttribute(stmt, col, field, b.text, (SQLSMALLINT)b.cap,
                             &len, number);
    } while (w_buf_retry(&b, rc, len));
    rc = w_deliver(h, &b, rc, len, value, w_units_in(buflen), &units);
    if (SQL_SUCCEEDED(rc) && outlen)
        *outlen = w_len16(W_BYTES(units));
    w_buf_free(&b);
    return lt_leave(h, rc);
}

SQLRETURN SQL_API SQLGetCursorNameW(SQLHSTMT stmt, SQLWCHAR *name,
                                    SQLSMALLINT namemax, SQLSMALLINT *namelen)
{
    lt_handle *h;
    w_buf b;
    SQLSMALLINT len;
    SQLRETURN rc;
    size_t units;

    if (!(h = lt_enter_keep_diag(stmt, SQL_HANDLE_STMT)))
        return SQL_INVALID_HANDLE;
    if (name && namemax < 0)
        return lt_leave(h, w_error(h, "HY090"));
    w_buf_init(&b, SHRT_MAX);
    do {
        len = 0;
        rc = SQLGetCursorName(stmt, (SQLCHAR *)b.text, (SQLSMALLINT)b.cap,
                              &len);
    } while (w_buf_retry(&b, rc, len));
    rc = w_deliver(h, &b, rc, len, name, namemax, &units);
    if (SQL_SUCCEEDED(rc) && namelen)
        *namelen = w_len16(units);
    w_buf_free(&b);
    return lt_leave(h, rc);
}

SQLRETURN SQL_API SQLSetCursorNameW(SQLHSTMT stmt, SQLWCHAR *name,
                                    SQLSMALLINT len)
{
    w_arg a;
    SQLRETURN rc;

    if (!w_arg_make(&a, name, len, SHRT_MAX))
        return w_fail(stmt, SQL_HANDLE_STMT, "HY001");
    rc = SQLSetCursorName(stmt, (SQLCHAR *)a.text, (SQLSMALLINT)a.len);
    free(a.text);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Information and attributes                                                */
/* ------------------------------------------------------------------------ */

SQLRETURN SQL_API SQLGetInfoW(SQLHDBC dbc, SQLUSMALLINT type, SQLPOINTER value,
                              SQLSMALLINT buflen, SQLSMALLINT *outlen)
{
    lt_handle *h;
    w_buf b;
    SQLSMALLINT len;
    SQLRETURN rc;
    size_t units;

    if (!info_is_string(type))
        return SQLGetInfo(dbc, type, value, buflen, outlen);
    if (!(h = lt_enter_keep_diag(dbc, SQL_HANDLE_DBC)))
        return SQL_INVALID_HANDLE;
    if (value && buflen < 0)
        return lt_leave(h, w_error(h, "HY090"));
    w_buf_init(&b, SHRT_MAX);
    do {
        len = 0;
        rc = SQLGetInfo(dbc, type, b.text, (SQLSMALLINT)b.cap, &len);
    } while (w_buf_retry(&b, rc, len));
    rc = w_deliver(h, &b, rc, len, value, w_units_in(buflen), &units);
    if (SQL_SUCCEEDED(rc) && outlen)
        *outlen = w_len16(W_BYTES(units));
    w_buf_free(&b);
    return lt_leave(h, rc);
}

SQLRETURN SQL_API SQLGetConnectAttrW(SQLHDBC dbc, SQLINTEGER attr,
                                     SQLPOINTER value, SQLINTEGER buflen,
                                     SQLINTEGER *outlen)
{
    lt_handle *h;
    w_buf b;
    SQLINTEGER len;
    SQLRETURN rc;
    size_t units;

    if (!connect_attr_is_string(attr))
        return SQLGetConnectAttr(dbc, attr, value, buflen, outlen);
    if (!(h = lt_enter_keep_diag(dbc, SQL_HANDLE_DBC)))
        return SQL_INVALID_HANDLE;
    if (value && buflen < 0)
        return lt_leave(h, w_error(h, "HY090"));
    w_buf_init(&b, INT_MAX);
    do {
        len = 0;
        rc = SQLGetConnectAttr(dbc, attr, b.text, (SQLINTEGER)b.cap, &len);
    } while (w_buf_retry(&b, rc, len));
    rc = w_deliver(h, &b, rc, len, value, w_units_in(buflen), &units);
    if (SQL_SUCCEEDED(rc) && outlen)
        *outlen = w_len32(W_BYTES(units));
    w_buf_free(&b);
    return lt_leave(h, rc);
}

/* A string value of a Set* call: `len` is in bytes or SQL_NTS. */
static bool w_arg_bytes(w_arg *a, SQLPOINTER value, SQLINTEGER len)
{
    return w_arg_make(a, value, len >= 0 ? len / (SQLINTEGER)sizeof(SQLWCHAR)
                                         : len, INT_MAX);
}

SQLRETURN SQL_API SQLSetConnectAttrW(SQLHDBC dbc, SQLINTEGER attr,
                                     SQLPOINTER value, SQLINTEGER len)
{
    w_arg a;
    SQLRETURN rc;

    if (!connect_attr_is_string(attr))
        return SQLSetConnectAttr(dbc, attr, value, len);
    if (!w_arg_bytes(&a, value, len))
        return w_fail(dbc, SQL_HANDLE_DBC, "HY001");
    rc = SQLSetConnectAttr(dbc, attr, a.text, a.len);
    free(a.text);
    return rc;
}

/* No statement attribute of ODBC 3 is a string: both pass through. */
SQLRETURN SQL_API SQLGetStmtAttrW(SQLHSTMT stmt, SQLINTEGER attr,
                                  SQLPOINTER value, SQLINTEGER buflen,
                                  SQLINTEGER *outlen)
{
    return SQLGetStmtAttr(stmt, attr, value, buflen, outlen);
}

SQLRETURN SQL_API SQLSetStmtAttrW(SQLHSTMT stmt, SQLINTEGER attr,
                                  SQLPOINTER value, SQLINTEGER len)
{
    return SQLSetStmtAttr(stmt, attr, value, len);
}

/* ------------------------------------------------------------------------ */
/* Descriptors                                                               */
/* ------------------------------------------------------------------------ */

SQLRETURN SQL_API SQLGetDescFieldW(SQLHDESC desc, SQLSMALLINT rec,
                                   SQLSMALLINT field, SQLPOINTER value,
                                   SQLINTEGER buflen, SQLINTEGER *outlen)
{
    lt_handle *h;
    w_buf b;
    SQLINTEGER len;
    SQLRETURN rc;
    size_t units;

    if (!desc_field_is_string(field))
        return SQLGetDescField(desc, rec, field, value, buflen, outlen);
    if (!(h = lt_enter_keep_diag(desc, SQL_HANDLE_DESC)))
        return SQL_INVALID_HANDLE;
    if (value && buflen < 0)
        return lt_leave(h, w_error(h, "HY090"));
    w_buf_init(&b, INT_MAX);
    do {
        len = 0;
        rc = SQLGetDescField(desc, rec, field, b.text, (SQLINTEGER)b.cap,
                             &len);
    } while (w_buf_retry(&b, rc, len));
    rc = w_deliver(h, &b, rc, len, value, w_units_in(buflen), &units);
    if (SQL_SUCCEEDED(rc) && outlen)
        *outlen = w_len32(W_BYTES(units));
    w_buf_free(&b);
    return lt_leave(h, rc);
}

SQLRETURN SQL_API SQLSetDescFieldW(SQLHDESC desc, SQLSMALLINT rec,
                                   SQLSMALLINT field, SQLPOINTER value,
                                   SQLINTEGER len)
{
    w_arg a;
    SQLRETURN rc;

    if (!desc_field_is_string(field))
        return SQLSetDescField(desc, rec, field, value, len);
    if (!w_arg_bytes(&a, value, len))
        return w_fail(desc, SQL_HANDLE_DESC, "HY001");
    rc = SQLSetDescField(desc, rec, field, a.text, a.len);
    free(a.text);
    return rc;
}

SQLRETURN SQL_API SQLGetDescRecW(SQLHDESC desc, SQLSMALLINT rec,
                                 SQLWCHAR *name, SQLSMALLINT namemax,
                                 SQLSMALLINT *namelen, SQLSMALLINT *type,
                                 SQLSMALLINT *subtype, SQLLEN *length,
                                 SQLSMALLINT *precision, SQLSMALLINT *scale,
                                 SQLSMALLINT *nullable)
{
    lt_handle *h;
    w_buf b;
    SQLSMALLINT len;
    SQLRETURN rc;
    size_t units;

    if (!name && !namelen)
        return SQLGetDescRec(desc, rec, NULL, 0, NULL, type, subtype, length,
                             precision, scale, nullable);
    if (!(h = lt_enter_keep_diag(desc, SQL_HANDLE_DESC)))
        return SQL_INVALID_HANDLE;
    if (name && namemax < 0)
        return lt_leave(h, w_error(h, "HY090"));
    w_buf_init(&b, SHRT_MAX);
    do {
        len = 0;
        rc = SQLGetDescRec(desc, rec, (SQLCHAR *)b.text, (SQLSMALLINT)b.cap,
                           &len, type, subtype, length, precision, scale,
                           nullable);
    } while (w_buf_retry(&b, rc, len));
    rc = w_deliver(h, &b, rc, len, name, namemax, &units);
    if (SQL_SUCCEEDED(rc) && namelen)
        *namelen = w_len16(units);
    w_buf_free(&b);
    return lt_leave(h, rc);
}

/* ------------------------------------------------------------------------ */
/* Diagnostics: read without locking or posting (they report, never post)    */
/* ------------------------------------------------------------------------ */

SQLRETURN SQL_API SQLGetDiagRecW(SQLSMALLINT htype, SQLHANDLE handle,
                                 SQLSMALLINT rec, SQLWCHAR *state,
                                 SQLINTEGER *native, SQLWCHAR *msg,
                                 SQLSMALLINT msgmax, SQLSMALLINT *msglen)
{
    char st[6] = "";
    w_buf b;
    SQLSMALLINT len;
    SQLRETURN rc;
    size_t units;

    if (msg && msgmax < 0)
        return SQL_ERROR;
    w_buf_init(&b, SHRT_MAX);
    do {
        len = 0;
        rc = SQLGetDiagRec(htype, handle, rec, (SQLCHAR *)st, native,
                           (SQLCHAR *)b.text, (SQLSMALLINT)b.cap, &len);
    } while (w_buf_retry(&b, rc, len));
    rc = w_deliver(NULL, &b, rc, len, msg, msgmax, &units);
    if (SQL_SUCCEEDED(rc)) {
        if (state)
            lt_utf8_to_wide(st, strnlen(st, 5), state, 6, NULL);
        if (msglen)
            *msglen = w_len16(units);
    }
    w_buf_free(&b);
    return rc;
}

SQLRETURN SQL_API SQLGetDiagFieldW(SQLSMALLINT htype, SQLHANDLE handle,
                                   SQLSMALLINT rec, SQLSMALLINT field,
                                   SQLPOINTER value, SQLSMALLINT buflen,
                                   SQLSMALLINT *outlen)
{
    w_buf b;
    SQLSMALLINT len;
    SQLRETURN rc;
    size_t units;

    if (!diag_field_is_string(field))
        return SQLGetDiagField(htype, handle, rec, field, value, buflen,
                               outlen);
    if (value && buflen < 0)
        return SQL_ERROR;
    w_buf_init(&b, SHRT_MAX);
    do {
        len = 0;
        rc = SQLGetDiagField(htype, handle, rec, field, b.text,
                             (SQLSMALLINT)b.cap, &len);
    } while (w_buf_retry(&b, rc, len));
    rc = w_deliver(NULL, &b, rc, len, value, w_units_in(buflen), &units);
    if (SQL_SUCCEEDED(rc) && outlen)
        *outlen = w_len16(W_BYTES(units));
    w_buf_free(&b);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Catalog functions: string arguments in, a result set out                  */
/* ------------------------------------------------------------------------ */

SQLRETURN SQL_API SQLTablesW(SQLHSTMT stmt, SQLWCHAR *cat, SQLSMALLINT ncat,
                             SQLWCHAR *sch, SQLSMALLINT nsch, SQLWCHAR *tab,
                             SQLSMALLINT ntab, SQLWCHAR *typ,
                             SQLSMALLINT ntyp)
{
    w_args a;
    SQLRETURN rc;

    if (!w_args_small(&a, 4, (SQLWCHAR *[]){cat, sch, tab, typ},
                      (SQLSMALLINT[]){ncat, nsch, ntab, ntyp}))
        return w_fail(stmt, SQL_HANDLE_STMT, "HY001");
    rc = SQLTables(stmt, W_TEXT(a, 0), W_SLEN(a, 0), W_TEXT(a, 1),
                   W_SLEN(a, 1), W_TEXT(a, 2), W_SLEN(a, 2), W_TEXT(a, 3),
                   W_SLEN(a, 3));
    w_args_free(&a);
    return rc;
}

SQLRETURN SQL_API SQLColumnsW(SQLHSTMT stmt, SQLWCHAR *cat, SQLSMALLINT ncat,
                              SQLWCHAR *sch, SQLSMALLINT nsch, SQLWCHAR *tab,
                              SQLSMALLINT ntab, SQLWCHAR *col,
                              SQLSMALLINT ncol)
{
    w_args a;
    SQLRETURN rc;

    if (!w_args_small(&a, 4, (SQLWCHAR *[]){cat, sch, tab, col},
                      (SQLSMALLINT[]){ncat, nsch, ntab, ncol}))
        return w_fail(stmt, SQL_HANDLE_STMT, "HY001");
    rc = SQLColumns(stmt, W_TEXT(a, 0), W_SLEN(a, 0), W_TEXT(a, 1),
                    W_SLEN(a, 1), W_TEXT(a, 2), W_SLEN(a, 2), W_TEXT(a, 3),
                    W_SLEN(a, 3));
    w_args_free(&a);
    return rc;
}

SQLRETURN SQL_API SQLColumnPrivilegesW(SQLHSTMT stmt, SQLWCHAR *cat,
                                       SQLSMALLINT ncat, SQLWCHAR *sch,
                                       SQLSMALLINT nsch, SQLWCHAR *tab,
                                       SQLSMALLINT ntab, SQLWCHAR *col,
                                       SQLSMALLINT ncol)
{
    w_args a;
    SQLRETURN rc;

    if (!w_args_small(&a, 4, (SQLWCHAR *[]){cat, sch, tab, col},
                      (SQLSMALLINT[]){ncat, nsch, ntab, ncol}))
        return w_fail(stmt, SQL_HANDLE_STMT, "HY001");
    rc = SQLColumnPrivileges(stmt, W_TEXT(a, 0), W_SLEN(a, 0), W_TEXT(a, 1),
                             W_SLEN(a, 1), W_TEXT(a, 2), W_SLEN(a, 2),
                             W_TEXT(a, 3), W_SLEN(a, 3));
    w_args_free(&a);
    return rc;
}

SQLRETURN SQL_API SQLTablePrivilegesW(SQLHSTMT stmt, SQLWCHAR *cat,
                                      SQLSMALLINT ncat, SQLWCHAR *sch,
                                      SQLSMALLINT nsch, SQLWCHAR *tab,
                                      SQLSMALLINT ntab)
{
    w_args a;
    SQLRETURN rc;

    if (!w_args_small(&a, 3, (SQLWCHAR *[]){cat, sch, tab},
                      (SQLSMALLINT[]){ncat, nsch, ntab}))
        return w_fail(stmt, SQL_HANDLE_STMT, "HY001");
    rc = SQLTablePrivileges(stmt, W_TEXT(a, 0), W_SLEN(a, 0), W_TEXT(a, 1),
                            W_SLEN(a, 1), W_TEXT(a, 2), W_SLEN(a, 2));
    w_args_free(&a);
    return rc;
}

SQLRETURN SQL_API SQLPrimaryKeysW(SQLHSTMT stmt, SQLWCHAR *cat,
                                  SQLSMALLINT ncat, SQLWCHAR *sch,
                                  SQLSMALLINT nsch, SQLWCHAR *tab,
                                  SQLSMALLINT ntab)
{
    w_args a;
    SQLRETURN rc;

    if (!w_args_small(&a, 3, (SQLWCHAR *[]){cat, sch, tab},
                      (SQLSMALLINT[]){ncat, nsch, ntab}))
        return w_fail(stmt, SQL_HANDLE_STMT, "HY001");
    rc = SQLPrimaryKeys(stmt, W_TEXT(a, 0), W_SLEN(a, 0), W_TEXT(a, 1),
                        W_SLEN(a, 1), W_TEXT(a, 2), W_SLEN(a, 2));
    w_args_free(&a);
    return rc;
}

SQLRETURN SQL_API SQLForeignKeysW(SQLHSTMT stmt, SQLWCHAR *pkcat,
                                  SQLSMALLINT npkcat, SQLWCHAR *pksch,
                                  SQLSMALLINT npksch, SQLWCHAR *pktab,
                                  SQLSMALLINT npktab, SQLWCHAR *fkcat,
                                  SQLSMALLINT nfkcat, SQLWCHAR *fksch,
                                  SQLSMALLINT nfksch, SQLWCHAR *fktab,
                                  SQLSMALLINT nfktab)
{
    w_args a;
    SQLRETURN rc;

    if (!w_args_small(&a, 6,
                      (SQLWCHAR *[]){pkcat, pksch, pktab, fkcat, fksch, fktab},
                      (SQLSMALLINT[]){npkcat, npksch, npktab, nfkcat, nfksch,
                                      nfktab}))
        return w_fail(stmt, SQL_HANDLE_STMT, "HY001");
    rc = SQLForeignKeys(stmt, W_TEXT(a, 0), W_SLEN(a, 0), W_TEXT(a, 1),
                        W_SLEN(a, 1), W_TEXT(a, 2), W_SLEN(a, 2), W_TEXT(a, 3),
                        W_SLEN(a, 3), W_TEXT(a, 4), W_SLEN(a, 4), W_TEXT(a, 5),
                        W_SLEN(a, 5));
    w_args_free(&a);
    return rc;
}

SQLRETURN SQL_API SQLProceduresW(SQLHSTMT stmt, SQLWCHAR *cat,
                                 SQLSMALLINT ncat, SQLWCHAR *sch,
                                 SQLSMALLINT nsch, SQLWCHAR *proc,
                                 SQLSMALLINT nproc)
{
    w_args a;
    SQLRETURN rc;

    if (!w_args_small(&a, 3, (SQLWCHAR *[]){cat, sch, proc},
                      (SQLSMALLINT[]){ncat, nsch, nproc}))
        return w_fail(stmt, SQL_HANDLE_STMT, "HY001");
    rc = SQLProcedures(stmt, W_TEXT(a, 0), W_SLEN(a, 0), W_TEXT(a, 1),
                       W_SLEN(a, 1), W_TEXT(a, 2), W_SLEN(a, 2));
    w_args_free(&a);
    return rc;
}

SQLRETURN SQL_API SQLProcedureColumnsW(SQLHSTMT stmt, SQLWCHAR *cat,
                                       SQLSMALLINT ncat, SQLWCHAR *sch,
                                       SQLSMALLINT nsch, SQLWCHAR *proc,
                                       SQLSMALLINT nproc, SQLWCHAR *col,
                                       SQLSMALLINT ncol)
{
    w_args a;
    SQLRETURN rc;

    if (!w_args_small(&a, 4, (SQLWCHAR *[]){cat, sch, proc, col},
                      (SQLSMALLINT[]){ncat, nsch, nproc, ncol}))
        return w_fail(stmt, SQL_HANDLE_STMT, "HY001");
    rc = SQLProcedureColumns(stmt, W_TEXT(a, 0), W_SLEN(a, 0), W_TEXT(a, 1),
                             W_SLEN(a, 1), W_TEXT(a, 2), W_SLEN(a, 2),
                             W_TEXT(a, 3), W_SLEN(a, 3));
    w_args_free(&a);
    return rc;
}

SQLRETURN SQL_API SQLSpecialColumnsW(SQLHSTMT stmt, SQLUSMALLINT kind,
                                     SQLWCHAR *cat, SQLSMALLINT ncat,
                                     SQLWCHAR *sch, SQLSMALLINT nsch,
                                     SQLWCHAR *tab, SQLSMALLINT ntab,
                                     SQLUSMALLINT scope, SQLUSMALLINT nullable)
{
    w_args a;
    SQLRETURN rc;

    if (!w_args_small(&a, 3, (SQLWCHAR *[]){cat, sch, tab},
                      (SQLSMALLINT[]){ncat, nsch, ntab}))
        return w_fail(stmt, SQL_HANDLE_STMT, "HY001");
    rc = SQLSpecialColumns(stmt, kind, W_TEXT(a, 0), W_SLEN(a, 0),
                           W_TEXT(a, 1), W_SLEN(a, 1), W_TEXT(a, 2),
                           W_SLEN(a, 2), scope, nullable);
    w_args_free(&a);
    return rc;
}

SQLRETURN SQL_API SQLStatisticsW(SQLHSTMT stmt, SQLWCHAR *cat,
                                 SQLSMALLINT ncat, SQLWCHAR *sch,
                                 SQLSMALLINT nsch, SQLWCHAR *tab,
                                 SQLSMALLINT ntab, SQLUSMALLINT unique,
                                 SQLUSMALLINT accuracy)
{
    w_args a;
    SQLRETURN rc;

    if (!w_args_small(&a, 3, (SQLWCHAR *[]){cat, sch, tab},
                      (SQLSMALLINT[]){ncat, nsch, ntab}))
        return w_fail(stmt, SQL_HANDLE_STMT, "HY001");
    rc = SQLStatistics(stmt, W_TEXT(a, 0), W_SLEN(a, 0), W_TEXT(a, 1),
                       W_SLEN(a, 1), W_TEXT(a, 2), W_SLEN(a, 2), unique,
                       accuracy);
    w_args_free(&a);
    return rc;
}

SQLRETURN SQL_API SQLGetTypeInfoW(SQLHSTMT stmt, SQLSMALLINT type)
{
    return SQLGetTypeInfo(stmt, type);
}

/* The string tests above, for Windows' ANSI code page wrappers (narrow.h). */
bool lt_info_is_string(SQLUSMALLINT type)
{
    return info_is_string(type);
}

bool lt_col_attr_is_string(SQLUSMALLINT field)
{
    return col_attr_is_string(field);
}

bool lt_diag_field_is_string(SQLSMALLINT field)
{
    return diag_field_is_string(field);
}

bool lt_connect_attr_is_string(SQLINTEGER attr)
{
    return connect_attr_is_string(attr);
}

bool lt_desc_field_is_string(SQLSMALLINT field)
{
    return desc_field_is_string(field);
}
