/*
** test_access_lazy.c — what the Access reader reads on first use rather
** than at open: a table's usage map (read by its first scan or count, then
** kept) and COUNT(*) (the live row slots, counted once).  Over every file of
** the shared corpus that opens without options: after open no user table's
** map has been read; count_rows equals the rows a scan returns, also when
** asked again and whichever comes first; the map is then kept.
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

#include "access/access_internal.h"
#include "reader.h"

#define ACCESS_DIR LT_CORPUS_DIR "/access"

static bool is_access(const char *name)
{
    size_t n = strlen(name);
    return (n > 4 && strcmp(name + n - 4, ".mdb") == 0) ||
           (n > 6 && strcmp(name + n - 6, ".accdb") == 0);
}

/* Rows of table `ti` a scan of its first column returns. */
static int64_t scanned_rows(lt_source *src, uint32_t ti)
{
    const lt_table *t = &src->tables[ti];
    assert_true(t->ncols > 0);
    uint32_t col = 0;
    lt_type type = t->cols[0].type;
    lt_batch *b = lt_batch_new(1, &type, NULL, 100);
    assert_non_null(b);
    lt_scan_spec spec = {.table = ti, .ncols = 1, .cols = &col, .limit = -1};
    lt_scan *sc = NULL;
    lt_error err;
    lt_error_clear(&err);
    int64_t n = -1;
    if (src->reader->scan_open(src, &spec, &sc, &err) == 0) {
        n = 0;
        for (;;) {
            if (src->reader->scan_next(sc, b, &err) != 0) {
                n = -1;
                break;
            }
            if (b->count == 0)
                break;
            n += b->count;
        }
        src->reader->scan_close(sc);
    }
    lt_batch_free(b);
    return n;
}

/* A user table a scan can read (no error, not a view, not a followed link). */
static bool plain_table(const access_source *s, uint32_t i)
{
    const lt_table *t = &s->base.tables[i];
    return t->error == NULL && t->query == NULL && t->ncols > 0 &&
           (s->links == NULL || s->links[i] == NULL);
}

static void check_file(const char *path, uint32_t *ntables)
{
    lt_source *src = NULL;
    lt_error err;
    lt_error_clear(&err);
    if (lt_access_reader.open(path, NULL, &src, &err) != 0)
        return;   /* password files: the corpus test covers them */
    access_source *s = (access_source *)src;
    for (uint32_t i = 0; i < src->ntables; i++)
        assert_false(s->mtables[i].pages_read);
    for (uint32_t i = 0; i < src->ntables; i++) {
        if (!plain_table(s, i))
            continue;
        /* even tables count first, odd ones scan first */
        int64_t count, rows;
        if (i % 2 == 0) {
            count = src->reader->count_rows(src, i, &err);
            assert_true(s->mtables[i].pages_read);
            rows = scanned_rows(src, i);
        } else {
            rows = scanned_rows(src, i);
            assert_true(s->mtables[i].pages_read);
            count = src->reader->count_rows(src, i, &err);
        }
        if (rows < 0)
            continue;   /* a table whose rows are unreadable: its own tests */
        if (count != rows)
            fail_msg("%s: table '%s': count_rows %lld, a scan returns %lld", path,
                     src->tables[i].name, (long long)count, (long long)rows);
        assert_true(s->mtables[i].counted);
        assert_int_equal(src->reader->count_rows(src, i, &err), count);
        (*ntables)++;
    }
    src->reader->close(src);
}

static void test_corpus_counts(void **state)
{
    (void)state;
    DIR *d = opendir(ACCESS_DIR);
    assert_non_null(d);
    struct dirent *e;
    uint32_t files = 0, tables = 0;
    char path[4096];
    while ((e = readdir(d)) != NULL) {
        if (!is_access(e->d_name))
            continue;
        snprintf(path, sizeof path, "%s/%s", ACCESS_DIR, e->d_name);
        check_file(path, &tables);
        files++;
    }
    closedir(d);
    assert_true(files >= 20);
    assert_true(tables >= 40);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
