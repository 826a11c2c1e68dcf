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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
