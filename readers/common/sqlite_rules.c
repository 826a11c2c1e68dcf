/*
** sqlite_rules.c — SQLite's value rules, shared by the SQLite reader and
** the engine's SQLite dialect (sqlite_rules.h): sqlite3AffinityType's
** rule, REAL as text ("%!.15g") and sqlite3AtoF's grammar.
*/
#include "sqlite_rules.h"
#include "platform.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Four lower-case characters as one rolling-window value. */
#define WORD4(a, b, c, d) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))

uint8_t lt_sqlite_affinity(const char *type, size_t len)
{
    /* sqlite3AffinityType: a rolling window over the last four characters;
    ** INT anywhere wins at once, otherwise the first of CHAR/CLOB/TEXT,
    ** BLOB, REAL/FLOA/DOUB seen decides (a later one cannot override). */
    uint32_t h = 0;
    uint8_t aff = LT_SQLITE_AFF_NUMERIC;
    if (type == NULL || len == 0)
        return LT_SQLITE_AFF_BLOB;
    for (size_t i = 0; i < len; i++) {
        h = (h << 8) + (uint8_t)tolower((unsigned char)type[i]);
        if (h == WORD4('c', 'h', 'a', 'r') || h == WORD4('c', 'l', 'o', 'b') ||
            h == WORD4('t', 'e', 'x', 't')) {
            aff = LT_SQLITE_AFF_TEXT;
        } else if (h == WORD4('b', 'l', 'o', 'b') &&
                   (aff == LT_SQLITE_AFF_NUMERIC || aff == LT_SQLITE_AFF_REAL)) {
            aff = LT_SQLITE_AFF_BLOB;
        } else if ((h == WORD4('r', 'e', 'a', 'l') || h == WORD4('f', 'l', 'o', 'a') ||
                    h == WORD4('d', 'o', 'u', 'b')) &&
                   aff == LT_SQLITE_AFF_NUMERIC) {
            aff = LT_SQLITE_AFF_REAL;
        } else if ((h & 0x00ffffffu) == WORD4(0, 'i', 'n', 't')) {
            return LT_SQLITE_AFF_INTEGER;
        }
    }
    return aff;
}

size_t lt_sqlite_real_text(double r, char *dst, size_t cap)
{
    if (cap < LT_SQLITE_REAL_TEXT_MAX) {
        if (cap)
            dst[0] = '\0';
        return 0;
    }
    if (isnan(r))
        return (size_t)snprintf(dst, cap, "NaN");
    if (isinf(r))
        return (size_t)snprintf(dst, cap, r < 0 ? "-Inf" : "Inf");
    /* at most 22 characters ("-1.23456789012345e-308"), so ".0" fits */
    int n = snprintf(dst, cap, "%.15g", r);
    if (n <= 0)
        return 0;
    for (int i = 0; i < n; i++)
        if (dst[i] == ',')
            dst[i] = '.';   /* whatever LC_NUMERIC says */
    /* "%!.15g": the mantissa always has a fraction part. */
    if (strchr(dst, '.') == NULL) {
        char *e = strchr(dst, 'e');
        size_t at = e ? (size_t)(e - dst) : (size_t)n;
        memmove(dst + at + 2, dst + at, (size_t)n - at + 1);
        dst[at] = '.';
        dst[at + 1] = '0';
        n += 2;
    }
    return (size_t)n;
}

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == '\v';
}

static bool digit(char c)
{
    return c >= '0' && c <= '9';
}

int lt_sqlite_text_number(const char *s, size_t n, int64_t *i, double *r)
{
    /* sqlite3AtoF's grammar: blanks, sign, digits [. digits] [e sign
    ** digits], blanks, nothing else; at least one mantissa digit. */
    char tmp[400];
    while (n > 0 && blank(*s))
        s++, n--;
    while (n > 0 && blank(s[n - 1]))
        n--;
    if (n == 0 || n >= sizeof tmp)
        return 0;   /* (no such literal in practice; stays text) */
    size_t k = 0, digits = 0;
    bool real = false;
    if (s[k] == '+' || s[k] == '-')
        k++;
    while (k < n && digit(s[k]))
        k++, digits++;
    if (k < n && s[k] == '.') {
        real = true;
        k++;
        while (k < n && digit(s[k]))
            k++, digits++;
    }
    if (digits == 0)
        return 0;
    if (k < n && (s[k] == 'e' || s[k] == 'E')) {
        real = true;
        k++;
        if (k < n && (s[k] == '+' || s[k] == '-'))
            k++;
        if (k == n || !digit(s[k]))
            return 0;
        while (k < n && digit(s[k]))
            k++;
    }
    if (k != n)
        return 0;
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    if (!real) {
        /* an integer that fits int64 stays one (sqlite3Atoi64) */
        char *end;
        errno = 0;
        long long v = strtoll(tmp, &end, 10);
        if (errno == 0 && *end == '\0') {
            *i = v;
            return 1;
        }
    }
    *r = lt_strtod(tmp, NULL);
    return 2;
}
