/*
** e2e_value.c — fetching one cell by its SQL type, rendering it in the
** oracle's canonical CSV form, and comparing it with an oracle field.
*/
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "e2e.h"

/* One value may take this long to arrive in pieces; past it the driver is
** reported as too slow instead of the test hanging until ctest kills it. */
#define VALUE_SECONDS 5.0

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

size_t e2e_piece = 64;
bool e2e_dynamic = false;

e2e_kind e2e_kind_of(SQLSMALLINT t)
{
    switch (t) {
    case SQL_TINYINT: case SQL_SMALLINT: case SQL_INTEGER: case SQL_BIGINT:
        return K_INT;
    case SQL_DOUBLE: case SQL_FLOAT: case SQL_REAL:
        return K_DOUBLE;
    case SQL_DECIMAL: case SQL_NUMERIC:
        return K_DECIMAL;
    case SQL_CHAR: case SQL_VARCHAR: case SQL_LONGVARCHAR:
    case SQL_WCHAR: case SQL_WVARCHAR: case SQL_WLONGVARCHAR:
        return K_TEXT;
    case SQL_BINARY: case SQL_VARBINARY: case SQL_LONGVARBINARY:
        return K_BINARY;
    case SQL_TYPE_DATE: case SQL_DATE:
        return K_DATE;
    case SQL_TYPE_TIME: case SQL_TIME:
        return K_TIME;
    case SQL_TYPE_TIMESTAMP: case SQL_TIMESTAMP:
        return K_TIMESTAMP;
    case SQL_BIT:
        return K_BIT;
    default:
        return K_OTHER;
    }
}

const char *e2e_kind_name(e2e_kind k)
{
    static const char *const names[] = {
        "integer", "double", "decimal", "text", "binary", "date", "time",
        "timestamp", "bit", "other"
    };
    return names[k];
}

static void add_hex(e2e_buf *out, const unsigned char *p, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    e2e_buf_adds(out, "\\x");
    for (size_t i = 0; i < n; i++) {
        char two[2] = { hex[p[i] >> 4], hex[p[i] & 15] };
        e2e_buf_add(out, two, 2);
    }
}

static void add_diag(e2e_buf *why, SQLHSTMT st, const char *what)
{
    e2e_diag d;
    e2e_diag_get(SQL_HANDLE_STMT, st, &d);
    e2e_buf_printf(why, "%s: %s", what, d.text);
}

