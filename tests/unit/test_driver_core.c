/*
** test_driver_core.c — handles, diagnostics, attributes and connecting,
** calling the driver's entry points directly.
*/
#include "test_driver_core.h"

/* ------------------------------------------------------------------------ */
/* Handles                                                                   */
/* ------------------------------------------------------------------------ */

static void test_alloc_sequence(void **state)
{
    (void)state;
    SQLHENV env = NULL;
    SQLHDBC dbc = NULL;
    assert_ok(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env));
    /* No ODBC version yet: HY010. */
    assert_int_equal(SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc), SQL_ERROR);
    assert_null(dbc);
    assert_state(SQL_HANDLE_ENV, env, "HY010");
    assert_int_equal(SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)42, 0), SQL_ERROR);
    assert_state(SQL_HANDLE_ENV, env, "HY024");
    assert_ok(SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0));
    SQLINTEGER v = 0;
    assert_ok(SQLGetEnvAttr(env, SQL_ATTR_ODBC_VERSION, &v, 0, NULL));
    assert_int_equal(v, SQL_OV_ODBC3);
    assert_ok(SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc));
    assert_non_null(dbc);
    /* Environment attributes are frozen once a connection exists. */
    assert_int_equal(SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC2, 0),
                     SQL_ERROR);
    assert_state(SQL_HANDLE_ENV, env, "HY010");
    /* Statements and descriptors need a connection. */
    SQLHSTMT stmt = NULL;
    assert_int_equal(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &stmt), SQL_ERROR);
    assert_dbc_state(dbc, "08003");
    assert_int_equal(SQLAllocHandle(SQL_HANDLE_DESC, dbc, &stmt), SQL_ERROR);
    assert_dbc_state(dbc, "08003");
    /* The environment cannot go while a connection lives. */
    assert_int_equal(SQLFreeHandle(SQL_HANDLE_ENV, env), SQL_ERROR);
    assert_state(SQL_HANDLE_ENV, env, "HY010");
    assert_int_equal(SQLDisconnect(dbc), SQL_ERROR);
    assert_dbc_state(dbc, "08003");
    /* Wrong handle types are invalid handles. */
    assert_int_equal(SQLFreeHandle(SQL_HANDLE_STMT, dbc), SQL_INVALID_HANDLE);
    assert_int_equal(SQLFreeHandle(SQL_HANDLE_DBC, env), SQL_INVALID_HANDLE);
    assert_int_equal(SQLFreeHandle(99, env), SQL_INVALID_HANDLE);
    assert_int_equal(SQLAllocHandle(SQL_HANDLE_DBC, NULL, &dbc), SQL_INVALID_HANDLE);
    assert_ok(SQLFreeHandle(SQL_HANDLE_DBC, dbc));
    assert_ok(SQLFreeHandle(SQL_HANDLE_ENV, env));
}

static void test_env_attributes(void **state)
{
    (void)state;
    SQLHENV env = new_env();
    assert_int_equal(SQLSetEnvAttr(env, SQL_ATTR_OUTPUT_NTS, (SQLPOINTER)SQL_FALSE, 0),
                     SQL_ERROR);
    assert_state(SQL_HANDLE_ENV, env, "HYC00");
    assert_ok(SQLSetEnvAttr(env, SQL_ATTR_OUTPUT_NTS, (SQLPOINTER)SQL_TRUE, 0));
    assert_int_equal(SQLSetEnvAttr(env, 12345, NULL, 0), SQL_ERROR);
    assert_state(SQL_HANDLE_ENV, env, "HY092");
    assert_int_equal(SQLGetEnvAttr(env, 12345, NULL, 0, NULL), SQL_ERROR);
    assert_state(SQL_HANDLE_ENV, env, "HY092");
    assert_ok(SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3_80, 0));
    assert_ok(SQLFreeHandle(SQL_HANDLE_ENV, env));
}

/* ------------------------------------------------------------------------ */
/* Diagnostics                                                               */
/* ------------------------------------------------------------------------ */

