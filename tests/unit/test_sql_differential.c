/*
** test_sql_differential.c — differential test of the SQL engine against
** SQLite itself.
**
** A deterministic random generator (seeded) writes SQLite database files
** with SQLite's own library (tables with INTEGER, REAL, TEXT and DATE
** columns, NULL-heavy columns, duplicates, join keys, text and reals stored
** in an INTEGER column, a table larger than one batch), then generates
** thousands of distinct SELECTs over the language both engines share with
** the same meaning (expressions, predicates, joins, grouping, ordering,
** LIMIT, `?` parameters, subqueries, derived tables, set operations:
** docs/sql-types.md lists them), runs each through
** Lector (lt_source_open on the file + sql_prepare/sql_execute) and through
** libsqlite3, and compares the results: numbers by value (an integral REAL
** equals the INTEGER, doubles to 12 significant digits), text exactly, as
** ordered lists when the query has a total ORDER BY, else as multisets.
**
** The SQLite run also mixes numbers and text where Lector imitates
** SQLite's comparison affinity (docs/sql-types.md, "SQLite sources:
** affinity"): TEXT columns, text constants that may read as numbers ('5',
** ' 5 ', '1e2', '12x') and text expressions against INTEGER and REAL
** columns, number literals and number expressions; the dynamically typed
** column against numbers and text; CAST(x AS TEXT/INTEGER/REAL/NUMERIC)
** on either side; IN lists and BETWEEN bounds mixing numbers and text; IN
** (SELECT) of a column of the other kind; compound selects whose columns
** mix a number and a text column or the dynamically typed one; CASE,
** COALESCE, IFNULL and IIF whose values mix numbers and text (their
** result dynamically typed), shown, sorted and compared.
**
** The generator steers clear of the places where Lector deliberately
** differs from SQLite (docs/sql-types.md, "Differences from SQLite"):
** division by zero (always `x / NULLIF(y, 0)`), integer overflow, REAL
** written as text (CAST of a REAL AS TEXT), CAST of text that is not a
** number to a number, CAST(x AS NUMERIC) of a fraction, substr with a
** start below 1, LENGTH of text with trailing blanks, UPPER/LOWER of
** non-ASCII text, ROUND of a computed double, arithmetic over the values
** of another type in a dynamically typed column (shown, grouped, sorted,
** counted, compared and tested for NULL only; no such column and no text
** parameter inside a CASE or COALESCE mixing numbers and text).
**
** The oracle is libsqlite3 (libsqlite3-dev, installed by scripts/deps.sh);
** only this test and test_sqlite_generated link it, the driver never does.
**
** The Access runs: the same tables, without their dynamically typed
** columns (Access has no such type), are written by the bench's writer
** bench/fixtures/mdbwrite.c (the CMake target lt_mdbwrite, LT_MDBWRITE) as
** a Jet 4 .mdb and an ACE 12 .accdb — INTEGER as Long, REAL as Double,
** TEXT as Text(20) or Memo, DATE as Date/Time — and into a SQLite file
** beside them; queries generated over those tables run through Lector over
** the .mdb (as many as the SQLite run) and the .accdb (a fifth as many) and
** through libsqlite3 over the SQLite file, compared as above.  Access
** compares text without regard to case, SQLite by its bytes: rather than
** teach SQLite NOCASE (which would not reach upper() results or ORDER BY
** of expressions), the Access runs keep upper case out of the text
** altogether — the data is lower-cased, query constants come from a
** lower-case word list and upper() is written lower() — so both orders and
** equalities agree.  Access's LIKE takes * ? # [ as wildcards too: no
** pattern and no datum holds one.  Date/Time values are midnights and print
** as the date SQLite holds.
**
**   LT_DIFF_QUERIES=N  distinct queries to run (default 2000)
**   LT_DIFF_SEED=S     generator seed (default 20261130)
**   LT_DIFF_VERBOSE=1  print every query
**   LT_DIFF_COMPOSE=0  no subqueries, derived tables or set operations
**   LT_DIFF_ACCESS=0   no Access runs
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "access/access_internal.h"
#include "common/datetime.h"
#include "driver/sql/sql.h"

/* ------------------------------------------------------------------------ */
/* Strings and randomness                                                    */
/* ------------------------------------------------------------------------ */

typedef struct sbuf {
    char *p;
    size_t len, cap;
} sbuf;

static void sb_add(sbuf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        assert_true(n >= 0);
        if (b->p != NULL && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap ? b->cap * 2 : 256;
        while (cap < b->len + (size_t)n + 1)
            cap *= 2;
        b->p = realloc(b->p, cap);
        assert_non_null(b->p);
        b->cap = cap;
        b->p[b->len] = '\0';
    }
}

static void sb_reset(sbuf *b)
{
    b->len = 0;
    if (b->p)
        b->p[0] = '\0';
}

static uint64_t rng_state;

static uint64_t rnd64(void)
{
    /* splitmix64: tiny, and the same sequence on every platform */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int rnd(int n) { return (int)(rnd64() % (uint64_t)n); }
static bool chance(int percent) { return rnd(100) < percent; }
static int range(int lo, int hi) { return lo + rnd(hi - lo + 1); }

/* Generating for the Access run: no upper case in text (see the header). */
static bool access_mode;

/* ------------------------------------------------------------------------ */
/* The databases                                                             */
/* ------------------------------------------------------------------------ */

/* Kinds of column the generator knows how to use. */
typedef enum kind { K_INT, K_REAL, K_TEXT, K_MIXED, K_DATE } kind;

typedef struct gcol {
    const char *name;
    kind k;
    bool ascii;   /* text: ASCII only, so UPPER/LOWER agree */
} gcol;

typedef struct gtable {
    const char *name;
    int ncols;
    gcol cols[8];
    bool big;     /* too many rows to cross join */
} gtable;

static const gtable db1_tables[] = {
    {"t1", 8, {{"id", K_INT, 1}, {"a", K_INT, 1}, {"b", K_REAL, 1}, {"c", K_TEXT, 1},
               {"d", K_INT, 1}, {"m", K_MIXED, 1}, {"k", K_INT, 1}, {"dt", K_DATE, 1}}, false},
    {"t2", 5, {{"id", K_INT, 1}, {"k", K_INT, 1}, {"x", K_REAL, 1}, {"s", K_TEXT, 0},
               {"n", K_INT, 1}}, false},
    {"t3", 3, {{"k", K_INT, 1}, {"label", K_TEXT, 1}, {"w", K_REAL, 1}}, false},
};

static const gtable db2_tables[] = {
    {"big", 5, {{"id", K_INT, 1}, {"g", K_INT, 1}, {"v", K_REAL, 1}, {"t", K_TEXT, 1},
                {"h", K_MIXED, 1}}, true},
    {"t3", 3, {{"k", K_INT, 1}, {"label", K_TEXT, 1}, {"w", K_REAL, 1}}, false},
};

/* The Access run's tables: the same without the dynamically typed columns,
** in one file (t3 is the same in both databases). */
static const gtable access1_tables[] = {
    {"t1", 7, {{"id", K_INT, 1}, {"a", K_INT, 1}, {"b", K_REAL, 1}, {"c", K_TEXT, 1},
               {"d", K_INT, 1}, {"k", K_INT, 1}, {"dt", K_DATE, 1}}, false},
    {"t2", 5, {{"id", K_INT, 1}, {"k", K_INT, 1}, {"x", K_REAL, 1}, {"s", K_TEXT, 0},
               {"n", K_INT, 1}}, false},
    {"t3", 3, {{"k", K_INT, 1}, {"label", K_TEXT, 1}, {"w", K_REAL, 1}}, false},
};

static const gtable access2_tables[] = {
    {"big", 4, {{"id", K_INT, 1}, {"g", K_INT, 1}, {"v", K_REAL, 1}, {"t", K_TEXT, 1}}, true},
    {"t3", 3, {{"k", K_INT, 1}, {"label", K_TEXT, 1}, {"w", K_REAL, 1}}, false},
};

static const char *const words[] = {
    "apple", "Apple", "APPLE", "banana", "cherry", "", "a_b", "50%", "zeta", "  lead",
    "x", "Xy", "mid dle", "apple pie", "b%c", "Zebra", "a\\b",
};
#define NWORDS (sizeof words / sizeof words[0])
/* The Access run's words: the same, in lower case (see the header). */
static const char *const access_words[NWORDS] = {
    "apple", "apple", "apple", "banana", "cherry", "", "a_b", "50%", "zeta", "  lead",
    "x", "xy", "mid dle", "apple pie", "b%c", "zebra", "a\\b",
};
static const char *const nonascii_words[] = {"\xC3\x9Cn\xC3\xAF", "caf\xC3\xA9", "\xC3\xA9t\xC3\xA9"};
static const char *const reals[] = {"-2.5", "-1.0", "0.0", "0.1", "0.25", "1.5", "2.0", "3.75",
                                    "10.0", "100.5", "-0.125", "7.0", "0.3", "2.675"};
#define NREALS (sizeof reals / sizeof reals[0])

/* A word for a query's constant. */
static const char *a_word(void)
{
    int i = rnd(NWORDS);
    return access_mode ? access_words[i] : words[i];
}

static void sql_text(sbuf *b, const char *s)
{
    sb_add(b, "'");
    for (; *s; s++)
        sb_add(b, *s == '\'' ? "''" : "%c", *s);
    sb_add(b, "'");
}

static void value_int(sbuf *b, int null_pct, int lo, int hi)
{
    if (chance(null_pct))
        sb_add(b, "NULL");
    else
        sb_add(b, "%d", range(lo, hi));
}

static void value_real(sbuf *b, int null_pct)
{
    if (chance(null_pct))
        sb_add(b, "NULL");
    else if (chance(50))
        sb_add(b, "%s", reals[rnd(NREALS)]);
    else
        sb_add(b, "%.2f", range(-400, 400) / 4.0);
}

static void value_text(sbuf *b, int null_pct, bool ascii)
{
    if (chance(null_pct))
        sb_add(b, "NULL");
    else if (!ascii && chance(15))
        sql_text(b, nonascii_words[rnd(3)]);
    else
        sql_text(b, words[rnd(NWORDS)]);
}

/* A dynamically typed INTEGER column: integers, NULLs, text, reals. */
static void value_mixed(sbuf *b)
{
    static const char *const odd[] = {"'abc'", "'12x'", "'Z'", "2.5", "-0.5", "'7 '"};
    int r = rnd(100);
    if (r < 20)
        sb_add(b, "NULL");
    else if (r < 70)
        sb_add(b, "%d", range(0, 5));
    else
        sb_add(b, "%s", odd[rnd(6)]);
}

static void sq_exec(sqlite3 *db, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != 0)
        fail_msg("sqlite: %s\n%s", msg ? msg : "?", sql);
}

static void fill_t3(sbuf *b)
{
    sb_add(b, "CREATE TABLE t3(k INTEGER, label TEXT, w REAL);");
    for (int r = 0; r < 10; r++) {
        sb_add(b, "INSERT INTO t3 VALUES(");
        value_int(b, 10, 0, 6);
        sb_add(b, ",");
        value_text(b, 10, true);
        sb_add(b, ",");
        value_real(b, 20);
        sb_add(b, ");");
    }
}