/*
** SQLGetData in pieces of `piece` bytes.  `term` is the size of the
** terminator the driver writes (1 for SQL_C_CHAR, sizeof(SQLWCHAR) for
** SQL_C_WCHAR, 0 for SQL_C_BINARY).  The raw bytes go to `raw`.  Checks
** what the spec says of each piece: 01004 exactly when more follows, the
** indicator of the first call is the whole length (or SQL_NO_TOTAL), the
** terminator, and SQL_NO_DATA once everything has been returned.
*/
static int read_pieces(SQLHSTMT st, SQLUSMALLINT col, SQLSMALLINT ctype,
                       unsigned char *buf, size_t piece, size_t term,
                       e2e_buf *raw, bool *null, e2e_buf *why)
{
    size_t avail = term ? (piece / term - 1) * term : piece;
    SQLLEN first_ind = 0, prev_ind = SQL_NO_TOTAL;
    double start = now_seconds();
    *null = false;
    if (avail == 0) {
        e2e_buf_printf(why, "piece size %zu unusable", piece);
        return -1;
    }
    for (int call = 0;; call++) {
        SQLLEN ind = 0;
        memset(buf, 0xA5, piece < 4096 ? piece : 4096);
        SQLRETURN rc = SQLGetData(st, col, ctype, buf, (SQLLEN)piece, &ind);
        if (rc == SQL_NO_DATA) {
            if (call == 0) {
                e2e_buf_printf(why, "SQLGetData: SQL_NO_DATA on the first call");
                return -1;
            }
            e2e_buf_printf(why, "SQLGetData: SQL_NO_DATA before the last piece");
            return -1;
        }
        if (!SQL_SUCCEEDED(rc)) {
            add_diag(why, st, "SQLGetData");
            return -1;
        }
        if (ind == SQL_NULL_DATA) {
            if (call > 0) {
                e2e_buf_printf(why, "SQLGetData: SQL_NULL_DATA on piece %d", call + 1);
                return -1;
            }
            *null = true;
            return 0;
        }
        if (ind < 0 && ind != SQL_NO_TOTAL) {
            e2e_buf_printf(why, "SQLGetData: indicator %ld", (long)ind);
            return -1;
        }
        if (call == 0)
            first_ind = ind;
        /* The indicator is what remained before this call: the previous
        ** piece must have taken a full buffer (less the terminator). */
        if (call > 0 && prev_ind != SQL_NO_TOTAL && ind != SQL_NO_TOTAL &&
            prev_ind - ind != (SQLLEN)avail) {
            e2e_buf_printf(why, "SQLGetData: piece %d of a %zu-byte buffer "
                           "returned %ld bytes, not %zu (the indicator went from "
                           "%ld to %ld)", call, piece, (long)(prev_ind - ind),
                           avail, (long)prev_ind, (long)ind);
            return -1;
        }
        prev_ind = ind;
        bool truncated = rc == SQL_SUCCESS_WITH_INFO &&
                         e2e_diag_has(SQL_HANDLE_STMT, st, "01004");
        if (truncated) {
            if (ind != SQL_NO_TOTAL && (size_t)ind <= avail) {
                e2e_buf_printf(why, "SQLGetData: 01004 although the indicator "
                               "(%ld) fits the %zu-byte buffer", (long)ind, piece);
                return -1;
            }
            e2e_buf_add(raw, buf, avail);
            if (raw->len > (size_t)64 << 20) {
                e2e_buf_printf(why, "SQLGetData: more than 64 MiB, giving up");
                return -1;
            }
            if ((call & 63) == 63 && now_seconds() - start > VALUE_SECONDS) {
                e2e_buf_printf(why, "SQLGetData too slow: %d pieces of %zu bytes "
                               "(%zu of the %ld bytes the first indicator "
                               "announced) took over %.0f s", call + 1, piece,
                               raw->len, (long)first_ind, VALUE_SECONDS);
                return -1;
            }
            continue;
        }
        if (ind == SQL_NO_TOTAL || (size_t)ind > avail) {
            e2e_buf_printf(why, "SQLGetData: indicator %ld exceeds the %zu-byte "
                           "buffer but no 01004", (long)ind, piece);
            return -1;
        }
        for (size_t k = 0; k < term; k++)
            if (buf[(size_t)ind + k] != 0) {
                e2e_buf_printf(why, "SQLGetData: value of %ld bytes not "
                               "NUL-terminated", (long)ind);
                return -1;
            }
        e2e_buf_add(raw, buf, (size_t)ind);
        break;
    }
    if (first_ind != SQL_NO_TOTAL && (size_t)first_ind != raw->len) {
        e2e_buf_printf(why, "SQLGetData: first indicator said %ld bytes, %zu "
                       "arrived", (long)first_ind, raw->len);
        return -1;
    }
    SQLLEN ind = 0;
    SQLRETURN rc = SQLGetData(st, col, ctype, buf, (SQLLEN)piece, &ind);
    if (rc != SQL_NO_DATA) {
        e2e_buf_printf(why, "SQLGetData after the last piece returned %d, not "
                       "SQL_NO_DATA", (int)rc);
        return -1;
    }
    return 0;
}

static int get_pieces(SQLHSTMT st, SQLUSMALLINT col, SQLSMALLINT ctype,
                      size_t piece, size_t term, e2e_buf *raw, bool *null,
                      e2e_buf *why)
{
    unsigned char small[4096];
    unsigned char *buf = piece <= sizeof small ? small : malloc(piece);
    if (!buf) {
        fprintf(stderr, "e2e: out of memory\n");
        exit(2);
    }
    int rc = read_pieces(st, col, ctype, buf, piece, term, raw, null, why);
    if (buf != small)
        free(buf);
    return rc;
}

