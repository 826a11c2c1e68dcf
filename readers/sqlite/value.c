/*
** value.c — SQLite's dynamically typed values into Lector's typed vectors.
**
** A column's logical type comes from its declared type (schema.c), but any
** row may hold a value of another storage class: 'abc' in an INTEGER
** column, 1e300 in an INTEGER column (too big, so stored as REAL), 7 in a
** TEXT column of a STRICT ANY table.  A value that the column's type
** represents exactly goes into the vector as usual (an integer into REAL,
** ISO text into DATE); anything else keeps its own storage class and is
** handed out as a tagged row (reader.h, lt_vector.tags), never dropped or
** turned into NULL.
**
** Also here: the value of a DEFAULT clause, which rows written before ALTER
** TABLE ADD COLUMN take, with the column's affinity applied as SQLite's
** valueFromExpr() does.  SQLite's rendering of a REAL as text and its
** reading of text as a number are shared with the engine
** (common/sqlite_rules.c).
*/
#include "sqlite_internal.h"

#include "../common/datetime.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- tags ------------------------------------------------------------------ */

void sqlite_batch_untag(lt_batch *batch)
{
    for (uint32_t c = 0; c < batch->ncols; c++) {
        batch->cols[c].tags = NULL;
        batch->cols[c].other = NULL;
    }
}

static int oom(void)
{
    return -1;
}

/* Text and blob bytes that stay valid for the batch: the mapped file when
** possible, else a copy (or a UTF-8 conversion) in the batch arena. */
static int stable_bytes(lt_batch *batch, const sqlite_val *val, lt_bytes *out)
{
    if (val->cls == SQLITE_TEXT && val->enc != SQLITE_ENC_UTF8) {
        char *d = lt_arena_alloc(&batch->arena, SQLITE_UTF16_MAX_UTF8(val->n));
        if (d == NULL)
            return oom();
        out->ptr = d;
        out->len = (uint32_t)sqlite_utf16_to_utf8(val->p, val->n,
                                                  val->enc == SQLITE_ENC_UTF16BE, d);
        return 0;
    }
    if (val->transient && val->n > 0) {
        char *d = lt_arena_alloc(&batch->arena, val->n);
        if (d == NULL)
            return oom();
        memcpy(d, val->p, val->n);
        out->ptr = d;
    } else {
        out->ptr = (const char *)val->p;
    }
    out->len = val->n;
    return 0;
}

/* Row `row` keeps the value's own storage class. */
static int put_tagged(lt_batch *batch, lt_vector *v, uint32_t row,
                      const sqlite_val *val)
{
    if (v->tags == NULL && lt_vector_tag_arrays(batch, v) != 0)
        return oom();
    lt_value *o = &v->other[row];
    memset(o, 0, sizeof *o);
    switch (val->cls) {
    case SQLITE_INT:
        o->type = LT_INT64;
        o->u.i64 = val->i;
        break;
    case SQLITE_REAL:
        o->type = LT_DOUBLE;
        o->u.f64 = val->r;
        break;
    default:
        o->type = val->cls == SQLITE_TEXT ? LT_TEXT : LT_BINARY;
        if (stable_bytes(batch, val, &o->u.bytes) != 0)
            return oom();
        break;
    }
    v->tags[row] = (uint8_t)o->type;
    return 0;
}

/* ---- dates ------------------------------------------------------------------ */

/* Up to `n` digits at *p (exactly n when exact). */
static bool digits(const char **p, const char *end, int n, bool exact, int *out)
{
    int v = 0, k = 0;
    while (k < n && *p < end && isdigit((unsigned char)**p)) {
        v = v * 10 + (**p - '0');
        (*p)++;
        k++;
    }
    *out = v;
    return exact ? k == n : k > 0;
}

