/*
** wbgrid.c — the sheet-level code the workbook readers share (wbgrid.h):
** the type scan's column grid, the table built from it, and the column map
** a scan stores cells through.  The readers keep only their cell walkers.
*/
#include <stdlib.h>
#include <string.h>

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
    if (lt_wb_grid_grow(g, col) != 0)
        return lt_error_set(err, "HY001", "out of memory");
    if (!g->any) {
        g->any = true;
        g->first_seen = g->min_row = g->max_row = row;
        g->min_col = g->max_col = col;
        if (*header_row == LT_WB_NO_ROW)
            *header_row = row;
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
    } else {
        lt_wb_stats_add(&g->stats[col], cell, date1904);
    }
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

/* ---- scans ------------------------------------------------------------------ */

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
    if (spec->table >= base->ntables)
        return lt_error_set(err, "HY000", "'%s': no table #%u", label, (unsigned)spec->table);
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

int lt_wb_columns_store(const lt_wb_columns *m, lt_batch *batch, uint32_t col, uint32_t row,
                        const lt_wb_cell *cell, bool date1904, lt_error *err)
{
    for (int32_t b = m->first_of[col]; b >= 0; b = m->next_of[b])
        if (lt_wb_store(batch, (uint32_t)b, row, cell, date1904) != 0)
            return lt_error_set(err, "HY001", "out of memory");
    return 0;
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
    if (table >= base->ntables)
        return lt_error_set(err, "HY000", "no table #%u", (unsigned)table);
    const lt_table *t = &base->tables[table];
    if (t->error != NULL)
        return lt_error_set(err, "HY000", "%s", t->error);
    return t->row_estimate;
}
