/*
** wide.h — SQLWCHAR text <-> UTF-8.
**
** SQLWCHAR is 2 bytes (UTF-16) under unixODBC and Windows, and wchar_t
** (4 bytes, UTF-32) under iODBC on Linux.  These functions look at
** sizeof(SQLWCHAR) and never assume a width.
*/
#ifndef LT_WIDE_H
#define LT_WIDE_H

#include <stddef.h>
#include <string.h>

#include "driver.h"

/* Store or load unit `i` of a SQLWCHAR buffer that may be misaligned: a
** column-wise SQL_C_WCHAR array with an odd BufferLength puts every other
** row at an odd address.  memcpy compiles to a plain store or load. */
static inline void lt_wide_store(SQLWCHAR *dst, size_t i, SQLWCHAR u)
{
    memcpy((char *)dst + i * sizeof u, &u, sizeof u);
}

static inline SQLWCHAR lt_wide_load(const SQLWCHAR *src, size_t i)
{
    SQLWCHAR u;
    memcpy(&u, (const char *)src + i * sizeof u, sizeof u);
    return u;
}

/* Characters before the terminating 0 of a SQLWCHAR string. */
size_t lt_wide_len(const SQLWCHAR *w);

/* Malloc'ed NUL-terminated UTF-8 copy of `len` SQLWCHARs (SQL_NTS: up to the
** terminator).  *out_len (if not NULL) gets the byte length.  NULL input
** gives NULL; out of memory gives NULL with *oom set. */
char *lt_wide_to_utf8(const SQLWCHAR *w, SQLLEN len, size_t *out_len,
                      bool *oom);

/* SQLWCHAR units needed for `len` bytes of UTF-8 (no terminator). */
size_t lt_utf8_wide_units(const char *s, size_t len);

/* Convert UTF-8 into `dst` with room for `cap` SQLWCHARs, always
** terminating when cap > 0, never splitting a surrogate pair.  Returns the
** units the whole text needs (without terminator); truncation happened when
** that is >= cap.  *consumed (if not NULL) gets the UTF-8 bytes written. */
size_t lt_utf8_to_wide(const char *s, size_t len, SQLWCHAR *dst, size_t cap,
                       size_t *consumed);

#endif /* LT_WIDE_H */
