/*
** e2e_threads.c — concurrent statements give the single-threaded results.
**
** `threads` runs one suite of queries over corpus files of one format
** (--format: dbf, the default, or xls, xlsb, access, sqlite).
** Phase 1: 4 threads, each with its own connections, run the suite's mix of
** queries many times (reconnecting now and then).
** Phase 2: 4 threads share ONE connection per file (each thread its own
** statements on it) — odbcinst.ini sets Threading = 0, so unixODBC passes the
** calls through unserialised and the driver's own locks must hold.  The
** shared connections are opened afresh every second round, and pairs
** of threads start on the same query, so the state a reader fills on first
** use (a workbook sheet typed lazily, a range table, Access usage maps and
** counts, SQLite views and b-tree pages) is filled by threads racing.
** Every result's checksum (column names and all values, typed SQLGetData in
** pieces) must equal the one computed single-threaded first, on a
** connection of its own.  scripts/test.sh runs this under ThreadSanitizer
** (ctest label "threads"); rounds per thread: --iterations N.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define NTHREADS 4
/* Phase 2 opens fresh shared connections every this many rounds. */
#define ROUNDS_PER_SHARE 2
/* SQLGetData pieces: small enough that the memos arrive in several, large
** enough that the test measures concurrency, not the cost of pieces. */
#define THREAD_PIECE 512

typedef struct job {
    int file;            /* index into the suite's files */
    const char *sql;     /* the query, or NULL for SQLColumns(columns) */
    const char *columns; /* table for SQLColumns when sql is NULL; "" with
                         ** sql: only SQLPrepare and describe the result */
    uint64_t sum;        /* single-threaded checksum */
    long rows;           /* rows (columns for a describe) */
    e2e_buf desc;        /* single-threaded description, for a describe */
} job;

typedef struct suite {
    const char *format;
    const char *const *files;
    int nfiles;
    job *jobs;
    int njobs;
} suite;

#define COUNT(a) (int)(sizeof a / sizeof a[0])

static const char *const dbf_files[] = {
    "dbf/real/GeospatialPython-pyshp/edit.dbf",   /* 663 rows */
    "dbf/real/infused-dbf/dbase_83.dbf",          /* dBASE III+ memos */
    "dbf/generated/vfp_alltypes.dbf",             /* VFP types, .fpt */
};
static job dbf_jobs[] = {
    { 0, "SELECT * FROM \"edit\"", NULL, 0, 0, {0} },
    { 0, "SELECT \"BKG_KEY\", \"MEDIANRENT\" FROM \"edit\" WHERE \"MEDIANRENT\" > 700 "
         "ORDER BY \"MEDIANRENT\" DESC, \"BKG_KEY\"", NULL, 0, 0, {0} },
    { 0, "SELECT * FROM \"edit\" LIMIT 100", NULL, 0, 0, {0} },
    { 1, "SELECT * FROM \"dbase_83\"", NULL, 0, 0, {0} },
    { 1, "SELECT \"ID\", \"DESC\" FROM \"dbase_83\" WHERE \"ID\" < 100", NULL, 0, 0, {0} },
    { 2, "SELECT * FROM \"vfp_alltypes\"", NULL, 0, 0, {0} },
};

/* Workbooks: 10 sheets (503 rows), each typed lazily on first use; ranges
** are tables made on demand.  The same jobs serve .xls and .xlsb. */
static const char *const xls_files[] = { "xls/sheetjs_formula_stress_test.xls" };
static const char *const xlsb_files[] = { "xlsb/sheetjs_formula_stress_test.xlsb" };
#define WORKBOOK_JOBS \
    { 0, "SELECT COUNT(*) FROM \"Statistical$\"", NULL, 0, 0, {0} }, \
    { 0, "SELECT * FROM \"Finance$\"", "", 0, 0, {0} }, \
    { 0, "SELECT * FROM [Statistical$B2:D30]", "", 0, 0, {0} }, \
    { 0, "SELECT * FROM \"Statistical$\"", NULL, 0, 0, {0} }, \
    { 0, NULL, "Math$", 0, 0, {0} }, \
    { 0, "SELECT * FROM \"Math$\"", NULL, 0, 0, {0} }, \
    { 0, "SELECT * FROM [Finance$A1:C20]", NULL, 0, 0, {0} }, \
    { 0, "SELECT COUNT(*) FROM [Engineering$A1:C20]", NULL, 0, 0, {0} }, \
    { 0, NULL, "Text$", 0, 0, {0} }, \
    { 0, "SELECT * FROM \"Text$\"", NULL, 0, 0, {0} }, \
    { 0, "SELECT * FROM [Date$A2:C20]", NULL, 0, 0, {0} }, \
    { 0, "SELECT COUNT(*) FROM \"Lookup$\"", NULL, 0, 0, {0} },
