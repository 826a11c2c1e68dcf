/*
** e2e_odbc.c — connecting, diagnostics, wide text and result description
** through the driver manager's ODBC API.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

void e2e_diag_get(SQLSMALLINT type, SQLHANDLE h, e2e_diag *out)
{
    out->state[0] = '\0';
    out->text[0] = '\0';
    size_t used = 0;
    for (SQLSMALLINT i = 1; i < 20; i++) {
        SQLCHAR state[6], msg[2048];
        SQLINTEGER native = 0;
        SQLSMALLINT len = 0;
        SQLRETURN rc = SQLGetDiagRec(type, h, i, state, &native, msg,
                                     (SQLSMALLINT)sizeof msg, &len);
        if (!SQL_SUCCEEDED(rc))
            break;
        if (i == 1)
            memcpy(out->state, state, 6);
        int n = snprintf(out->text + used, sizeof out->text - used, "%s%s: %s",
                         i > 1 ? " | " : "", (const char *)state,
                         (const char *)msg);
        if (n < 0 || (size_t)n >= sizeof out->text - used)
            break;
        used += (size_t)n;
    }
    if (!out->state[0])
        snprintf(out->text, sizeof out->text, "(no diagnostic record)");
}

bool e2e_diag_has(SQLSMALLINT type, SQLHANDLE h, const char *state)
{
    for (SQLSMALLINT i = 1; i < 20; i++) {
        SQLCHAR st[6], msg[16];
        SQLINTEGER native = 0;
        SQLSMALLINT len = 0;
        SQLRETURN rc = SQLGetDiagRec(type, h, i, st, &native, msg,
                                     (SQLSMALLINT)sizeof msg, &len);
        if (!SQL_SUCCEEDED(rc))
            return false;
        if (strcmp((const char *)st, state) == 0)
            return true;
    }
    return false;
}

SQLHENV e2e_env_new(void)
{
    SQLHENV env = SQL_NULL_HENV;
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env))) {
        fprintf(stderr, "e2e: SQLAllocHandle(ENV) failed\n");
        exit(2);
    }
    if (!SQL_SUCCEEDED(SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION,
                                     (SQLPOINTER)SQL_OV_ODBC3, 0))) {
        fprintf(stderr, "e2e: SQL_ATTR_ODBC_VERSION failed\n");
        exit(2);
    }
    return env;
}

static SQLHDBC dbc_new(SQLHENV env, e2e_diag *diag)
{
    SQLHDBC dbc = SQL_NULL_HDBC;
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc))) {
        e2e_diag_get(SQL_HANDLE_ENV, env, diag);
        return NULL;
    }
    return dbc;
}

SQLHDBC e2e_connect(SQLHENV env, const char *connstr, bool wide, e2e_diag *diag)
{
    SQLHDBC dbc = dbc_new(env, diag);
    if (!dbc)
        return NULL;
    SQLRETURN rc;
    SQLSMALLINT outlen = 0;
    if (wide) {
        SQLWCHAR *w = e2e_utf8_to_wide(connstr);
        SQLWCHAR out[1024];
        rc = SQLDriverConnectW(dbc, NULL, w, SQL_NTS, out,
                               (SQLSMALLINT)(sizeof out / sizeof out[0]),
                               &outlen, SQL_DRIVER_NOPROMPT);
        free(w);
    } else {
        SQLCHAR out[1024];
        rc = SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, out,
                              (SQLSMALLINT)sizeof out, &outlen,
                              SQL_DRIVER_NOPROMPT);
    }
    if (!SQL_SUCCEEDED(rc)) {
        e2e_diag_get(SQL_HANDLE_DBC, dbc, diag);
        SQLFreeHandle(SQL_HANDLE_DBC, dbc);
        return NULL;
    }
    return dbc;
}

SQLHDBC e2e_connect_dsn(SQLHENV env, const char *dsn, e2e_diag *diag)
{
    SQLHDBC dbc = dbc_new(env, diag);
    if (!dbc)
        return NULL;
    SQLRETURN rc = SQLConnect(dbc, (SQLCHAR *)dsn, SQL_NTS, NULL, 0, NULL, 0);
    if (!SQL_SUCCEEDED(rc)) {
        e2e_diag_get(SQL_HANDLE_DBC, dbc, diag);
        SQLFreeHandle(SQL_HANDLE_DBC, dbc);
        return NULL;
    }
    return dbc;
}

void e2e_disconnect(SQLHDBC dbc)
{
    if (!dbc)
        return;
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
}

/* A connection-string value needs braces when it holds ; { } or begins
** or ends with a space (ODBC's SQLDriverConnect grammar). */
static void add_value(e2e_buf *out, const char *v)
{
    size_t n = strlen(v);
    bool brace = strpbrk(v, ";{}") != NULL ||
                 (n && (v[0] == ' ' || v[n - 1] == ' '));
    if (!brace) {
        e2e_buf_adds(out, v);
        return;
    }
    e2e_buf_adds(out, "{");
    for (const char *p = v; *p; p++) {
        e2e_buf_add(out, p, 1);
        if (*p == '}')
            e2e_buf_add(out, "}", 1);   /* a } inside braces is doubled */
    }
    e2e_buf_adds(out, "}");
}

