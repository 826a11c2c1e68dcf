/*
** fuzz_xlsb.c — libFuzzer target for the .xlsb reader.
**
** Input: the bytes of a file (a ZIP package), so
** the corpus workbooks are seeds as they are.  An odd input length reads
** with HDR=Yes, an even one with HDR=No, so both typing paths are fuzzed.
** Every table that opens is scanned, columns in reverse order, in small
** batches, and every text value is read.  A few flipped bytes can make a
** sheet 1,048,576 x 16,384 cells of nothing; the harness stops such a scan
** after MAX_BATCHES batches (the code paths are the same) so the fuzzer
** keeps its pace.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "xlsb/xlsb.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lt_option items[1] = {{"HDR", (size & 1) ? "Yes" : "No"}};
    lt_options opts = {1, items};
    lt_source *src = NULL;
    lt_error err;
    if (lt_xlsb_open_memory(data, size, "fuzz.xlsb", &opts, &src, &err) != 0)
        return 0;
    for (uint32_t t = 0; t < src->ntables; t++)
        scan_table(src, t);
    src->reader->close(src);
    return 0;
}
