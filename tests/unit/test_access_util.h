/*
** test_access_util.h — what the Access reader's tests share: reading files,
** CSV, rendering values the corpus's canonical way, reading a whole table
** through lt_access_reader, comparing with an oracle as a multiset.
**
** Included by the test_access_*.c files only (after <cmocka.h>).
*/
#ifndef TEST_ACCESS_UTIL_H
#define TEST_ACCESS_UTIL_H

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "access/access.h"
#include "common/datetime.h"
#include "reader.h"

/* ---- strings and files ------------------------------------------------------------ */

typedef struct tu_str {
    char *p;
    size_t len, cap;
} tu_str;

static inline void tu_putn(tu_str *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + n + 1)
            cap *= 2;
        b->p = realloc(b->p, cap);
        assert_non_null(b->p);
        b->cap = cap;
    }
    if (n)
        memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static inline void tu_printf(tu_str *b, const char *fmt, ...)
{
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    tu_putn(b, tmp, (size_t)n);
}

static inline char *tu_read_file(const char *path, size_t *len)
{
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    tu_str b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        tu_putn(&b, chunk, n);
    fclose(f);
    if (b.p == NULL)
        tu_putn(&b, "", 0);
    *len = b.len;
    return b.p;
}

/* Split `line` at tabs in place; returns the number of fields. */
static inline int tu_split_tabs(char *line, char **f, int max)
{
    int n = 0;
    for (char *p = line; n < max;) {
        f[n++] = p;
        char *tab = strchr(p, '\t');
        if (tab == NULL)
            break;
        *tab = '\0';
        p = tab + 1;
    }
    return n;
}

/* "k=v;k=v" into options (pointers into `buf`). */
static inline void tu_parse_connect(char *buf, lt_option *items, size_t cap, lt_options *opts)
{
    opts->count = 0;
    opts->items = items;
    char *save = NULL;
    for (char *kv = strtok_r(buf, ";", &save); kv && opts->count < cap; kv = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(kv, '=');
        if (eq == NULL)
            continue;
        *eq = '\0';
        items[opts->count].key = kv;
        items[opts->count].value = eq + 1;
        opts->count++;
    }
}

/* ---- CSV --------------------------------------------------------------------------- */

typedef struct tu_cell {
    char *text;
    int null;         /* an empty, unquoted field */
} tu_cell;

typedef struct tu_row {
    tu_cell *cells;
    size_t n;
} tu_row;

typedef struct tu_csv {
    tu_row *rows;
    size_t n;
} tu_csv;

static inline void tu_csv_add(tu_csv *c, tu_row row)
{
    c->rows = realloc(c->rows, (c->n + 1) * sizeof *c->rows);
    assert_non_null(c->rows);
    c->rows[c->n++] = row;
}

