/*
** test_driver_info.c — SQLGetInfo, SQLGetFunctions (driver/info.c), the
** catalog functions' search patterns and result shapes (driver/catalog.c)
** and SQLGetTypeInfo, calling the driver's entry points directly.
**
** SQLGetFunctions is checked against the built liblectorodbc.so: every
** function it claims must be exported, every one it denies must not be.
*/
#include "test_driver_core.h"

#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>

#include "driver/types.h"

/* The engine's keyword list (lexer.h's X-macro). */
#include "driver/sql/lexer.h"
#define KEYWORD_NAME(name, reserved) #name,
static const char *const engine_keywords[] = {SQL_KEYWORD_LIST(KEYWORD_NAME)};
#undef KEYWORD_NAME
#define N_ENGINE_KEYWORDS (sizeof engine_keywords / sizeof *engine_keywords)

/* Every ODBC 3.x info type an application may ask a driver (SQL_ODBC_VER,
** SQL_DM_VER and SQL_DRIVER_HLIB are the driver manager's). */
static const SQLUSMALLINT all_info_types[] = {
    SQL_ACCESSIBLE_PROCEDURES, SQL_ACCESSIBLE_TABLES, SQL_ACTIVE_ENVIRONMENTS,
    SQL_AGGREGATE_FUNCTIONS, SQL_ALTER_DOMAIN, SQL_ALTER_TABLE, SQL_ASYNC_MODE,
    SQL_BATCH_ROW_COUNT, SQL_BATCH_SUPPORT, SQL_BOOKMARK_PERSISTENCE,
    SQL_CATALOG_LOCATION, SQL_CATALOG_NAME, SQL_CATALOG_NAME_SEPARATOR,
    SQL_CATALOG_TERM, SQL_CATALOG_USAGE, SQL_COLLATION_SEQ, SQL_COLUMN_ALIAS,
    SQL_CONCAT_NULL_BEHAVIOR, SQL_CONVERT_BIGINT, SQL_CONVERT_BINARY,
    SQL_CONVERT_BIT, SQL_CONVERT_CHAR, SQL_CONVERT_DATE, SQL_CONVERT_DECIMAL,
    SQL_CONVERT_DOUBLE, SQL_CONVERT_FLOAT, SQL_CONVERT_INTEGER,
    SQL_CONVERT_INTERVAL_YEAR_MONTH, SQL_CONVERT_INTERVAL_DAY_TIME,
    SQL_CONVERT_LONGVARBINARY, SQL_CONVERT_LONGVARCHAR, SQL_CONVERT_NUMERIC,
    SQL_CONVERT_REAL, SQL_CONVERT_SMALLINT, SQL_CONVERT_TIME,
    SQL_CONVERT_TIMESTAMP, SQL_CONVERT_TINYINT, SQL_CONVERT_VARBINARY,
    SQL_CONVERT_VARCHAR, SQL_CONVERT_WCHAR, SQL_CONVERT_WLONGVARCHAR,
    SQL_CONVERT_WVARCHAR, SQL_CONVERT_GUID, SQL_CONVERT_FUNCTIONS,
    SQL_CORRELATION_NAME, SQL_CREATE_ASSERTION, SQL_CREATE_CHARACTER_SET,
    SQL_CREATE_COLLATION, SQL_CREATE_DOMAIN, SQL_CREATE_SCHEMA,
    SQL_CREATE_TABLE, SQL_CREATE_TRANSLATION, SQL_CREATE_VIEW,
    SQL_CURSOR_COMMIT_BEHAVIOR, SQL_CURSOR_ROLLBACK_BEHAVIOR,
    SQL_CURSOR_SENSITIVITY, SQL_DATA_SOURCE_NAME, SQL_DATA_SOURCE_READ_ONLY,
    SQL_DATABASE_NAME, SQL_DATETIME_LITERALS, SQL_DBMS_NAME, SQL_DBMS_VER,
    SQL_DDL_INDEX, SQL_DEFAULT_TXN_ISOLATION, SQL_DESCRIBE_PARAMETER,
    SQL_DRIVER_HDBC, SQL_DRIVER_HENV, SQL_DRIVER_HDESC, SQL_DRIVER_HSTMT,
    SQL_DRIVER_NAME, SQL_DRIVER_ODBC_VER, SQL_DRIVER_VER, SQL_DROP_ASSERTION,
    SQL_DROP_CHARACTER_SET, SQL_DROP_COLLATION, SQL_DROP_DOMAIN,
    SQL_DROP_SCHEMA, SQL_DROP_TABLE, SQL_DROP_TRANSLATION, SQL_DROP_VIEW,
    SQL_DYNAMIC_CURSOR_ATTRIBUTES1, SQL_DYNAMIC_CURSOR_ATTRIBUTES2,
    SQL_EXPRESSIONS_IN_ORDERBY, SQL_FETCH_DIRECTION, SQL_FILE_USAGE,
    SQL_FORWARD_ONLY_CURSOR_ATTRIBUTES1, SQL_FORWARD_ONLY_CURSOR_ATTRIBUTES2,
    SQL_GETDATA_EXTENSIONS, SQL_GROUP_BY, SQL_IDENTIFIER_CASE,
    SQL_IDENTIFIER_QUOTE_CHAR, SQL_INDEX_KEYWORDS, SQL_INFO_SCHEMA_VIEWS,
    SQL_INSERT_STATEMENT, SQL_INTEGRITY, SQL_KEYSET_CURSOR_ATTRIBUTES1,
    SQL_KEYSET_CURSOR_ATTRIBUTES2, SQL_KEYWORDS, SQL_LIKE_ESCAPE_CLAUSE,
    SQL_LOCK_TYPES, SQL_MAX_ASYNC_CONCURRENT_STATEMENTS,
    SQL_MAX_BINARY_LITERAL_LEN, SQL_MAX_CATALOG_NAME_LEN,
    SQL_MAX_CHAR_LITERAL_LEN, SQL_MAX_COLUMN_NAME_LEN,
    SQL_MAX_COLUMNS_IN_GROUP_BY, SQL_MAX_COLUMNS_IN_INDEX,
    SQL_MAX_COLUMNS_IN_ORDER_BY, SQL_MAX_COLUMNS_IN_SELECT,
    SQL_MAX_COLUMNS_IN_TABLE, SQL_MAX_CONCURRENT_ACTIVITIES,
    SQL_MAX_CURSOR_NAME_LEN, SQL_MAX_DRIVER_CONNECTIONS,
    SQL_MAX_IDENTIFIER_LEN, SQL_MAX_INDEX_SIZE, SQL_MAX_PROCEDURE_NAME_LEN,
    SQL_MAX_ROW_SIZE, SQL_MAX_ROW_SIZE_INCLUDES_LONG, SQL_MAX_SCHEMA_NAME_LEN,
    SQL_MAX_STATEMENT_LEN, SQL_MAX_TABLE_NAME_LEN, SQL_MAX_TABLES_IN_SELECT,
    SQL_MAX_USER_NAME_LEN, SQL_MULT_RESULT_SETS, SQL_MULTIPLE_ACTIVE_TXN,
    SQL_NEED_LONG_DATA_LEN, SQL_NON_NULLABLE_COLUMNS, SQL_NULL_COLLATION,
    SQL_NUMERIC_FUNCTIONS, SQL_ODBC_API_CONFORMANCE,
    SQL_ODBC_INTERFACE_CONFORMANCE, SQL_ODBC_SAG_CLI_CONFORMANCE,
    SQL_ODBC_SQL_CONFORMANCE, SQL_OJ_CAPABILITIES,
    SQL_ORDER_BY_COLUMNS_IN_SELECT, SQL_OUTER_JOINS,
    SQL_PARAM_ARRAY_ROW_COUNTS, SQL_PARAM_ARRAY_SELECTS, SQL_POS_OPERATIONS,
    SQL_POSITIONED_STATEMENTS, SQL_PROCEDURE_TERM, SQL_PROCEDURES,
    SQL_QUOTED_IDENTIFIER_CASE, SQL_ROW_UPDATES, SQL_SCHEMA_TERM,
    SQL_SCHEMA_USAGE, SQL_SCROLL_CONCURRENCY, SQL_SCROLL_OPTIONS,
    SQL_SEARCH_PATTERN_ESCAPE, SQL_SERVER_NAME, SQL_SPECIAL_CHARACTERS,
    SQL_SQL_CONFORMANCE, SQL_SQL92_DATETIME_FUNCTIONS,
    SQL_SQL92_FOREIGN_KEY_DELETE_RULE, SQL_SQL92_FOREIGN_KEY_UPDATE_RULE,
    SQL_SQL92_GRANT, SQL_SQL92_NUMERIC_VALUE_FUNCTIONS, SQL_SQL92_PREDICATES,
    SQL_SQL92_RELATIONAL_JOIN_OPERATORS, SQL_SQL92_REVOKE,
    SQL_SQL92_ROW_VALUE_CONSTRUCTOR, SQL_SQL92_STRING_FUNCTIONS,
    SQL_SQL92_VALUE_EXPRESSIONS, SQL_STANDARD_CLI_CONFORMANCE,
    SQL_STATIC_CURSOR_ATTRIBUTES1, SQL_STATIC_CURSOR_ATTRIBUTES2,
    SQL_STATIC_SENSITIVITY, SQL_STRING_FUNCTIONS, SQL_SUBQUERIES,
    SQL_SYSTEM_FUNCTIONS, SQL_TABLE_TERM, SQL_TIMEDATE_ADD_INTERVALS,
    SQL_TIMEDATE_DIFF_INTERVALS, SQL_TIMEDATE_FUNCTIONS, SQL_TXN_CAPABLE,
    SQL_TXN_ISOLATION_OPTION, SQL_UNION, SQL_USER_NAME, SQL_XOPEN_CLI_YEAR,
    SQL_ASYNC_DBC_FUNCTIONS, SQL_ASYNC_NOTIFICATION,
    SQL_DRIVER_AWARE_POOLING_SUPPORTED,
};

