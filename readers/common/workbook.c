/*
** workbook.c — number-format classes, Excel date serials, column typing,
** header names and the text form of values, shared by the .xls and .xlsb
** readers (see workbook.h for the rules).
*/
#include "workbook.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "datetime.h"
#include "numfmt.h"
#include "platform.h"

#define USEC_PER_MS 1000

/* ---- number formats ------------------------------------------------------ */

unsigned lt_wb_format_builtin(unsigned id)
{
    if (id >= 14 && id <= 17)
        return LT_WB_FMT_DATE;                               /* m/d/yy ... mmm-yy */
    if (id >= 18 && id <= 21)
        return LT_WB_FMT_DATE | LT_WB_FMT_TIME | LT_WB_FMT_NODAY; /* h:mm AM/PM ... */
    if (id == 22)
        return LT_WB_FMT_DATE | LT_WB_FMT_TIME;              /* m/d/yy h:mm */
    if (id >= 45 && id <= 47)
        return LT_WB_FMT_DATE | LT_WB_FMT_TIME | LT_WB_FMT_NODAY; /* mm:ss, [h]:mm:ss */
    /* East Asian and Thai built-in dates: their text depends on the locale,
    ** so only "a date" is certain. */
    if ((id >= 27 && id <= 36) || (id >= 50 && id <= 58) || (id >= 71 && id <= 81))
        return LT_WB_FMT_DATE;
    return 0;
}

static bool is_date_letter(char c)
{
    switch (c) {
    case 'y': case 'm': case 'd': case 'h': case 's':
    case 'Y': case 'M': case 'D': case 'H': case 'S':
        return true;
    default:
        return false;
    }
}

/* Bytes of the UTF-8 character that starts at s[0] (1 for a stray byte). */
static size_t utf8_char_len(const char *s, size_t left)
{
    size_t n = 1;
    while (n < left && ((unsigned char)s[n] & 0xC0) == 0x80)
        n++;
    return n;
}

/* Date letters against digit placeholders, outside quotes, escapes (\x,
** _x, *x) and [brackets]. */
static bool format_is_date(const char *f, size_t len)
{
    int dates = 0, digits = 0, bracket = 0;
    for (size_t i = 0; i < len;) {
        char c = f[i];
        if (c == '"') {
            for (i++; i < len && f[i] != '"'; i++)
                ;
            i++;
            continue;
        }
        if (c == '\\' || c == '_' || c == '*') {
            i++;
            if (i < len)
                i += utf8_char_len(f + i, len - i);
            continue;
        }
        if (c == '[' && memchr(f + i, ']', len - i) != NULL)
            bracket = 1;
        else if (c == ']' && bracket)
            bracket = 0;
        else if (!bracket) {
            if (is_date_letter(c))
                dates++;
            else if (c == '0' || c == '#' || c == '?')
                digits++;
        }
        i++;
    }
    return dates > digits;
}

/*
** The first section of a format, lower-cased, without quoted text, escaped
** characters and brackets other than the elapsed-time ones ([h] [mm] [ss]);
** AM/PM markers become '@'.  Writes at most `cap` - 1 bytes.
*/
static size_t format_first_section(const char *f, size_t len, char *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < len && f[i] != ';' && n + 1 < cap;) {
        char c = f[i];
        if (c == '"') {
            for (i++; i < len && f[i] != '"'; i++)
                ;
            i++;
            continue;
        }
        if (c == '\\') {
            i += 2;
            continue;
        }
        if (c == '[') {
            const char *close = memchr(f + i, ']', len - i);
            if (close == NULL) {
                i++;
                continue;
            }
            size_t inner = (size_t)(close - (f + i)) - 1;
            bool elapsed = inner > 0;
            for (size_t k = 1; k <= inner; k++) {
                char l = (char)(f[i + k] | 0x20);
                if (l != 'h' && l != 'm' && l != 's')
                    elapsed = false;
            }
            if (!elapsed) {
                i = (size_t)(close - f) + 1;
                continue;
            }
            i++;
            continue;
        }
        if (len - i >= 5 && strncasecmp(f + i, "am/pm", 5) == 0) {
            out[n++] = '@';
            i += 5;
            continue;
        }
        if (len - i >= 3 && strncasecmp(f + i, "a/p", 3) == 0) {
            out[n++] = '@';
            i += 3;
            continue;
        }
        out[n++] = (c >= 'A' && c <= 'Z') ? (char)(c | 0x20) : c;
        i++;
    }
    out[n] = '\0';
    return n;
}

