/*
** globals.c — the workbook globals substream ([MS-XLS] 2.1.7.20.1): the
** BIFF version, code page, date system, number formats and cell formats
** (XF), the sheet list (BOUNDSHEET) and the shared string table.  A FILEPASS
** record hands over to crypt.c, which decrypts the stream or fails with a
** message naming the encryption.
*/
#include <stdlib.h>
#include <string.h>

#include "../common/codepage.h"
#include "../common/endian.h"
#include "xls_internal.h"

#define FORMAT_IDS 65536
#define STRING_MAX (3 * 65536)

/* BIFF5's CODEPAGE values that are not Windows code page numbers. */
static int biff5_codepage(uint16_t cp)
{
    switch (cp) {
    case 367:   return 1252;    /* ASCII */
    case 1200:  return 1252;    /* UTF-16: only BIFF8 strings are */
    case 32768: return 10000;   /* Apple Roman */
    case 32769: return 1252;    /* Windows 1252 under its BIFF2-4 name */
    default:    return lt_codepage_known(cp) ? cp : 1252;
    }
}

typedef struct globals {
    uint8_t *fmt;            /* LT_WB_FMT_* per format id */
    uint16_t *xf_ifmt;
    uint32_t nxf, xf_cap;
    char *text;              /* scratch for one decoded string */
    bool decrypted;
} globals;

static int add_xf(globals *g, uint16_t ifmt)
{
    if (g->nxf == g->xf_cap) {
        uint32_t cap = g->xf_cap ? g->xf_cap * 2 : 64;
        uint16_t *n = realloc(g->xf_ifmt, cap * sizeof *n);
        if (n == NULL)
            return -1;
        g->xf_ifmt = n;
        g->xf_cap = cap;
    }
    g->xf_ifmt[g->nxf++] = ifmt;
    return 0;
}

static void parse_format(xls_source *src, globals *g, const xls_record *rec)
{
    const uint8_t *d = src->wb.data + rec->data;
    if (rec->len < 3)
        return;     /* nothing to classify: the id keeps its built-in class */
    uint16_t id = lt_le16(d);
    int64_t n;
    if (src->biff == 8) {
        xls_seg seg;
        xls_seg_init(&seg, src->wb.data, src->wb.len, rec);
        seg.p += 2;
        n = xls_seg_string(&seg, 2, g->text, STRING_MAX);
    } else {
        size_t cch = d[2] < rec->len - 3 ? d[2] : rec->len - 3;
        n = (int64_t)lt_codepage_decode(src->codepage, d + 3, cch, g->text);
    }
    /* A malformed format string classifies as a number format. */
    g->fmt[id] = n < 0 ? 0 : (uint8_t)lt_wb_format_classify(g->text, (size_t)n);
}