typedef struct info_fixture {
    SQLHENV env;
    SQLHDBC dbc;
} info_fixture;

static int setup_dbc(void **state)
{
    info_fixture *f = calloc(1, sizeof *f);
    f->env = new_env();
    assert_ok(SQLAllocHandle(SQL_HANDLE_DBC, f->env, &f->dbc));
    *state = f;
    return 0;
}

static int teardown_dbc(void **state)
{
    info_fixture *f = *state;
    SQLFreeHandle(SQL_HANDLE_DBC, f->dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, f->env);
    free(f);
    return 0;
}

static const char *info_str(SQLHDBC dbc, SQLUSMALLINT type)
{
    static char buf[4096];
    SQLSMALLINT len = -1;
    assert_ok(SQLGetInfo(dbc, type, buf, sizeof buf, &len));
    assert_int_equal(len, strlen(buf));
    return buf;
}

static SQLUSMALLINT info_u16(SQLHDBC dbc, SQLUSMALLINT type)
{
    SQLUSMALLINT v = 0xBEEF;
    SQLSMALLINT len = -1;
    assert_ok(SQLGetInfo(dbc, type, &v, sizeof v, &len));
    assert_int_equal(len, sizeof v);
    return v;
}

static SQLUINTEGER info_u32(SQLHDBC dbc, SQLUSMALLINT type)
{
    SQLUINTEGER v = 0xDEADBEEF;
    SQLSMALLINT len = -1;
    assert_ok(SQLGetInfo(dbc, type, &v, sizeof v, &len));
    assert_int_equal(len, sizeof v);
    return v;
}

