/*
** test_driver_foreign.c — SQLForeignKeys (and SQLForeignKeysW) over the
** foreign keys readers report: the three call forms (primary key table,
** foreign key table, both), the result's columns and order, the rules and
** key names, and the argument errors.  Access files carry relationships in
** MSysRelationships; SQLite files (Chinook) in their schema, once the
** SQLite reader reports them.  Also the other Access catalog objects the
** driver serves: saved queries run as views, text compared as Access does.
*/
#include "test_driver_core.h"

#define ACCESS LT_CORPUS_DIR "/access"
#define CHINOOK LT_CORPUS_DIR "/sqlite/realworld/Chinook_Sqlite.sqlite"

/* Every row of the open result as "PKTABLE|PKCOLUMN|FKTABLE|FKCOLUMN|KEY_SEQ|
** UPDATE|DELETE|FK_NAME|PK_NAME|DEFERRABILITY" lines (catalog and schema
** columns are checked to be NULL), closed afterwards. */
static char *rows_of(SQLHSTMT stmt)
{
    static char out[8192];
    size_t used = 0;
    out[0] = '\0';
    SQLSMALLINT ncols;
    assert_ok(SQLNumResultCols(stmt, &ncols));
    assert_int_equal(ncols, 14);
    SQLRETURN rc;
    while ((rc = SQLFetch(stmt)) == SQL_SUCCESS) {
        for (SQLUSMALLINT c = 1; c <= 14; c++) {
            char cell[256];
            SQLLEN ind;
            assert_true(SQL_SUCCEEDED(SQLGetData(stmt, c, SQL_C_CHAR, cell, sizeof cell, &ind)));
            if (c == 1 || c == 2 || c == 5 || c == 6) {
                assert_int_equal(ind, SQL_NULL_DATA);
                continue;
            }
            used += (size_t)snprintf(out + used, sizeof out - used, "%s%s", c == 3 ? "" : "|",
                                     ind == SQL_NULL_DATA ? "(null)" : cell);
            assert_true(used < sizeof out);
        }
        used += (size_t)snprintf(out + used, sizeof out - used, "\n");
    }
    assert_int_equal(rc, SQL_NO_DATA);
    assert_ok(SQLCloseCursor(stmt));
    return out;
}

static char *foreign(SQLHSTMT stmt, const char *pk, const char *fk)
{
    SQLRETURN rc = SQLForeignKeys(stmt, NULL, 0, NULL, 0, (SQLCHAR *)pk, SQL_NTS, NULL, 0, NULL, 0,
                                  (SQLCHAR *)fk, SQL_NTS);
    if (rc != SQL_SUCCESS)
        fail_msg("SQLForeignKeys: %s %s", state_of(SQL_HANDLE_STMT, stmt, 1),
                 message_of(SQL_HANDLE_STMT, stmt, 1));
    return rows_of(stmt);
}

static const char groups_fk[] =
    "MSysNavPaneGroupCategories|Id|MSysNavPaneGroups|GroupCategoryID|1|0|0|"
    "MSysNavPaneGroupCategoriesMSysNavPaneGroups|Id|7\n";
static const char objects_fk[] =
    "MSysNavPaneGroups|Id|MSysNavPaneGroupToObjects|GroupID|1|0|0|"
    "MSysNavPaneGroupsMSysNavPaneGroupToObjects|Id|7\n";

static void test_forms(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Driver=Lector;Database=" ACCESS "/bigint.accdb");
    /* the foreign key table: its keys */
    assert_string_equal(foreign(f.stmt, NULL, "MSysNavPaneGroups"), groups_fk);
    /* the primary key table: the keys that refer to it */
    assert_string_equal(foreign(f.stmt, "MSysNavPaneGroups", NULL), objects_fk);
    assert_string_equal(foreign(f.stmt, "msysnavpanegroupcategories", NULL), groups_fk);
    /* both: the one key between them, or none */
    assert_string_equal(foreign(f.stmt, "MSysNavPaneGroupCategories", "MSysNavPaneGroups"), groups_fk);
    assert_string_equal(foreign(f.stmt, "MSysNavPaneGroups", "MSysNavPaneGroups"), "");
    /* names are not patterns; unknown tables have no keys */
    assert_string_equal(foreign(f.stmt, NULL, "MSysNavPane%"), "");
    assert_string_equal(foreign(f.stmt, NULL, "Table"), "");
    /* no catalogs: a named one matches nothing */
    assert_ok(SQLForeignKeys(f.stmt, (SQLCHAR *)"x", SQL_NTS, NULL, 0, NULL, 0, NULL, 0, NULL, 0,
                             (SQLCHAR *)"MSysNavPaneGroups", SQL_NTS));
    assert_string_equal(rows_of(f.stmt), "");
    assert_ok(SQLForeignKeys(f.stmt, (SQLCHAR *)"", SQL_NTS, (SQLCHAR *)"", SQL_NTS, NULL, 0,
                             (SQLCHAR *)"", SQL_NTS, (SQLCHAR *)"", SQL_NTS,
                             (SQLCHAR *)"MSysNavPaneGroups", SQL_NTS));
    assert_string_equal(rows_of(f.stmt), groups_fk);
    disconnect(&f);
}