/* SQLGetData into a fixed-size C type.  Under e2e_dynamic a conversion
** the value's own type does not allow sets *retry (the caller asks again
** for text) and 01S07 sets out->truncated. */
static int get_fixed(SQLHSTMT st, SQLUSMALLINT col, SQLSMALLINT ctype,
                     void *v, SQLLEN size, e2e_cell *out, bool *retry,
                     e2e_buf *why)
{
    SQLLEN ind = 0;
    SQLRETURN rc = SQLGetData(st, col, ctype, v, size, &ind);
    *retry = false;
    if (!SQL_SUCCEEDED(rc)) {
        static const char *const conversions[] = { "22003", "22018", "22007", "07006" };
        for (size_t i = 0; e2e_dynamic && i < sizeof conversions / sizeof conversions[0]; i++)
            if (e2e_diag_has(SQL_HANDLE_STMT, st, conversions[i])) {
                *retry = true;
                return 0;
            }
        add_diag(why, st, "SQLGetData");
        return -1;
    }
    if (rc == SQL_SUCCESS_WITH_INFO && e2e_dynamic &&
        e2e_diag_has(SQL_HANDLE_STMT, st, "01S07"))
        out->truncated = true;
    out->null = ind == SQL_NULL_DATA;
    return 0;
}

static void add_timestamp(e2e_buf *out, const SQL_TIMESTAMP_STRUCT *ts)
{
    e2e_buf_printf(out, "%04d-%02u-%02u %02u:%02u:%02u", (int)ts->year,
                   (unsigned)ts->month, (unsigned)ts->day, (unsigned)ts->hour,
                   (unsigned)ts->minute, (unsigned)ts->second);
    if (ts->fraction) {
        char frac[16];
        snprintf(frac, sizeof frac, ".%09lu", (unsigned long)ts->fraction);
        size_t n = strlen(frac);
        while (n > 1 && frac[n - 1] == '0')
            n--;
        e2e_buf_add(out, frac, n);
    }
}

/* One typed SQLGetData of the cell; *retry_out asks for the text form. */
static int get_typed(SQLHSTMT st, SQLUSMALLINT col, e2e_kind kind, size_t piece,
                     e2e_cell *out, bool *retry_out, e2e_buf *why)
{
    bool retry = false;
    *retry_out = false;
    switch (kind) {
    case K_INT: {
        SQLBIGINT v = 0;
        if (get_fixed(st, col, SQL_C_SBIGINT, &v, sizeof v, out, &retry, why))
            return -1;
        *retry_out = retry;
        if (!out->null && !retry)
            e2e_buf_printf(&out->text, "%lld", (long long)v);
        return 0;
    }
    case K_DOUBLE: {
        SQLDOUBLE v = 0;
        if (get_fixed(st, col, SQL_C_DOUBLE, &v, sizeof v, out, &retry, why))
            return -1;
        *retry_out = retry;
        if (!out->null && !retry)
            e2e_buf_printf(&out->text, "%.17g", v);
        return 0;
    }
    case K_BIT: {
        SQLCHAR v = 0;
        if (get_fixed(st, col, SQL_C_BIT, &v, sizeof v, out, &retry, why))
            return -1;
        *retry_out = retry;
        if (!out->null && !retry)
            e2e_buf_printf(&out->text, "%u", (unsigned)v);
        return 0;
    }
    case K_DATE: {
        SQL_DATE_STRUCT d;
        memset(&d, 0, sizeof d);
        if (get_fixed(st, col, SQL_C_TYPE_DATE, &d, sizeof d, out, &retry, why))
            return -1;
        *retry_out = retry;
        if (!out->null && !retry)
            e2e_buf_printf(&out->text, "%04d-%02u-%02u", (int)d.year,
                           (unsigned)d.month, (unsigned)d.day);
        return 0;
    }
    case K_TIME: {
        SQL_TIME_STRUCT t;
        memset(&t, 0, sizeof t);
        if (get_fixed(st, col, SQL_C_TYPE_TIME, &t, sizeof t, out, &retry, why))
            return -1;
        *retry_out = retry;
        if (!out->null && !retry)
            e2e_buf_printf(&out->text, "%02u:%02u:%02u", (unsigned)t.hour,
                           (unsigned)t.minute, (unsigned)t.second);
        return 0;
    }
    case K_TIMESTAMP: {
        SQL_TIMESTAMP_STRUCT ts;
        memset(&ts, 0, sizeof ts);
        if (get_fixed(st, col, SQL_C_TYPE_TIMESTAMP, &ts, sizeof ts,
                      out, &retry, why))
            return -1;
        *retry_out = retry;
        if (!out->null && !retry)
            add_timestamp(&out->text, &ts);
        return 0;
    }
    case K_TEXT: {
        e2e_buf raw = {0};
        size_t why_len = why->len;
        int rc = get_pieces(st, col, SQL_C_WCHAR, piece, sizeof(SQLWCHAR),
                            &raw, &out->null, why);
        if (rc != 0 && e2e_dynamic && raw.len == 0 && piece < 512 &&
            e2e_diag_has(SQL_HANDLE_STMT, st, "22003")) {
            /* A number in a text column is never cut (22003 when its
            ** digits do not fit, 15 characters of a 64-byte piece with a
            ** 4-byte SQLWCHAR): ask again with room for any number. */
            why->len = why_len;
            rc = get_pieces(st, col, SQL_C_WCHAR, 512, sizeof(SQLWCHAR), &raw,
                            &out->null, why);
        }
        if (rc == 0 && !out->null) {
            if (raw.len % sizeof(SQLWCHAR)) {
                e2e_buf_printf(why, "SQL_C_WCHAR: %zu bytes is not a whole "
                               "number of SQLWCHARs", raw.len);
                rc = -1;
            } else {
                e2e_wide_to_utf8(&out->text, (const SQLWCHAR *)(void *)raw.ptr,
                                 raw.len / sizeof(SQLWCHAR));
            }
        }
        e2e_buf_free(&raw);
        return rc;
    }
    case K_BINARY: {
        e2e_buf raw = {0};
        int rc = get_pieces(st, col, SQL_C_BINARY, piece, 0, &raw, &out->null,
                            why);
        if (rc == 0 && !out->null)
            add_hex(&out->text, (const unsigned char *)raw.ptr, raw.len);
        e2e_buf_free(&raw);
        return rc;
    }
    case K_DECIMAL:
    case K_OTHER:
    default: {
        /* Decimals come as text: a buffer wide enough for any precision
        ** (a numeric cut short is 01004 or 22003, not a piece). */
        e2e_buf raw = {0};
        int rc = get_pieces(st, col, SQL_C_CHAR, kind == K_DECIMAL ? 512 : piece,
                            1, &raw, &out->null, why);
        if (rc == 0 && !out->null)
            e2e_render_char(kind, raw.ptr ? raw.ptr : "", raw.len, &out->text);
        e2e_buf_free(&raw);
        return rc;
    }
    }
}

