/*
** corpus.c — our side of the corpus oracle: an lt_value rendered the
** canonical CSV way (corpus README: NULL empty, binary as \x hex, dates
** YYYY-MM-DD, timestamps with the fraction only when non-zero, doubles in
** the shortest form that reads back), cells compared with the README's
** tolerances, and a table scanned through the reader API in batches.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/datetime.h"
#include "corpus.h"

/* ---- rendering ------------------------------------------------------------------ */

static void render_decimal(ts_str *b, lt_int128 v, int scale)
{
    char digits[64];
    int n = 0;
    bool neg = v < 0;
    unsigned __int128 m = neg ? -(unsigned __int128)v : (unsigned __int128)v;
    do {
        digits[n++] = (char)('0' + (int)(m % 10));
        m /= 10;
    } while (m != 0 || n <= scale);
    if (neg)
        ts_putn(b, "-", 1);
    for (int i = n - 1; i >= 0; i--) {
        if (i == scale - 1)
            ts_putn(b, ".", 1);
        ts_putn(b, &digits[i], 1);
    }
}

/* HH:MM:SS, then the fraction without its trailing zeros when non-zero. */
static void render_time_of_day(ts_str *b, int64_t usec)
{
    int h, mi, s, us;
    lt_time_split(usec, &h, &mi, &s, &us);
    ts_printf(b, "%02d:%02d:%02d", h, mi, s);
    if (us != 0) {
        char frac[8];
        snprintf(frac, sizeof frac, "%06d", us);
        size_t fl = 6;
        while (fl > 0 && frac[fl - 1] == '0')
            fl--;
        ts_putn(b, ".", 1);
        ts_putn(b, frac, fl);
    }
}

static void render_date(ts_str *b, int32_t days)
{
    int y, m, d;
    lt_civil_from_days(days, &y, &m, &d);
    ts_printf(b, "%04d-%02d-%02d", y, m, d);
}

/* Shortest text that reads back as the same double. */
static void render_double(ts_str *b, double d)
{
    char tmp[64];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, d);
        if (strtod(tmp, NULL) == d)
            break;
    }
    ts_putn(b, tmp, strlen(tmp));
}

static void render_guid(ts_str *b, const lt_guid *g)
{
    ts_printf(b, "{%08X-%04X-%04X-%02X%02X-", (unsigned)g->data1, (unsigned)g->data2, (unsigned)g->data3,
              g->data4[0], g->data4[1]);
    for (int i = 2; i < 8; i++)
        ts_printf(b, "%02X", g->data4[i]);
    ts_putn(b, "}", 1);
}

bool ts_render(const lt_value *v, ts_str *b)
{
    b->len = 0;
    ts_putn(b, "", 0);
    int32_t days;
    int64_t usec;
    switch (v->type) {
    case LT_NULL: return false;
    case LT_BOOL: ts_putn(b, v->u.b ? "1" : "0", 1); break;
    case LT_INT64: ts_printf(b, "%lld", (long long)v->u.i64); break;
    case LT_DOUBLE: render_double(b, v->u.f64); break;
    case LT_DECIMAL: render_decimal(b, v->u.dec, v->scale); break;
    case LT_TEXT: ts_putn(b, v->u.bytes.ptr, v->u.bytes.len); break;
    case LT_BINARY:
        ts_putn(b, "\\x", 2);
        for (uint32_t i = 0; i < v->u.bytes.len; i++)
            ts_printf(b, "%02x", (unsigned char)v->u.bytes.ptr[i]);
        break;
    case LT_DATE: render_date(b, v->u.date); break;
    case LT_TIMESTAMP:
        lt_timestamp_split(v->u.i64, &days, &usec);
        render_date(b, days);
        ts_putn(b, " ", 1);
        render_time_of_day(b, usec);
        break;
    case LT_TIME: render_time_of_day(b, v->u.i64); break;
    case LT_GUID: render_guid(b, &v->u.guid); break;
    }
    return true;
}

void ts_cell_value(const lt_batch *batch, uint32_t col, uint32_t row, lt_value *out)
{
    const lt_vector *v = &batch->cols[col];
    if (!v->nulls[row] && v->tags != NULL && v->tags[row] != LT_NULL) {
        *out = v->other[row];
        assert_int_equal(out->type, lt_vector_row_type(v, row));
        return;
    }
    lt_batch_get(batch, col, row, out);
}

/* ---- comparing ---------------------------------------------------------------------- */

