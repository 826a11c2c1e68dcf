/*
** e2e_corpus.c — every table of a corpus folder read through the driver
** manager and compared with its oracle CSV.
**
** Per table, five passes over `SELECT * FROM "<table>"`:
**   row mode    SQLDriverConnectW, SQLTables lists the table, SQLExecDirectW,
**               SQLDescribeColW names, SQLFetch + typed SQLGetData in 64-byte
**               pieces (e2e_get_cell), even rows last column first when the
**               driver claims SQL_GD_ANY_ORDER;
**   block mode  SQLDriverConnect (ANSI), SQLDescribeCol names, SQL_C_CHAR
**               bindings: column-wise with rowsets of 1, 7 and 64 rows, and
**               row-wise with 13-row rowsets and SQL_ATTR_ROW_BIND_OFFSET_PTR;
**               SQL_ATTR_ROWS_FETCHED_PTR and the row status array checked.
** Tables whose oracle failed must fail with an error naming the file.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

/* A value for a failure message: quoted, cut at 160 bytes. */
static void show(e2e_buf *out, bool null, const char *s, size_t len)
{
    if (null) {
        e2e_buf_adds(out, "NULL");
        return;
    }
    e2e_buf_adds(out, "\"");
    e2e_buf_add(out, s, len > 160 ? 160 : len);
    e2e_buf_adds(out, len > 160 ? "\"..." : "\"");
}

static void show_mismatch(e2e_buf *why, long row, const e2e_col *col,
                          bool gnull, const char *g, size_t glen,
                          const e2e_field *want)
{
    e2e_buf_printf(why, "row %ld column %s (%s, SQL type %d): got ", row,
                   col->name, e2e_kind_name(col->kind), (int)col->type);
    show(why, gnull, g, glen);
    e2e_buf_adds(why, ", oracle ");
    show(why, !want->quoted && want->len == 0, want->s, want->len);
}

static bool field_null(const e2e_field *f)
{
    return !f->quoted && f->len == 0;
}

/* Rows kept for a comparison in any order (EXPECT_ROWS_ANY_ORDER). */
typedef struct got_rows {
    bool on;
    int ncols;
    size_t nrows, cap;
    e2e_cell *cells;         /* nrows x ncols, texts owned */
} got_rows;

static e2e_cell *got_new_row(got_rows *g)
{
    if (g->nrows == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 64;
        g->cells = realloc(g->cells, g->cap * (size_t)g->ncols * sizeof *g->cells);
        if (g->cells == NULL) {
            fprintf(stderr, "e2e: out of memory\n");
            exit(2);
        }
    }
    e2e_cell *row = &g->cells[g->nrows++ * (size_t)g->ncols];
    memset(row, 0, (size_t)g->ncols * sizeof *row);
    return row;
}

static void got_keep(e2e_cell *slot, const e2e_cell *cell)
{
    *slot = *cell;
    slot->text = (e2e_buf){0};
    e2e_buf_add(&slot->text, cell->text.ptr ? cell->text.ptr : "", cell->text.len);
}

static void got_free(got_rows *g)
{
    for (size_t i = 0; i < g->nrows * (size_t)g->ncols; i++)
        e2e_buf_free(&g->cells[i].text);
    free(g->cells);
    g->cells = NULL;
    g->nrows = g->cap = 0;
}

