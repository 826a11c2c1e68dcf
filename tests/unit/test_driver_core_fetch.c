/*
** test_driver_core_fetch.c — executing, describing and fetching through the
** driver's entry points: SQLFetch/SQLGetData, block cursors (column-wise
** and row-wise, with bind offsets), static cursors in every direction,
** SQLGetData in pieces, parameters, SQLColAttribute, and four threads
** sharing one connection.
*/
#include <pthread.h>

#include "test_driver_core.h"

#define BIG_ROWS 5000u

static char big_dir[64];
static char big_path[128];

static int make_big(void **state)
{
    (void)state;
    snprintf(big_dir, sizeof big_dir, "/tmp/lector-core-XXXXXX");
    if (mkdtemp(big_dir) == NULL)
        return -1;
    snprintf(big_path, sizeof big_path, "%s/big.dbf", big_dir);
    write_big_dbf(big_path, BIG_ROWS);
    return 0;
}

static int remove_big(void **state)
{
    (void)state;
    unlink(big_path);
    rmdir(big_dir);
    return 0;
}

static void connect_big(fixture *f)
{
    char conn[256];
    snprintf(conn, sizeof conn, "Database=%s", big_path);
    connect_to(f, conn);
}

/* ------------------------------------------------------------------------ */
/* One row at a time                                                         */
/* ------------------------------------------------------------------------ */

static void test_fetch_getdata(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" PEOPLE_DBF);
    SQLHSTMT s = f.stmt;
    char name[32];
    SQLLEN ind = 0;

    /* Sequence errors before anything is executed. */
    assert_int_equal(SQLFetch(s), SQL_ERROR);
    assert_stmt_state(s, "HY010");
    SQLSMALLINT ncols = -1;
    assert_int_equal(SQLNumResultCols(s, &ncols), SQL_ERROR);
    assert_stmt_state(s, "HY010");
    assert_int_equal(SQLGetData(s, 1, SQL_C_CHAR, name, sizeof name, &ind), SQL_ERROR);
    assert_stmt_state(s, "HY010");

    exec_ok(s, "SELECT * FROM people");
    assert_ok(SQLNumResultCols(s, &ncols));
    assert_int_equal(ncols, 2);
    SQLLEN count = 0;
    assert_ok(SQLRowCount(s, &count));
    assert_int_equal(count, -1);
    /* On the cursor, before the first fetch. */
    assert_int_equal(SQLGetData(s, 1, SQL_C_CHAR, name, sizeof name, &ind), SQL_ERROR);
    assert_stmt_state(s, "24000");
    /* A second statement while the cursor is open. */
    assert_int_equal(SQLExecDirect(s, (SQLCHAR *)"SELECT 1", SQL_NTS), SQL_ERROR);
    assert_stmt_state(s, "24000");
    assert_int_equal(SQLPrepare(s, (SQLCHAR *)"SELECT 1", SQL_NTS), SQL_ERROR);
    assert_stmt_state(s, "24000");

    assert_ok(SQLFetch(s));
    SQLULEN rownum = 0;
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_ROW_NUMBER, &rownum, 0, NULL));
    assert_int_equal(rownum, 1);
    /* Any order: column 2 first, then 1, then 2 again after 1. */
    SQL_DATE_STRUCT d = {0};
    assert_ok(SQLGetData(s, 2, SQL_C_TYPE_DATE, &d, sizeof d, &ind));
    assert_int_equal(d.year, 1987);
    assert_int_equal(d.month, 3);
    assert_int_equal(d.day, 1);
    assert_int_equal(ind, sizeof d);
    /* The same fixed-size column again: no more data. */
    assert_int_equal(SQLGetData(s, 2, SQL_C_TYPE_DATE, &d, sizeof d, &ind), SQL_NO_DATA);
    assert_ok(SQLGetData(s, 1, SQL_C_CHAR, name, sizeof name, &ind));
    assert_string_equal(name, "Alice");
    assert_int_equal(ind, 5);
    assert_ok(SQLGetData(s, 2, SQL_C_CHAR, name, sizeof name, &ind));
    assert_string_equal(name, "1987-03-01");
    /* Bad column numbers and buffers. */
    assert_int_equal(SQLGetData(s, 3, SQL_C_CHAR, name, sizeof name, &ind), SQL_ERROR);
    assert_stmt_state(s, "07009");
    assert_int_equal(SQLGetData(s, 0, SQL_C_CHAR, name, sizeof name, &ind), SQL_ERROR);
    assert_stmt_state(s, "07009");
    assert_int_equal(SQLGetData(s, 1, SQL_C_CHAR, name, -5, &ind), SQL_ERROR);
    assert_stmt_state(s, "HY090");
    assert_int_equal(SQLGetData(s, 1, 1234, name, sizeof name, &ind), SQL_ERROR);
    assert_stmt_state(s, "HY003");
    /* SQL_C_DEFAULT resolves to the column's default C type. */
    SQLWCHAR wname[32];
    assert_ok(SQLGetData(s, 1, SQL_C_DEFAULT, wname, sizeof wname, &ind));

    assert_ok(SQLFetch(s));
    assert_ok(SQLGetData(s, 1, SQL_C_CHAR, name, sizeof name, &ind));
    assert_string_equal(name, "Bob");
    assert_int_equal(SQLFetch(s), SQL_NO_DATA);
    assert_int_equal(SQLFetch(s), SQL_NO_DATA);
    assert_int_equal(SQLGetData(s, 1, SQL_C_CHAR, name, sizeof name, &ind), SQL_ERROR);
    assert_stmt_state(s, "24000");
    /* Forward-only cursors only go forward. */
    assert_int_equal(SQLFetchScroll(s, SQL_FETCH_FIRST, 0), SQL_ERROR);
    assert_stmt_state(s, "HY106");
    assert_ok(SQLCloseCursor(s));
    assert_int_equal(SQLCloseCursor(s), SQL_ERROR);
    assert_stmt_state(s, "24000");
    /* SQLExecDirect leaves nothing prepared. */
    assert_int_equal(SQLExecute(s), SQL_ERROR);
    assert_stmt_state(s, "HY010");
    disconnect(&f);
}

