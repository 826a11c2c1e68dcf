/*
** fuzz_sql.c — libFuzzer target for the SQL engine: lexer, parser, binder,
** typing, planner, and execution (grouping, joins, CASE, CAST, the function
** table; derived tables, views, UNION/EXCEPT/INTERSECT, subqueries, RIGHT
** and FULL joins, USING) over two small in-memory tables and four views
** (one reading itself).  Seeds: tests/fuzz/sql_seeds/.
**
** Any byte string must prepare to a statement or fail with a clean error;
** a prepared statement must execute and drain (its parameters bound to a
** mix of values) without a crash, a leak or undefined behaviour.
**
** The source's dialect (reader.h lt_dialect): an input whose first byte is
** 0x01 runs as a SQLite source (SQLite's comparison affinity; some rows of
** a, b and c then hold values of another type, tagged as the SQLite reader
** tags them), 0x02 as an Access source (case-insensitive text, Access's
** LIKE), the rest of the input being the SQL; any other input is the SQL of
** a standard source.
**
** Build: CC=clang cmake -DLECTOR_FUZZ=ON ... && cmake --build . --target fuzz_sql
** Run:   ./tests/fuzz/fuzz_sql -max_len=512 -dict=<(...) corpus/
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../driver/sql/sql.h"

/* Tables "t" and "u" (a INT64, b TEXT, c DOUBLE, d DECIMAL(8,2), e DATE,
** f BOOL) with a few rows and NULLs (u has the first three of t's), to
** join. */
#define ROWS 5

static lt_column cols[] = {
    {"a", LT_INT64, 10, 0, true, false, "INTEGER"},
    {"b", LT_TEXT, 10, 0, true, false, "CHARACTER"},
    {"c", LT_DOUBLE, 15, 0, true, false, "DOUBLE"},
    {"d", LT_DECIMAL, 8, 2, true, false, "NUMERIC"},
    {"e", LT_DATE, 10, 0, true, false, "DATE"},
    {"f", LT_BOOL, 1, 0, true, false, "LOGICAL"},
};

typedef struct fuzz_scan {
    const lt_scan_spec *spec;
    uint32_t next;
} fuzz_scan;

static void cell(uint32_t r, uint32_t c, lt_value *v)
{
    static const char *const texts[ROWS] = {"x", "", "abc%", NULL, "\xC3\xA9t\xC3\xA9"};
    memset(v, 0, sizeof *v);
    if ((r + c) % 4 == 3)
        return; /* NULL */
    switch (c) {
    case 0: v->type = LT_INT64; v->u.i64 = (int64_t)r * 7 - 10; break;
    case 1:
        if (texts[r] == NULL)
            return;
        v->type = LT_TEXT;
        v->u.bytes.ptr = texts[r];
        v->u.bytes.len = (uint32_t)strlen(texts[r]);
        break;
    case 2: v->type = LT_DOUBLE; v->u.f64 = r * 0.5 - 1; break;
    case 3: v->type = LT_DECIMAL; v->scale = 2; v->u.dec = (lt_int128)r * 12345 - 20000; break;
    case 4: v->type = LT_DATE; v->u.date = (int32_t)r * 400 - 100; break;
    case 5: v->type = LT_BOOL; v->u.b = r % 2; break;
    }
}

