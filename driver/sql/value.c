/*
** value.c — reading numbers, dates and times from text; decimal helpers;
** converting a single value (constants and parameters) to another type.
*/
#include "value.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../readers/common/datetime.h"

lt_int128 sql_pow10(int n)
{
    lt_int128 p = 1;
    for (int i = 0; i < n && i < 38; i++)
        p *= 10;
    return p;
}

uint32_t sql_decimal_digits(lt_int128 m)
{
    if (m < 0)
        m = -m;
    uint32_t d = 1;
    while (m >= 10) {
        m /= 10;
        d++;
    }
    return d;
}

double sql_decimal_to_double(lt_int128 m, int scale)
{
    double d = (double)m;
    /* Powers of ten up to 1e22 are exact doubles: divide in such steps. */
    while (scale > 22) {
        d /= 1e22;
        scale -= 22;
    }
    static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
                                 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
                                 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    return scale > 0 ? d / p10[scale] : d;
}

int sql_decimal_rescale(lt_int128 m, int from, int to, lt_int128 *out)
{
    if (to >= from) {
        lt_int128 f = sql_pow10(to - from);
        lt_int128 lim = SQL_DEC_MAX / f;
        if (to - from > 38 || m > lim || m < -lim)
            return -1;
        *out = m * f;
        return 0;
    }
    int down = from - to;
    if (down > 38) {
        *out = 0;
        return 0;
    }
    lt_int128 f = sql_pow10(down);
    lt_int128 q = m / f, r = m % f;
    if (r < 0)
        r = -r;
    if (r * 2 >= f)
        q += m < 0 ? -1 : 1;
    *out = q;
    return 0;
}

lt_int128 sql_decimal_rescale_sat(lt_int128 m, int from, int to)
{
    lt_int128 out;
    if (sql_decimal_rescale(m, from, to, &out) == 0)
        return out;
    /* Beyond 38 digits: any value past the other operand's range will do. */
    lt_int128 big = SQL_DEC_MAX + 1;
    return m < 0 ? -big : big;
}