static void test_bound_columns(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" PEOPLE_DBF);
    SQLHSTMT s = f.stmt;
    char name[8];
    SQLLEN name_ind = 0, date_ind = 0;
    SQL_DATE_STRUCT d;
    assert_int_equal(SQLBindCol(s, 0, SQL_C_CHAR, name, sizeof name, &name_ind), SQL_ERROR);
    assert_stmt_state(s, "07009");
    assert_int_equal(SQLBindCol(s, 1, 999, name, sizeof name, &name_ind), SQL_ERROR);
    assert_stmt_state(s, "HY003");
    assert_int_equal(SQLBindCol(s, 1, SQL_C_CHAR, name, -1, &name_ind), SQL_ERROR);
    assert_stmt_state(s, "HY090");
    /* A 4-byte buffer: "Alice" is truncated with 01004. */
    assert_ok(SQLBindCol(s, 1, SQL_C_CHAR, name, 4, &name_ind));
    assert_ok(SQLBindCol(s, 2, SQL_C_TYPE_DATE, &d, 0, &date_ind));
    exec_ok(s, "SELECT NAME, BIRTHDATE FROM people");
    assert_int_equal(SQLFetch(s), SQL_SUCCESS_WITH_INFO);
    assert_stmt_state(s, "01004");
    SQLLEN row = 0;
    SQLINTEGER col = 0;
    assert_ok(SQLGetDiagField(SQL_HANDLE_STMT, s, 1, SQL_DIAG_ROW_NUMBER, &row, 0, NULL));
    assert_ok(SQLGetDiagField(SQL_HANDLE_STMT, s, 1, SQL_DIAG_COLUMN_NUMBER, &col, 0, NULL));
    assert_int_equal(row, 1);
    assert_int_equal(col, 1);
    assert_string_equal(name, "Ali");
    assert_int_equal(name_ind, 5);
    assert_int_equal(d.year, 1987);
    /* SQLGetData on a bound column (SQL_GD_BOUND). */
    char full[16];
    SQLLEN ind;
    assert_ok(SQLGetData(s, 1, SQL_C_CHAR, full, sizeof full, &ind));
    assert_string_equal(full, "Alice");
    /* Unbind the name; the date stays bound. */
    assert_ok(SQLBindCol(s, 1, SQL_C_CHAR, NULL, 0, NULL));
    memset(name, 'x', sizeof name);
    assert_ok(SQLFetch(s));
    assert_int_equal(name[0], 'x');
    assert_int_equal(d.year, 1980);
    assert_int_equal(d.month, 11);
    assert_int_equal(d.day, 12);
    assert_ok(SQLFreeStmt(s, SQL_CLOSE));
    /* SQL_UNBIND drops every binding. */
    assert_ok(SQLFreeStmt(s, SQL_UNBIND));
    SQLHDESC ard;
    SQLSMALLINT n = -1;
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_APP_ROW_DESC, &ard, 0, NULL));
    assert_ok(SQLGetDescField(ard, 0, SQL_DESC_COUNT, &n, 0, NULL));
    assert_int_equal(n, 0);
    disconnect(&f);
}

static void test_getdata_pieces(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" MEMO_DBF);
    SQLHSTMT s = f.stmt;
    exec_ok(s, "SELECT MEMO, NAME FROM memotest");
    assert_ok(SQLFetch(s));
    /* "Alice memo" in pieces of 3 bytes (a 4-byte buffer). */
    const char *expect[] = {"Ali", "ce ", "mem", "o"};
    SQLLEN remaining[] = {10, 7, 4, 1};
    char piece[4];
    SQLLEN ind;
    for (int i = 0; i < 4; i++) {
        SQLRETURN rc = SQLGetData(s, 1, SQL_C_CHAR, piece, sizeof piece, &ind);
        assert_int_equal(rc, i < 3 ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS);
        if (i < 3)
            assert_stmt_state(s, "01004");
        assert_string_equal(piece, expect[i]);
        assert_int_equal(ind, remaining[i]);
    }
    assert_int_equal(SQLGetData(s, 1, SQL_C_CHAR, piece, sizeof piece, &ind), SQL_NO_DATA);
    /* Another column, then back: the memo starts over. */
    char name[16];
    assert_ok(SQLGetData(s, 2, SQL_C_CHAR, name, sizeof name, &ind));
    assert_string_equal(name, "Alice");
    assert_int_equal(SQLGetData(s, 1, SQL_C_CHAR, piece, sizeof piece, &ind),
                     SQL_SUCCESS_WITH_INFO);
    assert_string_equal(piece, "Ali");
    /* Binary pieces. */
    assert_ok(SQLFetch(s));
    unsigned char bin[3];
    assert_int_equal(SQLGetData(s, 1, SQL_C_BINARY, bin, sizeof bin, &ind),
                     SQL_SUCCESS_WITH_INFO);
    assert_memory_equal(bin, "Bob", 3);
    assert_int_equal(ind, 8);
    assert_int_equal(SQLGetData(s, 1, SQL_C_BINARY, bin, sizeof bin, &ind),
                     SQL_SUCCESS_WITH_INFO);
    assert_memory_equal(bin, " me", 3);
    assert_int_equal(SQLGetData(s, 1, SQL_C_BINARY, bin, sizeof bin, &ind), SQL_SUCCESS);
    assert_memory_equal(bin, "mo", 2);
    assert_int_equal(ind, 2);
    assert_int_equal(SQLGetData(s, 1, SQL_C_BINARY, bin, sizeof bin, &ind), SQL_NO_DATA);
    disconnect(&f);
}

/* ------------------------------------------------------------------------ */
/* Block cursors                                                             */
/* ------------------------------------------------------------------------ */

static void test_block_column_wise(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" PEOPLE_DBF);
    SQLHSTMT s = f.stmt;
    char names[4][12];
    SQLLEN name_ind[4];
    SQL_DATE_STRUCT dates[4];
    SQLLEN date_ind[4];
    SQLUSMALLINT status[4];
    SQLULEN fetched = 99;
    memset(names, 0, sizeof names);
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)4, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROW_STATUS_PTR, status, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0));
    assert_ok(SQLBindCol(s, 1, SQL_C_CHAR, names, sizeof names[0], name_ind));
    assert_ok(SQLBindCol(s, 2, SQL_C_TYPE_DATE, dates, 0, date_ind));
    exec_ok(s, "SELECT * FROM people");
    assert_ok(SQLFetch(s));
    assert_int_equal(fetched, 2);
    assert_int_equal(status[0], SQL_ROW_SUCCESS);
    assert_int_equal(status[1], SQL_ROW_SUCCESS);
    assert_int_equal(status[2], SQL_ROW_NOROW);
    assert_int_equal(status[3], SQL_ROW_NOROW);
    assert_string_equal(names[0], "Alice");
    assert_string_equal(names[1], "Bob");
    assert_int_equal(name_ind[1], 3);
    assert_int_equal(dates[1].year, 1980);
    assert_int_equal(date_ind[0], sizeof(SQL_DATE_STRUCT));
    /* SQLGetData on row 2 of the rowset after SQLSetPos (SQL_GD_BLOCK). */
    char buf[16];
    SQLLEN ind;
    assert_int_equal(SQLSetPos(s, 3, SQL_POSITION, SQL_LOCK_NO_CHANGE), SQL_ERROR);
    assert_stmt_state(s, "HY107");
    assert_int_equal(SQLSetPos(s, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE), SQL_ERROR);
    assert_stmt_state(s, "HYC00");
    assert_ok(SQLSetPos(s, 2, SQL_POSITION, SQL_LOCK_NO_CHANGE));
    assert_ok(SQLGetData(s, 1, SQL_C_CHAR, buf, sizeof buf, &ind));
    assert_string_equal(buf, "Bob");
    SQLULEN rownum;
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_ROW_NUMBER, &rownum, 0, NULL));
    assert_int_equal(rownum, 2);
    fetched = 99;
    assert_int_equal(SQLFetch(s), SQL_NO_DATA);
    assert_int_equal(fetched, 0);
    disconnect(&f);
}