static int fz_scan_open(lt_source *src, const lt_scan_spec *spec, lt_scan **out, lt_error *err)
{
    (void)src;
    fuzz_scan *s = calloc(1, sizeof *s);
    if (s == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    s->spec = spec;
    *out = (lt_scan *)s;
    return 0;
}

static lt_source source;

/* SQLite sources: row r of column c (a, b or c) holding a value of another
** type, as SQLite's dynamic typing allows ('12x' in the INTEGER column, 5 in
** the TEXT one, 'abc' in the DOUBLE one, 2.5 in the INTEGER one), or
** false. */
static bool other_cell(uint32_t r, uint32_t c, lt_value *v)
{
    static const char *const texts[] = {"12x", " 7 ", "abc", "1e2"};
    if (source.dialect != LT_DIALECT_SQLITE || c > 2 || (r + c) % 3 != 1)
        return false;
    memset(v, 0, sizeof *v);
    if (c == 1 || (c == 0 && r % 2 == 0)) {
        v->type = c == 1 ? LT_INT64 : LT_DOUBLE;
        if (c == 1)
            v->u.i64 = 5;
        else
            v->u.f64 = 2.5;
    } else {
        v->type = LT_TEXT;
        v->u.bytes.ptr = texts[(r + c) % 4];
        v->u.bytes.len = (uint32_t)strlen(v->u.bytes.ptr);
    }
    return true;
}

/* Tag row `row` of vector v with value x (reader.h: the arrays from the
** batch arena, tags zeroed). */
static int tag(lt_batch *b, lt_vector *v, uint32_t row, const lt_value *x)
{
    if (v->tags == NULL) {
        v->tags = lt_arena_alloc(&b->arena, b->capacity);
        v->other = lt_arena_alloc(&b->arena, b->capacity * sizeof *v->other);
        if (v->tags == NULL || v->other == NULL)
            return -1;
        memset(v->tags, 0, b->capacity);
    }
    v->nulls[row] = 0;
    v->tags[row] = (uint8_t)x->type;
    v->other[row] = *x;
    return 0;
}

static int fz_scan_next(lt_scan *scan, lt_batch *b, lt_error *err)
{
    fuzz_scan *s = (fuzz_scan *)scan;
    lt_batch_reset(b);
    /* Two rows per batch: operators see batch boundaries. */
    uint32_t rows = s->spec->table == 0 ? ROWS : 3;
    while (b->count < 2 && s->next < rows) {
        for (uint32_t c = 0; c < s->spec->ncols; c++) {
            lt_value v;
            int rc;
            if (other_cell(s->next, s->spec->cols[c], &v)) {
                rc = tag(b, &b->cols[c], b->count, &v);
            } else {
                cell(s->next, s->spec->cols[c], &v);
                rc = lt_batch_set(b, c, b->count, &v);
            }
            if (rc != 0)
                return lt_error_set(err, "HY001", "out of memory");
        }
        b->count++;
        s->next++;
    }
    return 0;
}

static void fz_scan_close(lt_scan *scan) { free(scan); }
static void fz_close(lt_source *src) { (void)src; }

static const lt_reader fuzz_reader = {
    .name = "fuzz", .close = fz_close, .scan_open = fz_scan_open, .scan_next = fz_scan_next,
    .scan_close = fz_scan_close,
};

static lt_column view_cols[] = {
    {"k", LT_NULL, 0, 0, true, false, ""},
    {"n", LT_NULL, 0, 0, true, false, ""},
};

static lt_table tables[] = {
    {.name = "t", .kind = "TABLE", .ncols = 6, .cols = cols, .row_estimate = ROWS},
    {.name = "u", .kind = "TABLE", .ncols = 6, .cols = cols, .row_estimate = 3},
    {.name = "v", .kind = "VIEW", .row_estimate = -1,
     .query = "SELECT a, b FROM t WHERE a > 0 UNION ALL SELECT a, b FROM u"},
    {.name = "w", .kind = "VIEW", .ncols = 2, .cols = view_cols, .row_estimate = -1,
     .query = "SELECT b, COUNT(*) FROM v GROUP BY b"},
    {.name = "x", .kind = "VIEW", .row_estimate = -1,
     .query = "SELECT * FROM t LEFT JOIN u USING (a) WHERE EXISTS (SELECT 1 FROM w WHERE w.k = t.b)"},
    {.name = "loop", .kind = "VIEW", .row_estimate = -1, .query = "SELECT * FROM loop"},
};

static lt_source source = {.reader = &fuzz_reader, .path = "fuzz", .ntables = 6, .tables = tables,
                           .dialect = LT_DIALECT_STANDARD};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sql_stmt *st;
    sql_cursor *cur;
    lt_error err;
    source.dialect = LT_DIALECT_STANDARD;
    if (size > 0 && (data[0] == 1 || data[0] == 2)) {
        source.dialect = data[0] == 1 ? LT_DIALECT_SQLITE : LT_DIALECT_ACCESS;
        data++;
        size--;
    }
    if (sql_prepare(&source, (const char *)data, size, &st, &err) != 0)
        return 0;
    /* Describe like the ODBC layer does. */
    for (uint32_t i = 0; i < sql_column_count(st); i++)
        (void)sql_column_at(st, i)->desc.name[0];
    uint32_t n = sql_param_count(st);
    lt_value *params = calloc(n ? n : 1, sizeof *params);
    for (uint32_t i = 0; params != NULL && i < n; i++) {
        switch (i % 4) {
        case 0: params[i].type = LT_INT64; params[i].u.i64 = 2; break;
        case 1: params[i].type = LT_TEXT; params[i].u.bytes.ptr = "1"; params[i].u.bytes.len = 1; break;
        case 2: params[i].type = LT_NULL; break;
        case 3: params[i].type = LT_DOUBLE; params[i].u.f64 = 0.5; break;
        }
    }
    if (params != NULL && sql_execute(st, params, n, &cur, &err) == 0) {
        for (int pulls = 0; pulls < 100; pulls++) {
            lt_batch *b;
            if (sql_cursor_next(cur, &b, &err) != 0 || b->count == 0)
                break;
            for (uint32_t c = 0; c < b->ncols; c++)
                for (uint32_t r = 0; r < b->count; r++) {
                    lt_value v;
                    lt_batch_get(b, c, r, &v);
                    if (v.type == LT_TEXT && v.u.bytes.len > 0)
                        (void)((volatile const char *)v.u.bytes.ptr)[v.u.bytes.len - 1];
                }
        }
        sql_cursor_close(cur);
    }
    free(params);
    sql_stmt_free(st);
    return 0;
}
