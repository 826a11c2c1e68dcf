/*
** test_sqlite_corpus.c — every row of the shared SQLite corpus's MANIFEST
** against its oracle CSV, at the reader's level (lt_sqlite_reader.open, a
** scan of every column).
**
** Values are rendered the canonical CSV way (corpus README) from each row's
** own type (a tagged row of a dynamically typed column renders as what it
** holds); numbers compare with a relative tolerance of 1e-9, timestamps as
** instants.  Rows whose csv is "-" must fail with an error naming the file.
** Every table is read twice, with 2048-row and with 3-row batches.
**
** Rows the reader does not read yet are listed in `known` below with the
** reason; the test fails when a listed row starts to match (remove it) and
** when an unlisted row does not match, so nothing is skipped silently.
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
#include "sqlite/sqlite.h"

#define SQLITE_DIR LT_CORPUS_DIR "/sqlite"

/* ---- rows known not to match yet ------------------------------------------ */

typedef struct known_row {
    const char *file, *table, *why;
} known_row;

static const known_row known[] = {
    {"generated/views_indexes.db", "v_emp", "views: the engine must run the view's SELECT"},
    {"generated/views_indexes.db", "v_dept_stats", "views: the engine must run the view's SELECT"},
    {"generated/views_indexes.db", "v r&d", "views: the engine must run the view's SELECT"},
    {"realworld/mbtiles/some-empty-tiles.mbtiles", "tiles", "views: the engine must run the view's SELECT"},
    {"realworld/mbtiles/some-empty-tiles.mbtiles", "grids", "views: the engine must run the view's SELECT"},
    {"realworld/mbtiles/some-empty-tiles.mbtiles", "grid_data", "views: the engine must run the view's SELECT"},
    {"realworld/mbtiles/with spaces.mbtiles", "tiles", "views: the engine must run the view's SELECT"},
    {"realworld/mbtiles/with spaces.mbtiles", "grids", "views: the engine must run the view's SELECT"},
    {"realworld/mbtiles/with spaces.mbtiles", "grid_data", "views: the engine must run the view's SELECT"},
    {"realworld/android/mmssms.db", "pdu_restricted", "views: the engine must run the view's SELECT"},
    {"realworld/android/mmssms.db", "sms_restricted", "views: the engine must run the view's SELECT"},
};

/* ---- a small growable string ------------------------------------------------ */

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
    if (n)
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

static char *slurp(const char *path, size_t *len)
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
    sb_putn(&b, "", 0);
    *len = b.len;
    return b.p;
}

/* ---- CSV ---------------------------------------------------------------------- */

typedef struct cell {
    char *text;
    int null;
    lt_type type;      /* ours only: the row's type */
} cell;

typedef struct csv_row {
    cell *cells;
    size_t n;
} csv_row;

typedef struct csv {
    csv_row *rows;
    size_t n, cap;
} csv;

static void csv_add_row(csv *c, csv_row row)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 64;
        c->rows = realloc(c->rows, c->cap * sizeof *c->rows);
        assert_non_null(c->rows);
    }
    c->rows[c->n++] = row;
}

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
                    sb_putn(&f, s + i++, 1);
                }
            } else {
                size_t st = i;
                while (i < len && s[i] != ',' && s[i] != '\n')
                    i++;
                sb_putn(&f, s + st, i - st);
            }
            if ((row.n & (row.n - 1)) == 0 || row.n == 0)
                row.cells = realloc(row.cells, (row.n ? row.n * 2 : 1) * sizeof *row.cells);
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
        csv_add_row(out, row);
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
    memset(c, 0, sizeof *c);
}

/* ---- rendering ------------------------------------------------------------------- */

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

/* The value of one cell, honouring tags. */
static void cell_value(const lt_batch *batch, uint32_t col, uint32_t row, lt_value *out)
{
    const lt_vector *v = &batch->cols[col];
    if (!v->nulls[row] && v->tags != NULL && v->tags[row] != LT_NULL) {
        *out = v->other[row];
        assert_int_equal(out->type, lt_vector_row_type(v, row));
        return;
    }
    lt_batch_get(batch, col, row, out);
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
    case LT_TIME: {
        int h, mi, s, us;
        lt_time_split(v->u.i64, &h, &mi, &s, &us);
        sb_printf(b, "%02d:%02d:%02d", h, mi, s);
        if (us)
            sb_printf(b, ".%06d", us);
        break;
    }
    default:
        sb_putn(b, "?", 1);
        break;
    }
    return 1;
}