/* Every kept row pairs with its own oracle row (greedy: rows that equal
** one oracle row equal each other). */
static int got_match(const got_rows *g, const e2e_col *cols, const e2e_table *csv,
                     bool raw_binary, e2e_buf *why)
{
    size_t n = csv->nrows - 1;
    if (g->nrows != n) {
        e2e_buf_printf(why, "%zu rows, oracle has %zu", g->nrows, n);
        return -1;
    }
    bool *used = calloc(n ? n : 1, sizeof *used);
    int rc = 0;
    for (size_t i = 0; i < g->nrows && rc == 0; i++) {
        const e2e_cell *row = &g->cells[i * (size_t)g->ncols];
        bool found = false;
        for (size_t j = 0; j < n && !found; j++) {
            const e2e_row *want = &csv->rows[j + 1];
            if (used[j] || want->n != (size_t)g->ncols)
                continue;
            found = true;
            for (int c = 0; c < g->ncols && found; c++)
                found = e2e_cell_match(cols[c].kind, &row[c], raw_binary,
                                       field_null(&want->f[c]), want->f[c].s,
                                       want->f[c].len);
            used[j] = found;
        }
        if (!found) {
            e2e_buf_printf(why, "row %zu (in any order) matches no oracle row: ", i + 1);
            for (int c = 0; c < g->ncols; c++) {
                e2e_buf_adds(why, c ? ", " : "");
                show(why, row[c].null, e2e_buf_str((e2e_buf *)&row[c].text),
                     row[c].text.len);
            }
            rc = -1;
        }
    }
    free(used);
    return rc;
}

static int check_names(const e2e_col *cols, int ncols, const e2e_table *csv,
                       const char *how, e2e_buf *why)
{
    const e2e_row *hdr = &csv->rows[0];
    if ((size_t)ncols != hdr->n) {
        e2e_buf_printf(why, "%s: %d columns, oracle has %zu", how, ncols, hdr->n);
        return -1;
    }
    for (int c = 0; c < ncols; c++)
        if (strcmp(cols[c].name, hdr->f[c].s) != 0) {
            e2e_buf_printf(why, "%s: column %d is named \"%s\", oracle \"%s\"",
                           how, c + 1, cols[c].name, hdr->f[c].s);
            return -1;
        }
    return 0;
}

static void stmt_diag(e2e_buf *why, SQLHSTMT st, const char *what)
{
    e2e_diag d;
    e2e_diag_get(SQL_HANDLE_STMT, st, &d);
    e2e_buf_printf(why, "%s: %s", what, d.text);
}

/* SQLTables(%): does the table appear? */
static int check_tables(SQLHDBC dbc, const char *table, e2e_buf *why)
{
    SQLHSTMT st;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    int rc = -1;
    if (!SQL_SUCCEEDED(SQLTables(st, NULL, 0, NULL, 0, (SQLCHAR *)"%", SQL_NTS,
                                 NULL, 0))) {
        stmt_diag(why, st, "SQLTables");
        goto done;
    }
    e2e_cell name = {0};
    e2e_buf listed = {0};
    for (;;) {
        SQLRETURN fr = SQLFetch(st);
        if (fr == SQL_NO_DATA)
            break;
        if (!SQL_SUCCEEDED(fr)) {
            stmt_diag(why, st, "SQLTables fetch");
            break;
        }
        if (e2e_get_cell(st, 3, K_TEXT, 64, &name, why))
            break;
        if (!name.null && strcmp(name.text.ptr, table) == 0)
            rc = 0;
        e2e_buf_printf(&listed, "%s\"%s\"", listed.len ? ", " : "",
                       name.null ? "NULL" : name.text.ptr);
    }
    if (rc && !why->len)
        e2e_buf_printf(why, "SQLTables does not list \"%s\" (lists: %s)", table,
                       listed.len ? listed.ptr : "nothing");
    e2e_buf_free(&name.text);
    e2e_buf_free(&listed);
done:
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return rc;
}

