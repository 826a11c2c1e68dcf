/*
** test_sqlite_seek.c — comparisons of the INTEGER PRIMARY KEY answered by a
** b-tree seek, and numeric equalities answered by a one-column index: every
** range, list or key gives exactly the rows a full scan filtered by hand
** gives, in the same order, the predicates are reported LT_PUSH_EXACT, and
** the seek enters only the pages on its way down.  Then ranges, text and IN
** lists on indexed columns of databases the sqlite3 shell builds (mixed
** storage classes, NULLs, duplicates, collations, multi-column, DESC,
** partial and expression indexes), each against sqlite3's own answer with
** NOT INDEXED, and a timing of a seek against a full scan.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "reader.h"
#include "sqlite/sqlite.h"
#include "sqlite/sqlite_internal.h"

#define SQLITE_DIR LT_CORPUS_DIR "/sqlite"

/* Every key of column `col` of table `name` under the predicates, in scan
** order; *n the count.  Checks each predicate's `use` against `want_use`
** (unless it is ANY_USE). */
#define ANY_USE ((lt_pushdown)-1)
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
    for (uint32_t i = 0; i < npreds && (int)want_use >= 0; i++)
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

/* ---- indexes of a database built by the sqlite3 shell --------------------- */

static char built_db[256];

/* Run SQL through the sqlite3 shell on `db`; its output in a malloc'ed string. */
static char *shell(const char *db, const char *sql)
{
    char script[] = "/tmp/lt_seek_sqlXXXXXX";
    int fd = mkstemp(script);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(sql, f);
    fclose(f);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "sqlite3 -batch '%s' < '%s'", db, script);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 4096, n = 0;
    char *out = malloc(cap);
    size_t got;
    while ((got = fread(out + n, 1, cap - n - 1, p)) > 0) {
        n += got;
        if (cap - n < 2)
            out = realloc(out, cap *= 2);
    }
    out[n] = '\0';
    assert_int_equal(pclose(p), 0);
    unlink(script);
    return out;
}

/* Rowids (column id) by the reader under the predicates, in scan order. */
static int64_t *reader_ids(lt_source *src, lt_pred *preds, uint32_t npreds, size_t *n)
{
    return scan_keys(src, "t", 0, preds, npreds, ANY_USE, n);
}

static const char *const BUILD_SQL =
    "CREATE TABLE t(id INTEGER PRIMARY KEY, i INTEGER, r REAL, s TEXT, c TEXT COLLATE NOCASE,\n"
    "  s2 TEXT, s3 TEXT COLLATE NOCASE, m INTEGER, m2 INTEGER, d INTEGER, p INTEGER,\n"
    "  e INTEGER, plain INTEGER);\n"
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1500)\n"
    "INSERT INTO t SELECT (x * 7919) % 4001 * 3 + 1,\n"
    "  CASE WHEN x % 50 = 0 THEN NULL WHEN x % 97 = 0 THEN 'abc' || x\n"
    "       WHEN x % 101 = 0 THEN x'0102' WHEN x % 7 = 0 THEN (x % 40) + 0.5\n"
    "       WHEN x % 211 = 0 THEN 9223372036854775807 WHEN x % 223 = 0 THEN -9223372036854775808\n"
    "       ELSE (x * 37) % 301 - 150 END,\n"
    "  CASE WHEN x % 45 = 0 THEN NULL WHEN x % 9 = 0 THEN (x % 30) ELSE (x % 300) / 4.0 END,\n"
    "  CASE WHEN x % 60 = 0 THEN NULL WHEN x % 89 = 0 THEN x'6b313030'\n"
    "       WHEN x % 13 = 0 THEN 'K' || (x % 10) WHEN x % 17 = 0 THEN ''\n"
    "       WHEN x % 19 = 0 THEN 'é' || (x % 5) ELSE printf('k%03d', (x * 31) % 500) END,\n"
    "  CASE WHEN x % 3 = 0 THEN 'A' || (x % 20) ELSE 'a' || (x % 20) END,\n"
    "  CASE WHEN x % 3 = 0 THEN 'B' || (x % 20) ELSE 'b' || (x % 20) END,\n"
    "  CASE WHEN x % 3 = 0 THEN 'C' || (x % 20) ELSE 'c' || (x % 20) END,\n"
    "  x % 37, x % 11, x % 53, x % 29, x % 31, x % 37\n"
    "FROM c;\n"
    "CREATE INDEX ix_i ON t(i);\n"
    "CREATE INDEX ix_r ON t(r);\n"
    "CREATE INDEX ix_s ON t(s COLLATE BINARY, c);\n"
    "CREATE INDEX ix_c ON t(c);\n"
    "CREATE INDEX ix_s2 ON t(s2 COLLATE NOCASE);\n"
    "CREATE INDEX ix_s3 ON t(s3 COLLATE BINARY);\n"
    "CREATE INDEX ix_m ON t(m, m2 DESC);\n"
    "CREATE INDEX ix_d ON t(d DESC);\n"
    "CREATE INDEX ix_p ON t(p) WHERE p > 10;\n"
    "CREATE INDEX ix_e ON t(e + 1);\n"
    /* DESC copies of i, r, s: every storage class, NULLs, in reverse */
    "ALTER TABLE t ADD COLUMN di INTEGER;\n"
    "ALTER TABLE t ADD COLUMN dr REAL;\n"
    "ALTER TABLE t ADD COLUMN ds TEXT;\n"
    "UPDATE t SET di = i, dr = r, ds = s;\n"
    "CREATE INDEX ix_di ON t(di DESC);\n"
    "CREATE INDEX ix_dr ON t(dr DESC, i);\n"
    "CREATE INDEX ix_ds ON t(ds DESC);\n";

