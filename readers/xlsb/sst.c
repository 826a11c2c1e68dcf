/*
** sst.c — the shared strings part: every BrtSSTItem (a RichStr: flags,
** then the XLWideString; rich runs and phonetic data after it are not
** text) decoded once to UTF-8 for the whole workbook.
*/
#include <stdlib.h>
#include <string.h>

#include "xlsb_internal.h"

int xlsb_sst_parse(xlsb_source *src, lt_error *err)
{
    if (src->sst_part == NULL || xlsb_zip_find(&src->zip, src->sst_part) < 0)
        return 0;
    uint8_t *d = NULL;
    size_t len = 0;
    if (xlsb_read_part(src, src->sst_part, &d, &len, err) != 0)
        return -1;
    /* Pass 1: the count and the text's size; pass 2: decode. */
    size_t pos = 0, bytes = 0;
    uint32_t n = 0;
    xlsb_rec rec;
    int r;
    while ((r = xlsb_record_next(d, len, &pos, &rec)) == 1) {
        uint32_t cch;
        size_t used;
        if (rec.type != XLSB_SST_ITEM)
            continue;
        if (rec.len < 1 || !xlsb_wide_string(rec.data + 1, rec.len - 1, &cch, &used)) {
            free(d);
            return lt_error_set(err, "HY000", "'%s': shared string %u is malformed", src->label, (unsigned)n);
        }
        if (n == UINT32_MAX - 1)
            break;
        n++;
        bytes += (size_t)cch * 3;
    }
    if (r < 0) {
        free(d);
        return lt_error_set(err, "HY000", "'%s': the shared strings part '%s' has a record running past its end "
                            "at offset %zu (truncated?)", src->label, src->sst_part, pos);
    }
    src->sst_text = malloc(bytes ? bytes : 1);
    src->sst_off = malloc(((size_t)n + 1) * sizeof *src->sst_off);
    src->sst_units = malloc((n ? n : 1) * sizeof *src->sst_units);
    if (src->sst_text == NULL || src->sst_off == NULL || src->sst_units == NULL || bytes > UINT32_MAX) {
        free(d);
        return lt_error_set(err, "HY001", "out of memory (shared strings)");
    }
    size_t o = 0;
    uint32_t i = 0;
    pos = 0;
    while (i < n && xlsb_record_next(d, len, &pos, &rec) == 1) {
        uint32_t cch;
        size_t used;
        if (rec.type != XLSB_SST_ITEM || !xlsb_wide_string(rec.data + 1, rec.len - 1, &cch, &used))
            continue;
        src->sst_off[i] = (uint32_t)o;
        src->sst_units[i] = cch;
        o += xlsb_utf16_to_utf8(rec.data + 5, cch, src->sst_text + o);
        i++;
    }
    src->sst_off[i] = (uint32_t)o;
    src->nsst = i;
    free(d);
    return 0;
}
