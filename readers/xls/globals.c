/*
** globals.c — the workbook globals substream ([MS-XLS] 2.1.7.20.1): the
** BIFF version, code page, date system, number formats and cell formats
** (XF), the sheet list (BOUNDSHEET), the shared string table, and the
** defined names that are tables (NAME, BIFF8 through SUPBOOK/EXTERNSHEET,
** BIFF5/7 with their own 3-D references).  A FILEPASS
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
    /* Defined names, resolved once the globals are read. */
    xls_record *names;
    uint32_t nnames;
    int64_t self_book;       /* the SUPBOOK of this workbook, -1 none */
    uint32_t nbooks;
    const uint8_t *xti;      /* EXTERNSHEET entries, 6 bytes each */
    uint32_t nxti;
} globals;

/* ---- defined names ------------------------------------------------------------ */

static int keep_name(globals *g, const xls_record *rec)
{
    xls_record *n = realloc(g->names, (g->nnames + 1) * sizeof *n);
    if (n == NULL)
        return -1;
    g->names = n;
    g->names[g->nnames++] = *rec;
    return 0;
}

/* The sheet (BOUNDSHEET index) EXTERNSHEET entry `ixti` names in this
** workbook, or -1. */
static int64_t sheet_of_xti(const xls_source *src, const globals *g, uint32_t ixti)
{
    if (ixti >= g->nxti || g->self_book < 0)
        return -1;
    const uint8_t *x = g->xti + 6 * (size_t)ixti;
    uint16_t book = lt_le16(x), first = lt_le16(x + 2), last = lt_le16(x + 4);
    if (book != g->self_book || first != last || first >= src->nsheets)
        return -1;
    return first;
}

/* A name's rectangle and the sheet (BOUNDSHEET index) its cells are on. */
typedef struct name_ref {
    int64_t sheet;
    uint32_t r0, r1, c0, c1;
} name_ref;

/*
** BIFF8 formula of one ptgRef3d or ptgArea3d ([MS-XLS] 2.5.198.85/.89,
** any class): the sheet through this workbook's EXTERNSHEET entry.
*/
static bool biff8_ref(const xls_source *src, const globals *g, const uint8_t *f, uint32_t cce,
                      name_ref *ref)
{
    uint32_t ixti;
    if (cce == 7 && (f[0] & 0x9F) == 0x1A) {          /* ptgRef3d */
        ixti = lt_le16(f + 1);
        ref->r0 = ref->r1 = lt_le16(f + 3);
        ref->c0 = ref->c1 = lt_le16(f + 5) & 0x3FFF;
    } else if (cce == 11 && (f[0] & 0x9F) == 0x1B) {  /* ptgArea3d */
        ixti = lt_le16(f + 1);
        ref->r0 = lt_le16(f + 3);
        ref->r1 = lt_le16(f + 5);
        ref->c0 = lt_le16(f + 7) & 0x3FFF;
        ref->c1 = lt_le16(f + 9) & 0x3FFF;
    } else {
        return false;
    }
    ref->sheet = sheet_of_xti(src, g, ixti);
    return ref->sheet >= 0;
}

/*
** BIFF5/7 formula of one tRef3d (18 bytes) or tArea3d (21 bytes): a signed
** EXTERNSHEET index, negative for this workbook (then the two sheet
** indexes that follow 8 unused bytes are BOUNDSHEET indexes), positive for
** another workbook's; rows of 14 bits (the top two are the relative
** flags), columns of one byte.
*/
static bool biff5_ref(const xls_source *src, const uint8_t *f, uint32_t cce, name_ref *ref)
{
    bool area;
    if (cce == 18 && (f[0] & 0x9F) == 0x1A)
        area = false;
    else if (cce == 21 && (f[0] & 0x9F) == 0x1B)
        area = true;
    else
        return false;
    int16_t ixals = (int16_t)lt_le16(f + 1);
    uint16_t first = lt_le16(f + 11), last = lt_le16(f + 13);
    if (ixals >= 0 || first != last || first >= src->nbound)
        return false;
    ref->sheet = first;
    ref->r0 = lt_le16(f + 15) & 0x3FFF;
    if (area) {
        ref->r1 = lt_le16(f + 17) & 0x3FFF;
        ref->c0 = f[19];
        ref->c1 = f[20];
    } else {
        ref->r1 = ref->r0;
        ref->c0 = ref->c1 = f[17];
    }
    return true;
}