typedef struct person_row {
    SQLCHAR name[12];
    SQLLEN name_ind;
    SQL_DATE_STRUCT birth;
    SQLLEN birth_ind;
} person_row;

static void test_block_row_wise_offset(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" PEOPLE_DBF);
    SQLHSTMT s = f.stmt;
    person_row rows[6];
    memset(rows, 0, sizeof rows);
    SQLLEN offset = 0;
    SQLULEN fetched = 0;
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)3, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROW_BIND_TYPE, (SQLPOINTER)sizeof(person_row), 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROW_BIND_OFFSET_PTR, &offset, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0));
    assert_ok(SQLBindCol(s, 1, SQL_C_CHAR, rows[0].name, sizeof rows[0].name,
                         &rows[0].name_ind));
    assert_ok(SQLBindCol(s, 2, SQL_C_TYPE_DATE, &rows[0].birth, 0, &rows[0].birth_ind));
    /* The offset moves every binding to rows[3..5]. */
    offset = 3 * (SQLLEN)sizeof(person_row);
    exec_ok(s, "SELECT * FROM people");
    assert_ok(SQLFetch(s));
    assert_int_equal(fetched, 2);
    assert_string_equal((char *)rows[0].name, "");
    assert_string_equal((char *)rows[3].name, "Alice");
    assert_string_equal((char *)rows[4].name, "Bob");
    assert_int_equal(rows[4].name_ind, 3);
    assert_int_equal(rows[3].birth.year, 1987);
    assert_int_equal(rows[4].birth.day, 12);
    assert_int_equal(rows[4].birth_ind, sizeof(SQL_DATE_STRUCT));
    assert_int_equal(rows[5].name_ind, 0);
    disconnect(&f);
}

/* Column-wise rowsets of 1000 over 5000 rows: the rowsets straddle the
** engine's 2048-row batches, and SQLGetData reads a straddling row. */
static void test_block_across_batches(void **state)
{
    (void)state;
    fixture f;
    connect_big(&f);
    SQLHSTMT s = f.stmt;
    enum { N = 1000 };
    static SQLINTEGER ids[N];
    static SQLLEN ids_ind[N];
    static char names[N][13];
    static SQLLEN names_ind[N];
    SQLUSMALLINT status[N];
    SQLULEN fetched = 0;
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)N, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROW_STATUS_PTR, status, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0));
    assert_ok(SQLBindCol(s, 1, SQL_C_SLONG, ids, 0, ids_ind));
    assert_ok(SQLBindCol(s, 2, SQL_C_CHAR, names, sizeof names[0], names_ind));
    exec_ok(s, "SELECT ID, NAME, NOTE FROM big");
    SQLINTEGER next = 1;
    for (int block = 0; block < 5; block++) {
        assert_ok(SQLFetch(s));
        assert_int_equal(fetched, N);
        for (int i = 0; i < N; i++, next++) {
            assert_int_equal(ids[i], next);
            char want[16];
            snprintf(want, sizeof want, "name%d", next);
            assert_string_equal(names[i], want);
            assert_int_equal(status[i], SQL_ROW_SUCCESS);
        }
        if (block == 2) {
            /* Rows 2001..3000: row 2040 of the result sits before the
            ** boundary at 2048, in a batch the engine has moved past. */
            assert_ok(SQLSetPos(s, 40, SQL_POSITION, SQL_LOCK_NO_CHANGE));
            char note[48];
            SQLLEN ind;
            assert_ok(SQLGetData(s, 3, SQL_C_CHAR, note, sizeof note, &ind));
            assert_string_equal(note, "row number 2040 of the big table");
            SQLINTEGER id;
            assert_ok(SQLGetData(s, 1, SQL_C_SLONG, &id, 0, &ind));
            assert_int_equal(id, 2040);
        }
    }
    assert_int_equal(SQLFetch(s), SQL_NO_DATA);
    assert_int_equal(fetched, 0);
    assert_ok(SQLCloseCursor(s));

    /* MAX_ROWS stops the cursor. */
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_MAX_ROWS, (SQLPOINTER)1500, 0));
    exec_ok(s, "SELECT ID, NAME FROM big");
    assert_ok(SQLFetch(s));
    assert_int_equal(fetched, N);
    assert_ok(SQLFetch(s));
    assert_int_equal(fetched, 500);
    assert_int_equal(status[499], SQL_ROW_SUCCESS);
    assert_int_equal(status[500], SQL_ROW_NOROW);
    assert_int_equal(SQLFetch(s), SQL_NO_DATA);
    disconnect(&f);
}

/* ------------------------------------------------------------------------ */
/* Static cursors                                                            */
/* ------------------------------------------------------------------------ */

static void expect_rowset(SQLINTEGER *ids, SQLULEN fetched, SQLINTEGER first, SQLULEN n)
{
    assert_int_equal(fetched, n);
    for (SQLULEN i = 0; i < n; i++)
        assert_int_equal(ids[i], first + (SQLINTEGER)i);
}

