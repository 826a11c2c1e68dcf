/*
** test_sql_sqlstates.c — one case (or more) per SQLSTATE the SQL engine
** (driver/sql/) can raise, through its public API only: sql_prepare,
** sql_execute, sql_cursor_next, sql_describe_table, sql_cursor_cancel.
**
** Each case checks the state and the part of the message that tells the
** user what went wrong (position, operation, value).  The completeness
** check (tests/sqlstates/check.sh) fails when a state appears in
** driver/sql/ (any .c file) and not here as a quoted literal, so a new state needs a
** case in this file.
**
** Most cases run on the in-memory source of test_sql_harness.h; a few run
** over a corpus dBASE file opened with lt_source_open, to show the states
** survive a real reader.
*/
#include "test_sql_harness.h"

#define PEOPLE_DBF LT_CORPUS_DIR "/dbf/real/olemb-dbfread/people.dbf"

/* Run `sql` over `src` under a memory limit of `limit` bytes into
** `result`; the error of the first failing step lands in `err`. */
static int run_limited_on(lt_source *src, const char *sql, uint64_t limit)
{
    return run_query(src, sql, NULL, 0, limit, result, sizeof result, &err);
}

static int run_on(lt_source *src, const char *sql)
{
    return run_limited_on(src, sql, SQL_DEFAULT_MEMORY_LIMIT);
}

#define assert_fails_with(rc, state, fragment)                                     \
    do {                                                                           \
        if ((rc) == 0)                                                             \
            fail_msg("no error, rows '%s'; expected %s '%s'", result, state,        \
                     fragment);                                                    \
        if (strcmp(err.sqlstate, state) != 0 || strstr(err.message, fragment) == NULL) \
            fail_msg("got %s '%s', expected %s '%s'", err.sqlstate, err.message,   \
                     state, fragment);                                             \
    } while (0)

/* ------------------------------------------------------------------------ */
/* 42000: syntax error or access violation, one case per documented cause    */
/* ------------------------------------------------------------------------ */

static void test_42000_syntax(void **state)
{
    (void)state;
    assert_error("SELECT FROM People", "42000",
                 "syntax error at line 1, column 8: expected an expression near 'FROM'");
    assert_error("SELECT id\nFROM People WHERE id = = 2", "42000",
                 "syntax error at line 2, column 24");
    assert_error("SELECT 'abc", "42000", "line 1, column 8: unterminated string literal");
    assert_error("", "42000", "syntax error: empty statement");
    assert_error("EXEC sp_who", "42000", "unsupported statement 'EXEC'");
}

static void test_42000_read_only(void **state)
{
    (void)state;
    assert_error("INSERT INTO People (id) VALUES (9)", "42000",
                 "Lector is read-only: INSERT is not supported");
    assert_error("update People set age = 1", "42000", "Lector is read-only: UPDATE is not supported");
    assert_error("DELETE FROM People", "42000", "Lector is read-only: DELETE is not supported");
    assert_error("DROP TABLE People", "42000", "Lector is read-only: DROP is not supported");
    assert_error("SELECT id INTO copy FROM People", "42000",
                 "Lector is read-only: SELECT INTO is not supported");
}

static void test_42000_type_error(void **state)
{
    (void)state;
    assert_error("SELECT id FROM People WHERE Name = 3", "42000",
                 "cannot compare TEXT and INTEGER");
    assert_error("SELECT SUM(Name) FROM People", "42000", "SUM needs numbers, not TEXT");
    assert_error("SELECT CAST(born AS TIME) FROM People", "42000",
                 "cannot CAST DATE to TIME (line 1, column 8)");
    assert_error("SELECT id FROM People WHERE age LIKE '1%'", "42000", "LIKE needs TEXT");
    assert_error("SELECT CAST(1 AS WHATEVER)", "42000", "unknown type name 'WHATEVER'");
}

