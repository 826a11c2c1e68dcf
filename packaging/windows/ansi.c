/*
** ansi.c — the ANSI entry points of lectorodbc.dll, in the ANSI code page.
**
** The driver's own SQLFoo functions take and give UTF-8 (the narrow set of
** unixODBC and iODBC, and what its SQLFooW wrappers hand them).  A Windows
** ANSI application speaks the ANSI code page instead, so lectorodbc.def
** exports each ANSI function that carries text as the wrapper here
** (SQLExecDirect = lt_ansi_SQLExecDirect): text arguments are converted to
** UTF-8 before the call, string results to the code page after it
** (driver/narrow.h; a character the code page lacks becomes '?').  Returned
** lengths count bytes of the converted text; a result cut to the
** application's buffer ends on a whole character and posts 01004.
** SQL_C_CHAR data is converted for every application: results in
** driver/convert.c, parameter values in driver/execute.c.
*/
#include <stdlib.h>
#include <string.h>

#include "../../driver/driver.h"
#include "../../driver/narrow.h"

/* Largest UTF-8 result asked of the driver for a name or message. */
#define ANSI_RESULT_MAX 32767

/* One text argument, converted to UTF-8 (or passed through). */
typedef struct ansi_arg {
    SQLCHAR *text;    /* what the driver gets */
    SQLLEN len;       /* its length, or the application's (invalid) one */
    char *owned;      /* malloc'ed conversion, freed by ansi_arg_free */
} ansi_arg;

/* Convert `s` (`len` bytes or SQL_NTS).  NULL, ASCII and invalid lengths
** pass through unchanged so the driver's own checks see them.  False when
** out of memory. */
static bool ansi_arg_make(ansi_arg *a, SQLCHAR *s, SQLLEN len)
{
    a->text = s;
    a->len = len;
    a->owned = NULL;
    SQLLEN n = lt_str_in_len(s, len);
    if (s == NULL || n <= 0 || lt_narrow_same((const char *)s, (size_t)n))
        return true;
    size_t out;
    a->owned = lt_narrow_to_utf8((const char *)s, (size_t)n, &out);
    if (a->owned == NULL)
        return false;
    a->text = (SQLCHAR *)a->owned;
    a->len = (SQLLEN)out;
    return true;
}

static void ansi_arg_free(ansi_arg *a)
{
    free(a->owned);
}

/* Post HY001 on a handle and return SQL_ERROR. */
static SQLRETURN ansi_oom(SQLHANDLE handle, SQLSMALLINT type)
{
    lt_handle *h = lt_enter(handle, type);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_diag_post(h, "HY001", 0, "Memory allocation error");
    return lt_leave(h, SQL_ERROR);
}

/* Deliver UTF-8 result `u` (`ulen` bytes) into the application's buffer in
** the code page.  `rc` is the driver's return code; *len16 / *len32 get
** the converted length in bytes. */
static SQLRETURN ansi_deliver(SQLHANDLE handle, SQLSMALLINT type, SQLRETURN rc,
                              const char *u, size_t ulen, SQLCHAR *buf, SQLLEN buflen,
                              SQLSMALLINT *len16, SQLINTEGER *len32)
{
    size_t n = ulen;
    char *a = NULL;
    const char *s = u;
    if (!lt_narrow_same(u, ulen)) {
        a = lt_narrow_from_utf8(u, ulen, &n);
        if (a == NULL)
            return ansi_oom(handle, type);
        s = a;
    }
    if (len16 != NULL)
        *len16 = (SQLSMALLINT)(n > 32767 ? 32767 : n);
    if (len32 != NULL)
        *len32 = (SQLINTEGER)n;
    bool cut = false;
    if (buf != NULL && buflen > 0) {
        size_t take = lt_narrow_fit(s, n, (size_t)buflen - 1);
        memcpy(buf, s, take);
        buf[take] = '\0';
        cut = take < n;
    } else if (buf != NULL) {
        cut = n > 0;
    }
    free(a);
    if (cut && rc == SQL_SUCCESS) {
        lt_handle *h = lt_enter_keep_diag(handle, type);
        if (h != NULL) {
            lt_diag_post(h, "01004", 0, "String data, right truncated");
            lt_leave_keep_diag(h, SQL_SUCCESS_WITH_INFO);
        }
        rc = SQL_SUCCESS_WITH_INFO;
    }
    return rc;
}

