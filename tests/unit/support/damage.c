/*
** damage.c — truncation and bit-flip loops over a corpus's files for the
** damaged-file tests (see damage.h).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"
#include "damage.h"

typedef struct tally {
    size_t opened, open_failed, scanned_rows, scan_failed;
} tally;

/* Read every byte of the text cells, so a bad pointer shows under ASan;
** declared sizes are real maxima. */
static void touch_text(const lt_table *tab, const lt_batch *b)
{
    for (uint32_t c = 0; c < b->ncols; c++) {
        if (b->cols[c].type != LT_TEXT)
            continue;
        for (uint32_t r = 0; r < b->count; r++) {
            if (b->cols[c].nulls[r])
                continue;
            lt_bytes s = b->cols[c].v.bytes[r];
            volatile unsigned sum = 0;
            for (uint32_t k = 0; k < s.len; k++)
                sum += (unsigned char)s.ptr[k];
            (void)sum;
            assert_true(s.len <= 3u * tab->cols[c].size);
        }
    }
}

/* Scan table ti in batches of 5; a failure must name the file. */
static void scan_table(const ts_damage *d, lt_source *src, uint32_t ti, tally *t)
{
    const lt_table *tab = &src->tables[ti];
    lt_error err;
    lt_error_clear(&err);
    lt_type *types = calloc(tab->ncols, sizeof *types);
    uint32_t *cols = calloc(tab->ncols, sizeof *cols);
    assert_true(types && cols);
    for (uint32_t c = 0; c < tab->ncols; c++) {
        types[c] = tab->cols[c].type;
        cols[c] = c;
    }
    lt_scan_spec spec = {.table = ti, .ncols = tab->ncols, .cols = cols, .limit = -1};
    lt_batch *b = lt_batch_new(tab->ncols, types, NULL, 5);
    assert_non_null(b);
    lt_scan *scan = NULL;
    int rc = src->reader->scan_open(src, &spec, &scan, &err);
    while (rc == 0 && (rc = src->reader->scan_next(scan, b, &err)) == 0 && b->count > 0) {
        t->scanned_rows += b->count;
        touch_text(tab, b);
    }
    if (rc != 0) {
        assert_non_null(strstr(err.message, d->name));
        t->scan_failed++;
    }
    if (scan != NULL)
        src->reader->scan_close(scan);
    lt_batch_free(b);
    free(types);
    free(cols);
}

/* Open the bytes (HDR=No) and scan every table; every failure must carry a
** message that names the file. */
static void try_bytes(const ts_damage *d, const uint8_t *p, size_t n, tally *t)
{
    lt_source *src = NULL;
    lt_error err;
    lt_error_clear(&err);
    lt_option items[1] = {{"HDR", "No"}};
    lt_options opts = {1, items};
    if (d->open_memory(p, n, d->name, &opts, &src, &err) != 0) {
        assert_non_null(strstr(err.message, d->name));
        assert_true(err.sqlstate[0] != '\0');
        t->open_failed++;
        return;
    }
    t->opened++;
    for (uint32_t ti = 0; ti < src->ntables; ti++) {
        const lt_table *tab = &src->tables[ti];
        if (tab->error != NULL) {
            assert_non_null(strstr(tab->error, d->name));
            t->scan_failed++;
            continue;
        }
        assert_true(tab->ncols > 0);
        scan_table(d, src, ti, t);
    }
    src->reader->close(src);
}

/* The first n bytes, in a block of exactly that size (ASan sees overreads). */
static void try_prefix(const ts_damage *d, const uint8_t *data, size_t n, tally *t)
{
    uint8_t *copy = malloc(n + 1);
    assert_non_null(copy);
    memcpy(copy, data, n);
    try_bytes(d, copy, n, t);
    free(copy);
}

/* The distinct file names of MANIFEST.tsv (first column, in runs). */
static size_t manifest_files(const ts_damage *d, char names[][128], size_t max)
{
    char path[512];
    snprintf(path, sizeof path, "%s/MANIFEST.tsv", d->dir);
    ts_tsv m;
    assert_true(ts_tsv_load(path, 7, &m));
    size_t n = 0;
    for (size_t r = 0; r < m.nrows; r++) {
        const char *file = ts_tsv_row(&m, r)[0];
        if (n > 0 && strcmp(names[n - 1], file) == 0)
            continue;
        if (n < max)
            snprintf(names[n++], 128, "%s", file);
    }
    ts_tsv_free(&m);
    return n;
}

static uint8_t *load(const ts_damage *d, const char *file, size_t *size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", d->dir, file);
    uint8_t *data = (uint8_t *)ts_slurp(path, size);
    assert_non_null(data);
    return data;
}

void ts_damage_truncated(const ts_damage *d)
{
    static char names[128][128];
    size_t nfiles = manifest_files(d, names, 128);
    assert_true(nfiles > d->min_files);
    tally t = {0};
    for (size_t i = 0; i < nfiles; i++) {
        size_t size;
        uint8_t *data = load(d, names[i], &size);
        static const size_t fixed[] = {0, 1, 7, 8, 100, 511, 512, 513, 1024, 1536, 2047};
        for (size_t k = 0; k < sizeof fixed / sizeof *fixed; k++)
            if (fixed[k] < size)
                try_prefix(d, data, fixed[k], &t);
        for (size_t k = 1; k < 24; k++)
            try_prefix(d, data, size * k / 24, &t);
        free(data);
    }
    printf("truncated: %zu opened (%zu rows), %zu failed to open, %zu scans failed\n",
           t.opened, t.scanned_rows, t.open_failed, t.scan_failed);
    assert_true(t.open_failed > 0);
}

/* Where flip k lands: half in the span the format keeps its structure in. */
static size_t flip_offset(const ts_damage *d, int k, uint32_t seed, size_t size)
{
    size_t span = (k % 2 == 0 && size > d->flip_span) ? d->flip_span : size;
    size_t at = (seed >> 8) % span;
    if (d->flip_tail && span < size)
        at += size - span;
    return at;
}

void ts_damage_bit_flips(const ts_damage *d)
{
    static char names[128][128];
    size_t nfiles = manifest_files(d, names, 128);
    tally t = {0};
    uint32_t seed = 12345;
    for (size_t i = 0; i < nfiles; i++) {
        size_t size;
        uint8_t *data = load(d, names[i], &size);
        uint8_t *copy = malloc(size);
        assert_non_null(copy);
        for (int k = 0; k < 64; k++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = flip_offset(d, k, seed, size);
            memcpy(copy, data, size);
            copy[at] ^= (uint8_t)(1u << (seed % 8));
            try_bytes(d, copy, size, &t);
        }
        free(copy);
        free(data);
    }
    printf("bit flips: %zu opened (%zu rows), %zu failed to open, %zu scans failed\n",
           t.opened, t.scanned_rows, t.open_failed, t.scan_failed);
    assert_true(t.opened > 0);
}

static void truncated(void **state)
{
    ts_damage_truncated(*state);
}

static void bit_flips(void **state)
{
    ts_damage_bit_flips(*state);
}

int ts_damage_main(const ts_damage *d)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(truncated, (void *)d),
        cmocka_unit_test_prestate(bit_flips, (void *)d),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