/* Whether the (reduced) section shows a time, and whether it shows a day:
** an 'm' run is minutes after an 'h' run or before an 's' run. */
static unsigned section_flags(const char *s, size_t n)
{
    char runs[64];
    size_t nruns = 0;
    bool ampm = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '@')
            ampm = true;
        if (c != 'y' && c != 'm' && c != 'd' && c != 'h' && c != 's')
            continue;
        if (i > 0 && s[i - 1] == c)
            continue;               /* same run */
        if (nruns < sizeof runs)
            runs[nruns++] = c;
    }
    bool time = ampm, day = false;
    for (size_t r = 0; r < nruns; r++) {
        char c = runs[r];
        if (c == 'h' || c == 's')
            time = true;
        else if (c == 'y' || c == 'd')
            day = true;
        else if ((r > 0 && runs[r - 1] == 'h') || (r + 1 < nruns && runs[r + 1] == 's'))
            time = true;            /* minutes */
        else
            day = true;             /* month */
    }
    return (time ? LT_WB_FMT_TIME : 0) | (day ? 0 : LT_WB_FMT_NODAY);
}

unsigned lt_wb_format_classify(const char *fmt, size_t len)
{
    if (fmt == NULL || !format_is_date(fmt, len))
        return 0;
    char sec[256];
    size_t n = format_first_section(fmt, len, sec, sizeof sec);
    unsigned flags = LT_WB_FMT_DATE | section_flags(sec, n);
    /* A time flag comes from h, s or AM/PM only (as the oracle has it):
    ** "mm" alone is a month. */
    bool shows_time = strchr(sec, 'h') != NULL || strchr(sec, 's') != NULL ||
                      strchr(sec, '@') != NULL;
    if (!shows_time)
        flags &= ~LT_WB_FMT_TIME;
    else
        flags |= LT_WB_FMT_TIME;
    if (!(flags & LT_WB_FMT_TIME))
        flags &= ~LT_WB_FMT_NODAY;   /* a date format without day or time: keep it a date */
    return flags;
}

/* ---- date serials -------------------------------------------------------- */

/* x rounded to the nearest integer, ties to even (as Python's round()),
** for 0 <= x < 2^52. */
static int64_t round_half_even(double x)
{
    int64_t r = (int64_t)x;
    double frac = x - (double)r;
    if (frac > 0.5 || (frac == 0.5 && (r & 1)))
        r++;
    return r;
}

bool lt_wb_serial_to_timestamp(double serial, bool date1904, int64_t *usec)
{
    /* 2958466 is 10000-01-01 in both systems' reach: beyond Excel's range. */
    if (!(serial >= 0.0) || serial >= 2958467.0)
        return false;
    int64_t days = (int64_t)serial;
    int64_t ms = round_half_even((serial - (double)days) * 86400000.0);
    if (ms >= 86400000) {
        days++;
        ms -= 86400000;
    }
    int32_t base;
    if (date1904)
        base = lt_days_from_civil(1904, 1, 1);
    else if (days < 60)
        base = lt_days_from_civil(1899, 12, 31);
    else if (days == 60)
        return false;
    else
        base = lt_days_from_civil(1899, 12, 30);
    int64_t day = base + days;
    if (day > lt_days_from_civil(9999, 12, 31))
        return false;
    *usec = day * LT_USEC_PER_DAY + ms * USEC_PER_MS;
    return true;
}

/* ---- cells ---------------------------------------------------------------- */

uint32_t lt_wb_utf16_units(const char *s, size_t len)
{
    uint32_t units = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c & 0xC0) != 0x80)
            units += c >= 0xF0 ? 2 : 1;
    }
    return units;
}

