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
    if (argc == 5 && strcmp(argv[1], "--ansi") == 0) {
        ansi = 1;
        argv++;
        argc--;
        for (int i = 1; i < argc; i++)
            unescape(argv[i]);
    }
    if (argc != 4) {
        fputs("usage: wintest.exe [--ansi] DLL CONNECTION-STRING QUERY\n", stderr);
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
