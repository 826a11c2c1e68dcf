/*
** test_sqlite_generated.c — SQLite databases made by libsqlite3 itself from
** a fixed seed, each table read through Lector's SQLite reader and compared
** value by value, row by row (rowid or key order) with what libsqlite3
** reads from the same database.
**
** The generator covers the shapes a reader meets in the wild: page sizes
** 512..65536; UTF-8, UTF-16le and UTF-16be databases; WITHOUT ROWID tables
** and INTEGER PRIMARY KEY aliases; rows that spill into overflow chains
** (long text and blobs); auto_vacuum FULL and INCREMENTAL (pointer-map
** pages) with deletes; freelist pages (deletes and dropped tables without
** VACUUM); ALTER TABLE ADD COLUMN with DEFAULTs (old records shorter than
** the schema); WAL databases whose last transactions live only in the -wal
** file (copied while the writer is still open, autocheckpoint off).  Values
** are random INTEGERs of every width, REALs, TEXT with non-ASCII letters and
** emoji, BLOBs and NULLs, with mixed storage classes in one column.
**
** The oracle is libsqlite3 (libsqlite3-dev, installed by scripts/deps.sh;
** only the tests link it).  Values are compared exactly: same storage class (INTEGER ->
** INT64, REAL -> DOUBLE, TEXT, BLOB -> BINARY, NULL) and same canonical
** text (doubles render shortest round-trip, so equal text is equal bits);
** the one exception is the reader's documented mapping of NUMERIC columns
** to DOUBLE, where an integer a double holds exactly comes as that double.
** Every table is read twice, in full batches and in 7-row batches.
** Databases are written under $TMPDIR (or /tmp) and removed when they
** match; a database that differs is kept and its path printed.
**
**   LT_SQLITEGEN_SEED=S   generator seed (default 20261130)
**   LT_SQLITEGEN_COUNT=N  databases to generate (default 60)
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

#include "reader.h"
#include "sqlite/sqlite.h"
#include "support/corpus.h"

static void sq_exec(sqlite3 *db, const char *sql)
{
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != 0)
        fail_msg("sqlite3: %s: %s", sql, sqlite3_errmsg(db));
}

static sqlite3_stmt *sq_prepare(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != 0)
        fail_msg("sqlite3: %s: %s", sql, sqlite3_errmsg(db));
    return st;
}

/* The first column of the first row of a query, as text (static buffer). */
static const char *sq_text(sqlite3 *db, const char *sql)
{
    static char out[64];
    sqlite3_stmt *st = sq_prepare(db, sql);
    if (sqlite3_step(st) != SQLITE_ROW)
        fail_msg("sqlite3: %s: no row: %s", sql, sqlite3_errmsg(db));
    snprintf(out, sizeof out, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return out;
}

/* ---- randomness ------------------------------------------------------------------ */

static uint64_t rng_state;

static uint64_t rnd(void)
{
    /* splitmix64: fixed, portable, good enough for test data */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint32_t rnd_below(uint32_t n)
{
    return (uint32_t)(rnd() % n);
}

/* An integer of a random width, so every record serial type (1..6, 8, 9) occurs. */
static int64_t rnd_int(void)
{
    static const int bits[] = {0, 1, 7, 8, 15, 16, 23, 24, 31, 32, 47, 48, 63};
    switch (rnd_below(16)) {
    case 0: return 0;
    case 1: return 1;
    case 2: return INT64_MAX;
    case 3: return INT64_MIN;
    default: break;
    }
    int b = bits[rnd_below(sizeof bits / sizeof *bits)];
    int64_t v = b == 0 ? 0 : (int64_t)(rnd() >> (64 - b));
    return rnd_below(2) ? -v : v;
}

static double rnd_real(void)
{
    switch (rnd_below(8)) {
    case 0: return (double)(int32_t)rnd();          /* integral: stored as an integer in REAL columns */
    case 1: return 0.5;
    case 2: return -1e300;
    case 3: return 4.9e-324;
    default: break;
    }
    double m = (double)(rnd() >> 11) / 9007199254740992.0;
    int e = (int)rnd_below(40) - 20;
    double v = m;
    for (; e > 0; e--) v *= 10;
    for (; e < 0; e++) v /= 10;
    return rnd_below(2) ? -v : v;
}

/* Random UTF-8 text of about n bytes: ASCII, Latin, Greek, CJK, emoji. */
static void rnd_text(ts_str *b, size_t n)
{
    static const char *const pieces[] = {
        "a", "Z", "0", " ", ",", "\"", "'", "\n", "é", "ß", "Ω", "Ж", "中", "文", "😀", "🎉", "𝄞", "ﬁ", "\t",
    };
    b->len = 0;
    ts_putn(b, "", 0);
    while (b->len < n) {
        const char *p = rnd_below(3) ? pieces[rnd_below(4)] : pieces[rnd_below(sizeof pieces / sizeof *pieces)];
        ts_putn(b, p, strlen(p));
    }
}

/* ---- the generator ------------------------------------------------------------------ */

static const char *const decl_types[] = {"INTEGER", "REAL", "TEXT", "BLOB", "", "NUMERIC", "VARCHAR(20)", "DOUBLE"};
enum { NDECL = sizeof decl_types / sizeof *decl_types };

typedef struct gen_table {
    char name[32];
    int ncols;          /* user columns, not counting added ones */
    int decl[8];
    int nadded;         /* columns added by ALTER TABLE */
    bool without_rowid, ipk, big;
} gen_table;

/* Bind a random value of a random storage class (biased toward the column's). */
static void bind_random(sqlite3_stmt *st, int i, int decl, bool big, ts_str *b)
{
    int cls = rnd_below(3) ? decl % 5 : (int)rnd_below(5);
    switch (cls) {
    case 0: sqlite3_bind_int64(st, i, rnd_int()); break;
    case 1: sqlite3_bind_double(st, i, rnd_real()); break;
    case 2:
    case 4: {
        size_t n = big && rnd_below(3) == 0 ? 200 + rnd_below(30000) : rnd_below(40);
        rnd_text(b, n);
        sqlite3_bind_text(st, i, b->p, (int)b->len, SQLITE_TRANSIENT);
        break;
    }
    default: {
        if (rnd_below(4) == 0) {
            sqlite3_bind_null(st, i);
            break;
        }
        size_t n = big && rnd_below(3) == 0 ? 100 + rnd_below(120000) : rnd_below(30);
        b->len = 0;
        for (size_t k = 0; k < n; k++) {
            char c = (char)rnd();
            ts_putn(b, &c, 1);
        }
        sqlite3_bind_blob(st, i, b->len ? b->p : "", (int)b->len, SQLITE_TRANSIENT);
        break;
    }
    }
}

static void create_table(sqlite3 *db, gen_table *t, int n)
{
    ts_str sql = {0};
    snprintf(t->name, sizeof t->name, rnd_below(4) == 0 ? "T %d é" : "t%d", n);
    t->ncols = 2 + (int)rnd_below(5);
    t->without_rowid = rnd_below(4) == 0;
    t->ipk = !t->without_rowid && rnd_below(3) == 0;
    t->big = rnd_below(3) == 0;
    ts_printf(&sql, "CREATE TABLE \"%s\" (", t->name);
    if (t->without_rowid)
        ts_printf(&sql, "k %s PRIMARY KEY, ", rnd_below(2) ? "INTEGER" : "TEXT");
    else if (t->ipk)
        ts_printf(&sql, "id INTEGER PRIMARY KEY, ");
    for (int c = 0; c < t->ncols; c++) {
        t->decl[c] = (int)rnd_below(NDECL);
        ts_printf(&sql, "%sc%d %s", c ? ", " : "", c, decl_types[t->decl[c]]);
    }
    ts_printf(&sql, ")%s", t->without_rowid ? " WITHOUT ROWID" : "");
    sq_exec(db, sql.p);
    free(sql.p);
}

static void insert_rows(sqlite3 *db, gen_table *t, int nrows, int64_t *nextkey)
{
    ts_str sql = {0}, b = {0};
    int nparams = t->ncols + (t->without_rowid || t->ipk);
    /* The original columns only: added ones take their DEFAULT. */
    ts_printf(&sql, "INSERT INTO \"%s\" (%s", t->name, t->without_rowid ? "k, " : t->ipk ? "id, " : "");
    for (int c = 0; c < t->ncols; c++)
        ts_printf(&sql, "%sc%d", c ? ", " : "", c);
    ts_printf(&sql, ") VALUES (");
    for (int i = 0; i < nparams; i++)
        ts_printf(&sql, "%s?", i ? ", " : "");
    ts_printf(&sql, ")");
    sqlite3_stmt *st = sq_prepare(db, sql.p);
    sq_exec(db, "BEGIN");
    for (int r = 0; r < nrows; r++) {
        int p = 1;
        if (t->without_rowid) {
            int64_t k = (*nextkey += 1 + rnd_below(1000));
            if (rnd_below(3) == 0) {   /* text keys, in an INTEGER key column too */
                char key[48];
                snprintf(key, sizeof key, "key %lld é", (long long)k);
                sqlite3_bind_text(st, p++, key, -1, SQLITE_TRANSIENT);
            } else {
                sqlite3_bind_int64(st, p++, k);
            }
        } else if (t->ipk) {
            if (rnd_below(5) == 0) {
                sqlite3_bind_null(st, p++);   /* SQLite picks max(rowid) + 1 */
                (*nextkey)++;
            } else {
                /* Gaps of every size; one rnd() per statement keeps the
                ** sequence the same whatever the compiler's evaluation order. */
                uint64_t span = (uint64_t)1 << rnd_below(40);
                *nextkey += 1 + (int64_t)(rnd() % span);
                sqlite3_bind_int64(st, p++, *nextkey);
            }
        }
        for (int c = 0; c < t->ncols; c++)
            bind_random(st, p++, t->decl[c], t->big, &b);
        if (sqlite3_step(st) != SQLITE_DONE)
            fail_msg("sqlite3: insert into %s: %s", t->name, sqlite3_errmsg(db));
        sqlite3_reset(st);
    }
    sq_exec(db, "COMMIT");
    sqlite3_finalize(st);
    free(sql.p);
    free(b.p);
}

static void add_column(sqlite3 *db, gen_table *t, int n)
{
    static const char *const defaults[] = {
        "", "DEFAULT 42", "DEFAULT -7", "DEFAULT 2.5", "DEFAULT -0.125", "DEFAULT 'dé''faut 😀'",
        "DEFAULT NULL", "DEFAULT x'00ff10'", "DEFAULT 9223372036854775807", "DEFAULT +3",
    };
    char sql[256];
    const char *type = decl_types[rnd_below(NDECL)];
    const char *dflt = defaults[rnd_below(sizeof defaults / sizeof *defaults)];
    snprintf(sql, sizeof sql, "ALTER TABLE \"%s\" ADD COLUMN a%d %s %s", t->name, n, type, dflt);
    sq_exec(db, sql);
}

static void delete_rows(sqlite3 *db, const gen_table *t)
{
    char sql[256];
    /* Deletes by key parity, a random cut: freelist leaves and interior pages. */
    uint32_t m = 2 + rnd_below(3), r = rnd_below(2);
    snprintf(sql, sizeof sql, "DELETE FROM \"%s\" WHERE abs(%s) %% %u = %u", t->name,
             t->without_rowid ? "CAST(k AS INTEGER)" : "rowid", m, r);
    sq_exec(db, sql);
}

/* ---- one database ---------------------------------------------------------------- */

typedef struct gen_db {
    int page_size;
    const char *encoding, *auto_vacuum;
    bool wal;
    int ntables;
    int freelist;          /* freelist pages when read */
    size_t wal_bytes;      /* size of the -wal copy */
    gen_table tables[5];
} gen_db;

typedef struct oracle_table {
    char *name;
    ts_csv rows;          /* row 0 the header; cells carry the type */
} oracle_table;

static lt_type storage_type(int t)
{
    switch (t) {
    case SQLITE_INTEGER: return LT_INT64;
    case SQLITE_FLOAT: return LT_DOUBLE;
    case SQLITE_TEXT: return LT_TEXT;
    case SQLITE_BLOB: return LT_BINARY;
    default: return LT_NULL;
    }
}

/* Values longer than a page: certainly in an overflow chain. */
static size_t noverflow;

/* What libsqlite3 reads from table t, in rowid (or key) order. */
static void oracle_read(sqlite3 *db, const gen_table *t, int page_size, oracle_table *out)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT * FROM \"%s\" ORDER BY %s", t->name, t->without_rowid ? "k" : "rowid");
    sqlite3_stmt *st = sq_prepare(db, sql);
    int n = sqlite3_column_count(st);
    out->name = strdup(t->name);
    memset(&out->rows, 0, sizeof out->rows);
    ts_row head = {calloc((size_t)n + 1, sizeof(ts_cell)), (size_t)n};
    for (int c = 0; c < n; c++)
        head.cells[c].text = strdup(sqlite3_column_name(st, c));
    ts_csv_add(&out->rows, head);
    ts_str b = {0};
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        ts_row row = {calloc((size_t)n + 1, sizeof(ts_cell)), (size_t)n};
        for (int c = 0; c < n; c++) {
            int type = sqlite3_column_type(st, c);
            lt_value v = {.type = storage_type(type)};
            switch (type) {
            case SQLITE_INTEGER: v.u.i64 = sqlite3_column_int64(st, c); break;
            case SQLITE_FLOAT: v.u.f64 = sqlite3_column_double(st, c); break;
            case SQLITE_TEXT:
                v.u.bytes.ptr = (const char *)sqlite3_column_text(st, c);
                v.u.bytes.len = (uint32_t)sqlite3_column_bytes(st, c);
                break;
            case SQLITE_BLOB:
                v.u.bytes.ptr = sqlite3_column_blob(st, c);
                v.u.bytes.len = (uint32_t)sqlite3_column_bytes(st, c);
                break;
            default: break;
            }
            switch (type) {
            case SQLITE_TEXT:
            case SQLITE_BLOB: noverflow += v.u.bytes.len > (uint32_t)page_size; break;
            default: break;
            }
            bool present = ts_render(&v, &b);
            row.cells[c].text = strdup(present ? b.p : "");
            row.cells[c].null = !present;
            row.cells[c].type = v.type;
        }
        ts_csv_add(&out->rows, row);
    }
    if (rc != SQLITE_DONE)
        fail_msg("sqlite3: %s: %s", sql, sqlite3_errmsg(db));
    sqlite3_finalize(st);
    free(b.p);
}

