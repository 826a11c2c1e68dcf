/*
** test_sqlite_schema.c — what the SQLite reader makes of sqlite_schema for
** the catalog and the engine: a view's SELECT text and column names
** (lt_table.query), FOREIGN KEY / REFERENCES clauses (lt_table.foreign),
** the source's dialect and the sizes of text columns.
**
** Each case builds a small database in memory: page 1 holds the header and
** a one-leaf sqlite_schema with the given CREATE statements, every table
** gets an empty leaf page of its own.  The corpus files check the same
** things on real DDL (views_indexes.db, Chinook).
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

#define SQLITE_DIR LT_CORPUS_DIR "/sqlite"
#define PAGE 4096

/* ---- a database in memory ------------------------------------------------ */

static size_t put_varint(uint8_t *p, uint64_t v)
{
    uint8_t tmp[9];
    size_t n = 0;
    if (v > 0x00ffffffffffffffULL) {
        p[8] = (uint8_t)v;
        v >>= 8;
        for (int i = 7; i >= 0; i--) {
            p[i] = (uint8_t)((v & 0x7f) | 0x80);
            v >>= 7;
        }
        return 9;
    }
    do {
        tmp[n++] = (uint8_t)((v & 0x7f) | 0x80);
        v >>= 7;
    } while (v != 0);
    tmp[0] &= 0x7f;
    for (size_t i = 0; i < n; i++)
        p[i] = tmp[n - 1 - i];
    return n;
}

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* One sqlite_schema row: (type, name, tbl_name, rootpage, sql). */
static size_t schema_record(uint8_t *out, const char *type, const char *name,
                            uint32_t root, const char *sql)
{
    const char *texts[5] = {type, name, name, NULL, sql};
    uint8_t hdr[64];
    size_t h = 0;
    for (int i = 0; i < 5; i++)
        h += put_varint(hdr + h, i == 3 ? 1 : 13 + 2 * strlen(texts[i]));
    size_t n = put_varint(out, h + 1);
    memcpy(out + n, hdr, h);
    n += h;
    for (int i = 0; i < 5; i++) {
        if (i == 3) {
            out[n++] = (uint8_t)root;
            continue;
        }
        memcpy(out + n, texts[i], strlen(texts[i]));
        n += strlen(texts[i]);
    }
    return n;
}

/* A database whose schema holds `n` CREATE statements, NULL-terminated
** list; the object's type and name are taken from the text's third and
** fourth words (CREATE TABLE name / CREATE VIEW name). */
typedef struct mem_db {
    uint8_t *bytes;
    size_t len;
} mem_db;

static void word(const char *sql, int k, char *out, size_t cap)
{
    const char *p = sql;
    for (int i = 0; i < k; i++) {
        p = strchr(p, ' ');
        assert_non_null(p);
        p++;
    }
    size_t n = strcspn(p, " (");
    assert_true(n < cap);
    memcpy(out, p, n);
    out[n] = '\0';
}

static mem_db build(const char *const *sqls)
{
    size_t n = 0;
    while (sqls[n])
        n++;
    uint32_t npages = 1 + (uint32_t)n;
    mem_db db = {calloc(npages, PAGE), (size_t)npages * PAGE};
    assert_non_null(db.bytes);
    uint8_t *h = db.bytes;
    memcpy(h, "SQLite format 3", 16);
    put16(h + 16, PAGE);
    h[18] = h[19] = 1;
    h[21] = 64;
    h[22] = h[23] = 32;
    put32(h + 24, 1);
    put32(h + 28, npages);
    put32(h + 40, 1);
    put32(h + 44, 4);
    put32(h + 56, 1);
    put32(h + 92, 1);
    put32(h + 96, 3040001);
    /* the schema leaf: cells from the end of the page backwards */
    uint8_t *leaf = h + 100;
    leaf[0] = 0x0d;
    put16(leaf + 3, (unsigned)n);
    size_t content = PAGE;
    for (size_t i = 0; i < n; i++) {
        uint8_t rec[PAGE], cell[PAGE];
        char type[16], name[64];
        word(sqls[i], 1, type, sizeof type);
        word(sqls[i], 2, name, sizeof name);
        if (strcmp(name, "IF") == 0)
            word(sqls[i], 5, name, sizeof name);
        if (name[0] == '[' || name[0] == '"') {   /* no escapes in these tests */
            size_t k = strlen(name);
            memmove(name, name + 1, k - 2);
            name[k - 2] = '\0';
        }
        for (char *c = type; *c; c++)
            *c = (char)(*c | 0x20);
        size_t rl = schema_record(rec, type, name,
                                  strcmp(type, "view") == 0 ? 0 : (uint32_t)(2 + i),
                                  sqls[i]);
        size_t cl = put_varint(cell, rl);
        cl += put_varint(cell + cl, i + 1);
        memcpy(cell + cl, rec, rl);
        cl += rl;
        assert_true(content - cl > 100 + 8 + 2 * n);
        content -= cl;
        memcpy(h + content, cell, cl);
        put16(leaf + 8 + 2 * i, (unsigned)content);
        /* every table's own empty leaf */
        db.bytes[(1 + i) * PAGE] = 0x0d;
        put16(db.bytes + (1 + i) * PAGE + 5, PAGE);
    }
    put16(leaf + 5, (unsigned)content);
    return db;
}