static void test_42000_ambiguous_column(void **state)
{
    (void)state;
    assert_error("SELECT a FROM dup", "42000", "ambiguous column name 'a' at line 1, column 8");
    assert_error("SELECT id FROM People, pets", "42000", "ambiguous column name 'id'");
}

static void test_42000_unknown_function(void **state)
{
    (void)state;
    assert_error("SELECT nosuch(id) FROM People", "42000",
                 "unknown function 'nosuch' (line 1, column 8)");
    assert_error("SELECT {fn UCASE('a', 'b')}", "42000", "function UCASE takes 1 argument, not 2");
    assert_error("SELECT UCASE(DISTINCT 'a')", "42000",
                 "DISTINCT is only allowed in an aggregate function, not in UCASE");
}

static void test_42000_aggregate_misuse(void **state)
{
    (void)state;
    assert_error("SELECT id FROM People WHERE COUNT(*) > 1", "42000",
                 "aggregate function COUNT is not allowed in WHERE (line 1, column 29)");
    assert_error("SELECT Name, COUNT(*) FROM People", "42000",
                 "column 'Name' must appear in GROUP BY or be used in an aggregate function "
                 "(line 1, column 8)");
    assert_error("SELECT SUM(*) FROM People", "42000", "SUM(*) is not allowed; only COUNT(*)");
}

static void test_42000_other_causes(void **state)
{
    (void)state;
    assert_error("SELECT *", "42000", "SELECT * needs a FROM clause (line 1, column 8)");
    assert_error("SELECT id FROM People ORDER BY 2", "42000", "ORDER BY position 2 is not in the select list");
    assert_error("SELECT id FROM People LIMIT 'a'", "42000", "LIMIT needs a non-negative integer or ?");
    assert_error("SELECT 1 UNION SELECT 2, 3", "42000",
                 "the queries combined by UNION must have the same number of columns, not 1 and 2");
    /* Constructs not supported yet, named. */
    assert_error("WITH x AS (SELECT 1) SELECT * FROM x", "42000",
                 "syntax error at line 1, column 1: WITH (common table expressions) is not supported yet");
    assert_error("SELECT {INTERVAL '1' DAY}", "42000", "interval literals are not supported");
    assert_error("SELECT {d '2020-01-01'} + {d '2020-01-01'}", "42000",
                 "date arithmetic adds or subtracts a number of days, not DATE and DATE");
    assert_error("SELECT {fn TIMESTAMPADD(FORTNIGHT, 1, born)} FROM People", "42000",
                 "TIMESTAMPADD needs an interval name such as SQL_TSI_DAY or DAY");
    /* EXTRACT of a date field from a TIME value is found when it runs. */
    lt_value t = {.type = LT_TIME, .u.i64 = 3600LL * 1000000};
    assert_fails_with(runp("SELECT EXTRACT(YEAR FROM ?)", &t, 1), "42000",
                      "EXTRACT of a date field from a TIME");
    source_add_views();
    assert_error("SELECT * FROM self", "42000", "view 'self' refers to itself");
    assert_error("SELECT * FROM broken", "42000",
                 "in the query of view 'broken': syntax error at line 1, column 8");
}

/* ------------------------------------------------------------------------ */
/* 42S02, 42S22: names                                                       */
/* ------------------------------------------------------------------------ */

static void test_42S02_unknown_table(void **state)
{
    (void)state;
    assert_error("SELECT * FROM nope", "42S02", "unknown table 'nope' at line 1, column 15");
    assert_error("SELECT x.id FROM People", "42S02", "unknown table 'x' at line 1, column 8");
    /* No source at all (a connection without a database). */
    assert_fails_with(run_on(NULL, "SELECT * FROM t"), "42S02",
                      "unknown table 't' at line 1, column 15: the connection has no data source");
}

