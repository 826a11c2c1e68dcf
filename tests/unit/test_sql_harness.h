/*
** test_sql_harness.h — the SQL engine's test bench, shared by the
** test_sql_*.c programs: an in-memory reader and helpers that run a query
** and print its rows.
**
** The test reader holds a few typed tables with NULLs.  It can cut its
** output into small batches (to cross batch boundaries), reuses its batch
** and its text arena like a real reader (so operators that keep rows must
** copy them), records the scan spec it was given (projection, predicates,
** limit), can answer equality predicates exactly, and can count rows
** without a scan (count_rows).  Results are compared as text: rows joined
** by ';', cells by '|'.
*/
#ifndef TEST_SQL_HARNESS_H
#define TEST_SQL_HARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/datetime.h"
#include "driver/sql/sql.h"
#include "driver/sql/exec.h"

/* ------------------------------------------------------------------------ */
/* The test reader                                                           */
/* ------------------------------------------------------------------------ */

#define NPEOPLE 8

typedef struct person {
    int64_t id;
    const char *name;      /* NULL = NULL */
    int64_t age;           /* -1 = NULL */
    const char *score;     /* DOUBLE as text, NULL = NULL */
    const char *price;     /* DECIMAL(10,2) in cents as text, NULL = NULL */
    const char *born;      /* YYYY-MM-DD, NULL = NULL */
    int active;            /* -1 = NULL */
} person;

static const person people[NPEOPLE] = {
    {1, "Alice", 30, "1.5", "1050", "1990-01-02", 1},
    {2, "bob", -1, "2.5", "325", "1985-06-15", 0},
    {3, NULL, 25, NULL, NULL, NULL, -1},
    {4, "Carol", 30, "0.5", "1050", "2000-02-29", 1},
    {5, "dave_x", 41, "-1", "0", "1970-01-01", 0},
    {6, "100%", 25, "2.5", "9999", "1999-12-31", -1},
    {7, "\xC3\x88ve", -1, NULL, "100", "2020-01-02", 1},
    {8, "", 18, "3", NULL, NULL, 0},
};

/* "dyn": one INT64 column whose rows may hold other types (tagged), as a
** SQLite column does. */
#define NDYN 7
static const struct { int tag; int64_t i; double d; const char *s; } dyn[NDYN] = {
    {0, 3, 0, NULL}, {LT_TEXT, 0, 0, "abc"}, {LT_DOUBLE, 0, 2.5, NULL}, {-1, 0, 0, NULL},
    {0, 1, 0, NULL}, {LT_TEXT, 0, 0, "7"}, {LT_DOUBLE, 0, 4.0, NULL},
};
static lt_column dyn_cols[] = {{"v", LT_INT64, 19, 0, true, false, "INTEGER"}};

/* "nums": NNUMS generated rows, to cross batch boundaries and grow hash
** tables.  i 1..NNUMS; g = i % 7 (NULL when i % 11 == 0); s = 's' + i % 13
** (NULL when i % 17 == 0); d = i * 1.001 (DECIMAL(10,3)); f = i / 4.0. */
#define NNUMS 5000
static lt_column nums_cols[] = {
    {"i", LT_INT64, 10, 0, false, false, "INTEGER"},
    {"g", LT_INT64, 10, 0, true, false, "INTEGER"},
    {"s", LT_TEXT, 3, 0, true, false, "VARCHAR"},
    {"d", LT_DECIMAL, 10, 3, true, false, "DECIMAL"},
    {"f", LT_DOUBLE, 15, 0, true, false, "DOUBLE"},
};

/* "pets": owner refers to people.id (NULL, and 9 which is nobody). */
#define NPETS 6
static const struct { int64_t id, owner; const char *name, *kind, *weight; } pets[NPETS] = {
    {1, 1, "Rex", "dog", "305"},
    {2, 1, "Tom", "cat", "42"},
    {3, 4, "Nemo", "fish", NULL},
    {4, -1, "Stray", "dog", "120"},
    {5, 9, "Ghost", "cat", "30"},
    {6, 4, "Bubbles", "fish", "1"},
};
static lt_column pets_cols[] = {
    {"id", LT_INT64, 10, 0, false, false, "INTEGER"},
    {"owner", LT_INT64, 10, 0, true, false, "INTEGER"},
    {"name", LT_TEXT, 10, 0, false, false, "VARCHAR"},
    {"kind", LT_TEXT, 10, 0, false, false, "VARCHAR"},
    {"weight", LT_DECIMAL, 5, 1, true, false, "DECIMAL"},
};

