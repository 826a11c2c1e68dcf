/*
** fetch.c — moving a cursor and handing rows to the application: SQLFetch,
** SQLFetchScroll, SQLExtendedFetch, SQLGetData, SQLSetPos (positioning only).
**
** The rowset is a short list of segments, each a run of rows of one batch.
** A forward-only cursor reads the engine's batches as they come; rows of
** the rowset that sit in a batch about to be replaced are first copied into
** a `carry` batch, so the whole rowset stays readable for SQLGetData after
** SQLSetPos (SQL_GD_BLOCK).  A static cursor copies every batch at its first
** fetch and then serves any rowset from the copies.
**
** The hot loop (fill_rowset) runs column by column: for each bound column
** it works out the buffers' addresses and strides once, then converts each
** row of each segment straight from the batch vector.  Nothing is allocated
** per row; the scratch arrays live as long as the cursor.
**
** Row at a time (SQLFetch of one row, nothing bound, then SQLGetData per
** column, as isql, pyodbc and Power Query do) has a short path: the fetch
** only steps to the next row of the batch at hand (next_in_batch), and
** SQLGetData finds its row in the segments once per fetch (current_row).
*/
#include "driver.h"
#include "convert.h"
#include "types.h"

#include <stdlib.h>
#include <string.h>

#define AFTER_END (-1) /* rowset_start when past the last row */

typedef struct fetch_seg {
    const lt_batch *batch;
    uint32_t first, count;
} fetch_seg;

/* What one bound column needs during a fetch. */
typedef struct col_plan {
    SQLUSMALLINT number;     /* 1-based result column; 0 = bookmark */
    const lt_column *column;
    SQLSMALLINT ctype;
    SQLSMALLINT precision, scale;
    char *data;              /* element 0, bind offset applied; may be NULL */
    SQLLEN *ind, *len;       /* likewise */
    SQLLEN buflen;
    size_t data_stride, ind_stride;
} col_plan;

typedef struct fetch_cache {
    bool is_static;
    bool broken;             /* the engine failed: the cursor is done for */
    /* forward-only */
    lt_batch *cur;           /* the engine's batch (the cursor owns it) */
    uint32_t cur_pos;        /* next row of cur to hand out */
    lt_batch *carry;         /* rowset rows saved from earlier batches */
    bool eof;
    uint64_t delivered;      /* rows handed out so far (for MAX_ROWS) */
    /* static */
    lt_batch **batches;
    uint64_t *starts;        /* 0-based number of each batch's first row */
    uint32_t nbatches, batch_cap;
    bool materialised;
    int64_t total;
    /* the current rowset and scratch space */
    fetch_seg *segs;
    uint32_t nsegs, seg_cap;
    col_plan *plans;
    uint32_t plan_cap;
    uint8_t *row_flags;      /* per rowset row: 1 warning, 2 error */
    size_t flag_cap;
    /* SQLGetData's row, found in the segments once per fetch or SQLSetPos
    ** rather than once per call (fetch() forgets it: segments change only
    ** there) */
    const lt_batch *gd_batch;  /* NULL: not found yet */
    uint32_t gd_row;
    SQLULEN gd_index;          /* the rowset row it is for */
} fetch_cache;

enum { ROW_OK = 0, ROW_WARN = 1, ROW_ERR = 2 };

/* ------------------------------------------------------------------------ */
/* The cache                                                                 */
/* ------------------------------------------------------------------------ */

void lt_fetch_free(lt_stmt *s)
{
    fetch_cache *fc = s->rows;
    if (fc == NULL)
        return;
    lt_batch_free(fc->carry);
    for (uint32_t i = 0; i < fc->nbatches; i++)
        lt_batch_free(fc->batches[i]);
    free(fc->batches);
    free(fc->starts);
    free(fc->segs);
    free(fc->plans);
    free(fc->row_flags);
    free(fc);
    s->rows = NULL;
}

static fetch_cache *cache_of(lt_stmt *s)
{
    if (s->rows == NULL) {
        fetch_cache *fc = calloc(1, sizeof *fc);
        if (fc == NULL)
            return NULL;
        fc->is_static = s->cursor_type != SQL_CURSOR_FORWARD_ONLY;
        fc->total = -1;
        s->rows = fc;
    }
    return s->rows;
}

SQLULEN lt_stmt_row_number(const lt_stmt *s)
{
    if (s->state != LT_STMT_CURSOR || s->rowset_start <= 0 || s->rowset_size == 0)
        return 0;
    return (SQLULEN)s->rowset_start + s->rowset_row;
}

static int push_seg(fetch_cache *fc, const lt_batch *b, uint32_t first, uint32_t count)
{
    if (fc->nsegs > 0) {
        fetch_seg *last = &fc->segs[fc->nsegs - 1];
        if (last->batch == b && last->first + last->count == first) {
            last->count += count;
            return 0;
        }
    }
    if (fc->nsegs == fc->seg_cap) {
        uint32_t cap = fc->seg_cap ? fc->seg_cap * 2 : 4;
        fetch_seg *segs = realloc(fc->segs, cap * sizeof *segs);
        if (segs == NULL)
            return -1;
        fc->segs = segs;
        fc->seg_cap = cap;
    }
    fc->segs[fc->nsegs++] = (fetch_seg){b, first, count};
    return 0;
}

/* A new batch with the same column types as `like` (once per cursor or
** per copied batch, never per row). */
static lt_batch *batch_like(const lt_batch *like, uint32_t capacity)
{
    uint32_t n = like->ncols;
    lt_type *types = malloc((n ? n : 1) * sizeof *types);
    int16_t *scales = malloc((n ? n : 1) * sizeof *scales);
    lt_batch *b = NULL;
    if (types != NULL && scales != NULL) {
        for (uint32_t c = 0; c < n; c++) {
            types[c] = like->cols[c].type;
            scales[c] = like->cols[c].scale;
        }
        b = lt_batch_new(n, types, scales, capacity ? capacity : 1);
    }
    free(types);
    free(scales);
    return b;
}