static void test_info_values(void **state)
{
    info_fixture *f = *state;
    assert_string_equal(info_str(f->dbc, SQL_DBMS_NAME), "Lector");
    assert_string_equal(info_str(f->dbc, SQL_DATA_SOURCE_READ_ONLY), "Y");
    assert_string_equal(info_str(f->dbc, SQL_IDENTIFIER_QUOTE_CHAR), "\"");
    assert_string_equal(info_str(f->dbc, SQL_SEARCH_PATTERN_ESCAPE), "\\");
    assert_string_equal(info_str(f->dbc, SQL_CATALOG_NAME), "N");
    assert_string_equal(info_str(f->dbc, SQL_ACCESSIBLE_TABLES), "Y");
    assert_string_equal(info_str(f->dbc, SQL_DRIVER_ODBC_VER), "03.80");
    assert_string_equal(info_str(f->dbc, SQL_DRIVER_VER), LT_DRIVER_VERSION);
    assert_int_equal(info_u16(f->dbc, SQL_TXN_CAPABLE), SQL_TC_NONE);
    assert_int_equal(info_u16(f->dbc, SQL_MAX_IDENTIFIER_LEN), 255);
    assert_int_equal(info_u16(f->dbc, SQL_IDENTIFIER_CASE), SQL_IC_MIXED);
    assert_int_equal(info_u32(f->dbc, SQL_GETDATA_EXTENSIONS), LT_GETDATA_EXTENSIONS);
    assert_int_equal(info_u32(f->dbc, SQL_SCROLL_OPTIONS),
                     SQL_SO_FORWARD_ONLY | SQL_SO_STATIC);
    assert_int_equal(info_u32(f->dbc, SQL_ODBC_INTERFACE_CONFORMANCE), SQL_OIC_CORE);
    assert_int_equal(info_u32(f->dbc, SQL_ASYNC_MODE), SQL_AM_NONE);
    assert_int_equal(info_u32(f->dbc, SQL_AGGREGATE_FUNCTIONS),
                     SQL_AF_ALL | SQL_AF_AVG | SQL_AF_COUNT | SQL_AF_DISTINCT | SQL_AF_MAX |
                         SQL_AF_MIN | SQL_AF_SUM);
    assert_true(info_u32(f->dbc, SQL_STATIC_CURSOR_ATTRIBUTES1) & SQL_CA1_ABSOLUTE);
    assert_false(info_u32(f->dbc, SQL_FORWARD_ONLY_CURSOR_ATTRIBUTES1) & SQL_CA1_ABSOLUTE);
    /* not connected: no data source, no database */
    assert_string_equal(info_str(f->dbc, SQL_DATA_SOURCE_NAME), "");
    /* the driver's file: in this test, the test program itself */
    const char *name = info_str(f->dbc, SQL_DRIVER_NAME);
    assert_string_equal(name, "test_driver_info");
}

static void test_info_every_type(void **state)
{
    info_fixture *f = *state;
    for (size_t i = 0; i < sizeof all_info_types / sizeof *all_info_types; i++) {
        char buf[4096];
        SQLSMALLINT len = -1;
        SQLRETURN rc = SQLGetInfo(f->dbc, all_info_types[i], buf, sizeof buf, &len);
        if (rc != SQL_SUCCESS)
            fail_msg("SQLGetInfo(%u): rc %d %s", (unsigned)all_info_types[i], rc,
                     state_of(SQL_HANDLE_DBC, f->dbc, 1));
        assert_true(len >= 0);
    }
}

static void test_info_truncation(void **state)
{
    info_fixture *f = *state;
    char buf[4];
    SQLSMALLINT len = -1;
    assert_int_equal(SQLGetInfo(f->dbc, SQL_DBMS_NAME, buf, sizeof buf, &len),
                     SQL_SUCCESS_WITH_INFO);
    assert_string_equal(buf, "Lec");
    assert_int_equal(len, 6);
    assert_dbc_state(f->dbc, "01004");
    /* no buffer: the length only */
    len = -1;
    assert_ok(SQLGetInfo(f->dbc, SQL_DBMS_NAME, NULL, 0, &len));
    assert_int_equal(len, 6);
    /* unknown info types */
    assert_int_equal(SQLGetInfo(f->dbc, 9999, buf, sizeof buf, &len), SQL_ERROR);
    assert_dbc_state(f->dbc, "HY096");
    assert_int_equal(SQLGetInfo(f->dbc, 65000, buf, sizeof buf, &len), SQL_ERROR);
    assert_dbc_state(f->dbc, "HY096");
    assert_int_equal(SQLGetInfo(NULL, SQL_DBMS_NAME, buf, sizeof buf, &len),
                     SQL_INVALID_HANDLE);
}

/* SQL_KEYWORDS lists exactly the engine's keywords that ODBC does not. */
static bool in_list(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, word, n) == 0)
            return true;
        if (e == NULL)
            break;
        p = e + 1;
    }
    return false;
}

static void test_info_keywords(void **state)
{
    info_fixture *f = *state;
    char ours[4096];
    snprintf(ours, sizeof ours, "%s", info_str(f->dbc, SQL_KEYWORDS));
    for (size_t kw = 0; kw < N_ENGINE_KEYWORDS; kw++) {
        const char *name = engine_keywords[kw];
        /* unixODBC's SQL_ODBC_KEYWORDS lacks the comma after ROWS
        ** ("ROWSSCHEMA"); the ODBC reference lists ROWS */
        bool odbc = in_list(SQL_ODBC_KEYWORDS, name) || strcmp(name, "ROWS") == 0;
        if (odbc == in_list(ours, name))
            fail_msg("keyword %s: %s", name,
                     odbc ? "an ODBC keyword listed in SQL_KEYWORDS"
                          : "missing from SQL_KEYWORDS");
    }
    for (char *p = ours; *p;) {
        char *e = strchr(p, ',');
        if (e)
            *e = '\0';
        bool engine = false;
        for (size_t kw = 0; kw < N_ENGINE_KEYWORDS; kw++)
            engine |= strcmp(engine_keywords[kw], p) == 0;
        if (!engine)
            fail_msg("SQL_KEYWORDS names %s, which the engine does not know", p);
        if (!e)
            break;
        p = e + 1;
    }
}

/* ------------------------------------------------------------------------ */
/* SQLGetFunctions                                                           */
/* ------------------------------------------------------------------------ */