typedef struct test_source {
    lt_source base;
    lt_table tables[16];     /* 0-5 tables; views from 6 (source_add_views) */
    uint32_t scans;          /* scan_open calls */
    uint32_t table_ncols[6]; /* per table, the last scan's columns and predicates */
    uint32_t table_npreds[6];
    lt_pred_op table_ops[6][8];
    uint32_t counts;         /* count_rows calls */
    uint32_t batch_rows;     /* rows per batch the reader returns */
    bool exact_eq;           /* answer EQ predicates exactly (and apply them) */
    bool shared;             /* used by several threads: record nothing */
    lt_scan_spec last;       /* the last spec scan_open saw */
    uint32_t last_cols[16];
    lt_pred last_preds[8];
    lt_value last_values[8][4];
} test_source;

typedef struct test_scan {
    test_source *src;
    const lt_scan_spec *spec;
    uint32_t next;
    bool apply_eq[8];
} test_scan;

static lt_column col(const char *name, lt_type type, uint32_t size, int16_t scale,
                     bool nullable, const char *type_name)
{
    lt_column c = {(char *)name, type, size, scale, nullable, false, type_name};
    return c;
}

static lt_column people_cols[] = {
    {"id", LT_INT64, 10, 0, false, false, "INTEGER"},
    {"Name", LT_TEXT, 20, 0, true, false, "CHARACTER"},
    {"age", LT_INT64, 3, 0, true, false, "NUMERIC"},
    {"score", LT_DOUBLE, 15, 0, true, false, "DOUBLE"},
    {"price", LT_DECIMAL, 10, 2, true, false, "NUMERIC"},
    {"born", LT_DATE, 10, 0, true, false, "DATE"},
    {"active", LT_BOOL, 1, 0, true, false, "LOGICAL"},
};

static lt_column dup_cols[2];

static int32_t date_of(const char *s)
{
    int y, m, d;
    sscanf(s, "%d-%d-%d", &y, &m, &d);
    return lt_days_from_civil(y, m, d);
}

/* Cell (row r, table column c) of "people" as a value; text copied into the
** batch arena by lt_batch_set. */
static void person_value(uint32_t r, uint32_t c, lt_value *v)
{
    const person *p = &people[r];
    memset(v, 0, sizeof *v);
    switch (c) {
    case 0: v->type = LT_INT64; v->u.i64 = p->id; break;
    case 1:
        if (p->name) {
            v->type = LT_TEXT;
            v->u.bytes.ptr = p->name;
            v->u.bytes.len = (uint32_t)strlen(p->name);
        }
        break;
    case 2: if (p->age >= 0) { v->type = LT_INT64; v->u.i64 = p->age; } break;
    case 3: if (p->score) { v->type = LT_DOUBLE; v->u.f64 = atof(p->score); } break;
    case 4: if (p->price) { v->type = LT_DECIMAL; v->scale = 2; v->u.dec = atoll(p->price); } break;
    case 5: if (p->born) { v->type = LT_DATE; v->u.date = date_of(p->born); } break;
    case 6: if (p->active >= 0) { v->type = LT_BOOL; v->u.b = p->active; } break;
    }
}

static int ts_scan_open(lt_source *base, const lt_scan_spec *spec, lt_scan **out, lt_error *err)
{
    test_source *src = (test_source *)base;
    (void)err;
    test_scan *s = calloc(1, sizeof *s);
    s->src = src;
    s->spec = spec;
    *out = (lt_scan *)s;
    if (src->shared)
        return 0; /* a real source is immutable; this one records specs */
    src->scans++;
    if (spec->table < 6) {
        src->table_ncols[spec->table] = spec->ncols;
        src->table_npreds[spec->table] = spec->npreds;
        for (uint32_t i = 0; i < spec->npreds && i < 8; i++)
            src->table_ops[spec->table][i] = spec->preds[i].op;
    }
    src->last = *spec;
    for (uint32_t i = 0; i < spec->ncols && i < 16; i++)
        src->last_cols[i] = spec->cols[i];
    for (uint32_t i = 0; i < spec->npreds && i < 8; i++) {
        if (src->exact_eq && spec->table == 0 && spec->preds[i].op == LT_PRED_EQ &&
            spec->preds[i].col == 0) {
            spec->preds[i].use = LT_PUSH_EXACT;
            s->apply_eq[i] = true;
        }
        src->last_preds[i] = spec->preds[i];
        for (uint32_t k = 0; k < spec->preds[i].nvalues && k < 4; k++)
            src->last_values[i][k] = spec->preds[i].values[k];
    }
    *out = (lt_scan *)s;
    return 0;
}

