/*
** convert.c — logical values to the application's C types and back.
**
** The rules are those of the ODBC reference, appendix D, "Converting Data
** from SQL to C Data Types" and "from C to SQL Data Types"; docs/odbc-types.md
** lists what each logical type converts to.  Everything happens in stack
** buffers: a value's character form is at most a few dozen bytes, and text
** and binary are copied straight from the batch into the application's
** buffer, piece by piece for SQLGetData.
**
** Numbers pass through one intermediate, `num`: an exact decimal (128-bit
** mantissa and a power of ten) or a double.  Exact sources (integers,
** decimals, numeric text) stay exact up to 38 digits, so fractional
** truncation (01S07) and range (22003) are decided without rounding errors.
**
** Character forms are locale-independent: a host application's LC_NUMERIC
** never turns "1.5" into "1,5" (numbers are written by readers/common/
** numfmt.c, the shortest text that reads back; parsing uses lt_strtod).
*/
#include "convert.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../readers/common/datetime.h"
#include "../readers/common/numfmt.h"
#include "../readers/common/platform.h"
#include "narrow.h"
#include "types.h"
#include "wide.h"

#define ST_TRUNCATED "01004"
#define ST_FRACTION "01S07"
#define ST_RANGE "22003"
#define ST_CHAR_VALUE "22018"
#define ST_DATETIME "22007"
#define ST_DATETIME_OVERFLOW "22008"
#define ST_RESTRICTED "07006"
#define ST_NO_INDICATOR "22002"
#define ST_RIGHT_TRUNC "22001"

typedef unsigned __int128 lt_uint128;

/* ------------------------------------------------------------------------ */
/* Small helpers                                                             */
/* ------------------------------------------------------------------------ */

static SQLRETURN fail(const char **sqlstate, const char *state)
{
    *sqlstate = state;
    return SQL_ERROR;
}

static SQLRETURN warn(const char **sqlstate, const char *state)
{
    *sqlstate = state;
    return SQL_SUCCESS_WITH_INFO;
}

static lt_int128 pow10_128(int k)
{
    lt_int128 r = 1;
    while (k-- > 0)
        r *= 10;
    return r;
}

static const double pow10_exact[23] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* 10^38 - 1: the largest mantissa of a DECIMAL(38). */
static lt_int128 dec_max(void)
{
    return pow10_128(38) - 1;
}

/* ------------------------------------------------------------------------ */
/* Parsing text: numbers, datetimes, GUIDs                                   */
/* ------------------------------------------------------------------------ */

typedef struct num {
    bool is_double;
    double d;
    lt_int128 mant;    /* value = mant / 10^scale (scale may be negative) */
    int scale;
    bool lost;         /* nonzero fractional digits past 38 digits dropped */
} num;

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
           c == '\v';
}

static void trim(const char **s, size_t *len)
{
    while (*len > 0 && is_space(**s))
        (*s)++, (*len)--;
    while (*len > 0 && is_space((*s)[*len - 1]))
        (*len)--;
}

/* A numeric literal: [+-] digits [. digits] [e [+-] digits], blanks around
** ignored.  Kept exact: up to 38 significant digits, the rest only noted. */
static bool parse_num(const char *s, size_t len, num *out)
{
    trim(&s, &len);
    memset(out, 0, sizeof *out);
    size_t i = 0;
    bool neg = false;
    if (i < len && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    int sig = 0, scale = 0;
    bool any = false;
    lt_int128 m = 0;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
        any = true;
        if (sig == 0 && s[i] == '0')
            continue;
        if (sig < 38) {
            m = m * 10 + (s[i] - '0');
            sig++;
        } else {
            scale--; /* a dropped integer digit: the value is huge anyway */
            out->lost |= s[i] != '0';
        }
    }
    if (i < len && s[i] == '.') {
        for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
            any = true;
            if (sig == 0 && s[i] == '0') {
                scale++;
                continue;
            }
            if (sig < 38) {
                m = m * 10 + (s[i] - '0');
                sig++;
                scale++;
            } else {
                out->lost |= s[i] != '0';
            }
        }
    }
    if (!any)
        return false;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < len && (s[i] == '+' || s[i] == '-'))
            eneg = s[i++] == '-';
        if (i >= len || s[i] < '0' || s[i] > '9')
            return false;
        long e = 0;
        for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
            if (e < 100000)
                e = e * 10 + (s[i] - '0');
        scale += (int)(eneg ? e : -e);
    }
    if (i != len)
        return false;
    out->mant = neg ? -m : m;
    out->scale = m == 0 ? 0 : scale;
    return true;
}

static double num_double(const num *n)
{
    if (n->is_double)
        return n->d;
    if (n->mant == 0)
        return 0.0;
    lt_int128 a = n->mant < 0 ? -n->mant : n->mant;
    if (a < ((lt_int128)1 << 53) && n->scale >= 0 && n->scale <= 22)
        return (double)n->mant / pow10_exact[n->scale];   /* correctly rounded */
    if (a < ((lt_int128)1 << 53) && n->scale < 0 && n->scale >= -22 &&
        (double)a * pow10_exact[-n->scale] < 9007199254740992.0)
        return (double)n->mant * pow10_exact[-n->scale];  /* exact */
    char buf[64];
    size_t k = lt_format_decimal(n->mant, 0, buf);
    snprintf(buf + k, sizeof buf - k, "e%d", -n->scale);
    return lt_strtod(buf, NULL);
}

/* The integer part of `n` into *out if it lies in [lo, hi].  Returns 0,
** 1 when fractional digits were cut, -1 when out of range. */
static int num_int(const num *n, lt_int128 lo, lt_int128 hi, lt_int128 *out)
{
    if (n->is_double) {
        double d = n->d;
        if (isnan(d))
            return -1;
        double t = trunc(d);
        if (!(t >= (double)lo && t < (double)hi + 1.0))
            return -1;
        *out = (lt_int128)t;
        if (*out > hi) /* (double)hi + 1 rounded up to hi + 1 exactly */
            return -1;
        return t != d;
    }
    lt_int128 v = n->mant;
    bool frac = n->lost;
    if (n->scale < 0) {
        for (int k = n->scale; k < 0 && v != 0; k++) {
            if (v > dec_max() / 10 || v < -dec_max() / 10)
                return -1;
            v *= 10;
        }
    } else if (n->scale > 0) {
        if (n->scale > 38) {
            frac |= v != 0;
            v = 0;
        } else {
            lt_int128 p = pow10_128(n->scale);
            frac |= v % p != 0;
            v /= p;
        }
    }
    if (v < lo || v > hi)
        return -1;
    *out = v;
    return frac;
}

/* A BIT from a number: 0 and 1 as they are, (0, 2) cut to 0 or 1 (1),
** anything negative or from 2 up out of range (-1). */
static int num_bit(const num *n, lt_int128 *out)
{
    if (n->is_double ? n->d < 0 : n->mant < 0)
        return -1;
    return num_int(n, 0, 1, out);
}

/* Rescale an exact `n` to `scale` digits: 0, 1 when fractional digits were
** cut, -1 when the mantissa leaves 38 digits. */
static int num_rescale(const num *n, int scale, lt_int128 *out)
{
    lt_int128 v = n->mant;
    bool frac = n->lost;
    int diff = scale - n->scale;
    if (diff > 0) {
        for (; diff > 0 && v != 0; diff--) {
            if (v > dec_max() / 10 || v < -dec_max() / 10)
                return -1;
            v *= 10;
        }
    } else if (diff < 0) {
        if (-diff > 38) {
            frac |= v != 0;
            v = 0;
        } else {
            lt_int128 p = pow10_128(-diff);
            frac |= v % p != 0;
            v /= p;
        }
    }
    if (v > dec_max() || v < -dec_max())
        return -1;
    *out = v;
    return frac;
}

/* An exact form of a double: its shortest decimal text, parsed. */
static bool num_exact(num *n)
{
    if (!n->is_double)
        return true;
    if (!isfinite(n->d))
        return false;
    char buf[48];
    lt_format_double(n->d, buf);
    return parse_num(buf, strlen(buf), n);
}

/* A datetime literal, plain or as an ODBC escape ({d '...'}, {t '...'},
** {ts '...'}).  Fields as found; validity checked by the caller's wish. */
typedef struct dt_parts {
    bool has_date, has_time;
    int year, month, day, hour, minute, second;
    int32_t nanos;
    bool frac_cut;      /* digits past nanoseconds were dropped */
} dt_parts;

static bool digits(const char *s, size_t len, size_t *i, int min, int max,
                   int *out)
{
    int n = 0, v = 0;
    while (*i < len && s[*i] >= '0' && s[*i] <= '9' && n < max) {
        v = v * 10 + (s[*i] - '0');
        (*i)++;
        n++;
    }
    *out = v;
    return n >= min;
}

