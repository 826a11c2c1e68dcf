/*
** e2e_errors.c — failures come back as the right SQLSTATE with a useful
** message: a missing file (08001 naming the path), a syntax error (42000
** with line and column), writes (42000 "read-only"), unknown table (42S02)
** and column (42S22); the data source says it is read-only; a statement
** still works after its errors.
*/
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

static const char *ci_find(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = hay; *p; p++) {
        size_t k = 0;
        while (k < n && p[k] && tolower((unsigned char)p[k]) == needle[k])
            k++;
        if (k == n)
            return p;
    }
    return NULL;
}

/* The number written soon after `word` ("line 3", "line: 3"), or -1. */
static long number_after(const char *text, const char *word)
{
    for (const char *p = ci_find(text, word); p; p = ci_find(p + 1, word)) {
        const char *q = p + strlen(word);
        for (int skip = 0; skip < 3 && *q && !isdigit((unsigned char)*q); skip++)
            q++;
        if (isdigit((unsigned char)*q))
            return strtol(q, NULL, 10);
    }
    return -1;
}

/* Run `sql`; it must fail with `state`.  Returns the diagnostics. */
static bool expect_state(SQLHSTMT st, const char *sql, const char *state,
                         e2e_diag *d, e2e_buf *why)
{
    SQLRETURN rc = e2e_exec(st, sql, true);
    if (SQL_SUCCEEDED(rc)) {
        e2e_buf_printf(why, "succeeded (rc %d), expected %s", (int)rc, state);
        SQLFreeStmt(st, SQL_CLOSE);
        return false;
    }
    e2e_diag_get(SQL_HANDLE_STMT, st, d);
    if (strcmp(d->state, state) != 0) {
        e2e_buf_printf(why, "SQLSTATE %s, expected %s: %s", d->state, state, d->text);
        return false;
    }
    return true;
}

static void check(e2e_tally *t, const e2e_config *cfg, const char *what,
                  e2e_buf *why)
{
    if (why->len)
        e2e_fail(t, what, "%s", why->ptr);
    else
        e2e_pass(t, cfg, what);
    e2e_buf_clear(why);
}

static void missing_file(SQLHENV env, const e2e_config *cfg, e2e_tally *t)
{
    e2e_buf path = {0}, cs = {0}, why = {0};
    e2e_buf_printf(&path, "%s/%s/no-such-folder/missing-table.dbf", cfg->corpus,
                   cfg->format);
    e2e_connstr(&cs, cfg->driver, path.ptr, NULL);
    for (int wide = 0; wide < 2; wide++) {
        e2e_diag d;
        SQLHDBC dbc = e2e_connect(env, cs.ptr, wide, &d);
        if (dbc) {
            e2e_buf_printf(&why, "connected to a missing file");
            e2e_disconnect(dbc);
        } else if (strcmp(d.state, "08001") != 0) {
            e2e_buf_printf(&why, "SQLSTATE %s, expected 08001: %s", d.state, d.text);
        } else if (!strstr(d.text, path.ptr)) {
            e2e_buf_printf(&why, "the message does not hold the path %s: %s",
                           path.ptr, d.text);
        }
        check(t, cfg, wide ? "missing file (SQLDriverConnectW)"
                           : "missing file (SQLDriverConnect)", &why);
    }
    e2e_buf_free(&path);
    e2e_buf_free(&cs);
    e2e_buf_free(&why);
}

static void syntax_error(SQLHSTMT st, const e2e_config *cfg, e2e_tally *t)
{
    e2e_buf why = {0};
    e2e_diag d;
    /* The error sits on line 3. */
    const char *sql = "SELECT *\nFROM \"edit\"\nWHERE \"MEDIANRENT\" > AND 3";
    if (expect_state(st, sql, "42000", &d, &why)) {
        long line = number_after(d.text, "line");
        long col = number_after(d.text, "column");
        if (line != 3 || col < 1)
            e2e_buf_printf(&why, "message lacks \"line 3\" and a column "
                           "(line %ld, column %ld): %s", line, col, d.text);
    }
    check(t, cfg, "syntax error: 42000 with line and column", &why);

    /* Prepared: the error may come from SQLPrepare or from SQLExecute. */
    SQLRETURN rc = SQLPrepare(st, (SQLCHAR *)"SELEKT 1", SQL_NTS);
    if (SQL_SUCCEEDED(rc))
        rc = SQLExecute(st);
    if (SQL_SUCCEEDED(rc)) {
        e2e_buf_printf(&why, "SELEKT 1 prepared and executed");
        SQLFreeStmt(st, SQL_CLOSE);
    } else {
        e2e_diag_get(SQL_HANDLE_STMT, st, &d);
        if (strcmp(d.state, "42000") != 0)
            e2e_buf_printf(&why, "SQLSTATE %s, expected 42000: %s", d.state, d.text);
        else if (number_after(d.text, "line") != 1)
            e2e_buf_printf(&why, "message lacks \"line 1\": %s", d.text);
    }
    check(t, cfg, "syntax error through SQLPrepare", &why);
    e2e_buf_free(&why);
}

