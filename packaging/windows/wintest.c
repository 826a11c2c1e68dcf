/*
** wintest.c — a Windows ODBC client that loads lectorodbc.dll itself and
** prints one query's result as canonical CSV (../shared/corpus/README.md).
**
**   wintest.exe [--ansi] DLL CONNECTION-STRING QUERY
**   wintest.exe --add-dsn DLL "DSN=name;Database=path;KEY=VALUE..."
**
** The second form calls the DLL's ConfigDSN (ODBC_ADD_DSN for the driver
** Lector) as odbcconf or the ODBC administrator would, which writes the data
** source to the registry through odbccp32.
**
** It makes the calls the Windows driver manager makes for a Unicode
** application: SQLAllocHandle, SQLSetEnvAttr(ODBC 3), SQLDriverConnectW,
** SQLExecDirectW, SQLNumResultCols, SQLDescribeColW, SQLFetch and SQLGetData
** (SQL_C_WCHAR, in pieces; binary values arrive as hex, as ODBC converts
** them).  It calls the DLL
** directly (LoadLibrary/GetProcAddress) because under Wine odbc32.dll hands
** every connection to the host's unixODBC, which cannot load a Windows DLL.
** Exit status 0, or 1 with the driver's diagnostics on stderr.
**
** With --ansi it is an ANSI application instead: the connection string and
** query go to SQLDriverConnect and SQLExecDirect in the ANSI code page
** (GetACP()), column names come from SQLDescribeCol, values from SQLGetData
** as SQL_C_CHAR in small pieces, and the CSV is written in the code page, as
** such an application sees it.  Its arguments are UTF-8 with %XX escapes
** (Wine reads a command line as UTF-8 only under a UTF-8 host locale, and
** a Cyrillic or Chinese test runs under one the host may lack); an argument
** the code page cannot hold is an error (exit status 3).
**
**   wintest.exe --ansi-param DLL CONNECTION-STRING TABLE COLUMN VALUE CURSOR PARAM-NAME
**
** is an ANSI application too, testing the text that is not result data: a
** SQL_C_CHAR parameter (bound, and sent in pieces), SQLBrowseConnect,
** SQLNativeSql, a cursor name and descriptor names (browse_test and
** param_test; arguments escaped as for --ansi).
*/
#include <windows.h>
#include <shellapi.h>
#include <sql.h>
#include <sqlext.h>
#include <odbcinst.h>

#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

typedef BOOL (WINAPI *config_dsn_fn)(HWND, WORD, LPCSTR, LPCSTR);
typedef SQLRETURN (SQL_API *alloc_handle_fn)(SQLSMALLINT, SQLHANDLE, SQLHANDLE *);
typedef SQLRETURN (SQL_API *free_handle_fn)(SQLSMALLINT, SQLHANDLE);
typedef SQLRETURN (SQL_API *set_env_attr_fn)(SQLHENV, SQLINTEGER, SQLPOINTER, SQLINTEGER);
typedef SQLRETURN (SQL_API *driver_connect_fn)(SQLHDBC, SQLHWND, SQLWCHAR *, SQLSMALLINT,
                                               SQLWCHAR *, SQLSMALLINT, SQLSMALLINT *,
                                               SQLUSMALLINT);
typedef SQLRETURN (SQL_API *disconnect_fn)(SQLHDBC);
typedef SQLRETURN (SQL_API *exec_direct_fn)(SQLHSTMT, SQLWCHAR *, SQLINTEGER);
typedef SQLRETURN (SQL_API *num_result_cols_fn)(SQLHSTMT, SQLSMALLINT *);
typedef SQLRETURN (SQL_API *describe_col_fn)(SQLHSTMT, SQLUSMALLINT, SQLWCHAR *, SQLSMALLINT,
                                             SQLSMALLINT *, SQLSMALLINT *, SQLULEN *,
                                             SQLSMALLINT *, SQLSMALLINT *);
typedef SQLRETURN (SQL_API *fetch_fn)(SQLHSTMT);
typedef SQLRETURN (SQL_API *get_data_fn)(SQLHSTMT, SQLUSMALLINT, SQLSMALLINT, SQLPOINTER,
                                         SQLLEN, SQLLEN *);
typedef SQLRETURN (SQL_API *driver_connect_a_fn)(SQLHDBC, SQLHWND, SQLCHAR *, SQLSMALLINT,
                                                 SQLCHAR *, SQLSMALLINT, SQLSMALLINT *,
                                                 SQLUSMALLINT);
typedef SQLRETURN (SQL_API *exec_direct_a_fn)(SQLHSTMT, SQLCHAR *, SQLINTEGER);
typedef SQLRETURN (SQL_API *describe_col_a_fn)(SQLHSTMT, SQLUSMALLINT, SQLCHAR *, SQLSMALLINT,
                                               SQLSMALLINT *, SQLSMALLINT *, SQLULEN *,
                                               SQLSMALLINT *, SQLSMALLINT *);
typedef SQLRETURN (SQL_API *get_diag_rec_a_fn)(SQLSMALLINT, SQLHANDLE, SQLSMALLINT, SQLCHAR *,
                                               SQLINTEGER *, SQLCHAR *, SQLSMALLINT,
                                               SQLSMALLINT *);
