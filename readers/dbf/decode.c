/*
** decode.c — the fields of a batch of records into one column vector.
**
** One loop per field kind over the batch's records, so the per-value work is
** a few byte tests and no call through a pointer.  Text already valid UTF-8
** (ASCII) points into the mapped file, trimming being just a shorter length;
** other text is decoded into the batch's arena.  Values a field cannot hold
** (blank numbers, "********" overflow, impossible dates, '?' logicals) are
** NULL, as dBASE drivers read them.
*/
#include "dbf_internal.h"

#include <math.h>
#include <string.h>

#include "../common/codepage.h"
#include "../common/datetime.h"
#include "../common/endian.h"

/* Memos bigger than this are refused: their decoded text must fit lt_bytes. */
#define MAX_MEMO_BYTES 0x3FFFFFFFu

/* A VFP null bit of a field: the byte of the record holding it and a mask
** (mask 0: the field has no null bit). */
typedef struct null_bit {
    uint32_t offset;
    uint8_t mask;
} null_bit;

static null_bit bit_of(const dbf_table *t, int32_t bit)
{
    null_bit nb = {0, 0};
    if (bit >= 0 && (uint32_t)bit / 8 < t->nullflags_width) {
        nb.offset = t->nullflags_offset + (uint32_t)bit / 8;
        nb.mask = (uint8_t)(1u << (bit % 8));
    }
    return nb;
}

static inline bool is_set(const uint8_t *rec, null_bit nb)
{
    return nb.mask != 0 && (rec[nb.offset] & nb.mask) != 0;
}

/* Text in the table's code page as UTF-8: in place when ASCII. */
static int put_text(lt_bytes *out, const uint8_t *p, size_t len, int cp,
                    lt_arena *arena)
{
    if (lt_is_ascii(p, len)) {
        out->ptr = (const char *)p;
        out->len = (uint32_t)len;
        return 0;
    }
    char *dst = lt_arena_alloc(arena, LT_CODEPAGE_MAX_UTF8(len));
    if (dst == NULL)
        return -1;
    out->ptr = dst;
    out->len = (uint32_t)lt_codepage_decode(cp, p, len, dst);
    return 0;
}

/* Bytes as "\x0a1b..." text, for a picture or OLE object stored in a text
** memo field: the text column still shows exactly what is there. */
static int put_hex(lt_bytes *out, const uint8_t *p, size_t len, lt_arena *arena)
{
    static const char digits[] = "0123456789abcdef";
    char *dst = lt_arena_alloc(arena, 2 + 2 * len);
    if (dst == NULL)
        return -1;
    dst[0] = '\\';
    dst[1] = 'x';
    for (size_t i = 0; i < len; i++) {
        dst[2 + 2 * i] = digits[p[i] >> 4];
        dst[3 + 2 * i] = digits[p[i] & 15];
    }
    out->ptr = dst;
    out->len = (uint32_t)(2 + 2 * len);
    return 0;
}

static int64_t record_number(const dbf_table *t, const uint8_t *rec)
{
    return (int64_t)((size_t)(rec - t->file.data) - t->header_len) / t->record_len;
}

static int out_of_memory(const dbf_table *t, lt_error *err)
{
    return lt_error_set(err, "HY001", "out of memory decoding '%s'", t->path);
}

/* ---- text --------------------------------------------------------------- */

static int decode_char(const dbf_table *t, const dbf_field *f, const uint8_t *const *recs,
                       uint32_t n, lt_vector *v, lt_arena *arena, null_bit nb, lt_error *err)
{
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = recs[i] + f->offset;
        if (is_set(recs[i], nb)) {
            v->nulls[i] = 1;
            continue;
        }
        size_t len = f->width;
        while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\0'))
            len--;
        v->nulls[i] = 0;
        if (put_text(&v->v.bytes[i], p, len, t->codepage, arena) != 0)
            return out_of_memory(t, err);
    }
    return 0;
}

