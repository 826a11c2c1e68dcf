/*
** spill.c — operators past the memory budget: rows on temporary files.
**
** Two uses share one row encoding.  ORDER BY writes sorted runs and merges
** them; hash aggregation and hash joins split their rows by a hash of the
** key into partitions (Grace hash) and read each back as batches.
**
** When the sort's row store would grow past the execution's budget, the
** sort orders what it holds and hands it here as a run: the rows are
** serialised to a temporary file (created under $TMPDIR, or /tmp, and
** unlinked at once, so it vanishes with the statement or the process; never
** beside the user's data), and the store's memory is given back.  At the end
** the runs are merged: each is read through a small buffer, its next row
** decoded into a one-row "head", and a heap of the heads picks the next row
** with the sort's own comparison; on a tie the earlier run wins, so the
** order is the stable in-memory sort's.
**
** A row on file: u32 bytes of text in the row, then per column a marker —
** 0 NULL, 1 a value of the column's type, 2 + t a dynamically typed value of
** type t (SQLite) — and the value: fixed-size numbers, dates and GUIDs as
** they are in memory (the file never leaves this process), text and binary
** as a u32 length and the bytes, a tagged DECIMAL with its scale first.
*/
#include "spill.h"
#include "value.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <unistd.h>
#endif

#define MARK_NULL 0
#define MARK_VALUE 1
#define MARK_TAGGED 2

#define READ_BUF_MIN 1024u
#define READ_BUF_MAX 65536u

/* One cell of any type, for a head row. */
typedef union cell {
    uint8_t b;
    int64_t i64;
    int32_t date;
    double f64;
    lt_int128 dec;
    lt_bytes bytes;
    lt_guid guid;
} cell;

/* A file read through a buffer of our own: bytes [pos, len) unread. */
typedef struct spill_in {
    FILE *f;
    char *buf;
    uint32_t pos, len, buf_cap;
} spill_in;

struct sql_spill_run {
    spill_in in;
    char *text;           /* the head row's text and binary bytes */
    uint32_t text_cap;
    lt_vector *cols;      /* the head row (row 0 of each vector) */
    uint8_t *nulls, *tags;
    cell *cells;
    lt_value *other;
    bool done;
};

static const char *temp_dir(void)
{
    const char *dir = getenv("TMPDIR");
    if (dir != NULL && dir[0] != '\0')
        return dir;
#ifdef _WIN32
    dir = getenv("TEMP");
    return dir != NULL && dir[0] != '\0' ? dir : ".";
#else
    return "/tmp";
#endif
}

#define SORTING "ORDER BY"

/* `purpose`: what spilled ("ORDER BY", "GROUP BY", "a join"). */
static int file_error(const char *doing, const char *purpose, int e, lt_error *err)
{
    return lt_error_set(err, "HY000",
                        "cannot %s the temporary file for %s past the memory limit in "
                        "'%s': %s; set TMPDIR to a writable directory with free space, or "
                        "raise MemoryLimit",
                        doing, purpose, temp_dir(), strerror(e ? e : EIO));
}

/* A new temporary file, already unlinked (tmpfile() on Windows). */
static FILE *open_temp(const char *purpose, lt_error *err)
{
#ifdef _WIN32
    FILE *f = tmpfile();
    if (f == NULL)
        file_error("create", purpose, errno, err);
    return f;
#else
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/lector-spill-XXXXXX", temp_dir());
    if (n < 0 || (size_t)n >= sizeof path) {
        file_error("create", purpose, ENAMETOOLONG, err);
        return NULL;
    }
    int fd = mkstemp(path);
    if (fd < 0) {
        file_error("create", purpose, errno, err);
        return NULL;
    }
    unlink(path);
    FILE *f = fdopen(fd, "w+b");
    if (f == NULL) {
        int e = errno;
        close(fd);
        file_error("create", purpose, e, err);
    }
    return f;
#endif
}