static void test_static_scroll(void **state)
{
    (void)state;
    fixture f;
    connect_big(&f);
    SQLHSTMT s = f.stmt;
    SQLINTEGER ids[10];
    SQLLEN ind[10];
    SQLULEN fetched = 0;
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_STATIC, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)10, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0));
    assert_ok(SQLBindCol(s, 1, SQL_C_SLONG, ids, 0, ind));
    exec_ok(s, "SELECT ID FROM big");

    /* PRIOR before the start: no data. */
    assert_int_equal(SQLFetchScroll(s, SQL_FETCH_PRIOR, 0), SQL_NO_DATA);
    assert_ok(SQLFetchScroll(s, SQL_FETCH_NEXT, 0));
    expect_rowset(ids, fetched, 1, 10);
    assert_ok(SQLFetchScroll(s, SQL_FETCH_LAST, 0));
    expect_rowset(ids, fetched, 4991, 10);
    assert_ok(SQLFetchScroll(s, SQL_FETCH_PRIOR, 0));
    expect_rowset(ids, fetched, 4981, 10);
    assert_ok(SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, 2045));
    expect_rowset(ids, fetched, 2045, 10); /* across the copied batches */
    assert_ok(SQLFetchScroll(s, SQL_FETCH_RELATIVE, -45));
    expect_rowset(ids, fetched, 2000, 10);
    assert_ok(SQLFetchScroll(s, SQL_FETCH_RELATIVE, 0));
    expect_rowset(ids, fetched, 2000, 10);
    assert_ok(SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, -1));
    expect_rowset(ids, fetched, 5000, 1);
    assert_int_equal(SQLFetchScroll(s, SQL_FETCH_NEXT, 0), SQL_NO_DATA);
    assert_int_equal(fetched, 0);
    /* PRIOR after the end gives the last full rowset. */
    assert_ok(SQLFetchScroll(s, SQL_FETCH_PRIOR, 0));
    expect_rowset(ids, fetched, 4991, 10);
    assert_ok(SQLFetchScroll(s, SQL_FETCH_FIRST, 0));
    expect_rowset(ids, fetched, 1, 10);
    /* Partly before the start: the first rowset, with 01S06. */
    assert_ok(SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, 5));
    assert_int_equal(SQLFetchScroll(s, SQL_FETCH_PRIOR, 0), SQL_SUCCESS_WITH_INFO);
    assert_stmt_state(s, "01S06");
    expect_rowset(ids, fetched, 1, 10);
    assert_int_equal(SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, 0), SQL_NO_DATA);
    assert_int_equal(SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, 6000), SQL_NO_DATA);
    assert_ok(SQLFetchScroll(s, SQL_FETCH_RELATIVE, -3)); /* from after the end */
    expect_rowset(ids, fetched, 4998, 3);
    assert_int_equal(SQLFetchScroll(s, 99, 0), SQL_ERROR);
    assert_stmt_state(s, "HY106");
    /* SQLFetch mixes with SQLFetchScroll. */
    assert_ok(SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, 100));
    assert_ok(SQLFetch(s));
    expect_rowset(ids, fetched, 110, 10);
    assert_ok(SQLCloseCursor(s));

    /* Bookmarks: fetch by bookmark, with an offset. */
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_USE_BOOKMARKS, (SQLPOINTER)SQL_UB_VARIABLE, 0));
    SQLUINTEGER marks[10];
    SQLLEN mark_ind[10];
    assert_ok(SQLBindCol(s, 0, SQL_C_VARBOOKMARK, marks, sizeof marks[0], mark_ind));
    exec_ok(s, "SELECT ID FROM big");
    assert_ok(SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, 300));
    assert_int_equal(marks[0], 300);
    assert_int_equal(mark_ind[0], 4);
    SQLUINTEGER mark = marks[5];
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_FETCH_BOOKMARK_PTR, &mark, 0));
    assert_ok(SQLFetchScroll(s, SQL_FETCH_FIRST, 0));
    assert_ok(SQLFetchScroll(s, SQL_FETCH_BOOKMARK, 2));
    expect_rowset(ids, fetched, 307, 10);
    mark = 9999;
    assert_int_equal(SQLFetchScroll(s, SQL_FETCH_BOOKMARK, 0), SQL_ERROR);
    assert_stmt_state(s, "HY111");
    disconnect(&f);
}

static void test_extended_fetch(void **state)
{
    (void)state;
    fixture f;
    connect_big(&f);
    SQLHSTMT s = f.stmt;
    SQLINTEGER ids[5];
    SQLLEN ind[5];
    SQLUSMALLINT status[5];
    SQLULEN count = 0;
    assert_ok(SQLSetStmtAttr(s, SQL_ROWSET_SIZE, (SQLPOINTER)5, 0));
    assert_ok(SQLBindCol(s, 1, SQL_C_SLONG, ids, 0, ind));
    exec_ok(s, "SELECT ID FROM big");
    assert_ok(SQLExtendedFetch(s, SQL_FETCH_NEXT, 0, &count, status));
    assert_int_equal(count, 5);
    assert_int_equal(ids[4], 5);
    assert_int_equal(status[4], SQL_ROW_SUCCESS);
    assert_ok(SQLExtendedFetch(s, SQL_FETCH_NEXT, 0, &count, status));
    assert_int_equal(ids[0], 6);
    disconnect(&f);
}

/* ------------------------------------------------------------------------ */
/* Preparing, parameters                                                     */
/* ------------------------------------------------------------------------ */