/* Row mode over an open connection.  *errtext receives the diagnostics of
** the first ODBC call that failed (for the error expectations).  When the
** driver claims SQL_GD_ANY_ORDER, even rows are read last column first. */
static int row_mode(SQLHDBC dbc, const char *table, const e2e_table *csv,
                    bool unordered, e2e_buf *why, e2e_buf *errtext, long *nrows)
{
    got_rows got = { .on = unordered && csv != NULL };
    e2e_cell *kept = NULL;
    SQLHSTMT st;
    e2e_buf sql = {0};
    e2e_col *cols = NULL;
    e2e_cell cell = {0};
    int rc = -1;
    long row = 0;
    SQLUINTEGER gd = 0;
    SQLGetInfo(dbc, SQL_GETDATA_EXTENSIONS, &gd, sizeof gd, NULL);
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    e2e_select_all(&sql, table);
    if (!SQL_SUCCEEDED(e2e_exec(st, sql.ptr, true))) {
        stmt_diag(errtext, st, "SQLExecDirectW");
        goto done;
    }
    e2e_diag d;
    int ncols = e2e_describe(st, true, &cols, &d);
    if (ncols < 0) {
        e2e_buf_printf(errtext, "SQLDescribeColW: %s", d.text);
        goto done;
    }
    if (csv && check_names(cols, ncols, csv, "SQLDescribeColW", why))
        goto done;
    got.ncols = ncols;
    for (;;) {
        SQLRETURN fr = SQLFetch(st);
        if (fr == SQL_NO_DATA)
            break;
        if (!SQL_SUCCEEDED(fr)) {
            stmt_diag(errtext, st, "SQLFetch");
            goto done;
        }
        row++;
        if (csv && (size_t)row >= csv->nrows) {
            e2e_buf_printf(why, "more rows than the oracle's %zu", csv->nrows - 1);
            goto done;
        }
        bool backwards = (gd & SQL_GD_ANY_ORDER) && row % 2 == 0;
        if (got.on)
            kept = got_new_row(&got);
        for (int k = 0; k < ncols; k++) {
            int c = backwards ? ncols - 1 - k : k;
            e2e_buf getwhy = {0};
            if (e2e_get_cell(st, (SQLUSMALLINT)(c + 1), cols[c].kind, e2e_piece, &cell,
                             &getwhy)) {
                e2e_buf_printf(errtext, "row %ld column %s%s: %s", row,
                               cols[c].name, backwards ? " (columns read last "
                               "first: SQL_GD_ANY_ORDER)" : "",
                               e2e_buf_str(&getwhy));
                e2e_buf_free(&getwhy);
                goto done;
            }
            e2e_buf_free(&getwhy);
            if (got.on)
                got_keep(&kept[c], &cell);
            if (!csv || got.on)
                continue;
            const e2e_row *want = &csv->rows[row];
            if ((size_t)c >= want->n) {
                e2e_buf_printf(why, "oracle row %ld has only %zu fields", row,
                               want->n);
                goto done;
            }
            const e2e_field *w = &want->f[c];
            if (!e2e_cell_match(cols[c].kind, &cell, true, field_null(w), w->s,
                                w->len)) {
                show_mismatch(why, row, &cols[c], cell.null, cell.text.ptr,
                              cell.text.len, w);
                goto done;
            }
        }
    }
    if (csv && (size_t)row != csv->nrows - 1) {
        e2e_buf_printf(why, "%ld rows, oracle has %zu", row, csv->nrows - 1);
        goto done;
    }
    if (got.on && got_match(&got, cols, csv, true, why))
        goto done;
    rc = 0;
done:
    got_free(&got);
    if (nrows)
        *nrows = row;
    e2e_buf_free(&cell.text);
    e2e_buf_free(&sql);
    free(cols);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return rc;
}

/* The widest oracle field of each column, plus room for the driver's own
** rendering (more digits of a double, a longer timestamp fraction). */
static SQLLEN block_width(const e2e_table *csv, int c)
{
    size_t w = 0;
    for (size_t r = 1; r < csv->nrows; r++)
        if ((size_t)c < csv->rows[r].n && csv->rows[r].f[c].len > w)
            w = csv->rows[r].f[c].len;
    return (SQLLEN)(w + 96);
}