int e2e_get_cell(SQLHSTMT st, SQLUSMALLINT col, e2e_kind kind, size_t piece,
                 e2e_cell *out, e2e_buf *why)
{
    e2e_buf_clear(&out->text);
    out->null = false;
    out->as_text = false;
    out->truncated = false;
    bool retry = false;
    int rc = get_typed(st, col, kind, piece, out, &retry, why);
    if (rc == 0 && retry) {
        /* Nothing was transferred: the same column again, as text. */
        rc = get_typed(st, col, K_TEXT, piece, out, &retry, why);
        out->as_text = true;
    }
    return rc;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = tolower(c);
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

void e2e_render_char(e2e_kind kind, const char *s, size_t len, e2e_buf *out)
{
    if (kind != K_BINARY) {
        e2e_buf_add(out, s, len);
        return;
    }
    /* SQL_C_CHAR of binary data is two hex digits per byte. */
    e2e_buf_adds(out, "\\x");
    for (size_t i = 0; i < len; i++) {
        if (hexval((unsigned char)s[i]) < 0) {
            e2e_buf_adds(out, "<not hex>");
            return;
        }
        char c = (char)tolower((unsigned char)s[i]);
        e2e_buf_add(out, &c, 1);
    }
}

/* ------------------------------------------------------------------------ */
/* Comparison                                                                */
/* ------------------------------------------------------------------------ */

/* An optional sign and digits only: returns the digits without leading
** zeros in digits and n, the sign in neg ("-0" is not negative). */
static bool parse_int(const char *s, size_t len, bool *neg, const char **digits,
                      size_t *n)
{
    size_t i = 0;
    *neg = false;
    if (i < len && (s[i] == '-' || s[i] == '+'))
        *neg = s[i++] == '-';
    if (i == len)
        return false;
    for (size_t k = i; k < len; k++)
        if (s[k] < '0' || s[k] > '9')
            return false;
    while (i + 1 < len && s[i] == '0')
        i++;
    *digits = s + i;
    *n = len - i;
    if (*n == 1 && s[i] == '0')
        *neg = false;
    return true;
}

static bool parse_double(const char *s, size_t len, double *out)
{
    char tmp[128];
    if (len == 0 || len >= sizeof tmp)
        return false;
    memcpy(tmp, s, len);
    tmp[len] = '\0';
    char *end = NULL;
    *out = strtod(tmp, &end);
    return end == tmp + len;
}

static bool num_equal(const char *a, size_t alen, const char *b, size_t blen,
                      bool *parsed)
{
    bool an, bn;
    const char *ad, *bd;
    size_t ai, bi;
    *parsed = true;
    if (parse_int(a, alen, &an, &ad, &ai) && parse_int(b, blen, &bn, &bd, &bi))
        return an == bn && ai == bi && memcmp(ad, bd, ai) == 0;
    double x, y;
    if (!parse_double(a, alen, &x) || !parse_double(b, blen, &y)) {
        *parsed = false;
        return false;
    }
    if (x == y)
        return true;
    if (isnan(x) || isnan(y))
        return isnan(x) && isnan(y);
    return fabs(x - y) <= 1e-9 * fmax(fabs(x), fabs(y));
}

/* An instant: a date and/or a time with a fraction in nanoseconds. */
typedef struct instant {
    long long date;   /* yyyymmdd, 0 when absent */
    long secs;        /* seconds of the day */
    long nanos;
} instant;

static bool digits_at(const char *s, size_t len, size_t at, size_t n, long *v)
{
    if (at + n > len)
        return false;
    *v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[at + i] < '0' || s[at + i] > '9')
            return false;
        *v = *v * 10 + (s[at + i] - '0');
    }
    return true;
}