static void test_diagnostics(void **state)
{
    (void)state;
    SQLHENV env = new_env();
    SQLHDBC dbc;
    assert_ok(SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc));
    assert_int_equal(SQLSetConnectAttr(dbc, SQL_ATTR_ACCESS_MODE,
                                       (SQLPOINTER)SQL_MODE_READ_WRITE, 0),
                     SQL_SUCCESS_WITH_INFO);

    SQLINTEGER n = -1;
    assert_ok(SQLGetDiagField(SQL_HANDLE_DBC, dbc, 0, SQL_DIAG_NUMBER, &n, 0, NULL));
    assert_int_equal(n, 1);
    SQLRETURN ret = 0;
    assert_ok(SQLGetDiagField(SQL_HANDLE_DBC, dbc, 0, SQL_DIAG_RETURNCODE, &ret, 0, NULL));
    assert_int_equal(ret, SQL_SUCCESS_WITH_INFO);

    SQLCHAR st[6], msg[256];
    SQLINTEGER native = -1;
    SQLSMALLINT len = 0;
    assert_ok(SQLGetDiagRec(SQL_HANDLE_DBC, dbc, 1, st, &native, msg, sizeof msg, &len));
    assert_string_equal((char *)st, "01S02");
    assert_int_equal(native, 0);
    assert_memory_equal(msg, "[Lector]", 8);
    assert_int_equal(len, (SQLSMALLINT)strlen((char *)msg));
    /* A short buffer: truncated, terminated, full length reported. */
    SQLCHAR small[10];
    assert_int_equal(SQLGetDiagRec(SQL_HANDLE_DBC, dbc, 1, st, &native, small,
                                   sizeof small, &len),
                     SQL_SUCCESS_WITH_INFO);
    assert_int_equal(strlen((char *)small), 9);
    assert_int_equal(len, (SQLSMALLINT)strlen((char *)msg));
    /* Record numbers outside the area. */
    assert_int_equal(SQLGetDiagRec(SQL_HANDLE_DBC, dbc, 2, st, &native, msg, sizeof msg, &len),
                     SQL_NO_DATA);
    assert_int_equal(SQLGetDiagRec(SQL_HANDLE_DBC, dbc, 0, st, &native, msg, sizeof msg, &len),
                     SQL_ERROR);
    assert_int_equal(SQLGetDiagRec(SQL_HANDLE_DBC, dbc, 1, st, &native, msg, -1, &len),
                     SQL_ERROR);

    char text[64];
    assert_ok(SQLGetDiagField(SQL_HANDLE_DBC, dbc, 1, SQL_DIAG_SQLSTATE, text, sizeof text,
                              &len));
    assert_string_equal(text, "01S02");
    assert_ok(SQLGetDiagField(SQL_HANDLE_DBC, dbc, 1, SQL_DIAG_CLASS_ORIGIN, text,
                              sizeof text, &len));
    assert_string_equal(text, "ISO 9075");
    assert_ok(SQLGetDiagField(SQL_HANDLE_DBC, dbc, 1, SQL_DIAG_SUBCLASS_ORIGIN, text,
                              sizeof text, &len));
    assert_string_equal(text, "ODBC 3.0");
    char long_text[512];
    assert_ok(SQLGetDiagField(SQL_HANDLE_DBC, dbc, 1, SQL_DIAG_MESSAGE_TEXT, long_text,
                              sizeof long_text, &len));
    assert_memory_equal(long_text, "[Lector]", 8);
    assert_int_equal(len, (SQLSMALLINT)strlen(long_text));
    assert_int_equal(SQLGetDiagField(SQL_HANDLE_DBC, dbc, 1, SQL_DIAG_MESSAGE_TEXT, text,
                                     10, &len),
                     SQL_SUCCESS_WITH_INFO);
    assert_int_equal(strlen(text), 9);
    assert_ok(SQLGetDiagField(SQL_HANDLE_DBC, dbc, 1, SQL_DIAG_CONNECTION_NAME, text,
                              sizeof text, &len));
    assert_string_equal(text, "");
    SQLLEN row = 0;
    assert_ok(SQLGetDiagField(SQL_HANDLE_DBC, dbc, 1, SQL_DIAG_ROW_NUMBER, &row, 0, NULL));
    assert_int_equal(row, SQL_NO_ROW_NUMBER);
    SQLINTEGER column = 0;
    assert_ok(SQLGetDiagField(SQL_HANDLE_DBC, dbc, 1, SQL_DIAG_COLUMN_NUMBER, &column, 0,
                              NULL));
    assert_int_equal(column, SQL_NO_COLUMN_NUMBER);
    /* Statement-only header fields on a connection. */
    assert_int_equal(SQLGetDiagField(SQL_HANDLE_DBC, dbc, 0, SQL_DIAG_ROW_COUNT, &row, 0, NULL),
                     SQL_ERROR);
    assert_int_equal(SQLGetDiagField(SQL_HANDLE_DBC, dbc, 5, SQL_DIAG_SQLSTATE, text,
                                     sizeof text, &len),
                     SQL_NO_DATA);

    /* The next call clears the area. */
    assert_ok(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0));
    assert_ok(SQLGetDiagField(SQL_HANDLE_DBC, dbc, 0, SQL_DIAG_NUMBER, &n, 0, NULL));
    assert_int_equal(n, 0);

    /* ISO class for an ODBC-defined subclass and an HY state. */
    assert_int_equal(SQLSetConnectAttr(dbc, 99999, NULL, 0), SQL_ERROR);
    assert_ok(SQLGetDiagField(SQL_HANDLE_DBC, dbc, 1, SQL_DIAG_SUBCLASS_ORIGIN, text,
                              sizeof text, &len));
    assert_string_equal(text, "ISO 9075");
    assert_string_equal(state_of(SQL_HANDLE_DBC, dbc, 1), "HY092");

    assert_ok(SQLFreeHandle(SQL_HANDLE_DBC, dbc));
    assert_ok(SQLFreeHandle(SQL_HANDLE_ENV, env));
}

