/*
** styles.c — the styles part: number formats (BrtFmt) and the cell formats
** (BrtXF records between BrtBeginCellXFs and BrtEndCellXFs; the style XFs
** before them are not cells' formats).  Each cell XF gets the LT_WB_FMT_*
** flags of its number format, so cells know at once whether they are dates.
*/
#include <stdlib.h>
#include <string.h>

#include "../common/endian.h"
#include "xlsb_internal.h"

typedef struct fmt_entry {
    uint16_t id;
    uint8_t flags;
} fmt_entry;

static unsigned format_flags(const fmt_entry *fmts, uint32_t n, uint16_t id)
{
    for (uint32_t i = n; i-- > 0;)
        if (fmts[i].id == id)
            return fmts[i].flags;
    return lt_wb_format_builtin(id);
}

int xlsb_styles_parse(xlsb_source *src, lt_error *err)
{
    if (src->styles_part == NULL || xlsb_zip_find(&src->zip, src->styles_part) < 0)
        return 0;   /* no styles: every number is General */
    uint8_t *d = NULL;
    size_t len = 0;
    if (xlsb_read_part(src, src->styles_part, &d, &len, err) != 0)
        return -1;
    fmt_entry *fmts = NULL;
    uint32_t nfmts = 0, cap = 0;
    uint16_t *xf_ifmt = NULL;
    uint32_t nxf = 0, xcap = 0;
    bool in_cell_xfs = false;
    int rc = 0, r;
    size_t pos = 0;
    xlsb_rec rec;
    char *text = NULL;
    while ((r = xlsb_record_next(d, len, &pos, &rec)) == 1) {
        if (rec.type == XLSB_FMT && rec.len >= 6) {
            uint32_t cch;
            size_t used;
            if (!xlsb_wide_string(rec.data + 2, rec.len - 2, &cch, &used))
                continue;
            if (nfmts == cap) {
                cap = cap ? cap * 2 : 32;
                fmt_entry *f = realloc(fmts, cap * sizeof *f);
                if (f == NULL)
                    goto oom;
                fmts = f;
            }
            char *t = realloc(text, (size_t)cch * 3 + 1);
            if (t == NULL)
                goto oom;
            text = t;
            size_t n = xlsb_utf16_to_utf8(rec.data + 6, cch, text);
            fmts[nfmts].id = lt_le16(rec.data);
            fmts[nfmts].flags = (uint8_t)lt_wb_format_classify(text, n);
            nfmts++;
        } else if (rec.type == XLSB_BEGIN_CELLXFS) {
            in_cell_xfs = true;
        } else if (rec.type == XLSB_END_CELLXFS) {
            in_cell_xfs = false;
        } else if (rec.type == XLSB_XF && in_cell_xfs && rec.len >= 4) {
            if (nxf == xcap) {
                xcap = xcap ? xcap * 2 : 64;
                uint16_t *x = realloc(xf_ifmt, xcap * sizeof *x);
                if (x == NULL)
                    goto oom;
                xf_ifmt = x;
            }
            xf_ifmt[nxf++] = lt_le16(rec.data + 2);
        }
    }
    if (r < 0) {
        rc = lt_error_set(err, "HY000", "'%s': the styles part '%s' has a record running past its end at "
                          "offset %zu (truncated?)", src->label, src->styles_part, pos);
        goto done;
    }
    src->xf_fmt = malloc(nxf ? nxf : 1);
    if (src->xf_fmt == NULL)
        goto oom;
    for (uint32_t i = 0; i < nxf; i++)
        src->xf_fmt[i] = (uint8_t)format_flags(fmts, nfmts, xf_ifmt[i]);
    src->nxf = nxf;
    goto done;
oom:
    rc = lt_error_set(err, "HY001", "out of memory");
done:
    free(text);
    free(fmts);
    free(xf_ifmt);
    free(d);
    return rc;
}