static bool is_tagged(const lt_vector *v, uint32_t row)
{
    return v->tags != NULL && v->tags[row] != LT_NULL;
}

/* Copy the rows of [first, first+n) of `from` that carry a value of another
** type than their column (SQLite) to rows at.. of `to`, a column of `dst`;
** their text goes into dst's arena like the column's own. */
static int copy_tagged(lt_batch *dst, lt_vector *to, const lt_vector *from,
                       uint32_t first, uint32_t n, uint32_t at)
{
    for (uint32_t r = 0; r < n; r++) {
        if (!is_tagged(from, first + r))
            continue;
        if (to->tags == NULL) {
            to->tags = lt_arena_alloc(&dst->arena, dst->capacity);
            to->other = lt_arena_alloc(&dst->arena, dst->capacity * sizeof *to->other);
            if (to->tags == NULL || to->other == NULL)
                return -1;
            memset(to->tags, 0, dst->capacity);
        }
        lt_value v = from->other[first + r];
        if ((v.type == LT_TEXT || v.type == LT_BINARY) && v.u.bytes.len > 0) {
            v.u.bytes.ptr = lt_arena_strndup(&dst->arena, v.u.bytes.ptr, v.u.bytes.len);
            if (v.u.bytes.ptr == NULL)
                return -1;
        }
        to->tags[at + r] = from->tags[first + r];
        to->other[at + r] = v;
    }
    return 0;
}

/* Append rows [first, first+n) of `src` to `dst` (which has room and the
** same column types): a column at a time, fixed-width values and null
** flags by memcpy, the bytes of text and binary into one arena block per
** column, rows of another type (tags) one by one. */
static int copy_rows(lt_batch *dst, const lt_batch *src, uint32_t first, uint32_t n)
{
    uint32_t at = dst->count;
    for (uint32_t c = 0; c < src->ncols; c++) {
        const lt_vector *from = &src->cols[c];
        lt_vector *to = &dst->cols[c];
        memcpy(to->nulls + at, from->nulls + first, n);
        switch (from->type) {
        case LT_BOOL:
            memcpy(to->v.b + at, from->v.b + first, n * sizeof *from->v.b);
            break;
        case LT_INT64:
        case LT_TIME:
        case LT_TIMESTAMP:
            memcpy(to->v.i64 + at, from->v.i64 + first, n * sizeof *from->v.i64);
            break;
        case LT_DATE:
            memcpy(to->v.date + at, from->v.date + first, n * sizeof *from->v.date);
            break;
        case LT_DOUBLE:
            memcpy(to->v.f64 + at, from->v.f64 + first, n * sizeof *from->v.f64);
            break;
        case LT_DECIMAL:
            memcpy(to->v.dec + at, from->v.dec + first, n * sizeof *from->v.dec);
            break;
        case LT_GUID:
            memcpy(to->v.guid + at, from->v.guid + first, n * sizeof *from->v.guid);
            break;
        case LT_TEXT:
        case LT_BINARY: {
            /* The source's bytes may live in its arena or the mapped file;
            ** the copy must outlive both. */
            size_t total = 0;
            for (uint32_t r = 0; r < n; r++)
                if (!from->nulls[first + r] && !is_tagged(from, first + r))
                    total += from->v.bytes[first + r].len;
            char *block = total ? lt_arena_alloc(&dst->arena, total) : NULL;
            if (total && block == NULL)
                return -1;
            for (uint32_t r = 0; r < n; r++) {
                lt_bytes b = {"", 0};
                if (!from->nulls[first + r] && !is_tagged(from, first + r) &&
                    from->v.bytes[first + r].len > 0) {
                    b.len = from->v.bytes[first + r].len;
                    memcpy(block, from->v.bytes[first + r].ptr, b.len);
                    b.ptr = block;
                    block += b.len;
                }
                to->v.bytes[at + r] = b;
            }
            break;
        }
        case LT_NULL:
            break;
        }
        if (from->tags != NULL && copy_tagged(dst, to, from, first, n, at) != 0)
            return -1;
    }
    dst->count += n;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Forward-only: reading rows as they come                                   */
/* ------------------------------------------------------------------------ */

/* The last segment points into the engine batch about to be replaced: keep
** its rows in the carry batch. */
static int keep_in_carry(fetch_cache *fc, SQLULEN rowset_size)
{
    fetch_seg *last = &fc->segs[fc->nsegs - 1];
    if (fc->carry == NULL || fc->carry->capacity < rowset_size) {
        /* Only grows when the rowset size grew: not per fetch. */
        lt_batch *carry = batch_like(fc->cur, (uint32_t)rowset_size);
        if (carry == NULL)
            return -1;
        if (fc->carry != NULL && fc->nsegs > 1 && fc->segs[0].batch == fc->carry)
            if (copy_rows(carry, fc->carry, 0, fc->carry->count) != 0) {
                lt_batch_free(carry);
                return -1;
            }
        lt_batch_free(fc->carry);
        fc->carry = carry;
        if (fc->nsegs > 1)
            fc->segs[0].batch = carry;
    }
    uint32_t at = fc->carry->count;
    if (copy_rows(fc->carry, last->batch, last->first, last->count) != 0)
        return -1;
    if (fc->nsegs > 1) {
        fc->segs[0].count += last->count; /* carry rows are contiguous */
        fc->nsegs--;
    } else {
        *last = (fetch_seg){fc->carry, at, last->count};
    }
    return 0;
}

/* Gather the next `want` rows into the segments.  Returns the number of
** rows, or -1 (err filled). */
static int64_t forward_rows(lt_stmt *s, fetch_cache *fc, SQLULEN want, lt_error *err)
{
    fc->nsegs = 0;
    if (fc->carry != NULL)
        lt_batch_reset(fc->carry);
    if (s->max_rows > 0) {
        uint64_t left = s->max_rows > fc->delivered ? s->max_rows - fc->delivered : 0;
        if (want > left)
            want = (SQLULEN)left;
    }
    SQLULEN got = 0;
    while (got < want) {
        if (fc->cur == NULL || fc->cur_pos >= fc->cur->count) {
            if (fc->eof)
                break;
            if (fc->nsegs > 0 && fc->segs[fc->nsegs - 1].batch == fc->cur &&
                keep_in_carry(fc, want) != 0)
                return lt_error_set(err, "HY001", "Memory allocation error");
            lt_batch *b = NULL;
            if (sql_cursor_next(s->cursor, &b, err) != 0) {
                fc->cur = NULL;
                return -1;
            }
            if (b == NULL || b->count == 0) {
                fc->eof = true;
                fc->cur = NULL;
                break;
            }
            fc->cur = b;
            fc->cur_pos = 0;
        }
        uint32_t avail = fc->cur->count - fc->cur_pos;
        uint32_t take = want - got < avail ? (uint32_t)(want - got) : avail;
        if (push_seg(fc, fc->cur, fc->cur_pos, take) != 0)
            return lt_error_set(err, "HY001", "Memory allocation error");
        fc->cur_pos += take;
        got += take;
    }
    fc->delivered += got;
    return (int64_t)got;
}

/* ------------------------------------------------------------------------ */
/* Static: every row copied once, then served by position                    */
/* ------------------------------------------------------------------------ */

static int materialise(lt_stmt *s, fetch_cache *fc, lt_error *err)
{
    uint64_t total = 0;
    uint64_t limit = s->max_rows > 0 ? s->max_rows : UINT64_MAX;
    while (total < limit) {
        lt_batch *b = NULL;
        if (sql_cursor_next(s->cursor, &b, err) != 0)
            return -1;
        if (b == NULL || b->count == 0)
            break;
        uint32_t n = b->count;
        if (total + n > limit)
            n = (uint32_t)(limit - total);
        if (fc->nbatches == fc->batch_cap) {
            uint32_t cap = fc->batch_cap ? fc->batch_cap * 2 : 16;
            lt_batch **batches = realloc(fc->batches, cap * sizeof *batches);
            if (batches == NULL)
                return lt_error_set(err, "HY001", "Memory allocation error");
            fc->batches = batches;
            uint64_t *starts = realloc(fc->starts, cap * sizeof *starts);
            if (starts == NULL)
                return lt_error_set(err, "HY001", "Memory allocation error");
            fc->starts = starts;
            fc->batch_cap = cap;
        }
        lt_batch *copy = batch_like(b, n);
        if (copy == NULL || copy_rows(copy, b, 0, n) != 0) {
            lt_batch_free(copy);
            return lt_error_set(err, "HY001", "Memory allocation error");
        }
        fc->batches[fc->nbatches] = copy;
        fc->starts[fc->nbatches] = total;
        fc->nbatches++;
        total += n;
    }
    fc->total = (int64_t)total;
    fc->materialised = true;
    return 0;
}

/* Segments for rows [start, start+n) (1-based start). */
static int static_rows(fetch_cache *fc, int64_t start, uint64_t n)
{
    fc->nsegs = 0;
    uint64_t row = (uint64_t)(start - 1);
    /* Binary search for the batch holding `row`. */
    uint32_t lo = 0, hi = fc->nbatches;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (fc->starts[mid] <= row)
            lo = mid;
        else
            hi = mid;
    }
    for (uint32_t b = lo; b < fc->nbatches && n > 0; b++) {
        uint64_t first = row - fc->starts[b];
        uint64_t avail = fc->batches[b]->count - first;
        uint64_t take = n < avail ? n : avail;
        if (push_seg(fc, fc->batches[b], (uint32_t)first, (uint32_t)take) != 0)
            return -1;
        row += take;
        n -= take;
    }
    return 0;
}