static void test_42S22_unknown_column(void **state)
{
    (void)state;
    assert_error("SELECT id,\n  nope FROM People", "42S22", "unknown column 'nope' at line 2, column 3");
    assert_error("SELECT x", "42S22", "unknown column 'x' at line 1, column 8: the query has no FROM clause");
    assert_error("SELECT * FROM People JOIN pets USING (kind)", "42S22",
                 "USING column 'kind' is not in the tables before 'pets' (line 1, column 27)");
    assert_error("SELECT * FROM People JOIN pets USING (nope)", "42S22",
                 "USING column 'nope' is not in table 'pets'");
    assert_error("SELECT id FROM People UNION SELECT id FROM pets ORDER BY nope", "42S22",
                 "ORDER BY of UNION, EXCEPT or INTERSECT names no output column 'nope'");
}

/* A qualified column of an outer query's table that the table does not
** have is an unknown column, not an unknown table: the table is there. */
static void test_42S22_unknown_column_of_an_outer_table(void **state)
{
    (void)state;
    assert_rows("SELECT id FROM People p WHERE EXISTS (SELECT * FROM pets WHERE owner = p.id)", "1;4");
    assert_error("SELECT id FROM People p WHERE EXISTS (SELECT * FROM pets WHERE owner = p.nope)",
                 "42S22", "unknown column 'nope' at line 1, column 72");
    assert_error("SELECT (SELECT p.nope) FROM People p", "42S22",
                 "unknown column 'nope' at line 1, column 16");
    /* An unknown qualifier stays 42S02. */
    assert_error("SELECT id FROM People p WHERE EXISTS (SELECT * FROM pets WHERE owner = x.id)",
                 "42S02", "unknown table 'x' at line 1, column 72");
}

/* The same name errors through a real reader (dBASE, corpus). */
static void test_names_over_a_corpus_file(void **state)
{
    (void)state;
    lt_source *src = NULL;
    lt_error oerr;
    lt_error_clear(&oerr);
    if (lt_source_open(PEOPLE_DBF, NULL, &src, &oerr) != 0)
        fail_msg("open %s: %s %s", PEOPLE_DBF, oerr.sqlstate, oerr.message);
    assert_int_equal(run_on(src, "SELECT NAME FROM people"), 0);
    assert_fails_with(run_on(src, "SELECT nope FROM people"), "42S22",
                      "unknown column 'nope' at line 1, column 8");
    assert_fails_with(run_on(src, "SELECT * FROM nowhere"), "42S02",
                      "unknown table 'nowhere' at line 1, column 15");
    assert_fails_with(run_on(src, "DELETE FROM people"), "42000",
                      "Lector is read-only: DELETE is not supported");
    lt_source_close(src);
}

/* ------------------------------------------------------------------------ */
/* 07xxx: parameters                                                         */
/* ------------------------------------------------------------------------ */

static void test_07002_parameter_count(void **state)
{
    (void)state;
    lt_value one = int_value(1);
    assert_fails_with(runp("SELECT ? + ?", &one, 1), "07002",
                      "the statement has 2 parameter markers but 1 value was given");
    assert_fails_with(runp("SELECT 1", &one, 1), "07002",
                      "the statement has 0 parameter markers but 1 value was given");
}

static void test_07006_parameter_type(void **state)
{
    (void)state;
    /* A value of a type that has no conversion to the one the marker needs
    ** (CAST and comparisons reject such types earlier, with 42000). */
    lt_value g = {.type = LT_GUID};
    assert_fails_with(runp("SELECT id FROM People LIMIT ?", &g, 1), "07006",
                      "cannot convert GUID to INTEGER (parameter 1 at line 1, column 29)");
    lt_value d = {.type = LT_DATE, .u.date = 100};
    assert_fails_with(runp("SELECT id FROM People LIMIT ?", &d, 1), "07006",
                      "cannot convert DATE to INTEGER");
}

/* ------------------------------------------------------------------------ */
/* 21000, 22xxx: data                                                        */
/* ------------------------------------------------------------------------ */