static bool parse_time_part(const char *s, size_t len, size_t *i, dt_parts *p)
{
    if (!digits(s, len, i, 1, 2, &p->hour) || *i >= len || s[*i] != ':')
        return false;
    (*i)++;
    if (!digits(s, len, i, 2, 2, &p->minute))
        return false;
    p->second = 0;
    if (*i < len && s[*i] == ':') {
        (*i)++;
        if (!digits(s, len, i, 2, 2, &p->second))
            return false;
        if (*i < len && s[*i] == '.') {
            (*i)++;
            int32_t ns = 0;
            int n = 0;
            while (*i < len && s[*i] >= '0' && s[*i] <= '9') {
                if (n < 9) {
                    ns = ns * 10 + (s[*i] - '0');
                    n++;
                } else {
                    p->frac_cut |= s[*i] != '0';
                }
                (*i)++;
            }
            while (n++ < 9)
                ns *= 10;
            p->nanos = ns;
        }
    }
    p->has_time = true;
    return p->hour <= 23 && p->minute <= 59 && p->second <= 59;
}

static bool parse_datetime(const char *s, size_t len, dt_parts *p)
{
    memset(p, 0, sizeof *p);
    trim(&s, &len);
    /* {d '...'} {t '...'} {ts '...'} */
    if (len >= 2 && s[0] == '{' && s[len - 1] == '}') {
        size_t i = 1;
        while (i < len && s[i] == ' ')
            i++;
        while (i < len && ((s[i] | 0x20) == 'd' || (s[i] | 0x20) == 't' ||
                           (s[i] | 0x20) == 's'))
            i++;
        while (i < len && s[i] == ' ')
            i++;
        size_t e = len - 1;
        while (e > i && s[e - 1] == ' ')
            e--;
        if (e - i < 2 || s[i] != '\'' || s[e - 1] != '\'')
            return false;
        s += i + 1;
        len = e - i - 2;
    }
    size_t i = 0;
    /* a time alone: HH:MM[:SS[.f]] */
    size_t colon = 0;
    while (colon < len && s[colon] >= '0' && s[colon] <= '9')
        colon++;
    if (colon < len && colon <= 2 && s[colon] == ':')
        return parse_time_part(s, len, &i, p) && i == len;
    bool neg = i < len && s[i] == '-';
    if (neg)
        i++;
    if (!digits(s, len, &i, 1, 6, &p->year) || i >= len || s[i] != '-')
        return false;
    if (neg)
        p->year = -p->year;
    i++;
    if (!digits(s, len, &i, 1, 2, &p->month) || i >= len || s[i] != '-')
        return false;
    i++;
    if (!digits(s, len, &i, 1, 2, &p->day))
        return false;
    p->has_date = true;
    if (!lt_date_valid(p->year, p->month, p->day))
        return false;
    if (i == len)
        return true;
    if (s[i] != ' ' && s[i] != 'T')
        return false;
    while (i < len && (s[i] == ' ' || s[i] == 'T'))
        i++;
    return parse_time_part(s, len, &i, p) && i == len;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = (char)(c | 0x20);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static bool parse_guid(const char *s, size_t len, lt_guid *g)
{
    trim(&s, &len);
    if (len == 38 && s[0] == '{' && s[37] == '}')
        s++, len -= 2;
    if (len != 36)
        return false;
    uint8_t b[16];
    size_t k = 0;
    for (size_t i = 0; i < 36;) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (s[i++] != '-')
                return false;
            continue;
        }
        int hi = hexval(s[i]), lo = hexval(s[i + 1]);
        if (hi < 0 || lo < 0)
            return false;
        b[k++] = (uint8_t)(hi << 4 | lo);
        i += 2;
    }
    g->data1 = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
               (uint32_t)b[2] << 8 | b[3];
    g->data2 = (uint16_t)(b[4] << 8 | b[5]);
    g->data3 = (uint16_t)(b[6] << 8 | b[7]);
    memcpy(g->data4, b + 8, 8);
    return true;
}

