/*
** test_driver_sqlstates.c — one case (or more) per SQLSTATE the ODBC layer
** (the .c files of driver/) posts, calling the driver's entry points directly.
**
** Each case checks the return code, the SQLSTATE of the first diagnostic
** record and the part of its message that says what went wrong.  The
** completeness check (tests/sqlstates/check.sh) fails when a state appears
** in the driver's sources and not here as a quoted literal (or in
** tests/sqlstates/unreachable.txt with the reason no test reaches it).
**
** Most cases connect to a corpus dBASE file and run FROM-less SELECTs, whose
** values are known without reading the file.
*/
#include "test_driver_core.h"

#define ACCESS_PASSWORD_MDB LT_CORPUS_DIR "/access/V2003_with-password.mdb"

/* `call` returns `rc`; record 1 of the handle has `state` and a message
** containing `fragment`. */
#define expect_diag(call, rc, type, handle, state, fragment)                          \
    do {                                                                              \
        SQLRETURN rc_ = (call);                                                       \
        const char *st_ = state_of((type), (handle), 1);                              \
        char msg_[2048];                                                              \
        snprintf(msg_, sizeof msg_, "%s", message_of((type), (handle), 1));           \
        if (rc_ != (rc) || strcmp(st_, (state)) != 0 || strstr(msg_, (fragment)) == NULL) \
            fail_msg("%s: got rc %d %s '%s', expected rc %d %s '%s'", #call, (int)rc_, \
                     st_, msg_, (int)(rc), (state), (fragment));                      \
    } while (0)

#define expect_stmt(call, rc, stmt, state, fragment) \
    expect_diag(call, rc, SQL_HANDLE_STMT, stmt, state, fragment)
#define expect_dbc(call, rc, dbc, state, fragment) \
    expect_diag(call, rc, SQL_HANDLE_DBC, dbc, state, fragment)
#define expect_env(call, rc, env, state, fragment) \
    expect_diag(call, rc, SQL_HANDLE_ENV, env, state, fragment)
#define expect_desc(call, rc, desc, state, fragment) \
    expect_diag(call, rc, SQL_HANDLE_DESC, desc, state, fragment)

static SQLRETURN driver_connect(SQLHDBC dbc, const char *conn)
{
    return SQLDriverConnect(dbc, NULL, (SQLCHAR *)conn, SQL_NTS, NULL, 0, NULL,
                            SQL_DRIVER_NOPROMPT);
}

/* A fresh statement on the fixture's connection. */
static SQLHSTMT new_stmt(fixture *f)
{
    SQLHSTMT s = NULL;
    assert_ok(SQLAllocHandle(SQL_HANDLE_STMT, f->dbc, &s));
    return s;
}

static void free_stmt(SQLHSTMT s)
{
    assert_ok(SQLFreeHandle(SQL_HANDLE_STMT, s));
}

/* Execute `sql` on a new statement and fetch its first row. */
static SQLHSTMT on_first_row(fixture *f, const char *sql)
{
    SQLHSTMT s = new_stmt(f);
    exec_ok(s, sql);
    assert_ok(SQLFetch(s));
    return s;
}

/* ------------------------------------------------------------------------ */
/* Environment and handles                                                   */
/* ------------------------------------------------------------------------ */

static void test_environment_states(void **state)
{
    (void)state;
    SQLHENV env = NULL;
    SQLHDBC dbc = NULL;
    assert_ok(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env));
    /* HY010: a connection before SQL_ATTR_ODBC_VERSION. */
    expect_env(SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc), SQL_ERROR, env, "HY010",
               "SQL_ATTR_ODBC_VERSION is not set");
    /* HY024: a version that does not exist. */
    expect_env(SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)42, 0), SQL_ERROR, env,
               "HY024", "Invalid attribute value for attribute 200");
    /* HY092: an attribute that does not exist. */
    expect_env(SQLSetEnvAttr(env, 12345, NULL, 0), SQL_ERROR, env, "HY092",
               "Invalid attribute/option identifier 12345");
    /* HYC00: strings without their terminating NUL. */
    expect_env(SQLSetEnvAttr(env, SQL_ATTR_OUTPUT_NTS, (SQLPOINTER)SQL_FALSE, 0), SQL_ERROR,
               env, "HYC00", "Optional feature not implemented");
    assert_ok(SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0));
    /* HY009: nowhere to put the new handle. */
    expect_env(SQLAllocHandle(SQL_HANDLE_DBC, env, NULL), SQL_ERROR, env, "HY009",
               "Invalid use of null pointer");
    assert_ok(SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc));
    /* HY010: attributes frozen and the environment kept while a
    ** connection lives. */
    expect_env(SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC2, 0),
               SQL_ERROR, env, "HY010", "a connection is allocated");
    expect_env(SQLFreeHandle(SQL_HANDLE_ENV, env), SQL_ERROR, env, "HY010",
               "connections are still allocated");
    /* 08003: statements, descriptors and SQLDisconnect need a connection. */
    SQLHSTMT stmt = NULL;
    expect_dbc(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &stmt), SQL_ERROR, dbc, "08003",
               "Connection not open");
    expect_dbc(SQLAllocHandle(SQL_HANDLE_DESC, dbc, &stmt), SQL_ERROR, dbc, "08003",
               "Connection not open");
    expect_dbc(SQLDisconnect(dbc), SQL_ERROR, dbc, "08003", "Connection not open");
    expect_dbc(SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_COMMIT), SQL_ERROR, dbc, "08003",
               "Connection not open");
    /* HY092 on a connection attribute that does not exist. */
    expect_dbc(SQLSetConnectAttr(dbc, 12345, NULL, 0), SQL_ERROR, dbc, "HY092",
               "Invalid attribute/option identifier 12345");
    assert_ok(SQLFreeHandle(SQL_HANDLE_DBC, dbc));
    assert_ok(SQLFreeHandle(SQL_HANDLE_ENV, env));
}

