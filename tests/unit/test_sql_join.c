/*
** test_sql_join.c — joins (exec_join.c, the binder's name scopes, the
** planner's placing of conditions), over the in-memory reader of
** test_sql_harness.h: people, and pets whose owner is a person's id.
*/
#include "test_sql_harness.h"

#include <pthread.h>

static void test_inner(void **state)
{
    (void)state;
    assert_rows("SELECT p.name, t.name FROM people p JOIN pets t ON t.owner = p.id",
                "Alice|Rex;Alice|Tom;Carol|Nemo;Carol|Bubbles");
    assert_rows("SELECT p.name, t.name FROM people AS p INNER JOIN pets AS t ON p.id = t.owner ORDER BY t.name",
                "Carol|Bubbles;Carol|Nemo;Alice|Rex;Alice|Tom");
    /* A comma join whose WHERE equality becomes the hash key. */
    assert_rows("SELECT p.name, t.name FROM people p, pets t WHERE p.id = t.owner AND t.kind = 'fish' ORDER BY t.id",
                "Carol|Nemo;Carol|Bubbles");
    assert_rows("SELECT people.id, pets.id FROM people, pets WHERE people.id = pets.owner + 3", "4|1;4|2;7|3;7|6");
    assert_rows("SELECT COUNT(*) FROM people CROSS JOIN pets", "48");
    assert_rows("SELECT COUNT(*) FROM people, pets", "48");
    assert_rows("SELECT COUNT(*), MIN(p.id), MAX(t.id) FROM people p, pets t WHERE p.age > 29", "18|1|6");
    /* ON without an equality: every pair is checked. */
    assert_rows("SELECT COUNT(*) FROM people p JOIN pets t ON t.weight > p.age", "5");
    assert_rows("SELECT p.id, t.id FROM people p JOIN pets t ON t.weight > p.age AND t.kind = 'dog' ORDER BY 1, 2",
                "1|1;3|1;4|1;6|1;8|1");
    /* Three tables; the same table twice. */
    assert_rows("SELECT t.name, u.name FROM pets t JOIN people p ON p.id = t.owner "
                "JOIN pets u ON u.owner = p.id AND u.id <> t.id ORDER BY t.id",
                "Rex|Tom;Tom|Rex;Nemo|Bubbles;Bubbles|Nemo");
    assert_rows("SELECT a.id, b.id, a.age FROM people a JOIN people b ON a.age = b.age AND a.id < b.id ORDER BY 1",
                "1|4|30;3|6|25");
    assert_rows("SELECT a.age, COUNT(*) FROM people a JOIN people b ON a.age = b.age GROUP BY a.age ORDER BY 1",
                "18|1;25|4;30|4;41|1");
    /* Keys of different types compare as `=` does. */
    assert_rows("SELECT p.id, t.name FROM people p JOIN pets t ON p.score = t.weight", "8|Ghost");
    assert_rows("SELECT COUNT(*) FROM nums a JOIN nums b ON a.i = b.f", "1250");
    assert_rows("SELECT COUNT(*) FROM nums a JOIN nums b ON a.d = b.i", "4");
    assert_rows("SELECT COUNT(*) FROM nums a JOIN nums b ON a.i * 1001 = b.d * 1000", "5000");
    assert_rows("SELECT p.id FROM people p JOIN pets t ON t.owner = p.id LIMIT 1", "1");
    assert_rows("SELECT p.id FROM people p JOIN empty e ON e.id = p.id", "");
}

