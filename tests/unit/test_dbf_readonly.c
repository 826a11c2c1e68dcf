/*
** test_dbf_readonly.c — Lector never writes to a user's files: after every
** corpus table (and its memo and .cpg companions) has been opened, scanned
** in full and closed, each file has the same bytes, size and mtime.  And a
** file rewritten under a scan fails that scan instead of yielding a mix.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_dbf_build.h"

#define DBF_DIR LT_CORPUS_DIR "/dbf"

typedef struct snapshot {
    char path[1024];
    off_t size;
    struct timespec mtime;
    uint64_t hash;
} snapshot;

static uint64_t hash_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    uint64_t h = 1469598103934665603ull;     /* FNV-1a */
    int c;
    while ((c = fgetc(f)) != EOF)
        h = (h ^ (uint8_t)c) * 1099511628211ull;
    fclose(f);
    return h;
}

static void take(snapshot *s, const char *path)
{
    struct stat sb;
    snprintf(s->path, sizeof s->path, "%s", path);
    assert_int_equal(stat(path, &sb), 0);
    s->size = sb.st_size;
    s->mtime = sb.st_mtim;
    s->hash = hash_file(path);
}

static void same(const snapshot *s)
{
    snapshot now;
    take(&now, s->path);
    if (now.size != s->size || now.mtime.tv_sec != s->mtime.tv_sec ||
        now.mtime.tv_nsec != s->mtime.tv_nsec || now.hash != s->hash)
        fail_msg("%s changed", s->path);
}

/* The table and every file beside it with the same stem (.dbt, .FPT, .cpg). */
static size_t snapshot_table(const char *table_path, snapshot *out, size_t cap)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", table_path);
    char *slash = strrchr(dir, '/');
    assert_non_null(slash);
    *slash = '\0';
    const char *base = slash + 1 - dir + table_path;
    size_t stem = strrchr(base, '.') - base;
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL && n < cap) {
        if (strncasecmp(de->d_name, base, stem) == 0 && de->d_name[stem] == '.') {
            char path[2048];
            snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
            take(&out[n++], path);
        }
    }
    closedir(d);
    assert_true(n >= 1);
    return n;
}

static void scan_everything(lt_source *src)
{
    tb_read r = {.src = src};
    for (uint32_t t = 0; t < src->ntables; t++)
        if (src->tables[t].error == NULL)
            assert_int_equal(tb_scan(&r, t), 0);
    lt_batch_free(r.batch);
}

static void test_corpus_untouched(void **state)
{
    (void)state;
    FILE *m = fopen(DBF_DIR "/MANIFEST.tsv", "r");
    assert_non_null(m);
    char line[8192];
    int tables = 0;
    /* Deleted records too: every record's bytes are read. */
    lt_option opt = {"ShowDeleted", "1"};
    lt_options opts = {1, &opt};
    assert_true(lt_options_bool(&opts, "showdeleted", false));
    assert_non_null(fgets(line, sizeof line, m));          /* header */
    while (fgets(line, sizeof line, m) != NULL) {
        char *tab = strchr(line, '\t');
        assert_non_null(tab);
        *tab = '\0';
        assert_true(strlen(line) < 512);
        char path[1536];
        snprintf(path, sizeof path, "%s/%s", DBF_DIR, line);
        snapshot before[8];
        size_t n = snapshot_table(path, before, 8);
        lt_source *src = NULL;
        lt_error err;
        if (lt_source_open(path, &opts, &src, &err) == 0) {
            scan_everything(src);
            lt_source_close(src);
        }
        for (size_t i = 0; i < n; i++)
            same(&before[i]);
        tables++;
    }
    fclose(m);
    /* And the whole folder opened at once. */
    snapshot before[8];
    size_t n = snapshot_table(DBF_DIR "/generated/vfp_alltypes.dbf", before, 8);
    lt_source *src = NULL;
    lt_error err;
    assert_int_equal(lt_source_open(DBF_DIR "/generated", NULL, &src, &err), 0);
    assert_true(src->ntables > 10);
    scan_everything(src);
    lt_source_close(src);
    for (size_t i = 0; i < n; i++)
        same(&before[i]);
    printf("read-only: %d corpus tables scanned, files unchanged\n", tables);
}

/* Rewrite a table between two batches of one scan: the second batch fails. */
static void test_change_under_scan(void **state)
{
    (void)state;
    char dir[] = "/tmp/lector-dbf-change-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/t.dbf", dir);
    static const tb_field f = {"X", 'C', 1, 0, 0};
    tb b = {0};
    tb_header(&b, 0x03, 0x03, 3, &f, 1, 1, 0);
    tb_put(&b, " a b c", 6);
    FILE *out = fopen(path, "wb");
    assert_non_null(out);
    fwrite(b.p, 1, b.len, out);
    fclose(out);

    lt_source *src;
    lt_error err;
    assert_int_equal(lt_source_open(path, NULL, &src, &err), 0);
    uint32_t col = 0;
    lt_type type = LT_TEXT;
    lt_scan_spec spec = {.table = 0, .ncols = 1, .cols = &col, .limit = -1};
    lt_scan *scan;
    assert_int_equal(src->reader->scan_open(src, &spec, &scan, &err), 0);
    lt_batch *batch = lt_batch_new(1, &type, NULL, 1);
    assert_int_equal(src->reader->scan_next(scan, batch, &err), 0);
    assert_int_equal(batch->count, 1);

    out = fopen(path, "ab");                 /* another program appends */
    assert_non_null(out);
    fwrite(" d", 1, 2, out);
    fclose(out);
    assert_int_equal(src->reader->scan_next(scan, batch, &err), -1);
    assert_string_equal(err.sqlstate, "HY000");
    assert_non_null(strstr(err.message, "t.dbf"));
    assert_non_null(strstr(err.message, "changed"));
    src->reader->scan_close(scan);
    lt_batch_free(batch);
    lt_source_close(src);
    unlink(path);
    rmdir(dir);
    tb_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_untouched),
        cmocka_unit_test(test_change_under_scan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
