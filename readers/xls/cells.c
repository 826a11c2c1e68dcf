/*
** cells.c — walking the cells of a worksheet substream, one at a time:
** LABELSST, LABEL, RSTRING, NUMBER, RK, MULRK, BOOLERR and FORMULA (its
** cached result; a string result is in the STRING record that follows,
** after any SHRFMLA/ARRAY/TABLE).  Blank cells (BLANK, MULBLANK) hold no
** value and are not reported.  Substreams embedded in a sheet (charts
** between their own BOF and EOF) are skipped.
*/
#include <stdlib.h>
#include <string.h>

#include "../common/codepage.h"
#include "../common/endian.h"
#include "xls_internal.h"

void xls_cells_start(xls_cells *it, const xls_source *src, const xls_sheet *sheet,
                     lt_arena *arena)
{
    memset(it, 0, sizeof *it);
    it->src = src;
    it->sheet = sheet;
    it->pos = sheet->start;
    it->arena = arena;
}

static int malformed(const xls_cells *it, const xls_record *rec, lt_error *err)
{
    return lt_error_set(err, "HY000", "'%s', sheet '%s': malformed record 0x%04X at offset %zu",
                        it->src->label, it->sheet->name, (unsigned)rec->type, rec->data - 4);
}

static void set_number(xls_cell *out, double v, unsigned fmt)
{
    out->v.kind = LT_WB_NUMBER;
    out->v.num = v;
    out->v.fmt = (uint8_t)fmt;
}

static unsigned xf_flags(const xls_source *src, uint16_t ixfe)
{
    return ixfe < src->nxf ? src->xf_fmt[ixfe] : 0;
}

static int set_text(xls_cell *out, const char *text, size_t len)
{
    out->v.kind = LT_WB_TEXT;
    out->v.text = text;
    out->v.len = (uint32_t)len;
    out->v.units = lt_wb_utf16_units(text, len);
    return 0;
}

