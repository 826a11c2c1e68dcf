/*
** test_xls_names.c — defined names of .xls workbooks as tables: sheet-level
** names listed as "<sheet>$<name>" (the ACE driver's form) after the
** workbook-level ones, in BIFF8 (8-bit and UTF-16 names) and BIFF5/7
** (NAME without the string-flags byte, 8-bit names in the CODEPAGE,
** tRef3d/tArea3d with a signed EXTERNSHEET index and the sheet indexes
** inline), on files built by hand and on the corpus's names files.
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
#include "test_xls_build.h"
#include "xls/xls.h"

/* ---- building workbooks ----------------------------------------------------------- */

static void name5(xb *s, unsigned flags, unsigned itab, const char *name, const xb *rgce)
{
    xb_name(s, 0, flags, itab, name, strlen(name), 0, rgce);
}

/* BIFF5 tArea3d (class `ptg`: 0x3B reference, 0x5B value ...) and tRef3d:
** EXTERNSHEET index (negative: this workbook), 8 unused bytes, the first
** and last sheet, then rows with the relative flags in their top bits. */
static void area5(xb *f, unsigned ptg, int ixals, unsigned s0, unsigned s1, unsigned r0, unsigned r1,
                  unsigned c0, unsigned c1)
{
    xb_u8(f, ptg);
    xb_u16(f, (unsigned)(uint16_t)ixals);
    for (int i = 0; i < 8; i++)
        xb_u8(f, 0);
    xb_u16(f, s0);
    xb_u16(f, s1);
    xb_u16(f, r0);
    xb_u16(f, r1);
    xb_u8(f, c0);
    xb_u8(f, c1);
}

static void ref5(xb *f, int ixals, unsigned sheet, unsigned row, unsigned col)
{
    xb_u8(f, 0x3A);
    xb_u16(f, (unsigned)(uint16_t)ixals);
    for (int i = 0; i < 8; i++)
        xb_u8(f, 0);
    xb_u16(f, sheet);
    xb_u16(f, sheet);
    xb_u16(f, row | 0xC000);    /* relative flags: ignored */
    xb_u8(f, col);
}

/* A sheet of labels and numbers: row 0 "k","v", rows 1..n: base+r, "t<r>". */
static void sheet_cells(xb *s, int biff8, unsigned base, unsigned n)
{
    xb_bof(s, biff8 ? 0x0600 : 0x0500, 0x0010);
    xb_label(s, 0, 0, "k", biff8);
    xb_label(s, 0, 1, "v", biff8);
    for (unsigned r = 1; r <= n; r++) {
        char t[16];
        snprintf(t, sizeof t, "t%u", base + r);
        xb_number(s, r, 0, 0, base + r);
        xb_label(s, r, 1, t, biff8);
    }
    xb_empty(s, 0x000A);
}

/*
** BIFF8: sheets Data (k 1..3) and Other (k 11..12).  Names: Amounts =
** Data!B1:B4 (workbook); Local scoped to Data = Data!A1:B3; Local scoped
** to Other = Other!A1:A3; "Zürich" (UTF-16) scoped to Other = Data!A1:A2;
** left out: a hidden and a built-in sheet-level name, a scope past the
** sheets, one scoped to the chart sheet Graph, a sheet-level constant.
*/
static void build8(xb *file)
{
    xb s = {0};
    xb_bof(&s, 0x0600, 0x0005);
    xb_xf(&s, 0);
    size_t ply[3];
    ply[0] = xb_boundsheet(&s, "Data", 0, 0, 1);
    ply[1] = xb_boundsheet(&s, "Other", 0, 0, 1);
    ply[2] = xb_boundsheet(&s, "Graph", 0, 2, 1);   /* a chart sheet */
    xb d = {0};
    xb_u16(&d, 2);
    xb_u16(&d, 0x0401);
    xb_rec(&s, 0x01AE, &d);                  /* SUPBOOK: this workbook */
    xb_free(&d);
    xb_u16(&d, 2);
    for (unsigned i = 0; i < 2; i++) {       /* XTI i: sheet i */
        xb_u16(&d, 0);
        xb_u16(&d, i);
        xb_u16(&d, i);
    }
    xb_rec(&s, 0x0017, &d);
    xb_free(&d);
    xb f = {0};
    xb_area3d(&f, 0, 0, 2, 0, 1);
    xb_name8(&s, 0, 1, "Local", &f);            /* before the workbook name: listed after it */
    xb_name8(&s, 0x0001, 1, "Hidden", &f);
    xb_name8(&s, 0x0021, 1, "\x0D", &f);        /* built-in _FilterDatabase */
    xb_name8(&s, 0, 9, "Nowhere", &f);          /* itab past the sheets */
    xb_name8(&s, 0, 3, "OnGraph", &f);          /* scoped to the chart sheet */
    xb_free(&f);
    xb_area3d(&f, 0, 0, 3, 1, 1);
    xb_name8(&s, 0, 0, "Amounts", &f);
    xb_free(&f);
    xb_area3d(&f, 1, 0, 2, 0, 0);
    xb_name8(&s, 0, 2, "Local", &f);
    xb_free(&f);
    xb_area3d(&f, 0, 0, 1, 0, 0);
    static const char zurich[] = "Z\0\xFC\0r\0i\0c\0h\0";
    xb_name(&s, 1, 0, 2, zurich, 6, 1, &f);
    xb_free(&f);
    xb_u8(&f, 0x1E);                         /* ptgInt: a constant */
    xb_u16(&f, 10);
    xb_name8(&s, 0, 1, "Ten", &f);
    xb_free(&f);
    xb_empty(&s, 0x000A);
    xb_set32(&s, ply[0], (uint32_t)s.len);
    sheet_cells(&s, 1, 0, 3);
    xb_set32(&s, ply[1], (uint32_t)s.len);
    sheet_cells(&s, 1, 10, 2);
    xb_set32(&s, ply[2], (uint32_t)s.len);
    xb_bof(&s, 0x0600, 0x0020);
    xb_empty(&s, 0x000A);
    memset(file, 0, sizeof *file);
    xb_cfb(file, "Workbook", s.p, s.len, XB_MINI);
    xb_free(&s);
}