static job xls_jobs[] = { WORKBOOK_JOBS };
static job xlsb_jobs[] = { WORKBOOK_JOBS };

/* Access: usage maps are read and row counts cached on first use. */
static const char *const access_files[] = { "access/testIndexCodesV1997.mdb" };
static job access_jobs[] = {
    { 0, "SELECT COUNT(*) FROM \"Table1\"", NULL, 0, 0, {0} },
    { 0, "SELECT * FROM \"Table14\"", "", 0, 0, {0} },
    { 0, "SELECT * FROM \"Table1\"", NULL, 0, 0, {0} },
    { 0, "SELECT * FROM \"Table14\"", NULL, 0, 0, {0} },
    { 0, "SELECT COUNT(*) FROM \"Table14\"", NULL, 0, 0, {0} },
    { 0, NULL, "Table1", 0, 0, {0} },
    { 0, "SELECT COUNT(*) FROM \"Table1_desc\" WHERE \"name\" IN "
         "(SELECT \"name\" FROM \"Table1\")", NULL, 0, 0, {0} },
};

/* SQLite: views the engine runs, seeks on the INTEGER PRIMARY KEY. */
static const char *const sqlite_files[] = { "sqlite/generated/views_indexes.db" };
static job sqlite_jobs[] = {
    { 0, "SELECT * FROM \"v_emp\"", NULL, 0, 0, {0} },
    { 0, "SELECT * FROM \"v_dept_stats\"", "", 0, 0, {0} },
    { 0, "SELECT * FROM \"emp\" WHERE \"id\" = 150", NULL, 0, 0, {0} },
    { 0, "SELECT * FROM \"v_dept_stats\"", NULL, 0, 0, {0} },
    { 0, "SELECT * FROM \"v r&d\"", NULL, 0, 0, {0} },
    { 0, "SELECT \"id\", \"email\" FROM \"emp\" WHERE \"id\" >= 120 AND \"id\" < 140", NULL, 0, 0, {0} },
    { 0, "SELECT COUNT(*) FROM \"emp\"", NULL, 0, 0, {0} },
    { 0, NULL, "v_emp", 0, 0, {0} },
    { 0, "SELECT \"first\", \"last\" FROM \"emp\" WHERE \"dept_id\" IN "
         "(SELECT \"id\" FROM \"dept\" WHERE \"name\" = 'R&D') ORDER BY \"id\"", NULL, 0, 0, {0} },
};

static suite suites[] = {
    { "dbf", dbf_files, COUNT(dbf_files), dbf_jobs, COUNT(dbf_jobs) },
    { "xls", xls_files, COUNT(xls_files), xls_jobs, COUNT(xls_jobs) },
    { "xlsb", xlsb_files, COUNT(xlsb_files), xlsb_jobs, COUNT(xlsb_jobs) },
    { "access", access_files, COUNT(access_files), access_jobs, COUNT(access_jobs) },
    { "sqlite", sqlite_files, COUNT(sqlite_files), sqlite_jobs, COUNT(sqlite_jobs) },
};
#define MAXFILES 3

typedef struct worker {
    const e2e_config *cfg;
    const suite *s;
    SQLHENV env;
    SQLHDBC *shared;     /* phase 2: one connection per file, or NULL */
    int id, iterations;
    pthread_barrier_t *start;
    int runs, bad;
    e2e_buf first;       /* the first problem seen */
} worker;

static SQLHDBC open_file(const e2e_config *cfg, SQLHENV env, const char *file,
                         e2e_buf *why)
{
    e2e_buf path = {0}, cs = {0};
    e2e_diag d;
    e2e_buf_printf(&path, "%s/%s", cfg->corpus, file);
    e2e_connstr(&cs, cfg->driver, path.ptr, NULL);
    SQLHDBC dbc = e2e_connect(env, cs.ptr, true, &d);
    if (!dbc)
        e2e_buf_printf(why, "connect to %s: %s", file, d.text);
    e2e_buf_free(&path);
    e2e_buf_free(&cs);
    return dbc;
}

static const char *job_name(const job *j)
{
    return j->sql ? j->sql : j->columns;
}

/* SQLPrepare only (no execute) and describe the result columns as text:
** the reader must type the table without a scan having done it. */
static int describe_job(SQLHSTMT st, const job *j, long *ncols, e2e_buf *out,
                        e2e_buf *why)
{
    e2e_col *cols = NULL;
    e2e_diag d;
    int n = -1;
    if (SQL_SUCCEEDED(SQLPrepare(st, (SQLCHAR *)j->sql, SQL_NTS)))
        n = e2e_describe(st, true, &cols, &d);
    else
        e2e_diag_get(SQL_HANDLE_STMT, st, &d);
    if (n < 0)
        e2e_buf_printf(why, "describe %s: %s", j->sql, d.text);
    for (int c = 0; c < n; c++)
        e2e_buf_printf(out, "%s%s %d(%llu,%d)%s", c ? ", " : "", cols[c].name,
                       cols[c].type, (unsigned long long)cols[c].size,
                       cols[c].digits, cols[c].nullable == SQL_NO_NULLS ?
                       " NOT NULL" : "");
    free(cols);
    SQLFreeStmt(st, SQL_CLOSE);
    *ncols = n;
    return n < 0 ? -1 : 0;
}