/* A UTF-8 result buffer for the driver: the application's size times
** three (one code page byte is at most three UTF-8 bytes), at least 256. */
static char *ansi_result(SQLLEN buflen, SQLLEN *cap)
{
    SQLLEN c = buflen > 0 && buflen < ANSI_RESULT_MAX / 3 ? buflen * 3 : ANSI_RESULT_MAX;
    if (c < 256)
        c = 256;
    *cap = c;
    return malloc((size_t)c);
}

/* ------------------------------------------------------------------------ */
/* Text in                                                                   */
/* ------------------------------------------------------------------------ */

SQLRETURN SQL_API lt_ansi_SQLExecDirect(SQLHSTMT stmt, SQLCHAR *text, SQLINTEGER len)
{
    ansi_arg a;
    if (!ansi_arg_make(&a, text, len))
        return ansi_oom(stmt, SQL_HANDLE_STMT);
    SQLRETURN rc = SQLExecDirect(stmt, a.text, (SQLINTEGER)a.len);
    ansi_arg_free(&a);
    return rc;
}

SQLRETURN SQL_API lt_ansi_SQLPrepare(SQLHSTMT stmt, SQLCHAR *text, SQLINTEGER len)
{
    ansi_arg a;
    if (!ansi_arg_make(&a, text, len))
        return ansi_oom(stmt, SQL_HANDLE_STMT);
    SQLRETURN rc = SQLPrepare(stmt, a.text, (SQLINTEGER)a.len);
    ansi_arg_free(&a);
    return rc;
}

SQLRETURN SQL_API lt_ansi_SQLConnect(SQLHDBC dbc, SQLCHAR *dsn, SQLSMALLINT ndsn,
                                     SQLCHAR *uid, SQLSMALLINT nuid,
                                     SQLCHAR *pwd, SQLSMALLINT npwd)
{
    ansi_arg a[3];
    bool ok = ansi_arg_make(&a[0], dsn, ndsn);
    ok = ansi_arg_make(&a[1], uid, nuid) && ok;
    ok = ansi_arg_make(&a[2], pwd, npwd) && ok;
    SQLRETURN rc = ok ? SQLConnect(dbc, a[0].text, (SQLSMALLINT)a[0].len, a[1].text,
                                   (SQLSMALLINT)a[1].len, a[2].text, (SQLSMALLINT)a[2].len)
                      : ansi_oom(dbc, SQL_HANDLE_DBC);
    for (int i = 0; i < 3; i++)
        ansi_arg_free(&a[i]);
    return rc;
}

SQLRETURN SQL_API lt_ansi_SQLDriverConnect(SQLHDBC dbc, SQLHWND hwnd, SQLCHAR *in,
                                           SQLSMALLINT nin, SQLCHAR *out,
                                           SQLSMALLINT outmax, SQLSMALLINT *outlen,
                                           SQLUSMALLINT completion)
{
    ansi_arg a;
    if (!ansi_arg_make(&a, in, nin))
        return ansi_oom(dbc, SQL_HANDLE_DBC);
    SQLLEN cap = ANSI_RESULT_MAX;
    char *u = out != NULL ? malloc((size_t)cap) : NULL;
    if (out != NULL && u == NULL) {
        ansi_arg_free(&a);
        return ansi_oom(dbc, SQL_HANDLE_DBC);
    }
    SQLSMALLINT ulen = 0;
    SQLRETURN rc = SQLDriverConnect(dbc, hwnd, a.text, (SQLSMALLINT)a.len, (SQLCHAR *)u,
                                    out != NULL ? (SQLSMALLINT)cap : 0, &ulen, completion);
    ansi_arg_free(&a);
    if (SQL_SUCCEEDED(rc) && out != NULL) {
        size_t n = ulen < 0 ? 0 : (size_t)ulen < (size_t)cap ? (size_t)ulen : strlen(u);
        rc = ansi_deliver(dbc, SQL_HANDLE_DBC, rc, u, n, out, outmax, outlen, NULL);
    } else if (SQL_SUCCEEDED(rc) && outlen != NULL) {
        *outlen = ulen;
    }
    free(u);
    return rc;
}

