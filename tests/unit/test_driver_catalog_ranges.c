/*
** test_driver_catalog_ranges.c — the catalog functions find a table the
** way a query's FROM does: SQLColumns, SQLStatistics, SQLPrimaryKeys and
** SQLSpecialColumns on a workbook range made on demand ("issue6$A1:C4"),
** on a worksheet by its bare name ("issue6" for "issue6$") and on a
** sheet-level defined name ("Sheet1$LocalRange"), through the driver's
** entry points on .xls and .xlsb files of the corpus.  Ranges stay
** unlisted: SQLTables does not return them, a pattern with '%' does not
** make them, and an unknown sheet or a malformed range is no table.
*/
#include "test_driver_core.h"

#define XLS LT_CORPUS_DIR "/xls/calamine_issues.xls"
#define XLSB LT_CORPUS_DIR "/xlsb/calamine_issues.xlsb"
#define NAMES LT_CORPUS_DIR "/xls/xlrd_namesdemo.xls"

/* Fetch every row of the open result; text column `col` of each joined
** by '|' into `out`.  Returns the row count. */
static int fetch_column(SQLHSTMT st, SQLUSMALLINT col, char *out, size_t cap)
{
    int rows = 0;
    out[0] = '\0';
    SQLRETURN rc;
    while ((rc = SQLFetch(st)) == SQL_SUCCESS) {
        char v[256];
        SQLLEN ind;
        assert_ok(SQLGetData(st, col, SQL_C_CHAR, v, sizeof v, &ind));
        size_t n = strlen(out);
        snprintf(out + n, cap - n, "%s%s", rows ? "|" : "", ind == SQL_NULL_DATA ? "-" : v);
        rows++;
    }
    assert_int_equal(rc, SQL_NO_DATA);
    assert_ok(SQLFreeStmt(st, SQL_CLOSE));
    return rows;
}

/* SQLColumns(table) as "TABLE_NAME:COLUMN_NAME|..." of its rows. */
static int columns_of(SQLHSTMT st, const char *table, char *out, size_t cap)
{
    if (SQLColumns(st, (SQLCHAR *)"", 0, (SQLCHAR *)"", 0, (SQLCHAR *)table, SQL_NTS, NULL, 0) != SQL_SUCCESS)
        fail_msg("SQLColumns(%s): %s %s", table, state_of(SQL_HANDLE_STMT, st, 1),
                 message_of(SQL_HANDLE_STMT, st, 1));
    char names[4096], tables[4096];
    int n = fetch_column(st, 4, names, sizeof names);
    assert_ok(SQLColumns(st, (SQLCHAR *)"", 0, (SQLCHAR *)"", 0, (SQLCHAR *)table, SQL_NTS, NULL, 0));
    assert_int_equal(fetch_column(st, 3, tables, sizeof tables), n);
    out[0] = '\0';
    char *ns = names, *ts = tables;
    for (int i = 0; i < n; i++) {
        char *nb = strchr(ns, '|'), *tb = strchr(ts, '|');
        size_t nl = nb ? (size_t)(nb - ns) : strlen(ns), tl = tb ? (size_t)(tb - ts) : strlen(ts);
        size_t o = strlen(out);
        snprintf(out + o, cap - o, "%s%.*s:%.*s", i ? "|" : "", (int)tl, ts, (int)nl, ns);
        ns += nl + (nb != NULL);
        ts += tl + (tb != NULL);
    }
    return n;
}

/* The column names `SELECT * FROM [table]` describes, as "T:name|...". */
static void select_columns(SQLHSTMT st, const char *table, const char *shown, char *out, size_t cap)
{
    char sql[512];
    snprintf(sql, sizeof sql, "SELECT * FROM [%s]", table);
    exec_ok(st, sql);
    SQLSMALLINT ncols;
    assert_ok(SQLNumResultCols(st, &ncols));
    out[0] = '\0';
    for (SQLUSMALLINT c = 1; c <= ncols; c++) {
        SQLCHAR name[256];
        SQLSMALLINT nl, type, digits, nullable;
        SQLULEN size;
        assert_ok(SQLDescribeCol(st, c, name, sizeof name, &nl, &type, &size, &digits, &nullable));
        size_t o = strlen(out);
        snprintf(out + o, cap - o, "%s%s:%s", c > 1 ? "|" : "", shown, (const char *)name);
    }
    assert_ok(SQLFreeStmt(st, SQL_CLOSE));
}