static bool parse_instant(const char *s, size_t len, instant *out)
{
    long y, mo, d, h, mi, se;
    size_t i = 0;
    memset(out, 0, sizeof *out);
    bool neg = len > 0 && s[0] == '-';
    if (neg)
        i++;
    if (i + 10 <= len && s[i + 4] == '-' && s[i + 7] == '-') {
        if (!digits_at(s, len, i, 4, &y) || !digits_at(s, len, i + 5, 2, &mo) ||
            !digits_at(s, len, i + 8, 2, &d))
            return false;
        out->date = (neg ? -1 : 1) * (y * 10000 + mo * 100 + d);
        i += 10;
        if (i == len)
            return true;
        if (s[i] != ' ' && s[i] != 'T')
            return false;
        i++;
    } else if (neg) {
        return false;
    }
    if (!digits_at(s, len, i, 2, &h) || i + 2 >= len || s[i + 2] != ':' ||
        !digits_at(s, len, i + 3, 2, &mi))
        return false;
    /* ISO 8601 lets the seconds go ("2024-02-29 13:45"); SQLite's date
    ** functions read it, and so does the oracle's stored text. */
    se = 0;
    if (i + 5 == len) {
        out->secs = h * 3600 + mi * 60;
        return true;
    }
    if (s[i + 5] != ':' || !digits_at(s, len, i + 6, 2, &se))
        return false;
    out->secs = h * 3600 + mi * 60 + se;
    i += 8;
    if (i == len)
        return true;
    if (s[i] != '.')
        return false;
    long scale = 100000000;
    for (i++; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        out->nanos += (s[i] - '0') * scale;
        scale /= 10;
    }
    return true;
}

