/*
** test_sql_affinity.c — SQLite's comparison affinity and dynamically typed
** results, checked against libsqlite3 itself.
**
** A small SQLite file with columns declared INTEGER, REAL, TEXT, NUMERIC,
** VARCHAR and none, holding values of mixed storage classes, is queried
** through Lector (lt_source_open + sql_prepare/sql_execute) and through
** libsqlite3, and the results must be equal: comparisons of every affinity
** pair (column against literal, column against column, expressions without
** affinity, CAST), IN, BETWEEN, CASE x WHEN, NULLIF, joins on such
** columns, ORDER BY / DISTINCT / GROUP BY on mixed values, compound
** SELECTs mixing numbers and text, and CASE / COALESCE / IFNULL / IIF /
** NULLIF whose values mix numbers and text (dynamically typed, as in
** SQLite).  Values print as numbers (to 12 significant digits, so an
** INTEGER 2 and a REAL 2.0 agree), text quoted, blobs in hex; results
** compare in order when the query has ORDER BY,
** else as sorted multisets.  Arithmetic and CAST on a row holding another
** type than its column ('abc' in the INTEGER column) read it as NULL here
** (docs/sql-types.md, Differences from SQLite): those queries leave row 4
** out.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "driver/sql/sql.h"

static char db_path[64];
static lt_source *src;
static sqlite3 *db;

static const char *schema[] = {
    "CREATE TABLE t(id INTEGER PRIMARY KEY, i INTEGER, r REAL, x TEXT, n NUMERIC, b, v VARCHAR(10))",
    "INSERT INTO t VALUES (1, 1, 1.5, '1', 1, 1, '10')",
    "INSERT INTO t VALUES (2, 2, 2.0, '2', '2', '2', '9')",
    "INSERT INTO t VALUES (3, 10, 10.0, '10', 10.5, 10, 'abc')",
    "INSERT INTO t VALUES (4, 'abc', 'xyz', 'abc', 'abc', 'abc', '1.5')",
    "INSERT INTO t VALUES (5, NULL, NULL, NULL, NULL, NULL, NULL)",
    "INSERT INTO t VALUES (6, 5, 0.5, ' 5 ', 5, 5.0, '5')",
    "INSERT INTO t VALUES (7, -3, -3.25, '-3.25', -3.25, '-3', '2.0')",
    "INSERT INTO t VALUES (8, 100, 1e20, '1e2', '1e2', x'41', '07')",
    "INSERT INTO t VALUES (9, 7, 7.0, '7.0', 7, '7.0', 7)",
    "CREATE TABLE u(k TEXT, w INTEGER)",
    "INSERT INTO u VALUES ('2', 2), ('10', 10), ('x', 7), (NULL, NULL), ('7', '7')",
    "INSERT INTO u VALUES ('1.0e+20', 5), ('0.5', 1), ('-0.25', 2)",
};

/* The queries; each runs through both engines. */
static const char *queries[] = {
    /* TEXT column against literals: TEXT affinity applied to the number */
    "SELECT id FROM t WHERE x = 1",
    "SELECT id FROM t WHERE x = '1'",
    "SELECT id FROM t WHERE x < 5",
    "SELECT id FROM t WHERE x > 2",
    "SELECT id FROM t WHERE x <> 10",
    "SELECT id FROM t WHERE x >= 1.5",
    "SELECT id FROM t WHERE 7 <= x",
    /* INTEGER, REAL, NUMERIC columns against text literals */
    "SELECT id FROM t WHERE i = '2'",
    "SELECT id FROM t WHERE i = 'abc'",
    "SELECT id FROM t WHERE i < 'abc'",
    "SELECT id FROM t WHERE i > '5'",
    "SELECT id FROM t WHERE i <> ' 5 '",
    "SELECT id FROM t WHERE r = '1.5'",
    "SELECT id FROM t WHERE r > 'a'",
    "SELECT id FROM t WHERE r = 'xyz'",
    "SELECT id FROM t WHERE n = '2'",
    "SELECT id FROM t WHERE n = 2",
    "SELECT id FROM t WHERE n < 'b'",
    "SELECT id FROM t WHERE n > '1e1'",
    /* no declared type (BLOB affinity): nothing converted */
    "SELECT id FROM t WHERE b = 2",
    "SELECT id FROM t WHERE b = '2'",
    "SELECT id FROM t WHERE b > 5",
    "SELECT id FROM t WHERE b < 'a'",
    "SELECT id FROM t WHERE b >= 'a'",
    /* VARCHAR: TEXT affinity */
    "SELECT id FROM t WHERE v = 10",
    "SELECT id FROM t WHERE v > 9",
    "SELECT id FROM t WHERE v = 7",
    /* column against column */
    "SELECT id FROM t WHERE x = i",
    "SELECT id FROM t WHERE x < i",
    "SELECT id FROM t WHERE x = r",
    "SELECT id FROM t WHERE x = n",
    "SELECT id FROM t WHERE x = b",
    "SELECT id FROM t WHERE b = i",
    "SELECT id FROM t WHERE b = r",
    "SELECT id FROM t WHERE b < n",
    "SELECT id FROM t WHERE v = x",
    "SELECT id FROM t WHERE v < i",
    "SELECT id FROM t WHERE n = r",
    "SELECT id FROM t WHERE v > r",
    /* expressions have no affinity */
    "SELECT id FROM t WHERE i + 0 = '2'",
    "SELECT id FROM t WHERE x = i + 0",
    "SELECT id FROM t WHERE x > i * 1 AND id <> 4", /* ('abc' * 1: see below) */
    "SELECT id FROM t WHERE 1 = '1'",
    "SELECT id FROM t WHERE upper(x) = 1",
    "SELECT id FROM t WHERE length(v) = '2'",
    "SELECT id FROM t WHERE '10' > i + 0 AND id <> 4",
    "SELECT 1 = '1', 1 < 'a', '10' < 9, 2 = 2.0, 'a' > 5",
    /* TEXT affinity writes reals as SQLite does */
    "SELECT id FROM t WHERE x = 7.0 + 0",
    "SELECT id FROM t WHERE x IN (7.0, 1e2, -3.25)",
    "SELECT k FROM u WHERE k = 1e20 * 1",
    "SELECT k FROM u WHERE k = 0.25 * 2",
    "SELECT k FROM u WHERE k IN (-0.25, 0.5)",
    "SELECT k FROM u WHERE k > 0.25 * 2",
    "SELECT k, w FROM u WHERE w = k ORDER BY 1",
    "SELECT id FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.k = t.i)",
    /* IN (SELECT ...): the left side's affinity with the column's */
    "SELECT id FROM t WHERE x IN (SELECT w FROM u) ORDER BY 1",
    "SELECT id FROM t WHERE i IN (SELECT k FROM u) ORDER BY 1",
    "SELECT id FROM t WHERE i NOT IN (SELECT k FROM u WHERE k IS NOT NULL) ORDER BY 1",
    "SELECT id FROM t WHERE i NOT IN (SELECT k FROM u) ORDER BY 1",
    "SELECT id FROM t WHERE b IN (SELECT w FROM u) ORDER BY 1",
    "SELECT id FROM t WHERE r IN (SELECT k FROM u) ORDER BY 1",
    "SELECT id FROM t WHERE i + 0 IN (SELECT k FROM u) AND id <> 4 ORDER BY 1",
    "SELECT id FROM t WHERE 2 IN (SELECT k FROM u) ORDER BY 1",
    "SELECT id FROM t WHERE x IN (SELECT w FROM u WHERE u.w > t.id) ORDER BY 1",
    /* correlated by an equality: the hash semi-join, its values as keys */
    "SELECT id FROM t WHERE x IN (SELECT k FROM u WHERE u.w = t.id) ORDER BY 1",
    "SELECT id FROM t WHERE i IN (SELECT k FROM u WHERE u.w = t.id) ORDER BY 1",
    "SELECT id FROM t WHERE i NOT IN (SELECT k FROM u WHERE u.w = t.id) ORDER BY 1",
    "SELECT id FROM t WHERE n IN (SELECT w FROM u WHERE u.w = t.id) ORDER BY 1",
    "SELECT id FROM t WHERE v NOT IN (SELECT k FROM u WHERE u.w = t.id) ORDER BY 1",
    "SELECT id FROM t WHERE r IN (SELECT k FROM u WHERE u.w = t.i) ORDER BY 1",
    "SELECT id FROM t WHERE x IN (SELECT w + 0 FROM u) ORDER BY 1",
    "SELECT id FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.w = t.x) ORDER BY id",
    /* CAST gives its type's affinity */
    "SELECT id FROM t WHERE CAST(i AS TEXT) = 2",
    "SELECT id FROM t WHERE CAST(i AS TEXT) < 5",
    "SELECT id FROM t WHERE CAST(i AS REAL) = '2'",
    "SELECT id FROM t WHERE CAST(i AS TEXT) = x AND id <> 4",
    "SELECT id FROM t WHERE CAST(1 AS TEXT) = 1",
    "SELECT id FROM t WHERE CAST('7' AS INTEGER) = '7'",
    /* IN: the left side's affinity, the items none */
    "SELECT id FROM t WHERE x IN (1, 2, 10)",
    "SELECT id FROM t WHERE i IN ('1', '2', 'abc')",
    "SELECT id FROM t WHERE i IN ('5', 7.0)",
    "SELECT id FROM t WHERE b IN (2, '2', 10)",
    "SELECT id FROM t WHERE x IN (i, r)",
    "SELECT id FROM t WHERE i + 0 IN ('1', '2')",
    "SELECT id FROM t WHERE n IN ('2', 'abc', '7')",
    "SELECT id FROM t WHERE x NOT IN (1, 2)",
    "SELECT id FROM t WHERE x IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)",
    "SELECT id FROM t WHERE i IN ('1', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'abc')",
    "SELECT id FROM t WHERE 2 IN (x, i)",
    /* BETWEEN: its two comparisons */
    "SELECT id FROM t WHERE x BETWEEN 1 AND 3",
    "SELECT id FROM t WHERE i BETWEEN '2' AND '50'",
    "SELECT id FROM t WHERE b BETWEEN 1 AND 'z'",
    "SELECT id FROM t WHERE x NOT BETWEEN 2 AND 5",
    "SELECT id FROM t WHERE v BETWEEN i AND 9",
    /* CASE x WHEN, NULLIF */
    "SELECT id, CASE x WHEN 1 THEN 'one' WHEN 10 THEN 'ten' ELSE 'other' END FROM t ORDER BY id",
    "SELECT id, CASE i WHEN '2' THEN 'two' WHEN 'abc' THEN 'abc' ELSE '-' END FROM t ORDER BY id",
    "SELECT id, CASE b WHEN 2 THEN 'n' WHEN '2' THEN 's' ELSE '-' END FROM t ORDER BY id",
    "SELECT id, NULLIF(x, 1) FROM t ORDER BY id",
    /* joins on such columns */
    "SELECT a.id, c.id FROM t a JOIN t c ON a.x = c.i ORDER BY 1, 2",
    "SELECT a.id, c.id FROM t a JOIN t c ON a.b = c.r ORDER BY 1, 2",
    "SELECT a.id, c.id FROM t a LEFT JOIN t c ON a.x = c.n ORDER BY 1, 2",
    "SELECT a.id, c.id FROM t a, t c WHERE a.v = c.i ORDER BY 1, 2",
    "SELECT id, w FROM t JOIN u ON u.k = t.i ORDER BY 1, 2",
    "SELECT id, k FROM t LEFT JOIN u ON t.x = u.w ORDER BY 1, 2",
    /* ordering, DISTINCT, GROUP BY over mixed values */
    "SELECT b FROM t ORDER BY b, id",
    "SELECT DISTINCT b FROM t ORDER BY 1",
    "SELECT i, COUNT(*) FROM t GROUP BY i ORDER BY i",
    "SELECT n FROM t ORDER BY n DESC, id",
    "SELECT DISTINCT n FROM t ORDER BY n",
    "SELECT i FROM t ORDER BY i DESC",
    /* derived tables keep their columns' affinity */
    "SELECT id FROM (SELECT id, x AS y FROM t) AS d WHERE y = 2",
    "SELECT id FROM (SELECT id, i + 0 AS y FROM t) AS d WHERE y = '2'",
    /* compound SELECTs mixing numbers and text */
    "SELECT i FROM t UNION SELECT x FROM t ORDER BY 1",
    "SELECT 1 UNION SELECT 'a' ORDER BY 1",
    "SELECT i FROM t UNION ALL SELECT x FROM t ORDER BY 1",
    "SELECT x FROM t EXCEPT SELECT i FROM t ORDER BY 1",
    "SELECT x FROM t INTERSECT SELECT i FROM t ORDER BY 1",
    "SELECT 2 UNION SELECT '2' UNION SELECT 2.0 ORDER BY 1",
    "SELECT 'b' UNION SELECT 3 UNION SELECT 'a' UNION SELECT 1.5 ORDER BY 1 DESC",
    "SELECT i FROM t UNION SELECT x FROM t",
    "SELECT id, x FROM t WHERE id < 4 UNION SELECT w, k FROM u ORDER BY 1, 2",
    "SELECT * FROM (SELECT i AS c FROM t UNION SELECT k FROM u) AS d ORDER BY c",
    /* IN (SELECT a column holding values of other types) */
    "SELECT id FROM t WHERE i IN (SELECT i FROM t AS t2) ORDER BY 1",
    "SELECT id FROM t WHERE b IN (SELECT b FROM t AS t2) ORDER BY 1",
    "SELECT id, 2.0 IN (SELECT r FROM t AS t2), 'abc' IN (SELECT i FROM t AS t2) FROM t ORDER BY 1",
    "SELECT id, i NOT IN (SELECT w FROM u WHERE w IS NOT NULL) FROM t ORDER BY 1",
    "SELECT id, i NOT IN (SELECT w FROM u) FROM t ORDER BY 1",
    "SELECT id FROM t WHERE i IN (SELECT t2.i FROM t AS t2 WHERE t2.id >= t.id) ORDER BY 1",
    "SELECT id FROM t WHERE b NOT IN (SELECT t2.b FROM t AS t2 WHERE t2.id <> t.id) ORDER BY 1",
    "SELECT id FROM t WHERE r IN (SELECT t2.r FROM t AS t2 WHERE t2.id = t.id) ORDER BY 1",
    "SELECT id FROM t WHERE i IN (SELECT u.w FROM u WHERE u.w = t.id) ORDER BY 1",
    /* CAST(x AS NUMERIC) of an integral value is an INTEGER to SQLite */
    "SELECT id FROM t WHERE CAST(i AS TEXT) IN (CAST(2 AS NUMERIC)) ORDER BY 1",
    "SELECT id FROM t WHERE x = CAST(10 AS NUMERIC) ORDER BY 1",
    "SELECT id FROM t WHERE x = CAST('7.0' AS NUMERIC) ORDER BY 1",
    "SELECT id FROM t WHERE x = CAST(7.0 AS NUMERIC) ORDER BY 1",
    /* an untyped NULL against operands that mix numbers and text */
    "SELECT NULL BETWEEN 'abc' AND 0.5, NULL NOT IN (1, 'a'), NULL IN (SELECT x FROM t)",
    "SELECT CASE NULL WHEN 1 THEN 'n' WHEN 'a' THEN 's' ELSE 'e' END",
    /* a compound's sides of two number types keep rows of other types */
    "SELECT r FROM t UNION ALL SELECT i FROM t ORDER BY 1",
    "SELECT i FROM t UNION SELECT r FROM t",
    "SELECT r, i FROM t INTERSECT SELECT i, r FROM t",
    "SELECT i, 1.5 FROM t EXCEPT SELECT r, 1.5 FROM t WHERE id > 5",
    "SELECT 2.5 UNION SELECT i FROM t ORDER BY 1",
    "SELECT n FROM t UNION SELECT i FROM t ORDER BY 1",
    "SELECT 5.0 UNION SELECT b FROM t ORDER BY 1",
    "SELECT 1.5 UNION SELECT r FROM t ORDER BY 1",
    "SELECT 10.5 UNION SELECT n FROM t ORDER BY 1",
    "SELECT 2.0 UNION SELECT w FROM u ORDER BY 1",
    "SELECT -3.25 INTERSECT SELECT n FROM t",
    /* CASE, COALESCE, IFNULL, IIF, NULLIF mixing numbers and text */
    "SELECT id, CASE WHEN id < 3 THEN i ELSE x END FROM t ORDER BY 1",
    "SELECT id, CASE WHEN id < 3 THEN 1 WHEN id < 6 THEN 'a' ELSE 2.5 END FROM t ORDER BY 1",
    "SELECT id, CASE i WHEN 1 THEN 'one' ELSE i END FROM t ORDER BY 1",
    "SELECT id, COALESCE(i, 'none'), IFNULL(x, 0), COALESCE(b, r, 'z') FROM t ORDER BY 1",
    "SELECT id, IIF(id % 2 = 0, id, 'odd') FROM t ORDER BY 1",
    "SELECT id, NULLIF(CASE WHEN id > 4 THEN id ELSE 'x' END, 6) FROM t ORDER BY 1",
    "SELECT id FROM t WHERE CASE WHEN id < 5 THEN id ELSE 'a' END = 3 ORDER BY 1",
    "SELECT id FROM t WHERE COALESCE(i, 'z') > 5 ORDER BY 1",
    "SELECT id FROM t WHERE IIF(id > 3, 'b', id) IN (1, 'b') ORDER BY 1",
    "SELECT id, CASE WHEN id < 5 THEN id ELSE 'a' END AS c FROM t ORDER BY c, id",
    "SELECT DISTINCT CASE WHEN id < 5 THEN 1 ELSE '1' END FROM t ORDER BY 1",
    "SELECT CASE WHEN id < 5 THEN 1 ELSE 'x' END AS k, COUNT(*) FROM t GROUP BY k ORDER BY 1",
    "SELECT id, upper(CASE WHEN id < 5 THEN 2.0 ELSE 'x' END) FROM t ORDER BY 1",
    "SELECT id, COALESCE(NULL, CASE WHEN id > 2 THEN 7 ELSE 'q' END) FROM t ORDER BY 1",
    "SELECT id, COALESCE(i, x) FROM t ORDER BY 1",
    "SELECT id, CASE b WHEN 5 THEN 'five' WHEN 10 THEN 'ten' END FROM t ORDER BY 1",
    ("SELECT id, c FROM (SELECT id, CASE WHEN id < 5 THEN id ELSE 'a' END AS c FROM t) AS d "
     "WHERE c = 3 OR c = 'a' ORDER BY 1"),
    "SELECT c, COUNT(*) FROM (SELECT COALESCE(i, 'none') AS c FROM t) AS d GROUP BY c ORDER BY 1",
    "SELECT COALESCE(i, 'none') FROM t UNION SELECT r FROM t ORDER BY 1",
    "SELECT id FROM t WHERE i IN (SELECT CASE WHEN w > 5 THEN w ELSE k END FROM u) ORDER BY 1",
    "SELECT id, CASE WHEN id < 5 THEN 2.0 ELSE 'x' END || 'y', length(COALESCE(r, 'abc')) FROM t ORDER BY 1",
    "SELECT id FROM t WHERE COALESCE(r, 'q') LIKE '1%' ORDER BY 1",
    "SELECT id, CASE r WHEN 2 THEN 'two' WHEN 0.5 THEN 'half' END FROM t ORDER BY 1",
    /* ORDER BY a column the select list does not show */
    "SELECT id FROM t ORDER BY i DESC, id",
    "SELECT id FROM t ORDER BY b, id",
    "SELECT id, (SELECT COUNT(*) FROM u WHERE u.w = t.id) FROM t ORDER BY i DESC, 2, id",
};

