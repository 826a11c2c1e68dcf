/*
** test_driver_typeinfo.c — SQLGetTypeInfo (driver/types.c) against the ODBC
** reference: one row for every SQL type the driver reports for a column or
** accepts as a CAST target or parameter type, each row's 19 columns as
** "SQLGetTypeInfo Function" and appendix D define them, rows ordered by
** DATA_TYPE (the ODBC 2 date codes 9, 10, 11 in an ODBC 2 environment, so
** before VARCHAR), and every type lt_sqltype_of gives a column listed under
** the same name.
*/
#include "test_driver_core.h"

#include "driver/types.h"

/* The columns of a row, in SQLGetTypeInfo's order. */
enum {
    C_TYPE_NAME = 1, C_DATA_TYPE, C_COLUMN_SIZE, C_LITERAL_PREFIX, C_LITERAL_SUFFIX,
    C_CREATE_PARAMS, C_NULLABLE, C_CASE_SENSITIVE, C_SEARCHABLE, C_UNSIGNED_ATTRIBUTE,
    C_FIXED_PREC_SCALE, C_AUTO_UNIQUE_VALUE, C_LOCAL_TYPE_NAME, C_MINIMUM_SCALE,
    C_MAXIMUM_SCALE, C_SQL_DATA_TYPE, C_SQL_DATETIME_SUB, C_NUM_PREC_RADIX,
    C_INTERVAL_PRECISION, C_COUNT = C_INTERVAL_PRECISION
};

/* What each type's row must say.  NULL strings and -1 numbers are NULL. */
typedef struct expect {
    SQLSMALLINT type;          /* ODBC 3 DATA_TYPE */
    const char *name;
    long size;                 /* COLUMN_SIZE */
    const char *quote;         /* LITERAL_PREFIX (and the suffix, for "'") */
    const char *create;        /* CREATE_PARAMS */
    int case_sensitive, searchable, unsigned_attr, min_scale, max_scale, radix;
} expect;

#define TEXT_ROW(t, n, size, create) \
    {t, n, size, "'", create, SQL_TRUE, SQL_PRED_SEARCHABLE, -1, -1, -1, -1}
#define BIN_ROW(t, n, size, create) \
    {t, n, size, NULL, create, SQL_FALSE, SQL_PRED_NONE, -1, -1, -1, -1}
#define NUM_ROW(t, n, size, create, lo, hi) \
    {t, n, size, NULL, create, SQL_FALSE, SQL_PRED_BASIC, SQL_FALSE, lo, hi, 10}

static const expect types[] = {
    {SQL_GUID, "GUID", 36, NULL, NULL, SQL_FALSE, SQL_PRED_BASIC, -1, -1, -1, -1},
    TEXT_ROW(SQL_WLONGVARCHAR, "WLONGVARCHAR", 1073741823, NULL),
    TEXT_ROW(SQL_WVARCHAR, "WVARCHAR", 65535, "max length"),
    TEXT_ROW(SQL_WCHAR, "WCHAR", 65535, "length"),
    {SQL_BIT, "BIT", 1, NULL, NULL, SQL_FALSE, SQL_PRED_BASIC, -1, 0, 0, -1},
    NUM_ROW(SQL_TINYINT, "TINYINT", 3, NULL, 0, 0),
    NUM_ROW(SQL_BIGINT, "BIGINT", 19, NULL, 0, 0),
    BIN_ROW(SQL_LONGVARBINARY, "LONGVARBINARY", 1073741823, NULL),
    {SQL_VARBINARY, "VARBINARY", 65535, NULL, "max length", SQL_FALSE, SQL_PRED_BASIC,
     -1, -1, -1, -1},
    {SQL_BINARY, "BINARY", 65535, NULL, "length", SQL_FALSE, SQL_PRED_BASIC,
     -1, -1, -1, -1},
    TEXT_ROW(SQL_LONGVARCHAR, "LONGVARCHAR", 1073741823, NULL),
    TEXT_ROW(SQL_CHAR, "CHAR", 65535, "length"),
    NUM_ROW(SQL_NUMERIC, "NUMERIC", 38, "precision,scale", 0, 38),
    NUM_ROW(SQL_DECIMAL, "DECIMAL", 38, "precision,scale", 0, 38),
    NUM_ROW(SQL_INTEGER, "INTEGER", 10, NULL, 0, 0),
    NUM_ROW(SQL_SMALLINT, "SMALLINT", 5, NULL, 0, 0),
    NUM_ROW(SQL_FLOAT, "FLOAT", 15, NULL, -1, -1),
    NUM_ROW(SQL_REAL, "REAL", 7, NULL, -1, -1),
    NUM_ROW(SQL_DOUBLE, "DOUBLE", 15, NULL, -1, -1),
    TEXT_ROW(SQL_VARCHAR, "VARCHAR", 65535, "max length"),
    {SQL_TYPE_DATE, "DATE", 10, "{d '", NULL, SQL_FALSE, SQL_PRED_BASIC, -1, -1, -1, -1},
    {SQL_TYPE_TIME, "TIME", 15, "{t '", NULL, SQL_FALSE, SQL_PRED_BASIC, -1, 0, 6, -1},
    {SQL_TYPE_TIMESTAMP, "TIMESTAMP", 26, "{ts '", NULL, SQL_FALSE, SQL_PRED_BASIC, -1, 0, 6,
     -1},
};
#define N_TYPES (sizeof types / sizeof types[0])