typedef SQLRETURN (SQL_API *col_attribute_a_fn)(SQLHSTMT, SQLUSMALLINT, SQLUSMALLINT, SQLPOINTER,
                                                SQLSMALLINT, SQLSMALLINT *, SQLLEN *);
typedef SQLRETURN (SQL_API *prepare_a_fn)(SQLHSTMT, SQLCHAR *, SQLINTEGER);
typedef SQLRETURN (SQL_API *bind_parameter_fn)(SQLHSTMT, SQLUSMALLINT, SQLSMALLINT, SQLSMALLINT,
                                               SQLSMALLINT, SQLULEN, SQLSMALLINT, SQLPOINTER,
                                               SQLLEN, SQLLEN *);
typedef SQLRETURN (SQL_API *execute_fn)(SQLHSTMT);
typedef SQLRETURN (SQL_API *param_data_fn)(SQLHSTMT, SQLPOINTER *);
typedef SQLRETURN (SQL_API *put_data_fn)(SQLHSTMT, SQLPOINTER, SQLLEN);
typedef SQLRETURN (SQL_API *free_stmt_fn)(SQLHSTMT, SQLUSMALLINT);
typedef SQLRETURN (SQL_API *set_cursor_name_a_fn)(SQLHSTMT, SQLCHAR *, SQLSMALLINT);
typedef SQLRETURN (SQL_API *get_cursor_name_a_fn)(SQLHSTMT, SQLCHAR *, SQLSMALLINT,
                                                  SQLSMALLINT *);
typedef SQLRETURN (SQL_API *get_stmt_attr_fn)(SQLHSTMT, SQLINTEGER, SQLPOINTER, SQLINTEGER,
                                              SQLINTEGER *);
typedef SQLRETURN (SQL_API *set_desc_field_a_fn)(SQLHDESC, SQLSMALLINT, SQLSMALLINT, SQLPOINTER,
                                                 SQLINTEGER);
typedef SQLRETURN (SQL_API *get_desc_field_a_fn)(SQLHDESC, SQLSMALLINT, SQLSMALLINT, SQLPOINTER,
                                                 SQLINTEGER, SQLINTEGER *);
typedef SQLRETURN (SQL_API *get_desc_rec_a_fn)(SQLHDESC, SQLSMALLINT, SQLCHAR *, SQLSMALLINT,
                                               SQLSMALLINT *, SQLSMALLINT *, SQLSMALLINT *,
                                               SQLLEN *, SQLSMALLINT *, SQLSMALLINT *,
                                               SQLSMALLINT *);
typedef SQLRETURN (SQL_API *get_cursor_name_w_fn)(SQLHSTMT, SQLWCHAR *, SQLSMALLINT,
                                                  SQLSMALLINT *);
typedef SQLRETURN (SQL_API *get_desc_field_w_fn)(SQLHDESC, SQLSMALLINT, SQLSMALLINT, SQLPOINTER,
                                                 SQLINTEGER, SQLINTEGER *);
typedef SQLRETURN (SQL_API *native_sql_a_fn)(SQLHDBC, SQLCHAR *, SQLINTEGER, SQLCHAR *,
                                              SQLINTEGER, SQLINTEGER *);
typedef SQLRETURN (SQL_API *browse_connect_a_fn)(SQLHDBC, SQLCHAR *, SQLSMALLINT, SQLCHAR *,
                                                  SQLSMALLINT, SQLSMALLINT *);
typedef SQLRETURN (SQL_API *get_diag_rec_fn)(SQLSMALLINT, SQLHANDLE, SQLSMALLINT, SQLWCHAR *,
                                             SQLINTEGER *, SQLWCHAR *, SQLSMALLINT,
                                             SQLSMALLINT *);

static struct {
    alloc_handle_fn alloc_handle;
    free_handle_fn free_handle;
    set_env_attr_fn set_env_attr;
    driver_connect_fn driver_connect;
    disconnect_fn disconnect;
    exec_direct_fn exec_direct;
    num_result_cols_fn num_result_cols;
    describe_col_fn describe_col;
    fetch_fn fetch;
    get_data_fn get_data;
    get_diag_rec_fn get_diag_rec;
    driver_connect_a_fn driver_connect_a;
    exec_direct_a_fn exec_direct_a;
    describe_col_a_fn describe_col_a;
    get_diag_rec_a_fn get_diag_rec_a;
    col_attribute_a_fn col_attribute_a;
    prepare_a_fn prepare_a;
    bind_parameter_fn bind_parameter;
    execute_fn execute;
    param_data_fn param_data;
    put_data_fn put_data;
    free_stmt_fn free_stmt;
    set_cursor_name_a_fn set_cursor_name_a;
    get_cursor_name_a_fn get_cursor_name_a;
    get_stmt_attr_fn get_stmt_attr;
    set_desc_field_a_fn set_desc_field_a;
    get_desc_field_a_fn get_desc_field_a;
    get_desc_rec_a_fn get_desc_rec_a;
    get_cursor_name_w_fn get_cursor_name_w;
    get_desc_field_w_fn get_desc_field_w;
    native_sql_a_fn native_sql_a;
    browse_connect_a_fn browse_connect_a;
} odbc;

static int ansi;   /* --ansi: the ANSI entry points and SQL_C_CHAR */

/* A growable byte buffer for one CSV field. */
typedef struct text {
    char *p;
    size_t len, cap;
} text;