typedef struct rows {
    char **v;
    size_t n, cap;
} rows;

static void rows_add(rows *r, const char *s)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 16;
        r->v = realloc(r->v, r->cap * sizeof *r->v);
        assert_non_null(r->v);
    }
    r->v[r->n] = strdup(s);
    assert_non_null(r->v[r->n]);
    r->n++;
}

static void rows_free(rows *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->v[i]);
    free(r->v);
    memset(r, 0, sizeof *r);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Append one value to line (room for `cap`). */
static void put(char *line, size_t cap, const char *fmt, ...)
{
    size_t len = strlen(line);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + len, cap - len, fmt, ap);
    va_end(ap);
}

static void put_bytes(char *line, size_t cap, const void *p, size_t n, bool text)
{
    const unsigned char *s = p;
    if (text) {
        put(line, cap, "'%.*s'", (int)n, (const char *)s);
        return;
    }
    put(line, cap, "x'");
    for (size_t i = 0; i < n; i++)
        put(line, cap, "%02X", s[i]);
    put(line, cap, "'");
}

static int lector_run(const char *sql, rows *out, char *msg, size_t cap)
{
    sql_stmt *st;
    sql_cursor *cur;
    lt_error err;
    lt_error_clear(&err);
    if (sql_prepare(src, sql, strlen(sql), &st, &err) != 0) {
        snprintf(msg, cap, "prepare: %s %.400s", err.sqlstate, err.message);
        return -1;
    }
    if (sql_execute(st, NULL, 0, &cur, &err) != 0) {
        snprintf(msg, cap, "execute: %s %.400s", err.sqlstate, err.message);
        sql_stmt_free(st);
        return -1;
    }
    int rc = 0;
    for (;;) {
        lt_batch *b;
        if (sql_cursor_next(cur, &b, &err) != 0) {
            snprintf(msg, cap, "fetch: %s %.400s", err.sqlstate, err.message);
            rc = -1;
            break;
        }
        if (b->count == 0)
            break;
        for (uint32_t r = 0; r < b->count; r++) {
            char line[512] = "";
            for (uint32_t c = 0; c < b->ncols; c++) {
                lt_value v;
                lt_batch_get(b, c, r, &v);
                if (c)
                    put(line, sizeof line, "|");
                switch (v.type) {
                case LT_NULL:   put(line, sizeof line, "NULL"); break;
                case LT_BOOL:   put(line, sizeof line, "%d", v.u.b ? 1 : 0); break;
                case LT_INT64:  put(line, sizeof line, "%.12g", (double)v.u.i64); break;
                case LT_DOUBLE: put(line, sizeof line, "%.12g", v.u.f64); break;
                case LT_DECIMAL: {
                    double d = (double)v.u.dec;
                    for (int i = 0; i < v.scale; i++)
                        d /= 10;
                    put(line, sizeof line, "%.12g", d);
                    break;
                }
                case LT_TEXT:
                case LT_BINARY:
                    put_bytes(line, sizeof line, v.u.bytes.ptr, v.u.bytes.len, v.type == LT_TEXT);
                    break;
                default:        put(line, sizeof line, "<type %d>", (int)v.type); break;
                }
            }
            rows_add(out, line);
        }
    }
    sql_cursor_close(cur);
    sql_stmt_free(st);
    return rc;
}