static const expect *expect_of(SQLSMALLINT type)
{
    for (size_t i = 0; i < N_TYPES; i++)
        if (types[i].type == type)
            return &types[i];
    return NULL;
}

static bool is_date(SQLSMALLINT t)
{
    return t == SQL_TYPE_DATE || t == SQL_TYPE_TIME || t == SQL_TYPE_TIMESTAMP;
}

/* The current row, read once, column by column (SQLGetData reads a fixed
** column only once, and in order). */
typedef struct row {
    char text[C_COUNT + 1][256];
    bool null[C_COUNT + 1];
    long num[C_COUNT + 1];
} row;

static bool is_text_col(int col)
{
    return col == C_TYPE_NAME || col == C_LITERAL_PREFIX || col == C_LITERAL_SUFFIX ||
           col == C_CREATE_PARAMS || col == C_LOCAL_TYPE_NAME;
}

static void read_row(SQLHSTMT stmt, row *r)
{
    memset(r, 0, sizeof *r);
    for (int col = 1; col <= C_COUNT; col++) {
        SQLLEN ind = 0;
        if (is_text_col(col)) {
            assert_ok(SQLGetData(stmt, (SQLUSMALLINT)col, SQL_C_CHAR, r->text[col],
                                 sizeof r->text[col], &ind));
        } else {
            SQLINTEGER v = 0;
            assert_ok(SQLGetData(stmt, (SQLUSMALLINT)col, SQL_C_SLONG, &v, 0, &ind));
            r->num[col] = v;
        }
        r->null[col] = ind == SQL_NULL_DATA;
        if (r->null[col])
            r->num[col] = -1;
    }
}

static void expect_text(const row *r, int col, const char *want, const char *type)
{
    const char *got = r->null[col] ? NULL : r->text[col];
    if (want == NULL && got != NULL)
        fail_msg("%s column %d: \"%s\", not NULL", type, col, got);
    if (want != NULL && (got == NULL || strcmp(got, want) != 0))
        fail_msg("%s column %d: %s, not \"%s\"", type, col, got ? got : "NULL", want);
}

static void expect_num(const row *r, int col, long want, const char *type)
{
    if (r->num[col] != want)
        fail_msg("%s column %d: %ld, not %ld (-1: NULL)", type, col, r->num[col], want);
}

