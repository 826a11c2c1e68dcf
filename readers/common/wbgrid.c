/*
** wbgrid.c — the sheet-level code the workbook readers share (wbgrid.h):
** the type scan's column grid, the table built from it, and the column map
** a scan stores cells through.  The readers keep only their cell walkers.
*/
#include <stdint.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "wbgrid.h"

/* ---- the type scan's grid --------------------------------------------------- */

void lt_wb_grid_free(lt_wb_grid *g)
{
    if (g->headers != NULL)
        for (uint32_t c = 0; c < g->cap; c++)
            free(g->headers[c]);
    free(g->stats);
    free(g->headers);
    free(g->header_len);
    memset(g, 0, sizeof *g);
}

int lt_wb_grid_grow(lt_wb_grid *g, uint32_t col)
{
    if (col < g->cap)
        return 0;
    uint32_t cap = g->cap ? g->cap : 16;
    while (cap <= col)
        cap *= 2;
    lt_wb_stats *s = realloc(g->stats, cap * sizeof *s);
    if (s != NULL)
        g->stats = s;
    char **h = realloc(g->headers, cap * sizeof *h);
    if (h != NULL)
        g->headers = h;
    uint32_t *hl = realloc(g->header_len, cap * sizeof *hl);
    if (hl != NULL)
        g->header_len = hl;
    if (s == NULL || h == NULL || hl == NULL)
        return -1;
    memset(g->stats + g->cap, 0, (cap - g->cap) * sizeof *s);
    memset(g->headers + g->cap, 0, (cap - g->cap) * sizeof *h);
    memset(g->header_len + g->cap, 0, (cap - g->cap) * sizeof *hl);
    g->cap = cap;
    return 0;
}

/* The header cell's text, copied: the cell's own text dies with the walk. */
static int keep_header(lt_wb_grid *g, uint32_t col, const lt_wb_cell *cell, bool date1904)
{
    char buf[LT_WB_RENDER_MAX];
    const char *text;
    uint32_t len;
    free(g->headers[col]);
    g->headers[col] = NULL;
    if (!lt_wb_cell_text(cell, date1904, buf, &text, &len))
        return 0;
    char *copy = malloc((size_t)len + 1);
    if (copy == NULL)
        return -1;
    memcpy(copy, text, len);
    copy[len] = '\0';
    g->headers[col] = copy;
    g->header_len[col] = len;
    return 0;
}

int lt_wb_grid_add(lt_wb_grid *g, uint32_t row, uint32_t col, const lt_wb_cell *cell,
                   uint32_t *header_row, bool hdr, bool date1904, lt_error *err)
{
    if (col >= g->cap && lt_wb_grid_grow(g, col) != 0)   /* every cell asks: no call */
        return lt_error_set(err, "HY001", "out of memory");
    if (!g->any) {
        g->any = true;
        g->first_seen = g->min_row = g->max_row = row;
        g->min_col = g->max_col = col;
        if (*header_row == LT_WB_NO_ROW)
            *header_row = row;
        uint64_t late = (uint64_t)*header_row + (hdr ? 1 : 0) + g->type_rows;
        g->late_from = g->type_rows == 0 || late > UINT32_MAX ? UINT32_MAX : (uint32_t)late;
    }
    if (row < g->min_row)
        g->min_row = row;
    if (row > g->max_row)
        g->max_row = row;
    if (col < g->min_col)
        g->min_col = col;
    if (col > g->max_col)
        g->max_col = col;
    if (hdr && row == *header_row) {
        if (keep_header(g, col, cell, date1904) != 0)
            return lt_error_set(err, "HY001", "out of memory");
    } else if (row >= g->late_from) {
        lt_wb_stats_late(&g->stats[col], cell);
    } else {
        lt_wb_stats_add(&g->stats[col], cell, date1904);
    }
    return 0;
}

const char *lt_wb_password(const lt_options *opts)
{
    const char *pwd = lt_options_get(opts, "PWD");
    if (pwd == NULL)
        pwd = lt_options_get(opts, "Password");
    return pwd != NULL && *pwd != '\0' ? pwd : NULL;
}

/* A keyword that takes a whole number: *out its value (at most `max`, a
** larger one counts as `max`), `dflt` when absent; anything else is
** 08001, as a malformed MemoryLimit is. */
static int whole_option(const lt_options *opts, const char *key, const char *unit,
                        unsigned long long max, unsigned long long dflt,
                        unsigned long long *out, lt_error *err)
{
    const char *v = lt_options_get(opts, key);
    *out = dflt;
    if (v == NULL)
        return 0;
    char *end;
    unsigned long long n = strtoull(v, &end, 10);
    if (end == v || *end != '\0' || !isdigit((unsigned char)v[0]))
        return lt_error_set(err, "08001", "%s=%s: expected a whole number of %s", key, v, unit);
    *out = n < max ? n : max;
    return 0;
}