/* Write the two databases; their contents depend on the seed. */
static void build_databases(const char *path1, const char *path2)
{
    sbuf b = {0};
    sqlite3 *db;
    if (sqlite3_open_v2(path1, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != 0)
        fail_msg("sqlite cannot create %s", path1);
    sb_add(&b, "BEGIN;CREATE TABLE t1(id INTEGER PRIMARY KEY, a INTEGER, b REAL, c TEXT, "
               "d INTEGER, m INTEGER, k INTEGER, dt DATE);");
    for (int r = 1; r <= 60; r++) {
        sb_add(&b, "INSERT INTO t1 VALUES(%d,", r);
        value_int(&b, 15, -5, 20);
        sb_add(&b, ",");
        value_real(&b, 20);
        sb_add(&b, ",");
        value_text(&b, 15, true);
        sb_add(&b, ",");
        value_int(&b, 70, 0, 3);
        sb_add(&b, ",");
        value_mixed(&b);
        sb_add(&b, ",");
        value_int(&b, 10, 0, 8);
        sb_add(&b, ",");
        /* a DATE column: ISO text in SQLite, DATE in Lector */
        if (chance(15))
            sb_add(&b, "NULL");
        else
            sb_add(&b, "'%04d-%02d-%02d'", range(2019, 2021), range(1, 12), range(1, 28));
        sb_add(&b, ");");
    }
    sb_add(&b, "CREATE TABLE t2(id INTEGER PRIMARY KEY, k INTEGER, x REAL, s VARCHAR(20), "
               "n INTEGER);");
    for (int r = 1; r <= 40; r++) {
        sb_add(&b, "INSERT INTO t2 VALUES(%d,", r * 3);
        value_int(&b, 10, 0, 10);
        sb_add(&b, ",");
        value_real(&b, 15);
        sb_add(&b, ",");
        value_text(&b, 20, false);
        sb_add(&b, ",");
        value_int(&b, 25, -3, 3);
        sb_add(&b, ");");
    }
    fill_t3(&b);
    sb_add(&b, "COMMIT;");
    sq_exec(db, b.p);
    sqlite3_close(db);

    uint64_t keep = rng_state;
    sb_reset(&b);
    if (sqlite3_open_v2(path2, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != 0)
        fail_msg("sqlite cannot create %s", path2);
    sb_add(&b, "BEGIN;CREATE TABLE big(id INTEGER PRIMARY KEY, g INTEGER, v REAL, t TEXT, "
               "h INTEGER);");
    /* More rows than one batch (LT_BATCH_ROWS), to cross batch boundaries. */
    for (int r = 1; r <= 2600; r++) {
        sb_add(&b, "INSERT INTO big VALUES(%d,", r);
        value_int(&b, 12, 0, 40);
        sb_add(&b, ",");
        value_real(&b, 10);
        sb_add(&b, ",");
        value_text(&b, 10, true);
        sb_add(&b, ",");
        value_mixed(&b);
        sb_add(&b, ");");
    }
    rng_state = keep; /* the same t3 as in the first database */
    fill_t3(&b);
    sb_add(&b, "COMMIT;");
    sq_exec(db, b.p);
    sqlite3_close(db);
    free(b.p);
}

/*
** The Access run's data: a SQLite file holding the tables without their
** dynamically typed columns and with text in lower case ("Ü" too, which
** SQLite's lower() leaves), and the same rows written by mdbwrite as a
** Jet 4 .mdb and an ACE 12 .accdb.  Each table's Access columns, in the
** SQLite table's order: INTEGER long, REAL double, TEXT text:N or memo,
** DATE datetime (days since 1899-12-30).
*/
typedef struct access_table {
    const char *name, *create, *copy, *mdb_columns;
} access_table;

#define FOLD(x) "replace(lower(" x "), '\xC3\x9C', '\xC3\xBC')"

static const access_table access_tables[] = {
    {"t1",
     "CREATE TABLE t1(id INTEGER PRIMARY KEY, a INTEGER, b REAL, c TEXT, d INTEGER, k INTEGER, "
     "dt DATE)",
     "INSERT INTO t1 SELECT id, a, b, " FOLD("c") ", d, k, dt FROM s1.t1",
     "id:long a:long b:double c:text:20 d:long k:long dt:datetime"},
    {"t2", "CREATE TABLE t2(id INTEGER PRIMARY KEY, k INTEGER, x REAL, s VARCHAR(20), n INTEGER)",
     "INSERT INTO t2 SELECT id, k, x, " FOLD("s") ", n FROM s1.t2",
     "id:long k:long x:double s:text:20 n:long"},
    {"t3", "CREATE TABLE t3(k INTEGER, label TEXT, w REAL)",
     "INSERT INTO t3 SELECT k, " FOLD("label") ", w FROM s1.t3", "k:long label:memo w:double"},
    {"big", "CREATE TABLE big(id INTEGER PRIMARY KEY, g INTEGER, v REAL, t TEXT)",
     "INSERT INTO big SELECT id, g, v, " FOLD("t") " FROM s2.big", "id:long g:long v:double t:memo"},
};
#define NACCESS_TABLES (sizeof access_tables / sizeof access_tables[0])

/* Days since 1899-12-30 of an ISO date: Access's Date/Time number. */
static int32_t access_days(const char *iso)
{
    int y, m, d;
    if (sscanf(iso, "%d-%d-%d", &y, &m, &d) != 3)
        fail_msg("not a date: %s", iso);
    return lt_days_from_civil(y, m, d) - lt_days_from_civil(1899, 12, 30);
}

/* Write `mirror` (SQLite) from the two databases and the rows of its tables
** as mdbwrite's input into `rows_path`. */
static void build_access_data(const char *path1, const char *path2, const char *mirror,
                              const char *rows_path)
{
    sqlite3 *db;
    sbuf b = {0};
    if (sqlite3_open_v2(mirror, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != 0)
        fail_msg("sqlite cannot create %s", mirror);
    sb_add(&b, "ATTACH ");
    sql_text(&b, path1);
    sb_add(&b, " AS s1; ATTACH ");
    sql_text(&b, path2);
    sb_add(&b, " AS s2; BEGIN;");
    for (size_t i = 0; i < NACCESS_TABLES; i++)
        sb_add(&b, "%s; %s;", access_tables[i].create, access_tables[i].copy);
    sb_add(&b, "COMMIT; DETACH s1; DETACH s2;");
    sq_exec(db, b.p);
    free(b.p);

    FILE *f = fopen(rows_path, "w");
    if (f == NULL)
        fail_msg("cannot create %s", rows_path);
    for (size_t i = 0; i < NACCESS_TABLES; i++) {
        const access_table *t = &access_tables[i];
        char sql[64];
        snprintf(sql, sizeof sql, "SELECT * FROM %s", t->name);
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != 0)
            fail_msg("sqlite: %s", sqlite3_errmsg(db));
        fprintf(f, "#table %s %s\n", t->name, t->mdb_columns);
        int n = sqlite3_column_count(st);
        while (sqlite3_step(st) == SQLITE_ROW) {
            for (int c = 0; c < n; c++) {
                const char *decl = sqlite3_column_decltype(st, c);
                if (c)
                    fputc('\t', f);
                switch (sqlite3_column_type(st, c)) {
                case SQLITE_NULL: fputs("\\N", f); break;
                case SQLITE_INTEGER: fprintf(f, "%lld", (long long)sqlite3_column_int64(st, c)); break;
                case SQLITE_FLOAT: fprintf(f, "%.17g", sqlite3_column_double(st, c)); break;
                default: {
                    const char *text = (const char *)sqlite3_column_text(st, c);
                    if (decl != NULL && strcmp(decl, "DATE") == 0)
                        fprintf(f, "%d", (int)access_days(text));
                    else
                        fputs(text, f);
                    break;
                }
                }
            }
            fputc('\n', f);
        }
        sqlite3_finalize(st);
    }
    if (fclose(f) != 0)
        fail_msg("cannot write %s", rows_path);
    sqlite3_close(db);
}

/* Run mdbwrite (LT_MDBWRITE, a CMake target) on the rows. */
static void write_access_file(const char *rows_path, const char *out, bool ace)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' %s '%s' < '%s'", LT_MDBWRITE, ace ? "--ace" : "", out, rows_path);
    int rc = system(cmd);
    if (rc != 0)
        fail_msg("mdbwrite failed (%d): %s", rc, cmd);
}

/* ------------------------------------------------------------------------ */
/* The query generator                                                       */
/* ------------------------------------------------------------------------ */

typedef struct scope_col {
    const char *qual;   /* NULL: unqualified */
    const gcol *col;
} scope_col;

typedef struct gen {
    sbuf *b;
    scope_col cols[32];
    int ncols;
    bool dbl;  /* real literals as DOUBLE (2.5e0): inside AVG, whose result
                  type Lector takes from a DECIMAL argument (6 decimals) */
    bool use_params;     /* some literals become ? markers with bound values */
    lt_value params[24];
    sbuf *param_buf[24]; /* where each ? was written, to order them */
    size_t param_at[24];
    int nparams;
    /* Subqueries, derived tables and set operations (LT_DIFF_COMPOSE) */
    const gtable *tabs;
    int ntabs;
    bool compose;        /* may write a subquery here */
    gtable dtab;         /* the derived table of FROM (SELECT ...) AS d */
} gen;

static bool compose_enabled = true;

static void add_param(gen *g, lt_value v)
{
    g->param_buf[g->nparams] = g->b;
    g->param_at[g->nparams] = g->b->len;
    g->params[g->nparams++] = v;
    sb_add(g->b, "?");
}

/* A constant: written, or (some of the time) a ? bound to it. */
static bool as_param(gen *g)
{
    return g->use_params && g->nparams < 24 && chance(45);
}

static void put_int(gen *g, int v)
{
    if (as_param(g)) {
        add_param(g, (lt_value){.type = LT_INT64, .u.i64 = v});
    } else {
        sb_add(g->b, "%d", v);
    }
}

static void put_text_const(gen *g, const char *t)
{
    if (as_param(g)) {
        lt_value v = {.type = LT_TEXT};
        v.u.bytes.ptr = t;
        v.u.bytes.len = (uint32_t)strlen(t);
        add_param(g, v);
    } else {
        sql_text(g->b, t);
    }
}

static const scope_col *pick_col(gen *g, kind k)
{
    int n = 0;
    for (int i = 0; i < g->ncols; i++)
        n += g->cols[i].col->k == k;
    if (n == 0)
        return NULL;
    int want = rnd(n);
    for (int i = 0; i < g->ncols; i++)
        if (g->cols[i].col->k == k && want-- == 0)
            return &g->cols[i];
    return NULL;
}

static void put_col(gen *g, const scope_col *c)
{
    if (c->qual)
        sb_add(g->b, "%s.%s", c->qual, c->col->name);
    else
        sb_add(g->b, "%s", c->col->name);
}

static void gen_int(gen *g, int depth);
static void gen_real(gen *g, int depth);
static bool gen_text(gen *g, int depth);
static void gen_pred(gen *g, int depth);
static void gen_subquery_pred(gen *g);
static const gtable *small_table(const gen *g);
static void sub_gen(const gen *g, gen *s, const gtable *t);

static void gen_num(gen *g, int depth)
{
    if (chance(60))
        gen_int(g, depth);
    else
        gen_real(g, depth);
}

static void int_leaf(gen *g)
{
    const scope_col *c = chance(75) ? pick_col(g, K_INT) : NULL;
    if (c)
        put_col(g, c);
    else if (chance(6))
        sb_add(g->b, "NULL");
    else
        put_int(g, range(-3, 12));
}

static void real_leaf(gen *g)
{
    /* Decimal literals a double holds exactly: Lector computes them as
    ** exact DECIMALs, SQLite as doubles, and both agree. */
    static const char *const lits[] = {"0.5", "1.5", "2.25", "-0.75", "2.0", "0.125", "10.5"};
    const scope_col *c = chance(75) ? pick_col(g, K_REAL) : NULL;
    if (c)
        put_col(g, c);
    else if (chance(5))
        sb_add(g->b, "NULL");
    else if (as_param(g))
        add_param(g, (lt_value){.type = LT_DOUBLE, .u.f64 = atof(lits[rnd(7)])});
    else
        sb_add(g->b, g->dbl ? "%se0" : "%s", lits[rnd(7)]);
}

/* Text whose LENGTH both engines count alike: no trailing blanks made. */
static void text_simple(gen *g)
{
    const scope_col *c = pick_col(g, K_TEXT);
    static const char *const wrap[] = {"%s", "upper(%s)", "lower(%s)", "trim(%s)", "rtrim(%s)"};
    static const char *const wrap_access[] = {"%s", "lower(%s)", "lower(%s)", "trim(%s)",
                                              "rtrim(%s)"};
    if (c == NULL) {
        sql_text(g->b, a_word());
        return;
    }
    int w = c->col->ascii ? rnd(5) : rnd(2) * 3;
    const char *f = access_mode ? wrap_access[w] : wrap[w];
    const char *at = strstr(f, "%s");
    sb_add(g->b, "%.*s", (int)(at - f), f);
    put_col(g, c);
    sb_add(g->b, "%s", at + 2);
}

static void gen_int(gen *g, int depth)
{
    if (depth <= 0 || chance(30)) {
        int_leaf(g);
        return;
    }
    static const char *const ops[] = {"+", "-", "*"};
    switch (rnd(15)) {
    case 0: case 1:
        sb_add(g->b, "(");
        gen_int(g, depth - 1);
        sb_add(g->b, " %s ", ops[rnd(3)]);
        gen_int(g, depth - 1);
        sb_add(g->b, ")");
        break;
    case 2:
        sb_add(g->b, "(");
        gen_int(g, depth - 1);
        sb_add(g->b, " %s NULLIF(", chance(50) ? "/" : "%");
        gen_int(g, depth - 1);
        sb_add(g->b, ", 0))");
        break;
    case 3:
        sb_add(g->b, "abs(");
        gen_int(g, depth - 1);
        sb_add(g->b, ")");
        break;
    case 4:
        sb_add(g->b, "length(");
        if (chance(20))
            gen_int(g, depth - 1); /* an integer's text */
        else
            text_simple(g);
        sb_add(g->b, ")");
        break;
    case 5:
        sb_add(g->b, "CASE WHEN ");
        gen_pred(g, depth - 1);
        sb_add(g->b, " THEN ");
        gen_int(g, depth - 1);
        if (chance(60)) {
            sb_add(g->b, " ELSE ");
            gen_int(g, depth - 1);
        }
        sb_add(g->b, " END");
        break;
    case 6:
        sb_add(g->b, "CASE ");
        int_leaf(g);
        sb_add(g->b, " WHEN %d THEN ", range(0, 5));
        gen_int(g, depth - 1);
        sb_add(g->b, " WHEN %d THEN ", range(0, 5));
        gen_int(g, depth - 1);
        if (chance(50)) {
            sb_add(g->b, " ELSE ");
            gen_int(g, depth - 1);
        }
        sb_add(g->b, " END");
        break;
    case 7:
        sb_add(g->b, chance(50) ? "coalesce(" : "ifnull(");
        gen_int(g, depth - 1);
        sb_add(g->b, ", ");
        gen_int(g, depth - 1);
        sb_add(g->b, ")");
        break;
    case 8:
        sb_add(g->b, "nullif(");
        gen_int(g, depth - 1);
        sb_add(g->b, ", %d)", range(0, 5));
        break;
    case 9:
        sb_add(g->b, "CAST(");
        gen_real(g, depth - 1);
        sb_add(g->b, " AS INTEGER)");
        break;
    case 10:
        sb_add(g->b, "(- ");
        gen_int(g, depth - 1);
        sb_add(g->b, ")");
        break;
    case 11: /* SQLite's sign() of a REAL is a REAL */
        sb_add(g->b, "sign(");
        gen_int(g, depth - 1);
        sb_add(g->b, ")");
        break;
    case 12:
        sb_add(g->b, "iif(");
        gen_pred(g, depth - 1);
        sb_add(g->b, ", ");
        gen_int(g, depth - 1);
        sb_add(g->b, ", ");
        gen_int(g, depth - 1);
        sb_add(g->b, ")");
        break;
    case 13:
        sb_add(g->b, "CAST(");
        gen_int(g, depth - 1);
        sb_add(g->b, " AS INTEGER)");
        break;
    default:
        int_leaf(g);
        break;
    }
}

static void gen_real(gen *g, int depth)
{
    if (depth <= 0 || chance(30)) {
        real_leaf(g);
        return;
    }
    static const char *const ops[] = {"+", "-", "*"};
    switch (rnd(13)) {
    case 0: case 1:
        sb_add(g->b, "(");
        gen_real(g, depth - 1);
        sb_add(g->b, " %s ", ops[rnd(3)]);
        gen_num(g, depth - 1);
        sb_add(g->b, ")");
        break;
    case 2:
        sb_add(g->b, "(");
        gen_real(g, depth - 1);
        sb_add(g->b, " / NULLIF(");
        gen_num(g, depth - 1);
        sb_add(g->b, ", 0))");
        break;
    case 3:
        sb_add(g->b, "abs(");
        gen_real(g, depth - 1);
        sb_add(g->b, ")");
        break;
    case 4:
        /* SQLite's round() is always REAL, Lector's of an integer INTEGER;
        ** in the SQLite run of a column or constant only: a computed double
        ** a hair below a half (2.675 * 1420) rounds by its 15 digits here,
        ** down in SQLite (the Access runs keep their queries) */
        sb_add(g->b, "round(");
        gen_real(g, access_mode ? depth - 1 : 0);
        if (chance(60))
            sb_add(g->b, ", %d", range(0, 2));
        sb_add(g->b, ")");
        break;
    case 5:
        sb_add(g->b, "CASE WHEN ");
        gen_pred(g, depth - 1);
        sb_add(g->b, " THEN ");
        gen_real(g, depth - 1);
        sb_add(g->b, " ELSE ");
        gen_real(g, depth - 1);
        sb_add(g->b, " END");
        break;
    case 6:
        /* both REAL: SQLite's result takes the type of the value chosen */
        sb_add(g->b, "coalesce(");
        gen_real(g, depth - 1);
        sb_add(g->b, ", ");
        gen_real(g, depth - 1);
        sb_add(g->b, ")");
        break;
    case 7:
        sb_add(g->b, chance(50) ? "floor(" : "ceil(");
        gen_real(g, depth - 1);
        sb_add(g->b, ")");
        break;
    case 8:
        sb_add(g->b, "CAST(");
        gen_int(g, depth - 1);
        sb_add(g->b, " AS DOUBLE)");
        break;
    case 9:
        sb_add(g->b, "(- ");
        gen_real(g, depth - 1);
        sb_add(g->b, ")");
        break;
    case 10:
        sb_add(g->b, "nullif(");
        gen_real(g, depth - 1);
        sb_add(g->b, ", %s)", reals[rnd(NREALS)]);
        break;
    case 11: {
        /* math functions both define alike (SQLite's log() is log10:
        ** not used) */
        static const char *const f[] = {"sqrt(abs(%s))", "power(%s, 2)", "(pi() * %s)",
                                        "sin(%s)", "cos(%s)", "degrees(%s)", "radians(%s)",
                                        "ln(abs(%s) + 1)", "log10(abs(%s) + 1)", "exp(%s / 100)"};
        const char *fmt = f[rnd(10)];
        const char *at = strstr(fmt, "%s");
        sb_add(g->b, "%.*s", (int)(at - fmt), fmt);
        gen_real(g, depth - 1);
        sb_add(g->b, "%s", at + 2);
        break;
    }
    default:
        real_leaf(g);
        break;
    }
}

/* Returns whether the text is ASCII only. */
static bool gen_text(gen *g, int depth)
{
    if (depth <= 0 || chance(30)) {
        const scope_col *c = chance(75) ? pick_col(g, K_TEXT) : NULL;
        if (c) {
            put_col(g, c);
            return c->col->ascii;
        }
        if (chance(5)) {
            sb_add(g->b, "NULL");
            return true;
        }
        put_text_const(g, a_word());
        return true;
    }
    bool a = true;
    size_t at;
    int np;
    switch (rnd(12)) {
    case 0:
        at = g->b->len;
        np = g->nparams;
        sb_add(g->b, access_mode ? "lower(" : "upper(");
        if (!gen_text(g, depth - 1)) { /* SQLite folds ASCII only */
            g->b->len = at;
            g->b->p[at] = '\0';
            g->nparams = np;
            return gen_text(g, 0);
        }
        sb_add(g->b, ")");
        break;
    case 1:
        at = g->b->len;
        np = g->nparams;
        sb_add(g->b, "lower(");
        if (!gen_text(g, depth - 1)) {
            g->b->len = at;
            g->b->p[at] = '\0';
            g->nparams = np;
            return gen_text(g, 0);
        }
        sb_add(g->b, ")");
        break;
    case 2:
        sb_add(g->b, "substr(");
        a = gen_text(g, depth - 1);
        sb_add(g->b, ", %d", range(1, 4));
        if (chance(60))
            sb_add(g->b, ", %d", range(0, 5));
        sb_add(g->b, ")");
        break;
    case 3: {
        static const char *const t[] = {"trim(", "ltrim(", "rtrim("};
        static const char *const sets[] = {"a", "ap", " e", "x%", "lead"};
        int w = rnd(3);
        sb_add(g->b, "%s", t[w]);
        a = gen_text(g, depth - 1);
        if (chance(35))
            sb_add(g->b, ", '%s'", sets[rnd(5)]);
        sb_add(g->b, ")");
        break;
    }
    case 4:
        sb_add(g->b, "replace(");
        a = gen_text(g, depth - 1);
        sb_add(g->b, ", '%s', '%s')", chance(50) ? "a" : "p", chance(50) ? (access_mode ? "xy" : "XY") : "");
        break;
    case 5:
        sb_add(g->b, "(");
        a = gen_text(g, depth - 1);
        sb_add(g->b, " || ");
        a &= gen_text(g, depth - 1);
        sb_add(g->b, ")");
        break;
    case 6:
        sb_add(g->b, "(");
        a = gen_text(g, depth - 1);
        sb_add(g->b, " || ");
        gen_int(g, depth - 1);
        sb_add(g->b, ")");
        break;
    case 7: {
        bool three = chance(30);
        sb_add(g->b, three || chance(50) ? "coalesce(" : "ifnull(");
        a = gen_text(g, depth - 1);
        sb_add(g->b, ", ");
        a &= gen_text(g, depth - 1);
        if (three) {
            sb_add(g->b, ", ");
            a &= gen_text(g, depth - 1);
        }
        sb_add(g->b, ")");
        break;
    }
    case 8:
        sb_add(g->b, "nullif(");
        a = gen_text(g, depth - 1);
        sb_add(g->b, ", ");
        sql_text(g->b, a_word());
        sb_add(g->b, ")");
        break;
    case 9:
        sb_add(g->b, "CASE WHEN ");
        gen_pred(g, depth - 1);
        sb_add(g->b, " THEN ");
        a = gen_text(g, depth - 1);
        if (chance(60)) {
            sb_add(g->b, " ELSE ");
            a &= gen_text(g, depth - 1);
        }
        sb_add(g->b, " END");
        break;
    case 10:
        sb_add(g->b, "CAST(");
        gen_int(g, depth - 1);
        sb_add(g->b, " AS TEXT)");
        break;
    default:
        sb_add(g->b, "iif(");
        gen_pred(g, depth - 1);
        sb_add(g->b, ", ");
        a = gen_text(g, depth - 1);
        sb_add(g->b, ", ");
        a &= gen_text(g, depth - 1);
        sb_add(g->b, ")");
        break;
    }
    return a;
}

static const char *cmp_op(void)
{
    static const char *const ops[] = {"=", "<>", "!=", "<", "<=", ">", ">="};
    return ops[rnd(7)];
}

/*
** The SQLite run's comparisons of numbers with text, which Lector decides
** by SQLite's affinity (docs/sql-types.md, "SQLite sources: affinity").
*/

/* Text constants, some of which read as numbers under NUMERIC affinity. */
static const char *const numberish[] = {"5", " 5 ", "1e2", "-3.25", "2.0", "2", "0.5", "10",
                                        "7 ", "12x", "abc", "2.5", "-1", "", "0", "Z"};
#define NNUMBERISH (sizeof numberish / sizeof numberish[0])

/* Inside a CASE, COALESCE or IIF mixing numbers and text: no dynamically
** typed column (a branch of one type reads its rows of other types as NULL
** here, "Differences from SQLite") and no text parameter (read as a number
** there). */
static bool in_mixed_value;

static void numberish_const(gen *g)
{
    const char *t = chance(70) ? numberish[rnd(NNUMBERISH)] : a_word();
    if (in_mixed_value)
        sql_text(g->b, t);
    else
        put_text_const(g, t);
}

/* A number operand: a column (INTEGER, REAL, the mixed one), a literal, an
** expression (no affinity) or a CAST (the affinity of its type). */
static void aff_num(gen *g, int depth)
{
    static const char *const lits[] = {"2.5", "0.5", "-3.25", "100.0", "2.0", "1e2"};
    /* CAST(text AS number) only of text that is a number: SQLite reads a
    ** prefix of any other ('12x' is 12), Lector refuses it (22018) */
    static const char *const casts[] = {"CAST('5' AS INTEGER)", "CAST('2.5' AS REAL)",
                                        "CAST('2.0' AS NUMERIC)", "CAST('-3' AS NUMERIC)",
                                        "CAST('10' AS NUMERIC)"};
    static const char *const types[] = {"INTEGER", "NUMERIC", "REAL"};
    const scope_col *c;
    switch (rnd(8)) {
    case 0: int_leaf(g); break;
    case 1: real_leaf(g); break;
    case 2: sb_add(g->b, "%d", range(-2, 12)); break;
    case 3: sb_add(g->b, "%s", lits[rnd(6)]); break;
    case 4: gen_num(g, depth); break;
    case 5:
        /* REAL is single precision here: of small integers only */
        sb_add(g->b, "CAST(");
        int_leaf(g);
        sb_add(g->b, " AS %s)", types[rnd(3)]);
        break;
    case 6: sb_add(g->b, "%s", casts[rnd(5)]); break;
    default:
        if (!in_mixed_value && (c = pick_col(g, K_MIXED)) != NULL)
            put_col(g, c);
        else
            int_leaf(g);
        break;
    }
}

/* A text operand: a TEXT column, the mixed column, a constant, a text
** expression (no affinity) or CAST(integer AS TEXT) (TEXT affinity; a REAL
** would be written differently: "Differences from SQLite"). */
static void aff_text(gen *g, int depth)
{
    const scope_col *c;
    switch (rnd(6)) {
    case 0: case 1:
        if ((c = pick_col(g, K_TEXT)) != NULL)
            put_col(g, c);
        else
            numberish_const(g);
        break;
    case 2:
        if (!in_mixed_value && (c = pick_col(g, K_MIXED)) != NULL)
            put_col(g, c);
        else
            numberish_const(g);
        break;
    case 3: numberish_const(g); break;
    case 4: gen_text(g, depth); break;
    default:
        sb_add(g->b, "CAST(");
        int_leaf(g);
        sb_add(g->b, " AS TEXT)");
        break;
    }
}

static void gen_mixed_value(gen *g, int depth);

/* Either kind of operand. */
static void aff_any(gen *g, int depth)
{
    if (depth > 0 && chance(10))
        gen_mixed_value(g, depth - 1);
    else if (chance(50))
        aff_num(g, depth);
    else
        aff_text(g, depth);
}

/* A constant of either kind. */
static void aff_const(gen *g)
{
    static const char *const nums[] = {"0", "2", "5", "10", "-1", "2.5", "0.5", "100.0"};
    if (chance(15))
        put_int(g, range(-1, 10));
    else if (chance(40))
        sb_add(g->b, "%s", nums[rnd(8)]);
    else
        numberish_const(g);
}

/* A CASE, COALESCE, IFNULL or IIF whose values mix numbers and text: each
** value keeps its own type (dynamically typed, as in SQLite). */
static void gen_mixed_value_in(gen *g, int depth);

static void gen_mixed_value(gen *g, int depth)
{
    bool outer = in_mixed_value, params = g->use_params;
    in_mixed_value = true;
    g->use_params = false;
    gen_mixed_value_in(g, depth);
    in_mixed_value = outer;
    g->use_params = params;
}

static void gen_mixed_value_in(gen *g, int depth)
{
    switch (rnd(5)) {
    case 0:
        sb_add(g->b, "CASE WHEN ");
        gen_pred(g, depth - 1);
        sb_add(g->b, " THEN ");
        aff_num(g, depth - 1);
        if (chance(70)) {
            sb_add(g->b, " ELSE ");
            aff_text(g, depth - 1);
        }
        sb_add(g->b, " END");
        break;
    case 1:
        sb_add(g->b, "CASE ");
        aff_any(g, depth - 1);
        sb_add(g->b, " WHEN ");
        aff_const(g);
        sb_add(g->b, " THEN ");
        aff_text(g, depth - 1);
        sb_add(g->b, " WHEN ");
        aff_const(g);
        sb_add(g->b, " THEN ");
        aff_num(g, depth - 1);
        sb_add(g->b, " END");
        break;
    case 2:
        sb_add(g->b, chance(50) ? "coalesce(" : "ifnull(");
        aff_text(g, depth - 1);
        sb_add(g->b, ", ");
        aff_num(g, depth - 1);
        sb_add(g->b, ")");
        break;
    case 3:
        sb_add(g->b, "coalesce(");
        aff_num(g, depth - 1);
        sb_add(g->b, ", ");
        aff_any(g, depth - 1);
        sb_add(g->b, ", ");
        aff_const(g);
        sb_add(g->b, ")");
        break;
    default:
        sb_add(g->b, "iif(");
        gen_pred(g, depth - 1);
        sb_add(g->b, ", ");
        aff_text(g, depth - 1);
        sb_add(g->b, ", ");
        aff_num(g, depth - 1);
        sb_add(g->b, ")");
        break;
    }
}

static void gen_affinity_pred(gen *g, int depth)
{
    sb_add(g->b, "(");
    switch (rnd(6)) {
    case 0: case 1: /* text against a number, either way round */
        if (chance(50)) {
            aff_text(g, depth - 1);
            sb_add(g->b, " %s ", cmp_op());
            aff_num(g, depth - 1);
        } else {
            aff_num(g, depth - 1);
            sb_add(g->b, " %s ", cmp_op());
            aff_text(g, depth - 1);
        }
        break;
    case 2: /* anything against a constant of either kind */
        aff_any(g, depth - 1);
        sb_add(g->b, " %s ", cmp_op());
        aff_const(g);
        break;
    case 3: { /* IN a list mixing numbers and text */
        aff_any(g, depth - 1);
        sb_add(g->b, chance(30) ? " NOT IN (" : " IN (");
        int n = range(1, 4);
        for (int i = 0; i < n; i++) {
            sb_add(g->b, "%s", i ? ", " : "");
            if (chance(15))
                aff_num(g, 0);
            else
                aff_const(g);
        }
        if (chance(15))
            sb_add(g->b, ", NULL");
        sb_add(g->b, ")");
        break;
    }
    case 4: /* BETWEEN bounds of either kind */
        aff_any(g, depth - 1);
        sb_add(g->b, chance(30) ? " NOT BETWEEN " : " BETWEEN ");
        aff_const(g);
        sb_add(g->b, " AND ");
        aff_const(g);
        break;
    default: { /* IN (SELECT a column of the other kind) */
        if (!g->compose) {
            aff_text(g, depth - 1);
            sb_add(g->b, " %s ", cmp_op());
            aff_num(g, depth - 1);
            break;
        }
        gen s;
        const gtable *t = small_table(g);
        sub_gen(g, &s, t);
        aff_any(g, depth - 1);
        sb_add(g->b, chance(30) ? " NOT IN (SELECT " : " IN (SELECT ");
        const scope_col *c;
        do /* not the DATE column (a date, not text, in Lector) */
            c = &s.cols[rnd(s.ncols)];
        while (c->col->k == K_DATE);
        put_col(&s, c);
        sb_add(g->b, " FROM %s AS u", t->name);
        if (chance(40)) {
            sb_add(g->b, " WHERE ");
            gen_pred(&s, 1);
        }
        sb_add(g->b, ")");
        break;
    }
    }
    sb_add(g->b, ")");
}

static void gen_pred(gen *g, int depth)
{
    int r = depth <= 0 ? rnd(9) : rnd(12);
    if (g->compose && chance(12)) {
        gen_subquery_pred(g);
        return;
    }
    if (!access_mode && chance(10)) {
        gen_affinity_pred(g, depth);
        return;
    }
    switch (r) {
    case 0: case 1:
        sb_add(g->b, "(");
        gen_num(g, depth - 1);
        sb_add(g->b, " %s ", cmp_op());
        gen_num(g, depth - 1);
        sb_add(g->b, ")");
        break;
    case 2:
        sb_add(g->b, "(");
        gen_text(g, depth - 1);
        sb_add(g->b, " %s ", cmp_op());
        if (chance(60))
            put_text_const(g, a_word());
        else
            gen_text(g, depth - 1);
        sb_add(g->b, ")");
        break;
    case 3: {
        const scope_col *c = chance(30) ? pick_col(g, K_MIXED) : NULL;
        sb_add(g->b, "(");
        if (c)
            put_col(g, c);
        else if (chance(50))
            gen_num(g, depth - 1);
        else
            gen_text(g, depth - 1);
        sb_add(g->b, chance(50) ? " IS NULL)" : " IS NOT NULL)");
        break;
    }
    case 4:
        sb_add(g->b, "(");
        if (chance(60)) {
            const scope_col *c = chance(25) ? pick_col(g, K_MIXED) : NULL;
            if (c)
                put_col(g, c);
            else
                gen_int(g, depth - 1);
            sb_add(g->b, chance(30) ? " NOT IN (" : " IN (");
            int n = range(1, 4);
            for (int i = 0; i < n; i++) {
                sb_add(g->b, "%s", i ? ", " : "");
                put_int(g, range(-1, 8));
            }
            if (chance(20))
                sb_add(g->b, ", NULL");
        } else {
            gen_text(g, depth - 1);
            sb_add(g->b, chance(30) ? " NOT IN (" : " IN (");
            int n = range(1, 3);
            for (int i = 0; i < n; i++) {
                sb_add(g->b, "%s", i ? ", " : "");
                put_text_const(g, a_word());
            }
        }
        sb_add(g->b, "))");
        break;
    case 5: {
        const scope_col *c = chance(20) ? pick_col(g, K_MIXED) : NULL;
        sb_add(g->b, "(");
        if (c)
            put_col(g, c);
        else
            gen_num(g, depth - 1);
        sb_add(g->b, chance(30) ? " NOT BETWEEN " : " BETWEEN ");
        if (chance(70)) {
            int lo = range(-3, 6);
            put_int(g, lo);
            sb_add(g->b, " AND ");
            put_int(g, lo + range(0, 8));
        } else {
            sb_add(g->b, "0.5 AND ");
            gen_num(g, 0);
        }
        sb_add(g->b, ")");
        break;
    }
    case 6: case 7: {
        static const char *const pats[] = {"a%", "%an%", "_pple", "A%", "%\\%%", "%e", "%",
                                           "_", "__", "z%a", "%P%E", "b\\%c", "%_b"};
        int p = rnd(13);
        sb_add(g->b, "(");
        gen_text(g, depth - 1);
        if (chance(12)) { /* the pattern from the data */
            sb_add(g->b, chance(25) ? " NOT LIKE " : " LIKE ");
            gen_text(g, 0);
            sb_add(g->b, ")");
            break;
        }
        sb_add(g->b, chance(25) ? " NOT LIKE " : " LIKE ");
        put_text_const(g, pats[p]);
        if (strchr(pats[p], '\\'))
            sb_add(g->b, " ESCAPE '\\'");
        sb_add(g->b, ")");
        break;
    }
    case 8: {
        /* a dynamically typed column against a number: SQLite's order
        ** (numbers by value, then text) */
        const scope_col *c = chance(35) ? pick_col(g, K_MIXED) : NULL;
        sb_add(g->b, "(");
        if (c) {
            put_col(g, c);
            if (chance(30))
                sb_add(g->b, " %s %s)", cmp_op(), chance(50) ? "2.5" : "-0.5");
            else
                sb_add(g->b, " %s %d)", cmp_op(), range(-1, 6));
            break;
        }
        gen_int(g, depth - 1);
        sb_add(g->b, " %s ", cmp_op());
        put_int(g, range(-2, 10));
        sb_add(g->b, ")");
        break;
    }
    case 9: {
        /* a DATE column against date constants (text in SQLite) */
        const scope_col *c = chance(30) ? pick_col(g, K_DATE) : NULL;
        if (c) {
            char d1[16], d2[16];
            snprintf(d1, sizeof d1, "%04d-%02d-%02d", range(2019, 2021), range(1, 12), range(1, 28));
            snprintf(d2, sizeof d2, "%04d-%02d-%02d", range(2020, 2021), range(1, 12), range(1, 28));
            sb_add(g->b, "(");
            put_col(g, c);
            switch (rnd(3)) {
            case 0: sb_add(g->b, " %s '%s')", cmp_op(), d1); break;
            case 1: sb_add(g->b, "%s BETWEEN '%s' AND '%s')", chance(25) ? " NOT" : "", d1, d2); break;
            default: sb_add(g->b, " IN ('%s', '%s'))", d1, d2); break;
            }
            break;
        }
        sb_add(g->b, "(NOT ");
        gen_pred(g, depth - 1);
        sb_add(g->b, ")");
        break;
    }
    default:
        sb_add(g->b, "(");
        gen_pred(g, depth - 1);
        sb_add(g->b, chance(50) ? " AND " : " OR ");
        gen_pred(g, depth - 1);
        sb_add(g->b, ")");
        break;
    }
}

static void scope_add(gen *g, const gtable *t, const char *qual);

/* A table small enough to scan once per outer row. */
static const gtable *small_table(const gen *g)
{
    const gtable *t;
    do
        t = &g->tabs[rnd(g->ntabs)];
    while (t->big);
    return t;
}

/* The generator of a subquery over `t` AS u: its own scope, no
** parameters (their order would follow the text), no deeper nesting. */
static void sub_gen(const gen *g, gen *s, const gtable *t)
{
    *s = *g;
    s->ncols = 0;
    s->use_params = false;
    s->compose = false;
    scope_add(s, t, "u");
}

/* An outer integer column to correlate with, or NULL. */
static const scope_col *outer_int(gen *g)
{
    return pick_col(g, K_INT);
}

/* x [NOT] IN (SELECT ...), [NOT] EXISTS (SELECT ...), x op (SELECT agg). */
static void gen_subquery_pred(gen *g)
{
    gen s;
    const gtable *t = small_table(g);
    sub_gen(g, &s, t);
    const scope_col *o = outer_int(g);
    switch (rnd(3)) {
    case 0:
        sb_add(g->b, "(");
        if (o) put_col(g, o); else int_leaf(g);
        sb_add(g->b, chance(35) ? " NOT IN (SELECT " : " IN (SELECT ");
        put_col(&s, pick_col(&s, K_INT));
        sb_add(g->b, " FROM %s AS u", t->name);
        if (chance(60)) {
            sb_add(g->b, " WHERE ");
            gen_pred(&s, 1);
        }
        sb_add(g->b, "))");
        break;
    case 1:
        sb_add(g->b, chance(30) ? "(NOT EXISTS (SELECT 1 FROM %s AS u WHERE " : "(EXISTS (SELECT 1 FROM %s AS u WHERE ",
               t->name);
        if (o) {
            put_col(&s, pick_col(&s, K_INT));
            sb_add(g->b, " = ");
            put_col(g, o);
            sb_add(g->b, chance(50) ? " AND " : " OR ");
        }
        gen_pred(&s, 1);
        sb_add(g->b, "))");
        break;
    default: {
        const scope_col *n = pick_col(&s, chance(50) ? K_INT : K_REAL);
        sb_add(g->b, "(");
        gen_num(g, 0);
        sb_add(g->b, " %s (SELECT %s(", cmp_op(), chance(50) ? "MAX" : "MIN");
        if (n) put_col(&s, n); else sb_add(g->b, "u.k");
        sb_add(g->b, ") FROM %s AS u", t->name);
        if (o) {
            sb_add(g->b, " WHERE u.k = ");
            put_col(g, o);
        }
        sb_add(g->b, "))");
        break;
    }
    }
}

/* A scalar subquery as a value: a count or an extreme of the inner rows
** that match the outer row. */
static void gen_subquery_value(gen *g)
{
    gen s;
    const gtable *t = small_table(g);
    sub_gen(g, &s, t);
    const scope_col *o = outer_int(g);
    if (chance(50)) {
        sb_add(g->b, "(SELECT COUNT(*) FROM %s AS u", t->name);
    } else {
        const scope_col *n = pick_col(&s, chance(50) ? K_INT : K_TEXT);
        sb_add(g->b, "(SELECT MAX(");
        if (n) put_col(&s, n); else sb_add(g->b, "u.k");
        sb_add(g->b, ") FROM %s AS u", t->name);
    }
    if (o) {
        sb_add(g->b, " WHERE u.k = ");
        put_col(g, o);
    }
    sb_add(g->b, ")");
}

/* Any select-list expression. */
static void gen_any(gen *g, int depth)
{
    if (g->compose && chance(8)) {
        gen_subquery_value(g);
        return;
    }
    if (!access_mode && chance(6)) {
        gen_mixed_value(g, depth);
        return;
    }
    switch (rnd(6)) {
    case 0: gen_int(g, depth); break;
    case 1: gen_real(g, depth); break;
    case 2: gen_text(g, depth); break;
    case 3: gen_pred(g, depth - 1); break;
    case 4: {
        const scope_col *c = pick_col(g, K_MIXED);
        if (c) {
            put_col(g, c);
            break;
        }
    }
    /* fall through */
    default:
        put_col(g, &g->cols[rnd(g->ncols)]);
        break;
    }
}

static void scope_add(gen *g, const gtable *t, const char *qual)
{
    for (int i = 0; i < t->ncols && g->ncols < 32; i++) {
        g->cols[g->ncols].qual = qual;
        g->cols[g->ncols].col = &t->cols[i];
        g->ncols++;
    }
}

/* FROM clause; fills the scope.  Returns whether rows are many (no more
** joins then). */
static void gen_from(gen *g, const gtable *tabs, int ntabs)
{
    g->ncols = 0;
    int shape = rnd(10);
    if (compose_enabled && shape == 0 && chance(40)) {
        /* a derived table: some columns of a table, filtered */
        const gtable *t = &tabs[rnd(ntabs)];
        gtable *d = &g->dtab;
        d->name = "d";
        d->big = t->big;
        d->ncols = 0;
        for (int i = 0; i < t->ncols; i++)
            if (i == 0 || chance(60))
                d->cols[d->ncols++] = t->cols[i];
        sb_add(g->b, " FROM (SELECT ");
        for (int i = 0; i < d->ncols; i++)
            sb_add(g->b, "%s%s", i ? ", " : "", d->cols[i].name);
        sb_add(g->b, " FROM %s", t->name);
        if (chance(60)) {
            gen g2 = *g;
            g2.ncols = 0;
            g2.use_params = false;
            g2.compose = false;
            scope_add(&g2, t, NULL);
            sb_add(g->b, " WHERE ");
            gen_pred(&g2, 1);
        }
        sb_add(g->b, ") AS d");
        scope_add(g, d, chance(50) ? "d" : NULL);
        return;
    }
    if (shape < 4 || ntabs < 2) {
        const gtable *t = &tabs[rnd(ntabs)];
        if (chance(25)) {
            sb_add(g->b, " FROM %s AS p", t->name);
            scope_add(g, t, "p");
        } else {
            sb_add(g->b, " FROM %s", t->name);
            scope_add(g, t, NULL);
        }
        return;
    }
    /* Joins: the first table (t1 or big) with the others on k. */
    const gtable *a = &tabs[0];
    const gtable *b = &tabs[ntabs == 3 ? 1 + rnd(2) : 1];
    const char *ak = a->big ? "g" : "k";
    static const char *const kinds[] = {"JOIN", "INNER JOIN", "LEFT JOIN", "LEFT OUTER JOIN"};
    switch (shape) {
    case 4: case 5: case 6: {
        /* mostly the integer keys; else any two numeric or text columns
        ** (an INTEGER against a REAL key joins 2 with 2.0) */
        const char *acol = ak, *bcol = "k";
        if (chance(30)) {
            const gcol *x = &a->cols[rnd(a->ncols)];
            int tries = 0;
            const gcol *y;
            do
                y = &b->cols[rnd(b->ncols)];
            while (++tries < 20 && (x->k == K_MIXED || y->k == K_MIXED || x->k == K_DATE ||
                                    y->k == K_DATE || (x->k == K_TEXT) != (y->k == K_TEXT)));
            if (tries < 20) {
                acol = x->name;
                bcol = y->name;
            }
        }
        int kind = rnd(4);
        sb_add(g->b, " FROM %s %s %s ON %s.%s = %s.%s", a->name, kinds[kind], b->name, a->name, acol,
               b->name, bcol);
        if (chance(30)) {
            gen g2 = *g;
            g2.ncols = 0;
            scope_add(&g2, a, a->name);
            scope_add(&g2, b, b->name);
            sb_add(g->b, " AND ");
            gen_pred(&g2, 1);
            memcpy(g->params, g2.params, sizeof g->params);
            memcpy(g->param_buf, g2.param_buf, sizeof g->param_buf);
            memcpy(g->param_at, g2.param_at, sizeof g->param_at);
            g->nparams = g2.nparams;
        }
        scope_add(g, a, a->name);
        scope_add(g, b, b->name);
        if (kind >= 2 && chance(20)) /* the left rows without a match */
            sb_add(g->b, " WHERE %s.%s IS NULL AND", b->name, bcol);
        break;
    }
    case 7:
        if (!a->big) {
            sb_add(g->b, " FROM %s CROSS JOIN t3", a->name);
            scope_add(g, a, a->name);
            scope_add(g, &tabs[ntabs - 1], "t3");
        } else {
            sb_add(g->b, " FROM t3, %s WHERE t3.k = %s.g AND", a->name, a->name);
            scope_add(g, &tabs[ntabs - 1], "t3");
            scope_add(g, a, a->name);
        }
        break;
    case 8:
        if (ntabs == 3) {
            sb_add(g->b, " FROM t1 JOIN t2 ON t1.k = t2.k %s t3 ON t2.n = t3.k",
                   chance(50) ? "LEFT JOIN" : "JOIN");
            scope_add(g, &tabs[0], "t1");
            scope_add(g, &tabs[1], "t2");
            scope_add(g, &tabs[2], "t3");
        } else {
            sb_add(g->b, " FROM %s LEFT JOIN t3 ON %s.g %% 7 = t3.k", a->name, a->name);
            scope_add(g, a, a->name);
            scope_add(g, &tabs[ntabs - 1], "t3");
        }
        break;
    default:
        /* a self join with aliases */
        sb_add(g->b, " FROM %s AS x %s %s AS y ON x.%s = y.%s", b->name,
               chance(50) ? "JOIN" : "LEFT JOIN", b->name, "k", "k");
        scope_add(g, b, "x");
        scope_add(g, b, "y");
        break;
    }
}

/* A whole query into g->b; *ordered when the result order is defined. */
/* One side of a set operation: columns of the given kinds from a table. */
static void gen_setop_side(gen *g, const kind *kinds, int n)
{
    const gtable *t = &g->tabs[rnd(g->ntabs)];
    g->ncols = 0;
    scope_add(g, t, NULL);
    sb_add(g->b, "SELECT ");
    for (int i = 0; i < n; i++) {
        const scope_col *c = pick_col(g, kinds[i]);
        sb_add(g->b, "%s", i ? ", " : "");
        if (c)
            put_col(g, c);
        else if (kinds[i] == K_TEXT)
            sql_text(g->b, a_word());
        else
            sb_add(g->b, "%d", range(0, 5));
    }
    sb_add(g->b, " FROM %s", t->name);
    if (chance(70)) {
        sb_add(g->b, " WHERE ");
        gen_pred(g, 1);
    }
}

/* a UNION [ALL] / EXCEPT / INTERSECT b [ORDER BY ...] */
static void gen_setop(gen *g, bool *ordered)
{
    static const char *const ops[] = {"UNION", "UNION ALL", "EXCEPT", "INTERSECT"};
    kind kinds[3];
    int n = range(1, 3);
    for (int i = 0; i < n; i++)
        kinds[i] = (kind)rnd(3); /* INT, REAL or TEXT */
    g->use_params = false;
    gen_setop_side(g, kinds, n);
    sb_add(g->b, " %s ", ops[rnd(4)]);
    if (!access_mode && chance(40)) {
        /* SQLite: a column mixing numbers and text (dynamically typed) */
        kind other[3];
        for (int i = 0; i < n; i++)
            other[i] = chance(50) ? kinds[i] : chance(20) ? K_MIXED
                     : kinds[i] == K_TEXT ? (kind)rnd(2) : K_TEXT;
        gen_setop_side(g, other, n);
    } else {
        gen_setop_side(g, kinds, n);
    }
    *ordered = false;
    if (chance(40)) {
        sb_add(g->b, " ORDER BY ");
        for (int i = 1; i <= n; i++)
            sb_add(g->b, "%s%d%s", i > 1 ? ", " : "", i, chance(30) ? " DESC" : "");
        *ordered = true;
        if (chance(40))
            sb_add(g->b, " LIMIT %d", range(0, 8));
    }
}

static void gen_query(gen *g, const gtable *tabs, int ntabs, bool *ordered)
{
    g->tabs = tabs;
    g->ntabs = ntabs;
    if (compose_enabled && chance(8)) {
        sb_reset(g->b);
        gen_setop(g, ordered);
        return;
    }
    sbuf from = {0};
    sbuf *out = g->b;
    /* FROM first (it fixes the scope), then put the query together. */
    g->b = &from;
    gen_from(g, tabs, ntabs);
    /* a comma join or an anti-join leaves "WHERE ... AND" open */
    bool where_open = from.len >= 4 && strcmp(from.p + from.len - 4, " AND") == 0;
    g->b = out;
    sb_reset(out);
    *ordered = false;

    int mode = rnd(10); /* 0-4 plain, 5-7 grouped, 8 aggregate only, 9 distinct */
    sbuf items = {0}, where = {0}, tail = {0};
    int nitems = 0;
    unsigned aliased = 0; /* item i has the alias o<i+1> */
    if (mode >= 5 && mode <= 7) {
        /* grouped: keys, then aggregates */
        sbuf keys = {0};
        int nkeys = range(1, 2);
        char key_text[2][256];
        kind key_kind[2];
        for (int i = 0; i < nkeys; i++) {
            g->b = &keys;
            sb_reset(&keys);
            int r = rnd(6);
            const scope_col *c = NULL;
            key_kind[i] = K_MIXED; /* an expression: shown as it is only */
            if (r < 3) {
                c = &g->cols[rnd(g->ncols)];
                put_col(g, c);
                key_kind[i] = c->col->ascii ? c->col->k : K_MIXED;
            }
            else if (r == 3 && (c = pick_col(g, K_INT)) != NULL) {
                sb_add(g->b, "(");
                put_col(g, c);
                sb_add(g->b, " %% 3)");
            } else if (r == 4 && (c = pick_col(g, K_TEXT)) != NULL && c->col->ascii) {
                sb_add(g->b, access_mode ? "lower(substr(" : "upper(substr(");
                put_col(g, c);
                sb_add(g->b, ", 1, 1))");
            } else if ((c = pick_col(g, K_MIXED)) != NULL)
                put_col(g, c);
            else
                put_col(g, &g->cols[rnd(g->ncols)]);
            snprintf(key_text[i], sizeof key_text[i], "%s", keys.p);
        }
        free(keys.p);
        g->b = &items;
        for (int i = 0; i < nkeys; i++)
            sb_add(&items, "%s%s", i ? ", " : "", key_text[i]);
        nitems = nkeys;
        /* an expression over a key (Lector matches it to the key) */
        if (chance(25) && key_kind[0] != K_MIXED && key_kind[0] != K_DATE) {
            if (key_kind[0] == K_TEXT)
                sb_add(&items, ", lower(%s)", key_text[0]);
            else
                sb_add(&items, ", (%s * 2)", key_text[0]);
            nitems++;
        }
        int naggs = range(1, 3);
        for (int i = 0; i < naggs; i++) {
            sb_add(&items, ", ");
            switch (rnd(9)) {
            case 0: sb_add(&items, "COUNT(*)"); break;
            case 1: sb_add(&items, "COUNT("); gen_any(g, 1); sb_add(&items, ")"); break;
            case 2: sb_add(&items, "SUM("); gen_num(g, 1); sb_add(&items, ")"); break;
            case 3:
                sb_add(&items, "AVG(");
                g->dbl = true;
                gen_num(g, 1);
                g->dbl = false;
                sb_add(&items, ")");
                break;
            case 4: {
                const scope_col *c = chance(25) ? pick_col(g, K_DATE) : NULL;
                sb_add(&items, "MIN(");
                if (c)
                    put_col(g, c);
                else
                    chance(50) ? gen_num(g, 1) : (void)gen_text(g, 1);
                sb_add(&items, ")");
                break;
            }
            case 5: sb_add(&items, "MAX("); chance(50) ? gen_num(g, 1) : (void)gen_text(g, 1); sb_add(&items, ")"); break;
            case 6: {
                const scope_col *c = pick_col(g, chance(50) ? K_INT : K_TEXT);
                sb_add(&items, "COUNT(DISTINCT ");
                if (c) put_col(g, c); else int_leaf(g);
                sb_add(&items, ")");
                break;
            }
            case 7: {
                const scope_col *c = pick_col(g, K_INT);
                sb_add(&items, "SUM(DISTINCT ");
                if (c) put_col(g, c); else int_leaf(g);
                sb_add(&items, ")");
                break;
            }
            default:
                sb_add(&items, "(COUNT(*) + SUM(");
                gen_int(g, 0);
                sb_add(&items, "))");
                break;
            }
            nitems++;
        }
        g->b = &tail;
        sb_add(&tail, " GROUP BY ");
        for (int i = 0; i < nkeys; i++)
            sb_add(&tail, "%s%s", i ? ", " : "", key_text[i]);
        if (chance(40)) {
            sb_add(&tail, " HAVING ");
            switch (rnd(4)) {
            case 0: sb_add(&tail, "COUNT(*) > %d", range(0, 3)); break;
            case 1: sb_add(&tail, "SUM("); gen_int(g, 0); sb_add(&tail, ") >= %d", range(-5, 30)); break;
            case 2: sb_add(&tail, "%s IS NOT NULL", key_text[0]); break;
            default: sb_add(&tail, "(MIN("); gen_num(g, 0); sb_add(&tail, ") < %d OR COUNT(*) = 1)", range(0, 5)); break;
            }
        }
    } else if (mode == 8) {
        g->b = &items;
        static const char *const aggs[] = {"COUNT(*)", "COUNT", "SUM", "AVG", "MIN", "MAX"};
        int naggs = range(1, 3);
        for (int i = 0; i < naggs; i++) {
            int a = rnd(6);
            sb_add(&items, "%s%s", i ? ", " : "", aggs[a]);
            if (a > 0) {
                sb_add(&items, "(");
                g->dbl = a == 3;
                if (a >= 4 && chance(40))
                    gen_text(g, 1);
                else
                    gen_num(g, 1);
                g->dbl = false;
                sb_add(&items, ")");
            }
            nitems++;
        }
    } else {
        g->b = &items;
        if (mode < 2 && chance(15) && strstr(from.p, "JOIN") == NULL && strchr(from.p, ',') == NULL) {
            sb_add(&items, "*");
            nitems = g->ncols;
        } else if (mode < 2 && chance(15) && g->cols[0].qual != NULL) {
            /* q.* of the last table, then one more column */
            const char *q = g->cols[g->ncols - 1].qual;
            sb_add(&items, "%s.*, ", q);
            for (int i = 0; i < g->ncols; i++)
                nitems += g->cols[i].qual == q;
            put_col(g, &g->cols[rnd(g->ncols)]);
            nitems++;
        } else {
            nitems = range(1, 4);
            for (int i = 0; i < nitems; i++) {
                if (i)
                    sb_add(&items, ", ");
                g->compose = compose_enabled;
                gen_any(g, range(0, 3));
                g->compose = false;
                if (chance(20)) {
                    sb_add(&items, " AS o%d", i + 1);
                    aliased |= 1u << i;
                }
            }
        }
    }

    /* WHERE */
    g->b = &where;
    g->compose = compose_enabled;
    if (where_open) {
        sb_add(&where, " ");
        gen_pred(g, range(0, 2));
    } else if (mode == 8 && chance(10)) {
        sb_add(&where, " WHERE 1 = 0"); /* aggregates over no rows */
    } else if (chance(60)) {
        sb_add(&where, " WHERE ");
        gen_pred(g, range(0, 3));
    }
    if (mode == 8 && chance(10))
        sb_add(&where, " HAVING COUNT(*) > %d", range(0, 40));

    g->compose = false;
    /* ORDER BY: total over the output (every column after the chosen
    ** keys), so the row order is defined; LIMIT only then. */
    g->b = &tail;
    bool grouped = mode >= 5 && mode <= 8;
    if (mode != 8 && chance(55)) {
        sb_add(&tail, " ORDER BY ");
        bool any = false;
        if (!grouped && mode != 9 && chance(50)) {
            /* not a constant: SQLite reads ORDER BY (-6) as an ordinal */
            size_t at = tail.len;
            int np = g->nparams;
            gen_any(g, 1);
            if (strspn(tail.p + at, "0123456789-+(). e") == tail.len - at) {
                tail.len = at;
                tail.p[at] = '\0';
                g->nparams = np;
                put_col(g, &g->cols[rnd(g->ncols)]);
            }
            sb_add(&tail, chance(30) ? " DESC" : "");
            any = true;
        }
        if (mode >= 5 && mode <= 7 && chance(25)) {
            /* an aggregate the select list does not show */
            sb_add(&tail, chance(50) ? "COUNT(*) DESC" : "MAX(");
            if (tail.p[tail.len - 1] == '(') {
                gen_num(g, 0);
                sb_add(&tail, ")");
            }
            any = true;
        }
        for (int i = 1; i <= nitems; i++) {
            if (i <= 32 && (aliased & (1u << (i - 1))) && chance(60))
                sb_add(&tail, "%so%d%s", any ? ", " : "", i, chance(25) ? " DESC" : "");
            else
                sb_add(&tail, "%s%d%s", any ? ", " : "", i, chance(25) ? " DESC" : "");
            if (chance(10))
                sb_add(&tail, chance(50) ? " NULLS FIRST" : " NULLS LAST");
            any = true;
        }
        *ordered = true;
        if (chance(40)) {
            sb_add(&tail, " LIMIT ");
            put_int(g, range(0, 12));
            if (chance(50)) {
                sb_add(&tail, " OFFSET ");
                put_int(g, range(0, 6));
            }
        }
    }

    g->b = out;
    sb_add(out, "SELECT %s%s%s%s%s", mode == 9 ? "DISTINCT " : "", items.p, from.p,
           where.p ? where.p : "", tail.p ? tail.p : "");
    /* the values in the order their ? stand in the text: items, FROM,
    ** WHERE, then GROUP BY ... LIMIT (insertion sort: a few) */
    const sbuf *order[4] = {&items, &from, &where, &tail};
    uint64_t key[24];
    for (int i = 0; i < g->nparams; i++) {
        int sec = 0;
        while (sec < 3 && order[sec] != g->param_buf[i])
            sec++;
        key[i] = (uint64_t)sec << 32 | g->param_at[i];
    }
    for (int i = 1; i < g->nparams; i++)
        for (int j = i; j > 0 && key[j - 1] > key[j]; j--) {
            uint64_t tk = key[j];
            key[j] = key[j - 1];
            key[j - 1] = tk;
            lt_value tv = g->params[j];
            g->params[j] = g->params[j - 1];
            g->params[j - 1] = tv;
        }
    free(items.p);
    free(where.p);
    free(tail.p);
    free(from.p);
}

/* ------------------------------------------------------------------------ */
/* Running and comparing                                                     */
/* ------------------------------------------------------------------------ */

typedef struct rows {
    char **row;
    size_t n, cap;
} rows;

static void rows_add(rows *r, const char *s, size_t len)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 64;
        r->row = realloc(r->row, r->cap * sizeof *r->row);
        assert_non_null(r->row);
    }
    char *p = malloc(len + 1);
    assert_non_null(p);
    memcpy(p, s, len);
    p[len] = '\0';
    r->row[r->n++] = p;
}