static inline void tu_csv_parse(const char *s, size_t len, tu_csv *out)
{
    memset(out, 0, sizeof *out);
    size_t i = 0;
    while (i < len) {
        tu_row row = {0};
        for (;;) {
            tu_str f = {0};
            tu_putn(&f, "", 0);
            int quoted = 0;
            if (i < len && s[i] == '"') {
                quoted = 1;
                i++;
                while (i < len) {
                    if (s[i] == '"') {
                        if (i + 1 < len && s[i + 1] == '"') {
                            tu_putn(&f, "\"", 1);
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    tu_putn(&f, s + i, 1);
                    i++;
                }
            } else {
                while (i < len && s[i] != ',' && s[i] != '\n')
                    tu_putn(&f, s + i++, 1);
            }
            row.cells = realloc(row.cells, (row.n + 1) * sizeof *row.cells);
            assert_non_null(row.cells);
            row.cells[row.n].text = f.p;
            row.cells[row.n].null = !quoted && f.len == 0;
            row.n++;
            if (i < len && s[i] == ',') {
                i++;
                continue;
            }
            if (i < len && s[i] == '\n')
                i++;
            break;
        }
        tu_csv_add(out, row);
    }
}

static inline void tu_csv_free(tu_csv *c)
{
    for (size_t r = 0; r < c->n; r++) {
        for (size_t k = 0; k < c->rows[r].n; k++)
            free(c->rows[r].cells[k].text);
        free(c->rows[r].cells);
    }
    free(c->rows);
    memset(c, 0, sizeof *c);
}

/* ---- rendering ------------------------------------------------------------------------ */

static inline void tu_render_decimal(tu_str *b, lt_int128 v, int scale)
{
    char digits[64];
    int n = 0;
    int neg = v < 0;
    unsigned __int128 m = neg ? -(unsigned __int128)v : (unsigned __int128)v;
    do {
        digits[n++] = (char)('0' + (int)(m % 10));
        m /= 10;
    } while (m != 0 || n <= scale);
    int low = 0;      /* trailing fraction zeros dropped */
    while (low < scale && digits[low] == '0')
        low++;
    if (neg)
        tu_putn(b, "-", 1);
    for (int i = n - 1; i >= low; i--) {
        if (i == scale - 1)
            tu_putn(b, ".", 1);
        tu_putn(b, &digits[i], 1);
    }
}

static inline void tu_render_timestamp(tu_str *b, int64_t ts)
{
    int32_t days;
    int64_t usec;
    lt_timestamp_split(ts, &days, &usec);
    int y, mo, d, h, mi, s, us;
    lt_civil_from_days(days, &y, &mo, &d);
    lt_time_split(usec, &h, &mi, &s, &us);
    tu_printf(b, "%04d-%02d-%02d %02d:%02d:%02d", y, mo, d, h, mi, s);
    if (us != 0) {
        char frac[8];
        snprintf(frac, sizeof frac, "%06d", us);
        size_t fl = 6;
        while (fl > 0 && frac[fl - 1] == '0')
            fl--;
        tu_putn(b, ".", 1);
        tu_putn(b, frac, fl);
    }
}

/* Shortest text that reads back as the same double. */
static inline void tu_render_double(tu_str *b, double d)
{
    char tmp[64];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, d);
        if (strtod(tmp, NULL) == d)
            break;
    }
    tu_putn(b, tmp, strlen(tmp));
}

/* One value as canonical text; returns 0 for NULL. */
static inline int tu_render(const lt_value *v, tu_str *b)
{
    b->len = 0;
    tu_putn(b, "", 0);
    switch (v->type) {
    case LT_NULL: return 0;
    case LT_BOOL: tu_putn(b, v->u.b ? "1" : "0", 1); break;
    case LT_INT64: tu_printf(b, "%lld", (long long)v->u.i64); break;
    case LT_DOUBLE: tu_render_double(b, v->u.f64); break;
    case LT_DECIMAL: tu_render_decimal(b, v->u.dec, v->scale); break;
    case LT_TEXT: tu_putn(b, v->u.bytes.ptr, v->u.bytes.len); break;
    case LT_BINARY:
        tu_putn(b, "\\x", 2);
        for (uint32_t i = 0; i < v->u.bytes.len; i++)
            tu_printf(b, "%02x", (unsigned char)v->u.bytes.ptr[i]);
        break;
    case LT_DATE: {
        int y, m, d;
        lt_civil_from_days(v->u.date, &y, &m, &d);
        tu_printf(b, "%04d-%02d-%02d", y, m, d);
        break;
    }
    case LT_TIMESTAMP: tu_render_timestamp(b, v->u.i64); break;
    case LT_GUID: {
        const lt_guid *g = &v->u.guid;
        tu_printf(b, "{%08X-%04X-%04X-%02X%02X-", g->data1, g->data2, g->data3, g->data4[0], g->data4[1]);
        for (int i = 2; i < 8; i++)
            tu_printf(b, "%02X", g->data4[i]);
        tu_putn(b, "}", 1);
        break;
    }
    case LT_TIME: tu_putn(b, "?", 1); break;
    }
    return 1;
}

