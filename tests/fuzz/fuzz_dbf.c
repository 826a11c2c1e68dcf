/*
** fuzz_dbf.c — libFuzzer target for the dBASE reader.
**
** Input: the .dbf bytes, optionally followed by "\nLTMEMO", one kind byte
** ('f' .fpt, 'd' .dbt; bit 0x80 also turns ShowDeleted on) and the memo
** file's bytes.  A plain .dbf file is a valid input, so the corpus tables
** are seeds as they are (make_dbf_seeds.sh adds their memo files).  Every
** table that opens is scanned in full, every column, in small batches.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dbf/dbf.h"
#include "reader.h"

static const uint8_t marker[] = "\nLTMEMO";
#define MARKER_LEN (sizeof marker - 1)

static size_t find_marker(const uint8_t *data, size_t size)
{
    for (size_t i = 0; i + MARKER_LEN < size; i++)
        if (data[i] == '\n' && memcmp(data + i, marker, MARKER_LEN) == 0)
            return i;
    return size;
}

static void scan_table(lt_source *src, uint32_t ti)
{
    const lt_table *t = &src->tables[ti];
    if (t->error != NULL)
        return;
    lt_type *types = calloc(t->ncols + 1, sizeof *types);
    int16_t *scales = calloc(t->ncols + 1, sizeof *scales);
    uint32_t *cols = calloc(t->ncols + 1, sizeof *cols);
    if (types == NULL || scales == NULL || cols == NULL)
        goto done;
    /* Columns in reverse order: the batch order need not be the table's. */
    for (uint32_t c = 0; c < t->ncols; c++) {
        cols[c] = t->ncols - 1 - c;
        types[c] = t->cols[cols[c]].type;
        scales[c] = t->cols[cols[c]].scale;
    }
    lt_scan_spec spec = {.table = ti, .ncols = t->ncols, .cols = cols, .limit = -1};
    lt_error err;
    lt_scan *scan = NULL;
    lt_batch *batch = lt_batch_new(t->ncols, types, scales, 7);
    if (batch != NULL && src->reader->scan_open(src, &spec, &scan, &err) == 0) {
        uint64_t rows = 0;
        while (src->reader->scan_next(scan, batch, &err) == 0 && batch->count > 0) {
            rows += batch->count;
            /* Touch every value so ASan sees any pointer past the input. */
            for (uint32_t c = 0; c < batch->ncols; c++) {
                lt_vector *v = &batch->cols[c];
                if (v->type != LT_TEXT && v->type != LT_BINARY)
                    continue;
                for (uint32_t r = 0; r < batch->count; r++) {
                    volatile uint8_t sink = 0;
                    if (!v->nulls[r])
                        for (uint32_t k = 0; k < v->v.bytes[r].len; k++)
                            sink ^= (uint8_t)v->v.bytes[r].ptr[k];
                    (void)sink;
                }
            }
        }
        int64_t counted = src->reader->count_rows(src, ti, &err);
        if (counted >= 0 && (uint64_t)counted < rows)
            abort();              /* count_rows must agree with the scan */
        src->reader->scan_close(scan);
    }
    lt_batch_free(batch);
done:
    free(types);
    free(scales);
    free(cols);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t table_len = find_marker(data, size);
    const uint8_t *memo = NULL;
    size_t memo_len = 0;
    const char *ext = NULL;
    bool show_deleted = false;
    if (table_len + MARKER_LEN < size) {
        uint8_t kind = data[table_len + MARKER_LEN];
        ext = (kind & 0x7F) == 'd' ? "dbt" : "fpt";
        show_deleted = (kind & 0x80) != 0;
        memo = data + table_len + MARKER_LEN + 1;
        memo_len = size - table_len - MARKER_LEN - 1;
    }
    lt_dbf_reader.probe(data, table_len < 512 ? table_len : 512, "fuzz.dbf");

    lt_option opt = {"ShowDeleted", show_deleted ? "1" : "0"};
    lt_options opts = {1, &opt};
    lt_source *src = NULL;
    lt_error err;
    if (lt_dbf_open_memory(data, table_len, memo, memo_len, ext, "fuzz", &opts, &src, &err) != 0)
        return 0;
    for (uint32_t t = 0; t < src->ntables; t++)
        scan_table(src, t);
    lt_source_close(src);
    return 0;
}