static void text_add(text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 256;
        while (cap < t->len + n + 1)
            cap *= 2;
        char *p = realloc(t->p, cap);
        if (p == NULL) {
            fputs("wintest: out of memory\n", stderr);
            exit(1);
        }
        t->p = p;
        t->cap = cap;
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = '\0';
}

/* Append UTF-16 `w` (n units) as UTF-8. */
static void text_add_wide(text *t, const SQLWCHAR *w, int n)
{
    if (n <= 0)
        return;
    int bytes = WideCharToMultiByte(CP_UTF8, 0, (const wchar_t *)w, n, NULL, 0, NULL, NULL);
    char *s = malloc((size_t)bytes + 1);
    if (s == NULL || WideCharToMultiByte(CP_UTF8, 0, (const wchar_t *)w, n, s, bytes,
                                         NULL, NULL) != bytes) {
        fputs("wintest: a value is not valid UTF-16\n", stderr);
        exit(1);
    }
    text_add(t, s, (size_t)bytes);
    free(s);
}

static SQLWCHAR *to_wide(const char *s)
{
    int n = MultiByteToWideChar(CP_UTF8, 0, s, -1, NULL, 0);
    SQLWCHAR *w = malloc((size_t)n * sizeof *w);
    if (w == NULL || MultiByteToWideChar(CP_UTF8, 0, s, -1, (wchar_t *)w, n) != n) {
        fputs("wintest: bad argument text\n", stderr);
        exit(1);
    }
    return w;
}

/* `s` (UTF-8) in the ANSI code page; exit status 3 when it cannot be. */
static SQLCHAR *to_ansi(const char *s)
{
    SQLWCHAR *w = to_wide(s);
    BOOL lost = FALSE;
    int n = WideCharToMultiByte(CP_ACP, WC_NO_BEST_FIT_CHARS, (const wchar_t *)w, -1, NULL, 0,
                                NULL, &lost);
    char *a = malloc((size_t)n + 1);
    if (a == NULL || lost || WideCharToMultiByte(CP_ACP, WC_NO_BEST_FIT_CHARS,
                                                 (const wchar_t *)w, -1, a, n, NULL,
                                                 &lost) != n || lost) {
        fprintf(stderr, "wintest: \"%s\" has no form in code page %u\n", s, GetACP());
        exit(3);
    }
    free(w);
    return (SQLCHAR *)a;
}

/* Undo --ansi's %XX escapes in place. */
static void unescape(char *s)
{
    char *d = s;
    for (; *s; s++) {
        unsigned v;
        if (s[0] == '%' && s[1] && s[2] && sscanf(s + 1, "%2x", &v) == 1) {
            *d++ = (char)v;
            s += 2;
        } else {
            *d++ = *s;
        }
    }
    *d = '\0';
}

static void diagnostics(SQLSMALLINT type, SQLHANDLE h, const char *what)
{
    fprintf(stderr, "wintest: %s failed\n", what);
    for (SQLSMALLINT i = 1; ansi && i < 10; i++) {
        SQLCHAR state[6], msg[1024];
        SQLINTEGER native = 0;
        SQLSMALLINT len = 0;
        if (!SQL_SUCCEEDED(odbc.get_diag_rec_a(type, h, i, state, &native, msg, 1024, &len)))
            break;
        fprintf(stderr, "  %s: %s\n", (char *)state, (char *)msg);
    }
    for (SQLSMALLINT i = 1; !ansi && i < 10; i++) {
        SQLWCHAR state[6], msg[1024];
        SQLINTEGER native = 0;
        SQLSMALLINT len = 0;
        if (!SQL_SUCCEEDED(odbc.get_diag_rec(type, h, i, state, &native, msg, 1024, &len)))
            break;
        text t = {0};
        text_add_wide(&t, state, 5);
        text_add(&t, ": ", 2);
        text_add_wide(&t, msg, (int)wcslen((const wchar_t *)msg));
        fprintf(stderr, "  %s\n", t.p);
        free(t.p);
    }
    exit(1);
}

#define CHECK(rc, type, h, what) \
    do { if (!SQL_SUCCEEDED(rc)) diagnostics(type, h, what); } while (0)

/* Write one CSV field the corpus way: quoted when it holds a comma, quote,
** CR or LF, or starts or ends with a space; "" for an empty string. */
static void put_field(const text *t, int is_null)
{
    if (is_null)
        return;
    int quote = t->len == 0 || t->p[0] == ' ' || t->p[t->len - 1] == ' ';
    for (size_t i = 0; i < t->len && !quote; i++)   /* values may hold NULs */
        quote = t->p[i] == ',' || t->p[i] == '"' || t->p[i] == '\r' || t->p[i] == '\n';
    if (!quote) {
        fwrite(t->p, 1, t->len, stdout);
        return;
    }
    putchar('"');
    for (size_t i = 0; i < t->len; i++) {
        if (t->p[i] == '"')
            putchar('"');
        putchar(t->p[i]);
    }
    putchar('"');
}

