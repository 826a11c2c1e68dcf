/*
** records.c — BIFF12 records and the small structures inside them: the
** variable-length record header (a type of 1-2 bytes and a size of 1-4
** bytes, seven bits per byte, the high bit saying "another byte follows"),
** RkNumber, XLWideString and UTF-16 text.
*/
#include <string.h>

#include "../common/endian.h"
#include "xlsb_internal.h"

/* A 7-bit varint of at most `max` bytes at s[*p]: 1 read, 0 cut short,
** -1 longer than `max`. */
static int varint(const uint8_t *s, size_t len, size_t *p, int max, uint32_t *out)
{
    *out = 0;
    for (int i = 0;; i++) {
        if (i == max)
            return -1;
        if (*p >= len)
            return 0;
        uint8_t b = s[(*p)++];
        *out |= (uint32_t)(b & 0x7F) << (7 * i);
        if (!(b & 0x80))
            return 1;
    }
}

int xlsb_record_header(const uint8_t *s, size_t len, uint32_t *type, uint32_t *size, size_t *hlen)
{
    size_t p = 0;
    int rc = varint(s, len, &p, 2, type);
    if (rc == 1)
        rc = varint(s, len, &p, 4, size);
    if (rc == 1)
        *hlen = p;
    return rc;
}

int xlsb_record_next(const uint8_t *s, size_t len, size_t *pos, xlsb_rec *rec)
{
    size_t p = *pos, hlen;
    uint32_t type, size;
    if (p >= len)
        return 0;
    if (xlsb_record_header(s + p, len - p, &type, &size, &hlen) != 1 || size > len - p - hlen)
        return -1;
    rec->type = type;
    rec->data = s + p + hlen;
    rec->len = size;
    *pos = p + hlen + size;
    return 1;
}

double xlsb_rk(uint32_t rk)
{
    double v;
    if (rk & 2) {
        v = (double)((int32_t)rk >> 2);
    } else {
        uint64_t bits = (uint64_t)(rk & 0xFFFFFFFCu) << 32;
        memcpy(&v, &bits, sizeof v);
    }
    return (rk & 1) ? v / 100 : v;
}

static size_t put_utf8(char *dst, uint32_t cp)
{
    if (cp < 0x80) {
        dst[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        dst[0] = (char)(0xC0 | cp >> 6);
        dst[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        dst[0] = (char)(0xE0 | cp >> 12);
        dst[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        dst[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    dst[0] = (char)(0xF0 | cp >> 18);
    dst[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    dst[2] = (char)(0x80 | (cp >> 6 & 0x3F));
    dst[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t xlsb_utf16_to_utf8(const uint8_t *src, size_t n, char *dst)
{
    size_t out = 0;
    for (size_t i = 0; i < n; i++) {
        /* Most sheet text is ASCII: four units at a time while it lasts
        ** (units below 0x80: every high byte zero, every low byte < 0x80). */
        while (i + 4 <= n) {
            uint64_t x = lt_le64(src + 2 * i);
            if (x & UINT64_C(0xFF80FF80FF80FF80))
                break;
            dst[out] = (char)x;
            dst[out + 1] = (char)(x >> 16);
            dst[out + 2] = (char)(x >> 32);
            dst[out + 3] = (char)(x >> 48);
            out += 4;
            i += 4;
        }
        if (i == n)
            break;
        uint32_t u = lt_le16(src + 2 * i);
        if (u >= 0xD800 && u < 0xDC00 && i + 1 < n) {
            uint32_t lo = lt_le16(src + 2 * i + 2);
            if (lo >= 0xDC00 && lo < 0xE000) {
                /* a pair: 4 bytes for 2 units, within the 3-per-unit room */
                out += put_utf8(dst + out, 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00));
                i++;
                continue;
            }
        }
        if (u >= 0xD800 && u < 0xE000)
            u = 0xFFFD;
        out += put_utf8(dst + out, u);
    }
    return out;
}

bool xlsb_wide_string(const uint8_t *p, size_t len, uint32_t *cch, size_t *used)
{
    if (len < 4)
        return false;
    *cch = lt_le32(p);
    if (*cch == UINT32_MAX)
        return false;
    if (*cch > (len - 4) / 2)
        return false;
    *used = 4 + (size_t)*cch * 2;
    return true;
}
