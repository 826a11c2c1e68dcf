/*
** client.c — the benchmark's ODBC client: one plain ODBC application that
** connects by connection string, runs one query and fetches every row in
** one of two ways:
**
**   block  a block cursor of 1,024 rows with column-wise binds typed by what
**          the driver describes (integers as integers, doubles as doubles,
**          dates as date structs, decimals and text as text); --rowset 1
**          binds the same way but sets no cursor attribute at all and
**          fetches one row per SQLFetch (ODBC 2 style), for drivers that
**          refuse block cursors (mdbtools);
**   row    SQLFetch, then SQLGetData per column as SQL_C_CHAR (or
**          SQL_C_WCHAR with --text wchar), as isql and Power Query do.
**
** It prints one line of key=value results: rows, seconds (and its parts:
** connect, execute, fetch, close), the checksum of every value (canon.h) and
** peak RSS.  The same source builds against unixODBC and against iODBC's
** headers (where SQLWCHAR is 4 bytes).
**
** Exit status: 0 done; 3 the statement failed at SQLExecDirect (the harness
** records "unsupported"); 2 anything else failed.
*/
#define _POSIX_C_SOURCE 200809L
#include "cycles.h"

#include <sql.h>
#include <sqlext.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWSET 1024
#define MAX_WIDTH 8192          /* bytes per bound text value */

enum family { F_INT, F_BIT, F_FLOAT, F_DECIMAL, F_TEXT, F_BINARY, F_DATE,
              F_TIME, F_TIMESTAMP };

typedef struct column {
    SQLSMALLINT sqltype;
    SQLULEN size;
    enum family family;
    SQLSMALLINT ctype;       /* block mode: the bound C type */
    SQLLEN width;            /* block mode: bytes per value */
    char *data;
    SQLLEN *ind;
} column;

typedef struct options {
    const char *connstr, *sql;
    int block;               /* 1 block cursor, 0 row-at-a-time */
    int wide;                /* text as SQL_C_WCHAR */
    bench_options common;    /* --no-checksum, --repeat, --show */
    int describe;            /* print each column's description to stderr */
    int rowset;              /* block mode: rows per SQLFetch */
} options;

/* Growable scratch buffers for row mode; never shrink, never freed per row. */
typedef struct scratch {
    char *buf;
    size_t cap;
    char *utf8;
    size_t utf8_cap;
} scratch;

static void die_diag(SQLSMALLINT type, SQLHANDLE h, const char *what, int status)
{
    SQLCHAR state[6], msg[1024];
    SQLINTEGER native;
    SQLSMALLINT len;
    fprintf(stderr, "error: %s failed", what);
    for (SQLSMALLINT i = 1;
         SQLGetDiagRec(type, h, i, state, &native, msg, sizeof msg, &len) == SQL_SUCCESS;
         i++)
        fprintf(stderr, "%s[%s] %s", i == 1 ? ": " : "; ", (char *)state, (char *)msg);
    fprintf(stderr, "\n");
    exit(status);
}

static void die(const char *msg)
{
    fprintf(stderr, "error: %s\n", msg);
    exit(2);
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (p == NULL)
        die("out of memory");
    return p;
}

static enum family family_of(SQLSMALLINT t)
{
    switch (t) {
    case SQL_TINYINT: case SQL_SMALLINT: case SQL_INTEGER: case SQL_BIGINT:
        return F_INT;
    case SQL_BIT:
        return F_BIT;
    case SQL_REAL: case SQL_FLOAT: case SQL_DOUBLE:
        return F_FLOAT;
    case SQL_DECIMAL: case SQL_NUMERIC:
        return F_DECIMAL;
    case SQL_BINARY: case SQL_VARBINARY: case SQL_LONGVARBINARY:
        return F_BINARY;
    case SQL_TYPE_DATE: case SQL_DATE:
        return F_DATE;
    case SQL_TYPE_TIME: case SQL_TIME:
        return F_TIME;
    case SQL_TYPE_TIMESTAMP: case SQL_TIMESTAMP:
        return F_TIMESTAMP;
    default:
        return F_TEXT;       /* CHAR, VARCHAR, W*, GUID, anything unknown */
    }
}

