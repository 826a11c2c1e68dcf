/*
** test_xls_corpus.c — every row of the shared .xls corpus's MANIFEST against
** its oracle CSV, at the reader's level (lt_xls_reader.open with the
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

#include "reader.h"
#include "support/workbook.h"
#include "xls/xls.h"
#include "xls/xls_internal.h"

static const ts_known known[] = {
    {NULL, NULL, NULL}   /* none: every row reads like its oracle */
};

static bool date1904(const lt_source *src)
{
    return ((const xls_source *)src)->date1904;
}

static const ts_wb_corpus corpus = {
    {"xls", LT_CORPUS_DIR "/xls", &lt_xls_reader, true, known, sizeof known / sizeof *known, ts_wb_check_row},
    date1904,
};

static void test_corpus(void **state)
{
    (void)state;
    ts_tally t = ts_corpus_run(&corpus.base);
    assert_int_equal(t.bad, 0);
}

/* A file's sheets are typed on first use (reader.h describe): the open
** lists them by name only; describing is idempotent; a scan, a count and
** a range of a sheet not yet typed type it themselves. */
static void test_lazy_typing(void **state)
{
    (void)state;
    lt_option items[1] = {{"HDR", "No"}};
    lt_options opts = {1, items};
    lt_source *src;
    lt_error err;
    if (lt_xls_reader.open(LT_CORPUS_DIR "/xls/gen_big_20000x5.xls", &opts, &src, &err) != 0)
        fail_msg("%s", err.message);
    int64_t ti = ts_table_index(src, "Big$");
    assert_true(ti >= 0);
    const lt_table *t = &src->tables[ti];
    assert_int_equal(t->ncols, 0);
    assert_int_equal(t->row_estimate, -1);
    assert_int_equal(lt_xls_reader.count_rows(src, (uint32_t)ti, &err), 20000);
    assert_int_equal(t->ncols, 5);
    const lt_column *cols = t->cols;
    assert_int_equal(lt_xls_reader.describe(src, (uint32_t)ti, &err), 0);
    assert_ptr_equal(t->cols, cols);
    lt_xls_reader.close(src);

    /* A range of a sheet nobody typed yet. */
    if (lt_xls_reader.open(LT_CORPUS_DIR "/xls/gen_big_20000x5.xls", &opts, &src, &err) != 0)
        fail_msg("%s", err.message);
    uint32_t range;
    assert_int_equal(lt_xls_reader.find_extra(src, "Big$A1:B3", 9, &range, &err), 1);
    assert_int_equal(src->tables[range].ncols, 2);
    assert_int_equal(src->tables[range].row_estimate, 3);
    ts_result res;
    ts_scan(src, range, 2, &res);
    assert_true(res.ok);
    ts_result_free(&res);
    /* A range types its sheet first (its records, row index, readability). */
    assert_int_equal(src->tables[ts_table_index(src, "Big$")].ncols, 5);
    lt_xls_reader.close(src);

    /* A scan before any look-up types the sheet itself. */
    if (lt_xls_reader.open(LT_CORPUS_DIR "/xls/gen_big_20000x5.xls", &opts, &src, &err) != 0)
        fail_msg("%s", err.message);
    ti = ts_table_index(src, "Big$");
    assert_int_equal(src->tables[ti].ncols, 0);
    uint32_t want = 0;
    lt_scan_spec spec = {.table = (uint32_t)ti, .ncols = 1, .cols = &want, .limit = -1};
    lt_scan *scan;
    assert_int_equal(lt_xls_reader.scan_open(src, &spec, &scan, &err), 0);
    assert_int_equal(src->tables[ti].ncols, 5);
    lt_xls_reader.scan_close(scan);
    lt_xls_reader.close(src);
}

static void test_hdr_yes(void **state)
{
    (void)state;
    static const ts_hdr_case cases[] = {
        {"gen_big_20000x5.xls", "Big$", "gen_big_20000x5.s1.csv",
         "id:INT64|amount:DOUBLE|date:DATE|qty:INT64|category:TEXT"},
        {"gen_dates_1904.xls", "Dates 1904$", "gen_dates_1904.s1.csv",
         "serial:DOUBLE|date (yyyy-mm-dd):TIMESTAMP|datetime (yyyy-mm-dd hh:mm:ss):TIMESTAMP|"
         "time (hh:mm):TIMESTAMP|d-mmm-yy:TIMESTAMP"},
        {"calamine_date.xls", "Sheet1$", "calamine_date.s1.csv", "2021-01-01:TIMESTAMP|15:INT64"},
        {"xlrd_profiles.xls", "PROFILEDEF$", "xlrd_profiles.s1.csv",
         "PROFIL:TEXT|a:INT64|b:INT64|c:INT64|d:INT64|e:INT64|f:INT64|g:INT64|h:INT64|i:INT64|j:INT64|k:INT64|l:INT64"},
        {"calamine_issues.xls", "issue2$", "calamine_issues.s3.csv", "1:INT64|a:TEXT"},
    };
    ts_wb_check_hdr_yes(&corpus, cases, sizeof cases / sizeof *cases);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_hdr_yes),
        cmocka_unit_test(test_lazy_typing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