static const struct {
    SQLUSMALLINT id;
    const char *name;
} api_names[] = {
    {SQL_API_SQLALLOCCONNECT, "SQLAllocConnect"},
    {SQL_API_SQLALLOCENV, "SQLAllocEnv"},
    {SQL_API_SQLALLOCHANDLE, "SQLAllocHandle"},
    {SQL_API_SQLALLOCSTMT, "SQLAllocStmt"},
    {SQL_API_SQLBINDCOL, "SQLBindCol"},
    {SQL_API_SQLBINDPARAMETER, "SQLBindParameter"},
    {SQL_API_SQLBROWSECONNECT, "SQLBrowseConnect"},
    {SQL_API_SQLBULKOPERATIONS, "SQLBulkOperations"},
    {SQL_API_SQLCANCEL, "SQLCancel"},
    {SQL_API_SQLCLOSECURSOR, "SQLCloseCursor"},
    {SQL_API_SQLCOLATTRIBUTE, "SQLColAttribute"},
    /* SQL_API_SQLCOLATTRIBUTES is SQLColAttribute's id (6) as well */
    {SQL_API_SQLCOLUMNPRIVILEGES, "SQLColumnPrivileges"},
    {SQL_API_SQLCOLUMNS, "SQLColumns"},
    {SQL_API_SQLCONNECT, "SQLConnect"},
    {SQL_API_SQLCOPYDESC, "SQLCopyDesc"},
    {SQL_API_SQLDESCRIBECOL, "SQLDescribeCol"},
    {SQL_API_SQLDESCRIBEPARAM, "SQLDescribeParam"},
    {SQL_API_SQLDISCONNECT, "SQLDisconnect"},
    {SQL_API_SQLDRIVERCONNECT, "SQLDriverConnect"},
    {SQL_API_SQLENDTRAN, "SQLEndTran"},
    {SQL_API_SQLERROR, "SQLError"},
    {SQL_API_SQLEXECDIRECT, "SQLExecDirect"},
    {SQL_API_SQLEXECUTE, "SQLExecute"},
    {SQL_API_SQLEXTENDEDFETCH, "SQLExtendedFetch"},
    {SQL_API_SQLFETCH, "SQLFetch"},
    {SQL_API_SQLFETCHSCROLL, "SQLFetchScroll"},
    {SQL_API_SQLFOREIGNKEYS, "SQLForeignKeys"},
    {SQL_API_SQLFREECONNECT, "SQLFreeConnect"},
    {SQL_API_SQLFREEENV, "SQLFreeEnv"},
    {SQL_API_SQLFREEHANDLE, "SQLFreeHandle"},
    {SQL_API_SQLFREESTMT, "SQLFreeStmt"},
    {SQL_API_SQLGETCONNECTATTR, "SQLGetConnectAttr"},
    {SQL_API_SQLGETCONNECTOPTION, "SQLGetConnectOption"},
    {SQL_API_SQLGETCURSORNAME, "SQLGetCursorName"},
    {SQL_API_SQLGETDATA, "SQLGetData"},
    {SQL_API_SQLGETDESCFIELD, "SQLGetDescField"},
    {SQL_API_SQLGETDESCREC, "SQLGetDescRec"},
    {SQL_API_SQLGETDIAGFIELD, "SQLGetDiagField"},
    {SQL_API_SQLGETDIAGREC, "SQLGetDiagRec"},
    {SQL_API_SQLGETENVATTR, "SQLGetEnvAttr"},
    {SQL_API_SQLGETFUNCTIONS, "SQLGetFunctions"},
    {SQL_API_SQLGETINFO, "SQLGetInfo"},
    {SQL_API_SQLGETSTMTATTR, "SQLGetStmtAttr"},
    {SQL_API_SQLGETSTMTOPTION, "SQLGetStmtOption"},
    {SQL_API_SQLGETTYPEINFO, "SQLGetTypeInfo"},
    {SQL_API_SQLMORERESULTS, "SQLMoreResults"},
    {SQL_API_SQLNATIVESQL, "SQLNativeSql"},
    {SQL_API_SQLNUMPARAMS, "SQLNumParams"},
    {SQL_API_SQLNUMRESULTCOLS, "SQLNumResultCols"},
    {SQL_API_SQLPARAMDATA, "SQLParamData"},
    {SQL_API_SQLPARAMOPTIONS, "SQLParamOptions"},
    {SQL_API_SQLPREPARE, "SQLPrepare"},
    {SQL_API_SQLPRIMARYKEYS, "SQLPrimaryKeys"},
    {SQL_API_SQLPROCEDURECOLUMNS, "SQLProcedureColumns"},
    {SQL_API_SQLPROCEDURES, "SQLProcedures"},
    {SQL_API_SQLPUTDATA, "SQLPutData"},
    {SQL_API_SQLROWCOUNT, "SQLRowCount"},
    {SQL_API_SQLSETCONNECTATTR, "SQLSetConnectAttr"},
    {SQL_API_SQLSETCONNECTOPTION, "SQLSetConnectOption"},
    {SQL_API_SQLSETCURSORNAME, "SQLSetCursorName"},
    {SQL_API_SQLSETDESCFIELD, "SQLSetDescField"},
    {SQL_API_SQLSETDESCREC, "SQLSetDescRec"},
    {SQL_API_SQLSETENVATTR, "SQLSetEnvAttr"},
    {SQL_API_SQLSETPARAM, "SQLSetParam"},
    {SQL_API_SQLSETPOS, "SQLSetPos"},
    {SQL_API_SQLSETSCROLLOPTIONS, "SQLSetScrollOptions"},
    {SQL_API_SQLSETSTMTATTR, "SQLSetStmtAttr"},
    {SQL_API_SQLSETSTMTOPTION, "SQLSetStmtOption"},
    {SQL_API_SQLSPECIALCOLUMNS, "SQLSpecialColumns"},
    {SQL_API_SQLSTATISTICS, "SQLStatistics"},
    {SQL_API_SQLTABLEPRIVILEGES, "SQLTablePrivileges"},
    {SQL_API_SQLTABLES, "SQLTables"},
    {SQL_API_SQLTRANSACT, "SQLTransact"},
};

