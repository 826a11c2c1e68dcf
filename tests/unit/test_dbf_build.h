/*
** test_dbf_build.h — building small dBASE tables in memory for the dBASE
** reader's unit tests, and reading them back through the reader.
**
** Included by the test_dbf_*.c files only (the tests need <cmocka.h> first).
*/
#ifndef TEST_DBF_BUILD_H
#define TEST_DBF_BUILD_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dbf/dbf.h"
#include "reader.h"

/* A growing byte buffer. */
typedef struct tb {
    uint8_t *p;
    size_t len, cap;
} tb;

static inline void tb_put(tb *b, const void *data, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n)
            cap *= 2;
        b->p = realloc(b->p, cap);
        assert_non_null(b->p);
        b->cap = cap;
    }
    if (n)
        memcpy(b->p + b->len, data, n);
    b->len += n;
}

static inline void tb_byte(tb *b, uint8_t v) { tb_put(b, &v, 1); }
static inline void tb_zeros(tb *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        tb_byte(b, 0);
}
static inline void tb_le16(tb *b, uint16_t v) { tb_byte(b, v & 0xFF); tb_byte(b, v >> 8); }
static inline void tb_le32(tb *b, uint32_t v) { tb_le16(b, v & 0xFFFF); tb_le16(b, v >> 16); }
static inline void tb_be32(tb *b, uint32_t v)
{
    tb_byte(b, (uint8_t)(v >> 24)); tb_byte(b, (uint8_t)(v >> 16));
    tb_byte(b, (uint8_t)(v >> 8)); tb_byte(b, (uint8_t)v);
}
static inline void tb_free(tb *b) { free(b->p); memset(b, 0, sizeof *b); }

typedef struct tb_field {
    const char *name;
    char type;
    uint16_t width;      /* C fields over 255 use the decimals byte (Clipper) */
    uint8_t dec;
    uint8_t flags;
} tb_field;

static inline uint32_t tb_record_len(const tb_field *f, size_t n)
{
    uint32_t len = 1;
    for (size_t i = 0; i < n; i++)
        len += f[i].width;
    return len;
}

/* Header + descriptors (+ 0x0D, + VFP's 263-byte backlink). */
static inline void tb_header(tb *b, uint8_t version, uint8_t ldid, uint32_t nrec,
                      const tb_field *f, size_t nf, int terminator, int vfp)
{
    uint32_t hlen = 32 + 32 * (uint32_t)nf + (terminator ? 1 : 0) + (vfp ? 263 : 0);
    tb_byte(b, version);
    tb_byte(b, 124); tb_byte(b, 5); tb_byte(b, 17);
    tb_le32(b, nrec);
    tb_le16(b, (uint16_t)hlen);
    tb_le16(b, (uint16_t)tb_record_len(f, nf));
    tb_zeros(b, 17);
    tb_byte(b, ldid);
    tb_zeros(b, 2);
    for (size_t i = 0; i < nf; i++) {
        uint8_t name[11] = {0};
        memcpy(name, f[i].name, strlen(f[i].name) < 11 ? strlen(f[i].name) : 11);
        tb_put(b, name, 11);
        tb_byte(b, (uint8_t)f[i].type);
        tb_le32(b, 0);
        if (f[i].width > 255) {
            tb_byte(b, f[i].width & 0xFF);
            tb_byte(b, (uint8_t)(f[i].width >> 8));
        } else {
            tb_byte(b, (uint8_t)f[i].width);
            tb_byte(b, f[i].dec);
        }
        tb_byte(b, f[i].flags);
        tb_zeros(b, 13);
    }
    if (terminator)
        tb_byte(b, 0x0D);
    if (vfp)
        tb_zeros(b, 263);
}

/* One record given as text ("*" or " " first); must be the record length. */
static inline void tb_record(tb *b, const char *text, size_t len)
{
    tb_put(b, text, len);
}

/* ---- reading back ------------------------------------------------------- */

typedef struct tb_read {
    lt_source *src;
    lt_batch *batch;      /* the first 256 rows of the table */
    uint64_t total;       /* rows in the whole scan */
    lt_error err;
    int rc;               /* 0, or -1 when open or scan failed (err) */
} tb_read;

/* Scan every column of table `ti` into one batch of up to 256 rows. */
static inline int tb_scan(tb_read *r, uint32_t ti)
{
    static uint32_t tb_all_cols[1024];
    const lt_table *t = &r->src->tables[ti];
    static lt_type types[1024];
    static int16_t scales[1024];
    assert_true(t->ncols <= 1024);
    for (uint32_t c = 0; c < t->ncols; c++) {
        types[c] = t->cols[c].type;
        scales[c] = t->cols[c].scale;
        tb_all_cols[c] = c;
    }
    lt_batch_free(r->batch);
    r->batch = lt_batch_new(t->ncols, types, scales, 256);
    assert_non_null(r->batch);
    static lt_scan_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.table = ti;
    spec.ncols = t->ncols;
    spec.cols = tb_all_cols;
    spec.limit = -1;
    lt_scan *scan = NULL;
    if (r->src->reader->scan_open(r->src, &spec, &scan, &r->err) != 0)
        return r->rc = -1;
    r->rc = r->src->reader->scan_next(scan, r->batch, &r->err);
    r->total = r->rc == 0 ? r->batch->count : 0;
    if (r->rc == 0 && r->batch->count > 0) {
        /* The first batch stays in r->batch; the rest are only counted. */
        lt_batch *rest = lt_batch_new(t->ncols, types, scales, 256);
        assert_non_null(rest);
        do {
            r->rc = r->src->reader->scan_next(scan, rest, &r->err);
            r->total += rest->count;
        } while (r->rc == 0 && rest->count > 0);
        lt_batch_free(rest);
    }
    r->src->reader->scan_close(scan);
    return r->rc;
}

/* Open bytes (and an optional memo) and scan table 0. */
static inline int tb_open_scan(tb_read *r, const tb *table, const tb *memo, const char *memo_ext,
                        const lt_options *opts)
{
    memset(r, 0, sizeof *r);
    r->rc = lt_dbf_open_memory(table->p, table->len, memo ? memo->p : NULL,
                               memo ? memo->len : 0, memo_ext, "t", opts, &r->src, &r->err);
    if (r->rc != 0)
        return r->rc;
    return tb_scan(r, 0);
}

static inline void tb_read_free(tb_read *r)
{
    lt_batch_free(r->batch);
    lt_source_close(r->src);
    memset(r, 0, sizeof *r);
}

static inline int tb_is_null(const tb_read *r, uint32_t col, uint32_t row)
{
    return r->batch->cols[col].nulls[row] != 0;
}

/* Text or binary cell as a NUL-terminated copy in a static buffer. */
static inline const char *tb_text(const tb_read *r, uint32_t col, uint32_t row)
{
    static char buf[4096];
    assert_false(tb_is_null(r, col, row));
    const lt_bytes *v = &r->batch->cols[col].v.bytes[row];
    assert_true(v->len < sizeof buf);
    memcpy(buf, v->ptr, v->len);
    buf[v->len] = '\0';
    return buf;
}

#endif /* TEST_DBF_BUILD_H */
