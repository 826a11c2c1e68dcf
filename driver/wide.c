/*
** wide.c — SQLWCHAR text <-> UTF-8, whatever the width of SQLWCHAR.
**
** The same source builds against unixODBC (2-byte SQLWCHAR: UTF-16) and
** iODBC (wchar_t, 4 bytes on Linux: UTF-32).  The width is tested with
** sizeof(SQLWCHAR), a constant the compiler folds, so each build keeps only
** its own branch and there is no #ifdef on the driver manager.
**
** Ill-formed input never fails a conversion: a lone surrogate, a code unit
** beyond U+10FFFF and each maximal ill-formed UTF-8 subpart (the Unicode
** standard's "best practice", also WHATWG's) become U+FFFD.
*/
#include <stdint.h>
#include <stdlib.h>

#include "wide.h"

#define REPLACEMENT 0xFFFDu

/* True when one SQLWCHAR holds one UTF-16 code unit. */
#define WIDE_IS_UTF16 (sizeof(SQLWCHAR) == 2)

/* A code unit as an unsigned number: wchar_t is signed on Linux, and a
** negative unit must come out invalid (large), not small. */
static uint32_t wide_unit(SQLWCHAR w)
{
    return WIDE_IS_UTF16 ? (uint32_t)(uint16_t)w : (uint32_t)w;
}

/* Decode the code point at w[*i] (i < len), advancing *i.  A surrogate pair
** combines in either width (a forgiving reading of UTF-32 input that some
** applications produce from UTF-16); any other surrogate is invalid. */
static uint32_t wide_next(const SQLWCHAR *w, size_t len, size_t *i)
{
    uint32_t u = wide_unit(lt_wide_load(w, (*i)++));
    if (u >= 0xD800 && u <= 0xDBFF && *i < len) {
        uint32_t v = wide_unit(lt_wide_load(w, *i));
        if (v >= 0xDC00 && v <= 0xDFFF) {
            (*i)++;
            return 0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00);
        }
    }
    if ((u >= 0xD800 && u <= 0xDFFF) || u > 0x10FFFF)
        return REPLACEMENT;
    return u;
}

/* Decode the code point at s[*i] (i < len), advancing *i past it, or past
** the maximal ill-formed subpart that yields U+FFFD. */
static uint32_t utf8_next(const unsigned char *s, size_t len, size_t *i)
{
    unsigned char c = s[*i];
    unsigned char lo = 0x80, hi = 0xBF;  /* valid range of the 2nd byte */
    size_t more;
    uint32_t cp;

    if (c < 0x80) {
        (*i)++;
        return c;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        more = 1;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        more = 2;
        cp = c & 0x0F;
        if (c == 0xE0)
            lo = 0xA0;                   /* no overlong forms */
        else if (c == 0xED)
            hi = 0x9F;                   /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        more = 3;
        cp = c & 0x07;
        if (c == 0xF0)
            lo = 0x90;                   /* no overlong forms */
        else if (c == 0xF4)
            hi = 0x8F;                   /* nothing past U+10FFFF */
    } else {
        (*i)++;                          /* stray continuation, C0, C1, F5.. */
        return REPLACEMENT;
    }
    size_t j = *i + 1;
    for (; more > 0; more--, j++) {
        if (j >= len || s[j] < lo || s[j] > hi) {
            *i = j;                      /* resume at the offending byte */
            return REPLACEMENT;
        }
        cp = (cp << 6) | (s[j] & 0x3F);
        lo = 0x80;
        hi = 0xBF;
    }
    *i = j;
    return cp;
}

/* SQLWCHARs that code point `cp` takes. */
static size_t wide_units(uint32_t cp)
{
    return WIDE_IS_UTF16 && cp >= 0x10000 ? 2 : 1;
}

static void wide_put(SQLWCHAR *dst, uint32_t cp)
{
    if (WIDE_IS_UTF16 && cp >= 0x10000) {
        cp -= 0x10000;
        lt_wide_store(dst, 0, (SQLWCHAR)(0xD800 + (cp >> 10)));
        lt_wide_store(dst, 1, (SQLWCHAR)(0xDC00 + (cp & 0x3FF)));
    } else {
        lt_wide_store(dst, 0, (SQLWCHAR)cp);
    }
}

/* Encode `cp` as UTF-8 at `dst`; returns the bytes written (1..4). */
static size_t utf8_put(char *dst, uint32_t cp)
{
    unsigned char *d = (unsigned char *)dst;
    if (cp < 0x80) {
        d[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        d[0] = (unsigned char)(0xC0 | (cp >> 6));
        d[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        d[0] = (unsigned char)(0xE0 | (cp >> 12));
        d[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        d[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    d[0] = (unsigned char)(0xF0 | (cp >> 18));
    d[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    d[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    d[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t lt_wide_len(const SQLWCHAR *w)
{
    size_t n = 0;
    if (w)
        while (lt_wide_load(w, n) != 0)
            n++;
    return n;
}

char *lt_wide_to_utf8(const SQLWCHAR *w, SQLLEN len, size_t *out_len,
                      bool *oom)
{
    /* Worst case per unit: a BMP character or a lone surrogate (U+FFFD)
    ** in UTF-16 takes 3 bytes, a pair 4 for 2 units; a UTF-32 unit up to 4. */
    const size_t per_unit = WIDE_IS_UTF16 ? 3 : 4;
    size_t n, i = 0, o = 0;
    char *s;

    if (oom)
        *oom = false;
    if (out_len)
        *out_len = 0;
    if (!w)
        return NULL;
    n = len == SQL_NTS ? lt_wide_len(w) : len > 0 ? (size_t)len : 0;
    if (n > (SIZE_MAX - 1) / per_unit || !(s = malloc(n * per_unit + 1))) {
        if (oom)
            *oom = true;
        return NULL;
    }
    while (i < n)
        o += utf8_put(s + o, wide_next(w, n, &i));
    s[o] = '\0';
    if (out_len)
        *out_len = o;
    return s;
}

size_t lt_utf8_wide_units(const char *s, size_t len)
{
    return lt_utf8_to_wide(s, len, NULL, 0, NULL);
}

size_t lt_utf8_to_wide(const char *s, size_t len, SQLWCHAR *dst, size_t cap,
                       size_t *consumed)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t room = dst && cap > 0 ? cap - 1 : 0; /* units before the NUL */
    size_t out = 0;                  /* units written to dst */
    size_t done = 0;                 /* bytes of s whose units are in dst */
    size_t need, i = 0;

    /* ASCII, the common case: one unit per byte while it fits. */
    while (out < room && i < len && u[i] < 0x80)
        lt_wide_store(dst, out++, (SQLWCHAR)u[i++]);
    done = i;
    need = out;
    while (i < len) {
        uint32_t cp = u[i] < 0x80 ? u[i++] : utf8_next(u, len, &i);
        size_t n = wide_units(cp);
        /* Once something did not fit, write nothing more: dst holds a
        ** prefix, and a pair is never split. */
        if (need == out && out + n <= room) {
            wide_put(dst + out, cp);
            out += n;
            done = i;
        }
        need += n;
    }
    if (dst && cap > 0)
        lt_wide_store(dst, out, 0);
    if (consumed)
        *consumed = done;
    return need;
}