/* --ansi: column `col` of the current row into `t` (code page bytes), read
** as SQL_C_CHAR in pieces of 32 bytes; 1 when NULL. */
static int get_value_ansi(SQLHSTMT stmt, SQLUSMALLINT col, text *t)
{
    t->len = 0;
    text_add(t, "", 0);
    for (int first = 1;; first = 0) {
        SQLCHAR buf[33];
        SQLLEN ind = 0;
        SQLRETURN rc = odbc.get_data(stmt, col, SQL_C_CHAR, buf, sizeof buf, &ind);
        if (rc == SQL_NO_DATA)
            break;
        CHECK(rc, SQL_HANDLE_STMT, stmt, "SQLGetData");
        if (ind == SQL_NULL_DATA)
            return first;
        /* A piece holds min(ind, 32) bytes (values may hold NULs): a cut
        ** one fills the buffer, even inside a double-byte character. */
        size_t room = sizeof buf - 1;
        size_t got = (ind == SQL_NO_TOTAL || (size_t)ind > room) ? room : (size_t)ind;
        if (rc == SQL_SUCCESS_WITH_INFO && ind != SQL_NO_TOTAL && (size_t)ind <= room) {
            fprintf(stderr, "wintest: column %u: a cut piece says %ld bytes remain\n",
                    (unsigned)col, (long)ind);
            exit(1);
        }
        text_add(t, (const char *)buf, got);
        if (rc == SQL_SUCCESS)
            break;
    }
    return 0;
}

/* Column `col` of the current row into `t` (UTF-8), read as SQL_C_WCHAR in
** small pieces to exercise 01004; 1 when NULL.  The UTF-16 units are
** gathered in `w` first: a piece may end inside a surrogate pair. */
static int get_value(SQLHSTMT stmt, SQLUSMALLINT col, text *w, text *t)
{
    if (ansi)
        return get_value_ansi(stmt, col, t);
    w->len = t->len = 0;
    text_add(t, "", 0);
    for (int first = 1;; first = 0) {
        SQLWCHAR buf[65];
        SQLLEN ind = 0;
        SQLRETURN rc = odbc.get_data(stmt, col, SQL_C_WCHAR, buf, sizeof buf, &ind);
        if (rc == SQL_NO_DATA)
            break;
        CHECK(rc, SQL_HANDLE_STMT, stmt, "SQLGetData");
        if (ind == SQL_NULL_DATA)
            return first;
        size_t room = sizeof buf - sizeof buf[0];
        size_t got = (ind == SQL_NO_TOTAL || (size_t)ind > room) ? room : (size_t)ind;
        text_add(w, (const char *)buf, got);
        if (rc == SQL_SUCCESS)
            break;
    }
    text_add_wide(t, (const SQLWCHAR *)w->p, (int)(w->len / sizeof(SQLWCHAR)));
    return 0;
}

/* --ansi: the column's name in the code page, as SQLDescribeCol gave it,
** must come back alike from SQLColAttribute, and cut to a 4-byte buffer
** as its first whole characters with 01004 and the full length. */
static void check_name_ansi(SQLHSTMT stmt, SQLUSMALLINT col, const char *name,
                            SQLSMALLINT len)
{
    char buf[256], small[4];
    SQLSMALLINT n = 0;
    SQLLEN num = 0;
    CHECK(odbc.col_attribute_a(stmt, col, SQL_DESC_NAME, buf, sizeof buf, &n, &num),
          SQL_HANDLE_STMT, stmt, "SQLColAttribute");
    int ok = (size_t)len == strlen(name) && n == len && strcmp(buf, name) == 0;
    SQLSMALLINT type, digits, nullable;
    SQLULEN size;
    SQLRETURN rc = odbc.describe_col_a(stmt, col, (SQLCHAR *)small, sizeof small, &n, &type,
                                       &size, &digits, &nullable);
    size_t k = strlen(small);
    if (len < (SQLSMALLINT)sizeof small)
        ok = ok && rc == SQL_SUCCESS && strcmp(small, name) == 0;
    else
        ok = ok && rc == SQL_SUCCESS_WITH_INFO && n == len && k <= 3 &&
             memcmp(small, name, k) == 0 && (k == 3 || IsDBCSLeadByte((BYTE)name[k]));
    if (!ok) {
        fprintf(stderr, "wintest: column %u: name \"%s\" (%d) read back as \"%s\" (%d), "
                "cut as \"%s\" (rc %d)\n", (unsigned)col, name, len, buf, n, small, rc);
        exit(1);
    }
}

/* Fetch to the end of the result; the number of rows. */
static long count_rows(SQLHSTMT stmt)
{
    long rows = 0;
    for (;;) {
        SQLRETURN rc = odbc.fetch(stmt);
        if (rc == SQL_NO_DATA)
            return rows;
        CHECK(rc, SQL_HANDLE_STMT, stmt, "SQLFetch");
        rows++;
    }
}

/* A string result's length must be the bytes it holds. */
static void check_length(const char *what, const char *s, long len)
{
    if (len < 0 || (size_t)len != strlen(s)) {
        fprintf(stderr, "wintest: %s gave \"%s\" with length %ld\n", what, s, len);
        exit(1);
    }
}

/* What a W call read back must be the ANSI text `a` the application set:
** else the driver kept the code page's bytes as if they were UTF-8. */
static void check_wide(const char *what, const char *a, const SQLWCHAR *w)
{
    wchar_t want[512];
    int n = MultiByteToWideChar(CP_ACP, 0, a, -1, want, 512);
    if (n <= 0 || wcscmp(want, (const wchar_t *)w) != 0) {
        text t = {0};
        text_add_wide(&t, w, (int)wcslen((const wchar_t *)w));
        fprintf(stderr, "wintest: %s read back through the W call as \"%s\"\n", what, t.p);
        exit(1);
    }
}