static int sqlite_run(const char *sql, rows *out, char *msg, size_t cap)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        snprintf(msg, cap, "%s", sqlite3_errmsg(db));
        return -1;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        char line[512] = "";
        for (int c = 0; c < sqlite3_column_count(st); c++) {
            if (c)
                put(line, sizeof line, "|");
            switch (sqlite3_column_type(st, c)) {
            case SQLITE_NULL:    put(line, sizeof line, "NULL"); break;
            case SQLITE_INTEGER: put(line, sizeof line, "%.12g", (double)sqlite3_column_int64(st, c)); break;
            case SQLITE_FLOAT:   put(line, sizeof line, "%.12g", sqlite3_column_double(st, c)); break;
            case SQLITE_TEXT:
                put_bytes(line, sizeof line, sqlite3_column_text(st, c),
                          (size_t)sqlite3_column_bytes(st, c), true);
                break;
            default:
                put_bytes(line, sizeof line, sqlite3_column_blob(st, c),
                          (size_t)sqlite3_column_bytes(st, c), false);
                break;
            }
        }
        rows_add(out, line);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        snprintf(msg, cap, "%s", sqlite3_errmsg(db));
        return -1;
    }
    return 0;
}

static void join_rows(const rows *r, char *buf, size_t cap)
{
    buf[0] = '\0';
    for (size_t i = 0; i < r->n; i++)
        put(buf, cap, "%s%s", i ? ";" : "", r->v[i]);
}