/* "YYYY-MM-DD[ T]HH:MM:SS[.f]" as microseconds; 0 on success. */
static int parse_timestamp(const char *s, int64_t *out)
{
    int y, mo, d, h = 0, mi = 0, sec = 0, n = 0;
    if (sscanf(s, "%d-%d-%d%n", &y, &mo, &d, &n) != 3)
        return -1;
    const char *p = s + n;
    if (*p == ' ' || *p == 'T') {
        int m = 0;
        if (sscanf(p + 1, "%d:%d%n", &h, &mi, &m) != 2)
            return -1;
        p += 1 + m;
        if (*p == ':') {
            if (sscanf(p + 1, "%d%n", &sec, &m) != 1)
                return -1;
            p += 1 + m;
        }
    }
    int64_t us = 0;
    if (*p == '.') {
        int digits = 0;
        for (p++; *p >= '0' && *p <= '9'; p++, digits++)
            if (digits < 6)
                us = us * 10 + (*p - '0');
        for (; digits < 6; digits++)
            us *= 10;
    }
    if (*p != '\0')
        return -1;
    *out = (int64_t)lt_days_from_civil(y, mo, d) * LT_USEC_PER_DAY +
           ((int64_t)h * 3600 + mi * 60 + sec) * 1000000 + us;
    return 0;
}

static int same_cell(const cell *ours, const cell *oracle)
{
    if (ours->null || oracle->null)
        return ours->null && oracle->null;
    if (strcmp(ours->text, oracle->text) == 0)
        return 1;
    lt_type type = ours->type;
    if (type == LT_INT64 || type == LT_DOUBLE || type == LT_BOOL) {
        char *e1, *e2;
        double a = strtod(ours->text, &e1), b = strtod(oracle->text, &e2);
        if (*e1 || *e2 || e1 == ours->text || e2 == oracle->text)
            return 0;
        if (a == b)
            return 1;
        double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
        return fabs(a - b) <= 1e-9 * scale;
    }
    if (type == LT_TIMESTAMP || type == LT_DATE) {
        int64_t a, b;
        return parse_timestamp(ours->text, &a) == 0 && parse_timestamp(oracle->text, &b) == 0 &&
               a == b;
    }
    return 0;
}

/* ---- reading a table ----------------------------------------------------------------- */

typedef struct result {
    int ok;
    char message[LT_ERROR_MESSAGE_MAX];
    uint32_t ncols;
    char **names;
    csv rows;
} result;

static void result_free(result *r)
{
    for (uint32_t c = 0; c < r->ncols; c++)
        free(r->names[c]);
    free(r->names);
    csv_free(&r->rows);
    memset(r, 0, sizeof *r);
}

