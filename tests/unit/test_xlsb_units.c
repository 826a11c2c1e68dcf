/*
** test_xlsb_units.c — the .xlsb reader's pieces on inputs built here: the
** BIFF12 record header (1-2 byte type, 1-4 byte size), RK numbers in their
** four encodings, UTF-16 text, the ZIP container (stored and deflated
** entries; truncated, lying and hostile directories; a zip bomb), and a
** whole small workbook (parts outside xl/, rich and phonetic shared
** strings, compact BrtShort* cells, formulas, a chart sheet, date formats).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "support/corpus.h"
#include "xlsb/xlsb.h"
#include "xlsb/xlsb_internal.h"
#include "test_xlsb_build.h"

/* ---- records ------------------------------------------------------------------ */

static void test_record_header(void **state)
{
    (void)state;
    tbuf b = {0}, d = {0};
    tb_u32(&d, 7);
    tb_rec(&b, 0, &d);                 /* 1-byte type and size */
    tb_rec(&b, 617, &d);               /* 2-byte type */
    tbuf big = {0};
    for (int i = 0; i < 200; i++)
        tb_u8(&big, (unsigned)i);
    tb_rec(&b, 19, &big);              /* 2-byte size */
    size_t pos = 0;
    xlsb_rec rec;
    assert_int_equal(xlsb_record_next(b.p, b.len, &pos, &rec), 1);
    assert_int_equal(rec.type, 0);
    assert_int_equal(rec.len, 4);
    assert_int_equal(xlsb_record_next(b.p, b.len, &pos, &rec), 1);
    assert_int_equal(rec.type, 617);
    assert_int_equal(xlsb_record_next(b.p, b.len, &pos, &rec), 1);
    assert_int_equal(rec.type, 19);
    assert_int_equal(rec.len, 200);
    assert_int_equal(rec.data[199], 199);
    assert_int_equal(xlsb_record_next(b.p, b.len, &pos, &rec), 0);
    /* Truncated: every shorter prefix ends in an error, never a read past. */
    for (size_t cut = 1; cut < b.len; cut++) {
        uint8_t *copy = malloc(cut);
        memcpy(copy, b.p, cut);
        pos = 0;
        int r;
        while ((r = xlsb_record_next(copy, cut, &pos, &rec)) == 1)
            ;
        assert_true(r == 0 || r == -1);
        if (cut != 6 && cut != 13)      /* the record boundaries */
            assert_int_equal(r, -1);
        free(copy);
    }
    /* A type of three bytes and a size of five are malformed. */
    const uint8_t t3[] = {0x80, 0x80, 0x01, 0x00};
    pos = 0;
    assert_int_equal(xlsb_record_next(t3, sizeof t3, &pos, &rec), -1);
    const uint8_t s5[] = {0x01, 0x80, 0x80, 0x80, 0x80, 0x01};
    pos = 0;
    assert_int_equal(xlsb_record_next(s5, sizeof s5, &pos, &rec), -1);
    /* A size past the end (4-byte size = 2^28 - 1). */
    const uint8_t huge[] = {0x05, 0xFF, 0xFF, 0xFF, 0x7F, 0, 0};
    pos = 0;
    assert_int_equal(xlsb_record_next(huge, sizeof huge, &pos, &rec), -1);
    free(b.p);
    free(d.p);
    free(big.p);
}

static void test_rk(void **state)
{
    (void)state;
    assert_true(xlsb_rk((uint32_t)(42 << 2) | 2) == 42.0);              /* integer */
    assert_true(xlsb_rk((uint32_t)(1234 << 2) | 3) == 12.34);           /* integer / 100 */
    assert_true(xlsb_rk((uint32_t)((int32_t)-5 * 4) | 2) == -5.0);      /* negative integer */
    double v = 1.5;
    uint64_t bits;
    memcpy(&bits, &v, 8);
    assert_true(xlsb_rk((uint32_t)(bits >> 32)) == 1.5);                /* double */
    v = 314.0;
    memcpy(&bits, &v, 8);
    assert_true(xlsb_rk((uint32_t)(bits >> 32) | 1) == 3.14);           /* double / 100 */
}

static void test_utf16(void **state)
{
    (void)state;
    /* "é", U+1F600 as a surrogate pair, a lone high surrogate, "A" */
    const uint8_t s[] = {0xE9, 0x00, 0x3D, 0xD8, 0x00, 0xDE, 0x3D, 0xD8, 0x41, 0x00};
    char out[32];
    size_t n = xlsb_utf16_to_utf8(s, 5, out);
    assert_int_equal(n, 2 + 4 + 3 + 1);
    assert_memory_equal(out, "\xC3\xA9\xF0\x9F\x98\x80\xEF\xBF\xBD" "A", n);
    uint32_t cch;
    size_t used;
    const uint8_t ws[] = {2, 0, 0, 0, 'h', 0, 'i', 0};
    assert_true(xlsb_wide_string(ws, sizeof ws, &cch, &used));
    assert_int_equal(cch, 2);
    assert_int_equal(used, 8);
    assert_false(xlsb_wide_string(ws, 7, &cch, &used));                 /* runs past */
    const uint8_t lie[] = {0xFF, 0xFF, 0xFF, 0x7F, 'h', 0};
    assert_false(xlsb_wide_string(lie, sizeof lie, &cch, &used));
    const uint8_t nul[] = {0xFF, 0xFF, 0xFF, 0xFF};
    assert_false(xlsb_wide_string(nul, sizeof nul, &cch, &used));
}