bool e2e_cell_equal(e2e_kind kind, bool got_null, const char *got, size_t got_len,
                    bool want_null, const char *want, size_t want_len)
{
    if (got_null || want_null)
        return got_null == want_null;
    bool parsed = false;
    switch (kind) {
    case K_INT: case K_DOUBLE: case K_DECIMAL: case K_BIT: {
        bool eq = num_equal(got, got_len, want, want_len, &parsed);
        if (parsed)
            return eq;
        break;
    }
    case K_DATE: case K_TIME: case K_TIMESTAMP: {
        instant a, b;
        if (parse_instant(got, got_len, &a) && parse_instant(want, want_len, &b))
            return a.date == b.date && a.secs == b.secs && a.nanos == b.nanos;
        break;
    }
    case K_TEXT:
        /* A boolean cell in a workbook's text column reads as Excel shows
        ** it (TRUE/FALSE, issue 7); the oracle writes every boolean cell as
        ** 1/0, whatever its column's type. */
        if (want_len == 1 && (want[0] == '1' || want[0] == '0')) {
            const char *shown = want[0] == '1' ? "TRUE" : "FALSE";
            if (got_len == strlen(shown) && memcmp(got, shown, got_len) == 0)
                return true;
        }
        break;
    default:
        break;
    }
    return got_len == want_len && (got_len == 0 || memcmp(got, want, got_len) == 0);
}

/* An oracle blob ("\x0aff"): its hex digits. */
static bool oracle_blob(const char *s, size_t len, const char **hex, size_t *n)
{
    if (len < 2 || s[0] != '\\' || s[1] != 'x')
        return false;
    *hex = s + 2;
    *n = len - 2;
    return true;
}

/* Hex digits (any case) to bytes in `out`; false when they are not hex. */
static bool unhex(const char *s, size_t len, e2e_buf *out)
{
    if (len % 2)
        return false;
    for (size_t i = 0; i < len; i += 2) {
        int hi = hexval((unsigned char)s[i]), lo = hexval((unsigned char)s[i + 1]);
        if (hi < 0 || lo < 0)
            return false;
        char c = (char)(hi * 16 + lo);
        e2e_buf_add(out, &c, 1);
    }
    return true;
}

/* Both numbers, at least one of them not a plain integer, equal within the
** tolerance: a REAL rendered by two programs ("6.0" and "6", "1e+300" and
** "1.0e+300").  Text that merely looks numeric ("+5", "0012") is compared
** by the plain rules, so integers must match digit for digit. */
static bool real_equal(const char *a, size_t alen, const char *b, size_t blen)
{
    bool n1, n2;
    const char *d1, *d2;
    size_t k1, k2;
    if (parse_int(a, alen, &n1, &d1, &k1) && parse_int(b, blen, &n2, &d2, &k2))
        return false;
    bool parsed = false;
    return num_equal(a, alen, b, blen, &parsed) && parsed;
}

/* A SQLite date number as the driver reads it when a date is asked for
** (readers/sqlite/README.md): a REAL is a Julian day, an INTEGER Unix
** seconds, rounded to the millisecond as SQLite rounds.  Writes its ISO
** text, only the date for K_DATE (the driver cut the time with 01S07). */
static bool date_number_iso(e2e_kind kind, const char *s, size_t len, char *out,
                            size_t cap)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    size_t sign = buf[0] == '-';
    long long ms;
    char *end;
    if (len > sign && strspn(buf + sign, "0123456789") == len - sign) {
        long long sec = strtoll(buf, &end, 10);
        if (sec < -210866760000LL || sec > 253402300799LL)
            return false;
        ms = sec * 1000 + 210866760000000LL;
    } else {
        double jd = strtod(buf, &end);
        if (*end != '\0' || !(jd >= 0.0 && jd < 5373484.5))
            return false;
        ms = (long long)(jd * 86400000.0 + 0.5);
    }
    long long u = ms - 210866760000000LL;           /* since 1970-01-01 */
    long long days = u / 86400000, rem = u % 86400000;
    if (rem < 0) {
        rem += 86400000;
        days--;
    }
    /* days to civil (proleptic Gregorian) */
    long long z = days + 719468;
    long long era = (z >= 0 ? z : z - 146096) / 146097;
    long long doe = z - era * 146097;
    long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long long mp = (5 * doy + 2) / 153;
    int d = (int)(doy - (153 * mp + 2) / 5 + 1);
    int m = (int)(mp < 10 ? mp + 3 : mp - 9);
    int y = (int)(yoe + era * 400 + (m <= 2));
    if (kind == K_DATE)
        snprintf(out, cap, "%04d-%02d-%02d", y, m, d);
    else
        snprintf(out, cap, "%04d-%02d-%02d %02d:%02d:%02d.%03d", y, m, d,
                 (int)(rem / 3600000), (int)(rem / 60000 % 60), (int)(rem / 1000 % 60),
                 (int)(rem % 1000));
    return true;
}