static void test_functions_consistent(void **state)
{
    info_fixture *f = *state;
    SQLUSMALLINT all3[SQL_API_ODBC3_ALL_FUNCTIONS_SIZE];
    SQLUSMALLINT all2[100];
    assert_ok(SQLGetFunctions(f->dbc, SQL_API_ODBC3_ALL_FUNCTIONS, all3));
    assert_ok(SQLGetFunctions(f->dbc, SQL_API_ALL_FUNCTIONS, all2));
    int count = 0;
    for (size_t i = 0; i < sizeof api_names / sizeof *api_names; i++) {
        SQLUSMALLINT id = api_names[i].id, one = 99;
        assert_ok(SQLGetFunctions(f->dbc, id, &one));
        assert_true(one == SQL_TRUE || one == SQL_FALSE);
        assert_int_equal(one == SQL_TRUE, SQL_FUNC_EXISTS(all3, id) == SQL_TRUE);
        if (id < 100)
            assert_int_equal(all2[id], one);
        count += one == SQL_TRUE;
    }
    /* Core interface conformance at least */
    SQLUSMALLINT core[] = {SQL_API_SQLGETDATA, SQL_API_SQLFETCHSCROLL,
                           SQL_API_SQLTABLES, SQL_API_SQLCOLUMNS,
                           SQL_API_SQLGETTYPEINFO, SQL_API_SQLCOPYDESC};
    for (size_t i = 0; i < sizeof core / sizeof *core; i++)
        assert_true(SQL_FUNC_EXISTS(all3, core[i]));
    assert_true(count > 50);
    SQLUSMALLINT one;
    assert_int_equal(SQLGetFunctions(f->dbc, 3999, &one), SQL_ERROR);
    assert_dbc_state(f->dbc, "HY095");
}

/* The driver's shared object, beside the tests' directory in the build. */
static void *open_driver_so(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    assert_true(n > 0);
    exe[n] = '\0';
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/../liblectorodbc.so", dirname(exe));
    void *so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (so == NULL)
        fail_msg("cannot load %s (build the lectorodbc target): %s", path, dlerror());
    return so;
}

static void test_functions_match_exports(void **state)
{
    info_fixture *f = *state;
    SQLUSMALLINT all3[SQL_API_ODBC3_ALL_FUNCTIONS_SIZE];
    assert_ok(SQLGetFunctions(f->dbc, SQL_API_ODBC3_ALL_FUNCTIONS, all3));
    void *so = open_driver_so();
    for (size_t i = 0; i < sizeof api_names / sizeof *api_names; i++) {
        bool claimed = SQL_FUNC_EXISTS(all3, api_names[i].id) == SQL_TRUE;
        bool exported = dlsym(so, api_names[i].name) != NULL;
        if (claimed != exported)
            fail_msg("%s: SQLGetFunctions says %s, the .so %s it", api_names[i].name,
                     claimed ? "yes" : "no", exported ? "exports" : "does not export");
    }
    dlclose(so);
}

/* ------------------------------------------------------------------------ */
/* Search patterns                                                           */
/* ------------------------------------------------------------------------ */

static bool match(const char *pat, const char *s)
{
    return lt_pattern_match(pat, strlen(pat), s);
}

static void test_patterns(void **state)
{
    (void)state;
    assert_true(match("%", ""));
    assert_true(match("%", "anything"));
    assert_true(match("", ""));
    assert_false(match("", "a"));
    assert_true(match("people", "PEOPLE"));     /* case-insensitive */
    assert_true(match("PEO%", "people"));
    assert_true(match("%ple", "people"));
    assert_true(match("p%p%e", "people"));
    assert_false(match("p%x%e", "people"));
    assert_true(match("p_ople", "people"));
    assert_false(match("p_ople", "pople"));
    assert_true(match("%%%", "x"));
    assert_true(match("_", "\xc3\xa9"));          /* one character, two bytes */
    assert_false(match("__", "\xc3\xa9"));
    assert_true(match("caf_", "caf\xc3\xa9"));
    assert_true(match("a\\_b", "a_b"));          /* escaped wildcards */
    assert_false(match("a\\_b", "axb"));
    assert_true(match("100\\%", "100%"));
    assert_false(match("100\\%", "1000"));
    assert_true(match("a\\\\b", "a\\b"));
    assert_true(match("%\\_%", "my_table"));
    assert_false(match("%\\_%", "mytable"));
    assert_true(match("a%b%c", "aXbYbZc"));
    assert_false(match("a%b%c", "aXbYbZ"));
    assert_true(lt_pattern_match(NULL, 0, "x"));
    assert_true(lt_pattern_match("peopleXYZ", 6, "people"));  /* length counts */
    assert_false(match("abc", "ab"));
}

/* ------------------------------------------------------------------------ */
/* Catalog result sets and type info through a connection                   */
/* ------------------------------------------------------------------------ */

static void check_column_names(SQLHSTMT stmt, const char *const *names, int n)
{
    SQLSMALLINT count = -1;
    assert_ok(SQLNumResultCols(stmt, &count));
    assert_int_equal(count, n);
    for (int i = 0; i < n; i++) {
        SQLCHAR name[64];
        SQLSMALLINT len, type, digits, nullable;
        SQLULEN size;
        assert_ok(SQLDescribeCol(stmt, (SQLUSMALLINT)(i + 1), name, sizeof name, &len,
                                 &type, &size, &digits, &nullable));
        assert_string_equal((char *)name, names[i]);
    }
}

static int fetch_count(SQLHSTMT stmt)
{
    int n = 0;
    SQLRETURN rc;
    while ((rc = SQLFetch(stmt)) == SQL_SUCCESS || rc == SQL_SUCCESS_WITH_INFO)
        n++;
    assert_int_equal(rc, SQL_NO_DATA);
    assert_ok(SQLFreeStmt(stmt, SQL_CLOSE));
    return n;
}

static const char *get_text(SQLHSTMT stmt, SQLUSMALLINT col)
{
    static char buf[512];
    SQLLEN ind;
    assert_true(SQL_SUCCEEDED(SQLGetData(stmt, col, SQL_C_CHAR, buf, sizeof buf, &ind)));
    return ind == SQL_NULL_DATA ? NULL : buf;
}