/*
** The buffers of one block pass: SQL_C_CHAR for every column, `array` rows.
** Column-wise: one array per column.  Row-wise: one struct-like row of
** `rowsize` bytes per row, bound at the start of `mem` while
** SQL_ATTR_ROW_BIND_OFFSET_PTR moves every address by `offset` into the
** second half, so the first half must stay untouched.
*/
typedef struct block {
    SQLULEN array;
    bool rowwise;
    int ncols;
    SQLLEN *width;
    char **data;           /* column-wise */
    SQLLEN **ind;
    unsigned char *mem;    /* row-wise */
    size_t rowsize, *doff, *ioff;
    SQLLEN offset;
} block;

#define UNTOUCHED 0x5A

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "e2e: out of memory\n");
        exit(2);
    }
    return p;
}

static size_t align8(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

static int block_bind(SQLHSTMT st, block *b, const e2e_table *csv, e2e_buf *why)
{
    int n = b->ncols;
    b->width = xcalloc((size_t)n, sizeof *b->width);
    for (int c = 0; c < n; c++)
        b->width[c] = block_width(csv, c);
    if (!b->rowwise) {
        b->data = xcalloc((size_t)n, sizeof *b->data);
        b->ind = xcalloc((size_t)n, sizeof *b->ind);
        for (int c = 0; c < n; c++) {
            b->data[c] = xcalloc(b->array, (size_t)b->width[c]);
            b->ind[c] = xcalloc(b->array, sizeof(SQLLEN));
            if (!SQL_SUCCEEDED(SQLBindCol(st, (SQLUSMALLINT)(c + 1), SQL_C_CHAR,
                                          b->data[c], b->width[c], b->ind[c]))) {
                stmt_diag(why, st, "SQLBindCol");
                return -1;
            }
        }
        return 0;
    }
    b->doff = xcalloc((size_t)n, sizeof *b->doff);
    b->ioff = xcalloc((size_t)n, sizeof *b->ioff);
    for (int c = 0; c < n; c++) {
        b->ioff[c] = b->rowsize;
        b->doff[c] = b->rowsize + sizeof(SQLLEN);
        b->rowsize = align8(b->doff[c] + (size_t)b->width[c]);
    }
    b->offset = (SQLLEN)(b->array * b->rowsize);
    b->mem = xcalloc(2 * b->array, b->rowsize);
    memset(b->mem, UNTOUCHED, 2 * b->array * b->rowsize);
    if (!SQL_SUCCEEDED(SQLSetStmtAttr(st, SQL_ATTR_ROW_BIND_TYPE,
                                      (SQLPOINTER)(uintptr_t)b->rowsize, 0)) ||
        !SQL_SUCCEEDED(SQLSetStmtAttr(st, SQL_ATTR_ROW_BIND_OFFSET_PTR,
                                      &b->offset, 0))) {
        stmt_diag(why, st, "SQLSetStmtAttr (row-wise binding)");
        return -1;
    }
    for (int c = 0; c < n; c++)
        if (!SQL_SUCCEEDED(SQLBindCol(st, (SQLUSMALLINT)(c + 1), SQL_C_CHAR,
                                      b->mem + b->doff[c], b->width[c],
                                      (SQLLEN *)(void *)(b->mem + b->ioff[c])))) {
            stmt_diag(why, st, "SQLBindCol (row-wise)");
            return -1;
        }
    return 0;
}

/* Where row i of column c landed. */
static void block_cell(const block *b, int c, SQLULEN i, const char **s,
                       SQLLEN *n)
{
    if (!b->rowwise) {
        *s = b->data[c] + i * (size_t)b->width[c];
        *n = b->ind[c][i];
        return;
    }
    const unsigned char *row = b->mem + b->offset + i * b->rowsize;
    *s = (const char *)row + b->doff[c];
    memcpy(n, row + b->ioff[c], sizeof *n);
}

/* The bytes the bind offset should have kept the driver away from. */
static bool block_first_half_clean(const block *b)
{
    for (SQLLEN i = 0; b->rowwise && i < b->offset; i++)
        if (b->mem[i] != UNTOUCHED)
            return false;
    return true;
}

static void block_free(block *b)
{
    for (int c = 0; c < b->ncols && b->data; c++)
        free(b->data[c]);
    for (int c = 0; c < b->ncols && b->ind; c++)
        free(b->ind[c]);
    free(b->data);
    free(b->ind);
    free(b->width);
    free(b->mem);
    free(b->doff);
    free(b->ioff);
}

/* SQL_ATTR_ROWS_FETCHED_PTR and the row status array after a successful
** fetch. */
static int check_rowset(const SQLUSMALLINT *status, SQLULEN fetched,
                        SQLULEN array, bool *short_seen, e2e_buf *why)
{
    if (fetched == (SQLULEN)-7 || fetched == 0 || fetched > array) {
        e2e_buf_printf(why, "SQL_ATTR_ROWS_FETCHED_PTR holds %lu after a "
                       "successful fetch of a %lu-row rowset",
                       (unsigned long)fetched, (unsigned long)array);
        return -1;
    }
    if (*short_seen) {
        e2e_buf_printf(why, "a rowset of %lu rows followed a short one",
                       (unsigned long)fetched);
        return -1;
    }
    *short_seen = fetched < array;
    for (SQLULEN i = 0; i < array; i++) {
        bool ok = i < fetched ? status[i] == SQL_ROW_SUCCESS ||
                                    status[i] == SQL_ROW_SUCCESS_WITH_INFO
                              : status[i] == SQL_ROW_NOROW;
        if (!ok) {
            e2e_buf_printf(why, "row status[%lu] = %u with %lu rows fetched",
                           (unsigned long)i, (unsigned)status[i],
                           (unsigned long)fetched);
            return -1;
        }
    }
    return 0;
}

/* Compare the `fetched` rows of a rowset; *row counts rows seen so far. */
static int check_rows(const block *b, const e2e_col *cols, SQLULEN fetched,
                      const e2e_table *csv, long *row, e2e_buf *got,
                      got_rows *kept, e2e_buf *why)
{
    for (SQLULEN i = 0; i < fetched; i++) {
        ++*row;
        if ((size_t)*row >= csv->nrows) {
            e2e_buf_printf(why, "more rows than the oracle's %zu", csv->nrows - 1);
            return -1;
        }
        for (int c = 0; c < b->ncols; c++) {
            const char *s;
            SQLLEN n;
            block_cell(b, c, i, &s, &n);
            bool null = n == SQL_NULL_DATA;
            if (!null && (n < 0 || n >= b->width[c] || s[n] != '\0')) {
                e2e_buf_printf(why, "row %ld column %s: length %ld in a %ld-byte "
                               "buffer (or no NUL)", *row, cols[c].name, (long)n,
                               (long)b->width[c]);
                return -1;
            }
            const e2e_row *want = &csv->rows[*row];
            const e2e_field *w = (size_t)c < want->n ? &want->f[c] : NULL;
            /* Under dynamic typing a binary column's characters are hex
            ** only for a blob; anything else arrives as its own text. */
            bool plain = e2e_dynamic && cols[c].kind == K_BINARY && w &&
                         !(w->len >= 2 && w->s[0] == '\\' && w->s[1] == 'x');
            e2e_buf_clear(got);
            if (!null && plain)
                e2e_buf_add(got, s, (size_t)n);
            else if (!null)
                e2e_render_char(cols[c].kind, s, (size_t)n, got);
            e2e_cell cell = { .null = null, .text = *got, .as_text = plain };
            if (kept->on) {
                if (c == 0)
                    got_new_row(kept);
                got_keep(&kept->cells[(kept->nrows - 1) * (size_t)kept->ncols + (size_t)c],
                         &cell);
                continue;
            }
            if (!w || !e2e_cell_match(cols[c].kind, &cell, false, field_null(w),
                                      w->s, w->len)) {
                if (w)
                    show_mismatch(why, *row, &cols[c], null, got->ptr, got->len, w);
                else
                    e2e_buf_printf(why, "oracle row %ld is short", *row);
                return -1;
            }
        }
    }
    return 0;
}

/* Block mode: a fresh statement, SQL_C_CHAR bindings (column-wise, or
** row-wise with a bind offset), rowsets of `array` rows. */
static int block_mode(SQLHDBC dbc, const char *table, const e2e_table *csv,
                      SQLULEN array, bool rowwise, bool unordered, e2e_buf *why)
{
    got_rows kept = { .on = unordered };
    SQLHSTMT st;
    e2e_buf sql = {0}, got = {0};
    e2e_col *cols = NULL;
    block b = { .array = array, .rowwise = rowwise };
    SQLUSMALLINT *status = xcalloc(array, sizeof *status);
    SQLULEN fetched = 0;
    int rc = -1;
    long row = 0;
    bool short_seen = false;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    if (!SQL_SUCCEEDED(SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE,
                                      (SQLPOINTER)(uintptr_t)array, 0)) ||
        !SQL_SUCCEEDED(SQLSetStmtAttr(st, SQL_ATTR_ROW_STATUS_PTR, status, 0)) ||
        !SQL_SUCCEEDED(SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0))) {
        stmt_diag(why, st, "SQLSetStmtAttr (block cursor)");
        goto done;
    }
    e2e_select_all(&sql, table);
    if (!SQL_SUCCEEDED(e2e_exec(st, sql.ptr, false))) {
        stmt_diag(why, st, "SQLExecDirect");
        goto done;
    }
    e2e_diag d;
    b.ncols = e2e_describe(st, false, &cols, &d);
    if (b.ncols < 0) {
        e2e_buf_printf(why, "SQLDescribeCol: %s", d.text);
        b.ncols = 0;
        goto done;
    }
    if (!E2E_ANSI_NAMES_EXACT) {
        e2e_col *wcols = NULL;
        if (e2e_describe(st, true, &wcols, &d) == b.ncols)
            for (int c = 0; c < b.ncols; c++)
                memcpy(cols[c].name, wcols[c].name, sizeof cols[c].name);
        free(wcols);
    }
    if (check_names(cols, b.ncols, csv, E2E_ANSI_NAMES_EXACT ? "SQLDescribeCol (ANSI)"
                                                             : "SQLDescribeColW", why) ||
        block_bind(st, &b, csv, why))
        goto done;
    kept.ncols = b.ncols;
    for (;;) {
        for (SQLULEN i = 0; i < array; i++)
            status[i] = 0xEEEE;
        fetched = (SQLULEN)-7;
        bool scroll = array == 7 || rowwise;
        SQLRETURN fr = scroll ? SQLFetchScroll(st, SQL_FETCH_NEXT, 0) : SQLFetch(st);
        if (fr == SQL_NO_DATA)
            break;
        if (!SQL_SUCCEEDED(fr)) {
            stmt_diag(why, st, scroll ? "SQLFetchScroll" : "SQLFetch");
            goto done;
        }
        if (fr == SQL_SUCCESS_WITH_INFO && e2e_diag_has(SQL_HANDLE_STMT, st, "01004")) {
            e2e_buf_printf(why, "rowset after row %ld: 01004 truncation into "
                           "buffers wider than the oracle's values", row);
            goto done;
        }
        if (check_rowset(status, fetched, array, &short_seen, why) ||
            check_rows(&b, cols, fetched, csv, &row, &got, &kept, why))
            goto done;
    }
    if (kept.on && got_match(&kept, cols, csv, false, why))
        goto done;
    if ((size_t)row != csv->nrows - 1) {
        e2e_buf_printf(why, "%ld rows, oracle has %zu", row, csv->nrows - 1);
        goto done;
    }
    if (!block_first_half_clean(&b)) {
        e2e_buf_printf(why, "the driver wrote below SQL_ATTR_ROW_BIND_OFFSET_PTR's "
                       "offset (into the bound addresses themselves)");
        goto done;
    }
    rc = 0;
