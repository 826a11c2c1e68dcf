/*
** sst.c — the shared string table of a BIFF8 workbook ([MS-XLS] 2.4.265):
** decoded once, at open, into one UTF-8 buffer that cells point into.
**
** The SST record and its CONTINUE records form one byte sequence, except
** that a string's characters split by a record boundary go on with a byte
** re-stating the 8/16-bit flag (xls_seg_chars).  Rich-text runs and
** phonetic (ExtRst) data are skipped.
*/
#include <stdlib.h>
#include <string.h>

#include "../common/endian.h"
#include "xls_internal.h"

int xls_sst_parse(xls_source *src, const xls_record *rec, lt_error *err)
{
    if (src->sst != NULL)
        return 0;   /* a second SST: the first one counts */
    if (rec->len < 8)
        return lt_error_set(err, "HY000", "'%s': the SST record at offset %zu is too short",
                            src->label, rec->data - 4);
    const uint8_t *s = src->wb.data;
    uint32_t unique = lt_le32(s + rec->data + 4);
    /* Each string takes at least 3 bytes: never believe a count the
    ** stream cannot hold. */
    size_t room = (src->wb.len - rec->data) / 3 + 1;
    uint32_t count = unique < room ? unique : (uint32_t)room;
    src->sst = malloc((count ? count : 1) * sizeof *src->sst);
    size_t cap = 4096, used = 0;
    src->sst_text = malloc(cap);
    if (src->sst == NULL || src->sst_text == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    xls_seg g;
    xls_seg_init(&g, s, src->wb.len, rec);
    g.p += 8;
    for (uint32_t i = 0; i < count; i++) {
        uint8_t h[3];
        if (xls_seg_bytes(&g, h, 3) != 0)
            break;      /* fewer strings than announced: keep those read */
        uint32_t cch = lt_le16(h);
        if (cap - used < (size_t)cch * 3) {
            while (cap - used < (size_t)cch * 3)
                cap *= 2;
            char *nt = realloc(src->sst_text, cap);
            if (nt == NULL)
                return lt_error_set(err, "HY001", "out of memory");
            src->sst_text = nt;
        }
        int64_t n = xls_seg_string_body(&g, cch, h[2], src->sst_text + used);
        if (n < 0)
            break;      /* cut short: the strings before it stay readable */
        src->sst[i].off = used;
        src->sst[i].len = (uint32_t)n;
        /* Every UTF-16 unit read gives one of the text (a lone surrogate
        ** becomes U+FFFD, a pair a 4-byte sequence counted as two). */
        src->sst[i].units = cch;
        used += (size_t)n;
        src->nsst = i + 1;
    }
    return 0;
}