/* The first row of the new rowset by the rules of SQLFetchScroll
** ("Cursor Positioning Rules"): a row number, 0 (before start) or
** AFTER_END; *warn set when 01S06 applies. */
static int64_t scroll_target(const lt_stmt *s, SQLSMALLINT orientation, SQLLEN offset,
                             int64_t bookmark_row, int64_t last, int64_t size, bool *warn)
{
    int64_t cur = s->rowset_start;
    bool before = cur == 0, after = cur == AFTER_END;
    int64_t prev_size = s->last_fetch_size ? (int64_t)s->last_fetch_size : size;
    *warn = false;
    switch (orientation) {
    case SQL_FETCH_NEXT:
        if (before)
            return last >= 1 ? 1 : AFTER_END;
        if (after)
            return AFTER_END;
        return cur + prev_size <= last ? cur + prev_size : AFTER_END;
    case SQL_FETCH_PRIOR:
        if (before || cur == 1)
            return 0;
        if (after) {
            if (last < size) {
                *warn = last >= 1;
                return last >= 1 ? 1 : 0;
            }
            return last - size + 1;
        }
        if (cur <= size) {
            *warn = true;
            return 1;
        }
        return cur - size;
    case SQL_FETCH_RELATIVE:
        if ((before && offset > 0) || (after && offset < 0))
            return scroll_target(s, SQL_FETCH_ABSOLUTE, offset, 0, last, size, warn);
        if (before)
            return 0;
        if (after)
            return AFTER_END;
        if (cur == 1 && offset < 0)
            return 0;
        if (cur + offset < 1) {
            if (-(int64_t)offset > size)
                return 0;
            *warn = true;
            return 1;
        }
        return cur + offset <= last ? cur + offset : AFTER_END;
    case SQL_FETCH_ABSOLUTE:
        if (offset < 0) {
            int64_t back = -(int64_t)offset;
            if (back <= last)
                return last + offset + 1;
            if (back > size)
                return 0;
            *warn = last >= 1;
            return last >= 1 ? 1 : 0;
        }
        if (offset == 0)
            return 0;
        return offset <= last ? offset : AFTER_END;
    case SQL_FETCH_FIRST:
        return last >= 1 ? 1 : AFTER_END;
    case SQL_FETCH_LAST:
        if (last < 1)
            return AFTER_END;
        return size <= last ? last - size + 1 : 1;
    case SQL_FETCH_BOOKMARK:
        if (bookmark_row + offset < 1)
            return 0;
        return bookmark_row + offset <= last ? bookmark_row + offset : AFTER_END;
    }
    return AFTER_END;
}