/* ------------------------------------------------------------------------ */
/* Connecting                                                                */
/* ------------------------------------------------------------------------ */

static void test_connect_states(void **state)
{
    (void)state;
    SQLHENV env = new_env();
    SQLHDBC dbc = NULL;
    assert_ok(SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc));
    /* 08001: no database, a bad MemoryLimit, an unclosed brace, a missing file. */
    expect_dbc(driver_connect(dbc, "DSN=nothing"), SQL_ERROR, dbc, "08001", "Database=");
    expect_dbc(driver_connect(dbc, "Database=" PEOPLE_DBF ";MemoryLimit=lots"), SQL_ERROR, dbc,
               "08001", "MemoryLimit=lots: expected a whole number of MiB");
    expect_dbc(driver_connect(dbc, "Database={" PEOPLE_DBF), SQL_ERROR, dbc, "08001",
               "the value of 'Database' has no closing '}'");
    expect_dbc(SQLConnect(dbc, (SQLCHAR *)"", SQL_NTS, NULL, 0, NULL, 0), SQL_ERROR, dbc,
               "08001", "No data source name given");
    /* HY110: a completion mode that does not exist. */
    expect_dbc(SQLDriverConnect(dbc, NULL, (SQLCHAR *)"Database=" PEOPLE_DBF, SQL_NTS, NULL, 0,
                                NULL, 99),
               SQL_ERROR, dbc, "HY110", "Invalid driver completion 99");
    /* HY090: a negative length that is not SQL_NTS. */
    expect_dbc(SQLDriverConnect(dbc, NULL, (SQLCHAR *)"Database=" PEOPLE_DBF, -7, NULL, 0, NULL,
                                SQL_DRIVER_NOPROMPT),
               SQL_ERROR, dbc, "HY090", "Invalid string or buffer length");
    /* 01S00: an attribute without '=' is ignored with a warning. */
    expect_dbc(driver_connect(dbc, "Database=" PEOPLE_DBF ";nonsense"), SQL_SUCCESS_WITH_INFO,
               dbc, "01S00", "Invalid connection string attribute 'nonsense' (no '='): ignored");
    /* 08002: connecting a connected handle. */
    expect_dbc(driver_connect(dbc, "Database=" PEOPLE_DBF), SQL_ERROR, dbc, "08002",
               "Connection name in use");
    expect_dbc(SQLConnect(dbc, (SQLCHAR *)"x", SQL_NTS, NULL, 0, NULL, 0), SQL_ERROR, dbc,
               "08002", "Connection name in use");
    expect_dbc(SQLBrowseConnect(dbc, (SQLCHAR *)"Database=x", SQL_NTS, NULL, 0, NULL),
               SQL_ERROR, dbc, "08002", "Connection name in use");
    /* HY012: a transaction operation that does not exist. */
    expect_dbc(SQLEndTran(SQL_HANDLE_DBC, dbc, 99), SQL_ERROR, dbc, "HY012",
               "Invalid transaction operation code 99");
    assert_ok(SQLDisconnect(dbc));
    assert_ok(SQLFreeHandle(SQL_HANDLE_DBC, dbc));
    assert_ok(SQLFreeHandle(SQL_HANDLE_ENV, env));
}

/* 28000 comes from the Access reader through SQLDriverConnect: the corpus
** database with a Jet 4 password (access/EXPECT.tsv: PWD=password). */
static void test_28000_access_password(void **state)
{
    (void)state;
    SQLHENV env = new_env();
    SQLHDBC dbc = NULL;
    assert_ok(SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc));
    expect_dbc(driver_connect(dbc, "Database=" ACCESS_PASSWORD_MDB), SQL_ERROR, dbc, "28000",
               "is protected by a database password: connect with PWD=<password>");
    expect_dbc(driver_connect(dbc, "Database=" ACCESS_PASSWORD_MDB ";PWD=wrong"), SQL_ERROR,
               dbc, "28000", "not a valid password (PWD=) for this database");
    assert_ok(driver_connect(dbc, "Database=" ACCESS_PASSWORD_MDB ";PWD=password"));
    assert_ok(SQLDisconnect(dbc));
    assert_ok(SQLFreeHandle(SQL_HANDLE_DBC, dbc));
    assert_ok(SQLFreeHandle(SQL_HANDLE_ENV, env));
}

/* ------------------------------------------------------------------------ */
/* Information                                                               */
/* ------------------------------------------------------------------------ */

static void test_info_states(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" PEOPLE_DBF);
    char small[4];
    SQLSMALLINT len = 0;
    /* 01004: the DBMS name does not fit; the whole length is reported. */
    expect_dbc(SQLGetInfo(f.dbc, SQL_DBMS_NAME, small, sizeof small, &len),
               SQL_SUCCESS_WITH_INFO, f.dbc, "01004", "String data, right truncated");
    assert_int_equal(strlen(small), 3);
    assert_true(len > 3);
    /* HY096: an information type that does not exist. */
    expect_dbc(SQLGetInfo(f.dbc, 31999, small, sizeof small, &len), SQL_ERROR, f.dbc, "HY096",
               "Information type out of range: 31999");
    /* HY090: a negative buffer length for a string. */
    expect_dbc(SQLGetInfo(f.dbc, SQL_DBMS_NAME, small, -1, &len), SQL_ERROR, f.dbc, "HY090",
               "Invalid string or buffer length");
    /* HY095 and HY009 of SQLGetFunctions. */
    SQLUSMALLINT yes = 0;
    expect_dbc(SQLGetFunctions(f.dbc, 3000, &yes), SQL_ERROR, f.dbc, "HY095",
               "Function type out of range: 3000");
    expect_dbc(SQLGetFunctions(f.dbc, SQL_API_SQLFETCH, NULL), SQL_ERROR, f.dbc, "HY009",
               "Invalid use of null pointer");
    disconnect(&f);
}

