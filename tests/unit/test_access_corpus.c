/*
** test_access_corpus.c — every row of the shared Access corpus's MANIFEST.tsv
** against its oracle CSV, at the reader's level (lt_access_reader.open and
** scans of every column), honouring EXPECT.tsv.
**
** Values are rendered the canonical CSV way (corpus README): NULL empty,
** binary \x hex, timestamps with the fraction only when non-zero, GUIDs as
** {UPPER} text, decimals without trailing zeros.  Numbers compare with a
** relative tolerance of 1e-9, timestamps as instants.  Access tables compare
** as multisets (the oracle's scan order is not a contract).  Each table is
** read twice, with full batches and with 3-row batches.
**
** Known failures are listed below with their reasons; the test fails when a
** listed row matches (the list must shrink) or an unlisted one does not.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access/access.h"
#include "reader.h"
#include "support/corpus.h"

#define ACCESS_DIR LT_CORPUS_DIR "/access"

/* The README's rules alone: dates compare as text, booleans as 1/0. */
static const ts_rules rules = {0, 0};

/*
** Connection keywords a row needs that EXPECT.tsv does not (yet) carry.
** Jet 3 files do not record the code page their text was written in (the
** header and the columns say 1252 on a Chinese system too), so a client
** names it, as the oracle itself had to (MDB_JET3_CHARSET=GBK).
*/
static const struct {
    const char *file, *connect, *why;
} extra_connect[] = {
    {"charsetGBK.mdb", "CodePage=936",
     "Jet 3 text written on a Chinese system; the file says 1252 (the oracle used MDB_JET3_CHARSET=GBK)"},
};

/* Rows that do not match yet, and why. */
static const ts_known known_failures[] = {
    {NULL, NULL, NULL},   /* none; keeps the array non-empty */
};

/*
** Complex columns: the oracle leaves them NULL by design (MANIFEST notes:
** "Complex columns are NULL in the CSV"); Lector lists their values as text
** (readers/access/README.md).  For these columns the oracle's cells are
** replaced by the values below (checked by hand against the flat tables as
** mdb-reader dumps them) before comparing; cells not listed stay NULL.
*/
#define VH "VersionHistory_F5F8918F-0A3F-4DA9-AE71-184EE5012880"
static const struct {
    const char *file, *table, *key_col, *key, *col, *value;
} complex_values[] = {
    {"complexDataTestV2010.accdb", "Table1", "id", "row2", VH, "[2011-09-12 21:21:02.334] row2-memo"},
    {"complexDataTestV2010.accdb", "Table1", "id", "row3", VH,
     "[2011-09-12 21:21:19.126] row3-memo; [2011-09-12 21:22:33.077] row3-memo-revised; "
     "[2011-09-12 21:22:45.382] row3-memo-again"},
    {"complexDataTestV2010.accdb", "Table1", "id", "row4", VH, "[2011-09-12 21:22:25.758] row4-memo"},
    {"complexDataTestV2010.accdb", "Table1", "id", "row2", "multi-value-data", "value1, value4"},
    {"complexDataTestV2010.accdb", "Table1", "id", "row3", "multi-value-data", "value1, value2, value3, value4"},
    {"complexDataTestV2010.accdb", "Table1", "id", "row2", "attach-data", "test_data.txt, test_data2.txt"},
    {"complexDataTestV2010.accdb", "Table1", "id", "row4", "attach-data", "test_data2.txt"},
};

static int64_t header_index(const ts_csv *c, const char *name)
{
    for (size_t k = 0; c->n > 0 && k < c->rows[0].n; k++)
        if (strcmp(c->rows[0].cells[k].text, name) == 0)
            return (int64_t)k;
    return -1;
}

/* Put the complex-column values into the oracle; returns how many. */
static int patch_complex(const char *file, const char *table, ts_csv *oracle)
{
    int n = 0;
    for (size_t i = 0; i < sizeof complex_values / sizeof *complex_values; i++) {
        if (strcmp(complex_values[i].file, file) != 0 || strcmp(complex_values[i].table, table) != 0)
            continue;
        int64_t kc = header_index(oracle, complex_values[i].key_col);
        int64_t vc = header_index(oracle, complex_values[i].col);
        assert_true(kc >= 0 && vc >= 0);
        int found = 0;
        for (size_t r = 1; r < oracle->n; r++) {
            ts_cell *key = &oracle->rows[r].cells[kc], *cell = &oracle->rows[r].cells[vc];
            if (strcmp(key->text, complex_values[i].key) != 0)
                continue;
            assert_true(cell->null);      /* the oracle's NULL, as its notes say */
            free(cell->text);
            cell->text = strdup(complex_values[i].value);
            cell->null = false;
            found++;
        }
        assert_int_equal(found, 1);
        n++;
    }
    return n;
}

/* ---- EXPECT.tsv ------------------------------------------------------------------ */