int lt_wb_type_rows(const lt_options *opts, uint32_t *rows, lt_error *err)
{
    unsigned long long n;
    if (whole_option(opts, "TypeGuessRows", "rows (0: all)", UINT32_MAX, 0, &n, err) != 0)
        return -1;
    *rows = (uint32_t)n;
    return 0;
}

int lt_wb_cells_budget(const lt_options *opts, size_t *bytes, lt_error *err)
{
    unsigned long long mib;
    if (whole_option(opts, "CellCacheMB", "MiB (0: keep no cells)", SIZE_MAX >> 20,
                     LT_WB_CELLS_BUDGET >> 20, &mib, err) != 0)
        return -1;
    *bytes = mib >= (SIZE_MAX >> 20) ? SIZE_MAX : (size_t)mib << 20;
    return 0;
}

bool lt_wb_grid_needs_size(const lt_wb_grid *g)
{
    for (uint32_t c = g->min_col; g->any && c <= g->max_col && c < g->cap; c++)
        if (lt_wb_stats_needs_size(&g->stats[c]))
            return true;
    return false;
}

void lt_wb_grid_size(lt_wb_grid *g, uint32_t col, const lt_wb_cell *cell)
{
    if (cell->kind == LT_WB_NUMBER && col < g->cap && g->stats[col].unsized > 0)
        lt_wb_stats_size(&g->stats[col], cell);
}

char *lt_wb_table_name(const char *name, const char *suffix)
{
    size_t nlen = strlen(name), slen = strlen(suffix);
    char *s = malloc(nlen + slen + 1);
    if (s != NULL) {
        memcpy(s, name, nlen);
        memcpy(s + nlen, suffix, slen + 1);
    }
    return s;
}

int lt_wb_grid_extent(lt_wb_grid *g, const lt_wb_rect *rect, lt_wb_extent *out, lt_error *err)
{
    if (rect != NULL) {
        if (lt_wb_grid_grow(g, rect->c1) != 0)
            return lt_error_set(err, "HY001", "out of memory");
        out->first_row = rect->r0;
        out->last_row = g->any ? g->max_row : rect->r0;
        out->first_col = rect->c0;
        out->ncols = rect->c1 - rect->c0 + 1;
    } else {
        out->first_row = g->any ? g->min_row : 0;
        out->last_row = g->any ? g->max_row : 0;
        out->first_col = g->any ? g->min_col : 0;
        out->ncols = g->any ? g->max_col - g->min_col + 1 : 1;
    }
    return 0;
}

int lt_wb_grid_table(const lt_wb_grid *g, const lt_wb_range *r, lt_table *tab, lt_error *err)
{
    uint32_t ncols = r->ncols;
    tab->name = lt_wb_table_name(r->name, r->suffix);
    tab->cols = calloc(ncols, sizeof *tab->cols);
    bool heads_wanted = r->hdr && !r->empty;
    lt_bytes *heads = heads_wanted ? calloc(ncols, sizeof *heads) : NULL;
    char **names = calloc(ncols, sizeof *names);
    if (tab->name == NULL || tab->cols == NULL || names == NULL || (heads_wanted && heads == NULL))
        goto oom;
    tab->kind = "TABLE";
    tab->ncols = ncols;
    for (uint32_t c = 0; heads != NULL && c < ncols; c++) {
        heads[c].ptr = g->headers[r->first_col + c];
        heads[c].len = g->header_len[r->first_col + c];
    }
    if (lt_wb_column_names(ncols, heads, names) != 0)
        goto oom;
    lt_wb_stats none = {0};
    for (uint32_t c = 0; c < ncols; c++) {
        tab->cols[c].name = names[c];
        lt_wb_describe_column(r->empty ? &none : &g->stats[r->first_col + c], &tab->cols[c]);
    }
    tab->row_estimate = r->empty || r->data_row > r->last_row ? 0 : (int64_t)r->last_row + 1 - r->data_row;
    free(heads);
    free(names);
    return 0;
oom:
    free(heads);
    free(names);
    return lt_error_set(err, "HY001", "out of memory");
}

/* ---- ranges: tables made on demand -------------------------------------------- */