/*
** A NAME ([MS-XLS] Lbl; BIFF5's has no string-flags byte and an 8-bit
** name in the CODEPAGE) of one rectangle of a worksheet of this workbook
** becomes a table: a workbook-level one (itab 0) named as the name, a
** sheet-level one named "<sheet>$<name>" as the ACE driver lists it.
** `local` picks which of the two this pass adds (workbook names come
** first).  Any other name (hidden, built-in such as Print_Area or
** _FilterDatabase, a function, a constant, a formula, several areas,
** another workbook's cells) is left out.
*/
static int add_name(xls_source *src, const globals *g, const xls_record *rec, bool local,
                    lt_error *err)
{
    const uint8_t *d = src->wb.data + rec->data;
    size_t head = src->biff == 8 ? 15 : 14;
    if (rec->len < head)
        return 0;
    uint16_t flags = lt_le16(d), cce = lt_le16(d + 4), itab = lt_le16(d + 8);
    uint32_t cch = d[3];
    bool high = src->biff == 8 && (d[14] & 1);
    /* fHidden, fFunc, fOB, fProc, fBuiltin */
    if ((flags & 0x2F) != 0 || (itab != 0) != local || cch == 0 || itab > src->nbound)
        return 0;
    size_t bytes = (size_t)cch * (high ? 2 : 1);
    if (rec->len - head < bytes || rec->len - head - bytes < cce)
        return 0;
    const uint8_t *f = d + head + bytes;
    name_ref ref;
    bool ok = src->biff == 8 ? biff8_ref(src, g, f, cce, &ref) : biff5_ref(src, f, cce, &ref);
    if (!ok || ref.r0 > ref.r1 || ref.c0 > ref.c1)
        return 0;
    if (local && src->sheets[itab - 1].kind != 0)
        return 0;   /* scoped to a chart, macro or VB sheet: no table */
    const char *scope = local ? src->sheets[itab - 1].name : "";
    size_t slen = strlen(scope) + (local ? 1 : 0);
    char *name = malloc(slen + (size_t)cch * 3 + 1);
    if (name == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    memcpy(name, scope, slen);
    if (local)
        name[slen - 1] = '$';
    size_t n;
    if (src->biff != 8) {
        n = lt_codepage_decode(src->codepage, d + head, cch, name + slen);
    } else if (high) {
        uint16_t pending = 0;
        n = xls_utf16_to_utf8(d + head, cch, name + slen, &pending);
    } else {
        n = xls_latin1_to_utf8(d + head, cch, name + slen);
    }
    name[slen + n] = '\0';
    xls_name *names = realloc(src->names, (src->nnames + 1) * sizeof *names);
    if (names == NULL) {
        free(name);
        return lt_error_set(err, "HY001", "out of memory");
    }
    src->names = names;
    xls_name *nm = &names[src->nnames++];
    nm->name = name;
    nm->sheet = (uint32_t)ref.sheet;
    nm->r0 = ref.r0;
    nm->r1 = ref.r1;
    nm->c0 = ref.c0;
    nm->c1 = ref.c1;
    return 0;
}

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
        case XLS_NAME:
            if (keep_name(g, &rec) != 0)
                return lt_error_set(err, "HY001", "out of memory");
            break;
        case XLS_SUPBOOK:
            if (rec.len == 4 && lt_le16(d + 2) == 0x0401 && g->self_book < 0)
                g->self_book = g->nbooks;
            g->nbooks++;
            break;
        case XLS_EXTERNSHEET:
            if (src->biff == 8 && rec.len >= 2 && lt_le16(d) <= (rec.len - 2) / 6) {
                g->xti = d + 2;
                g->nxti = lt_le16(d);
            }
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
    g.self_book = -1;
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
    src->nbound = src->nsheets;
    /* Workbook-level names, then sheet-level ones (SQLTables lists them so). */
    for (int local = 0; local < 2; local++)
        for (uint32_t i = 0; i < g.nnames; i++)
            if (add_name(src, &g, &g.names[i], local, err) != 0)
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
    free(g.names);
    return rc;
}
