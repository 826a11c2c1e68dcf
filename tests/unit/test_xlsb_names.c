/*
** test_xlsb_names.c — sheet-level defined names of .xlsb workbooks on the
** corpus: a name scoped to a sheet is a table "<sheet>$<name>" (the ACE
** driver's form) only when it names cells of this workbook; the corpus's
** only sheet-level names point into other workbooks.  (Hand-built
** sheet-level names, hidden and chart-scoped ones: test_xlsb_units.c.)
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

static lt_source *open_corpus(const char *file, const char *hdr)
{
    lt_option items[1] = {{"HDR", hdr}};
    lt_options opts = {1, items};
    return ts_open(&lt_xlsb_reader, file, &opts);
}

/* POI's bug 46535 workbook: seven names scoped to its fifth sheet (TDS)
** point into other workbooks (BrtSupBookSrc), so they are no tables; the
** workbook-level AirportCode (CodeLists!A2:B2439) is. */
static void test_corpus_external_sheet_level(void **state)
{
    (void)state;
    lt_source *src = open_corpus(LT_CORPUS_DIR "/xlsb/sheetjs_poi_46535_hidden_sheets.xlsb", "No");
    char *got = ts_table_names(src);
    assert_string_equal(got, "Test$|CodeLists$|Map$|Others$|TDS$|AirportCode");
    free(got);
    assert_int_equal(lt_source_find_table(src, "TDS$Airport", 11), -1);
    assert_int_equal(lt_source_find_table(src, "TDS$UOM", 7), -1);
    int64_t ti = lt_source_find_table(src, "AirportCode", 11);
    assert_int_equal(ti, 5);
    assert_int_equal(src->tables[ti].ncols, 2);
    ts_result res;
    ts_scan(src, (uint32_t)ti, 1024, &res);
    assert_true(res.ok);
    assert_int_equal(res.rows.n, 2438);
    ts_result_free(&res);
    src->reader->close(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_external_sheet_level),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