static void rows_clear(rows *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->row[i]);
    r->n = 0;
}

/* A number as both sides print it: integers exactly, other values to 12
** significant digits, below 1e-9 as 0 (the engines may add in another
** order). */
static void put_number(sbuf *b, double d, const int64_t *exact)
{
    if (exact != NULL && (*exact > 1000000000000000ll || *exact < -1000000000000000ll)) {
        sb_add(b, "%lld", (long long)*exact);
        return;
    }
    if (isnan(d)) {
        sb_add(b, "nan");
        return;
    }
    if (fabs(d) < 1e-9) /* rounding noise of sums that cancel (added in another order) */
        d = 0;
    if (d == floor(d) && fabs(d) < 1e15) {
        sb_add(b, "%.0f", d == 0 ? 0.0 : d);
        return;
    }
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.12g", d);
    sb_add(b, "%s", strcmp(tmp, "-0") == 0 ? "0" : tmp);
}

static void put_text(sbuf *b, const char *s, size_t len)
{
    sb_add(b, "'%.*s'", (int)len, s);
}

static int lector_run(lt_source *src, const char *sql, const lt_value *params, int nparams,
                      rows *out, char *msg, size_t cap)
{
    sql_stmt *st;
    sql_cursor *cur;
    lt_error err;
    lt_error_clear(&err);
    if (sql_prepare(src, sql, strlen(sql), &st, &err) != 0) {
        snprintf(msg, cap, "prepare: %s %.400s", err.sqlstate, err.message);
        return -1;
    }
    if (sql_execute(st, params, (uint32_t)nparams, &cur, &err) != 0) {
        snprintf(msg, cap, "execute: %s %.400s", err.sqlstate, err.message);
        sql_stmt_free(st);
        return -1;
    }
    sbuf line = {0};
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
            sb_reset(&line);
            for (uint32_t c = 0; c < b->ncols; c++) {
                lt_value v;
                lt_batch_get(b, c, r, &v);
                if (c)
                    sb_add(&line, "|");
                switch (v.type) {
                case LT_NULL: sb_add(&line, "NULL"); break;
                case LT_BOOL: sb_add(&line, "%d", v.u.b ? 1 : 0); break;
                case LT_INT64: put_number(&line, (double)v.u.i64, &v.u.i64); break;
                case LT_DOUBLE: put_number(&line, v.u.f64, NULL); break;
                case LT_DECIMAL: {
                    int scale = lt_vector_row_type(&b->cols[c], r) == LT_DECIMAL &&
                                b->cols[c].type == LT_DECIMAL ? b->cols[c].scale : v.scale;
                    double d = (double)v.u.dec;
                    for (int i = 0; i < scale; i++)
                        d /= 10;
                    put_number(&line, d, NULL);
                    break;
                }
                case LT_TEXT: put_text(&line, v.u.bytes.ptr, v.u.bytes.len); break;
                case LT_DATE: { /* as SQLite holds it: ISO text */
                    int y, mo, d;
                    lt_civil_from_days(v.u.date, &y, &mo, &d);
                    sb_add(&line, "'%04d-%02d-%02d'", y, mo, d);
                    break;
                }
                case LT_TIMESTAMP: { /* an Access Date/Time: the date, if that is all */
                    int32_t days;
                    int64_t usec;
                    int y, mo, d;
                    lt_timestamp_split(v.u.i64, &days, &usec);
                    lt_civil_from_days(days, &y, &mo, &d);
                    sb_add(&line, "'%04d-%02d-%02d", y, mo, d);
                    if (usec != 0)
                        sb_add(&line, " +%lldus", (long long)usec);
                    sb_add(&line, "'");
                    break;
                }
                default: sb_add(&line, "<type %d>", (int)v.type); break;
                }
            }
            rows_add(out, line.p ? line.p : "", line.len);
        }
    }
    free(line.p);
    sql_cursor_close(cur);
    sql_stmt_free(st);
    return rc;
}

