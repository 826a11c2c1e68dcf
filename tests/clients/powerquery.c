/*
** powerquery.c — the ODBC calls Power Query (and MSDASQL under Excel) makes
** when it loads a driver's capabilities and browses a source, made here
** through unixODBC's wide API against Lector:
**   - SQLGetInfo for every info type Power Query asks; an error on any of
**     them (180 SQL_RETURN_ESCAPE_CLAUSE and 1750 SQL_DTC_TRANSITION_COST
**     included) aborts its capability load;
**   - SQLGetTypeInfo(SQL_ALL_TYPES) with the WCHAR types;
**   - SQLTables with "TABLE,VIEW" listing worksheets, and the enumeration
**     forms SQL_ALL_CATALOGS, SQL_ALL_SCHEMAS, SQL_ALL_TABLE_TYPES;
**   - SQLGetFunctions(SQL_API_ODBC3_ALL_FUNCTIONS);
**   - SQLColumns and SQLDescribeCol sizes that never under-state the data
**     (MSDASQL rejects a string longer than its column's size).
** Usage: powerquery CORPUS_DIR (driver "Lector" registered in the
** environment's odbcinst.ini).  Prints one line per failed check and a
** closing "N passed, N failed".
*/
#include <sql.h>
#include <sqlext.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SQL_DTC_TRANSITION_COST
#define SQL_DTC_TRANSITION_COST 1750
#endif
#ifndef SQL_RETURN_ESCAPE_CLAUSE
#define SQL_RETURN_ESCAPE_CLAUSE 180
#endif

static int passed, failed;
static SQLHENV env;