/* Today's date (local time), for a time converted to a timestamp. */
static int32_t today(void)
{
    time_t now = time(NULL);
    struct tm tm;
#ifdef _WIN32
    if (localtime_s(&tm, &now) != 0)
        return (int32_t)(now / 86400);
#else
    if (localtime_r(&now, &tm) == NULL)
        return (int32_t)(now / 86400);
#endif
    return lt_days_from_civil(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
}

/* ------------------------------------------------------------------------ */
/* Writing into the application's buffer                                     */
/* ------------------------------------------------------------------------ */

static void set_ind(const lt_target *t, SQLLEN v)
{
    if (t->len_or_ind != NULL)
        *t->len_or_ind = v;
}

/* What went to t->ptr was the whole value: `bytes` long in the buffer,
** `n` bytes in its own (UTF-8) form. */
static SQLRETURN put_whole(const lt_target *t, size_t bytes, size_t n, SQLLEN *offset)
{
    set_ind(t, (SQLLEN)bytes);
    *offset = (SQLLEN)n;
    return SQL_SUCCESS;
}

/* A fixed-size C value; BufferLength does not apply (appendix D, [a]). */
static SQLRETURN put_fixed(const lt_target *t, const void *v, size_t size,
                           SQLLEN *offset)
{
    if (t->ptr != NULL)
        memcpy(t->ptr, v, size);
    set_ind(t, (SQLLEN)size);
    *offset = (SQLLEN)size;
    return SQL_SUCCESS;
}

/* Character data as SQL_C_CHAR from *offset.  `min_len` bytes must fit
** (the whole digits of a number, "YYYY-MM-DD" of a date ...) or the value
** cannot be cut and the result is 22003. */
static SQLRETURN put_char(const char *s, size_t len, size_t min_len,
                          const lt_target *t, SQLLEN *offset,
                          const char **sqlstate)
{
    size_t off = (size_t)*offset;
    if (off > len)
        off = len;
    size_t rest = len - off;
    if (off == 0 && min_len > 0 && t->ptr != NULL &&
        (t->buflen < 0 || (size_t)t->buflen <= min_len))
        return fail(sqlstate, ST_RANGE);
    set_ind(t, (SQLLEN)rest);
    if (t->ptr == NULL || t->buflen <= 0)
        return rest > 0 || t->ptr != NULL ? warn(sqlstate, ST_TRUNCATED)
                                          : SQL_SUCCESS;
    char *dst = t->ptr;
    size_t room = (size_t)t->buflen - 1;
    if (rest <= room) {
        memcpy(dst, s + off, rest);
        dst[rest] = '\0';
        *offset = (SQLLEN)len;
        return SQL_SUCCESS;
    }
    /* Fill the buffer, even inside a UTF-8 sequence: the application joins
    ** the pieces' bytes, and pyodbc counts on full pieces. */
    size_t n = room;
    memcpy(dst, s + off, n);
    dst[n] = '\0';
    *offset = (SQLLEN)(off + n);
    return warn(sqlstate, ST_TRUNCATED);
}

#ifdef _WIN32
/* Bytes of the first `n` characters of UTF-8 `s` (`len` bytes). */
static size_t utf8_chars_span(const char *s, size_t len, size_t n)
{
    size_t i = 0;
    while (i < len && n-- > 0)
        do
            i++;
        while (i < len && ((unsigned char)s[i] & 0xC0) == 0x80);
    return i;
}

/* put_char for text that is not the same in the ANSI code page (Windows).
** piece->offset counts the UTF-8 bytes of `s` already converted and, once
** known, piece->wide_left holds 1 + the code page bytes still to come, so a
** piece converts only what it returns.  Every character becomes one code
** page character (one or two bytes; '?' when it has none).  Pieces fill the
** buffer as put_char's do: a double-byte character that straddles its end
** is split, the second byte owed to the next piece (piece->low_surrogate). */
static SQLRETURN put_narrow(const char *s, size_t len, const lt_target *t,
                            lt_piece *piece, const char **sqlstate)
{
    size_t pos = (size_t)piece->offset < len ? (size_t)piece->offset : len;
    size_t owed = piece->low_surrogate != 0;
    size_t total, n;
    char *a;
    if (piece->wide_left > 0) {
        total = (size_t)piece->wide_left - 1;
    } else {
        if ((a = lt_narrow_from_utf8(s + pos, len - pos, &total)) == NULL)
            return fail(sqlstate, "HY001");
        free(a);
        total += owed;
    }
    set_ind(t, (SQLLEN)total);
    if (t->ptr == NULL || t->buflen <= 0)
        return total > 0 || t->ptr != NULL ? warn(sqlstate, ST_TRUNCATED) : SQL_SUCCESS;
    char *dst = t->ptr;
    size_t room = (size_t)t->buflen - 1, out = 0;
    if (owed && room > 0) {
        dst[out++] = (char)piece->low_surrogate;
        piece->low_surrogate = 0;
    }
    size_t span = total <= room ? len - pos : utf8_chars_span(s + pos, len - pos, room - out);
    if ((a = lt_narrow_from_utf8(s + pos, span, &n)) == NULL)
        return fail(sqlstate, "HY001");
    size_t take = lt_narrow_fit(a, n, room - out);
    memcpy(dst + out, a, take);
    /* The characters that went whole: one per character of the source. */
    size_t chars = 0;
    for (size_t k = 0; k < take; chars++)
        k += lt_narrow_fit(a + k, take - k, 1) == 1 ? 1 : 2;
    if (take < n && out + take < room) {
        /* One byte of room and a double-byte character: split it. */
        dst[out + take] = a[take];
        piece->low_surrogate = (SQLWCHAR)(unsigned char)a[take + 1];
        take++;
        chars++;
    }
    free(a);
    out += take;
    dst[out] = '\0';
    piece->offset = (SQLLEN)(pos + utf8_chars_span(s + pos, len - pos, chars));
    if (out >= total) {
        piece->offset = (SQLLEN)len;
        return SQL_SUCCESS;
    }
    piece->wide_left = (SQLLEN)(total - out + 1);
    return warn(sqlstate, ST_TRUNCATED);
}
#endif

/* Bytes of `s` enough to fill `units` SQLWCHARs (a unit takes at most 4
** bytes), ending on a character boundary so no sequence is cut. */
static size_t utf8_span_for_units(const char *s, size_t len, size_t units)
{
    if (units >= len / 4 || units * 4 + 4 >= len)
        return len;
    size_t take = units * 4 + 4;
    while (take > 0 && ((unsigned char)s[take] & 0xC0) == 0x80)
        take--;
    return take;
}

/* Character data as SQL_C_WCHAR; lengths returned count bytes of the wide
** form.  piece->offset counts the UTF-8 bytes of `s` already returned, and
** once known piece->wide_left holds 1 + the units still to come, so each
** piece costs only its own length, not a rescan of the rest.  A truncated
** piece fills the buffer: a surrogate pair that straddles its end is split,
** the low half owed to the next piece. */
static SQLRETURN put_wchar(const char *s, size_t len, size_t min_chars,
                           const lt_target *t, lt_piece *piece,
                           const char **sqlstate)
{
    const size_t w = sizeof(SQLWCHAR);
    size_t pos = (size_t)piece->offset < len ? (size_t)piece->offset : len;
    size_t owed = piece->low_surrogate != 0;
    size_t cap = t->buflen > 0 ? (size_t)t->buflen / w : 0;
    SQLWCHAR *dst = t->ptr != NULL && cap > 0 ? t->ptr : NULL;
    size_t room = dst ? cap - 1 : 0;        /* units before the terminator */
    if (pos == 0 && !owed && min_chars > 0 && t->ptr != NULL && cap <= min_chars)
        return fail(sqlstate, ST_RANGE);

    /* The common case first: a whole ASCII value that fits, one unit per
    ** byte; anything else starts over on the general path below. */
    if (pos == 0 && !owed && dst != NULL && len <= room) {
        size_t i = 0;
        while (i < len && (unsigned char)s[i] < 0x80) {
            lt_wide_store(dst, i, (SQLWCHAR)(unsigned char)s[i]);
            i++;
        }
        if (i == len) {
            lt_wide_store(dst, len, 0);
            set_ind(t, (SQLLEN)(len * w));
            piece->offset = (SQLLEN)len;
            return SQL_SUCCESS;
        }
    }

    size_t out = 0, used = 0, rest;
    if (dst && owed && room > 0)
        lt_wide_store(dst, out++, piece->low_surrogate);
    if (piece->wide_left > 0 && dst) {
        size_t take = utf8_span_for_units(s + pos, len - pos, room - out);
        lt_utf8_to_wide(s + pos, take, dst + out, room - out + 1, &used);
        rest = (size_t)piece->wide_left - 1 - owed;
    } else {
        rest = lt_utf8_to_wide(s + pos, len - pos, dst ? dst + out : NULL,
                               dst ? room - out + 1 : 0, &used);
    }
    size_t need = owed + rest;
    set_ind(t, (SQLLEN)(need * w));
    if (dst == NULL)
        return need == 0 && t->ptr == NULL ? SQL_SUCCESS : warn(sqlstate, ST_TRUNCATED);
    if (need <= room) {
        piece->offset = (SQLLEN)len;
        piece->low_surrogate = 0;
        return SQL_SUCCESS;
    }
    out += lt_utf8_wide_units(s + pos, used);
    piece->low_surrogate = 0;
    if (out < room && pos + used < len) {
        /* One unit of room left and the next character is a pair. */
        SQLWCHAR pair[3];
        size_t span = len - pos - used < 4 ? len - pos - used : 4, c = 0;
        lt_utf8_to_wide(s + pos + used, span, pair, 3, &c);
        if (c > 0 && lt_utf8_wide_units(s + pos + used, c) == 2) {
            lt_wide_store(dst, out++, pair[0]);
            lt_wide_store(dst, out, 0);
            piece->low_surrogate = pair[1];
            used += c;
        }
    }
    piece->offset = (SQLLEN)(pos + used);
    piece->wide_left = (SQLLEN)(need - out + 1);
    return warn(sqlstate, ST_TRUNCATED);
}

/* Binary (or text as bytes) as SQL_C_BINARY: no terminator. */
static SQLRETURN put_bytes(const char *s, size_t len, const lt_target *t,
                           SQLLEN *offset, const char **sqlstate)
{
    size_t off = (size_t)*offset;
    if (off > len)
        off = len;
    size_t rest = len - off;
    set_ind(t, (SQLLEN)rest);
    size_t room = t->ptr != NULL && t->buflen > 0 ? (size_t)t->buflen : 0;
    size_t n = rest < room ? rest : room;
    if (n > 0)
        memcpy(t->ptr, s + off, n);
    *offset = (SQLLEN)(off + n);
    if (n < rest)
        return warn(sqlstate, ST_TRUNCATED);
    return SQL_SUCCESS;
}

/* Binary as hexadecimal characters ("0A1B"), as SQL_C_CHAR or _WCHAR.
** Offsets count output characters (times the unit's size). */
static SQLRETURN put_hex(const uint8_t *b, size_t len, bool wide,
                         const lt_target *t, SQLLEN *offset,
                         const char **sqlstate)
{
    static const char hex[] = "0123456789ABCDEF";
    const size_t unit = wide ? sizeof(SQLWCHAR) : 1;
    size_t total = len * 2, done = (size_t)*offset / unit;
    if (done > total)
        done = total;
    size_t rest = total - done;
    set_ind(t, (SQLLEN)(rest * unit));
    size_t cap = t->ptr != NULL && t->buflen > 0 ? (size_t)t->buflen / unit : 0;
    if (cap == 0)
        return rest > 0 || t->ptr != NULL ? warn(sqlstate, ST_TRUNCATED)
                                          : SQL_SUCCESS;
    size_t n = rest < cap - 1 ? rest : cap - 1;
    for (size_t i = 0; i < n; i++) {
        size_t k = done + i;
        char c = hex[(k & 1) ? b[k / 2] & 15 : b[k / 2] >> 4];
        if (wide)
            lt_wide_store(t->ptr, i, (SQLWCHAR)c);
        else
            ((char *)t->ptr)[i] = c;
    }
    if (wide)
        lt_wide_store(t->ptr, n, 0);
    else
        ((char *)t->ptr)[n] = '\0';
    *offset = (SQLLEN)((done + n) * unit);
    return n < rest ? warn(sqlstate, ST_TRUNCATED) : SQL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* SQL -> C                                                                  */
/* ------------------------------------------------------------------------ */

/* The column's description applies to a value of the column's type only:
** a SQLite cell may hold another type than its column declares. */
static const lt_column *col_for(const lt_column *col, const lt_value *v)
{
    return col != NULL && col->type == v->type ? col : NULL;
}

/* Column facts a conversion needs, with defaults when there is no column. */
static int col_scale(const lt_column *col, int dflt)
{
    return col != NULL ? col->scale : dflt;
}

/* The character form of a value that is not text or binary, and the bytes
** of it that must fit for the value to be cut at all (22003 otherwise). */
static size_t char_form(const lt_value *v, const lt_column *col, char *buf,
                        size_t *min_len)
{
    size_t n = 0;
    col = col_for(col, v);
    switch (v->type) {
    case LT_BOOL:
        buf[0] = v->u.b ? '1' : '0';
        buf[1] = '\0';
        *min_len = 1;
        return 1;
    case LT_INT64:
        n = lt_format_int64(v->u.i64, buf);
        *min_len = n;
        return n;
    case LT_DOUBLE: {
        /* A REAL column holds its float widened exactly: it prints like
        ** any double, so text and SQL_C_DOUBLE agree. */
        n = lt_format_double(v->u.f64, buf);
        /* fractional digits may go, the integer part and exponent may not:
        ** the digits before '.', or all of it with an exponent or no '.'
        ** (one pass: this runs for every double read as text) */
        size_t dot = n;
        for (size_t i = 0; i < n; i++) {
            if (buf[i] == 'e') {
                dot = n;
                break;
            }
            if (buf[i] == '.' && dot == n)
                dot = i;
        }
        *min_len = dot;
        return n;
    }
    case LT_DECIMAL: {
        n = lt_format_decimal(v->u.dec, v->scale, buf);
        const char *dot = memchr(buf, '.', n);
        *min_len = dot == NULL ? n : (size_t)(dot - buf);
        return n;
    }
    case LT_DATE:
        n = lt_format_date(v->u.date, buf);
        *min_len = n;
        return n;
    case LT_TIME:
        n = lt_format_time(v->u.i64, col_scale(col, 6), buf);
        *min_len = n < 8 ? n : 8;
        return n;
    case LT_TIMESTAMP:
        n = lt_format_timestamp(v->u.i64, col_scale(col, 6), buf);
        *min_len = n < 19 ? n : 19;
        return n;
    case LT_GUID:
        *min_len = 38;
        return lt_format_guid(&v->u.guid, true, buf);
    case LT_TEXT:
    case LT_BINARY:
    case LT_NULL:
        break;
    }
    *min_len = 0;
    buf[0] = '\0';
    return 0;
}

/* A number-like value as `num`; false when it is text that is no number.
** Callers only pass BOOL, INT64, DOUBLE, DECIMAL and TEXT. */
static bool value_num(const lt_value *v, num *n)
{
    memset(n, 0, sizeof *n);
    switch (v->type) {
    case LT_BOOL:    n->mant = v->u.b ? 1 : 0; return true;
    case LT_INT64:   n->mant = v->u.i64; return true;
    case LT_DECIMAL: n->mant = v->u.dec; n->scale = v->scale; return true;
    case LT_DOUBLE:  n->is_double = true; n->d = v->u.f64; return true;
    case LT_TEXT:    return parse_num(v->u.bytes.ptr, v->u.bytes.len, n);
    default:         return false;
    }
}

static bool is_numeric_source(lt_type t)
{
    return t == LT_BOOL || t == LT_INT64 || t == LT_DOUBLE || t == LT_DECIMAL;
}

/* Integer C types: their range and width. */
typedef struct int_ctype {
    SQLSMALLINT ctype;
    int64_t lo;
    uint64_t hi;
    uint8_t size;
    bool is_signed;
} int_ctype;

static const int_ctype int_ctypes[] = {
    {SQL_C_STINYINT, INT8_MIN, INT8_MAX, 1, true},
    {SQL_C_TINYINT, INT8_MIN, INT8_MAX, 1, true},
    {SQL_C_UTINYINT, 0, UINT8_MAX, 1, false},
    {SQL_C_SSHORT, INT16_MIN, INT16_MAX, 2, true},
    {SQL_C_SHORT, INT16_MIN, INT16_MAX, 2, true},
    {SQL_C_USHORT, 0, UINT16_MAX, 2, false},
    {SQL_C_SLONG, INT32_MIN, INT32_MAX, 4, true},
    {SQL_C_LONG, INT32_MIN, INT32_MAX, 4, true},
    {SQL_C_ULONG, 0, UINT32_MAX, 4, false},
    {SQL_C_SBIGINT, INT64_MIN, INT64_MAX, 8, true},
    {SQL_C_UBIGINT, 0, UINT64_MAX, 8, false},
};

static const int_ctype *find_int_ctype(SQLSMALLINT ctype)
{
    for (size_t i = 0; i < sizeof int_ctypes / sizeof *int_ctypes; i++)
        if (int_ctypes[i].ctype == ctype)
            return &int_ctypes[i];
    return NULL;
}

static void store_int(void *dst, lt_int128 v, const int_ctype *it)
{
    switch (it->size) {
    case 1: { int8_t x = (int8_t)(uint8_t)v; memcpy(dst, &x, 1); break; }
    case 2: { uint16_t x = (uint16_t)v; memcpy(dst, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(dst, &x, 4); break; }
    default: { uint64_t x = (uint64_t)v; memcpy(dst, &x, 8); break; }
    }
}

/* BIT, integer, FLOAT, DOUBLE and NUMERIC targets from a number. */
static SQLRETURN number_to_c(const num *n, SQLSMALLINT ctype, const lt_target *t,
                             SQLLEN *offset, const char **sqlstate)
{
    const int_ctype *it = find_int_ctype(ctype);
    if (it != NULL) {
        lt_int128 v;
        int r = num_int(n, it->lo, (lt_int128)it->hi, &v);
        if (r < 0)
            return fail(sqlstate, ST_RANGE);
        uint8_t buf[8];
        store_int(buf, v, it);
        put_fixed(t, buf, it->size, offset);
        return r ? warn(sqlstate, ST_FRACTION) : SQL_SUCCESS;
    }
    switch (ctype) {
    case SQL_C_BIT: {
        lt_int128 v;
        int r = num_bit(n, &v);
        if (r < 0)
            return fail(sqlstate, ST_RANGE);
        unsigned char b = (unsigned char)v;
        put_fixed(t, &b, 1, offset);
        return r ? warn(sqlstate, ST_FRACTION) : SQL_SUCCESS;
    }
    case SQL_C_DOUBLE: {
        double d = num_double(n);
        if (isinf(d) && !(n->is_double && isinf(n->d)))
            return fail(sqlstate, ST_RANGE);
        return put_fixed(t, &d, sizeof d, offset);
    }
    case SQL_C_FLOAT: {
        double d = num_double(n);
        if (isfinite(d) && fabs(d) > FLT_MAX)
            return fail(sqlstate, ST_RANGE);
        if (isinf(d) && !(n->is_double && isinf(n->d)))
            return fail(sqlstate, ST_RANGE);
        float f = (float)d;
        return put_fixed(t, &f, sizeof f, offset);
    }
    case SQL_C_NUMERIC: {
        num e = *n;
        if (!num_exact(&e))
            return fail(sqlstate, ST_RANGE);
        int prec = t->precision >= 1 && t->precision <= 38 ? t->precision : 38;
        int scale = t->scale < 0 ? 0 : t->scale > prec ? prec : t->scale;
        lt_int128 v;
        int r = num_rescale(&e, scale, &v);
        if (r < 0 || (v < 0 ? -v : v) > pow10_128(prec) - 1)
            return fail(sqlstate, ST_RANGE);
        SQL_NUMERIC_STRUCT ns;
        memset(&ns, 0, sizeof ns);
        ns.precision = (SQLCHAR)prec;
        ns.scale = (SQLSCHAR)scale;
        ns.sign = v < 0 ? 0 : 1;
        lt_uint128 u = (lt_uint128)(v < 0 ? -v : v);
        for (int i = 0; i < SQL_MAX_NUMERIC_LEN; i++, u >>= 8)
            ns.val[i] = (SQLCHAR)(u & 0xFF);
        put_fixed(t, &ns, sizeof ns, offset);
        return r ? warn(sqlstate, ST_FRACTION) : SQL_SUCCESS;
    }
    default:
        return fail(sqlstate, ST_RESTRICTED);
    }
}

static bool is_number_ctype(SQLSMALLINT c)
{
    return find_int_ctype(c) != NULL || c == SQL_C_BIT || c == SQL_C_FLOAT ||
           c == SQL_C_DOUBLE || c == SQL_C_NUMERIC;
}

/* A date, time or timestamp in parts; which parts hold is in has_*. */
static void split_value(const lt_value *v, dt_parts *p)
{
    memset(p, 0, sizeof *p);
    int32_t days = 0;
    int64_t usec = 0;
    if (v->type == LT_DATE) {
        days = v->u.date;
        p->has_date = true;
    } else if (v->type == LT_TIME) {
        usec = v->u.i64;
        p->has_time = true;
    } else {
        lt_timestamp_split(v->u.i64, &days, &usec);
        p->has_date = p->has_time = true;
    }
    if (p->has_date)
        lt_civil_from_days(days, &p->year, &p->month, &p->day);
    if (p->has_time) {
        int us;
        lt_time_split(usec, &p->hour, &p->minute, &p->second, &us);
        p->nanos = us * 1000;
    }
}

/* DATE, TIME and TIMESTAMP targets from parts (of a datetime value or of
** parsed text).  Follows "SQL to C: Date/Time/Timestamp" and, for text,
** "SQL to C: Character". */
static SQLRETURN parts_to_c(dt_parts *p, SQLSMALLINT ctype, const lt_target *t,
                            SQLLEN *offset, const char **sqlstate)
{
    bool cut = false;
    if (p->has_time && (p->hour < 0 || p->hour > 23 || p->minute < 0 ||
                        p->second < 0))
        return fail(sqlstate, ST_DATETIME_OVERFLOW);
    if (p->has_date && (p->year < -32768 || p->year > 32767))
        return fail(sqlstate, ST_DATETIME_OVERFLOW);
    switch (ctype) {
    case SQL_C_TYPE_DATE:
    case SQL_C_DATE: {
        if (!p->has_date)
            return fail(sqlstate, ST_RESTRICTED);
        cut = p->has_time && (p->hour || p->minute || p->second || p->nanos);
        SQL_DATE_STRUCT d = {(SQLSMALLINT)p->year, (SQLUSMALLINT)p->month,
                             (SQLUSMALLINT)p->day};
        put_fixed(t, &d, sizeof d, offset);
        break;
    }
    case SQL_C_TYPE_TIME:
    case SQL_C_TIME: {
        if (!p->has_time)
            return fail(sqlstate, ST_RESTRICTED);
        cut = p->nanos != 0;
        SQL_TIME_STRUCT d = {(SQLUSMALLINT)p->hour, (SQLUSMALLINT)p->minute,
                             (SQLUSMALLINT)p->second};
        put_fixed(t, &d, sizeof d, offset);
        break;
    }
    default: { /* SQL_C_TYPE_TIMESTAMP, SQL_C_TIMESTAMP */
        if (!p->has_date) {
            int32_t now = today();
            lt_civil_from_days(now, &p->year, &p->month, &p->day);
        }
        SQL_TIMESTAMP_STRUCT d;
        memset(&d, 0, sizeof d);
        d.year = (SQLSMALLINT)p->year;
        d.month = (SQLUSMALLINT)p->month;
        d.day = (SQLUSMALLINT)p->day;
        d.hour = (SQLUSMALLINT)p->hour;
        d.minute = (SQLUSMALLINT)p->minute;
        d.second = (SQLUSMALLINT)p->second;
        d.fraction = (SQLUINTEGER)p->nanos;
        cut = p->frac_cut;
        put_fixed(t, &d, sizeof d, offset);
        break;
    }
    }
    return cut ? warn(sqlstate, ST_FRACTION) : SQL_SUCCESS;
}

/* SQLite's date numbers (dynamic typing: a number in a column declared
** DATE, DATETIME, TIMESTAMP or TIME), read as SQLite's date functions read
** them: a REAL is a Julian day number (julianday(); sqliteodbc too), an
** INTEGER Unix seconds (strftime('%s')).  Both go through SQLite's own
** instant, milliseconds since the Julian epoch, rounded as SQLite rounds
** and limited as SQLite's validJulianDay() is: from Julian day 0
** (-4713-11-24 12:00) to 9999-12-31 23:59:59.999; false outside. */
#define JD_MS_OF_UNIX_EPOCH INT64_C(210866760000000)   /* 1970-01-01 00:00 */
#define JD_MS_MAX INT64_C(464269060799999)             /* 9999-12-31 23:59:59.999 */

static bool date_number_value(const lt_value *v, lt_value *out)
{
    int64_t ms;
    if (v->type == LT_DOUBLE) {
        double jd = v->u.f64;
        if (!(jd >= 0.0 && jd < 5373484.5))   /* NaN fails too */
            return false;
        ms = (int64_t)(jd * 86400000.0 + 0.5);
    } else {
        int64_t sec = v->u.i64;
        if (sec < -JD_MS_OF_UNIX_EPOCH / 1000 || sec > (JD_MS_MAX - JD_MS_OF_UNIX_EPOCH) / 1000)
            return false;
        ms = sec * 1000 + JD_MS_OF_UNIX_EPOCH;
    }
    if (ms < 0 || ms > JD_MS_MAX)
        return false;
    memset(out, 0, sizeof *out);
    out->type = LT_TIMESTAMP;
    out->u.i64 = (ms - JD_MS_OF_UNIX_EPOCH) * 1000;
    return true;
}

static bool is_datetime_column(const lt_column *col)
{
    return col != NULL &&
           (col->type == LT_DATE || col->type == LT_TIME || col->type == LT_TIMESTAMP);
}

static bool is_datetime_ctype(SQLSMALLINT c)
{
    return c == SQL_C_TYPE_DATE || c == SQL_C_DATE || c == SQL_C_TYPE_TIME ||
           c == SQL_C_TIME || c == SQL_C_TYPE_TIMESTAMP || c == SQL_C_TIMESTAMP;
}

static void guid_to_sqlguid(const lt_guid *g, SQLGUID *out)
{
    memset(out, 0, sizeof *out);
    out->Data1 = g->data1;
    out->Data2 = g->data2;
    out->Data3 = g->data3;
    memcpy(out->Data4, g->data4, 8);
}

/* A non-text value as SQL_C_BINARY: the bytes of its default C form
** (SQLGUID for a GUID, SQL_NUMERIC_STRUCT at the column's precision for a
** decimal ...); all or nothing, 22003 when it does not fit. */
static SQLRETURN binary_form(const lt_value *v, const lt_column *col,
                             const lt_target *t, SQLLEN *offset,
                             const char **sqlstate)
{
    union {
        unsigned char b;
        int8_t i8;
        int16_t i16;
        int32_t i32;
        int64_t i64;
        float f;
        double d;
        SQL_NUMERIC_STRUCT n;
        SQL_DATE_STRUCT date;
        SQL_TIME_STRUCT time;
        SQL_TIMESTAMP_STRUCT ts;
        SQLGUID g;
    } u;
    char scratch[sizeof u];
    lt_target tmp = {0, scratch, sizeof scratch, NULL, 38, 0};
    lt_piece toff = {0};
    SQLLEN size;
    const char *st = NULL;
    SQLRETURN rc;
    lt_sqltype sq;
    lt_column dflt = {0};
    col = col_for(col, v);
    if (col == NULL) {
        dflt.type = v->type;
        dflt.size = v->type == LT_DECIMAL ? 38 : 0;
        dflt.scale = v->scale;
        col = &dflt;
    }
    lt_sqltype_of(col, &sq);
    SQLSMALLINT ctype = lt_default_ctype(sq.concise);
    if (v->type == LT_DECIMAL) {
        ctype = SQL_C_NUMERIC;
        tmp.precision = (SQLSMALLINT)sq.column_size;
        tmp.scale = v->scale;
    }
    if (v->type == LT_GUID) {
        guid_to_sqlguid(&v->u.guid, &u.g);
        memcpy(scratch, &u.g, sizeof u.g);
        size = sizeof u.g;
        rc = SQL_SUCCESS;
    } else {
        tmp.ctype = ctype;
        rc = lt_convert_to_c(v, col, &tmp, &toff, &st);
        if (!SQL_SUCCEEDED(rc))
            return fail(sqlstate, st);
        size = lt_ctype_size(ctype);
    }
    if (t->ptr != NULL && t->buflen < size)
        return fail(sqlstate, ST_RANGE);
    if (t->ptr != NULL)
        memcpy(t->ptr, scratch, (size_t)size);
    set_ind(t, size);
    *offset = size;
    if (rc == SQL_SUCCESS_WITH_INFO)
        *sqlstate = st;
    return rc;
}

SQLRETURN lt_convert_to_c(const lt_value *value, const lt_column *col,
                          const lt_target *t, lt_piece *piece,
                          const char **sqlstate)
{
    SQLLEN *offset = &piece->offset;
    char buf[128];
    size_t min_len = 0, n;
    SQLSMALLINT ctype = t->ctype;
    *sqlstate = NULL;

    /* The common cases first, what row-at-a-time clients ask for most: the
    ** first piece of a text value, an integer or a double as SQL_C_CHAR into
    ** a buffer it fits (what put_char would do, minus its tests; numbers
    ** are formatted straight into the application's buffer, which holds the
    ** longest form, instead of into buf and then copied), and numbers as
    ** SQL_C_WCHAR, whose text is ASCII: one unit per byte. */
    if (ctype == SQL_C_CHAR && *offset == 0 && t->ptr != NULL) {
        switch (value->type) {
        case LT_TEXT:
            n = value->u.bytes.len;
            if (t->buflen > 0 && n < (size_t)t->buflen &&
                lt_narrow_same(value->u.bytes.ptr, n)) {
                if (n > 0)
                    memcpy(t->ptr, value->u.bytes.ptr, n);
                ((char *)t->ptr)[n] = '\0';
                return put_whole(t, n, n, offset);
            }
            break;
        case LT_INT64:
            if (t->buflen >= LT_FMT_INT64_MAX) {
                n = lt_format_int64(value->u.i64, t->ptr);
                return put_whole(t, n, n, offset);
            }
            break;
        case LT_DOUBLE:
            if (t->buflen >= LT_FMT_DOUBLE_MAX) {
                n = lt_format_double(value->u.f64, t->ptr);
                return put_whole(t, n, n, offset);
            }
            break;
        default:
            break;
        }
    } else if (ctype == SQL_C_WCHAR && *offset == 0 && t->ptr != NULL &&
               piece->low_surrogate == 0 &&
               (value->type == LT_INT64 || value->type == LT_DOUBLE) &&
               t->buflen >= (SQLLEN)(LT_FMT_DOUBLE_MAX * sizeof(SQLWCHAR))) {
        n = value->type == LT_INT64 ? lt_format_int64(value->u.i64, buf)
                                    : lt_format_double(value->u.f64, buf);
        for (size_t i = 0; i <= n; i++) /* the terminator too */
            lt_wide_store(t->ptr, i, (SQLWCHAR)(unsigned char)buf[i]);
        return put_whole(t, n * sizeof(SQLWCHAR), n, offset);
    }

    if (ctype == SQL_C_DEFAULT) {
        lt_sqltype st;
        lt_column dflt = {.type = value->type, .scale = value->scale};
        lt_sqltype_of(col != NULL ? col : &dflt, &st);
        ctype = lt_default_ctype(st.concise);
    }
    if (value->type == LT_NULL) {
        if (*offset > 0)
            return SQL_NO_DATA;
        if (t->len_or_ind == NULL)
            return fail(sqlstate, ST_NO_INDICATOR);
        *t->len_or_ind = SQL_NULL_DATA;
        *offset = 1;
        return SQL_SUCCESS;
    }
    /* A piece after the whole value went: nothing more. */
    bool pieces = ctype == SQL_C_CHAR || ctype == SQL_C_WCHAR ||
                  ctype == SQL_C_BINARY;
    if (*offset > 0 && !pieces)
        return SQL_NO_DATA;

    switch (ctype) {
    case SQL_C_CHAR:
    case SQL_C_WCHAR: {
        bool wide = ctype == SQL_C_WCHAR;
        const char *s = buf;
        if (value->type == LT_BINARY) {
            size_t total = (size_t)value->u.bytes.len * 2 *
                           (wide ? sizeof(SQLWCHAR) : 1);
            if (*offset > 0 && (size_t)*offset >= total)
                return SQL_NO_DATA;
            return put_hex((const uint8_t *)value->u.bytes.ptr,
                           value->u.bytes.len, wide, t, offset, sqlstate);
        }
        if (value->type == LT_TEXT) {
            s = value->u.bytes.ptr;
            n = value->u.bytes.len;
        } else {
            n = char_form(value, col, buf, &min_len);
        }
#ifdef _WIN32
        if (!wide && !lt_narrow_same(s, n))
            return *offset > 0 && (size_t)*offset >= n && piece->low_surrogate == 0
                       ? SQL_NO_DATA
                       : put_narrow(s, n, t, piece, sqlstate);
#endif
        if (*offset > 0 && (size_t)*offset >= n && piece->low_surrogate == 0)
            return SQL_NO_DATA;
        return wide ? put_wchar(s, n, min_len, t, piece, sqlstate)
                    : put_char(s, n, min_len, t, offset, sqlstate);
    }
    case SQL_C_BINARY:
        if (value->type == LT_TEXT || value->type == LT_BINARY) {
            if (*offset > 0 && (size_t)*offset >= value->u.bytes.len)
                return SQL_NO_DATA;
            return put_bytes(value->u.bytes.ptr, value->u.bytes.len, t, offset,
                             sqlstate);
        }
        if (col != NULL && col->type == LT_BINARY && value->type != LT_GUID) {
            /* A number or date in a BLOB column (SQLite's dynamic typing):
            ** its text's bytes, as sqlite3_column_blob() and sqliteodbc
            ** give them, not the bytes of a C struct. */
            n = char_form(value, col, buf, &min_len);
            if (*offset > 0 && (size_t)*offset >= n)
                return SQL_NO_DATA;
            return put_bytes(buf, n, t, offset, sqlstate);
        }
        if (*offset > 0)
            return SQL_NO_DATA;
        return binary_form(value, col, t, offset, sqlstate);
    case SQL_C_GUID: {
        lt_guid g;
        if (value->type == LT_GUID)
            g = value->u.guid;
        else if (value->type != LT_TEXT)
            return fail(sqlstate, ST_RESTRICTED);
        else if (!parse_guid(value->u.bytes.ptr, value->u.bytes.len, &g))
            return fail(sqlstate, ST_CHAR_VALUE);
        SQLGUID out;
        guid_to_sqlguid(&g, &out);
        return put_fixed(t, &out, sizeof out, offset);
    }
    default:
        break;
    }

    if (is_number_ctype(ctype)) {
        num nv;
        if (!is_numeric_source(value->type) && value->type != LT_TEXT)
            return fail(sqlstate, ST_RESTRICTED);
        if (!value_num(value, &nv))
            return fail(sqlstate, ST_CHAR_VALUE);
        return number_to_c(&nv, ctype, t, offset, sqlstate);
    }
    if (is_datetime_ctype(ctype)) {
        dt_parts p;
        if (value->type == LT_TEXT) {
            if (!parse_datetime(value->u.bytes.ptr, value->u.bytes.len, &p))
                return fail(sqlstate, ST_CHAR_VALUE);
            /* a date-only text cannot become a TIME, nor a time a DATE */
            bool to_date = ctype == SQL_C_TYPE_DATE || ctype == SQL_C_DATE;
            bool to_time = ctype == SQL_C_TYPE_TIME || ctype == SQL_C_TIME;
            if ((to_date && !p.has_date) || (to_time && !p.has_time))
                return fail(sqlstate, ST_CHAR_VALUE);
        } else if (value->type == LT_DATE || value->type == LT_TIME ||
                   value->type == LT_TIMESTAMP) {
            split_value(value, &p);
        } else if ((value->type == LT_DOUBLE || value->type == LT_INT64) &&
                   is_datetime_column(col)) {
            lt_value ts;
            if (!date_number_value(value, &ts))
                return fail(sqlstate, ST_DATETIME);
            split_value(&ts, &p);
        } else {
            return fail(sqlstate, ST_RESTRICTED);
        }
        return parts_to_c(&p, ctype, t, offset, sqlstate);
    }
    /* intervals and anything else */
    return fail(sqlstate, ST_RESTRICTED);
}

SQLLEN lt_ctype_size(SQLSMALLINT ctype)
{
    const int_ctype *it = find_int_ctype(ctype);
    if (it != NULL)
        return it->size;
    switch (ctype) {
    case SQL_C_BIT:            return 1;
    case SQL_C_FLOAT:          return sizeof(SQLREAL);
    case SQL_C_DOUBLE:         return sizeof(SQLDOUBLE);
    case SQL_C_NUMERIC:        return sizeof(SQL_NUMERIC_STRUCT);
    case SQL_C_TYPE_DATE:
    case SQL_C_DATE:           return sizeof(SQL_DATE_STRUCT);
    case SQL_C_TYPE_TIME:
    case SQL_C_TIME:           return sizeof(SQL_TIME_STRUCT);
    case SQL_C_TYPE_TIMESTAMP:
    case SQL_C_TIMESTAMP:      return sizeof(SQL_TIMESTAMP_STRUCT);
    case SQL_C_GUID:           return sizeof(SQLGUID);
    default:                   return 0;
    }
}

/* ------------------------------------------------------------------------ */
/* C -> SQL (parameters)                                                     */
/* ------------------------------------------------------------------------ */

/* What the application's buffer holds, read once. */
typedef struct c_input {
    enum { IN_TEXT, IN_BYTES, IN_NUM, IN_PARTS, IN_GUID } kind;
    const char *s;       /* IN_TEXT (UTF-8), IN_BYTES */
    size_t len;
    num n;               /* IN_NUM */
    bool n_is_float;     /* a SQL_C_FLOAT: print it as a float */
    dt_parts p;          /* IN_PARTS */
    lt_guid g;           /* IN_GUID */
} c_input;

static bool is_text_sql(SQLSMALLINT t)
{
    return t == SQL_CHAR || t == SQL_VARCHAR || t == SQL_LONGVARCHAR ||
           t == SQL_WCHAR || t == SQL_WVARCHAR || t == SQL_WLONGVARCHAR;
}

static bool is_binary_sql(SQLSMALLINT t)
{
    return t == SQL_BINARY || t == SQL_VARBINARY || t == SQL_LONGVARBINARY;
}

static SQLRETURN text_value(const char *s, size_t len, lt_arena *arena,
                            lt_type type, lt_value *out, const char **sqlstate)
{
    char *copy = lt_arena_strndup(arena, s, len);
    if (copy == NULL)
        return fail(sqlstate, "HY001");
    out->type = type;
    out->u.bytes.ptr = copy;
    out->u.bytes.len = (uint32_t)len;
    return SQL_SUCCESS;
}

/* Validate the fields of a C date/time struct (C to SQL: 22007). */
static bool parts_valid(const dt_parts *p)
{
    if (p->has_date && !lt_date_valid(p->year, p->month, p->day))
        return false;
    if (p->has_time && (p->hour > 23 || p->minute > 59 || p->second > 59 ||
                        p->nanos < 0 || p->nanos > 999999999))
        return false;
    return true;
}

/* Read the C value into `in`. */
static SQLRETURN read_input(SQLSMALLINT ctype, SQLPOINTER ptr, SQLLEN buflen,
                            const SQLLEN *ind, c_input *in, char **to_free,
                            const char **sqlstate)
{
    memset(in, 0, sizeof *in);
    SQLLEN len = ind != NULL ? *ind : SQL_NTS;
    const int_ctype *it = find_int_ctype(ctype);
    if (it != NULL) {
        in->kind = IN_NUM;
        if (it->size == 1) {
            uint8_t x;
            memcpy(&x, ptr, 1);
            in->n.mant = it->is_signed ? (lt_int128)(int8_t)x : (lt_int128)x;
        } else if (it->size == 2) {
            uint16_t x;
            memcpy(&x, ptr, 2);
            in->n.mant = it->is_signed ? (lt_int128)(int16_t)x : (lt_int128)x;
        } else if (it->size == 4) {
            uint32_t x;
            memcpy(&x, ptr, 4);
            in->n.mant = it->is_signed ? (lt_int128)(int32_t)x : (lt_int128)x;
        } else {
            uint64_t x;
            memcpy(&x, ptr, 8);
            in->n.mant = it->is_signed ? (lt_int128)(int64_t)x : (lt_int128)x;
        }
        return SQL_SUCCESS;
    }
    switch (ctype) {
    case SQL_C_CHAR:
        in->kind = IN_TEXT;
        in->s = ptr;
        if (len == SQL_NTS)
            in->len = strlen(ptr);
        else if (len < 0)
            return fail(sqlstate, "HY090");
        else
            in->len = (size_t)len;
        return SQL_SUCCESS;
    case SQL_C_WCHAR: {
        SQLLEN units;
        if (len == SQL_NTS)
            units = SQL_NTS;
        else if (len < 0)
            return fail(sqlstate, "HY090");
        else
            units = len / (SQLLEN)sizeof(SQLWCHAR);
        bool oom = false;
        size_t n = 0;
        char *s = lt_wide_to_utf8(ptr, units, &n, &oom);
        if (s == NULL)
            return fail(sqlstate, "HY001");
        *to_free = s;
        in->kind = IN_TEXT;
        in->s = s;
        in->len = n;
        return SQL_SUCCESS;
    }
    case SQL_C_BINARY:
        in->kind = IN_BYTES;
        in->s = ptr;
        if (ind == NULL)
            in->len = buflen > 0 ? (size_t)buflen : 0;
        else if (len < 0)
            return fail(sqlstate, "HY090");
        else
            in->len = (size_t)len;
        return SQL_SUCCESS;
    case SQL_C_BIT: {
        unsigned char b;
        memcpy(&b, ptr, 1);
        in->kind = IN_NUM;
        in->n.mant = b;
        return SQL_SUCCESS;
    }
    case SQL_C_FLOAT: {
        float f;
        memcpy(&f, ptr, sizeof f);
        in->kind = IN_NUM;
        in->n.is_double = true;
        in->n.d = f;
        in->n_is_float = true;
        return SQL_SUCCESS;
    }
    case SQL_C_DOUBLE: {
        double d;
        memcpy(&d, ptr, sizeof d);
        in->kind = IN_NUM;
        in->n.is_double = true;
        in->n.d = d;
        return SQL_SUCCESS;
    }
    case SQL_C_NUMERIC: {
        SQL_NUMERIC_STRUCT ns;
        memcpy(&ns, ptr, sizeof ns);
        lt_uint128 u = 0;
        for (int i = SQL_MAX_NUMERIC_LEN - 1; i >= 0; i--)
            u = u << 8 | ns.val[i];
        if (u > (lt_uint128)dec_max())
            return fail(sqlstate, ST_RANGE);
        in->kind = IN_NUM;
        in->n.mant = ns.sign ? (lt_int128)u : -(lt_int128)u;
        in->n.scale = ns.scale;
        return SQL_SUCCESS;
    }
    case SQL_C_TYPE_DATE:
    case SQL_C_DATE: {
        SQL_DATE_STRUCT d;
        memcpy(&d, ptr, sizeof d);
        in->kind = IN_PARTS;
        in->p.has_date = true;
        in->p.year = d.year;
        in->p.month = d.month;
        in->p.day = d.day;
        break;
    }
    case SQL_C_TYPE_TIME:
    case SQL_C_TIME: {
        SQL_TIME_STRUCT d;
        memcpy(&d, ptr, sizeof d);
        in->kind = IN_PARTS;
        in->p.has_time = true;
        in->p.hour = d.hour;
        in->p.minute = d.minute;
        in->p.second = d.second;
        break;
    }
    case SQL_C_TYPE_TIMESTAMP:
    case SQL_C_TIMESTAMP: {
        SQL_TIMESTAMP_STRUCT d;
        memcpy(&d, ptr, sizeof d);
        in->kind = IN_PARTS;
        in->p.has_date = in->p.has_time = true;
        in->p.year = d.year;
        in->p.month = d.month;
        in->p.day = d.day;
        in->p.hour = d.hour;
        in->p.minute = d.minute;
        in->p.second = d.second;
        if (d.fraction > 999999999)
            return fail(sqlstate, ST_DATETIME);
        in->p.nanos = (int32_t)d.fraction;
        break;
    }
    case SQL_C_GUID: {
        SQLGUID g;
        memcpy(&g, ptr, sizeof g);
        in->kind = IN_GUID;
        in->g.data1 = (uint32_t)g.Data1;
        in->g.data2 = g.Data2;
        in->g.data3 = g.Data3;
        memcpy(in->g.data4, g.Data4, 8);
        return SQL_SUCCESS;
    }
    default:
        return fail(sqlstate, "HY003");
    }
    return parts_valid(&in->p) ? SQL_SUCCESS : fail(sqlstate, ST_DATETIME);
}

/* Range of an integer SQL type. */
static void int_range(SQLSMALLINT sql_type, lt_int128 *lo, lt_int128 *hi)
{
    switch (sql_type) {
    case SQL_TINYINT:  *lo = INT8_MIN; *hi = UINT8_MAX; break; /* either sign */
    case SQL_SMALLINT: *lo = INT16_MIN; *hi = INT16_MAX; break;
    case SQL_INTEGER:  *lo = INT32_MIN; *hi = INT32_MAX; break;
    default:           *lo = INT64_MIN; *hi = INT64_MAX; break;
    }
}

/* The character form of an input that is not text. */
static size_t input_char_form(const c_input *in, char *buf)
{
    lt_value v = {0};
    size_t min_len;
    switch (in->kind) {
    case IN_NUM: {
        if (in->n.is_double)
            return in->n_is_float ? lt_format_float((float)in->n.d, buf)
                                  : lt_format_double(in->n.d, buf);
        if (in->n.scale >= 0)
            return lt_format_decimal(in->n.mant, in->n.scale, buf);
        lt_int128 m; /* a NUMERIC struct of negative scale */
        if (num_rescale(&in->n, 0, &m) < 0)
            m = 0;
        return lt_format_decimal(m, 0, buf);
    }
    case IN_PARTS:
        if (in->p.has_date) {
            v.type = LT_DATE;
            v.u.date = lt_days_from_civil(in->p.year, in->p.month, in->p.day);
        }
        if (in->p.has_time) {
            int64_t us = ((int64_t)in->p.hour * 3600 + in->p.minute * 60 +
                          in->p.second) * 1000000 + in->p.nanos / 1000;
            if (v.type == LT_DATE) {
                v.type = LT_TIMESTAMP;
                v.u.i64 = (int64_t)v.u.date * LT_USEC_PER_DAY + us;
            } else {
                v.type = LT_TIME;
                v.u.i64 = us;
            }
        }
        return char_form(&v, NULL, buf, &min_len);
    case IN_GUID:
        return lt_format_guid(&in->g, true, buf);
    default:
        return 0;
    }
}

/* Hex text ("0A1B", optional 0x) to bytes in the arena: C to SQL binary. */
static SQLRETURN hex_value(const char *s, size_t len, lt_arena *arena,
                           lt_value *out, const char **sqlstate)
{
    if (len >= 2 && s[0] == '0' && (s[1] | 0x20) == 'x')
        s += 2, len -= 2;
    size_t n = len / 2; /* an odd last digit is ignored, as the spec says */
    char *b = lt_arena_alloc(arena, n + 1);
    if (b == NULL)
        return fail(sqlstate, "HY001");
    for (size_t i = 0; i < n; i++) {
        int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return fail(sqlstate, ST_CHAR_VALUE);
        b[i] = (char)(hi << 4 | lo);
    }
    out->type = LT_BINARY;
    out->u.bytes.ptr = b;
    out->u.bytes.len = (uint32_t)n;
    return SQL_SUCCESS;
}

/* Datetime SQL types from parts: "C to SQL: Date/Time/Timestamp" and the
** character table.  `strict_time` is false for text (whose trailing zero
** time is allowed on a DATE). */
static SQLRETURN parts_value(const dt_parts *p, SQLSMALLINT sql_type,
                             lt_value *out, const char **sqlstate)
{
    int64_t us = ((int64_t)p->hour * 3600 + p->minute * 60 + p->second) *
                     1000000 + p->nanos / 1000;
    switch (sql_type) {
    case SQL_TYPE_DATE:
        if (!p->has_date)
            return fail(sqlstate, ST_RESTRICTED);
        if (p->has_time && (us != 0 || p->nanos != 0))
            return fail(sqlstate, ST_DATETIME_OVERFLOW);
        out->type = LT_DATE;
        out->u.date = lt_days_from_civil(p->year, p->month, p->day);
        return SQL_SUCCESS;
    case SQL_TYPE_TIME:
        if (!p->has_time)
            return fail(sqlstate, ST_RESTRICTED);
        if (p->nanos != 0)
            return fail(sqlstate, ST_DATETIME_OVERFLOW);
        out->type = LT_TIME;
        out->u.i64 = us;
        return SQL_SUCCESS;
    default: { /* SQL_TYPE_TIMESTAMP */
        int32_t days = p->has_date
                           ? lt_days_from_civil(p->year, p->month, p->day)
                           : today();
        out->type = LT_TIMESTAMP;
        out->u.i64 = (int64_t)days * LT_USEC_PER_DAY + (p->has_time ? us : 0);
        return SQL_SUCCESS;
    }
    }
}

/* Convert the read input to the SQL type. */
static SQLRETURN input_to_value(c_input *in, SQLSMALLINT ctype,
                                SQLSMALLINT sql_type, SQLSMALLINT scale,
                                lt_arena *arena, lt_value *out,
                                const char **sqlstate)
{
    char buf[128];
    bool from_text = in->kind == IN_TEXT;

    if (is_text_sql(sql_type)) {
        if (in->kind == IN_TEXT || in->kind == IN_BYTES)
            return text_value(in->s, in->len, arena, LT_TEXT, out, sqlstate);
        size_t n = input_char_form(in, buf);
        return text_value(buf, n, arena, LT_TEXT, out, sqlstate);
    }
    if (is_binary_sql(sql_type)) {
        if (in->kind == IN_BYTES)
            return text_value(in->s, in->len, arena, LT_BINARY, out, sqlstate);
        if (in->kind == IN_TEXT)
            return hex_value(in->s, in->len, arena, out, sqlstate);
        return fail(sqlstate, ST_RESTRICTED); /* fixed C types: see caller */
    }
    /* A number, datetime or GUID from text is parsed first. */
    switch (sql_type) {
    case SQL_BIT: case SQL_TINYINT: case SQL_SMALLINT: case SQL_INTEGER:
    case SQL_BIGINT: case SQL_DECIMAL: case SQL_NUMERIC: case SQL_REAL:
    case SQL_FLOAT: case SQL_DOUBLE:
        if (from_text) {
            if (!parse_num(in->s, in->len, &in->n))
                return fail(sqlstate, ST_CHAR_VALUE);
            in->kind = IN_NUM;
        }
        if (in->kind != IN_NUM)
            return fail(sqlstate, ST_RESTRICTED);
        break;
    case SQL_TYPE_DATE: case SQL_TYPE_TIME: case SQL_TYPE_TIMESTAMP:
        if (from_text) {
            if (!parse_datetime(in->s, in->len, &in->p))
                return fail(sqlstate, ST_CHAR_VALUE);
            in->kind = IN_PARTS;
        }
        if (in->kind != IN_PARTS)
            return fail(sqlstate, ST_RESTRICTED);
        return parts_value(&in->p, sql_type, out, sqlstate);
    case SQL_GUID:
        if (from_text && !parse_guid(in->s, in->len, &in->g))
            return fail(sqlstate, ST_CHAR_VALUE);
        if (!from_text && in->kind != IN_GUID)
            return fail(sqlstate, ST_RESTRICTED);
        out->type = LT_GUID;
        out->u.guid = in->g;
        return SQL_SUCCESS;
    default:
        return fail(sqlstate, ST_RESTRICTED);
    }
    (void)ctype;

    /* Numbers.  Fractional digits cut from text are 22001 (the character
    ** table of "C to SQL"); from a numeric C type they go silently. */
    num *n = &in->n;
    switch (sql_type) {
    case SQL_REAL: case SQL_FLOAT: case SQL_DOUBLE: {
        double d = num_double(n);
        if (isinf(d) && !(n->is_double && isinf(n->d)))
            return fail(sqlstate, ST_RANGE);
        if (sql_type == SQL_REAL) {
            if (isfinite(d) && fabs(d) > FLT_MAX)
                return fail(sqlstate, ST_RANGE);
            d = (float)d;
        }
        out->type = LT_DOUBLE;
        out->u.f64 = d;
        return SQL_SUCCESS;
    }
    case SQL_DECIMAL: case SQL_NUMERIC: {
        /* Kept exact at its own scale (at least the declared one): a
        ** parameter compared with data must not be rounded on the way. */
        if (!num_exact(n))
            return fail(sqlstate, ST_RANGE);
        int s = n->scale > scale ? n->scale : scale;
        if (s < 0)
            s = 0;
        if (s > 38)
            s = 38;
        lt_int128 v;
        int r = num_rescale(n, s, &v);
        if (r < 0)
            return fail(sqlstate, ST_RANGE);
        out->type = LT_DECIMAL;
        out->scale = (int16_t)s;
        out->u.dec = v;
        return r && from_text ? fail(sqlstate, ST_RIGHT_TRUNC) : SQL_SUCCESS;
    }
    case SQL_BIT: {
        lt_int128 v;
        int r = num_bit(n, &v);
        if (r < 0)
            return fail(sqlstate, ST_RANGE);
        if (r > 0)
            return fail(sqlstate, ST_RIGHT_TRUNC);
        out->type = LT_BOOL;
        out->u.b = v != 0;
        return SQL_SUCCESS;
    }
    default: { /* the integers */
        lt_int128 lo, hi, v;
        int_range(sql_type, &lo, &hi);
        int r = num_int(n, lo, hi, &v);
        if (r < 0)
            return fail(sqlstate, ST_RANGE);
        if (r > 0 && from_text)
            return fail(sqlstate, ST_RIGHT_TRUNC);
        out->type = LT_INT64;
        out->u.i64 = (int64_t)v;
        return SQL_SUCCESS;
    }
    }
}

SQLRETURN lt_convert_param(SQLSMALLINT ctype, SQLSMALLINT sql_type,
                           SQLSMALLINT scale, SQLPOINTER ptr, SQLLEN buflen,
                           const SQLLEN *ind, lt_arena *arena, lt_value *out,
                           const char **sqlstate)
{
    memset(out, 0, sizeof *out);
    *sqlstate = NULL;
    if (ind != NULL) {
        if (*ind == SQL_NULL_DATA) {
            out->type = LT_NULL;
            return SQL_SUCCESS;
        }
        if (*ind == SQL_DATA_AT_EXEC || *ind <= SQL_LEN_DATA_AT_EXEC_OFFSET)
            return fail(sqlstate, "HYC00");
        if (*ind == SQL_DEFAULT_PARAM)
            return fail(sqlstate, "07S01");
    }
    if (ptr == NULL)
        return fail(sqlstate, "HY009");
    SQLSMALLINT target = lt_sqltype_normalize(sql_type);
    if (target == 0)
        return fail(sqlstate, "HY004");
    if (ctype == SQL_C_DEFAULT)
        ctype = lt_default_ctype(target);

    c_input in;
    char *to_free = NULL;
    SQLRETURN rc = read_input(ctype, ptr, buflen, ind, &in, &to_free, sqlstate);
    if (rc == SQL_SUCCESS && in.kind == IN_BYTES && !is_text_sql(target) &&
        !is_binary_sql(target)) {
        /* Binary into a fixed type: the bytes of that type's C form. */
        SQLSMALLINT as = target == SQL_GUID ? SQL_C_GUID
                         : target == SQL_DECIMAL || target == SQL_NUMERIC
                             ? SQL_C_NUMERIC
                             : lt_default_ctype(target);
        if ((SQLLEN)in.len != lt_ctype_size(as) || lt_ctype_size(as) == 0)
            rc = fail(sqlstate, ST_RANGE);
        else
            rc = read_input(as, ptr, 0, NULL, &in, &to_free, sqlstate);
    }
    if (rc == SQL_SUCCESS && in.kind != IN_TEXT && in.kind != IN_BYTES &&
        is_binary_sql(target)) {
        /* A fixed C value into binary: its bytes as they are. */
        SQLLEN size = lt_ctype_size(ctype);
        rc = text_value(ptr, (size_t)size, arena, LT_BINARY, out, sqlstate);
        free(to_free);
        return rc;
    }
    if (rc == SQL_SUCCESS)
        rc = input_to_value(&in, ctype, target, scale, arena, out, sqlstate);
    free(to_free);
    return rc;
}
