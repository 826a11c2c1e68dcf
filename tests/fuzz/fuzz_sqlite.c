/*
** fuzz_sqlite.c — libFuzzer target for the SQLite reader.
**
** Input: the bytes of a database file (the .db files of the corpus folder
** "generated" are seeds as they are; run with -max_len=140000).  Every
** table that opens is scanned in full, every column, in small batches, with
** the columns in reverse order; every text and blob byte handed out is read
** (so ASan sees any pointer past the input); count_rows must agree with the
** scan.  Tagged rows (dynamic typing) are read through lt_vector.other.
** Each table is scanned again with a rowid range on its first column (a
** seek when that column is the INTEGER PRIMARY KEY) and with `c = 1` on its
** numeric columns (an index seek when an index starts with c): every row
** returned under an exact answer must satisfy the predicate.  Views' query text and foreign keys are read
** through.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "sqlite/sqlite.h"

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
        for (uint32_t r = 0; r < batch->count; r++) {
            if (v->nulls[r])
                continue;
            lt_type t = lt_vector_row_type(v, r);
            if (t != v->type) {
                if (v->other[r].type != t)
                    abort();       /* tag and value disagree */
                if (t == LT_TEXT || t == LT_BINARY)
                    touch(&v->other[r].u.bytes);
            } else if (t == LT_TEXT || t == LT_BINARY) {
                touch(&v->v.bytes[r]);
            }
        }
    }
}

static void touch_text(const char *s)
{
    if (s != NULL) {
        lt_bytes b = {s, (uint32_t)strlen(s)};
        touch(&b);
    }
}

/* Column 0 under `lo <= c0 <= hi`: an exact answer returns no row outside. */
static void scan_range(lt_source *src, uint32_t ti, int64_t lo, int64_t hi)
{
    const lt_table *t = &src->tables[ti];
    if (t->ncols == 0 || t->cols[0].type != LT_INT64)
        return;
    uint32_t col = 0;
    lt_type type = LT_INT64;
    lt_value vals[2] = {{.type = LT_INT64, .u.i64 = lo}, {.type = LT_INT64, .u.i64 = hi}};
    lt_pred pred = {.col = 0, .op = LT_PRED_BETWEEN, .nvalues = 2, .values = vals};
    lt_scan_spec spec = {.table = ti, .ncols = 1, .cols = &col, .npreds = 1, .preds = &pred,
                         .limit = -1};
    lt_error err;
    lt_scan *scan = NULL;
    lt_batch *batch = lt_batch_new(1, &type, NULL, 5);
    if (batch != NULL && src->reader->scan_open(src, &spec, &scan, &err) == 0) {
        while (src->reader->scan_next(scan, batch, &err) == 0 && batch->count > 0) {
            touch_batch(batch);
            for (uint32_t r = 0; pred.use == LT_PUSH_EXACT && r < batch->count; r++) {
                lt_value v;
                lt_batch_get(batch, 0, r, &v);
                if (v.type != LT_INT64 || v.u.i64 < lo || v.u.i64 > hi)
                    abort();      /* an exact predicate let a row through */
            }
        }
        src->reader->scan_close(scan);
    }
    lt_batch_free(batch);
}

/* Column c = 1 (an index seek when an index starts with c): an exact answer
** returns only rows whose value is 1. */
static void scan_equal(lt_source *src, uint32_t ti, uint32_t c)
{
    const lt_table *t = &src->tables[ti];
    lt_type type = t->cols[c].type;
    if (type != LT_INT64 && type != LT_DOUBLE)
        return;
    lt_value one = {.type = type};
    if (type == LT_INT64)
        one.u.i64 = 1;
    else
        one.u.f64 = 1.0;
    lt_pred pred = {.col = c, .op = LT_PRED_EQ, .nvalues = 1, .values = &one};
    lt_scan_spec spec = {.table = ti, .ncols = 1, .cols = &c, .npreds = 1, .preds = &pred,
                         .limit = -1};
    lt_error err;
    lt_scan *scan = NULL;
    lt_batch *batch = lt_batch_new(1, &type, NULL, 5);
    if (batch != NULL && src->reader->scan_open(src, &spec, &scan, &err) == 0) {
        while (src->reader->scan_next(scan, batch, &err) == 0 && batch->count > 0) {
            touch_batch(batch);
            for (uint32_t r = 0; pred.use == LT_PUSH_EXACT && r < batch->count; r++) {
                lt_value v;
                lt_batch_get(batch, 0, r, &v);
                bool is_one = (v.type == LT_INT64 && v.u.i64 == 1) ||
                              (v.type == LT_DOUBLE && v.u.f64 == 1.0);
                if (!is_one)
                    abort();      /* an exact equality let another value through */
            }
        }
        src->reader->scan_close(scan);
    }
    lt_batch_free(batch);
}

static void scan_table(lt_source *src, uint32_t ti)
{
    const lt_table *t = &src->tables[ti];
    touch_text(t->query);
    for (uint32_t k = 0; k < t->nforeign; k++) {
        const lt_foreign_key *fk = &t->foreign[k];
        touch_text(fk->name);
        touch_text(fk->ref_table);
        for (uint32_t c = 0; c < fk->ncols; c++) {
            if (fk->cols[c] >= t->ncols)
                abort();          /* a key column outside the table */
            touch_text(fk->ref_cols[c]);
        }
    }
    if (t->error != NULL || t->query != NULL)
        return;
    scan_range(src, ti, -3, 40);
    for (uint32_t c = 0; c < t->ncols && c < 8; c++)
        scan_equal(src, ti, c);
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
    lt_source *src = NULL;
    lt_error err;
    if (lt_sqlite_open_memory(data, size, "fuzz.db", NULL, &src, &err) != 0)
        return 0;
    for (uint32_t t = 0; t < src->ntables; t++)
        scan_table(src, t);
    src->reader->close(src);
    return 0;
}