static void copy_file(const char *from, const char *to)
{
    size_t len;
    char *data = ts_slurp(from, &len);
    if (data == NULL)
        fail_msg("cannot read %s", from);
    FILE *f = fopen(to, "wb");
    if (f == NULL || fwrite(data, 1, len, f) != len || fclose(f) != 0)
        fail_msg("cannot write %s", to);
    free(data);
}

/*
** Build database number i at path and read it back through libsqlite3
** into oracle[]; returns the number of tables.  A WAL database is copied
** to path while the writer still holds its last transactions in the -wal.
*/
static int generate(int i, const char *path, const char *work, gen_db *g, oracle_table *oracle)
{
    static const int page_sizes[] = {512, 1024, 4096, 65536};
    static const char *const encodings[] = {"UTF-8", "UTF-16le", "UTF-16be"};
    static const char *const vacuums[] = {"NONE", "FULL", "INCREMENTAL"};
    g->page_size = page_sizes[i % 4];
    g->encoding = encodings[i % 3];
    g->auto_vacuum = vacuums[(i / 4) % 3];
    g->wal = i % 5 == 2 || i % 7 == 6;
    g->ntables = 2 + (int)rnd_below(3);

    const char *dbpath = g->wal ? work : path;
    unlink(dbpath);
    char wal[1100];
    snprintf(wal, sizeof wal, "%.1000s-wal", dbpath);
    unlink(wal);
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != 0)
        fail_msg("sqlite3: cannot create %s", dbpath);
    char sql[256];
    /* synchronous=OFF: no fsync, same file format. */
    snprintf(sql, sizeof sql, "PRAGMA synchronous=OFF; PRAGMA page_size=%d; PRAGMA encoding='%s'; "
             "PRAGMA auto_vacuum=%s;",
             g->page_size, g->encoding, g->auto_vacuum);
    sq_exec(db, sql);
    if (g->wal)
        sq_exec(db, "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;");

    int64_t keys[5] = {0};
    int rows = g->page_size >= 4096 ? 150 : 60;
    for (int t = 0; t < g->ntables; t++) {
        create_table(db, &g->tables[t], t);
        insert_rows(db, &g->tables[t], 1 + (int)rnd_below((uint32_t)rows), &keys[t]);
    }
    /* A table dropped, without VACUUM: its pages go to the freelist. */
    sq_exec(db, "CREATE TABLE dropped (x); INSERT INTO dropped VALUES (randomblob(3000)), (randomblob(9000));");
    if (g->wal)
        sq_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)");   /* the rest lives only in the -wal */
    sq_exec(db, "DROP TABLE dropped");
    for (int t = 0; t < g->ntables; t++) {
        gen_table *gt = &g->tables[t];
        if (rnd_below(3))
            delete_rows(db, gt);
        /* Old records stay short; rows inserted later carry the DEFAULTs. */
        int nadd = (int)rnd_below(3);
        for (int a = 0; a < nadd; a++)
            add_column(db, gt, gt->nadded++);
        if (rnd_below(2))
            insert_rows(db, gt, 1 + (int)rnd_below(20), &keys[t]);
    }
    if (strcmp(g->auto_vacuum, "INCREMENTAL") == 0 && rnd_below(2))
        sq_exec(db, "PRAGMA incremental_vacuum(3)");
    /* The database is what it was meant to be. */
    static const char *const av_numbers[] = {"0", "1", "2"};
    if (atoi(sq_text(db, "PRAGMA page_size")) != g->page_size ||
        strcmp(sq_text(db, "PRAGMA encoding"), g->encoding) != 0 ||
        strcmp(sq_text(db, "PRAGMA auto_vacuum"), av_numbers[(i / 4) % 3]) != 0 ||
        strcmp(sq_text(db, "PRAGMA journal_mode"), g->wal ? "wal" : "delete") != 0)
        fail_msg("database %d: page size, encoding, auto_vacuum or journal mode not as asked", i);
    g->freelist = atoi(sq_text(db, "PRAGMA freelist_count"));
    for (int t = 0; t < g->ntables; t++)
        oracle_read(db, &g->tables[t], g->page_size, &oracle[t]);
    if (g->wal) {
        char to[1100];
        unlink(path);
        copy_file(dbpath, path);
        snprintf(to, sizeof to, "%.1000s-wal", path);
        copy_file(wal, to);
        /* Committed frames beyond the 32-byte header, not yet checkpointed. */
        size_t len;
        free(ts_slurp(to, &len));
        if (len <= 32)
            fail_msg("database %d: the -wal copy holds no frames", i);
        g->wal_bytes = len;
    }
    sqlite3_close(db);
    return g->ntables;
}

