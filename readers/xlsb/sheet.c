/*
** sheet.c — the cells of a worksheet part and its type scan at open.
**
** Cells: BrtRowHdr sets the row; BrtCell* records carry their column,
** the compact BrtShort* records do not (theirs is the previous cell's plus
** one).  Blank cells (BrtCellBlank, BrtShortBlank) hold no value and are
** not reported; formulas give their cached value (BrtFmla*).
**
** The type scan: the used range (BrtWsDim is not trusted: the cells
** decide), the header row (HDR=Yes) and every column's type from all its
** cells (wbgrid.h).  Rows come in ascending order in a sheet part; a part
** whose rows go back is refused rather than read wrong.  The type scan
** keeps the cells it walks for the scans (lt_wb_cells), within the
** workbook's budget, so a sheet part is inflated once, not twice.
*/
#include <stdlib.h>
#include <string.h>

#include "../common/endian.h"
#include "xlsb_internal.h"


int xlsb_cells_start(xlsb_cells *it, const xlsb_source *src, const xlsb_sheet *sheet, lt_arena *arena,
                     lt_error *err)
{
    memset(it, 0, sizeof *it);
    it->src = src;
    it->sheet = sheet;
    it->col = -1;
    it->arena = arena;
    int64_t e = xlsb_zip_find(&src->zip, sheet->part);
    if (e < 0)
        return lt_error_set(err, "HY000", "'%s': the package has no part '%s' (sheet '%s')", src->label,
                            sheet->part, sheet->name);
    return xlsb_stream_open(&it->st, &src->zip, (uint32_t)e, err);
}

void xlsb_cells_end(xlsb_cells *it)
{
    xlsb_stream_close(&it->st);
}

static int malformed(const xlsb_cells *it, const xlsb_rec *rec, lt_error *err)
{
    return lt_error_set(err, "HY000", "'%s', sheet '%s': malformed record %u in row %u of part '%s'",
                        it->src->label, it->sheet->name, (unsigned)rec->type, (unsigned)it->row + 1,
                        it->sheet->part);
}

static void set_number(xlsb_cell *out, double v, unsigned fmt)
{
    out->v.kind = LT_WB_NUMBER;
    out->v.num = v;
    out->v.fmt = (uint8_t)fmt;
}