/* ------------------------------------------------------------------------ */
/* Connection attributes                                                     */
/* ------------------------------------------------------------------------ */

static void test_connect_attributes(void **state)
{
    (void)state;
    SQLHENV env = new_env();
    SQLHDBC dbc;
    assert_ok(SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc));
    SQLUINTEGER v = 0;
    assert_int_equal(SQLSetConnectAttr(dbc, SQL_ATTR_ACCESS_MODE,
                                       (SQLPOINTER)SQL_MODE_READ_WRITE, 0),
                     SQL_SUCCESS_WITH_INFO);
    assert_dbc_state(dbc, "01S02");
    assert_ok(SQLGetConnectAttr(dbc, SQL_ATTR_ACCESS_MODE, &v, 0, NULL));
    assert_int_equal(v, SQL_MODE_READ_ONLY);
    assert_int_equal(SQLSetConnectAttr(dbc, SQL_ATTR_ACCESS_MODE, (SQLPOINTER)7, 0), SQL_ERROR);
    assert_dbc_state(dbc, "HY024");

    assert_ok(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0));
    assert_ok(SQLGetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, &v, 0, NULL));
    assert_int_equal(v, SQL_AUTOCOMMIT_OFF);
    assert_int_equal(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)5, 0), SQL_ERROR);
    assert_dbc_state(dbc, "HY024");

    assert_ok(SQLSetConnectAttr(dbc, SQL_ATTR_LOGIN_TIMEOUT, (SQLPOINTER)30, 0));
    assert_ok(SQLGetConnectAttr(dbc, SQL_ATTR_LOGIN_TIMEOUT, &v, 0, NULL));
    assert_int_equal(v, 30);
    assert_ok(SQLSetConnectAttr(dbc, SQL_ATTR_CONNECTION_TIMEOUT, (SQLPOINTER)5, 0));
    assert_ok(SQLSetConnectAttr(dbc, SQL_ATTR_TXN_ISOLATION,
                                (SQLPOINTER)SQL_TXN_READ_COMMITTED, 0));
    assert_ok(SQLGetConnectAttr(dbc, SQL_ATTR_TXN_ISOLATION, &v, 0, NULL));
    assert_int_equal(v, SQL_TXN_READ_COMMITTED);
    assert_int_equal(SQLSetConnectAttr(dbc, SQL_ATTR_TXN_ISOLATION, (SQLPOINTER)3, 0),
                     SQL_ERROR);
    assert_dbc_state(dbc, "HY024");
    assert_ok(SQLSetConnectAttr(dbc, SQL_ATTR_METADATA_ID, (SQLPOINTER)SQL_TRUE, 0));
    assert_ok(SQLSetConnectAttr(dbc, SQL_ATTR_ASYNC_ENABLE, (SQLPOINTER)SQL_ASYNC_ENABLE_OFF, 0));
    assert_int_equal(SQLSetConnectAttr(dbc, SQL_ATTR_ASYNC_ENABLE,
                                       (SQLPOINTER)SQL_ASYNC_ENABLE_ON, 0),
                     SQL_ERROR);
    assert_dbc_state(dbc, "HYC00");
    assert_ok(SQLGetConnectAttr(dbc, SQL_ATTR_CONNECTION_DEAD, &v, 0, NULL));
    assert_int_equal(v, SQL_CD_TRUE); /* not connected */
    assert_int_equal(SQLSetConnectAttr(dbc, SQL_ATTR_CONNECTION_DEAD, (SQLPOINTER)0, 0),
                     SQL_ERROR);
    assert_dbc_state(dbc, "HY092");
    assert_ok(SQLGetConnectAttr(dbc, SQL_ATTR_AUTO_IPD, &v, 0, NULL));
    assert_int_equal(v, SQL_FALSE);
    assert_ok(SQLSetConnectAttr(dbc, SQL_ATTR_PACKET_SIZE, (SQLPOINTER)4096, 0));
    assert_ok(SQLSetConnectAttr(dbc, SQL_ATTR_QUIET_MODE, NULL, 0));
    assert_ok(SQLSetConnectAttr(dbc, SQL_ATTR_TRACE, (SQLPOINTER)SQL_OPT_TRACE_OFF, 0));
    assert_ok(SQLSetConnectAttr(dbc, SQL_ATTR_TRACEFILE, (SQLPOINTER) "/tmp/x.log", SQL_NTS));
    char buf[64];
    SQLINTEGER len = 0;
    assert_ok(SQLGetConnectAttr(dbc, SQL_ATTR_TRACEFILE, buf, sizeof buf, &len));
    assert_string_equal(buf, "/tmp/x.log");
    assert_int_equal(len, 10);
    assert_int_equal(SQLGetConnectAttr(dbc, SQL_ATTR_TRACEFILE, buf, 4, &len),
                     SQL_SUCCESS_WITH_INFO);
    assert_dbc_state(dbc, "01004");
    assert_string_equal(buf, "/tm");
    assert_ok(SQLSetConnectAttr(dbc, SQL_ATTR_CURRENT_CATALOG, (SQLPOINTER) "cat", 3));
    assert_ok(SQLGetConnectAttr(dbc, SQL_ATTR_CURRENT_CATALOG, buf, sizeof buf, &len));
    assert_string_equal(buf, "cat");
    assert_int_equal(SQLGetConnectAttr(dbc, 4242, &v, 0, NULL), SQL_ERROR);
    assert_dbc_state(dbc, "HY092");
    assert_ok(SQLFreeHandle(SQL_HANDLE_DBC, dbc));
    assert_ok(SQLFreeHandle(SQL_HANDLE_ENV, env));
}