/* V and Q: full width, or the length in the last byte when the field's
** varlength bit is set. */
static int decode_var(const dbf_table *t, const dbf_field *f, const uint8_t *const *recs,
                      uint32_t n, lt_vector *v, lt_arena *arena, null_bit nb, lt_error *err)
{
    null_bit vb = bit_of(t, f->varbit);
    bool text = f->kind == DBF_VARCHAR;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = recs[i] + f->offset;
        if (is_set(recs[i], nb)) {
            v->nulls[i] = 1;
            continue;
        }
        size_t len = f->width;
        if (len > 0 && is_set(recs[i], vb) && p[len - 1] < len)
            len = p[len - 1];
        v->nulls[i] = 0;
        if (!text) {
            v->v.bytes[i].ptr = (const char *)p;
            v->v.bytes[i].len = (uint32_t)len;
        } else if (put_text(&v->v.bytes[i], p, len, t->codepage, arena) != 0) {
            return out_of_memory(t, err);
        }
    }
    return 0;
}

/* ---- numbers ------------------------------------------------------------ */

static void decode_num_int(const dbf_field *f, const uint8_t *const *recs, uint32_t n,
                           lt_vector *v, null_bit nb)
{
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = recs[i] + f->offset;
        int64_t x;
        dbf_number num;
        if (is_set(recs[i], nb)) {
            v->nulls[i] = 1;
        } else if (dbf_number_plain_int(p, f->width, &x)) {
            v->nulls[i] = 0;
            v->v.i64[i] = x;
        } else if (dbf_number_parse(p, f->width, &num) > 0 && dbf_number_int64(&num, &x)) {
            v->nulls[i] = 0;
            v->v.i64[i] = x;
        } else {
            v->nulls[i] = 1;
        }
    }
}

static void decode_num_decimal(const dbf_field *f, const uint8_t *const *recs, uint32_t n,
                               lt_vector *v, null_bit nb)
{
    for (uint32_t i = 0; i < n; i++) {
        dbf_number num;
        lt_int128 x;
        const uint8_t *p = recs[i] + f->offset;
        if (!is_set(recs[i], nb) &&
            (dbf_number_plain(p, f->width, &num) || dbf_number_parse(p, f->width, &num) > 0) &&
            dbf_number_decimal(&num, f->scale, &x)) {
            v->nulls[i] = 0;
            v->v.dec[i] = x;
        } else {
            v->nulls[i] = 1;
        }
    }
}

static void decode_num_double(const dbf_field *f, const uint8_t *const *recs, uint32_t n,
                              lt_vector *v, null_bit nb)
{
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = recs[i] + f->offset;
        int64_t x;
        double d;
        dbf_number num;
        if (is_set(recs[i], nb)) {
            v->nulls[i] = 1;
        } else if (dbf_number_plain_int(p, f->width, &x)) {
            /* int64 -> double rounds to nearest, as strtod would. */
            v->nulls[i] = 0;
            v->v.f64[i] = (double)x;
        } else if ((dbf_number_plain(p, f->width, &num) || dbf_number_parse(p, f->width, &num) > 0) &&
                   dbf_number_double(&num, &d)) {
            v->nulls[i] = 0;
            v->v.f64[i] = d;
        } else {
            v->nulls[i] = 1;
        }
    }
}

/* ---- dates, logicals ---------------------------------------------------- */

static bool is_space(uint8_t c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* D: YYYYMMDD.  Only blanks, zeros and NULs: NULL (an empty date); other
** text must be 8 digits between blanks and make a real date. */
static bool parse_date(const uint8_t *p, size_t n, int32_t *out)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (p[i] != ' ' && p[i] != '0' && p[i] != '\0')
            break;
    if (i == n)
        return false;
    size_t lo = 0, hi = n;
    while (lo < hi && is_space(p[lo])) lo++;
    while (hi > lo && is_space(p[hi - 1])) hi--;
    if (hi - lo != 8)
        return false;
    int num[8];
    for (i = 0; i < 8; i++) {
        uint8_t c = p[lo + i];
        if (c < '0' || c > '9')
            return false;
        num[i] = c - '0';
    }
    int y = num[0] * 1000 + num[1] * 100 + num[2] * 10 + num[3];
    int m = num[4] * 10 + num[5];
    int d = num[6] * 10 + num[7];
    if (!lt_date_valid(y, m, d))
        return false;
    *out = lt_days_from_civil(y, m, d);
    return true;
}

static void decode_date(const dbf_field *f, const uint8_t *const *recs, uint32_t n,
                        lt_vector *v, null_bit nb)
{
    for (uint32_t i = 0; i < n; i++) {
        int32_t days;
        if (!is_set(recs[i], nb) && parse_date(recs[i] + f->offset, f->width, &days)) {
            v->nulls[i] = 0;
            v->v.date[i] = days;
        } else {
            v->nulls[i] = 1;
        }
    }
}