/* SQLColumns on a range gives the columns a query on it has. */
static void check_range(const char *file)
{
    fixture f;
    char conn[512];
    snprintf(conn, sizeof conn, "Database=%s", file);
    connect_to(&f, conn);
    char got[4096], want[4096];
    assert_int_equal(columns_of(f.stmt, "issue6$A1:C4", got, sizeof got), 3);
    select_columns(f.stmt, "issue6$A1:C4", "issue6$A1:C4", want, sizeof want);
    assert_string_equal(got, want);
    /* written another way, the same range (the table keeps its own name) */
    assert_int_equal(columns_of(f.stmt, "ISSUE6$a1:c4", got, sizeof got), 3);
    assert_string_equal(got, want);
    /* whole columns and an escaped pattern character */
    assert_int_equal(columns_of(f.stmt, "issue6$A:B", got, sizeof got), 2);
    assert_int_equal(columns_of(f.stmt, "issue6$A1\\_x", got, sizeof got), 0);
    /* the worksheet by its bare name: its table, named as listed */
    assert_int_equal(columns_of(f.stmt, "issue6", got, sizeof got), 1);
    select_columns(f.stmt, "issue6$", "issue6$", want, sizeof want);
    assert_string_equal(got, want);
    /* no single name, an unknown sheet, a malformed range: no table */
    assert_int_equal(columns_of(f.stmt, "issue%$A1:C4", got, sizeof got), 0);
    assert_int_equal(columns_of(f.stmt, "Nope$A1:C4", got, sizeof got), 0);
    assert_int_equal(columns_of(f.stmt, "issue6$A1:", got, sizeof got), 0);
    assert_int_equal(columns_of(f.stmt, "issue6$A1:B99999999", got, sizeof got), 0);

    /* SQLStatistics: the table's row; SQLPrimaryKeys: none, no error */
    assert_ok(SQLStatistics(f.stmt, NULL, 0, NULL, 0, (SQLCHAR *)"issue6$A1:C4", SQL_NTS,
                            SQL_INDEX_ALL, SQL_QUICK));
    assert_int_equal(fetch_column(f.stmt, 3, got, sizeof got), 1);
    assert_string_equal(got, "issue6$A1:C4");
    assert_ok(SQLPrimaryKeys(f.stmt, NULL, 0, NULL, 0, (SQLCHAR *)"issue6$A1:C4", SQL_NTS));
    assert_int_equal(fetch_column(f.stmt, 3, got, sizeof got), 0);
    assert_ok(SQLSpecialColumns(f.stmt, SQL_BEST_ROWID, NULL, 0, NULL, 0, (SQLCHAR *)"issue6$A1:C4",
                                SQL_NTS, SQL_SCOPE_SESSION, SQL_NULLABLE));
    assert_int_equal(fetch_column(f.stmt, 2, got, sizeof got), 0);

    /* SQLTables lists no range, even named exactly */
    assert_ok(SQLTables(f.stmt, NULL, 0, NULL, 0, (SQLCHAR *)"issue6$A1:C4", SQL_NTS, NULL, 0));
    assert_int_equal(fetch_column(f.stmt, 3, got, sizeof got), 0);

    /* SQL_ATTR_METADATA_ID: every argument an identifier (the column too:
    ** B1 and C1 are blank, so F2 and F3), a quoted one taken literally */
    assert_ok(SQLSetStmtAttr(f.stmt, SQL_ATTR_METADATA_ID, (SQLPOINTER)SQL_TRUE, 0));
    const char *ids[] = {"\"issue6$A1:C4\"", "issue6$A1:C4   ", "issue%$A1:C4", "\"issue6$A1:C4 \""};
    for (size_t i = 0; i < 4; i++) {
        assert_ok(SQLColumns(f.stmt, (SQLCHAR *)"", 0, (SQLCHAR *)"", 0, (SQLCHAR *)ids[i], SQL_NTS,
                             (SQLCHAR *)"f2", SQL_NTS));
        assert_int_equal(fetch_column(f.stmt, 4, got, sizeof got), i < 2 ? 1 : 0);
        if (i < 2)
            assert_string_equal(got, "F2");
    }
    disconnect(&f);
}

static void test_xls_range(void **state)
{
    (void)state;
    check_range(XLS);
}

static void test_xlsb_range(void **state)
{
    (void)state;
    check_range(XLSB);
}

/* A sheet-level name is listed, so SQLColumns finds it by name and by a
** pattern; SQLTables lists it as TABLE after the workbook names. */
static void test_sheet_level_name(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Database=" NAMES);
    char got[4096], want[4096];
    assert_int_equal(columns_of(f.stmt, "Sheet1$LocalRange", got, sizeof got), 1);
    select_columns(f.stmt, "Sheet1$LocalRange", "Sheet1$LocalRange", want, sizeof want);
    assert_string_equal(got, want);
    assert_ok(SQLTables(f.stmt, NULL, 0, NULL, 0, (SQLCHAR *)"%$%Range", SQL_NTS,
                        (SQLCHAR *)"TABLE,VIEW", SQL_NTS));
    assert_int_equal(fetch_column(f.stmt, 3, got, sizeof got), 3);
    assert_string_equal(got, "Sheet1$LocalRange|Sheet2$localRange|Sheet3$Localrange");
    assert_ok(SQLTables(f.stmt, NULL, 0, NULL, 0, (SQLCHAR *)"Sheet3$Localrange", SQL_NTS, NULL, 0));
    assert_int_equal(fetch_column(f.stmt, 4, got, sizeof got), 1);
    assert_string_equal(got, "TABLE");
    disconnect(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xls_range),
        cmocka_unit_test(test_xlsb_range),
        cmocka_unit_test(test_sheet_level_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