/* Check the current row against what the reference wants of its type;
** `odbc2` for an ODBC 2 environment.  Returns the row's ODBC 3 type; its
** DATA_TYPE goes to *data_type. */
static SQLSMALLINT check_row(SQLHSTMT stmt, bool odbc2, long *data_type)
{
    row rw;
    const row *r = &rw;
    read_row(stmt, &rw);
    const char *name = r->text[C_TYPE_NAME];
    assert_false(r->null[C_TYPE_NAME]);
    const expect *e = NULL;
    for (size_t i = 0; i < N_TYPES && e == NULL; i++)
        if (strcmp(types[i].name, name) == 0)
            e = &types[i];
    if (e == NULL)
        fail_msg("SQLGetTypeInfo lists %s (%ld), which this test does not know", name,
                 r->num[C_DATA_TYPE]);
    SQLSMALLINT odbc3 = e->type;
    long want_type = odbc2 ? lt_sqltype_for_version(odbc3, SQL_OV_ODBC2) : odbc3;
    *data_type = r->num[C_DATA_TYPE];
    expect_num(r, C_DATA_TYPE, want_type, name);
    expect_num(r, C_COLUMN_SIZE, e->size, name);
    expect_text(r, C_LITERAL_PREFIX, e->quote, name);
    expect_text(r, C_LITERAL_SUFFIX,
                e->quote == NULL ? NULL : e->quote[0] == '{' ? "'}" : "'", name);
    expect_text(r, C_CREATE_PARAMS, e->create, name);
    expect_num(r, C_NULLABLE, SQL_NULLABLE, name);
    expect_num(r, C_CASE_SENSITIVE, e->case_sensitive, name);
    expect_num(r, C_SEARCHABLE, e->searchable, name);
    expect_num(r, C_UNSIGNED_ATTRIBUTE, e->unsigned_attr, name);
    expect_num(r, C_FIXED_PREC_SCALE, SQL_FALSE, name);
    /* AUTO_UNIQUE_VALUE: FALSE for numbers, NULL where it does not apply. */
    expect_num(r, C_AUTO_UNIQUE_VALUE, e->unsigned_attr == SQL_FALSE ? SQL_FALSE : -1, name);
    expect_text(r, C_LOCAL_TYPE_NAME, e->name, name);
    expect_num(r, C_MINIMUM_SCALE, e->min_scale, name);
    expect_num(r, C_MAXIMUM_SCALE, e->max_scale, name);
    /* SQL_DATA_TYPE is the verbose type: SQL_DATETIME with a subcode for dates. */
    expect_num(r, C_SQL_DATA_TYPE, is_date(odbc3) ? SQL_DATETIME : odbc3, name);
    expect_num(r, C_SQL_DATETIME_SUB,
               odbc3 == SQL_TYPE_DATE ? SQL_CODE_DATE
               : odbc3 == SQL_TYPE_TIME ? SQL_CODE_TIME
               : odbc3 == SQL_TYPE_TIMESTAMP ? SQL_CODE_TIMESTAMP : -1, name);
    expect_num(r, C_NUM_PREC_RADIX, e->radix, name);
    expect_num(r, C_INTERVAL_PRECISION, -1, name);
    return odbc3;
}

/* SQLGetTypeInfo(SQL_ALL_TYPES) in an environment of `version`: every type
** once, each row right, ordered by the DATA_TYPE that environment sees. */
static void check_all_types(SQLINTEGER version)
{
    fixture f;
    memset(&f, 0, sizeof f);
    assert_ok(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &f.env));
    assert_ok(SQLSetEnvAttr(f.env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)(intptr_t)version, 0));
    assert_ok(SQLAllocHandle(SQL_HANDLE_DBC, f.env, &f.dbc));
    assert_true(SQL_SUCCEEDED(SQLDriverConnect(f.dbc, NULL,
                                               (SQLCHAR *)"Driver=Lector;Database=" PEOPLE_DBF,
                                               SQL_NTS, NULL, 0, NULL, SQL_DRIVER_NOPROMPT)));
    assert_ok(SQLAllocHandle(SQL_HANDLE_STMT, f.dbc, &f.stmt));
    assert_ok(SQLGetTypeInfo(f.stmt, SQL_ALL_TYPES));
    SQLSMALLINT ncols = 0;
    assert_ok(SQLNumResultCols(f.stmt, &ncols));
    assert_int_equal(ncols, C_COUNT);
    bool seen[N_TYPES] = {false};
    long last = -1000;
    size_t rows = 0;
    SQLRETURN rc;
    while ((rc = SQLFetch(f.stmt)) == SQL_SUCCESS) {
        long data_type;
        SQLSMALLINT t = check_row(f.stmt, version == SQL_OV_ODBC2, &data_type);
        if (data_type < last)
            fail_msg("row %zu: DATA_TYPE %ld after %ld", rows + 1, data_type, last);
        last = data_type;
        size_t i = (size_t)(expect_of(t) - types);
        assert_false(seen[i]);
        seen[i] = true;
        rows++;
    }
    assert_int_equal(rc, SQL_NO_DATA);
    assert_int_equal(rows, N_TYPES);
    /* Under ODBC 2 the dates (9, 10, 11) come before VARCHAR (12). */
    assert_int_equal(last, version == SQL_OV_ODBC2 ? SQL_VARCHAR : SQL_TYPE_TIMESTAMP);
    disconnect(&f);
}

static void test_all_types_odbc3(void **state)
{
    (void)state;
    check_all_types(SQL_OV_ODBC3);
}

static void test_all_types_odbc2(void **state)
{
    (void)state;
    check_all_types(SQL_OV_ODBC2);
}

