/*
** sheet.c — the type scan of one worksheet at open: where its records are,
** its used range (DIMENSIONS is not trusted: the cells decide), the header
** row (HDR=Yes) and every column's type from all its cells (workbook.h).
**
** Cells normally come in row order; the first cell then sits in the first
** used row, so one walk can set the header row aside.  A sheet whose cells
** are out of order gets a row index (cells.c), through which it is walked
** again when its header row was not its first cell's, and scanned.
*/
#include <stdlib.h>
#include <string.h>

#include "../common/endian.h"
#include "xls_internal.h"

#define NO_ROW UINT32_MAX

typedef struct scan_state {
    lt_wb_stats *stats;      /* per absolute column */
    char **headers;          /* per absolute column (HDR=Yes) */
    uint32_t *header_len;
    uint32_t cap;            /* columns allocated */
    bool any;
    bool ordered;
    uint32_t first_seen, min_row, max_row, min_col, max_col;
} scan_state;

static void state_free(scan_state *st)
{
    if (st->headers != NULL)
        for (uint32_t c = 0; c < st->cap; c++)
            free(st->headers[c]);
    free(st->stats);
    free(st->headers);
    free(st->header_len);
    memset(st, 0, sizeof *st);
}

static int state_grow(scan_state *st, uint32_t col)
{
    if (col < st->cap)
        return 0;
    uint32_t cap = st->cap ? st->cap : 16;
    while (cap <= col)
        cap *= 2;
    lt_wb_stats *s = realloc(st->stats, cap * sizeof *s);
    if (s != NULL)
        st->stats = s;
    char **h = realloc(st->headers, cap * sizeof *h);
    if (h != NULL)
        st->headers = h;
    uint32_t *hl = realloc(st->header_len, cap * sizeof *hl);
    if (hl != NULL)
        st->header_len = hl;
    if (s == NULL || h == NULL || hl == NULL)
        return -1;
    memset(st->stats + st->cap, 0, (cap - st->cap) * sizeof *s);
    memset(st->headers + st->cap, 0, (cap - st->cap) * sizeof *h);
    memset(st->header_len + st->cap, 0, (cap - st->cap) * sizeof *hl);
    st->cap = cap;
    return 0;
}

static int keep_header(const xls_source *src, scan_state *st, const xls_cell *c)
{
    char buf[LT_WB_RENDER_MAX];
    const char *text;
    uint32_t len;
    free(st->headers[c->col]);
    st->headers[c->col] = NULL;
    if (!lt_wb_cell_text(&c->v, src->date1904, buf, &text, &len))
        return 0;
    char *copy = malloc((size_t)len + 1);
    if (copy == NULL)
        return -1;
    memcpy(copy, text, len);
    copy[len] = '\0';
    st->headers[c->col] = copy;
    st->header_len[c->col] = len;
    return 0;
}

/*
** One walk over the cells: the used range, and the stats of every cell not
** in the header row.  header_row == NO_ROW: the header row is the row of
** the first cell (right when the cells are in order).
*/
static int walk(xls_source *src, xls_sheet *sh, uint32_t header_row, scan_state *st,
                bool *dialog, lt_error *err)
{
    lt_arena scratch;
    lt_arena_init(&scratch);
    xls_cells it;
    xls_cells_start(&it, src, sh, &scratch);
    st->any = false;
    st->ordered = true;
    int rc = 0;
    uint32_t prev = 0;
    for (;;) {
        xls_cell c;
        lt_arena_reset(&scratch);
        int r = xls_cells_next(&it, &c, err);
        if (r <= 0) {
            rc = r;
            break;
        }
        if (state_grow(st, c.col) != 0) {
            rc = lt_error_set(err, "HY001", "out of memory");
            break;
        }
        if (!st->any) {
            st->any = true;
            st->first_seen = st->min_row = st->max_row = c.row;
            st->min_col = st->max_col = c.col;
            if (header_row == NO_ROW)
                header_row = c.row;
        }
        if (c.row < prev)
            st->ordered = false;
        prev = c.row;
        if (c.row < st->min_row)
            st->min_row = c.row;
        if (c.row > st->max_row)
            st->max_row = c.row;
        if (c.col < st->min_col)
            st->min_col = c.col;
        if (c.col > st->max_col)
            st->max_col = c.col;
        if (src->hdr && c.row == header_row) {
            if (keep_header(src, st, &c) != 0) {
                rc = lt_error_set(err, "HY001", "out of memory");
                break;
            }
        } else {
            lt_wb_stats_add(&st->stats[c.col], &c.v, src->date1904);
        }
    }
    *dialog = it.dialog;
    lt_arena_free(&scratch);
    return rc;
}