done:
    got_free(&kept);
    SQLFreeStmt(st, SQL_UNBIND);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    block_free(&b);
    free(status);
    free(cols);
    e2e_buf_free(&sql);
    e2e_buf_free(&got);
    return rc;
}

/* Did the failure name the file? */
static bool names_file(const char *text, const char *path)
{
    return strstr(text, e2e_basename(path)) != NULL;
}

/* A table the oracle could not read: connecting or querying must fail with
** an error naming the file.  Returns 0 when it did. */
static int expect_error(SQLHENV env, const e2e_config *cfg, const e2e_case *c,
                        e2e_buf *why)
{
    e2e_buf cs = {0}, errtext = {0};
    e2e_diag d;
    int rc = -1;
    e2e_connstr(&cs, cfg->driver, c->path, c->connect);
    SQLHDBC dbc = e2e_connect(env, cs.ptr, true, &d);
    if (!dbc) {
        e2e_buf_adds(&errtext, d.text);
    } else {
        long rows = 0;
        e2e_buf ignored = {0};
        row_mode(dbc, c->table, NULL, false, &ignored, &errtext, &rows);
        e2e_buf_free(&ignored);
        e2e_disconnect(dbc);
        if (!errtext.len) {
            e2e_buf_printf(why, "the oracle could not read it, but the driver "
                           "returned %ld rows without an error", rows);
            goto done;
        }
    }
    if (!names_file(errtext.ptr, c->path)) {
        e2e_buf_printf(why, "the error does not name the file (%s): %s",
                       e2e_basename(c->path), errtext.ptr);
        goto done;
    }
    rc = 0;
done:
    e2e_buf_free(&cs);
    e2e_buf_free(&errtext);
    return rc;
}