static SQLINTEGER get_int(SQLHSTMT stmt, SQLUSMALLINT col, bool *null)
{
    SQLINTEGER v = 0;
    SQLLEN ind;
    assert_ok(SQLGetData(stmt, col, SQL_C_SLONG, &v, 0, &ind));
    *null = ind == SQL_NULL_DATA;
    return v;
}

static void test_catalog_results(void **state)
{
    (void)state;
    fixture f;
    memset(&f, 0, sizeof f);
    connect_to(&f, "Driver=Lector;Database=" PEOPLE_DBF);
    static const char *const tables_cols[] = {"TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME",
                                              "TABLE_TYPE", "REMARKS"};
    assert_ok(SQLTables(f.stmt, NULL, 0, NULL, 0, NULL, 0, NULL, 0));
    check_column_names(f.stmt, tables_cols, 5);
    assert_ok(SQLFetch(f.stmt));
    assert_null(get_text(f.stmt, 1));
    assert_string_equal(get_text(f.stmt, 3), "people");
    assert_string_equal(get_text(f.stmt, 4), "TABLE");
    assert_int_equal(SQLFetch(f.stmt), SQL_NO_DATA);
    assert_ok(SQLFreeStmt(f.stmt, SQL_CLOSE));
    /* patterns, the type list, the enumerations */
    assert_ok(SQLTables(f.stmt, NULL, 0, NULL, 0, (SQLCHAR *)"PEO%", SQL_NTS, NULL, 0));
    assert_int_equal(fetch_count(f.stmt), 1);
    assert_ok(SQLTables(f.stmt, NULL, 0, NULL, 0, (SQLCHAR *)"x%", SQL_NTS, NULL, 0));
    assert_int_equal(fetch_count(f.stmt), 0);
    assert_ok(SQLTables(f.stmt, NULL, 0, NULL, 0, NULL, 0, (SQLCHAR *)"'VIEW', 'TABLE'",
                        SQL_NTS));
    assert_int_equal(fetch_count(f.stmt), 1);
    assert_ok(SQLTables(f.stmt, NULL, 0, NULL, 0, NULL, 0, (SQLCHAR *)"VIEW", SQL_NTS));
    assert_int_equal(fetch_count(f.stmt), 0);
    assert_ok(SQLTables(f.stmt, (SQLCHAR *)"%", SQL_NTS, (SQLCHAR *)"", 0,
                        (SQLCHAR *)"", 0, NULL, 0));
    assert_int_equal(fetch_count(f.stmt), 0);                 /* no catalogs */
    assert_ok(SQLTables(f.stmt, (SQLCHAR *)"", 0, (SQLCHAR *)"%", SQL_NTS,
                        (SQLCHAR *)"", 0, NULL, 0));
    assert_int_equal(fetch_count(f.stmt), 0);                 /* no schemas */
    assert_ok(SQLTables(f.stmt, (SQLCHAR *)"", 0, (SQLCHAR *)"", 0, (SQLCHAR *)"", 0,
                        (SQLCHAR *)"%", SQL_NTS));
    assert_ok(SQLFetch(f.stmt));
    assert_null(get_text(f.stmt, 3));
    assert_string_equal(get_text(f.stmt, 4), "SYSTEM TABLE");
    assert_ok(SQLFetch(f.stmt));
    assert_string_equal(get_text(f.stmt, 4), "TABLE");
    assert_ok(SQLFetch(f.stmt));
    assert_string_equal(get_text(f.stmt, 4), "VIEW");
    assert_int_equal(SQLFetch(f.stmt), SQL_NO_DATA);
    assert_ok(SQLFreeStmt(f.stmt, SQL_CLOSE));

    /* SQLColumns: 18 columns, ordinal order, type names as SQLGetTypeInfo's */
    static const char *const columns_cols[] = {
        "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE",
        "TYPE_NAME", "COLUMN_SIZE", "BUFFER_LENGTH", "DECIMAL_DIGITS",
        "NUM_PREC_RADIX", "NULLABLE", "REMARKS", "COLUMN_DEF", "SQL_DATA_TYPE",
        "SQL_DATETIME_SUB", "CHAR_OCTET_LENGTH", "ORDINAL_POSITION", "IS_NULLABLE"};
    assert_ok(SQLColumns(f.stmt, NULL, 0, NULL, 0, (SQLCHAR *)"people", SQL_NTS, NULL, 0));
    check_column_names(f.stmt, columns_cols, 18);
    int ordinal = 0;
    SQLRETURN rc;
    while ((rc = SQLFetch(f.stmt)) == SQL_SUCCESS) {
        bool null;
        ordinal++;
        assert_int_equal(get_int(f.stmt, 17, &null), ordinal);
        SQLINTEGER type = get_int(f.stmt, 5, &null);
        const char *name = get_text(f.stmt, 6);
        if (type == SQL_WVARCHAR) {
            assert_string_equal(name, "WVARCHAR");
            assert_true(get_int(f.stmt, 16, &null) > 0);
            get_int(f.stmt, 9, &null);
            assert_true(null);                       /* DECIMAL_DIGITS */
        } else if (type == SQL_TYPE_DATE) {
            assert_string_equal(name, "DATE");
            assert_int_equal(get_int(f.stmt, 14, &null), SQL_DATETIME);
            assert_int_equal(get_int(f.stmt, 15, &null), SQL_CODE_DATE);
        }
    }
    assert_int_equal(rc, SQL_NO_DATA);
    assert_true(ordinal >= 2);
    assert_ok(SQLFreeStmt(f.stmt, SQL_CLOSE));
    assert_ok(SQLColumns(f.stmt, NULL, 0, NULL, 0, (SQLCHAR *)"people", SQL_NTS,
                         (SQLCHAR *)"nothing_like_this", SQL_NTS));
    assert_int_equal(fetch_count(f.stmt), 0);

    /* a cursor open: 24000 */
    assert_ok(SQLTables(f.stmt, NULL, 0, NULL, 0, NULL, 0, NULL, 0));
    assert_int_equal(SQLColumns(f.stmt, NULL, 0, NULL, 0, NULL, 0, NULL, 0), SQL_ERROR);
    assert_stmt_state(f.stmt, "24000");
    assert_ok(SQLFreeStmt(f.stmt, SQL_CLOSE));

    /* SQLStatistics: the table's own row first */
    static const char *const stat_cols[] = {
        "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "NON_UNIQUE", "INDEX_QUALIFIER",
        "INDEX_NAME", "TYPE", "ORDINAL_POSITION", "COLUMN_NAME", "ASC_OR_DESC",
        "CARDINALITY", "PAGES", "FILTER_CONDITION"};
    assert_ok(SQLStatistics(f.stmt, NULL, 0, NULL, 0, (SQLCHAR *)"people", SQL_NTS,
                            SQL_INDEX_ALL, SQL_ENSURE));
    check_column_names(f.stmt, stat_cols, 13);
    assert_ok(SQLFetch(f.stmt));
    bool null;
    assert_int_equal(get_int(f.stmt, 7, &null), SQL_TABLE_STAT);
    assert_true(get_int(f.stmt, 11, &null) >= 0);
    assert_false(null);
    assert_ok(SQLFreeStmt(f.stmt, SQL_CLOSE));
    assert_int_equal(SQLStatistics(f.stmt, NULL, 0, NULL, 0, NULL, 0, SQL_INDEX_ALL,
                                   SQL_QUICK), SQL_ERROR);
    assert_stmt_state(f.stmt, "HY009");
    assert_int_equal(SQLStatistics(f.stmt, NULL, 0, NULL, 0, (SQLCHAR *)"people",
                                   SQL_NTS, 7, SQL_QUICK), SQL_ERROR);
    assert_stmt_state(f.stmt, "HY100");

    /* the empty ones have their columns */
    assert_ok(SQLForeignKeys(f.stmt, NULL, 0, NULL, 0, (SQLCHAR *)"people", SQL_NTS,
                             NULL, 0, NULL, 0, NULL, 0));
    SQLSMALLINT n;
    assert_ok(SQLNumResultCols(f.stmt, &n));
    assert_int_equal(n, 14);
    assert_int_equal(fetch_count(f.stmt), 0);
    assert_ok(SQLProcedures(f.stmt, NULL, 0, NULL, 0, NULL, 0));
    assert_ok(SQLNumResultCols(f.stmt, &n));
    assert_int_equal(n, 8);
    assert_int_equal(fetch_count(f.stmt), 0);
    assert_ok(SQLProcedureColumns(f.stmt, NULL, 0, NULL, 0, NULL, 0, NULL, 0));
    assert_ok(SQLNumResultCols(f.stmt, &n));
    assert_int_equal(n, 19);
    assert_int_equal(fetch_count(f.stmt), 0);
    assert_ok(SQLPrimaryKeys(f.stmt, NULL, 0, NULL, 0, (SQLCHAR *)"people", SQL_NTS));
    assert_ok(SQLNumResultCols(f.stmt, &n));
    assert_int_equal(n, 6);
    assert_int_equal(fetch_count(f.stmt), 0);   /* dBASE tables have no key */
    assert_ok(SQLSpecialColumns(f.stmt, SQL_BEST_ROWID, NULL, 0, NULL, 0,
                                (SQLCHAR *)"people", SQL_NTS, SQL_SCOPE_SESSION,
                                SQL_NULLABLE));
    assert_ok(SQLNumResultCols(f.stmt, &n));
    assert_int_equal(n, 8);
    assert_int_equal(fetch_count(f.stmt), 0);
    assert_ok(SQLTablePrivileges(f.stmt, NULL, 0, NULL, 0, NULL, 0));
    assert_ok(SQLNumResultCols(f.stmt, &n));
    assert_int_equal(n, 7);
    assert_int_equal(fetch_count(f.stmt), 0);
    assert_ok(SQLColumnPrivileges(f.stmt, NULL, 0, NULL, 0, (SQLCHAR *)"people",
                                  SQL_NTS, NULL, 0));
    assert_ok(SQLNumResultCols(f.stmt, &n));
    assert_int_equal(n, 8);
    assert_int_equal(fetch_count(f.stmt), 0);
    disconnect(&f);
}

