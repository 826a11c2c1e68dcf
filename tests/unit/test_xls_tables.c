/*
** test_xls_tables.c — the tables of a workbook beyond its worksheets, on
** .xls files built by hand: ranges named in a query ("Data$A1:C3",
** "Data$B2:C", "Data$A:B", quoted sheet names, ranges outside the data,
** malformed ranges: 42000, outside the sheet: HY000), defined names (NAME
** records through SUPBOOK/EXTERNSHEET; hidden, built-in and constant names
** are no tables, sheet-level ones are "<sheet>$<name>"), TypeGuessRows=
** (types from the first N rows, later values that do not fit delivered with their own type, never NULL), and threads
** making and reading ranges of one shared source at once (run under TSan).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "support/corpus.h"
#include "test_xls_build.h"
#include "xls/xls.h"

/* ---- building the workbook ---------------------------------------------------- */

/*
** Sheet "Data" (and "My Sheet", a copy of it):
**     A      B      C
** 1   id     name   amount
** 2   1      a      1.5
** 3   2      b      2.5
** 4   3      c      n/a
** 6   7                       (A6: a lone number)
** plus names: Amounts = Data!C1:C4, Corner = Data!A1:B2 (ptgRef3d-free),
** hidden Secret, built-in Print_Area, sheet-level Local, constant Ten.
*/
static void build(xb *file, bool names)
{
    xb s = {0};
    xb_bof(&s, 0x0600, 0x0005);
    xb_xf(&s, 0);
    size_t ply[2];
    ply[0] = xb_boundsheet(&s, "Data", 0, 0, 1);
    ply[1] = xb_boundsheet(&s, "My Sheet", 0, 0, 1);
    if (names) {
        xb d = {0};
        xb_u16(&d, 2);
        xb_u16(&d, 0x0401);
        xb_rec(&s, 0x01AE, &d);              /* SUPBOOK: this workbook */
        xb_free(&d);
        xb_u16(&d, 2);
        for (int i = 0; i < 2; i++) {        /* XTI 0: Data, XTI 1: My Sheet */
            xb_u16(&d, 0);
            xb_u16(&d, (unsigned)i);
            xb_u16(&d, (unsigned)i);
        }
        xb_rec(&s, 0x0017, &d);
        xb_free(&d);
        xb f = {0};
        xb_area3d(&f, 0, 0, 3, 2, 2);
        xb_name8(&s, 0, 0, "Amounts", &f);
        xb_name8(&s, 1, 0, "Secret", &f);     /* hidden */
        xb_name8(&s, 0, 1, "Local", &f);      /* sheet-level */
        xb_free(&f);
        xb_u8(&f, 0x3A);                     /* ptgRef3d: the single cell B3 of My Sheet */
        xb_u16(&f, 1);
        xb_u16(&f, 2);
        xb_u16(&f, 1 | 0xC000);
        xb_name8(&s, 0, 0, "Cell", &f);
        xb_free(&f);
        xb_area3d(&f, 0, 0, 3, 0, 1);
        xb d2 = {0};
        xb_u16(&d2, 0x0020);                 /* fBuiltin: Print_Area (code 6) */
        xb_u8(&d2, 0);
        xb_u8(&d2, 1);
        xb_u16(&d2, (unsigned)f.len);
        xb_u16(&d2, 0);
        xb_u16(&d2, 0);
        xb_u32(&d2, 0);
        xb_u8(&d2, 0);
        xb_u8(&d2, 6);
        xb_put(&d2, f.p, f.len);
        xb_rec(&s, 0x0018, &d2);
        xb_free(&d2);
        xb_free(&f);
        xb_u8(&f, 0x1E);                     /* ptgInt 10: a constant */
        xb_u16(&f, 10);
        xb_name8(&s, 0, 0, "Ten", &f);
        xb_free(&f);
    }
    xb_empty(&s, 0x000A);
    for (int i = 0; i < 2; i++) {
        xb_set32(&s, ply[i], (uint32_t)s.len);
        xb_bof(&s, 0x0600, 0x0010);
        xb_label(&s, 0, 0, "id", 1);
        xb_label(&s, 0, 1, "name", 1);
        xb_label(&s, 0, 2, "amount", 1);
        const char *names_col[] = {"a", "b", "c"};
        for (unsigned r = 1; r <= 3; r++) {
            xb_number(&s, r, 0, 0, r);
            xb_label(&s, r, 1, names_col[r - 1], 1);
            if (r < 3)
                xb_number(&s, r, 2, 0, r + 0.5);
            else
                xb_label(&s, r, 2, "n/a", 1);
        }
        xb_number(&s, 5, 0, 0, 7);
        xb_empty(&s, 0x000A);
    }
    memset(file, 0, sizeof *file);
    xb_cfb(file, "Workbook", s.p, s.len, XB_MINI);
    xb_free(&s);
}