/* "YYYY-MM-DD[ T]HH:MM:SS[.f]" as microseconds; 0 on success. */
static inline int tu_parse_timestamp(const char *s, int64_t *out)
{
    int y, mo, d, h, mi, sec, n = 0;
    if (sscanf(s, "%d-%d-%d%*1[ T]%d:%d:%d%n", &y, &mo, &d, &h, &mi, &sec, &n) != 6)
        return -1;
    int64_t us = 0;
    const char *p = s + n;
    if (*p == '.') {
        int digits = 0;
        for (p++; *p >= '0' && *p <= '9'; p++, digits++)
            if (digits < 6)
                us = us * 10 + (*p - '0');
        for (; digits < 6; digits++)
            us *= 10;
    }
    *out = (int64_t)lt_days_from_civil(y, mo, d) * LT_USEC_PER_DAY +
           ((int64_t)h * 3600 + mi * 60 + sec) * 1000000 + us;
    return 0;
}

static inline int tu_same_cell(lt_type type, const tu_cell *ours, const tu_cell *oracle)
{
    if (ours->null || oracle->null)
        return ours->null && oracle->null;
    if (strcmp(ours->text, oracle->text) == 0)
        return 1;
    if (type == LT_INT64 || type == LT_DOUBLE || type == LT_DECIMAL) {
        char *e1, *e2;
        double a = strtod(ours->text, &e1), b = strtod(oracle->text, &e2);
        if (*e1 || *e2)
            return 0;
        if (a == b)
            return 1;
        double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
        return fabs(a - b) <= 1e-9 * scale;
    }
    if (type == LT_TIMESTAMP) {
        int64_t a, b;
        return tu_parse_timestamp(ours->text, &a) == 0 && tu_parse_timestamp(oracle->text, &b) == 0 && a == b;
    }
    return 0;
}

/* ---- reading a table --------------------------------------------------------------------- */

typedef struct tu_result {
    int ok;
    char message[LT_ERROR_MESSAGE_MAX];
    uint32_t ncols;
    lt_type *types;
    char **names;
    tu_csv rows;
} tu_result;

static inline void tu_result_free(tu_result *r)
{
    for (uint32_t c = 0; c < r->ncols; c++)
        free(r->names[c]);
    free(r->names);
    free(r->types);
    tu_csv_free(&r->rows);
    memset(r, 0, sizeof *r);
}

/* Scan every column of table `ti` of an open source into `res`. */
static inline void tu_scan_table(lt_source *src, uint32_t ti, uint32_t capacity, tu_result *res)
{
    lt_error err;
    lt_error_clear(&err);
    const lt_table *t = &src->tables[ti];
    res->ncols = t->ncols;
    res->types = calloc(t->ncols + 1, sizeof *res->types);
    res->names = calloc(t->ncols + 1, sizeof *res->names);
    uint32_t *cols = calloc(t->ncols + 1, sizeof *cols);
    int16_t *scales = calloc(t->ncols + 1, sizeof *scales);
    for (uint32_t c = 0; c < t->ncols; c++) {
        res->types[c] = t->cols[c].type;
        res->names[c] = strdup(t->cols[c].name);
        cols[c] = c;
        scales[c] = t->cols[c].scale;
    }
    lt_scan_spec spec = {.table = ti, .ncols = t->ncols, .cols = cols, .limit = -1};
    lt_scan *scan = NULL;
    lt_batch *batch = lt_batch_new(t->ncols, res->types, scales, capacity);
    assert_non_null(batch);
    tu_str b = {0};
    if (src->reader->scan_open(src, &spec, &scan, &err) != 0) {
        snprintf(res->message, sizeof res->message, "%s", err.message);
        goto done;
    }
    for (;;) {
        if (src->reader->scan_next(scan, batch, &err) != 0) {
            snprintf(res->message, sizeof res->message, "%s", err.message);
            goto done;
        }
        if (batch->count == 0)
            break;
        for (uint32_t r = 0; r < batch->count; r++) {
            tu_row row = {calloc(t->ncols + 1, sizeof(tu_cell)), t->ncols};
            for (uint32_t c = 0; c < t->ncols; c++) {
                lt_value v;
                lt_batch_get(batch, c, r, &v);
                int present = tu_render(&v, &b);
                row.cells[c].text = strdup(b.p);
                row.cells[c].null = !present;
            }
            tu_csv_add(&res->rows, row);
        }
    }
    res->ok = 1;
done:
    free(b.p);
    if (scan)
        src->reader->scan_close(scan);
    lt_batch_free(batch);
    free(cols);
    free(scales);
}