/* Characters of an integer within 2^53 written in decimal. */
static uint32_t integer_width(double v)
{
    int64_t i = (int64_t)v;
    uint32_t n = i < 0 ? 2 : 1;
    uint64_t u = i < 0 ? (uint64_t)-i : (uint64_t)i;
    /* Compare, not divide: every number cell of the type scan comes here.
    ** u <= 2^53 < 10^16, so p stops at 10^16 at most. */
    for (uint64_t p = 10; u >= p; p *= 10)
        n++;
    return n;
}

/* Characters of a date rendering, without rendering it. */
static uint32_t date_width(int64_t ts, unsigned fmt)
{
    int64_t ms = ((ts % LT_USEC_PER_DAY) + LT_USEC_PER_DAY) % LT_USEC_PER_DAY / USEC_PER_MS;
    if (!(fmt & LT_WB_FMT_TIME) && ms == 0)
        return 10;
    ms %= 1000;
    if (ms == 0)
        return 19;
    return ms % 100 == 0 ? 21 : ms % 10 == 0 ? 22 : 23;
}

static void grow(uint32_t *max, uint32_t n)
{
    if (n > *max)
        *max = n;
}

void lt_wb_stats_add(lt_wb_stats *st, const lt_wb_cell *cell, bool date1904)
{
    switch ((lt_wb_kind)cell->kind) {
    case LT_WB_NUMBER:
        if (cell->fmt & LT_WB_FMT_DATE) {
            int64_t ts;
            st->dates++;
            if (!lt_wb_serial_to_timestamp(cell->num, date1904, &ts))
                return;
            bool has_time = ts % LT_USEC_PER_DAY != 0;
            if ((cell->fmt & LT_WB_FMT_TIME) || has_time)
                st->timed++;
            if ((cell->fmt & LT_WB_FMT_NODAY) && cell->num < 1.0)
                st->day_times++;
            grow(&st->render_units, date_width(ts, cell->fmt));
            return;
        }
        st->numbers++;
        if (lt_wb_is_integral(cell->num)) {
            grow(&st->render_units, integer_width(cell->num));
        } else {
            st->fractions++;
            st->unsized++;
        }
        return;
    case LT_WB_BOOL:
        st->bools++;
        grow(&st->render_units, cell->b ? 4 : 5);
        return;
    case LT_WB_TEXT:
        st->texts++;
        grow(&st->text_units, cell->units);
        return;
    case LT_WB_ERROR:
        st->errors++;
        return;
    case LT_WB_EMPTY:
        return;
    }
}

void lt_wb_stats_late(lt_wb_stats *st, const lt_wb_cell *cell)
{
    switch ((lt_wb_kind)cell->kind) {
    case LT_WB_NUMBER:
        grow(&st->late_units, (cell->fmt & LT_WB_FMT_DATE) ? 23 : 24);
        return;
    case LT_WB_BOOL:
        grow(&st->late_units, 5);
        return;
    case LT_WB_TEXT:
        grow(&st->late_units, cell->units);
        return;
    case LT_WB_ERROR:
    case LT_WB_EMPTY:
        return;
    }
}

lt_type lt_wb_stats_type(const lt_wb_stats *st)
{
    uint64_t values = (uint64_t)st->numbers + st->dates + st->bools + st->texts;
    if (values == 0 || st->texts > 0)
        return LT_TEXT;
    if (st->numbers == values)
        return st->fractions ? LT_DOUBLE : LT_INT64;
    if (st->dates == values) {
        if (st->day_times == st->dates)
            return LT_TIME;
        return st->timed ? LT_TIMESTAMP : LT_DATE;
    }
    if (st->bools == values)
        return LT_BOOL;
    return LT_TEXT;
}

bool lt_wb_stats_needs_size(const lt_wb_stats *st)
{
    return st->unsized > 0 && lt_wb_stats_type(st) == LT_TEXT;
}

void lt_wb_stats_size(lt_wb_stats *st, const lt_wb_cell *cell)
{
    if (cell->kind != LT_WB_NUMBER || (cell->fmt & LT_WB_FMT_DATE) || lt_wb_is_integral(cell->num))
        return;
    char buf[LT_WB_RENDER_MAX];
    grow(&st->render_units, (uint32_t)lt_wb_render_number(cell->num, buf));
    if (st->unsized > 0)
        st->unsized--;
}

