/*
** test_driver_unicode.c — the W entry points (driver/unicode.c) over a real
** connection to a corpus dBASE file whose text is CJK, Greek and an emoji.
**
** The test calls the driver's functions directly (no driver manager).  It
** checks the units of every length (characters for SQLDescribeColW,
** SQLGetDiagRecW, SQLDriverConnectW, SQLNativeSqlW; bytes for SQLGetInfoW,
** SQLColAttributeW, SQLGetDiagFieldW), truncation (01004 with the full
** length), and that the diagnostics after a W call are exactly the call's:
** no stray 01004 from the wrapper's own UTF-8 buffer.  Where the ANSI
** function gives the same answer in UTF-8, the W answer is compared with it.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "driver/wide.h"

#define FILE_PATH LT_CORPUS_DIR "/dbf/generated/cpg_utf8.dbf"
#define TABLE "cpg_utf8"
#define UTF16 (sizeof(SQLWCHAR) == 2)

typedef struct fixture {
    SQLHENV env;
    SQLHDBC dbc;
} fixture;

/* A SQLWCHAR copy of UTF-8 `s` in `buf` (room for `cap` units). */
static SQLWCHAR *W(SQLWCHAR *buf, size_t cap, const char *s)
{
    size_t n = lt_utf8_to_wide(s, strlen(s), buf, cap, NULL);
    assert_true(n < cap);
    return buf;
}
#define WTEXT(name, s) \
    SQLWCHAR name##_buf[1024]; \
    SQLWCHAR *name = W(name##_buf, 1024, s)

/* UTF-8 of a SQLWCHAR result; the caller frees. */
static char *U(const SQLWCHAR *w)
{
    char *s = lt_wide_to_utf8(w, SQL_NTS, NULL, NULL);
    assert_non_null(s);
    return s;
}

static void assert_wide_equal(const SQLWCHAR *w, const char *expect)
{
    char *s = U(w);
    assert_string_equal(s, expect);
    free(s);
}

static SQLINTEGER diag_count(SQLSMALLINT type, SQLHANDLE h)
{
    SQLINTEGER n = -1;
    assert_int_equal(SQLGetDiagFieldW(type, h, 0, SQL_DIAG_NUMBER, &n, 0, NULL),
                     SQL_SUCCESS);
    return n;
}

/* The handle holds exactly one diagnostic, with this SQLSTATE. */
static void assert_only_diag(SQLSMALLINT type, SQLHANDLE h, const char *state)
{
    SQLWCHAR st[6];
    SQLINTEGER native;
    SQLSMALLINT len = -1;

    assert_int_equal(diag_count(type, h), 1);
    assert_int_equal(SQLGetDiagRecW(type, h, 1, st, &native, NULL, 0, &len),
                     SQL_SUCCESS);
    assert_wide_equal(st, state);
    assert_true(len > 0);
}

#define CONN_STRING "Driver=Lector;Database=" FILE_PATH

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    WTEXT(in, CONN_STRING);
    SQLWCHAR out[1024];
    SQLSMALLINT outlen = -1;

    if (!f)
        return -1;
    if (SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &f->env) != SQL_SUCCESS ||
        SQLSetEnvAttr(f->env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3,
                      0) != SQL_SUCCESS ||
        SQLAllocHandle(SQL_HANDLE_DBC, f->env, &f->dbc) != SQL_SUCCESS)
        return -1;
    if (!SQL_SUCCEEDED(SQLDriverConnectW(f->dbc, NULL, in, SQL_NTS, out, 1024,
                                         &outlen, SQL_DRIVER_NOPROMPT)))
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    SQLDisconnect(f->dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, f->dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, f->env);
    free(f);
    return 0;
}

static SQLHSTMT new_stmt(fixture *f)
{
    SQLHSTMT st = SQL_NULL_HSTMT;
    assert_int_equal(SQLAllocHandle(SQL_HANDLE_STMT, f->dbc, &st), SQL_SUCCESS);
    return st;
}