/* "HH:MM[:SS[.fff]]" -> microseconds; *p moves past it. */
static bool parse_time(const char **p, const char *end, int64_t *usec)
{
    int h, m, s = 0;
    if (!digits(p, end, 2, true, &h) || *p >= end || **p != ':')
        return false;
    (*p)++;
    if (!digits(p, end, 2, true, &m) || h > 23 || m > 59)
        return false;
    int64_t frac = 0;
    if (*p < end && **p == ':') {
        (*p)++;
        if (!digits(p, end, 2, true, &s) || s > 59)
            return false;
        if (*p < end && **p == '.') {
            (*p)++;
            int64_t scale = 100000;
            if (*p >= end || !isdigit((unsigned char)**p))
                return false;
            while (*p < end && isdigit((unsigned char)**p)) {
                frac += (**p - '0') * scale;
                scale /= 10;
                (*p)++;
            }
        }
    }
    *usec = ((int64_t)h * 3600 + m * 60 + s) * 1000000 + frac;
    return true;
}

/*
** ISO-8601 text: "YYYY-MM-DD", optionally followed by " " or "T" and
** "HH:MM[:SS[.fff]]".  Text with a time-zone suffix ("Z", "+05:30") is not
** taken: turning it into a zone-less timestamp would lose the zone, so it
** stays text.  Surrounding spaces are allowed.
*/
static bool parse_iso(const char *s, size_t n, int64_t *ts)
{
    const char *p = s, *end = s + n;
    while (p < end && isspace((unsigned char)*p))
        p++;
    while (end > p && isspace((unsigned char)end[-1]))
        end--;
    int y, mo, d;
    if (!digits(&p, end, 4, true, &y) || p >= end || *p++ != '-' ||
        !digits(&p, end, 2, true, &mo) || p >= end || *p++ != '-' ||
        !digits(&p, end, 2, true, &d) || !lt_date_valid(y, mo, d))
        return false;
    int64_t usec = 0;
    if (p < end && (*p == ' ' || *p == 'T')) {
        p++;
        if (!parse_time(&p, end, &usec))
            return false;
    }
    if (p != end)
        return false;
    *ts = (int64_t)lt_days_from_civil(y, mo, d) * LT_USEC_PER_DAY + usec;
    return true;
}

/*
** Only text is converted.  A number in a date column is ambiguous: SQLite's
** own date functions read 2460369.5 as a Julian day and 1709164800 as one
** too unless told 'unixepoch', and millisecond epochs are common.  So a
** number stays the number it is (a tagged row) and the conversion to a
** date happens, if a client asks for one, where the ODBC rules apply.
*/
static bool to_instant(const sqlite_val *val, int64_t *ts, lt_batch *batch)
{
    if (val->cls != SQLITE_TEXT || val->n > 128)
        return false;
    lt_bytes b;
    if (val->enc != SQLITE_ENC_UTF8) {
        if (stable_bytes(batch, val, &b) != 0)
            return false;
    } else {
        b.ptr = (const char *)val->p;
        b.len = val->n;
    }
    return parse_iso(b.ptr, b.len, ts);
}

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static bool put_date(lt_batch *batch, lt_vector *v, uint32_t row,
                     const sqlite_val *val)
{
    int64_t ts;
    if (!to_instant(val, &ts, batch))
        return false;
    switch (v->type) {
    case LT_DATE:
        if (ts % LT_USEC_PER_DAY != 0)
            return false;   /* a time of day would be lost */
        v->v.date[row] = (int32_t)floor_div(ts, LT_USEC_PER_DAY);
        return true;
    case LT_TIMESTAMP:
        v->v.i64[row] = ts;
        return true;
    default:
        return false;
    }
}

static bool put_time(lt_vector *v, uint32_t row, const sqlite_val *val)
{
    if (val->cls != SQLITE_TEXT || val->enc != SQLITE_ENC_UTF8)
        return false;
    const char *p = (const char *)val->p, *end = p + val->n;
    int64_t usec;
    if (!parse_time(&p, end, &usec) || p != end)
        return false;
    v->v.i64[row] = usec;
    return true;
}

/* ---- putting a value --------------------------------------------------------- */

/* An integer a double holds exactly. */
static bool int_fits_double(int64_t i)
{
    if (i >= -(INT64_C(1) << 53) && i <= (INT64_C(1) << 53))
        return true;
    double d = (double)i;
    return d > -9223372036854775808.0 && d < 9223372036854775808.0 && (int64_t)d == i;
}