static lt_source *open_book(const xb *file, const char *hdr, const char *guess)
{
    lt_option items[2] = {{"HDR", hdr}, {"TypeGuessRows", guess ? guess : "0"}};
    lt_options opts = {2, items};
    lt_source *src;
    lt_error err;
    if (lt_xls_open_memory(file->p, file->len, "tables.xls", &opts, &src, &err) != 0)
        fail_msg("open: %s", err.message);
    return src;
}

/* The table `name` as ts_table_text shows it with types ("col:TYPE(size)|...;v|v",
** a tagged value's own type in brackets), in batches of 1 and of 2048 rows. */
static void expect(lt_source *src, const char *name, const char *want)
{
    for (uint32_t cap = 1; cap <= 2048; cap *= 2048) {
        char *got = ts_table_text(src, name, cap, true);
        bool same = strcmp(got, want) == 0;
        if (!same)
            print_error("%s (batches of %u):\n got  %s\n want %s\n", name, cap, got, want);
        free(got);
        assert_true(same);
    }
}

/* The look-up fails with `state` and a message holding `part` and the name. */
static void expect_error(lt_source *src, const char *name, const char *state, const char *part)
{
    lt_error err;
    lt_error_clear(&err);
    int64_t ti = lt_source_find_table_err(src, name, strlen(name), &err);
    if (ti >= 0)
        fail_msg("'%s' was found (table %lld)", name, (long long)ti);
    assert_string_equal(err.sqlstate, state);
    if (strstr(err.message, part) == NULL || strstr(err.message, name) == NULL)
        fail_msg("'%s': message '%s' lacks '%s' or the name", name, err.message, part);
    assert_int_equal(lt_source_find_table(src, name, strlen(name)), -1);
}

/* ---- ranges ------------------------------------------------------------------- */

static void test_ranges_hdr_yes(void **state)
{
    (void)state;
    xb file;
    build(&file, false);
    lt_source *src = open_book(&file, "Yes", NULL);
    uint32_t listed = src->ntables;
    assert_int_equal(listed, 2);
    expect(src, "Data$A1:C3", "id:INT64(19)|name:TEXT(1)|amount:DOUBLE(15);1|a|1.5;2|b|2.5");
    /* the header is the range's first row, here data of the sheet */
    expect(src, "Data$B2:C", "a:TEXT(1)|1.5:TEXT(3);b|2.5;c|n/a");
    /* whole columns: the sheet's header, rows to the last holding a value */
    expect(src, "data$a:a", "id:INT64(19);1;2;3;-;7");
    /* a quoted sheet name, both ways */
    expect(src, "'My Sheet'$A1:A2", "id:INT64(19);1");
    expect(src, "'My Sheet$A1:A2'", "id:INT64(19);1");
    expect(src, "My Sheet$A1:A2", "id:INT64(19);1");
    /* beyond the data: its columns, no rows */
    expect(src, "Data$E1:F9", "F1:TEXT(255)|F2:TEXT(255)");
    /* a single cell, the last column and row of the format */
    expect(src, "Data$C4:C4", "n/a:TEXT(255)");
    expect(src, "Data$XFD65536:XFD65536", "F1:TEXT(255)");
    /* ranges are not listed, and the same range is the same table */
    assert_int_equal(src->ntables, listed);
    int64_t a = lt_source_find_table(src, "Data$A1:C3", 10);
    int64_t b = lt_source_find_table(src, "DATA$a1:c3", 10);
    assert_true(a >= listed);
    assert_int_equal(a, b);
    assert_int_not_equal(a, lt_source_find_table(src, "Data$A1:C4", 10));
    assert_int_equal(src->ntables, listed);
    /* the worksheet itself, by both names */
    assert_int_equal(lt_source_find_table(src, "Data", 4), 0);
    assert_int_equal(lt_source_find_table(src, "Data$", 5), 0);
    src->reader->close(src);
    xb_free(&file);
}

