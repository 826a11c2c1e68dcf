/*
** workbook.c — the corpus checks of the workbook readers (.xls, .xlsb):
** one MANIFEST row, and HDR=Yes on header tables (see workbook.h).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/datetime.h"
#include "common/workbook.h"
#include "workbook.h"

ts_rules ts_wb_rules(bool date1904)
{
    ts_rules rules = {TS_BOOL_NUMBER | TS_DATE_INSTANT | TS_EXCEL,
                      date1904 ? lt_days_from_civil(1904, 1, 1) : lt_days_from_civil(1899, 12, 31)};
    return rules;
}

/* The whole file must fail ("-" table), with an error naming it. */
static bool check_file_fails(lt_source *src, const char *open_error, const char *file, char *why, size_t whylen)
{
    if (src != NULL) {
        snprintf(why, whylen, "opened, but the whole file must fail");
        return false;
    }
    if (strstr(open_error, file) == NULL) {
        snprintf(why, whylen, "the error does not name the file: %s", open_error);
        return false;
    }
    return true;
}

/* Tables are the sheets: the bare name reaches the same table, unless a
** defined name is a table of that very name. */
static bool check_lookup(lt_source *src, const char *table, int64_t ti)
{
    char bare[512];
    snprintf(bare, sizeof bare, "%.*s", (int)strlen(table) - 1, table);
    int64_t named = ts_table_index(src, bare);
    return lt_wb_find_table(src, bare, strlen(bare)) == (named >= 0 ? named : ti) &&
           lt_wb_find_table(src, table, strlen(table)) == ti;
}

/* Both scans against the oracle csvname of the corpus. */
static bool check_rows(const ts_wb_corpus *c, lt_source *src, const ts_result *full, const ts_result *small,
                       const char *csvname, char *why, size_t whylen)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", c->base.dir, csvname);
    ts_csv oracle;
    ts_csv_load(path, &oracle);
    ts_rules rules = ts_wb_rules(c->date1904(src));
    bool ok = ts_compare(full, &oracle, &rules, why, whylen);
    if (ok && !(ok = ts_compare(small, &oracle, &rules, why, whylen)))
        snprintf(why + strlen(why), whylen - strlen(why), " (3-row batches)");
    ts_csv_free(&oracle);
    return ok;
}

bool ts_wb_check_row(const ts_corpus *c, lt_source *src, const char *open_error, char **f,
                     const char *expect, char *why, size_t whylen)
{
    const char *file = f[0], *table = f[1], *csvname = f[2];
    bool want_error = strcmp(csvname, "-") == 0 || strcmp(expect, "error") == 0;
    bool may_error = want_error || strcmp(expect, "rows-or-error") == 0;
    if (strcmp(table, "-") == 0)
        return check_file_fails(src, open_error, file, why, whylen);
    if (src == NULL) {
        snprintf(why, whylen, "open failed: %s", open_error);
        return may_error && strstr(open_error, file) != NULL;
    }
    int64_t ti = ts_table_index(src, table);
    if (ti < 0) {
        snprintf(why, whylen, "table not listed");
        return false;
    }
    if (!check_lookup(src, table, ti)) {
        snprintf(why, whylen, "look-up by name fails");
        return false;
    }
    ts_result full, small;
    ts_scan(src, (uint32_t)ti, LT_BATCH_ROWS, &full);
    ts_scan(src, (uint32_t)ti, 3, &small);
    bool ok;
    if (!full.ok || !small.ok) {
        ok = may_error && !full.ok && !small.ok;
        snprintf(why, whylen, "scan failed: %s", full.ok ? small.message : full.message);
    } else if (want_error) {
        snprintf(why, whylen, "read %zu rows, but an error is expected", full.rows.n);
        ok = false;
    } else {
        ok = check_rows((const ts_wb_corpus *)c, src, &full, &small, csvname, why, whylen);
    }
    ts_result_free(&full);
    ts_result_free(&small);
    return ok;
}

/* The oracle of a header table without its first row, under our names. */
static void load_header_oracle(const ts_wb_corpus *c, const ts_hdr_case *hc, const lt_table *t, ts_csv *oracle)
{
    char csvpath[512];
    snprintf(csvpath, sizeof csvpath, "%s/csv/%s", c->base.dir, hc->csv);
    ts_csv_load(csvpath, oracle);
    assert_true(oracle->n >= 2);
    assert_int_equal(t->row_estimate, (int64_t)oracle->n - 2);
    ts_csv_drop_row(oracle, 1);
    for (uint32_t col = 0; col < t->ncols && col < oracle->rows[0].n; col++) {
        free(oracle->rows[0].cells[col].text);
        oracle->rows[0].cells[col].text = strdup(t->cols[col].name);
    }
}

static void check_hdr_case(const ts_wb_corpus *c, const ts_hdr_case *hc)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", c->base.dir, hc->file);
    lt_source *src;
    lt_error err;
    assert_int_equal(c->base.reader->open(path, NULL, &src, &err), 0);   /* HDR=Yes by default */
    int64_t ti = lt_wb_find_table(src, hc->table, strlen(hc->table));
    assert_true(ti >= 0);
    const lt_table *t = &src->tables[ti];
    char cols[1024] = "";
    for (uint32_t col = 0; col < t->ncols; col++)
        snprintf(cols + strlen(cols), sizeof cols - strlen(cols), "%s%s:%s", col ? "|" : "", t->cols[col].name,
                 ts_type_name(t->cols[col].type));
    assert_string_equal(cols, hc->columns);
    ts_csv oracle;
    load_header_oracle(c, hc, t, &oracle);
    ts_result res;
    ts_scan(src, (uint32_t)ti, 1000, &res);
    assert_true(res.ok);
    char why[1400];
    ts_rules rules = ts_wb_rules(c->date1904(src));
    if (!ts_compare(&res, &oracle, &rules, why, sizeof why)) {
        print_error("HDR=Yes %s: %s\n", hc->file, why);
        fail();
    }
    ts_result_free(&res);
    ts_csv_free(&oracle);
    src->reader->close(src);
}

void ts_wb_check_hdr_yes(const ts_wb_corpus *c, const ts_hdr_case *cases, size_t ncases)
{
    for (size_t i = 0; i < ncases; i++)
        check_hdr_case(c, &cases[i]);
}
