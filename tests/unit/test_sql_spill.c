/*
** test_sql_spill.c — operators past the memory budget (spill.c): the sort
** writes sorted runs to temporary files and merges them, giving exactly the
** rows and the order of the in-memory sort (ties included); GROUP BY and
** hash joins split their rows into partitions on temporary files, giving
** the rows of the in-memory path (in another order); a temporary directory
** they cannot write to fails with a clear error naming it, and a key with
** more rows than the budget fails with HY001 saying so.
*/
#include "test_sql_harness.h"

#include <stdlib.h>
#ifndef _WIN32
#include <signal.h>
#include <sys/resource.h>
#endif

#define KIB ((uint64_t)1024)

/* "big" (table 14): NBIG generated rows in batches of 1000 (not a multiple of
** the engine's), with text of mixed case, NULLs, duplicates and a
** dynamically typed column, as SQLite gives it:
**   id 1..NBIG; t = word + (i % 97), mixed case, NULL when i % 13 == 0;
**   k = i * 7919 % 101, NULL when i % 17 == 0; x = (i % 50) / 3.0;
**   v INT64 holding i % 5 (0), text 'w<i % 7>' (1), 2.5 * (i % 3) (2),
**   NULL (3) or a DECIMAL (4), by i % 5. */
#define NBIG 30000
static const char *words[] = {"apple", "Apple", "BANANA", "banana", "cherry", "Cherry", "date",
                              "ÉCLAIR", "éclair", "zeta", ""};
static lt_column big_cols[] = {
    {"id", LT_INT64, 10, 0, false, false, "INTEGER"},
    {"t", LT_TEXT, 20, 0, true, false, "VARCHAR"},
    {"k", LT_INT64, 10, 0, true, false, "INTEGER"},
    {"x", LT_DOUBLE, 15, 0, true, false, "DOUBLE"},
    {"v", LT_INT64, 19, 0, true, false, "INTEGER"},
};

/* Table column c of row i into column `at`, row `row` of b. */
static void big_value(uint32_t i, uint32_t c, lt_batch *b, uint32_t at, uint32_t row)
{
    lt_value v;
    char text[32];
    memset(&v, 0, sizeof v);
    switch (c) {
    case 0: v.type = LT_INT64; v.u.i64 = i; break;
    case 1:
        if (i % 13 != 0) {
            int n = snprintf(text, sizeof text, "%s%u", words[i % 11], i % 97);
            v.type = LT_TEXT;
            v.u.bytes.ptr = lt_arena_strndup(&b->arena, text, (size_t)n);
            v.u.bytes.len = (uint32_t)n;
        }
        break;
    case 2: if (i % 17 != 0) { v.type = LT_INT64; v.u.i64 = (int64_t)i * 7919 % 101; } break;
    case 3: v.type = LT_DOUBLE; v.u.f64 = (i % 50) / 3.0; break;
    case 4: {
        lt_vector *vec = &b->cols[at];
        if (i % 5 == 0 || i % 5 == 3) {
            if (i % 5 == 0) {
                v.type = LT_INT64;
                v.u.i64 = i % 5;
            }
            break;
        }
        if (vec->tags == NULL) {
            vec->tags = lt_arena_alloc(&b->arena, b->capacity);
            vec->other = lt_arena_alloc(&b->arena, b->capacity * sizeof *vec->other);
            memset(vec->tags, 0, b->capacity);
        }
        lt_value *o = &vec->other[row];
        memset(o, 0, sizeof *o);
        if (i % 5 == 1) {
            int n = snprintf(text, sizeof text, "w%u", i % 7);
            o->type = LT_TEXT;
            o->u.bytes.ptr = lt_arena_strndup(&b->arena, text, (size_t)n);
            o->u.bytes.len = (uint32_t)n;
        } else if (i % 5 == 2) {
            o->type = LT_DOUBLE;
            o->u.f64 = 2.5 * (i % 3);
        } else {
            o->type = LT_DECIMAL;
            o->scale = 2;
            o->u.dec = (lt_int128)(i % 9) * 125;
        }
        vec->nulls[row] = 0;
        vec->tags[row] = (uint8_t)o->type;
        return;
    }
    }
    lt_batch_set(b, at, row, &v);
}