/* ------------------------------------------------------------------------ */
/* Connecting                                                                */
/* ------------------------------------------------------------------------ */

static SQLRETURN try_connect(SQLHDBC dbc, const char *conn, char *out, SQLSMALLINT cap,
                             SQLSMALLINT *outlen)
{
    return SQLDriverConnect(dbc, NULL, (SQLCHAR *)conn, SQL_NTS, (SQLCHAR *)out, cap,
                            outlen, SQL_DRIVER_NOPROMPT);
}

static void test_driver_connect_errors(void **state)
{
    (void)state;
    SQLHENV env = new_env();
    SQLHDBC dbc;
    assert_ok(SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc));
    char out[512];
    SQLSMALLINT outlen;

    assert_int_equal(try_connect(dbc, "Driver=Lector;ShowDeleted=1", out, sizeof out, &outlen),
                     SQL_ERROR);
    assert_dbc_state(dbc, "08001");
    assert_non_null(strstr(message_of(SQL_HANDLE_DBC, dbc, 1), "Database= is missing"));

    /* A braced value keeps its ';' and '}}' stands for '}'. */
    assert_int_equal(try_connect(dbc, "DRIVER={Lector};Database={/nonexistent/a}}b;c};x=1",
                                 out, sizeof out, &outlen),
                     SQL_ERROR);
    assert_dbc_state(dbc, "08001");
    assert_non_null(strstr(message_of(SQL_HANDLE_DBC, dbc, 1), "/nonexistent/a}b;c"));

    /* An unterminated brace. */
    assert_int_equal(try_connect(dbc, "Database={/tmp/x", out, sizeof out, &outlen), SQL_ERROR);
    assert_dbc_state(dbc, "08001");

    /* Keys are case-insensitive; DBQ as ACE spells it; the first wins. */
    assert_int_equal(try_connect(dbc, "dbq=/nonexistent/first.dbf;DATABASE=" PEOPLE_DBF,
                                 out, sizeof out, &outlen),
                     SQL_ERROR);
    assert_non_null(strstr(message_of(SQL_HANDLE_DBC, dbc, 1), "/nonexistent/first.dbf"));

    assert_int_equal(SQLDriverConnect(dbc, NULL, (SQLCHAR *)"Database=" PEOPLE_DBF, SQL_NTS,
                                      NULL, 0, NULL, 77),
                     SQL_ERROR);
    assert_dbc_state(dbc, "HY110");
    assert_ok(SQLFreeHandle(SQL_HANDLE_DBC, dbc));
    assert_ok(SQLFreeHandle(SQL_HANDLE_ENV, env));
}