static lt_source *open_db(const mem_db *db)
{
    lt_source *src = NULL;
    lt_error err;
    lt_error_clear(&err);
    int rc = lt_sqlite_open_memory(db->bytes, db->len, "schema-test.db", NULL, &src, &err);
    if (rc != 0)
        fail_msg("open: %s", err.message);
    return src;
}

static const lt_table *table(const lt_source *src, const char *name)
{
    int64_t i = lt_source_find_table(src, name, strlen(name));
    if (i < 0)
        fail_msg("no table %s", name);
    return &src->tables[i];
}

/* ---- views ------------------------------------------------------------------ */

static void test_views(void **state)
{
    (void)state;
    static const char *const sqls[] = {
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)",
        "CREATE VIEW v1 AS SELECT a, b FROM t WHERE b <> 'x AS y'",
        "CREATE VIEW v2(x, \"y z\") AS\n  SELECT a, b FROM t ORDER BY a",
        "CREATE VIEW IF NOT EXISTS v3 AS SELECT count(*) AS n FROM t;",
        "CREATE VIEW [v4] ( [p] , `q` )AS SELECT 1, 2",
        "CREATE VIEW v5 AS",
        NULL,
    };
    mem_db db = build(sqls);
    lt_source *src = open_db(&db);
    assert_int_equal(src->dialect, LT_DIALECT_SQLITE);
    assert_int_equal(src->ntables, 6);

    const lt_table *t = table(src, "t");
    assert_null(t->query);

    const lt_table *v = table(src, "v1");
    assert_string_equal(v->kind, "VIEW");
    assert_null(v->error);
    assert_string_equal(v->query, "SELECT a, b FROM t WHERE b <> 'x AS y'");
    assert_int_equal(v->ncols, 0);

    v = table(src, "v2");
    assert_null(v->error);
    assert_string_equal(v->query, "SELECT a, b FROM t ORDER BY a");
    assert_int_equal(v->ncols, 2);
    assert_string_equal(v->cols[0].name, "x");
    assert_string_equal(v->cols[1].name, "y z");
    assert_int_equal(v->cols[0].type, LT_NULL);
    assert_int_equal(v->cols[1].type, LT_NULL);

    v = table(src, "v3");
    assert_string_equal(v->query, "SELECT count(*) AS n FROM t");

    v = table(src, "v4");
    assert_string_equal(v->query, "SELECT 1, 2");
    assert_int_equal(v->ncols, 2);
    assert_string_equal(v->cols[0].name, "p");
    assert_string_equal(v->cols[1].name, "q");

    /* no SELECT after AS: listed, with an error naming the file */
    v = table(src, "v5");
    assert_null(v->query);
    assert_non_null(v->error);
    assert_non_null(strstr(v->error, "schema-test.db"));

    /* a view is never scanned by the reader */
    uint32_t col = 0;
    lt_scan_spec spec = {.table = (uint32_t)lt_source_find_table(src, "v1", 2),
                         .ncols = 0, .cols = &col, .limit = -1};
    lt_scan *scan = NULL;
    lt_error err;
    lt_error_clear(&err);
    assert_int_equal(src->reader->scan_open(src, &spec, &scan, &err), -1);
    assert_non_null(strstr(err.message, "is a view"));
    lt_source_close(src);
    free(db.bytes);
}

