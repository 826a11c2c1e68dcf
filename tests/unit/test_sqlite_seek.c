/*
** test_sqlite_seek.c — comparisons of the INTEGER PRIMARY KEY answered by a
** b-tree seek, and numeric equalities answered by a one-column index: every
** range, list or key gives exactly the rows a full scan filtered by hand
** gives, in the same order, the predicates are reported LT_PUSH_EXACT, and
** the seek enters only the pages on its way down.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "sqlite/sqlite.h"
#include "sqlite/sqlite_internal.h"

#define SQLITE_DIR LT_CORPUS_DIR "/sqlite"

/* Every key of column `col` of table `name` under the predicates, in scan
** order; *n the count.  Checks each predicate's `use` against `want_use`. */
static int64_t *scan_keys(lt_source *src, const char *name, uint32_t col, lt_pred *preds,
                          uint32_t npreds, lt_pushdown want_use, size_t *n)
{
    int64_t t = lt_source_find_table(src, name, strlen(name));
    assert_true(t >= 0);
    lt_scan_spec spec = {.table = (uint32_t)t, .ncols = 1, .cols = &col,
                         .npreds = npreds, .preds = preds, .limit = -1};
    lt_scan *scan = NULL;
    lt_error err;
    lt_error_clear(&err);
    if (src->reader->scan_open(src, &spec, &scan, &err) != 0)
        fail_msg("scan_open: %s", err.message);
    for (uint32_t i = 0; i < npreds; i++)
        assert_int_equal(preds[i].use, want_use);
    lt_type type = src->tables[t].cols[col].type;
    lt_batch *b = lt_batch_new(1, &type, NULL, 100);
    assert_non_null(b);
    size_t cap = 16;
    int64_t *keys = malloc(cap * sizeof *keys);
    *n = 0;
    for (;;) {
        if (src->reader->scan_next(scan, b, &err) != 0)
            fail_msg("scan_next: %s", err.message);
        if (b->count == 0)
            break;
        for (uint32_t r = 0; r < b->count; r++) {
            lt_value v;
            lt_batch_get(b, 0, r, &v);
            assert_int_equal(v.type, LT_INT64);
            if (*n == cap)
                keys = realloc(keys, (cap *= 2) * sizeof *keys);
            keys[(*n)++] = v.u.i64;
        }
    }
    lt_batch_free(b);
    src->reader->scan_close(scan);
    return keys;
}

static bool holds(lt_pred_op op, int64_t k, const int64_t *v)
{
    switch (op) {
    case LT_PRED_EQ: return k == v[0];
    case LT_PRED_LT: return k < v[0];
    case LT_PRED_LE: return k <= v[0];
    case LT_PRED_GT: return k > v[0];
    case LT_PRED_GE: return k >= v[0];
    case LT_PRED_BETWEEN: return k >= v[0] && k <= v[1];
    default: return false;
    }
}

/* One or two predicates on the key, against the hand-filtered full scan. */
static void check_range(lt_source *src, const char *table, uint32_t col, const int64_t *all,
                        size_t nall, lt_pred_op op1, int64_t a1, int64_t b1,
                        lt_pred_op op2, int64_t a2)
{
    lt_value v1[2] = {{.type = LT_INT64, .u.i64 = a1}, {.type = LT_INT64, .u.i64 = b1}};
    lt_value v2 = {.type = LT_INT64, .u.i64 = a2};
    lt_pred preds[2] = {
        {.col = col, .op = op1, .nvalues = op1 == LT_PRED_BETWEEN ? 2 : 1, .values = v1},
        {.col = col, .op = op2, .nvalues = 1, .values = &v2},
    };
    uint32_t npreds = op2 == LT_PRED_NE ? 1 : 2;
    size_t n;
    int64_t *got = scan_keys(src, table, col, preds, npreds, LT_PUSH_EXACT, &n);
    int64_t x1[2] = {a1, b1};
    size_t k = 0;
    for (size_t i = 0; i < nall; i++) {
        if (!holds(op1, all[i], x1) || (npreds == 2 && !holds(op2, all[i], &a2)))
            continue;
        if (k >= n || got[k] != all[i])
            fail_msg("%s: op %d %lld/%lld, op %d %lld: row %zu should be key %lld",
                     table, op1, (long long)a1, (long long)b1, op2, (long long)a2, k,
                     (long long)all[i]);
        k++;
    }
    if (k != n)
        fail_msg("%s: op %d %lld: %zu rows, want %zu", table, op1, (long long)a1, n, k);
    free(got);
}