static void test_21000_scalar_subquery(void **state)
{
    (void)state;
    assert_error("SELECT (SELECT id FROM People)", "21000",
                 "a subquery used as a value returned more than one row (line 1, column 8)");
}

static void test_22001_text_too_long(void **state)
{
    (void)state;
    assert_error("SELECT REPEAT('x', 20000000)", "22001",
                 "the result of REPEAT would be longer than 16777216 bytes");
    assert_error("SELECT REPEAT('x', 9000000) || REPEAT('y', 9000000)", "22001",
                 "the result of || would be longer than 16777216 bytes");
    assert_error("SELECT REPLACE(REPEAT('x', 9000000), 'x', 'yy')", "22001",
                 "the result of REPLACE would be longer than 16777216 bytes");
}

static void test_22003_out_of_range(void **state)
{
    (void)state;
    assert_error("SELECT CAST(70000 AS SMALLINT)", "22003", "numeric value out of range for SMALLINT");
    assert_error("SELECT CAST(1000 AS DECIMAL(5,2))", "22003",
                 "numeric value out of range for DECIMAL(5,2)");
    assert_error("SELECT 9223372036854775807 + id FROM People", "22003", "numeric value out of range");
    assert_error("SELECT SUM(9223372036854775807) FROM nums WHERE i <= 2", "22003",
                 "numeric value out of range in SUM");
    assert_error("SELECT SQRT(-1)", "22003", "SQRT is not defined for -1");
    lt_value minus = int_value(-1);
    assert_fails_with(runp("SELECT id FROM People LIMIT ?", &minus, 1), "22003",
                      "LIMIT must not be negative (got -1)");
    assert_error("SELECT {fn TIMESTAMPDIFF(SQL_TSI_FRAC_SECOND, {ts '0001-01-01 00:00:00'}, "
                 "{ts '9999-12-31 00:00:00'})}",
                 "22003", "numeric value out of range in TIMESTAMPDIFF");
}

static void test_22007_bad_date(void **state)
{
    (void)state;
    assert_error("SELECT CAST('2020-13-01' AS DATE)", "22007", "'2020-13-01' is not a date (YYYY-MM-DD)");
    assert_error("SELECT CAST('25:00:00' AS TIME)", "22007", "'25:00:00' is not a time (HH:MM:SS)");
    assert_error("SELECT CAST('noon' AS TIMESTAMP)", "22007", "'noon' is not a timestamp");
    assert_error("SELECT {d '2020-02-30'}", "22007", "invalid DATE literal at line 1, column 11: '2020-02-30' is not a date");
}

static void test_22008_date_overflow(void **state)
{
    (void)state;
    assert_error("SELECT {fn TIMESTAMPADD(SQL_TSI_YEAR, 1, {d '9999-06-01'})}", "22008",
                 "TIMESTAMPADD: the result is outside the years 1 to 9999");
    assert_error("SELECT {d '9999-12-31'} + 1", "22008",
                 "date arithmetic: the result is outside the years 1 to 9999");
}

/* A count of years or quarters whose months do not fit in 64 bits is past
** the years 1 to 9999 too (found without overflowing: UBSan watches). */
static void test_22008_timestampadd_huge_count(void **state)
{
    (void)state;
    assert_error("SELECT {fn TIMESTAMPADD(SQL_TSI_YEAR, -9223372036854775807, {d '2020-01-01'})}",
                 "22008", "TIMESTAMPADD: the result is outside the years 1 to 9999");
    assert_error("SELECT {fn TIMESTAMPADD(SQL_TSI_QUARTER, 9223372036854775807, {d '2020-01-01'})}",
                 "22008", "TIMESTAMPADD: the result is outside the years 1 to 9999");
}

static void test_22011_substring(void **state)
{
    (void)state;
    assert_error("SELECT SUBSTRING('abc', 1, -2)", "22011", "SUBSTRING with a negative length (-2)");
}