/* SQLDriverConnectW: the out string in characters, and truncated. */
static void test_driver_connect(void **state)
{
    fixture *f = *state;
    WTEXT(in, CONN_STRING);
    SQLWCHAR out[1024], small[8];
    SQLSMALLINT outlen = -1, smalllen = -1;
    SQLHDBC dbc;
    char *s;

    assert_int_equal(SQLAllocHandle(SQL_HANDLE_DBC, f->env, &dbc), SQL_SUCCESS);
    assert_true(SQL_SUCCEEDED(SQLDriverConnectW(dbc, NULL, in, SQL_NTS, out,
                                                1024, &outlen,
                                                SQL_DRIVER_NOPROMPT)));
    assert_int_equal(outlen, (SQLSMALLINT)lt_wide_len(out));
    s = U(out);
    assert_non_null(strstr(s, FILE_PATH));
    free(s);
    SQLDisconnect(dbc);

    /* Too small: 01004 with the full length in characters, never a split. */
    assert_int_equal(SQLDriverConnectW(dbc, NULL, in, SQL_NTS, small, 8,
                                       &smalllen, SQL_DRIVER_NOPROMPT),
                     SQL_SUCCESS_WITH_INFO);
    assert_int_equal(smalllen, outlen);
    assert_int_equal(lt_wide_len(small), 7);
    assert_memory_equal(small, out, 7 * sizeof(SQLWCHAR));
    assert_only_diag(SQL_HANDLE_DBC, dbc, "01004");
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
}

/* A connection string with a path that does not exist: 08001, the message
** read back in characters names the (non-ASCII) path. */
static void test_connect_error_message(void **state)
{
    fixture *f = *state;
    WTEXT(in, "Database=/nonexistent/\xE6\x97\xA5\xE6\x9C\xAC.dbf");
    SQLWCHAR st[6], msg[512];
    SQLINTEGER native;
    SQLSMALLINT len = -1;
    SQLHDBC dbc;
    char *s;

    assert_int_equal(SQLAllocHandle(SQL_HANDLE_DBC, f->env, &dbc), SQL_SUCCESS);
    assert_int_equal(SQLDriverConnectW(dbc, NULL, in, SQL_NTS, NULL, 0, NULL,
                                       SQL_DRIVER_NOPROMPT),
                     SQL_ERROR);
    assert_int_equal(SQLGetDiagRecW(SQL_HANDLE_DBC, dbc, 1, st, &native, msg,
                                    512, &len),
                     SQL_SUCCESS);
    assert_wide_equal(st, "08001");
    assert_int_equal(len, (SQLSMALLINT)lt_wide_len(msg));
    s = U(msg);
    assert_non_null(strstr(s, "/nonexistent/\xE6\x97\xA5\xE6\x9C\xAC.dbf"));
    free(s);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
}

/* Fetch column `col` of the current row as SQL_C_WCHAR into UTF-8. */
static char *get_wchar(SQLHSTMT st, SQLUSMALLINT col)
{
    SQLWCHAR buf[256];
    SQLLEN ind = 0;
    assert_true(SQL_SUCCEEDED(SQLGetData(st, col, SQL_C_WCHAR, buf, sizeof buf,
                                         &ind)));
    assert_int_equal(ind, (SQLLEN)(lt_wide_len(buf) * sizeof(SQLWCHAR)));
    return U(buf);
}

