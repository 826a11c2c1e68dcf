/*
** spill.c — ORDER BY past the memory budget: sorted runs on temporary files.
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

struct sql_spill_run {
    FILE *f;
    char *buf;            /* the reader's buffer: bytes [pos, len) unread */
    uint32_t pos, len, buf_cap;
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

static int file_error(const char *doing, int e, lt_error *err)
{
    return lt_error_set(err, "HY000",
                        "cannot %s the temporary file for ORDER BY past the memory limit in "
                        "'%s': %s; set TMPDIR to a writable directory with free space, or "
                        "raise MemoryLimit",
                        doing, temp_dir(), strerror(e ? e : EIO));
}

/* A new temporary file, already unlinked (tmpfile() on Windows). */
static FILE *open_temp(lt_error *err)
{
#ifdef _WIN32
    FILE *f = tmpfile();
    if (f == NULL)
        file_error("create", errno, err);
    return f;
#else
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/lector-sort-XXXXXX", temp_dir());
    if (n < 0 || (size_t)n >= sizeof path) {
        file_error("create", ENAMETOOLONG, err);
        return NULL;
    }
    int fd = mkstemp(path);
    if (fd < 0) {
        file_error("create", errno, err);
        return NULL;
    }
    unlink(path);
    FILE *f = fdopen(fd, "w+b");
    if (f == NULL) {
        int e = errno;
        close(fd);
        file_error("create", e, err);
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

static bool write_row(FILE *f, const sql_rowstore *rs, uint32_t r)
{
    uint32_t text = 0;
    for (uint32_t c = 0; c < rs->ncols; c++) {
        const lt_vector *v = &rs->cols[c];
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
    for (uint32_t c = 0; c < rs->ncols; c++) {
        const lt_vector *v = &rs->cols[c];
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

static int remember_shape(sql_spill *sp, const sql_rowstore *rs, lt_error *err)
{
    sp->ncols = rs->ncols;
    sp->types = calloc(rs->ncols ? rs->ncols : 1, sizeof *sp->types);
    sp->scales = calloc(rs->ncols ? rs->ncols : 1, sizeof *sp->scales);
    if (sp->types == NULL || sp->scales == NULL)
        return lt_error_set(err, "HY001", "out of memory for ORDER BY");
    for (uint32_t c = 0; c < rs->ncols; c++) {
        sp->types[c] = rs->cols[c].type;
        sp->scales[c] = rs->cols[c].scale;
    }
    return 0;
}

int sql_spill_write(sql_spill *sp, const sql_rowstore *rs, const uint32_t *perm, uint32_t n,
                    lt_error *err)
{
    if (sp->types == NULL && remember_shape(sp, rs, err) != 0)
        return -1;
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
    run->f = open_temp(err);
    if (run->f == NULL)
        return -1;
    sp->nruns++;
    errno = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!write_row(run->f, rs, perm[i]))
            return file_error("write", errno, err);
    if (fflush(run->f) != 0 || ferror(run->f))
        return file_error("write", errno, err);
    if (fseek(run->f, 0, SEEK_SET) != 0)
        return file_error("read", errno, err);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Merging                                                                   */
/* ------------------------------------------------------------------------ */

/* Read n bytes of the run through its buffer (stdio's own cannot be set
** once the file has been written). */
static bool get(sql_spill_run *run, void *p, size_t n)
{
    char *to = p;
    while (n > 0) {
        if (run->pos == run->len) {
            run->pos = 0;
            run->len = (uint32_t)fread(run->buf, 1, run->buf_cap, run->f);
            if (run->len == 0)
                return false;
        }
        size_t k = run->len - run->pos < n ? run->len - run->pos : n;
        memcpy(to, run->buf + run->pos, k);
        run->pos += (uint32_t)k;
        to += k;
        n -= k;
    }
    return true;
}

/* Read `len` bytes of the row's text at *used of run->text. */
static bool get_bytes(sql_spill_run *run, lt_bytes *out, uint32_t text, uint32_t *used)
{
    uint32_t len;
    if (!get(run, &len, sizeof len) || len > text - *used)
        return false;
    char *to = run->text + *used;
    out->ptr = to;
    out->len = len;
    *used += len;
    return get(run, to, len);
}

/* Decode the run's next row into its head; run->done at the end of it. */
static int read_head(sql_spill *sp, sql_spill_run *run, lt_error *err)
{
    uint32_t text;
    if (!get(run, &text, sizeof text)) {
        if (ferror(run->f))
            return file_error("read", errno, err);
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
    uint32_t used = 0;
    for (uint32_t c = 0; c < sp->ncols; c++) {
        lt_vector *v = &run->cols[c];
        uint8_t mark;
        if (!get(run, &mark, 1))
            goto corrupt;
        v->nulls[0] = mark == MARK_NULL;
        v->tags[0] = LT_NULL;
        if (mark == MARK_NULL)
            continue;
        if (mark == MARK_VALUE) {
            bool ok = is_bytes(v->type) ? get_bytes(run, &v->v.bytes[0], text, &used)
                                        : get(run, v->v.any, sql_type_width(v->type));
            if (!ok)
                goto corrupt;
            continue;
        }
        if (mark - MARK_TAGGED > LT_GUID || mark - MARK_TAGGED == LT_NULL)
            goto corrupt;
        lt_value *o = &v->other[0];
        memset(o, 0, sizeof *o);
        o->type = (lt_type)(mark - MARK_TAGGED);
        v->tags[0] = (uint8_t)o->type;
        bool ok = is_bytes(o->type) ? get_bytes(run, &o->u.bytes, text, &used)
                                    : (o->type != LT_DECIMAL || get(run, &o->scale, sizeof o->scale)) &&
                                          get(run, (void *)value_bytes(o), sql_type_width(o->type));
        if (!ok)
            goto corrupt;
    }
    return 0;
corrupt:
    return ferror(run->f) ? file_error("read", errno, err)
                          : lt_error_set(err, "HY000", "the temporary ORDER BY file in '%s' "
                                                       "was truncated", temp_dir());
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
        run->buf = malloc(size);
        if (run->buf == NULL || alloc_head(sp, run) != 0)
            return lt_error_set(err, "HY001", "out of memory for ORDER BY");
        run->buf_cap = (uint32_t)size;
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
            fclose(run->f);
            run->f = NULL;
        }
        heap_down(sp, 0);
    }
    return 0;
}

void sql_spill_free(sql_spill *sp)
{
    for (uint32_t i = 0; i < sp->nruns; i++) {
        sql_spill_run *run = &sp->runs[i];
        if (run->f != NULL)
            fclose(run->f);
        free(run->buf);
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