static void test_22012_division_by_zero(void **state)
{
    (void)state;
    assert_error("SELECT 1 / 0", "22012", "division by zero");
    assert_error("SELECT id % (age - age) FROM People WHERE age IS NOT NULL", "22012", "division by zero");
}

static void test_22018_bad_number_text(void **state)
{
    (void)state;
    assert_error("SELECT CAST('abc' AS INTEGER)", "22018", "'abc' is not a number (line 1, column 8)");
    assert_error("SELECT CAST(Name AS INTEGER) FROM People", "22018", "'Alice' is not a number");
    lt_value half = text_value("1.5");
    assert_fails_with(runp("SELECT id FROM People LIMIT ?", &half, 1), "22018",
                      "'1.5' is not an integer (parameter 1 at line 1, column 29)");
    assert_error("SELECT id FROM People WHERE active = 'maybe'", "22018", "'maybe' is not a boolean");
}

static void test_22019_22025_like_escape(void **state)
{
    (void)state;
    assert_error("SELECT id FROM People WHERE Name LIKE 'a' ESCAPE 'xy'", "22019",
                 "invalid escape character: ESCAPE needs exactly one character");
    assert_error("SELECT id FROM People WHERE Name LIKE 'a!' ESCAPE '!'", "22025",
                 "invalid escape sequence: the LIKE pattern ends with its escape character");
}

/* ------------------------------------------------------------------------ */
/* 24000, HY008, HY009, HY000, HY001: statement and cursor                   */
/* ------------------------------------------------------------------------ */

static void test_24000_cursor_open(void **state)
{
    (void)state;
    sql_stmt *st;
    sql_cursor *cur, *again = NULL;
    const char *sql = "SELECT id FROM People";
    assert_int_equal(sql_prepare(&source.base, sql, strlen(sql), &st, &err), 0);
    assert_int_equal(sql_execute(st, NULL, 0, &cur, &err), 0);
    assert_int_equal(sql_execute(st, NULL, 0, &again, &err), -1);
    assert_string_equal(err.sqlstate, "24000");
    assert_non_null(strstr(err.message, "a cursor is already open on this statement"));
    sql_cursor_close(cur);
    assert_int_equal(sql_execute(st, NULL, 0, &cur, &err), 0);
    sql_cursor_close(cur);
    sql_stmt_free(st);
}

static void test_HY008_cancel(void **state)
{
    (void)state;
    sql_stmt *st;
    sql_cursor *cur;
    lt_batch *b;
    const char *sql = "SELECT i FROM nums";
    assert_int_equal(sql_prepare(&source.base, sql, strlen(sql), &st, &err), 0);
    assert_int_equal(sql_execute(st, NULL, 0, &cur, &err), 0);
    sql_cursor_cancel(cur);
    assert_int_equal(sql_cursor_next(cur, &b, &err), -1);
    assert_string_equal(err.sqlstate, "HY008");
    assert_non_null(strstr(err.message, "operation canceled"));
    /* The failure sticks. */
    lt_error_clear(&err);
    assert_int_equal(sql_cursor_next(cur, &b, &err), -1);
    assert_string_equal(err.sqlstate, "HY008");
    sql_cursor_close(cur);
    sql_stmt_free(st);
}

static void test_HY009_no_text(void **state)
{
    (void)state;
    sql_stmt *st = NULL;
    lt_error_clear(&err);
    assert_int_equal(sql_prepare(&source.base, NULL, 8, &st, &err), -1);
    assert_string_equal(err.sqlstate, "HY009");
    assert_non_null(strstr(err.message, "no statement text"));
    assert_null(st);
}