static void test_left(void **state)
{
    (void)state;
    assert_rows("SELECT p.id, t.name FROM people p LEFT JOIN pets t ON t.owner = p.id ORDER BY p.id, t.id",
                "1|Rex;1|Tom;2|NULL;3|NULL;4|Nemo;4|Bubbles;5|NULL;6|NULL;7|NULL;8|NULL");
    assert_rows("SELECT t.name, p.name FROM pets t LEFT OUTER JOIN people p ON p.id = t.owner",
                "Rex|Alice;Tom|Alice;Nemo|Carol;Bubbles|Carol;Stray|NULL;Ghost|NULL");
    assert_rows("SELECT p.id, t.id FROM {oj people p LEFT OUTER JOIN pets t ON t.owner = p.id} WHERE p.id < 3 ORDER BY 1, 2",
                "1|1;1|2;2|NULL");
    /* A condition of ON on the right table alone filters what can match. */
    assert_rows("SELECT p.id, t.name FROM people p LEFT JOIN pets t ON t.owner = p.id AND t.kind = 'cat' "
                "WHERE p.id <= 4 ORDER BY 1", "1|Tom;2|NULL;3|NULL;4|NULL");
    assert_rows("SELECT p.id, t.name FROM people p LEFT JOIN pets t ON t.owner = p.id AND t.weight > 10 "
                "WHERE p.id IN (1, 4)", "1|Rex;4|NULL");
    /* ... on the left table: rows failing it still come, unmatched. */
    assert_rows("SELECT p.id, t.name FROM people p LEFT JOIN pets t ON t.owner = p.id AND p.age > 29 "
                "WHERE p.id <= 5 ORDER BY p.id, t.id",
                "1|Rex;1|Tom;2|NULL;3|NULL;4|Nemo;4|Bubbles;5|NULL");
    /* WHERE on the right side sees the NULL rows (the anti-join). */
    assert_rows("SELECT p.id FROM people p LEFT JOIN pets t ON t.owner = p.id WHERE t.id IS NULL", "2;3;5;6;7;8");
    assert_rows("SELECT p.id, t.id FROM people p LEFT JOIN pets t ON t.owner = p.id WHERE t.weight < 10 OR p.id = 2",
                "1|2;4|6;2|NULL");
    assert_rows("SELECT p.id, e.id FROM people p LEFT JOIN empty e ON e.id = p.id WHERE p.id < 3", "1|NULL;2|NULL");
    assert_rows("SELECT COUNT(*) FROM people p LEFT JOIN pets t ON 1 = 0", "8");
    assert_rows("SELECT COUNT(*), COUNT(t.id) FROM people p LEFT JOIN pets t ON TRUE", "48|48");
    /* Aggregates over a LEFT JOIN. */
    assert_rows("SELECT p.name, COUNT(t.id), SUM(t.weight) FROM people p LEFT JOIN pets t ON t.owner = p.id "
                "GROUP BY p.name ORDER BY 2 DESC, 1",
                "Alice|2|34.7;Carol|2|0.1;NULL|0|NULL;|0|NULL;100%|0|NULL;bob|0|NULL;dave_x|0|NULL;\xC3\x88ve|0|NULL");
    /* Chains: an inner join after a left one. */
    assert_rows("SELECT p.id, t.name, o.name FROM people p LEFT JOIN pets t ON t.owner = p.id "
                "JOIN people o ON o.id = t.owner ORDER BY t.id", "1|Rex|Alice;1|Tom|Alice;4|Nemo|Carol;4|Bubbles|Carol");
    assert_rows("SELECT p.id, t.name, u.name FROM people p LEFT JOIN pets t ON t.owner = p.id "
                "LEFT JOIN pets u ON u.owner = t.owner AND u.id > t.id WHERE p.id < 5 ORDER BY 1, t.id",
                "1|Rex|Tom;1|Tom|NULL;2|NULL|NULL;3|NULL|NULL;4|Nemo|Bubbles;4|Bubbles|NULL");
}

/* Joins across many batches, checked against counts computed here. */
static void test_many_rows(void **state)
{
    (void)state;
    static const uint32_t batch_sizes[] = {7, LT_BATCH_ROWS};
    long long per_g[8] = {0};
    for (uint32_t i = 1; i <= NNUMS; i++)
        if (i % 11 != 0)
            per_g[i % 7]++;
    long long pairs = 0;
    for (int g = 0; g < 7; g++)
        pairs += per_g[g] * per_g[g];
    char expect[64];
    snprintf(expect, sizeof expect, "%lld", pairs);
    for (size_t b = 0; b < sizeof batch_sizes / sizeof batch_sizes[0]; b++) {
        source_init(batch_sizes[b], false);
        assert_rows("SELECT COUNT(*), SUM(b.i), MIN(a.s) FROM nums a JOIN nums b ON a.i = b.i", "5000|12502500|s0");
        assert_rows("SELECT COUNT(*) FROM nums a JOIN nums b ON a.g = b.g", expect);
        assert_rows("SELECT COUNT(*) FROM nums a LEFT JOIN nums b ON a.g = b.g AND b.i < 0", "5000");
        assert_rows("SELECT COUNT(*), COUNT(b.i) FROM nums a LEFT JOIN nums b ON b.i = a.i * 2", "5000|2500");
        assert_rows("SELECT a.i, b.i FROM nums a JOIN nums b ON b.i = a.i + 1 WHERE a.i > 4997", "4998|4999;4999|5000");
        assert_rows("SELECT COUNT(*) FROM nums a, pets t WHERE a.i = t.id * 1000 OR a.i = t.id", "11");
    }
}