void e2e_connstr(e2e_buf *out, const char *driver, const char *path,
                 const char *extra)
{
    e2e_buf_clear(out);
    e2e_buf_adds(out, "Driver=");
    add_value(out, driver);
    e2e_buf_adds(out, ";Database=");
    add_value(out, path);
    if (extra && *extra) {
        e2e_buf_adds(out, ";");
        e2e_buf_adds(out, extra);
    }
}

void e2e_select_all(e2e_buf *sql, const char *table)
{
    e2e_buf_clear(sql);
    e2e_buf_adds(sql, "SELECT * FROM \"");
    for (const char *p = table; *p; p++)
        e2e_buf_adds(sql, *p == '"' ? "\"\"" : (char[2]){ *p, 0 });
    e2e_buf_adds(sql, "\"");
}

SQLRETURN e2e_exec(SQLHSTMT st, const char *sql, bool wide)
{
    if (!wide)
        return SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS);
    SQLWCHAR *w = e2e_utf8_to_wide(sql);
    SQLRETURN rc = SQLExecDirectW(st, w, SQL_NTS);
    free(w);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Wide text: UTF-16 when SQLWCHAR has 2 bytes, UTF-32 when it has 4.        */
/* ------------------------------------------------------------------------ */

static void put_utf8(e2e_buf *out, uint32_t c)
{
    char b[4];
    size_t n;
    if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        c = 0xFFFD;
    if (c < 0x80) {
        b[0] = (char)c;
        n = 1;
    } else if (c < 0x800) {
        b[0] = (char)(0xC0 | (c >> 6));
        b[1] = (char)(0x80 | (c & 0x3F));
        n = 2;
    } else if (c < 0x10000) {
        b[0] = (char)(0xE0 | (c >> 12));
        b[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        b[2] = (char)(0x80 | (c & 0x3F));
        n = 3;
    } else {
        b[0] = (char)(0xF0 | (c >> 18));
        b[1] = (char)(0x80 | ((c >> 12) & 0x3F));
        b[2] = (char)(0x80 | ((c >> 6) & 0x3F));
        b[3] = (char)(0x80 | (c & 0x3F));
        n = 4;
    }
    e2e_buf_add(out, b, n);
}

void e2e_wide_to_utf8(e2e_buf *out, const SQLWCHAR *w, size_t nunits)
{
    for (size_t i = 0; i < nunits; i++) {
        uint32_t c = (uint32_t)w[i];
        if (sizeof(SQLWCHAR) == 2 && c >= 0xD800 && c <= 0xDBFF) {
            uint32_t lo = i + 1 < nunits ? (uint32_t)w[i + 1] : 0;
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
                i++;
            } else {
                c = 0xFFFD;
            }
        }
        put_utf8(out, c);
    }
}