static int setup_built(void **state)
{
    (void)state;
    snprintf(built_db, sizeof built_db, "/tmp/lt_seek_%ld.db", (long)getpid());
    unlink(built_db);
    free(shell(built_db, BUILD_SQL));
    return 0;
}

static int teardown_built(void **state)
{
    (void)state;
    unlink(built_db);
    return 0;
}

/* SQL text of a constant, as sqlite3 reads it. */
static void literal(const lt_value *v, char *out, size_t cap)
{
    if (v->type == LT_INT64)
        snprintf(out, cap, "%lld", (long long)v->u.i64);
    else if (v->type == LT_DOUBLE)
        snprintf(out, cap, "%.17g", v->u.f64);
    else
        snprintf(out, cap, "'%.*s'", (int)v->u.bytes.len, v->u.bytes.ptr);
}

static void pred_sql(const char *colname, const lt_pred *p, char *out, size_t cap)
{
    static const char *const ops[] = {"=", "<>", "<", "<=", ">", ">="};
    char a[64], b[64];
    literal(&p->values[0], a, sizeof a);
    if (p->op == LT_PRED_BETWEEN) {
        literal(&p->values[1], b, sizeof b);
        snprintf(out, cap, "%s BETWEEN %s AND %s", colname, a, b);
    } else if (p->op == LT_PRED_IN) {
        size_t n = (size_t)snprintf(out, cap, "%s IN (", colname);
        for (uint32_t k = 0; k < p->nvalues && n < cap; k++) {
            literal(&p->values[k], a, sizeof a);
            n += (size_t)snprintf(out + n, cap - n, "%s%s", k ? ", " : "", a);
        }
        if (n < cap)
            snprintf(out + n, cap - n, ")");
    } else {
        snprintf(out, cap, "%s %s %s", colname, ops[p->op], a);
    }
}