static void test_prepare_params(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" PEOPLE_DBF);
    SQLHSTMT s = f.stmt;
    assert_ok(SQLPrepare(s, (SQLCHAR *)"SELECT NAME, BIRTHDATE FROM people WHERE NAME = ?",
                         SQL_NTS));
    SQLSMALLINT n = 0;
    assert_ok(SQLNumParams(s, &n));
    assert_int_equal(n, 1);
    assert_ok(SQLNumResultCols(s, &n));
    assert_int_equal(n, 2);
    char colname[32];
    SQLSMALLINT len, type, digits, nullable;
    SQLULEN size;
    assert_ok(SQLDescribeCol(s, 1, (SQLCHAR *)colname, sizeof colname, &len, &type, &size,
                             &digits, &nullable));
    assert_string_equal(colname, "NAME");
    assert_int_equal(len, 4);
    assert_int_equal(SQLDescribeCol(s, 3, (SQLCHAR *)colname, sizeof colname, &len, &type,
                                    &size, &digits, &nullable),
                     SQL_ERROR);
    assert_stmt_state(s, "07009");
    /* Unbound parameter. */
    assert_int_equal(SQLExecute(s), SQL_ERROR);
    assert_stmt_state(s, "07002");
    assert_int_equal(SQLBindParameter(s, 0, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 10, 0,
                                      "x", 0, NULL),
                     SQL_ERROR);
    assert_stmt_state(s, "07009");
    assert_int_equal(SQLBindParameter(s, 1, SQL_PARAM_OUTPUT, SQL_C_CHAR, SQL_VARCHAR, 10, 0,
                                      "x", 0, NULL),
                     SQL_ERROR);
    assert_stmt_state(s, "HY105");
    assert_int_equal(SQLBindParameter(s, 1, SQL_PARAM_INPUT, 999, SQL_VARCHAR, 10, 0, "x", 0,
                                      NULL),
                     SQL_ERROR);
    assert_stmt_state(s, "HY003");
    assert_int_equal(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_CHAR, 999, 10, 0, "x", 0,
                                      NULL),
                     SQL_ERROR);
    assert_stmt_state(s, "HY004");
    char value[16] = "Bob";
    SQLLEN value_len = SQL_NTS;
    assert_ok(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 10, 0, value,
                               sizeof value, &value_len));
    assert_ok(SQLExecute(s));
    char name[16];
    SQLLEN ind;
    assert_ok(SQLFetch(s));
    assert_ok(SQLGetData(s, 1, SQL_C_CHAR, name, sizeof name, &ind));
    assert_string_equal(name, "Bob");
    assert_int_equal(SQLFetch(s), SQL_NO_DATA);
    /* Executing again with another value, after closing. */
    assert_ok(SQLCloseCursor(s));
    strcpy(value, "Alice");
    assert_ok(SQLExecute(s));
    assert_ok(SQLFetch(s));
    assert_ok(SQLGetData(s, 1, SQL_C_CHAR, name, sizeof name, &ind));
    assert_string_equal(name, "Alice");
    assert_ok(SQLCloseCursor(s));

    /* Data at execution: the value arrives in two pieces. */
    SQLLEN dae = SQL_DATA_AT_EXEC;
    assert_ok(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 10, 0,
                               (SQLPOINTER)7, 0, &dae));
    assert_int_equal(SQLExecute(s), SQL_NEED_DATA);
    assert_int_equal(SQLFetch(s), SQL_ERROR);
    SQLPOINTER token = NULL;
    assert_int_equal(SQLParamData(s, &token), SQL_NEED_DATA);
    assert_ptr_equal(token, (SQLPOINTER)7);
    assert_ok(SQLPutData(s, "Bo", 2));
    assert_ok(SQLPutData(s, "b", SQL_NTS));
    assert_ok(SQLParamData(s, &token));
    assert_ok(SQLFetch(s));
    assert_ok(SQLGetData(s, 1, SQL_C_CHAR, name, sizeof name, &ind));
    assert_string_equal(name, "Bob");
    assert_ok(SQLCloseCursor(s));
    /* Cancelling a data-at-execution sequence. */
    assert_int_equal(SQLExecute(s), SQL_NEED_DATA);
    assert_ok(SQLCancel(s));
    assert_int_equal(SQLParamData(s, &token), SQL_ERROR);
    assert_stmt_state(s, "HY010");

    /* SQLDescribeParam. */
    SQLSMALLINT ptype = 0;
    assert_ok(SQLDescribeParam(s, 1, &ptype, &size, &digits, &nullable));
    assert_true(ptype == SQL_WVARCHAR || ptype == SQL_VARCHAR || ptype == SQL_WCHAR ||
                ptype == SQL_CHAR);
    assert_int_equal(SQLDescribeParam(s, 2, &ptype, &size, &digits, &nullable), SQL_ERROR);
    assert_stmt_state(s, "07009");

    /* A syntax error is the engine's 42000, passed on. */
    assert_int_equal(SQLExecDirect(s, (SQLCHAR *)"SELEC nonsense", SQL_NTS), SQL_ERROR);
    assert_stmt_state(s, "42000");
    assert_memory_equal(message_of(SQL_HANDLE_STMT, s, 1), "[Lector]", 8);
    disconnect(&f);
}

static void test_select_param(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" PEOPLE_DBF);
    SQLHSTMT s = f.stmt;
    SQLINTEGER v = 42;
    assert_ok(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &v, 0,
                               NULL));
    exec_ok(s, "SELECT ?");
    SQLSMALLINT type, digits, nullable, len;
    SQLULEN size;
    char colname[16];
    assert_ok(SQLDescribeCol(s, 1, (SQLCHAR *)colname, sizeof colname, &len, &type, &size,
                             &digits, &nullable));
    assert_true(type == SQL_INTEGER || type == SQL_BIGINT);
    assert_ok(SQLFetch(s));
    SQLBIGINT got = 0;
    SQLLEN ind;
    assert_ok(SQLGetData(s, 1, SQL_C_SBIGINT, &got, 0, &ind));
    assert_int_equal(got, 42);
    assert_int_equal(SQLFetch(s), SQL_NO_DATA);
    assert_int_equal(SQLMoreResults(s), SQL_NO_DATA);
    /* SQLMoreResults closed the cursor. */
    assert_int_equal(SQLFetch(s), SQL_ERROR);
    assert_stmt_state(s, "HY010");
    disconnect(&f);
}

/* ------------------------------------------------------------------------ */
/* Describing: SQLColAttribute and descriptors                               */
/* ------------------------------------------------------------------------ */