static int setup(void **state)
{
    (void)state;
    snprintf(db_path, sizeof db_path, "/tmp/lector-affinity-%ld.db", (long)getpid());
    unlink(db_path);
    if (sqlite3_open(db_path, &db) != SQLITE_OK)
        return -1;
    for (size_t i = 0; i < sizeof schema / sizeof schema[0]; i++)
        if (sqlite3_exec(db, schema[i], NULL, NULL, NULL) != SQLITE_OK)
            return -1;
    lt_error err;
    if (lt_source_open(db_path, NULL, &src, &err) != 0) {
        fprintf(stderr, "cannot open %s: %s\n", db_path, err.message);
        return -1;
    }
    return src->dialect == LT_DIALECT_SQLITE ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    lt_source_close(src);
    sqlite3_close(db);
    unlink(db_path);
    return 0;
}

/* Every query of the table gives SQLite's result. */
static void test_against_sqlite(void **state)
{
    (void)state;
    size_t nq = sizeof queries / sizeof queries[0], failed = 0;
    assert_true(nq >= 60);
    for (size_t q = 0; q < nq; q++) {
        rows a = {0}, b = {0};
        char ma[512] = "", mb[512] = "";
        int ra = lector_run(queries[q], &a, ma, sizeof ma);
        int rb = sqlite_run(queries[q], &b, mb, sizeof mb);
        bool ok;
        if (ra != 0 || rb != 0) {
            ok = false;
        } else {
            if (strstr(queries[q], "ORDER BY") == NULL) {
                if (a.n > 1)
                    qsort(a.v, a.n, sizeof *a.v, cmp_str);
                if (b.n > 1)
                    qsort(b.v, b.n, sizeof *b.v, cmp_str);
            }
            ok = a.n == b.n;
            for (size_t i = 0; ok && i < a.n; i++)
                ok = strcmp(a.v[i], b.v[i]) == 0;
        }
        if (!ok) {
            char ja[4096], jb[4096];
            join_rows(&a, ja, sizeof ja);
            join_rows(&b, jb, sizeof jb);
            print_message("MISMATCH %s\n  lector: %s%s\n  sqlite: %s%s\n", queries[q],
                          ra ? ma : "", ra ? "" : ja, rb ? mb : "", rb ? "" : jb);
            failed++;
        }
        rows_free(&a);
        rows_free(&b);
    }
    if (failed)
        fail_msg("%zu of %zu queries differ from SQLite", failed, nq);
}