/* --ansi-param: SQLBrowseConnect in two steps, "Driver=Lector" (the
** driver asks for DATABASE) and then the rest of `conn` (ANSI): it must
** connect, and every output string's length must be its bytes.  Prints
** "browse ok". */
static void browse_test(SQLHENV env, const char *conn)
{
    static const char driver[] = "Driver=Lector;";
    if (strncmp(conn, driver, sizeof driver - 1) != 0) {
        fprintf(stderr, "wintest: --ansi-param wants a string that starts %s\n", driver);
        exit(2);
    }
    SQLHDBC dbc;
    CHECK(odbc.alloc_handle(SQL_HANDLE_DBC, env, &dbc), SQL_HANDLE_ENV, env,
          "SQLAllocHandle(DBC)");
    char out[1024];
    SQLSMALLINT n = -1;
    SQLRETURN rc = odbc.browse_connect_a(dbc, (SQLCHAR *)"Driver=Lector", SQL_NTS,
                                         (SQLCHAR *)out, sizeof out, &n);
    if (rc != SQL_NEED_DATA || strstr(out, "DATABASE") == NULL) {
        fprintf(stderr, "wintest: SQLBrowseConnect(Driver=Lector): rc %d, \"%s\"\n", rc, out);
        exit(1);
    }
    check_length("SQLBrowseConnect (SQL_NEED_DATA)", out, n);
    rc = odbc.browse_connect_a(dbc, (SQLCHAR *)conn + sizeof driver - 1, SQL_NTS,
                               (SQLCHAR *)out, sizeof out, &n);
    CHECK(rc, SQL_HANDLE_DBC, dbc, "SQLBrowseConnect");
    check_length("SQLBrowseConnect", out, n);
    odbc.disconnect(dbc);
    odbc.free_handle(SQL_HANDLE_DBC, dbc);
    printf("browse ok\n");
}

