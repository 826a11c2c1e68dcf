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
#include <strings.h>

#include "access/access.h"
#include "test_access_util.h"

#define ACCESS_DIR LT_CORPUS_DIR "/access"

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
static const struct {
    const char *file, *table, *why;
} known_failures[] = {
    {"", "", ""},   /* none; keeps the array non-empty */
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

static int64_t header_index(const tu_csv *c, const char *name)
{
    for (size_t k = 0; c->n > 0 && k < c->rows[0].n; k++)
        if (strcmp(c->rows[0].cells[k].text, name) == 0)
            return (int64_t)k;
    return -1;
}

/* Put the complex-column values into the oracle; returns how many. */
static int patch_complex(const char *file, const char *table, tu_csv *oracle)
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
            tu_cell *key = &oracle->rows[r].cells[kc], *cell = &oracle->rows[r].cells[vc];
            if (strcmp(key->text, complex_values[i].key) != 0)
                continue;
            assert_true(cell->null);      /* the oracle's NULL, as its notes say */
            free(cell->text);
            cell->text = strdup(complex_values[i].value);
            cell->null = 0;
            found++;
        }
        assert_int_equal(found, 1);
        n++;
    }
    return n;
}

static const char *known_failure(const char *file, const char *table)
{
    for (size_t i = 0; i < sizeof known_failures / sizeof *known_failures; i++)
        if (strcmp(known_failures[i].file, file) == 0 && strcmp(known_failures[i].table, table) == 0)
            return known_failures[i].why;
    return NULL;
}

/* ---- EXPECT.tsv ------------------------------------------------------------------ */

typedef struct expectation {
    char expect[32];
    char connect[256];
} expectation;

static void find_expectation(const char *file, const char *table, expectation *e)
{
    snprintf(e->expect, sizeof e->expect, "rows");
    e->connect[0] = '\0';
    for (size_t i = 0; i < sizeof extra_connect / sizeof *extra_connect; i++)
        if (strcmp(extra_connect[i].file, file) == 0)
            snprintf(e->connect, sizeof e->connect, "%s", extra_connect[i].connect);
    size_t len;
    char *text = tu_read_file(ACCESS_DIR "/EXPECT.tsv", &len);
    if (text == NULL)
        return;
    char *save = NULL;
    int first = 1;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (first || line[0] == '#') {
            first = 0;
            continue;
        }
        char *f[5] = {0};
        int n = tu_split_tabs(line, f, 5);
        if (n >= 3 && (strcmp(f[0], file) == 0 || strcmp(f[0], "*") == 0) &&
            (strcmp(f[1], table) == 0 || strcmp(f[1], "*") == 0 || strcmp(f[1], "-") == 0)) {
            snprintf(e->expect, sizeof e->expect, "%s", f[2]);
            if (n >= 4 && f[3][0] != '\0')
                snprintf(e->connect, sizeof e->connect, "%s", f[3]);
        }
    }
    free(text);
}

/* ---- one manifest row -------------------------------------------------------------- */

/* 1 when the row reads like its oracle (or fails as expected). */
static int check_row(const char *file, const char *table, const char *csvname, char *why, size_t whylen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", ACCESS_DIR, file);
    expectation ex;
    find_expectation(file, table, &ex);
    char connect[256];
    snprintf(connect, sizeof connect, "%s", ex.connect);
    lt_option items[16];
    lt_options opts;
    tu_parse_connect(connect, items, 16, &opts);
    int want_error = strcmp(csvname, "-") == 0 || strcmp(ex.expect, "error") == 0;
    int may_error = strcmp(ex.expect, "rows-or-error") == 0;

    static const uint32_t capacities[] = {LT_BATCH_ROWS, 3};
    for (size_t k = 0; k < 2; k++) {
        tu_result res;
        tu_read_table(path, strcmp(table, "-") == 0 ? NULL : table, &opts, capacities[k], &res);
        int ok = 1;
        if (!res.ok) {
            if (!(want_error || may_error)) {
                snprintf(why, whylen, "unexpected error: %s", res.message);
                ok = 0;
            } else if (strstr(res.message, file) == NULL) {
                snprintf(why, whylen, "error does not name %s: %s", file, res.message);
                ok = 0;
            } else if (k == 0) {
                printf("  ok (error)  %s %s: %s\n", file, table, res.message);
            }
        } else if (want_error) {
            snprintf(why, whylen, "read %zu rows, expected an error", res.rows.n);
            ok = 0;
        } else {
            char csvpath[4096];
            snprintf(csvpath, sizeof csvpath, "%s/%s", ACCESS_DIR, csvname);
            size_t len = 0;
            char *text = tu_read_file(csvpath, &len);
            assert_non_null(text);
            tu_csv oracle;
            tu_csv_parse(text, len, &oracle);
            free(text);
            if (patch_complex(file, table, &oracle) > 0 && k == 0)
                printf("  ok (complex columns compared with the test's values; the oracle leaves them NULL)  %s %s\n",
                       file, table);
            ok = tu_compare_multiset(&res, &oracle, why, whylen);
            tu_csv_free(&oracle);
        }
        tu_result_free(&res);
        if (!ok) {
            char tmp[2048];
            snprintf(tmp, sizeof tmp, "(batch %u) %.1900s", capacities[k], why);
            snprintf(why, whylen, "%s", tmp);
            return 0;
        }
    }
    return 1;
}

static void test_corpus(void **state)
{
    (void)state;
    size_t len;
    char *manifest = tu_read_file(ACCESS_DIR "/MANIFEST.tsv", &len);
    assert_non_null(manifest);
    int total = 0, matched = 0, known = 0, bad = 0, first = 1;
    char *save = NULL;
    for (char *line = strtok_r(manifest, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (first) {
            first = 0;
            continue;
        }
        char *f[7] = {0};
        int n = tu_split_tabs(line, f, 7);
        assert_true(n >= 3);
        total++;
        char why[2048] = "";
        int ok = check_row(f[0], f[1], f[2], why, sizeof why);
        const char *listed = known_failure(f[0], f[1]);
        if (ok) {
            matched++;
            if (listed != NULL) {
                printf("  LISTED AS FAILING BUT MATCHES  %s %s: remove it from known_failures\n", f[0], f[1]);
                bad++;
            }
        } else if (listed != NULL) {
            known++;
            printf("  known failure  %s %s: %s (%s)\n", f[0], f[1], why, listed);
        } else {
            printf("  MISMATCH  %s %s: %s\n", f[0], f[1], why);
            bad++;
        }
    }
    free(manifest);
    printf("access corpus: %d/%d tables match the oracle (%d known failures)\n", matched, total, known);
    assert_true(total > 0);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
