/*
** test_sql_compose.c — the composition half of the SELECT language:
** derived tables, views, UNION / EXCEPT / INTERSECT, subqueries (scalar,
** IN, EXISTS, correlated), RIGHT / FULL joins, USING and NATURAL, over the
** in-memory test reader (test_sql_harness.h), with NULLs, empty inputs,
** small batches and the errors of each.
*/
#include "test_sql_harness.h"

static int setup_views(void **state)
{
    (void)state;
    source_init(LT_BATCH_ROWS, false);
    source_add_views();
    return 0;
}

/* The same with batches of 3 rows, so every operator crosses batches. */
static int setup_small(void **state)
{
    (void)state;
    source_init(3, false);
    source_add_views();
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Derived tables                                                            */
/* ------------------------------------------------------------------------ */

static void test_derived(void **state)
{
    (void)state;
    assert_rows("SELECT x, y FROM (SELECT id AS x, Name AS y FROM People WHERE id < 4) AS d ORDER BY x DESC",
                "3|NULL;2|bob;1|Alice");
    assert_rows("SELECT a FROM (SELECT id, Name FROM People) d (a, b) WHERE b = 'bob'", "2");
    assert_rows("SELECT d.age, d.n FROM (SELECT age, COUNT(*) AS n FROM People GROUP BY age) d "
                "WHERE n > 1 ORDER BY 1", "NULL|2;25|2;30|2");
    assert_rows("SELECT p.name, o.Name FROM pets p JOIN (SELECT id, Name FROM People) o ON p.owner = o.id "
                "ORDER BY p.id", "Rex|Alice;Tom|Alice;Nemo|Carol;Bubbles|Carol");
    assert_rows("SELECT p.name, o.n FROM (SELECT id AS k, Name AS n FROM People) o RIGHT JOIN pets p "
                "ON p.owner = o.k ORDER BY p.id",
                "Rex|Alice;Tom|Alice;Nemo|Carol;Stray|NULL;Ghost|NULL;Bubbles|Carol");
    assert_rows("SELECT COUNT(*) FROM (SELECT * FROM (SELECT i FROM nums WHERE i % 2 = 0) a WHERE i > 4000) b",
                "500");
    assert_rows("SELECT SUM(i) FROM (SELECT i FROM nums ORDER BY i DESC LIMIT 3) t", "14997");
    assert_rows("SELECT COUNT(*), MAX(id) FROM (SELECT id FROM empty) e", "0|NULL");
    assert_rows("SELECT * FROM (SELECT 1 AS a, 'x' AS b) t", "1|x");
    assert_rows("SELECT t.* FROM (SELECT 1 + 1, NULL) t", "2|NULL");
    /* Text of the inner rows survives the reader reusing its batch. */
    assert_rows("SELECT s FROM (SELECT DISTINCT s FROM nums WHERE s IS NOT NULL) t ORDER BY s LIMIT 3",
                "s0;s1;s10");
    /* A correlated subquery reading a derived table's column. */
    assert_rows("SELECT k FROM (SELECT id AS k FROM People) d WHERE EXISTS "
                "(SELECT 1 FROM pets WHERE owner = d.k) ORDER BY k", "1;4");
    /* A derived table inside a subquery sees the enclosing query's names. */
    assert_rows("SELECT id FROM People p WHERE 2 = (SELECT COUNT(*) FROM "
                "(SELECT * FROM pets WHERE owner = p.id) mine)", "1;4");

    lt_value five = int_value(5);
    if (runp("SELECT n FROM (SELECT id AS n FROM People WHERE id > ?) t ORDER BY n LIMIT 2", &five, 1) != 0)
        fail_msg("%s", err.message);
    assert_string_equal(result, "6;7");
}

static void test_derived_describe(void **state)
{
    (void)state;
    sql_stmt *st;
    const char *sql = "SELECT * FROM (SELECT id, Name AS who, price * 2 AS dbl FROM People) AS d (k, w, p)";
    if (sql_prepare(&source.base, sql, strlen(sql), &st, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(sql_column_count(st), 3);
    assert_string_equal(sql_column_at(st, 0)->desc.name, "k");
    assert_int_equal(sql_column_at(st, 0)->desc.type, LT_INT64);
    assert_string_equal(sql_column_at(st, 1)->desc.name, "w");
    assert_int_equal(sql_column_at(st, 1)->desc.type, LT_TEXT);
    assert_true(sql_column_at(st, 1)->desc.nullable);
    assert_string_equal(sql_column_at(st, 2)->desc.name, "p");
    assert_int_equal(sql_column_at(st, 2)->desc.type, LT_DECIMAL);
    assert_int_equal(sql_column_at(st, 2)->desc.scale, 2);
    assert_string_equal(sql_column_at(st, 0)->base_table, "d");
    sql_stmt_free(st);
}

static void test_derived_errors(void **state)
{
    (void)state;
    assert_error("SELECT * FROM (SELECT 1 AS a) t (x, y)", "42000",
                 "derived table 't' has 1 column but 2 column names are given (line 1, column 15)");
    assert_error("SELECT nope FROM (SELECT 1 AS a) t", "42S22", "unknown column 'nope'");
    assert_error("SELECT * FROM (SELECT id FROM People) t, (SELECT 1) t", "42000",
                 "the table name 't' is used twice");
    assert_error("SELECT * FROM (SELECT id FROM nowhere) t", "42S02", "unknown table 'nowhere'");
    /* A derived table does not see its sibling tables (no LATERAL). */
    assert_error("SELECT * FROM People p, (SELECT p.id) t", "42S02", "unknown table 'p'");
}

/* ------------------------------------------------------------------------ */
/* Views                                                                     */
/* ------------------------------------------------------------------------ */

static void test_views(void **state)
{
    (void)state;
    assert_rows("SELECT * FROM adults ORDER BY id", "1|Alice|30;4|Carol|30;5|dave_x|41");
    assert_rows("SELECT owner_name, n FROM pet_owners", "Alice|2;Carol|2");
    assert_rows("SELECT * FROM \"old adults\"", "dave_x");
    assert_rows("SELECT a.who, p.name FROM adults a JOIN pets p ON p.owner = a.id ORDER BY p.id",
                "Alice|Rex;Alice|Tom;Carol|Nemo;Carol|Bubbles");
    assert_rows("SELECT adults.who FROM adults WHERE id IN (SELECT id FROM adults WHERE age > 30)", "dave_x");
    assert_rows("SELECT COUNT(*) FROM pet_owners x, pet_owners y", "4");

    sql_stmt *st;
    const char *sql = "SELECT * FROM pet_owners";
    if (sql_prepare(&source.base, sql, strlen(sql), &st, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(sql_column_count(st), 2);
    assert_string_equal(sql_column_at(st, 0)->desc.name, "owner_name");
    assert_int_equal(sql_column_at(st, 0)->desc.type, LT_TEXT);
    assert_string_equal(sql_column_at(st, 1)->desc.name, "n");
    assert_int_equal(sql_column_at(st, 1)->desc.type, LT_INT64);
    assert_string_equal(sql_column_at(st, 1)->base_table, "pet_owners");
    sql_stmt_free(st);
}

static void test_view_errors(void **state)
{
    (void)state;
    assert_error("SELECT * FROM loop1", "42000", "view 'loop1' refers to itself");
    assert_error("SELECT * FROM self", "42000", "view 'self' refers to itself");
    assert_error("SELECT * FROM broken", "42000", "in the query of view 'broken': syntax error at line 1, column 8");
    assert_error("SELECT * FROM unreadable", "HY000", "table 'unreadable' cannot be read: the view uses a function Lector lacks");
    source.tables[7].ncols = 1; /* a column list that does not fit the query */
    assert_error("SELECT * FROM pet_owners", "42000", "view 'pet_owners' has 2 columns but 1 column name is given");
    source.tables[7].ncols = 2;
    source.tables[11].query = "SELECT * FROM People WHERE id = ?";
    assert_error("SELECT * FROM broken", "42000", "the query of view 'broken' contains a parameter marker");
    source.tables[11].query = "SELECT nope FROM People";
    assert_error("SELECT * FROM broken", "42S22", "in the query of view 'broken': unknown column 'nope'");
    /* Nesting bounded over views too: 63 derived tables around a view of 63
    ** around another view. */
    static char view[4096], sql[4096];
    size_t v = 0, q = 0;
    for (int i = 0; i < 63; i++) {
        v += (size_t)snprintf(view + v, sizeof view - v, "SELECT * FROM (");
        q += (size_t)snprintf(sql + q, sizeof sql - q, "SELECT * FROM (");
    }
    v += (size_t)snprintf(view + v, sizeof view - v, "SELECT * FROM adults");
    q += (size_t)snprintf(sql + q, sizeof sql - q, "SELECT * FROM broken");
    for (int i = 0; i < 63; i++) {
        v += (size_t)snprintf(view + v, sizeof view - v, ") x%d", i);
        q += (size_t)snprintf(sql + q, sizeof sql - q, ") x%d", i);
    }
    source.tables[11].query = view;
    if (run(sql) == 0 || strstr(err.message, "queries nested too deeply (more than 128 levels, views included)") == NULL)
        fail_msg("nesting: %s %s", err.sqlstate, err.message);
    /* 128 levels are fine. */
    memcpy(strstr(view, "SELECT * FROM adults"), "SELECT 1 AS one     ", 20);
    if (run(sql) != 0 || strcmp(result, "1") != 0)
        fail_msg("nesting: %s %s", err.sqlstate, err.message);
}

static void test_describe_table(void **state)
{
    (void)state;
    lt_arena a;
    lt_arena_init(&a);
    sql_column *cols;
    uint32_t n;
    if (sql_describe_table(&source.base, 6, &a, &cols, &n, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(n, 3);
    assert_string_equal(cols[0].desc.name, "id");
    assert_int_equal(cols[0].desc.type, LT_INT64);
    assert_string_equal(cols[1].desc.name, "who");
    assert_int_equal(cols[1].desc.type, LT_TEXT);
    assert_string_equal(cols[2].desc.name, "age");
    if (sql_describe_table(&source.base, 8, &a, &cols, &n, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(n, 1);
    assert_string_equal(cols[0].desc.name, "who");
    assert_int_equal(sql_describe_table(&source.base, 9, &a, &cols, &n, &err), -1);
    assert_string_equal(err.sqlstate, "42000");
    assert_int_equal(sql_describe_table(&source.base, 99, &a, &cols, &n, &err), -1);
    lt_arena_free(&a);
}

/* ------------------------------------------------------------------------ */
/* UNION, EXCEPT, INTERSECT                                                  */
/* ------------------------------------------------------------------------ */

static void test_set_operations(void **state)
{
    (void)state;
    assert_rows("SELECT id FROM People WHERE id < 3 UNION ALL SELECT id FROM pets WHERE id < 3", "1;2;1;2");
    assert_rows("SELECT id FROM People WHERE id < 3 UNION SELECT id FROM pets WHERE id < 3", "1;2");
    assert_rows("SELECT age FROM People UNION SELECT owner FROM pets ORDER BY 1", "NULL;1;4;9;18;25;30;41");
    assert_rows("SELECT age FROM People EXCEPT SELECT 30 ORDER BY age", "NULL;18;25;41");
    assert_rows("SELECT owner FROM pets INTERSECT SELECT id FROM People ORDER BY 1", "1;4");
    assert_rows("SELECT owner FROM pets INTERSECT SELECT age FROM People", "NULL");
    /* INTERSECT binds tighter than UNION. */
    assert_rows("SELECT 1 UNION SELECT 2 INTERSECT SELECT 3", "1");
    assert_rows("(SELECT 1 UNION SELECT 2) INTERSECT SELECT 2", "2");
    assert_rows("SELECT 1 EXCEPT SELECT 1 UNION SELECT 2", "2");
    /* Types unify as CASE's do; names come from the first query. */
    assert_rows("SELECT id FROM People WHERE id = 1 UNION ALL SELECT score FROM People WHERE id = 2", "1;2.5");
    assert_rows("SELECT price FROM People WHERE id = 1 UNION ALL SELECT 7", "10.50;7.00");
    assert_rows("SELECT NULL UNION ALL SELECT 1", "NULL;1");
    assert_rows("SELECT born FROM People WHERE id = 1 UNION ALL SELECT TIMESTAMP '2020-01-02 03:04:05'",
                "1990-01-02 00:00:00;2020-01-02 03:04:05");
    assert_rows("SELECT id AS k FROM pets UNION SELECT id FROM People ORDER BY k DESC LIMIT 3", "8;7;6");
    assert_rows("SELECT id FROM pets UNION SELECT id FROM People ORDER BY id LIMIT 2 OFFSET 5", "6;7");
    assert_rows("SELECT id FROM pets UNION ALL SELECT id FROM People ORDER BY 1 DESC "
                "OFFSET 1 ROWS FETCH NEXT 3 ROWS ONLY", "7;6;6");
    assert_rows("SELECT Name FROM People WHERE id < 3 UNION SELECT name FROM pets WHERE id = 1 ORDER BY 1",
                "Alice;Rex;bob");
    assert_rows("(SELECT id FROM People ORDER BY id DESC LIMIT 2) UNION ALL (SELECT id FROM pets ORDER BY id LIMIT 1)",
                "8;7;1");
    /* Empty sides. */
    assert_rows("SELECT id FROM empty UNION SELECT id FROM empty", "");
    assert_rows("SELECT id FROM People WHERE id < 3 EXCEPT SELECT id FROM empty", "1;2");
    assert_rows("SELECT id FROM People WHERE id < 3 INTERSECT SELECT id FROM empty", "");
    assert_rows("SELECT id FROM empty EXCEPT SELECT id FROM People", "");
    assert_rows("SELECT id FROM empty UNION ALL SELECT 5", "5");
    /* Many rows, many batches. */
    assert_rows("SELECT COUNT(*) FROM (SELECT g FROM nums UNION SELECT g FROM nums) t", "8");
    assert_rows("SELECT COUNT(*) FROM (SELECT i FROM nums UNION ALL SELECT i FROM nums) t", "10000");
    assert_rows("SELECT COUNT(*) FROM (SELECT i FROM nums EXCEPT SELECT i FROM nums WHERE i % 3 = 0) t", "3334");
    assert_rows("SELECT COUNT(*), MIN(i), MAX(i) FROM (SELECT i FROM nums WHERE i > 10 INTERSECT "
                "SELECT i * 2 FROM nums) t", "2495|12|5000");
    assert_rows("SELECT s, COUNT(*) FROM (SELECT s FROM nums UNION ALL SELECT Name FROM People) t "
                "GROUP BY s ORDER BY 2 DESC, 1 LIMIT 2", "s1|363;s5|363");

    lt_value two[2] = {int_value(2), int_value(3)};
    if (runp("SELECT id FROM People WHERE id = ? UNION SELECT id FROM pets WHERE id = ?", two, 2) != 0)
        fail_msg("%s", err.message);
    assert_string_equal(result, "2;3");

    sql_stmt *st;
    const char *sql = "SELECT id AS a, Name FROM People UNION SELECT 1.5, NULL FROM pets";
    if (sql_prepare(&source.base, sql, strlen(sql), &st, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(sql_column_count(st), 2);
    assert_string_equal(sql_column_at(st, 0)->desc.name, "a");
    assert_int_equal(sql_column_at(st, 0)->desc.type, LT_DECIMAL);
    assert_int_equal(sql_column_at(st, 0)->desc.scale, 1);
    assert_string_equal(sql_column_at(st, 1)->desc.name, "Name");
    assert_int_equal(sql_column_at(st, 1)->desc.type, LT_TEXT);
    sql_stmt_free(st);
}

/* EXCEPT ALL and INTERSECT ALL: multisets, min(m, n) and max(m - n, 0)
** copies of each row, left rows in their order (expectations computed by
** hand: g is i % 7, NULL when i % 11 = 0). */
static void test_set_all(void **state)
{
    (void)state;
    assert_rows("(SELECT 1 UNION ALL SELECT 1 UNION ALL SELECT 1 UNION ALL SELECT 2) EXCEPT ALL "
                "(SELECT 1 UNION ALL SELECT 3)", "1;1;2");
    assert_rows("(SELECT 1 UNION ALL SELECT 1 UNION ALL SELECT 1 UNION ALL SELECT 2) EXCEPT "
                "(SELECT 1 UNION ALL SELECT 3)", "2");
    assert_rows("(SELECT 1 UNION ALL SELECT NULL UNION ALL SELECT 1 UNION ALL SELECT NULL UNION ALL "
                "SELECT 2 UNION ALL SELECT 1) INTERSECT ALL (SELECT NULL UNION ALL SELECT 1 UNION ALL "
                "SELECT 3 UNION ALL SELECT 1)", "1;NULL;1");
    /* INTERSECT [ALL] binds tighter than UNION and EXCEPT */
    assert_rows("SELECT 1 UNION ALL SELECT 1 INTERSECT ALL SELECT 1", "1;1");
    assert_rows("SELECT 5 UNION ALL SELECT 5 EXCEPT ALL SELECT 5", "5");
    assert_rows("SELECT g FROM nums WHERE i <= 30 EXCEPT ALL SELECT g FROM nums WHERE i > 20 AND i <= 40",
                "1;5;6;2;3;5;6;0;1;2");
    assert_rows("SELECT g FROM nums WHERE i <= 30 INTERSECT ALL SELECT g FROM nums WHERE i > 20 AND i <= 40",
                "1;2;3;4;5;6;0;1;2;3;NULL;5;6;0;2;3;4;0;NULL;4");
    assert_rows("SELECT g FROM nums WHERE i <= 30 EXCEPT ALL SELECT g FROM nums WHERE i > 20 AND i <= 40 "
                "ORDER BY 1", "0;1;1;2;2;3;5;5;6;6");
    /* every row of the left side, or none */
    assert_rows("SELECT COUNT(*) FROM (SELECT g FROM nums EXCEPT ALL SELECT g FROM nums WHERE i <= 100) t",
                "4900");
    assert_rows("SELECT COUNT(*) FROM (SELECT g FROM nums WHERE i <= 100 INTERSECT ALL SELECT g FROM nums) t",
                "100");
    assert_rows("SELECT COUNT(*) FROM (SELECT g, s FROM nums EXCEPT ALL SELECT g, s FROM nums) t", "0");
    assert_rows("SELECT COUNT(*) FROM (SELECT i FROM nums EXCEPT ALL SELECT id FROM empty) t", "5000");
    assert_rows("SELECT id FROM empty INTERSECT ALL SELECT i FROM nums", "");
    assert_rows("SELECT id FROM People WHERE id < 3 INTERSECT ALL SELECT id FROM empty", "");
    assert_rows("SELECT COUNT(*), SUM(i) FROM (SELECT i FROM nums INTERSECT ALL SELECT i * 2 FROM nums) t",
                "2500|6252500");

    /* within the memory budget, as the other set operations */
    sql_stmt *st;
    sql_cursor *cur;
    lt_batch *b;
    const char *sql = "SELECT i, s FROM nums EXCEPT ALL SELECT i + 1, s FROM nums";
    if (sql_prepare(&source.base, sql, strlen(sql), &st, &err) != 0)
        fail_msg("%s", err.message);
    sql_stmt_set_memory_limit(st, 16 << 10);
    if (sql_execute(st, NULL, 0, &cur, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(sql_cursor_next(cur, &b, &err), -1);
    assert_string_equal(err.sqlstate, "HY001");
    assert_non_null(strstr(err.message, "combine the rows of EXCEPT ALL"));
    sql_cursor_close(cur);
    sql_stmt_free(st);
}

/* Parenthesised joins: left-nested ones (Access's saved queries) join
** left to right; a join nested on the right side is joined first, its
** tables' names still qualifying their columns. */
static void test_nested_joins(void **state)
{
    (void)state;
    assert_rows("SELECT p.Name, pets.name FROM (People p INNER JOIN pets ON pets.owner = p.id) "
                "ORDER BY pets.id", "Alice|Rex;Alice|Tom;Carol|Nemo;Carol|Bubbles");
    assert_rows("SELECT p.id, x.name, y.name FROM ((People p INNER JOIN pets x ON x.owner = p.id) "
                "INNER JOIN pets y ON y.owner = p.id AND y.id <> x.id) ORDER BY x.id",
                "1|Rex|Tom;1|Tom|Rex;4|Nemo|Bubbles;4|Bubbles|Nemo");
    /* the right side joined first: People rows without a pair keep one row */
    assert_rows("SELECT p.id, a.name FROM People p LEFT JOIN (pets a INNER JOIN pets b "
                "ON a.owner = b.owner AND a.id < b.id) ON a.owner = p.id ORDER BY p.id",
                "1|Rex;2|NULL;3|NULL;4|Nemo;5|NULL;6|NULL;7|NULL;8|NULL");
    assert_rows("SELECT COUNT(*), COUNT(o.Name) FROM People p LEFT JOIN (pets a INNER JOIN People o "
                "ON a.owner = o.id) ON a.owner = p.id", "10|4");
    assert_rows("SELECT a.* FROM People p JOIN (pets a JOIN People o ON a.owner = o.id) "
                "ON a.owner = p.id WHERE p.id = 4 ORDER BY a.id", "3|4|Nemo|fish|NULL;6|4|Bubbles|fish|0.1");
    assert_rows("SELECT p.id, a.name, o.Name FROM People p LEFT JOIN (pets a INNER JOIN "
                "(People o INNER JOIN pets c ON c.owner = o.id AND c.kind = 'fish') ON a.owner = o.id) "
                "ON a.owner = p.id WHERE p.id IN (1, 4) ORDER BY 1, 2",
                "1|NULL|NULL;4|Bubbles|Carol;4|Bubbles|Carol;4|Nemo|Carol;4|Nemo|Carol");
    assert_rows("SELECT p.id, a.name FROM {oj People p LEFT OUTER JOIN (pets a INNER JOIN pets b "
                "ON a.owner = b.owner AND a.id < b.id) ON a.owner = p.id} WHERE p.id < 3 ORDER BY 1",
                "1|Rex;2|NULL");
    assert_rows("SELECT p.id, a.name, b.kind FROM {oj (People p LEFT OUTER JOIN pets a ON a.owner = p.id) "
                "LEFT OUTER JOIN pets b ON b.id = a.id} WHERE p.id < 3 ORDER BY 1, 2",
                "1|Rex|dog;1|Tom|cat;2|NULL|NULL");
    /* ODBC's nested outer joins (SQL_OJ_NESTED): the right side without
    ** parentheses, and {oj} inside {oj} */
    assert_rows("SELECT p.id, a.name FROM {oj People p LEFT OUTER JOIN pets a INNER JOIN pets b "
                "ON a.owner = b.owner AND a.id < b.id ON a.owner = p.id} WHERE p.id < 3 ORDER BY 1",
                "1|Rex;2|NULL");
    assert_rows("SELECT p.id, a.name, b.kind FROM {oj {oj People p LEFT OUTER JOIN pets a ON a.owner = p.id} "
                "LEFT OUTER JOIN pets b ON b.id = a.id} WHERE p.id < 3 ORDER BY 1, 2",
                "1|Rex|dog;1|Tom|cat;2|NULL|NULL");
    assert_rows("SELECT p.id, a.name FROM People p LEFT OUTER JOIN {oj pets a LEFT OUTER JOIN pets b "
                "ON b.id = a.owner} ON a.owner = p.id WHERE p.id < 3 ORDER BY 1, 2", "1|Rex;1|Tom;2|NULL");
    assert_rows("SELECT COUNT(*) FROM (pets)", "6");
    assert_rows("SELECT q.id FROM (pets) q WHERE q.id = 2", "2");
    assert_rows("SELECT COUNT(*) FROM People p, (pets a JOIN pets b ON a.id = b.id) WHERE a.owner = p.id",
                "4");
    /* derived tables keep working, also a parenthesised compound */
    assert_rows("SELECT x.n FROM ((SELECT id AS n FROM People) UNION (SELECT id FROM pets)) AS x "
                "WHERE x.n > 7", "8");
    assert_rows("SELECT d.k FROM People p JOIN (SELECT owner AS k FROM pets) d ON d.k = p.id "
                "ORDER BY 1", "1;1;4;4");
    assert_error("SELECT id FROM People p JOIN (pets a JOIN People o ON a.owner = o.id) "
                 "ON a.owner = p.id", "42000", "ambiguous column name");
    assert_error("SELECT z.id FROM People p JOIN (pets a JOIN People o ON a.owner = o.id) "
                 "ON a.owner = p.id", "42S02", "unknown table");
    assert_error("SELECT 1 FROM People p JOIN (pets a JOIN People o ON a.owner = p.id) "
                 "ON a.owner = p.id", "42S02", "unknown table");
    assert_error("SELECT 1 FROM pets a JOIN (pets a JOIN People o ON a.owner = o.id) "
                 "ON a.id = o.id", "42000", "the table name 'a' is used twice in FROM");
    assert_error("SELECT 1 FROM People p LEFT JOIN (pets a JOIN People o ON a.owner = o.id) "
                 "ON a.owner = p.id, pets o", "42000", "the table name 'o' is used twice in FROM");
}

static void test_set_errors(void **state)
{
    (void)state;
    assert_error("SELECT 1 UNION SELECT 2, 3", "42000",
                 "the queries combined by UNION must have the same number of columns, not 1 and 2 (line 1, column 10)");
    assert_error("SELECT 1, 2 FROM People INTERSECT SELECT id FROM pets", "42000",
                 "combined by INTERSECT must have the same number of columns, not 2 and 1");
    assert_error("SELECT 1 UNION SELECT 'a'", "42000",
                 "cannot mix INTEGER and TEXT in column 1 of a UNION, EXCEPT or INTERSECT (line 1, column 10)");
    assert_error("SELECT id FROM People UNION SELECT id FROM pets ORDER BY id + 1", "42000",
                 "must name an output column or give its position");
    assert_error("SELECT id FROM People UNION SELECT id FROM pets ORDER BY nope", "42S22",
                 "ORDER BY of UNION, EXCEPT or INTERSECT names no output column 'nope'");
    assert_error("SELECT id FROM People UNION SELECT id FROM pets ORDER BY 2", "42000",
                 "ORDER BY position 2 is not in the select list");
    assert_error("SELECT id FROM People UNION SELECT nope FROM pets", "42S22", "unknown column 'nope'");
}

/* ------------------------------------------------------------------------ */
/* Subqueries                                                                */
/* ------------------------------------------------------------------------ */

static void test_scalar_subqueries(void **state)
{
    (void)state;
    assert_rows("SELECT id, (SELECT MAX(age) FROM People) FROM pets WHERE id < 3", "1|41;2|41");
    assert_rows("SELECT id FROM People WHERE age = (SELECT MAX(age) FROM People)", "5");
    assert_rows("SELECT (SELECT id FROM People WHERE id > 100)", "NULL");
    assert_rows("SELECT (SELECT Name FROM People WHERE id = 4) || '!'", "Carol!");
    assert_rows("SELECT (SELECT price FROM People WHERE id = 1) + 1", "11.50");
    assert_rows("SELECT COUNT(*) FROM nums WHERE i > (SELECT MAX(i) - 10 FROM nums)", "10");
    /* Correlated. */
    assert_rows("SELECT Name, (SELECT COUNT(*) FROM pets WHERE owner = People.id) FROM People "
                "WHERE id < 5 ORDER BY id", "Alice|2;bob|0;NULL|0;Carol|2");
    assert_rows("SELECT id, (SELECT p.id + 1) FROM People p WHERE id < 3", "1|2;2|3");
    assert_rows("SELECT x.name, (SELECT Name FROM People WHERE id = x.owner) FROM pets x ORDER BY x.id",
                "Rex|Alice;Tom|Alice;Nemo|Carol;Stray|NULL;Ghost|NULL;Bubbles|Carol");
    assert_rows("SELECT age, (SELECT COUNT(*) FROM People q WHERE q.age = p.age) FROM People p "
                "GROUP BY age ORDER BY 1", "NULL|0;18|1;25|2;30|2;41|1");
    assert_rows("SELECT id FROM People p WHERE (SELECT COUNT(*) FROM pets WHERE owner = p.id) > 1 ORDER BY 1",
                "1;4");
}

static void test_in_exists(void **state)
{
    (void)state;
    assert_rows("SELECT id FROM People WHERE id IN (SELECT owner FROM pets) ORDER BY id", "1;4");
    /* NOT IN over a set with a NULL is never TRUE. */
    assert_rows("SELECT id FROM People WHERE id NOT IN (SELECT owner FROM pets)", "");
    assert_rows("SELECT id FROM People WHERE id NOT IN (SELECT owner FROM pets WHERE owner IS NOT NULL) ORDER BY id",
                "2;3;5;6;7;8");
    assert_rows("SELECT COUNT(*) FROM People WHERE age NOT IN (SELECT id FROM empty)", "8");
    assert_rows("SELECT COUNT(*) FROM People WHERE age IN (SELECT id FROM empty)", "0");
    assert_rows("SELECT id, age IN (SELECT age FROM People WHERE id = 1), age NOT IN (SELECT age FROM People "
                "WHERE id = 1) FROM People WHERE id IN (1, 2, 3)", "1|1|0;2|NULL|NULL;3|0|1");
    assert_rows("SELECT id, age IN (SELECT age FROM People WHERE id < 3) FROM People WHERE id IN (1, 3)",
                "1|1;3|NULL");
    assert_rows("SELECT id FROM People WHERE score IN (SELECT id FROM pets)", "8");
    assert_rows("SELECT id FROM People WHERE price IN (SELECT 10.5) ORDER BY 1", "1;4");
    assert_rows("SELECT id FROM People WHERE Name IN (SELECT Name FROM People WHERE age = 30) ORDER BY 1", "1;4");
    assert_rows("SELECT COUNT(*) FROM nums WHERE g IN (SELECT id FROM pets)", "3896");
    assert_rows("SELECT COUNT(*) FROM nums WHERE i IN (SELECT i * 2 FROM nums)", "2500");
    assert_rows("SELECT COUNT(*) FROM People WHERE EXISTS (SELECT 1 FROM pets)", "8");
    assert_rows("SELECT COUNT(*) FROM People WHERE NOT EXISTS (SELECT 1 FROM empty)", "8");
    assert_rows("SELECT COUNT(*) FROM People WHERE EXISTS (SELECT * FROM empty)", "0");
    assert_rows("SELECT EXISTS (SELECT 1 FROM pets WHERE kind = 'cow')", "0");
    /* Correlated. */
    assert_rows("SELECT id FROM People p WHERE EXISTS (SELECT 1 FROM pets WHERE pets.owner = p.id) ORDER BY id",
                "1;4");
    assert_rows("SELECT id FROM People p WHERE NOT EXISTS (SELECT 1 FROM pets WHERE pets.owner = p.id) ORDER BY id",
                "2;3;5;6;7;8");
    assert_rows("SELECT id FROM People p WHERE 'dog' IN (SELECT kind FROM pets WHERE owner = p.id)", "1");
    assert_rows("SELECT id FROM People p WHERE EXISTS (SELECT 1 FROM pets x WHERE x.owner = p.id AND "
                "EXISTS (SELECT 1 FROM pets y WHERE y.owner = p.id AND y.kind = 'fish'))", "4");
    assert_rows("SELECT COUNT(*) FROM nums a WHERE a.i < 50 AND EXISTS (SELECT 1 FROM nums b WHERE b.i = a.i * 2)",
                "49");
    assert_rows("SELECT p.id FROM People p JOIN pets x ON x.owner = p.id AND x.id IN "
                "(SELECT id FROM pets WHERE kind = 'fish') ORDER BY x.id", "4;4");

    lt_value fish = text_value("fish");
    if (runp("SELECT id FROM People WHERE id IN (SELECT owner FROM pets WHERE kind = ?)", &fish, 1) != 0)
        fail_msg("%s", err.message);
    assert_string_equal(result, "4");
}

/* Subqueries wherever an expression may stand. */
static void test_subquery_places(void **state)
{
    (void)state;
    assert_rows("SELECT id FROM pets ORDER BY (SELECT Name FROM People WHERE People.id = pets.owner), id",
                "4;5;1;2;3;6");
    assert_rows("SELECT kind, COUNT(*) FROM pets GROUP BY kind HAVING COUNT(*) > (SELECT COUNT(*) FROM empty) + 1 "
                "ORDER BY 1", "cat|2;dog|2;fish|2");
    assert_rows("SELECT kind FROM pets GROUP BY kind HAVING MAX(weight) > (SELECT AVG(weight) FROM pets) ORDER BY 1",
                "dog");
    assert_rows("SELECT CASE WHEN id IN (SELECT owner FROM pets) THEN 'owner' ELSE '-' END FROM People "
                "WHERE id < 4", "owner;-;-");
    assert_rows("SELECT p.id, x.id FROM People p LEFT JOIN pets x ON x.owner = p.id AND x.kind IN "
                "(SELECT kind FROM pets WHERE id = 1) WHERE p.id < 3", "1|1;2|NULL");
    assert_rows("SELECT id FROM People WHERE id IN (SELECT owner FROM pets UNION SELECT 8) ORDER BY 1", "1;4;8");
    assert_rows("SELECT id FROM People WHERE id IN (SELECT DISTINCT owner FROM pets WHERE owner < "
                "(SELECT MAX(id) FROM People)) ORDER BY 1", "1;4");
    assert_rows("SELECT (SELECT COUNT(*) FROM (SELECT owner FROM pets UNION ALL SELECT id FROM People) t)", "14");
    assert_rows("SELECT NULL IN (SELECT id FROM People), NULL IN (SELECT id FROM empty), "
                "NULL NOT IN (SELECT id FROM empty)", "NULL|0|1");
    assert_rows("SELECT COUNT(*) FROM People WHERE (SELECT NULL) IS NULL", "8");
    assert_rows("SELECT id FROM People p WHERE EXISTS (SELECT 1 FROM pets x WHERE x.owner = p.id "
                "UNION ALL SELECT 1 FROM empty WHERE empty.id = p.id) ORDER BY 1", "1;4");
    assert_rows("SELECT id, (SELECT MAX(x.id) FROM pets x WHERE x.owner = p.id GROUP BY x.owner) FROM People p "
                "WHERE id IN (1, 2)", "1|2;2|NULL");
    assert_rows("SELECT SUM((SELECT COUNT(*) FROM pets WHERE owner = p.id)) FROM People p", "4");
    /* Remembered results: few distinct outer values, then more than are kept. */
    assert_rows("SELECT SUM((SELECT COUNT(*) FROM pets WHERE id = n.g)), COUNT(*) FROM nums n", "3896|5000");
    assert_rows("SELECT COUNT(*) FROM nums n WHERE (SELECT COUNT(*) FROM pets WHERE pets.kind = n.s) = 0", "5000");
    assert_rows("SELECT COUNT(*), SUM((SELECT x.id FROM pets x WHERE x.id = n.i % 10)) FROM nums n "
                "WHERE EXISTS (SELECT 1 FROM pets WHERE pets.id = n.i)", "6|21");
    assert_rows("SELECT (SELECT 1), COUNT(*) FROM People GROUP BY active ORDER BY 2", "1|2;1|3;1|3");
    assert_error("SELECT (SELECT p.Name) FROM People p GROUP BY id", "42000",
                 "column 'Name' must appear in GROUP BY");
    lt_value v[2] = {int_value(1), text_value("cat")};
    if (runp("SELECT id FROM People p WHERE id > ? AND EXISTS (SELECT 1 FROM pets WHERE owner = p.id AND kind <> ?)",
             v, 2) != 0)
        fail_msg("%s", err.message);
    assert_string_equal(result, "4");
}

/* An uncorrelated subquery runs once per execution. */
static void test_subquery_once(void **state)
{
    (void)state;
    assert_rows("SELECT COUNT(*) FROM nums WHERE g IN (SELECT id FROM pets) AND "
                "i > (SELECT MIN(id) FROM People)", "3895");
    assert_int_equal(source.scans, 3);
}

/* A correlated EXISTS or IN whose one outer value is read by `key = outer`
** runs as a semi-join: its sub-query once (2 scans in all), the same rows
** as the nested runs the shape `(key = outer OR 1 = 0)` keeps. */
static void assert_semi(const char *semi, const char *nested, const char *expected)
{
    source.scans = 0;
    assert_rows(semi, expected);
    assert_int_equal(source.scans, 2);
    assert_rows(nested, expected);
}

static void test_semi_join(void **state)
{
    (void)state;
    assert_semi("SELECT p.id FROM pets p WHERE EXISTS (SELECT 1 FROM People q WHERE q.id = p.owner AND q.age > 20) ORDER BY 1",
                "SELECT p.id FROM pets p WHERE EXISTS (SELECT 1 FROM People q WHERE (q.id = p.owner OR 1 = 0) AND q.age > 20) ORDER BY 1",
                "1;2;3;6");
    assert_semi("SELECT p.id FROM pets p WHERE NOT EXISTS (SELECT 1 FROM People q WHERE p.owner = q.id AND q.age > 20) ORDER BY 1",
                "SELECT p.id FROM pets p WHERE NOT EXISTS (SELECT 1 FROM People q WHERE (p.owner = q.id OR 1 = 0) AND q.age > 20) ORDER BY 1",
                "4;5");
    /* IN: no row for the key (NULL score included) is FALSE; a NULL among
    ** the key's values makes a miss NULL; a NULL x over rows is NULL. */
    assert_semi("SELECT p.id, 25 IN (SELECT q.age FROM People q WHERE q.score = p.score) FROM People p ORDER BY 1",
                "SELECT p.id, 25 IN (SELECT q.age FROM People q WHERE (q.score = p.score OR 1 = 0)) FROM People p ORDER BY 1",
                "1|0;2|1;3|0;4|0;5|0;6|1;7|0;8|0");
    assert_semi("SELECT p.id, 30 NOT IN (SELECT q.age FROM People q WHERE q.score = p.score) FROM People p ORDER BY 1",
                "SELECT p.id, 30 NOT IN (SELECT q.age FROM People q WHERE (q.score = p.score OR 1 = 0)) FROM People p ORDER BY 1",
                "1|0;2|NULL;3|1;4|0;5|1;6|NULL;7|1;8|1");
    assert_semi("SELECT p.id, p.age NOT IN (SELECT q.age FROM People q WHERE q.score = p.score) FROM People p ORDER BY 1",
                "SELECT p.id, p.age NOT IN (SELECT q.age FROM People q WHERE (q.score = p.score OR 1 = 0)) FROM People p ORDER BY 1",
                "1|0;2|NULL;3|1;4|0;5|0;6|0;7|1;8|0");
    /* Text keys. */
    assert_semi("SELECT COUNT(*) FROM nums a WHERE EXISTS (SELECT 1 FROM nums b WHERE b.s = a.s AND b.i < 14)",
                "SELECT COUNT(*) FROM nums a WHERE EXISTS (SELECT 1 FROM nums b WHERE (b.s = a.s OR 1 = 0) AND b.i < 14)",
                "4706");
    /* Keys of two types compare without a common conversion: nested runs. */
    source.scans = 0;
    assert_rows("SELECT p.id FROM pets p WHERE EXISTS (SELECT 1 FROM People q WHERE q.score = p.id) ORDER BY 1", "3");
    assert_int_equal(source.scans, 7);
    /* Many outer rows, many keys. */
    assert_semi("SELECT COUNT(*) FROM nums a WHERE EXISTS (SELECT 1 FROM nums b WHERE b.g = a.i AND b.i > 4990)",
                "SELECT COUNT(*) FROM nums a WHERE EXISTS (SELECT 1 FROM nums b WHERE (b.g = a.i OR 1 = 0) AND b.i > 4990)",
                "5");
    assert_semi("SELECT COUNT(*) FROM nums a WHERE a.i IN (SELECT b.i FROM nums b WHERE b.i = a.i AND b.g IS NULL)",
                "SELECT COUNT(*) FROM nums a WHERE a.i IN (SELECT b.i FROM nums b WHERE (b.i = a.i OR 1 = 0) AND b.g IS NULL)",
                "454");
    assert_semi("SELECT COUNT(*) FROM nums a WHERE a.i NOT IN (SELECT b.i FROM nums b WHERE b.i = a.i AND b.g IS NULL)",
                "SELECT COUNT(*) FROM nums a WHERE a.i NOT IN (SELECT b.i FROM nums b WHERE (b.i = a.i OR 1 = 0) AND b.g IS NULL)",
                "4546");
}

static void test_subquery_errors(void **state)
{
    (void)state;
    assert_error("SELECT (SELECT id FROM People)", "21000",
                 "a subquery used as a value returned more than one row (line 1, column 8)");
    assert_error("SELECT id FROM People WHERE id = (SELECT id, Name FROM People)", "42000",
                 "a subquery used as a value must return one column, not 2 (line 1, column 34)");
    assert_error("SELECT id FROM People WHERE id IN (SELECT id, age FROM People)", "42000",
                 "must return one column, not 2");
    assert_error("SELECT id FROM People WHERE Name IN (SELECT id FROM People)", "42000",
                 "cannot compare TEXT and INTEGER");
    assert_error("SELECT id FROM People WHERE EXISTS (SELECT nope FROM pets)", "42S22", "unknown column 'nope'");
    assert_error("SELECT id FROM People WHERE EXISTS (SELECT 1 FROM pets WHERE q.id = 1)", "42S02",
                 "unknown table 'q'");
}

/* ------------------------------------------------------------------------ */
/* Joins                                                                     */
/* ------------------------------------------------------------------------ */

static void test_right_full(void **state)
{
    (void)state;
    assert_rows("SELECT p.Name, x.name FROM People p RIGHT JOIN pets x ON x.owner = p.id ORDER BY x.id",
                "Alice|Rex;Alice|Tom;Carol|Nemo;NULL|Stray;NULL|Ghost;Carol|Bubbles");
    assert_rows("SELECT p.id, x.id FROM People p FULL JOIN pets x ON x.owner = p.id ORDER BY p.id, x.id",
                "NULL|4;NULL|5;1|1;1|2;2|NULL;3|NULL;4|3;4|6;5|NULL;6|NULL;7|NULL;8|NULL");
    assert_rows("SELECT p.id, x.id FROM People p RIGHT OUTER JOIN pets x ON x.owner = p.id AND x.kind = 'dog' "
                "ORDER BY x.id", "1|1;NULL|2;NULL|3;NULL|4;NULL|5;NULL|6");
    assert_rows("SELECT p.id, x.id FROM People p RIGHT JOIN pets x ON x.owner = p.id WHERE p.age > 20 "
                "ORDER BY x.id", "1|1;1|2;4|3;4|6");
    assert_rows("SELECT x.id FROM People p FULL JOIN pets x ON x.owner = p.id WHERE p.id IS NULL ORDER BY 1",
                "4;5");
    assert_rows("SELECT x.id FROM People p FULL OUTER JOIN pets x ON x.owner = p.id WHERE x.kind = 'dog' "
                "ORDER BY 1", "1;4");
    assert_rows("SELECT e.id, x.id FROM empty e RIGHT JOIN pets x ON x.owner = e.id WHERE x.id < 3 ORDER BY x.id",
                "NULL|1;NULL|2");
    assert_rows("SELECT COUNT(*) FROM pets x FULL JOIN empty e ON x.owner = e.id", "6");
    assert_rows("SELECT COUNT(*) FROM empty e FULL JOIN empty f ON e.id = f.id", "0");
    /* A RIGHT JOIN after an inner one: the rows it adds pass no earlier filter. */
    assert_rows("SELECT a.id, b.id, x.id FROM People a JOIN People b ON a.id = b.id AND a.id = 1 "
                "RIGHT JOIN pets x ON x.owner = a.id WHERE x.id > 1 ORDER BY x.id",
                "1|1|2;NULL|NULL|3;NULL|NULL|4;NULL|NULL|5;NULL|NULL|6");
    /* Without keys (an ON that is no equality). */
    assert_rows("SELECT p.id, x.id FROM People p RIGHT JOIN pets x ON p.id > 7 AND x.id > 5 ORDER BY x.id",
                "NULL|1;NULL|2;NULL|3;NULL|4;NULL|5;8|6");
    assert_rows("SELECT COUNT(*), COUNT(a.i), COUNT(b.i) FROM nums a FULL JOIN nums b ON a.i = b.i * 2",
                "7500|5000|5000");
    assert_rows("SELECT COUNT(*), COUNT(a.g) FROM nums a RIGHT JOIN nums b ON a.i = b.g", "5000|3896");

    sql_stmt *st;
    const char *sql = "SELECT p.id, x.id FROM People p RIGHT JOIN pets x ON x.owner = p.id";
    if (sql_prepare(&source.base, sql, strlen(sql), &st, &err) != 0)
        fail_msg("%s", err.message);
    assert_true(sql_column_at(st, 0)->desc.nullable);
    assert_false(sql_column_at(st, 1)->desc.nullable);
    sql_stmt_free(st);
}

static void test_using_natural(void **state)
{
    (void)state;
    assert_rows("SELECT * FROM People JOIN (SELECT id, kind FROM pets) x USING (id) WHERE id < 3",
                "1|Alice|30|1.5|10.50|1990-01-02|1|dog;2|bob|NULL|2.5|3.25|1985-06-15|0|cat");
    assert_rows("SELECT id, kind FROM People JOIN pets USING (id) WHERE id = 3", "3|fish");
    assert_rows("SELECT id FROM (SELECT id FROM People WHERE id < 3) a FULL JOIN "
                "(SELECT id FROM pets WHERE id > 5) b USING (id) ORDER BY id", "1;2;6");
    assert_rows("SELECT * FROM (SELECT id FROM People WHERE id < 3) a RIGHT JOIN "
                "(SELECT id, kind FROM pets WHERE id > 1 AND id < 4) b USING (id) ORDER BY id",
                "2|cat;3|fish");
    assert_rows("SELECT a.id, b.id FROM (SELECT id FROM People WHERE id < 3) a LEFT JOIN "
                "(SELECT id FROM pets WHERE id > 1) b USING (id) ORDER BY a.id", "1|NULL;2|2");
    assert_rows("SELECT * FROM (SELECT id, Name AS who FROM People) a NATURAL JOIN "
                "(SELECT owner AS id, kind FROM pets) b ORDER BY kind, id",
                "1|Alice|cat;1|Alice|dog;4|Carol|fish;4|Carol|fish");
    assert_rows("SELECT COUNT(*) FROM (SELECT 1 AS a) x NATURAL JOIN (SELECT 2 AS b) y", "1");
    assert_rows("SELECT x.* FROM (SELECT 1 AS k, 2 AS v) x JOIN (SELECT 1 AS k) y USING (k)", "1|2");
}

static void test_join_errors(void **state)
{
    (void)state;
    assert_error("SELECT * FROM People JOIN pets USING (kind)", "42S22",
                 "USING column 'kind' is not in the tables before 'pets' (line 1, column 27)");
    assert_error("SELECT * FROM People JOIN pets USING (nope)", "42S22", "USING column 'nope' is not in table 'pets'");
    assert_error("SELECT * FROM People a JOIN People b ON a.id = b.id JOIN pets USING (id)", "42000",
                 "ambiguous column name 'id' in USING");
    assert_error("SELECT name FROM People JOIN pets USING (id)", "42000", "ambiguous column name 'name'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_derived, setup_views),
        cmocka_unit_test_setup(test_derived, setup_small),
        cmocka_unit_test_setup(test_derived_describe, setup_views),
        cmocka_unit_test_setup(test_derived_errors, setup_views),
        cmocka_unit_test_setup(test_views, setup_views),
        cmocka_unit_test_setup(test_views, setup_small),
        cmocka_unit_test_setup(test_view_errors, setup_views),
        cmocka_unit_test_setup(test_describe_table, setup_views),
        cmocka_unit_test_setup(test_set_operations, setup_views),
        cmocka_unit_test_setup(test_set_operations, setup_small),
        cmocka_unit_test_setup(test_set_all, setup_views),
        cmocka_unit_test_setup(test_set_all, setup_small),
        cmocka_unit_test_setup(test_nested_joins, setup_views),
        cmocka_unit_test_setup(test_nested_joins, setup_small),
        cmocka_unit_test_setup(test_set_errors, setup_views),
        cmocka_unit_test_setup(test_scalar_subqueries, setup_views),
        cmocka_unit_test_setup(test_scalar_subqueries, setup_small),
        cmocka_unit_test_setup(test_in_exists, setup_views),
        cmocka_unit_test_setup(test_in_exists, setup_small),
        cmocka_unit_test_setup(test_subquery_once, setup_views),
        cmocka_unit_test_setup(test_subquery_places, setup_views),
        cmocka_unit_test_setup(test_subquery_places, setup_small),
        cmocka_unit_test_setup(test_subquery_errors, setup_views),
        cmocka_unit_test_setup(test_right_full, setup_views),
        cmocka_unit_test_setup(test_semi_join, setup_views),
        cmocka_unit_test_setup(test_semi_join, setup_small),
        cmocka_unit_test_setup(test_right_full, setup_small),
        cmocka_unit_test_setup(test_using_natural, setup_views),
        cmocka_unit_test_setup(test_using_natural, setup_small),
        cmocka_unit_test_setup(test_join_errors, setup_views),
        /* Plain tables only: views are additions, nothing else changes. */
        cmocka_unit_test_setup(test_using_natural, setup_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