/* ---- ZIP ------------------------------------------------------------------------ */

static void test_zip_entries(void **state)
{
    (void)state;
    tzip z = {0};
    const char *text = "stored bytes";
    char big[5000];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (char)('a' + i % 7);
    tzip_add(&z, "a/stored.txt", text, strlen(text), 0);
    tzip_add(&z, "a/deflated.bin", big, sizeof big, 1);
    tzip_finish(&z);
    xlsb_zip zip;
    lt_error err;
    assert_int_equal(xlsb_zip_open(&zip, z.out.p, z.out.len, "t.xlsb", &err), 0);
    assert_int_equal(zip.n, 2);
    assert_int_equal(xlsb_zip_find(&zip, "/A/STORED.TXT"), 0);
    assert_int_equal(xlsb_zip_find(&zip, "a/missing"), -1);
    uint8_t *out;
    size_t len;
    assert_int_equal(xlsb_zip_read(&zip, 0, XLSB_PART_MAX, &out, &len, &err), 0);
    assert_int_equal(len, strlen(text));
    assert_memory_equal(out, text, len);
    free(out);
    assert_int_equal(xlsb_zip_read(&zip, 1, XLSB_PART_MAX, &out, &len, &err), 0);
    assert_int_equal(len, sizeof big);
    assert_memory_equal(out, big, len);
    free(out);
    /* A cap below the inflated size: an error, not a bigger buffer. */
    assert_int_equal(xlsb_zip_read(&zip, 1, 1000, &out, &len, &err), -1);
    assert_non_null(strstr(err.message, "inflates past"));
    assert_int_equal(xlsb_zip_read(&zip, 0, 4, &out, &len, &err), -1);
    assert_int_equal(xlsb_zip_read(&zip, 7, XLSB_PART_MAX, &out, &len, &err), -1);
    xlsb_zip_close(&zip);

    /* Every truncation fails cleanly, at open or at read. */
    for (size_t cut = 0; cut < z.out.len; cut++) {
        uint8_t *copy = malloc(cut ? cut : 1);
        memcpy(copy, z.out.p, cut);
        if (xlsb_zip_open(&zip, copy, cut, "t.xlsb", &err) == 0) {
            for (uint32_t i = 0; i < zip.n; i++)
                if (xlsb_zip_read(&zip, i, XLSB_PART_MAX, &out, &len, &err) == 0)
                    free(out);
            xlsb_zip_close(&zip);
        } else {
            assert_non_null(strstr(err.message, "t.xlsb"));
        }
        free(copy);
    }
    free(z.out.p);
}

/* The end record's fields at `eocd`, rewritten to lie. */
static void test_zip_lies(void **state)
{
    (void)state;
    tzip z = {0};
    char big[20000];
    memset(big, 0, sizeof big);
    tzip_add(&z, "p.bin", big, sizeof big, 1);
    size_t dir = tzip_finish(&z);
    size_t eocd = z.out.len - 22;
    xlsb_zip zip;
    lt_error err;
    uint8_t *out;
    size_t len;
    struct { size_t at; uint32_t value; int width; const char *msg; } lies[] = {
        {eocd + 16, 0xFFFFFF00u, 4, "outside the file"},      /* directory offset */
        {eocd + 12, 0x7FFFFFFFu, 4, "outside the file"},      /* directory size */
        {eocd + 10, 5000, 2, "claims"},                       /* entry count */
        {dir + 42, 0x7FFFFFF0u, 4, "no local header"},        /* local header offset */
        {dir + 20, 0x7FFFFFF0u, 4, "runs past the end"},      /* compressed size */
        {dir + 10, 14, 2, "compression method 14"},           /* LZMA */
        {dir + 24, 10, 4, NULL},                              /* usize lies low: still read whole */
    };
    for (size_t i = 0; i < sizeof lies / sizeof *lies; i++) {
        uint8_t *copy = malloc(z.out.len);
        memcpy(copy, z.out.p, z.out.len);
        for (int k = 0; k < lies[i].width; k++)
            copy[lies[i].at + (size_t)k] = (uint8_t)(lies[i].value >> (8 * k));
        int rc = xlsb_zip_open(&zip, copy, z.out.len, "lie.xlsb", &err);
        if (rc == 0) {
            rc = xlsb_zip_read(&zip, 0, XLSB_PART_MAX, &out, &len, &err);
            if (rc == 0) {
                assert_int_equal(len, sizeof big);
                free(out);
            }
            xlsb_zip_close(&zip);
        }
        if (lies[i].msg != NULL) {
            assert_int_equal(rc, -1);
            if (strstr(err.message, lies[i].msg) == NULL)
                fail_msg("lie %zu: %s", i, err.message);
        } else {
            assert_int_equal(rc, 0);
        }
        free(copy);
    }
    /* Corrupt deflate data. */
    uint8_t *copy = malloc(z.out.len);
    memcpy(copy, z.out.p, z.out.len);
    memset(copy + 30 + 5, 0xFF, 8);
    assert_int_equal(xlsb_zip_open(&zip, copy, z.out.len, "bad.xlsb", &err), 0);
    int rc = xlsb_zip_read(&zip, 0, XLSB_PART_MAX, &out, &len, &err);
    if (rc == 0)
        free(out);   /* 0xFF bytes can still form a valid (different) stream */
    xlsb_zip_close(&zip);
    free(copy);
    /* Not a ZIP at all. */
    assert_int_equal(xlsb_zip_open(&zip, (const uint8_t *)"hello", 5, "x.xlsb", &err), -1);
    assert_non_null(strstr(err.message, "not a ZIP"));
    free(z.out.p);
}