static bool row_passes(const test_scan *s, uint32_t r)
{
    for (uint32_t i = 0; i < s->spec->npreds && i < 8; i++)
        if (s->apply_eq[i] && people[r].id != s->spec->preds[i].values[0].u.i64)
            return false;
    return true;
}

static int dyn_next(test_scan *s, lt_batch *b)
{
    while (b->count < s->src->batch_rows && b->count < b->capacity && s->next < NDYN) {
        uint32_t r = s->next++, i = b->count++;
        if (s->spec->ncols == 0)
            continue;
        lt_vector *v = &b->cols[0];
        v->nulls[i] = dyn[r].tag < 0;
        if (dyn[r].tag <= 0) {
            v->v.i64[i] = dyn[r].i;
            continue;
        }
        if (v->tags == NULL) {
            v->tags = lt_arena_alloc(&b->arena, b->capacity);
            v->other = lt_arena_alloc(&b->arena, b->capacity * sizeof *v->other);
            memset(v->tags, 0, b->capacity);
        }
        v->tags[i] = (uint8_t)dyn[r].tag;
        memset(&v->other[i], 0, sizeof v->other[i]);
        v->other[i].type = (lt_type)dyn[r].tag;
        if (dyn[r].tag == LT_DOUBLE)
            v->other[i].u.f64 = dyn[r].d;
        else
            v->other[i].u.bytes.ptr = lt_arena_strndup(&b->arena, dyn[r].s, strlen(dyn[r].s)),
            v->other[i].u.bytes.len = (uint32_t)strlen(dyn[r].s);
    }
    return 0;
}

static void num_value(uint32_t i, uint32_t c, lt_value *v)
{
    static char texts[13][4];
    memset(v, 0, sizeof *v);
    switch (c) {
    case 0: v->type = LT_INT64; v->u.i64 = i; break;
    case 1: if (i % 11 != 0) { v->type = LT_INT64; v->u.i64 = i % 7; } break;
    case 2:
        if (i % 17 != 0) {
            snprintf(texts[i % 13], sizeof texts[0], "s%u", i % 13);
            v->type = LT_TEXT;
            v->u.bytes.ptr = texts[i % 13];
            v->u.bytes.len = (uint32_t)strlen(texts[i % 13]);
        }
        break;
    case 3: v->type = LT_DECIMAL; v->scale = 3; v->u.dec = (lt_int128)i * 1001; break;
    case 4: v->type = LT_DOUBLE; v->u.f64 = i / 4.0; break;
    }
}

static void pet_value(uint32_t r, uint32_t c, lt_value *v)
{
    memset(v, 0, sizeof *v);
    switch (c) {
    case 0: v->type = LT_INT64; v->u.i64 = pets[r].id; break;
    case 1: if (pets[r].owner >= 0) { v->type = LT_INT64; v->u.i64 = pets[r].owner; } break;
    case 2:
    case 3:
        v->type = LT_TEXT;
        v->u.bytes.ptr = c == 2 ? pets[r].name : pets[r].kind;
        v->u.bytes.len = (uint32_t)strlen(v->u.bytes.ptr);
        break;
    case 4: if (pets[r].weight) { v->type = LT_DECIMAL; v->scale = 1; v->u.dec = atoll(pets[r].weight); } break;
    }
}

static int pets_next(test_scan *s, lt_batch *b)
{
    uint32_t cap = s->src->batch_rows < b->capacity ? s->src->batch_rows : b->capacity;
    while (b->count < cap && s->next < NPETS) {
        uint32_t r = s->next++;
        for (uint32_t c = 0; c < s->spec->ncols; c++) {
            lt_value v;
            pet_value(r, s->spec->cols[c], &v);
            lt_batch_set(b, c, b->count, &v);
        }
        b->count++;
    }
    return 0;
}