/* "[YYYY-MM-DD][ T][HH:MM[:SS]][.f]": whether it has a date, its day and
** the microseconds of the day.  False when it is not of that form. */
static bool parse_instant(const char *s, bool *has_date, int32_t *date, int64_t *usec)
{
    int y, mo, d, h = 0, mi = 0, sec = 0, n = 0;
    *has_date = false;
    *date = 0;
    if (sscanf(s, "%d-%d-%d%n", &y, &mo, &d, &n) == 3 && s[4] == '-') {
        *has_date = true;
        *date = lt_days_from_civil(y, mo, d);
        s += n;
        if (*s == ' ' || *s == 'T')
            s++;
    }
    if (*s >= '0' && *s <= '9') {
        if (sscanf(s, "%d:%d%n", &h, &mi, &n) != 2)
            return false;
        s += n;
        if (*s == ':') {
            if (sscanf(s + 1, "%d%n", &sec, &n) != 1)
                return false;
            s += 1 + n;
        }
    }
    int64_t frac = 0;
    if (*s == '.') {
        int digits = 0;
        for (s++; *s >= '0' && *s <= '9'; s++, digits++)
            if (digits < 6)
                frac = frac * 10 + (*s - '0');
        for (; digits < 6; digits++)
            frac *= 10;
    }
    *usec = ((int64_t)h * 3600 + mi * 60 + sec) * 1000000 + frac;
    return *s == '\0';
}

static bool same_number(const char *ours, const char *oracle)
{
    char *e1, *e2;
    double a = strtod(ours, &e1), b = strtod(oracle, &e2);
    if (*e1 || *e2 || e1 == ours || e2 == oracle)
        return false;
    if (a == b)
        return true;
    double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= 1e-9 * scale;
}

static bool same_instant(const ts_cell *ours, const char *oracle, const ts_rules *rules)
{
    bool hd1, hd2;
    int32_t d1, d2;
    int64_t u1, u2;
    if (!parse_instant(ours->text, &hd1, &d1, &u1) || !parse_instant(oracle, &hd2, &d2, &u2))
        return false;
    if (ours->type == LT_TIME)
        return hd2 && d2 == rules->time_epoch && u1 == u2;
    return hd1 && hd2 && d1 == d2 && u1 == u2;
}

bool ts_same_cell(const ts_cell *ours, const ts_cell *oracle, const ts_rules *rules)
{
    if (ours->null || oracle->null)
        return ours->null && oracle->null;
    if (strcmp(ours->text, oracle->text) == 0)
        return true;
    bool excel = (rules->flags & TS_EXCEL) != 0;
    switch (ours->type) {
    case LT_INT64:
    case LT_DOUBLE:
    case LT_DECIMAL:
        return same_number(ours->text, oracle->text);
    case LT_BOOL:
        return (rules->flags & TS_BOOL_NUMBER) && same_number(ours->text, oracle->text);
    case LT_TIMESTAMP:
        return same_instant(ours, oracle->text, rules);
    case LT_DATE:
        return (rules->flags & TS_DATE_INSTANT) && same_instant(ours, oracle->text, rules);
    case LT_TIME:
        return excel && same_instant(ours, oracle->text, rules);
    case LT_TEXT:
        return excel && ((strcmp(ours->text, "TRUE") == 0 && strcmp(oracle->text, "1") == 0) ||
                         (strcmp(ours->text, "FALSE") == 0 && strcmp(oracle->text, "0") == 0));
    default:
        return false;
    }
}

/* ---- reading a table -------------------------------------------------------------- */

lt_source *ts_open(const lt_reader *reader, const char *path, const lt_options *opts)
{
    lt_source *src = NULL;
    lt_error err;
    if (reader->open(path, opts, &src, &err) != 0)
        fail_msg("%s: %s", path, err.message);
    return src;
}

int64_t ts_table_index(const lt_source *src, const char *name)
{
    for (uint32_t i = 0; i < src->ntables; i++)
        if (strcmp(src->tables[i].name, name) == 0)
            return i;
    return -1;
}

char *ts_table_names(const lt_source *src)
{
    ts_str out = {0};
    ts_putn(&out, "", 0);    /* "" for no tables */
    for (uint32_t i = 0; i < src->ntables; i++) {
        if (i > 0)
            ts_putn(&out, "|", 1);
        ts_putn(&out, src->tables[i].name, strlen(src->tables[i].name));
    }
    return out.p;
}

const char *ts_type_name(lt_type t)
{
    switch (t) {
    case LT_NULL: return "NULL";
    case LT_BOOL: return "BOOL";
    case LT_INT64: return "INT64";
    case LT_DOUBLE: return "DOUBLE";
    case LT_DECIMAL: return "DECIMAL";
    case LT_TEXT: return "TEXT";
    case LT_BINARY: return "BINARY";
    case LT_DATE: return "DATE";
    case LT_TIME: return "TIME";
    case LT_TIMESTAMP: return "TIMESTAMP";
    case LT_GUID: return "GUID";
    }
    return "?";
}