/* Trim blanks on both ends of [*s, *s + *len). */
static void trim(const char **s, size_t *len)
{
    while (*len > 0 && (**s == ' ' || **s == '\t' || **s == '\n' || **s == '\r'))
        (*s)++, (*len)--;
    while (*len > 0) {
        char c = (*s)[*len - 1];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            break;
        (*len)--;
    }
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool sql_parse_number(const char *s, size_t len, lt_value *out)
{
    memset(out, 0, sizeof *out);
    trim(&s, &len);
    size_t i = 0;
    bool neg = false;
    if (i < len && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    size_t int_start = i;
    while (i < len && is_digit(s[i]))
        i++;
    size_t int_digits = i - int_start, frac_digits = 0;
    bool point = false;
    if (i < len && s[i] == '.') {
        point = true;
        size_t f = ++i;
        while (i < len && is_digit(s[i]))
            i++;
        frac_digits = i - f;
    }
    if (int_digits + frac_digits == 0)
        return false;
    bool exponent = false;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        size_t e = i + 1;
        if (e < len && (s[e] == '+' || s[e] == '-'))
            e++;
        if (e >= len || !is_digit(s[e]))
            return false;
        while (e < len && is_digit(s[e]))
            e++;
        i = e;
        exponent = true;
    }
    if (i != len)
        return false;

    /* Significant digits: those after the leading zeros of the whole run. */
    lt_int128 m = 0;
    uint32_t sig = 0;
    bool too_long = false;
    for (size_t k = int_start; k < len && !exponent; k++) {
        if (s[k] == '.')
            continue;
        if (!is_digit(s[k]))
            break;
        if (sig == 0 && s[k] == '0')
            continue;
        if (++sig > SQL_DEC_MAX_DIGITS) {
            too_long = true;
            break;
        }
        m = m * 10 + (s[k] - '0');
    }
    if (!exponent && !too_long && frac_digits <= SQL_DEC_MAX_DIGITS) {
        if (neg)
            m = -m;
        if (!point && m >= INT64_MIN && m <= INT64_MAX) {
            out->type = LT_INT64;
            out->u.i64 = (int64_t)m;
        } else {
            out->type = LT_DECIMAL;
            out->scale = (int16_t)frac_digits;
            out->u.dec = m;
        }
        return true;
    }
    /* strtod needs a terminated copy; numbers longer than this are not
    ** numbers anyone writes. */
    char buf[512];
    if (len >= sizeof buf)
        return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    out->type = LT_DOUBLE;
    out->u.f64 = strtod(buf, NULL);
    return isfinite(out->u.f64);
}

/* Up to `max` digits (at least one) starting at *i; false when none. */
static bool read_digits(const char *s, size_t len, size_t *i, int min, int max,
                        int *value)
{
    int v = 0, n = 0;
    while (*i < len && n < max && is_digit(s[*i])) {
        v = v * 10 + (s[*i] - '0');
        (*i)++;
        n++;
    }
    *value = v;
    return n >= min;
}

static bool parse_date_at(const char *s, size_t len, size_t *i, int32_t *days)
{
    int y, m, d;
    if (!read_digits(s, len, i, 4, 4, &y) || *i >= len || s[*i] != '-')
        return false;
    (*i)++;
    if (!read_digits(s, len, i, 1, 2, &m) || *i >= len || s[*i] != '-')
        return false;
    (*i)++;
    if (!read_digits(s, len, i, 1, 2, &d) || !lt_date_valid(y, m, d))
        return false;
    *days = lt_days_from_civil(y, m, d);
    return true;
}

static bool parse_time_at(const char *s, size_t len, size_t *i, int64_t *usec)
{
    int h, mi, sec = 0, frac = 0;
    if (!read_digits(s, len, i, 1, 2, &h) || *i >= len || s[*i] != ':')
        return false;
    (*i)++;
    if (!read_digits(s, len, i, 2, 2, &mi))
        return false;
    if (*i < len && s[*i] == ':') {
        (*i)++;
        if (!read_digits(s, len, i, 2, 2, &sec))
            return false;
        if (*i < len && s[*i] == '.') {
            (*i)++;
            int n = 0;
            if (*i >= len || !is_digit(s[*i]))
                return false;
            /* Microseconds: the first six digits count, the rest (down to
            ** nanoseconds as ODBC allows) are dropped. */
            while (*i < len && is_digit(s[*i])) {
                if (n < 6)
                    frac = frac * 10 + (s[*i] - '0');
                n++;
                (*i)++;
            }
            if (n > 9)
                return false;
            for (; n < 6; n++)
                frac *= 10;
        }
    }
    if (h > 23 || mi > 59 || sec > 59)
        return false;
    *usec = ((int64_t)h * 3600 + mi * 60 + sec) * 1000000 + frac;
    return true;
}

bool sql_parse_date(const char *s, size_t len, int32_t *days)
{
    trim(&s, &len);
    size_t i = 0;
    return parse_date_at(s, len, &i, days) && i == len;
}

bool sql_parse_time(const char *s, size_t len, int64_t *usec)
{
    trim(&s, &len);
    size_t i = 0;
    return parse_time_at(s, len, &i, usec) && i == len;
}

bool sql_parse_timestamp(const char *s, size_t len, int64_t *usec)
{
    trim(&s, &len);
    size_t i = 0;
    int32_t days;
    int64_t t = 0;
    if (!parse_date_at(s, len, &i, &days))
        return false;
    if (i < len) {
        if (s[i] != ' ' && s[i] != 'T')
            return false;
        i++;
        if (!parse_time_at(s, len, &i, &t) || i != len)
            return false;
    }
    *usec = (int64_t)days * LT_USEC_PER_DAY + t;
    return true;
}

bool sql_parse_bool(const char *s, size_t len, bool *out)
{
    static const char *const yes[] = {"1", "t", "true", "y", "yes", "on"};
    static const char *const no[] = {"0", "f", "false", "n", "no", "off"};
    trim(&s, &len);
    for (size_t k = 0; k < sizeof yes / sizeof yes[0]; k++) {
        if (strlen(yes[k]) == len && strncasecmp(yes[k], s, len) == 0) {
            *out = true;
            return true;
        }
        if (strlen(no[k]) == len && strncasecmp(no[k], s, len) == 0) {
            *out = false;
            return true;
        }
    }
    return false;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool sql_parse_guid(const char *s, size_t len, lt_guid *out)
{
    trim(&s, &len);
    if (len == 38 && s[0] == '{' && s[37] == '}') {
        s++;
        len -= 2;
    }
    if (len != 36)
        return false;
    uint8_t b[16];
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (s[i] != '-')
                return false;
            continue;
        }
        int hi = hex_value(s[i]), lo = i + 1 < len ? hex_value(s[i + 1]) : -1;
        if (hi < 0 || lo < 0 || n >= sizeof b)
            return false;
        b[n++] = (uint8_t)(hi << 4 | lo);
        i++;
    }
    if (n != 16)
        return false;
    out->data1 = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
    out->data2 = (uint16_t)(b[4] << 8 | b[5]);
    out->data3 = (uint16_t)(b[6] << 8 | b[7]);
    memcpy(out->data4, b + 8, 8);
    return true;
}