static int nums_next(test_scan *s, lt_batch *b)
{
    uint32_t cap = s->src->batch_rows < b->capacity ? s->src->batch_rows : b->capacity;
    while (b->count < cap && s->next < NNUMS) {
        uint32_t i = ++s->next;
        for (uint32_t c = 0; c < s->spec->ncols; c++) {
            lt_value v;
            num_value(i, s->spec->cols[c], &v);
            lt_batch_set(b, c, b->count, &v);
        }
        b->count++;
    }
    return 0;
}

static int ts_scan_next(lt_scan *scan, lt_batch *b, lt_error *err)
{
    test_scan *s = (test_scan *)scan;
    (void)err;
    lt_batch_reset(b);
    /* Scribble over the reused arena: text kept from an earlier batch
    ** without copying shows up as garbage. */
    char *junk = lt_arena_alloc(&b->arena, 256);
    memset(junk, '#', 256);
    lt_arena_reset(&b->arena);
    if (s->spec->table == 3)
        return dyn_next(s, b);
    if (s->spec->table == 4)
        return nums_next(s, b);
    if (s->spec->table == 5)
        return pets_next(s, b);
    if (s->spec->table != 0)
        return 0;
    uint32_t cap = s->src->batch_rows < b->capacity ? s->src->batch_rows : b->capacity;
    while (b->count < cap && s->next < NPEOPLE) {
        uint32_t r = s->next++;
        if (!row_passes(s, r))
            continue;
        for (uint32_t c = 0; c < s->spec->ncols; c++) {
            lt_value v;
            person_value(r, s->spec->cols[c], &v);
            lt_batch_set(b, c, b->count, &v);
        }
        b->count++;
    }
    return 0;
}

static void ts_scan_close(lt_scan *scan)
{
    free(scan);
}

static void ts_close(lt_source *src)
{
    (void)src;
}

static const lt_reader test_reader = {
    .name = "test", .close = ts_close, .scan_open = ts_scan_open, .scan_next = ts_scan_next,
    .scan_close = ts_scan_close,
};

/* The same reader with count_rows: people, empty and nums are counted. */
static int64_t ts_count_rows(lt_source *base, uint32_t table, lt_error *err)
{
    test_source *src = (test_source *)base;
    (void)err;
    src->counts++;
    return table == 0 ? NPEOPLE : table == 1 ? 0 : table == 4 ? NNUMS : -1;
}

static const lt_reader test_counting_reader = {
    .name = "test", .close = ts_close, .scan_open = ts_scan_open, .scan_next = ts_scan_next,
    .scan_close = ts_scan_close, .count_rows = ts_count_rows,
};

static test_source source;

static void source_init(uint32_t batch_rows, bool exact_eq)
{
    memset(&source, 0, sizeof source);
    source.base.reader = &test_reader;
    source.base.path = "memory";
    source.base.ntables = 6;
    source.base.tables = source.tables;
    source.tables[0] = (lt_table){.name = "People", .kind = "TABLE", .ncols = 7,
                                  .cols = people_cols, .row_estimate = NPEOPLE};
    source.tables[1] = (lt_table){.name = "empty", .kind = "TABLE", .ncols = 7,
                                  .cols = people_cols, .row_estimate = 0};
    dup_cols[0] = col("A", LT_INT64, 10, 0, true, "INTEGER");
    dup_cols[1] = col("a", LT_INT64, 10, 0, true, "INTEGER");
    source.tables[2] = (lt_table){.name = "dup", .kind = "TABLE", .ncols = 2, .cols = dup_cols};
    source.tables[3] = (lt_table){.name = "dyn", .kind = "TABLE", .ncols = 1, .cols = dyn_cols};
    source.tables[4] = (lt_table){.name = "nums", .kind = "TABLE", .ncols = 5, .cols = nums_cols,
                                  .row_estimate = NNUMS};
    source.tables[5] = (lt_table){.name = "pets", .kind = "TABLE", .ncols = 5, .cols = pets_cols,
                                  .row_estimate = NPETS};
    source.batch_rows = batch_rows;
    source.exact_eq = exact_eq;
}