static void test_rules(void **state)
{
    (void)state;
    fixture f;
    /* grbit 0x1000: deletes cascade, updates do not; the key refers to its
    ** own table */
    connect_to(&f, "Driver=Lector;Database=" ACCESS "/ASampleDatabase.accdb");
    assert_string_equal(foreign(f.stmt, "MSysAccessStorage", NULL),
                        "MSysAccessStorage|Id|MSysAccessStorage|ParentId|1|3|0|"
                        "MSysAccessStorageSTGREL|Id|7\n");
    /* the user tables have no relationships */
    assert_string_equal(foreign(f.stmt, NULL, "Asset Items"), "");
    disconnect(&f);
}

static void test_errors(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Driver=Lector;Database=" ACCESS "/bigint.accdb");
    assert_int_equal(SQLForeignKeys(f.stmt, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0),
                     SQL_ERROR);
    assert_stmt_state(f.stmt, "HY009");
    assert_int_equal(SQLForeignKeys(f.stmt, NULL, 0, NULL, 0, (SQLCHAR *)"x", -7, NULL, 0, NULL, 0,
                                    NULL, 0),
                     SQL_ERROR);
    assert_stmt_state(f.stmt, "HY090");
    /* a cursor already open */
    assert_ok(SQLForeignKeys(f.stmt, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0,
                             (SQLCHAR *)"MSysNavPaneGroups", SQL_NTS));
    assert_int_equal(SQLForeignKeys(f.stmt, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0,
                                    (SQLCHAR *)"MSysNavPaneGroups", SQL_NTS),
                     SQL_ERROR);
    assert_stmt_state(f.stmt, "24000");
    assert_ok(SQLCloseCursor(f.stmt));
    /* SQL_ATTR_METADATA_ID: names are identifiers, null catalogs allowed */
    assert_ok(SQLSetStmtAttr(f.stmt, SQL_ATTR_METADATA_ID, (SQLPOINTER)SQL_TRUE, 0));
    assert_string_equal(foreign(f.stmt, NULL, "msysnavpanegroups  "), groups_fk);
    assert_string_equal(foreign(f.stmt, NULL, "\"msysnavpanegroups\""), "");
    disconnect(&f);
}

static void test_wide(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Driver=Lector;Database=" ACCESS "/bigint.accdb");
    const char *name = "MSysNavPaneGroups";
    SQLWCHAR wname[64];
    size_t n = strlen(name);
    for (size_t i = 0; i <= n; i++)
        wname[i] = (SQLWCHAR)name[i];
    assert_ok(SQLForeignKeysW(f.stmt, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, wname, SQL_NTS));
    assert_string_equal(rows_of(f.stmt), groups_fk);
    assert_ok(SQLForeignKeysW(f.stmt, NULL, 0, NULL, 0, wname, (SQLSMALLINT)n, NULL, 0, NULL, 0,
                              NULL, 0));
    assert_string_equal(rows_of(f.stmt), objects_fk);
    disconnect(&f);
}