/* ------------------------------------------------------------------------ */
/* Writing a run                                                             */
/* ------------------------------------------------------------------------ */

static bool is_bytes(lt_type t)
{
    return t == LT_TEXT || t == LT_BINARY;
}

static bool put(FILE *f, const void *p, size_t n)
{
    return n == 0 || fwrite(p, 1, n, f) == n;
}

static bool put_bytes(FILE *f, lt_bytes b)
{
    return put(f, &b.len, sizeof b.len) && put(f, b.ptr, b.len);
}

/* Where a fixed-size value keeps its bytes. */
static const void *value_bytes(const lt_value *v)
{
    switch (v->type) {
    case LT_BOOL: return &v->u.b;
    case LT_DATE: return &v->u.date;
    case LT_DOUBLE: return &v->u.f64;
    case LT_DECIMAL: return &v->u.dec;
    case LT_GUID: return &v->u.guid;
    default: return &v->u.i64;
    }
}

/* Row r of columns cols[0..ncols). */
static bool write_row(FILE *f, const lt_vector *cols, uint32_t ncols, uint32_t r)
{
    uint32_t text = 0;
    for (uint32_t c = 0; c < ncols; c++) {
        const lt_vector *v = &cols[c];
        if (v->nulls[r])
            continue;
        if (v->tags != NULL && v->tags[r] != LT_NULL) {
            if (is_bytes(v->other[r].type))
                text += v->other[r].u.bytes.len;
        } else if (is_bytes(v->type)) {
            text += v->v.bytes[r].len;
        }
    }
    if (!put(f, &text, sizeof text))
        return false;
    for (uint32_t c = 0; c < ncols; c++) {
        const lt_vector *v = &cols[c];
        uint8_t mark;
        if (v->type == LT_NULL || v->nulls[r]) {
            mark = MARK_NULL;
            if (!put(f, &mark, 1))
                return false;
        } else if (v->tags != NULL && v->tags[r] != LT_NULL) {
            const lt_value *o = &v->other[r];
            mark = (uint8_t)(MARK_TAGGED + o->type);
            if (!put(f, &mark, 1))
                return false;
            if (is_bytes(o->type) ? !put_bytes(f, o->u.bytes)
                                  : (o->type == LT_DECIMAL && !put(f, &o->scale, sizeof o->scale)) ||
                                        !put(f, value_bytes(o), sql_type_width(o->type)))
                return false;
        } else {
            mark = MARK_VALUE;
            if (!put(f, &mark, 1))
                return false;
            if (is_bytes(v->type) ? !put_bytes(f, v->v.bytes[r])
                                  : !put(f, (const char *)v->v.any + (size_t)r * sql_type_width(v->type),
                                         sql_type_width(v->type)))
                return false;
        }
    }
    return true;
}

/* Copies of the columns' types and scales. */
static int remember_shape(const lt_vector *cols, uint32_t ncols, lt_type **types,
                          int16_t **scales)
{
    *types = calloc(ncols ? ncols : 1, sizeof **types);
    *scales = calloc(ncols ? ncols : 1, sizeof **scales);
    if (*types == NULL || *scales == NULL)
        return -1;
    for (uint32_t c = 0; c < ncols; c++) {
        (*types)[c] = cols[c].type;
        (*scales)[c] = cols[c].scale;
    }
    return 0;
}