const char *sql_type_name(lt_type t)
{
    switch (t) {
    case LT_NULL:      return "NULL";
    case LT_BOOL:      return "BOOLEAN";
    case LT_INT64:     return "INTEGER";
    case LT_DOUBLE:    return "DOUBLE";
    case LT_DECIMAL:   return "DECIMAL";
    case LT_TEXT:      return "TEXT";
    case LT_BINARY:    return "BINARY";
    case LT_DATE:      return "DATE";
    case LT_TIME:      return "TIME";
    case LT_TIMESTAMP: return "TIMESTAMP";
    case LT_GUID:      return "GUID";
    }
    return "?";
}

size_t sql_type_width(lt_type t)
{
    switch (t) {
    case LT_BOOL:      return sizeof(uint8_t);
    case LT_INT64:
    case LT_TIME:
    case LT_TIMESTAMP: return sizeof(int64_t);
    case LT_DATE:      return sizeof(int32_t);
    case LT_DOUBLE:    return sizeof(double);
    case LT_DECIMAL:   return sizeof(lt_int128);
    case LT_TEXT:
    case LT_BINARY:    return sizeof(lt_bytes);
    case LT_GUID:      return sizeof(lt_guid);
    case LT_NULL:      return sizeof(uint8_t);
    }
    return sizeof(lt_int128);
}

static int out_of_range(lt_error *err, lt_type to)
{
    return lt_error_set(err, "22003", "numeric value out of range for %s", sql_type_name(to));
}

/* A number (INT64, DOUBLE or DECIMAL) to another numeric type. */
static int convert_number(const lt_value *in, lt_type to, int16_t scale,
                          lt_value *out, lt_error *err)
{
    out->type = to;
    out->scale = to == LT_DECIMAL ? scale : 0;
    switch (to) {
    case LT_INT64:
        if (in->type == LT_INT64) {
            out->u.i64 = in->u.i64;
        } else if (in->type == LT_DOUBLE) {
            double d = trunc(in->u.f64);
            if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
                return out_of_range(err, to);
            out->u.i64 = (int64_t)d;
        } else {
            lt_int128 q = in->u.dec / sql_pow10(in->scale);
            if (q < INT64_MIN || q > INT64_MAX)
                return out_of_range(err, to);
            out->u.i64 = (int64_t)q;
        }
        return 0;
    case LT_DOUBLE:
        if (in->type == LT_INT64)
            out->u.f64 = (double)in->u.i64;
        else if (in->type == LT_DOUBLE)
            out->u.f64 = in->u.f64;
        else
            out->u.f64 = sql_decimal_to_double(in->u.dec, in->scale);
        return 0;
    case LT_DECIMAL:
        if (in->type == LT_DOUBLE) {
            double d = in->u.f64 * (double)sql_pow10(scale);
            d = round(d);
            if (!(fabs(d) < 1e38))
                return out_of_range(err, to);
            out->u.dec = (lt_int128)d;
            return 0;
        }
        lt_int128 m = in->type == LT_INT64 ? (lt_int128)in->u.i64 : in->u.dec;
        int from = in->type == LT_INT64 ? 0 : in->scale;
        if (sql_decimal_rescale(m, from, scale, &out->u.dec) != 0)
            return out_of_range(err, to);
        return 0;
    default:
        return -1;
    }
}

static bool is_number_type(lt_type t)
{
    return t == LT_INT64 || t == LT_DOUBLE || t == LT_DECIMAL;
}

