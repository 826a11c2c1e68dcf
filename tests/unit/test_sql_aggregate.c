/*
** test_sql_aggregate.c — aggregates, GROUP BY and HAVING (exec_aggregate.c
** and the binder's grouping rules), over the in-memory reader of
** test_sql_harness.h.
*/
#include "test_sql_harness.h"

static void test_whole_table(void **state)
{
    (void)state;
    assert_rows("SELECT COUNT(*), COUNT(age), COUNT(DISTINCT age), SUM(age), AVG(age), MIN(age), MAX(age) FROM people",
                "8|6|4|169|28.1667|18|41");
    assert_rows("SELECT SUM(price), AVG(price), SUM(DISTINCT price), AVG(DISTINCT price), MIN(price), MAX(price) FROM people",
                "125.24|20.873333|114.74|22.948000|0.00|99.99");
    assert_rows("SELECT SUM(score), AVG(score), MIN(score), MAX(score), COUNT(DISTINCT score) FROM people",
                "9|1.5|-1|3|5");
    assert_rows("SELECT MIN(name), MAX(name), COUNT(name), MIN(born), MAX(born), MIN(active), MAX(active) FROM people",
                "|\xC3\x88ve|7|1970-01-01|2020-01-02|0|1");
    assert_rows("select count(*) + 1, sum(age) / count(age), max(age) - min(age) from people", "9|28|23");
    /* DISTINCT forms of MIN and MAX are the plain ones. */
    assert_rows("SELECT MIN(DISTINCT age), MAX(DISTINCT name), COUNT(ALL age) FROM people", "18|\xC3\x88ve|6");
    /* An aggregate of an expression, of a constant. */
    assert_rows("SELECT SUM(age * 2), SUM(1), COUNT(1), SUM(NULL), COUNT(NULL), MAX(NULL) FROM people",
                "338|8|8|NULL|0|NULL");
}

static void test_no_rows(void **state)
{
    (void)state;
    /* Without GROUP BY: one row, COUNT 0 and the rest NULL. */
    assert_rows("SELECT COUNT(*), COUNT(id), SUM(age), AVG(price), MIN(name), MAX(born), AVG(age) FROM empty",
                "0|0|NULL|NULL|NULL|NULL|NULL");
    assert_rows("SELECT COUNT(*), SUM(score) FROM people WHERE id > 100", "0|NULL");
    assert_rows("SELECT COUNT(DISTINCT name) FROM people WHERE id > 100", "0");
    /* With GROUP BY: no groups, no rows. */
    assert_rows("SELECT age, COUNT(*) FROM empty GROUP BY age", "");
    assert_rows("SELECT COUNT(*) FROM people WHERE id > 100 GROUP BY age", "");
    /* FROM-less: the one row without columns. */
    assert_rows("SELECT COUNT(*), SUM(2), MAX('a'), AVG(3)", "1|2|a|3");
    assert_rows("SELECT COUNT(*) WHERE 1 = 0", "0");
    /* HAVING decides whether the one row comes. */
    assert_rows("SELECT COUNT(*) FROM people HAVING COUNT(*) > 100", "");
    assert_rows("SELECT COUNT(*) FROM people HAVING COUNT(*) > 1", "8");
    assert_rows("SELECT 1 FROM people HAVING MIN(age) = 18", "1");
}