int sql_spill_write(sql_spill *sp, const sql_rowstore *rs, const uint32_t *perm, uint32_t n,
                    lt_error *err)
{
    if (sp->types == NULL) {
        if (remember_shape(rs->cols, rs->ncols, &sp->types, &sp->scales) != 0)
            return lt_error_set(err, "HY001", "out of memory for ORDER BY");
        sp->ncols = rs->ncols;
    }
    if (sp->nruns == sp->cap) {
        uint32_t cap = sp->cap ? sp->cap * 2 : 8;
        sql_spill_run *runs = realloc(sp->runs, (size_t)cap * sizeof *runs);
        if (runs == NULL)
            return lt_error_set(err, "HY001", "out of memory for ORDER BY");
        sp->runs = runs;
        sp->cap = cap;
    }
    sql_spill_run *run = &sp->runs[sp->nruns];
    memset(run, 0, sizeof *run);
    run->in.f = open_temp(SORTING, err);
    if (run->in.f == NULL)
        return -1;
    sp->nruns++;
    errno = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!write_row(run->in.f, rs->cols, rs->ncols, perm[i]))
            return file_error("write", SORTING, errno, err);
    if (fflush(run->in.f) != 0 || ferror(run->in.f))
        return file_error("write", SORTING, errno, err);
    if (fseek(run->in.f, 0, SEEK_SET) != 0)
        return file_error("read", SORTING, errno, err);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Merging                                                                   */
/* ------------------------------------------------------------------------ */

/* Read n bytes of the file through its buffer (stdio's own cannot be set
** once the file has been written). */
static bool get(spill_in *in, void *p, size_t n)
{
    char *to = p;
    while (n > 0) {
        if (in->pos == in->len) {
            if (in->f == NULL)
                return false;
            in->pos = 0;
            in->len = (uint32_t)fread(in->buf, 1, in->buf_cap, in->f);
            if (in->len == 0)
                return false;
        }
        size_t k = in->len - in->pos < n ? in->len - in->pos : n;
        memcpy(to, in->buf + in->pos, k);
        in->pos += (uint32_t)k;
        to += k;
        n -= k;
    }
    return true;
}

/* Read a length and that many bytes into text[*used..], within `size`. */
static bool get_bytes(spill_in *in, lt_bytes *out, char *text, uint32_t size, uint32_t *used)
{
    uint32_t len;
    if (!get(in, &len, sizeof len) || len > size - *used)
        return false;
    char *to = text + *used;
    out->ptr = len > 0 ? to : "";
    out->len = len;
    *used += len;
    return get(in, to, len);
}

/* Give column v tags (and other values) for its rows [0, cap) when it has
** none: a partition batch's column, at its first tagged row. */
typedef int (*attach_tags_fn)(void *ctx, lt_vector *v);

/* Decode the columns of one row (its text size, `size`, already read) into
** row r of cols; the row's text and binary bytes go to `text`.  false when
** the file ends inside the row or holds what was never written. */
static bool decode_row(spill_in *in, lt_vector *cols, uint32_t ncols, uint32_t r, char *text,
                       uint32_t size, attach_tags_fn attach, void *ctx)
{
    uint32_t used = 0;
    for (uint32_t c = 0; c < ncols; c++) {
        lt_vector *v = &cols[c];
        uint8_t mark;
        if (!get(in, &mark, 1))
            return false;
        v->nulls[r] = mark == MARK_NULL;
        if (v->tags != NULL)
            v->tags[r] = LT_NULL;
        if (mark == MARK_NULL)
            continue;
        if (mark == MARK_VALUE) {
            bool ok = is_bytes(v->type)
                          ? get_bytes(in, &v->v.bytes[r], text, size, &used)
                          : get(in, (char *)v->v.any + (size_t)r * sql_type_width(v->type),
                                sql_type_width(v->type));
            if (!ok)
                return false;
            continue;
        }
        if (mark - MARK_TAGGED > LT_GUID || mark - MARK_TAGGED == LT_NULL)
            return false;
        if (v->tags == NULL && (attach == NULL || attach(ctx, v) != 0))
            return false;
        lt_value *o = &v->other[r];
        memset(o, 0, sizeof *o);
        o->type = (lt_type)(mark - MARK_TAGGED);
        v->tags[r] = (uint8_t)o->type;
        bool ok = is_bytes(o->type) ? get_bytes(in, &o->u.bytes, text, size, &used)
                                    : (o->type != LT_DECIMAL || get(in, &o->scale, sizeof o->scale)) &&
                                          get(in, (void *)value_bytes(o), sql_type_width(o->type));
        if (!ok)
            return false;
    }
    return true;
}