/* Views (lt_table.query), as a reader of a database with views gives them:
**   adults        id, who, age of People aged 30 or more
**   pet_owners    (owner_name, n): owners and their pet counts (a column list)
**   old adults    a view over a view, its name with a space
**   loop1, loop2  each reading the other
**   broken        a query that does not parse
**   unreadable    a view the reader could not read (error set)
**   self          reads itself */
static lt_column pet_owner_cols[] = {
    {"owner_name", LT_NULL, 0, 0, true, false, ""},
    {"n", LT_NULL, 0, 0, true, false, ""},
};

static inline void source_add_views(void)
{
    lt_table *t = source.tables;
    t[6] = (lt_table){.name = "adults", .kind = "VIEW", .row_estimate = -1,
                      .query = "SELECT id, Name AS who, age FROM People WHERE age >= 30"};
    t[7] = (lt_table){.name = "pet_owners", .kind = "VIEW", .ncols = 2, .cols = pet_owner_cols,
                      .row_estimate = -1,
                      .query = "SELECT p.Name, COUNT(*) FROM People p JOIN pets ON pets.owner = p.id "
                               "GROUP BY p.Name ORDER BY 1"};
    t[8] = (lt_table){.name = "old adults", .kind = "VIEW", .row_estimate = -1,
                      .query = "SELECT who FROM adults WHERE age > 30"};
    t[9] = (lt_table){.name = "loop1", .kind = "VIEW", .row_estimate = -1,
                      .query = "SELECT * FROM loop2"};
    t[10] = (lt_table){.name = "loop2", .kind = "VIEW", .row_estimate = -1,
                       .query = "SELECT * FROM loop1"};
    t[11] = (lt_table){.name = "broken", .kind = "VIEW", .row_estimate = -1,
                       .query = "SELECT FROM WHERE"};
    t[12] = (lt_table){.name = "unreadable", .kind = "VIEW", .row_estimate = -1,
                       .query = "SELECT 1", .error = "the view uses a function Lector lacks"};
    t[13] = (lt_table){.name = "self", .kind = "VIEW", .row_estimate = -1,
                       .query = "SELECT * FROM self"};
    source.base.ntables = 14;
}