static int big_scan_next(lt_scan *scan, lt_batch *b, lt_error *e)
{
    test_scan *s = (test_scan *)scan;
    if (s->spec->table != 14)
        return ts_scan_next(scan, b, e);
    lt_batch_reset(b);
    uint32_t cap = b->capacity < 1000 ? b->capacity : 1000;
    while (b->count < cap && s->next < NBIG) {
        uint32_t i = ++s->next;
        for (uint32_t c = 0; c < s->spec->ncols; c++)
            big_value(i, s->spec->cols[c], b, c, b->count);
        b->count++;
    }
    return 0;
}

static const lt_reader big_reader = {
    .name = "test", .close = ts_close, .scan_open = ts_scan_open, .scan_next = big_scan_next,
    .scan_close = ts_scan_close,
};

static int setup_big(void **state)
{
    setup_default(state);
    source.base.reader = &big_reader;
    source_add_views(); /* tables 6-13 */
    source.tables[14] = (lt_table){.name = "big", .kind = "TABLE", .ncols = 5, .cols = big_cols,
                                   .row_estimate = NBIG};
    source.base.ntables = 15;
    return 0;
}

#define OUT_CAP (8u << 20)
static char *limited, *unlimited;

/* Run `sql` with a limit of `limit` bytes (0: none) into out. */
static int run_into(const char *sql, uint64_t limit, char *out)
{
    return run_query(&source.base, sql, NULL, 0, limit, out, OUT_CAP, &err);
}

/* `sql` within `limit` writes temporary files: with a temporary directory
** that does not exist it fails naming it. */
static void expect_spills(const char *sql, uint64_t limit)
{
    const char *old = getenv("TMPDIR");
    char *saved = old != NULL ? strdup(old) : NULL;
    setenv("TMPDIR", "/nonexistent-lector-dir", 1);
    int rc = run_into(sql, limit, limited);
    if (saved != NULL)
        setenv("TMPDIR", saved, 1);
    else
        unsetenv("TMPDIR");
    free(saved);
    if (rc == 0)
        fail_msg("%s within %llu: did not spill", sql, (unsigned long long)limit);
    assert_string_equal(err.sqlstate, "HY000");
    if (strstr(err.message, "'/nonexistent-lector-dir'") == NULL ||
        strstr(err.message, "TMPDIR") == NULL)
        fail_msg("unclear message: %s", err.message);
}

/* `sql` within `limit` gives what it gives without one; and it did spill. */
static void expect_same(const char *sql, uint64_t limit)
{
    if (run_into(sql, 0, unlimited) != 0)
        fail_msg("%s: %s %s", sql, err.sqlstate, err.message);
    if (run_into(sql, limit, limited) != 0)
        fail_msg("%s within %llu: %s %s", sql, (unsigned long long)limit, err.sqlstate,
                 err.message);
    assert_true(strlen(unlimited) < OUT_CAP - 1);
    if (strcmp(limited, unlimited) != 0) {
        size_t i = 0;
        while (limited[i] == unlimited[i])
            i++;
        fail_msg("%s: differs at byte %zu:\n  spilled:   %.80s\n  in memory: %.80s", sql, i,
                 limited + i, unlimited + i);
    }
    expect_spills(sql, limit);
}