static void test_col_attribute(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" PEOPLE_DBF);
    SQLHSTMT s = f.stmt;
    char text[64];
    SQLSMALLINT len;
    SQLLEN num = 0;
    assert_int_equal(SQLColAttribute(s, 1, SQL_DESC_NAME, text, sizeof text, &len, &num),
                     SQL_ERROR);
    assert_stmt_state(s, "HY010");
    exec_ok(s, "SELECT NAME AS who, BIRTHDATE FROM people");
    assert_ok(SQLColAttribute(s, 0, SQL_DESC_COUNT, NULL, 0, NULL, &num));
    assert_int_equal(num, 2);
    assert_ok(SQLColAttribute(s, 1, SQL_DESC_LABEL, text, sizeof text, &len, NULL));
    assert_string_equal(text, "who");
    assert_ok(SQLColAttribute(s, 1, SQL_DESC_NAME, text, sizeof text, &len, NULL));
    assert_string_equal(text, "who");
    assert_ok(SQLColAttribute(s, 1, SQL_DESC_BASE_COLUMN_NAME, text, sizeof text, &len, NULL));
    assert_string_equal(text, "NAME");
    assert_ok(SQLColAttribute(s, 1, SQL_DESC_BASE_TABLE_NAME, text, sizeof text, &len, NULL));
    assert_string_equal(text, "people");
    assert_ok(SQLColAttribute(s, 2, SQL_DESC_TYPE, NULL, 0, NULL, &num));
    assert_int_equal(num, SQL_DATETIME);
    assert_ok(SQLColAttribute(s, 2, SQL_DESC_CONCISE_TYPE, NULL, 0, NULL, &num));
    assert_int_equal(num, SQL_TYPE_DATE);
    assert_ok(SQLColAttribute(s, 2, SQL_COLUMN_TYPE, NULL, 0, NULL, &num));
    assert_int_equal(num, SQL_TYPE_DATE);
    assert_ok(SQLColAttribute(s, 2, SQL_DESC_TYPE_NAME, text, sizeof text, &len, NULL));
    assert_string_equal(text, "DATE");
    assert_ok(SQLColAttribute(s, 2, SQL_DESC_DISPLAY_SIZE, NULL, 0, NULL, &num));
    assert_int_equal(num, 10);
    assert_ok(SQLColAttribute(s, 2, SQL_DESC_OCTET_LENGTH, NULL, 0, NULL, &num));
    assert_int_equal(num, 6);
    assert_ok(SQLColAttribute(s, 2, SQL_COLUMN_LENGTH, NULL, 0, NULL, &num));
    assert_int_equal(num, 6);
    assert_ok(SQLColAttribute(s, 2, SQL_COLUMN_PRECISION, NULL, 0, NULL, &num));
    assert_int_equal(num, 10);
    assert_ok(SQLColAttribute(s, 1, SQL_DESC_UPDATABLE, NULL, 0, NULL, &num));
    assert_int_equal(num, SQL_ATTR_READONLY);
    assert_ok(SQLColAttribute(s, 1, SQL_DESC_NULLABLE, NULL, 0, NULL, &num));
    assert_ok(SQLColAttribute(s, 1, SQL_DESC_UNNAMED, NULL, 0, NULL, &num));
    assert_int_equal(num, SQL_NAMED);
    assert_ok(SQLColAttribute(s, 1, SQL_DESC_SEARCHABLE, NULL, 0, NULL, &num));
    assert_ok(SQLColAttribute(s, 1, SQL_DESC_CASE_SENSITIVE, NULL, 0, NULL, &num));
    assert_ok(SQLColAttribute(s, 1, SQL_DESC_AUTO_UNIQUE_VALUE, NULL, 0, NULL, &num));
    assert_int_equal(num, SQL_FALSE);
    assert_ok(SQLColAttribute(s, 1, SQL_DESC_FIXED_PREC_SCALE, NULL, 0, NULL, &num));
    assert_ok(SQLColAttribute(s, 1, SQL_DESC_LOCAL_TYPE_NAME, text, sizeof text, &len, NULL));
    assert_ok(SQLColAttribute(s, 1, SQL_DESC_LENGTH, NULL, 0, NULL, &num));
    assert_true(num >= 5);
    /* The type name agrees with SQLDescribeCol's type (Power Query). */
    SQLSMALLINT type, digits, nullable;
    SQLULEN size;
    assert_ok(SQLDescribeCol(s, 1, (SQLCHAR *)text, sizeof text, &len, &type, &size, &digits,
                             &nullable));
    assert_ok(SQLColAttribute(s, 1, SQL_DESC_CONCISE_TYPE, NULL, 0, NULL, &num));
    assert_int_equal(num, type);
    assert_ok(SQLColAttribute(s, 1, SQL_DESC_TYPE_NAME, text, sizeof text, &len, NULL));
    assert_string_equal(text, type == SQL_WVARCHAR ? "WVARCHAR"
                              : type == SQL_WCHAR  ? "WCHAR"
                              : type == SQL_VARCHAR ? "VARCHAR" : text);
    /* Truncated text attribute. */
    assert_int_equal(SQLColAttribute(s, 2, SQL_DESC_BASE_COLUMN_NAME, text, 4, &len, NULL),
                     SQL_SUCCESS_WITH_INFO);
    assert_stmt_state(s, "01004");
    assert_int_equal(len, 9);
    assert_int_equal(SQLColAttribute(s, 3, SQL_DESC_NAME, text, sizeof text, &len, NULL),
                     SQL_ERROR);
    assert_stmt_state(s, "07009");
    assert_int_equal(SQLColAttribute(s, 1, 4242, text, sizeof text, &len, &num), SQL_ERROR);
    assert_stmt_state(s, "HY091");
    disconnect(&f);
}