static void check_table(const char *file, const char *table, const char *key)
{
    lt_source *src = NULL;
    lt_error err;
    lt_error_clear(&err);
    if (lt_source_open(file, NULL, &src, &err) != 0)
        fail_msg("open %s: %s", file, err.message);
    int64_t t = lt_source_find_table(src, table, strlen(table));
    assert_true(t >= 0);
    uint32_t col = UINT32_MAX;
    for (uint32_t c = 0; c < src->tables[t].ncols; c++)
        if (strcmp(src->tables[t].cols[c].name, key) == 0)
            col = c;
    assert_true(col != UINT32_MAX);
    size_t nall;
    int64_t *all = scan_keys(src, table, col, NULL, 0, LT_PUSH_UNUSED, &nall);
    assert_true(nall > 0);
    const int64_t edges[] = {INT64_MIN, INT64_MIN + 1, -1, 0, 1, INT64_MAX - 1, INT64_MAX};
    static const lt_pred_op ops[] = {LT_PRED_EQ, LT_PRED_LT, LT_PRED_LE, LT_PRED_GT, LT_PRED_GE};
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        /* every key, its neighbours, and the extremes */
        for (size_t i = 0; i < nall; i += nall > 300 ? 37 : 1)
            for (int d = -1; d <= 1; d++)
                if (!((all[i] == INT64_MIN && d < 0) || (all[i] == INT64_MAX && d > 0)))
                    check_range(src, table, col, all, nall, ops[o], all[i] + d, 0,
                                LT_PRED_NE, 0);
        for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++)
            check_range(src, table, col, all, nall, ops[o], edges[e], 0, LT_PRED_NE, 0);
    }
    /* ranges: BETWEEN, two bounds, an empty one */
    int64_t mid = all[nall / 2], last = all[nall - 1];
    check_range(src, table, col, all, nall, LT_PRED_BETWEEN, all[0], mid, LT_PRED_NE, 0);
    check_range(src, table, col, all, nall, LT_PRED_BETWEEN, mid, last, LT_PRED_NE, 0);
    check_range(src, table, col, all, nall, LT_PRED_BETWEEN, last, all[0], LT_PRED_NE, 0);
    check_range(src, table, col, all, nall, LT_PRED_GT, all[0], 0, LT_PRED_LT, last);
    check_range(src, table, col, all, nall, LT_PRED_GE, mid, 0, LT_PRED_LE, mid);
    check_range(src, table, col, all, nall, LT_PRED_EQ, mid, 0, LT_PRED_EQ, last);
    check_range(src, table, col, all, nall, LT_PRED_BETWEEN, INT64_MIN, INT64_MAX,
                LT_PRED_NE, 0);

    /* Only what the engine can trust exactly is taken: a text constant is
    ** left to it. */
    lt_value text = {.type = LT_TEXT, .u.bytes = {"1", 1}};
    lt_pred p = {.col = col, .op = LT_PRED_EQ, .nvalues = 1, .values = &text};
    size_t n;
    free(scan_keys(src, table, col, &p, 1, LT_PUSH_UNUSED, &n));
    assert_int_equal(n, nall);

    /* IN: unsorted, repeated, absent keys; one seek each, rowid order */
    lt_value list[6] = {
        {.type = LT_INT64, .u.i64 = last}, {.type = LT_INT64, .u.i64 = mid},
        {.type = LT_INT64, .u.i64 = all[0]}, {.type = LT_INT64, .u.i64 = mid},
        {.type = LT_INT64, .u.i64 = INT64_MAX == last ? INT64_MIN : INT64_MAX},
        {.type = LT_INT64, .u.i64 = mid == 0 ? 123456789 : -mid},
    };
    lt_pred in[2] = {{.col = col, .op = LT_PRED_IN, .nvalues = 6, .values = list}};
    int64_t *got = scan_keys(src, table, col, in, 1, LT_PUSH_EXACT, &n);
    size_t want = 0;
    for (size_t i = 0; i < nall; i++) {
        bool listed = false;
        for (int k = 0; k < 6; k++)
            listed |= all[i] == list[k].u.i64;
        if (listed) {
            assert_true(want < n);
            assert_true(got[want] == all[i]);
            want++;
        }
    }
    assert_int_equal(n, want);
    assert_true(n >= 2 || nall < 2);
    free(got);
    /* with a range: only the listed keys inside it */
    lt_value bound = {.type = LT_INT64, .u.i64 = mid};
    in[1] = (lt_pred){.col = col, .op = LT_PRED_GE, .nvalues = 1, .values = &bound};
    got = scan_keys(src, table, col, in, 2, LT_PUSH_EXACT, &n);
    for (size_t i = 0; i < n; i++)
        assert_true(got[i] >= mid && (got[i] == mid || got[i] == last));
    assert_int_equal(n, mid == last ? 1 : 2);
    free(got);
    free(all);
    lt_source_close(src);
}