/* The wide (W) entry points post the same states from their own checks. */
static void test_wide_states(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" PEOPLE_DBF);
    SQLWCHAR small[3];
    SQLSMALLINT len = 0;
    /* 01004: the DBMS name does not fit in 3 characters; the length is
    ** in bytes, the whole name's. */
    expect_dbc(SQLGetInfoW(f.dbc, SQL_DBMS_NAME, small, sizeof small, &len),
               SQL_SUCCESS_WITH_INFO, f.dbc, "01004", "String data, right truncated");
    assert_int_equal(small[2], 0);
    assert_true(len > (SQLSMALLINT)sizeof small);
    /* HY090: a negative buffer length. */
    expect_dbc(SQLGetInfoW(f.dbc, SQL_DBMS_NAME, small, -2, &len), SQL_ERROR, f.dbc, "HY090",
               "Invalid string or buffer length");
    /* 01004 from SQLGetData into SQL_C_WCHAR. */
    SQLHSTMT s = on_first_row(&f, "SELECT 'hello'");
    SQLLEN ind = 0;
    expect_stmt(SQLGetData(s, 1, SQL_C_WCHAR, small, sizeof small, &ind), SQL_SUCCESS_WITH_INFO,
                s, "01004", "String data, right truncated");
    assert_int_equal(small[0], 'h');
    assert_int_equal(small[1], 'e');
    assert_int_equal(small[2], 0);
    free_stmt(s);
    disconnect(&f);
}

/* ------------------------------------------------------------------------ */
/* Statement attributes                                                      */
/* ------------------------------------------------------------------------ */

static void test_statement_attribute_states(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" PEOPLE_DBF);
    SQLHSTMT s = f.stmt;
    /* 01S02: keyset-driven becomes static. */
    expect_stmt(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_KEYSET_DRIVEN, 0),
                SQL_SUCCESS_WITH_INFO, s, "01S02", "cursor type is SQL_CURSOR_STATIC");
    /* HY024: a cursor type that does not exist. */
    expect_stmt(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)77, 0), SQL_ERROR, s,
                "HY024", "Invalid attribute value");
    /* HY092: an attribute that does not exist. */
    expect_stmt(SQLSetStmtAttr(s, 23456, NULL, 0), SQL_ERROR, s, "HY092",
                "Invalid attribute/option identifier 23456");
    /* HYC00: asynchronous execution. */
    expect_stmt(SQLSetStmtAttr(s, SQL_ATTR_ASYNC_ENABLE, (SQLPOINTER)SQL_ASYNC_ENABLE_ON, 0),
                SQL_ERROR, s, "HYC00", "asynchronous execution");
    /* HY017: the implementation descriptors cannot be replaced. */
    expect_stmt(SQLSetStmtAttr(s, SQL_ATTR_IMP_ROW_DESC, NULL, 0), SQL_ERROR, s, "HY017",
                "automatically allocated descriptor handle");
    /* HY024: an application descriptor that is not a descriptor. */
    expect_stmt(SQLSetStmtAttr(s, SQL_ATTR_APP_ROW_DESC, (SQLPOINTER)f.dbc, 0), SQL_ERROR, s,
                "HY024", "not a descriptor handle");
    /* 24000: the row number with no row. */
    SQLULEN row = 0;
    expect_stmt(SQLGetStmtAttr(s, SQL_ATTR_ROW_NUMBER, &row, 0, NULL), SQL_ERROR, s, "24000",
                "the cursor is not on a row");
    /* HY011: the cursor type while a cursor is open. */
    exec_ok(s, "SELECT 1");
    expect_stmt(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_STATIC, 0),
                SQL_ERROR, s, "HY011", "a cursor is open");
    assert_ok(SQLCloseCursor(s));
    /* HY009 / HY090 of a string attribute (the connection's current catalog). */
    expect_dbc(SQLSetConnectAttr(f.dbc, SQL_ATTR_CURRENT_CATALOG, NULL, SQL_NTS), SQL_ERROR,
               f.dbc, "HY009", "Invalid use of null pointer");
    expect_dbc(SQLSetConnectAttr(f.dbc, SQL_ATTR_CURRENT_CATALOG, (SQLPOINTER)"x", -9),
               SQL_ERROR, f.dbc, "HY090", "Invalid string or buffer length");
    disconnect(&f);
}

/* ------------------------------------------------------------------------ */
/* Executing and parameters                                                  */
/* ------------------------------------------------------------------------ */