bool e2e_cell_match(e2e_kind kind, const e2e_cell *got, bool raw_binary,
                    bool want_null, const char *want, size_t want_len)
{
    const char *g = got->text.ptr ? got->text.ptr : "";
    size_t glen = got->text.len;
    if (!e2e_dynamic || got->null || want_null)
        return e2e_cell_equal(kind, got->null, g, glen, want_null, want, want_len);
    e2e_kind k = got->as_text ? K_TEXT : kind;
    char iso[64];
    if ((kind == K_DATE || kind == K_TIMESTAMP) && !got->as_text &&
        date_number_iso(kind, want, want_len, iso, sizeof iso) &&
        e2e_cell_equal(kind, false, g, glen, false, iso, strlen(iso)))
        return true;        /* a date number read as a date */
    if (got->truncated) {
        /* 01S07: the typed value is the oracle's cut toward zero. */
        double w, t;
        if (!parse_double(want, want_len, &w) || !parse_double(g, glen, &t))
            return false;
        return trunc(w) == t;
    }
    if (e2e_cell_equal(k, false, g, glen, false, want, want_len))
        return true;
    const char *hex;
    size_t nhex;
    bool blob = oracle_blob(want, want_len, &hex, &nhex);
    if (k == K_BINARY && raw_binary) {
        /* SQL_C_BINARY bytes ("\x.." here) of a value that is no blob: the
        ** bytes of its text, as sqlite3_column_blob() gives them. */
        if (blob || glen < 2)
            return false;
        e2e_buf bytes = {0};
        bool ok = unhex(g + 2, glen - 2, &bytes) &&
                  ((bytes.len == want_len &&
                    (want_len == 0 || memcmp(bytes.ptr, want, want_len) == 0)) ||
                   real_equal(e2e_buf_str(&bytes), bytes.len, want, want_len));
        e2e_buf_free(&bytes);
        return ok;
    }
    if (blob) {
        /* A blob delivered as characters: ODBC's hex digits. */
        if (glen != nhex)
            return false;
        for (size_t i = 0; i < glen; i++)
            if (tolower((unsigned char)g[i]) != tolower((unsigned char)hex[i]))
                return false;
        return true;
    }
    return real_equal(g, glen, want, want_len);
}

/* ------------------------------------------------------------------------ */
/* Whole results                                                             */
/* ------------------------------------------------------------------------ */

static void fnv(uint64_t *h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        *h ^= p[i];
        *h *= 1099511628211ULL;
    }
}

int e2e_result_checksum(SQLHSTMT st, size_t piece, uint64_t *sum, long *rows,
                        e2e_buf *why)
{
    e2e_col *cols = NULL;
    e2e_diag d;
    int ncols = e2e_describe(st, true, &cols, &d);
    if (ncols < 0) {
        e2e_buf_printf(why, "describe: %s", d.text);
        return -1;
    }
    uint64_t h = 14695981039346656037ULL;
    for (int c = 0; c < ncols; c++)
        fnv(&h, cols[c].name, strlen(cols[c].name) + 1);
    e2e_cell cell = {0};
    long n = 0;
    int rc = 0;
    for (;;) {
        SQLRETURN fr = SQLFetch(st);
        if (fr == SQL_NO_DATA)
            break;
        if (!SQL_SUCCEEDED(fr)) {
            add_diag(why, st, "SQLFetch");
            rc = -1;
            break;
        }
        for (int c = 0; c < ncols && rc == 0; c++) {
            if (e2e_get_cell(st, (SQLUSMALLINT)(c + 1), cols[c].kind, piece, &cell,
                             why)) {
                e2e_buf_printf(why, " (row %ld, column %s)", n + 1, cols[c].name);
                rc = -1;
                break;
            }
            fnv(&h, cell.null ? "\1" : "\2", 1);
            fnv(&h, cell.text.ptr ? cell.text.ptr : "", cell.text.len);
        }
        if (rc)
            break;
        fnv(&h, "\n", 1);
        n++;
    }
    e2e_buf_free(&cell.text);
    free(cols);
    *sum = h;
    if (rows)
        *rows = n;
    return rc;
}