static void writes(SQLHSTMT st, const e2e_config *cfg, e2e_tally *t)
{
    static const char *const sqls[] = {
        "INSERT INTO \"edit\" (\"BKG_KEY\", \"MEDIANRENT\") VALUES ('x', 1)",
        "UPDATE \"edit\" SET \"MEDIANRENT\" = 0",
        "DELETE FROM \"edit\"",
        "CREATE TABLE \"t\" (\"a\" INTEGER)",
    };
    e2e_buf why = {0};
    for (size_t i = 0; i < sizeof sqls / sizeof sqls[0]; i++) {
        e2e_diag d;
        char what[160];
        snprintf(what, sizeof what, "read-only error: %.20s...", sqls[i]);
        if (expect_state(st, sqls[i], "42000", &d, &why) &&
            !ci_find(d.text, "read-only"))
            e2e_buf_printf(&why, "message lacks \"read-only\": %s", d.text);
        check(t, cfg, what, &why);
    }
    e2e_buf_free(&why);
}

static void unknown_names(SQLHSTMT st, const e2e_config *cfg, e2e_tally *t)
{
    e2e_buf why = {0};
    e2e_diag d;
    if (expect_state(st, "SELECT * FROM \"no_such_table\"", "42S02", &d, &why) &&
        !strstr(d.text, "no_such_table"))
        e2e_buf_printf(&why, "message does not name the table: %s", d.text);
    check(t, cfg, "unknown table: 42S02", &why);
    if (expect_state(st, "SELECT \"no_such_column\" FROM \"edit\"", "42S22", &d,
                     &why) &&
        !strstr(d.text, "no_such_column"))
        e2e_buf_printf(&why, "message does not name the column: %s", d.text);
    check(t, cfg, "unknown column: 42S22", &why);
    e2e_buf_free(&why);
}

static void says_read_only(SQLHDBC dbc, SQLHSTMT st, const e2e_config *cfg,
                           e2e_tally *t)
{
    e2e_buf why = {0};
    char yn[8] = "";
    SQLSMALLINT len = 0;
    if (!SQL_SUCCEEDED(SQLGetInfo(dbc, SQL_DATA_SOURCE_READ_ONLY, yn, sizeof yn,
                                  &len)) || strcmp(yn, "Y") != 0)
        e2e_buf_printf(&why, "SQL_DATA_SOURCE_READ_ONLY is \"%s\"", yn);
    check(t, cfg, "SQLGetInfo(SQL_DATA_SOURCE_READ_ONLY) = Y", &why);

    SQLUINTEGER mode = 12345;
    if (!SQL_SUCCEEDED(SQLGetConnectAttr(dbc, SQL_ATTR_ACCESS_MODE, &mode, 0, NULL)) ||
        mode != SQL_MODE_READ_ONLY)
        e2e_buf_printf(&why, "SQL_ATTR_ACCESS_MODE is %lu", (unsigned long)mode);
    check(t, cfg, "SQL_ATTR_ACCESS_MODE = SQL_MODE_READ_ONLY", &why);

    /* After all those errors the statement handle still runs a query. */
    uint64_t sum;
    long rows = 0;
    if (!SQL_SUCCEEDED(e2e_exec(st, "SELECT * FROM \"edit\"", true))) {
        e2e_diag d;
        e2e_diag_get(SQL_HANDLE_STMT, st, &d);
        e2e_buf_printf(&why, "%s", d.text);
    } else if (e2e_result_checksum(st, e2e_piece, &sum, &rows, &why) == 0 && rows != 663) {
        e2e_buf_printf(&why, "%ld rows, expected 663", rows);
    }
    SQLFreeStmt(st, SQL_CLOSE);
    check(t, cfg, "statement usable after errors", &why);
    e2e_buf_free(&why);
}

int e2e_cmd_errors(const e2e_config *cfg)
{
    e2e_tally t = {0};
    SQLHENV env = e2e_env_new();
    missing_file(env, cfg, &t);

    e2e_buf path = {0}, cs = {0};
    e2e_buf_printf(&path, "%s/dbf/real/GeospatialPython-pyshp/edit.dbf", cfg->corpus);
    e2e_connstr(&cs, cfg->driver, path.ptr, NULL);
    e2e_diag d;
    SQLHDBC dbc = e2e_connect(env, cs.ptr, true, &d);
    if (!dbc) {
        e2e_fail(&t, "connect", "%s: %s", cs.ptr, d.text);
    } else {
        SQLHSTMT st;
        SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
        syntax_error(st, cfg, &t);
        writes(st, cfg, &t);
        unknown_names(st, cfg, &t);
        says_read_only(dbc, st, cfg, &t);
        SQLFreeHandle(SQL_HANDLE_STMT, st);
        e2e_disconnect(dbc);
    }
    e2e_buf_free(&path);
    e2e_buf_free(&cs);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    return e2e_summary(&t);
}