static void test_ranges_hdr_no(void **state)
{
    (void)state;
    xb file;
    build(&file, false);
    lt_source *src = open_book(&file, "No", NULL);
    expect(src, "Data$A1:C3", "F1:TEXT(2)|F2:TEXT(4)|F3:TEXT(6);id|name|amount;1|a|1.5;2|b|2.5");
    expect(src, "Data$A2:A", "F1:INT64(19);1;2;3;-;7");
    expect(src, "Data$B3:C4", "F1:TEXT(1)|F2:TEXT(3);b|2.5;c|n/a");
    src->reader->close(src);
    xb_free(&file);
}

static void test_ranges_malformed(void **state)
{
    (void)state;
    xb file;
    build(&file, false);
    lt_source *src = open_book(&file, "Yes", NULL);
    expect_error(src, "Data$A1:", "42000", "not a cell range");
    expect_error(src, "Data$A1", "42000", "not a cell range");
    expect_error(src, "Data$1:5", "42000", "not a cell range");
    expect_error(src, "Data$A0:B2", "42000", "not a cell range");
    expect_error(src, "Data$A1:B2x", "42000", "not a cell range");
    expect_error(src, "Data$A:B5", "42000", "not a cell range");
    expect_error(src, "Data$A1:XFE2", "HY000", "outside the sheet");
    expect_error(src, "Data$A1:ABCD2", "42000", "not a cell range");
    expect_error(src, "Data$A1:B65537", "HY000", "outside the sheet");
    expect_error(src, "Data$C3:A1", "HY000", "ends before it starts");
    expect_error(src, "Nope$A1:B2", "42S02", "unknown table");
    expect_error(src, "Data$$A1:B2", "42S02", "unknown table");
    src->reader->close(src);
    xb_free(&file);
}

/* ---- defined names -------------------------------------------------------------- */

static void test_names(void **state)
{
    (void)state;
    xb file;
    build(&file, true);
    lt_source *src = open_book(&file, "Yes", NULL);
    /* the sheets, then Amounts and Cell, then the sheet-level Local as
    ** "Data$Local" (test_xls_names.c); not the hidden, built-in or
    ** constant names */
    assert_int_equal(src->ntables, 5);
    assert_string_equal(src->tables[0].name, "Data$");
    assert_string_equal(src->tables[1].name, "My Sheet$");
    assert_string_equal(src->tables[2].name, "Amounts");
    assert_string_equal(src->tables[3].name, "Cell");
    assert_string_equal(src->tables[4].name, "Data$Local");
    expect(src, "Data$Local", "amount:TEXT(3);1.5;2.5;n/a");
    assert_string_equal(src->tables[2].kind, "TABLE");
    expect(src, "Amounts", "amount:TEXT(3);1.5;2.5;n/a");
    expect(src, "Cell", "b:TEXT(255)");
    src->reader->close(src);

    src = open_book(&file, "No", NULL);
    expect(src, "Amounts", "F1:TEXT(6);amount;1.5;2.5;n/a");
    expect(src, "cell", "F1:TEXT(1);b");
    src->reader->close(src);
    xb_free(&file);
}

