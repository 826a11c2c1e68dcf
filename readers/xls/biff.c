/*
** biff.c — BIFF records ([MS-XLS] 2.1.4): the record header and strings,
** including the BIFF8 strings that run on into CONTINUE records (each
** continued piece of a character array restarts with a byte that says
** whether its characters are 8- or 16-bit).  RK numbers are inline in
** xls_internal.h.
*/
#include <string.h>

#include "../common/endian.h"
#include "xls_internal.h"

int xls_record_at(const uint8_t *s, size_t len, size_t pos, xls_record *rec,
                  const char *name, lt_error *err)
{
    if (pos >= len)
        return 0;
    if (len - pos < 4)
        return lt_error_set(err, "HY000", "'%s': a record header is cut short at offset %zu of the workbook stream (truncated file?)",
                            name, pos);
    rec->type = lt_le16(s + pos);
    rec->len = lt_le16(s + pos + 2);
    rec->data = pos + 4;
    if (len - rec->data < rec->len)
        return lt_error_set(err, "HY000", "'%s': record 0x%04X at offset %zu runs past the end of the workbook stream (truncated file?)",
                            name, (unsigned)rec->type, pos);
    rec->next = rec->data + rec->len;
    return 1;
}

/* ---- text ----------------------------------------------------------------- */

static size_t put_utf8(char *d, uint32_t cp)
{
    if (cp < 0x80) {
        d[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        d[0] = (char)(0xC0 | cp >> 6);
        d[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        d[0] = (char)(0xE0 | cp >> 12);
        d[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        d[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    d[0] = (char)(0xF0 | cp >> 18);
    d[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    d[2] = (char)(0x80 | (cp >> 6 & 0x3F));
    d[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t xls_utf16_to_utf8(const uint8_t *src, size_t n, char *dst, uint16_t *pending)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        /* Most text is ASCII: four units at a time while it lasts (units
        ** below 0x80: every high byte zero, every low byte < 0x80). */
        while (!*pending && i + 4 <= n) {
            uint64_t x = lt_le64(src + 2 * i);
            if (x & UINT64_C(0xFF80FF80FF80FF80))
                break;
            dst[o] = (char)x;
            dst[o + 1] = (char)(x >> 16);
            dst[o + 2] = (char)(x >> 32);
            dst[o + 3] = (char)(x >> 48);
            o += 4;
            i += 4;
        }
        if (i == n)
            break;
        uint16_t u = lt_le16(src + 2 * i);
        if (*pending) {
            uint16_t hi = *pending;
            *pending = 0;
            if (u >= 0xDC00 && u <= 0xDFFF) {
                o += put_utf8(dst + o, 0x10000 + ((uint32_t)(hi - 0xD800) << 10) + (u - 0xDC00));
                continue;
            }
            o += put_utf8(dst + o, 0xFFFD);   /* a lone high surrogate */
        }
        if (u >= 0xD800 && u <= 0xDBFF)
            *pending = u;
        else if (u >= 0xDC00 && u <= 0xDFFF)
            o += put_utf8(dst + o, 0xFFFD);
        else
            o += put_utf8(dst + o, u);
    }
    return o;
}

size_t xls_latin1_to_utf8(const uint8_t *src, size_t n, char *dst)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (src[i] < 0x80) {
            dst[o++] = (char)src[i];
        } else {
            dst[o++] = (char)(0xC0 | src[i] >> 6);
            dst[o++] = (char)(0x80 | (src[i] & 0x3F));
        }
    }
    return o;
}

/* ---- records continued by CONTINUE -------------------------------------- */

void xls_seg_init(xls_seg *g, const uint8_t *s, size_t slen, const xls_record *rec)
{
    g->s = s;
    g->slen = slen;
    g->p = rec->data;
    g->end = rec->next;
}

/* Step into the CONTINUE record that follows the current one. */
static bool seg_continue(xls_seg *g)
{
    size_t at = g->end;
    if (g->slen - at < 4 || lt_le16(g->s + at) != XLS_CONTINUE)
        return false;
    size_t len = lt_le16(g->s + at + 2);
    if (g->slen - at - 4 < len)
        return false;
    g->p = at + 4;
    g->end = g->p + len;
    return true;
}

int xls_seg_bytes(xls_seg *g, uint8_t *dst, size_t n)
{
    while (n > 0) {
        if (g->p == g->end && !seg_continue(g))
            return -1;
        size_t take = g->end - g->p < n ? g->end - g->p : n;
        memcpy(dst, g->s + g->p, take);
        dst += take;
        g->p += take;
        n -= take;
    }
    return 0;
}

int xls_seg_skip(xls_seg *g, size_t n)
{
    while (n > 0) {
        if (g->p == g->end && !seg_continue(g))
            return -1;
        size_t take = g->end - g->p < n ? g->end - g->p : n;
        g->p += take;
        n -= take;
    }
    return 0;
}

int64_t xls_seg_chars(xls_seg *g, uint32_t cch, bool high, char *dst)
{
    size_t o = 0;
    uint16_t pending = 0;
    while (cch > 0) {
        if (g->p == g->end) {
            if (!seg_continue(g) || g->p == g->end)
                return -1;
            high = g->s[g->p++] & 1;
            continue;
        }
        size_t avail = (g->end - g->p) / (high ? 2 : 1);
        if (avail == 0)
            return -1;      /* half a 16-bit character before the boundary */
        size_t take = avail < cch ? avail : cch;
        if (high) {
            o += xls_utf16_to_utf8(g->s + g->p, take, dst + o, &pending);
            g->p += 2 * take;
        } else {
            if (pending) {
                o += put_utf8(dst + o, 0xFFFD);
                pending = 0;
            }
            o += xls_latin1_to_utf8(g->s + g->p, take, dst + o);
            g->p += take;
        }
        cch -= (uint32_t)take;
    }
    if (pending)
        o += put_utf8(dst + o, 0xFFFD);
    return (int64_t)o;
}

int64_t xls_seg_string_body(xls_seg *g, uint32_t cch, uint8_t flags, char *dst)
{
    uint8_t h[4];
    uint32_t runs = 0, ext = 0;
    if (flags & 0x08) {
        if (xls_seg_bytes(g, h, 2) != 0)
            return -1;
        runs = lt_le16(h);
    }
    if (flags & 0x04) {
        if (xls_seg_bytes(g, h, 4) != 0)
            return -1;
        ext = lt_le32(h);
    }
    int64_t n = xls_seg_chars(g, cch, flags & 1, dst);
    if (n < 0 || xls_seg_skip(g, (size_t)runs * 4) != 0 || xls_seg_skip(g, ext) != 0)
        return -1;
    return n;
}

int64_t xls_seg_string(xls_seg *g, int cch_bytes, char *dst, size_t cap)
{
    uint8_t h[3];
    if (xls_seg_bytes(g, h, (size_t)cch_bytes + 1) != 0)
        return -1;
    uint32_t cch = cch_bytes == 1 ? h[0] : lt_le16(h);
    if ((size_t)cch * 3 > cap)
        return -1;
    return xls_seg_string_body(g, cch, h[cch_bytes], dst);
}
