/*
** test_sql_memory.c — the memory budget (MemoryLimit, budget.c): sorting,
** grouping, joining, DISTINCT and set operations take the bytes they hold
** from the statement's limit (sql_stmt_set_memory_limit) and fail with
** HY001 naming what they were doing past it; within it they work, and
** what they held is given back when they close.  A full sort, GROUP BY,
** joins with keys and SELECT DISTINCT do not fail: they spill to temporary
** files (test_sql_spill.c).
*/
#include "test_sql_harness.h"

#define KIB ((uint64_t)1024)
#define MIB (KIB * 1024)

/* Run `sql` with a memory limit of `limit` bytes into `result`; 0 or -1
** with `err`. */
static int run_limited(const char *sql, uint64_t limit)
{
    return run_query(&source.base, sql, NULL, 0, limit, result, sizeof result, &err);
}

static void expect_limit_error(const char *sql, uint64_t limit, const char *fragment)
{
    if (run_limited(sql, limit) == 0)
        fail_msg("%s: no error within %llu bytes", sql, (unsigned long long)limit);
    if (strcmp(err.sqlstate, "HY001") != 0 || strstr(err.message, fragment) == NULL)
        fail_msg("%s: got %s '%s', expected HY001 '%s'", sql, err.sqlstate, err.message,
                 fragment);
}

static void expect_rows_limited(const char *sql, uint64_t limit, const char *expected)
{
    if (run_limited(sql, limit) != 0)
        fail_msg("%s: %s %s", sql, err.sqlstate, err.message);
    if (strcmp(result, expected) != 0)
        fail_msg("%s\n  got:      %s\n  expected: %s", sql, result, expected);
}

/* Each operator that holds rows, past a tiny limit, then within a normal
** one (and without any).  No fragment: the operator spills and works within
** the tiny limit too. */
static const struct {
    const char *sql, *fragment, *rows;
} cases[] = {
    {"SELECT COUNT(*), MIN(i), MAX(i) FROM (SELECT i FROM nums ORDER BY s DESC, i) x",
     NULL, "5000|1|5000"},
    {"SELECT i FROM nums ORDER BY d DESC LIMIT 2 OFFSET 4000",
     "to sort the rows of 'nums'", "1000;999"},
    {"SELECT COUNT(*) FROM (SELECT i, COUNT(*) FROM nums GROUP BY i) x",
     NULL, "5000"},
    /* 14 groups, each of whose distinct values alone pass the limit */
    {"SELECT COUNT(*), SUM(n) FROM (SELECT s, COUNT(DISTINCT i) AS n FROM nums GROUP BY s) x",
     "to group the rows of 'nums'", "14|5000"},
    {"SELECT COUNT(*) FROM people p JOIN nums n ON n.g = p.id",
     NULL, "3896"},
    {"SELECT COUNT(*) FROM (SELECT DISTINCT i, s FROM nums) x",
     NULL, "5000"},
    {"SELECT COUNT(*) FROM (SELECT i FROM nums UNION SELECT i + 1 FROM nums) x",
     "to combine the rows of UNION", "5001"},
    {"SELECT COUNT(*) FROM (SELECT i FROM nums EXCEPT SELECT i + 1 FROM nums) x",
     "to combine the rows of EXCEPT", "1"},
};

static void test_tiny_limit(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].fragment == NULL) {
            expect_rows_limited(cases[i].sql, 64 * KIB, cases[i].rows);
            continue;
        }
        expect_limit_error(cases[i].sql, 64 * KIB, cases[i].fragment);
        assert_non_null(strstr(err.message, "narrow the query"));
    }
}

static void test_normal_limit(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        expect_rows_limited(cases[i].sql, 16 * MIB, cases[i].rows);
        expect_rows_limited(cases[i].sql, 0, cases[i].rows); /* no limit */
        assert_rows(cases[i].sql, cases[i].rows);            /* the default */
    }
}

/* A limit in MiB, as MemoryLimit= gives it, is named as the setting. */
static void test_message_names_setting(void **state)
{
    (void)state;
    expect_limit_error("SELECT COUNT(DISTINCT a.i * 10000 + b.i) FROM nums a JOIN nums b "
                       "ON a.g = b.g", MIB,
                       "the query needs more than 1 MiB to group the rows of 'nums' joined "
                       "with 'nums' (MemoryLimit=1); raise MemoryLimit");
    /* 2500 rows per key: split 4 times, one key's rows still pass the limit */
    expect_limit_error("SELECT COUNT(*) FROM nums a JOIN nums b ON a.i % 2 = b.i % 2", 64 * KIB,
                       "to join 'nums', even with its rows split into partitions on temporary "
                       "files (too many rows share one join key) (the statement's memory limit)");
}

/* What an operator held goes back when it closes: a correlated subquery
** that sorts runs once per outer row, each within the limit, never adding
** up; and a statement that failed runs again once given room. */
static void test_released(void **state)
{
    (void)state;
    const char *sql = "SELECT p.id, (SELECT COUNT(*) FROM (SELECT DISTINCT i FROM nums "
                      "WHERE nums.g = p.id) x) FROM people p ORDER BY 1";
    const char *rows = "1|650;2|650;3|649;4|649;5|649;6|649;7|0;8|0";
    expect_rows_limited(sql, 0, rows);
    expect_rows_limited(sql, 40 * KIB, rows); /* one run needs about 21 KiB */
    expect_limit_error(sql, 16 * KIB, "to deduplicate the rows of 'nums'");
    sql_stmt *st;
    sql_cursor *cur;
    const char *sort = "SELECT i FROM nums ORDER BY s, i DESC LIMIT 3 OFFSET 4000";
    assert_int_equal(sql_prepare(&source.base, sort, strlen(sort), &st, &err), 0);
    sql_stmt_set_memory_limit(st, 32 * KIB);
    assert_int_equal(sql_execute(st, NULL, 0, &cur, &err), 0);
    result[0] = '\0';
    assert_int_equal(drain(cur, result, sizeof result, &err), -1);
    assert_string_equal(err.sqlstate, "HY001");
    sql_cursor_close(cur);
    sql_stmt_set_memory_limit(st, 8 * MIB);
    assert_int_equal(sql_execute(st, NULL, 0, &cur, &err), 0);
    result[0] = '\0';
    assert_int_equal(drain(cur, result, sizeof result, &err), 0);
    sql_cursor_close(cur);
    sql_stmt_free(st);
    expect_rows_limited(sort, 0, result);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_tiny_limit, setup_default),
        cmocka_unit_test_setup(test_normal_limit, setup_default),
        cmocka_unit_test_setup(test_message_names_setting, setup_default),
        cmocka_unit_test_setup(test_released, setup_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