/* Other dialects keep the typed rules: a TEXT column against a number is
** the clear 42000 there. */
static void test_standard_dialect_unchanged(void **state)
{
    (void)state;
    rows a = {0};
    char msg[512] = "";
    src->dialect = LT_DIALECT_STANDARD;
    int rc = lector_run("SELECT id FROM t WHERE x = 1", &a, msg, sizeof msg);
    src->dialect = LT_DIALECT_SQLITE;
    rows_free(&a);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(msg, "42000"));
    assert_non_null(strstr(msg, "cannot compare"));

    src->dialect = LT_DIALECT_STANDARD;
    rc = lector_run("SELECT i FROM t UNION SELECT x FROM t", &a, msg, sizeof msg);
    src->dialect = LT_DIALECT_SQLITE;
    rows_free(&a);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(msg, "42000"));
    assert_non_null(strstr(msg, "cannot mix INTEGER and TEXT in column 1 of a UNION"));

    src->dialect = LT_DIALECT_STANDARD;
    rc = lector_run("SELECT CASE WHEN id < 3 THEN i ELSE x END FROM t", &a, msg, sizeof msg);
    src->dialect = LT_DIALECT_SQLITE;
    rows_free(&a);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(msg, "42000"));
    assert_non_null(strstr(msg, "cannot mix INTEGER and TEXT"));
}