static int setup_default(void **state)
{
    (void)state;
    source_init(LT_BATCH_ROWS, false);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Running queries and printing results                                      */
/* ------------------------------------------------------------------------ */

static void format_decimal(char *out, size_t cap, lt_int128 m, int scale)
{
    char digits[64];
    int n = 0;
    bool neg = m < 0;
    unsigned __int128 u = neg ? (unsigned __int128)(-(m + 1)) + 1 : (unsigned __int128)m;
    do {
        digits[n++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u != 0 || n <= scale);
    size_t o = 0;
    if (neg && o + 1 < cap)
        out[o++] = '-';
    for (int i = n - 1; i >= 0 && o + 2 < cap; i--) {
        out[o++] = digits[i];
        if (i == scale && scale > 0)
            out[o++] = '.';
    }
    out[o] = '\0';
}

static void format_value(char *out, size_t cap, const lt_value *v)
{
    int y, m, d;
    switch (v->type) {
    case LT_NULL:    snprintf(out, cap, "NULL"); break;
    case LT_BOOL:    snprintf(out, cap, "%d", v->u.b ? 1 : 0); break;
    case LT_INT64:   snprintf(out, cap, "%lld", (long long)v->u.i64); break;
    case LT_DOUBLE:  snprintf(out, cap, "%g", v->u.f64); break;
    case LT_DECIMAL: format_decimal(out, cap, v->u.dec, v->scale); break;
    case LT_TEXT:
    case LT_BINARY:  snprintf(out, cap, "%.*s", (int)v->u.bytes.len, v->u.bytes.ptr); break;
    case LT_DATE:
        lt_civil_from_days(v->u.date, &y, &m, &d);
        snprintf(out, cap, "%04d-%02d-%02d", y, m, d);
        break;
    case LT_TIME:
    case LT_TIMESTAMP: {
        int32_t days = 0;
        int64_t usec = v->u.i64;
        if (v->type == LT_TIMESTAMP)
            lt_timestamp_split(v->u.i64, &days, &usec);
        lt_civil_from_days(days, &y, &m, &d);
        size_t o = v->type == LT_TIMESTAMP ? (size_t)snprintf(out, cap, "%04d-%02d-%02d ", y, m, d) : 0;
        long long s = (long long)(usec / 1000000);
        o += (size_t)snprintf(out + o, cap > o ? cap - o : 0, "%02lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
        if (usec % 1000000)
            snprintf(out + o, cap > o ? cap - o : 0, ".%06lld", (long long)(usec % 1000000));
        break;
    }
    case LT_GUID:    snprintf(out, cap, "guid"); break;
    }
}

/* Append a cursor's rows to `out` as "a|b;c|d". */
static int drain(sql_cursor *cur, char *out, size_t cap, lt_error *err)
{
    size_t len = strlen(out);
    bool first = len == 0;
    for (;;) {
        lt_batch *b;
        if (sql_cursor_next(cur, &b, err) != 0)
            return -1;
        if (b->count == 0)
            return 0;
        assert_int_equal(b->ncols, sql_cursor_column_count(cur));
        for (uint32_t r = 0; r < b->count; r++) {
            for (uint32_t c = 0; c < b->ncols; c++) {
                lt_value v;
                char cell[128];
                lt_batch_get(b, c, r, &v);
                assert_true(v.type == LT_NULL || v.type == sql_cursor_column_at(cur, c)->desc.type ||
                            lt_vector_row_type(&b->cols[c], r) != b->cols[c].type);
                if (v.type == LT_DECIMAL)
                    v.scale = b->cols[c].scale;
                format_value(cell, sizeof cell, &v);
                len += (size_t)snprintf(out + len, cap > len ? cap - len : 0, "%s%s",
                                        c ? "|" : (first ? "" : ";"), cell);
            }
            first = false;
        }
    }
}

static char result[8192];
static lt_error err;

/* Prepare `sql` over `src`, execute it with `n` parameters under a memory
** limit of `limit` bytes and drain the rows into `out` (`cap` bytes).
** Returns 0, or -1 with the first failing step's error in `*e` (threads
** pass their own; the tests here the global `err`). */
static int run_query(lt_source *src, const char *sql, const lt_value *params, uint32_t n,
                     uint64_t limit, char *out, size_t cap, lt_error *e)
{
    sql_stmt *st;
    sql_cursor *cur;
    out[0] = '\0';
    lt_error_clear(e);
    if (sql_prepare(src, sql, strlen(sql), &st, e) != 0)
        return -1;
    sql_stmt_set_memory_limit(st, limit);
    int rc = sql_execute(st, params, n, &cur, e);
    if (rc == 0) {
        rc = drain(cur, out, cap, e);
        sql_cursor_close(cur);
    }
    sql_stmt_free(st);
    return rc;
}

/* Run `sql` with parameters; the rows go to `result`.  Returns 0 or -1 with
** `err` filled. */
static int runp(const char *sql, const lt_value *params, uint32_t n)
{
    return run_query(&source.base, sql, params, n, SQL_DEFAULT_MEMORY_LIMIT, result, sizeof result,
                     &err);
}

static int run(const char *sql)
{
    return runp(sql, NULL, 0);
}

#define assert_rows(sql, expected)                                          \
    do {                                                                    \
        if (run(sql) != 0)                                                  \
            fail_msg("%s: %s %s", sql, err.sqlstate, err.message);          \
        if (strcmp(result, expected) != 0)                                  \
            fail_msg("%s\n  got:      %s\n  expected: %s", sql, result, expected); \
    } while (0)

#define assert_error(sql, state, fragment)                                  \
    do {                                                                    \
        if (run(sql) == 0)                                                  \
            fail_msg("%s: no error, rows %s", sql, result);                 \
        if (strcmp(err.sqlstate, state) != 0 || strstr(err.message, fragment) == NULL) \
            fail_msg("%s: got %s '%s', expected %s '%s'", sql, err.sqlstate, \
                     err.message, state, fragment);                         \
    } while (0)

static inline lt_value int_value(int64_t i)
{
    lt_value v = {.type = LT_INT64, .u.i64 = i};
    return v;
}

static inline lt_value text_value(const char *s)
{
    lt_value v = {.type = LT_TEXT};
    v.u.bytes.ptr = s;
    v.u.bytes.len = (uint32_t)strlen(s);
    return v;
}


#endif /* TEST_SQL_HARNESS_H */