/* Asked for one type, each answers its own row, once; the ODBC 2 date codes
** name the same rows; a type the driver lacks (an interval) answers none;
** a number that is no type is HY004. */
static void test_each_type(void **state)
{
    (void)state;
    fixture f;
    memset(&f, 0, sizeof f);
    connect_to(&f, "Driver=Lector;Database=" PEOPLE_DBF);
    for (size_t i = 0; i < N_TYPES; i++) {
        assert_ok(SQLGetTypeInfo(f.stmt, types[i].type));
        assert_ok(SQLFetch(f.stmt));
        long data_type;
        assert_int_equal(check_row(f.stmt, false, &data_type), types[i].type);
        assert_int_equal(SQLFetch(f.stmt), SQL_NO_DATA);
        assert_ok(SQLFreeStmt(f.stmt, SQL_CLOSE));
    }
    static const SQLSMALLINT odbc2_codes[] = {SQL_DATE, SQL_TIME, SQL_TIMESTAMP};
    for (size_t i = 0; i < 3; i++) {
        assert_ok(SQLGetTypeInfo(f.stmt, odbc2_codes[i]));
        assert_ok(SQLFetch(f.stmt));
        long data_type;
        check_row(f.stmt, false, &data_type);
        assert_int_equal(data_type, SQL_TYPE_DATE + (SQLSMALLINT)i);
        assert_int_equal(SQLFetch(f.stmt), SQL_NO_DATA);
        assert_ok(SQLFreeStmt(f.stmt, SQL_CLOSE));
    }
    assert_ok(SQLGetTypeInfo(f.stmt, SQL_INTERVAL_DAY));
    assert_int_equal(SQLFetch(f.stmt), SQL_NO_DATA);
    assert_ok(SQLFreeStmt(f.stmt, SQL_CLOSE));
    assert_int_equal(SQLGetTypeInfo(f.stmt, 4321), SQL_ERROR);
    assert_stmt_state(f.stmt, "HY004");
    disconnect(&f);
}

/* Power Query looks up SQL_WCHAR through the W call. */
static void test_wchar_wide(void **state)
{
    (void)state;
    fixture f;
    memset(&f, 0, sizeof f);
    connect_to(&f, "Driver=Lector;Database=" PEOPLE_DBF);
    assert_ok(SQLGetTypeInfoW(f.stmt, SQL_WCHAR));
    assert_ok(SQLFetch(f.stmt));
    SQLWCHAR name[32];
    SQLLEN len = 0;
    assert_ok(SQLGetData(f.stmt, C_TYPE_NAME, SQL_C_WCHAR, name, sizeof name, &len));
    assert_int_equal(len, 5 * (SQLLEN)sizeof(SQLWCHAR));
    assert_true(name[0] == 'W' && name[1] == 'C' && name[4] == 'R' && name[5] == 0);
    assert_int_equal(SQLFetch(f.stmt), SQL_NO_DATA);
    disconnect(&f);
}

/* Every type a column can be reported as is a row, under the same name. */
static void test_column_types_listed(void **state)
{
    (void)state;
    static const struct { lt_type type; uint32_t size; int16_t scale; bool is_long; } cols[] = {
        {LT_NULL, 0, 0, false},        {LT_BOOL, 1, 0, false},
        {LT_INT64, 3, 0, false},       {LT_INT64, 5, 0, false},
        {LT_INT64, 10, 0, false},      {LT_INT64, 19, 0, false},
        {LT_DOUBLE, 7, 0, false},      {LT_DOUBLE, 15, 0, false},
        {LT_DECIMAL, 12, 2, false},    {LT_DECIMAL, 0, 0, false},
        {LT_TEXT, 10, 0, false},       {LT_TEXT, 0, 0, false},
        {LT_TEXT, 100000, 0, false},   {LT_TEXT, 0, 0, true},
        {LT_BINARY, 16, 0, false},     {LT_BINARY, 0, 0, true},
        {LT_DATE, 10, 0, false},       {LT_TIME, 8, 0, false},
        {LT_TIME, 12, 3, false},       {LT_TIMESTAMP, 19, 0, false},
        {LT_TIMESTAMP, 26, 6, false},  {LT_GUID, 36, 0, false},
    };
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
        lt_column c;
        memset(&c, 0, sizeof c);
        c.type = cols[i].type;
        c.size = cols[i].size;
        c.scale = cols[i].scale;
        c.is_long = cols[i].is_long;
        lt_sqltype t;
        lt_sqltype_of(&c, &t);
        const expect *e = expect_of(t.concise);
        if (e == NULL || strcmp(e->name, t.name) != 0)
            fail_msg("column type %d size %u: %s (%d) is no row of SQLGetTypeInfo",
                     (int)c.type, (unsigned)c.size, t.name, (int)t.concise);
        /* A column is never wider than its type's widest form. */
        assert_true(t.column_size <= (SQLULEN)e->size);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_types_odbc3),
        cmocka_unit_test(test_all_types_odbc2),
        cmocka_unit_test(test_each_type),
        cmocka_unit_test(test_wchar_wide),
        cmocka_unit_test(test_column_types_listed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