/* ------------------------------------------------------------------------ */
/* Converting the rowset into the bound buffers                              */
/* ------------------------------------------------------------------------ */

static char *add_offset(void *p, SQLLEN off)
{
    return p ? (char *)p + off : NULL;
}

/* One plan per bound column of the ARD; returns the number. */
static int64_t plan_columns(lt_stmt *s, fetch_cache *fc)
{
    const lt_desc *ard = s->ard;
    SQLSMALLINT ncols = s->ird.count;
    SQLSMALLINT top = ard->count < ncols ? ard->count : ncols;
    if ((uint32_t)top + 1 > fc->plan_cap) {
        col_plan *plans = realloc(fc->plans, ((size_t)top + 1) * sizeof *plans);
        if (plans == NULL)
            return -1;
        fc->plans = plans;
        fc->plan_cap = (uint32_t)top + 1;
    }
    SQLLEN off = ard->bind_offset_ptr ? *ard->bind_offset_ptr : 0;
    bool by_row = ard->bind_type != SQL_BIND_BY_COLUMN;
    uint32_t n = 0;
    SQLSMALLINT from = s->use_bookmarks != SQL_UB_OFF ? 0 : 1;
    for (SQLSMALLINT c = from; c <= top && c < ard->capacity; c++) {
        const lt_desc_rec *r = &ard->recs[c];
        if (r->data_ptr == NULL && r->indicator_ptr == NULL && r->octet_length_ptr == NULL)
            continue;
        col_plan *p = &fc->plans[n++];
        p->number = (SQLUSMALLINT)c;
        p->column = c > 0 ? &sql_cursor_column_at(s->cursor, (uint32_t)c - 1)->desc : NULL;
        p->ctype = r->concise_type;
        if (p->ctype == SQL_C_DEFAULT)
            p->ctype = c > 0 ? lt_default_ctype(s->ird.recs[c].concise_type)
                             : (s->use_bookmarks == SQL_UB_VARIABLE ? SQL_C_VARBOOKMARK
                                                                     : SQL_C_BOOKMARK);
        p->precision = r->precision;
        p->scale = r->scale;
        p->data = add_offset(r->data_ptr, off);
        p->ind = (SQLLEN *)add_offset(r->indicator_ptr, off);
        p->len = (SQLLEN *)add_offset(r->octet_length_ptr, off);
        p->buflen = r->octet_length;
        if (by_row) {
            p->data_stride = p->ind_stride = (size_t)ard->bind_type;
        } else {
            SQLLEN fixed = lt_ctype_size(p->ctype);
            p->data_stride = (size_t)(fixed > 0 ? fixed : p->buflen);
            p->ind_stride = sizeof(SQLLEN);
        }
    }
    return n;
}

static SQLLEN *at(SQLLEN *base, size_t stride, uint32_t i)
{
    return base ? (SQLLEN *)((char *)base + (size_t)i * stride) : NULL;
}

/* Write the bookmark (the absolute row number) of one row. */
static SQLRETURN put_bookmark(const col_plan *p, uint32_t i, int64_t rownum,
                              const char **state)
{
    SQLUINTEGER bm = (SQLUINTEGER)rownum;
    SQLLEN *len = at(p->len, p->ind_stride, i);
    SQLLEN *ind = at(p->ind, p->ind_stride, i);
    char *dst = p->data ? p->data + (size_t)i * p->data_stride : NULL;
    if (p->ctype != SQL_C_BOOKMARK && p->ctype != SQL_C_VARBOOKMARK &&
        p->ctype != SQL_C_ULONG && p->ctype != SQL_C_SLONG && p->ctype != SQL_C_LONG) {
        *state = "07006";
        return SQL_ERROR;
    }
    if (p->ctype == SQL_C_VARBOOKMARK && dst != NULL && p->buflen < LT_BOOKMARK_SIZE) {
        *state = "HY090";
        return SQL_ERROR;
    }
    if (dst != NULL)
        memcpy(dst, &bm, sizeof bm);
    if (len != NULL)
        *len = LT_BOOKMARK_SIZE;
    if (ind != NULL && ind != len)
        *ind = 0;
    return SQL_SUCCESS;
}

static void flag_row(fetch_cache *fc, uint32_t i, SQLRETURN rc)
{
    uint8_t f = rc == SQL_ERROR ? ROW_ERR : rc == SQL_SUCCESS_WITH_INFO ? ROW_WARN : ROW_OK;
    if (f > fc->row_flags[i])
        fc->row_flags[i] = f;
}

static void post_row(lt_stmt *s, SQLRETURN rc, const char *state, uint32_t i,
                     SQLUSMALLINT col)
{
    if (rc == SQL_SUCCESS)
        return;
    const char *st = state ? state : (rc == SQL_ERROR ? "HY000" : "01000");
    lt_diag_post_at(&s->h, st, (SQLLEN)i + 1, col, "%s (row %u of the rowset, column %u)",
                    lt_sqlstate_text(st), i + 1, col);
}

/* Stable sort of the diagnostics by row number: the spec wants them in
** row order, the fill loop makes them in column order. */
static void sort_diag_by_row(lt_diag *d)
{
    for (SQLSMALLINT i = 1; i < d->count; i++) {
        lt_diag_rec r = d->recs[i];
        SQLSMALLINT j = i;
        while (j > 0 && d->recs[j - 1].row_number > r.row_number) {
            d->recs[j] = d->recs[j - 1];
            j--;
        }
        d->recs[j] = r;
    }
}