/* ---- comparing ------------------------------------------------------------------ */

static const char *type_name(lt_type t)
{
    switch (t) {
    case LT_NULL: return "NULL";
    case LT_INT64: return "INTEGER";
    case LT_DOUBLE: return "REAL";
    case LT_TEXT: return "TEXT";
    case LT_BINARY: return "BLOB";
    default: return "another type";
    }
}

/* Values longer than this are shown cut in messages. */
static void show(char *out, size_t cap, const ts_cell *c)
{
    if (c->null)
        snprintf(out, cap, "NULL");
    else
        snprintf(out, cap, "%s %.*s%s (%zu bytes)", type_name(c->type), 120, c->text,
                 strlen(c->text) > 120 ? "..." : "", strlen(c->text));
}

/*
** NUMERIC columns are DOUBLE and hold an integer as a double when the double
** is exactly that integer (readers/sqlite/README.md, "Dynamic typing").
*/
static bool same_integer_as_double(const ts_cell *ours, const ts_cell *want)
{
    if (ours->type != LT_DOUBLE || want->type != LT_INT64)
        return false;
    double d = strtod(ours->text, NULL);
    long long i = strtoll(want->text, NULL, 10);
    /* 2^63 is out of int64's range; every other double here converts. */
    return d >= -9223372036854775808.0 && d < 9223372036854775808.0 && (long long)d == i;
}