static void test_group_by(void **state)
{
    (void)state;
    /* Groups come in order of first appearance. */
    assert_rows("SELECT age, COUNT(*) FROM people GROUP BY age", "30|2;NULL|2;25|2;41|1;18|1");
    assert_rows("SELECT age, COUNT(*) FROM people GROUP BY age ORDER BY age", "NULL|2;18|1;25|2;30|2;41|1");
    assert_rows("SELECT active, COUNT(*), SUM(price), MAX(name) FROM people GROUP BY active ORDER BY 1",
                "NULL|2|99.99|100%;0|3|3.25|dave_x;1|3|22.00|\xC3\x88ve");
    assert_rows("SELECT COUNT(*) FROM people GROUP BY active ORDER BY 1", "2;3;3");
    /* Expressions as keys, used inside outputs. */
    assert_rows("SELECT age / 10, COUNT(*) FROM people GROUP BY age / 10 ORDER BY 1", "NULL|2;1|1;2|2;3|2;4|1");
    assert_rows("SELECT (age / 10) * 10 + 5 AS mid, MIN(id) FROM people GROUP BY age / 10 ORDER BY mid DESC",
                "45|5;35|1;25|3;15|8;NULL|2");
    /* An alias or an ordinal of the select list. */
    assert_rows("SELECT age / 10 AS decade, COUNT(*) FROM people GROUP BY decade ORDER BY decade", "NULL|2;1|1;2|2;3|2;4|1");
    assert_rows("SELECT age / 10 AS decade, COUNT(*) FROM people GROUP BY 1 ORDER BY 2, 1", "1|1;4|1;NULL|2;2|2;3|2");
    /* A table column wins over an alias of the same name. */
    assert_error("SELECT id / 4 AS age, COUNT(*) FROM people GROUP BY age", "42000",
                 "column 'id' must appear in GROUP BY or be used in an aggregate function (line 1, column 8)");
    assert_rows("SELECT id / 4 AS quarter, COUNT(*) FROM people GROUP BY quarter ORDER BY 2 DESC, 1 LIMIT 2", "1|4;0|3");
    assert_rows("SELECT active, age, COUNT(*) FROM people GROUP BY active, age ORDER BY 1, 2",
                "NULL|25|2;0|NULL|1;0|18|1;0|41|1;1|NULL|1;1|30|2");
    assert_rows("SELECT p.age, COUNT(p.id) FROM people p GROUP BY p.age HAVING p.age > 20 ORDER BY 1", "25|2;30|2;41|1");
    /* Qualified and unqualified names are the same key. */
    assert_rows("SELECT age, COUNT(*) FROM people AS p GROUP BY p.age HAVING age < 26 ORDER BY 1", "18|1;25|2");
    assert_rows("SELECT active, COUNT(DISTINCT age), COUNT(age) FROM people GROUP BY active ORDER BY 1",
                "NULL|1|2;0|2|2;1|1|2");
    assert_rows("SELECT DISTINCT COUNT(*) FROM people GROUP BY age", "2;1");
    assert_rows("SELECT born > DATE '1990-01-01', COUNT(*) FROM people GROUP BY born > DATE '1990-01-01' ORDER BY 1",
                "NULL|2;0|2;1|4");
    /* A key that is a constant. */
    assert_rows("SELECT 'x', COUNT(*) FROM people GROUP BY 'x'", "x|8");
}

static void test_having_and_order(void **state)
{
    (void)state;
    assert_rows("SELECT age, COUNT(*) FROM people GROUP BY age HAVING COUNT(*) > 1 ORDER BY age", "NULL|2;25|2;30|2");
    assert_rows("SELECT age FROM people GROUP BY age HAVING SUM(price) > 20 AND age IS NOT NULL", "30;25");
    assert_rows("SELECT age FROM people GROUP BY age HAVING MAX(name) LIKE 'C%' OR age = 18", "30;18");
    /* ORDER BY an aggregate that is not shown. */
    assert_rows("SELECT age FROM people GROUP BY age ORDER BY COUNT(*) DESC, age", "NULL;25;30;18;41");
    assert_rows("SELECT age, COUNT(*) AS n FROM people GROUP BY age ORDER BY n, age DESC LIMIT 3", "41|1;18|1;30|2");
    assert_rows("SELECT active, SUM(age) FROM people GROUP BY active ORDER BY SUM(age) DESC", "1|60;0|59;NULL|50");
}