/* Column letters at s[*i..len): A = 0 .. XFD = 16383; false when none or
** too many. */
static bool range_col(const char *s, size_t len, size_t *i, uint32_t *col)
{
    uint32_t v = 0;
    size_t start = *i;
    while (*i < len && ((s[*i] >= 'A' && s[*i] <= 'Z') || (s[*i] >= 'a' && s[*i] <= 'z'))) {
        if (*i - start == 3)
            return false;
        v = v * 26 + (uint32_t)((s[*i] | 0x20) - 'a' + 1);
        (*i)++;
    }
    if (*i == start)
        return false;
    *col = v - 1;
    return true;
}

/* Row digits (1-based in the text, 0-based out); false when none, a
** leading zero or more than 7 digits.  *present says whether there were any. */
static bool range_row(const char *s, size_t len, size_t *i, uint32_t *row, bool *present)
{
    size_t start = *i;
    uint32_t v = 0;
    while (*i < len && s[*i] >= '0' && s[*i] <= '9') {
        if (*i - start == 7)
            return false;
        v = v * 10 + (uint32_t)(s[*i] - '0');
        (*i)++;
    }
    *present = *i > start;
    if (*present && (s[start] == '0' || v == 0))
        return false;
    *row = v - 1;
    return true;
}

int lt_wb_parse_range(const char *range, size_t len, uint32_t max_row, uint32_t max_col,
                      const char *table, size_t table_len, lt_wb_rect *out, lt_error *err)
{
    int tl = (int)(table_len < 300 ? table_len : 300), rl = (int)(len < 300 ? len : 300);
    size_t i = 0;
    bool row0, row1;
    uint32_t r0 = 0, r1 = 0, c0 = 0, c1 = 0;
    if (!range_col(range, len, &i, &c0) || !range_row(range, len, &i, &r0, &row0) || i >= len ||
        range[i++] != ':' || !range_col(range, len, &i, &c1) || !range_row(range, len, &i, &r1, &row1) ||
        i != len || (row1 && !row0))
        return lt_error_set(err, "42000", "table '%.*s': '%.*s' is not a cell range (write it as A1:D100, A2:D or A:D)",
                            tl, table, rl, range);
    if (!row0)
        r0 = 0;
    if (!row1)
        r1 = max_row;
    if (r0 > max_row || r1 > max_row || c0 > max_col || c1 > max_col)
        return lt_error_set(err, "HY000", "table '%.*s': the range '%.*s' lies outside the sheet (rows 1 to %u, columns A to %s)",
                            tl, table, rl, range, (unsigned)max_row + 1, max_col >= 16383 ? "XFD" : "IV");
    if (r0 > r1 || c0 > c1)
        return lt_error_set(err, "HY000", "table '%.*s': the range '%.*s' ends before it starts (write the top-left cell first)",
                            tl, table, rl, range);
    out->r0 = r0;
    out->r1 = r1;
    out->c0 = c0;
    out->c1 = c1;
    return 0;
}

void lt_wb_extra_init(lt_wb_extra *x)
{
    memset(x, 0, sizeof *x);
    lt_mutex_init(&x->lock);
}

void lt_wb_extra_destroy(lt_wb_extra *x)
{
    lt_mutex_destroy(&x->lock);
}