/* The expectation and connection keywords of a row: the test's own keywords,
** then EXPECT's rows in order ("-" as the table matches any table too). */
static void find_expectation(const ts_tsv *ex, const char *file, const char *table, const char **expect,
                             const char **connect)
{
    *expect = "rows";
    *connect = "";
    for (size_t i = 0; i < sizeof extra_connect / sizeof *extra_connect; i++)
        if (strcmp(extra_connect[i].file, file) == 0)
            *connect = extra_connect[i].connect;
    for (size_t r = 0; r < ex->nrows; r++) {
        char **f = ts_tsv_row(ex, r);
        if ((strcmp(f[0], file) == 0 || strcmp(f[0], "*") == 0) &&
            (strcmp(f[1], table) == 0 || strcmp(f[1], "*") == 0 || strcmp(f[1], "-") == 0)) {
            *expect = f[2];
            if (f[3][0] != '\0')
                *connect = f[3];
        }
    }
}

/* ---- one manifest row -------------------------------------------------------------- */

/* Open `path` and scan table `table` (NULL: the file must fail to open). */
static void read_table(const char *path, const char *table, const lt_options *opts, uint32_t capacity,
                       ts_result *res)
{
    memset(res, 0, sizeof *res);
    lt_error err;
    lt_error_clear(&err);
    lt_source *src = NULL;
    if (lt_access_reader.open(path, opts, &src, &err) != 0) {
        snprintf(res->message, sizeof res->message, "%s", err.message);
        return;
    }
    int64_t ti = table != NULL ? ts_table_index(src, table) : -1;
    if (table == NULL)
        res->ok = true;
    else if (ti < 0)
        snprintf(res->message, sizeof res->message, "no table '%.200s' in '%.500s'", table, path);
    else
        ts_scan(src, (uint32_t)ti, capacity, res);
    src->reader->close(src);
}

/* One scan that read rows, against the oracle (complex columns patched in). */
static bool check_rows(const char *file, const char *table, const char *csvname, const ts_result *res,
                       bool first, char *why, size_t whylen)
{
    char csvpath[4096];
    snprintf(csvpath, sizeof csvpath, "%s/%s", ACCESS_DIR, csvname);
    ts_csv oracle;
    ts_csv_load(csvpath, &oracle);
    if (patch_complex(file, table, &oracle) > 0 && first)
        printf("  ok (complex columns compared with the test's values; the oracle leaves them NULL)  %s %s\n",
               file, table);
    bool ok = ts_compare_multiset(res, &oracle, &rules, why, whylen);
    ts_csv_free(&oracle);
    return ok;
}

/* One scan that failed: right when an error is allowed and names the file. */
static bool check_error(const char *file, const char *table, const ts_result *res, bool error_ok, bool first,
                        char *why, size_t whylen)
{
    if (!error_ok) {
        snprintf(why, whylen, "unexpected error: %s", res->message);
        return false;
    }
    if (strstr(res->message, file) == NULL) {
        snprintf(why, whylen, "error does not name %s: %s", file, res->message);
        return false;
    }
    if (first)
        printf("  ok (error)  %s %s: %s\n", file, table, res->message);
    return true;
}

/* True when the row reads like its oracle (or fails as expected). */
static bool check_row(const ts_tsv *ex, const char *file, const char *table, const char *csvname, char *why,
                      size_t whylen)
{
    char path[4096], buf[512];
    snprintf(path, sizeof path, "%s/%s", ACCESS_DIR, file);
    const char *expect, *connect;
    find_expectation(ex, file, table, &expect, &connect);
    lt_option items[16];
    lt_options opts = ts_parse_connect(connect, buf, sizeof buf, items, 16);
    bool want_error = strcmp(csvname, "-") == 0 || strcmp(expect, "error") == 0;
    bool may_error = strcmp(expect, "rows-or-error") == 0;

    static const uint32_t capacities[] = {LT_BATCH_ROWS, 3};
    for (size_t k = 0; k < 2; k++) {
        ts_result res;
        read_table(path, strcmp(table, "-") == 0 ? NULL : table, &opts, capacities[k], &res);
        bool ok;
        if (!res.ok) {
            ok = check_error(file, table, &res, want_error || may_error, k == 0, why, whylen);
        } else if (want_error) {
            snprintf(why, whylen, "read %zu rows, expected an error", res.rows.n);
            ok = false;
        } else {
            ok = check_rows(file, table, csvname, &res, k == 0, why, whylen);
        }
        ts_result_free(&res);
        if (!ok) {
            char tmp[2048];
            snprintf(tmp, sizeof tmp, "(batch %u) %.1900s", capacities[k], why);
            snprintf(why, whylen, "%s", tmp);
            return false;
        }
    }
    return true;
}

static void test_corpus(void **state)
{
    (void)state;
    ts_tsv manifest, ex;
    assert_true(ts_tsv_load(ACCESS_DIR "/MANIFEST.tsv", 7, &manifest));
    ts_tsv_load(ACCESS_DIR "/EXPECT.tsv", 5, &ex);   /* optional */
    ts_tally tally = {0};
    for (size_t r = 0; r < manifest.nrows; r++) {
        char **f = ts_tsv_row(&manifest, r);
        char why[2048] = "";
        bool ok = check_row(&ex, f[0], f[1], f[2], why, sizeof why);
        ts_tally_row(&tally, known_failures, sizeof known_failures / sizeof *known_failures, f[0], f[1], ok, why);
    }
    ts_tsv_free(&manifest);
    ts_tsv_free(&ex);
    printf("access corpus: %zu/%zu tables match the oracle (%zu known failures)\n", tally.matched, tally.total,
           tally.known);
    assert_true(tally.total > 0);
    assert_int_equal(tally.bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
