/*
** test_xls_build.h — building small .xls files in memory for the tests: BIFF
** records into a workbook stream, and the stream into a compound file
** (version 3, 512-byte sectors) with its sectors in order, scattered, or in
** the mini stream.  Header-only: each test includes it once (static inline: a test uses what it needs).
*/
#ifndef TEST_XLS_BUILD_H
#define TEST_XLS_BUILD_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct xb {
    uint8_t *p;
    size_t len, cap;
} xb;

static inline void xb_put(xb *b, const void *data, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n)
            cap *= 2;
        b->p = realloc(b->p, cap);
        b->cap = cap;
    }
    if (n)
        memcpy(b->p + b->len, data, n);
    b->len += n;
}

static inline void xb_u8(xb *b, unsigned v)
{
    uint8_t x = (uint8_t)v;
    xb_put(b, &x, 1);
}

static inline void xb_u16(xb *b, unsigned v)
{
    xb_u8(b, v & 0xFF);
    xb_u8(b, (v >> 8) & 0xFF);
}

static inline void xb_u32(xb *b, uint32_t v)
{
    xb_u16(b, v & 0xFFFF);
    xb_u16(b, v >> 16);
}

static inline void xb_f64(xb *b, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    xb_u32(b, (uint32_t)u);
    xb_u32(b, (uint32_t)(u >> 32));
}

static inline void xb_set32(xb *b, size_t at, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b->p[at + (size_t)i] = (uint8_t)(v >> (8 * i));
}

/* A record: type, then the bytes of `data`. */
static inline void xb_rec(xb *s, unsigned type, const xb *data)
{
    xb_u16(s, type);
    xb_u16(s, (unsigned)data->len);
    xb_put(s, data->p, data->len);
}