void lt_wb_describe_column(const lt_wb_stats *st, lt_column *col)
{
    col->type = lt_wb_stats_type(st);
    col->nullable = true;
    col->is_long = false;
    col->scale = 0;
    switch (col->type) {
    case LT_BOOL:
        col->size = 1;
        col->type_name = "LOGICAL";
        break;
    case LT_INT64:
        col->size = 19;
        col->type_name = "NUMBER";
        break;
    case LT_DOUBLE:
        col->size = 15;
        col->type_name = "NUMBER";
        break;
    case LT_DATE:
        col->size = 10;
        col->type_name = "DATETIME";
        break;
    case LT_TIME:
        col->size = 12;
        col->scale = 3;
        col->type_name = "DATETIME";
        break;
    case LT_TIMESTAMP:
        col->size = 23;
        col->scale = 3;
        col->type_name = "DATETIME";
        break;
    default: {
        uint64_t values = (uint64_t)st->numbers + st->dates + st->bools + st->texts;
        uint32_t size = st->text_units > st->render_units ? st->text_units : st->render_units;
        if (st->unsized > 0 && size < 24)
            size = 24;     /* not sized by a second walk: the longest form */
        if (st->late_units > size)
            size = st->late_units;
        col->size = values == 0 && st->late_units == 0 ? 255 : size == 0 ? 1 : size;
        col->type_name = "VARCHAR";
        break;
    }
    }
}

/* ---- values ------------------------------------------------------------- */

/*
** The shortest digits that read back as v (readers/common/numfmt.c) in
** Python's repr layout: fixed from 1e-4 to below 1e16, exponent form
** outside, and a double written in fixed form without a fraction (beyond
** 2^53) keeps a ".0".
*/
size_t lt_wb_render_number(double v, char *buf)
{
    if (v != v || v - v != 0.0) {
        buf[0] = '\0';
        return 0;
    }
    if (lt_wb_is_integral(v))
        return lt_format_int64((int64_t)v, buf);
    char digits[17];
    int e, n = lt_double_digits(v, digits, &e);
    size_t o = lt_format_digits(v < 0, digits, n, e, 16, buf);
    if (e >= n - 1 && e < 16) {
        memcpy(buf + o, ".0", 3);
        o += 2;
    }
    return o;
}

size_t lt_wb_render_date(double serial, unsigned fmt, bool date1904, char *buf)
{
    int64_t ts;
    if (!lt_wb_serial_to_timestamp(serial, date1904, &ts)) {
        buf[0] = '\0';
        return 0;
    }
    /* Years 1899..10004 and a time of day: at most 24 characters, within
    ** LT_WB_RENDER_MAX though the formatters' worst cases are longer. */
    if (!(fmt & LT_WB_FMT_TIME) && ts % LT_USEC_PER_DAY == 0)
        return lt_format_date((int32_t)(ts / LT_USEC_PER_DAY), buf);
    return lt_format_timestamp(ts, 3, buf);
}

bool lt_wb_cell_text(const lt_wb_cell *cell, bool date1904, char *buf,
                     const char **text, uint32_t *len)
{
    size_t n = 0;
    *text = NULL;
    *len = 0;
    switch ((lt_wb_kind)cell->kind) {
    case LT_WB_TEXT:
        *text = cell->text != NULL ? cell->text : "";
        *len = cell->len;
        return true;
    case LT_WB_NUMBER:
        n = (cell->fmt & LT_WB_FMT_DATE) ? lt_wb_render_date(cell->num, cell->fmt, date1904, buf)
                                         : lt_wb_render_number(cell->num, buf);
        break;
    case LT_WB_BOOL:
        n = (size_t)snprintf(buf, LT_WB_RENDER_MAX, "%s", cell->b ? "TRUE" : "FALSE");
        break;
    case LT_WB_ERROR:
    case LT_WB_EMPTY:
        return false;
    }
    if (n == 0)
        return false;
    *text = buf;
    *len = (uint32_t)n;
    return true;
}

