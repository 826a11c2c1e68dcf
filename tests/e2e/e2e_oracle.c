/*
** e2e_oracle.c — reading the corpus oracle: MANIFEST.tsv, EXPECT.tsv and
** the canonical CSV files (rules in the corpus README).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "e2e.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    e2e_buf b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        e2e_buf_add(&b, chunk, n);
    int err = ferror(f);
    fclose(f);
    if (err) {
        e2e_buf_free(&b);
        return NULL;
    }
    e2e_buf_str(&b);
    *len = b.len;
    return b.ptr;
}

static e2e_row *table_add_row(e2e_table *t)
{
    e2e_row *rows = realloc(t->rows, (t->nrows + 1) * sizeof *rows);
    if (!rows) {
        fprintf(stderr, "e2e: out of memory\n");
        exit(2);
    }
    t->rows = rows;
    e2e_row *r = &rows[t->nrows++];
    r->n = 0;
    r->f = NULL;
    return r;
}

static void row_add_field(e2e_row *r, e2e_buf *text, bool quoted)
{
    e2e_field *f = realloc(r->f, (r->n + 1) * sizeof *f);
    if (!f) {
        fprintf(stderr, "e2e: out of memory\n");
        exit(2);
    }
    r->f = f;
    e2e_buf_str(text);
    f[r->n].s = text->ptr;
    f[r->n].len = text->len;
    f[r->n].quoted = quoted;
    r->n++;
    text->ptr = NULL;
    text->len = text->cap = 0;
}

int e2e_csv_load(const char *path, e2e_table *out)
{
    size_t len = 0;
    char *s = slurp(path, &len);
    out->nrows = 0;
    out->rows = NULL;
    if (!s)
        return -1;
    size_t i = 0;
    while (i < len) {
        e2e_row *r = table_add_row(out);
        for (;;) {   /* one field per turn */
            e2e_buf text = {0};
            bool quoted = false;
            if (i < len && s[i] == '"') {
                quoted = true;
                for (i++; i < len; i++) {
                    if (s[i] == '"') {
                        if (i + 1 < len && s[i + 1] == '"') {
                            e2e_buf_add(&text, "\"", 1);
                            i++;
                        } else {
                            i++;
                            break;
                        }
                    } else {
                        e2e_buf_add(&text, s + i, 1);
                    }
                }
            }
            while (i < len && s[i] != ',' && s[i] != '\n' && s[i] != '\r')
                e2e_buf_add(&text, s + i++, 1);
            row_add_field(r, &text, quoted);
            if (i < len && s[i] == ',') {
                i++;
                continue;
            }
            if (i < len && s[i] == '\r')
                i++;
            if (i < len && s[i] == '\n')
                i++;
            break;
        }
    }
    free(s);
    return 0;
}

int e2e_tsv_load(const char *path, e2e_table *out)
{
    size_t len = 0;
    char *s = slurp(path, &len);
    out->nrows = 0;
    out->rows = NULL;
    if (!s)
        return -1;
    size_t i = 0;
    while (i < len) {
        e2e_row *r = table_add_row(out);
        for (;;) {
            e2e_buf text = {0};
            while (i < len && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
                e2e_buf_add(&text, s + i++, 1);
            row_add_field(r, &text, false);
            if (i < len && s[i] == '\t') {
                i++;
                continue;
            }
            if (i < len && s[i] == '\r')
                i++;
            if (i < len && s[i] == '\n')
                i++;
            break;
        }
    }
    free(s);
    return 0;
}

void e2e_table_free(e2e_table *t)
{
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t f = 0; f < t->rows[r].n; f++)
            free(t->rows[r].f[f].s);
        free(t->rows[r].f);
    }
    free(t->rows);
    t->rows = NULL;
    t->nrows = 0;
}

int e2e_table_col(const e2e_table *t, const char *name)
{
    if (t->nrows == 0)
        return -1;
    for (size_t i = 0; i < t->rows[0].n; i++)
        if (strcmp(t->rows[0].f[i].s, name) == 0)
            return (int)i;
    return -1;
}

static const char *cell(const e2e_table *t, size_t row, int col)
{
    if (col < 0 || row >= t->nrows || (size_t)col >= t->rows[row].n)
        return "";
    return t->rows[row].f[col].s;
}

static char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d) {
        fprintf(stderr, "e2e: out of memory\n");
        exit(2);
    }
    return d;
}

static char *join(const char *a, const char *b, const char *c)
{
    e2e_buf out = {0};
    e2e_buf_adds(&out, a);
    e2e_buf_adds(&out, b);
    e2e_buf_adds(&out, c);
    return (char *)e2e_buf_str(&out);
}

static bool matches(const char *pattern, const char *value)
{
    return strcmp(pattern, "*") == 0 || strcmp(pattern, value) == 0;
}

