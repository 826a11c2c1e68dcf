/*
** func_string.c — the string functions (func.h): ODBC's set (ASCII, CHAR,
** CONCAT, INSERT, LCASE, LEFT, LENGTH, LOCATE, LTRIM, REPEAT, REPLACE,
** RIGHT, RTRIM, SPACE, SUBSTRING, UCASE, CHAR_LENGTH, OCTET_LENGTH,
** BIT_LENGTH, POSITION) and the standard's names for some (UPPER, LOWER,
** TRIM, CHARACTER_LENGTH, SUBSTR).
**
** Characters are Unicode code points over UTF-8: LENGTH('é') is 1, LEFT
** and SUBSTRING count characters, never split one.  A character starts at
** every byte that is not a UTF-8 continuation byte (the lexer counts
** columns the same way), so malformed text is counted, not rejected.
** Case mapping covers ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic
** (letters whose both cases take two bytes in UTF-8, so the text keeps its
** length); other characters are left as they are.
**
** Arguments arrive as TEXT (numbers and dates already written as text) or
** INT64 vectors; rows where an argument is NULL give NULL, except in
** CONCAT, which reads NULL as '' (as SQL Server and SQLite do).
*/
#include "exec.h"
#include "func.h"
#include "collate.h"

#include <string.h>

/* ------------------------------------------------------------------------ */
/* Characters                                                                */
/* ------------------------------------------------------------------------ */

static bool is_cont(char c)
{
    return ((unsigned char)c & 0xC0) == 0x80;
}

/* Byte offset of character k (0-based) of s, len when past the end. */
static uint32_t char_offset(const char *s, uint32_t len, int64_t k)
{
    if (k <= 0)
        return 0;
    uint32_t i = 0;
    for (int64_t seen = -1; i < len; i++) {
        if (!is_cont(s[i]) && ++seen == k)
            return i;
    }
    return len;
}

static uint32_t char_count(const char *s, uint32_t len)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < len; i++)
        n += !is_cont(s[i]);
    return n;
}

/* Bytes of the character starting at s[i] (at least 1). */
static uint32_t char_bytes(const char *s, uint32_t len, uint32_t i)
{
    uint32_t j = i + 1;
    while (j < len && is_cont(s[j]))
        j++;
    return j - i;
}

/* The code point at s[i] (a malformed sequence: its first byte). */
static uint32_t decode(const char *s, uint32_t len, uint32_t i)
{
    const unsigned char *u = (const unsigned char *)s + i;
    uint32_t n = char_bytes(s, len, i);
    if (u[0] >= 0xC0 && u[0] < 0xE0 && n == 2)
        return (uint32_t)(u[0] & 0x1F) << 6 | (u[1] & 0x3F);
    if (u[0] >= 0xE0 && u[0] < 0xF0 && n == 3)
        return (uint32_t)(u[0] & 0x0F) << 12 | (uint32_t)(u[1] & 0x3F) << 6 | (u[2] & 0x3F);
    if (u[0] >= 0xF0 && u[0] < 0xF8 && n == 4)
        return (uint32_t)(u[0] & 0x07) << 18 | (uint32_t)(u[1] & 0x3F) << 12 |
               (uint32_t)(u[2] & 0x3F) << 6 | (u[3] & 0x3F);
    return u[0];
}

