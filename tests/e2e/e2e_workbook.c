/*
** e2e_workbook.c — workbook tables through a driver manager, as Power Query
** and Excel's own tools reach them.
**
** For calamine_issues.xls and .xlsb of the corpus: SQLTables called the
** way Power Query's navigator calls it (all arguments NULL but the type
** list "TABLE,VIEW") lists every worksheet as "<name>$" and every
** workbook-level defined name of a rectangle, all as TABLE; a range named
** in a query (`[datatypes$A1:A2]`) reads that rectangle and is not listed
** afterwards; a defined name reads as a table; a malformed range fails
** with 42000, one outside the sheet with HY000, both saying why; with TypeGuessRows=2 a column typed from its first
** two rows still delivers a later value that does not fit (never NULL); an
** Agile-encrypted .xlsb needs PWD= (28000 naming the encryption without it).
**
** Command: lector-e2e[-iodbc] --corpus DIR workbook
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

/* The sheets and names each workbook lists (NULL-terminated; the .xlsb
** has one sheet more). */
static const char *const xls_tables[] = {
    "datatypes$", "issue2$", "issue5$", "issue6$", "MyDataTypes", "OneRange", "Sheet1$", NULL,
};
static const char *const xlsb_tables[] = {
    "datatypes$", "issue2$", "issue5$", "issue6$", "MyDataTypes", "OneRange", "Sheet1$", "spc_chrs$", NULL,
};

static SQLHDBC connect_to(SQLHENV env, const e2e_config *cfg, const char *file, const char *extra,
                          e2e_tally *t)
{
    e2e_buf path = {0}, conn = {0};
    e2e_buf_printf(&path, "%s/%s", cfg->corpus, file);
    e2e_connstr(&conn, cfg->driver, e2e_buf_str(&path), extra);
    e2e_diag d;
    SQLHDBC dbc = e2e_connect(env, e2e_buf_str(&conn), false, &d);
    if (dbc == NULL)
        e2e_fail(t, file, "connect (%s): %s %s", e2e_buf_str(&conn), d.state, d.text);
    e2e_buf_free(&path);
    e2e_buf_free(&conn);
    return dbc;
}

/* Column `col` of the current row as text ("\N" for NULL). */
static void cell_text(SQLHSTMT st, SQLUSMALLINT col, char *out, size_t cap)
{
    SQLLEN ind = 0;
    out[0] = '\0';
    if (!SQL_SUCCEEDED(SQLGetData(st, col, SQL_C_CHAR, out, (SQLLEN)cap, &ind)))
        snprintf(out, cap, "<SQLGetData failed>");
    else if (ind == SQL_NULL_DATA)
        snprintf(out, cap, "\\N");
}

/* Every row of a statement's result as "v|v;v|v"; -1 on an error. */
static int fetch_all(SQLHSTMT st, e2e_buf *out)
{
    SQLSMALLINT ncols = 0;
    SQLNumResultCols(st, &ncols);
    e2e_buf_clear(out);
    e2e_buf_adds(out, "");
    for (int r = 0;; r++) {
        SQLRETURN rc = SQLFetch(st);
        if (rc == SQL_NO_DATA)
            return 0;
        if (!SQL_SUCCEEDED(rc))
            return -1;
        for (SQLSMALLINT c = 1; c <= ncols; c++) {
            char v[256];
            cell_text(st, (SQLUSMALLINT)c, v, sizeof v);
            e2e_buf_printf(out, "%s%s", c > 1 ? "|" : r ? ";" : "", v);
        }
    }
}

