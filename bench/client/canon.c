/*
** canon.c — the canonical value stream and its hash (see canon.h).
*/
#define _POSIX_C_SOURCE 200809L
#include "canon.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

enum { TAG_NULL = 1, TAG_INT, TAG_DOUBLE, TAG_TEXT, TAG_BINARY, TAG_DATE,
       TAG_TIME, TAG_TIMESTAMP, TAG_ROW };

static void mix(canon *c, uint64_t w)
{
    uint64_t h = (c->hash ^ w) * 0x9E3779B97F4A7C15ull;
    c->hash = h ^ (h >> 29);
}

static void mix_bytes(canon *c, const unsigned char *p, size_t n)
{
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        mix(c, w);
        p += 8;
        n -= 8;
    }
    if (n > 0) {
        uint64_t w = 0;
        memcpy(&w, p, n);
        mix(c, w);
    }
}

static void show(canon *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void show(canon *c, const char *fmt, ...)
{
    if (c->line_len >= sizeof c->line - 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    size_t room = sizeof c->line - c->line_len;
    int n = vsnprintf(c->line + c->line_len, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        c->line_len += (size_t)n < room ? (size_t)n : room - 1;
}

static void separate(canon *c)
{
    c->values++;
    if (c->show_rows > 0 && c->line_len > 0)
        show(c, "\t");
}

void canon_init(canon *c, long show_rows)
{
    memset(c, 0, sizeof *c);
    c->hash = 0xCBF29CE484222325ull;
    c->show_rows = show_rows;
}

void canon_null(canon *c)
{
    separate(c);
    mix(c, TAG_NULL);
    if (c->show_rows > 0)
        show(c, "NULL");
}

void canon_int(canon *c, int64_t v)
{
    separate(c);
    mix(c, TAG_INT);
    mix(c, (uint64_t)v);
    if (c->show_rows > 0)
        show(c, "%lld", (long long)v);
}

void canon_double(canon *c, double v)
{
    if (fabs(v) < 9007199254740992.0 && v == (double)(int64_t)v) {
        canon_int(c, (int64_t)v);
        return;
    }
    separate(c);
    uint64_t bits;
    if (isnan(v))
        v = NAN;
    memcpy(&bits, &v, 8);
    mix(c, TAG_DOUBLE);
    mix(c, bits);
    if (c->show_rows > 0)
        show(c, "%.17g", v);
}

void canon_text(canon *c, const char *s, size_t n)
{
    while (n > 0 && s[n - 1] == ' ')
        n--;
    separate(c);
    mix(c, TAG_TEXT);
    mix(c, n);
    mix_bytes(c, (const unsigned char *)s, n);
    if (c->show_rows > 0)
        show(c, "%.*s", (int)n, s);
}

void canon_binary(canon *c, const void *p, size_t n)
{
    separate(c);
    mix(c, TAG_BINARY);
    mix(c, n);
    mix_bytes(c, p, n);
    if (c->show_rows > 0) {
        show(c, "0x");
        for (size_t i = 0; i < n && i < 64; i++)
            show(c, "%02x", ((const unsigned char *)p)[i]);
    }
}

void canon_date(canon *c, int y, int m, int d)
{
    separate(c);
    mix(c, TAG_DATE);
    mix(c, (uint64_t)((int64_t)y * 10000 + m * 100 + d));
    if (c->show_rows > 0)
        show(c, "%04d-%02d-%02d", y, m, d);
}

void canon_time(canon *c, int hh, int mm, int ss)
{
    separate(c);
    mix(c, TAG_TIME);
    mix(c, (uint64_t)(hh * 3600 + mm * 60 + ss));
    if (c->show_rows > 0)
        show(c, "%02d:%02d:%02d", hh, mm, ss);
}

void canon_timestamp(canon *c, int y, int m, int d, int hh, int mm, int ss,
                     uint32_t nanos)
{
    separate(c);
    mix(c, TAG_TIMESTAMP);
    mix(c, (uint64_t)((int64_t)y * 10000 + m * 100 + d));
    mix(c, (uint64_t)(hh * 3600 + mm * 60 + ss));
    mix(c, nanos);
    if (c->show_rows > 0)
        show(c, "%04d-%02d-%02d %02d:%02d:%02d.%09u", y, m, d, hh, mm, ss,
             (unsigned)nanos);
}

void canon_end_row(canon *c)
{
    mix(c, TAG_ROW);
    c->rows++;
    if (c->show_rows > 0) {
        printf("%.*s\n", (int)c->line_len, c->line);
        c->line_len = 0;
        c->show_rows--;
    }
}

/* Copy text to a NUL-terminated buffer, blanks trimmed; false if too long. */
static int terminate(const char *s, size_t n, char *out, size_t cap)
{
    while (n > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n == 0 || n >= cap)
        return 0;
    memcpy(out, s, n);
    out[n] = '\0';
    return 1;
}

void canon_number_text(canon *c, const char *s, size_t n)
{
    char buf[80], *end;
    if (!terminate(s, n, buf, sizeof buf)) {
        canon_text(c, s, n);
        return;
    }
    errno = 0;
    long long i = strtoll(buf, &end, 10);
    if (*end == '\0' && errno == 0) {
        canon_int(c, i);
        return;
    }
    errno = 0;
    double d = strtod(buf, &end);
    if (*end == '\0' && errno != ERANGE) {
        canon_double(c, d);
        return;
    }
    canon_text(c, s, n);
}

void canon_date_text(canon *c, const char *s, size_t n)
{
    char buf[40];
    int y, m, d, used = 0;
    if (terminate(s, n, buf, sizeof buf) &&
        sscanf(buf, "%d-%d-%d%n", &y, &m, &d, &used) == 3 && buf[used] == '\0')
        canon_date(c, y, m, d);
    else
        canon_text(c, s, n);
}

void canon_time_text(canon *c, const char *s, size_t n)
{
    char buf[40];
    int hh, mm, ss, used = 0;
    if (terminate(s, n, buf, sizeof buf) &&
        sscanf(buf, "%d:%d:%d%n", &hh, &mm, &ss, &used) == 3 && buf[used] == '\0')
        canon_time(c, hh, mm, ss);
    else
        canon_text(c, s, n);
}

void canon_timestamp_text(canon *c, const char *s, size_t n)
{
    char buf[48];
    int y, m, d, hh = 0, mm = 0, ss = 0, used = 0;
    if (!terminate(s, n, buf, sizeof buf)) {
        canon_text(c, s, n);
        return;
    }
    int got = sscanf(buf, "%d-%d-%d%n %d:%d:%d%n", &y, &m, &d, &used, &hh, &mm,
                     &ss, &used);
    if (got != 3 && got != 6) {
        canon_text(c, s, n);
        return;
    }
    uint32_t nanos = 0;
    const char *p = buf + used;
    if (*p == '.') {
        uint32_t scale = 100000000;
        for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10)
            nanos += (uint32_t)(*p - '0') * scale;
    }
    if (*p != '\0') {
        canon_text(c, s, n);
        return;
    }
    canon_timestamp(c, y, m, d, hh, mm, ss, nanos);
}

/* VmHWM is the high-water mark of this program's own address space.
** getrusage's ru_maxrss is not: Linux carries the forking parent's RSS over
** exec, so a client started by a 16 MB Python would never read below 16 MB. */
static long status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    long kb = -1;
    if (f == NULL)
        return -1;
    char line[256];
    size_t n = strlen(key);
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, key, n) == 0 && line[n] == ':') {
            kb = atol(line + n + 1);
            break;
        }
    fclose(f);
    return kb;
}

long canon_max_rss_kb(void)
{
    long kb = status_kb("VmHWM");
    if (kb >= 0)
        return kb;
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
}

void canon_rss_now(long *anon_kb, long *file_kb)
{
    *anon_kb = status_kb("RssAnon");
    *file_kb = status_kb("RssFile");
}

double canon_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