/* Second walk for TEXT columns holding numbers: their rendered lengths. */
static int size_numbers(xls_source *src, xls_sheet *sh, scan_state *st, lt_error *err)
{
    bool needed = false;
    for (uint32_t c = st->min_col; c <= st->max_col && !needed; c++)
        needed = lt_wb_stats_needs_size(&st->stats[c]);
    if (!needed)
        return 0;
    lt_arena scratch;
    lt_arena_init(&scratch);
    xls_cells it;
    xls_cells_start(&it, src, sh, &scratch);
    int r;
    for (;;) {
        xls_cell c;
        lt_arena_reset(&scratch);
        r = xls_cells_next(&it, &c, err);
        if (r <= 0)
            break;
        if (c.v.kind == LT_WB_NUMBER && !(src->hdr && c.row == sh->first_row) &&
            c.col < st->cap && st->stats[c.col].unsized > 0)
            lt_wb_stats_size(&st->stats[c.col], &c.v);
    }
    lt_arena_free(&scratch);
    return r;
}

static int build_table(xls_source *src, xls_sheet *sh, scan_state *st, lt_table *tab,
                       lt_error *err)
{
    uint32_t ncols = sh->ncols;
    size_t nlen = strlen(sh->name);
    tab->name = malloc(nlen + 2);
    tab->cols = calloc(ncols, sizeof *tab->cols);
    lt_bytes *heads = src->hdr && !sh->empty ? calloc(ncols, sizeof *heads) : NULL;
    char **names = calloc(ncols, sizeof *names);
    if (tab->name == NULL || tab->cols == NULL || names == NULL || (src->hdr && !sh->empty && heads == NULL))
        goto oom;
    memcpy(tab->name, sh->name, nlen);
    memcpy(tab->name + nlen, "$", 2);
    tab->kind = "TABLE";
    tab->ncols = ncols;
    for (uint32_t c = 0; heads != NULL && c < ncols; c++) {
        heads[c].ptr = st->headers[sh->first_col + c];
        heads[c].len = st->header_len[sh->first_col + c];
    }
    if (lt_wb_column_names(ncols, heads, names) != 0)
        goto oom;
    lt_wb_stats none = {0};
    for (uint32_t c = 0; c < ncols; c++) {
        tab->cols[c].name = names[c];
        lt_wb_describe_column(sh->empty ? &none : &st->stats[sh->first_col + c], &tab->cols[c]);
    }
    tab->row_estimate = sh->empty || sh->data_row > sh->last_row ? 0 : (int64_t)sh->last_row + 1 - sh->data_row;
    free(heads);
    free(names);
    return 0;
oom:
    free(heads);
    free(names);
    return lt_error_set(err, "HY001", "out of memory");
}

/* The sheet's BOF: where its records start and whether it is a worksheet. */
static int find_records(xls_source *src, xls_sheet *sh, lt_error *err)
{
    xls_record rec;
    int r = xls_record_at(src->wb.data, src->wb.len, sh->bof, &rec, src->label, err);
    if (r < 0)
        return -1;
    if (r == 0 || rec.type != XLS_BOF || rec.len < 4)
        return lt_error_set(err, "HY000", "'%s': sheet '%s' has no BOF record at offset %u",
                            src->label, sh->name, (unsigned)sh->bof);
    uint16_t dt = lt_le16(src->wb.data + rec.data + 2);
    /* 0x0020 chart, 0x0040 macro sheet, 0x0006 BIFF5 VB module */
    sh->worksheet = dt != 0x0020 && dt != 0x0040 && dt != 0x0006;
    sh->start = rec.next;
    return 0;
}

int xls_sheet_scan(xls_source *src, xls_sheet *sh, lt_table *tab, lt_error *err)
{
    sh->worksheet = sh->kind == 0;
    if (!sh->worksheet)
        return 0;
    if (find_records(src, sh, err) != 0)
        return -1;
    if (!sh->worksheet)
        return 0;
    scan_state st = {0};
    bool dialog = false;
    int rc = walk(src, sh, NO_ROW, &st, &dialog, err);
    if (rc == 0 && !st.ordered && !dialog) {
        /* From now on the sheet is walked in row order, through an index. */
        rc = xls_cells_index(src, sh, err);
        if (rc == 0 && src->hdr && st.min_row != st.first_seen) {
            /* The first cell was not in the first row: the header was wrong. */
            state_free(&st);
            rc = walk(src, sh, NO_ROW, &st, &dialog, err);
        }
    }
    if (rc != 0)
        goto done;
    if (dialog) {
        sh->worksheet = false;
        goto done;
    }
    sh->empty = !st.any;
    sh->first_row = st.any ? st.min_row : 0;
    sh->last_row = st.any ? st.max_row : 0;
    sh->first_col = st.any ? st.min_col : 0;
    sh->ncols = st.any ? st.max_col - st.min_col + 1 : 1;
    sh->data_row = sh->first_row + (src->hdr ? 1 : 0);
    if (st.any && (rc = size_numbers(src, sh, &st, err)) != 0)
        goto done;
    rc = build_table(src, sh, &st, tab, err);
done:
    state_free(&st);
    return rc;
}