static void test_names_and_types(void **state)
{
    (void)state;
    assert_error("SELECT id FROM people, pets", "42000", "ambiguous column name 'id'");
    assert_error("SELECT name FROM people p JOIN pets t ON t.owner = p.id", "42000", "ambiguous column name 'name'");
    assert_error("SELECT x.id FROM people p, pets t", "42S02", "unknown table 'x'");
    assert_error("SELECT 1 FROM people, people", "42000", "the table name 'People' is used twice in FROM");
    assert_error("SELECT 1 FROM people p JOIN pets t ON t.owner = u.id JOIN pets u ON u.id = 1", "42S02",
                 "unknown table 'u'");
    assert_error("SELECT 1 FROM people p JOIN pets t ON t.owner = p.nope", "42S22", "unknown column 'nope'");
    assert_error("SELECT 1 FROM people p JOIN pets t ON t.name", "42000", "ON needs a BOOLEAN");
    assert_error("SELECT 1 FROM people p JOIN pets t ON COUNT(*) > 1", "42000", "not allowed in ON");
    assert_error("SELECT 1 FROM people p JOIN pets t ON t.name = p.id", "42000", "cannot compare TEXT and INTEGER");
    /* Unqualified names that only one table has need no qualifier. */
    assert_rows("SELECT age, kind FROM people JOIN pets ON owner = people.id WHERE weight > 10", "30|dog");
    assert_rows("SELECT pets.* FROM people JOIN pets ON owner = people.id WHERE people.id = 4",
                "3|4|Nemo|fish|NULL;6|4|Bubbles|fish|0.1");

    sql_stmt *st;
    const char *sql = "SELECT *, t.name, p.name FROM people p LEFT JOIN pets t ON t.owner = p.id";
    assert_int_equal(sql_prepare(&source.base, sql, strlen(sql), &st, &err), 0);
    assert_int_equal(sql_column_count(st), 14);
    assert_string_equal(sql_column_at(st, 7)->desc.name, "id");
    assert_string_equal(sql_column_at(st, 7)->base_table, "pets");
    const sql_column *c = sql_column_at(st, 12);
    assert_string_equal(c->desc.name, "name");
    assert_string_equal(c->base_table, "pets");
    assert_true(c->desc.nullable);          /* the right side of a LEFT JOIN */
    assert_int_equal(c->desc.size, 10);
    assert_string_equal(sql_column_at(st, 13)->base_table, "People");
    assert_false(sql_column_at(st, 0)->desc.nullable);
    sql_stmt_free(st);
    sql = "SELECT t.name FROM people p JOIN pets t ON t.owner = p.id";
    assert_int_equal(sql_prepare(&source.base, sql, strlen(sql), &st, &err), 0);
    assert_false(sql_column_at(st, 0)->desc.nullable);
    sql_stmt_free(st);
}

static void test_pushdown(void **state)
{
    (void)state;
    assert_rows("SELECT p.id FROM people p JOIN pets t ON t.owner = p.id WHERE p.age > 25 AND t.kind = 'dog'", "1");
    assert_int_equal(source.table_npreds[0], 1);
    assert_int_equal(source.table_ops[0][0], LT_PRED_GT);
    assert_int_equal(source.table_ncols[0], 2);   /* id, age */
    assert_int_equal(source.table_npreds[5], 1);
    assert_int_equal(source.table_ops[5][0], LT_PRED_EQ);
    assert_int_equal(source.table_ncols[5], 2);   /* owner, kind */
    /* Nothing under the right side of a LEFT JOIN from WHERE; ON's own
    ** conditions on it go to its scan. */
    assert_rows("SELECT p.id FROM people p LEFT JOIN pets t ON t.owner = p.id AND t.kind = 'cat' WHERE t.weight IS NULL",
                "2;3;4;5;6;7;8");
    assert_int_equal(source.table_npreds[5], 1);
    assert_int_equal(source.table_ops[5][0], LT_PRED_EQ);
    /* The counting reader is not asked for a join's COUNT(*). */
    source.base.reader = &test_counting_reader;
    assert_rows("SELECT COUNT(*) FROM people, pets", "48");
    assert_int_equal(source.counts, 0);
    /* Parameters in ON. */
    source.base.reader = &test_reader;
    lt_value v = int_value(10);
    assert_int_equal(runp("SELECT t.name FROM people p JOIN pets t ON t.owner = p.id AND t.weight > ?", &v, 1), 0);
    assert_string_equal(result, "Rex");
}

