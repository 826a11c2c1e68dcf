/*
** text.c — UTF-16 text to UTF-8.
**
** A database's text encoding is one of UTF-8, UTF-16le and UTF-16be; the
** rest of Lector works in UTF-8, so UTF-16 text is converted once, when a
** value is handed out.  A surrogate without its partner becomes U+FFFD.
*/
#include "sqlite_internal.h"

#include <stdlib.h>
#include <string.h>

static size_t put_utf8(uint32_t cp, char *d)
{
    if (cp < 0x80) {
        d[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        d[0] = (char)(0xc0 | (cp >> 6));
        d[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        d[0] = (char)(0xe0 | (cp >> 12));
        d[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        d[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    d[0] = (char)(0xf0 | (cp >> 18));
    d[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    d[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    d[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

size_t sqlite_utf16_to_utf8(const uint8_t *src, size_t n, bool big_endian,
                            char *dst)
{
    size_t o = 0;
    size_t units = n / 2;
    int hi = big_endian ? 0 : 1, lo = big_endian ? 1 : 0;
    for (size_t i = 0; i < units; i++) {
        uint32_t u = (uint32_t)src[2 * i + hi] << 8 | src[2 * i + lo];
        if (u >= 0xd800 && u < 0xdc00 && i + 1 < units) {
            uint32_t v = (uint32_t)src[2 * i + 2 + hi] << 8 | src[2 * i + 2 + lo];
            if (v >= 0xdc00 && v < 0xe000) {
                o += put_utf8(0x10000 + ((u - 0xd800) << 10) + (v - 0xdc00), dst + o);
                i++;
                continue;
            }
        }
        if (u >= 0xd800 && u < 0xe000)
            u = 0xfffd;
        o += put_utf8(u, dst + o);
    }
    return o;
}

char *sqlite_text_dup(const uint8_t *p, size_t n, uint8_t enc)
{
    if (enc == SQLITE_ENC_UTF8) {
        char *s = malloc(n + 1);
        if (s != NULL) {
            if (n)
                memcpy(s, p, n);
            s[n] = '\0';
        }
        return s;
    }
    char *s = malloc(SQLITE_UTF16_MAX_UTF8(n) + 1);
    if (s == NULL)
        return NULL;
    size_t len = sqlite_utf16_to_utf8(p, n, enc == SQLITE_ENC_UTF16BE, s);
    s[len] = '\0';
    return s;
}
