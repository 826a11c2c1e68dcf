/*
** test_sqlite_corpus.c — every row of the shared SQLite corpus's MANIFEST
** against its oracle CSV, at the reader's level (lt_sqlite_reader.open, a
** scan of every column).
**
** Values are rendered the canonical CSV way (corpus README) from each row's
** own type (a tagged row of a dynamically typed column renders as what it
** holds); numbers compare with a relative tolerance of 1e-9, timestamps as
** instants.  Rows whose csv is "-" must fail with an error naming the file.
** Every table is read twice, with 2048-row and with 3-row batches.
**
** Rows the reader does not read yet are listed in `known` below with the
** reason; the test fails when a listed row starts to match (remove it) and
** when an unlisted row does not match, so nothing is skipped silently.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "reader.h"
#include "sqlite/sqlite.h"
#include "support/corpus.h"

#define SQLITE_DIR LT_CORPUS_DIR "/sqlite"

/* ---- rows known not to match yet ------------------------------------------ */

static const ts_known known[] = {
    {"generated/views_indexes.db", "v_emp", "views: the engine must run the view's SELECT"},
    {"generated/views_indexes.db", "v_dept_stats", "views: the engine must run the view's SELECT"},
    {"generated/views_indexes.db", "v r&d", "views: the engine must run the view's SELECT"},
    {"realworld/mbtiles/some-empty-tiles.mbtiles", "tiles", "views: the engine must run the view's SELECT"},
    {"realworld/mbtiles/some-empty-tiles.mbtiles", "grids", "views: the engine must run the view's SELECT"},
    {"realworld/mbtiles/some-empty-tiles.mbtiles", "grid_data", "views: the engine must run the view's SELECT"},
    {"realworld/mbtiles/with spaces.mbtiles", "tiles", "views: the engine must run the view's SELECT"},
    {"realworld/mbtiles/with spaces.mbtiles", "grids", "views: the engine must run the view's SELECT"},
    {"realworld/mbtiles/with spaces.mbtiles", "grid_data", "views: the engine must run the view's SELECT"},
    {"realworld/android/mmssms.db", "pdu_restricted", "views: the engine must run the view's SELECT"},
    {"realworld/android/mmssms.db", "sms_restricted", "views: the engine must run the view's SELECT"},
};

/* SQLite's typing: booleans are numbers, dates instants. */
static const ts_rules rules = {TS_BOOL_NUMBER | TS_DATE_INSTANT, 0};

/* ---- the test ---------------------------------------------------------------------- */

/* A file the oracle reads as having no tables, which is not an error. */
static bool check_no_tables(lt_source *src, const char *open_error, char *why, size_t whylen)
{
    if (src == NULL) {
        snprintf(why, whylen, "open failed: %s", open_error);
        return false;
    }
    if (src->ntables != 0) {
        snprintf(why, whylen, "%u tables, expected none", src->ntables);
        return false;
    }
    return true;
}

/* The whole file must fail, with an error naming it. */
static bool check_file_fails(lt_source *src, const char *open_error, const char *file, char *why, size_t whylen)
{
    if (src != NULL) {
        snprintf(why, whylen, "opened, but the whole file must fail");
        return false;
    }
    if (!ts_names_file(open_error, file)) {
        snprintf(why, whylen, "error does not name the file: %s", open_error);
        return false;
    }
    return true;
}

/* A failed scan: right when an error is expected and it names file or table. */
static bool check_scan_error(const ts_result *full, const ts_result *small, bool error_ok, const char *file,
                             const char *table, char *why, size_t whylen)
{
    bool ok = error_ok && !small->ok;
    if (ok && !ts_names_file(full->message, file) && !strstr(full->message, table)) {
        snprintf(why, whylen, "error names neither file nor table: %s", full->message);
        ok = false;
    } else if (!ok) {
        snprintf(why, whylen, "error: %s", full->message);
    }
    return ok;
}

static bool check_rows(const ts_result *full, const ts_result *small, const char *csvname, char *why, size_t whylen)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", SQLITE_DIR, csvname);
    ts_csv oracle;
    ts_csv_load(path, &oracle);
    bool ok = ts_compare(full, &oracle, &rules, why, whylen);
    if (ok && !(ok = small->ok && ts_compare(small, &oracle, &rules, why, whylen)))
        snprintf(why + strlen(why), whylen - strlen(why), " (3-row batches)");
    ts_csv_free(&oracle);
    return ok;
}

/* Check one MANIFEST row; true when it behaves as the corpus says. */
static bool check_row(const ts_corpus *c, lt_source *src, const char *open_error, char **f, const char *expect,
                      char *why, size_t whylen)
{
    (void)c;
    const char *file = f[0], *table = f[1], *csvname = f[2], *notes = f[6];
    bool want_error = strcmp(csvname, "-") == 0;
    if (want_error && strcmp(table, "-") == 0 && strstr(notes, "no tables (not an error)"))
        return check_no_tables(src, open_error, why, whylen);
    if (strcmp(table, "-") == 0)
        return check_file_fails(src, open_error, file, why, whylen);
    if (src == NULL) {
        snprintf(why, whylen, "open failed: %s", open_error);
        return false;
    }
    int64_t ti = ts_table_index(src, table);
    if (ti < 0) {
        snprintf(why, whylen, "table not listed");
        return false;
    }
    ts_result full, small;
    ts_scan(src, (uint32_t)ti, LT_BATCH_ROWS, &full);
    ts_scan(src, (uint32_t)ti, 3, &small);
    bool ok;
    if (!full.ok) {
        bool error_ok = want_error || strcmp(expect, "error") == 0 || strcmp(expect, "rows-or-error") == 0;
        ok = check_scan_error(&full, &small, error_ok, file, table, why, whylen);
    } else if (want_error || strcmp(expect, "error") == 0) {
        snprintf(why, whylen, "read %zu rows, but the oracle failed", full.rows.n);
        ok = false;
    } else {
        ok = check_rows(&full, &small, csvname, why, whylen);
    }
    ts_result_free(&full);
    ts_result_free(&small);
    return ok;
}

static void test_corpus(void **state)
{
    (void)state;
    static const ts_corpus corpus = {
        "sqlite", SQLITE_DIR, &lt_sqlite_reader, false, known, sizeof known / sizeof *known, check_row,
    };
    ts_tally t = ts_corpus_run(&corpus);
    assert_int_equal(t.bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