static int from_text(const lt_value *in, lt_type to, int16_t scale,
                     lt_value *out, lt_error *err)
{
    const char *s = in->u.bytes.ptr;
    size_t len = in->u.bytes.len;
    int show = len > 60 ? 60 : (int)len;
    out->type = to;
    switch (to) {
    case LT_INT64:
    case LT_DOUBLE:
    case LT_DECIMAL: {
        lt_value num;
        if (!sql_parse_number(s, len, &num))
            return lt_error_set(err, "22018", "'%.*s' is not a number", show, s);
        if (to == LT_INT64 && num.type == LT_DECIMAL && num.u.dec % sql_pow10(num.scale) != 0)
            return lt_error_set(err, "22018", "'%.*s' is not an integer", show, s);
        return convert_number(&num, to, scale, out, err);
    }
    case LT_DATE: {
        int64_t ts;
        if (sql_parse_date(s, len, &out->u.date))
            return 0;
        /* A timestamp at midnight is a date too. */
        if (sql_parse_timestamp(s, len, &ts) && ts % LT_USEC_PER_DAY == 0) {
            out->u.date = (int32_t)(ts / LT_USEC_PER_DAY);
            return 0;
        }
        return lt_error_set(err, "22007", "'%.*s' is not a date (YYYY-MM-DD)", show, s);
    }
    case LT_TIME:
        if (sql_parse_time(s, len, &out->u.i64))
            return 0;
        return lt_error_set(err, "22007", "'%.*s' is not a time (HH:MM:SS)", show, s);
    case LT_TIMESTAMP:
        if (sql_parse_timestamp(s, len, &out->u.i64))
            return 0;
        return lt_error_set(err, "22007", "'%.*s' is not a timestamp (YYYY-MM-DD HH:MM:SS)", show, s);
    case LT_BOOL:
        if (sql_parse_bool(s, len, &out->u.b))
            return 0;
        return lt_error_set(err, "22018", "'%.*s' is not a boolean", show, s);
    case LT_GUID:
        if (sql_parse_guid(s, len, &out->u.guid))
            return 0;
        return lt_error_set(err, "22018", "'%.*s' is not a GUID", show, s);
    case LT_TEXT:
    case LT_BINARY:
        out->u.bytes = in->u.bytes;
        return 0;
    default:
        return lt_error_set(err, "07006", "cannot convert TEXT to %s", sql_type_name(to));
    }
}

int sql_convert_value(const lt_value *in, lt_type to, int16_t scale,
                      lt_value *out, lt_error *err)
{
    if (in->type == LT_NULL) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    if (in->type == to && (to != LT_DECIMAL || in->scale == scale)) {
        *out = *in;
        return 0;
    }
    lt_value tmp;
    memset(&tmp, 0, sizeof tmp);
    if (in->type == LT_TEXT) {
        if (from_text(in, to, scale, &tmp, err) != 0)
            return -1;
    } else if (is_number_type(in->type) && is_number_type(to)) {
        if (convert_number(in, to, scale, &tmp, err) != 0)
            return -1;
    } else if (in->type == LT_BOOL && (to == LT_INT64 || to == LT_DOUBLE || to == LT_DECIMAL)) {
        lt_value i = {.type = LT_INT64, .u.i64 = in->u.b ? 1 : 0};
        if (convert_number(&i, to, scale, &tmp, err) != 0)
            return -1;
    } else if (in->type == LT_DATE && to == LT_TIMESTAMP) {
        tmp.type = LT_TIMESTAMP;
        tmp.u.i64 = (int64_t)in->u.date * LT_USEC_PER_DAY;
    } else if (in->type == LT_TIMESTAMP && to == LT_DATE) {
        int64_t usec;
        tmp.type = LT_DATE;
        lt_timestamp_split(in->u.i64, &tmp.u.date, &usec);
    } else if (in->type == LT_BINARY && to == LT_TEXT) {
        tmp.type = LT_TEXT;
        tmp.u.bytes = in->u.bytes;
    } else {
        return lt_error_set(err, "07006", "cannot convert %s to %s",
                            sql_type_name(in->type), sql_type_name(to));
    }
    *out = tmp;
    return 0;
}