static int sqlite_run(sqlite3 *db, const char *sql, const lt_value *params, int nparams,
                      rows *out, char *msg, size_t cap)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != 0) {
        snprintf(msg, cap, "%s", sqlite3_errmsg(db));
        return -1;
    }
    for (int i = 0; i < nparams; i++) {
        const lt_value *v = &params[i];
        if (v->type == LT_INT64)
            sqlite3_bind_int64(st, i + 1, v->u.i64);
        else if (v->type == LT_DOUBLE)
            sqlite3_bind_double(st, i + 1, v->u.f64);
        else if (v->type == LT_TEXT)
            sqlite3_bind_text(st, i + 1, v->u.bytes.ptr, (int)v->u.bytes.len, NULL);
        else
            sqlite3_bind_null(st, i + 1);
    }
    sbuf line = {0};
    int rc, n = sqlite3_column_count(st);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        sb_reset(&line);
        for (int c = 0; c < n; c++) {
            if (c)
                sb_add(&line, "|");
            int64_t i;
            switch (sqlite3_column_type(st, c)) {
            case SQLITE_NULL: sb_add(&line, "NULL"); break;
            case SQLITE_INTEGER: i = sqlite3_column_int64(st, c); put_number(&line, (double)i, &i); break;
            case SQLITE_FLOAT: put_number(&line, sqlite3_column_double(st, c), NULL); break;
            case SQLITE_TEXT:
                put_text(&line, (const char *)sqlite3_column_text(st, c), (size_t)sqlite3_column_bytes(st, c));
                break;
            default: sb_add(&line, "<blob>"); break;
            }
        }
        rows_add(out, line.p ? line.p : "", line.len);
    }
    free(line.p);
    if (rc != SQLITE_DONE)
        snprintf(msg, cap, "%s", sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Two printed rows that differ only where a number's 12th digit rounds
** the other way (0.2997583921285 printed from either side of it). */
static bool rows_close(const char *x, const char *y)
{
    while (*x || *y) {
        size_t nx = strcspn(x, "|"), ny = strcspn(y, "|");
        if (nx != ny || strncmp(x, y, nx) != 0) {
            char fx[64], fy[64], *ex, *ey;
            if (nx >= sizeof fx || ny >= sizeof fy)
                return false;
            memcpy(fx, x, nx);
            fx[nx] = '\0';
            memcpy(fy, y, ny);
            fy[ny] = '\0';
            double dx = strtod(fx, &ex), dy = strtod(fy, &ey);
            double scale = fmax(1e-300, fmax(fabs(dx), fabs(dy)));
            if (nx == 0 || ny == 0 || *ex || *ey || !isfinite(dx) || !isfinite(dy) ||
                fabs(dx - dy) > scale * 1e-11)
                return false;
        }
        x += nx + (x[nx] == '|');
        y += ny + (y[ny] == '|');
    }
    return true;
}

static bool same_rows(rows *a, rows *b, bool ordered)
{
    if (a->n != b->n)
        return false;
    if (!ordered) {
        qsort(a->row, a->n, sizeof *a->row, cmp_str);
        qsort(b->row, b->n, sizeof *b->row, cmp_str);
    }
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->row[i], b->row[i]) != 0 && !rows_close(a->row[i], b->row[i]))
            return false;
    return true;
}

