/*
** fuzz_workbook.h — the harness the workbook fuzz targets (fuzz_xls.c,
** fuzz_xlsb.c) share: open the input from memory, with HDR=Yes for an odd
** length and HDR=No for an even one, so both typing paths are fuzzed; scan
** every table that opens, columns in reverse order, in small batches, and
** read every text value.  A few flipped bytes can make a sheet millions of
** cells of nothing; a scan stops after MAX_BATCHES batches (the code paths
** are the same) so the fuzzer keeps its pace.  TypeGuessRows= takes 0..3
** from the input's length; ranges of the first table's sheet, named from
** its last bytes, are made and scanned too.
**
** Included by one fuzz target each (its functions are static).
*/
#ifndef LT_FUZZ_WORKBOOK_H
#define LT_FUZZ_WORKBOOK_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"

#define MAX_BATCHES 200

static void scan_table(lt_source *src, uint32_t ti)
{
    const lt_table *t = &src->tables[ti];
    if (t->error != NULL || t->ncols == 0)
        return;
    lt_type *types = calloc(t->ncols, sizeof *types);
    uint32_t *cols = calloc(t->ncols, sizeof *cols);
    lt_batch *batch = NULL;
    lt_scan *scan = NULL;
    lt_error err;
    if (types == NULL || cols == NULL)
        goto done;
    for (uint32_t c = 0; c < t->ncols; c++) {
        cols[c] = t->ncols - 1 - c;
        types[c] = t->cols[cols[c]].type;
    }
    lt_scan_spec spec = {.table = ti, .ncols = t->ncols, .cols = cols, .limit = -1};
    batch = lt_batch_new(t->ncols, types, NULL, 7);
    if (batch == NULL || src->reader->scan_open(src, &spec, &scan, &err) != 0)
        goto done;
    for (int n = 0; n < MAX_BATCHES && src->reader->scan_next(scan, batch, &err) == 0 && batch->count > 0; n++) {
        for (uint32_t c = 0; c < batch->ncols; c++) {
            const lt_vector *v = &batch->cols[c];
            if (v->type != LT_TEXT)
                continue;
            for (uint32_t r = 0; r < batch->count; r++) {
                if (v->nulls[r])
                    continue;
                volatile uint8_t sink = 0;
                for (uint32_t k = 0; k < v->v.bytes[r].len; k++)
                    sink ^= (uint8_t)v->v.bytes[r].ptr[k];
                (void)sink;
                if (v->v.bytes[r].len > 3u * t->cols[cols[c]].size)
                    abort();    /* a declared size must be a real maximum */
            }
        }
    }
done:
    if (scan != NULL)
        src->reader->scan_close(scan);
    lt_batch_free(batch);
    free(types);
    free(cols);
}

typedef int (*fuzz_open_memory_fn)(const uint8_t *data, size_t size, const char *name, const lt_options *opts,
                                   lt_source **out, lt_error *err);

/* "<first table without its $>$<range>", the range spelled from the
** input's last bytes (well-formed or not), looked up and scanned. */
static void scan_ranges(lt_source *src, const uint8_t *data, size_t size)
{
    if (src->ntables == 0 || size < 4 || src->reader->find_extra == NULL)
        return;
    const char *sheet = src->tables[0].name;
    size_t n = strlen(sheet);
    if (n > 0 && sheet[n - 1] == '$')
        n--;
    static const char alphabet[] = "ABCXZ0123456789:$'";
    for (int k = 0; k < 3; k++) {
        char name[600];
        if (n > 500)
            return;
        memcpy(name, sheet, n);
        size_t len = n;
        name[len++] = '$';
        for (size_t i = 0; i < 8 && i < size; i++)
            name[len++] = alphabet[(data[size - 1 - i] + k) % (sizeof alphabet - 1)];
        int64_t ti = lt_source_find_table(src, name, len);
        if (ti >= 0)
            scan_table(src, (uint32_t)ti);
    }
}

static int fuzz_workbook(const uint8_t *data, size_t size, fuzz_open_memory_fn open_memory, const char *name)
{
    static const char *const guess[] = {"0", "1", "2", "3"};
    lt_option items[2] = {{"HDR", (size & 1) ? "Yes" : "No"}, {"TypeGuessRows", guess[(size >> 1) & 3]}};
    lt_options opts = {2, items};
    lt_source *src = NULL;
    lt_error err;
    if (open_memory(data, size, name, &opts, &src, &err) != 0)
        return 0;
    for (uint32_t t = 0; t < src->ntables; t++)
        scan_table(src, t);
    scan_ranges(src, data, size);
    src->reader->close(src);
    return 0;
}

#endif /* LT_FUZZ_WORKBOOK_H */