/* A value that does not fit its column (a row past TypeGuessRows): a
** tagged row of the value's own type (reader.h), never a NULL. */
static int store_other(lt_batch *batch, lt_vector *v, uint32_t row, const lt_wb_cell *cell,
                       bool date1904)
{
    lt_value val;
    memset(&val, 0, sizeof val);
    int64_t ts;
    switch ((lt_wb_kind)cell->kind) {
    case LT_WB_NUMBER:
        if (cell->fmt & LT_WB_FMT_DATE) {
            if (!lt_wb_serial_to_timestamp(cell->num, date1904, &ts))
                return 0;
            int32_t days;
            int64_t usec;
            lt_timestamp_split(ts, &days, &usec);
            if (usec == 0 && !(cell->fmt & LT_WB_FMT_TIME)) {
                val.type = LT_DATE;
                val.u.date = days;
            } else {
                val.type = LT_TIMESTAMP;
                val.u.i64 = ts;
            }
        } else if (lt_wb_is_integral(cell->num)) {
            val.type = LT_INT64;
            val.u.i64 = (int64_t)cell->num;
        } else if (cell->num == cell->num && cell->num - cell->num == 0.0) {
            val.type = LT_DOUBLE;
            val.u.f64 = cell->num;
        } else {
            return 0;
        }
        break;
    case LT_WB_BOOL:
        val.type = LT_BOOL;
        val.u.b = cell->b;
        break;
    case LT_WB_TEXT:
        val.type = LT_TEXT;
        val.u.bytes.ptr = cell->text;
        val.u.bytes.len = cell->len;
        break;
    case LT_WB_ERROR:
    case LT_WB_EMPTY:
        return 0;
    }
    if (v->tags == NULL && lt_vector_tag_arrays(batch, v) != 0)
        return -1;
    v->tags[row] = (uint8_t)val.type;
    v->other[row] = val;
    v->nulls[row] = 0;
    return 0;
}

int lt_wb_store(lt_batch *batch, uint32_t col, uint32_t row,
                const lt_wb_cell *cell, bool date1904)
{
    lt_vector *v = &batch->cols[col];
    bool number = cell->kind == LT_WB_NUMBER && !(cell->fmt & LT_WB_FMT_DATE);
    bool date = cell->kind == LT_WB_NUMBER && (cell->fmt & LT_WB_FMT_DATE);
    int64_t ts = 0;
    v->nulls[row] = 1;
    switch (v->type) {
    case LT_TEXT: {
        char buf[LT_WB_RENDER_MAX];
        const char *text;
        uint32_t len;
        if (!lt_wb_cell_text(cell, date1904, buf, &text, &len))
            return 0;
        if (text == buf) {
            char *copy = lt_arena_alloc(&batch->arena, len);
            if (copy == NULL)
                return -1;
            memcpy(copy, buf, len);
            text = copy;
        }
        v->v.bytes[row].ptr = text;
        v->v.bytes[row].len = len;
        break;
    }
    case LT_INT64:
        if (!number || !lt_wb_is_integral(cell->num))
            return store_other(batch, v, row, cell, date1904);
        v->v.i64[row] = (int64_t)cell->num;
        break;
    case LT_DOUBLE:
        if (!number)
            return store_other(batch, v, row, cell, date1904);
        if (cell->num != cell->num || cell->num - cell->num != 0.0)
            return 0;
        v->v.f64[row] = cell->num;
        break;
    case LT_BOOL:
        if (cell->kind != LT_WB_BOOL)
            return store_other(batch, v, row, cell, date1904);
        v->v.b[row] = cell->b ? 1 : 0;
        break;
    case LT_DATE:
    case LT_TIMESTAMP:
    case LT_TIME: {
        if (!date)
            return store_other(batch, v, row, cell, date1904);
        if (!lt_wb_serial_to_timestamp(cell->num, date1904, &ts))
            return 0;
        int32_t days;
        int64_t usec;
        lt_timestamp_split(ts, &days, &usec);
        /* A time a DATE column cannot hold, a day a TIME column cannot. */
        if ((v->type == LT_DATE && usec != 0) || (v->type == LT_TIME && cell->num >= 1.0))
            return store_other(batch, v, row, cell, date1904);
        if (v->type == LT_DATE)
            v->v.date[row] = days;
        else if (v->type == LT_TIME)
            v->v.i64[row] = usec;
        else
            v->v.i64[row] = ts;
        break;
    }
    default:
        return 0;
    }
    v->nulls[row] = 0;
    return 0;
}