static int compare_rows(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The rows of `out` ("a|b;c|d") sorted, in place (rows hold no ';'). */
static void sort_rows(char *out)
{
    size_t n = 1, len = strlen(out);
    if (len == 0)
        return;
    for (size_t i = 0; i < len; i++)
        n += out[i] == ';';
    char **rows = malloc(n * sizeof *rows), *copy = malloc(len + 1);
    assert_non_null(rows);
    assert_non_null(copy);
    memcpy(copy, out, len + 1);
    size_t k = 0;
    for (char *p = copy, *end; p != NULL; p = end) {
        end = strchr(p, ';');
        if (end != NULL)
            *end++ = '\0';
        rows[k++] = p;
    }
    qsort(rows, n, sizeof *rows, compare_rows);
    size_t at = 0;
    for (size_t i = 0; i < n; i++)
        at += (size_t)sprintf(out + at, "%s%s", i ? ";" : "", rows[i]);
    free(rows);
    free(copy);
}

/* `sql` (without ORDER BY) within `limit` gives the rows it gives without
** one, in any order; it did spill; and `rows` of them. */
static void expect_same_rows(const char *sql, uint64_t limit, size_t rows)
{
    if (run_into(sql, 0, unlimited) != 0)
        fail_msg("%s: %s %s", sql, err.sqlstate, err.message);
    if (run_into(sql, limit, limited) != 0)
        fail_msg("%s within %llu: %s %s", sql, (unsigned long long)limit, err.sqlstate,
                 err.message);
    assert_true(strlen(unlimited) < OUT_CAP - 1);
    size_t n = unlimited[0] != '\0';
    for (const char *p = unlimited; *p; p++)
        n += *p == ';';
    if (n != rows)
        fail_msg("%s: %zu rows, expected %zu", sql, n, rows);
    sort_rows(unlimited);
    sort_rows(limited);
    if (strcmp(limited, unlimited) != 0) {
        size_t i = 0;
        while (limited[i] == unlimited[i])
            i++;
        fail_msg("%s: differs at byte %zu:\n  spilled:   %.80s\n  in memory: %.80s", sql, i,
                 limited + i, unlimited + i);
    }
    expect_spills(sql, limit);
}

/* GROUP BY: many groups, aggregates with state (AVG, SUM of decimals,
** MIN/MAX of text, COUNT(DISTINCT)), NULL and dynamically typed keys. */
static void test_group_by(void **state)
{
    (void)state;
    expect_same_rows("SELECT id % 5000, COUNT(*), SUM(k), AVG(x), MIN(t), MAX(t) FROM big "
                     "GROUP BY id % 5000", 256 * KIB, 5000);
    expect_same_rows("SELECT id, t, COUNT(*) FROM big GROUP BY id, t", 256 * KIB, 30000);
    expect_same_rows("SELECT id % 3000, COUNT(DISTINCT k), AVG(k), SUM(x), MAX(v), "
                     "COUNT(DISTINCT t) FROM big GROUP BY id % 3000", 512 * KIB, 3000);
    expect_same_rows("SELECT v, id % 1000, COUNT(*), MIN(t) FROM big GROUP BY v, id % 1000",
                     128 * KIB, 4200);
    expect_same_rows("SELECT k, id % 300, COUNT(*), AVG(id) FROM big GROUP BY k, id % 300 "
                     "HAVING COUNT(*) > 1", 128 * KIB, 300);
    expect_same_rows("SELECT i % 2000, SUM(d), AVG(d), MIN(s), MAX(s), COUNT(DISTINCT g) "
                     "FROM nums GROUP BY i % 2000", 192 * KIB, 2000);
    /* partitions split again (a small budget, many groups) */
    expect_same_rows("SELECT id, COUNT(*), MAX(t) FROM big GROUP BY id", 48 * KIB, 30000);
    /* and the groups feed a sort that spills too */
    expect_same("SELECT id % 7000 AS m, COUNT(*), MAX(t) FROM big GROUP BY id % 7000 "
                "ORDER BY 3, 1", 512 * KIB);
}

/* Joins of each kind, with NULL keys, duplicate keys, a skewed key, two
** keys and residual conditions. */
static void test_joins(void **state)
{
    (void)state;
    expect_same_rows("SELECT a.id, b.t FROM big a JOIN big b ON a.id = b.id", 256 * KIB,
                     30000);
    expect_same_rows("SELECT a.id, b.id FROM big a LEFT JOIN big b ON a.k = b.id", 256 * KIB,
                     30000);
    expect_same_rows("SELECT a.id, b.id FROM big a RIGHT JOIN big b ON a.id = b.k", 256 * KIB,
                     30000);
    expect_same_rows("SELECT a.id, b.id FROM big a FULL JOIN big b ON a.id = b.k + 20000",
                     256 * KIB, 59899);
    expect_same_rows("SELECT a.id, b.id, b.v FROM big a JOIN big b ON a.id = b.k "
                     "WHERE b.id < 3000", 128 * KIB, 2795);
    expect_same_rows("SELECT a.id, b.id FROM big a LEFT JOIN big b ON a.id = b.k "
                     "AND b.x > a.x WHERE a.id < 200", 128 * KIB, 13800);
    expect_same_rows("SELECT a.id, b.i FROM big a JOIN nums b ON a.k = b.g WHERE a.id < 30",
                     128 * KIB, 1298);
    expect_same_rows("SELECT a.id, b.id FROM big a JOIN big b ON a.k = b.k AND a.t = b.t",
                     256 * KIB, 26064);
    expect_same_rows("SELECT a.id, b.id FROM big a RIGHT JOIN big b ON a.id = b.k AND a.x < b.x",
                     256 * KIB, 30000);
    expect_same_rows("SELECT a.id, b.id FROM big a FULL JOIN big b ON a.id = b.k + 100 "
                     "AND a.x > b.x", 256 * KIB, 59902);
    expect_same_rows("SELECT a.id, b.id, c.t FROM big a JOIN big b ON a.id = b.id "
                     "LEFT JOIN big c ON b.k = c.id", 256 * KIB, 30000);
    /* partitions split again */
    expect_same_rows("SELECT a.id, b.t FROM big a JOIN big b ON a.id = b.id", 64 * KIB, 30000);
}

/* SELECT DISTINCT: rows with NULLs, dynamically typed values, text. */
static void test_distinct(void **state)
{
    (void)state;
    expect_same_rows("SELECT DISTINCT id % 7000, k FROM big", 128 * KIB, 30000);
    expect_same_rows("SELECT DISTINCT t, v FROM big", 256 * KIB, 13504);
    expect_same_rows("SELECT DISTINCT k, x, v FROM big", 128 * KIB, 16550);
    /* and feeding a sort */
    expect_same("SELECT DISTINCT id % 9000 AS m, t FROM big ORDER BY 2, 1", 512 * KIB);
}

/* Access: keys equal but for case group and join together. */
static void test_access_keys(void **state)
{
    (void)state;
    source.base.dialect = LT_DIALECT_ACCESS;
    expect_same_rows("SELECT t, id % 5, COUNT(*), MIN(id) FROM big GROUP BY t, id % 5", 128 * KIB,
                     3400);
    expect_same_rows("SELECT a.id, b.id FROM big a JOIN big b ON a.t = b.t WHERE a.id < 50",
                     128 * KIB, 2140);
    expect_same_rows("SELECT DISTINCT t, id % 5 FROM big", 128 * KIB, 3400);
    source.base.dialect = LT_DIALECT_SQLITE;
}

/* One key with more rows than the budget: split SQL_SPILL_DEPTH times in
** vain, then HY001 saying so; no GROUP BY: one group, nothing to split. */
static void test_one_key_too_big(void **state)
{
    (void)state;
    assert_int_equal(run_into("SELECT COUNT(*) FROM big a JOIN big b ON a.id % 2 = b.id % 2",
                              128 * KIB, limited), -1);
    assert_string_equal(err.sqlstate, "HY001");
    if (strstr(err.message, "to join 'big', even with its rows split into partitions on "
                            "temporary files (too many rows share one join key)") == NULL)
        fail_msg("unclear message: %s", err.message);
    assert_int_equal(run_into("SELECT id % 2, COUNT(DISTINCT t) FROM big GROUP BY id % 2",
                              32 * KIB, limited), -1);
    assert_string_equal(err.sqlstate, "HY001");
    assert_non_null(strstr(err.message, "to group the rows of 'big'"));
    assert_int_equal(run_into("SELECT COUNT(DISTINCT id) FROM big", 64 * KIB, limited), -1);
    assert_string_equal(err.sqlstate, "HY001");
    assert_non_null(strstr(err.message, "to group the rows of 'big'"));
}

static int alloc_outputs(void **state)
{
    (void)state;
    limited = malloc(OUT_CAP);
    unlimited = malloc(OUT_CAP);
    return limited == NULL || unlimited == NULL;
}

static int free_outputs(void **state)
{
    (void)state;
    free(limited);
    free(unlimited);
    return 0;
}

static void test_harness_tables(void **state)
{
    (void)state;
    assert_int_equal(run("SELECT COUNT(*), COUNT(t), COUNT(v) FROM big"), 0);
    assert_string_equal(result, "30000|27693|24000");
    expect_same("SELECT i, s, d FROM nums ORDER BY s DESC, i", 128 * KIB);
    expect_same("SELECT i, g, s FROM nums ORDER BY g NULLS FIRST, s DESC NULLS LAST", 128 * KIB);
    expect_same("SELECT * FROM nums ORDER BY f DESC", 128 * KIB);
    expect_same("SELECT s, g FROM nums ORDER BY s", 128 * KIB); /* ties keep input order */
    expect_same("SELECT a.i, b.Name FROM nums a JOIN People b ON a.g = b.id ORDER BY b.Name, a.i DESC",
                128 * KIB);
}

static void test_generated(void **state)
{
    (void)state;
    expect_same("SELECT id, t, k, x, v FROM big ORDER BY t, k DESC", 256 * KIB);
    expect_same("SELECT * FROM big ORDER BY k NULLS LAST, x DESC, t NULLS FIRST", 256 * KIB);
    expect_same("SELECT t, id FROM big ORDER BY t DESC NULLS LAST", 256 * KIB);
    expect_same("SELECT v, id FROM big ORDER BY v", 256 * KIB); /* dynamic types, ties */
    expect_same("SELECT x, t FROM big WHERE id % 3 <> 0 ORDER BY x, t", 192 * KIB);
    expect_same("SELECT id, t FROM big ORDER BY t LIMIT 5000000 OFFSET 10", 256 * KIB);
}

/* Access compares text without regard to case: the merge does too. */
static void test_access_dialect(void **state)
{
    (void)state;
    source.base.dialect = LT_DIALECT_ACCESS;
    expect_same("SELECT t, id FROM big ORDER BY t, id DESC", 256 * KIB);
    expect_same("SELECT t FROM big ORDER BY t DESC", 256 * KIB); /* case ties in input order */
    source.base.dialect = LT_DIALECT_SQLITE;
    expect_same("SELECT v, t FROM big ORDER BY v DESC, t", 256 * KIB);
}

/* A budget too small for even one run's store fails clearly, as before. */
static void test_too_small(void **state)
{
    (void)state;
    const char *sql = "SELECT i, s FROM nums ORDER BY s";
    assert_int_equal(run_into(sql, 8 * KIB, limited), -1);
    assert_string_equal(err.sqlstate, "HY001");
    assert_non_null(strstr(err.message, "to sort the rows of 'nums'"));
}

/* A full disk: files limited to 64 KiB (RLIMIT_FSIZE, its signal ignored,
** so writes past it fail with EFBIG): the run or the partition cannot be
** written, and the error says so, for what and where. */
static void test_write_fails(void **state)
{
    (void)state;
#ifndef _WIN32
    struct rlimit old, small;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    small = old;
    small.rlim_cur = 64 * KIB;
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    static const struct {
        const char *sql, *purpose;
        uint64_t limit;
    } cases[] = {
        {"SELECT id, t FROM big ORDER BY t", "for ORDER BY", 2 * 1024 * KIB},
        /* (partitions past 64 KiB: rows of every column) */
        {"SELECT id, t, MAX(x), MIN(v), SUM(k) FROM big GROUP BY id, t", "for GROUP BY",
         256 * KIB},
        {"SELECT a.*, b.* FROM big a JOIN big b ON a.id = b.id", "for a join", 256 * KIB},
        {"SELECT DISTINCT * FROM big", "for SELECT DISTINCT", 256 * KIB},
    };
    int rc[4];
    lt_error errs[4];
    for (int i = 0; i < 4; i++) {
        rc[i] = run_into(cases[i].sql, cases[i].limit, limited);
        errs[i] = err;
    }
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, was);
    for (int i = 0; i < 4; i++) {
        if (rc[i] != -1 || strcmp(errs[i].sqlstate, "HY000") != 0)
            fail_msg("%s: %d %s %s", cases[i].sql, rc[i], errs[i].sqlstate, errs[i].message);
        if (strstr(errs[i].message, "cannot write the temporary file") == NULL ||
            strstr(errs[i].message, cases[i].purpose) == NULL ||
            strstr(errs[i].message, "TMPDIR") == NULL)
            fail_msg("%s: unclear message: %s", cases[i].sql, errs[i].message);
    }
    /* and with room again it works */
    expect_same("SELECT id, t FROM big ORDER BY t", 2 * 1024 * KIB);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_harness_tables, setup_big),
        cmocka_unit_test_setup(test_generated, setup_big),
        cmocka_unit_test_setup(test_access_dialect, setup_big),
        cmocka_unit_test_setup(test_too_small, setup_big),
        cmocka_unit_test_setup(test_write_fails, setup_big),
        cmocka_unit_test_setup(test_group_by, setup_big),
        cmocka_unit_test_setup(test_joins, setup_big),
        cmocka_unit_test_setup(test_distinct, setup_big),
        cmocka_unit_test_setup(test_access_keys, setup_big),
        cmocka_unit_test_setup(test_one_key_too_big, setup_big),
    };
    return cmocka_run_group_tests(tests, alloc_outputs, free_outputs);
}
