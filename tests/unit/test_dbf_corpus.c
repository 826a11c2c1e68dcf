/*
** test_dbf_corpus.c — every table of the shared dBASE corpus against its
** oracle CSV, at the reader's level (lt_source_open, scans of every column).
**
** Values are rendered the canonical CSV way (corpus README): NULL empty, ""
** for an empty string, binary as \x hex, dates YYYY-MM-DD, timestamps with
** the fraction only when non-zero.  Numbers compare with a relative
** tolerance of 1e-9, timestamps as instants.  Rows whose csv is "-" must
** fail with an error naming the file.  Each table is read twice, with full
** batches and with 3-row batches, to exercise batch boundaries.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "reader.h"
#include "support/corpus.h"

#define DBF_DIR LT_CORPUS_DIR "/dbf"

/* The README's rules alone: dates compare as text, booleans as 1/0. */
static const ts_rules rules = {0, 0};

/* The file's one table, or an error in res. */
static void read_table(const char *path, const lt_options *opts, uint32_t capacity, ts_result *res)
{
    memset(res, 0, sizeof *res);
    lt_error err;
    lt_error_clear(&err);
    lt_source *src = NULL;
    if (lt_source_open(path, opts, &src, &err) != 0) {
        snprintf(res->message, sizeof res->message, "%s", err.message);
        return;
    }
    assert_int_equal(src->ntables, 1);
    ts_scan(src, 0, capacity, res);
    lt_source_close(src);
}

/* ---- oracle defects ------------------------------------------------------- */

/*
** Where the oracle CSV contradicts its own stated rules, the reader follows
** the rules and this table says what it must return instead.  Checked only
** when the oracle comparison fails, so a corrected oracle is simply matched.
*/
typedef struct divergence {
    const char *file;
    const char *why;
    uint32_t ncols;
    size_t nrows;
    const char *first_col, *first_value;
} divergence;

static const divergence divergences[] = {
    {"real/albfernandez-javadbf/a3.dbf",
     "the oracle honours flags byte 0x11 (VFP 'system column') of a dBASE III "
     "file and hides every field, though its note says the byte is garbage to ignore",
     17, 1, "NUM", "1"},
};

static const divergence *find_divergence(const char *file)
{
    for (size_t i = 0; i < sizeof divergences / sizeof *divergences; i++)
        if (strcmp(divergences[i].file, file) == 0)
            return &divergences[i];
    return NULL;
}

static bool divergence_holds(const divergence *d, const ts_result *res, char *why, size_t whylen)
{
    if (res->ncols != d->ncols || res->rows.n != d->nrows) {
        snprintf(why, whylen, "divergence check: %u columns / %zu rows, expected %u / %zu",
                 res->ncols, res->rows.n, d->ncols, d->nrows);
        return false;
    }
    if (strcmp(res->names[0], d->first_col) != 0 ||
        strcmp(res->rows.rows[0].cells[0].text, d->first_value) != 0) {
        snprintf(why, whylen, "divergence check: first cell %s=%s, expected %s=%s",
                 res->names[0], res->rows.rows[0].cells[0].text, d->first_col, d->first_value);
        return false;
    }
    return true;
}

/* ---- the test -------------------------------------------------------------- */

/* One scan that failed: right when an error is allowed and names the file. */
static bool check_error(const char *file, const ts_result *res, bool error_ok, bool first, char *why, size_t whylen)
{
    const char *name = ts_base_name(file);
    if (!error_ok) {
        snprintf(why, whylen, "unexpected error: %s", res->message);
        return false;
    }
    if (strstr(res->message, name) == NULL) {
        snprintf(why, whylen, "error does not name %s: %s", name, res->message);
        return false;
    }
    if (first)
        printf("  ok (error)  %s: %s\n", file, res->message);
    return true;
}

/* One scan read rows: right when they are the oracle's, or its known defect. */
static bool check_rows(const char *file, const char *csvname, const ts_result *res, bool first,
                       char *why, size_t whylen)
{
    char csvpath[4096];
    snprintf(csvpath, sizeof csvpath, "%s/%s", DBF_DIR, csvname);
    ts_csv oracle;
    ts_csv_load(csvpath, &oracle);
    bool matched = true;
    if (!ts_compare(res, &oracle, &rules, why, whylen)) {
        const divergence *d = find_divergence(file);
        char why2[2048];
        if (d != NULL && divergence_holds(d, res, why2, sizeof why2)) {
            if (first)
                printf("  ok (oracle defect: %s)  %s\n", d->why, file);
        } else {
            matched = false;
        }
    }
    ts_csv_free(&oracle);
    return matched;
}

/* One manifest row; true when it matches. */
static bool check_row(const ts_tsv *ex, const char *file, const char *csvname)
{
    char path[4096], why[2048] = "", buf[512];
    snprintf(path, sizeof path, "%s/%s", DBF_DIR, file);
    const char *expect, *connect;
    ts_expectation(ex, file, NULL, &expect, &connect);
    lt_option items[16];
    lt_options opts = ts_parse_connect(connect, buf, sizeof buf, items, 16);
    /* The oracle leaves deleted records out: so must the options used. */
    assert_false(lt_options_bool(&opts, "ShowDeleted", false));
    bool want_error = strcmp(csvname, "-") == 0 || strcmp(expect, "error") == 0;
    bool may_error = strcmp(expect, "rows-or-error") == 0;

    bool matched = true;
    static const uint32_t capacities[] = {LT_BATCH_ROWS, 3};
    for (size_t k = 0; k < 2 && matched; k++) {
        ts_result res;
        read_table(path, &opts, capacities[k], &res);
        if (!res.ok) {
            matched = check_error(file, &res, want_error || may_error, k == 0, why, sizeof why);
        } else if (want_error) {
            snprintf(why, sizeof why, "read %zu rows, expected an error", res.rows.n);
            matched = false;
        } else {
            matched = check_rows(file, csvname, &res, k == 0, why, sizeof why);
        }
        ts_result_free(&res);
        if (!matched)
            printf("  MISMATCH (batch %u)  %s: %s\n", capacities[k], file, why);
    }
    return matched;
}

static void test_corpus(void **state)
{
    (void)state;
    ts_tsv manifest, ex;
    assert_true(ts_tsv_load(DBF_DIR "/MANIFEST.tsv", 3, &manifest));
    ts_tsv_load(DBF_DIR "/EXPECT.tsv", 5, &ex);   /* optional overrides */
    int total = 0, matched = 0;
    for (size_t r = 0; r < manifest.nrows; r++) {
        char **f = ts_tsv_row(&manifest, r);
        assert_true(f[2][0] != '\0');   /* file, table and csv on every line */
        total++;
        matched += check_row(&ex, f[0], f[2]);
    }
    ts_tsv_free(&manifest);
    ts_tsv_free(&ex);
    printf("dbf corpus: %d/%d tables match the oracle\n", matched, total);
    assert_true(total > 0);
    assert_int_equal(matched, total);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