/* Convert rows [first, first+n) of vector `vec` into elements i0.. of a
** bound column.  The vector's type is fixed, so the type dispatch is
** hoisted out of the row loop, and the buffers' addresses advance by their
** strides: each row only loads its cell and converts it. */
static void fill_segment(lt_stmt *s, fetch_cache *fc, const col_plan *p,
                         const lt_vector *vec, uint32_t first, uint32_t n, uint32_t i0)
{
    lt_value v;
    memset(&v, 0, sizeof v);
    v.scale = vec->scale;
    const uint8_t *nulls = vec->nulls + first;
    char *data = p->data ? p->data + (size_t)i0 * p->data_stride : NULL;
    char *ind = p->ind ? (char *)p->ind + (size_t)i0 * p->ind_stride : NULL;
    char *len = p->len ? (char *)p->len + (size_t)i0 * p->ind_stride : NULL;
    bool separate = p->ind != p->len; /* "not NULL" goes to ind, length to len */
    lt_target t = {p->ctype, NULL, p->buflen, NULL, p->precision, p->scale};
#define ROWS(load)                                                            \
    for (uint32_t r = 0; r < n; r++) {                                        \
        SQLRETURN rc = SQL_SUCCESS;                                           \
        const char *state = NULL;                                             \
        if (nulls[r]) {                                                       \
            if (ind != NULL)                                                  \
                *(SQLLEN *)ind = SQL_NULL_DATA;                               \
            else {                                                            \
                rc = SQL_ERROR;                                               \
                state = "22002";                                              \
            }                                                                 \
        } else {                                                              \
            load;                                                             \
            if (separate && ind != NULL)                                      \
                *(SQLLEN *)ind = 0;                                           \
            t.ptr = data;                                                     \
            t.len_or_ind = (SQLLEN *)len;                                     \
            lt_piece piece = {0};                                             \
            rc = lt_convert_to_c(&v, p->column, &t, &piece, &state);          \
        }                                                                     \
        if (rc != SQL_SUCCESS) {                                              \
            flag_row(fc, i0 + r, rc);                                         \
            post_row(s, rc, state, i0 + r, p->number);                        \
        }                                                                     \
        if (data != NULL)                                                     \
            data += p->data_stride;                                           \
        if (ind != NULL)                                                      \
            ind += p->ind_stride;                                             \
        if (len != NULL)                                                      \
            len += p->ind_stride;                                             \
    }
    if (vec->tags != NULL) {
        /* Rows of other storage classes (SQLite): each row says its type. */
        ROWS(lt_vector_get(vec, first + r, &v));
        return;
    }
    /* Whole runs of the common pairs at once (driver/convert_vector.c);
    ** any row that needs a diagnostic sends the run through the cells. */
    t.ptr = data;
    t.len_or_ind = (SQLLEN *)len;
    if (lt_convert_vector_to_c(vec, first, n, &t, p->data_stride, (SQLLEN *)ind,
                               p->ind_stride))
        return;
    v.type = vec->type;
    switch (vec->type) {
    case LT_BOOL:      ROWS(v.u.b = vec->v.b[first + r] != 0); break;
    case LT_INT64:
    case LT_TIME:
    case LT_TIMESTAMP: ROWS(v.u.i64 = vec->v.i64[first + r]); break;
    case LT_DATE:      ROWS(v.u.date = vec->v.date[first + r]); break;
    case LT_DOUBLE:    ROWS(v.u.f64 = vec->v.f64[first + r]); break;
    case LT_DECIMAL:   ROWS(v.u.dec = vec->v.dec[first + r]); break;
    case LT_TEXT:
    case LT_BINARY:    ROWS(v.u.bytes = vec->v.bytes[first + r]); break;
    case LT_GUID:      ROWS(v.u.guid = vec->v.guid[first + r]); break;
    case LT_NULL:      ROWS((void)0); break;
    }
#undef ROWS
}