/* ------------------------------------------------------------------------ */
/* Text                                                                     */
/* ------------------------------------------------------------------------ */

/* SQLWCHAR is 2 bytes (UTF-16) under unixODBC and 4 (UTF-32) under iODBC. */
static size_t wide_to_utf8(const SQLWCHAR *w, size_t units, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < units; i++) {
        uint32_t cp = (uint32_t)w[i];
        if (sizeof(SQLWCHAR) == 2 && cp >= 0xD800 && cp < 0xDC00 && i + 1 < units &&
            (uint32_t)w[i + 1] >= 0xDC00 && (uint32_t)w[i + 1] < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + ((uint32_t)w[i + 1] - 0xDC00);
            i++;
        }
        if (cp < 0x80) {
            out[o++] = (char)cp;
        } else if (cp < 0x800) {
            out[o++] = (char)(0xC0 | (cp >> 6));
            out[o++] = (char)(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out[o++] = (char)(0xE0 | (cp >> 12));
            out[o++] = (char)(0x80 | ((cp >> 6) & 0x3F));
            out[o++] = (char)(0x80 | (cp & 0x3F));
        } else {
            out[o++] = (char)(0xF0 | (cp >> 18));
            out[o++] = (char)(0x80 | ((cp >> 12) & 0x3F));
            out[o++] = (char)(0x80 | ((cp >> 6) & 0x3F));
            out[o++] = (char)(0x80 | (cp & 0x3F));
        }
    }
    return o;
}

/* Hash a value that arrived as text, by the family its column describes. */
static void canon_by_family(canon *c, enum family f, const char *s, size_t n)
{
    switch (f) {
    case F_INT: case F_BIT: case F_FLOAT: case F_DECIMAL:
        canon_number_text(c, s, n);
        break;
    case F_DATE:
        canon_date_text(c, s, n);
        break;
    case F_TIME:
        canon_time_text(c, s, n);
        break;
    case F_TIMESTAMP:
        canon_timestamp_text(c, s, n);
        break;
    default:
        canon_text(c, s, n);
    }
}

/* ------------------------------------------------------------------------ */
/* Block mode                                                               */
/* ------------------------------------------------------------------------ */

static SQLLEN text_width(SQLULEN chars, size_t unit, size_t per_char)
{
    if (chars == 0 || chars > MAX_WIDTH)
        return MAX_WIDTH;
    SQLLEN w = (SQLLEN)((chars * per_char + 1) * unit);
    return w > MAX_WIDTH ? MAX_WIDTH : w;
}

static void choose_binding(column *col, int wide)
{
    switch (col->family) {
    case F_INT:
        switch (col->sqltype) {
        case SQL_TINYINT:  col->ctype = SQL_C_STINYINT; col->width = 1; break;
        case SQL_SMALLINT: col->ctype = SQL_C_SSHORT;   col->width = 2; break;
        case SQL_INTEGER:  col->ctype = SQL_C_SLONG;    col->width = 4; break;
        default:           col->ctype = SQL_C_SBIGINT;  col->width = 8; break;
        }
        break;
    case F_BIT:
        col->ctype = SQL_C_BIT; col->width = 1;
        break;
    case F_FLOAT:
        col->ctype = SQL_C_DOUBLE; col->width = 8;
        break;
    case F_DECIMAL:      /* as most clients do (pyodbc): exact, as text */
        col->ctype = SQL_C_CHAR; col->width = (SQLLEN)(col->size ? col->size : 38) + 3;
        break;
    case F_BINARY:
        col->ctype = SQL_C_BINARY; col->width = text_width(col->size, 1, 1);
        break;
    case F_DATE:
        col->ctype = SQL_C_TYPE_DATE; col->width = sizeof(SQL_DATE_STRUCT);
        break;
    case F_TIME:
        col->ctype = SQL_C_TYPE_TIME; col->width = sizeof(SQL_TIME_STRUCT);
        break;
    case F_TIMESTAMP:
        col->ctype = SQL_C_TYPE_TIMESTAMP; col->width = sizeof(SQL_TIMESTAMP_STRUCT);
        break;
    case F_TEXT:
        if (wide) {      /* a UTF-16 unit may need a surrogate pair */
            col->ctype = SQL_C_WCHAR;
            col->width = text_width(col->size, sizeof(SQLWCHAR), 2);
        } else {         /* a character is up to 4 UTF-8 bytes */
            col->ctype = SQL_C_CHAR;
            col->width = text_width(col->size, 1, 4);
        }
        break;
    }
    /* Column-wise binding strides fixed-size types by their C size and the
    ** rest by BufferLength: round only the latter, to keep them aligned. */
    if (col->ctype == SQL_C_CHAR || col->ctype == SQL_C_WCHAR || col->ctype == SQL_C_BINARY)
        col->width = (col->width + 7) & ~(SQLLEN)7;
}