/* Exact comparison: header, row count, every cell's class and text. */
static bool same_table(const ts_result *res, const ts_csv *oracle, char *why, size_t whylen, size_t *nvalues)
{
    const ts_row *head = &oracle->rows[0];
    if (res->ncols != head->n) {
        snprintf(why, whylen, "%u columns, libsqlite3 has %zu", res->ncols, head->n);
        return false;
    }
    for (uint32_t c = 0; c < res->ncols; c++)
        if (strcmp(res->names[c], head->cells[c].text) != 0) {
            snprintf(why, whylen, "column %u is named '%s', libsqlite3 says '%s'", c, res->names[c],
                     head->cells[c].text);
            return false;
        }
    if (res->rows.n != oracle->n - 1) {
        snprintf(why, whylen, "%zu rows, libsqlite3 has %zu", res->rows.n, oracle->n - 1);
        return false;
    }
    for (size_t r = 0; r < res->rows.n; r++)
        for (uint32_t c = 0; c < res->ncols; c++) {
            const ts_cell *ours = &res->rows.rows[r].cells[c], *want = &oracle->rows[r + 1].cells[c];
            bool same = ours->null == want->null &&
                        (ours->null || (ours->type == want->type && strcmp(ours->text, want->text) == 0) ||
                         same_integer_as_double(ours, want));
            if (!same) {
                char a[256], b[256];
                show(a, sizeof a, ours);
                show(b, sizeof b, want);
                snprintf(why, whylen, "row %zu column '%s': ours %s, libsqlite3 %s", r + 1,
                         head->cells[c].text, a, b);
                return false;
            }
            (*nvalues)++;
        }
    return true;
}