/* Several keys: ordered by FKTABLE_NAME for a primary key table, by
** PKTABLE_NAME for a foreign key table (Chinook's schema). */
static void test_order(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Driver=Lector;Database=" CHINOOK);
    const char *track = foreign(f.stmt, NULL, "Track");
    if (track[0] == '\0') {
        printf("note: the SQLite reader reports no foreign keys yet; ordering checked on "
               "Access files only\n");
        disconnect(&f);
        return;
    }
    assert_non_null(strstr(track, "Album|AlbumId|Track|AlbumId|1|3|3|"));
    assert_true(strstr(track, "Album|") < strstr(track, "Genre|GenreId|Track|GenreId|1|"));
    assert_true(strstr(track, "Genre|") < strstr(track, "MediaType|MediaTypeId|Track|MediaTypeId|1|"));
    const char *referring = foreign(f.stmt, "Track", NULL);
    assert_non_null(strstr(referring, "Track|TrackId|InvoiceLine|TrackId|1|"));
    assert_true(strstr(referring, "InvoiceLine|") < strstr(referring, "Track|TrackId|PlaylistTrack|TrackId|1|"));
    disconnect(&f);
}

/* One number from a query. */
static long long scalar(SQLHSTMT stmt, const char *sql)
{
    exec_ok(stmt, sql);
    assert_ok(SQLFetch(stmt));
    SQLBIGINT v = 0;
    SQLLEN ind;
    assert_ok(SQLGetData(stmt, 1, SQL_C_SBIGINT, &v, 0, &ind));
    assert_int_equal(SQLFetch(stmt), SQL_NO_DATA);
    assert_ok(SQLCloseCursor(stmt));
    return (long long)v;
}

/* ASampleDatabase.accdb's saved queries, run by the engine from the SQL
** the reader rebuilt; the expected numbers come from the table's oracle
** CSV (24 "Computer Hardware" assets; 14 owner/category groups). */
static void test_views(void **state)
{
    (void)state;
    fixture f;
    connect_to(&f, "Driver=Lector;Database=" ACCESS "/ASampleDatabase.accdb");
    /* listed as views */
    assert_ok(SQLTables(f.stmt, NULL, 0, NULL, 0, (SQLCHAR *)"qry%", SQL_NTS, (SQLCHAR *)"VIEW",
                        SQL_NTS));
    int views = 0;
    while (SQLFetch(f.stmt) == SQL_SUCCESS)
        views++;
    assert_int_equal(views, 3);
    assert_ok(SQLCloseCursor(f.stmt));
    assert_int_equal(scalar(f.stmt, "SELECT COUNT(*) FROM qryComputerHardwareInOwnerOrder"), 24);
    assert_int_equal(scalar(f.stmt, "SELECT COUNT(*) FROM qryCostsSummedByOwner"), 14);
    assert_int_equal(scalar(f.stmt, "SELECT CAST(SumOfCost AS INTEGER) FROM qryCostsSummedByOwner "
                                    "WHERE Owner = 'Sales' AND [Asset Category] = 'Computer Hardware'"),
                     18804);
    assert_int_equal(scalar(f.stmt, "SELECT COUNT(*) FROM qryGSTCalculations "
                                    "WHERE ABS([Ex Tax] + GST - Cost) > 0.0001"), 0);
    assert_int_equal(scalar(f.stmt, "SELECT COUNT(*) FROM qryGSTCalculations"), 65);
    /* the view keeps its ORDER BY: owners come sorted */
    exec_ok(f.stmt, "SELECT Owner FROM qryComputerHardwareInOwnerOrder");
    char prev[64] = "", cur[64];
    SQLLEN ind;
    int n = 0;
    while (SQLFetch(f.stmt) == SQL_SUCCESS) {
        assert_ok(SQLGetData(f.stmt, 1, SQL_C_CHAR, cur, sizeof cur, &ind));
        assert_true(strcmp(prev, cur) <= 0);
        snprintf(prev, sizeof prev, "%s", cur);
        n++;
    }
    assert_int_equal(n, 24);
    assert_ok(SQLCloseCursor(f.stmt));
    /* Access compares text ignoring case, and LIKE takes * */
    assert_int_equal(scalar(f.stmt, "SELECT COUNT(*) FROM [Asset Items] "
                                    "WHERE [Asset Category] = 'computer HARDWARE'"), 24);
    assert_int_equal(scalar(f.stmt, "SELECT COUNT(*) FROM qryComputerHardwareInOwnerOrder "
                                    "WHERE Make LIKE 'geo*'"), 12);
    assert_int_equal(scalar(f.stmt, "SELECT COUNT(*) FROM qryComputerHardwareInOwnerOrder "
                                    "WHERE Make LIKE 'GEO%'"), 12);
    disconnect(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forms),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_wide),
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_views),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