static void decode_logical(const dbf_field *f, const uint8_t *const *recs, uint32_t n,
                           lt_vector *v, null_bit nb)
{
    for (uint32_t i = 0; i < n; i++) {
        uint8_t c = f->width ? recs[i][f->offset] : ' ';
        if (is_set(recs[i], nb)) {
            v->nulls[i] = 1;
        } else if (c == 'T' || c == 't' || c == 'Y' || c == 'y') {
            v->nulls[i] = 0;
            v->v.b[i] = 1;
        } else if (c == 'F' || c == 'f' || c == 'N' || c == 'n') {
            v->nulls[i] = 0;
            v->v.b[i] = 0;
        } else {
            v->nulls[i] = 1;      /* '?' or blank: not initialised */
        }
    }
}

/* ---- binary numbers and datetimes --------------------------------------- */

/* dBASE 7 doubles sort as bytes: big-endian, sign bit set for positives,
** every bit inverted for negatives.  Eight zero bytes are an empty value. */
static bool db7_double(const uint8_t *p, double *out)
{
    uint64_t u = lt_be64(p);
    if (u == 0)
        return false;
    u = (u & UINT64_C(0x8000000000000000)) ? u ^ UINT64_C(0x8000000000000000) : ~u;
    memcpy(out, &u, sizeof *out);
    return isfinite(*out);
}

/* T: Julian day number and milliseconds of the day.  Day 0 or an all-blank
** field is empty; days outside years 1..9999 are NULL. */
static bool vfp_datetime(const uint8_t *p, int64_t *out)
{
    static const int64_t first_jdn = 1721426;   /* 0001-01-01 */
    static const int64_t last_jdn = 5373484;    /* 9999-12-31 */
    int64_t day = (int32_t)lt_le32(p);
    int64_t ms = (int32_t)lt_le32(p + 4);
    if (day == 0 || day < first_jdn || day > last_jdn)
        return false;
    int64_t ts = (int64_t)lt_days_from_julian(day) * LT_USEC_PER_DAY + ms * 1000;
    int64_t min = (int64_t)lt_days_from_julian(first_jdn) * LT_USEC_PER_DAY;
    int64_t max = ((int64_t)lt_days_from_julian(last_jdn) + 1) * LT_USEC_PER_DAY;
    if (ts < min || ts >= max)
        return false;
    *out = ts;
    return true;
}

static bool all_blank(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != ' ' && p[i] != '\0')
            return false;
    return true;
}

static void decode_binary_number(const dbf_field *f, const uint8_t *const *recs, uint32_t n,
                                 lt_vector *v, null_bit nb)
{
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = recs[i] + f->offset;
        bool ok = !is_set(recs[i], nb);
        if (ok) {
            switch (f->kind) {
            case DBF_INT32:
                v->v.i64[i] = (int32_t)lt_le32(p);
                break;
            case DBF_CURRENCY:
                v->v.dec[i] = (int64_t)lt_le64(p);
                break;
            case DBF_DOUBLE_LE:
                v->v.f64[i] = lt_le_double(p);
                ok = isfinite(v->v.f64[i]);
                break;
            case DBF_DOUBLE_DB7:
                ok = db7_double(p, &v->v.f64[i]);
                break;
            case DBF_DATETIME:
                ok = !all_blank(p, 8) && vfp_datetime(p, &v->v.i64[i]);
                break;
            default:
                ok = false;
                break;
            }
        }
        v->nulls[i] = !ok;
    }
}

/* ---- memos -------------------------------------------------------------- */

/* The block number in a memo field: 4 bytes little-endian (Visual FoxPro)
** or right-aligned digits.  false: no memo (blank, zero, not a number). */
static bool memo_block(const uint8_t *p, size_t n, uint64_t *out)
{
    if (n == 4) {
        *out = lt_le32(p);
        return *out != 0;
    }
    size_t lo = 0, hi = n;
    while (lo < hi && (p[lo] == '\0' || is_space(p[lo]))) lo++;
    while (hi > lo && (p[hi - 1] == '\0' || is_space(p[hi - 1]))) hi--;
    if (lo == hi)
        return false;
    bool neg = false;
    if (p[lo] == '+' || p[lo] == '-')
        neg = p[lo++] == '-';
    if (lo == hi)
        return false;
    uint64_t b = 0;
    for (size_t i = lo; i < hi; i++) {
        if (p[i] < '0' || p[i] > '9')
            return false;
        unsigned d = (unsigned)(p[i] - '0');
        b = b > (UINT64_MAX - d) / 10 ? UINT64_MAX : b * 10 + d;
    }
    if (neg || b == 0)
        return false;
    *out = b;
    return true;
}