/* A bound column's length/indicator.  mdbtools' ODBC driver stores only 32
** bits into the 64-bit SQLLEN; the array is zeroed when allocated, so such a
** value arrives with its upper half zero and is read back as the 32-bit
** number it is (0xFFFFFFFF = SQL_NULL_DATA).  A value of 2^31 bytes or more
** cannot come from a bound column of at most 8 KiB. */
static SQLLEN indicator(const column *col, SQLULEN row)
{
    SQLLEN v = col->ind[row];
    if (v > (SQLLEN)INT32_MAX && (uint64_t)v <= UINT32_MAX)
        v = (SQLLEN)(int32_t)(uint32_t)v;
    return v;
}

static void canon_bound(canon *c, const column *col, SQLULEN row, char *utf8)
{
    SQLLEN ind = indicator(col, row);
    const char *v = col->data + (size_t)row * (size_t)col->width;
    if (ind == SQL_NULL_DATA) {
        canon_null(c);
        return;
    }
    switch (col->ctype) {
    case SQL_C_STINYINT: canon_int(c, *(const signed char *)v); return;
    case SQL_C_SSHORT: { SQLSMALLINT x; memcpy(&x, v, sizeof x); canon_int(c, x); return; }
    case SQL_C_SLONG: { SQLINTEGER x; memcpy(&x, v, sizeof x); canon_int(c, x); return; }
    case SQL_C_SBIGINT: { SQLBIGINT x; memcpy(&x, v, sizeof x); canon_int(c, x); return; }
    case SQL_C_BIT: canon_int(c, *(const unsigned char *)v); return;
    case SQL_C_DOUBLE: { double x; memcpy(&x, v, sizeof x); canon_double(c, x); return; }
    case SQL_C_TYPE_DATE: {
        SQL_DATE_STRUCT d; memcpy(&d, v, sizeof d);
        canon_date(c, d.year, d.month, d.day);
        return;
    }
    case SQL_C_TYPE_TIME: {
        SQL_TIME_STRUCT t; memcpy(&t, v, sizeof t);
        canon_time(c, t.hour, t.minute, t.second);
        return;
    }
    case SQL_C_TYPE_TIMESTAMP: {
        SQL_TIMESTAMP_STRUCT t; memcpy(&t, v, sizeof t);
        canon_timestamp(c, t.year, t.month, t.day, t.hour, t.minute, t.second,
                        (uint32_t)t.fraction);
        return;
    }
    case SQL_C_BINARY:
        canon_binary(c, v, (size_t)ind);
        return;
    case SQL_C_WCHAR: {
        size_t n = wide_to_utf8((const SQLWCHAR *)(const void *)v,
                                (size_t)ind / sizeof(SQLWCHAR), utf8);
        canon_by_family(c, col->family, utf8, n);
        return;
    }
    default:
        canon_by_family(c, col->family, v, (size_t)ind);
    }
}