static inline void xb_free(xb *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

/* ---- common records ------------------------------------------------------ */

static inline void xb_bof(xb *s, unsigned vers, unsigned dt)
{
    xb d = {0};
    xb_u16(&d, vers);
    xb_u16(&d, dt);
    xb_u32(&d, 0);
    xb_u32(&d, 0);
    xb_rec(s, 0x0809, &d);
    xb_free(&d);
}

static inline void xb_empty(xb *s, unsigned type)
{
    xb d = {0};
    xb_rec(s, type, &d);
}

static inline void xb_u16rec(xb *s, unsigned type, unsigned v)
{
    xb d = {0};
    xb_u16(&d, v);
    xb_rec(s, type, &d);
    xb_free(&d);
}

/* XF record whose number format is `ifmt` (BIFF5 and BIFF8: offset 2). */
static inline void xb_xf(xb *s, unsigned ifmt)
{
    xb d = {0};
    xb_u16(&d, 0);
    xb_u16(&d, ifmt);
    for (int i = 0; i < 16; i++)
        xb_u8(&d, 0);
    xb_rec(s, 0x00E0, &d);
    xb_free(&d);
}

/* FORMAT: BIFF8 with an 8-bit XLUnicodeString, BIFF5 with a byte count. */
static inline void xb_format(xb *s, unsigned id, const char *fmt, int biff8)
{
    xb d = {0};
    xb_u16(&d, id);
    if (biff8) {
        xb_u16(&d, (unsigned)strlen(fmt));
        xb_u8(&d, 0);
    } else {
        xb_u8(&d, (unsigned)strlen(fmt));
    }
    xb_put(&d, fmt, strlen(fmt));
    xb_rec(s, 0x041E, &d);
    xb_free(&d);
}

/* BOUNDSHEET with an 8-bit name (BIFF8 when biff8); returns the offset of
** its lbPlyPos to patch. */
static inline size_t xb_boundsheet(xb *s, const char *name, unsigned hidden, unsigned dt, int biff8)
{
    xb d = {0};
    xb_u32(&d, 0);
    xb_u8(&d, hidden);
    xb_u8(&d, dt);
    xb_u8(&d, (unsigned)strlen(name));
    if (biff8)
        xb_u8(&d, 0);
    xb_put(&d, name, strlen(name));
    size_t at = s->len + 4;
    xb_rec(s, 0x0085, &d);
    xb_free(&d);
    return at;
}

static inline void xb_number(xb *s, unsigned row, unsigned col, unsigned xf, double v)
{
    xb d = {0};
    xb_u16(&d, row);
    xb_u16(&d, col);
    xb_u16(&d, xf);
    xb_f64(&d, v);
    xb_rec(s, 0x0203, &d);
    xb_free(&d);
}

static inline void xb_rk(xb *s, unsigned row, unsigned col, unsigned xf, uint32_t rk)
{
    xb d = {0};
    xb_u16(&d, row);
    xb_u16(&d, col);
    xb_u16(&d, xf);
    xb_u32(&d, rk);
    xb_rec(s, 0x027E, &d);
    xb_free(&d);
}

static inline void xb_labelsst(xb *s, unsigned row, unsigned col, uint32_t i)
{
    xb d = {0};
    xb_u16(&d, row);
    xb_u16(&d, col);
    xb_u16(&d, 0);
    xb_u32(&d, i);
    xb_rec(s, 0x00FD, &d);
    xb_free(&d);
}

/* LABEL: BIFF8 with an 8-bit XLUnicodeString, BIFF5 with code-page bytes. */
static inline void xb_label(xb *s, unsigned row, unsigned col, const char *text, int biff8)
{
    xb d = {0};
    xb_u16(&d, row);
    xb_u16(&d, col);
    xb_u16(&d, 0);
    xb_u16(&d, (unsigned)strlen(text));
    if (biff8)
        xb_u8(&d, 0);
    xb_put(&d, text, strlen(text));
    xb_rec(s, 0x0204, &d);
    xb_free(&d);
}

static inline void xb_boolerr(xb *s, unsigned row, unsigned col, unsigned v, unsigned is_error)
{
    xb d = {0};
    xb_u16(&d, row);
    xb_u16(&d, col);
    xb_u16(&d, 0);
    xb_u8(&d, v);
    xb_u8(&d, is_error);
    xb_rec(s, 0x0205, &d);
    xb_free(&d);
}

/* FORMULA with a cached result: kind 'n' number, 's' string (a STRING
** record must follow), 'b' boolean, 'e' error, 'E' empty string. */
static inline void xb_formula(xb *s, unsigned row, unsigned col, unsigned xf, char kind, double num, unsigned v)
{
    xb d = {0};
    xb_u16(&d, row);
    xb_u16(&d, col);
    xb_u16(&d, xf);
    if (kind == 'n') {
        xb_f64(&d, num);
    } else {
        xb_u8(&d, kind == 's' ? 0 : kind == 'b' ? 1 : kind == 'e' ? 2 : 3);
        xb_u8(&d, 0);
        xb_u8(&d, v);
        xb_u8(&d, 0);
        xb_u16(&d, 0);
        xb_u16(&d, 0xFFFF);
    }
    xb_u16(&d, 0);
    xb_u32(&d, 0);
    xb_u16(&d, 0);      /* an empty formula */
    xb_rec(s, 0x0006, &d);
    xb_free(&d);
}

/* NAME: BIFF8 Lbl (a string-flags byte, then the name, 8-bit or UTF-16 as
** `utf16` says) or BIFF5 (no flags byte, code-page bytes); `cch`
** characters of name, the formula `rgce`. */
static inline void xb_name(xb *s, int biff8, unsigned flags, unsigned itab, const char *name,
                           size_t cch, int utf16, const xb *rgce)
{
    xb d = {0};
    xb_u16(&d, flags);
    xb_u8(&d, 0);
    xb_u8(&d, (unsigned)cch);
    xb_u16(&d, (unsigned)rgce->len);
    xb_u16(&d, 0);
    xb_u16(&d, itab);
    xb_u32(&d, 0);
    if (biff8)
        xb_u8(&d, utf16 ? 1 : 0);
    xb_put(&d, name, utf16 ? 2 * cch : cch);
    xb_put(&d, rgce->p, rgce->len);
    xb_rec(s, 0x0018, &d);
    xb_free(&d);
}

/* A BIFF8 NAME with an 8-bit name. */
static inline void xb_name8(xb *s, unsigned flags, unsigned itab, const char *name, const xb *rgce)
{
    xb_name(s, 1, flags, itab, name, strlen(name), 0, rgce);
}

/* BIFF8 ptgArea3d through XTI `ixti`, both corners relative. */
static inline void xb_area3d(xb *f, unsigned ixti, unsigned r0, unsigned r1, unsigned c0, unsigned c1)
{
    xb_u8(f, 0x3B);
    xb_u16(f, ixti);
    xb_u16(f, r0);
    xb_u16(f, r1);
    xb_u16(f, c0 | 0xC000);
    xb_u16(f, c1 | 0xC000);
}

static inline void xb_string8(xb *s, const char *text)
{
    xb d = {0};
    xb_u16(&d, (unsigned)strlen(text));
    xb_u8(&d, 0);
    xb_put(&d, text, strlen(text));
    xb_rec(s, 0x0207, &d);
    xb_free(&d);
}

/* ---- compound file ----------------------------------------------------------- */

/* The fixed start of a version-3 compound file header (34 bytes): the
** signature, a null CLSID, versions 0x3E and 3, byte order, 512-byte
** sectors, 64-byte mini sectors, the reserved bytes. */
static inline void xb_cfb_header_start(xb *f)
{
    static const uint8_t sig[8] = {0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1};
    xb_put(f, sig, 8);
    for (int i = 0; i < 16; i++)
        xb_u8(f, 0);
    xb_u16(f, 0x3E);
    xb_u16(f, 3);
    xb_u16(f, 0xFFFE);
    xb_u16(f, 9);
    xb_u16(f, 6);
    for (int i = 0; i < 6; i++)
        xb_u8(f, 0);
}

enum { XB_CONTIGUOUS, XB_SCATTERED, XB_MINI };

static inline void xb_dir_entry(xb *f, const char *name, unsigned type, uint32_t child,
                         uint32_t start, uint32_t size)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < 32; i++)
        xb_u16(f, i < n ? (unsigned char)name[i] : 0);
    xb_u16(f, name[0] ? (unsigned)(2 * (n + 1)) : 0);
    xb_u8(f, type);
    xb_u8(f, 1);
    xb_u32(f, 0xFFFFFFFF);
    xb_u32(f, 0xFFFFFFFF);
    xb_u32(f, child);
    for (int i = 0; i < 16 + 4 + 16; i++)
        xb_u8(f, 0);
    xb_u32(f, start);
    xb_u32(f, size);
    xb_u32(f, 0);
}