/* Run `sql` and compare its rows with `want`. */
static void check_query(SQLHDBC dbc, const char *file, const char *sql, const char *want, e2e_tally *t,
                        const e2e_config *cfg)
{
    SQLHSTMT st;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    e2e_buf what = {0}, rows = {0};
    e2e_buf_printf(&what, "%s: %s", file, sql);
    if (!SQL_SUCCEEDED(e2e_exec(st, sql, false)) || fetch_all(st, &rows) != 0) {
        e2e_diag d;
        e2e_diag_get(SQL_HANDLE_STMT, st, &d);
        e2e_fail(t, e2e_buf_str(&what), "%s %s", d.state, d.text);
    } else if (strcmp(e2e_buf_str(&rows), want) != 0) {
        e2e_fail(t, e2e_buf_str(&what), "rows '%s', want '%s'", e2e_buf_str(&rows), want);
    } else {
        e2e_pass(t, cfg, e2e_buf_str(&what));
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    e2e_buf_free(&what);
    e2e_buf_free(&rows);
}

/* `sql` fails with `state` and a message naming `name`. */
static void check_error(SQLHDBC dbc, const char *file, const char *sql, const char *state, const char *name,
                        e2e_tally *t, const e2e_config *cfg)
{
    SQLHSTMT st;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    e2e_buf what = {0};
    e2e_buf_printf(&what, "%s: %s fails", file, sql);
    SQLRETURN rc = e2e_exec(st, sql, false);
    e2e_diag d;
    e2e_diag_get(SQL_HANDLE_STMT, st, &d);
    if (SQL_SUCCEEDED(rc))
        e2e_fail(t, e2e_buf_str(&what), "it succeeded");
    else if (strcmp(d.state, state) != 0 || strstr(d.text, name) == NULL)
        e2e_fail(t, e2e_buf_str(&what), "%s %s (want %s naming '%s')", d.state, d.text, state, name);
    else
        e2e_pass(t, cfg, e2e_buf_str(&what));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    e2e_buf_free(&what);
}

/* SQLTables(NULL, 0, NULL, 0, NULL, 0, "TABLE,VIEW", SQL_NTS), as Power
** Query's navigator calls it: every listed name once, all TABLE. */
static void check_tables(SQLHDBC dbc, const char *file, const char *const *tables, e2e_tally *t,
                         const e2e_config *cfg)
{
    size_t want = 0;
    bool seen[16] = {false};
    while (tables[want] != NULL && want < 16)
        want++;
    SQLHSTMT st;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    e2e_buf what = {0};
    e2e_buf_printf(&what, "%s: SQLTables(TABLE,VIEW)", file);
    SQLRETURN rc = SQLTables(st, NULL, 0, NULL, 0, NULL, 0, (SQLCHAR *)"TABLE,VIEW", SQL_NTS);
    bool ok = SQL_SUCCEEDED(rc);
    if (!ok) {
        e2e_diag d;
        e2e_diag_get(SQL_HANDLE_STMT, st, &d);
        e2e_fail(t, e2e_buf_str(&what), "%s %s", d.state, d.text);
    }
    size_t rows = 0;
    while (ok && SQL_SUCCEEDED(SQLFetch(st))) {
        char name[256], type[64];
        cell_text(st, 3, name, sizeof name);
        cell_text(st, 4, type, sizeof type);
        rows++;
        size_t i = 0;
        while (i < want && strcmp(tables[i], name) != 0)
            i++;
        if (i == want || seen[i] || strcmp(type, "TABLE") != 0) {
            e2e_fail(t, e2e_buf_str(&what), "row '%s' of type '%s' (unexpected, repeated or not TABLE)", name, type);
            ok = false;
        } else {
            seen[i] = true;
        }
    }
    if (ok && rows != want)
        e2e_fail(t, e2e_buf_str(&what), "%zu rows, want %zu", rows, want);
    else if (ok)
        e2e_pass(t, cfg, e2e_buf_str(&what));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    e2e_buf_free(&what);
}

static void check_workbook(SQLHENV env, const e2e_config *cfg, const char *file, const char *const *tables,
                           e2e_tally *t)
{
    SQLHDBC dbc = connect_to(env, cfg, file, "HDR=No", t);
    if (dbc == NULL)
        return;
    check_tables(dbc, file, tables, t, cfg);
    check_query(dbc, file, "SELECT * FROM [datatypes$A1:A2]", "1;1.5", t, cfg);
    check_query(dbc, file, "SELECT F1 FROM [datatypes$a1:a3] WHERE F1 <> 'ab'", "1;1.5", t, cfg);
    check_query(dbc, file, "SELECT COUNT(*) FROM [datatypes$A:A]", "6", t, cfg);
    check_query(dbc, file, "SELECT COUNT(*) FROM [datatypes$B2:D9]", "0", t, cfg);
    check_query(dbc, file, "SELECT COUNT(*) FROM MyDataTypes", "6", t, cfg);
    check_query(dbc, file, "SELECT COUNT(*) FROM [OneRange]", "0", t, cfg);
    /* used ranges stay unlisted */
    check_tables(dbc, file, tables, t, cfg);
    check_error(dbc, file, "SELECT * FROM [datatypes$A1:]", "42000", "'A1:' is not a cell range", t, cfg);
    check_error(dbc, file, "SELECT * FROM [datatypes$A1:B1048577]", "HY000", "lies outside the sheet", t, cfg);
    check_error(dbc, file, "SELECT * FROM [nosheet$A1:B2]", "42S02", "nosheet$A1:B2", t, cfg);
    e2e_disconnect(dbc);

    /* TypeGuessRows=2: F1 types as a number from 1 and 1.5; "ab" past the
    ** guess still arrives. */
    dbc = connect_to(env, cfg, file, "HDR=No;TypeGuessRows=2", t);
    if (dbc == NULL)
        return;
    check_query(dbc, file, "SELECT F1 FROM [datatypes$A1:A3]", "1;1.5;ab", t, cfg);
    e2e_disconnect(dbc);
}

/* An Agile-encrypted .xlsb: without its password the connection fails with
** 28000 naming the encryption; with PWD= it reads (or, in a build without
** libcrypto, fails saying so). */
static void check_encrypted(SQLHENV env, const e2e_config *cfg, e2e_tally *t)
{
    const char *file = "xlsb/poi_protected_passtika.xlsb";
    e2e_buf path = {0}, conn = {0};
    e2e_buf_printf(&path, "%s/%s", cfg->corpus, file);
    e2e_connstr(&conn, cfg->driver, e2e_buf_str(&path), NULL);
    e2e_diag d;
    SQLHDBC dbc = e2e_connect(env, e2e_buf_str(&conn), false, &d);
    bool no_crypto = dbc == NULL && strstr(d.text, "built without OpenSSL's libcrypto") != NULL;
    if (dbc != NULL)
        e2e_fail(t, file, "opened without its password");
    else if (!no_crypto && (strcmp(d.state, "28000") != 0 || strstr(d.text, "Agile encryption") == NULL))
        e2e_fail(t, file, "without PWD: %s %s (want 28000 naming the encryption)", d.state, d.text);
    else
        e2e_pass(t, cfg, "encrypted .xlsb without PWD fails naming the encryption");
    e2e_disconnect(dbc);
    if (no_crypto) {
        e2e_pass(t, cfg, "this build has no libcrypto: encrypted .xlsb not decrypted");
    } else if ((dbc = connect_to(env, cfg, file, "HDR=No;PWD=tika", t)) != NULL) {
        check_query(dbc, file, "SELECT COUNT(*) FROM [Sheet1$]", "1", t, cfg);
        e2e_disconnect(dbc);
    }
    e2e_buf_free(&path);
    e2e_buf_free(&conn);
}

int e2e_cmd_workbook(const e2e_config *cfg)
{
    e2e_tally t = {0, 0};
    SQLHENV env = e2e_env_new();
    check_workbook(env, cfg, "xls/calamine_issues.xls", xls_tables, &t);
    check_workbook(env, cfg, "xlsb/calamine_issues.xlsb", xlsb_tables, &t);
    check_encrypted(env, cfg, &t);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    return e2e_summary(&t);
}