/*
** BIFF5, CODEPAGE 1251: sheets "Лист" (k 1..3) and Two (k 21..22).
** Names: Sales = Лист!A1:B3 (a value-class tArea3d), "Цена" = Two!B2,
** Loc scoped to Two = Лист!A1:A4; left out: an external reference (a
** positive EXTERNSHEET index), an area over two sheets, a hidden name.
*/
static void build5(xb *file)
{
    xb s = {0};
    xb_bof(&s, 0x0500, 0x0005);
    xb_u16rec(&s, 0x0042, 1251);             /* CODEPAGE */
    xb_xf(&s, 0);
    size_t ply[2];
    ply[0] = xb_boundsheet(&s, "\xCB\xE8\xF1\xF2", 0, 0, 0);
    ply[1] = xb_boundsheet(&s, "Two", 0, 0, 0);
    xb f = {0};
    area5(&f, 0x5B, -1, 0, 0, 0, 2, 0, 1);
    name5(&s, 0, 0, "Sales", &f);
    name5(&s, 0x0001, 0, "Secret", &f);
    xb_free(&f);
    area5(&f, 0x3B, 1, 0, 0, 0, 2, 0, 1);
    name5(&s, 0, 0, "Ext", &f);
    xb_free(&f);
    area5(&f, 0x3B, -1, 0, 1, 0, 2, 0, 1);
    name5(&s, 0, 0, "Span", &f);
    xb_free(&f);
    ref5(&f, -2, 1, 1, 1);
    name5(&s, 0, 0, "\xD6\xE5\xED\xE0", &f);
    xb_free(&f);
    area5(&f, 0x3B, -1, 0, 0, 0, 3, 0, 0);
    name5(&s, 0, 2, "Loc", &f);
    xb_free(&f);
    xb_empty(&s, 0x000A);
    xb_set32(&s, ply[0], (uint32_t)s.len);
    sheet_cells(&s, 0, 0, 3);
    xb_set32(&s, ply[1], (uint32_t)s.len);
    sheet_cells(&s, 0, 20, 2);
    memset(file, 0, sizeof *file);
    xb_cfb(file, "Book", s.p, s.len, XB_MINI);
    xb_free(&s);
}

/* ---- reading ----------------------------------------------------------------------- */

static lt_source *open_book(const xb *file, const char *hdr)
{
    lt_option items[1] = {{"HDR", hdr}};
    lt_options opts = {1, items};
    lt_source *src;
    lt_error err;
    if (lt_xls_open_memory(file->p, file->len, "names.xls", &opts, &src, &err) != 0)
        fail_msg("open: %s", err.message);
    return src;
}

static void expect_listing(const lt_source *src, const char *want)
{
    char *got = ts_table_names(src);
    if (strcmp(got, want) != 0)
        fail_msg("tables:\n got  %s\n want %s", got, want);
    free(got);
    for (uint32_t i = 0; i < src->ntables; i++)
        assert_string_equal(src->tables[i].kind, "TABLE");
}

/* The table `name` as "col|col;v|v;v|v" (NULL as "-"). */
static void expect_rows(lt_source *src, const char *name, const char *want)
{
    char *got = ts_table_text(src, name, 64, false);
    if (strcmp(got, want) != 0)
        fail_msg("%s:\n got  %s\n want %s", name, got, want);
    free(got);
}

static void expect_absent(lt_source *src, const char *name)
{
    assert_int_equal(lt_source_find_table(src, name, strlen(name)), -1);
}

/* ---- BIFF8 ------------------------------------------------------------------------- */