/* The corpus's views: the text exactly as written after AS. */
static void test_corpus_views(void **state)
{
    (void)state;
    lt_source *src = NULL;
    lt_error err;
    lt_error_clear(&err);
    assert_int_equal(lt_source_open(SQLITE_DIR "/generated/views_indexes.db", NULL, &src, &err), 0);
    const lt_table *v = table(src, "v_dept_stats");
    assert_null(v->error);
    assert_string_equal(v->query,
                        "SELECT d.name, count(e.id), round(avg(e.salary), 2)\n"
                        "           FROM dept d LEFT JOIN emp e ON e.dept_id = d.id "
                        "GROUP BY d.id ORDER BY d.id");
    assert_int_equal(v->ncols, 3);
    assert_string_equal(v->cols[0].name, "dept");
    assert_string_equal(v->cols[1].name, "n");
    assert_string_equal(v->cols[2].name, "avg_salary");
    v = table(src, "v r&d");
    assert_string_equal(v->query, "SELECT * FROM v_emp WHERE dept = 'R&D' ORDER BY id");
    assert_int_equal(v->ncols, 0);
    /* emp.dept_id INT REFERENCES dept(id) */
    const lt_table *emp = table(src, "emp");
    assert_int_equal(emp->nforeign, 1);
    assert_string_equal(emp->foreign[0].ref_table, "dept");
    assert_int_equal(emp->foreign[0].ncols, 1);
    assert_string_equal(emp->cols[emp->foreign[0].cols[0]].name, "dept_id");
    assert_string_equal(emp->foreign[0].ref_cols[0], "id");
    lt_source_close(src);
}

/* ---- foreign keys ------------------------------------------------------------- */

static const lt_foreign_key *fk_to(const lt_table *t, const char *parent, int nth)
{
    for (uint32_t i = 0; i < t->nforeign; i++)
        if (strcmp(t->foreign[i].ref_table, parent) == 0 && nth-- == 0)
            return &t->foreign[i];
    fail_msg("%s has no foreign key to %s", t->name, parent);
    return NULL;
}

static void test_foreign_keys(void **state)
{
    (void)state;
    static const char *const sqls[] = {
        "CREATE TABLE p(id INTEGER PRIMARY KEY, code TEXT UNIQUE)",
        "CREATE TABLE p2(x INT, y INT, PRIMARY KEY(x, y))",
        "CREATE TABLE c(a INT REFERENCES p(id) ON DELETE CASCADE ON UPDATE SET NULL,"
        " b TEXT CONSTRAINT fk_b REFERENCES p (code) ON UPDATE RESTRICT NOT NULL,"
        " d INT REFERENCES p,"
        " e INT, f INT,"
        " CONSTRAINT two FOREIGN KEY (e, f) REFERENCES p2 ON DELETE SET DEFAULT"
        "   DEFERRABLE INITIALLY DEFERRED,"
        " FOREIGN KEY (f) REFERENCES \"missing\"(z) ON DELETE NO ACTION MATCH FULL,"
        " FOREIGN KEY (e) REFERENCES nowhere,"
        " FOREIGN KEY (e, f) REFERENCES p2(x))",
        NULL,
    };
    mem_db db = build(sqls);
    lt_source *src = open_db(&db);
    const lt_table *c = table(src, "c");
    assert_null(c->error);
    assert_int_equal(c->ncols, 5);
    /* b is NOT NULL: the clause after REFERENCES is still read */
    assert_false(c->cols[1].nullable);
    /* kept: a, b, d, (e, f), f -> missing; dropped: e -> nowhere (no parent
    ** key to name) and (e, f) -> p2(x) (column counts differ) */
    assert_int_equal(c->nforeign, 5);

    const lt_foreign_key *k = fk_to(c, "p", 0);
    assert_null(k->name);
    assert_int_equal(k->ncols, 1);
    assert_int_equal(k->cols[0], 0);
    assert_string_equal(k->ref_cols[0], "id");
    assert_int_equal(k->delete_rule, 0);   /* SQL_CASCADE */
    assert_int_equal(k->update_rule, 2);   /* SQL_SET_NULL */

    k = fk_to(c, "p", 1);
    assert_string_equal(k->name, "fk_b");
    assert_int_equal(k->cols[0], 1);
    assert_string_equal(k->ref_cols[0], "code");
    assert_int_equal(k->update_rule, 1);   /* SQL_RESTRICT */
    assert_int_equal(k->delete_rule, 3);   /* SQL_NO_ACTION */

    /* no parent columns: the parent's primary key (the rowid alias) */
    k = fk_to(c, "p", 2);
    assert_int_equal(k->cols[0], 2);
    assert_string_equal(k->ref_cols[0], "id");

    k = fk_to(c, "p2", 0);
    assert_string_equal(k->name, "two");
    assert_int_equal(k->ncols, 2);
    assert_int_equal(k->cols[0], 3);
    assert_int_equal(k->cols[1], 4);
    assert_string_equal(k->ref_cols[0], "x");
    assert_string_equal(k->ref_cols[1], "y");
    assert_int_equal(k->delete_rule, 4);   /* SQL_SET_DEFAULT */
    assert_int_equal(k->update_rule, 3);

    /* a named parent that does not exist is still a foreign key */
    k = fk_to(c, "missing", 0);
    assert_string_equal(k->ref_cols[0], "z");
    assert_int_equal(k->cols[0], 4);
    assert_int_equal(k->delete_rule, 3);
    lt_source_close(src);
    free(db.bytes);
}