/* The predicates through the reader against sqlite3's full scan (NOT
** INDEXED) of the same WHERE: the same rowids, ascending; each predicate
** reported `want` (those on the rowid, column 0, EXACT).  Rows the reader lets through for predicates it did not
** take exactly must include sqlite3's; with `tight` they must equal them. */
static void check_built(lt_source *src, lt_pred *preds, uint32_t npreds, lt_pushdown want)
{
    char where[1024] = "", one[512];
    for (uint32_t i = 0; i < npreds; i++) {
        pred_sql(src->tables[0].cols[preds[i].col].name, &preds[i], one, sizeof one);
        strncat(where, i ? " AND " : "", sizeof where - strlen(where) - 1);
        strncat(where, one, sizeof where - strlen(where) - 1);
    }
    size_t n;
    int64_t *got = reader_ids(src, preds, npreds, &n);
    for (uint32_t i = 0; i < npreds; i++)
        if (preds[i].use != (preds[i].col == 0 ? LT_PUSH_EXACT : want))
            fail_msg("WHERE %s: use %d, want %d", where, preds[i].use, want);
    char sql[1200];
    snprintf(sql, sizeof sql, "SELECT id FROM t NOT INDEXED WHERE %s ORDER BY id;\n", where);
    char *out = shell(built_db, sql);
    size_t k = 0;
    for (char *line = strtok(out, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        int64_t id = strtoll(line, NULL, 10);
        if (want == LT_PUSH_UNUSED) {
            while (k < n && got[k] != id)
                k++;
            if (k == n)
                fail_msg("WHERE %s: rowid %lld missing", where, (long long)id);
            k++;
            continue;
        }
        if (k >= n || got[k] != id)
            fail_msg("WHERE %s: row %zu should be rowid %lld, got %lld", where, k,
                     (long long)id, k < n ? (long long)got[k] : -1LL);
        k++;
    }
    if (want != LT_PUSH_UNUSED && k != n)
        fail_msg("WHERE %s: %zu rows, sqlite3 gives %zu", where, n, k);
    for (size_t j = 1; j < n; j++)
        assert_true(got[j] > got[j - 1]);          /* rowid order, as a scan */
    free(out);
    free(got);
}

static lt_source *open_built(uint32_t *cols, const char *const *names, size_t nnames)
{
    lt_source *src = NULL;
    lt_error err;
    lt_error_clear(&err);
    if (lt_source_open(built_db, NULL, &src, &err) != 0)
        fail_msg("open %s: %s", built_db, err.message);
    int64_t t = lt_source_find_table(src, "t", 1);
    assert_true(t == 0);
    for (size_t i = 0; i < nnames; i++)
        cols[i] = col_named(&src->tables[t], names[i]);
    return src;
}

static const lt_pred_op cmp_ops[] = {LT_PRED_EQ, LT_PRED_LT, LT_PRED_LE, LT_PRED_GT, LT_PRED_GE};

static lt_pushdown numeric_use(lt_pred_op op)
{
    return op == LT_PRED_EQ || op == LT_PRED_IN ? LT_PUSH_EXACT : LT_PUSH_SUPERSET;
}

/* Numbers against INTEGER and REAL columns holding every storage class. */
static void test_index_numeric_ranges(void **state)
{
    (void)state;
    const char *names[] = {"i", "r", "m", "di", "dr", "d"};
    uint32_t cols[6];
    lt_source *src = open_built(cols, names, 6);
    const lt_value keys[] = {
        {.type = LT_INT64, .u.i64 = -151}, {.type = LT_INT64, .u.i64 = -150},
        {.type = LT_INT64, .u.i64 = 0}, {.type = LT_INT64, .u.i64 = 3},
        {.type = LT_INT64, .u.i64 = 30}, {.type = LT_INT64, .u.i64 = 150},
        {.type = LT_INT64, .u.i64 = INT64_MAX}, {.type = LT_INT64, .u.i64 = INT64_MIN},
        {.type = LT_DOUBLE, .u.f64 = 2.5}, {.type = LT_DOUBLE, .u.f64 = 3.0},
        {.type = LT_DOUBLE, .u.f64 = -0.25}, {.type = LT_DOUBLE, .u.f64 = 1e300},
        {.type = LT_DOUBLE, .u.f64 = -1e300}, {.type = LT_DOUBLE, .u.f64 = 9223372036854775807.0},
    };
    size_t nkeys = sizeof keys / sizeof keys[0];
    for (int c = 0; c < 6; c++)
        for (size_t o = 0; o < sizeof cmp_ops / sizeof cmp_ops[0]; o++)
            for (size_t k = 0; k < nkeys; k++) {
                lt_pred p = {.col = cols[c], .op = cmp_ops[o], .nvalues = 1, .values = &keys[k]};
                check_built(src, &p, 1, numeric_use(cmp_ops[o]));
            }
    for (int c = 0; c < 6; c++) {
        for (size_t a = 0; a < nkeys; a += 2)
            for (size_t b = 1; b < nkeys; b += 3) {
                lt_value ab[2] = {keys[a], keys[b]};
                lt_pred p = {.col = cols[c], .op = LT_PRED_BETWEEN, .nvalues = 2, .values = ab};
                check_built(src, &p, 1, LT_PUSH_SUPERSET);
                lt_pred two[2] = {
                    {.col = cols[c], .op = LT_PRED_GT, .nvalues = 1, .values = &keys[a]},
                    {.col = cols[c], .op = LT_PRED_LT, .nvalues = 1, .values = &keys[b]},
                };
                check_built(src, two, 2, LT_PUSH_SUPERSET);
            }
        lt_value list[5] = {keys[4], keys[2], keys[8], keys[4], keys[6]};
        lt_pred in = {.col = cols[c], .op = LT_PRED_IN, .nvalues = 5, .values = list};
        check_built(src, &in, 1, LT_PUSH_EXACT);
        /* with a rowid range, or a rowid list (which wins: the index is unused) */
        lt_value ids[2] = {{.type = LT_INT64, .u.i64 = 1000}, {.type = LT_INT64, .u.i64 = 7000}};
        lt_pred both[2] = {
            {.col = 0, .op = LT_PRED_BETWEEN, .nvalues = 2, .values = ids},
            {.col = cols[c], .op = LT_PRED_GE, .nvalues = 1, .values = &keys[2]},
        };
        check_built(src, both, 2, LT_PUSH_SUPERSET);
        both[0].op = LT_PRED_IN;
        both[1].op = LT_PRED_EQ;
        size_t n;
        free(reader_ids(src, both, 2, &n));
        assert_int_equal(both[0].use, LT_PUSH_EXACT);
        assert_int_equal(both[1].use, LT_PUSH_UNUSED);
    }
    lt_source_close(src);
}

/* Text against TEXT columns: BINARY order seeks, NOCASE never does. */
static void test_index_text(void **state)
{
    (void)state;
    const char *names[] = {"s", "c", "s2", "s3", "ds"};
    uint32_t cols[5];
    lt_source *src = open_built(cols, names, 5);
#define TXT(x) {.type = LT_TEXT, .u.bytes = {x, sizeof x - 1}}
    const lt_value keys[] = {TXT(""), TXT("k"), TXT("k000"), TXT("k250"), TXT("k499"), TXT("k5"),
                             TXT("z"), TXT("K1"), TXT("\xc3\xa9"), TXT("\xc3\xa9" "3"),
                             TXT("a3"), TXT("A3"), TXT("b1"), TXT("C1")};
#undef TXT
    size_t nkeys = sizeof keys / sizeof keys[0];
    for (int c = 0; c < 5; c++) {
        /* s and ds (BINARY, ds DESC) seek; c, s2 (a NOCASE index) and s3
        ** (a BINARY index of a NOCASE column, which its comparisons use)
        ** are left to the engine */
        lt_pushdown seek = c == 0 || c == 4 ? LT_PUSH_SUPERSET : LT_PUSH_UNUSED;
        for (size_t o = 0; o < sizeof cmp_ops / sizeof cmp_ops[0]; o++)
            for (size_t k = 0; k < nkeys; k++) {
                lt_pred p = {.col = cols[c], .op = cmp_ops[o], .nvalues = 1, .values = &keys[k]};
                check_built(src, &p, 1, seek);
            }
        for (size_t a = 0; a < nkeys; a += 3)
            for (size_t b = 1; b < nkeys; b += 2) {
                lt_value ab[2] = {keys[a], keys[b]};
                lt_pred p = {.col = cols[c], .op = LT_PRED_BETWEEN, .nvalues = 2, .values = ab};
                check_built(src, &p, 1, seek);
            }
        lt_value list[4] = {keys[3], keys[0], keys[7], keys[3]};
        lt_pred in = {.col = cols[c], .op = LT_PRED_IN, .nvalues = 4, .values = list};
        check_built(src, &in, 1, seek);
    }
    lt_source_close(src);
}

/* What must not seek: partial and expression indexes, no index, a text
** constant on a number column, a number on a text column. */
static void test_index_unused(void **state)
{
    (void)state;
    const char *names[] = {"p", "e", "plain", "i", "s"};
    uint32_t cols[5];
    lt_source *src = open_built(cols, names, 5);
    lt_value five = {.type = LT_INT64, .u.i64 = 5}, twenty = {.type = LT_INT64, .u.i64 = 20};
    lt_value text5 = {.type = LT_TEXT, .u.bytes = {"5", 1}};
    for (int c = 0; c < 3; c++)
        for (size_t o = 0; o < sizeof cmp_ops / sizeof cmp_ops[0]; o++) {
            lt_pred p = {.col = cols[c], .op = cmp_ops[o], .nvalues = 1,
                         .values = c == 0 ? &twenty : &five};
            check_built(src, &p, 1, LT_PUSH_UNUSED);
        }
    lt_pred p = {.col = cols[3], .op = LT_PRED_EQ, .nvalues = 1, .values = &text5};
    check_built(src, &p, 1, LT_PUSH_UNUSED);
    p = (lt_pred){.col = cols[4], .op = LT_PRED_GE, .nvalues = 1, .values = &five};
    check_built(src, &p, 1, LT_PUSH_UNUSED);
    lt_source_close(src);
}

/* ---- WITHOUT ROWID tables: their own b-tree, keyed on the primary key --- */

static char wr_db[256];

/* 1500 rows each (several levels), n numbering them; keys of every
** storage class where the affinity lets them be. */
static const char *const WR_SQL =
    "CREATE TABLE wi(k INTEGER PRIMARY KEY, n INTEGER, pad TEXT) WITHOUT ROWID;\n"
    "CREATE TABLE wt(k TEXT PRIMARY KEY, n INTEGER, pad TEXT) WITHOUT ROWID;\n"
    "CREATE TABLE wc(a INTEGER, b TEXT, n INTEGER, pad TEXT, PRIMARY KEY(a, b)) WITHOUT ROWID;\n"
    "CREATE TABLE wd(a REAL, b INTEGER, n INTEGER, pad TEXT, PRIMARY KEY(a DESC, b)) WITHOUT ROWID;\n"
    "CREATE TABLE wdt(k TEXT PRIMARY KEY DESC, n INTEGER, pad TEXT) WITHOUT ROWID;\n"
    "CREATE TABLE wn(k TEXT COLLATE NOCASE PRIMARY KEY, n INTEGER) WITHOUT ROWID;\n"
    "CREATE TABLE wn2(k TEXT, n INTEGER, PRIMARY KEY(k COLLATE NOCASE)) WITHOUT ROWID;\n"
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1500)\n"
    "INSERT INTO wi SELECT CASE WHEN x % 97 = 0 THEN 'abc' || x WHEN x % 101 = 0 THEN CAST(x'0102' || x AS BLOB)\n"
    "  WHEN x % 7 = 0 THEN x * 3 + 0.5 WHEN x = 211 THEN 9223372036854775807\n"
    "  WHEN x = 223 THEN -9223372036854775808 ELSE (x * 7919) % 4001 * 3 - 6000 END,\n"
    "  x, printf('%0100d', x) FROM c;\n"
    "INSERT INTO wt SELECT CASE WHEN x % 89 = 0 THEN CAST('k' || x AS BLOB) WHEN x % 17 = 0 THEN 'K' || x\n"
    "  WHEN x % 19 = 0 THEN 'é' || x ELSE printf('k%04d', (x * 31) % 4001) END, n, pad FROM wi\n"
    "  JOIN (SELECT n AS x FROM wi) ON x = n;\n"
    "INSERT INTO wc SELECT n % 300 - 150, 'b' || n, n, pad FROM wi;\n"
    "INSERT INTO wd SELECT CASE WHEN n % 97 = 0 THEN 't' || (n % 5) WHEN n % 101 = 0 THEN x'01'\n"
    "  WHEN n % 3 = 0 THEN (n % 200) / 4.0 ELSE n % 150 - 75 END, n, n, pad FROM wi;\n"
    "INSERT INTO wdt SELECT k, n, pad FROM wt;\n"
    "INSERT OR IGNORE INTO wn SELECT k, n FROM wt;\n"
    "INSERT OR IGNORE INTO wn2 SELECT k, n FROM wt;\n";