/* SQLite: MIN/MAX of values mixing numbers and text is refused, not
** answered wrongly (the aggregate's state holds one type). */
static void test_dynamic_min_refused(void **state)
{
    (void)state;
    rows a = {0};
    char msg[512] = "";
    int rc = lector_run("SELECT MIN(COALESCE(i, 'z')) FROM t", &a, msg, sizeof msg);
    rows_free(&a);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(msg, "42000"));
    assert_non_null(strstr(msg, "MIN of values that mix numbers and text is not supported"));
}

/* A dynamically typed compound column is described as text; its values
** keep their own types (an INTEGER 1 stays a number). */
static void test_compound_description(void **state)
{
    (void)state;
    sql_stmt *st;
    sql_cursor *cur;
    lt_error err;
    const char *sql = "SELECT 1 UNION ALL SELECT 'a' UNION ALL SELECT 2.5e0";
    assert_int_equal(sql_prepare(src, sql, strlen(sql), &st, &err), 0);
    assert_int_equal(sql_column_at(st, 0)->desc.type, LT_TEXT);
    assert_int_equal(sql_execute(st, NULL, 0, &cur, &err), 0);
    lt_type seen[4];
    uint32_t n = 0;
    for (;;) {
        lt_batch *b;
        assert_int_equal(sql_cursor_next(cur, &b, &err), 0);
        if (b->count == 0)
            break;
        for (uint32_t r = 0; r < b->count && n < 4; r++) {
            lt_value v;
            lt_batch_get(b, 0, r, &v);
            seen[n++] = v.type;
        }
    }
    assert_int_equal(n, 3);
    assert_int_equal(seen[0], LT_INT64);
    assert_int_equal(seen[1], LT_TEXT);
    assert_int_equal(seen[2], LT_DOUBLE);
    sql_cursor_close(cur);
    sql_stmt_free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_sqlite),
        cmocka_unit_test(test_standard_dialect_unchanged),
        cmocka_unit_test(test_compound_description),
        cmocka_unit_test(test_dynamic_min_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
