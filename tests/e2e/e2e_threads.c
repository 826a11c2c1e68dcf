/*
** e2e_threads.c — concurrent statements give the single-threaded results.
**
** Phase 1: 4 threads, each with its own connections, run a mix of queries
** over a few corpus files many times (reconnecting now and then).
** Phase 2: 4 threads share ONE connection per file (each thread its own
** statements on it) — odbcinst.ini sets Threading = 0, so unixODBC passes the
** calls through unserialised and the driver's own locks must hold.
** Every result's checksum (all values, typed SQLGetData in pieces) must
** equal the one computed single-threaded first.  The lead runs this under
** ThreadSanitizer/helgrind too; iterations: --iterations N.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define NTHREADS 4
/* SQLGetData pieces: small enough that the memos arrive in several, large
** enough that the test measures concurrency, not the cost of pieces. */
#define THREAD_PIECE 512

typedef struct job {
    int file;            /* index into files[] */
    const char *sql;
    uint64_t sum;        /* single-threaded checksum */
    long rows;
} job;

static const char *const files[] = {
    "dbf/real/GeospatialPython-pyshp/edit.dbf",   /* 663 rows */
    "dbf/real/infused-dbf/dbase_83.dbf",          /* dBASE III+ memos */
    "dbf/generated/vfp_alltypes.dbf",             /* VFP types, .fpt */
};
#define NFILES (int)(sizeof files / sizeof files[0])

static job jobs[] = {
    { 0, "SELECT * FROM \"edit\"", 0, 0 },
    { 0, "SELECT \"BKG_KEY\", \"MEDIANRENT\" FROM \"edit\" WHERE \"MEDIANRENT\" > 700 "
         "ORDER BY \"MEDIANRENT\" DESC, \"BKG_KEY\"", 0, 0 },
    { 0, "SELECT * FROM \"edit\" LIMIT 100", 0, 0 },
    { 1, "SELECT * FROM \"dbase_83\"", 0, 0 },
    { 1, "SELECT \"ID\", \"DESC\" FROM \"dbase_83\" WHERE \"ID\" < 100", 0, 0 },
    { 2, "SELECT * FROM \"vfp_alltypes\"", 0, 0 },
};
#define NJOBS (int)(sizeof jobs / sizeof jobs[0])

typedef struct worker {
    const e2e_config *cfg;
    SQLHENV env;
    SQLHDBC *shared;     /* phase 2: one connection per file, or NULL */
    int id, iterations;
    pthread_barrier_t *start;
    int runs, bad;
    e2e_buf first;       /* the first problem seen */
} worker;

static void conn_string(const e2e_config *cfg, int file, e2e_buf *out)
{
    e2e_buf path = {0};
    e2e_buf_printf(&path, "%s/%s", cfg->corpus, files[file]);
    e2e_connstr(out, cfg->driver, path.ptr, NULL);
    e2e_buf_free(&path);
}

static SQLHDBC open_file(const e2e_config *cfg, SQLHENV env, int file,
                         e2e_buf *why)
{
    e2e_buf cs = {0};
    e2e_diag d;
    conn_string(cfg, file, &cs);
    SQLHDBC dbc = e2e_connect(env, cs.ptr, true, &d);
    if (!dbc)
        e2e_buf_printf(why, "connect to %s: %s", files[file], d.text);
    e2e_buf_free(&cs);
    return dbc;
}