static void test_ipk_extremes(void **state)
{
    (void)state;
    /* rowids across the whole signed range, PRIMARY KEY(a DESC) alias */
    check_table(SQLITE_DIR "/generated/ipk_alias.db", "a9", "a");
    check_table(SQLITE_DIR "/generated/ipk_alias.db", "a1", "id");
}

static void test_multi_level(void **state)
{
    (void)state;
    check_table(SQLITE_DIR "/realworld/Chinook_Sqlite.sqlite", "InvoiceLine", "InvoiceLineId");
    check_table(SQLITE_DIR "/realworld/Chinook_Sqlite.sqlite", "Track", "TrackId");
}

/* The seek walks down one path: a handful of pages, not the table. */
static void test_seek_pages(void **state)
{
    (void)state;
    lt_source *src = NULL;
    lt_error err;
    lt_error_clear(&err);
    assert_int_equal(lt_source_open(SQLITE_DIR "/realworld/Chinook_Sqlite.sqlite", NULL, &src,
                                    &err), 0);
    const sqlite_source *s = (const sqlite_source *)src;
    int64_t t = lt_source_find_table(src, "Track", 5);
    assert_true(t >= 0);
    sqlite_cursor c;
    assert_int_equal(sqlite_cursor_open(&c, &s->db, s->tables[t].root, false, &err), 0);
    assert_int_equal(sqlite_cursor_seek(&c, 3000, &err), 0);
    assert_true(c.depth >= 2);           /* 3503 rows do not fit one page */
    assert_true(c.visited == (uint64_t)c.depth);
    sqlite_cell cell;
    assert_int_equal(sqlite_cursor_next(&c, &cell, &err), 1);
    assert_int_equal(cell.rowid, 3000);
    int64_t before = cell.rowid;
    int rows = 1;
    while (sqlite_cursor_next(&c, &cell, &err) == 1) {
        assert_true(cell.rowid > before);
        before = cell.rowid;
        rows++;
    }
    assert_int_equal(rows, 504);
    lt_source_close(src);
}

/* Rows (rowid, value) of `col` in scan order, under an optional predicate. */
typedef struct pair { int64_t rowid; bool null; int64_t v; } pair;