/* --ansi-param: the ANSI calls whose text is not result data.  Prints, in
** the code page, one line each:
**   native SQL    SQLNativeSql of the query below
**   cursor NAME   SQLSetCursorName(CURSOR), read back by SQLGetCursorName
**                 (and by SQLGetCursorNameW, checked here)
**   ipd NAME      SQLSetDescField(IPD, 1, SQL_DESC_NAME, PNAME), read back
**                 (and by SQLGetDescFieldW, checked here)
**   ird NAME      column 1's SQL_DESC_NAME in the IRD (SQLGetDescField)
**   rec NAME      the same by SQLGetDescRec
**   bound N       rows of SELECT COLUMN FROM TABLE WHERE COLUMN = ? with
**                 VALUE bound as SQL_C_CHAR
**   pieces N      the same with VALUE sent by SQLPutData in two pieces, cut
**                 after its first non-ASCII byte (inside a double-byte
**                 character: the driver joins the bytes, then converts) */
static void param_test(SQLHDBC dbc, SQLHSTMT stmt, char **argv)
{
    SQLCHAR *table = to_ansi(argv[0]), *column = to_ansi(argv[1]), *value = to_ansi(argv[2]);
    SQLCHAR *cursor = to_ansi(argv[3]), *pname = to_ansi(argv[4]);
    char query[1024], buf[512];
    snprintf(query, sizeof query, "SELECT \"%s\" FROM \"%s\" WHERE \"%s\" = ?",
             (char *)column, (char *)table, (char *)column);

    SQLINTEGER native_len = 0;
    CHECK(odbc.native_sql_a(dbc, (SQLCHAR *)query, SQL_NTS, (SQLCHAR *)buf, sizeof buf,
                            &native_len), SQL_HANDLE_DBC, dbc, "SQLNativeSql");
    check_length("SQLNativeSql", buf, native_len);
    printf("native %s\n", buf);

    SQLSMALLINT n = 0;
    CHECK(odbc.set_cursor_name_a(stmt, cursor, SQL_NTS), SQL_HANDLE_STMT, stmt,
          "SQLSetCursorName");
    CHECK(odbc.get_cursor_name_a(stmt, (SQLCHAR *)buf, sizeof buf, &n), SQL_HANDLE_STMT, stmt,
          "SQLGetCursorName");
    check_length("SQLGetCursorName", buf, n);
    printf("cursor %s\n", buf);
    SQLWCHAR wbuf[512];
    CHECK(odbc.get_cursor_name_w(stmt, wbuf, 512, &n), SQL_HANDLE_STMT, stmt,
          "SQLGetCursorNameW");
    check_wide("SQLSetCursorName's name", (char *)cursor, wbuf);

    CHECK(odbc.prepare_a(stmt, (SQLCHAR *)query, SQL_NTS), SQL_HANDLE_STMT, stmt, "SQLPrepare");
    SQLLEN ind = SQL_NTS;
    size_t vlen = strlen((char *)value);
    CHECK(odbc.bind_parameter(stmt, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 255, 0, value,
                              (SQLLEN)vlen + 1, &ind), SQL_HANDLE_STMT, stmt,
          "SQLBindParameter");
    SQLHDESC ipd = NULL, ird = NULL;
    CHECK(odbc.get_stmt_attr(stmt, SQL_ATTR_IMP_PARAM_DESC, &ipd, 0, NULL), SQL_HANDLE_STMT,
          stmt, "SQLGetStmtAttr(IPD)");
    CHECK(odbc.set_desc_field_a(ipd, 1, SQL_DESC_NAME, pname, SQL_NTS), SQL_HANDLE_DESC, ipd,
          "SQLSetDescField(IPD, SQL_DESC_NAME)");
    SQLINTEGER len32 = 0;
    CHECK(odbc.get_desc_field_a(ipd, 1, SQL_DESC_NAME, buf, sizeof buf, &len32),
          SQL_HANDLE_DESC, ipd, "SQLGetDescField(IPD, SQL_DESC_NAME)");
    check_length("SQLGetDescField(IPD)", buf, len32);
    printf("ipd %s\n", buf);
    CHECK(odbc.get_desc_field_w(ipd, 1, SQL_DESC_NAME, wbuf, sizeof wbuf, &len32),
          SQL_HANDLE_DESC, ipd, "SQLGetDescFieldW(IPD, SQL_DESC_NAME)");
    check_wide("SQLSetDescField's SQL_DESC_NAME", (char *)pname, wbuf);

    CHECK(odbc.execute(stmt), SQL_HANDLE_STMT, stmt, "SQLExecute");
    CHECK(odbc.get_stmt_attr(stmt, SQL_ATTR_IMP_ROW_DESC, &ird, 0, NULL), SQL_HANDLE_STMT,
          stmt, "SQLGetStmtAttr(IRD)");
    CHECK(odbc.get_desc_field_a(ird, 1, SQL_DESC_NAME, buf, sizeof buf, &len32),
          SQL_HANDLE_DESC, ird, "SQLGetDescField(IRD, SQL_DESC_NAME)");
    check_length("SQLGetDescField(IRD)", buf, len32);
    printf("ird %s\n", buf);
    SQLSMALLINT type, subtype, precision, scale, nullable;
    SQLLEN length;
    CHECK(odbc.get_desc_rec_a(ird, 1, (SQLCHAR *)buf, sizeof buf, &n, &type, &subtype, &length,
                              &precision, &scale, &nullable), SQL_HANDLE_DESC, ird,
          "SQLGetDescRec(IRD)");
    check_length("SQLGetDescRec(IRD)", buf, n);
    printf("rec %s\n", buf);
    printf("bound %ld\n", count_rows(stmt));
    CHECK(odbc.free_stmt(stmt, SQL_CLOSE), SQL_HANDLE_STMT, stmt, "SQLFreeStmt");

    SQLLEN dae = SQL_DATA_AT_EXEC;
    CHECK(odbc.bind_parameter(stmt, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 255, 0,
                              (SQLPOINTER)1, 0, &dae), SQL_HANDLE_STMT, stmt,
          "SQLBindParameter(data at execution)");
    SQLPOINTER token = NULL;
    SQLRETURN rc = odbc.execute(stmt);
    if (rc == SQL_NEED_DATA)
        rc = odbc.param_data(stmt, &token);
    if (rc != SQL_NEED_DATA) {
        fprintf(stderr, "wintest: data at execution: rc %d, not SQL_NEED_DATA\n", rc);
        exit(1);
    }
    /* Cut just after the first non-ASCII byte: inside a double-byte
    ** character, or after a single-byte one. */
    size_t half = vlen / 2;
    for (size_t i = 0; i < vlen; i++)
        if (value[i] >= 0x80) {
            half = i + 1;
            break;
        }
    CHECK(odbc.put_data(stmt, value, (SQLLEN)half), SQL_HANDLE_STMT, stmt, "SQLPutData");
    CHECK(odbc.put_data(stmt, value + half, (SQLLEN)(vlen - half)), SQL_HANDLE_STMT, stmt,
          "SQLPutData");
    CHECK(odbc.param_data(stmt, &token), SQL_HANDLE_STMT, stmt, "SQLParamData");
    printf("pieces %ld\n", count_rows(stmt));
    free(table);
    free(column);
    free(value);
    free(cursor);
    free(pname);
}

static FARPROC need(HMODULE dll, const char *name)
{
    FARPROC f = GetProcAddress(dll, name);
    if (f == NULL) {
        fprintf(stderr, "wintest: the DLL does not export %s\n", name);
        exit(1);
    }
    return f;
}

/* The command line's arguments as UTF-8: main's argv is in the ANSI code
** page, which cannot hold every file or sheet name. */
static char **utf8_arguments(int *argc)
{
    wchar_t **wargv = CommandLineToArgvW(GetCommandLineW(), argc);
    char **argv = calloc((size_t)*argc + 1, sizeof *argv);
    if (wargv == NULL || argv == NULL) {
        fputs("wintest: cannot read the command line\n", stderr);
        exit(1);
    }
    for (int i = 0; i < *argc; i++) {
        text t = {0};
        text_add(&t, "", 0);
        text_add_wide(&t, (const SQLWCHAR *)wargv[i], (int)wcslen(wargv[i]));
        argv[i] = t.p;
    }
    LocalFree(wargv);
    return argv;
}