/* ZIP64: the end record points nowhere (0xFFFF...), a locator points at
** the ZIP64 end record, and the entry's sizes and offset come from its
** ZIP64 extra field. */
static void test_zip64(void **state)
{
    (void)state;
    tzip z = {0};
    const char *text = "zip64 entry";
    tzip_add(&z, "big.bin", text, strlen(text), 1);
    tbuf *b = &z.out;
    tzip_entry *e = &z.e[0];
    size_t at = b->len;
    tb_u32(b, 0x02014b50u);
    tb_u16(b, 45);
    tb_u16(b, 45);
    tb_u16(b, 0);
    tb_u16(b, 8);
    tb_u32(b, 0);
    tb_u32(b, e->crc);
    tb_u32(b, 0xFFFFFFFFu);
    tb_u32(b, 0xFFFFFFFFu);
    tb_u16(b, 7);
    tb_u16(b, 4 + 24);
    tb_u16(b, 0);
    tb_u16(b, 0);
    tb_u16(b, 0);
    tb_u32(b, 0);
    tb_u32(b, 0xFFFFFFFFu);
    tb_put(b, "big.bin", 7);
    tb_u16(b, 1);
    tb_u16(b, 24);
    tb_u32(b, e->usize);
    tb_u32(b, 0);
    tb_u32(b, e->csize);
    tb_u32(b, 0);
    tb_u32(b, e->local);
    tb_u32(b, 0);
    size_t dsize = b->len - at, eocd64 = b->len;
    tb_u32(b, 0x06064b50u);
    tb_u32(b, 44);
    tb_u32(b, 0);
    tb_u16(b, 45);
    tb_u16(b, 45);
    tb_u32(b, 0);
    tb_u32(b, 0);
    tb_u32(b, 1);
    tb_u32(b, 0);
    tb_u32(b, 1);
    tb_u32(b, 0);
    tb_u32(b, (uint32_t)dsize);
    tb_u32(b, 0);
    tb_u32(b, (uint32_t)at);
    tb_u32(b, 0);
    tb_u32(b, 0x07064b50u);
    tb_u32(b, 0);
    tb_u32(b, (uint32_t)eocd64);
    tb_u32(b, 0);
    tb_u32(b, 1);
    tb_u32(b, 0x06054b50u);
    tb_u16(b, 0xFFFF);
    tb_u16(b, 0xFFFF);
    tb_u16(b, 0xFFFF);
    tb_u16(b, 0xFFFF);
    tb_u32(b, 0xFFFFFFFFu);
    tb_u32(b, 0xFFFFFFFFu);
    tb_u16(b, 0);
    xlsb_zip zip;
    lt_error err;
    if (xlsb_zip_open(&zip, b->p, b->len, "z64.xlsb", &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(zip.n, 1);
    assert_int_equal(zip.entries[0].usize, strlen(text));
    uint8_t *out;
    size_t len;
    assert_int_equal(xlsb_zip_read(&zip, 0, XLSB_PART_MAX, &out, &len, &err), 0);
    assert_memory_equal(out, text, len);
    free(out);
    xlsb_zip_close(&zip);
    /* A locator pointing outside the file. */
    b->p[b->len - 22 - 20 + 8] = 0xF0;
    assert_int_equal(xlsb_zip_open(&zip, b->p, b->len, "z64.xlsb", &err), -1);
    assert_non_null(strstr(err.message, "ZIP64"));
    free(b->p);
}

/* ---- a whole workbook ------------------------------------------------------------ */

static const char *RELS =
    "<?xml version=\"1.0\"?><Relationships xmlns=\"x\">"
    "<Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" "
    "Target=\"/book/wb.bin\"/></Relationships>";
static const char *WB_RELS =
    "<Relationships><Relationship Target=\"sheets/s1.bin\" Id=\"rId1\" "
    "Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet\"/>"
    "<Relationship Id='rId2' Type='http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings' "
    "Target='strings.bin'/>"
    "<Relationship Id=\"rId3\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/chartsheet\" "
    "Target=\"../charts/c1.bin\"/>"
    "<Relationship Id=\"rId4\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles\" "
    "Target=\"./styles.bin\"/></Relationships>";

static void bundle(tbuf *wb, uint32_t hs, const char *rid, const char *name)
{
    tbuf d = {0};
    tb_u32(&d, hs);
    tb_u32(&d, 1);
    tb_wstr(&d, rid);
    tb_wstr(&d, name);
    tb_rec(wb, XLSB_BUNDLESH, &d);
    free(d.p);
}

/* A BrtName of PtgArea3d r0:r1, c0:c1 through XTI 0 (c1 == UINT32_MAX:
** no formula at all). */
static void defined_name(tbuf *wb, uint32_t flags, uint32_t itab, const char *name, uint32_t r0, uint32_t r1,
                         uint32_t c0, uint32_t c1)
{
    tbuf d = {0};
    tb_u32(&d, flags);
    tb_u8(&d, 0);
    tb_u32(&d, itab);
    tb_wstr(&d, name);
    if (c1 == UINT32_MAX) {
        tb_u32(&d, 0);
    } else {
        tb_u32(&d, 15);
        tb_u8(&d, 0x3B);
        tb_u16(&d, 0);
        tb_u32(&d, r0);
        tb_u32(&d, r1);
        tb_u16(&d, c0);
        tb_u16(&d, c1);
    }
    tb_u32(&d, 0);
    tb_rec(wb, 39, &d);
    free(d.p);
}

static void cell_head(tbuf *d, uint32_t col, uint32_t style)
{
    tb_u32(d, col);
    tb_u32(d, style);
}

static void rowhdr(tbuf *s, uint32_t row)
{
    tbuf d = {0};
    tb_u32(&d, row);
    for (int i = 0; i < 21; i++)
        tb_u8(&d, 0);
    tb_rec(s, XLSB_ROWHDR, &d);
    free(d.p);
}

static void build_workbook(tbuf *out)
{
    tbuf wb = {0}, sst = {0}, sty = {0}, sh = {0}, d = {0};
    /* workbook.bin: a worksheet and a chart sheet */
    tb_u32(&d, 0);
    tb_rec(&wb, XLSB_WBPROP, &d);
    d.len = 0;
    bundle(&wb, 1, "rId1", "Data");
    bundle(&wb, 0, "rId3", "Chart");
    /* the externals: this workbook, one XTI for its first sheet */
    tb_rec(&wb, 357, NULL);
    tb_u32(&d, 1);
    tb_u32(&d, 0);
    tb_u32(&d, 0);
    tb_u32(&d, 0);
    tb_rec(&wb, 362, &d);
    d.len = 0;
    /* names: a sheet-level one (listed after the workbook's), two ranges,
    ** then a hidden one, a constant, sheet-level ones of the chart sheet,
    ** past the sheets and hidden */
    defined_name(&wb, 0, 0, "Local", 1, 3, 2, 3);
    defined_name(&wb, 0, UINT32_MAX, "Block", 1, 4, 1, 2);
    defined_name(&wb, 0, UINT32_MAX, "Whole", 0, 1048575, 3, 3);
    defined_name(&wb, 1, UINT32_MAX, "Hidden", 1, 4, 1, 2);
    defined_name(&wb, 0, UINT32_MAX, "Const", 0, 0, 0, UINT32_MAX);
    defined_name(&wb, 0, 1, "OnChart", 1, 4, 1, 2);
    defined_name(&wb, 0, 7, "Far", 1, 4, 1, 2);
    defined_name(&wb, 1, 0, "HiddenLocal", 1, 4, 1, 2);
    /* shared strings: rich "Hello" (2 runs), plain "World", phonetic "caf\xe9" */
    tb_u8(&d, 1);
    tb_wstr(&d, "Hello");
    tb_u32(&d, 2);
    tb_u32(&d, 0x00010000);
    tb_u32(&d, 0x00020003);
    tb_rec(&sst, XLSB_SST_ITEM, &d);
    d.len = 0;
    tb_u8(&d, 0);
    tb_wstr(&d, "World");
    tb_rec(&sst, XLSB_SST_ITEM, &d);
    d.len = 0;
    tb_u8(&d, 2);
    tb_wstr(&d, "caf\xe9");
    tb_wstr(&d, "kafe");
    tb_u32(&d, 0);
    tb_rec(&sst, XLSB_SST_ITEM, &d);
    d.len = 0;
    /* styles: a custom date-time format on XF 1 (a style XF before it is not a cell XF) */
    tb_u16(&d, 164);
    tb_wstr(&d, "yyyy-mm-dd hh:mm");
    tb_rec(&sty, XLSB_FMT, &d);
    d.len = 0;
    tb_u32(&d, 1);
    tb_rec(&sty, 626, &d);   /* BrtBeginCellStyleXFs */
    d.len = 0;
    tb_u16(&d, 0xFFFF);
    tb_u16(&d, 14);
    for (int i = 0; i < 12; i++)
        tb_u8(&d, 0);
    tb_rec(&sty, XLSB_XF, &d);
    tb_rec(&sty, 627, NULL);
    d.len = 0;
    tb_u32(&d, 2);
    tb_rec(&sty, XLSB_BEGIN_CELLXFS, &d);
    for (int x = 0; x < 2; x++) {
        d.len = 0;
        tb_u16(&d, 0);
        tb_u16(&d, x ? 164 : 0);
        for (int i = 0; i < 12; i++)
            tb_u8(&d, 0);
        tb_rec(&sty, XLSB_XF, &d);
    }
    tb_rec(&sty, XLSB_END_CELLXFS, NULL);
    /* the sheet, starting at B2 (row 1, column 1) */
    tb_rec(&sh, XLSB_BEGIN_SHEETDATA, NULL);
    rowhdr(&sh, 1);
    d.len = 0;
    cell_head(&d, 1, 0);
    tb_u32(&d, 0);
    tb_rec(&sh, XLSB_CELL_ISST, &d);          /* B2 "Hello" */
    d.len = 0;
    tb_u32(&d, 0);
    tb_u32(&d, 1);
    tb_rec(&sh, XLSB_SHORT_ISST, &d);         /* C2 "World" */
    d.len = 0;
    tb_u32(&d, 0);
    tb_u32(&d, (42u << 2) | 2);
    tb_rec(&sh, XLSB_SHORT_RK, &d);           /* D2 42 */
    rowhdr(&sh, 2);
    d.len = 0;
    cell_head(&d, 1, 1);
    tb_f64(&d, 45000.5);
    tb_rec(&sh, XLSB_CELL_REAL, &d);          /* B3 2023-03-15 12:00 */
    d.len = 0;
    cell_head(&d, 2, 0);
    tb_rec(&sh, XLSB_CELL_BLANK, &d);         /* C3 formatted blank */
    d.len = 0;
    tb_u32(&d, 0);
    tb_u8(&d, 1);
    tb_rec(&sh, XLSB_SHORT_BOOL, &d);         /* D3 TRUE */
    rowhdr(&sh, 4);
    d.len = 0;
    cell_head(&d, 1, 0);
    tb_u8(&d, 0x2A);
    tb_u16(&d, 0);
    tb_u32(&d, 0);
    tb_u32(&d, 0);
    tb_rec(&sh, XLSB_FMLA_ERROR, &d);         /* B5 #N/A */
    d.len = 0;
    cell_head(&d, 2, 0);
    tb_wstr(&d, "inl\xefne");
    tb_rec(&sh, XLSB_CELL_ST, &d);            /* C5 inline */
    d.len = 0;
    cell_head(&d, 3, 0);
    tb_f64(&d, 3.5);
    tb_u16(&d, 0);
    tb_u32(&d, 0);
    tb_u32(&d, 0);
    tb_rec(&sh, XLSB_FMLA_NUM, &d);           /* D5 =3.5 */
    tb_rec(&sh, XLSB_END_SHEETDATA, NULL);
    rowhdr(&sh, 9);                           /* after the sheet data: not read */
    d.len = 0;
    cell_head(&d, 9, 0);
    tb_u32(&d, (1u << 2) | 2);
    tb_rec(&sh, XLSB_CELL_RK, &d);

    tzip z = {0};
    tzip_add(&z, "_rels/.rels", RELS, strlen(RELS), 1);
    tzip_add(&z, "book/_rels/wb.bin.rels", WB_RELS, strlen(WB_RELS), 0);
    tzip_add(&z, "book/wb.bin", wb.p, wb.len, 1);
    tzip_add(&z, "book/strings.bin", sst.p, sst.len, 1);
    tzip_add(&z, "book/styles.bin", sty.p, sty.len, 0);
    tzip_add(&z, "book/sheets/s1.bin", sh.p, sh.len, 1);
    tzip_finish(&z);
    *out = z.out;
    free(wb.p);
    free(sst.p);
    free(sty.p);
    free(sh.p);
    free(d.p);
}

/* Column `c` of the table as "v1|v2|..." (NULL as "-"). */
static void column_text(lt_source *src, uint32_t ti, uint32_t c, char *out, size_t cap)
{
    const lt_table *t = &src->tables[ti];
    lt_type type = t->cols[c].type;
    lt_scan_spec spec = {.table = ti, .ncols = 1, .cols = &c, .limit = -1};
    lt_batch *batch = lt_batch_new(1, &type, NULL, 2);
    lt_scan *scan;
    lt_error err;
    assert_int_equal(src->reader->scan_open(src, &spec, &scan, &err), 0);
    out[0] = '\0';
    while (src->reader->scan_next(scan, batch, &err) == 0 && batch->count > 0) {
        for (uint32_t r = 0; r < batch->count; r++) {
            lt_value v;
            lt_batch_get(batch, 0, r, &v);
            size_t n = strlen(out);
            if (v.type == LT_NULL)
                snprintf(out + n, cap - n, "%s-", n ? "|" : "");
            else if (v.type == LT_TEXT)
                snprintf(out + n, cap - n, "%s%.*s", n ? "|" : "", (int)v.u.bytes.len, v.u.bytes.ptr);
            else if (v.type == LT_DOUBLE)
                snprintf(out + n, cap - n, "%s%g", n ? "|" : "", v.u.f64);
            else if (v.type == LT_TIMESTAMP)
                snprintf(out + n, cap - n, "%s%lld", n ? "|" : "", (long long)v.u.i64);
            else
                snprintf(out + n, cap - n, "%s?", n ? "|" : "");
        }
    }
    src->reader->scan_close(scan);
    lt_batch_free(batch);
}

static void test_workbook(void **state)
{
    (void)state;
    tbuf wb;
    build_workbook(&wb);
    lt_option no[1] = {{"HDR", "No"}};
    lt_options opts = {1, no};
    lt_source *src;
    lt_error err;
    if (lt_xlsb_open_memory(wb.p, wb.len, "unit.xlsb", &opts, &src, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(src->ntables, 4);     /* the chart sheet is no table; 3 names are */
    const lt_table *t = &src->tables[0];
    assert_string_equal(t->name, "Data$");
    assert_int_equal(t->ncols, 3);         /* B..D */
    assert_int_equal(t->row_estimate, 4);  /* rows 2..5, row 4 empty */
    assert_string_equal(t->cols[0].name, "F1");
    char buf[512];
    column_text(src, 0, 0, buf, sizeof buf);
    assert_string_equal(buf, "Hello|2023-03-15 12:00:00|-|-");
    column_text(src, 0, 1, buf, sizeof buf);
    assert_string_equal(buf, "World|-|-|inl\xc3\xafne");
    column_text(src, 0, 2, buf, sizeof buf);
    assert_string_equal(buf, "42|TRUE|-|3.5");
    /* Block = B2:C5: the rectangle; Whole = D:D, its rows cut after the last value. */
    assert_string_equal(src->tables[1].name, "Block");
    assert_int_equal(src->tables[1].ncols, 2);
    assert_int_equal(src->tables[1].row_estimate, 4);
    column_text(src, 1, 1, buf, sizeof buf);
    assert_string_equal(buf, "World|-|-|inl\xc3\xafne");
    assert_string_equal(src->tables[2].name, "Whole");
    assert_int_equal(src->tables[2].ncols, 1);
    assert_int_equal(src->tables[2].row_estimate, 5);
    column_text(src, 2, 0, buf, sizeof buf);
    assert_string_equal(buf, "-|42|TRUE|-|3.5");
    /* the sheet-level Local = C2:D4 of Data, as ACE names it */
    assert_string_equal(src->tables[3].name, "Data$Local");
    assert_string_equal(src->tables[3].kind, "TABLE");
    assert_int_equal(src->tables[3].ncols, 2);
    column_text(src, 3, 1, buf, sizeof buf);
    assert_string_equal(buf, "42|TRUE");
    assert_int_equal(lt_source_find_table(src, "data$LOCAL", 10), 3);
    assert_int_equal(lt_source_find_table(src, "Local", 5), -1);
    assert_int_equal(lt_source_find_table(src, "Chart$OnChart", 13), -1);
    src->reader->close(src);

    /* HDR=Yes: names from row 2, types from the rest. */
    assert_int_equal(lt_xlsb_open_memory(wb.p, wb.len, "unit.xlsb", NULL, &src, &err), 0);
    t = &src->tables[0];
    assert_string_equal(t->cols[0].name, "Hello");
    assert_string_equal(t->cols[1].name, "World");
    assert_string_equal(t->cols[2].name, "42");
    assert_int_equal(t->cols[0].type, LT_TIMESTAMP);
    assert_int_equal(t->cols[1].type, LT_TEXT);
    assert_int_equal(t->cols[1].size, 6);
    assert_int_equal(t->row_estimate, 3);
    column_text(src, 0, 0, buf, sizeof buf);
    assert_string_equal(buf, "1678881600000000|-|-");
    src->reader->close(src);

    /* Every truncation and many bit flips fail cleanly or read. */
    for (size_t cut = 0; cut < wb.len; cut += 7) {
        uint8_t *copy = malloc(cut ? cut : 1);
        memcpy(copy, wb.p, cut);
        if (lt_xlsb_open_memory(copy, cut, "cut.xlsb", &opts, &src, &err) == 0)
            src->reader->close(src);
        else
            assert_non_null(strstr(err.message, "cut.xlsb"));
        free(copy);
    }
    free(wb.p);
}

/* Table `name` (looked up as a query names it) as "v|v;v|v", NULL as "-",
** a value of another type than its column's (TypeGuessRows) with "[t]". */
static void table_text(lt_source *src, const char *name, char *out, size_t cap)
{
    lt_error err;
    int64_t ti = lt_source_find_table_err(src, name, strlen(name), &err);
    if (ti < 0)
        fail_msg("%s: %s", name, err.message);
    const lt_table *t = &src->tables[ti];
    ts_result res;
    ts_scan(src, (uint32_t)ti, 3, &res);
    if (!res.ok)
        fail_msg("%s: %s", name, res.message);
    size_t n = 0;
    out[0] = '\0';
    for (size_t r = 0; r < res.rows.n; r++)
        for (size_t c = 0; c < res.rows.rows[r].n; c++) {
            const ts_cell *cell = &res.rows.rows[r].cells[c];
            n += (size_t)snprintf(out + n, cap - n, "%s%s", c ? "|" : r ? ";" : "", cell->null ? "-" : cell->text);
            if (!cell->null && cell->type != t->cols[c].type)
                n += (size_t)snprintf(out + n, cap - n, "[%d]", (int)cell->type);
        }
    ts_result_free(&res);
}

/* Ranges named in a query, and TypeGuessRows, on the workbook above. */
static void test_ranges(void **state)
{
    (void)state;
    tbuf wb;
    build_workbook(&wb);
    lt_option no[2] = {{"HDR", "No"}, {"TypeGuessRows", "0"}};
    lt_options opts = {2, no};
    lt_source *src;
    lt_error err;
    if (lt_xlsb_open_memory(wb.p, wb.len, "unit.xlsb", &opts, &src, &err) != 0)
        fail_msg("%s", err.message);
    char buf[512];
    uint32_t listed = src->ntables;
    table_text(src, "Data$B2:C3", buf, sizeof buf);
    assert_string_equal(buf, "Hello|World;2023-03-15 12:00:00|-");
    table_text(src, "Data$D:D", buf, sizeof buf);
    assert_string_equal(buf, "-;42;TRUE;-;3.5");
    table_text(src, "'Data'$C5:D", buf, sizeof buf);
    assert_string_equal(buf, "inl\xc3\xafne|3.5");
    int64_t ti = lt_source_find_table(src, "Data$A1:A1", 10);
    assert_true(ti >= listed);
    assert_int_equal(src->tables[ti].ncols, 1);
    assert_int_equal(src->tables[ti].row_estimate, 0);
    table_text(src, "Data$A1:A1", buf, sizeof buf);
    assert_string_equal(buf, "");
    assert_int_equal(lt_source_find_table(src, "data$a1:a1", 10), ti);
    assert_int_equal(src->ntables, listed);
    assert_int_equal(lt_source_find_table_err(src, "Data$B2:C1048577", 16, &err), -1);
    assert_string_equal(err.sqlstate, "HY000");
    assert_non_null(strstr(err.message, "outside the sheet"));
    assert_int_equal(lt_source_find_table_err(src, "Data$B2:", 8, &err), -1);
    assert_string_equal(err.sqlstate, "42000");
    assert_non_null(strstr(err.message, "Data$B2:"));
    /* a chart sheet has no cells to take a range of */
    assert_int_equal(lt_source_find_table_err(src, "Chart$A1:B2", 11, &err), -1);
    assert_string_equal(err.sqlstate, "42S02");
    src->reader->close(src);

    /* HDR=Yes and TypeGuessRows=1: row 2 the header, D typed from row 3's
    ** TRUE alone; row 5's 3.5 comes as a DOUBLE, not NULL. */
    lt_option guess[1] = {{"TypeGuessRows", "1"}};
    opts.count = 1;
    opts.items = guess;
    assert_int_equal(lt_xlsb_open_memory(wb.p, wb.len, "unit.xlsb", &opts, &src, &err), 0);
    ti = lt_source_find_table(src, "Data$A1:D", 9);
    assert_true(ti >= 0);
    assert_string_equal(src->tables[ti].cols[3].name, "F4");
    table_text(src, "Data$A2:D", buf, sizeof buf);
    assert_string_equal(buf, "-|2023-03-15 12:00:00|-|1;-|-|-|-;-|-|inl\xc3\xafne|3.5[3]");
    ti = lt_source_find_table(src, "Data$A2:D", 9);
    assert_int_equal(src->tables[ti].cols[3].type, LT_BOOL);
    assert_string_equal(src->tables[ti].cols[3].name, "42");
    assert_int_equal(src->tables[ti].cols[1].type, LT_TIMESTAMP);
    src->reader->close(src);
    free(wb.p);
}

/* A sheet much larger than the stream's window: 60,000 rows of a number
** and an inline string, read in batches of 1,000 and of 7 (cells that
** cross a batch and a window boundary alike). */
static void test_long_sheet(void **state)
{
    (void)state;
    tbuf wb = {0}, sh = {0}, d = {0};
    bundle(&wb, 0, "rId1", "Long");
    tb_rec(&sh, XLSB_BEGIN_SHEETDATA, NULL);
    char text[32];
    const uint32_t rows = 60000;
    for (uint32_t r = 0; r < rows; r++) {
        rowhdr(&sh, r);
        d.len = 0;
        cell_head(&d, 0, 0);
        tb_u32(&d, (r << 2) | 2);
        tb_rec(&sh, XLSB_CELL_RK, &d);
        d.len = 0;
        tb_u32(&d, 0);
        snprintf(text, sizeof text, "row %u", (unsigned)r);
        tb_wstr(&d, text);
        tb_rec(&sh, XLSB_SHORT_ST, &d);
    }
    tb_rec(&sh, XLSB_END_SHEETDATA, NULL);
    tzip z = {0};
    tzip_add(&z, "_rels/.rels", RELS, strlen(RELS), 0);
    tzip_add(&z, "book/_rels/wb.bin.rels", WB_RELS, strlen(WB_RELS), 0);
    tzip_add(&z, "book/wb.bin", wb.p, wb.len, 0);
    tzip_add(&z, "book/sheets/s1.bin", sh.p, sh.len, 1);
    tzip_finish(&z);
    assert_true(sh.len > 4 * 256 * 1024);
    lt_option no[1] = {{"HDR", "No"}};
    lt_options opts = {1, no};
    lt_source *src;
    lt_error err;
    if (lt_xlsb_open_memory(z.out.p, z.out.len, "long.xlsb", &opts, &src, &err) != 0)
        fail_msg("%s", err.message);
    const lt_table *t = &src->tables[0];
    assert_int_equal(t->ncols, 2);
    assert_int_equal(t->row_estimate, rows);
    assert_int_equal(t->cols[0].type, LT_INT64);
    assert_int_equal(t->cols[1].type, LT_TEXT);
    assert_int_equal(t->cols[1].size, 9);
    static const uint32_t caps[] = {1000, 7};
    for (size_t k = 0; k < 2; k++) {
        uint32_t cols[2] = {1, 0};
        lt_type types[2] = {LT_TEXT, LT_INT64};
        lt_scan_spec spec = {.table = 0, .ncols = 2, .cols = cols, .limit = -1};
        lt_batch *batch = lt_batch_new(2, types, NULL, caps[k]);
        lt_scan *scan;
        assert_int_equal(src->reader->scan_open(src, &spec, &scan, &err), 0);
        uint32_t seen = 0;
        while (src->reader->scan_next(scan, batch, &err) == 0 && batch->count > 0) {
            for (uint32_t r = 0; r < batch->count; r++, seen++) {
                assert_int_equal(batch->cols[1].v.i64[r], seen);
                snprintf(text, sizeof text, "row %u", (unsigned)seen);
                lt_bytes b = batch->cols[0].v.bytes[r];
                assert_int_equal(b.len, strlen(text));
                assert_memory_equal(b.ptr, text, b.len);
            }
        }
        assert_int_equal(seen, rows);
        src->reader->scan_close(scan);
        lt_batch_free(batch);
    }
    src->reader->close(src);
    free(z.out.p);
    free(wb.p);
    free(sh.p);
    free(d.p);
}

static void test_shared_strings(void **state)
{
    (void)state;
    tbuf wb;
    build_workbook(&wb);
    lt_source *src;
    lt_error err;
    assert_int_equal(lt_xlsb_open_memory(wb.p, wb.len, "unit.xlsb", NULL, &src, &err), 0);
    const xlsb_source *x = (const xlsb_source *)src;
    assert_int_equal(x->nsst, 3);
    const char *want[3] = {"Hello", "World", "caf\xc3\xa9"};
    for (uint32_t i = 0; i < 3; i++) {
        assert_int_equal(x->sst_off[i + 1] - x->sst_off[i], strlen(want[i]));
        assert_memory_equal(x->sst_text + x->sst_off[i], want[i], strlen(want[i]));
    }
    assert_int_equal(x->sst_units[2], 4);
    assert_false(x->date1904);
    src->reader->close(src);
    free(wb.p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_header),
        cmocka_unit_test(test_rk),
        cmocka_unit_test(test_utf16),
        cmocka_unit_test(test_zip_entries),
        cmocka_unit_test(test_zip_lies),
        cmocka_unit_test(test_zip64),
        cmocka_unit_test(test_workbook),
        cmocka_unit_test(test_ranges),
        cmocka_unit_test(test_shared_strings),
        cmocka_unit_test(test_long_sheet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