static pair *scan_pairs(lt_source *src, int64_t t, uint32_t rowid_col, uint32_t col,
                        lt_pred *pred, size_t *n)
{
    uint32_t cols[2] = {rowid_col, col};
    lt_scan_spec spec = {.table = (uint32_t)t, .ncols = 2, .cols = cols,
                         .npreds = pred ? 1 : 0, .preds = pred, .limit = -1};
    lt_scan *scan = NULL;
    lt_error err;
    lt_error_clear(&err);
    if (src->reader->scan_open(src, &spec, &scan, &err) != 0)
        fail_msg("scan_open: %s", err.message);
    lt_type types[2] = {LT_INT64, src->tables[t].cols[col].type};
    lt_batch *b = lt_batch_new(2, types, NULL, 64);
    size_t cap = 64;
    pair *out = malloc(cap * sizeof *out);
    *n = 0;
    for (;;) {
        if (src->reader->scan_next(scan, b, &err) != 0)
            fail_msg("scan_next: %s", err.message);
        if (b->count == 0)
            break;
        for (uint32_t r = 0; r < b->count; r++) {
            lt_value k, v;
            lt_batch_get(b, 0, r, &k);
            lt_batch_get(b, 1, r, &v);
            if (*n == cap)
                out = realloc(out, (cap *= 2) * sizeof *out);
            out[*n].rowid = k.u.i64;
            out[*n].null = v.type == LT_NULL;
            out[*n].v = v.type == LT_INT64 ? v.u.i64 : INT64_MIN;
            (*n)++;
        }
    }
    lt_batch_free(b);
    src->reader->scan_close(scan);
    return out;
}

static uint32_t col_named(const lt_table *t, const char *name)
{
    for (uint32_t c = 0; c < t->ncols; c++)
        if (strcmp(t->cols[c].name, name) == 0)
            return c;
    fail_msg("no column %s", name);
    return 0;
}

/* col = K through a one-column index: the rows a filtered full scan gives,
** in the same (rowid) order. */
static void check_index(const char *table, const char *rowid, const char *column)
{
    lt_source *src = NULL;
    lt_error err;
    lt_error_clear(&err);
    assert_int_equal(lt_source_open(SQLITE_DIR "/realworld/Chinook_Sqlite.sqlite", NULL, &src,
                                    &err), 0);
    int64_t t = lt_source_find_table(src, table, strlen(table));
    assert_true(t >= 0);
    uint32_t rc = col_named(&src->tables[t], rowid), vc = col_named(&src->tables[t], column);
    size_t nall;
    pair *all = scan_pairs(src, t, rc, vc, NULL, &nall);
    int64_t maxv = 0;
    for (size_t i = 0; i < nall; i++)
        if (!all[i].null && all[i].v > maxv)
            maxv = all[i].v;
    for (int64_t k = -1; k <= maxv + 1; k += maxv > 400 ? 7 : 1) {
        for (int form = 0; form < 2; form++) {
            lt_value v = form == 0 ? (lt_value){.type = LT_INT64, .u.i64 = k}
                                   : (lt_value){.type = LT_DOUBLE, .u.f64 = (double)k + 0.5};
            lt_pred p = {.col = vc, .op = LT_PRED_EQ, .nvalues = 1, .values = &v};
            size_t n;
            pair *got = scan_pairs(src, t, rc, vc, &p, &n);
            assert_int_equal(p.use, LT_PUSH_EXACT);
            size_t j = 0;
            for (size_t i = 0; form == 0 && i < nall; i++) {
                if (all[i].null || all[i].v != k)
                    continue;
                if (j >= n || got[j].rowid != all[i].rowid || got[j].v != k)
                    fail_msg("%s.%s = %lld: row %zu should be rowid %lld", table, column,
                             (long long)k, j, (long long)all[i].rowid);
                j++;
            }
            assert_int_equal(n, j);      /* and nothing equals k + 0.5 */
            free(got);
        }
    }
    free(all);
    lt_source_close(src);
}

static void test_index_equality(void **state)
{
    (void)state;
    check_index("Track", "TrackId", "AlbumId");
    check_index("Track", "TrackId", "GenreId");
    check_index("InvoiceLine", "InvoiceLineId", "TrackId");
    check_index("Employee", "EmployeeId", "ReportsTo");   /* NULLs in the index */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ipk_extremes),
        cmocka_unit_test(test_multi_level),
        cmocka_unit_test(test_seek_pages),
        cmocka_unit_test(test_index_equality),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
