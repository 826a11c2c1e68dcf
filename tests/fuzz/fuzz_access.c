/*
** fuzz_access.c — libFuzzer target for the Access reader.
**
** Input: the bytes of an .mdb/.accdb file (the files of the corpus folder
** "access" are seeds as they are; run with -max_len=600000, or smaller
** seeds cut to their first pages).  The database is opened with PWD=password
** (so the password corpus file opens) and every table is scanned in full,
** every column, in small batches, with the columns in reverse order; every
** text and binary byte handed out is read (so ASan sees any pointer past the
** input); count_rows must agree with a clean scan.  Views' SQL (rebuilt from
** MSysQueries) is read whole, and foreign keys (MSysRelationships) must name
** columns the table has.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "access/access.h"
#include "reader.h"

static void touch(const lt_bytes *b)
{
    volatile uint8_t sink = 0;
    for (uint32_t k = 0; k < b->len; k++)
        sink ^= (uint8_t)b->ptr[k];
    (void)sink;
}

static void touch_batch(const lt_batch *batch)
{
    for (uint32_t c = 0; c < batch->ncols; c++) {
        const lt_vector *v = &batch->cols[c];
        if (v->type != LT_TEXT && v->type != LT_BINARY)
            continue;
        for (uint32_t r = 0; r < batch->count; r++)
            if (!v->nulls[r])
                touch(&v->v.bytes[r]);
    }
}

static void check_table(const lt_table *t)
{
    if (t->query != NULL) {
        lt_bytes q = {t->query, (uint32_t)strlen(t->query)};
        touch(&q);
    }
    for (uint32_t k = 0; k < t->nforeign; k++) {
        const lt_foreign_key *fk = &t->foreign[k];
        if (fk->ref_table == NULL || fk->ncols == 0)
            abort();
        for (uint32_t c = 0; c < fk->ncols; c++)
            if (fk->cols[c] >= t->ncols || fk->ref_cols[c] == NULL)
                abort();
    }
}

static void scan_table(lt_source *src, uint32_t ti)
{
    const lt_table *t = &src->tables[ti];
    check_table(t);
    if (t->error != NULL || t->query != NULL)
        return;
    lt_type *types = calloc(t->ncols + 1, sizeof *types);
    int16_t *scales = calloc(t->ncols + 1, sizeof *scales);
    uint32_t *cols = calloc(t->ncols + 1, sizeof *cols);
    if (types == NULL || scales == NULL || cols == NULL)
        goto done;
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
        int rc;
        while ((rc = src->reader->scan_next(scan, batch, &err)) == 0 && batch->count > 0) {
            rows += batch->count;
            touch_batch(batch);
        }
        int64_t counted = src->reader->count_rows(src, ti, &err);
        if (rc == 0 && counted >= 0 && (uint64_t)counted != rows)
            abort();              /* count_rows must agree with a clean scan */
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
    static const lt_option pwd[] = {{"PWD", "password"}};
    const lt_options opts = {1, pwd};
    lt_source *src = NULL;
    lt_error err;
    if (lt_access_open_memory(data, size, "fuzz.mdb", &opts, &src, &err) != 0)
        return 0;
    for (uint32_t t = 0; t < src->ntables; t++)
        scan_table(src, t);
    src->reader->close(src);
    return 0;
}