/* A bound value the driver could not fit is a harness bug, never data. */
static void check_truncation(const column *col, SQLSMALLINT n, SQLULEN rows)
{
    for (SQLSMALLINT j = 0; j < n; j++) {
        const column *k = &col[j];
        if (k->ctype != SQL_C_CHAR && k->ctype != SQL_C_WCHAR && k->ctype != SQL_C_BINARY)
            continue;
        SQLLEN room = k->width - (k->ctype == SQL_C_CHAR ? 1 :
                                  k->ctype == SQL_C_WCHAR ? (SQLLEN)sizeof(SQLWCHAR) : 0);
        for (SQLULEN r = 0; r < rows; r++)
            if (indicator(k, r) == SQL_NO_TOTAL || indicator(k, r) > room) {
                fprintf(stderr, "error: column %d truncated at %ld bytes\n", j + 1,
                        (long)k->width);
                exit(2);
            }
    }
}

static uint64_t fetch_block(SQLHSTMT st, column *col, SQLSMALLINT n,
                            const options *o, canon *c)
{
    SQLULEN fetched = 0;
    SQLUSMALLINT status[ROWSET];
    size_t widest = 0, rowset = (size_t)o->rowset;
    for (SQLSMALLINT j = 0; j < n; j++) {
        choose_binding(&col[j], o->wide);
        col[j].data = xrealloc(NULL, (size_t)col[j].width * rowset);
        col[j].ind = xrealloc(NULL, sizeof(SQLLEN) * rowset);
        memset(col[j].ind, 0, sizeof(SQLLEN) * rowset);
        if ((size_t)col[j].width > widest)
            widest = (size_t)col[j].width;
        if (!SQL_SUCCEEDED(SQLBindCol(st, (SQLUSMALLINT)(j + 1), col[j].ctype,
                                      col[j].data, col[j].width, col[j].ind)))
            die_diag(SQL_HANDLE_STMT, st, "SQLBindCol", 2);
    }
    char *utf8 = xrealloc(NULL, widest * 2 + 16);
    status[0] = SQL_ROW_SUCCESS;
    if (rowset > 1) {
        if (!SQL_SUCCEEDED(SQLSetStmtAttr(st, SQL_ATTR_ROW_BIND_TYPE,
                                          (SQLPOINTER)SQL_BIND_BY_COLUMN, 0)) ||
            !SQL_SUCCEEDED(SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE,
                                          (SQLPOINTER)(SQLULEN)rowset, 0)) ||
            !SQL_SUCCEEDED(SQLSetStmtAttr(st, SQL_ATTR_ROW_STATUS_PTR, status, 0)) ||
            !SQL_SUCCEEDED(SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0)))
            die_diag(SQL_HANDLE_STMT, st, "SQLSetStmtAttr (block cursor)", 2);
        SQLULEN size = 0;
        SQLGetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, &size, 0, NULL);
        if (size != rowset)
            die("the driver refused a rowset of 1,024 rows");
    }

    uint64_t rows = 0;
    for (;;) {
        SQLRETURN rc = SQLFetch(st);
        if (rc == SQL_NO_DATA)
            break;
        if (!SQL_SUCCEEDED(rc))
            die_diag(SQL_HANDLE_STMT, st, "SQLFetch", 2);
        if (rowset == 1)
            fetched = 1;
        for (SQLULEN r = 0; r < fetched; r++)
            if (status[r] == SQL_ROW_ERROR)
                die_diag(SQL_HANDLE_STMT, st, "SQLFetch (row status)", 2);
        if (rc == SQL_SUCCESS_WITH_INFO)
            check_truncation(col, n, fetched);
        if (o->common.checksum)
            for (SQLULEN r = 0; r < fetched; r++) {
                for (SQLSMALLINT j = 0; j < n; j++)
                    canon_bound(c, &col[j], r, utf8);
                canon_end_row(c);
            }
        rows += fetched;
    }
    free(utf8);
    for (SQLSMALLINT j = 0; j < n; j++) {
        free(col[j].data);
        free(col[j].ind);
    }
    return rows;
}