static void test_driver_connect_out_string(void **state)
{
    (void)state;
    SQLHENV env = new_env();
    SQLHDBC dbc;
    assert_ok(SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc));
    char out[512];
    SQLSMALLINT outlen = 0;
    /* Every completion mode connects when the string is complete. */
    assert_ok(SQLDriverConnect(dbc, NULL,
                               (SQLCHAR *)" driver = {Lector} ; dbq=" PEOPLE_DBF
                                          ";ShowDeleted=0;Odd={a;b}",
                               SQL_NTS, (SQLCHAR *)out, sizeof out, &outlen,
                               SQL_DRIVER_COMPLETE));
    const char *expect = "DRIVER=Lector;Database=" PEOPLE_DBF ";ShowDeleted=0;Odd={a;b};";
    assert_string_equal(out, expect);
    assert_int_equal(outlen, (SQLSMALLINT)strlen(expect));
    SQLUINTEGER dead = 9;
    assert_ok(SQLGetConnectAttr(dbc, SQL_ATTR_CONNECTION_DEAD, &dead, 0, NULL));
    assert_int_equal(dead, SQL_CD_FALSE);
    /* Connected already. */
    assert_int_equal(try_connect(dbc, "Database=" PEOPLE_DBF, out, sizeof out, &outlen),
                     SQL_ERROR);
    assert_dbc_state(dbc, "08002");
    assert_ok(SQLDisconnect(dbc));

    /* A short out buffer: 01004, the full length still reported. */
    char small[16];
    assert_int_equal(SQLDriverConnect(dbc, NULL, (SQLCHAR *)"Database=" PEOPLE_DBF, SQL_NTS,
                                      (SQLCHAR *)small, sizeof small, &outlen,
                                      SQL_DRIVER_PROMPT),
                     SQL_SUCCESS_WITH_INFO);
    assert_dbc_state(dbc, "01004");
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_int_equal(outlen, (SQLSMALLINT)strlen("DRIVER=Lector;Database=" PEOPLE_DBF ";"));
    /* A statement; SQLDisconnect frees it. */
    SQLHSTMT stmt;
    SQLHDESC desc;
    assert_ok(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &stmt));
    assert_ok(SQLAllocHandle(SQL_HANDLE_DESC, dbc, &desc));
    exec_ok(stmt, "SELECT * FROM people");
    assert_int_equal(SQLFreeHandle(SQL_HANDLE_DBC, dbc), SQL_ERROR);
    assert_dbc_state(dbc, "HY010");
    assert_ok(SQLDisconnect(dbc));
    assert_ok(SQLFreeHandle(SQL_HANDLE_DBC, dbc));
    assert_ok(SQLFreeHandle(SQL_HANDLE_ENV, env));
}

static void test_connect_dsn(void **state)
{
    (void)state;
    char dir[] = "/tmp/lector-dsn-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char ini[256], inst[256];
    snprintf(ini, sizeof ini, "%s/odbc.ini", dir);
    snprintf(inst, sizeof inst, "%s/odbcinst.ini", dir);
    FILE *f = fopen(ini, "w");
    assert_non_null(f);
    fprintf(f, "[LectorCoreTest]\nDriver = Lector\nDatabase = %s\nShowDeleted = 0\n\n"
               "[LectorNoDb]\nDriver = Lector\n",
            PEOPLE_DBF);
    fclose(f);
    f = fopen(inst, "w");
    assert_non_null(f);
    fclose(f);
    setenv("ODBCINI", ini, 1);
    setenv("ODBCSYSINI", dir, 1);

    SQLHENV env = new_env();
    SQLHDBC dbc;
    assert_ok(SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc));
    SQLRETURN rc = SQLConnect(dbc, (SQLCHAR *)"LectorCoreTest", SQL_NTS, NULL, 0, NULL, 0);
    if (rc != SQL_SUCCESS)
        fail_msg("SQLConnect: %s %s", state_of(SQL_HANDLE_DBC, dbc, 1),
                 message_of(SQL_HANDLE_DBC, dbc, 1));
    SQLHSTMT stmt;
    assert_ok(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &stmt));
    exec_ok(stmt, "SELECT NAME FROM people");
    assert_ok(SQLFetch(stmt));
    char name[32];
    SQLLEN ind;
    assert_ok(SQLGetData(stmt, 1, SQL_C_CHAR, name, sizeof name, &ind));
    assert_string_equal(name, "Alice");
    /* SQL_DIAG_SERVER_NAME / CONNECTION_NAME name the DSN. */
    assert_int_equal(SQLGetData(stmt, 7, SQL_C_CHAR, name, sizeof name, &ind), SQL_ERROR);
    char text[64];
    SQLSMALLINT len;
    assert_ok(SQLGetDiagField(SQL_HANDLE_STMT, stmt, 1, SQL_DIAG_SERVER_NAME, text,
                              sizeof text, &len));
    assert_string_equal(text, "LectorCoreTest");
    assert_ok(SQLDisconnect(dbc));

    /* A DSN without Database=. */
    assert_int_equal(SQLConnect(dbc, (SQLCHAR *)"LectorNoDb", SQL_NTS, NULL, 0, NULL, 0),
                     SQL_ERROR);
    assert_dbc_state(dbc, "08001");
    assert_non_null(strstr(message_of(SQL_HANDLE_DBC, dbc, 1), "Database= is missing"));

    /* DSN= in a connection string, overridden by the string's keywords. */
    char out[512];
    SQLSMALLINT outlen;
    assert_ok(SQLDriverConnect(dbc, NULL, (SQLCHAR *)"DSN=LectorCoreTest;ShowDeleted=1",
                               SQL_NTS, (SQLCHAR *)out, sizeof out, &outlen,
                               SQL_DRIVER_NOPROMPT));
    assert_non_null(strstr(out, "DSN=LectorCoreTest;Database=" PEOPLE_DBF ";"));
    assert_non_null(strstr(out, "ShowDeleted=1;"));
    assert_ok(SQLDisconnect(dbc));
    assert_ok(SQLFreeHandle(SQL_HANDLE_DBC, dbc));
    assert_ok(SQLFreeHandle(SQL_HANDLE_ENV, env));
    unlink(ini);
    unlink(inst);
    rmdir(dir);
}