static void test_sequence_and_cursor_states(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" PEOPLE_DBF);
    SQLHSTMT s = f.stmt;
    /* HY010: executing, fetching, describing parameters with nothing
    ** prepared; SQLParamData with nothing pending. */
    expect_stmt(SQLExecute(s), SQL_ERROR, s, "HY010", "no statement is prepared");
    expect_stmt(SQLFetch(s), SQL_ERROR, s, "HY010", "no cursor is open");
    SQLSMALLINT type;
    SQLULEN size;
    SQLSMALLINT digits, nullable;
    expect_stmt(SQLDescribeParam(s, 1, &type, &size, &digits, &nullable), SQL_ERROR, s, "HY010",
                "no statement is prepared");
    SQLPOINTER token;
    expect_stmt(SQLParamData(s, &token), SQL_ERROR, s, "HY010",
                "no data-at-execution parameter is pending");
    /* 24000: closing a cursor that is not open. */
    expect_stmt(SQLCloseCursor(s), SQL_ERROR, s, "24000", "no cursor is open");
    /* 24000: executing or calling a catalog function while a cursor is open. */
    exec_ok(s, "SELECT 1");
    expect_stmt(SQLExecDirect(s, (SQLCHAR *)"SELECT 2", SQL_NTS), SQL_ERROR, s, "24000",
                "a cursor is open");
    expect_stmt(SQLTables(s, NULL, 0, NULL, 0, NULL, 0, NULL, 0), SQL_ERROR, s, "24000",
                "a cursor is open on the statement");
    /* 24000: SQLGetData before the first SQLFetch. */
    SQLINTEGER v = 0;
    SQLLEN ind = 0;
    expect_stmt(SQLGetData(s, 1, SQL_C_LONG, &v, 0, &ind), SQL_ERROR, s, "24000",
                "the cursor is not on a row");
    /* 07009: column 0 without bookmarks, column past the last. */
    assert_ok(SQLFetch(s));
    expect_stmt(SQLGetData(s, 0, SQL_C_LONG, &v, 0, &ind), SQL_ERROR, s, "07009",
                "Invalid descriptor index 0 (the result has 1 columns)");
    expect_stmt(SQLGetData(s, 5, SQL_C_LONG, &v, 0, &ind), SQL_ERROR, s, "07009",
                "Invalid descriptor index 5");
    /* HY003: a C type that does not exist. */
    expect_stmt(SQLGetData(s, 1, 999, &v, 0, &ind), SQL_ERROR, s, "HY003",
                "Invalid application buffer type 999");
    /* HY090: a negative buffer length. */
    expect_stmt(SQLGetData(s, 1, SQL_C_CHAR, &v, -3, &ind), SQL_ERROR, s, "HY090",
                "Invalid string or buffer length");
    /* 07009 and HY091 from SQLColAttribute / SQLDescribeCol. */
    SQLLEN num = 0;
    expect_stmt(SQLColAttribute(s, 3, SQL_DESC_TYPE, NULL, 0, NULL, &num), SQL_ERROR, s, "07009",
                "Invalid descriptor index 3 (the result has 1 column");
    expect_stmt(SQLColAttribute(s, 1, 9999, NULL, 0, NULL, &num), SQL_ERROR, s, "HY091",
                "Invalid descriptor field identifier 9999");
    /* HY000: a cursor that failed stays failed. */
    assert_ok(SQLCloseCursor(s));
    SQLHSTMT bad = new_stmt(&f);
    exec_ok(bad, "SELECT 10 / (LENGTH(NAME) - LENGTH(NAME)) FROM people");
    expect_stmt(SQLFetch(bad), SQL_ERROR, bad, "22012", "division by zero");
    expect_stmt(SQLFetch(bad), SQL_ERROR, bad, "HY000",
                "The cursor failed earlier; close it and execute again");
    free_stmt(bad);
    disconnect(&f);
}

