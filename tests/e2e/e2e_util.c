/*
** e2e_util.c — the client's small helpers: failure tally, growable
** buffers, file names.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

void e2e_fail(e2e_tally *t, const char *what, const char *fmt, ...)
{
    va_list ap;
    printf("FAIL %s: ", what);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    t->failed++;
}

void e2e_pass(e2e_tally *t, const e2e_config *cfg, const char *what)
{
    if (cfg->verbose)
        printf("ok   %s\n", what);
    t->passed++;
}

int e2e_summary(const e2e_tally *t)
{
    printf("%d passed, %d failed\n", t->passed, t->failed);
    fflush(stdout);
    return t->failed == 0 && t->passed > 0 ? 0 : 1;
}

static void buf_reserve(e2e_buf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *p = realloc(b->ptr, cap);
    if (!p) {
        fprintf(stderr, "e2e: out of memory\n");
        exit(2);
    }
    b->ptr = p;
    b->cap = cap;
}

void e2e_buf_add(e2e_buf *b, const void *data, size_t len)
{
    buf_reserve(b, len);
    if (len)
        memcpy(b->ptr + b->len, data, len);
    b->len += len;
    b->ptr[b->len] = '\0';
}

void e2e_buf_adds(e2e_buf *b, const char *s)
{
    e2e_buf_add(b, s, strlen(s));
}

void e2e_buf_printf(e2e_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    buf_reserve(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->ptr + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void e2e_buf_clear(e2e_buf *b)
{
    b->len = 0;
    if (b->ptr)
        b->ptr[0] = '\0';
}

void e2e_buf_free(e2e_buf *b)
{
    free(b->ptr);
    b->ptr = NULL;
    b->len = b->cap = 0;
}

const char *e2e_buf_str(e2e_buf *b)
{
    buf_reserve(b, 0);
    b->ptr[b->len] = '\0';
    return b->ptr;
}

const char *e2e_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

void e2e_stem(const char *path, char *out, size_t cap)
{
    const char *base = e2e_basename(path);
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    if (n >= cap)
        n = cap - 1;
    memcpy(out, base, n);
    out[n] = '\0';
}