static void test_browse_connect(void **state)
{
    (void)state;
    SQLHENV env = new_env();
    SQLHDBC dbc;
    assert_ok(SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc));
    char out[512];
    SQLSMALLINT outlen;
    assert_int_equal(SQLBrowseConnect(dbc, (SQLCHAR *)"DRIVER=Lector", SQL_NTS,
                                      (SQLCHAR *)out, sizeof out, &outlen),
                     SQL_NEED_DATA);
    assert_non_null(strstr(out, "DATABASE"));
    assert_ok(SQLBrowseConnect(dbc, (SQLCHAR *)"Database=" PEOPLE_DBF, SQL_NTS,
                               (SQLCHAR *)out, sizeof out, &outlen));
    assert_string_equal(out, "DRIVER=Lector;Database=" PEOPLE_DBF ";");
    assert_ok(SQLDisconnect(dbc));
    assert_ok(SQLFreeHandle(SQL_HANDLE_DBC, dbc));
    assert_ok(SQLFreeHandle(SQL_HANDLE_ENV, env));
}

/* ------------------------------------------------------------------------ */
/* Statement attributes                                                      */
/* ------------------------------------------------------------------------ */

static void test_stmt_attributes(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" PEOPLE_DBF);
    SQLHSTMT s = f.stmt;
    SQLULEN v = 0;

    assert_int_equal(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE,
                                    (SQLPOINTER)SQL_CURSOR_KEYSET_DRIVEN, 0),
                     SQL_SUCCESS_WITH_INFO);
    assert_stmt_state(s, "01S02");
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, &v, 0, NULL));
    assert_int_equal(v, SQL_CURSOR_STATIC);
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_CURSOR_SCROLLABLE, &v, 0, NULL));
    assert_int_equal(v, SQL_SCROLLABLE);
    assert_int_equal(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)77, 0), SQL_ERROR);
    assert_stmt_state(s, "HY024");
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_SCROLLABLE, (SQLPOINTER)SQL_NONSCROLLABLE, 0));
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, &v, 0, NULL));
    assert_int_equal(v, SQL_CURSOR_FORWARD_ONLY);

    assert_int_equal(SQLSetStmtAttr(s, SQL_ATTR_CONCURRENCY, (SQLPOINTER)SQL_CONCUR_LOCK, 0),
                     SQL_SUCCESS_WITH_INFO);
    assert_stmt_state(s, "01S02");
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_CONCURRENCY, &v, 0, NULL));
    assert_int_equal(v, SQL_CONCUR_READ_ONLY);

    assert_int_equal(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)5, 0),
                     SQL_SUCCESS_WITH_INFO);
    assert_stmt_state(s, "01S02");
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, &v, 0, NULL));
    assert_int_equal(v, 1);
    assert_int_equal(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)0, 0), SQL_ERROR);
    assert_stmt_state(s, "HY024");

    assert_int_equal(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)0, 0), SQL_ERROR);
    assert_stmt_state(s, "HY024");
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)64, 0));
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, &v, 0, NULL));
    assert_int_equal(v, 64);
    /* It is the ARD's SQL_DESC_ARRAY_SIZE. */
    SQLHDESC ard = NULL;
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_APP_ROW_DESC, &ard, 0, NULL));
    SQLULEN size = 0;
    assert_ok(SQLGetDescField(ard, 0, SQL_DESC_ARRAY_SIZE, &size, 0, NULL));
    assert_int_equal(size, 64);

    SQLUSMALLINT status[4];
    SQLULEN fetched;
    SQLLEN offset = 0;
    SQLPOINTER p = NULL;
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROW_STATUS_PTR, status, 0));
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_ROW_STATUS_PTR, &p, 0, NULL));
    assert_ptr_equal(p, status);
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0));
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_ROWS_FETCHED_PTR, &p, 0, NULL));
    assert_ptr_equal(p, &fetched);
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROW_BIND_OFFSET_PTR, &offset, 0));
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_ROW_BIND_OFFSET_PTR, &p, 0, NULL));
    assert_ptr_equal(p, &offset);
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROW_BIND_TYPE, (SQLPOINTER)48, 0));
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_ROW_BIND_TYPE, &v, 0, NULL));
    assert_int_equal(v, 48);
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROW_BIND_TYPE, (SQLPOINTER)SQL_BIND_BY_COLUMN, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_PARAM_BIND_TYPE, (SQLPOINTER)SQL_PARAM_BIND_BY_COLUMN, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_PARAM_BIND_OFFSET_PTR, NULL, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_PARAM_STATUS_PTR, NULL, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_PARAMS_PROCESSED_PTR, NULL, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROW_OPERATION_PTR, NULL, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_MAX_ROWS, (SQLPOINTER)10, 0));
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_MAX_ROWS, &v, 0, NULL));
    assert_int_equal(v, 10);
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_MAX_ROWS, (SQLPOINTER)0, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_QUERY_TIMEOUT, (SQLPOINTER)30, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_NOSCAN, (SQLPOINTER)SQL_NOSCAN_ON, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_RETRIEVE_DATA, (SQLPOINTER)SQL_RD_ON, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_USE_BOOKMARKS, (SQLPOINTER)SQL_UB_VARIABLE, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_USE_BOOKMARKS, (SQLPOINTER)SQL_UB_OFF, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_KEYSET_SIZE, (SQLPOINTER)0, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_SIMULATE_CURSOR, (SQLPOINTER)SQL_SC_NON_UNIQUE, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_METADATA_ID, (SQLPOINTER)SQL_FALSE, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_FETCH_BOOKMARK_PTR, NULL, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ENABLE_AUTO_IPD, (SQLPOINTER)SQL_FALSE, 0));
    assert_int_equal(SQLSetStmtAttr(s, SQL_ATTR_ENABLE_AUTO_IPD, (SQLPOINTER)SQL_TRUE, 0),
                     SQL_ERROR);
    assert_stmt_state(s, "HYC00");
    assert_int_equal(SQLSetStmtAttr(s, SQL_ATTR_ASYNC_ENABLE,
                                    (SQLPOINTER)SQL_ASYNC_ENABLE_ON, 0),
                     SQL_ERROR);
    assert_stmt_state(s, "HYC00");
    assert_int_equal(SQLSetStmtAttr(s, SQL_ATTR_MAX_LENGTH, (SQLPOINTER)100, 0),
                     SQL_SUCCESS_WITH_INFO);
    assert_stmt_state(s, "01S02");
    assert_int_equal(SQLSetStmtAttr(s, SQL_ATTR_ROW_NUMBER, (SQLPOINTER)1, 0), SQL_ERROR);
    assert_stmt_state(s, "HY092");
    assert_int_equal(SQLSetStmtAttr(s, 31337, NULL, 0), SQL_ERROR);
    assert_stmt_state(s, "HY092");

    /* Descriptor attributes. */
    SQLHDESC ird = NULL, ipd = NULL, apd = NULL;
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_IMP_ROW_DESC, &ird, 0, NULL));
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_IMP_PARAM_DESC, &ipd, 0, NULL));
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_APP_PARAM_DESC, &apd, 0, NULL));
    assert_non_null(ird);
    assert_non_null(ipd);
    assert_int_equal(SQLSetStmtAttr(s, SQL_ATTR_IMP_ROW_DESC, ird, 0), SQL_ERROR);
    assert_stmt_state(s, "HY017");
    /* Another statement's implicit descriptor cannot be an ARD. */
    SQLHSTMT s2;
    SQLHDESC ard2;
    assert_ok(SQLAllocHandle(SQL_HANDLE_STMT, f.dbc, &s2));
    assert_ok(SQLGetStmtAttr(s2, SQL_ATTR_APP_ROW_DESC, &ard2, 0, NULL));
    assert_int_equal(SQLSetStmtAttr(s, SQL_ATTR_APP_ROW_DESC, ard2, 0), SQL_ERROR);
    assert_stmt_state(s, "HY017");
    SQLHDESC mine;
    assert_ok(SQLAllocHandle(SQL_HANDLE_DESC, f.dbc, &mine));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_APP_ROW_DESC, mine, 0));
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_APP_ROW_DESC, &p, 0, NULL));
    assert_ptr_equal(p, mine);
    /* Freeing it puts the implicit one back. */
    assert_ok(SQLFreeHandle(SQL_HANDLE_DESC, mine));
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_APP_ROW_DESC, &p, 0, NULL));
    assert_ptr_equal(p, ard);
    /* Implicit descriptors cannot be freed. */
    assert_int_equal(SQLFreeHandle(SQL_HANDLE_DESC, ard), SQL_ERROR);
    assert_state(SQL_HANDLE_DESC, ard, "HY017");

    /* With a cursor open the cursor attributes are frozen. */
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)4, 0));
    exec_ok(s, "SELECT * FROM people");
    assert_int_equal(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE,
                                    (SQLPOINTER)SQL_CURSOR_STATIC, 0),
                     SQL_ERROR);
    assert_stmt_state(s, "HY011");
    assert_int_equal(SQLGetStmtAttr(s, SQL_ATTR_ROW_NUMBER, &v, 0, NULL), SQL_ERROR);
    assert_stmt_state(s, "24000"); /* before the first row */
    assert_ok(SQLFetch(s));
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_ROW_NUMBER, &v, 0, NULL));
    assert_int_equal(v, 1);
    assert_int_equal(fetched, 2);
    assert_int_equal(status[1], SQL_ROW_SUCCESS);
    assert_int_equal(status[2], SQL_ROW_NOROW);
    assert_ok(SQLFreeHandle(SQL_HANDLE_STMT, s2));
    disconnect(&f);
}

