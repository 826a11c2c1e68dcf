/*
** test_driver_rowfetch.c — the row-at-a-time path (SQLFetch of one row,
** then SQLGetData per column) gives what the general path gives: numbers
** as SQL_C_CHAR and SQL_C_WCHAR at every buffer size around the shortcut's
** thresholds, rows across batch boundaries, the row-count and row-status
** pointers, and the switches to the general fetch (a column bound and
** unbound, SQL_ATTR_MAX_ROWS, a block rowset positioned with SQLSetPos).
*/
#include "test_driver_core.h"

#include "driver/wide.h"

#define ROWS 5000u

static char dir[64];
static char path[128];

static int make_table(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/lector-rowfetch-XXXXXX");
    if (mkdtemp(dir) == NULL)
        return -1;
    snprintf(path, sizeof path, "%s/big.dbf", dir);
    write_big_dbf(path, ROWS);
    return 0;
}

static int remove_table(void **state)
{
    (void)state;
    unlink(path);
    rmdir(dir);
    return 0;
}

static void connect_big(fixture *f)
{
    char conn[256];
    snprintf(conn, sizeof conn, "Database=%s", path);
    connect_to(f, conn);
}

/* Read column `col` as SQL_C_CHAR into a buffer of `len` bytes, after
** reading another column so that the read starts at the value's start. */
static SQLRETURN get_char(SQLHSTMT s, SQLUSMALLINT col, SQLUSMALLINT other, char *buf,
                          SQLLEN len, SQLLEN *ind)
{
    char tmp[64];
    SQLLEN tind;
    assert_true(SQL_SUCCEEDED(SQLGetData(s, other, SQL_C_CHAR, tmp, sizeof tmp, &tind)));
    memset(buf, '#', 64);
    return SQLGetData(s, col, SQL_C_CHAR, buf, len, ind);
}

/* Every row, every column as text: the values are the ones the table holds. */
static void test_all_rows(void **state)
{
    (void)state;
    fixture f;
    connect_big(&f);
    SQLHSTMT s = f.stmt;
    SQLULEN fetched = 99;
    SQLUSMALLINT status = 99;
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROW_STATUS_PTR, &status, 0));
    exec_ok(s, "SELECT ID, NAME, CAST(ID AS DOUBLE) * 1.25, -ID FROM big");
    for (unsigned r = 1; r <= ROWS; r++) {
        assert_ok(SQLFetch(s));
        assert_int_equal(fetched, 1);
        assert_int_equal(status, SQL_ROW_SUCCESS);
        SQLULEN rownum = 0;
        assert_ok(SQLGetStmtAttr(s, SQL_ATTR_ROW_NUMBER, &rownum, 0, NULL));
        assert_int_equal(rownum, r);
        char buf[64], want[64];
        SQLLEN ind;
        assert_ok(SQLGetData(s, 1, SQL_C_CHAR, buf, sizeof buf, &ind));
        snprintf(want, sizeof want, "%u", r);
        assert_string_equal(buf, want);
        assert_int_equal(ind, (SQLLEN)strlen(want));
        assert_int_equal(SQLGetData(s, 1, SQL_C_CHAR, buf, sizeof buf, &ind), SQL_NO_DATA);
        assert_ok(SQLGetData(s, 2, SQL_C_CHAR, buf, sizeof buf, &ind));
        snprintf(want, sizeof want, "name%u", r);
        assert_string_equal(buf, want);
        assert_ok(SQLGetData(s, 3, SQL_C_CHAR, buf, sizeof buf, &ind));
        snprintf(want, sizeof want, "%.15g", r * 1.25);
        assert_string_equal(buf, want);
        SQLWCHAR wbuf[64];
        assert_ok(SQLGetData(s, 4, SQL_C_WCHAR, wbuf, sizeof wbuf, &ind));
        snprintf(want, sizeof want, "-%u", r);
        assert_int_equal(ind, (SQLLEN)(strlen(want) * sizeof(SQLWCHAR)));
        for (size_t i = 0; i <= strlen(want); i++)
            assert_int_equal(lt_wide_load(wbuf, i), (SQLWCHAR)want[i]);
    }
    fetched = 99;
    assert_int_equal(SQLFetch(s), SQL_NO_DATA);
    assert_int_equal(fetched, 0);
    assert_int_equal(status, SQL_ROW_NOROW);
    disconnect(&f);
}