/* Read every table of the database at path and compare; false on a difference. */
static bool check_database(const char *path, const gen_db *g, oracle_table *oracle, size_t *ntables,
                           size_t *nvalues)
{
    lt_source *src = NULL;
    lt_error err;
    lt_error_clear(&err);
    if (lt_source_open(path, NULL, &src, &err) != 0) {
        print_message("  %s: open failed: %s\n", path, err.message);
        return false;
    }
    bool ok = true;
    if (src->reader != &lt_sqlite_reader) {
        print_message("  %s: opened by the %s reader\n", path, src->reader->name);
        ok = false;
    }
    for (int t = 0; ok && t < g->ntables; t++) {
        int64_t ti = ts_table_index(src, oracle[t].name);
        if (ti < 0) {
            print_message("  %s: table '%s' not listed\n", path, oracle[t].name);
            ok = false;
            break;
        }
        static const uint32_t capacities[] = {LT_BATCH_ROWS, 7};
        for (size_t k = 0; ok && k < 2; k++) {
            ts_result res;
            char why[1024] = "";
            ts_scan(src, (uint32_t)ti, capacities[k], &res);
            if (!res.ok) {
                snprintf(why, sizeof why, "scan failed: %.900s", res.message);
                ok = false;
            } else {
                ok = same_table(&res, &oracle[t].rows, why, sizeof why, nvalues);
            }
            if (!ok)
                print_message("  %s: table '%s' (%u-row batches): %s\n", path, oracle[t].name, capacities[k], why);
            ts_result_free(&res);
        }
        (*ntables)++;
    }
    lt_source_close(src);
    return ok;
}