static void read_table(lt_source *src, uint32_t ti, uint32_t capacity, result *res)
{
    memset(res, 0, sizeof *res);
    lt_error err;
    lt_error_clear(&err);
    const lt_table *t = &src->tables[ti];
    res->ncols = t->ncols;
    res->names = calloc(t->ncols + 1, sizeof *res->names);
    lt_type *types = calloc(t->ncols + 1, sizeof *types);
    uint32_t *cols = calloc(t->ncols + 1, sizeof *cols);
    int16_t *scales = calloc(t->ncols + 1, sizeof *scales);
    for (uint32_t c = 0; c < t->ncols; c++) {
        types[c] = t->cols[c].type;
        res->names[c] = strdup(t->cols[c].name);
        cols[c] = c;
        scales[c] = t->cols[c].scale;
    }
    lt_scan_spec spec = {.table = ti, .ncols = t->ncols, .cols = cols, .limit = -1};
    lt_scan *scan = NULL;
    lt_batch *batch = lt_batch_new(t->ncols, types, scales, capacity);
    assert_non_null(batch);
    strbuf b = {0};
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
        assert_true(batch->count <= capacity);
        for (uint32_t r = 0; r < batch->count; r++) {
            csv_row row = {calloc(t->ncols + 1, sizeof(cell)), t->ncols};
            for (uint32_t c = 0; c < t->ncols; c++) {
                lt_value v;
                cell_value(batch, c, r, &v);
                int present = render(&v, &b);
                row.cells[c].text = strdup(b.p);
                row.cells[c].null = !present;
                row.cells[c].type = v.type;
            }
            csv_add_row(&res->rows, row);
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
    free(types);
}

static int compare(const result *res, const csv *oracle, char *why, size_t whylen)
{
    if (oracle->n == 0) {
        snprintf(why, whylen, "empty oracle CSV");
        return 0;
    }
    const csv_row *hdr = &oracle->rows[0];
    if (hdr->n != res->ncols) {
        snprintf(why, whylen, "%u columns, oracle has %zu", res->ncols, hdr->n);
        return 0;
    }
    for (uint32_t c = 0; c < res->ncols; c++)
        if (strcmp(res->names[c], hdr->cells[c].text) != 0) {
            snprintf(why, whylen, "column %u named '%s', oracle '%s'", c, res->names[c],
                     hdr->cells[c].text);
            return 0;
        }
    if (res->rows.n != oracle->n - 1) {
        snprintf(why, whylen, "%zu rows, oracle has %zu", res->rows.n, oracle->n - 1);
        return 0;
    }
    for (size_t r = 0; r < res->rows.n; r++) {
        const csv_row *o = &oracle->rows[r + 1];
        if (o->n != res->ncols) {
            snprintf(why, whylen, "oracle row %zu has %zu fields", r + 1, o->n);
            return 0;
        }
        for (uint32_t c = 0; c < res->ncols; c++) {
            const cell *ours = &res->rows.rows[r].cells[c];
            if (!same_cell(ours, &o->cells[c])) {
                snprintf(why, whylen, "row %zu column %s: ours %s'%.120s', oracle %s'%.120s'", r + 1,
                         res->names[c], ours->null ? "NULL " : "", ours->text,
                         o->cells[c].null ? "NULL " : "", o->cells[c].text);
                return 0;
            }
        }
    }
    return 1;
}

/* ---- TSV files ----------------------------------------------------------------------- */

typedef struct tsv {
    char *text;
    char **fields;    /* rows x ncols */
    size_t nrows, ncols;
} tsv;

static void tsv_load(const char *path, size_t ncols, tsv *t)
{
    memset(t, 0, sizeof *t);
    size_t len;
    t->text = slurp(path, &len);
    t->ncols = ncols;
    if (t->text == NULL)
        return;
    char *save = NULL;
    int first = 1;
    for (char *line = strtok_r(t->text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (first) {
            first = 0;
            continue;
        }
        t->fields = realloc(t->fields, (t->nrows + 1) * ncols * sizeof *t->fields);
        char **f = &t->fields[t->nrows * ncols];
        for (size_t k = 0; k < ncols; k++) {
            f[k] = line;
            char *tab = line ? strchr(line, '\t') : NULL;
            if (tab) {
                *tab = '\0';
                line = tab + 1;
            } else {
                line = NULL;
                for (size_t j = k + 1; j < ncols; j++)
                    f[j] = "";
                break;
            }
        }
        t->nrows++;
    }
}

static void tsv_free(tsv *t)
{
    free(t->text);
    free(t->fields);
}

static const char *expectation(const tsv *expect, const char *file, const char *table)
{
    const char *e = "rows";
    for (size_t r = 0; r < expect->nrows; r++) {
        char **f = &expect->fields[r * expect->ncols];
        if ((strcmp(f[0], file) == 0 || strcmp(f[0], "*") == 0) &&
            (strcmp(f[1], table) == 0 || strcmp(f[1], "*") == 0))
            e = f[2];
    }
    return e;
}

static const known_row *find_known(const char *file, const char *table)
{
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (strcmp(known[i].file, file) == 0 && strcmp(known[i].table, table) == 0)
            return &known[i];
    return NULL;
}

static int names_file(const char *message, const char *file)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    return strstr(message, base) != NULL;
}

/* ---- the test ---------------------------------------------------------------------- */

/* Check one MANIFEST row; 1 when it behaves as the corpus says. */
static int check_row(lt_source *src, const char *open_error, char **f, const char *expect,
                     char *why, size_t whylen)
{
    const char *file = f[0], *table = f[1], *csvname = f[2], *notes = f[6];
    int want_error = strcmp(csvname, "-") == 0;
    int no_tables = want_error && strcmp(table, "-") == 0 && strstr(notes, "no tables (not an error)");
    if (no_tables) {
        if (src == NULL) {
            snprintf(why, whylen, "open failed: %s", open_error);
            return 0;
        }
        if (src->ntables != 0) {
            snprintf(why, whylen, "%u tables, expected none", src->ntables);
            return 0;
        }
        return 1;
    }
    if (strcmp(table, "-") == 0) {
        if (src != NULL) {
            snprintf(why, whylen, "opened, but the whole file must fail");
            return 0;
        }
        if (!names_file(open_error, file)) {
            snprintf(why, whylen, "error does not name the file: %s", open_error);
            return 0;
        }
        return 1;
    }
    if (src == NULL) {
        snprintf(why, whylen, "open failed: %s", open_error);
        return 0;
    }
    int64_t ti = -1;
    for (uint32_t i = 0; i < src->ntables && ti < 0; i++)
        if (strcmp(src->tables[i].name, table) == 0)
            ti = i;
    if (ti < 0) {
        snprintf(why, whylen, "table not listed");
        return 0;
    }
    result full, small;
    read_table(src, (uint32_t)ti, LT_BATCH_ROWS, &full);
    read_table(src, (uint32_t)ti, 3, &small);
    int ok;
    if (!full.ok) {
        int error_ok = want_error || strcmp(expect, "error") == 0 || strcmp(expect, "rows-or-error") == 0;
        ok = error_ok && small.ok == 0;
        if (ok && !names_file(full.message, file) && !strstr(full.message, table)) {
            snprintf(why, whylen, "error names neither file nor table: %s", full.message);
            ok = 0;
        } else if (!ok) {
            snprintf(why, whylen, "error: %s", full.message);
        }
    } else if (want_error || strcmp(expect, "error") == 0) {
        snprintf(why, whylen, "read %zu rows, but the oracle failed", full.rows.n);
        ok = 0;
    } else {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", SQLITE_DIR, csvname);
        size_t len;
        char *text = slurp(path, &len);
        assert_non_null(text);
        csv oracle;
        csv_parse(text, len, &oracle);
        free(text);
        ok = compare(&full, &oracle, why, whylen);
        if (ok && !(ok = small.ok && compare(&small, &oracle, why, whylen)))
            snprintf(why + strlen(why), whylen - strlen(why), " (3-row batches)");
        csv_free(&oracle);
    }
    result_free(&full);
    result_free(&small);
    return ok;
}

static void test_corpus(void **state)
{
    (void)state;
    tsv manifest, expect;
    tsv_load(SQLITE_DIR "/MANIFEST.tsv", 7, &manifest);
    tsv_load(SQLITE_DIR "/EXPECT.tsv", 5, &expect);
    assert_true(manifest.nrows > 0);
    size_t matched = 0, known_failing = 0, bad = 0;
    const char *open_file = NULL;
    lt_source *src = NULL;
    char open_error[LT_ERROR_MESSAGE_MAX] = "";
    for (size_t r = 0; r < manifest.nrows; r++) {
        char **f = &manifest.fields[r * 7];
        if (open_file == NULL || strcmp(open_file, f[0]) != 0) {
            if (src)
                src->reader->close(src);
            src = NULL;
            open_file = f[0];
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", SQLITE_DIR, f[0]);
            lt_error err;
            lt_error_clear(&err);
            if (lt_sqlite_reader.open(path, NULL, &src, &err) != 0) {
                src = NULL;
                snprintf(open_error, sizeof open_error, "%s", err.message);
            }
        }
        char why[1400] = "";
        const char *e = expectation(&expect, f[0], f[1]);
        int ok = check_row(src, open_error, f, e, why, sizeof why);
        const known_row *k = find_known(f[0], f[1]);
        if (ok && k == NULL) {
            matched++;
        } else if (ok && k != NULL) {
            printf("NOW PASSES (remove from the known list): %s %s\n", f[0], f[1]);
            matched++;
            bad++;
        } else if (!ok && k != NULL) {
            printf("known: %s [%s]: %s\n", f[0], f[1], k->why);
            known_failing++;
        } else {
            printf("FAIL: %s [%s]: %s\n", f[0], f[1], why);
            bad++;
        }
    }
    if (src)
        src->reader->close(src);
    printf("sqlite corpus: %zu/%zu MANIFEST rows match their oracle (%zu known, %zu unexpected)\n",
           matched, manifest.nrows, known_failing, bad);
    tsv_free(&manifest);
    tsv_free(&expect);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
