/*
** msvcrt_compat.h — the few POSIX/C11 calls Lector's sources use that the
** Windows C runtime mingw-w64 links by default (msvcrt.dll) lacks.
**
** The Windows build force-includes it into every file (-include), so the
** shared sources keep calling the standard names.  Each shim is static
** inline under an lt_win_ name, so a runtime that does have the function
** (UCRT) is not redefined.
*/
#ifndef LT_MSVCRT_COMPAT_H
#define LT_MSVCRT_COMPAT_H

#include <stdlib.h>
#include <string.h>
#include <sys/timeb.h>
#include <time.h>

/* strndup: POSIX 2008, not in any Windows runtime. */
static inline char *lt_win_strndup(const char *s, size_t n)
{
    size_t len = 0;
    while (len < n && s[len] != '\0')
        len++;
    char *p = malloc(len + 1);
    if (p != NULL) {
        memcpy(p, s, len);
        p[len] = '\0';
    }
    return p;
}
#define strndup lt_win_strndup

#ifndef _UCRT
#ifndef TIME_UTC
#define TIME_UTC 1
#endif
/* timespec_get (C11) is UCRT-only; msvcrt's _ftime64_s gives milliseconds. */
static inline int lt_win_timespec_get(struct timespec *ts, int base)
{
    struct __timeb64 tb;
    if (base != TIME_UTC || _ftime64_s(&tb) != 0)
        return 0;
    ts->tv_sec = (time_t)tb.time;
    ts->tv_nsec = (long)tb.millitm * 1000000L;
    return base;
}
#define timespec_get lt_win_timespec_get
#endif

#endif /* LT_MSVCRT_COMPAT_H */
