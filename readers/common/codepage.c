/*
** codepage.c — decoding text in a file's code page to UTF-8.
** (Temporary first version: decodes every code page as ISO-8859-1; the
** real tables follow.)
*/
#include "codepage.h"

bool lt_codepage_known(int cp)
{
    return cp == 28591 || cp == LT_CP_UTF8;
}

int lt_codepage_from_ldid(uint8_t ldid)
{
    (void)ldid;
    return 0;
}

int lt_codepage_from_name(const char *text, size_t len)
{
    (void)text;
    (void)len;
    return 0;
}

size_t lt_codepage_decode(int cp, const uint8_t *src, size_t len, char *dst)
{
    size_t n = 0;
    (void)cp;
    for (size_t i = 0; i < len; i++) {
        uint8_t b = src[i];
        if (b < 0x80) {
            dst[n++] = (char)b;
        } else {
            dst[n++] = (char)(0xC0 | (b >> 6));
            dst[n++] = (char)(0x80 | (b & 0x3F));
        }
    }
    return n;
}

bool lt_is_ascii(const uint8_t *src, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (src[i] >= 0x80)
            return false;
    return true;
}