/* Run one query (or SQLColumns) on `st` and checksum its result. */
static int run_job(SQLHSTMT st, const job *j, uint64_t *sum, long *rows,
                   e2e_buf *desc, e2e_buf *why)
{
    if (j->sql && j->columns)
        return describe_job(st, j, rows, desc, why);
    SQLRETURN r = j->sql ? e2e_exec(st, j->sql, true)
                         : SQLColumns(st, NULL, 0, NULL, 0,
                                      (SQLCHAR *)j->columns, SQL_NTS, NULL, 0);
    if (!SQL_SUCCEEDED(r)) {
        e2e_diag d;
        e2e_diag_get(SQL_HANDLE_STMT, st, &d);
        e2e_buf_printf(why, "%s%s: %s", j->sql ? "" : "SQLColumns ",
                       job_name(j), d.text);
        SQLFreeStmt(st, SQL_CLOSE);
        return -1;
    }
    int rc = e2e_result_checksum(st, THREAD_PIECE, sum, rows, why);
    if (rc)
        e2e_buf_printf(why, " [%s]", job_name(j));
    SQLFreeStmt(st, SQL_CLOSE);
    return rc;
}

static void note(worker *w, const char *fmt, const char *a, const char *b)
{
    w->bad++;
    if (!w->first.len)
        e2e_buf_printf(&w->first, fmt, a, b);
}

static void *work(void *arg)
{
    worker *w = arg;
    const suite *s = w->s;
    SQLHDBC own[MAXFILES] = {0};
    SQLHSTMT st[MAXFILES] = {0};
    e2e_buf why = {0}, desc = {0};
    pthread_barrier_wait(w->start);
    for (int it = 0; it < w->iterations; it++) {
        for (int f = 0; f < s->nfiles; f++) {
            bool reconnect = !w->shared && it % 5 == 4;
            if (st[f] && reconnect) {
                SQLFreeHandle(SQL_HANDLE_STMT, st[f]);
                e2e_disconnect(own[f]);
                st[f] = NULL;
                own[f] = NULL;
            }
            if (st[f])
                continue;
            SQLHDBC dbc = w->shared ? w->shared[f] : NULL;
            if (!dbc) {
                e2e_buf_clear(&why);
                dbc = own[f] = open_file(w->cfg, w->env, s->files[f], &why);
                if (!dbc) {
                    note(w, "%s%s", why.ptr, "");
                    goto out;
                }
            }
            if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st[f]))) {
                e2e_diag d;
                e2e_diag_get(SQL_HANDLE_DBC, dbc, &d);
                note(w, "SQLAllocHandle(STMT): %s%s", d.text, "");
                goto out;
            }
        }
        /* Threads 0 and 1 start the mix at the same job, 2 and 3 at
        ** another: first uses race both on one table and across tables. */
        for (int k = 0; k < s->njobs; k++) {
            const job *j = &s->jobs[(k + w->id / 2 * (s->njobs / 2)) % s->njobs];
            uint64_t sum = 0;
            long rows = 0;
            e2e_buf_clear(&why);
            e2e_buf_clear(&desc);
            w->runs++;
            if (run_job(st[j->file], j, &sum, &rows, &desc, &why)) {
                note(w, "%s%s", why.ptr, "");
                continue;
            }
            if (desc.len != j->desc.len ||
                (desc.len && memcmp(desc.ptr, j->desc.ptr, desc.len) != 0)) {
                note(w, "%s described as: %s", j->sql, e2e_buf_str(&desc));
                continue;
            }
            if (sum != j->sum || rows != j->rows) {
                char detail[128];
                snprintf(detail, sizeof detail, " gave %ld rows/checksum "
                         "%016llx, single-threaded %ld/%016llx", rows,
                         (unsigned long long)sum, j->rows,
                         (unsigned long long)j->sum);
                note(w, "%s%s", job_name(j), detail);
            }
        }
    }
out:
    for (int f = 0; f < s->nfiles; f++) {
        if (st[f])
            SQLFreeHandle(SQL_HANDLE_STMT, st[f]);
        e2e_disconnect(own[f]);
    }
    e2e_buf_free(&why);
    e2e_buf_free(&desc);
    return NULL;
}