/* ------------------------------------------------------------------------ */
/* Row mode                                                                 */
/* ------------------------------------------------------------------------ */

/* Read one column of the current row in as many pieces as it takes; returns
** the length in bytes, or -1 for NULL. */
static long get_value(SQLHSTMT st, SQLUSMALLINT j, SQLSMALLINT ctype, scratch *s)
{
    size_t term = ctype == SQL_C_WCHAR ? sizeof(SQLWCHAR) : 1;
    size_t len = 0;
    for (;;) {
        SQLLEN ind = 0;
        size_t room = s->cap - len;
        SQLRETURN rc = SQLGetData(st, j, ctype, s->buf + len, (SQLLEN)room, &ind);
        if (rc == SQL_NO_DATA)
            return (long)len;
        if (!SQL_SUCCEEDED(rc))
            die_diag(SQL_HANDLE_STMT, st, "SQLGetData", 2);
        if (ind == SQL_NULL_DATA)
            return -1;
        if (rc == SQL_SUCCESS_WITH_INFO && (ind == SQL_NO_TOTAL || (size_t)ind > room - term)) {
            /* a piece fills the buffer but for its terminator */
            len += (room - term) / term * term;
            s->cap *= 2;
            s->buf = xrealloc(s->buf, s->cap);
            continue;
        }
        return (long)(len + (size_t)ind);
    }
}

static uint64_t fetch_rows(SQLHSTMT st, const column *col, SQLSMALLINT n,
                           const options *o, canon *c, scratch *s)
{
    SQLSMALLINT ctype = o->wide ? SQL_C_WCHAR : SQL_C_CHAR;
    uint64_t rows = 0;
    for (;;) {
        SQLRETURN rc = SQLFetch(st);
        if (rc == SQL_NO_DATA)
            break;
        if (!SQL_SUCCEEDED(rc))
            die_diag(SQL_HANDLE_STMT, st, "SQLFetch", 2);
        for (SQLSMALLINT j = 0; j < n; j++) {
            long len = get_value(st, (SQLUSMALLINT)(j + 1), ctype, s);
            if (!o->common.checksum)
                continue;
            if (len < 0) {
                canon_null(c);
            } else if (o->wide) {
                size_t need = (size_t)len / sizeof(SQLWCHAR) * 4 + 1;
                if (need > s->utf8_cap) {
                    s->utf8_cap = need * 2;
                    s->utf8 = xrealloc(s->utf8, s->utf8_cap);
                }
                size_t u = wide_to_utf8((const SQLWCHAR *)(void *)s->buf,
                                        (size_t)len / sizeof(SQLWCHAR), s->utf8);
                canon_by_family(c, col[j].family, s->utf8, u);
            } else {
                canon_by_family(c, col[j].family, s->buf, (size_t)len);
            }
        }
        if (o->common.checksum)
            canon_end_row(c);
        rows++;
    }
    return rows;
}

/* ------------------------------------------------------------------------ */
/* One connect-execute-fetch-disconnect cycle                               */
/* ------------------------------------------------------------------------ */

typedef struct client {
    const options *o;
    scratch *s;
} client;