/* SQL_ATTR_METADATA_ID: arguments are identifiers, not patterns. */
static void test_catalog_metadata_id(void **state)
{
    (void)state;
    fixture f;
    memset(&f, 0, sizeof f);
    connect_to(&f, "Driver=Lector;Database=" PEOPLE_DBF);
    assert_ok(SQLSetStmtAttr(f.stmt, SQL_ATTR_METADATA_ID, (SQLPOINTER)SQL_TRUE, 0));
    assert_ok(SQLTables(f.stmt, (SQLCHAR *)"", 0, (SQLCHAR *)"", 0, (SQLCHAR *)"PEO%",
                        SQL_NTS, NULL, 0));
    assert_int_equal(fetch_count(f.stmt), 0);
    assert_ok(SQLTables(f.stmt, (SQLCHAR *)"", 0, (SQLCHAR *)"", 0,
                        (SQLCHAR *)"PEOPLE  ", SQL_NTS, NULL, 0));
    assert_int_equal(fetch_count(f.stmt), 1);          /* unquoted: any case */
    assert_ok(SQLTables(f.stmt, (SQLCHAR *)"", 0, (SQLCHAR *)"", 0,
                        (SQLCHAR *)"\"PEOPLE\"", SQL_NTS, NULL, 0));
    assert_int_equal(fetch_count(f.stmt), 0);          /* quoted: exact */
    assert_ok(SQLTables(f.stmt, (SQLCHAR *)"", 0, (SQLCHAR *)"", 0,
                        (SQLCHAR *)"\"people\"", SQL_NTS, NULL, 0));
    assert_int_equal(fetch_count(f.stmt), 1);
    assert_int_equal(SQLTables(f.stmt, NULL, 0, NULL, 0, (SQLCHAR *)"people", SQL_NTS,
                               NULL, 0), SQL_ERROR);
    assert_stmt_state(f.stmt, "HY009");
    disconnect(&f);
}