static int truncated(spill_in *in, const char *purpose, lt_error *err)
{
    return ferror(in->f) ? file_error("read", purpose, errno, err)
                         : lt_error_set(err, "HY000", "the temporary %s file in '%s' was "
                                                      "truncated", purpose, temp_dir());
}

/* Decode the run's next row into its head; run->done at the end of it. */
static int read_head(sql_spill *sp, sql_spill_run *run, lt_error *err)
{
    uint32_t text;
    if (!get(&run->in, &text, sizeof text)) {
        if (ferror(run->in.f))
            return file_error("read", SORTING, errno, err);
        run->done = true;
        return 0;
    }
    if (text > run->text_cap) {
        if (sql_budget_take(sp->budget, text - run->text_cap, sp->what, &sp->held, err) != 0)
            return -1;
        char *t = realloc(run->text, text);
        if (t == NULL)
            return lt_error_set(err, "HY001", "out of memory for ORDER BY");
        run->text = t;
        run->text_cap = text;
    }
    if (!decode_row(&run->in, run->cols, sp->ncols, 0, run->text, text, NULL, NULL))
        return truncated(&run->in, SORTING, err);
    return 0;
}

static int alloc_head(sql_spill *sp, sql_spill_run *run)
{
    uint32_t n = sp->ncols ? sp->ncols : 1;
    run->cols = calloc(n, sizeof *run->cols);
    run->nulls = calloc(n, 1);
    run->tags = calloc(n, 1);
    run->cells = calloc(n, sizeof *run->cells);
    run->other = calloc(n, sizeof *run->other);
    if (run->cols == NULL || run->nulls == NULL || run->tags == NULL || run->cells == NULL ||
        run->other == NULL)
        return -1;
    for (uint32_t c = 0; c < sp->ncols; c++) {
        lt_vector *v = &run->cols[c];
        v->type = sp->types[c];
        v->scale = sp->scales[c];
        v->nulls = &run->nulls[c];
        v->v.any = &run->cells[c];
        v->tags = &run->tags[c];
        v->other = &run->other[c];
    }
    return 0;
}

/* Does run a's head come before run b's?  Ties: the earlier run. */
static bool head_before(const sql_spill *sp, uint32_t a, uint32_t b)
{
    int c = sp->cmp(sp->ctx, sp->runs[a].cols, 0, sp->runs[b].cols, 0);
    return c < 0 || (c == 0 && a < b);
}

static void heap_down(sql_spill *sp, uint32_t i)
{
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < sp->heap_n && head_before(sp, sp->heap[l], sp->heap[m]))
            m = l;
        if (r < sp->heap_n && head_before(sp, sp->heap[r], sp->heap[m]))
            m = r;
        if (m == i)
            return;
        uint32_t t = sp->heap[i];
        sp->heap[i] = sp->heap[m];
        sp->heap[m] = t;
        i = m;
    }
}

int sql_spill_merge_begin(sql_spill *sp, sql_spill_cmp cmp, const void *ctx, sql_budget *b,
                          const char *what, lt_error *err)
{
    sp->cmp = cmp;
    sp->ctx = ctx;
    sp->budget = b;
    sp->what = what;
    /* Each run's reader buffer: a quarter of what is left, shared out (the
    ** rest holds the merged rows until they are returned). */
    uint64_t left = b != NULL && b->limit > b->used ? b->limit - b->used : 0;
    uint64_t size = b == NULL || b->limit == 0 ? READ_BUF_MAX : left / 4 / (sp->nruns ? sp->nruns : 1);
    if (size > READ_BUF_MAX)
        size = READ_BUF_MAX;
    if (size < READ_BUF_MIN)
        size = READ_BUF_MIN;
    uint64_t head = sp->ncols * (sizeof(lt_vector) + 2 + sizeof(cell) + sizeof(lt_value));
    if (sql_budget_take(b, sp->nruns * (size + head + sizeof(uint32_t)), what, &sp->held, err) != 0)
        return -1;
    sp->heap = malloc((sp->nruns ? sp->nruns : 1) * sizeof *sp->heap);
    if (sp->heap == NULL)
        return lt_error_set(err, "HY001", "out of memory for ORDER BY");
    for (uint32_t i = 0; i < sp->nruns; i++) {
        sql_spill_run *run = &sp->runs[i];
        run->in.buf = malloc(size);
        if (run->in.buf == NULL || alloc_head(sp, run) != 0)
            return lt_error_set(err, "HY001", "out of memory for ORDER BY");
        run->in.buf_cap = (uint32_t)size;
        if (read_head(sp, run, err) != 0)
            return -1;
        if (!run->done)
            sp->heap[sp->heap_n++] = i;
    }
    for (uint32_t i = sp->heap_n / 2; i-- > 0;)
        heap_down(sp, i);
    return 0;
}