static int decode_memo(const dbf_table *t, const dbf_field *f, const uint8_t *const *recs,
                       uint32_t n, lt_vector *v, lt_arena *arena, null_bit nb, lt_error *err)
{
    bool text = f->kind == DBF_MEMO_TEXT;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t block;
        if (is_set(recs[i], nb) || !memo_block(recs[i] + f->offset, f->width, &block)) {
            v->nulls[i] = 1;
            continue;
        }
        const uint8_t *body;
        size_t len;
        uint32_t type;
        int64_t recno = record_number(t, recs[i]);
        if (dbf_memo_get(&t->memo, block, recno, &body, &len, &type, err) != 0)
            return -1;
        if (len > MAX_MEMO_BYTES)
            return lt_error_set(err, "HY000", "record %lld: memo block %llu of '%s' is %zu bytes, more than Lector reads",
                                (long long)recno + 1, (unsigned long long)block, t->memo.name, len);
        v->nulls[i] = 0;
        int rc = 0;
        if (!text) {
            v->v.bytes[i].ptr = (const char *)body;
            v->v.bytes[i].len = (uint32_t)len;
        } else if (t->memo.kind == DBF_MEMO_FPT && type != 1) {
            rc = put_hex(&v->v.bytes[i], body, len, arena);
        } else {
            rc = put_text(&v->v.bytes[i], body, len, t->codepage, arena);
        }
        if (rc != 0)
            return out_of_memory(t, err);
    }
    return 0;
}

/* ---- dispatch ----------------------------------------------------------- */

static lt_type vector_type(dbf_kind kind)
{
    switch (kind) {
    case DBF_CHAR: case DBF_VARCHAR: case DBF_MEMO_TEXT: return LT_TEXT;
    case DBF_VARBINARY: case DBF_MEMO_BINARY:             return LT_BINARY;
    case DBF_NUM_INT: case DBF_INT32:                     return LT_INT64;
    case DBF_NUM_DECIMAL: case DBF_CURRENCY:              return LT_DECIMAL;
    case DBF_NUM_DOUBLE: case DBF_DOUBLE_LE: case DBF_DOUBLE_DB7: return LT_DOUBLE;
    case DBF_DATE:                                        return LT_DATE;
    case DBF_LOGICAL:                                     return LT_BOOL;
    case DBF_DATETIME:                                    return LT_TIMESTAMP;
    }
    return LT_NULL;
}

int dbf_decode_column(const dbf_table *t, const dbf_field *f,
                      const uint8_t *const *recs, uint32_t n, lt_vector *v,
                      lt_arena *arena, lt_error *err)
{
    if (v->type != vector_type(f->kind))
        return lt_error_set(err, "HY000", "internal error: '%s' column vector has the wrong type", t->path);
    null_bit nb = bit_of(t, f->nullbit);
    v->tags = NULL;              /* dBASE columns have one type per column */
    v->other = NULL;
    switch (f->kind) {
    case DBF_CHAR:
        return decode_char(t, f, recs, n, v, arena, nb, err);
    case DBF_VARCHAR:
    case DBF_VARBINARY:
        return decode_var(t, f, recs, n, v, arena, nb, err);
    case DBF_NUM_INT:
        decode_num_int(f, recs, n, v, nb);
        return 0;
    case DBF_NUM_DECIMAL:
        decode_num_decimal(f, recs, n, v, nb);
        return 0;
    case DBF_NUM_DOUBLE:
        decode_num_double(f, recs, n, v, nb);
        return 0;
    case DBF_DATE:
        decode_date(f, recs, n, v, nb);
        return 0;
    case DBF_LOGICAL:
        decode_logical(f, recs, n, v, nb);
        return 0;
    case DBF_INT32:
    case DBF_CURRENCY:
    case DBF_DOUBLE_LE:
    case DBF_DOUBLE_DB7:
    case DBF_DATETIME:
        decode_binary_number(f, recs, n, v, nb);
        return 0;
    case DBF_MEMO_TEXT:
    case DBF_MEMO_BINARY:
        return decode_memo(t, f, recs, n, v, arena, nb, err);
    }
    return 0;
}