/*
** A compound file holding one stream `name` (at most 120 sectors).  Layout:
** sector 0 the FAT, 1 the directory, 2 the mini FAT (XB_MINI), then data.
** XB_SCATTERED writes the stream's sectors in reverse order.
*/
static inline void xb_cfb(xb *f, const char *name, const uint8_t *data, size_t len, int layout)
{
    uint32_t fat[128];
    for (int i = 0; i < 128; i++)
        fat[i] = 0xFFFFFFFF;
    fat[0] = 0xFFFFFFFD;
    fat[1] = 0xFFFFFFFE;
    size_t nsec = (len + 511) / 512;
    size_t minisecs = (len + 63) / 64;
    uint32_t first = 2, mini_start = 0xFFFFFFFE, mini_size = 0;
    if (layout == XB_MINI) {
        fat[2] = 0xFFFFFFFE;                      /* the mini FAT */
        nsec = (minisecs * 64 + 511) / 512;       /* the mini stream's sectors */
        mini_start = 3;
        mini_size = (uint32_t)(minisecs * 64);
        for (size_t k = 0; k < nsec; k++)
            fat[3 + k] = k + 1 < nsec ? (uint32_t)(4 + k) : 0xFFFFFFFE;
        first = 0;                                /* mini sector 0 */
    } else if (layout == XB_SCATTERED) {
        /* logical sector k lives in physical sector 2 + (nsec - 1 - k) */
        for (size_t k = 0; k < nsec; k++) {
            uint32_t phys = (uint32_t)(2 + nsec - 1 - k);
            fat[phys] = k + 1 < nsec ? phys - 1 : 0xFFFFFFFE;
        }
        first = (uint32_t)(2 + nsec - 1);
    } else {
        for (size_t k = 0; k < nsec; k++)
            fat[2 + k] = k + 1 < nsec ? (uint32_t)(3 + k) : 0xFFFFFFFE;
    }
    xb_cfb_header_start(f);
    xb_u32(f, 0);                                  /* directory sectors (v3: 0) */
    xb_u32(f, 1);                                  /* FAT sectors */
    xb_u32(f, 1);                                  /* first directory sector */
    xb_u32(f, 0);
    xb_u32(f, 4096);
    xb_u32(f, layout == XB_MINI ? 2 : 0xFFFFFFFE); /* first mini FAT sector */
    xb_u32(f, layout == XB_MINI ? 1 : 0);
    xb_u32(f, 0xFFFFFFFE);                         /* first DIFAT sector */
    xb_u32(f, 0);
    xb_u32(f, 0);                                  /* DIFAT[0]: the FAT */
    for (int i = 1; i < 109; i++)
        xb_u32(f, 0xFFFFFFFF);
    for (int i = 0; i < 128; i++)                  /* sector 0: FAT */
        xb_u32(f, fat[i]);
    xb_dir_entry(f, "Root Entry", 5, 1, mini_start, mini_size);   /* sector 1 */
    xb_dir_entry(f, name, 2, 0xFFFFFFFF, first, (uint32_t)len);
    xb_dir_entry(f, "", 0, 0xFFFFFFFF, 0, 0);
    xb_dir_entry(f, "", 0, 0xFFFFFFFF, 0, 0);
    if (layout == XB_MINI) {
        for (size_t k = 0; k < 128; k++)           /* sector 2: mini FAT */
            xb_u32(f, k + 1 < minisecs ? (uint32_t)(k + 1) : k + 1 == minisecs ? 0xFFFFFFFE : 0xFFFFFFFF);
    }
    size_t base = f->len;
    uint8_t zero[512] = {0};
    for (size_t k = 0; k < nsec; k++)
        xb_put(f, zero, 512);
    if (layout == XB_SCATTERED) {
        for (size_t k = 0; k < nsec; k++) {
            size_t n = len - k * 512 < 512 ? len - k * 512 : 512;
            memcpy(f->p + base + (nsec - 1 - k) * 512, data + k * 512, n);
        }
    } else {
        memcpy(f->p + base, data, len);
    }
}

#endif /* TEST_XLS_BUILD_H */