/* Run NTHREADS workers once; their counts add to w[]. */
static void run_threads(worker *w, SQLHDBC *shared, int iterations)
{
    pthread_t tid[NTHREADS];
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, NTHREADS);
    for (int i = 0; i < NTHREADS; i++) {
        w[i].shared = shared;
        w[i].iterations = iterations;
        w[i].start = &start;
        if (pthread_create(&tid[i], NULL, work, &w[i]) != 0) {
            fprintf(stderr, "e2e: pthread_create failed\n");
            exit(2);
        }
    }
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(tid[i], NULL);
    pthread_barrier_destroy(&start);
}

static void report(worker *w, int expected, const char *name, e2e_tally *t)
{
    for (int i = 0; i < NTHREADS; i++) {
        char what[160];
        snprintf(what, sizeof what, "%s %s, thread %d (%d queries)",
                 w[i].s->format, name, i, w[i].runs);
        if (w[i].bad || w[i].runs != expected)
            e2e_fail(t, what, "%d of %d results differ or failed; first: %s",
                     w[i].bad, w[i].runs, w[i].first.len ? w[i].first.ptr :
                     "(thread stopped early)");
        else
            e2e_pass(t, w[i].cfg, what);
        e2e_buf_free(&w[i].first);
    }
}

static void init_workers(worker *w, const e2e_config *cfg, const suite *s,
                         SQLHENV env)
{
    for (int i = 0; i < NTHREADS; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].cfg = cfg;
        w[i].s = s;
        w[i].env = env;
        w[i].id = i;
    }
}

/* Phase 2: rounds of threads over fresh shared connections, so every round
** begins with the source's lazy state empty. */
static void run_shared(const e2e_config *cfg, const suite *s, SQLHENV env,
                       int iterations, e2e_tally *t)
{
    worker w[NTHREADS];
    int rounds = (iterations + ROUNDS_PER_SHARE - 1) / ROUNDS_PER_SHARE;
    int done = 0;
    init_workers(w, cfg, s, env);
    for (int r = 0; r < rounds; r++) {
        SQLHDBC shared[MAXFILES] = {0};
        e2e_buf why = {0};
        int n = iterations / rounds + (r < iterations % rounds);
        for (int f = 0; f < s->nfiles && !why.len; f++)
            shared[f] = open_file(cfg, env, s->files[f], &why);
        if (why.len)
            note(&w[0], "%s%s", why.ptr, "");
        else
            run_threads(w, shared, n);
        done += n;
        for (int f = 0; f < s->nfiles; f++)
            e2e_disconnect(shared[f]);
        e2e_buf_free(&why);
    }
    report(w, done * s->njobs, "one shared connection per file, fresh each round", t);
}

int e2e_cmd_threads(const e2e_config *cfg)
{
    int iterations = cfg->iterations > 0 ? cfg->iterations : 20;
    const suite *s = NULL;
    for (int i = 0; i < COUNT(suites); i++)
        if (strcmp(suites[i].format, cfg->format) == 0)
            s = &suites[i];
    e2e_tally t = {0};
    if (!s) {
        e2e_fail(&t, "threads", "no suite for format %s", cfg->format);
        return e2e_summary(&t);
    }
    SQLHENV env = e2e_env_new();
    SQLHDBC ref[MAXFILES] = {0};
    e2e_buf why = {0};

    /* The single-threaded reference results, on connections of their own. */
    for (int f = 0; f < s->nfiles && !why.len; f++)
        ref[f] = open_file(cfg, env, s->files[f], &why);
    for (int k = 0; k < s->njobs && !why.len; k++) {
        job *j = &s->jobs[k];
        SQLHSTMT st;
        SQLAllocHandle(SQL_HANDLE_STMT, ref[j->file], &st);
        if (run_job(st, j, &j->sum, &j->rows, &j->desc, &why) == 0 && j->rows == 0)
            e2e_buf_printf(&why, "%s returned no rows", job_name(j));
        SQLFreeHandle(SQL_HANDLE_STMT, st);
        if (cfg->verbose && !why.len)
            printf("     %-100s %5ld rows %016llx %s\n", job_name(j), j->rows,
                   (unsigned long long)j->sum, j->desc.len ? j->desc.ptr : "");
    }
    for (int f = 0; f < s->nfiles; f++)
        e2e_disconnect(ref[f]);
    if (why.len) {
        e2e_fail(&t, "single-threaded reference", "%s", why.ptr);
    } else {
        worker w[NTHREADS];
        e2e_pass(&t, cfg, "single-threaded reference");
        init_workers(w, cfg, s, env);
        run_threads(w, NULL, iterations);
        report(w, iterations * s->njobs, "own connections", &t);
        run_shared(cfg, s, env, iterations, &t);
    }
    for (int k = 0; k < s->njobs; k++)
        e2e_buf_free(&s->jobs[k].desc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    e2e_buf_free(&why);
    return e2e_summary(&t);
}