/* Decode one UTF-8 sequence at s[*i]; invalid bytes give U+FFFD. */
static uint32_t next_utf8(const unsigned char *s, size_t n, size_t *i)
{
    unsigned char c = s[*i];
    size_t need;
    uint32_t v;
    if (c < 0x80) {
        (*i)++;
        return c;
    } else if ((c & 0xE0) == 0xC0) {
        need = 1;
        v = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        need = 2;
        v = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        need = 3;
        v = c & 0x07;
    } else {
        (*i)++;
        return 0xFFFD;
    }
    if (*i + need >= n) {
        (*i)++;
        return 0xFFFD;
    }
    for (size_t k = 1; k <= need; k++) {
        if ((s[*i + k] & 0xC0) != 0x80) {
            (*i)++;
            return 0xFFFD;
        }
        v = (v << 6) | (s[*i + k] & 0x3F);
    }
    *i += need + 1;
    return v;
}

SQLWCHAR *e2e_utf8_to_wide(const char *s)
{
    size_t n = strlen(s);
    SQLWCHAR *w = malloc((2 * n + 1) * sizeof(SQLWCHAR));
    if (!w) {
        fprintf(stderr, "e2e: out of memory\n");
        exit(2);
    }
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        uint32_t c = next_utf8((const unsigned char *)s, n, &i);
        if (sizeof(SQLWCHAR) == 2 && c >= 0x10000) {
            c -= 0x10000;
            w[o++] = (SQLWCHAR)(0xD800 + (c >> 10));
            w[o++] = (SQLWCHAR)(0xDC00 + (c & 0x3FF));
        } else {
            w[o++] = (SQLWCHAR)c;
        }
    }
    w[o] = 0;
    return w;
}

/* ------------------------------------------------------------------------ */
/* Result description                                                        */
/* ------------------------------------------------------------------------ */

int e2e_describe(SQLHSTMT st, bool wide, e2e_col **cols, e2e_diag *diag)
{
    SQLSMALLINT n = 0;
    *cols = NULL;
    if (!SQL_SUCCEEDED(SQLNumResultCols(st, &n))) {
        e2e_diag_get(SQL_HANDLE_STMT, st, diag);
        return -1;
    }
    e2e_col *c = calloc(n > 0 ? (size_t)n : 1, sizeof *c);
    if (!c) {
        fprintf(stderr, "e2e: out of memory\n");
        exit(2);
    }
    for (SQLSMALLINT i = 0; i < n; i++) {
        SQLSMALLINT namelen = 0;
        SQLRETURN rc;
        if (wide) {
            SQLWCHAR name[256];
            rc = SQLDescribeColW(st, (SQLUSMALLINT)(i + 1), name,
                                 (SQLSMALLINT)(sizeof name / sizeof name[0]),
                                 &namelen, &c[i].type, &c[i].size,
                                 &c[i].digits, &c[i].nullable);
            if (SQL_SUCCEEDED(rc)) {
                e2e_buf b = {0};
                size_t units = namelen < 0 ? 0 : (size_t)namelen;
                if (units > 255)
                    units = 255;
                e2e_wide_to_utf8(&b, name, units);
                snprintf(c[i].name, sizeof c[i].name, "%s", e2e_buf_str(&b));
                e2e_buf_free(&b);
            }
        } else {
            rc = SQLDescribeCol(st, (SQLUSMALLINT)(i + 1), (SQLCHAR *)c[i].name,
                                (SQLSMALLINT)sizeof c[i].name, &namelen,
                                &c[i].type, &c[i].size, &c[i].digits,
                                &c[i].nullable);
        }
        if (!SQL_SUCCEEDED(rc)) {
            e2e_diag_get(SQL_HANDLE_STMT, st, diag);
            free(c);
            return -1;
        }
        c[i].kind = e2e_kind_of(c[i].type);
    }
    *cols = c;
    return n;
}
