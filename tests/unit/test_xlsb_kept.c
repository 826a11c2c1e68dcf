/*
** test_xlsb_kept.c — scans that read the cells the type scan kept
** (wbgrid.h lt_wb_cells) give exactly what scans that stream the sheet
** part again give (CellCacheMB=0), for every table of every .xlsb of the
** corpus, with small and full batches; the default keeps the cells of a
** 20,000-row sheet and CellCacheMB=0 keeps none.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/wbgrid.h"
#include "reader.h"
#include "xlsb/xlsb.h"
#include "xlsb/xlsb_internal.h"

#define XLSB_DIR LT_CORPUS_DIR "/xlsb"

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 1099511628211u;
    return h;
}

/* Every value of table `t` (all its columns) hashed, or the error's text;
** `rows` receives the row count. */
static uint64_t table_hash(lt_source *src, uint32_t t, uint32_t capacity, uint64_t *rows, char *msg,
                           size_t msg_size)
{
    lt_error err;
    lt_error_clear(&err);
    msg[0] = '\0';
    *rows = 0;
    if (lt_xlsb_reader.describe(src, t, &err) != 0 || src->tables[t].error != NULL) {
        snprintf(msg, msg_size, "%.400s", src->tables[t].error ? src->tables[t].error : err.message);
        return 0;
    }
    const lt_table *tab = &src->tables[t];
    uint32_t *cols = malloc((tab->ncols + 1) * sizeof *cols);
    lt_type *types = malloc((tab->ncols + 1) * sizeof *types);
    assert_non_null(cols);
    assert_non_null(types);
    for (uint32_t c = 0; c < tab->ncols; c++) {
        cols[c] = c;
        types[c] = tab->cols[c].type;
    }
    lt_scan_spec spec = {t, tab->ncols, cols, 0, NULL, -1};
    lt_scan *scan = NULL;
    assert_int_equal(lt_xlsb_reader.scan_open(src, &spec, &scan, &err), 0);
    lt_batch *b = lt_batch_new(tab->ncols, types, NULL, capacity);
    assert_non_null(b);
    uint64_t h = 1469598103934665603u;
    for (;;) {
        if (lt_xlsb_reader.scan_next(scan, b, &err) != 0) {
            snprintf(msg, msg_size, "scan: %.400s", err.message);
            break;
        }
        if (b->count == 0)
            break;
        *rows += b->count;
        for (uint32_t r = 0; r < b->count; r++)
            for (uint32_t c = 0; c < b->ncols; c++) {
                lt_value v;
                lt_batch_get(b, c, r, &v);
                h = fnv(h, &v.type, sizeof v.type);
                switch (v.type) {
                case LT_TEXT:
                case LT_BINARY:
                    h = fnv(h, v.u.bytes.ptr, v.u.bytes.len);
                    break;
                case LT_BOOL:
                    h = fnv(h, &v.u.b, sizeof v.u.b);
                    break;
                case LT_DATE:
                    h = fnv(h, &v.u.date, sizeof v.u.date);
                    break;
                case LT_DOUBLE:
                    h = fnv(h, &v.u.f64, sizeof v.u.f64);
                    break;
                case LT_NULL:
                    break;
                default:
                    h = fnv(h, &v.u.i64, sizeof v.u.i64);
                    break;
                }
            }
    }
    lt_batch_free(b);
    lt_xlsb_reader.scan_close(scan);
    free(cols);
    free(types);
    return h;
}

static int open_file(const char *path, const char *cache, lt_source **src, lt_error *err)
{
    lt_option o[2] = {{"HDR", "No"}, {"CellCacheMB", cache}};
    lt_options opts = {cache != NULL ? 2 : 1, o};
    return lt_xlsb_reader.open(path, &opts, src, err);
}

static void test_kept_like_streamed(void **state)
{
    (void)state;
    DIR *d = opendir(XLSB_DIR);
    assert_non_null(d);
    unsigned files = 0, tables = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".xlsb") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", XLSB_DIR, e->d_name);
        lt_source *kept = NULL, *streamed = NULL;
        lt_error e1, e2;
        int r1 = open_file(path, NULL, &kept, &e1), r2 = open_file(path, "0", &streamed, &e2);
        assert_int_equal(r1, r2);
        if (r1 != 0) {
            assert_string_equal(e1.message, e2.message);
            continue;
        }
        files++;
        assert_int_equal(kept->ntables, streamed->ntables);
        for (uint32_t t = 0; t < kept->ntables; t++) {
            static const uint32_t caps[] = {3, LT_BATCH_ROWS};
            for (size_t k = 0; k < 2; k++) {
                char m1[512], m2[512];
                uint64_t n1, n2;
                uint64_t h1 = table_hash(kept, t, caps[k], &n1, m1, sizeof m1);
                uint64_t h2 = table_hash(streamed, t, caps[k], &n2, m2, sizeof m2);
                if (h1 != h2 || n1 != n2 || strcmp(m1, m2) != 0)
                    fail_msg("%s table %s: kept %llu rows (%s), streamed %llu rows (%s)", e->d_name,
                             kept->tables[t].name, (unsigned long long)n1, m1, (unsigned long long)n2, m2);
            }
            tables++;
        }
        if (strcmp(e->d_name, "gen_big_20000x5.xlsb") == 0) {
            assert_true(((xlsb_source *)kept)->sheets[0].kept);
            assert_false(((xlsb_source *)streamed)->sheets[0].kept);
        }
        lt_xlsb_reader.close(kept);
        lt_xlsb_reader.close(streamed);
    }
    closedir(d);
    assert_true(files > 20);
    assert_true(tables > files);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kept_like_streamed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