/* Many groups across many batches: checked against sums computed here. */
static void test_many_groups(void **state)
{
    (void)state;
    static const uint32_t batch_sizes[] = {1, 7, LT_BATCH_ROWS};
    for (size_t b = 0; b < sizeof batch_sizes / sizeof batch_sizes[0]; b++) {
        source_init(batch_sizes[b], false);
        char expect[512] = "";
        /* groups of g: NULL, then 0..6 */
        for (int g = -1; g < 7; g++) {
            long long count = 0, sum = 0, maxd = 0;
            double fsum = 0;
            for (uint32_t i = 1; i <= NNUMS; i++) {
                int gi = i % 11 == 0 ? -1 : (int)(i % 7);
                if (gi != g)
                    continue;
                count++;
                sum += i;
                fsum += i / 4.0;
                maxd = i * 1001;
            }
            char row[96];
            snprintf(row, sizeof row, "%s%s|%lld|%lld|%lld.%03lld|%g", g == -1 ? "" : ";",
                     g == -1 ? "NULL" : (char[2]){(char)('0' + g), 0}, count, sum, maxd / 1000,
                     maxd % 1000, fsum / count);
            strcat(expect, row);
        }
        assert_rows("SELECT g, COUNT(*), SUM(i), MAX(d), AVG(f) FROM nums GROUP BY g ORDER BY g", expect);
        /* One group per row: a hash table grown many times. */
        assert_rows("SELECT COUNT(*), SUM(i), MIN(i), MAX(i) FROM nums WHERE i <= 3", "3|6|1|3");
        assert_rows("SELECT i, COUNT(*) FROM nums GROUP BY i HAVING COUNT(*) <> 1", "");
        assert_rows("SELECT i * 2, COUNT(*) FROM nums GROUP BY i * 2 ORDER BY 1 DESC LIMIT 2", "10000|1;9998|1");
        assert_rows("SELECT COUNT(DISTINCT s), COUNT(DISTINCT g), COUNT(DISTINCT i), COUNT(s) FROM nums",
                    "13|7|5000|4706");
        /* DISTINCT and MIN/MAX of text per group, text kept across batches. */
        char expect2[512] = "";
        for (int g = -1; g < 7; g++) {
            bool seen[13] = {false};
            char lo[4] = "", hi[4] = "";
            int n = 0;
            for (uint32_t i = 1; i <= NNUMS; i++) {
                int gi = i % 11 == 0 ? -1 : (int)(i % 7);
                if (gi != g || i % 17 == 0)
                    continue;
                char t[4];
                snprintf(t, sizeof t, "s%u", i % 13);
                n += !seen[i % 13];
                seen[i % 13] = true;
                if (lo[0] == 0 || strcmp(t, lo) < 0)
                    strcpy(lo, t);
                if (strcmp(t, hi) > 0)
                    strcpy(hi, t);
            }
            char row[64];
            snprintf(row, sizeof row, "%s%d|%s|%s", g == -1 ? "" : ";", n, lo, hi);
            strcat(expect2, row);
        }
        assert_rows("SELECT COUNT(DISTINCT s), MIN(s), MAX(s) FROM nums GROUP BY g ORDER BY g", expect2);
        assert_rows("SELECT s, COUNT(*) FROM nums WHERE i <= 26 GROUP BY s ORDER BY s",
                    "NULL|1;s0|2;s1|2;s10|2;s11|2;s12|2;s2|2;s3|2;s4|1;s5|2;s6|2;s7|2;s8|2;s9|2");
    }
}