int sql_spill_merge_next(sql_spill *sp, sql_rowstore *out, uint32_t max, lt_error *err)
{
    lt_batch shape;
    memset(&shape, 0, sizeof shape);
    if (sp->nruns == 0)
        return 0;
    shape.cols = sp->runs[0].cols;
    shape.ncols = sp->ncols;
    shape.count = shape.capacity = 1;
    const char *what = out->what;
    sql_budget *b = out->budget;
    sql_rowstore_free(out);
    if (sql_rowstore_init(out, &shape, sp->ncols) != 0)
        return lt_error_set(err, "HY001", "out of memory for ORDER BY");
    sql_rowstore_budget(out, b, what);
    while (out->count < max && sp->heap_n > 0) {
        uint32_t r = sp->heap[0];
        sql_spill_run *run = &sp->runs[r];
        shape.cols = run->cols;
        if (sql_rowstore_append(out, &shape, 0, err) != 0 || read_head(sp, run, err) != 0)
            return -1;
        if (run->done) {
            sp->heap[0] = sp->heap[--sp->heap_n];
            fclose(run->in.f);
            run->in.f = NULL;
        }
        heap_down(sp, 0);
    }
    return 0;
}

void sql_spill_free(sql_spill *sp)
{
    for (uint32_t i = 0; i < sp->nruns; i++) {
        sql_spill_run *run = &sp->runs[i];
        if (run->in.f != NULL)
            fclose(run->in.f);
        free(run->in.buf);
        free(run->text);
        free(run->cols);
        free(run->nulls);
        free(run->tags);
        free(run->cells);
        free(run->other);
    }
    free(sp->runs);
    free(sp->types);
    free(sp->scales);
    free(sp->heap);
    sql_budget_release(sp->budget, &sp->held);
    memset(sp, 0, sizeof *sp);
}

/* ------------------------------------------------------------------------ */
/* Partitions (Grace hash)                                                   */
/* ------------------------------------------------------------------------ */

#define PART_READ_BUF 65536u

uint32_t sql_spill_part_of(uint64_t hash, uint32_t depth)
{
    /* splitmix64's finaliser over the hash and the depth: each depth splits
    ** by other bits, and a hash table over a partition (low bits of the
    ** hash) still spreads its rows */
    uint64_t x = hash + 0x9e3779b97f4a7c15ull * (depth + 1);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    return (uint32_t)(x >> 60) & (SQL_SPILL_FANOUT - 1);
}

int sql_spill_parts_init(sql_spill_parts *p, const lt_vector *cols, uint32_t ncols,
                         uint32_t depth, const char *purpose, lt_error *err)
{
    memset(p, 0, sizeof *p);
    p->ncols = ncols;
    p->depth = depth;
    p->purpose = purpose;
    if (remember_shape(cols, ncols, &p->types, &p->scales) != 0) {
        sql_spill_parts_free(p);
        return lt_error_set(err, "HY001", "out of memory for %s", purpose);
    }
    return 0;
}