/* Convert every bound column of the rowset.  The hot loop. */
static int fill_rowset(lt_stmt *s, fetch_cache *fc, uint32_t nrows)
{
    memset(fc->row_flags, 0, nrows);
    if (s->retrieve_data == SQL_RD_OFF)
        return 0;
    int64_t nplans = plan_columns(s, fc);
    if (nplans < 0)
        return -1;
    SQLSMALLINT diag_before = s->h.diag.count;
    for (int64_t k = 0; k < nplans; k++) {
        const col_plan *p = &fc->plans[k];
        uint32_t i = 0;
        for (uint32_t g = 0; g < fc->nsegs; g++) {
            const fetch_seg *seg = &fc->segs[g];
            if (p->number == 0) {
                for (uint32_t r = 0; r < seg->count; r++, i++) {
                    const char *state = NULL;
                    SQLRETURN rc = put_bookmark(p, i, s->rowset_start + i, &state);
                    if (rc != SQL_SUCCESS) {
                        flag_row(fc, i, rc);
                        post_row(s, rc, state, i, 0);
                    }
                }
                continue;
            }
            fill_segment(s, fc, p, &seg->batch->cols[p->number - 1u], seg->first,
                         seg->count, i);
            i += seg->count;
        }
    }
    if (s->h.diag.count > diag_before)
        sort_diag_by_row(&s->h.diag);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The fetch                                                                 */
/* ------------------------------------------------------------------------ */

static bool ensure_flags(fetch_cache *fc, SQLULEN n)
{
    if (n <= fc->flag_cap)
        return true;
    uint8_t *f = realloc(fc->row_flags, n);
    if (f == NULL)
        return false;
    fc->row_flags = f;
    fc->flag_cap = n;
    return true;
}

static SQLRETURN fail(lt_stmt *s, fetch_cache *fc, const lt_error *err)
{
    if (fc != NULL && strcmp(err->sqlstate, "HY001") != 0)
        fc->broken = true;
    return lt_diag_error(&s->h, err);
}

/* The next row of a forward-only cursor when it is in the batch at hand
** and nothing is bound: the loop of SQLFetch + SQLGetData that isql,
** pyodbc and Power Query run.  Does what fetch() below would do for it,
** without its general steps; false when the case is not this one (then
** nothing changed). */
static bool next_in_batch(lt_stmt *s, SQLULEN *fetched, SQLUSMALLINT *status)
{
    fetch_cache *fc = s->rows;
    if (fc == NULL || fc->is_static || fc->broken || fc->cur == NULL ||
        fc->cur_pos >= fc->cur->count || fc->seg_cap == 0 ||
        s->rowset_start == AFTER_END || s->max_rows > 0 ||
        s->use_bookmarks != SQL_UB_OFF ||
        (s->ard->count > 0 && s->retrieve_data != SQL_RD_OFF))
        return false;
    uint32_t row = fc->cur_pos++;
    fc->segs[0] = (fetch_seg){fc->cur, row, 1};
    fc->nsegs = 1;
    fc->delivered++;
    fc->gd_batch = fc->cur;
    fc->gd_row = row;
    fc->gd_index = 0;
    memset(&s->getdata, 0, sizeof s->getdata);
    s->rowset_row = 0;
    s->rowset_start = (SQLLEN)fc->delivered;
    s->rowset_size = 1;
    s->last_fetch_size = 1;
    if (fetched)
        *fetched = 1;
    if (status)
        status[0] = SQL_ROW_SUCCESS;
    return true;
}

/* Fetch a rowset of `size` rows.  `fetched` and `status` are where the
** row count and the row statuses go (NULL: not wanted). */
static SQLRETURN fetch(lt_stmt *s, SQLSMALLINT orientation, SQLLEN offset, SQLULEN size,
                       SQLULEN *fetched, SQLUSMALLINT *status)
{
    lt_handle *h = &s->h;
    if (s->state != LT_STMT_CURSOR || s->cursor == NULL) {
        lt_diag_post(h, "HY010", 0, "Function sequence error: no cursor is open");
        return SQL_ERROR;
    }
    if (orientation == SQL_FETCH_NEXT && size == 1 && next_in_batch(s, fetched, status))
        return SQL_SUCCESS;
    bool scrollable = s->cursor_type != SQL_CURSOR_FORWARD_ONLY;
    switch (orientation) {
    case SQL_FETCH_NEXT:
        break;
    case SQL_FETCH_PRIOR: case SQL_FETCH_FIRST: case SQL_FETCH_LAST:
    case SQL_FETCH_ABSOLUTE: case SQL_FETCH_RELATIVE: case SQL_FETCH_BOOKMARK:
        if (!scrollable) {
            lt_diag_post(h, "HY106", 0, "Fetch type out of range: the cursor is forward-only");
            return SQL_ERROR;
        }
        if (orientation == SQL_FETCH_BOOKMARK && s->use_bookmarks == SQL_UB_OFF) {
            lt_diag_post(h, "HY106", 0, "Fetch type out of range: bookmarks are off");
            return SQL_ERROR;
        }
        break;
    default:
        lt_diag_post(h, "HY106", 0, "Fetch type out of range: %d", orientation);
        return SQL_ERROR;
    }
    fetch_cache *fc = cache_of(s);
    if (fc == NULL || !ensure_flags(fc, size)) {
        lt_diag_post(h, "HY001", 0, "Memory allocation error");
        return SQL_ERROR;
    }
    if (fc->broken) {
        lt_diag_post(h, "HY000", 0, "The cursor failed earlier; close it and execute again");
        return SQL_ERROR;
    }
    fc->gd_batch = NULL;
    lt_error err;
    lt_error_clear(&err);
    memset(&s->getdata, 0, sizeof s->getdata);
    s->rowset_row = 0;
    int64_t start, nrows;
    SQLRETURN rc = SQL_SUCCESS;
    if (!fc->is_static) {
        if (s->rowset_start == AFTER_END) {
            nrows = 0;
        } else {
            nrows = forward_rows(s, fc, size, &err);
            if (nrows < 0)
                return fail(s, fc, &err);
        }
        start = nrows > 0 ? (int64_t)(fc->delivered - (uint64_t)nrows + 1) : AFTER_END;
    } else {
        if (!fc->materialised && materialise(s, fc, &err) != 0)
            return fail(s, fc, &err);
        int64_t bookmark_row = 0;
        if (orientation == SQL_FETCH_BOOKMARK) {
            if (s->fetch_bookmark_ptr == NULL) {
                lt_diag_post(h, "HY111", 0, "Invalid bookmark value: no bookmark pointer");
                return SQL_ERROR;
            }
            SQLUINTEGER bm;
            memcpy(&bm, s->fetch_bookmark_ptr, sizeof bm);
            if (bm < 1 || (int64_t)bm > fc->total) {
                lt_diag_post(h, "HY111", 0, "Invalid bookmark value %u", (unsigned)bm);
                return SQL_ERROR;
            }
            bookmark_row = bm;
        }
        bool warn = false;
        start = scroll_target(s, orientation, offset, bookmark_row, fc->total,
                              (int64_t)size, &warn);
        if (warn) {
            lt_diag_post(h, "01S06", 0, "Attempt to fetch before the result set "
                                        "returned the first rowset");
            rc = SQL_SUCCESS_WITH_INFO;
        }
        nrows = 0;
        if (start >= 1) {
            nrows = fc->total - start + 1;
            if (nrows > (int64_t)size)
                nrows = (int64_t)size;
            if (static_rows(fc, start, (uint64_t)nrows) != 0) {
                lt_diag_post(h, "HY001", 0, "Memory allocation error");
                return SQL_ERROR;
            }
        }
    }
    s->last_fetch_size = size;
    if (nrows == 0) {
        s->rowset_start = start >= 1 ? AFTER_END : start;
        s->rowset_size = 0;
        fc->nsegs = 0;
        if (fetched)
            *fetched = 0;
        if (status)
            for (SQLULEN i = 0; i < size; i++)
                status[i] = SQL_ROW_NOROW;
        return SQL_NO_DATA;
    }
    s->rowset_start = start;
    s->rowset_size = (SQLULEN)nrows;
    if (fill_rowset(s, fc, (uint32_t)nrows) != 0) {
        lt_diag_post(h, "HY001", 0, "Memory allocation error");
        return SQL_ERROR;
    }
    uint32_t errors = 0, warnings = 0;
    for (int64_t i = 0; i < nrows; i++) {
        errors += fc->row_flags[i] == ROW_ERR;
        warnings += fc->row_flags[i] == ROW_WARN;
    }
    if (status) {
        for (int64_t i = 0; i < nrows; i++)
            status[i] = fc->row_flags[i] == ROW_ERR    ? SQL_ROW_ERROR
                        : fc->row_flags[i] == ROW_WARN ? SQL_ROW_SUCCESS_WITH_INFO
                                                       : SQL_ROW_SUCCESS;
        for (SQLULEN i = (SQLULEN)nrows; i < size; i++)
            status[i] = SQL_ROW_NOROW;
    }
    if (fetched)
        *fetched = (SQLULEN)nrows;
    if (errors == (uint32_t)nrows)
        return SQL_ERROR;
    if (errors > 0 || warnings > 0)
        return SQL_SUCCESS_WITH_INFO;
    return rc;
}

SQLRETURN SQL_API SQLFetch(SQLHSTMT StatementHandle)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_stmt *s = (lt_stmt *)h;
    return lt_leave(h, fetch(s, SQL_FETCH_NEXT, 0, s->ard->array_size,
                             s->ird.rows_processed_ptr, s->ird.array_status_ptr));
}