/* ---- names ------------------------------------------------------------------ */

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 'A' && c <= 'Z')
            c |= 0x20;
        h = (h ^ c) * 16777619u;
    }
    return h;
}

typedef struct name_set {
    const char **slots;
    uint32_t mask;
} name_set;

static bool name_set_has(const name_set *set, const char *name)
{
    for (uint32_t i = name_hash(name) & set->mask;; i = (i + 1) & set->mask) {
        if (set->slots[i] == NULL)
            return false;
        if (strcasecmp(set->slots[i], name) == 0)
            return true;
    }
}

static void name_set_add(name_set *set, const char *name)
{
    uint32_t i = name_hash(name) & set->mask;
    while (set->slots[i] != NULL)
        i = (i + 1) & set->mask;
    set->slots[i] = name;
}

static bool blank(const lt_bytes *h)
{
    for (uint32_t i = 0; i < h->len; i++)
        if (h->ptr[i] != ' ' && h->ptr[i] != '\t')
            return false;
    return true;
}

int lt_wb_column_names(uint32_t ncols, const lt_bytes *headers, char **names)
{
    uint32_t cap = 16;
    while (cap < 2 * (uint64_t)ncols + 2)
        cap *= 2;
    name_set set = {calloc(cap, sizeof *set.slots), cap - 1};
    if (set.slots == NULL)
        return -1;
    for (uint32_t c = 0; c < ncols; c++)
        names[c] = NULL;
    for (uint32_t c = 0; c < ncols; c++) {
        char fallback[16];
        const char *base = fallback;
        size_t blen;
        if (headers != NULL && headers[c].ptr != NULL && !blank(&headers[c])) {
            base = headers[c].ptr;
            blen = headers[c].len;
        } else {
            blen = (size_t)snprintf(fallback, sizeof fallback, "F%" PRIu32, c + 1);
        }
        char *name = malloc(blen + 16);
        if (name == NULL)
            goto oom;
        memcpy(name, base, blen);
        name[blen] = '\0';
        for (uint32_t k = 2; name_set_has(&set, name); k++)
            snprintf(name + blen, 16, "_%" PRIu32, k);
        names[c] = name;
        name_set_add(&set, name);
    }
    free(set.slots);
    return 0;
oom:
    free(set.slots);
    for (uint32_t c = 0; c < ncols; c++) {
        free(names[c]);
        names[c] = NULL;
    }
    return -1;
}

/* The table found, described (reader.h describe) as lt_source_find_table
** does: an unreadable one keeps its error for the caller to report. */
static int64_t described(const lt_source *src, int64_t i)
{
    lt_error err;
    if (i >= 0 && src->reader != NULL && src->reader->describe != NULL)
        (void)src->reader->describe((lt_source *)src, (uint32_t)i, &err);
    return i;
}

int64_t lt_wb_find_table(const lt_source *src, const char *name, size_t len)
{
    return described(src, lt_wb_find_listed(src, name, len));
}

int64_t lt_wb_find_listed(const lt_source *src, const char *name, size_t len)
{
    for (uint32_t i = 0; i < src->ntables; i++) {
        const char *t = src->tables[i].name;
        if (strncasecmp(t, name, len) == 0 && t[len] == '\0')
            return i;
    }
    if (len == 0 || name[len - 1] == '$')
        return -1;
    for (uint32_t i = 0; i < src->ntables; i++) {
        const char *t = src->tables[i].name;
        if (strncasecmp(t, name, len) == 0 && t[len] == '$' && t[len + 1] == '\0')
            return i;
    }
    return -1;
}
