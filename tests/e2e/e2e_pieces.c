/*
** e2e_pieces.c — long text arrives intact in SQLGetData pieces of every
** size, whatever characters straddle the piece boundaries.
**
** The ODBC reference ("Character Data and C Strings") says a driver that
** truncates character data fills the buffer to its byte length less the
** terminator, and clients rely on it: pyodbc, like the reference's own
** long-data example, takes every truncated piece as BufferLength minus the
** terminator.  So a piece may end inside a UTF-8 sequence (SQL_C_CHAR) or
** between the halves of a UTF-16 surrogate pair (SQL_C_WCHAR with 2-byte
** SQLWCHAR); a driver that stops short corrupts the text such clients read.
** Each text is selected as a literal (`SELECT '...'`) and read back with
** every piece size from the smallest up to past its length.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

static const char *const texts[] = {
    /* 1-, 2-, 3- and 4-byte UTF-8; the 4-byte ones are surrogate pairs in
    ** UTF-16.  (Parentheses: one element per concatenation.) */
    ("abc\xC3\xA9\xE2\x82\xAC\xF0\x9D\x84\x9E"
     "defgh\xF0\x9F\x98\x80\xF0\x9F\x98\x80ij\xC3\xA9\xC3\xA9\xE2\x82\xAC"
     "klmnopq\xF0\x9D\x84\x9E\xE2\x82\xAC\xC3\xA9rstuvwxyz"),
    /* Only supplementary characters: every boundary splits or ends a pair. */
    ("\xF0\x9F\x98\x80\xF0\x9F\x98\x81\xF0\x9F\x98\x82\xF0\x9F\x98\x83"
     "\xF0\x9F\x98\x84\xF0\x9F\x98\x85\xF0\x9F\x98\x86\xF0\x9F\x98\x87"
     "\xF0\x9F\x98\x88\xF0\x9F\x98\x89\xF0\x9F\x98\x8A\xF0\x9F\x98\x8B"),
    /* Only 3-byte characters. */
    ("\xE2\x82\xAC\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E\xE2\x82\xAC\xE6\x97\xA5"
     "\xE6\x9C\xAC\xE8\xAA\x9E\xE2\x82\xAC\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E"),
};

/* One text, one C type, one piece size.  Returns 0 when intact. */
static int read_back(SQLHDBC dbc, const char *text, e2e_kind kind, size_t piece,
                     e2e_buf *why)
{
    SQLHSTMT st;
    e2e_buf sql = {0};
    e2e_cell cell = {0};
    int rc = -1;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    e2e_buf_printf(&sql, "SELECT '%s'", text);
    if (!SQL_SUCCEEDED(e2e_exec(st, sql.ptr, true))) {
        e2e_diag d;
        e2e_diag_get(SQL_HANDLE_STMT, st, &d);
        e2e_buf_printf(why, "SELECT '<text>': %s", d.text);
        goto done;
    }
    if (!SQL_SUCCEEDED(SQLFetch(st))) {
        e2e_buf_printf(why, "SQLFetch failed");
        goto done;
    }
    if (e2e_get_cell(st, 1, kind, piece, &cell, why))
        goto done;
    if (cell.null || cell.text.len != strlen(text) ||
        memcmp(cell.text.ptr, text, cell.text.len) != 0) {
        e2e_buf_printf(why, "read back as \"%s\" (%zu bytes), sent %zu bytes",
                       cell.null ? "NULL" : e2e_buf_str(&cell.text),
                       cell.text.len, strlen(text));
        goto done;
    }
    rc = 0;
done:
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    e2e_buf_free(&sql);
    e2e_buf_free(&cell.text);
    return rc;
}

/* Every piece size for one text and C type: one check. */
static void sweep(SQLHDBC dbc, const e2e_config *cfg, size_t t, e2e_kind kind,
                  e2e_tally *tally)
{
    const char *text = texts[t];
    bool wide = kind == K_TEXT;
    size_t unit = wide ? sizeof(SQLWCHAR) : 1;
    size_t longest = (strlen(text) + 2) * unit;   /* past the whole value */
    char what[128];
    snprintf(what, sizeof what, "text %zu as %s in pieces of %zu..%zu bytes", t + 1,
             wide ? "SQL_C_WCHAR" : "SQL_C_CHAR", 2 * unit, longest);
    for (size_t piece = 2 * unit; piece <= longest; piece += unit) {
        e2e_buf why = {0};
        if (read_back(dbc, text, kind, piece, &why)) {
            e2e_fail(tally, what, "%zu-byte pieces: %s", piece, e2e_buf_str(&why));
            e2e_buf_free(&why);
            return;
        }
        e2e_buf_free(&why);
    }
    e2e_pass(tally, cfg, what);
}

int e2e_cmd_pieces(const e2e_config *cfg)
{
    e2e_tally t = {0};
    SQLHENV env = e2e_env_new();
    e2e_buf path = {0}, cs = {0};
    e2e_buf_printf(&path, "%s/dbf/real/GeospatialPython-pyshp/edit.dbf", cfg->corpus);
    e2e_connstr(&cs, cfg->driver, path.ptr, NULL);
    e2e_diag d;
    SQLHDBC dbc = e2e_connect(env, cs.ptr, true, &d);
    if (!dbc) {
        e2e_fail(&t, "connect", "%s: %s", cs.ptr, d.text);
    } else {
        for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
            sweep(dbc, cfg, i, K_TEXT, &t);
            sweep(dbc, cfg, i, K_OTHER, &t);
        }
        e2e_disconnect(dbc);
    }
    e2e_buf_free(&path);
    e2e_buf_free(&cs);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    return e2e_summary(&t);
}