SQLRETURN SQL_API SQLFetchScroll(SQLHSTMT StatementHandle, SQLSMALLINT FetchOrientation,
                                 SQLLEN FetchOffset)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_stmt *s = (lt_stmt *)h;
    return lt_leave(h, fetch(s, FetchOrientation, FetchOffset, s->ard->array_size,
                             s->ird.rows_processed_ptr, s->ird.array_status_ptr));
}

/* ODBC 2's block fetch: the driver managers pass it through, so an ODBC 2
** application needs it.  It uses SQL_ROWSET_SIZE and its own arguments for
** the count and the statuses; a bookmark fetch takes the bookmark itself. */
SQLRETURN SQL_API SQLExtendedFetch(SQLHSTMT StatementHandle, SQLUSMALLINT FetchOrientation,
                                   SQLLEN FetchOffset, SQLULEN *RowCountPtr,
                                   SQLUSMALLINT *RowStatusArray)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_stmt *s = (lt_stmt *)h;
    SQLRETURN rc;
    if (FetchOrientation == SQL_FETCH_BOOKMARK) {
        SQLPOINTER saved = s->fetch_bookmark_ptr;
        SQLUINTEGER bm = (SQLUINTEGER)FetchOffset;
        s->fetch_bookmark_ptr = &bm;
        rc = fetch(s, SQL_FETCH_BOOKMARK, 0, s->rowset_size_odbc2, RowCountPtr,
                   RowStatusArray);
        s->fetch_bookmark_ptr = saved;
    } else {
        rc = fetch(s, (SQLSMALLINT)FetchOrientation, FetchOffset, s->rowset_size_odbc2,
                   RowCountPtr, RowStatusArray);
    }
    return lt_leave(h, rc);
}

/* ------------------------------------------------------------------------ */
/* SQLSetPos and SQLGetData                                                  */
/* ------------------------------------------------------------------------ */

SQLRETURN SQL_API SQLSetPos(SQLHSTMT StatementHandle, SQLSETPOSIROW RowNumber,
                            SQLUSMALLINT Operation, SQLUSMALLINT LockType)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_stmt *s = (lt_stmt *)h;
    if (s->state != LT_STMT_CURSOR) {
        lt_diag_post(h, "HY010", 0, "Function sequence error: no cursor is open");
        return lt_leave(h, SQL_ERROR);
    }
    if (Operation != SQL_POSITION) {
        lt_diag_post(h, "HYC00", 0, "Optional feature not implemented: SQLSetPos "
                     "operation %u (Lector is read-only; only SQL_POSITION works)",
                     Operation);
        return lt_leave(h, SQL_ERROR);
    }
    if (LockType != SQL_LOCK_NO_CHANGE && LockType != SQL_LOCK_EXCLUSIVE &&
        LockType != SQL_LOCK_UNLOCK) {
        lt_diag_post(h, "HY092", 0, "Invalid attribute/option identifier: lock type %u",
                     LockType);
        return lt_leave(h, SQL_ERROR);
    }
    if (LockType != SQL_LOCK_NO_CHANGE) {
        lt_diag_post(h, "HYC00", 0, "Optional feature not implemented: row locks");
        return lt_leave(h, SQL_ERROR);
    }
    if (s->rowset_start <= 0 || s->rowset_size == 0) {
        lt_diag_post(h, "24000", 0, "Invalid cursor state: no rowset was fetched");
        return lt_leave(h, SQL_ERROR);
    }
    if (RowNumber == 0) {
        lt_diag_post(h, "HY109", 0, "Invalid cursor position: SQL_POSITION needs a row");
        return lt_leave(h, SQL_ERROR);
    }
    if (RowNumber > s->rowset_size) {
        lt_diag_post(h, "HY107", 0, "Row value out of range: %lu (the rowset has %lu rows)",
                     (unsigned long)RowNumber, (unsigned long)s->rowset_size);
        return lt_leave(h, SQL_ERROR);
    }
    s->rowset_row = RowNumber - 1;
    memset(&s->getdata, 0, sizeof s->getdata);
    return lt_leave(h, SQL_SUCCESS);
}

/* The batch and row of rowset row `i`. */
static bool locate(const fetch_cache *fc, SQLULEN i, const lt_batch **b, uint32_t *row)
{
    for (uint32_t g = 0; g < fc->nsegs; g++) {
        if (i < fc->segs[g].count) {
            *b = fc->segs[g].batch;
            *row = fc->segs[g].first + (uint32_t)i;
            return true;
        }
        i -= fc->segs[g].count;
    }
    return false;
}

/* Find rowset row `i` for SQLGetData, or reuse what the previous call
** found; false when the rowset has no such row. */
static bool current_row(fetch_cache *fc, SQLULEN i)
{
    if (fc->gd_batch != NULL && fc->gd_index == i)
        return true;
    if (!locate(fc, i, &fc->gd_batch, &fc->gd_row)) {
        fc->gd_batch = NULL;
        return false;
    }
    fc->gd_index = i;
    return true;
}

