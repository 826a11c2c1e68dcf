/*
** test_xlsb_corpus.c — every row of the shared .xlsb corpus's MANIFEST against
** its oracle CSV, at the reader's level (lt_xlsb_reader.open with the
** connection keywords of EXPECT.tsv, HDR=No for every file; a scan of every
** column, with 2048-row and with 3-row batches).
**
** Comparison: the corpus README's, plus the two rules that follow from
** Lector's typing (support/workbook.h).  Rows whose csv is "-" must fail
** with an error naming the file.  Rows the reader does not read yet are
** listed in `known` with the reason; the test fails when a listed row
** matches (remove it) and when an unlisted row does not, so nothing is
** skipped silently.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "common/workbook.h"
#include "reader.h"
#include "support/workbook.h"
#include "xlsb/xlsb.h"
#include "xlsb/xlsb_internal.h"

#define XLSB_DIR LT_CORPUS_DIR "/xlsb"

static const ts_known known[] = {
    /* Both oracles leave out the #REF! formula cell at A2, the only cell of
    ** its row and of column A (the record looks like every other #REF!
    ** cell of the sheet); Lector keeps it, so its used range starts one
    ** row and one column earlier.  Why the oracles drop it is not known. */
    {"sheetjs_poi_46535_hidden_sheets.xlsb", "Others$", "oracles drop the #REF! cell at A2"},
};

static bool date1904(const lt_source *src)
{
    return ((const xlsb_source *)src)->date1904;
}

static const ts_wb_corpus corpus = {
    {"xlsb", XLSB_DIR, &lt_xlsb_reader, true, known, sizeof known / sizeof *known, ts_wb_check_row},
    date1904,
};

static void test_corpus(void **state)
{
    (void)state;
    ts_tally t = ts_corpus_run(&corpus.base);
    assert_int_equal(t.bad, 0);
}

static void test_hdr_yes(void **state)
{
    (void)state;
    static const ts_hdr_case cases[] = {
        {"gen_big_20000x5.xlsb", "Big$", "gen_big_20000x5.s1.csv",
         "id:INT64|amount:DOUBLE|date:DATE|qty:INT64|category:TEXT"},
        {"gen_dates_1904.xlsb", "Dates 1904$", "gen_dates_1904.s1.csv",
         "serial:DOUBLE|date (yyyy-mm-dd):TIMESTAMP|datetime (yyyy-mm-dd hh:mm:ss):TIMESTAMP|"
         "time (hh:mm):TIMESTAMP|d-mmm-yy:TIMESTAMP"},
        {"calamine_date.xlsb", "Sheet1$", "calamine_date.s1.csv", "2021-01-01:TIMESTAMP|15:INT64"},
        {"gen_celltypes_sst.xlsb", "Offset C5", "gen_celltypes_sst.s2.csv", "first:INT64|second:DOUBLE|third:TEXT"},
        {"pyxlsb_test.xlsb", "Test", "pyxlsb_test.s1.csv", "A:TEXT|B:TEXT|A_2:TEXT|B_2:TEXT|F5:TEXT|F6:TEXT|F7:INT64|F8:DOUBLE"},
    };
    ts_wb_check_hdr_yes(&corpus, cases, sizeof cases / sizeof *cases);
}

/* The AirportCode table in 2048-row and 3-row batches against its oracle. */
static void check_airport_code(lt_source *src, int64_t ti)
{
    ts_csv oracle;
    ts_csv_load(XLSB_DIR "/csv/sheetjs_poi_46535_hidden_sheets.s2.csv", &oracle);
    ts_csv_drop_row(&oracle, 1);
    ts_rules rules = ts_wb_rules(false);
    static const uint32_t caps[] = {LT_BATCH_ROWS, 3};
    for (size_t k = 0; k < 2; k++) {
        ts_result res;
        ts_scan(src, (uint32_t)ti, caps[k], &res);
        assert_true(res.ok);
        char why[1400];
        if (!ts_compare(&res, &oracle, &rules, why, sizeof why))
            fail_msg("AirportCode: %s", why);
        ts_result_free(&res);
    }
    ts_csv_free(&oracle);
}

/*
** Workbook-level defined names of one rectangle are tables of their own:
** AirportCode is CodeLists!$A$2:$B$2439 (the oracle of CodeLists without
** its first row); sheet-level names (Airport) and names without a range
** (vlook) are not tables.
*/
static void test_defined_names(void **state)
{
    (void)state;
    lt_option items[1] = {{"HDR", "No"}};
    lt_options opts = {1, items};
    lt_source *src;
    lt_error err;
    if (lt_xlsb_reader.open(XLSB_DIR "/sheetjs_poi_46535_hidden_sheets.xlsb", &opts, &src, &err) != 0)
        fail_msg("%s", err.message);
    assert_true(lt_wb_find_table(src, "Airport", 7) < 0);
    assert_true(lt_wb_find_table(src, "vlook", 5) < 0);
    /* A file's sheets are typed on first use (reader.h describe): listed by
    ** name only until a look-up, a scan or a count describes them. */
    int64_t listed = lt_wb_find_listed(src, "airportcode", 11);
    assert_true(listed >= 0);
    assert_int_equal(src->tables[listed].ncols, 0);
    assert_int_equal(src->tables[listed].row_estimate, -1);
    int64_t ti = lt_wb_find_table(src, "airportcode", 11);
    assert_true(ti == listed);
    const lt_table *t = &src->tables[ti];
    assert_string_equal(t->name, "AirportCode");
    assert_string_equal(t->kind, "TABLE");
    assert_int_equal(t->ncols, 2);
    assert_int_equal(t->row_estimate, 2438);
    check_airport_code(src, ti);
    src->reader->close(src);

    /* Names in Japanese, one cell each; a name may equal a sheet's bare name. */
    if (lt_xlsb_reader.open(XLSB_DIR "/sheetjs_defined_names_unicode.xlsb", &opts, &src, &err) != 0)
        fail_msg("%s", err.message);
    ti = lt_wb_find_table(src, "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E", 9);   /* 日本語 */
    assert_true(ti >= 0);
    ts_result res;
    ts_scan(src, (uint32_t)ti, 10, &res);
    assert_true(res.ok);
    assert_int_equal(res.rows.n, 1);
    assert_string_equal(res.rows.rows[0].cells[0].text, "NamedDefine");
    ts_result_free(&res);
    src->reader->close(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_hdr_yes),
        cmocka_unit_test(test_defined_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