int lt_wb_extra_reserve(lt_source *base, lt_error *err)
{
    size_t cap = (size_t)base->ntables + LT_WB_EXTRA_TABLES;
    lt_table *t = realloc(base->tables, cap * sizeof *t);
    if (t == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    memset(t + base->ntables, 0, LT_WB_EXTRA_TABLES * sizeof *t);
    base->tables = t;
    return 0;
}

void lt_wb_tables_free(lt_source *base, const lt_wb_extra *x)
{
    uint32_t n = base->ntables + (x != NULL && base->tables != NULL ? x->n : 0);
    for (uint32_t i = 0; i < n; i++) {
        free((char *)base->tables[i].error);
        base->tables[i].error = NULL;
        lt_table_clear(&base->tables[i]);
    }
    free(base->tables);
    base->tables = NULL;
    base->ntables = 0;
}

/* Split "<sheet>$<range>" at its last '$': the sheet name without quotes
** around it ('My sheet'$A1:B2 or 'My sheet$A1:B2').  False when there is
** no '$' or nothing after it. */
static bool split_range(const char *name, size_t len, const char **sheet, size_t *sheet_len,
                        const char **range, size_t *range_len)
{
    bool quoted_all = len >= 2 && name[0] == '\'' && name[len - 1] == '\'';
    if (quoted_all) {
        name++;
        len -= 2;
    }
    size_t d = len;
    while (d > 0 && name[d - 1] != '$')
        d--;
    if (d == 0 || d == len)
        return false;
    *sheet = name;
    *sheet_len = d - 1;
    *range = name + d;
    *range_len = len - d;
    if (!quoted_all && *sheet_len >= 2 && name[0] == '\'' && name[*sheet_len - 1] == '\'') {
        (*sheet)++;
        *sheet_len -= 2;
    }
    return *sheet_len > 0;
}

int lt_wb_find_extra(lt_source *src, lt_wb_extra *x, const lt_wb_extra_ops *ops,
                     const char *name, size_t len, uint32_t *table, lt_error *err)
{
    const char *sheet, *range;
    size_t sheet_len, range_len;
    if (!split_range(name, len, &sheet, &sheet_len, &range, &range_len))
        return 0;
    int64_t si = ops->find_sheet(src, sheet, sheet_len);
    if (si < 0)
        return 0;
    lt_wb_rect r;
    if (lt_wb_parse_range(range, range_len, ops->max_row, ops->max_col, name, len, &r, err) != 0)
        return -1;
    int rc = 0;
    lt_mutex_lock(&x->lock);
    for (uint32_t i = 0; i < x->n; i++)
        if (x->sheet[i] == (uint32_t)si && memcmp(&x->rect[i], &r, sizeof r) == 0) {
            *table = src->ntables + i;
            rc = 1;
            break;
        }
    if (rc == 0 && x->n == LT_WB_EXTRA_TABLES) {
        rc = lt_error_set(err, "HY000", "'%.*s': this connection has opened %u different ranges of the workbook, "
                          "the most it serves; reconnect to read others", (int)(len < 300 ? len : 300), name,
                          (unsigned)LT_WB_EXTRA_TABLES);
    } else if (rc == 0) {
        char *copy = malloc(len + 1);
        uint32_t slot = src->ntables + x->n;
        if (copy == NULL) {
            rc = lt_error_set(err, "HY001", "out of memory");
        } else {
            memcpy(copy, name, len);
            copy[len] = '\0';
            if (ops->make(src, slot, (uint32_t)si, &r, copy, err) != 0) {
                free((char *)src->tables[slot].error);
                lt_table_clear(&src->tables[slot]);
                rc = -1;
            } else {
                x->sheet[x->n] = (uint32_t)si;
                x->rect[x->n] = r;
                x->n++;
                *table = slot;
                rc = 1;
            }
            free(copy);
        }
    }
    lt_mutex_unlock(&x->lock);
    return rc;
}

/* ---- listed tables typed on first use ------------------------------------------ */

int lt_wb_lazy_init(lt_wb_lazy *z, uint32_t ntables, lt_error *err)
{
    lt_mutex_init(&z->lock);
    z->done = calloc(ntables ? ntables : 1, 1);
    if (z->done == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    return 0;
}

void lt_wb_lazy_destroy(lt_wb_lazy *z)
{
    if (z->done != NULL) {
        lt_mutex_destroy(&z->lock);
        free(z->done);
        z->done = NULL;
    }
}

/* Move the scan's columns into the listed table, which keeps its name. */
static void adopt_columns(lt_table *t, lt_table *scanned)
{
    t->ncols = scanned->ncols;
    t->cols = scanned->cols;
    t->row_estimate = scanned->row_estimate;
    scanned->ncols = 0;
    scanned->cols = NULL;
    lt_table_clear(scanned);
}

int lt_wb_describe(lt_source *src, lt_wb_lazy *z, uint32_t table, lt_wb_scan_fn *scan, lt_error *err)
{
    if (z->done == NULL || table >= src->ntables)
        return 0;
    lt_table *t = &src->tables[table];
    int rc = 0;
    lt_mutex_lock(&z->lock);
    if (!z->done[table]) {
        lt_table scanned;
        memset(&scanned, 0, sizeof scanned);
        lt_error e;
        lt_error_clear(&e);
        if (scan(src, table, &scanned, &e) == 0) {
            adopt_columns(t, &scanned);
            z->done[table] = 1;
        } else {
            lt_table_clear(&scanned);
            /* Out of memory may pass; a broken sheet stays broken. */
            if (strcmp(e.sqlstate, "HY001") != 0 && (t->error = strdup(e.message)) != NULL)
                z->done[table] = 1;
            *err = e;
            rc = -1;
        }
    } else if (t->error != NULL) {
        rc = lt_error_set(err, "HY000", "%s", t->error);
    }
    lt_mutex_unlock(&z->lock);
    return rc;
}

/* ---- scans ------------------------------------------------------------------ */

/* lt_source_describe (readers/source.c), which the readers' own tests do
** not link: a scan or a count may come before any look-up by name. */
static int describe(const lt_source *base, uint32_t table, lt_error *err)
{
    return base->reader->describe != NULL ? base->reader->describe((lt_source *)base, table, err) : 0;
}

void lt_wb_columns_free(lt_wb_columns *m)
{
    free(m->first_of);
    free(m->next_of);
    memset(m, 0, sizeof *m);
}

int lt_wb_columns_open(lt_wb_columns *m, const lt_source *base, const char *label,
                       const lt_scan_spec *spec, lt_error *err)
{
    memset(m, 0, sizeof *m);
    /* Tables made on demand sit past ntables (lt_wb_find_extra). */
    if (spec->table >= base->ntables + LT_WB_EXTRA_TABLES || base->tables[spec->table].name == NULL)
        return lt_error_set(err, "HY000", "'%s': no table #%u", label, (unsigned)spec->table);
    if (describe(base, spec->table, err) != 0)
        return -1;
    const lt_table *tab = &base->tables[spec->table];
    if (tab->error != NULL)
        return lt_error_set(err, "HY000", "%s", tab->error);
    for (uint32_t i = 0; i < spec->npreds; i++)
        spec->preds[i].use = LT_PUSH_UNUSED;
    m->ncols = tab->ncols;
    m->first_of = malloc((tab->ncols + 1) * sizeof *m->first_of);
    m->next_of = malloc((spec->ncols + 1) * sizeof *m->next_of);
    if (m->first_of == NULL || m->next_of == NULL) {
        lt_wb_columns_free(m);
        return lt_error_set(err, "HY001", "out of memory");
    }
    for (uint32_t c = 0; c < tab->ncols; c++)
        m->first_of[c] = -1;
    /* Back to front, so each table column lists its batch columns in order. */
    for (uint32_t i = spec->ncols; i-- > 0;) {
        uint32_t c = spec->cols[i];
        if (c >= tab->ncols) {
            lt_wb_columns_free(m);
            return lt_error_set(err, "HY000", "'%s': table %s has no column #%u", label, tab->name,
                                (unsigned)c);
        }
        m->next_of[i] = m->first_of[c];
        m->first_of[c] = (int32_t)i;
    }
    return 0;
}

/* lt_wb_columns_store the long way: every batch column the cell feeds (a
** column can be selected twice), any value. */
static int store_each(const lt_wb_columns *m, lt_batch *batch, uint32_t col, uint32_t row,
                      const lt_wb_cell *cell, bool date1904, lt_error *err)
{
    for (int32_t b = m->first_of[col]; b >= 0; b = m->next_of[b])
        if (!lt_wb_store_plain(&batch->cols[b], row, cell) &&
            lt_wb_store(batch, (uint32_t)b, row, cell, date1904) != 0)
            return lt_error_set(err, "HY001", "out of memory");
    return 0;
}

int lt_wb_columns_store(const lt_wb_columns *m, lt_batch *batch, uint32_t col, uint32_t row,
                        const lt_wb_cell *cell, bool date1904, lt_error *err)
{
    /* The common case first, without a call (every cell of every scan
    ** comes here): one batch column, a plain value. */
    int32_t b = m->first_of[col];
    if (b >= 0 && m->next_of[b] < 0 && lt_wb_store_plain(&batch->cols[b], row, cell))
        return 0;
    return store_each(m, batch, col, row, cell, date1904, err);
}

uint32_t lt_wb_batch_rows(lt_batch *batch, uint32_t next_row, uint32_t last_row)
{
    uint32_t n = last_row + 1 - next_row;
    if (n > batch->capacity)
        n = batch->capacity;
    for (uint32_t b = 0; b < batch->ncols; b++)
        memset(batch->cols[b].nulls, 1, n);
    return n;
}

int64_t lt_wb_count_rows(lt_source *base, uint32_t table, lt_error *err)
{
    if (table >= base->ntables + LT_WB_EXTRA_TABLES || base->tables[table].name == NULL)
        return lt_error_set(err, "HY000", "no table #%u", (unsigned)table);
    if (describe(base, table, err) != 0)
        return -1;
    const lt_table *t = &base->tables[table];
    if (t->error != NULL)
        return lt_error_set(err, "HY000", "%s", t->error);
    return t->row_estimate;
}