/* The catalog functions' (name, length) pairs. */
static bool catalog_args(ansi_arg *a, int n, SQLCHAR **s, const SQLSMALLINT *len)
{
    bool ok = true;
    for (int i = 0; i < n; i++)
        ok = ansi_arg_make(&a[i], s[i], len[i]) && ok;
    return ok;
}

static void catalog_free(ansi_arg *a, int n)
{
    for (int i = 0; i < n; i++)
        ansi_arg_free(&a[i]);
}

#define A(i) a[i].text, (SQLSMALLINT)a[i].len

SQLRETURN SQL_API lt_ansi_SQLTables(SQLHSTMT stmt, SQLCHAR *c, SQLSMALLINT nc, SQLCHAR *s,
                                    SQLSMALLINT ns, SQLCHAR *t, SQLSMALLINT nt,
                                    SQLCHAR *k, SQLSMALLINT nk)
{
    ansi_arg a[4];
    SQLRETURN rc = catalog_args(a, 4, (SQLCHAR *[]){c, s, t, k}, (SQLSMALLINT[]){nc, ns, nt, nk})
                       ? SQLTables(stmt, A(0), A(1), A(2), A(3))
                       : ansi_oom(stmt, SQL_HANDLE_STMT);
    catalog_free(a, 4);
    return rc;
}

SQLRETURN SQL_API lt_ansi_SQLColumns(SQLHSTMT stmt, SQLCHAR *c, SQLSMALLINT nc, SQLCHAR *s,
                                     SQLSMALLINT ns, SQLCHAR *t, SQLSMALLINT nt,
                                     SQLCHAR *k, SQLSMALLINT nk)
{
    ansi_arg a[4];
    SQLRETURN rc = catalog_args(a, 4, (SQLCHAR *[]){c, s, t, k}, (SQLSMALLINT[]){nc, ns, nt, nk})
                       ? SQLColumns(stmt, A(0), A(1), A(2), A(3))
                       : ansi_oom(stmt, SQL_HANDLE_STMT);
    catalog_free(a, 4);
    return rc;
}

SQLRETURN SQL_API lt_ansi_SQLPrimaryKeys(SQLHSTMT stmt, SQLCHAR *c, SQLSMALLINT nc,
                                         SQLCHAR *s, SQLSMALLINT ns, SQLCHAR *t,
                                         SQLSMALLINT nt)
{
    ansi_arg a[3];
    SQLRETURN rc = catalog_args(a, 3, (SQLCHAR *[]){c, s, t}, (SQLSMALLINT[]){nc, ns, nt})
                       ? SQLPrimaryKeys(stmt, A(0), A(1), A(2))
                       : ansi_oom(stmt, SQL_HANDLE_STMT);
    catalog_free(a, 3);
    return rc;
}

SQLRETURN SQL_API lt_ansi_SQLStatistics(SQLHSTMT stmt, SQLCHAR *c, SQLSMALLINT nc,
                                        SQLCHAR *s, SQLSMALLINT ns, SQLCHAR *t,
                                        SQLSMALLINT nt, SQLUSMALLINT unique,
                                        SQLUSMALLINT reserved)
{
    ansi_arg a[3];
    SQLRETURN rc = catalog_args(a, 3, (SQLCHAR *[]){c, s, t}, (SQLSMALLINT[]){nc, ns, nt})
                       ? SQLStatistics(stmt, A(0), A(1), A(2), unique, reserved)
                       : ansi_oom(stmt, SQL_HANDLE_STMT);
    catalog_free(a, 3);
    return rc;
}

