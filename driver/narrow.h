/*
** narrow.h — the application's narrow (SQLCHAR) character set.
**
** The driver works in UTF-8.  Under unixODBC and iODBC the narrow character
** set of an application is UTF-8 too, so on Linux every function here is the
** identity and costs nothing.  On Windows an ANSI application and all
** SQL_C_CHAR data use the ANSI code page (GetACP(), e.g. 1252): text the
** driver hands out is converted from UTF-8 to it, and text it receives
** through the ANSI entry points is converted to UTF-8
** (packaging/windows/ansi.c).  A character the code page lacks becomes one
** '?' (WC_NO_BEST_FIT_CHARS: no silent look-alike such as 'a' for U+0101;
** one '?' per character, also for those outside the BMP).
*/
#ifndef LT_NARROW_H
#define LT_NARROW_H

#include <stdbool.h>
#include <stddef.h>

#include "driver.h"

#ifdef _WIN32
/* True when `len` bytes of UTF-8 read the same in the narrow set: all
** ASCII, or the ANSI code page is UTF-8 (65001). */
bool lt_narrow_same(const char *s, size_t len);
/* Malloc'ed NUL-terminated narrow form of `len` bytes of UTF-8; *out_len
** gets its byte length.  NULL when out of memory. */
char *lt_narrow_from_utf8(const char *s, size_t len, size_t *out_len);
/* Malloc'ed NUL-terminated UTF-8 form of `len` narrow bytes. */
char *lt_narrow_to_utf8(const char *s, size_t len, size_t *out_len);
/* Bytes of narrow text `s` (`len` bytes) that fit in `room` bytes without
** cutting a double-byte character of the code page in two. */
size_t lt_narrow_fit(const char *s, size_t len, size_t room);
#else
static inline bool lt_narrow_same(const char *s, size_t len)
{
    (void)s;
    (void)len;
    return true;
}
#endif

/* Which values of these calls are character strings (unicode.c, which
** converts the same ones for the W calls); the ANSI code page wrappers
** convert only those. */
bool lt_info_is_string(SQLUSMALLINT type);
bool lt_col_attr_is_string(SQLUSMALLINT field);
bool lt_diag_field_is_string(SQLSMALLINT field);
bool lt_connect_attr_is_string(SQLINTEGER attr);
bool lt_desc_field_is_string(SQLSMALLINT field);

#endif /* LT_NARROW_H */