/* ------------------------------------------------------------------------ */
/* Small statement-level calls                                               */
/* ------------------------------------------------------------------------ */

static void test_misc_calls(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" PEOPLE_DBF);
    SQLHSTMT s = f.stmt;
    char buf[128];
    SQLINTEGER len32 = 0;
    SQLSMALLINT len = 0;
    assert_ok(SQLNativeSql(f.dbc, (SQLCHAR *)"SELECT 1", SQL_NTS, (SQLCHAR *)buf, sizeof buf,
                           &len32));
    assert_string_equal(buf, "SELECT 1");
    assert_int_equal(len32, 8);
    assert_int_equal(SQLNativeSql(f.dbc, (SQLCHAR *)"SELECT 1", SQL_NTS, (SQLCHAR *)buf, 4,
                                  &len32),
                     SQL_SUCCESS_WITH_INFO);
    assert_dbc_state(f.dbc, "01004");
    assert_int_equal(SQLNativeSql(f.dbc, NULL, SQL_NTS, (SQLCHAR *)buf, 4, &len32), SQL_ERROR);
    assert_dbc_state(f.dbc, "HY009");

    assert_ok(SQLEndTran(SQL_HANDLE_DBC, f.dbc, SQL_COMMIT));
    assert_ok(SQLEndTran(SQL_HANDLE_ENV, f.env, SQL_ROLLBACK));
    assert_int_equal(SQLEndTran(SQL_HANDLE_DBC, f.dbc, 9), SQL_ERROR);
    assert_dbc_state(f.dbc, "HY012");

    assert_ok(SQLGetCursorName(s, (SQLCHAR *)buf, sizeof buf, &len));
    assert_memory_equal(buf, "SQL_CUR", 7);
    assert_int_equal(SQLSetCursorName(s, (SQLCHAR *)"SQL_CURX", SQL_NTS), SQL_ERROR);
    assert_stmt_state(s, "34000");
    assert_ok(SQLSetCursorName(s, (SQLCHAR *)"mine", SQL_NTS));
    assert_ok(SQLGetCursorName(s, (SQLCHAR *)buf, sizeof buf, &len));
    assert_string_equal(buf, "mine");
    SQLHSTMT s2;
    assert_ok(SQLAllocHandle(SQL_HANDLE_STMT, f.dbc, &s2));
    assert_int_equal(SQLSetCursorName(s2, (SQLCHAR *)"mine", SQL_NTS), SQL_ERROR);
    assert_stmt_state(s2, "3C000");
    assert_ok(SQLFreeStmt(s2, SQL_DROP));

    assert_int_equal(SQLFreeStmt(s, 42), SQL_ERROR);
    assert_stmt_state(s, "HY092");
    assert_ok(SQLFreeStmt(s, SQL_CLOSE)); /* no cursor: fine */
    assert_ok(SQLFreeStmt(s, SQL_UNBIND));
    assert_ok(SQLFreeStmt(s, SQL_RESET_PARAMS));
    assert_int_equal(SQLCloseCursor(s), SQL_ERROR);
    assert_stmt_state(s, "24000");
    assert_int_equal(SQLMoreResults(s), SQL_NO_DATA);
    assert_ok(SQLCancel(s));
    assert_int_equal(SQLCancel(NULL), SQL_INVALID_HANDLE);
    disconnect(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_sequence),
        cmocka_unit_test(test_env_attributes),
        cmocka_unit_test(test_diagnostics),
        cmocka_unit_test(test_connect_attributes),
        cmocka_unit_test(test_driver_connect_errors),
        cmocka_unit_test(test_driver_connect_out_string),
        cmocka_unit_test(test_connect_dsn),
        cmocka_unit_test(test_browse_connect),
        cmocka_unit_test(test_stmt_attributes),
        cmocka_unit_test(test_misc_calls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