/* SQLExecDirectW with non-ASCII literals reaches the engine as UTF-8. */
static void test_exec_direct(void **state)
{
    fixture *f = *state;
    SQLHSTMT st = new_stmt(f);
    WTEXT(q1, "SELECT ID, TEXT FROM " TABLE " WHERE TEXT = "
              "'\xCE\x95\xCE\xBB\xCE\xBB\xCE\xB7\xCE\xBD\xCE\xB9\xCE\xBA\xCE\xAC'");
    WTEXT(q2, "SELECT TEXT FROM " TABLE " WHERE ID = 4");
    char *s;
    SQLINTEGER id = 0;

    assert_int_equal(SQLExecDirectW(st, q1, SQL_NTS), SQL_SUCCESS);
    assert_int_equal(SQLFetch(st), SQL_SUCCESS);
    assert_true(SQL_SUCCEEDED(SQLGetData(st, 1, SQL_C_SLONG, &id, 0, NULL)));
    assert_int_equal(id, 3);
    s = get_wchar(st, 2);
    assert_string_equal(s, "\xCE\x95\xCE\xBB\xCE\xBB\xCE\xB7\xCE\xBD\xCE\xB9"
                           "\xCE\xBA\xCE\xAC");
    free(s);
    assert_int_equal(SQLFetch(st), SQL_NO_DATA);
    SQLCloseCursor(st);

    /* An explicit length in characters: the whole text, not its bytes. */
    assert_int_equal(SQLExecDirectW(st, q2, (SQLINTEGER)lt_wide_len(q2)),
                     SQL_SUCCESS);
    assert_int_equal(SQLFetch(st), SQL_SUCCESS);
    s = get_wchar(st, 1);
    assert_string_equal(s, "emoji \xF0\x9F\x99\x82 ok");
    free(s);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* SQLDescribeColW: name lengths in characters; truncation; and a
** non-ASCII alias where characters and bytes differ. */
static void test_describe_col(void **state)
{
    fixture *f = *state;
    SQLHSTMT st = new_stmt(f);
    WTEXT(q, "SELECT ID, TEXT AS \"\xE3\x83\x86\xE3\x82\xAD\xE3\x82\xB9\xE3\x83\x88"
             "\xF0\x9F\x99\x82\" FROM " TABLE);
    SQLWCHAR name[64], small[3];
    SQLSMALLINT len = -1, type = 0, digits = 0, nullable = 0;
    SQLULEN size = 0;
    const SQLSMALLINT alias_units = UTF16 ? 6 : 5;

    assert_int_equal(SQLExecDirectW(st, q, SQL_NTS), SQL_SUCCESS);
    assert_int_equal(SQLDescribeColW(st, 1, name, 64, &len, &type, &size,
                                     &digits, &nullable),
                     SQL_SUCCESS);
    assert_wide_equal(name, "ID");
    assert_int_equal(len, 2);
    assert_int_equal(diag_count(SQL_HANDLE_STMT, st), 0);

    assert_int_equal(SQLDescribeColW(st, 2, name, 64, &len, &type, &size,
                                     &digits, &nullable),
                     SQL_SUCCESS);
    assert_wide_equal(name, "\xE3\x83\x86\xE3\x82\xAD\xE3\x82\xB9\xE3\x83\x88"
                            "\xF0\x9F\x99\x82");
    assert_int_equal(len, alias_units);
    assert_true(type == SQL_WVARCHAR || type == SQL_WCHAR ||
                type == SQL_VARCHAR || type == SQL_CHAR ||
                type == SQL_WLONGVARCHAR || type == SQL_LONGVARCHAR);

    /* Length only. */
    len = -1;
    assert_int_equal(SQLDescribeColW(st, 2, NULL, 0, &len, NULL, NULL, NULL,
                                     NULL),
                     SQL_SUCCESS);
    assert_int_equal(len, alias_units);

    /* Three characters of room: two and the terminator. */
    assert_int_equal(SQLDescribeColW(st, 2, small, 3, &len, NULL, NULL, NULL,
                                     NULL),
                     SQL_SUCCESS_WITH_INFO);
    assert_int_equal(len, alias_units);
    assert_wide_equal(small, "\xE3\x83\x86\xE3\x82\xAD");
    assert_only_diag(SQL_HANDLE_STMT, st, "01004");

    /* Room for all but the emoji's second half: the pair is not split. */
    if (UTF16) {
        assert_int_equal(SQLDescribeColW(st, 2, name, 6, &len, NULL, NULL,
                                         NULL, NULL),
                         SQL_SUCCESS_WITH_INFO);
        assert_int_equal(lt_wide_len(name), 4);
        assert_int_equal(len, 6);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* SQLColAttributeW: string fields in bytes, numbers straight through. */
static void test_col_attribute(void **state)
{
    fixture *f = *state;
    SQLHSTMT st = new_stmt(f);
    WTEXT(q, "SELECT ID, TEXT FROM " TABLE);
    SQLWCHAR buf[64];
    char ansi[64];
    SQLSMALLINT len = -1, alen = -1;
    SQLLEN num = 0, num_a = 0;

    assert_int_equal(SQLExecDirectW(st, q, SQL_NTS), SQL_SUCCESS);
    assert_int_equal(SQLColAttributeW(st, 2, SQL_DESC_NAME, buf, sizeof buf,
                                      &len, NULL),
                     SQL_SUCCESS);
    assert_wide_equal(buf, "TEXT");
    assert_int_equal(len, 4 * (SQLSMALLINT)sizeof(SQLWCHAR));
    assert_int_equal(SQLColAttributeW(st, 2, SQL_COLUMN_NAME, buf, sizeof buf,
                                      &len, NULL),
                     SQL_SUCCESS);
    assert_wide_equal(buf, "TEXT");

    /* The type name agrees with the ANSI function's. */
    assert_int_equal(SQLColAttributeW(st, 2, SQL_DESC_TYPE_NAME, buf,
                                      sizeof buf, &len, NULL),
                     SQL_SUCCESS);
    assert_int_equal(SQLColAttribute(st, 2, SQL_DESC_TYPE_NAME, ansi,
                                     sizeof ansi, &alen, NULL),
                     SQL_SUCCESS);
    assert_wide_equal(buf, ansi);
    assert_int_equal(len, alen * (SQLSMALLINT)sizeof(SQLWCHAR));

    /* Too small: 3 characters' worth of bytes -> "TE", full length. */
    assert_int_equal(SQLColAttributeW(st, 2, SQL_DESC_NAME, buf,
                                      3 * sizeof(SQLWCHAR), &len, NULL),
                     SQL_SUCCESS_WITH_INFO);
    assert_wide_equal(buf, "TE");
    assert_int_equal(len, 4 * (SQLSMALLINT)sizeof(SQLWCHAR));
    assert_only_diag(SQL_HANDLE_STMT, st, "01004");

    /* A numeric attribute passes through. */
    assert_int_equal(SQLColAttributeW(st, 1, SQL_DESC_TYPE, NULL, 0, NULL,
                                      &num),
                     SQL_SUCCESS);
    assert_int_equal(SQLColAttribute(st, 1, SQL_DESC_TYPE, NULL, 0, NULL,
                                     &num_a),
                     SQL_SUCCESS);
    assert_true(num != 0);
    assert_int_equal(num, num_a);
    assert_int_equal(diag_count(SQL_HANDLE_STMT, st), 0);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* SQLGetDiagRecW after a bad query: lengths in characters, the same
** message as the ANSI function's, and truncation without a record. */
static void test_diag_rec(void **state)
{
    fixture *f = *state;
    SQLHSTMT st = new_stmt(f);
    /* The unknown table's name is non-ASCII, so characters != bytes. */
    WTEXT(q, "SELECT * FROM \xE8\xA1\xA8\xF0\x9F\x99\x82");
    SQLWCHAR state_w[6], msg[512], small[10];
    SQLCHAR state_a[6], msg_a[512];
    SQLINTEGER native = -1, native_a = -2;
    SQLSMALLINT len = -1, len_a = -1, slen = -1, flen = -1;
    SQLWCHAR field[16];

    assert_int_equal(SQLExecDirectW(st, q, SQL_NTS), SQL_ERROR);
    assert_int_equal(SQLGetDiagRecW(SQL_HANDLE_STMT, st, 1, state_w, &native,
                                    msg, 512, &len),
                     SQL_SUCCESS);
    assert_int_equal(SQLGetDiagRec(SQL_HANDLE_STMT, st, 1, state_a, &native_a,
                                   msg_a, sizeof msg_a, &len_a),
                     SQL_SUCCESS);
    assert_wide_equal(state_w, (char *)state_a);
    assert_int_equal(native, native_a);
    assert_wide_equal(msg, (char *)msg_a);
    assert_int_equal(len, (SQLSMALLINT)lt_wide_len(msg));
    assert_int_equal(len, (SQLSMALLINT)lt_utf8_wide_units((char *)msg_a,
                                                          (size_t)len_a));
    assert_non_null(strstr((char *)msg_a, "\xE8\xA1\xA8\xF0\x9F\x99\x82"));
    assert_true(len < len_a);  /* fewer characters than bytes */

    /* Truncated: SQL_SUCCESS_WITH_INFO, the full length, no new record. */
    assert_int_equal(SQLGetDiagRecW(SQL_HANDLE_STMT, st, 1, NULL, NULL, small,
                                    10, &slen),
                     SQL_SUCCESS_WITH_INFO);
    assert_int_equal(slen, len);
    assert_int_equal(lt_wide_len(small), 9);
    assert_memory_equal(small, msg, 9 * sizeof(SQLWCHAR));
    assert_int_equal(diag_count(SQL_HANDLE_STMT, st), 1);

    /* SQLGetDiagFieldW: bytes. */
    assert_int_equal(SQLGetDiagFieldW(SQL_HANDLE_STMT, st, 1, SQL_DIAG_SQLSTATE,
                                      field, sizeof field, &flen),
                     SQL_SUCCESS);
    assert_wide_equal(field, (char *)state_a);
    assert_int_equal(flen, 5 * (SQLSMALLINT)sizeof(SQLWCHAR));
    assert_int_equal(SQLGetDiagFieldW(SQL_HANDLE_STMT, st, 1,
                                      SQL_DIAG_MESSAGE_TEXT, NULL, 0, &flen),
                     SQL_SUCCESS);
    assert_int_equal(flen, len * (SQLSMALLINT)sizeof(SQLWCHAR));
    assert_int_equal(SQLGetDiagRecW(SQL_HANDLE_STMT, st, 2, state_w, &native,
                                    msg, 512, &len),
                     SQL_NO_DATA);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* SQLGetInfoW: bytes; a too-small buffer gives 01004 and the full length;
** a non-string type passes through. */
static void test_get_info(void **state)
{
    fixture *f = *state;
    SQLWCHAR buf[128];
    char ansi[128];
    SQLSMALLINT len = -1, alen = -1;
    SQLUSMALLINT txn = 99, txn_a = 98;

    assert_int_equal(SQLGetInfo(f->dbc, SQL_DRIVER_NAME, ansi, sizeof ansi,
                                &alen),
                     SQL_SUCCESS);
    assert_true(alen > 4);
    assert_int_equal(SQLGetInfoW(f->dbc, SQL_DRIVER_NAME, buf, sizeof buf,
                                 &len),
                     SQL_SUCCESS);
    assert_wide_equal(buf, ansi);
    assert_int_equal(len, alen * (SQLSMALLINT)sizeof(SQLWCHAR));
    assert_int_equal(diag_count(SQL_HANDLE_DBC, f->dbc), 0);

    len = -1;
    assert_int_equal(SQLGetInfoW(f->dbc, SQL_DRIVER_NAME, buf,
                                 4 * sizeof(SQLWCHAR), &len),
                     SQL_SUCCESS_WITH_INFO);
    assert_int_equal(len, alen * (SQLSMALLINT)sizeof(SQLWCHAR));
    assert_int_equal(lt_wide_len(buf), 3);
    {
        char *s = U(buf);
        assert_memory_equal(s, ansi, 3);
        free(s);
    }
    assert_only_diag(SQL_HANDLE_DBC, f->dbc, "01004");

    /* Length only: no warning. */
    assert_int_equal(SQLGetInfoW(f->dbc, SQL_DRIVER_NAME, NULL, 0, &len),
                     SQL_SUCCESS);
    assert_int_equal(len, alen * (SQLSMALLINT)sizeof(SQLWCHAR));
    assert_int_equal(diag_count(SQL_HANDLE_DBC, f->dbc), 0);

    /* The data source name and the database (the path) convert too. */
    assert_int_equal(SQLGetInfoW(f->dbc, SQL_DATABASE_NAME, buf, sizeof buf,
                                 &len),
                     SQL_SUCCESS);
    assert_int_equal(SQLGetInfo(f->dbc, SQL_DATABASE_NAME, ansi, sizeof ansi,
                                &alen),
                     SQL_SUCCESS);
    assert_wide_equal(buf, ansi);

    assert_int_equal(SQLGetInfoW(f->dbc, SQL_TXN_CAPABLE, &txn, 0, NULL),
                     SQL_SUCCESS);
    assert_int_equal(SQLGetInfo(f->dbc, SQL_TXN_CAPABLE, &txn_a, 0, NULL),
                     SQL_SUCCESS);
    assert_int_equal(txn, txn_a);
}

/* SQLNativeSqlW on a text longer than the wrapper's first UTF-8 buffer:
** the ANSI call's 01004 on that buffer must not survive. */
static void test_native_sql_long(void **state)
{
    fixture *f = *state;
    char sql[2048];
    SQLWCHAR in[2048], out[2048], small[5];
    SQLINTEGER len = -1;
    size_t n = 0, units;

    n += (size_t)snprintf(sql, sizeof sql, "SELECT ID FROM " TABLE " WHERE ");
    while (n < 900)
        n += (size_t)snprintf(sql + n, sizeof sql - n,
                              "TEXT <> '\xE6\x97\xA5\xE6\x9C\xAC' AND ");
    snprintf(sql + n, sizeof sql - n, "ID > 0");
    units = lt_utf8_to_wide(sql, strlen(sql), in, 2048, NULL);

    assert_int_equal(SQLNativeSqlW(f->dbc, in, SQL_NTS, out, 2048, &len),
                     SQL_SUCCESS);
    assert_int_equal(len, (SQLINTEGER)units);
    assert_wide_equal(out, sql);
    assert_int_equal(diag_count(SQL_HANDLE_DBC, f->dbc), 0);

    assert_int_equal(SQLNativeSqlW(f->dbc, in, (SQLINTEGER)units, small, 5,
                                   &len),
                     SQL_SUCCESS_WITH_INFO);
    assert_int_equal(len, (SQLINTEGER)units);
    assert_wide_equal(small, "SELE");
    assert_only_diag(SQL_HANDLE_DBC, f->dbc, "01004");
}

/* Catalog functions take W names; results fetch as SQL_C_WCHAR. */
static void test_catalog(void **state)
{
    fixture *f = *state;
    SQLHSTMT st = new_stmt(f);
    WTEXT(table, TABLE);
    WTEXT(pct, "%");
    char *s;
    int rows = 0;

    assert_int_equal(SQLTablesW(st, NULL, 0, NULL, 0, pct, SQL_NTS, NULL, 0),
                     SQL_SUCCESS);
    assert_int_equal(SQLFetch(st), SQL_SUCCESS);
    s = get_wchar(st, 3);
    assert_string_equal(s, TABLE);
    free(s);
    assert_int_equal(SQLFetch(st), SQL_NO_DATA);
    SQLCloseCursor(st);

    assert_int_equal(SQLColumnsW(st, NULL, 0, NULL, 0, table,
                                 (SQLSMALLINT)lt_wide_len(table), NULL, 0),
                     SQL_SUCCESS);
    while (SQLFetch(st) == SQL_SUCCESS) {
        s = get_wchar(st, 4);
        assert_string_equal(s, rows == 0 ? "ID" : "TEXT");
        free(s);
        rows++;
    }
    assert_int_equal(rows, 2);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* The IRD through SQLGetDescFieldW (bytes) and SQLGetDescRecW (chars). */
static void test_descriptors(void **state)
{
    fixture *f = *state;
    SQLHSTMT st = new_stmt(f);
    WTEXT(q, "SELECT ID, TEXT FROM " TABLE);
    SQLHDESC ird = SQL_NULL_HDESC;
    SQLWCHAR buf[64];
    SQLINTEGER len = -1;
    SQLSMALLINT slen = -1, type = 0;

    assert_int_equal(SQLExecDirectW(st, q, SQL_NTS), SQL_SUCCESS);
    assert_int_equal(SQLGetStmtAttrW(st, SQL_ATTR_IMP_ROW_DESC, &ird, 0, NULL),
                     SQL_SUCCESS);
    assert_int_equal(SQLGetDescFieldW(ird, 2, SQL_DESC_NAME, buf, sizeof buf,
                                      &len),
                     SQL_SUCCESS);
    assert_wide_equal(buf, "TEXT");
    assert_int_equal(len, 4 * (SQLINTEGER)sizeof(SQLWCHAR));
    assert_int_equal(SQLGetDescRecW(ird, 1, buf, 64, &slen, &type, NULL, NULL,
                                    NULL, NULL, NULL),
                     SQL_SUCCESS);
    assert_wide_equal(buf, "ID");
    assert_int_equal(slen, 2);
    assert_int_equal(SQLGetDescRecW(ird, 1, buf, 2, &slen, NULL, NULL, NULL,
                                    NULL, NULL, NULL),
                     SQL_SUCCESS_WITH_INFO);
    assert_wide_equal(buf, "I");
    assert_int_equal(slen, 2);
    assert_only_diag(SQL_HANDLE_DESC, ird, "01004");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* Cursor names round-trip through the W functions in characters. */
static void test_cursor_name(void **state)
{
    fixture *f = *state;
    SQLHSTMT st = new_stmt(f);
    WTEXT(name, "cur_\xC3\xBC\xF0\x9F\x99\x82");
    SQLWCHAR buf[32];
    SQLSMALLINT len = -1;

    assert_int_equal(SQLSetCursorNameW(st, name, SQL_NTS), SQL_SUCCESS);
    assert_int_equal(SQLGetCursorNameW(st, buf, 32, &len), SQL_SUCCESS);
    assert_wide_equal(buf, "cur_\xC3\xBC\xF0\x9F\x99\x82");
    assert_int_equal(len, UTF16 ? 7 : 6);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* A string connection attribute: set with SQL_NTS or a length in bytes,
** read back in bytes; numeric attributes pass through. */
static void test_connect_attr(void **state)
{
    fixture *f = *state;
    WTEXT(cat, "\xE7\x9B\xAE\xE5\xBD\x95\xF0\x9F\x99\x82");  /* 目录🙂 */
    const SQLINTEGER units = UTF16 ? 4 : 3;
    SQLWCHAR buf[32];
    SQLINTEGER len = -1;
    SQLUINTEGER mode = 0;
    SQLHDBC dbc;

    assert_int_equal(SQLAllocHandle(SQL_HANDLE_DBC, f->env, &dbc), SQL_SUCCESS);
    assert_int_equal(SQLSetConnectAttrW(dbc, SQL_ATTR_CURRENT_CATALOG, cat,
                                        SQL_NTS),
                     SQL_SUCCESS);
    assert_int_equal(SQLGetConnectAttrW(dbc, SQL_ATTR_CURRENT_CATALOG, buf,
                                        sizeof buf, &len),
                     SQL_SUCCESS);
    assert_wide_equal(buf, "\xE7\x9B\xAE\xE5\xBD\x95\xF0\x9F\x99\x82");
    assert_int_equal(len, units * (SQLINTEGER)sizeof(SQLWCHAR));

    /* A length in bytes: the first character only. */
    assert_int_equal(SQLSetConnectAttrW(dbc, SQL_ATTR_CURRENT_CATALOG, cat,
                                        (SQLINTEGER)sizeof(SQLWCHAR)),
                     SQL_SUCCESS);
    assert_int_equal(SQLGetConnectAttrW(dbc, SQL_ATTR_CURRENT_CATALOG, buf,
                                        sizeof buf, &len),
                     SQL_SUCCESS);
    assert_wide_equal(buf, "\xE7\x9B\xAE");
    assert_int_equal(len, (SQLINTEGER)sizeof(SQLWCHAR));

    /* Too small for the whole value: 01004, the full length in bytes. */
    assert_int_equal(SQLSetConnectAttrW(dbc, SQL_ATTR_CURRENT_CATALOG, cat,
                                        SQL_NTS),
                     SQL_SUCCESS);
    assert_int_equal(SQLGetConnectAttrW(dbc, SQL_ATTR_CURRENT_CATALOG, buf,
                                        2 * sizeof(SQLWCHAR), &len),
                     SQL_SUCCESS_WITH_INFO);
    assert_int_equal(len, units * (SQLINTEGER)sizeof(SQLWCHAR));
    assert_wide_equal(buf, "\xE7\x9B\xAE");
    assert_only_diag(SQL_HANDLE_DBC, dbc, "01004");

    assert_int_equal(SQLGetConnectAttrW(f->dbc, SQL_ATTR_ACCESS_MODE, &mode, 0,
                                        NULL),
                     SQL_SUCCESS);
    assert_int_equal(mode, SQL_MODE_READ_ONLY);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
}

/* SQLBrowseConnectW: SQL_NEED_DATA with the browse string in characters,
** then the connection. */
static void test_browse_connect(void **state)
{
    fixture *f = *state;
    WTEXT(first, "Driver=Lector");
    WTEXT(second, "Database=" FILE_PATH);
    SQLWCHAR out[512], small[4];
    SQLSMALLINT len = -1, slen = -1;
    SQLHDBC dbc;

    assert_int_equal(SQLAllocHandle(SQL_HANDLE_DBC, f->env, &dbc), SQL_SUCCESS);
    assert_int_equal(SQLBrowseConnectW(dbc, first, SQL_NTS, out, 512, &len),
                     SQL_NEED_DATA);
    assert_true(len > 0);
    assert_int_equal(len, (SQLSMALLINT)lt_wide_len(out));
    assert_int_equal(SQLBrowseConnectW(dbc, first, SQL_NTS, small, 4, &slen),
                     SQL_NEED_DATA);
    assert_int_equal(slen, len);
    assert_int_equal(lt_wide_len(small), 3);
    assert_only_diag(SQL_HANDLE_DBC, dbc, "01004");
    assert_true(SQL_SUCCEEDED(SQLBrowseConnectW(dbc, second, SQL_NTS, out, 512,
                                                &len)));
    assert_int_equal(len, (SQLSMALLINT)lt_wide_len(out));
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
}

/* Bad lengths and handles. */
static void test_bad_arguments(void **state)
{
    fixture *f = *state;
    SQLHSTMT st = new_stmt(f);
    SQLWCHAR buf[8] = {'x', 0};
    SQLSMALLINT len;

    assert_int_equal(SQLGetInfoW(f->dbc, SQL_DRIVER_NAME, buf, -2, &len),
                     SQL_ERROR);
    assert_only_diag(SQL_HANDLE_DBC, f->dbc, "HY090");
    assert_int_equal(SQLExecDirectW(st, buf, -7), SQL_ERROR);
    assert_only_diag(SQL_HANDLE_STMT, st, "HY090");
    assert_int_equal(SQLGetInfoW(NULL, SQL_DRIVER_NAME, buf, 16, &len),
                     SQL_INVALID_HANDLE);
    assert_int_equal(SQLDescribeColW(f->dbc, 1, buf, 8, &len, NULL, NULL, NULL,
                                     NULL),
                     SQL_INVALID_HANDLE);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_driver_connect),
        cmocka_unit_test(test_connect_error_message),
        cmocka_unit_test(test_exec_direct),
        cmocka_unit_test(test_describe_col),
        cmocka_unit_test(test_col_attribute),
        cmocka_unit_test(test_diag_rec),
        cmocka_unit_test(test_get_info),
        cmocka_unit_test(test_native_sql_long),
        cmocka_unit_test(test_catalog),
        cmocka_unit_test(test_descriptors),
        cmocka_unit_test(test_cursor_name),
        cmocka_unit_test(test_connect_attr),
        cmocka_unit_test(test_browse_connect),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