/*
** The string of a LABEL, RSTRING or STRING record starting `at` bytes into
** its data: BIFF8 an XLUnicodeString (which may run on into CONTINUE
** records), BIFF5 a 16-bit length and bytes in the workbook's code page.
*/
static int inline_string(xls_cells *it, const xls_record *rec, size_t at,
                         xls_cell *out, lt_error *err)
{
    const xls_source *src = it->src;
    const uint8_t *d = src->wb.data + rec->data;
    if (rec->len < at + 2)
        return malformed(it, rec, err);
    uint32_t cch = lt_le16(d + at);
    if (src->biff != 8) {
        size_t n = rec->len - at - 2 < cch ? rec->len - at - 2 : cch;
        char *buf = lt_arena_alloc(it->arena, LT_CODEPAGE_MAX_UTF8(n) + 1);
        if (buf == NULL)
            return lt_error_set(err, "HY001", "out of memory");
        return set_text(out, buf, lt_codepage_decode(src->codepage, d + at + 2, n, buf));
    }
    size_t cap = (size_t)cch * 3 + 1;
    char *buf = lt_arena_alloc(it->arena, cap);
    if (buf == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    xls_seg g;
    xls_seg_init(&g, src->wb.data, src->wb.len, rec);
    g.p += at;
    int64_t n = xls_seg_string(&g, 2, buf, cap);
    if (n < 0)
        return malformed(it, rec, err);
    return set_text(out, buf, (size_t)n);
}

/* A formula's string result: the STRING record after the FORMULA. */
static int formula_string(xls_cells *it, const xls_record *formula, xls_cell *out,
                          lt_error *err)
{
    const xls_source *src = it->src;
    xls_record rec;
    for (size_t pos = formula->next;; pos = rec.next) {
        int r = xls_record_at(src->wb.data, src->wb.len, pos, &rec, src->label, err);
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        if (rec.type == XLS_STRING)
            return inline_string(it, &rec, 0, out, err);
        if (rec.type != XLS_SHRFMLA && rec.type != XLS_ARRAY && rec.type != XLS_TABLEOP &&
            rec.type != XLS_CONTINUE)
            break;
    }
    /* No STRING record: the result is an empty string. */
    return set_text(out, "", 0);
}

/* Returns 1 for a cell, 0 when the record holds no value. */
static int formula(xls_cells *it, const xls_record *rec, xls_cell *out, lt_error *err)
{
    const uint8_t *d = it->src->wb.data + rec->data;
    if (rec->len < 14)
        return malformed(it, rec, err);
    if (lt_le16(d + 12) != 0xFFFF) {
        set_number(out, lt_le_double(d + 6), xf_flags(it->src, lt_le16(d + 4)));
        return 1;
    }
    switch (d[6]) {
    case 0:
        return formula_string(it, rec, out, err) == 0 ? 1 : -1;
    case 1:
        out->v.kind = LT_WB_BOOL;
        out->v.b = d[8] != 0;
        return 1;
    case 2:
        out->v.kind = LT_WB_ERROR;
        return 1;
    case 3:
        set_text(out, "", 0);
        return 1;
    default:
        return 0;
    }
}

static void next_of_mulrk(xls_cells *it, xls_cell *out)
{
    const uint8_t *p = it->src->wb.data + it->mul_data + 4 + 6 * (size_t)it->mul_i;
    memset(out, 0, sizeof *out);
    out->row = it->mul_row;
    out->col = it->mul_col + it->mul_i;
    set_number(out, xls_rk(lt_le32(p + 2)), xf_flags(it->src, lt_le16(p)));
    it->mul_i++;
}

/* Decode one cell record; 1 when it holds a value, 0 when not. */
static int cell(xls_cells *it, const xls_record *rec, xls_cell *out, lt_error *err)
{
    const xls_source *src = it->src;
    const uint8_t *d = src->wb.data + rec->data;
    if (rec->len < 6)
        return malformed(it, rec, err);
    out->row = lt_le16(d);
    out->col = lt_le16(d + 2);
    unsigned fmt = xf_flags(src, lt_le16(d + 4));
    switch (rec->type) {
    case XLS_LABELSST: {
        if (rec->len < 10)
            return malformed(it, rec, err);
        uint32_t i = lt_le32(d + 6);
        if (i >= src->nsst)
            return lt_error_set(err, "HY000", "'%s', sheet '%s': the cell at offset %zu names shared string %u of %u",
                                src->label, it->sheet->name, rec->data - 4, (unsigned)i, (unsigned)src->nsst);
        out->v.kind = LT_WB_TEXT;
        out->v.text = src->sst_text + src->sst[i].off;
        out->v.len = src->sst[i].len;
        out->v.units = src->sst[i].units;
        return 1;
    }
    case XLS_NUMBER:
        if (rec->len < 14)
            return malformed(it, rec, err);
        set_number(out, lt_le_double(d + 6), fmt);
        return 1;
    case XLS_RK:
        if (rec->len < 10)
            return malformed(it, rec, err);
        set_number(out, xls_rk(lt_le32(d + 6)), fmt);
        return 1;
    case XLS_MULRK:
        if (rec->len < 12)
            return malformed(it, rec, err);
        it->mul_n = (uint32_t)((rec->len - 6) / 6);
        it->mul_data = rec->data;
        it->mul_row = out->row;
        it->mul_col = out->col;
        it->mul_i = 0;
        next_of_mulrk(it, out);
        return 1;
    case XLS_BOOLERR:
        if (rec->len < 8)
            return malformed(it, rec, err);
        if (d[7] != 0) {
            out->v.kind = LT_WB_ERROR;
        } else {
            out->v.kind = LT_WB_BOOL;
            out->v.b = d[6] != 0;
        }
        return 1;
    case XLS_LABEL:
    case XLS_RSTRING:
        return inline_string(it, rec, 6, out, err) == 0 ? 1 : -1;
    case XLS_FORMULA:
        return formula(it, rec, out, err);
    default:
        return 0;
    }
}


/*
** The cells most sheets are made of (LABELSST, NUMBER, RK), decoded inline
** into *out: 1 when done here, 0 to take cell() (any other record, and
** these when malformed: cell() says how).  Each walk of each cell comes
** here; it has this one caller, xls_cells_next, so that it is inlined there
** (cell() decodes the same records the careful way, with the messages).
*/
static inline int quick_cell(const xls_source *src, const xls_record *rec, xls_cell *out)
{
    const uint8_t *d = src->wb.data + rec->data;
    switch (rec->type) {
    case XLS_LABELSST: {
        if (rec->len < 10)
            return 0;
        uint32_t i = lt_le32(d + 6);
        if (i >= src->nsst)
            return 0;
        const xls_sst_entry *e = &src->sst[i];
        out->v = (lt_wb_cell){.kind = LT_WB_TEXT, .text = src->sst_text + e->off,
                              .len = e->len, .units = e->units};
        break;
    }
    case XLS_NUMBER:
        if (rec->len < 14)
            return 0;
        out->v = (lt_wb_cell){.kind = LT_WB_NUMBER, .num = lt_le_double(d + 6),
                              .fmt = (uint8_t)xf_flags(src, lt_le16(d + 4))};
        break;
    case XLS_RK:
        if (rec->len < 10)
            return 0;
        out->v = (lt_wb_cell){.kind = LT_WB_NUMBER, .num = xls_rk(lt_le32(d + 6)),
                              .fmt = (uint8_t)xf_flags(src, lt_le16(d + 4))};
        break;
    default:
        return 0;
    }
    out->row = lt_le16(d);
    out->col = lt_le16(d + 2);
    return 1;
}

/* A well-formed record at `pos`, its header read inline (every record of
** every walk comes here); false at the stream's end or a bad header. */
static inline bool header_at(const xls_source *src, size_t pos, xls_record *rec)
{
    const uint8_t *s = src->wb.data;
    size_t len = src->wb.len;
    if (pos >= len || len - pos < 4)
        return false;
    rec->type = lt_le16(s + pos);
    rec->len = lt_le16(s + pos + 2);
    rec->data = pos + 4;
    rec->next = rec->data + rec->len;
    return len - rec->data >= rec->len;
}

/* The record at `pos` as xls_record_at gives it (which says what is wrong). */
static int record_here(const xls_source *src, size_t pos, xls_record *rec, lt_error *err)
{
    if (header_at(src, pos, rec))
        return 1;
    return xls_record_at(src->wb.data, src->wb.len, pos, rec, src->label, err);
}

/* The next cell through the sheet's order index. */
static int next_in_order(xls_cells *it, xls_cell *out, lt_error *err)
{
    const xls_source *src = it->src;
    while (it->next_order < it->sheet->norder) {
        xls_record rec;
        size_t at = it->sheet->order[it->next_order++];
        if (record_here(src, at, &rec, err) != 1)
            return -1;
        memset(out, 0, sizeof *out);
        it->mul_n = it->mul_i = 0;
        int r = cell(it, &rec, out, err);
        if (r != 0)
            return r;
    }
    return 0;
}

/* Everything but the common case xls_cells_next takes itself (not static:
** kept out of line, so that the common case saves no registers). */
int xls_cells_next_slow(xls_cells *it, xls_cell *out, lt_error *err)
{
    const xls_source *src = it->src;
    if (it->mul_i < it->mul_n) {
        next_of_mulrk(it, out);
        return 1;
    }
    if (it->sheet->order != NULL)
        return next_in_order(it, out, err);
    for (;;) {
        xls_record rec;
        int r = record_here(src, it->pos, &rec, err);
        if (r < 0)
            return -1;
        if (r == 0)
            return lt_error_set(err, "HY000", "'%s': sheet '%s' ends without an EOF record (truncated file?)",
                                src->label, it->sheet->name);
        if (rec.type == XLS_EOF && it->depth == 0)
            return 0;      /* stay on the EOF: the walk is over */
        it->pos = rec.next;
        if (rec.type == XLS_BOF) {
            it->depth++;
            continue;
        }
        if (rec.type == XLS_EOF) {
            it->depth--;
            continue;
        }
        if (it->depth > 0)
            continue;
        if (rec.type == XLS_WSBOOL) {
            if (rec.len >= 1 && (src->wb.data[rec.data] & 0x10))
                it->dialog = true;
            continue;
        }
        if (!xls_is_cell(rec.type))
            continue;
        memset(out, 0, sizeof *out);
        it->mul_n = it->mul_i = 0;
        r = cell(it, &rec, out, err);
        if (r != 0)
            return r;
    }
}

/*
** The common case first, in few instructions (each walk of each cell comes
** here): a sheet in row order, outside a MULRK and an embedded substream,
** whose next record is a well-formed LABELSST, NUMBER or RK.
*/
int xls_cells_next(xls_cells *it, xls_cell *out, lt_error *err)
{
    if (it->mul_i >= it->mul_n && it->depth == 0 && it->sheet->order == NULL) {
        const xls_source *src = it->src;
        xls_record rec;
        if (header_at(src, it->pos, &rec) && quick_cell(src, &rec, out)) {
            it->pos = rec.next;
            return 1;
        }
    }
    return xls_cells_next_slow(it, out, err);
}

int xls_cells_index(const xls_source *src, xls_sheet *sheet, lt_error *err)
{
    /* Pass 1: count the cell records per row; pass 2: place them. */
    size_t *count = calloc(65537, sizeof *count);
    if (count == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    size_t total = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            sheet->order = malloc((total ? total : 1) * sizeof *sheet->order);
            if (sheet->order == NULL) {
                free(count);
                return lt_error_set(err, "HY001", "out of memory");
            }
            size_t sum = 0;
            for (size_t r = 0; r < 65536; r++) {
                size_t n = count[r];
                count[r] = sum;
                sum += n;
            }
        }
        int depth = 0;
        xls_record rec;
        for (size_t pos = sheet->start;; pos = rec.next) {
            int r = xls_record_at(src->wb.data, src->wb.len, pos, &rec, src->label, err);
            if (r <= 0) {
                free(count);
                free(sheet->order);
                sheet->order = NULL;
                return r < 0 ? -1 : lt_error_set(err, "HY000", "'%s': sheet '%s' ends without an EOF record",
                                                 src->label, sheet->name);
            }
            if (rec.type == XLS_EOF && depth-- == 0)
                break;
            if (rec.type == XLS_BOF)
                depth++;
            if (depth > 0 || !xls_is_cell(rec.type) || rec.len < 2)
                continue;
            uint16_t row = lt_le16(src->wb.data + rec.data);
            if (pass == 0) {
                count[row]++;
                total++;
            } else {
                sheet->order[count[row]++] = rec.data - 4;
            }
        }
    }
    sheet->norder = total;
    free(count);
    return 0;
}