char *ts_table_text(lt_source *src, const char *name, uint32_t capacity, bool typed)
{
    lt_error err;
    int64_t ti = lt_source_find_table_err(src, name, strlen(name), &err);
    if (ti < 0)
        fail_msg("%s: %s", name, err.message);
    const lt_table *t = &src->tables[ti];
    ts_str out = {0};
    ts_putn(&out, "", 0);
    for (uint32_t c = 0; c < t->ncols; c++) {
        if (c > 0)
            ts_putn(&out, "|", 1);
        ts_putn(&out, t->cols[c].name, strlen(t->cols[c].name));
        if (typed)
            ts_printf(&out, ":%s(%u)", ts_type_name(t->cols[c].type), (unsigned)t->cols[c].size);
    }
    ts_result res;
    ts_scan(src, (uint32_t)ti, capacity, &res);
    if (!res.ok)
        fail_msg("scan %s: %s", name, res.message);
    for (size_t r = 0; r < res.rows.n; r++) {
        ts_putn(&out, ";", 1);
        for (size_t c = 0; c < res.rows.rows[r].n; c++) {
            const ts_cell *cell = &res.rows.rows[r].cells[c];
            if (c > 0)
                ts_putn(&out, "|", 1);
            if (cell->null)
                ts_putn(&out, "-", 1);
            else
                ts_putn(&out, cell->text, strlen(cell->text));
            if (typed && !cell->null && cell->type != t->cols[c].type)
                ts_printf(&out, "[%s]", ts_type_name(cell->type));
        }
    }
    ts_result_free(&res);
    return out.p;
}

/* The rendered rows of one batch, appended to res. */
static void add_batch(const lt_table *t, const lt_batch *batch, ts_str *b, ts_result *res)
{
    for (uint32_t r = 0; r < batch->count; r++) {
        ts_row row = {calloc(t->ncols + 1, sizeof(ts_cell)), t->ncols};
        assert_non_null(row.cells);
        for (uint32_t c = 0; c < t->ncols; c++) {
            lt_value v;
            ts_cell_value(batch, c, r, &v);
            bool present = ts_render(&v, b);
            row.cells[c].text = strdup(b->p);
            row.cells[c].null = !present;
            row.cells[c].type = present ? v.type : t->cols[c].type;
        }
        ts_csv_add(&res->rows, row);
    }
}

void ts_scan(lt_source *src, uint32_t ti, uint32_t capacity, ts_result *res)
{
    memset(res, 0, sizeof *res);
    const lt_table *t = &src->tables[ti];
    res->ncols = t->ncols;
    res->names = calloc(t->ncols + 1, sizeof *res->names);
    lt_type *types = calloc(t->ncols + 1, sizeof *types);
    uint32_t *cols = calloc(t->ncols + 1, sizeof *cols);
    int16_t *scales = calloc(t->ncols + 1, sizeof *scales);
    assert_true(res->names && types && cols && scales);
    for (uint32_t c = 0; c < t->ncols; c++) {
        types[c] = t->cols[c].type;
        res->names[c] = strdup(t->cols[c].name);
        cols[c] = c;
        scales[c] = t->cols[c].scale;
    }
    lt_scan_spec spec = {.table = ti, .ncols = t->ncols, .cols = cols, .limit = -1};
    lt_batch *batch = lt_batch_new(t->ncols, types, scales, capacity);
    assert_non_null(batch);
    lt_scan *scan = NULL;
    lt_error err;
    lt_error_clear(&err);
    ts_str b = {0};
    if (src->reader->scan_open(src, &spec, &scan, &err) != 0)
        goto fail;
    for (;;) {
        if (src->reader->scan_next(scan, batch, &err) != 0)
            goto fail;
        if (batch->count == 0)
            break;
        assert_true(batch->count <= capacity);
        add_batch(t, batch, &b, res);
    }
    res->ok = true;
    goto done;
fail:
    snprintf(res->message, sizeof res->message, "%s", err.message);
done:
    free(b.p);
    if (scan != NULL)
        src->reader->scan_close(scan);
    lt_batch_free(batch);
    free(types);
    free(scales);
    free(cols);
}

void ts_result_free(ts_result *r)
{
    for (uint32_t c = 0; c < r->ncols; c++)
        free(r->names[c]);
    free(r->names);
    ts_csv_free(&r->rows);
    memset(r, 0, sizeof *r);
}