/* Around the buffer sizes where the shortcut starts (24 and 32 bytes):
** whole values, 22003 when the digits cannot fit, 01004 when only
** fractional digits are cut, pieces that continue where the last ended. */
static void test_buffer_sizes(void **state)
{
    (void)state;
    fixture f;
    connect_big(&f);
    SQLHSTMT s = f.stmt;
    exec_ok(s, "SELECT ID * 1000000000007, CAST(ID AS DOUBLE) * 1000003 / 7, NAME FROM big WHERE ID = 4321");
    assert_ok(SQLFetch(s));
    const char *big = "4321000000030247";          /* 4321 * 1000000000007 */
    /* the shortest %g form that reads back as the double */
    double d = 4321 * 1000003.0 / 7;
    char dbl[64];
    for (int p = 15; p <= 17; p++) {
        snprintf(dbl, sizeof dbl, "%.*g", p, d);
        if (strtod(dbl, NULL) == d)
            break;
    }
    char buf[64];
    SQLLEN ind;
    for (SQLLEN len = 1; len <= 40; len++) {
        SQLRETURN rc = get_char(s, 1, 3, buf, len, &ind);
        if (len <= (SQLLEN)strlen(big)) {
            assert_int_equal(rc, SQL_ERROR);
            assert_stmt_state(s, "22003");
        } else {
            assert_int_equal(rc, SQL_SUCCESS);
            assert_string_equal(buf, big);
            assert_int_equal(ind, (SQLLEN)strlen(big));
        }
        rc = get_char(s, 2, 3, buf, len, &ind);
        const char *dot = strchr(dbl, '.');
        if (len <= dot - dbl) {
            assert_int_equal(rc, SQL_ERROR);
            assert_stmt_state(s, "22003");
        } else if (len <= (SQLLEN)strlen(dbl)) {
            assert_int_equal(rc, SQL_SUCCESS_WITH_INFO);
            assert_stmt_state(s, "01004");
            assert_int_equal(ind, (SQLLEN)strlen(dbl));
            assert_memory_equal(buf, dbl, (size_t)len - 1);
            assert_int_equal(buf[len - 1], '\0');
        } else {
            assert_int_equal(rc, SQL_SUCCESS);
            assert_string_equal(buf, dbl);
        }
    }
    /* A double in pieces of 3 characters, then no more data. */
    char whole[64] = "";
    SQLRETURN rc = get_char(s, 2, 3, buf, 16, &ind);
    assert_int_equal(rc, SQL_SUCCESS_WITH_INFO);
    strcat(whole, buf);
    while ((rc = SQLGetData(s, 2, SQL_C_CHAR, buf, 4, &ind)) != SQL_NO_DATA) {
        assert_true(SQL_SUCCEEDED(rc));
        strcat(whole, buf);
    }
    assert_string_equal(whole, dbl);
    /* SQL_C_WCHAR: a buffer of 31 units is below the shortcut, 32 in it. */
    for (SQLLEN units = 18; units <= 40; units++) {
        SQLWCHAR w[64];
        assert_true(SQL_SUCCEEDED(get_char(s, 3, 1, buf, sizeof buf, &ind)));
        rc = SQLGetData(s, 2, SQL_C_WCHAR, w, units * (SQLLEN)sizeof(SQLWCHAR), &ind);
        assert_int_equal(ind, (SQLLEN)(strlen(dbl) * sizeof(SQLWCHAR)));
        size_t n = (size_t)units - 1 < strlen(dbl) ? (size_t)units - 1 : strlen(dbl);
        assert_int_equal(rc, n < strlen(dbl) ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS);
        for (size_t i = 0; i < n; i++)
            assert_int_equal(lt_wide_load(w, i), (SQLWCHAR)dbl[i]);
        assert_int_equal(lt_wide_load(w, n), 0);
    }
    disconnect(&f);
}

/* A bound column sends SQLFetch down the general path, unbinding brings the
** short one back; SQL_ATTR_MAX_ROWS still stops the cursor. */
static void test_switching_paths(void **state)
{
    (void)state;
    fixture f;
    connect_big(&f);
    SQLHSTMT s = f.stmt;
    exec_ok(s, "SELECT ID, NAME FROM big");
    SQLINTEGER id = 0;
    SQLLEN idind = 0;
    for (unsigned r = 1; r <= 3000; r++) {
        if (r == 1000)
            assert_ok(SQLBindCol(s, 1, SQL_C_SLONG, &id, 0, &idind));
        if (r == 2000)
            assert_ok(SQLFreeStmt(s, SQL_UNBIND));
        assert_ok(SQLFetch(s));
        if (r >= 1000 && r < 2000)
            assert_int_equal(id, (SQLINTEGER)r);
        char buf[32], want[32];
        SQLLEN ind;
        assert_ok(SQLGetData(s, 2, SQL_C_CHAR, buf, sizeof buf, &ind));
        snprintf(want, sizeof want, "name%u", r);
        assert_string_equal(buf, want);
    }
    assert_ok(SQLCloseCursor(s));
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_MAX_ROWS, (SQLPOINTER)1500, 0));
    exec_ok(s, "SELECT ID FROM big");
    unsigned n = 0;
    while (SQLFetch(s) == SQL_SUCCESS)
        n++;
    assert_int_equal(n, 1500);
    disconnect(&f);
}

/* A block rowset read with SQLSetPos, then one row at a time from where it
** ended: the rows follow on. */
static void test_block_then_rows(void **state)
{
    (void)state;
    fixture f;
    connect_big(&f);
    SQLHSTMT s = f.stmt;
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)700, 0));
    exec_ok(s, "SELECT ID FROM big");
    char buf[32];
    SQLLEN ind;
    assert_ok(SQLFetch(s));
    assert_ok(SQLFetch(s));
    assert_ok(SQLSetPos(s, 700, SQL_POSITION, SQL_LOCK_NO_CHANGE));
    assert_ok(SQLGetData(s, 1, SQL_C_CHAR, buf, sizeof buf, &ind));
    assert_string_equal(buf, "1400");
    assert_ok(SQLSetPos(s, 3, SQL_POSITION, SQL_LOCK_NO_CHANGE));
    assert_ok(SQLGetData(s, 1, SQL_C_CHAR, buf, sizeof buf, &ind));
    assert_string_equal(buf, "703");
    assert_ok(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)1, 0));
    for (unsigned r = 1401; r <= ROWS; r++) {
        assert_ok(SQLFetch(s));
        char want[32];
        snprintf(want, sizeof want, "%u", r);
        assert_ok(SQLGetData(s, 1, SQL_C_CHAR, buf, sizeof buf, &ind));
        assert_string_equal(buf, want);
    }
    assert_int_equal(SQLFetch(s), SQL_NO_DATA);
    disconnect(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_rows),
        cmocka_unit_test(test_buffer_sizes),
        cmocka_unit_test(test_switching_paths),
        cmocka_unit_test(test_block_then_rows),
    };
    return cmocka_run_group_tests(tests, make_table, remove_table);
}