int sql_spill_parts_put(sql_spill_parts *p, uint32_t part, const lt_vector *cols, uint32_t row,
                        lt_error *err)
{
    FILE *f = p->files[part];
    if (f == NULL && (f = p->files[part] = open_temp(p->purpose, err)) == NULL)
        return -1;
    errno = 0;
    if (!write_row(f, cols, p->ncols, row))
        return file_error("write", p->purpose, errno, err);
    p->rows[part]++;
    return 0;
}

int sql_spill_parts_take(sql_spill_parts *p, uint32_t part, FILE **out, lt_error *err)
{
    FILE *f = p->files[part];
    p->files[part] = NULL;
    *out = NULL;
    if (f == NULL)
        return 0;
    errno = 0;
    if (fflush(f) != 0 || ferror(f)) {
        fclose(f);
        return file_error("write", p->purpose, errno, err);
    }
    if (fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return file_error("read", p->purpose, errno, err);
    }
    *out = f;
    return 0;
}

void sql_spill_parts_free(sql_spill_parts *p)
{
    for (uint32_t i = 0; i < SQL_SPILL_FANOUT; i++)
        if (p->files[i] != NULL)
            fclose(p->files[i]);
    free(p->types);
    free(p->scales);
    memset(p, 0, sizeof *p);
}

struct sql_spill_reader {
    spill_in in;
    const char *purpose;
    lt_batch *batch;
    uint32_t ncols;
};

int sql_spill_reader_open(sql_spill_reader **out, FILE *f, const sql_spill_parts *shape,
                          lt_error *err)
{
    sql_spill_reader *rd = calloc(1, sizeof *rd);
    *out = rd;
    if (rd == NULL) {
        if (f != NULL)
            fclose(f);
        return lt_error_set(err, "HY001", "out of memory for %s", shape->purpose);
    }
    rd->in.f = f;
    rd->purpose = shape->purpose;
    rd->ncols = shape->ncols;
    rd->in.buf = malloc(PART_READ_BUF);
    rd->in.buf_cap = PART_READ_BUF;
    rd->batch = lt_batch_new(shape->ncols, shape->types, shape->scales, LT_BATCH_ROWS);
    if (rd->in.buf == NULL || rd->batch == NULL)
        return lt_error_set(err, "HY001", "out of memory for %s", shape->purpose);
    return 0;
}

/* A batch column's tags and other values, from the batch arena (reset with
** the batch, which sets tags back to NULL). */
static int attach_batch_tags(void *ctx, lt_vector *v)
{
    lt_batch *b = ctx;
    v->tags = lt_arena_alloc(&b->arena, b->capacity);
    v->other = lt_arena_alloc(&b->arena, (size_t)b->capacity * sizeof *v->other);
    if (v->tags == NULL || v->other == NULL)
        return -1;
    memset(v->tags, 0, b->capacity);
    return 0;
}

int sql_spill_reader_next(sql_spill_reader *rd, lt_batch **out, lt_error *err)
{
    lt_batch *b = rd->batch;
    lt_batch_reset(b);
    *out = b;
    while (b->count < b->capacity) {
        uint32_t text;
        if (!get(&rd->in, &text, sizeof text)) {
            if (rd->in.f != NULL && ferror(rd->in.f))
                return file_error("read", rd->purpose, errno, err);
            break;
        }
        char *buf = text > 0 ? lt_arena_alloc(&b->arena, text) : NULL;
        if (text > 0 && buf == NULL)
            return lt_error_set(err, "HY001", "out of memory for %s", rd->purpose);
        if (!decode_row(&rd->in, b->cols, rd->ncols, b->count, buf, text, attach_batch_tags, b))
            return truncated(&rd->in, rd->purpose, err);
        b->count++;
    }
    return 0;
}

void sql_spill_reader_free(sql_spill_reader *rd)
{
    if (rd == NULL)
        return;
    if (rd->in.f != NULL)
        fclose(rd->in.f);
    free(rd->in.buf);
    lt_batch_free(rd->batch);
    free(rd);
}