static void test_biff8_sheet_level(void **state)
{
    (void)state;
    xb file;
    build8(&file);
    lt_source *src = open_book(&file, "Yes");
    expect_listing(src, "Data$|Other$|Amounts|Data$Local|Other$Local|Other$Z\xC3\xBCrich");
    expect_rows(src, "Amounts", "v;t1;t2;t3");
    expect_rows(src, "Data$Local", "k|v;1|t1;2|t2");
    expect_rows(src, "data$LOCAL", "k|v;1|t1;2|t2");
    expect_rows(src, "Other$Local", "k;11;12");
    expect_rows(src, "Other$Z\xC3\xBC" "rich", "k;1");
    /* the scope is part of the name: no bare "Local", no hidden names */
    expect_absent(src, "Local");
    expect_absent(src, "Data$Hidden");
    expect_absent(src, "Data$Ten");
    expect_absent(src, "Nowhere");
    expect_absent(src, "Graph$OnGraph");
    src->reader->close(src);

    src = open_book(&file, "No");
    expect_rows(src, "Data$Local", "F1|F2;k|v;1|t1;2|t2");
    src->reader->close(src);
    xb_free(&file);
}

/* ---- BIFF5 ------------------------------------------------------------------------- */

static void test_biff5_names(void **state)
{
    (void)state;
    xb file;
    build5(&file);
    lt_source *src = open_book(&file, "Yes");
    expect_listing(src, "\xD0\x9B\xD0\xB8\xD1\x81\xD1\x82$|Two$|Sales|"
                        "\xD0\xA6\xD0\xB5\xD0\xBD\xD0\xB0|Two$Loc");
    expect_rows(src, "Sales", "k|v;1|t1;2|t2");
    expect_rows(src, "\xD0\xA6\xD0\xB5\xD0\xBD\xD0\xB0", "t21");
    expect_rows(src, "Two$Loc", "k;1;2;3");
    expect_absent(src, "Ext");
    expect_absent(src, "Span");
    expect_absent(src, "Secret");
    src->reader->close(src);
    xb_free(&file);
}

/* Malformed names are left out, never read past their record. */
static void test_biff5_malformed(void **state)
{
    (void)state;
    for (size_t cut = 0; cut < 21; cut++) {
        xb s = {0};
        xb_bof(&s, 0x0500, 0x0005);
        xb_xf(&s, 0);
        size_t ply = xb_boundsheet(&s, "S", 0, 0, 0);
        xb f = {0};
        area5(&f, 0x3B, -1, 0, 0, 0, 2, 0, 1);
        f.len = cut;                          /* a formula cut short */
        name5(&s, 0, 0, "Cut", &f);
        xb_free(&f);
        area5(&f, 0x3B, -1, 7, 7, 0, 2, 0, 1);  /* a sheet past the last */
        name5(&s, 0, 0, "Far", &f);
        area5(&f, 0x3B, -1, 0, 0, 5, 2, 0, 1);  /* ends before it starts */
        name5(&s, 0, 0, "Back", &f);
        xb_free(&f);
        xb_empty(&s, 0x000A);
        xb_set32(&s, ply, (uint32_t)s.len);
        sheet_cells(&s, 0, 0, 2);
        xb file;
        memset(&file, 0, sizeof file);
        xb_cfb(&file, "Book", s.p, s.len, XB_MINI);
        xb_free(&s);
        lt_source *src = open_book(&file, "Yes");
        expect_listing(src, "S$");
        src->reader->close(src);
        xb_free(&file);
    }
}

/* ---- the corpus -------------------------------------------------------------------- */

static lt_source *open_corpus(const char *file)
{
    return ts_open(&lt_xls_reader, file, NULL);
}

/* xlrd's names demo: three sheet-level names that differ only in case,
** one on each of Sheet1..Sheet3, listed after the workbook-level ones. */
static void test_corpus_sheet_level(void **state)
{
    (void)state;
    lt_source *src = open_corpus(LT_CORPUS_DIR "/xls/xlrd_namesdemo.xls");
    expect_listing(src, "Sheet1$|Sheet2$|Sheet3$|Seamus O'Reilly$|A1Z10|Apostrophe|Expenses|Profit|"
                        "rectangle1|rectangle2|RelativePos|Sales|Year_Tot|"
                        "Sheet1$LocalRange|Sheet2$localRange|Sheet3$Localrange");
    /* Sheet1!A1, Sheet2!B2 and Sheet3!C3: empty cells (Sheet1's value is
    ** in A12, Sheet2 is empty, Sheet3's C3 is blank) */
    expect_rows(src, "Sheet1$LocalRange", "F1");
    expect_rows(src, "sheet2$localrange", "F1");
    expect_rows(src, "Sheet3$Localrange", "F1");
    src->reader->close(src);
}

/* calamine's BIFF7 workbook names L17 of its tenth (empty) sheet "test". */
static void test_corpus_biff7(void **state)
{
    (void)state;
    lt_source *src = open_corpus(LT_CORPUS_DIR "/xls/calamine_biff7_many_sheets.xls");
    assert_int_equal(src->ntables, 12);
    assert_string_equal(src->tables[11].name, "test");
    expect_rows(src, "test", "F1");
    src->reader->close(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_biff8_sheet_level),
        cmocka_unit_test(test_biff5_names),
        cmocka_unit_test(test_biff5_malformed),
        cmocka_unit_test(test_corpus_sheet_level),
        cmocka_unit_test(test_corpus_biff7),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
