/*
** sqlite_loop.c — the floor for SQLite: a plain C loop over libsqlite3 that
** runs the benchmark's query and reads every value, with no ODBC at all.
**
** It reads each value the way a careful application would: by storage class
** (sqlite3_column_int64, _double, _text), except that a column declared as a
** date or a boolean is handed over as one, as the ODBC drivers do.  Output is
** the client's key=value line (bench/client/client.c), so the harness
** compares checksums and times alike.
**
** usage: sqlite_loop [--no-checksum] [--repeat K] [--show N] FILE SQL
*/
#define _POSIX_C_SOURCE 200809L
#include "../client/cycles.h"

#include <sqlite3.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum decl { D_PLAIN, D_DATE, D_BOOL };

typedef struct query {
    const char *file, *sql;
} query;

static volatile uint64_t sink;   /* keeps the unchecked reads from vanishing */

static void die(sqlite3 *db, const char *what, int status)
{
    fprintf(stderr, "error: %s failed: %s\n", what, db ? sqlite3_errmsg(db) : "?");
    exit(status);
}

static enum decl decl_of(const char *t)
{
    if (t == NULL)
        return D_PLAIN;
    if (strncasecmp(t, "DATE", 4) == 0 && strncasecmp(t, "DATETIME", 8) != 0)
        return D_DATE;
    if (strncasecmp(t, "BOOL", 4) == 0)
        return D_BOOL;
    return D_PLAIN;
}

static void read_value(sqlite3_stmt *st, int j, enum decl d, canon *c, int checksum)
{
    switch (sqlite3_column_type(st, j)) {
    case SQLITE_NULL:
        if (checksum)
            canon_null(c);
        break;
    case SQLITE_INTEGER: {
        sqlite3_int64 v = sqlite3_column_int64(st, j);
        if (checksum)
            canon_int(c, d == D_BOOL ? v != 0 : v);
        else
            sink += (uint64_t)v;
        break;
    }
    case SQLITE_FLOAT: {
        double v = sqlite3_column_double(st, j);
        if (checksum)
            canon_double(c, v);
        else
            sink += (uint64_t)v;
        break;
    }
    case SQLITE_TEXT: {
        const char *s = (const char *)sqlite3_column_text(st, j);
        size_t n = (size_t)sqlite3_column_bytes(st, j);
        if (!checksum)
            sink += n + (n ? (unsigned char)s[0] : 0);
        else if (d == D_DATE)
            canon_date_text(c, s, n);
        else
            canon_text(c, s, n);
        break;
    }
    default: {
        const void *p = sqlite3_column_blob(st, j);
        size_t n = (size_t)sqlite3_column_bytes(st, j);
        if (checksum)
            canon_binary(c, p, n);
        else
            sink += n;
    }
    }
}

static uint64_t run_once(void *ctx, const bench_options *o, canon *c, bench_cycle *t,
                         int *ncols)
{
    const query *q = ctx;
    int checksum = o->checksum;
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    double t0 = canon_now();
    if (sqlite3_open_v2(q->file, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        die(db, "sqlite3_open_v2", 2);
    double t1 = canon_now();
    if (sqlite3_prepare_v2(db, q->sql, -1, &st, NULL) != SQLITE_OK)
        die(db, "sqlite3_prepare_v2", 3);
    double t2 = canon_now();
    int n = sqlite3_column_count(st);
    enum decl d[256];
    if (n > 256)
        die(db, "more than 256 columns", 2);
    for (int j = 0; j < n; j++)
        d[j] = decl_of(sqlite3_column_decltype(st, j));
    uint64_t rows = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        for (int j = 0; j < n; j++)
            read_value(st, j, d[j], c, checksum);
        if (checksum)
            canon_end_row(c);
        rows++;
    }
    if (rc != SQLITE_DONE)
        die(db, "sqlite3_step", 2);
    double t3 = canon_now();
    canon_rss_now(&t->anon_kb, &t->file_kb);
    sqlite3_finalize(st);
    sqlite3_close(db);
    double t4 = canon_now();
    t->connect = t1 - t0;
    t->execute = t2 - t1;
    t->fetch = t3 - t2;
    t->close = t4 - t3;
    *ncols = n;
    return rows;
}

int main(int argc, char **argv)
{
    bench_options o = BENCH_OPTIONS_INIT;
    int i = 1;
    while (i < argc && bench_common_option(&o, argc, argv, &i))
        i++;
    if (argc - i != 2 || o.repeat < 1) {
        fprintf(stderr, "usage: sqlite_loop [--no-checksum] [--repeat K] [--show N] FILE SQL\n");
        return 2;
    }
    query q = {argv[i], argv[i + 1]};
    return bench_run_cycles(&o, run_once, &q);
}