static void test_parameter_states(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" PEOPLE_DBF);
    SQLHSTMT s = f.stmt;
    assert_ok(SQLPrepare(s, (SQLCHAR *)"SELECT CAST(? AS INTEGER)", SQL_NTS));
    /* 07002: a marker without a value. */
    expect_stmt(SQLExecute(s), SQL_ERROR, s, "07002", "parameter 1 of 1 is not bound");
    /* 07009: parameter numbers out of range. */
    SQLSMALLINT type;
    SQLULEN size;
    SQLSMALLINT digits, nullable;
    expect_stmt(SQLDescribeParam(s, 2, &type, &size, &digits, &nullable), SQL_ERROR, s, "07009",
                "Invalid descriptor index 2 (the statement has 1 parameters)");
    SQLINTEGER value = 7;
    SQLLEN ind = 0;
    expect_stmt(SQLBindParameter(s, 0, SQL_PARAM_INPUT, SQL_C_LONG, SQL_INTEGER, 0, 0, &value,
                                 0, &ind),
                SQL_ERROR, s, "07009", "Invalid descriptor index 0");
    /* HY105, HY003, HY004: a parameter kind, C type and SQL type that do
    ** not exist. */
    expect_stmt(SQLBindParameter(s, 1, 99, SQL_C_LONG, SQL_INTEGER, 0, 0, &value, 0, &ind),
                SQL_ERROR, s, "HY105", "Invalid parameter type");
    expect_stmt(SQLBindParameter(s, 1, SQL_PARAM_INPUT, 999, SQL_INTEGER, 0, 0, &value, 0, &ind),
                SQL_ERROR, s, "HY003", "Invalid application buffer type 999");
    expect_stmt(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_LONG, 999, 0, 0, &value, 0, &ind),
                SQL_ERROR, s, "HY004", "Invalid SQL data type 999");
    /* 07S01: SQL_DEFAULT_PARAM (no procedure has defaults). */
    ind = SQL_DEFAULT_PARAM;
    assert_ok(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_LONG, SQL_INTEGER, 0, 0, &value, 0,
                               &ind));
    expect_stmt(SQLExecute(s), SQL_ERROR, s, "07S01", "parameter 1");
    /* HY009: a length but no value pointer. */
    ind = 4;
    assert_ok(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_LONG, SQL_INTEGER, 0, 0, NULL, 0,
                               &ind));
    expect_stmt(SQLExecute(s), SQL_ERROR, s, "HY009", "parameter 1");
    /* 22003: a value past the SQL type. */
    SQLBIGINT big = (SQLBIGINT)1 << 40;
    ind = 0;
    assert_ok(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_INTEGER, 0, 0, &big, 0,
                               &ind));
    expect_stmt(SQLExecute(s), SQL_ERROR, s, "22003", "parameter 1");
    /* 22018: text that is not a number. */
    char text[16] = "twelve";
    ind = SQL_NTS;
    assert_ok(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_INTEGER, 0, 0, text,
                               sizeof text, &ind));
    expect_stmt(SQLExecute(s), SQL_ERROR, s, "22018", "parameter 1");
    /* 22001: text with a fraction for an integer. */
    strcpy(text, "12.5");
    expect_stmt(SQLExecute(s), SQL_ERROR, s, "22001", "parameter 1");
    free_stmt(s);

    /* 22018 for text that is no date (C to SQL: Character); 22007 for a
    ** date structure that is no date; 22008 for a timestamp with a time of
    ** day where a date is expected. */
    s = f.stmt = new_stmt(&f);
    assert_ok(SQLPrepare(s, (SQLCHAR *)"SELECT CAST(? AS DATE)", SQL_NTS));
    strcpy(text, "2020-13-45");
    ind = SQL_NTS;
    assert_ok(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_TYPE_DATE, 10, 0, text,
                               sizeof text, &ind));
    expect_stmt(SQLExecute(s), SQL_ERROR, s, "22018", "parameter 1");
    SQL_DATE_STRUCT bad_date = {2020, 13, 45};
    ind = sizeof bad_date;
    assert_ok(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_TYPE_DATE, SQL_TYPE_DATE, 10, 0,
                               &bad_date, sizeof bad_date, &ind));
    expect_stmt(SQLExecute(s), SQL_ERROR, s, "22007", "Invalid datetime format (parameter 1)");
    SQL_TIMESTAMP_STRUCT ts = {2020, 1, 2, 10, 30, 0, 0};
    ind = sizeof ts;
    assert_ok(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_TYPE_TIMESTAMP, SQL_TYPE_DATE, 10, 0,
                               &ts, sizeof ts, &ind));
    expect_stmt(SQLExecute(s), SQL_ERROR, s, "22008", "parameter 1");
    /* 07006: a date where an integer is expected. */
    SQL_DATE_STRUCT d = {2020, 1, 2};
    ind = sizeof d;
    assert_ok(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_TYPE_DATE, SQL_INTEGER, 0, 0, &d,
                               sizeof d, &ind));
    expect_stmt(SQLExecute(s), SQL_ERROR, s, "07006", "parameter 1");
    free_stmt(s);

    /* HY019: an integer sent in pieces; HY009 / HY090 of SQLPutData. */
    s = f.stmt = new_stmt(&f);
    assert_ok(SQLPrepare(s, (SQLCHAR *)"SELECT ? + 1", SQL_NTS));
    SQLLEN dae = SQL_DATA_AT_EXEC;
    assert_ok(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_LONG, SQL_INTEGER, 0, 0,
                               (SQLPOINTER)1, 0, &dae));
    assert_int_equal(SQLExecute(s), SQL_NEED_DATA);
    SQLPOINTER token = NULL;
    assert_int_equal(SQLParamData(s, &token), SQL_NEED_DATA);
    expect_stmt(SQLPutData(s, NULL, 4), SQL_ERROR, s, "HY009", "Invalid use of null pointer");
    expect_stmt(SQLPutData(s, &value, -5), SQL_ERROR, s, "HY090",
                "Invalid string or buffer length");
    assert_ok(SQLPutData(s, &value, sizeof value));
    expect_stmt(SQLPutData(s, &value, sizeof value), SQL_ERROR, s, "HY019",
                "Non-character and non-binary data sent in pieces");
    assert_ok(SQLCancel(s));
    disconnect(&f);
}

/* ------------------------------------------------------------------------ */
/* Fetching and converting                                                   */
/* ------------------------------------------------------------------------ */

static void test_fetch_conversion_states(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" PEOPLE_DBF);
    SQLHSTMT s = on_first_row(&f, "SELECT 'hello world', 1.5, 300, 'abc', NULL, {d '2020-01-02'}, "
                                  "'xyz', {ts '2020-01-02 10:30:00'}");
    char small[6];
    SQLLEN ind = 0;
    /* 01004: text longer than the buffer. */
    expect_stmt(SQLGetData(s, 1, SQL_C_CHAR, small, sizeof small, &ind), SQL_SUCCESS_WITH_INFO,
                s, "01004", "String data, right truncated");
    assert_string_equal(small, "hello");
    assert_int_equal(ind, 11);
    /* 01S07: a fraction dropped. */
    SQLINTEGER i = 0;
    expect_stmt(SQLGetData(s, 2, SQL_C_LONG, &i, 0, &ind), SQL_SUCCESS_WITH_INFO, s, "01S07",
                "Fractional truncation");
    assert_int_equal(i, 1);
    /* 22003: 300 in a TINYINT. */
    SQLSCHAR tiny = 0;
    expect_stmt(SQLGetData(s, 3, SQL_C_STINYINT, &tiny, 0, &ind), SQL_ERROR, s, "22003",
                "Numeric value out of range");
    /* 22018: text that is no number. */
    expect_stmt(SQLGetData(s, 4, SQL_C_LONG, &i, 0, &ind), SQL_ERROR, s, "22018",
                "Invalid character value for cast specification");
    /* 22002: a NULL and no indicator. */
    expect_stmt(SQLGetData(s, 5, SQL_C_LONG, &i, 0, NULL), SQL_ERROR, s, "22002",
                "Indicator variable required but not supplied");
    /* 07006: a date into an integer. */
    expect_stmt(SQLGetData(s, 6, SQL_C_LONG, &i, 0, &ind), SQL_ERROR, s, "07006",
                "Restricted data type attribute violation");
    /* 22018 for text that is no date (SQL to C: Character). */
    SQL_DATE_STRUCT d;
    expect_stmt(SQLGetData(s, 7, SQL_C_TYPE_DATE, &d, 0, &ind), SQL_ERROR, s, "22018",
                "Invalid character value for cast specification (column 7)");
    /* 01S07 too: a timestamp with a time of day read as a date. */
    expect_stmt(SQLGetData(s, 8, SQL_C_TYPE_DATE, &d, 0, &ind), SQL_SUCCESS_WITH_INFO, s,
                "01S07", "Fractional truncation");
    free_stmt(s);
    f.stmt = NULL;
    disconnect(&f);
}

