/*
** batch.c — allocating batches and reading or writing single cells.
*/
#include "../reader.h"

#include <stdlib.h>
#include <string.h>

static size_t value_width(lt_type type)
{
    switch (type) {
    case LT_BOOL:      return sizeof(uint8_t);
    case LT_INT64:
    case LT_TIME:
    case LT_TIMESTAMP: return sizeof(int64_t);
    case LT_DATE:      return sizeof(int32_t);
    case LT_DOUBLE:    return sizeof(double);
    case LT_DECIMAL:   return sizeof(lt_int128);
    case LT_TEXT:
    case LT_BINARY:    return sizeof(lt_bytes);
    case LT_GUID:      return sizeof(lt_guid);
    case LT_NULL:      return sizeof(uint8_t);
    }
    return sizeof(lt_int128);
}

lt_batch *lt_batch_new(uint32_t ncols, const lt_type *types,
                       const int16_t *scales, uint32_t capacity)
{
    lt_batch *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NULL;
    b->capacity = capacity;
    b->ncols = ncols;
    lt_arena_init(&b->arena);
    b->cols = calloc(ncols ? ncols : 1, sizeof *b->cols);
    if (b->cols == NULL)
        goto fail;
    for (uint32_t c = 0; c < ncols; c++) {
        lt_vector *v = &b->cols[c];
        v->type = types[c];
        v->scale = scales ? scales[c] : 0;
        v->nulls = calloc(capacity ? capacity : 1, 1);
        v->v.any = calloc(capacity ? capacity : 1, value_width(types[c]));
        if (v->nulls == NULL || v->v.any == NULL)
            goto fail;
    }
    return b;
fail:
    lt_batch_free(b);
    return NULL;
}

void lt_batch_free(lt_batch *b)
{
    if (b == NULL)
        return;
    if (b->cols != NULL) {
        for (uint32_t c = 0; c < b->ncols; c++) {
            free(b->cols[c].nulls);
            free(b->cols[c].v.any);
        }
        free(b->cols);
    }
    lt_arena_free(&b->arena);
    free(b);
}

void lt_batch_reset(lt_batch *b)
{
    b->count = 0;
    /* Tagged rows live in the arena: forget them with it. */
    for (uint32_t c = 0; c < b->ncols; c++) {
        b->cols[c].tags = NULL;
        b->cols[c].other = NULL;
    }
    lt_arena_reset(&b->arena);
}

int lt_vector_tag_arrays(lt_batch *b, lt_vector *v)
{
    if (v->tags != NULL)
        return 0;
    v->tags = lt_arena_alloc(&b->arena, b->capacity);
    v->other = lt_arena_alloc(&b->arena, (size_t)b->capacity * sizeof *v->other);
    if (v->tags == NULL || v->other == NULL) {
        v->tags = NULL;
        v->other = NULL;
        return -1;
    }
    memset(v->tags, 0, b->capacity);
    return 0;
}

void lt_vector_get(const lt_vector *v, uint32_t row, lt_value *out)
{
    memset(out, 0, sizeof *out);
    if (v->nulls[row]) {
        out->type = LT_NULL;
        return;
    }
    if (v->tags != NULL && v->tags[row] != LT_NULL) {
        *out = v->other[row];
        return;
    }
    out->type = v->type;
    switch (v->type) {
    case LT_BOOL:      out->u.b = v->v.b[row] != 0; break;
    case LT_INT64:
    case LT_TIME:
    case LT_TIMESTAMP: out->u.i64 = v->v.i64[row]; break;
    case LT_DATE:      out->u.date = v->v.date[row]; break;
    case LT_DOUBLE:    out->u.f64 = v->v.f64[row]; break;
    case LT_DECIMAL:   out->u.dec = v->v.dec[row]; out->scale = v->scale; break;
    case LT_TEXT:
    case LT_BINARY:    out->u.bytes = v->v.bytes[row]; break;
    case LT_GUID:      out->u.guid = v->v.guid[row]; break;
    case LT_NULL:      out->type = LT_NULL; break;
    }
}

void lt_batch_get(const lt_batch *b, uint32_t col, uint32_t row, lt_value *out)
{
    lt_vector_get(&b->cols[col], row, out);
}

int lt_batch_set(lt_batch *b, uint32_t col, uint32_t row, const lt_value *val)
{
    lt_vector *v = &b->cols[col];
    if (val->type == LT_NULL || v->type == LT_NULL) {
        v->nulls[row] = 1;
        return 0;
    }
    v->nulls[row] = 0;
    switch (v->type) {
    case LT_BOOL:      v->v.b[row] = val->u.b ? 1 : 0; break;
    case LT_INT64:
    case LT_TIME:
    case LT_TIMESTAMP: v->v.i64[row] = val->u.i64; break;
    case LT_DATE:      v->v.date[row] = val->u.date; break;
    case LT_DOUBLE:    v->v.f64[row] = val->u.f64; break;
    case LT_DECIMAL:   v->v.dec[row] = val->u.dec; break;
    case LT_GUID:      v->v.guid[row] = val->u.guid; break;
    case LT_TEXT:
    case LT_BINARY: {
        char *copy = lt_arena_strndup(&b->arena, val->u.bytes.ptr, val->u.bytes.len);
        if (copy == NULL)
            return -1;
        v->v.bytes[row].ptr = copy;
        v->v.bytes[row].len = val->u.bytes.len;
        break;
    }
    case LT_NULL: break;
    }
    return 0;
}