/* Open `path` and scan table `table` (NULL: the file must fail to open). */
static inline void tu_read_table(const char *path, const char *table, const lt_options *opts,
                                 uint32_t capacity, tu_result *res)
{
    memset(res, 0, sizeof *res);
    lt_error err;
    lt_error_clear(&err);
    lt_source *src = NULL;
    if (lt_access_reader.open(path, opts, &src, &err) != 0) {
        snprintf(res->message, sizeof res->message, "%s", err.message);
        return;
    }
    if (table == NULL) {
        res->ok = 1;
        src->reader->close(src);
        return;
    }
    int64_t ti = -1;
    for (uint32_t i = 0; i < src->ntables && ti < 0; i++)
        if (strcmp(src->tables[i].name, table) == 0)
            ti = i;
    if (ti < 0) {
        snprintf(res->message, sizeof res->message, "no table '%.200s' in '%.500s'", table, path);
        src->reader->close(src);
        return;
    }
    tu_scan_table(src, (uint32_t)ti, capacity, res);
    src->reader->close(src);
}

/* Compare with the oracle as multisets of rows; on a difference say which. */
static inline int tu_compare_multiset(const tu_result *res, const tu_csv *oracle, char *why, size_t whylen)
{
    if (oracle->n == 0) {
        snprintf(why, whylen, "empty oracle CSV");
        return 0;
    }
    const tu_row *hdr = &oracle->rows[0];
    if (hdr->n != res->ncols) {
        snprintf(why, whylen, "%u columns, oracle has %zu", res->ncols, hdr->n);
        return 0;
    }
    for (uint32_t c = 0; c < res->ncols; c++)
        if (strcmp(res->names[c], hdr->cells[c].text) != 0) {
            snprintf(why, whylen, "column %u named '%s', oracle '%s'", c, res->names[c], hdr->cells[c].text);
            return 0;
        }
    if (res->rows.n != oracle->n - 1) {
        snprintf(why, whylen, "%zu rows, oracle has %zu", res->rows.n, oracle->n - 1);
        return 0;
    }
    size_t n = res->rows.n;
    char *used = calloc(n + 1, 1);
    for (size_t r = 0; r < n; r++) {
        const tu_row *o = &oracle->rows[r + 1];
        if (o->n != res->ncols) {
            snprintf(why, whylen, "oracle row %zu has %zu fields", r + 1, o->n);
            free(used);
            return 0;
        }
        size_t best = n, best_same = 0;
        for (size_t k = 0; k < n; k++) {
            if (used[k])
                continue;
            size_t same = 0;
            for (uint32_t c = 0; c < res->ncols; c++)
                same += (size_t)tu_same_cell(res->types[c], &res->rows.rows[k].cells[c], &o->cells[c]);
            if (same == res->ncols) {
                best = k;
                best_same = same;
                break;
            }
            if (best == n || same > best_same) {
                best = k;
                best_same = same;
            }
        }
        if (best == n || best_same != res->ncols) {
            /* describe the first differing cell of the closest row */
            const tu_row *ours = best < n ? &res->rows.rows[best] : NULL;
            for (uint32_t c = 0; ours != NULL && c < res->ncols; c++)
                if (!tu_same_cell(res->types[c], &ours->cells[c], &o->cells[c])) {
                    snprintf(why, whylen, "oracle row %zu has no match; closest differs in %s: ours %s'%.200s', oracle %s'%.200s'",
                             r + 1, res->names[c], ours->cells[c].null ? "NULL " : "", ours->cells[c].text,
                             o->cells[c].null ? "NULL " : "", o->cells[c].text);
                    break;
                }
            free(used);
            return 0;
        }
        used[best] = 1;
    }
    free(used);
    return 1;
}

#endif /* TEST_ACCESS_UTIL_H */
