/*
** sheet.c — the type scan of one worksheet (on its first use): where its records are,
** its used range (DIMENSIONS is not trusted: the cells decide), the header
** row (HDR=Yes) and every column's type from all its cells (wbgrid.h).
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

/*
** One walk over the cells into the grid (wbgrid.h); *ordered tells whether
** their rows never went back.  The header row is the row of the first cell
** (right when the cells are in order).
*/
static int walk(xls_source *src, xls_sheet *sh, lt_wb_grid *g, bool *ordered, bool *dialog,
                lt_error *err)
{
    lt_arena scratch;
    lt_arena_init(&scratch);
    xls_cells it;
    xls_cells_start(&it, src, sh, &scratch);
    *ordered = true;
    int rc = 0;
    uint32_t prev = 0, header_row = sh->is_rect ? sh->r0 : LT_WB_NO_ROW;
    for (;;) {
        xls_cell c;
        if (scratch.used != 0)    /* only inline text allocates */
            lt_arena_reset(&scratch);
        int r = xls_cells_next(&it, &c, err);
        if (r <= 0) {
            rc = r;
            break;
        }
        if (c.row < prev)
            *ordered = false;
        prev = c.row;
        if (sh->is_rect && !xls_in_rect(sh, c.row, c.col))
            continue;
        if ((rc = lt_wb_grid_add(g, c.row, c.col, &c.v, &header_row, src->hdr, src->date1904, err)) != 0)
            break;
    }
    *dialog = it.dialog;
    lt_arena_free(&scratch);
    return rc;
}

/* Second walk for TEXT columns holding numbers: their rendered lengths. */
static int size_numbers(xls_source *src, xls_sheet *sh, lt_wb_grid *g, lt_error *err)
{
    if (!lt_wb_grid_needs_size(g))
        return 0;
    lt_arena scratch;
    lt_arena_init(&scratch);
    xls_cells it;
    xls_cells_start(&it, src, sh, &scratch);
    int r;
    for (;;) {
        xls_cell c;
        if (scratch.used != 0)    /* only inline text allocates */
            lt_arena_reset(&scratch);
        r = xls_cells_next(&it, &c, err);
        if (r <= 0)
            break;
        if (c.row >= g->late_from)
            break;      /* rows in order: the rest lie past TypeGuessRows */
        if (sh->is_rect && !xls_in_rect(sh, c.row, c.col))
            continue;
        if (!(src->hdr && c.row == sh->first_row))
            lt_wb_grid_size(g, c.col, &c.v);
    }
    lt_arena_free(&scratch);
    return r;
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

int xls_sheet_probe(xls_source *src, xls_sheet *sh, lt_error *err)
{
    sh->probed = true;
    sh->worksheet = sh->kind == 0;
    if (!sh->worksheet || find_records(src, sh, err) != 0 || !sh->worksheet)
        return sh->worksheet ? -1 : 0;
    xls_record rec;
    for (size_t pos = sh->start;; pos = rec.next) {
        int r = xls_record_at(src->wb.data, src->wb.len, pos, &rec, src->label, err);
        if (r < 0)
            return -1;
        if (r == 0)
            return lt_error_set(err, "HY000", "'%s': sheet '%s' ends without an EOF record (truncated file?)",
                                src->label, sh->name);
        /* The sheet's settings (WSBOOL) come before its first cell. */
        if (rec.type == XLS_EOF || rec.type == XLS_BOF || xls_is_cell(rec.type))
            return 0;
        if (rec.type == XLS_WSBOOL && rec.len >= 1 && (src->wb.data[rec.data] & 0x10)) {
            sh->worksheet = false;
            return 0;
        }
    }
}

int xls_sheet_scan(xls_source *src, xls_sheet *sh, lt_table *tab, lt_error *err)
{
    if (sh->is_rect) {
        /* A copy of a worksheet already scanned: its records are found. */
        if (!sh->worksheet)
            return lt_error_set(err, "HY000", "'%s': '%s' is not a worksheet", src->label, sh->name);
    } else if (!sh->probed) {
        /* (A probed sheet's kind and records are known: not written again,
        ** as range look-ups on other threads read them.) */
        sh->worksheet = sh->kind == 0;
        if (!sh->worksheet)
            return 0;
        if (find_records(src, sh, err) != 0)
            return -1;
    }
    if (!sh->worksheet)
        return 0;
    lt_wb_grid g = {0};
    g.type_rows = src->type_rows;
    bool ordered = true, dialog = false;
    int rc = walk(src, sh, &g, &ordered, &dialog, err);
    if (rc == 0 && !ordered && !dialog) {
        /* From now on the sheet is walked in row order, through an index. */
        rc = xls_cells_index(src, sh, err);
        if (rc == 0 && (src->hdr || src->type_rows > 0) && g.min_row != g.first_seen) {
            /* The first cell was not in the first row: the header was wrong. */
            lt_wb_grid_free(&g);
            g.type_rows = src->type_rows;
            rc = walk(src, sh, &g, &ordered, &dialog, err);
        }
    }
    if (rc != 0)
        goto done;
    if (dialog) {
        sh->worksheet = false;
        goto done;
    }
    sh->empty = !g.any;
    lt_wb_rect rect = {sh->r0, sh->r1, sh->c0, sh->c1};
    lt_wb_extent ext;
    if ((rc = lt_wb_grid_extent(&g, sh->is_rect ? &rect : NULL, &ext, err)) != 0)
        goto done;
    sh->first_row = ext.first_row;
    sh->last_row = ext.last_row;
    sh->first_col = ext.first_col;
    sh->ncols = ext.ncols;
    sh->data_row = sh->first_row + (src->hdr ? 1 : 0);
    if (g.any && (rc = size_numbers(src, sh, &g, err)) != 0)
        goto done;
    lt_wb_range range = {sh->name, sh->is_rect ? "" : "$", sh->empty, src->hdr, sh->first_col, sh->ncols,
                         sh->data_row, sh->last_row};
    rc = lt_wb_grid_table(&g, &range, tab, err);
done:
    lt_wb_grid_free(&g);
    return rc;
}