/* Apply the rows of an EXPECT.tsv-shaped table that match this case (later
** rows win).  The project's OVERRIDES.tsv adds a `format` column (rows of
** other formats are skipped) and a `csv` column: a corrected oracle under
** `csv_dir`. */
static int apply_expect(const e2e_table *ex, e2e_case *c, const char *table_col,
                        const char *format, const char *csv_dir)
{
    int fcol = e2e_table_col(ex, "file"), tcol = e2e_table_col(ex, "table");
    int ecol = e2e_table_col(ex, "expect"), ccol = e2e_table_col(ex, "connect");
    int fmtcol = e2e_table_col(ex, "format"), csvcol = e2e_table_col(ex, "csv");
    if (fcol < 0 || tcol < 0) {
        fprintf(stderr, "e2e: EXPECT.tsv lacks the file/table columns\n");
        return -1;
    }
    for (size_t r = 1; r < ex->nrows; r++) {
        if (!matches(cell(ex, r, fcol), c->file) ||
            !matches(cell(ex, r, tcol), table_col))
            continue;
        if (fmtcol >= 0 && strcmp(cell(ex, r, fmtcol), format) != 0)
            continue;
        if (csvcol >= 0 && csv_dir && cell(ex, r, csvcol)[0]) {
            free(c->csv);
            c->csv = join(csv_dir, "/", cell(ex, r, csvcol));
        }
        const char *e = cell(ex, r, ecol);
        if (strcmp(e, "error") == 0)
            c->expect = EXPECT_ERROR;
        else if (strcmp(e, "rows-or-error") == 0)
            c->expect = EXPECT_ROWS_OR_ERROR;
        else if (strcmp(e, "rows") == 0 || e[0] == '\0')
            c->expect = EXPECT_ROWS;
        else if (strcmp(e, "known-failure") == 0 && csv_dir != NULL)
            c->expect = EXPECT_KNOWN_FAILURE;
        else if (strcmp(e, "rows-any-order") == 0 && csv_dir != NULL)
            c->expect = EXPECT_ROWS_ANY_ORDER;
        else {
            fprintf(stderr, "e2e: EXPECT.tsv: unknown expect '%s'\n", e);
            return -1;
        }
        if (ccol >= 0 && cell(ex, r, ccol)[0]) {
            free(c->connect);
            c->connect = xstrdup(cell(ex, r, ccol));
        }
    }
    return 0;
}

int e2e_cases_load(const char *corpus, const char *format, e2e_case **out)
{
    char *dir = join(corpus, "/", format);
    char *manifest = join(dir, "/MANIFEST.tsv", "");
    char *expect = join(dir, "/EXPECT.tsv", "");
    e2e_table man = {0}, ex = {0}, ov = {0};
    int n = -1;
    *out = NULL;
    if (e2e_tsv_load(manifest, &man) || man.nrows < 1) {
        fprintf(stderr, "e2e: cannot read %s\n", manifest);
        goto done;
    }
    bool have_expect = e2e_tsv_load(expect, &ex) == 0;
    bool have_overrides = e2e_tsv_load(LT_OVERRIDES_DIR "/OVERRIDES.tsv", &ov) == 0;
    int fcol = e2e_table_col(&man, "file"), tcol = e2e_table_col(&man, "table");
    int ccol = e2e_table_col(&man, "csv");
    if (fcol < 0 || tcol < 0 || ccol < 0) {
        fprintf(stderr, "e2e: %s lacks the file/table/csv columns\n", manifest);
        goto done;
    }
    e2e_case *cases = calloc(man.nrows, sizeof *cases);
    if (!cases) {
        fprintf(stderr, "e2e: out of memory\n");
        exit(2);
    }
    n = 0;
    for (size_t r = 1; r < man.nrows; r++) {
        const char *file = cell(&man, r, fcol);
        if (!file[0])
            continue;
        e2e_case *c = &cases[n++];
        c->file = xstrdup(file);
        c->path = join(dir, "/", file);
        const char *table = cell(&man, r, tcol);
        if (strcmp(table, "-") == 0 || !table[0]) {
            char stem[256];
            e2e_stem(file, stem, sizeof stem);
            c->table = xstrdup(stem);
        } else {
            c->table = xstrdup(table);
        }
        const char *csv = cell(&man, r, ccol);
        c->csv = strcmp(csv, "-") == 0 || !csv[0] ? NULL : join(dir, "/", csv);
        c->connect = xstrdup("");
        c->expect = c->csv ? EXPECT_ROWS : EXPECT_ERROR;
        if ((have_expect && apply_expect(&ex, c, table, format, NULL)) ||
            (have_overrides && apply_expect(&ov, c, table, format, LT_OVERRIDES_DIR))) {
            e2e_cases_free(cases, n);
            n = -1;
            goto done;
        }
        if (!c->csv && c->expect != EXPECT_ERROR) {
            /* Without an oracle only an error can be checked. */
            c->expect = EXPECT_ERROR;
        }
    }
    *out = cases;
done:
    e2e_table_free(&man);
    e2e_table_free(&ex);
    e2e_table_free(&ov);
    free(dir);
    free(manifest);
    free(expect);
    return n;
}

void e2e_cases_free(e2e_case *cases, int n)
{
    for (int i = 0; i < n; i++) {
        free(cases[i].file);
        free(cases[i].path);
        free(cases[i].table);
        free(cases[i].csv);
        free(cases[i].connect);
    }
    free(cases);
}