static uint32_t encode(uint32_t c, char *out)
{
    if (c < 0x80) {
        out[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (char)(0xC0 | c >> 6);
        out[1] = (char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (char)(0xE0 | c >> 12);
        out[1] = (char)(0x80 | (c >> 6 & 0x3F));
        out[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | c >> 18);
    out[1] = (char)(0x80 | (c >> 12 & 0x3F));
    out[2] = (char)(0x80 | (c >> 6 & 0x3F));
    out[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

/* Latin Extended-A pairs an upper-case letter with the next code point,
** even-odd, except in two runs where they pair odd-even. */
static bool latin_a_odd_upper(uint32_t c)
{
    return (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
}

static bool latin_a_cased(uint32_t c)
{
    return c >= 0x100 && c <= 0x17F && c != 0x130 && c != 0x131 && c != 0x138 &&
           c != 0x149 && c != 0x178 && c != 0x17F;
}

static uint32_t to_upper(uint32_t c)
{
    if (c >= 'a' && c <= 'z')
        return c - 32;
    if (c < 0x80)
        return c;
    if (c >= 0xE0 && c <= 0xFE && c != 0xF7)
        return c - 32;
    if (c == 0xFF)
        return 0x178;
    if (latin_a_cased(c))
        return latin_a_odd_upper(c) ? (c % 2 == 0 ? c - 1 : c) : (c % 2 == 1 ? c - 1 : c);
    if (c >= 0x3B1 && c <= 0x3C9)
        return c == 0x3C2 ? 0x3A3 : c - 32;
    if (c >= 0x430 && c <= 0x44F)
        return c - 32;
    if (c >= 0x450 && c <= 0x45F)
        return c - 80;
    return c;
}

static uint32_t to_lower(uint32_t c)
{
    if (c >= 'A' && c <= 'Z')
        return c + 32;
    if (c < 0x80)
        return c;
    if (c >= 0xC0 && c <= 0xDE && c != 0xD7)
        return c + 32;
    if (c == 0x178)
        return 0xFF;
    if (latin_a_cased(c))
        return latin_a_odd_upper(c) ? (c % 2 == 1 ? c + 1 : c) : (c % 2 == 0 ? c + 1 : c);
    if (c >= 0x391 && c <= 0x3A9 && c != 0x3A2)
        return c + 32;
    if (c >= 0x410 && c <= 0x42F)
        return c + 32;
    if (c >= 0x400 && c <= 0x40F)
        return c + 80;
    return c;
}

uint32_t sql_char_lower(uint32_t c)
{
    return to_lower(c);
}

uint32_t sql_utf8_put(uint32_t c, char *out)
{
    return encode(c, out);
}

uint32_t sql_utf8_char(const char *s, uint32_t len, uint32_t i, uint32_t *bytes)
{
    *bytes = char_bytes(s, len, i);
    return decode(s, len, i);
}

/* ------------------------------------------------------------------------ */
/* The functions                                                             */
/* ------------------------------------------------------------------------ */

static lt_bytes text(const sql_fcall *c, uint32_t a, uint32_t row)
{
    return c->args[a]->v.bytes[row];
}

static int64_t integer(const sql_fcall *c, uint32_t a, uint32_t row)
{
    return c->args[a]->v.i64[row];
}

/* The result of row `row` is s[from, to) of its first argument: no copy. */
static void slice(sql_fcall *c, uint32_t row, lt_bytes s, uint32_t from, uint32_t to)
{
    c->out->v.bytes[row].ptr = s.ptr + from;
    c->out->v.bytes[row].len = to > from ? to - from : 0;
}

static int fn_ascii(sql_fcall *c)
{
    SQL_EACH_ROW(c, row) {
        lt_bytes s = text(c, 0, row);
        if (s.len == 0)
            c->out->nulls[row] = 1;
        else
            c->out->v.i64[row] = decode(s.ptr, s.len, 0);
    }
    return 0;
}

static int fn_char(sql_fcall *c)
{
    SQL_EACH_ROW(c, row) {
        int64_t cp = integer(c, 0, row);
        if (cp < 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            c->out->nulls[row] = 1;
            continue;
        }
        char buf[4];
        uint32_t n = encode((uint32_t)cp, buf);
        char *p = sql_fcall_text(c, row, n);
        if (p == NULL)
            return -1;
        memcpy(p, buf, n);
    }
    return 0;
}

static int fn_concat(sql_fcall *c)
{
    for (uint32_t i = 0; i < c->n; i++) {
        uint32_t row = c->sel[i];
        size_t len = 0;
        for (uint32_t a = 0; a < c->e->nargs; a++) {
            const lt_vector *v = c->args[a];
            if (v->type != LT_NULL && !v->nulls[row])
                len += v->v.bytes[row].len;
        }
        char *p = sql_fcall_text(c, row, len);
        if (p == NULL)
            return -1;
        for (uint32_t a = 0; a < c->e->nargs; a++) {
            const lt_vector *v = c->args[a];
            if (v->type == LT_NULL || v->nulls[row] || v->v.bytes[row].len == 0)
                continue;
            memcpy(p, v->v.bytes[row].ptr, v->v.bytes[row].len);
            p += v->v.bytes[row].len;
        }
    }
    return 0;
}

/* INSERT(s, start, length, t): s with `length` characters from `start`
** replaced by t; a start outside s leaves s as it is (as MySQL does). */
static int fn_insert(sql_fcall *c)
{
    SQL_EACH_ROW(c, row) {
        lt_bytes s = text(c, 0, row), t = text(c, 3, row);
        int64_t start = integer(c, 1, row), count = integer(c, 2, row);
        uint32_t chars = char_count(s.ptr, s.len);
        if (start < 1 || start > (int64_t)chars) {
            slice(c, row, s, 0, s.len);
            continue;
        }
        uint32_t from = char_offset(s.ptr, s.len, start - 1);
        uint32_t to = count < 0 || count > (int64_t)chars ? s.len
                                                          : char_offset(s.ptr, s.len, start - 1 + count);
        char *p = sql_fcall_text(c, row, (size_t)from + t.len + (s.len - to));
        if (p == NULL)
            return -1;
        memcpy(p, s.ptr, from);
        if (t.len)
            memcpy(p + from, t.ptr, t.len);
        memcpy(p + from + t.len, s.ptr + to, s.len - to);
    }
    return 0;
}

/* UCASE, LCASE: ASCII bytes directly; two-byte characters (where every
** letter mapped lives, both cases the same length) decoded and mapped;
** anything else copied. */
static int change_case(sql_fcall *c, bool upper)
{
    uint32_t (*map)(uint32_t) = upper ? to_upper : to_lower;
    const unsigned char from = upper ? 'a' : 'A', to = upper ? 'z' : 'Z';
    SQL_EACH_ROW(c, row) {
        lt_bytes s = text(c, 0, row);
        const unsigned char *in = (const unsigned char *)s.ptr;
        char *p = sql_fcall_text(c, row, s.len);
        if (p == NULL)
            return -1;
        for (uint32_t i = 0; i < s.len; i++) {
            unsigned char b = in[i];
            if (b < 0x80) {
                p[i] = (char)(b >= from && b <= to ? b ^ 0x20 : b);
            } else if (b >= 0xC0 && b < 0xE0 && i + 1 < s.len && (in[i + 1] & 0xC0) == 0x80) {
                uint32_t m = map((uint32_t)(b & 0x1F) << 6 | (in[i + 1] & 0x3F));
                p[i] = (char)(0xC0 | m >> 6);
                p[++i] = (char)(0x80 | (m & 0x3F));
            } else {
                p[i] = (char)b;
            }
        }
    }
    return 0;
}

static int fn_upper(sql_fcall *c) { return change_case(c, true); }
static int fn_lower(sql_fcall *c) { return change_case(c, false); }

static int fn_left(sql_fcall *c)
{
    SQL_EACH_ROW(c, row) {
        lt_bytes s = text(c, 0, row);
        slice(c, row, s, 0, char_offset(s.ptr, s.len, integer(c, 1, row)));
    }
    return 0;
}

static int fn_right(sql_fcall *c)
{
    SQL_EACH_ROW(c, row) {
        lt_bytes s = text(c, 0, row);
        int64_t k = integer(c, 1, row), chars = char_count(s.ptr, s.len);
        slice(c, row, s, k >= chars ? 0 : char_offset(s.ptr, s.len, k <= 0 ? chars : chars - k), s.len);
    }
    return 0;
}

/* ODBC's LENGTH: characters, trailing blanks not counted. */
static int fn_length(sql_fcall *c)
{
    SQL_EACH_ROW(c, row) {
        lt_bytes s = text(c, 0, row);
        uint32_t len = s.len;
        while (len > 0 && s.ptr[len - 1] == ' ')
            len--;
        c->out->v.i64[row] = char_count(s.ptr, len);
    }
    return 0;
}

static int fn_char_length(sql_fcall *c)
{
    SQL_EACH_ROW(c, row) {
        lt_bytes s = text(c, 0, row);
        c->out->v.i64[row] = char_count(s.ptr, s.len);
    }
    return 0;
}

static int fn_octet_length(sql_fcall *c)
{
    SQL_EACH_ROW(c, row)
        c->out->v.i64[row] = text(c, 0, row).len;
    return 0;
}

static int fn_bit_length(sql_fcall *c)
{
    SQL_EACH_ROW(c, row)
        c->out->v.i64[row] = (int64_t)text(c, 0, row).len * 8;
    return 0;
}

/* The 1-based character position of `needle` in `hay` at or after
** character `start` (1-based), 0 when absent. */
static int64_t find(lt_bytes needle, lt_bytes hay, int64_t start)
{
    if (start < 1)
        return 0;
    uint32_t from = char_offset(hay.ptr, hay.len, start - 1);
    if (from == hay.len && start - 1 > (int64_t)char_count(hay.ptr, hay.len))
        return 0;
    for (uint32_t i = from; i + needle.len <= hay.len; i++) {
        if (i < hay.len && is_cont(hay.ptr[i]))
            continue;
        if (needle.len == 0 || memcmp(hay.ptr + i, needle.ptr, needle.len) == 0)
            return (int64_t)char_count(hay.ptr, i) + 1;
    }
    return 0;
}

/* LOCATE(needle, haystack [, start]) and POSITION(needle IN haystack). */
static int fn_locate(sql_fcall *c)
{
    SQL_EACH_ROW(c, row)
        c->out->v.i64[row] = find(text(c, 0, row), text(c, 1, row),
                                  c->e->nargs > 2 ? integer(c, 2, row) : 1);
    return 0;
}

/* Is the character at s[i] (n bytes) one of `set`'s? */
static bool in_set(lt_bytes set, const char *ch, uint32_t n)
{
    for (uint32_t k = 0; k < set.len;) {
        uint32_t m = char_bytes(set.ptr, set.len, k);
        if (m == n && memcmp(set.ptr + k, ch, n) == 0)
            return true;
        k += m;
    }
    return false;
}

/* LTRIM, RTRIM, TRIM: blanks (or the characters of the second argument)
** off the start, the end or both. */
static int trim(sql_fcall *c, bool front, bool back)
{
    static const lt_bytes blank = {" ", 1};
    SQL_EACH_ROW(c, row) {
        lt_bytes s = text(c, 0, row), set = c->e->nargs > 1 ? text(c, 1, row) : blank;
        uint32_t from = 0, to = s.len;
        while (front && from < to) {
            uint32_t n = char_bytes(s.ptr, to, from);
            if (!in_set(set, s.ptr + from, n))
                break;
            from += n;
        }
        while (back && to > from) {
            uint32_t k = to - 1;
            while (k > from && is_cont(s.ptr[k]))
                k--;
            if (!in_set(set, s.ptr + k, to - k))
                break;
            to = k;
        }
        slice(c, row, s, from, to);
    }
    return 0;
}

static int fn_ltrim(sql_fcall *c) { return trim(c, true, false); }
static int fn_rtrim(sql_fcall *c) { return trim(c, false, true); }
static int fn_trim(sql_fcall *c) { return trim(c, true, true); }

static int repeat(sql_fcall *c, uint32_t row, lt_bytes s, int64_t times)
{
    if (times <= 0 || s.len == 0) {
        return sql_fcall_text(c, row, 0) == NULL ? -1 : 0;
    }
    if (times > (int64_t)SQL_TEXT_MAX / s.len + 1)
        times = SQL_TEXT_MAX / s.len + 1; /* long enough for the error */
    char *p = sql_fcall_text(c, row, (size_t)s.len * (size_t)times);
    if (p == NULL)
        return -1;
    for (int64_t k = 0; k < times; k++)
        memcpy(p + (size_t)k * s.len, s.ptr, s.len);
    return 0;
}

static int fn_repeat(sql_fcall *c)
{
    SQL_EACH_ROW(c, row)
        if (repeat(c, row, text(c, 0, row), integer(c, 1, row)) != 0)
            return -1;
    return 0;
}

static int fn_space(sql_fcall *c)
{
    static const lt_bytes blank = {" ", 1};
    SQL_EACH_ROW(c, row)
        if (repeat(c, row, blank, integer(c, 0, row)) != 0)
            return -1;
    return 0;
}

static int fn_replace(sql_fcall *c)
{
    SQL_EACH_ROW(c, row) {
        lt_bytes s = text(c, 0, row), from = text(c, 1, row), to = text(c, 2, row);
        if (from.len == 0 || from.len > s.len) {
            slice(c, row, s, 0, s.len);
            continue;
        }
        size_t hits = 0;
        for (uint32_t i = 0; i + from.len <= s.len;) {
            if (memcmp(s.ptr + i, from.ptr, from.len) == 0) {
                hits++;
                i += from.len;
            } else {
                i++;
            }
        }
        if (to.len > 0 && hits > SQL_TEXT_MAX / to.len)
            return lt_error_set(c->err, "22001", "the result of REPLACE would be longer than %u bytes",
                                SQL_TEXT_MAX);
        size_t len = s.len - hits * from.len + hits * to.len;
        char *p = sql_fcall_text(c, row, len);
        if (p == NULL)
            return -1;
        for (uint32_t i = 0; i < s.len;) {
            if (i + from.len <= s.len && memcmp(s.ptr + i, from.ptr, from.len) == 0) {
                if (to.len)
                    memcpy(p, to.ptr, to.len);
                p += to.len;
                i += from.len;
            } else {
                *p++ = s.ptr[i++];
            }
        }
    }
    return 0;
}

/* SUBSTRING(s, start [, length]) as the standard has it: the characters
** at positions start .. start + length - 1 that exist (start may be 0 or
** negative); a negative length is 22011. */
static int fn_substring(sql_fcall *c)
{
    SQL_EACH_ROW(c, row) {
        lt_bytes s = text(c, 0, row);
        int64_t start = integer(c, 1, row), end = INT64_MAX;
        if (c->e->nargs > 2) {
            int64_t len = integer(c, 2, row);
            if (len < 0)
                return lt_error_set(c->err, "22011", "SUBSTRING with a negative length (%lld)",
                                    (long long)len);
            end = start > INT64_MAX - len ? INT64_MAX : start + len;
        }
        if (start < 1)
            start = 1;
        if (end <= start) {
            slice(c, row, s, 0, 0);
            continue;
        }
        uint32_t from = char_offset(s.ptr, s.len, start - 1);
        uint32_t to = end == INT64_MAX ? s.len : char_offset(s.ptr, s.len, end - 1);
        slice(c, row, s, from, to);
    }
    return 0;
}

#define T SQL_ARG_TEXT
#define I SQL_ARG_INT
#define FN(name, min, max, a0, a1, a2, a3, result, size, eval, partial) \
    {name, min, max, SQL_AGG_NONE, {a0, a1, a2, a3}, result, size, eval, partial}

const sql_func sql_funcs_string[] = {
    FN("ASCII", 1, 1, T, T, T, T, SQL_RES_INT64, 10, fn_ascii, true),
    FN("CHAR", 1, 1, I, I, I, I, SQL_RES_TEXT, 1, fn_char, true),
    FN("CHR", 1, 1, I, I, I, I, SQL_RES_TEXT, 1, fn_char, true),
    FN("CONCAT", 1, SQL_ARGS_MANY, T, T, T, T, SQL_RES_CONCAT, 0, fn_concat, false),
    FN("INSERT", 4, 4, T, I, I, T, SQL_RES_TEXT, SQL_SIZE_UNKNOWN, fn_insert, false),
    FN("LCASE", 1, 1, T, T, T, T, SQL_RES_TEXT, SQL_SIZE_ARG0, fn_lower, false),
    FN("LOWER", 1, 1, T, T, T, T, SQL_RES_TEXT, SQL_SIZE_ARG0, fn_lower, false),
    FN("UCASE", 1, 1, T, T, T, T, SQL_RES_TEXT, SQL_SIZE_ARG0, fn_upper, false),
    FN("UPPER", 1, 1, T, T, T, T, SQL_RES_TEXT, SQL_SIZE_ARG0, fn_upper, false),
    FN("LEFT", 2, 2, T, I, I, I, SQL_RES_TEXT, SQL_SIZE_ARG0, fn_left, false),
    FN("RIGHT", 2, 2, T, I, I, I, SQL_RES_TEXT, SQL_SIZE_ARG0, fn_right, false),
    FN("LENGTH", 1, 1, T, T, T, T, SQL_RES_INT64, 10, fn_length, false),
    FN("CHAR_LENGTH", 1, 1, T, T, T, T, SQL_RES_INT64, 10, fn_char_length, false),
    FN("CHARACTER_LENGTH", 1, 1, T, T, T, T, SQL_RES_INT64, 10, fn_char_length, false),
    FN("OCTET_LENGTH", 1, 1, T, T, T, T, SQL_RES_INT64, 10, fn_octet_length, false),
    FN("BIT_LENGTH", 1, 1, T, T, T, T, SQL_RES_INT64, 10, fn_bit_length, false),
    FN("LOCATE", 2, 3, T, T, I, I, SQL_RES_INT64, 10, fn_locate, false),
    FN("POSITION", 2, 2, T, T, T, T, SQL_RES_INT64, 10, fn_locate, false),
    FN("LTRIM", 1, 2, T, T, T, T, SQL_RES_TEXT, SQL_SIZE_ARG0, fn_ltrim, false),
    FN("RTRIM", 1, 2, T, T, T, T, SQL_RES_TEXT, SQL_SIZE_ARG0, fn_rtrim, false),
    FN("TRIM", 1, 2, T, T, T, T, SQL_RES_TEXT, SQL_SIZE_ARG0, fn_trim, false),
    FN("REPEAT", 2, 2, T, I, I, I, SQL_RES_TEXT, SQL_SIZE_UNKNOWN, fn_repeat, false),
    FN("REPLACE", 3, 3, T, T, T, T, SQL_RES_TEXT, SQL_SIZE_UNKNOWN, fn_replace, false),
    FN("SPACE", 1, 1, I, I, I, I, SQL_RES_TEXT, SQL_SIZE_UNKNOWN, fn_space, false),
    FN("SUBSTRING", 2, 3, T, I, I, I, SQL_RES_TEXT, SQL_SIZE_ARG0, fn_substring, false),
    FN("SUBSTR", 2, 3, T, I, I, I, SQL_RES_TEXT, SQL_SIZE_ARG0, fn_substring, false),
};
const uint32_t sql_funcs_string_count = sizeof sql_funcs_string / sizeof sql_funcs_string[0];