static int setup_wr(void **state)
{
    (void)state;
    snprintf(wr_db, sizeof wr_db, "/tmp/lt_seek_wr_%ld.db", (long)getpid());
    unlink(wr_db);
    free(shell(wr_db, WR_SQL));
    return 0;
}

static int teardown_wr(void **state)
{
    (void)state;
    unlink(wr_db);
    return 0;
}

/* The predicates on table `table` through the reader against sqlite3's
** NOT INDEXED answer: the same n, in the same (key) order, each predicate
** reported `want`; UNUSED ones must let sqlite3's rows through in order. */
static void check_wr(lt_source *src, const char *table, lt_pred *preds, uint32_t npreds,
                     lt_pushdown want)
{
    int64_t t = lt_source_find_table(src, table, strlen(table));
    assert_true(t >= 0);
    uint32_t ncol = col_named(&src->tables[t], "n");
    char where[1024] = "", one[512];
    for (uint32_t i = 0; i < npreds; i++) {
        pred_sql(src->tables[t].cols[preds[i].col].name, &preds[i], one, sizeof one);
        strncat(where, i ? " AND " : "", sizeof where - strlen(where) - 1);
        strncat(where, one, sizeof where - strlen(where) - 1);
    }
    size_t n;
    int64_t *got = scan_keys(src, table, ncol, preds, npreds, ANY_USE, &n);
    for (uint32_t i = 0; i < npreds; i++)
        if (preds[i].use != want)
            fail_msg("%s WHERE %s: use %d, want %d", table, where, preds[i].use, want);
    char sql[1200];
    snprintf(sql, sizeof sql, "SELECT n FROM %s NOT INDEXED WHERE %s;\n", table, where);
    char *out = shell(wr_db, sql);
    size_t k = 0;
    for (char *line = strtok(out, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        int64_t id = strtoll(line, NULL, 10);
        if (want == LT_PUSH_UNUSED) {
            while (k < n && got[k] != id)
                k++;
            if (k == n)
                fail_msg("%s WHERE %s: n %lld missing", table, where, (long long)id);
            k++;
            continue;
        }
        if (k >= n || got[k] != id)
            fail_msg("%s WHERE %s: row %zu should be n %lld, got %lld", table, where, k,
                     (long long)id, k < n ? (long long)got[k] : -1LL);
        k++;
    }
    if (want != LT_PUSH_UNUSED && k != n)
        fail_msg("%s WHERE %s: %zu rows, sqlite3 gives %zu", table, where, n, k);
    free(out);
    free(got);
}

static lt_source *open_wr(void)
{
    lt_source *src = NULL;
    lt_error err;
    lt_error_clear(&err);
    if (lt_source_open(wr_db, NULL, &src, &err) != 0)
        fail_msg("open %s: %s", wr_db, err.message);
    return src;
}

/* Every operator, BETWEEN, two bounds and IN lists on the leading key
** column `key` of `table`. */
static void check_wr_column(lt_source *src, const char *table, const char *key,
                            const lt_value *keys, size_t nkeys, bool text, bool seeks)
{
    int64_t t = lt_source_find_table(src, table, strlen(table));
    assert_true(t >= 0);
    uint32_t col = col_named(&src->tables[t], key);
    for (size_t o = 0; o < sizeof cmp_ops / sizeof cmp_ops[0]; o++)
        for (size_t k = 0; k < nkeys; k++) {
            lt_pred p = {.col = col, .op = cmp_ops[o], .nvalues = 1, .values = &keys[k]};
            check_wr(src, table, &p, 1, !seeks ? LT_PUSH_UNUSED
                                        : text ? LT_PUSH_SUPERSET : numeric_use(cmp_ops[o]));
        }
    lt_pushdown range = seeks ? LT_PUSH_SUPERSET : LT_PUSH_UNUSED;
    for (size_t a = 0; a < nkeys; a += 2)
        for (size_t b = 1; b < nkeys; b += 3) {
            lt_value ab[2] = {keys[a], keys[b]};
            lt_pred p = {.col = col, .op = LT_PRED_BETWEEN, .nvalues = 2, .values = ab};
            check_wr(src, table, &p, 1, range);
            lt_pred two[2] = {
                {.col = col, .op = LT_PRED_GT, .nvalues = 1, .values = &keys[a]},
                {.col = col, .op = LT_PRED_LE, .nvalues = 1, .values = &keys[b]},
            };
            check_wr(src, table, two, 2, range);
        }
    lt_value list[6] = {keys[4], keys[2], keys[nkeys - 1], keys[4], keys[6], keys[1]};
    lt_pred in = {.col = col, .op = LT_PRED_IN, .nvalues = 6, .values = list};
    check_wr(src, table, &in, 1, !seeks ? LT_PUSH_UNUSED
                                 : text ? LT_PUSH_SUPERSET : LT_PUSH_EXACT);
}

static void test_without_rowid(void **state)
{
    (void)state;
    lt_source *src = open_wr();
    const lt_value nums[] = {
        {.type = LT_INT64, .u.i64 = -6001}, {.type = LT_INT64, .u.i64 = -75},
        {.type = LT_INT64, .u.i64 = 0}, {.type = LT_INT64, .u.i64 = 3},
        {.type = LT_INT64, .u.i64 = 30}, {.type = LT_INT64, .u.i64 = 150},
        {.type = LT_INT64, .u.i64 = 21}, {.type = LT_INT64, .u.i64 = INT64_MAX},
        {.type = LT_INT64, .u.i64 = INT64_MIN}, {.type = LT_DOUBLE, .u.f64 = 21.5},
        {.type = LT_DOUBLE, .u.f64 = 3.0}, {.type = LT_DOUBLE, .u.f64 = -0.25},
        {.type = LT_DOUBLE, .u.f64 = 1e300}, {.type = LT_DOUBLE, .u.f64 = -1e300},
        {.type = LT_DOUBLE, .u.f64 = 9223372036854775807.0}, {.type = LT_INT64, .u.i64 = 5997},
    };
#define TXT(x) {.type = LT_TEXT, .u.bytes = {x, sizeof x - 1}}
    const lt_value texts[] = {TXT(""), TXT("k"), TXT("k0000"), TXT("k2000"), TXT("k4000"),
                              TXT("k5"), TXT("z"), TXT("K1"), TXT("K17"), TXT("\xc3\xa9"),
                              TXT("\xc3\xa9" "19"), TXT("k1234"), TXT("K"), TXT("a")};
#undef TXT
    size_t nn = sizeof nums / sizeof nums[0], nt = sizeof texts / sizeof texts[0];
    check_wr_column(src, "wi", "k", nums, nn, false, true);
    check_wr_column(src, "wc", "a", nums, nn, false, true);
    check_wr_column(src, "wd", "a", nums, nn, false, true);
    check_wr_column(src, "wt", "k", texts, nt, true, true);
    check_wr_column(src, "wdt", "k", texts, nt, true, true);
    /* a NOCASE key (column or PRIMARY KEY collation) is left to the engine,
    ** as are a key's later columns and a text constant on a number key */
    check_wr_column(src, "wn", "k", texts, nt, true, false);
    check_wr_column(src, "wn2", "k", texts, nt, true, false);
    int64_t t = lt_source_find_table(src, "wc", 2);
    lt_value b = {.type = LT_TEXT, .u.bytes = {"b7", 2}};
    lt_pred p = {.col = col_named(&src->tables[t], "b"), .op = LT_PRED_EQ, .nvalues = 1, .values = &b};
    check_wr(src, "wc", &p, 1, LT_PUSH_UNUSED);
    p.col = col_named(&src->tables[t], "a");
    check_wr(src, "wc", &p, 1, LT_PUSH_UNUSED);
    /* a key range with a list: the range seeks, the list is the engine's */
    lt_value lo = {.type = LT_INT64, .u.i64 = 0}, list[3] = {nums[3], nums[4], nums[1]};
    lt_pred two[2] = {{.col = p.col, .op = LT_PRED_IN, .nvalues = 3, .values = list},
                      {.col = p.col, .op = LT_PRED_GE, .nvalues = 1, .values = &lo}};
    size_t n;
    free(scan_keys(src, "wc", col_named(&src->tables[t], "n"), two, 2, ANY_USE, &n));
    assert_int_equal(two[0].use, LT_PUSH_UNUSED);
    assert_int_equal(two[1].use, LT_PUSH_SUPERSET);
    lt_source_close(src);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* 200,000 rows, v indexed and w its unindexed copy: v BETWEEN through the
** index against the same range on w (a full scan the engine would filter). */
static void test_index_timing(void **state)
{
    (void)state;
    char db[256];
    snprintf(db, sizeof db, "/tmp/lt_seek_big_%ld.db", (long)getpid());
    unlink(db);
    free(shell(db, "CREATE TABLE big(id INTEGER PRIMARY KEY, v INTEGER, w INTEGER, pad TEXT);\n"
                   "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000)\n"
                   "INSERT INTO big SELECT x, (x * 7919) % 200003, (x * 7919) % 200003,"
                   " printf('%040d', x) FROM c;\n"
                   "CREATE INDEX big_v ON big(v);\n"));
    lt_source *src = NULL;
    lt_error err;
    lt_error_clear(&err);
    assert_int_equal(lt_source_open(db, NULL, &src, &err), 0);
    uint32_t v = col_named(&src->tables[0], "v"), w = col_named(&src->tables[0], "w");
    lt_value ab[2] = {{.type = LT_INT64, .u.i64 = 100000}, {.type = LT_INT64, .u.i64 = 101000}};
    size_t n_seek = 0, n_scan = 0;
    double t0 = now_ms();
    lt_pred p = {.col = v, .op = LT_PRED_BETWEEN, .nvalues = 2, .values = ab};
    free(scan_keys(src, "big", v, &p, 1, LT_PUSH_SUPERSET, &n_seek));
    double t1 = now_ms();
    lt_pred q = {.col = w, .op = LT_PRED_BETWEEN, .nvalues = 2, .values = ab};
    int64_t *all = scan_keys(src, "big", w, &q, 1, LT_PUSH_UNUSED, &n_scan);
    double t2 = now_ms();
    size_t in_range = 0;
    for (size_t i = 0; i < n_scan; i++)
        in_range += all[i] >= 100000 && all[i] <= 101000;
    free(all);
    assert_int_equal(n_scan, 200000);
    assert_int_equal(n_seek, in_range);
    print_message("200000 rows, v BETWEEN 100000 AND 101000 (%zu rows): index seek %.2f ms, "
                  "full scan %.2f ms\n", n_seek, t1 - t0, t2 - t1);
    lt_source_close(src);
    unlink(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ipk_extremes),
        cmocka_unit_test(test_multi_level),
        cmocka_unit_test(test_seek_pages),
        cmocka_unit_test(test_index_equality),
        cmocka_unit_test_setup_teardown(test_index_numeric_ranges, setup_built, teardown_built),
        cmocka_unit_test_setup_teardown(test_index_text, setup_built, teardown_built),
        cmocka_unit_test_setup_teardown(test_index_unused, setup_built, teardown_built),
        cmocka_unit_test_setup_teardown(test_without_rowid, setup_wr, teardown_wr),
        cmocka_unit_test(test_index_timing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