/* Joins, grouping and functions on one shared source from several
** threads at once (run under ThreadSanitizer too). */
static void *thread_main(void *arg)
{
    char *out = arg;
    for (int k = 0; k < 10; k++) {
        lt_error e;
        const char *sql = "SELECT UPPER(p.name), COUNT(t.id), SUM(t.weight), CASE WHEN p.age > 29 THEN 'y' END "
                          "FROM people p LEFT JOIN pets t ON t.owner = p.id WHERE p.id IN (1, 2, 4) "
                          "GROUP BY UPPER(p.name), CASE WHEN p.age > 29 THEN 'y' END ORDER BY 1";
        if (run_query(&source.base, sql, NULL, 0, SQL_DEFAULT_MEMORY_LIMIT, out, 512, &e) != 0)
            return NULL;
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    pthread_t th[4];
    char out[4][512];
    source_init(2, false);
    source.shared = true;
    for (int i = 0; i < 4; i++)
        pthread_create(&th[i], NULL, thread_main, out[i]);
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < 4; i++)
        assert_string_equal(out[i], "ALICE|2|34.7|y;BOB|0|NULL|NULL;CAROL|2|0.1|y");
}

/* Access sources compare join keys as their text comparison does: without
** regard to case (hashed folded, so equal keys meet across case). */
static void test_access_keys(void **state)
{
    (void)state;
    const char *q1 = "SELECT COUNT(*) FROM pets t JOIN pets u ON LCASE(t.kind) = UCASE(u.kind)";
    const char *q2 = "SELECT a.id, b.id FROM people a JOIN people b ON a.name = UCASE(b.name) ORDER BY 1, 2";
    const char *q3 = "SELECT COUNT(*) FROM nums a JOIN nums b ON a.s = UCASE(b.s) WHERE a.i <= 130";
    const char *q4 = "SELECT a.id, b.id FROM people a LEFT JOIN people b ON UCASE(a.name) = b.name "
                     "AND b.id < 3 ORDER BY 1";
    assert_rows(q1, "0");
    assert_rows(q2, "6|6;8|8"); /* '100%' and '' have no letters */
    assert_rows(q3, "0");
    assert_rows(q4, "1|NULL;2|NULL;3|NULL;4|NULL;5|NULL;6|NULL;7|NULL;8|NULL");
    /* the same count compared by bytes, many rows across batches */
    char same[64];
    assert_rows("SELECT COUNT(*) > 1000 FROM nums a JOIN nums b ON a.s = b.s WHERE a.i <= 130", "1");
    assert_int_equal(run("SELECT COUNT(*) FROM nums a JOIN nums b ON a.s = b.s WHERE a.i <= 130"), 0);
    assert_true(strlen(result) < sizeof same);
    memcpy(same, result, strlen(result) + 1);
    source.base.dialect = LT_DIALECT_ACCESS;
    assert_rows(q1, "12");
    assert_rows(q2, "1|1;2|2;4|4;5|5;6|6;7|7;8|8");
    assert_rows(q3, same);
    assert_rows(q4, "1|1;2|2;3|NULL;4|NULL;5|NULL;6|NULL;7|NULL;8|NULL");
    source.base.dialect = LT_DIALECT_STANDARD;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_inner, setup_default),
        cmocka_unit_test_setup(test_left, setup_default),
        cmocka_unit_test_setup(test_many_rows, setup_default),
        cmocka_unit_test_setup(test_names_and_types, setup_default),
        cmocka_unit_test_setup(test_pushdown, setup_default),
        cmocka_unit_test_setup(test_threads, setup_default),
        cmocka_unit_test_setup(test_access_keys, setup_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