/* Run one query on `st` and checksum it. */
static int run_job(SQLHSTMT st, const job *j, uint64_t *sum, long *rows,
                   e2e_buf *why)
{
    if (!SQL_SUCCEEDED(e2e_exec(st, j->sql, true))) {
        e2e_diag d;
        e2e_diag_get(SQL_HANDLE_STMT, st, &d);
        e2e_buf_printf(why, "%s: %s", j->sql, d.text);
        return -1;
    }
    int rc = e2e_result_checksum(st, THREAD_PIECE, sum, rows, why);
    if (rc)
        e2e_buf_printf(why, " [%s]", j->sql);
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
    SQLHDBC own[NFILES] = {0};
    SQLHSTMT st[NFILES] = {0};
    e2e_buf why = {0};
    pthread_barrier_wait(w->start);
    for (int it = 0; it < w->iterations; it++) {
        for (int f = 0; f < NFILES; f++) {
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
                dbc = own[f] = open_file(w->cfg, w->env, f, &why);
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
        /* Each thread starts the mix at a different job, so different
        ** queries overlap. */
        for (int k = 0; k < NJOBS; k++) {
            const job *j = &jobs[(k + w->id) % NJOBS];
            uint64_t sum = 0;
            long rows = 0;
            e2e_buf_clear(&why);
            w->runs++;
            if (run_job(st[j->file], j, &sum, &rows, &why)) {
                note(w, "%s%s", why.ptr, "");
                continue;
            }
            if (sum != j->sum || rows != j->rows) {
                char detail[128];
                snprintf(detail, sizeof detail, " gave %ld rows/checksum "
                         "%016llx, single-threaded %ld/%016llx", rows,
                         (unsigned long long)sum, j->rows,
                         (unsigned long long)j->sum);
                note(w, "%s%s", j->sql, detail);
            }
        }
    }
out:
    for (int f = 0; f < NFILES; f++) {
        if (st[f])
            SQLFreeHandle(SQL_HANDLE_STMT, st[f]);
        e2e_disconnect(own[f]);
    }
    e2e_buf_free(&why);
    return NULL;
}

static void run_phase(const e2e_config *cfg, SQLHENV env, SQLHDBC *shared,
                      int iterations, const char *name, e2e_tally *t)
{
    worker w[NTHREADS];
    pthread_t tid[NTHREADS];
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, NTHREADS);
    for (int i = 0; i < NTHREADS; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].cfg = cfg;
        w[i].env = env;
        w[i].shared = shared;
        w[i].id = i;
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
    for (int i = 0; i < NTHREADS; i++) {
        char what[128];
        snprintf(what, sizeof what, "%s, thread %d (%d queries)", name, i,
                 w[i].runs);
        if (w[i].bad || w[i].runs != iterations * NJOBS)
            e2e_fail(t, what, "%d of %d results differ or failed; first: %s",
                     w[i].bad, w[i].runs, w[i].first.len ? w[i].first.ptr :
                     "(thread stopped early)");
        else
            e2e_pass(t, cfg, what);
        e2e_buf_free(&w[i].first);
    }
}

int e2e_cmd_threads(const e2e_config *cfg)
{
    int iterations = cfg->iterations > 0 ? cfg->iterations : 20;
    e2e_tally t = {0};
    SQLHENV env = e2e_env_new();
    SQLHDBC shared[NFILES] = {0};
    e2e_buf why = {0};

    /* The single-threaded reference results. */
    for (int f = 0; f < NFILES && !why.len; f++) {
        shared[f] = open_file(cfg, env, f, &why);
        if (!shared[f])
            break;
    }
    for (int k = 0; k < NJOBS && !why.len; k++) {
        SQLHSTMT st;
        SQLAllocHandle(SQL_HANDLE_STMT, shared[jobs[k].file], &st);
        if (run_job(st, &jobs[k], &jobs[k].sum, &jobs[k].rows, &why) == 0 &&
            jobs[k].rows == 0)
            e2e_buf_printf(&why, "%s returned no rows", jobs[k].sql);
        SQLFreeHandle(SQL_HANDLE_STMT, st);
        if (cfg->verbose && !why.len)
            printf("     %-100s %5ld rows %016llx\n", jobs[k].sql, jobs[k].rows,
                   (unsigned long long)jobs[k].sum);
    }
    if (why.len) {
        e2e_fail(&t, "single-threaded reference", "%s", why.ptr);
    } else {
        e2e_pass(&t, cfg, "single-threaded reference");
        run_phase(cfg, env, NULL, iterations, "own connections", &t);
        run_phase(cfg, env, shared, iterations, "one shared connection per file", &t);
    }
    for (int f = 0; f < NFILES; f++)
        e2e_disconnect(shared[f]);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    e2e_buf_free(&why);
    return e2e_summary(&t);
}