static void print_rows(const char *who, const rows *r)
{
    fprintf(stderr, "  %s (%zu rows):", who, r->n);
    for (size_t i = 0; i < r->n && i < 12; i++)
        fprintf(stderr, "%s%s", i ? " ; " : " ", r->row[i]);
    fprintf(stderr, "%s\n", r->n > 12 ? " ; ..." : "");
}

/* Distinct query texts: a set of 64-bit hashes (open addressing). */
typedef struct seen {
    uint64_t *h;
    size_t cap, n;
} seen;

static bool seen_add(seen *s, const char *text)
{
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    h |= 1;
    if (s->n * 2 >= s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 4096;
        uint64_t *t = calloc(cap, sizeof *t);
        assert_non_null(t);
        for (size_t i = 0; i < s->cap; i++)
            if (s->h[i])
                for (size_t j = s->h[i] & (cap - 1);; j = (j + 1) & (cap - 1))
                    if (!t[j]) { t[j] = s->h[i]; break; }
        free(s->h);
        s->h = t;
        s->cap = cap;
    }
    for (size_t j = h & (s->cap - 1);; j = (j + 1) & (s->cap - 1)) {
        if (s->h[j] == h)
            return false;
        if (!s->h[j]) {
            s->h[j] = h;
            s->n++;
            return true;
        }
    }
}