static void test_HY000_general(void **state)
{
    (void)state;
    /* A table the reader listed but could not read. */
    source_add_views();
    assert_error("SELECT * FROM unreadable", "HY000",
                 "table 'unreadable' cannot be read: the view uses a function Lector lacks");
    /* Describing a table the source does not have. */
    lt_arena arena;
    sql_column *cols = NULL;
    uint32_t ncols = 0;
    lt_arena_init(&arena);
    lt_error_clear(&err);
    assert_int_equal(sql_describe_table(&source.base, 999, &arena, &cols, &ncols, &err), -1);
    assert_string_equal(err.sqlstate, "HY000");
    assert_non_null(strstr(err.message, "no such table to describe"));
    lt_arena_free(&arena);
}

/* The statement's memory limit: past it HY001 naming what needed the
** memory and how to raise the limit. */
static void test_HY001_memory_limit(void **state)
{
    (void)state;
    /* A limit that is not whole MiB: the statement's own. */
    assert_fails_with(run_limited_on(&source.base, "SELECT i FROM nums INTERSECT SELECT i FROM nums",
                                     4096),
                      "HY001",
                      "the query needs more than 4 KiB to combine the rows of INTERSECT "
                      "(the statement's memory limit); raise the limit");
    /* Whole MiB: the connection's MemoryLimit, named so the user can raise it. */
    assert_fails_with(run_limited_on(&source.base,
                                     "SELECT i FROM nums EXCEPT "
                                     "SELECT a.i * 5000 + b.i FROM nums a CROSS JOIN nums b",
                                     1 << 20),
                      "HY001",
                      "the query needs more than 1 MiB to combine the rows of EXCEPT (MemoryLimit=1); "
                      "raise MemoryLimit (in MiB, 0 for no limit)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_42000_syntax, setup_default),
        cmocka_unit_test_setup(test_42000_read_only, setup_default),
        cmocka_unit_test_setup(test_42000_type_error, setup_default),
        cmocka_unit_test_setup(test_42000_ambiguous_column, setup_default),
        cmocka_unit_test_setup(test_42000_unknown_function, setup_default),
        cmocka_unit_test_setup(test_42000_aggregate_misuse, setup_default),
        cmocka_unit_test_setup(test_42000_other_causes, setup_default),
        cmocka_unit_test_setup(test_42S02_unknown_table, setup_default),
        cmocka_unit_test_setup(test_42S22_unknown_column, setup_default),
        cmocka_unit_test_setup(test_names_over_a_corpus_file, setup_default),
        cmocka_unit_test_setup(test_07002_parameter_count, setup_default),
        cmocka_unit_test_setup(test_07006_parameter_type, setup_default),
        cmocka_unit_test_setup(test_21000_scalar_subquery, setup_default),
        cmocka_unit_test_setup(test_22001_text_too_long, setup_default),
        cmocka_unit_test_setup(test_22003_out_of_range, setup_default),
        cmocka_unit_test_setup(test_22007_bad_date, setup_default),
        cmocka_unit_test_setup(test_22008_date_overflow, setup_default),
        cmocka_unit_test_setup(test_22011_substring, setup_default),
        cmocka_unit_test_setup(test_22012_division_by_zero, setup_default),
        cmocka_unit_test_setup(test_22018_bad_number_text, setup_default),
        cmocka_unit_test_setup(test_22019_22025_like_escape, setup_default),
        cmocka_unit_test_setup(test_24000_cursor_open, setup_default),
        cmocka_unit_test_setup(test_HY008_cancel, setup_default),
        cmocka_unit_test_setup(test_HY009_no_text, setup_default),
        cmocka_unit_test_setup(test_HY000_general, setup_default),
        cmocka_unit_test_setup(test_HY001_memory_limit, setup_default),
        /* Last: under UBSan the overflow of the second one stops the
        ** program (reported to the lead with the first: both fail today). */
        cmocka_unit_test_setup(test_42S22_unknown_column_of_an_outer_table, setup_default),
        cmocka_unit_test_setup(test_22008_timestampadd_huge_count, setup_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