/* Row `row` of `v` as lt_vector_get() reads it, the plain types inline:
** SQLGetData, row at a time, reads every cell through here. */
static void cell(const lt_vector *v, uint32_t row, lt_value *out)
{
    if (v->tags == NULL && !v->nulls[row]) {
        switch (v->type) {
        case LT_INT64:
            *out = (lt_value){.type = LT_INT64, .u.i64 = v->v.i64[row]};
            return;
        case LT_DOUBLE:
            *out = (lt_value){.type = LT_DOUBLE, .u.f64 = v->v.f64[row]};
            return;
        case LT_TEXT:
            *out = (lt_value){.type = LT_TEXT, .u.bytes = v->v.bytes[row]};
            return;
        default:
            break;
        }
    }
    lt_vector_get(v, row, out);
}

static SQLRETURN get_data(lt_stmt *s, SQLUSMALLINT col, SQLSMALLINT ctype, SQLPOINTER ptr,
                          SQLLEN buflen, SQLLEN *ind)
{
    lt_handle *h = &s->h;
    if (s->state != LT_STMT_CURSOR) {
        lt_diag_post(h, "HY010", 0, "Function sequence error: no cursor is open");
        return SQL_ERROR;
    }
    fetch_cache *fc = s->rows;
    if (s->rowset_start <= 0 || s->rowset_size == 0 || fc == NULL ||
        !current_row(fc, s->rowset_row)) {
        lt_diag_post(h, "24000", 0, "Invalid cursor state: the cursor is not on a row");
        return SQL_ERROR;
    }
    if ((col == 0 && s->use_bookmarks == SQL_UB_OFF) || (SQLSMALLINT)col > s->ird.count ||
        col > 32766) {
        lt_diag_post(h, "07009", 0, "Invalid descriptor index %u (the result has %d columns)",
                     col, s->ird.count);
        return SQL_ERROR;
    }
    if (buflen < 0) {
        lt_diag_post(h, "HY090", 0, "Invalid string or buffer length");
        return SQL_ERROR;
    }
    SQLSMALLINT precision = 38, scale = 0;
    if (ctype == SQL_ARD_TYPE) {
        if ((SQLSMALLINT)col > s->ard->count || col >= (SQLUSMALLINT)s->ard->capacity) {
            lt_diag_post(h, "07009", 0, "Invalid descriptor index %u: SQL_ARD_TYPE names "
                         "no ARD record", col);
            return SQL_ERROR;
        }
        ctype = s->ard->recs[col].concise_type;
        precision = s->ard->recs[col].precision;
        scale = s->ard->recs[col].scale;
    }
    if (ctype == SQL_C_DEFAULT)
        ctype = col > 0 ? lt_default_ctype(s->ird.recs[col].concise_type)
                        : (s->use_bookmarks == SQL_UB_VARIABLE ? SQL_C_VARBOOKMARK
                                                                : SQL_C_BOOKMARK);
    if (ctype != SQL_C_CHAR && ctype != SQL_C_WCHAR && !lt_ctype_valid(ctype) &&
        ctype != SQL_C_VARBOOKMARK) {
        lt_diag_post(h, "HY003", 0, "Invalid application buffer type %d", ctype);
        return SQL_ERROR;
    }
    lt_getdata *g = &s->getdata;
    if (g->column != col || col == 0) {
        g->column = col;
        g->piece = (lt_piece){0};
        g->done = false;
    }
    if (g->done)
        return SQL_NO_DATA;
    SQLLEN rownum = (SQLLEN)s->rowset_row + 1;
    const char *state = NULL;
    SQLRETURN rc;
    if (col == 0) {
        col_plan p = {0};
        p.ctype = ctype;
        p.data = ptr;
        p.ind = p.len = ind;
        p.buflen = buflen;
        rc = put_bookmark(&p, 0, s->rowset_start + (int64_t)s->rowset_row, &state);
        g->done = true;
    } else {
        lt_value v;
        cell(&fc->gd_batch->cols[col - 1u], fc->gd_row, &v);
        if (v.type == LT_NULL) {
            g->done = true;
            if (ind == NULL) {
                lt_diag_post_at(h, "22002", rownum, col,
                                "Indicator variable required but not supplied");
                return SQL_ERROR;
            }
            *ind = SQL_NULL_DATA;
            return SQL_SUCCESS;
        }
        lt_target t = {ctype, ptr, buflen, ind, precision, scale};
        rc = lt_convert_to_c(&v, &sql_cursor_column_at(s->cursor, col - 1u)->desc, &t,
                             &g->piece, &state);
        if (rc == SQL_NO_DATA) {
            g->done = true;
            return SQL_NO_DATA;
        }
        /* Only a truncated character or binary value has more pieces.  A
        ** conversion that failed transferred nothing: the application may
        ** ask for the column again with another C type (a SQLite cell
        ** holding 'abc' in an INTEGER column, read as text after 22018). */
        if (rc == SQL_ERROR)
            g->piece = (lt_piece){0};
        else if (!(rc == SQL_SUCCESS_WITH_INFO && state != NULL && strcmp(state, "01004") == 0))
            g->done = true;
    }
    if (rc != SQL_SUCCESS) {
        const char *st = state ? state : (rc == SQL_ERROR ? "HY000" : "01000");
        lt_diag_post_at(h, st, rownum, col, "%s (column %u)", lt_sqlstate_text(st), col);
    }
    return rc;
}

SQLRETURN SQL_API SQLGetData(SQLHSTMT StatementHandle, SQLUSMALLINT Col_or_Param_Num,
                             SQLSMALLINT TargetType, SQLPOINTER TargetValuePtr,
                             SQLLEN BufferLength, SQLLEN *StrLen_or_IndPtr)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    return lt_leave(h, get_data((lt_stmt *)h, Col_or_Param_Num, TargetType, TargetValuePtr,
                                BufferLength, StrLen_or_IndPtr));
}