static void test_result_types(void **state)
{
    (void)state;
    sql_stmt *st;
    const char *sql = "SELECT COUNT(*), SUM(age), AVG(age), SUM(price), AVG(price), SUM(score), "
                      "MIN(name), MAX(born), age, COUNT(DISTINCT name) AS n FROM people GROUP BY age";
    if (sql_prepare(&source.base, sql, strlen(sql), &st, &err) != 0)
        fail_msg("%s", err.message);
    static const struct { lt_type type; uint32_t size; int16_t scale; bool nullable; const char *name; } want[] = {
        {LT_INT64, 19, 0, false, "BIGINT"},
        {LT_INT64, 19, 0, true, "BIGINT"},
        {LT_DOUBLE, 15, 0, true, "DOUBLE"},
        {LT_DECIMAL, 38, 2, true, "DECIMAL"},
        {LT_DECIMAL, 38, 6, true, "DECIMAL"},
        {LT_DOUBLE, 15, 0, true, "DOUBLE"},
        {LT_TEXT, 20, 0, true, "VARCHAR"},
        {LT_DATE, 10, 0, true, "DATE"},
        {LT_INT64, 3, 0, true, "NUMERIC"},   /* a key shown as it is keeps its column's description */
        {LT_INT64, 19, 0, false, "BIGINT"},
    };
    assert_int_equal(sql_column_count(st), 10);
    for (uint32_t i = 0; i < 10; i++) {
        const sql_column *c = sql_column_at(st, i);
        if (c->desc.type != want[i].type || c->desc.size != want[i].size ||
            c->desc.scale != want[i].scale || c->desc.nullable != want[i].nullable ||
            strcmp(c->desc.type_name, want[i].name) != 0)
            fail_msg("column %u (%s): type %d size %u scale %d nullable %d %s", i, c->desc.name,
                     c->desc.type, c->desc.size, c->desc.scale, c->desc.nullable, c->desc.type_name);
    }
    assert_string_equal(sql_column_at(st, 0)->desc.name, "COUNT(*)");
    assert_string_equal(sql_column_at(st, 8)->base_column, "age");
    assert_string_equal(sql_column_at(st, 9)->desc.name, "n");
    sql_stmt_free(st);
    /* AVG of a wide DECIMAL keeps the mean within 38 digits. */
    sql = "SELECT AVG(d), AVG(99999999999999999999999999999999999.9) FROM nums";
    assert_int_equal(sql_prepare(&source.base, sql, strlen(sql), &st, &err), 0);
    assert_int_equal(sql_column_at(st, 0)->desc.scale, 6);
    assert_int_equal(sql_column_at(st, 1)->desc.scale, 3);
    sql_stmt_free(st);
    assert_rows("SELECT AVG(d), AVG(99999999999999999999999999999999999.9) FROM nums WHERE i <= 2",
                "1.501500|99999999999999999999999999999999999.900");
    /* Rounding half away from zero at the result's scale. */
    assert_rows("SELECT AVG(price) FROM people WHERE id IN (1, 2, 5)", "4.583333");
    assert_rows("SELECT AVG(-price) FROM people WHERE id IN (1, 2, 5)", "-4.583333");
    assert_rows("SELECT AVG(d) FROM nums WHERE i IN (1, 2, 4)", "2.335667");
}

static void test_errors(void **state)
{
    (void)state;
    assert_error("SELECT name, COUNT(*) FROM people", "42000",
                 "column 'name' must appear in GROUP BY or be used in an aggregate function (line 1, column 8)");
    assert_error("SELECT name FROM people GROUP BY age", "42000", "column 'name' must appear in GROUP BY");
    assert_error("SELECT age FROM people GROUP BY age ORDER BY name", "42000", "column 'name' must appear");
    assert_error("SELECT age FROM people GROUP BY age HAVING id > 1", "42000", "column 'id' must appear");
    assert_error("SELECT age + 1 FROM people GROUP BY age + 2", "42000", "column 'age' must appear");
    assert_error("SELECT id FROM people WHERE COUNT(*) > 1", "42000",
                 "aggregate function COUNT is not allowed in WHERE (line 1, column 29)");
    assert_error("SELECT COUNT(*) FROM people GROUP BY COUNT(*)", "42000", "not allowed in GROUP BY");
    assert_error("SELECT COUNT(*) AS n FROM people GROUP BY n", "42000", "not allowed in GROUP BY");
    assert_error("SELECT SUM(COUNT(*)) FROM people", "42000",
                 "aggregate function COUNT is not allowed in the argument of another aggregate");
    assert_error("SELECT SUM(name) FROM people", "42000", "SUM needs numbers, not TEXT");
    assert_error("SELECT AVG(born) FROM people", "42000", "AVG needs numbers, not DATE");
    assert_error("SELECT SUM(*) FROM people", "42000", "SUM(*) is not allowed; only COUNT(*)");
    assert_error("SELECT COUNT(id, age) FROM people", "42000", "function COUNT takes 1 argument, not 2");
    assert_error("SELECT COUNT() FROM people", "42000", "function COUNT takes 1 argument, not 0");
    assert_error("SELECT age FROM people GROUP BY 2", "42000", "GROUP BY position 2 is not in the select list");
    assert_error("SELECT age FROM people GROUP BY nope", "42S22", "unknown column 'nope'");
    assert_error("SELECT age FROM people GROUP BY age HAVING COUNT(*)", "42000", "HAVING needs a BOOLEAN");
    /* Sums past their type. */
    assert_error("SELECT SUM(9223372036854775807) FROM nums WHERE i <= 2", "22003", "out of range in SUM");
    assert_rows("SELECT SUM(9223372036854775807) FROM nums WHERE i <= 1", "9223372036854775807");
    assert_error("SELECT SUM(99999999999999999999999999999999999999) FROM nums WHERE i <= 2", "22003",
                 "out of range in SUM");
    assert_error("SELECT SUM(1e308) FROM nums WHERE i <= 2", "22003", "out of range in SUM");
    assert_error("SELECT AVG(1e308) FROM nums WHERE i <= 2", "22003", "out of range in AVG");
}

