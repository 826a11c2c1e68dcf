/*
** test_xlsb_build.h — building small .xlsb packages in memory for the
** .xlsb tests: a ZIP writer (stored or raw-deflate entries, central
** directory, end record) and a BIFF12 record writer.
*/
#ifndef TEST_XLSB_BUILD_H
#define TEST_XLSB_BUILD_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct tbuf {
    uint8_t *p;
    size_t len, cap;
} tbuf;

static void tb_put(tbuf *b, const void *s, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n)
            cap *= 2;
        b->p = realloc(b->p, cap);
        if (b->p == NULL)
            abort();
        b->cap = cap;
    }
    if (n)
        memcpy(b->p + b->len, s, n);
    b->len += n;
}

static void tb_u8(tbuf *b, unsigned v) { uint8_t c = (uint8_t)v; tb_put(b, &c, 1); }
static void tb_u16(tbuf *b, unsigned v) { tb_u8(b, v & 0xFF); tb_u8(b, (v >> 8) & 0xFF); }
static void tb_u32(tbuf *b, uint32_t v) { tb_u16(b, v & 0xFFFF); tb_u16(b, v >> 16); }
static void tb_f64(tbuf *b, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    tb_u32(b, (uint32_t)u);
    tb_u32(b, (uint32_t)(u >> 32));
}

/* An XLWideString from ASCII/Latin-1 text. */
static void tb_wstr(tbuf *b, const char *s)
{
    size_t n = strlen(s);
    tb_u32(b, (uint32_t)n);
    for (size_t i = 0; i < n; i++)
        tb_u16(b, (uint8_t)s[i]);
}

/* A BIFF12 record header + data. */
static void tb_rec(tbuf *b, unsigned type, const tbuf *data)
{
    do {
        unsigned byte = type & 0x7F;
        type >>= 7;
        tb_u8(b, byte | (type ? 0x80 : 0));
    } while (type);
    size_t size = data ? data->len : 0;
    do {
        unsigned byte = size & 0x7F;
        size >>= 7;
        tb_u8(b, byte | (size ? 0x80 : 0));
    } while (size);
    if (data)
        tb_put(b, data->p, data->len);
}

typedef struct tzip_entry {
    const char *name;
    uint32_t crc, csize, usize, local;
    uint16_t method;
} tzip_entry;

typedef struct tzip {
    tbuf out;
    tzip_entry e[32];
    int n;
} tzip;

static void tzip_add(tzip *z, const char *name, const void *data, size_t len, int deflated)
{
    tzip_entry *e = &z->e[z->n++];
    e->name = name;
    e->crc = (uint32_t)crc32(0, data, (uInt)len);
    e->usize = (uint32_t)len;
    e->local = (uint32_t)z->out.len;
    e->method = deflated ? 8 : 0;
    uint8_t *comp = NULL;
    size_t clen = len;
    if (deflated) {
        z_stream s;
        memset(&s, 0, sizeof s);
        deflateInit2(&s, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
        size_t cap = deflateBound(&s, (uLong)len);
        comp = malloc(cap);
        s.next_in = (Bytef *)(uintptr_t)data;
        s.avail_in = (uInt)len;
        s.next_out = comp;
        s.avail_out = (uInt)cap;
        deflate(&s, Z_FINISH);
        clen = s.total_out;
        deflateEnd(&s);
    }
    e->csize = (uint32_t)clen;
    tbuf *b = &z->out;
    tb_u32(b, 0x04034b50u);
    tb_u16(b, 20);
    tb_u16(b, 0);
    tb_u16(b, e->method);
    tb_u32(b, 0);
    tb_u32(b, e->crc);
    tb_u32(b, e->csize);
    tb_u32(b, e->usize);
    tb_u16(b, (unsigned)strlen(name));
    tb_u16(b, 0);
    tb_put(b, name, strlen(name));
    tb_put(b, deflated ? comp : data, clen);
    free(comp);
}

/* Central directory and end record; returns the offset of the directory. */
static size_t tzip_finish(tzip *z)
{
    tbuf *b = &z->out;
    size_t at = b->len;
    for (int i = 0; i < z->n; i++) {
        tzip_entry *e = &z->e[i];
        tb_u32(b, 0x02014b50u);
        tb_u16(b, 20);
        tb_u16(b, 20);
        tb_u16(b, 0);
        tb_u16(b, e->method);
        tb_u32(b, 0);
        tb_u32(b, e->crc);
        tb_u32(b, e->csize);
        tb_u32(b, e->usize);
        tb_u16(b, (unsigned)strlen(e->name));
        tb_u16(b, 0);
        tb_u16(b, 0);
        tb_u16(b, 0);
        tb_u16(b, 0);
        tb_u32(b, 0);
        tb_u32(b, e->local);
        tb_put(b, e->name, strlen(e->name));
    }
    size_t dsize = b->len - at;
    tb_u32(b, 0x06054b50u);
    tb_u16(b, 0);
    tb_u16(b, 0);
    tb_u16(b, (unsigned)z->n);
    tb_u16(b, (unsigned)z->n);
    tb_u32(b, (uint32_t)dsize);
    tb_u32(b, (uint32_t)at);
    tb_u16(b, 0);
    return at;
}

#endif /* TEST_XLSB_BUILD_H */