static void test_scroll_and_position_states(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" PEOPLE_DBF);
    SQLHSTMT s = f.stmt;
    /* HY106: scrolling a forward-only cursor; an orientation that does
    ** not exist. */
    exec_ok(s, "SELECT NAME FROM people");
    expect_stmt(SQLFetchScroll(s, SQL_FETCH_PRIOR, 0), SQL_ERROR, s, "HY106",
                "the cursor is forward-only");
    expect_stmt(SQLFetchScroll(s, 99, 0), SQL_ERROR, s, "HY106", "Fetch type out of range: 99");
    /* SQLSetPos: HY010 without a cursor, HYC00 for writes and locks, HY092
    ** for a lock type that does not exist, 24000 before the first fetch,
    ** HY109 for row 0, HY107 past the rowset. */
    assert_ok(SQLCloseCursor(s));
    expect_stmt(SQLSetPos(s, 1, SQL_POSITION, SQL_LOCK_NO_CHANGE), SQL_ERROR, s, "HY010",
                "no cursor is open");
    exec_ok(s, "SELECT NAME FROM people");
    expect_stmt(SQLSetPos(s, 1, SQL_POSITION, SQL_LOCK_NO_CHANGE), SQL_ERROR, s, "24000",
                "no rowset was fetched");
    assert_ok(SQLFetch(s));
    expect_stmt(SQLSetPos(s, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE), SQL_ERROR, s, "HYC00",
                "Lector is read-only; only SQL_POSITION works");
    expect_stmt(SQLSetPos(s, 1, SQL_POSITION, 77), SQL_ERROR, s, "HY092", "lock type 77");
    expect_stmt(SQLSetPos(s, 1, SQL_POSITION, SQL_LOCK_EXCLUSIVE), SQL_ERROR, s, "HYC00",
                "row locks");
    expect_stmt(SQLSetPos(s, 0, SQL_POSITION, SQL_LOCK_NO_CHANGE), SQL_ERROR, s, "HY109",
                "SQL_POSITION needs a row");
    expect_stmt(SQLSetPos(s, 9, SQL_POSITION, SQL_LOCK_NO_CHANGE), SQL_ERROR, s, "HY107",
                "Row value out of range: 9 (the rowset has 1 rows)");
    assert_ok(SQLCloseCursor(s));

    /* A static cursor: 01S06 before the first rowset, HY111 for a bookmark
    ** past the end, HY106 for bookmarks when they are off. */
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_STATIC, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)2, 0));
    exec_ok(s, "SELECT NAME FROM people");
    expect_stmt(SQLFetchScroll(s, SQL_FETCH_BOOKMARK, 0), SQL_ERROR, s, "HY106",
                "bookmarks are off");
    assert_ok(SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, 2));
    expect_stmt(SQLFetchScroll(s, SQL_FETCH_PRIOR, 0), SQL_SUCCESS_WITH_INFO, s, "01S06",
                "Attempt to fetch before the result set returned the first rowset");
    assert_ok(SQLCloseCursor(s));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_USE_BOOKMARKS, (SQLPOINTER)SQL_UB_VARIABLE, 0));
    exec_ok(s, "SELECT NAME FROM people");
    expect_stmt(SQLFetchScroll(s, SQL_FETCH_BOOKMARK, 0), SQL_ERROR, s, "HY111",
                "no bookmark pointer");
    SQLUINTEGER bookmark = 999;
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_FETCH_BOOKMARK_PTR, &bookmark, 0));
    expect_stmt(SQLFetchScroll(s, SQL_FETCH_BOOKMARK, 0), SQL_ERROR, s, "HY111",
                "Invalid bookmark value 999");
    disconnect(&f);
}

/* ------------------------------------------------------------------------ */
/* Descriptors                                                               */
/* ------------------------------------------------------------------------ */

