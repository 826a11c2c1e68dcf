/*
** lval.c — memo and OLE values ("long values") and growable buffers.
**
** In the row a memo or OLE field is a 12-byte header: a 4-byte length whose
** top two bits say where the bytes are (0x80 in the top byte: right after
** the header; 0x40: all in one row of an LVAL page, named by the row pointer
** at offset 4; 0x00: a chain of LVAL rows, each starting with the pointer to
** the next one), then the pointer, then 4 unused bytes.
**
** A chain is followed only while it adds bytes and only up to the stated
** length, which may not exceed the file: a looping chain ends there.
*/
#include "access_internal.h"

#include "../common/endian.h"

#include <stdlib.h>
#include <string.h>

int mdb_buf_reserve(mdb_buf *b, size_t need)
{
    if (need <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need) {
        if (cap > SIZE_MAX / 2)
            return -1;
        cap *= 2;
    }
    uint8_t *p = realloc(b->p, cap);
    if (p == NULL)
        return -1;
    b->p = p;
    b->cap = cap;
    return 0;
}

int mdb_buf_add(mdb_buf *b, const char *s, size_t n)
{
    if (n > SIZE_MAX - b->len - 1 || mdb_buf_reserve(b, b->len + n + 1) != 0)
        return -1;
    if (n > 0)
        memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
    return 0;
}

void mdb_buf_free(mdb_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

static int lval_corrupt(const mdb_db *db, uint32_t ptr, const char *what, lt_error *err)
{
    return lt_error_set(err, "HY000", "'%s' is corrupt: long value at page %u, row %u: %s",
                        db->path, ptr >> 8, ptr & 0xff, what);
}

static int lval_chain(const mdb_db *db, uint32_t ptr, uint32_t length, mdb_buf *buf,
                      lt_error *err)
{
    if (mdb_buf_reserve(buf, length ? length : 1) != 0)
        return lt_error_set(err, "HY001", "out of memory reading '%s'", db->path);
    buf->len = 0;
    while (buf->len < length) {
        if (ptr == 0)
            return lval_corrupt(db, ptr, "the chain ends before the value's length", err);
        const uint8_t *row;
        uint32_t len;
        if (mdb_find_row(db, ptr, &row, &len, err) != 0)
            return -1;
        if (len <= 4)
            return lval_corrupt(db, ptr, "empty link of a long-value chain", err);
        size_t take = len - 4;
        if (take > length - buf->len)
            take = length - buf->len;
        memcpy(buf->p + buf->len, row + 4, take);
        buf->len += take;
        ptr = lt_le32(row);
    }
    return 0;
}

int mdb_lval(const mdb_db *db, const uint8_t *field, uint32_t len, mdb_buf *buf,
             const uint8_t **out, uint32_t *out_len, lt_error *err)
{
    if (len < 12)
        return lt_error_set(err, "HY000", "'%s' is corrupt: a memo/OLE field is shorter than its 12-byte header",
                            db->path);
    uint32_t length = lt_le32(field) & 0x3fffffff;
    uint8_t kind = field[3] & 0xc0;
    uint32_t ptr = lt_le32(field + 4);
    if (length > db->size)
        return lval_corrupt(db, ptr, "length larger than the file", err);
    *out_len = length;
    if (kind == 0x80) {
        if (length > len - 12)
            return lt_error_set(err, "HY000", "'%s' is corrupt: an inline memo/OLE value is longer than its field",
                                db->path);
        *out = field + 12;
        return 0;
    }
    if (kind == 0x40) {
        const uint8_t *row;
        uint32_t rlen;
        if (mdb_find_row(db, ptr, &row, &rlen, err) != 0)
            return -1;
        if (length > rlen)
            return lval_corrupt(db, ptr, "value longer than its row", err);
        *out = row;
        return 0;
    }
    if (kind == 0x00) {
        if (lval_chain(db, ptr, length, buf, err) != 0)
            return -1;
        *out = buf->p;
        return 0;
    }
    return lval_corrupt(db, ptr, "unknown kind of long value", err);
}