/* --add-dsn: ConfigDSN with the ';'-separated keywords as its list. */
static int add_dsn(const char *dll_name, const char *keywords)
{
    HMODULE dll = LoadLibraryA(dll_name);
    config_dsn_fn config = dll ? (config_dsn_fn)(void (*)(void))GetProcAddress(dll, "ConfigDSN") : NULL;
    if (config == NULL) {
        fprintf(stderr, "wintest: %s has no ConfigDSN\n", dll_name);
        return 1;
    }
    size_t n = strlen(keywords);
    char *list = calloc(n + 2, 1);   /* "a=1\0b=2\0\0" */
    if (list == NULL)
        return 1;
    for (size_t i = 0; i < n; i++)
        list[i] = keywords[i] == ';' ? '\0' : keywords[i];
    BOOL ok = config(NULL, ODBC_ADD_DSN, "Lector", list);
    free(list);
    if (!ok) {
        fputs("wintest: ConfigDSN failed\n", stderr);
        return 1;
    }
    fputs("wintest: data source added\n", stderr);
    return 0;
}

int main(void)
{
    int argc;
    char **argv = utf8_arguments(&argc);
    if (argc == 4 && strcmp(argv[1], "--add-dsn") == 0)
        return add_dsn(argv[2], argv[3]);
    char **param_args = NULL;
    if (argc == 9 && strcmp(argv[1], "--ansi-param") == 0) {
        param_args = argv + 4;
        argc = 5;   /* DLL CONNECTION-STRING as below; TABLE... in param_args */
        argv[1] = "--ansi";
        for (int i = 5; i < 9; i++)   /* TABLE is unescaped below, as QUERY */
            unescape(argv[i]);
    }
    if (argc == 5 && strcmp(argv[1], "--ansi") == 0) {
        ansi = 1;
        argv++;
        argc--;
        for (int i = 1; i < argc; i++)
            unescape(argv[i]);
    }
    if (argc != 4) {
        fputs("usage: wintest.exe [--ansi] DLL CONNECTION-STRING QUERY\n"
              "       wintest.exe --ansi-param DLL CONNECTION-STRING TABLE COLUMN VALUE CURSOR"
              " PARAM-NAME\n", stderr);
        return 2;
    }
    _setmode(_fileno(stdout), _O_BINARY);   /* LF line ends, as the oracle */
    SQLWCHAR *dll_path = to_wide(argv[1]);
    HMODULE dll = LoadLibraryW((const wchar_t *)dll_path);
    free(dll_path);
    if (dll == NULL) {
        fprintf(stderr, "wintest: cannot load %s (error %lu)\n", argv[1],
                (unsigned long)GetLastError());
        return 1;
    }
    odbc.alloc_handle = (alloc_handle_fn)(void (*)(void))need(dll, "SQLAllocHandle");
    odbc.free_handle = (free_handle_fn)(void (*)(void))need(dll, "SQLFreeHandle");
    odbc.set_env_attr = (set_env_attr_fn)(void (*)(void))need(dll, "SQLSetEnvAttr");
    odbc.driver_connect = (driver_connect_fn)(void (*)(void))need(dll, "SQLDriverConnectW");
    odbc.disconnect = (disconnect_fn)(void (*)(void))need(dll, "SQLDisconnect");
    odbc.exec_direct = (exec_direct_fn)(void (*)(void))need(dll, "SQLExecDirectW");
    odbc.num_result_cols = (num_result_cols_fn)(void (*)(void))need(dll, "SQLNumResultCols");
    odbc.describe_col = (describe_col_fn)(void (*)(void))need(dll, "SQLDescribeColW");
    odbc.fetch = (fetch_fn)(void (*)(void))need(dll, "SQLFetch");
    odbc.get_data = (get_data_fn)(void (*)(void))need(dll, "SQLGetData");
    odbc.get_diag_rec = (get_diag_rec_fn)(void (*)(void))need(dll, "SQLGetDiagRecW");
    odbc.driver_connect_a = (driver_connect_a_fn)(void (*)(void))need(dll, "SQLDriverConnect");
    odbc.exec_direct_a = (exec_direct_a_fn)(void (*)(void))need(dll, "SQLExecDirect");
    odbc.describe_col_a = (describe_col_a_fn)(void (*)(void))need(dll, "SQLDescribeCol");
    odbc.get_diag_rec_a = (get_diag_rec_a_fn)(void (*)(void))need(dll, "SQLGetDiagRec");
    odbc.col_attribute_a = (col_attribute_a_fn)(void (*)(void))need(dll, "SQLColAttribute");
#define NEED(field, type, name) odbc.field = (type)(void (*)(void))need(dll, name)
    NEED(prepare_a, prepare_a_fn, "SQLPrepare");
    NEED(bind_parameter, bind_parameter_fn, "SQLBindParameter");
    NEED(execute, execute_fn, "SQLExecute");
    NEED(param_data, param_data_fn, "SQLParamData");
    NEED(put_data, put_data_fn, "SQLPutData");
    NEED(free_stmt, free_stmt_fn, "SQLFreeStmt");
    NEED(set_cursor_name_a, set_cursor_name_a_fn, "SQLSetCursorName");
    NEED(get_cursor_name_a, get_cursor_name_a_fn, "SQLGetCursorName");
    NEED(get_stmt_attr, get_stmt_attr_fn, "SQLGetStmtAttr");
    NEED(set_desc_field_a, set_desc_field_a_fn, "SQLSetDescField");
    NEED(get_desc_field_a, get_desc_field_a_fn, "SQLGetDescField");
    NEED(get_desc_rec_a, get_desc_rec_a_fn, "SQLGetDescRec");
    NEED(get_cursor_name_w, get_cursor_name_w_fn, "SQLGetCursorNameW");
    NEED(get_desc_field_w, get_desc_field_w_fn, "SQLGetDescFieldW");
    NEED(native_sql_a, native_sql_a_fn, "SQLNativeSql");
    NEED(browse_connect_a, browse_connect_a_fn, "SQLBrowseConnect");
#undef NEED

    SQLHENV env;
    SQLHDBC dbc;
    SQLHSTMT stmt;
    if (!SQL_SUCCEEDED(odbc.alloc_handle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env))) {
        fputs("wintest: SQLAllocHandle(ENV) failed\n", stderr);
        return 1;
    }
    CHECK(odbc.set_env_attr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0),
          SQL_HANDLE_ENV, env, "SQLSetEnvAttr");
    CHECK(odbc.alloc_handle(SQL_HANDLE_DBC, env, &dbc), SQL_HANDLE_ENV, env, "SQLAllocHandle(DBC)");
    SQLWCHAR *conn = to_wide(argv[2]);
    SQLWCHAR *query = to_wide(argv[3]);
    if (ansi) {
        SQLCHAR out[1024];
        SQLSMALLINT outlen = 0;
        SQLCHAR *aconn = to_ansi(argv[2]), *aquery = to_ansi(argv[3]);
        CHECK(odbc.driver_connect_a(dbc, NULL, aconn, SQL_NTS, out, 1024, &outlen,
                                    SQL_DRIVER_NOPROMPT), SQL_HANDLE_DBC, dbc, "SQLDriverConnect");
        if (outlen <= 0 || (size_t)outlen != strlen((char *)out)) {
            fprintf(stderr, "wintest: SQLDriverConnect gave %d bytes for \"%s\"\n", outlen,
                    (char *)out);
            return 1;
        }
        CHECK(odbc.alloc_handle(SQL_HANDLE_STMT, dbc, &stmt), SQL_HANDLE_DBC, dbc,
              "SQLAllocHandle(STMT)");
        if (param_args != NULL) {
            browse_test(env, (const char *)aconn);
            param_test(dbc, stmt, param_args);
            fflush(stdout);
            return 0;
        }
        CHECK(odbc.exec_direct_a(stmt, aquery, SQL_NTS), SQL_HANDLE_STMT, stmt, "SQLExecDirect");
        free(aconn);
        free(aquery);
    } else {
        SQLWCHAR out[1024];
        SQLSMALLINT outlen = 0;
        CHECK(odbc.driver_connect(dbc, NULL, conn, SQL_NTS, out, 1024, &outlen,
                                  SQL_DRIVER_NOPROMPT), SQL_HANDLE_DBC, dbc, "SQLDriverConnectW");
        CHECK(odbc.alloc_handle(SQL_HANDLE_STMT, dbc, &stmt), SQL_HANDLE_DBC, dbc,
              "SQLAllocHandle(STMT)");
        CHECK(odbc.exec_direct(stmt, query, SQL_NTS), SQL_HANDLE_STMT, stmt, "SQLExecDirectW");
    }

    SQLSMALLINT ncols = 0;
    CHECK(odbc.num_result_cols(stmt, &ncols), SQL_HANDLE_STMT, stmt, "SQLNumResultCols");
    text t = {0}, w = {0};
    for (SQLUSMALLINT c = 1; c <= ncols; c++) {
        SQLWCHAR name[256];
        SQLCHAR aname[256];
        SQLSMALLINT namelen = 0, type = 0, digits = 0, nullable = 0;
        SQLULEN size = 0;
        t.len = 0;
        text_add(&t, "", 0);
        if (ansi) {
            CHECK(odbc.describe_col_a(stmt, c, aname, 256, &namelen, &type, &size, &digits,
                                      &nullable), SQL_HANDLE_STMT, stmt, "SQLDescribeCol");
            text_add(&t, (const char *)aname, strlen((char *)aname));
            check_name_ansi(stmt, c, (const char *)aname, namelen);
        } else {
            CHECK(odbc.describe_col(stmt, c, name, 256, &namelen, &type, &size, &digits,
                                    &nullable), SQL_HANDLE_STMT, stmt, "SQLDescribeColW");
            text_add_wide(&t, name, namelen);
        }
        if (c > 1)
            putchar(',');
        put_field(&t, 0);
    }
    putchar('\n');
    long rows = 0;
    for (;;) {
        SQLRETURN rc = odbc.fetch(stmt);
        if (rc == SQL_NO_DATA)
            break;
        CHECK(rc, SQL_HANDLE_STMT, stmt, "SQLFetch");
        for (SQLUSMALLINT c = 1; c <= ncols; c++) {
            int is_null = get_value(stmt, c, &w, &t);
            if (c > 1)
                putchar(',');
            put_field(&t, is_null);
        }
        putchar('\n');
        rows++;
    }
    fflush(stdout);
    odbc.free_handle(SQL_HANDLE_STMT, stmt);
    odbc.disconnect(dbc);
    odbc.free_handle(SQL_HANDLE_DBC, dbc);
    odbc.free_handle(SQL_HANDLE_ENV, env);
    fprintf(stderr, "wintest: %ld rows\n", rows);
    free(t.p);
    free(w.p);
    free(conn);
    free(query);
    FreeLibrary(dll);
    return 0;
}