static long env_long(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : dflt;
}

/* One run: queries over a pair of databases (as Lector and SQLite read
** them) and their tables, generated and compared. */
typedef struct diff_run {
    const char *name;
    lt_source *src[2];
    sqlite3 *db[2];
    const gtable *tabs[2];
    int ntabs[2];
} diff_run;

typedef struct diff_totals {
    long ran, failed, oracle_errors;
} diff_totals;

static void run_queries(const diff_run *run, long nqueries, uint64_t seed, bool verbose,
                        diff_totals *tot)
{
    seen s = {0};
    sbuf q = {0};
    rows got = {0}, want = {0};
    long ran = 0, failed = 0, oracle_errors = 0, attempts = 0, total_rows = 0, nonempty = 0;
    while (ran < nqueries && attempts < nqueries * 20) {
        attempts++;
        int which = rnd(4) == 0; /* a quarter on the big table */
        gen g = {.b = &q, .use_params = chance(25)};
        bool ordered;
        gen_query(&g, run->tabs[which], run->ntabs[which], &ordered);
        if (!seen_add(&s, q.p))
            continue;
        ran++;
        if (verbose)
            fprintf(stderr, "[%s %ld] %s\n", run->name, ran, q.p);
        char lmsg[512] = "", smsg[512] = "";
        rows_clear(&got);
        rows_clear(&want);
        int src_rc = sqlite_run(run->db[which], q.p, g.params, g.nparams, &want, smsg, sizeof smsg);
        if (src_rc != 0) {
            /* the generator wrote something SQLite refuses: its bug */
            if (oracle_errors++ < 10)
                fprintf(stderr, "generator: SQLite refuses %s query %ld (seed %llu): %s\n  %s\n",
                        run->name, ran, (unsigned long long)seed, smsg, q.p);
            continue;
        }
        int lt_rc = lector_run(run->src[which], q.p, g.params, g.nparams, &got, lmsg, sizeof lmsg);
        total_rows += (long)want.n;
        nonempty += want.n > 0;
        if (lt_rc == 0 && same_rows(&got, &want, ordered))
            continue;
        if (failed++ < 25) {
            fprintf(stderr, "MISMATCH %s query %ld (seed %llu, db %d%s):\n  %s\n", run->name, ran,
                    (unsigned long long)seed, which + 1, ordered ? ", ordered" : "", q.p);
            for (int i = 0; i < g.nparams; i++) {
                const lt_value *v = &g.params[i];
                if (v->type == LT_INT64)
                    fprintf(stderr, "  ?%d = %lld\n", i + 1, (long long)v->u.i64);
                else if (v->type == LT_DOUBLE)
                    fprintf(stderr, "  ?%d = %g\n", i + 1, v->u.f64);
                else
                    fprintf(stderr, "  ?%d = '%.*s'\n", i + 1, (int)v->u.bytes.len, v->u.bytes.ptr);
            }
            if (lt_rc != 0)
                fprintf(stderr, "  lector error: %s\n", lmsg);
            else
                print_rows("lector", &got);
            print_rows("sqlite", &want);
            for (size_t i = 0, shown = 0; lt_rc == 0 && i < got.n && i < want.n && shown < 5; i++)
                if (strcmp(got.row[i], want.row[i]) != 0) {
                    fprintf(stderr, "  row %zu: lector %s, sqlite %s\n", i + 1, got.row[i], want.row[i]);
                    shown++;
                }
        }
    }
    fprintf(stderr, "differential %s: %ld distinct queries (seed %llu; %ld with rows, %ld rows in "
            "all): %ld mismatches, %ld the generator's\n",
            run->name, ran, (unsigned long long)seed, nonempty, total_rows, failed, oracle_errors);
    rows_clear(&got);
    rows_clear(&want);
    free(got.row);
    free(want.row);
    free(q.p);
    free(s.h);
    if (ran < nqueries)
        fprintf(stderr, "differential %s: only %ld distinct queries of %ld\n", run->name, ran,
                nqueries);
    tot->ran += ran >= nqueries;
    tot->failed += failed;
    tot->oracle_errors += oracle_errors;
}

