/*
** csv.c — the text side of the corpus oracle: a growable string, whole
** files, the oracle CSVs (RFC 4180: a quoted field may hold commas,
** newlines and doubled quotes; an empty unquoted field is NULL) and the
** MANIFEST/EXPECT TSV files with their connection keywords.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"

/* ---- text -------------------------------------------------------------------- */

void ts_putn(ts_str *b, const char *s, size_t n)
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

void ts_printf(ts_str *b, const char *fmt, ...)
{
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && (size_t)n < sizeof tmp);
    ts_putn(b, tmp, (size_t)n);
}

char *ts_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    ts_str b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        ts_putn(&b, chunk, n);
    fclose(f);
    ts_putn(&b, "", 0);
    *len = b.len;
    return b.p;
}

const char *ts_base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

bool ts_names_file(const char *message, const char *file)
{
    return strstr(message, ts_base_name(file)) != NULL;
}

/* ---- CSV ------------------------------------------------------------------------ */

void ts_csv_add(ts_csv *c, ts_row row)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 64;
        c->rows = realloc(c->rows, c->cap * sizeof *c->rows);
        assert_non_null(c->rows);
    }
    c->rows[c->n++] = row;
}

static void row_add(ts_row *r, char *text, bool null)
{
    /* grow at powers of two: the row's capacity is implied by n */
    if (r->n == 0 || (r->n & (r->n - 1)) == 0) {
        r->cells = realloc(r->cells, (r->n ? r->n * 2 : 1) * sizeof *r->cells);
        assert_non_null(r->cells);
    }
    r->cells[r->n++] = (ts_cell){text, null, LT_NULL};
}

/* One field starting at s[*i]; leaves *i on the comma or newline after it. */
static void parse_field(const char *s, size_t len, size_t *i, ts_row *row)
{
    ts_str f = {0};
    ts_putn(&f, "", 0);
    bool quoted = *i < len && s[*i] == '"';
    if (quoted) {
        for ((*i)++; *i < len; (*i)++) {
            if (s[*i] == '"' && *i + 1 < len && s[*i + 1] == '"')
                ts_putn(&f, s + (*i)++, 1);
            else if (s[*i] == '"')
                break;
            else
                ts_putn(&f, s + *i, 1);
        }
        (*i)++;
    }
    size_t start = *i;
    while (*i < len && s[*i] != ',' && s[*i] != '\n')
        (*i)++;
    if (*i > start)
        ts_putn(&f, s + start, *i - start);
    row_add(row, f.p, !quoted && f.len == 0);
}

void ts_csv_parse(const char *s, size_t len, ts_csv *out)
{
    memset(out, 0, sizeof *out);
    size_t i = 0;
    while (i < len) {
        ts_row row = {0};
        for (;;) {
            parse_field(s, len, &i, &row);
            if (i < len && s[i] == ',') {
                i++;
                continue;
            }
            i++;   /* the newline */
            break;
        }
        ts_csv_add(out, row);
    }
}

void ts_csv_load(const char *path, ts_csv *out)
{
    size_t len;
    char *text = ts_slurp(path, &len);
    if (text == NULL)
        fail_msg("cannot read %s", path);
    ts_csv_parse(text, len, out);
    free(text);
}

static void row_free(ts_row *r)
{
    for (size_t k = 0; k < r->n; k++)
        free(r->cells[k].text);
    free(r->cells);
}

void ts_csv_drop_row(ts_csv *c, size_t r)
{
    assert_true(r < c->n);
    row_free(&c->rows[r]);
    memmove(&c->rows[r], &c->rows[r + 1], (c->n - r - 1) * sizeof *c->rows);
    c->n--;
}

void ts_csv_free(ts_csv *c)
{
    for (size_t r = 0; r < c->n; r++)
        row_free(&c->rows[r]);
    free(c->rows);
    memset(c, 0, sizeof *c);
}

/* ---- TSV -------------------------------------------------------------------------- */

bool ts_tsv_load(const char *path, size_t ncols, ts_tsv *t)
{
    memset(t, 0, sizeof *t);
    t->ncols = ncols;
    size_t len;
    t->text = ts_slurp(path, &len);
    if (t->text == NULL)
        return false;
    char *save = NULL;
    bool header = true;
    for (char *line = strtok_r(t->text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (header || line[0] == '#') {
            header = false;
            continue;
        }
        t->fields = realloc(t->fields, (t->nrows + 1) * ncols * sizeof *t->fields);
        assert_non_null(t->fields);
        char **f = &t->fields[t->nrows++ * ncols];
        for (size_t k = 0; k < ncols; k++) {
            f[k] = line != NULL ? line : "";
            char *tab = line != NULL ? strchr(line, '\t') : NULL;
            if (tab != NULL)
                *tab = '\0';
            line = tab != NULL ? tab + 1 : NULL;
        }
    }
    return true;
}

char **ts_tsv_row(const ts_tsv *t, size_t r)
{
    return &t->fields[r * t->ncols];
}

void ts_tsv_free(ts_tsv *t)
{
    free(t->text);
    free(t->fields);
    memset(t, 0, sizeof *t);
}

void ts_expectation(const ts_tsv *ex, const char *file, const char *table,
                    const char **expect, const char **connect)
{
    *expect = "rows";
    *connect = "";
    for (size_t r = 0; r < ex->nrows; r++) {
        char **f = ts_tsv_row(ex, r);
        if ((strcmp(f[0], "*") == 0 || strcmp(f[0], file) == 0) &&
            (table == NULL || strcmp(f[1], "*") == 0 || strcmp(f[1], table) == 0)) {
            *expect = f[2];
            *connect = f[3];
        }
    }
}

lt_options ts_parse_connect(const char *connect, char *buf, size_t cap, lt_option *items, size_t max)
{
    lt_options o = {0, items};
    snprintf(buf, cap, "%s", connect);
    char *save = NULL;
    for (char *kv = strtok_r(buf, ";", &save); kv && o.count < max; kv = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(kv, '=');
        if (eq == NULL)
            continue;
        *eq = '\0';
        items[o.count].key = kv;
        items[o.count].value = eq + 1;
        o.count++;
    }
    return o;
}