static int parse_boundsheet(xls_source *src, const xls_record *rec, lt_error *err)
{
    const uint8_t *d = src->wb.data + rec->data;
    size_t head = src->biff == 8 ? 8 : 7;
    if (rec->len < head)
        return lt_error_set(err, "HY000", "'%s': BOUNDSHEET record at offset %zu is too short",
                            src->label, rec->data - 4);
    xls_sheet *sh = realloc(src->sheets, (src->nsheets + 1) * sizeof *sh);
    if (sh == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    src->sheets = sh;
    sh = &src->sheets[src->nsheets++];
    memset(sh, 0, sizeof *sh);
    sh->bof = lt_le32(d);
    sh->visibility = d[4] & 3;
    sh->kind = d[5];
    sh->name_cch = d[6];
    sh->name_high = src->biff == 8 && (d[7] & 1);
    sh->name_at = rec->data + head;
    size_t bytes = (size_t)sh->name_cch * (sh->name_high ? 2 : 1);
    if (rec->len - head < bytes)
        return lt_error_set(err, "HY000", "'%s': the name in the BOUNDSHEET record at offset %zu is cut short",
                            src->label, rec->data - 4);
    return 0;
}

static int decode_sheet_names(xls_source *src, lt_error *err)
{
    for (uint32_t i = 0; i < src->nsheets; i++) {
        xls_sheet *sh = &src->sheets[i];
        const uint8_t *p = src->wb.data + sh->name_at;
        char *name = malloc((size_t)sh->name_cch * 3 + 1);
        if (name == NULL)
            return lt_error_set(err, "HY001", "out of memory");
        size_t n;
        if (src->biff != 8) {
            n = lt_codepage_decode(src->codepage, p, sh->name_cch, name);
        } else if (sh->name_high) {
            uint16_t pending = 0;
            n = xls_utf16_to_utf8(p, sh->name_cch, name, &pending);
        } else {
            n = xls_latin1_to_utf8(p, sh->name_cch, name);
        }
        name[n] = '\0';
        sh->name = name;
    }
    return 0;
}

/* The first record: BOF of the workbook globals, which gives the version. */
static int parse_bof(xls_source *src, lt_error *err)
{
    xls_record rec;
    int r = xls_record_at(src->wb.data, src->wb.len, 0, &rec, src->label, err);
    if (r < 0)
        return -1;
    if (r == 0)
        return lt_error_set(err, "HY000", "'%s': the workbook stream is empty", src->label);
    if (rec.type == 0x0009 || rec.type == 0x0209 || rec.type == 0x0409)
        return lt_error_set(err, "HY000", "'%s' is an Excel 2.x-4.x (BIFF%d) file: Lector reads Excel 5.0 and later workbooks",
                            src->label, rec.type == 0x0009 ? 2 : rec.type == 0x0209 ? 3 : 4);
    if (rec.type != XLS_BOF || rec.len < 4)
        return lt_error_set(err, "HY000", "'%s': the workbook stream does not start with a BOF record", src->label);
    uint16_t vers = lt_le16(src->wb.data + rec.data);
    uint16_t dt = lt_le16(src->wb.data + rec.data + 2);
    src->biff = vers == 0x0500 ? 5 : 8;
    if (dt != 0x0005)
        return lt_error_set(err, "HY000", "'%s': the workbook stream starts with a BOF of type 0x%04X, not the workbook globals",
                            src->label, (unsigned)dt);
    return 0;
}

static int walk_globals(xls_source *src, globals *g, lt_error *err)
{
    xls_record rec;
    size_t pos = 0;
    int r = xls_record_at(src->wb.data, src->wb.len, 0, &rec, src->label, err);
    for (pos = rec.next;; pos = rec.next) {
        r = xls_record_at(src->wb.data, src->wb.len, pos, &rec, src->label, err);
        if (r < 0)
            return -1;
        if (r == 0)
            return lt_error_set(err, "HY000", "'%s': the workbook globals end without an EOF record (truncated file?)",
                                src->label);
        const uint8_t *d = src->wb.data + rec.data;
        switch (rec.type) {
        case XLS_EOF:
            return 0;
        case XLS_FILEPASS:
            /* Only the first one: the stream after it is decrypted. */
            if (!g->decrypted && xls_decrypt(src, &rec, src->password, err) != 0)
                return -1;
            g->decrypted = true;
            break;
        case XLS_CODEPAGE:
            if (rec.len >= 2 && src->biff != 8)
                src->codepage = biff5_codepage(lt_le16(d));
            break;
        case XLS_DATEMODE:
            if (rec.len >= 2)
                src->date1904 = lt_le16(d) != 0;
            break;
        case XLS_FORMAT:
            parse_format(src, g, &rec);
            break;
        case XLS_XF:
            if (rec.len >= 4 && add_xf(g, lt_le16(d + 2)) != 0)
                return lt_error_set(err, "HY001", "out of memory");
            break;
        case XLS_BOUNDSHEET:
            if (parse_boundsheet(src, &rec, err) != 0)
                return -1;
            break;
        case XLS_SST:
            if (src->biff == 8 && xls_sst_parse(src, &rec, err) != 0)
                return -1;
            break;
        default:
            break;
        }
    }
}

int xls_globals_parse(xls_source *src, lt_error *err)
{
    src->codepage = 1252;
    if (parse_bof(src, err) != 0)
        return -1;
    globals g = {0};
    g.fmt = malloc(FORMAT_IDS);
    g.text = malloc(STRING_MAX);
    int rc = -1;
    if (g.fmt == NULL || g.text == NULL) {
        lt_error_set(err, "HY001", "out of memory");
        goto done;
    }
    for (unsigned id = 0; id < FORMAT_IDS; id++)
        g.fmt[id] = (uint8_t)lt_wb_format_builtin(id);
    if (walk_globals(src, &g, err) != 0 || decode_sheet_names(src, err) != 0)
        goto done;
    src->nxf = g.nxf;
    src->xf_fmt = malloc(g.nxf ? g.nxf : 1);
    if (src->xf_fmt == NULL) {
        lt_error_set(err, "HY001", "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < g.nxf; i++)
        src->xf_fmt[i] = g.fmt[g.xf_ifmt[i]];
    rc = 0;
done:
    free(g.fmt);
    free(g.xf_ifmt);
    free(g.text);
    return rc;
}