int sqlite_put(lt_batch *batch, uint32_t col, uint32_t row,
               const sqlite_val *val)
{
    lt_vector *v = &batch->cols[col];
    if (val->cls == SQLITE_NULL) {
        v->nulls[row] = 1;
        return 0;
    }
    v->nulls[row] = 0;
    switch (v->type) {
    case LT_INT64:
        if (val->cls == SQLITE_INT) {
            v->v.i64[row] = val->i;
            return 0;
        }
        break;
    case LT_DOUBLE:
        if (val->cls == SQLITE_REAL) {
            v->v.f64[row] = val->r;
            return 0;
        }
        /* SQLite itself reads integers of REAL columns as REAL; elsewhere
        ** (NUMERIC) only when exact. */
        if (val->cls == SQLITE_INT) {
            v->v.f64[row] = (double)val->i;
            if (int_fits_double(val->i))
                return 0;
        }
        break;
    case LT_TEXT:
        if (val->cls == SQLITE_TEXT)
            return stable_bytes(batch, val, &v->v.bytes[row]);
        break;
    case LT_BINARY:
        if (val->cls == SQLITE_BLOB)
            return stable_bytes(batch, val, &v->v.bytes[row]);
        break;
    case LT_BOOL:
        if (val->cls == SQLITE_INT && (val->i == 0 || val->i == 1)) {
            v->v.b[row] = (uint8_t)val->i;
            return 0;
        }
        break;
    case LT_DATE:
    case LT_TIMESTAMP:
        if (put_date(batch, v, row, val))
            return 0;
        break;
    case LT_TIME:
        if (put_time(v, row, val))
            return 0;
        break;
    default:
        break;
    }
    return put_tagged(batch, v, row, val);
}

/* ---- DEFAULT values ------------------------------------------------------------ */

/* A REAL that is an integer in int64's range becomes INTEGER
** (sqlite3VdbeIntegerAffinity). */
void sqlite_integer_affinity(sqlite_val *v)
{
    if (v->cls != SQLITE_REAL)
        return;
    double r = v->r;
    if (r > -9223372036854775808.0 && r < 9223372036854775807.0) {
        int64_t i = (int64_t)r;
        if ((double)i == r && i > INT64_MIN && i < INT64_MAX) {
            v->cls = SQLITE_INT;
            v->i = i;
        }
    }
}

static int set_text(sqlite_val *v, const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p == NULL)
        return -1;
    memcpy(p, s, n);
    p[n] = '\0';
    v->cls = SQLITE_TEXT;
    v->enc = SQLITE_ENC_UTF8;
    v->p = (const uint8_t *)p;
    v->n = (uint32_t)n;
    return 0;
}

/* applyAffinity() for a constant (bytes malloc'ed and replaced as needed). */
static int apply_affinity(sqlite_val *v, uint8_t affinity)
{
    if (affinity == SQLITE_AFF_TEXT) {
        char tmp[64];
        if (v->cls == SQLITE_INT) {
            int n = snprintf(tmp, sizeof tmp, "%lld", (long long)v->i);
            return set_text(v, tmp, (size_t)n);
        }
        if (v->cls == SQLITE_REAL) {
            size_t n = lt_sqlite_real_text(v->r, tmp, sizeof tmp);
            return set_text(v, tmp, n);
        }
        return 0;
    }
    if (affinity == SQLITE_AFF_BLOB)
        return 0;
    if (v->cls == SQLITE_TEXT) {
        int64_t i;
        double r;
        int kind = lt_sqlite_text_number((const char *)v->p, v->n, &i, &r);
        if (kind == 0)
            return 0;
        free((void *)v->p);
        v->p = NULL;
        v->n = 0;
        if (kind == 1) {
            v->cls = SQLITE_INT;
            v->i = i;
        } else {
            v->cls = SQLITE_REAL;
            v->r = r;
        }
    }
    if (affinity == SQLITE_AFF_REAL) {
        /* REAL affinity makes every number a REAL (an added column's
        ** DEFAULT 9223372036854775807 reads as 9.223372036854776e+18). */
        if (v->cls == SQLITE_INT) {
            v->cls = SQLITE_REAL;
            v->r = (double)v->i;
        }
        return 0;
    }
    sqlite_integer_affinity(v);
    return 0;
}