static void check(int ok, const char *fmt, ...)
{
    va_list ap;
    if (ok) {
        passed++;
        return;
    }
    failed++;
    printf("FAIL: ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

/* The first diagnostic of a handle, for failure messages. */
static const char *diag(SQLSMALLINT type, SQLHANDLE h)
{
    static char buf[600];
    SQLCHAR state[6] = "", msg[512] = "";
    SQLINTEGER native = 0;
    SQLSMALLINT len = 0;
    if (!SQL_SUCCEEDED(SQLGetDiagRec(type, h, 1, state, &native, msg, sizeof msg, &len)))
        return "(no diagnostic)";
    snprintf(buf, sizeof buf, "[%s] %s", (char *)state, (char *)msg);
    return buf;
}

/* UTF-8 -> SQLWCHAR (UTF-16, 2 bytes under unixODBC); four rotating buffers. */
static SQLWCHAR *W(const char *s)
{
    static SQLWCHAR bufs[4][512];
    static int next;
    SQLWCHAR *w = bufs[next++ % 4];
    const unsigned char *p = (const unsigned char *)s;
    size_t o = 0;
    while (*p && o < 509) {
        unsigned long cp = *p++;
        int more = cp >= 0xF0 ? 3 : cp >= 0xE0 ? 2 : cp >= 0xC0 ? 1 : 0;
        if (more)
            cp &= 0x3F >> more;
        for (; more > 0 && (*p & 0xC0) == 0x80; more--)
            cp = cp << 6 | (*p++ & 0x3F);
        if (cp >= 0x10000) {
            cp -= 0x10000;
            w[o++] = (SQLWCHAR)(0xD800 | cp >> 10);
            w[o++] = (SQLWCHAR)(0xDC00 | (cp & 0x3FF));
        } else {
            w[o++] = (SQLWCHAR)cp;
        }
    }
    w[o] = 0;
    return w;
}

static void narrow(const SQLWCHAR *w, SQLLEN bytes, char *out, size_t cap)
{
    size_t n = bytes < 0 ? 0 : (size_t)bytes / sizeof(SQLWCHAR), i;
    for (i = 0; i < n && i + 1 < cap; i++)
        out[i] = w[i] < 128 ? (char)w[i] : '?';
    out[i] = '\0';
}

static SQLHDBC connect_file(const char *path, const char *extra)
{
    SQLHDBC dbc;
    char cs[2048];
    SQLSMALLINT outlen;
    SQLWCHAR out[1024];
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    snprintf(cs, sizeof cs, "Driver={Lector};Database=%s%s%s", path, extra[0] ? ";" : "", extra);
    if (!SQL_SUCCEEDED(SQLDriverConnectW(dbc, NULL, W(cs), SQL_NTS, out, 1024, &outlen,
                                         SQL_DRIVER_NOPROMPT))) {
        printf("FATAL: cannot connect to %s: %s\n", path, diag(SQL_HANDLE_DBC, dbc));
        exit(2);
    }
    return dbc;
}

/* ---- SQLGetInfo -------------------------------------------------------- */

static void test_getinfo(SQLHDBC dbc)
{
    /* The info types Power Query's ODBC capability load and its query
       folding ask (ODBC 3.8 names), plus the SQL_CONVERT_* family. */
    static const SQLUSMALLINT types[] = {
        SQL_DRIVER_NAME, SQL_DRIVER_VER, SQL_DRIVER_ODBC_VER, SQL_ODBC_VER, SQL_DBMS_NAME,
        SQL_DBMS_VER, SQL_DATA_SOURCE_NAME, SQL_DATABASE_NAME, SQL_SERVER_NAME, SQL_USER_NAME,
        SQL_IDENTIFIER_QUOTE_CHAR, SQL_IDENTIFIER_CASE, SQL_QUOTED_IDENTIFIER_CASE,
        SQL_CATALOG_NAME_SEPARATOR, SQL_CATALOG_TERM, SQL_CATALOG_NAME, SQL_CATALOG_USAGE,
        SQL_CATALOG_LOCATION, SQL_SCHEMA_TERM, SQL_SCHEMA_USAGE, SQL_TABLE_TERM,
        SQL_PROCEDURE_TERM, SQL_GROUP_BY, SQL_ORDER_BY_COLUMNS_IN_SELECT, SQL_NULL_COLLATION,
        SQL_SQL_CONFORMANCE, SQL_ODBC_INTERFACE_CONFORMANCE, SQL_AGGREGATE_FUNCTIONS,
        SQL_STRING_FUNCTIONS, SQL_NUMERIC_FUNCTIONS, SQL_TIMEDATE_FUNCTIONS,
        SQL_SYSTEM_FUNCTIONS, SQL_CONVERT_FUNCTIONS, SQL_TIMEDATE_ADD_INTERVALS,
        SQL_TIMEDATE_DIFF_INTERVALS, SQL_SQL92_PREDICATES, SQL_SQL92_RELATIONAL_JOIN_OPERATORS,
        SQL_SQL92_VALUE_EXPRESSIONS, SQL_SQL92_STRING_FUNCTIONS,
        SQL_SQL92_NUMERIC_VALUE_FUNCTIONS, SQL_SQL92_DATETIME_FUNCTIONS, SQL_OJ_CAPABILITIES,
        SQL_OUTER_JOINS, SQL_LIKE_ESCAPE_CLAUSE, SQL_SEARCH_PATTERN_ESCAPE,
        SQL_SPECIAL_CHARACTERS, SQL_KEYWORDS, SQL_MAX_IDENTIFIER_LEN, SQL_MAX_COLUMN_NAME_LEN,
        SQL_MAX_TABLE_NAME_LEN, SQL_MAX_SCHEMA_NAME_LEN, SQL_MAX_CATALOG_NAME_LEN,
        SQL_MAX_COLUMNS_IN_SELECT, SQL_MAX_STATEMENT_LEN, SQL_CONCAT_NULL_BEHAVIOR,
        SQL_TXN_CAPABLE, SQL_DEFAULT_TXN_ISOLATION, SQL_TXN_ISOLATION_OPTION,
        SQL_CURSOR_COMMIT_BEHAVIOR, SQL_CURSOR_ROLLBACK_BEHAVIOR, SQL_GETDATA_EXTENSIONS,
        SQL_DATA_SOURCE_READ_ONLY, SQL_ACCESSIBLE_TABLES, SQL_ASYNC_MODE, SQL_COLLATION_SEQ,
        SQL_RETURN_ESCAPE_CLAUSE, SQL_DTC_TRANSITION_COST, SQL_ROW_UPDATES,
        SQL_SCROLL_OPTIONS, SQL_STATIC_CURSOR_ATTRIBUTES1, SQL_FORWARD_ONLY_CURSOR_ATTRIBUTES1,
        SQL_BATCH_SUPPORT, SQL_PARAM_ARRAY_ROW_COUNTS, SQL_MULT_RESULT_SETS,
        SQL_EXPRESSIONS_IN_ORDERBY, SQL_COLUMN_ALIAS, SQL_CORRELATION_NAME, SQL_SUBQUERIES,
        SQL_UNION, SQL_NON_NULLABLE_COLUMNS, SQL_NEED_LONG_DATA_LEN, SQL_DATETIME_LITERALS,
        SQL_CONVERT_BIGINT, SQL_CONVERT_BINARY, SQL_CONVERT_BIT, SQL_CONVERT_CHAR,
        SQL_CONVERT_DATE, SQL_CONVERT_DECIMAL, SQL_CONVERT_DOUBLE, SQL_CONVERT_FLOAT,
        SQL_CONVERT_INTEGER, SQL_CONVERT_LONGVARBINARY, SQL_CONVERT_LONGVARCHAR,
        SQL_CONVERT_NUMERIC, SQL_CONVERT_REAL, SQL_CONVERT_SMALLINT, SQL_CONVERT_TIME,
        SQL_CONVERT_TIMESTAMP, SQL_CONVERT_TINYINT, SQL_CONVERT_VARBINARY, SQL_CONVERT_VARCHAR,
        SQL_CONVERT_WCHAR, SQL_CONVERT_WVARCHAR, SQL_CONVERT_WLONGVARCHAR, SQL_CONVERT_GUID,
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        SQLWCHAR buf[1024];
        SQLSMALLINT len = 0;
        memset(buf, 0, sizeof buf);
        SQLRETURN rc = SQLGetInfoW(dbc, types[i], buf, sizeof buf, &len);
        check(SQL_SUCCEEDED(rc), "SQLGetInfoW(%u) returned %d: %s", types[i], rc,
              diag(SQL_HANDLE_DBC, dbc));
    }

    /* Values Power Query acts on. */
    SQLWCHAR s[64];
    char a[64];
    SQLSMALLINT len = 0;
    /* A string's length first, with no buffer (as ADO.NET's bridge does). */
    SQLRETURN rc = SQLGetInfoW(dbc, SQL_DBMS_NAME, NULL, 0, &len);
    check(SQL_SUCCEEDED(rc) && len > 0, "SQLGetInfoW(SQL_DBMS_NAME, NULL, 0): rc %d, length %d",
          rc, len);
    /* A short buffer: truncated, 01004, the full length in bytes. */
    rc = SQLGetInfoW(dbc, SQL_DBMS_NAME, s, 2 * sizeof(SQLWCHAR), &len);
    check(rc == SQL_SUCCESS_WITH_INFO && s[1] == 0 && len >= 2 * (SQLSMALLINT)sizeof(SQLWCHAR),
          "SQLGetInfoW(SQL_DBMS_NAME) into 2 characters: rc %d, length %d", rc, len);
    SQLGetInfoW(dbc, SQL_DRIVER_ODBC_VER, s, sizeof s, &len);
    narrow(s, len, a, sizeof a);
    check(strlen(a) == 5 && a[2] == '.' && strcmp(a, "03.00") >= 0,
          "SQL_DRIVER_ODBC_VER is '%s', not ##.## >= 03.00", a);
    SQLGetInfoW(dbc, SQL_IDENTIFIER_QUOTE_CHAR, s, sizeof s, &len);
    narrow(s, len, a, sizeof a);
    check(strcmp(a, "\"") == 0, "SQL_IDENTIFIER_QUOTE_CHAR is '%s', not '\"'", a);
    SQLGetInfoW(dbc, SQL_DATA_SOURCE_READ_ONLY, s, sizeof s, &len);
    narrow(s, len, a, sizeof a);
    check(strcmp(a, "Y") == 0, "SQL_DATA_SOURCE_READ_ONLY is '%s'", a);
    SQLUINTEGER u = 0xDEADBEEF;
    SQLGetInfoW(dbc, SQL_RETURN_ESCAPE_CLAUSE, &u, sizeof u, NULL);
    /* SQL_RC_NONE: a read-only source has no INSERT to return from. */
    check(u == 0, "SQL_RETURN_ESCAPE_CLAUSE = 0x%x, not SQL_RC_NONE", (unsigned)u);
    u = 0xDEADBEEF;
    SQLGetInfoW(dbc, SQL_DTC_TRANSITION_COST, &u, sizeof u, NULL);
    check(u != 0xDEADBEEF, "SQL_DTC_TRANSITION_COST left its buffer unset");
    u = 0;
    SQLGetInfoW(dbc, SQL_SQL_CONFORMANCE, &u, sizeof u, NULL);
    check(u >= SQL_SC_SQL92_ENTRY, "SQL_SQL_CONFORMANCE = %u", (unsigned)u);
    SQLUSMALLINT us = 0;
    SQLGetInfoW(dbc, SQL_MAX_COLUMN_NAME_LEN, &us, sizeof us, NULL);
    check(us >= 64, "SQL_MAX_COLUMN_NAME_LEN = %u", (unsigned)us);
}

/* ---- SQLGetTypeInfo ---------------------------------------------------- */

static void test_typeinfo(SQLHDBC dbc)
{
    SQLHSTMT st;
    int seen_wchar = 0, seen_wvarchar = 0, seen_wlong = 0, rows = 0;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    SQLRETURN rc = SQLGetTypeInfoW(st, SQL_ALL_TYPES);
    check(SQL_SUCCEEDED(rc), "SQLGetTypeInfoW(SQL_ALL_TYPES): %s", diag(SQL_HANDLE_STMT, st));
    SQLSMALLINT ncols = 0;
    SQLNumResultCols(st, &ncols);
    check(ncols >= 19, "SQLGetTypeInfo has %d columns, not 19", ncols);
    while (SQL_SUCCEEDED(rc) && SQL_SUCCEEDED(SQLFetch(st))) {
        SQLWCHAR name[128];
        char a[128];
        SQLLEN len, ind;
        SQLSMALLINT type = 0;
        SQLINTEGER size = 0;
        rows++;
        SQLGetData(st, 1, SQL_C_WCHAR, name, sizeof name, &len);
        SQLGetData(st, 2, SQL_C_SSHORT, &type, 0, NULL);
        SQLGetData(st, 3, SQL_C_SLONG, &size, 0, &ind);
        narrow(name, len, a, sizeof a);
        check(a[0] != '\0', "SQLGetTypeInfo: a type without TYPE_NAME (DATA_TYPE %d)", type);
        if (type == SQL_WCHAR || type == SQL_WVARCHAR || type == SQL_WLONGVARCHAR ||
            type == SQL_CHAR || type == SQL_VARCHAR)
            check(ind != SQL_NULL_DATA && size > 0, "SQLGetTypeInfo %s: COLUMN_SIZE missing", a);
        seen_wchar |= type == SQL_WCHAR;
        seen_wvarchar |= type == SQL_WVARCHAR;
        seen_wlong |= type == SQL_WLONGVARCHAR;
    }
    check(rows > 0, "SQLGetTypeInfo(SQL_ALL_TYPES) returned no rows");
    check(seen_wchar && seen_wvarchar && seen_wlong,
          "SQLGetTypeInfo lacks wide types (WCHAR %d WVARCHAR %d WLONGVARCHAR %d)",
          seen_wchar, seen_wvarchar, seen_wlong);
    /* Power Query looks each wide type up by itself too. */
    static const SQLSMALLINT wide[] = {SQL_WCHAR, SQL_WVARCHAR, SQL_WLONGVARCHAR};
    for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++) {
        SQLFreeStmt(st, SQL_CLOSE);
        rc = SQLGetTypeInfoW(st, wide[i]);
        rows = 0;
        while (SQL_SUCCEEDED(rc) && SQL_SUCCEEDED(SQLFetch(st)))
            rows++;
        check(rows == 1, "SQLGetTypeInfoW(%d) returned %d rows", wide[i], rows);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* ---- SQLTables --------------------------------------------------------- */

/* Run SQLTablesW with NULL for a NULL argument; count rows and check that
   the columns after `keep` (1-based, 0 = none) are NULL, as the enumeration
   forms require.  `want_type`/`want_name`: a row that must appear. */
static int tables(SQLHDBC dbc, const char *what, const char *cat, const char *sch,
                  const char *tab, const char *typ, int keep, const char *want_name,
                  const char *want_type)
{
    SQLHSTMT st;
    int rows = 0, found = want_name == NULL;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    /* Each argument gets its own buffer: W() rotates four. */
    SQLWCHAR c[128], s[128], t[128], y[128];
    if (cat) memcpy(c, W(cat), sizeof c);
    if (sch) memcpy(s, W(sch), sizeof s);
    if (tab) memcpy(t, W(tab), sizeof t);
    if (typ) memcpy(y, W(typ), sizeof y);
    SQLRETURN rc = SQLTablesW(st, cat ? c : NULL, SQL_NTS, sch ? s : NULL, SQL_NTS,
                              tab ? t : NULL, SQL_NTS, typ ? y : NULL, SQL_NTS);
    check(SQL_SUCCEEDED(rc), "SQLTablesW %s: %s", what, diag(SQL_HANDLE_STMT, st));
    while (SQL_SUCCEEDED(rc) && SQL_SUCCEEDED(SQLFetch(st))) {
        char col[5][256];
        SQLLEN ind[5];
        rows++;
        for (int i = 0; i < 5; i++) {
            SQLWCHAR w[256];
            SQLGetData(st, (SQLUSMALLINT)(i + 1), SQL_C_WCHAR, w, sizeof w, &ind[i]);
            narrow(w, ind[i], col[i], sizeof col[i]);
        }
        if (keep)
            for (int i = 0; i < 4; i++)
                if (i + 1 != keep)
                    check(ind[i] == SQL_NULL_DATA, "SQLTablesW %s: column %d is '%s', not NULL",
                          what, i + 1, col[i]);
        if (want_name && strcmp(col[2], want_name) == 0)
            found = want_type == NULL || strcmp(col[3], want_type) == 0;
        if (typ && keep == 0)
            check(strcmp(col[3], "TABLE") == 0 || strcmp(col[3], "VIEW") == 0,
                  "SQLTablesW %s: type '%s' for %s", what, col[3], col[2]);
    }
    check(found, "SQLTablesW %s: %s not listed as %s", what, want_name ? want_name : "",
          want_type ? want_type : "");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return rows;
}

static void test_tables(const char *corpus)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/xlsb/gen_celltypes_sst.xlsb", corpus);
    SQLHDBC dbc = connect_file(path, "HDR=No");
    int n = tables(dbc, "TABLE,VIEW", NULL, NULL, NULL, "TABLE,VIEW", 0, "Types$", "TABLE");
    check(n >= 2, "SQLTablesW TABLE,VIEW listed %d worksheets", n);
    tables(dbc, "'TABLE','VIEW'", NULL, NULL, "%", "'TABLE','VIEW'", 0, "Offset C5$", "TABLE");
    tables(dbc, "SQL_ALL_CATALOGS", SQL_ALL_CATALOGS, "", "", NULL, 1, NULL, NULL);
    tables(dbc, "SQL_ALL_SCHEMAS", "", SQL_ALL_SCHEMAS, "", NULL, 2, NULL, NULL);
    n = tables(dbc, "SQL_ALL_TABLE_TYPES", "", "", "", SQL_ALL_TABLE_TYPES, 4, NULL, NULL);
    check(n >= 1, "SQLTablesW SQL_ALL_TABLE_TYPES returned no type");
    /* The types listed must include TABLE. */
    SQLHSTMT st;
    int table = 0;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    SQLWCHAR e1[2] = {0}, e2[2] = {0}, e3[2] = {0};
    if (SQL_SUCCEEDED(SQLTablesW(st, e1, 0, e2, 0, e3, 0, W("%"), SQL_NTS)))
        while (SQL_SUCCEEDED(SQLFetch(st))) {
            SQLWCHAR w[64];
            char a[64];
            SQLLEN ind;
            SQLGetData(st, 4, SQL_C_WCHAR, w, sizeof w, &ind);
            narrow(w, ind, a, sizeof a);
            table |= strcmp(a, "TABLE") == 0;
        }
    check(table, "SQL_ALL_TABLE_TYPES does not list TABLE");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
}

/* ---- SQLGetFunctions --------------------------------------------------- */

static void test_functions(SQLHDBC dbc)
{
    SQLUSMALLINT f[SQL_API_ODBC3_ALL_FUNCTIONS_SIZE];
    static const SQLUSMALLINT needed[] = {
        SQL_API_SQLGETINFO, SQL_API_SQLGETTYPEINFO, SQL_API_SQLTABLES, SQL_API_SQLCOLUMNS,
        SQL_API_SQLPRIMARYKEYS, SQL_API_SQLFOREIGNKEYS, SQL_API_SQLSTATISTICS,
        SQL_API_SQLGETDATA, SQL_API_SQLDESCRIBECOL, SQL_API_SQLCOLATTRIBUTE,
        SQL_API_SQLNUMRESULTCOLS, SQL_API_SQLPREPARE, SQL_API_SQLEXECUTE,
        SQL_API_SQLEXECDIRECT, SQL_API_SQLBINDPARAMETER, SQL_API_SQLBINDCOL, SQL_API_SQLFETCH,
        SQL_API_SQLFETCHSCROLL, SQL_API_SQLMORERESULTS, SQL_API_SQLGETDIAGREC,
        SQL_API_SQLGETDIAGFIELD, SQL_API_SQLSETSTMTATTR, SQL_API_SQLGETSTMTATTR,
        SQL_API_SQLSETCONNECTATTR, SQL_API_SQLGETCONNECTATTR, SQL_API_SQLDRIVERCONNECT,
        SQL_API_SQLFREEHANDLE, SQL_API_SQLCLOSECURSOR, SQL_API_SQLNUMPARAMS,
        SQL_API_SQLDESCRIBEPARAM, SQL_API_SQLROWCOUNT, SQL_API_SQLCANCEL, SQL_API_SQLENDTRAN,
    };
    SQLRETURN rc = SQLGetFunctions(dbc, SQL_API_ODBC3_ALL_FUNCTIONS, f);
    check(SQL_SUCCEEDED(rc), "SQLGetFunctions(SQL_API_ODBC3_ALL_FUNCTIONS): %s",
          diag(SQL_HANDLE_DBC, dbc));
    for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++)
        check(SQL_FUNC_EXISTS(f, needed[i]), "SQLGetFunctions: function %u not reported",
              needed[i]);
    SQLUSMALLINT one = 0;
    SQLGetFunctions(dbc, SQL_API_SQLGETINFO, &one);
    check(one == SQL_TRUE, "SQLGetFunctions(SQL_API_SQLGETINFO) = %u", one);
}

/* ---- column sizes ------------------------------------------------------ */

static int is_text(SQLSMALLINT t)
{
    return t == SQL_CHAR || t == SQL_VARCHAR || t == SQL_LONGVARCHAR || t == SQL_WCHAR ||
           t == SQL_WVARCHAR || t == SQL_WLONGVARCHAR;
}

static int is_binary(SQLSMALLINT t)
{
    return t == SQL_BINARY || t == SQL_VARBINARY || t == SQL_LONGVARBINARY;
}

#define MAXCOLS 1024

static void test_sizes(const char *corpus, const char *fmt, const char *file, const char *table,
                       const char *extra)
{
    char path[1024], what[600];
    snprintf(path, sizeof path, "%s/%s/%s", corpus, fmt, file);
    snprintf(what, sizeof what, "%s/%s %s", fmt, file, table);
    SQLHDBC dbc = connect_file(path, extra);
    SQLHSTMT st;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);

    /* SQLColumns: DATA_TYPE (5) and COLUMN_SIZE (7) by ordinal. */
    SQLSMALLINT ctype[MAXCOLS] = {0};
    SQLLEN csize[MAXCOLS];
    int ncat = 0;
    /* TableName is a pattern: escape _ and % with the driver's escape, as
       Power Query does (the name comes from SQLTables). */
    char pattern[1024];
    size_t o = 0;
    for (const char *p = table; *p && o + 2 < sizeof pattern; p++) {
        if (*p == '_' || *p == '%' || *p == '\\')
            pattern[o++] = '\\';
        pattern[o++] = *p;
    }
    pattern[o] = '\0';
    SQLWCHAR tw[512];
    memcpy(tw, W(pattern), sizeof tw);
    SQLRETURN rc = SQLColumnsW(st, NULL, 0, NULL, 0, tw, SQL_NTS, NULL, 0);
    check(SQL_SUCCEEDED(rc), "SQLColumnsW %s: %s", what, diag(SQL_HANDLE_STMT, st));
    while (SQL_SUCCEEDED(rc) && SQL_SUCCEEDED(SQLFetch(st)) && ncat < MAXCOLS) {
        SQLINTEGER size = 0;
        SQLLEN ind;
        SQLGetData(st, 5, SQL_C_SSHORT, &ctype[ncat], 0, NULL);
        SQLGetData(st, 7, SQL_C_SLONG, &size, 0, &ind);
        csize[ncat++] = ind == SQL_NULL_DATA ? -1 : size;
    }
    SQLFreeStmt(st, SQL_CLOSE);

    char sql[1200];
    o = (size_t)snprintf(sql, sizeof sql, "SELECT * FROM \"");
    for (const char *p = table; *p && o + 4 < sizeof sql; p++) {
        if (*p == '"')
            sql[o++] = '"';
        sql[o++] = *p;
    }
    snprintf(sql + o, sizeof sql - o, "\"");
    rc = SQLExecDirectW(st, W(sql), SQL_NTS);
    check(SQL_SUCCEEDED(rc), "SELECT %s: %s", what, diag(SQL_HANDLE_STMT, st));
    SQLSMALLINT ncols = 0;
    SQLNumResultCols(st, &ncols);
    check(ncols == ncat, "%s: SQLColumns lists %d columns, the SELECT has %d", what, ncat, ncols);
    SQLULEN dsize[MAXCOLS];
    SQLSMALLINT dtype[MAXCOLS];
    for (SQLUSMALLINT c = 1; c <= ncols && c <= MAXCOLS; c++) {
        SQLWCHAR name[256];
        SQLSMALLINT nlen, dec, nul;
        SQLDescribeColW(st, c, name, 256, &nlen, &dtype[c - 1], &dsize[c - 1], &dec, &nul);
    }
    int values = 0, bad = 0;
    static SQLWCHAR buf[1 << 20];
    while (SQL_SUCCEEDED(rc) && SQL_SUCCEEDED(SQLFetch(st))) {
        for (SQLUSMALLINT c = 1; c <= ncols && c <= MAXCOLS && c <= ncat; c++) {
            SQLSMALLINT t = ctype[c - 1];
            if (!is_text(t) && !is_binary(t))
                continue;
            SQLLEN ind = 0;
            SQLRETURN g = is_text(t) ? SQLGetData(st, c, SQL_C_WCHAR, buf, sizeof buf, &ind)
                                     : SQLGetData(st, c, SQL_C_BINARY, buf, sizeof buf, &ind);
            if (!SQL_SUCCEEDED(g) || ind == SQL_NULL_DATA)
                continue;
            /* Characters as a Windows client counts them: UTF-16 units. */
            SQLLEN n = is_text(t) ? ind / (SQLLEN)sizeof(SQLWCHAR) : ind;
            values++;
            if (bad < 3 && !(csize[c - 1] >= 0 && n <= csize[c - 1])) {
                bad++;
                check(0, "%s column %d: a value of %ld %s, SQLColumns COLUMN_SIZE %ld", what, c,
                      (long)n, is_text(t) ? "characters" : "bytes", (long)csize[c - 1]);
            }
            if (bad < 3 && !(n <= (SQLLEN)dsize[c - 1])) {
                bad++;
                check(0, "%s column %d: a value of %ld, SQLDescribeCol size %lu", what, c,
                      (long)n, (unsigned long)dsize[c - 1]);
            }
        }
    }
    check(bad == 0 || values == 0, "%s: sizes under-stated", what);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
}