static uint64_t run_once(void *ctx, const bench_options *common, canon *c, bench_cycle *t,
                         int *ncols)
{
    (void)common;   /* the same as ctx's options' */
    const options *o = ((client *)ctx)->o;
    scratch *s = ((client *)ctx)->s;
    SQLHENV env;
    SQLHDBC dbc;
    SQLHSTMT st;
    double t0 = canon_now();
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env)))
        die("SQLAllocHandle(ENV) failed");
    SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc)))
        die_diag(SQL_HANDLE_ENV, env, "SQLAllocHandle(DBC)", 2);
    SQLCHAR out[1024];
    SQLSMALLINT outlen;
    if (!SQL_SUCCEEDED(SQLDriverConnect(dbc, NULL, (SQLCHAR *)o->connstr, SQL_NTS, out,
                                        sizeof out, &outlen, SQL_DRIVER_NOPROMPT)))
        die_diag(SQL_HANDLE_DBC, dbc, "SQLDriverConnect", 2);
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st)))
        die_diag(SQL_HANDLE_DBC, dbc, "SQLAllocHandle(STMT)", 2);
    double t1 = canon_now();

    if (!SQL_SUCCEEDED(SQLExecDirect(st, (SQLCHAR *)o->sql, SQL_NTS)))
        die_diag(SQL_HANDLE_STMT, st, "SQLExecDirect", 3);
    double t2 = canon_now();

    SQLSMALLINT n;
    if (!SQL_SUCCEEDED(SQLNumResultCols(st, &n)))
        die_diag(SQL_HANDLE_STMT, st, "SQLNumResultCols", 2);
    if (n <= 0)
        die("the statement returned no result set");
    column *col = xrealloc(NULL, sizeof(column) * (size_t)n);
    memset(col, 0, sizeof(column) * (size_t)n);
    for (SQLSMALLINT j = 0; j < n; j++) {
        SQLCHAR name[256];
        SQLSMALLINT namelen, digits, nullable;
        if (!SQL_SUCCEEDED(SQLDescribeCol(st, (SQLUSMALLINT)(j + 1), name, sizeof name,
                                          &namelen, &col[j].sqltype, &col[j].size,
                                          &digits, &nullable)))
            die_diag(SQL_HANDLE_STMT, st, "SQLDescribeCol", 2);
        col[j].family = family_of(col[j].sqltype);
        if (o->describe)
            fprintf(stderr, "column %d %.*s: SQL type %d, size %lu, digits %d, nullable %d\n",
                    j + 1, (int)namelen, (char *)name, col[j].sqltype,
                    (unsigned long)col[j].size, digits, nullable);
    }
    uint64_t rows = o->block ? fetch_block(st, col, n, o, c)
                             : fetch_rows(st, col, n, o, c, s);
    double t3 = canon_now();
    canon_rss_now(&t->anon_kb, &t->file_kb);

    SQLFreeHandle(SQL_HANDLE_STMT, st);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    double t4 = canon_now();
    free(col);
    t->connect = t1 - t0;
    t->execute = t2 - t1;
    t->fetch = t3 - t2;
    t->close = t4 - t3;
    *ncols = n;
    return rows;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: client [--mode block|row] [--rowset 1|1024] [--text char|wchar]\n"
            "              [--repeat K] [--no-checksum] [--show N] [--describe]\n"
            "              CONNECTION-STRING SQL\n");
    exit(2);
}

int main(int argc, char **argv)
{
    options o = {.block = 1, .common = BENCH_OPTIONS_INIT, .rowset = ROWSET};
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (bench_common_option(&o.common, argc, argv, &i)) {
            continue;
        } else if (strcmp(a, "--describe") == 0) {
            o.describe = 1;
        } else if (v == NULL) {
            usage();
        } else if (strcmp(a, "--mode") == 0) {
            o.block = strcmp(v, "block") == 0;
            if (!o.block && strcmp(v, "row") != 0)
                usage();
            i++;
        } else if (strcmp(a, "--text") == 0) {
            o.wide = strcmp(v, "wchar") == 0;
            if (!o.wide && strcmp(v, "char") != 0)
                usage();
            i++;
        } else if (strcmp(a, "--rowset") == 0) {
            o.rowset = atoi(v);
            if (o.rowset != 1 && o.rowset != ROWSET)
                usage();
            i++;
        } else {
            usage();
        }
    }
    if (argc - i != 2 || o.common.repeat < 1)
        usage();
    o.connstr = argv[i];
    o.sql = argv[i + 1];

    scratch s = {.cap = 4096};
    s.buf = xrealloc(NULL, s.cap);
    client cl = {&o, &s};
    int status = bench_run_cycles(&o.common, run_once, &cl);
    free(s.buf);
    free(s.utf8);
    return status;
}