static int hex_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = tolower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int sqlite_default_value(const char *text, size_t len, uint8_t affinity,
                         sqlite_val *out)
{
    memset(out, 0, sizeof *out);
    const char *s = text, *e = text + len;
    /* "(5)" is the constant 5. */
    for (;;) {
        while (s < e && isspace((unsigned char)*s))
            s++;
        while (e > s && isspace((unsigned char)e[-1]))
            e--;
        if (e - s >= 2 && *s == '(' && e[-1] == ')') {
            s++;
            e--;
            continue;
        }
        break;
    }
    bool neg = false;
    while (s < e && (*s == '+' || *s == '-' || isspace((unsigned char)*s))) {
        if (*s == '-')
            neg = !neg;
        s++;
    }
    size_t n = (size_t)(e - s);
    if (n == 0)
        return -1;
    if (n == 4 && strncasecmp(s, "NULL", 4) == 0) {
        out->cls = SQLITE_NULL;
        return 0;
    }
    if ((n == 4 && strncasecmp(s, "TRUE", 4) == 0) || (n == 5 && strncasecmp(s, "FALSE", 5) == 0)) {
        out->cls = SQLITE_INT;
        out->i = n == 4;
        return apply_affinity(out, affinity);
    }
    if (*s == '\'' && n >= 2 && e[-1] == '\'') {
        if (neg)
            return -1;   /* -'x' is an expression */
        char *p = malloc(n);
        if (p == NULL)
            return -1;
        size_t o = 0;
        for (const char *q = s + 1; q < e - 1; q++) {
            p[o++] = *q;
            if (*q == '\'' && q + 1 < e - 1 && q[1] == '\'')
                q++;
        }
        p[o] = '\0';
        out->cls = SQLITE_TEXT;
        out->enc = SQLITE_ENC_UTF8;
        out->p = (const uint8_t *)p;
        out->n = (uint32_t)o;
        return apply_affinity(out, affinity);
    }
    if ((*s == 'x' || *s == 'X') && n >= 3 && s[1] == '\'' && e[-1] == '\'') {
        size_t hex = n - 3;
        if (hex % 2 != 0 || neg)
            return -1;
        uint8_t *p = malloc(hex / 2 + 1);
        if (p == NULL)
            return -1;
        for (size_t k = 0; k < hex / 2; k++) {
            int hi = hex_value((unsigned char)s[2 + 2 * k]), lo = hex_value((unsigned char)s[3 + 2 * k]);
            if (hi < 0 || lo < 0) {
                free(p);
                return -1;
            }
            p[k] = (uint8_t)(hi << 4 | lo);
        }
        out->cls = SQLITE_BLOB;
        out->p = p;
        out->n = (uint32_t)(hex / 2);
        return 0;
    }
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        uint64_t v = 0;
        for (size_t k = 2; k < n; k++) {
            int h = hex_value((unsigned char)s[k]);
            if (h < 0 || k >= 18)
                return -1;
            v = v << 4 | (uint64_t)h;
        }
        out->cls = SQLITE_INT;
        out->i = neg ? (int64_t)(0 - v) : (int64_t)v;
        return apply_affinity(out, affinity);
    }
    if (isdigit((unsigned char)*s) || *s == '.') {
        int64_t i;
        double r;
        int kind = lt_sqlite_text_number(s, n, &i, &r);
        if (kind == 0)
            return -1;
        bool plain_int = kind == 1 && i <= INT32_MAX;
        if (plain_int) {
            /* small integer literals are integers from the start */
            out->cls = SQLITE_INT;
            out->i = neg ? -i : i;
            return apply_affinity(out, affinity);
        }
        /* others keep their literal text until the affinity decides */
        char tmp[130];
        if (n + 2 > sizeof tmp)
            return -1;
        size_t k = 0;
        if (neg)
            tmp[k++] = '-';
        memcpy(tmp + k, s, n);
        k += n;
        if (set_text(out, tmp, k) != 0)
            return -1;
        return apply_affinity(out, affinity == SQLITE_AFF_BLOB ? SQLITE_AFF_NUMERIC : affinity);
    }
    return -1;   /* CURRENT_TIMESTAMP, expressions: not a stored constant */
}