static lt_source *lector_open(const char *path, lt_dialect dialect)
{
    lt_source *src;
    lt_error err;
    if (lt_source_open(path, NULL, &src, &err) != 0)
        fail_msg("Lector cannot open %s: %s", path, err.message);
    if (dialect != LT_DIALECT_ACCESS)
        src->dialect = dialect;
    else if (src->dialect != LT_DIALECT_ACCESS)
        fail_msg("%s is not read in the Access dialect", path);
    return src;
}

static sqlite3 *sqlite_open(const char *path)
{
    sqlite3 *db;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != 0)
        fail_msg("sqlite cannot open %s", path);
    return db;
}

/* The Access runs: the tables as .mdb (nqueries) and .accdb (a fifth as
** many), against SQLite over the same rows. */
static void run_access(const char *dir, const char *path1, const char *path2, long nqueries,
                       uint64_t seed, bool verbose, diff_totals *tot)
{
    char mirror[96], rows_path[96], mdb[96], accdb[96];
    snprintf(mirror, sizeof mirror, "%s/access.db", dir);
    snprintf(rows_path, sizeof rows_path, "%s/access.rows", dir);
    snprintf(mdb, sizeof mdb, "%s/diff.mdb", dir);
    snprintf(accdb, sizeof accdb, "%s/diff.accdb", dir);
    build_access_data(path1, path2, mirror, rows_path);
    write_access_file(rows_path, mdb, false);
    write_access_file(rows_path, accdb, true);

    access_mode = true;
    sqlite3 *db = sqlite_open(mirror);
    const char *files[2] = {mdb, accdb};
    const char *names[2] = {"mdb", "accdb"};
    for (int f = 0; f < 2; f++) {
        lt_source *src = lector_open(files[f], LT_DIALECT_ACCESS);
        diff_run run = {names[f], {src, src}, {db, db}, {access1_tables, access2_tables}, {3, 2}};
        /* a seed of its own: an Access mismatch repeats without the others */
        rng_state = seed ^ (0xACCE55ull << (8 * f));
        run_queries(&run, f == 0 ? nqueries : (nqueries + 4) / 5, seed, verbose, tot);
        lt_source_close(src);
    }
    sqlite3_close(db);
    access_mode = false;
    unlink(mirror);
    unlink(rows_path);
    unlink(mdb);
    unlink(accdb);
}

