/*
** test_xlsb_damaged.c — every .xlsb file of the corpus, cut short at many
** lengths and with single bits flipped at many places (in the container's
** header, FAT and directory as well as in the records), opened and scanned
** in full: each attempt either reads or fails with a message naming the
** file; nothing crashes, hangs or reads out of bounds (run it under
** ASan/UBSan and valgrind to see the last two).
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
#include "xlsb/xlsb.h"

#define XLSB_DIR LT_CORPUS_DIR "/xlsb"

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc(n > 0 ? (size_t)n : 1);
    *len = fread(p, 1, (size_t)n, f);
    fclose(f);
    return p;
}

typedef struct tally {
    size_t opened, open_failed, scanned_rows, scan_failed;
} tally;

/* Open the bytes and scan every table in batches of 5; every failure must
** carry a message that names the file. */
static void try_bytes(const uint8_t *p, size_t n, tally *t)
{
    lt_source *src = NULL;
    lt_error err;
    lt_error_clear(&err);
    lt_option items[1] = {{"HDR", "No"}};
    lt_options opts = {1, items};
    if (lt_xlsb_open_memory(p, n, "damaged.xlsb", &opts, &src, &err) != 0) {
        assert_non_null(strstr(err.message, "damaged.xlsb"));
        assert_true(err.sqlstate[0] != '\0');
        t->open_failed++;
        return;
    }
    t->opened++;
    for (uint32_t ti = 0; ti < src->ntables; ti++) {
        const lt_table *tab = &src->tables[ti];
        if (tab->error != NULL) {
            assert_non_null(strstr(tab->error, "damaged.xlsb"));
            t->scan_failed++;
            continue;
        }
        assert_true(tab->ncols > 0);
        lt_type *types = calloc(tab->ncols, sizeof *types);
        uint32_t *cols = calloc(tab->ncols, sizeof *cols);
        for (uint32_t c = 0; c < tab->ncols; c++) {
            types[c] = tab->cols[c].type;
            cols[c] = c;
        }
        lt_scan_spec spec = {.table = ti, .ncols = tab->ncols, .cols = cols, .limit = -1};
        lt_batch *b = lt_batch_new(tab->ncols, types, NULL, 5);
        lt_scan *scan = NULL;
        int rc = src->reader->scan_open(src, &spec, &scan, &err);
        while (rc == 0 && (rc = src->reader->scan_next(scan, b, &err)) == 0 && b->count > 0) {
            t->scanned_rows += b->count;
            /* Touch the text, so a bad pointer shows under ASan. */
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
                    /* Declared sizes are real maxima. */
                    assert_true(s.len <= 3u * tab->cols[c].size);
                }
            }
        }
        if (rc != 0) {
            assert_non_null(strstr(err.message, "damaged.xlsb"));
            t->scan_failed++;
        }
        if (scan != NULL)
            src->reader->scan_close(scan);
        lt_batch_free(b);
        free(types);
        free(cols);
    }
    src->reader->close(src);
}

/* The distinct file names of MANIFEST.tsv (first column). */
static size_t manifest_files(char names[][128], size_t max)
{
    size_t len, n = 0;
    char *text = (char *)slurp(XLSB_DIR "/MANIFEST.tsv", &len);
    assert_non_null(text);
    text = realloc(text, len + 1);
    text[len] = '\0';
    char *save = NULL;
    bool header = true;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (header) {
            header = false;
            continue;
        }
        char *tab = strchr(line, '\t');
        if (tab == NULL)
            continue;
        *tab = '\0';
        if (n > 0 && strcmp(names[n - 1], line) == 0)
            continue;
        if (n < max)
            snprintf(names[n++], 128, "%s", line);
    }
    free(text);
    return n;
}

static void test_truncated(void **state)
{
    (void)state;
    static char names[128][128];
    size_t nfiles = manifest_files(names, 128);
    assert_true(nfiles > 20);
    tally t = {0};
    for (size_t i = 0; i < nfiles; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", XLSB_DIR, names[i]);
        size_t size;
        uint8_t *data = slurp(path, &size);
        assert_non_null(data);
        static const size_t fixed[] = {0, 1, 7, 8, 100, 511, 512, 513, 1024, 1536, 2047};
        for (size_t k = 0; k < sizeof fixed / sizeof *fixed; k++)
            if (fixed[k] < size) {
                uint8_t *copy = malloc(fixed[k] + 1);   /* exact size: ASan sees overreads */
                memcpy(copy, data, fixed[k]);
                try_bytes(copy, fixed[k], &t);
                free(copy);
            }
        for (size_t k = 1; k < 24; k++) {
            size_t n = size * k / 24;
            uint8_t *copy = malloc(n + 1);
            memcpy(copy, data, n);
            try_bytes(copy, n, &t);
            free(copy);
        }
        free(data);
    }
    printf("truncated: %zu opened (%zu rows), %zu failed to open, %zu scans failed\n",
           t.opened, t.scanned_rows, t.open_failed, t.scan_failed);
    assert_true(t.open_failed > 0);
}

static void test_bit_flips(void **state)
{
    (void)state;
    static char names[128][128];
    size_t nfiles = manifest_files(names, 128);
    tally t = {0};
    uint32_t seed = 12345;
    for (size_t i = 0; i < nfiles; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", XLSB_DIR, names[i]);
        size_t size;
        uint8_t *data = slurp(path, &size);
        assert_non_null(data);
        uint8_t *copy = malloc(size);
        for (int k = 0; k < 64; k++) {
            seed = seed * 1103515245u + 12345u;
            /* Half the flips hit the last 2 KiB: the central directory. */
            size_t span = (k % 2 == 0 && size > 2048) ? 2048 : size;
            size_t at = (seed >> 8) % span + (span < size ? size - span : 0);
            memcpy(copy, data, size);
            copy[at] ^= (uint8_t)(1u << (seed % 8));
            try_bytes(copy, size, &t);
        }
        free(copy);
        free(data);
    }
    printf("bit flips: %zu opened (%zu rows), %zu failed to open, %zu scans failed\n",
           t.opened, t.scanned_rows, t.open_failed, t.scan_failed);
    assert_true(t.opened > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_bit_flips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