/* The readable case: row mode, then the three block modes. */
static int expect_rows(SQLHENV env, const e2e_config *cfg, const e2e_case *c,
                       e2e_buf *why, bool *errored)
{
    e2e_table csv = {0};
    e2e_buf cs = {0}, errtext = {0};
    e2e_diag d;
    int rc = -1;
    *errored = false;
    if (e2e_csv_load(c->csv, &csv) || csv.nrows < 1) {
        e2e_buf_printf(why, "cannot read the oracle %s", c->csv);
        goto done;
    }
    e2e_connstr(&cs, cfg->driver, c->path, c->connect);
    SQLHDBC dbc = e2e_connect(env, cs.ptr, true, &d);
    if (!dbc) {
        *errored = names_file(d.text, c->path);
        e2e_buf_printf(why, "SQLDriverConnectW(%s): %s", cs.ptr, d.text);
        goto done;
    }
    bool unordered = c->expect == EXPECT_ROWS_ANY_ORDER;
    if (check_tables(dbc, c->table, why) == 0 &&
        row_mode(dbc, c->table, &csv, unordered, why, &errtext, NULL) != 0 && errtext.len) {
        *errored = names_file(errtext.ptr, c->path);
        e2e_buf_printf(why, "row mode: %s", errtext.ptr);
    }
    e2e_disconnect(dbc);
    if (why->len)
        goto done;

    dbc = e2e_connect(env, cs.ptr, false, &d);
    if (!dbc) {
        e2e_buf_printf(why, "SQLDriverConnect (ANSI): %s", d.text);
        goto done;
    }
    static const struct { SQLULEN rows; bool rowwise; } passes[] = {
        { 1, false }, { 7, false }, { 64, false }, { 13, true },
    };
    for (size_t i = 0; i < sizeof passes / sizeof passes[0]; i++) {
        e2e_buf bwhy = {0};
        if (block_mode(dbc, c->table, &csv, passes[i].rows, passes[i].rowwise,
                       unordered, &bwhy)) {
            e2e_buf_printf(why, "block mode, %lu-row rowsets%s: %s",
                           (unsigned long)passes[i].rows, passes[i].rowwise ?
                           ", row-wise with a bind offset" : "",
                           e2e_buf_str(&bwhy));
            e2e_buf_free(&bwhy);
            break;
        }
        e2e_buf_free(&bwhy);
    }
    e2e_disconnect(dbc);
    rc = why->len ? -1 : 0;
done:
    e2e_table_free(&csv);
    e2e_buf_free(&cs);
    e2e_buf_free(&errtext);
    return rc;
}