/* An ODBC 2 application sees SQL_DATE (9) in DATA_TYPE columns. */
static void test_catalog_odbc2(void **state)
{
    (void)state;
    fixture f;
    memset(&f, 0, sizeof f);
    assert_ok(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &f.env));
    assert_ok(SQLSetEnvAttr(f.env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC2, 0));
    assert_ok(SQLAllocHandle(SQL_HANDLE_DBC, f.env, &f.dbc));
    assert_true(SQL_SUCCEEDED(SQLDriverConnect(f.dbc, NULL,
                                               (SQLCHAR *)"Driver=Lector;Database=" PEOPLE_DBF,
                                               SQL_NTS, NULL, 0, NULL, SQL_DRIVER_NOPROMPT)));
    assert_ok(SQLAllocHandle(SQL_HANDLE_STMT, f.dbc, &f.stmt));
    assert_ok(SQLColumns(f.stmt, NULL, 0, NULL, 0, (SQLCHAR *)"people", SQL_NTS,
                         (SQLCHAR *)"BIRTHDATE", SQL_NTS));
    assert_ok(SQLFetch(f.stmt));
    bool null;
    assert_int_equal(get_int(f.stmt, 5, &null), SQL_DATE);
    assert_int_equal(SQLFetch(f.stmt), SQL_NO_DATA);
    assert_ok(SQLFreeStmt(f.stmt, SQL_CLOSE));
    assert_ok(SQLGetTypeInfo(f.stmt, SQL_DATE));
    assert_ok(SQLFetch(f.stmt));
    assert_string_equal(get_text(f.stmt, 1), "DATE");
    assert_int_equal(get_int(f.stmt, 2, &null), SQL_DATE);
    assert_int_equal(SQLFetch(f.stmt), SQL_NO_DATA);
    assert_ok(SQLFreeStmt(f.stmt, SQL_CLOSE));
    disconnect(&f);
}

static void test_type_info(void **state)
{
    (void)state;
    fixture f;
    memset(&f, 0, sizeof f);
    connect_to(&f, "Driver=Lector;Database=" PEOPLE_DBF);
    static const char *const cols[] = {
        "TYPE_NAME", "DATA_TYPE", "COLUMN_SIZE", "LITERAL_PREFIX", "LITERAL_SUFFIX",
        "CREATE_PARAMS", "NULLABLE", "CASE_SENSITIVE", "SEARCHABLE",
        "UNSIGNED_ATTRIBUTE", "FIXED_PREC_SCALE", "AUTO_UNIQUE_VALUE",
        "LOCAL_TYPE_NAME", "MINIMUM_SCALE", "MAXIMUM_SCALE", "SQL_DATA_TYPE",
        "SQL_DATETIME_SUB", "NUM_PREC_RADIX", "INTERVAL_PRECISION"};
    assert_ok(SQLGetTypeInfo(f.stmt, SQL_ALL_TYPES));
    check_column_names(f.stmt, cols, 19);
    int rows = 0, last = -1000;
    bool null;
    bool seen_ts = false, seen_wvarchar = false;
    while (SQLFetch(f.stmt) == SQL_SUCCESS) {
        int type = get_int(f.stmt, 2, &null);
        assert_true(type >= last);               /* ordered by DATA_TYPE */
        last = type;
        const char *name = get_text(f.stmt, 1);
        if (type == SQL_TYPE_TIMESTAMP) {
            assert_string_equal(name, "TIMESTAMP");
            seen_ts = true;
        }
        if (type == SQL_WVARCHAR) {
            assert_string_equal(name, "WVARCHAR");
            seen_wvarchar = true;
        }
        rows++;
    }
    assert_true(seen_ts && seen_wvarchar);
    assert_true(rows >= 16);
    assert_ok(SQLFreeStmt(f.stmt, SQL_CLOSE));
    assert_ok(SQLGetTypeInfo(f.stmt, SQL_TYPE_TIMESTAMP));
    assert_ok(SQLFetch(f.stmt));
    assert_int_equal(get_int(f.stmt, 2, &null), 93);
    assert_int_equal(get_int(f.stmt, 16, &null), SQL_DATETIME);
    assert_int_equal(get_int(f.stmt, 17, &null), SQL_CODE_TIMESTAMP);
    assert_int_equal(SQLFetch(f.stmt), SQL_NO_DATA);
    assert_ok(SQLFreeStmt(f.stmt, SQL_CLOSE));
    assert_ok(SQLGetTypeInfo(f.stmt, SQL_TIMESTAMP));   /* the ODBC 2 code */
    assert_int_equal(fetch_count(f.stmt), 1);
    assert_ok(SQLGetTypeInfo(f.stmt, SQL_CHAR));         /* a CAST target */
    assert_int_equal(fetch_count(f.stmt), 1);
    assert_ok(SQLGetTypeInfo(f.stmt, SQL_INTERVAL_YEAR)); /* no such type */
    assert_int_equal(fetch_count(f.stmt), 0);
    assert_int_equal(SQLGetTypeInfo(f.stmt, 4321), SQL_ERROR);
    assert_stmt_state(f.stmt, "HY004");
    disconnect(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_info_values, setup_dbc, teardown_dbc),
        cmocka_unit_test_setup_teardown(test_info_every_type, setup_dbc, teardown_dbc),
        cmocka_unit_test_setup_teardown(test_info_truncation, setup_dbc, teardown_dbc),
        cmocka_unit_test_setup_teardown(test_info_keywords, setup_dbc, teardown_dbc),
        cmocka_unit_test_setup_teardown(test_functions_consistent, setup_dbc, teardown_dbc),
        cmocka_unit_test_setup_teardown(test_functions_match_exports, setup_dbc,
                                        teardown_dbc),
        cmocka_unit_test(test_patterns),
        cmocka_unit_test(test_catalog_results),
        cmocka_unit_test(test_catalog_metadata_id),
        cmocka_unit_test(test_catalog_odbc2),
        cmocka_unit_test(test_type_info),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