/* ---- the test ------------------------------------------------------------------ */

static unsigned long env_number(const char *name, unsigned long dflt)
{
    const char *s = getenv(name);
    return s != NULL && *s != '\0' ? strtoul(s, NULL, 10) : dflt;
}

static void test_generated(void **state)
{
    (void)state;
    unsigned long seed = env_number("LT_SQLITEGEN_SEED", 20261130);
    unsigned long count = env_number("LT_SQLITEGEN_COUNT", 60);
    const char *tmp = getenv("TMPDIR");
    char dir[512];
    snprintf(dir, sizeof dir, "%.400s/lt-sqlitegen-XXXXXX", tmp != NULL && *tmp ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL)
        fail_msg("cannot make a directory under %s", dir);

    size_t ndbs = 0, ntables = 0, nvalues = 0, nbad = 0, nfree = 0, nwal = 0, nwithout = 0, nadded = 0;
    for (unsigned long i = 0; i < count; i++) {
        rng_state = seed * 1000003u + i;
        char path[1100], work[1100], side[1200];
        snprintf(path, sizeof path, "%s/gen%03lu.db", dir, i);
        snprintf(work, sizeof work, "%s/writer%03lu.db", dir, i);
        gen_db g;
        memset(&g, 0, sizeof g);
        oracle_table oracle[5];
        memset(oracle, 0, sizeof oracle);
        int n = generate((int)i, path, work, &g, oracle);
        bool ok = check_database(path, &g, oracle, &ntables, &nvalues);
        ndbs++;
        nfree += g.freelist > 0;
        nwal += g.wal;
        for (int t = 0; t < n; t++) {
            nwithout += g.tables[t].without_rowid;
            nadded += g.tables[t].nadded > 0;
        }
        if (!ok) {
            nbad++;
            print_message("  ^ kept: %s (seed %lu, database %lu: page_size %d, %s, auto_vacuum %s%s)\n", path,
                          seed, i, g.page_size, g.encoding, g.auto_vacuum, g.wal ? ", WAL" : "");
        } else {
            unlink(path);
            snprintf(side, sizeof side, "%.1000s-wal", path);
            unlink(side);
        }
        unlink(work);
        snprintf(side, sizeof side, "%s-wal", work);
        unlink(side);
        snprintf(side, sizeof side, "%s-shm", work);
        unlink(side);
        for (int t = 0; t < n; t++) {
            free(oracle[t].name);
            ts_csv_free(&oracle[t].rows);
        }
    }
    if (nbad == 0)
        rmdir(dir);
    print_message("sqlite generated (seed %lu): %zu databases (%zu WAL with uncheckpointed frames, %zu with "
                  "freelist pages), %zu tables (%zu WITHOUT ROWID, %zu with added columns), %zu values "
                  "compared (%zu longer than a page); %zu databases differ\n",
                  seed, ndbs, nwal, nfree, ntables, nwithout, nadded, nvalues, noverflow, nbad);
    assert_int_equal(nbad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