SQLRETURN SQL_API lt_ansi_SQLSpecialColumns(SQLHSTMT stmt, SQLUSMALLINT kind, SQLCHAR *c,
                                            SQLSMALLINT nc, SQLCHAR *s, SQLSMALLINT ns,
                                            SQLCHAR *t, SQLSMALLINT nt, SQLUSMALLINT scope,
                                            SQLUSMALLINT nullable)
{
    ansi_arg a[3];
    SQLRETURN rc = catalog_args(a, 3, (SQLCHAR *[]){c, s, t}, (SQLSMALLINT[]){nc, ns, nt})
                       ? SQLSpecialColumns(stmt, kind, A(0), A(1), A(2), scope, nullable)
                       : ansi_oom(stmt, SQL_HANDLE_STMT);
    catalog_free(a, 3);
    return rc;
}

SQLRETURN SQL_API lt_ansi_SQLForeignKeys(SQLHSTMT stmt, SQLCHAR *pc, SQLSMALLINT npc,
                                         SQLCHAR *ps, SQLSMALLINT nps, SQLCHAR *pt,
                                         SQLSMALLINT npt, SQLCHAR *fc, SQLSMALLINT nfc,
                                         SQLCHAR *fs, SQLSMALLINT nfs, SQLCHAR *ft,
                                         SQLSMALLINT nft)
{
    ansi_arg a[6];
    SQLRETURN rc = catalog_args(a, 6, (SQLCHAR *[]){pc, ps, pt, fc, fs, ft},
                                (SQLSMALLINT[]){npc, nps, npt, nfc, nfs, nft})
                       ? SQLForeignKeys(stmt, A(0), A(1), A(2), A(3), A(4), A(5))
                       : ansi_oom(stmt, SQL_HANDLE_STMT);
    catalog_free(a, 6);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Text out                                                                  */
/* ------------------------------------------------------------------------ */

SQLRETURN SQL_API lt_ansi_SQLDescribeCol(SQLHSTMT stmt, SQLUSMALLINT col, SQLCHAR *name,
                                         SQLSMALLINT buflen, SQLSMALLINT *namelen,
                                         SQLSMALLINT *type, SQLULEN *size,
                                         SQLSMALLINT *digits, SQLSMALLINT *nullable)
{
    SQLLEN cap;
    char *u = ansi_result(buflen, &cap);
    if (u == NULL)
        return ansi_oom(stmt, SQL_HANDLE_STMT);
    SQLSMALLINT ulen = 0;
    SQLRETURN rc = SQLDescribeCol(stmt, col, (SQLCHAR *)u, (SQLSMALLINT)cap, &ulen, type,
                                  size, digits, nullable);
    if (SQL_SUCCEEDED(rc)) {
        /* Names longer than the UTF-8 buffer: ask again with room. */
        if (ulen >= cap && ulen < ANSI_RESULT_MAX) {
            char *v = realloc(u, (size_t)ulen + 1);
            if (v != NULL) {
                u = v;
                cap = ulen + 1;
                rc = SQLDescribeCol(stmt, col, (SQLCHAR *)u, (SQLSMALLINT)cap, &ulen, type,
                                    size, digits, nullable);
            }
        }
        rc = ansi_deliver(stmt, SQL_HANDLE_STMT, SQL_SUCCEEDED(rc) ? SQL_SUCCESS : rc, u,
                          strlen(u), name, buflen, namelen, NULL);
    }
    free(u);
    return rc;
}

/* SQLGetDiag* post nothing: a cut value says so by its return code. */
static SQLRETURN ansi_quiet_result(SQLRETURN rc, const char *u, size_t n, SQLPOINTER value,
                                   SQLLEN buflen, SQLSMALLINT *outlen)
{
    char *a = lt_narrow_same(u, n) ? NULL : lt_narrow_from_utf8(u, n, &n);
    const char *s = a != NULL ? a : u;
    n = strlen(s);
    if (outlen != NULL)
        *outlen = (SQLSMALLINT)(n > 32767 ? 32767 : n);
    if (value != NULL && buflen > 0) {
        size_t take = lt_narrow_fit(s, n, (size_t)buflen - 1);
        memcpy(value, s, take);
        ((char *)value)[take] = '\0';
        rc = take < n ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
    }
    free(a);
    return rc;
}

/* A string-valued result: the driver's call `rc` filled `u` (UTF-8, `cap`
** bytes).  Non-strings never come here. */
static SQLRETURN ansi_string_result(SQLHANDLE handle, SQLSMALLINT type, SQLRETURN rc,
                                    const char *u, SQLLEN cap, SQLPOINTER value,
                                    SQLLEN buflen, SQLSMALLINT *outlen, bool post)
{
    if (!SQL_SUCCEEDED(rc) || (value == NULL && outlen == NULL))
        return rc;
    size_t n = strnlen(u, (size_t)cap);
    if (post)
        return ansi_deliver(handle, type, rc, u, n, value, buflen, outlen, NULL);
    return ansi_quiet_result(rc, u, n, value, buflen, outlen);
}

SQLRETURN SQL_API lt_ansi_SQLGetInfo(SQLHDBC dbc, SQLUSMALLINT info, SQLPOINTER value,
                                     SQLSMALLINT buflen, SQLSMALLINT *outlen)
{
    if (!lt_info_is_string(info) || buflen < 0)
        return SQLGetInfo(dbc, info, value, buflen, outlen);
    char *u = calloc(ANSI_RESULT_MAX, 1);
    if (u == NULL)
        return ansi_oom(dbc, SQL_HANDLE_DBC);
    SQLRETURN rc = SQLGetInfo(dbc, info, u, ANSI_RESULT_MAX, NULL);
    rc = ansi_string_result(dbc, SQL_HANDLE_DBC, rc, u, ANSI_RESULT_MAX, value, buflen,
                            outlen, true);
    free(u);
    return rc;
}

SQLRETURN SQL_API lt_ansi_SQLColAttribute(SQLHSTMT stmt, SQLUSMALLINT col, SQLUSMALLINT field,
                                          SQLPOINTER value, SQLSMALLINT buflen,
                                          SQLSMALLINT *outlen, SQLLEN *num)
{
    if (!lt_col_attr_is_string(field) || buflen < 0)
        return SQLColAttribute(stmt, col, field, value, buflen, outlen, num);
    char *u = calloc(ANSI_RESULT_MAX, 1);
    if (u == NULL)
        return ansi_oom(stmt, SQL_HANDLE_STMT);
    SQLRETURN rc = SQLColAttribute(stmt, col, field, u, ANSI_RESULT_MAX, NULL, num);
    rc = ansi_string_result(stmt, SQL_HANDLE_STMT, rc, u, ANSI_RESULT_MAX, value, buflen,
                            outlen, true);
    free(u);
    return rc;
}

SQLRETURN SQL_API lt_ansi_SQLGetDiagField(SQLSMALLINT htype, SQLHANDLE handle, SQLSMALLINT rec,
                                          SQLSMALLINT field, SQLPOINTER value,
                                          SQLSMALLINT buflen, SQLSMALLINT *outlen)
{
    if (!lt_diag_field_is_string(field) || buflen < 0)
        return SQLGetDiagField(htype, handle, rec, field, value, buflen, outlen);
    char u[4096] = "";
    SQLRETURN rc = SQLGetDiagField(htype, handle, rec, field, u, (SQLSMALLINT)sizeof u, NULL);
    return ansi_string_result(handle, htype, rc, u, (SQLLEN)sizeof u, value, buflen, outlen,
                              false);
}

SQLRETURN SQL_API lt_ansi_SQLGetDiagRec(SQLSMALLINT htype, SQLHANDLE handle, SQLSMALLINT rec,
                                        SQLCHAR *state, SQLINTEGER *native, SQLCHAR *msg,
                                        SQLSMALLINT buflen, SQLSMALLINT *msglen)
{
    if (buflen < 0)
        return SQLGetDiagRec(htype, handle, rec, state, native, msg, buflen, msglen);
    char u[4096] = "";
    SQLRETURN rc = SQLGetDiagRec(htype, handle, rec, state, native, (SQLCHAR *)u,
                                 (SQLSMALLINT)sizeof u, NULL);
    return ansi_string_result(handle, htype, rc, u, (SQLLEN)sizeof u, msg, buflen, msglen,
                              false);
}

/* A string result with a 32-bit length (attributes, descriptor fields). */
static SQLRETURN ansi_string_result32(SQLHANDLE handle, SQLSMALLINT type, SQLRETURN rc,
                                      const char *u, SQLLEN cap, SQLPOINTER value,
                                      SQLLEN buflen, SQLINTEGER *outlen)
{
    if (!SQL_SUCCEEDED(rc) || (value == NULL && outlen == NULL))
        return rc;
    return ansi_deliver(handle, type, rc, u, strnlen(u, (size_t)cap), value, buflen, NULL,
                        outlen);
}

/* ------------------------------------------------------------------------ */
/* More text in and out: browsing, catalogs, attributes, descriptors,        */
/* cursor names                                                              */
/* ------------------------------------------------------------------------ */

SQLRETURN SQL_API lt_ansi_SQLBrowseConnect(SQLHDBC dbc, SQLCHAR *in, SQLSMALLINT nin,
                                           SQLCHAR *out, SQLSMALLINT outmax,
                                           SQLSMALLINT *outlen)
{
    if (outmax < 0)   /* HY090, as the driver says it */
        return SQLBrowseConnect(dbc, in, nin, out, outmax, outlen);
    ansi_arg a;
    if (!ansi_arg_make(&a, in, nin))
        return ansi_oom(dbc, SQL_HANDLE_DBC);
    bool want = out != NULL || outlen != NULL;
    char *u = want ? calloc(ANSI_RESULT_MAX, 1) : NULL;
    if (want && u == NULL) {
        ansi_arg_free(&a);
        return ansi_oom(dbc, SQL_HANDLE_DBC);
    }
    SQLSMALLINT ulen = 0;
    SQLRETURN rc = SQLBrowseConnect(dbc, a.text, (SQLSMALLINT)a.len, (SQLCHAR *)u,
                                    want ? ANSI_RESULT_MAX : 0, &ulen);
    ansi_arg_free(&a);
    /* SQL_NEED_DATA comes with the keywords still wanted: convert them too. */
    if (want && (SQL_SUCCEEDED(rc) || rc == SQL_NEED_DATA))
        rc = ansi_deliver(dbc, SQL_HANDLE_DBC, rc, u, strnlen(u, ANSI_RESULT_MAX), out,
                          outmax, outlen, NULL);
    free(u);
    return rc;
}

SQLRETURN SQL_API lt_ansi_SQLNativeSql(SQLHDBC dbc, SQLCHAR *in, SQLINTEGER nin, SQLCHAR *out,
                                       SQLINTEGER outmax, SQLINTEGER *outlen)
{
    ansi_arg a;
    if (!ansi_arg_make(&a, in, nin))
        return ansi_oom(dbc, SQL_HANDLE_DBC);
    /* First the UTF-8 length, then the text in a buffer that holds it. */
    SQLINTEGER ulen = 0;
    SQLRETURN rc = SQLNativeSql(dbc, a.text, (SQLINTEGER)a.len, NULL, 0, &ulen);
    if (SQL_SUCCEEDED(rc) && outmax >= 0 && (out != NULL || outlen != NULL)) {
        char *u = malloc((size_t)(ulen < 0 ? 0 : ulen) + 1);
        if (u == NULL) {
            rc = ansi_oom(dbc, SQL_HANDLE_DBC);
        } else {
            rc = SQLNativeSql(dbc, a.text, (SQLINTEGER)a.len, (SQLCHAR *)u, ulen + 1, &ulen);
            rc = ansi_string_result32(dbc, SQL_HANDLE_DBC, rc, u, ulen + 1, out, outmax,
                                      outlen);
            free(u);
        }
    } else if (!(SQL_SUCCEEDED(rc) && outmax >= 0)) {
        /* Errors (and a negative buffer length) as the driver reports them. */
        rc = SQLNativeSql(dbc, a.text, (SQLINTEGER)a.len, out, outmax, outlen);
    }
    ansi_arg_free(&a);
    return rc;
}

SQLRETURN SQL_API lt_ansi_SQLColumnPrivileges(SQLHSTMT stmt, SQLCHAR *c, SQLSMALLINT nc,
                                              SQLCHAR *s, SQLSMALLINT ns, SQLCHAR *t,
                                              SQLSMALLINT nt, SQLCHAR *k, SQLSMALLINT nk)
{
    ansi_arg a[4];
    SQLRETURN rc = catalog_args(a, 4, (SQLCHAR *[]){c, s, t, k}, (SQLSMALLINT[]){nc, ns, nt, nk})
                       ? SQLColumnPrivileges(stmt, A(0), A(1), A(2), A(3))
                       : ansi_oom(stmt, SQL_HANDLE_STMT);
    catalog_free(a, 4);
    return rc;
}

SQLRETURN SQL_API lt_ansi_SQLTablePrivileges(SQLHSTMT stmt, SQLCHAR *c, SQLSMALLINT nc,
                                             SQLCHAR *s, SQLSMALLINT ns, SQLCHAR *t,
                                             SQLSMALLINT nt)
{
    ansi_arg a[3];
    SQLRETURN rc = catalog_args(a, 3, (SQLCHAR *[]){c, s, t}, (SQLSMALLINT[]){nc, ns, nt})
                       ? SQLTablePrivileges(stmt, A(0), A(1), A(2))
                       : ansi_oom(stmt, SQL_HANDLE_STMT);
    catalog_free(a, 3);
    return rc;
}

SQLRETURN SQL_API lt_ansi_SQLProcedures(SQLHSTMT stmt, SQLCHAR *c, SQLSMALLINT nc, SQLCHAR *s,
                                        SQLSMALLINT ns, SQLCHAR *p, SQLSMALLINT np)
{
    ansi_arg a[3];
    SQLRETURN rc = catalog_args(a, 3, (SQLCHAR *[]){c, s, p}, (SQLSMALLINT[]){nc, ns, np})
                       ? SQLProcedures(stmt, A(0), A(1), A(2))
                       : ansi_oom(stmt, SQL_HANDLE_STMT);
    catalog_free(a, 3);
    return rc;
}

SQLRETURN SQL_API lt_ansi_SQLProcedureColumns(SQLHSTMT stmt, SQLCHAR *c, SQLSMALLINT nc,
                                              SQLCHAR *s, SQLSMALLINT ns, SQLCHAR *p,
                                              SQLSMALLINT np, SQLCHAR *k, SQLSMALLINT nk)
{
    ansi_arg a[4];
    SQLRETURN rc = catalog_args(a, 4, (SQLCHAR *[]){c, s, p, k}, (SQLSMALLINT[]){nc, ns, np, nk})
                       ? SQLProcedureColumns(stmt, A(0), A(1), A(2), A(3))
                       : ansi_oom(stmt, SQL_HANDLE_STMT);
    catalog_free(a, 4);
    return rc;
}

SQLRETURN SQL_API lt_ansi_SQLGetConnectAttr(SQLHDBC dbc, SQLINTEGER attr, SQLPOINTER value,
                                            SQLINTEGER buflen, SQLINTEGER *outlen)
{
    if (!lt_connect_attr_is_string(attr) || buflen < 0)
        return SQLGetConnectAttr(dbc, attr, value, buflen, outlen);
    char *u = calloc(ANSI_RESULT_MAX, 1);
    if (u == NULL)
        return ansi_oom(dbc, SQL_HANDLE_DBC);
    SQLRETURN rc = SQLGetConnectAttr(dbc, attr, u, ANSI_RESULT_MAX, NULL);
    rc = ansi_string_result32(dbc, SQL_HANDLE_DBC, rc, u, ANSI_RESULT_MAX, value, buflen,
                              outlen);
    free(u);
    return rc;
}

SQLRETURN SQL_API lt_ansi_SQLSetConnectAttr(SQLHDBC dbc, SQLINTEGER attr, SQLPOINTER value,
                                            SQLINTEGER len)
{
    if (!lt_connect_attr_is_string(attr))
        return SQLSetConnectAttr(dbc, attr, value, len);
    ansi_arg a;
    if (!ansi_arg_make(&a, value, len))
        return ansi_oom(dbc, SQL_HANDLE_DBC);
    SQLRETURN rc = SQLSetConnectAttr(dbc, attr, a.text, (SQLINTEGER)a.len);
    ansi_arg_free(&a);
    return rc;
}

SQLRETURN SQL_API lt_ansi_SQLGetDescField(SQLHDESC desc, SQLSMALLINT rec, SQLSMALLINT field,
                                          SQLPOINTER value, SQLINTEGER buflen,
                                          SQLINTEGER *outlen)
{
    if (!lt_desc_field_is_string(field) || buflen < 0)
        return SQLGetDescField(desc, rec, field, value, buflen, outlen);
    char *u = calloc(ANSI_RESULT_MAX, 1);
    if (u == NULL)
        return ansi_oom(desc, SQL_HANDLE_DESC);
    SQLRETURN rc = SQLGetDescField(desc, rec, field, u, ANSI_RESULT_MAX, NULL);
    rc = ansi_string_result32(desc, SQL_HANDLE_DESC, rc, u, ANSI_RESULT_MAX, value, buflen,
                              outlen);
    free(u);
    return rc;
}

SQLRETURN SQL_API lt_ansi_SQLSetDescField(SQLHDESC desc, SQLSMALLINT rec, SQLSMALLINT field,
                                          SQLPOINTER value, SQLINTEGER len)
{
    if (!lt_desc_field_is_string(field))
        return SQLSetDescField(desc, rec, field, value, len);
    ansi_arg a;
    if (!ansi_arg_make(&a, value, len))
        return ansi_oom(desc, SQL_HANDLE_DESC);
    SQLRETURN rc = SQLSetDescField(desc, rec, field, a.text, (SQLINTEGER)a.len);
    ansi_arg_free(&a);
    return rc;
}

SQLRETURN SQL_API lt_ansi_SQLGetDescRec(SQLHDESC desc, SQLSMALLINT rec, SQLCHAR *name,
                                        SQLSMALLINT buflen, SQLSMALLINT *namelen,
                                        SQLSMALLINT *type, SQLSMALLINT *subtype,
                                        SQLLEN *length, SQLSMALLINT *precision,
                                        SQLSMALLINT *scale, SQLSMALLINT *nullable)
{
    if ((name == NULL && namelen == NULL) || buflen < 0)
        return SQLGetDescRec(desc, rec, name, buflen, namelen, type, subtype, length,
                             precision, scale, nullable);
    char *u = calloc(ANSI_RESULT_MAX, 1);
    if (u == NULL)
        return ansi_oom(desc, SQL_HANDLE_DESC);
    SQLRETURN rc = SQLGetDescRec(desc, rec, (SQLCHAR *)u, ANSI_RESULT_MAX, NULL, type,
                                 subtype, length, precision, scale, nullable);
    rc = ansi_string_result(desc, SQL_HANDLE_DESC, rc, u, ANSI_RESULT_MAX, name, buflen,
                            namelen, true);
    free(u);
    return rc;
}

SQLRETURN SQL_API lt_ansi_SQLGetCursorName(SQLHSTMT stmt, SQLCHAR *name, SQLSMALLINT buflen,
                                           SQLSMALLINT *namelen)
{
    if (buflen < 0)
        return SQLGetCursorName(stmt, name, buflen, namelen);
    char u[512] = "";
    SQLRETURN rc = SQLGetCursorName(stmt, (SQLCHAR *)u, (SQLSMALLINT)sizeof u, NULL);
    return ansi_string_result(stmt, SQL_HANDLE_STMT, rc, u, (SQLLEN)sizeof u, name, buflen,
                              namelen, true);
}

SQLRETURN SQL_API lt_ansi_SQLSetCursorName(SQLHSTMT stmt, SQLCHAR *name, SQLSMALLINT len)
{
    ansi_arg a;
    if (!ansi_arg_make(&a, name, len))
        return ansi_oom(stmt, SQL_HANDLE_STMT);
    SQLRETURN rc = SQLSetCursorName(stmt, a.text, (SQLSMALLINT)a.len);
    ansi_arg_free(&a);
    return rc;
}