/* The same table through a DSN and SQLConnect. */
static int via_dsn(SQLHENV env, const e2e_config *cfg, const e2e_case *c,
                   e2e_buf *why)
{
    e2e_table csv = {0};
    e2e_buf errtext = {0};
    e2e_diag d;
    int rc = -1;
    if (e2e_csv_load(c->csv, &csv) || csv.nrows < 1) {
        e2e_buf_printf(why, "cannot read the oracle %s", c->csv);
        goto done;
    }
    SQLHDBC dbc = e2e_connect_dsn(env, cfg->dsn, &d);
    if (!dbc) {
        e2e_buf_printf(why, "SQLConnect(%s): %s", cfg->dsn, d.text);
        goto done;
    }
    if (check_tables(dbc, c->table, why) == 0 &&
        row_mode(dbc, c->table, &csv, c->expect == EXPECT_ROWS_ANY_ORDER, why, &errtext,
                 NULL) != 0 && errtext.len)
        e2e_buf_printf(why, "%s", errtext.ptr);
    e2e_disconnect(dbc);
    rc = why->len ? -1 : 0;
done:
    e2e_table_free(&csv);
    e2e_buf_free(&errtext);
    return rc;
}

int e2e_cmd_corpus(const e2e_config *cfg)
{
    e2e_case *cases = NULL;
    e2e_tally t = {0};
    int n = e2e_cases_load(cfg->corpus, cfg->format, &cases);
    if (n < 0)
        return 2;
    e2e_dynamic = strcmp(cfg->format, "sqlite") == 0;
    SQLHENV env = e2e_env_new();
    bool dsn_done = false;
    for (int i = 0; i < n; i++) {
        const e2e_case *c = &cases[i];
        e2e_buf why = {0};
        char what[600];
        snprintf(what, sizeof what, "%s/%s [%s]", cfg->format, c->file, c->table);
        int rc;
        if (c->expect == EXPECT_ERROR) {
            rc = expect_error(env, cfg, c, &why);
        } else {
            bool errored = false;
            rc = expect_rows(env, cfg, c, &why, &errored);
            if (rc && errored && c->expect == EXPECT_ROWS_OR_ERROR)
                rc = 0;   /* a clear error is also right here */
            if (c->expect == EXPECT_KNOWN_FAILURE) {
                if (rc == 0)
                    e2e_buf_printf(&why, "listed as a known failure in tests/corpus/OVERRIDES.tsv but matches the oracle now: remove the row");
                rc = !rc;
            }
        }
        if (rc)
            e2e_fail(&t, what, "%s", e2e_buf_str(&why));
        else
            e2e_pass(&t, cfg, what);
        e2e_buf_free(&why);

        if (cfg->dsn && cfg->dsn_file && strcmp(cfg->dsn_file, c->file) == 0 &&
            c->csv) {
            snprintf(what, sizeof what, "DSN %s (%s/%s)", cfg->dsn, cfg->format,
                     c->file);
            e2e_buf dwhy = {0};
            if (via_dsn(env, cfg, c, &dwhy))
                e2e_fail(&t, what, "%s", e2e_buf_str(&dwhy));
            else
                e2e_pass(&t, cfg, what);
            e2e_buf_free(&dwhy);
            dsn_done = true;
        }
    }
    if (cfg->dsn && cfg->dsn_file && !dsn_done)
        e2e_fail(&t, "DSN", "%s is not a readable table of %s/MANIFEST.tsv",
                 cfg->dsn_file, cfg->format);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    e2e_cases_free(cases, n);
    return e2e_summary(&t);
}