/* Every table of a MANIFEST.tsv with rows, of every format: the sizes check. */
static void test_all_sizes(const char *corpus)
{
    static const char *fmts[] = {"dbf", "sqlite", "xls", "xlsb", "access"};
    for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
        char path[1024], line[8192];
        snprintf(path, sizeof path, "%s/%s/MANIFEST.tsv", corpus, fmts[f]);
        FILE *m = fopen(path, "r");
        if (m == NULL) {
            check(0, "cannot read %s", path);
            continue;
        }
        int tested = 0;
        const char *extra = f == 2 || f == 3 ? "HDR=No" : "";
        if (fgets(line, sizeof line, m) == NULL)
            line[0] = '\0';
        while (fgets(line, sizeof line, m)) {
            char *file = strtok(line, "\t"), *table = strtok(NULL, "\t");
            char *csv = strtok(NULL, "\t"), *rows = strtok(NULL, "\t");
            if (!file || !table || !csv || !rows || strcmp(csv, "-") == 0 || atoi(rows) == 0)
                continue;
            if (strstr(file, "with-password") || strstr(file, "virtual_tables") ||
                strstr(file, "mmssms"))
                continue;   /* need PWD= / modules: covered by the e2e tests */
            if (strcmp(table, "-") == 0) {
                static char stem[512];
                const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
                snprintf(stem, sizeof stem, "%s", base);
                char *dot = strrchr(stem, '.');
                if (dot)
                    *dot = '\0';
                table = stem;
            }
            test_sizes(corpus, fmts[f], file, table, extra);
            tested++;
        }
        fclose(m);
        check(tested > 0, "%s: no table tested for sizes", fmts[f]);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: powerquery CORPUS_DIR\n");
        return 2;
    }
    const char *corpus = argv[1];
    char path[1024];
    SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
    SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3_80, 0);

    snprintf(path, sizeof path, "%s/access/testV1997.mdb", corpus);
    SQLHDBC dbc = connect_file(path, "");
    test_getinfo(dbc);
    test_typeinfo(dbc);
    test_functions(dbc);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);

    test_tables(corpus);
    test_all_sizes(corpus);

    SQLFreeHandle(SQL_HANDLE_ENV, env);
    printf("powerquery: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