static void test_descriptors(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" PEOPLE_DBF);
    SQLHSTMT s = f.stmt;
    SQLHDESC ird, ard, ipd;
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_IMP_ROW_DESC, &ird, 0, NULL));
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_APP_ROW_DESC, &ard, 0, NULL));
    assert_ok(SQLGetStmtAttr(s, SQL_ATTR_IMP_PARAM_DESC, &ipd, 0, NULL));
    SQLSMALLINT n = -1;
    /* The IRD is empty until the statement is prepared. */
    assert_int_equal(SQLGetDescField(ird, 0, SQL_DESC_COUNT, &n, 0, NULL), SQL_ERROR);
    assert_state(SQL_HANDLE_DESC, ird, "HY007");
    assert_ok(SQLPrepare(s, (SQLCHAR *)"SELECT NAME, BIRTHDATE FROM people", SQL_NTS));
    assert_ok(SQLGetDescField(ird, 0, SQL_DESC_COUNT, &n, 0, NULL));
    assert_int_equal(n, 2);
    SQLSMALLINT type = 0;
    assert_ok(SQLGetDescField(ird, 2, SQL_DESC_CONCISE_TYPE, &type, 0, NULL));
    assert_int_equal(type, SQL_TYPE_DATE);
    char name[32];
    SQLINTEGER len = 0;
    assert_ok(SQLGetDescField(ird, 1, SQL_DESC_NAME, name, sizeof name, &len));
    assert_string_equal(name, "NAME");
    assert_int_equal(SQLGetDescField(ird, 3, SQL_DESC_NAME, name, sizeof name, &len),
                     SQL_NO_DATA);
    assert_int_equal(SQLGetDescField(ird, 1, SQL_DESC_DATA_PTR, name, 0, NULL), SQL_ERROR);
    assert_state(SQL_HANDLE_DESC, ird, "HY091");
    SQLSMALLINT rtype, sub, prec, scale, nullable, nlen;
    SQLLEN octets;
    assert_ok(SQLGetDescRec(ird, 2, (SQLCHAR *)name, sizeof name, &nlen, &rtype, &sub, &octets,
                            &prec, &scale, &nullable));
    assert_string_equal(name, "BIRTHDATE");
    assert_int_equal(rtype, SQL_DATETIME);
    assert_int_equal(sub, SQL_CODE_DATE);
    /* The IRD is read-only. */
    assert_int_equal(SQLSetDescField(ird, 1, SQL_DESC_CONCISE_TYPE, (SQLPOINTER)SQL_INTEGER, 0),
                     SQL_ERROR);
    assert_state(SQL_HANDLE_DESC, ird, "HY016");
    assert_int_equal(SQLSetDescRec(ird, 1, SQL_INTEGER, 0, 4, 0, 0, NULL, NULL, NULL),
                     SQL_ERROR);
    assert_state(SQL_HANDLE_DESC, ird, "HY016");
    assert_int_equal(SQLCopyDesc(ard, ird), SQL_ERROR);
    assert_state(SQL_HANDLE_DESC, ird, "HY016");

    /* Binding through the ARD: type, length, then the data pointer last. */
    char buf[16];
    SQLLEN ind = 0;
    assert_ok(SQLSetDescField(ard, 1, SQL_DESC_CONCISE_TYPE, (SQLPOINTER)SQL_C_CHAR, 0));
    assert_ok(SQLSetDescField(ard, 1, SQL_DESC_OCTET_LENGTH, (SQLPOINTER)sizeof buf, 0));
    assert_ok(SQLSetDescField(ard, 1, SQL_DESC_INDICATOR_PTR, &ind, 0));
    assert_ok(SQLSetDescField(ard, 1, SQL_DESC_OCTET_LENGTH_PTR, &ind, 0));
    assert_ok(SQLSetDescField(ard, 1, SQL_DESC_DATA_PTR, buf, 0));
    SQLPOINTER p = NULL;
    assert_ok(SQLGetDescField(ard, 1, SQL_DESC_DATA_PTR, &p, 0, NULL));
    assert_ptr_equal(p, buf);
    /* Setting a type field afterwards unbinds the record. */
    assert_ok(SQLSetDescField(ard, 1, SQL_DESC_OCTET_LENGTH, (SQLPOINTER)sizeof buf, 0));
    assert_ok(SQLGetDescField(ard, 1, SQL_DESC_DATA_PTR, &p, 0, NULL));
    assert_null(p);
    assert_ok(SQLSetDescField(ard, 1, SQL_DESC_DATA_PTR, buf, 0));
    /* A numeric binding with precision 0 is inconsistent. */
    assert_ok(SQLSetDescField(ard, 2, SQL_DESC_TYPE, (SQLPOINTER)SQL_C_NUMERIC, 0));
    assert_ok(SQLSetDescField(ard, 2, SQL_DESC_PRECISION, (SQLPOINTER)0, 0));
    SQL_NUMERIC_STRUCT num;
    assert_int_equal(SQLSetDescField(ard, 2, SQL_DESC_DATA_PTR, &num, 0), SQL_ERROR);
    assert_state(SQL_HANDLE_DESC, ard, "HY021");
    /* A datetime type needs its interval code. */
    assert_ok(SQLSetDescField(ard, 2, SQL_DESC_TYPE, (SQLPOINTER)SQL_DATETIME, 0));
    assert_ok(SQLSetDescField(ard, 2, SQL_DESC_DATETIME_INTERVAL_CODE,
                              (SQLPOINTER)SQL_CODE_DATE, 0));
    assert_ok(SQLGetDescField(ard, 2, SQL_DESC_CONCISE_TYPE, &type, 0, NULL));
    assert_int_equal(type, SQL_C_TYPE_DATE);
    SQL_DATE_STRUCT d = {0};
    assert_ok(SQLSetDescField(ard, 2, SQL_DESC_DATA_PTR, &d, 0));
    assert_int_equal(SQLGetDescField(ard, 1, 9999, &p, 0, NULL), SQL_ERROR);
    assert_state(SQL_HANDLE_DESC, ard, "HY091");
    assert_int_equal(SQLSetDescField(ard, 1, SQL_DESC_NAME, "x", SQL_NTS), SQL_ERROR);
    assert_state(SQL_HANDLE_DESC, ard, "HY091");

    assert_ok(SQLExecute(s));
    assert_ok(SQLFetch(s));
    assert_string_equal(buf, "Alice");
    assert_int_equal(ind, 5);
    assert_int_equal(d.year, 1987);

    /* Copy the ARD into an explicit descriptor and fetch through it. */
    SQLHDESC mine;
    assert_ok(SQLAllocHandle(SQL_HANDLE_DESC, f.dbc, &mine));
    assert_ok(SQLCopyDesc(ard, mine));
    SQLSMALLINT count = 0;
    assert_ok(SQLGetDescField(mine, 0, SQL_DESC_COUNT, &count, 0, NULL));
    assert_int_equal(count, 2);
    SQLSMALLINT alloc = 0;
    assert_ok(SQLGetDescField(mine, 0, SQL_DESC_ALLOC_TYPE, &alloc, 0, NULL));
    assert_int_equal(alloc, SQL_DESC_ALLOC_USER);
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_APP_ROW_DESC, mine, 0));
    assert_ok(SQLFetch(s));
    assert_string_equal(buf, "Bob");
    assert_int_equal(d.year, 1980);
    /* The IPD: a record set by SQLSetDescRec passes the consistency check. */
    assert_ok(SQLSetDescRec(ipd, 1, SQL_VARCHAR, 0, 10, 0, 0, NULL, NULL, NULL));
    assert_int_equal(SQLSetDescRec(ipd, 0, SQL_VARCHAR, 0, 10, 0, 0, NULL, NULL, NULL),
                     SQL_ERROR);
    assert_state(SQL_HANDLE_DESC, ipd, "07009");
    assert_ok(SQLFreeHandle(SQL_HANDLE_DESC, mine));
    disconnect(&f);
}

/* Catalog results end in lt_stmt_open_cursor: they fetch like any other,
** scroll when static, and replace a prepared statement. */
static void test_catalog_cursor(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" PEOPLE_DBF);
    SQLHSTMT s = f.stmt;
    assert_ok(SQLPrepare(s, (SQLCHAR *)"SELECT NAME FROM people", SQL_NTS));
    assert_ok(SQLTables(s, NULL, 0, NULL, 0, (SQLCHAR *)"%", SQL_NTS, NULL, 0));
    SQLSMALLINT n = 0;
    assert_ok(SQLNumResultCols(s, &n));
    assert_int_equal(n, 5);
    char name[64];
    SQLLEN ind;
    assert_ok(SQLBindCol(s, 3, SQL_C_CHAR, name, sizeof name, &ind));
    assert_ok(SQLFetch(s));
    assert_string_equal(name, "people");
    assert_int_equal(SQLFetch(s), SQL_NO_DATA);
    assert_ok(SQLCloseCursor(s));
    /* The prepared SELECT went with the catalog result. */
    assert_int_equal(SQLExecute(s), SQL_ERROR);
    assert_stmt_state(s, "HY010");
    assert_ok(SQLFreeStmt(s, SQL_UNBIND));

    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_STATIC, 0));
    assert_ok(SQLGetTypeInfo(s, SQL_ALL_TYPES));
    SQLSMALLINT last_type = 0, first_type = 0;
    assert_ok(SQLFetchScroll(s, SQL_FETCH_LAST, 0));
    assert_ok(SQLGetData(s, 2, SQL_C_SSHORT, &last_type, 0, &ind));
    assert_ok(SQLFetchScroll(s, SQL_FETCH_FIRST, 0));
    assert_ok(SQLGetData(s, 2, SQL_C_SSHORT, &first_type, 0, &ind));
    assert_true(first_type <= last_type); /* ordered by DATA_TYPE */
    disconnect(&f);
}