/* COUNT(*) without WHERE asks the reader, when it can count. */
static void test_count_rows(void **state)
{
    (void)state;
    source.base.reader = &test_counting_reader;
    assert_rows("SELECT COUNT(*) FROM nums", "5000");
    assert_int_equal(source.counts, 1);
    assert_int_equal(source.scans, 0);
    assert_rows("SELECT COUNT(*), COUNT(*) + 1 AS more FROM people", "8|9");
    assert_rows("SELECT COUNT(*) FROM empty", "0");
    assert_rows("SELECT COUNT(*) FROM people HAVING COUNT(*) > 8", "");
    assert_int_equal(source.counts, 4);
    assert_int_equal(source.scans, 0);
    /* Anything else reads the rows. */
    assert_rows("SELECT COUNT(*) FROM nums WHERE i > 10", "4990");
    assert_rows("SELECT COUNT(i) FROM nums", "5000");
    assert_rows("SELECT COUNT(*), SUM(i) FROM nums", "5000|12502500");
    assert_rows("SELECT g, COUNT(*) FROM nums GROUP BY g HAVING g = 0", "0|650");
    assert_int_equal(source.counts, 4);
    assert_int_equal(source.scans, 4);
    /* A reader that cannot count this table: scanned. */
    assert_rows("SELECT COUNT(*) FROM dyn", "7");
    assert_int_equal(source.counts, 5);
    assert_int_equal(source.scans, 5);
    /* The scan decodes only what the aggregation reads. */
    assert_rows("SELECT g, SUM(i) FROM nums WHERE s = 's1' GROUP BY g HAVING g = 1", "1|113524");
    assert_int_equal(source.last.ncols, 3);
    assert_int_equal(source.last_cols[0], 0);
    assert_int_equal(source.last_cols[1], 1);
    assert_int_equal(source.last_cols[2], 2);
    assert_rows("SELECT COUNT(*) FROM nums WHERE i < 3", "2");
    assert_int_equal(source.last.ncols, 1);
    assert_int_equal(source.last.limit, -1);
}

static void test_dynamic_types(void **state)
{
    (void)state;
    /* Keys group rows as they are; aggregates read them as the column's
    ** type (a row that does not convert counts as NULL), but COUNT of a
    ** column counts every row that holds a value. */
    assert_rows("SELECT v, COUNT(*) FROM dyn GROUP BY v", "3|1;abc|1;2.5|1;NULL|1;1|1;7|1;4|1");
    assert_rows("SELECT COUNT(v), COUNT(*), SUM(v), MIN(v), MAX(v), COUNT(DISTINCT v) FROM dyn", "6|7|15|1|7|6");
}

static void test_parameters(void **state)
{
    (void)state;
    lt_value p[2] = {int_value(1), int_value(30)};
    assert_int_equal(runp("SELECT age, COUNT(*) FROM people WHERE id > ? GROUP BY age HAVING MAX(age) >= ? ORDER BY 1",
                          p, 2), 0);
    assert_string_equal(result, "30|1;41|1");
    lt_value q[1] = {int_value(5)};
    assert_int_equal(runp("SELECT SUM(?) FROM people", q, 1), 0);
    assert_string_equal(result, "40");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_whole_table, setup_default),
        cmocka_unit_test_setup(test_no_rows, setup_default),
        cmocka_unit_test_setup(test_group_by, setup_default),
        cmocka_unit_test_setup(test_having_and_order, setup_default),
        cmocka_unit_test_setup(test_many_groups, setup_default),
        cmocka_unit_test_setup(test_result_types, setup_default),
        cmocka_unit_test_setup(test_errors, setup_default),
        cmocka_unit_test_setup(test_count_rows, setup_default),
        cmocka_unit_test_setup(test_dynamic_types, setup_default),
        cmocka_unit_test_setup(test_parameters, setup_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