/* Header and row count; the row checks are the caller's. */
static bool compare_shape(const ts_result *res, const ts_csv *oracle, char *why, size_t whylen)
{
    if (oracle->n == 0) {
        snprintf(why, whylen, "empty oracle CSV");
        return false;
    }
    const ts_row *hdr = &oracle->rows[0];
    /* a table without columns has a header of one empty field */
    size_t oracle_cols = (hdr->n == 1 && hdr->cells[0].null) ? 0 : hdr->n;
    if (oracle_cols != res->ncols) {
        snprintf(why, whylen, "%u columns, oracle has %zu", res->ncols, oracle_cols);
        return false;
    }
    for (uint32_t c = 0; c < res->ncols; c++)
        if (strcmp(res->names[c], hdr->cells[c].text) != 0) {
            snprintf(why, whylen, "column %u named '%s', oracle '%s'", c, res->names[c], hdr->cells[c].text);
            return false;
        }
    if (res->rows.n != oracle->n - 1) {
        snprintf(why, whylen, "%zu rows, oracle has %zu", res->rows.n, oracle->n - 1);
        return false;
    }
    for (size_t r = 1; r < oracle->n; r++)
        if (oracle->rows[r].n != (res->ncols ? res->ncols : 1)) {
            snprintf(why, whylen, "oracle row %zu has %zu fields", r, oracle->rows[r].n);
            return false;
        }
    return true;
}

static void describe(const ts_result *res, const char *what, size_t r, uint32_t c, const ts_cell *ours,
                     const ts_cell *oracle, char *why, size_t whylen)
{
    snprintf(why, whylen, "%s %zu column %s (type %d): ours %s'%.200s', oracle %s'%.200s'", what, r,
             res->names[c], (int)ours->type, ours->null ? "NULL " : "", ours->text, oracle->null ? "NULL " : "",
             oracle->text);
}

bool ts_compare(const ts_result *res, const ts_csv *oracle, const ts_rules *rules, char *why, size_t whylen)
{
    if (!compare_shape(res, oracle, why, whylen))
        return false;
    for (size_t r = 0; r < res->rows.n; r++) {
        const ts_row *o = &oracle->rows[r + 1];
        for (uint32_t c = 0; c < res->ncols; c++) {
            const ts_cell *ours = &res->rows.rows[r].cells[c];
            if (!ts_same_cell(ours, &o->cells[c], rules)) {
                describe(res, "row", r + 1, c, ours, &o->cells[c], why, whylen);
                return false;
            }
        }
    }
    return true;
}

static size_t same_cells(const ts_result *res, const ts_row *ours, const ts_row *oracle, const ts_rules *rules)
{
    size_t same = 0;
    for (uint32_t c = 0; c < res->ncols; c++)
        same += ts_same_cell(&ours->cells[c], &oracle->cells[c], rules);
    return same;
}

/* Our unused row that matches oracle row o, else the closest one (n: none left). */
static size_t closest_row(const ts_result *res, const ts_row *o, const char *used, const ts_rules *rules,
                          size_t *best_same)
{
    size_t n = res->rows.n, best = n;
    *best_same = 0;
    for (size_t k = 0; k < n; k++) {
        if (used[k])
            continue;
        size_t same = same_cells(res, &res->rows.rows[k], o, rules);
        if (best == n || same > *best_same) {
            best = k;
            *best_same = same;
        }
        if (same == res->ncols)
            break;
    }
    return best;
}

bool ts_compare_multiset(const ts_result *res, const ts_csv *oracle, const ts_rules *rules,
                         char *why, size_t whylen)
{
    if (!compare_shape(res, oracle, why, whylen))
        return false;
    size_t n = res->rows.n;
    char *used = calloc(n + 1, 1);
    assert_non_null(used);
    bool ok = true;
    for (size_t r = 0; r < n && ok; r++) {
        const ts_row *o = &oracle->rows[r + 1];
        size_t best_same, best = closest_row(res, o, used, rules, &best_same);
        if (best < n && best_same == res->ncols) {
            used[best] = 1;
            continue;
        }
        ok = false;
        snprintf(why, whylen, "oracle row %zu has no match", r + 1);
        for (uint32_t c = 0; best < n && c < res->ncols; c++) {
            const ts_cell *ours = &res->rows.rows[best].cells[c];
            if (!ts_same_cell(ours, &o->cells[c], rules)) {
                describe(res, "oracle row with no match; the closest differs at row", r + 1, c, ours,
                         &o->cells[c], why, whylen);
                break;
            }
        }
    }
    free(used);
    return ok;
}
