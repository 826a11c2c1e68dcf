/*
** stream.c — reading a ZIP entry record by record without inflating it
** whole: a window of inflated bytes slides over the part, refilled from
** zlib as records are consumed, so a million-row sheet costs a window, not
** its full size.  A stored entry is read in place.  A record larger than
** the window grows it (to the record's size, which the 4-byte BIFF12 size
** bounds at 256 MiB); the inflated total never passes XLSB_PART_MAX.
*/
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../common/endian.h"
#include "xlsb_internal.h"

#define WINDOW (256u * 1024u)

static int damaged(const xlsb_stream *st, const char *what, lt_error *err)
{
    return lt_error_set(err, "HY000", "'%s': part '%s' %s", st->zip->label, st->entry->name, what);
}

/* The inflated bytes end: their CRC must be the entry's. */
static int check_end(xlsb_stream *st, lt_error *err)
{
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
    if (st->crc != st->entry->crc)
        return damaged(st, "fails its CRC-32 check (damaged file)", err);
#endif
    (void)err;
    (void)st;
    return 0;
}

int xlsb_stream_open(xlsb_stream *st, const xlsb_zip *z, uint32_t entry, lt_error *err)
{
    memset(st, 0, sizeof *st);
    st->zip = z;
    if (entry >= z->n)
        return lt_error_set(err, "HY000", "'%s': no ZIP entry #%u", z->label, (unsigned)entry);
    st->entry = &z->entries[entry];
    size_t len;
    if (xlsb_zip_locate(z, entry, &st->in, &len, err) != 0)
        return -1;
    st->in_len = len;
    st->crc = (uint32_t)crc32(0L, Z_NULL, 0);
    if (st->entry->method == 0) {
        st->win = st->in;
        st->end = len;
        st->total = len;
        st->inflated_all = true;
        st->crc = xlsb_crc32(st->in, len);
        return check_end(st, err);
    }
    z_stream *zs = calloc(1, sizeof *zs);
    st->buf = malloc(WINDOW);
    if (zs == NULL || st->buf == NULL || inflateInit2(zs, -MAX_WBITS) != Z_OK) {
        free(zs);
        free(st->buf);
        st->buf = NULL;
        return lt_error_set(err, "HY001", "out of memory");
    }
    st->zs = zs;
    st->win = st->buf;
    st->cap = WINDOW;
    return 0;
}

void xlsb_stream_close(xlsb_stream *st)
{
    if (st->zs != NULL) {
        inflateEnd((z_stream *)st->zs);
        free(st->zs);
    }
    free(st->buf);
    memset(st, 0, sizeof *st);
}

/* Inflate more bytes after win[end]; `need` bytes must fit in the window. */
static int refill(xlsb_stream *st, size_t need, lt_error *err)
{
    z_stream *zs = st->zs;
    if (st->start > 0) {
        memmove(st->buf, st->buf + st->start, st->end - st->start);
        st->end -= st->start;
        st->start = 0;
    }
    if (need > st->cap) {
        uint8_t *nb = realloc(st->buf, need);
        if (nb == NULL)
            return lt_error_set(err, "HY001", "out of memory");
        st->buf = nb;
        st->win = nb;
        st->cap = need;
    }
    while (st->end < need || st->end == 0) {
        size_t in = st->in_len - st->in_pos > (1u << 30) ? (1u << 30) : st->in_len - st->in_pos;
        size_t room = st->cap - st->end;
        zs->next_in = (Bytef *)(uintptr_t)(st->in + st->in_pos);
        zs->avail_in = (uInt)in;
        zs->next_out = st->buf + st->end;
        zs->avail_out = (uInt)room;
        int rc = inflate(zs, Z_NO_FLUSH);
        size_t got = room - zs->avail_out;
        st->in_pos += in - zs->avail_in;
        st->crc = (uint32_t)crc32(st->crc, st->buf + st->end, (uInt)got);
        st->end += got;
        st->total += got;
        if (st->total > XLSB_PART_MAX)
            return damaged(st, "inflates past the size limit (a zip bomb?)", err);
        if (rc == Z_STREAM_END) {
            st->inflated_all = true;
            return check_end(st, err);
        }
        if (rc != Z_OK && !(rc == Z_BUF_ERROR && got > 0))
            return damaged(st, "has malformed or truncated deflate data", err);
        if (got == 0 && in - zs->avail_in == 0)
            return damaged(st, "has truncated deflate data", err);
    }
    return 0;
}

int xlsb_stream_next(xlsb_stream *st, xlsb_rec *rec, lt_error *err)
{
    for (;;) {
        uint32_t type = 0, size = 0;
        size_t hlen = 0, have = st->end - st->start;
        int h = xlsb_record_header(st->win + st->start, have, &type, &size, &hlen);
        if (h < 0)
            return damaged(st, "holds a malformed record header", err);
        if (h == 1 && size <= have - hlen) {
            rec->type = type;
            rec->data = st->win + st->start + hlen;
            rec->len = size;
            st->start += hlen + size;
            return 1;
        }
        if (st->inflated_all) {
            if (have == 0)
                return 0;
            return damaged(st, "ends inside a record (truncated?)", err);
        }
        size_t need = h == 1 ? hlen + (size_t)size : have + 1;
        if (need < WINDOW)
            need = WINDOW;
        else if (need > (size_t)1 << 29)
            return damaged(st, "holds a record larger than 512 MiB", err);
        if (refill(st, need, err) != 0)
            return -1;
    }
}