/* SQLCancel stops the cursor at its next batch: the fetch fails with
** HY008, the statement can be closed and run again. */
static void test_cancel(void **state)
{
    (void)state;
    fixture f;
    connect_big(&f);
    SQLHSTMT s = f.stmt;
    exec_ok(s, "SELECT ID FROM big");
    assert_ok(SQLCancel(s));
    assert_int_equal(SQLFetch(s), SQL_ERROR);
    assert_stmt_state(s, "HY008");
    assert_int_equal(SQLFetch(s), SQL_ERROR);
    assert_ok(SQLCloseCursor(s));
    exec_ok(s, "SELECT ID FROM big");
    assert_ok(SQLFetch(s));
    SQLINTEGER id = 0;
    SQLLEN ind;
    assert_ok(SQLGetData(s, 1, SQL_C_SLONG, &id, 0, &ind));
    assert_int_equal(id, 1);
    disconnect(&f);
}

typedef struct cancel_run {
    SQLHSTMT stmt;
    volatile int rows;           /* read by the canceller */
    pthread_mutex_t mu;
    pthread_cond_t hundred;
    char state[6];
} cancel_run;

static void *fetch_until_error(void *arg)
{
    cancel_run *c = arg;
    SQLRETURN rc;
    while ((rc = SQLFetch(c->stmt)) == SQL_SUCCESS) {
        pthread_mutex_lock(&c->mu);
        if (++c->rows == 100)
            pthread_cond_signal(&c->hundred);
        pthread_mutex_unlock(&c->mu);
    }
    SQLINTEGER native;
    SQLCHAR msg[256];
    SQLSMALLINT len;
    if (rc == SQL_ERROR)
        SQLGetDiagRec(SQL_HANDLE_STMT, c->stmt, 1, (SQLCHAR *)c->state, &native, msg,
                      sizeof msg, &len);
    return NULL;
}

/* SQLCancel from another thread, while the statement fetches: it takes
** no statement lock, and the fetch stops at the next batch with HY008. */
static void test_cancel_from_thread(void **state)
{
    (void)state;
    fixture f;
    connect_big(&f);
    cancel_run c;
    memset(&c, 0, sizeof c);
    c.stmt = f.stmt;
    pthread_mutex_init(&c.mu, NULL);
    pthread_cond_init(&c.hundred, NULL);
    exec_ok(f.stmt, "SELECT ID, NOTE FROM big");
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, fetch_until_error, &c), 0);
    pthread_mutex_lock(&c.mu);
    while (c.rows < 100)
        pthread_cond_wait(&c.hundred, &c.mu);
    pthread_mutex_unlock(&c.mu);
    assert_ok(SQLCancel(f.stmt));
    assert_int_equal(pthread_join(t, NULL), 0);
    /* Only a machine that stalls this thread for the whole table lets the
    ** fetch finish first; otherwise it must stop with HY008. */
    if (c.rows < (int)BIG_ROWS)
        assert_string_equal(c.state, "HY008");
    else
        assert_string_equal(c.state, "");
    pthread_mutex_destroy(&c.mu);
    pthread_cond_destroy(&c.hundred);
    disconnect(&f);
}

/* ------------------------------------------------------------------------ */
/* Threads                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct worker {
    SQLHDBC dbc;
    int64_t sum;
    uint32_t rows;
    bool in_order;
    bool ok;
} worker;

/* Each thread reads the whole big table on its own statement of the one
** shared connection, in rowsets of 257, and checks it sees 1..5000. */
static void *read_big(void *arg)
{
    worker *w = arg;
    SQLHSTMT s = NULL;
    w->ok = false;
    if (SQLAllocHandle(SQL_HANDLE_STMT, w->dbc, &s) != SQL_SUCCESS)
        return NULL;
    SQLINTEGER ids[257];
    SQLLEN ind[257];
    SQLULEN fetched = 0;
    SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)257, 0);
    SQLSetStmtAttr(s, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0);
    SQLBindCol(s, 1, SQL_C_SLONG, ids, 0, ind);
    w->in_order = true;
    for (int round = 0; round < 3; round++) {
        if (!SQL_SUCCEEDED(SQLExecDirect(s, (SQLCHAR *)"SELECT ID FROM big", SQL_NTS)))
            return NULL;
        uint32_t next = 1;
        SQLRETURN rc;
        while ((rc = SQLFetch(s)) == SQL_SUCCESS) {
            for (SQLULEN i = 0; i < fetched; i++, next++) {
                w->in_order &= (uint32_t)ids[i] == next;
                w->sum += ids[i];
                w->rows++;
            }
        }
        if (rc != SQL_NO_DATA || SQLCloseCursor(s) != SQL_SUCCESS)
            return NULL;
    }
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    w->ok = true;
    return NULL;
}

static void test_threads_one_connection(void **state)
{
    (void)state;
    fixture f;
    connect_big(&f);
    pthread_t t[4];
    worker w[4];
    for (int i = 0; i < 4; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].dbc = f.dbc;
        assert_int_equal(pthread_create(&t[i], NULL, read_big, &w[i]), 0);
    }
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    int64_t want = 3 * (int64_t)BIG_ROWS * (BIG_ROWS + 1) / 2;
    for (int i = 0; i < 4; i++) {
        assert_true(w[i].ok);
        assert_true(w[i].in_order);
        assert_int_equal(w[i].rows, 3 * BIG_ROWS);
        assert_int_equal(w[i].sum, want);
    }
    disconnect(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fetch_getdata),
        cmocka_unit_test(test_bound_columns),
        cmocka_unit_test(test_getdata_pieces),
        cmocka_unit_test(test_block_column_wise),
        cmocka_unit_test(test_block_row_wise_offset),
        cmocka_unit_test(test_block_across_batches),
        cmocka_unit_test(test_static_scroll),
        cmocka_unit_test(test_extended_fetch),
        cmocka_unit_test(test_prepare_params),
        cmocka_unit_test(test_select_param),
        cmocka_unit_test(test_col_attribute),
        cmocka_unit_test(test_descriptors),
        cmocka_unit_test(test_catalog_cursor),
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_cancel_from_thread),
        cmocka_unit_test(test_threads_one_connection),
    };
    return cmocka_run_group_tests(tests, make_big, remove_big);
}