/* Chinook's bracketed table constraints. */
static void test_chinook_keys(void **state)
{
    (void)state;
    lt_source *src = NULL;
    lt_error err;
    lt_error_clear(&err);
    assert_int_equal(lt_source_open(SQLITE_DIR "/realworld/Chinook_Sqlite.sqlite", NULL, &src,
                                    &err), 0);
    const lt_table *t = table(src, "PlaylistTrack");
    assert_int_equal(t->nforeign, 2);
    const lt_foreign_key *k = fk_to(t, "Playlist", 0);
    assert_string_equal(t->cols[k->cols[0]].name, "PlaylistId");
    assert_string_equal(k->ref_cols[0], "PlaylistId");
    assert_int_equal(k->update_rule, 3);
    assert_int_equal(k->delete_rule, 3);
    k = fk_to(t, "Track", 0);
    assert_string_equal(t->cols[k->cols[0]].name, "TrackId");
    t = table(src, "Employee");
    k = fk_to(t, "Employee", 0);   /* ReportsTo -> EmployeeId */
    assert_string_equal(t->cols[k->cols[0]].name, "ReportsTo");
    assert_string_equal(k->ref_cols[0], "EmployeeId");
    lt_source_close(src);
}

/* ---- column sizes --------------------------------------------------------------- */

static void test_text_sizes(void **state)
{
    (void)state;
    static const char *const sqls[] = {
        "CREATE TABLE s(a TEXT, b VARCHAR(40), c BLOB, d, e CLOB NOT NULL, f BINARY(16),"
        " g TEXT AS (a || a))",
        NULL,
    };
    mem_db db = build(sqls);
    lt_source *src = open_db(&db);
    const lt_table *t = table(src, "s");
    /* two 4096-byte pages: no value can be longer than 8192 bytes */
    const uint32_t want[] = {8192, 40, 8192, 8192, 8192, 16, 1000000000};
    const bool is_long[] = {true, false, true, true, true, false, true};
    assert_int_equal(t->ncols, 7);
    for (uint32_t i = 0; i < 7; i++) {
        assert_int_equal(t->cols[i].size, want[i]);
        assert_int_equal(t->cols[i].is_long, is_long[i]);
    }
    lt_source_close(src);
    free(db.bytes);

    /* UTF-16: two bytes a character */
    lt_error err;
    lt_error_clear(&err);
    assert_int_equal(lt_source_open(SQLITE_DIR "/generated/enc_utf16le.db", NULL, &src, &err), 0);
    bool seen = false;
    for (uint32_t i = 0; i < src->ntables; i++)
        for (uint32_t c = 0; c < src->tables[i].ncols; c++) {
            const lt_column *col = &src->tables[i].cols[c];
            if (col->type == LT_TEXT && col->is_long) {
                assert_true(col->size > 0 && col->size < 1000000);
                assert_int_equal(col->size % 2, 0);
                seen = true;
            }
        }
    assert_true(seen);
    lt_source_close(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_views),
        cmocka_unit_test(test_corpus_views),
        cmocka_unit_test(test_foreign_keys),
        cmocka_unit_test(test_chinook_keys),
        cmocka_unit_test(test_text_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
