/*
** narrow.c — UTF-8 <-> the ANSI code page, on Windows only (narrow.h).
**
** Both directions go through UTF-16 with the system's own converters, so
** the result is what Windows itself makes of the text.  Characters outside
** the BMP are folded to one '?' before WideCharToMultiByte: left as a
** surrogate pair they would give "??" on some systems and '?' on others.
*/
#ifdef _WIN32
#include <windows.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "narrow.h"

bool lt_narrow_same(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)s[i] >= 0x80)
            return GetACP() == CP_UTF8;
    return true;
}

/* `len` bytes in code page `cp` as malloc'ed UTF-16; *units gets its length. */
static wchar_t *to_utf16(UINT cp, const char *s, size_t len, int *units)
{
    *units = 0;
    if (len > INT_MAX / 2)
        return NULL;
    int n = len ? MultiByteToWideChar(cp, 0, s, (int)len, NULL, 0) : 0;
    if (len && n <= 0)
        return NULL;
    wchar_t *w = malloc(((size_t)n + 1) * sizeof *w);
    if (w == NULL)
        return NULL;
    if (n > 0 && MultiByteToWideChar(cp, 0, s, (int)len, w, n) != n) {
        free(w);
        return NULL;
    }
    *units = n;
    return w;
}

/* `n` UTF-16 units as malloc'ed NUL-terminated text in code page `cp`. */
static char *from_utf16(UINT cp, const wchar_t *w, int n, size_t *out_len)
{
    DWORD flags = cp == CP_UTF8 ? 0 : WC_NO_BEST_FIT_CHARS;
    int bytes = n ? WideCharToMultiByte(cp, flags, w, n, NULL, 0, NULL, NULL) : 0;
    if (n && bytes <= 0)
        return NULL;
    char *s = malloc((size_t)bytes + 1);
    if (s == NULL)
        return NULL;
    if (bytes > 0 && WideCharToMultiByte(cp, flags, w, n, s, bytes, NULL, NULL) != bytes) {
        free(s);
        return NULL;
    }
    s[bytes] = '\0';
    *out_len = (size_t)bytes;
    return s;
}

char *lt_narrow_from_utf8(const char *s, size_t len, size_t *out_len)
{
    int n;
    wchar_t *w = to_utf16(CP_UTF8, s, len, &n);
    if (w == NULL)
        return NULL;
    UINT acp = GetACP();
    if (acp != CP_UTF8) {
        /* A surrogate pair has no ANSI form: one '?' for the character. */
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (w[i] >= 0xD800 && w[i] < 0xDC00 && i + 1 < n &&
                w[i + 1] >= 0xDC00 && w[i + 1] < 0xE000) {
                w[k++] = L'?';
                i++;
            } else {
                w[k++] = w[i];
            }
        }
        n = k;
    }
    char *out = from_utf16(acp, w, n, out_len);
    free(w);
    return out;
}

char *lt_narrow_to_utf8(const char *s, size_t len, size_t *out_len)
{
    int n;
    wchar_t *w = to_utf16(GetACP(), s, len, &n);
    if (w == NULL)
        return NULL;
    char *out = from_utf16(CP_UTF8, w, n, out_len);
    free(w);
    return out;
}

size_t lt_narrow_fit(const char *s, size_t len, size_t room)
{
    if (len <= room)
        return len;
    UINT acp = GetACP();
    size_t i = 0;
    while (i < room) {
        size_t step = 1;
        if (acp == CP_UTF8) {
            unsigned char c = (unsigned char)s[i];
            step = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        } else if (IsDBCSLeadByteEx(acp, (BYTE)s[i])) {
            step = 2;
        }
        if (i + step > room)
            break;
        i += step;
    }
    return i;
}
#else
/* ISO C wants a declaration in every translation unit. */
typedef int lt_narrow_is_identity;
#endif /* _WIN32 */
