/*
** test_sql_spill.c — ORDER BY past the memory budget (spill.c): the sort
** writes sorted runs to temporary files and merges them, giving exactly the
** rows and the order of the in-memory sort (ties included); a temporary
** directory it cannot write to fails with a clear error naming it.
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
    sql_stmt *st;
    sql_cursor *cur;
    out[0] = '\0';
    lt_error_clear(&err);
    if (sql_prepare(&source.base, sql, strlen(sql), &st, &err) != 0)
        return -1;
    sql_stmt_set_memory_limit(st, limit);
    int rc = sql_execute(st, NULL, 0, &cur, &err);
    if (rc == 0) {
        rc = drain(cur, out, OUT_CAP, &err);
        sql_cursor_close(cur);
    }
    sql_stmt_free(st);
    return rc;
}

/* `sql` within `limit` gives what it gives without one; and it did spill:
** with a temporary directory that does not exist it fails naming it. */
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
** so writes past it fail with EFBIG): the run cannot be written, and the
** error says so and where. */
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
    int rc = run_into("SELECT id, t FROM big ORDER BY t", 2 * 1024 * KIB, limited);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, was);
    assert_int_equal(rc, -1);
    assert_string_equal(err.sqlstate, "HY000");
    if (strstr(err.message, "cannot write the temporary file") == NULL ||
        strstr(err.message, "TMPDIR") == NULL)
        fail_msg("unclear message: %s", err.message);
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
    };
    return cmocka_run_group_tests(tests, alloc_outputs, free_outputs);
}