static void test_descriptor_states(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" PEOPLE_DBF);
    SQLHSTMT s = f.stmt;
    SQLHDESC ard = NULL, ird = NULL, apd = NULL, ipd = NULL;
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_APP_ROW_DESC, &ard, 0, NULL));
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_IMP_ROW_DESC, &ird, 0, NULL));
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_APP_PARAM_DESC, &apd, 0, NULL));
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_IMP_PARAM_DESC, &ipd, 0, NULL));
    SQLINTEGER v = 0;
    /* HY007: the IRD of a statement not prepared. */
    expect_desc(SQLGetDescField(ird, 1, SQL_DESC_TYPE, &v, 0, NULL), SQL_ERROR, ird, "HY007",
                "Associated statement is not prepared");
    /* HY091: a field that does not exist. */
    expect_desc(SQLGetDescField(ard, 1, 9999, &v, 0, NULL), SQL_ERROR, ard, "HY091",
                "Invalid descriptor field identifier 9999");
    expect_desc(SQLSetDescField(ard, 1, 9999, NULL, 0), SQL_ERROR, ard, "HY091",
                "Invalid descriptor field identifier 9999");
    /* 07009: a negative record number. */
    expect_desc(SQLGetDescField(ard, -1, SQL_DESC_TYPE, &v, 0, NULL), SQL_ERROR, ard, "07009",
                "Invalid descriptor index -1");
    expect_desc(SQLSetDescField(ard, -1, SQL_DESC_TYPE, (SQLPOINTER)SQL_C_LONG, 0), SQL_ERROR,
                ard, "07009", "Invalid descriptor index -1");
    expect_desc(SQLSetDescField(ard, 0, SQL_DESC_COUNT, (SQLPOINTER)-4, 0), SQL_ERROR, ard,
                "07009", "Invalid descriptor index -4");
    /* HY021: a C type that does not exist; an interval code on a non-datetime. */
    expect_desc(SQLSetDescField(ard, 1, SQL_DESC_CONCISE_TYPE, (SQLPOINTER)999, 0), SQL_ERROR,
                ard, "HY021", "Inconsistent descriptor information: type 999");
    assert_ok(SQLSetDescField(ard, 1, SQL_DESC_TYPE, (SQLPOINTER)SQL_C_LONG, 0));
    expect_desc(SQLSetDescField(ard, 1, SQL_DESC_DATETIME_INTERVAL_CODE, (SQLPOINTER)1, 0),
                SQL_ERROR, ard, "HY021", "not a datetime type");
    /* HY024: an array size of 0; 01S02: a parameter set size above 1. */
    expect_desc(SQLSetDescField(ard, 0, SQL_DESC_ARRAY_SIZE, (SQLPOINTER)0, 0), SQL_ERROR, ard,
                "HY024", "array size 0");
    expect_desc(SQLSetDescField(apd, 0, SQL_DESC_ARRAY_SIZE, (SQLPOINTER)4, 0),
                SQL_SUCCESS_WITH_INFO, apd, "01S02", "parameter set size is 1");
    /* HY105: a parameter kind that does not exist. */
    expect_desc(SQLSetDescField(ipd, 1, SQL_DESC_PARAMETER_TYPE, (SQLPOINTER)99, 0), SQL_ERROR,
                ipd, "HY105", "Invalid parameter type 99");
    /* HY092: SQL_DESC_UNNAMED set to SQL_NAMED. */
    expect_desc(SQLSetDescField(ipd, 1, SQL_DESC_UNNAMED, (SQLPOINTER)SQL_NAMED, 0), SQL_ERROR,
                ipd, "HY092", "Invalid attribute/option identifier");
    /* HY016: the IRD cannot be written. */
    expect_desc(SQLSetDescField(ird, 1, SQL_DESC_TYPE, (SQLPOINTER)SQL_INTEGER, 0), SQL_ERROR,
                ird, "HY016", "Cannot modify an implementation row descriptor");
    /* HY017: the implicit descriptors cannot be freed. */
    expect_desc(SQLFreeHandle(SQL_HANDLE_DESC, ard), SQL_ERROR, ard, "HY017",
                "automatically allocated descriptor");
    /* HY017: a descriptor of another statement cannot be an ARD. */
    SQLHSTMT other = new_stmt(&f);
    expect_stmt(SQLSetStmtAttr(other, SQL_ATTR_APP_ROW_DESC, ard, 0), SQL_ERROR, other, "HY017",
                "automatically allocated descriptor handle");
    free_stmt(other);
    /* HY003: SQLBindCol with a C type that does not exist; 07009 past the
    ** columns of a prepared statement. */
    assert_ok(SQLPrepare(s, (SQLCHAR *)"SELECT 1", SQL_NTS));
    expect_stmt(SQLBindCol(s, 1, 999, &v, 0, NULL), SQL_ERROR, s, "HY003",
                "Invalid application buffer type 999");
    SQLCHAR name[32];
    SQLSMALLINT len, type, digits, nullable;
    SQLULEN size;
    expect_stmt(SQLDescribeCol(s, 4, name, sizeof name, &len, &type, &size, &digits, &nullable),
                SQL_ERROR, s, "07009", "Invalid descriptor index 4");
    disconnect(&f);
}

/* ------------------------------------------------------------------------ */
/* Catalog functions                                                         */
/* ------------------------------------------------------------------------ */

static void test_catalog_states(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" PEOPLE_DBF);
    SQLHSTMT s = f.stmt;
    /* HY090: a negative name length. */
    expect_stmt(SQLTables(s, NULL, 0, NULL, 0, (SQLCHAR *)"people", -8, NULL, 0), SQL_ERROR, s,
                "HY090", "invalid string length -8");
    /* HY009: SQLColumnPrivileges and the like need a table name. */
    expect_stmt(SQLPrimaryKeys(s, NULL, 0, NULL, 0, NULL, 0), SQL_ERROR, s, "HY009",
                "a name argument is a null pointer");
    /* HY097, HY098, HY099: SQLSpecialColumns' options. */
    SQLCHAR *t = (SQLCHAR *)"people";
    expect_stmt(SQLSpecialColumns(s, 77, NULL, 0, NULL, 0, t, SQL_NTS, SQL_SCOPE_SESSION,
                                  SQL_NULLABLE),
                SQL_ERROR, s, "HY097", "invalid IdentifierType 77");
    expect_stmt(SQLSpecialColumns(s, SQL_BEST_ROWID, NULL, 0, NULL, 0, t, SQL_NTS, 77,
                                  SQL_NULLABLE),
                SQL_ERROR, s, "HY098", "invalid Scope 77");
    expect_stmt(SQLSpecialColumns(s, SQL_BEST_ROWID, NULL, 0, NULL, 0, t, SQL_NTS,
                                  SQL_SCOPE_SESSION, 77),
                SQL_ERROR, s, "HY099", "invalid Nullable 77");
    /* HY100, HY101: SQLStatistics' options. */
    expect_stmt(SQLStatistics(s, NULL, 0, NULL, 0, t, SQL_NTS, 77, SQL_QUICK), SQL_ERROR, s,
                "HY100", "invalid Unique option 77");
    expect_stmt(SQLStatistics(s, NULL, 0, NULL, 0, t, SQL_NTS, SQL_INDEX_ALL, 77), SQL_ERROR, s,
                "HY101", "invalid Reserved option 77");
    disconnect(&f);
}