/* An XLWideString value decoded into the arena. */
static int set_string(xlsb_cells *it, const xlsb_rec *rec, const uint8_t *p, size_t left, xlsb_cell *out,
                      lt_error *err)
{
    uint32_t cch;
    size_t used;
    if (!xlsb_wide_string(p, left, &cch, &used))
        return malformed(it, rec, err);
    if (it->lengths_only && it->text_row != LT_WB_NO_ROW && it->row != it->text_row) {
        /* The type scan wants the length only: UTF-16 units. */
        out->v.kind = LT_WB_TEXT;
        out->v.text = NULL;
        out->v.len = 0;
        out->v.units = cch;
        return 1;
    }
    char *buf = lt_arena_alloc(it->arena, (size_t)cch * 3 + 1);
    if (buf == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    out->v.kind = LT_WB_TEXT;
    out->v.text = buf;
    out->v.len = (uint32_t)xlsb_utf16_to_utf8(p + 4, cch, buf);
    out->v.units = cch;
    return 1;
}

/* A cell record: 1 with a value, 0 without (blank), -1 malformed. */
static int cell(xlsb_cells *it, const xlsb_rec *rec, xlsb_cell *out, lt_error *err)
{
    const xlsb_source *src = it->src;
    bool compact = rec->type >= XLSB_SHORT_BLANK;
    size_t head = compact ? 4 : 8;
    if (rec->len < head)
        return malformed(it, rec, err);
    const uint8_t *d = rec->data;
    int64_t col = compact ? it->col + 1 : (int64_t)lt_le32(d);
    if (col < 0 || col > XLSB_MAX_COL)
        return malformed(it, rec, err);
    it->col = col;
    uint32_t style = lt_le32(d + head - 4) & 0xFFFFFF;
    unsigned fmt = style < src->nxf ? src->xf_fmt[style] : 0;
    const uint8_t *p = d + head;
    size_t left = rec->len - head;
    memset(out, 0, sizeof *out);
    out->row = it->row;
    out->col = (uint32_t)col;
    switch (rec->type) {
    case XLSB_CELL_BLANK:
    case XLSB_SHORT_BLANK:
        return 0;
    case XLSB_CELL_RK:
    case XLSB_SHORT_RK:
        if (left < 4)
            return malformed(it, rec, err);
        set_number(out, xlsb_rk(lt_le32(p)), fmt);
        return 1;
    case XLSB_CELL_REAL:
    case XLSB_SHORT_REAL:
    case XLSB_FMLA_NUM:
        if (left < 8)
            return malformed(it, rec, err);
        set_number(out, lt_le_double(p), fmt);
        return 1;
    case XLSB_CELL_ERROR:
    case XLSB_SHORT_ERROR:
    case XLSB_FMLA_ERROR:
        if (left < 1)
            return malformed(it, rec, err);
        out->v.kind = LT_WB_ERROR;
        return 1;
    case XLSB_CELL_BOOL:
    case XLSB_SHORT_BOOL:
    case XLSB_FMLA_BOOL:
        if (left < 1)
            return malformed(it, rec, err);
        out->v.kind = LT_WB_BOOL;
        out->v.b = p[0] != 0;
        return 1;
    case XLSB_CELL_ST:
    case XLSB_SHORT_ST:
    case XLSB_FMLA_STRING:
        return set_string(it, rec, p, left, out, err);
    case XLSB_CELL_ISST:
    case XLSB_SHORT_ISST: {
        if (left < 4)
            return malformed(it, rec, err);
        uint32_t i = lt_le32(p);
        if (i >= src->nsst)
            return lt_error_set(err, "HY000", "'%s', sheet '%s': a cell names shared string %u of %u",
                                src->label, it->sheet->name, (unsigned)i, (unsigned)src->nsst);
        out->v.kind = LT_WB_TEXT;
        out->v.text = src->sst_text + src->sst_off[i];
        out->v.len = src->sst_off[i + 1] - src->sst_off[i];
        out->v.units = src->sst_units[i];
        return 1;
    }
    default:
        return 0;
    }
}

int xlsb_cells_next(xlsb_cells *it, xlsb_cell *out, lt_error *err)
{
    for (;;) {
        xlsb_rec rec;
        if (it->ended)
            return 0;
        int r = xlsb_stream_next(&it->st, &rec, err);
        if (r < 0)
            return -1;
        if (r == 0 || rec.type == XLSB_END_SHEETDATA) {
            it->ended = true;
            return 0;
        }
        if (rec.type == XLSB_ROWHDR) {
            if (rec.len < 4 || lt_le32(rec.data) > XLSB_MAX_ROW)
                return malformed(it, &rec, err);
            it->row = lt_le32(rec.data);
            it->col = -1;
            continue;
        }
        if (rec.type < XLSB_CELL_BLANK || rec.type > XLSB_SHORT_ISST)
            continue;
        r = cell(it, &rec, out, err);
        if (r != 0)
            return r;
    }
}

/* ---- the type scan ------------------------------------------------------------ */

static bool in_rect(const xlsb_sheet *sh, const xlsb_cell *c)
{
    return c->row >= sh->r0 && c->row <= sh->r1 && c->col >= sh->c0 && c->col <= sh->c1;
}

/* One walk into the grid (wbgrid.h): the used range and the stats of every
** cell not in the header row (the first used row, or a name's first row).
** `keep` (may be NULL) keeps the cells of the rectangle; when it cannot
** (past its budget), texts are only measured from then on, but for the
** header row's. */
static int walk(xlsb_source *src, xlsb_sheet *sh, lt_wb_grid *g, lt_wb_cells *keep, lt_error *err)
{
    lt_arena scratch;
    lt_arena_init(&scratch);
    xlsb_cells it;
    int rc = xlsb_cells_start(&it, src, sh, &scratch, err);
    if (rc != 0) {
        xlsb_cells_end(&it);
        lt_arena_free(&scratch);
        return rc;
    }
    uint32_t prev = 0, header_row = sh->is_name ? sh->r0 : LT_WB_NO_ROW;
    it.lengths_only = keep == NULL || keep->over;
    it.text_row = src->hdr ? header_row : LT_WB_NO_ROW - 1;
    for (;;) {
        xlsb_cell c;
        if (scratch.used != 0)    /* only inline text allocates */
            lt_arena_reset(&scratch);
        rc = xlsb_cells_next(&it, &c, err);
        if (rc <= 0)
            break;
        if (c.row < prev) {
            rc = lt_error_set(err, "HY000", "'%s', sheet '%s': rows out of order in part '%s' (row %u after %u)",
                              src->label, sh->name, sh->part, (unsigned)c.row + 1, (unsigned)prev + 1);
            break;
        }
        prev = c.row;
        if (!in_rect(sh, &c))
            continue;
        if ((rc = lt_wb_grid_add(g, c.row, c.col, &c.v, &header_row, src->hdr, src->date1904, err)) != 0)
            break;
        if (src->hdr)
            it.text_row = header_row;
        if (keep != NULL && !keep->over && !lt_wb_cells_add(keep, c.row, c.col, &c.v))
            it.lengths_only = true;
    }
    xlsb_cells_end(&it);
    lt_arena_free(&scratch);
    return rc;
}

/* Second walk for TEXT columns holding numbers: their rendered lengths
** (from the kept cells when there are). */
static int size_numbers(xlsb_source *src, xlsb_sheet *sh, lt_wb_grid *g, const lt_wb_cells *kept,
                        lt_error *err)
{
    if (!lt_wb_grid_needs_size(g))
        return 0;
    if (kept != NULL) {
        lt_wb_cells_pos pos;
        xlsb_cell c;
        lt_wb_cells_begin(kept, &pos);
        while (lt_wb_cells_next(&pos, &c.row, &c.col, &c.v) && c.row < g->late_from)
            if (!(src->hdr && c.row == sh->first_row))
                lt_wb_grid_size(g, c.col, &c.v);
        return 0;
    }
    lt_arena scratch;
    lt_arena_init(&scratch);
    xlsb_cells it;
    int r = xlsb_cells_start(&it, src, sh, &scratch, err);
    it.lengths_only = true;
    it.text_row = LT_WB_NO_ROW - 1;
    while (r == 0) {
        xlsb_cell c;
        if (scratch.used != 0)    /* only inline text allocates */
            lt_arena_reset(&scratch);
        int got = xlsb_cells_next(&it, &c, err);
        if (got <= 0) {
            r = got;
            break;
        }
        if (c.row >= g->late_from)
            break;      /* rows in order: the rest lie past TypeGuessRows */
        if (in_rect(sh, &c) && !(src->hdr && c.row == sh->first_row))
            lt_wb_grid_size(g, c.col, &c.v);
    }
    xlsb_cells_end(&it);
    lt_arena_free(&scratch);
    return r;
}

int xlsb_sheet_scan(xlsb_source *src, xlsb_sheet *sh, lt_table *tab, bool keep, lt_error *err)
{
    lt_wb_grid g = {0};
    g.type_rows = src->type_rows;
    lt_wb_cells_free(&sh->cells);
    sh->kept = false;
    if (keep) {
        lt_wb_cells_init(&sh->cells, src->kept_bytes < src->kept_budget ? src->kept_budget - src->kept_bytes : 0);
        if (src->nsst > 0) {    /* shared strings live as long as the source */
            sh->cells.stable = src->sst_text;
            sh->cells.stable_end = src->sst_text + src->sst_off[src->nsst];
        }
    }
    int rc = walk(src, sh, &g, keep ? &sh->cells : NULL, err);
    if (rc != 0)
        goto done;
    sh->empty = !g.any;
    lt_wb_rect rect = {sh->r0, sh->r1, sh->c0, sh->c1};
    lt_wb_extent ext;
    if ((rc = lt_wb_grid_extent(&g, sh->is_name ? &rect : NULL, &ext, err)) != 0)
        goto done;
    sh->first_row = ext.first_row;
    sh->last_row = ext.last_row;
    sh->first_col = ext.first_col;
    sh->ncols = ext.ncols;
    sh->data_row = sh->first_row + (src->hdr ? 1 : 0);
    if (g.any && (rc = size_numbers(src, sh, &g, keep && !sh->cells.over ? &sh->cells : NULL, err)) != 0)
        goto done;
    lt_wb_range range = {sh->name, sh->is_name ? "" : "$", sh->empty, src->hdr, sh->first_col, sh->ncols,
                         sh->data_row, sh->last_row};
    rc = lt_wb_grid_table(&g, &range, tab, err);
done:
    if (rc == 0 && keep && !sh->cells.over) {
        sh->kept = true;
        src->kept_bytes += sh->cells.bytes;
    } else {
        lt_wb_cells_free(&sh->cells);
    }
    lt_wb_grid_free(&g);
    return rc;
}