static void test_differential(void **state)
{
    (void)state;
    long nqueries = env_long("LT_DIFF_QUERIES", 2000);
    uint64_t seed = (uint64_t)env_long("LT_DIFF_SEED", 20261130);
    bool verbose = env_long("LT_DIFF_VERBOSE", 0) != 0;
    bool access = env_long("LT_DIFF_ACCESS", 1) != 0;
    compose_enabled = env_long("LT_DIFF_COMPOSE", 1) != 0;
    rng_state = seed;

    char dir[] = "/tmp/lt_diff_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path1[64], path2[64];
    snprintf(path1, sizeof path1, "%s/diff1.db", dir);
    snprintf(path2, sizeof path2, "%s/diff2.db", dir);
    build_databases(path1, path2);

    diff_totals tot = {0};
    diff_run run = {"sqlite",
                    {lector_open(path1, LT_DIALECT_SQLITE), lector_open(path2, LT_DIALECT_SQLITE)},
                    {sqlite_open(path1), sqlite_open(path2)},
                    {db1_tables, db2_tables},
                    {3, 2}};
    run_queries(&run, nqueries, seed, verbose, &tot);
    for (int i = 0; i < 2; i++) {
        lt_source_close(run.src[i]);
        sqlite3_close(run.db[i]);
    }
    int nruns = 1;
    if (access) {
        run_access(dir, path1, path2, nqueries, seed, verbose, &tot);
        nruns += 2;
    }
    unlink(path1);
    unlink(path2);
    rmdir(dir);
    assert_int_equal(tot.ran, nruns);
    assert_int_equal(tot.oracle_errors, 0);
    assert_int_equal(tot.failed, 0);
}

/* ------------------------------------------------------------------------ */
/* Access's own functions                                                    */
/* ------------------------------------------------------------------------ */

/* One value as text: numbers as %g, text quoted, timestamps ISO. */
static void render(const lt_batch *b, char *out, size_t cap)
{
    lt_value v;
    lt_batch_get(b, 0, 0, &v);
    switch (v.type) {
    case LT_NULL: snprintf(out, cap, "NULL"); break;
    case LT_INT64: snprintf(out, cap, "%lld", (long long)v.u.i64); break;
    case LT_DOUBLE: snprintf(out, cap, "%g", v.u.f64); break;
    case LT_DECIMAL: {
        double d = (double)v.u.dec;
        for (int i = 0; i < b->cols[0].scale; i++)
            d /= 10;
        snprintf(out, cap, "%g", d);
        break;
    }
    case LT_TEXT: snprintf(out, cap, "'%.*s'", (int)v.u.bytes.len, v.u.bytes.ptr); break;
    case LT_TIMESTAMP: {
        int32_t days;
        int64_t usec;
        int y, mo, d, h, mi, sec, frac;
        lt_timestamp_split(v.u.i64, &days, &usec);
        lt_civil_from_days(days, &y, &mo, &d);
        lt_time_split(usec, &h, &mi, &sec, &frac);
        snprintf(out, cap, "%04d-%02d-%02d %02d:%02d:%02d", y, mo, d, h, mi, sec);
        break;
    }
    default: snprintf(out, cap, "<type %d>", (int)v.type); break;
    }
}

/*
** Saved queries may use Access's own operators and functions; the reader
** (readers/access/query.c, mdb_access_expr) writes them as the engine's
** expressions.  Each expression below, translated, runs over a one-row
** Access table and must give what Access gives (the values in the Access
** documentation's terms: Mod and \ round their operands half to even,
** InStr compares as text unless told 0, DateDiff counts the boundaries
** crossed, Int floors, Fix truncates, Nz(x) of NULL is 0 or "" by x's
** type).
*/
static void test_access_functions(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"a Mod 2", "0"}, {"b Mod 2", "0"}, {"5.5 Mod 2", "0"}, {"j Mod 3", "-1"},
        {"i Mod -3", "1"}, {"i \\ 2", "3"}, {"j \\ 2", "-3"}, {"a \\ 1", "2"},
        {"3.5 \\ 1", "4"}, {"2 ^ 10", "1024"}, {"-2 ^ 2", "-4"}, {"2 ^ -1", "0.5"},
        {"1 + 7 Mod 4 * 2", "8"}, {"(1 + 7) Mod 3", "2"}, {"z Mod 2", "NULL"}, {"z \\ 2 + z ^ 2", "NULL"},
        {"InStr(s, \"WORLD\")", "7"}, {"InStr(s, \"xyz\")", "0"}, {"InStr(8, s, \"o\")", "8"},
        {"InStr(1, s, \"w\", 0)", "0"}, {"InStr(1, s, \"w\", 1)", "7"}, {"InStr(n, \"x\")", "NULL"},
        {"Nz(n)", "''"}, {"Nz(z, 5)", "5"}, {"Nz(z) + 1", "1"}, {"Nz(s)", "'Hello World'"}, {"Int(b)", "-4"}, {"Fix(b)", "-3"}, {"Sgn(b)", "-1"},
        {"CLng(a)", "2"}, {"CInt(3.5)", "4"}, {"CLng(b)", "-4"}, {"CStr(i)", "'7'"},
        {"CDbl(i) / 2", "3.5"},
        {"DateDiff(\"d\", d, e)", "31"}, {"DateDiff(\"y\", d, e)", "31"}, {"DateDiff(\"m\", d, e)", "1"},
        {"DateDiff(\"yyyy\", d, e)", "0"}, {"DateDiff(\"q\", d, e)", "0"}, {"DateDiff(\"h\", d, e)", "732"},
        {"DateDiff(\"n\", d, e)", "43920"}, {"DateDiff(\"s\", d, e)", "2635200"},
        {"DateDiff(\"ww\", d, e)", "4"}, {"DateDiff(\"w\", d, e)", "4"}, {"DateDiff(\"d\", e, d)", "-31"},
        {"DateDiff(\"yyyy\", #12/31/2019#, #1/1/2020#)", "1"},
        {"DateDiff(\"m\", #1/31/2020#, #2/1/2020#)", "1"},
        {"DateAdd(\"m\", 1, #1/31/2020#)", "2020-02-29 00:00:00"},
        {"DateAdd(\"d\", -1, #3/1/2020#)", "2020-02-29 00:00:00"},
        {"DateAdd(\"h\", 6, d)", "2020-01-02 00:00:00"},
        {"DateAdd(\"yyyy\", 1, d)", "2021-01-01 18:00:00"},
        {"Len(s) + Len(Left(s, 3) & Right$(s, 2))", "16"}, {"UCase(Mid(s, 7, 3))", "'WOR'"},
        {"IIf(i Mod 2 = 1, \"odd\", \"even\")", "'odd'"}, {"Year(d) * 100 + Hour(d)", "202018"},
    };
    char dir[] = "/tmp/lt_accfn_XXXXXX", rows[64], mdb[64];
    assert_non_null(mkdtemp(dir));
    snprintf(rows, sizeof rows, "%s/rows.txt", dir);
    snprintf(mdb, sizeof mdb, "%s/fn.mdb", dir);
    FILE *f = fopen(rows, "w");
    assert_non_null(f);
    /* d 2020-01-01 18:00, e 2020-02-01 06:00 */
    fputs("#table t a:double b:double i:long j:long s:text:20 d:datetime e:datetime n:text:5 z:long\n"
          "2.5\t-3.5\t7\t-7\tHello World\t43831.75\t43862.25\t\\N\t\\N\n", f);
    assert_int_equal(fclose(f), 0);
    write_access_file(rows, mdb, false);
    lt_source *src = lector_open(mdb, LT_DIALECT_ACCESS);
    int failed = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        mdb_buf sql = {0};
        assert_int_equal(mdb_buf_add(&sql, "SELECT ", 7), 0);
        assert_int_equal(mdb_access_expr_in(src, &sql, cases[k][0], strlen(cases[k][0])), 0);
        assert_int_equal(mdb_buf_add(&sql, " FROM t", 7), 0);
        sql_stmt *st = NULL;
        sql_cursor *cur = NULL;
        lt_batch *b;
        lt_error err;
        lt_error_clear(&err);
        char got[128] = "";
        if (sql_prepare(src, (const char *)sql.p, sql.len, &st, &err) != 0 ||
            sql_execute(st, NULL, 0, &cur, &err) != 0 || sql_cursor_next(cur, &b, &err) != 0)
            snprintf(got, sizeof got, "error %s %.100s", err.sqlstate, err.message);
        else if (b->count != 1)
            snprintf(got, sizeof got, "%u rows", b->count);
        else
            render(b, got, sizeof got);
        if (strcmp(got, cases[k][1]) != 0) {
            fprintf(stderr, "Access %s: Lector %s, Access %s\n  as %s\n", cases[k][0], got, cases[k][1],
                    (const char *)sql.p);
            failed++;
        }
        if (cur != NULL)
            sql_cursor_close(cur);
        if (st != NULL)
            sql_stmt_free(st);
        mdb_buf_free(&sql);
    }
    lt_source_close(src);
    unlink(rows);
    unlink(mdb);
    rmdir(dir);
    assert_int_equal(failed, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_differential),
        cmocka_unit_test(test_access_functions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