/* ------------------------------------------------------------------------ */
/* Cursor names and native SQL                                               */
/* ------------------------------------------------------------------------ */

static void test_cursor_name_states(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" PEOPLE_DBF);
    SQLHSTMT s = f.stmt, other = new_stmt(&f);
    /* 34000: a name the driver reserves for its own. */
    expect_stmt(SQLSetCursorName(s, (SQLCHAR *)"SQL_CUR9", SQL_NTS), SQL_ERROR, s, "34000",
                "Invalid cursor name");
    /* HY009: no name. */
    expect_stmt(SQLSetCursorName(s, NULL, SQL_NTS), SQL_ERROR, s, "HY009",
                "Invalid use of null pointer");
    /* 3C000: a name another statement has. */
    assert_ok(SQLSetCursorName(s, (SQLCHAR *)"mine", SQL_NTS));
    expect_stmt(SQLSetCursorName(other, (SQLCHAR *)"mine", SQL_NTS), SQL_ERROR, other, "3C000",
                "Duplicate cursor name 'mine'");
    /* 24000: renaming an open cursor. */
    exec_ok(s, "SELECT 1");
    expect_stmt(SQLSetCursorName(s, (SQLCHAR *)"yours", SQL_NTS), SQL_ERROR, s, "24000",
                "a cursor is open");
    /* 01004: a cursor name that does not fit. */
    SQLCHAR small[3];
    SQLSMALLINT len = 0;
    expect_stmt(SQLGetCursorName(s, small, sizeof small, &len), SQL_SUCCESS_WITH_INFO, s, "01004",
                "String data, right truncated");
    assert_int_equal(len, 4);
    /* HY090: a negative buffer length. */
    expect_stmt(SQLGetCursorName(s, small, -1, &len), SQL_ERROR, s, "HY090",
                "Invalid string or buffer length");
    free_stmt(other);
    disconnect(&f);
}

/* ------------------------------------------------------------------------ */
/* The engine's states through the driver                                    */
/* ------------------------------------------------------------------------ */

static void test_engine_states_through_the_driver(void **state)
{
    (void)state;
    fixture f;
    char path[64], conn[128];
    snprintf(path, sizeof path, "/tmp/lector_states_%d.dbf", (int)getpid());
    write_big_dbf(path, 40000);
    snprintf(conn, sizeof conn, "Database=%s;MemoryLimit=1", path);
    connect_to(&f, conn);
    SQLHSTMT s = f.stmt;
    /* HY001: past the connection's MemoryLimit, naming it. */
    const char *table = strrchr(path, '/') + 1;
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT NOTE FROM \"%.*s\" INTERSECT SELECT NOTE FROM \"%.*s\"",
             (int)(strlen(table) - 4), table, (int)(strlen(table) - 4), table);
    exec_ok(s, sql);
    SQLRETURN rc;
    while ((rc = SQLFetch(s)) == SQL_SUCCESS)
        ;
    assert_int_equal(rc, SQL_ERROR);
    assert_stmt_state(s, "HY001");
    assert_non_null(strstr(message_of(SQL_HANDLE_STMT, s, 1), "(MemoryLimit=1); raise MemoryLimit"));
    free_stmt(s);
    s = f.stmt = new_stmt(&f);
    /* 42000 with its position, 42S02, 42S22. */
    expect_stmt(SQLExecDirect(s, (SQLCHAR *)"SELECT FROM t", SQL_NTS), SQL_ERROR, s, "42000",
                "syntax error at line 1, column 8");
    expect_stmt(SQLExecDirect(s, (SQLCHAR *)"DELETE FROM t", SQL_NTS), SQL_ERROR, s, "42000",
                "Lector is read-only: DELETE is not supported");
    expect_stmt(SQLExecDirect(s, (SQLCHAR *)"SELECT * FROM nowhere", SQL_NTS), SQL_ERROR, s,
                "42S02", "unknown table 'nowhere'");
    snprintf(sql, sizeof sql, "SELECT nope FROM \"%.*s\"", (int)(strlen(table) - 4), table);
    expect_stmt(SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS), SQL_ERROR, s, "42S22",
                "unknown column 'nope'");
    disconnect(&f);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_environment_states),
        cmocka_unit_test(test_connect_states),
        cmocka_unit_test(test_28000_access_password),
        cmocka_unit_test(test_info_states),
        cmocka_unit_test(test_wide_states),
        cmocka_unit_test(test_statement_attribute_states),
        cmocka_unit_test(test_sequence_and_cursor_states),
        cmocka_unit_test(test_parameter_states),
        cmocka_unit_test(test_fetch_conversion_states),
        cmocka_unit_test(test_scroll_and_position_states),
        cmocka_unit_test(test_descriptor_states),
        cmocka_unit_test(test_catalog_states),
        cmocka_unit_test(test_cursor_name_states),
        cmocka_unit_test(test_engine_states_through_the_driver),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