/* ---- TypeGuessRows ---------------------------------------------------------------- */

static void test_type_guess_rows(void **state)
{
    (void)state;
    xb file;
    build(&file, false);
    /* amount: 1.5, 2.5 typed, "n/a" past the guess: delivered as text */
    lt_source *src = open_book(&file, "Yes", "2");
    expect(src, "Data$", "id:INT64(19)|name:TEXT(1)|amount:DOUBLE(15);1|a|1.5;2|b|2.5;3|c|n/a[TEXT];-|-|-;7|-|-");
    expect(src, "Data$A1:C4", "id:INT64(19)|name:TEXT(1)|amount:DOUBLE(15);1|a|1.5;2|b|2.5;3|c|n/a[TEXT]");
    src->reader->close(src);
    /* one row typed: ids stay integers */
    src = open_book(&file, "No", "1");
    expect(src, "Data$B1:C4", "F1:TEXT(4)|F2:TEXT(24);name|amount;a|1.5;b|2.5;c|n/a");
    expect(src, "Data$C2:C4", "F1:DOUBLE(15);1.5;2.5;n/a[TEXT]");
    src->reader->close(src);
    /* 0 or absent: every row types */
    src = open_book(&file, "Yes", "0");
    expect(src, "Data$", "id:INT64(19)|name:TEXT(1)|amount:TEXT(3);1|a|1.5;2|b|2.5;3|c|n/a;-|-|-;7|-|-");
    src->reader->close(src);
    /* not a whole number: the open fails, as a malformed MemoryLimit does */
    const char *bad[] = {"x", "-3", ""};
    for (size_t i = 0; i < 3; i++) {
        lt_option items[1] = {{"TypeGuessRows", bad[i]}};
        lt_options opts = {1, items};
        lt_error err = {0};
        assert_int_not_equal(lt_xls_open_memory(file.p, file.len, "tables.xls", &opts, &src, &err), 0);
        assert_string_equal(err.sqlstate, "08001");
        assert_non_null(strstr(err.message, "TypeGuessRows="));
    }
    xb_free(&file);
}

/* ---- threads ------------------------------------------------------------------ */

typedef struct worker {
    lt_source *src;
    int id;
    int64_t found[8];
    bool ok;
} worker;

/* Eight ranges, four shared by every thread and four of its own. */
static void *work(void *arg)
{
    worker *w = arg;
    w->ok = true;
    for (int round = 0; round < 20; round++) {
        for (int k = 0; k < 8; k++) {
            char name[64];
            if (k < 4)
                snprintf(name, sizeof name, "Data$A1:%c%d", 'A' + k % 3, 2 + k);
            else
                snprintf(name, sizeof name, "Data$A%d:C%d", 1 + w->id, 2 + w->id + k);
            int64_t ti = lt_source_find_table(w->src, name, strlen(name));
            if (ti < 0 || (round > 0 && ti != w->found[k]))
                w->ok = false;
            w->found[k] = ti;
            if (ti >= 0) {
                ts_result res;
                ts_scan(w->src, (uint32_t)ti, 2, &res);
                w->ok = w->ok && res.ok && res.ncols == w->src->tables[ti].ncols;
                ts_result_free(&res);
            }
        }
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    xb file;
    build(&file, true);
    lt_source *src = open_book(&file, "Yes", NULL);
    worker w[6];
    pthread_t th[6];
    for (int i = 0; i < 6; i++) {
        w[i].src = src;
        w[i].id = i;
        assert_int_equal(pthread_create(&th[i], NULL, work, &w[i]), 0);
    }
    for (int i = 0; i < 6; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < 6; i++) {
        assert_true(w[i].ok);
        for (int k = 0; k < 4; k++)
            assert_int_equal(w[i].found[k], w[0].found[k]);
    }
    src->reader->close(src);
    xb_free(&file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranges_hdr_yes),
        cmocka_unit_test(test_ranges_hdr_no),
        cmocka_unit_test(test_ranges_malformed),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_type_guess_rows),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
